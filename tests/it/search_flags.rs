//! `llm search` against ripgrep's own test cases (misc, feature, regression, multiline,
//! binary): fixtures built here, rg's output written out as literals (rg is not needed). Where
//! llm differs on purpose (line and column always shown, paths without `./`, files in path
//! order) the expected text is llm's and the comment gives rg's. Each flag runs in every
//! format: human, json (checked envelope, spans against the bytes) and jsonl.

use crate::search::{human, search};
use crate::util::{check_span, sha, TestEnv};
use serde_json::Value;

/// ripgrep's `sherlock` fixture, the corpus of its tests.
const SHERLOCK: &str = "\
For the Doctor Watsons of this world, as opposed to the Sherlock
Holmeses, success in the province of detective work must always
be, to a very large extent, the result of luck. Sherlock Holmes
can extract a clew from a wisp of straw or a flake of cigar ash;
but Doctor Watson has to have it taken out for him and dusted,
and exhibited clearly, with a label attached.
";

fn sherlock() -> TestEnv {
    let env = TestEnv::new();
    env.write("sherlock", SHERLOCK);
    env
}

/// `llm search --format jsonl ARGS`: the lines parsed, and the exit code.
fn jsonl(env: &TestEnv, args: &[&str]) -> (Vec<Value>, i32) {
    let out = env
        .llm(&[&["search", "--format", "jsonl"], args].concat())
        .output()
        .unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (lines, out.status.code().unwrap())
}

/// The `match` lines of a jsonl run, then its summary.
fn jsonl_matches(env: &TestEnv, args: &[&str]) -> (Vec<Value>, Value) {
    let (mut lines, _) = jsonl(env, args);
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary");
    for l in &lines {
        assert_eq!(l["type"], "match", "{l}");
        check_span(env.path(), &l["span"]);
    }
    (lines, summary)
}

fn texts(e: &crate::search::Envelope) -> Vec<String> {
    e.data
        .as_ref()
        .unwrap()
        .matches
        .iter()
        .map(|m| m.matched_text.clone())
        .collect()
}

fn file_paths(e: &crate::search::Envelope) -> Vec<String> {
    e.data
        .as_ref()
        .unwrap()
        .files
        .iter()
        .map(|f| f.file_path.clone())
        .collect()
}

// ---- ripgrep's bugs, fixed ----

#[test]
fn rgignore_is_honoured() {
    // rg misc::ignore_rgignore
    let env = sherlock();
    env.write(".rgignore", "sherlock\n");
    env.write("other", "Sherlock\n");
    let (out, _, code) = human(&env, &["Sherlock"]);
    assert_eq!((out.as_str(), code), ("other:1:1:Sherlock\n", 0));
    let (e, _) = search(&env, &["Sherlock"]);
    assert_eq!(file_paths(&e), ["other"]);
    let (m, _) = jsonl_matches(&env, &["Sherlock"]);
    assert_eq!(m.len(), 1);
    // --no-ignore-dot and -u lift it.
    let (out, _, _) = human(&env, &["-c", "--no-ignore-dot", "Sherlock"]);
    assert_eq!(out, "other:1\nsherlock:2\n");
    let (out, _, _) = human(&env, &["-c", "-u", "Sherlock"]);
    assert_eq!(out, "other:1\nsherlock:2\n");
}

#[test]
fn no_files_searched_names_the_filters_an_error_only_for_the_default_path() {
    // rg: "No files were searched, which means ripgrep probably applied a filter you didn't
    // expect." and exit 2.
    let env = TestEnv::new();
    env.write(".hidden", "x\n");
    let (out, err, code) = human(&env, &["x"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("SEARCH_E005"), "{err}");
    assert!(err.contains("no files were searched"), "{err}");
    assert!(err.contains("--hidden"), "{err}");
    let (e, code) = search(&env, &["x"]);
    assert_eq!((e.status.as_str(), code), ("error", 2));
    assert_eq!(e.error.unwrap().code.as_deref(), Some("SEARCH_E005"));
    let (lines, code) = jsonl(&env, &["x"]);
    assert_eq!(code, 2);
    assert_eq!(lines[0]["error"]["code"], "SEARCH_E005");
    // The filters named are those in force: a glob, a type.
    env.write("a.rs", "x\n");
    let (_, err, code) = human(&env, &["-g", "*.py", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("--glob *.py"), "{err}");
    // Found nothing in files searched: exit 1, no message (rg too).
    let (out, err, code) = human(&env, &["zzz"]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 1));
    // --hidden lifts the filter.
    let (out, _, _) = human(&env, &["--hidden", "-l", "x"]);
    assert_eq!(out, ".hidden\na.rs\n");
    // Named paths that hold nothing to search: nothing found (exit 1, as rg), with the same
    // message as a warning.
    std::fs::create_dir(env.path().join("empty")).unwrap();
    let (out, err, code) = human(&env, &["-t", "py", "x", "a.rs", "empty"]);
    assert_eq!((out.as_str(), code), ("a.rs:1:1:x\n", 0), "{err}");
    let (out, err, code) = human(&env, &["-t", "py", "x", "empty", "."]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(err.contains("warning[SEARCH_E005]"), "{err}");
    assert!(err.contains("--type py"), "{err}");
    let (e, code) = search(&env, &["-t", "py", "x", "."]);
    assert_eq!((e.status.as_str(), code), ("no_matches", 1));
    assert_eq!(e.diagnostics[0].code.as_deref(), Some("SEARCH_E005"));
}

#[test]
fn type_all_and_type_not_all() {
    // rg feature::f1_type_all (`-t all`: files of any known type), `-T all`: the rest.
    let env = sherlock();
    env.write("a.rs", "Sherlock\n");
    let (out, _, _) = human(&env, &["-t", "all", "-l", "Sherlock"]);
    assert_eq!(out, "a.rs\n");
    let (out, _, _) = human(&env, &["-T", "all", "-l", "Sherlock"]);
    assert_eq!(out, "sherlock\n");
    let (e, _) = search(&env, &["-t", "all", "Sherlock"]);
    assert_eq!(file_paths(&e), ["a.rs"]);
    let (m, _) = jsonl_matches(&env, &["-T", "all", "Sherlock"]);
    assert_eq!(m.len(), 2);
}

#[test]
fn a_repeated_flag_keeps_its_last_value() {
    // rg: flags override themselves (`-i -i`, `-C1 -C0`), -s after -i is case-sensitive.
    let env = sherlock();
    let (out, _, code) = human(&env, &["-i", "-i", "-c", "sherlock", "sherlock"]);
    assert_eq!((out.as_str(), code), ("2\n", 0));
    let (out, _, _) = human(&env, &["-C1", "-C0", "clew", "sherlock"]);
    assert_eq!(
        out,
        "4:15:can extract a clew from a wisp of straw or a flake of cigar ash;\n"
    );
    let (_, _, code) = human(&env, &["-i", "-s", "sherlock holmes", "sherlock"]);
    assert_eq!(code, 1);
    let (_, _, code) = human(&env, &["-s", "-i", "sherlock holmes", "sherlock"]);
    assert_eq!(code, 0);
    let (e, _) = search(&env, &["-S", "-s", "-i", "WATSON", "sherlock"]);
    assert_eq!(e.data.unwrap().match_count, 2);
}

#[test]
fn replacement_may_start_with_a_dash() {
    // rg regression 1380-ish: `-r -n` replaces with `-n`.
    let env = sherlock();
    let (out, _, _) = human(&env, &["-r", "-n", "clew", "sherlock"]);
    assert_eq!(
        out,
        "4:15:can extract a -n from a wisp of straw or a flake of cigar ash;\n"
    );
    let (e, _) = search(&env, &["-r", "-n", "clew", "sherlock"]);
    assert_eq!(
        e.data.unwrap().matches[0].replacement.as_deref(),
        Some("-n")
    );
}

#[test]
fn counts_skip_binary_files_found_by_walking() {
    // rg binary::after_match1_implicit_count: a walked binary file is not listed by -c.
    let env = TestEnv::new();
    env.write("bin.dat", b"needle\nfoo\x00bar\nneedle\n".as_slice());
    env.write("t.txt", "needle\n");
    for flag in ["-c", "--count-matches", "-l"] {
        let (out, _, _) = human(&env, &[flag, "needle"]);
        let want = if flag == "-l" { "t.txt\n" } else { "t.txt:1\n" };
        assert_eq!(out, want, "{flag}");
        let (e, _) = search(&env, &[flag, "needle"]);
        assert_eq!(file_paths(&e), ["t.txt"], "{flag}");
        assert_eq!(e.data.unwrap().stats.skipped.binary, 1);
    }
    // Named, it is searched whole (with a warning), as rg does.
    let (out, _, _) = human(&env, &["-c", "needle", "bin.dat"]);
    assert_eq!(out, "2\n");
}

#[test]
fn max_filesize_takes_only_upper_case_suffixes() {
    // rg: `45k` is not a size.
    let env = sherlock();
    let (_, err, code) = human(&env, &["--max-filesize", "45k", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("K, M or G"), "{err}");
    let (out, _, _) = human(&env, &["--max-filesize", "1K", "-c", "Sherlock"]);
    assert_eq!(out, "sherlock:2\n");
    let (e, code) = search(&env, &["--max-filesize", "1M", "Sherlock"]);
    assert_eq!((code, e.data.unwrap().match_count), (0, 2));
}

#[test]
fn a_pattern_that_needs_nul_is_explained() {
    // rg: "pattern contains \"\\0\" but it is impossible to match … Consider enabling text
    // mode with the --text flag".
    let env = TestEnv::new();
    env.write("b.bin", b"a\x00b\n".as_slice());
    let (_, err, code) = human(&env, &[r"\x00", "b.bin"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("SEARCH_E006") && err.contains("--text"),
        "{err}"
    );
    let (e, code) = search(&env, &[r"\x00"]);
    assert_eq!((e.status.as_str(), code), ("error", 2));
    assert_eq!(e.error.unwrap().code.as_deref(), Some("SEARCH_E006"));
    // With -a the byte matches, in a walked file too.
    let (e, code) = search(&env, &["-a", r"a\x00b"]);
    assert_eq!(code, 0);
    let d = e.data.unwrap();
    assert_eq!(
        (d.matches[0].span.byte_start, d.matches[0].span.byte_end),
        (0, 3)
    );
    assert!(e.diagnostics.is_empty(), "{:?}", e.diagnostics);
    let (m, _) = jsonl_matches(&env, &["--text", r"\x00"]);
    assert_eq!(m.len(), 1);
}

#[test]
fn max_count_with_multiline_overlapping_matches() {
    // rg: `-m1 -U` reports one match where the line group holds two.
    let env = TestEnv::new();
    env.write("m.txt", "abc\ndef\nabc\ndef\n");
    let pat = "abc\\ndef|def\\nabc";
    let (out, _, _) = human(&env, &["-m1", "-U", pat, "m.txt"]);
    assert_eq!(out, "1:1:abc\n2:1:def\n");
    let (out, _, _) = human(&env, &["-c", "-m1", "-U", pat, "m.txt"]);
    assert_eq!(out, "1\n");
    let (e, _) = search(&env, &["-m1", "-U", pat]);
    assert_eq!(texts(&e), ["abc\ndef"]);
    let (m, _) = jsonl_matches(&env, &["-m1", "-U", pat]);
    assert_eq!(m.len(), 1);
}

#[test]
fn after_context_past_max_count_shows_matching_lines_as_matches() {
    // rg: `-n -A2 -m1 d` on a b c d e d e d e prints `4:d`, `5-e`, `6:d`.
    let env = TestEnv::new();
    env.write("f.txt", "a\nb\nc\nd\ne\nd\ne\nd\ne\n");
    let (out, _, _) = human(&env, &["-n", "-A2", "-m1", "d", "f.txt"]);
    assert_eq!(out, "4:1:d\n5-e\n6:1:d\n");
    // JSON: one match, line 6 is its context (it is not counted).
    let (e, _) = search(&env, &["-A2", "-m1", "d"]);
    let d = e.data.unwrap();
    assert_eq!(d.match_count, 1);
    assert_eq!(d.matches[0].context_after, ["e", "d"]);
    // Also where an earlier match's after-context holds the line (rg: `-n -A3 -m2 m` on
    // m m x m y prints 1:m 2:m 3-x 4:m 5-y).
    env.write("g.txt", "m\nm\nx\nm\ny\n");
    let (out, _, _) = human(&env, &["-A3", "-m2", "m", "g.txt"]);
    assert_eq!(out, "1:1:m\n2:1:m\n3-x\n4:1:m\n5-y\n");
    let (out, _, _) = human(&env, &["-A2", "-m2", "-w", "m", "g.txt"]);
    assert_eq!(out, "1:1:m\n2:1:m\n3-x\n4:1:m\n");
}

// ---- the flags ----

#[test]
fn invert_match_spans_whole_lines() {
    // rg feature::f1_invert / misc::inverted: the lines without a match.
    let env = sherlock();
    let (out, _, code) = human(&env, &["-v", "Sherlock", "sherlock"]);
    assert_eq!(code, 0);
    // rg: the same lines without numbers (-v has no column, as in rg --column).
    assert_eq!(
        out,
        "2:Holmeses, success in the province of detective work must always\n\
4:can extract a clew from a wisp of straw or a flake of cigar ash;\n\
5:but Doctor Watson has to have it taken out for him and dusted,\n\
6:and exhibited clearly, with a label attached.\n"
    );
    let (out, _, _) = human(&env, &["-v", "-c", "Sherlock", "sherlock"]);
    assert_eq!(out, "4\n");
    let (e, _) = search(&env, &["-v", "Sherlock"]);
    let d = e.data.unwrap();
    assert_eq!(d.match_count, 4);
    for m in &d.matches {
        assert_eq!(m.span.start_col, 0);
        assert_eq!(m.matched_text, m.line_text);
    }
    assert_eq!(e.query["invert_match"], true);
    let (m, s) = jsonl_matches(&env, &["-v", "Sherlock"]);
    assert_eq!(m.len(), 4);
    assert_eq!(m[0]["span"]["start_line"], 2);
    assert_eq!(s["data"]["files"][0]["match_count"], 4);
    // A CRLF line's span holds its `\r` (the line's text, SPEC), line_text not.
    let env = TestEnv::new();
    env.write("c.txt", "keep\r\ndrop\nlast");
    let (e, _) = search(&env, &["-v", "drop"]);
    let d = e.data.unwrap();
    assert_eq!(texts_of(&d.matches), ["keep\r", "last"]);
    assert_eq!(d.matches[0].line_text, "keep");
}

fn texts_of(m: &[crate::search::Match]) -> Vec<&str> {
    m.iter().map(|m| m.matched_text.as_str()).collect()
}

#[test]
fn only_matching_prints_each_match() {
    // rg feature::f45_only_matching: `-o 'Doctor \w+'`.
    let env = sherlock();
    let (out, _, _) = human(&env, &["-o", r"Doctor \w+", "sherlock"]);
    // rg: "Doctor Watsons\nDoctor Watson\n"
    assert_eq!(out, "1:9:Doctor Watsons\n5:5:Doctor Watson\n");
    let (out, _, _) = human(&env, &["-o", "-b", "-N", r"Doctor \w+", "sherlock"]);
    assert_eq!(out, "8:Doctor Watsons\n262:Doctor Watson\n");
    // JSON matches span the match whatever -o says.
    let (e, _) = search(&env, &["-o", r"Doctor \w+"]);
    assert_eq!(texts(&e), ["Doctor Watsons", "Doctor Watson"]);
    let (m, _) = jsonl_matches(&env, &["-o", r"Doctor \w+"]);
    assert_eq!(m[1]["span"]["byte_start"], 262);
}

#[test]
fn quiet_prints_nothing_in_any_format() {
    let env = sherlock();
    for format in ["human", "json", "jsonl"] {
        for (pat, code) in [("Sherlock", 0), ("nope", 1)] {
            let out = env
                .llm(&["search", "--format", format, "-q", pat])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(code), "{format} {pat}");
            assert!(out.stdout.is_empty(), "{format}");
        }
        // An error still exits 2, explained on stderr.
        let out = env
            .llm(&["search", "--format", format, "-q", "(", "."])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("SEARCH_E001"));
        // A missing path is reported on stderr; a match elsewhere still means exit 0 (rg:
        // `-q` answers whether there is a match), and without one the error exits 2.
        for (pat, code) in [("Sherlock", 0), ("nope", 2)] {
            let out = env
                .llm(&[
                    "search", "--format", format, "-q", pat, "sherlock", "nosuch",
                ])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(code), "{format} {pat}");
            assert!(out.stdout.is_empty());
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("LLM_E004") && err.contains("nosuch"), "{err}");
        }
        let out = env
            .llm(&[
                "search",
                "-q",
                "--no-messages",
                "nope",
                "sherlock",
                "nosuch",
            ])
            .output()
            .unwrap();
        assert_eq!((out.status.code(), out.stderr.len()), (Some(2), 0));
    }
}

#[test]
fn patterns_from_a_file() {
    // rg feature::f7 (-f): each line a pattern; an empty file matches nothing.
    let env = sherlock();
    env.write("pats", "Sherlock\nclew\n");
    env.write("empty", "");
    let (out, _, _) = human(&env, &["-f", "pats", "sherlock"]);
    assert_eq!(
        out,
        "1:57:For the Doctor Watsons of this world, as opposed to the Sherlock\n\
3:49:be, to a very large extent, the result of luck. Sherlock Holmes\n\
4:15:can extract a clew from a wisp of straw or a flake of cigar ash;\n"
    );
    let (_, _, code) = human(&env, &["-f", "empty", "sherlock"]);
    assert_eq!(code, 1);
    let (e, _) = search(&env, &["-f", "pats", "sherlock"]);
    assert_eq!(texts(&e), ["Sherlock", "Sherlock", "clew"]);
    assert_eq!(e.data.unwrap().patterns.unwrap(), ["Sherlock", "clew"]);
    let (m, _) = jsonl_matches(&env, &["-f", "pats", "-e", "Holmes", "sherlock"]);
    assert_eq!(m.len(), 5);
    // From stdin.
    let out = env
        .llm(&["search", "-c", "-f", "-", "sherlock"])
        .write_stdin("Watson\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
}

#[test]
fn files_lists_what_would_be_searched_with_checksums() {
    // rg misc::files: `--files` lists the files, nothing is searched.
    let env = sherlock();
    env.write("dir/a.rs", "fn a() {}\n");
    env.write(".hid", "x\n");
    let (out, _, code) = human(&env, &["--files"]);
    assert_eq!((out.as_str(), code), ("dir/a.rs\nsherlock\n", 0));
    let (out, _, _) = human(&env, &["--files", "dir"]);
    assert_eq!(out, "dir/a.rs\n");
    let (out, _, _) = human(&env, &["--files", "-0"]);
    assert_eq!(out, "dir/a.rs\0sherlock\0");
    let (e, code) = search(&env, &["--files"]);
    assert_eq!((e.status.as_str(), code), ("ok", 0));
    let d = e.data.unwrap();
    assert!(d.matches.is_empty());
    assert_eq!(d.files.len(), 2);
    assert_eq!(d.files[1].checksum, sha256(SHERLOCK.as_bytes()));
    let (lines, _) = jsonl(&env, &["--files"]);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["data"]["files"][0]["file_path"], "dir/a.rs");
    // Nothing to list: status no_matches, exit 1 (rg too, without a message).
    let empty = TestEnv::new();
    let (out, _, code) = human(&empty, &["--files"]);
    assert_eq!((out.as_str(), code), ("", 1));
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn files_without_match() {
    // rg feature::f2_files_without_match.
    let env = sherlock();
    env.write("file.py", "foo\n");
    let (out, _, code) = human(&env, &["--files-without-match", "Sherlock"]);
    assert_eq!((out.as_str(), code), ("file.py\n", 0));
    let (e, _) = search(&env, &["--files-without-match", "Sherlock"]);
    let d = e.data.unwrap();
    assert_eq!(d.files.len(), 1);
    assert_eq!(
        (d.files[0].file_path.as_str(), d.files[0].match_count),
        ("file.py", 0)
    );
    assert_eq!(d.files[0].checksum, sha256(b"foo\n"));
    assert_eq!(d.stats.files_with_matches, 1);
    let (lines, code) = jsonl(&env, &["--files-without-match", "o"]);
    assert_eq!(code, 1);
    assert_eq!(lines[0]["status"], "no_matches");
}

#[test]
fn unrestricted_levels() {
    let env = TestEnv::new();
    env.write(".gitignore", "ign.txt\n");
    env.write("ign.txt", "x\n");
    env.write(".hid.txt", "x\n");
    env.write("bin.dat", b"x\x00\n".as_slice());
    env.write("a.txt", "x\n");
    let (out, _, _) = human(&env, &["-l", "x"]);
    assert_eq!(out, "a.txt\n");
    let (out, _, _) = human(&env, &["-l", "-u", "x"]);
    assert_eq!(out, "a.txt\nign.txt\n");
    let (out, _, _) = human(&env, &["-l", "-uu", "x"]);
    assert_eq!(out, ".gitignore\n.hid.txt\na.txt\nign.txt\n");
    let (out, _, _) = human(&env, &["-l", "-uuu", "x"]);
    assert_eq!(out, ".gitignore\n.hid.txt\na.txt\nbin.dat\nign.txt\n");
    let (e, _) = search(&env, &["-uu", "x"]);
    assert_eq!(e.data.unwrap().files.len(), 4);
    let (m, _) = jsonl_matches(&env, &["-u", "x"]);
    assert_eq!(m.len(), 2);
    // --no-ignore-vcs: .gitignore lifted; .ignore still applies.
    env.write(".ignore", "a.txt\n");
    let (out, _, _) = human(&env, &["-l", "--no-ignore-vcs", "x"]);
    assert_eq!(out, "ign.txt\n");
}

#[test]
fn text_and_binary_search_binary_files() {
    // rg binary::after_match1_implicit_text / _binary.
    let env = TestEnv::new();
    env.write(
        "b.dat",
        b"first match\nfoo\x00bar\nmatch again\n".as_slice(),
    );
    let (_, _, code) = human(&env, &["match"]);
    assert_eq!(code, 1);
    let (out, _, _) = human(&env, &["-a", "match"]);
    assert_eq!(out, "b.dat:1:7:first match\nb.dat:3:1:match again\n");
    let (out, err, _) = human(&env, &["--binary", "-c", "match"]);
    assert_eq!(out, "b.dat:2\n");
    assert!(err.is_empty(), "{err}");
    let (e, _) = search(&env, &["--binary", "match"]);
    assert_eq!(e.data.unwrap().match_count, 2);
    assert_eq!(e.diagnostics[0].code.as_deref(), Some("SEARCH_E002"));
    let (e, _) = search(&env, &["-a", "match"]);
    assert!(e.diagnostics.is_empty());
    let (m, _) = jsonl_matches(&env, &["--text", "match"]);
    assert_eq!(m.len(), 2);
}

#[test]
fn case_insensitive_globs() {
    let env = TestEnv::new();
    env.write("A.RS", "x\n");
    env.write("b.rs", "x\n");
    env.write("c.py", "x\n");
    let (out, _, _) = human(&env, &["--iglob", "*.rs", "-l", "x"]);
    assert_eq!(out, "A.RS\nb.rs\n");
    let (out, _, _) = human(&env, &["-g", "*.RS", "-l", "x"]);
    assert_eq!(out, "A.RS\n");
    let (out, _, _) = human(&env, &["--glob-case-insensitive", "-g", "*.RS", "-l", "x"]);
    assert_eq!(out, "A.RS\nb.rs\n");
    let (e, _) = search(&env, &["--iglob", "*.RS", "x"]);
    assert_eq!(file_paths(&e), ["A.RS", "b.rs"]);
    assert_eq!(e.query["iglobs"][0], "*.RS");
    let (m, _) = jsonl_matches(&env, &["--iglob", "C.*", "x"]);
    assert_eq!(m.len(), 1);
}

#[test]
fn type_add_and_type_clear() {
    // rg misc::type_add / feature type-clear.
    let env = TestEnv::new();
    env.write("a.foo", "x\n");
    env.write("b.rs", "x\n");
    let (out, _, _) = human(&env, &["--type-add", "foo:*.foo", "-t", "foo", "-l", "x"]);
    assert_eq!(out, "a.foo\n");
    let (out, _, _) = human(
        &env,
        &[
            "--type-clear",
            "rust",
            "--type-add",
            "rust:*.foo",
            "-trust",
            "-l",
            "x",
        ],
    );
    assert_eq!(out, "a.foo\n");
    let (e, _) = search(&env, &["--type-add", "foo:*.foo", "-T", "foo", "x"]);
    assert_eq!(file_paths(&e), ["b.rs"]);
    let (m, _) = jsonl_matches(&env, &["--type-add", "foo:*.foo", "-tfoo", "x"]);
    assert_eq!(m.len(), 1);
    let (_, err, code) = human(&env, &["--type-add", "nocolon", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("LLM_E007"), "{err}");
}

#[test]
fn ignore_file_and_depth() {
    let env = TestEnv::new();
    env.write("ig", "a.txt\n");
    env.write("a.txt", "x\n");
    env.write("d1/b.txt", "x\n");
    env.write("d1/d2/c.txt", "x\n");
    let (out, _, _) = human(&env, &["--ignore-file", "ig", "-l", "x"]);
    assert_eq!(out, "d1/b.txt\nd1/d2/c.txt\nig\n");
    let (out, _, _) = human(&env, &["-d", "1", "-l", "x"]);
    assert_eq!(out, "a.txt\nig\n");
    let (out, _, _) = human(&env, &["--maxdepth", "2", "-l", "x"]);
    assert_eq!(out, "a.txt\nd1/b.txt\nig\n");
    let (e, _) = search(&env, &["--max-depth", "2", "--ignore-file", "ig", "x"]);
    assert_eq!(file_paths(&e), ["d1/b.txt", "ig"]);
    let (m, _) = jsonl_matches(&env, &["-d", "1", "x"]);
    assert_eq!(m.len(), 2);
    let (out, _, _) = human(
        &env,
        &[
            "--one-file-system",
            "--ignore-file-case-insensitive",
            "-l",
            "x",
        ],
    );
    assert_eq!(out, "a.txt\nd1/b.txt\nd1/d2/c.txt\nig\n");
}

#[test]
fn human_only_flags_leave_json_as_it_is() {
    // -H -I -N -0 -b --trim -p --no-messages --crlf: presentation in human output only.
    let env = TestEnv::new();
    env.write("a.txt", "  lead x\n");
    env.write("b.txt", "x\n");
    let (out, _, _) = human(&env, &["-H", "x", "a.txt"]);
    assert_eq!(out, "a.txt:1:8:  lead x\n");
    let (out, _, _) = human(&env, &["-I", "x"]);
    assert_eq!(out, "1:8:  lead x\n1:1:x\n");
    let (out, _, _) = human(&env, &["-N", "x"]);
    assert_eq!(out, "a.txt:  lead x\nb.txt:x\n");
    let (out, _, _) = human(&env, &["-0", "x"]);
    assert_eq!(out, "a.txt\x001:8:  lead x\nb.txt\x001:1:x\n");
    // With headings, the NUL replaces the newline after the path (rg).
    let (out, _, _) = human(&env, &["--heading", "-0", "x"]);
    assert_eq!(out, "a.txt\x001:8:  lead x\n\nb.txt\x001:1:x\n");
    let (out, _, _) = human(&env, &["-b", "--trim", "x"]);
    assert_eq!(out, "a.txt:1:8:0:lead x\nb.txt:1:1:0:x\n");
    // -p: headings and colour, as ripgrep's --pretty.
    let (out, _, _) = human(&env, &["-p", "x"]);
    assert!(out.contains("\x1b["), "{out:?}");
    let plain_text = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(&out, "");
    assert_eq!(plain_text, "a.txt\n1:8:  lead x\n\nb.txt\n1:1:x\n");
    let plain = search(&env, &["x"]).0.data.unwrap();
    for flags in [
        &["-H"][..],
        &["-I"],
        &["-N"],
        &["-0"],
        &["-b"],
        &["--trim"],
        &["--no-messages"],
        &["--crlf"],
        &["-n"],
    ] {
        let (e, code) = search(&env, &[flags, &["x"]].concat());
        assert_eq!(code, 0);
        let d = e.data.unwrap();
        assert_eq!(d.match_count, plain.match_count, "{flags:?}");
        assert_eq!(d.matches[0].line_text, "  lead x", "{flags:?}");
        let (m, _) = jsonl_matches(&env, &[flags, &["x"]].concat());
        assert_eq!(m.len(), 2, "{flags:?}");
    }
}

#[test]
fn include_zero_counts() {
    // rg feature::f1_include_zero.
    let env = sherlock();
    env.write("other", "nothing\n");
    let (out, _, _) = human(&env, &["-c", "--include-zero", "Sherlock"]);
    assert_eq!(out, "other:0\nsherlock:2\n");
    let (e, _) = search(&env, &["-c", "--include-zero", "Sherlock"]);
    let d = e.data.unwrap();
    assert_eq!(d.files.len(), 2);
    assert_eq!(d.files[0].match_count, 0);
    let (lines, _) = jsonl(&env, &["--count-matches", "--include-zero", "Sherlock"]);
    assert_eq!(lines[0]["data"]["files"][0]["file_path"], "other");
}

#[test]
fn sort_and_sortr() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    env.write("b.txt", "x\n");
    env.write("c.txt", "x\n");
    let at = |name: &str, secs: u64| {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        let f = std::fs::File::options()
            .write(true)
            .open(env.path().join(name))
            .unwrap();
        f.set_modified(t).unwrap();
    };
    at("a.txt", 3_000_000);
    at("b.txt", 1_000_000);
    at("c.txt", 2_000_000);
    let (out, _, _) = human(&env, &["--sort", "modified", "-l", "x"]);
    assert_eq!(out, "b.txt\nc.txt\na.txt\n");
    let (out, _, _) = human(&env, &["--sortr", "modified", "-l", "x"]);
    assert_eq!(out, "a.txt\nc.txt\nb.txt\n");
    let (out, _, _) = human(&env, &["--sortr", "path", "-l", "x"]);
    assert_eq!(out, "c.txt\nb.txt\na.txt\n");
    let (out, _, _) = human(
        &env,
        &[
            "--sort", "path", "--sortr", "path", "--sort", "path", "-l", "x",
        ],
    );
    assert_eq!(out, "a.txt\nb.txt\nc.txt\n");
    let (e, _) = search(&env, &["--sort", "modified", "x"]);
    assert_eq!(file_paths(&e), ["b.txt", "c.txt", "a.txt"]);
    assert_eq!(e.query["sort"], "modified");
    let (m, _) = jsonl_matches(&env, &["--sortr", "modified", "x"]);
    assert_eq!(m[0]["span"]["file_path"], "a.txt");
}

#[test]
fn stats_in_human_output() {
    let env = sherlock();
    let (out, _, _) = human(&env, &["--stats", "Sherlock", "sherlock"]);
    let (results, stats) = out.split_once("\n\n").unwrap();
    assert_eq!(results.lines().count(), 2);
    assert!(stats
        .starts_with("2 matches\n2 matched lines\n1 files contained matches\n1 files searched\n"));
    // JSON already carries data.stats: unchanged.
    let (e, _) = search(&env, &["--stats", "Sherlock"]);
    assert_eq!(e.data.unwrap().stats.files_searched, 1);
    let (m, _) = jsonl_matches(&env, &["--stats", "Sherlock"]);
    assert_eq!(m.len(), 2);
}

#[test]
fn no_messages_silences_stderr() {
    let env = sherlock();
    let (_, err, code) = human(&env, &["Sherlock", "sherlock", "missing"]);
    assert_eq!(code, 2);
    assert!(err.contains("LLM_E004"));
    let (_, err, code) = human(&env, &["--no-messages", "Sherlock", "sherlock", "missing"]);
    assert_eq!((err.as_str(), code), ("", 2));
    let (e, _) = search(&env, &["--no-messages", "Sherlock", "sherlock", "missing"]);
    assert_eq!(e.diagnostics[0].code.as_deref(), Some("LLM_E004"));
}

#[test]
fn no_unicode_and_stop_on_nonmatch() {
    let env = TestEnv::new();
    env.write("u.txt", "é1\nb\nc1\nd\ne1\n");
    let (out, _, _) = human(&env, &[r"^\w1", "u.txt"]);
    assert_eq!(out, "1:1:é1\n3:1:c1\n5:1:e1\n");
    let (out, _, _) = human(&env, &["--no-unicode", r"^\w1", "u.txt"]);
    assert_eq!(out, "3:1:c1\n5:1:e1\n");
    let (out, _, _) = human(&env, &["--stop-on-nonmatch", "1", "u.txt"]);
    assert_eq!(out, "1:3:é1\n");
    let (e, _) = search(&env, &["--stop-on-nonmatch", "1"]);
    assert_eq!(e.data.unwrap().match_count, 1);
    let (m, _) = jsonl_matches(&env, &["--no-unicode", r"^\w1"]);
    assert_eq!(m.len(), 2);
}

// ---- special files and big results (issue 11) ----

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_skipped_not_opened() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    let fifo = env.path().join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    // Found by walking: skipped and counted.
    let (e, code) = search(&env, &["x"]);
    assert_eq!(code, 0);
    assert_eq!(e.data.unwrap().stats.skipped.special, 1);
    // Named: skipped with a coded warning, never opened (opening would block).
    let out = env
        .llm(&["search", "--json", "x", "pipe", "/dev/zero", "a.txt"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["stats"]["skipped"]["special"], 2);
    let codes: Vec<_> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes, ["LLM_E010", "LLM_E010"]);
    // Only the FIFO: a warning, nothing searched, nothing found.
    let (_, err, code) = human(&env, &["x", "pipe"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("LLM_E010"), "{err}");
}

#[cfg(unix)]
#[test]
fn non_utf8_file_names_found_by_walking() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.txt");
    std::fs::write(env.path().join(name), "needle\n").unwrap();
    let (out, _, code) = human(&env, &["-l", "needle"]);
    assert_eq!((out.as_str(), code), ("bad\u{fffd}.txt\n", 0));
    let out = env.llm(&["search", "--json", "needle"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["match_count"], 1);
}

#[test]
fn a_file_with_many_matches_streams_in_chunks() {
    // More matches than a worker keeps (16,384): the file is searched again by the printing
    // thread and its matches go out in chunks. Every format must still say exactly what it
    // says for a small file: one heading, every match once, one files[] entry.
    let env = TestEnv::new();
    let n = 20_000;
    let body = "needle x\n".repeat(n);
    env.write("a.txt", &body);
    env.write("b.txt", "needle\n");
    let (out, _, code) = human(&env, &["--heading", "needle"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| *l == "a.txt").count(), 1);
    assert_eq!(out.lines().count(), n + 4);
    assert!(out.ends_with(&format!("{n}:1:needle x\n\nb.txt\n1:1:needle\n")));
    let (v, _) = env.json(&["search", "--json", "needle"]);
    let d = &v["data"];
    let matches = d["matches"].as_array().unwrap();
    assert_eq!(
        (d["match_count"].as_u64(), matches.len()),
        (Some(n as u64 + 1), n + 1)
    );
    assert_eq!(d["files"].as_array().unwrap().len(), 2);
    assert_eq!(d["files"][0]["match_count"], n);
    assert_eq!(d["files"][0]["checksum"], sha256(body.as_bytes()));
    for (i, m) in matches[..n].iter().enumerate() {
        assert_eq!(m["span"]["start_line"], i + 1);
        assert_eq!(m["span"]["byte_start"], i * 9);
    }
    check_span(env.path(), &matches[n - 1]["span"]);
    let out = env
        .llm(&["search", "--format", "jsonl", "needle"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), n + 2);
    // --max-results stops at the limit.
    let (v, _) = env.json(&["search", "--json", "--max-results", "10", "needle"]);
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["match_count"], 10);
    assert!(v["data"].get("total_count").is_none());
}

/// A path argument that is not UTF-8 reaches the search (main.rs reads `args_os`) and is
/// searched like any other.
#[cfg(unix)]
#[test]
fn a_non_utf8_path_argument_is_searched_without_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    let name = OsStr::from_bytes(b"bad\xff.txt");
    std::fs::write(env.path().join(name), "needle\n").unwrap();
    let out = env
        .llm(&["search", "--json", "needle"])
        .arg(name)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["data"]["match_count"], 1);
}

#[test]
fn flags_that_combine_as_in_ripgrep() {
    // Found by running rg 13 and llm on the same fixtures.
    let env = TestEnv::new();
    env.write("z.txt", "foo foo foo\nbar\n");
    env.write("x.txt", "a1\nfoo\nb\n");
    // -c -o counts matches, not lines (rg: 3), in every format.
    let (out, _, _) = human(&env, &["-c", "-o", "foo", "z.txt"]);
    assert_eq!(out, "3\n");
    let (e, _) = search(&env, &["-c", "-o", "foo", "z.txt"]);
    assert_eq!(e.data.unwrap().files[0].match_count, 3);
    let (lines, _) = jsonl(&env, &["-c", "-o", "foo", "z.txt"]);
    assert_eq!(lines.last().unwrap()["data"]["files"][0]["match_count"], 3);
    // -v -r: the lines printed hold no match, so nothing is replaced (rg prints them as
    // they are); no `replacement` in JSON either.
    let (out, _, _) = human(&env, &["-v", "-r", "X", "foo", "x.txt"]);
    assert_eq!(out, "1:a1\n3:b\n");
    let (e, _) = search(&env, &["-v", "-r", "X", "foo", "x.txt"]);
    let d = e.data.unwrap();
    assert_eq!(d.match_count, 2);
    assert!(d.matches.iter().all(|m| m.replacement.is_none()));
    // -M 0: no limit (rg).
    let long = format!("{} foo\n", "y".repeat(300));
    env.write("long.txt", &long);
    let (out, _, _) = human(&env, &["-M", "0", "foo", "long.txt"]);
    assert_eq!(out, format!("1:302:{long}"));
    let (out, _, _) = human(&env, &["-M", "10", "foo", "long.txt"]);
    assert_eq!(out, "1:302:[Omitted long line with 1 matches]\n");
    // Of -l and --files-without-match the last wins, of -c and --count-matches too; counting
    // wins over listing in any order, and --files over them all (rg 13).
    let (out, _, _) = human(&env, &["-l", "-c", "foo", "z.txt"]);
    assert_eq!(out, "1\n");
    let (out, _, _) = human(&env, &["-c", "-l", "foo", "z.txt"]);
    assert_eq!(out, "1\n");
    let (out, _, _) = human(&env, &["-c", "--count-matches", "foo", "z.txt"]);
    assert_eq!(out, "3\n");
    let (out, _, _) = human(
        &env,
        &["-l", "--files-without-match", "foo", "x.txt", "z.txt"],
    );
    assert_eq!(out, "");
    let (out, _, _) = human(
        &env,
        &["--files-without-match", "-l", "foo", "x.txt", "z.txt"],
    );
    assert_eq!(out, "x.txt\nz.txt\n");
    let (out, _, _) = human(&env, &["--files", "-l", "z.txt"]);
    assert_eq!(out, "z.txt\n");
    // --vimgrep: a line per match, always with the path (rg 13's output); --no-config is
    // accepted.
    env.write("v.txt", "foo x foo\r\nbar\n");
    let (out, _, _) = human(&env, &["--vimgrep", "--no-config", "foo", "v.txt"]);
    assert_eq!(out, "v.txt:1:1:foo x foo\nv.txt:1:7:foo x foo\n");
    let (out, _, _) = human(&env, &["--vimgrep", "-o", "-r", "Z", "foo", "v.txt"]);
    assert_eq!(out, "v.txt:1:1:Z\nv.txt:1:7:Z\n");
    let (e, _) = search(&env, &["--vimgrep", "foo", "v.txt"]);
    assert_eq!(e.data.unwrap().match_count, 2);
    // -o prints an empty match, or an empty replacement, as an empty text (rg).
    let (out, _, _) = human(&env, &["-o", "-r", "", "foo", "z.txt"]);
    assert_eq!(out, "1:1:\n1:5:\n1:9:\n");
    let (out, _, _) = human(&env, &["-o", "x*", "x.txt"]);
    assert_eq!(out.lines().filter(|l| l.starts_with("1:")).count(), 3);
    // --multiline-dotall without -U changes nothing (rg accepts it).
    let (out, err, code) = human(&env, &["--multiline-dotall", "a.", "x.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:a1\n", 0), "{err}");
}

#[test]
fn a_dash_path_is_standard_input_and_no_path_never_reads_it() {
    let env = TestEnv::new();
    env.write("f.txt", "a in a file\n");
    let piped = |args: &[&str], input: &str| {
        let out = env
            .llm(&[&["search"], args].concat())
            .write_stdin(input)
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            out.status.code().unwrap(),
        )
    };
    // rg: `printf 'a\nb\nab\n' | rg -n a -` prints 1:a and 3:ab; with a file too, stdin's
    // lines are under `<stdin>`.
    assert_eq!(
        piped(&["a", "-"], "a\nb\nab\r\n"),
        ("1:1:a\n3:1:ab\n".into(), 0)
    );
    assert_eq!(
        piped(&["a", "-", "f.txt"], "xa\n"),
        ("<stdin>:1:2:xa\nf.txt:1:1:a in a file\n".into(), 0)
    );
    assert_eq!(piped(&["-c", "zzz", "-"], "a\n"), (String::new(), 1));
    let (out, _) = piped(&["--format", "json", "b", "-"], "a\nb\n");
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["query"]["paths"][0], "-");
    let span = &e["data"]["matches"][0]["span"];
    assert_eq!(
        (&span["file_path"], &span["byte_start"]),
        (&"<stdin>".into(), &2.into())
    );
    assert_eq!(e["data"]["files"][0]["checksum"], sha(b"a\nb\n"));
    // No path: the directory, even with a pipe on stdin that never closes (rg would wait).
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
        .current_dir(env.path())
        .args(["search", "a"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let held = child.stdin.take();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("llm search with no path waited on stdin");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    drop(held);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "f.txt:1:1:a in a file\n"
    );
}

#[test]
fn the_later_of_word_and_line_regexp_wins() {
    let env = TestEnv::new();
    env.write("w.txt", "x-y\nxy\n");
    // rg -n -x -w x w.txt: `1:x-y` (-w wins); rg -w -x x w.txt: nothing, exit 1 (-x wins).
    let (out, _, code) = human(&env, &["-x", "-w", "x", "w.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:x-y\n", 0));
    let (out, _, code) = human(&env, &["-w", "-x", "x", "w.txt"]);
    assert_eq!((out.as_str(), code), ("", 1));
    let (out, _, code) = human(&env, &["--line-regexp", "--word-regexp", "x", "w.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:x-y\n", 0));
}

#[test]
fn a_huge_thread_count_is_capped() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    env.write("d/b.txt", "foo\n");
    // rg -j 100000 foo a.txt: `foo` (llm adds line and column); on a directory rg aborts.
    let (out, err, code) = human(&env, &["-j", "20000", "foo", "a.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:foo\n", 0), "{err}");
    let (out, err, code) = human(&env, &["-j", "20000", "foo"]);
    assert_eq!(
        (out.as_str(), code),
        ("a.txt:1:1:foo\nd/b.txt:1:1:foo\n", 0),
        "{err}"
    );
}

#[test]
fn a_line_break_in_the_pattern_asks_for_multiline_mode() {
    let env = TestEnv::new();
    env.write("ctx.txt", "foo\nline\n");
    // rg -F "$(printf 'foo\nline')": "the literal '"\n"' is not allowed in a regex … Consider
    // enabling multiline mode with the --multiline flag (or -U for short)", exit 2.
    for args in [&["-F", "foo\nline"][..], &["foo\nline"], &["foo\\nline"]] {
        let (out, err, code) = human(&env, &[args, &["ctx.txt"]].concat());
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
        assert!(err.contains("SEARCH_E001"), "{err}");
        assert!(err.contains("line break"), "{err}");
        assert!(err.contains("-U/--multiline"), "{err}");
        assert!(!err.contains("pass -F"), "{err}");
    }
    // With -U it is found (rg -U -F: `foo`, `line`).
    let (out, _, code) = human(&env, &["-U", "-F", "foo\nline", "ctx.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:foo\n2:1:line\n", 0));
}

/// Output differences an rg comparison found (rg's outputs written out): `--heading -I` keeps a
/// blank line between files' groups; `-v -M` names a long line "matching line" (a `-v` line
/// has no match); `-M` with `-r` measures the line as printed, replacements in.
#[test]
fn heading_without_paths_long_inverted_and_replaced_lines_as_rg() {
    let env = TestEnv::new();
    env.write("x1.txt", "x a foo\n");
    env.write("x2.txt", "foo\n");
    env.write("m.txt", "abc\n");
    env.write("v.txt", "long line here\n");
    let (out, _, _) = human(&env, &["-I", "--heading", "foo", "x1.txt", "x2.txt"]);
    assert_eq!(out, "1:5:x a foo\n\n1:1:foo\n");
    let (out, _, _) = human(&env, &["-v", "-M", "3", "zzz", "v.txt"]);
    assert_eq!(out, "1:[Omitted long matching line]\n");
    let (out, _, _) = human(&env, &["-M", "6", "-r", "XXXXXXXX", "b", "m.txt"]);
    assert_eq!(out, "1:2:[Omitted long line with 1 matches]\n");
    // Short enough once replaced: printed.
    let (out, _, _) = human(&env, &["-M", "6", "-r", "", "b", "m.txt"]);
    assert_eq!(out, "1:2:ac\n");
}
