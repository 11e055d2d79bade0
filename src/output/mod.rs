//! Printers: the only code that writes to stdout. Commands hand them data; they render it as
//! ripgrep-like text (`human`), one JSON envelope (`json`) or JSON lines (`jsonl`).

pub mod human;
pub mod json;

use crate::envelope::{DiagnosticPayload, Level, Status};
use std::io::{self, BufWriter, IsTerminal, Stdout, Write};

/// Output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Jsonl,
}

/// `--color` choice before looking at the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Where output goes and how it looks.
pub struct Printer {
    pub format: Format,
    /// Colour escapes in human output.
    pub color: bool,
    /// stdout is a terminal (headings, pretty JSON).
    pub tty: bool,
    out: BufWriter<Stdout>,
}

impl Printer {
    /// A printer on stdout.
    pub fn new(format: Format, color: ColorChoice) -> Self {
        let tty = io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && !no_color,
        };
        Printer {
            format,
            color,
            tty,
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
        }
    }

    /// The buffered stdout.
    pub fn out(&mut self) -> &mut BufWriter<Stdout> {
        &mut self.out
    }

    /// Flushes stdout.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Human format: diagnostics go to stderr as `llm <tool>: <level>[CODE]: message`.
    pub fn diagnostics_to_stderr(&self, diagnostics: &[DiagnosticPayload]) {
        let mut err = io::stderr().lock();
        for d in diagnostics {
            let _ = writeln!(err, "{}", human::diagnostic_line(d));
        }
    }
}

/// A query's exit code: 2 when any error-level diagnostic was reported (a missing path, an
/// unreadable file named on the command line — as ripgrep does), otherwise the status's code.
pub fn query_exit_code(status: Status, diagnostics: &[DiagnosticPayload]) -> u8 {
    if diagnostics.iter().any(|d| d.level == Level::Error) {
        2
    } else {
        status.exit_code()
    }
}

/// Writes `n` in decimal.
pub fn write_uint(out: &mut Vec<u8>, n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uints() {
        for n in [0, 1, 9, 10, 99, 100, 12345, usize::MAX] {
            let mut out = Vec::new();
            write_uint(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
