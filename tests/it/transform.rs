//! `llm transform`: the three ways in (edit requests with their aliases, exact text, piped
//! search/ast/find output), the result shape, and snapshots of human and JSON output.

use crate::util::{check_span, redactions, sha, TestEnv};
use serde::Deserialize;
use serde_json::{json, Value};

/// Runs `llm --json transform ARGS` with `stdin`; returns the envelope and the exit code.
pub fn transform(env: &TestEnv, args: &[&str], stdin: &str) -> (Value, i32) {
    let mut all = vec!["--json", "transform"];
    all.extend_from_slice(args);
    env.json_stdin(&all, stdin)
}

/// An edit request for one file.
pub fn request(file: &str, checksum: Option<&str>, edits: &[(usize, usize, &str)]) -> Value {
    let edits: Vec<Value> = edits
        .iter()
        .map(|(s, e, t)| json!({"byte_start": s, "byte_end": e, "new_content": t}))
        .collect();
    let mut r = json!({"file_path": file, "edits": edits});
    if let Some(c) = checksum {
        r["expected_checksum"] = json!(c);
    }
    r
}

/// The envelope's error code.
pub fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

// The result shape, checked strictly.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Envelope {
    schema_version: String,
    execution_id: String,
    operation_type: String,
    status: String,
    message: String,
    timestamp: String,
    workspace: String,
    result: Option<TransformResult>,
    diagnostics: Vec<Value>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct TransformResult {
    source: String,
    matched_with: Option<String>,
    dry_run: bool,
    files: Vec<FileResult>,
    applied_count: usize,
    skipped_count: usize,
    lines_added: usize,
    lines_removed: usize,
    #[allow(dead_code)]
    undo: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct FileResult {
    file_path: String,
    created: bool,
    before_checksum: Option<String>,
    after_checksum: String,
    edits: Vec<EditResult>,
    lines_added: usize,
    lines_removed: usize,
    #[allow(dead_code)]
    undo: Option<String>,
    total_byte_shift: i64,
    applied_count: usize,
    skipped_count: usize,
    line_ending: String,
    bom: bool,
    diff: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct EditResult {
    index: usize,
    span: Value,
    old_span: Value,
    status: String,
}

#[test]
fn request_applies_and_reports_spans_and_checksums() {
    let env = TestEnv::new();
    let before = "fn main() {\n    let x = 1;\n    let y = 2;\n}\n";
    env.write("src/main.txt", before);
    let req = request(
        "src/main.txt",
        Some(&sha(before.as_bytes())),
        &[(20, 21, "alpha"), (35, 36, "beta\n    let g = 3")],
    );
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!(rc, 0, "{v}");
    let e: Envelope = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(
        (e.operation_type.as_str(), e.status.as_str()),
        ("transform", "ok")
    );
    let after = "fn main() {\n    let alpha = 1;\n    let beta\n    let g = 3 = 2;\n}\n";
    assert_eq!(env.read("src/main.txt"), after.as_bytes());
    let r = e.result.unwrap();
    assert_eq!(r.source, "request");
    assert_eq!((r.applied_count, r.skipped_count), (2, 0));
    let f = &r.files[0];
    assert_eq!(
        f.before_checksum.as_deref(),
        Some(sha(before.as_bytes()).as_str())
    );
    assert_eq!(f.after_checksum, sha(after.as_bytes()));
    assert_eq!(f.total_byte_shift, after.len() as i64 - before.len() as i64);
    assert_eq!((f.lines_added, f.lines_removed), (3, 2));
    for ed in &f.edits {
        check_span(env.path(), &ed.span);
    }
    assert_eq!(f.edits[1].span["byte_start"], 39);
    assert_eq!(f.edits[1].old_span["byte_start"], 35);
}

#[test]
fn request_aliases_span_objects_line_columns_and_jsonl() {
    let env = TestEnv::new();
    env.write("a.txt", "one two three\nfour five\n");
    env.write("b.txt", "hello\n");
    // `file` + `replacement` + a `span` object; `path` + `new_text` + line/column positions
    // (`line_start`/`col_start`); JSON lines, two files at once.
    let lines = [
        json!({"file": "a.txt", "edits": [{"span": {"byte_start": 4, "byte_end": 7}, "replacement": "2"}]}),
        json!({"path": "b.txt", "checksum": sha(b"hello\n"),
               "edits": [{"line_start": 1, "col_start": 0, "end_line": 1, "end_col": 5, "new_text": "bye", "old_text": "hello"}]}),
    ];
    let stdin = format!("{}\n{}\n", lines[0], lines[1]);
    let (v, rc) = transform(&env, &[], &stdin);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("a.txt"), b"one 2 three\nfour five\n");
    assert_eq!(env.read("b.txt"), b"bye\n");
    // The llmastsearch spelling: start/end {row (1-indexed), column}.
    let req = json!({"file_path": "a.txt", "edits": [{"start": {"row": 2, "column": 0}, "end": {"row": 2, "column": 4}, "new_content": "4"}]});
    let (_, rc) = transform(&env, &[], &req.to_string());
    assert_eq!(rc, 0);
    assert_eq!(env.read("a.txt"), b"one 2 three\n4 five\n");
    // --edits FILE, an array.
    env.write(
        "edits.json",
        json!([request("b.txt", None, &[(0, 0, ">")])]).to_string(),
    );
    let (v, rc) = transform(&env, &["--edits", "edits.json"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("b.txt"), b">bye\n");
}

#[test]
fn recorded_old_text_must_match() {
    let env = TestEnv::new();
    env.write("a.txt", "abc\n");
    let req = json!({"file_path": "a.txt", "edits": [{"byte_start": 0, "byte_end": 3, "old_content": "xyz", "new_content": "q"}]});
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E008"), "{v}");
    assert_eq!(env.read("a.txt"), b"abc\n");
}

#[test]
fn bad_requests_are_coded_errors() {
    let env = TestEnv::new();
    env.write("a.txt", "abc\n");
    let (v, rc) = transform(&env, &[], "{\"file_path\": \"a.txt\",\n \"edits\": [}");
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E001"));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("line 2"),
        "{v}"
    );
    // A typo in `new_content` must not turn into a deletion.
    let (v, rc) = transform(
        &env,
        &[],
        r#"{"file_path":"a.txt","edits":[{"byte_start":0,"byte_end":3,"new_contnet":"x"}]}"#,
    );
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E001"), "{v}");
    let (v, rc) = transform(&env, &[], r#"{"file_path":"a.txt","edits":[]}"#);
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E002"));
    let (v, rc) = transform(&env, &[], "");
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E002"));
    let (v, rc) = transform(
        &env,
        &[],
        r#"{"file_path":"nope.txt","edits":[{"byte_start":0,"byte_end":0,"new_content":"x"}]}"#,
    );
    assert_eq!((rc, code(&v)), (2, "LLM_E004"));
    assert!(v["error"]["remediation"].as_str().is_some());
    assert_eq!(env.read("a.txt"), b"abc\n");
}

#[test]
fn exact_text_once_all_and_ambiguous() {
    let env = TestEnv::new();
    env.write("a.py", "x = 1\ny = 1\nz = 2\n");
    let (v, rc) = transform(&env, &["a.py", "--old", "= 1", "--new", "= 3"], "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E004"), "{v}");
    let lines: Vec<u64> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["span"]["start_line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2]);
    assert_eq!(env.read("a.py"), b"x = 1\ny = 1\nz = 2\n");
    let (v, rc) = transform(&env, &["a.py", "--old", "= 1", "--new", "= 3", "--all"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["matched_with"], "exact");
    assert_eq!(v["result"]["source"], "exact");
    assert_eq!(env.read("a.py"), b"x = 3\ny = 3\nz = 2\n");
    env.write("old.txt", "z = 2\n");
    env.write("new.txt", "z = 4\n");
    let args = ["a.py", "--old-file", "old.txt", "--new-file", "new.txt"];
    let (v, rc) = transform(&env, &args, "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("a.py"), b"x = 3\ny = 3\nz = 4\n");
    // Applying it again: the old text is gone and the new one is there.
    let (v, rc) = transform(&env, &args, "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E005"), "{v}");
    assert_eq!(v["error"]["note"], "probably already applied");
}

#[test]
fn exact_text_not_found_shows_closest_region() {
    let env = TestEnv::new();
    env.write(
        "lib.rs",
        "fn a() {}\n\nfn parse(input: &str) -> u32 {\n    input.len() as u32\n}\n",
    );
    let old = "fn parse(input: &str) -> u32 {\n    input.len() as u64\n}";
    let (v, rc) = transform(&env, &["lib.rs", "--old", old, "--new", "x"], "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E003"), "{v}");
    let note = v["error"]["note"].as_str().unwrap();
    assert!(note.contains("lines 3-5"), "{note}");
    assert!(note.contains("first difference at line 4"), "{note}");
    assert_eq!(v["error"]["span"]["start_line"], 3);
    // Lines that differ in whitespace alone are shown with it (trimmed, they looked equal).
    env.write("t.py", "def f(x):\n\tif x:\n\t\treturn 1\n\treturn 2\n");
    let old = "def f(x):\n    if x:\n        return 3";
    let (v, rc) = transform(&env, &["t.py", "--old", old, "--new", "x"], "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E003"), "{v}");
    let note = v["error"]["note"].as_str().unwrap();
    assert!(
        note.contains(r#"in whitespace only: the file has "\tif x:", --old has "    if x:""#),
        "{note}"
    );
}

#[test]
fn exact_text_line_ending_and_indentation_fallbacks() {
    let env = TestEnv::new();
    env.write("w.txt", "a\r\nb\r\nc\r\n");
    let (v, rc) = transform(&env, &["w.txt", "--old", "a\nb\n", "--new", "x\ny\n"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["matched_with"], "line_endings");
    assert_eq!(env.read("w.txt"), b"x\r\ny\r\nc\r\n");

    let src = "impl S {\n    fn f(&self) {\n        if self.a {\n            go();\n        }\n    }\n}\n";
    env.write("s.rs", src);
    let old = "if self.a {\n    go();\n}";
    let new = "if self.b {\n    stop();\n}";
    let (v, rc) = transform(&env, &["s.rs", "--old", old, "--new", new], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["matched_with"], "indentation");
    assert_eq!(
        String::from_utf8(env.read("s.rs")).unwrap(),
        src.replace("self.a", "self.b").replace("go()", "stop()")
    );
}

#[test]
fn expected_checksum_flag() {
    let env = TestEnv::new();
    env.write("a.txt", "abc\n");
    let args = ["a.txt", "--old", "b", "--new", "B", "--expected-checksum"];
    let (v, rc) = transform(&env, &[&args[..], &["0".repeat(64).as_str()]].concat(), "");
    assert_eq!((rc, code(&v)), (1, "LLM_E101"), "{v}");
    assert_eq!(env.read("a.txt"), b"abc\n");
    let good = sha(b"abc\n");
    let (v, rc) = transform(&env, &[&args[..], &[good.as_str()]].concat(), "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("a.txt"), b"aBc\n");
}

#[test]
fn search_output_chains_into_transform() {
    let env = TestEnv::new();
    env.write("src/a.rs", "fn old_one() {}\nfn old_two() {}\n");
    env.write("src/b.rs", "fn keep() { old_one(); }\n");
    let out = env
        .llm(&["search", "-r", "new_$1", r"old_(\w+)", "--json"])
        .output()
        .unwrap();
    let (v, rc) = transform(&env, &["--dry-run"], &String::from_utf8_lossy(&out.stdout));
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["source"], "search");
    assert_eq!(v["result"]["applied_count"], 3);
    assert_eq!(env.read("src/a.rs"), b"fn old_one() {}\nfn old_two() {}\n");
    let (v, rc) = transform(&env, &[], &String::from_utf8_lossy(&out.stdout));
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("src/a.rs"), b"fn new_one() {}\nfn new_two() {}\n");
    assert_eq!(env.read("src/b.rs"), b"fn keep() { new_one(); }\n");

    // The jsonl stream works too; a file changed after the search is rejected, not clobbered,
    // and the other file is not written either.
    let out = env
        .llm(&["search", "-r", "x_$1", r"new_(\w+)", "--format", "jsonl"])
        .output()
        .unwrap();
    env.write("src/b.rs", "fn keep() { new_one(); } // edited\n");
    let (v, rc) = transform(&env, &[], &String::from_utf8_lossy(&out.stdout));
    assert_eq!((rc, code(&v)), (1, "LLM_E101"), "{v}");
    assert_eq!(env.read("src/a.rs"), b"fn new_one() {}\nfn new_two() {}\n");
    assert_eq!(
        env.read("src/b.rs"),
        b"fn keep() { new_one(); } // edited\n"
    );

    // Search output without -r needs --replace.
    let out = env.llm(&["search", "new_two", "--json"]).output().unwrap();
    let (v, rc) = transform(&env, &[], &String::from_utf8_lossy(&out.stdout));
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E006"), "{v}");
    let (v, rc) = transform(
        &env,
        &["--replace", "three"],
        &String::from_utf8_lossy(&out.stdout),
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("src/a.rs"), b"fn new_one() {}\nfn three() {}\n");
}

/// A hand-written `llm ast --json` envelope in the SPEC's shape.
fn ast_output(file: &str, text: &str, matches: &[(usize, usize, &str, usize, usize)]) -> Value {
    let span = |s: usize, e: usize| {
        json!({"span_id": "x", "file_path": file, "byte_start": s, "byte_end": e,
        "start_line": 1, "start_col": s, "end_line": 1, "end_col": e})
    };
    let ms: Vec<Value> = matches
        .iter()
        .map(|(s, e, cap, cs, ce)| {
            json!({"match_id": "m", "span": span(*s, *e), "pattern_index": 0,
                   "captures": [{"name": cap, "span": span(*cs, *ce), "text": &text[*cs..*ce]}]})
        })
        .collect();
    json!({"schema_version": "1.0.0", "execution_id": "e", "command": "ast", "status": "ok",
           "query": {}, "data": {"matches": ms, "files": [{"file_path": file, "checksum": sha(text.as_bytes())}],
           "match_count": matches.len()}, "partial": false, "diagnostics": []})
}

#[test]
fn ast_and_find_output_chain_with_replace() {
    let env = TestEnv::new();
    let text = "fn alpha() {}\nfn beta() {}\n";
    env.write("m.rs", text);
    // Two function_item matches, each capturing its name; `$name` expands per match.
    let out = ast_output(
        "m.rs",
        text,
        &[(0, 13, "name", 3, 8), (14, 26, "name", 17, 21)],
    );
    let (v, rc) = transform(&env, &["--replace", "fn ${name}_v2() {}"], &out.to_string());
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["source"], "ast");
    assert_eq!(env.read("m.rs"), b"fn alpha_v2() {}\nfn beta_v2() {}\n");
    // Without --replace: nothing to apply.
    let (v, rc) = transform(&env, &[], &out.to_string());
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E006"));
    // The stale checksum (file changed since the query) is rejected.
    let (v, rc) = transform(&env, &["--replace", "x"], &out.to_string());
    assert_eq!((rc, code(&v)), (1, "LLM_E101"), "{v}");
    let (v, rc) = transform(
        &env,
        &["--replace", "$nope"],
        &ast_output(
            "m.rs",
            "fn alpha_v2() {}\nfn beta_v2() {}\n",
            &[(3, 11, "name", 3, 11)],
        )
        .to_string(),
    );
    assert_eq!((rc, code(&v)), (2, "TRANSFORM_E009"), "{v}");

    // find: matches carry `name`; `$name` is the symbol's name.
    let text = "def run():\n    pass\n";
    env.write("f.py", text);
    let find = json!({"command": "find", "status": "ok", "data": {
        "matches": [{"match_id": "m", "name": "run", "kind": "function", "symbol_id": "s",
                     "span": {"file_path": "f.py", "byte_start": 0, "byte_end": 19}}],
        "files": [{"file_path": "f.py", "checksum": sha(text.as_bytes())}]}});
    let (v, rc) = transform(
        &env,
        &["--replace", "def ${name}_fast():\n    return 1"],
        &find.to_string(),
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["source"], "find");
    assert_eq!(env.read("f.py"), b"def run_fast():\n    return 1\n");
}

#[test]
fn snapshot_human_dry_run_and_json() {
    let env = TestEnv::new();
    env.write("greet.py", "def greet(name):\n    print('hi', name)\n");
    redactions(env.path()).bind(|| {
        let out = env
            .llm(&[
                "transform",
                "greet.py",
                "--old",
                "'hi'",
                "--new",
                "'hello'",
                "--dry-run",
                "--color",
                "never",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        insta::assert_snapshot!(
            "transform_human_dry_run",
            String::from_utf8_lossy(&out.stdout)
        );
        let out = env
            .llm(&[
                "transform",
                "greet.py",
                "--old",
                "print(",
                "--new",
                "print((",
                "--color",
                "never",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        insta::assert_snapshot!(
            "transform_human_syntax_rejected",
            format!(
                "{}--- stderr\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        );
        let (v, _) = transform(&env, &["greet.py", "--old", "name", "--new", "who"], "");
        insta::assert_json_snapshot!("transform_json_ambiguous", v);
        let (v, _) = transform(
            &env,
            &["greet.py", "--old", "name", "--new", "who", "--all"],
            "",
        );
        insta::assert_json_snapshot!("transform_json_applied", v);
    });
}

#[test]
fn search_chain_on_a_non_utf8_file_and_without_checksums() {
    let env = TestEnv::new();
    env.write("latin1.txt", b"caf\xe9 old_x\n");
    let out = env
        .llm(&["search", "-r", "new", "old_x", "--json", "latin1.txt"])
        .output()
        .unwrap();
    let (v, rc) = transform(&env, &[], &String::from_utf8_lossy(&out.stdout));
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("latin1.txt"), b"caf\xe9 new\n");
    // Older search output without data.files: the recorded matched_text guards the edit.
    env.write("a.txt", "one two\n");
    let m = |text: &str| {
        json!({"command": "search", "status": "ok", "data": {"matches": [{
            "span": {"file_path": "a.txt", "byte_start": 4, "byte_end": 7},
            "matched_text": text, "replacement": "2"}]}})
        .to_string()
    };
    let (v, rc) = transform(&env, &[], &m("six"));
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E008"), "{v}");
    assert_eq!(env.read("a.txt"), b"one two\n");
    let (v, rc) = transform(&env, &[], &m("two"));
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("a.txt"), b"one 2\n");
}

#[test]
fn search_without_matches_changes_nothing_and_exits_1() {
    let env = TestEnv::new();
    env.write("a.txt", "abc\n");
    let out = env
        .llm(&["search", "-r", "x", "zzz", "--json"])
        .output()
        .unwrap();
    let (v, rc) = transform(&env, &[], &String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        (rc, code(&v), v["status"].as_str()),
        (1, "TRANSFORM_E002", Some("rejected")),
        "{v}"
    );
    assert_eq!(env.read("a.txt"), b"abc\n");
}

#[test]
fn retry_of_an_edit_whose_new_text_contains_the_old_is_already_applied() {
    let env = TestEnv::new();
    env.write("lib.rs", "mod display;\r\nmod parse;\r\n");
    let args = [
        "lib.rs",
        "--old",
        "mod display;",
        "--new",
        "mod bump;\nmod display;",
    ];
    let (v, rc) = transform(&env, &args, "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        env.read("lib.rs"),
        b"mod bump;\r\nmod display;\r\nmod parse;\r\n"
    );
    // Run twice: refused, nothing inserted twice.
    let (v, rc) = transform(&env, &args, "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E005"), "{v}");
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["span"]["start_line"], 1);
    assert_eq!(
        env.read("lib.rs"),
        b"mod bump;\r\nmod display;\r\nmod parse;\r\n"
    );
    // Appending after the old text, and --all: every occurrence in place is refused too.
    env.write("a.py", "x = f(1)\ny = f(1)\n");
    let args = ["a.py", "--old", "f(1)", "--new", "f(1) + 1", "--all"];
    assert_eq!(transform(&env, &args, "").1, 0);
    let (v, rc) = transform(&env, &args, "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E005"), "{v}");
    assert_eq!(env.read("a.py"), b"x = f(1) + 1\ny = f(1) + 1\n");
    // With an indentation offset as well.
    env.write("b.py", "def f():\n    a = 1\n    return a\n");
    let args = ["b.py", "--old", "return a", "--new", "a += 1\nreturn a"];
    assert_eq!(transform(&env, &args, "").1, 0);
    let (v, rc) = transform(&env, &args, "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E005"), "{v}");
    // A new text that merely contains the old one elsewhere is a normal edit.
    env.write("c.txt", "a\nab\n");
    let (v, rc) = transform(&env, &["c.txt", "--old", "a\n", "--new", "xa\n"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("c.txt"), b"xa\nab\n");
}

/// An occurrence of the old text inside the new text where it already stands is no reason to
/// refuse while another stands on its own: that one is the edit (it was `TRANSFORM_E005`,
/// "only as part of --new text", and the change was never made).
#[test]
fn old_text_on_its_own_beside_the_new_text_is_replaced() {
    let env = TestEnv::new();
    env.write("r.txt", "foo\nfoo_bar\n");
    let (v, rc) = transform(&env, &["r.txt", "--old", "foo\n", "--new", "foo_bar\n"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("r.txt"), b"foo_bar\nfoo_bar\n");
    env.write("c.txt", "call(a)\ncall(a, b)\n");
    let (v, rc) = transform(
        &env,
        &["c.txt", "--old", "call(a", "--new", "call(a, b"],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("c.txt"), b"call(a, b)\ncall(a, b)\n");
    // Two on their own beside one in place: which one is meant is unknown.
    env.write("t.txt", "foo\nfoo_bar\nfoo\n");
    let (v, rc) = transform(&env, &["t.txt", "--old", "foo", "--new", "foo_bar"], "");
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E004"), "{v}");
    assert_eq!(env.read("t.txt"), b"foo\nfoo_bar\nfoo\n");
}

#[test]
fn old_text_mismatch_with_a_matching_checksum_says_the_position_is_wrong() {
    let env = TestEnv::new();
    env.write("a.txt", "alpha\nbeta\ngamma\n");
    let sum = sha(&env.read("a.txt"));
    let req = json!({"file_path": "a.txt", "expected_checksum": sum,
        "edits": [{"byte_start": 0, "byte_end": 4, "old_content": "beta", "new_content": "BETA"}]});
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!((rc, code(&v)), (1, "TRANSFORM_E008"), "{v}");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("unchanged") && msg.contains("\"alph\""),
        "{msg}"
    );
    assert!(!msg.contains("changed since"), "{msg}");
    let fix = v["error"]["remediation"].as_str().unwrap();
    assert!(fix.contains("[6, 10)") && fix.contains("line 2"), "{fix}");
    // Without a checksum the file may have changed: that is what is said.
    let req = json!({"file_path": "a.txt",
        "edits": [{"byte_start": 0, "byte_end": 4, "old_content": "beta", "new_content": "BETA"}]});
    let (v, _) = transform(&env, &[], &req.to_string());
    assert!(
        v["error"]["remediation"]
            .as_str()
            .unwrap()
            .contains("changed"),
        "{v}"
    );
    assert_eq!(env.read("a.txt"), b"alpha\nbeta\ngamma\n");
}

/// What an attack run on `transform --old/--new` found applied with a wrong result.
#[test]
fn exact_edits_respect_crlf_pairs_overlaps_and_the_matched_indentation() {
    let env = TestEnv::new();
    let t = |file: &str, old: &str, new: &str| {
        env.json(&["transform", file, "--old", old, "--new", new, "--json"])
    };
    // An --old starting with `\n` in a CRLF file is the line break, not the `\n` after `\r`
    // (that left `a\r\r\n`).
    env.write("c.txt", "a\r\nb\r\n");
    let (v, code) = t("c.txt", "\nb", "\nc");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("c.txt"), b"a\r\nc\r\n");
    // `aba` occurs twice in `ababa` (overlapping): ambiguous, not the first one.
    env.write("o.txt", "ababa");
    let (v, code) = t("o.txt", "aba", "X");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("TRANSFORM_E004")),
        "{v}"
    );
    assert_eq!(env.read("o.txt"), b"ababa");
    // Matched with an indentation offset: the new text goes in the same frame, its second
    // line a level deeper as in the old text (it was taken as already placed, a level short).
    env.write(
        "h.sh",
        "f() {\n    case x in\n        a)\n            r\n            ;;\n    esac\n}\n",
    );
    let (v, code) = t(
        "h.sh",
        "case x in\n    a)\n        r\n        ;;",
        "case y in\n    a)\n        r\n        ;;",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("h.sh"),
        b"f() {\n    case y in\n        a)\n            r\n            ;;\n    esac\n}\n"
    );
    // An --old that starts with a blank line is matched dedented the same way.
    env.write("k.txt", "x\n\na\nb\n");
    let (v, code) = t("k.txt", "\n  a\n  b", "\n  A\n  B");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("k.txt"), b"x\n\nA\nB\n");
}
