//! `llm search` matches as JSON, written by the search's workers straight from a file's bytes
//! and match records: the fields, order and escapes of `SearchMatch`'s serde form, byte for
//! byte, without building any string first.

use super::{write_lossy_str, write_str};
use crate::cmd::search::{FileMatches, MatchRecord};
use crate::span::hex_into;

/// How matches are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Members of `data.matches`: objects separated by commas.
    Array,
    /// JSON lines: `{"type":"match",…}` and a newline each.
    Lines,
}

/// Writes every match of one file.
/// `path_lossy`: `file_path` is a lossy spelling (the span says so with `file_path_lossy`).
pub fn matches(
    out: &mut Vec<u8>,
    file_path: &str,
    path_lossy: bool,
    m: &FileMatches<'_>,
    layout: Layout,
) {
    // The path is the same in every span: escaped once, with the flag that follows it.
    let mut path = Vec::with_capacity(file_path.len() + 2);
    write_str(&mut path, file_path.as_bytes());
    if path_lossy {
        path.extend_from_slice(b",\"file_path_lossy\":true");
    }
    // Room for all of it at once (unless there is much to escape or context to show): a
    // buffer grown by doubling copies its bytes each time into fresh pages.
    let need: usize = m.records.iter().map(|r| room(&path, m, r)).sum();
    out.reserve(need);
    for (i, r) in m.records.iter().enumerate() {
        match layout {
            Layout::Array if i > 0 => out.push(b','),
            _ => {}
        }
        let open: &[u8] = match layout {
            Layout::Array => b"{",
            Layout::Lines => b"{\"type\":\"match\",",
        };
        out.extend_from_slice(open);
        // Decoded text (`-E`): the span is where the match is in the file on disk.
        let shown = m.origin.map(|o| o.remap(r, file_path));
        one(out, &path, m, i, r, shown.as_ref().unwrap_or(r));
        if layout == Layout::Lines {
            out.push(b'\n');
        }
    }
}

/// About what one match takes when nothing needs escaping and there is no context.
fn room(path: &[u8], m: &FileMatches<'_>, r: &MatchRecord) -> usize {
    const KEYS_IDS_NUMBERS: usize = 300;
    KEYS_IDS_NUMBERS + path.len() + m.line_text(r).len() + (r.byte_end - r.byte_start)
}

/// One match's fields and its closing brace. The fixed-size parts (ids, keys, numbers) are
/// put together on the stack and appended in two copies.
/// `pos` gives the span's numbers and id (`r` itself, or where `r` is in the file on disk).
fn one(
    out: &mut Vec<u8>,
    path: &[u8],
    m: &FileMatches<'_>,
    i: usize,
    r: &MatchRecord,
    pos: &MatchRecord,
) {
    const HEAD: &[u8] = b"\"match_id\":\"00000000-0000-0000-0000-000000000000\",\"span\":{\"span_id\":\"0000000000000000\",\"file_path\":";
    const UUID_AT: usize = 12;
    const SPAN_ID_AT: usize = UUID_AT + 36 + 21;
    let line = m.line_text(r);
    out.reserve(room(path, m, r));
    let mut head = [0u8; HEAD.len()];
    head.copy_from_slice(HEAD);
    r.match_id
        .hyphenated()
        .encode_lower(&mut head[UUID_AT..UUID_AT + 36]);
    hex_into(&pos.span_id, &mut head[SPAN_ID_AT..SPAN_ID_AT + 16]);
    out.extend_from_slice(&head);
    out.extend_from_slice(path);
    let numbers = [
        pos.byte_start,
        pos.byte_end,
        pos.start_line,
        pos.start_col,
        pos.end_line,
        pos.end_col,
    ];
    super::span_numbers(out, numbers, b"},\"matched_text\":");
    let (matched, valid) = m.matched(r);
    write_lossy_str(out, matched, valid);
    out.extend_from_slice(b",\"line_text\":");
    write_lossy_str(out, line, m.utf8);
    if m.before_context == 0 && m.after_context == 0 && !m.passthru {
        out.extend_from_slice(b",\"context_before\":[],\"context_after\":[]");
    } else {
        out.extend_from_slice(b",\"context_before\":");
        lines(out, m.context_before(r), m.utf8);
        out.extend_from_slice(b",\"context_after\":");
        lines(out, m.context_after(r), m.utf8);
    }
    if let Some(replacement) = m.replacement(i) {
        out.extend_from_slice(b",\"replacement\":");
        let valid = std::str::from_utf8(replacement).is_ok();
        write_lossy_str(out, replacement, valid);
    }
    out.push(b'}');
}

/// An array of line texts.
fn lines<'a>(out: &mut Vec<u8>, texts: impl Iterator<Item = &'a [u8]>, valid: bool) {
    out.push(b'[');
    for (i, t) in texts.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_lossy_str(out, t, valid);
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::search::{records, set_ids};

    /// Renders every match of `pattern` in `text` both ways: hand-written, and serde over the
    /// owned matches. They must be the same bytes.
    fn same_as_serde(text: &[u8], pattern: &str, before: usize, after: usize, replace: bool) {
        for path in ["dir/\"odd\" name\\.rs", "dir/bad\u{FFFD}.rs"] {
            same_as_serde_at(path, text, pattern, before, after, replace);
        }
    }

    fn same_as_serde_at(
        path: &str,
        text: &[u8],
        pattern: &str,
        before: usize,
        after: usize,
        replace: bool,
    ) {
        let re = regex::bytes::Regex::new(pattern).unwrap();
        let ranges: Vec<_> = re.find_iter(text).map(|m| m.range()).collect();
        assert!(!ranges.is_empty(), "{pattern} in {text:?}");
        let mut recs = Vec::new();
        records(text, &ranges, &mut recs);
        set_ids(&mut recs, path);
        let replacements: Vec<Vec<u8>> = if replace {
            (0..recs.len())
                .map(|i| format!("r\"{i}\n").into_bytes())
                .collect()
        } else {
            Vec::new()
        };
        let m = FileMatches {
            bytes: text,
            records: &recs,
            utf8: std::str::from_utf8(text).is_ok(),
            replacements: &replacements,
            before_context: before,
            after_context: after,
            line_hits: &[],
            chunk: Default::default(),
            origin: None,
            // `usize::MAX` lines of context before: `--passthru` (see `cmd/search/passthru.rs`).
            passthru: before == usize::MAX,
            stopped: false,
        };
        let owned = m.to_matches(Some(path));
        let mut want = Vec::new();
        let mut want_lines = Vec::new();
        for (i, o) in owned.iter().enumerate() {
            if i > 0 {
                want.push(b',');
            }
            serde_json::to_writer(&mut want, o).unwrap();
            crate::output::json::tagged_line(&mut want_lines, "match", o).unwrap();
        }
        let mut got = Vec::new();
        let lossy = crate::span::path_is_lossy(path);
        assert_eq!(lossy, path.contains('\u{FFFD}'));
        matches(&mut got, path, lossy, &m, Layout::Array);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
        let mut got = Vec::new();
        matches(&mut got, path, lossy, &m, Layout::Lines);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want_lines)
        );
    }

    #[test]
    fn hand_written_json_is_serde_json() {
        let crlf = b"fn main() {\r\n    let self_x = 1; // self\r\n}\r\n";
        let awkward =
            "x = \"self \\\" q\" \\ b\tself \u{1}\u{1f}\u{7f}\n# \u{2028} self é 😀 self\n";
        let latin = b"caf\xe9 self latin\nself \xff\xfe\n\nlast self";
        for (text, pattern) in [
            (&crlf[..], "self"),
            (&crlf[..], "(?m)\\}\\r?$"),
            (awkward.as_bytes(), "self"),
            (awkward.as_bytes(), "(?-u:\\xa9)"),
            (&latin[..], "self"),
            (&latin[..], "(?-u:\\xe9)"),
            (&latin[..], "(?s)latin.self"),
            (&latin[..], "\\n\\n"),
        ] {
            for (before, after) in [(0, 0), (1, 2), (5, 5), (usize::MAX, 0)] {
                same_as_serde(text, pattern, before, after, false);
                same_as_serde(text, pattern, before, after, true);
            }
        }
    }
}
