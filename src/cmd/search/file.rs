//! `llm search`, per file: the worker that reads one file, probes it in 64 KiB chunks, and for
//! a file that matches, reads it whole and hands its bytes to `bytes.rs` (matches, records,
//! rendering, checksum); `-c`/`-l` are counted in chunks here, and a file too big to hold is
//! streamed.

use super::bytes::{search_bytes, Hash};
use super::find::{Collect, Probe, Want, FLUSH_AT};
use super::matches::MatchRecord;
use super::SearchMatcher;
use super::{FileResult, Mode, Renderer, SearchFile, SearchOptions, WholeFile};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::hash::Partial;
use crate::span::{checksum, checksum_beside, hex};
use crate::walk::Candidate;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

pub(super) enum SkipReason {
    Binary,
    Unreadable,
    TooLarge,
}

pub(super) enum FileOutcome {
    Skipped(SkipReason, Option<DiagnosticPayload>),
    /// The file has more matches than a worker keeps (`STREAM_AT`): it is searched again by
    /// the thread that prints, when its turn comes, its matches streamed out in chunks.
    Deferred(Candidate),
    Searched {
        bytes: u64,
        lossy: bool,
        result: Option<FileResult>,
    },
}

/// What one worker thread keeps between files: its searchers and its read buffer.
pub struct Worker {
    /// Full search of a file's bytes: for text, and for files named on the command line.
    pub(super) searcher: Searcher,
    /// Full search of a walked file that contains a NUL byte: stops there, as ripgrep does.
    pub(super) binary_searcher: Searcher,
    /// First pass over a file read in 64 KiB chunks: is there any match? (`quit` on NUL for
    /// walked files, as ripgrep.) Most files have none, and their bytes then only ever pass
    /// through one small, cache-hot buffer.
    probe: Searcher,
    probe_binary: Searcher,
    /// The whole file, for the files that match (up to `SMALL_FILE` bytes; larger ones go
    /// into `large`).
    pub(super) buf: Vec<u8>,
    large: Vec<u8>,
    /// When matches are found by one pass of the regex over a file's bytes rather than line
    /// by line.
    pub(super) whole: WholeFile,
    /// The bytes of the last file whose checksum waits for another file's (see `finish`),
    /// how far it got (`carried`), checksums computed for such files since, in order, and a
    /// buffer to read into next.
    pub(super) pending: Option<Vec<u8>>,
    pub(super) carried: Partial,
    pub(super) resolved: std::collections::VecDeque<String>,
    spare: Option<Vec<u8>>,
    /// The last file's match ranges and records, their storage reused.
    pub(super) ranges: Vec<std::ops::Range<usize>>,
    pub(super) records: Vec<MatchRecord>,
    /// This worker's place among the renderer's owners (see [`Renderer`]).
    pub(super) slot: usize,
    /// The file the next `search_bytes` searches the decoded text of (see `input.rs`), and
    /// whether that text is not the file's bytes: such files are never deferred.
    pub(super) origin: Option<super::decode::Origin>,
    pub(super) derived: bool,
}

impl Worker {
    pub(super) fn new(opts: &SearchOptions, whole: WholeFile, slot: usize) -> Self {
        let build = |binary: BinaryDetection| {
            // -a: a NUL byte is just a byte.
            let binary = if opts.text {
                BinaryDetection::none()
            } else {
                binary
            };
            SearcherBuilder::new()
                .line_number(false)
                .multi_line(opts.multiline)
                .invert_match(opts.invert)
                .stop_on_nonmatch(opts.stop_on_nonmatch)
                // Offsets must be those of the bytes on disk: no BOM stripping, no transcoding.
                .bom_sniffing(false)
                .encoding(None)
                .max_matches(opts.max_count.map(|n| n as u64))
                .binary_detection(binary)
                .line_terminator(grep_matcher::LineTerminator::byte(match opts.null_data {
                    true => 0,
                    false => b'\n',
                }))
                .build()
        };
        Worker {
            searcher: build(BinaryDetection::none()),
            binary_searcher: build(BinaryDetection::quit(0)),
            probe: build(BinaryDetection::none()),
            probe_binary: build(BinaryDetection::quit(0)),
            buf: Vec::with_capacity(256 * 1024),
            large: Vec::new(),
            pending: None,
            carried: Partial::new(),
            resolved: std::collections::VecDeque::new(),
            spare: None,
            whole,
            ranges: Vec::new(),
            records: Vec::new(),
            slot,
            origin: None,
            derived: false,
        }
    }

    /// Lets go of the match storage a file with many matches grew (up to `STREAM_AT` records,
    /// 1.5 MiB, per worker): kept, every worker of a long run would end up holding what the
    /// file with the most matches it met needed.
    pub(super) fn trim(&mut self) {
        const KEEP_RECORDS: usize = 2048;
        const KEEP_RANGES: usize = 8192;
        if self.records.capacity() > KEEP_RECORDS {
            self.records = Vec::new();
        }
        if self.ranges.capacity() > KEEP_RANGES {
            self.ranges = Vec::new();
        }
    }

    /// Keeps a buffer whose bytes are no longer needed for the next file's read.
    pub(super) fn recycle(&mut self, mut buf: Vec<u8>) {
        buf.clear();
        self.spare = Some(buf);
    }
}

/// Completes a batch of a worker's results: gives the files whose checksum was left pending
/// theirs, computed beside the next files' (two SHA-256 streams at once, see
/// `crate::hash::Partial`), the last one's rest alone.
pub(super) fn finish(w: &mut Worker, results: &mut [FileOutcome]) {
    for outcome in results {
        let FileOutcome::Searched {
            result: Some(r), ..
        } = outcome
        else {
            continue;
        };
        if !r.checksum_pending {
            continue;
        }
        r.file.checksum = match w.resolved.pop_front() {
            Some(c) => c,
            None => {
                let bytes = w
                    .pending
                    .take()
                    .expect("a pending checksum has its file's bytes kept");
                let c = hex(&std::mem::take(&mut w.carried).finish(&bytes));
                w.recycle(bytes);
                c
            }
        };
        r.checksum_pending = false;
    }
    debug_assert!(w.resolved.is_empty() && w.pending.is_none());
}

/// The failure to read `cand` as a diagnostic (error-level when the file was named).
pub(super) fn unreadable(cand: &Candidate, err: &std::io::Error) -> FileOutcome {
    // Let the shared reader name the failure with its code and remediation.
    let e = match crate::fsio::read(&cand.path, &cand.display) {
        Err(e) => e,
        Ok(_) => Error::new(
            Code::PathUnreadable,
            format!("{}: {err}", cand.display),
            "check that the path is a readable file",
        )
        .with_file(&cand.display),
    };
    let level = if cand.explicit {
        Level::Error
    } else {
        Level::Warning
    };
    let mut d = e.diagnostic(level);
    d.tool = "search".into();
    FileOutcome::Skipped(SkipReason::Unreadable, Some(d))
}

/// What the workers of one run share.
pub(super) struct Shared<'a> {
    pub opts: &'a SearchOptions,
    /// One clone of the pattern per worker ([`Worker`]'s `slot`), and one for the thread that
    /// prints: each clone's regex keeps its own cache, taken without a lock by the one thread
    /// that uses it (a shared one is lock-free for its first thread only: at `-j2` the other
    /// worker took and gave back a cache under a lock for every search).
    pub matchers: Vec<SearchMatcher>,
    /// Checksums and ids are shown (not in human output).
    pub want_checksum: bool,
    pub render: Option<&'a Renderer<'a>>,
    /// `--pre` and `-z` (see `input.rs`).
    pub pre: super::preprocess::Preprocessors,
}

impl Shared<'_> {
    /// The matcher of worker `w`.
    pub(super) fn matcher(&self, w: &Worker) -> &SearchMatcher {
        &self.matchers[w.slot]
    }
}

/// Where a file's matches go as they are found, chunk by chunk (see [`stream_file`]).
pub(super) type ChunkSink<'s> = &'s mut dyn FnMut(&mut FileResult) -> std::io::Result<()>;

/// A file with more matches than this is streamed (see [`FileOutcome::Deferred`]).
pub(super) const STREAM_AT: usize = 4 * FLUSH_AT;

/// A file larger than this that matches is streamed without a worker reading it whole.
const STREAM_SIZE: u64 = 16 << 20;

/// Searches a file named or found, on a worker thread.
pub(super) fn search_file(s: &Shared<'_>, w: &mut Worker, cand: &Candidate) -> FileOutcome {
    let (opts, matcher, want_checksum) = (s.opts, s.matcher(w), s.want_checksum);
    use std::io::{Read, Seek};
    /// Files up to this size are read whole at once (see below).
    const SMALL_FILE: usize = 128 * 1024;
    // Listing a file without its checksum (human `--files`) needs no open, as ripgrep.
    if opts.mode == Mode::Files && !want_checksum {
        return list_file(s, cand, None);
    }
    let mut file = match open(cand) {
        Ok(f) => f,
        Err(outcome) => return outcome,
    };
    if opts.mode == Mode::Files {
        return list_file(s, cand, Some(file));
    }
    // `--pre`, `-z`, `-E` (see `input.rs`).
    if let Some(outcome) = super::input::before_read(s, w, cand, &file) {
        return outcome;
    }
    let as_named = cand.explicit || opts.binary;
    // Human `-l`, `-c`, `--count-matches` and `--files-without-match` need neither the bytes
    // nor the lines: one pass over 64 KiB chunks, as ripgrep (`-l` stops at the first match).
    if !want_checksum && opts.mode != Mode::Matches && !opts.multiline {
        return count_only(s, w, cand, &file);
    }
    // Small files (most of a source tree) are read whole into the worker's buffer, which stays
    // in cache, and searched once. Larger ones are first probed in 64 KiB chunks (the prefix
    // already read, then the rest of the file): only if something matches are they read whole.
    w.buf.clear();
    // Through `Take`, `read_to_end` reads into the spare capacity without first asking the
    // file for its size (a statx and an lseek per file).
    if let Err(e) = (&mut file).take(SMALL_FILE as u64).read_to_end(&mut w.buf) {
        return unreadable(cand, &e);
    }
    // A UTF-16 byte-order mark: decoded, as ripgrep (see `input.rs`).
    if let Some(outcome) = super::input::utf16(s, w, cand, &file) {
        return outcome;
    }
    // -U reads whole files anyway: no probe then; nor when files without a match are
    // listed (with their checksums).
    let lists_unmatched =
        opts.mode == Mode::FilesWithoutMatch || opts.include_zero || opts.passthru_unmatched;
    if w.buf.len() == SMALL_FILE && !opts.multiline && !lists_unmatched {
        let probe = if as_named {
            &mut w.probe
        } else {
            &mut w.probe_binary
        };
        let mut sink = Probe::default();
        let reader = std::io::Cursor::new(&w.buf[..]).chain(&file);
        if let Err(e) = matcher.search_reader(probe, reader, &mut sink) {
            return unreadable(cand, &e);
        }
        if !sink.matched {
            if sink.binary {
                return FileOutcome::Skipped(SkipReason::Binary, None);
            }
            return FileOutcome::Searched {
                bytes: sink.bytes,
                lossy: false,
                result: None,
            };
        }
        // A large file with matches, whose matches are rendered as they stream: the printing
        // thread reads it (once) and streams them, rather than a worker holding a copy too.
        let large = file.metadata().is_ok_and(|m| m.len() > STREAM_SIZE);
        if large && s.render.is_some() && opts.mode == Mode::Matches {
            return FileOutcome::Deferred(cand.clone());
        }
        if let Err(e) = file.seek(std::io::SeekFrom::Start(SMALL_FILE as u64)) {
            return unreadable(cand, &e);
        }
    }
    if w.buf.len() < SMALL_FILE {
        // Read to its end already (`read_to_end` saw it).
        let buf = std::mem::take(&mut w.buf);
        let outcome = search_bytes(s, w, cand, &buf, Hash::MayDefer, None);
        let keep =
            matches!(&outcome, FileOutcome::Searched { result: Some(r), .. } if r.checksum_pending);
        if keep {
            // The bytes wait for the next file's checksum (see `finish`); the next file is
            // read into the spare buffer.
            w.pending = Some(buf);
            w.buf = w
                .spare
                .take()
                .unwrap_or_else(|| Vec::with_capacity(256 * 1024));
        } else {
            w.buf = buf;
        }
        return outcome;
    }
    // A large file goes into the worker's large buffer, with room for all of it at once
    // rather than doubling (each doubling copies what was read into fresh pages). Its
    // checksum is not left pending: that would keep a second large buffer.
    let mut large = std::mem::take(&mut w.large);
    large.clear();
    large.extend_from_slice(&w.buf);
    if let Ok(meta) = file.metadata() {
        let want = (meta.len() as usize + 1).saturating_sub(large.len());
        large.reserve_exact(want);
        // Mapped in with one call rather than one page fault per 4 KiB as the read fills it:
        // the Rust corpus's 6.5 MB `parser.c` alone, human, on the 16-core machine 9.3 → 7.8
        // ms (rg 5.4), on 2 cores 15.8 → 14.6 ms.
        crate::memory::prefault(large.spare_capacity_mut());
    }
    // Never more than --max-filesize (a file that grew since it was listed).
    let limit = max_size(opts, cand).map_or(u64::MAX, |m| m.saturating_add(1));
    if let Err(e) = (&mut file).take(limit).read_to_end(&mut large) {
        w.large = large;
        return unreadable(cand, &e);
    }
    drop(file);
    if max_size(opts, cand).is_some_and(|m| large.len() as u64 > m) {
        w.large = large;
        return FileOutcome::Skipped(SkipReason::TooLarge, None);
    }
    // A very large file is checksummed on a thread of its own while it is searched: one
    // stream of SHA-256 is half the time of such a file, and the largest file of a tree often
    // comes last (on the 16-core machine, the Rust corpus's 6.5 MB parser.c kept one worker
    // busy alone for the last 12 ms of a 47 ms json search).
    let apart = want_checksum && opts.threads > 1 && large.len() >= HASH_APART;
    let outcome = if apart {
        let (mut outcome, sum) = checksum_beside(&large, || {
            search_bytes(s, w, cand, &large, Hash::Apart, None)
        });
        if let FileOutcome::Searched {
            result: Some(r), ..
        } = &mut outcome
        {
            r.file.checksum = sum;
        }
        outcome
    } else {
        search_bytes(s, w, cand, &large, Hash::Now, None)
    };
    // Kept for the next large file only up to a few MiB: every worker ends up having read one
    // of the tree's largest files, and memory would grow with threads × the largest file.
    if large.capacity() <= KEEP_LARGE {
        w.large = large;
    }
    outcome
}

/// From this size on, a file's checksum is computed beside its search (see `search_file`).
const HASH_APART: usize = 1 << 20;

/// The largest read buffer a worker keeps between files (see `search_file`).
const KEEP_LARGE: usize = 1 << 20;

/// `-l`/`-c`/`--count-matches` without checksums: counts from one chunked pass.
fn count_only(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
) -> FileOutcome {
    let (opts, matcher) = (s.opts, s.matcher(w));
    let as_named = cand.explicit || opts.binary;
    // A named file, or one found binary, may be UTF-16 with a byte-order mark (see `input.rs`).
    if as_named {
        if let Some(outcome) = super::input::decoded(s, w, cand, file, None) {
            return outcome;
        }
    }
    let searcher = if as_named {
        &mut w.probe
    } else {
        &mut w.probe_binary
    };
    let probe_only =
        matches!(opts.mode, Mode::FilesWithMatches | Mode::FilesWithoutMatch) && !opts.full_counts;
    let (lines, matches, binary, bytes) = if probe_only {
        let mut sink = Probe::default();
        if let Err(e) = matcher.search_reader(searcher, file, &mut sink) {
            return unreadable(cand, &e);
        }
        let n = usize::from(sink.matched);
        (n, n, sink.binary, sink.bytes)
    } else {
        // `-c` counts lines: their matches need not be found.
        let want = if opts.mode == Mode::CountLines && !opts.full_counts {
            Want::Lines
        } else {
            Want::All
        };
        let mut discard = |_: &mut Vec<std::ops::Range<usize>>| true;
        let mut sink = Collect::new(matcher, false, want, Vec::new())
            .inverted(opts.invert)
            .counting(&mut discard);
        if let Err(e) = matcher.search_reader(searcher, file, &mut sink) {
            return unreadable(cand, &e);
        }
        let matches = match want {
            Want::Lines => sink.found.lines,
            _ => sink.matches(),
        };
        let f = sink.found;
        (f.lines, matches, f.binary_at.is_some(), sink.bytes)
    };
    // A binary file found by walking is not listed (ripgrep's summaries say nothing of it).
    if binary && !as_named {
        return super::input::decoded(s, w, cand, file, None)
            .unwrap_or(FileOutcome::Skipped(SkipReason::Binary, None));
    }
    let listed = matches > 0 || opts.mode == Mode::FilesWithoutMatch || opts.include_zero;
    let result = listed.then(|| {
        FileResult::of(
            cand,
            SearchFile {
                file_path: cand.display.clone(),
                file_path_lossy: crate::span::path_is_lossy(&cand.display),
                checksum: String::new(),
                match_count: matches,
                line_count: lines,
                lossy: false,
            },
        )
    });
    FileOutcome::Searched {
        bytes,
        lossy: false,
        result,
    }
}

/// Searches a deferred file (see [`FileOutcome::Deferred`]) on the printing thread, handing
/// its matches to `sink` in chunks as they are found; returns the file's outcome, whose result
/// (`continued`) carries the last chunk, the counts and the checksum.
pub(super) fn stream_file(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    sink: ChunkSink<'_>,
) -> std::io::Result<FileOutcome> {
    let mut failed = None;
    let mut wrapped = |r: &mut FileResult| {
        sink(r).inspect_err(|e| failed = Some(std::io::Error::new(e.kind(), e.to_string())))
    };
    let outcome = stream_bytes(s, w, cand, &mut wrapped);
    match failed {
        Some(e) => Err(e),
        None => Ok(outcome),
    }
}

fn stream_bytes(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    sink: ChunkSink<'_>,
) -> FileOutcome {
    use std::io::Read;
    let file = match open(cand) {
        Ok(f) => f,
        Err(outcome) => return outcome,
    };
    let limit = max_size(s.opts, cand).map_or(u64::MAX, |m| m.saturating_add(1));
    // Room for all of it at once, mapped in with one call (see `search_file`'s large files).
    let size = file.metadata().map_or(0, |m| m.len().min(limit));
    let mut bytes = Vec::with_capacity(size as usize + 1);
    crate::memory::prefault(bytes.spare_capacity_mut());
    if let Err(e) = file.take(limit).read_to_end(&mut bytes) {
        return unreadable(cand, &e);
    }
    if max_size(s.opts, cand).is_some_and(|m| bytes.len() as u64 > m) {
        return FileOutcome::Skipped(SkipReason::TooLarge, None);
    }
    search_bytes(s, w, cand, &bytes, Hash::Now, Some(sink))
}

/// `--max-filesize` for this file: none for a file named on the command line, which is
/// searched whatever the filters say, as in ripgrep. A walked file that grew past it since
/// it was listed is read no further.
pub(super) fn max_size(opts: &SearchOptions, cand: &Candidate) -> Option<u64> {
    opts.walk.max_filesize.filter(|_| !cand.explicit)
}

/// Opens a file to search; a FIFO, socket or device (a named one was already refused by the
/// walk; this one took a regular file's place since) is skipped without blocking.
fn open(cand: &Candidate) -> std::result::Result<std::fs::File, FileOutcome> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let file = o.open(&cand.path).map_err(|e| unreadable(cand, &e))?;
    match file.metadata() {
        Ok(m) if !m.is_file() => Err(FileOutcome::Skipped(SkipReason::Unreadable, None)),
        _ => Ok(file),
    }
}

/// `--files`: the file as it would be searched, not searched; checksummed when shown.
fn list_file(s: &Shared<'_>, cand: &Candidate, file: Option<std::fs::File>) -> FileOutcome {
    use std::io::Read;
    let mut f = SearchFile {
        file_path: cand.display.clone(),
        file_path_lossy: crate::span::path_is_lossy(&cand.display),
        ..SearchFile::default()
    };
    let mut size = 0;
    if let Some(file) = file {
        let limit = max_size(s.opts, cand).map_or(u64::MAX, |m| m.saturating_add(1));
        let mut bytes = Vec::new();
        if let Err(e) = file.take(limit).read_to_end(&mut bytes) {
            return unreadable(cand, &e);
        }
        size = bytes.len() as u64;
        f.checksum = checksum(&bytes);
    }
    FileOutcome::Searched {
        bytes: size,
        lossy: false,
        result: Some(FileResult::of(cand, f)),
    }
}
