//! Jobs: `POST /jobs` with an idempotency key and retries, `GET /jobs/{id}`.

use crate::client::{decode, Client};
use crate::error::ClientError;
use crate::retry;
use intake_api::jobs::{JobCreated, JobRequest, JobView, IDEMPOTENCY_KEY, IDEMPOTENCY_REPLAYED};
use reqwest::header::HeaderName;
use reqwest::Method;
use url::Url;

const JSON: &str = "application/json";

/// A job the service accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobOutcome {
    /// The HTTP status of the answer (201).
    pub status: u16,
    /// The job's id and the trades it went to.
    pub created: JobCreated,
    /// True when the service answered a repeat of an earlier submission with
    /// the same key (`Idempotency-Replayed: true`): no second job was made.
    pub replayed: bool,
    /// The key every attempt carried; keep it to retry this submission later.
    pub idempotency_key: String,
    /// Attempts made, the first one included.
    pub attempts: u32,
}

/// A fresh idempotency key (a random UUID) for one logical submission.
pub fn new_idempotency_key() -> String {
    uuid::Uuid::new_v4().to_string()
}

impl Client {
    /// `POST /jobs` under a fresh idempotency key, retried per the client's
    /// [`RetryPolicy`](crate::RetryPolicy) with the same key and body.
    pub async fn create_job(&self, job: &JobRequest) -> Result<JobOutcome, ClientError> {
        self.create_job_with_key(job, &new_idempotency_key()).await
    }

    /// [`Client::create_job`] under a key of the caller's, e.g. one kept from
    /// an earlier run whose outcome is unknown.
    pub async fn create_job_with_key(
        &self,
        job: &JobRequest,
        idempotency_key: &str,
    ) -> Result<JobOutcome, ClientError> {
        let body = serde_json::to_vec(job)
            .map_err(|error| ClientError::Config(format!("cannot encode the job: {error}")))?;
        self.create_job_from_json(body, idempotency_key).await
    }

    /// [`Client::create_job_with_key`] for a job already encoded as JSON: the
    /// bytes are sent as given, so members this SDK does not model pass through
    /// (the service validates them).
    pub async fn create_job_from_json(
        &self,
        json: Vec<u8>,
        idempotency_key: &str,
    ) -> Result<JobOutcome, ClientError> {
        self.submit_job("/jobs", JSON, json, idempotency_key).await
    }

    /// Posts a job `body` of `content_type` to `path` under `idempotency_key`,
    /// retried per the retry policy with the very same bytes.
    pub(crate) async fn submit_job(
        &self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
        idempotency_key: &str,
    ) -> Result<JobOutcome, ClientError> {
        let key_header = HeaderName::from_static(IDEMPOTENCY_KEY);
        let (result, attempts) = retry::run(self.retry_policy(), || {
            // Signed afresh each time: a retry carries a new `Date`.
            let request = self.signed_request_with(
                Method::POST,
                path,
                Some((content_type, body.clone())),
                &[(key_header.clone(), idempotency_key)],
            );
            async move {
                let response = self.execute(request?).await?;
                let status = response.status().as_u16();
                let replayed = response
                    .headers()
                    .get(IDEMPOTENCY_REPLAYED)
                    .and_then(|value| value.to_str().ok())
                    .is_some_and(|value| value.trim().eq_ignore_ascii_case("true"));
                let created: JobCreated = decode(response).await?;
                Ok((status, created, replayed))
            }
        })
        .await;
        let (status, created, replayed) = result?;
        Ok(JobOutcome {
            status,
            created,
            replayed,
            idempotency_key: idempotency_key.to_owned(),
            attempts,
        })
    }

    /// `GET /jobs/{id}`: the job, its recipients and their delivery state.
    /// A job of another application, or none, is a 404 problem. Retried like
    /// [`Client::create_job`] (a read is safe to repeat).
    pub async fn get_job(&self, id: &str) -> Result<JobView, ClientError> {
        let path = job_path(id)?;
        let (result, _) = retry::run(self.retry_policy(), || async {
            let response = self.send(Method::GET, &path, None).await?;
            decode(response).await
        })
        .await;
        result
    }
}

/// `/jobs/{id}` with `id` percent-encoded as one path segment.
fn job_path(id: &str) -> Result<String, ClientError> {
    let mut url = Url::parse("http://localhost/jobs").expect("a constant URL parses");
    url.path_segments_mut()
        .map_err(|()| ClientError::Config("cannot build a job path".into()))?
        .push(id);
    Ok(url.path().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_id_is_one_encoded_path_segment() {
        let id = "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90";
        assert_eq!(job_path(id).unwrap(), format!("/jobs/{id}"));
        assert_eq!(job_path("a/b?c").unwrap(), "/jobs/a%2Fb%3Fc");
    }

    #[test]
    fn each_submission_gets_its_own_uuid_key() {
        let (one, two) = (new_idempotency_key(), new_idempotency_key());
        assert_ne!(one, two);
        assert!(uuid::Uuid::parse_str(&one).is_ok());
    }
}
