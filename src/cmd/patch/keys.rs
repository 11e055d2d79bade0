//! `llm patch --rename` where a name is a key as well as a value: JavaScript's shorthand `{ g }`,
//! Rust's `User { name }` in a literal or a pattern, an object's or struct literal's key, a
//! keyword argument's name: what the renamed text is there, and whether a local can capture it.

use crate::lang::symbols::SymbolKind;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// Whether the occurrence at `range` is a plain name that a local binding can hold: an
/// identifier (or JavaScript's shorthand `{ g }`, in an object or a destructuring pattern such
/// as a parameter's `function d({ g })`, but for a field, whose shorthand is its key too) that
/// is not a keyword argument's name.
pub(super) fn bare_name(tree: &Tree, range: Range<usize>, kind: SymbolKind) -> bool {
    let Some(node) = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)
    else {
        return false;
    };
    let keyword = node.parent().is_some_and(|p| {
        p.kind() == "keyword_argument" && p.child_by_field_name("name") == Some(node)
    });
    let shorthand = node
        .parent()
        .is_some_and(|p| p.kind() == "shorthand_field_initializer");
    match node.kind() {
        "identifier" => !(keyword || (shorthand && kind == SymbolKind::Field)),
        "shorthand_property_identifier" | "shorthand_property_identifier_pattern" => {
            kind != SymbolKind::Field
        }
        _ => false,
    }
}

/// The text that renames a shorthand occurrence, where the name is both a key and a value:
/// JavaScript's `{ load }` keeps its key (`{ load: fetchData }`), Rust's `User { name }`
/// renaming the field keeps its value (`User { display_name: name }`). `None`: not one.
pub(super) fn shorthand_text(
    tree: &Tree,
    range: Range<usize>,
    bytes: &[u8],
    old: &str,
    new: &str,
    kind: SymbolKind,
) -> Option<String> {
    let node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    match node.kind() {
        // `module.exports = { g }` names the module's export: it follows the rename (`{ inc }`),
        // as its importers' `require(…)` and `util.g` do.
        "shorthand_property_identifier" if kind != SymbolKind::Field => {
            (!exported(node, bytes)).then(|| format!("{old}: {new}"))
        }
        // A typed literal's or pattern's `{ ready }` renaming the field (`typed::Types::key`): the
        // key moves, the value stays `{ done: ready }`.
        "shorthand_property_identifier" | "shorthand_property_identifier_pattern"
            if kind == SymbolKind::Field =>
        {
            Some(format!("{new}: {old}"))
        }
        "identifier"
            if node
                .parent()
                .is_some_and(|p| p.kind() == "shorthand_field_initializer")
                && kind == SymbolKind::Field =>
        {
            Some(format!("{new}: {old}"))
        }
        // A pattern's `let User { name } = u` binds `name`: `User { full: name }`.
        "shorthand_field_identifier"
            if node.parent().is_some_and(|p| p.kind() == "field_pattern")
                && kind == SymbolKind::Field =>
        {
            Some(format!("{new}: {old}"))
        }
        _ => None,
    }
}

/// Whether the occurrence at `range` is a key naming a field, which no local captures: a struct
/// literal's or pattern's field (Rust `User { name: n }`, `User { name }` renamed `User { full:
/// name }`), an object's key, a keyword argument's name.
pub(super) fn field_key(tree: &Tree, range: Range<usize>) -> bool {
    let Some(node) = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)
    else {
        return false;
    };
    let Some(parent) = node.parent() else {
        return false;
    };
    let is = |field: &str| parent.child_by_field_name(field) == Some(node);
    match parent.kind() {
        "field_initializer" => is("field"),
        "field_pattern" => is("name"),
        "pair" | "pair_pattern" => is("key"),
        "keyword_argument" => is("name"),
        _ => false,
    }
}

/// Where renaming the occurrence at `range` to `new` makes a key and its value the same name
/// (`{ fill: fill2 }` renaming `fill2` back to `fill`; Rust's `User { name2: name }` renaming
/// the field `name2` to `name`): the whole pair, written as its shorthand (`{ fill }`, `User {
/// name }`), as it was before a rename wrote it out. `None`: not such a pair.
pub(super) fn shorthand_again(
    tree: &Tree,
    range: Range<usize>,
    bytes: &[u8],
    new: &str,
) -> Option<Range<usize>> {
    let node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    let pair = node.parent()?;
    let (key, value) = match pair.kind() {
        // JavaScript `{ fill: fill2 }`, `const { fill: fill2 } = o`.
        "pair" | "pair_pattern" => ("key", "value"),
        // Rust `User { name: name2 }`, `let User { name: name2 } = u`.
        "field_initializer" => ("field", "value"),
        "field_pattern" => ("name", "pattern"),
        _ => return None,
    };
    let key = pair.child_by_field_name(key)?;
    let value = pair.child_by_field_name(value)?;
    let plain = |n: Node| {
        matches!(
            n.kind(),
            "property_identifier"
                | "identifier"
                | "field_identifier"
                | "shorthand_field_identifier"
        )
    };
    if !plain(key) || !plain(value) {
        return None;
    }
    let other = if key.byte_range() == range {
        value
    } else if value.byte_range() == range {
        key
    } else {
        return None;
    };
    (&bytes[other.byte_range()] == new.as_bytes()).then(|| pair.byte_range())
}

/// Whether a JavaScript shorthand property is in the object assigned to `module.exports`.
fn exported(node: Node, bytes: &[u8]) -> bool {
    node.parent()
        .filter(|o| o.kind() == "object")
        .and_then(|o| o.parent())
        .filter(|a| a.kind() == "assignment_expression")
        .and_then(|a| a.child_by_field_name("left"))
        .is_some_and(|l| &bytes[l.byte_range()] == b"module.exports")
}
