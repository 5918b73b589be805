//! `intake jobs export` and `intake jobs erase`: a person's right to see and
//! to erase what the service holds about them (docs/operations.md,
//! "Personal data"). A person is found by e-mail address (any case) or
//! phone number (any written form): in their jobs' own columns, and in the
//! submissions held in quarantine, which are read to find theirs.

use super::leads::{delivery_json, open, rfc3339};
use crate::cli::{EraseTarget, JobsCommand};
use anyhow::bail;
use intake_core::delivery::{Delivery, DeliveryFilter, DeliveryState};
use intake_core::jobs::{Phone, Quarantined, StoredJob};
use intake_core::store::{ExpiredJob, Person, Store, StoreError};
use serde_json::{json, Value};
use std::process::ExitCode;

pub async fn run(command: JobsCommand) -> anyhow::Result<ExitCode> {
    match command {
        JobsCommand::Export { store, person } => {
            let (settings, store) = open(&store).await?;
            let person = person_of(person.email, person.phone)?;
            let held = Held::find(store.as_ref(), &person).await?;
            let base = settings.server_config()?.public_base_url;
            outln!(
                "{}",
                serde_json::to_string_pretty(&held.json(&person, &base))?
            )?;
            Ok(ExitCode::SUCCESS)
        }
        JobsCommand::Erase { store, target } => {
            let (settings, store) = open(&store).await?;
            let held = match target {
                EraseTarget {
                    job_id: Some(id), ..
                } => Held::job(store.as_ref(), &id).await?,
                EraseTarget { email, phone, .. } => {
                    Held::find(store.as_ref(), &person_of(email, phone)?).await?
                }
            };
            let (images, _) = super::serve::open_images(&settings)?;
            erase(store.as_ref(), &images, held).await
        }
    }
}

fn person_of(email: Option<String>, phone: Option<String>) -> anyhow::Result<Person> {
    match (email, phone) {
        (Some(email), None) => Ok(Person::Email(email)),
        (None, Some(phone)) if Phone::parse(&phone).is_some() => Ok(Person::Phone(phone)),
        (None, Some(phone)) => bail!("`{phone}` is not a phone number"),
        _ => bail!("give --email or --phone"),
    }
}

/// What the store holds about a person.
struct Held {
    jobs: Vec<(StoredJob, Vec<Delivery>)>,
    quarantined: Vec<Quarantined>,
}

impl Held {
    async fn find(store: &dyn Store, person: &Person) -> anyhow::Result<Held> {
        let mut jobs = Vec::new();
        for id in store.jobs_of(person).await? {
            jobs.extend(with_leads(store, &id).await?);
        }
        let quarantined = store
            .quarantined(true)
            .await?
            .into_iter()
            .filter(|entry| {
                let submission: Value =
                    serde_json::from_str(&entry.submission).unwrap_or(Value::Null);
                person.matches(submission["email"].as_str(), submission["phone"].as_str())
            })
            .collect();
        Ok(Held { jobs, quarantined })
    }

    async fn job(store: &dyn Store, id: &str) -> anyhow::Result<Held> {
        let Some(job) = with_leads(store, id).await? else {
            bail!("there is no job `{id}`");
        };
        Ok(Held {
            jobs: vec![job],
            quarantined: Vec::new(),
        })
    }

    fn json(&self, person: &Person, public_base_url: &str) -> Value {
        let jobs: Vec<Value> = self
            .jobs
            .iter()
            .map(|(stored, leads)| {
                let mut job =
                    serde_json::to_value(intake_server::job_view(stored, public_base_url))
                        .expect("a job view serialises");
                job["keyId"] = json!(stored.job.key_id);
                job["application"] = json!(stored.job.application);
                job["requestId"] = json!(stored.job.request_id);
                job["leads"] = leads.iter().map(delivery_json).collect();
                job
            })
            .collect();
        let quarantined: Vec<Value> = self
            .quarantined
            .iter()
            .map(|entry| {
                json!({
                    "id": entry.id,
                    "environment": entry.environment.as_str(),
                    "keyId": entry.key_id,
                    "application": entry.application,
                    "receivedAt": rfc3339(entry.received_at),
                    "submission": serde_json::from_str::<Value>(&entry.submission)
                        .unwrap_or_else(|_| json!(entry.submission)),
                    "score": entry.score,
                    "releasedJobId": entry.released_job_id,
                    // An operator's decision keeps this submission's
                    // description (contact details removed) for training;
                    // an erasure removes it with the entry.
                    "decision": entry.decision.map(intake_core::spam::Verdict::as_str),
                })
            })
            .collect();
        let person = match person {
            Person::Email(email) => json!({ "email": email }),
            Person::Phone(phone) => json!({ "phone": phone }),
        };
        json!({ "person": person, "jobs": jobs, "quarantined": quarantined })
    }
}

/// The job `id` with its leads, if it exists.
async fn with_leads(
    store: &dyn Store,
    id: &str,
) -> Result<Option<(StoredJob, Vec<Delivery>)>, StoreError> {
    let Some(job) = store.job(id).await? else {
        return Ok(None);
    };
    let leads = store
        .deliveries(&DeliveryFilter {
            job_id: Some(id.to_owned()),
            ..DeliveryFilter::default()
        })
        .await?;
    Ok(Some((job, leads)))
}

/// Removes the jobs as retention does (photos first, then the rows with
/// their leads), then the quarantined submissions, then scrubs the store's
/// files; prints what it removed.
async fn erase(
    store: &dyn Store,
    images: &intake_server::ImageStore,
    held: Held,
) -> anyhow::Result<ExitCode> {
    let leads: usize = held.jobs.iter().map(|(_, leads)| leads.len()).sum();
    let pending = held
        .jobs
        .iter()
        .flat_map(|(_, leads)| leads)
        .filter(|lead| lead.state == DeliveryState::Pending)
        .count();
    let jobs: Vec<ExpiredJob> = held
        .jobs
        .iter()
        .map(|(stored, _)| ExpiredJob {
            id: stored.job.id.clone(),
            image_keys: stored
                .job
                .images
                .iter()
                .map(|image| image.object_key.clone())
                .collect(),
        })
        .collect();
    let (jobs, photos) = intake_server::retention::remove_jobs(store, images, &jobs).await?;
    let quarantine_ids: Vec<String> = held.quarantined.iter().map(|q| q.id.clone()).collect();
    let quarantined = store.delete_quarantined(&quarantine_ids).await?;
    outln!(
        "erased {jobs} jobs ({photos} photos, {leads} leads, of which {pending} pending and now never sent) and {quarantined} quarantined submissions"
    )?;
    if let Err(error) = store.scrub().await {
        eprintln!("error: the records are deleted, but old copies may remain in the database's files: {error}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
