//! Printers: the only code that writes to stdout. Commands hand them data; they render it as
//! ripgrep-like text (`human`), one JSON envelope (`json`) or JSON lines (`jsonl`).

pub mod debug_log;
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
    /// Output is flushed as it is printed (by default on a terminal; `--line-buffered`):
    /// commands that stream flush after each piece (a search: after each file's lines).
    pub line_buffered: bool,
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
    /// Written by a thread of its own (see [`Printer::write_behind`]).
    Behind(WriteBehind),
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
            StdoutSink::Behind(b) => b.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            StdoutSink::Terminal(s) => s.write_all(buf),
            StdoutSink::Other(f) => f.write_all(buf),
            StdoutSink::Behind(b) => b.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            StdoutSink::Terminal(s) => s.flush(),
            StdoutSink::Other(f) => f.flush(),
            StdoutSink::Behind(b) => b.flush(),
        }
    }
}

/// Output handed to a thread that writes it, in chunks of [`WriteBehind::CHUNK`] bytes, so
/// that the thread producing it does not wait on the pipe: a search's printing thread also
/// hands the walk's files to the workers and their results on in order, and while it sat in
/// `write` the workers ran dry (on 16 cores, a json search of the Rust corpus spent about a
/// third of its time with one thread writing and the others idle). At most
/// [`WriteBehind::QUEUED`] chunks wait for the writer; a writer slower than that holds the
/// producer back, as the pipe did. A write error stops the writer and is returned by the next
/// write, or by [`WriteBehind::finish`].
pub struct WriteBehind {
    /// Chunks to the writer (`None` once it is told to finish).
    chunks: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    /// Chunks written, for reuse.
    spare: std::sync::mpsc::Receiver<Vec<u8>>,
    /// The chunk being filled.
    chunk: Vec<u8>,
    /// The writer; it hands the file back, and the first error it met.
    writer: Option<std::thread::JoinHandle<(std::fs::File, io::Result<()>)>>,
}

impl WriteBehind {
    const CHUNK: usize = 256 << 10;
    const QUEUED: usize = 8;

    fn start(mut file: std::fs::File) -> io::Result<Self> {
        let (chunks, queued) = std::sync::mpsc::sync_channel::<Vec<u8>>(Self::QUEUED);
        let (written, spare) = std::sync::mpsc::sync_channel(Self::QUEUED);
        let writer = std::thread::Builder::new()
            .name("llm-write".into())
            .spawn(move || {
                for mut chunk in queued {
                    if let Err(e) = file.write_all(&chunk) {
                        return (file, Err(e));
                    }
                    chunk.clear();
                    // Full only if the producer stopped taking them back: then it is dropped.
                    let _ = written.try_send(chunk);
                }
                (file, Ok(()))
            })?;
        Ok(WriteBehind {
            chunks: Some(chunks),
            spare,
            chunk: Vec::with_capacity(Self::CHUNK),
            writer: Some(writer),
        })
    }

    /// Hands the chunk being filled to the writer, and takes a written one (or a new one) to
    /// fill next.
    fn send(&mut self) -> io::Result<()> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(Self::CHUNK));
        let full = std::mem::replace(&mut self.chunk, next);
        let sent = self.chunks.as_ref().map(|c| c.send(full));
        match sent {
            Some(Ok(())) => Ok(()),
            // The writer stopped: its error says why.
            _ => match self.stop() {
                Ok(_) => Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the output's writer stopped",
                )),
                Err(e) => Err(e),
            },
        }
    }

    /// Tells the writer to finish what it was given and waits for it: the file, or the first
    /// error it met.
    fn stop(&mut self) -> io::Result<Option<std::fs::File>> {
        self.chunks = None;
        let Some(writer) = self.writer.take() else {
            return Ok(None);
        };
        let (file, result) = writer
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        result.map(|()| Some(file))
    }

    /// Writes what is left and gives the file back once all of it is written.
    fn finish(mut self) -> io::Result<Option<std::fs::File>> {
        self.send()?;
        self.stop()
    }
}

impl Write for WriteBehind {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, mut buf: &[u8]) -> io::Result<()> {
        while !buf.is_empty() {
            // The chunk is sent once full: there is always room in it here.
            let room = Self::CHUNK - self.chunk.len();
            let (now, rest) = buf.split_at(room.min(buf.len()));
            self.chunk.extend_from_slice(now);
            buf = rest;
            if self.chunk.len() >= Self::CHUNK {
                self.send()?;
            }
        }
        Ok(())
    }

    /// Hands what was written so far to the writer (without waiting for it: see
    /// [`Printer::flush`]).
    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

impl Drop for WriteBehind {
    /// Whatever was handed over is still written before the process goes on (an error here
    /// has nobody left to tell).
    fn drop(&mut self) {
        let _ = self.stop();
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
            line_buffered: tty,
            out: BufWriter::with_capacity(64 * 1024, StdoutSink::new(tty)),
        }
    }

    /// `--line-buffered` (`Some(true)`) or `--block-buffered` (`Some(false)`: on a terminal
    /// too, written in blocks to a duplicate of stdout rather than through the line-buffered
    /// `io::Stdout`); `None` keeps the default (line by line on a terminal only).
    pub fn set_line_buffered(&mut self, line: Option<bool>) {
        let Some(line) = line else { return };
        self.line_buffered = line;
        if !line
            && matches!(self.out.get_ref(), StdoutSink::Terminal(_))
            && self.out.flush().is_ok()
        {
            self.out = BufWriter::with_capacity(64 * 1024, StdoutSink::new(false));
        }
    }

    /// The buffered stdout.
    pub fn out(&mut self) -> &mut BufWriter<StdoutSink> {
        &mut self.out
    }

    /// Flushes stdout: all output written, by the writer too when one writes behind.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        self.write_direct()
    }

    /// From here on, output is written by a thread of its own ([`WriteBehind`]) until
    /// [`Printer::flush`]: for a command that produces much output on a thread that has other
    /// work too. Not on a terminal, nor line-buffered (whose lines should appear as they come).
    pub fn write_behind(&mut self) -> io::Result<()> {
        if self.tty || self.line_buffered || !matches!(self.out.get_ref(), StdoutSink::Other(_)) {
            return Ok(());
        }
        self.out.flush()?;
        let (sink, _) = self.swap_sink().into_parts();
        let StdoutSink::Other(file) = sink else {
            unreachable!("checked above")
        };
        let sink = match WriteBehind::start(file) {
            Ok(behind) => StdoutSink::Behind(behind),
            // No thread to be had: written here, as before, on a new duplicate of stdout.
            Err(_) => StdoutSink::new(false),
        };
        // The writer buffers: chunks go to it whole, without a second copy here.
        self.out = BufWriter::with_capacity(0, sink);
        Ok(())
    }

    /// Waits for the writer, if one writes behind, to write everything, and writes directly
    /// again.
    fn write_direct(&mut self) -> io::Result<()> {
        if !matches!(self.out.get_ref(), StdoutSink::Behind(_)) {
            return Ok(());
        }
        let (sink, _) = self.swap_sink().into_parts();
        let StdoutSink::Behind(behind) = sink else {
            unreachable!("checked above")
        };
        let file = behind.finish()?;
        if let Some(file) = file {
            self.out = BufWriter::with_capacity(64 * 1024, StdoutSink::Other(file));
        }
        Ok(())
    }

    /// Takes the sink out, leaving stdout in its place.
    fn swap_sink(&mut self) -> BufWriter<StdoutSink> {
        std::mem::replace(
            &mut self.out,
            BufWriter::with_capacity(64 * 1024, StdoutSink::Terminal(io::stdout())),
        )
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
