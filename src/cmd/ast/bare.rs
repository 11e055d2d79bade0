//! Bare-kinds queries (`(kind) @x`, see [`crate::lang::literals::bare_kinds`]) answered by a walk of the
//! tree instead of the query engine: the same matches, at a fraction of the cost.

use super::{AstCapture, AstMatch, Collected, Compiled};
use crate::envelope::new_id;
use crate::lang::{self, Language, Opener, Pruning};
use crate::span::{FileSpans, LineIndex};
use tree_sitter::{Node, Tree};

/// A bare-kinds query (see [`crate::lang::literals::bare_kinds`]) ready for the tree walk: its patterns,
/// and for each node symbol of the grammar the patterns naming its kind.
pub struct Bare {
    pub patterns: Vec<(String, Vec<String>)>,
    by_symbol: Vec<Vec<usize>>,
    /// The patterns naming `ERROR`, whose symbol lies outside the grammar's tables.
    error: Vec<usize>,
    /// Which nodes can hold one of the patterns' kinds: by their kind (what the grammar's
    /// `node-types.json` says it can hold), and by whether their text shows a keyword or `{`
    /// that every way down to such a node passes (see `lang::Pruning`); `None`: open every
    /// node.
    pub(super) pruning: Option<Pruning>,
}

impl Bare {
    /// `prune`: work out which nodes need not be opened (a walk around keyword hits needs not).
    pub(super) fn new(lang: &Language, patterns: Vec<(String, Vec<String>)>, prune: bool) -> Bare {
        // Kinds are compared by symbol: several symbols (aliases) can share a name.
        let mut by_symbol = vec![Vec::new(); lang.ts().node_kind_count()];
        let mut error = Vec::new();
        for (i, (kind, _)) in patterns.iter().enumerate() {
            if kind == ERROR {
                error.push(i);
            }
            for id in lang.kind_ids(kind) {
                by_symbol[id as usize].push(i);
            }
        }
        // An ERROR node lies only in nodes that hold an error, which the pruned walk always
        // opens.
        let kinds: Vec<&str> = (patterns.iter().map(|(k, _)| k.as_str()))
            .filter(|k| *k != ERROR)
            .collect();
        Bare {
            pruning: prune.then(|| Pruning::for_kinds(lang, &kinds)).flatten(),
            patterns,
            by_symbol,
            error,
        }
    }

    /// Whether the walk answers a query for `kind`: a named kind of the grammar, or `ERROR`.
    /// (`MISSING` is left to the query engine.)
    pub(super) fn walks(lang: &Language, kind: &str) -> bool {
        kind == ERROR || !lang.kind_ids(kind).is_empty()
    }

    /// The patterns naming a node's kind (empty for most nodes).
    fn of(&self, kind: u16) -> &[usize] {
        if kind == ERROR_SYMBOL {
            return &self.error;
        }
        self.by_symbol
            .get(kind as usize)
            .map_or(&[][..], |v| v.as_slice())
    }
}

const ERROR: &str = "ERROR";

/// tree-sitter's symbol of an ERROR node (`ts_builtin_sym_error`).
const ERROR_SYMBOL: u16 = u16::MAX;

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
            let (content, more) = super::capture_text(source, r.clone(), c.first_lines);
            let names = &bare.patterns[i].1;
            let mut captures = Vec::with_capacity(names.len());
            if let Some((last, rest)) = names.split_last() {
                for name in rest {
                    captures.push(AstCapture {
                        name: name.clone(),
                        span: span.clone(),
                        content: content.clone(),
                        more,
                    });
                }
                captures.push(AstCapture {
                    name: last.clone(),
                    span: span.clone(),
                    content,
                    more,
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
    match (hits, &bare.pruning) {
        (Some(hits), _) => lang::walk_hits(
            tree,
            hits,
            |_, _| false,
            |node, _| {
                let patterns = bare.of(node.kind_id());
                if !patterns.is_empty() {
                    visit(node, patterns);
                }
            },
        ),
        // Nodes that cannot hold a match are not opened; those that hold a syntax error are.
        (None, Some(pruning)) => {
            let mut opener = Opener::new(pruning, source, tree);
            walk_kinds(tree, bare, |node| opener.open(node), visit)
        }
        (None, None) => walk_kinds(tree, bare, |_| true, visit),
    }
}

/// Visits, in document order, every node whose kind a pattern names, with those patterns;
/// opens the root and each node `open` allows (asked in document order). Most nodes cost one
/// lookup of their kind: positions are asked only of the nodes visited and of those whose
/// kind leaves `open` to their text (most of a scan's time outside the parser is this walk).
fn walk_kinds<'t>(
    tree: &'t Tree,
    bare: &Bare,
    mut open: impl FnMut(Node<'t>) -> bool,
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
        if (std::mem::take(&mut root) || open(node)) && cursor.goto_first_child() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The byte ranges of the nodes of `kind` that the walk finds, pruned or opening every node.
    fn found(
        lang: &Language,
        tree: &Tree,
        source: &[u8],
        kind: &str,
        pruned: bool,
    ) -> Vec<(usize, usize)> {
        let bare = Bare::new(lang, vec![(kind.to_string(), vec!["x".into()])], pruned);
        let mut out = Vec::new();
        let visit = |node: Node, _: &[usize]| out.push((node.start_byte(), node.end_byte()));
        match &bare.pruning {
            Some(p) if pruned => {
                let mut opener = Opener::new(p, source, tree);
                walk_kinds(tree, &bare, |n| opener.open(n), visit);
            }
            _ => walk_kinds(tree, &bare, |_| true, visit),
        }
        out
    }

    /// Every named kind met in `source`'s tree, each looked for alone: the pruned walk finds
    /// what the walk that opens every node finds. Returns how many kinds were compared.
    fn check(lang: &Language, source: &[u8], name: &str) -> usize {
        let tree = lang.parse(source);
        // The walk that opens every node, looking for every named kind of the grammar.
        let ts = lang.ts();
        let every: Vec<(String, Vec<String>)> = (0..ts.node_kind_count() as u16)
            .filter(|&id| ts.node_kind_is_named(id))
            .filter_map(|id| ts.node_kind_for_id(id))
            .filter(|k| *k != "ERROR")
            .map(|k| (k.to_string(), Vec::new()))
            .collect();
        let every = Bare::new(lang, every, false);
        let mut kinds = BTreeSet::new();
        walk_kinds(
            &tree,
            &every,
            |_| true,
            |n, _| {
                if !n.is_missing() {
                    kinds.insert(n.kind().to_string());
                }
            },
        );
        for kind in &kinds {
            let all = found(lang, &tree, source, kind, false);
            assert!(!all.is_empty(), "{name}: {kind}");
            assert_eq!(
                found(lang, &tree, source, kind, true),
                all,
                "{name}: {kind}"
            );
        }
        // ERROR nodes, walked where the query engine finds them.
        use tree_sitter::StreamingIterator;
        let query = tree_sitter::Query::new(ts, "(ERROR) @e").unwrap();
        let mut cursor = tree_sitter::QueryCursor::new();
        let mut engine = Vec::new();
        let mut it = cursor.matches(&query, tree.root_node(), source);
        while let Some(m) = it.next() {
            engine.extend(
                m.captures()
                    .iter()
                    .map(|c| (c.node.start_byte(), c.node.end_byte())),
            );
        }
        assert_eq!(found(lang, &tree, source, "ERROR", false), engine, "{name}");
        assert_eq!(found(lang, &tree, source, "ERROR", true), engine, "{name}");
        kinds.len()
    }

    /// Each language's fixture, whole, cut off in its middle, and with a line broken in its
    /// first third (trees with syntax errors: the walk opens what holds one).
    #[test]
    fn the_pruned_walk_finds_every_node_of_a_kind() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for lang in lang::ALL {
            let src = std::fs::read(dir.join(lang.fixture)).unwrap();
            assert!(check(lang, &src, lang.fixture) > 20, "{}", lang.fixture);
            let cut = &src[..src.len() / 2];
            check(lang, cut, lang.fixture);
            let third = src.len() / 3;
            let line = memchr::memchr(b'\n', &src[third..]).map_or(third, |k| third + k);
            let broken = [&b" ) ( { \""[..], b"\n) @ ( ]\n", b"\n}}}\n"]
                .iter()
                .map(|junk| [&src[..line], junk, &src[line..]].concat())
                .find(|b| lang.parse(b).root_node().has_error())
                .unwrap_or_else(|| panic!("{}: no syntax error", lang.fixture));
            check(lang, &broken, lang.fixture);
        }
    }

    /// Over a corpus: `LLM_REGIONS_CORPUS=DIR cargo test --release --lib
    /// the_pruned_walk_on_a_corpus -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn the_pruned_walk_on_a_corpus() {
        let dir = std::env::var_os("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
        let (mut files, mut kinds) = (0, 0);
        for (p, l, src) in lang::source_files(Path::new(&dir)) {
            kinds += check(l, &src, &p.display().to_string());
            files += 1;
        }
        eprintln!("{files} files, {kinds} kinds: the pruned walk finds every node");
    }
}
