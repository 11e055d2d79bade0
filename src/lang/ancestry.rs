//! Where each definition of a tree starts (its wrappers, attributes, decorators and doc
//! comments included), from one walk down the tree along the definitions' ancestors:
//! tree-sitter's `Node::parent` and `Node::prev_sibling` each walk down from the root, which
//! costs a scan of the root's children per call in a file of thousands of items.

use super::{Doc, Language};
use tree_sitter::{Node, Tree};

/// One node on the path from the root to the current definition, with its visible children
/// (hidden nodes flattened, as `Node::parent` and `Node::prev_sibling` see them; read once the
/// path goes on below it) and the index of the child the path goes through.
struct Level<'t> {
    node: Node<'t>,
    children: Option<Vec<Node<'t>>>,
    at: usize,
    /// How many named children of each kind asked so far (a wrapper of thousands of
    /// definitions, Go's `const ( … )` of a generated file, is counted once, not per child).
    named: Vec<(&'t str, usize)>,
}

impl<'t> Level<'t> {
    fn new(node: Node<'t>) -> Level<'t> {
        Level {
            node,
            children: None,
            at: 0,
            named: Vec::new(),
        }
    }

    /// The node's children, read on first use.
    fn children(&mut self) -> &[Node<'t>] {
        self.children.get_or_insert_with(|| {
            let mut cursor = self.node.walk();
            self.node.children(&mut cursor).collect()
        })
    }

    /// How many named children of `kind` the node has.
    fn named_of(&mut self, kind: &'t str) -> usize {
        if let Some(&(_, n)) = self.named.iter().find(|(k, _)| *k == kind) {
            return n;
        }
        let n = (self.children().iter())
            .filter(|c| c.is_named() && c.kind() == kind)
            .count();
        self.named.push((kind, n));
        n
    }
}

fn contains(outer: Node, inner: Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// [`attached_start`] of each of `nodes` (all of `tree`), in their order, with the node's
/// outermost wrapper ([`outermost_wrapper`]; the node itself when it has none): equal to
/// calling them on each, in time linear in the children of the nodes' ancestors.
pub(super) fn attached_starts<'t>(
    lang: &Language,
    source: &[u8],
    tree: &'t Tree,
    nodes: &[Node<'t>],
) -> Vec<(usize, Node<'t>)> {
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&i| {
        (
            nodes[i].start_byte(),
            std::cmp::Reverse(nodes[i].end_byte()),
        )
    });
    let mut starts = vec![(0, tree.root_node()); nodes.len()];
    let mut path = vec![Level::new(tree.root_node())];
    for i in order {
        let node = nodes[i];
        while path.len() > 1 && !contains(path[path.len() - 1].node, node) {
            path.pop();
        }
        starts[i] = if descend(&mut path, node) {
            start_on_path(lang, source, &mut path)
        } else {
            // Not found among the visible descendants (an empty node, or one whose range
            // equals an ancestor's): asked of the tree itself.
            (
                attached_start(lang, node, source),
                outermost_wrapper(lang, node),
            )
        };
    }
    starts
}

/// Extends `path` down to `node`; false (the path back as it was found) when it is not there.
fn descend<'t>(path: &mut Vec<Level<'t>>, node: Node<'t>) -> bool {
    if node.start_byte() == node.end_byte() {
        return false;
    }
    let depth = path.len();
    loop {
        let top = path.last_mut().expect("the root stays on the path");
        if top.node == node {
            return true;
        }
        let at = top.at;
        let found = top.children()[at..]
            .iter()
            .position(|&c| contains(c, node))
            .map(|k| at + k);
        match found {
            Some(k) => {
                top.at = k;
                let child = top.children()[k];
                path.push(Level::new(child));
            }
            None => {
                path.truncate(depth);
                return false;
            }
        }
    }
}

/// [`attached_start`] of the last node of `path`, and its outermost wrapper.
fn start_on_path<'t>(lang: &Language, source: &[u8], path: &mut [Level<'t>]) -> (usize, Node<'t>) {
    // The outermost wrapper, as `outermost_wrapper` finds it.
    let mut k = path.len() - 1;
    while k >= 1 {
        if !lang.rules.wrappers.contains(&path[k - 1].node.kind()) {
            break;
        }
        let kind = path[k].node.kind();
        if path[k - 1].named_of(kind) > 1 {
            break;
        }
        k -= 1;
    }
    let node = path[k].node;
    // A level above another has its children read.
    let before: &[Node] = match k {
        0 => &[],
        _ => &path[k - 1].children.as_deref().unwrap_or_default()[..path[k - 1].at],
    };
    (
        attached_start_from(lang, source, node, before.iter().rev().copied()),
        node,
    )
}

/// Start of the whole definition: the item's node extended over its wrappers (decorated
/// definition, `export`, `template<…>`), then over the attributes, decorators and doc comments
/// directly before it, as the language's `doc`, `attached` and `wrappers` tables say.
pub(super) fn attached_start(lang: &Language, node: Node, source: &[u8]) -> usize {
    let node = outermost_wrapper(lang, node);
    let before = std::iter::successors(node.prev_sibling(), |p| p.prev_sibling());
    attached_start_from(lang, source, node, before)
}

/// [`attached_start`] of `node`, its outermost wrapper, whose siblings before it are `before`
/// (nearest first).
pub(super) fn attached_start_from<'t>(
    lang: &Language,
    source: &[u8],
    node: Node<'t>,
    before: impl Iterator<Item = Node<'t>>,
) -> usize {
    let r = &lang.rules;
    let mut start = node.start_byte();
    // Where the run of adjacent lines now begins (for `Doc::Adjacent` and `Doc::Prefixed`).
    let mut top = start;
    for p in before {
        let text = &source[p.byte_range()];
        let adjacent = || {
            let gap = &source[p.end_byte()..top];
            gap.iter().filter(|&&b| b == b'\n').count() <= 1
                && gap.iter().all(|b| b.is_ascii_whitespace())
                && starts_line(source, p.start_byte())
        };
        if r.attached.contains(&p.kind()) {
            if !adjacent() && !matches!(r.doc, Doc::Custom(_)) {
                break;
            }
            start = p.start_byte();
        } else if r.comments.contains(&p.kind()) {
            // A `#!` line opening the file names its interpreter: it documents no definition
            // (attached to a script's first function, `patch --delete` took it away too).
            let first = p.start_byte() == 0
                || (p.start_byte() == crate::edit::BOM.len()
                    && source.starts_with(crate::edit::BOM));
            if first && text.starts_with(b"#!") {
                break;
            }
            match r.doc {
                Doc::None => break,
                Doc::Custom(is_doc) => {
                    if is_doc(text) {
                        start = p.start_byte();
                    }
                }
                Doc::Adjacent if adjacent() => start = p.start_byte(),
                Doc::Prefixed(prefixes)
                    if adjacent() && prefixes.iter().any(|x| text.starts_with(x.as_bytes())) =>
                {
                    start = p.start_byte()
                }
                _ => break,
            }
        } else {
            break;
        }
        top = p.start_byte();
    }
    start
}

/// The definition's outermost wrapper (the node itself when it has none). A wrapper holding
/// several definitions of the kind (Go's `const ( … )`) belongs to none of them.
pub(super) fn outermost_wrapper<'t>(lang: &Language, mut node: Node<'t>) -> Node<'t> {
    while let Some(p) = node.parent() {
        if !lang.rules.wrappers.contains(&p.kind()) {
            break;
        }
        let mut c = p.walk();
        if p.named_children(&mut c)
            .filter(|c| c.kind() == node.kind())
            .count()
            > 1
        {
            break;
        }
        node = p;
    }
    node
}

/// Whether only blanks precede `at` on its line.
fn starts_line(source: &[u8], at: usize) -> bool {
    source[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every named node of every fixture and of this repository's sources: the walk's start
    /// equals the one asked of the tree node by node.
    #[test]
    fn attached_starts_equal_the_node_by_node_ones() {
        let mut files = 0;
        let dirs = [
            std::path::PathBuf::from("tests/fixtures"),
            std::path::PathBuf::from("src"),
        ];
        for dir in dirs {
            for (_, lang, source) in super::super::source_files(&dir) {
                let tree = lang.parse(&source);
                let mut nodes = Vec::new();
                let mut cursor = tree.walk();
                'walk: loop {
                    let n = cursor.node();
                    if n.is_named() && n.parent().is_some() {
                        nodes.push(n);
                    }
                    if cursor.goto_first_child() {
                        continue;
                    }
                    while !cursor.goto_next_sibling() {
                        if !cursor.goto_parent() {
                            break 'walk;
                        }
                    }
                }
                // Every other node: starts of neighbours and of nested nodes alike.
                let nodes: Vec<Node> = nodes.into_iter().step_by(3).collect();
                let want: Vec<(usize, Node)> = nodes
                    .iter()
                    .map(|&n| (attached_start(lang, n, &source), outermost_wrapper(lang, n)))
                    .collect();
                assert_eq!(attached_starts(lang, &source, &tree, &nodes), want);
                files += 1;
            }
        }
        assert!(files > 20, "only {files} files");
    }
}
