//! Java: grammar, extension and the symbol query in `queries/java.scm`. Annotations are part of
//! a declaration's `modifiers`; Javadoc (`/** … */`) right above belongs to its span.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The Java language entry.
pub static JAVA: Language = Language {
    name: "java",
    aliases: &[],
    extensions: &["java"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_java::LANGUAGE.into(),
    symbol_query: include_str!("queries/java.scm"),
    kinds: &[
        K::Method,
        K::Class,
        K::Interface,
        K::Enum,
        K::Variant,
        K::Constructor,
        K::Field,
        K::Constant,
    ],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "Symbols.java",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["line_comment", "block_comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["identifier", "type_identifier"],
        keywords: super::keywords::JAVA,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-java",
    node_types: tree_sitter_java::NODE_TYPES,
    extras: &["line_comment", "block_comment"],
    cache: Cache::new(),
};
