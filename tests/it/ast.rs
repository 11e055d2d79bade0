//! `llm ast`: queries, predicates, prefilter, JSON shape, spans, errors, `--tree`.

use crate::util::{check_span, redactions, TestEnv};
use serde::Deserialize;
use serde_json::Value;

const FIXTURE_RS: &str = include_str!("../fixtures/symbols.rs");
const FIXTURE_PY: &str = include_str!("../fixtures/symbols.py");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Capture {
    name: String,
    span: Value,
    content: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Match {
    match_id: String,
    span: Value,
    pattern_index: usize,
    language: String,
    captures: Vec<Capture>,
}

fn env() -> TestEnv {
    let t = TestEnv::new();
    t.write("src/symbols.rs", FIXTURE_RS);
    t.write("py/symbols.py", FIXTURE_PY);
    t
}

fn matches(v: &Value) -> Vec<Match> {
    serde_json::from_value(v["data"]["matches"].clone()).expect("match shape")
}

#[test]
fn query_json_shape_spans_and_captures() {
    let t = env();
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "(function_item name: (identifier) @name body: (block) @body)",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "ok");
    assert_eq!(v["command"], "ast");
    assert_eq!(v["data"]["languages"], serde_json::json!(["rust"]));
    let ms = matches(&v);
    // Every fn with a body: new, parse, fmt, parse, inc, inc, main, name.
    assert_eq!(ms.len(), 8);
    for m in &ms {
        check_span(t.path(), &m.span);
        assert_eq!(m.language, "rust");
        assert_eq!(m.captures.len(), 2);
        for c in &m.captures {
            check_span(t.path(), &c.span);
            let bytes = t.read(c.span["file_path"].as_str().unwrap());
            let r = c.span["byte_start"].as_u64().unwrap() as usize
                ..c.span["byte_end"].as_u64().unwrap() as usize;
            assert_eq!(&bytes[r], c.content.as_bytes());
        }
        assert_eq!(m.span["byte_start"], m.captures[0].span["byte_start"]);
        assert_eq!(m.span["byte_end"], m.captures[1].span["byte_end"]);
    }
    let files = v["data"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["checksum"].as_str().unwrap().len(), 64);
    assert_eq!(v["data"]["stats"]["files_parsed"], 1);
    assert_eq!(v["data"]["stats"]["files_other_language"], 1);
}

fn names(t: &TestEnv, query: &str) -> Vec<String> {
    let (v, code) = t.json(&["ast", "--json", query]);
    assert!(code <= 1, "{v}");
    matches(&v)
        .into_iter()
        .map(|m| m.captures[0].content.clone())
        .collect()
}

#[test]
fn predicates() {
    let t = env();
    let q = |p: &str| format!("((function_definition name: (identifier) @n) {p})");
    assert_eq!(names(&t, &q(r#"(#eq? @n "helper")"#)), ["helper"]);
    assert_eq!(
        names(&t, &q(r#"(#any-of? @n "helper" "fetch")"#)),
        ["helper", "fetch"]
    );
    assert_eq!(names(&t, &q(r#"(#match? @n "^parse_")"#)), ["parse_async"]);
    let not_eq = names(&t, &q(r#"(#not-eq? @n "parse")"#));
    assert!(!not_eq.contains(&"parse".to_string()) && not_eq.contains(&"helper".to_string()));
    let not_match = names(&t, &q(r#"(#not-match? @n "^(parse|_)")"#));
    assert_eq!(not_match, ["helper", "fetch", "cached", "local"]);
}

#[test]
fn prefilter_skips_files_without_the_literal() {
    let t = env();
    for i in 0..5 {
        t.write(
            &format!("src/other{i}.rs"),
            "fn f() { let x = y.expect(\"z\"); }\n",
        );
    }
    t.write("src/hit.rs", "fn g() { a.unwrap(); b.unwrap_or(1); }\n");
    let q = r#"(call_expression function: (field_expression field: (field_identifier) @m) (#eq? @m "unwrap"))"#;
    let (v, code) = t.json(&["ast", "--json", "-l", "rust", q]);
    assert_eq!(code, 0, "{v}");
    let stats = &v["data"]["stats"];
    assert_eq!(stats["files_skipped_prefilter"], 6, "{stats}");
    assert_eq!(stats["files_parsed"], 1);
    assert_eq!(v["data"]["prefilter"], serde_json::json!(["unwrap"]));
    assert_eq!(v["data"]["match_count"], 1);
    // Without a required literal nothing is skipped.
    let (v, _) = t.json(&["ast", "--json", "-l", "rust", "(call_expression) @c"]);
    assert_eq!(v["data"]["stats"]["files_skipped_prefilter"], 0);
    assert_eq!(v["data"]["stats"]["files_parsed"], 7);
}

#[test]
fn max_results_is_partial_and_order_is_deterministic() {
    let t = env();
    for i in 0..20 {
        t.write(
            &format!("m/f{i:02}.py"),
            "def a():\n    pass\ndef b():\n    pass\n",
        );
    }
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "-j",
        "4",
        "--max-results",
        "5",
        "(function_definition) @f",
        "m",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["partial"], true);
    assert_eq!(v["data"]["match_count"], 5);
    assert_eq!(v["data"]["total_count"], 40);
    let out1 = t
        .llm(&["ast", "-j", "4", "(function_definition) @f", "m"])
        .output()
        .unwrap();
    let out2 = t
        .llm(&["ast", "-j", "1", "(function_definition) @f", "m"])
        .output()
        .unwrap();
    assert_eq!(out1.stdout, out2.stdout);
    let text = String::from_utf8(out1.stdout).unwrap();
    assert!(
        text.starts_with("m/f00.py:1:1: @f def a(): …\nm/f00.py:3:1: @f def b(): …\n"),
        "{text}"
    );
}

#[test]
fn human_output_snapshot() {
    let t = env();
    let out = t
        .llm(&[
            "ast",
            "(macro_invocation macro: (identifier) @mac (token_tree) @args)",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn json_snapshot() {
    let t = env();
    let (v, _) = t.json(&["ast", "--json", r#"((identifier) @id (#eq? @id "square"))"#]);
    redactions(t.path()).bind(|| insta::assert_json_snapshot!(v));
}

#[test]
fn jsonl_streams_matches_then_summary() {
    let t = env();
    let out = t
        .llm(&[
            "ast",
            "--format",
            "jsonl",
            "(class_definition name: (identifier) @c)",
        ])
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[..3].iter().all(|l| l["type"] == "match"));
    assert_eq!(lines[3]["type"], "summary");
    assert_eq!(lines[3]["data"]["match_count"], 3);
}

#[test]
fn unknown_node_type_suggests_real_kinds() {
    let t = env();
    let (v, code) = t.json(&["ast", "--json", "-l", "rust", "(functon_item) @f"]);
    assert_eq!(code, 2);
    assert_eq!(v["status"], "error");
    let e = &v["error"];
    assert_eq!(e["code"], "AST_E001");
    assert!(e["message"].as_str().unwrap().contains("1:2"), "{e}");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("unknown node type `functon_item`"));
    assert!(
        e["remediation"]
            .as_str()
            .unwrap()
            .contains("`function_item`"),
        "{e}"
    );
    // Without --lang: every language tried, each error reported.
    let (v, code) = t.json(&["ast", "--json", "(functon_item) @f"]);
    assert_eq!(code, 2);
    assert_eq!(
        v["diagnostics"].as_array().unwrap().len(),
        llm::lang::ALL.len(),
        "{v}"
    );
    // A node of another language says so.
    let (v, _) = t.json(&["ast", "--json", "-l", "py", "(function_item) @f"]);
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("--lang rust"),
        "{v}"
    );
}

#[test]
fn other_query_errors() {
    let t = env();
    let cases = [
        (
            "(function_item nme: (identifier)) @f",
            "unknown field `nme`",
            "`name:`",
        ),
        ("(function_item", "invalid query syntax", "parentheses"),
        (
            r#"((identifier) @a (#eq? @b "x"))"#,
            "unknown capture",
            "capture the node",
        ),
    ];
    for (q, msg, fix) in cases {
        let (v, code) = t.json(&["ast", "--json", "-l", "rust", q]);
        assert_eq!(code, 2, "{q}");
        let e = &v["error"];
        assert!(e["message"].as_str().unwrap().contains(msg), "{q}: {e}");
        assert!(e["remediation"].as_str().unwrap().contains(fix), "{q}: {e}");
    }
    let (v, code) = t.json(&["ast", "--json", "-l", "cobol", "(x)"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "AST_E002");
    let out = t
        .llm(&["ast", "-l", "rust", "(functon_item) @f"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("error[AST_E001]") && err.contains("help: did you mean"),
        "{err}"
    );
}

#[test]
fn query_file_and_awkward_files() {
    let t = TestEnv::new();
    t.write(
        "q.scm",
        "; functions\n(function_item name: (identifier) @n)\n",
    );
    t.write("crlf.rs", "fn a() {}\r\n\r\nfn b() {\r\n}\r\n");
    t.write("bom.rs", "\u{feff}fn bom() {}\n");
    t.write("utf8.rs", "// é«»\nfn café() { let s = \"ü\"; }");
    t.write("empty.rs", "");
    t.write("bin.rs", b"fn bin() {}\x00\x01".as_slice());
    t.write("broken.rs", "fn ok() {}\nfn broken( {\nfn after() {}\n");
    t.write("latin1.rs", b"// caf\xe9\nfn latin() {}\n".as_slice());
    let (v, code) = t.json(&["ast", "--json", "--query-file", "q.scm", "."]);
    assert_eq!(code, 0, "{v}");
    let got: Vec<String> = matches(&v)
        .iter()
        .map(|m| m.captures[0].content.clone())
        .collect();
    // `after` follows the broken region and is still found.
    assert_eq!(got, ["bom", "ok", "after", "a", "b", "café"], "{v}");
    for m in matches(&v) {
        check_span(t.path(), &m.span);
    }
    let stats = &v["data"]["stats"];
    assert_eq!(stats["skipped"]["binary"], 1);
    assert_eq!(stats["files_with_parse_errors"], 1);
    assert_eq!(stats["files_not_utf8"], 1);
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 2, "{v}");
    assert_eq!(diags[1]["code"], "AST_E007");
    assert_eq!(diags[1]["file"], "latin1.rs");
    assert_eq!(diags[0]["code"], "AST_E004");
    assert_eq!(diags[0]["level"], "warning");
    assert_eq!(diags[0]["file"], "broken.rs");
    check_span(t.path(), &diags[0]["span"]);
    assert_eq!(v["data"]["files"][1]["parse_errors"], true);
    // Named explicitly, a non-UTF-8 file is parsed anyway.
    let (v, code) = t.json(&["ast", "--json", "--query-file", "q.scm", "latin1.rs"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(matches(&v)[0].captures[0].content, "latin");
}

#[test]
fn named_file_without_extension_needs_lang() {
    let t = TestEnv::new();
    t.write("script", "def main():\n    pass\n");
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "-l",
        "python",
        "(function_definition) @f",
        "script",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["data"]["match_count"], 1);
    let (v, code) = t.json(&["ast", "--json", "(function_definition) @f", "script"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "no_matches");
    assert_eq!(v["diagnostics"][0]["code"], "AST_E005");
    assert_eq!(v["diagnostics"][0]["level"], "warning");
    assert!(v["diagnostics"][0]["remediation"]
        .as_str()
        .unwrap()
        .contains("--lang"));
}

/// Files named alone: the query is compiled for their languages only, so a query of another
/// language's kinds is a query error that names the language (it was a warning that the file
/// is of no language queried), and a query of theirs still finds its matches.
#[test]
fn named_files_compile_the_query_for_their_languages() {
    let t = TestEnv::new();
    t.write("a.py", "def f():\n    return 1\n");
    t.write("b.rs", "fn g() {}\n");
    let (v, code) = t.json(&["ast", "--json", "(function_item) @f", "a.py"]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "AST_E001", "{v}");
    assert!(
        v["error"]["remediation"].as_str().unwrap().contains("rust"),
        "{v}"
    );
    // Two languages named: the query compiles for one, the other file is said to be skipped.
    let (v, code) = t.json(&["ast", "--json", "(function_item) @f", "a.py", "b.rs"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["data"]["match_count"], 1);
    assert_eq!(v["diagnostics"][0]["code"], "AST_E005", "{v}");
    let (v, code) = t.json(&["ast", "--json", "(function_definition) @f", "a.py"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["data"]["match_count"], 1);
}

#[test]
fn tree_dump_human_and_json() {
    let t = TestEnv::new();
    t.write(
        "a.rs",
        "/// Doc.\n#[inline]\nfn add(a: u8) -> u8 { a + 1 }\n",
    );
    let out = t.llm(&["ast", "--tree", "a.rs"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("tree_human", String::from_utf8(out.stdout).unwrap());
    let out = t
        .llm(&["ast", "--tree", "a.rs", "--at", "3:22"])
        .output()
        .unwrap();
    insta::assert_snapshot!("tree_at_human", String::from_utf8(out.stdout).unwrap());
    let (v, code) = t.json(&["ast", "--json", "--tree", "a.rs", "--at", "3:22"]);
    assert_eq!(code, 0);
    let path = v["data"]["path"].as_array().unwrap();
    let kinds: Vec<&str> = path.iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "source_file",
            "function_item",
            "block",
            "binary_expression",
            "identifier"
        ]
    );
    assert_eq!(path[2]["field"], "body");
    for n in path {
        check_span(t.path(), &n["span"]);
    }
    assert_eq!(v["data"]["root"]["text"], "a");
    let (v, _) = t.json(&["ast", "--json", "--tree", "a.rs"]);
    redactions(t.path()).bind(|| insta::assert_json_snapshot!("tree_json", v));
    let (v, code) = t.json(&["ast", "--json", "--tree", "a.rs", "--at", "9:0"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "AST_E006");
    let (v, code) = t.json(&["ast", "--json", "--tree", "missing.txt"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "AST_E005");
}

#[test]
fn bare_kind_walk_agrees_with_the_query_engine() {
    let t = env();
    t.write(
        "src/broken.rs",
        "fn a() { fn b() {} }\nfn c( {\nimpl X { fn d() {} }\n",
    );
    let spans = |q: &str| -> Vec<(String, usize)> {
        let (v, _) = t.json(&["ast", "--json", "-l", "rust", q]);
        matches(&v)
            .into_iter()
            .map(|m| {
                (
                    m.span["span_id"].as_str().unwrap().to_string(),
                    m.pattern_index,
                )
            })
            .collect()
    };
    let bare = spans("(function_item) @f (identifier) @i");
    let engine =
        spans(r#"((function_item) @f (#not-eq? @f "")) ((identifier) @i (#not-eq? @i ""))"#);
    assert!(bare.len() > 20);
    assert_eq!(bare, engine);
    // C: the walk for functions opens only what holds a `{` (a GNU nested function inside a
    // statement expression too), and whatever holds a syntax error.
    t.write(
        "c/nested.c",
        "int f(void) {\n  int x = ({ int g(int a) { return a; } g(1); });\n  return x;\n}\nstruct S { int a; };\nint h(int a) { if (a) { return a; } return 0 }\nint k(void) { return 1; }\n",
    );
    let c_spans = |q: &str| -> Vec<String> {
        let (v, _) = t.json(&["ast", "--json", "-l", "c", q, "c"]);
        matches(&v)
            .into_iter()
            .map(|m| m.span["span_id"].as_str().unwrap().to_string())
            .collect()
    };
    let bare = c_spans("(function_definition) @f");
    assert_eq!(bare.len(), 4, "{bare:?}");
    assert_eq!(
        bare,
        c_spans(r#"((function_definition) @f (#not-eq? @f ""))"#)
    );
    let bare = c_spans("(struct_specifier) @s");
    assert_eq!(bare, c_spans(r#"((struct_specifier) @s (#not-eq? @s ""))"#));
    assert_eq!(bare.len(), 1);
}

#[test]
fn error_nodes_are_found_and_multi_word_tokens_do_not_skip_files() {
    let t = TestEnv::new();
    t.write("bad.py", "def ok():\n    pass\n\nx = [1, 2\ny = 3\n");
    t.write(
        "spaced.py",
        "if a is  not b:\n    pass\nif c not\tin d:\n    pass\n",
    );
    let (v, code) = t.json(&["ast", "--json", "(ERROR) @e", "bad.py"]);
    assert_eq!(code, 0, "{v}");
    assert!(!matches(&v).is_empty(), "{v}");
    // `"is not"` is two tokens: `is  not` (two blanks) matches too, as does `not\tin`.
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "(comparison_operator \"is not\") @c",
        "spaced.py",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(matches(&v).len(), 1, "{v}");
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "(comparison_operator \"not in\") @c",
        "spaced.py",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(matches(&v).len(), 1, "{v}");
}

/// Matches are rendered by the workers (human and JSON lines without --max-results): the
/// output is the same at any thread count, in path order, and holds what `--json` holds.
#[test]
fn rendered_output_is_the_same_at_any_thread_count() {
    let t = TestEnv::new();
    for i in 0..40 {
        let body = match i % 4 {
            0 => "def a():\n    def inner():\n        pass\n\nclass C:\n    def m(self):\n        return 'é'\n".to_string(),
            1 => "def crlf():\r\n    pass\r\n".to_string(),
            2 => format!("# no defs here {i}\nx = 1"),
            _ => "def broken(:\n    pass\ndef after():\n\tpass".to_string(),
        };
        t.write(&format!("r/d{}/f{i:02}.py", i % 3), &body);
    }
    let run = |args: &[&str]| {
        let out = t.llm(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        // Match ids are fresh per run; the summary's execution id and timing too.
        text.lines()
            .filter(|l| !l.contains("\"type\":\"summary\""))
            .map(|l| match serde_json::from_str::<Value>(l) {
                Ok(mut v) => {
                    v["match_id"] = Value::Null;
                    v.to_string()
                }
                Err(_) => l.to_string(),
            })
            .collect::<Vec<_>>()
    };
    let q = "(function_definition) @f";
    let (v, _) = t.json(&["ast", "--json", "-j", "4", q, "r"]);
    let count = v["data"]["match_count"].as_u64().unwrap() as usize;
    assert!(count > 40, "{v}");
    for format in ["human", "jsonl"] {
        let one = run(&["ast", "--format", format, "-j", "1", q, "r"]);
        let four = run(&["ast", "--format", format, "-j", "4", q, "r"]);
        assert_eq!(one, four, "{format}");
        assert_eq!(one.len(), count, "{format}: {one:?}");
    }
    let lines = run(&["ast", "--format", "jsonl", "-j", "4", q, "r"]);
    let mut all: Vec<Value> = v["data"]["matches"].as_array().unwrap().clone();
    for m in &mut all {
        m["match_id"] = Value::Null;
        m.as_object_mut()
            .unwrap()
            .insert("type".into(), "match".into());
    }
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, all);
    let paths: Vec<&str> = all
        .iter()
        .map(|m| m["span"]["file_path"].as_str().unwrap())
        .collect();
    assert!(paths.windows(2).all(|w| w[0] <= w[1]), "{paths:?}");
}

#[test]
fn a_pattern_without_a_capture_reports_its_node_as_match() {
    // `(function_definition)` alone matches, but a match without captures had nothing to
    // report: the run said `no_matches`. Each such pattern's node is now `@match`, as if it
    // were written `(function_definition) @match`; patterns with captures keep theirs.
    let t = env();
    let spans = |q: &str| -> Vec<(String, Value)> {
        let (v, code) = t.json(&["ast", "--json", "-l", "python", q]);
        assert_eq!(code, 0, "{q}: {v}");
        matches(&v)
            .into_iter()
            .flat_map(|m| m.captures)
            .map(|c| (c.name, c.span["byte_start"].clone()))
            .collect()
    };
    let bare = spans("(function_definition)");
    let named = spans("(function_definition) @match");
    assert!(bare.len() > 3);
    assert_eq!(bare, named);
    // With a comment after it, in an alternation, a quantifier, beside a captured pattern.
    assert_eq!(spans("(function_definition) ; every def\n"), named);
    assert_eq!(
        spans("[(function_definition) (class_definition)]").len(),
        named.len() + spans("(class_definition) @c").len()
    );
    let mixed = spans("(function_definition)\n(class_definition name: (identifier) @class)");
    assert!(mixed.iter().any(|(n, _)| n == "match") && mixed.iter().any(|(n, _)| n == "class"));
    let (out, _) = (
        t.llm(&["ast", "-l", "python", "\"def\""]).output().unwrap(),
        (),
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("@match def"));
}

/// Each match's captures as (name, byte_start, byte_end), in output order.
fn capture_spans(t: &TestEnv, args: &[&str]) -> Vec<Vec<(String, u64, u64)>> {
    let mut all = vec!["ast", "--json"];
    all.extend_from_slice(args);
    let (v, code) = t.json(&all);
    assert!(code <= 1, "{v}");
    matches(&v)
        .into_iter()
        .map(|m| {
            m.captures
                .into_iter()
                .map(|c| {
                    let span = |k: &str| c.span[k].as_u64().unwrap();
                    (c.name, span("byte_start"), span("byte_end"))
                })
                .collect()
        })
        .collect()
}

#[test]
fn anonymous_nodes_spelled_otherwise_are_no_required_literals() {
    // `"#include"` is also `# include`, PHP's keywords match in any case, Ruby's `"%w("` opens
    // with any bracket, and a MISSING node has no text at all: the prefilter required the
    // quoted text and skipped these files (the raw query engine finds each node).
    let t = TestEnv::new();
    t.write("a.c", "# include <stdio.h>\n#  define X 1\n");
    t.write("guard.h", "#ifndef A\n#define A\nint x;\n");
    t.write("a.php", "<?php\nFUNCTION foo() { ECHO 1; }\n");
    t.write("a.rb", "x = %w[a b]\n");
    let cap = |name: &str, s: u64, e: u64| vec![vec![(name.to_string(), s, e)]];
    for no_prefilter in [false, true] {
        let run = |lang: &str, q: &str, path: &str| {
            let mut args = vec!["-l", lang, q, path];
            if no_prefilter {
                args.push("--no-prefilter");
            }
            capture_spans(&t, &args)
        };
        assert_eq!(
            run("c", r##"(preproc_include "#include" @k)"##, "a.c"),
            cap("k", 0, 9)
        );
        assert_eq!(run("c", r##""#define" @k"##, "a.c"), cap("k", 20, 29));
        assert_eq!(
            run("c", r##"(MISSING "#endif") @m"##, "guard.h"),
            cap("m", 26, 26)
        );
        assert_eq!(run("php", r#""function" @k"#, "a.php"), cap("k", 6, 14));
        assert_eq!(run("php", r#""echo" @k"#, "a.php"), cap("k", 23, 27));
        assert_eq!(run("ruby", r#""%w(" @k"#, "a.rb"), cap("k", 4, 7));
    }
}

#[test]
fn a_repeated_kind_matches_as_the_query_engine_does() {
    // `(argument_list)+ @c` was answered by the walk of bare kinds, as `(argument_list) @c`;
    // tree-sitter's query engine does not match the list inside the ERROR here.
    let t = TestEnv::new();
    t.write("a.cc", "A() : N() () {}\n");
    let spans = |q: &str| capture_spans(&t, &["-l", "cpp", q, "a.cc"]);
    assert_eq!(
        spans("(argument_list)+ @c"),
        vec![vec![("c".to_string(), 10, 12)]]
    );
    assert_eq!(spans("(argument_list) @c").len(), 2);
}

#[test]
fn a_predicate_outside_its_pattern_is_a_clear_error() {
    // tree-sitter reads the predicate after `]` as a second pattern that matches every node
    // and filters nothing; llm gave it an `@match` and reported a syntax error at the end.
    let t = env();
    let (v, code) = t.json(&[
        "ast",
        "--json",
        "-l",
        "python",
        r#"[(call function: (identifier) @n) ((identifier) @n)] (#eq? @n "helper")"#,
    ]);
    assert_eq!(code, 2, "{v}");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("at 1:54") && msg.contains("predicate stands alone"),
        "{msg}"
    );
    let ok = names(
        &t,
        r#"([(call function: (identifier) @n) ((identifier) @n)] (#eq? @n "helper"))"#,
    );
    assert!(!ok.is_empty() && ok.iter().all(|n| n == "helper"), "{ok:?}");
}
