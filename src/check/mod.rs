//! External checkers, run after a mutation is prepared and before it is kept: `cargo check`
//! ([`cargo`]), Python's `compile()` ([`python`]), the one-file syntax checkers of scripting
//! languages and Go ([`script`]: `bash -n`, `ruby -wc`, `php -l`, `node --check`, `gofmt -e`),
//! `gcc`/`g++ -fsyntax-only` ([`cc`]), `javac` ([`java`]), `tsc --noEmit` ([`tsc`]) and any
//! language server over stdio ([`lsp`]). [`Checker::for_file`] picks one per language.
//! Used by `llm write --check/--lsp` and `llm patch --check`.
//!
//! Each checker returns a [`ValidatorReport`]: its name, version, duration, a [`Verdict`] and the
//! diagnostics it produced, mapped to our [`crate::span::Span`]. A checker that is missing, times
//! out or breaks says so in its verdict (with an error-level `CHECK_E00x` diagnostic) — never a pass.
//! [`introduced`] and [`ValidatorReport::relative_to`] compare a run before and after a change, so
//! only the errors the change brought in count against it.

pub mod cargo;
pub mod cc;
mod checker;
pub mod java;
pub mod lsp;
mod process;
pub mod python;
pub(crate) use process::{kill_tree, own_process_group, run, tail, Ran};
pub mod script;
#[cfg(test)]
mod testing;
pub mod tsc;
#[cfg(test)]
pub(crate) use testing::{covered, have};

pub use checker::Checker;

use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{LineIndex, Units};
use serde::Serialize;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
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

    /// The wire name (as in `validators[].verdict`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Failed => "failed",
            Verdict::NotAvailable => "not_available",
            Verdict::TimedOut => "timed_out",
            Verdict::Skipped => "skipped",
            Verdict::Error => "error",
        }
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
        ValidatorReport {
            name: name.into(),
            version,
            duration_ms: elapsed_ms(started),
            verdict: verdict_of(&diagnostics),
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
        let old = before.errors().count();
        let mut kept: Vec<DiagnosticPayload> = self
            .diagnostics
            .into_iter()
            .filter(|d| d.level != Level::Error)
            .collect();
        kept.extend(new_errors);
        let first_only = [python::NAME, script::PHP, script::BASH].contains(&self.name.as_str());
        if old > 0 && first_only {
            // Python's compile(), `php -l` and `bash -n` stop at their first error: a new one
            // after an old one is never seen. Said, not passed over silently.
            kept.push(DiagnosticPayload {
                tool: self.name.to_string(),
                level: Level::Note,
                code: None,
                message: format!(
                    "{old} error(s) were there before the change and are not counted; a checker that stops at its first error cannot see new ones after them"
                ),
                file: None,
                span: None,
                note: None,
                remediation: Some("fix the existing errors, then check again".into()),
            });
        }
        self.verdict = verdict_of(&kept);
        self.diagnostics = kept;
        self
    }

    /// This (after-the-change) report on the file spelled `display`, judged against the run
    /// `before` the change: every error in that file counts, errors elsewhere (other modules,
    /// headers, the rest of the project) only if the change introduced them. A run that did not
    /// examine the code keeps its verdict.
    pub fn judged_for(self, before: &ValidatorReport, display: &str) -> ValidatorReport {
        if !self.verdict.ran() || !before.verdict.ran() {
            return self;
        }
        let (mut ours, theirs): (Vec<_>, Vec<_>) = self
            .diagnostics
            .iter()
            .cloned()
            .partition(|d| d.file.as_deref() == Some(display));
        let other = ValidatorReport {
            diagnostics: theirs,
            ..self.clone()
        };
        ours.extend(other.relative_to(before).diagnostics);
        ValidatorReport {
            verdict: verdict_of(&ours),
            diagnostics: ours,
            ..self
        }
    }
}

/// The verdict a run's diagnostics call for: `failed` with any error; `skipped` when a
/// `CHECK_E004` warning says the checker did not examine the file (it compiled the project but
/// not this file, or found no project to check) — a pass must cover the file; else `passed`.
pub fn verdict_of(diagnostics: &[DiagnosticPayload]) -> Verdict {
    if diagnostics.iter().any(|d| d.level == Level::Error) {
        Verdict::Failed
    } else if diagnostics
        .iter()
        .any(|d| d.code.as_deref() == Some(Code::CheckerSkipped.id()))
    {
        Verdict::Skipped
    } else {
        Verdict::Passed
    }
}

/// The error-level diagnostics of `after` that were not in `before`, compared as a multiset keyed
/// by tool, code, message and file — not by position, since an edit shifts lines. If `before` had
/// two copies of an error and `after` three, one is returned (the last one in `after`).
pub fn introduced(
    before: &[DiagnosticPayload],
    after: &[DiagnosticPayload],
) -> Vec<DiagnosticPayload> {
    fn key(d: &DiagnosticPayload) -> (&str, Option<&str>, String, Option<&str>) {
        (
            d.tool.as_str(),
            d.code.as_deref(),
            unplaced(&d.message),
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

/// A message without the line numbers it quotes (`previously declared in p.php:7`, `on line
/// 7`): an error that was there before the change is the same error once the change moved it.
fn unplaced(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        out.push(c);
        if c == ':' || out.ends_with("line ") {
            let digits = rest.len() - rest.trim_start_matches(|d: char| d.is_ascii_digit()).len();
            if digits > 0 {
                out.push('#');
                rest = &rest[digits..];
            }
        }
    }
    out
}

/// Milliseconds since `started`.
pub(crate) fn elapsed_ms(started: Instant) -> u64 {
    started.elapsed().as_millis().min(u64::MAX as u128) as u64
}

/// The "not installed" error for a program, with the command that installs it.
pub(crate) fn not_installed(program: &str, install: &str) -> Error {
    Error::new(
        Code::CheckerNotAvailable,
        format!("`{program}` is not installed (not found on PATH); the check did not run"),
        format!("install it: {install}; or run without the check that needs it"),
    )
}

/// An external program run as a checker: what the shared runner needs to report it.
pub(crate) struct Tool<'a> {
    /// Validator name (`bash -n`).
    pub name: &'static str,
    /// `tool` of its diagnostics (`bash`).
    pub tool: &'static str,
    /// The program to start.
    pub program: &'a OsStr,
    /// How to install it, for the remediation of `not_available`.
    pub install: &'static str,
    pub timeout: Duration,
}

/// What a [`Tool`] printed when it ran to completion.
pub(crate) struct Output {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Tool<'_> {
    /// Runs `cmd` (built on [`Tool::program`]); a missing program, a timeout or a failure to
    /// start comes back as the report to return (never a pass).
    pub fn run(&self, cmd: &mut Command, started: Instant) -> Result<Output, ValidatorReport> {
        let program = self.program.to_string_lossy();
        let fail = |verdict, err| {
            ValidatorReport::unavailable(self.name, None, started, verdict, err, self.tool)
        };
        match run(cmd, None, self.timeout) {
            Ran::Done {
                status,
                stdout,
                stderr,
            } => Ok(Output {
                status,
                stdout,
                stderr,
            }),
            Ran::NotFound => Err(fail(
                Verdict::NotAvailable,
                not_installed(&program, self.install),
            )),
            Ran::TimedOut { stderr } => Err(fail(
                Verdict::TimedOut,
                Error::new(
                    Code::CheckerTimedOut,
                    format!(
                        "`{}` did not finish within {} s and was stopped",
                        self.name,
                        self.timeout.as_secs_f64()
                    ),
                    "retry with a longer timeout (`--check-timeout SECS`), or drop --check",
                )
                .with_note(tail(&stderr, 400)),
            )),
            Ran::Failed(e) => Err(fail(
                Verdict::NotAvailable,
                Error::new(
                    Code::CheckerNotAvailable,
                    format!("`{program}` could not be started: {e}"),
                    format!(
                        "check that it is installed and executable ({}), or drop --check",
                        self.install
                    ),
                ),
            )),
        }
    }

    /// The report for a run that ended without any diagnostic we could read although the tool
    /// says it failed (a crash, an option it does not know): `error`, never a pass.
    pub fn broken(
        &self,
        out: &Output,
        version: Option<String>,
        started: Instant,
    ) -> ValidatorReport {
        let err = Error::new(
            Code::CheckerFailed,
            format!(
                "`{}` failed (exit {}) without a diagnostic we could read",
                self.name,
                out.status
                    .code()
                    .map_or("signal".to_string(), |c| c.to_string())
            ),
            format!(
                "run `{}` on the file yourself to see why; or drop --check",
                self.name
            ),
        )
        .with_note(tail(
            if out.stderr.is_empty() {
                &out.stdout
            } else {
                &out.stderr
            },
            1500,
        ));
        ValidatorReport::unavailable(self.name, version, started, Verdict::Error, err, self.tool)
    }

    /// The report of a run that ended with `diagnostics`: [`Tool::broken`] when the tool
    /// failed without an error-level diagnostic, else the verdict the diagnostics give.
    pub fn report(
        &self,
        out: &Output,
        version: Option<String>,
        started: Instant,
        diagnostics: Vec<DiagnosticPayload>,
    ) -> ValidatorReport {
        if !out.status.success() && !diagnostics.iter().any(|d| d.level == Level::Error) {
            return self.broken(out, version, started);
        }
        ValidatorReport::from_diagnostics(self.name, version, started, diagnostics)
    }

    /// [`temp_copy`] of `text` named `name`; a copy that could not be written comes back as the
    /// report to return.
    pub fn copy(
        &self,
        text: &[u8],
        name: &OsStr,
        started: Instant,
    ) -> Result<(tempfile::TempDir, PathBuf), ValidatorReport> {
        temp_copy(text, name).map_err(|e| no_temp(self.name, self.tool, e, started))
    }

    /// A `skipped` report: the tool was not run on `display` because it cannot check it.
    pub fn skipped(
        &self,
        display: &str,
        message: String,
        remediation: &str,
        started: Instant,
    ) -> ValidatorReport {
        let err = Error::new(Code::CheckerSkipped, message, remediation).with_file(display);
        ValidatorReport::unavailable(self.name, None, started, Verdict::Skipped, err, self.tool)
    }

    /// The first line of `program ARGS` (its version), when it runs.
    pub fn version(&self, args: &[&str]) -> Option<String> {
        let mut cmd = Command::new(self.program);
        cmd.args(args);
        let Ran::Done {
            stdout,
            stderr,
            status,
        } = run(&mut cmd, None, Duration::from_secs(10))
        else {
            return None;
        };
        let text = if stdout.is_empty() { stderr } else { stdout };
        let line = String::from_utf8_lossy(&text)
            .lines()
            .next()?
            .trim()
            .to_string();
        (status.success() && !line.is_empty()).then_some(line)
    }
}

/// A temporary directory holding one file named like the one being checked, with `text` in it.
fn temp_copy(text: &[u8], name: &OsStr) -> std::io::Result<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::Builder::new().prefix("llm-check-").tempdir()?;
    let file = dir.path().join(name);
    std::fs::write(&file, text)?;
    Ok((dir, file))
}

/// A warning of `tool` that it did not examine `shown` (so its pass says nothing about it).
pub(crate) fn not_examined(
    tool: &str,
    shown: String,
    message: String,
    remediation: &str,
) -> DiagnosticPayload {
    let mut d = Error::new(Code::CheckerSkipped, message, remediation)
        .with_file(shown)
        .diagnostic(Level::Warning);
    d.tool = tool.into();
    d
}

/// The report for a temporary copy that could not be written.
fn no_temp(name: &'static str, tool: &str, e: std::io::Error, started: Instant) -> ValidatorReport {
    let err = Error::new(
        Code::CheckerFailed,
        format!("could not write a temporary copy to check: {e}"),
        "check that the temporary directory ($TMPDIR) is writable, or drop --check",
    );
    ValidatorReport::unavailable(name, None, started, Verdict::Error, err, tool)
}

/// Where a tool's message points in the checked text: a 1-based line and, when known, a
/// 1-based column counted in `units`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct At {
    pub line: usize,
    pub col: Option<(usize, Units)>,
}

/// A diagnostic of `tool` at `at` in `text` (the file spelled `display`). The span covers the
/// word (identifier or number) at the column, else the one character there, else — without a
/// column — the line's text from its first non-blank character.
pub(crate) fn located(
    tool: &str,
    level: Level,
    code: Option<String>,
    message: String,
    text: &[u8],
    display: &str,
    at: At,
) -> DiagnosticPayload {
    let index = LineIndex::new(text);
    let line = at.line.clamp(1, index.line_count());
    let line_end = index.offset_units(text, line - 1, usize::MAX, Units::Utf8);
    let line_start = index.offset_units(text, line - 1, 0, Units::Utf8);
    let range = match at.col {
        Some((col, units)) => {
            let start = index.offset_units(text, line - 1, col.saturating_sub(1), units);
            let rest = std::str::from_utf8(&text[start..line_end]).unwrap_or("");
            let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
            let len = match rest.chars().next() {
                Some(c) if word(c) => rest.find(|c: char| !word(c)).unwrap_or(rest.len()),
                Some(c) => c.len_utf8(),
                None => 0,
            };
            start..start + len
        }
        None => {
            let lead = text[line_start..line_end]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            let mut end = line_end;
            while end > line_start + lead && text[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            line_start + lead..end
        }
    };
    let remediation = match level {
        Level::Error => format!("fix the code at the span (`{tool}` rejects it)"),
        _ => "not an error, but worth a look".to_string(),
    };
    DiagnosticPayload {
        tool: tool.to_string(),
        level,
        code,
        message,
        file: Some(display.to_string()),
        span: Some(index.span(display, range)),
        note: None,
        remediation: Some(remediation),
    }
}

/// Removes exact repeats (same level, message, file and span), keeping the first of each.
pub(crate) fn dedup(diagnostics: &mut Vec<DiagnosticPayload>) {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| seen.insert(serde_json::to_string(d).unwrap_or_default()));
}

/// The nearest directory at or above `dir` holding `name`.
pub(crate) fn upward(dir: &Path, name: &str) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(name).is_file())
        .map(Path::to_path_buf)
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
        // A line number the message quotes moves with the change: the same error (PHP's
        // `previously declared in p.php:7` was new after two lines went in above it).
        let php = |m: &str| diag(Level::Error, "E", m, "p.php");
        let moved = introduced(
            &[php("Cannot redeclare f() (previously declared in p.php:5)")],
            &[php("Cannot redeclare f() (previously declared in p.php:7)")],
        );
        assert!(moved.is_empty(), "{moved:?}");
        assert_eq!(
            unplaced("on line 12: expected 2, found 3"),
            "on line #: expected 2, found 3"
        );
    }

    /// A checker that stops at its first error (Python's compile(), `php -l`, `bash -n`) with
    /// an error there before the change: the pass says it could not see past it.
    #[test]
    fn a_first_error_checker_says_what_it_could_not_see() {
        let started = Instant::now();
        let e = |m: &str| DiagnosticPayload {
            tool: python::NAME.into(),
            ..diag(Level::Error, "SyntaxError", m, "m.py")
        };
        let before = ValidatorReport::from_diagnostics(python::NAME, None, started, vec![e("old")]);
        let after = ValidatorReport::from_diagnostics(python::NAME, None, started, vec![e("old")]);
        let judged = after.relative_to(&before);
        assert_eq!(judged.verdict, Verdict::Passed);
        assert_eq!(judged.diagnostics.len(), 1);
        assert_eq!(judged.diagnostics[0].level, Level::Note);
        assert!(judged.diagnostics[0]
            .message
            .contains("cannot see new ones"));
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
