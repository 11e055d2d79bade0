//! `llm search`, per file: the worker that reads one file, probes it in 64 KiB chunks, and for
//! a file that matches, reads it whole, finds its matches (`find.rs`), turns them into records
//! (`matches.rs`) that the printers render inside the worker, and checksums it.

use super::find::{expand_replacement, find_in_bytes, find_matches, Collect, Probe, Want};
use super::matches::{records, set_ids, FileMatches, MatchRecord};
use super::{FileResult, Mode, Renderer, SearchFile, SearchOptions, WholeFile};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{checksum, checksum_pair};
use crate::walk::Candidate;
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};

pub(super) enum SkipReason {
    Binary,
    Unreadable,
}

pub(super) enum FileOutcome {
    Skipped(SkipReason, Option<DiagnosticPayload>),
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
    binary_searcher: Searcher,
    /// First pass over a file read in 64 KiB chunks: is there any match? (`quit` on NUL for
    /// walked files, as ripgrep.) Most files have none, and their bytes then only ever pass
    /// through one small, cache-hot buffer.
    probe: Searcher,
    probe_binary: Searcher,
    /// The whole file, for the files that match (up to `SMALL_FILE` bytes; larger ones go
    /// into `large`).
    buf: Vec<u8>,
    large: Vec<u8>,
    /// When matches are found by one pass of the regex over a file's bytes rather than line
    /// by line.
    whole: WholeFile,
    /// The bytes of the last file whose checksum waits for another file's (see `finish`),
    /// checksums computed for such files since, in order, and a buffer to read into next.
    pending: Option<Vec<u8>>,
    resolved: std::collections::VecDeque<String>,
    spare: Option<Vec<u8>>,
    /// The last file's match ranges and records, their storage reused.
    ranges: Vec<std::ops::Range<usize>>,
    records: Vec<MatchRecord>,
}

impl Worker {
    pub(super) fn new(opts: &SearchOptions, whole: WholeFile) -> Self {
        let build = |binary: BinaryDetection| {
            SearcherBuilder::new()
                .line_number(false)
                .multi_line(opts.multiline)
                // Offsets must be those of the bytes on disk: no BOM stripping, no transcoding.
                .bom_sniffing(false)
                .encoding(None)
                .max_matches(opts.max_count.map(|n| n as u64))
                .binary_detection(binary)
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
            resolved: std::collections::VecDeque::new(),
            spare: None,
            whole,
            ranges: Vec::new(),
            records: Vec::new(),
        }
    }

    /// Keeps a buffer whose bytes are no longer needed for the next file's read.
    fn recycle(&mut self, mut buf: Vec<u8>) {
        buf.clear();
        self.spare = Some(buf);
    }
}

/// Completes a batch of a worker's results: gives the files whose checksum was left pending
/// theirs, computed with the next pending file's as a pair where there was one (two SHA-256
/// streams at once, see `crate::hash`), else alone.
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
                let c = checksum(&bytes);
                w.recycle(bytes);
                c
            }
        };
        r.checksum_pending = false;
    }
    debug_assert!(w.resolved.is_empty() && w.pending.is_none());
}

/// The failure to read `cand` as a diagnostic (error-level when the file was named).
fn unreadable(cand: &Candidate, err: &std::io::Error) -> FileOutcome {
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
    pub matcher: &'a RegexMatcher,
    /// Checksums and ids are shown (not in human output).
    pub want_checksum: bool,
    pub render: Option<&'a Renderer<'a>>,
}

pub(super) fn search_file(s: &Shared<'_>, w: &mut Worker, cand: &Candidate) -> FileOutcome {
    let (opts, matcher, want_checksum) = (s.opts, s.matcher, s.want_checksum);
    use std::io::{Read, Seek};
    /// Files up to this size are read whole at once (see below).
    const SMALL_FILE: usize = 128 * 1024;
    let mut file = match std::fs::File::open(&cand.path) {
        Ok(f) => f,
        Err(e) => return unreadable(cand, &e),
    };
    // Human `-l`, `-c` and `--count-matches` need neither the bytes nor the lines: one pass
    // over 64 KiB chunks, as ripgrep (`-l` stops at the first match).
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
    // -U reads whole files anyway: no probe then.
    if w.buf.len() == SMALL_FILE && !opts.multiline {
        let probe = if cand.explicit {
            &mut w.probe
        } else {
            &mut w.probe_binary
        };
        let mut sink = Probe::default();
        let reader = std::io::Cursor::new(&w.buf[..]).chain(&file);
        if let Err(e) = probe.search_reader(matcher, reader, &mut sink) {
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
        if let Err(e) = file.seek(std::io::SeekFrom::Start(SMALL_FILE as u64)) {
            return unreadable(cand, &e);
        }
    }
    if w.buf.len() < SMALL_FILE {
        // Read to its end already (`read_to_end` saw it).
        let buf = std::mem::take(&mut w.buf);
        let outcome = search_bytes(s, w, cand, &buf, true);
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
    }
    if let Err(e) = file.read_to_end(&mut large) {
        w.large = large;
        return unreadable(cand, &e);
    }
    drop(file);
    let outcome = search_bytes(s, w, cand, &large, false);
    if large.capacity() <= 64 << 20 {
        w.large = large;
    }
    outcome
}

/// `-l`/`-c`/`--count-matches` without checksums: counts from one chunked pass.
fn count_only(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
) -> FileOutcome {
    let (opts, matcher) = (s.opts, s.matcher);
    let searcher = if cand.explicit {
        &mut w.probe
    } else {
        &mut w.probe_binary
    };
    let (lines, matches, binary, bytes) = if opts.mode == Mode::FilesWithMatches {
        let mut sink = Probe::default();
        if let Err(e) = searcher.search_reader(matcher, file, &mut sink) {
            return unreadable(cand, &e);
        }
        let n = usize::from(sink.matched);
        (n, n, sink.binary, sink.bytes)
    } else {
        // `-c` counts lines: their matches need not be found.
        let want = if opts.mode == Mode::CountLines {
            Want::Lines
        } else {
            Want::All
        };
        let mut sink = Collect::new(matcher, false, want, Vec::new());
        if let Err(e) = searcher.search_reader(matcher, file, &mut sink) {
            return unreadable(cand, &e);
        }
        let f = sink.found;
        let matches = match want {
            Want::Lines => f.lines,
            _ => f.ranges.len(),
        };
        (f.lines, matches, f.binary_at.is_some(), sink.bytes)
    };
    if matches == 0 && binary {
        return FileOutcome::Skipped(SkipReason::Binary, None);
    }
    let result = (matches > 0).then(|| FileResult {
        file: SearchFile {
            file_path: cand.display.clone(),
            checksum: String::new(),
            match_count: matches,
            line_count: lines,
            lossy: false,
        },
        matches: Vec::new(),
        diagnostics: Vec::new(),
        cut: 0,
        rendered: None,
        checksum_pending: false,
    });
    FileOutcome::Searched {
        bytes,
        lossy: false,
        result,
    }
}

/// Searches a file's bytes and renders its matches. With `may_defer`, its checksum may be left
/// pending (see `finish`) if no other file's waits.
fn search_bytes(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    bytes: &[u8],
    may_defer: bool,
) -> FileOutcome {
    let (opts, matcher, want_checksum, render) = (s.opts, s.matcher, s.want_checksum, s.render);
    let nul = memchr::memchr(0, bytes);
    w.records.clear();
    let found = if nul.is_some() && !cand.explicit {
        // As ripgrep: stop at the NUL, keep what matched before it (buffer by buffer).
        let ranges = std::mem::take(&mut w.ranges);
        let found = find_matches(opts, matcher, &mut w.binary_searcher, bytes, true, ranges);
        if found.ranges.is_empty() {
            return FileOutcome::Skipped(SkipReason::Binary, None);
        }
        found
    } else if w.whole == WholeFile::Always
        || (w.whole == WholeFile::WithoutCr && memchr::memchr(b'\r', bytes).is_none())
    {
        let records = &mut w.records;
        find_in_bytes(opts, matcher, bytes, records, std::mem::take(&mut w.ranges))
    } else {
        let ranges = std::mem::take(&mut w.ranges);
        find_matches(opts, matcher, &mut w.searcher, bytes, false, ranges)
    };
    if opts.mode == Mode::Matches && !found.ranges.is_empty() {
        records(bytes, &found.ranges, &mut w.records);
    }
    let size = bytes.len() as u64;
    let lossy = nul.is_some() || (found.matches > 0 && std::str::from_utf8(bytes).is_err());
    let mut diagnostics = Vec::new();
    if let Some(at) = nul {
        let (code, message, fix) = if cand.explicit {
            (
                Code::BinarySearched,
                format!(
                    "{} is binary (NUL byte at offset {at}); searched because it was named",
                    cand.display
                ),
                "treat matched_text and line_text as lossy; rely on the byte offsets",
            )
        } else {
            (
                Code::BinaryStopped,
                format!(
                    "{} is binary (NUL byte at offset {}): searching stopped there, as ripgrep does; \
the matches before it are reported",
                    cand.display,
                    found.binary_at.unwrap_or(at as u64)
                ),
                "name the file on the command line to search all of it",
            )
        };
        diagnostics.push(tool_diag(
            Error::new(code, message, fix).with_file(&cand.display),
        ));
    }
    if found.matches == 0 {
        let result = (!diagnostics.is_empty()).then(|| FileResult {
            file: SearchFile {
                file_path: cand.display.clone(),
                checksum: String::new(),
                match_count: 0,
                line_count: 0,
                lossy,
            },
            matches: Vec::new(),
            diagnostics,
            cut: 0,
            rendered: None,
            checksum_pending: false,
        });
        return FileOutcome::Searched {
            bytes: size,
            lossy,
            result,
        };
    }
    if lossy && nul.is_none() {
        diagnostics.push(tool_diag(
            Error::new(
                Code::NotUtf8,
                format!("{} is not valid UTF-8; text fields are lossy", cand.display),
                "rely on byte offsets, or convert the file to UTF-8",
            )
            .with_file(&cand.display),
        ));
    }
    // Checksums are computed two files at a time (see `finish`): this file's with the
    // previous one's, or later.
    let mut checksum_pending = false;
    let checksum = match (want_checksum, w.pending.take()) {
        (false, _) => String::new(),
        (true, Some(previous)) => {
            let (of_previous, of_this) = checksum_pair(&previous, bytes);
            w.resolved.push_back(of_previous);
            w.recycle(previous);
            of_this
        }
        (true, None) if may_defer => {
            checksum_pending = true;
            String::new()
        }
        (true, None) => checksum(bytes),
    };
    let file = SearchFile {
        file_path: cand.display.clone(),
        checksum,
        match_count: found.matches,
        line_count: found.lines,
        lossy,
    };
    let mut result = FileResult {
        file,
        matches: Vec::new(),
        diagnostics,
        cut: 0,
        rendered: None,
        checksum_pending,
    };
    if opts.mode == Mode::Matches {
        if want_checksum {
            set_ids(&mut w.records, &cand.display);
        }
        let replacements: Vec<String> = match &opts.replace {
            Some(r) => w
                .records
                .iter()
                .map(|m| expand_replacement(opts, matcher, bytes, m, r))
                .collect(),
            None => Vec::new(),
        };
        let view = FileMatches {
            bytes,
            records: &w.records,
            utf8: !lossy,
            replacements: &replacements,
            before_context: opts.before_context,
            after_context: opts.after_context,
        };
        match render {
            Some(render) => result.rendered = Some(render.render(&result, &view)),
            None => {
                result.matches = view.to_matches(want_checksum.then_some(cand.display.as_str()));
            }
        }
    } else if let Some(render) = render {
        result.rendered = Some(render.render(&result, &FileMatches::none(bytes)));
    }
    w.ranges = found.ranges;
    FileOutcome::Searched {
        bytes: size,
        lossy,
        result: Some(result),
    }
}

fn tool_diag(e: Error) -> DiagnosticPayload {
    let mut d = e.diagnostic(Level::Warning);
    d.tool = "search".into();
    d
}
