//! Re-indentation round trips through the real binary: a symbol's `body_span` (or `span`)
//! exactly as `llm find --json` reports it — first line starting mid-line, the others carrying
//! the file's indentation — sent back with `llm patch --body --with FILE` (or `--with FILE`)
//! leaves the file byte-identical, on real Python (the standard library) and Rust (this repo's
//! sources) and on tab-indented code; the same for `transform --old` matched after a line's
//! indentation with a multi-line `--new`. And an indentation error an edit introduces in Python
//! is rejected like a syntax error.

use crate::util::TestEnv;
use serde_json::Value;
use std::path::PathBuf;

/// Real files: a few large modules of Python's standard library and some of this repo's Rust.
fn corpus() -> Vec<PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .expect("python3 is needed for the Python corpus");
    let stdlib = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = [
        "argparse.py",
        "dataclasses.py",
        "enum.py",
        "configparser.py",
        "inspect.py",
        "tarfile.py",
    ]
    .iter()
    .map(|m| stdlib.join(m))
    .collect();
    files.extend(
        [
            "src/indent.rs",
            "src/edit.rs",
            "src/span.rs",
            "src/mutation.rs",
            "src/cmd/transform/exact.rs",
            "src/lang/symbols.rs",
        ]
        .iter()
        .map(|p| repo.join(p)),
    );
    for f in &files {
        assert!(f.exists(), "{} is missing", f.display());
    }
    files
}

/// Every symbol of an outline, children included.
fn flatten(items: &Value, out: &mut Vec<Value>) {
    for m in items.as_array().into_iter().flatten() {
        out.push(m.clone());
        flatten(&m["children"], out);
    }
}

/// The functions and methods of `name` (find's outline, children included) that have a
/// `field` span; with find's exit code.
fn functions(env: &TestEnv, name: &str, field: &str) -> (Vec<Value>, i32) {
    let (v, rc) = env.json(&["find", "--outline", name, "--json"]);
    let mut symbols = Vec::new();
    flatten(&v["data"]["matches"], &mut symbols);
    symbols.retain(|s| {
        matches!(s["kind"].as_str(), Some("function" | "method")) && s[field].is_object()
    });
    (symbols, rc)
}

/// Writes the bytes of symbol `s`'s `field` span of `original` to `sent.txt` and patches `s`
/// in `name` with them (`--body` for the body); returns the envelope and the symbol's line.
fn send_back(
    env: &TestEnv,
    name: &str,
    s: &Value,
    field: &str,
    original: &[u8],
) -> (Value, String) {
    let span = &s[field];
    let (a, b) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    env.write("sent.txt", &original[a..b]);
    let line = s["span"]["start_line"].to_string();
    let symbol = s["name"].as_str().unwrap();
    let mut args = vec![
        "--file", name, "--symbol", symbol, "--line", &line, "--with", "sent.txt",
    ];
    if field == "body_span" {
        args.push("--body");
    }
    let (v, _) = env.patch(&args);
    (v, line)
}

/// Sends each of up to `per_file` functions' `field` span back with `llm patch` (`--body` for
/// the body) and checks the file is unchanged; returns how many were sent.
fn round_trip(env: &TestEnv, name: &str, field: &str, per_file: usize) -> usize {
    let (functions, rc) = functions(env, name, field);
    assert_eq!(rc, 0, "{name}: find --outline failed");
    assert!(!functions.is_empty(), "{name}: no functions");
    let step = (functions.len() / per_file).max(1);
    let original = env.read(name);
    let mut sent = 0;
    for s in functions.iter().step_by(step).take(per_file) {
        let symbol = s["name"].as_str().unwrap();
        let (v, line) = send_back(env, name, s, field, &original);
        assert_eq!(v["status"], "ok", "{name} {symbol} ({field}): {v}");
        assert!(
            env.read(name) == original,
            "{name}: sending back the {field} of `{symbol}` (line {line}) changed the file: {}",
            v["result"]["files"][0]
        );
        sent += 1;
    }
    sent
}

#[test]
fn bodies_and_definitions_sent_back_as_find_reports_them_leave_files_byte_identical() {
    let env = TestEnv::new();
    let (mut files, mut bodies, mut whole) = (0, 0, 0);
    for path in corpus() {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        env.write(&name, std::fs::read(&path).unwrap());
        bodies += round_trip(&env, &name, "body_span", 12);
        whole += round_trip(&env, &name, "span", 4);
        files += 1;
    }
    eprintln!("round trip: {bodies} bodies and {whole} whole definitions in {files} files, all byte-identical");
    assert!(bodies >= 100, "{bodies}");
}

#[test]
fn tab_indented_bodies_and_closing_braces_round_trip() {
    let env = TestEnv::new();
    env.write(
        "t.rs",
        "impl A {\n\tfn m(&self) -> u32 {\n\t\tif self.0 {\n\t\t\t1\n\t\t} else {\n\t\t\t2\n\t\t}\n\t}\n}\n\nfn f() {\n\tlet y = 2;\n\ty\n}\n",
    );
    env.write(
        "t.py",
        "class A:\n\tdef m(self, x):\n\t\tif x:\n\t\t\treturn 1\n\t\treturn 2\n\n\tdef n(self):\n\t\tpass\n",
    );
    for name in ["t.rs", "t.py"] {
        assert!(round_trip(&env, name, "body_span", 12) >= 2);
        assert!(round_trip(&env, name, "span", 12) >= 2);
    }
}

#[test]
fn dedented_text_is_still_reindented() {
    let env = TestEnv::new();
    env.write("a.py", "class A:\n    def m(self):\n        return 1\n");
    let (v, _) = env.patch(&[
        "--file",
        "a.py",
        "--symbol",
        "m",
        "--with-text",
        "def m(self):\n    return 2\n",
    ]);
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(
        env.read("a.py"),
        b"class A:\n    def m(self):\n        return 2\n"
    );
    let (v, _) = env.patch(&[
        "--file",
        "a.py",
        "--symbol",
        "m",
        "--body",
        "--with-text",
        "if self:\n    return 3\nreturn 4",
    ]);
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(
        env.read("a.py"),
        b"class A:\n    def m(self):\n        if self:\n            return 3\n        return 4\n"
    );
}

#[test]
fn a_multiline_new_text_in_the_files_indentation_is_not_indented_twice() {
    let env = TestEnv::new();
    let file = "def f():\n    x = 1\n    return x\n";
    // --old sent without the file's indentation (matched with an offset), --new as the file
    // holds it after the first line, and --new without indentation: the same result.
    for new in ["x = 2\n    return x", "x = 2\nreturn x"] {
        env.write("t.py", file);
        let (v, rc) = env.json(&[
            "transform",
            "t.py",
            "--old",
            "x = 1\nreturn x",
            "--new",
            new,
            "--json",
        ]);
        assert_eq!(rc, 0, "{v}");
        assert_eq!(v["result"]["matched_with"], "indentation", "{v}");
        assert_eq!(
            env.read("t.py"),
            b"def f():\n    x = 2\n    return x\n",
            "{new:?}"
        );
    }
    // A new block opened by the first line is still indented relative to it.
    env.write("t.py", file);
    let (v, rc) = env.json(&[
        "transform",
        "t.py",
        "--old",
        "x = 1\nreturn x",
        "--new",
        "if x:\n    return x",
        "--json",
    ]);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("t.py"), b"def f():\n    if x:\n        return x\n");
}

#[test]
fn an_indentation_error_an_edit_introduces_is_rejected_unless_forced() {
    let env = TestEnv::new();
    let file = "class A:\n    def m(self):\n        x = 1\n        return x\n";
    env.write("a.py", file);
    let cases: &[&[&str]] = &[
        &[
            "transform",
            "a.py",
            "--old",
            "x = 1",
            "--new",
            "x = 1\n            y = 2",
        ],
        &[
            "patch",
            "--file",
            "a.py",
            "--symbol",
            "m",
            "--body",
            "--with-text",
            "x = 1\n  return x",
        ],
        &[
            "write",
            "a.py",
            "--overwrite",
            "--content",
            "def f():\nreturn 1\n",
        ],
    ];
    for args in cases {
        let mut a = args.to_vec();
        a.push("--json");
        let (v, rc) = env.json(&a);
        assert_eq!(rc, 1, "{args:?}: {v}");
        let text = v.to_string();
        assert!(
            text.contains("LLM_E106") || text.contains("IndentationError"),
            "{args:?}: {v}"
        );
        assert!(text.contains("IndentationError"), "{args:?}: {v}");
        assert_eq!(env.read("a.py"), file.as_bytes(), "{args:?}");
    }
    let (v, rc) = env.json(&[
        "transform",
        "a.py",
        "--old",
        "x = 1",
        "--new",
        "x = 1\n            y = 2",
        "--force",
        "--json",
    ]);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["diagnostics"][0]["level"], "warning");
    assert!(String::from_utf8(env.read("a.py"))
        .unwrap()
        .contains("            y = 2"));
}

/// The measure, on the benchmark corpora (slow, ignored by default):
/// `LLM_ROUNDTRIP_CORPORA=DIR[:DIR…] cargo test --test it corpus_round_trip -- --ignored
/// --nocapture` sends back the `body_span` of 12 functions of each corpus (two per file, files
/// spread over the corpus) and reports how many left their file byte-identical.
#[test]
#[ignore]
fn corpus_round_trip() {
    let dirs = std::env::var("LLM_ROUNDTRIP_CORPORA").expect("set LLM_ROUNDTRIP_CORPORA");
    const EXTS: &[&str] = &[
        "rs", "py", "js", "ts", "tsx", "go", "java", "c", "h", "cpp", "cc", "cs", "rb", "php",
        "sh", "bash",
    ];
    let mut failures = Vec::new();
    for dir in dirs.split(':') {
        let mut files = Vec::new();
        let mut todo = vec![PathBuf::from(dir)];
        while let Some(p) = todo.pop() {
            if p.is_dir() {
                todo.extend(std::fs::read_dir(&p).unwrap().flatten().map(|e| e.path()));
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTS.contains(&e))
            {
                files.push(p);
            }
        }
        files.sort();
        let (mut sent, mut identical) = (0, 0);
        let step = (files.len() / 24).max(1);
        for path in files.iter().step_by(step) {
            if sent >= 12 {
                break;
            }
            let env = TestEnv::new();
            let name = format!("f.{}", path.extension().unwrap().to_str().unwrap());
            env.write(&name, std::fs::read(path).unwrap());
            let (functions, _) = functions(&env, &name, "body_span");
            let original = env.read(&name);
            for s in functions.iter().take(2.min(12 - sent)) {
                let symbol = s["name"].as_str().unwrap();
                let (v, line) = send_back(&env, &name, s, "body_span", &original);
                sent += 1;
                if v["status"] == "ok" && env.read(&name) == original {
                    identical += 1;
                } else {
                    failures.push(format!(
                        "{}: {symbol} (line {line}): {}",
                        path.display(),
                        v["status"]
                    ));
                    env.write(&name, &original);
                }
            }
        }
        eprintln!("{dir}: {identical} of {sent} bodies sent back left the file byte-identical");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Bodies as `llm find` reports them, in files whose shape once broke the round trip: a Java
/// doc comment's ` * ` lines (odd indentation), a bash file with an error the grammar already
/// sees (extglob), a Ruby method with a heredoc at column 0 and a tab.
#[test]
fn bodies_come_back_byte_identical_in_awkward_files() {
    let env = TestEnv::new();
    let java = "interface Checksum {\n    /**\n     * Updates.\n     *\n     * @param b bytes\n     */\n    default public void update(byte[] b) {\n        update(b, 0, b.length);\n    }\n\n    public void update(byte[] b, int off, int len);\n}\n";
    let bash = "_gz()\n{\n    if [[ $prev == --* ]]; then\n        [[ $prev == --@(decompress|list|test) ]] && xspec=\"!\"$xspec\n    fi\n}\n";
    let ruby = "class W\n  def initialize(main)\n    x = <<EOS\nat column 0\nEOS\n    if main\n\t@b = 1\n    end\n  end\nend\n";
    for (name, text) in [("C.java", java), ("g.bash", bash), ("w.rb", ruby)] {
        env.write(name, text);
        // (The bash file's outline warns about its syntax error: its exit code is not 0.)
        let (functions, _) = functions(&env, name, "body_span");
        let s = functions
            .iter()
            .find(|s| !s["body_span"].is_null())
            .unwrap_or_else(|| panic!("{name}: no body in {functions:?}"));
        let (v, _) = send_back(&env, name, s, "body_span", text.as_bytes());
        assert_eq!(v["status"], "ok", "{name}: {v}");
        assert_eq!(env.read(name), text.as_bytes(), "{name}");
    }
    // An edited Java body keeps the file's columns: only the literal changes.
    let (functions, _) = functions(&env, "C.java", "body_span");
    let s = functions
        .iter()
        .find(|s| !s["body_span"].is_null())
        .unwrap();
    let (a, b) = (
        s["body_span"]["byte_start"].as_u64().unwrap() as usize,
        s["body_span"]["byte_end"].as_u64().unwrap() as usize,
    );
    env.write("sent.txt", java[a..b].replace("0, b.length", "1, b.length"));
    let line = s["span"]["start_line"].to_string();
    let (v, rc) = env.patch(&[
        "--file", "C.java", "--symbol", "update", "--line", &line, "--with", "sent.txt", "--body",
    ]);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        env.read("C.java"),
        java.replace("0, b.length", "1, b.length").as_bytes()
    );
}

/// What an attack run on `patch` found exit 0 with a wrong file: each case through the binary.
#[test]
fn patch_keeps_expressions_suites_line_ends_and_the_files_indentation() {
    let env = TestEnv::new();
    let patch = |args: &[&str]| {
        let mut all = vec!["patch", "--json"];
        all.extend_from_slice(args);
        env.json(&all)
    };
    // An arrow function's expression body stays an expression (in braces it returned
    // nothing); C#'s `=> 1` keeps its arrow.
    env.write("a.js", "const f = (x) => x + 1;\n");
    let (v, code) = patch(&[
        "--file",
        "a.js",
        "--symbol",
        "f",
        "--body",
        "--with-text",
        "x * 2",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("a.js"), b"const f = (x) => x * 2;\n");
    env.write("a.cs", "class C {\n    int F() => 1;\n}\n");
    let (v, code) = patch(&[
        "--file",
        "a.cs",
        "--symbol",
        "F",
        "--body",
        "--with-text",
        "2",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("a.cs"), b"class C {\n    int F() => 2;\n}\n");
    // A Python suite left without a statement is refused (tree-sitter reads it without an
    // error; Python does not), the file unchanged.
    let py = "class A:\n    def f(self):\n        return 1\n";
    env.write("a.py", py);
    for body in ["# todo", ""] {
        let (v, code) = patch(&[
            "--file",
            "a.py",
            "--symbol",
            "A.f",
            "--body",
            "--with-text",
            body,
        ]);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("LLM_E106")),
            "{v}"
        );
    }
    let (v, code) = patch(&[
        "--file",
        "a.py",
        "--symbol",
        "A.f",
        "--with-text",
        "def f(self):\n    if self:\n        # only a comment\n    return 2",
    ]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(env.read("a.py"), py.as_bytes());
    // A C `#define` in a CRLF file: its span holds the `\r`, which stays.
    env.write("c.c", "#define A 1\r\n#define B 2\r\nint x;\r\n");
    let (v, code) = patch(&[
        "--file",
        "c.c",
        "--symbol",
        "A",
        "--with-text",
        "#define A 3",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("c.c"), b"#define A 3\r\n#define B 2\r\nint x;\r\n");
    // Javadoc's ` *` lines are no indentation step: the 4-space file stays 4-space.
    env.write(
        "A.java",
        "class A {\n    /**\n     * Two.\n     */\n    int b;\n    /**\n     * Four.\n     */\n    int f() {\n        return 1;\n    }\n}\n",
    );
    let (v, code) = patch(&[
        "--file",
        "A.java",
        "--symbol",
        "f",
        "--body",
        "--with-text",
        "{\n    return 2;\n}",
    ]);
    assert_eq!(code, 0, "{v}");
    let java = String::from_utf8(env.read("A.java")).unwrap();
    assert!(
        java.contains("    int f() {\n        return 2;\n    }\n"),
        "{java}"
    );
    // A top-level definition sent with spaces into a file of tabs gets tabs.
    env.write(
        "t.c",
        "int f(void)\n{\n\treturn 1;\n}\n\nint g(void)\n{\n\treturn 2;\n}\n",
    );
    let (v, code) = patch(&[
        "--file",
        "t.c",
        "--symbol",
        "g",
        "--with-text",
        "int g(void)\n{\n    if (1) {\n        return 3;\n    }\n}",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("t.c"),
        b"int f(void)\n{\n\treturn 1;\n}\n\nint g(void)\n{\n\tif (1) {\n\t\treturn 3;\n\t}\n}\n"
    );
}

/// Lines inside a multi-line string move with the block but keep their indentation relative
/// to it: converted level by level like code (2-space text into a 4-space file), a gap of 2
/// inside a docstring became 4 and the string's value changed more than the shift.
#[test]
fn string_lines_move_with_the_block_without_conversion() {
    let env = TestEnv::new();
    env.write("a.py", "class A:\n    def f(self):\n        return 1\n");
    let (v, code) = env.json(&[
        "patch",
        "--json",
        "--file",
        "a.py",
        "--symbol",
        "A.f",
        "--with-text",
        "def f(self):\n  if self:\n    return \"\"\"\n  one\n    two\n  \"\"\"",
    ]);
    assert_eq!(code, 0, "{v}");
    // Code converted to 4-space levels; the string's lines shifted by the block's 4 alone
    // (The template literal below likewise: its line 4 → 8, where its code went 2 → 8.)
    assert_eq!(
        env.read("a.py"),
        b"class A:\n    def f(self):\n        if self:\n            return \"\"\"\n      one\n        two\n      \"\"\"\n"
    );
    env.write(
        "t.js",
        "class C {\n    f() {\n        return 1;\n    }\n}\n",
    );
    let (v, code) = env.json(&[
        "patch",
        "--json",
        "--file",
        "t.js",
        "--symbol",
        "f",
        "--body",
        "--with-text",
        "{\n  return `a\n    b`;\n}",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("t.js"),
        b"class C {\n    f() {\n        return `a\n        b`;\n    }\n}\n"
    );
}
