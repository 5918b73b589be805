//! Reading a job sent as `multipart/form-data`: the job as JSON in a `data`
//! field and its photos in repeated `images` fields. Other fields are ignored.
//!
//! The body is already buffered (the signature layer read it to check its
//! digest, under the multipart body limit), so `multer` parses it from memory.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::http::{header, HeaderMap};
use intake_images::sanitize_file_name;
use std::convert::Infallible;

/// The field holding the job as a JSON string.
pub const DATA_FIELD: &str = "data";
/// The repeated field holding one photo each.
pub const IMAGES_FIELD: &str = "images";

/// One photo as sent.
#[derive(Debug)]
pub struct Upload {
    /// The client's file name, sanitised: for messages and metadata only.
    pub name: String,
    /// The file as sent.
    pub bytes: Bytes,
}

/// A multipart job, read but not yet checked.
#[derive(Debug)]
pub struct JobForm {
    /// The decoded `data` field.
    pub data: serde_json::Value,
    /// The photos, in the order sent.
    pub uploads: Vec<Upload>,
}

/// Limits of a form beyond the body limit.
#[derive(Debug, Clone, Copy)]
pub struct FormLimits {
    /// Most `images` fields.
    pub max_images: usize,
    /// Largest `data` field, in bytes (the limit of a JSON job body).
    pub max_data_bytes: usize,
}

/// The boundary of a `multipart/form-data` body: 415 for another media type,
/// 400 when the boundary is missing.
pub fn boundary(headers: &HeaderMap) -> Result<String, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if !essence.eq_ignore_ascii_case("multipart/form-data") {
        return Err(ApiError::UnsupportedMediaType(format!(
            "Send the job with its images as `Content-Type: multipart/form-data; boundary=...` (got `{content_type}`): the job as JSON in a field named `{DATA_FIELD}`, each image in a field named `{IMAGES_FIELD}`. Jobs without images may go to /v1/affiliate-job/jobs as application/json."
        )));
    }
    multer::parse_boundary(content_type).map_err(|_| {
        ApiError::BadRequest(
            "The multipart Content-Type has no `boundary` parameter, e.g. `multipart/form-data; boundary=X7c9e`."
                .to_owned(),
        )
    })
}

/// Reads the fields: 400 for a malformed body, a missing or repeated `data`,
/// `data` that is not JSON, or more images than allowed.
pub async fn read(boundary: String, body: Bytes, limits: FormLimits) -> Result<JobForm, ApiError> {
    let stream = futures::stream::once(async move { Ok::<_, Infallible>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut data: Option<Bytes> = None;
    let mut uploads = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        match field.name() {
            Some(DATA_FIELD) => {
                if data.is_some() {
                    return Err(ApiError::BadRequest(format!(
                        "Send one `{DATA_FIELD}` field, not several."
                    )));
                }
                data = Some(field.bytes().await.map_err(malformed)?);
            }
            Some(IMAGES_FIELD) => {
                let name = sanitize_file_name(field.file_name().unwrap_or_default());
                let bytes = field.bytes().await.map_err(malformed)?;
                uploads.push(Upload { name, bytes });
            }
            _ => {}
        }
    }
    if uploads.len() > limits.max_images {
        return Err(ApiError::BadRequest(format!(
            "At most {} images may be sent with a job; this request has {} `{IMAGES_FIELD}` fields.",
            limits.max_images,
            uploads.len()
        )));
    }
    let data = data.ok_or_else(|| {
        ApiError::BadRequest(format!(
            "The multipart body has no `{DATA_FIELD}` field: send the job as JSON in a field named `{DATA_FIELD}`, and each image in a field named `{IMAGES_FIELD}`."
        ))
    })?;
    if data.len() > limits.max_data_bytes {
        return Err(ApiError::BadRequest(format!(
            "The `{DATA_FIELD}` field is over the limit of {} bytes.",
            limits.max_data_bytes
        )));
    }
    let data = serde_json::from_slice(&data).map_err(|error| {
        ApiError::BadRequest(format!(
            "The `{DATA_FIELD}` field is not valid JSON: {error}."
        ))
    })?;
    Ok(JobForm { data, uploads })
}

fn malformed(error: multer::Error) -> ApiError {
    ApiError::BadRequest(format!("The multipart body is malformed: {error}."))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: FormLimits = FormLimits {
        max_images: 5,
        max_data_bytes: 1024,
    };

    fn body(parts: &[(&str, Option<&str>, &[u8])]) -> Bytes {
        let mut out = Vec::new();
        for (name, file, content) in parts {
            out.extend_from_slice(b"--B\r\nContent-Disposition: form-data; name=\"");
            out.extend_from_slice(name.as_bytes());
            out.push(b'"');
            if let Some(file) = file {
                out.extend_from_slice(format!("; filename=\"{file}\"").as_bytes());
            }
            out.extend_from_slice(b"\r\n\r\n");
            out.extend_from_slice(content);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"--B--\r\n");
        out.into()
    }

    fn detail(error: ApiError) -> String {
        match error {
            ApiError::BadRequest(detail) => detail,
            other => panic!("not a 400: {other:?}"),
        }
    }

    #[tokio::test]
    async fn data_images_and_ignored_fields_are_read_in_order() {
        let form = read(
            "B".into(),
            body(&[
                ("note", None, b"ignored"),
                ("data", None, br#"{"a":1}"#),
                ("images", Some("../x/a.png"), b"1"),
                ("images", Some("b.jpg"), b"22"),
            ]),
            LIMITS,
        )
        .await
        .unwrap();
        assert_eq!(form.data, serde_json::json!({"a": 1}));
        let names: Vec<_> = form.uploads.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["a.png", "b.jpg"]);
        assert_eq!(&form.uploads[1].bytes[..], b"22");
    }

    #[tokio::test]
    async fn a_missing_or_broken_data_field_is_a_clear_400() {
        let missing = read("B".into(), body(&[("images", Some("a.png"), b"1")]), LIMITS);
        assert!(detail(missing.await.unwrap_err()).contains("no `data` field"));
        let broken = read("B".into(), body(&[("data", None, b"{nope")]), LIMITS);
        assert!(detail(broken.await.unwrap_err()).contains("not valid JSON"));
        let garbage = read("B".into(), Bytes::from_static(b"no parts here"), LIMITS);
        assert!(detail(garbage.await.unwrap_err()).contains("malformed"));
    }

    #[tokio::test]
    async fn six_images_are_one_too_many() {
        let mut parts = vec![("data", None, &b"{}"[..])];
        parts.extend((0..6).map(|_| ("images", Some("a.png"), &b"1"[..])));
        let error = read("B".into(), body(&parts), LIMITS).await.unwrap_err();
        assert!(detail(error).contains("At most 5 images"));
    }

    #[test]
    fn only_multipart_form_data_is_accepted() {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
        assert!(matches!(
            boundary(&headers),
            Err(ApiError::UnsupportedMediaType(_))
        ));
        headers.insert(header::CONTENT_TYPE, "multipart/form-data".parse().unwrap());
        assert!(matches!(boundary(&headers), Err(ApiError::BadRequest(_))));
        headers.insert(
            header::CONTENT_TYPE,
            "Multipart/Form-Data; boundary=xyz".parse().unwrap(),
        );
        assert_eq!(boundary(&headers).unwrap(), "xyz");
    }
}
