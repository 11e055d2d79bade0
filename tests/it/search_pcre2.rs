//! `llm search -P`: PCRE2 patterns (look-around, backreferences) with the flags that shape a
//! match, in human output and in JSON (checked against the spec's structs and the file's bytes).

use crate::search::{human, search};
use crate::util::TestEnv;

/// A CRLF line, a line without a final newline, and multibyte text.
fn env() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        "a.txt",
        "foo bar\nfoobar\nthe the cat\r\nFOO baz\r\nnaïve naïve é\nlast foo",
    );
    env
}

/// JSON matches as (line, matched text), and the exit code.
fn json(env: &TestEnv, args: &[&str]) -> (Vec<(usize, String)>, i32) {
    let (e, code) = search(env, &[args, &["a.txt"]].concat());
    let data = e.data.unwrap_or_else(|| panic!("{args:?}: {:?}", e.error));
    assert_eq!(e.query["pcre2"], true, "{args:?}");
    let got = data
        .matches
        .iter()
        .map(|m| (m.span.start_line, m.matched_text.clone()))
        .collect();
    (got, code)
}

fn lines(env: &TestEnv, args: &[&str]) -> String {
    let (out, err, code) = human(env, &[args, &["a.txt"]].concat());
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn pairs(p: &[(usize, &str)]) -> Vec<(usize, String)> {
    p.iter().map(|&(l, t)| (l, t.to_string())).collect()
}

#[test]
fn look_around_and_backreferences() {
    let env = env();
    assert_eq!(lines(&env, &["-P", "foo(?=bar)"]), "2:1:foobar\n");
    assert_eq!(json(&env, &["-P", "foo(?=bar)"]).0, pairs(&[(2, "foo")]));
    assert_eq!(lines(&env, &["-P", "(?<=last )foo"]), "6:6:last foo\n");
    assert_eq!(
        lines(&env, &["-P", "(\\w+) \\1"]),
        "3:1:the the cat\n5:1:naïve naïve é\n"
    );
    assert_eq!(
        json(&env, &["-P", "(\\w+) \\1"]).0,
        pairs(&[(3, "the the"), (5, "naïve naïve")])
    );
    // Without -P the same pattern is an error (Rust's regex has no backreferences).
    let (e, code) = search(&env, &["(\\w+) \\1", "a.txt"]);
    assert_eq!(code, 2);
    assert_eq!(e.error.unwrap().code.as_deref(), Some("SEARCH_E001"));
}

#[test]
fn flags_shape_pcre2_matches() {
    let env = env();
    // -i
    assert_eq!(
        lines(&env, &["-P", "-i", "foo(?= b)"]),
        "1:1:foo bar\n4:1:FOO baz\n"
    );
    assert_eq!(
        json(&env, &["-P", "-i", "foo(?= b)"]).0,
        pairs(&[(1, "foo"), (4, "FOO")])
    );
    // -w
    assert_eq!(
        lines(&env, &["-P", "-w", "foo"]),
        "1:1:foo bar\n6:6:last foo\n"
    );
    assert_eq!(
        json(&env, &["-P", "-w", "foo"]).0,
        pairs(&[(1, "foo"), (6, "foo")])
    );
    // -x (a CRLF line's `\r` is not part of the match, as without -P)
    assert_eq!(lines(&env, &["-P", "-x", "FOO \\w+"]), "4:1:FOO baz\n");
    assert_eq!(
        json(&env, &["-P", "-x", "FOO \\w+"]).0,
        pairs(&[(4, "FOO baz")])
    );
    // -v
    assert_eq!(
        lines(&env, &["-P", "-v", "o"]),
        "3:the the cat\n4:FOO baz\n5:naïve naïve é\n"
    );
    assert_eq!(
        json(&env, &["-P", "-v", "o"]).0,
        pairs(&[(3, "the the cat\r"), (4, "FOO baz\r"), (5, "naïve naïve é")])
    );
    // -o
    assert_eq!(
        lines(&env, &["-P", "-o", "(?<=na)ï\\w+"]),
        "5:3:ïve\n5:10:ïve\n"
    );
    assert_eq!(
        json(&env, &["-P", "-o", "(?<=na)ï\\w+"]).0,
        pairs(&[(5, "ïve"), (5, "ïve")])
    );
    // -c
    assert_eq!(lines(&env, &["-P", "-c", "o(?=o)"]), "3\n");
    let (e, _) = search(&env, &["-P", "-c", "o(?=o)", "a.txt"]);
    let f = &e.data.unwrap().files[0];
    assert_eq!((f.line_count, f.match_count), (3, 3));
    // -U: a match across lines
    assert_eq!(
        lines(&env, &["-P", "-U", "bar\\nthe(?= )"]),
        "2:4:foobar\n3:1:the the cat\n"
    );
    assert_eq!(
        json(&env, &["-P", "-U", "bar\\nthe(?= )"]).0,
        pairs(&[(2, "bar\nthe")])
    );
}

#[test]
fn pcre2_replacement_uses_numbered_and_named_groups() {
    let env = env();
    assert_eq!(
        lines(&env, &["-P", "-r", "<$w>", "(?<w>\\w+) \\k<w>"]),
        "3:1:<the> cat\n5:1:<naïve> é\n"
    );
    let (e, _) = search(&env, &["-P", "-r", "$2-$1", "(\\w)(\\w)(?=bar)", "a.txt"]);
    let reps: Vec<_> = e
        .data
        .unwrap()
        .matches
        .iter()
        .map(|m| (m.matched_text.clone(), m.replacement.clone().unwrap()))
        .collect();
    assert_eq!(reps, [("oo".to_string(), "o-o".to_string())]);
}

#[test]
fn a_bad_pcre2_pattern_is_search_e001_with_pcre2s_message() {
    let env = env();
    let (e, code) = search(&env, &["-P", "a(?<", "a.txt"]);
    assert_eq!(code, 2);
    let err = e.error.unwrap();
    assert_eq!(err.code.as_deref(), Some("SEARCH_E001"));
    assert!(err.message.contains("PCRE2"), "{}", err.message);
    assert!(
        err.message.contains("subpattern name expected"),
        "{}",
        err.message
    );
    let (out, stderr, code) = human(&env, &["-P", "a(?<", "a.txt"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(stderr.contains("SEARCH_E001"), "{stderr}");
}

#[test]
fn pcre2_searches_a_file_that_is_not_utf8() {
    let env = TestEnv::new();
    env.write("a.txt", b"caf\xe9 foo bar\nfoo\xff bar\n".as_slice());
    let (out, _, code) = human(&env, &["-P", "-o", "foo(?= bar)", "a.txt"]);
    assert_eq!(code, 0);
    assert_eq!(out, "1:6:foo\n");
    let (e, _) = search(&env, &["-P", "\\bfoo", "a.txt"]);
    let data = e.data.unwrap();
    assert_eq!(data.match_count, 2);
    assert!(data.files[0].lossy);
}

#[test]
fn pcre2_takes_several_patterns_and_literals() {
    let env = env();
    assert_eq!(
        lines(&env, &["-P", "-o", "-e", "foo(?=bar)", "-e", "the(?= cat)"]),
        "2:1:foo\n3:5:the\n"
    );
    env.write("b.txt", "x a(?< y\n");
    let (out, _, code) = human(&env, &["-P", "-F", "a(?<", "b.txt"]);
    assert_eq!((out.as_str(), code), ("1:3:x a(?< y\n", 0));
}

#[test]
fn engine_chooses_the_regex_engine_as_in_ripgrep() {
    let env = env();
    // rg -n --column --engine pcre2|auto: look-around and backreferences (before: unknown flag).
    assert_eq!(
        lines(&env, &["--engine", "pcre2", "foo(?=bar)"]),
        "2:1:foobar\n"
    );
    assert_eq!(
        lines(&env, &["--engine", "auto", "foo(?=bar)"]),
        "2:1:foobar\n"
    );
    assert_eq!(
        lines(&env, &["--auto-hybrid-regex", "(\\w+) \\1"]),
        "3:1:the the cat\n5:1:naïve naïve é\n"
    );
    // auto: Rust's regex wherever it compiles the pattern (the query says which was asked).
    assert_eq!(lines(&env, &["--engine", "auto", "fo+b"]), "2:1:foobar\n");
    let (e, _) = search(&env, &["--engine", "auto", "foo", "a.txt"]);
    assert_eq!(e.query["engine_auto"], true);
    // default, or the last of --engine and -P: Rust's regex refuses look-around, and says
    // how to get it.
    for args in [
        &["--engine", "default", "foo(?=bar)", "a.txt"][..],
        &["-P", "--engine", "default", "foo(?=bar)", "a.txt"],
    ] {
        let (e, code) = search(&env, args);
        assert_eq!(code, 2, "{args:?}");
        let err = e.error.unwrap();
        assert_eq!(err.code.as_deref(), Some("SEARCH_E001"));
        assert!(err.remediation.unwrap().contains("--engine auto"));
    }
    assert_eq!(
        lines(&env, &["--engine", "default", "-P", "foo(?=bar)"]),
        "2:1:foobar\n"
    );
}

#[test]
fn regex_size_limits_as_in_ripgrep() {
    let env = env();
    // rg --regex-size-limit 1 'a+b': "compiled regex exceeds size limit", exit 2.
    let (e, code) = search(&env, &["--regex-size-limit", "1", "fo+b", "a.txt"]);
    assert_eq!(code, 2);
    let err = e.error.unwrap();
    assert_eq!(err.code.as_deref(), Some("SEARCH_E001"));
    assert!(err.message.contains("size limit"), "{}", err.message);
    assert!(err.remediation.unwrap().contains("--regex-size-limit"));
    // Room enough: the search runs (sizes take K, M, G as in rg; `1k` is refused).
    assert_eq!(
        lines(
            &env,
            &["--regex-size-limit", "1M", "--dfa-size-limit", "1K", "fo+b"]
        ),
        "2:1:foobar\n"
    );
    let (_, _, code) = human(&env, &["--regex-size-limit", "1k", "foo", "a.txt"]);
    assert_eq!(code, 2);
}

/// `--pcre2-version`: rg's two lines, then exit 0 with no pattern; JSON gives the same facts.
#[test]
fn pcre2_version_says_the_version_and_the_jit() {
    let env = TestEnv::new();
    let (out, err, code) = human(&env, &["--pcre2-version"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let version = lines[0]
        .strip_prefix("PCRE2 ")
        .and_then(|v| v.strip_suffix(" is available"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        version.split('.').all(|n| n.parse::<u32>().is_ok()),
        "{out}"
    );
    assert!(
        matches!(lines[1], "JIT is available" | "JIT is unavailable"),
        "{out}"
    );
    let out = env
        .llm(&["search", "--pcre2-version", "--format", "json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(v["data"]["pcre2"]["version"], version, "{v}");
    assert_eq!(
        v["data"]["pcre2"]["jit"],
        lines[1] == "JIT is available",
        "{v}"
    );
}
