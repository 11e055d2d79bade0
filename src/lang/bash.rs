//! Bash (and sh, zsh scripts): grammar, extensions, shebangs and the symbol query in
//! `queries/bash.scm`. Comments right above a function document it.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The Bash language entry.
pub static BASH: Language = Language {
    name: "bash",
    aliases: &["sh", "shell", "zsh"],
    extensions: &["sh", "bash"],
    file_names: &[],
    shebangs: &["sh", "bash", "zsh", "dash", "ksh"],
    grammar: || tree_sitter_bash::LANGUAGE.into(),
    symbol_query: include_str!("queries/bash.scm"),
    kinds: &[K::Function, K::Constant],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.sh",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Adjacent,
        comments: &["comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["word", "variable_name"],
        keywords: super::keywords::BASH,
        braced: super::keywords::BASH_BRACED,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: Some(super::shell::regions),
        split: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-bash",
    node_types: tree_sitter_bash::NODE_TYPES,
    extras: &["comment"],
    cache: Cache::new(),
};
