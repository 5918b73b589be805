//! Retention in `intake worker`: a worker alone removes a job older than
//! `job_retention_days`, with its photo and its leads, and keeps a recent one
//! (docs/operations.md, "Retention"; the pass itself is tested in the HTTP
//! suite, this is the worker running it on its own schedule).

use super::{import_trades, job, leads, Trade, Worker};
use crate::helpers::{client, create_key, data_dir, photo, Server};
use intake_test_support::webhooks::Receiver;
use sqlx::Connection;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_alone_removes_jobs_past_their_retention_with_their_photos_and_leads() {
    let (tmp, dir) = data_dir();
    let receiver = Receiver::start();
    import_trades(tmp.path(), &dir, &receiver, &[Trade(161, "SW1A 2AA", 1335)]);
    let key = create_key(&dir, "production");
    // A server that leaves the leads to a worker, and takes two jobs, one with a photo.
    let mut server = Server::start(
        &dir,
        &["--environment", "production"],
        &[("INTAKE_DISPATCHER", "false")],
    );
    let signed = client(&server, &key);
    let old = signed
        .create_job_with_images(
            serde_json::to_vec(&job(0)).unwrap(),
            vec![("boiler.png".to_owned(), photo(1))],
            None,
        )
        .await
        .unwrap();
    let recent = signed
        .create_job_from_json(serde_json::to_vec(&job(1)).unwrap(), "retention-recent")
        .await
        .unwrap();
    assert!(server.terminate());
    let photos = || {
        walk(&dir.join("images"))
            .into_iter()
            .filter(|path| path.is_file())
            .count()
    };
    assert_eq!(photos(), 1);
    assert_eq!(leads(&dir).len(), 2);

    // The first job was received 400 days ago (the default keeps 395).
    let mut database =
        sqlx::SqliteConnection::connect(&format!("sqlite://{}", dir.join("intake.db").display()))
            .await
            .unwrap();
    sqlx::query("UPDATE jobs SET received_ms = received_ms - ?1 WHERE id = ?2")
        .bind(400_i64 * 86_400_000)
        .bind(&old.created.id)
        .execute(&mut database)
        .await
        .unwrap();
    database.close().await.unwrap();

    // A worker whose leads cannot go out (the receiver answers nothing it was not told to) and
    // whose retention runs every second.
    receiver.always(161, intake_test_support::webhooks::Reply::Status(503));
    let worker = Worker::start(&dir, &[("INTAKE_RETENTION_INTERVAL_SECONDS", "1")]);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !worker.log().contains("retention removed old records") {
        assert!(
            Instant::now() < deadline,
            "no retention pass removed the old job:\n{}",
            worker.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(worker);

    let remaining = leads(&dir);
    assert_eq!(remaining.len(), 1, "{remaining:?}");
    assert_eq!(remaining[0]["jobId"], recent.created.id);
    assert_eq!(photos(), 0, "the old job's photo went with it");
    let server = Server::start(&dir, &["--environment", "production"], &[]);
    let reader = client(&server, &key);
    assert!(reader.get_job(&recent.created.id).await.is_ok());
    let gone = reader.get_job(&old.created.id).await.unwrap_err();
    assert_eq!(gone.status(), Some(404));
}

/// Every path under `folder` (none when it does not exist).
fn walk(folder: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|entry| {
            let path = entry.path();
            let mut found = vec![path.clone()];
            if path.is_dir() {
                found.extend(walk(&path));
            }
            found
        })
        .collect()
}
