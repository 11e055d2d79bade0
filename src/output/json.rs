//! JSON and JSON-lines rendering of envelopes and streamed items, and the hand-written JSON
//! strings of the items written straight from file bytes (`search`).

pub mod find;
pub mod search;

use serde::Serialize;
use std::io::{self, Write};

/// Writes one envelope: pretty on a terminal, compact otherwise, then a newline.
pub fn envelope<T: Serialize>(out: &mut impl Write, value: &T, pretty: bool) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, value)?;
    } else {
        serde_json::to_writer(&mut *out, value)?;
    }
    out.write_all(b"\n")
}

/// Writes one JSON line `{"type":TAG, ...fields of value}`. `value` must serialize to an object.
pub fn tagged_line<T: Serialize>(out: &mut impl Write, tag: &str, value: &T) -> io::Result<()> {
    write!(out, "{{\"type\":\"{tag}\"")?;
    // Serialized straight into `out` (a summary line holds every file of a search: no copy of
    // it in memory), through a writer that drops the object's `{`.
    let mut fields = AfterTag {
        out: &mut *out,
        seen: Seen::Nothing,
    };
    serde_json::to_writer(&mut fields, value)?;
    debug_assert!(fields.seen == Seen::Field);
    out.write_all(b"\n")
}

/// What [`AfterTag`] has seen of the object so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Nothing,
    Brace,
    Field,
}

/// Writes an object's serialization after a `{"type":…` already written: drops its `{` and
/// puts a `,` before its first field (nothing before the `}` of an empty one).
struct AfterTag<W> {
    out: W,
    seen: Seen,
}

impl<W: Write> Write for AfterTag<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while self.seen != Seen::Field && !rest.is_empty() {
            if self.seen == Seen::Nothing {
                debug_assert!(rest[0] == b'{');
                rest = &rest[1..];
                self.seen = Seen::Brace;
            } else {
                if rest[0] != b'}' {
                    self.out.write_all(b",")?;
                }
                self.seen = Seen::Field;
            }
        }
        self.out.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A compact envelope written while its one long array (say `"matches":[]`) is still being
/// filled: everything before the array's first member is written when that member comes, the
/// members as they come, and the rest of the final envelope at the end. Output then streams
/// instead of piling up in memory.
///
/// The part before the array comes from a draft of the envelope, so it must not depend on what
/// is only known at the end (the caller's draft has the final status and ids). The first
/// `"matches":[]` of the serialized envelope is the array: any earlier occurrence would be
/// inside a JSON string, where its quotes are escaped.
pub struct StreamedArray {
    /// `"key":[]`.
    empty: Vec<u8>,
    /// The draft up to and including the array's `[`.
    head: Vec<u8>,
    /// Members written so far.
    members: usize,
}

impl StreamedArray {
    /// Prepares to stream the array `key` (empty in `draft`).
    pub fn new<T: Serialize>(draft: &T, key: &str) -> io::Result<Self> {
        let empty = format!("\"{key}\":[]").into_bytes();
        let mut head = serde_json::to_vec(draft)?;
        head.truncate(Self::split(&head, &empty)?);
        Ok(StreamedArray {
            empty,
            head,
            members: 0,
        })
    }

    /// Offset just after the array's `[` in a serialized envelope.
    fn split(envelope: &[u8], empty: &[u8]) -> io::Result<usize> {
        let at = memchr::memmem::find(envelope, empty)
            .ok_or_else(|| io::Error::other("no empty array to stream into"))?;
        Ok(at + empty.len() - 1)
    }

    /// Writes some members (already comma-separated among themselves); nothing if empty.
    pub fn members(&mut self, out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if self.members == 0 {
            out.write_all(&self.head)?;
        } else {
            out.write_all(b",")?;
        }
        self.members += 1;
        out.write_all(bytes)
    }

    /// Writes the rest of `envelope` (whose array is empty), then a newline; the whole of it
    /// when no member came.
    pub fn finish<T: Serialize>(self, out: &mut impl Write, envelope: &T) -> io::Result<()> {
        let full = serde_json::to_vec(envelope)?;
        let rest = if self.members == 0 {
            &full[..]
        } else {
            let split = Self::split(&full, &self.empty)?;
            if full[..split] != self.head[..] {
                return Err(io::Error::other(
                    "streamed envelope changed before its array",
                ));
            }
            &full[split..]
        };
        out.write_all(rest)?;
        out.write_all(b"\n")
    }
}

/// A span's six numbers as its JSON writes them (`,"byte_start":…` to `,"end_col":…`, in
/// that order), then `tail` (at most 32 bytes), put together on the stack and appended at once.
fn span_numbers(out: &mut Vec<u8>, numbers: [usize; 6], tail: &[u8]) {
    const KEYS: [&[u8]; 6] = [
        b",\"byte_start\":",
        b",\"byte_end\":",
        b",\"start_line\":",
        b",\"start_col\":",
        b",\"end_line\":",
        b",\"end_col\":",
    ];
    // Keys (76 bytes), six numbers of at most 20 digits, the tail.
    let mut buf = [0u8; 76 + 6 * 20 + 32];
    let mut at = 0;
    for (key, n) in KEYS.into_iter().zip(numbers) {
        buf[at..at + key.len()].copy_from_slice(key);
        at = crate::output::put_uint(&mut buf, at + key.len(), n);
    }
    buf[at..at + tail.len()].copy_from_slice(tail);
    out.extend_from_slice(&buf[..at + tail.len()]);
}

/// Writes `text` (valid UTF-8) as a JSON string, escaped as serde_json escapes it: `"`, `\\`
/// and control characters, nothing else.
pub fn write_str(out: &mut Vec<u8>, text: &[u8]) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    escape_into(out, text);
    out.push(b'"');
}

/// Writes `bytes` as the JSON string of `String::from_utf8_lossy(bytes)`; `valid` says that
/// they are known to be UTF-8 already.
pub fn write_lossy_str(out: &mut Vec<u8>, bytes: &[u8], valid: bool) {
    if valid {
        return write_str(out, bytes);
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    for chunk in bytes.utf8_chunks() {
        escape_into(out, chunk.valid().as_bytes());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    out.push(b'"');
}

/// A byte that a JSON string cannot hold as it is.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of 16 bytes needs escaping (the compiler turns this into vector compares).
fn any_to_escape(chunk: &[u8; 16]) -> bool {
    chunk.iter().fold(false, |any, &b| any | needs_escape(b))
}

/// The offset of the first byte from `from` on that needs escaping, scanning 16 bytes at a
/// time (the last 16 again, overlapping, rather than byte by byte).
fn next_to_escape(text: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = text.get(i..i + 16) {
        if any_to_escape(chunk.try_into().unwrap_or(&[0; 16])) {
            break;
        }
        i += 16;
    }
    if i < text.len() && text.len() >= 16 && text.len() - i < 16 {
        let tail = &text[text.len() - 16..];
        if !any_to_escape(tail.try_into().unwrap_or(&[0; 16])) {
            return None;
        }
    }
    text[i..]
        .iter()
        .position(|&b| needs_escape(b))
        .map(|p| i + p)
}

/// Copies `text` with escapes: most text has nothing to escape, so it is scanned 16 bytes at a
/// time and copied in runs.
fn escape_into(out: &mut Vec<u8>, text: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    while let Some(i) = next_to_escape(text, run) {
        out.extend_from_slice(&text[run..i]);
        let b = text[i];
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => 0,
        };
        if short != 0 {
            out.extend_from_slice(&[b'\\', short]);
        } else {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 0xf) as usize],
            ]);
        }
        run = i + 1;
    }
    out.extend_from_slice(&text[run..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings that stress the escaper: every control character, quotes and backslashes at
    /// chunk edges, non-ASCII (U+2028 is not escaped by serde_json), long clean runs.
    fn awkward() -> Vec<String> {
        let mut v: Vec<String> = [
            "",
            "plain",
            "\"",
            "\\",
            "a\"b\\c",
            "tab\there\r\n",
            "\u{7f} del is not escaped",
            "line\u{2028}sep\u{2029}para",
            "é = «x» 😀",
            "0123456789abcde\"",
            "0123456789abcdef\"0123456789abcdef\\",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push((0u8..0x20).map(char::from).collect());
        v.push(
            (0u8..0x80)
                .rev()
                .map(char::from)
                .collect::<String>()
                .repeat(3),
        );
        v.push("x".repeat(100) + "\u{1}" + &"y".repeat(33));
        v
    }

    #[test]
    fn streamed_array_is_the_envelope_with_its_members() {
        // json! objects sort their keys: "a_query" (holding the key's text) comes first.
        let q = "\"matches\":[]";
        let draft = serde_json::json!({"id": "x", "data": {"a_query": q, "matches": []}});
        let fin = serde_json::json!({"id": "x", "data": {"a_query": q, "matches": [], "n": 3}});
        let mut out = Vec::new();
        let mut s = StreamedArray::new(&draft, "matches").unwrap();
        s.members(&mut out, b"1,2").unwrap();
        s.members(&mut out, b"").unwrap();
        s.members(&mut out, b"3").unwrap();
        s.finish(&mut out, &fin).unwrap();
        let want =
            serde_json::json!({"id": "x", "data": {"a_query": q, "matches": [1, 2, 3], "n": 3}});
        assert_eq!(String::from_utf8(out).unwrap(), format!("{want}\n"));
        // Nothing streamed: the final envelope as it is.
        let mut out = Vec::new();
        StreamedArray::new(&draft, "matches")
            .unwrap()
            .finish(&mut out, &fin)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{fin}\n"));
        // A head that changed is refused rather than written wrong.
        let other = serde_json::json!({"id": "x", "data": {"a_query": "changed", "matches": []}});
        let mut s = StreamedArray::new(&draft, "matches").unwrap();
        s.members(&mut Vec::new(), b"1").unwrap();
        assert!(s.finish(&mut Vec::new(), &other).is_err());
    }

    #[test]
    fn strings_are_escaped_as_serde_json_does() {
        for s in awkward() {
            let mut out = Vec::new();
            write_str(&mut out, s.as_bytes());
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&s).unwrap(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn an_escape_anywhere_in_strings_of_any_length() {
        for len in 0..40 {
            for at in 0..len {
                for c in ['"', '\\', '\u{1}', '\n'] {
                    let s: String = (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                    let mut out = Vec::new();
                    write_str(&mut out, s.as_bytes());
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        serde_json::to_string(&s).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn lossy_strings_match_from_utf8_lossy() {
        let mut cases: Vec<Vec<u8>> = awkward().into_iter().map(String::into_bytes).collect();
        cases.extend([
            b"caf\xe9 latin".to_vec(),
            b"\xff\xfe\"\x00".to_vec(),
            b"cut \xe2\x82".to_vec(),
            b"\xf0\x9f\x98".to_vec(),
            [&b"0123456789abcdef"[..], b"\xc3", b"\\", b"\xa9"].concat(),
        ]);
        for bytes in cases {
            let want = serde_json::to_string(&String::from_utf8_lossy(&bytes)).unwrap();
            let mut out = Vec::new();
            write_lossy_str(&mut out, &bytes, false);
            assert_eq!(String::from_utf8(out).unwrap(), want, "{bytes:?}");
            if std::str::from_utf8(&bytes).is_ok() {
                let mut out = Vec::new();
                write_lossy_str(&mut out, &bytes, true);
                assert_eq!(String::from_utf8(out).unwrap(), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn tagged_lines() {
        let mut v = Vec::new();
        tagged_line(&mut v, "match", &serde_json::json!({"a": 1})).unwrap();
        tagged_line(&mut v, "empty", &serde_json::json!({})).unwrap();
        let nested = serde_json::json!({"b": {"c": [1, {}]}, "d": "}{"});
        tagged_line(&mut v, "nested", &nested).unwrap();
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "{\"type\":\"match\",\"a\":1}\n{\"type\":\"empty\"}\n\
             {\"type\":\"nested\",\"b\":{\"c\":[1,{}]},\"d\":\"}{\"}\n"
        );
    }
}
