//! What JavaScript, TypeScript and TSX share beside `queries/ecmascript.scm`: the body of
//! `const f = () => {…}`, the owner of `Foo.prototype.f = …`, their identifier kinds and the
//! text the shared scanner (`brace`) reads.

use super::brace::{Breaks, Join, Lexicon, Quote};
use super::symbols::SymbolKind as K;
use tree_sitter::Node;

/// Identifier kinds of the JavaScript family (TypeScript adds type identifiers).
pub(super) const IDENTIFIERS: &[&str] = &[
    "identifier",
    "property_identifier",
    "private_property_identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
];

/// The block of a function, method or class; for `const f = () => {…}` (a declaration),
/// `Foo.prototype.f = function () {…}` (an assignment) and `{ f: function () {…} }` (a pair),
/// the function value's body.
pub(super) fn body<'t>(_kind: K, node: Node<'t>) -> Option<Node<'t>> {
    if let Some(b) = node.child_by_field_name("body") {
        return Some(b);
    }
    let value = match node.kind() {
        "pair" => node.child_by_field_name("value")?,
        "expression_statement" => node
            .named_child(0)
            .filter(|a| a.kind() == "assignment_expression")?
            .child_by_field_name("right")?,
        // The kinds that hold declarators.
        "lexical_declaration" | "variable_declaration" | "using_declaration" => {
            let mut cursor = node.walk();
            let declarator = node
                .named_children(&mut cursor)
                .find(|c| c.kind() == "variable_declarator")?;
            declarator.child_by_field_name("value")?
        }
        _ => return None,
    };
    value.child_by_field_name("body")
}

/// `Foo.prototype.bar = …` and `Foo.bar = function () {…}` outside any definition: the object
/// they are set on (`Foo`), so the qualified name is `Foo.bar`.
pub(super) fn owner(node: Node, source: &[u8]) -> Option<String> {
    if node.kind() != "expression_statement" {
        return None;
    }
    let left = node.named_child(0)?.child_by_field_name("left")?;
    let mut object = left.child_by_field_name("object")?;
    let text = |n: Node| String::from_utf8_lossy(&source[n.byte_range()]).into_owned();
    if object.kind() == "member_expression"
        && object
            .child_by_field_name("property")
            .is_some_and(|p| text(p) == "prototype")
    {
        object = object.child_by_field_name("object")?;
    }
    Some(text(object)).filter(|o| object.kind() == "identifier" && o != "exports")
}

/// JavaScript's (and TypeScript's) text for the shared scanner (`brace`): template literals
/// nest code in `${…}`, a `/` after an operator opens a regular expression, and a declaration
/// (or a decorator) in column 0 begins an item.
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_comments: false,
    quotes: &[
        Quote::escaped_line("\"", true),
        Quote::escaped_line("'", true),
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
    items: true,
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
    join: Some(Join {
        with: "+",
        breaks: Breaks::Anywhere,
        slots: &[
            "variable_declarator.value",
            "assignment_expression.right",
            "pair.value",
            "arguments",
            "return_statement",
            "binary_expression",
            "parenthesized_expression",
        ],
    }),
    code_prefixes: &[],
    int_suffixes: &["n"],
    newline_ends_values: false,
    comment_cuts: true,
};
