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
        respelled: super::keywords::BASH_RESPELLED,
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

/// The compound commands of a Bash tree whose body holds no command (a comment is none):
/// `{ }`, `( )`, `then` … `fi`/`elif`/`else`, `else` … `fi`, `do` … `done`. Bash rejects each
/// ("syntax error near unexpected token"), but tree-sitter reads them without an error node.
/// Each with its range and what it is. (An empty `case` arm, `a) ;;`, is valid.)
pub fn empty_bodies(tree: &tree_sitter::Tree) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let what = match n.kind() {
            "compound_statement" => Some(("`{ … }`", None)),
            "subshell" => Some(("`( … )`", None)),
            "do_group" => Some(("`do … done`", None)),
            "if_statement" => Some(("`then` branch", Some("then"))),
            "elif_clause" => Some(("`elif … then` branch", Some("then"))),
            "else_clause" => Some(("`else` branch", None)),
            _ => None,
        };
        if let Some((what, after)) = what {
            let mut c = n.walk();
            let mut counting = after.is_none();
            let mut commands = 0;
            for k in n.children(&mut c) {
                if !k.is_named() {
                    counting |= Some(k.kind()) == after;
                    continue;
                }
                let branch = matches!(k.kind(), "elif_clause" | "else_clause");
                if counting && !branch && k.kind() != "comment" {
                    commands += 1;
                }
            }
            // A tree with an error here says so already.
            if commands == 0 && !n.has_error() {
                out.push((n.start_byte()..n.end_byte(), what));
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out.sort_by_key(|(r, _)| r.start);
    out
}
