//! Symbol extraction: the one definition of "where is `Parser::parse`" that `llm find` reports
//! and `llm patch` edits. Runs a language's symbol query over a parsed tree, nests the results,
//! and attaches doc comments/attributes/decorators per the language's rules (a name's
//! occurrences, for `--refs` and renames, are in `references.rs`).

use super::items::ItemTree;
pub use super::nesting::symbol_id;
pub(super) use super::nesting::{finish, nested, number, Seen};
use super::pruning::Opener;
use super::{Language, SyntaxError};
use crate::span::{FileSpans, LineIndex, Span};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// What a symbol is. Wire names are the lowercase variant names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    Function,
    Method,
    Struct,
    Union,
    Enum,
    Variant,
    Trait,
    Impl,
    /// A type alias or associated type.
    Type,
    Const,
    Static,
    Module,
    /// A `macro_rules!` definition.
    Macro,
    /// A struct field, or an assignment directly in a Python class body.
    Field,
    Class,
    /// A module-level assignment (Python), a top-level `const` binding (JS/TS).
    Constant,
    /// A Java/C#/TS/Go/PHP interface.
    Interface,
    /// A Java/C#/C++ constructor (JS/TS/Python/Ruby/PHP name theirs as methods).
    Constructor,
}

impl SymbolKind {
    /// Every kind, for `--kind` validation.
    pub const ALL: &'static [SymbolKind] = &[
        SymbolKind::Function,
        SymbolKind::Method,
        SymbolKind::Struct,
        SymbolKind::Union,
        SymbolKind::Enum,
        SymbolKind::Variant,
        SymbolKind::Trait,
        SymbolKind::Impl,
        SymbolKind::Type,
        SymbolKind::Const,
        SymbolKind::Static,
        SymbolKind::Module,
        SymbolKind::Macro,
        SymbolKind::Field,
        SymbolKind::Class,
        SymbolKind::Constant,
        SymbolKind::Interface,
        SymbolKind::Constructor,
    ];

    /// The wire name (`function`, `method`…).
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Struct => "struct",
            SymbolKind::Union => "union",
            SymbolKind::Enum => "enum",
            SymbolKind::Variant => "variant",
            SymbolKind::Trait => "trait",
            SymbolKind::Impl => "impl",
            SymbolKind::Type => "type",
            SymbolKind::Const => "const",
            SymbolKind::Static => "static",
            SymbolKind::Module => "module",
            SymbolKind::Macro => "macro",
            SymbolKind::Field => "field",
            SymbolKind::Class => "class",
            SymbolKind::Constant => "constant",
            SymbolKind::Interface => "interface",
            SymbolKind::Constructor => "constructor",
        }
    }

    /// The kind with this wire name.
    pub fn from_name(name: &str) -> Option<SymbolKind> {
        SymbolKind::ALL.iter().copied().find(|k| k.as_str() == name)
    }

    /// The kind a symbol query's capture names: `@definition.function` (tree-sitter's tags
    /// style) or `@function`; `namespace` and `package` are modules.
    pub fn from_capture(capture: &str) -> Option<SymbolKind> {
        match capture.strip_prefix("definition.").unwrap_or(capture) {
            "namespace" | "package" => Some(SymbolKind::Module),
            k => SymbolKind::from_name(k),
        }
    }
}

/// One symbol definition in a file.
#[derive(Debug, Clone, Serialize)]
pub struct Symbol {
    /// The identifier (`parse`; an impl is named after its type).
    pub name: String,
    /// Names of the enclosing symbols and this one joined by the language's separator
    /// (`Parser::parse`, `Outer.Inner.method`).
    pub qualified_name: String,
    pub kind: SymbolKind,
    /// Name of the enclosing symbol (for a method: the impl's type or the class; a Go method's
    /// receiver type).
    pub parent: Option<String>,
    /// The trait a Rust `impl` (and its items) implements: `Display` for the methods of
    /// `impl Display for Error`, whose parent is `Error` (and qualified name `Error::fmt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impl_of: Option<String>,
    /// Qualified name of the enclosing symbol.
    #[serde(skip)]
    pub parent_qualified: Option<String>,
    pub language: &'static str,
    /// First line of the item itself (after attributes/decorators), trimmed.
    pub signature: String,
    /// Stable id: SHA-256 of file path, qualified name and kind (16 hex digits); unchanged when
    /// the symbol moves within its file. Same-named symbols of one kind in one file get `#2`,
    /// `#3`… in file order hashed in.
    pub symbol_id: String,
    /// The whole definition, including directly attached doc comments, attributes, decorators.
    pub span: Span,
    /// The identifier.
    pub name_span: Span,
    /// The body `llm patch --body` replaces (block of a fn/impl/trait/mod; Python suite).
    pub body_span: Option<Span>,
    /// The item's own node, without attached comments/attributes/decorators.
    pub node_span: Span,
    /// Number of enclosing symbols (0 = top level).
    pub depth: usize,
    /// Index of the enclosing symbol in the returned list.
    #[serde(skip)]
    pub parent_index: Option<usize>,
    /// Ruby: a singleton method, defined on an object rather than for its class's instances
    /// (`def self.g`, `def C.g`, a `def` in `class << self`); false in other languages.
    #[serde(skip)]
    pub singleton: bool,
}

/// Every symbol of a parsed file, in file order (by start of `span`; parents before children).
pub fn symbols(lang: &Language, source: &[u8], tree: &Tree, file_path: &str) -> Vec<Symbol> {
    let index = LineIndex::new(source);
    symbols_with_index(lang, source, tree, file_path, &index)
}

/// [`symbols`] with a line index the caller already has.
pub fn symbols_with_index(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    file_path: &str,
    index: &LineIndex,
) -> Vec<Symbol> {
    if let Some(syms) = symbols_of_items(lang, source, tree, file_path, index) {
        return syms;
    }
    let mut raw = Vec::new();
    collect_raw(lang, source, tree, None, &mut raw);
    let defs = with_starts(lang, source, tree, raw);
    build(lang, source, file_path, index, defs)
}

/// [`symbols_with_index`], with the syntax errors of the rule for files with errors when it
/// read them (see `symbols_of_items`): those of the items it parsed alone. `None`: the rule
/// did not apply.
pub fn symbols_and_errors(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    file_path: &str,
    index: &LineIndex,
) -> (Vec<Symbol>, Option<Vec<SyntaxError>>) {
    match rule_trees(lang, source, tree, index) {
        Some(parts) => {
            let syms = build(
                lang,
                source,
                file_path,
                index,
                item_defs(lang, source, &parts),
            );
            (syms, Some(super::items::errors(&parts)))
        }
        None => (
            symbols_with_index(lang, source, tree, file_path, index),
            None,
        ),
    }
}

/// The rule for files with syntax errors (see `items.rs`), so that results never depend on how
/// much of a file was parsed: when the whole-file parse of a language with a region scanner has
/// an error, each definition is read from the parse of its own item or member. `None`: the rule
/// does not apply.
fn symbols_of_items(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    file_path: &str,
    index: &LineIndex,
) -> Option<Vec<Symbol>> {
    let parts = rule_trees(lang, source, tree, index)?;
    let defs = item_defs(lang, source, &parts);
    Some(build(lang, source, file_path, index, defs))
}

/// The trees of the rule for files with syntax errors when it applies to `tree`: a whole-file
/// parse with an error, in a language with a region scanner.
fn rule_trees(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    index: &LineIndex,
) -> Option<Vec<ItemTree>> {
    let scan = lang.rules.regions?;
    if !tree.root_node().has_error() {
        return None;
    }
    let whole = matches!(tree.included_ranges().as_slice(),
        [r] if r.start_byte == 0 && r.end_byte >= source.len());
    if !whole {
        return None;
    }
    Some(lang.item_trees(source, index, &scan(source), tree))
}

/// The definitions of the rule's trees (see `items.rs`), each read from the tree of the item
/// or member it starts in.
fn item_defs<'t>(lang: &Language, source: &[u8], parts: &'t [ItemTree]) -> Vec<Def<'t>> {
    let mut defs = Vec::new();
    for part in parts {
        let mut raw = Vec::new();
        collect_raw(lang, source, &part.tree, None, &mut raw);
        raw.retain(|(_, n, _)| part.keeps(n.start_byte()));
        defs.extend(with_starts(lang, source, &part.tree, raw));
    }
    defs
}

/// The definitions of one part of a file (see `outline.rs`) that has a syntax error, read by
/// the rule for such files from its items' trees, prepared for [`finish`].
pub(super) fn prepare_items<'t>(
    lang: &Language,
    source: &[u8],
    parts: &'t [ItemTree],
    spans: &FileSpans,
) -> Vec<Prepared<'t>> {
    prepare(lang, source, spans, item_defs(lang, source, parts))
}

/// The definitions of `tree`, one part of a file (see `outline.rs`), prepared for [`finish`];
/// those starting in `later` (ranges a later part holds too: the beginning of a block cut in
/// two, see `Language::block_halves`) are left to that part.
pub(super) fn prepare_part<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    later: &[Range<usize>],
    spans: &FileSpans,
) -> Vec<Prepared<'t>> {
    let mut raw = Vec::new();
    collect_raw(lang, source, tree, None, &mut raw);
    raw.retain(|(_, n, _)| {
        let at = n.start_byte();
        !later.iter().any(|r| r.contains(&at))
    });
    let defs = with_starts(lang, source, tree, raw);
    prepare(lang, source, spans, defs)
}

/// The definitions of `tree` that start in `run`, a run of its root's children (its end
/// `usize::MAX` for the last run), prepared for [`finish`]: what [`symbols_with_index`] gives
/// of the whole tree, there. `None` when one of them reaches past the run (it would hold
/// definitions of the next). For languages walked by their symbol query.
pub(super) fn prepare_run<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    run: Range<usize>,
    spans: &FileSpans,
) -> Option<Vec<Prepared<'t>>> {
    let mut raw = Vec::new();
    // Patterns rooted at the root match in both runs' walks: each item is kept by its run.
    collect_raw_query(
        lang,
        source,
        tree,
        Some(std::slice::from_ref(&run)),
        true,
        &mut raw,
    );
    raw.retain(|(_, n, _)| run.contains(&n.start_byte()));
    let defs = with_starts(lang, source, tree, raw);
    let prepared = prepare(lang, source, spans, defs);
    prepared
        .iter()
        .all(|p| p.end <= run.end)
        .then_some(prepared)
}

/// The symbols whose definitions contain one of `ranges`, with all their ancestors — e.g. every
/// definition named NAME when `ranges` are NAME's occurrences in the file. Only the query
/// cursor's path to each range is walked, so this costs a fraction of [`symbols`] on a big file.
/// Parents, qualified names and ids are the same as [`symbols`] gives; siblings are not included.
pub fn symbols_around(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    file_path: &str,
    ranges: &[std::ops::Range<usize>],
) -> Vec<Symbol> {
    let index = LineIndex::new(source);
    symbols_around_with(lang, source, tree, file_path, &index, ranges)
}

/// [`symbols_around`] with a line index the caller already has.
pub fn symbols_around_with(
    lang: &Language,
    source: &[u8],
    tree: &Tree,
    file_path: &str,
    index: &LineIndex,
    ranges: &[std::ops::Range<usize>],
) -> Vec<Symbol> {
    if let Some(all) = symbols_of_items(lang, source, tree, file_path, index) {
        // Those around the ranges, their `parent_index` into the list kept (it pointed into
        // the whole one: an index past the end).
        let mut at = vec![None; all.len()];
        let mut kept = Vec::new();
        for (i, mut s) in all.into_iter().enumerate() {
            let around = ranges
                .iter()
                .any(|r| s.node_span.byte_start <= r.end && r.start <= s.node_span.byte_end);
            if around {
                s.parent_index = s.parent_index.and_then(|p| at[p]);
                at[i] = Some(kept.len());
                kept.push(s);
            }
        }
        return kept;
    }
    let mut raw = Vec::new();
    match &lang.rules.walk {
        // One walk down to every range (as one walk per range would find, each node once).
        Some(walk) if ranges.len() > 1 => {
            let mut sorted = ranges.to_vec();
            sorted.sort_by_key(|r| (r.start, r.end));
            collect_around(lang, walk.symbol_node, tree.root_node(), &sorted, &mut raw);
        }
        // One walk of the symbol query down to every range (one walk per range passed the
        // children of the nodes on the way again for each: quadratic in the occurrences of
        // NAME in one item).
        None => {
            let ranges = super::tags::disjoint(ranges);
            collect_raw_query(lang, source, tree, Some(&ranges), false, &mut raw);
        }
        _ => {
            for r in ranges {
                collect_raw(lang, source, tree, Some(r.clone()), &mut raw);
            }
        }
    }
    let defs = with_starts(lang, source, tree, raw);
    build(lang, source, file_path, index, defs)
}

/// The definitions among the nodes that intersect or touch one of `ranges` (sorted by start),
/// found in one walk from `node`, each node visited once. A cursor walk with the ranges of each
/// node on its path on a stack, not a call per level: 20,000 nested parentheses overflowed the
/// main thread's stack (debug build).
fn collect_around<'t>(
    lang: &Language,
    rule: SymbolNode,
    node: Node<'t>,
    ranges: &[std::ops::Range<usize>],
    raw: &mut Vec<Raw<'t>>,
) {
    /// Moves to the next node after the cursor's subtree; false past the walk's root.
    fn advance(c: &mut tree_sitter::TreeCursor, path: &mut Vec<(usize, usize)>) -> bool {
        loop {
            if path.is_empty() {
                return false;
            }
            if c.goto_next_sibling() {
                return true;
            }
            c.goto_parent();
            path.pop();
        }
    }
    let mut found = Vec::new();
    let mut c = node.walk();
    // The ranges of each node above the cursor's, `from..end`: `from` moves past those that
    // end before the child being visited (siblings come in order).
    let mut path: Vec<(usize, usize)> = Vec::new();
    // The ranges of the node visited.
    let mut mine = (0, ranges.len());
    loop {
        let node = c.node();
        rule(node, &mut found);
        for (kind, name) in found.drain(..) {
            raw.push((kind, node, name_node(lang, kind, name)));
        }
        if c.goto_first_child() {
            path.push(mine);
        } else if !advance(&mut c, &mut path) {
            return;
        }
        // The next node that touches one of its parent's ranges.
        loop {
            let (from, end) = path.last_mut().expect("below the walk's root");
            let child = c.node();
            let (start, stop) = (child.start_byte(), child.end_byte());
            // Ranges that end before this child touch no later child (their starts are in order).
            while *from < *end && ranges[*from].end < start {
                *from += 1;
            }
            let upto = *from
                + ranges[*from..*end]
                    .iter()
                    .take_while(|r| r.start <= stop)
                    .count();
            // Those that do not touch the child touch none of its descendants either.
            if ranges[*from..upto].iter().any(|r| start <= r.end) {
                mine = (*from, upto);
                break;
            }
            if !advance(&mut c, &mut path) {
                return;
            }
        }
    }
}

type Raw<'t> = (SymbolKind, Node<'t>, Node<'t>);

/// A definition found in a tree: a [`Raw`] and where the definition starts, its attributes,
/// decorators and doc comments included ([`super::ancestry::attached_start`]).
type Def<'t> = (SymbolKind, Node<'t>, Node<'t>, (usize, Node<'t>));

/// `raw` (definitions of `tree`), each with where it starts.
fn with_starts<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    raw: Vec<Raw<'t>>,
) -> Vec<Def<'t>> {
    let nodes: Vec<Node> = raw.iter().map(|r| r.1).collect();
    let starts = super::ancestry::attached_starts(lang, source, tree, &nodes);
    raw.into_iter()
        .zip(starts)
        .map(|((kind, node, name), start)| (kind, node, name, start))
        .collect()
}

/// Collects every symbol definition (or only those containing `range`, with their ancestors)
/// into `raw`: by the language's hand-written walk when it has one, else by its symbol query.
fn collect_raw<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    range: Option<std::ops::Range<usize>>,
    raw: &mut Vec<Raw<'t>>,
) {
    let Some(walk) = &lang.rules.walk else {
        // A ranged query cursor yields the matches whose nodes intersect the range: the
        // definitions holding it and their ancestors.
        let whole = range.is_none();
        let range = range.map(|r| r.start..if r.end == 0 { usize::MAX } else { r.end });
        let ranges = range.as_ref().map(std::slice::from_ref);
        collect_raw_query(lang, source, tree, ranges, whole, raw);
        return;
    };
    let rule = walk.symbol_node;
    let mut found = Vec::new();
    let mut push = |node: Node<'t>| {
        rule(node, &mut found);
        for (kind, name) in found.drain(..) {
            raw.push((kind, node, name_node(lang, kind, name)));
        }
    };
    match range {
        // Definitions hold their keyword; the rest sit right under a known parent kind.
        None => {
            let table = lang.keywordless_table();
            let hits = super::parsed_word_hits(tree, source, walk.definition_words);
            super::walk_hits(
                tree,
                &hits,
                // ERROR nodes have the id u16::MAX, outside the tables.
                |kind, parent| {
                    table
                        .get(kind as usize)
                        .and_then(Option::as_ref)
                        .is_some_and(|ps| ps.get(parent as usize).is_some_and(|&p| p))
                },
                |node, _| push(node),
            );
        }
        // Only the nodes that intersect the range, as a ranged query cursor walks.
        Some(r) => collect_around(lang, rule, tree.root_node(), std::slice::from_ref(&r), raw),
    }
}

type SymbolNode = for<'t> fn(Node<'t>, &mut Vec<(SymbolKind, Node<'t>)>);

pub(super) fn name_node<'t>(lang: &Language, kind: SymbolKind, name: Node<'t>) -> Node<'t> {
    match lang.rules.name_node {
        Some(f) => f(kind, name),
        None => name,
    }
}

/// Files at least this big are walked for their symbols with [`Opener`]s: below, what it
/// saves is less than reading the grammar's node types (a millisecond or two, once).
pub(super) const PRUNE_AT: usize = 128 * 1024;

/// The raw list through the language's symbol query: the specification a hand-written walk
/// follows (tests compare the two). A pattern captures the item as `@definition.KIND` (or
/// `@KIND`) and its name as `@name`. The query is matched by our own matcher (`tags.rs`):
/// reading it costs nothing next to compiling a tree-sitter `Query`.
///
/// `whole`: every definition in `range` (or everywhere) is wanted, not only those holding
/// it: the walk may then leave unopened the nodes that cannot hold one (see `pruning.rs`).
fn collect_raw_query<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    ranges: Option<&[std::ops::Range<usize>]>,
    whole: bool,
    raw: &mut Vec<Raw<'t>>,
) {
    let tags = lang.symbol_tags();
    let kinds: Vec<Option<SymbolKind>> = tags
        .capture_names()
        .iter()
        .map(|n| SymbolKind::from_capture(n))
        .collect();
    let name_index = tags.capture_index("name");
    // One match's item is its last kind capture, its name its last `@name` (the innermost,
    // as tree-sitter records captures: a pattern's elements in written order).
    // A whole big tree's walk opens only the nodes that can hold a pattern's root.
    let mut opener = if whole && source.len() >= PRUNE_AT {
        (lang.symbol_pruning()).map(|p| Opener::new(p, source, tree))
    } else {
        None
    };
    tags.matches_in(tree, source, ranges, opener.as_mut(), &mut |caps| {
        let mut item = None;
        let mut name = None;
        for &(i, node) in caps {
            if Some(i) == name_index {
                name = Some(node);
            } else if let Some(k) = kinds[i as usize] {
                item = Some((k, node));
            }
        }
        if let (Some((kind, node)), Some(name)) = (item, name) {
            raw.push((kind, node, name_node(lang, kind, name)));
        }
    });
}

/// Nests raw query results into symbols: parents, qualified names, ids, attached spans.
fn build(
    lang: &Language,
    source: &[u8],
    file_path: &str,
    index: &LineIndex,
    raw: Vec<Def>,
) -> Vec<Symbol> {
    let spans = FileSpans::new(index, file_path);
    finish(
        lang,
        source,
        file_path,
        vec![prepare(lang, source, &spans, raw)],
    )
}

/// A definition with what [`finish`] needs of it that does not depend on the definitions
/// around it: each part of a file split in parts is prepared on its own thread.
pub(super) struct Prepared<'t> {
    /// Where it goes in the file's order (see [`order`]).
    pub(super) order: Order,
    pub(super) kind: SymbolKind,
    pub(super) node: Node<'t>,
    pub(super) name_node: Node<'t>,
    /// Where the definition ends (its body included: see [`definition_end`]).
    pub(super) end: usize,
    pub(super) name: String,
    pub(super) signature: String,
    pub(super) span: Span,
    pub(super) node_span: Span,
    pub(super) name_span: Span,
    pub(super) body_span: Option<Span>,
}

/// Where a definition goes in the file's order (see [`order`]).
type Order = (usize, std::cmp::Reverse<usize>, usize, SymbolKind);

/// A definition's place in the file's order: its node's start, end (the outer node first),
/// its name's start, then the kind (the first in `SymbolKind` order first).
fn order(kind: SymbolKind, node: Node, name_node: Node) -> Order {
    (
        node.start_byte(),
        std::cmp::Reverse(node.end_byte()),
        name_node.start_byte(),
        kind,
    )
}

/// Each of `raw` prepared, in file order (see [`Prepared::order`]; definitions in the same
/// place stay in the order they came in).
fn prepare<'t>(
    lang: &Language,
    source: &[u8],
    spans: &FileSpans,
    mut raw: Vec<Def<'t>>,
) -> Vec<Prepared<'t>> {
    raw.sort_by_cached_key(|&(kind, node, name_node, _)| order(kind, node, name_node));
    raw.into_iter()
        .map(|(kind, node, name_node, (start, wrapper))| {
            let body = match lang.rules.body {
                Some(f) => f(kind, node),
                None => node
                    .child_by_field_name("body")
                    .filter(|b| b.start_byte() > node.start_byte()),
            };
            let body = body.map(|b| (b, definition_end(lang, b, None)));
            // A definition covers its body, also one that follows its node (see C's `body`),
            // and the wrapper it starts with (Go's `const (` … `)` around its one spec: the
            // span ended before the `)`, and a delete or replace of it left that behind).
            let end = definition_end(lang, node, body).max(body.map_or(0, |b| b.1));
            let end = match wrapper != node {
                true => end.max(definition_end(lang, wrapper, Some((node, end)))),
                false => end,
            };
            let body = body.map(|(b, end)| b.start_byte()..end);
            let (span, node_span) = spans.pair(start..end, node.start_byte()..end);
            let named = name_range(node, name_node, source);
            let (name_span, body_span) = match body {
                Some(b) => {
                    let (name, body) = spans.pair(named.clone(), b);
                    (name, Some(body))
                }
                None => (spans.span(named.clone()), None),
            };
            Prepared {
                order: order(kind, node, name_node),
                kind,
                node,
                name_node,
                end,
                name: match node.kind() {
                    // C#'s `~C()` names its `C` apart from the `~` (C++'s destructor name
                    // holds it): without it, the destructor took the constructor's name.
                    "destructor_declaration" if lang.name == "csharp" => {
                        format!("~{}", symbol_name(&source[name_node.byte_range()]))
                    }
                    // C#'s `implicit operator decimal(Money m)` is `operator decimal`, as
                    // C++'s is: its name node is the type.
                    "conversion_operator_declaration" => {
                        format!("operator {}", symbol_name(&source[name_node.byte_range()]))
                    }
                    // C++'s `operator char*() const` is `operator char*` (see `name_range`).
                    _ => symbol_name(&source[named]),
                },
                signature: signature(&source[node.byte_range()]),
                span,
                node_span,
                name_span,
                body_span,
            }
        })
        .collect()
}

/// The bytes that name a definition (its `name_span`): its name node's, but for C#'s
/// destructor (`~C`, the `~` apart from the name node) and conversion operator (`operator
/// decimal`, whose name node is the type) and C++'s conversion operator, whose node holds
/// parameters and qualifiers too (`operator char*() const` is named `operator char*`).
pub(super) fn name_range(node: Node, name_node: Node, source: &[u8]) -> Range<usize> {
    let from_token = |token: &str| {
        let mut c = node.walk();
        let start = node
            .children(&mut c)
            .find(|k| k.kind() == token && k.start_byte() < name_node.start_byte())
            .map_or(name_node.start_byte(), |k| k.start_byte());
        start..name_node.end_byte()
    };
    match (node.kind(), name_node.kind()) {
        ("destructor_declaration", "identifier") => from_token("~"),
        ("conversion_operator_declaration", _) => from_token("operator"),
        (_, "operator_cast") => {
            // Down the pointer and reference declarators to the parameters' `(`.
            let mut end = name_node.end_byte();
            let mut d = name_node.child_by_field_name("declarator");
            while let Some(n) = d {
                end = n.start_byte();
                d = match n.kind() {
                    "abstract_pointer_declarator" | "abstract_reference_declarator" => n
                        .child_by_field_name("declarator")
                        .or_else(|| n.named_child(0)),
                    _ => None,
                };
                if d.is_none()
                    && n.kind().starts_with("abstract_")
                    && !n.kind().contains("function")
                {
                    end = n.end_byte();
                }
            }
            let text = &source[name_node.start_byte()..end];
            let trimmed = text.len()
                - text
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
            name_node.start_byte()..name_node.start_byte() + trimmed
        }
        _ => name_node.byte_range(),
    }
}

/// Where a definition (or body) ends: at its last token that is not a comment. Tree-sitter
/// puts the comments that follow a Python suite's last statement inside the suite; they are
/// not the definition's. `known`: a node whose end is already known (a body the walk down
/// from `node` may reach).
pub(super) fn definition_end(lang: &Language, node: Node, known: Option<(Node, usize)>) -> usize {
    let mut n = node;
    loop {
        if let Some((_, end)) = known.filter(|k| k.0 == n) {
            return end;
        }
        let mut last = None;
        for i in (0..n.child_count()).rev() {
            let c = n.child(i).expect("index below child_count");
            if !lang.rules.comments.contains(&c.kind()) {
                last = Some(c);
                break;
            }
        }
        match last {
            Some(c) if c.end_byte() > n.start_byte() => n = c,
            _ => return n.end_byte(),
        }
    }
}

/// A `function` directly inside one of the language's `methods_in` kinds is a `method`.
pub(super) fn refine_kind(
    lang: &Language,
    kind: SymbolKind,
    parent: Option<SymbolKind>,
) -> SymbolKind {
    match (kind, parent) {
        (SymbolKind::Function, Some(p)) if lang.rules.methods_in.contains(&p) => SymbolKind::Method,
        _ => kind,
    }
}

pub(super) fn symbol_name(bytes: &[u8]) -> String {
    // An impl of a type that is not a plain path (`impl T for (A, B)`) is named by its text.
    let text = String::from_utf8_lossy(bytes);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// First line of an item's text, trimmed.
pub fn signature(item: &[u8]) -> String {
    let line = item.split(|&b| b == b'\n').next().unwrap_or(b"");
    String::from_utf8_lossy(line).trim().to_string()
}

/// The last segment of a possibly qualified name (`a::b::c` → `c`, `A.b` → `b`).
pub fn last_segment(name: &str) -> &str {
    let after_colons = name.rsplit("::").next().unwrap_or(name);
    after_colons.rsplit('.').next().unwrap_or(after_colons)
}

#[cfg(test)]
#[path = "symbols_tests.rs"]
mod symbols_tests;
