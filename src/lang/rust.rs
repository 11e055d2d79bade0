//! Rust: grammar, extensions, aliases, the symbol query and the rules that attach attributes and
//! doc comments, name impls after their type, and make fns inside impls/traits methods.

use super::symbols::{RefContext, SymbolKind as K};
use super::{Language, Rules};
use std::sync::OnceLock;
use tree_sitter::Node;

/// The Rust language entry.
pub static RUST: Language = Language {
    name: "rust",
    aliases: &["rs"],
    extensions: &["rs"],
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    symbol_query: SYMBOLS,
    kinds: &[
        K::Function,
        K::Method,
        K::Struct,
        K::Union,
        K::Enum,
        K::Variant,
        K::Trait,
        K::Impl,
        K::Type,
        K::Const,
        K::Static,
        K::Module,
        K::Macro,
        K::Field,
    ],
    path_separator: "::",
    fixture: "symbols.rs",
    rules: Rules {
        symbol_node,
        refine_kind,
        name_node,
        attached_start,
        body,
        identifier_kinds: &[
            "identifier",
            "type_identifier",
            "field_identifier",
            "shorthand_field_identifier",
        ],
        is_reference,
        ref_context,
    },
    compiled: OnceLock::new(),
};

const SYMBOLS: &str = r#"
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(union_item name: (type_identifier) @name) @union
(enum_item name: (type_identifier) @name) @enum
(enum_variant name: (identifier) @name) @variant
(trait_item name: (type_identifier) @name) @trait
(impl_item type: (_) @name) @impl
(type_item name: (type_identifier) @name) @type
(associated_type name: (type_identifier) @name) @type
(const_item name: (identifier) @name) @const
(static_item name: (identifier) @name) @static
(mod_item name: (identifier) @name) @module
(macro_definition name: (identifier) @name) @macro
(field_declaration name: (field_identifier) @name) @field
"#;

/// The walk twin of `SYMBOLS`: `(KIND FIELD: (NAME_TYPE) @name) @kind`, pattern by pattern.
fn symbol_node(node: Node) -> Option<(K, Node)> {
    let (kind, field, name_type) = match node.kind() {
        "function_item" | "function_signature_item" => (K::Function, "name", "identifier"),
        "struct_item" => (K::Struct, "name", "type_identifier"),
        "union_item" => (K::Union, "name", "type_identifier"),
        "enum_item" => (K::Enum, "name", "type_identifier"),
        "enum_variant" => (K::Variant, "name", "identifier"),
        "trait_item" => (K::Trait, "name", "type_identifier"),
        "impl_item" => (K::Impl, "type", ""),
        "type_item" | "associated_type" => (K::Type, "name", "type_identifier"),
        "const_item" => (K::Const, "name", "identifier"),
        "static_item" => (K::Static, "name", "identifier"),
        "mod_item" => (K::Module, "name", "identifier"),
        "macro_definition" => (K::Macro, "name", "identifier"),
        "field_declaration" => (K::Field, "name", "field_identifier"),
        _ => return None,
    };
    let name = node.child_by_field_name(field)?;
    (name_type.is_empty() || name.kind() == name_type).then_some((kind, name))
}

fn refine_kind(kind: K, parent: Option<K>) -> K {
    match (kind, parent) {
        (K::Function, Some(K::Impl | K::Trait)) => K::Method,
        _ => kind,
    }
}

/// `impl<T> Trait for a::Type<T>` is named `Type`: descend through generics, paths, references.
fn name_node<'t>(kind: K, node: Node<'t>) -> Node<'t> {
    if kind != K::Impl {
        return node;
    }
    let mut n = node;
    loop {
        let next = match n.kind() {
            "generic_type" | "reference_type" | "pointer_type" => n.child_by_field_name("type"),
            "scoped_type_identifier" => n.child_by_field_name("name"),
            _ => None,
        };
        match next {
            Some(c) => n = c,
            None => return n,
        }
    }
}

/// Outer attributes (`#[...]`) and outer doc comments (`///`, `/** */`) directly before the
/// item, with any plain comments between them; a plain comment alone does not attach.
fn attached_start(node: Node, source: &[u8]) -> usize {
    let mut start = node.start_byte();
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => start = p.start_byte(),
            "line_comment" | "block_comment" => {
                if is_outer_doc(&source[p.byte_range()]) {
                    start = p.start_byte();
                }
            }
            _ => break,
        }
        prev = p.prev_sibling();
    }
    start
}

fn is_outer_doc(text: &[u8]) -> bool {
    (text.starts_with(b"///") && !text.starts_with(b"////"))
        || (text.starts_with(b"/**") && !text.starts_with(b"/***") && text != b"/**/")
}

fn body<'t>(kind: K, node: Node<'t>) -> Option<Node<'t>> {
    match kind {
        K::Function
        | K::Method
        | K::Impl
        | K::Trait
        | K::Module
        | K::Struct
        | K::Union
        | K::Enum => node.child_by_field_name("body"),
        // A macro_rules! body is a list of rules with no node of its own: no body_span.
        _ => None,
    }
}

fn is_reference(node: Node) -> bool {
    !matches!(
        node.parent().map(|p| p.kind()),
        Some("lifetime" | "label" | "loop_label")
    )
}

/// Inside a macro's token tree there is no syntax, only tokens: judge by the neighbours.
fn token_tree_context(node: Node) -> RefContext {
    let prev = node.prev_sibling().map(|p| p.kind());
    let next = node.next_sibling();
    let called = next
        .is_some_and(|n| n.kind() == "token_tree" && n.child(0).is_some_and(|c| c.kind() == "("))
        || next.is_some_and(|n| n.kind() == "!");
    match prev {
        Some(".") if called => RefContext::Call,
        Some(".") => RefContext::Attribute,
        Some("::") => RefContext::Path,
        _ if next.is_some_and(|n| n.kind() == "::") => RefContext::Path,
        _ if called => RefContext::Call,
        _ => RefContext::Identifier,
    }
}

fn ref_context(node: Node) -> RefContext {
    let mut n = node;
    // Climb through the path that contains the identifier to see what it is part of.
    while let Some(p) = n.parent() {
        match p.kind() {
            "use_declaration" => return RefContext::Import,
            "scoped_identifier"
            | "scoped_type_identifier"
            | "scoped_use_list"
            | "use_list"
            | "use_as_clause"
            | "use_wildcard"
            | "generic_type"
            | "generic_function" => n = p,
            _ => break,
        }
    }
    let parent = node.parent();
    if parent.is_some_and(|p| p.kind() == "token_tree") {
        return token_tree_context(node);
    }
    match parent.map(|p| p.kind()) {
        Some("field_expression") if node.kind() == "field_identifier" => {
            if parent
                .and_then(|p| p.parent())
                .is_some_and(|g| g.kind() == "call_expression")
            {
                RefContext::Call
            } else {
                RefContext::Attribute
            }
        }
        Some("macro_invocation") => RefContext::Call,
        Some("scoped_identifier" | "scoped_type_identifier") => RefContext::Path,
        _ if n.parent().is_some_and(|p| {
            p.kind() == "call_expression" && p.child_by_field_name("function") == Some(n)
        }) =>
        {
            RefContext::Call
        }
        _ => RefContext::Identifier,
    }
}
