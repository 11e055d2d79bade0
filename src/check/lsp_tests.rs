//! Tests of the LSP client: against the real `pylsp` (installed by `.ci/run`), a scripted server
//! that exercises the protocol's corners, and servers that hang, die or do not exist.

use super::*;
use crate::check::covered;
use std::io::Cursor;

/// Panics with a clear message when pylsp is missing: these tests must not pass silently.
fn require_pylsp() {
    let ok = Command::new("pylsp")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "pylsp is not installed; `.ci/run` installs it (`pip install python-lsp-server pyflakes`)"
    );
}

#[test]
fn pylsp_reports_an_undefined_name_with_its_span() {
    require_pylsp();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.py");
    let text = "import os\n\n\ndef total(xs):\n    return sum(xs) + undefined_name\n";
    let opts = LspOptions::new("pylsp", dir.path());
    let report = check(&opts, &file, "app.py", "python", text.as_bytes());
    assert_eq!(report.verdict, Verdict::Failed, "{report:#?}");
    assert_eq!(report.name, "pylsp");
    assert!(report.version.is_some(), "serverInfo.version: {report:#?}");
    let errors: Vec<_> = report.errors().collect();
    assert_eq!(errors.len(), 1, "{report:#?}");
    let e = errors[0];
    assert_eq!(e.tool, "pyflakes");
    assert_eq!(e.message, "undefined name 'undefined_name'");
    assert_eq!(e.file.as_deref(), Some("app.py"));
    assert!(covered(text, e).starts_with("undefined_name"), "{e:?}");
    assert_eq!(e.span.as_ref().unwrap().start_line, 5);
    // The unused import is a warning: it does not fail the check.
    let w = report
        .diagnostics
        .iter()
        .find(|d| d.message.contains("imported but unused"))
        .expect("unused import reported");
    assert_eq!(w.level, Level::Warning);
    assert!(report.duration_ms < 10_000);
    assert!(
        !dir.path().join("app.py").exists(),
        "the check writes nothing"
    );
}

#[test]
fn pylsp_passes_clean_code() {
    require_pylsp();
    let dir = tempfile::tempdir().unwrap();
    let text = "def double(x):\n    return 2 * x\n";
    let opts = LspOptions::new("pylsp", dir.path());
    let report = check(
        &opts,
        &dir.path().join("m.py"),
        "m.py",
        "python",
        text.as_bytes(),
    );
    assert_eq!(report.verdict, Verdict::Passed, "{report:#?}");
    assert!(report.errors().next().is_none());
}

/// A scripted server: publishes for another file, asks for configuration and refuses to go on
/// until it is answered, publishes an empty list, then the real one in UTF-16 positions.
const FAKE_SERVER: &str = r#"
import sys, json
def read():
    n = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line: sys.exit(0)
        line = line.strip()
        if not line: break
        k, v = line.split(b":", 1)
        if k.lower() == b"content-length": n = int(v)
    return json.loads(sys.stdin.buffer.read(n))
def send(msg):
    body = json.dumps(msg).encode()
    sys.stdout.buffer.write(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()
while True:
    m = read()
    meth = m.get("method")
    if meth == "initialize":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"capabilities": {"textDocumentSync": 1},
              "serverInfo": {"name": "fake", "version": "9.9"}}})
    elif meth == "textDocument/didOpen":
        uri = m["params"]["textDocument"]["uri"]
        send({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 3, "message": "hi"}})
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
              "params": {"uri": "file:///elsewhere.py", "diagnostics": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "message": "other file"}]}})
        send({"jsonrpc": "2.0", "id": 77, "method": "workspace/configuration", "params": {"items": [{}, {}]}})
        answer = read()
        if answer.get("id") != 77 or answer.get("result") != [None, None]:
            sys.exit(5)
        send({"jsonrpc": "2.0", "id": "p1", "method": "window/workDoneProgress/create", "params": {"token": "t"}})
        read()
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": uri, "diagnostics": []}})
        # line 1 is '😀 = "é"; bad_name' : 😀 is 2 UTF-16 units, so bad_name starts at character 10.
        send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": uri.replace("%C3%BC", "%c3%bc"), "version": 1, "diagnostics": [
            {"range": {"start": {"line": 1, "character": 10}, "end": {"line": 1, "character": 18}}, "severity": 1, "code": 821, "source": "fakeflakes", "message": "undefined name 'bad_name'",
             "codeDescription": {"href": "https://example.com/821"}},
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}, "severity": 3, "message": "a hint"}]}})
    elif meth == "shutdown":
        send({"jsonrpc": "2.0", "id": m["id"], "result": None})
    elif meth == "exit":
        sys.exit(0)
"#;

#[test]
fn scripted_server_utf16_positions_requests_answered_and_settling() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fake.py"), FAKE_SERVER).unwrap();
    let command = format!("python3 -u '{}'", dir.path().join("fake.py").display());
    let text = "x = 1\n😀 = \"é\"; bad_name\n";
    let file = dir.path().join("a dir/ünï.py");
    let report = check(
        &LspOptions::new(command, dir.path()),
        &file,
        "a dir/ünï.py",
        "python",
        text.as_bytes(),
    );
    assert_eq!(report.verdict, Verdict::Failed, "{report:#?}");
    assert_eq!(report.version.as_deref(), Some("9.9"));
    assert_eq!(report.diagnostics.len(), 2, "{report:#?}");
    let e = &report.diagnostics[0];
    assert_eq!(covered(text, e), "bad_name");
    assert_eq!(
        (e.tool.as_str(), e.code.as_deref(), e.level),
        ("fakeflakes", Some("821"), Level::Error)
    );
    assert!(e
        .remediation
        .as_deref()
        .unwrap()
        .contains("example.com/821"));
    let n = &report.diagnostics[1];
    assert_eq!((n.level, n.tool.as_str()), (Level::Note, "python3"));
    assert_eq!(covered(text, n), "x =");
}

#[test]
fn a_server_that_never_answers_times_out_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = LspOptions::new("sh -c 'cat > /dev/null'", dir.path());
    opts.timeout = Duration::from_millis(800);
    let started = Instant::now();
    let report = check(
        &opts,
        &dir.path().join("m.py"),
        "m.py",
        "python",
        b"x = 1\n",
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(report.verdict, Verdict::TimedOut, "{report:#?}");
    let d = &report.diagnostics[0];
    assert_eq!(
        (d.level, d.code.as_deref()),
        (Level::Error, Some("CHECK_E002"))
    );
    assert!(d.message.contains("`initialize`"), "{d:?}");
    assert_eq!(d.tool, "sh");
}

#[test]
fn a_server_that_answers_initialize_but_never_publishes_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let script = FAKE_SERVER.replace(
        "elif meth == \"textDocument/didOpen\":",
        "elif meth == \"textDocument/didOpen\" and False:",
    );
    std::fs::write(dir.path().join("mute.py"), script).unwrap();
    let mut opts = LspOptions::new(
        format!("python3 -u {}", dir.path().join("mute.py").display()),
        dir.path(),
    );
    opts.timeout = Duration::from_millis(1500);
    let report = check(
        &opts,
        &dir.path().join("m.py"),
        "m.py",
        "python",
        b"x = 1\n",
    );
    assert_eq!(report.verdict, Verdict::TimedOut, "{report:#?}");
    assert!(report.diagnostics[0].message.contains("publishDiagnostics"));
    assert_eq!(report.version.as_deref(), Some("9.9"));
}

#[test]
fn a_server_that_dies_or_is_missing_is_never_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let opts = LspOptions::new("sh -c 'echo boom >&2; exit 3'", dir.path());
    let report = check(
        &opts,
        &dir.path().join("m.py"),
        "m.py",
        "python",
        b"x = 1\n",
    );
    assert_eq!(report.verdict, Verdict::Error, "{report:#?}");
    let d = &report.diagnostics[0];
    assert_eq!(d.code.as_deref(), Some("CHECK_E003"));
    assert!(d.note.as_deref().unwrap().contains("boom"), "{d:?}");

    let opts = LspOptions::new("llm-test-no-such-server --stdio", dir.path());
    let report = check(
        &opts,
        &dir.path().join("m.py"),
        "m.py",
        "python",
        b"x = 1\n",
    );
    assert_eq!(report.verdict, Verdict::NotAvailable);
    assert_eq!(report.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
    assert!(install_hint("pylsp").contains("pip install python-lsp-server"));
    assert!(install_hint("pyright-langserver").contains("npm"));

    let report = check(
        &LspOptions::new("'", dir.path()),
        &dir.path().join("m.py"),
        "m.py",
        "python",
        b"",
    );
    assert_eq!(report.verdict, Verdict::NotAvailable);
}

#[test]
fn framing() {
    let body = r#"{"jsonrpc":"2.0","id":1,"result":"é"}"#;
    let raw = format!(
        "content-length: {}\r\nContent-Type: x\r\n\r\n{body}Content-Length: 2\r\n\r\n{{}}",
        body.len()
    );
    let mut r = Cursor::new(raw.into_bytes());
    assert_eq!(read_message(&mut r).unwrap()["result"], "é");
    assert_eq!(read_message(&mut r).unwrap(), json!({}));
    assert!(read_message(&mut r).is_err());
    assert!(read_message(&mut Cursor::new(b"hello\r\n".to_vec())).is_err());
}

#[test]
fn uris_round_trip() {
    let p = Path::new("/tmp/a dir/ünï%.py");
    let uri = path_to_uri(p);
    assert_eq!(uri, "file:///tmp/a%20dir/%C3%BCn%C3%AF%25.py");
    assert_eq!(uri_to_path(&uri), "/tmp/a dir/ünï%.py");
    assert_eq!(uri_to_path("file:///c%3a/x%2"), "/c:/x%2");
}
