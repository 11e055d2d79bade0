//! TypeScript and TSX: two grammars of one crate sharing the symbol query in
//! `queries/typescript.scm` and JavaScript's rules.

use super::ecmascript::{body, owner};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

const KINDS: &[K] = &[
    K::Function,
    K::Method,
    K::Class,
    K::Interface,
    K::Enum,
    K::Variant,
    K::Type,
    K::Module,
    K::Field,
    K::Constant,
];

const IDENTIFIERS: &[&str] = &[
    "identifier",
    "property_identifier",
    "private_property_identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "type_identifier",
];

const fn rules(
    keywords: super::keywords::Table,
    braced: &'static [&'static str],
    respelled: &'static [&'static str],
) -> Rules {
    Rules {
        methods_in: &[K::Class],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["comment", "html_comment"],
        attached: &["decorator"],
        wrappers: &["export_statement", "ambient_declaration"],
        identifier_kinds: IDENTIFIERS,
        keywords,
        braced,
        respelled,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: Some(|src| super::brace::regions(&super::ecmascript::LEXICON, src)),
        split: None,
        name_node: None,
        body: Some(body),
        is_reference: None,
        ref_context: None,
        owner: Some(owner),
    }
}

/// The TypeScript language entry.
pub static TYPESCRIPT: Language = Language {
    name: "typescript",
    aliases: &["ts"],
    extensions: &["ts", "mts", "cts"],
    file_names: &[],
    shebangs: &["ts-node", "deno", "tsx", "bun"],
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    symbol_query: concat!(
        include_str!("queries/typescript.scm"),
        "; The definitions TypeScript shares with JavaScript (ecmascript.scm).\n",
        include_str!("queries/ecmascript.scm")
    ),
    kinds: KINDS,
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.ts",
    rules: rules(
        super::keywords::TYPESCRIPT,
        super::keywords::TYPESCRIPT_BRACED,
        super::keywords::TYPESCRIPT_RESPELLED,
    ),
    grammar_crate: "tree-sitter-typescript/typescript",
    node_types: tree_sitter_typescript::TYPESCRIPT_NODE_TYPES,
    extras: &["comment", "html_comment"],
    cache: Cache::new(),
};

/// The TSX language entry (TypeScript with JSX).
pub static TSX: Language = Language {
    name: "tsx",
    aliases: &[],
    extensions: &["tsx"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
    symbol_query: concat!(
        include_str!("queries/typescript.scm"),
        "; The definitions TypeScript shares with JavaScript (ecmascript.scm).\n",
        include_str!("queries/ecmascript.scm")
    ),
    kinds: KINDS,
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.tsx",
    rules: rules(
        super::keywords::TSX,
        super::keywords::TSX_BRACED,
        super::keywords::TSX_RESPELLED,
    ),
    grammar_crate: "tree-sitter-typescript/tsx",
    node_types: tree_sitter_typescript::TSX_NODE_TYPES,
    extras: &["comment", "html_comment"],
    cache: Cache::new(),
};
