//! Byte edits on a file's original bytes: validated (in range, non-overlapping, on UTF-8
//! boundaries) and applied in one pass. Pure functions; `mutation.rs` does the I/O. Shared by
//! transform, patch and write.

use crate::error::{Code, Error};
use std::ops::Range;

/// Replace `[byte_start, byte_end)` of the original bytes with `new_content`
/// (`byte_start == byte_end` inserts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub byte_start: usize,
    pub byte_end: usize,
    pub new_content: Vec<u8>,
}

impl Edit {
    /// An edit replacing `range` with `text`.
    pub fn new(range: Range<usize>, text: impl Into<Vec<u8>>) -> Self {
        Edit {
            byte_start: range.start,
            byte_end: range.end,
            new_content: text.into(),
        }
    }

    /// The replaced range of the original bytes.
    pub fn range(&self) -> Range<usize> {
        self.byte_start..self.byte_end
    }
}

/// Where each edit landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Index of the edit in the caller's order.
    pub index: usize,
    /// Range in the original bytes.
    pub old: Range<usize>,
    /// Range of the new content in the edited bytes.
    pub new: Range<usize>,
}

/// The edited bytes and where every edit went.
#[derive(Debug, Clone)]
pub struct Applied {
    pub bytes: Vec<u8>,
    /// In file order (not the caller's order).
    pub placed: Vec<Placed>,
}

/// The line-ending convention of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

/// The line ending most lines of `text` use (LF when there are none or it is a tie).
pub fn detect_line_ending(text: &[u8]) -> LineEnding {
    let mut lf = 0usize;
    let mut crlf = 0usize;
    for i in memchr::memchr_iter(b'\n', text) {
        if i > 0 && text[i - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    if crlf > lf {
        LineEnding::CrLf
    } else {
        LineEnding::Lf
    }
}

/// Rewrites bare `\n` in `text` as `\r\n` for a CRLF file (existing `\r\n` stay as they are).
pub fn to_line_ending(text: &[u8], ending: LineEnding) -> Vec<u8> {
    if ending == LineEnding::Lf || !text.contains(&b'\n') {
        return text.to_vec();
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 16);
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' && (i == 0 || text[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An edit of a file that starts with a BOM, moved so that the BOM stays first: one that
/// starts at byte 0 (an insertion "at the top", or a replacement of the first lines) starts
/// after the BOM instead, unless it removes exactly the BOM or its text starts with one. Put
/// before the BOM, the text left the BOM in the middle of the file, where Python and most
/// compilers reject it (`find` reports the first symbol after it, and `patch
/// --insert-before` it inserted at the start of its line).
///
/// Text that starts with a BOM of its own, put where the file's BOM stays (a definition sent
/// back with the BOM its file began with), loses it: the file had two, reported ok.
pub fn keep_bom_first(original: &[u8], e: &Edit) -> Edit {
    let mut e = e.clone();
    if !original.starts_with(BOM) {
        return e;
    }
    let replaces_bom = e.byte_start == 0 && e.byte_end >= BOM.len();
    if e.new_content.starts_with(BOM) && !replaces_bom && e.byte_start <= BOM.len() {
        e.new_content.drain(..BOM.len());
        e.byte_start = BOM.len();
        e.byte_end = e.byte_end.max(BOM.len());
    } else if e.byte_start == 0 && e.byte_end != BOM.len() && !e.new_content.starts_with(BOM) {
        e.byte_start = BOM.len();
        e.byte_end = e.byte_end.max(BOM.len());
    }
    e
}

fn is_boundary(bytes: &[u8], at: usize) -> bool {
    at == 0 || at >= bytes.len() || (bytes[at] & 0xC0) != 0x80
}

/// Checks every edit against `original` and applies them all in one pass.
///
/// Errors (nothing applied): an edit past the end or with `start > end`, two edits that overlap
/// (an insertion strictly inside a replaced range counts), or a boundary that falls inside a
/// UTF-8 character. Insertions at the same point keep the caller's order.
pub fn apply(original: &[u8], edits: &[Edit], file: &str) -> Result<Applied, Error> {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| (edits[i].byte_start, edits[i].byte_end, i));
    for &i in &order {
        let e = &edits[i];
        if e.byte_start > e.byte_end || e.byte_end > original.len() {
            return Err(Error::new(
                Code::EditOutOfRange,
                format!(
                    "edit {i} [{}, {}) is outside {file} ({} bytes)",
                    e.byte_start,
                    e.byte_end,
                    original.len()
                ),
                "re-read the file (its checksum tells whether it changed) and rebuild the edit's byte range",
            )
            .with_file(file));
        }
        for at in [e.byte_start, e.byte_end] {
            if !is_boundary(original, at) {
                return Err(Error::new(
                    Code::EditSplitsChar,
                    format!("edit {i} boundary at byte {at} falls inside a UTF-8 character in {file}"),
                    "byte offsets must be on character boundaries: take them from a span `llm` reported",
                )
                .with_file(file));
            }
        }
    }
    for w in order.windows(2) {
        let (a, b) = (&edits[w[0]], &edits[w[1]]);
        // Sorted by (start, end): an insertion at a replaced range's start sorts first and is
        // fine; one strictly inside it is caught here.
        if a.byte_end > b.byte_start {
            return Err(Error::new(
                Code::EditsOverlap,
                format!(
                    "edits {} [{}, {}) and {} [{}, {}) overlap in {file}",
                    w[0], a.byte_start, a.byte_end, w[1], b.byte_start, b.byte_end
                ),
                "merge the overlapping edits into one, or drop one of them",
            )
            .with_file(file));
        }
    }
    let extra: usize = edits.iter().map(|e| e.new_content.len()).sum();
    let mut bytes = Vec::with_capacity(original.len() + extra);
    let mut placed = Vec::with_capacity(edits.len());
    let mut at = 0;
    for &i in &order {
        let e = &edits[i];
        bytes.extend_from_slice(&original[at..e.byte_start]);
        let start = bytes.len();
        bytes.extend_from_slice(&e.new_content);
        placed.push(Placed {
            index: i,
            old: e.range(),
            new: start..bytes.len(),
        });
        at = e.byte_end;
    }
    bytes.extend_from_slice(&original[at..]);
    Ok(Applied { bytes, placed })
}

/// Edits that turn `a` into `b`: one per run of changed lines of their line diff, each
/// narrowed (see [`narrow`]), so that the syntax gate judges only what changed (`llm apply`'s
/// staged files): one edit from the first hunk to the last made every error between them look
/// new (a file with an error between two hunks was refused, though each hunk alone passed).
pub fn between(a: &[u8], b: &[u8]) -> Vec<Edit> {
    let old: Vec<&[u8]> = a.split_inclusive(|&c| c == b'\n').collect();
    let new: Vec<&[u8]> = b.split_inclusive(|&c| c == b'\n').collect();
    // Starts of each line (and the end) of both sides.
    let starts = |ls: &[&[u8]]| -> Vec<usize> {
        std::iter::once(0)
            .chain(ls.iter().scan(0, |at, l| {
                *at += l.len();
                Some(*at)
            }))
            .collect()
    };
    let (at_old, at_new) = (starts(&old), starts(&new));
    // A rewrite of a big file is not worth a minimal diff: past the deadline the diff is
    // coarser, still exact.
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(200);
    let ops = similar::capture_diff_slices_deadline(
        similar::Algorithm::Myers,
        &old,
        &new,
        Some(deadline),
    );
    let mut edits = Vec::new();
    for group in ops.split(|op| matches!(op, similar::DiffOp::Equal { .. })) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o, n) = (first.old_range().start, first.new_range().start);
        let (o_end, n_end) = (last.old_range().end, last.new_range().end);
        let (a0, a1) = (at_old[o], at_old[o_end]);
        let (b0, b1) = (at_new[n], at_new[n_end]);
        let e = narrow(&a[a0..a1], &b[b0..b1]);
        edits.push(Edit::new(e.byte_start + a0..e.byte_end + a0, e.new_content));
    }
    edits
}

/// One edit that turns `a` into `b`: their common start and end kept (on character
/// boundaries), so the syntax gate judges only the changed middle.
fn narrow(a: &[u8], b: &[u8]) -> Edit {
    let cont = |x: u8| x & 0xC0 == 0x80;
    let mut p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while p > 0 && (a.get(p).is_some_and(|&x| cont(x)) || b.get(p).is_some_and(|&x| cont(x))) {
        p -= 1;
    }
    let max = a.len().min(b.len()) - p;
    let mut s = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max)
        .take_while(|(x, y)| x == y)
        .count();
    while s > 0
        && (a.get(a.len() - s).is_some_and(|&x| cont(x))
            || b.get(b.len() - s).is_some_and(|&x| cont(x)))
    {
        s -= 1;
    }
    Edit::new(p..a.len() - s, b[p..b.len() - s].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ed(s: usize, e: usize, t: &str) -> Edit {
        Edit::new(s..e, t)
    }

    #[test]
    fn applies_in_one_pass_on_original_offsets() {
        let a = apply(b"hello world", &[ed(6, 11, "there"), ed(0, 5, "HI")], "f").unwrap();
        assert_eq!(a.bytes, b"HI there");
        assert_eq!(a.placed[0].new, 0..2);
        assert_eq!(a.placed[1].new, 3..8);
        assert_eq!(a.placed[1].index, 0);
    }

    #[test]
    fn insertions_and_adjacent_edits() {
        let a = apply(b"abc", &[ed(1, 1, "X"), ed(1, 2, "Y"), ed(3, 3, "!")], "f").unwrap();
        assert_eq!(a.bytes, b"aXYc!");
        let b = apply(b"abc", &[ed(0, 1, "1"), ed(1, 2, "2")], "f").unwrap();
        assert_eq!(b.bytes, b"12c");
    }

    #[test]
    fn refuses_bad_edits() {
        let e = apply(b"abc", &[ed(0, 2, "x"), ed(1, 3, "y")], "f").unwrap_err();
        assert_eq!(e.code, Code::EditsOverlap);
        let e = apply(b"abc", &[ed(0, 2, "x"), ed(1, 1, "y")], "f").unwrap_err();
        assert_eq!(e.code, Code::EditsOverlap);
        let e = apply(b"abc", &[ed(2, 4, "x")], "f").unwrap_err();
        assert_eq!(e.code, Code::EditOutOfRange);
        let e = apply(b"abc", &[ed(2, 1, "x")], "f").unwrap_err();
        assert_eq!(e.code, Code::EditOutOfRange);
        let e = apply("é".as_bytes(), &[ed(1, 2, "x")], "f").unwrap_err();
        assert_eq!(e.code, Code::EditSplitsChar);
    }

    #[test]
    fn line_endings() {
        assert_eq!(detect_line_ending(b"a\r\nb\r\nc\n"), LineEnding::CrLf);
        assert_eq!(detect_line_ending(b"a\nb"), LineEnding::Lf);
        assert_eq!(to_line_ending(b"x\ny\r\n", LineEnding::CrLf), b"x\r\ny\r\n");
        assert_eq!(to_line_ending(b"x\ny", LineEnding::Lf), b"x\ny");
    }
}
