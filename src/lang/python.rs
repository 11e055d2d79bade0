//! Python: grammar, extensions, aliases, the symbol query and the rules that attach decorators
//! and make defs inside classes methods.

use super::brace::{Breaks, Join, Lexicon, Quote};
use super::references::RefContext;
use super::regions::{Body, Regions};
use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules, Walk};
use tree_sitter::Node;

/// The Python language entry.
pub static PYTHON: Language = Language {
    name: "python",
    aliases: &["py", "python3"],
    extensions: &["py", "pyi"],
    file_names: &[],
    shebangs: &["python", "python3"],
    grammar: || tree_sitter_python::LANGUAGE.into(),
    symbol_query: include_str!("queries/python.scm"),
    kinds: &[K::Function, K::Method, K::Class, K::Constant, K::Field],
    path_separator: ".",
    top_level_gap: 2,
    fixture: "symbols.py",
    rules: Rules {
        methods_in: &[K::Class],
        doc: Doc::None,
        comments: &["comment"],
        attached: &[],
        wrappers: &["decorated_definition"],
        identifier_kinds: &["identifier"],
        keywords: super::keywords::PYTHON,
        braced: super::keywords::PYTHON_BRACED,
        respelled: super::keywords::PYTHON_RESPELLED,
        containers: &["class_definition", "decorated_definition", "block"],
        root_kind: "module",
        walk: Some(Walk {
            symbol_node,
            definition_words: &["def", "class"],
            keywordless_parents: &[
                ("block", Some("class_definition")),
                ("if_statement", None),
                ("for_statement", None),
                ("while_statement", None),
                ("with_statement", None),
                ("try_statement", None),
                ("elif_clause", None),
                ("else_clause", None),
                ("except_clause", None),
                ("finally_clause", None),
                ("block", Some("if_statement")),
                ("block", Some("for_statement")),
                ("block", Some("while_statement")),
                ("block", Some("with_statement")),
                ("block", Some("try_statement")),
                ("block", Some("elif_clause")),
                ("block", Some("else_clause")),
                ("block", Some("except_clause")),
                ("block", Some("finally_clause")),
            ],
        }),
        regions: Some(regions),
        split: None,
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: Some(ref_context),
        owner: None,
    },
    grammar_crate: "tree-sitter-python",
    node_types: tree_sitter_python::NODE_TYPES,
    extras: &["comment", "line_continuation"],
    cache: Cache::new(),
};

/// Statements whose blocks (and whose clauses' blocks) hold module- or class-level symbols.
const COMPOUND: &[&str] = &[
    "if_statement",
    "for_statement",
    "while_statement",
    "with_statement",
    "try_statement",
];

/// The walk twin of `queries/python.scm`, pattern by pattern.
fn symbol_node<'t>(node: Node<'t>, out: &mut Vec<(K, Node<'t>)>) {
    match node.kind() {
        "function_definition" | "class_definition" => {
            let Some(name) = node
                .child_by_field_name("name")
                .filter(|n| n.kind() == "identifier")
            else {
                return;
            };
            let kind = if node.kind() == "class_definition" {
                K::Class
            } else {
                K::Function
            };
            out.push((kind, name));
        }
        "expression_statement" => {
            let Some(kind) = node.parent().and_then(assignment_kind) else {
                return;
            };
            let mut cursor = node.walk();
            for a in node.named_children(&mut cursor) {
                assigned_names(a, &mut |name| out.push((kind, name)));
            }
        }
        _ => {}
    }
}

/// What an assignment statement directly in `parent` is: a constant at module level, a field
/// in a class body, the same in a block of a compound statement (or of its clause) there.
fn assignment_kind(parent: Node) -> Option<K> {
    let level = |p: Node| match p.kind() {
        "module" => Some(K::Constant),
        "block" => {
            let class = p.parent().filter(|c| c.kind() == "class_definition")?;
            (class.child_by_field_name("body")? == p).then_some(K::Field)
        }
        _ => None,
    };
    if let Some(k) = level(parent) {
        return Some(k);
    }
    let owner = parent.parent().filter(|_| parent.kind() == "block")?;
    let compound = if COMPOUND.contains(&owner.kind()) {
        owner
    } else {
        owner.parent().filter(|c| COMPOUND.contains(&c.kind()))?
    };
    level(compound.parent()?)
}

/// The names an assignment binds as the query reads them: `a = …`, `a, b = …`, `(a, b) = …`,
/// `a = b = …` (two links deep), `a += …`.
fn assigned_names<'t>(a: Node<'t>, push: &mut impl FnMut(Node<'t>)) {
    let ident = |n: Option<Node<'t>>| n.filter(|n| n.kind() == "identifier");
    match a.kind() {
        "augmented_assignment" => ident(a.child_by_field_name("left"))
            .into_iter()
            .for_each(push),
        "assignment" => {
            if let Some(left) = a.child_by_field_name("left") {
                match left.kind() {
                    "identifier" => push(left),
                    "pattern_list" | "tuple_pattern" => {
                        let mut c = left.walk();
                        for n in left.named_children(&mut c) {
                            if n.kind() == "identifier" {
                                push(n);
                            }
                        }
                    }
                    _ => {}
                }
            }
            let chain = |n: Node<'t>| {
                n.child_by_field_name("right")
                    .filter(|r| r.kind() == "assignment")
            };
            let mut link = a;
            for _ in 0..2 {
                let Some(next) = chain(link) else { break };
                ident(next.child_by_field_name("left"))
                    .into_iter()
                    .for_each(&mut *push);
                link = next;
            }
        }
        _ => {}
    }
}

fn ref_context(node: Node, up: super::references::Up) -> RefContext {
    for p in (0..).map_while(|k| up.get(k)) {
        match p.kind() {
            "import_statement" | "import_from_statement" | "future_import_statement" => {
                return RefContext::Import
            }
            "dotted_name" | "aliased_import" => {}
            _ => break,
        }
    }
    let parent = up.get(0);
    match parent.map(|p| p.kind()) {
        Some("attribute")
            if parent.and_then(|p| p.child_by_field_name("attribute")) == Some(node) =>
        {
            if up
                .get(1)
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

/// Whether `s` starts with the keyword `kw` (not a longer word).
fn starts_with_keyword(s: &[u8], kw: &[u8]) -> bool {
    s.starts_with(kw)
        && !s
            .get(kw.len())
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
}

/// A statement line that continues the compound statement before it.
fn continues_statement(s: &[u8]) -> bool {
    [&b"else"[..], b"elif", b"except", b"finally"]
        .iter()
        .any(|kw| starts_with_keyword(s, kw))
}

/// Where the class of the item being read is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// No statement line yet, or only decorators.
    Unknown,
    /// Not a class (or a class whose body does not split).
    No,
    /// After the `class` line, before the body's first statement.
    Header,
    /// In the body, whose statements are indented this much.
    Body(usize),
}

/// The lexical outline of a Python file (see `regions`). An item starts at a statement line in
/// column 0 (outside strings and brackets, not after a backslash) unless it continues a
/// compound statement (`else`, `elif`, `except`, `finally`) or follows a decorator; comment and
/// blank lines stay with the item before. A class's members split the same way at its body's
/// indentation (indentation counted as tree-sitter's scanner counts it: a tab is 8).
fn regions(src: &[u8]) -> Regions {
    let n = src.len();
    let mut items: Vec<(usize, Option<Body>)> = Vec::new();
    let mut start = 0;
    let mut class = Class::Unknown;
    let mut members: Vec<usize> = Vec::new();
    let mut after_decorator = false;
    let mut member_after_decorator = false;
    let mut depth = 0usize;
    let mut continued = false;
    let mut i = 0;
    while i < n {
        let line = i;
        let logical = depth == 0 && !continued;
        continued = false;
        if logical {
            let mut indent = 0;
            while i < n {
                match src[i] {
                    b' ' => indent += 1,
                    b'\t' => indent += 8,
                    0x0c => indent = 0,
                    _ => break,
                }
                i += 1;
            }
            let text = &src[i..];
            let statement = !matches!(text.first(), None | Some(b'\n' | b'\r' | b'#' | b'\\'));
            if statement && indent == 0 {
                if line > 0 && !continues_statement(text) && !after_decorator {
                    let body =
                        matches!(class, Class::Body(_)).then(|| body_of(start, &members, line));
                    items.push((start, body.flatten()));
                    start = line;
                    class = Class::Unknown;
                    members.clear();
                }
                after_decorator = text[0] == b'@';
                class = match class {
                    Class::Unknown if after_decorator => Class::Unknown,
                    Class::Unknown if starts_with_keyword(text, b"class") => Class::Header,
                    _ => Class::No,
                };
            } else if statement {
                match class {
                    Class::Header => {
                        class = Class::Body(indent);
                        members.push(line);
                        member_after_decorator = text[0] == b'@';
                    }
                    Class::Body(body) if indent == body => {
                        if !continues_statement(text) && !member_after_decorator {
                            members.push(line);
                        }
                        member_after_decorator = text[0] == b'@';
                    }
                    Class::Body(body) if indent < body => class = Class::No,
                    _ => {}
                }
            }
        }
        i = line_end(src, i, &mut depth, &mut continued);
    }
    let body = matches!(class, Class::Body(_))
        .then(|| body_of(start, &members, n))
        .flatten();
    items.push((start, body));
    Regions::from_starts(n, items, depth == 0 && !continued)
}

fn body_of(start: usize, members: &[usize], end: usize) -> Option<Body> {
    let first = *members.first()?;
    let mut ranges: Vec<std::ops::Range<usize>> = members.windows(2).map(|w| w[0]..w[1]).collect();
    ranges.push(*members.last().unwrap()..end);
    Some(Body {
        head: start..first,
        members: ranges,
        tail: end..end,
    })
}

/// Reads from `i` to the start of the next physical line outside strings, counting brackets and
/// noting a backslash continuation.
fn line_end(src: &[u8], mut i: usize, depth: &mut usize, continued: &mut bool) -> usize {
    let n = src.len();
    while i < n {
        match src[i] {
            b'\n' => return i + 1,
            b'#' => i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k),
            b'\\' => {
                let rest = &src[i + 1..];
                if rest.starts_with(b"\n") || rest.starts_with(b"\r\n") {
                    *continued = true;
                    return i + 1 + if rest[0] == b'\n' { 1 } else { 2 };
                }
                i += 1;
            }
            q @ (b'"' | b'\'') => i = string_end(src, i, q),
            b'(' | b'[' | b'{' => {
                *depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                *depth = depth.saturating_sub(1);
                i += 1;
            }
            // Up to the next byte that matters, at once.
            _ => {
                i += 1;
                i += src[i..]
                    .iter()
                    .position(|&c| LINE_STOPS[c as usize])
                    .unwrap_or(n - i);
            }
        }
    }
    n
}

/// The bytes [`line_end`] looks at: line breaks, comments, continuations, quotes, brackets.
const LINE_STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let stops = *b"\n#\\\"'([{)]}";
    let mut k = 0;
    while k < stops.len() {
        t[stops[k] as usize] = true;
        k += 1;
    }
    t
};

/// Past the string that opens with quote `q` at `i` (triple-quoted or not). A backslash
/// escapes the next byte in every kind of string (raw ones included, as far as where the string
/// ends is concerned); a one-quote string ends at its line's end if not closed.
fn string_end(src: &[u8], i: usize, q: u8) -> usize {
    let n = src.len();
    let triple = src.get(i + 1) == Some(&q) && src.get(i + 2) == Some(&q);
    let mut j = if triple { i + 3 } else { i + 1 };
    while j < n {
        // Only an escape, the quote or (one-quote strings) a line break matter.
        let next = if triple {
            memchr::memchr2(b'\\', q, &src[j..])
        } else {
            memchr::memchr3(b'\\', b'\n', q, &src[j..])
        };
        match next {
            Some(k) => j += k,
            None => return n,
        }
        match src[j] {
            b'\\' => j += 2,
            b'\n' if !triple => return j,
            c if c == q => {
                if !triple {
                    return j + 1;
                }
                if src.get(j + 1) == Some(&q) && src.get(j + 2) == Some(&q) {
                    return j + 3;
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    n
}

/// Python's text for the shared scanner (`brace`), which finds the data an outline's parse
/// skips: long strings (one run of adjacent strings, `'…'\n'…'` in brackets, as one), lists of
/// plain numbers and strings. The items are this file's `regions`.
pub(super) static LEXICON: Lexicon = Lexicon {
    line_comments: &["#"],
    block_comment: None,
    nested_comments: false,
    quotes: &[
        Quote::escaped_block("'''", true),
        Quote::escaped_block("\"\"\"", true),
        Quote::escaped_line("'", true),
        Quote::escaped_line("\"", true),
    ],
    char_or_lifetime: false,
    raw_hash_strings: false,
    regex_literals: false,
    items: false,
    item_starts: &[],
    item_ends: b"",
    data_open: b'[',
    data_kinds: &["string", "list"],
    join: Some(Join {
        with: "",
        breaks: Breaks::InBrackets,
        slots: &[
            "concatenated_string",
            "pair.value",
            "assignment.right",
            "keyword_argument.value",
            "argument_list",
            "expression_list",
            "list",
            "tuple",
            "parenthesized_expression",
            "return_statement",
            "binary_operator",
            "attribute.object",
            "conditional_expression",
        ],
    }),
    // An f-string's `{…}` is code.
    code_prefixes: b"fF",
    int_suffixes: &[],
    newline_ends_values: false,
    comment_cuts: false,
};
