//! Java: grammar, extension and the symbol query in `queries/java.scm`. Annotations are part of
//! a declaration's `modifiers`; Javadoc (`/** … */`) right above belongs to its span.

use super::brace::{Lexicon, Quote};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The Java language entry.
pub static JAVA: Language = Language {
    name: "java",
    aliases: &[],
    extensions: &["java"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_java::LANGUAGE.into(),
    symbol_query: include_str!("queries/java.scm"),
    kinds: &[
        K::Method,
        K::Class,
        K::Interface,
        K::Enum,
        K::Variant,
        K::Constructor,
        K::Field,
        K::Constant,
    ],
    path_separator: ".",
    top_level_gap: 1,
    fixture: "Symbols.java",
    rules: Rules {
        methods_in: &[],
        doc: Doc::Prefixed(&["/**"]),
        comments: &["line_comment", "block_comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["identifier", "type_identifier"],
        keywords: super::keywords::JAVA,
        braced: super::keywords::JAVA_BRACED,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: Some(|src| super::brace::regions(&LEXICON, src)),
        split: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: None,
    },
    grammar_crate: "tree-sitter-java",
    node_types: tree_sitter_java::NODE_TYPES,
    extras: &["line_comment", "block_comment"],
    cache: Cache::new(),
};

/// Java's text for the shared scanner (`brace`): a type declaration (or its annotations)
/// begins an item in column 0.
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["//"],
    block_comment: ("/*", "*/"),
    nested_comments: false,
    quotes: &[
        Quote {
            open: "\"\"\"",
            close: "\"\"\"",
            escapes: true,
            multiline: true,
            interpolation: None,
            gap: false,
        },
        Quote::escaped_line("\"", true),
        Quote::escaped_line("'", false),
    ],
    char_or_lifetime: false,
    raw_hash_strings: false,
    regex_literals: false,
    items: true,
    item_starts: &[
        "package",
        "import",
        "public",
        "protected",
        "private",
        "abstract",
        "final",
        "sealed",
        "non-sealed",
        "static",
        "strictfp",
        "class",
        "interface",
        "enum",
        "record",
        "@",
    ],
    item_ends: b"};",
    data_open: b'{',
    data_kinds: &["string_literal", "array_initializer"],
    int_suffixes: &["L", "l"],
    newline_ends_values: false,
    comment_cuts: true,
};
