//! `llm search`'s flags that change what text a file gives the search: `-E/--encoding`,
//! `--pre`/`--pre-glob`/`--no-pre` and `-z/--search-zip`. Fixtures are built here; ripgrep
//! 13's output is written out as literals (rg is not needed), with llm's columns added where
//! llm always shows them (a difference on purpose). Every flag runs in human, json and jsonl.

use crate::util::{check_span, sha, span_id, TestEnv};
use serde_json::Value;

/// The text of the encoding fixtures.
const TEXT: &str = "héllo wörld\nsecond line foo\nthird foo é\n";

fn utf16(le: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend_from_slice(if le { &[0xff, 0xfe] } else { &[0xfe, 0xff] });
    }
    for u in TEXT.encode_utf16() {
        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
    }
    out
}

fn latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(c as u32).unwrap())
        .collect()
}

/// `日本語 foo\nテスト foo bar\n` in Shift_JIS.
const SJIS: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea foo\n\x83\x65\x83\x58\x83\x67 foo bar\n";

/// `llm search ARGS` in human format: stdout (bytes that are not UTF-8 as U+FFFD), stderr,
/// exit code.
fn human(env: &TestEnv, args: &[&str]) -> (String, String, i32) {
    let out = env.llm(&[&["search"], args].concat()).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// `llm search --format json ARGS`: the envelope and the exit code.
fn json(env: &TestEnv, args: &[&str]) -> (Value, i32) {
    env.json(&[&["search", "--format", "json"], args].concat())
}

/// `llm search --format jsonl ARGS`: the match lines, the summary line, the exit code.
fn jsonl(env: &TestEnv, args: &[&str]) -> (Vec<Value>, Value, i32) {
    let out = env
        .llm(&[&["search", "--format", "jsonl"], args].concat())
        .output()
        .unwrap();
    let mut lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary");
    assert!(lines.iter().all(|l| l["type"] == "match"));
    (lines, summary, out.status.code().unwrap())
}

/// The `(byte_start, byte_end, start_line, start_col, matched_text, line_text)` of each match.
fn spans(matches: &[Value]) -> Vec<(u64, u64, u64, u64, String, String)> {
    matches
        .iter()
        .map(|m| {
            let s = &m["span"];
            (
                s["byte_start"].as_u64().unwrap(),
                s["byte_end"].as_u64().unwrap(),
                s["start_line"].as_u64().unwrap(),
                s["start_col"].as_u64().unwrap(),
                m["matched_text"].as_str().unwrap().to_string(),
                m["line_text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn t(s: u64, e: u64, l: u64, c: u64, m: &str, line: &str) -> (u64, u64, u64, u64, String, String) {
    (s, e, l, c, m.to_string(), line.to_string())
}

/// `llm search --json ARGS` piped to `llm transform --json`: transform's exit code.
fn search_into_transform(env: &TestEnv, args: &[&str]) -> i32 {
    let out = env
        .llm(&[&["search", "--json"], args].concat())
        .output()
        .unwrap();
    let done = env
        .llm(&["transform", "--json"])
        .write_stdin(out.stdout)
        .output()
        .unwrap();
    done.status.code().unwrap()
}

/// The same matches in json (compact and pretty) and jsonl, each span's id the SPEC's for its path and range.
fn both(env: &TestEnv, args: &[&str]) -> (Value, Vec<Value>) {
    let (e, code) = json(env, args);
    assert_eq!(code, 0, "{e}");
    let ms = e["data"]["matches"].as_array().unwrap().clone();
    let (lines, summary, code) = jsonl(env, args);
    assert_eq!(code, 0);
    assert_eq!(spans(&lines), spans(&ms));
    assert_eq!(summary["data"]["files"], e["data"]["files"]);
    // Pretty JSON (whose matches are built apart from the streamed ones) says the same.
    let (pretty, _) = json(env, &[&["--pretty"], args].concat());
    assert_eq!(
        spans(pretty["data"]["matches"].as_array().unwrap()),
        spans(&ms)
    );
    for m in &ms {
        let s = &m["span"];
        let id = span_id(
            s["file_path"].as_str().unwrap(),
            s["byte_start"].as_u64().unwrap() as usize,
            s["byte_end"].as_u64().unwrap() as usize,
        );
        assert_eq!(s["span_id"], id.as_str());
    }
    (e, ms)
}

#[test]
fn utf16_with_a_bom_is_decoded_by_default_as_rg() {
    let env = TestEnv::new();
    env.write("le_bom.txt", utf16(true, true));
    env.write("be_bom.txt", utf16(false, true));
    // rg 13: `rg -n --column -b foo le_bom.txt` (and be_bom.txt).
    for f in ["le_bom.txt", "be_bom.txt"] {
        assert_eq!(
            human(&env, &["-b", "foo", f]),
            (
                "2:13:14:second line foo\n3:7:30:third foo é\n".into(),
                String::new(),
                0
            )
        );
    }
    // Walked too (rg: `rg -n foo`, in path order here).
    let (out, _, code) = human(&env, &["foo"]);
    assert_eq!(
        (out.as_str(), code),
        (
            "be_bom.txt:2:13:second line foo\nbe_bom.txt:3:7:third foo é\n\
le_bom.txt:2:13:second line foo\nle_bom.txt:3:7:third foo é\n",
            0
        )
    );
    // JSON: the text searched is not the bytes on disk: the file is spelled so that no
    // mutation takes it, offsets and checksum are those of the decoded text.
    let (e, ms) = both(&env, &["foo|é", "le_bom.txt"]);
    assert_eq!(ms[0]["span"]["file_path"], "<le_bom.txt | UTF-16LE>");
    assert_eq!(
        spans(&ms),
        vec![
            t(1, 3, 1, 1, "é", "héllo wörld"),
            t(26, 29, 2, 12, "foo", "second line foo"),
            t(36, 39, 3, 6, "foo", "third foo é"),
            t(40, 42, 3, 10, "é", "third foo é"),
        ]
    );
    let f = &e["data"]["files"][0];
    assert_eq!(f["file_path"], "<le_bom.txt | UTF-16LE>");
    assert_eq!(f["checksum"], sha(TEXT.as_bytes()).as_str());
    let (e, _) = both(&env, &["foo", "be_bom.txt"]);
    assert_eq!(
        e["data"]["files"][0]["file_path"],
        "<be_bom.txt | UTF-16BE>"
    );
    // Counting modes (which read files in chunks) decode them too.
    assert_eq!(human(&env, &["-c", "foo", "le_bom.txt"]).0, "2\n");
    assert_eq!(human(&env, &["-l", "foo"]).0, "be_bom.txt\nle_bom.txt\n");
    // Piped to `llm transform`, such a match is refused and the file is left as it was.
    assert_eq!(
        search_into_transform(&env, &["-r", "bar", "foo", "le_bom.txt"]),
        2
    );
    assert_eq!(env.read("le_bom.txt"), utf16(true, true));
}

#[test]
fn utf16_without_a_bom_needs_its_encoding_named() {
    let env = TestEnv::new();
    env.write("le.txt", utf16(true, false));
    env.write("be.txt", utf16(false, false));
    // rg 13: found by walking, both are binary (NUL bytes) and skipped.
    let (out, _, code) = human(&env, &["foo"]);
    assert_eq!((out.as_str(), code), ("", 1));
    // rg 13: `rg -n --column -b -E utf-16le 'foo|é' le.txt` (utf-16be, be.txt: the same).
    let want = "1:2:0:héllo wörld\n2:13:14:second line foo\n3:7:30:third foo é\n";
    for (enc, f) in [("utf-16le", "le.txt"), ("utf-16be", "be.txt")] {
        let (out, err, code) = human(&env, &["-b", "-E", enc, "foo|é", f]);
        assert_eq!((out.as_str(), err.as_str(), code), (want, "", 0));
    }
    let (e, ms) = both(&env, &["-E", "utf-16be", "foo", "be.txt"]);
    assert_eq!(ms[0]["span"]["file_path"], "<be.txt | UTF-16BE>");
    assert_eq!(e["query"]["encoding"], "utf-16be");
    assert_eq!(
        spans(&ms),
        vec![
            t(26, 29, 2, 12, "foo", "second line foo"),
            t(36, 39, 3, 6, "foo", "third foo é")
        ]
    );
    // The wrong byte order finds nothing, as rg.
    assert_eq!(human(&env, &["-E", "utf-16le", "foo", "be.txt"]).2, 1);
}

#[test]
fn encoding_none_searches_a_bom_file_as_its_bytes() {
    let env = TestEnv::new();
    env.write("le_bom.txt", utf16(true, true));
    env.write("u8.txt", format!("\u{feff}{TEXT}"));
    // rg 13: `rg -E none foo le_bom.txt` finds nothing (exit 1); walked, it is binary.
    assert_eq!(human(&env, &["-E", "none", "foo", "le_bom.txt"]).0, "");
    assert_eq!(human(&env, &["-E", "none", "foo", "le_bom.txt"]).2, 1);
    let (e, code) = json(&env, &["-E", "none", "foo"]);
    assert_eq!(code, 0);
    assert_eq!(e["data"]["stats"]["skipped"]["binary"], 1);
    assert_eq!(e["data"]["files"][0]["file_path"], "u8.txt");
    assert_eq!(e["query"]["encoding"], "none");
    // A UTF-8 BOM is kept (offsets on disk) with or without -E none: `rg -E none -b é u8.txt`
    // gives `1:5:0:`, as llm always does; rg's default strips it (`1:2:0:`).
    for args in [
        &["-b", "é", "u8.txt"][..],
        &["-b", "-E", "none", "é", "u8.txt"],
    ] {
        let (out, _, _) = human(&env, args);
        assert!(out.starts_with("1:5:0:\u{feff}héllo"), "{out}");
    }
    let (_, ms) = both(&env, &["-E", "none", "é", "u8.txt"]);
    assert_eq!(ms[0]["span"]["byte_start"], 4);
    check_span(env.path(), &ms[0]["span"]);
}

#[test]
fn latin1_and_windows_1252_spans_address_the_bytes_on_disk() {
    let env = TestEnv::new();
    let bytes = latin1(TEXT);
    env.write("latin1.txt", &bytes);
    // rg 13: `rg -n --column -b -E latin1 'foo|é' latin1.txt` (windows-1252: the same).
    let want = "1:2:0:héllo wörld\n2:13:14:second line foo\n3:7:30:third foo é\n";
    for enc in ["latin1", "windows-1252", "ISO-8859-1"] {
        let (out, err, code) = human(&env, &["-b", "-E", enc, "foo|é", "latin1.txt"]);
        assert_eq!((out.as_str(), err.as_str(), code), (want, "", 0), "{enc}");
    }
    // Without -E, bytes as they are (columns and offsets on disk; not UTF-8: a warning).
    let (out, err, _) = human(&env, &["-b", "foo", "latin1.txt"]);
    assert_eq!(out, "2:13:12:second line foo\n3:7:28:third foo \u{FFFD}\n");
    assert!(err.contains("LLM_E009"), "{err}");
    // JSON: the decoded text, at the offsets, lines and columns of the bytes on disk.
    let (e, ms) = both(&env, &["-E", "latin1", "foo|é", "latin1.txt"]);
    assert_eq!(
        spans(&ms),
        vec![
            t(1, 2, 1, 1, "é", "héllo wörld"),
            t(24, 27, 2, 12, "foo", "second line foo"),
            t(34, 37, 3, 6, "foo", "third foo é"),
            t(38, 39, 3, 10, "é", "third foo é"),
        ]
    );
    for m in &ms {
        check_span(env.path(), &m["span"]);
        let s = &m["span"];
        let on_disk = &bytes
            [s["byte_start"].as_u64().unwrap() as usize..s["byte_end"].as_u64().unwrap() as usize];
        assert_eq!(on_disk, latin1(m["matched_text"].as_str().unwrap()));
    }
    let f = &e["data"]["files"][0];
    assert_eq!(
        (&f["file_path"], &f["checksum"]),
        (&"latin1.txt".into(), &sha(&bytes).into())
    );
    assert!(f.get("lossy").is_none(), "decoded text is UTF-8: {f}");
    assert_eq!(e["query"]["encoding"], "windows-1252");
    // Context lines are decoded too.
    let (_, ms) = both(&env, &["-E", "latin1", "-C1", "second", "latin1.txt"]);
    assert_eq!(ms[0]["context_before"][0], "héllo wörld");
    assert_eq!(ms[0]["context_after"][0], "third foo é");
    // The spans are the file's: `llm transform` applies them where they point.
    assert_eq!(
        search_into_transform(&env, &["-E", "latin1", "-r", "bar", "foo", "latin1.txt"]),
        0
    );
    assert_eq!(env.read("latin1.txt"), latin1(&TEXT.replace("foo", "bar")));
}

#[test]
fn shift_jis_is_decoded_and_mapped_back() {
    let env = TestEnv::new();
    env.write("sjis.txt", SJIS);
    // rg 13: `rg -n --column -b -E shift_jis '日本|テ' sjis.txt`.
    let (out, err, code) = human(&env, &["-b", "-E", "shift_jis", "日本|テ", "sjis.txt"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        ("1:1:0:日本語 foo\n2:1:14:テスト foo bar\n", "", 0)
    );
    // rg 13 without -E: `1:8:0:` and `2:8:11:` (the bytes as they are).
    let (out, _, _) = human(&env, &["-b", "foo", "sjis.txt"]);
    assert!(
        out.starts_with("1:8:0:") && out.contains("\n2:8:11:"),
        "{out}"
    );
    let (_, ms) = both(&env, &["-E", "sjis", "日本|テ|foo", "sjis.txt"]);
    assert_eq!(
        spans(&ms),
        vec![
            t(0, 4, 1, 0, "日本", "日本語 foo"),
            t(7, 10, 1, 7, "foo", "日本語 foo"),
            t(11, 13, 2, 0, "テ", "テスト foo bar"),
            t(18, 21, 2, 7, "foo", "テスト foo bar"),
        ]
    );
    for m in &ms {
        check_span(env.path(), &m["span"]);
    }
}

#[test]
fn an_unknown_encoding_is_a_clear_error() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\n");
    for label in ["bogus", "replacement"] {
        let (out, err, code) = human(&env, &["-E", label, "foo"]);
        assert_eq!((out.as_str(), code), ("", 2));
        assert!(err.contains("SEARCH_E007") && err.contains(label), "{err}");
        let (e, code) = json(&env, &["-E", label, "foo"]);
        assert_eq!(code, 2);
        assert_eq!(e["status"], "error");
        assert_eq!(e["error"]["code"], "SEARCH_E007");
        let fix = e["error"]["remediation"].as_str().unwrap();
        assert!(fix.contains("latin1") && fix.contains("utf-16le"), "{fix}");
        let out = env
            .llm(&["search", "--format", "jsonl", "-E", label, "foo"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stdout).contains("SEARCH_E007"));
    }
}

/// A preprocessor that upper-cases its standard input (the file, as rg gives it) and fails
/// on a file whose name holds `bad`.
const PRE: &str =
    "#!/bin/sh\ncase \"$1\" in *bad*) echo \"cannot handle $1\" >&2; exit 3;; esac\ntr a-z A-Z\n";

fn pre_env() -> TestEnv {
    let env = TestEnv::new();
    env.write("pre.sh", PRE);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = env.path().join("pre.sh");
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    env.write("d/a.txt", "alpha foo\nbeta\n");
    env.write("d/b.md", "foo in md\n");
    env.write("d/bad.txt", "foo\n");
    env
}

#[test]
fn pre_searches_what_the_command_prints() {
    let env = pre_env();
    // rg 13: `rg --sort path --pre ./pre.sh -n -b FOO d` prints these two lines, and for
    // d/bad.txt "preprocessor command failed … cannot handle d/bad.txt" (exit 2).
    let (out, err, code) = human(&env, &["--pre", "./pre.sh", "-b", "FOO", "d"]);
    assert_eq!(out, "d/a.txt:1:7:0:ALPHA FOO\nd/b.md:1:1:0:FOO IN MD\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("SEARCH_E008") && err.contains("d/bad.txt") && err.contains("cannot handle"),
        "{err}"
    );
    // rg 13: `--pre-glob '*.md'` preprocesses only b.md; `!*.md` all but it.
    let (out, _, code) = human(
        &env,
        &["--pre", "./pre.sh", "--pre-glob", "*.md", "FOO|foo", "d"],
    );
    assert_eq!(
        (out.as_str(), code),
        (
            "d/a.txt:1:7:alpha foo\nd/b.md:1:1:FOO IN MD\nd/bad.txt:1:1:foo\n",
            0
        )
    );
    let (out, _, code) = human(
        &env,
        &["--pre", "./pre.sh", "--pre-glob", "!*.md", "FOO|foo", "d"],
    );
    assert_eq!(
        (out.as_str(), code),
        ("d/a.txt:1:7:ALPHA FOO\nd/b.md:1:1:foo in md\n", 2)
    );
    // --no-pre, given after, turns it off.
    let (out, _, code) = human(&env, &["--pre", "./pre.sh", "--no-pre", "FOO|foo", "d"]);
    assert_eq!(
        (out.as_str(), code),
        (
            "d/a.txt:1:7:alpha foo\nd/b.md:1:1:foo in md\nd/bad.txt:1:1:foo\n",
            0
        )
    );
    // An empty COMMAND runs none, as rg 13 (it was a usage error).
    let (out, _, code) = human(&env, &["--pre", "", "FOO|foo", "d"]);
    assert_eq!(
        (out.as_str(), code),
        (
            "d/a.txt:1:7:alpha foo\nd/b.md:1:1:foo in md\nd/bad.txt:1:1:foo\n",
            0
        )
    );
    // rg 13: `-c` and `-l` count and list what the command printed.
    assert_eq!(
        human(&env, &["--pre", "./pre.sh", "-c", "FOO", "d/a.txt"]).0,
        "1\n"
    );
    assert_eq!(
        human(&env, &["--pre", "./pre.sh", "-l", "FOO", "d"]).0,
        "d/a.txt\nd/b.md\n"
    );
    // JSON: spelled so that no mutation takes it; offsets and checksum of the output.
    let args = ["--pre", "./pre.sh", "--pre-glob", "*.txt", "FOO", "d/a.txt"];
    let (e, ms) = both(&env, &args);
    assert_eq!(ms[0]["span"]["file_path"], "<d/a.txt | ./pre.sh>");
    assert_eq!(spans(&ms), vec![t(6, 9, 1, 6, "FOO", "ALPHA FOO")]);
    let f = &e["data"]["files"][0];
    assert_eq!(f["checksum"], sha(b"ALPHA FOO\nBETA\n").as_str());
    assert_eq!(e["query"]["pre"], "./pre.sh");
    assert_eq!(e["query"]["pre_globs"][0], "*.txt");
    // The failure is a per-file error diagnostic in JSON too; the rest is searched.
    let (e, code) = json(&env, &["--pre", "./pre.sh", "FOO", "d"]);
    assert_eq!((code, e["status"].as_str()), (2, Some("ok")));
    let d = &e["diagnostics"][0];
    assert_eq!(
        (&d["code"], &d["level"], &d["file"]),
        (&"SEARCH_E008".into(), &"error".into(), &"d/bad.txt".into())
    );
    assert!(
        d["message"].as_str().unwrap().contains("cannot handle"),
        "{d}"
    );
    assert_eq!(e["data"]["stats"]["skipped"]["unreadable"], 1);
    // Piped to `llm transform`, refused; the file is as it was.
    assert_eq!(
        search_into_transform(&env, &[&["-r", "X"], &args[..]].concat()),
        2
    );
    assert_eq!(env.read("d/a.txt"), b"alpha foo\nbeta\n");
    // A command that cannot start: rg "preprocessor command could not start" (exit 2).
    let (_, err, code) = human(&env, &["--pre", "./missing.sh", "foo", "d/a.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("SEARCH_E008") && err.contains("could not start"),
        "{err}"
    );
}

/// Whether `prog` is installed. Under CI (`.ci/run` installs every decompressor) a missing
/// one fails the test; elsewhere the case is skipped.
fn have(prog: &str) -> bool {
    let found = std::process::Command::new("sh")
        .args(["-c", &format!("command -v {prog}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{prog} is missing under CI: .ci/run installs it"
        );
        eprintln!("skipped: {prog} is not installed");
    }
    found
}

const PLAIN: &[u8] = b"alpha foo\nbeta\nfoo gamma\n";

/// Compresses PLAIN into `name` with `cmd` (reading stdin, writing stdout).
fn compress(env: &TestEnv, name: &str, cmd: &[&str]) {
    use std::io::Write;
    let mut child = std::process::Command::new(cmd[0])
        .args(&cmd[1..])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(PLAIN).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{cmd:?}");
    env.write(name, out.stdout);
}

/// Checks one compressed file, named `name` and made by `compressor`, through `-z` in every
/// format: as rg 13 (`rg -z -n -b foo NAME`), llm adding the column.
fn zip_case(env: &TestEnv, name: &str, shown: &str) {
    let (out, err, code) = human(env, &["-z", "-b", "foo", name]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        ("1:7:0:alpha foo\n3:1:15:foo gamma\n", "", 0),
        "{name}"
    );
    let (e, ms) = both(env, &["-z", "foo", name]);
    let path = format!("<{name} | {shown}>");
    assert_eq!(ms[0]["span"]["file_path"], path.as_str());
    assert_eq!(
        spans(&ms),
        vec![
            t(6, 9, 1, 6, "foo", "alpha foo"),
            t(15, 18, 3, 0, "foo", "foo gamma")
        ]
    );
    assert_eq!(e["data"]["files"][0]["checksum"], sha(PLAIN).as_str());
    assert_eq!(e["query"]["search_zip"], true);
    // Without -z (or with --no-search-zip after it) the compressed bytes are searched: a
    // small file may hold `foo` as it is, but never the decompressed lines.
    for args in [
        &["-b", "foo", name][..],
        &["-z", "--no-search-zip", "-b", "foo", name],
    ] {
        let (out, _, _) = human(env, args);
        assert!(!out.contains("3:1:15:foo gamma"), "{name}: {out}");
        let (e, _) = json(env, args);
        for m in e["data"]["matches"].as_array().unwrap() {
            assert_eq!(m["span"]["file_path"], name);
        }
    }
}

#[test]
fn search_zip_gzip_bzip2_xz() {
    let env = TestEnv::new();
    for (prog, cmd, names, shown) in [
        (
            "gzip",
            &["gzip", "-c"][..],
            &["a.gz", "a.tgz"][..],
            "gzip -d -c",
        ),
        (
            "bzip2",
            &["bzip2", "-c"],
            &["b.bz2", "b.tbz2"],
            "bzip2 -d -c",
        ),
        ("xz", &["xz", "-c"], &["c.xz", "c.txz"], "xz -d -c"),
        (
            "xz",
            &["xz", "--format=lzma", "-c"],
            &["d.lzma"],
            "xz --format=lzma -d -c",
        ),
    ] {
        if !have(prog) {
            continue;
        }
        for name in names {
            compress(&env, name, cmd);
            zip_case(&env, name, shown);
        }
    }
    if !have("gzip") {
        return;
    }
    // Walked: rg 13 `rg -z -n foo` lists each file's lines, in path order here.
    let walked = TestEnv::new();
    compress(&walked, "a.gz", &["gzip", "-c"]);
    walked.write("plain.txt", "foo plain\n");
    let (out, _, code) = human(&walked, &["-z", "foo"]);
    assert_eq!(
        (out.as_str(), code),
        (
            "a.gz:1:7:alpha foo\na.gz:3:1:foo gamma\nplain.txt:1:1:foo plain\n",
            0
        )
    );
    assert_eq!(
        human(&walked, &["-z", "-c", "foo"]).0,
        "a.gz:2\nplain.txt:1\n"
    );
    // A corrupt file: rg 13 prints gzip's message and exits 2; llm a per-file error.
    walked.write("bad.gz", "garbage");
    let (out, err, code) = human(&walked, &["-z", "foo"]);
    assert_eq!(code, 2);
    assert!(out.contains("plain.txt:1:1:foo plain"));
    assert!(
        err.contains("SEARCH_E008") && err.contains("not in gzip format"),
        "{err}"
    );
    let (e, _) = json(&walked, &["-z", "foo"]);
    assert_eq!(e["diagnostics"][0]["code"], "SEARCH_E008");
    // The program missing (an empty PATH): a warning naming it, the file not searched (rg 13
    // searches the compressed bytes then).
    let empty = TestEnv::new();
    let out = walked
        .llm(&["search", "-z", "foo", "a.gz"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("SEARCH_E009") && err.contains("gzip -d -c"),
        "{err}"
    );
    let out = walked
        .llm(&["search", "--json", "-z", "foo", "a.gz"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let e: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["diagnostics"][0]["code"], "SEARCH_E009");
    assert_eq!(e["diagnostics"][0]["level"], "warning");
    assert!(e["diagnostics"][0]["remediation"]
        .as_str()
        .unwrap()
        .contains("apt-get install gzip"));
}

#[test]
fn search_zip_lz4_brotli_zstd_compress() {
    let env = TestEnv::new();
    for (prog, cmd, names, shown) in [
        ("lz4", &["lz4", "-q", "-c"][..], &["e.lz4"][..], "lz4 -d -c"),
        ("brotli", &["brotli", "-c"], &["f.br"], "brotli -d -c"),
        (
            "zstd",
            &["zstd", "-q", "-c"],
            &["g.zst", "g.zstd"],
            "zstd -q -d -c",
        ),
        (
            "compress",
            &["compress", "-c", "-f"],
            &["h.Z"],
            "uncompress -c",
        ),
    ] {
        if !have(prog) || (prog == "compress" && !have("uncompress")) {
            continue;
        }
        for name in names {
            compress(&env, name, cmd);
            zip_case(&env, name, shown);
        }
    }
}
