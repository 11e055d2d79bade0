//! `llm show` through the binary: a symbol, a range, a skeleton, `--max-bytes`, errors.

use crate::util::{check_span, sha, TestEnv};

const LIB: &str = "//! Shapes.\r\n\r\n/// A circle.\r\npub struct Circle {\r\n    pub r: f64,\r\n}\r\n\r\nimpl Circle {\r\n    /// Area — πr².\r\n    pub fn area(&self) -> f64 {\r\n        3.14 * self.r * self.r\r\n    }\r\n}\r\n\r\npub struct Square(pub f64);\r\n\r\nimpl Square {\r\n    pub fn area(&self) -> f64 {\r\n        self.0 * self.0\r\n    }\r\n}\r\n";

fn text_at(env: &TestEnv, span: &serde_json::Value) -> Vec<u8> {
    let bytes = env.read(span["file_path"].as_str().unwrap());
    bytes
        [span["byte_start"].as_u64().unwrap() as usize..span["byte_end"].as_u64().unwrap() as usize]
        .to_vec()
}

#[test]
fn symbol_is_numbered_like_cat_n() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    let out = env.llm(&["show", "Circle::area", "src"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("src/lib.rs:9-12 method `Circle::area`"));
    assert_eq!(lines.next(), Some("     9\t    /// Area — πr²."));
    assert_eq!(
        lines.next(),
        Some("    10\t    pub fn area(&self) -> f64 {")
    );
    assert_eq!(text.lines().count(), 5, "{text}");
}

#[test]
fn json_view_has_span_text_and_the_file_checksum() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    let (v, code) = env.json(&["show", "area", "--parent", "Square", "--json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["command"], "show");
    let views = v["data"]["views"].as_array().unwrap();
    assert_eq!(views.len(), 1);
    let view = &views[0];
    check_span(env.path(), &view["span"]);
    assert_eq!(
        text_at(&env, &view["span"]),
        view["text"].as_str().unwrap().as_bytes()
    );
    assert_eq!(
        view["text"],
        "    pub fn area(&self) -> f64 {\r\n        self.0 * self.0\r\n    }\r\n"
    );
    assert_eq!(view["truncated"], false);
    assert_eq!(view["symbol"]["qualified_name"], "Square::area");
    let sum = sha(&env.read("src/lib.rs"));
    assert_eq!(view["checksum"], sum);
    // The checksum guards an edit built from the view.
    let (t, code) = env.json(&[
        "transform",
        "src/lib.rs",
        "--old",
        "self.0 * self.0",
        "--new",
        "self.0.powi(2)",
        "--expected-checksum",
        &sum,
        "--json",
    ]);
    assert_eq!(code, 0, "{t}");
}

#[test]
fn every_match_is_shown_and_kind_narrows() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    env.write(
        "app.py",
        "class Circle:\n    def area(self):\n        return 1\n",
    );
    let (v, _) = env.json(&["show", "area", "--json"]);
    assert_eq!(v["data"]["view_count"], 3, "{v}");
    let (v, _) = env.json(&["show", "Circle", "--kind", "class", "--json"]);
    assert_eq!(v["data"]["view_count"], 1, "{v}");
    assert_eq!(v["data"]["views"][0]["file_path"], "app.py");
    assert_eq!(v["data"]["views"][0]["language"], "python");
}

#[test]
fn range_and_line_with_context() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\nthree\nfour\nfive");
    let out = env.llm(&["show", "a.txt:2-3"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "a.txt:2-3 (checksum ".to_string() + &text[20..36] + ")\n     2\ttwo\n     3\tthree\n"
    );
    let (v, code) = env.json(&["show", "a.txt:5", "--context", "1", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["data"]["views"][0]["text"], "four\nfive");
    check_span(env.path(), &v["data"]["views"][0]["span"]);
}

#[test]
fn bad_ranges_and_missing_files_are_errors() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    let (v, code) = env.json(&["show", "a.txt:3-9", "--json"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "SHOW_E002");
    let (v, code) = env.json(&["show", "a.txt:2-1", "--json"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "SHOW_E002");
    let (v, code) = env.json(&["show", "nope.rs:1-2", "--json"]);
    assert_eq!(code, 2);
    assert_eq!(v["error"]["code"], "LLM_E004");
}

#[test]
fn unknown_symbol_suggests_close_names() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    let (v, code) = env.json(&["show", "Circle::aera", "--json"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "no_matches");
    assert_eq!(v["error"]["code"], "SHOW_E001");
    let (v, _) = env.json(&["show", "Circl", "--json"]);
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("Circle"),
        "{v}"
    );
}

#[test]
fn max_bytes_cuts_on_a_line_and_names_the_rest() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    let (v, code) = env.json(&["show", "Circle::area", "--max-bytes", "40", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "partial");
    let view = &v["data"]["views"][0];
    assert_eq!(view["truncated"], true);
    assert_eq!(view["text"], "    /// Area — πr².\r\n");
    check_span(env.path(), &view["span"]);
    assert_eq!(
        text_at(&env, &view["span"]),
        view["text"].as_str().unwrap().as_bytes()
    );
    let o = &view["omitted"];
    assert_eq!(
        (o["start_line"].as_u64(), o["end_line"].as_u64()),
        (Some(10), Some(12))
    );
    assert_eq!(o["lines"], 3);
    assert_eq!(o["command"], "llm show src/lib.rs:10-12");
    // The command shows exactly the rest.
    let (rest, _) = env.json(&["show", "src/lib.rs:10-12", "--json"]);
    assert_eq!(
        rest["data"]["views"][0]["text"].as_str().unwrap().len() as u64,
        o["bytes"].as_u64().unwrap()
    );
    let out = env
        .llm(&["show", "Circle::area", "--max-bytes", "40"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("3 lines (10-12, ") && text.contains("`llm show src/lib.rs:10-12`"),
        "{text}"
    );
}

#[test]
fn skeleton_elides_bodies() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    env.write(
        "src/app.py",
        "import os\n\n\nclass Shape:\n    \"\"\"A shape.\"\"\"\n\n    def area(self):\n        x = 1\n        return x\n\n\ndef main(argv):\n    print(argv)\n",
    );
    env.write("src/notes.txt", "not code\n");
    let out = env.llm(&["show", "--skeleton", "src"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("     4\tclass Shape:\n     7\t    def area(self):\n      \t        …\n    12\tdef main(argv):\n      \t    …\n"),
        "{text}"
    );
    assert!(
        text.contains("     8\timpl Circle {\n    10\t    pub fn area(&self) -> f64 {\n      \t        …\n    12\t    }\n    13\t}\n"),
        "{text}"
    );
    assert!(!text.contains("3.14"));
    assert!(!text.contains("notes.txt"));
    let (v, _) = env.json(&["show", "--skeleton", "src/app.py", "--json"]);
    let view = &v["data"]["views"][0];
    assert_eq!(view["mode"], "skeleton");
    assert_eq!(
        view["line_numbers"],
        serde_json::json!([4, 7, null, 12, null])
    );
}

#[test]
fn jsonl_streams_views_then_a_summary() {
    let env = TestEnv::new();
    env.write("src/lib.rs", LIB);
    let out = env
        .llm(&["show", "area", "--format", "jsonl"])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["type"], "view");
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["data"]["view_count"], 2);
}

#[test]
fn a_file_alone_is_shown_whole_and_cut_by_max_bytes() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\nthree\n");
    let (v, code) = env.json(&["show", "a.txt", "--json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["data"]["views"][0]["text"], "one\ntwo\nthree\n");
    let (v, _) = env.json(&["show", "a.txt", "--max-bytes", "8", "--json"]);
    assert_eq!(v["data"]["views"][0]["text"], "one\ntwo\n");
    assert_eq!(
        v["data"]["views"][0]["omitted"]["command"],
        "llm show a.txt:3-3"
    );
}

#[test]
fn a_range_of_a_file_that_is_not_utf8_warns_and_a_fifo_is_not_a_file() {
    let env = TestEnv::new();
    env.write("lat.txt", b"caf\xe9\n".as_slice());
    let (v, code) = env.json(&["show", "--json", "lat.txt:1"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["diagnostics"][0]["code"], "LLM_E009", "{v}");
    assert_eq!(v["data"]["views"][0]["span"]["byte_end"], 5);
    let fifo = env.path().join("ff");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (v, code) = env.json(&["show", "--json", "ff:1"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E108")),
        "{v}"
    );
    // Named whole, as a path to a directory, or a device: not a symbol's name either (they
    // were looked for as one: "no symbol `ff`").
    std::fs::create_dir(env.path().join("d")).unwrap();
    for target in ["ff", "./ff", "./d", "d/", "/dev/null"] {
        let (v, code) = env.json(&["show", "--json", target]);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (2, Some("LLM_E108")),
            "{target}: {v}"
        );
    }
    // An empty file has no line 1; whole, it shows nothing.
    env.write("empty.txt", "");
    let (v, code) = env.json(&["show", "--json", "empty.txt:1"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("SHOW_E002")),
        "{v}"
    );
    let (v, code) = env.json(&["show", "--json", "empty.txt"]);
    assert_eq!(
        (code, v["data"]["views"][0]["text"].as_str()),
        (0, Some("")),
        "{v}"
    );
}

#[test]
fn show_and_patch_take_the_last_segments_of_a_qualified_name_as_find_does() {
    let env = TestEnv::new();
    env.write(
        "m.py",
        "class Outer:\n    class Inner:\n        def meth(self):\n            pass\n",
    );
    env.write(
        "a.rs",
        "mod inner {\n    pub struct X;\n    impl X {\n        pub fn f(&self) {}\n    }\n}\n",
    );
    for (target, file, qualified) in [
        ("Inner.meth", "m.py", "Outer.Inner.meth"),
        ("X::f", "a.rs", "inner::X::f"),
    ] {
        let (v, code) = env.json(&["show", "--json", target, file]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(
            v["data"]["views"][0]["symbol"]["qualified_name"], qualified,
            "{v}"
        );
        let (v, code) = env.json(&[
            "patch",
            "--json",
            "--file",
            file,
            "--symbol",
            target,
            "--rename",
            "y",
            "--dry-run",
        ]);
        assert_eq!(code, 0, "{v}");
    }
}

#[test]
fn a_skeleton_keeps_python_decorators() {
    // `@property` and `@staticmethod` say what a def is; they were dropped.
    let env = TestEnv::new();
    env.write(
        "m.py",
        "class A:\n    @property\n    def x(self):\n        return 1\n\n    @app.route(\n        \"/x\",\n    )\n    def y(self):\n        return 2\n",
    );
    let (v, code) = env.json(&["show", "--json", "--skeleton", "m.py"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["data"]["views"][0]["text"],
        "class A:\n    @property\n    def x(self):\n        …\n    @app.route(\n        \"/x\",\n    )\n    def y(self):\n        …\n"
    );
}

/// What holds a definition without being one keeps its opening and closing lines (Go's
/// `type (` … `)`, Python's `if TYPE_CHECKING:`), and a body opened by a `{` on a line of its
/// own (after a Rust `where` clause) keeps that line: they were dropped without a `…`.
#[test]
fn a_skeleton_keeps_the_lines_that_open_what_holds_a_definition() {
    let env = TestEnv::new();
    env.write(
        "w.rs",
        "fn f<T>(x: T) -> T\nwhere\n    T: Clone,\n{\n    x.clone()\n}\n\nimpl<T> S<T>\nwhere\n    T: Copy,\n{\n    fn g(&self) {}\n}\n",
    );
    env.write(
        "g.go",
        "package p\n\ntype (\n\tA struct {\n\t\tx int\n\t}\n\tB interface {\n\t\tM()\n\t}\n)\n\nfunc F() {\n\treturn\n}\n",
    );
    env.write(
        "t.py",
        "import typing\nif typing.TYPE_CHECKING:\n    def f():\n        return 1\n",
    );
    let text = |file: &str| {
        let (v, code) = env.json(&["show", "--json", "--skeleton", file]);
        assert_eq!(code, 0, "{v}");
        let view = &v["data"]["views"][0];
        (
            view["text"].as_str().unwrap().to_string(),
            view["line_numbers"].clone(),
        )
    };
    let (rust, numbers) = text("w.rs");
    assert_eq!(
        rust,
        "fn f<T>(x: T) -> T\nwhere\n    T: Clone,\n{\n    …\n}\nimpl<T> S<T>\nwhere\n    T: Copy,\n{\n    fn g(&self) {}\n}\n"
    );
    assert_eq!(
        numbers,
        serde_json::json!([1, 2, 3, 4, null, 6, 8, 9, 10, 11, 12, 13])
    );
    let (go, _) = text("g.go");
    assert_eq!(
        go,
        "type (\n\tA struct {\n\t\tx int\n\t}\n\tB interface {\n\t\tM()\n\t}\n)\nfunc F() {\n\t…\n}\n"
    );
    let (python, _) = text("t.py");
    assert_eq!(
        python,
        "if typing.TYPE_CHECKING:\n    def f():\n        …\n"
    );
}
