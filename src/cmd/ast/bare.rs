//! Bare-kinds queries (`(kind) @x`, see [`crate::lang::literals::bare_kinds`]) answered by a walk of the
//! tree instead of the query engine: the same matches, at a fraction of the cost.

use super::{AstCapture, AstMatch, Collected, Compiled};
use crate::envelope::new_id;
use crate::lang::{self, Language};
use crate::span::{FileSpans, LineIndex};
use tree_sitter::{Node, Tree};

/// A bare-kinds query (see [`crate::lang::literals::bare_kinds`]) ready for the tree walk: its patterns,
/// and for each node symbol of the grammar the patterns naming its kind.
pub struct Bare {
    pub patterns: Vec<(String, Vec<String>)>,
    by_symbol: Vec<Vec<usize>>,
    /// Per node symbol: whether a node of the kind can hold one of the patterns' kinds (see
    /// `Language::may_contain`); `None`: open every node.
    pub(super) may_contain: Option<Vec<bool>>,
}

impl Bare {
    /// `prune`: work out which nodes need not be opened (a walk around keyword hits needs not).
    pub(super) fn new(lang: &Language, patterns: Vec<(String, Vec<String>)>, prune: bool) -> Bare {
        // Kinds are compared by symbol: several symbols (aliases) can share a name.
        let mut by_symbol = vec![Vec::new(); lang.ts().node_kind_count()];
        for (i, (kind, _)) in patterns.iter().enumerate() {
            for id in lang.kind_ids(kind) {
                by_symbol[id as usize].push(i);
            }
        }
        let kinds: Vec<&str> = patterns.iter().map(|(k, _)| k.as_str()).collect();
        Bare {
            may_contain: prune.then(|| lang.may_contain(&kinds)),
            patterns,
            by_symbol,
        }
    }

    /// The patterns naming a node's kind (empty for most nodes).
    fn of(&self, kind: u16) -> &[usize] {
        self.by_symbol
            .get(kind as usize)
            .map_or(&[][..], |v| v.as_slice())
    }
}

/// Matches of a bare-kinds query by a plain tree walk: every named node of a listed kind, once
/// per pattern naming it — what the query engine returns. With `hits` (sorted; each match
/// contains one, as every node of a kind holds its keyword), only the subtrees that contain a
/// hit are entered.
#[allow(clippy::too_many_arguments)]
pub(super) fn bare_matches(
    c: &Compiled,
    bare: &Bare,
    tree: &Tree,
    source: &[u8],
    index: &LineIndex,
    display: &str,
    hits: Option<&[std::ops::Range<usize>]>,
    out: &mut Collected,
) {
    // Worked out at the first match: most nodes are none.
    let mut spans: Option<FileSpans> = None;
    let mut visit = |node: Node, patterns: &[usize]| {
        let r = node.byte_range();
        for &i in patterns {
            if out.skip((r.start, r.end, i)) {
                continue;
            }
            let spans = spans.get_or_insert_with(|| FileSpans::new(index, display));
            let span = spans.span(r.clone());
            let content = String::from_utf8_lossy(&source[r.clone()]).into_owned();
            let names = &bare.patterns[i].1;
            let mut captures = Vec::with_capacity(names.len());
            if let Some((last, rest)) = names.split_last() {
                for name in rest {
                    captures.push(AstCapture {
                        name: name.clone(),
                        span: span.clone(),
                        content: content.clone(),
                    });
                }
                captures.push(AstCapture {
                    name: last.clone(),
                    span: span.clone(),
                    content,
                });
            }
            out.push(AstMatch {
                match_id: new_id(),
                span,
                pattern_index: i,
                language: c.lang.name,
                captures,
            });
        }
    };
    match (hits, &bare.may_contain) {
        (Some(hits), _) => lang::walk_hits(
            tree,
            hits,
            |_, _| false,
            |node| {
                let patterns = bare.of(node.kind_id());
                if !patterns.is_empty() {
                    visit(node, patterns);
                }
            },
        ),
        // Nodes that cannot hold a match are not opened, unless error recovery was at work.
        (None, Some(may)) if !tree.root_node().has_error() => walk_kinds(
            tree,
            bare,
            |kind| may.get(kind as usize).copied().unwrap_or(true),
            visit,
        ),
        (None, _) => walk_kinds(tree, bare, |_| true, visit),
    }
}

/// Visits, in document order, every node whose kind a pattern names, with those patterns;
/// opens the root and each node whose kind `open` allows. Each node costs one lookup of its
/// kind: positions are asked only of the nodes visited (most of a scan's time outside the
/// parser is this walk).
fn walk_kinds<'t>(
    tree: &'t Tree,
    bare: &Bare,
    open: impl Fn(u16) -> bool,
    mut visit: impl FnMut(Node<'t>, &[usize]),
) {
    let mut cursor = tree.walk();
    let mut root = true;
    'outer: loop {
        let node = cursor.node();
        let kind = node.kind_id();
        let patterns = bare.of(kind);
        if !patterns.is_empty() {
            visit(node, patterns);
        }
        if (std::mem::take(&mut root) || open(kind)) && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'outer;
            }
            if !cursor.goto_parent() {
                break 'outer;
            }
        }
    }
}
