//! Human output of `llm search`, per line: a line cut into the pieces it prints as (its
//! ranges replaced and painted), and `--max-columns-preview`'s start of a long line.

use super::{Piece, SearchHuman};
use std::borrow::Cow;
use std::io::Write;

/// A line as printed, cut in pieces: the text between ranges, and each range (its
/// replacement under -r), with whether it is painted.
pub(super) struct Spliced<'t> {
    pub(super) pieces: Vec<(Cow<'t, [u8]>, bool)>,
}

impl SearchHuman {
    /// `text` with its ranges replaced (-r), each range a piece of its own, painted where
    /// `paint_at` allows. In a line of UTF-8, a range that starts or ends inside a character
    /// (an empty match of `x*`) is left as it is; other bytes are spliced where they are.
    pub(super) fn spliced<'t>(
        &self,
        text: &'t [u8],
        ranges: &'t [Piece<'_>],
        paint_at: Option<usize>,
    ) -> Spliced<'t> {
        let utf8 = std::str::from_utf8(text).ok();
        let boundary = |i: usize| utf8.is_none_or(|t| t.is_char_boundary(i));
        let mut pieces = Vec::with_capacity(ranges.len() * 2 + 1);
        let mut at = 0;
        for (a, b, repl) in ranges {
            let (a, b) = ((*a).min(text.len()), (*b).min(text.len()));
            if a < at || a > b || !boundary(a) || !boundary(b) {
                continue;
            }
            pieces.push((Cow::Borrowed(&text[at..a]), false));
            let piece = match repl.as_deref() {
                Some(r) => Cow::Owned(r.to_vec()),
                None => Cow::Borrowed(&text[a..b]),
            };
            pieces.push((piece, paint_at.is_none_or(|p| p == a)));
            at = b;
        }
        pieces.push((Cow::Borrowed(&text[at..]), false));
        Spliced { pieces }
    }

    /// `--max-columns-preview`: the first `max` characters of a long line as printed (rg 13
    /// counts graphemes there, where -M counts bytes), then, as ripgrep says it, how many
    /// matches start past them (where rg finds each match, see `granular`), or that the end
    /// was left out.
    pub(super) fn preview(&self, out: &mut Vec<u8>, line: &Spliced<'_>, max: usize, counted: bool) {
        let whole: Vec<u8> = line
            .pieces
            .iter()
            .flat_map(|(b, _)| b.iter().copied())
            .collect();
        let cut = first_chars(&whole, max);
        let (mut at, mut remaining) = (0, 0);
        for (i, (bytes, paint)) in line.pieces.iter().enumerate() {
            // Odd pieces are the ranges (see `spliced`).
            if i % 2 == 1 && at >= cut {
                remaining += 1;
            }
            let shown = &bytes[..bytes.len().min(cut.saturating_sub(at))];
            match paint {
                true if !shown.is_empty() => self.paint(out, shown),
                _ => out.extend_from_slice(shown),
            }
            at += bytes.len();
        }
        if counted {
            let tense = if remaining == 1 { "match" } else { "matches" };
            let _ = writeln!(out, " [... {remaining} more {tense}]");
        } else {
            out.extend_from_slice(b" [... omitted end of long line]\n");
        }
    }
}

/// The length in bytes of the first `n` characters of `bytes` (each invalid UTF-8 sequence is
/// one, as a U+FFFD).
fn first_chars(bytes: &[u8], n: usize) -> usize {
    let mut len = 0;
    let mut left = n;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if left == 0 {
                return len;
            }
            len += c.len_utf8();
            left -= 1;
        }
        if !chunk.invalid().is_empty() {
            if left == 0 {
                return len;
            }
            len += chunk.invalid().len();
            left -= 1;
        }
    }
    len
}
