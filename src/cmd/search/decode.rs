//! `llm search` input: `-E/--encoding`. Which files are transcoded to UTF-8 before they are
//! searched (as ripgrep 13 decides it: an explicit encoding, or a UTF-16 byte-order mark), the
//! decoding itself, and the map from offsets in the decoded text back to the bytes on disk,
//! so that a JSON span addresses the file as stored (see [`Origin`]).

use super::MatchRecord;
use crate::error::{Code, Error};
use crate::span::{LineIndex, SpanIds};
use encoding_rs::{Encoding, UTF_8};

/// `-E/--encoding`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EncodingChoice {
    /// `auto` (the default): a file that starts with a UTF-16 byte-order mark is decoded as
    /// UTF-16; every other file is searched as its bytes (a UTF-8 BOM is kept: offsets are
    /// those on disk).
    #[default]
    Auto,
    /// `none`: no byte-order mark sniffing, no decoding.
    None,
    /// An encoding named by a WHATWG label (`latin1`, `shift_jis`, `utf-16le`…).
    Label(&'static Encoding),
}

impl EncodingChoice {
    /// Parses a `-E` value as ripgrep does: `auto`, `none`, or any label encoding_rs knows
    /// (but `replacement`).
    pub fn parse(label: &str) -> Result<Self, Error> {
        let trimmed = label.trim();
        match trimmed.to_ascii_lowercase().as_str() {
            "auto" => return Ok(EncodingChoice::Auto),
            "none" => return Ok(EncodingChoice::None),
            _ => {}
        }
        Encoding::for_label_no_replacement(trimmed.as_bytes())
            .map(EncodingChoice::Label)
            .ok_or_else(|| {
                Error::new(
                    Code::UnknownEncoding,
                    format!("unknown encoding `{label}` for -E/--encoding"),
                    "pass a WHATWG encoding label such as utf-8, utf-16le, utf-16be, latin1, \
windows-1252, shift_jis, euc-kr or gbk (https://encoding.spec.whatwg.org/#names-and-labels), \
or auto, or none",
                )
            })
    }

    /// The name echoed in the JSON `query` (none for the default).
    pub fn echo(self) -> Option<String> {
        match self {
            EncodingChoice::Auto => None,
            EncodingChoice::None => Some("none".into()),
            EncodingChoice::Label(e) => Some(e.name().to_ascii_lowercase()),
        }
    }
}

/// How one file is to be decoded: with `encoding`, after skipping a byte-order mark of `bom`
/// bytes.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub encoding: &'static Encoding,
    pub bom: usize,
}

impl Plan {
    /// Whether offsets in the decoded text can be mapped back to the file's bytes, in which
    /// lines are then counted at the same `\n` bytes: for encodings where every ASCII byte
    /// is that ASCII character (not UTF-16 or ISO-2022-JP). The results of the others are
    /// marked as not on disk (see `input.rs`).
    pub fn maps_back(&self) -> bool {
        self.encoding.is_ascii_compatible()
    }
}

/// Whether the file whose first bytes are `prefix` (at least 3 of them, or all the file) is
/// decoded, and how, as ripgrep 13 (encoding_rs_io with BOM sniffing and override): a UTF-16
/// BOM wins over any encoding but `none`; a UTF-8 BOM is skipped by an explicit encoding,
/// which decodes what follows it.
pub fn plan(choice: EncodingChoice, prefix: &[u8]) -> Option<Plan> {
    // As encoding_rs_io (rg 13): a file of just a UTF-16 BOM is UTF-16, and empty.
    let bom = (prefix.len() >= 2)
        .then(|| Encoding::for_bom(prefix))
        .flatten();
    match (choice, bom) {
        (EncodingChoice::None, _) => None,
        (_, Some((enc, n))) if enc != UTF_8 => Some(Plan {
            encoding: enc,
            bom: n,
        }),
        (EncodingChoice::Auto, _) => None,
        (EncodingChoice::Label(enc), Some((_, n))) => Some(Plan {
            encoding: enc,
            bom: n,
        }),
        (EncodingChoice::Label(enc), None) => Some(Plan {
            encoding: enc,
            bom: 0,
        }),
    }
}

/// Offsets in a decoded text mapped to offsets in the bytes it was decoded from: anchors
/// `(decoded, original)` where the two stop advancing together (a character whose UTF-8 is
/// not as long as its encoded form), between which an offset maps linearly.
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    anchors: Vec<(usize, usize)>,
    /// The decoded text's length and the original's.
    ends: (usize, usize),
}

impl OffsetMap {
    /// The original offset of decoded offset `d`: exact at every character boundary (a
    /// match's ends); inside a character, its start.
    pub fn original(&self, d: usize) -> usize {
        if d >= self.ends.0 {
            return self.ends.1;
        }
        let i = self.anchors.partition_point(|&(a, _)| a <= d);
        let (ad, ao) = self.anchors[i.saturating_sub(1)];
        let next = self.anchors.get(i).map_or(self.ends.1, |&(_, o)| o);
        (ao + (d - ad)).min(next)
    }

    fn push(&mut self, d: usize, o: usize) {
        if let Some(&(ld, lo)) = self.anchors.last() {
            if lo + (d - ld) == o {
                return;
            }
        }
        self.anchors.push((d, o));
    }
}

/// A file's text decoded to UTF-8, and where its offsets are in the file.
pub struct Decoded {
    pub text: Vec<u8>,
    pub map: OffsetMap,
}

/// Decodes `bytes` as `plan` says, as encoding_rs_io does (malformed sequences become
/// U+FFFD), recording where each character came from. The input is fed one byte at a time:
/// the output each byte completes is that byte's character (or characters: a malformed
/// sequence and the one that showed it), which is what makes the map exact.
pub fn decode(plan: Plan, bytes: &[u8]) -> Decoded {
    let src = &bytes[plan.bom.min(bytes.len())..];
    let mut decoder = plan.encoding.new_decoder_without_bom_handling();
    let mut text = Vec::with_capacity(src.len() + src.len() / 2 + 16);
    let mut map = OffsetMap::default();
    let mut out = [0u8; 64];
    // The first input byte not yet accounted for by output.
    let mut pending = 0;
    let emit = |text: &mut Vec<u8>, map: &mut OffsetMap, got: &[u8], from: usize, to: usize| {
        let chars: Vec<usize> = std::str::from_utf8(got)
            .map(|s| s.char_indices().map(|(i, _)| i).collect())
            .unwrap_or_else(|_| vec![0]);
        for (k, &at) in chars.iter().enumerate() {
            // Several characters from one byte: a malformed sequence (U+FFFD) and the
            // character that ended it, which is the last byte's when it is ASCII.
            let o = if k + 1 == chars.len() && k > 0 && got[at].is_ascii() {
                to - 1
            } else {
                from
            };
            map.push(text.len() + at, o + plan.bom);
        }
        text.extend_from_slice(got);
    };
    for i in 0..=src.len() {
        let last = i == src.len();
        let input = if last { &[][..] } else { &src[i..i + 1] };
        let mut input = input;
        loop {
            let (result, read, written, _) = decoder.decode_to_utf8(input, &mut out, last);
            if written > 0 {
                emit(&mut text, &mut map, &out[..written], pending, i + 1);
                pending = i + 1;
            }
            input = &input[read..];
            if result == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
    }
    map.ends = (text.len(), bytes.len());
    if map.anchors.is_empty() {
        map.anchors.push((0, plan.bom));
    }
    Decoded { text, map }
}

/// What a search of decoded text needs to report its matches where they are in the file:
/// the file's bytes, their lines, and the offset map.
#[derive(Debug)]
pub struct Origin {
    pub bytes: Vec<u8>,
    index: LineIndex,
    map: OffsetMap,
}

impl Origin {
    pub fn new(bytes: Vec<u8>, map: OffsetMap) -> Self {
        let index = LineIndex::new(&bytes);
        Origin { bytes, index, map }
    }

    /// `r` (a match in the decoded text) with its offsets, lines, columns and `span_id` those
    /// of the bytes it was decoded from, in the file spelled `file_path`.
    pub fn remap(&self, r: &MatchRecord, file_path: &str) -> MatchRecord {
        let start = self.map.original(r.byte_start);
        let end = self.map.original(r.byte_end).max(start);
        let (start_line, start_col) = self.index.position(start);
        let (end_line, end_col) = self.index.position(end);
        MatchRecord {
            byte_start: start,
            byte_end: end,
            start_line,
            start_col,
            end_line,
            end_col,
            span_id: SpanIds::new(file_path).digest(start, end),
            ..*r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(enc: &'static Encoding, text: &str) {
        let (bytes, _, _) = enc.encode(text);
        let d = decode(
            Plan {
                encoding: enc,
                bom: 0,
            },
            &bytes,
        );
        assert_eq!(String::from_utf8(d.text.clone()).unwrap(), text);
        // Every character boundary maps to where that character is encoded.
        for (i, c) in text.char_indices() {
            let (before, _, _) = enc.encode(&text[..i]);
            assert_eq!(d.map.original(i), before.len(), "{c:?} at {i} in {text:?}");
        }
        assert_eq!(d.map.original(text.len()), bytes.len());
    }

    #[test]
    fn offsets_map_back_to_the_encoded_bytes() {
        roundtrip(encoding_rs::WINDOWS_1252, "héllo wörld\nfoo é\n");
        roundtrip(encoding_rs::SHIFT_JIS, "日本語 foo\nテスト foo bar\n");
        roundtrip(encoding_rs::EUC_KR, "한국어 foo\n");
        roundtrip(encoding_rs::GBK, "中文 foo 中\n");
    }

    #[test]
    fn malformed_bytes_map_to_themselves() {
        // `\x82` then a space is not Shift_JIS: U+FFFD, then the space at its own byte.
        let d = decode(
            Plan {
                encoding: encoding_rs::SHIFT_JIS,
                bom: 0,
            },
            b"x\x82 foo",
        );
        assert_eq!(d.text, "x\u{FFFD} foo".as_bytes());
        assert_eq!(d.map.original(1), 1, "U+FFFD at the bad byte");
        assert_eq!(d.map.original(4), 2, "the space after U+FFFD");
        assert_eq!(d.map.original(5), 3, "foo");
    }

    #[test]
    fn boms_decide_as_ripgrep() {
        let le = b"\xff\xfea\x00";
        let u8bom = b"\xef\xbb\xbfab";
        let latin1 = EncodingChoice::parse("latin1").unwrap();
        assert!(plan(EncodingChoice::Auto, b"abc").is_none());
        assert!(plan(EncodingChoice::Auto, u8bom).is_none());
        assert_eq!(plan(EncodingChoice::Auto, le).unwrap().bom, 2);
        assert!(plan(EncodingChoice::None, le).is_none());
        let p = plan(latin1, le).unwrap();
        assert_eq!((p.encoding, p.bom), (encoding_rs::UTF_16LE, 2));
        let p = plan(latin1, u8bom).unwrap();
        assert_eq!((p.encoding, p.bom), (encoding_rs::WINDOWS_1252, 3));
        assert!(!plan(EncodingChoice::Auto, le).unwrap().maps_back());
        assert!(EncodingChoice::parse("replacement").is_err());
        assert!(EncodingChoice::parse("bogus").is_err());
        assert_eq!(
            EncodingChoice::parse("Shift_JIS")
                .unwrap()
                .echo()
                .as_deref(),
            Some("shift_jis")
        );
    }
}
