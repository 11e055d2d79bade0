//! `llm search`: regex/literal search over a tree with grep-regex + grep-searcher. Files are
//! searched in parallel; results reach the printer per file, in path order, as soon as they are
//! next in line.

use crate::envelope::{new_id, DiagnosticPayload, Level, Status};
use crate::error::{Code, Error, Result};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::{self, Candidate, Skipped, WalkOptions};
use grep_matcher::{Captures, Matcher};
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{Searcher, SearcherBuilder, Sink, SinkMatch};
use serde::Serialize;

/// What to print per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every match with its span (default).
    Matches,
    /// `-l`: only the files with a match.
    FilesWithMatches,
    /// `-c`: number of matching lines per file.
    CountLines,
    /// `--count-matches`: number of matches per file.
    CountMatches,
}

/// Everything a search needs, free of clap.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub patterns: Vec<String>,
    pub walk: WalkOptions,
    pub fixed_strings: bool,
    pub ignore_case: bool,
    pub smart_case: bool,
    pub word: bool,
    pub line: bool,
    pub multiline: bool,
    pub multiline_dotall: bool,
    pub before_context: usize,
    pub after_context: usize,
    pub max_count: Option<usize>,
    pub max_results: Option<usize>,
    pub mode: Mode,
    pub replace: Option<String>,
    pub threads: usize,
}

/// One match.
#[derive(Debug, Clone, Serialize)]
pub struct SearchMatch {
    pub match_id: String,
    pub span: Span,
    /// The bytes `[byte_start, byte_end)` (lossy if the file is not UTF-8).
    pub matched_text: String,
    /// The whole first line of the match, without its line ending.
    pub line_text: String,
    /// Up to `-B` lines before the match's first line.
    pub context_before: Vec<String>,
    /// Up to `-A` lines after the match's last line.
    pub context_after: Vec<String>,
    /// The `-r` replacement with captures expanded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// Texts of the match's further lines (multiline matches), for human output only.
    #[serde(skip)]
    pub more_lines: Vec<String>,
}

/// A file that contributed to the result.
#[derive(Debug, Clone, Serialize)]
pub struct SearchFile {
    pub file_path: String,
    /// SHA-256 of the file's bytes as searched: pass it to `llm transform` as the expected checksum.
    pub checksum: String,
    /// Matches returned from this file (after `-m`).
    pub match_count: usize,
    /// Lines with at least one match (what `-c` prints).
    pub line_count: usize,
    /// The file is not valid UTF-8; text fields are lossy.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lossy: bool,
}

/// The result for one file, handed to the printer in path order.
#[derive(Debug)]
pub struct FileResult {
    pub file: SearchFile,
    pub matches: Vec<SearchMatch>,
    /// Per-file warnings (lossy text, binary file searched).
    pub diagnostics: Vec<DiagnosticPayload>,
    /// Matches in this file that were not returned because `--max-results` was reached.
    pub cut: usize,
}

/// Counters for the whole run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SearchStats {
    pub files_searched: u64,
    pub files_with_matches: u64,
    pub bytes_searched: u64,
    /// Files searched although not valid UTF-8 (their text fields are lossy).
    pub lossy_files: u64,
    pub skipped: Skipped,
}

/// Everything but the matches and files (which went to the printer as they came).
#[derive(Debug, Clone)]
pub struct SearchSummary {
    pub status: Status,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: SearchStats,
    pub diagnostics: Vec<DiagnosticPayload>,
}

/// The JSON `data` of a search.
#[derive(Debug, Serialize)]
pub struct SearchData {
    pub pattern: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patterns: Option<Vec<String>>,
    pub matches: Vec<SearchMatch>,
    pub files: Vec<SearchFile>,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: SearchStats,
}

impl SearchOptions {
    /// The request as echoed in the envelope's `query`.
    pub fn query_echo(&self) -> serde_json::Value {
        let mut q = serde_json::json!({
            "pattern": self.patterns.first().cloned().unwrap_or_default(),
            "paths": self.walk.paths.iter().map(|p| walk::display_path(p)).collect::<Vec<_>>(),
        });
        let o = q.as_object_mut().unwrap();
        if self.patterns.len() > 1 {
            o.insert("patterns".into(), self.patterns.clone().into());
        }
        let flags = [
            ("fixed_strings", self.fixed_strings),
            ("ignore_case", self.ignore_case),
            ("smart_case", self.smart_case),
            ("word", self.word),
            ("line", self.line),
            ("multiline", self.multiline),
            ("multiline_dotall", self.multiline_dotall),
            ("hidden", self.walk.hidden),
            ("no_ignore", self.walk.no_ignore),
            ("follow", self.walk.follow),
        ];
        for (k, v) in flags {
            if v {
                o.insert(k.into(), true.into());
            }
        }
        let mut put = |k: &str, v: serde_json::Value| {
            if !v.is_null() {
                o.insert(k.into(), v);
            }
        };
        put("globs", non_empty(&self.walk.globs));
        put("types", non_empty(&self.walk.types));
        put("types_not", non_empty(&self.walk.types_not));
        put("before_context", nonzero(self.before_context));
        put("after_context", nonzero(self.after_context));
        put("max_count", self.max_count.into());
        put("max_results", self.max_results.into());
        put("max_filesize", self.walk.max_filesize.into());
        put("replace", self.replace.clone().into());
        let mode = match self.mode {
            Mode::Matches => None,
            Mode::FilesWithMatches => Some("files_with_matches"),
            Mode::CountLines => Some("count"),
            Mode::CountMatches => Some("count_matches"),
        };
        put("mode", mode.into());
        q
    }
}

fn non_empty(v: &[String]) -> serde_json::Value {
    if v.is_empty() {
        serde_json::Value::Null
    } else {
        v.into()
    }
}

fn nonzero(n: usize) -> serde_json::Value {
    if n == 0 {
        serde_json::Value::Null
    } else {
        n.into()
    }
}

/// Builds the matcher, reporting a bad pattern with its position.
pub fn build_matcher(opts: &SearchOptions) -> Result<RegexMatcher> {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(opts.ignore_case)
        .case_smart(opts.smart_case && !opts.ignore_case)
        .word(opts.word)
        .whole_line(opts.line)
        .fixed_strings(opts.fixed_strings)
        .crlf(true)
        .multi_line(true);
    if opts.multiline {
        b.dot_matches_new_line(opts.multiline_dotall);
    } else {
        b.line_terminator(Some(b'\n'));
    }
    let built = if opts.patterns.len() == 1 {
        b.build(&opts.patterns[0])
    } else {
        b.build_many(&opts.patterns)
    };
    built.map_err(|e| regex_error(opts, &e))
}

fn regex_error(opts: &SearchOptions, e: &grep_regex::Error) -> Error {
    let mut err = Error::new(
        Code::InvalidRegex,
        format!(
            "invalid regex: {}",
            first_line(&e.to_string()).trim_start_matches("error: ")
        ),
        "fix the pattern (Rust regex syntax), or pass -F to search for it literally",
    );
    // Locate the problem with the regex parser itself for the position.
    for p in &opts.patterns {
        if opts.fixed_strings {
            break;
        }
        if let Err(pe) = regex_syntax::ast::parse::Parser::new().parse(p) {
            let s = pe.span();
            err = err.with_note(format!(
                "in pattern `{p}` at byte {} (column {}): {}",
                s.start.offset,
                s.start.column,
                pe.kind()
            ));
            break;
        }
    }
    if err.note.is_none() {
        err = err.with_note(e.to_string());
    }
    err
}

fn first_line(s: &str) -> &str {
    s.lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| s.lines().next().unwrap_or(s))
}

/// Runs the search, handing each file's result to `emit` in path order. `want_checksum` is
/// false when the output will not show checksums (human format), to save hashing.
pub fn run(
    opts: &SearchOptions,
    want_checksum: bool,
    emit: &mut dyn FnMut(FileResult) -> std::io::Result<()>,
) -> Result<std::result::Result<SearchSummary, std::io::Error>> {
    let matcher = build_matcher(opts)?;
    let walked = walk::walk(&opts.walk, "search")?;
    let mut stats = SearchStats {
        skipped: walked.skipped.clone(),
        ..Default::default()
    };
    let mut diagnostics = walked.diagnostics;
    let mut match_count = 0usize;
    let mut total_count = 0usize;
    let mut io_error = None;
    let mut any_match = false;

    let worker = |c: &Candidate| search_file(opts, &matcher, c, want_checksum);
    walk::for_each_ordered(&walked.files, opts.threads, worker, |outcome| {
        match outcome {
            FileOutcome::Skipped(reason, diag) => {
                match reason {
                    SkipReason::Binary => stats.skipped.binary += 1,
                    SkipReason::Unreadable => stats.skipped.unreadable += 1,
                }
                diagnostics.extend(diag);
            }
            FileOutcome::Searched {
                bytes,
                lossy,
                result,
            } => {
                stats.files_searched += 1;
                stats.bytes_searched += bytes;
                if lossy {
                    stats.lossy_files += 1;
                }
                let Some(mut result) = result else {
                    return true;
                };
                diagnostics.append(&mut result.diagnostics);
                stats.files_with_matches += 1;
                any_match = true;
                let found = match opts.mode {
                    Mode::Matches | Mode::CountMatches => result.file.match_count,
                    _ => 1,
                };
                total_count += found;
                if let Some(max) = opts.max_results {
                    let room = max.saturating_sub(match_count);
                    if room == 0 {
                        return true;
                    }
                    if opts.mode == Mode::Matches && result.matches.len() > room {
                        result.cut = result.matches.len() - room;
                        result.matches.truncate(room);
                        result.file.match_count = room;
                    }
                }
                match_count += match opts.mode {
                    Mode::Matches => result.matches.len(),
                    _ => 1,
                };
                if let Err(e) = emit(result) {
                    io_error = Some(e);
                    return false;
                }
            }
        }
        true
    });
    if let Some(e) = io_error {
        return Ok(Err(e));
    }
    let status = if total_count > match_count {
        Status::Partial
    } else if any_match {
        Status::Ok
    } else {
        Status::NoMatches
    };
    Ok(Ok(SearchSummary {
        status,
        match_count,
        total_count,
        stats,
        diagnostics,
    }))
}

enum SkipReason {
    Binary,
    Unreadable,
}

enum FileOutcome {
    Skipped(SkipReason, Option<DiagnosticPayload>),
    Searched {
        bytes: u64,
        lossy: bool,
        result: Option<FileResult>,
    },
}

fn search_file(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    cand: &Candidate,
    want_checksum: bool,
) -> FileOutcome {
    let bytes = match crate::fsio::read(&cand.path, &cand.display) {
        Ok(b) => b,
        Err(e) => {
            let level = if cand.explicit {
                Level::Error
            } else {
                Level::Warning
            };
            let mut d = e.diagnostic(level);
            d.tool = "search".into();
            return FileOutcome::Skipped(SkipReason::Unreadable, Some(d));
        }
    };
    let binary = memchr::memchr(0, &bytes).is_some();
    if binary && !cand.explicit {
        return FileOutcome::Skipped(SkipReason::Binary, None);
    }
    let lossy = binary || std::str::from_utf8(&bytes).is_err();
    let found = find_matches(opts, matcher, &bytes);
    let size = bytes.len() as u64;
    if found.ranges.is_empty() {
        return FileOutcome::Searched {
            bytes: size,
            lossy,
            result: None,
        };
    }
    let mut diagnostics = Vec::new();
    if binary {
        diagnostics.push(tool_diag(
            Error::new(
                Code::BinarySearched,
                format!(
                    "{} is binary (contains NUL bytes); searched because it was named",
                    cand.display
                ),
                "treat matched_text and line_text as lossy; use byte offsets",
            )
            .with_file(&cand.display),
        ));
    } else if lossy {
        diagnostics.push(tool_diag(
            Error::new(
                Code::NotUtf8,
                format!("{} is not valid UTF-8; text fields are lossy", cand.display),
                "rely on byte offsets, or convert the file to UTF-8",
            )
            .with_file(&cand.display),
        ));
    }
    let index = LineIndex::new(&bytes);
    let matches = if opts.mode == Mode::Matches {
        found
            .ranges
            .iter()
            .map(|r| make_match(opts, matcher, &bytes, &index, &cand.display, r.clone()))
            .collect()
    } else {
        Vec::new()
    };
    let file = SearchFile {
        file_path: cand.display.clone(),
        checksum: if want_checksum {
            checksum(&bytes)
        } else {
            String::new()
        },
        match_count: found.ranges.len(),
        line_count: found.lines,
        lossy,
    };
    FileOutcome::Searched {
        bytes: size,
        lossy,
        result: Some(FileResult {
            file,
            matches,
            diagnostics,
            cut: 0,
        }),
    }
}

fn tool_diag(e: Error) -> DiagnosticPayload {
    let mut d = e.diagnostic(Level::Warning);
    d.tool = "search".into();
    d
}

struct Found {
    ranges: Vec<std::ops::Range<usize>>,
    lines: usize,
}

/// Collects match ranges per matched line (or line group with -U), honouring `-m`.
struct Collect<'a> {
    matcher: &'a RegexMatcher,
    found: Found,
    max_lines: Option<usize>,
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        _s: &Searcher,
        mat: &SinkMatch<'_>,
    ) -> std::result::Result<bool, Self::Error> {
        let base = mat.absolute_byte_offset() as usize;
        let mut hay = mat.bytes();
        if let Some(h) = hay.strip_suffix(b"\n") {
            hay = h;
        }
        let before = self.found.ranges.len();
        let _ = self.matcher.find_iter(hay, |m| {
            self.found.ranges.push(base + m.start()..base + m.end());
            true
        });
        if self.found.ranges.len() > before {
            self.found.lines += memchr::memchr_iter(b'\n', hay).count() + 1;
        }
        Ok(self.max_lines.is_none_or(|max| self.found.lines < max))
    }
}

fn find_matches(opts: &SearchOptions, matcher: &RegexMatcher, bytes: &[u8]) -> Found {
    if opts.max_count == Some(0) {
        return Found {
            ranges: Vec::new(),
            lines: 0,
        };
    }
    let mut searcher = SearcherBuilder::new()
        .line_number(false)
        .multi_line(opts.multiline)
        .binary_detection(grep_searcher::BinaryDetection::none())
        .build();
    let mut sink = Collect {
        matcher,
        found: Found {
            ranges: Vec::new(),
            lines: 0,
        },
        max_lines: opts.max_count,
    };
    // An error here can only come from the sink, which never fails.
    let _ = searcher.search_slice(matcher, bytes, &mut sink);
    sink.found
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn make_match(
    opts: &SearchOptions,
    matcher: &RegexMatcher,
    bytes: &[u8],
    index: &LineIndex,
    display: &str,
    range: std::ops::Range<usize>,
) -> SearchMatch {
    let span = index.span(display, range.clone());
    let last_line = if span.end_col == 0 && span.end_line > span.start_line {
        span.end_line - 1
    } else {
        span.end_line
    };
    let line_text = lossy(index.line_text(bytes, span.start_line));
    let context_before = (span.start_line.saturating_sub(opts.before_context).max(1)
        ..span.start_line)
        .map(|l| lossy(index.line_text(bytes, l)))
        .collect();
    let last_real = index.line_count();
    let context_after = (last_line + 1..=(last_line + opts.after_context).min(last_real))
        .map(|l| lossy(index.line_text(bytes, l)))
        .collect();
    let more_lines = (span.start_line + 1..=last_line)
        .map(|l| lossy(index.line_text(bytes, l)))
        .collect();
    let replacement = opts
        .replace
        .as_ref()
        .map(|r| expand_replacement(matcher, bytes, index, &range, r));
    SearchMatch {
        match_id: new_id(),
        matched_text: lossy(&bytes[range]),
        span,
        line_text,
        context_before,
        context_after,
        replacement,
        more_lines,
    }
}

/// Expands `$1`, `${name}`, `$$` for one match, re-running the regex on the match's lines so
/// that anchors and word boundaries see the same context as the search did.
fn expand_replacement(
    matcher: &RegexMatcher,
    bytes: &[u8],
    index: &LineIndex,
    range: &std::ops::Range<usize>,
    replacement: &str,
) -> String {
    let line_start = index
        .line_range(index.position(range.start).0)
        .map(|r| r.start)
        .unwrap_or(0);
    let line_end = index
        .line_range(index.position(range.end).0)
        .map(|r| r.end)
        .unwrap_or(bytes.len())
        .max(range.end);
    let hay = &bytes[line_start..line_end];
    let mut caps = match matcher.new_captures() {
        Ok(c) => c,
        Err(_) => return replacement.to_string(),
    };
    let at = range.start - line_start;
    let mut dst = Vec::new();
    match matcher.captures_at(hay, at, &mut caps) {
        Ok(true) if caps.get(0).is_some_and(|m| m.start() == at) => {
            caps.interpolate(
                |name| matcher.capture_index(name),
                hay,
                replacement.as_bytes(),
                &mut dst,
            );
            lossy(&dst)
        }
        _ => replacement.to_string(),
    }
}
