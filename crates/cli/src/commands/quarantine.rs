//! `intake spam review | release`: nothing classified as spam is lost, and a
//! release is kept as an operator's decision for training (docs/spam.md).

use crate::cli::StoreArgs;
use crate::config::{self, FlagOverrides};
use crate::{logging, open_store};
use anyhow::Context;
use intake_core::directory::Directory;
use intake_core::jobs::route::recipients;
use intake_core::jobs::{validate, NewJob, Quarantined};
use intake_core::spam::Verdict;
use intake_core::{Store, StoreError};
use serde_json::json;
use std::process::ExitCode;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

pub async fn review(store_args: &StoreArgs, all: bool, as_json: bool) -> anyhow::Result<ExitCode> {
    let settings = config::load(
        store_args.config.as_deref(),
        FlagOverrides::from_store(store_args),
    )?;
    logging::init(settings.server.log_format);
    let entries = open_store::open(&settings).await?.quarantined(all).await?;
    if as_json {
        let rows: Vec<_> = entries.iter().map(entry_json).collect();
        outln!("{}", serde_json::Value::Array(rows))?;
        return Ok(ExitCode::SUCCESS);
    }
    for entry in &entries {
        let released = match (&entry.released_job_id, entry.decision) {
            (Some(id), _) => format!(" released as {id}"),
            (None, Some(Verdict::Spam)) => " confirmed spam".to_owned(),
            _ => String::new(),
        };
        outln!(
            "{} {} {} ({}) score {:.2}{released}\n  model: {}\n  reasons: {}\n  job: {}",
            entry.id,
            entry.received_at.format(&Rfc3339).unwrap_or_default(),
            entry.key_id,
            entry.application,
            entry.score,
            entry.model_version.as_deref().unwrap_or("none"),
            entry.reasons,
            entry.submission
        )?;
    }
    outln!("{} quarantined submission(s)", entries.len())?;
    Ok(ExitCode::SUCCESS)
}

pub async fn release(store_args: &StoreArgs, id: &str) -> anyhow::Result<ExitCode> {
    let settings = config::load(
        store_args.config.as_deref(),
        FlagOverrides::from_store(store_args),
    )?;
    logging::init(settings.server.log_format);
    let store = open_store::open(&settings).await?;
    let entry = entry(store.as_ref(), id).await?;
    let decision = super::spam::decision_on(&entry, Verdict::Ham)?;
    let directory = Directory::load(store.as_ref()).await?;
    let submission: serde_json::Value =
        serde_json::from_str(&entry.submission).context("the stored submission is not JSON")?;
    let job = validate(&submission, &directory.tree).map_err(|errors| {
        anyhow::anyhow!(
            "the submission no longer validates: {}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let chosen = recipients(
        store.as_ref(),
        &directory,
        &job,
        settings.jobs.max_recipients,
    )
    .await?;
    if chosen.is_empty() {
        anyhow::bail!(
            "no trade in category {} covers {} now; nothing was released",
            job.category_id,
            job.postcode
        );
    }
    let new_job = NewJob {
        id: uuid::Uuid::now_v7().to_string(),
        environment: entry.environment,
        key_id: entry.key_id.clone(),
        application: entry.application.clone(),
        creation_source: entry.creation_source,
        request_id: entry.request_id.clone(),
        received_at: OffsetDateTime::now_utc(),
        fingerprint: intake_core::history::fingerprint(&job.description),
        job,
        recipients: chosen,
        images: Vec::new(),
        idempotency: Vec::new(),
    };
    match store.release(id, &new_job, &decision).await {
        Ok(()) => {
            let trades: Vec<_> = new_job
                .recipients
                .iter()
                .map(|r| json!({"id": r.company_id, "name": r.name}))
                .collect();
            outln!(
                "{}",
                json!({"released": id, "jobId": new_job.id, "trades": trades})
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(StoreError::Conflict(why)) => {
            eprintln!("error: `{id}` was {why}");
            Ok(ExitCode::from(2))
        }
        Err(error) => Err(error.into()),
    }
}

/// The quarantine entry `id`, decided on or not.
pub(crate) async fn entry(store: &dyn Store, id: &str) -> anyhow::Result<Quarantined> {
    store
        .quarantined(true)
        .await?
        .into_iter()
        .find(|entry| entry.id == id)
        .with_context(|| format!("there is no quarantined submission `{id}`"))
}

fn entry_json(entry: &Quarantined) -> serde_json::Value {
    json!({
        "id": entry.id,
        "receivedAt": entry.received_at.format(&Rfc3339).unwrap_or_default(),
        "environment": entry.environment,
        "keyId": entry.key_id,
        "application": entry.application,
        "creationSource": entry.creation_source.as_str(),
        "score": entry.score,
        "reasons": serde_json::from_str::<serde_json::Value>(&entry.reasons).unwrap_or_default(),
        "submission": serde_json::from_str::<serde_json::Value>(&entry.submission).unwrap_or_default(),
        "releasedJobId": entry.released_job_id,
        "modelVersion": entry.model_version,
        "decision": entry.decision.map(Verdict::as_str),
    })
}
