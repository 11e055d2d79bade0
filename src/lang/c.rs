//! C: grammar, extensions and the symbol query in `queries/c.scm` (a `.h` holding C++ is read
//! as C++: see `for_path`). Comments right above a definition are its documentation.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

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
        containers: &[],
        root_kind: "translation_unit",
        walk: None,
        regions: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-c",
    node_types: tree_sitter_c::NODE_TYPES,
    extras: &["comment"],
    cache: Cache::new(),
};
