//! The intake pipeline: one submitted job, in one order, on one directory
//! snapshot.
//!
//! ```text
//! validate → shortlist → earlier answer + the consumer's history + the
//! shortlist's recent leads → spam screen → recipients → NewJob → store
//! ```
//!
//! Matching is in memory, so the shortlist is made before the store is
//! asked: its recent leads come in the same round trip as the history.
//!
//! [`Intake::create`] and [`Intake::verify`] run the same steps through one
//! function with a [`Mode`], so the verify endpoint refuses exactly what the
//! real ones refuse. They differ only where the mode says: creating looks up
//! an earlier answer (a repeat gets it even when the job is invalid),
//! quarantines spam and refuses a job no trade serves; verifying writes and
//! looks up nothing and reports an empty list of trades. Creating is two
//! steps, [`Intake::create`] then [`Intake::commit`], so that photos can be
//! checked and stored in between.
//!
//! The HTTP handlers are adapters around it: decode the request, call,
//! encode the answer. Nothing here knows HTTP.

mod submission;

pub use submission::{Repeat, Submission};

use crate::directory::Directory;
use crate::environment::Environment;
use crate::history::{fingerprint, ContactHistory, HistoryQuery};
use crate::jobs::{
    route, validate, CreateOutcome, CreationSource, FieldError, JobImage, NewJob, NewRecipient,
    Quarantined, ValidatedJob,
};
use crate::spam::{Assessment, Screen, SpamInput};
use crate::store::{EarlierOrHistory, LeadsQuery, Store, StoreError};
use intake_api::jobs::{JobCreated, TradeRef};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;

/// What the pipeline needs of the service's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct IntakeSettings {
    /// Most trades a job goes to.
    pub max_recipients: usize,
    /// How long the answer is kept under an `Idempotency-Key`.
    pub idempotency_ttl: Duration,
    /// How long the answer is kept under the request's signature: as long as
    /// the signature could be replayed (twice the allowed clock skew).
    pub signature_ttl: Duration,
    /// The marketplace's public address; profiles are `{this}/trades/{id}`.
    pub public_base_url: String,
}

/// The intake pipeline of one process: its store, spam screen and settings.
/// Each call is given the directory snapshot it runs on.
pub struct Intake {
    store: Arc<dyn Store>,
    screen: Arc<dyn Screen>,
    settings: IntakeSettings,
}

/// The affiliate key a submission was signed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The key id.
    pub key_id: String,
    /// The affiliate application (the key's name).
    pub application: String,
    /// The key's environment.
    pub environment: Environment,
}

/// Where a submission came from, kept with its job or quarantine entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The endpoint it arrived at.
    pub source: CreationSource,
    /// The request's `x-request-id`.
    pub request_id: String,
}

/// One submitted job, as the edge decoded it.
#[derive(Debug)]
pub struct Submitted<'a, E> {
    /// Who signed it.
    pub caller: &'a Caller,
    /// Where it came from.
    pub origin: &'a Origin,
    /// The job's JSON, or why the edge could not read one (`E` is the edge's
    /// own error, handed back as [`Stop::Undecodable`]).
    pub body: Result<serde_json::Value, E>,
}

/// Why a submission goes no further.
#[derive(Debug)]
pub enum Stop<E> {
    /// An earlier submission with one of its scopes was written: its answer.
    Repeat(Repeat),
    /// The edge could not read a job from the request.
    Undecodable(E),
    /// The job breaks these rules (every problem, in member order).
    Invalid(Vec<FieldError>),
    /// The spam screen refused it (and, when creating, it was quarantined).
    Spam(Assessment),
    /// No trade in the category covers the postcode (creating only).
    NoTrades {
        /// The category asked for.
        category_id: u32,
        /// Its label in the snapshot's tree.
        label: String,
        /// The job's postcode.
        postcode: String,
    },
    /// The store could not answer or write; nothing was written.
    Store(StoreError),
}

impl<E> From<StoreError> for Stop<E> {
    fn from(error: StoreError) -> Self {
        Stop::Store(error)
    }
}

/// A job checked, screened and matched, ready for [`Intake::commit`].
#[derive(Debug)]
pub struct Prepared {
    caller: Caller,
    origin: Origin,
    submission: Submission,
    job: ValidatedJob,
    recipients: Vec<NewRecipient>,
}

impl Prepared {
    /// The checked job.
    pub fn job(&self) -> &ValidatedJob {
        &self.job
    }

    /// Its recipients, best first (never empty).
    pub fn recipients(&self) -> &[NewRecipient] {
        &self.recipients
    }
}

/// What verifying found: the job as read and who would receive it.
#[derive(Debug)]
pub struct Verified {
    /// The checked job.
    pub job: ValidatedJob,
    /// Its recipients, best first; empty when no trade serves it.
    pub recipients: Vec<NewRecipient>,
}

/// What [`Intake::commit`] did.
#[derive(Debug)]
pub enum Committed {
    /// The job is stored with its recipients and idempotency records.
    Created {
        /// The job's id.
        id: String,
        /// How many trades it goes to.
        recipients: usize,
        /// The answer (JSON of [`JobCreated`]), as kept for repeats.
        answer: String,
    },
    /// A concurrent repeat was written first: nothing was written.
    Repeat(Repeat),
}

/// Create or verify: the one switch in the pipeline.
enum Mode<'a> {
    Create(&'a Submission),
    Verify,
}

/// A job that passed the checks of either mode.
struct Checked {
    job: ValidatedJob,
    recipients: Vec<NewRecipient>,
}

impl Intake {
    /// A pipeline writing to `store` and screening with `screen`.
    pub fn new(store: Arc<dyn Store>, screen: Arc<dyn Screen>, settings: IntakeSettings) -> Self {
        Intake {
            store,
            screen,
            settings,
        }
    }

    /// The settings it runs with.
    pub fn settings(&self) -> &IntakeSettings {
        &self.settings
    }

    /// Checks a submission for creation: its earlier answer (even when the
    /// job is invalid), then validation, the spam screen (spam is kept in
    /// quarantine) and matching (a job no trade serves is refused). Nothing
    /// of the job is written yet.
    pub async fn create<E>(
        &self,
        directory: &Directory,
        submission: &Submission,
        submitted: Submitted<'_, E>,
    ) -> Result<Prepared, Stop<E>> {
        let (caller, origin) = (submitted.caller, submitted.origin);
        let checked = self
            .run(directory, Mode::Create(submission), submitted)
            .await?;
        Ok(Prepared {
            caller: caller.clone(),
            origin: origin.clone(),
            submission: submission.clone(),
            job: checked.job,
            recipients: checked.recipients,
        })
    }

    /// Checks a submission as [`Intake::create`] would, writing and looking
    /// up nothing: spam is refused but not kept, and a job no trade serves
    /// comes back with no recipients.
    pub async fn verify<E>(
        &self,
        directory: &Directory,
        submitted: Submitted<'_, E>,
    ) -> Result<Verified, Stop<E>> {
        let checked = self.run(directory, Mode::Verify, submitted).await?;
        Ok(Verified {
            job: checked.job,
            recipients: checked.recipients,
        })
    }

    /// Writes a prepared job with its photos, its recipients' leads (in
    /// production) and its idempotency records, in one transaction.
    pub async fn commit(
        &self,
        prepared: Prepared,
        images: Vec<JobImage>,
    ) -> Result<Committed, StoreError> {
        let Prepared {
            caller,
            origin,
            submission,
            job,
            recipients,
        } = prepared;
        let received_at = OffsetDateTime::now_utc();
        let id = uuid::Uuid::now_v7().to_string();
        let created = JobCreated {
            id: id.clone(),
            trades: recipients
                .iter()
                .map(|r| TradeRef {
                    id: r.company_id,
                    name: r.name.clone(),
                    profile_url: self.profile_url(r.company_id),
                })
                .collect(),
        };
        let answer = serde_json::to_string(&created)
            .map_err(|error| StoreError::Other(format!("encoding the answer: {error}")))?;
        let idempotency = submission.records(
            201,
            &answer,
            received_at,
            self.settings.idempotency_ttl,
            self.settings.signature_ttl,
        );
        let new_job = NewJob {
            id,
            environment: caller.environment,
            key_id: caller.key_id,
            application: caller.application,
            creation_source: origin.source,
            request_id: origin.request_id,
            received_at,
            fingerprint: fingerprint(&job.description),
            job,
            recipients,
            images,
            idempotency,
        };
        match self.store.create_job(&new_job).await? {
            CreateOutcome::Created => {
                tracing::info!(job_id = %new_job.id, key_id = %new_job.key_id, recipients = new_job.recipients.len(), "job created");
                Ok(Committed::Created {
                    id: new_job.id,
                    recipients: new_job.recipients.len(),
                    answer,
                })
            }
            CreateOutcome::Existing(record) => Ok(Committed::Repeat(submission.judge(record))),
        }
    }

    /// The pipeline, in its one order.
    async fn run<E>(
        &self,
        directory: &Directory,
        mode: Mode<'_>,
        submitted: Submitted<'_, E>,
    ) -> Result<Checked, Stop<E>> {
        let Submitted {
            caller,
            origin,
            body,
        } = submitted;
        let now = OffsetDateTime::now_utc();
        let value = match body {
            Ok(value) => value,
            Err(error) => return Err(self.earlier_or(&mode, now, Stop::Undecodable(error)).await),
        };
        let job = match validate(&value, &directory.tree) {
            Ok(job) => job,
            Err(errors) => return Err(self.earlier_or(&mode, now, Stop::Invalid(errors)).await),
        };
        let query = HistoryQuery::for_job(&job, &caller.key_id, caller.environment, now);
        // Matching is in memory: its shortlist is known before the reads,
        // so that its trades' recent leads come with the history.
        let shortlist = route::shortlist(directory, &job, self.settings.max_recipients);
        let leads = route::leads_query(&shortlist, now);
        let (history, recent_leads) = self.history(&mode, now, &query, &leads).await?;
        let assessment = self.screen.assess(&spam_input(&job, history));
        if assessment.is_spam {
            match mode {
                Mode::Create(_) => self.quarantine(caller, origin, &value, &assessment).await?,
                // The reasons are for us only: logged, never answered.
                Mode::Verify => {
                    tracing::info!(key_id = %caller.key_id, score = assessment.score, reasons = ?assessment.reasons, "verified job classified as spam")
                }
            }
            return Err(Stop::Spam(assessment));
        }
        let recipients = route::choose(
            directory,
            shortlist,
            &recent_leads,
            self.settings.max_recipients,
        );
        if recipients.is_empty() && matches!(mode, Mode::Create(_)) {
            return Err(Stop::NoTrades {
                category_id: job.category_id,
                label: directory
                    .tree
                    .get(job.category_id)
                    .map(|c| c.label.clone())
                    .unwrap_or_default(),
                postcode: job.postcode.to_string(),
            });
        }
        Ok(Checked { job, recipients })
    }

    /// The consumer's history and the shortlist's recent leads; when
    /// creating, asked together with the earlier answer (one store round
    /// trip), which wins if there is one.
    async fn history<E>(
        &self,
        mode: &Mode<'_>,
        now: OffsetDateTime,
        query: &HistoryQuery,
        leads: &LeadsQuery,
    ) -> Result<(ContactHistory, HashMap<u64, u32>), Stop<E>> {
        match mode {
            Mode::Verify => Ok((
                self.store.contact_history(query).await?,
                self.store
                    .recent_leads(&leads.company_ids, leads.since)
                    .await?,
            )),
            Mode::Create(submission) => match self
                .store
                .earlier_answer_or_history(&submission.scopes(), now, query, leads)
                .await?
            {
                EarlierOrHistory::Earlier(record) => Err(Stop::Repeat(submission.judge(record))),
                EarlierOrHistory::History {
                    history,
                    recent_leads,
                } => Ok((history, recent_leads)),
            },
        }
    }

    /// When creating, the earlier answer to this submission if there is one;
    /// else `stop`. A repeat thus gets its first answer whatever it holds.
    async fn earlier_or<E>(&self, mode: &Mode<'_>, now: OffsetDateTime, stop: Stop<E>) -> Stop<E> {
        let Mode::Create(submission) = mode else {
            return stop;
        };
        for scope in submission.scopes() {
            match self.store.idempotency(&scope, now).await {
                Ok(Some(record)) => return Stop::Repeat(submission.judge(record)),
                Ok(None) => {}
                Err(error) => return Stop::Store(error),
            }
        }
        stop
    }

    /// Keeps a spam submission with its reasons (`intake spam review`). If it
    /// cannot be kept, the store's error stops the job so the affiliate
    /// retries: nothing is lost.
    async fn quarantine(
        &self,
        caller: &Caller,
        origin: &Origin,
        value: &serde_json::Value,
        assessment: &Assessment,
    ) -> Result<(), StoreError> {
        let entry = Quarantined {
            id: uuid::Uuid::now_v7().to_string(),
            environment: caller.environment,
            key_id: caller.key_id.clone(),
            application: caller.application.clone(),
            creation_source: origin.source,
            request_id: origin.request_id.clone(),
            received_at: OffsetDateTime::now_utc(),
            submission: value.to_string(),
            score: assessment.score,
            reasons: serde_json::to_string(&assessment.reasons).unwrap_or_else(|_| "[]".to_owned()),
            released_job_id: None,
            model_version: assessment.model_version.clone(),
            decision: None,
        };
        self.store.quarantine(&entry).await?;
        // The reasons are for us only: logged and kept, never answered.
        tracing::info!(key_id = %caller.key_id, quarantine_id = %entry.id, score = assessment.score, reasons = ?assessment.reasons, "job classified as spam and quarantined");
        Ok(())
    }

    fn profile_url(&self, company_id: u64) -> String {
        format!(
            "{}/trades/{company_id}",
            self.settings.public_base_url.trim_end_matches('/')
        )
    }
}

/// What the spam screen is shown of a job.
fn spam_input(job: &ValidatedJob, history: ContactHistory) -> SpamInput<'_> {
    SpamInput {
        description: &job.description,
        first_name: &job.first_name,
        last_name: &job.last_name,
        email: job.email.as_str(),
        phone: job.phone.as_str(),
        postcode: job.postcode.as_str(),
        history,
    }
}
