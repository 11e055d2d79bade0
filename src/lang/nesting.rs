//! The symbols of a file's prepared definitions nested into their parents, in file order,
//! and numbered: each gets its stable `symbol_id`.

use super::symbols::{self, refine_kind, symbol_name, Prepared, Symbol, SymbolKind};
use super::Language;
use std::collections::HashMap;
use tree_sitter::Node;

/// The symbols of prepared definitions (those of one tree, or of each part of a file, each
/// in file order): in file order, nested, named and given their ids.
pub(super) fn finish(
    lang: &Language,
    source: &[u8],
    file_path: &str,
    parts: Vec<Vec<Prepared>>,
) -> Vec<Symbol> {
    let mut syms = nested(lang, source, parts);
    number(&mut syms, file_path, &mut Seen::new());
    syms
}

/// How many symbols of each qualified name and kind come before (see [`number`]).
pub(super) type Seen = HashMap<(String, SymbolKind), usize>;

/// The symbols of prepared definitions, as [`finish`] gives them but for their ids (left
/// empty: see [`number`]).
pub(super) fn nested(lang: &Language, source: &[u8], parts: Vec<Vec<Prepared>>) -> Vec<Symbol> {
    let count = parts.iter().map(Vec::len).sum();
    // The parts merged (a part's definitions lie between another's when it is a block cut
    // out of it); on a tie the earlier part's first, as a stable sort of them all would give.
    let mut parts: Vec<_> = parts
        .into_iter()
        .map(|p| p.into_iter().peekable())
        .collect();
    let defs = std::iter::from_fn(|| {
        let next = (parts.iter_mut().enumerate())
            .filter_map(|(i, p)| Some((p.peek()?.order, i)))
            .min()?;
        parts[next.1].next()
    });
    let mut out: Vec<Symbol> = Vec::with_capacity(count);
    let mut stack: Vec<usize> = Vec::new();
    // The last definition taken: the next one with its node and name is the same one.
    let mut last: Option<(Node, Node)> = None;
    for d in defs {
        if last == Some((d.node, d.name_node)) {
            continue;
        }
        last = Some((d.node, d.name_node));
        let node = d.node;
        while let Some(&top) = stack.last() {
            let t = &out[top].node_span;
            // Names of one node (`c, d = 2, 3`) are siblings.
            let same = t.byte_start == node.start_byte() && t.byte_end == d.end;
            if t.byte_end >= d.end && !same {
                break;
            }
            stack.pop();
        }
        let parent_index = stack.last().copied();
        let parent = parent_index.map(|i| &out[i]);
        let kind = refine_kind(lang, d.kind, parent.map(|p| p.kind));
        let name = d.name;
        // A definition outside its type (Go method, C++ `A::f`) names it as its owner; inside
        // a namespace or module, the owner is that module's (C++ `namespace ns { int A::f() }`
        // is `ns::A::f`), unless it starts from the global scope (`::A::f`).
        let sep = lang.path_separator;
        let owner = match (parent, lang.rules.owner) {
            (None, Some(f)) => f(node, source),
            (Some(p), Some(f)) if p.kind == SymbolKind::Module => {
                f(node, source).map(|o| match o.strip_prefix(sep) {
                    Some(global) => global.to_string(),
                    None => format!("{}{sep}{o}", p.qualified_name),
                })
            }
            _ => None,
        }
        .map(|o| o.strip_prefix(sep).map(str::to_string).unwrap_or(o))
        .filter(|o| !o.is_empty());
        let qualified_name = match (parent, &owner) {
            (_, Some(o)) => format!("{o}{sep}{name}"),
            (Some(p), None) => format!("{}{sep}{}", p.qualified_name, name),
            (None, None) => name.clone(),
        };
        let impl_of = match (kind, parent) {
            (SymbolKind::Impl, _) => node
                .child_by_field_name("trait")
                .map(|t| symbol_name(&source[symbols::name_node(lang, kind, t).byte_range()])),
            (_, Some(p)) if p.kind == SymbolKind::Impl => p.impl_of.clone(),
            _ => None,
        };
        out.push(Symbol {
            parent: match owner.as_deref() {
                Some(o) => Some(o.rsplit(sep).next().unwrap_or(o).to_string()),
                None => parent.map(|p| p.name.clone()),
            },
            parent_qualified: owner.or_else(|| parent.map(|p| p.qualified_name.clone())),
            impl_of,
            depth: stack.len(),
            name,
            qualified_name,
            kind,
            language: lang.name,
            signature: d.signature,
            symbol_id: String::new(),
            span: d.span,
            name_span: d.name_span,
            body_span: d.body_span,
            node_span: d.node_span,
            parent_index,
            singleton: lang.name == "ruby" && super::ruby::singleton(node),
        });
        stack.push(out.len() - 1);
    }
    out
}

/// Gives `syms` (in file order, after the symbols `seen` counts) their ids: same-named
/// symbols of one kind are numbered in file order (see [`symbol_id`]).
pub(super) fn number(syms: &mut [Symbol], file_path: &str, seen: &mut Seen) {
    let ids = SymbolIds::new(file_path);
    seen.reserve(syms.len());
    for s in syms {
        let n = seen.entry((s.qualified_name.clone(), s.kind)).or_insert(0);
        *n += 1;
        s.symbol_id = ids.id(&s.qualified_name, s.kind, *n);
    }
}

/// The stable symbol id: first 8 bytes of SHA-256(path ‖ `\0` ‖ qualified name ‖ `\0` ‖ kind
/// [‖ `#n` for the n-th same-named symbol, n ≥ 2]) as 16 hex digits.
pub fn symbol_id(file_path: &str, qualified_name: &str, kind: SymbolKind, n: usize) -> String {
    SymbolIds::new(file_path).id(qualified_name, kind, n)
}

/// [`symbol_id`]s of one file: the path is hashed once.
struct SymbolIds(crate::hash::Prefixed);

impl SymbolIds {
    fn new(file_path: &str) -> SymbolIds {
        SymbolIds(crate::hash::Prefixed::new(
            &[file_path.as_bytes(), b"\0"].concat(),
        ))
    }

    fn id(&self, qualified_name: &str, kind: SymbolKind, n: usize) -> String {
        let nth = if n > 1 {
            format!("#{n}")
        } else {
            String::new()
        };
        let parts: [&[u8]; 4] = [
            qualified_name.as_bytes(),
            b"\0",
            kind.as_str().as_bytes(),
            nth.as_bytes(),
        ];
        crate::span::hex(&self.0.digest8(&parts))
    }
}
