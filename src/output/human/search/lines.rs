//! Human output of `llm search`, per file: the lines one file's matches print as — match
//! lines with their highlighted (or replaced) ranges, and context lines — keyed by line number,
//! for `search.rs` to print.

use crate::cmd::search::SearchMatch;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A highlighted byte range of a line's text, with its replacement under `-r`.
pub(super) type Piece<'a> = (usize, usize, Option<Cow<'a, [u8]>>);

pub(super) enum Line<'a> {
    Match {
        /// The line's bytes as in the file.
        text: &'a [u8],
        col: usize,
        /// Byte offset of the line's start, where known (-b).
        offset: Option<usize>,
        /// The line's length with its line ending (-M), where known.
        len: usize,
        ranges: Vec<Piece<'a>>,
        n_matches: usize,
    },
    Context {
        text: &'a [u8],
        /// Byte offset of the line's start (-b).
        offset: Option<usize>,
        /// The line's length with its line ending (-M), where known.
        len: usize,
    },
    /// A line covered by a multiline match that `-r` replaced: not printed.
    Replaced,
}

/// The bytes a piece of `-o` prints: the range `a..b` of `text` (cut at its end), or its
/// replacement.
pub(super) fn piece<'t>(
    text: &'t [u8],
    a: usize,
    b: usize,
    repl: &'t Option<Cow<'_, [u8]>>,
) -> Option<&'t [u8]> {
    let clip = |i: usize| i.min(text.len());
    repl.as_deref().or_else(|| text.get(clip(a)..clip(b)))
}

/// Every line to print for one file: match lines (highlight ranges, first column) and context.
pub(super) fn collect_lines<'a>(matches: &'a [SearchMatch]) -> BTreeMap<usize, Line<'a>> {
    let mut lines: BTreeMap<usize, Line> = BTreeMap::new();
    fn add<'a>(
        lines: &mut BTreeMap<usize, Line<'a>>,
        no: usize,
        text: &'a [u8],
        range: Piece<'a>,
        (offset, len): (Option<usize>, usize),
    ) {
        match lines.get_mut(&no) {
            Some(Line::Match {
                ranges, n_matches, ..
            }) => {
                ranges.push(range);
                *n_matches += 1;
            }
            _ => {
                lines.insert(
                    no,
                    Line::Match {
                        text,
                        col: range.0,
                        offset,
                        len,
                        ranges: vec![range],
                        n_matches: 1,
                    },
                );
            }
        }
    }
    for m in matches {
        let s = &m.span;
        let last = s.start_line + m.more_lines.len();
        let offsets = &m.line_offsets;
        let first = (Some(s.byte_start - s.start_col), offsets.first_len);
        let [before, after, more] = m.lines_bytes();
        let line_text = m.line_bytes();
        // Where a line is, by what `LineOffsets` knows of it: (offset, length with ending).
        let at = |known: Option<&(usize, usize)>| known.map_or((None, 0), |&(o, l)| (Some(o), l));
        if let (Some(repl), false) = (m.replacement_bytes(), more.is_empty()) {
            // A replaced multiline match prints as one line: what precedes the match on its
            // first line, the replacement, and what follows it on its last line.
            let tail = if s.end_line == last {
                more.last()
                    .map_or(&b""[..], |t| &t[s.end_col.min(t.len())..])
            } else {
                b""
            };
            let joined = Cow::Owned([repl, tail].concat());
            add(
                &mut lines,
                s.start_line,
                line_text,
                (s.start_col, line_text.len(), Some(joined)),
                first,
            );
            for no in s.start_line + 1..=last {
                lines.insert(no, Line::Replaced);
            }
        } else {
            let texts = std::iter::once(line_text).chain(more.iter().copied());
            for (i, text) in texts.enumerate() {
                let no = s.start_line + i;
                let start = if i == 0 { s.start_col } else { 0 };
                let end = if no == s.end_line {
                    s.end_col
                } else {
                    text.len()
                };
                let place = match i {
                    0 => first,
                    _ => at(offsets.more.get(i - 1)),
                };
                let repl = m.replacement_bytes().map(Cow::Borrowed);
                add(&mut lines, no, text, (start, end, repl), place);
            }
        }
        for (i, text) in before.iter().copied().enumerate() {
            let no = s.start_line - before.len() + i;
            let (offset, len) = at(offsets.before.get(i));
            lines
                .entry(no)
                .or_insert(Line::Context { text, offset, len });
        }
        for (i, text) in after.iter().copied().enumerate() {
            let no = last + 1 + i;
            let (offset, len) = at(offsets.after.get(i));
            // A line with hits past -m prints as a match, with each of them (`-o` prints
            // them), also where an earlier match's context put the line in as context.
            let matched = matches!(lines.get(&no), Some(Line::Match { .. }));
            let mut hits = m.after_hits.iter().filter(|h| h.0 == no).peekable();
            if !matched && hits.peek().is_some() {
                for &(_, a, b) in hits {
                    add(&mut lines, no, text, (a, b, None), (offset, len));
                }
            } else {
                lines
                    .entry(no)
                    .or_insert(Line::Context { text, offset, len });
            }
        }
    }
    lines
}
