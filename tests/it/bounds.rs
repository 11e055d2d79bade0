//! Hostile shapes of source through the real binary (one long word, one item holding a name
//! thousands of times, deep nesting): `find` and `ast` stay linear in time and bounded in
//! memory. Each size is one where the old code took several seconds or hundreds of MB; the
//! bounds are generous (debug build, a busy machine).

use crate::util::TestEnv;
use std::os::unix::process::CommandExt;
use std::process::Output;
use std::time::{Duration, Instant};

/// `llm ARGS --json -j1` in `env`, its address space capped at `mem` bytes (an allocation past
/// it fails and the run aborts), and how long it took.
fn run_limited(env: &TestEnv, args: &[&str], mem: u64) -> (Output, Duration) {
    let mut cmd = limited(env, args, mem);
    cmd.args(["--json", "-j1"]);
    let started = Instant::now();
    let out = cmd.output().unwrap();
    (out, started.elapsed())
}

/// `llm ARGS` in `env`, its address space capped at `mem` bytes.
fn limited(env: &TestEnv, args: &[&str], mem: u64) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"));
    cmd.current_dir(env.path()).args(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: mem,
                rlim_max: mem,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// The run's envelope; it must have exited with `code` (not aborted).
fn envelope_of(out: &Output, code: i32, what: &str) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const MB: u64 = 1 << 20;

#[test]
fn a_missing_name_beside_one_long_word_is_suggested_for_in_bounded_memory() {
    // One 4 MB word: the "did you mean" pass measured it against the 64-char name in a full
    // edit-distance table, 9 bytes a cell: 2.3 GB.
    let env = TestEnv::new();
    env.write("w.js", "a".repeat(4_000_000));
    env.write(
        "s.py",
        format!("x = \"{}\"\ndef parse(): pass\n", "b".repeat(4_000_000)),
    );
    let name = "z".repeat(64);
    for (file, args) in [
        ("w.js", vec!["find", name.as_str(), "w.js"]),
        ("w.js", vec!["find", "--refs", name.as_str(), "w.js"]),
        ("s.py", vec!["find", "prase", "s.py"]),
    ] {
        let (out, took) = run_limited(&env, &args, 400 * MB);
        let v = envelope_of(&out, 1, file);
        assert_eq!(v["status"], "no_matches", "{args:?}: {v}");
        assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
        // A close name is still suggested.
        if file == "s.py" {
            assert!(
                v["diagnostics"][0]["remediation"]
                    .to_string()
                    .contains("`parse`"),
                "{v}"
            );
        }
    }
}

#[test]
fn a_missing_one_letter_name_parses_nothing_for_its_suggestions() {
    // Every name with an `a` in it (here `pass`) was taken for a suggestion of `a`, and the
    // whole file parsed to see whether it is defined: 420 MB on 200,000 definitions.
    let env = TestEnv::new();
    let text: String = (0..200_000)
        .map(|i| format!("def f{i}(): pass\n"))
        .collect();
    env.write("many.py", text);
    let (out, _) = run_limited(&env, &["find", "a", "many.py"], 200 * MB);
    let v = envelope_of(&out, 1, "find a");
    assert_eq!(v["status"], "no_matches", "{v}");
}

#[test]
fn a_name_used_thousands_of_times_in_one_item_is_found_in_linear_time() {
    // Each occurrence of NAME walked the item's children again (one ranged query walk per
    // occurrence): 4,000 calls in one Go function took 2.9 s (debug), 8,000 about 12 s.
    let env = TestEnv::new();
    let n = 8000;
    env.write(
        "q.go",
        format!("package p\nfunc main() {{\n{}}}\n", "\ta(1)\n".repeat(n)),
    );
    env.write(
        "q.java",
        format!("class A {{ void m() {{\n{}}} }}\n", "  a(1);\n".repeat(n)),
    );
    env.write(
        "q.c",
        format!("int main() {{\n{}}}\n", "  a(1);\n".repeat(n)),
    );
    env.write(
        "q.js",
        format!("var x = [{}];\n", "{a: function(){}},\n".repeat(n)),
    );
    for file in ["q.go", "q.java", "q.c", "q.js"] {
        for refs in [false, true] {
            let mut args = vec!["find", "a", file];
            if refs {
                args.insert(1, "--refs");
            }
            let (out, took) = run_limited(&env, &args, 1 << 30);
            let code = if refs || file == "q.js" { 0 } else { 1 };
            let v = envelope_of(&out, code, file);
            assert!(took < Duration::from_secs(5), "{args:?}: {took:?}");
            if code == 0 {
                assert_eq!(v["data"]["match_count"], n, "{args:?}");
            }
        }
    }
}

#[test]
fn a_reference_deep_in_nested_brackets_is_found_in_linear_time() {
    // Whether the reference lies in a definition's prefix was judged climbing `Node::parent`
    // from it, each step a descent from the root: 5,000 levels took 0.8 s (Rust, debug) to
    // 10 s (Bash), 20,000 levels 17 s.
    let env = TestEnv::new();
    let n = 20_000;
    let deep = format!("{}zq{}", "(".repeat(n), ")".repeat(n));
    env.write("d.rs", format!("fn a() {{ let y = {deep}; }}\n"));
    env.write("d.py", format!("def a():\n    y = {deep}\n"));
    env.write(
        "d.go",
        format!("package p\nfunc a() {{ y := {deep}\n_ = y }}\n"),
    );
    env.write("d.ts", format!("function a() {{ let y = {deep}; }}\n"));
    env.write(
        "d.sh",
        format!(
            "f() {{ echo {}zq{} ; }}\n",
            "$(".repeat(8000),
            ")".repeat(8000)
        ),
    );
    for file in ["d.rs", "d.py", "d.go", "d.ts", "d.sh"] {
        let (out, took) = run_limited(&env, &["find", "--refs", "zq", file], 1 << 30);
        let v = envelope_of(&out, 0, file);
        assert_eq!(v["data"]["match_count"], 1, "{file}: {v}");
        assert!(took < Duration::from_secs(5), "{file}: {took:?}");
    }
}

#[test]
fn ast_human_output_keeps_only_the_first_line_of_nested_captures() {
    // Each of 20,000 nested pairs kept its whole text (1.25 GB); human output shows the first
    // line of each, so no more is kept.
    let env = TestEnv::new();
    let n = 20_000;
    env.write(
        "ml.js",
        format!("var x = {}1{};\n", "{a:\n".repeat(n), "}\n".repeat(n)),
    );
    let args = ["ast", "(pair) @p", "ml.js", "-j1", "--color", "never"];
    let mut cmd = limited(&env, &args, 300 * MB);
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), n);
    // Each line: the pair's first line, and a mark that more follows.
    assert!(
        text.lines().all(|l| l.ends_with("@p a: …")),
        "{}",
        &text[..200]
    );
}

/// How each reference is used is read off the ancestors of the walk that found it, not asked
/// of tree-sitter node by node (`Node::parent` descends from the root): `find --refs a` in
/// JavaScript's `{a: {a: …}}` 2,000 levels deep took 1.5 s in a release build, 39 s in debug
/// at 1,000.
#[test]
fn references_in_deeply_nested_keys_are_labelled_in_linear_time() {
    let env = TestEnv::new();
    let n = 3_000;
    env.write(
        "nest.js",
        format!("var x = {}1{};\n", "{a:".repeat(n), "}".repeat(n)),
    );
    let (out, took) = run_limited(&env, &["find", "--refs", "a", "nest.js"], 1024 * MB);
    let v = envelope_of(&out, 0, "find --refs");
    assert_eq!(v["data"]["matches"].as_array().unwrap().len(), n);
    // About 1.5 s in a debug build, and over 5 s on a machine loaded by four builds; the
    // quadratic walk this guards against took minutes at this depth.
    assert!(took < Duration::from_secs(30), "took {took:?}");
}
