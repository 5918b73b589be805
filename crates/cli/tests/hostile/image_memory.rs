//! The requests of issue 13 on the real `intake serve`: three at once, each
//! of five 40-megapixel 16-bit RGBA PNGs (a few hundred KB each), took the
//! process to 9 GB. Within the image memory budget it stays under 1 GB.

use crate::helpers::{client, create_key, data_dir, Server};
use reqwest::Method;
use std::io::Write;

/// 6320 × 6320 = 39.9 megapixels, just under the limit of 40.
const SIDE: u32 = 6320;

/// A 16-bit RGBA PNG of `SIDE` × `SIDE` whose rows are all alike, so that
/// 320 MB of samples compress to about 300 KB.
fn hostile_png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, SIDE, SIDE);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    encoder.set_compression(png::Compression::Balanced);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().unwrap();
    let mut rows = writer.stream_writer().unwrap();
    let row: Vec<u8> = (0..SIDE)
        .flat_map(|x| {
            let [high, low] = ((x * 10) as u16).to_be_bytes();
            [high, low, low, high, 0x80, 0, 0xFF, 0xFF]
        })
        .collect();
    for _ in 0..SIDE {
        rows.write_all(&row).unwrap();
    }
    rows.finish().unwrap();
    writer.finish().unwrap();
    out
}

/// The process's peak resident memory so far, in bytes (`VmHWM`).
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("a VmHWM line");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|kib| kib.parse().ok())
        .expect("VmHWM in kB");
    kib * 1024
}

#[tokio::test]
async fn three_requests_of_five_40_megapixel_16_bit_pngs_stay_under_1_gb() {
    let (_tmp, dir) = data_dir();
    let key = create_key(&dir, "staging");
    // The default budget and wait; a debug build on a shared machine takes
    // far longer than a release build to re-encode 15 such images, so the
    // request timeout is raised to keep it from answering first.
    let server = Server::start(
        &dir,
        &[],
        &[
            ("INTAKE_REQUEST_TIMEOUT_SECONDS", "600"),
            ("INTAKE_IMAGE_BUDGET_WAIT_SECONDS", "590"),
        ],
    );
    let photo = hostile_png();
    assert!(photo.len() < 1024 * 1024, "{} bytes", photo.len());
    let job = serde_json::json!({"description": "Boiler not working, no hot water", "categoryId": 1335,
        "email": "sam@example.com", "phone": "07900000000", "firstName": "Sam", "lastName": "Jones",
        "postcode": "SW1A 1AA"});
    let images: Vec<(String, Vec<u8>)> = (1..=5)
        .map(|n| (format!("photo-{n}.png"), photo.clone()))
        .collect();
    let form = intake_client::MultipartForm::new(job.to_string().as_bytes(), &images);
    let signer = client(&server, &key);
    let http = reqwest::Client::new();

    let requests: Vec<_> = (0..3)
        .map(|_| {
            let request = signer
                .signed_request(
                    Method::POST,
                    "/verify/jobs/with-attachments",
                    Some((&form.content_type(), form.body.clone())),
                )
                .unwrap();
            let http = http.clone();
            tokio::spawn(async move {
                let response = http.execute(request).await.unwrap();
                let status = response.status().as_u16();
                let retry_after = response.headers().get("retry-after").cloned();
                let body: serde_json::Value = response.json().await.unwrap();
                (status, retry_after, body)
            })
        })
        .collect();
    let mut answers = Vec::new();
    for request in requests {
        answers.push(request.await.unwrap());
    }

    for (status, retry_after, body) in &answers {
        match status {
            200 => assert_eq!(body["images"].as_array().map(Vec::len), Some(5), "{body}"),
            503 => assert!(retry_after.is_some(), "a 503 without Retry-After: {body}"),
            other => panic!("answered {other}: {body}"),
        }
    }
    assert!(
        answers.iter().any(|(status, _, _)| *status == 200),
        "no request got through"
    );
    let peak = peak_rss(server.child.id());
    assert!(
        peak < 1_000_000_000,
        "peak resident memory {} MB",
        peak / 1_000_000
    );
}
