//! Command output read by a program that stops early (`intake keys list | head -1`).

use crate::helpers::{data_dir, intake};
use std::process::{Output, Stdio};

/// Runs `intake ARGS` with standard output a pipe whose reading end is already closed.
fn run_into_closed_pipe(args: &[&str]) -> Output {
    let mut child = intake()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the command has even opened its store, so its first line meets a closed pipe.
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn commands_end_quietly_when_the_reader_of_their_output_goes_away() {
    let (_tmp, dir) = data_dir();
    let dir = dir.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["demo-data", "--trades", "200"],
        &[
            "keys",
            "create",
            "--name",
            "Acme",
            "--environment",
            "staging",
        ],
        &["keys", "list"],
        &["keys", "list", "--json"],
        &["leads", "list"],
        &["spam", "review"],
    ];
    for args in commands {
        let args = [args, &["--data-dir", dir]].concat();
        let output = run_into_closed_pipe(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "intake {args:?}: {stderr}"
        );
        assert!(
            matches!(output.status.code(), Some(0 | 141)),
            "intake {args:?} exited with {}: {stderr}",
            output.status
        );
    }
}
