//! The walk on several threads (issue 14): a tree cut into subtrees walked in parallel gives
//! the files, their order, the counts of what was skipped and the diagnostics of the one-thread
//! walk, whatever the filters. Last, the --no-ignore-* switches of rg 13 that llm lacked.

use crate::search::{human, search};
use crate::util::TestEnv;
use serde_json::Value;

/// A tree with ignore files at several levels (anchored, negated and directory patterns),
/// hidden entries, links, a FIFO, names whose order differs from their paths' byte order
/// (`a/`, `a-b`, `a.txt`), and enough directories to be cut at every level.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        ".gitignore",
        "/top.log\n*.tmp\n!keep.tmp\nbuild/\nd1/sub1/only.txt\n",
    );
    env.write(".hidden/h.txt", "needle\n");
    env.write("top.log", "needle\n");
    env.write("top.rs", "needle\n");
    env.write("a/x.rs", "needle\n");
    env.write("a-b", "needle\n");
    env.write("a.txt", "needle\n");
    for d in 0..12 {
        for s in 0..3 {
            env.write(&format!("d{d}/sub{s}/f.rs"), "fn needle() {}\n");
            env.write(&format!("d{d}/sub{s}/only.txt"), "needle\n");
            env.write(&format!("d{d}/sub{s}/deep/z.tmp"), "needle\n");
            env.write(&format!("d{d}/sub{s}/deep/keep.tmp"), "needle\n");
        }
        env.write(&format!("d{d}/build/out.rs"), "needle\n");
        env.write(&format!("d{d}/top.log"), "needle\n");
    }
    env.write("d3/.ignore", "sub1/\n");
    env.write("d4/sub2/.rgignore", "f.rs\n");
    env.write("d5/.gitignore", "!build/\n");
    std::fs::create_dir_all(env.path().join("empty/inner")).unwrap();
    std::os::unix::fs::symlink("a.txt", env.path().join("link.txt")).unwrap();
    std::os::unix::fs::symlink("d1", env.path().join("link-dir")).unwrap();
    let fifo = env.path().join("d2/sub0/pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    env
}

fn stdout(env: &TestEnv, args: &[&str]) -> String {
    let out = env.llm(args).output().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{args:?}: {out:?}"
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `llm ARGS` prints something, and the same with each of `threads` as with `-j1`.
fn same_as_one_thread(env: &TestEnv, args: &[&str], threads: &[&str]) {
    let one = stdout(env, &[args, &["-j1"]].concat());
    assert!(!one.is_empty(), "{args:?}");
    for j in threads {
        let many = stdout(env, &[args, &[*j]].concat());
        assert_eq!(one, many, "{args:?} {j}");
    }
}

/// What a JSON search found: its files (with checksums), its counts and what it skipped,
/// and the spans of its matches (match ids are fresh on every run).
fn found(env: &TestEnv, args: &[&str]) -> Value {
    let out = env.llm(args).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &v["data"];
    let spans: Vec<Value> = d["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["span"].clone())
        .collect();
    serde_json::json!({
        "files": d["files"],
        "stats": d["stats"],
        "match_count": d["match_count"],
        "spans": spans,
        "diagnostics": v["diagnostics"],
    })
}

#[test]
fn many_threads_walk_the_files_of_one_thread_in_the_same_order() {
    let env = tree();
    let listed = stdout(&env, &["search", "--files", "-j1"]);
    let first: Vec<&str> = listed.lines().take(6).collect();
    // Depth-first, children in name order: directory `a` (a prefix of the other names) comes
    // before `a-b` and `a.txt`, although `a.txt` < `a/x.rs` byte by byte.
    assert_eq!(
        first,
        [
            "a/x.rs",
            "a-b",
            "a.txt",
            "d0/sub0/deep/keep.tmp",
            "d0/sub0/f.rs",
            "d0/sub0/only.txt"
        ]
    );
    let has = |f: &str| listed.lines().any(|l| l == f);
    assert!(!has("top.log") && has("d0/top.log"), "{listed}");
    assert!(!listed.contains("z.tmp"), "{listed}");
    assert!(!listed.contains("d1/sub1/only.txt"), "{listed}");
    assert!(
        has("d5/build/out.rs") && !has("d6/build/out.rs"),
        "{listed}"
    );
    assert!(!listed.contains("d3/sub1/"), "{listed}");
    assert!(!listed.contains("d4/sub2/f.rs"), "{listed}");
    let argsets: [&[&str]; 8] = [
        &["search", "--files"],
        &["search", "--files", "--hidden", "--no-ignore"],
        &["search", "--files", "--max-depth", "3"],
        &["search", "--files", "-g", "!d7/**", "-g", "!*.txt"],
        &["search", "--files", "-t", "rust"],
        &["search", "--files", "--no-ignore-vcs"],
        &["search", "-n", "needle"],
        &["search", "-c", "needle", "--hidden"],
    ];
    for args in argsets {
        same_as_one_thread(&env, args, &["-j2", "-j3", "-j8", "-j32"]);
    }
    // The JSON `data` too: files and checksums, counts, and what was skipped (the FIFO).
    let one = found(&env, &["search", "--json", "needle", "-j1"]);
    assert_eq!(one["stats"]["skipped"]["special"], 1);
    assert_eq!(one["match_count"], 120);
    for j in ["-j2", "-j8"] {
        assert!(
            one == found(&env, &["search", "--json", "needle", j]),
            "{j}"
        );
    }
}

#[test]
fn a_subdirectory_named_as_root_keeps_the_ignore_files_above_it() {
    let env = tree();
    // Searched from d1: the root's `d1/sub1/only.txt` and `*.tmp` still apply.
    for j in ["-j1", "-j8"] {
        let listed = stdout(&env, &["search", "--files", "d1", j]);
        assert!(!listed.contains("d1/sub1/only.txt"), "{j}: {listed}");
        assert!(listed.contains("d1/sub0/only.txt"), "{j}: {listed}");
        assert!(!listed.contains("z.tmp"), "{j}: {listed}");
        assert!(listed.contains("keep.tmp"), "{j}: {listed}");
    }
}

#[test]
fn stopping_early_stops_the_walk_threads() {
    let env = tree();
    let out = env
        .llm(&["search", "-j8", "--json", "--max-results", "3", "needle"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["match_count"], 3, "{v}");
    assert_eq!(v["status"], "partial", "{v}");
    let quiet = env
        .llm(&["search", "-j8", "-q", "needle"])
        .output()
        .unwrap();
    assert_eq!(quiet.status.code(), Some(0));
}

/// More files than the walk lets wait for the reader (256 per thread walking), in many small
/// subtrees and a few large ones: the walks that ran ahead stop and go on, and `search`,
/// `find` and `ast` still get every file in the order of one thread.
#[test]
fn a_walk_held_back_by_its_budget_still_hands_on_every_file_in_order() {
    let env = TestEnv::new();
    for d in 0..60 {
        let files = if d % 20 == 7 { 400 } else { 20 };
        for f in 0..files {
            env.write(
                &format!("d{d:02}/s{}/f{f:03}.rs", f % 3),
                format!("fn needle_{d}_{f}() {{}}\n"),
            );
        }
    }
    let listed = stdout(&env, &["search", "--files", "-j1"]);
    assert_eq!(listed.lines().count(), 57 * 20 + 3 * 400);
    let argsets: [&[&str]; 4] = [
        &["search", "--files"],
        &["search", "-c", "needle"],
        &["find", "--prefix", "needle_"],
        &["ast", "-l", "rust", "(function_item name: (identifier) @n)"],
    ];
    for args in argsets {
        same_as_one_thread(&env, args, &["-j2", "-j4", "-j7"]);
    }
}

/// A tree whose search output runs to megabytes: 40 files of 1,500 matching lines, each line
/// its own (so that chunks written out of order or twice would show), and two files over 1 MiB
/// (checksummed on a thread of their own from `-j2` on).
fn big_output_tree() -> TestEnv {
    let env = TestEnv::new();
    for f in 0..40 {
        let text: String = (0..1500)
            .map(|l| format!("let needle_{f}_{l} = \"ünïcode {l}\"; // needle again\n"))
            .collect();
        env.write(&format!("d{}/f{f}.rs", f % 7), text);
    }
    for big in ["d3/zz_big.rs", "d6/zz_big.rs"] {
        let text: String = (0..30_000)
            .map(|l| {
                let hit = if l % 40 == 0 { "needle" } else { "hay" };
                format!("let {hit}_{l} = \"a line of about forty bytes\";\n")
            })
            .collect();
        assert!(text.len() > 1 << 20);
        env.write(big, text);
    }
    env
}

/// Several megabytes of output, written behind the search by a thread of its own from four
/// threads on, are the output of one thread, byte for byte (ids aside), in every format.
#[test]
fn output_written_behind_the_search_is_the_output_of_one_thread() {
    let env = big_output_tree();
    let redact = |s: String| -> String {
        let ids =
            regex::Regex::new(r#""(execution_id|match_id)":"[0-9a-f-]{36}"|"elapsed_ms":[0-9]+"#)
                .unwrap();
        ids.replace_all(&s, "ID").into_owned()
    };
    for format in [
        &["--format", "human"][..],
        &["--json"],
        &["--format", "jsonl"],
    ] {
        let args = |j: &'static str| {
            let mut a = vec!["search", j, "needle"];
            a.extend_from_slice(format);
            a
        };
        let one = redact(stdout(&env, &args("-j1")));
        assert!(one.len() > 3 << 20, "{format:?}: {} bytes", one.len());
        for j in ["-j4", "-j8"] {
            let many = redact(stdout(&env, &args(j)));
            assert!(one == many, "{format:?} {j}: the outputs differ");
        }
    }
}

/// A reader that stops reading (`| head`) ends a search written behind quietly, with exit
/// code 0, as ripgrep's; a full disk is an error (LLM_E002, exit 2).
#[test]
fn output_written_behind_stops_with_its_reader_and_fails_on_a_full_disk() {
    use std::io::Read;
    let env = big_output_tree();
    for format in ["human", "json"] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
            .current_dir(env.path())
            .args(["search", "-j4", "--format", format, "needle"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 4096];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe's read end is closed here.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}: {out:?}");
        assert!(out.stderr.is_empty(), "{format}: {out:?}");
    }
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .current_dir(env.path())
        .args(["search", "-j4", "needle"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("LLM_E002"), "{stderr}");
}

/// Human output read through `2>&1`: the messages of a search (here, a path that does not
/// exist) come after all of its matches, megabytes of them written behind the search.
#[test]
fn messages_come_after_the_matches_written_behind_them() {
    let env = big_output_tree();
    let llm = assert_cmd::cargo::cargo_bin("llm");
    for j in ["-j1", "-j4"] {
        let out = std::process::Command::new("sh")
            .current_dir(env.path())
            .arg("-c")
            .arg(format!(
                "'{}' search {j} needle . nosuch.rs 2>&1",
                llm.display()
            ))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{j}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.len() > 1 << 20, "{j}: {} bytes", text.len());
        let message = text
            .find("nosuch.rs")
            .expect("the missing path is reported");
        let last_match = text.rfind("needle").unwrap();
        assert!(
            message > last_match,
            "{j}: the message came before the last match"
        );
    }
}

#[test]
fn the_other_no_ignore_switches_of_ripgrep() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.path().join(".git/info")).unwrap();
    env.write(".git/info/exclude", "a.txt\n");
    env.write("a.txt", "foo\n");
    env.write("b.txt", "foo\n");
    env.write("x.ign", "b.txt\n");
    // rg 13 (llm refused these three flags): --no-ignore-exclude lifts .git/info/exclude,
    // --no-ignore-files drops the --ignore-file files, --no-ignore-messages silences the
    // warning for one that cannot be read.
    let cases: [(&[&str], &str); 4] = [
        (&["foo"], "b.txt:1:1:foo\n"),
        (
            &["--no-ignore-exclude", "foo"],
            "a.txt:1:1:foo\nb.txt:1:1:foo\n",
        ),
        (
            &["--no-ignore-files", "--ignore-file", "x.ign", "foo"],
            "b.txt:1:1:foo\n",
        ),
        (
            &["--ignore-file", "missing", "--no-ignore-messages", "foo"],
            "b.txt:1:1:foo\n",
        ),
    ];
    for (args, want) in cases {
        let (got, err, code) = human(&env, args);
        assert_eq!(
            (got.as_str(), err.as_str(), code),
            (want, "", 0),
            "{args:?}"
        );
    }
    let (e, _) = search(&env, &["--no-ignore-exclude", "foo"]);
    assert_eq!(e.data.unwrap().match_count, 2);
}
