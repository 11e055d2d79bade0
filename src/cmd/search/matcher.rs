//! The search's matcher: Rust's regex engine (grep-regex, the default) or PCRE2 (`-P`,
//! grep-pcre2: look-around and backreferences), behind one `grep_matcher::Matcher`. Every
//! method the engines specialise is forwarded, so the default engine keeps its fast paths
//! (candidate lines, the line terminator, its own iterator); the searcher itself runs over the
//! engine's own matcher (see [`SearchMatcher::search_reader`]). Built here from the options
//! ([`build_matcher`]: a bad pattern reported with its position and how to fix it), with
//! whether a file may be searched in one pass over its bytes ([`whole_file_search`]).

use super::SearchOptions;
use crate::error::{Code, Error, Result};
use grep_matcher::{ByteSet, Captures, LineMatchKind, LineTerminator, Match, Matcher};
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{Searcher, Sink};
use std::fmt;

/// A compiled pattern of either engine.
#[derive(Debug, Clone)]
pub enum SearchMatcher {
    Rust(grep_regex::RegexMatcher),
    Pcre2(grep_pcre2::RegexMatcher),
}

/// Capture groups of the engine that made them.
#[derive(Debug, Clone)]
pub enum SearchCaptures {
    Rust(grep_regex::RegexCaptures),
    Pcre2(grep_pcre2::RegexCaptures),
}

/// A failed match (PCRE2 only: a match or JIT stack limit reached).
#[derive(Debug)]
pub struct MatchError(String);

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<MatchError> for std::io::Error {
    fn from(e: MatchError) -> Self {
        std::io::Error::other(e.0)
    }
}

fn err(e: impl fmt::Display) -> MatchError {
    MatchError(e.to_string())
}

impl SearchMatcher {
    /// `searcher.search_reader` with the engine's own matcher: the searcher's loops are
    /// compiled for each engine, so the default one runs exactly as without `-P`.
    pub fn search_reader<R: std::io::Read, S: Sink>(
        &self,
        searcher: &mut Searcher,
        read_from: R,
        write_to: S,
    ) -> Result<(), S::Error> {
        match self {
            SearchMatcher::Rust(m) => searcher.search_reader(m, read_from, write_to),
            SearchMatcher::Pcre2(m) => searcher.search_reader(m, read_from, write_to),
        }
    }

    /// `searcher.search_slice` with the engine's own matcher (see [`Self::search_reader`]).
    pub fn search_slice<S: Sink>(
        &self,
        searcher: &mut Searcher,
        slice: &[u8],
        write_to: S,
    ) -> Result<(), S::Error> {
        match self {
            SearchMatcher::Rust(m) => searcher.search_slice(m, slice, write_to),
            SearchMatcher::Pcre2(m) => searcher.search_slice(m, slice, write_to),
        }
    }
}

impl Captures for SearchCaptures {
    #[inline]
    fn len(&self) -> usize {
        match self {
            SearchCaptures::Rust(c) => c.len(),
            SearchCaptures::Pcre2(c) => c.len(),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<Match> {
        match self {
            SearchCaptures::Rust(c) => c.get(i),
            SearchCaptures::Pcre2(c) => c.get(i),
        }
    }
}

impl Matcher for SearchMatcher {
    type Captures = SearchCaptures;
    type Error = MatchError;

    #[inline]
    fn find_at(&self, haystack: &[u8], at: usize) -> Result<Option<Match>, MatchError> {
        match self {
            SearchMatcher::Rust(m) => m.find_at(haystack, at).map_err(err),
            SearchMatcher::Pcre2(m) => m.find_at(haystack, at).map_err(err),
        }
    }

    #[inline]
    fn new_captures(&self) -> Result<SearchCaptures, MatchError> {
        match self {
            SearchMatcher::Rust(m) => m.new_captures().map(SearchCaptures::Rust).map_err(err),
            SearchMatcher::Pcre2(m) => m.new_captures().map(SearchCaptures::Pcre2).map_err(err),
        }
    }

    #[inline]
    fn capture_count(&self) -> usize {
        match self {
            SearchMatcher::Rust(m) => m.capture_count(),
            SearchMatcher::Pcre2(m) => m.capture_count(),
        }
    }

    #[inline]
    fn capture_index(&self, name: &str) -> Option<usize> {
        match self {
            SearchMatcher::Rust(m) => m.capture_index(name),
            SearchMatcher::Pcre2(m) => m.capture_index(name),
        }
    }

    #[inline]
    fn try_find_iter<F, E>(&self, haystack: &[u8], matched: F) -> Result<Result<(), E>, MatchError>
    where
        F: FnMut(Match) -> Result<bool, E>,
    {
        match self {
            SearchMatcher::Rust(m) => m.try_find_iter(haystack, matched).map_err(err),
            SearchMatcher::Pcre2(m) => m.try_find_iter(haystack, matched).map_err(err),
        }
    }

    #[inline]
    fn captures_at(
        &self,
        haystack: &[u8],
        at: usize,
        caps: &mut SearchCaptures,
    ) -> Result<bool, MatchError> {
        match (self, &mut *caps) {
            (SearchMatcher::Rust(m), SearchCaptures::Rust(c)) => {
                m.captures_at(haystack, at, c).map_err(err)
            }
            (SearchMatcher::Pcre2(m), SearchCaptures::Pcre2(c)) => {
                m.captures_at(haystack, at, c).map_err(err)
            }
            // Captures of the other engine: make this one's (never happens: captures come
            // from `new_captures` of the same matcher).
            _ => {
                *caps = self.new_captures()?;
                self.captures_at(haystack, at, caps)
            }
        }
    }

    #[inline]
    fn shortest_match_at(&self, haystack: &[u8], at: usize) -> Result<Option<usize>, MatchError> {
        match self {
            SearchMatcher::Rust(m) => m.shortest_match_at(haystack, at).map_err(err),
            SearchMatcher::Pcre2(m) => m.shortest_match_at(haystack, at).map_err(err),
        }
    }

    #[inline]
    fn non_matching_bytes(&self) -> Option<&ByteSet> {
        match self {
            SearchMatcher::Rust(m) => m.non_matching_bytes(),
            SearchMatcher::Pcre2(m) => m.non_matching_bytes(),
        }
    }

    #[inline]
    fn line_terminator(&self) -> Option<LineTerminator> {
        match self {
            SearchMatcher::Rust(m) => m.line_terminator(),
            SearchMatcher::Pcre2(m) => m.line_terminator(),
        }
    }

    #[inline]
    fn find_candidate_line(&self, haystack: &[u8]) -> Result<Option<LineMatchKind>, MatchError> {
        match self {
            SearchMatcher::Rust(m) => m.find_candidate_line(haystack).map_err(err),
            SearchMatcher::Pcre2(m) => m.find_candidate_line(haystack).map_err(err),
        }
    }
}

/// Builds the matcher, reporting a bad pattern with its position.
pub fn build_matcher(opts: &SearchOptions) -> Result<SearchMatcher> {
    if opts.pcre2 {
        return build_pcre2(opts).map(SearchMatcher::Pcre2);
    }
    let mut b = RegexMatcherBuilder::new();
    if !opts.text {
        // Binary detection stops at (or searches past) NUL bytes: a pattern that needs one
        // could never match, which ripgrep explains rather than finding nothing.
        b.ban_byte(Some(0));
    }
    b.unicode(!opts.no_unicode);
    if let Some(n) = opts.regex_size_limit {
        b.size_limit(n);
    }
    if let Some(n) = opts.dfa_size_limit {
        b.dfa_size_limit(n);
    }
    b.case_insensitive(opts.ignore_case)
        .case_smart(opts.smart_case && !opts.ignore_case)
        .word(opts.word)
        .whole_line(opts.line)
        .fixed_strings(opts.fixed_strings)
        .crlf(true)
        .multi_line(true);
    if opts.multiline {
        // `crlf` also set a `\r\n` line terminator, which would forbid `\n` in patterns.
        b.dot_matches_new_line(opts.multiline_dotall)
            .line_terminator(None);
    } else {
        // --null-data: records end at NUL, and the pattern may match `\n`.
        b.line_terminator(Some(if opts.null_data { 0 } else { b'\n' }));
    }
    let built = match opts.patterns.len() {
        // `-f` with an empty file: nothing matches (an empty class).
        0 => b.fixed_strings(false).build("[a&&b]"),
        1 => b.build(&opts.patterns[0]),
        _ => b.build_many(&opts.patterns),
    };
    match built {
        Ok(m) => Ok(SearchMatcher::Rust(m)),
        // `--engine auto`: what Rust's regex cannot compile (look-around, backreferences), PCRE2
        // may; if it cannot either, the error is Rust's, as ripgrep reports it.
        Err(e)
            if opts.engine_auto
                && !opts.null_data
                && matches!(e.kind(), grep_regex::ErrorKind::Regex(_)) =>
        {
            build_pcre2(opts)
                .map(SearchMatcher::Pcre2)
                .map_err(|_| regex_error(opts, &e))
        }
        Err(e) => Err(regex_error(opts, &e)),
    }
}

/// The `-P` matcher, with the options ripgrep gives PCRE2 (JIT when the platform has it;
/// Unicode classes and case folding unless --no-unicode; `$` before `\r\n` as without -P).
fn build_pcre2(opts: &SearchOptions) -> Result<grep_pcre2::RegexMatcher> {
    let mut b = grep_pcre2::RegexMatcherBuilder::new();
    b.caseless(opts.ignore_case)
        .case_smart(opts.smart_case && !opts.ignore_case)
        .word(opts.word)
        .whole_line(opts.line)
        .fixed_strings(opts.fixed_strings)
        .crlf(true)
        .multi_line(true)
        .jit_if_available(true)
        .max_jit_stack_size(Some(10 * (1 << 20)));
    if !opts.no_unicode {
        b.utf(true).ucp(true);
    }
    if opts.multiline {
        b.dotall(opts.multiline_dotall);
    }
    let built = match opts.patterns.len() {
        // `-f` with an empty file: nothing matches.
        0 => b.fixed_strings(false).build("(*FAIL)"),
        1 => b.build(&opts.patterns[0]),
        _ => b.build_many(&opts.patterns),
    };
    built.map_err(|e| {
        Error::new(
            Code::InvalidRegex,
            format!("invalid PCRE2 regex: {}", first_line(&e.to_string())),
            "fix the pattern (PCRE2 syntax), or pass -F to search for it literally",
        )
    })
}

/// When one pass of the regex over a file's bytes finds what the line-by-line search finds
/// (which only tells which lines match, for the matches to be found again in each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WholeFile {
    /// In every file.
    Always,
    /// In files without a `\r`: the pattern has a CRLF-aware `^` or `$`. Where a line ends
    /// with `\r\n`, its text ends after the `\r`, and there `^` and `$` match; in the file,
    /// between that `\r` and the `\n`, they do not.
    WithoutCr,
    Never,
}

/// Whether the regex can tell a line from the file around it, in which case matches must be
/// found line by line. It cannot when it cannot match `\n` (grep-regex strips it from the
/// pattern outside -U) and has no `\A`/`\z` (grep-regex then drops its line terminator):
/// `^`, `$` and word boundaries see a line's edge and a `\n` alike, but for `\r` (see
/// [`WholeFile::WithoutCr`]).
///
/// Unicode word boundaries (`\b`, `-w`) are left to the line-by-line search too: next to
/// invalid UTF-8 the regex engines can disagree on them, and the searcher then reports a line
/// in which no match is found again (ripgrep's `-c` counts it), which one pass would not.
pub(super) fn whole_file_search(opts: &SearchOptions, matcher: &SearchMatcher) -> WholeFile {
    use grep_matcher::Matcher;
    use regex_syntax::hir::Look;
    if opts.multiline
        || opts.pcre2
        || opts.null_data
        || opts.word
        || opts.invert
        || opts.stop_on_nonmatch
        || matcher.line_terminator().is_none()
    {
        return WholeFile::Never;
    }
    // -x anchors the pattern with CRLF-aware `^` and `$`.
    let mut crlf_anchors = opts.line;
    if !opts.fixed_strings {
        for p in &opts.patterns {
            let hir = regex_syntax::ParserBuilder::new()
                .multi_line(true)
                .crlf(true)
                .utf8(false)
                .build()
                .parse(p);
            let Ok(hir) = hir else {
                return WholeFile::Never;
            };
            let looks = hir.properties().look_set();
            if looks.contains_word_unicode() {
                return WholeFile::Never;
            }
            crlf_anchors |= looks.contains(Look::StartCRLF) || looks.contains(Look::EndCRLF);
        }
    }
    if crlf_anchors {
        WholeFile::WithoutCr
    } else {
        WholeFile::Always
    }
}

fn regex_error(opts: &SearchOptions, e: &grep_regex::Error) -> Error {
    if let grep_regex::ErrorKind::Banned(_) = e.kind() {
        return Error::new(
            Code::NulPattern,
            "the pattern contains \\0 (a NUL byte), which it is impossible to match: binary \
detection stops at or passes over NUL bytes",
            "pass -a/--text to search binary files as text, where a NUL byte can match",
        );
    }
    if let grep_regex::ErrorKind::NotAllowed(_) = e.kind() {
        // The pattern can match a line break (a literal one, even with -F, or `\n`), which a
        // search line by line never sees: rg's message says the same.
        let what = if opts.fixed_strings {
            "the fixed string contains a line break"
        } else {
            "the pattern contains a line break (\\n)"
        };
        return Error::new(
            Code::InvalidRegex,
            format!(
                "{what}: without -U/--multiline lines are searched one by one, so it could \
never match"
            ),
            "pass -U/--multiline so that matches can span lines (or -e PATTERN once per line, to \
find any of them)",
        );
    }
    let text = e.to_string();
    let fix = if text.contains("size limit") {
        "raise --regex-size-limit or --dfa-size-limit (e.g. 100M), or simplify the pattern"
    } else if text.contains("look-around") || text.contains("backreferences") {
        "pass -P (or --engine auto) for look-around and backreferences, or -F to search for \
the pattern literally"
    } else {
        "fix the pattern (Rust regex syntax), or pass -F to search for it literally"
    };
    let mut err = Error::new(
        Code::InvalidRegex,
        format!(
            "invalid regex: {}",
            first_line(&text).trim_start_matches("error: ")
        ),
        fix,
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
