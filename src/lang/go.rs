//! Go: grammar, extensions and the symbol query in `queries/go.scm`. A method is named after
//! its receiver's type (`Buffer.Write`), which is its parent though it is declared outside it.

use super::brace::{Breaks, Join, Lexicon, Quote};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};
use tree_sitter::Node;

/// The Go language entry.
pub static GO: Language = Language {
    name: "go",
    aliases: &["golang"],
    extensions: &["go"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_go::LANGUAGE.into(),
    symbol_query: include_str!("queries/go.scm"),
    kinds: &[
        K::Function,
        K::Method,
        K::Struct,
        K::Interface,
        K::Type,
        K::Const,
        K::Static,
        K::Field,
    ],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "symbols.go",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Adjacent,
        comments: &["comment"],
        attached: &[],
        wrappers: &[
            "type_declaration",
            "const_declaration",
            "var_declaration",
            "var_spec_list",
        ],
        identifier_kinds: &[
            "identifier",
            "field_identifier",
            "type_identifier",
            "package_identifier",
        ],
        keywords: super::keywords::GO,
        braced: super::keywords::GO_BRACED,
        respelled: super::keywords::GO_RESPELLED,
        containers: &[],
        root_kind: "source_file",
        walk: None,
        regions: Some(|src| super::brace::regions(&LEXICON, src)),
        split: None,
        name_node: None,
        // `type T struct {…}`: the struct's braces.
        body: Some(|_, node| {
            node.child_by_field_name("body").or_else(|| {
                let t = node.child_by_field_name("type")?;
                (t.kind() == "struct_type")
                    .then(|| t.named_child(0))
                    .flatten()
            })
        }),
        is_reference: None,
        ref_context: None,
        owner: Some(receiver_type),
    },
    grammar_crate: "tree-sitter-go",
    node_types: tree_sitter_go::NODE_TYPES,
    extras: &["comment"],
    cache: Cache::new(),
};

/// `func (s *Store) Get()`: the receiver's type name (`Store`), through pointers and type
/// arguments.
fn receiver_type(node: Node, source: &[u8]) -> Option<String> {
    let receiver = node.child_by_field_name("receiver")?;
    let mut c = receiver.walk();
    let param = receiver
        .named_children(&mut c)
        .find(|p| p.kind() == "parameter_declaration")?;
    let mut t = param.child_by_field_name("type")?;
    loop {
        match t.kind() {
            "pointer_type" => t = t.named_child(0)?,
            "generic_type" => t = t.child_by_field_name("type")?,
            "type_identifier" => {
                return Some(String::from_utf8_lossy(&source[t.byte_range()]).into())
            }
            _ => return None,
        }
    }
}

/// Go's text for the shared scanner (`brace`): items begin with a declaration keyword in
/// column 0; a line break after a value ends a statement.
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_comments: false,
    quotes: &[
        Quote::escaped_line("\"", true),
        Quote {
            open: "`",
            close: "`",
            escapes: false,
            multiline: true,
            interpolation: None,
            gap: true,
        },
        Quote::escaped_line("'", false),
    ],
    char_or_lifetime: false,
    raw_hash_strings: false,
    regex_literals: false,
    items: true,
    item_starts: &["func", "type", "var", "const", "import", "package"],
    item_ends: b"});]a\"",
    data_open: b'{',
    data_kinds: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "literal_value",
    ],
    join: Some(Join {
        with: "+",
        breaks: Breaks::AfterJoiner,
        slots: &[
            "expression_list",
            "argument_list",
            "literal_element",
            "binary_expression",
            "parenthesized_expression",
            "type_conversion_expression.operand",
        ],
    }),
    code_prefixes: &[],
    int_suffixes: &[],
    newline_ends_values: true,
    comment_cuts: false,
};

/// The constant specs of a Go tree that Go rejects and tree-sitter reads without an error: one
/// without a value that the spec before it cannot give one (the first of its group, `const (
/// B )`, or a lone `const D`), or that has a type (`B int`). `gofmt`: "missing constant value".
/// Each with its range and what it is.
pub fn valueless_consts(tree: &tree_sitter::Tree) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "const_declaration" {
            let mut c = n.walk();
            let specs = n
                .named_children(&mut c)
                .filter(|k| k.kind() == "const_spec");
            for (k, spec) in specs.enumerate() {
                let typed = spec.child_by_field_name("type").is_some();
                if spec.child_by_field_name("value").is_none() && (k == 0 || typed) {
                    let what = match typed {
                        true => "a constant with a type but no value",
                        false => "the first constant of its group without a value",
                    };
                    out.push((spec.start_byte()..spec.end_byte(), what));
                }
            }
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out.sort_by_key(|(r, _)| r.start);
    out
}
