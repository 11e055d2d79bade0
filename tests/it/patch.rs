//! `llm patch` on real files: every case issue 5 names, with exact resulting bytes.

use crate::util::{check_span, TestEnv};

fn patch(env: &TestEnv, args: &[&str]) -> (serde_json::Value, i32) {
    env.patch(args)
}

const LIB: &str = "//! Shapes.\n\nuse std::fmt;\n\n/// A circle.\n#[derive(Debug)]\npub struct Circle {\n    pub r: f64,\n}\n\nimpl Circle {\n    /// Area of the circle.\n    #[inline]\n    pub fn area(&self) -> f64 {\n        3.14 * self.r * self.r\n    }\n}\n\npub struct Square(pub f64);\n\nimpl Square {\n    pub fn area(&self) -> f64 {\n        self.0 * self.0\n    }\n}\n\npub fn last() -> u32 {\n    let a = 1;\n    let b = 2;\n    a + b\n}\n";

#[test]
fn replace_last_item_with_shorter_body() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "last",
            "--with-text",
            "pub fn last() -> u32 { 3 }",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let after = String::from_utf8(env.read("lib.rs")).unwrap();
    assert!(
        after.ends_with("}\n\npub fn last() -> u32 { 3 }\n"),
        "{after}"
    );
    assert_eq!(v["result"]["symbol"]["kind"], "function");
    assert_eq!(v["result"]["lines_removed"], 5);
    check_span(env.path(), &v["result"]["span_after"]);
    let s = &v["result"]["span_after"];
    let bytes = env.read("lib.rs");
    let text = &bytes
        [s["byte_start"].as_u64().unwrap() as usize..s["byte_end"].as_u64().unwrap() as usize];
    assert_eq!(text, b"pub fn last() -> u32 { 3 }");
}

#[test]
fn replace_first_item() {
    let env = TestEnv::new();
    env.write(
        "a.py",
        "def first():\n    return 1\n\n\ndef second():\n    return 2\n",
    );
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "a.py",
            "--symbol",
            "first",
            "--with-text",
            "def first():\n    return 10\n",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("a.py"),
        b"def first():\n    return 10\n\n\ndef second():\n    return 2\n"
    );
}

#[test]
fn item_with_attributes_and_doc_comments_is_replaced_whole() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let new = "/// Area, approximated.\npub fn area(&self) -> f64 {\n    3.0 * self.r * self.r\n}";
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "Circle::area",
            "--with-text",
            new,
        ],
    );
    assert_eq!(code, 0, "{v}");
    let after = String::from_utf8(env.read("lib.rs")).unwrap();
    assert!(after.contains("impl Circle {\n    /// Area, approximated.\n    pub fn area(&self) -> f64 {\n        3.0 * self.r * self.r\n    }\n}\n"), "{after}");
    assert!(!after.contains("#[inline]") && !after.contains("Area of the circle"));
    // The span before covered the doc comment and the attribute.
    assert_eq!(v["result"]["span_before"]["start_line"], 12);
}

#[test]
fn same_named_methods_need_parent() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "area",
            "--with-text",
            "fn area(&self) -> f64 { 0.0 }",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["code"], "PATCH_E002");
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 2);
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("--parent Square"),
        "{v}"
    );
    assert_eq!(env.read("lib.rs"), LIB.as_bytes());
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "area",
            "--parent",
            "Square",
            "--with-text",
            "pub fn area(&self) -> f64 {\n    self.0.powi(2)\n}",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let after = String::from_utf8(env.read("lib.rs")).unwrap();
    assert!(
        after.contains(
            "impl Square {\n    pub fn area(&self) -> f64 {\n        self.0.powi(2)\n    }\n}"
        ),
        "{after}"
    );
    assert!(after.contains("3.14 * self.r * self.r"));
}

#[test]
fn python_method_in_nested_class_sent_dedented() {
    let env = TestEnv::new();
    env.write("shapes.py", "class Outer:\n    class Inner:\n        def area(self):\n            return 1\n\n        def other(self):\n            pass\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "shapes.py",
            "--symbol",
            "Outer.Inner.area",
            "--with-text",
            "def area(self):\n    if self:\n        return 2\n    return 3\n",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("shapes.py"),
        b"class Outer:\n    class Inner:\n        def area(self):\n            if self:\n                return 2\n            return 3\n\n        def other(self):\n            pass\n"
    );
}

#[test]
fn decorated_python_function_body() {
    let env = TestEnv::new();
    env.write(
        "app.py",
        "import functools\n\n\n@functools.cache\ndef fib(n):\n    \"\"\"Doc.\"\"\"\n    return n\n",
    );
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "app.py",
            "--symbol",
            "fib",
            "--body",
            "--with-text",
            "if n < 2:\n    return n\nreturn fib(n - 1) + fib(n - 2)",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("app.py"),
        b"import functools\n\n\n@functools.cache\ndef fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n"
    );
}

#[test]
fn delete_only_item() {
    let env = TestEnv::new();
    env.write(
        "one.rs",
        "/// Only.\n#[test]\nfn only() {\n    assert!(true);\n}\n",
    );
    let (v, code) = patch(&env, &["--file", "one.rs", "--symbol", "only", "--delete"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("one.rs"), b"");
}

#[test]
fn delete_middle_item_takes_its_blank_line() {
    let env = TestEnv::new();
    env.write("m.rs", "fn a() {}\n\nfn b() {}\n\nfn c() {}\n");
    patch(&env, &["--file", "m.rs", "--symbol", "b", "--delete"]);
    assert_eq!(env.read("m.rs"), b"fn a() {}\n\nfn c() {}\n");
    patch(&env, &["--file", "m.rs", "--symbol", "c", "--delete"]);
    assert_eq!(env.read("m.rs"), b"fn a() {}\n");
}

#[test]
fn insert_after_at_end_without_final_newline() {
    let env = TestEnv::new();
    env.write("n.rs", "fn a() {}\n\nfn b() {}");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "n.rs",
            "--symbol",
            "b",
            "--insert-after",
            "--with-text",
            "fn c() {}\n",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("n.rs"), b"fn a() {}\n\nfn b() {}\n\nfn c() {}");
    patch(
        &env,
        &[
            "--file",
            "n.rs",
            "--symbol",
            "a",
            "--insert-before",
            "--with-text",
            "fn z() {}",
        ],
    );
    assert_eq!(
        env.read("n.rs"),
        b"fn z() {}\n\nfn a() {}\n\nfn b() {}\n\nfn c() {}"
    );
}

/// Text put before the first symbol of a file that starts with a BOM goes after the BOM: the
/// symbol's line starts at byte 0, and the BOM ended up in the middle of the file (Python:
/// "invalid non-printable character U+FEFF"), reported ok. The same for `transform` at line 1,
/// column 0 and at byte 0; an edit that removes exactly the BOM still does.
#[test]
fn text_put_at_the_top_of_a_bom_file_goes_after_the_bom() {
    let env = TestEnv::new();
    env.write("b.py", "\u{feff}def f():\n    return 1");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "b.py",
            "--symbol",
            "f",
            "--insert-before",
            "--with-text",
            "def g():\n    return 2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("b.py")).unwrap(),
        "\u{feff}def g():\n    return 2\n\n\ndef f():\n    return 1"
    );
    env.write("t.py", "\u{feff}def f():\n    return 1\n");
    let at_line = r#"{"file_path":"t.py","edits":[{"start_line":1,"start_col":0,"end_line":1,"end_col":0,"new_content":"import os\n"}]}"#;
    let (v, code) = crate::transform::transform(&env, &[], at_line);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("t.py")).unwrap(),
        "\u{feff}import os\ndef f():\n    return 1\n"
    );
    let at_byte = r#"{"file_path":"t.py","edits":[{"byte_start":0,"byte_end":0,"new_content":"import re\n"}]}"#;
    let (v, code) = crate::transform::transform(&env, &[], at_byte);
    assert_eq!(code, 0, "{v}");
    // One line added, none removed (line 1 with the BOM counted as changed: +2 -1).
    assert_eq!(
        (
            v["result"]["lines_added"].as_u64(),
            v["result"]["lines_removed"].as_u64()
        ),
        (Some(1), Some(0)),
        "{v}"
    );
    assert_eq!(
        String::from_utf8(env.read("t.py")).unwrap(),
        "\u{feff}import re\nimport os\ndef f():\n    return 1\n"
    );
    // Text that brings a BOM of its own where the file's stays loses it (two, before).
    env.write("d.py", "\u{feff}def first():\n    return 1\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "d.py",
            "--symbol",
            "first",
            "--with-text",
            "\u{feff}def first():\n    return 2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("d.py")).unwrap(),
        "\u{feff}def first():\n    return 2\n"
    );
    // Deleting the first definition takes the blank lines after it, as without a BOM (they
    // stayed: the BOM was taken for text before the definition on its line).
    env.write(
        "e.py",
        "\u{feff}def a():\n    return 1\n\n\ndef b():\n    return 2\n",
    );
    let (v, code) = patch(&env, &["--file", "e.py", "--symbol", "a", "--delete"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("e.py")).unwrap(),
        "\u{feff}def b():\n    return 2\n"
    );
    // Removing the BOM itself is an edit of exactly its bytes.
    let drop_bom =
        r#"{"file_path":"t.py","edits":[{"byte_start":0,"byte_end":3,"new_content":""}]}"#;
    let (v, code) = crate::transform::transform(&env, &[], drop_bom);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("t.py")).unwrap(),
        "import re\nimport os\ndef f():\n    return 1\n"
    );
}

/// A Bash compound command left without a command (`then` … `fi`, `{ }` with a comment only,
/// `do` … `done`) is refused by every tool: bash rejects it, tree-sitter reads it without an
/// error node, and it was written ok. An empty body already in the file, away from the edit,
/// is left alone; an empty `case` arm is valid.
#[test]
fn a_bash_body_left_without_a_command_is_refused() {
    let env = TestEnv::new();
    let script =
        "#!/bin/bash\r\nf() {\r\n  echo hi\r\n}\r\nif true; then\r\n  g() { echo; }\r\nfi\r\n";
    env.write("a.sh", script);
    let (v, code) = patch(&env, &["--file", "a.sh", "--symbol", "g", "--delete"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`then` branch without a command"),
        "{v}"
    );
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "a.sh",
            "--symbol",
            "f",
            "--body",
            "--with-text",
            "{\n  # todo\n}",
        ],
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    let (v, code) = env.json(&[
        "--json",
        "transform",
        "a.sh",
        "--old",
        "  echo hi",
        "--new",
        "  # gone",
    ]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    assert_eq!(env.read("a.sh"), script.as_bytes());
    for (name, text) in [
        ("w1.sh", "if true; then\nfi\n"),
        ("w2.sh", "while true; do\ndone\n"),
        ("w3.sh", "if a; then\n  :\nelse\n  # nothing\nfi\n"),
        ("w4.sh", "( )\n"),
    ] {
        let (v, code) = env.json_stdin(&["--json", "write", name], text);
        assert_eq!(code, 1, "{name}: {v}");
        assert!(!env.path().join(name).exists(), "{name}");
    }
    let (v, code) = env.json_stdin(
        &["--json", "write", "ok.sh"],
        "case x in\n  a) ;;\nesac\nf() { :; }\n",
    );
    assert_eq!(code, 0, "{v}");
    // An empty body that was there before, away from the edit, is not this edit's.
    env.write("old.sh", "f() {\n}\ng() {\n  echo 1\n}\n");
    let (v, code) = env.json(&[
        "--json",
        "transform",
        "old.sh",
        "--old",
        "echo 1",
        "--new",
        "echo 2",
    ]);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn crlf_file_stays_crlf() {
    let env = TestEnv::new();
    env.write("w.py", "class A:\r\n    def f(self):\r\n        return 1\r\n\r\n    def g(self):\r\n        return 2\r\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "w.py",
            "--symbol",
            "A.f",
            "--with-text",
            "def f(self):\n    x = 5\n    return x\n",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("w.py"),
        b"class A:\r\n    def f(self):\r\n        x = 5\r\n        return x\r\n\r\n    def g(self):\r\n        return 2\r\n"
    );
    assert_eq!(v["result"]["files"][0]["line_ending"], "crlf");
}

#[test]
fn tabs_follow_the_file() {
    let env = TestEnv::new();
    env.write("t.rs", "impl T {\n\tfn a() {\n\t\t1;\n\t}\n}\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "t.rs",
            "--symbol",
            "a",
            "--with-text",
            "fn a() {\n    2;\n}",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("t.rs"), b"impl T {\n\tfn a() {\n\t\t2;\n\t}\n}\n");
    // A braced body in spaces, its `{` first, into a file of tabs: tabs (it kept its spaces,
    // taken for a body placed as `find` reports one). The body the file holds goes back as it is.
    env.write(
        "a.go",
        "package p\n\nfunc f() int {\n\tif true {\n\t\treturn 2\n\t}\n\treturn 1\n}\n",
    );
    let body = "{\n    if true {\n        return 3\n    }\n    return 1\n}";
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "a.go",
            "--symbol",
            "f",
            "--body",
            "--with-text",
            body,
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("a.go"),
        b"package p\n\nfunc f() int {\n\tif true {\n\t\treturn 3\n\t}\n\treturn 1\n}\n"
    );
    let mixed = "package p\n\nfunc g() string {\n\treturn `a\n  b`\n}\n";
    env.write("m.go", mixed);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "m.go",
            "--symbol",
            "g",
            "--body",
            "--with-text",
            "{\n\treturn `a\n  b`\n}",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("m.go"), mixed.as_bytes());
}

#[test]
fn syntax_error_rejected_and_located() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "last",
            "--with-text",
            "pub fn last() -> u32 {\n    let a = ;\n    a\n}",
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["code"], "LLM_E106");
    let span = &v["error"]["span"];
    assert_eq!(span["start_line"], 28, "{v}");
    assert_eq!(env.read("lib.rs"), LIB.as_bytes());
}

/// A file that already has syntax errors (a kernel macro function's missing `;`, twice): a
/// patch that adds one is rejected with that one alone, at its place, not the old ones.
#[test]
fn only_the_new_syntax_error_is_reported_in_a_broken_file() {
    let env = TestEnv::new();
    let src = "BPF_CALL_1(bpf_a, int, x)\n{\n\treturn x;\n}\n\nBPF_CALL_1(bpf_b, int, y)\n{\n\treturn y;\n}\n\nstatic int c(void)\n{\n\treturn 0;\n}\n";
    env.write("h.c", src);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "h.c",
            "--symbol",
            "c",
            "--body",
            "--with-text",
            "{\n\treturn (;\n}",
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "LLM_E106");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the change introduces 1 syntax error "),
        "{v}"
    );
    let each = v["diagnostics"].as_array().unwrap();
    assert_eq!(each.len(), 1, "{v}");
    assert_eq!(each[0]["span"]["start_line"], 13, "{v}");
    assert_eq!(env.read("h.c"), src.as_bytes());
    // A body that parses is written, the old errors notwithstanding.
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "h.c",
            "--symbol",
            "bpf_a",
            "--body",
            "--with-text",
            "{\n\treturn -x;\n}",
        ],
    );
    assert_eq!(code, 0, "{v}");
}

#[test]
fn no_such_symbol_suggests_close_names() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (v, code) = patch(
        &env,
        &["--file", "lib.rs", "--symbol", "aera", "--with-text", "x"],
    );
    assert_eq!(code, 1);
    assert_eq!(v["error"]["code"], "PATCH_E001");
    assert!(
        v["error"]["remediation"].as_str().unwrap().contains("area"),
        "{v}"
    );
}

#[test]
fn find_output_on_stdin_guards_with_checksum() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (found, _) = env.json(&["find", "--json", "last", "lib.rs"]);
    let stdin = serde_json::to_string(&found).unwrap();
    let out = env
        .llm(&[
            "patch",
            "--json",
            "--with-text",
            "pub fn last() -> u32 { 9 }",
        ])
        .write_stdin(stdin.clone())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8(env.read("lib.rs"))
        .unwrap()
        .contains("{ 9 }"));
    // Same find output again: the file changed since, so the patch is refused.
    let out = env
        .llm(&[
            "patch",
            "--json",
            "--with-text",
            "pub fn last() -> u32 { 7 }",
        ])
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "LLM_E101");
    // Find output about another file than --file: said so, not "changed since it was read".
    env.write("other.rs", LIB);
    let (found, _) = env.json(&["find", "--json", "last", "other.rs"]);
    let out = env
        .llm(&[
            "patch",
            "--json",
            "--file",
            "lib.rs",
            "--body",
            "--with-text",
            "{ 0.0 }",
        ])
        .write_stdin(serde_json::to_string(&found).unwrap())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "PATCH_E008", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is about other.rs, not --file lib.rs"),
        "{v}"
    );
}

#[test]
fn dry_run_changes_nothing() {
    let env = TestEnv::new();
    env.write("lib.rs", LIB);
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "last",
            "--dry-run",
            "--with-text",
            "fn last() {}",
        ],
    );
    assert_eq!(code, 0);
    assert!(v["result"]["files"][0]["diff"]
        .as_str()
        .unwrap()
        .contains("+fn last() {}"));
    assert_eq!(env.read("lib.rs"), LIB.as_bytes());
}

const UTIL: &str = "pub fn inc(x: i32) -> i32 {\n    x + 1\n}\n";
const MAIN: &str = "mod util;\nmod other;\n\nuse util::inc;\n\nfn main() {\n    // inc is called twice\n    let s = \"inc\";\n    println!(\"{} {} {}\", inc(1), util::inc(2), s);\n    other::go();\n}\n";
const OTHER: &str = "pub fn go() {\n    let _ = crate::util::inc(3);\n}\n";

fn crate_env() -> TestEnv {
    let env = TestEnv::new();
    env.write("Cargo.toml", "[package]\nname = \"renamecase\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n");
    env.write("src/util.rs", UTIL);
    env.write("src/main.rs", MAIN);
    env.write("src/other.rs", OTHER);
    env
}

#[test]
fn rename_across_three_files_then_cargo_check_passes() {
    let env = crate_env();
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "src/util.rs",
            "--symbol",
            "inc",
            "--rename",
            "increment",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("src/util.rs"),
        b"pub fn increment(x: i32) -> i32 {\n    x + 1\n}\n"
    );
    let main = String::from_utf8(env.read("src/main.rs")).unwrap();
    assert!(main.contains("use util::increment;"), "{main}");
    assert!(main.contains("increment(1), util::increment(2)"), "{main}");
    assert!(
        main.contains("// inc is called twice") && main.contains("\"inc\""),
        "comments and strings untouched: {main}"
    );
    assert_eq!(
        env.read("src/other.rs"),
        b"pub fn go() {\n    let _ = crate::util::increment(3);\n}\n"
    );
    assert_eq!(v["result"]["sites"].as_array().unwrap().len(), 5, "{v}");
    assert_eq!(v["result"]["files"].as_array().unwrap().len(), 3);
    let status = std::process::Command::new("cargo")
        .args(["check", "--quiet", "--offline"])
        .current_dir(env.path())
        .env("CARGO_TARGET_DIR", env.path().join("target"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the renamed crate must still build");
}

#[test]
fn rename_dry_run_lists_every_site_and_writes_nothing() {
    let env = crate_env();
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "src/util.rs",
            "--symbol",
            "inc",
            "--rename",
            "increment",
            "--dry-run",
        ],
    );
    assert_eq!(code, 0, "{v}");
    let sites = v["result"]["sites"].as_array().unwrap();
    assert_eq!(sites.len(), 5);
    for s in sites {
        check_span(env.path(), &s["span"]);
    }
    assert_eq!(env.read("src/main.rs"), MAIN.as_bytes());
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "src/util.rs",
            "--symbol",
            "inc",
            "--rename",
            "9bad",
        ],
    );
    assert_eq!((code, v["error"]["code"].as_str()), (2, Some("PATCH_E006")));
}

#[test]
fn type_error_with_check_is_rejected_and_restored() {
    let env = crate_env();
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "src/util.rs",
            "--symbol",
            "inc",
            "--check",
            "--with-text",
            "pub fn inc(x: i32) -> i32 {\n    \"not a number\"\n}",
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["code"], "PATCH_E007");
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(
        diags.iter().any(|d| d["code"] == "E0308"),
        "the compiler's own code: {v}"
    );
    let e0308 = diags.iter().find(|d| d["code"] == "E0308").unwrap();
    assert_eq!(e0308["span"]["file_path"], "src/util.rs");
    assert_eq!(e0308["span"]["start_line"], 2, "{e0308}");
    assert_eq!(env.read("src/util.rs"), UTIL.as_bytes(), "restored");
}

#[test]
fn check_passes_a_good_patch_and_reports_the_validator() {
    let env = crate_env();
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "src/util.rs",
            "--symbol",
            "inc",
            "--check",
            "--body",
            "--with-text",
            "x + 2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("src/util.rs"),
        b"pub fn inc(x: i32) -> i32 {\n    x + 2\n}\n"
    );
    let vals = v["result"]["validators"].as_array().unwrap();
    assert_eq!(vals[0]["name"], "cargo check");
    assert_eq!(vals[0]["verdict"], "passed");
}

#[test]
fn python_check_uses_compile() {
    let env = TestEnv::new();
    env.write("m.py", "def f():\n    return 1\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "m.py",
            "--symbol",
            "f",
            "--check",
            "--body",
            "--with-text",
            "return 2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["validators"][0]["verdict"], "passed", "{v}");
    assert_eq!(env.read("m.py"), b"def f():\n    return 2\n");
    assert!(
        !env.path().join("__pycache__").exists(),
        "compile() must not write bytecode"
    );
}

#[test]
fn retried_insert_is_already_applied() {
    let env = TestEnv::new();
    env.write("lib.rs", "fn a() {}\r\n\r\nfn b() {}\r\n");
    let args = [
        "--file",
        "lib.rs",
        "--symbol",
        "a",
        "--insert-after",
        "--with-text",
        "fn c() {}",
    ];
    let (v, code) = patch(&env, &args);
    assert_eq!(code, 0, "{v}");
    let after = env.read("lib.rs");
    assert_eq!(after, b"fn a() {}\r\n\r\nfn c() {}\r\n\r\nfn b() {}\r\n");
    let (v, code) = patch(&env, &args);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("TRANSFORM_E005")),
        "{v}"
    );
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "lib.rs",
            "--symbol",
            "b",
            "--insert-before",
            "--with-text",
            "fn c() {}",
        ],
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("TRANSFORM_E005")),
        "{v}"
    );
    assert_eq!(env.read("lib.rs"), after);
}

#[test]
fn failed_patch_names_its_tool_once() {
    let env = TestEnv::new();
    env.write("lib.rs", "fn a() {}\n");
    let out = env
        .llm(&[
            "patch",
            "--file",
            "lib.rs",
            "--symbol",
            "a",
            "--with-text",
            "fn a() {",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("llm llm:"), "{err}");
    assert!(
        err.contains("llm patch: error[LLM_E106]: the change introduces"),
        "{err}"
    );
}

#[test]
fn errors_before_the_mutation_name_patch_as_their_tool() {
    let env = TestEnv::new();
    env.write("a.rs", "fn a() {}\n\nfn b() {}\n");
    env.write("d.rs", "fn a() {}\nfn a() {}\n");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("o.rs"), "fn a() {}\n").unwrap();
    let outside_file = outside.path().join("o.rs").to_string_lossy().into_owned();
    let zeros = "0".repeat(64);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "--file",
                "d.rs",
                "--symbol",
                "a",
                "--with-text",
                "fn a() {}",
            ],
            "PATCH_E002",
        ),
        (
            vec!["--file", "a.rs", "--symbol", "zz", "--with-text", "x"],
            "PATCH_E001",
        ),
        (
            vec!["--file", "missing.rs", "--symbol", "a", "--with-text", "x"],
            "LLM_E004",
        ),
        (
            vec!["--file", &outside_file, "--symbol", "a", "--with-text", "x"],
            "LLM_E107",
        ),
        (
            vec![
                "--file",
                "a.rs",
                "--symbol",
                "a",
                "--with-text",
                "x",
                "--expected-checksum",
                "zz",
            ],
            "LLM_E116",
        ),
        (
            vec![
                "--file",
                "a.rs",
                "--symbol",
                "a",
                "--with-text",
                "x",
                "--expected-checksum",
                &zeros,
            ],
            "LLM_E101",
        ),
        (
            vec![
                "--file",
                "a.rs",
                "--symbol",
                "a",
                "--insert-after",
                "--with-text",
                "fn b() {}",
            ],
            "TRANSFORM_E005",
        ),
    ];
    for (args, code) in cases {
        let (v, rc) = env.patch(&args);
        assert_ne!(rc, 0, "{args:?}: {v}");
        assert_eq!(v["error"]["code"], code, "{args:?}: {v}");
        assert_eq!(v["error"]["tool"], "patch", "{args:?}: {v}");
        for d in v["diagnostics"].as_array().unwrap() {
            assert_eq!(d["tool"], "patch", "{args:?}: {d}");
        }
    }
    assert_eq!(env.read("a.rs"), b"fn a() {}\n\nfn b() {}\n");
}

#[test]
fn lone_top_level_insert_takes_the_languages_blank_lines() {
    // A file with one top-level definition has no spacing to copy: the language's own (Ruby one
    // blank line, Python PEP 8's two, the brace languages one).
    let env = TestEnv::new();
    let cases: [(&str, &str, &str, &str, &str); 4] = [
        (
            "a.rb",
            "\u{feff}# Größe\r\nclass Größe\r\n\tdef f\r\n\t\t1\r\n\tend\r\nend\r\n",
            "Größe",
            "class B\nend",
            "\u{feff}# Größe\r\nclass Größe\r\n\tdef f\r\n\t\t1\r\n\tend\r\nend\r\n\r\nclass B\r\nend\r\n",
        ),
        (
            "a.py",
            "class A:\n    x = 1\n",
            "A",
            "class B:\n    pass",
            "class A:\n    x = 1\n\n\nclass B:\n    pass\n",
        ),
        (
            "a.go",
            "package p\n\nfunc A() {}\n",
            "A",
            "func B() {}",
            "package p\n\nfunc A() {}\n\nfunc B() {}\n",
        ),
        (
            "a.js",
            "function a() {}",
            "a",
            "function b() {}",
            "function a() {}\n\nfunction b() {}",
        ),
    ];
    for (file, before, symbol, text, after) in cases {
        env.write(file, before);
        let args = [
            "--file",
            file,
            "--symbol",
            symbol,
            "--insert-after",
            "--with-text",
            text,
        ];
        let (v, code) = patch(&env, &args);
        assert_eq!(code, 0, "{file}: {v}");
        assert_eq!(String::from_utf8(env.read(file)).unwrap(), after, "{file}");
    }
    // Before a lone Ruby method at top level: one blank line too.
    env.write("b.rb", "def g\n  2\nend\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "b.rb",
            "--symbol",
            "g",
            "--insert-before",
            "--with-text",
            "def h\n  1\nend",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("b.rb"), b"def h\n  1\nend\n\ndef g\n  2\nend\n");
}

#[test]
fn a_body_replaced_by_its_own_text_keeps_mixed_line_endings() {
    // A file whose lines end both ways: the body's own text, as sent (CRLF and LF mixed) or
    // with LF only, leaves every byte as it was, with or without --raw-line-endings; the
    // whole definition likewise.
    let env = TestEnv::new();
    let src =
        "function f() {\r\n  let a = 1;\n  let b = 2;\r\n  return a + b;\n}\r\nfunction g() {}\n";
    env.write("m.js", src);
    let body = "{\r\n  let a = 1;\n  let b = 2;\r\n  return a + b;\n}";
    let whole = "function f() {\r\n  let a = 1;\n  let b = 2;\r\n  return a + b;\n}";
    for (action, text) in [
        ("--body", body.to_string()),
        ("--body", body.replace('\r', "")),
        ("--replace", whole.to_string()),
        ("--replace", whole.replace("\r\n", "\n")),
    ] {
        for raw in [false, true] {
            let mut args = vec!["--file", "m.js", "--symbol", "f", "--with-text", &text];
            if action == "--body" {
                args.push("--body");
            }
            if raw {
                args.push("--raw-line-endings");
            }
            let (v, code) = patch(&env, &args);
            assert_eq!(code, 0, "{v}");
            assert_eq!(
                String::from_utf8(env.read("m.js")).unwrap(),
                src,
                "{action} {text:?} raw {raw}"
            );
        }
    }
    // A real change still takes the file's dominant ending (here LF: three of five lines).
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "m.js",
            "--symbol",
            "f",
            "--body",
            "--with-text",
            "{\r\n  return 3;\r\n}",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("m.js")).unwrap(),
        "function f() {\n  return 3;\n}\r\nfunction g() {}\n"
    );
}

#[test]
fn an_insert_beside_an_item_before_a_broken_one_is_not_blamed_for_its_error() {
    // The file already has an error in `g`; a comment inserted after `f` joins `g` (as the
    // comment before an item does), whose error must not read as new. A broken insert still
    // is.
    let env = TestEnv::new();
    for (file, src, symbol, text) in [
        (
            "a.js",
            "function f() {\n  return 1;\n}\n\nfunction g( {\n}\n",
            "f",
            "// x",
        ),
        ("s.sh", "f()\n{\n  :\n}\n\ng()", "f", "# x"),
        (
            "a.rs",
            "fn f() -> u32 {\n    1\n}\n\nfn g( {\n}\n",
            "f",
            "/// Doc.",
        ),
    ] {
        env.write(file, src);
        let (v, code) = patch(
            &env,
            &[
                "--file",
                file,
                "--symbol",
                symbol,
                "--insert-after",
                "--with-text",
                text,
            ],
        );
        assert_eq!(code, 0, "{file}: {v}");
        let after = String::from_utf8(env.read(file)).unwrap();
        assert!(after.contains(&format!("\n{text}\n")), "{file}: {after}");
        env.write(file, src);
    }
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "a.js",
            "--symbol",
            "f",
            "--insert-after",
            "--with-text",
            "function h( {}",
        ],
    );
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")), "{v}");
    assert_eq!(
        String::from_utf8(env.read("a.js")).unwrap(),
        "function f() {\n  return 1;\n}\n\nfunction g( {\n}\n"
    );
}

/// A body on its definition's line (`def f(): return 1`, Ruby's endless `def y = 2`) given one
/// line stays on that line (Ruby's became `def y =` and the value on a line of its own);
/// given several, it goes on lines of its own as before.
#[test]
fn a_one_line_body_given_one_line_stays_on_its_line() {
    let env = TestEnv::new();
    env.write("e.rb", "class A\n  def y = 2\nend\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "e.rb",
            "--symbol",
            "y",
            "--body",
            "--with-text",
            "3",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("e.rb"), b"class A\n  def y = 3\nend\n");
    env.write("o.py", "def f(): return 1\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "o.py",
            "--symbol",
            "f",
            "--body",
            "--with-text",
            "return 2",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("o.py"), b"def f(): return 2\n");
    let (v, code) = patch(
        &env,
        &[
            "--file",
            "o.py",
            "--symbol",
            "f",
            "--body",
            "--with-text",
            "x = 2\nreturn x",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("o.py"), b"def f():\n    x = 2\n    return x\n");
}
