//! `--delete` of one of several names one declaration declares (`int a, b;`, Go's `var a, b =
//! 1, 2`): that name's declarator and its comma go, the declaration and its other names stay
//! (`int a;`, `var a = 1`). It was refused (`PATCH_E011`) where the declaration stays valid
//! without it; it still is where it would not (Go's `a, b = f()`, whose values one call gives;
//! Python's `a = b = 1`), and the syntax gate judges the rest.

use crate::edit::Edit;
use crate::lang::symbols::Symbol;
use crate::lang::Language;
use std::ops::Range;
use tree_sitter::Node;

/// The edits that delete only `s`'s name from its declaration, or `None` where the syntax
/// does not show it as one item of a comma-separated list.
pub(super) fn one_name(src: &[u8], s: &Symbol, language: &Language) -> Option<Vec<Edit>> {
    // Only the items that hold the declaration are parsed, as for any delete.
    let tree = super::delete::items_tree(src, s.span.range(), language);
    let name = tree
        .root_node()
        .descendant_for_byte_range(s.name_span.byte_start, s.name_span.byte_end)?;
    if name.byte_range() != s.name_span.range() {
        return None;
    }
    let mut edits = match name.parent()?.kind() {
        "var_spec" | "const_spec" => go_spec(name)?,
        _ => vec![list_item(declarator(name, s)?)?],
    };
    edits.sort_by_key(|r| r.start);
    Some(edits.into_iter().map(|r| Edit::new(r, "")).collect())
}

/// Declarations whose comma-separated children are declarators, each standing alone (not a
/// pattern: Python's `READ, WRITE = 1, 2` or JavaScript's `[a, b] = arr` unpack by position,
/// and `READ = 1, 2` made `READ` a tuple).
const DECLARATIONS: [&str; 6] = [
    "declaration",
    "field_declaration",
    "local_variable_declaration",
    "variable_declaration",
    "lexical_declaration",
    "property_declaration",
];

/// The declarator that holds the name (`b`, `b = 2`, `*b`, `b[3]`): the outermost node under
/// the declaration that has a `,` beside it, when that declaration is one of [`DECLARATIONS`].
fn declarator<'t>(name: Node<'t>, s: &Symbol) -> Option<Node<'t>> {
    let decl = s.node_span.range();
    let mut n = name;
    loop {
        let parent = n.parent()?;
        if !(parent.start_byte() >= decl.start && parent.end_byte() <= decl.end) {
            return None;
        }
        if comma(n.next_sibling()) || comma(n.prev_sibling()) {
            return DECLARATIONS.contains(&parent.kind()).then_some(n);
        }
        n = parent;
    }
}

fn comma(n: Option<Node>) -> bool {
    n.is_some_and(|n| !n.is_named() && n.kind() == ",")
}

/// `item` and its comma: the one after it and the spaces after that (`a, b` loses `a, `), or
/// for the last item the one before it and the spaces before that (`a, b` loses `, b`).
fn list_item(item: Node) -> Option<Range<usize>> {
    if let Some(next) = item.next_sibling().filter(|n| comma(Some(*n))) {
        let end = next
            .next_sibling()
            .map_or(next.end_byte(), |n| n.start_byte());
        return Some(item.start_byte()..end);
    }
    let prev = item.prev_sibling().filter(|n| comma(Some(*n)))?;
    let start = prev
        .prev_sibling()
        .map_or(prev.start_byte(), |n| n.end_byte());
    Some(start..item.end_byte())
}

/// Go's `var a, b = 1, 2` (a `const` too): the name and the value at its place. `None` when
/// the values are not one per name (`a, b = f()`), or there is one name.
fn go_spec(name: Node) -> Option<Vec<Range<usize>>> {
    let spec = name.parent()?;
    let mut c = spec.walk();
    let names: Vec<Node> = spec.children_by_field_name("name", &mut c).collect();
    let k = names.iter().position(|n| n.id() == name.id())?;
    if names.len() < 2 {
        return None;
    }
    let mut out = vec![list_item(name)?];
    if let Some(values) = spec.child_by_field_name("value") {
        let mut c = values.walk();
        let values: Vec<Node> = values.named_children(&mut c).collect();
        if values.len() != names.len() {
            return None;
        }
        out.push(list_item(values[k])?);
    }
    Some(out)
}
