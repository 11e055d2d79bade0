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
    out: BufWriter<StdoutSink>,
}

/// Standard output as the printer writes it: `io::Stdout` on a terminal; otherwise (a pipe,
/// a file) a duplicate of its file descriptor, written directly. `io::Stdout` is line
/// buffered: each write is scanned for its last newline, which costs a pass over all output
/// (a compact JSON envelope has no newline until its end) for nothing when nobody watches
/// lines appear.
pub enum StdoutSink {
    Terminal(Stdout),
    Other(std::fs::File),
}

impl StdoutSink {
    fn new(tty: bool) -> Self {
        #[cfg(unix)]
        if !tty {
            use std::os::fd::AsFd;
            if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
                return StdoutSink::Other(std::fs::File::from(fd));
            }
        }
        let _ = tty;
        StdoutSink::Terminal(io::stdout())
    }
}

impl Write for StdoutSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            StdoutSink::Terminal(s) => s.write(buf),
            StdoutSink::Other(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            StdoutSink::Terminal(s) => s.write_all(buf),
            StdoutSink::Other(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            StdoutSink::Terminal(s) => s.flush(),
            StdoutSink::Other(f) => f.flush(),
        }
    }
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
            out: BufWriter::with_capacity(64 * 1024, StdoutSink::new(tty)),
        }
    }

    /// The buffered stdout.
    pub fn out(&mut self) -> &mut BufWriter<StdoutSink> {
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

/// Writes `n` in decimal, two digits at a time. Numbers under 100 (most columns) are one or
/// two bytes pushed; longer ones go into a fixed-size array that is appended whole and cut
/// back, which compiles to a few moves instead of a `memcpy` call.
pub fn write_uint(out: &mut Vec<u8>, mut n: usize) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566\
676869707172737475767778798081828384858687888990919293949596979899";
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    if n < 100 {
        out.extend_from_slice(&PAIRS[2 * n..2 * n + 2]);
        return;
    }
    let digits = match n {
        100..1_000 => 3,
        1_000..10_000 => 4,
        10_000..100_000 => 5,
        100_000..1_000_000 => 6,
        _ => n.ilog10() as usize + 1,
    };
    let mut buf = [0u8; 20];
    let mut at = digits;
    while n >= 100 {
        let pair = 2 * (n % 100);
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        buf[..2].copy_from_slice(&PAIRS[2 * n..2 * n + 2]);
    } else {
        buf[0] = b'0' + n as u8;
    }
    let len = out.len() + digits;
    out.extend_from_slice(&buf);
    out.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uints() {
        for n in (0..2000).chain([12345, 99999, 100000, usize::MAX / 3, usize::MAX]) {
            let mut out = Vec::new();
            write_uint(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
