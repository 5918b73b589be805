//! `intake completions SHELL` and `intake man`: generated from the command
//! definitions, so every command is in them; checked by the shell and by
//! `man` themselves where the machine has them.

use crate::helpers::intake;
use std::process::{Command, Stdio};

/// Every top-level command, as the user types it.
const COMMANDS: [&str; 15] = [
    "serve",
    "keys",
    "import",
    "demo-data",
    "options",
    "submit",
    "bench",
    "spam",
    "leads",
    "worker",
    "db",
    "backup",
    "restore",
    "completions",
    "man",
];

fn stdout_of(args: &[&str]) -> String {
    let output = intake().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "intake {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn completion_scripts_name_every_command_and_bash_reads_its_own() {
    let bash = stdout_of(&["completions", "bash"]);
    assert!(bash.contains("_intake()"), "{bash}");
    for command in COMMANDS {
        assert!(bash.contains(command), "bash completion lacks {command}");
    }
    // Subcommands' own flags are completed too.
    assert!(bash.contains("--data-dir") && bash.contains("--force"));
    let checked = Command::new("bash")
        .args(["-n", "-c", &bash])
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "bash refuses the script: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    // Sourced, it registers the completion for `intake`.
    let registered = Command::new("bash")
        .args(["-c", &format!("{bash}\ncomplete -p intake")])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&registered.stdout).contains("_intake"),
        "{}",
        String::from_utf8_lossy(&registered.stderr)
    );

    assert!(stdout_of(&["completions", "zsh"]).starts_with("#compdef intake"));
    let fish = stdout_of(&["completions", "fish"]);
    assert!(fish.contains("complete -c intake"));
    for command in COMMANDS {
        assert!(fish.contains(command), "fish completion lacks {command}");
    }
    let unknown = intake().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("possible values"));
}

#[test]
fn the_manual_page_lists_every_command_and_man_renders_it() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH intake 1"), "{page}");
    // roff writes a hyphen as `\-`.
    let plain = page.replace("\\-", "-");
    assert!(plain.contains("Affiliate Job Intake Service"));
    for command in COMMANDS {
        assert!(plain.contains(command), "the page lacks {command}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("intake.1");
    std::fs::write(&file, &page).unwrap();
    let Ok(rendered) = Command::new("man")
        .arg("-l")
        .arg(&file)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("note: no `man` on this machine; the page is checked as text only");
        return;
    };
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    assert!(
        text.contains("NAME") && text.contains("SUBCOMMANDS"),
        "{text}"
    );
    assert!(text.contains("demo-data"), "{text}");
}
