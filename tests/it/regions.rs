//! Region parsing (`lang::regions`) through the binary: a query that needs a literal, `find
//! NAME` and `patch` parse only the regions around the literal or name. Their answers must be
//! exactly those of a whole-file parse, which the same question asked without a literal (a
//! `#match?` predicate, `find --regex`) still gets.

use crate::util::{llm, TestEnv};
use serde_json::Value;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `llm ARGS --json` in the repository (read-only), with match ids dropped.
fn run(args: &[&str]) -> Value {
    let out = llm()
        .current_dir(repo())
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    for m in v["data"]["matches"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("match_id");
    }
    v
}

const PATHS: &[&str] = &["src/lang", "src/cmd/patch", "tests/fixtures"];

#[test]
fn literal_queries_equal_the_same_queries_without_a_literal() {
    let queries = [
        // Cut between members (the root is not a container).
        r#"(call_expression function: (field_expression field: (field_identifier) @m) (#OP? @m "PAT"))"#,
        r#"(function_item name: (identifier) @n (#OP? @n "PAT")) @f"#,
        // Cut between items only (the root is a container).
        r#"(impl_item type: (type_identifier) @t (#OP? @t "PAT")) @i"#,
        r#"(call function: (identifier) @f (#OP? @f "PAT"))"#,
        r#"(class_definition name: (identifier) @c (#OP? @c "PAT")) @k"#,
    ];
    let words = [
        "unwrap",
        "expect",
        "new",
        "parse",
        "select",
        "Language",
        "Parser",
        "isinstance",
        "len",
        "Shape",
        "Outer",
    ];
    let mut compared = 0;
    for q in queries {
        for w in words {
            let literal = q.replace("#OP?", "#eq?").replace("PAT", w);
            let regex = q
                .replace("#OP?", "#match?")
                .replace("PAT", &format!("^{w}$"));
            let mut args = vec!["ast", literal.as_str(), "src", "tests/fixtures"];
            let a = run(&args);
            args[1] = regex.as_str();
            let b = run(&args);
            assert_eq!(a["status"], b["status"], "{literal}");
            assert_eq!(a["data"]["matches"], b["data"]["matches"], "{literal}");
            assert_eq!(a["data"]["files"], b["data"]["files"], "{literal}");
            compared += a["data"]["match_count"].as_u64().unwrap();
        }
    }
    assert!(compared > 100, "only {compared} matches compared");
}

const TRICKY_RS: &str = r##"//! fn in a doc comment
macro_rules!m { () => { fn generated() {} } }
macro_rules! n { ($x:ident) => { struct $x; } }
const S: &str = "fn not_a_fn() {}";
const R: &str = r#"
fn raw() {}
"#;
fn r#fn() -> u8 { let fnord = 1; fnord }
pub(crate) fn outer() {
    fn inner() { let _ = |x: u8| x; }
    struct Local;
    impl Local { fn method(&self) {} }
    for i in 0..3 { if i > 1 { continue; } }
}
impl Trait for S { fn a() {} }
mod m { pub fn in_mod() {} }
"##;

const TRICKY_PY: &str = "'''def not_a_def(): pass'''\ndefault = 1\n@decorator\nclass K(Base):\n    def m(self):\n        def inner():\n            return lambda x: [y for y in x]\n        return inner\n    async def am(self): pass\nclass Empty: pass\nfor i in range(2):\n    def loop_def(): pass\n";

#[test]
fn the_prefilter_and_regions_change_nothing_but_speed() {
    let t = TestEnv::new();
    t.write("tricky.rs", TRICKY_RS);
    t.write("tricky.py", TRICKY_PY);
    let queries = [
        "(function_item) @f",
        "(function_item) @f (struct_item) @s",
        "(impl_item) @i",
        "(mod_item) @m",
        "(macro_definition) @m",
        "(for_expression) @f",
        "(closure_expression) @c",
        "(function_definition) @f",
        "(class_definition) @c (lambda) @l",
        "(for_in_clause) @f",
        "(call_expression) @c (macro_invocation) @m",
        "(call) @c",
        "(string_content) @s",
        "(line_comment) @c",
        r#"(function_item name: (identifier) @n (#eq? @n "inner"))"#,
        r#"(call_expression function: (field_expression field: (field_identifier) @m) (#eq? @m "unwrap"))"#,
    ];
    let mut compared = 0;
    for q in queries {
        for dir in [
            t.path().to_path_buf(),
            repo().join("src"),
            repo().join("tests/fixtures"),
        ] {
            let dir = dir.to_str().unwrap();
            let a = run(&["ast", q, dir]);
            let b = run(&["ast", q, dir, "--no-prefilter"]);
            assert_eq!(a["data"]["matches"], b["data"]["matches"], "{q} in {dir}");
            assert_eq!(a["data"]["files"], b["data"]["files"], "{q} in {dir}");
            assert_eq!(b["data"]["prefilter"], serde_json::json!([]));
            compared += a["data"]["match_count"].as_u64().unwrap();
        }
    }
    assert!(compared > 1000, "only {compared} matches compared");
    // The keyword prefilter is there, and skips what it can.
    let v = run(&["ast", "(function_item) @f", t.path().to_str().unwrap()]);
    assert_eq!(v["data"]["prefilter"], serde_json::json!(["fn"]));
    assert_eq!(v["data"]["match_count"], 6, "{v}");
}

/// Every symbol name found by `--outline` in `PATHS`, every seventh of them.
fn sample_names() -> Vec<String> {
    let mut args = vec!["find", "--outline"];
    args.extend_from_slice(PATHS);
    let v = run(&args);
    fn walk(v: &Value, out: &mut Vec<String>) {
        for m in v.as_array().into_iter().flatten() {
            out.push(m["name"].as_str().unwrap().to_string());
            walk(&m["children"], out);
        }
    }
    let mut names = Vec::new();
    walk(&v["data"]["matches"], &mut names);
    names.sort();
    names.dedup();
    names.retain(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'));
    names.into_iter().step_by(7).collect()
}

#[test]
fn find_by_name_equals_find_by_regex() {
    let names = sample_names();
    assert!(names.len() > 40, "{names:?}");
    for name in &names {
        let mut args = vec!["find", name.as_str()];
        args.extend_from_slice(PATHS);
        let a = run(&args);
        let regex = format!("^{name}$");
        let mut args = vec!["find", "--regex", regex.as_str()];
        args.extend_from_slice(PATHS);
        let b = run(&args);
        assert_eq!(a["data"]["matches"], b["data"]["matches"], "find {name}");
        assert_eq!(a["data"]["files"], b["data"]["files"], "find {name}");
    }
}

const BIG_RS: &str = "use std::fmt;\n\n/// A parser.\npub struct Parser {\n    pos: usize,\n}\n\nimpl Parser {\n    /// Makes one.\n    pub fn new() -> Self {\n        Parser { pos: 0 }\n    }\n\n    #[inline]\n    pub fn parse(&mut self) -> usize {\n        self.pos += 1;\n        self.pos\n    }\n}\n\nfn broken( {\n    let x = ;\n}\n\nimpl fmt::Display for Parser {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, \"{}\", self.pos)\n    }\n}\n";

#[test]
fn a_syntax_error_elsewhere_does_not_hide_or_move_a_symbol() {
    let t = TestEnv::new();
    t.write("p.rs", BIG_RS);
    let (v, code) = t.json(&["find", "Parser::parse", "--json"]);
    assert_eq!(code, 0, "{v}");
    let m = &v["data"]["matches"][0];
    assert_eq!(m["qualified_name"], "Parser::parse");
    assert_eq!(m["kind"], "method");
    let span = &m["span"];
    let bytes = t.read("p.rs");
    let text = &bytes[span["byte_start"].as_u64().unwrap() as usize
        ..span["byte_end"].as_u64().unwrap() as usize];
    assert_eq!(
        String::from_utf8_lossy(text),
        "#[inline]\n    pub fn parse(&mut self) -> usize {\n        self.pos += 1;\n        self.pos\n    }"
    );
    assert_eq!(span["start_line"], 14);
    // The broken region is not parsed for this name: no syntax warning.
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v}");
    // `fmt` is found in the impl after the broken function, with its parent.
    let (v, _) = t.json(&["find", "fmt", "--kind", "method", "--json"]);
    assert_eq!(v["data"]["matches"][0]["parent"], "Parser");
    // The outline parses the whole file, and says it has an error.
    let (v, _) = t.json(&["find", "--outline", "p.rs", "--json"]);
    assert_eq!(v["diagnostics"][0]["code"], "FIND_E003");
}

#[test]
fn patch_in_a_region_writes_and_validates_as_a_whole_file_patch() {
    let t = TestEnv::new();
    t.write("p.rs", BIG_RS);
    let (v, code) = t.patch(&[
        "--file",
        "p.rs",
        "--symbol",
        "Parser::parse",
        "--body",
        "--with-text",
        "self.pos * 2",
    ]);
    assert_eq!(code, 0, "{v}");
    let after = String::from_utf8(t.read("p.rs")).unwrap();
    assert_eq!(
        after,
        BIG_RS.replace(
            "{\n        self.pos += 1;\n        self.pos\n    }",
            "{\n        self.pos * 2\n    }"
        )
    );
    // A body that breaks the method is refused, located, and nothing is written.
    let (v, code) = t.patch(&[
        "--file",
        "p.rs",
        "--symbol",
        "Parser::new",
        "--body",
        "--with-text",
        "Parser { pos: 0 ",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["code"], "LLM_E106");
    let line = v["error"]["span"]["start_line"].as_u64().unwrap();
    assert!((10..=12).contains(&line), "{v}");
    assert_eq!(String::from_utf8(t.read("p.rs")).unwrap(), after);
    // An unterminated string opened by the new text would swallow the rest of the file.
    let (v, code) = t.patch(&[
        "--file",
        "p.rs",
        "--symbol",
        "new",
        "--body",
        "--with-text",
        "let s = \"oops; Parser { pos: 0 }",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(String::from_utf8(t.read("p.rs")).unwrap(), after);
}

#[test]
fn python_method_patch_and_find_in_a_large_class() {
    let mut src = String::from("import os\n\n\nclass Big:\n    \"\"\"Doc.\"\"\"\n\n");
    for i in 0..40 {
        src.push_str(&format!(
            "    def m{i}(self, x):\n        if isinstance(x, int):\n            return x + {i}\n        return None\n\n"
        ));
    }
    src.push_str("\ndef tail():\n    return Big()\n");
    let t = TestEnv::new();
    t.write("big.py", &src);
    let (v, code) = t.json(&["find", "m17", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["data"]["matches"][0]["qualified_name"], "Big.m17");
    assert_eq!(v["data"]["matches"][0]["kind"], "method");
    let (v, code) = t.patch(&[
        "--file",
        "big.py",
        "--symbol",
        "Big.m17",
        "--with-text",
        "def m17(self, x):\n    return 17\n",
    ]);
    assert_eq!(code, 0, "{v}");
    let after = String::from_utf8(t.read("big.py")).unwrap();
    assert!(
        after.contains("    def m17(self, x):\n        return 17\n\n    def m18"),
        "{after}"
    );
    // Dedented too far for a class body: refused.
    let (v, code) = t.patch(&[
        "--file",
        "big.py",
        "--symbol",
        "Big.m18",
        "--body",
        "--with-text",
        "return (",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(String::from_utf8(t.read("big.py")).unwrap(), after);
}

/// A generated Go file of 64 KiB and more: 200 tables of numbers, each with a function after it.
fn go_tables(row: &str) -> String {
    let mut src = String::from("package p\n\n");
    for k in 0..200 {
        src.push_str(&format!(
            "// T{k} is a table {{.\nvar T{k} = []int{{\n\t{row}\n}}\n\nfunc F{k}() string {{\n\treturn \"}}\"\n}}\n\n"
        ));
    }
    src
}

#[test]
fn an_outline_skips_data_tables_and_still_sees_their_errors() {
    let row: String = (0..90).map(|k| format!("{k}, ")).collect();
    let good = go_tables(&row);
    assert!(good.len() > 64 * 1024);
    let t = TestEnv::new();
    t.write("good.go", &good);
    t.write("good_crlf.go", good.replace('\n', "\r\n"));
    // A missing comma in one table; numbers in a block, where no table can be.
    t.write("bad.go", good.replacen("\t0, 1, 2,", "\t0, 1 2,", 1));
    t.write(
        "block.go",
        good.replacen(
            "\treturn \"}\"",
            &format!("\t{{{row}}}\n\treturn \"}}\""),
            1,
        ),
    );
    for file in ["good.go", "good_crlf.go", "bad.go", "block.go"] {
        let (v, _) = t.json(&["find", "--outline", "--json", file]);
        let d = &v["data"];
        let broken = file == "bad.go" || file == "block.go";
        assert_eq!(
            d["files"][0]["parse_errors"].as_bool(),
            broken.then_some(true),
            "{file}"
        );
        let m = d["matches"].as_array().unwrap();
        if !broken {
            assert_eq!(d["match_count"], 400, "{file}");
            // The last function, its doc comment and body where the text has them.
            let f = m.iter().find(|s| s["name"] == "F199").unwrap();
            let line = good
                .lines()
                .position(|l| l == "func F199() string {")
                .unwrap()
                + 1;
            assert_eq!(f["name_span"]["start_line"], line, "{file}");
            assert_eq!(f["span"]["end_line"], line + 2, "{file}");
            let t199 = m.iter().find(|s| s["name"] == "T199").unwrap();
            assert_eq!(
                t199["span"]["start_line"],
                line - 5,
                "{file}: the doc comment"
            );
        }
    }
}

/// Rows of each table of [`java_joined_tables`].
const ROWS: usize = 50;

/// A generated Java class of 64 KiB and more (as `GB18030.java`): 40 tables written as strings
/// joined by `+`, each with a method after it. Each table is long enough to be left out of the
/// outline's parse (a 64th of the file, and 4 KiB).
fn java_joined_tables() -> String {
    let row = format!("\"{}\"", "\\u0080".repeat(16));
    let run = vec![row; ROWS].join(" +\n        ");
    assert!(run.len() > 4096 && run.len() * 40 * 5 / 4 < run.len() * 64);
    let mut src = String::from("package p;\n\nclass Tables {\n");
    for k in 0..40 {
        src.push_str(&format!(
            "    /** Table {k}. */\n    static final String T{k} =\n        {run};\n\n    static char f{k}(int i) {{\n        return T{k}.charAt(i);\n    }}\n\n"
        ));
    }
    src.push_str("}\n");
    src
}

#[test]
fn an_outline_reads_strings_joined_by_plus_as_one_and_still_sees_their_errors() {
    let good = java_joined_tables();
    assert!(good.len() > 64 * 1024);
    let t = TestEnv::new();
    t.write("Good.java", &good);
    t.write("Crlf.java", good.replace('\n', "\r\n"));
    // A `+` missing between two strings of a run, and a run where no expression can be.
    let row_end = good.find("\" +\n").unwrap() + 1;
    t.write(
        "Bad.java",
        format!("{}{}", &good[..row_end], &good[row_end + 2..]),
    );
    t.write(
        "Case.java",
        good.replacen(
            "return T0.charAt(i);",
            "switch (i) { case \"a\" + \"b\": }",
            1,
        ),
    );
    for file in ["Good.java", "Crlf.java", "Bad.java", "Case.java"] {
        let (v, _) = t.json(&["find", "--outline", "--json", file]);
        let d = &v["data"];
        let broken = file == "Bad.java";
        assert_eq!(
            d["files"][0]["parse_errors"].as_bool(),
            broken.then_some(true),
            "{file}"
        );
        if broken {
            continue;
        }
        assert_eq!(
            d["match_count"], 81,
            "{file}: the class, 40 fields, 40 methods"
        );
        let m = d["matches"][0]["children"].as_array().unwrap();
        // The last method and field where the text has them, the field with its doc comment.
        let f = m.iter().find(|s| s["name"] == "f39").unwrap();
        let line = good
            .lines()
            .position(|l| l == "    static char f39(int i) {")
            .unwrap()
            + 1;
        assert_eq!(f["name_span"]["start_line"], line, "{file}");
        assert_eq!(f["span"]["end_line"], line + 2, "{file}");
        let t39 = m.iter().find(|s| s["name"] == "T39").unwrap();
        assert_eq!(
            t39["span"]["start_line"],
            line - ROWS - 3,
            "{file}: the doc comment"
        );
        assert_eq!(
            t39["span"]["end_line"],
            line - 2,
            "{file}: the end of the run"
        );
    }
}

/// A Go file whose whole-file parse lets a broken `type` declaration swallow the next function
/// (`type x = … 0` then `func () foo()`), padded with items that do not hold `func` or `type`
/// so that a region parse around those words reads little of it.
fn swallowing_go() -> String {
    let mut s = String::from("package p\n\ntype x = /* a */ 0\n\n// doc\nfunc () foo()\n\n");
    for i in 0..30 {
        s.push_str(&format!("var v{i} = {i}\n\n"));
    }
    s.push_str("func (t T) M() {}\n");
    s
}

#[test]
fn a_broken_file_gives_the_same_matches_parsed_whole_or_around_a_literal() {
    let t = TestEnv::new();
    t.write("swallow.go", swallowing_go());
    t.write("swallow_crlf.go", swallowing_go().replace('\n', "\r\n"));
    t.write("broken.rs", BIG_RS);
    let dir = t.path().to_str().unwrap();
    let mut compared = 0;
    for q in [
        "(method_declaration) @m",
        "(type_declaration) @t",
        "(method_declaration name: (field_identifier) @n)",
        "(function_item) @f",
        "(impl_item) @i",
        r#"(call_expression function: (identifier) @f (#eq? @f "write"))"#,
    ] {
        let a = run(&["ast", q, dir]);
        let b = run(&["ast", q, dir, "--no-prefilter"]);
        assert_eq!(a["data"]["matches"], b["data"]["matches"], "{q}");
        // `parse_errors` tells what was parsed: a region around the literal may have none.
        let files = |v: &Value| {
            let mut f = v["data"]["files"].clone();
            for f in f.as_array_mut().unwrap() {
                f.as_object_mut().unwrap().remove("parse_errors");
            }
            f
        };
        assert_eq!(files(&a), files(&b), "{q}");
        compared += a["data"]["match_count"].as_u64().unwrap();
    }
    assert!(compared >= 10, "only {compared} matches compared");
    // Each item read from its own parse: `foo` is a method (the whole-file parse's recovery
    // read it as the type of `x`), in both line-ending styles.
    let v = run(&["ast", "(method_declaration) @m", dir]);
    let names: Vec<(String, u64)> = v["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let s = &m["span"];
            let file = s["file_path"].as_str().unwrap();
            let text = &t.read(file.rsplit('/').next().unwrap())[s["byte_start"].as_u64().unwrap()
                as usize
                ..s["byte_end"].as_u64().unwrap() as usize];
            (
                String::from_utf8_lossy(text).into_owned(),
                s["start_line"].as_u64().unwrap(),
            )
        })
        .collect();
    let one = [
        ("func () foo()".to_string(), 6),
        ("func (t T) M() {}".to_string(), 68),
    ];
    assert_eq!(names, [one.clone(), one].concat(), "{v}");
    // The whole-file parse says where the error is.
    let (w, _) = t.json(&[
        "ast",
        "(method_declaration) @m",
        "--no-prefilter",
        "--json",
        "swallow.go",
    ]);
    assert_eq!(w["data"]["files"][0]["parse_errors"], true, "{w}");
}

/// `unit` (with `NN` numbered) repeated past 100 KiB.
fn repeated(unit: &str) -> String {
    let mut text = String::new();
    let mut k = 0;
    while text.len() < 100 * 1024 {
        text.push_str(&unit.replace("NN", &k.to_string()));
        k += 1;
    }
    text
}

/// `unit` repeated (see [`repeated`]) before and after `broken`, an item with a syntax error.
fn twice(unit: &str, broken: &str) -> String {
    format!("{}{broken}{}", repeated(unit), repeated(unit))
}

/// `v` with the ids that differ from run to run (`match_id`, `execution_id`) taken out.
fn without_run_ids(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("match_id");
            m.remove("execution_id");
            m.values_mut().for_each(without_run_ids);
        }
        Value::Array(a) => a.iter_mut().for_each(without_run_ids),
        _ => {}
    }
}

/// The matches of `llm find --outline --format jsonl ARGS`, and its summary's `data`.
fn outline_jsonl(t: &TestEnv, args: &[&str]) -> (Vec<Value>, Value) {
    let out = t
        .llm(&[&["find", "--outline", "--format", "jsonl"], args].concat())
        .output()
        .unwrap();
    let mut matches = Vec::new();
    let mut data = Value::Null;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        match v["type"].as_str() {
            Some("match") => {
                v.as_object_mut().unwrap().remove("type");
                matches.push(v);
            }
            _ => data = v["data"].take(),
        }
    }
    (matches, data)
}

/// A big file's outline in compact JSON comes from two parts parsed on two threads, each going
/// on to its definitions, numbering them after the part before and rendering them by hand (see
/// `lang/outline.rs`, `output/json/find.rs`); with `-j1` the file is parsed whole, and jsonl
/// goes through serde. Both give the same matches: same spans, same names numbered across the
/// parts (`A` is declared in every unit: its symbol ids count on from one part to the next).
#[test]
fn a_big_files_outline_is_the_same_in_two_parts_and_whole() {
    let cases = [
        (
            "lib.d.ts",
            repeated("/** Doc NN. */\ninterface A { x: string; m(): void }\nexport function fNN(a: number) { return a; }\nclass C { p = 1; q() {} }\ndeclare var A: { prototype: A; new(): A };\n"),
        ),
        (
            "big.go",
            repeated("// F is f.\nfunc F() {}\n\ntype TNN struct {\n\tA int\n}\n\nfunc (t TNN) M() {}\n"),
        ),
        // One item holding most of the file: cut inside its block.
        (
            "module.js",
            format!(
                "/** M. */\n;(function () {{\n{}}}.call(this));\n",
                repeated("  /** f. */\n  function f() {}\n  var gNN = function () {};\n\n")
            ),
        ),
        (
            "Big.java",
            format!(
                "/** B. */\npublic class Big {{\n{}}}\n",
                repeated("    /** m. */\n    @Override\n    public int mNN() {\n        return NN;\n    }\n\n")
            ),
        ),
        (
            "big.rb",
            format!(
                "# A big class.\nclass Big\n{}end\n",
                repeated("  # m.\n  def mNN(a)\n    \"#{a}\" if a\n  end\n\n")
            ),
        ),
        // Parsed whole (no region scanner), the tree's children cut in runs whose symbols are
        // found on threads of their own (`Language::symbols_of_tree_runs`: items of a few
        // lines, so that the runs have text enough for each child); a function declared by a
        // macro has its body in the next child.
        (
            "big.c",
            repeated("/* f. */\nstatic int fNN(int a)\n{\n\tint b = a * 2;\n\n\tif (b > NN)\n\t\treturn b;\n\twhile (b < 1000)\n\t\tb += a;\n\treturn a + b;\n}\n\nstruct sNN {\n\tint x;\n\tint y;\n};\nBPF_CALL_1(bNN, int, a)\n{\n\treturn a;\n}\n\n"),
        ),
        // A syntax error: the whole parse's symbols still, and its warning.
        (
            "broken.c",
            format!(
                "int broken( {{\n{}",
                repeated("int fNN(void)\n{\n\tint a = NN;\n\n\treturn a * 2;\n}\nstruct S { int a; int b; };\n")
            ),
        ),
        // A syntax error in one item of a file parsed in parts: that part's items each from
        // a parse of its own, as the whole parse with an error is read, and the same warning.
        (
            "broken.ts",
            twice(
                "/** Doc NN. */\ninterface A { x: string; m(): void }\nexport function fNN(a: number) { return a; }\n",
                "function broken() { let x = ; }\n",
            ),
        ),
        // An unclosed `(` and, later, a `{` missing: the brackets balance for the scanner,
        // which cuts the file in parts across the broken region.
        (
            "broken-brackets.ts",
            format!(
                "{}{}interface Z extends Y\n  a: string;\n}}\n",
                twice(
                    "/** Doc NN. */\ninterface A { x: string; m(): void }\nexport function fNN(a: number) { return a; }\n",
                    "x = (1 +\n",
                ),
                repeated("export function gNN(a: number) { return a; }\n"),
            ),
        ),
        (
            "broken.go",
            twice(
                "// F is f.\nfunc F() {}\n\ntype TNN struct {\n\tA int\n}\n\n",
                "func broken() int { return 1 + }\n\n",
            ),
        ),
        (
            "broken.py",
            twice(
                "def fNN(a):\n    return a\n\n\nclass CNN:\n    x = 1\n\n\n",
                "def broken():\n    return 1 +\n\n\n",
            ),
        ),
        (
            "broken.rs",
            twice(
                "/// F.\nfn fNN() -> u8 { 1 }\n\nstruct SNN { a: u8 }\n\n",
                "fn broken() { let x = ; }\n\n",
            ),
        ),
        (
            "big.cc",
            repeated("namespace nNN {\n/// C.\nclass C {\n public:\n  int m() { return 1; }\n};\n}\n"),
        ),
        (
            "Big.cs",
            repeated("namespace N {\n  /// <summary>C.</summary>\n  [Serializable]\n  public class C { public int M() { return 1; } }\n}\n"),
        ),
        (
            "big.php",
            format!(
                "<?php\n{}",
                repeated("/** f. */\nfunction fNN($a) { return $a; }\nclass C { public function m() {} }\n")
            ),
        ),
        (
            "big.sh",
            repeated("# f.\nfNN() {\n  local a=\"$1\"\n  if [ -n \"$a\" ]; then\n    echo \"$a\"\n  fi\n}\n\n"),
        ),
    ];
    let t = TestEnv::new();
    for (file, src) in &cases {
        t.write(file, src);
        let (mut whole, data) = outline_jsonl(&t, &["-j1", file]);
        let one = t.json(&["find", "--outline", "--json", "-j1", file]).0;
        whole.iter_mut().for_each(without_run_ids);
        let count = data["match_count"].as_u64().unwrap();
        assert!(count > 1000, "{file}: {count} symbols");
        // `parse_errors` is left out when false. A C function declared by a macro reads as a
        // call missing its `;`.
        let broken = file.starts_with("broken") || *file == "big.c";
        let errors = |d: &Value| d["files"][0]["parse_errors"].as_bool().unwrap_or(false);
        assert_eq!(errors(&data), broken, "{file}");
        // Two parts, five and twelve (a run's one file takes every thread it is given, and
        // is checksummed on one more meanwhile).
        for j in ["-j2", "-j5", "-j12"] {
            let mut parts = t.json(&["find", "--outline", "--json", j, file]).0;
            without_run_ids(&mut parts);
            assert_eq!(parts["data"]["match_count"], count, "{file} {j}");
            assert_eq!(parts["data"]["files"], data["files"], "{file} {j}");
            assert_eq!(errors(&parts["data"]), broken, "{file} {j}");
            let diagnostics = parts["diagnostics"].as_array().unwrap();
            assert_eq!(diagnostics.len(), broken as usize, "{file} {j}");
            // The warning counts the same errors and points at the same first one.
            assert_eq!(parts["diagnostics"], one["diagnostics"], "{file} {j}");
            let parts = parts["data"]["matches"].as_array().unwrap();
            assert_eq!(parts.len(), whole.len(), "{file} {j}");
            for (a, b) in parts.iter().zip(&whole) {
                assert_eq!(a, b, "{file} {j}");
            }
        }
        // CRLF line endings: the same symbols a line's `\r` further each.
        let crlf = format!("crlf.{}", file.rsplit('.').next().unwrap());
        t.write(&crlf, src.replace('\n', "\r\n"));
        let (v, _) = t.json(&["find", "--outline", "--json", "-j2", &crlf]);
        assert_eq!(v["data"]["match_count"], count, "{crlf}");
    }
}

/// tree-sitter-go flags the root of `type T [f(&c)]byte` without a final line break as holding
/// an error that no ERROR or MISSING node shows (as in Go's `types2/testdata/check/cycles5.go`):
/// no warning that the file "has 0 syntax error(s)", and the file is not counted as broken.
#[test]
fn a_tree_flagged_with_an_error_it_does_not_show_gets_no_warning() {
    let t = TestEnv::new();
    t.write("t.go", "package p\n\ntype T [f(&c)]byte");
    let (v, code) = t.json(&["find", "--outline", "t.go", "--json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v}");
    assert_eq!(v["data"]["files"][0]["parse_errors"], Value::Null, "{v}");
    assert_eq!(v["data"]["matches"][0]["name"], "T", "{v}");
    let (v, _) = t.json(&["ast", "(type_spec) @t", "t.go", "--json"]);
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v}");
    assert_eq!(v["data"]["stats"]["files_with_parse_errors"], 0, "{v}");
    assert_eq!(v["data"]["match_count"], 1, "{v}");
}
