//! Progress of long work on standard error (results stay on standard
//! output): a bar, or a spinner for work of unknown size, when standard
//! error is a terminal; otherwise one plain line when a step starts and one
//! when it ends, so that a log or a pipe gets no control characters.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Whether a command shows its progress at all (`serve` loading its first
/// demo directory does not: its log says what it does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Steps are shown.
    Shown,
    /// Nothing is shown.
    Quiet,
}

/// One step of a command, shown until [`Step::finish`].
pub struct Step {
    label: String,
    started: Instant,
    shown: Shown,
}

enum Shown {
    Bar(ProgressBar),
    Lines,
    Nothing,
}

impl Progress {
    /// Starts a step of `total` items, or of unknown size.
    pub fn step(self, label: impl Into<String>, total: Option<u64>) -> Step {
        let label = label.into();
        let shown = match self {
            Progress::Quiet => Shown::Nothing,
            Progress::Shown if std::io::stderr().is_terminal() => Shown::Bar(bar(&label, total)),
            Progress::Shown => {
                eprintln!("{label}...");
                Shown::Lines
            }
        };
        Step {
            label,
            started: Instant::now(),
            shown,
        }
    }
}

fn bar(label: &str, total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(total) => ProgressBar::new(total).with_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta} left)")
                .expect("a valid template")
                .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template"),
        ),
    };
    bar.set_message(label.to_owned());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

impl Step {
    /// `n` more items done.
    pub fn advance(&self, n: u64) {
        if let Shown::Bar(bar) = &self.shown {
            bar.inc(n);
        }
    }

    /// The step is done: the bar is cleared, or a line says how long it took.
    pub fn finish(self) {
        let took = self.started.elapsed().as_secs_f64();
        match self.shown {
            Shown::Bar(bar) => {
                bar.finish_and_clear();
                eprintln!("{}: done in {took:.1} s", self.label);
            }
            Shown::Lines => eprintln!("{}: done in {took:.1} s", self.label),
            Shown::Nothing => {}
        }
    }
}
