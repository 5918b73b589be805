//! `intake backup` and `intake restore` (docs/operations.md, "Backup and
//! restore"): a copy taken while jobs keep arriving holds every job
//! acknowledged before it began, with its photos, and restores into a data
//! dir that a service then serves; a restore never writes under a running
//! service nor over data it was not told to replace.

use crate::delivery::job;
use crate::helpers::{client, create_key, data_dir, intake, photo, run_ok, CliKey, Server};
use sqlx::{Connection, SqliteConnection};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Trades that take the test jobs (boiler repairs around SW1A 1AA), by e-mail.
const TRADES: &str = r#"{"companyId":101,"companyName":"Westminster Heating","basePostcode":"SW1A 2AA","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@wh.co.uk"}}
{"companyId":102,"companyName":"Pimlico Boilers","basePostcode":"SW1P 3BU","coverage":{"radiusMiles":10},"categories":[1335],"delivery":{"email":"jobs@pb.co.uk"}}"#;

/// Submitters running at once.
const SUBMITTERS: usize = 4;

/// A job a submitter had acknowledged, and when its answer arrived.
type Acknowledged = Arc<Mutex<Vec<(String, Instant)>>>;

/// Submits jobs (every third with a photo) until `stop`, noting each one acknowledged.
async fn submit_until(
    signed: intake_client::Client,
    submitter: usize,
    stop: Arc<AtomicBool>,
    acknowledged: Acknowledged,
) {
    let mut n = submitter;
    while !stop.load(Ordering::Relaxed) && n < 20_000 {
        let body = serde_json::to_vec(&job(n)).unwrap();
        let outcome = if n % 3 == 1 {
            let images = vec![(format!("boiler-{n}.png"), photo(n))];
            signed.create_job_with_images(body, images, None).await
        } else {
            let key = intake_client::new_idempotency_key();
            signed.create_job_from_json(body, &key).await
        };
        let outcome = outcome.expect("every job is accepted");
        assert_eq!(outcome.status, 201);
        let answered = Instant::now();
        acknowledged
            .lock()
            .unwrap()
            .push((outcome.created.id, answered));
        n += SUBMITTERS;
    }
}

/// Waits until `count` jobs are acknowledged, or panics after a minute.
async fn wait_for(acknowledged: &Acknowledged, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while acknowledged.lock().unwrap().len() < count {
        assert!(
            Instant::now() < deadline,
            "fewer than {count} jobs in a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A data dir with the test trades and a staging key.
fn prepared(tmp: &Path, dir: &Path) -> CliKey {
    let trades = tmp.join("trades.jsonl");
    std::fs::write(&trades, TRADES).unwrap();
    run_ok(dir, &["import", "trades", trades.to_str().unwrap()]);
    create_key(dir, "staging")
}

/// A connection to the SQLite database file `path`.
async fn open_database(path: &Path) -> SqliteConnection {
    SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_a_write_load_restores_every_job_acknowledged_before_it_began() {
    let (tmp, dir) = data_dir();
    let key = prepared(tmp.path(), &dir);
    let settings = [
        ("INTAKE_SPAM_THRESHOLD", "1000"),
        ("INTAKE_RATE_LIMIT_PER_SECOND", "0"),
        ("INTAKE_MAX_IN_FLIGHT_PER_KEY", "0"),
    ];
    let server = Server::start(&dir, &[], &settings);

    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged = Acknowledged::default();
    let mut submitters = tokio::task::JoinSet::new();
    for submitter in 0..SUBMITTERS {
        let signed = client(&server, &key);
        submitters.spawn(submit_until(
            signed,
            submitter,
            stop.clone(),
            acknowledged.clone(),
        ));
    }
    wait_for(&acknowledged, 30).await;

    let backup = tmp.path().join("backup");
    let began = Instant::now();
    let output = {
        let (dir, backup) = (dir.clone(), backup.clone());
        tokio::task::spawn_blocking(move || {
            intake()
                .arg("backup")
                .arg(&backup)
                .arg("--data-dir")
                .arg(&dir)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    let ended = Instant::now();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("The master key is not in the backup"),
        "{stdout}"
    );
    assert!(stdout.contains("master.key"), "{stdout}");
    // The load went on through the backup and after it.
    let at_end = acknowledged.lock().unwrap().len();
    wait_for(&acknowledged, at_end + 10).await;
    stop.store(true, Ordering::Relaxed);
    while let Some(done) = submitters.join_next().await {
        done.unwrap();
    }
    drop(server);

    let acknowledged = acknowledged.lock().unwrap().clone();
    let before: Vec<&String> = acknowledged
        .iter()
        .filter(|(_, answered)| *answered < began)
        .map(|(id, _)| id)
        .collect();
    let after = acknowledged
        .iter()
        .filter(|(_, answered)| *answered > ended)
        .count();
    assert!(
        before.len() >= 30 && after >= 10,
        "{} before, {after} after",
        before.len()
    );

    // Restored into a fresh data dir given the master key first, as an operator would.
    let (_restored_tmp, restored) = data_dir();
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(dir.join("master.key"), restored.join("master.key")).unwrap();
    let output = intake()
        .arg("restore")
        .arg(&backup)
        .arg("--data-dir")
        .arg(&restored)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut database = open_database(&restored.join("intake.db")).await;
    let check: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut database)
        .await
        .unwrap();
    assert_eq!(check, "ok");
    let stored: Vec<String> = sqlx::query_scalar("SELECT id FROM jobs")
        .fetch_all(&mut database)
        .await
        .unwrap();
    let missing: Vec<&String> = before
        .iter()
        .copied()
        .filter(|id| !stored.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not restored: {missing:?}"
    );
    let photos: Vec<(String, i64)> = sqlx::query_as("SELECT object_key, bytes FROM job_images")
        .fetch_all(&mut database)
        .await
        .unwrap();
    database.close().await.unwrap();
    assert!(!photos.is_empty());
    for (object_key, bytes) in &photos {
        let file = restored.join("images").join(object_key);
        let length = std::fs::metadata(&file)
            .unwrap_or_else(|error| panic!("{}: {error}", file.display()))
            .len();
        assert_eq!(length, *bytes as u64, "{object_key}");
    }

    // A service on the restored data dir opens the stored key and answers for each job.
    let server = Server::start(&restored, &[], &[]);
    let signed = client(&server, &key);
    for id in before {
        let view = signed.get_job(id).await.expect("a restored job");
        assert_eq!(&view.id, id);
    }
}

#[test]
fn a_restore_is_refused_into_a_data_dir_in_use_or_holding_data_unless_forced() {
    let (tmp, dir) = data_dir();
    let key = create_key(&dir, "staging");
    let backup = tmp.path().join("backup");
    run_ok(&dir, &["backup", backup.to_str().unwrap()]);

    let restore = |target: &Path, force: bool| {
        let mut command = intake();
        command
            .arg("restore")
            .arg(&backup)
            .arg("--data-dir")
            .arg(target);
        if force {
            command.arg("--force");
        }
        command.output().unwrap()
    };
    let stderr =
        |output: &std::process::Output| String::from_utf8_lossy(&output.stderr).into_owned();

    // A running service holds its data dir: no restore under it, even forced.
    let (_other_tmp, other) = data_dir();
    let mut server = Server::start(&other, &[], &[]);
    let refused = restore(&other, true);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("is in use"),
        "{}",
        stderr(&refused)
    );
    // Stopped (SIGTERM right after start may find no handler yet: the exit code is not the point).
    server.terminate();

    // Stopped, its data dir still holds a database: replaced only when forced.
    let refused = restore(&other, false);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("--force"), "{}", stderr(&refused));
    let forced = restore(&other, true);
    assert!(forced.status.success(), "{}", stderr(&forced));
    std::fs::copy(dir.join("master.key"), other.join("master.key")).unwrap();
    let listed = run_ok(&other, &["keys", "list", "--json"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains(&key.key_id));

    // A backup that did not finish is no backup.
    std::fs::remove_file(backup.join("backup.json")).unwrap();
    let (_empty_tmp, empty) = data_dir();
    let refused = restore(&empty, false);
    assert!(
        stderr(&refused).contains("not a finished backup"),
        "{}",
        stderr(&refused)
    );
    assert!(!empty.join("intake.db").exists());
}

#[test]
fn a_backup_of_a_postgres_store_is_refused_with_the_way_to_back_it_up() {
    let (tmp, dir) = data_dir();
    let backup = tmp.path().join("backup");
    let output = intake()
        .arg("backup")
        .arg(&backup)
        .args(["--database", "postgres://intake:hunter2@127.0.0.1:1/intake"])
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("pg_dump"), "{stderr}");
    assert!(stderr.contains("docs/operations.md"), "{stderr}");
    assert!(!backup.exists());
}

/// A backup that fails (here: no database to copy) leaves DEST as it found
/// it: a folder it made is taken away, an empty folder it was given is left
/// empty, so no half-made backup passes for one and the next try is taken.
#[test]
fn a_failed_backup_leaves_its_destination_as_it_found_it() {
    let (tmp, dir) = data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let backup = |dest: &Path| {
        intake()
            .arg("backup")
            .arg(dest)
            .arg("--data-dir")
            .arg(&dir)
            .output()
            .unwrap()
    };
    let new = tmp.path().join("new-backup");
    let output = backup(&new);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("error: copying the database"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!new.exists(), "the folder it made is gone");

    let given = tmp.path().join("given");
    std::fs::create_dir(&given).unwrap();
    assert!(!backup(&given).status.success());
    assert!(given.is_dir());
    assert_eq!(std::fs::read_dir(&given).unwrap().count(), 0, "left empty");
}
