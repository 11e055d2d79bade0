//! PHP: grammar (PHP with its surrounding HTML), extension and the symbol query in
//! `queries/php.scm`. Attributes (`#[Route]`) are part of a declaration; `/** */` right above
//! documents it.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The PHP language entry.
pub static PHP: Language = Language {
    name: "php",
    aliases: &[],
    extensions: &["php"],
    file_names: &[],
    shebangs: &["php"],
    grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
    symbol_query: include_str!("queries/php.scm"),
    kinds: &[
        K::Function,
        K::Method,
        K::Class,
        K::Interface,
        K::Trait,
        K::Enum,
        K::Variant,
        K::Module,
        K::Const,
        K::Field,
    ],
    path_separator: "::",
    top_level_gap: 1,
    fixture: "symbols.php",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["name"],
        keywords: super::keywords::PHP,
        braced: super::keywords::PHP_BRACED,
        respelled: super::keywords::PHP_RESPELLED,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: None,
        split: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-php/php",
    node_types: tree_sitter_php::PHP_NODE_TYPES,
    extras: &["comment", "text_interpolation"],
    cache: Cache::new(),
};
