//! Crash recovery: a 20-file transform SIGKILLed at varied moments (a test-build failpoint
//! sleeps before each rename so kills land mid-commit), then `llm history` recovers: every run
//! leaves the files all old or all new, and no temp file behind.

use crate::util::TestEnv;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const FILES: usize = 20;

fn names() -> Vec<String> {
    (0..FILES).map(|i| format!("f{i:02}.txt")).collect()
}

fn old_text(i: usize) -> String {
    format!("file {i}\n").repeat(2000)
}

/// Leftover temp files anywhere under `dir` (the journal's own directory aside).
fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".llm-") && n.ends_with(".tmp"))
        .collect()
}

#[test]
fn sigkill_mid_commit_leaves_all_old_or_all_new() {
    let env = TestEnv::new();
    let request: Vec<Value> = names()
        .iter()
        .map(|n| json!({"file_path": n, "edits": [{"byte_start": 0, "byte_end": 4, "new_content": "FILE"}]}))
        .collect();
    let request = serde_json::to_string(&request).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("llm");
    // Calibration: how long one uninterrupted run takes here (the kills are spread over it).
    for (i, n) in names().iter().enumerate() {
        env.write(n, old_text(i));
    }
    let start = std::time::Instant::now();
    let out = std::process::Command::new(&bin)
        .args(["--json", "transform"])
        .current_dir(env.path())
        .env("LLM_FAILPOINT_SLEEP_MS", "5")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(request.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let full = start.elapsed().as_millis() as u64;
    let (mut old, mut new) = (0, 0);
    for round in 0..20u64 {
        for (i, n) in names().iter().enumerate() {
            env.write(n, old_text(i));
        }
        let mut child = std::process::Command::new(&bin)
            .args(["--json", "transform"])
            .current_dir(env.path())
            .env("LLM_FAILPOINT_SLEEP_MS", "5")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(request.as_bytes());
        }
        // Spread the kills over the run: before, during and after the commit.
        std::thread::sleep(Duration::from_millis(full * (round * 7 % 20 + 1) / 20));
        let _ = child.kill();
        let _ = child.wait();
        let out = std::process::Command::new(&bin)
            .args(["--json", "history"])
            .current_dir(env.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let states: Vec<bool> = names()
            .iter()
            .map(|n| {
                std::fs::read(env.path().join(n))
                    .unwrap()
                    .starts_with(b"FILE")
            })
            .collect();
        assert!(
            states.iter().all(|s| *s) || states.iter().all(|s| !*s),
            "round {round}: mixed files {states:?}"
        );
        if states[0] {
            new += 1;
        } else {
            old += 1;
        }
        assert_eq!(temps(env.path()), Vec::<String>::new(), "round {round}");
        for (i, n) in names().iter().enumerate() {
            let now = std::fs::read(env.path().join(n)).unwrap();
            let mut want = old_text(i).into_bytes();
            if states[0] {
                want[..4].copy_from_slice(b"FILE");
            }
            assert_eq!(now, want, "round {round}: {n} is neither old nor new");
        }
        // No record is left pending.
        let pending = std::fs::read_dir(env.path().join(".llm/journal"))
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".pending.json"))
                    .count()
            })
            .unwrap_or(0);
        assert_eq!(pending, 0, "round {round}");
    }
    eprintln!("all old: {old}, all new: {new} (one run: {full} ms)");
    assert_eq!(old + new, 20);
}

/// Starts a 3-file transform that sleeps 400 ms before each rename and after the last, waits
/// until `renamed` files are new, kills it, and returns the envelope of `llm history`.
fn kill_after(env: &TestEnv, renamed: usize) -> Value {
    let names = ["a.txt", "b.txt", "c.txt"];
    for n in names {
        env.write(n, "old\n");
    }
    let req: Vec<Value> = names
        .iter()
        .map(|n| json!({"file_path": n, "edits": [{"byte_start": 0, "byte_end": 3, "new_content": "new"}]}))
        .collect();
    let mut child = slow_run(env, "transform", &serde_json::to_string(&req).unwrap());
    let new = |n: &str| std::fs::read(env.path().join(n)).unwrap() == b"new\n";
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while names.iter().filter(|n| new(n)).count() < renamed {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never got there"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    history(env)
}

/// `llm COMMAND` fed `input` on stdin, sleeping 400 ms at each failpoint (a test build's
/// `LLM_FAILPOINT_SLEEP_MS`) so that a kill lands mid-commit.
fn slow_run(env: &TestEnv, command: &str, input: &str) -> std::process::Child {
    use std::io::Write;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .args(["--json", command])
        .current_dir(env.path())
        .env("LLM_FAILPOINT_SLEEP_MS", "400")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child
}

/// `llm history --json` (which recovers an interrupted run first).
fn history(env: &TestEnv) -> Value {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .args(["--json", "history"])
        .current_dir(env.path())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_half_commit_is_rolled_back_and_a_finished_one_completed() {
    let env = TestEnv::new();
    // Killed with one file of three renamed: rolled back, all old.
    let v = kill_after(&env, 1);
    let op = &v["data"]["operations"][0];
    assert_eq!(v["data"]["recovered"][0], op["execution_id"], "{v}");
    assert_eq!(
        (op["status"].as_str(), op["recovered"].as_str()),
        (Some("rolled_back"), Some("rolled_back"))
    );
    assert!(op["undo"].is_null());
    for n in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(env.read(n), b"old\n", "{n}");
    }
    assert_eq!(temps(env.path()), Vec::<String>::new());
    // Killed after the last rename, before the done mark: completed, all new, undoable.
    let v = kill_after(&env, 3);
    let op = &v["data"]["operations"][0];
    assert_eq!(
        (op["status"].as_str(), op["recovered"].as_str()),
        (Some("done"), Some("completed")),
        "{v}"
    );
    for n in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(env.read(n), b"new\n", "{n}");
    }
    let out = env.llm(&["--json", "undo"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for n in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(env.read(n), b"old\n", "{n}");
    }
}

#[test]
fn a_rolled_back_run_removes_the_directories_it_created() {
    let env = TestEnv::new();
    env.write("a.txt", "old\n");
    let batch = [
        r#"{"op":"write","file_path":"a.txt","content":"new\n","overwrite":true}"#,
        r#"{"op":"write","file_path":"sub/deep/n.txt","content":"n\n"}"#,
    ]
    .join("\n");
    let mut child = slow_run(&env, "apply", &batch);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::read(env.path().join("a.txt")).unwrap() != b"new\n" {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never got there"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(env.path().join("sub/deep").is_dir());
    child.kill().unwrap();
    child.wait().unwrap();
    let v = history(&env);
    let op = &v["data"]["operations"][0];
    assert_eq!(op["recovered"], "rolled_back", "{v}");
    assert_eq!(op["created_dirs"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(env.read("a.txt"), b"old\n");
    assert!(!env.path().join("sub").exists());
}

/// A run killed while `--check` runs its checker on the written files (cargo and tsc check
/// the project in place) never validated its change: recovery rolls it back. It completed it,
/// keeping an unchecked (here: broken) change for good.
#[test]
fn a_run_killed_while_its_check_runs_is_rolled_back() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("tsconfig.json", "{\"include\": [\"src\"]}\n");
    env.write(
        "src/a.ts",
        "export function g(): number {\n    return 1;\n}\n",
    );
    // A `tsc` that passes the check before the change and hangs in the one after it.
    let bin = env.path().join("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    let marker = env.path().join("calls");
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *--version*) echo 'Version 5.6.3'; exit 0;; esac\necho x >> '{m}'\nif [ \"$(wc -l < '{m}')\" -ge 2 ]; then exec sleep 30; fi\nexit 0\n",
        m = marker.display()
    );
    std::fs::write(bin.join("tsc"), script).unwrap();
    std::fs::set_permissions(bin.join("tsc"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .current_dir(env.path())
        .env("PATH", &path)
        .args(["patch", "--file", "src/a.ts", "--symbol", "g", "--body"])
        .args(["--with-text", "return \"broken\";", "--check", "--json"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&marker).map_or(0, |m| m.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the check never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(String::from_utf8(env.read("src/a.ts"))
        .unwrap()
        .contains("broken"));
    child.kill().unwrap();
    child.wait().unwrap();
    let h = history(&env);
    assert_eq!(
        env.read("src/a.ts"),
        b"export function g(): number {\n    return 1;\n}\n"
    );
    let op = &h["data"]["operations"][0];
    assert_eq!(op["recovered"], "rolled_back", "{h}");
}
