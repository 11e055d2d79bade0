//! Tests of `symbols.rs` and `references.rs`: symbols of every fixture, the rule for files with
//! syntax errors, references' contexts, `symbols_around`/`references_around` against the
//! whole-file answers, and our symbol-query matcher against tree-sitter's query cursor.

mod tests {
    use super::super::*;
    use crate::lang::by_name;
    use crate::lang::references::*;

    fn syms(lang: &str, src: &str) -> Vec<Symbol> {
        let l = by_name(lang).unwrap();
        let tree = l.parse(src.as_bytes());
        symbols(l, src.as_bytes(), &tree, "f")
    }

    fn text<'a>(src: &'a str, s: &Span) -> &'a str {
        &src[s.range()]
    }

    #[test]
    fn rust_attributes_docs_and_body() {
        let src = "// plain\n/// doc\n#[inline]\n// between\npub fn f() -> u8 { 1 }\n";
        let s = &syms("rust", src)[0];
        assert_eq!(
            text(src, &s.span),
            "/// doc\n#[inline]\n// between\npub fn f() -> u8 { 1 }"
        );
        assert_eq!(text(src, &s.node_span), "pub fn f() -> u8 { 1 }");
        assert_eq!(text(src, s.body_span.as_ref().unwrap()), "{ 1 }");
        assert_eq!(s.signature, "pub fn f() -> u8 { 1 }");
    }

    #[test]
    fn rust_impl_of_generic_trait_names_the_type() {
        let src = "impl<T: Clone> std::fmt::Display for a::Wrap<T> {\n    fn fmt(&self) {}\n}\n";
        let s = syms("rust", src);
        assert_eq!((s[0].kind, s[0].name.as_str()), (SymbolKind::Impl, "Wrap"));
        assert_eq!(text(src, &s[0].name_span), "Wrap");
        assert_eq!(
            (s[1].kind, s[1].qualified_name.as_str()),
            (SymbolKind::Method, "Wrap::fmt")
        );
        assert_eq!(s[1].parent.as_deref(), Some("Wrap"));
        assert_eq!(s[1].depth, 1);
    }

    #[test]
    fn python_decorators_attach_and_methods_nest() {
        let src = "class A:\n    @property\n    def x(self):\n        return 1\n";
        let s = syms("python", src);
        assert_eq!(s[1].qualified_name, "A.x");
        assert_eq!(s[1].kind, SymbolKind::Method);
        assert_eq!(
            text(src, &s[1].span),
            "@property\n    def x(self):\n        return 1"
        );
        assert_eq!(text(src, s[1].body_span.as_ref().unwrap()), "return 1");
    }

    #[test]
    fn python_defs_end_at_their_last_statement_not_trailing_comments() {
        let src = "class A:\n    def f(self):\n        x = 1\n        # trailing\n\n    # about g\n    def g(self):\n        pass\n        # end\n\n# module\ny = 2\n";
        let s = syms("python", src);
        let f = s.iter().find(|s| s.name == "f").unwrap();
        assert_eq!(text(src, &f.span), "def f(self):\n        x = 1");
        assert_eq!(text(src, f.body_span.as_ref().unwrap()), "x = 1");
        let a = s.iter().find(|s| s.name == "A").unwrap();
        assert!(text(src, &a.span).ends_with("pass"));
        assert_eq!(a.span.end_line, 8);
    }

    #[test]
    fn docs_decorators_and_wrappers_attach_per_language() {
        // (language, source, symbol, where its span starts)
        let cases = [
            ("javascript", "// plain\n\n/** Doc. */\nexport function f() {}\n", "f", "/** Doc. */"),
            ("javascript", "/** Far. */\n\nfunction f() {}\n", "f", "function f"),
            ("javascript", "// not a doc\nfunction f() {}\n", "f", "function f"),
            ("typescript", "/** Doc. */\n@dec\nexport class A {}\n", "A", "/** Doc. */"),
            ("go", "// A is a.\n// More.\nfunc A() {}\n", "A", "// A is a."),
            ("go", "// Unrelated.\n\nfunc A() {}\n", "A", "func A"),
            ("java", "class C {\n    /** Doc. */\n    @Override\n    public String toString() { return \"\"; }\n}\n", "toString", "/** Doc. */"),
            ("csharp", "class C {\n    /// <summary>Doc.</summary>\n    [Obsolete]\n    void M() {}\n}\n", "M", "/// <summary>"),
            ("cpp", "// Box.\ntemplate <typename T>\nclass Box {};\n", "Box", "// Box."),
            ("c", "int x; // trailing\nint f(void) { return 0; }\n", "f", "int f"),
            ("ruby", "# Doc.\ndef f\nend\n", "f", "# Doc."),
            ("php", "<?php\n/** Doc. */\n#[Attr]\nfunction f() {}\n", "f", "/** Doc. */"),
            ("bash", "# Doc.\nf() { :; }\n", "f", "# Doc."),
        ];
        for (lang, src, name, start) in cases {
            let s = syms(lang, src);
            let s = s
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("{lang}: {name}"));
            assert!(
                text(src, &s.span).starts_with(start),
                "{lang}: {:?}",
                text(src, &s.span)
            );
        }
        // Go: a method's parent is its receiver type; C++: the class of an out-of-line definition.
        let s = syms("go", "package p\nfunc (s *Store[T]) Get() {}\n");
        assert_eq!(
            (s[0].qualified_name.as_str(), s[0].parent.as_deref()),
            ("Store.Get", Some("Store"))
        );
        let s = syms("cpp", "void geom::Shape::draw() {}\n");
        assert_eq!(s[0].qualified_name, "geom::Shape::draw");
        assert_eq!(s[0].parent.as_deref(), Some("Shape"));
        // Inside a namespace, the class is the namespace's, unless named from the global
        // scope; the definition still nests under the namespace in the outline.
        let s = syms(
            "cpp",
            "namespace ns {\nvoid Shape::draw() {}\nvoid ::Top::go() {}\nvoid free() {}\n}\n",
        );
        let names: Vec<_> = s
            .iter()
            .map(|s| {
                (
                    s.qualified_name.as_str(),
                    s.parent.as_deref(),
                    s.parent_index,
                )
            })
            .collect();
        assert_eq!(
            names,
            vec![
                ("ns", None, None),
                ("ns::Shape::draw", Some("Shape"), Some(0)),
                ("Top::go", Some("Top"), Some(0)),
                ("ns::free", Some("ns"), Some(0)),
            ]
        );
    }

    /// Rust's inline format arguments are references (the macro reads them); `{{R}}`, a
    /// string outside a macro and a doc comment are not.
    #[test]
    fn rust_format_arguments_are_references() {
        let src = "/// {R}\nfn f(R: u8) {\n    println!(\"{R} {{R}} {R:>2} {}\", R);\n    let s = \"{R}\";\n}\n";
        let l = by_name("rust").unwrap();
        let tree = l.parse(src.as_bytes());
        let refs = references(l, src.as_bytes(), &tree, "R", "f");
        let got: Vec<(usize, usize, RefContext)> = refs
            .iter()
            .map(|r| (r.span.start_line, r.span.start_col, r.context))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, 5, RefContext::Identifier),
                (3, 15, RefContext::FormatArg),
                (3, 25, RefContext::FormatArg),
                (3, 36, RefContext::Identifier),
            ]
        );
        assert!(refs.iter().all(|r| r.enclosing.as_deref() == Some("f")));
    }

    #[test]
    fn symbol_ids_are_stable_and_distinct() {
        let a = syms("rust", "fn a() {}\nfn b() {}\n");
        let b = syms("rust", "fn b() {}\n\n\nfn a() {}\n");
        assert_eq!(a[0].symbol_id, b[1].symbol_id);
        assert_ne!(a[0].symbol_id, a[1].symbol_id);
        let twice = syms("rust", "impl A { fn f() {} }\nimpl A { fn f() {} }\n");
        let ids: std::collections::HashSet<_> = twice.iter().map(|s| &s.symbol_id).collect();
        assert_eq!(ids.len(), 4);
    }

    #[test]
    fn references_skip_comments_and_strings() {
        let src = "use crate::util::inc;\n// inc\nfn f(o: O) { let s = \"inc\"; util::inc(o.inc); inc!(); }\nfn inc() {}\n";
        let l = by_name("rust").unwrap();
        let tree = l.parse(src.as_bytes());
        let refs = references(l, src.as_bytes(), &tree, "util::inc", "f");
        let ctx: Vec<RefContext> = refs.iter().map(|r| r.context).collect();
        assert_eq!(
            ctx,
            vec![
                RefContext::Import,
                RefContext::Path,
                RefContext::Attribute,
                RefContext::Call,
                RefContext::Definition
            ]
        );
        assert!(refs.iter().all(|r| &src[r.span.range()] == "inc"));
        assert_eq!(refs[1].enclosing.as_deref(), Some("f"));
        assert!(refs[4].is_definition);
    }
}

mod error_rule_tests {
    use super::super::*;
    use crate::lang::regions::Cut;

    /// Files with syntax errors: what a region parse around each name finds is what the
    /// whole-file path finds (one rule, both paths).
    #[test]
    fn region_and_whole_file_agree_on_files_with_errors() {
        let cases: [(&str, &[u8], &[&str]); 3] = [
            (
                "rust",
                b"fn a() {}\n\nfn b( {}\n\nfn c() {}\n\nimpl X {\n    fn m1(&self) { let = ; }\n\n    fn m2(&self) {}\n}\n\nstruct S;\n",
                &["a", "c", "m2", "S"],
            ),
            (
                "python",
                b"def a():\n    pass\n\ndef b(:\n    pass\n\nclass K:\n    def m1(self):\n        x = (\n\n    def m2(self):\n        pass\n\ny = 1\n",
                &["a", "m2", "y"],
            ),
            (
                "python",
                b"def a():\n    pass\n\nclass K:\n    def m1(self)\n        pass\n\n    def m2(self):\n        pass\n\ndef c():\n    pass\n",
                &["a", "m2", "c"],
            ),
        ];
        for (lang, src, names) in cases {
            let l = crate::lang::by_name(lang).unwrap();
            let index = LineIndex::new(src);
            let whole = l.parse(src);
            assert!(whole.root_node().has_error());
            let all = symbols_with_index(l, src, &whole, "f", &index);
            let key = |s: &Symbol| (s.qualified_name.clone(), s.kind, s.span.clone(), s.depth);
            for name in names {
                let hits: Vec<_> = crate::lang::word_hits(src, &[name]);
                let p = l.parse_around(src, &index, &hits, Cut::Members);
                let near = symbols_with_index(l, src, &p.tree, "f", &index);
                let a: Vec<_> = all.iter().filter(|s| s.name == *name).map(key).collect();
                let b: Vec<_> = near.iter().filter(|s| s.name == *name).map(key).collect();
                assert_eq!(a.len(), 1, "{lang} {name}: {all:?}");
                assert_eq!(a, b, "{lang} {name}: whole and region paths disagree");
            }
        }
    }
}

mod ref_context_tests {
    use crate::lang::references::*;

    /// The shared rule: calls, member accesses, imports and plain identifiers in grammars
    /// without a rule of their own.
    #[test]
    fn shared_reference_contexts() {
        let cases: [(&str, &str, &str, &[RefContext]); 3] = [
            (
                "java",
                "import a.inc;\nclass C { int inc; void f(C o) { inc(); o.inc(); o.inc.x(); int y = inc; } }\n",
                "inc",
                &[
                    RefContext::Import,
                    RefContext::Definition,
                    RefContext::Call,
                    RefContext::Call,
                    RefContext::Attribute,
                    RefContext::Identifier,
                ],
            ),
            (
                "go",
                "package p\nfunc f() { inc(); o.inc(); x := o.inc; _ = inc }\n",
                "inc",
                &[
                    RefContext::Call,
                    RefContext::Call,
                    RefContext::Attribute,
                    RefContext::Identifier,
                ],
            ),
            (
                "typescript",
                "import { inc } from './a';\nfunction f(o: any) { inc(); o.inc(); return o.inc; }\n",
                "inc",
                &[
                    RefContext::Import,
                    RefContext::Call,
                    RefContext::Call,
                    RefContext::Attribute,
                ],
            ),
        ];
        for (lang, src, name, want) in cases {
            let l = crate::lang::by_name(lang).unwrap();
            let tree = l.parse(src.as_bytes());
            let refs = references(l, src.as_bytes(), &tree, name, "f");
            let got: Vec<RefContext> = refs.iter().map(|r| r.context).collect();
            assert_eq!(got, want, "{lang}");
        }
    }
}

mod around_tests {
    use super::super::*;
    use crate::lang::references::*;

    /// In every language's fixture, the definitions named N that `symbols_around` N's
    /// occurrences finds are those of the whole file (qualified names, spans, ids).
    #[test]
    fn symbols_around_a_name_are_the_files_in_every_language() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for l in crate::lang::ALL {
            let src = std::fs::read(dir.join(l.fixture)).unwrap();
            let tree = l.parse(&src);
            let all = symbols(l, &src, &tree, "f");
            let key = |s: &Symbol| {
                (
                    s.qualified_name.clone(),
                    s.span.clone(),
                    s.symbol_id.clone(),
                )
            };
            for name in all.iter().map(|s| s.name.clone()) {
                let hits: Vec<_> = memchr::memmem::find_iter(&src, name.as_bytes())
                    .map(|i| i..i + name.len())
                    .collect();
                let near = symbols_around(l, &src, &tree, "f", &hits);
                let a: Vec<_> = all.iter().filter(|s| s.name == name).map(key).collect();
                let b: Vec<_> = near.iter().filter(|s| s.name == name).map(key).collect();
                assert_eq!(a, b, "{}: {name}", l.name);
            }
        }
    }

    /// `references_around` (only the symbols that hold the occurrences) reports what
    /// `references` (every symbol of the file) does: in every language's fixture, for the name
    /// of each of its symbols, and in attributes, decorators, wrappers and nested items.
    #[test]
    fn references_around_are_the_references_of_every_symbol() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut cases: Vec<(&Language, Vec<u8>)> = crate::lang::ALL
            .iter()
            .map(|l| (*l, std::fs::read(dir.join(l.fixture)).unwrap()))
            .collect();
        let extra: [(&str, &str); 5] = [
            ("rust", "#[derive(R)]\n#[cfg(R)]\nfn f() -> R { R }\nmod m { #[R] impl R { fn g(r: R) {} } }\n"),
            ("rust", "/// {R}\nfn f(R: u8) { println!(\"{R} {{R}} {R:>2} {}\", R); let s = \"{R}\"; }\n"),
            ("python", "@R\n@x.R(R)\ndef f(R):\n    class R:\n        @R\n        def g(self): return R\n"),
            ("typescript", "@R() export class R { @R m(r: R): R { return r; } }\nexport default R;\nexport { R };\n"),
            ("go", "package p\nconst (\n\tR = 1 // R\n\tS = R\n)\ntype R struct{}\nfunc (r R) R() R { return r }\n"),
        ];
        for (lang, src) in extra {
            cases.push((crate::lang::by_name(lang).unwrap(), src.as_bytes().to_vec()));
        }
        let mut compared = 0;
        for (l, src) in &cases {
            let tree = l.parse(src);
            let index = LineIndex::new(src);
            let mut names: Vec<String> = symbols(l, src, &tree, "f")
                .into_iter()
                .map(|s| s.name)
                .collect();
            names.push("R".into());
            names.sort();
            names.dedup();
            for name in names {
                let json = |refs: Vec<Reference>| {
                    refs.iter()
                        .map(|r| serde_json::to_string(r).unwrap())
                        .collect::<Vec<_>>()
                };
                let all = json(references(l, src, &tree, &name, "f"));
                let around = json(references_around(l, src, &tree, &name, "f", &index));
                assert_eq!(all, around, "{}: {name}", l.name);
                compared += all.len();
            }
        }
        assert!(compared > 300, "only {compared} references compared");
    }

    /// Our matcher (`tags.rs`) gives the symbols tree-sitter's query cursor gives, read the
    /// same way (last kind capture, last `@name`), in every language's fixture.
    #[test]
    fn the_symbol_query_gives_what_tree_sitters_query_gives() {
        use tree_sitter::{Query, QueryCursor, StreamingIterator};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for l in crate::lang::ALL {
            let src = std::fs::read(dir.join(l.fixture)).unwrap();
            let tree = l.parse(&src);
            let index = LineIndex::new(&src);
            let q = Query::new(l.ts(), l.symbol_query).unwrap();
            let name_index = q.capture_index_for_name("name");
            let mut theirs = Vec::new();
            let mut cursor = QueryCursor::new();
            let mut it = cursor.matches(&q, tree.root_node(), &src[..]);
            while let Some(m) = it.next() {
                let (mut item, mut name) = (None, None);
                for c in m.captures() {
                    if Some(c.index) == name_index {
                        name = Some(c.node);
                    } else if let Some(k) =
                        SymbolKind::from_capture(q.capture_names()[c.index as usize])
                    {
                        item = Some((k, c.node));
                    }
                }
                if let (Some((kind, node)), Some(name)) = (item, name) {
                    theirs.push((kind, node, name_node(l, kind, name)));
                }
            }
            let mut ours = Vec::new();
            collect_raw_query(l, &src, &tree, None, true, &mut ours);
            let key = |syms: Vec<Symbol>| {
                syms.into_iter()
                    .map(|s| (serde_json::to_string(&s).unwrap(), s.parent_index))
                    .collect::<Vec<_>>()
            };
            let a = key(build(
                l,
                &src,
                "f",
                &index,
                with_starts(l, &src, &tree, theirs),
            ));
            assert!(a.len() >= 5, "{}: {} symbols", l.name, a.len());
            let b = key(build(
                l,
                &src,
                "f",
                &index,
                with_starts(l, &src, &tree, ours),
            ));
            assert_eq!(a, b, "{}", l.name);
        }
    }

    #[test]
    fn symbols_around_equals_the_matching_subset_of_symbols() {
        let rust = crate::lang::by_name("rust").unwrap();
        let src = b"mod m {\n    pub struct P;\n    impl P {\n        /// Doc.\n        pub fn parse(&self) {}\n        fn other() {}\n    }\n    impl Drop for P {\n        fn parse(&self) {}\n    }\n}\nfn parse() {}\nfn unrelated() { let parse = 1; }\n";
        let tree = rust.parse(src);
        let all = symbols(rust, src, &tree, "f.rs");
        let ranges: Vec<_> = memchr::memmem::find_iter(src, b"parse")
            .map(|i| i..i + 5)
            .collect();
        let near = symbols_around(rust, src, &tree, "f.rs", &ranges);
        let key = |s: &Symbol| {
            (
                s.qualified_name.clone(),
                s.symbol_id.clone(),
                s.span.clone(),
                s.depth,
            )
        };
        let expected: Vec<_> = all
            .iter()
            .filter(|s| {
                ranges
                    .iter()
                    .any(|r| s.span.byte_start <= r.start && r.end <= s.span.byte_end)
            })
            .map(key)
            .collect();
        assert_eq!(near.iter().map(key).collect::<Vec<_>>(), expected);
        assert_eq!(near.iter().filter(|s| s.name == "parse").count(), 3);
        assert!(near.iter().all(|s| s.name != "other"));
    }
}

mod walk_matches_query {
    use super::super::*;
    use std::path::Path;

    fn both(lang: &Language, src: &[u8], path: &str) {
        let tree = lang.parse(src);
        let index = LineIndex::new(src);
        let mut walked = Vec::new();
        collect_raw(lang, src, &tree, None, &mut walked);
        let mut queried = Vec::new();
        collect_raw_query(lang, src, &tree, None, true, &mut queried);
        let key = |s: &Symbol| {
            (
                s.qualified_name.clone(),
                s.kind,
                s.span.clone(),
                s.name_span.clone(),
                s.symbol_id.clone(),
            )
        };
        let a: Vec<_> = build(
            lang,
            src,
            path,
            &index,
            with_starts(lang, src, &tree, walked),
        )
        .iter()
        .map(key)
        .collect();
        let b: Vec<_> = build(
            lang,
            src,
            path,
            &index,
            with_starts(lang, src, &tree, queried),
        )
        .iter()
        .map(key)
        .collect();
        assert!(!b.is_empty(), "{path}: no symbols at all");
        assert_eq!(a, b, "{path}: the walk and the symbol query disagree");
    }

    #[test]
    fn on_fixtures_and_this_repository() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let rust = crate::lang::by_name("rust").unwrap();
        let python = crate::lang::by_name("python").unwrap();
        let mut n = 0;
        for dir in [
            "src",
            "src/lang",
            "src/cmd",
            "src/check",
            "tests/it",
            "tests/fixtures",
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let p = entry.unwrap().path();
                let lang = match p.extension().and_then(|e| e.to_str()) {
                    Some("rs") => rust,
                    Some("py") => python,
                    _ => continue,
                };
                both(lang, &std::fs::read(&p).unwrap(), &p.display().to_string());
                n += 1;
            }
        }
        assert!(n > 30, "only {n} files compared");
    }

    /// Over a whole corpus: `LLM_REGIONS_CORPUS=DIR cargo test on_a_corpus -- --ignored`.
    #[test]
    #[ignore]
    fn on_a_corpus() {
        let Some(dir) = std::env::var_os("LLM_REGIONS_CORPUS") else {
            return;
        };
        let mut n = 0;
        for (p, l, src) in crate::lang::source_files(Path::new(&dir)) {
            let tree = l.parse(&src);
            let mut raw = Vec::new();
            collect_raw(l, &src, &tree, None, &mut raw);
            let mut queried = Vec::new();
            collect_raw_query(l, &src, &tree, None, true, &mut queried);
            let key = |r: &Raw| {
                (
                    r.0,
                    r.1.start_byte(),
                    r.1.end_byte(),
                    r.2.start_byte(),
                    r.2.end_byte(),
                )
            };
            let mut a: Vec<_> = raw.iter().map(key).collect();
            let mut b: Vec<_> = queried.iter().map(key).collect();
            a.sort();
            a.dedup();
            b.sort();
            b.dedup();
            assert_eq!(
                a,
                b,
                "{}: the walk and the symbol query disagree",
                p.display()
            );
            n += 1;
        }
        eprintln!("{n} files: the walk finds what the symbol query finds");
    }

    #[test]
    fn on_python_edge_cases_and_the_standard_library() {
        let python = crate::lang::by_name("python").unwrap();
        let src = b"a = b = c = 1\n(t, u) = 1, 2\nn += 1\nif X:\n    I = 1\nelif Y:\n    J = 1\nelse:\n    K = 1\ntry:\n    T = 1\nexcept E:\n    T2 = 1\nfinally:\n    F = 1\nwith w:\n    W1 = 1\nfor q in r:\n    Q = 1\nwhile 0:\n    if 1:\n        DEEP = 1\nclass Z:\n    if 1:\n        ZF = 1\n    zz = zy = 0\ndef g():\n    if 1:\n        local = 1\n    for i in x:\n        local2 = 2\n";
        both(python, src, "more.py");
        let tree = python.parse(src);
        let names: Vec<(String, SymbolKind)> = symbols(python, src, &tree, "more.py")
            .into_iter()
            .map(|s| (s.qualified_name, s.kind))
            .collect();
        let want = |n: &str, k| assert!(names.contains(&(n.to_string(), k)), "{n}: {names:?}");
        for n in [
            "a", "b", "c", "t", "u", "n", "I", "J", "K", "T", "T2", "F", "W1", "Q",
        ] {
            want(n, SymbolKind::Constant);
        }
        for n in ["Z.ZF", "Z.zz", "Z.zy"] {
            want(n, SymbolKind::Field);
        }
        assert!(names
            .iter()
            .all(|(n, _)| !n.contains("local") && n != "DEEP"));
        let src = b"X = 1\nA, B = 1, 2\nif True:\n    Y = 2\nclass C:\n    f = 1\n    g: int = 2\n    def m(self):\n        z = 3\n    class D:\n        h = 4\n@dec\ndef f():\n    pass\nasync def g():\n    W = 5\nx.y = 1\n";
        both(python, src, "edge.py");
        // Real code: a few standard-library modules, when python3 is there (it is in CI).
        for (m, src) in crate::lang::python_stdlib_sample() {
            both(python, &src, m);
        }
    }
}
