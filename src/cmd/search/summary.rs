//! The `files[]` of a search's summary, packed: what it must keep of each file with a match
//! (path, checksum, counts) as one run of bytes on the printing thread rather than two strings
//! per file allocated by the workers, so that its memory is small and in one place however many
//! files the tree holds. Paths come in path order, so each is kept as what it adds to the one
//! before; a SHA-256 checksum is kept as its 32 bytes rather than 64 hex digits. (The Rust
//! corpus copied 16 times lists 26,512 files: 4.0 MB as two buffers of whole paths and hex
//! checksums, 1.3 MB packed.)

use super::SearchFile;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Files in the order they were pushed; serializes as the `Vec<SearchFile>` it stands for.
#[derive(Debug, Default)]
pub struct FileList {
    /// One record per file (see [`FileList::push`]).
    bytes: Vec<u8>,
    len: usize,
    /// The path of the last file pushed.
    last_path: String,
}

/// Flags of a record: which optional parts follow and the booleans of its file.
const PATH_LOSSY: u8 = 1;
const LOSSY: u8 = 2;
/// The checksum is 64 lowercase hex digits, kept as the 32 bytes they spell.
const SHA256: u8 = 4;
/// The checksum is other text (none is empty), kept as its length and bytes.
const TEXT_CHECKSUM: u8 = 8;

/// A [`SearchFile`] borrowed from the list, with the same fields, order and skip rules.
#[derive(serde::Serialize)]
struct FileView<'a> {
    file_path: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    file_path_lossy: bool,
    checksum: &'a str,
    match_count: usize,
    line_count: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    lossy: bool,
}

impl FileList {
    /// Appends `f` (its strings are copied, and dropped here). A record is: the length of the
    /// start its path shares with the previous path, the length and bytes of the rest, a flags
    /// byte, the checksum (32 bytes, or length and text, or nothing), the two counts; numbers
    /// as LEB128 varints.
    pub fn push(&mut self, f: SearchFile) {
        let path = f.file_path.as_str();
        let mut shared = path
            .bytes()
            .zip(self.last_path.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        while !path.is_char_boundary(shared) {
            shared -= 1;
        }
        let rest = &path[shared..];
        put_varint(&mut self.bytes, shared);
        put_varint(&mut self.bytes, rest.len());
        self.bytes.extend_from_slice(rest.as_bytes());
        let sha = sha256_bytes(&f.checksum);
        let mut flags = 0;
        if f.file_path_lossy {
            flags |= PATH_LOSSY;
        }
        if f.lossy {
            flags |= LOSSY;
        }
        if sha.is_some() {
            flags |= SHA256;
        } else if !f.checksum.is_empty() {
            flags |= TEXT_CHECKSUM;
        }
        self.bytes.push(flags);
        if let Some(sha) = sha {
            self.bytes.extend_from_slice(&sha);
        } else if !f.checksum.is_empty() {
            put_varint(&mut self.bytes, f.checksum.len());
            self.bytes.extend_from_slice(f.checksum.as_bytes());
        }
        put_varint(&mut self.bytes, f.match_count);
        put_varint(&mut self.bytes, f.line_count);
        self.last_path.truncate(shared);
        self.last_path.push_str(rest);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `each` with every file in order.
    fn for_each<E>(&self, mut each: impl FnMut(FileView<'_>) -> Result<(), E>) -> Result<(), E> {
        let mut at = 0;
        let mut path = String::new();
        let mut hex = [0u8; 64];
        for _ in 0..self.len {
            let shared = get_varint(&self.bytes, &mut at);
            let n = get_varint(&self.bytes, &mut at);
            path.truncate(shared);
            path.push_str(text(&self.bytes[at..at + n]));
            at += n;
            let flags = self.bytes[at];
            at += 1;
            let checksum = if flags & SHA256 != 0 {
                crate::span::hex_into(&self.bytes[at..at + 32], &mut hex);
                at += 32;
                text(&hex)
            } else if flags & TEXT_CHECKSUM != 0 {
                let n = get_varint(&self.bytes, &mut at);
                at += n;
                text(&self.bytes[at - n..at])
            } else {
                ""
            };
            let match_count = get_varint(&self.bytes, &mut at);
            let line_count = get_varint(&self.bytes, &mut at);
            each(FileView {
                file_path: &path,
                file_path_lossy: flags & PATH_LOSSY != 0,
                checksum,
                match_count,
                line_count,
                lossy: flags & LOSSY != 0,
            })?;
        }
        Ok(())
    }
}

/// The 32 bytes a checksum of 64 lowercase hex digits spells (any other text: `None`, kept as
/// it is).
fn sha256_bytes(checksum: &str) -> Option<[u8; 32]> {
    let digits = checksum.as_bytes();
    if digits.len() != 64 {
        return None;
    }
    let value = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *o = value(pair[0])? << 4 | value(pair[1])?;
    }
    Some(out)
}

/// Bytes that were pushed as text (or written as hex digits), read back as text.
fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("a record's text was pushed from a str at char boundaries")
}

fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> usize {
    let mut n = 0;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        n |= usize::from(b & 0x7f) << shift;
        if b < 0x80 {
            return n;
        }
        shift += 7;
    }
}

impl From<Vec<SearchFile>> for FileList {
    fn from(files: Vec<SearchFile>) -> Self {
        let mut list = FileList::default();
        for f in files {
            list.push(f);
        }
        list
    }
}

impl Serialize for FileList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        self.for_each(|view| seq.serialize_element(&view))?;
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed list serializes as the files it was made of, compact and pretty.
    #[test]
    fn serializes_as_the_files() {
        let files = vec![
            SearchFile {
                file_path: "src/a \"q\".rs".into(),
                checksum: "ab".repeat(32),
                match_count: 3,
                line_count: 2,
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "caf\u{FFFD}/é.rs".into(),
                file_path_lossy: true,
                checksum: "cd".repeat(32),
                match_count: 1,
                line_count: 1,
                lossy: true,
            },
            SearchFile::default(),
            // Paths that share their start with the one before, up to inside a character
            // (`é` and `è` share their first byte), or share nothing; checksums that are not
            // 64 lowercase hex digits; counts of several varint bytes.
            SearchFile {
                file_path: "src/a/b/caf\u{e9}.rs".into(),
                checksum: "0123456789abcdef".repeat(4),
                match_count: 128,
                line_count: 127,
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "src/a/b/caf\u{e8}.rs".into(),
                checksum: "AB".repeat(32),
                match_count: usize::MAX,
                line_count: 1 << 40,
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "src/a/b/c".into(),
                checksum: "ab".repeat(31),
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "src/a/b/c".into(),
                checksum: "g".repeat(64),
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "zzz".into(),
                ..SearchFile::default()
            },
        ];
        let list = FileList::from(files.clone());
        assert_eq!(list.len(), files.len());
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            serde_json::to_string(&files).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&list).unwrap(),
            serde_json::to_string_pretty(&files).unwrap()
        );
        assert_eq!(serde_json::to_string(&FileList::default()).unwrap(), "[]");
    }
}
