//! Command results on standard output. A reader that stops early (`intake keys list | head -1`)
//! closes the pipe; the command then ends quietly, as `cat` would, where `println!` panics.

use std::fmt;
use std::io::{self, Write};

/// The exit status after standard output was closed: what a shell shows for a process ended by
/// SIGPIPE (128 + 13), the signal Rust programs ignore.
pub const CLOSED_EXIT: u8 = 141;

/// Standard output was closed by its reader; `main` then exits with [`CLOSED_EXIT`] and
/// prints nothing.
#[derive(Debug)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("standard output was closed by its reader")
    }
}

impl std::error::Error for Closed {}

/// Writes to standard output; [`Closed`] when the reader has gone.
pub fn write(args: fmt::Arguments<'_>) -> anyhow::Result<()> {
    match io::stdout().lock().write_fmt(args) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Err(Closed.into()),
        Err(error) => Err(anyhow::Error::new(error).context("writing to standard output")),
    }
}

/// `println!` that returns its failure, for `?`, instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that returns its failure, for `?`, instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}
