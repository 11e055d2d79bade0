//! Human output of `llm search`, per file: the lines one file's matches print as — match lines with
//! their highlighted (or replaced) ranges, context lines, and the context lines that hold
//! matches (see `LineHit`) — keyed by line number, for `search.rs` to print.

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
        /// With -v, the matches the line holds (see `LineHit`).
        ranges: Vec<Piece<'a>>,
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
        let context = |text: &'a [u8], known| {
            let (offset, len) = at(known);
            Line::Context {
                text,
                offset,
                len,
                ranges: Vec::new(),
            }
        };
        for (i, text) in before.iter().copied().enumerate() {
            let no = s.start_line - before.len() + i;
            lines
                .entry(no)
                .or_insert_with(|| context(text, offsets.before.get(i)));
        }
        for (i, text) in after.iter().copied().enumerate() {
            lines
                .entry(last + 1 + i)
                .or_insert_with(|| context(text, offsets.after.get(i)));
        }
    }
    // Context lines with matches (see `LineHit`): past -m, a line that would be selected
    // prints as a match, with each of them (`-o` prints them); with -v, a context line's
    // matches are replaced and highlighted. A line that is a match line already is left so.
    let mut selected = std::collections::BTreeSet::new();
    for h in matches.iter().flat_map(|m| &m.line_hits) {
        let range = (h.start, h.end, h.replacement.as_deref().map(Cow::Borrowed));
        let Some(line) = lines.get_mut(&h.line) else {
            continue;
        };
        match line {
            Line::Context { ranges, .. } if !h.selected => ranges.push(range),
            Line::Context {
                text, offset, len, ..
            } => {
                *line = Line::Match {
                    text,
                    col: h.start,
                    offset: *offset,
                    len: *len,
                    ranges: vec![range],
                    n_matches: 1,
                };
                selected.insert(h.line);
            }
            Line::Match {
                ranges, n_matches, ..
            } if selected.contains(&h.line) => {
                ranges.push(range);
                *n_matches += 1;
            }
            _ => {}
        }
    }
    lines
}
