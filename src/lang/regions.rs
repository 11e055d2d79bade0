//! Regions: a language's cheap lexical outline of a file — its top-level items, and the members
//! of container items (impl/trait/mod bodies, class bodies) — so that a file can be parsed only
//! where a name or literal occurs instead of whole.
//!
//! Each language's scanner (in its own file) tracks comments, strings and brackets to find the
//! places where the whole-file parse has a top-level item boundary. Parsing a selection of items
//! (tree-sitter's included ranges: the selection is parsed as if it were the whole file, with
//! every position kept) then gives every node inside a selected item exactly the subtree the
//! whole-file parse gives it. A member of a container is parsed with its container's head and
//! tail (`impl X {` … `}`, `class A:`), so its ancestors are there too, with shortened ranges:
//! that is why a query whose match could be rooted at a container kind only cuts between items.
//!
//! A region parse that has any ERROR or MISSING node is thrown away for a whole-file parse, so
//! a scanner's mistake (a boundary inside a construct it misread) costs time, never a wrong
//! tree. `tests` below compare region parses with whole-file parses node by node.

use super::Language;
use crate::span::LineIndex;
use std::ops::Range;
use tree_sitter::Tree;

/// The lexical outline of a file: its top-level items, in order, covering every byte.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Regions {
    pub items: Vec<Item>,
    /// Every bracket, string and comment the scanner opened was closed by the end of the file
    /// (a file cut off in the middle is not).
    pub balanced: bool,
    /// The insides of function bodies the scanner knows (Bash), which the rule for files with
    /// syntax errors blanks out when a function's item does not parse (see `symbols.rs`).
    pub bodies: Vec<Range<usize>>,
    /// The insides of `[[ … ]]` tests (Bash), which that rule blanks out too when blanking the
    /// bodies is not enough: tree-sitter-bash cannot read some (`[[ $x == *@(a|b)* ]]`).
    pub tests: Vec<Range<usize>>,
    /// Per item, the bytes of its comments (the brace scanner's; empty for the others), which
    /// weigh less in `split_parts`: a parse reads a comment as one token.
    pub comments: Vec<usize>,
    /// Each item parsed alone comes out as in the whole-file parse, which the region parses of
    /// `parse_around` and `split_parts` rely on. Not so in Bash: tree-sitter-bash reads the
    /// same `a=1 b=2` line as one node or three depending on the commands before it, so its
    /// items serve only the rule for files with syntax errors.
    pub independent: bool,
}

/// One top-level item with what precedes it back to the previous item's end (its doc
/// comments, attributes, decorators) and the blank lines after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub range: Range<usize>,
    /// For a container with members on lines of their own: the split of `range`.
    pub body: Option<Body>,
}

/// A container item cut into `head` (up to the first member), its members, and `tail` (from
/// the line of the closing `}` on; empty for Python). Together they cover the item's range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub head: Range<usize>,
    pub members: Vec<Range<usize>>,
    pub tail: Range<usize>,
}

/// How finely a region parse may cut a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Whole top-level items only: every node inside a selected item keeps its ancestors.
    Items,
    /// Members of containers too (with the container's head and tail): nodes inside a member
    /// keep their subtree; the container's own nodes are shortened.
    Members,
}

/// A selection covering more than this share of the file is parsed whole instead.
const WORTH_IT: f64 = 0.7;

impl Regions {
    /// Builds the outline from item start offsets (the first must be 0) and the bodies found.
    pub(super) fn from_starts(
        len: usize,
        items: Vec<(usize, Option<Body>)>,
        balanced: bool,
    ) -> Regions {
        let mut out = Vec::with_capacity(items.len());
        for (k, (start, body)) in items.iter().enumerate() {
            let end = items.get(k + 1).map_or(len, |n| n.0);
            if end <= *start {
                continue;
            }
            let body = body
                .clone()
                .filter(|b| b.head.start == *start && b.tail.end == end && !b.members.is_empty());
            out.push(Item {
                range: *start..end,
                body,
            });
        }
        Regions {
            items: out,
            balanced,
            bodies: Vec::new(),
            tests: Vec::new(),
            comments: Vec::new(),
            independent: true,
        }
    }

    /// The byte ranges to parse so that every node containing one of `hits` comes out as the
    /// whole-file parse has it, merged and in order; `None` when that is most of the file
    /// (then it is cheaper, and as exact, to parse it whole).
    pub fn select(&self, hits: &[Range<usize>], cut: Cut, len: usize) -> Option<Vec<Range<usize>>> {
        let mut hits: Vec<Range<usize>> = hits.to_vec();
        hits.sort_by_key(|h| h.start);
        let mut out: Vec<Range<usize>> = Vec::new();
        let mut push = |r: Range<usize>| match out.last_mut() {
            Some(last) if last.end >= r.start => last.end = last.end.max(r.end),
            _ if r.is_empty() => {}
            _ => out.push(r),
        };
        let mut h = 0;
        for item in &self.items {
            let r = &item.range;
            // Hits that end before this item were handled by earlier items.
            while h < hits.len() && hits[h].end <= r.start && !hits[h].is_empty() {
                h += 1;
            }
            let mine: Vec<&Range<usize>> = hits[h..]
                .iter()
                .take_while(|x| x.start < r.end)
                .filter(|x| overlaps(x, r))
                .collect();
            if mine.is_empty() {
                continue;
            }
            match (&item.body, cut) {
                (Some(b), Cut::Members)
                    if mine
                        .iter()
                        .all(|x| !overlaps(x, &b.head) && !overlaps(x, &b.tail)) =>
                {
                    push(b.head.clone());
                    for m in &b.members {
                        if mine.iter().any(|x| overlaps(x, m)) {
                            push(m.clone());
                        }
                    }
                    push(b.tail.clone());
                }
                _ => push(r.clone()),
            }
        }
        let total: usize = out.iter().map(|r| r.len()).sum();
        (total as f64 <= WORTH_IT * len as f64).then_some(out)
    }
}

/// Whether a hit touches a range (an empty hit counts where it sits).
fn overlaps(hit: &Range<usize>, r: &Range<usize>) -> bool {
    if hit.is_empty() {
        r.start <= hit.start && hit.start < r.end
    } else {
        hit.start < r.end && r.start < hit.end
    }
}

/// A tree of the whole file or of some of its regions.
pub struct Parsed {
    pub tree: Tree,
    /// The ranges parsed, or `None` for the whole file.
    pub ranges: Option<Vec<Range<usize>>>,
}

impl Parsed {
    /// Whether only some regions were parsed.
    pub fn is_partial(&self) -> bool {
        self.ranges.is_some()
    }
}

impl Language {
    /// Parses only `ranges` of `source` (in order, not overlapping), keeping every position as
    /// in the whole file.
    pub fn parse_ranges(&self, source: &[u8], index: &LineIndex, ranges: &[Range<usize>]) -> Tree {
        // Ranges a scanner made of broken text may overlap (`impl A {\n}\n{\ny`: a head that
        // runs past its first member): their union is parsed, in order, rather than a panic.
        let merged;
        let ordered = ranges
            .windows(2)
            .all(|w| w[0].end <= w[1].start && w[0].start <= w[0].end);
        let ranges = if ordered {
            ranges
        } else {
            let mut sorted = ranges.to_vec();
            sorted.sort_by_key(|r| r.start);
            let mut out: Vec<Range<usize>> = Vec::new();
            for r in sorted {
                match out.last_mut() {
                    Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                    _ => out.push(r),
                }
            }
            merged = out;
            &merged[..]
        };
        let point = |off: usize| {
            let (line, col) = index.position(off);
            tree_sitter::Point {
                row: line - 1,
                column: col,
            }
        };
        let ts_ranges: Vec<tree_sitter::Range> = ranges
            .iter()
            .map(|r| tree_sitter::Range {
                start_byte: r.start,
                end_byte: r.end,
                start_point: point(r.start),
                end_point: point(r.end),
            })
            .collect();
        self.with_parser(|parser| {
            parser
                .set_included_ranges(&ts_ranges)
                .expect("ranges are in order and do not overlap");
            let tree = parser.parse(source, None);
            parser
                .set_included_ranges(&[])
                .expect("an empty list means the whole document");
            tree.expect("parser has a language and no timeout")
        })
    }

    /// The regions of `source` that the nodes containing `hits` need, parsed; the whole file
    /// when the selection would be most of it, or when the region parse has a syntax error.
    pub fn parse_around(
        &self,
        source: &[u8],
        index: &LineIndex,
        hits: &[Range<usize>],
        cut: Cut,
    ) -> Parsed {
        // Without a region scanner, a language's files are parsed whole.
        let regions = self.rules.regions.map(|scan| scan(source));
        let regions = regions.filter(|r| r.independent);
        if let Some(ranges) = regions.and_then(|r| r.select(hits, cut, source.len())) {
            if ranges.is_empty() {
                return Parsed {
                    tree: self.parse(b""),
                    ranges: Some(ranges),
                };
            }
            let tree = self.parse_ranges(source, index, &ranges);
            if !tree.root_node().has_error() {
                return Parsed {
                    tree,
                    ranges: Some(ranges),
                };
            }
        }
        Parsed {
            tree: self.parse(source),
            ranges: None,
        }
    }

    /// The finest cut that keeps a query's matches exact: `None` when a match could be rooted
    /// at the root node (or the query cannot be read), [`Cut::Items`] when it could be rooted
    /// at a container's own nodes, [`Cut::Members`] otherwise. `roots` are the possible kinds of
    /// each pattern's root node (`_` for a wildcard, the text of an anonymous node in quotes).
    pub fn cut_for_roots(&self, roots: &[String]) -> Option<Cut> {
        let root_kind = self.rules.root_kind;
        let mut cut = Cut::Members;
        for r in roots {
            if r.starts_with('"') {
                continue;
            }
            if r == "_" || r == root_kind || r == "ERROR" || r == "MISSING" {
                return None;
            }
            // A supertype (`_expression`) may stand for a container.
            if r.starts_with('_') || self.rules.containers.contains(&r.as_str()) {
                cut = Cut::Items;
            }
        }
        Some(cut)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::by_name;
    use std::collections::BTreeSet;
    use std::path::Path;
    use tree_sitter::Node;

    type Shape = BTreeSet<(String, usize, usize, Option<(usize, usize)>)>;

    /// `(kind, start, end, parent range)` of every node inside `within`, the parent being the
    /// nearest ancestor inside `within` (`None` when there is none): the structure a region
    /// parse must reproduce. With `skip`, nodes of those kinds are left out (a member's
    /// container comes out shortened, possibly to the member's own range).
    fn nodes_within(tree: &Tree, within: &Range<usize>, skip: &[&str]) -> Shape {
        fn go(
            n: Node,
            w: &Range<usize>,
            skip: &[&str],
            parent: Option<(usize, usize)>,
            out: &mut Shape,
        ) {
            let r = n.byte_range();
            if r.end <= w.start || r.start >= w.end {
                return;
            }
            // The root is the file in one tree and the regions in the other.
            let inside = w.start <= r.start && r.end <= w.end && !r.is_empty();
            let kept = inside && n.parent().is_some() && !skip.contains(&n.kind());
            if kept {
                out.insert((n.kind().to_string(), r.start, r.end, parent));
            }
            let parent = if kept { Some((r.start, r.end)) } else { parent };
            let mut c = n.walk();
            for child in n.children(&mut c) {
                go(child, w, skip, parent, out);
            }
        }
        let mut out = BTreeSet::new();
        go(tree.root_node(), within, skip, None, &mut out);
        out
    }

    /// Checks one file: the outline covers it, and (when it parses without errors) every item
    /// and every member parsed alone has the structure the whole-file parse gives it. Returns
    /// the number of regions compared.
    pub(crate) fn check_file(lang: &Language, src: &[u8], name: &str) -> usize {
        let regions = (lang.rules.regions.unwrap())(src);
        let mut at = 0;
        for item in &regions.items {
            assert_eq!(item.range.start, at, "{name}: items must be contiguous");
            at = item.range.end;
            if let Some(b) = &item.body {
                let mut p = b.head.end;
                assert_eq!(b.head.start, item.range.start);
                for m in &b.members {
                    assert_eq!(m.start, p, "{name}: members must be contiguous");
                    p = m.end;
                }
                assert_eq!(b.tail.start, p);
                assert_eq!(b.tail.end, item.range.end);
            }
        }
        assert_eq!(at, src.len(), "{name}: items must cover the file");
        let index = LineIndex::new(src);
        let full = lang.parse(src);
        if full.root_node().has_error() {
            return 0;
        }
        let mut n = 0;
        for item in &regions.items {
            let tree = lang.parse_ranges(src, &index, std::slice::from_ref(&item.range));
            let text = String::from_utf8_lossy(&src[item.range.clone()]);
            assert!(
                !tree.root_node().has_error(),
                "{name}: item {:?} alone has a syntax error:\n{text}",
                item.range
            );
            if !regions.independent {
                n += 1;
                continue;
            }
            assert_eq!(
                nodes_within(&tree, &item.range, &[]),
                nodes_within(&full, &item.range, &[]),
                "{name}: item {:?} parsed alone differs:\n{text}",
                item.range
            );
            n += 1;
            let Some(b) = &item.body else { continue };
            for m in &b.members {
                let ranges = [b.head.clone(), m.clone(), b.tail.clone()];
                let ranges: Vec<_> = ranges.into_iter().filter(|r| !r.is_empty()).collect();
                let tree = lang.parse_ranges(src, &index, &ranges);
                let text = String::from_utf8_lossy(&src[m.clone()]);
                assert!(
                    !tree.root_node().has_error(),
                    "{name}: member {m:?} with its head and tail has a syntax error:\n{text}"
                );
                assert_eq!(
                    nodes_within(&tree, m, lang.rules.containers),
                    nodes_within(&full, m, lang.rules.containers),
                    "{name}: member {m:?} parsed with its head and tail differs:\n{text}"
                );
                n += 1;
            }
        }
        n
    }

    fn check_dir(dir: &Path, n: &mut usize, files: &mut usize) {
        for (p, lang, src) in crate::lang::source_files(dir) {
            if std::str::from_utf8(&src).is_ok() && lang.rules.regions.is_some() {
                *n += check_file(lang, &src, &p.display().to_string());
                *files += 1;
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Every scanner reads any bytes without a panic, its items in order and covering the
        /// file, its function bodies inside it (text made of the characters that open and close
        /// what scanners track).
        #[test]
        fn scanners_cover_any_text(
            src in proptest::collection::vec(proptest::sample::select(
                b"ab ()[]{}\"'`$#\\\n\r\t/*<-;|&=:@!\xc3\xa9".to_vec()), 0..300)
        ) {
            for l in crate::lang::ALL.iter().filter(|l| l.rules.regions.is_some()) {
                let r = (l.rules.regions.unwrap())(&src);
                let mut at = 0;
                for item in &r.items {
                    proptest::prop_assert_eq!(item.range.start, at, "{}", l.name);
                    at = item.range.end;
                }
                proptest::prop_assert_eq!(at, src.len(), "{}", l.name);
                for b in &r.bodies {
                    proptest::prop_assert!(b.start <= b.end && b.end <= src.len());
                }
            }
        }
    }

    #[test]
    fn region_parses_equal_whole_file_parses_on_this_repository() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (mut n, mut files) = (0, 0);
        for dir in ["src", "tests"] {
            check_dir(&root.join(dir), &mut n, &mut files);
        }
        assert!(files > 40 && n > 500, "only {n} regions in {files} files");
    }

    /// Over a whole corpus: `LLM_REGIONS_CORPUS=DIR cargo test region_parses -- --ignored`.
    #[test]
    #[ignore]
    fn region_parses_equal_whole_file_parses_on_a_corpus() {
        let Some(dir) = std::env::var_os("LLM_REGIONS_CORPUS") else {
            return;
        };
        let (mut n, mut files) = (0, 0);
        check_dir(Path::new(&dir), &mut n, &mut files);
        eprintln!("{n} regions in {files} files agree");
    }

    #[test]
    fn region_parses_equal_whole_file_parses_on_the_python_standard_library() {
        let py = by_name("python").unwrap();
        let mut n = 0;
        for (m, src) in crate::lang::python_stdlib_sample() {
            n += check_file(py, &src, m);
        }
        assert!(n > 100, "only {n} regions compared");
    }

    fn outline(lang: &str, src: &str) -> Vec<(String, Option<Vec<String>>)> {
        let l = by_name(lang).unwrap();
        (l.rules.regions.unwrap())(src.as_bytes())
            .items
            .iter()
            .map(|i| {
                (
                    src[i.range.clone()].to_string(),
                    i.body.as_ref().map(|b| {
                        std::iter::once(&b.head)
                            .chain(&b.members)
                            .chain(std::iter::once(&b.tail))
                            .map(|r| src[r.clone()].to_string())
                            .collect()
                    }),
                )
            })
            .collect()
    }

    #[test]
    fn rust_items_and_members() {
        let src = "//! Crate doc.\nuse a::b;\n\n/// Doc.\n#[derive(Debug)]\nstruct S { a: u8 }\n\nimpl S {\n    /// M.\n    fn m(&self) -> u8 {\n        self.a\n    }\n\n    const C: u8 = 1;\n}\n\nfn f() {\n    let s = \"}\n\";\n    let c = '}';\n    let l: &'static str = r#\"\n}\"#;\n    /* } /* nested } */ */\n}\n";
        let o = outline("rust", src);
        let texts: Vec<&str> = o.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "//! Crate doc.\nuse a::b;\n\n",
                "/// Doc.\n#[derive(Debug)]\nstruct S { a: u8 }\n\n",
                "impl S {\n    /// M.\n    fn m(&self) -> u8 {\n        self.a\n    }\n\n    const C: u8 = 1;\n}\n\n",
                "fn f() {\n    let s = \"}\n\";\n    let c = '}';\n    let l: &'static str = r#\"\n}\"#;\n    /* } /* nested } */ */\n}\n",
            ]
        );
        assert_eq!(
            o[2].1.as_deref().unwrap(),
            [
                "impl S {\n",
                "    /// M.\n    fn m(&self) -> u8 {\n        self.a\n    }\n\n",
                "    const C: u8 = 1;\n",
                "}\n\n"
            ]
        );
        assert!(o[3].1.is_none(), "a fn is not a container");
    }

    #[test]
    fn python_items_and_members() {
        let src = "\"\"\"Doc.\n\nclass Not:\n\"\"\"\nimport os\n\n@dec\n# between\nclass A(B):\n    \"\"\"Doc.\"\"\"\n    x = (1,\n2)\n\n    @property\n    def p(self):\n        s = '''\ndef no():\n'''\n        return s\n# column 0 comment\n    def q(self, a,\n          b):  # }\n        pass\ntry:\n    pass\nexcept E:\n    pass\n";
        let o = outline("python", src);
        let texts: Vec<&str> = o.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts.len(), 4, "{texts:#?}");
        assert_eq!(texts[0], "\"\"\"Doc.\n\nclass Not:\n\"\"\"\n");
        assert_eq!(texts[1], "import os\n\n");
        assert!(texts[2].starts_with("@dec\n# between\nclass A(B):"));
        assert!(texts[3].starts_with("try:") && texts[3].ends_with("except E:\n    pass\n"));
        assert_eq!(
            o[2].1.as_deref().unwrap(),
            [
                "@dec\n# between\nclass A(B):\n",
                "    \"\"\"Doc.\"\"\"\n",
                "    x = (1,\n2)\n\n",
                "    @property\n    def p(self):\n        s = '''\ndef no():\n'''\n        return s\n# column 0 comment\n",
                "    def q(self, a,\n          b):  # }\n        pass\n",
                ""
            ]
        );
    }

    #[test]
    fn select_items_members_and_the_whole_file() {
        let src = "fn a() {}\n\nimpl S {\n    fn m() {}\n    fn n() {}\n}\n\nfn z() {}\n";
        let rust = by_name("rust").unwrap();
        let r = (rust.rules.regions.unwrap())(src.as_bytes());
        let at = |s: &str| {
            let i = src.find(s).unwrap();
            i..i + s.len()
        };
        let texts = |v: Option<Vec<Range<usize>>>| {
            v.map(|v| {
                v.into_iter()
                    .map(|r| src[r].to_string())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            texts(r.select(&[at("n()")], Cut::Members, src.len())),
            Some(vec!["impl S {\n".into(), "    fn n() {}\n}\n\n".into()])
        );
        assert_eq!(
            texts(r.select(&[at("n()")], Cut::Items, src.len())),
            Some(vec!["impl S {\n    fn m() {}\n    fn n() {}\n}\n\n".into()])
        );
        // A hit in the head takes the whole container.
        assert_eq!(
            texts(r.select(&[at("S {")], Cut::Members, src.len())),
            Some(vec!["impl S {\n    fn m() {}\n    fn n() {}\n}\n\n".into()])
        );
        assert_eq!(
            texts(r.select(&[at("z()")], Cut::Members, src.len())),
            Some(vec!["fn z() {}\n".into()])
        );
        assert_eq!(
            r.select(&[at("a()"), at("m()"), at("z()")], Cut::Items, src.len()),
            None
        );
        assert_eq!(r.select(&[], Cut::Items, src.len()), Some(vec![]));
    }

    #[test]
    fn a_file_cut_off_in_the_middle_is_not_balanced() {
        let rust = by_name("rust").unwrap();
        let py = by_name("python").unwrap();
        let r = |s: &str| (rust.rules.regions.unwrap())(s.as_bytes()).balanced;
        let p = |s: &str| (py.rules.regions.unwrap())(s.as_bytes()).balanced;
        assert!(r("fn a() {}\nfn b() { \"}\" }\n"));
        assert!(!r("fn a() {}\nfn b() {\n"));
        assert!(!r("fn a() {}\n/* never closed\n"));
        assert!(!r("fn a() { let s = \"never closed }\n"));
        assert!(!r("const S: &str = r#\"never closed\"\n"));
        assert!(p("def f():\n    return (1,\n 2)\n"));
        assert!(!p("def f():\n    return (1,\n"));
        assert!(!p("x = 1 + \\\n"));
    }

    #[test]
    fn split_parses_give_the_symbols_of_a_whole_parse() {
        for (lang, name) in [
            ("rust", "src/cmd/ast/mod.rs"),
            ("python", "tests/fixtures/symbols.py"),
            ("go", "tests/fixtures/symbols.go"),
            ("typescript", "tests/fixtures/symbols.ts"),
        ] {
            let l = by_name(lang).unwrap();
            let src = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap();
            let index = LineIndex::new(&src);
            let whole = crate::lang::symbols(l, &src, &l.parse(&src), name);
            let regions = (l.rules.regions.unwrap())(&src);
            for parts in [2, 3] {
                let groups = l.split_parts(&src, &regions, parts).expect("splits");
                let mut trees = Vec::new();
                let mut errors = Vec::new();
                let split = l
                    .symbols_of_parts(
                        &src,
                        &index,
                        name,
                        &groups,
                        Some(&regions),
                        &mut trees,
                        &mut errors,
                        &|s| s,
                    )
                    .expect("no syntax error");
                assert!(errors.is_empty());
                assert_eq!(trees.len(), parts);
                // Parent indices count within a part; the rest is the whole parse's.
                let key = |s: &crate::lang::Symbol| serde_json::to_string(s).unwrap();
                assert_eq!(
                    split.concat().iter().map(key).collect::<Vec<_>>(),
                    whole.iter().map(key).collect::<Vec<_>>(),
                    "{name} in {parts} parts"
                );
            }
        }
        // A part with a syntax error: no split without regions; with them, its items each
        // from a parse of its own, as the whole parse with an error is read.
        let rust = by_name("rust").unwrap();
        let src = b"fn a() {}\nfn b() { let x = ; }\nfn c() {}\nfn d() {}\n";
        let groups = vec![vec![0..10], vec![10..src.len()]];
        let index = LineIndex::new(src);
        let mut errors = Vec::new();
        let split = rust.symbols_of_parts(
            src,
            &index,
            "f",
            &groups,
            None,
            &mut Vec::new(),
            &mut errors,
            &|s| s,
        );
        assert!(split.is_none());
        let regions = (rust.rules.regions.unwrap())(src);
        let split = rust.symbols_of_parts(
            src,
            &index,
            "f",
            &groups,
            Some(&regions),
            &mut Vec::new(),
            &mut errors,
            &|s| s,
        );
        let names: Vec<_> = split
            .unwrap()
            .concat()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        let whole = crate::lang::symbols(rust, src, &rust.parse(src), "f");
        assert_eq!(
            names,
            whole.iter().map(|s| s.name.clone()).collect::<Vec<_>>()
        );
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].range.start > 10 && errors[0].range.end < 32,
            "{errors:?}"
        );
    }

    /// The symbols of a file's two block halves (see `block_halves`) and of its whole-file
    /// parse: equal, or a half has a syntax error. Returns whether the halves were compared.
    fn check_block_halves(l: &Language, src: &[u8], name: &str) -> bool {
        let Some(regions) = l.rules.regions.map(|scan| scan(src)) else {
            return false;
        };
        let whole = l.parse(src);
        if whole.root_node().has_error() {
            return false;
        }
        let Some(halves) = l.block_halves(src, &regions) else {
            return false;
        };
        let index = LineIndex::new(src);
        let Some(split) = l.symbols_of_parts(
            src,
            &index,
            name,
            &halves,
            None,
            &mut Vec::new(),
            &mut Vec::new(),
            &|s| s,
        ) else {
            return false; // a half has a syntax error
        };
        let split = split.concat();
        let whole = crate::lang::symbols(l, src, &whole, name);
        let key = |s: &crate::lang::Symbol| serde_json::to_string(s).unwrap();
        assert_eq!(
            split.iter().map(key).collect::<Vec<_>>(),
            whole.iter().map(key).collect::<Vec<_>>(),
            "{name}: block halves {halves:?}"
        );
        true
    }

    #[test]
    fn block_halves_give_the_symbols_of_a_whole_parse() {
        let js = by_name("javascript").unwrap();
        let src = b"/** M. */\n;(function () {\n  'use strict';\n  var a = 1;\n\n  /** Doc of f. */\n  function f() {\n    return a;\n  }\n\n  // g.\n  function g() {}\n\n  var h = function () {};\n}.call(this));\n";
        let regions = (js.rules.regions.unwrap())(src);
        let halves = js.block_halves(src, &regions).expect("a block cut");
        // The cut keeps `f`'s doc comment with it.
        let text = std::str::from_utf8(src).unwrap();
        let cut = halves[1][1].start;
        assert!(
            text[cut..].trim_start().starts_with("/** Doc of f. */")
                || text[cut..].trim_start().starts_with("// g."),
            "{}",
            &text[cut..]
        );
        assert!(check_block_halves(js, src, "m.js"));
        // A cut is never between a doc comment and its member (Java: after a one-line member
        // with an annotation, whose line is no cut), nor in Go at a comment's line (a comment
        // first in a block is the block's, not the next statement's doc). Here the middle
        // lines are those places; the other lines of the block are no cut at all.
        let filler = |line: &str| line.repeat(40);
        let java = by_name("java").unwrap();
        let src = format!(
            "class T {{\n{}    @Native static final int M = 1;\n    /**\n     * Doc of f.\n     */\n    public int f() {{\n        return 1;\n    }}\n{}}}\n",
            filler("    int a = 0;\n"),
            filler("    int b = 0;\n"),
        );
        let go = by_name("go").unwrap();
        let go_src = format!(
            "package p\n\nfunc f() {{\n{}\n\t// T is local.\n\ttype T struct {{\n\t\ta int\n\t}}\n{}}}\n",
            filler("\tx := 1\n\t_ = x\n"),
            filler("\ty := 1\n\t_ = y\n"),
        );
        for (l, src, name) in [
            (java, src.as_bytes(), "T.java"),
            (go, go_src.as_bytes(), "f.go"),
        ] {
            if let Some(halves) = l.block_halves(src, &(l.rules.regions.unwrap())(src)) {
                let cut = std::str::from_utf8(&src[halves[1][1].start..]).unwrap();
                let cut = cut.trim_start();
                assert!(
                    !cut.starts_with("public int f") && !cut.starts_with("//"),
                    "{name}: {cut}"
                );
                assert!(check_block_halves(l, src, name));
            }
        }
    }

    /// `LLM_REGIONS_CORPUS=DIR cargo test --lib block_halves_on_a_corpus -- --ignored`.
    #[test]
    #[ignore]
    fn block_halves_on_a_corpus() {
        let dir = std::env::var("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
        let (mut files, mut compared) = (0, 0);
        for (p, l, src) in crate::lang::source_files(Path::new(&dir)) {
            files += 1;
            compared += usize::from(check_block_halves(l, &src, &p.display().to_string()));
        }
        eprintln!("{compared} of {files} files compared");
        assert!(compared > 0);
    }

    /// Every file of a corpus in a region language, cut in parts of whole items as a big
    /// file's outline cuts it: the parts' syntax errors are those a whole parse reports (the
    /// rule's, see `symbols_and_errors`), and the symbols are its (a part with an error read
    /// item by item, as the whole parse is then).
    /// `LLM_REGIONS_CORPUS=DIR cargo test --lib outline_parts_on_a_corpus -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn outline_parts_on_a_corpus() {
        let dir = std::env::var("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
        let (mut files, mut unbalanced, mut broken, mut compared) = (0, 0, 0, 0);
        let mut with_errors = 0;
        for (p, l, src) in crate::lang::source_files(Path::new(&dir)) {
            let Some(scan) = l.rules.regions else {
                continue;
            };
            files += 1;
            let regions = scan(&src);
            if !regions.balanced {
                unbalanced += 1;
                continue;
            }
            let name = p.display().to_string();
            let index = LineIndex::new(&src);
            let whole = l.parse(&src);
            for parts in [2, 5] {
                let Some(groups) = l.split_parts(&src, &regions, parts) else {
                    continue;
                };
                let mut errors = Vec::new();
                let (trees, regions) = (&mut Vec::new(), Some(&regions));
                let Some(split) = l.symbols_of_parts(
                    &src,
                    &index,
                    &name,
                    &groups,
                    regions,
                    trees,
                    &mut errors,
                    &|s| s,
                ) else {
                    broken += 1;
                    continue;
                };
                // The warning's errors: the rule's when it reads the whole parse.
                let (whole, rule) =
                    crate::lang::symbols::symbols_and_errors(l, &src, &whole, &name, &index);
                let whole_errors = rule.unwrap_or_default();
                let at = |e: &[crate::lang::SyntaxError]| -> Vec<_> {
                    e.iter().map(|e| e.range.clone()).collect()
                };
                assert_eq!(at(&errors), at(&whole_errors), "{name}: the parts' errors");
                with_errors += usize::from(!errors.is_empty());
                let key = |s: &crate::lang::Symbol| serde_json::to_string(s).unwrap();
                assert_eq!(
                    split.concat().iter().map(key).collect::<Vec<_>>(),
                    whole.iter().map(key).collect::<Vec<_>>(),
                    "{name} in {parts} parts"
                );
                compared += 1;
            }
        }
        eprintln!(
            "{files} files: {unbalanced} unbalanced, {broken} splits not read, {compared} \
             compared ({with_errors} with syntax errors)"
        );
        assert!(compared > 0);
    }

    #[test]
    fn a_region_parse_keeps_positions_and_falls_back_on_errors() {
        let rust = by_name("rust").unwrap();
        let src = b"fn a() {}\n\nfn b() { x.unwrap() }\n\nfn c() {}\n";
        let index = LineIndex::new(src);
        let i = memchr::memmem::find(src, b"unwrap").unwrap();
        let hit = i..i + 6;
        let p = rust.parse_around(src, &index, std::slice::from_ref(&hit), Cut::Members);
        assert!(p.is_partial());
        let root = p.tree.root_node();
        assert_eq!(root.named_child_count(), 1);
        let f = root.named_child(0).unwrap();
        assert_eq!(&src[f.byte_range()], b"fn b() { x.unwrap() }");
        assert_eq!(f.start_position().row, 2);
        // A region that does not parse alone: the whole file is parsed instead.
        let broken = b"fn a() {}\n\nfn b() { x.unwrap( }\n\nfn c() {}\n";
        let index = LineIndex::new(broken);
        let p = rust.parse_around(broken, &index, std::slice::from_ref(&hit), Cut::Members);
        assert!(!p.is_partial());
        assert_eq!(p.tree.root_node().named_child_count(), 3);
    }
}
