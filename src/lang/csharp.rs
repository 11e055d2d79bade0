//! C#: grammar, extension and the symbol query in `queries/csharp.scm`. Attributes
//! (`[Serializable]`) and modifiers are part of a declaration; `///` comments right above are
//! its documentation.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The C# language entry.
pub static CSHARP: Language = Language {
    name: "csharp",
    aliases: &["cs", "c#"],
    extensions: &["cs"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
    symbol_query: include_str!("queries/csharp.scm"),
    kinds: &[
        K::Method,
        K::Class,
        K::Struct,
        K::Interface,
        K::Enum,
        K::Variant,
        K::Type,
        K::Module,
        K::Constructor,
        K::Field,
    ],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.cs",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Prefixed(&["///", "/**"]),
        comments: &["comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["identifier"],
        keywords: super::keywords::CSHARP,
        braced: super::keywords::CSHARP_BRACED,
        respelled: super::keywords::CSHARP_RESPELLED,
        containers: &[],
        root_kind: "compilation_unit",
        walk: None,
        regions: None,
        split: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-c-sharp",
    node_types: tree_sitter_c_sharp::NODE_TYPES,
    extras: &[
        "comment",
        "preproc_define",
        "preproc_endregion",
        "preproc_error",
        "preproc_line",
        "preproc_nullable",
        "preproc_pragma",
        "preproc_region",
        "preproc_undef",
        "preproc_warning",
    ],
    cache: Cache::new(),
};
