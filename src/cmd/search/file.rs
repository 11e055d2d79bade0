//! `llm search`, per file: the worker that reads one file, probes it in 64 KiB chunks, and for
//! a file that matches, reads it whole, finds the match ranges and turns them into records
//! (`matches.rs`) that the printers render inside the worker.

use super::matches::{records, FileMatches, MatchRecord};
use super::{FileResult, Mode, Render, SearchFile, SearchOptions};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{checksum, SpanIds};
use crate::walk::Candidate;
use grep_matcher::{Captures, Matcher};
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};

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
    searcher: Searcher,
    /// Full search of a walked file that contains a NUL byte: stops there, as ripgrep does.
    binary_searcher: Searcher,
    /// First pass over a file read in 64 KiB chunks: is there any match? (`quit` on NUL for
    /// walked files, as ripgrep.) Most files have none, and their bytes then only ever pass
    /// through one small, cache-hot buffer.
    probe: Searcher,
    probe_binary: Searcher,
    /// The whole file, for the files that match.
    buf: Vec<u8>,
    /// The last file's match ranges and records, their storage reused.
    ranges: Vec<std::ops::Range<usize>>,
    records: Vec<MatchRecord>,
}

impl Worker {
    pub(super) fn new(opts: &SearchOptions) -> Self {
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
            ranges: Vec::new(),
            records: Vec::new(),
        }
    }
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

/// First-pass sink: stops at the first matching line.
#[derive(Default)]
struct Probe {
    matched: bool,
    binary: bool,
    bytes: u64,
}

impl Sink for Probe {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        _s: &Searcher,
        _m: &SinkMatch<'_>,
    ) -> std::result::Result<bool, Self::Error> {
        self.matched = true;
        Ok(false)
    }

    fn binary_data(&mut self, _s: &Searcher, _at: u64) -> std::result::Result<bool, Self::Error> {
        self.binary = true;
        Ok(false)
    }

    fn finish(
        &mut self,
        _s: &Searcher,
        finish: &grep_searcher::SinkFinish,
    ) -> std::result::Result<(), Self::Error> {
        self.bytes = finish.byte_count();
        Ok(())
    }
}

pub(super) fn search_file(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    w: &mut Worker,
    cand: &Candidate,
    want_checksum: bool,
    render: Option<Render<'_>>,
) -> FileOutcome {
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
        return count_only(opts, matcher, w, cand, &file);
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
    if let Err(e) = (&mut file).take(u64::MAX).read_to_end(&mut w.buf) {
        return unreadable(cand, &e);
    }
    drop(file);
    let outcome = search_bytes(opts, matcher, w, cand, want_checksum, render);
    if w.buf.capacity() > 64 << 20 {
        w.buf = Vec::with_capacity(256 * 1024);
    }
    outcome
}

/// `-l`/`-c`/`--count-matches` without checksums: counts from one chunked pass.
fn count_only(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    w: &mut Worker,
    cand: &Candidate,
    file: &std::fs::File,
) -> FileOutcome {
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
        let mut sink = Collect {
            matcher,
            multi_line: false,
            found: Found::default(),
            bytes: 0,
        };
        if let Err(e) = searcher.search_reader(matcher, file, &mut sink) {
            return unreadable(cand, &e);
        }
        let f = sink.found;
        (f.lines, f.ranges.len(), f.binary_at.is_some(), sink.bytes)
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
    });
    FileOutcome::Searched {
        bytes,
        lossy: false,
        result,
    }
}

fn search_bytes(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    w: &mut Worker,
    cand: &Candidate,
    want_checksum: bool,
    render: Option<Render<'_>>,
) -> FileOutcome {
    let bytes = &w.buf[..];
    let nul = memchr::memchr(0, bytes);
    let found = if nul.is_some() && !cand.explicit {
        // As ripgrep: stop at the NUL, keep what matched before it (buffer by buffer).
        let ranges = std::mem::take(&mut w.ranges);
        let found = find_matches(opts, matcher, &mut w.binary_searcher, bytes, true, ranges);
        if found.ranges.is_empty() {
            return FileOutcome::Skipped(SkipReason::Binary, None);
        }
        found
    } else {
        let ranges = std::mem::take(&mut w.ranges);
        find_matches(opts, matcher, &mut w.searcher, bytes, false, ranges)
    };
    let size = bytes.len() as u64;
    let lossy = nul.is_some() || (!found.ranges.is_empty() && std::str::from_utf8(bytes).is_err());
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
    if found.ranges.is_empty() {
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
    let file = SearchFile {
        file_path: cand.display.clone(),
        checksum: if want_checksum {
            checksum(bytes)
        } else {
            String::new()
        },
        match_count: found.ranges.len(),
        line_count: found.lines,
        lossy,
    };
    let mut result = FileResult {
        file,
        matches: Vec::new(),
        diagnostics,
        cut: 0,
        rendered: None,
    };
    if opts.mode == Mode::Matches {
        w.records.clear();
        if want_checksum {
            let ids = SpanIds::new(&cand.display);
            let id =
                |r: &std::ops::Range<usize>| (ids.digest(r.start, r.end), uuid::Uuid::new_v4());
            records(bytes, &found.ranges, id, &mut w.records);
        } else {
            let none = |_: &std::ops::Range<usize>| ([0; 8], uuid::Uuid::nil());
            records(bytes, &found.ranges, none, &mut w.records);
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
            Some(render) => {
                let mut out = Vec::new();
                render(&result, &view, &mut out);
                result.rendered = Some(out);
            }
            None => {
                result.matches = view.to_matches(want_checksum.then_some(cand.display.as_str()));
            }
        }
    } else if let Some(render) = render {
        let mut out = Vec::new();
        render(&result, &FileMatches::none(bytes), &mut out);
        result.rendered = Some(out);
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

/// Match ranges of one file.
#[derive(Default)]
struct Found {
    ranges: Vec<std::ops::Range<usize>>,
    /// Matching lines (matches with -U): what `-c` counts.
    lines: usize,
    /// Where the searcher met a NUL byte and stopped.
    binary_at: Option<u64>,
}

/// Look-ahead allowed past a multiline match's lines when finding its matches again (as
/// ripgrep's printer).
const MAX_LOOK_AHEAD: usize = 128;

/// Collects match ranges per matched line (or line group with -U), finding the matches inside
/// the lines the searcher reports exactly as ripgrep's printer does.
struct Collect<'a> {
    matcher: &'a RegexMatcher,
    multi_line: bool,
    found: Found,
    /// Bytes the searcher went through.
    bytes: u64,
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        _s: &Searcher,
        mat: &SinkMatch<'_>,
    ) -> std::result::Result<bool, Self::Error> {
        let buf = mat.buffer();
        let range = mat.bytes_range_in_buffer();
        let base = mat.absolute_byte_offset() as usize - range.start;
        let hay = if self.multi_line {
            &buf[..buf.len().min(range.end + MAX_LOOK_AHEAD)]
        } else {
            let end = if buf[..range.end].ends_with(b"\n") {
                range.end - 1
            } else {
                range.end
            };
            &buf[..end]
        };
        let before = self.found.ranges.len();
        let ranges = &mut self.found.ranges;
        let _ = self.matcher.find_iter_at(hay, range.start, |m| {
            if m.start() >= range.end {
                return false;
            }
            ranges.push(base + m.start()..base + m.end());
            true
        });
        // What `-c` counts, as ripgrep: matching lines, or matches with -U (a line group can
        // hold several); a reported line always counts.
        let n = self.found.ranges.len() - before;
        self.found.lines += if self.multi_line { n.max(1) } else { 1 };
        Ok(true)
    }

    fn binary_data(
        &mut self,
        _s: &Searcher,
        binary_byte_offset: u64,
    ) -> std::result::Result<bool, Self::Error> {
        self.found.binary_at = Some(binary_byte_offset);
        Ok(false)
    }

    fn finish(
        &mut self,
        _s: &Searcher,
        finish: &grep_searcher::SinkFinish,
    ) -> std::result::Result<(), Self::Error> {
        self.bytes = finish.byte_count();
        Ok(())
    }
}

fn find_matches(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    searcher: &mut Searcher,
    bytes: &[u8],
    as_reader: bool,
    mut ranges: Vec<std::ops::Range<usize>>,
) -> Found {
    ranges.clear();
    let mut sink = Collect {
        matcher,
        multi_line: opts.multiline,
        found: Found {
            ranges,
            ..Found::default()
        },
        bytes: 0,
    };
    // An error here can only come from the sink, which never fails.
    let _ = if as_reader {
        searcher.search_reader(matcher, bytes, &mut sink)
    } else {
        searcher.search_slice(matcher, bytes, &mut sink)
    };
    sink.found
}

/// Expands `$1`, `${name}`, `$$` for one match, re-running the regex at the match's start
/// with the same haystack bounds as the search (the line without its terminator, or the
/// lines plus look-ahead with -U), so that anchors and word boundaries see the same context.
fn expand_replacement(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    bytes: &[u8],
    m: &MatchRecord,
    replacement: &str,
) -> String {
    let range = m.byte_start..m.byte_end;
    let end = if opts.multiline {
        bytes.len().min(range.end + MAX_LOOK_AHEAD)
    } else {
        m.line_end.max(range.end)
    };
    let hay = &bytes[..end];
    let mut caps = match matcher.new_captures() {
        Ok(c) => c,
        Err(_) => return replacement.to_string(),
    };
    let mut dst = Vec::new();
    match matcher.captures_at(hay, range.start, &mut caps) {
        Ok(true) if caps.get(0).is_some_and(|m| m.start() == range.start) => {
            caps.interpolate(
                |name| matcher.capture_index(name),
                hay,
                replacement.as_bytes(),
                &mut dst,
            );
            String::from_utf8_lossy(&dst).into_owned()
        }
        _ => replacement.to_string(),
    }
}
