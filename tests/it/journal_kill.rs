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
