//! Hostile input through the real binary: arguments that are not UTF-8, language servers that
//! lie about message sizes, never end a line or leave daemons behind. None may panic, hang or
//! grow memory without bound; each answers a coded error.

use crate::util::TestEnv;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

fn raw(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

/// Runs `llm` with raw arguments; the output must be one JSON envelope, never a panic.
fn envelope(env: &TestEnv, args: &[&OsStr]) -> (serde_json::Value, i32) {
    let out = crate::util::llm()
        .current_dir(env.path())
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert_ne!(code, 101, "panic: {}", String::from_utf8_lossy(&out.stderr));
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, code)
}

#[test]
fn non_utf8_arguments_never_panic() {
    let env = TestEnv::new();
    env.write("a.txt", "hello\n");
    let json = raw(b"--json");
    let cases: Vec<Vec<&OsStr>> = vec![
        vec![
            raw(b"transform"),
            raw(b"\xff.txt"),
            raw(b"--old"),
            raw(b"a"),
            raw(b"--new"),
            raw(b"b"),
            json,
        ],
        vec![
            raw(b"transform"),
            raw(b"a.txt"),
            raw(b"--old"),
            raw(b"\xffx"),
            raw(b"--new"),
            raw(b"b"),
            json,
        ],
        vec![raw(b"search"), raw(b"\xff"), raw(b"."), json],
        vec![raw(b"search"), raw(b"hello"), raw(b"\xfe"), json],
        vec![raw(b"find"), raw(b"\xff"), json],
        vec![raw(b"ast"), raw(b"(identifier)"), raw(b"\xff.rs"), json],
        vec![
            raw(b"patch"),
            raw(b"--file"),
            raw(b"\xff.py"),
            raw(b"--symbol"),
            raw(b"f"),
            raw(b"--delete"),
            json,
        ],
        vec![
            raw(b"write"),
            raw(b"\xff.txt"),
            raw(b"--content"),
            raw(b"x"),
            json,
        ],
    ];
    for args in &cases {
        let (v, code) = envelope(&env, args);
        let status = v["status"].as_str().unwrap_or_default();
        assert!(code == 1 || code == 2, "{args:?}: {v}");
        assert!(
            status == "error" || status == "no_matches" || status == "rejected",
            "{args:?}: {v}"
        );
        if status == "error" {
            assert!(v["error"]["code"].as_str().is_some(), "{args:?}: {v}");
        }
    }
    assert_eq!(env.read("a.txt"), b"hello\n");
    // A target whose name is not UTF-8 is refused (JSON could not spell it), never created.
    let (v, _) = envelope(&env, &cases[7]);
    assert_eq!(v["error"]["code"], "LLM_E112", "{v}");
    assert_eq!(std::fs::read_dir(env.path()).unwrap().count(), 1);
    // A usage error asked for with --json is one JSON envelope, not a jsonl summary line.
    let (v, _) = envelope(&env, &[raw(b"find"), raw(b"\xff"), json]);
    assert!(v.get("type").is_none(), "{v}");
    assert_eq!(v["error"]["code"], "LLM_E001");
}

#[test]
fn bytes_given_as_content_are_written_as_they_are() {
    let env = TestEnv::new();
    let (v, code) = envelope(
        &env,
        &[
            raw(b"write"),
            raw(b"b.bin"),
            raw(b"--content"),
            raw(b"\xfe\x01k"),
            raw(b"--force"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("b.bin"), b"\xfe\x01k");
    // Without --force, bytes that are not UTF-8 are refused with a code (not a panic).
    let (v, code) = envelope(
        &env,
        &[
            raw(b"write"),
            raw(b"c.txt"),
            raw(b"--content"),
            raw(b"\xfe"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "WRITE_E003");
    // --old/--new bytes reach the file unchanged.
    env.write("t.txt", b"a\xffb\n");
    let (v, code) = envelope(
        &env,
        &[
            raw(b"transform"),
            raw(b"t.txt"),
            raw(b"--old"),
            raw(b"\xff"),
            raw(b"--new"),
            raw(b"\xfe"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("t.txt"), b"a\xfeb\n");
}

/// A scripted language server (Python) for `llm write --lsp`.
fn server(env: &TestEnv, name: &str, body: &str) -> String {
    env.write(name, body);
    format!("python3 -u {}", env.path().join(name).display())
}

fn write_with_lsp(env: &TestEnv, lsp: &str) -> (serde_json::Value, Duration) {
    let started = Instant::now();
    let (v, code) = envelope(
        env,
        &[
            raw(b"write"),
            raw(b"m.py"),
            raw(b"--content"),
            raw(b"x = 1\n"),
            raw(b"--lsp"),
            OsStr::new(lsp),
            raw(b"--lsp-timeout"),
            raw(b"3"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert!(!env.path().join("m.py").exists());
    (v, started.elapsed())
}

fn lsp_code(v: &serde_json::Value) -> String {
    v["result"]["diagnostics"][0]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_server_announcing_a_huge_message_is_a_protocol_error() {
    let env = TestEnv::new();
    let lsp = server(
        &env,
        "huge.py",
        "import sys\nsys.stdout.buffer.write(b'Content-Length: 4611686018427387904\\r\\n\\r\\n')\nsys.stdout.buffer.flush()\nsys.stdin.read()\n",
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E003", "{v}");
    assert!(v.to_string().contains("cap"), "{v}");
}

#[test]
fn a_server_that_never_ends_a_line_is_a_protocol_error() {
    let env = TestEnv::new();
    let lsp = server(
        &env,
        "nonl.py",
        "import sys\nwhile True:\n    sys.stdout.buffer.write(b'x' * 65536)\n",
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E003", "{v}");
    assert!(v.to_string().contains("header line longer"), "{v}");
}

#[test]
fn a_server_daemon_started_with_setsid_is_killed_too() {
    let env = TestEnv::new();
    let pidfile = env.path().join("daemon.pid");
    let lsp = server(
        &env,
        "daemon.py",
        &format!(
            "import subprocess, sys\np = subprocess.Popen(['setsid', 'sleep', '300'])\nopen({:?}, 'w').write(str(p.pid))\nsys.stdin.read()\n",
            pidfile.display().to_string()
        ),
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E002", "{v}");
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    // Gone, or a zombie waiting for its reaper: never still running.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')
                    .map(|(_, r)| r.trim().chars().next().unwrap_or('?'))
            });
        if matches!(state, None | Some('Z') | Some('X')) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the setsid daemon {pid} outlived llm"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
