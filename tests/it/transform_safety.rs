//! The mutation safety claims, each proven through the real `llm transform` binary: format
//! preservation, permissions, symlinks, refused edits, compare-and-swap under races,
//! all-or-nothing requests, kills mid-write, syntax validation, confinement, hard links,
//! dry runs; and a property test against a reference implementation of edit application.

use crate::transform::{code, request, transform};
use crate::util::sha;
use crate::util::TestEnv;
use proptest::prelude::*;
use serde_json::json;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("llm")
}

#[test]
fn crlf_bom_tabs_and_missing_final_newline_are_preserved() {
    let env = TestEnv::new();
    let before = "\u{feff}fn a() {\r\n\tlet x = 1;\r\n}";
    env.write("a.rs", before);
    let (v, rc) = transform(
        &env,
        &[
            "a.rs",
            "--old",
            "let x = 1;",
            "--new",
            "let x = 1;\nlet y = 2;",
        ],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        env.read("a.rs"),
        "\u{feff}fn a() {\r\n\tlet x = 1;\r\nlet y = 2;\r\n}".as_bytes()
    );
    assert_eq!(v["result"]["files"][0]["line_ending"], "crlf");
    assert_eq!(v["result"]["files"][0]["bom"], true);
    // --raw-line-endings keeps the inserted text byte for byte.
    let (v, rc) = transform(
        &env,
        &[
            "a.rs",
            "--old",
            "let y = 2;",
            "--new",
            "let y = 2;\nlet z = 3;",
            "--raw-line-endings",
        ],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        env.read("a.rs"),
        "\u{feff}fn a() {\r\n\tlet x = 1;\r\nlet y = 2;\nlet z = 3;\r\n}".as_bytes()
    );
    // A byte edit next to the BOM keeps it; tabs and the missing final newline stay.
    let sum = sha(&env.read("a.rs"));
    let req = request("a.rs", Some(&sum), &[(3, 5, "pub fn")]);
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!(rc, 0, "{v}");
    let after = env.read("a.rs");
    assert!(after.starts_with("\u{feff}pub fn a() {\r\n\t".as_bytes()));
    assert!(after.ends_with(b"\r\n}"));
}

#[test]
fn mode_bits_are_kept() {
    let env = TestEnv::new();
    let p = env.write("run.sh", "echo one\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o754)).unwrap();
    let ro = env.write("ro.txt", "frozen\n");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (v, rc) = transform(&env, &["run.sh", "--old", "one", "--new", "two"], "");
    assert_eq!(rc, 0, "{v}");
    // A read-only file is refused (as editors warn) unless --force; forced, it keeps its mode.
    let (v, rc) = transform(&env, &["ro.txt", "--old", "frozen", "--new", "thawed"], "");
    assert_eq!((rc, code(&v)), (1, "LLM_E113"), "{v}");
    assert_eq!(env.read("ro.txt"), b"frozen\n");
    let (v, rc) = transform(
        &env,
        &["ro.txt", "--old", "frozen", "--new", "thawed", "--force"],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("ro.txt"), b"thawed\n");
    assert_eq!(env.read("run.sh"), b"echo two\n");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&p), 0o754);
    assert_eq!(mode(&ro), 0o444);
}

#[test]
fn symlink_target_is_written_and_link_kept() {
    let env = TestEnv::new();
    env.write("real/target.txt", "value = 1\n");
    std::os::unix::fs::symlink("real/target.txt", env.path().join("link.txt")).unwrap();
    let (v, rc) = transform(&env, &["link.txt", "--old", "1", "--new", "2"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(env.read("real/target.txt"), b"value = 2\n");
    let meta = std::fs::symlink_metadata(env.path().join("link.txt")).unwrap();
    assert!(meta.file_type().is_symlink(), "the link must stay a link");
}

#[test]
fn bad_edits_are_refused_and_the_file_untouched() {
    let env = TestEnv::new();
    let text = "héllo wörld\n";
    env.write("u.txt", text);
    type Edits<'a> = &'a [(usize, usize, &'a str)];
    let cases: &[(Edits, &str)] = &[
        (&[(0, 4, "a"), (3, 6, "b")], "LLM_E104"),
        (&[(0, 4, "a"), (3, 3, "b")], "LLM_E104"),
        (&[(10, 99, "x")], "LLM_E103"),
        (&[(5, 2, "x")], "LLM_E103"),
        (&[(2, 3, "x")], "LLM_E105"),
        (&[(0, 0, "ok"), (9, 9, "x")], "LLM_E105"),
    ];
    for (edits, want) in cases {
        let (v, rc) = transform(&env, &[], &request("u.txt", None, edits).to_string());
        assert_eq!(
            (rc, code(&v), v["status"].as_str()),
            (2, *want, Some("error")),
            "{edits:?}: {v}"
        );
        assert!(v["error"]["remediation"].is_string());
        assert_eq!(env.read("u.txt"), text.as_bytes(), "{edits:?}");
    }
}

#[test]
fn checksum_mismatch_is_rejected() {
    let env = TestEnv::new();
    env.write("a.txt", "abc\n");
    let req = request("a.txt", Some(&sha(b"abd\n")), &[(0, 1, "z")]);
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!(
        (rc, code(&v), v["status"].as_str()),
        (1, "LLM_E101", Some("rejected"))
    );
    assert_eq!(env.read("a.txt"), b"abc\n");
}

#[test]
fn racing_writers_one_wins_no_lost_update() {
    let env = TestEnv::new();
    for round in 0..8 {
        let base = format!("round {round}: {}\n", "base line\n".repeat(2000));
        env.write("race.txt", &base);
        let sum = sha(base.as_bytes());
        let contents = [format!("A{round}\n"), format!("B{round}\n")];
        let mut children: Vec<_> = contents
            .iter()
            .map(|_| {
                Command::new(bin())
                    .args(["--json", "transform"])
                    .current_dir(env.path())
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (child, new) in children.iter_mut().zip(&contents) {
            let req = request("race.txt", Some(&sum), &[(0, base.len(), new)]);
            child
                .stdin
                .take()
                .unwrap()
                .write_all(req.to_string().as_bytes())
                .unwrap();
        }
        let results: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let codes: Vec<i32> = results.iter().map(|o| o.status.code().unwrap()).collect();
        let winners: Vec<usize> = (0..2).filter(|&i| codes[i] == 0).collect();
        assert_eq!(winners.len(), 1, "round {round}: exit codes {codes:?}");
        let loser = 1 - winners[0];
        assert_eq!(codes[loser], 1, "round {round}");
        let v: serde_json::Value = serde_json::from_slice(&results[loser].stdout).unwrap();
        assert!(["LLM_E101", "LLM_E102"].contains(&code(&v)), "{v}");
        assert_eq!(
            env.read("race.txt"),
            contents[winners[0]].as_bytes(),
            "round {round}"
        );
    }
}

#[test]
fn multi_file_request_is_all_or_nothing() {
    let env = TestEnv::new();
    env.write("one.txt", "1\n");
    env.write("two.txt", "2\n");
    env.write("three.rs", "fn three() {}\n");
    let snapshot = || {
        (
            env.read("one.txt"),
            env.read("two.txt"),
            env.read("three.rs"),
        )
    };
    let before = snapshot();
    let failing_last = [
        // A stale checksum on the last file.
        request("three.rs", Some(&sha(b"other")), &[(0, 2, "pub fn")]),
        // An out-of-range edit on the last file.
        request("three.rs", None, &[(0, 999, "x")]),
        // A syntax error in the last file.
        request("three.rs", None, &[(12, 13, "")]),
    ];
    for last in failing_last {
        let req = json!([
            request("one.txt", Some(&sha(b"1\n")), &[(0, 1, "one")]),
            request("two.txt", None, &[(0, 1, "two")]),
            last
        ]);
        let (v, rc) = transform(&env, &[], &req.to_string());
        assert_ne!(rc, 0, "{v}");
        assert_eq!(snapshot(), before, "{v}");
    }
    let req = json!([
        request("one.txt", None, &[(0, 1, "one")]),
        request("two.txt", None, &[(0, 1, "two")]),
        request("three.rs", None, &[(0, 2, "pub fn")]),
    ]);
    let (v, rc) = transform(&env, &[], &req.to_string());
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["files"].as_array().unwrap().len(), 3);
    assert_eq!(
        snapshot(),
        (
            b"one\n".to_vec(),
            b"two\n".to_vec(),
            b"pub fn three() {}\n".to_vec()
        )
    );
}

/// A tiny deterministic generator (no extra dependency).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn killed_mid_write_leaves_old_or_new_never_a_mix() {
    let env = TestEnv::new();
    let line = |c: char| format!("{}\n", c.to_string().repeat(256 * 1024 - 1));
    let old: String = (0..24).map(|_| line('a')).collect();
    let new: String = (0..24).map(|_| line('b')).collect();
    env.write(
        "req.json",
        request("big.txt", None, &[(0, old.len(), &new)]).to_string(),
    );
    let run = || {
        Command::new(bin())
            .args(["--json", "transform", "--edits", "req.json"])
            .current_dir(env.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // How long one full run takes here.
    env.write("big.txt", &old);
    let t = Instant::now();
    assert!(run().wait().unwrap().success());
    let full = t.elapsed().as_micros() as u64;
    assert_eq!(env.read("big.txt"), new.as_bytes());
    let mut rng = Lcg(full ^ 0x9e37_79b9_7f4a_7c15);
    let (mut saw_old, mut saw_new) = (0, 0);
    for round in 0..20 {
        env.write("big.txt", &old);
        let mut child = run();
        std::thread::sleep(Duration::from_micros(rng.below(full + full / 5)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = env.read("big.txt");
        if now == old.as_bytes() {
            saw_old += 1;
        } else if now == new.as_bytes() {
            saw_new += 1;
        } else {
            panic!(
                "round {round}: the file is neither the old nor the new content ({} bytes)",
                now.len()
            );
        }
    }
    eprintln!("full run {full}µs; after a kill: {saw_old} old, {saw_new} new");
    assert_eq!(saw_old + saw_new, 20);
}

#[test]
fn introduced_syntax_errors_are_rejected_with_their_location() {
    let env = TestEnv::new();
    let rs = "fn main() {\n    let x = compute(1, 2);\n}\n";
    env.write("m.rs", rs);
    let (v, rc) = transform(
        &env,
        &["m.rs", "--old", "compute(1, 2)", "--new", "compute(1, 2"],
        "",
    );
    assert_eq!((rc, code(&v)), (1, "LLM_E106"), "{v}");
    let d = &v["diagnostics"][0];
    assert_eq!(d["span"]["start_line"], 2, "{v}");
    assert!(d["note"].as_str().unwrap().contains("compute(1, 2;"), "{v}");
    assert_eq!(env.read("m.rs"), rs.as_bytes());

    let py = "def f(x):\n    return x + 1\n";
    env.write("f.py", py);
    let (v, rc) = transform(
        &env,
        &["f.py", "--old", "return x + 1", "--new", "return (x + 1"],
        "",
    );
    assert_eq!((rc, code(&v)), (1, "LLM_E106"), "{v}");
    assert!(
        v["error"]["span"]["start_line"].as_u64().unwrap() >= 2,
        "{v}"
    );
    assert_eq!(env.read("f.py"), py.as_bytes());

    // --force writes anyway and reports the error as a warning.
    let (v, rc) = transform(
        &env,
        &[
            "f.py",
            "--old",
            "return x + 1",
            "--new",
            "return (x + 1",
            "--force",
        ],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["diagnostics"][0]["level"], "warning");
    assert_eq!(env.read("f.py"), b"def f(x):\n    return (x + 1\n");
}

#[test]
fn pre_existing_syntax_error_elsewhere_does_not_block() {
    let env = TestEnv::new();
    let rs = "fn broken( {\n}\n\nfn fine() -> u32 {\n    1\n}\n";
    env.write("b.rs", rs);
    let (v, rc) = transform(&env, &["b.rs", "--old", "    1\n", "--new", "    2\n"], "");
    assert_eq!(rc, 0, "{v}");
    assert_eq!(
        env.read("b.rs"),
        rs.replace("    1\n", "    2\n").as_bytes()
    );
}

#[test]
fn confinement_outside_root_and_escaping_symlinks() {
    let outside = TestEnv::new();
    outside.write("secret.txt", "keep\n");
    let env = TestEnv::new();
    env.write("proj/in.txt", "in\n");
    let secret = outside.path().join("secret.txt");
    std::os::unix::fs::symlink(&secret, env.path().join("proj/escape.txt")).unwrap();
    let abs = secret.to_string_lossy().to_string();
    for target in [abs.as_str(), "proj/escape.txt"] {
        let (v, rc) = transform(
            &env,
            &["--root", "proj", target, "--old", "keep", "--new", "lost"],
            "",
        );
        assert_eq!((rc, code(&v)), (2, "LLM_E107"), "{target}: {v}");
        let (v, rc) = transform(
            &env,
            &["--root", "proj"],
            &request(target, None, &[(0, 4, "lost")]).to_string(),
        );
        assert_eq!((rc, code(&v)), (2, "LLM_E107"), "{target}: {v}");
    }
    // `..` out of the root.
    let (v, rc) = transform(
        &env,
        &["--root", "proj"],
        &request("proj/../x.txt", None, &[(0, 0, "x")]).to_string(),
    );
    assert_eq!((rc, code(&v)), (2, "LLM_E107"), "{v}");
    assert_eq!(std::fs::read(&secret).unwrap(), b"keep\n");
    // Allowed when asked for.
    let (v, rc) = transform(
        &env,
        &[
            "--allow-outside-root",
            &abs,
            "--old",
            "keep",
            "--new",
            "kept",
        ],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(std::fs::read(&secret).unwrap(), b"kept\n");
}

#[test]
fn hard_linked_files_are_refused() {
    let env = TestEnv::new();
    env.write("a.txt", "shared\n");
    std::fs::hard_link(env.path().join("a.txt"), env.path().join("b.txt")).unwrap();
    let (v, rc) = transform(&env, &["a.txt", "--old", "shared", "--new", "split"], "");
    assert_eq!((rc, code(&v)), (2, "LLM_E109"), "{v}");
    assert!(v["error"]["remediation"].as_str().unwrap().contains("cp "));
    assert_eq!(env.read("a.txt"), b"shared\n");
    assert_eq!(env.read("b.txt"), b"shared\n");
}

#[test]
fn dry_run_writes_nothing_and_shows_a_diff() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    let (v, rc) = transform(
        &env,
        &["a.txt", "--old", "two", "--new", "2", "--dry-run"],
        "",
    );
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["result"]["dry_run"], true);
    let diff = v["result"]["files"][0]["diff"].as_str().unwrap();
    assert!(diff.contains("-two\n+2\n"), "{diff}");
    let out = env
        .llm(&[
            "transform",
            "a.txt",
            "--old",
            "two",
            "--new",
            "2",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("+2"));
    assert_eq!(env.read("a.txt"), b"one\ntwo\n");
    // The journal (.llm/) aside.
    let names: Vec<_> = std::fs::read_dir(env.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".llm")
        .collect();
    assert_eq!(names.len(), 1, "no temp files left: {names:?}");
}

/// The reference: validate naively, then splice from the last edit backwards.
fn reference(text: &str, edits: &[(usize, usize, String)]) -> Option<Vec<u8>> {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| (edits[i].0, edits[i].1, i));
    for &i in &order {
        let (s, e, _) = &edits[i];
        if s > e || *e > text.len() || !text.is_char_boundary(*s) || !text.is_char_boundary(*e) {
            return None;
        }
    }
    for w in order.windows(2) {
        if edits[w[0]].1 > edits[w[1]].0 {
            return None;
        }
    }
    let mut out = text.as_bytes().to_vec();
    for &i in order.iter().rev() {
        let (s, e, t) = &edits[i];
        out.splice(*s..*e, t.bytes());
    }
    Some(out)
}

fn edits_strategy() -> impl Strategy<Value = (String, Vec<(usize, usize, String)>)> {
    "[a-cé\n\r\t€]{0,24}".prop_flat_map(|text| {
        let n = text.len() + 2;
        let edit = (0..=n, 0..=n, "[xyé\n]{0,4}").prop_map(|(a, b, t)| (a.min(b), a.max(b), t));
        (Just(text), prop::collection::vec(edit, 0..5))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn edit_apply_matches_reference((text, edits) in edits_strategy()) {
        let core: Vec<llm::edit::Edit> = edits.iter().map(|(s, e, t)| llm::edit::Edit::new(*s..*e, t.as_bytes())).collect();
        let got = llm::edit::apply(text.as_bytes(), &core, "f").ok().map(|a| a.bytes);
        prop_assert_eq!(got, reference(&text, &edits));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn binary_matches_reference((text, edits) in edits_strategy()) {
        let env = TestEnv::new();
        env.write("p.txt", &text);
        let req = json!({"file_path": "p.txt", "expected_checksum": sha(text.as_bytes()),
            "edits": edits.iter().map(|(s, e, t)| json!({"byte_start": s, "byte_end": e, "new_content": t})).collect::<Vec<_>>()});
        let (v, rc) = transform(&env, &["--raw-line-endings"], &req.to_string());
        match reference(&text, &edits) {
            Some(_) if edits.is_empty() => prop_assert_eq!(rc, 2),
            Some(want) => {
                prop_assert_eq!(rc, 0, "{}", v);
                prop_assert_eq!(env.read("p.txt"), want);
            }
            None => {
                prop_assert_eq!(rc, 2, "{}", v);
                prop_assert_eq!(env.read("p.txt"), text.as_bytes());
            }
        }
    }
}

#[test]
fn a_failed_rename_restores_the_files_already_replaced() {
    let env = TestEnv::new();
    env.write("one.txt", "1\n");
    env.write("sub/two.txt", "2\n");
    env.write("three.txt", "3\n");
    let req = json!([
        request("one.txt", None, &[(0, 1, "one")]),
        request("sub/two.txt", None, &[(0, 1, "two")]),
        request("three.txt", None, &[(0, 1, "three")]),
    ]);
    // The debug binary's test hook fails the rename of the last file, after two were replaced.
    let out = env
        .llm(&["--json", "transform"])
        .env("LLM_FAILPOINT_INSTALL", "2")
        .write_stdin(req.to_string())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out.status.code(), code(&v)), (Some(2), "LLM_E110"), "{v}");
    assert!(
        v["error"]["note"]
            .as_str()
            .unwrap()
            .contains("2 file(s) already replaced in this request were restored"),
        "{v}"
    );
    assert_eq!(env.read("one.txt"), b"1\n");
    assert_eq!(env.read("sub/two.txt"), b"2\n");
    assert_eq!(env.read("three.txt"), b"3\n");
    let leftovers = |dir: &str| {
        std::fs::read_dir(env.path().join(dir))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    assert_eq!(
        leftovers(".") + leftovers("sub"),
        0,
        "temp files cleaned up"
    );
}
