//! C: grammar, extensions and the symbol query in `queries/c.scm` (a `.h` holding C++ is read
//! as C++: see `for_path`). Comments right above a definition are its documentation.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};
use tree_sitter::Node;

/// The C language entry.
pub static C: Language = Language {
    name: "c",
    aliases: &[],
    extensions: &["c", "h"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_c::LANGUAGE.into(),
    symbol_query: include_str!("queries/c.scm"),
    kinds: &[
        K::Function,
        K::Struct,
        K::Union,
        K::Enum,
        K::Variant,
        K::Type,
        K::Macro,
        K::Field,
    ],
    path_separator: "::",
    top_level_gap: 1,
    fixture: "symbols.c",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Adjacent,
        comments: &["comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["identifier", "field_identifier", "type_identifier"],
        keywords: super::keywords::C,
        braced: super::keywords::C_BRACED,
        respelled: super::keywords::C_RESPELLED,
        containers: &[],
        root_kind: "translation_unit",
        walk: None,
        regions: None,
        split: None,
        name_node: None,
        body: Some(body),
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-c",
    node_types: tree_sitter_c::NODE_TYPES,
    extras: &["comment"],
    cache: Cache::new(),
};

/// A definition's body: its `body` field, or, for a function declared by a macro call (see
/// `queries/c.scm`), the block right after the call.
fn body<'t>(_kind: K, node: Node<'t>) -> Option<Node<'t>> {
    match node.kind() {
        "expression_statement" => node
            .next_named_sibling()
            .filter(|b| b.kind() == "compound_statement"),
        _ => node
            .child_by_field_name("body")
            .filter(|b| b.start_byte() > node.start_byte()),
    }
}
