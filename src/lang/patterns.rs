//! A symbol query dealt into parts of whole patterns, compiled on threads of their own (see
//! `Language::symbol_queries`): a pattern matches alone, so the parts' matches together are
//! the whole query's. Its rare, costly patterns can be deferred to the trees that need them.

use std::collections::HashSet;

/// Into how many queries a symbol query is dealt: one per core, at most four (each part
/// repeats tree-sitter's scan of the parse table, a fixed ~15 ms in C++).
pub fn query_parts_wanted() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// A query of fewer patterns (deferred ones not counted) is compiled whole (measured: C# and
/// Java lose in parts; C++'s 22 up front and TypeScript's 28 gain).
const SPLIT_FROM: usize = 20;

/// The patterns of a query's text (each with the comments before it), dealt into at most
/// `parts` texts (fewer when there are fewer patterns), the longest first, each to the part
/// with the least text so far (a pattern's analysis costs about as much as its nesting, which
/// its length follows).
pub fn query_parts(text: &str, parts: usize) -> Vec<String> {
    let mut patterns = patterns(text);
    // A smaller query (C#, Java: few patterns, a costly fixed scan) costs more in parts.
    let parts = if patterns.len() < SPLIT_FROM {
        1
    } else {
        parts
    };
    let n = parts.clamp(1, patterns.len().max(1));
    let mut out = vec![String::new(); n];
    // Stable: equal lengths keep the query's order.
    patterns.sort_by_key(|p| std::cmp::Reverse(p.trim().len()));
    for p in patterns {
        let k = (0..n).min_by_key(|&k| out[k].len()).unwrap_or(0);
        out[k].push_str(p);
        out[k].push('\n');
    }
    out
}

/// Splits a query's text where a pattern begins: an opening `(` or `[` at depth 0, outside
/// strings and `;` comments. What follows a pattern (its captures, quantifiers, the comments
/// before the next one) stays with it.
fn patterns(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => {
                if depth == 0 {
                    starts.push(i);
                }
                depth += 1;
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    // Each pattern runs to the next one's start; the text before the first goes with it.
    let mut out = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let from = if k == 0 { 0 } else { s };
        let to = starts.get(k + 1).copied().unwrap_or(b.len());
        out.push(&text[from..to]);
    }
    out
}

/// The comment line of a symbol query after which its patterns are deferred: patterns for
/// rare shapes (a macro's misparse, error recovery) that cost much to compile. They are compiled
/// only for a tree that holds every parent–child pair of kinds they need ([`required_edges`]),
/// after the parse; without the pairs they cannot match, so the outline is the same.
pub const DEFERRED: &str = "; Deferred:";

/// A query's text split at its [`DEFERRED`] line: the patterns compiled up front, and the
/// deferred ones (empty without the line).
pub fn split_deferred(text: &str) -> (&str, &str) {
    let at = text
        .match_indices(DEFERRED)
        .find(|&(i, _)| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .map(|(i, _)| i);
    match at {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

/// The deferred patterns of a query's text, each with the pairs it needs.
pub fn deferred_patterns(text: &str) -> Vec<(&str, Vec<Edge>)> {
    patterns(split_deferred(text).1)
        .into_iter()
        .map(|p| (p, required_edges(p)))
        .collect()
}

/// A parent–child pair of node kinds that every match of a pattern holds (the child in
/// `field` when one is named).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub parent: String,
    pub child: String,
    pub field: Option<String>,
}

/// One element of a pattern, as far as [`required_edges`] reads it.
enum Elem {
    /// `(kind children…)`; `None` for `(_ …)`; `required` unless quantified `?` or `*`.
    Node {
        kind: Option<String>,
        field: Option<String>,
        required: bool,
        children: Vec<Elem>,
    },
    /// Anything else: an alternation, a string, a predicate (none required of the tree).
    Other,
}

/// The pairs of named node kinds every match of `pattern` holds: each named node with a named
/// child that is neither optional nor one branch of an alternation. A superset of patterns is
/// safe: a pattern that is not understood requires nothing.
pub fn required_edges(pattern: &str) -> Vec<Edge> {
    let toks = tokens(pattern);
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < toks.len() {
        let before = pos;
        let e = elem(&toks, &mut pos, None);
        collect_edges(&e, &mut out);
        if pos == before {
            pos += 1;
        }
    }
    out
}

fn collect_edges(e: &Elem, out: &mut Vec<Edge>) {
    let Elem::Node { kind, children, .. } = e else {
        return;
    };
    for c in children {
        if let Elem::Node {
            kind: Some(ck),
            field,
            required: true,
            ..
        } = c
        {
            if let Some(k) = kind {
                out.push(Edge {
                    parent: k.clone(),
                    child: ck.clone(),
                    field: field.clone(),
                });
            }
            collect_edges(c, out);
        }
    }
}

/// A query's tokens: `(`, `)`, `[`, `]`, strings, and words (kinds, `field:`, `!field`,
/// `@capture`, `#predicate?`, `.`, quantifiers), comments left out.
fn tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            b'(' | b')' | b'[' | b']' | b'?' | b'*' | b'+' | b'.' => {
                out.push(&text[i..i + 1]);
                i += 1;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push(&text[start..i]);
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'(' | b')' | b'[' | b']' | b'"' | b';')
                {
                    // A quantifier ends a word (`@name?` never occurs; `(x)?` does).
                    if i > start && matches!(b[i], b'?' | b'*' | b'+') && b[start] != b'#' {
                        break;
                    }
                    i += 1;
                }
                out.push(&text[start..i]);
            }
        }
    }
    out
}

/// Reads one element at `toks[*pos]` (with the field it is in, if any).
fn elem(toks: &[&str], pos: &mut usize, field: Option<String>) -> Elem {
    let Some(&t) = toks.get(*pos) else {
        return Elem::Other;
    };
    *pos += 1;
    let e = match t {
        "(" => {
            let head = toks.get(*pos).copied().unwrap_or(")");
            if head.starts_with('#') || head.starts_with('"') || head == ")" {
                // A predicate, an anonymous node, or `()`: nothing of the tree's pairs.
                skip_to_close(toks, pos, ")");
                Elem::Other
            } else {
                *pos += 1;
                let kind = (head != "_" && !head.contains('/')).then(|| head.to_string());
                let mut children = Vec::new();
                while let Some(&c) = toks.get(*pos) {
                    if c == ")" {
                        *pos += 1;
                        break;
                    }
                    if let Some(f) = c.strip_suffix(':') {
                        *pos += 1;
                        children.push(elem(toks, pos, Some(f.to_string())));
                    } else if c.starts_with('!')
                        || c.starts_with('@')
                        || matches!(c, "." | "?" | "*" | "+")
                    {
                        // Negated fields, captures, anchors, stray quantifiers.
                        *pos += 1;
                    } else {
                        children.push(elem(toks, pos, None));
                    }
                }
                Elem::Node {
                    kind,
                    field,
                    required: true,
                    children,
                }
            }
        }
        "[" => {
            skip_to_close(toks, pos, "]");
            Elem::Other
        }
        _ => Elem::Other,
    };
    // A quantifier after the element: `?` and `*` make it optional.
    let optional = matches!(toks.get(*pos).copied(), Some("?" | "*"));
    if matches!(toks.get(*pos).copied(), Some("?" | "*" | "+")) {
        *pos += 1;
    }
    match e {
        Elem::Node {
            kind,
            field,
            children,
            ..
        } => Elem::Node {
            kind,
            field,
            required: !optional,
            children,
        },
        other => other,
    }
}

/// Moves `pos` past the bracket closing the one just read (nested ones skipped).
fn skip_to_close(toks: &[&str], pos: &mut usize, close: &str) {
    let mut depth = 1usize;
    while let Some(&t) = toks.get(*pos) {
        *pos += 1;
        match t {
            "(" | "[" => depth += 1,
            ")" | "]" => {
                depth -= 1;
                if depth == 0 {
                    debug_assert_eq!(t, close);
                    return;
                }
            }
            _ => {}
        }
    }
}

/// The parent–child pairs of named node kinds in `tree` (kind, child kind, the child's field).
pub fn tree_edges<'l>(
    lang: &'l tree_sitter::Language,
    tree: &tree_sitter::Tree,
) -> HashSet<(&'l str, &'l str, Option<&'l str>)> {
    let mut ids: HashSet<(u16, u16, u16)> = HashSet::new();
    let mut cursor = tree.walk();
    let mut parents: Vec<u16> = Vec::new();
    'walk: loop {
        let node = cursor.node();
        if let Some(&p) = parents.last() {
            if node.is_named() {
                let field = cursor.field_id().map_or(0, |f| f.get());
                ids.insert((p, node.kind_id(), field));
            }
        }
        if cursor.goto_first_child() {
            parents.push(node.kind_id());
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
            parents.pop();
        }
    }
    let kind = |id: u16| lang.node_kind_for_id(id).unwrap_or("");
    ids.into_iter()
        .map(|(p, c, f)| {
            (
                kind(p),
                kind(c),
                (f != 0).then(|| lang.field_name_for_id(f)).flatten(),
            )
        })
        .collect()
}

/// Whether a tree whose pairs are `have` can hold a match of a pattern needing `edges`.
pub fn edges_present(edges: &[Edge], have: &HashSet<(&str, &str, Option<&str>)>) -> bool {
    edges.iter().all(|e| match &e.field {
        Some(f) => have.contains(&(e.parent.as_str(), e.child.as_str(), Some(f.as_str()))),
        None => have.iter().any(|&(p, c, _)| p == e.parent && c == e.child),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ALL;
    use std::sync::Arc;

    #[test]
    fn patterns_are_split_whole_outside_strings_and_comments() {
        let q = "; a (comment [\n(a (b) @x) @y\n(c \"(\" [(d) (e)] @z\n  (#match? @z \"^[(]\"))\n[(f) (g)] @w\n";
        assert_eq!(
            patterns(q),
            [
                "; a (comment [\n(a (b) @x) @y\n",
                "(c \"(\" [(d) (e)] @z\n  (#match? @z \"^[(]\"))\n",
                "[(f) (g)] @w\n",
            ]
        );
        let parts = query_parts(&q.repeat(SPLIT_FROM), 2);
        assert_eq!(parts.len(), 2);
        assert!(parts[0].starts_with("(c "), "the longest first: {parts:?}");
        assert!(parts[1].contains("(a (b)") && parts[1].contains("[(f)"));
        assert_eq!(query_parts("(a) @x", 4).len(), 1);
        let many = "(a) @x\n".repeat(SPLIT_FROM);
        assert_eq!(query_parts(&many, 2).len(), 2);
        assert_eq!(query_parts(&many[2..], 2).len(), 1, "one pattern fewer");
    }

    #[test]
    fn required_edges_are_the_pairs_every_match_holds() {
        let e = |p, c, f: Option<&str>| Edge {
            parent: String::from(p),
            child: String::from(c),
            field: f.map(String::from),
        };
        let q = "; c (x (y))\n(a b: (c (d) @n . (e)? [(f) (g (h))] (_ (i)) \"k\") !body @x\n  (#match? @x \"(z)\")) @y";
        assert_eq!(
            required_edges(q),
            [e("a", "c", Some("b")), e("c", "d", None)],
            "the optional `(e)?`, the alternation, the wildcard's children are not required"
        );
        assert_eq!(
            required_edges("(a (ERROR . (b))+)"),
            [e("a", "ERROR", None), e("ERROR", "b", None)]
        );
        assert_eq!(required_edges("[(a (b)) (c)] @x"), []);
        let (up_front, deferred) = split_deferred("(a) @x\n; Deferred: rare\n(b (c)) @y\n");
        assert_eq!(up_front, "(a) @x\n");
        assert!(deferred_patterns(up_front).is_empty());
        assert_eq!(required_edges(deferred), [e("b", "c", None)]);
    }

    /// A deferred pattern is compiled only for a tree holding its pairs, and then finds what the
    /// whole query finds.
    #[test]
    fn deferred_patterns_are_compiled_for_the_trees_that_need_them() {
        let cpp = crate::lang::by_name("cpp").unwrap();
        assert!(!deferred_patterns(cpp.symbol_query).is_empty());
        const PLAIN: &[u8] = b"int f() { return 0; }\nclass A { int x; };\n";
        let plain = cpp.parse(PLAIN);
        assert!(cpp.deferred_query(&plain, PLAIN).is_none());
        let src = b"class GTEST_API_ Foo {\n public:\n  int x;\n};\n";
        let tree = cpp.parse(src);
        let q = cpp
            .deferred_query(&tree, src)
            .expect("the macro pattern's pairs are there");
        let mut cursor = tree_sitter::QueryCursor::new();
        let mut it = cursor.matches(&q, tree.root_node(), &src[..]);
        use tree_sitter::StreamingIterator;
        assert!(it.next().is_some());
        // Once compiled, what it holds serves a tree needing less.
        assert!(cpp.deferred_query(&plain, PLAIN).is_none());
        assert!(Arc::ptr_eq(&cpp.deferred_query(&tree, src).unwrap(), &q));
    }

    /// Every language's parts hold all its patterns: as many as the whole query compiles to.
    #[test]
    fn the_parts_of_every_symbol_query_hold_all_its_patterns() {
        for l in ALL {
            let whole = tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap();
            let parts = l.symbol_queries();
            let deferred = deferred_patterns(l.symbol_query).len();
            let count: usize = parts.iter().map(|q| q.pattern_count()).sum();
            assert_eq!(count + deferred, whole.pattern_count(), "{}", l.name);
            assert_eq!(
                parts.len(),
                if whole.pattern_count() - deferred < SPLIT_FROM {
                    1
                } else {
                    query_parts_wanted()
                },
                "{}",
                l.name
            );
        }
    }
}

/// Measuring tools, run by hand (ignored): `cargo test --lib pattern_costs -- --ignored
/// --nocapture` lists what each pattern of each symbol query costs to compile alone (thread CPU
/// time; `ONLY=cpp` for one language's list), and with `FILE=path ONLY=cpp` which deferred
/// patterns that file's tree needs.
#[cfg(test)]
mod cost {
    use super::*;
    use crate::lang::ALL;
    use std::time::Duration;

    /// This thread's CPU time (wall time on a loaded machine says little).
    fn cpu() -> Duration {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write to.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    }

    fn compile_time(l: &crate::lang::Language, text: &str) -> Duration {
        let t = cpu();
        tree_sitter::Query::new(l.ts(), text).unwrap();
        cpu() - t
    }

    fn one_line(p: &str) -> String {
        let p: Vec<_> = p
            .lines()
            .filter(|s| !s.trim_start().starts_with(';'))
            .collect();
        p.join(" ").chars().take(120).collect()
    }

    #[test]
    #[ignore]
    fn pattern_costs() {
        let only = std::env::var("ONLY").ok();
        for l in ALL {
            if only.as_ref().is_some_and(|o| o != l.name) {
                continue;
            }
            if let Ok(f) = std::env::var("FILE") {
                let tree = l.parse(&std::fs::read(f).unwrap());
                let have = tree_edges(l.ts(), &tree);
                for (p, edges) in deferred_patterns(l.symbol_query) {
                    let src = std::fs::read(std::env::var("FILE").unwrap()).unwrap();
                    let needed = edges_present(&edges, &have)
                        && crate::lang::literals::prefilter(p, 1, l.rules.keywords)
                            .is_none_or(|f| f.may_match(&src));
                    println!("deferred, needed {needed}: {}", one_line(p));
                }
                continue;
            }
            let (up_front, deferred) = split_deferred(l.symbol_query);
            println!(
                "== {}: whole {:.1?}, up front {:.1?}, deferred {:.1?}, empty {:.1?}",
                l.name,
                compile_time(l, l.symbol_query),
                compile_time(l, up_front),
                compile_time(l, deferred),
                compile_time(l, ""),
            );
            let mut rows: Vec<_> = patterns(l.symbol_query)
                .into_iter()
                .map(|p| (compile_time(l, p), one_line(p)))
                .collect();
            rows.sort_by_key(|r| std::cmp::Reverse(r.0));
            for (d, p) in rows.iter().take(if only.is_some() { 40 } else { 5 }) {
                println!("  {d:>9.1?} {p}");
            }
        }
    }
}
