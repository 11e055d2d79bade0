//! The search's matcher: Rust's regex engine (grep-regex, the default) or PCRE2 (`-P`,
//! grep-pcre2: look-around and backreferences), behind one `grep_matcher::Matcher`. Every
//! method the engines specialise is forwarded, so the default engine keeps its fast paths
//! (candidate lines, the line terminator, its own iterator); the searcher itself runs over the
//! engine's own matcher (see [`SearchMatcher::search_reader`]).

use grep_matcher::{ByteSet, Captures, LineMatchKind, LineTerminator, Match, Matcher};
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
