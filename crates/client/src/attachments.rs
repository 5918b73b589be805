//! Jobs with photos: `POST /jobs/with-attachments` and its dry run
//! `POST /verify/jobs/with-attachments`, both `multipart/form-data`.
//!
//! The multipart body is built here into one buffer rather than streamed, so
//! the signed `Digest` covers exactly the bytes sent. Its boundary is derived
//! from the content, not drawn at random: the same job and photos always make
//! the same bytes, so a retry, or a later run under the same idempotency key
//! (`intake submit --idempotency-key`), is recognised as a repeat instead of
//! being refused as a different body.

use crate::client::{decode, Client};
use crate::error::ClientError;
use crate::jobs::{new_idempotency_key, JobOutcome};
use crate::retry;
use intake_api::verify::VerifyResult;
use reqwest::Method;
use sha2::{Digest, Sha256};

impl Client {
    /// `POST /jobs/with-attachments`: the job (JSON bytes, sent as given) with
    /// `images` as `(file name, bytes)`, at most 5. Under `idempotency_key`, or
    /// a fresh one, and retried like [`Client::create_job`].
    pub async fn create_job_with_images(
        &self,
        job_json: Vec<u8>,
        images: Vec<(String, Vec<u8>)>,
        idempotency_key: Option<String>,
    ) -> Result<JobOutcome, ClientError> {
        let key = idempotency_key.unwrap_or_else(new_idempotency_key);
        let form = MultipartForm::new(&job_json, &images);
        self.submit_job(
            "/jobs/with-attachments",
            &form.content_type(),
            form.body,
            &key,
        )
        .await
    }

    /// `POST /verify/jobs`: how the service reads a JSON job, the trades it
    /// would go to, and nothing created (beyond the specification: the JSON
    /// twin of the multipart verify). Retried like a read.
    pub async fn verify_job(&self, job_json: Vec<u8>) -> Result<VerifyResult, ClientError> {
        let (result, _) = retry::run(self.retry_policy(), || async {
            let body = Some(("application/json", job_json.clone()));
            let response = self.send(Method::POST, "/verify/jobs", body).await?;
            decode(response).await
        })
        .await;
        result
    }

    /// `POST /verify/jobs/with-attachments`: how the service reads the job and
    /// its images, the trades it would go to, and nothing created. Retried
    /// like a read (it changes nothing).
    pub async fn verify_job_with_images(
        &self,
        job_json: Vec<u8>,
        images: Vec<(String, Vec<u8>)>,
    ) -> Result<VerifyResult, ClientError> {
        let form = MultipartForm::new(&job_json, &images);
        let content_type = form.content_type();
        let (result, _) = retry::run(self.retry_policy(), || async {
            let body = Some((content_type.as_str(), form.body.clone()));
            let response = self
                .send(Method::POST, "/verify/jobs/with-attachments", body)
                .await?;
            decode(response).await
        })
        .await;
        result
    }
}

/// A `multipart/form-data` body: the job in `data`, each photo in `images`.
#[derive(Debug, Clone)]
pub struct MultipartForm {
    /// The boundary between parts.
    pub boundary: String,
    /// The whole encoded body.
    pub body: Vec<u8>,
}

impl MultipartForm {
    /// Encodes the parts under a boundary derived from them (see the module docs).
    pub fn new(job_json: &[u8], images: &[(String, Vec<u8>)]) -> Self {
        let boundary = boundary_for(job_json, images);
        let mut body = Vec::with_capacity(
            job_json.len() + images.iter().map(|(_, b)| b.len() + 256).sum::<usize>() + 256,
        );
        part(
            &mut body,
            &boundary,
            "data",
            None,
            "application/json",
            job_json,
        );
        for (name, bytes) in images {
            part(
                &mut body,
                &boundary,
                "images",
                Some(name),
                media_type(name),
                bytes,
            );
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        MultipartForm { boundary, body }
    }

    /// The `Content-Type` header of the body.
    pub fn content_type(&self) -> String {
        format!("multipart/form-data; boundary={}", self.boundary)
    }
}

/// `intake-` and 32 hex digits of a hash of the parts, re-drawn in the
/// (astronomically unlikely) case that a part contains it.
fn boundary_for(job_json: &[u8], images: &[(String, Vec<u8>)]) -> String {
    let mut hasher = Sha256::new();
    for content in [job_json]
        .into_iter()
        .chain(images.iter().map(|(_, b)| b.as_slice()))
    {
        hasher.update((content.len() as u64).to_be_bytes());
        hasher.update(content);
    }
    for (name, _) in images {
        hasher.update((name.len() as u64).to_be_bytes());
        hasher.update(name.as_bytes());
    }
    let mut seed = hasher.finalize();
    loop {
        let boundary = format!("intake-{}", hex_of(&seed[..16]));
        let clashes = std::iter::once(job_json)
            .chain(images.iter().map(|(_, b)| b.as_slice()))
            .any(|content| {
                content
                    .windows(boundary.len())
                    .any(|w| w == boundary.as_bytes())
            });
        if !clashes {
            return boundary;
        }
        seed = Sha256::digest(seed);
    }
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn part(
    body: &mut Vec<u8>,
    boundary: &str,
    name: &str,
    file_name: Option<&str>,
    content_type: &str,
    content: &[u8],
) {
    body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
    let mut disposition = format!("Content-Disposition: form-data; name=\"{name}\"");
    if let Some(file_name) = file_name {
        disposition.push_str(&format!("; filename=\"{}\"", quoted(file_name)));
    }
    body.extend_from_slice(disposition.as_bytes());
    body.extend_from_slice(format!("\r\nContent-Type: {content_type}\r\n\r\n").as_bytes());
    body.extend_from_slice(content);
    body.extend_from_slice(b"\r\n");
}

/// A file name inside a quoted header parameter, escaped as browsers do
/// (WHATWG: `"` as `%22`, CR and LF as `%0D` and `%0A`).
fn quoted(file_name: &str) -> String {
    file_name
        .replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A hint from the name; the service decides the type from the content.
fn media_type(file_name: &str) -> &'static str {
    let extension = file_name.rsplit('.').next().unwrap_or_default();
    match extension.to_ascii_lowercase().as_str() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "webp" => "image/webp",
        "gif" => "image/gif",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_has_the_data_part_then_one_part_per_image() {
        let images = vec![("a \"b\".png".to_owned(), vec![1, 2])];
        let form = MultipartForm::new(br#"{"x":1}"#, &images);
        let b = &form.boundary;
        let expected = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"data\"\r\nContent-Type: application/json\r\n\r\n{{\"x\":1}}\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a %22b%22.png\"\r\nContent-Type: image/png\r\n\r\n\u{1}\u{2}\r\n\
             --{b}--\r\n"
        );
        assert_eq!(String::from_utf8(form.body.clone()).unwrap(), expected);
        assert_eq!(
            form.content_type(),
            format!("multipart/form-data; boundary={b}")
        );
    }

    #[test]
    fn the_same_parts_make_the_same_bytes_and_other_parts_another_boundary() {
        let images = vec![("a.png".to_owned(), vec![1, 2, 3])];
        let (one, two) = (
            MultipartForm::new(b"{}", &images),
            MultipartForm::new(b"{}", &images),
        );
        assert_eq!(one.body, two.body);
        assert_ne!(MultipartForm::new(b"{ }", &images).boundary, one.boundary);
        assert_ne!(MultipartForm::new(b"{}", &[]).boundary, one.boundary);
    }
}
