//! Rust: grammar, extensions, aliases, the symbol query and the rules that attach attributes and
//! doc comments, name impls after their type, and make fns inside impls/traits methods.

use super::brace::{Lexicon, Quote};
use super::references::RefContext;
use super::regions::{Body, Regions};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules, Walk};
use tree_sitter::Node;

/// The Rust language entry.
pub static RUST: Language = Language {
    name: "rust",
    aliases: &["rs"],
    extensions: &["rs"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    symbol_query: include_str!("queries/rust.scm"),
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
    top_level_gap: 1,
    fixture: "symbols.rs",
    rules: Rules {
        methods_in: &[K::Impl, K::Trait],
        doc: Doc::Custom(is_outer_doc),
        comments: &["line_comment", "block_comment"],
        attached: &["attribute_item"],
        wrappers: &[],
        identifier_kinds: &[
            "identifier",
            "type_identifier",
            "field_identifier",
            "shorthand_field_identifier",
        ],
        keywords: super::keywords::RUST,
        braced: super::keywords::RUST_BRACED,
        respelled: super::keywords::RUST_RESPELLED,
        containers: &[
            "impl_item",
            "trait_item",
            "mod_item",
            "foreign_mod_item",
            "declaration_list",
        ],
        root_kind: "source_file",
        walk: Some(Walk {
            symbol_node: |node, out| out.extend(symbol_node(node)),
            definition_words: &[
                "fn",
                "struct",
                "union",
                "enum",
                "trait",
                "impl",
                "type",
                "const",
                "static",
                "mod",
                "macro_rules!",
            ],
            keywordless_parents: &[
                ("enum_variant_list", None),
                ("enum_variant", None),
                ("field_declaration_list", None),
            ],
        }),
        regions: Some(regions),
        split: None,
        name_node: Some(name_node),
        body: Some(body),
        is_reference: Some(is_reference),
        ref_context: Some(ref_context),
        owner: None,
    },
    grammar_crate: "tree-sitter-rust",
    node_types: tree_sitter_rust::NODE_TYPES,
    extras: &["line_comment", "block_comment"],
    cache: Cache::new(),
};

/// The walk twin of `queries/rust.scm`: `(KIND FIELD: (NAME_TYPE) @name) @kind`, pattern by pattern.
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

fn ref_context(node: Node, up: super::references::Up) -> RefContext {
    let mut n = node;
    // `n`'s parent is the `i`-th ancestor. Climb through the path that contains the identifier
    // to see what it is part of.
    let mut i = 0;
    while let Some(p) = up.get(i) {
        match p.kind() {
            "use_declaration" => return RefContext::Import,
            "scoped_identifier"
            | "scoped_type_identifier"
            | "scoped_use_list"
            | "use_list"
            | "use_as_clause"
            | "use_wildcard"
            | "generic_type"
            | "generic_function" => {
                n = p;
                i += 1;
            }
            _ => break,
        }
    }
    let parent = up.get(0);
    if parent.is_some_and(|p| p.kind() == "token_tree") {
        return token_tree_context(node);
    }
    match parent.map(|p| p.kind()) {
        Some("field_expression") if node.kind() == "field_identifier" => {
            if up.get(1).is_some_and(|g| g.kind() == "call_expression") {
                RefContext::Call
            } else {
                RefContext::Attribute
            }
        }
        Some("macro_invocation") => RefContext::Call,
        Some("scoped_identifier" | "scoped_type_identifier") => RefContext::Path,
        _ if up.get(i).is_some_and(|p| {
            p.kind() == "call_expression" && p.child_by_field_name("function") == Some(n)
        }) =>
        {
            RefContext::Call
        }
        _ => RefContext::Identifier,
    }
}

/// What can begin an item's first line: a word, an attribute, a comment.
fn starts_item(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'#' || b == b'/'
}

fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[b as usize]
}

/// [`is_word_byte`] as a table.
const WORD_BYTES: [bool; 256] = super::brace::word_bytes(b"_");

/// Whether an item whose words before its first `{` at depth 0 are `words` is an `impl`,
/// `trait`, `mod` or `extern` block: a container whose members split.
fn is_container(words: &[&[u8]]) -> bool {
    let mut w = words
        .iter()
        .skip_while(|w| matches!(**w, b"pub" | b"unsafe" | b"auto" | b"default"));
    match w.next() {
        Some(&b"impl" | &b"trait" | &b"mod") => true,
        Some(&b"extern") => w.next().is_none(),
        _ => false,
    }
}

/// End of a string body starting after its opening `"` at `i`: after the closing `"`
/// (`None`: not closed before the end of the file).
fn string_end(src: &[u8], mut i: usize) -> Option<usize> {
    while i < src.len() {
        i += memchr::memchr2(b'\\', b'"', &src[i..])?;
        match src[i] {
            b'\\' => i += 2,
            _ => return Some(i + 1),
        }
    }
    None
}

/// The lexical outline of a Rust file (see `regions`). An item ends with a `}` or `;` at
/// bracket depth 0; the next one starts on a later line that begins, in column 0, with what can
/// begin an item (a word, `#`, `/`), so that doc comments and attributes stay with their item
/// and blank lines with the one before. The members of `impl`, `trait`, `mod` and `extern`
/// blocks split the same way at depth 1, when the block's `}` starts its line. Comments,
/// strings (raw, byte, C), char literals and lifetimes are skipped as the lexer reads them.
fn regions(src: &[u8]) -> Regions {
    let n = src.len();
    let mut items: Vec<(usize, Option<Body>)> = Vec::new();
    // The item being read.
    let mut start = 0;
    let mut words: Vec<&[u8]> = Vec::new();
    let mut opened = false;
    let mut container = false;
    let mut members: Vec<usize> = Vec::new();
    // Start of the closing `}` line of the container's body, once closed (None: not usable).
    let mut tail: Option<usize> = None;
    let mut depth = 0usize;
    // The last code byte outside comments; 0 right after a boundary.
    let mut last = 0u8;
    // A comment or string still open at the end of the file.
    let mut open = false;
    let mut i = 0;
    while i < n {
        if i > 0 && src[i - 1] == b'\n' {
            if depth == 0 && matches!(last, b'}' | b';') && starts_item(src[i]) {
                let body = (container && !members.is_empty())
                    .then_some(tail)
                    .flatten()
                    .map(|t| body_of(start, &members, t, i));
                items.push((start, body));
                start = i;
                words.clear();
                (opened, container, tail, last) = (false, false, None, 0);
                members.clear();
            } else if container && depth == 1 && matches!(last, b'{' | b'}' | b';') {
                let first = src[i..]
                    .iter()
                    .position(|b| !matches!(b, b' ' | b'\t'))
                    .map(|k| src[i + k]);
                if first.is_some_and(starts_item) {
                    members.push(i);
                    last = 0;
                }
            }
        }
        let b = src[i];
        match b {
            // A run of blanks changes nothing; a line break ends it (the next line's start is
            // looked at above).
            b' ' | b'\t' | b'\r' => {
                i += 1;
                while i < n && matches!(src[i], b' ' | b'\t' | b'\r') {
                    i += 1;
                }
            }
            b'\n' => i += 1,
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k);
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                let mut nest = 1;
                i += 2;
                while i < n && nest > 0 {
                    // Only a `/` or a `*` can open or close one.
                    match memchr::memchr2(b'/', b'*', &src[i..]) {
                        Some(k) => i += k,
                        None => {
                            i = n;
                            break;
                        }
                    }
                    if src[i] == b'/' && src.get(i + 1) == Some(&b'*') {
                        nest += 1;
                        i += 2;
                    } else if src[i] == b'*' && src.get(i + 1) == Some(&b'/') {
                        nest -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                open |= nest > 0;
            }
            b'"' => {
                i = string_end(src, i + 1).unwrap_or_else(|| {
                    open = true;
                    n
                });
                last = b'"';
            }
            b'\'' => {
                i = super::brace::char_or_lifetime_end(src, i);
                last = b'\'';
            }
            b'{' | b'(' | b'[' => {
                if b == b'{' && depth == 0 && !opened {
                    opened = true;
                    container = is_container(&words);
                }
                depth += 1;
                last = b;
                i += 1;
            }
            b'}' | b')' | b']' => {
                depth = depth.saturating_sub(1);
                if b == b'}' && depth == 0 && container && tail.is_none() {
                    let line = memchr::memrchr(b'\n', &src[..i]).map_or(0, |k| k + 1);
                    tail = src[line..i]
                        .iter()
                        .all(|c| matches!(c, b' ' | b'\t'))
                        .then_some(line);
                    if tail.is_none() {
                        members.clear();
                    }
                }
                last = b;
                i += 1;
            }
            _ if b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 => {
                let s = i;
                while i < n && is_word_byte(src[i]) {
                    i += 1;
                }
                let word = &src[s..i];
                last = b'a';
                match (word, src.get(i)) {
                    (b"r" | b"br" | b"cr", Some(b'#' | b'"')) => {
                        let hashes = src[i..].iter().take_while(|&&c| c == b'#').count();
                        if src.get(i + hashes) == Some(&b'"') {
                            i = raw_string_end(src, i + hashes + 1, hashes).unwrap_or_else(|| {
                                open = true;
                                n
                            });
                            last = b'"';
                        } else {
                            // A raw identifier: `r#match`.
                            i += hashes;
                        }
                    }
                    (b"b" | b"c", Some(b'"')) => {
                        i = string_end(src, i + 1).unwrap_or_else(|| {
                            open = true;
                            n
                        });
                        last = b'"';
                    }
                    _ if depth == 0 && !opened => words.push(word),
                    _ => {}
                }
            }
            _ => {
                last = b;
                i += 1;
            }
        }
    }
    let body = (container && !members.is_empty())
        .then_some(tail)
        .flatten()
        .map(|t| body_of(start, &members, t, n));
    items.push((start, body));
    Regions::from_starts(n, items, depth == 0 && !open)
}

/// A container's split from its member starts and the start of its closing line.
fn body_of(start: usize, members: &[usize], tail: usize, end: usize) -> Body {
    let mut ranges: Vec<std::ops::Range<usize>> = members.windows(2).map(|w| w[0]..w[1]).collect();
    ranges.push(*members.last().unwrap()..tail);
    Body {
        head: start..members[0],
        members: ranges,
        tail: tail..end,
    }
}

/// End of a raw string whose body starts at `i`, closed by `"` and `hashes` `#`s (`None`: not
/// closed before the end of the file).
fn raw_string_end(src: &[u8], mut i: usize, hashes: usize) -> Option<usize> {
    while let Some(k) = memchr::memchr(b'"', &src[i..]) {
        let q = i + k + 1;
        if src[q..]
            .iter()
            .take(hashes)
            .take_while(|&&c| c == b'#')
            .count()
            == hashes
        {
            return Some(q + hashes);
        }
        i = q;
    }
    None
}

/// Rust's text for the shared scanner (`brace`), which finds the data an outline's parse
/// skips (the items are this file's `regions`).
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_comments: true,
    quotes: &[Quote::escaped_block("\"", true)],
    char_or_lifetime: true,
    raw_hash_strings: true,
    regex_literals: false,
    items: false,
    item_starts: &[],
    item_ends: b"",
    data_open: b'[',
    data_kinds: &["string_literal", "array_expression", "token_tree"],
    join: None,
    code_prefixes: &[],
    int_suffixes: &[
        "u128", "u16", "u32", "u64", "u8", "usize", "i128", "i16", "i32", "i64", "i8", "isize",
    ],
    newline_ends_values: false,
    comment_cuts: false,
};
