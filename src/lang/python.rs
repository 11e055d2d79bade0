//! Python: grammar, extensions, aliases, the symbol query and the rules that attach decorators
//! and make defs inside classes methods.

use super::symbols::{RefContext, SymbolKind as K};
use super::{Language, Rules};
use std::sync::OnceLock;
use tree_sitter::Node;

/// The Python language entry.
pub static PYTHON: Language = Language {
    name: "python",
    aliases: &["py", "python3"],
    extensions: &["py", "pyi"],
    grammar: || tree_sitter_python::LANGUAGE.into(),
    symbol_query: SYMBOLS,
    kinds: &[K::Function, K::Method, K::Class, K::Constant, K::Field],
    path_separator: ".",
    fixture: "symbols.py",
    rules: Rules {
        symbol_node,
        refine_kind,
        name_node: |_, n| n,
        attached_start,
        body,
        identifier_kinds: &["identifier"],
        is_reference: |_| true,
        ref_context,
    },
    compiled: OnceLock::new(),
};

/// Functions (async too), classes, and plain `NAME = …` / `NAME: T = …` assignments at module
/// level (constants) and directly in a class body (fields).
const SYMBOLS: &str = r#"
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class
(module (expression_statement (assignment left: (identifier) @name)) @constant)
(class_definition body: (block (expression_statement (assignment left: (identifier) @name)) @field))
"#;

/// The walk twin of `SYMBOLS`, pattern by pattern.
fn symbol_node(node: Node) -> Option<(K, Node)> {
    match node.kind() {
        "function_definition" | "class_definition" => {
            let name = node
                .child_by_field_name("name")
                .filter(|n| n.kind() == "identifier")?;
            let kind = if node.kind() == "class_definition" {
                K::Class
            } else {
                K::Function
            };
            Some((kind, name))
        }
        "expression_statement" => {
            let parent = node.parent()?;
            let kind = match parent.kind() {
                "module" => K::Constant,
                "block" => {
                    let class = parent.parent().filter(|c| c.kind() == "class_definition")?;
                    let body = class.child_by_field_name("body")?;
                    if body.id() != parent.id() {
                        return None;
                    }
                    K::Field
                }
                _ => return None,
            };
            let mut cursor = node.walk();
            let name = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "assignment")
                .find_map(|a| {
                    a.child_by_field_name("left")
                        .filter(|l| l.kind() == "identifier")
                })?;
            Some((kind, name))
        }
        _ => None,
    }
}

fn refine_kind(kind: K, parent: Option<K>) -> K {
    match (kind, parent) {
        (K::Function, Some(K::Class)) => K::Method,
        _ => kind,
    }
}

/// Decorators belong to the definition (`decorated_definition` wraps them).
fn attached_start(node: Node, _source: &[u8]) -> usize {
    match node.parent() {
        Some(p) if p.kind() == "decorated_definition" => p.start_byte(),
        _ => node.start_byte(),
    }
}

fn body<'t>(kind: K, node: Node<'t>) -> Option<Node<'t>> {
    match kind {
        K::Function | K::Method | K::Class => node.child_by_field_name("body"),
        _ => None,
    }
}

fn ref_context(node: Node) -> RefContext {
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "import_statement" | "import_from_statement" | "future_import_statement" => {
                return RefContext::Import
            }
            "dotted_name" | "aliased_import" => n = p,
            _ => break,
        }
    }
    let parent = node.parent();
    match parent.map(|p| p.kind()) {
        Some("attribute")
            if parent.and_then(|p| p.child_by_field_name("attribute")) == Some(node) =>
        {
            if parent
                .and_then(|p| p.parent())
                .is_some_and(|g| g.kind() == "call" && g.child_by_field_name("function") == parent)
            {
                RefContext::Call
            } else {
                RefContext::Attribute
            }
        }
        Some("call") if parent.and_then(|p| p.child_by_field_name("function")) == Some(node) => {
            RefContext::Call
        }
        Some("keyword_argument") => RefContext::Keyword,
        _ => RefContext::Identifier,
    }
}
