//! A language server as a validator: a small LSP client over stdio (Content-Length framing,
//! JSON-RPC 2.0) that starts the server, opens one document, collects the diagnostics the server
//! publishes for it, and shuts the server down. Called by `write --lsp`.
//!
//! Every wait is bounded: a server that never answers gives verdict `timed_out`, not a hang, and a
//! server still running after `exit` is killed with its process group.

use super::{kill_tree, own_process_group, ValidatorReport, Verdict};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{LineIndex, Units};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to run the language server.
#[derive(Debug, Clone)]
pub struct LspOptions {
    /// The server's command line, split like a shell would (`pylsp`, `pyright-langserver --stdio`).
    pub command: String,
    /// Workspace root sent as `rootUri` (absolute).
    pub root: PathBuf,
    /// Bound on everything up to the diagnostics (start, `initialize`, first publish); default 10 s.
    pub timeout: Duration,
    /// After an empty `publishDiagnostics`, how long to wait for a later, non-empty one.
    pub settle: Duration,
}

impl LspOptions {
    /// Options with the default timeout (10 s) and settle time (0.5 s).
    pub fn new(command: impl Into<String>, root: impl Into<PathBuf>) -> Self {
        LspOptions {
            command: command.into(),
            root: root.into(),
            timeout: Duration::from_secs(10),
            settle: Duration::from_millis(500),
        }
    }
}

/// What a server that never answered was waiting to be asked (see [`Stop::TimedOut`]).
const INITIALIZE: &str = "`initialize`";

/// How long `shutdown` and the exit after it may take before the server is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Opens `text` as the document at `file` (absolute; it need not exist on disk) with the LSP
/// `language_id` (`python`, `rust`…), and reports what the server publishes for it. Spans are in
/// the file spelled `display`, computed on `text`.
pub fn check(
    opts: &LspOptions,
    file: &Path,
    display: &str,
    language_id: &str,
    text: &[u8],
) -> ValidatorReport {
    let started = Instant::now();
    let argv = shlex::split(&opts.command).unwrap_or_default();
    let program = argv.first().cloned().unwrap_or_default();
    let name = Path::new(&program)
        .file_name()
        .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
    let fail = |verdict: Verdict, version: Option<String>, err: Error| {
        ValidatorReport::unavailable(name.clone(), version, started, verdict, err, &name)
    };
    if argv.is_empty() {
        let err = Error::new(
            Code::CheckerNotAvailable,
            format!("language server command {:?} is empty or badly quoted", opts.command),
            "pass the server's command line, e.g. --lsp pylsp or --lsp 'pyright-langserver --stdio'",
        );
        return fail(Verdict::NotAvailable, None, err);
    }
    let mut client = match Client::start(&argv) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let err = super::not_installed(&program, &install_hint(&name));
            return fail(Verdict::NotAvailable, None, err);
        }
        Err(e) => {
            let err = Error::new(
                Code::CheckerNotAvailable,
                format!("language server `{program}` could not be started: {e}"),
                "check that the command is executable, or drop --lsp",
            );
            return fail(Verdict::NotAvailable, None, err);
        }
    };
    let deadline = started + opts.timeout;
    let session = Session {
        opts,
        uri: path_to_uri(file),
        display,
        language_id,
        text,
        name: &name,
    };
    let outcome = session.run(&mut client, deadline);
    if matches!(outcome.1, Err(Stop::TimedOut(w)) if w == INITIALIZE) {
        // It never answered `initialize`: it will not answer `shutdown` either.
        kill_server(&mut client.child);
    } else {
        client.shutdown();
    }
    let stderr = client.stderr_tail();
    let (version, result) = outcome;
    match result {
        Ok(diagnostics) => {
            ValidatorReport::from_diagnostics(name.clone(), version, started, diagnostics)
        }
        Err(Stop::TimedOut(waiting_for)) => {
            let err = Error::new(
                Code::CheckerTimedOut,
                format!(
                    "language server `{name}` did not answer {waiting_for} within {} s; it was stopped",
                    opts.timeout.as_secs_f64()
                ),
                "check that the command starts a server speaking LSP on stdio (pyright needs --stdio), or raise the LSP timeout",
            )
            .with_file(display)
            .with_note(note_from(&stderr));
            fail(Verdict::TimedOut, version, err)
        }
        Err(Stop::Broken(why)) => {
            let err = Error::new(
                Code::CheckerFailed,
                format!("language server `{name}` failed: {why}"),
                format!(
                    "run `{}` by hand to see why it fails, or drop --lsp",
                    opts.command
                ),
            )
            .with_file(display)
            .with_note(note_from(&stderr));
            fail(Verdict::Error, version, err)
        }
    }
}

fn note_from(stderr: &str) -> String {
    if stderr.is_empty() {
        "the server wrote nothing on stderr".to_string()
    } else {
        format!("server stderr: {stderr}")
    }
}

/// The install command for well-known servers.
fn install_hint(name: &str) -> String {
    match name {
        "pylsp" => "`pip install python-lsp-server pyflakes`".into(),
        "pyright-langserver" | "pyright" => "`npm install -g pyright`".into(),
        "basedpyright-langserver" => "`pip install basedpyright`".into(),
        "ruff" => "`pip install ruff` (then --lsp 'ruff server')".into(),
        "jedi-language-server" => "`pip install jedi-language-server`".into(),
        "rust-analyzer" => "`rustup component add rust-analyzer`".into(),
        "typescript-language-server" => {
            "`npm install -g typescript-language-server typescript`".into()
        }
        other => format!("install `{other}` and make sure it is on PATH"),
    }
}

/// Why a session ended without diagnostics.
enum Stop {
    /// The deadline passed while waiting for the named thing.
    TimedOut(&'static str),
    /// The server exited, answered with an error, or spoke something that is not LSP.
    Broken(String),
}

struct Session<'a> {
    opts: &'a LspOptions,
    uri: String,
    display: &'a str,
    language_id: &'a str,
    text: &'a [u8],
    name: &'a str,
}

impl Session<'_> {
    /// initialize → initialized → didOpen → publishDiagnostics. Returns the server's version (from
    /// `serverInfo`) and the diagnostics.
    fn run(
        &self,
        client: &mut Client,
        deadline: Instant,
    ) -> (Option<String>, Result<Vec<DiagnosticPayload>, Stop>) {
        let root_uri = path_to_uri(&self.opts.root);
        let root_name = self
            .opts
            .root
            .file_name()
            .map_or("root".into(), |n| n.to_string_lossy().into_owned());
        client.root_uri = root_uri.clone();
        client.root_name = root_name.clone();
        let id = client.request(
            "initialize",
            json!({
                "processId": std::process::id(),
                "clientInfo": {"name": "llm", "version": env!("CARGO_PKG_VERSION")},
                "rootUri": root_uri,
                "rootPath": self.opts.root.to_string_lossy(),
                "workspaceFolders": [{"uri": root_uri, "name": root_name}],
                "initializationOptions": {},
                "capabilities": {
                    "general": {"positionEncodings": ["utf-16"]},
                    "textDocument": {
                        "synchronization": {"dynamicRegistration": false},
                        "publishDiagnostics": {
                            "relatedInformation": true,
                            "versionSupport": true,
                            "codeDescriptionSupport": true,
                            "dataSupport": false
                        }
                    },
                    "workspace": {"configuration": true, "workspaceFolders": true},
                    "window": {"workDoneProgress": true}
                }
            }),
        );
        let init = client.wait(deadline, |m| {
            (m.get("id") == Some(&json!(id)) && m.get("method").is_none()).then(|| m.clone())
        });
        let init = match init {
            Ok(m) => m,
            Err(Stop::TimedOut(_)) => return (None, Err(Stop::TimedOut(INITIALIZE))),
            Err(e) => return (None, Err(e)),
        };
        if let Some(e) = init.get("error") {
            return (
                None,
                Err(Stop::Broken(format!("`initialize` answered an error: {e}"))),
            );
        }
        let result = &init["result"];
        let version = result["serverInfo"]["version"].as_str().map(str::to_string);
        let units = match result["capabilities"]["positionEncoding"].as_str() {
            Some("utf-8") => Units::Utf8,
            Some("utf-32") => Units::Utf32,
            _ => Units::Utf16,
        };
        client.notify("initialized", json!({}));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": self.uri,
                "languageId": self.language_id,
                "version": 1,
                "text": String::from_utf8_lossy(self.text),
            }}),
        );
        (version, self.diagnostics(client, deadline, units))
    }

    /// Waits for `publishDiagnostics` for our document. A non-empty list ends the wait; an empty
    /// one is kept while a later one may still come within the settle time.
    fn diagnostics(
        &self,
        client: &mut Client,
        deadline: Instant,
        units: Units,
    ) -> Result<Vec<DiagnosticPayload>, Stop> {
        let want = uri_to_path(&self.uri);
        let mut latest: Option<Vec<Value>> = None;
        loop {
            let until = match &latest {
                Some(_) => deadline.min(Instant::now() + self.opts.settle),
                None => deadline,
            };
            let got = client.wait(until, |m| {
                let params = &m["params"];
                (m["method"] == "textDocument/publishDiagnostics"
                    && params["uri"].as_str().map(uri_to_path) == Some(want.clone())
                    && params["version"].as_i64().is_none_or(|v| v == 1))
                .then(|| {
                    params["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default()
                })
            });
            match got {
                Ok(list) if !list.is_empty() => {
                    latest = Some(list);
                    break;
                }
                Ok(empty) => {
                    if latest.is_some() {
                        // A second empty list: the server has settled on "nothing wrong".
                        latest = Some(empty);
                        break;
                    }
                    latest = Some(empty);
                }
                Err(_) if latest.is_some() => break,
                Err(Stop::TimedOut(_)) => {
                    return Err(Stop::TimedOut(
                        "with diagnostics (`textDocument/publishDiagnostics`)",
                    ))
                }
                Err(e) => return Err(e),
            }
        }
        let index = LineIndex::new(self.text);
        Ok(latest
            .unwrap_or_default()
            .iter()
            .map(|d| self.diagnostic(d, &index, units))
            .collect())
    }

    /// One LSP diagnostic → ours: severity 1 error, 2 warning, 3/4 note (absent: error, as
    /// editors read it); positions converted from the negotiated units to bytes.
    fn diagnostic(&self, d: &Value, index: &LineIndex, units: Units) -> DiagnosticPayload {
        let pos = |p: &Value| {
            let line = p["line"].as_u64().unwrap_or(0) as usize;
            let character = p["character"].as_u64().unwrap_or(0) as usize;
            index.offset_units(self.text, line, character, units)
        };
        let start = pos(&d["range"]["start"]);
        let end = pos(&d["range"]["end"]).max(start);
        let level = match d["severity"].as_u64() {
            Some(2) => Level::Warning,
            Some(3) | Some(4) => Level::Note,
            _ => Level::Error,
        };
        let code = match &d["code"] {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let tool = d["source"]
            .as_str()
            .filter(|s| !s.is_empty())
            .unwrap_or(self.name)
            .to_string();
        let mut notes = Vec::new();
        for r in d["relatedInformation"].as_array().into_iter().flatten() {
            if let Some(m) = r["message"].as_str() {
                let line = r["location"]["range"]["start"]["line"]
                    .as_u64()
                    .unwrap_or(0)
                    + 1;
                notes.push(format!("{m} (line {line})"));
            }
        }
        let mut remediation = "fix the code at the span".to_string();
        if let Some(href) = d["codeDescription"]["href"].as_str() {
            remediation.push_str(&format!("; see {href}"));
        }
        DiagnosticPayload {
            tool,
            level,
            code,
            message: d["message"].as_str().unwrap_or("").trim().to_string(),
            file: Some(self.display.to_string()),
            span: Some(index.span(self.display, start..end)),
            note: (!notes.is_empty()).then(|| notes.join("; ")),
            remediation: Some(remediation),
        }
    }
}

/// What [`Client::next`] got.
enum Incoming {
    Message(Value),
    Timeout,
    Closed(String),
}

/// A running server: a writer thread owns its stdin, a reader thread parses its stdout into
/// messages, a third keeps the end of its stderr.
struct Client {
    child: Child,
    to_server: Option<Sender<Vec<u8>>>,
    from_server: Receiver<Result<Value, String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: i64,
    root_uri: String,
    root_name: String,
}

impl Client {
    fn start(argv: &[String]) -> std::io::Result<Client> {
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        own_process_group(&mut cmd);
        become_subreaper();
        let mut child = cmd.spawn()?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");

        let (to_server, outbox) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for frame in outbox {
                if stdin.write_all(&frame).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
            // Dropping stdin here closes the server's input.
        });

        // Bounded: a server flooding messages waits for them to be taken (no unbounded queue).
        let (inbox, from_server) = mpsc::sync_channel(256);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let msg = read_message(&mut reader);
                let end = msg.is_err();
                if inbox.send(msg).is_err() || end {
                    break;
                }
            }
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut kept = keep.lock().unwrap_or_else(|p| p.into_inner());
                kept.extend_from_slice(&buf[..n]);
                let excess = kept.len().saturating_sub(8192);
                kept.drain(..excess);
            }
        });

        Ok(Client {
            child,
            to_server: Some(to_server),
            from_server,
            stderr,
            next_id: 0,
            root_uri: String::new(),
            root_name: String::new(),
        })
    }

    fn send(&self, msg: &Value) {
        let body = serde_json::to_vec(msg).expect("JSON values serialize");
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(&body);
        if let Some(tx) = &self.to_server {
            let _ = tx.send(frame);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        self.send(
            &json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}),
        );
        self.next_id
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message before `until`, answering the server's own requests on the way.
    fn next(&mut self, until: Instant) -> Incoming {
        let left = until.saturating_duration_since(Instant::now());
        match self.from_server.recv_timeout(left) {
            Ok(Ok(msg)) => {
                if msg.get("method").is_some() && msg.get("id").is_some() {
                    self.answer(&msg);
                }
                Incoming::Message(msg)
            }
            Ok(Err(why)) => Incoming::Closed(why),
            Err(RecvTimeoutError::Timeout) => Incoming::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                Incoming::Closed("the server closed its output".into())
            }
        }
    }

    /// Waits until `pick` accepts a message.
    fn wait<T>(
        &mut self,
        until: Instant,
        mut pick: impl FnMut(&Value) -> Option<T>,
    ) -> Result<T, Stop> {
        loop {
            match self.next(until) {
                Incoming::Message(m) => {
                    if let Some(t) = pick(&m) {
                        return Ok(t);
                    }
                }
                Incoming::Timeout => return Err(Stop::TimedOut("")),
                Incoming::Closed(why) => {
                    let status = self.child.try_wait().ok().flatten();
                    let why = match status {
                        Some(s) => format!("{why} (it exited: {s})"),
                        None => why,
                    };
                    return Err(Stop::Broken(why));
                }
            }
        }
    }

    /// Answers a server→client request so the server does not stall: empty results for the
    /// requests servers commonly send, "method not found" for the rest.
    fn answer(&self, req: &Value) {
        let id = req["id"].clone();
        let result = match req["method"].as_str().unwrap_or("") {
            "workspace/configuration" => {
                let n = req["params"]["items"].as_array().map_or(0, Vec::len);
                Value::Array(vec![Value::Null; n])
            }
            "workspace/workspaceFolders" => {
                json!([{"uri": self.root_uri, "name": self.root_name}])
            }
            "workspace/applyEdit" => json!({"applied": false}),
            "window/workDoneProgress/create"
            | "client/registerCapability"
            | "client/unregisterCapability"
            | "window/showMessageRequest"
            | "window/showDocument"
            | "workspace/codeLens/refresh"
            | "workspace/semanticTokens/refresh"
            | "workspace/inlayHint/refresh"
            | "workspace/inlineValue/refresh"
            | "workspace/diagnostic/refresh" => Value::Null,
            other => {
                self.send(&json!({"jsonrpc": "2.0", "id": id, "error": {
                    "code": -32601, "message": format!("llm does not handle {other}")}}));
                return;
            }
        };
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    /// `shutdown`, then `exit`, then the server gets [`SHUTDOWN_GRACE`] to end before it is
    /// killed (with everything it started).
    fn shutdown(&mut self) {
        let grace = Instant::now() + SHUTDOWN_GRACE;
        if matches!(self.child.try_wait(), Ok(None)) {
            let id = self.request("shutdown", Value::Null);
            let _ = self.wait(grace, |m| {
                (m.get("id") == Some(&json!(id)) && m.get("method").is_none()).then_some(())
            });
            self.notify("exit", Value::Null);
        }
        self.to_server = None; // closes stdin once the writer has sent `exit`
        use wait_timeout::ChildExt;
        let left = grace.saturating_duration_since(Instant::now());
        match self
            .child
            .wait_timeout(left.max(Duration::from_millis(100)))
        {
            Ok(Some(_)) => {}
            _ => kill_server(&mut self.child),
        }
        // Anything the server started and left behind, in its group or not, goes too.
        kill_server(&mut self.child);
    }

    fn stderr_tail(&self) -> String {
        // Give the stderr thread a moment to take the last words of a server that just died.
        std::thread::sleep(Duration::from_millis(20));
        let kept = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        super::tail(&kept, 1500)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            kill_server(&mut self.child);
        }
    }
}

/// Longest header line a server may send (LSP headers are a few dozen bytes).
const MAX_HEADER_LINE: u64 = 8 * 1024;
/// Largest message body accepted: far above any real diagnostics message, far below what would
/// exhaust memory (a hostile `Content-Length: 4611686018427387904` is a protocol error).
pub(crate) const MAX_BODY: usize = 64 * 1024 * 1024;

/// Reads one framed message: headers up to an empty line, then `Content-Length` bytes of JSON.
/// Header lines longer than [`MAX_HEADER_LINE`] and bodies over [`MAX_BODY`] are errors, so a
/// server cannot make the client allocate without bound.
fn read_message(reader: &mut impl BufRead) -> Result<Value, String> {
    let mut length = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("reading from the server: {e}"))?;
        if n == 0 {
            return Err("the server closed its output".into());
        }
        if !line.ends_with(b"\n") && n as u64 >= MAX_HEADER_LINE {
            return Err(format!(
                "the server wrote a header line longer than {MAX_HEADER_LINE} bytes (not LSP framing)"
            ));
        }
        let header = String::from_utf8_lossy(&line);
        let header = header.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if length.is_some() {
                break;
            }
            continue; // tolerate stray blank lines between messages
        }
        if let Some((k, v)) = header.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                let n = v.trim().parse::<u64>().map_err(|_| {
                    format!("the server sent an invalid Content-Length: {:?}", v.trim())
                })?;
                if n > MAX_BODY as u64 {
                    return Err(format!(
                        "the server announced a {n}-byte message (more than the {MAX_BODY}-byte cap)"
                    ));
                }
                length = Some(n as usize);
            }
        } else {
            let shown: String = header.chars().take(200).collect();
            return Err(format!(
                "the server wrote something that is not LSP framing: {shown:?}"
            ));
        }
    }
    let length = length.ok_or("a message without Content-Length")?;
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| format!("reading a message body from the server: {e}"))?;
    serde_json::from_slice(&body).map_err(|e| format!("the server sent invalid JSON: {e}"))
}

/// Kills the server, its process group, and every process it started that left the group
/// (`setsid`): those are found through `/proc` as descendants of the server, or as children
/// of `llm` itself (this process is a child subreaper while a server runs, so a double-forked
/// daemon is re-parented here instead of to init).
fn kill_server(child: &mut std::process::Child) {
    #[cfg(target_os = "linux")]
    for pid in escaped_descendants(child.id()) {
        // SAFETY: kill(2) signals a process; no memory of ours is touched.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    kill_tree(child);
}

/// Makes this process a child subreaper (Linux), so that orphans of a server come back here.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_CHILD_SUBREAPER, 1) only sets a flag on this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Descendants of `root` (any depth), plus children of this process other than `root` that run
/// in another session (re-parented orphans of the server).
#[cfg(target_os = "linux")]
fn escaped_descendants(root: u32) -> Vec<i32> {
    let me = std::process::id() as i32;
    // SAFETY: getsid(0) reads this process's session id.
    let my_sid = unsafe { libc::getsid(0) };
    let mut table: Vec<(i32, i32, i32)> = Vec::new(); // (pid, ppid, sid)
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<i32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // Fields after the command name (which may hold spaces) in parentheses.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<i32>().ok());
            if let (Some(ppid), Some(sid)) = (num(1), num(3)) {
                table.push((pid, ppid, sid));
            }
        }
    }
    let mut found: Vec<i32> = table
        .iter()
        .filter(|&&(pid, ppid, sid)| ppid == me && pid != root as i32 && sid != my_sid)
        .map(|t| t.0)
        .collect();
    found.push(root as i32);
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        for &(pid, ppid, _) in &table {
            if ppid == parent && !found.contains(&pid) {
                found.push(pid);
            }
        }
        i += 1;
    }
    found.retain(|&p| p != root as i32);
    found
}

/// `file://` URI of an absolute path, percent-encoding every byte outside `A-Za-z0-9-._~/`.
pub fn path_to_uri(path: &Path) -> String {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut uri = String::from("file://");
    for &b in abs.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The path of a `file://` URI, percent-decoded, so URIs spelled differently by a server (`%3A`
/// vs `:`, upper vs lower hex) compare equal.
pub fn uri_to_path(uri: &str) -> String {
    let rest = uri.strip_prefix("file://").unwrap_or(uri);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
#[path = "lsp_tests.rs"]
mod tests;
