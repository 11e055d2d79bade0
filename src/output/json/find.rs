//! `llm find` matches as JSON, written by hand: the fields, order and escapes of `FindItem`'s
//! serde form, byte for byte, without serde's flattened-map machinery (an outline of a big file
//! is thousands of symbols of four spans each).

use super::write_str;
use crate::cmd::find::{FindItem, SymbolMatch};
use crate::lang::Symbol;
use crate::output::put_uint;
use crate::span::Span;

/// Writes one item (a symbol with its children, or a reference).
pub fn item(out: &mut Vec<u8>, item: &FindItem) {
    match item {
        FindItem::Symbol(m) => symbol_match(out, m),
        FindItem::Ref(r) => {
            serde_json::to_writer(out, r).expect("a reference serializes into memory")
        }
    }
}

/// One symbol, its children nested.
fn symbol_match(out: &mut Vec<u8>, m: &SymbolMatch) {
    out.extend_from_slice(b"{\"match_id\":");
    write_str(out, m.match_id.as_bytes());
    symbol(out, &m.symbol);
    if let Some(children) = &m.children {
        out.extend_from_slice(b",\"children\":[");
        for (i, c) in children.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            symbol_match(out, c);
        }
        out.push(b']');
    }
    out.push(b'}');
}

/// A symbol's fields, each after a comma.
fn symbol(out: &mut Vec<u8>, s: &Symbol) {
    out.extend_from_slice(b",\"name\":");
    write_str(out, s.name.as_bytes());
    out.extend_from_slice(b",\"qualified_name\":");
    write_str(out, s.qualified_name.as_bytes());
    out.extend_from_slice(b",\"kind\":\"");
    out.extend_from_slice(s.kind.as_str().as_bytes());
    out.extend_from_slice(b"\",\"parent\":");
    match &s.parent {
        Some(p) => write_str(out, p.as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    if let Some(t) = &s.impl_of {
        out.extend_from_slice(b",\"impl_of\":");
        write_str(out, t.as_bytes());
    }
    out.extend_from_slice(b",\"language\":");
    write_str(out, s.language.as_bytes());
    out.extend_from_slice(b",\"signature\":");
    write_str(out, s.signature.as_bytes());
    out.extend_from_slice(b",\"symbol_id\":");
    write_str(out, s.symbol_id.as_bytes());
    out.extend_from_slice(b",\"span\":");
    span(out, &s.span);
    out.extend_from_slice(b",\"name_span\":");
    span(out, &s.name_span);
    out.extend_from_slice(b",\"body_span\":");
    match &s.body_span {
        Some(b) => span(out, b),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"node_span\":");
    span(out, &s.node_span);
    out.extend_from_slice(b",\"depth\":");
    let mut digits = [0u8; 20];
    let end = put_uint(&mut digits, 0, s.depth);
    out.extend_from_slice(&digits[..end]);
}

/// A span object.
fn span(out: &mut Vec<u8>, s: &Span) {
    out.extend_from_slice(b"{\"span_id\":");
    write_str(out, s.span_id.as_bytes());
    out.extend_from_slice(b",\"file_path\":");
    write_str(out, s.file_path.as_bytes());
    if s.file_path_lossy {
        out.extend_from_slice(b",\"file_path_lossy\":true");
    }
    let numbers = [
        s.byte_start,
        s.byte_end,
        s.start_line,
        s.start_col,
        s.end_line,
        s.end_col,
    ];
    super::span_numbers(out, numbers, b"}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::find::RefMatch;
    use crate::lang::ALL;

    /// Every fixture's symbols, nested as an outline, each also with awkward names and paths:
    /// written by hand, they are serde's bytes.
    #[test]
    fn items_are_serde_json() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut compared = 0;
        for l in ALL {
            let src = std::fs::read(dir.join(l.fixture)).unwrap();
            let tree = l.parse(&src);
            for path in [l.fixture, "dir/\"odd\"\\name\u{1}.x", "bad\u{FFFD}.x"] {
                let mut syms = crate::lang::symbols(l, &src, &tree, path);
                compared += syms.len();
                for (i, s) in syms.iter_mut().enumerate() {
                    if i % 3 == 1 {
                        s.name = format!("a\"b\\c\td\u{7f}é{i}");
                        s.impl_of = Some("T\n".into());
                        s.parent = None;
                    }
                    if i % 4 == 2 {
                        s.body_span = None;
                        s.depth = 123_456_789_012;
                        s.span.byte_end = usize::MAX;
                    }
                    s.span.file_path_lossy = path.contains('\u{FFFD}');
                }
                // Each symbol holds the next two (and no children list every fifth).
                let mut items: Vec<SymbolMatch> = Vec::new();
                for (i, s) in syms.into_iter().enumerate().rev() {
                    let take = items.len().min(2);
                    let children = items.split_off(items.len() - take);
                    items.push(SymbolMatch {
                        match_id: crate::envelope::new_id(),
                        symbol: s,
                        children: (i % 5 != 0).then_some(children),
                    });
                }
                for m in items {
                    let it = FindItem::Symbol(m);
                    let mut ours = Vec::new();
                    item(&mut ours, &it);
                    let theirs = serde_json::to_vec(&it).unwrap();
                    assert_eq!(String::from_utf8(ours), String::from_utf8(theirs), "{path}");
                }
            }
        }
        assert!(compared > 500, "{compared}");
        // A reference goes through serde.
        let src = b"fn f() { f() }\n";
        let rust = crate::lang::by_name("rust").unwrap();
        let tree = rust.parse(src);
        for r in crate::lang::references(rust, src, &tree, "f", "a.rs") {
            let it = FindItem::Ref(RefMatch {
                match_id: crate::envelope::new_id(),
                reference: r,
            });
            let mut ours = Vec::new();
            item(&mut ours, &it);
            assert_eq!(ours, serde_json::to_vec(&it).unwrap());
        }
    }
}
