//! Tests of `tags.rs`: every shipped symbol query is read, errors outside the subset, and
//! the matches equal tree-sitter's query cursor's (fixtures, hard shapes, a corpus).

use super::*;
use crate::lang::ALL;
use std::ops::Range;
use tree_sitter::Tree;
use tree_sitter::{QueryCursor, StreamingIterator};

/// Every shipped symbol query is read (and compiles as a tree-sitter query, which checks
/// kind and field names against the grammar too), with the same captures.
#[test]
fn every_symbol_query_is_read() {
    for l in ALL {
        let tags = Tags::new(l.ts(), l.symbol_query).unwrap_or_else(|e| panic!("{}: {e}", l.name));
        let q = tree_sitter::Query::new(l.ts(), l.symbol_query)
            .unwrap_or_else(|e| panic!("{}: {e}", l.name));
        assert_eq!(tags.len(), q.pattern_count(), "{}", l.name);
        let mut a: Vec<&str> = tags.capture_names().iter().map(String::as_str).collect();
        let mut b = q.capture_names().to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{}", l.name);
    }
}

#[test]
fn what_is_outside_the_subset_is_an_error_naming_its_line() {
    let rust = crate::lang::by_name("rust").unwrap().ts();
    let err = |q: &str| {
        Tags::new(rust, q)
            .err()
            .unwrap_or_else(|| panic!("{q}: read"))
    };
    assert!(err("(function_item)\n(nope) @x").starts_with("line 2: unknown node kind"));
    assert!(err("(function_item nope: (identifier))").contains("unknown field"));
    assert!(err("(function_item (identifier)?)").contains("quantifier"));
    assert!(err("(function_item (identifier)* @x)").contains("quantifier"));
    assert!(err("((function_item) (struct_item))").contains("groups"));
    assert!(err("[(function_item) (struct_item)] @x").contains("one node pattern"));
    assert!(err("(function_item) @x (#set! @x \"a\")").contains("outside"));
    assert!(err("(function_item name: (_) @x (#set! x \"a\"))").contains("#set!"));
    assert!(err("(function_item name: (_) @x (#is? @x \"a\"))").contains("#is?"));
    assert!(err("(function_item (#eq? @y \"a\"))").contains("@y"));
    assert!(err("(function_item name: (_) @x (#match? @x \"(\"))").contains("regex"));
    assert!(err("(function_item \"nope\")").contains("anonymous node"));
    assert!(err("(function_item").contains("unclosed"));
    assert!(err("(function_item \"fn)").contains("unterminated"));
    let python = crate::lang::by_name("python").unwrap().ts();
    let e = Tags::new(python, "(expression)").err().unwrap_or_default();
    assert!(e.contains("supertype"), "{e}");
    assert!(err("(function_item .)").contains("anchor"));
    assert!(err("(function_item) }").contains("unexpected"));
}

/// (kind capture, item, name) as `collect_matches` keeps them, sorted.
type Triple = (String, usize, usize, usize, usize);

fn ours(
    tags: &Tags,
    tree: &Tree,
    src: &[u8],
    range: Option<Range<usize>>,
    opener: Option<&mut Opener>,
) -> Vec<Triple> {
    let name = tags.capture_index("name");
    let mut out = Vec::new();
    tags.matches(tree, src, range, opener, &mut |caps| {
        out.extend(triple(
            caps.iter()
                .map(|&(i, n)| (tags.capture_names()[i as usize].as_str(), i, n)),
            name,
        ));
    });
    out.sort();
    out.dedup();
    out
}

fn theirs(
    q: &tree_sitter::Query,
    tree: &Tree,
    src: &[u8],
    range: Option<Range<usize>>,
) -> Vec<Triple> {
    let name = q.capture_index_for_name("name").map(|i| i as u16);
    let mut cursor = QueryCursor::new();
    if let Some(r) = range {
        cursor.set_byte_range(r);
    }
    let mut it = cursor.matches(q, tree.root_node(), src);
    let mut out = Vec::new();
    while let Some(m) = it.next() {
        out.extend(triple(
            m.captures()
                .iter()
                .map(|c| (q.capture_names()[c.index as usize], c.index as u16, c.node)),
            name,
        ));
    }
    out.sort();
    out.dedup();
    out
}

/// The last kind capture and the last `@name` of a match, as `collect_matches` reads it.
fn triple<'t>(
    caps: impl Iterator<Item = (&'t str, u16, Node<'t>)>,
    name: Option<u16>,
) -> Option<Triple> {
    let (mut item, mut named) = (None, None);
    for (cname, i, n) in caps {
        if Some(i) == name {
            named = Some(n);
        } else if crate::lang::SymbolKind::from_capture(cname).is_some() {
            item = Some((cname.to_string(), n));
        }
    }
    let ((k, n), m) = (item?, named?);
    Some((
        k,
        n.start_byte(),
        n.end_byte(),
        m.start_byte(),
        m.end_byte(),
    ))
}

/// Compares both on one file: the whole tree, and ranges around a few names.
fn compare(l: &crate::lang::Language, src: &[u8], what: &str) -> usize {
    thread_local! {
        static QUERIES: std::cell::RefCell<std::collections::HashMap<&'static str, std::rc::Rc<tree_sitter::Query>>> = Default::default();
    }
    let q = QUERIES.with_borrow_mut(|m| {
        m.entry(l.name)
            .or_insert_with(|| {
                std::rc::Rc::new(tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap())
            })
            .clone()
    });
    let tags = l.symbol_tags();
    let tree = l.parse(src);
    let a = theirs(&q, &tree, src, None);
    assert_eq!(a, ours(tags, &tree, src, None, None), "{}: {what}", l.name);
    // The walk that opens only the nodes that can hold a root (see `pruning.rs`).
    if let Some(mut opener) = l.symbol_pruning().map(|p| Opener::new(p, src, &tree)) {
        let pruned = ours(tags, &tree, src, None, Some(&mut opener));
        assert_eq!(a, pruned, "{}: {what}, pruned", l.name);
    }
    // Ranges: the names found, and a few byte offsets.
    let mut ranges: Vec<Range<usize>> = a.iter().take(8).map(|t| t.3..t.4).collect();
    ranges.extend([
        0..0,
        0..1,
        src.len() / 2..src.len() / 2 + 1,
        src.len()..src.len(),
    ]);
    for r in ranges {
        assert_eq!(
            theirs(&q, &tree, src, Some(r.clone())),
            ours(tags, &tree, src, Some(r.clone()), None),
            "{}: {what}, range {r:?}",
            l.name
        );
    }
    a.len()
}

/// On every language's fixture and on the tests' real-looking files, our matcher finds
/// what tree-sitter's query cursor finds.
#[test]
fn matches_equal_tree_sitters_on_the_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for l in ALL {
        let n = compare(l, &std::fs::read(dir.join(l.fixture)).unwrap(), l.fixture);
        assert!(n >= 5, "{}: {n} symbols", l.name);
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if let Some(l) = crate::lang::for_path(&p) {
            compare(l, &std::fs::read(&p).unwrap(), &p.display().to_string());
        }
    }
}

/// Anchors, negated fields, ERROR nodes and predicates, on purpose-made sources.
#[test]
fn matches_equal_tree_sitters_on_the_hard_shapes() {
    let by = |n| crate::lang::by_name(n).unwrap();
    let cases: &[(&str, &str)] = &[
        ("c", "BPF_CALL_2(f, int, a) {\n  return 0;\n}\nSYSCALL_DEFINE1(g, int, x) /* c */ {}\n#if X\nFOO(h) { }\n#else\nBAR(1, i) {}\n#endif\nint k(void) { TAILQ_FOREACH(v, h, f) { } }\nMACRO(x) y;\nstruct s { int a; int *b; int c[2]; };\ntypedef int (*fp)(int);\n"),
        ("cpp", "class GTEST_API_ Foo {\n public:\n  int x;\n};\nstruct BOOST_SYMBOL_VISIBLE bad_graph : public std::invalid_argument {\n};\nint size() const BOOST_ASIO_NOEXCEPT { return 0; }\nGTEST_API_ Foo* Get() { return 0; }\nA::~A() {}\nclass A<T>::B {};\nnamespace a::b { int f(); }\n"),
        ("javascript", "A.prototype.b = function () {};\nA.prototype.c = 1;\nexports.d = () => 1;\nmodule.e = function () {};\nthis.f = function () {};\nconst g = 1, h = () => 2;\nconst o = { i: function () {}, 'j': () => 1 };\n"),
        ("typescript", "interface I { new (x: number): I; m(): void; p: string }\nenum E { A, B = 2 }\nabstract class C { abstract m(): void; n(): void; }\ndeclare module 'x' { }\nnamespace N.M { }\n"),
        // Definitions deep in types and values, where a pruned walk must still go.
        ("typescript", "let v: typeof f<() => { m(): void }> = g(function () { class K {} });\ntype T = { [k: string]: (x: number) => void; p: { q(): void } };\ninterface J { [key: string]: typeof h; r: typeof x extends Y ? { s(): void } : never }\nexport const z = { a() {}, b: () => 1 }, w = 2;\n"),
        ("ruby", "class A::B\n  X = 1\n  def m; end\n  def self.s; end\nend\nmodule M; end\nY = 2\n"),
        ("csharp", "class C { public static C operator +(C a, C b) => a; event E e; int f, g; ~C() {} }\n"),
        // Two names in one field: tree-sitter matches `name:` at the first only (see
        // `kids_of`).
        ("go", "package p\nconst (\n\tA, b = 1, 2\n\tc, D\n)\nconst E, F = 1, 2\nvar x, Y int\n"),
    ];
    for (lang, src) in cases {
        compare(by(lang), src.as_bytes(), "a hard shape");
        // Broken copies: every line cut short in turn puts ERROR nodes in other places.
        for (i, line) in src.lines().enumerate() {
            let mut s: Vec<&str> = src.lines().collect();
            let cut = &line[..line.len() / 2];
            s[i] = cut;
            compare(by(lang), s.join("\n").as_bytes(), &format!("line {i} cut"));
        }
    }
}

/// Over a whole corpus: `LLM_TAGS_CORPUS=DIR cargo test --release --lib
/// tags_equal_on_a_corpus -- --ignored --nocapture` (every file of a language with no
/// hand-written walk; Rust and Python too, their queries being the walks' specification).
#[test]
#[ignore]
fn tags_equal_on_a_corpus() {
    let Some(dir) = std::env::var_os("LLM_TAGS_CORPUS") else {
        return;
    };
    let (mut files, mut syms) = (0, 0);
    for (p, l, src) in crate::lang::source_files(std::path::Path::new(&dir)) {
        syms += compare(l, &src, &p.display().to_string());
        files += 1;
    }
    eprintln!("{files} files, {syms} symbols: our matcher finds what tree-sitter's finds");
}

/// What reading each symbol query costs, against compiling it as a tree-sitter `Query`
/// (by hand: `cargo test --release --lib tags_read_costs -- --ignored --nocapture`).
#[test]
#[ignore]
fn tags_read_costs() {
    for l in ALL {
        let t = std::time::Instant::now();
        Tags::new(l.ts(), l.symbol_query).unwrap();
        let ours = t.elapsed();
        let t = std::time::Instant::now();
        tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap();
        eprintln!(
            "{:>10}: read {ours:>9.1?}, tree-sitter compile {:>9.1?}",
            l.name,
            t.elapsed()
        );
    }
}
