//! JavaScript (and JSX): grammar, file names and the symbol query in `queries/javascript.scm`;
//! what it shares with TypeScript and TSX is in `ecmascript.rs`.

use super::ecmascript::{body, owner, IDENTIFIERS, LEXICON};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The JavaScript language entry.
pub static JAVASCRIPT: Language = Language {
    name: "javascript",
    aliases: &["js", "jsx", "node"],
    extensions: &["js", "mjs", "cjs", "jsx"],
    file_names: &[],
    shebangs: &["node", "nodejs"],
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    symbol_query: concat!(
        include_str!("queries/javascript.scm"),
        include_str!("queries/ecmascript.scm")
    ),
    kinds: &[K::Function, K::Method, K::Class, K::Field, K::Constant],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.js",
    rules: Rules {
        methods_in: &[K::Class],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["comment", "html_comment"],
        attached: &["decorator"],
        wrappers: &["export_statement"],
        identifier_kinds: IDENTIFIERS,
        keywords: super::keywords::JAVASCRIPT,
        braced: super::keywords::JAVASCRIPT_BRACED,
        respelled: super::keywords::JAVASCRIPT_RESPELLED,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: Some(|src| super::brace::regions(&LEXICON, src)),
        split: None,
        name_node: None,
        body: Some(body),
        is_reference: None,
        ref_context: None,
        owner: Some(owner),
    },
    grammar_crate: "tree-sitter-javascript",
    node_types: tree_sitter_javascript::NODE_TYPES,
    extras: &["comment", "html_comment"],
    cache: Cache::new(),
};
