//! JavaScript (and JSX): grammar, file names, the symbol query in `queries/javascript.scm`, and
//! the body of `const f = () => {…}` (TypeScript shares it).

use super::brace::{Lexicon, Quote};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};
use tree_sitter::Node;

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
    fixture: "symbols.js",
    rules: Rules {
        methods_in: &[K::Class],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["comment", "html_comment"],
        attached: &["decorator"],
        wrappers: &["export_statement"],
        identifier_kinds: IDENTIFIERS,
        keywords: super::keywords::JAVASCRIPT,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: Some(|src| super::brace::regions(&LEXICON, src)),
        name_node: None,
        body: Some(body),
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-javascript",
    node_types: tree_sitter_javascript::NODE_TYPES,
    extras: &["comment", "html_comment"],
    cache: Cache::new(),
};

/// Identifier kinds of the JavaScript family (TypeScript adds type identifiers).
pub(super) const IDENTIFIERS: &[&str] = &[
    "identifier",
    "property_identifier",
    "private_property_identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
];

/// The block of a function, method or class; for `const f = () => {…}` (a declaration), the
/// arrow function's or function expression's body.
pub(super) fn body<'t>(_kind: K, node: Node<'t>) -> Option<Node<'t>> {
    if let Some(b) = node.child_by_field_name("body") {
        return Some(b);
    }
    let mut cursor = node.walk();
    let declarator = node
        .named_children(&mut cursor)
        .find(|c| c.kind() == "variable_declarator")?;
    declarator
        .child_by_field_name("value")?
        .child_by_field_name("body")
}

/// JavaScript's (and TypeScript's) text for the shared scanner (`brace`): template literals
/// nest code in `${…}`, a `/` after an operator opens a regular expression, and a declaration
/// (or a decorator) in column 0 begins an item.
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["//"],
    block_comment: ("/*", "*/"),
    nested_comments: false,
    quotes: &[
        Quote {
            open: "\"",
            close: "\"",
            escapes: true,
            multiline: false,
            interpolation: None,
            gap: true,
        },
        Quote {
            open: "'",
            close: "'",
            escapes: true,
            multiline: false,
            interpolation: None,
            gap: true,
        },
        Quote {
            open: "`",
            close: "`",
            escapes: true,
            multiline: true,
            interpolation: Some("${"),
            gap: false,
        },
    ],
    char_or_lifetime: false,
    raw_hash_strings: false,
    regex_literals: true,
    item_starts: &[
        "export",
        "import",
        "function",
        "async",
        "class",
        "abstract",
        "interface",
        "type",
        "declare",
        "const",
        "let",
        "var",
        "enum",
        "namespace",
        "module",
        "@",
    ],
    item_ends: b"});]a\"",
    data_open: b'[',
    data_kinds: &["string", "array"],
    int_suffixes: &["n"],
    newline_ends_values: false,
};
