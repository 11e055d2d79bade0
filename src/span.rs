//! Positions: the one place where byte offsets become lines and columns.
//!
//! Every subcommand reports positions as a [`Span`] built by a [`LineIndex`], so the same bytes
//! always get the same lines, columns and `span_id` (see SPEC.md §Span).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::ops::Range;

/// A half-open byte range `[byte_start, byte_end)` in a file, with 1-indexed lines and 0-indexed
/// byte columns. `(end_line, end_col)` is the position of `byte_end` itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// First 8 bytes of SHA-256(path ‖ ":" ‖ start_be ‖ ":" ‖ end_be) as 16 hex digits.
    #[serde(default)]
    pub span_id: String,
    /// Path as every subcommand spells it (see [`crate::walk::display_path`]).
    #[serde(alias = "file", alias = "path")]
    pub file_path: String,
    /// Inclusive start, in bytes from the start of the file as stored on disk.
    pub byte_start: usize,
    /// Exclusive end, in bytes.
    pub byte_end: usize,
    /// 1-indexed line of `byte_start`.
    #[serde(default, alias = "line_start", alias = "line_number")]
    pub start_line: usize,
    /// 0-indexed byte column of `byte_start`.
    #[serde(default, alias = "col_start", alias = "column_number")]
    pub start_col: usize,
    /// 1-indexed line of `byte_end`.
    #[serde(default, alias = "line_end")]
    pub end_line: usize,
    /// 0-indexed byte column of `byte_end`.
    #[serde(default, alias = "col_end")]
    pub end_col: usize,
}

impl Span {
    /// The byte range as a Rust range.
    pub fn range(&self) -> Range<usize> {
        self.byte_start..self.byte_end
    }
}

/// `span_id` per SPEC.md: deterministic for a path and a byte range.
pub fn span_id(file_path: &str, byte_start: usize, byte_end: usize) -> String {
    let mut hasher = Sha256::new();
    hasher.update(file_path.as_bytes());
    hasher.update(b":");
    hasher.update((byte_start as u64).to_be_bytes());
    hasher.update(b":");
    hasher.update((byte_end as u64).to_be_bytes());
    let digest = hasher.finalize();
    hex(&digest[..8])
}

/// SHA-256 of some bytes as 64 lowercase hex digits: the `checksum` of a file.
pub fn checksum(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of some bytes (checksums, span ids, symbol ids).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 0xf) as usize] as char);
    }
    out
}

/// Start offsets of every line of a text, for offset → (line, column) lookups.
///
/// A line ends after `\n`; a `\r` before it belongs to the line's text. A file that does not end
/// with `\n` has a last line without terminator; an empty file has one empty line.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Indexes `text` (any bytes; only `\n` matters).
    pub fn new(text: &[u8]) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text).map(|i| i + 1));
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// Like [`LineIndex::new`], reusing the allocation of `starts` (from
    /// [`LineIndex::into_starts`]): for callers that index many files in a row.
    pub fn with_buffer(text: &[u8], mut starts: Vec<usize>) -> Self {
        starts.clear();
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text).map(|i| i + 1));
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// Gives back the index's storage, for [`LineIndex::with_buffer`].
    pub fn into_starts(self) -> Vec<usize> {
        self.starts
    }

    /// Number of lines as an editor shows them: a final `\n` does not open an extra line,
    /// except that an empty text has one (empty) line.
    pub fn line_count(&self) -> usize {
        let n = self.starts.len();
        if n > 1 && *self.starts.last().unwrap() == self.len {
            n - 1
        } else {
            n
        }
    }

    /// Total length of the indexed text.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the indexed text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `(line, col)` of a byte offset: 1-indexed line, 0-indexed byte column. Offsets past the
    /// end are clamped to the end.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.len);
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line + 1, offset - self.starts[line])
    }

    /// Byte offset of a 1-indexed line and 0-indexed byte column, if the line exists.
    /// The column is clamped to the line's end (before its `\n`).
    pub fn offset(&self, line: usize, col: usize) -> Option<usize> {
        let range = self.line_range(line)?;
        Some((range.start + col).min(range.end))
    }

    /// Bytes of a 1-indexed line, without its `\n` (a `\r` stays).
    pub fn line_range(&self, line: usize) -> Option<Range<usize>> {
        if line == 0 || line > self.starts.len() {
            return None;
        }
        let start = self.starts[line - 1];
        let end = match self.starts.get(line) {
            Some(next) => next - 1,
            None => self.len,
        };
        Some(start..end)
    }

    /// The line text of a 1-indexed line, without `\n` or the `\r` before it.
    pub fn line_text<'a>(&self, text: &'a [u8], line: usize) -> &'a [u8] {
        match self.line_range(line) {
            Some(r) => strip_cr(&text[r]),
            None => &[],
        }
    }

    /// Byte offset of a position given as a 0-indexed line and a column counted in `units`
    /// (LSP positions, Python's and rustc's character columns), within `text` (the indexed text).
    ///
    /// As LSP specifies: a line past the end gives the end of the text; a column past the end of
    /// its line gives the end of the line (before `\r\n` or `\n`). A column that falls inside a
    /// character (between the halves of a UTF-16 surrogate pair) gives that character's start.
    /// Invalid UTF-8 counts one unit per byte.
    pub fn offset_units(&self, text: &[u8], line0: usize, column: usize, units: Units) -> usize {
        let Some(range) = self.line_range(line0 + 1) else {
            return self.len;
        };
        let line = strip_cr(&text[range.clone()]);
        let mut counted = 0;
        let mut at = 0;
        for chunk in line.utf8_chunks() {
            for c in chunk.valid().chars() {
                let width = match units {
                    Units::Utf8 => c.len_utf8(),
                    Units::Utf16 => c.len_utf16(),
                    Units::Utf32 => 1,
                };
                if counted + width > column {
                    return range.start + at;
                }
                counted += width;
                at += c.len_utf8();
            }
            for _ in chunk.invalid() {
                if counted + 1 > column {
                    return range.start + at;
                }
                counted += 1;
                at += 1;
            }
        }
        range.start + at
    }

    /// [`LineIndex::offset_units`] for an LSP position in the protocol's default encoding
    /// (UTF-16 code units).
    pub fn offset_utf16(&self, text: &[u8], line0: usize, character: usize) -> usize {
        self.offset_units(text, line0, character, Units::Utf16)
    }

    /// A full [`Span`] for `range` in the file spelled `file_path`.
    pub fn span(&self, file_path: &str, range: Range<usize>) -> Span {
        let (start_line, start_col) = self.position(range.start);
        let (end_line, end_col) = self.position(range.end);
        Span {
            span_id: span_id(file_path, range.start, range.end),
            file_path: file_path.to_string(),
            byte_start: range.start,
            byte_end: range.end,
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }
}

/// What a column counts, for positions that other tools report in characters rather than bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Units {
    /// Bytes of UTF-8 (our own columns; LSP `positionEncoding: "utf-8"`).
    Utf8,
    /// UTF-16 code units (LSP's default).
    Utf16,
    /// Unicode scalar values (Python's `SyntaxError.offset`, rustc's `column_start`, LSP `utf-32`).
    Utf32,
}

/// The `(rows, column)` a text advances a position by: how many `\n` it holds, and the byte
/// column after its last line (added to the start column when it holds none). For tree-sitter
/// edit points.
pub fn extent(text: &[u8]) -> (usize, usize) {
    let rows = memchr::memchr_iter(b'\n', text).count();
    let col = match memchr::memrchr(b'\n', text) {
        Some(i) => text.len() - i - 1,
        None => text.len(),
    };
    (rows, col)
}

/// Drops one trailing `\r`, for showing a CRLF line without its terminator.
pub fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_id_test_vectors() {
        // Computed independently (Python hashlib) from the SPEC.md algorithm; must never change.
        assert_eq!(span_id("src/lib.rs", 100, 116), SPAN_ID_LIB_100_116);
        assert_eq!(span_id("a.py", 0, 0), SPAN_ID_A_0_0);
        assert_ne!(span_id("a.py", 0, 1), span_id("a.py", 1, 0));
        assert_eq!(span_id("x", 1, 2).len(), 16);
    }
    const SPAN_ID_LIB_100_116: &str = "3e54626c0dd6e885";
    const SPAN_ID_A_0_0: &str = "39c443a502de9c8d";

    #[test]
    fn positions_lf() {
        let text = b"ab\ncd\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(0), (1, 0));
        assert_eq!(idx.position(2), (1, 2));
        assert_eq!(idx.position(3), (2, 0));
        assert_eq!(idx.position(6), (3, 0));
        assert_eq!(idx.line_count(), 2);
    }

    #[test]
    fn span_ending_with_newline_ends_at_next_line_col_0() {
        let idx = LineIndex::new(b"ab\ncd\n");
        let s = idx.span("f", 0..3);
        assert_eq!(
            (s.start_line, s.start_col, s.end_line, s.end_col),
            (1, 0, 2, 0)
        );
    }

    #[test]
    fn crlf_cr_belongs_to_line() {
        let text = b"ab\r\ncd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(2), (1, 2)); // the \r
        assert_eq!(idx.position(3), (1, 3)); // the \n
        assert_eq!(idx.position(4), (2, 0));
        assert_eq!(idx.line_range(1), Some(0..3));
        assert_eq!(idx.line_text(text, 1), b"ab");
    }

    #[test]
    fn no_final_newline_and_empty() {
        let idx = LineIndex::new(b"x\ny");
        assert_eq!(idx.line_count(), 2);
        assert_eq!(idx.position(3), (2, 1));
        assert_eq!(idx.line_range(2), Some(2..3));
        let empty = LineIndex::new(b"");
        assert_eq!(empty.line_count(), 1);
        assert_eq!(empty.position(0), (1, 0));
        assert_eq!(empty.position(10), (1, 0));
        assert_eq!(empty.line_range(1), Some(0..0));
        assert_eq!(empty.line_range(2), None);
    }

    #[test]
    fn multibyte_columns_are_bytes() {
        let text = "é = «x»\n".as_bytes();
        let idx = LineIndex::new(text);
        let x = text.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(idx.position(x), (1, 7));
    }

    #[test]
    fn reused_buffer_indexes_the_same() {
        let a = LineIndex::new(b"one\ntwo\nthree");
        let b = LineIndex::with_buffer(b"one\ntwo\nthree", vec![7; 40]);
        assert_eq!(a.starts, b.starts);
        assert_eq!(b.position(5), (2, 1));
        let c = LineIndex::with_buffer(b"", b.into_starts());
        assert_eq!((c.line_count(), c.position(0)), (1, (1, 0)));
    }

    #[test]
    fn offset_roundtrip() {
        let text = b"one\r\ntwo\nthree";
        let idx = LineIndex::new(text);
        for off in 0..=text.len() {
            let (l, c) = idx.position(off);
            assert_eq!(idx.offset(l, c), Some(off), "offset {off}");
        }
    }

    #[test]
    fn utf16_offsets_multibyte_and_astral() {
        // "é" is 2 bytes / 1 unit, "😀" is 4 bytes / 2 UTF-16 units / 1 scalar.
        let text = "ab\r\né😀x\nlast".as_bytes();
        let idx = LineIndex::new(text);
        let l1 = 4; // byte offset of line 2 (0-indexed line 1)
        assert_eq!(idx.offset_utf16(text, 0, 0), 0);
        assert_eq!(idx.offset_utf16(text, 0, 2), 2);
        assert_eq!(idx.offset_utf16(text, 0, 99), 2, "clamped before \\r\\n");
        assert_eq!(idx.offset_utf16(text, 1, 0), l1);
        assert_eq!(idx.offset_utf16(text, 1, 1), l1 + 2, "after é");
        assert_eq!(
            idx.offset_utf16(text, 1, 2),
            l1 + 2,
            "inside the surrogate pair"
        );
        assert_eq!(idx.offset_utf16(text, 1, 3), l1 + 6, "after 😀");
        assert_eq!(idx.offset_utf16(text, 1, 4), l1 + 7, "end of line");
        assert_eq!(idx.offset_utf16(text, 1, 5), l1 + 7, "clamped before \\n");
        assert_eq!(idx.offset_utf16(text, 2, 4), text.len());
        assert_eq!(
            idx.offset_utf16(text, 9, 0),
            text.len(),
            "line past the end"
        );
        assert_eq!(idx.offset_units(text, 1, 2, Units::Utf32), l1 + 6);
        assert_eq!(
            idx.offset_units(text, 1, 3, Units::Utf8),
            l1 + 2,
            "inside 😀"
        );
        assert_eq!(idx.offset_units(text, 1, 6, Units::Utf8), l1 + 6);
    }

    #[test]
    fn utf16_offsets_invalid_utf8_count_bytes() {
        let text = b"a\xffb\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.offset_utf16(text, 0, 2), 2);
        assert_eq!(idx.offset_utf16(text, 0, 3), 3);
    }

    #[test]
    fn extents() {
        assert_eq!(extent(b"abc"), (0, 3));
        assert_eq!(extent(b"a\nbc"), (1, 2));
        assert_eq!(extent(b"a\r\n"), (1, 0));
        assert_eq!(extent(b""), (0, 0));
    }

    #[test]
    fn checksum_is_sha256_hex() {
        assert_eq!(
            checksum(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
