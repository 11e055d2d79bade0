//! `llm search`, per file: the matches of one file as compact records over the file's bytes
//! (positions from `span::LineCursor`), which the printers render without copying any text
//! first, and the owned [`SearchMatch`]es built from them where a printer needs those.

use super::decode::Origin;
use super::SearchMatch;
use crate::span::{lines_after, lines_before, strip_cr, LineCursor, Span, SpanIds};
use std::ops::Range;

/// One match: its byte range, its positions, the lines it covers and its ids. No text.
#[derive(Debug, Clone, Copy)]
pub struct MatchRecord {
    pub byte_start: usize,
    pub byte_end: usize,
    pub start_line: usize,
    pub start_col: usize,
    pub end_line: usize,
    pub end_col: usize,
    /// End of the first line's text (the offset of its `\n`, or of the end of the file).
    pub line_end: usize,
    /// The last line the match covers: `end_line`, or the line before when the match ends
    /// with a `\n` (at column 0 of `end_line`).
    pub last_line: usize,
    /// End of the last line's text.
    pub last_end: usize,
    /// First 8 bytes of the `span_id` hash (zero when ids are not wanted).
    pub span_id: [u8; 8],
    /// The `match_id` (nil when ids are not wanted).
    pub match_id: uuid::Uuid,
}

impl MatchRecord {
    /// Start of the first line.
    pub fn line_start(&self) -> usize {
        self.byte_start - self.start_col
    }

    /// The span's positions (ids and path left empty).
    pub fn bare_span(&self) -> Span {
        Span {
            span_id: String::new(),
            file_path: String::new(),
            file_path_lossy: false,
            byte_start: self.byte_start,
            byte_end: self.byte_end,
            start_line: self.start_line,
            start_col: self.start_col,
            end_line: self.end_line,
            end_col: self.end_col,
        }
    }
}

/// Builds records for matches met in increasing order, counting lines only up to the last
/// one.
pub struct Recorder<'a> {
    cur: LineCursor<'a>,
}

impl<'a> Recorder<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Recorder {
            cur: LineCursor::new(bytes),
        }
    }

    /// The record of the match `r` (ids left empty: see [`set_ids`]).
    pub fn record(&mut self, r: Range<usize>) -> MatchRecord {
        let cur = &mut self.cur;
        let (start_line, start_col) = cur.position(r.start);
        let line_end = cur.line_range().end;
        let (end_line, end_col) = cur.position(r.end);
        let (last_line, last_end) = if end_line == start_line {
            (start_line, line_end)
        } else if end_col == 0 {
            // Ends just after a `\n`: the line before `end_line` is the last one covered.
            (end_line - 1, r.end - 1)
        } else {
            (end_line, cur.line_range().end)
        };
        MatchRecord {
            byte_start: r.start,
            byte_end: r.end,
            start_line,
            start_col,
            end_line,
            end_col,
            line_end,
            last_line,
            last_end,
            span_id: [0; 8],
            match_id: uuid::Uuid::nil(),
        }
    }
}

/// Records of match ranges given in increasing order.
pub fn records(bytes: &[u8], ranges: &[Range<usize>], out: &mut Vec<MatchRecord>) {
    let mut rec = Recorder::new(bytes);
    out.extend(ranges.iter().map(|r| rec.record(r.clone())));
}

/// Gives each record its `span_id` (in the file spelled `file_path`; two at a time, see
/// [`SpanIds::digest_pair`]) and a fresh `match_id`.
pub fn set_ids(records: &mut [MatchRecord], file_path: &str) {
    let ids = SpanIds::new(file_path);
    let (pairs, last) = records.as_chunks_mut::<2>();
    for [a, b] in pairs {
        (a.span_id, b.span_id) =
            ids.digest_pair(a.byte_start..a.byte_end, b.byte_start..b.byte_end);
    }
    for r in last {
        r.span_id = ids.digest(r.byte_start, r.byte_end);
    }
    for r in records {
        r.match_id = uuid::Uuid::new_v4();
    }
}

/// A match in a context line, or a context line that is selected, which human output shows
/// as ripgrep does (JSON has these lines as context): past `-m`, an after-context line that
/// would be selected prints as a match (`selected`: with each of its matches, or whole with
/// `-v`); with `-v`, a context line's matches are replaced and highlighted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineHit {
    pub line: usize,
    /// The match's part on that line (for one that spans lines), as start and end columns.
    pub start: usize,
    pub end: usize,
    /// The line prints as a match.
    pub selected: bool,
    /// The `-r` expansion of the match.
    pub replacement: Option<Vec<u8>>,
}

/// One file's matches with the bytes they point into, as a worker holds them.
#[derive(Debug, Clone, Copy)]
pub struct FileMatches<'a> {
    /// The file's bytes as read.
    pub bytes: &'a [u8],
    pub records: &'a [MatchRecord],
    /// The whole file is valid UTF-8 (else every text is converted lossily).
    pub utf8: bool,
    /// `-r` expansions, one per record; empty without `-r`.
    pub replacements: &'a [Vec<u8>],
    /// `-B`/`-A` lines.
    pub before_context: usize,
    pub after_context: usize,
    /// Matches and selected lines among the context lines of these records (see
    /// [`LineHit`]), for human output.
    pub line_hits: &'a [LineHit],
    /// Where these records are one chunk of a file's matches (see [`Chunk`]).
    pub chunk: Chunk,
    /// The file these bytes were decoded from (`-E`), where JSON spans point (see
    /// [`Origin::remap`]); human output shows the decoded text's positions, as ripgrep.
    pub origin: Option<&'a Origin>,
    /// `--passthru`: every line is context (see `passthru.rs`; `before_context` and
    /// `after_context` then only count past `-m`).
    pub passthru: bool,
    /// `-m` stopped the search at the last record.
    pub stopped: bool,
}

/// A file's matches rendered in chunks (a file with many, see `file.rs`): what human output
/// needs to print the chunks as one, each line once and `--` only between groups that are
/// apart. JSON ignores it: each match carries its own context.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chunk {
    /// The last line printed by the chunks before this one (0: this is the first).
    pub printed_through: usize,
    /// The previous chunk's last match: its after-context lines were left to this chunk.
    pub lead: Option<MatchRecord>,
    /// More chunks follow: nothing past this chunk's last match line is printed yet (the
    /// after-context there may hold the next chunk's matches, which print as matches).
    pub more: bool,
}

impl Chunk {
    /// The state for the chunk after one made of `records`.
    pub fn after(self, records: &[MatchRecord]) -> Chunk {
        match records.last() {
            Some(last) => Chunk {
                printed_through: self.printed_through.max(last.last_line),
                lead: Some(*last),
                more: self.more,
            },
            None => self,
        }
    }
}

/// Splits off the last records of a chunk that may share a line with the next chunk's, to be
/// sent with it: the last one and those before it that each share a line with the one after
/// (a line prints once, with all its matches highlighted or replaced). That may be all of
/// them (a line with thousands of matches), up to [`HOLD_MAX`]: past that, they are sent
/// (memory stays bounded; human output then prints the line with the matches found so far).
pub fn hold_back(records: &mut Vec<MatchRecord>) -> Vec<MatchRecord> {
    let mut keep = records.len().saturating_sub(1);
    while keep > 0 && records[keep - 1].last_line >= records[keep].start_line {
        keep -= 1;
    }
    if keep == 0 && records.len() >= HOLD_MAX {
        return Vec::new();
    }
    records.split_off(keep)
}

/// The most matches held back for the next chunk (about 100 MB of records).
pub const HOLD_MAX: usize = 1 << 20;

/// Where the lines of a [`SearchMatch`] other than its first start in the file (the bytes
/// of its `more_lines`, `context_before` and `context_after`), for human `-b`, and how long
/// each line is with its line ending (`-M` counts it, as ripgrep): `(start, length)`.
#[derive(Debug, Clone, Default)]
pub struct LineOffsets {
    /// The length of the match's first line with its line ending.
    pub first_len: usize,
    pub more: Vec<(usize, usize)>,
    pub before: Vec<(usize, usize)>,
    pub after: Vec<(usize, usize)>,
}

impl<'a> FileMatches<'a> {
    /// No matches (the modes that only count).
    pub fn none(bytes: &'a [u8]) -> Self {
        FileMatches {
            bytes,
            records: &[],
            utf8: true,
            replacements: &[],
            before_context: 0,
            after_context: 0,
            line_hits: &[],
            chunk: Chunk::default(),
            origin: None,
            passthru: false,
            stopped: false,
        }
    }

    /// The same view over other records (no `-r` expansions, no line hits).
    pub fn with_records(&self, records: &'a [MatchRecord]) -> Self {
        FileMatches {
            records,
            replacements: &[],
            line_hits: &[],
            ..*self
        }
    }

    /// The bytes of `range`, and whether they are valid UTF-8 as they are: always so in a
    /// valid file, except for a match that starts or ends inside a character.
    pub fn text(&self, range: Range<usize>) -> (&'a [u8], bool) {
        let is_boundary = |i: usize| self.bytes.get(i).is_none_or(|&b| (b as i8) >= -0x40);
        let valid = self.utf8 && is_boundary(range.start) && is_boundary(range.end);
        (&self.bytes[range], valid)
    }

    /// The matched bytes.
    pub fn matched(&self, r: &MatchRecord) -> (&'a [u8], bool) {
        self.text(r.byte_start..r.byte_end)
    }

    /// The match's first line, without its line ending (always whole characters).
    pub fn line_text(&self, r: &MatchRecord) -> &'a [u8] {
        strip_cr(&self.bytes[r.line_start()..r.line_end])
    }

    /// Up to `-B` lines before the match's first line.
    pub fn context_before(&self, r: &MatchRecord) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.texts(self.before_ranges(r))
    }

    /// Up to `-A` lines after the match's last line.
    pub fn context_after(&self, r: &MatchRecord) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.texts(self.after_ranges(r))
    }

    /// The lines of [`context_before`](Self::context_before).
    fn before_ranges(&self, r: &MatchRecord) -> Box<dyn Iterator<Item = Range<usize>> + 'a> {
        match self.passthru {
            true => super::passthru::before(self, r),
            false => Box::new(lines_before(
                self.bytes,
                r.line_start(),
                self.before_context,
            )),
        }
    }

    /// The lines of [`context_after`](Self::context_after).
    fn after_ranges(&self, r: &MatchRecord) -> Box<dyn Iterator<Item = Range<usize>> + 'a> {
        match self.passthru {
            true => super::passthru::after(self, r),
            false => Box::new(lines_after(self.bytes, r.last_end, self.after_context)),
        }
    }

    /// The match's further lines (a multiline match), without line endings.
    pub fn more_lines(&self, r: &MatchRecord) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.texts(self.more_ranges(r))
    }

    fn more_ranges(&self, r: &MatchRecord) -> impl Iterator<Item = Range<usize>> + 'a {
        lines_after(self.bytes, r.line_end, r.last_line - r.start_line)
    }

    /// The texts of lines, without their line endings.
    fn texts(
        &self,
        lines: impl Iterator<Item = Range<usize>> + 'a,
    ) -> impl Iterator<Item = &'a [u8]> + 'a {
        let bytes = self.bytes;
        lines.map(move |l| strip_cr(&bytes[l]))
    }

    /// Where the lines of [`more_lines`](Self::more_lines), [`context_before`](Self::context_before)
    /// and [`context_after`](Self::context_after) start.
    pub fn line_offsets(&self, r: &MatchRecord) -> LineOffsets {
        let n = self.bytes.len();
        // A line's length with its `\n` (none after the last line of a file without one).
        let full = |l: &Range<usize>| l.len() + usize::from(l.end < n);
        let starts = |lines: &mut dyn Iterator<Item = Range<usize>>| {
            lines.map(|l| (l.start, full(&l))).collect()
        };
        LineOffsets {
            first_len: full(&(r.line_start()..r.line_end)),
            more: starts(&mut self.more_ranges(r)),
            before: starts(&mut self.before_ranges(r)),
            after: starts(&mut self.after_ranges(r)),
        }
    }

    /// The `-r` expansion of the `i`-th record (not UTF-8 where a group captured bytes that
    /// are not).
    pub fn replacement(&self, i: usize) -> Option<&'a [u8]> {
        self.replacements.get(i).map(Vec::as_slice)
    }

    /// [`FileMatches::line_hits`], each with the record whose context lines hold it (the
    /// first one; the last record for those past `-m`), so that a match cut off by
    /// `--max-results` takes its own with it.
    fn hits_by_record(&self) -> Vec<Vec<LineHit>> {
        let mut by: Vec<Vec<LineHit>> = vec![Vec::new(); self.records.len()];
        let last = self.records.len().saturating_sub(1);
        // Hits are in line order, as the records are: the owner only moves forward.
        let mut at = 0;
        for h in self.line_hits {
            let mut owner = last;
            if !h.selected {
                let ends_before =
                    |r: &MatchRecord| r.last_line.saturating_add(self.after_context) < h.line;
                while at < last && ends_before(&self.records[at]) {
                    at += 1;
                }
                owner = at;
            }
            if let Some(v) = by.get_mut(owner) {
                v.push(h.clone());
            }
        }
        by
    }

    /// Owned matches, for the printers that keep them (`--max-results`, pretty JSON, human
    /// output with colour, context or replacements). `file_path` is set in the spans when ids
    /// are wanted.
    pub fn to_matches(&self, file_path: Option<&str>) -> Vec<SearchMatch> {
        let lossy = |text: &[u8]| String::from_utf8_lossy(text).into_owned();
        let path_lossy = file_path.is_some_and(crate::span::path_is_lossy);
        let mut hits = self.hits_by_record().into_iter();
        self.records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let hits = hits.next().unwrap_or_default();
                let (matched, valid) = self.matched(r);
                let replacement = self.replacement(i);
                // Text that is not UTF-8 is kept as it is too, for human output (as rg).
                let raw = (!valid || replacement.is_some_and(|r| std::str::from_utf8(r).is_err()))
                    .then(|| {
                        let own = |t: &[u8]| t.to_vec();
                        Box::new(RawTexts {
                            matched: matched.to_vec(),
                            line: self.line_text(r).to_vec(),
                            before: self.context_before(r).map(own).collect(),
                            after: self.context_after(r).map(own).collect(),
                            more: self.more_lines(r).map(own).collect(),
                            replacement: replacement.map(own),
                        })
                    });
                let mut span = r.bare_span();
                let mut match_id = String::new();
                if let Some(path) = file_path {
                    let shown = self.origin.map(|o| o.remap(r, path));
                    let r = shown.as_ref().unwrap_or(r);
                    span = r.bare_span();
                    let mut hex = [0; 16];
                    crate::span::hex_into(&r.span_id, &mut hex);
                    span.span_id = String::from_utf8_lossy(&hex).into_owned();
                    span.file_path = path.to_string();
                    span.file_path_lossy = path_lossy;
                    match_id = r.match_id.to_string();
                }
                SearchMatch {
                    match_id,
                    span,
                    matched_text: lossy(matched),
                    line_text: lossy(self.line_text(r)),
                    context_before: self.context_before(r).map(lossy).collect(),
                    context_after: self.context_after(r).map(lossy).collect(),
                    replacement: replacement.map(lossy),
                    more_lines: self.more_lines(r).map(lossy).collect(),
                    line_hits: hits,
                    line_offsets: self.line_offsets(r),
                    raw,
                }
            })
            .collect()
    }
}

/// A [`SearchMatch`]'s texts as the file has them (see [`SearchMatch::raw`]).
#[derive(Debug, Clone, Default)]
pub struct RawTexts {
    pub matched: Vec<u8>,
    pub line: Vec<u8>,
    pub before: Vec<Vec<u8>>,
    pub after: Vec<Vec<u8>>,
    pub more: Vec<Vec<u8>>,
    pub replacement: Option<Vec<u8>>,
}

impl SearchMatch {
    /// The matched bytes.
    pub fn matched_bytes(&self) -> &[u8] {
        self.raw
            .as_ref()
            .map_or(self.matched_text.as_bytes(), |r| &r.matched)
    }

    /// The bytes of the match's first line, without its line ending.
    pub fn line_bytes(&self) -> &[u8] {
        self.raw
            .as_ref()
            .map_or(self.line_text.as_bytes(), |r| &r.line)
    }

    /// The bytes of the `-r` expansion.
    pub fn replacement_bytes(&self) -> Option<&[u8]> {
        match &self.raw {
            Some(r) => r.replacement.as_deref(),
            None => self.replacement.as_deref().map(str::as_bytes),
        }
    }

    /// The bytes of the lines before the match, of those after it, and of its further lines.
    pub fn lines_bytes(&self) -> [Vec<&[u8]>; 3] {
        fn texts<'a>(raw: Option<&'a Vec<Vec<u8>>>, lossy: &'a [String]) -> Vec<&'a [u8]> {
            match raw {
                Some(r) => r.iter().map(Vec::as_slice).collect(),
                None => lossy.iter().map(String::as_bytes).collect(),
            }
        }
        let raw = self.raw.as_deref();
        [
            texts(raw.map(|r| &r.before), &self.context_before),
            texts(raw.map(|r| &r.after), &self.context_after),
            texts(raw.map(|r| &r.more), &self.more_lines),
        ]
    }
}
