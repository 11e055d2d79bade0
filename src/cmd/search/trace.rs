//! `--debug`/`--trace` lines of `llm search` (through `log`; `output::debug_log` writes them
//! to stderr): the regex engine chosen, how files are searched, the threads, and each file
//! skipped after it was opened and why. What the walk leaves out (ignore files, globs, types,
//! hidden files) the `ignore` crate says itself ("ignoring PATH: …").

use super::file::{FileOutcome, SkipReason};
use super::{SearchMatcher, SearchOptions, WholeFile};
use crate::walk::Candidate;

/// The search's plan, once, before the walk.
pub(super) fn plan(opts: &SearchOptions, matcher: &SearchMatcher, whole: WholeFile) {
    if !log::log_enabled!(log::Level::Debug) {
        return;
    }
    let engine = match matcher {
        SearchMatcher::Rust(_) => "Rust regex (grep-regex)",
        SearchMatcher::Pcre2(_) if opts.pcre2 => "PCRE2 (-P/--engine pcre2)",
        SearchMatcher::Pcre2(_) => "PCRE2 (--engine auto: Rust's regex could not compile it)",
    };
    log::debug!("regex engine: {engine}; patterns: {:?}", opts.patterns);
    let how = match whole {
        WholeFile::Always => "one regex pass over each file's bytes",
        WholeFile::WithoutCr => {
            "one regex pass over files without `\\r`, line by line (grep-searcher) in the others"
        }
        WholeFile::Never => "line by line (grep-searcher)",
    };
    log::debug!("search: {how}");
    log::debug!(
        "threads: {} searching; binary files found by walking: {}",
        opts.threads,
        if opts.text {
            "searched as text (-a)"
        } else if opts.binary {
            "searched whole (--binary)"
        } else {
            "skipped at their first NUL byte"
        }
    );
}

/// Says what became of one file the walk handed on, and hands the outcome back.
pub(super) fn outcome(cand: &Candidate, outcome: FileOutcome) -> FileOutcome {
    match &outcome {
        FileOutcome::Skipped(reason, _) => {
            let why = match reason {
                SkipReason::Binary => "binary (a NUL byte; -a or --binary searches it)",
                SkipReason::Unreadable => "it could not be read",
                SkipReason::TooLarge => "larger than --max-filesize",
            };
            log::debug!("skipping {}: {why}", cand.display);
        }
        FileOutcome::Deferred(_) => {
            log::trace!(
                "{}: many matches, streamed by the printing thread",
                cand.display
            );
        }
        FileOutcome::Searched { bytes, .. } => {
            log::trace!("searched {} ({bytes} bytes)", cand.display);
        }
    }
    outcome
}
