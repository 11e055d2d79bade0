//! `llm apply` through the binary: Codex patch scenarios (after the published apply-patch
//! suite, except that a failure here changes nothing), unified diffs of real `git` commits
//! replayed byte for byte, and JSONL batches that are all or nothing.

use crate::util::TestEnv;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Runs `llm apply --json ARGS` with `stdin`.
fn apply(env: &TestEnv, args: &[&str], stdin: &str) -> (Value, i32) {
    let mut all = vec!["apply", "--json"];
    all.extend_from_slice(args);
    env.json_stdin(&all, stdin)
}

/// Every file under `dir` (but `.git`), with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n == ".git" || n == ".llm") {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn write_tree(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    for (rel, bytes) in files {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

// ---- Codex patches ----

#[test]
fn codex_add_file() {
    let env = TestEnv::new();
    let (v, code) = apply(
        &env,
        &[],
        "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("bar.md"), b"This is a new file\n");
    assert_eq!(v["result"]["format"], "codex");
    assert_eq!(v["result"]["operations"][0]["op"], "add");
    assert_eq!(v["result"]["files"][0]["created"], true);
}

#[test]
fn codex_multiple_operations_and_nested_add() {
    let env = TestEnv::new();
    env.write("delete.txt", "obsolete\n");
    env.write("modify.txt", "line1\nline2\n");
    let patch = "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    let t = tree(env.path());
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t["nested/new.txt"], b"created\n");
    assert_eq!(t["modify.txt"], b"line1\nchanged\n");
    let deleted: Vec<&Value> = v["result"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["deleted"] == true)
        .collect();
    assert_eq!(deleted.len(), 1);
}

#[test]
fn codex_update_with_several_chunks() {
    let env = TestEnv::new();
    env.write("multi.txt", "line1\nline2\nline3\nline4\n");
    let patch = "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("multi.txt"), b"line1\nchanged2\nline3\nchanged4\n");
    assert_eq!(v["result"]["hunks"].as_array().unwrap().len(), 2);
    assert_eq!(v["result"]["hunks"][1]["start_line"], 4);
}

#[test]
fn codex_move_to_a_new_directory() {
    let env = TestEnv::new();
    env.write("old/name.txt", "old content\n");
    env.write("old/other.txt", "unrelated file\n");
    let patch = "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    let t = tree(env.path());
    assert_eq!(
        t.keys().collect::<Vec<_>>(),
        ["old/other.txt", "renamed/dir/name.txt"]
    );
    assert_eq!(t["renamed/dir/name.txt"], b"new content\n");
    assert_eq!(v["result"]["operations"][0]["to"], "renamed/dir/name.txt");
}

#[test]
fn codex_move_onto_an_existing_file_and_add_over_one_are_refused() {
    let env = TestEnv::new();
    env.write("old/name.txt", "from\n");
    env.write("renamed/dir/name.txt", "existing\n");
    let before = tree(env.path());
    let patch = "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E005")),
        "{v}"
    );
    let (v, code) = apply(
        &env,
        &[],
        "*** Begin Patch\n*** Add File: old/name.txt\n+x\n*** End Patch\n",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E005")),
        "{v}"
    );
    assert_eq!(tree(env.path()), before);
}

#[test]
fn codex_rejections_change_nothing() {
    let env = TestEnv::new();
    env.write("foo.txt", "stable\n");
    env.write("modify.txt", "line1\nline2\n");
    env.write("dir/foo.txt", "in dir\n");
    let before = tree(env.path());
    let cases: &[(&str, &str, i32)] = &[
        ("", "APPLY_E002", 2),
        ("*** Begin Patch\n*** End Patch\n", "APPLY_E002", 2),
        ("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n", "APPLY_E001", 2),
        ("*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n", "APPLY_E001", 2),
        ("*** Begin Patch\n*** Update File: foo.txt\n@@\n-stable\n+x\n", "APPLY_E001", 2),
        ("*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n", "APPLY_E003", 1),
        ("*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n", "LLM_E004", 2),
        ("*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch\n", "LLM_E004", 2),
        ("*** Begin Patch\n*** Delete File: dir\n*** End Patch\n", "LLM_E108", 2),
        // A failure after an operation that would succeed: still nothing changes.
        ("*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: modify.txt\n@@\n-nope\n+x\n*** End Patch\n", "APPLY_E003", 1),
        ("not a patch at all\n", "APPLY_E001", 2),
    ];
    for (patch, want, rc) in cases {
        let (v, code) = apply(&env, &[], patch);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (*rc, Some(*want)),
            "{patch:?}: {v}"
        );
        assert_eq!(tree(env.path()), before, "{patch:?}");
    }
}

#[test]
fn codex_end_of_file_marker_pure_addition_and_trailing_newline() {
    let env = TestEnv::new();
    env.write("tail.txt", "first\nsecond\n");
    let patch = "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n";
    assert_eq!(apply(&env, &[], patch).1, 0);
    assert_eq!(env.read("tail.txt"), b"first\nsecond updated\n");
    env.write("input.txt", "line1\nline2\n");
    let patch = "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n";
    assert_eq!(apply(&env, &[], patch).1, 0);
    assert_eq!(
        env.read("input.txt"),
        b"line1\nline2\nadded line 1\nadded line 2\n"
    );
    env.write("no_newline.txt", "no newline at end");
    let patch = "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n";
    assert_eq!(apply(&env, &[], patch).1, 0);
    assert_eq!(env.read("no_newline.txt"), b"first line\nsecond line\n");
    env.write("lines.txt", "line1\nline2\nline3\n");
    let patch =
        "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n";
    assert_eq!(apply(&env, &[], patch).1, 0);
    assert_eq!(env.read("lines.txt"), b"line1\nline3\n");
}

#[test]
fn codex_whitespace_padded_markers_and_unicode() {
    let env = TestEnv::new();
    env.write("file.txt", "one\n");
    let patch = " *** Begin Patch\n  *** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("file.txt"), b"two\n");
    env.write("foo.txt", "line1\nnaïve café\nline3\n");
    let patch = "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch\n";
    assert_eq!(apply(&env, &[], patch).1, 0);
    assert_eq!(
        env.read("foo.txt"),
        "line1\nnaïve café ✅\nline3\n".as_bytes()
    );
}

#[test]
fn tolerant_matching_is_reported_and_the_file_wins() {
    let env = TestEnv::new();
    env.write(
        "app.py",
        "\u{feff}def greet():\r\n        msg = “hi”   \r\n        return msg\r\n",
    );
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@ def greet():\n-    msg = \"hi\"\n+    msg = \"hello\"\n     return msg\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["hunks"][0]["matched_with"], "punctuation");
    assert_eq!(
        env.read("app.py"),
        "\u{feff}def greet():\r\n        msg = \"hello\"\r\n        return msg\r\n".as_bytes()
    );
    let (v, _) = apply(
        &env,
        &["--dry-run"],
        "--- a/app.py\n+++ b/app.py\n@@ -9,1 +9,1 @@\n-        return msg\n+        return msg + \"!\"\n",
    );
    assert_eq!(v["result"]["hunks"][0]["matched_with"], "exact");
    assert_eq!(v["result"]["hunks"][0]["offset"], -6);
    assert!(v["result"]["files"][0]["diff"]
        .as_str()
        .unwrap()
        .contains("+        return msg + \"!\""));
}

#[test]
fn unplaceable_hunk_names_the_closest_region() {
    let env = TestEnv::new();
    env.write("lib.rs", "fn a() {\n    one();\n    two();\n}\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn a() {\n     one();\n-    three();\n+    four();\n",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E003")),
        "{v}"
    );
    assert_eq!(v["status"], "rejected");
    let note = v["error"]["note"].as_str().unwrap();
    assert!(
        note.contains("lines 1-3") && note.contains("three();"),
        "{note}"
    );
    assert!(v["diagnostics"][0]["remediation"]
        .as_str()
        .unwrap()
        .contains("llm show lib.rs:1-3"));
}

#[test]
fn syntax_errors_reject_the_whole_patch() {
    let env = TestEnv::new();
    env.write("a.rs", "fn a() {}\n");
    env.write("b.txt", "x\n");
    let patch = "*** Begin Patch\n*** Update File: b.txt\n@@\n-x\n+y\n*** Update File: a.rs\n@@\n-fn a() {}\n+fn a() {\n*** End Patch\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    assert_eq!(env.read("b.txt"), b"x\n");
}

#[test]
fn failure_while_writing_restores_every_file() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("gone.txt", "g\n");
    let before = tree(env.path());
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Delete File: gone.txt\n*** Add File: new/c.txt\n+c\n*** End Patch\n";
    let out = env
        .llm(&["apply", "--json"])
        .env("LLM_FAILPOINT_INSTALL", "2")
        .write_stdin(patch)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(tree(env.path()), before);
    assert!(!env.path().join("new").exists());
}

// ---- unified diffs of real commits ----

fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "core.autocrlf=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn files(list: &[(&str, &str)]) -> BTreeMap<String, Vec<u8>> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .collect()
}

#[test]
fn git_diffs_of_consecutive_commits_replay_byte_for_byte() {
    let lib1 = (1..=40)
        .map(|i| format!("pub fn f{i}() -> u32 {{\n    {i}\n}}\n\n"))
        .collect::<String>();
    let lib2 = lib1
        .replace("    3\n", "    3 + 0\n")
        .replace("pub fn f30()", "/// Thirty.\npub fn f30()");
    let lib3 = lib2.replace("pub fn f10() -> u32 {\n    10\n}\n\n", "");
    let trees = [
        files(&[
            ("src/lib.rs", &lib1),
            ("README.md", "# Demo\n\nSome text.\n"),
            ("tool.py", "def main():\n    print('hi')\n"),
            ("notes.txt", "no final newline"),
            ("win.txt", "one\r\ntwo\r\nthree\r\n"),
        ]),
        files(&[
            ("src/lib.rs", &lib2),
            ("src/new.rs", "pub struct New;\n"),
            ("README.md", "# Demo\n\nSome text — now with ünïcödé.\n"),
            (
                "pkg/tool.py",
                "def main():\n    print('hi')\n    return 0\n",
            ),
            ("notes.txt", "no final newline, still"),
            ("win.txt", "one\r\n2\r\nthree\r\n"),
        ]),
        files(&[
            ("src/lib.rs", &lib3),
            (
                "docs/README.md",
                "# Demo\n\nSome text — now with ünïcödé.\n",
            ),
            (
                "pkg/tool.py",
                "def main():\n    print('hi')\n    return 0\n",
            ),
            ("notes.txt", "no final newline, still\nnow there is one\n"),
            ("win.txt", "one\r\n2\r\nthree\r\nfour"),
        ]),
    ];
    let repo = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    for (k, t) in trees.iter().enumerate() {
        for e in std::fs::read_dir(repo.path()).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n != ".git") {
                if p.is_dir() {
                    std::fs::remove_dir_all(&p).unwrap();
                } else {
                    std::fs::remove_file(&p).unwrap();
                }
            }
        }
        write_tree(repo.path(), t);
        git(repo.path(), &["add", "-A"]);
        git(repo.path(), &["commit", "-qm", &format!("c{k}")]);
    }
    for k in 0..trees.len() - 1 {
        let from = format!("HEAD~{}", trees.len() - 1 - k);
        let to = format!("HEAD~{}", trees.len() - 2 - k);
        let diff = git(repo.path(), &["diff", "-M", &from, &to]);
        let env = TestEnv::new();
        write_tree(env.path(), &trees[k]);
        let (v, code) = apply(&env, &[], &String::from_utf8(diff).unwrap());
        assert_eq!(code, 0, "commit {k}: {v}");
        assert_eq!(tree(env.path()), trees[k + 1], "commit {k} → {}", k + 1);
        assert_eq!(v["result"]["format"], "unified");
        assert!(v["result"]["hunks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["matched_with"] == "exact"));
    }
}

#[test]
fn diff_u_of_two_directories() {
    let env = TestEnv::new();
    env.write("a/x.c", "int x;\nint y;\n");
    env.write("b/x.c", "int x;\nint z;\n");
    let out = std::process::Command::new("diff")
        .current_dir(env.path())
        .args(["-u", "a/x.c", "b/x.c"])
        .output()
        .unwrap();
    let (v, code) = apply(&env, &[], &String::from_utf8(out.stdout).unwrap());
    assert_eq!(code, 0, "{v}");
    // No `diff --git` line and a/x.c exists: the path is taken as written (as `patch -p0`).
    assert_eq!(env.read("a/x.c"), b"int x;\nint z;\n");
    assert_eq!(env.read("b/x.c"), b"int x;\nint z;\n");
    assert!(!env.path().join("x.c").exists());
}

// ---- JSONL batches ----

#[test]
fn batch_of_every_operation_is_one_change() {
    let env = TestEnv::new();
    env.write("src/lib.rs", "mod a;\n\npub fn f() -> u32 {\n    1\n}\n");
    env.write("old.txt", "moved\n");
    env.write("gone.txt", "bye\n");
    let batch = [
        r#"{"op":"transform","file_path":"src/lib.rs","old":"mod a;","new":"mod a;\nmod b;"}"#,
        r#"{"op":"patch","file":"src/lib.rs","symbol":"f","body":true,"with_text":"2"}"#,
        r#"{"op":"write","file_path":"src/b.rs","content":"pub fn g() {}\n"}"#,
        r#"{"op":"delete","file_path":"gone.txt"}"#,
        r#"{"op":"move","from":"old.txt","to":"new/place.txt"}"#,
        r#"{"op":"transform","file_path":"src/b.rs","edits":[{"byte_start":7,"byte_end":8,"new_content":"h"}]}"#,
    ]
    .join("\n");
    let (v, code) = apply(&env, &[], &batch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["format"], "jsonl");
    assert_eq!(v["result"]["operations"].as_array().unwrap().len(), 6);
    let t = tree(env.path());
    assert_eq!(
        t.keys().collect::<Vec<_>>(),
        ["new/place.txt", "src/b.rs", "src/lib.rs"]
    );
    assert_eq!(
        t["src/lib.rs"],
        b"mod a;\nmod b;\n\npub fn f() -> u32 {\n    2\n}\n"
    );
    assert_eq!(t["src/b.rs"], b"pub fn h() {}\n");
    assert_eq!(t["new/place.txt"], b"moved\n");
}

#[test]
fn batch_whose_last_operation_fails_changes_nothing() {
    let env = TestEnv::new();
    env.write("a.py", "x = 1\n");
    env.write("b.py", "y = 2\n");
    let before = tree(env.path());
    let batch = [
        r#"{"op":"transform","file_path":"a.py","old":"x = 1","new":"x = 10"}"#,
        r#"{"op":"write","file_path":"c.py","content":"z = 3\n"}"#,
        r#"{"op":"delete","file_path":"b.py"}"#,
        r#"{"op":"transform","file_path":"a.py","old":"not there","new":"x"}"#,
    ]
    .join("\n");
    let (v, code) = apply(&env, &[], &batch);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("TRANSFORM_E003")),
        "{v}"
    );
    assert_eq!(tree(env.path()), before);
    // A bad line, an unknown op, a stale checksum: nothing either.
    for bad in [
        "{\"op\":\"frob\"}",
        "not json",
        "{\"op\":\"delete\"}",
        "{\"op\":\"delete\",\"file_path\":\"a.py\",\"expected_checksum\":\"00\"}",
        "{\"op\":\"move\",\"from\":\"a.py\",\"to\":\"b.py\"}",
    ] {
        let (v, code) = apply(
            &env,
            &[],
            &format!("{{\"op\":\"write\",\"file_path\":\"d.py\",\"content\":\"\"}}\n{bad}"),
        );
        assert!(code == 1 || code == 2, "{bad}: {v}");
        assert_eq!(tree(env.path()), before, "{bad}");
    }
}

#[test]
fn batch_rename_and_dry_run() {
    let env = TestEnv::new();
    env.write("src/lib.rs", "pub fn inc(x: u32) -> u32 {\n    x + 1\n}\n");
    env.write("src/main.rs", "fn main() {\n    llm_demo::inc(1);\n}\n");
    let batch =
        r#"{"op":"patch","file":"src/lib.rs","symbol":"inc","rename":"increment","in":["src"]}"#;
    let (v, code) = apply(&env, &["--dry-run"], batch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("src/main.rs"),
        b"fn main() {\n    llm_demo::inc(1);\n}\n"
    );
    let diff: String = v["result"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["diff"].as_str().unwrap())
        .collect();
    assert!(diff.contains("+    llm_demo::increment(1);"), "{diff}");
    let (v, code) = apply(&env, &[], batch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("src/lib.rs"),
        b"pub fn increment(x: u32) -> u32 {\n    x + 1\n}\n"
    );
}

#[test]
fn outside_the_root_is_refused() {
    let env = TestEnv::new();
    env.write("in/a.txt", "a\n");
    let out = env
        .llm(&["apply", "--json", "--root", "in"])
        .write_stdin("*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "LLM_E107", "{v}");
    assert!(!env.path().join("escape.txt").exists());
}

#[test]
fn human_output_and_patch_file() {
    let env = TestEnv::new();
    env.write("a.txt", "a\n");
    env.write("p.diff", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n");
    let out = env
        .llm(&["apply", "--patch", "p.diff", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("ok: dry run: 1 operation on 1 file (+1 -1 lines)"),
        "{text}"
    );
    assert!(text.contains("-a\n+b\n"), "{text}");
    env.write("gone.txt", "g\n");
    let out = env
        .llm(&["apply", "--dry-run"])
        .write_stdin("*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("  gone.txt: +0 -1 (1 edit) [deleted]"),
        "{text}"
    );
}

#[test]
fn check_rejects_what_only_the_checker_sees_and_restores() {
    let env = TestEnv::new();
    env.write("mod.py", "X = 1\n");
    env.write("b.txt", "b\n");
    let patch = "*** Begin Patch\n*** Update File: mod.py\n@@\n-X = 1\n+X = 1\n+return X\n*** Update File: b.txt\n@@\n-b\n+c\n*** End Patch\n";
    let (v, code) = apply(&env, &["--check"], patch);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E006")),
        "{v}"
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("restored"),
        "{v}"
    );
    assert_eq!(env.read("mod.py"), b"X = 1\n");
    assert_eq!(env.read("b.txt"), b"b\n");
    // Without --check the syntax gate alone lets it through (tree-sitter parses it).
    let (v, code) = apply(&env, &["--dry-run"], patch);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn deleting_or_moving_a_symlink_is_refused() {
    let env = TestEnv::new();
    env.write("target.txt", "t\n");
    std::os::unix::fs::symlink("target.txt", env.path().join("link.txt")).unwrap();
    for patch in [
        "*** Begin Patch\n*** Delete File: link.txt\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: link.txt\n*** Move to: other.txt\n@@\n-t\n+u\n*** End Patch\n",
    ] {
        let (v, code) = apply(&env, &[], patch);
        assert_eq!((code, v["error"]["code"].as_str()), (2, Some("LLM_E108")), "{v}");
        assert_eq!(env.read("target.txt"), b"t\n");
        assert!(std::fs::symlink_metadata(env.path().join("link.txt")).unwrap().file_type().is_symlink());
    }
    // Updating through the link edits its target, as every mutation does.
    let (v, code) = apply(
        &env,
        &[],
        "*** Begin Patch\n*** Update File: link.txt\n@@\n-t\n+u\n*** End Patch\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("target.txt"), b"u\n");
}

#[test]
fn git_modes_and_moves_keep_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    git(r, &["init", "-q"]);
    std::fs::write(r.join("run.sh"), "echo run\n").unwrap();
    std::fs::write(r.join("tool.sh"), "echo tool\n").unwrap();
    std::fs::set_permissions(r.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-qm", "one"]);
    std::fs::create_dir(r.join("bin")).unwrap();
    git(r, &["mv", "run.sh", "bin/run.sh"]);
    std::fs::set_permissions(r.join("tool.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(r.join("new.sh"), "echo new\n").unwrap();
    std::fs::set_permissions(r.join("new.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    git(r, &["add", "-A"]);
    git(r, &["commit", "-qm", "two"]);
    let diff = String::from_utf8(git(r, &["diff", "-M", "HEAD~1", "HEAD"])).unwrap();
    let env = TestEnv::new();
    env.write("run.sh", "echo run\n");
    env.write("tool.sh", "echo tool\n");
    std::fs::set_permissions(
        env.path().join("run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    std::fs::set_permissions(
        env.path().join("tool.sh"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let (v, code) = apply(&env, &[], &diff);
    assert_eq!(code, 0, "{v}\n{diff}");
    assert_eq!(mode(&env.path().join("bin/run.sh")), 0o755);
    assert_eq!(mode(&env.path().join("tool.sh")), 0o755);
    assert_eq!(mode(&env.path().join("new.sh")), 0o755);
    assert!(!env.path().join("run.sh").exists());
}

#[test]
fn model_style_diffs_bare_hunk_headers_and_code_fences() {
    let env = TestEnv::new();
    env.write(
        "x.py",
        "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    );
    let diff =
        "```diff\n--- a/x.py\n+++ b/x.py\n@@\n def g():\n-    return 2\n+    return 3\n```\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("x.py"),
        b"def f():\n    return 1\n\n\ndef g():\n    return 3\n"
    );
    assert_eq!(v["result"]["hunks"][0]["offset"], 0);
    let fenced = "```\n*** Begin Patch\n*** Update File: x.py\n@@\n-    return 1\n+    return 0\n*** End Patch\n```";
    let (v, code) = apply(&env, &[], fenced);
    assert_eq!(code, 0, "{v}");
    assert!(String::from_utf8(env.read("x.py"))
        .unwrap()
        .contains("return 0"));
}

#[test]
fn malformed_cut_off_and_mode_changing_diffs_change_nothing() {
    // Found by a fuzzing run: each of these was applied in part, with status ok.
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\nthree\nfour\n");
    env.write("keep.txt", "important\ndata\n");
    env.write("s.sh", "#!/bin/sh\necho hi\n");
    let before = tree(env.path());
    let code_of = |v: &Value| v["error"]["code"].as_str().map(str::to_string);
    for (diff, code, what) in [
        // A line that is no hunk line before the header's counts are met.
        (
            "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\nxyz\n+ONE\n",
            "APPLY_E001",
            "starts with none of",
        ),
        // Cut off: both sides short of the counts, or the last line without its newline.
        (
            "--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n one\n-two\n",
            "APPLY_E001",
            "was it cut off?",
        ),
        (
            "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TW",
            "APPLY_E001",
            "was it cut off?",
        ),
        // A deletion that shows no line of a file that has some.
        (
            "diff --git a/keep.txt b/keep.txt\ndeleted file mode 100644\n",
            "APPLY_E003",
            "deletes a file of 0 lines",
        ),
        // Modes git never writes for a file: setuid, a symlink.
        (
            "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 104755\n",
            "APPLY_E001",
            "mode 104755",
        ),
        (
            "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n",
            "APPLY_E001",
            "mode 120000",
        ),
    ] {
        let (v, _) = apply(&env, &[], diff);
        assert_eq!(code_of(&v).as_deref(), Some(code), "{diff:?}: {v}");
        assert!(v.to_string().contains(what), "{diff:?}: {v}");
        assert_eq!(tree(env.path()), before, "{diff:?}");
    }
    // Still applied: counts that are met before trailing prose; the executable bit; an empty
    // file deleted without a hunk (git writes none for it).
    let (v, code) = apply(
        &env,
        &[],
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\nThat is all.\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("a.txt")).unwrap(),
        "one\nTWO\nthree\nfour\n"
    );
    let (v, code) = apply(
        &env,
        &[],
        "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n",
    );
    assert_eq!(code, 0, "{v}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(env.path().join("s.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o755);
    // A batch line with a key twice: which one was meant is unclear (transform refuses it too).
    let (v, code) = apply(
        &env,
        &[],
        "{\"op\":\"write\",\"file_path\":\"keep.txt\",\"file_path\":\"a.txt\",\"content\":\"Z\\n\",\"overwrite\":true}\n",
    );
    assert_eq!(code, 2, "{v}");
    assert!(v.to_string().contains("duplicate key `file_path`"), "{v}");
    assert_eq!(
        String::from_utf8(env.read("a.txt")).unwrap(),
        "one\nTWO\nthree\nfour\n"
    );
    // Plain `diff -u foo.c.orig foo.c`: one file under two spellings, patched where it is
    // (the new name first), never moved; only git's headers say a file moved.
    env.write("foo.c", "a\nb\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- foo.c.orig\n+++ foo.c\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("foo.c")).unwrap(), "a\nB\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/foo.c\n+++ b/bar.c\n@@ -1,2 +1,2 @@\n a\n-B\n+b\n",
    );
    assert_eq!(code, 0, "{v}");
    assert!(env.path().join("foo.c").exists() && !env.path().join("bar.c").exists());
    // Hunks out of order: the note says where the lines are and why they may not go there
    // (it said the patch has "one" where the file has "one").
    env.write("o.txt", "one\ntwo\nthree\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/o.txt\n+++ b/o.txt\n@@ -2 +2 @@\n-two\n+TWO\n@@ -1 +1 @@\n-one\n+ONE\n",
    );
    assert_eq!(code, 1, "{v}");
    assert!(v.to_string().contains("hunks apply in order"), "{v}");
    assert_eq!(
        String::from_utf8(env.read("o.txt")).unwrap(),
        "one\ntwo\nthree\n"
    );
    // A BOM before the patch (Windows tools) is no part of it; a move onto itself is refused.
    let (v, code) = apply(
        &env,
        &[],
        "\u{feff}--- a/foo.c\n+++ b/foo.c\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(String::from_utf8(env.read("foo.c")).unwrap(), "a\nc\n");
    let (v, code) = apply(
        &env,
        &[],
        "{\"op\":\"move\",\"from\":\"foo.c\",\"to\":\"./foo.c\"}\n",
    );
    assert_eq!(code, 2, "{v}");
    assert!(v.to_string().contains("to itself"), "{v}");
    env.write("empty.txt", "");
    let (v, code) = apply(
        &env,
        &[],
        "diff --git a/empty.txt b/empty.txt\ndeleted file mode 100644\n",
    );
    assert_eq!(code, 0, "{v}");
    assert!(!env.path().join("empty.txt").exists());
}

// ---- real git and diff output, after a differential run against `git apply` ----

/// `git diff -C`'s copy keeps its source (it was applied as a move, deleting it), and is made
/// from the source as it was even when another part of the diff changes the source.
#[test]
fn a_git_copy_keeps_its_source() {
    let env = TestEnv::new();
    env.write("a.txt", "1\n2\n3\n");
    let diff = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+one\ndiff --git a/a.txt b/b.txt\nsimilarity index 75%\ncopy from a.txt\ncopy to b.txt\n--- a/a.txt\n+++ b/b.txt\n@@ -3 +3,2 @@\n 3\n+4\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("a.txt"), b"one\n2\n3\n");
    assert_eq!(env.read("b.txt"), b"1\n2\n3\n4\n");
    assert_eq!(v["result"]["operations"][1]["op"], "copy");
}

/// `git format-patch`'s signature (`-- ` and a version line) ends the last hunk: it removed a
/// line `- ` from the file, or refused the patch.
#[test]
fn a_format_patch_signature_is_no_removed_line() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\n- \nd\n");
    let patch = "From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\ndiff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -2,2 +2,3 @@\n b\n+new\n c\n-- \n2.47.3\n\n";
    let (v, code) = apply(&env, &[], patch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.txt"), b"a\nb\nnew\nc\n- \nd\n");
}

/// A patch never writes inside `.git` (a hook there runs at the next commit), as `git apply`.
#[test]
fn a_patch_into_dot_git_is_refused() {
    let env = TestEnv::new();
    env.write(".git/config", "[core]\n");
    for diff in [
        "diff --git a/.git/hooks/pre-commit b/.git/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch pwned\n",
        "--- a/sub/.GIT/config\n+++ b/sub/.GIT/config\n@@ -1 +1 @@\n-[core]\n+[x]\n",
        "*** Begin Patch\n*** Update File: .git/config\n@@\n-[core]\n+[core]\n+\thooksPath = /tmp\n*** End Patch\n",
    ] {
        let (v, code) = apply(&env, &[], diff);
        assert_eq!(code, 2, "{v}");
        assert_eq!(v["error"]["code"], "APPLY_E007", "{v}");
    }
    assert!(!env.path().join(".git/hooks").exists());
    assert_eq!(env.read(".git/config"), b"[core]\n");
}

/// Nor through a symlink of the tree that leads into `.git` (a repository can ship one): the
/// check is on the path the write would reach, not only on how the input spells it.
#[test]
fn a_patch_into_dot_git_through_a_symlink_is_refused() {
    let env = TestEnv::new();
    env.write(".git/config", "[core]\n");
    env.write(".git/hooks/README", "hooks\n");
    std::os::unix::fs::symlink(".git", env.path().join("g")).unwrap();
    std::os::unix::fs::symlink(".git/hooks", env.path().join("h")).unwrap();
    for diff in [
        // A new hook, in a directory that exists (through the link to `.git`).
        "diff --git a/g/hooks/pre-commit b/g/hooks/pre-commit\nnew file mode 100755\n--- /dev/null\n+++ b/g/hooks/pre-commit\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch pwned\n",
        // Through a link to `.git/hooks` itself.
        "--- /dev/null\n+++ b/h/post-checkout\n@@ -0,0 +1 @@\n+touch pwned\n",
        // In a directory still to be made below the link.
        "--- /dev/null\n+++ b/g/new/dir/x\n@@ -0,0 +1 @@\n+x\n",
        // An existing file reached through the link.
        "--- a/g/config\n+++ b/g/config\n@@ -1 +1 @@\n-[core]\n+[x]\n",
    ] {
        let (v, code) = apply(&env, &[], diff);
        assert_eq!(code, 2, "{diff}: {v}");
        assert_eq!(v["error"]["code"], "APPLY_E007", "{v}");
    }
    assert!(!env.path().join(".git/hooks/pre-commit").exists());
    assert!(!env.path().join(".git/hooks/post-checkout").exists());
    assert!(!env.path().join(".git/new").exists());
    assert_eq!(env.read(".git/config"), b"[core]\n");
}

/// A file's BOM, which `git diff` shows at the start of line 1, is no part of that line:
/// hunks touching line 1 of such a file, and its deletion, were refused.
#[test]
fn bom_files_take_git_diffs_of_their_first_line() {
    let env = TestEnv::new();
    env.write("f.txt", "\u{feff}line1\nline2\nline3\n");
    env.write("g.txt", "\u{feff}x\ny\n");
    env.write("h.txt", "\u{feff}old\nz\n");
    env.write("k.txt", "\u{feff}first\nsecond\n");
    let diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n \u{feff}line1\n-line2\n+LINE2\n line3\ndiff --git a/g.txt b/g.txt\ndeleted file mode 100644\n--- a/g.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-\u{feff}x\n-y\n--- a/h.txt\n+++ b/h.txt\n@@ -1,2 +1,2 @@\n-\u{feff}old\n+new\n z\n--- a/k.txt\n+++ b/k.txt\n@@ -1,2 +1 @@\n-\u{feff}first\n second\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("f.txt"),
        "\u{feff}line1\nLINE2\nline3\n".as_bytes()
    );
    assert!(!env.path().join("g.txt").exists());
    // The new side of line 1 without it: the diff takes the BOM away.
    assert_eq!(env.read("h.txt"), b"new\nz\n");
    // Line 1 removed: its BOM goes with it, as in git.
    assert_eq!(env.read("k.txt"), b"second\n");
}

/// A new file's lines keep their CRLF endings (no file on disk decides them); a patch sent
/// with CRLF endings throughout (its headers too) still writes LF.
#[test]
fn a_new_file_keeps_the_diffs_crlf_endings() {
    let env = TestEnv::new();
    let diff = "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+one\r\n+two\r\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("n.txt"), b"one\r\ntwo\r\n");
    let all_crlf = "--- /dev/null\r\n+++ b/m.txt\r\n@@ -0,0 +1,2 @@\r\n+one\r\n+two\r\n";
    let (v, code) = apply(&env, &[], all_crlf);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("m.txt"), b"one\ntwo\n");
}

/// git quotes paths with bytes beyond printable ASCII (`"caf\303\251.txt"`): they were taken
/// literally (refused, or a file created under the escaped name).
#[test]
fn quoted_git_paths_are_unquoted() {
    let env = TestEnv::new();
    env.write("café.txt", "a\n");
    let diff = "diff --git \"a/caf\\303\\251.txt\" \"b/caf\\303\\251.txt\"\n--- \"a/caf\\303\\251.txt\"\n+++ \"b/caf\\303\\251.txt\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git \"a/t\\303\\251 \\\"x\\\".txt\" \"b/t\\303\\251 \\\"x\\\".txt\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/t\\303\\251 \\\"x\\\".txt\"\n@@ -0,0 +1 @@\n+new\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("café.txt"), b"b\n");
    assert_eq!(env.read("té \"x\".txt"), b"new\n");
}

/// `git diff --no-prefix` parts that hold only headers (a mode change, a new empty file), and
/// `diff -ruN` output: its missing sides dated at the epoch, its trees named anything.
#[test]
fn no_prefix_and_diff_ru_n_parts_apply() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("f.sh", "a\n");
    env.write("d/old.txt", "x\n");
    env.write("d/keep.txt", "k\n");
    let diff = "diff --git f.sh f.sh\nold mode 100644\nnew mode 100755\ndiff --git e.txt e.txt\nnew file mode 100644\nindex 0000000..e69de29\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    let mode = std::fs::metadata(env.path().join("f.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
    assert_eq!(env.read("e.txt"), b"");
    let ru_n = "diff -ruN old/d/keep.txt new/d/keep.txt\n--- old/d/keep.txt\t2026-01-01 00:00:00.000000000 +0000\n+++ new/d/keep.txt\t2026-01-02 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-k\n+K\ndiff -ruN old/d/new.txt new/d/new.txt\n--- old/d/new.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ new/d/new.txt\t2026-01-01 00:00:00.000000000 +0000\n@@ -0,0 +1 @@\n+hello\ndiff -ruN old/d/old.txt new/d/old.txt\n--- old/d/old.txt\t2026-01-01 00:00:00.000000000 +0000\n+++ new/d/old.txt\t1969-12-31 19:00:00.000000000 -0500\n@@ -1 +0,0 @@\n-x\n";
    let (v, code) = apply(&env, &[], ru_n);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("d/keep.txt"), b"K\n");
    assert_eq!(env.read("d/new.txt"), b"hello\n");
    assert!(!env.path().join("d/old.txt").exists());
}

/// Renaming or changing the mode of a file that is not UTF-8 text reads no text: both were
/// refused as "not UTF-8 text".
#[test]
fn binary_files_move_and_change_mode() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("b.bin", b"\x00\xff\x01");
    env.write("l.txt", b"caf\xe9\n");
    let diff = "diff --git a/b.bin b/c.bin\nsimilarity index 100%\nrename from b.bin\nrename to c.bin\ndiff --git a/l.txt b/l.txt\nold mode 100644\nnew mode 100755\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("c.bin"), b"\x00\xff\x01");
    assert!(!env.path().join("b.bin").exists());
    let mode = std::fs::metadata(env.path().join("l.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
    assert_eq!(env.read("l.txt"), b"caf\xe9\n");
}

/// A hunk with counts and no lines is malformed (it was "nothing to write", or with only a
/// `\ No newline` marker, the file lost its final newline).
#[test]
fn a_hunk_without_lines_is_refused() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\n");
    for diff in [
        "--- a/f.txt\n+++ b/f.txt\n@@ -2,1 +2,1 @@\n",
        "--- a/f.txt\n+++ b/f.txt\n@@ -3 +3 @@\n\\ No newline at end of file\n",
    ] {
        let (v, code) = apply(&env, &[], diff);
        assert_eq!(code, 2, "{v}");
        assert_eq!(v["error"]["code"], "APPLY_E001", "{v}");
    }
    assert_eq!(env.read("f.txt"), b"a\nb\nc\n");
}

/// A hunk without context lines (`diff -U0`) goes at its line number, else where its lines are
/// found once: applied a second time, such a patch changed the next equal line further down
/// (offset 4, reported ok); now its added lines at its line say it was applied. Several hunks
/// of one file keep the offset of the one before.
#[test]
fn a_hunk_without_context_goes_only_at_its_line() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nx\nc\nd\ne\nx\nf\n");
    let diff = "--- a/f.txt\n+++ b/f.txt\n@@ -3 +3 @@\n-x\n+X\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.txt"), b"a\nb\nX\nc\nd\ne\nx\nf\n");
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "APPLY_E003", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("applied already"),
        "{v}"
    );
    assert_eq!(env.read("f.txt"), b"a\nb\nX\nc\nd\ne\nx\nf\n");

    // Two lines added above since the diff: a hunk with context is found two lines down, and
    // one without after it moves as far.
    env.write("g.txt", "new1\nnew2\na\nb\nx\nc\nd\ne\nx\nf\n");
    let two = "--- a/g.txt\n+++ b/g.txt\n@@ -2,3 +2,3 @@\n b\n-x\n+X\n c\n@@ -7 +7 @@\n-x\n+Y\n";
    let (v, code) = apply(&env, &[], two);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("g.txt"), b"new1\nnew2\na\nb\nX\nc\nd\ne\nY\nf\n");
    assert_eq!(v["result"]["hunks"][1]["offset"], 2, "{v}");
    // Not at its line: where its lines are found once, not where they are twice.
    env.write("h.txt", "new1\nnew2\na\nb\nc\nd\ne\nx\nf\n");
    let (v, code) = apply(&env, &[], "--- a/h.txt\n+++ b/h.txt\n@@ -6 +6 @@\n-x\n+Y\n");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("h.txt"), b"new1\nnew2\na\nb\nc\nd\ne\nY\nf\n");
    assert_eq!(v["result"]["hunks"][0]["offset"], 2, "{v}");
    env.write("k.txt", "x\na\nb\nc\nd\ne\nx\nf\n");
    let (v, code) = apply(&env, &[], "--- a/k.txt\n+++ b/k.txt\n@@ -6 +6 @@\n-x\n+Y\n");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "APPLY_E008", "{v}");
    assert_eq!(env.read("k.txt"), b"x\na\nb\nc\nd\ne\nx\nf\n");
}

/// Without a line number either (a bare `@@` of `-`/`+` lines, unified or Codex), the removed
/// lines must be in one place: in two, which one was meant is unknown (`APPLY_E008`; the first
/// was changed before).
#[test]
fn a_bare_hunk_without_context_in_two_places_is_refused() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nx\nb\nx\nc\n");
    for diff in [
        "--- a/f.txt\n+++ b/f.txt\n@@\n-x\n+X\n",
        "*** Begin Patch\n*** Update File: f.txt\n@@\n-x\n+X\n*** End Patch\n",
    ] {
        let (v, code) = apply(&env, &[], diff);
        assert_eq!(code, 1, "{diff}: {v}");
        assert_eq!(v["error"]["code"], "APPLY_E008", "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("lines 2, 4"),
            "{v}"
        );
        assert_eq!(env.read("f.txt"), b"a\nx\nb\nx\nc\n");
    }
    // Once in the file, it goes there.
    env.write("g.txt", "a\nx\nb\n");
    let (v, code) = apply(
        &env,
        &[],
        "*** Begin Patch\n*** Update File: g.txt\n@@\n-x\n+X\n*** End Patch\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("g.txt"), b"a\nX\nb\n");
}

/// A batch's transform or patch that puts text at the top of a file starting with a BOM puts it
/// after the BOM, as `llm transform` and `llm patch` do.
#[test]
fn a_batch_edit_at_the_top_of_a_bom_file_goes_after_the_bom() {
    let env = TestEnv::new();
    env.write("b.py", "\u{feff}def f():\n    return 1\n");
    let batch = concat!(
        r#"{"op":"transform","file_path":"b.py","edits":[{"byte_start":0,"byte_end":0,"new_content":"import os\n"}]}"#,
        "\n",
        r#"{"op":"patch","file":"b.py","symbol":"f","insert_before":true,"with_text":"def g():\n    return 2"}"#,
        "\n"
    );
    let (v, code) = apply(&env, &[], batch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        String::from_utf8(env.read("b.py")).unwrap(),
        "\u{feff}import os\ndef g():\n    return 2\n\n\ndef f():\n    return 1\n"
    );
}

/// Lines added with no context and no line number (a bare `@@` of `+` lines that appends, or
/// a Codex chunk) that already stand where they go were added by this patch before: applied
/// again, such a hunk added them a second time. With a line number (`@@ -5,0 +6 @@`) they go
/// there, as git puts them: the same lines are also how `diff -U0` duplicates a line.
#[test]
fn added_lines_without_context_already_there_are_applied_already() {
    let env = TestEnv::new();
    env.write("f.txt", "1\n2\n3\n4\n5\n6\n");
    let diff = "--- a/f.txt\n+++ b/f.txt\n@@ -5,0 +6 @@\n+NEW\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.txt"), b"1\n2\n3\n4\n5\nNEW\n6\n");
    // Again: git apply --unidiff-zero gives 1 2 3 4 5 NEW NEW 6.
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.txt"), b"1\n2\n3\n4\n5\nNEW\nNEW\n6\n");
    let append = "*** Begin Patch\n*** Update File: f.txt\n@@\n+END\n*** End Patch\n";
    let (v, code) = apply(&env, &[], append);
    assert_eq!(code, 0, "{v}");
    for again in [append, "--- a/f.txt\n+++ b/f.txt\n@@\n+END\n"] {
        let (v, code) = apply(&env, &[], again);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("APPLY_E003")),
            "{v}"
        );
        // The refusal says how to add them anyway.
        let remediation = v["error"]["remediation"].as_str().unwrap();
        assert!(remediation.contains("context line"), "{v}");
        assert!(remediation.contains("@@ -N,0 +M @@"), "{v}");
    }
    assert_eq!(env.read("f.txt"), b"1\n2\n3\n4\n5\nNEW\nNEW\n6\nEND\n");
    // As the remediation says: with a context line, or a line number, they go in.
    let (v, code) = apply(
        &env,
        &[],
        "*** Begin Patch\n*** Update File: f.txt\n@@\n END\n+END\n*** End Patch\n",
    );
    assert_eq!(code, 0, "{v}");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/f.txt\n+++ b/f.txt\n@@ -10,0 +11 @@\n+END\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("f.txt"),
        b"1\n2\n3\n4\n5\nNEW\nNEW\n6\nEND\nEND\nEND\n"
    );
    // A blank line beside another is added, even without a line number.
    env.write("g.txt", "1\n\n");
    let blank = "--- a/g.txt\n+++ b/g.txt\n@@\n+\n";
    assert_eq!(apply(&env, &[], blank).1, 0);
    assert_eq!(env.read("g.txt"), b"1\n\n\n");
}

/// `diff -U0` writes a line added between two equal lines either way; git's copy of `A B C`
/// with a second `B`, as `@@ -1,0 +2 @@`, adds it after line 1 (`A B B C`, as `git apply
/// --unidiff-zero` does): it was refused as applied already.
#[test]
fn a_u0_insertion_that_duplicates_the_next_line_is_applied() {
    let env = TestEnv::new();
    env.write("g.ts", "A\nB\nC\n");
    let (v, code) = apply(&env, &[], "--- a/g.ts\n+++ b/g.ts\n@@ -1,0 +2 @@\n+B\n");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("g.ts"), b"A\nB\nB\nC\n");
    let h = &v["result"]["hunks"][0];
    assert_eq!(
        (h["start_line"].as_u64(), h["offset"].as_i64()),
        (Some(1), Some(0)),
        "{v}"
    );
    // A `-U0` hunk that changes a line is still refused once applied: its removed line is
    // gone and its added one stands there.
    env.write("h.ts", "A\nX\nC\n");
    let change = "--- a/h.ts\n+++ b/h.ts\n@@ -2 +2 @@\n-B\n+X\n";
    let (v, code) = apply(&env, &[], change);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E003")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("applied already"),
        "{v}"
    );
    assert_eq!(env.read("h.ts"), b"A\nX\nC\n");
}

/// `@@ -N,0 +M @@` adds after old line N (0: at the top) and is N's hunk, at offset 0: it was
/// reported at offset 1, and every later hunk of the file was looked for a line too low,
/// which changed the wrong one of equal lines (silently, or by indentation) or found the
/// removed lines in two places. The results are `git apply --unidiff-zero`'s.
#[test]
fn a_u0_insertion_goes_after_its_line_and_moves_nothing_after_it() {
    let env = TestEnv::new();
    let u0 = |file: &str, body: &str| format!("--- a/{file}\n+++ b/{file}\n{body}");
    env.write("f.ts", "L1\nX\nX\nX\nL5\n");
    let (v, code) = apply(
        &env,
        &[],
        &u0("f.ts", "@@ -1,0 +2 @@\n+// a\n@@ -3 +4 @@\n-X\n+Y\n"),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.ts"), b"L1\n// a\nX\nY\nX\nL5\n");
    let hunks = v["result"]["hunks"].as_array().unwrap();
    let at: Vec<(u64, i64, &str)> = hunks
        .iter()
        .map(|h| {
            (
                h["start_line"].as_u64().unwrap(),
                h["offset"].as_i64().unwrap(),
                h["matched_with"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(at, [(1, 0, "exact"), (3, 0, "exact")], "{v}");

    env.write(
        "w.py",
        "def f():\n    return 1\n    # old note\n# old note\n",
    );
    let (v, code) = apply(
        &env,
        &[],
        &u0(
            "w.py",
            "@@ -1,0 +2 @@\n+# header\n@@ -3 +3,0 @@\n-    # old note\n",
        ),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("w.py"),
        b"def f():\n# header\n    return 1\n# old note\n"
    );
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v}");

    env.write("c.ts", "L1\nL2\nL3\nL4\n\nL6\n\nL8\n");
    let (v, code) = apply(
        &env,
        &[],
        &u0("c.ts", "@@ -1,0 +2 @@\n+// a\n@@ -5 +5,0 @@\n-\n"),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("c.ts"), b"L1\n// a\nL2\nL3\nL4\nL6\n\nL8\n");

    // At the top, and at the end.
    env.write("t.txt", "a\nb\n");
    let (v, code) = apply(
        &env,
        &[],
        &u0("t.txt", "@@ -0,0 +1 @@\n+top\n@@ -2,0 +4 @@\n+end\n"),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("t.txt"), b"top\na\nb\nend\n");
    assert_eq!(v["result"]["hunks"][0]["start_line"], 0, "{v}");
    assert_eq!(v["result"]["hunks"][1]["start_line"], 2, "{v}");
    assert_eq!(v["result"]["hunks"][1]["offset"], 0, "{v}");

    // A hunk found 3 lines down (3 lines were added at the top since the diff) moves the
    // insertion after it as far: after L5. (git, which places it by its new line, puts NEW
    // after L1.)
    env.write("d.txt", "D1\nD2\nD3\nL1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\n");
    let (v, code) = apply(
        &env,
        &[],
        &u0("d.txt", "@@ -2 +1,0 @@\n-L2\n@@ -5,0 +5 @@\n+NEW\n"),
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("d.txt"),
        b"D1\nD2\nD3\nL1\nL3\nL4\nL5\nNEW\nL6\nL7\nL8\n"
    );
    assert_eq!(v["result"]["hunks"][0]["offset"], 3, "{v}");
    assert_eq!(v["result"]["hunks"][1]["offset"], 3, "{v}");
    assert_eq!(v["result"]["hunks"][1]["start_line"], 8, "{v}");
}

/// A hunk without context lines has nothing to tell one place from another but its line: it
/// is matched with tolerance (indentation, whitespace, punctuation) only there; away from it,
/// only exactly and once. A `-U0` hunk for a `##` at line 40 changed an indented `##` at line
/// 2 (offset -38, a note); git refuses it.
#[test]
fn a_hunk_without_context_is_matched_tolerantly_only_at_its_line() {
    let env = TestEnv::new();
    env.write("g.rb", "def f\n  ##\nend\n");
    let far = "--- a/g.rb\n+++ b/g.rb\n@@ -40 +40 @@\n-##\n+# new\n";
    let (v, code) = apply(&env, &[], far);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E003")),
        "{v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("not at line 40"), "{v}");
    assert!(v["error"]["remediation"]
        .as_str()
        .unwrap()
        .contains("context lines"));
    assert_eq!(env.read("g.rb"), b"def f\n  ##\nend\n");
    // One line off too.
    let near = "--- a/g.rb\n+++ b/g.rb\n@@ -3 +3 @@\n-##\n+# new\n";
    assert_eq!(apply(&env, &[], near).1, 1);
    // At its line, by indentation (git, without whitespace options, refuses this one).
    let at = "--- a/g.rb\n+++ b/g.rb\n@@ -2 +2 @@\n-##\n+# new\n";
    let (v, code) = apply(&env, &[], at);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("g.rb"), b"def f\n  # new\nend\n");
    assert_eq!(v["result"]["hunks"][0]["matched_with"], "indentation");
    // Exactly and once elsewhere, it goes there.
    env.write("h.rb", "def f\n##\nend\n");
    let (v, code) = apply(&env, &[], &far.replace("g.rb", "h.rb"));
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("h.rb"), b"def f\n# new\nend\n");
    assert_eq!(v["result"]["hunks"][0]["offset"], -38, "{v}");
}

/// A hunk with context before its changes and none after ends the file (a diff tool cuts the
/// context only there), as does one whose old side ends with `\ No newline at end of file`;
/// one at line 1 with less context before its changes than after starts it. It goes there or
/// nowhere, as git apply requires: nearest its line, in a file with lines added at the top
/// since the diff, it changed an earlier function's closing lines instead. The results are
/// git's.
#[test]
fn a_hunk_that_ends_or_starts_the_file_goes_there() {
    let env = TestEnv::new();
    // `\ No newline`: b()'s `}` (a()'s, nearer line 5, was changed).
    env.write(
        "f.go",
        "d1\nd2\nfunc a() {\n\treturn v\n}\nfunc b() {\n\treturn v\n}",
    );
    let (v, code) = apply(
        &env,
        &[],
        "--- a/f.go\n+++ b/f.go\n@@ -5,2 +5,2 @@\n \treturn v\n-}\n\\ No newline at end of file\n+} // end b\n\\ No newline at end of file\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("f.go"),
        b"d1\nd2\nfunc a() {\n\treturn v\n}\nfunc b() {\n\treturn v\n} // end b"
    );
    assert_eq!(v["result"]["hunks"][0]["start_line"], 7, "{v}");
    assert_eq!(v["result"]["hunks"][0]["offset"], 2, "{v}");
    // No context after the added line: appended at the end, not after a().
    env.write(
        "g.go",
        "d1\nd2\nfunc a() {\n\treturn v\n}\nfunc b() {\n\treturn v\n}\n",
    );
    let (v, code) = apply(
        &env,
        &[],
        "--- a/g.go\n+++ b/g.go\n@@ -5,2 +5,3 @@\n \treturn v\n }\n+// appended at end\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("g.go"),
        b"d1\nd2\nfunc a() {\n\treturn v\n}\nfunc b() {\n\treturn v\n}\n// appended at end\n"
    );
    // The file's end is no longer the hunk's old lines: refused, though they are in the
    // middle of it, and the refusal says why and how to place it elsewhere.
    env.write("h.txt", "one\ntwo\nthree\nfour\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/h.txt\n+++ b/h.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E003")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("it ends the file"),
        "{v}"
    );
    assert!(
        v["error"]["note"]
            .as_str()
            .unwrap()
            .contains("lines 1-2, not at the end"),
        "{v}"
    );
    assert!(v["error"]["remediation"]
        .as_str()
        .unwrap()
        .contains("add the context line that follows"));
    assert_eq!(env.read("h.txt"), b"one\ntwo\nthree\nfour\n");
    // A bare `@@` hunk (no line number, as models write) is placed by its lines alone.
    let (v, code) = apply(
        &env,
        &[],
        "--- a/h.txt\n+++ b/h.txt\n@@\n one\n-two\n+TWO\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("h.txt"), b"one\nTWO\nthree\nfour\n");

    // The start: a line added before line 1 goes first, or, with lines above its context
    // now, nowhere; so does a change at line 2 (one line of context before, three after).
    let top = "--- a/s.txt\n+++ b/s.txt\n@@ -1,3 +1,4 @@\n+top\n a\n b\n c\n";
    let second = "--- a/s.txt\n+++ b/s.txt\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n";
    env.write("s.txt", "X\nY\na\nb\nc\nd\ne\n");
    for diff in [top, second] {
        let (v, code) = apply(&env, &[], diff);
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("APPLY_E003")),
            "{v}"
        );
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("it starts the file"),
            "{v}"
        );
        assert_eq!(env.read("s.txt"), b"X\nY\na\nb\nc\nd\ne\n");
    }
    env.write("s.txt", "a\nb\nc\nd\ne\n");
    assert_eq!(apply(&env, &[], top).1, 0);
    assert_eq!(env.read("s.txt"), b"top\na\nb\nc\nd\ne\n");
    env.write("s.txt", "a\nb\nc\nd\ne\n");
    assert_eq!(apply(&env, &[], second).1, 0);
    assert_eq!(env.read("s.txt"), b"a\nB\nc\nd\ne\n");
}

/// A blank context line ending a hunk, within its counts, is context after its changes (the
/// parser leaves it out of the hunk, as a blank line after a hunk may be a separator): such a
/// hunk is not tied to the end of the file. And one tied to the end is matched there only
/// exactly or but for trailing whitespace: by indentation, the `\t\t}` / `\t}` a hunk ends
/// a block with fit the file's last `\t}` / `}`. The results are git's.
#[test]
fn a_blank_line_after_the_changes_frees_a_hunk_from_the_end() {
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\n\nd\ne\nf\ng\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,2 @@\n b\n-c\n \n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("f.txt"), b"a\nb\n\nd\ne\nf\ng\n");
    let go = "func a() {\n\tif x {\n\t\ty()\n\t}\n}\n";
    env.write("g.go", go);
    let (v, code) = apply(
        &env,
        &[],
        "--- a/g.go\n+++ b/g.go\n@@ -3,2 +3,3 @@\n \t\t}\n \t}\n+// end\n",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("APPLY_E003")),
        "{v}"
    );
    assert_eq!(env.read("g.go"), go.as_bytes());
    // Trailing whitespace aside, it is there.
    env.write("h.go", "func a() {\n\tif x {\n\t\ty()\n\t}  \n}\n");
    let (v, code) = apply(
        &env,
        &[],
        "--- a/h.go\n+++ b/h.go\n@@ -4,2 +4,3 @@\n \t}\n }\n+// end\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("h.go"),
        b"func a() {\n\tif x {\n\t\ty()\n\t}  \n}\n// end\n"
    );
}

/// Overwritten whole, a file that began with a BOM keeps it, by a batch's `write` as by `llm
/// write --overwrite` (the batch dropped it).
#[test]
fn an_overwritten_bom_file_keeps_its_bom_both_ways() {
    let env = TestEnv::new();
    env.write("a.txt", "\u{feff}old\n");
    env.write("b.txt", "\u{feff}old\n");
    let (v, code) = apply(
        &env,
        &[],
        r#"{"op":"write","file_path":"a.txt","content":"new\n","overwrite":true}"#,
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("a.txt"), "\u{feff}new\n".as_bytes());
    let (v, code) = env.json_stdin(&["--json", "write", "--overwrite", "b.txt"], "new\n");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("b.txt"), "\u{feff}new\n".as_bytes());
}

/// Errors a file already had are not new: two hunks around one (each alone passed, both were
/// refused), and a file renamed or moved with one (every old error was reported introduced).
/// An error the change brings is still refused, in a moved file too.
#[test]
fn errors_already_there_do_not_refuse_hunks_around_them_or_a_rename() {
    let env = TestEnv::new();
    let py = "x = 1\ny = 2\n\tz = 3\nw = 4\n";
    env.write("a.py", py);
    let diff = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,3 @@\n x = 1\n+# c\n y = 2\n@@ -4 +5,2 @@\n w = 4\n+# d\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.read("a.py"),
        b"x = 1\n# c\ny = 2\n\tz = 3\nw = 4\n# d\n"
    );

    let c = "int f(void)\n{\n\tfoo(a, b)\n\t\tbar(a);\n}\n";
    env.write("x.c", c);
    let rename = "diff --git a/x.c b/y.c\nsimilarity index 100%\nrename from x.c\nrename to y.c\n";
    let (v, code) = apply(&env, &[], rename);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("y.c"), c.as_bytes());
    let (v, code) = apply(
        &env,
        &[],
        "{\"op\":\"move\",\"from\":\"y.c\",\"to\":\"z.c\"}\n",
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("z.c"), c.as_bytes());
    // A rename whose hunk breaks the syntax is refused.
    let broken = "diff --git a/z.c b/w.c\nsimilarity index 80%\nrename from z.c\nrename to w.c\n--- a/z.c\n+++ b/w.c\n@@ -4,2 +4,2 @@\n \t\tbar(a);\n-}\n+}}\n";
    let (v, code) = apply(&env, &[], broken);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("LLM_E106")),
        "{v}"
    );
    assert_eq!(env.read("z.c"), c.as_bytes());
    assert!(!env.path().join("w.c").exists());
}

/// Two files that swap names in one diff (git applies it; `llm apply` said the target
/// existed), and `llm undo` swaps them back.
#[test]
fn a_diff_can_swap_two_files() {
    let env = TestEnv::new();
    env.write("a.txt", "alpha\n");
    env.write("b.txt", "beta\n");
    let diff = "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\ndiff --git a/b.txt b/a.txt\nsimilarity index 100%\nrename from b.txt\nrename to a.txt\n";
    let (v, code) = apply(&env, &[], diff);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (env.read("a.txt"), env.read("b.txt")),
        (b"beta\n".to_vec(), b"alpha\n".to_vec())
    );
    let undo = v["result"]["undo"].as_str().unwrap().to_string();
    let args: Vec<&str> = undo.split_whitespace().skip(1).collect();
    let out = env.llm(&args).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        (env.read("a.txt"), env.read("b.txt")),
        (b"alpha\n".to_vec(), b"beta\n".to_vec())
    );
}
