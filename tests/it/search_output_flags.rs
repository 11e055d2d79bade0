//! `llm search` with ripgrep 13's remaining output flags: `--passthru`, the field and path
//! separators, `--sort-files`, `--line-buffered`/`--block-buffered`, `--debug`/`--trace` and
//! the whole `--stats` block. The human outputs expected are rg 13's (`rg -n --column --sort
//! path`, run on the same fixtures), written out: rg is not needed at test time. Where llm
//! differs on purpose (README, "Differences from ripgrep"), the comment says what rg prints.

use crate::search::{human, human_bytes, jsonl, search};
use crate::util::TestEnv;
use serde_json::Value;

/// a.txt and nonl.txt (no final newline), crlf.txt, and sub/c.rs.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt", "foo\nbar\nfoo bar\nbaz\n");
    env.write("crlf.txt", "x\r\nfoo\r\ny\r\n");
    env.write("nonl.txt", "foo\nzz\nlast foo");
    env.write("sub/c.rs", "one\nfoo\n");
    env
}

/// Human stdout (as text) and the exit code.
fn out(env: &TestEnv, args: &[&str]) -> (String, i32) {
    let (out, _, code) = human(env, args);
    (out, code)
}

/// JSON output without the uuids that differ from run to run.
fn without_ids(out: &[u8]) -> String {
    let re = regex::Regex::new(r#""(execution_id|match_id)":"[^"]*""#).unwrap();
    re.replace_all(&String::from_utf8_lossy(out), "")
        .to_string()
}

/// The `file_path`s in JSON output, in order.
fn file_paths(out: &[u8]) -> Vec<String> {
    let re = regex::Regex::new(r#""file_path":"([^"]*)""#).unwrap();
    let s = String::from_utf8_lossy(out);
    re.captures_iter(&s).map(|c| c[1].to_string()).collect()
}

#[test]
fn field_separators_replace_colon_and_dash_where_rg_13_does() {
    let env = tree();
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--field-match-separator",
                "|",
                "--field-context-separator",
                "#",
                "-C1",
                "foo",
                "a.txt",
                "nonl.txt",
            ],
            "a.txt|1|1|foo\na.txt#2#bar\na.txt|3|1|foo bar\na.txt#4#baz\n--\n\
nonl.txt|1|1|foo\nnonl.txt#2#zz\nnonl.txt|3|6|last foo\n",
        ),
        (
            &[
                "--heading",
                "--field-match-separator",
                "|",
                "--field-context-separator",
                "#",
                "-C1",
                "foo",
                "a.txt",
                "nonl.txt",
            ],
            "a.txt\n1|1|foo\n2#bar\n3|1|foo bar\n4#baz\n\nnonl.txt\n1|1|foo\n2#zz\n3|6|last foo\n",
        ),
        // Escapes, as --context-separator.
        (
            &[
                "--vimgrep",
                "--field-match-separator",
                "\\t",
                "foo",
                "a.txt",
            ],
            "a.txt\t1\t1\tfoo\na.txt\t3\t1\tfoo bar\n",
        ),
        (
            &["-b", "--field-match-separator", "::", "foo", "a.txt"],
            "1::1::0::foo\n3::1::8::foo bar\n",
        ),
        (
            &[
                "-o",
                "-b",
                "--field-match-separator",
                "::",
                "--field-context-separator",
                "=",
                "-C1",
                "foo",
                "a.txt",
            ],
            "1::1::0::foo\n2=4=bar\n3::1::8::foo\n4=16=baz\n",
        ),
        // Counts keep `:`, as rg 13.
        (
            &[
                "-c",
                "--field-match-separator",
                "|",
                "foo",
                "a.txt",
                "nonl.txt",
            ],
            "a.txt:2\nnonl.txt:2\n",
        ),
        (
            &[
                "-0",
                "--field-match-separator",
                "|",
                "foo",
                "a.txt",
                "nonl.txt",
            ],
            "a.txt\x001|1|foo\na.txt\x003|1|foo bar\nnonl.txt\x001|1|foo\nnonl.txt\x003|6|last foo\n",
        ),
        (
            &["--field-match-separator", "", "foo", "a.txt"],
            "11foo\n31foo bar\n",
        ),
        // -v: context lines (which match) show their column, as `rg --column -v`.
        (
            &[
                "-v",
                "--field-context-separator",
                "X",
                "-C1",
                "bar",
                "a.txt",
            ],
            "1:foo\n2X1Xbar\n3X5Xfoo bar\n4:baz\n",
        ),
    ];
    for (args, want) in cases {
        assert_eq!(out(&env, args), (want.to_string(), 0), "{args:?}");
    }
    // JSON does not change.
    for format in ["json", "jsonl"] {
        let args = ["--format", format, "-C1", "foo", "a.txt"];
        let plain = env
            .llm(&[&["search"], &args[..]].concat())
            .output()
            .unwrap();
        let sep = (env.llm(
            &[
                &[
                    "search",
                    "--field-match-separator",
                    "|",
                    "--field-context-separator",
                    "#",
                ],
                &args[..],
            ]
            .concat(),
        ))
        .output()
        .unwrap();
        assert_eq!(
            without_ids(&plain.stdout),
            without_ids(&sep.stdout),
            "{format}"
        );
    }
}

#[test]
fn path_separator_changes_printed_paths_only() {
    let env = tree();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--path-separator", "\\", "foo", "sub"],
            "sub\\c.rs:2:1:foo\n",
        ),
        (
            &["--path-separator", "\\x5C", "--heading", "foo", "sub"],
            "sub\\c.rs\n2:1:foo\n",
        ),
        (
            &["--path-separator", "#", "-c", "foo", "sub"],
            "sub#c.rs:1\n",
        ),
        (&["--path-separator", "#", "-l", "foo", "sub"], "sub#c.rs\n"),
        (&["--path-separator", "#", "--files", "sub"], "sub#c.rs\n"),
        (
            &["--path-separator", "#", "--vimgrep", "foo", "sub"],
            "sub#c.rs:2:1:foo\n",
        ),
        (
            &["--path-separator", "#", "-0", "-l", "foo", "sub"],
            "sub#c.rs\0",
        ),
        // Empty: `/`, as rg.
        (
            &["--path-separator", "", "foo", "sub"],
            "sub/c.rs:2:1:foo\n",
        ),
    ];
    for (args, want) in cases {
        assert_eq!(out(&env, args), (want.to_string(), 0), "{args:?}");
    }
    // JSON spans keep the real path.
    let (e, code) = search(&env, &["--path-separator", "#", "foo", "sub"]);
    assert_eq!(code, 0);
    assert_eq!(e.data.unwrap().matches[0].span.file_path, "sub/c.rs");
    let (lines, _) = jsonl(&env, &["--path-separator", "#", "foo", "sub"]);
    assert_eq!(lines[0]["span"]["file_path"], "sub/c.rs");
    // More than one byte is refused, as rg (exit 2), in every format.
    let (o, err, code) = human(&env, &["--path-separator", "ab", "foo", "sub"]);
    assert_eq!((o.as_str(), code), ("", 2));
    assert!(
        err.contains("SEARCH_E003") && err.contains("one byte"),
        "{err}"
    );
    let o = (env.llm(&["search", "--json", "--path-separator", "::", "foo"]))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["error"]["code"].as_str(), o.status.code()),
        (Some("SEARCH_E003"), Some(2))
    );
}

#[test]
fn sort_files_is_sort_path_and_the_last_of_the_sort_flags_wins() {
    let env = tree();
    let asc = "a.txt:1:1:foo\na.txt:3:1:foo bar\ncrlf.txt:2:1:foo\nnonl.txt:1:1:foo\nnonl.txt:3:6:last foo\nsub/c.rs:2:1:foo\n";
    let desc = "sub/c.rs:2:1:foo\nnonl.txt:1:1:foo\nnonl.txt:3:6:last foo\ncrlf.txt:2:1:foo\na.txt:1:1:foo\na.txt:3:1:foo bar\n";
    for (args, want) in [
        (&["--sort-files", "foo"][..], asc),
        (&["--sortr", "path", "--sort-files", "foo"], asc),
        (&["--sort-files", "--sortr", "path", "foo"], desc),
        (
            &["--sort-files", "--no-sort-files", "--sortr", "path", "foo"],
            desc,
        ),
        (
            &["--sortr", "path", "--sort-files", "--no-sort-files", "foo"],
            asc,
        ),
    ] {
        assert_eq!(out(&env, args), (want.to_string(), 0), "{args:?}");
    }
    for format in ["json", "jsonl"] {
        let lines = |args: &[&str]| {
            let o = (env.llm(&[&["search", "--format", format], args].concat()))
                .output()
                .unwrap();
            file_paths(&o.stdout)
        };
        let sorted = lines(&["--sortr", "path", "--sort-files", "foo"]);
        assert_eq!(sorted, lines(&["foo"]), "{format}");
        assert_ne!(sorted, lines(&["--sortr", "path", "foo"]), "{format}");
    }
}

#[test]
fn stats_block_has_rg_13s_lines_bytes_printed_and_time_spent_searching() {
    let env = tree();
    // rg 13 (`rg -n --column --stats -C1 foo a.txt nonl.txt`): 109 bytes printed, the `--`
    // between the files not counted; under headings the blank line between them neither.
    let cases: &[(&[&str], usize, &str)] = &[
        (
            &["-C1", "foo", "a.txt", "nonl.txt"],
            109,
            "4 matches\n4 matched lines\n2 files contained matches\n2 files searched\n",
        ),
        (
            &["--heading", "foo", "a.txt", "nonl.txt"],
            56,
            "4 matches\n4 matched lines\n2 files contained matches\n2 files searched\n",
        ),
        (
            &["zzz", "a.txt"],
            0,
            "0 matches\n0 matched lines\n0 files contained matches\n1 files searched\n",
        ),
    ];
    let secs =
        regex::Regex::new(r"^\d+\.\d{6} seconds spent searching\n\d+\.\d{6} seconds\n$").unwrap();
    for (args, printed, counts) in cases {
        let (o, code) = out(&env, &[&["--stats"], *args].concat());
        assert_eq!(code, if *printed > 0 { 0 } else { 1 }, "{args:?}");
        // The block is what follows the last blank line (none when nothing matched).
        let (results, block) = o.split_at(o.rfind("\n\n").map_or(0, |i| i + 1));
        let want = format!("\n{counts}{printed} bytes printed\n35 bytes searched\n");
        let want = if args.contains(&"zzz") {
            want.replace("35 bytes", "20 bytes")
        } else {
            want
        };
        assert!(block.starts_with(&want), "{args:?}: {block:?}");
        assert!(secs.is_match(&block[want.len()..]), "{args:?}: {block:?}");
        if !args.contains(&"--heading") {
            // What was printed before the block, less the `--` lines.
            let counted = results.len() - results.matches("--\n").count() * 3;
            assert_eq!(counted, *printed, "{args:?}");
        }
    }
    // -c and -l print no lines of matches: 0 bytes printed, as rg 13.
    for args in [&["-c", "foo", "a.txt"][..], &["-l", "foo", "a.txt"]] {
        let (o, _) = out(&env, &[&["--stats"], args].concat());
        assert!(o.contains("\n0 bytes printed\n"), "{args:?}: {o}");
    }
    // JSON and JSON lines are the same with or without --stats (data.stats is always there).
    for format in ["json", "jsonl"] {
        let run = |extra: &[&str]| {
            let args = [&["search", "--format", format], extra, &["-C1", "foo"]].concat();
            without_ids(&env.llm(&args).output().unwrap().stdout)
        };
        let (with, without) = (run(&["--stats"]), run(&[]));
        assert_eq!(with, without, "{format}");
        assert!(with.contains("\"bytes_searched\""), "{format}");
    }
}

/// Runs `llm search ARGS` held after each file's result until a flag file exists (the
/// debug-build hook `LLM_FAILPOINT_SEARCH_HOLD`), and returns what one read of its stdout
/// got while it was held, then the rest once let go (after that read, or after a second when
/// the read waits for more: output held back in a buffer only comes at the end).
fn held_output(env: &TestEnv, args: &[&str]) -> (String, String) {
    use std::io::Read;
    // A flag of its own per run: a timer left over from an earlier run lets go of nothing.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let flag = env.path().join(format!("go{run}.flag"));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .args([&["search"], args].concat())
        .current_dir(env.path())
        .env("LLM_FAILPOINT_SEARCH_HOLD", &flag)
        .env_remove("LLM_FORMAT")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let go = flag.clone();
    let _let_go = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(1));
        std::fs::write(go, "").unwrap();
    });
    let mut first = vec![0u8; 1 << 16];
    let n = stdout.read(&mut first).unwrap();
    first.truncate(n);
    let _ = std::fs::write(&flag, "");
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    child.wait().unwrap();
    (
        String::from_utf8(first).unwrap(),
        String::from_utf8(rest).unwrap(),
    )
}

#[test]
fn line_buffered_output_reaches_the_pipe_file_by_file_in_every_format() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    env.write("b.txt", "nothing\n");
    env.write("c.txt", "x foo\n");
    // Held after a.txt, the first read gets a.txt's lines alone (block buffered, it would wait
    // for the end and get all of it at once).
    let (first, rest) = held_output(&env, &["--line-buffered", "-j1", "foo"]);
    assert_eq!(
        (first.as_str(), rest.as_str()),
        ("a.txt:1:1:foo\n", "c.txt:1:3:x foo\n")
    );
    let (first, rest) = held_output(
        &env,
        &["--line-buffered", "-j1", "--format", "jsonl", "foo"],
    );
    assert!(first.contains("\"file_path\":\"a.txt\""), "{first}");
    assert!(!first.contains("c.txt") && first.ends_with('\n'), "{first}");
    assert!(
        rest.contains("c.txt") && rest.contains("\"type\":\"summary\""),
        "{rest}"
    );
    let (first, rest) = held_output(&env, &["--line-buffered", "-j1", "--format", "json", "foo"]);
    assert!(
        first.contains("\"file_path\":\"a.txt\"") && !first.contains("c.txt"),
        "{first}"
    );
    let whole: Value = serde_json::from_str(&(first + &rest)).unwrap();
    assert_eq!(whole["data"]["match_count"], 2);
    // The last of --line-buffered and --block-buffered wins: block buffered, everything comes
    // at the end, in one piece.
    let (first, rest) = held_output(&env, &["--line-buffered", "--block-buffered", "-j1", "foo"]);
    assert_eq!(
        (first.as_str(), rest.as_str()),
        ("a.txt:1:1:foo\nc.txt:1:3:x foo\n", "")
    );
}

#[test]
fn line_and_block_buffering_change_nothing_in_what_is_printed() {
    let env = tree();
    for format in ["human", "json", "jsonl"] {
        let run = |extra: &[&str]| {
            let args = [&["search", "--format", format], extra, &["-C1", "foo"]].concat();
            let o = env.llm(&args).output().unwrap();
            (without_ids(&o.stdout), o.status.code())
        };
        let plain = run(&[]);
        assert!(plain.0.contains("nonl.txt"), "{format}");
        for extra in [
            &["--line-buffered"][..],
            &["--block-buffered"],
            &["--line-buffered", "--no-line-buffered"],
            &["--block-buffered", "--no-block-buffered", "-j4"],
            &["--line-buffered", "-j4"],
        ] {
            assert_eq!(run(extra), plain, "{format} {extra:?}");
        }
    }
}

#[test]
fn debug_and_trace_say_what_was_skipped_and_why_on_stderr_only() {
    let env = tree();
    env.write(".gitignore", "ignored.txt\n");
    env.write("ignored.txt", "foo\n");
    env.write(".hid/h.txt", "foo\n");
    env.write("sub/bin.dat", b"foo\0bin\n".as_slice());
    env.write("big.txt", "foo\n".repeat(10));
    for format in ["human", "json", "jsonl"] {
        let run = |extra: &[&str]| {
            let args = [&["search", "--format", format], extra, &["foo"]].concat();
            let o = env.llm(&args).output().unwrap();
            let stderr = String::from_utf8(o.stderr).unwrap();
            (without_ids(&o.stdout), o.status.code(), stderr)
        };
        let (plain, code, quiet) = run(&["--max-filesize", "30"]);
        assert_eq!(quiet, "", "{format}");
        let (out, c, err) = run(&["--max-filesize", "30", "--debug"]);
        assert_eq!((out, c), (plain.clone(), code), "{format}: stdout changed");
        for want in [
            "DEBUG|llm::cmd::search::trace|",
            "regex engine: Rust regex",
            "threads: ",
            "ignoring ./ignored.txt: Ignore(IgnoreMatch(Gitignore(",
            "ignoring ./.hid: Ignore(IgnoreMatch(Hidden))",
            "skipping sub/bin.dat: binary",
            "skipping ./big.txt: larger than --max-filesize",
        ] {
            assert!(err.contains(want), "{format}: no {want:?} in\n{err}");
        }
        assert!(!err.contains("TRACE|"), "{format}");
        let (out, c, err) = run(&["--max-filesize", "30", "--trace"]);
        assert_eq!((out, c), (plain, code), "{format}: stdout changed");
        assert!(
            err.contains("TRACE|llm::cmd::search::trace|") && err.contains("searched a.txt"),
            "{format}: {err}"
        );
        // Globs, types and the engine chosen.
        let (_, _, err) = run(&["--debug", "-g", "*.rs", "-P"]);
        assert!(
            err.contains("ignoring ./a.txt: Ignore(IgnoreMatch(Override("),
            "{err}"
        );
        assert!(err.contains("regex engine: PCRE2"), "{err}");
        let (_, _, err) = run(&["--debug", "-t", "rust"]);
        assert!(
            err.contains("ignoring ./a.txt: Ignore(IgnoreMatch(Types("),
            "{err}"
        );
    }
}

/// a.txt, m.txt (matches apart), nm.txt (no match), nonl.txt, crlf.txt.
fn passthru_tree() -> TestEnv {
    let env = tree();
    env.write("m.txt", "a\nb\nfoo\nc\nd\nfoo\ne\n");
    env.write("nm.txt", "q\nr\n");
    env
}

#[test]
fn passthru_prints_every_line_as_rg_13_does() {
    let env = passthru_tree();
    let files = ["a.txt", "m.txt", "nm.txt", "nonl.txt"];
    let run = |flags: &[&str]| out(&env, &[flags, &["foo"], &files[..]].concat());
    let all = "a.txt:1:1:foo\na.txt-2-bar\na.txt:3:1:foo bar\na.txt-4-baz\n\
m.txt-1-a\nm.txt-2-b\nm.txt:3:1:foo\nm.txt-4-c\nm.txt-5-d\nm.txt:6:1:foo\nm.txt-7-e\n\
nm.txt-1-q\nnm.txt-2-r\nnonl.txt:1:1:foo\nnonl.txt-2-zz\nnonl.txt:3:6:last foo\n";
    // rg 13 (`rg -n --column --passthru foo a.txt m.txt nm.txt nonl.txt`): a file without a
    // match prints too, no `--` between files.
    assert_eq!(run(&["--passthru"]), (all.to_string(), 0));
    assert_eq!(run(&["--passthrough"]), (all.to_string(), 0));
    // The last of --passthru and -A/-B/-C wins, as rg 13.
    assert_eq!(run(&["-C1", "--passthru"]), (all.to_string(), 0));
    let cases: &[(&[&str], &str)] = &[
        (
            &["--passthru", "-B1"],
            "a.txt:1:1:foo\na.txt-2-bar\na.txt:3:1:foo bar\n--\nm.txt-2-b\nm.txt:3:1:foo\n--\n\
m.txt-5-d\nm.txt:6:1:foo\n--\nnonl.txt:1:1:foo\nnonl.txt-2-zz\nnonl.txt:3:6:last foo\n",
        ),
        // -m stops the search: nothing after the last match (rg 13).
        (&["--passthru", "-m1"], "a.txt:1:1:foo\nm.txt-1-a\nm.txt-2-b\nm.txt:3:1:foo\nnm.txt-1-q\nnm.txt-2-r\nnonl.txt:1:1:foo\n"),
        (
            &["--passthru", "-v"],
            "a.txt-1-1-foo\na.txt:2:bar\na.txt-3-1-foo bar\na.txt:4:baz\n\
m.txt:1:a\nm.txt:2:b\nm.txt-3-1-foo\nm.txt:4:c\nm.txt:5:d\nm.txt-6-1-foo\nm.txt:7:e\n\
nm.txt:1:q\nnm.txt:2:r\nnonl.txt-1-1-foo\nnonl.txt:2:zz\nnonl.txt-3-6-last foo\n",
        ),
        (
            &["--passthru", "-o", "-b", "--heading"],
            "a.txt\n1:1:0:foo\n2-4-bar\n3:1:8:foo\n4-16-baz\n\nm.txt\n1-0-a\n2-2-b\n3:1:4:foo\n\
4-8-c\n5-10-d\n6:1:12:foo\n7-16-e\n\nnm.txt\n1-0-q\n2-2-r\n\nnonl.txt\n1:1:0:foo\n2-4-zz\n3:6:12:foo\n",
        ),
        (
            &["--passthru", "-r", "X", "-I", "--field-context-separator", "#"],
            "1:1:X\n2#bar\n3:1:X bar\n4#baz\n1#a\n2#b\n3:1:X\n4#c\n5#d\n6:1:X\n7#e\n1#q\n2#r\n\
1:1:X\n2#zz\n3:6:last X\n",
        ),
        (&["--passthru", "-c"], "a.txt:2\nm.txt:2\nnonl.txt:2\n"),
        (&["--passthru", "-l"], "a.txt\nm.txt\nnonl.txt\n"),
    ];
    for (flags, want) in cases {
        assert_eq!(run(flags), (want.to_string(), 0), "{flags:?}");
    }
    // --vimgrep: context lines as rg 13 prints them.
    assert_eq!(
        out(&env, &["--passthru", "--vimgrep", "foo", "a.txt"]),
        (
            "a.txt:1:1:foo\na.txt-2-bar\na.txt:3:1:foo bar\na.txt-4-baz\n".to_string(),
            0
        )
    );
    // Nothing matches: every line all the same, exit 1 (rg 13).
    assert_eq!(
        out(&env, &["--passthru", "zzz", "nm.txt"]),
        ("1-q\n2-r\n".to_string(), 1)
    );
    // CRLF lines print without their `\r` (a difference on purpose; rg keeps it).
    assert_eq!(
        out(&env, &["--passthru", "foo", "crlf.txt"]),
        ("1-x\n2:1:foo\n3-y\n".to_string(), 0)
    );
    // --stats counts the lines printed (rg 13: 26 bytes for `-H -b` on this file without a match).
    let (o, _) = out(
        &env,
        &["--passthru", "--stats", "-H", "-b", "foo", "nm.txt"],
    );
    assert!(
        o.starts_with("nm.txt-1-0-q\nnm.txt-2-2-r\n\n0 matches\n"),
        "{o}"
    );
    assert!(o.contains("\n26 bytes printed\n"), "{o}");
}

#[test]
fn passthru_json_gives_each_line_once_in_the_matches_contexts() {
    let env = passthru_tree();
    // The lines since the previous match before each match, the rest of the file after the
    // last one; a file without a match is not in the result.
    let want = [
        ("a.txt", 1, vec![], vec![]),
        ("a.txt", 3, vec!["bar"], vec!["baz"]),
        ("m.txt", 3, vec!["a", "b"], vec![]),
        ("m.txt", 6, vec!["c", "d"], vec!["e"]),
    ];
    let shape = |ms: &[Value]| -> Vec<(String, u64, Vec<String>, Vec<String>)> {
        ms.iter()
            .map(|m| {
                let texts = |k: &str| {
                    (m[k].as_array().unwrap().iter())
                        .map(|t| t.as_str().unwrap().to_string())
                        .collect()
                };
                let path = m["span"]["file_path"].as_str().unwrap().to_string();
                (
                    path,
                    m["span"]["start_line"].as_u64().unwrap(),
                    texts("context_before"),
                    texts("context_after"),
                )
            })
            .collect()
    };
    let want: Vec<_> = (want.iter())
        .map(|(p, l, b, a)| {
            let own = |v: &Vec<&str>| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            (p.to_string(), *l as u64, own(b), own(a))
        })
        .collect();
    let args = ["--passthru", "foo", "a.txt", "m.txt", "nm.txt"];
    let (lines, summary) = jsonl(&env, &args);
    assert_eq!(shape(&lines), want, "jsonl");
    assert_eq!(summary["query"]["passthru"], true);
    let files: Vec<_> = (summary["data"]["files"].as_array().unwrap().iter())
        .map(|f| f["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.txt", "m.txt"]);
    for extra in [&[][..], &["-p"], &["--max-results", "10"]] {
        let o = (env.llm(&[&["search", "--format", "json"], extra, &args[..]].concat()))
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            shape(v["data"]["matches"].as_array().unwrap()),
            want,
            "json {extra:?}"
        );
    }
    // -m stops the search: the last match carries no lines after it.
    let (lines, _) = jsonl(&env, &["--passthru", "-m1", "foo", "m.txt"]);
    assert_eq!(
        shape(&lines),
        [("m.txt".to_string(), 3, vec!["a".into(), "b".into()], vec![])]
    );
    // -v: the lines that match are the context.
    let (lines, _) = jsonl(&env, &["--passthru", "-v", "foo", "m.txt"]);
    let got = shape(&lines);
    assert_eq!(got.iter().map(|m| m.1).collect::<Vec<_>>(), [1, 2, 4, 5, 7]);
    assert_eq!(got[2].2, ["foo"]);
    assert_eq!(got[4].2, ["foo"]);
    // A file with more matches than a chunk (streamed in pieces): its lines, put back
    // together from the matches and their contexts, are the file's, in both formats.
    let text: String = (0..40_000)
        .map(|i| {
            if i % 3 == 0 {
                format!("line {i}\n")
            } else {
                format!("foo {i} foo\n")
            }
        })
        .collect();
    env.write("big.txt", &text);
    let rebuilt = |ms: &[Value]| {
        let mut lines: Vec<String> = Vec::new();
        let mut last = 0;
        for m in ms {
            let strs = |k: &str| {
                (m[k].as_array().unwrap().iter())
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            lines.extend(strs("context_before"));
            if m["span"]["start_line"] != last {
                lines.push(m["line_text"].as_str().unwrap().to_string());
            }
            last = m["span"]["start_line"].as_u64().unwrap();
            lines.extend(strs("context_after"));
        }
        lines.join("\n") + "\n"
    };
    let (lines, _) = jsonl(&env, &["--passthru", "foo", "big.txt"]);
    assert_eq!(lines.len(), 2 * 26_666);
    assert!(rebuilt(&lines) == text, "jsonl");
    let o = (env.llm(&["search", "--json", "--passthru", "foo", "big.txt"]))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        rebuilt(v["data"]["matches"].as_array().unwrap()) == text,
        "json"
    );
    // Human output of the same file: every line once, in order.
    let (h, _) = out(&env, &["--passthru", "-N", "foo", "big.txt"]);
    assert!(h == text, "human");
}

#[test]
fn passthru_under_max_results_prints_the_matching_files_whole() {
    let env = passthru_tree();
    let args = [
        "--passthru",
        "--heading",
        "--max-results",
        "5",
        "foo",
        "a.txt",
        "nm.txt",
        "m.txt",
    ];
    let want = "a.txt\n1:1:foo\n2-bar\n3:1:foo bar\n4-baz\n\nm.txt\n1-a\n2-b\n3:1:foo\n4-c\n5-d\n6:1:foo\n7-e\n";
    assert_eq!(out(&env, &args), (want.to_string(), 0));
}

#[test]
fn null_data_prints_nul_terminated_records_as_rg_13_does_and_json_keeps_real_lines() {
    let env = TestEnv::new();
    env.write("nd.txt", b"foo a\0bar\nfoo\0baz\0x foo".as_slice());
    env.write("nd2.txt", b"q\0foo\0".as_slice());
    // rg 13 (`rg -j1 -n --column --null-data ARGS foo nd.txt nd2.txt`): records numbered,
    // columns and `-b` offsets of records, every line (headings, `--`, counts, paths) ended
    // by a NUL.
    let cases: &[(&[&str], &str)] = &[
        (&[], "nd.txt:1:1:foo a\x00nd.txt:2:5:bar\nfoo\x00nd.txt:4:3:x foo\x00nd2.txt:2:1:foo\x00"),
        (&["-c"], "nd.txt:3\x00nd2.txt:1\x00"),
        (&["-l"], "nd.txt\x00nd2.txt\x00"),
        (&["--heading"], "nd.txt\x001:1:foo a\x002:5:bar\nfoo\x004:3:x foo\x00\x00nd2.txt\x002:1:foo\x00"),
        (&["-C1"], "nd.txt:1:1:foo a\x00nd.txt:2:5:bar\nfoo\x00nd.txt-3-baz\x00nd.txt:4:3:x foo\x00--\x00nd2.txt-1-q\x00nd2.txt:2:1:foo\x00"),
        (&["-o", "-b"], "nd.txt:1:1:0:foo\x00nd.txt:2:5:10:foo\x00nd.txt:4:3:20:foo\x00nd2.txt:2:1:2:foo\x00"),
        (&["--vimgrep"], "nd.txt:1:1:foo a\x00nd.txt:2:5:bar\nfoo\x00nd.txt:4:3:x foo\x00nd2.txt:2:1:foo\x00"),
        (&["-v"], "nd.txt:3:baz\x00nd2.txt:1:q\x00"),
        (&["-r", "X", "--passthru"], "nd.txt:1:1:X a\x00nd.txt:2:5:bar\nX\x00nd.txt-3-baz\x00nd.txt:4:3:x X\x00nd2.txt-1-q\x00nd2.txt:2:1:X\x00"),
        (&["-m1", "-A1"], "nd.txt:1:1:foo a\x00nd.txt:2:5:bar\nfoo\x00--\x00nd2.txt:2:1:foo\x00"),
    ];
    for (flags, want) in cases {
        let (got, _, code) = human_bytes(
            &env,
            &[&["--null-data"], *flags, &["foo", "nd.txt", "nd2.txt"]].concat(),
        );
        assert_eq!(
            (String::from_utf8_lossy(&got), code),
            (String::from_utf8_lossy(want.as_bytes()), 0),
            "{flags:?}"
        );
    }
    // `^` and `$` match at a record's edges, a pattern may match `\n` (rg 13 prints no column
    // for a match at the start of a record after the first: llm does).
    let (got, _, _) = human_bytes(&env, &["--null-data", "-x", "foo", "nd.txt", "nd2.txt"]);
    assert_eq!(got, b"nd.txt:2:5:bar\nfoo\0nd2.txt:2:1:foo\0");
    let (got, _, _) = human_bytes(&env, &["--null-data", "r\\nf", "nd.txt"]);
    assert_eq!(got, b"2:3:bar\nfoo\0");
    // Without it, NUL makes the file binary and `\n` ends lines.
    let (got, _, _) = human_bytes(&env, &["foo", "nd.txt"]);
    assert!(
        got.starts_with(b"1:1:foo a\0bar\n"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    // --files lists paths with `\n`, as rg.
    let (got, _, _) = human_bytes(&env, &["--null-data", "--files"]);
    assert_eq!(got, b"nd.txt\nnd2.txt\n");
    // JSON: the spans are the file's, on its real `\n` lines (transform takes them).
    let (lines, summary) = jsonl(&env, &["--null-data", "foo", "nd.txt"]);
    let spans: Vec<_> = (lines.iter())
        .map(|m| {
            let s = &m["span"];
            (
                s["byte_start"].as_u64().unwrap(),
                s["start_line"].as_u64().unwrap(),
                s["start_col"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(spans, [(0, 1, 0), (10, 2, 0), (20, 2, 10)]);
    assert_eq!(lines[1]["line_text"], "foo\u{0}baz\u{0}x foo");
    assert_eq!(summary["query"]["null_data"], true);
    assert_eq!(
        summary["data"]["files"][0]["line_count"], 3,
        "records with a match"
    );
    let (e, code) = search(&env, &["--null-data", "-v", "foo", "nd.txt"]);
    assert_eq!(code, 0);
    let m = &e.data.unwrap().matches;
    assert_eq!(
        (m.len(), m[0].span.byte_start, m[0].span.byte_end),
        (1, 14, 17)
    );
    // -P has no NUL line terminator here: refused.
    let (o, err, code) = human(&env, &["--null-data", "-P", "foo"]);
    assert_eq!((o.as_str(), code), ("", 2));
    assert!(err.contains("SEARCH_E003"), "{err}");
}
