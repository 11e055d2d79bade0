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
                #[cfg(target_os = "linux")]
                grow_pipe(&fd);
                return StdoutSink::Other(std::fs::File::from(fd));
            }
        }
        let _ = tty;
        StdoutSink::Terminal(io::stdout())
    }
}

/// When stdout is a pipe, asks for a 1 MiB pipe buffer instead of the default 64 KiB (the
/// system's default ceiling, `/proc/sys/fs/pipe-max-size`; refused quietly past a user's pipe
/// quota, and a no-op on anything that is not a pipe). A writer faster than its reader blocks
/// each time the pipe is full, and a large result (tens of MB of JSON) meant more than a
/// thousand sleep/wake-up round trips with the reader; with 16 times the room, far fewer.
#[cfg(target_os = "linux")]
fn grow_pipe(fd: &std::os::fd::OwnedFd) {
    use std::os::fd::AsRawFd;
    const SIZE: libc::c_int = 1 << 20;
    // SAFETY: fcntl on a descriptor this process owns (a duplicate of stdout), with an
    // integer argument; it reads or writes no memory of ours.
    let _ = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, SIZE) };
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

/// Writes `n` in decimal.
pub fn write_uint(out: &mut Vec<u8>, n: usize) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut buf = [0u8; 20];
    let len = put_uint(&mut buf, 0, n);
    out.extend_from_slice(&buf[..len]);
}

/// Puts `n` in decimal into `buf` at `at` and returns where it ends; `buf` must have room for
/// 8 bytes from `at` (bytes after the digits are overwritten), 20 for numbers from 10^8 on.
///
/// Below 10^8 (offsets, lines and columns in practice) the digits are computed in one 64-bit
/// register, eight lanes of one digit each (SWAR), and stored with one 8-byte write: no branch
/// on the number's length to mispredict, and no small stores read back as one larger load.
#[inline]
pub fn put_uint(buf: &mut [u8], at: usize, n: usize) -> usize {
    if n >= 100_000_000 {
        let s = n.to_string();
        buf[at..at + s.len()].copy_from_slice(s.as_bytes());
        return at + s.len();
    }
    let n = n as u64;
    // Two 4-digit halves in 32-bit lanes, then 2-digit pairs in 16-bit lanes, then digits in
    // 8-bit lanes; each division by a multiply-shift that is exact in this range.
    let halves = (n / 10_000) | ((n % 10_000) << 32);
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let pairs = hundreds | ((halves - hundreds * 100) << 16);
    let tens = ((pairs * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | ((pairs - tens * 10) << 8);
    // The first digit is the lowest byte: skip the leading zeros.
    let zeros = ((digits.trailing_zeros() / 8) as usize).min(7);
    let ascii = (digits + 0x3030_3030_3030_3030) >> (8 * zeros);
    buf[at..at + 8].copy_from_slice(&ascii.to_le_bytes());
    at + 8 - zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uints() {
        let mut buf = [b'x'; 24];
        let powers = (0..20).flat_map(|e| {
            let p = 10usize.pow(e);
            [p - 1, p, p + 1]
        });
        // Every number below 200 000, a sample of those below 10^8, powers of ten around.
        let samples = (0..200_000).chain((0..100_000_000).step_by(9_973));
        for n in samples
            .chain(powers)
            .chain([99_999_999, usize::MAX / 3, usize::MAX])
        {
            let mut out = Vec::new();
            write_uint(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
            let end = put_uint(&mut buf, 2, n);
            assert_eq!(&buf[2..end], n.to_string().as_bytes());
            assert_eq!(&buf[..2], b"xx");
        }
    }
}
