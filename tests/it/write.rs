//! `llm write`: validated creation and replacement, run through the real binary.

use crate::util::{check_span, redactions, sha, TestEnv};
use serde::Deserialize;
use serde_json::Value;

/// `result` of `llm write`, field by field: an unknown or missing field fails the test.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct WriteResult {
    path: String,
    language: Option<String>,
    created: bool,
    checksum: String,
    before_checksum: Option<String>,
    bytes: usize,
    lines: usize,
    written: bool,
    validators: Vec<Validator>,
    lsp_used: Option<String>,
    diagnostics: Vec<Value>,
    dry_run: bool,
    files: Vec<Value>,
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
struct Validator {
    name: String,
    version: Option<String>,
    duration_ms: u64,
    verdict: String,
    diagnostics: Vec<Value>,
}

fn result(v: &Value) -> WriteResult {
    serde_json::from_value(v["result"].clone()).expect("result has the documented shape")
}

/// A Cargo package `demo` at `dir` (relative to the env) with the given lib.rs.
fn krate(env: &TestEnv, dir: &str, lib: &str) {
    env.write(
        &format!("{dir}/Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    env.write(&format!("{dir}/src/lib.rs"), lib);
}

fn require_pylsp() {
    let ok = std::process::Command::new("pylsp")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "pylsp is not installed; `.ci/run` installs it (`pip install python-lsp-server pyflakes`)"
    );
}

#[test]
fn valid_python_and_rust_files_are_created() {
    let env = TestEnv::new();
    let py = "def double(x):\n    return 2 * x\n";
    let (v, code) = env.json(&["write", "pkg/m.py", "--parents", "--json", "--content", py]);
    assert_eq!((code, v["status"].as_str()), (0, Some("ok")), "{v:#}");
    assert_eq!(v["operation_type"], "write");
    let r = result(&v);
    assert_eq!(r.path, "pkg/m.py");
    assert_eq!(r.language.as_deref(), Some("python"));
    assert!(r.created && r.written && r.before_checksum.is_none());
    assert_eq!((r.bytes, r.lines), (py.len(), 2));
    assert_eq!(r.checksum, sha(py.as_bytes()));
    assert_eq!(r.validators.len(), 1);
    assert_eq!(
        (
            r.validators[0].name.as_str(),
            r.validators[0].verdict.as_str()
        ),
        ("tree-sitter", "passed")
    );
    assert_eq!(env.read("pkg/m.py"), py.as_bytes());

    let rs = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
    let (v, code) = env.json(&["write", "lib.rs", "--json", "--content", rs]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(result(&v).language.as_deref(), Some("rust"));
    assert_eq!(env.read("lib.rs"), rs.as_bytes());
}

#[test]
fn invalid_new_file_is_not_created_and_invalid_overwrite_keeps_the_old_file() {
    let env = TestEnv::new();
    let bad = "fn main() {\n    let x = ;\n}\n";
    let (v, code) = env.json(&["write", "src/main.rs", "-p", "--json", "--content", bad]);
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")), "{v:#}");
    assert_eq!(v["error"]["code"], "WRITE_E002");
    assert!(
        !env.path().join("src").exists(),
        "no file, no directory left"
    );
    let r = result(&v);
    assert!(!r.written);
    assert_eq!(r.validators[0].verdict, "failed");
    let d = &r.diagnostics[0];
    assert_eq!(d["level"], "error");
    assert_eq!(d["span"]["start_line"], 2);

    let old = "def f():\n    return 1\n";
    env.write("m.py", old);
    let (v, code) = env.json(&[
        "write",
        "m.py",
        "--overwrite",
        "--json",
        "--content",
        "def f(:\n",
    ]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(env.read("m.py"), old.as_bytes());
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("old file is intact"));
}

#[test]
fn existing_file_needs_overwrite_and_the_right_checksum() {
    let env = TestEnv::new();
    env.write("a.py", "x = 1\n");
    let (v, code) = env.json(&["write", "a.py", "--json", "--content", "x = 2\n"]);
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")));
    assert_eq!(v["error"]["code"], "LLM_E111");
    let (v, code) = env.json(&[
        "write",
        "a.py",
        "--overwrite",
        "--expected-checksum",
        &sha(b"nope"),
        "--json",
        "--content",
        "x = 2\n",
    ]);
    assert_eq!((code, v["error"]["code"].as_str()), (1, Some("LLM_E101")));
    assert_eq!(env.read("a.py"), b"x = 1\n");
    let (v, code) = env.json(&[
        "write",
        "a.py",
        "--overwrite",
        "--expected-checksum",
        &sha(b"x = 1\n"),
        "--json",
        "--content",
        "x = 2\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert_eq!(r.before_checksum.as_deref(), Some(sha(b"x = 1\n").as_str()));
    assert!(!r.created);
    assert_eq!(env.read("a.py"), b"x = 2\n");
}

#[test]
fn type_error_is_caught_only_by_check_and_the_old_file_is_restored() {
    let env = TestEnv::new();
    let old = "pub fn f() -> i32 {\n    1\n}\n";
    krate(&env, "crate", old);
    let bad = "pub fn f() -> i32 {\n    \"one\"\n}\n";
    let args = [
        "write",
        "crate/src/lib.rs",
        "--overwrite",
        "--json",
        "--content",
        bad,
    ];
    let (v, code) = env.json(&[&args[..], &["--check", "--dry-run"]].concat());
    assert_eq!(code, 0, "a dry run cannot place the file for cargo: {v:#}");
    assert_eq!(result(&v).validators[1].verdict, "skipped");

    let (v, code) = env.json(&[&args[..], &["--check"]].concat());
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")), "{v:#}");
    assert_eq!(env.read("crate/src/lib.rs"), old.as_bytes(), "restored");
    let r = result(&v);
    let cargo = &r.validators[1];
    assert_eq!(
        (cargo.name.as_str(), cargo.verdict.as_str()),
        ("cargo check", "failed")
    );
    assert!(cargo.version.as_deref().unwrap().starts_with("cargo "));
    let e = &r.diagnostics[0];
    assert_eq!(
        (e["tool"].as_str(), e["code"].as_str()),
        (Some("cargo"), Some("E0308"))
    );
    check_span(env.path(), &{
        // The span is in the rejected content; check it against that content on disk.
        env.write("probe/lib.rs", bad);
        let mut s = e["span"].clone();
        s["file_path"] = "probe/lib.rs".into();
        s["span_id"] = crate::util::span_id(
            "probe/lib.rs",
            s["byte_start"].as_u64().unwrap() as usize,
            s["byte_end"].as_u64().unwrap() as usize,
        )
        .into();
        s
    });
    assert_eq!(
        &bad[e["span"]["byte_start"].as_u64().unwrap() as usize
            ..e["span"]["byte_end"].as_u64().unwrap() as usize],
        "\"one\""
    );

    // Without --check, the syntax is fine and the file is written.
    let (v, code) = env.json(&args);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("crate/src/lib.rs"), bad.as_bytes());
}

#[test]
fn warnings_do_not_reject_and_a_new_module_file_is_checked_in_place() {
    let env = TestEnv::new();
    krate(&env, "c", "mod util;\npub use util::g;\n");
    env.write("c/src/util.rs", "pub fn g() -> i32 { 1 }\n");
    let text = "pub fn g() -> i32 {\n    let unused = 2;\n    1\n}\n";
    let (v, code) = env.json(&[
        "write",
        "c/src/util.rs",
        "--overwrite",
        "--check",
        "--json",
        "--content",
        text,
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].verdict, "passed");
    let w = &r.diagnostics[0];
    assert_eq!(
        (w["level"].as_str(), w["code"].as_str()),
        (Some("warning"), Some("unused_variables"))
    );
    assert_eq!(
        v["diagnostics"][0]["code"], "unused_variables",
        "warnings are in the envelope too"
    );
    assert_eq!(env.read("c/src/util.rs"), text.as_bytes());
}

#[test]
fn python_check_catches_what_only_the_compiler_sees() {
    let env = TestEnv::new();
    let text = "x = 1\nreturn x\n";
    let (v, code) = env.json(&["write", "m.py", "--json", "--content", text]);
    assert_eq!(code, 0, "tree-sitter accepts it: {v:#}");
    let (v, code) = env.json(&["write", "n.py", "--check", "--json", "--content", text]);
    assert_eq!(code, 1, "{v:#}");
    assert!(!env.path().join("n.py").exists());
    assert!(!env.path().join("__pycache__").exists());
    let r = result(&v);
    assert_eq!(r.validators[1].name, "python compile");
    assert_eq!(r.diagnostics[0]["code"], "SyntaxError");
    assert_eq!(r.diagnostics[0]["span"]["start_line"], 2);
}

#[test]
fn language_server_catches_an_undefined_name() {
    require_pylsp();
    let env = TestEnv::new();
    let text = "def total(xs):\n    return sum(xs) + undefined_name\n";
    let (v, code) = env.json(&[
        "write",
        "app.py",
        "--lsp",
        "pylsp",
        "--json",
        "--content",
        text,
    ]);
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")), "{v:#}");
    assert!(!env.path().join("app.py").exists());
    let r = result(&v);
    assert_eq!(r.lsp_used.as_deref(), Some("pylsp"));
    assert_eq!(r.validators[1].name, "pylsp");
    assert_eq!(r.validators[1].verdict, "failed");
    let e = &r.diagnostics[0];
    assert_eq!(e["tool"], "pyflakes");
    assert_eq!(e["message"], "undefined name 'undefined_name'");
    assert_eq!(e["span"]["start_line"], 2);
    assert_eq!(e["span"]["start_col"], 21);

    // The same server from the environment default; clean code is written.
    let out = env
        .llm(&[
            "write",
            "ok.py",
            "--json",
            "--content",
            "def f(x):\n    return x\n",
        ])
        .env("LLM_LSP_PYTHON", "pylsp")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "ok", "{v:#}");
    assert_eq!(result(&v).validators[1].verdict, "passed");
}

#[test]
fn a_server_that_never_answers_is_reported_not_waited_for() {
    let env = TestEnv::new();
    let started = std::time::Instant::now();
    let (v, code) = env.json(&[
        "write",
        "m.py",
        "--lsp",
        "sh -c 'cat >/dev/null'",
        "--lsp-timeout",
        "1",
        "--json",
        "--content",
        "x = 1\n",
    ]);
    assert!(started.elapsed().as_secs() < 8);
    assert_eq!(code, 1, "a timeout is never a pass: {v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].verdict, "timed_out");
    assert_eq!(r.diagnostics[0]["code"], "CHECK_E002");
    assert!(!env.path().join("m.py").exists());

    let (v, code) = env.json(&[
        "write",
        "m.py",
        "--lsp",
        "llm-no-such-server",
        "--force",
        "--json",
        "--content",
        "x = 1\n",
    ]);
    assert_eq!(code, 0, "--force writes anyway: {v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].verdict, "not_available");
    assert_eq!(r.diagnostics[0]["level"], "warning");
    assert!(r.diagnostics[0]["remediation"]
        .as_str()
        .unwrap()
        .contains("install"));
    assert!(env.path().join("m.py").exists());
}

#[test]
fn elision_markers_on_a_drastic_shrink_are_refused_unless_forced() {
    let env = TestEnv::new();
    let old: String = (0..40)
        .map(|i| format!("def f{i}(x):\n    return x + {i}\n\n"))
        .collect();
    env.write("big.py", &old);
    let short = "def f0(x):\n    return x\n\n# ... rest unchanged ...\n";
    let (v, code) = env.json(&[
        "write",
        "big.py",
        "--overwrite",
        "--json",
        "--content",
        short,
    ]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("WRITE_E003")),
        "{v:#}"
    );
    assert_eq!(env.read("big.py"), old.as_bytes());
    let (v, code) = env.json(&[
        "write",
        "big.py",
        "--overwrite",
        "--force",
        "--json",
        "--content",
        short,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("big.py"), short.as_bytes());
}

#[test]
fn non_utf8_content_is_refused_unless_forced() {
    let env = TestEnv::new();
    let bytes = b"x = '\xff'\n";
    env.write("in.bin", bytes);
    let (v, code) = env.json(&["write", "m.py", "--content-file", "in.bin", "--json"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("WRITE_E003")),
        "{v:#}"
    );
    assert!(!env.path().join("m.py").exists());
    let (_, code) = env.json(&[
        "write",
        "m.py",
        "--content-file",
        "in.bin",
        "--force",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(env.read("m.py"), bytes);
}

#[test]
fn crlf_and_bom_content_is_written_as_given_from_stdin() {
    let env = TestEnv::new();
    let text = "\u{feff}def f():\r\n    return 'é'\r\n";
    let out = env
        .llm(&["write", "w.py", "--check", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "ok", "{v:#}");
    assert_eq!(env.read("w.py"), text.as_bytes());
    assert_eq!(result(&v).files[0]["bom"], true);
    assert_eq!(
        result(&v).validators[1].verdict,
        "passed",
        "compile() accepts BOM + CRLF"
    );
}

#[test]
fn parents_are_needed_for_new_directories() {
    let env = TestEnv::new();
    let (v, code) = env.json(&["write", "a/b/c.py", "--json", "--content", "x = 1\n"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("WRITE_E004")),
        "{v:#}"
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("a/b"));
    let (v, code) = env.json(&[
        "write",
        "a/b/c.py",
        "--parents",
        "--json",
        "--content",
        "x = 1\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(env.read("a/b/c.py"), b"x = 1\n");
}

#[test]
fn writing_outside_the_root_is_refused() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join("ws")).unwrap();
    let (v, code) = env.json(&[
        "write",
        "../escape.py",
        "--root",
        ".",
        "--json",
        "--content",
        "x = 1\n",
    ]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E107")),
        "{v:#}"
    );
    let (v, code) = env.json(&[
        "write",
        "x.py",
        "--root",
        "ws",
        "--json",
        "--content",
        "x = 1\n",
    ]);
    assert_eq!(v["error"]["code"], "LLM_E107", "{v:#}");
    assert_eq!(code, 2);
    assert!(!env.path().join("x.py").exists());
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), env.path().join("ws/link")).unwrap();
        let (v, code) = env.json(&[
            "write",
            "ws/link/new/deep.py",
            "--parents",
            "--root",
            "ws",
            "--json",
            "--content",
            "x = 1\n",
        ]);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (2, Some("LLM_E107")),
            "{v:#}"
        );
        assert!(
            !outside.path().join("new").exists(),
            "no directory made outside the root"
        );
    }
}

#[test]
fn dry_run_writes_nothing_and_shows_a_diff() {
    let env = TestEnv::new();
    env.write("m.py", "x = 1\n");
    let (v, code) = env.json(&[
        "write",
        "m.py",
        "--overwrite",
        "--dry-run",
        "--json",
        "--content",
        "x = 2\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert!(r.dry_run && !r.written);
    assert!(r.files[0]["diff"].as_str().unwrap().contains("+x = 2"));
    assert_eq!(env.read("m.py"), b"x = 1\n");
}

#[test]
fn unknown_language_is_written_without_validation_and_says_so() {
    let env = TestEnv::new();
    let (v, code) = env.json(&[
        "write",
        "notes.txt",
        "--check",
        "--json",
        "--content",
        "{{{",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert!(r.language.is_none());
    assert_eq!(r.validators[0].verdict, "skipped");
    assert!(r.diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .contains("without syntax validation"));
    // The remediation names every language (it named Rust and Python only).
    let fix = r.diagnostics[0]["remediation"].as_str().unwrap();
    assert!(fix.contains("|go|") && fix.contains("|bash"), "{fix}");
    let (v, code) = env.json(&[
        "write",
        "x.txt",
        "--lang",
        "pyhton",
        "--json",
        "--content",
        "",
    ]);
    assert_eq!((code, v["error"]["code"].as_str()), (2, Some("WRITE_E005")));
    assert!(v["error"]["remediation"]
        .as_str()
        .unwrap()
        .contains("python"));
    let (v, code) = env.json(&[
        "write",
        "x.txt",
        "--lang",
        "python",
        "--json",
        "--content",
        "def f(:",
    ]);
    assert_eq!(code, 1, "--lang validates: {v:#}");
}

#[test]
fn rejected_envelope_snapshot() {
    let env = TestEnv::new();
    let (v, _) = env.json(&[
        "write",
        "m.py",
        "--json",
        "--content",
        "def f(:\n    pass\n",
    ]);
    let mut settings = redactions(env.path());
    settings.add_filter(r#""duration_ms": \d+"#, r#""duration_ms": "[MS]""#);
    settings.bind(|| insta::assert_snapshot!(serde_json::to_string_pretty(&v).unwrap()));
}

#[test]
fn rejected_new_module_in_new_directories_leaves_nothing_and_force_keeps_it() {
    let env = TestEnv::new();
    krate(&env, "c", "pub mod deep { pub mod er; }\n");
    let bad = "pub fn f() -> u8 { \"no\" }\n";
    let args = [
        "write",
        "c/src/deep/er.rs",
        "--parents",
        "--check",
        "--json",
        "--content",
        bad,
    ];
    let (v, code) = env.json(&args);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        !env.path().join("c/src/deep").exists(),
        "created directory removed"
    );
    let (v, code) = env.json(&[&args[..], &["--force"]].concat());
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert!(r.written);
    assert_eq!(r.diagnostics[0]["code"], "E0308");
    assert_eq!(r.diagnostics[0]["level"], "warning");
    assert!(r.diagnostics[0]["note"]
        .as_str()
        .unwrap()
        .contains("--force"));
    assert_eq!(env.read("c/src/deep/er.rs"), bad.as_bytes());
}

#[test]
fn check_on_a_rust_file_outside_any_package_is_skipped_not_failed() {
    let env = TestEnv::new();
    let (v, code) = env.json(&[
        "write",
        "loose.rs",
        "--check",
        "--json",
        "--content",
        "fn main() {}\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].verdict, "skipped");
    assert_eq!(r.diagnostics[0]["code"], "CHECK_E004");
    assert!(env.path().join("loose.rs").exists());
}

#[test]
fn a_build_script_does_not_make_an_uncompiled_file_pass() {
    // Issue 13: with a build.rs, cargo's build-script artifact has no `name-hash.d` beside it,
    // and the check used to pass a file cargo never compiled.
    let env = TestEnv::new();
    krate(&env, "mini", "pub fn ok() {}\n");
    env.write("mini/build.rs", "fn main() {}\n");
    let bad = "pub fn f() -> u32 {\n    \"x\"\n}\n";
    let (v, code) = env.json(&[
        "write",
        "mini/src/bad.rs",
        "--check",
        "--json",
        "--content",
        bad,
    ]);
    assert_eq!(code, 0, "{v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].name, "cargo check");
    assert_eq!(r.validators[1].verdict, "skipped", "{v:#}");
    assert_eq!(r.diagnostics[0]["code"], "CHECK_E004");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("cargo check skipped") && !message.contains("cargo check passed"),
        "{message}"
    );

    // Once a `mod` reaches it, cargo compiles it and the type error rejects the write.
    env.write("mini/src/lib.rs", "pub fn ok() {}\nmod bad2;\n");
    let (v, code) = env.json(&[
        "write",
        "mini/src/bad2.rs",
        "--check",
        "--json",
        "--content",
        bad,
    ]);
    assert_eq!(code, 1, "{v:#}");
    let r = result(&v);
    assert_eq!(r.validators[1].verdict, "failed");
    assert_eq!(r.diagnostics[0]["code"], "E0308");
    assert_eq!(r.diagnostics[0]["span"]["start_line"], 2);
    assert!(!env.path().join("mini/src/bad2.rs").exists());
    // And the build script itself is a file cargo compiles.
    let (v, code) = env.json(&[
        "write",
        "mini/build.rs",
        "--overwrite",
        "--check",
        "--json",
        "--content",
        "fn main() { let x: u8 = \"no\"; }\n",
    ]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(env.read("mini/build.rs"), b"fn main() {}\n");
}

#[test]
fn shell_scripts_are_checked_with_bash_n() {
    let env = TestEnv::new();
    // An error tree-sitter-bash does not see (a stray `done`), so the syntax gate lets it
    // through and `bash -n` must catch it.
    let bad = "#!/bin/bash\nf() {\n  echo \"é\"\n  true\ndone\n}\n";
    let (v, code) = env.json(&[
        "write",
        "bin/run.sh",
        "--parents",
        "--check",
        "--json",
        "--content",
        bad,
    ]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["status"], "rejected");
    let r = result(&v);
    let bash = r
        .validators
        .iter()
        .find(|c| c.name == "bash -n")
        .expect("bash -n ran");
    assert_eq!(bash.verdict, "failed");
    let d = &bash.diagnostics[0];
    assert_eq!(d["tool"], "bash");
    assert_eq!(d["span"]["start_line"], 5);
    let s = &d["span"];
    let (a, b) = (
        s["byte_start"].as_u64().unwrap() as usize,
        s["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&bad[a..b], "done", "{d:#}");
    assert_eq!(s["start_col"], 0);
    assert!(!env.path().join("bin/run.sh").exists());

    let good = "#!/bin/bash\nf() {\n  echo \"é\"\n}\n";
    let (v, code) = env.json(&[
        "write",
        "bin/run.sh",
        "--parents",
        "--check",
        "--json",
        "--content",
        good,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert!(
        v["message"].as_str().unwrap().contains("bash -n passed"),
        "{v:#}"
    );
    // Overwriting keeps judging the whole new text.
    let (v, code) = env.json(&[
        "write",
        "bin/run.sh",
        "--overwrite",
        "--check",
        "--json",
        "--content",
        bad,
    ]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(env.read("bin/run.sh"), good.as_bytes());
}

#[test]
fn csharp_check_is_not_available_and_never_a_pass() {
    let env = TestEnv::new();
    let (v, code) = env.json(&[
        "write",
        "A.cs",
        "--check",
        "--json",
        "--content",
        "class A {}\n",
    ]);
    assert_eq!(code, 1, "{v:#}");
    let r = result(&v);
    let c = r.validators.last().unwrap();
    assert_eq!(c.verdict, "not_available");
    assert_eq!(c.diagnostics[0]["code"], "CHECK_E001");
    assert!(c.diagnostics[0]["remediation"]
        .as_str()
        .unwrap()
        .contains("--lsp"));
    assert!(!env.path().join("A.cs").exists());
}

/// True when `program` runs; under CI (`CI` set, as `.ci/run` does) a missing tool fails the
/// test, elsewhere it is skipped with a loud message.
fn have(program: &str) -> bool {
    let ok = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "`{program}` is not installed; `.ci/run` installs every checker the tests need"
        );
        eprintln!("SKIPPED: `{program}` is not installed (CI would fail here)");
    }
    ok
}

#[test]
fn typescript_is_checked_by_tsc_in_its_project_and_restored_when_rejected() {
    if !have("tsc") {
        return;
    }
    let env = TestEnv::new();
    env.write(
        "web/tsconfig.json",
        r#"{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}"#,
    );
    env.write(
        "web/src/util.ts",
        "export function one(): number {\n  return 1;\n}\n",
    );
    let old = "import { one } from \"./util\";\nexport const n: number = one();\n";
    env.write("web/src/main.ts", old);
    let bad = "import { one } from \"./util\";\nexport const n: string = one();\n";
    let (v, code) = env.json(&[
        "write",
        "web/src/main.ts",
        "--overwrite",
        "--check",
        "--json",
        "--content",
        bad,
    ]);
    assert_eq!(code, 1, "{v:#}");
    let r = result(&v);
    let tsc = r
        .validators
        .iter()
        .find(|c| c.name == "tsc --noEmit")
        .expect("tsc ran");
    assert_eq!(tsc.verdict, "failed");
    assert_eq!(tsc.diagnostics[0]["code"], "TS2322");
    assert_eq!(tsc.diagnostics[0]["span"]["start_line"], 2);
    assert_eq!(env.read("web/src/main.ts"), old.as_bytes(), "restored");

    let good = "import { one } from \"./util\";\nexport const n: number = one() + 1;\n";
    let (v, code) = env.json(&[
        "write",
        "web/src/main.ts",
        "--overwrite",
        "--check",
        "--json",
        "--content",
        good,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("tsc --noEmit passed"),
        "{v:#}"
    );
    // Outside the tsconfig's `include`, and without any tsconfig: skipped, never passed.
    let (v, code) = env.json(&[
        "write",
        "web/other.ts",
        "--check",
        "--json",
        "--content",
        "export const x = 1;\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("tsc --noEmit skipped"),
        "{v:#}"
    );
    let (v, code) = env.json(&[
        "write",
        "loose.ts",
        "--check",
        "--json",
        "--content",
        "export const x = 1;\n",
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("tsc --noEmit skipped"),
        "{v:#}"
    );
}

/// `patch --check` runs each checker as `write --check` does, from a relative `--file` too:
/// gcc found the file's own `#include "local.h"` nowhere (so both runs failed alike, and a new
/// error passed), javac had no source path (a call into another class of the project was
/// rejected), and tsc ran in directory "" (reported as not installed).
#[test]
fn patch_check_runs_checkers_on_a_relative_file_as_write_does() {
    let env = TestEnv::new();
    let patch = |file: &str, symbol: &str, body: &str| {
        env.json(&[
            "patch",
            "--file",
            file,
            "--symbol",
            symbol,
            "--body",
            "--with-text",
            body,
            "--check",
            "--json",
        ])
    };
    if have("gcc") {
        env.write("c/local.h", "#define LOCAL 3\n");
        env.write(
            "c/m.c",
            "#include \"local.h\"\n\nint g(void) { return LOCAL; }\n",
        );
        let (v, code) = patch("c/m.c", "g", "return nope;");
        assert_eq!(code, 1, "{v}");
        assert!(v.to_string().contains("nope"), "{v}");
        let (v, code) = patch("c/m.c", "g", "return LOCAL + 1;");
        assert_eq!(code, 0, "{v}");
    }
    if have("javac") {
        env.write(
            "j/U.java",
            "public class U { public static int one() { return 1; } }\n",
        );
        env.write(
            "j/P.java",
            "public class P {\n    int f() { return 1; }\n}\n",
        );
        let (v, code) = patch("j/P.java", "f", "return U.one();");
        assert_eq!(code, 0, "{v}");
    }
    if have("tsc") {
        env.write("tsconfig.json", "{\"include\": [\"src\"]}\n");
        env.write("src/a.ts", "export function g(): number { return 1; }\n");
        let (v, code) = patch("src/a.ts", "g", "return 2;");
        assert_eq!(code, 0, "{v}");
        let (v, code) = patch("src/a.ts", "g", "return \"two\";");
        assert_eq!(code, 1, "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("tsc --noEmit: failed"),
            "{v}"
        );
    }
}

/// `patch --check-timeout` and `apply --check-timeout` bound each checker run (they had 300 s
/// and no flag: a hung checker held a run ten minutes); a checker stopped so is no pass, and
/// the rejection says to see to the checker, not to fix the text.
#[test]
fn patch_and_apply_take_a_check_timeout() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let bin = env.path().join("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("php"), "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(bin.join("php"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    env.write("p.php", "<?php\nfunction g() {\n  return 1;\n}\n");
    let batch = "{\"op\":\"transform\",\"file_path\":\"p.php\",\"old\":\"return 1;\",\"new\":\"return 3;\"}\n";
    for (args, stdin) in [
        (
            vec![
                "patch",
                "--file",
                "p.php",
                "--symbol",
                "g",
                "--body",
                "--with-text",
                "return 2;",
            ],
            "",
        ),
        (vec!["apply"], batch),
    ] {
        let started = std::time::Instant::now();
        let out = env
            .llm(&args)
            .args(["--check", "--check-timeout", "1", "--json"])
            .env("PATH", &path)
            .write_stdin(stdin)
            .output()
            .unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{args:?}"
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{v}");
        let text = v.to_string();
        assert!(
            text.contains("timed_out") && text.contains("CHECK_E002"),
            "{v}"
        );
        assert!(
            v["error"]["remediation"]
                .as_str()
                .unwrap()
                .contains("no checker could judge"),
            "{v}"
        );
        assert_eq!(
            env.read("p.php"),
            b"<?php\nfunction g() {\n  return 1;\n}\n"
        );
    }
}
