//! What the third differential run against ripgrep 13 (the flags built on 2026-11-27:
//! `--null-data`, `--stats`, `-E`, `--pre`, `-z`) found and was changed to match rg. The
//! outputs expected are rg 13's (`rg -n --column --sort path`, run on the same fixtures),
//! written out: rg is not needed at test time.

use crate::search::human_bytes;
use crate::util::TestEnv;

/// Human stdout without `--stats`' two timing lines, and the exit code.
fn out(env: &TestEnv, args: &[&str]) -> (String, i32) {
    let base = ["-n", "--column", "--sort", "path"];
    let (out, _, code) = human_bytes(env, &[&base[..], args].concat());
    let text = String::from_utf8(out).unwrap();
    let kept: Vec<&str> = (text.split_inclusive('\n'))
        .filter(|l| !l.trim_end().ends_with(" seconds") && !l.ends_with("spent searching\n"))
        .collect();
    (kept.concat(), code)
}

#[test]
fn null_data_keeps_the_nuls_and_separators_the_printer_adds() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\0bar\nfoo\0");
    env.write("sub/b.txt", "x foo\0");
    let cases: &[(&[&str], &str)] = &[
        (
            &["-0", "foo"],
            "a.txt\x001:1:foo\x00a.txt\x002:5:bar\nfoo\x00sub/b.txt\x001:3:x foo\x00",
        ),
        (&["-0", "-c", "foo"], "a.txt\x002\x00sub/b.txt\x001\x00"),
        (&["-0", "-l", "foo"], "a.txt\x00sub/b.txt\x00"),
        (
            &["--field-match-separator", "\\x00", "foo"],
            "a.txt\x001\x001\x00foo\x00a.txt\x002\x005\x00bar\nfoo\x00sub/b.txt\x001\x003\x00x foo\x00",
        ),
        (
            &["-0", "--heading", "foo"],
            "a.txt\x001:1:foo\x002:5:bar\nfoo\x00\x00sub/b.txt\x001:3:x foo\x00",
        ),
    ];
    for (args, want) in cases {
        let args = [&["--null-data"][..], args].concat();
        assert_eq!(out(&env, &args), (want.to_string(), 0), "{args:?}");
    }
}

#[test]
fn stats_counts_what_rg_13_counts() {
    let env = TestEnv::new();
    env.write("a.txt", "foo\nbar\nfoo foo\n");
    env.write("b.bin", "foo\0bin\n");
    env.write("c.txt", "nothing\n");
    // Every match (not each line's first), a walked binary file as searched, no match under
    // -v, and -q, -c, -l, --files-without-match counting the whole of each file.
    let block = |matches: u32, lines: u32, with: u32, printed: u32| {
        format!(
            "\n{matches} matches\n{lines} matched lines\n{with} files contained matches\n3 files \
searched\n{printed} bytes printed\n24 bytes searched\n"
        )
    };
    let cases: &[(&[&str], String)] = &[
        (
            &["foo"],
            "a.txt:1:1:foo\na.txt:3:1:foo foo\n".to_string() + &block(3, 2, 1, 32),
        ),
        (
            &["-v", "foo"],
            "a.txt:2:bar\nc.txt:1:nothing\n".to_string() + &block(0, 2, 2, 28),
        ),
        (&["-q", "foo"], block(3, 2, 1, 0)),
        (&["-c", "foo"], "a.txt:2\n".to_string() + &block(3, 2, 1, 0)),
        (&["-l", "foo"], "a.txt\n".to_string() + &block(3, 2, 1, 0)),
        (
            &["--files-without-match", "foo"],
            "c.txt\n".to_string() + &block(3, 2, 1, 0),
        ),
    ];
    for (args, want) in cases {
        let args = [&["--stats"][..], args].concat();
        assert_eq!(out(&env, &args), (want.clone(), 0), "{args:?}");
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new("gzip")
        .arg("-c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    child.wait_with_output().unwrap().stdout
}

/// a.txt.gz and u16.txt.gz (UTF-16LE with a byte-order mark, compressed), p.txt, and pre.sh
/// (upper-cases its file).
fn zip_tree() -> TestEnv {
    let env = TestEnv::new();
    env.write("a.txt.gz", gzip(b"foo\n"));
    let mut u16 = vec![0xff, 0xfe];
    u16.extend("foo\n".encode_utf16().flat_map(u16::to_le_bytes));
    env.write("u16.txt.gz", gzip(&u16));
    env.write("p.txt", "foo\n");
    let pre = env.write("pre.sh", "#!/bin/sh\ntr a-z A-Z < \"$1\"\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(pre, std::fs::Permissions::from_mode(0o755)).unwrap();
    env
}

#[test]
fn the_last_of_pre_and_search_zip_wins_as_rg_13() {
    let env = zip_tree();
    let cases: &[(&[&str], &str)] = &[
        // -z after --pre: no --pre at all (p.txt as it is).
        (
            &["--pre", "./pre.sh", "-z", "-i", "foo", "a.txt.gz", "p.txt"],
            "a.txt.gz:1:1:foo\np.txt:1:1:foo\n",
        ),
        (
            &["-z", "--pre", "./pre.sh", "-i", "foo", "p.txt"],
            "1:1:FOO\n",
        ),
        (
            &[
                "--pre",
                "./pre.sh",
                "-z",
                "--no-search-zip",
                "-i",
                "foo",
                "p.txt",
            ],
            "1:1:foo\n",
        ),
    ];
    for (args, want) in cases {
        assert_eq!(out(&env, args), (want.to_string(), 0), "{args:?}");
    }
}

#[test]
fn decompressed_text_is_decoded_as_a_file_would_be() {
    let env = zip_tree();
    // A UTF-16 byte-order mark in the decompressed text (-E auto), and -E itself.
    assert_eq!(
        out(&env, &["-z", "foo", "u16.txt.gz"]),
        ("1:1:foo\n".into(), 0)
    );
    assert_eq!(
        out(&env, &["-E", "utf-16le", "-z", "foo", "a.txt.gz"]),
        (String::new(), 1)
    );
}

#[test]
fn a_file_of_just_a_utf16_bom_is_empty_text() {
    let env = TestEnv::new();
    env.write("be2", [0xfe, 0xff]);
    env.write("le2", [0xff, 0xfe]);
    assert_eq!(
        out(&env, &["--count", "--include-zero", "", "be2", "le2"]),
        ("be2:0\nle2:0\n".into(), 1)
    );
    let stats = "\n0 matches\n0 matched lines\n0 files contained matches\n2 files searched\n0 \
bytes printed\n0 bytes searched\n";
    assert_eq!(
        out(&env, &["--passthru", "--stats", "x", "be2", "le2"]),
        (stats.into(), 1)
    );
}
