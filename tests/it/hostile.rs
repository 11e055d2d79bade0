//! Hostile input through the real binary: arguments that are not UTF-8, language servers that
//! lie about message sizes, never end a line or leave daemons behind. None may panic, hang or
//! grow memory without bound; each answers a coded error.

use crate::util::TestEnv;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

fn raw(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

/// Runs `llm` with raw arguments; the output must be one JSON envelope, never a panic.
fn envelope(env: &TestEnv, args: &[&OsStr]) -> (serde_json::Value, i32) {
    let out = crate::util::llm()
        .current_dir(env.path())
        .args(args)
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(101),
        "panic: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    crate::util::envelope(&out)
}

#[test]
fn non_utf8_arguments_never_panic() {
    let env = TestEnv::new();
    env.write("a.txt", "hello\n");
    let json = raw(b"--json");
    let cases: Vec<Vec<&OsStr>> = vec![
        vec![
            raw(b"transform"),
            raw(b"\xff.txt"),
            raw(b"--old"),
            raw(b"a"),
            raw(b"--new"),
            raw(b"b"),
            json,
        ],
        vec![
            raw(b"transform"),
            raw(b"a.txt"),
            raw(b"--old"),
            raw(b"\xffx"),
            raw(b"--new"),
            raw(b"b"),
            json,
        ],
        vec![raw(b"search"), raw(b"\xff"), raw(b"."), json],
        vec![raw(b"search"), raw(b"hello"), raw(b"\xfe"), json],
        vec![raw(b"find"), raw(b"\xff"), json],
        vec![raw(b"ast"), raw(b"(identifier)"), raw(b"\xff.rs"), json],
        vec![
            raw(b"patch"),
            raw(b"--file"),
            raw(b"\xff.py"),
            raw(b"--symbol"),
            raw(b"f"),
            raw(b"--delete"),
            json,
        ],
        vec![
            raw(b"write"),
            raw(b"\xff.txt"),
            raw(b"--content"),
            raw(b"x"),
            json,
        ],
    ];
    for args in &cases {
        let (v, code) = envelope(&env, args);
        let status = v["status"].as_str().unwrap_or_default();
        assert!(code == 1 || code == 2, "{args:?}: {v}");
        assert!(
            status == "error" || status == "no_matches" || status == "rejected",
            "{args:?}: {v}"
        );
        if status == "error" {
            assert!(v["error"]["code"].as_str().is_some(), "{args:?}: {v}");
        }
    }
    assert_eq!(env.read("a.txt"), b"hello\n");
    // A target whose name is not UTF-8 is refused (JSON could not spell it), never created.
    let (v, _) = envelope(&env, &cases[7]);
    assert_eq!(v["error"]["code"], "LLM_E112", "{v}");
    let names = std::fs::read_dir(env.path()).unwrap().flatten();
    assert_eq!(names.filter(|e| e.file_name() != ".llm").count(), 1);
    // A usage error asked for with --json is one JSON envelope, not a jsonl summary line.
    let (v, _) = envelope(&env, &[raw(b"find"), raw(b"\xff"), json]);
    assert!(v.get("type").is_none(), "{v}");
    assert_eq!(v["error"]["code"], "LLM_E001");
}

#[test]
fn bytes_given_as_content_are_written_as_they_are() {
    let env = TestEnv::new();
    let (v, code) = envelope(
        &env,
        &[
            raw(b"write"),
            raw(b"b.bin"),
            raw(b"--content"),
            raw(b"\xfe\x01k"),
            raw(b"--force"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("b.bin"), b"\xfe\x01k");
    // Without --force, bytes that are not UTF-8 are refused with a code (not a panic).
    let (v, code) = envelope(
        &env,
        &[
            raw(b"write"),
            raw(b"c.txt"),
            raw(b"--content"),
            raw(b"\xfe"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "WRITE_E003");
    // --old/--new bytes reach the file unchanged.
    env.write("t.txt", b"a\xffb\n");
    let (v, code) = envelope(
        &env,
        &[
            raw(b"transform"),
            raw(b"t.txt"),
            raw(b"--old"),
            raw(b"\xff"),
            raw(b"--new"),
            raw(b"\xfe"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("t.txt"), b"a\xfeb\n");
}

/// A scripted language server (Python) for `llm write --lsp`.
fn server(env: &TestEnv, name: &str, body: &str) -> String {
    env.write(name, body);
    format!("python3 -u {}", env.path().join(name).display())
}

fn write_with_lsp(env: &TestEnv, lsp: &str) -> (serde_json::Value, Duration) {
    let started = Instant::now();
    let (v, code) = envelope(
        env,
        &[
            raw(b"write"),
            raw(b"m.py"),
            raw(b"--content"),
            raw(b"x = 1\n"),
            raw(b"--lsp"),
            OsStr::new(lsp),
            raw(b"--lsp-timeout"),
            raw(b"3"),
            raw(b"--json"),
        ],
    );
    assert_eq!(code, 1, "{v}");
    assert!(!env.path().join("m.py").exists());
    (v, started.elapsed())
}

fn lsp_code(v: &serde_json::Value) -> String {
    v["result"]["diagnostics"][0]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_server_announcing_a_huge_message_is_a_protocol_error() {
    let env = TestEnv::new();
    let lsp = server(
        &env,
        "huge.py",
        "import sys\nsys.stdout.buffer.write(b'Content-Length: 4611686018427387904\\r\\n\\r\\n')\nsys.stdout.buffer.flush()\nsys.stdin.read()\n",
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E003", "{v}");
    assert!(v.to_string().contains("cap"), "{v}");
}

#[test]
fn a_server_that_never_ends_a_line_is_a_protocol_error() {
    let env = TestEnv::new();
    let lsp = server(
        &env,
        "nonl.py",
        "import sys\nwhile True:\n    sys.stdout.buffer.write(b'x' * 65536)\n",
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E003", "{v}");
    assert!(v.to_string().contains("header line longer"), "{v}");
}

#[test]
fn a_server_daemon_started_with_setsid_is_killed_too() {
    let env = TestEnv::new();
    let pidfile = env.path().join("daemon.pid");
    let lsp = server(
        &env,
        "daemon.py",
        &format!(
            "import subprocess, sys\np = subprocess.Popen(['setsid', 'sleep', '300'])\nopen({:?}, 'w').write(str(p.pid))\nsys.stdin.read()\n",
            pidfile.display().to_string()
        ),
    );
    let (v, _) = write_with_lsp(&env, &lsp);
    assert_eq!(lsp_code(&v), "CHECK_E002", "{v}");
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    // Gone, or a zombie waiting for its reaper: never still running.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')
                    .map(|(_, r)| r.trim().chars().next().unwrap_or('?'))
            });
        if matches!(state, None | Some('Z') | Some('X')) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the setsid daemon {pid} outlived llm"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `llm ARGS --json` that must answer (not hang) within a generous bound.
fn answers(env: &TestEnv, args: &[&str]) -> serde_json::Value {
    let out = crate::util::llm()
        .current_dir(env.path())
        .args(args)
        .arg("--json")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{args:?}: killed (hung?)");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// The code of the error, or of the first diagnostic.
fn first_code(v: &serde_json::Value) -> &str {
    v["error"]["code"]
        .as_str()
        .or_else(|| v["diagnostics"][0]["code"].as_str())
        .unwrap_or_default()
}

#[test]
fn fifos_and_devices_are_refused_without_blocking() {
    let env = TestEnv::new();
    env.write("ok.py", "def f():\n    pass\n");
    let fifo = std::ffi::CString::new(env.path().join("p.py").as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let cases: &[&[&str]] = &[
        &["transform", "p.py", "--old", "a", "--new", "b"],
        &["write", "p.py", "--content", "x = 1\n", "--overwrite"],
        &["patch", "--file", "p.py", "--symbol", "f", "--delete"],
        &["ast", "(identifier) @i", "p.py"],
        &["find", "f", "p.py"],
        &[
            "transform",
            "/dev/zero",
            "--old",
            "a",
            "--new",
            "b",
            "--allow-outside-root",
        ],
        &["ast", "(identifier) @i", "/dev/zero", "--lang", "python"],
        &["find", "f", "/dev/zero", "--lang", "python"],
    ];
    for args in cases {
        let v = answers(&env, args);
        // A mutation target is refused; a query's input is skipped, counted and reported.
        let want = match args[0] {
            "ast" | "find" => "LLM_E010",
            _ => "LLM_E108",
        };
        assert_eq!(first_code(&v), want, "{args:?}: {v}");
        if want == "LLM_E010" {
            assert_eq!(v["data"]["stats"]["skipped"]["special"], 1, "{args:?}: {v}");
        }
    }
    // A FIFO whose language is sniffed from its content (an extensionless `#!` file, a `.h`
    // that may hold C++) is never opened to be sniffed.
    for name in ["noext", "q.h"] {
        let fifo = std::ffi::CString::new(env.path().join(name).as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let cases: &[&[&str]] = &[
            &["patch", "--file", name, "--symbol", "f", "--delete"],
            &["write", name, "--content", "x\n", "--overwrite"],
            &["ast", "(identifier) @i", name],
            &["find", "f", name],
            &["show", "f", name],
        ];
        for args in cases {
            let v = answers(&env, args);
            assert_ne!(v["status"], "ok", "{args:?}: {v}");
        }
    }
    // An input (not a target) may be a pipe or a device, but is bounded.
    let v = answers(&env, &["write", "z.txt", "--content-file", "/dev/zero"]);
    assert_eq!(first_code(&v), "LLM_E115", "{v}");
    assert!(!env.path().join("z.txt").exists());
}

#[test]
fn ast_keeps_only_max_results_matches_of_a_file_in_memory() {
    use std::os::unix::process::CommandExt;
    let env = TestEnv::new();
    let source: String = (0..500).map(|i| format!("x{i} = y + z\n")).collect();
    env.write("big.py", &source);
    let alternatives: Vec<String> = (0..400).map(|i| format!("(identifier) @c{i}")).collect();
    env.write("q.scm", format!("[{}]", alternatives.join(" ")));
    // 600,000 matches: all of them held at once need far more than 200 MiB of address space.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("llm"));
    cmd.current_dir(env.path()).args([
        "ast",
        "--query-file",
        "q.scm",
        "big.py",
        "--max-results",
        "10",
        "--json",
    ]);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 200 << 20,
                rlim_max: 200 << 20,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "partial");
    assert_eq!(v["data"]["match_count"], 10);
    assert_eq!(v["data"]["total_count"], 600_000);
    // The first ten by position: x0 under the first ten alternatives.
    let m = &v["data"]["matches"];
    assert!((0..10).all(|i| m[i]["captures"][0]["content"] == "x0" && m[i]["pattern_index"] == 0));
    let mut names: Vec<&str> = (0..10)
        .map(|i| m[i]["captures"][0]["name"].as_str().unwrap())
        .collect();
    names.dedup();
    assert_eq!(names.len(), 10, "ten alternatives of the first identifier");
}

#[test]
fn a_named_pipe_given_as_input_is_read_to_its_end() {
    let env = TestEnv::new();
    let fifo = env.path().join("in.fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    // The writer opens (blocking until llm opens the reading end), writes, closes.
    let writer = std::thread::spawn(move || std::fs::write(fifo, "x = 1\n").unwrap());
    let v = answers(&env, &["write", "m.py", "--content-file", "in.fifo"]);
    writer.join().unwrap();
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(env.read("m.py"), b"x = 1\n");
}

/// A big file (an outline reads its data arrays apart) cut off inside a data array, right
/// after a string's opening quote: at the end of the file, or at the end of its line. The
/// scanner read such a string as closed, and `find --outline` panicked (exit 101) on the
/// slice of its inside. Each of the four languages with a data scanner, each way.
#[test]
fn a_big_file_cut_off_in_a_data_array_string_is_outlined() {
    let env = TestEnv::new();
    let cases = [
        (
            "cut.go",
            "package p\n\n",
            "func fNN() int { return NN }\n\n",
            "var table = []string{\"abc\", ",
        ),
        (
            "cut.js",
            "",
            "export function fNN() { return NN; }\n",
            "const table = [\"abc\", ",
        ),
        (
            "cut.java",
            "class C {\n",
            "  int fNN() { return NN; }\n",
            "  static String[] T = {\"abc\", ",
        ),
        (
            "cut.rs",
            "",
            "pub fn fNN() -> u32 { NN }\n",
            "static T: [&str; 2] = [\"abc\", ",
        ),
    ];
    for (name, head, unit, array) in cases {
        let units: String = (0..3000)
            .map(|k| unit.replace("NN", &k.to_string()))
            .collect();
        for tail in ["\"", "\"\n]\n"] {
            let text = format!("{head}{units}{array}{tail}");
            assert!(text.len() > 64 * 1024);
            env.write(name, &text);
            let out = env
                .llm(&["find", "--outline", "--json", name])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{name} {tail:?}: {out:?}");
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            // Every function before the cut is there.
            let text = v["data"]["matches"].to_string();
            assert!(text.contains("\"f2999\""), "{name} {tail:?}");
        }
    }
}

#[test]
fn deeply_nested_brackets_neither_overflow_the_stack_nor_hang() {
    // 60,000 nested brackets: the outline of a file over 64 KiB read them as nested data
    // tables, one stack frame per level, and aborted (stack overflow); `ast --tree` built
    // and printed its tree one frame per level too.
    let env = TestEnv::new();
    let depth = 60_000;
    let deep = |open: &str, close: &str| open.repeat(depth) + &close.repeat(depth);
    env.write(
        "deep.py",
        format!("def f():\n    pass\n\nx = {}\n", deep("[", "]")),
    );
    env.write(
        "deep.go",
        format!(
            "package p\n\nfunc f() {{}}\n\nvar x = [][]int{}\n",
            deep("{", "}")
        ),
    );
    env.write(
        "open.js",
        format!("function f() {{}}\nvar x = {}\n", "[".repeat(depth)),
    );
    for (file, name) in [("deep.py", "f"), ("deep.go", "f"), ("open.js", "f")] {
        for j in ["-j1", "-j4"] {
            let out = env
                .llm(&["find", "--outline", "--json", j, file])
                .output()
                .unwrap();
            assert!(
                out.status.code().is_some_and(|c| c < 2),
                "{file} {j}: {:?} {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["data"]["matches"][0]["name"], name, "{file}");
        }
    }
    // --tree shows 256 levels, then says where the rest is.
    let out = env
        .llm(&["ast", "--tree", "deep.py", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // (Deeper than serde_json parses by default: the nesting is counted in the text.)
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("\"deeper\":true").count(), 1);
    let at = text.find("\"deeper\":true").unwrap();
    assert!(text[at..].starts_with("\"deeper\":true}"));
    assert!(text[..at].matches("\"children\":[").count() > 256);
    let out = env.llm(&["ast", "--tree", "deep.py"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("levels down: `--at LINE:COL`"));
    // A query for ERROR nodes on a file whose one ERROR node has 60,000 children (an
    // unclosed bracket): each found once, as the query engine finds them.
    let out = env
        .llm(&["ast", "-l", "javascript", "--json", "(ERROR) @e", "open.js"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let spans: Vec<_> = v["data"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["captures"][0]["span"]["start_line"].clone())
        .collect();
    assert!(!spans.is_empty());
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    // A sparse 2 GiB file: refused by its size (before, it was read whole — 2 GiB of memory —
    // and then refused).
    let env = TestEnv::new();
    let f = std::fs::File::create(env.path().join("huge.txt")).unwrap();
    f.set_len(2 << 30).unwrap();
    for args in [
        &["show", "--json", "huge.txt:1"][..],
        &[
            "transform",
            "--json",
            "huge.txt",
            "--old",
            "a",
            "--new",
            "b",
        ],
    ] {
        let out = env.llm(args).output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v.to_string().contains("LLM_E115"), "{args:?}: {v}");
    }
}

#[test]
fn a_write_through_a_link_is_checked_in_the_language_of_the_file_it_leads_to() {
    let env = TestEnv::new();
    env.write("e.rs", "fn a() {}\n");
    std::os::unix::fs::symlink("e.rs", env.path().join("le")).unwrap();
    let write =
        |content: &str| env.json(&["write", "--json", "le", "--content", content, "--overwrite"]);
    let (v, code) = write("fn c( {");
    assert_eq!((code, v["status"].as_str()), (1, Some("rejected")), "{v}");
    assert_eq!(env.read("e.rs"), b"fn a() {}\n");
    let (v, code) = write("fn c() {}\n");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.read("e.rs"), b"fn c() {}\n");
}

/// Files cut off anywhere, as an editor leaves them half typed (`impl A {\n}\n{\ny` panicked
/// in the outline, `impl B {\n fn peek() {}` without its `}` in a rename): every prefix of
/// each language's fixture, with a brace or line dropped, is outlined and renamed in without
/// a panic.
#[test]
fn half_typed_files_never_panic() {
    let env = TestEnv::new();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    env.write("b.rs", "impl A {\n}\n{\ny");
    env.write("c.rs", "struct G;\nfn d() {\n}\nimpl B {\n fn peek() {}");
    let (_, code) = envelope(
        &env,
        &[
            raw(b"find"),
            raw(b"--json"),
            raw(b"--outline"),
            raw(b"b.rs"),
        ],
    );
    assert_eq!(code, 0);
    let rename = [
        "patch",
        "--json",
        "--dry-run",
        "--file",
        "c.rs",
        "--symbol",
        "B::peek",
        "--rename",
        "x",
    ];
    let (v, code) = envelope(&env, &rename.map(|a| raw(a.as_bytes())));
    assert_eq!(code, 0, "{v}");
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read(&path).unwrap();
        // Names the whole fixture defines: its first few symbols.
        env.write(&name, &text);
        let outline = ["find", "--json", "--outline", name.as_str()];
        let (v, _) = envelope(&env, &outline.map(|a| raw(a.as_bytes())));
        let names: Vec<String> = (v["data"]["matches"].as_array().unwrap().iter())
            .take(3)
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect();
        // About a dozen cuts per file, each at a line's end, the next line's first brace gone.
        let ends: Vec<usize> = (0..text.len()).filter(|&i| text[i] == b'\n').collect();
        for &cut in ends.iter().step_by(ends.len().div_ceil(12).max(1)) {
            let mut half = text[..cut].to_vec();
            if let Some(b) = half.iter().rposition(|&b| b == b'}') {
                half.remove(b);
            }
            env.write(&name, &half);
            let outline = ["find", "--json", "--outline", name.as_str()];
            envelope(&env, &outline.map(|a| raw(a.as_bytes())));
            for symbol in names.iter().map(String::as_str) {
                let args = [
                    "patch",
                    "--json",
                    "--dry-run",
                    "--file",
                    name.as_str(),
                    "--symbol",
                    symbol,
                    "--rename",
                    "renamed",
                ];
                envelope(&env, &args.map(|a| raw(a.as_bytes())));
            }
        }
    }
}
