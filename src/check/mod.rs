//! External checkers, run after a mutation is prepared and before it is kept: `cargo check`
//! ([`cargo`]), Python's `compile()` ([`python`]) and any language server over stdio ([`lsp`]).
//! Used by `llm write --check/--lsp` and `llm patch --check`.
//!
//! Each checker returns a [`ValidatorReport`]: its name, version, duration, a [`Verdict`] and the
//! diagnostics it produced, mapped to our [`crate::span::Span`]. A checker that is missing, times
//! out or breaks says so in its verdict (with an error-level `CHECK_E00x` diagnostic) — never a pass.
//! [`introduced`] and [`ValidatorReport::relative_to`] compare a run before and after a change, so
//! only the errors the change brought in count against it.

pub mod cargo;
pub mod lsp;
pub mod python;

use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use serde::Serialize;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How a checker's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It ran and found no error (warnings may remain).
    Passed,
    /// It ran and found at least one error-level diagnostic.
    Failed,
    /// It is not installed or could not be started (never a pass).
    NotAvailable,
    /// It did not finish in time and was stopped (never a pass).
    TimedOut,
    /// It does not apply to this file (e.g. a Rust file outside any Cargo package).
    Skipped,
    /// It ran but could not do its job (bad manifest, crashed server, protocol error).
    Error,
}

impl Verdict {
    /// Whether the checker actually examined the code (passed or failed).
    pub fn ran(self) -> bool {
        matches!(self, Verdict::Passed | Verdict::Failed)
    }
}

/// One validator's run, as reported in a mutation's `result.validators[]`.
#[derive(Debug, Clone, Serialize)]
pub struct ValidatorReport {
    /// `tree-sitter`, `cargo check`, `python compile`, or the language server's name.
    pub name: String,
    /// The tool's version when known (`cargo 1.85.0 (…)`, `3.11.7`, `pylsp 1.12.0`).
    pub version: Option<String>,
    /// Wall time of the run, in milliseconds.
    pub duration_ms: u64,
    pub verdict: Verdict,
    /// What it reported, with spans in our coordinates and the tool's own codes.
    pub diagnostics: Vec<DiagnosticPayload>,
}

impl ValidatorReport {
    /// A report whose verdict follows from its diagnostics: `failed` if any is an error.
    pub fn from_diagnostics(
        name: impl Into<String>,
        version: Option<String>,
        started: Instant,
        diagnostics: Vec<DiagnosticPayload>,
    ) -> Self {
        let verdict = if diagnostics.iter().any(|d| d.level == Level::Error) {
            Verdict::Failed
        } else {
            Verdict::Passed
        };
        ValidatorReport {
            name: name.into(),
            version,
            duration_ms: elapsed_ms(started),
            verdict,
            diagnostics,
        }
    }

    /// A report for a checker that could not run (not available, timed out, skipped, broken),
    /// carrying `err` as its one diagnostic: error-level, except for `skipped` (a warning).
    pub fn unavailable(
        name: impl Into<String>,
        version: Option<String>,
        started: Instant,
        verdict: Verdict,
        err: Error,
        tool: &str,
    ) -> Self {
        let level = if verdict == Verdict::Skipped {
            Level::Warning
        } else {
            Level::Error
        };
        let mut d = err.diagnostic(level);
        d.tool = tool.to_string();
        ValidatorReport {
            name: name.into(),
            version,
            duration_ms: elapsed_ms(started),
            verdict,
            diagnostics: vec![d],
        }
    }

    /// The error-level diagnostics.
    pub fn errors(&self) -> impl Iterator<Item = &DiagnosticPayload> {
        self.diagnostics.iter().filter(|d| d.level == Level::Error)
    }

    /// This (after-the-change) report judged against the same checker's run `before` the change:
    /// only the errors the change introduced count (see [`introduced`]); warnings are kept.
    /// A run that did not examine the code (not available, timed out, broken, skipped) keeps its
    /// own verdict and diagnostics — it is never turned into a pass.
    pub fn relative_to(mut self, before: &ValidatorReport) -> ValidatorReport {
        if !self.verdict.ran() {
            return self;
        }
        let new_errors = introduced(&before.diagnostics, &self.diagnostics);
        let mut kept: Vec<DiagnosticPayload> = self
            .diagnostics
            .into_iter()
            .filter(|d| d.level != Level::Error)
            .collect();
        self.verdict = if new_errors.is_empty() {
            Verdict::Passed
        } else {
            Verdict::Failed
        };
        kept.extend(new_errors);
        self.diagnostics = kept;
        self
    }
}

/// The error-level diagnostics of `after` that were not in `before`, compared as a multiset keyed
/// by tool, code, message and file — not by position, since an edit shifts lines. If `before` had
/// two copies of an error and `after` three, one is returned (the last one in `after`).
pub fn introduced(
    before: &[DiagnosticPayload],
    after: &[DiagnosticPayload],
) -> Vec<DiagnosticPayload> {
    fn key(d: &DiagnosticPayload) -> (&str, Option<&str>, &str, Option<&str>) {
        (
            d.tool.as_str(),
            d.code.as_deref(),
            d.message.as_str(),
            d.file.as_deref(),
        )
    }
    let mut budget: HashMap<_, usize> = HashMap::new();
    for d in before.iter().filter(|d| d.level == Level::Error) {
        *budget.entry(key(d)).or_default() += 1;
    }
    after
        .iter()
        .filter(|d| d.level == Level::Error)
        .filter(|d| match budget.get_mut(&key(d)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

/// Milliseconds since `started`.
pub(crate) fn elapsed_ms(started: Instant) -> u64 {
    started.elapsed().as_millis().min(u64::MAX as u128) as u64
}

/// How a child process run by [`run`] ended.
pub(crate) enum Ran {
    /// It exited within the timeout.
    Done {
        status: ExitStatus,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// The program could not be started because it does not exist.
    NotFound,
    /// It was still running at the deadline and was killed (with its process group).
    TimedOut { stderr: Vec<u8> },
    /// It could not be started or waited for for another reason.
    Failed(std::io::Error),
}

/// Runs `cmd` with `stdin` fed to it, collecting stdout and stderr, killing it (and every process
/// it started, on Unix) if it is still running after `timeout`.
pub(crate) fn run(cmd: &mut Command, stdin: Option<&[u8]>, timeout: Duration) -> Ran {
    use wait_timeout::ChildExt;
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    own_process_group(cmd);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ran::NotFound,
        Err(e) => return Ran::Failed(e),
    };
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let input = input.to_vec();
        // A child that does not read its stdin must not block us: write from a thread.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            kill_tree(&mut child);
            return Ran::TimedOut {
                stderr: collect(err, Duration::from_millis(500)),
            };
        }
        Err(e) => {
            kill_tree(&mut child);
            return Ran::Failed(e);
        }
    };
    // Grandchildren may hold the pipes open after the child exited; do not wait for them long.
    let stdout = collect(out, timeout.max(Duration::from_secs(1)));
    let stderr = collect(err, Duration::from_secs(1));
    Ran::Done {
        status,
        stdout,
        stderr,
    }
}

/// Reads a pipe to its end on a thread; the bytes arrive on the returned channel.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            let _ = tx.send(buf);
        });
    }
    rx
}

fn collect(rx: mpsc::Receiver<Vec<u8>>, wait: Duration) -> Vec<u8> {
    rx.recv_timeout(wait).unwrap_or_default()
}

/// Puts the child in a process group of its own, so that [`kill_tree`] reaches what it spawns
/// (rustc under cargo, node workers under a language server).
pub(crate) fn own_process_group(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = cmd;
}

/// Kills a child started with [`own_process_group`] and its whole group, then reaps it.
pub(crate) fn kill_tree(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads; it
            // touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The last `max` bytes of a tool's stderr as trimmed text, for notes.
pub(crate) fn tail(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    if text.len() <= max {
        return text.to_string();
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &text[start..])
}

/// The "not installed" error for a program, with the command that installs it.
pub(crate) fn not_installed(program: &str, install: &str) -> Error {
    Error::new(
        Code::CheckerNotAvailable,
        format!("`{program}` is not installed (not found on PATH); the check did not run"),
        format!("install it: {install}; or run without the check that needs it"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(level: Level, code: &str, message: &str, file: &str) -> DiagnosticPayload {
        DiagnosticPayload {
            tool: "cargo".into(),
            level,
            code: Some(code.into()),
            message: message.into(),
            file: Some(file.into()),
            span: None,
            note: None,
            remediation: None,
        }
    }

    #[test]
    fn introduced_is_a_multiset_difference_of_errors() {
        let e = |m: &str| diag(Level::Error, "E0308", m, "src/lib.rs");
        let before = vec![e("mismatched types"), e("other")];
        let after = vec![
            e("mismatched types"),
            e("mismatched types"),
            diag(Level::Warning, "unused_variables", "unused", "src/lib.rs"),
            e("other"),
            diag(Level::Error, "E0308", "other", "src/main.rs"),
        ];
        let new = introduced(&before, &after);
        assert_eq!(new.len(), 2, "{new:?}");
        assert_eq!(new[0].message, "mismatched types");
        assert_eq!(new[1].file.as_deref(), Some("src/main.rs"));
        assert!(introduced(&after, &before).is_empty());
        assert!(introduced(&[], &[]).is_empty());
    }

    #[test]
    fn relative_to_keeps_warnings_and_never_passes_a_missing_checker() {
        let started = Instant::now();
        let before = ValidatorReport::from_diagnostics(
            "cargo check",
            None,
            started,
            vec![diag(Level::Error, "E0425", "old", "src/lib.rs")],
        );
        assert_eq!(before.verdict, Verdict::Failed);
        let after = ValidatorReport::from_diagnostics(
            "cargo check",
            None,
            started,
            vec![
                diag(Level::Error, "E0425", "old", "src/lib.rs"),
                diag(Level::Warning, "unused_variables", "w", "src/lib.rs"),
            ],
        );
        let judged = after.relative_to(&before);
        assert_eq!(judged.verdict, Verdict::Passed);
        assert_eq!(judged.diagnostics.len(), 1);
        assert_eq!(judged.diagnostics[0].level, Level::Warning);

        let missing = ValidatorReport::unavailable(
            "cargo check",
            None,
            started,
            Verdict::NotAvailable,
            not_installed("cargo", "rustup"),
            "cargo",
        );
        let judged = missing.relative_to(&before);
        assert_eq!(judged.verdict, Verdict::NotAvailable);
        assert_eq!(judged.errors().count(), 1);
    }

    #[test]
    fn verdict_wire_names() {
        let names: Vec<_> = [
            Verdict::Passed,
            Verdict::Failed,
            Verdict::NotAvailable,
            Verdict::TimedOut,
            Verdict::Skipped,
            Verdict::Error,
        ]
        .iter()
        .map(|v| serde_json::to_value(v).unwrap())
        .collect();
        assert_eq!(
            serde_json::Value::Array(names),
            serde_json::json!([
                "passed",
                "failed",
                "not_available",
                "timed_out",
                "skipped",
                "error"
            ])
        );
    }

    #[test]
    fn run_times_out_and_kills() {
        let started = Instant::now();
        let ran = run(
            Command::new("sh").args(["-c", "sleep 30 & sleep 30"]),
            None,
            Duration::from_millis(200),
        );
        assert!(matches!(ran, Ran::TimedOut { .. }));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn run_feeds_stdin_and_reports_missing_programs() {
        match run(
            &mut Command::new("cat"),
            Some(b"hello"),
            Duration::from_secs(10),
        ) {
            Ran::Done { stdout, status, .. } => {
                assert!(status.success());
                assert_eq!(stdout, b"hello");
            }
            _ => panic!("cat did not run"),
        }
        assert!(matches!(
            run(
                &mut Command::new("llm-no-such-program-xyz"),
                None,
                Duration::from_secs(1)
            ),
            Ran::NotFound
        ));
    }

    #[test]
    fn tail_keeps_the_end_on_a_char_boundary() {
        assert_eq!(tail(b"  short \n", 10), "short");
        let t = tail("ééééé".as_bytes(), 3);
        assert!(t.starts_with('…') && t.ends_with('é'), "{t}");
    }
}
