//! The samples of `docs/samples/`, each run by its own language's runtime
//! (Debian's bash with curl and openssl, python3 with requests, node, php,
//! java) against a real `intake serve`: each creates a job through `/jobs`
//! and one with a photo through `/jobs/with-attachments`, and the service
//! holds them as sent. The portal serves each sample as it is in the
//! repository.

use crate::delivery::{import_trades, Trade};
use crate::helpers::{client, create_key, data_dir, have, photo, Server};
use intake_test_support::webhooks::Receiver;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Each sample, and the program that runs it.
const SAMPLES: [(&str, &str); 5] = [
    ("create_job.sh", "bash"),
    ("create_job.py", "python3"),
    ("create_job.mjs", "node"),
    ("create_job.php", "php"),
    ("CreateJob.java", "java"),
];

fn samples_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/samples")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sample_creates_a_job_and_a_job_with_a_photo_against_a_live_server() {
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    import_trades(tmp.path(), &dir, &receiver, &[Trade(151, "SW1A 2AA", 1335)]);
    let key = create_key(&dir, "staging");
    let server = Server::start(&dir, &[], &[]);
    let photo_path = tmp.path().join("boiler.png");
    std::fs::write(&photo_path, photo(3)).unwrap();
    let reader = client(&server, &key);

    let mut ran = 0;
    for (sample, runtime) in SAMPLES {
        // The portal serves the sample as it is here.
        let path = samples_dir().join(sample);
        let served = reqwest::get(format!(
            "{}/v1/affiliate-job/portal/samples/{sample}",
            server.base_url()
        ))
        .await
        .unwrap();
        assert_eq!(served.status(), 200, "{sample}");
        assert!(served.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain"));
        assert_eq!(
            served.text().await.unwrap(),
            std::fs::read_to_string(&path).unwrap(),
            "{sample}"
        );

        if !have(runtime) {
            continue;
        }
        let output = Command::new(runtime)
            .arg(&path)
            .current_dir(tmp.path())
            .env("INTAKE_BASE_URL", server.base_url())
            .env("INTAKE_KEY_ID", &key.key_id)
            .env("INTAKE_KEY_SECRET", &key.secret)
            .env("INTAKE_PHOTO", &photo_path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{sample}: {}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{sample}: {stdout}");
        let mut images = Vec::new();
        for line in lines {
            let (status, answer) = line.split_once(' ').unwrap();
            assert_eq!(status, "201", "{sample}: {line}");
            let created: Value = serde_json::from_str(answer).unwrap();
            assert_eq!(created["trades"][0]["id"], 151, "{sample}: {answer}");
            let job = reader
                .get_job(created["id"].as_str().unwrap())
                .await
                .unwrap_or_else(|error| panic!("{sample}: the job is not there: {error}"));
            images.push(job.images.len());
        }
        assert_eq!(images, [0, 1], "{sample}: a job, then a job with its photo");
        ran += 1;
    }
    eprintln!("{ran} of {} samples ran", SAMPLES.len());
}
