//! Fixture helpers: a temp directory to run `llm` in, and span checks against file bytes.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A temporary working directory with files in it.
pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    /// An empty directory.
    pub fn new() -> Self {
        TestEnv {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `contents` to `rel`, creating parent directories.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.dir.path().join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, contents).unwrap();
        p
    }

    /// Reads `rel` back.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(rel)).unwrap()
    }

    /// Reads `rel` back as UTF-8 text.
    pub fn text(&self, rel: &str) -> String {
        String::from_utf8(self.read(rel)).unwrap()
    }

    /// `llm ARGS` with this directory as the current directory and a clean environment.
    pub fn llm(&self, args: &[&str]) -> Command {
        let mut cmd = llm();
        cmd.current_dir(self.dir.path()).args(args);
        cmd
    }

    /// Runs `llm patch --json ARGS` and parses its envelope.
    pub fn patch(&self, args: &[&str]) -> (Value, i32) {
        let mut a = vec!["patch", "--json"];
        a.extend_from_slice(args);
        self.json(&a)
    }

    /// Renames `symbol` of `file` to `new` over the whole tree; returns the envelope and the
    /// exit code.
    pub fn rename(&self, file: &str, symbol: &str, new: &str) -> (Value, i32) {
        self.patch(&["--file", file, "--symbol", symbol, "--rename", new])
    }

    /// [`TestEnv::rename`] of the definition at `line`.
    pub fn rename_line(&self, file: &str, symbol: &str, line: &str, new: &str) -> (Value, i32) {
        self.patch(&[
            "--file", file, "--symbol", symbol, "--line", line, "--rename", new,
        ])
    }

    /// Renames `symbol` at `line` of `file` to `new`, with `file` the only file walked
    /// (`--in`); returns the envelope and the exit code.
    pub fn rename_at(&self, file: &str, symbol: &str, line: &str, new: &str) -> (Value, i32) {
        self.patch(&[
            "--file", file, "--symbol", symbol, "--line", line, "--rename", new, "--in", file,
        ])
    }

    /// Runs `llm ARGS` and parses stdout as one JSON value.
    pub fn json(&self, args: &[&str]) -> (Value, i32) {
        envelope(&self.llm(args).output().unwrap())
    }

    /// Runs `llm ARGS` with `stdin` and parses stdout as one JSON value.
    pub fn json_stdin(&self, args: &[&str], stdin: &str) -> (Value, i32) {
        envelope(&self.llm(args).write_stdin(stdin).output().unwrap())
    }
}

/// A finished run's stdout as one JSON value (a panic names stdout and stderr when it is not
/// JSON), and its exit code.
pub fn envelope(out: &std::process::Output) -> (Value, i32) {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out.status.code().unwrap_or(-1))
}

/// The `llm` binary with colour and format variables cleared.
pub fn llm() -> Command {
    let mut cmd = Command::cargo_bin("llm").unwrap();
    cmd.env_remove("LLM_FORMAT")
        .env_remove("NO_COLOR")
        .env("RUST_BACKTRACE", "0");
    cmd
}

/// Asserts that a JSON span agrees with the bytes of the file it names (relative to `root`):
/// lines/columns follow from the byte offsets, and the span_id is the SPEC's.
pub fn check_span(root: &Path, span: &Value) {
    let path = span["file_path"].as_str().expect("file_path");
    let bytes = std::fs::read(root.join(path)).expect("span file readable");
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    assert!(
        start <= end && end <= bytes.len(),
        "span out of file: {span}"
    );
    let pos = |off: usize| {
        let line = bytes[..off].iter().filter(|&&b| b == b'\n').count() + 1;
        let col = off
            - bytes[..off]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
        (line as u64, col as u64)
    };
    assert_eq!(
        pos(start),
        (
            span["start_line"].as_u64().unwrap(),
            span["start_col"].as_u64().unwrap()
        ),
        "start of {span}"
    );
    assert_eq!(
        pos(end),
        (
            span["end_line"].as_u64().unwrap(),
            span["end_col"].as_u64().unwrap()
        ),
        "end of {span}"
    );
    assert_eq!(
        span["span_id"].as_str().unwrap(),
        span_id(path, start, end),
        "span_id of {span}"
    );
}

/// SHA-256 hex of `bytes`, computed independently of the crate.
pub fn sha(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The SPEC's span_id, computed independently of the crate.
pub fn span_id(path: &str, start: usize, end: usize) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(path.as_bytes());
    h.update(b":");
    h.update((start as u64).to_be_bytes());
    h.update(b":");
    h.update((end as u64).to_be_bytes());
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// insta settings that redact uuids, timestamps and temp paths.
pub fn redactions(root: &Path) -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(
        r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
        "[UUID]",
    );
    s.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "[TIMESTAMP]");
    let root = root.to_string_lossy().to_string();
    s.add_filter(&regex_escape(&root), "[TMP]");
    s
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if "\\.+*?()|[]{}^$#&-~".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The class (`certain`, `possible`, `excluded`) of the rename site at `file:line:col` (col
/// 0-based) in a `patch --rename --json` envelope.
pub fn site_class(v: &Value, file: &str, line: u64, col: u64) -> String {
    let sites = v["result"]["sites"].as_array().unwrap();
    let s = sites
        .iter()
        .find(|s| {
            s["span"]["file_path"] == file
                && s["span"]["start_line"] == line
                && s["span"]["start_col"] == col
        })
        .unwrap_or_else(|| panic!("no site at {file}:{line}:{col}: {v}"));
    s["class"].as_str().unwrap().to_string()
}
