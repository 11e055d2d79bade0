//! The journal through the real binary: every mutation is recorded and undoable (transform,
//! patch, write, apply), undo is checksum-guarded and journaled itself (undo of an undo
//! redoes), history finds the same journal from a subdirectory, retention prunes.

use crate::util::TestEnv;
use serde_json::Value;

/// Runs `llm --json ARGS` with `stdin`; returns the envelope and the exit code.
fn run(env: &TestEnv, args: &[&str], stdin: &str) -> (Value, i32) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = env.llm(&all).write_stdin(stdin).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out.status.code().unwrap_or(-1))
}

/// Runs a mutation that must apply; returns its execution id (and checks `result.undo`).
fn applied(env: &TestEnv, args: &[&str], stdin: &str) -> String {
    let (v, code) = run(env, args, stdin);
    assert_eq!(code, 0, "{v}");
    let id = v["execution_id"].as_str().unwrap().to_string();
    assert_eq!(v["result"]["undo"], format!("llm undo {id}"), "{v}");
    id
}

fn undo(env: &TestEnv, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["undo"];
    all.extend_from_slice(args);
    run(env, &all, "")
}

fn history(env: &TestEnv) -> Vec<Value> {
    let (v, code) = run(env, &["history"], "");
    assert_eq!(code, 0, "{v}");
    v["data"]["operations"].as_array().unwrap().clone()
}

fn read(env: &TestEnv, rel: &str) -> String {
    String::from_utf8(env.read(rel)).unwrap()
}

#[test]
fn undo_transform_single_file_restores_bytes() {
    let env = TestEnv::new();
    // CRLF, BOM, multibyte, no final newline: restored byte for byte.
    let before = "\u{feff}x = 'é'\r\ny = 2";
    env.write("a.py", before);
    let id = applied(
        &env,
        &["transform", "a.py", "--old", "y = 2", "--new", "y = 3"],
        "",
    );
    assert_ne!(read(&env, "a.py"), before);
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["undoes"], id.as_str());
    assert_eq!(read(&env, "a.py"), before);
}

#[test]
fn undo_multi_file_transform_and_undo_of_undo_redoes() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    env.write("b.txt", "two\n");
    let req = r#"[{"file_path":"a.txt","edits":[{"byte_start":0,"byte_end":3,"new_content":"ONE"}]},
                  {"file_path":"b.txt","edits":[{"byte_start":0,"byte_end":3,"new_content":"TWO"}]}]"#;
    let id = applied(&env, &["transform"], req);
    assert_eq!(
        (read(&env, "a.txt"), read(&env, "b.txt")),
        ("ONE\n".into(), "TWO\n".into())
    );
    let (u, code) = undo(&env, &[&id]);
    assert_eq!(code, 0, "{u}");
    assert_eq!(
        (read(&env, "a.txt"), read(&env, "b.txt")),
        ("one\n".into(), "two\n".into())
    );
    // Undoing the undo redoes.
    let uid = u["execution_id"].as_str().unwrap();
    let (r, code) = undo(&env, &[uid]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(
        (read(&env, "a.txt"), read(&env, "b.txt")),
        ("ONE\n".into(), "TWO\n".into())
    );
    // The original is no longer undone: a plain `llm undo` takes it back again.
    let ops = history(&env);
    assert_eq!(ops.len(), 3);
    assert_eq!(ops[1]["undone_by"], r["execution_id"]);
    assert!(ops[2]["undone_by"].is_null());
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["undoes"], id.as_str());
    assert_eq!(read(&env, "a.txt"), "one\n");
    // Now undone: asking again is refused.
    let (v, code) = undo(&env, &[&id]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "LLM_E120");
}

#[test]
fn undo_refused_when_a_later_change_touched_a_file() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    env.write("b.txt", "two\n");
    let req = r#"[{"file_path":"a.txt","edits":[{"byte_start":0,"byte_end":3,"new_content":"ONE"}]},
                  {"file_path":"b.txt","edits":[{"byte_start":0,"byte_end":3,"new_content":"TWO"}]}]"#;
    let first = applied(&env, &["transform"], req);
    let second = applied(
        &env,
        &["transform", "b.txt", "--old", "TWO", "--new", "2"],
        "",
    );
    let (v, code) = undo(&env, &[&first]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["status"], "rejected");
    assert_eq!(v["error"]["code"], "LLM_E118");
    let per_file: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "LLM_E118")
        .collect();
    assert_eq!(per_file.len(), 1, "{v}");
    assert_eq!(per_file[0]["file"], "b.txt");
    // Nothing changed.
    assert_eq!(
        (read(&env, "a.txt"), read(&env, "b.txt")),
        ("ONE\n".into(), "2\n".into())
    );
    // --dry-run shows the diff anyway, writes nothing.
    let (d, code) = undo(&env, &[&first, "--dry-run"]);
    assert_eq!(code, 0, "{d}");
    assert!(
        d["result"]["files"][1]["diff"]
            .as_str()
            .unwrap()
            .contains("+two"),
        "{d}"
    );
    assert_eq!(read(&env, "b.txt"), "2\n");
    // Undo the later one first, then the first.
    assert_eq!(undo(&env, &[&second]).1, 0);
    assert_eq!(undo(&env, &[&first]).1, 0);
    assert_eq!(
        (read(&env, "a.txt"), read(&env, "b.txt")),
        ("one\n".into(), "two\n".into())
    );
}

#[test]
fn undo_patch_rename_across_files_and_delete() {
    let env = TestEnv::new();
    let lib = "pub mod b;\n\npub fn helper() -> u32 {\n    1\n}\n\npub fn other() -> u32 {\n    helper()\n}\n";
    let b = "use crate::helper;\n\npub fn g() -> u32 {\n    helper() + 1\n}\n";
    env.write("src/lib.rs", lib);
    env.write("src/b.rs", b);
    let (v, code) = run(
        &env,
        &[
            "patch",
            "--file",
            "src/lib.rs",
            "--symbol",
            "helper",
            "--rename",
            "assist",
        ],
        "",
    );
    assert_eq!(code, 0, "{v}");
    assert!(read(&env, "src/b.rs").contains("assist()"));
    assert_eq!(undo(&env, &[]).1, 0);
    assert_eq!(
        (read(&env, "src/lib.rs"), read(&env, "src/b.rs")),
        (lib.into(), b.into())
    );
    applied(
        &env,
        &[
            "patch",
            "--file",
            "src/lib.rs",
            "--symbol",
            "other",
            "--delete",
        ],
        "",
    );
    assert!(!read(&env, "src/lib.rs").contains("other"));
    assert_eq!(undo(&env, &[]).1, 0);
    assert_eq!(read(&env, "src/lib.rs"), lib);
}

#[test]
fn undo_write_removes_created_and_restores_overwritten() {
    let env = TestEnv::new();
    applied(&env, &["write", "new.py", "--content", "x = 1\n"], "");
    assert!(env.path().join("new.py").exists());
    assert_eq!(undo(&env, &[]).1, 0);
    assert!(!env.path().join("new.py").exists());
    env.write("old.py", "y = 1\n");
    let sum = crate::util::sha(b"y = 1\n");
    applied(
        &env,
        &[
            "write",
            "old.py",
            "--overwrite",
            "--expected-checksum",
            &sum,
            "--content",
            "y = 2\n",
        ],
        "",
    );
    assert_eq!(read(&env, "old.py"), "y = 2\n");
    assert_eq!(undo(&env, &[]).1, 0);
    assert_eq!(read(&env, "old.py"), "y = 1\n");
}

#[test]
fn undo_apply_reverses_delete_and_move() {
    let env = TestEnv::new();
    env.write("gone.txt", "bye\n");
    env.write("old.txt", "moved\n");
    let batch = [
        r#"{"op":"delete","file_path":"gone.txt"}"#,
        r#"{"op":"move","from":"old.txt","to":"place.txt"}"#,
    ]
    .join("\n");
    applied(&env, &["apply"], &batch);
    assert!(!env.path().join("gone.txt").exists());
    assert!(!env.path().join("old.txt").exists());
    assert_eq!(read(&env, "place.txt"), "moved\n");
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(read(&env, "gone.txt"), "bye\n");
    assert_eq!(read(&env, "old.txt"), "moved\n");
    assert!(!env.path().join("place.txt").exists());
}

#[test]
fn history_from_a_subdirectory_finds_the_same_journal() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join(".git")).unwrap();
    env.write("pkg/deep/a.txt", "a\n");
    let id = applied(
        &env,
        &["transform", "pkg/deep/a.txt", "--old", "a", "--new", "b"],
        "",
    );
    assert_eq!(
        std::fs::read_to_string(env.path().join(".llm/.gitignore")).unwrap(),
        "*\n"
    );
    let out = env
        .llm(&["--json", "history"])
        .current_dir(env.path().join("pkg/deep"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ops = v["data"]["operations"].as_array().unwrap();
    assert_eq!(ops.len(), 1, "{v}");
    assert_eq!(ops[0]["execution_id"], id.as_str());
    assert_eq!(ops[0]["command"], "transform");
    assert_eq!(ops[0]["status"], "done");
    assert_eq!(ops[0]["files"][0]["before_lines"], 1);
    assert_eq!(
        ops[0]["files"][0]["before_checksum"],
        crate::util::sha(b"a\n")
    );
    assert_eq!(
        ops[0]["files"][0]["after_checksum"],
        crate::util::sha(b"b\n")
    );
    // The journal is hidden: a search of the tree does not walk it.
    let (s, _) = run(&env, &["search", "transform", "."], "");
    assert_eq!(
        s["data"]["matches"].as_array().map_or(0, |m| m.len()),
        0,
        "{s}"
    );
    // Dry runs are not journaled.
    let (d, code) = run(
        &env,
        &[
            "transform",
            "pkg/deep/a.txt",
            "--old",
            "b",
            "--new",
            "c",
            "--dry-run",
        ],
        "",
    );
    assert_eq!(code, 0, "{d}");
    assert!(d["result"]["undo"].is_null());
    assert_eq!(history(&env).len(), 1);
}

#[test]
fn retention_drops_the_oldest_and_prune_empties() {
    let env = TestEnv::new();
    env.write("a.txt", "0\n");
    let mut ids = Vec::new();
    for i in 0..5 {
        let (v, code) = {
            let mut cmd = env.llm(&[
                "--json",
                "transform",
                "a.txt",
                "--old",
                &format!("{i}\n"),
                "--new",
                &format!("{}\n", i + 1),
            ]);
            cmd.env("LLM_JOURNAL_MAX_OPS", "3");
            let out = cmd.output().unwrap();
            (
                serde_json::from_slice::<Value>(&out.stdout).unwrap(),
                out.status.code().unwrap(),
            )
        };
        assert_eq!(code, 0, "{v}");
        ids.push(v["execution_id"].as_str().unwrap().to_string());
    }
    let ops = history(&env);
    let kept: Vec<&str> = ops
        .iter()
        .map(|o| o["execution_id"].as_str().unwrap())
        .collect();
    assert_eq!(kept, [&ids[4], &ids[3], &ids[2]].map(|s| s.as_str()));
    // The pre-images of dropped operations are gone too: 3 operations, 3 objects.
    let objects = std::fs::read_dir(env.path().join(".llm/objects"))
        .unwrap()
        .count();
    assert_eq!(objects, 3);
    let (u, code) = undo(&env, &[&ids[0]]);
    assert_eq!(code, 2, "{u}");
    assert_eq!(u["error"]["code"], "LLM_E119");
    let (p, code) = run(&env, &["history", "--prune"], "");
    assert_eq!(code, 0, "{p}");
    assert_eq!(p["data"]["pruned"], 3);
    assert!(history(&env).is_empty());
    assert_eq!(undo(&env, &[]).0["error"]["code"], "LLM_E119");
}

#[test]
fn foreign_bytes_are_what_undo_restores() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let mut cmd = env.llm(&[
        "--json",
        "transform",
        "a.txt",
        "--old",
        "one",
        "--new",
        "ONE",
    ]);
    cmd.env("LLM_FAILPOINT_FOREIGN_WRITE", "theirs\n");
    let out = cmd.output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["diagnostics"].to_string().contains("LLM_E114"), "{v}");
    let ops = history(&env);
    assert_eq!(
        ops[0]["files"][0]["foreign_checksum"],
        crate::util::sha(b"one\ntheirs\n")
    );
    assert_eq!(undo(&env, &[]).1, 0);
    assert_eq!(read(&env, "a.txt"), "one\ntheirs\n");
}

#[test]
fn human_output_says_how_to_undo() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let out = env
        .llm(&["transform", "a.txt", "--old", "one", "--new", "two"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  undo: llm undo "), "{text}");
    let out = env.llm(&["history"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("[done] llm transform a.txt --old one --new two"),
        "{text}"
    );
}

#[test]
fn parallel_mutations_each_get_one_record() {
    let env = TestEnv::new();
    for i in 0..8 {
        env.write(&format!("f{i}.txt"), "old\n");
    }
    let bin = assert_cmd::cargo::cargo_bin("llm");
    let children: Vec<_> = (0..8)
        .map(|i| {
            std::process::Command::new(&bin)
                .args([
                    "transform",
                    &format!("f{i}.txt"),
                    "--old",
                    "old",
                    "--new",
                    "new",
                ])
                .current_dir(env.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let ops = history(&env);
    assert_eq!(ops.len(), 8);
    let mut seqs: Vec<u64> = ops.iter().map(|o| o["seq"].as_u64().unwrap()).collect();
    seqs.sort();
    assert_eq!(seqs, (1..=8).collect::<Vec<_>>());
    let mut files: Vec<&str> = ops
        .iter()
        .map(|o| o["files"][0]["file_path"].as_str().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        (0..8).map(|i| format!("f{i}.txt")).collect::<Vec<_>>()
    );
}

#[test]
fn retention_by_bytes_and_from_the_config_file() {
    let env = TestEnv::new();
    env.write("a.txt", "0\n");
    let step = |i: usize, vars: &[(&str, &str)]| {
        let old = format!("{i}\n");
        let new = format!("{}\n", i + 1);
        let mut cmd = env.llm(&["transform", "a.txt", "--old", &old, "--new", &new]);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        assert!(cmd.output().unwrap().status.success());
    };
    // A byte limit below one pre-image keeps only the newest operation.
    for i in 0..3 {
        step(i, &[("LLM_JOURNAL_MAX_BYTES", "1")]);
    }
    assert_eq!(history(&env).len(), 1);
    let objects = || {
        std::fs::read_dir(env.path().join(".llm/objects"))
            .unwrap()
            .count()
    };
    assert_eq!(objects(), 1);
    // `.llm/config` sets the operation limit.
    env.write(".llm/config", "# retention\nmax_ops = 2\n");
    for i in 3..6 {
        step(i, &[]);
    }
    assert_eq!(history(&env).len(), 2);
    assert_eq!(objects(), 2);
}

fn mode(env: &TestEnv, rel: &str) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(env.path().join(rel))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

fn chmod(env: &TestEnv, rel: &str, m: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(env.path().join(rel), std::fs::Permissions::from_mode(m)).unwrap();
}

#[test]
fn undo_restores_the_mode_of_deleted_and_moved_files() {
    let env = TestEnv::new();
    env.write("run.sh", "#!/bin/sh\necho hi\n");
    env.write("secret.txt", "k = v\n");
    chmod(&env, "run.sh", 0o755);
    chmod(&env, "secret.txt", 0o600);
    // A batch move keeps the mode.
    applied(
        &env,
        &["apply"],
        r#"{"op":"move","from":"run.sh","to":"tool.sh"}"#,
    );
    assert_eq!(mode(&env, "tool.sh"), 0o755);
    assert_eq!(undo(&env, &[]).1, 0);
    assert_eq!(mode(&env, "run.sh"), 0o755);
    let batch = [
        r#"{"op":"delete","file_path":"run.sh"}"#,
        r#"{"op":"delete","file_path":"secret.txt"}"#,
    ]
    .join("\n");
    applied(&env, &["apply"], &batch);
    assert!(!env.path().join("run.sh").exists());
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(read(&env, "run.sh"), "#!/bin/sh\necho hi\n");
    assert_eq!(mode(&env, "run.sh"), 0o755);
    assert_eq!(mode(&env, "secret.txt"), 0o600);
    // A git move into a new directory keeps the mode; undo brings the file back with it and
    // removes the directories the move created.
    let diff = "diff --git a/run.sh b/sub/deep/run.sh\nsimilarity index 100%\nrename from run.sh\nrename to sub/deep/run.sh\n";
    applied(&env, &["apply"], diff);
    assert_eq!(mode(&env, "sub/deep/run.sh"), 0o755);
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(mode(&env, "run.sh"), 0o755);
    assert!(!env.path().join("sub").exists());
}

/// A mode the operation left alone is the file's own: a `chmod` made after it stays through its
/// undo (undo put the old bits back over it, though only the content was the operation's).
#[test]
fn undo_keeps_a_mode_changed_since_by_someone_else() {
    let env = TestEnv::new();
    env.write("f.txt", "a\n");
    chmod(&env, "f.txt", 0o644);
    let (v, code) = env.json(&["--json", "transform", "f.txt", "--old", "a", "--new", "b"]);
    assert_eq!(code, 0, "{v}");
    chmod(&env, "f.txt", 0o700);
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(read(&env, "f.txt"), "a\n");
    assert_eq!(mode(&env, "f.txt"), 0o700);
}

#[test]
fn undo_restores_a_git_mode_change() {
    let env = TestEnv::new();
    env.write("m.sh", "echo\n");
    chmod(&env, "m.sh", 0o644);
    let diff = "diff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n";
    let id = applied(&env, &["apply"], diff);
    assert_eq!(mode(&env, "m.sh"), 0o755);
    let op = history(&env)[0].clone();
    assert_eq!(op["execution_id"], id.as_str());
    assert_eq!(op["files"][0]["before_mode"], 0o644, "{op}");
    assert_eq!(op["files"][0]["after_mode"], 0o755, "{op}");
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(mode(&env, "m.sh"), 0o644);
    assert_eq!(read(&env, "m.sh"), "echo\n");
    // Undo of the undo sets it again.
    let undo_id = history(&env)[0]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(undo(&env, &[&undo_id]).1, 0);
    assert_eq!(mode(&env, "m.sh"), 0o755);
}

#[test]
fn undo_removes_created_directories_only_when_empty_and_redo_recreates_them() {
    let env = TestEnv::new();
    applied(
        &env,
        &["write", "a/b/c.txt", "--parents", "--content", "x\n"],
        "",
    );
    let op = history(&env)[0].clone();
    assert_eq!(op["created_dirs"].as_array().map(Vec::len), Some(2), "{op}");
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 0, "{v}");
    assert!(!env.path().join("a").exists());
    // Undo of the undo: the directories come back with the file; undoing that removes them.
    let undo_id = history(&env)[0]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();
    let (v, code) = undo(&env, &[&undo_id]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(read(&env, "a/b/c.txt"), "x\n");
    let redo_id = history(&env)[0]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(undo(&env, &[&redo_id]).1, 0);
    assert!(!env.path().join("a").exists());
    // A created directory that holds something else stays.
    applied(
        &env,
        &["write", "d/e/f.txt", "--parents", "--content", "y\n"],
        "",
    );
    env.write("d/keep.txt", "mine\n");
    assert_eq!(undo(&env, &[]).1, 0);
    assert!(!env.path().join("d/e").exists());
    assert_eq!(read(&env, "d/keep.txt"), "mine\n");
}

#[test]
fn retention_past_the_limit_drops_to_ninety_percent() {
    let env = TestEnv::new();
    env.write("a.txt", "0\n");
    let step = |i: usize| {
        let out = env
            .llm(&[
                "--json",
                "transform",
                "a.txt",
                "--old",
                &format!("{i}\n"),
                "--new",
                &format!("{}\n", i + 1),
            ])
            .env("LLM_JOURNAL_MAX_OPS", "20")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    for i in 0..20 {
        step(i);
    }
    assert_eq!(history(&env).len(), 20);
    // The 21st goes past the limit: the oldest go until 18 are left (objects with them).
    step(20);
    let ops = history(&env);
    assert_eq!(ops.len(), 18);
    assert_eq!(
        ops[0]["args"],
        "--json transform a.txt --old '20\n' --new '21\n'"
    );
    let objects = || {
        std::fs::read_dir(env.path().join(".llm/objects"))
            .unwrap()
            .count()
    };
    assert_eq!(objects(), 18);
    // Below the limit again: nothing is dropped.
    step(21);
    assert_eq!(history(&env).len(), 19);
    assert_eq!(objects(), 19);
}

/// A record as llm writes it, for `path` (absolute), created by the operation with `after`.
fn planted(id: &str, status: &str, path: &str, after: &str) -> String {
    serde_json::json!({
        "execution_id": id, "seq": 99, "command": "write", "args": "x",
        "time": "2026-11-27T10:10:36Z", "status": status, "allow_outside_root": true,
        "files": [{"file_path": "v", "path": path, "before_checksum": null,
                   "after_checksum": after, "before_lines": 0, "after_lines": 1,
                   "before_mode": null, "after_mode": 420}]
    })
    .to_string()
}

#[test]
fn the_journal_is_no_target_and_its_records_and_objects_are_not_trusted_blindly() {
    // A fuzzing run made `llm undo` and `llm history` delete or overwrite a file outside the
    // root, through a record written into .llm/ (by a mutation, or shipped in a clone).
    let env = TestEnv::new();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let victim_sum = crate::util::sha(b"precious\n");
    env.write("a.txt", "one\ntwo\n");
    applied(
        &env,
        &["transform", "a.txt", "--old", "one", "--new", "ONE"],
        "",
    );
    // 1. No mutation writes into .llm/ (LLM_E121), by write, transform or apply.
    let record = planted(
        "deadbeef-0000-0000-0000-000000000009",
        "done",
        victim.to_str().unwrap(),
        &victim_sum,
    );
    let name = ".llm/journal/0000000099-deadbeef-0000-0000-0000-000000000009.json";
    let (v, code) = run(&env, &["write", name, "--content", &record], "");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E121")),
        "{v}"
    );
    let objects: Vec<_> = std::fs::read_dir(env.path().join(".llm/objects"))
        .unwrap()
        .flatten()
        .collect();
    let object = format!(".llm/objects/{}", objects[0].file_name().to_string_lossy());
    let (v, code) = run(
        &env,
        &["transform", &object, "--old", "one", "--new", "x"],
        "",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E121")),
        "{v}"
    );
    let batch = format!("{{\"op\":\"delete\",\"file_path\":\"{object}\"}}\n");
    let (v, code) = run(&env, &["apply"], &batch);
    assert_eq!(code, 2, "{v}");
    assert!(v.to_string().contains("LLM_E121"), "{v}");
    // 2. A record put there by other means that reaches outside the root: undo refuses it
    // (LLM_E122) unless given --allow-outside-root; the file outside is untouched.
    env.write(name, &record);
    let (v, code) = undo(&env, &["deadbeef"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E122")),
        "{v}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    // A path with `..` is no record llm writes: ignored.
    let dotted = format!(
        "{}/../{}/victim.txt",
        env.path().display(),
        outside.path().display()
    );
    env.write(
        name,
        planted(
            "deadbeef-0000-0000-0000-000000000009",
            "done",
            &dotted,
            &victim_sum,
        ),
    );
    let (v, code) = undo(&env, &["deadbeef"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E119")),
        "{v}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    // 3. An interrupted run's record reaching outside: recovery refuses it too.
    std::fs::remove_file(env.path().join(name)).unwrap();
    let pending = ".llm/journal/0000000099-deadbeef-0000-0000-0000-000000000009.pending.json";
    env.write(
        pending,
        planted(
            "deadbeef-0000-0000-0000-000000000009",
            "pending",
            victim.to_str().unwrap(),
            &victim_sum,
        ),
    );
    let (v, code) = run(&env, &["history"], "");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E122")),
        "{v}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    std::fs::remove_file(env.path().join(pending)).unwrap();
    // A record cut short is ignored, and said to be (it was silently left out).
    env.write(name, &record[..100]);
    let (v, code) = run(&env, &["history"], "");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["diagnostics"][0]["code"], "LLM_E122", "{v}");
    assert!(
        v["data"]["ignored"][0].as_str().unwrap().ends_with(name),
        "{v}"
    );
    std::fs::remove_file(env.path().join(name)).unwrap();
    // 4. A kept pre-image that does not hold its checksum's bytes is never restored.
    std::fs::write(env.path().join(&object), "CORRUPT\n").unwrap();
    let (v, code) = undo(&env, &[]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (2, Some("LLM_E122")),
        "{v}"
    );
    assert_eq!(read(&env, "a.txt"), "ONE\ntwo\n");
}

#[test]
fn a_journal_directory_that_is_a_symlink_is_refused_before_anything_is_made() {
    let env = TestEnv::new();
    let outside = tempfile::tempdir().unwrap();
    env.write("a.txt", "one\n");
    // A transform is refused (LLM_E117), the file unchanged, nothing made out there.
    let refused = || {
        let args = ["transform", "a.txt", "--old", "one", "--new", "two"];
        let (v, code) = run(&env, &args, "");
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (2, Some("LLM_E117")),
            "{v}"
        );
        assert_eq!(read(&env, "a.txt"), "one\n");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    };
    std::os::unix::fs::symlink(outside.path(), env.path().join(".llm")).unwrap();
    refused();
    // .llm/journal as the symlink.
    std::fs::remove_file(env.path().join(".llm")).unwrap();
    std::fs::create_dir(env.path().join(".llm")).unwrap();
    std::os::unix::fs::symlink(outside.path(), env.path().join(".llm/journal")).unwrap();
    refused();
}

/// `a.txt` (`hello`) changed to `bye` by one transform: the workspace and the path of its
/// journal record.
fn one_record() -> (TestEnv, std::path::PathBuf, String) {
    let env = TestEnv::new();
    env.write("a.txt", "hello\n");
    let id = applied(
        &env,
        &["transform", "a.txt", "--old", "hello", "--new", "bye"],
        "",
    );
    let record = std::fs::read_dir(env.path().join(".llm/journal"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains(&id))
        .unwrap();
    (env, record, id)
}

/// Files another program puts in `.llm/` where llm reads its own (a FIFO, a link to
/// /dev/zero, a record over 64 MiB) are skipped, never waited on or read without end; and a
/// record's setuid, setgid and sticky bits are never restored (an attack run got
/// `-rwsrwsrwt` from `llm undo` of a hand-edited record).
#[test]
fn hostile_journal_files_neither_hang_nor_fill_memory_nor_set_special_bits() {
    use std::os::unix::fs::PermissionsExt;
    let (env, record, _) = one_record();
    let journal = env.path().join(".llm/journal");
    // The record asks for 0o7777 on undo.
    let mut v: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    v["files"][0]["before_mode"] = 0o7777.into();
    std::fs::write(&record, v.to_string()).unwrap();
    let fifo = journal.join("0000000050-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.json");
    let pending = journal.join("0000000051-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaab.pending.json");
    let zero = journal.join("0000000052-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaac.json");
    let huge = journal.join("0000000053-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaad.json");
    for p in [&fifo, &pending] {
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    let config = env.path().join(".llm/config");
    std::os::unix::fs::symlink("/dev/zero", &config).unwrap();
    // Each command ends, within 60 s (they hung), with its usual answer.
    let timed = |args: &[&str]| {
        let out = env
            .llm(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {v}");
    };
    timed(&["--json", "history"]);
    timed(&[
        "--json",
        "transform",
        "a.txt",
        "--old",
        "bye",
        "--new",
        "ciao",
    ]);
    timed(&["--json", "undo"]);
    timed(&["--json", "undo"]);
    assert_eq!(read(&env, "a.txt"), "hello\n");
    let mode = std::fs::metadata(env.path().join("a.txt"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7000, 0, "{mode:o}");
}

/// With only a damaged record left, `undo` says it was ignored (it said every operation was
/// undone).
#[test]
fn undo_with_only_damaged_records_says_they_were_ignored() {
    let (env, record, _) = one_record();
    std::fs::write(record, "{").unwrap();
    let (v, code) = undo(&env, &[]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "LLM_E119", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("damaged"), "{message}");
    assert_eq!(read(&env, "a.txt"), "bye\n");
}

/// A record that says it undoes itself is no record llm writes: ignored (history showed
/// `undone by X, undoes X`).
#[test]
fn a_record_that_undoes_itself_is_ignored() {
    let (env, record, id) = one_record();
    let mut v: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    v["undoes"] = id.clone().into();
    std::fs::write(&record, v.to_string()).unwrap();
    let (v, code) = run(&env, &["history"], "");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        v["data"]["ignored"].as_array().map(Vec::len),
        Some(1),
        "{v}"
    );
}
