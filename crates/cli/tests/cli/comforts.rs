//! `intake completions SHELL` and `intake man`: generated from the command
//! definitions, so every command is in them; checked by the shell and by
//! `man` themselves where the machine has them.

use crate::helpers::intake;
use std::process::{Command, Stdio};

/// Every top-level command, as the user types it.
const COMMANDS: [&str; 16] = [
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
    "jobs",
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

/// `intake demo-data` shows its steps on standard error: plain lines, with
/// no control character, when it is not a terminal; a bar that redraws
/// itself when it is (a terminal made by `script`, where the machine has it).
#[test]
fn long_work_shows_plain_lines_in_a_pipe_and_a_bar_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("piped");
    let output = intake()
        .args(["demo-data", "--trades", "200", "--data-dir"])
        .arg(&data)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "loaded 200 demo trades\n"
    );
    let steps = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = steps.lines().collect();
    assert_eq!(lines.len(), 6, "{steps}");
    for (line, start) in lines.iter().zip([
        "generating 200 demo trades...",
        "generating 200 demo trades: done in ",
        "checking 200 trades...",
        "checking 200 trades: done in ",
        "storing 200 trades...",
        "storing 200 trades: done in ",
    ]) {
        assert!(line.starts_with(start), "{line:?} after {steps}");
    }
    assert!(!steps.contains(['\r', '\x1b']), "{steps:?}");

    let terminal = dir.path().join("terminal");
    let command = format!(
        "RUST_LOG=warn {} demo-data --trades 3000 --data-dir {}",
        env!("CARGO_BIN_EXE_intake"),
        terminal.display()
    );
    let Ok(shown) = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("note: no `script` on this machine; the terminal case is not checked");
        return;
    };
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    let screen = String::from_utf8_lossy(&shown.stdout);
    assert!(screen.contains("checking 3000 trades ["), "{screen:?}");
    assert!(
        screen.contains("\x1b[2K"),
        "the bar redraws its line: {screen:?}"
    );
    assert!(screen.contains("loaded 3000 demo trades"));
}
