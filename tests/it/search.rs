//! `llm search` end to end: the real binary on awkward files, JSON checked against the spec's
//! structs (unknown fields denied) and every span checked against the file's bytes.

use crate::util::{check_span, llm, redactions, TestEnv};
use serde::Deserialize;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Envelope {
    pub(crate) schema_version: String,
    pub(crate) execution_id: String,
    pub(crate) command: String,
    pub(crate) status: String,
    pub(crate) query: Value,
    pub(crate) data: Option<Data>,
    pub(crate) partial: bool,
    pub(crate) diagnostics: Vec<Diag>,
    pub(crate) error: Option<Diag>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Data {
    pub(crate) pattern: String,
    #[serde(default)]
    pub(crate) patterns: Option<Vec<String>>,
    pub(crate) matches: Vec<Match>,
    pub(crate) files: Vec<FileEntry>,
    pub(crate) match_count: usize,
    #[serde(default)]
    pub(crate) total_count: Option<usize>,
    pub(crate) stats: Stats,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Match {
    pub(crate) match_id: String,
    pub(crate) span: Span,
    pub(crate) matched_text: String,
    pub(crate) line_text: String,
    pub(crate) context_before: Vec<String>,
    pub(crate) context_after: Vec<String>,
    #[serde(default)]
    pub(crate) replacement: Option<String>,
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Span {
    pub(crate) span_id: String,
    pub(crate) file_path: String,
    pub(crate) byte_start: usize,
    pub(crate) byte_end: usize,
    pub(crate) start_line: usize,
    pub(crate) start_col: usize,
    pub(crate) end_line: usize,
    pub(crate) end_col: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileEntry {
    pub(crate) file_path: String,
    pub(crate) checksum: String,
    pub(crate) match_count: usize,
    pub(crate) line_count: usize,
    #[serde(default)]
    pub(crate) lossy: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Stats {
    pub(crate) files_searched: u64,
    pub(crate) files_with_matches: u64,
    pub(crate) bytes_searched: u64,
    pub(crate) lossy_files: u64,
    pub(crate) skipped: Skipped,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Skipped {
    pub(crate) binary: u64,
    pub(crate) too_large: u64,
    pub(crate) unreadable: u64,
    #[serde(default)]
    pub(crate) special: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Diag {
    pub(crate) tool: String,
    pub(crate) level: String,
    #[serde(default)]
    pub(crate) code: Option<String>,
    pub(crate) message: String,
    #[serde(default)]
    pub(crate) file: Option<String>,
    #[serde(default)]
    pub(crate) span: Option<Span>,
    #[serde(default)]
    pub(crate) note: Option<String>,
    #[serde(default)]
    pub(crate) remediation: Option<String>,
}

fn is_uuid_v4(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 36
        && [8, 13, 18, 23].iter().all(|&i| b[i] == b'-')
        && b[14] == b'4'
        && s.chars()
            .filter(|&c| c != '-')
            .all(|c| c.is_ascii_hexdigit())
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks everything about a search envelope that must hold whatever was searched.
fn check_envelope(env: &TestEnv, e: &Envelope) {
    assert_eq!(e.schema_version, "1.0.0");
    assert_eq!(e.command, "search");
    assert!(is_uuid_v4(&e.execution_id), "{}", e.execution_id);
    assert_eq!(e.partial, e.status == "partial");
    for d in e.diagnostics.iter().chain(&e.error) {
        assert_eq!(d.tool, "search", "{d:?}");
        assert!(["error", "warning", "note"].contains(&d.level.as_str()));
        assert!(d.code.is_some() && d.remediation.is_some(), "{d:?}");
        assert!(!d.message.is_empty());
        if let Some(span) = &d.span {
            check_span(env.path(), &serde_json::to_value(span).unwrap());
        }
    }
    let Some(data) = &e.data else {
        assert_eq!(e.status, "error");
        assert!(e.error.is_some());
        return;
    };
    assert!(!data.pattern.is_empty() || data.patterns.is_some() || e.query["mode"] == "files");
    for m in &data.matches {
        assert!(is_uuid_v4(&m.match_id), "{}", m.match_id);
        let span = serde_json::to_value(&m.span).unwrap();
        check_span(env.path(), &span);
        let bytes = std::fs::read(env.path().join(&m.span.file_path)).unwrap();
        let matched = &bytes[m.span.byte_start..m.span.byte_end];
        assert_eq!(String::from_utf8_lossy(matched), m.matched_text, "{m:?}");
        // line_text is the first line of the match, without its line ending.
        let line_start = bytes[..m.span.byte_start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| line_start + i);
        let line = &bytes[line_start..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        assert_eq!(String::from_utf8_lossy(line), m.line_text);
    }
    let mut per_file = 0;
    for f in &data.files {
        let bytes = std::fs::read(env.path().join(&f.file_path)).unwrap();
        assert_eq!(f.checksum, sha256_hex(&bytes), "{}", f.file_path);
        let binary = bytes.contains(&0);
        assert_eq!(f.lossy, binary || std::str::from_utf8(&bytes).is_err());
        per_file += f.match_count;
        assert!(f.line_count >= 1 || f.match_count == 0);
    }
    if !data.matches.is_empty() {
        assert_eq!(per_file, data.matches.len());
        assert_eq!(data.match_count, data.matches.len());
        let keys: Vec<_> = data
            .matches
            .iter()
            .map(|m| (m.span.file_path.clone(), m.span.byte_start))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        if e.query.get("sort").is_none() && e.query.get("sortr").is_none() {
            assert_eq!(keys, sorted, "matches are in path, then offset order");
        }
    }
    assert!(data.total_count.is_none_or(|t| t >= data.match_count));
    // Files listed without a match (--files, --files-without-match, --include-zero).
    let unmatched = data.files.iter().filter(|f| f.match_count == 0).count();
    if e.status == "partial" {
        assert!(data.stats.files_with_matches as usize >= data.files.len() - unmatched);
    } else if e.query["mode"] != "files_without_match" {
        assert_eq!(
            data.stats.files_with_matches as usize,
            data.files.len() - unmatched
        );
    }
}

/// `llm search --format json ARGS`: the parsed, checked envelope and the exit code.
pub(crate) fn search(env: &TestEnv, args: &[&str]) -> (Envelope, i32) {
    let out = env
        .llm(&[&["search", "--format", "json"], args].concat())
        .output()
        .unwrap();
    let e: Envelope = serde_json::from_slice(&out.stdout).unwrap_or_else(|err| {
        panic!(
            "not a search envelope ({err}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    check_envelope(env, &e);
    (e, out.status.code().unwrap())
}

/// `llm search --format jsonl ARGS`: the match lines and the summary line.
pub(crate) fn jsonl(env: &TestEnv, args: &[&str]) -> (Vec<Value>, Value) {
    let out = env
        .llm(&[&["search", "--format", "jsonl"], args].concat())
        .output()
        .unwrap();
    let mut lines: Vec<Value> = (out.stdout.split(|&b| b == b'\n'))
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary");
    (lines, summary)
}

/// `llm search ARGS` in human format: stdout, stderr, exit code.
pub(crate) fn human(env: &TestEnv, args: &[&str]) -> (String, String, i32) {
    let (out, err, code) = human_bytes(env, args);
    (String::from_utf8(out).unwrap(), err, code)
}

/// [`human`], stdout as bytes (text that is not UTF-8 prints as it is, as rg).
pub(crate) fn human_bytes(env: &TestEnv, args: &[&str]) -> (Vec<u8>, String, i32) {
    let out = env.llm(&[&["search"], args].concat()).output().unwrap();
    (
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// `bytes` as text, each byte that is not part of UTF-8 written `\xNN`.
pub(crate) fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        s.push_str(chunk.valid());
        for b in chunk.invalid() {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    s
}

/// The awkward files every search test runs on.
fn awkward() -> TestEnv {
    let env = TestEnv::new();
    env.write("crlf.rs", "fn main() {\r\n    let x = 1;\r\n}\r\n");
    env.write("bom.rs", "\u{feff}fn bom() {}\n");
    env.write("tabs.rs", "fn\ttab()\t{}\n\tlet é = \"ünï\"; // fn\n");
    env.write("multi.py", "def f():\n    return \"日本語 fn\"\n");
    env.write("nofinal.rs", "let a = 0;\nfn last() {}");
    env.write("empty.rs", "");
    env.write("latin1.txt", b"caf\xe9 fn latin\n".as_slice());
    env.write("sub/dir/deep.rs", "// nothing\nfn deep() {}\n");
    env
}

#[test]
fn json_matches_spans_and_files_on_awkward_files() {
    let env = awkward();
    let (e, code) = search(&env, &["fn"]);
    assert_eq!(code, 0);
    assert_eq!(e.status, "ok");
    let data = e.data.unwrap();
    let at = |p: &str| {
        data.matches
            .iter()
            .filter(|m| m.span.file_path == p)
            .collect::<Vec<_>>()
    };
    // BOM: offsets are those of the bytes on disk (the BOM is 3 bytes).
    let bom = at("bom.rs");
    assert_eq!((bom[0].span.byte_start, bom[0].span.start_col), (3, 3));
    // CRLF: the \r is not part of line_text.
    assert_eq!(at("crlf.rs")[0].line_text, "fn main() {");
    // Multibyte: columns are bytes.
    let multi = at("multi.py");
    assert_eq!(multi[0].span.start_line, 2);
    assert_eq!(multi[0].span.start_col, "    return \"日本語 ".len());
    // Tabs, two matches in one file, the second after multibyte text.
    assert_eq!(at("tabs.rs").len(), 2);
    assert_eq!(
        at("tabs.rs")[1].span.start_col,
        "\tlet é = \"ünï\"; // ".len()
    );
    // No final newline: the last line still matches.
    assert_eq!(at("nofinal.rs")[0].span.end_line, 2);
    assert_eq!(at("sub/dir/deep.rs")[0].span.start_line, 2);
    assert!(at("empty.rs").is_empty());
    // Not UTF-8: searched, flagged lossy, with a warning.
    assert_eq!(at("latin1.txt").len(), 1);
    assert!(data
        .files
        .iter()
        .any(|f| f.file_path == "latin1.txt" && f.lossy));
    assert_eq!(data.stats.lossy_files, 1);
    assert!(e
        .diagnostics
        .iter()
        .any(|d| d.code.as_deref() == Some("LLM_E009")
            && d.level == "warning"
            && d.file.as_deref() == Some("latin1.txt")));
    assert_eq!(data.stats.files_searched, 8);
    let total: u64 = [
        "crlf.rs",
        "bom.rs",
        "tabs.rs",
        "multi.py",
        "nofinal.rs",
        "empty.rs",
    ]
    .iter()
    .chain(&["latin1.txt", "sub/dir/deep.rs"])
    .map(|f| env.read(f).len() as u64)
    .sum();
    assert_eq!(data.stats.bytes_searched, total);
    assert_eq!(data.stats.files_with_matches, 7);
    assert_eq!(data.match_count, 8);
    assert_eq!(data.total_count, Some(8));
    assert_eq!(
        data.stats.skipped,
        Skipped {
            binary: 0,
            too_large: 0,
            unreadable: 0,
            special: 0,
        }
    );
}

/// File checksums are hashed two streams at once, each file's carried beside the next ones'
/// as far as its blocks last: files of every size around SHA-256's 64-byte blocks, files a
/// block apart, a file read in chunks (over 128 KiB), one streamed (over 16 MiB) and one with
/// no match, searched on one to five threads, each get their own file's checksum
/// (`check_envelope` compares each with SHA-256 of the file).
#[test]
fn json_checksums_of_files_of_every_size_on_several_threads() {
    let env = TestEnv::new();
    // Files over 1 MiB are checksummed beside their search, after files left pending.
    // The last, 17 MiB, is read whole by the printing thread, which streams its matches.
    let sizes = [
        0, 7, 55, 56, 63, 64, 65, 119, 120, 128, 129, 200, 1000, 4096, 5000, 64, 3, 70_000, 129,
        300_000, 640, 64, 10, 131_073, 9, 2_000, 100, 1_500_000, 5, 1_048_577, 2_100_000, 77,
        17_825_792,
    ];
    let mut expected = Vec::new();
    for (k, &size) in sizes.iter().enumerate() {
        // The needle first, then filler that differs from file to file.
        let mut text = b"needle\n".to_vec();
        text.extend((0..size).map(|i| b'a' + ((i * 7 + k) % 26) as u8));
        env.write(&format!("f{k:02}.txt"), &text);
        expected.push(sha256_hex(&text));
    }
    env.write("zz-none.txt", "no match here\n".repeat(20));
    for j in ["-j1", "-j2", "-j3", "-j5"] {
        let (e, code) = search(&env, &["needle", j]);
        assert_eq!(code, 0, "{j}");
        let data = e.data.unwrap();
        let got: Vec<&str> = data.files.iter().map(|f| f.checksum.as_str()).collect();
        assert_eq!(got, expected, "{j}");
    }
}

#[test]
fn json_snapshot() {
    let env = TestEnv::new();
    env.write("a.rs", "fn one() {}\nlet x = one();\n");
    env.write("b/c.py", "def one():\r\n    return 1\r\n");
    let out = env
        .llm(&["search", "--json", "-C", "1", "one"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    redactions(env.path()).bind(|| {
        insta::assert_snapshot!("search_json", serde_json::to_string_pretty(&v).unwrap());
    });
}

#[test]
fn human_snapshots() {
    let env = awkward();
    // latin1.txt prints as its bytes (`\xe9` below), as rg.
    let human = |env: &TestEnv, args: &[&str]| {
        let (out, err, code) = human_bytes(env, args);
        (escape_bytes(&out), err, code)
    };
    let (plain, _, code) = human(&env, &["fn"]);
    assert_eq!(code, 0);
    let (heading, _, _) = human(&env, &["--heading", "fn"]);
    let (context, _, _) = human(&env, &["-C", "1", "-g", "*.rs", "fn"]);
    let (replace, _, _) = human(&env, &["-r", "FN($0)", "-t", "rust", "f(n)"]);
    let (single, _, _) = human(&env, &["fn", "tabs.rs"]);
    let (count, _, _) = human(&env, &["-c", "fn"]);
    let (count_matches, _, _) = human(&env, &["--count-matches", "fn"]);
    let (files, _, _) = human(&env, &["-l", "fn"]);
    let (max_columns, _, _) = human(&env, &["-M", "12", "fn"]);
    let all = format!(
        "== plain\n{plain}== heading\n{heading}== context\n{context}== replace\n{replace}\
== single file\n{single}== -c\n{count}== --count-matches\n{count_matches}== -l\n{files}\
== -M 12\n{max_columns}"
    );
    redactions(env.path()).bind(|| insta::assert_snapshot!("search_human", all));
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let env = awkward();
    let (always, _, _) = human(&env, &["--color", "always", "fn", "crlf.rs"]);
    assert!(
        always.contains("\x1b[0m\x1b[1m\x1b[31mfn\x1b[0m"),
        "{always:?}"
    );
    let (never, _, _) = human(&env, &["--color", "never", "fn", "crlf.rs"]);
    assert!(!never.contains('\x1b'));
    // Piped, `auto` means no colour; NO_COLOR never adds any.
    let out = env
        .llm(&["search", "fn", "crlf.rs"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!out.stdout.contains(&0x1b));
}

#[test]
fn exit_codes_and_error_envelopes() {
    let env = awkward();
    assert_eq!(search(&env, &["fn"]).1, 0);
    let (e, code) = search(&env, &["zzz_nothing"]);
    assert_eq!((e.status.as_str(), code), ("no_matches", 1));
    assert_eq!(e.data.unwrap().match_count, 0);

    // Invalid regex: an error envelope with the position and the -F remediation.
    let (e, code) = search(&env, &["fn("]);
    assert_eq!((e.status.as_str(), code), ("error", 2));
    let err = e.error.unwrap();
    assert_eq!(err.code.as_deref(), Some("SEARCH_E001"));
    assert!(err.note.unwrap().contains("at byte 2"));
    assert!(err.remediation.unwrap().contains("-F"));
    let (_, stderr, code) = human(&env, &["a{2,1}"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("SEARCH_E001") && stderr.contains("-F"),
        "{stderr}"
    );
    // With -F the same text is a literal.
    assert_eq!(search(&env, &["-F", "fn("]).1, 1);

    // A missing path: error diagnostic, the other paths are still searched, exit 2.
    let (e, code) = search(&env, &["fn", "missing.rs", "crlf.rs"]);
    assert_eq!(code, 2);
    assert_eq!(e.status, "ok");
    assert_eq!(e.data.unwrap().match_count, 1);
    let d = &e.diagnostics[0];
    assert_eq!(
        (d.level.as_str(), d.code.as_deref()),
        ("error", Some("LLM_E004"))
    );
    assert_eq!(d.file.as_deref(), Some("missing.rs"));
    let (out, stderr, code) = human(&env, &["fn", "missing.rs", "crlf.rs"]);
    assert_eq!(code, 2);
    assert!(out.contains("fn main"));
    assert!(stderr.contains("LLM_E004"), "{stderr}");

    // Bad glob, unknown type.
    let (e, code) = search(&env, &["-g", "{a", "fn"]);
    assert_eq!(code, 2);
    assert_eq!(e.error.unwrap().code.as_deref(), Some("LLM_E006"));
    let (e, code) = search(&env, &["-t", "rusty", "fn"]);
    assert_eq!(code, 2);
    let err = e.error.unwrap();
    assert_eq!(err.code.as_deref(), Some("LLM_E007"));
    assert!(err.remediation.unwrap().contains("rust"));
    // A usage error asked for as JSON is still an envelope.
    let (e, code) = search(&env, &["--max-count", "x", "fn"]);
    assert_eq!((e.status.as_str(), code), ("error", 2));
}

#[test]
fn closed_stdout_is_not_an_error() {
    let env = TestEnv::new();
    let body: String = (0..200_000).map(|i| format!("fn f{i}() {{}}\n")).collect();
    env.write("big.rs", &body);
    for format in ["human", "json", "jsonl"] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"))
            .current_dir(env.path())
            .args(["search", "--format", format, "fn"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        // stdout is now closed, as after `| head -1`.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn binary_files() {
    let env = TestEnv::new();
    env.write("text.rs", "fn a() {}\n");
    env.write("early.bin", b"fn x\0y\n".as_slice());
    // A NUL past the first 64 KiB: ripgrep reports the matches before it, and so do we.
    let mut late = b"fn before\n".to_vec();
    late.extend(std::iter::repeat_n(b"xxxxxxx\n".as_slice(), 10_000).flatten());
    late.extend(b"\0fn after\n");
    env.write("late.bin", &late);

    let (e, code) = search(&env, &["fn"]);
    assert_eq!(code, 0);
    let data = e.data.unwrap();
    assert_eq!(data.stats.skipped.binary, 1, "early.bin skipped");
    let late_matches: Vec<_> = data
        .matches
        .iter()
        .filter(|m| m.span.file_path == "late.bin")
        .collect();
    assert_eq!(late_matches.len(), 1);
    assert_eq!(late_matches[0].matched_text, "fn");
    assert!(
        e.diagnostics
            .iter()
            .any(|d| d.code.as_deref() == Some("SEARCH_E004")
                && d.file.as_deref() == Some("late.bin"))
    );

    // Named on the command line: searched in full, with a warning.
    let (e, code) = search(&env, &["fn", "early.bin", "late.bin"]);
    assert_eq!(code, 0);
    let data = e.data.unwrap();
    assert_eq!(data.match_count, 3);
    assert_eq!(data.stats.skipped.binary, 0);
    assert!(e.diagnostics.iter().any(
        |d| d.code.as_deref() == Some("SEARCH_E002") && d.file.as_deref() == Some("early.bin")
    ));
}

#[cfg(unix)]
#[test]
fn symlink_loop_and_unreadable() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    env.write("a/ok.rs", "fn ok() {}\n");
    std::os::unix::fs::symlink("..", env.path().join("a/up")).unwrap();
    let (e, code) = search(&env, &["-L", "fn"]);
    assert_eq!(code, 0);
    assert_eq!(e.data.as_ref().unwrap().match_count, 1);
    let loop_diag = e
        .diagnostics
        .iter()
        .find(|d| d.code.as_deref() == Some("LLM_E005"))
        .expect("symlink loop reported");
    assert_eq!(loop_diag.level, "warning");
    assert!(loop_diag.message.contains("loop"), "{}", loop_diag.message);
    assert!(loop_diag.remediation.as_deref().unwrap().contains("-L"));
    // Without -L the link is not followed: nothing to report.
    let (e, _) = search(&env, &["fn"]);
    assert!(e.diagnostics.is_empty());

    let secret = env.write("locked.rs", "fn locked() {}\n");
    std::fs::create_dir(env.path().join("closed")).unwrap();
    env.write("closed/inner.rs", "fn inner() {}\n");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(
        env.path().join("closed"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let permissions_bite = std::fs::read(&secret).is_err();
    let (e, code) = search(&env, &["fn"]);
    let (named, named_code) = search(&env, &["fn", "locked.rs"]);
    // Restore so that the temp dir can be removed.
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(
        env.path().join("closed"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    if !permissions_bite {
        eprintln!(
            "skipping the unreadable-file assertions: this user (root?) can read mode-000 files"
        );
        assert_eq!(code, 0);
        return;
    }
    assert_eq!(code, 0, "walked unreadable files are warnings");
    let data = e.data.unwrap();
    assert_eq!(data.stats.skipped.unreadable, 2);
    assert!(e
        .diagnostics
        .iter()
        .all(|d| d.level == "warning" && d.code.as_deref() == Some("LLM_E005")));
    assert_eq!(named_code, 2, "a named unreadable file is an error");
    assert_eq!(named.diagnostics[0].level, "error");
    assert_eq!(named.diagnostics[0].file.as_deref(), Some("locked.rs"));
}

#[test]
fn replacement_previews() {
    let env = TestEnv::new();
    env.write("r.rs", "let old_name = old_value;\nold_x$\n");
    let (e, _) = search(&env, &["-r", "new_${rest}[$1]$$", r"old_(?P<rest>\w+)"]);
    let m = e.data.unwrap().matches;
    let reps: Vec<_> = m.iter().map(|m| m.replacement.clone().unwrap()).collect();
    assert_eq!(reps, ["new_name[name]$", "new_value[value]$", "new_x[x]$"]);
    // Without -r there is no replacement field at all.
    let out = env.llm(&["search", "--json", "old"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("replacement"));
    let (text, _, _) = human(&env, &["-r", "N", "old_", "r.rs"]);
    assert_eq!(text, "1:5:let Nname = Nvalue;\n2:1:Nx$\n");
}

#[test]
fn max_results_is_partial_and_stops_the_search() {
    let env = TestEnv::new();
    env.write("a.rs", "x\nx x\n");
    env.write("b.rs", "x\n");
    let (e, code) = search(&env, &["--max-results", "2", "x"]);
    assert_eq!((e.status.as_str(), e.partial, code), ("partial", true, 0));
    let data = e.data.unwrap();
    // The search stopped at the third match: how many there are in all is not known.
    assert_eq!((data.match_count, data.total_count), (2, None));
    assert_eq!(data.stats.files_searched, 1);
    assert_eq!(data.matches.len(), 2);
    assert_eq!(data.files.len(), 1);
    assert_eq!(data.files[0].match_count, 2);
    let (e, _) = search(&env, &["--max-results", "9", "x"]);
    assert_eq!(e.status, "ok");
    assert_eq!(e.data.unwrap().total_count, Some(4));
    // Exactly filled by the first file: the next match proves the cut.
    let (e, _) = search(&env, &["--max-results", "3", "x"]);
    assert_eq!(
        (e.status.as_str(), e.data.unwrap().total_count),
        ("partial", None)
    );
    let (e, code) = search(&env, &["--max-results", "0", "x"]);
    assert_eq!(code, 2);
    assert_eq!(e.error.unwrap().code.as_deref(), Some("SEARCH_E003"));
}

#[test]
fn multiline_spans_cover_every_line() {
    let env = TestEnv::new();
    env.write("m.rs", "fn a() {\r\n}\r\n\r\nimpl B {\n}\n");
    let (e, code) = search(&env, &["-U", r"\}\r?\n\s*\n?impl"]);
    assert_eq!(code, 0);
    let m = &e.data.unwrap().matches[0];
    assert_eq!((m.span.start_line, m.span.end_line), (2, 4));
    assert_eq!(m.matched_text, "}\r\n\r\nimpl");
    assert_eq!(m.line_text, "}");
    // A match ending with its newline ends at column 0 of the next line.
    let (e, _) = search(&env, &["-U", r"impl B \{\n"]);
    let s = &e.data.unwrap().matches[0].span;
    assert_eq!((s.start_line, s.end_line, s.end_col), (4, 5, 0));
    // Without -U a pattern cannot match across lines.
    assert_eq!(search(&env, &[r"\}\s+impl"]).1, 1);
    // -c with -U counts matches, as ripgrep.
    let (text, _, _) = human(&env, &["-U", "-c", r"\n", "m.rs"]);
    assert_eq!(text, "5\n");
}

#[test]
fn context_lines() {
    let env = TestEnv::new();
    env.write("c.txt", "one\ntwo\nthree hit\nfour\nfive hit\n");
    let (e, _) = search(&env, &["-B", "2", "-A", "1", "hit"]);
    let m = e.data.unwrap().matches;
    assert_eq!(m[0].context_before, ["one", "two"]);
    assert_eq!(m[0].context_after, ["four"]);
    assert_eq!(m[1].context_before, ["three hit", "four"]);
    assert!(m[1].context_after.is_empty(), "no line after the last");
    let (e, _) = search(&env, &["-C", "5", "one"]);
    assert!(e.data.unwrap().matches[0].context_before.is_empty());
}

#[test]
fn modes_files_counts_and_max_count() {
    let env = TestEnv::new();
    env.write("a.rs", "x x\nx\ny\n");
    env.write("b.rs", "y\n");
    let (e, _) = search(&env, &["-l", "x"]);
    let data = e.data.unwrap();
    assert!(data.matches.is_empty());
    assert_eq!(data.files.len(), 1);
    assert_eq!(e.query["mode"], "files_with_matches");
    let (e, _) = search(&env, &["-c", "x"]);
    let f = &e.data.unwrap().files[0];
    assert_eq!((f.line_count, f.match_count), (2, 3));
    // -m limits matching lines per file, as ripgrep's.
    let (e, _) = search(&env, &["-m", "1", "x"]);
    assert_eq!(e.data.unwrap().match_count, 2);
    let (text, _, _) = human(&env, &["-m", "1", "-c", "x"]);
    assert_eq!(text, "a.rs:1\n");
    assert_eq!(search(&env, &["-m", "0", "x"]).1, 1);
}

#[test]
fn filters_globs_types_hidden_ignore() {
    let env = TestEnv::new();
    env.write("a.rs", "hit\n");
    env.write("b.py", "hit\n");
    env.write("c.txt", "hit\n");
    env.write(".hidden.rs", "hit\n");
    env.write(".gitignore", "ignored.rs\nbuild/\n");
    env.write("ignored.rs", "hit\n");
    env.write("build/out.rs", "hit\n");
    let files = |args: &[&str]| -> Vec<String> {
        let (e, _) = search(&env, &[args, &["hit"]].concat());
        e.data
            .unwrap()
            .files
            .into_iter()
            .map(|f| f.file_path)
            .collect()
    };
    assert_eq!(files(&[]), ["a.rs", "b.py", "c.txt"]);
    assert_eq!(files(&["-g", "*.py"]), ["b.py"]);
    assert_eq!(files(&["-g", "!*.py"]), ["a.rs", "c.txt"]);
    assert_eq!(files(&["-t", "py"]), ["b.py"]);
    // As in ripgrep, a type or glob that selects a hidden file selects it.
    assert_eq!(
        files(&["-t", "rust", "-t", "py"]),
        [".hidden.rs", "a.rs", "b.py"]
    );
    assert_eq!(files(&["-T", "rust"]), ["b.py", "c.txt"]);
    assert_eq!(
        files(&["--hidden"]),
        [".hidden.rs", "a.rs", "b.py", "c.txt"]
    );
    assert_eq!(
        files(&["--no-ignore"]),
        ["a.rs", "b.py", "build/out.rs", "c.txt", "ignored.rs"]
    );
    // A named file is searched whatever the filters say.
    let (e, _) = search(&env, &["-t", "py", "hit", "ignored.rs"]);
    assert_eq!(e.data.unwrap().files[0].file_path, "ignored.rs");
    // Every file too large: nothing searched, as a filter that lets nothing through (rg:
    // "No files were searched", exit 2).
    let (e, code) = search(&env, &["--max-filesize", "1", "hit"]);
    assert_eq!((e.status.as_str(), code), ("error", 2));
    let error = e.error.unwrap();
    assert_eq!(error.code.as_deref(), Some("SEARCH_E005"));
    assert!(
        error
            .message
            .contains("3 files larger than --max-filesize 1"),
        "{error:?}"
    );
    // --max-filesize too (rg: `rg --max-filesize 1 hit a.rs` searches a.rs).
    let (e, code) = search(&env, &["--max-filesize", "1", "hit", "a.rs", "."]);
    let data = e.data.unwrap();
    assert_eq!(code, 0);
    assert_eq!(data.files[0].file_path, "a.rs");
    assert_eq!(data.stats.skipped.too_large, 3);
    let (out, _, code) = human(&env, &["--max-filesize", "1", "-l", "hit", "a.rs"]);
    assert_eq!((out.as_str(), code), ("a.rs\n", 0));
}

#[test]
fn matching_flags() {
    let env = TestEnv::new();
    env.write("f.txt", "Foo foo\nfoobar\nfoo\n-x\n");
    let count = |args: &[&str]| search(&env, args).0.data.unwrap().match_count;
    assert_eq!(count(&["foo"]), 3);
    assert_eq!(count(&["-i", "foo"]), 4);
    assert_eq!(count(&["-S", "foo"]), 4);
    assert_eq!(count(&["-S", "Foo"]), 1);
    assert_eq!(count(&["-w", "foo"]), 2);
    assert_eq!(count(&["-x", "foo"]), 1);
    assert_eq!(count(&["-F", "o b"]), 0);
    assert_eq!(count(&["-e", "-x", "-e", "bar"]), 2);
}

#[test]
fn jsonl_streams_matches_then_summary() {
    let env = awkward();
    let out = env
        .llm(&["search", "--format", "jsonl", "fn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut summary = lines.pop().unwrap();
    assert_eq!(summary["type"], "summary");
    summary.as_object_mut().unwrap().remove("type");
    let summary: Envelope = serde_json::from_value(summary).unwrap();
    check_envelope(&env, &summary);
    let data = summary.data.unwrap();
    assert!(data.matches.is_empty());
    assert_eq!(data.match_count, lines.len());
    for mut l in lines {
        assert_eq!(l["type"], "match");
        l.as_object_mut().unwrap().remove("type");
        let m: Match = serde_json::from_value(l).unwrap();
        check_span(env.path(), &serde_json::to_value(&m.span).unwrap());
    }
}

#[test]
fn order_is_deterministic_across_threads() {
    let env = TestEnv::new();
    for i in 0..60 {
        env.write(&format!("d{}/f{i:02}.rs", i % 7), "hit\nhit\n");
    }
    let (one, _, _) = human(&env, &["-j", "1", "hit"]);
    for _ in 0..3 {
        let (many, _, _) = human(&env, &["-j", "4", "hit"]);
        assert_eq!(many, one);
    }
    let mut sorted: Vec<&str> = one.lines().collect();
    sorted.sort_by_key(|l| l.split(':').next().unwrap().to_string());
    assert_eq!(sorted, one.lines().collect::<Vec<_>>());
    assert_eq!(one.lines().count(), 120);
}

#[test]
fn type_list() {
    let out = llm().args(["search", "--type-list"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("rust: ")));
    assert!(text.lines().any(|l| l.starts_with("py: ")));
}
