//! `llm search`, per file: finding the matches in a file's bytes — line by line with
//! grep-searcher (the lines it reports, then the matches within them, as ripgrep's printer),
//! or in one regex pass over the whole file where that finds the same (see `WholeFile`); the
//! first-pass probe sink, and `-r` expansion.

use super::matches::{MatchRecord, Recorder};
use super::SearchMatcher;
use super::{Mode, SearchOptions};
use grep_matcher::{Captures, Matcher};
use grep_searcher::{Searcher, Sink, SinkMatch};

/// First-pass sink: stops at the first matching line.
#[derive(Default)]
pub(super) struct Probe {
    pub(super) matched: bool,
    pub(super) binary: bool,
    pub(super) bytes: u64,
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

/// Takes the matches collected so far; `false` stops the search.
pub(super) type Flush<'a, T> = &'a mut dyn FnMut(&mut Vec<T>) -> bool;

/// Where a search of one file stops collecting, and where it hands over what it collected.
pub(super) struct Limits<'a, T> {
    /// Stop once this many matches were found (`found.stopped` is then set).
    pub(super) stop_at: usize,
    /// Called with the matches collected so far once there are `FLUSH_AT` of them (they are
    /// then dropped); `false` stops the search (`found.stopped`).
    pub(super) flush: Option<Flush<'a, T>>,
}

impl<T> Limits<'_, T> {
    /// No limit.
    pub(super) fn none() -> Self {
        Limits {
            stop_at: usize::MAX,
            flush: None,
        }
    }

    /// Applies the limits after a push: whether to go on.
    fn after_push(&mut self, items: &mut Vec<T>, flushed: &mut usize) -> bool {
        if items.len() + *flushed >= self.stop_at {
            return false;
        }
        if let Some(flush) = self.flush.as_mut() {
            if items.len() >= FLUSH_AT {
                let n = items.len();
                if !flush(items) {
                    return false;
                }
                items.clear();
                *flushed += n;
            }
        }
        true
    }
}

/// How many matches a flush hands over at once.
pub(super) const FLUSH_AT: usize = 4 * 1024;

/// Match ranges of one file.
#[derive(Default)]
pub(super) struct Found {
    /// The matches' ranges (only from the line-by-line search).
    pub(super) ranges: Vec<std::ops::Range<usize>>,
    /// How many matches.
    pub(super) matches: usize,
    /// Matching lines (matches with -U): what `-c` counts.
    pub(super) lines: usize,
    /// Where the searcher met a NUL byte and stopped.
    pub(super) binary_at: Option<u64>,
    /// How far the searcher got (its `byte_count`): where it stopped at a NUL, the end of the
    /// lines it had read before the buffer that held the NUL (see `file::search_bytes`).
    pub(super) searched: u64,
    /// The search stopped at a limit (see [`Limits`]) before the end of the file.
    pub(super) stopped: bool,
}

/// Look-ahead allowed past a multiline match's lines when finding its matches again (as
/// ripgrep's printer).
pub(super) const MAX_LOOK_AHEAD: usize = 128;

/// Which matches of the lines the searcher reports are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    /// None: the lines are counted.
    Lines,
    /// The first of each line (see [`SearchOptions::first_match_only`]).
    First,
    All,
}

/// Collects match ranges per matched line (or line group with -U), finding the matches inside
/// the lines the searcher reports exactly as ripgrep's printer does.
pub(super) struct Collect<'a> {
    matcher: &'a SearchMatcher,
    multi_line: bool,
    /// `-v`: the searcher reports the lines that do not match; each is a match.
    invert: bool,
    want: Want,
    limits: Limits<'a, std::ops::Range<usize>>,
    /// Matches handed to `limits.flush` so far.
    flushed: usize,
    /// A line can be searched as a haystack of its own, with the same matches: the pattern has
    /// no `\A` or `\z` (grep-regex then keeps the `\n` line terminator), and what precedes a
    /// line start (a `\n`, or nothing) looks the same to `^` and word boundaries. One regex
    /// search over a slice then replaces a search per match from an offset, each of which
    /// takes the regex's cache from its shared pool.
    sliced: bool,
    /// What ends the lines the searcher reports: `\n`, or NUL with `--null-data` (whose
    /// matcher has it for its line terminator).
    term: u8,
    pub(super) found: Found,
    /// Bytes the searcher went through.
    pub(super) bytes: u64,
}

impl<'a> Collect<'a> {
    pub(super) fn new(
        matcher: &'a SearchMatcher,
        multi_line: bool,
        want: Want,
        ranges: Vec<std::ops::Range<usize>>,
    ) -> Self {
        Collect {
            matcher,
            multi_line,
            invert: false,
            want,
            limits: Limits::none(),
            flushed: 0,
            sliced: !multi_line && matcher.line_terminator().is_some(),
            term: match matcher.line_terminator() {
                Some(t) if !multi_line => t.as_byte(),
                _ => b'\n',
            },
            found: Found {
                ranges,
                ..Found::default()
            },
            bytes: 0,
        }
    }
}

impl<'a> Collect<'a> {
    /// `-v` reports lines that do not match.
    pub(super) fn inverted(mut self, invert: bool) -> Self {
        self.invert = invert;
        self
    }

    /// Counts matches without keeping their ranges.
    pub(super) fn counting(
        mut self,
        flush: &'a mut dyn FnMut(&mut Vec<std::ops::Range<usize>>) -> bool,
    ) -> Self {
        self.limits.flush = Some(flush);
        self
    }

    /// Matches found (kept and flushed).
    pub(super) fn matches(&self) -> usize {
        self.found.ranges.len() + self.flushed
    }
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(
        &mut self,
        s: &Searcher,
        mat: &SinkMatch<'_>,
    ) -> std::result::Result<bool, Self::Error> {
        let buf = mat.buffer();
        let range = mat.bytes_range_in_buffer();
        let base = mat.absolute_byte_offset() as usize - range.start;
        if self.invert {
            // Each line reported is a match spanning the line's text (`\r` included, as a
            // span's line; the `\n` not).
            let mut at = range.start;
            while at < range.end {
                let end =
                    memchr::memchr(self.term, &buf[at..range.end]).map_or(range.end, |i| at + i);
                self.found.lines += 1;
                if self.want != Want::Lines {
                    self.found.ranges.push(base + at..base + end);
                } else {
                    self.flushed += 1;
                }
                if !self
                    .limits
                    .after_push(&mut self.found.ranges, &mut self.flushed)
                {
                    self.found.stopped = true;
                    return Ok(false);
                }
                at = end + 1;
            }
            return Ok(true);
        }
        // Where the reported lines' text ends: before the last `\n`, or at the end of a file
        // without a final one (see `line_matches`).
        let terminated = buf[..range.end].ends_with(&[self.term]);
        let end = range.end - usize::from(terminated);
        let before = self.found.ranges.len();
        let ranges = &mut self.found.ranges;
        let first_only = self.want == Want::First;
        if self.want == Want::Lines {
            // Nothing to find.
        } else if self.term != b'\n' {
            // --null-data: each record is a haystack of its own, without its NUL (`^` and `$`
            // match at its edges).
            super::null_data::record_matches(self.matcher, buf, range.start..end, |m| {
                ranges.push(base + m.start..base + m.end);
                !first_only
            });
        } else if !self.multi_line {
            line_matches(self.matcher, self.sliced, buf, range.start..end, |m| {
                ranges.push(base + m.start..base + m.end);
                !first_only
            });
        } else {
            let hay = &buf[..buf.len().min(range.end + MAX_LOOK_AHEAD)];
            // The lines' last `\n` is theirs: a match may start at it, not past it (but for
            // an empty one at the end of a file without a final `\n`).
            let last = if terminated { range.end - 1 } else { end };
            let _ = self.matcher.find_iter_at(hay, range.start, |m| {
                if m.start() > last {
                    return false;
                }
                ranges.push(base + m.start()..base + m.end());
                !first_only
            });
        }
        // What `-c` counts, as ripgrep: matching lines, or matches where -U really searches
        // across lines (a line group can hold several); a reported line always counts. A
        // pattern that cannot match `\n` is searched line by line even with -U, and counts
        // lines then (rg -c -U 'fo+' on `foofoo`: 1).
        let n = self.found.ranges.len() - before;
        let across = self.multi_line && s.multi_line_with_matcher(self.matcher);
        self.found.lines += if across { n.max(1) } else { 1 };
        if !self
            .limits
            .after_push(&mut self.found.ranges, &mut self.flushed)
        {
            self.found.stopped = true;
            return Ok(false);
        }
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

/// Finds the matches in one line of `buf` (`text`: the line without its `\n`) as ripgrep's
/// printer finds them in a line its searcher reports, handing each to `matched` until it says
/// stop. `sliced`: the line can be searched as a haystack of its own (see `Collect::sliced`).
///
/// A match may start at the end of the line's text (an empty one: `$`, `x*`), never past it;
/// so an empty match at the end of a file without a final `\n` is on its last line (rg's `-r`
/// finds it there).
pub(super) fn line_matches(
    matcher: &SearchMatcher,
    sliced: bool,
    buf: &[u8],
    text: std::ops::Range<usize>,
    mut matched: impl FnMut(std::ops::Range<usize>) -> bool,
) {
    let terminated = buf.get(text.end) == Some(&b'\n');
    let (start, last) = (text.start, text.end);
    if sliced {
        // The line with its `\n`, which the regex cannot match (grep-regex took it out of the
        // pattern): so that its CRLF-aware `^` sees a `\r\n` as the file has it, and does not
        // match between the `\r` and the `\n`, as it would at the end of a line cut after its
        // `\r` (where that `\r` looks lone).
        let line = &buf[start..last + usize::from(terminated)];
        // `try_find_iter` is grep-regex's own iterator (one cache checkout per line).
        let _ = matcher.try_find_iter(line, |m| {
            if start + m.start() > last {
                return Ok::<_, ()>(false);
            }
            Ok(matched(start + m.start()..start + m.end()))
        });
        return;
    }
    let mut found = false;
    let _ = matcher.find_iter_at(&buf[..last], start, |m| {
        found = true;
        matched(m.start()..m.end())
    });
    if !found && start == last && terminated {
        // An empty line where the search of its text found nothing: PCRE2's `^` never matches
        // at the very end of a subject, even after a `\n` (`-P '^$'`, `-P -x ''`). With its
        // `\n` the line has its empty match.
        if let Ok(Some(m)) = matcher.find_at(&buf[..last + 1], start) {
            if m.start() == start {
                matched(start..start);
            }
        }
    }
}

pub(super) fn find_matches<'a>(
    opts: &SearchOptions,
    matcher: &'a SearchMatcher,
    searcher: &mut Searcher,
    bytes: &[u8],
    as_reader: bool,
    mut ranges: Vec<std::ops::Range<usize>>,
    limits: Limits<'a, std::ops::Range<usize>>,
) -> Found {
    ranges.clear();
    let want = if opts.first_match_only {
        Want::First
    } else {
        Want::All
    };
    let mut sink = Collect::new(matcher, opts.multiline, want, ranges);
    sink.invert = opts.invert;
    sink.limits = limits;
    // An error here can only come from the sink, which never fails.
    let _ = if as_reader {
        matcher.search_reader(searcher, bytes, &mut sink)
    } else {
        matcher.search_slice(searcher, bytes, &mut sink)
    };
    let mut found = sink.found;
    found.matches = found.ranges.len() + sink.flushed;
    found.searched = sink.bytes;
    let across = opts.multiline && searcher.multi_line_with_matcher(matcher);
    if let (Some(max), true) = (opts.max_count, across) {
        // A group of lines the searcher reports once can hold several matches: -m promises
        // at most `max` of them (ripgrep reports one for `-m1 -U`). Where -U searches line
        // by line (the pattern cannot match `\n`), -m counts lines, as without it.
        if found.matches > max {
            found.ranges.truncate(max.saturating_sub(sink.flushed));
            found.matches = max;
        }
        found.lines = found.lines.min(max);
    }
    found
}

/// Finds the matches of a whole file in one pass of the regex over its bytes, as records,
/// where [`WholeFile`] says that this finds what the line-by-line search finds (including
/// `-m`, which counts matching lines). `ranges` only lends its storage back.
pub(super) fn find_in_bytes(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    bytes: &[u8],
    out: &mut Vec<MatchRecord>,
    mut ranges: Vec<std::ops::Range<usize>>,
    mut limits: Limits<'_, MatchRecord>,
) -> Found {
    ranges.clear();
    let mut rec = Recorder::new(bytes);
    let (mut lines, mut last_line) = (0, 0);
    let mut matches = 0;
    let mut flushed = 0;
    let mut stopped = false;
    let _ = matcher.try_find_iter(bytes, |m| {
        if m.start() >= bytes.len() && (bytes.is_empty() || bytes.ends_with(b"\n")) {
            // An empty match at the very end, after a final `\n` (or in an empty file): on no
            // line. Without a final `\n`, it is on the last line (see `Collect::matched`).
            return Ok::<_, ()>(false);
        }
        let r = rec.record(m.start()..m.end());
        if r.start_line != last_line {
            if opts.max_count == Some(lines) {
                return Ok(false);
            }
            lines += 1;
            last_line = r.start_line;
        } else if opts.first_match_only {
            return Ok(true);
        }
        matches += 1;
        if opts.mode == Mode::Matches {
            out.push(r);
            if !limits.after_push(out, &mut flushed) {
                stopped = true;
                return Ok(false);
            }
        }
        Ok(true)
    });
    Found {
        ranges,
        matches,
        lines,
        binary_at: None,
        searched: bytes.len() as u64,
        stopped,
    }
}

/// Expands `$1`, `${name}`, `$$` for the match `range` (on a line whose text ends at
/// `line_end`), re-running the regex at the match's start with the same haystack bounds as
/// the search (the line without its terminator, or the lines plus look-ahead with -U), so
/// that anchors and word boundaries see the same context. The bytes are the file's: a group
/// may capture bytes that are not UTF-8.
pub(super) fn expand_replacement(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    bytes: &[u8],
    range: std::ops::Range<usize>,
    line_end: usize,
    replacement: &str,
) -> Vec<u8> {
    let end = if opts.multiline {
        bytes.len().min(range.end + MAX_LOOK_AHEAD)
    } else {
        line_end.max(range.end)
    };
    let hay = &bytes[..end];
    let mut caps = match matcher.new_captures() {
        Ok(c) => c,
        Err(_) => return replacement.as_bytes().to_vec(),
    };
    let mut dst = Vec::new();
    let mut found = matcher.captures_at(hay, range.start, &mut caps);
    if matches!(found, Ok(false)) && range.is_empty() && range.start == end && end < bytes.len() {
        // An empty line's match: PCRE2's `^` there needs the line's `\n` (see
        // `Collect::matched`); the groups are then cut at the line's end, as its match.
        found = matcher.captures_at(&bytes[..end + 1], range.start, &mut caps);
    }
    let caps = Clipped { caps: &caps, end };
    match found {
        Ok(true) if caps.get(0).is_some_and(|m| m.start() == range.start) => {
            caps.interpolate(
                |name| matcher.capture_index(name),
                hay,
                replacement.as_bytes(),
                &mut dst,
            );
            dst
        }
        _ => replacement.as_bytes().to_vec(),
    }
}

/// Capture groups cut at `end` (the end of the haystack their replacement reads).
struct Clipped<'a, C> {
    caps: &'a C,
    end: usize,
}

impl<C: Captures> Captures for Clipped<'_, C> {
    fn len(&self) -> usize {
        self.caps.len()
    }

    fn get(&self, i: usize) -> Option<grep_matcher::Match> {
        let m = self.caps.get(i)?;
        let end = m.end().min(self.end);
        Some(grep_matcher::Match::new(m.start().min(end), end))
    }
}

/// Test support: the matches of `text` found both ways must be the same.
#[cfg(test)]
pub(super) fn compare_whole_and_lines(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    searcher: &mut Searcher,
    text: &[u8],
) {
    use super::matches::records;
    let lines = find_matches(
        opts,
        matcher,
        searcher,
        text,
        false,
        Vec::new(),
        Limits::none(),
    );
    let mut by_lines = Vec::new();
    records(text, &lines.ranges, &mut by_lines);
    let mut by_whole = Vec::new();
    let whole = find_in_bytes(
        opts,
        matcher,
        text,
        &mut by_whole,
        Vec::new(),
        Limits::none(),
    );
    let key = |r: &MatchRecord| (r.byte_start, r.byte_end, r.start_line, r.start_col);
    let (a, b): (Vec<_>, Vec<_>) = (
        by_lines.iter().map(key).collect(),
        by_whole.iter().map(key).collect(),
    );
    let ctx = format!(
        "{:?} (-w {} -x {} -i {} -m {:?} first {}) in {:?}",
        opts.patterns,
        opts.word,
        opts.line,
        opts.ignore_case,
        opts.max_count,
        opts.first_match_only,
        String::from_utf8_lossy(text)
    );
    assert_eq!(a, b, "{ctx}");
    assert_eq!(
        (lines.matches, lines.lines),
        (whole.matches, whole.lines),
        "{ctx}"
    );
}
