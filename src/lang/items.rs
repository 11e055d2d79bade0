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
        let k = self.keep.partition_point(|r| r.end <= at);
        self.keep.get(k).is_some_and(|r| r.contains(&at))
    }
}

impl Language {
    /// The trees of the rule for the items of `regions` (the scan of `source`), in file order;
    /// `whole` is the file's tree (see [`Language::item_trees_within`]).
    pub fn item_trees(
        &self,
        source: &[u8],
        index: &LineIndex,
        regions: &Regions,
        whole: &Tree,
    ) -> Vec<ItemTree> {
        self.item_trees_within(source, index, regions, 0..source.len(), whole)
    }

    /// [`Language::item_trees`] of the items `within` a range of whole items, whose tree is
    /// `whole` (a parse of that range). An item that tree reads without an error (the root's
    /// children that reach into it lie within it and hold none) is read from it, where items
    /// are `independent` (not Bash's): an item's tree is the same alone as among others that
    /// parse without an error (what `regions.rs` relies on; `items_on_a_corpus` checks it of
    /// files with errors), and only the items with an error cost a parse (all of them when
    /// the root of `whole` is itself an error: recovery gave up on the file's grammar). Those
    /// come first, then one tree (a copy of `whole`'s handle) for all the others.
    pub fn item_trees_within(
        &self,
        source: &[u8],
        index: &LineIndex,
        regions: &Regions,
        within: Range<usize>,
        whole: &Tree,
    ) -> Vec<ItemTree> {
        let mut parts = Vec::new();
        let mut shared: Vec<Range<usize>> = Vec::new();
        let children = root_children(whole);
        let shares = regions.independent && !whole.root_node().is_error();
        let inside =
            |i: &&super::regions::Item| within.start <= i.range.start && i.range.end <= within.end;
        for item in regions.items.iter().filter(inside) {
            if shares && clean(&children, &item.range) {
                match shared.last_mut() {
                    Some(last) if last.end == item.range.start => last.end = item.range.end,
                    _ => shared.push(item.range.clone()),
                }
                continue;
            }
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
                            keep = vec![b.head.clone(), m.clone(), b.tail.clone()];
                            keep.retain(|r| !r.is_empty());
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
        if !shared.is_empty() {
            parts.push(ItemTree {
                tree: whole.clone(),
                keep: shared,
            });
        }
        parts
    }
}

/// The syntax errors of the rule's trees, each where its tree is read, in file order.
pub fn errors(parts: &[ItemTree]) -> Vec<super::SyntaxError> {
    let mut out: Vec<_> = (parts.iter())
        .flat_map(|p| {
            let errs = super::syntax_errors(&p.tree).into_iter();
            errs.filter(|e| p.keeps(e.range.start))
        })
        .collect();
    out.sort_by_key(|e| (e.range.start, e.range.end));
    out
}

/// The root's children of a whole-file tree: byte range, and whether it holds an error.
fn root_children(tree: &Tree) -> Vec<(Range<usize>, bool)> {
    let root = tree.root_node();
    let mut c = root.walk();
    let children = root.children(&mut c);
    children.map(|n| (n.byte_range(), n.has_error())).collect()
}

/// Whether the tree whose root has `children` (see [`root_children`]) reads `range` without
/// an error: the children that reach into it lie within it and hold none.
fn clean(children: &[(Range<usize>, bool)], range: &Range<usize>) -> bool {
    let first = children.partition_point(|(r, _)| r.end <= range.start);
    children[first..]
        .iter()
        .take_while(|(r, _)| r.start < range.end)
        .all(|(r, error)| !error && range.start <= r.start && r.end <= range.end)
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

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::span::LineIndex;
    use std::ops::Range;
    use tree_sitter::Tree;

    /// The nodes of `tree` within `range` but its root, in document order: kind, byte range,
    /// field, missing.
    fn nodes(tree: &Tree, range: &Range<usize>) -> Vec<(u16, usize, usize, Option<String>, bool)> {
        let mut out = Vec::new();
        let mut c = tree.walk();
        loop {
            let n = c.node();
            if n.id() != tree.root_node().id()
                && range.start <= n.start_byte()
                && n.end_byte() <= range.end
            {
                let field = c.field_name().map(String::from);
                out.push((
                    n.kind_id(),
                    n.start_byte(),
                    n.end_byte(),
                    field,
                    n.is_missing(),
                ));
            }
            if c.goto_first_child() {
                continue;
            }
            while !c.goto_next_sibling() {
                if !c.goto_parent() {
                    return out;
                }
            }
        }
    }

    /// The items of a file with a syntax error that its whole-file tree reads without one
    /// (those the rule reads from that tree) parse alone as that tree has them. Returns the
    /// number of items compared.
    fn check(l: &Language, src: &[u8], name: &str) -> usize {
        let Some(scan) = l.rules.regions else {
            return 0;
        };
        let whole = l.parse(src);
        let regions = scan(src);
        if !whole.root_node().has_error() || !regions.independent {
            return 0;
        }
        let index = LineIndex::new(src);
        let trees = l.item_trees(src, &index, &regions, &whole);
        let mut n = 0;
        for part in trees
            .iter()
            .filter(|p| p.tree.root_node().byte_range() == whole.root_node().byte_range())
        {
            for r in &part.keep {
                for item in regions
                    .items
                    .iter()
                    .filter(|i| r.start <= i.range.start && i.range.end <= r.end)
                {
                    let alone = l.parse_ranges(src, &index, std::slice::from_ref(&item.range));
                    let (a, b) = (nodes(&whole, &item.range), nodes(&alone, &item.range));
                    if let Some(k) = (0..a.len().max(b.len())).find(|&k| a.get(k) != b.get(k)) {
                        panic!(
                            "{name}: item {:?}: node {k}: {:?} != {:?}",
                            item.range,
                            a.get(k),
                            b.get(k)
                        );
                    }
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn items_a_tree_with_errors_reads_cleanly_parse_alone_as_it_has_them() {
        let cases = [
            ("go", "package p\n\nfunc a() int { return 1 }\n\nfunc b() int { return 2 + }\n\nvar c = 3\n\nfunc d() int {\n\treturn c\n}\n"),
            ("rust", "fn a() {}\n\nfn b() { let x = ; }\n\nimpl S {\n    fn m(&self) {}\n    fn n(&self) { let y = ; }\n}\n\nfn c() {}\n"),
            ("python", "def a():\n    return 1\n\n\ndef b():\n    return 1 +\n\n\nclass C:\n    def m(self):\n        return 2\n"),
        ];
        for (lang, src) in cases {
            let l = crate::lang::by_name(lang).unwrap();
            let n = check(l, src.as_bytes(), lang);
            assert!(n >= 2, "{lang}: {n}");
        }
    }

    /// A whole tree whose root is itself an error (here: a method signature at the top level,
    /// then an object type never closed) lends no item its nodes: each is parsed alone.
    #[test]
    fn a_tree_whose_root_is_an_error_lends_no_item() {
        let ts = crate::lang::by_name("typescript").unwrap();
        let src = b"interface A { x: string }\n\nexport function f(a: number) { return a; }\n\n    m<K extends keyof M>(type: K, listener: (this: T, ev: M[K]) => any): void;\ndeclare var T: {\n";
        let whole = ts.parse(src);
        assert!(whole.root_node().is_error());
        let index = LineIndex::new(src);
        let regions = (ts.rules.regions.unwrap())(src);
        assert!(regions.items.len() >= 2);
        let trees = ts.item_trees(src, &index, &regions, &whole);
        let keeps: Vec<_> = trees.iter().map(|t| t.keep.clone()).collect();
        let items: Vec<_> = regions
            .items
            .iter()
            .map(|i| vec![i.range.clone()])
            .collect();
        assert_eq!(keeps, items);
    }

    /// `LLM_REGIONS_CORPUS=DIR cargo test --lib items_on_a_corpus -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn items_on_a_corpus() {
        let dir = std::env::var("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
        let (mut files, mut items) = (0, 0);
        for (p, l, src) in crate::lang::source_files(std::path::Path::new(&dir)) {
            let n = check(l, &src, &p.display().to_string());
            files += usize::from(n > 0);
            items += n;
        }
        eprintln!("{items} items of {files} files with errors agree");
        assert!(files > 0);
    }
}
