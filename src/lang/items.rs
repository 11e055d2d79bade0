//! The rule for files with syntax errors, shared by `find` (symbols) and `ast` (queries): when
//! the whole-file parse of a language with a region scanner has an error, each top-level item
//! is read from a parse of its own, and the members of a container whose own parse has an error
//! (and the container) from parses of each member with the container's head and tail — the
//! trees a region parse around a name or literal reads. Error recovery in one item then never
//! hides what another holds, and results do not depend on how much of a file was parsed.

use super::regions::Regions;
use super::Language;
use crate::span::LineIndex;
use std::ops::Range;
use tree_sitter::Tree;

/// One tree of the rule, and the byte ranges whose nodes are read from it (a node belongs to
/// the tree whose ranges hold its start; the ranges of all trees are disjoint and cover the
/// file).
pub struct ItemTree {
    pub tree: Tree,
    pub keep: Vec<Range<usize>>,
}

impl ItemTree {
    /// Whether a node starting at `at` is read from this tree.
    pub fn keeps(&self, at: usize) -> bool {
        self.keep.iter().any(|r| r.contains(&at))
    }
}

impl Language {
    /// The trees of the rule for the items of `regions` (the scan of `source`), in file order.
    pub fn item_trees(&self, source: &[u8], index: &LineIndex, regions: &Regions) -> Vec<ItemTree> {
        let mut parts = Vec::new();
        for item in &regions.items {
            let mut tree = self.parse_ranges(source, index, std::slice::from_ref(&item.range));
            if tree.root_node().has_error() {
                tree = blanked(self, source, index, &item.range, regions).unwrap_or(tree);
            }
            match &item.body {
                Some(b) if tree.root_node().has_error() => {
                    // Each member from a parse of its own with the container's head and tail;
                    // the container (its head and tail) from the last one's.
                    let last = b.members.len() - 1;
                    for (i, m) in b.members.iter().enumerate() {
                        let ranges = [b.head.clone(), m.clone(), b.tail.clone()];
                        let ranges: Vec<_> = ranges.into_iter().filter(|r| !r.is_empty()).collect();
                        let mut keep = vec![m.clone()];
                        if i == last {
                            keep.extend([b.head.clone(), b.tail.clone()]);
                        }
                        parts.push(ItemTree {
                            tree: self.parse_ranges(source, index, &ranges),
                            keep,
                        });
                    }
                }
                _ => parts.push(ItemTree {
                    tree,
                    keep: vec![item.range.clone()],
                }),
            }
        }
        parts
    }
}

/// An item with a syntax error parsed again with what the grammar may not read blanked out
/// (spaces, line breaks kept: every position stays), when the scanner knows it (Bash): first the
/// insides of its functions' bodies, then its `[[ … ]]` tests as well (each left as `[[ x ]]`).
/// A function whose body, or the condition of the `if` around it, tree-sitter-bash cannot read
/// (`[[ $x == *@(a|b)* ]]`) is still listed, with its span and body span. `None`: nothing to
/// blank, or still an error.
fn blanked(
    lang: &Language,
    source: &[u8],
    index: &LineIndex,
    item: &Range<usize>,
    regions: &Regions,
) -> Option<Tree> {
    let inside = |r: &Range<usize>, of: &Range<usize>| of.start <= r.start && r.end <= of.end;
    let bodies: Vec<_> = regions.bodies.iter().filter(|b| inside(b, item)).collect();
    let tests: Vec<_> = (regions.tests.iter())
        .filter(|t| inside(t, item) && !bodies.iter().any(|b| inside(t, b)))
        .collect();
    let mut blank = source.to_vec();
    for (ranges, test) in [(bodies, false), (tests, true)] {
        if ranges.is_empty() {
            continue;
        }
        for r in ranges {
            let text = &mut blank[r.clone()];
            for c in text.iter_mut().filter(|c| !matches!(**c, b'\n' | b'\r')) {
                *c = b' ';
            }
            // A test of one word between spaces: `[[ x ]]`.
            if test {
                if let Some(k) =
                    (1..text.len().saturating_sub(1)).find(|&k| text[k - 1..=k + 1] == *b"   ")
                {
                    text[k] = b'x';
                }
            }
        }
        let t = lang.parse_ranges(&blank, index, std::slice::from_ref(item));
        if !t.root_node().has_error() {
            return Some(t);
        }
    }
    None
}
