//! Smaller faults of the mutation commands, each through the real binary: malformed
//! checksums, contradictory edit requests, a file as --root, paths longer than PATH_MAX,
//! `link/../f`, control characters in file names, and names JSON cannot spell.

use crate::transform::code;
use crate::util::TestEnv;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

#[test]
fn a_malformed_expected_checksum_is_an_input_error() {
    let env = TestEnv::new();
    env.write("a.py", "def f():\n    return 1\n");
    for bad in ["not-a-sha", ""] {
        let runs: Vec<Vec<&str>> = vec![
            vec![
                "transform",
                "a.py",
                "--old",
                "1",
                "--new",
                "2",
                "--expected-checksum",
                bad,
            ],
            vec![
                "patch",
                "--file",
                "a.py",
                "--symbol",
                "f",
                "--delete",
                "--expected-checksum",
                bad,
            ],
            vec![
                "write",
                "a.py",
                "--overwrite",
                "--content",
                "x = 1\n",
                "--expected-checksum",
                bad,
            ],
        ];
        for mut args in runs {
            args.push("--json");
            let (v, rc) = env.json(&args);
            assert_eq!((rc, code(&v)), (2, "LLM_E116"), "{args:?}: {v}");
        }
        let req = serde_json::json!({"file_path": "a.py", "expected_checksum": bad,
            "edits": [{"byte_start": 0, "byte_end": 3, "new_content": "def"}]});
        let out = env
            .llm(&["transform", "--json"])
            .write_stdin(req.to_string())
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(code(&v), "LLM_E116", "{v}");
    }
    assert_eq!(env.read("a.py"), b"def f():\n    return 1\n");
}

#[test]
fn contradictory_edit_requests_are_refused() {
    let env = TestEnv::new();
    env.write("t.txt", "alpha\nbeta\n");
    let requests = [
        // A span and flat offsets that differ.
        r#"{"file_path":"t.txt","edits":[{"byte_start":0,"byte_end":5,"span":{"byte_start":6,"byte_end":10},"new_content":"X"}]}"#,
        // Bytes and the line/column given with them disagree.
        r#"{"file_path":"t.txt","edits":[{"byte_start":6,"byte_end":10,"start_line":1,"start_col":0,"end_line":1,"end_col":4,"new_content":"X"}]}"#,
        r#"{"file_path":"t.txt","edits":[{"span":{"byte_start":0,"byte_end":5,"start_line":2,"start_col":0,"end_line":2,"end_col":4},"new_content":"X"}]}"#,
        // The same key twice.
        r#"{"file_path":"t.txt","edits":[{"byte_start":0,"byte_end":5,"new_content":"X","new_content":"Y"}]}"#,
        r#"{"file_path":"t.txt","file_path":"u.txt","edits":[{"byte_start":0,"byte_end":5,"new_content":"X"}]}"#,
    ];
    for r in requests {
        let out = env
            .llm(&["transform", "--json"])
            .write_stdin(r)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (out.status.code(), code(&v)),
            (Some(2), "TRANSFORM_E001"),
            "{r}: {v}"
        );
    }
    assert_eq!(env.read("t.txt"), b"alpha\nbeta\n");
    // Positions that agree (as llm prints spans) are applied.
    let ok = r#"{"file_path":"t.txt","edits":[{"span":{"byte_start":6,"byte_end":10,"start_line":2,"start_col":0,"end_line":2,"end_col":4},"new_content":"gamma"}]}"#;
    let out = env
        .llm(&["transform", "--json"])
        .write_stdin(ok)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(env.read("t.txt"), b"alpha\ngamma\n");
}

#[test]
fn a_regular_file_as_root_is_refused() {
    let env = TestEnv::new();
    env.write("a.txt", "x\n");
    for args in [
        vec![
            "transform",
            "a.txt",
            "--old",
            "x",
            "--new",
            "y",
            "--root",
            "a.txt",
            "--json",
        ],
        vec![
            "write",
            "b.txt",
            "--content",
            "y",
            "--root",
            "a.txt",
            "--json",
        ],
    ] {
        let (v, rc) = env.json(&args);
        assert_eq!((rc, code(&v)), (2, "LLM_E108"), "{v}");
        assert!(v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a directory"));
    }
    assert!(!env.path().join("b.txt").exists());
}

#[test]
fn paths_longer_than_path_max_into_existing_directories_work() {
    let env = TestEnv::new();
    // 25 directories of 200 bytes: 5,000+ bytes, past PATH_MAX; made one level at a time.
    let name = "d".repeat(200);
    let mut dir = rustix::fs::open(
        env.path(),
        rustix::fs::OFlags::RDONLY,
        rustix::fs::Mode::empty(),
    )
    .unwrap();
    for _ in 0..25 {
        rustix::fs::mkdirat(&dir, name.as_str(), rustix::fs::Mode::from_raw_mode(0o755)).unwrap();
        dir = rustix::fs::openat(
            &dir,
            name.as_str(),
            rustix::fs::OFlags::RDONLY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
    }
    let long = vec![name.as_str(); 25].join("/") + "/new.txt";
    let (v, rc) = env.json(&["write", &long, "--content", "x = 1\n", "--json"]);
    assert_eq!(rc, 0, "{}", &v.to_string()[..300.min(v.to_string().len())]);
    let (v, rc) = env.json(&["transform", &long, "--old", "1", "--new", "2", "--json"]);
    assert_eq!(rc, 0, "{}", v["error"]);
    let fd = rustix::fs::openat(
        &dir,
        "new.txt",
        rustix::fs::OFlags::RDONLY,
        rustix::fs::Mode::empty(),
    )
    .unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::fs::File::from(fd), &mut text).unwrap();
    assert_eq!(text, "x = 2\n");
}

#[test]
fn link_dotdot_edits_the_file_a_read_of_it_gets() {
    let env = TestEnv::new();
    env.write("f.txt", "top = 1\n");
    env.write("sub/f.txt", "sub = 1\n");
    std::fs::create_dir(env.path().join("sub/x")).unwrap();
    std::os::unix::fs::symlink("sub/x", env.path().join("link")).unwrap();
    // The OS resolves link/../f.txt to sub/f.txt: that file is read, checked and written.
    let (v, rc) = env.json(&[
        "transform",
        "link/../f.txt",
        "--old",
        "1",
        "--new",
        "2",
        "--json",
    ]);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["files"][0]["file_path"], "sub/f.txt");
    assert_eq!(env.read("sub/f.txt"), b"sub = 2\n");
    assert_eq!(env.read("f.txt"), b"top = 1\n");
    // A `..` that leaves the root is refused.
    let (v, rc) = env.json(&[
        "transform",
        "sub/../../f.txt",
        "--old",
        "1",
        "--new",
        "2",
        "--json",
    ]);
    assert_eq!((rc, code(&v)), (2, "LLM_E107"), "{v}");
}

#[test]
fn human_output_escapes_control_characters_in_file_names() {
    let env = TestEnv::new();
    let name = "a\nok: fake.txt\x1b[31m";
    env.write(name, "v = 1\n");
    let out = env
        .llm(&["transform", name, "--old", "1", "--new", "2", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\x1b'), "{text:?}");
    assert!(!text.lines().any(|l| l.starts_with("ok: fake")), "{text:?}");
    assert!(text.contains("a\\nok: fake.txt\\u{1b}[31m"), "{text:?}");
}

#[test]
fn names_json_cannot_spell_are_never_mutation_targets() {
    let env = TestEnv::new();
    // A name that is not UTF-8, and the name its lossy spelling gives (which exists too).
    std::fs::write(env.path().join(OsStr::from_bytes(b"n\xff.txt")), "v = 1\n").unwrap();
    env.write("n\u{FFFD}.txt", "v = 1\n");
    let out = env
        .llm(&["search", "v = 1", ".", "-r", "v = 2", "--json"])
        .output()
        .unwrap();
    let piped = out.stdout;
    let out = env
        .llm(&["transform", "--json"])
        .write_stdin(piped)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(code(&v), "LLM_E112", "{v}");
    assert_eq!(env.read("n\u{FFFD}.txt"), b"v = 1\n");
    assert_eq!(
        std::fs::read(env.path().join(OsStr::from_bytes(b"n\xff.txt"))).unwrap(),
        b"v = 1\n"
    );
    // Named directly, either spelling is refused too.
    let (v, _) = env.json(&[
        "transform",
        "n\u{FFFD}.txt",
        "--old",
        "1",
        "--new",
        "2",
        "--json",
    ]);
    assert_eq!(code(&v), "LLM_E112", "{v}");
}
