//! Positions: the one place where byte offsets become lines and columns.
//!
//! Every subcommand reports positions as a [`Span`] built by a [`LineIndex`], so the same bytes
//! always get the same lines, columns and `span_id` (see SPEC.md §Span).

use crate::hash;
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
    /// `file_path` is not the file's exact name: the name is not valid UTF-8 and each bad byte
    /// became U+FFFD (see [`path_is_lossy`]). Such a path never names a mutation target.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub file_path_lossy: bool,
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

/// Whether a path as spelled in output (see [`crate::walk::display_path`]) may not be the file's
/// exact name: it holds U+FFFD, what a byte that is not UTF-8 becomes. A name that really holds
/// U+FFFD is flagged too: it is refused as a mutation target all the same (see `paths.rs`).
pub fn path_is_lossy(file_path: &str) -> bool {
    file_path.contains('\u{FFFD}')
}

/// `span_id` per SPEC.md: deterministic for a path and a byte range.
pub fn span_id(file_path: &str, byte_start: usize, byte_end: usize) -> String {
    let id = SpanIds::new(file_path).hex(byte_start, byte_end);
    id.iter().map(|&b| b as char).collect()
}

/// [`span_id`] for many ranges of one file: the path is hashed once (its whole 64-byte
/// blocks), and each id costs one or two block compressions of the rest, built on the stack,
/// with no hasher state to copy or buffer.
#[derive(Clone)]
pub struct SpanIds {
    /// SHA-256 state after the whole blocks of `file_path ‖ ":"`.
    state: [u32; 8],
    /// The bytes of `file_path ‖ ":"` after those blocks (fewer than 64).
    rest: Vec<u8>,
    /// Length in bits of the whole message (`file_path ‖ ":" ‖ start ‖ ":" ‖ end`).
    bits: u64,
}

impl SpanIds {
    /// Ids of ranges in the file spelled `file_path`.
    pub fn new(file_path: &str) -> Self {
        let mut prefix = file_path.as_bytes().to_vec();
        prefix.push(b':');
        let (whole, rest) = prefix.as_chunks::<64>();
        let mut state = hash::H0;
        hash::compress(&mut state, whole);
        SpanIds {
            state,
            rest: rest.to_vec(),
            bits: (prefix.len() as u64 + 17) * 8,
        }
    }

    /// The `span_id` of `[byte_start, byte_end)`, as 16 hex digits (ASCII).
    pub fn hex(&self, byte_start: usize, byte_end: usize) -> [u8; 16] {
        let mut out = [0; 16];
        hex_into(&self.digest(byte_start, byte_end), &mut out);
        out
    }

    /// The 8 bytes that [`SpanIds::hex`] spells in hex.
    pub fn digest(&self, byte_start: usize, byte_end: usize) -> [u8; 8] {
        let (blocks, n) = self.blocks(byte_start, byte_end);
        let mut state = self.state;
        hash::compress(&mut state, &blocks[..n]);
        first8(&state)
    }

    /// The digests of two ranges, hashed side by side (see [`crate::hash`]).
    pub fn digest_pair(&self, a: Range<usize>, b: Range<usize>) -> ([u8; 8], [u8; 8]) {
        let (blocks_a, n) = self.blocks(a.start, a.end);
        let (blocks_b, _) = self.blocks(b.start, b.end);
        let (mut state_a, mut state_b) = (self.state, self.state);
        hash::compress_pair(&mut state_a, &mut state_b, &blocks_a[..n], &blocks_b[..n]);
        (first8(&state_a), first8(&state_b))
    }

    /// The last block(s) of the message for one range: the path's rest ‖ start ‖ ":" ‖ end,
    /// padded, with the length; one block when it fits (the same for every range of a file).
    fn blocks(&self, byte_start: usize, byte_end: usize) -> ([hash::Block; 2], usize) {
        let r = self.rest.len();
        let n = if r + 17 + 9 <= 64 { 1 } else { 2 };
        let mut flat = [0u8; 128];
        flat[..r].copy_from_slice(&self.rest);
        flat[r..r + 8].copy_from_slice(&(byte_start as u64).to_be_bytes());
        flat[r + 8] = b':';
        flat[r + 9..r + 17].copy_from_slice(&(byte_end as u64).to_be_bytes());
        flat[r + 17] = 0x80;
        flat[64 * n - 8..64 * n].copy_from_slice(&self.bits.to_be_bytes());
        let (blocks, _) = flat.as_chunks::<64>();
        ([blocks[0], blocks[1]], n)
    }
}

/// The first 8 bytes of a final SHA-256 state's digest.
fn first8(state: &[u32; 8]) -> [u8; 8] {
    let mut out = [0; 8];
    out[..4].copy_from_slice(&state[0].to_be_bytes());
    out[4..].copy_from_slice(&state[1].to_be_bytes());
    out
}

/// Whether `s` spells a SHA-256 as [`checksum`] does (64 hexadecimal digits, either case).
pub fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// SHA-256 of some bytes as 64 lowercase hex digits: the `checksum` of a file.
pub fn checksum(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `work`, and the [`checksum`] of `bytes` computed meanwhile on a thread of its own: for a big
/// file whose checksum would otherwise be one stream of SHA-256 at the end, with the other
/// threads done.
pub fn checksum_beside<R>(bytes: &[u8], work: impl FnOnce() -> R) -> (R, String) {
    std::thread::scope(|scope| {
        let hashing = scope.spawn(|| checksum(bytes));
        let out = work();
        let sum = hashing
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (out, sum)
    })
}

/// Lowercase hex of some bytes (checksums, span ids, symbol ids).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = vec![0; bytes.len() * 2];
    hex_into(bytes, &mut out);
    // Only ASCII hex digits were written.
    String::from_utf8(out).unwrap_or_default()
}

/// Lowercase hex of `bytes` into `out`, which holds exactly two digits per byte.
pub fn hex_into(bytes: &[u8], out: &mut [u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    debug_assert_eq!(out.len(), bytes.len() * 2);
    for (b, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = DIGITS[(b >> 4) as usize];
        pair[1] = DIGITS[(b & 0xf) as usize];
    }
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
        let id = span_id(file_path, range.start, range.end);
        self.span_with(file_path, path_is_lossy(file_path), id, range)
    }

    /// The span of `range` with its id and the path's lossiness already known.
    fn span_with(
        &self,
        file_path: &str,
        lossy: bool,
        span_id: String,
        range: Range<usize>,
    ) -> Span {
        let (start_line, start_col) = self.position(range.start);
        let (end_line, end_col) = self.position(range.end);
        Span {
            span_id,
            file_path: file_path.to_string(),
            file_path_lossy: lossy,
            byte_start: range.start,
            byte_end: range.end,
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }
}

/// [`LineIndex::span`] for many ranges of one file: the path is hashed (see [`SpanIds`]) and
/// checked for lossiness once, not per span.
pub struct FileSpans<'a> {
    index: &'a LineIndex,
    ids: SpanIds,
    file_path: &'a str,
    lossy: bool,
}

impl<'a> FileSpans<'a> {
    pub fn new(index: &'a LineIndex, file_path: &'a str) -> Self {
        FileSpans {
            index,
            ids: SpanIds::new(file_path),
            file_path,
            lossy: path_is_lossy(file_path),
        }
    }

    /// The same span as `index.span(file_path, range)`.
    pub fn span(&self, range: Range<usize>) -> Span {
        let id = self.ids.hex(range.start, range.end);
        self.index
            .span_with(self.file_path, self.lossy, ascii(&id), range)
    }

    /// The spans of two ranges, their ids hashed side by side (see [`SpanIds::digest_pair`]).
    pub fn pair(&self, a: Range<usize>, b: Range<usize>) -> (Span, Span) {
        let (da, db) = self.ids.digest_pair(a.clone(), b.clone());
        let (mut ha, mut hb) = ([0; 16], [0; 16]);
        hex_into(&da, &mut ha);
        hex_into(&db, &mut hb);
        (
            (self.index).span_with(self.file_path, self.lossy, ascii(&ha), a),
            (self.index).span_with(self.file_path, self.lossy, ascii(&hb), b),
        )
    }
}

/// Hex digits as a `String`.
fn ascii(hex: &[u8; 16]) -> String {
    hex.iter().map(|&b| b as char).collect()
}

/// Offsets → (line, column) without indexing the whole text: it counts `\n` only between one
/// lookup and the next (as ripgrep counts lines), so a file is scanned no further than its last
/// match. Positions are those of [`LineIndex::position`]. Cheapest for offsets in increasing
/// order; an earlier offset is found too, by scanning back.
#[derive(Debug, Clone)]
pub struct LineCursor<'a> {
    text: &'a [u8],
    /// 1-indexed line of the last offset looked up.
    line: usize,
    /// Start of that line.
    start: usize,
    /// The last offset looked up (no `\n` in `start..at`).
    at: usize,
    /// End of the line's text (offset of its `\n`, or the text's length), once looked up.
    end: Option<usize>,
}

impl<'a> LineCursor<'a> {
    /// A cursor at the start of `text` (any bytes; only `\n` matters).
    pub fn new(text: &'a [u8]) -> Self {
        LineCursor {
            text,
            line: 1,
            start: 0,
            at: 0,
            end: None,
        }
    }

    /// `(line, col)` of a byte offset: 1-indexed line, 0-indexed byte column. Offsets past the
    /// end are clamped to the end.
    pub fn position(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        if offset < self.start {
            let back = &self.text[offset..self.start];
            self.line -= memchr::memchr_iter(b'\n', back).count();
            self.start = memchr::memrchr(b'\n', &self.text[..offset]).map_or(0, |i| i + 1);
            self.end = None;
        } else if offset > self.at && self.end.is_none_or(|end| offset > end) {
            // Past this line's `\n` if it is known, else past the last offset looked up.
            let from = match self.end {
                Some(end) => {
                    self.line += 1;
                    self.start = end + 1;
                    end + 1
                }
                None => self.at,
            };
            let ahead = &self.text[from..offset];
            if let Some(last) = memchr::memrchr(b'\n', ahead) {
                self.line += memchr::memchr_iter(b'\n', &ahead[..last]).count() + 1;
                self.start = from + last + 1;
            }
            self.end = None;
        }
        self.at = offset;
        (self.line, offset - self.start)
    }

    /// The range of the line of the last offset looked up, without its `\n` (a `\r` stays):
    /// as [`LineIndex::line_range`].
    pub fn line_range(&mut self) -> Range<usize> {
        let end = match self.end {
            Some(end) => end,
            None => {
                let end = memchr::memchr(b'\n', &self.text[self.at..])
                    .map_or(self.text.len(), |i| self.at + i);
                self.end = Some(end);
                end
            }
        };
        self.start..end
    }
}

/// The ranges of up to `n` lines before the line that starts at `line_start`, in text order,
/// without their `\n` (as [`LineIndex::line_range`]).
pub fn lines_before(
    text: &[u8],
    line_start: usize,
    n: usize,
) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut first = line_start;
    let mut count = 0;
    while count < n && first > 0 {
        first = memchr::memrchr(b'\n', &text[..first - 1]).map_or(0, |i| i + 1);
        count += 1;
    }
    lines_from(text, first).take(count)
}

/// The ranges of up to `n` lines after the line whose text ends at `line_end` (at its `\n`),
/// without their `\n`. Lines are counted as [`LineIndex::line_count`] does: an empty "line"
/// after a final `\n` is none.
pub fn lines_after(
    text: &[u8],
    line_end: usize,
    n: usize,
) -> impl Iterator<Item = Range<usize>> + '_ {
    lines_from(text, line_end + 1).take(n)
}

/// Lines from the line that starts at `start` to the end of the text.
pub fn lines_from(text: &[u8], mut start: usize) -> impl Iterator<Item = Range<usize>> + '_ {
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
        let line = start..end;
        start = end + 1;
        Some(line)
    })
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
    fn file_spans_equal_line_index_spans() {
        let text = "fn a() {}\r\n\tlet é = 1;\nno final newline".as_bytes();
        let idx = LineIndex::new(text);
        // A path shorter and one longer than a SHA-256 block, and a lossy one.
        let long = format!("{}/x.rs", "d".repeat(70));
        for path in ["src/lib.rs", long.as_str(), "bad\u{FFFD}.rs"] {
            let spans = FileSpans::new(&idx, path);
            for r in [0..0, 0..9, 12..25, 3..text.len(), text.len()..text.len()] {
                assert_eq!(spans.span(r.clone()), idx.span(path, r));
            }
        }
    }

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

    /// Every offset of `text` (in increasing order, then in a scrambled order) gets the same
    /// position and line range from a [`LineCursor`] as from a [`LineIndex`].
    fn cursor_agrees(text: &[u8]) {
        let idx = LineIndex::new(text);
        let check = |cur: &mut LineCursor, off: usize| {
            let pos = cur.position(off);
            assert_eq!(pos, idx.position(off), "offset {off} of {text:?}");
            assert_eq!(
                Some(cur.line_range()),
                idx.line_range(pos.0),
                "line of {off}"
            );
        };
        let mut cur = LineCursor::new(text);
        for off in 0..=text.len() + 1 {
            check(&mut cur, off);
        }
        // Forward without asking for line ranges (the counting path), then jumps both ways.
        let mut cur = LineCursor::new(text);
        for off in (0..=text.len()).step_by(3) {
            assert_eq!(cur.position(off), idx.position(off));
        }
        let n = text.len() + 1;
        for i in 0..2 * n {
            check(&mut cur, (i * 7919 + 13) % n);
        }
    }

    #[test]
    fn cursor_agrees_with_index() {
        for text in [
            &b""[..],
            b"\n",
            b"\n\n\n",
            b"abc",
            b"ab\ncd\n",
            b"ab\r\ncd\r\n\r\n",
            b"no final\nnewline",
            b"\r",
            b"x\r\ny",
            "é = «x»\n😀\r\nz".as_bytes(),
            b"caf\xe9\n\xff\xfe\n",
        ] {
            cursor_agrees(text);
        }
        // A longer text with lines of every length, some empty, some CRLF.
        let long: Vec<u8> = (0..300)
            .flat_map(|i| {
                let mut line = vec![b'a' + (i % 26) as u8; i % 37];
                line.extend(if i % 5 == 0 { &b"\r\n"[..] } else { b"\n" });
                line
            })
            .collect();
        cursor_agrees(&long);
        cursor_agrees(&long[..long.len() - 3]);
    }

    #[test]
    fn context_lines_agree_with_index() {
        for text in [
            &b""[..],
            b"one\ntwo\r\nthree\n\nfive",
            b"one\ntwo\nthree\n",
            b"\n\n",
        ] {
            let idx = LineIndex::new(text);
            for line in 1..=idx.line_count() {
                let r = idx.line_range(line).unwrap();
                for n in 0..5 {
                    let before: Vec<_> = lines_before(text, r.start, n).collect();
                    let want: Vec<_> = (line.saturating_sub(n).max(1)..line)
                        .map(|l| idx.line_range(l).unwrap())
                        .collect();
                    assert_eq!(before, want, "{n} lines before line {line} of {text:?}");
                    let after: Vec<_> = lines_after(text, r.end, n).collect();
                    let want: Vec<_> = (line + 1..=(line + n).min(idx.line_count()))
                        .map(|l| idx.line_range(l).unwrap())
                        .collect();
                    assert_eq!(after, want, "{n} lines after line {line} of {text:?}");
                }
            }
        }
    }

    #[test]
    fn span_ids_of_one_file_match_span_id() {
        let ids = SpanIds::new("src/lib.rs");
        assert_eq!(&ids.hex(100, 116), SPAN_ID_LIB_100_116.as_bytes());
        // Paths longer than a SHA-256 block, and ranges with high bytes.
        let long = "a/".repeat(70) + "x.rs";
        let ids = SpanIds::new(&long);
        for (a, b) in [
            (0, 0),
            (1, 2),
            (usize::MAX >> 1, usize::MAX >> 1),
            (1 << 40, 1 << 41),
        ] {
            assert_eq!(ids.hex(a, b), span_id_reference(&long, a, b), "{a}..{b}");
        }
    }

    #[test]
    fn span_id_pairs_match_span_id() {
        for len in [0, 10, 37, 38, 45, 46, 63, 64, 100, 127, 128] {
            let path = "q".repeat(len);
            let ids = SpanIds::new(&path);
            let (a, b) = ids.digest_pair(3..9, 1 << 33..(1 << 33) + 1);
            assert_eq!(a, ids.digest(3, 9), "{len}");
            assert_eq!(b, ids.digest(1 << 33, (1 << 33) + 1), "{len}");
            let mut hex_a = [0; 16];
            hex_into(&a, &mut hex_a);
            assert_eq!(hex_a, span_id_reference(&path, 3, 9), "{len}");
        }
    }

    /// SPEC.md's definition, spelled out.
    fn span_id_reference(path: &str, a: usize, b: usize) -> [u8; 16] {
        let mut h = Sha256::new();
        h.update(path.as_bytes());
        h.update(b":");
        h.update((a as u64).to_be_bytes());
        h.update(b":");
        h.update((b as u64).to_be_bytes());
        hex(&h.finalize()[..8]).as_bytes().try_into().unwrap()
    }

    #[test]
    fn checksum_is_sha256_hex() {
        assert_eq!(
            checksum(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn a_lossy_path_is_flagged_in_the_span_and_only_then() {
        let idx = LineIndex::new(b"ab\ncd\n");
        let lossy = serde_json::to_value(idx.span("b\u{FFFD}.py", 3..5)).unwrap();
        assert_eq!(lossy["file_path_lossy"], true, "{lossy}");
        let exact = serde_json::to_value(idx.span("b.py", 3..5)).unwrap();
        assert!(exact.get("file_path_lossy").is_none(), "{exact}");
        // Read back (an edit request's span), the field is optional.
        let back: Span = serde_json::from_value(exact).unwrap();
        assert!(!back.file_path_lossy);
        let back: Span = serde_json::from_value(lossy).unwrap();
        assert!(back.file_path_lossy);
    }
}
