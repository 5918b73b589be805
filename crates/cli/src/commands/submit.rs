//! `intake submit FILE.json`: send one job as an affiliate and print the outcome.

use crate::cli::ClientArgs;
use anyhow::Context;
use clap::Args;
use intake_client::{new_idempotency_key, ClientError, JobOutcome};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// What each exit code of `intake submit` means (also in docs/client.md).
pub const EXIT_CODES: &str = "\
Prints one JSON object on stdout: {status, replayed, idempotencyKey, job} when created,
{status, problem, idempotencyKey} when the service refused the job; with --verify,
{status: 200, verified} or {status, problem}.

Exit codes:
  0  created (or replayed: the key was already used for this same job)
  1  anything else: unreadable or non-JSON file, bad flags, unexpected answer
  2  invalid job (400, 413, 415)
  3  authentication refused (401, 403)
  4  no trade serves the job (404)
  5  classified as spam (422)
  6  conflict (409: the key was used for a different job, or the first
     submission with it was still being processed when the retries ran out)
  7  service unavailable or rate limited after retries (429, 502, 503, 504, network)
  141  standard output was closed before this object was written (`| head -0`)

After 7 (or 6 while still being processed), run the same command again with
--idempotency-key set to the printed key: the job is made at most once.";

/// `intake submit`'s arguments.
#[derive(Debug, Args)]
#[command(after_help = EXIT_CODES)]
pub struct SubmitArgs {
    #[command(flatten)]
    pub client: ClientArgs,
    /// A JSON file with the job, sent as given (the service validates it).
    pub file: PathBuf,
    /// The submission's idempotency key; reuse the printed one to retry an
    /// earlier submission safely. [default: a new random UUID]
    #[arg(long)]
    pub idempotency_key: Option<String>,
    /// A photo of the job (JPEG, PNG, WebP or GIF); repeat for up to 5. The job
    /// then goes to /jobs/with-attachments as multipart/form-data.
    #[arg(long = "image", value_name = "FILE")]
    pub images: Vec<PathBuf>,
    /// Only ask the service what it would make of the job and its photos
    /// (/verify/jobs/with-attachments): prints its answer, creates nothing.
    #[arg(long)]
    pub verify: bool,
}

pub async fn run(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let body = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    serde_json::from_slice::<Value>(&body)
        .with_context(|| format!("{} is not JSON", args.file.display()))?;
    let key = match args.idempotency_key {
        Some(key) if key.trim().is_empty() => anyhow::bail!("--idempotency-key must not be blank"),
        Some(key) => key,
        None => new_idempotency_key(),
    };
    let images = read_images(&args.images)?;
    let client = super::client_from(&args.client)?;
    if args.verify {
        return verify(&client, body, images).await;
    }
    let result = if images.is_empty() {
        client.create_job_from_json(body, &key).await
    } else {
        client
            .create_job_with_images(body, images, Some(key.clone()))
            .await
    };
    if let Err(ClientError::Config(message)) = &result {
        anyhow::bail!("{message}");
    }
    let (report, code) = outcome_report(result, &key);
    outln!("{}", serde_json::to_string_pretty(&report)?)?;
    Ok(ExitCode::from(code))
}

/// Each `--image` as (file name, bytes); the service judges the content.
fn read_images(paths: &[PathBuf]) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    paths
        .iter()
        .map(|path| {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok((name, bytes))
        })
        .collect()
}

/// `--verify`: prints the service's reading of the job, or its problem.
async fn verify(
    client: &intake_client::Client,
    body: Vec<u8>,
    images: Vec<(String, Vec<u8>)>,
) -> anyhow::Result<ExitCode> {
    match client.verify_job_with_images(body, images).await {
        Ok(result) => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&json!({"status": 200, "verified": result}))?
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(ClientError::Config(message)) => anyhow::bail!("{message}"),
        Err(error) => {
            let (report, code) = outcome_report(Err(error), "");
            let mut report = report;
            if let Some(object) = report.as_object_mut() {
                object.remove("idempotencyKey");
            }
            outln!("{}", serde_json::to_string_pretty(&report)?)?;
            Ok(ExitCode::from(code))
        }
    }
}

/// The JSON printed on stdout and the exit code, for an outcome under `key`.
fn outcome_report(result: Result<JobOutcome, ClientError>, key: &str) -> (Value, u8) {
    match result {
        Ok(outcome) => (
            json!({
                "status": outcome.status,
                "replayed": outcome.replayed,
                "idempotencyKey": outcome.idempotency_key,
                "job": outcome.created,
            }),
            0,
        ),
        Err(error) => {
            let message = with_causes(&error);
            eprintln!("error: {message}");
            let code = exit_code(&error);
            let report = match error {
                ClientError::Problem {
                    problem,
                    request_id,
                    ..
                } => json!({
                    "status": problem.status,
                    "problem": problem,
                    "requestId": request_id,
                    "idempotencyKey": key,
                }),
                other => json!({
                    "status": other.status(),
                    "error": message,
                    "requestId": other.request_id(),
                    "idempotencyKey": key,
                }),
            };
            (report, code)
        }
    }
}

/// The error and its causes (`connection refused` hides under a reqwest error).
fn with_causes(error: &ClientError) -> String {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message = format!("{message}: {text}");
        }
        source = cause.source();
    }
    message
}

/// The class of a failed submission; see [`EXIT_CODES`].
fn exit_code(error: &ClientError) -> u8 {
    if let ClientError::Network(_) = error {
        return 7;
    }
    match error.status() {
        Some(400 | 413 | 415) => 2,
        Some(401 | 403) => 3,
        Some(404) => 4,
        Some(422) => 5,
        Some(409) => 6,
        Some(429 | 502 | 503 | 504) => 7,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_api::Problem;

    fn problem(status: u16) -> ClientError {
        ClientError::Problem {
            problem: Box::new(Problem::new(status, "detail", "/v1/affiliate-job/jobs")),
            retry_after: None,
            request_id: None,
        }
    }

    #[test]
    fn each_class_of_problem_has_its_documented_exit_code() {
        let expected = [
            (400, 2),
            (413, 2),
            (415, 2),
            (401, 3),
            (403, 3),
            (404, 4),
            (422, 5),
            (409, 6),
            (429, 7),
            (502, 7),
            (503, 7),
            (504, 7),
            (500, 1),
            (418, 1),
        ];
        for (status, code) in expected {
            assert_eq!(exit_code(&problem(status)), code, "status {status}");
        }
        assert_eq!(exit_code(&ClientError::Unexpected("x".into())), 1);
        let proxy = ClientError::Status {
            status: 503,
            body: "<html/>".into(),
            retry_after: None,
            request_id: None,
        };
        assert_eq!(exit_code(&proxy), 7);
    }

    #[test]
    fn a_problem_is_printed_with_its_body_and_the_key() {
        let refused = ClientError::Problem {
            problem: Box::new(Problem::new(422, "detail", "/v1/affiliate-job/jobs")),
            retry_after: None,
            request_id: Some("req-7".to_owned()),
        };
        let (report, code) = outcome_report(Err(refused), "k-1");
        assert_eq!(code, 5);
        assert_eq!(
            report,
            json!({
                "status": 422,
                "problem": {
                    "type": "https://www.rfc-editor.org/rfc/rfc9110#status.422",
                    "status": 422,
                    "title": "Unprocessable Entity",
                    "detail": "detail",
                    "instance": "/v1/affiliate-job/jobs"
                },
                "requestId": "req-7",
                "idempotencyKey": "k-1"
            })
        );
    }

    #[test]
    fn a_created_job_is_printed_with_the_201_body() {
        let body =
            json!({"id": "j-1", "trades": [{"id": 7, "name": "T", "profileURL": "https://t"}]});
        let outcome = JobOutcome {
            status: 201,
            created: serde_json::from_value(body.clone()).unwrap(),
            replayed: true,
            idempotency_key: "k-1".into(),
            attempts: 2,
        };
        let (report, code) = outcome_report(Ok(outcome), "k-1");
        assert_eq!(code, 0);
        assert_eq!(
            report,
            json!({"status": 201, "replayed": true, "idempotencyKey": "k-1", "job": body})
        );
    }

    #[test]
    fn every_exit_code_is_in_the_help_text() {
        for code in 0..=7 {
            assert!(EXIT_CODES.contains(&format!("\n  {code}  ")), "code {code}");
        }
    }
}
