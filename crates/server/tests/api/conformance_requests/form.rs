//! `multipart/form-data` bodies as the specification describes them: `data`
//! a plain field holding the Job request as a JSON string (what `curl -F
//! data=...` sends), `images` repeated once per file. Built by hand rather
//! than with the Rust client's encoder, whose `data` part carries a
//! `Content-Type: application/json` of its own.

const BOUNDARY: &str = "conformance-7d1f0a";

/// An image part: file name, media type, bytes.
pub type Image = (&'static str, &'static str, Vec<u8>);

/// The body and its `Content-Type`.
pub fn form(data: &str, images: &[Image]) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    body.extend_from_slice(
        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n{data}\r\n")
            .as_bytes(),
    );
    for (name, media_type, bytes) in images {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"images\"; filename=\"{name}\"\r\nContent-Type: {media_type}\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}
