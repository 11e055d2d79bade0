//! `llm search` against ripgrep 13 on flag combinations found by a differential fuzzer (its
//! third round): text that is not UTF-8, `-m0`, `-v -m` with context, `-r` on context lines,
//! `--vimgrep` with `-r`/`-b`/`-M`/`-I`/`-N`, `-o -M`, `-M`'s wording, and `--max-filesize`
//! leaving nothing to search; then a fourth round over random trees (ignore files, symlinks,
//! binary and CRLF files) and the summary, context and replace flags. rg's output (`rg -n
//! --column`, neither under `-N`; under `-v` too, where the context lines, which match, show
//! their column) is written out as literals: rg is not needed at test time. Where llm differs
//! on purpose, the comment gives rg's.

use crate::search::{human, human_bytes, jsonl, search};
use crate::util::TestEnv;
use serde_json::Value;

/// Human output's stdout as bytes, and the exit code.
fn out(env: &TestEnv, args: &[&str]) -> (Vec<u8>, i32) {
    let (out, _, code) = human_bytes(env, args);
    (out, code)
}

fn latin1() -> TestEnv {
    let env = TestEnv::new();
    env.write("l1.txt", b"caf\xe9 foo\nna\xefve bar\n".as_slice());
    env
}

#[test]
fn text_that_is_not_utf8_prints_as_its_bytes_with_replacements_where_they_belong() {
    let env = latin1();
    let cases: [(&[&str], &[u8]); 9] = [
        (&["foo", "l1.txt"], b"1:6:caf\xe9 foo\n"),
        // A replacement lands on the match's bytes, not where a U+FFFD moved them.
        (&["-r", "X", "bar", "l1.txt"], b"2:7:na\xefve X\n"),
        (&["-r", "X", "foo", "l1.txt"], b"1:6:caf\xe9 X\n"),
        // -o with context prints its match (it printed only the context line).
        (
            &["-o", "-A1", "foo", "l1.txt"],
            b"1:6:foo\n2-na\xefve bar\n",
        ),
        (&["-o", "-C1", "bar", "l1.txt"], b"1-caf\xe9 foo\n2:7:bar\n"),
        // -M counts the file's bytes: 9 and a line ending.
        (&["-M", "10", "bar", "l1.txt"], b"2:7:na\xefve bar\n"),
        (
            &["-M", "9", "bar", "l1.txt"],
            b"2:7:[Omitted long line with 1 matches]\n",
        ),
        // A group that captures a byte that is not UTF-8 puts that byte in.
        (
            &["-r", "[$0]", "(?-u:\\xe9)", "l1.txt"],
            b"1:4:caf[\xe9] foo\n",
        ),
        (&["-o", "-b", "(?-u:\\xe9)", "l1.txt"], b"1:4:3:\xe9\n"),
    ];
    for (args, want) in cases {
        let (got, code) = out(&env, args);
        assert_eq!(
            (String::from_utf8_lossy(&got), code),
            (String::from_utf8_lossy(want), 0),
            "{args:?}"
        );
        assert_eq!(got, want, "{args:?}");
        // The same from the owned matches (--max-results keeps them).
        let (kept, _) = out(&env, &[&["--max-results", "10"], args].concat());
        assert_eq!(kept, want, "--max-results {args:?}");
    }
    // In colour too.
    let (got, _) = out(&env, &["--color", "always", "-r", "X", "bar", "l1.txt"]);
    assert_eq!(
        got,
        b"\x1b[0m\x1b[32m2\x1b[0m:\x1b[0m7\x1b[0m:na\xefve \x1b[0m\x1b[1m\x1b[31mX\x1b[0m\n"
    );
    // JSON keeps its lossy text fields and the spans of the file's bytes.
    for (args, matched, replacement, start) in [
        (&["-r", "X", "bar", "l1.txt"][..], "bar", "X", 15),
        (
            &["-r", "[$0]", "(?-u:\\xe9)", "l1.txt"][..],
            "\u{FFFD}",
            "[\u{FFFD}]",
            3,
        ),
    ] {
        let (e, code) = search(&env, args);
        assert_eq!(code, 0);
        let data = e.data.unwrap();
        let m = &data.matches[0];
        assert_eq!(m.matched_text, matched);
        assert_eq!(m.replacement.as_deref(), Some(replacement));
        assert_eq!(m.span.byte_start, start);
        assert!(data.files[0].lossy);
        let (lines, _) = jsonl(&env, args);
        assert_eq!(lines[0]["matched_text"], matched);
        assert_eq!(lines[0]["replacement"], replacement);
        assert_eq!(lines[0]["span"]["byte_start"], start);
    }
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
fn invert_past_max_count_prints_the_selected_after_context_lines_as_matches() {
    let env = TestEnv::new();
    env.write("mv.txt", "foo\nfoo bar\nbar\n\nfoo\nbaz\n");
    for (args, want) in [
        (
            &["-v", "-m1", "-A2", "foo", "mv.txt"][..],
            "3:bar\n4:\n5-1-foo\n",
        ),
        (
            &["-v", "-m2", "-C1", "bar", "mv.txt"],
            "1:foo\n2-5-foo bar\n3-1-bar\n4:\n5:foo\n",
        ),
        (
            &["-v", "-m1", "-A2", "-o", "foo", "mv.txt"],
            "3:bar\n4:\n5-1-foo\n",
        ),
        // The context line's match is replaced (see below).
        (
            &["-v", "-m1", "-A2", "-r", "Y", "foo", "mv.txt"],
            "3:bar\n4:\n5-1-Y\n",
        ),
        // -b: each line's offset.
        (
            &["-v", "-m1", "-A2", "-b", "foo", "mv.txt"],
            "3:12:bar\n4:16:\n5-1-17-foo\n",
        ),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // JSON is as it was: one match, the lines after it as context.
    let (e, _) = search(&env, &["-v", "-m1", "-A2", "foo", "mv.txt"]);
    let data = e.data.unwrap();
    assert_eq!(data.match_count, 1);
    assert_eq!(data.matches[0].context_after, ["", "foo"]);
}

#[test]
fn replace_applies_to_matching_lines_printed_as_context() {
    let env = TestEnv::new();
    env.write("vr.txt", "ab cd\nxx\n");
    env.write("w.txt", "ab cd\nxx yy xx\n");
    env.write("ma.txt", "foo\nfoo bar\nbar\n");
    for (args, want) in [
        // -v: the context lines are the ones that match; rg replaces their matches.
        (
            &["-v", "-r", "X", "-A1", "xx", "vr.txt"][..],
            "1:ab cd\n2-1-X\n",
        ),
        (
            &["-v", "-o", "-A1", "-r", "X", "xx", "vr.txt"],
            "1:ab cd\n2-1-X\n",
        ),
        (
            &["-v", "-r", "Z", "-B1", "cd", "w.txt"],
            "1-4-ab Z\n2:xx yy xx\n",
        ),
        // -v -o: each match of a context line on a line of its own, with its offset.
        (
            &["-v", "-o", "-A1", "xx", "w.txt"],
            "1:ab cd\n2-1-xx\n2-7-xx\n",
        ),
        (
            &["-v", "-o", "-A1", "-b", "xx", "w.txt"],
            "1:0:ab cd\n2-1-6-xx\n2-7-12-xx\n",
        ),
        // -M measures the line as replaced, without its line ending (rg).
        (
            &["-v", "-A1", "-M", "6", "-r", "Z", "xx", "w.txt"],
            "1:ab cd\n2-1-Z yy Z\n",
        ),
        (
            &["-v", "-A1", "-M", "5", "-r", "Z", "xx", "w.txt"],
            "1:[Omitted long matching line]\n2-1-[Omitted long line with 2 matches]\n",
        ),
        // The context line's matches are counted as rg finds them for its column.
        (
            &["-v", "-A1", "-M", "5", "xx", "w.txt"],
            "1:[Omitted long matching line]\n2-1-[Omitted long line with 2 matches]\n",
        ),
        // Past -m, an after-context line that matches prints as a match, replaced.
        (
            &["-r", "X", "-A1", "-m1", "foo", "ma.txt"],
            "1:1:X\n2:1:X bar\n",
        ),
        (
            &["-r", "X", "-A1", "-m1", "-M", "5", "foo", "ma.txt"],
            "1:1:X\n2:1:X bar\n",
        ),
        (
            &["-r", "X", "-A1", "-m1", "-M", "4", "foo", "ma.txt"],
            "1:1:X\n2:1:[Omitted long line with 1 matches]\n",
        ),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
        let (kept, _, _) = human(&env, &[&["--max-results", "10"], args].concat());
        assert_eq!(kept, want, "--max-results {args:?}");
    }
    // --max-results keeps the context lines of the matches it keeps as they print.
    env.write("mr.txt", "ab\nxx\ncd\nxx\nef\n");
    let args = ["-v", "-r", "X", "-A1", "xx", "mr.txt"];
    let (got, _, _) = human(&env, &args);
    assert_eq!(got, "1:ab\n2-1-X\n3:cd\n4-1-X\n5:ef\n");
    let (got, _, _) = human(&env, &[&["--max-results", "1"], &args[..]].concat());
    assert_eq!(got, "1:ab\n2-1-X\n");
    let (got, _, _) = human(&env, &[&["--max-results", "2"], &args[..]].concat());
    assert_eq!(got, "1:ab\n2-1-X\n3:cd\n4-1-X\n");
    // Colour: the context line's matches are highlighted, the line of -v is not.
    let (got, _, _) = human(&env, &["--color", "always", "-v", "-A1", "xx", "vr.txt"]);
    assert_eq!(
        got,
        "\x1b[0m\x1b[32m1\x1b[0m:ab cd\n\
         \x1b[0m\x1b[32m2\x1b[0m-\x1b[0m1\x1b[0m-\x1b[0m\x1b[1m\x1b[31mxx\x1b[0m\n"
    );
    // JSON: with -v there is nothing to replace, the context line is as in the file.
    let (e, _) = search(&env, &["-v", "-r", "X", "-A1", "xx", "vr.txt"]);
    let data = e.data.unwrap();
    assert_eq!(data.matches[0].replacement, None);
    assert_eq!(data.matches[0].context_after, ["xx"]);
    let (lines, _) = jsonl(&env, &["-v", "-r", "X", "-A1", "xx", "vr.txt"]);
    assert_eq!(lines[0]["context_after"][0], "xx");
    assert!(lines[0].get("replacement").is_none());
}

#[test]
fn vimgrep_honours_replace_byte_offset_max_columns_no_filename_and_no_line_number() {
    let env = TestEnv::new();
    env.write("t.txt", "ab cd ab\nxx\nab\n");
    for (args, want) in [
        // Every match of the line replaced. rg prints the second match's column in the
        // replaced line (`t.txt:1:6:X cd X`); llm keeps the file's, where an editor jumps.
        (
            &["--vimgrep", "-r", "X", "ab", "t.txt"][..],
            "t.txt:1:1:X cd X\nt.txt:1:7:X cd X\nt.txt:3:1:X\n",
        ),
        (
            &["--vimgrep", "-b", "ab", "t.txt"],
            "t.txt:1:1:0:ab cd ab\nt.txt:1:7:6:ab cd ab\nt.txt:3:1:12:ab\n",
        ),
        (
            &["--vimgrep", "-M", "5", "ab", "t.txt"],
            "t.txt:1:1:[Omitted long line with 2 matches]\n\
             t.txt:1:7:[Omitted long line with 2 matches]\nt.txt:3:1:ab\n",
        ),
        (
            &["--vimgrep", "-r", "X", "-M", "6", "ab", "t.txt"],
            "t.txt:1:1:X cd X\nt.txt:1:7:X cd X\nt.txt:3:1:X\n",
        ),
        // -N drops the line number and keeps the column; -I drops the path.
        (
            &["--vimgrep", "-N", "ab", "t.txt"],
            "t.txt:1:ab cd ab\nt.txt:7:ab cd ab\nt.txt:1:ab\n",
        ),
        (
            &["--vimgrep", "-N", "-I", "ab", "t.txt"],
            "1:ab cd ab\n7:ab cd ab\n1:ab\n",
        ),
        (
            &["--vimgrep", "-I", "ab", "t.txt"],
            "1:1:ab cd ab\n1:7:ab cd ab\n3:1:ab\n",
        ),
        // -v: no column; -b gives the line's offset.
        (&["--vimgrep", "-v", "-b", "ab", "t.txt"], "t.txt:2:9:xx\n"),
        (&["--vimgrep", "-v", "-N", "ab", "t.txt"], "t.txt:xx\n"),
        (
            &["--vimgrep", "-o", "-b", "ab", "t.txt"],
            "t.txt:1:1:0:ab\nt.txt:1:7:6:ab\nt.txt:3:1:12:ab\n",
        ),
        (
            &["--vimgrep", "-o", "-M", "1", "ab", "t.txt"],
            "t.txt:1:1:[Omitted long matching line]\nt.txt:1:7:[Omitted long matching line]\n\
             t.txt:3:1:[Omitted long matching line]\n",
        ),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // Colour: each line highlights its own match (rg).
    let (got, _, _) = human(
        &env,
        &["--color", "always", "--vimgrep", "-I", "ab", "t.txt"],
    );
    assert_eq!(
        got,
        "\x1b[0m\x1b[32m1\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mab\x1b[0m cd ab\n\
         \x1b[0m\x1b[32m1\x1b[0m:\x1b[0m7\x1b[0m:ab cd \x1b[0m\x1b[1m\x1b[31mab\x1b[0m\n\
         \x1b[0m\x1b[32m3\x1b[0m:\x1b[0m1\x1b[0m:\x1b[0m\x1b[1m\x1b[31mab\x1b[0m\n"
    );
}

#[test]
fn only_matching_honours_max_columns() {
    let env = TestEnv::new();
    env.write("t.txt", "ab cd ab\nxx\nab\n");
    env.write("v.txt", "ab cd\n");
    // rg measures the text printed: the match (or its replacement), without a line ending.
    for (args, want) in [
        (
            &["-o", "-M", "3", "ab.cd", "v.txt"][..],
            "1:1:[Omitted long matching line]\n",
        ),
        (
            &["-o", "-M", "2", "ab", "t.txt"],
            "1:1:ab\n1:7:ab\n3:1:ab\n",
        ),
        (
            &["-o", "-M", "1", "ab", "t.txt"],
            "1:1:[Omitted long matching line]\n1:7:[Omitted long matching line]\n\
             3:1:[Omitted long matching line]\n",
        ),
        (
            &["-o", "-M", "1", "-A1", "ab", "t.txt"],
            "1:1:[Omitted long matching line]\n1:7:[Omitted long matching line]\n\
             2-[Omitted long context line]\n3:1:[Omitted long matching line]\n",
        ),
        (
            &["-o", "-M", "2", "-r", "XYZ", "cd", "v.txt"],
            "1:4:[Omitted long matching line]\n",
        ),
        (&["-o", "-M", "1", "-r", "X", "cd", "v.txt"], "1:4:X\n"),
        // -v -o prints whole lines, measured with their line ending.
        (&["-v", "-o", "-M", "6", "xx", "v.txt"], "1:ab cd\n"),
        (
            &["-v", "-o", "-M", "5", "xx", "v.txt"],
            "1:[Omitted long matching line]\n",
        ),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
}

#[test]
fn max_columns_says_matching_line_where_rg_does_not_count_matches() {
    let env = TestEnv::new();
    env.write("mo.txt", "abcdefghijkl\n");
    // rg counts a long line's matches only where it finds each of them: for the column (llm
    // shows it unless -N), -r, colour, --vimgrep, -o, --stats.
    for (args, want) in [
        (
            &["-N", "-M", "5", "abc", "mo.txt"][..],
            "[Omitted long matching line]\n",
        ),
        (
            &["-N", "-M", "12", "abc", "mo.txt"],
            "[Omitted long matching line]\n",
        ),
        (&["-N", "-M", "13", "abc", "mo.txt"], "abcdefghijkl\n"),
        (
            &["-M", "5", "abc", "mo.txt"],
            "1:1:[Omitted long line with 1 matches]\n",
        ),
        (
            &["-N", "-M", "5", "-r", "X", "abc", "mo.txt"],
            "[Omitted long line with 1 matches]\n",
        ),
        (&["-N", "-M", "5", "-o", "abc", "mo.txt"], "abc\n"),
        (
            &["-N", "-H", "-M", "5", "abc", "mo.txt"],
            "mo.txt:[Omitted long matching line]\n",
        ),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    let (got, _, _) = human(&env, &["-N", "-M", "5", "--stats", "abc", "mo.txt"]);
    assert!(
        got.starts_with("[Omitted long line with 1 matches]\n\n1 matches\n"),
        "{got}"
    );
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

#[test]
fn counting_wins_over_listing_whatever_their_order() {
    let env = TestEnv::new();
    env.write("w.txt", "bar bar\nbar\n");
    env.write("z.txt", "none\n");
    // rg 13: -l and --files-without-match override each other, -c and --count-matches too, and
    // a count wins over a list in either order (llm listed for `-c -l`).
    let cases: [(&[&str], &str); 6] = [
        (&["-c", "-l"], "w.txt:2\n"),
        (&["--count-matches", "-l"], "w.txt:3\n"),
        (&["-c", "--files-without-match"], "w.txt:2\n"),
        (&["--count-matches", "--files-without-match"], "w.txt:3\n"),
        (
            &["--files-without-match", "--count-matches", "-c"],
            "w.txt:2\n",
        ),
        (&["-l", "--files-without-match"], "z.txt\n"),
    ];
    for (flags, want) in cases {
        let args = [flags, &["bar", "w.txt", "z.txt"]].concat();
        let (got, _, code) = human(&env, &args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // JSON lists the same: w.txt's count, no file without a match.
    let (e, _) = search(
        &env,
        &["-c", "--files-without-match", "bar", "w.txt", "z.txt"],
    );
    let files = e.data.unwrap().files;
    assert_eq!(files.len(), 1);
    assert_eq!(
        (files[0].file_path.as_str(), files[0].line_count),
        ("w.txt", 2)
    );
}

/// The tree of the -v/--vimgrep context cases below.
fn context_pair() -> TestEnv {
    let env = TestEnv::new();
    env.write("g.txt", "bar\n1\n2\n3\n4\nbar\n");
    env.write("v2.txt", "foo\nbar x bar\nfoo bar\nbaz\n");
    env
}

#[test]
fn invert_context_lines_show_their_match_column() {
    let env = context_pair();
    // rg -n --column: with -v the context lines are the ones that match, and show the column
    // of their (first) match; -o and -b each match's own (llm printed no column there).
    let cases: [(&[&str], &str); 3] = [
        (
            &["-v", "-C1"],
            "g.txt-1-1-bar\ng.txt:2:1\ng.txt:3:2\ng.txt:4:3\ng.txt:5:4\ng.txt-6-1-bar\n--\n\
v2.txt:1:foo\nv2.txt-2-1-bar x bar\nv2.txt-3-5-foo bar\nv2.txt:4:baz\n",
        ),
        (
            &["-v", "-C1", "-o", "-b"],
            "g.txt-1-1-0-bar\ng.txt:2:4:1\ng.txt:3:6:2\ng.txt:4:8:3\ng.txt:5:10:4\n\
g.txt-6-1-12-bar\n--\nv2.txt:1:0:foo\nv2.txt-2-1-4-bar\nv2.txt-2-7-10-bar\n\
v2.txt-3-5-18-bar\nv2.txt:4:22:baz\n",
        ),
        // -M counts a long context line's matches, as for any line rg finds matches in.
        (
            &["-v", "-C1", "-M5", "bar", "v2.txt"],
            "1:foo\n2-1-[Omitted long line with 2 matches]\n3-5-[Omitted long line with 1 matches]\n4:baz\n",
        ),
    ];
    for (flags, want) in cases {
        let args = match flags.len() {
            5 => flags.to_vec(),
            _ => [flags, &["bar", "g.txt", "v2.txt"]].concat(),
        };
        let (got, _, code) = human(&env, &args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // -N: no line number, no column (rg without -n/--column).
    let (got, _, _) = human(&env, &["-v", "-C1", "-N", "bar", "v2.txt"]);
    assert_eq!(got, "foo\nbar x bar\nfoo bar\nbaz\n");
    // -U with a pattern searched line by line (it cannot match `\n`): the same.
    let (got, _, _) = human(&env, &["-U", "-v", "-C1", "bar", "v2.txt"]);
    assert_eq!(got, "1:foo\n2-1-bar x bar\n3-5-foo bar\n4:baz\n");
    // JSON is as before: the lines of -v, their context lines whole.
    let (e, _) = search(&env, &["-v", "-C1", "bar", "v2.txt"]);
    let data = e.data.unwrap();
    assert_eq!(data.match_count, 2);
    assert_eq!(data.matches[0].context_after, ["bar x bar"]);
}

#[test]
fn vimgrep_prints_context_lines() {
    let env = context_pair();
    // rg 13 --vimgrep with -A/-B/-C: the context lines and `--` between groups, a line per
    // match as without context (llm printed no context line).
    let cases: [(&[&str], &str); 5] = [
        (
            &["--vimgrep", "-A1", "bar"],
            "g.txt:1:1:bar\ng.txt-2-1\n--\ng.txt:6:1:bar\n--\n\
v2.txt:2:1:bar x bar\nv2.txt:2:7:bar x bar\nv2.txt:3:5:foo bar\nv2.txt-4-baz\n",
        ),
        (
            &["--vimgrep", "-C1", "-b", "-M2", "bar"],
            "g.txt:1:1:0:[Omitted long line with 1 matches]\ng.txt-2-4-1\n--\ng.txt-5-10-4\n\
g.txt:6:1:12:[Omitted long line with 1 matches]\n--\n\
v2.txt-1-0-[Omitted long context line]\nv2.txt:2:1:4:[Omitted long line with 2 matches]\n\
v2.txt:2:7:10:[Omitted long line with 2 matches]\nv2.txt:3:5:18:[Omitted long line with 1 matches]\n\
v2.txt-4-22-[Omitted long context line]\n",
        ),
        // With -v: a line of -v once, without a column; the context lines once per match.
        (
            &["--vimgrep", "-v", "-C1", "bar", "v2.txt"],
            "v2.txt:1:foo\nv2.txt-2-1-bar x bar\nv2.txt-2-7-bar x bar\nv2.txt-3-5-foo bar\nv2.txt:4:baz\n",
        ),
        // A multiline match prints its first line only; its further lines are not context.
        (&["--vimgrep", "-C1", "-U", "bar\\n1", "g.txt"], "g.txt:1:1:bar\ng.txt-3-2\n"),
        // Past -m, an after-context line that would match prints as a match, per match.
        (
            &["--vimgrep", "-A1", "-m1", "bar|foo", "v2.txt"],
            "v2.txt:1:1:foo\nv2.txt:2:1:bar x bar\nv2.txt:2:7:bar x bar\n",
        ),
    ];
    for (args, want) in cases {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // JSON: the matches and their context, as without --vimgrep.
    let (e, _) = search(&env, &["--vimgrep", "-A1", "bar", "v2.txt"]);
    let data = e.data.unwrap();
    assert_eq!(data.match_count, 3);
    assert_eq!(data.matches[2].context_after, ["baz"]);
}

#[test]
fn an_ignore_file_that_cannot_be_read_is_a_warning() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    env.write("b.txt", "foo\n");
    env.write("bad.ign", "a[\nb.txt\n");
    // rg: "missing: No such file or directory (os error 2)" on stderr, and the search goes
    // on (llm stopped with exit 2), a file named alone too.
    for (args, want) in [
        (
            &["--ignore-file", "missing", "foo"][..],
            "a.txt:1:1:foo\nb.txt:1:1:foo\n",
        ),
        (&["--ignore-file", "missing", "foo", "a.txt"], "1:1:foo\n"),
    ] {
        let (got, err, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
        assert!(err.contains("warning[LLM_E005]: --ignore-file"), "{err}");
    }
    // A line that is not a glob for rg 13 (`a[`): the other lines apply (the ignore crate
    // llm is built on takes `a[` as it is, where rg 13 also warned).
    let (got, _, code) = human(&env, &["--ignore-file", "bad.ign", "foo"]);
    assert_eq!((got.as_str(), code), ("a.txt:1:1:foo\n", 0));
    let (got, _, code) = human(&env, &["--ignore-file", "missing", "zzz"]);
    assert_eq!((got.as_str(), code), ("", 1));
    let (e, code) = search(&env, &["--ignore-file", "missing", "foo"]);
    assert_eq!((e.status.as_str(), code), ("ok", 0));
    assert_eq!(e.data.unwrap().match_count, 2);
    assert!(e
        .diagnostics
        .iter()
        .any(|d| d.level == "warning" && d.code.as_deref() == Some("LLM_E005")));
}

#[test]
fn no_pattern_at_all_searches_nothing() {
    let env = TestEnv::new();
    env.write("v.txt", "foo\nbar\n");
    env.write("empty", "");
    // rg -f EMPTY: nothing is searched, whatever else is asked, and a missing path is not even
    // looked at: exit 1, nothing printed (llm printed every line under -v, listed v.txt under
    // --files-without-match, and failed on the missing path).
    for args in [
        &["-v", "-f", "empty", "v.txt"][..],
        &["--files-without-match", "-f", "empty", "v.txt"],
        &["-c", "--include-zero", "-f", "empty", "v.txt"],
        &["-f", "empty", "missing"],
        &["-f", "empty"],
    ] {
        let (got, err, code) = human(&env, args);
        assert_eq!((got.as_str(), err.as_str(), code), ("", "", 1), "{args:?}");
        let (lines, summary) = jsonl(&env, args);
        assert!(lines.is_empty());
        assert_eq!(summary["status"], "no_matches");
    }
    // Another pattern beside it is searched for.
    let (got, _, code) = human(&env, &["-f", "empty", "-e", "bar", "v.txt"]);
    assert_eq!((got.as_str(), code), ("2:1:bar\n", 0));
}

#[test]
fn a_walked_binary_file_says_it_stopped_after_its_match() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    // rg sees this file's first three bytes before the rest (its BOM sniffing), and so the
    // match on line 2 before meeting the NUL.
    env.write("y.py", b"\no\n  bar\nbaz o\n42 ba\0z\n".as_slice());
    let warning = "WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 20)\n";
    let cases: [(&[&str], String); 6] = [
        (
            &["o"],
            format!("a.txt:1:2:foo\ny.py:2:1:o\ny.py: {warning}"),
        ),
        (
            &["--heading", "o"],
            format!("a.txt\n1:2:foo\n\ny.py\n2:1:o\ny.py: {warning}"),
        ),
        (&["-I", "o"], format!("1:2:foo\n2:1:o\n{warning}")),
        (
            &["-0", "o"],
            format!("a.txt\x001:2:foo\ny.py\x002:1:o\ny.py: {warning}"),
        ),
        (&["-v", "o"], format!("y.py:1:\ny.py: {warning}")),
        // No context line past what rg read before the buffer with the NUL (its first three
        // bytes here): line 3 is not printed (llm printed it).
        (
            &["-A1", "o"],
            format!("a.txt:1:2:foo\n--\ny.py:2:1:o\ny.py: {warning}"),
        ),
    ];
    for (args, want) in cases {
        let (got, err, code) = human(&env, args);
        assert_eq!((got, code), (want, 0), "{args:?}");
        // Not on stderr as well (rg says it once, on stdout).
        assert_eq!(err, "", "{args:?}");
    }
    // -c counts no binary file (rg); -l lists it (it stopped at the match, before the NUL).
    let (got, _, _) = human(&env, &["-c", "o"]);
    assert_eq!(got, "a.txt:1\n");
    let (got, _, _) = human(&env, &["-l", "o"]);
    assert_eq!(got, "a.txt\ny.py\n");
    // JSON keeps its warning.
    let (e, _) = search(&env, &["o"]);
    assert!(e
        .diagnostics
        .iter()
        .any(|d| d.code.as_deref() == Some("SEARCH_E004")));
}

#[test]
fn multiline_with_a_pattern_that_cannot_match_a_line_break_counts_lines() {
    let env = TestEnv::new();
    env.write("m.txt", "foofoo\nx\nfoo\n");
    env.write("m2.txt", "foofoo\nfoo bar foo\nx\nfoo\n");
    // rg -U searches `fo+` line by line (it cannot match `\n`): -c counts lines and -m stops
    // at lines, as without -U (llm counted matches: 3, and stopped inside line 2).
    let cases: [(&[&str], &str); 4] = [
        (&["-c", "-U", "fo+", "m.txt"], "2\n"),
        (&["--count-matches", "-U", "fo+", "m.txt"], "3\n"),
        (
            &["-U", "-m2", "fo+", "m2.txt"],
            "1:1:foofoo\n2:1:foo bar foo\n",
        ),
        // A pattern that can match `\n` is searched across lines: -c counts its matches.
        (&["-c", "-U", "fo+|\\n\\n", "m.txt"], "3\n"),
    ];
    for (args, want) in cases {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // JSON: line_count is what -c prints; -m keeps the matches of the lines it allows.
    let (e, _) = search(&env, &["-U", "fo+", "m.txt"]);
    assert_eq!(e.data.unwrap().files[0].line_count, 2);
    let (e, _) = search(&env, &["-U", "-m2", "fo+", "m2.txt"]);
    assert_eq!(e.data.unwrap().match_count, 4);
}

#[test]
fn max_columns_preview_prints_the_start_of_long_lines() {
    let env = TestEnv::new();
    env.write(
        "p.txt",
        "foo bar baz qux foo\nshort foo\nctx line that is long\n",
    );
    env.write("u.txt", "h\u{e9}llo w\u{f6}rld foo\n");
    // rg 13 --max-columns-preview (llm refused the flag): the first NUM bytes, then how many
    // matches start past them where rg finds each match, else that the end was left out.
    let cases: [(&[&str], &str); 7] = [
        (&["foo", "p.txt"], "1:1:foo bar ba [... 1 more match]\n2:7:short foo\n"),
        (
            &["-A1", "foo", "p.txt"],
            "1:1:foo bar ba [... 1 more match]\n2:7:short foo\n3-ctx line t [... omitted end of long line]\n",
        ),
        // -r: the line as replaced.
        (
            &["-r", "XYZXYZXYZXYZ", "foo", "p.txt"],
            "1:1:XYZXYZXYZX [... 1 more match]\n2:7:short XYZX [... 0 more matches]\n",
        ),
        (
            &["--vimgrep", "foo", "p.txt"],
            "p.txt:1:1:foo bar ba [... 1 more match]\np.txt:1:17:foo bar ba [... 1 more match]\np.txt:2:7:short foo\n",
        ),
        (&["-v", "foo", "p.txt"], "3:ctx line t [... omitted end of long line]\n"),
        // The preview counts characters (rg: graphemes), where -M counts bytes.
        (&["-M2", "foo", "u.txt"], "1:15:h\u{e9} [... 1 more match]\n"),
        (&["-M8", "foo", "u.txt"], "1:15:h\u{e9}llo w\u{f6} [... 1 more match]\n"),
    ];
    for (args, want) in cases {
        let args = [&["-M10", "--max-columns-preview"], args].concat();
        let (got, _, code) = human(&env, &args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // Without -M it changes nothing.
    let (got, _, _) = human(&env, &["--max-columns-preview", "foo", "p.txt"]);
    assert_eq!(got, "1:1:foo bar baz qux foo\n2:7:short foo\n");
}

#[test]
fn quiet_answers_whether_something_matched_whatever_list_was_asked() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    // rg 13: -q wins over --files-without-match (llm exited 0 for a file without a match).
    for (args, want) in [
        (&["-q", "--files-without-match", "zzz"][..], 1),
        (&["-q", "--files-without-match", "foo"], 0),
        (&["-q", "-c", "zzz"], 1),
    ] {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), ("", want), "{args:?}");
    }
}

#[test]
fn context_separator_as_in_ripgrep() {
    let env = TestEnv::new();
    env.write("s.txt", "a\nx\nb\nc\nd\ne\nx\nf\n");
    env.write("t.txt", "x\n");
    // rg -n --column --sort path -C1 x … (before: --context-separator was an unknown flag).
    let cases: [(&[&str], &str); 6] = [
        (
            &["--context-separator", "=\\t=\\x41", "s.txt"],
            "1-a\n2:1:x\n3-b\n=\t=A\n6-e\n7:1:x\n8-f\n",
        ),
        (&["--context-separator", "", "s.txt"], "1-a\n2:1:x\n3-b\n\n6-e\n7:1:x\n8-f\n"),
        (&["--no-context-separator", "s.txt"], "1-a\n2:1:x\n3-b\n6-e\n7:1:x\n8-f\n"),
        // The last of the two wins.
        (
            &["--no-context-separator", "--context-separator", "Z", "s.txt"],
            "1-a\n2:1:x\n3-b\nZ\n6-e\n7:1:x\n8-f\n",
        ),
        (
            &["--context-separator", "Z", "--no-context-separator", "s.txt"],
            "1-a\n2:1:x\n3-b\n6-e\n7:1:x\n8-f\n",
        ),
        // Between files too.
        (
            &["--context-separator", "Z", "s.txt", "t.txt"],
            "s.txt-1-a\ns.txt:2:1:x\ns.txt-3-b\nZ\ns.txt-6-e\ns.txt:7:1:x\ns.txt-8-f\nZ\nt.txt:1:1:x\n",
        ),
    ];
    for (args, want) in cases {
        let args = [&["-C1", "x"], args].concat();
        let (got, _, code) = human(&env, &args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // JSON output has no separators: unchanged by the flag.
    let (lines, _) = jsonl(&env, &["-C1", "--context-separator", "Z", "x", "s.txt"]);
    assert_eq!(lines.len(), 2);
}

#[test]
fn dot_is_hidden() {
    let env = TestEnv::new();
    env.write(".h.txt", "q\n");
    env.write("v.txt", "r\n");
    // rg -l q: nothing (exit 1); rg -. -l q: .h.txt.
    let (got, _, code) = human(&env, &["-l", "q"]);
    assert_eq!((got.as_str(), code), ("", 1));
    let (got, _, code) = human(&env, &["-.", "-l", "q"]);
    assert_eq!((got.as_str(), code), (".h.txt\n", 0));
}

#[test]
fn negations_as_in_ripgrep_the_last_wins() {
    let env = TestEnv::new();
    env.write("s.txt", "a\nx\nb\n");
    env.write(".h.txt", "x\n");
    // rg -n --column --sort path ARGS (each negation was an unknown flag).
    let cases: [(&[&str], &str); 9] = [
        (&["--hidden", "--no-hidden", "-l", "x"], "s.txt\n"),
        (&["--no-hidden", "--hidden", "-l", "x"], ".h.txt\ns.txt\n"),
        (
            &["-F", "--no-fixed-strings", "a|x", "s.txt"],
            "1:1:a\n2:1:x\n",
        ),
        (&["--trim", "--no-trim", "x", "s.txt"], "2:1:x\n"),
        (&["--no-column", "x", "s.txt"], "2:x\n"),
        (&["--no-column", "--column", "x", "s.txt"], "2:1:x\n"),
        (&["--vimgrep", "--no-column", "x", "s.txt"], "s.txt:2:x\n"),
        (
            &["--no-column", "-v", "-A1", "x", "s.txt"],
            "1:a\n2-x\n3:b\n",
        ),
        (
            &["--mmap", "--no-pcre2-unicode", "--unicode", "x", "s.txt"],
            "2:1:x\n",
        ),
    ];
    for (args, want) in cases {
        let (got, _, code) = human(&env, args);
        assert_eq!((got.as_str(), code), (want, 0), "{args:?}");
    }
    // --ignore undoes --no-ignore: the ignored file is left out again.
    env.write(".ignore", "s.txt\n");
    let (got, _, _) = human(&env, &["--no-ignore", "--ignore", "-l", "a"]);
    assert_eq!(got, "");
    let (got, _, _) = human(&env, &["--ignore", "--no-ignore", "-l", "a"]);
    assert_eq!(got, "s.txt\n");
}
