//! `llm find`: symbols of every kind, outlines, references, filters, not-found remediation.

use crate::util::{check_span, redactions, TestEnv};
use serde::Deserialize;
use serde_json::Value;

const FIXTURE_RS: &str = include_str!("../fixtures/symbols.rs");
const FIXTURE_PY: &str = include_str!("../fixtures/symbols.py");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SymbolMatch {
    match_id: String,
    name: String,
    qualified_name: String,
    kind: String,
    parent: Option<String>,
    #[serde(default)]
    impl_of: Option<String>,
    language: String,
    signature: String,
    symbol_id: String,
    span: Value,
    name_span: Value,
    body_span: Option<Value>,
    node_span: Value,
    depth: usize,
    #[serde(default)]
    children: Option<Vec<SymbolMatch>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct RefMatch {
    match_id: String,
    span: Value,
    name: String,
    language: String,
    context: String,
    is_definition: bool,
    enclosing: Option<String>,
    enclosing_kind: Option<String>,
    line_text: String,
}

fn env() -> TestEnv {
    let t = TestEnv::new();
    t.write("src/symbols.rs", FIXTURE_RS);
    t.write("py/symbols.py", FIXTURE_PY);
    t
}

fn find(t: &TestEnv, args: &[&str]) -> (Vec<SymbolMatch>, Value) {
    let mut a = vec!["find", "--json"];
    a.extend_from_slice(args);
    let (v, code) = t.json(&a);
    assert!(code <= 1, "{v}");
    let ms: Vec<SymbolMatch> =
        serde_json::from_value(v["data"]["matches"].clone()).expect("symbol shape");
    (ms, v)
}

fn text(t: &TestEnv, span: &Value) -> String {
    check_span(t.path(), span);
    let bytes = t.read(span["file_path"].as_str().unwrap());
    let r =
        span["byte_start"].as_u64().unwrap() as usize..span["byte_end"].as_u64().unwrap() as usize;
    String::from_utf8(bytes[r].to_vec()).unwrap()
}

fn check_symbol(t: &TestEnv, s: &SymbolMatch) {
    assert_eq!(text(t, &s.name_span), s.name, "{s:?}");
    let whole = text(t, &s.span);
    let node = text(t, &s.node_span);
    assert!(whole.ends_with(&node));
    assert!(node.starts_with(s.signature.as_str()) || node.contains(&s.signature));
    if let Some(b) = &s.body_span {
        assert!(node.contains(&text(t, b)));
    }
    for c in s.children.iter().flatten() {
        check_symbol(t, c);
    }
}

#[test]
fn every_rust_kind_with_spans() {
    let t = env();
    let (ms, v) = find(&t, &["--regex", ".", "-l", "rust"]);
    assert_eq!(v["status"], "ok");
    let mut kinds: Vec<&str> = ms.iter().map(|m| m.kind.as_str()).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(
        kinds,
        [
            "const", "enum", "field", "function", "impl", "macro", "method", "module", "static",
            "struct", "trait", "type", "union", "variant"
        ]
    );
    for m in &ms {
        check_symbol(&t, m);
        assert_eq!(m.language, "rust");
    }
    let parser = ms.iter().find(|m| m.kind == "struct").unwrap();
    assert!(text(&t, &parser.span)
        .starts_with("/// A parser.\n#[derive(Debug, Clone)]\npub struct Parser<T> {"));
    assert_eq!(parser.signature, "pub struct Parser<T> {");
    let variant = ms.iter().find(|m| m.name == "Eof").unwrap();
    assert_eq!(text(&t, &variant.span), "/// End of input.\n    Eof");
    assert_eq!(variant.qualified_name, "Token::Eof");
}

#[test]
fn every_python_kind_with_decorators() {
    let t = env();
    let (ms, _) = find(&t, &["--regex", ".", "py"]);
    let mut kinds: Vec<&str> = ms.iter().map(|m| m.kind.as_str()).collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds, ["class", "constant", "field", "function", "method"]);
    for m in &ms {
        check_symbol(&t, m);
    }
    let cached = ms.iter().find(|m| m.name == "cached").unwrap();
    assert!(text(&t, &cached.span)
        .starts_with("@functools.lru_cache(maxsize=None)\n@staticmethod\ndef cached(n):"));
    assert_eq!(cached.signature, "def cached(n):");
    assert_eq!(text(&t, cached.body_span.as_ref().unwrap()), "return n");
    let fetch = ms.iter().find(|m| m.name == "fetch").unwrap();
    assert_eq!(
        (fetch.kind.as_str(), fetch.signature.as_str()),
        ("function", "async def fetch(url):")
    );
    let prop = ms
        .iter()
        .find(|m| m.qualified_name == "Parser.parse")
        .unwrap();
    assert!(text(&t, &prop.span).starts_with("@property\n    def parse(self):"));
    assert_eq!(prop.parent.as_deref(), Some("Parser"));
}

#[test]
fn same_named_methods_qualified_parent_and_kind() {
    let t = env();
    let (ms, _) = find(&t, &["parse"]);
    let q: Vec<&str> = ms.iter().map(|m| m.qualified_name.as_str()).collect();
    assert_eq!(
        q,
        [
            "Parser.parse",
            "Parser.Inner.parse",
            "Other.parse",
            "Parse::parse",
            "Parser::parse",
            "Token::parse"
        ]
    );
    let ids: std::collections::HashSet<_> = ms.iter().map(|m| m.symbol_id.clone()).collect();
    assert_eq!(ids.len(), ms.len());
    let (ms, _) = find(&t, &["Parser::parse"]);
    assert_eq!(ms.len(), 2, "Parser::parse and Parser.parse");
    let (ms, _) = find(&t, &["parse", "--parent", "Token"]);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].qualified_name, "Token::parse");
    let (ms, _) = find(&t, &["parse", "--parent", "Parser.Inner"]);
    assert_eq!(ms[0].qualified_name, "Parser.Inner.parse");
    let (ms, _) = find(&t, &["Parser", "-k", "struct", "-k", "impl"]);
    let k: Vec<&str> = ms.iter().map(|m| m.kind.as_str()).collect();
    assert_eq!(k, ["struct", "impl", "impl"]);
    // impl<T> fmt::Display for Parser<T>: named after the type, methods under it.
    let (ms, _) = find(&t, &["fmt", "-k", "method"]);
    assert_eq!(ms[0].parent.as_deref(), Some("Parser"));
    assert_eq!(ms[0].qualified_name, "Parser::fmt");
    let (ms, _) = find(&t, &["--prefix", "parse_"]);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].name, "parse_async");
}

#[test]
fn symbol_id_survives_moving_within_the_file() {
    let t = TestEnv::new();
    t.write("a.rs", "fn first() {}\nfn target() {}\n");
    let (a, _) = find(&t, &["target"]);
    t.write("a.rs", "fn target() {}\n\n// moved\nfn first() {}\n");
    let (b, _) = find(&t, &["target"]);
    assert_eq!(a[0].symbol_id, b[0].symbol_id);
    assert_ne!(a[0].span["byte_start"], b[0].span["byte_start"]);
    t.write("b.rs", "fn target() {}\n");
    let (c, _) = find(&t, &["target", "b.rs"]);
    assert_ne!(a[0].symbol_id, c[0].symbol_id, "other file, other id");
}

#[test]
fn outline_human_snapshot() {
    let t = env();
    let out = t
        .llm(&["find", "--outline", "src/symbols.rs", "py/symbols.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn outline_json_is_nested() {
    let t = env();
    let (ms, v) = find(&t, &["--outline", "py/symbols.py"]);
    assert_eq!(v["data"]["mode"], "outline");
    let top: Vec<&str> = ms.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        top,
        [
            "MAX_DEPTH",
            "name",
            "helper",
            "fetch",
            "cached",
            "Parser",
            "Other",
            "p"
        ]
    );
    let parser = &ms[5];
    let kids: Vec<&str> = parser
        .children
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        kids,
        ["kind", "limit", "__init__", "parse", "parse_async", "Inner"]
    );
    assert_eq!(v["data"]["match_count"], 17);
    for m in &ms {
        check_symbol(&t, m);
    }
    redactions(t.path()).bind(|| insta::assert_json_snapshot!(v));
}

#[test]
fn find_human_snapshot_and_json_snapshot() {
    let t = env();
    let out = t.llm(&["find", "parse"]).output().unwrap();
    insta::assert_snapshot!("find_parse_human", String::from_utf8(out.stdout).unwrap());
    let (_, v) = find(&t, &["Parser::new"]);
    redactions(t.path()).bind(|| insta::assert_json_snapshot!("find_new_json", v));
}

#[test]
fn references_across_files() {
    let t = TestEnv::new();
    t.write(
        "src/util.rs",
        "/// inc adds one\npub fn inc(x: u32) -> u32 {\n    x + 1 // not inc\n}\n",
    );
    t.write(
        "src/main.rs",
        "mod util;\nuse crate::util::inc;\n\nstruct C { inc: u32 }\n\nfn main() {\n    let c = C { inc: 1 };\n    let s = \"inc\";\n    println!(\"{}\", util::inc(c.inc) + inc(2));\n}\n",
    );
    t.write(
        "other.py",
        "from util import inc\nimport util\n\nutil.inc(1)  # inc\n'''inc'''\n",
    );
    let (v, code) = t.json(&["find", "--json", "--refs", "inc"]);
    assert_eq!(code, 0, "{v}");
    let refs: Vec<RefMatch> = serde_json::from_value(v["data"]["matches"].clone()).unwrap();
    let got: Vec<(String, u64, &str, bool)> = refs
        .iter()
        .map(|r| {
            check_span(t.path(), &r.span);
            assert_eq!(text(&t, &r.span), "inc");
            (
                r.span["file_path"].as_str().unwrap().to_string(),
                r.span["start_line"].as_u64().unwrap(),
                r.context.as_str(),
                r.is_definition,
            )
        })
        .collect();
    let want: Vec<(String, u64, &str, bool)> = vec![
        ("other.py".into(), 1, "import", false),
        ("other.py".into(), 4, "call", false),
        ("src/main.rs".into(), 2, "import", false),
        ("src/main.rs".into(), 4, "definition", true),
        ("src/main.rs".into(), 7, "identifier", false),
        ("src/main.rs".into(), 9, "path", false),
        ("src/main.rs".into(), 9, "attribute", false),
        ("src/main.rs".into(), 9, "call", false),
        ("src/util.rs".into(), 2, "definition", true),
    ];
    assert_eq!(got, want);
    assert_eq!(refs[7].enclosing.as_deref(), Some("main"));
    assert_eq!(refs[3].enclosing.as_deref(), Some("C::inc"));
    let out = t.llm(&["find", "--refs", "inc", "src"]).output().unwrap();
    insta::assert_snapshot!("refs_human", String::from_utf8(out.stdout).unwrap());
}

#[test]
fn not_found_lists_close_names() {
    let t = env();
    let (v, code) = t.json(&["find", "--json", "Parsr"]);
    assert_eq!(code, 1);
    assert_eq!(v["status"], "no_matches");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "FIND_E005");
    let fix = d["remediation"].as_str().unwrap();
    assert!(fix.contains("`Parser`") && fix.contains("`Parse`"), "{fix}");
    let out = t.llm(&["find", "Parsr"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("did you mean"));
    let (v, code) = t.json(&["find", "--json", "parse", "-k", "metod"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "FIND_E001");
    assert!(v["error"]["remediation"]
        .as_str()
        .unwrap()
        .contains("method"));
    let (v, code) = t.json(&["find", "--json", "--regex", "("]);
    assert_eq!((code, v["error"]["code"].as_str()), (2, Some("FIND_E002")));
    let (v, code) = t.json(&["find", "--json"]);
    assert_eq!((code, v["error"]["code"].as_str()), (2, Some("FIND_E004")));
}

#[test]
fn prefilter_only_parses_files_with_the_name() {
    let t = env();
    for i in 0..4 {
        t.write(&format!("src/n{i}.rs"), "fn unrelated() {}\n");
    }
    let (_, v) = find(&t, &["square"]);
    assert_eq!(v["data"]["stats"]["files_parsed"], 1);
    assert_eq!(v["data"]["stats"]["files_skipped_prefilter"], 5);
    assert_eq!(v["data"]["matches"][0]["kind"], "macro");
}

#[test]
fn crlf_and_syntax_errors() {
    let t = TestEnv::new();
    t.write(
        "w.rs",
        "/// Doc\r\n#[test]\r\nfn win() {\r\n}\r\n\r\nimpl X {\r\n    fn m(&self) {}\r\n}\r\n",
    );
    t.write(
        "broken.py",
        "def good():\n    pass\n\ndef bad(:\n    pass\n\nclass After:\n    def m(self):\n        pass\n",
    );
    let (ms, v) = find(&t, &["--regex", "."]);
    let q: Vec<&str> = ms.iter().map(|m| m.qualified_name.as_str()).collect();
    assert!(
        q.contains(&"good") && q.contains(&"After") && q.contains(&"After.m"),
        "{q:?}"
    );
    assert!(q.contains(&"win") && q.contains(&"X::m"), "{q:?}");
    for m in &ms {
        check_symbol(&t, m);
    }
    let win = ms.iter().find(|m| m.name == "win").unwrap();
    assert_eq!(text(&t, &win.span), "/// Doc\r\n#[test]\r\nfn win() {\r\n}");
    assert_eq!(win.span["start_line"], 1);
    assert_eq!(win.span["end_line"], 4);
    let d = &v["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{v}");
    assert_eq!(d[0]["code"], "FIND_E003");
    assert_eq!(d[0]["file"], "broken.py");
    check_span(t.path(), &d[0]["span"]);
    assert_eq!(v["data"]["stats"]["files_with_parse_errors"], 1);
}

#[test]
fn globs_max_results_and_outline_cut() {
    let t = env();
    let (ms, v) = find(&t, &["parse", "-g", "*.py"]);
    assert_eq!(ms.len(), 3);
    assert_eq!(v["query"]["globs"], serde_json::json!(["*.py"]));
    let (ms, v) = find(&t, &["parse", "--max-results", "2"]);
    assert_eq!(ms.len(), 2);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["total_count"], 6);
    // An outline cut keeps its nesting: Parser and its first children.
    let (ms, v) = find(&t, &["--outline", "--max-results", "8", "py/symbols.py"]);
    assert_eq!(v["data"]["match_count"], 8);
    assert_eq!(ms.last().unwrap().name, "Parser");
    assert_eq!(ms.last().unwrap().children.as_ref().unwrap().len(), 2);
    let out = t.llm(&["find", "--refs", "text", "py"]).output().unwrap();
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("[keyword]") || s.contains("[attribute]"), "{s}");
    assert!(s.lines().all(|l| !l.contains("# parse the text")), "{s}");
}

/// One language's walk through the real binary: its fixture, definitions it must report (as
/// `kind qualified_name`), a symbol to patch, an `llm ast` node kind, a new body and a broken one.
struct LangCase {
    fixture: &'static str,
    defs: &'static [&'static str],
    symbol: &'static str,
    node_kind: &'static str,
    body: &'static str,
    broken: &'static str,
}

const LANG_CASES: &[LangCase] = &[
    LangCase {
        fixture: "symbols.js",
        defs: &[
            "class Queue",
            "method Queue.push",
            "field Queue.#pending",
            "function debounce",
            "constant RETRIES",
            "method Stack.peek",
            "method Stack.push",
            "method Stack.has",
            "field Stack.isStack",
            "method Stack.from",
            "method ColorSpaces.convert",
            "method ColorSpaces.linear-srgb",
            "function parse",
            "constant VERSION",
        ],
        symbol: "Queue.push",
        node_kind: "method_definition",
        body: "{\n  return job;\n}",
        broken: "{\n  return (;\n}",
    },
    LangCase {
        fixture: "symbols.ts",
        defs: &[
            "interface Entry",
            "method Entry.expires",
            "interface EntryConstructor",
            "method EntryConstructor.new",
            "enum Level",
            "variant Level.Info",
            "type Id",
            "module Util",
            "function Util.clamp",
            "method Cache.get",
            "field Cache.hits",
            "function toId",
        ],
        symbol: "Cache.get",
        node_kind: "method_definition",
        body: "{\n  return undefined;\n}",
        broken: "{\n  return (;\n}",
    },
    LangCase {
        fixture: "symbols.tsx",
        defs: &[
            "function Counter",
            "class Panel",
            "method Panel.render",
            "interface ButtonProps",
            "function Row",
        ],
        symbol: "Counter",
        node_kind: "jsx_element",
        body: "{\n  return <b>{label}</b>;\n}",
        broken: "{\n  return <b>;\n}",
    },
    LangCase {
        fixture: "symbols.go",
        defs: &[
            "struct Store",
            "field Store.mu",
            "interface Getter",
            "method Getter.Get",
            "method Store.Get",
            "function New",
            "const MaxSize",
            "type Key",
        ],
        symbol: "Store.Put",
        node_kind: "method_declaration",
        body: "{\n\treturn nil\n}",
        broken: "{\n\treturn (\n}",
    },
    LangCase {
        fixture: "Symbols.java",
        defs: &[
            "class Symbols",
            "constructor Symbols.Symbols",
            "method Symbols.compareTo",
            "enum Symbols.Kind",
            "variant Symbols.Kind.TEXT",
            "interface Symbols.Listener",
            "field Symbols.MAX_SIZE",
        ],
        symbol: "Symbols.get",
        node_kind: "method_declaration",
        body: "{\n    return key;\n}",
        broken: "{\n    return (;\n}",
    },
    LangCase {
        fixture: "symbols.c",
        defs: &[
            "struct buf",
            "field buf::len",
            "union value",
            "enum color",
            "variant color::RED",
            "type buf_t",
            "macro MAX",
            "function buf_grow",
            "function buf_count",
        ],
        symbol: "buf_append",
        node_kind: "function_definition",
        body: "{\n\treturn 0;\n}",
        broken: "{\n\treturn (;\n}",
    },
    LangCase {
        fixture: "symbols.cpp",
        defs: &[
            "module geom",
            "class geom::Shape",
            "method geom::Shape::distance",
            "class geom::Box",
            "struct geom::Point",
            "type geom::Points",
            "function geom::perimeter",
            "type geom::PointIter",
            "type geom::PointRef",
            "struct geom::Traits",
        ],
        symbol: "geom::Shape::distance",
        node_kind: "function_definition",
        body: "{\n    return 0;\n}",
        broken: "{\n    return (;\n}",
    },
    LangCase {
        fixture: "symbols.cs",
        defs: &[
            "module Example.Store",
            "class Example.Store.Store",
            "constructor Example.Store.Store.Store",
            "method Example.Store.Store.Get",
            "field Example.Store.Store.Count",
            "interface Example.Store.IStore",
            "struct Example.Store.Entry",
            "enum Example.Store.Kind",
        ],
        symbol: "Example.Store.Store.Get",
        node_kind: "method_declaration",
        body: "{\n    return key;\n}",
        broken: "{\n    return (;\n}",
    },
    LangCase {
        fixture: "symbols.rb",
        defs: &[
            "function load_config",
            "module Store",
            "class Store::Memory",
            "method Store::Memory::get",
            "method Store::Memory::create",
            "constant Store::Memory::MAX_SIZE",
        ],
        symbol: "Store::Memory::get",
        node_kind: "method",
        body: "@data.fetch(key)",
        broken: "@data.fetch(key",
    },
    LangCase {
        fixture: "symbols.php",
        defs: &[
            "function load_config",
            "interface Getter",
            "trait Counts",
            "enum Kind",
            "variant Kind::Text",
            "class Memory",
            "method Memory::get",
            "field Memory::data",
            "const MAX_SIZE",
        ],
        symbol: "Memory::get",
        node_kind: "method_declaration",
        body: "{\n    return $key;\n}",
        broken: "{\n    return (;\n}",
    },
    LangCase {
        fixture: "symbols.sh",
        defs: &[
            "function log",
            "function backup",
            "function main",
            "constant VERBOSE",
        ],
        symbol: "backup",
        node_kind: "function_definition",
        body: "{\n  echo \"$1\"\n}",
        broken: "{\n  if then\n}",
    },
];

#[test]
fn every_language_finds_outlines_queries_and_patches_through_the_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for case in LANG_CASES {
        let t = TestEnv::new();
        let src = std::fs::read(dir.join(case.fixture)).unwrap();
        let file = format!("src/{}", case.fixture);
        t.write(&file, &src);
        // Outline: the definitions, with spans that hold their names and bodies.
        let (ms, _) = find(&t, &["--outline", &file]);
        let mut have = Vec::new();
        fn flat(ms: &[SymbolMatch], out: &mut Vec<String>) {
            for m in ms {
                out.push(format!("{} {}", m.kind, m.qualified_name));
                flat(m.children.as_deref().unwrap_or_default(), out);
            }
        }
        flat(&ms, &mut have);
        for want in case.defs {
            assert!(
                have.iter().any(|h| h == want),
                "{}: no `{want}` in {have:?}",
                case.fixture
            );
        }
        for m in &ms {
            check_symbol(&t, m);
        }
        // find NAME, and --refs.
        let (found, _) = find(&t, &[case.symbol, "src"]);
        assert_eq!(found.len(), 1, "{}: find {}", case.fixture, case.symbol);
        let name = found[0].name.clone();
        let (v, _) = t.json(&["find", "--json", "--refs", &name, "src"]);
        let refs = v["data"]["matches"].as_array().unwrap();
        assert!(
            refs.iter().any(|r| r["is_definition"] == true),
            "{}: --refs {name}: {v}",
            case.fixture
        );
        // ast: a query in the language, with the prefilter and --tree.
        let q = format!("({}) @x", case.node_kind);
        let (v, code) = t.json(&["ast", "--json", &q, "src"]);
        assert_eq!(code, 0, "{}: {v}", case.fixture);
        assert!(
            v["data"]["match_count"].as_u64().unwrap() > 0,
            "{}",
            case.fixture
        );
        let out = t.llm(&["ast", "--tree", &file]).output().unwrap();
        assert!(String::from_utf8_lossy(&out.stdout).contains(case.node_kind));
        // patch --body with its own text: byte-identical.
        let body = text(&t, found[0].body_span.as_ref().expect("a body"));
        let (v, code) = t.patch(&[
            "--file",
            &file,
            "--symbol",
            case.symbol,
            "--body",
            "--with-text",
            &body,
        ]);
        assert!(code <= 1, "{}: {v}", case.fixture);
        assert_eq!(
            t.read(&file),
            src,
            "{}: own body changed the file",
            case.fixture
        );
        // A new body goes in; a broken one is rejected and the file is left as it was.
        let (v, code) = t.patch(&[
            "--file",
            &file,
            "--symbol",
            case.symbol,
            "--body",
            "--with-text",
            case.body,
        ]);
        assert_eq!(code, 0, "{}: {v}", case.fixture);
        let patched = t.read(&file);
        assert_ne!(patched, src);
        let (v, code) = t.patch(&[
            "--file",
            &file,
            "--symbol",
            case.symbol,
            "--body",
            "--with-text",
            case.broken,
        ]);
        assert_ne!(
            code, 0,
            "{}: a syntax error was accepted: {v}",
            case.fixture
        );
        assert_eq!(t.read(&file), patched, "{}", case.fixture);
        // The same file with a BOM and CRLF line endings: found the same, round trip exact.
        let crlf_file = format!("src/crlf.{}", case.fixture.rsplit('.').next().unwrap());
        let mut crlf = b"\xEF\xBB\xBF".to_vec();
        crlf.extend(
            String::from_utf8(src.clone())
                .unwrap()
                .replace('\n', "\r\n")
                .bytes(),
        );
        t.write(&crlf_file, &crlf);
        let (ms2, _) = find(&t, &["--outline", &crlf_file]);
        let mut have2 = Vec::new();
        flat(&ms2, &mut have2);
        assert_eq!(have2, have, "{}: CRLF/BOM outline", case.fixture);
        let (found2, _) = find(&t, &[case.symbol, &crlf_file]);
        let body2 = text(&t, found2[0].body_span.as_ref().unwrap());
        let (v, code) = t.patch(&[
            "--file",
            &crlf_file,
            "--symbol",
            case.symbol,
            "--body",
            "--with-text",
            &body2,
        ]);
        assert_eq!(code, 0, "{}: {v}", case.fixture);
        assert_eq!(
            t.read(&crlf_file),
            crlf,
            "{}: CRLF own body changed the file",
            case.fixture
        );
        std::fs::remove_file(t.path().join(&crlf_file)).unwrap();
        // Delete the symbol: it is gone, the rest still parses.
        let (v, code) = t.patch(&["--file", &file, "--symbol", case.symbol, "--delete"]);
        assert_eq!(code, 0, "{}: {v}", case.fixture);
        let (after, _) = find(&t, &["--outline", &file]);
        let mut left = Vec::new();
        flat(&after, &mut left);
        assert_eq!(left.len() + 1, have.len(), "{}: {left:?}", case.fixture);
    }
}

#[test]
fn trait_impl_methods_say_their_trait_and_parent_selects_by_it() {
    let t = TestEnv::new();
    t.write(
        "src/e.rs",
        "use std::fmt;\npub struct Error;\n\nimpl fmt::Display for Error {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n\nimpl fmt::Debug for Error {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n\nimpl Error {\n    fn new() -> Self { Error }\n}\n",
    );
    let (ms, _) = find(&t, &["fmt", "src", "--parent", "Display"]);
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].parent.as_deref(), Some("Error"));
    assert_eq!(ms[0].impl_of.as_deref(), Some("Display"));
    assert_eq!(ms[0].qualified_name, "Error::fmt");
    let (ms, _) = find(&t, &["fmt", "src", "--parent", "Error"]);
    assert_eq!(ms.len(), 2);
    let (ms, _) = find(&t, &["new", "src"]);
    assert_eq!(ms[0].impl_of, None);
    // The ambiguity error names each candidate's trait.
    let (v, _) = t.patch(&["--file", "src/e.rs", "--symbol", "fmt", "--delete"]);
    let notes: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    assert!(notes.iter().any(|n| n.contains("(impl Display)")), "{v}");
    assert!(notes.iter().any(|n| n.contains("(impl Debug)")), "{v}");
    // ... and offers the trait as the way to pick one, which patch (and show) accept.
    let fixes: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["remediation"].as_str())
        .collect();
    assert!(
        fixes.contains(&"pass --parent Debug to pick this one"),
        "{v}"
    );
    let (v, code) = t.patch(&[
        "--file", "src/e.rs", "--symbol", "fmt", "--parent", "Debug", "--delete",
    ]);
    assert_eq!(code, 0, "{v}");
    let left = String::from_utf8(t.read("src/e.rs")).unwrap();
    assert!(
        left.contains("impl fmt::Display for Error {\n    fn fmt"),
        "{left}"
    );
    assert!(
        !left.contains("impl fmt::Debug for Error {\n    fn fmt"),
        "{left}"
    );
}

/// Go's grouped `var ( … )` declares each of its names (they were missing: the grammar puts
/// them under a `var_spec_list`), as `const ( … )` does. A group of one belongs to its
/// definition, doc comment and closing `)` included: its span ended before the `)`, so a
/// delete or replace of it was refused for the `)` it left behind.
#[test]
fn go_var_groups_are_definitions_and_a_group_of_one_is_its_definition() {
    let env = TestEnv::new();
    let src = "package m\n\n// Group doc.\nvar (\n\tX int\n\tY, Z = 1, 2\n)\n\n// Only doc.\nconst (\n\tC = 1\n)\n\nvar W = 3\n";
    env.write("v.go", src);
    let (v, code) = env.json(&["find", "--json", "--outline", "v.go"]);
    assert_eq!(code, 0, "{v:#}");
    let got: Vec<(String, String, u64, u64)> = v["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["kind"].as_str().unwrap().to_string(),
                m["name"].as_str().unwrap().to_string(),
                m["span"]["start_line"].as_u64().unwrap(),
                m["span"]["end_line"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("static", "X", 5, 5),
        ("static", "Y", 6, 6),
        ("static", "Z", 6, 6),
        ("const", "C", 9, 12),
        ("static", "W", 14, 14),
    ];
    let want: Vec<(String, String, u64, u64)> = want
        .iter()
        .map(|&(k, n, a, b)| (k.to_string(), n.to_string(), a, b))
        .collect();
    assert_eq!(got, want);
    let (v, code) = env.json(&["find", "--json", "Z", "v.go"]);
    assert_eq!(code, 0, "{v:#}");
    let (v, code) = env.patch(&["--file", "v.go", "--symbol", "C", "--delete"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        String::from_utf8(env.read("v.go")).unwrap(),
        "package m\n\n// Group doc.\nvar (\n\tX int\n\tY, Z = 1, 2\n)\n\nvar W = 3\n"
    );
}

/// A file whose name is not UTF-8 is read by its extension when walked, by `find` and `ast`
/// alike (it was counted as another language's and never read), its path shown lossily.
#[test]
fn a_file_whose_name_is_not_utf8_is_read_by_its_extension() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.rs");
    std::fs::write(env.path().join(name), "fn a() {}\n").unwrap();
    let (v, code) = env.json(&["find", "--json", "a", "."]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        v["data"]["matches"][0]["span"]["file_path"],
        "bad\u{fffd}.rs"
    );
    let (v, code) = env.json(&["ast", "--json", "(function_item) @f", "."]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["data"]["matches"].as_array().unwrap().len(), 1, "{v:#}");
}

/// C++ members defined outside their class belong to it when they return a reference (`T&
/// Box<T>::get()`: the owner was lost) or name it with template arguments (`Box<T>::get` is
/// `Box::get`, found by `--parent Box`); those that return a pointer or a reference, and
/// constructors, are listed where their class declares them. An all-caps macro call with an
/// underscore in a class body is no constructor.
#[test]
fn cpp_members_out_of_class_and_declared_in_class() {
    let env = TestEnv::new();
    env.write(
        "b.cpp",
        "template <typename T> struct Box {\n  Box(int);\n  DISALLOW_COPY_AND_ASSIGN(Box);\n  T& get2();\n  T* get3();\n  T get1();\n  T v;\n};\ntemplate <typename T> T& Box<T>::get2() { return v; }\ntemplate <typename T> T Box<T>::get1() { return v; }\nconst char* ns::Cls::name() const { return \"x\"; }\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "b.cpp"]);
    assert_eq!(code, 0, "{v:#}");
    let got = outline_lines(&v);
    assert_eq!(
        got,
        [
            "struct Box 1",
            "method Box::Box 2",
            "method Box::get2 4",
            "method Box::get3 5",
            "method Box::get1 6",
            "field Box::v 7",
            "function Box::get2 9",
            "function Box::get1 10",
            "function ns::Cls::name 11",
        ]
    );
    let (v, code) = env.json(&["find", "--json", "get1", "b.cpp", "--parent", "Box"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["data"]["matches"].as_array().unwrap().len(), 2, "{v:#}");
}

/// TypeScript: the constants of a namespace or module body are listed as the file's are, and a
/// module named by a string (`declare module "foo"`) is the module `foo` holding its
/// declarations (its `f` had no parent).
#[test]
fn typescript_namespace_constants_and_string_named_modules() {
    let env = TestEnv::new();
    env.write(
        "n.ts",
        "namespace NS2 {\n  const K3 = 1;\n  export const K4 = 2;\n}\ndeclare module \"foo\" {\n  export function f(): void;\n}\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "n.ts"]);
    assert_eq!(code, 0, "{v:#}");
    let ms = v["data"]["matches"].as_array().unwrap();
    let names: Vec<String> = ms
        .iter()
        .flat_map(|m| {
            std::iter::once(m)
                .chain(m["children"].as_array().into_iter().flatten())
                .map(|s| {
                    format!(
                        "{} {}",
                        s["kind"].as_str().unwrap(),
                        s["qualified_name"].as_str().unwrap()
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        names,
        [
            "module NS2",
            "constant NS2.K3",
            "constant NS2.K4",
            "module foo",
            "function foo.f"
        ]
    );
    // The whole declaration, `declare` and its closing brace included.
    assert_eq!(ms[1]["span"]["byte_start"], 57, "{v:#}");
}

/// C and C++ functions that return a pointer to a function or to an array are definitions
/// (their name sits inside the parentheses; they were missing).
#[test]
fn c_functions_returning_function_or_array_pointers_are_found() {
    let env = TestEnv::new();
    let src = "void (*signal_like(int s, void (*h)(int)))(int) { return h; }\nint (*arr_ret(void))[3] { return 0; }\n";
    env.write("fp.c", src);
    env.write("fp.cpp", src);
    for file in ["fp.c", "fp.cpp"] {
        for name in ["signal_like", "arr_ret"] {
            let (v, code) = env.json(&["find", "--json", name, file]);
            assert_eq!(code, 0, "{file} {name}: {v:#}");
            assert_eq!(v["data"]["matches"][0]["kind"], "function", "{v:#}");
        }
    }
}

/// C#: a destructor is named `~C` (it took the constructor's name `C`), an indexer `this`
/// (it was missing).
#[test]
fn csharp_destructors_and_indexers_are_named() {
    let env = TestEnv::new();
    env.write(
        "d.cs",
        "class C {\n  C() {}\n  ~C() {}\n  public int this[int i] => i;\n}\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "d.cs"]);
    assert_eq!(code, 0, "{v:#}");
    let kids: Vec<String> = v["data"]["matches"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{} {}",
                m["kind"].as_str().unwrap(),
                m["qualified_name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(kids, ["constructor C.C", "method C.~C", "method C.this"]);
}

/// C++ conversion operators, declared or defined in their class or defined outside it, are
/// named `operator T` and belong to their class (they were missing).
#[test]
fn cpp_conversion_operators_are_found() {
    let env = TestEnv::new();
    env.write(
        "k.cpp",
        "struct K {\n  operator int() const;\n  explicit operator double() const { return 1.0; }\n};\nK::operator int() const { return 1; }\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "k.cpp"]);
    assert_eq!(code, 0, "{v:#}");
    let got = outline_lines(&v);
    assert_eq!(
        got,
        [
            "struct K 1",
            "method K::operator int 2",
            "method K::operator double 3",
            "function K::operator int 5",
        ]
    );
}

/// C# conversion operators are named `operator T`, as C++'s are (they were missing).
#[test]
fn csharp_conversion_operators_are_found() {
    let env = TestEnv::new();
    env.write(
        "m.cs",
        "struct M {\n  public static implicit operator decimal(M m) => 0;\n  public static explicit operator M(decimal d) { return new M(); }\n}\n",
    );
    let (v, code) = env.json(&["find", "--json", "--outline", "m.cs"]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        outline_lines(&v),
        [
            "struct M 1",
            "method M.operator decimal 2",
            "method M.operator M 3"
        ]
    );
    let (v, code) = env.json(&["show", "--json", "operator M", "m.cs"]);
    assert_eq!(code, 0, "{v:#}");
}

/// A symbol's `name_span` holds its name: C++'s `operator char*` (the span held `() const`,
/// the name lost its `*`), C#'s `~C` (the span held `C`) and `operator decimal`.
#[test]
fn name_spans_of_operators_and_destructors_hold_their_names() {
    let env = TestEnv::new();
    let cpp = "struct S {\n    operator int() const { return 0; }\n    operator char*() { return 0; }\n    operator const S&() const;\n};\n";
    let cs = "class C {\n  ~C() {}\n  public static implicit operator decimal(C c) => 0;\n}\n";
    env.write("o.cpp", cpp);
    env.write("o.cs", cs);
    for (file, text, names) in [
        (
            "o.cpp",
            cpp,
            &["S", "operator int", "operator char*", "operator const S&"][..],
        ),
        ("o.cs", cs, &["C", "~C", "operator decimal"][..]),
    ] {
        let (v, code) = env.json(&["find", "--json", "--outline", file]);
        assert_eq!(code, 0, "{v:#}");
        let mut got = Vec::new();
        let mut todo: Vec<&Value> = v["data"]["matches"].as_array().unwrap().iter().collect();
        while let Some(m) = todo.pop() {
            let (a, b) = (&m["name_span"]["byte_start"], &m["name_span"]["byte_end"]);
            let bytes = &text[a.as_u64().unwrap() as usize..b.as_u64().unwrap() as usize];
            assert_eq!(bytes, m["name"].as_str().unwrap(), "{file}");
            got.push(bytes.to_string());
            todo.extend(m["children"].as_array().unwrap());
        }
        got.sort();
        let mut want = names.to_vec();
        want.sort();
        assert_eq!(got, want, "{file}");
    }
}

/// An outline's symbols, nested ones after their parent, as `kind qualified_name start_line`.
fn outline_lines(v: &Value) -> Vec<String> {
    fn walk(ms: &[Value], got: &mut Vec<String>) {
        for m in ms {
            got.push(format!(
                "{} {} {}",
                m["kind"].as_str().unwrap(),
                m["qualified_name"].as_str().unwrap(),
                m["span"]["start_line"]
            ));
            walk(m["children"].as_array().map_or(&[][..], Vec::as_slice), got);
        }
    }
    let mut got = Vec::new();
    walk(v["data"]["matches"].as_array().unwrap(), &mut got);
    got
}
