//! `llm search`: regex/literal search over a tree with grep-regex + grep-searcher. Files are
//! searched in parallel; results reach the printer per file, in path order, as soon as they are
//! next in line.

use crate::envelope::{DiagnosticPayload, Status};
use crate::error::{Code, Error, Result};
use crate::span::Span;
use crate::walk::{self, Candidate, Skipped, WalkOptions};
pub use decode::EncodingChoice;
pub use input::InputOptions;
pub use matcher::{build_matcher, SearchMatcher};
use matcher::{whole_file_search, WholeFile};
use serde::Serialize;

mod bytes;
mod decode;
mod file;
mod find;
mod hits;
mod input;
mod matcher;
mod matches;
mod null_data;
mod passthru;
mod preprocess;
mod summary;
#[cfg(test)]
mod tests;
mod trace;

use file::{finish, search_file, FileOutcome, Shared, SkipReason, Worker};
pub use matches::{records, set_ids, FileMatches, LineHit, MatchRecord, RawTexts, Recorder};
pub use null_data::swap as swap_terminators;
use std::sync::Mutex;
pub use summary::FileList;

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
    /// `--files-without-match`: only the files searched that have no match.
    FilesWithoutMatch,
    /// `--files`: the files that would be searched, not searched.
    Files,
}

impl Mode {
    /// Modes that list files rather than matches.
    pub fn lists_files(self) -> bool {
        !matches!(self, Mode::Matches)
    }
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
    /// `-P`: PCRE2 syntax (look-around, backreferences) instead of Rust's regex.
    pub pcre2: bool,
    /// `--engine auto`: Rust's regex, and PCRE2 for patterns it cannot compile.
    pub engine_auto: bool,
    /// `--regex-size-limit`, `--dfa-size-limit`: Rust's regex's limits, in bytes.
    pub regex_size_limit: Option<usize>,
    pub dfa_size_limit: Option<usize>,
    /// `-v`: the lines that do not match are the matches (each spans its whole line).
    pub invert: bool,
    /// `-a`: no binary detection anywhere; the pattern may match NUL.
    pub text: bool,
    /// `--binary`: walked binary files are searched whole, as named ones.
    pub binary: bool,
    /// `--no-unicode`.
    pub no_unicode: bool,
    /// `--stop-on-nonmatch`.
    pub stop_on_nonmatch: bool,
    /// `-q`: stop at the first match; nothing is printed.
    pub quiet: bool,
    /// `--include-zero`: counting modes also list files without a match.
    pub include_zero: bool,
    pub before_context: usize,
    pub after_context: usize,
    pub max_count: Option<usize>,
    pub max_results: Option<usize>,
    pub mode: Mode,
    pub replace: Option<String>,
    pub threads: usize,
    /// Only the first match of each line is wanted (human output that prints each matching
    /// line once): the others are not looked for, and per-file `match_count`s count lines.
    /// Not a flag: the printer sets it.
    pub first_match_only: bool,
    /// `-r` with `-v`: the lines of `-v` hold no match to replace (`replace` is then None),
    /// but its context lines do, and human output replaces them there, as ripgrep.
    pub invert_replace: Option<String>,
    /// With `-v`, the matches in context lines are wanted (human output that replaces,
    /// highlights or prints them; see `LineHit`). Not a flag: the printer sets it.
    pub invert_context_hits: bool,
    /// `-E`, `--pre`, `--pre-glob`, `-z`: what text a file gives the search (see `input.rs`).
    pub input: InputOptions,
    /// `--passthru`: every line is context (see `passthru.rs`).
    pub passthru: bool,
    /// With `--passthru`, files without a match are printed too (human output, as rg).
    /// Not a flag: the printer sets it.
    pub passthru_unmatched: bool,
    /// `--null-data`: NUL ends each line (see `null_data.rs`); implies `text`.
    pub null_data: bool,
    /// With `--null-data`, human output's records are NUL-terminated (see `null_data.rs`).
    /// Not a flag: the printer sets it.
    pub null_data_records: bool,
    /// Human `--stats`: every match of every file is counted, as rg 13 does, under `-l`,
    /// `--files-without-match`, `-c` and `-q` too (none stops at a file's first match).
    /// Not a flag: the printer sets it.
    pub full_counts: bool,
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
    /// Matches and selected lines among context lines (see `FileMatches::line_hits`), human
    /// output only.
    #[serde(skip)]
    pub line_hits: Vec<LineHit>,
    /// Where `more_lines` and the context lines start in the file (human `-b`).
    #[serde(skip)]
    pub line_offsets: matches::LineOffsets,
    /// The texts as bytes, where they are not all UTF-8 (human output prints them as they
    /// are, as ripgrep; the fields above hold their lossy spelling).
    #[serde(skip)]
    pub raw: Option<Box<RawTexts>>,
}

/// A file that contributed to the result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SearchFile {
    pub file_path: String,
    /// `file_path` is the lossy spelling of a name that is not UTF-8 (see
    /// [`crate::span::path_is_lossy`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub file_path_lossy: bool,
    /// SHA-256 of the file's bytes as searched: pass it to `llm transform` as the expected checksum.
    pub checksum: String,
    /// Matches returned from this file (after `-m`).
    pub match_count: usize,
    /// Lines with at least one match (with -U: matches), what `-c` prints, as ripgrep.
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
    /// The result already rendered by the worker (see [`Render`]); `matches` is then empty.
    pub rendered: Option<Vec<u8>>,
    /// `file.checksum` is still to be computed, with another file's (see `file::finish`);
    /// never so once the result leaves its worker.
    pub checksum_pending: bool,
    /// Not the file's first chunk: its separator and heading were printed already.
    pub continued: bool,
    /// More chunks of this file follow; `file` is complete only in the last one.
    pub more: bool,
    /// The worker that rendered `rendered`, which gets its buffer back (see [`Renderer`]).
    pub(crate) render_slot: usize,
    /// The name's own bytes, where `file.file_path` spells it lossily (not UTF-8): human `-0`
    /// prints them, for `xargs -0`.
    pub raw_path: Option<Vec<u8>>,
    /// A binary file found by walking whose search stopped at a NUL byte (`SEARCH_E004`): the
    /// offset ripgrep reports. Human output says so after the file's matches, as rg does on
    /// stdout ("WARNING: stopped searching binary file after match").
    pub binary_stopped_at: Option<u64>,
}

impl FileResult {
    /// A result for `file`, with nothing else yet.
    pub fn new(file: SearchFile) -> Self {
        FileResult {
            file,
            matches: Vec::new(),
            diagnostics: Vec::new(),
            cut: 0,
            rendered: None,
            checksum_pending: false,
            continued: false,
            more: false,
            render_slot: 0,
            raw_path: None,
            binary_stopped_at: None,
        }
    }

    /// A result for `file`, the file `cand` (see [`FileResult::raw_path`]).
    pub(crate) fn of(cand: &Candidate, file: SearchFile) -> Self {
        let mut r = FileResult::new(file);
        if r.file.file_path_lossy {
            r.raw_path = Some(walk::display_bytes(&cand.path));
        }
        r
    }
}

/// Counters for the whole run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SearchStats {
    pub files_searched: u64,
    pub files_with_matches: u64,
    pub bytes_searched: u64,
    /// Files with matches that are not valid UTF-8 (their text fields are lossy).
    pub lossy_files: u64,
    pub skipped: Skipped,
}

/// Everything but the matches and files (which went to the printer as they came).
#[derive(Debug, Clone)]
pub struct SearchSummary {
    pub status: Status,
    pub match_count: usize,
    /// Every match (or file) there was; unknown when --max-results stopped the search.
    pub total_count: Option<usize>,
    /// Matching lines in the files reported (what `--stats` prints).
    pub matched_lines: usize,
    /// The matches in the lines selected (none under -v), what rg 13's `--stats` counts.
    pub stats_matches: usize,
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
    pub files: FileList,
    pub match_count: usize,
    /// Absent when --max-results stopped the search before the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_count: Option<usize>,
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
            ("pcre2", self.pcre2),
            ("engine_auto", self.engine_auto),
            ("invert_match", self.invert),
            ("text", self.text),
            ("binary", self.binary),
            ("no_unicode", self.no_unicode),
            ("stop_on_nonmatch", self.stop_on_nonmatch),
            ("passthru", self.passthru),
            ("null_data", self.null_data),
            ("include_zero", self.include_zero),
            ("hidden", self.walk.hidden),
            ("no_ignore", self.walk.no_ignore),
            ("no_ignore_vcs", self.walk.no_ignore_vcs),
            ("no_ignore_dot", self.walk.no_ignore_dot),
            ("no_ignore_parent", self.walk.no_ignore_parent),
            ("no_ignore_global", self.walk.no_ignore_global),
            ("no_ignore_exclude", self.walk.no_ignore_exclude),
            ("glob_case_insensitive", self.walk.glob_case_insensitive),
            ("one_file_system", self.walk.one_file_system),
            ("follow", self.walk.follow),
        ];
        for (k, v) in flags {
            if v {
                o.insert(k.into(), true.into());
            }
        }
        self.input.echo(o);
        let mut put = |k: &str, v: serde_json::Value| {
            if !v.is_null() {
                o.insert(k.into(), v);
            }
        };
        put("globs", non_empty(&self.walk.globs));
        put("iglobs", non_empty(&self.walk.iglobs));
        put("type_add", non_empty(&self.walk.type_add));
        put("type_clear", non_empty(&self.walk.type_clear));
        put("max_depth", self.walk.max_depth.into());
        if let Some((key, reverse)) = self.walk.sort {
            let name = format!("{key:?}").to_lowercase();
            put(if reverse { "sortr" } else { "sort" }, name.into());
        }
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
            Mode::FilesWithoutMatch => Some("files_without_match"),
            Mode::Files => Some("files"),
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

/// Renders one file's result to bytes inside a worker thread (so that formatting runs in
/// parallel), from the file's bytes and match records; the printer then only copies the bytes
/// out, in path order.
pub type Render<'a> = &'a (dyn Fn(&FileResult, &FileMatches<'_>, &mut Vec<u8>) + Sync);

/// A [`Render`] and the output buffers it renders into. The printer hands each buffer back
/// once written ([`Renderer::give`]) to the worker that rendered it, which reuses it for a later
/// file or frees it: so that the pages a buffer has touched serve file after file instead of
/// being allocated and faulted in again, and so that no buffer is freed by another thread than
/// the one that allocated it. (Freed by the printing thread, they left pages in the workers'
/// allocator heaps until each worker collected them: jsonl on the Rust corpus copied 16 times,
/// `-j12`, peak RSS 96 → 83 MB with mimalloc v3.)
pub(crate) struct Renderer<'a> {
    render: Render<'a>,
    /// Buffers written and given back, per worker ([`file::Worker`]'s `slot`).
    returned: Vec<Mutex<Vec<Vec<u8>>>>,
    /// What one worker keeps of its returned buffers, in bytes of capacity.
    kept_bytes: usize,
}

impl<'a> Renderer<'a> {
    /// At most this many idle buffers are kept per worker, `kept_bytes` in all (16 MiB shared
    /// out among the workers, at least 1 MiB each): buffers grow to the largest files' output,
    /// and a long run would otherwise end up keeping the largest ones (memory growing with the
    /// tree, not with the work in flight). A worker runs ahead of the printer by up to a
    /// window of files, each with its buffer: with 16 kept, most came back to a full list at
    /// `-j2` and were freed, and new ones faulted in fresh pages (`--format json self` on the
    /// Rust corpus: 7,900 → 5,000 page faults, 73 → 66 ms; jsonl on the 16× tree at `-j12`,
    /// peak RSS 60 → 63 MB).
    const KEPT: usize = 64;
    const KEPT_BYTES: usize = 16 << 20;

    /// A renderer for `workers` workers, numbered from 0.
    fn new(render: Render<'a>, workers: usize) -> Self {
        let workers = workers.max(1);
        Renderer {
            render,
            returned: (0..workers).map(|_| Mutex::new(Vec::new())).collect(),
            kept_bytes: (Self::KEPT_BYTES / workers).max(1 << 20),
        }
    }

    /// Renders one file on worker `slot` into a reused buffer: the smallest it kept that has
    /// room for about what the file's matches take as JSON (more than as text), else a new one
    /// of that size, so that rendering does not grow it (growing copies into fresh pages).
    /// The buffers it keeps beyond its share are freed here, on their own thread.
    fn render(&self, slot: usize, result: &FileResult, matches: &FileMatches<'_>) -> Vec<u8> {
        const PER_MATCH: usize = 320;
        let room: usize = matches
            .records
            .iter()
            .map(|r| PER_MATCH + result.file.file_path.len() + (r.line_end - r.line_start()))
            .sum::<usize>()
            + result.file.file_path.len()
            + 64;
        // Sizes rounded up to a power of two: buffers of a few sizes reuse the allocator's
        // pages; of every size, they left pages of each size class in each worker (jsonl on
        // the 16× tree, `-j12`: peak RSS 100 → 78 MB).
        let room = room.next_power_of_two().max(4096);
        let (found, excess) = {
            let mut kept = self.lock(slot);
            let fit = kept
                .iter()
                .enumerate()
                .filter(|(_, b)| b.capacity() >= room)
                .min_by_key(|(_, b)| b.capacity())
                .map(|(i, _)| i);
            let found = fit.map(|i| kept.swap_remove(i));
            // Over its share: the largest go first.
            let mut excess = Vec::new();
            let mut total: usize = kept.iter().map(Vec::capacity).sum();
            while kept.len() > Self::KEPT || total > self.kept_bytes {
                let Some((i, _)) = kept.iter().enumerate().max_by_key(|(_, b)| b.capacity()) else {
                    break;
                };
                let b = kept.swap_remove(i);
                total -= b.capacity();
                excess.push(b);
            }
            (found, excess)
        };
        drop(excess);
        let mut out = found.unwrap_or_else(|| Vec::with_capacity(room));
        out.reserve(room);
        (self.render)(result, matches, &mut out);
        out
    }

    /// Takes back a buffer whose bytes were written, for worker `slot` that rendered it.
    fn give(&self, slot: usize, mut buf: Vec<u8>) {
        buf.clear();
        self.lock(slot).push(buf);
    }

    fn lock(&self, slot: usize) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        let slot = slot % self.returned.len();
        self.returned[slot]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs the search, handing each file's result to `emit` in path order. `want_checksum` is
/// false when the output will not show checksums and ids (human format): files are then not
/// hashed, and matches get empty `match_id`, `span.span_id` and `span.file_path`. With
/// `render` (ignored under `--max-results`, whose cut happens in path order), each result
/// arrives with `rendered` set and no `matches`; `emit` writes the bytes and leaves them there
/// (the buffer is reused).
pub fn run(
    opts: &SearchOptions,
    want_checksum: bool,
    render: Option<Render<'_>>,
    emit: &mut dyn FnMut(&mut FileResult) -> std::io::Result<()>,
) -> Result<std::result::Result<SearchSummary, std::io::Error>> {
    let matcher = build_matcher(opts)?;
    if (opts.max_count == Some(0) || opts.patterns.is_empty()) && opts.mode != Mode::Files {
        // `-m0`, or no pattern at all (`-f` of an empty file), selects nothing, whatever else
        // is asked (`-v`, `--files-without-match`, `--include-zero`): as ripgrep, nothing is
        // searched (a missing path is not even looked at) and the run finds nothing.
        return Ok(Ok(SearchSummary {
            status: Status::NoMatches,
            match_count: 0,
            total_count: Some(0),
            matched_lines: 0,
            stats_matches: 0,
            stats: SearchStats::default(),
            diagnostics: Vec::new(),
        }));
    }
    let whole = whole_file_search(opts, &matcher);
    trace::plan(opts, &matcher, whole);
    let walker = walk::prepare(&opts.walk, "search")?.threads(match opts.mode {
        // `--files`, where the walk is the work, always splits it: on 2 cores, the 16× tree
        // took 342 ms so at `-j2` against 440 ms in one thread (the 1× tree 33 against 24).
        Mode::Files => opts.threads,
        _ => walk::walk_threads(opts.threads),
    });
    // One owner per worker, and the printing thread (which renders the files it streams).
    let workers = opts.threads.max(1);
    let renderer = render
        .filter(|_| opts.max_results.is_none())
        .map(|render| Renderer::new(render, workers + 1));
    let slots = std::sync::atomic::AtomicUsize::new(0);
    let render = renderer.as_ref();
    let mut stats = SearchStats::default();
    let mut file_diagnostics = Vec::new();
    let mut match_count = 0usize;
    let mut total_count = 0usize;
    let mut matched_lines = 0usize;
    let mut stats_matches = 0usize;
    let mut io_error = None;
    let mut any_match = false;
    let mut stopped_early = false;
    // The thread that prints searches the files whose matches are streamed.
    let mut streamer: Option<Worker> = None;

    let shared = Shared {
        opts,
        matchers: vec![matcher; workers + 1],
        want_checksum,
        render,
        pre: opts.input.preprocessors()?,
    };
    let tail = walk::for_each_ordered_batches(
        |push| walker.stream(push),
        opts.threads,
        || {
            let slot = slots.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % workers;
            Worker::new(opts, whole, slot)
        },
        |w, c: Candidate| trace::outcome(&c, search_file(&shared, w, &c)),
        finish,
        held_bytes,
        |outcome| {
            let outcome = match outcome {
                FileOutcome::Deferred(cand) => {
                    let w = streamer.get_or_insert_with(|| Worker::new(opts, whole, workers));
                    match file::stream_file(&shared, w, &cand, &mut *emit) {
                        Ok(outcome) => outcome,
                        Err(e) => {
                            io_error = Some(e);
                            return false;
                        }
                    }
                }
                other => other,
            };
            match outcome {
                FileOutcome::Deferred(_) => unreachable!("a streamed file is not deferred"),
                FileOutcome::Skipped(reason, diag) => {
                    match reason {
                        SkipReason::Binary => stats.skipped.binary += 1,
                        SkipReason::Unreadable => stats.skipped.unreadable += 1,
                        SkipReason::TooLarge => stats.skipped.too_large += 1,
                    }
                    file_diagnostics.extend(diag);
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
                    file_diagnostics.append(&mut result.diagnostics);
                    let matched = result.file.match_count > 0;
                    if matched {
                        stats.files_with_matches += 1;
                        matched_lines += result.file.line_count;
                        if !opts.invert {
                            stats_matches += result.file.match_count;
                        }
                    }
                    let listed = match opts.mode {
                        Mode::Files => true,
                        Mode::FilesWithoutMatch => !matched,
                        Mode::CountLines | Mode::CountMatches => matched || opts.include_zero,
                        Mode::Matches => matched || opts.passthru_unmatched,
                        Mode::FilesWithMatches => matched,
                    };
                    if !listed {
                        return true;
                    }
                    // What the status and counts are about: matches, or the files listed.
                    let counts = match opts.mode {
                        Mode::Files | Mode::FilesWithoutMatch => true,
                        _ => matched,
                    };
                    any_match |= counts;
                    if opts.quiet && counts {
                        return false;
                    }
                    let found = match opts.mode {
                        Mode::Matches | Mode::CountMatches => result.file.match_count,
                        _ => usize::from(counts),
                    };
                    total_count += found;
                    if let Some(max) = opts.max_results {
                        let room = max.saturating_sub(match_count);
                        if room == 0 && found > 0 {
                            // More than --max-results: the search stops here.
                            stopped_early = true;
                            return false;
                        }
                        if opts.mode == Mode::Matches && result.matches.len() > room {
                            result.cut = result.matches.len() - room;
                            result.matches.truncate(room);
                            result.file.match_count = room;
                            stopped_early = true;
                        }
                    }
                    match_count += match opts.mode {
                        Mode::Matches => result.file.match_count,
                        _ => usize::from(counts),
                    };
                    if let Err(e) = emit(&mut result) {
                        io_error = Some(e);
                        return false;
                    }
                    if let (Some(r), Some(buf)) = (render, result.rendered.take()) {
                        r.give(result.render_slot, buf);
                    }
                    if stopped_early {
                        return false;
                    }
                }
            }
            true
        },
    );
    if let Some(e) = io_error {
        return Ok(Err(e));
    }
    let mut diagnostics = file_diagnostics;
    tail.merge_into(&mut stats.skipped, &mut diagnostics);
    // Files skipped for their size count as filtered out (ripgrep skips them as it walks).
    let filtered_only = Skipped {
        too_large: 0,
        ..stats.skipped.clone()
    } == Skipped::default();
    if stats.files_searched == 0
        && filtered_only
        && !diagnostics
            .iter()
            .any(|d| d.level == crate::envelope::Level::Error)
        && opts.mode != Mode::Files
    {
        // As in ripgrep: a failure when the paths were the default (the current directory),
        // a warning beside "nothing found" (exit 1) when they were named.
        let too_large = stats.skipped.too_large;
        if opts.walk.paths.is_empty() {
            return Err(no_files_searched(opts, too_large));
        }
        diagnostics
            .push(no_files_searched(opts, too_large).diagnostic(crate::envelope::Level::Warning));
    }
    let status = if stopped_early || total_count > match_count {
        Status::Partial
    } else if any_match {
        Status::Ok
    } else {
        Status::NoMatches
    };
    Ok(Ok(SearchSummary {
        status,
        match_count,
        total_count: (!stopped_early).then_some(total_count),
        matched_lines,
        stats_matches,
        stats,
        diagnostics,
    }))
}

/// Roughly what a file's result holds in memory while it waits for its turn: its rendered
/// output, or its match records.
fn held_bytes(outcome: &FileOutcome) -> usize {
    const RECORD: usize = 512;
    match outcome {
        FileOutcome::Searched {
            result: Some(r), ..
        } => 256 + r.rendered.as_ref().map_or(0, Vec::capacity) + r.matches.len() * RECORD,
        _ => 64,
    }
}

/// The filters in force that remove files from a walk, as flags to lift them.
fn filters(opts: &SearchOptions) -> Vec<String> {
    let w = &opts.walk;
    let mut out = Vec::new();
    if !w.hidden {
        out.push("hidden files and directories are skipped (--hidden or -uu searches them)".into());
    }
    if !w.no_ignore {
        out.push(
            ".gitignore, .ignore and .rgignore rules apply (--no-ignore or -u lifts them)".into(),
        );
    }
    for g in w.globs.iter().chain(&w.iglobs) {
        out.push(format!("--glob {g}"));
    }
    for t in &w.types {
        out.push(format!("--type {t}"));
    }
    for t in &w.types_not {
        out.push(format!("--type-not {t}"));
    }
    if let Some(d) = w.max_depth {
        out.push(format!("--max-depth {d}"));
    }
    if let Some(m) = w.max_filesize {
        out.push(format!("--max-filesize {m}"));
    }
    if !w.follow {
        out.push("symbolic links are not followed (-L follows them)".into());
    }
    out
}

/// Every path was walked and no file was left to search (ripgrep: "No files were searched,
/// which means ripgrep probably applied a filter you didn't expect"); `too_large` files were
/// left out by `--max-filesize`.
fn no_files_searched(opts: &SearchOptions, too_large: u64) -> Error {
    let f = filters(opts);
    let message = match (too_large, opts.walk.max_filesize) {
        (0, _) | (_, None) => {
            "no files were searched: the paths hold no file that the filters let through"
                .to_string()
        }
        (n, Some(max)) => format!(
            "no files were searched: the paths hold no file that the filters let through \
({n} {} larger than --max-filesize {max})",
            if n == 1 { "file" } else { "files" }
        ),
    };
    Error::new(
        Code::NoFilesSearched,
        message,
        if f.is_empty() {
            "check the paths: they hold no regular file".to_string()
        } else {
            format!("the filters in force: {}", f.join("; "))
        },
    )
}
