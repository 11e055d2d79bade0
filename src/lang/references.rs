//! A name's occurrences as identifiers (`llm find --refs`, `llm patch --rename`): where each
//! is, how it is used (import, call, attribute, path…), and the symbol that holds it.

use super::symbols::{last_segment, symbols_around_with, symbols_with_index, Symbol, SymbolKind};
use super::Language;
use crate::span::{LineIndex, Span};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// How a reference uses the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefContext {
    /// The name of a symbol definition.
    Definition,
    /// Inside a `use` declaration or an `import`.
    Import,
    /// A segment of a qualified path (`util::inc`).
    Path,
    /// An attribute or field access (`obj.inc`).
    Attribute,
    /// The callee of a call (`inc(…)`, `obj.inc(…)`, `inc!(…)`).
    Call,
    /// A keyword argument name (`f(inc=1)`).
    Keyword,
    /// Any other identifier occurrence.
    Identifier,
    /// A name in a Rust format string read by its macro (`println!("{inc}")`, `{inc:>5}`).
    FormatArg,
}

/// One occurrence of a name as an identifier.
#[derive(Debug, Clone, Serialize)]
pub struct Reference {
    /// The identifier's bytes.
    pub span: Span,
    pub name: String,
    pub language: &'static str,
    pub context: RefContext,
    /// This occurrence is the name of a symbol definition.
    pub is_definition: bool,
    /// Qualified name of the innermost symbol whose span contains the occurrence.
    pub enclosing: Option<String>,
    /// Kind of that symbol.
    pub enclosing_kind: Option<SymbolKind>,
    /// The line the occurrence is on (without line ending).
    pub line_text: String,
}

/// Every identifier occurrence of `name` (its last `::`/`.` segment) in the file, in file order:
/// plain identifiers, path segments, fields/attributes, `use`/import items, macro names. Never
/// inside comments or strings (those hold no identifier nodes).
pub fn references(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    name: &str,
    file_path: &str,
) -> Vec<Reference> {
    let index = LineIndex::new(source);
    let syms = symbols_with_index(lang, source, tree, file_path, &index);
    references_with(lang, source, tree, name, file_path, &index, &syms)
}

/// [`references`] with the file's symbols and line index already computed.
pub fn references_with(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    name: &str,
    file_path: &str,
    index: &LineIndex,
    syms: &[Symbol],
) -> Vec<Reference> {
    let nodes = reference_nodes(lang, source, tree, name);
    let args = format_args(lang, source, tree, name);
    references_of(lang, source, &nodes, &args, file_path, index, syms)
}

/// [`references`] computing only the symbols they need: those whose definitions hold one of
/// the occurrences, with their ancestors (`symbols_around`), instead of every symbol of the
/// file. Each reference's `is_definition` and `enclosing` (the innermost symbol whose span holds
/// it) come out as from every symbol: a symbol's span is its node's, widened back over its
/// wrappers and attached attributes/decorators/comments, so a symbol holds an occurrence that
/// its node does not only when the occurrence sits in such a prefix. Then (and in a tree with a
/// syntax error, or a language without a region scanner, whose bodies can follow their node)
/// every symbol is computed as before.
pub fn references_around(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    name: &str,
    file_path: &str,
    index: &LineIndex,
) -> Vec<Reference> {
    let nodes = reference_nodes(lang, source, tree, name);
    let args = format_args(lang, source, tree, name);
    if nodes.is_empty() && args.is_empty() {
        return Vec::new();
    }
    let targeted = lang.rules.regions.is_some()
        && !tree.root_node().has_error()
        && !any_in_a_prefix(lang, tree, &nodes.iter().map(|n| n.0).collect::<Vec<_>>());
    let syms = if targeted {
        let ranges: Vec<_> = (nodes.iter().map(|n| n.0.byte_range()))
            .chain(args.iter().cloned())
            .collect();
        symbols_around_with(lang, source, tree, file_path, index, &ranges)
    } else {
        symbols_with_index(lang, source, tree, file_path, index)
    };
    references_of(lang, source, &nodes, &args, file_path, index, &syms)
}

/// Rust's inline format arguments naming `name`'s last segment (`println!("{inc}")`,
/// `format!("{inc:>5}")`; not `{{inc}}`): code that the macro reads from its string, in file
/// order. Other languages have none.
fn format_args(lang: &Language, source: &[u8], tree: &Tree, name: &str) -> Vec<Range<usize>> {
    let want = last_segment(name).as_bytes();
    if lang.name != "rust" || want.is_empty() {
        return Vec::new();
    }
    memchr::memmem::find_iter(source, want)
        .map(|at| at..at + want.len())
        .filter(|r| super::literals::whole_word(source, r))
        .filter(|r| {
            let node = tree.root_node().descendant_for_byte_range(r.start, r.end);
            node.is_some_and(|n| n.kind() == "string_content") && is_format_arg(tree, source, r)
        })
        .collect()
}

/// Whether `range` is a name in a Rust format string's `{name}` or `{name:…}` (not `{{name}}`)
/// inside a macro invocation.
pub fn is_format_arg(tree: &Tree, bytes: &[u8], range: &Range<usize>) -> bool {
    let opened = range.start >= 1
        && bytes[range.start - 1] == b'{'
        && (range.start < 2 || bytes[range.start - 2] != b'{');
    let closed = matches!(bytes.get(range.end), Some(b'}' | b':'));
    let mut node = tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end);
    while let Some(n) = node {
        if n.kind() == "macro_invocation" {
            return opened && closed;
        }
        node = n.parent();
    }
    false
}

/// Whether one of `nodes` (in file order) may lie before a definition's node but in its span:
/// inside an attached attribute/decorator, or in a wrapper (decorated definition, `export`,
/// `template<…>`, Go's `type`/`const`/`var`) before the wrapper's last named child. One walk
/// down to them all, the answer for each node on the way kept on a stack: climbing from each
/// node by `Node::parent` (which tree-sitter finds by descending from the root) took time
/// quadratic in its depth, `find --refs zq` in 5,000 nested parentheses 0.81 s (debug),
/// 20,000 17 s.
fn any_in_a_prefix(lang: &Language, tree: &Tree, nodes: &[Node]) -> bool {
    let r = &lang.rules;
    let mut cursor = tree.walk();
    // For each node on the cursor's path: whether it or one below it on the way lies in a
    // prefix, and, when it is a wrapper, its last named child.
    let mut path: Vec<(bool, Option<Option<Node>>)> = Vec::new();
    // The first of `nodes` not yet reached (nodes come in order of their start).
    let mut next = 0;
    'walk: loop {
        let node = cursor.node();
        let here = match path.last() {
            None => false,
            Some(&(above, last)) => {
                above || r.attached.contains(&node.kind()) || last.is_some_and(|l| l != Some(node))
            }
        };
        while next < nodes.len() && nodes[next].start_byte() < node.start_byte() {
            next += 1;
        }
        let left = &nodes[next..];
        let start = node.start_byte();
        if here && (left.iter().take_while(|n| n.start_byte() == start)).any(|&n| n == node) {
            return true;
        }
        // Enter a node that holds one of those left.
        let end = node.end_byte();
        let holds = (left.iter().take_while(|n| n.start_byte() < end)).any(|n| n.end_byte() <= end);
        if holds && cursor.goto_first_child() {
            let last = (r.wrappers.contains(&node.kind()))
                .then(|| node.named_child(node.named_child_count().saturating_sub(1) as u32));
            path.push((here, last));
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
            path.pop();
        }
    }
    false
}

/// A node's ancestors as the walk that reached it saw them (root first): how a reference is
/// used is read off them. Asking `Node::parent` instead, which descends from the root for each
/// call, made `find --refs a` quadratic in the nesting of JavaScript's `{a: {a: …}}` (2,000
/// levels: 2.0 s).
#[derive(Clone, Copy)]
pub struct Up<'a, 't>(&'a [Node<'t>]);

impl<'a, 't> Up<'a, 't> {
    /// The `k`-th ancestor, nearest first (0: the parent).
    pub fn get(&self, k: usize) -> Option<Node<'t>> {
        self.0.len().checked_sub(k + 1).map(|i| self.0[i])
    }
}

/// The identifier nodes that are occurrences of `name` (its last segment), in file order, each
/// with how it is used (as the language's rule or the shared one says).
fn reference_nodes<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    name: &str,
) -> Vec<(Node<'t>, RefContext)> {
    let want = last_segment(name).as_bytes();
    let mut out = Vec::new();
    if want.is_empty() {
        return out;
    }
    if lang.name == "ruby" && want.len() > 1 && want.ends_with(b"=") {
        return ruby_setter_nodes(source, tree, want);
    }
    // In file order, opening only the nodes that hold an occurrence of the name's bytes that
    // is not glued to a longer word (an identifier is a whole token).
    let hits: Vec<std::ops::Range<usize>> = memchr::memmem::find_iter(source, want)
        .map(|at| at..at + want.len())
        .filter(|r| super::literals::whole_word(source, r))
        .collect();
    super::walk_hits(
        tree,
        &hits,
        |_, _| false,
        |node, path| {
            if (node.child_count() == 0 || node.kind() == "shorthand_field_identifier")
                && node.byte_range().len() == want.len()
                && lang.rules.identifier_kinds.contains(&node.kind())
                && &source[node.byte_range()] == want
                && lang.rules.is_reference.is_none_or(|f| f(node))
            {
                let up = Up(path);
                let context = match lang.rules.ref_context {
                    Some(f) => f(node, up),
                    None => ref_context(node, up),
                };
                out.push((node, context));
            }
        },
    );
    out
}

/// A Ruby setter's occurrences (`want` is `level=`): its definition's `setter` node (`def
/// level=(v)`) and each call that assigns through it, whose method is `level` alone (`obj.level
/// = 1`, `self.level = v`, `a.level, b = 1, 2`). `obj.level += 1` reads through the getter as
/// well and is not one: it stays the getter's.
fn ruby_setter_nodes<'t>(
    source: &[u8],
    tree: &'t Tree,
    want: &[u8],
) -> Vec<(Node<'t>, RefContext)> {
    let base = &want[..want.len() - 1];
    let hits: Vec<std::ops::Range<usize>> = memchr::memmem::find_iter(source, base)
        .map(|at| at..at + base.len())
        .filter(|r| super::literals::whole_word(source, r))
        .collect();
    let mut out = Vec::new();
    super::walk_hits(
        tree,
        &hits,
        |_, _| false,
        |node, path| {
            let text = &source[node.byte_range()];
            if node.kind() == "setter" && text == want {
                out.push((node, RefContext::Definition));
                return;
            }
            if node.kind() != "identifier" || text != base {
                return;
            }
            let Some(&call) = path.last() else { return };
            let assigned = call.kind() == "call"
                && call.child_by_field_name("method") == Some(node)
                && call.child_by_field_name("receiver").is_some()
                && path.len() >= 2
                && match path[path.len() - 2] {
                    a if a.kind() == "assignment" => a.child_by_field_name("left") == Some(call),
                    a => a.kind() == "left_assignment_list",
                };
            if assigned {
                out.push((node, RefContext::Attribute));
            }
        },
    );
    out
}

/// The references at `nodes` and at the format arguments `args`, in file order, with their
/// context and enclosing symbol among `syms`.
fn references_of(
    lang: &Language,
    source: &[u8],
    nodes: &[(Node, RefContext)],
    args: &[Range<usize>],
    file_path: &str,
    index: &LineIndex,
    syms: &[Symbol],
) -> Vec<Reference> {
    let mut at: Vec<(Range<usize>, Option<RefContext>)> = (nodes.iter())
        .map(|&(n, c)| (n.byte_range(), Some(c)))
        .chain(args.iter().map(|r| (r.clone(), None)))
        .collect();
    if !args.is_empty() {
        at.sort_by_key(|(r, _)| r.start);
    }
    at.into_iter()
        .map(|(range, node)| {
            let def = syms.iter().any(|s| s.name_span.range() == range);
            let enclosing = syms
                .iter()
                .rev()
                .find(|s| s.span.byte_start <= range.start && range.end <= s.span.byte_end);
            let span = index.span(file_path, range.clone());
            let line_text =
                String::from_utf8_lossy(index.line_text(source, span.start_line)).into_owned();
            Reference {
                span,
                name: String::from_utf8_lossy(&source[range]).into_owned(),
                language: lang.name,
                context: match node {
                    _ if def => RefContext::Definition,
                    None => RefContext::FormatArg,
                    Some(context) => context,
                },
                is_definition: def,
                enclosing: enclosing.map(|s| s.qualified_name.clone()),
                enclosing_kind: enclosing.map(|s| s.kind),
                line_text,
            }
        })
        .collect()
}

/// How an identifier is used, by the shared node-kind conventions of tree-sitter grammars:
/// inside an import/use/include; the callee (`function` field) of a call; a member, field or
/// attribute access; a keyword argument.
pub fn ref_context(node: Node, up: Up) -> RefContext {
    let is_import =
        |k: &str| k.contains("import") || k.starts_with("use_") || k == "using_directive";
    // Imports hold names a few levels down (`import a.b.inc;`).
    if (0..6).map_while(|k| up.get(k)).any(|p| is_import(p.kind())) {
        return RefContext::Import;
    }
    let mut n = node;
    // `n`'s parent is the `i`-th ancestor.
    let mut i = 0;
    while let Some(p) = up.get(i) {
        let k = p.kind();
        if k.contains("call") || k.contains("invocation") {
            let callee = p
                .child_by_field_name("function")
                .or_else(|| p.child_by_field_name("method"))
                .or_else(|| p.child_by_field_name("name"));
            return if callee == Some(n) {
                RefContext::Call
            } else if n != node {
                RefContext::Attribute
            } else {
                RefContext::Identifier
            };
        }
        if k.contains("member")
            || k.contains("field_expression")
            || k == "field_access"
            || k.contains("selector")
        {
            let prop = p
                .child_by_field_name("property")
                .or_else(|| p.child_by_field_name("field"))
                .or_else(|| p.child_by_field_name("name"));
            if prop != Some(n) {
                break;
            }
            n = p;
            i += 1;
            continue;
        }
        if k.contains("qualified") || k.contains("scoped") {
            return RefContext::Path;
        }
        break;
    }
    if n != node {
        return RefContext::Attribute;
    }
    RefContext::Identifier
}
