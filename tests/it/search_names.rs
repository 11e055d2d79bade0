//! `llm search` on file names that JSON or a terminal cannot show as they are: a name that is
//! not UTF-8 is flagged `file_path_lossy` in every span and `files[]` entry (issue 11), and
//! control characters in names are escaped in human output.

use crate::util::TestEnv;
use serde_json::Value;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

/// `bad\xff.txt` and `good.txt`, both holding `needle` twice.
fn two_names() -> TestEnv {
    let env = TestEnv::new();
    let text = "needle one\nneedle two\n";
    std::fs::write(env.path().join(OsStr::from_bytes(b"bad\xff.txt")), text).unwrap();
    env.write("good.txt", text);
    env
}

/// The spans and `files[]` entries of a search's output, JSON or JSON lines.
fn spans_and_files(stdout: &[u8]) -> (Vec<Value>, Vec<Value>) {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    let mut spans = Vec::new();
    let mut files = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let data = match v["type"].as_str() {
            Some("match") => {
                spans.push(v["span"].clone());
                continue;
            }
            Some(_) => &v["data"],
            None => &v["data"],
        };
        if let Some(ms) = data["matches"].as_array() {
            spans.extend(ms.iter().map(|m| m["span"].clone()));
        }
        if let Some(fs) = data["files"].as_array() {
            files.extend(fs.iter().cloned());
        }
    }
    (spans, files)
}

#[test]
fn a_name_that_is_not_utf8_is_flagged_lossy_in_spans_and_files() {
    let env = two_names();
    let bad = "bad\u{FFFD}.txt";
    for args in [
        &["--json"][..],
        &["--format", "jsonl"],
        &["--json", "--max-results", "10"],
        &["--json", "-r", "pin"],
        &["--json", "-C", "1"],
        &["--json", "-U", "needle\\s+one"],
    ] {
        let pattern: &[&str] = if args.contains(&"-U") {
            &[]
        } else {
            &["needle"]
        };
        let out = env
            .llm(&[&["search"], pattern, args, &["."]].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let (spans, files) = spans_and_files(&out.stdout);
        let per_file = if args.contains(&"-U") { 1 } else { 2 };
        assert_eq!(spans.len(), 2 * per_file, "{args:?}: {spans:?}");
        for s in &spans {
            let lossy = s["file_path"] == bad;
            assert!(lossy || s["file_path"] == "good.txt", "{s}");
            if lossy {
                assert_eq!(s["file_path_lossy"], true, "{args:?}: {s}");
            } else {
                assert!(s.get("file_path_lossy").is_none(), "{args:?}: {s}");
            }
        }
        assert_eq!(
            spans.iter().filter(|s| s["file_path"] == bad).count(),
            per_file,
            "{args:?}"
        );
        assert_eq!(files.len(), 2, "{args:?}: {files:?}");
        for f in &files {
            if f["file_path"] == bad {
                assert_eq!(f["file_path_lossy"], true, "{args:?}: {f}");
            } else {
                assert!(f.get("file_path_lossy").is_none(), "{args:?}: {f}");
            }
        }
    }
}

#[test]
fn control_characters_in_names_are_escaped_in_human_output() {
    let env = TestEnv::new();
    env.write("a\nok: fake.txt", "needle\n");
    env.write("e\x1b[31m.txt", "needle\n");
    for args in [
        &[][..],
        &["--heading"],
        &["-l"],
        &["-c"],
        &["-r", "pin"],
        &["-C", "1"],
        &["--color", "always"],
    ] {
        let out = env
            .llm(&[&["search", "needle"], args, &["."]].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        // Colour codes aside, no escape sequence and no line that a name made up.
        let plain = text
            .replace("\x1b[0m", "")
            .replace("\x1b[35m", "")
            .replace("\x1b[32m", "")
            .replace("\x1b[1m", "")
            .replace("\x1b[31m", "");
        assert!(!plain.contains('\x1b'), "{args:?}: {text:?}");
        assert!(
            !plain.lines().any(|l| l.starts_with("ok: fake")),
            "{args:?}: {text:?}"
        );
        assert!(plain.contains("a\\nok: fake.txt"), "{args:?}: {text:?}");
        assert!(plain.contains("e\\u{1b}[31m.txt"), "{args:?}: {text:?}");
    }
}

#[test]
fn null_prints_names_as_their_own_bytes() {
    let env = TestEnv::new();
    for name in [&b"bad\xffy.txt"[..], b"nl\nx.txt", b"tab\tx.txt", b"ok.txt"] {
        std::fs::write(env.path().join(OsStr::from_bytes(name)), "foo\n").unwrap();
    }
    let run = |args: &[&str]| {
        let out = env.llm(&[&["search"], args].concat()).output().unwrap();
        (out.stdout, out.status.code().unwrap())
    };
    // rg -0 -l foo | cat -A: `badM-^?y.txt^@nl<LF>x.txt^@ok.txt^@tab<TAB>x.txt^@` (the raw
    // bytes: `xargs -0` gets names that exist).
    let names = b"bad\xffy.txt\0nl\nx.txt\0ok.txt\0tab\tx.txt\0".to_vec();
    assert_eq!(run(&["-0", "-l", "foo"]), (names.clone(), 0));
    assert_eq!(run(&["--files", "-0"]), (names, 0));
    // rg -0 -c foo, and rg -0 -n foo (llm adds the column).
    assert_eq!(
        run(&["-0", "-c", "foo"]).0,
        b"bad\xffy.txt\x001\nnl\nx.txt\x001\nok.txt\x001\ntab\tx.txt\x001\n".to_vec()
    );
    assert_eq!(
        run(&["-0", "foo", "."]).0,
        b"bad\xffy.txt\x001:1:foo\nnl\nx.txt\x001:1:foo\nok.txt\x001:1:foo\ntab\tx.txt\x001:1:foo\n"
            .to_vec()
    );
    // Without -0 the names stay escaped (a line break in a name cannot fake a line).
    assert_eq!(
        run(&["-l", "foo"]).0,
        "bad\u{FFFD}y.txt\nnl\\nx.txt\nok.txt\ntab\\tx.txt\n".as_bytes()
    );
}
