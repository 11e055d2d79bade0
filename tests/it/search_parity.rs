//! `llm search` against ripgrep 13 on flag combinations found by a differential fuzzer (its
//! third round): `-m0`, and `--max-filesize` leaving nothing to search. rg's output (`rg -n --column`, without `--column` under `-v`,
//! neither under `-N`) is written out as literals: rg is not needed at test time. Where llm
//! differs on purpose, the comment gives rg's.

use crate::search::{human, search};
use crate::util::TestEnv;
use serde_json::Value;

/// `--format jsonl`: the match lines and the summary's envelope.
fn jsonl(env: &TestEnv, args: &[&str]) -> (Vec<Value>, Value) {
    let out = env
        .llm(&[&["search", "--format", "jsonl"], args].concat())
        .output()
        .unwrap();
    let mut lines: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary");
    (lines, summary)
}

#[test]
fn max_count_zero_selects_nothing_whatever_else_is_asked() {
    let env = TestEnv::new();
    env.write("m0.txt", "foo\nbar\n");
    // rg: nothing, exit 1 (it searches nothing: no match is possible).
    for args in [
        &["-v", "-m0", "foo", "m0.txt"][..],
        &["-v", "-m0", "-c", "foo", "m0.txt"],
        &["-v", "-m0", "-A1", "foo", "m0.txt"],
        &["--files-without-match", "-m0", "foo", "m0.txt"],
        &["-c", "--include-zero", "-m0", "foo", "m0.txt"],
        &["-m0", "foo", "m0.txt"],
        // A walk that the filters leave empty: rg exits 1 before walking.
        &["-m0", "--max-depth", "0", "-e", "o"],
    ] {
        let (got, err, code) = human(&env, args);
        assert_eq!((got.as_str(), err.as_str(), code), ("", "", 1), "{args:?}");
        let (e, code) = search(&env, args);
        assert_eq!((e.status.as_str(), code), ("no_matches", 1), "{args:?}");
        let data = e.data.unwrap();
        assert!(data.matches.is_empty() && data.files.is_empty(), "{args:?}");
        assert_eq!(data.match_count, 0);
        let (lines, summary) = jsonl(&env, args);
        assert!(lines.is_empty(), "{args:?}");
        assert_eq!(summary["status"], "no_matches");
    }
    let (got, _, code) = human(&env, &["-m0", "-q", "foo", "m0.txt"]);
    assert_eq!((got.as_str(), code), ("", 1));
    // --files is not a search: it lists (rg too).
    let (got, _, code) = human(&env, &["-m0", "--files"]);
    assert_eq!((got.as_str(), code), ("m0.txt\n", 0));
}

#[test]
fn max_filesize_that_leaves_no_file_is_no_files_searched() {
    let env = TestEnv::new();
    env.write("a.rs", "fn foo() { let x = 1; } // long enough\n");
    env.write("b.txt", "foo\n");
    // rg -t rust --max-filesize 10 foo: "No files were searched, which means ripgrep probably
    // applied a filter you didn't expect." and exit 2.
    let args = ["-t", "rust", "--max-filesize", "10", "foo"];
    let (got, err, code) = human(&env, &args);
    assert_eq!((got.as_str(), code), ("", 2));
    assert!(err.contains("error[SEARCH_E005]"), "{err}");
    assert!(
        err.contains("1 file larger than --max-filesize 10"),
        "{err}"
    );
    assert!(err.contains("--type rust"), "{err}");
    let (e, code) = search(&env, &args);
    assert_eq!((e.status.as_str(), code), ("error", 2));
    assert_eq!(e.error.unwrap().code.as_deref(), Some("SEARCH_E005"));
    let out = env
        .llm(&[&["search", "--format", "jsonl"], &args[..]].concat())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(out.stdout.trim_ascii_end()).unwrap();
    assert_eq!(v["error"]["code"], "SEARCH_E005");
    assert_eq!(out.status.code(), Some(2));
    // A file that passes is searched (rg too).
    let (got, _, code) = human(&env, &["--max-filesize", "10", "foo"]);
    assert_eq!((got.as_str(), code), ("b.txt:1:1:foo\n", 0));
    // Named paths: the same message as a warning, and nothing found (exit 1, rg too).
    let (got, err, code) = human(&env, &["-t", "rust", "--max-filesize", "10", "foo", "."]);
    assert_eq!((got.as_str(), code), ("", 1));
    assert!(err.contains("warning[SEARCH_E005]"), "{err}");
    // A named file is searched whatever its size (rg too).
    let (got, _, code) = human(&env, &["--max-filesize", "10", "foo", "a.rs"]);
    assert_eq!(
        (got.as_str(), code),
        ("1:4:fn foo() { let x = 1; } // long enough\n", 0)
    );
}
