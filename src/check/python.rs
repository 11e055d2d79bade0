//! Python's own parser as a validator: `compile()` on the text, run by `python3` with the source
//! on stdin (no file, no `__pycache__`), errors and `SyntaxWarning`s mapped to our spans.
//! Called by `write --check` and `patch --check` for Python files.

use super::{not_installed, run, tail, Ran, ValidatorReport, Verdict};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{LineIndex, Units};
use serde::Deserialize;
use std::ffi::OsString;
use std::process::Command;
use std::time::{Duration, Instant};

/// The validator's name in `validators[]`.
pub const NAME: &str = "python compile";

/// How to run Python.
#[derive(Debug, Clone)]
pub struct PythonOptions {
    /// The interpreter (default `python3` from PATH).
    pub program: OsString,
    /// Longest the compile may take before it is stopped.
    pub timeout: Duration,
}

impl Default for PythonOptions {
    fn default() -> Self {
        PythonOptions {
            program: "python3".into(),
            timeout: Duration::from_secs(30),
        }
    }
}

/// Run with `-I -B`: isolated (the working directory is not on `sys.path`, so a local `json.py`
/// cannot shadow the standard library; `PYTHON*` variables are ignored) and no bytecode written.
/// `compile()` only parses and compiles: nothing of the checked code runs.
const SCRIPT: &str = r#"
import sys, json, warnings
out = {"version": sys.version.split()[0], "warnings": []}
data = sys.stdin.buffer.read()
try:
    src = data.decode("utf-8-sig")
except UnicodeDecodeError as e:
    out["error"] = {"type": "UnicodeDecodeError", "msg": str(e)}
else:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            compile(src, sys.argv[1], "exec", dont_inherit=True)
        except SyntaxError as e:
            out["error"] = {"type": type(e).__name__, "msg": e.msg, "lineno": e.lineno,
                "offset": e.offset, "end_lineno": getattr(e, "end_lineno", None),
                "end_offset": getattr(e, "end_offset", None)}
        except (ValueError, MemoryError, RecursionError) as e:
            out["error"] = {"type": type(e).__name__, "msg": str(e)}
    out["warnings"] = [{"type": w.category.__name__, "msg": str(w.message), "lineno": w.lineno}
        for w in caught if w.filename == sys.argv[1]]
sys.stdout.write(json.dumps(out))
"#;

#[derive(Deserialize)]
struct Outcome {
    version: Option<String>,
    error: Option<Problem>,
    #[serde(default)]
    warnings: Vec<Problem>,
}

#[derive(Deserialize)]
struct Problem {
    #[serde(rename = "type")]
    kind: String,
    msg: String,
    lineno: Option<usize>,
    offset: Option<i64>,
    end_lineno: Option<usize>,
    end_offset: Option<i64>,
}

/// Compiles `text` (the file's full contents, as it would be stored) and reports syntax errors
/// (`SyntaxError`, `IndentationError`, `TabError`…) and warnings with spans in the file spelled
/// `display`.
pub fn check(text: &[u8], display: &str, opts: &PythonOptions) -> ValidatorReport {
    let started = Instant::now();
    let mut cmd = Command::new(&opts.program);
    cmd.args(["-I", "-B", "-c", SCRIPT, display])
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let program = opts.program.to_string_lossy().into_owned();
    let fail = |verdict: Verdict, err: Error| {
        ValidatorReport::unavailable(NAME, None, started, verdict, err, "python")
    };
    let stdout = match run(&mut cmd, Some(text), opts.timeout) {
        Ran::Done { status, stdout, .. } if status.success() => stdout,
        Ran::Done { stderr, .. } => {
            let err = Error::new(
                Code::CheckerFailed,
                format!("`{program}` could not run the compile check"),
                "check that the interpreter is Python 3.8 or newer, or drop --check",
            )
            .with_note(tail(&stderr, 1000));
            return fail(Verdict::Error, err);
        }
        Ran::NotFound => {
            let install = "your system's package manager, e.g. `apt-get install python3`, or https://www.python.org/downloads/";
            return fail(Verdict::NotAvailable, not_installed(&program, install));
        }
        Ran::TimedOut { .. } => {
            let err = Error::new(
                Code::CheckerTimedOut,
                format!(
                    "`{program}` did not finish compiling within {} s and was stopped",
                    opts.timeout.as_secs_f64()
                ),
                "retry; a file this slow to compile may be pathological (deep nesting)",
            );
            return fail(Verdict::TimedOut, err);
        }
        Ran::Failed(e) => {
            let err = Error::new(
                Code::CheckerNotAvailable,
                format!("`{program}` could not be started: {e}"),
                "check that Python 3 is installed and executable, or drop --check",
            );
            return fail(Verdict::NotAvailable, err);
        }
    };
    let outcome: Outcome = match serde_json::from_slice(&stdout) {
        Ok(o) => o,
        Err(e) => {
            let err = Error::new(
                Code::CheckerFailed,
                format!("`{program}` answered something other than the expected JSON: {e}"),
                "check that `python3` is CPython 3.8 or newer",
            )
            .with_note(tail(&stdout, 400));
            return fail(Verdict::Error, err);
        }
    };
    let index = LineIndex::new(text);
    let mut diagnostics: Vec<DiagnosticPayload> = outcome
        .error
        .iter()
        .map(|p| diagnostic(p, Level::Error, text, &index, display))
        .collect();
    diagnostics.extend(
        outcome
            .warnings
            .iter()
            .map(|p| diagnostic(p, Level::Warning, text, &index, display)),
    );
    ValidatorReport::from_diagnostics(NAME, outcome.version, started, diagnostics)
}

fn diagnostic(
    p: &Problem,
    level: Level,
    text: &[u8],
    index: &LineIndex,
    display: &str,
) -> DiagnosticPayload {
    let span = p.lineno.filter(|&l| l >= 1).map(|line| {
        let range = range(p, line, text, index);
        index.span(display, range)
    });
    let remediation = match level {
        Level::Error => "fix the syntax at the span (Python's own parser rejects it)",
        _ => "not an error, but worth fixing: the code probably does not mean what it says",
    };
    DiagnosticPayload {
        tool: "python".into(),
        level,
        code: Some(p.kind.clone()),
        message: p.msg.clone(),
        file: Some(display.to_string()),
        span,
        note: None,
        remediation: Some(remediation.into()),
    }
}

/// The byte range Python means. Its `offset`/`end_offset` count characters from 1 on the
/// BOM-less text; a problem without columns covers its whole line; an empty or backwards range
/// covers the one character at its start (if that is not the end of the line).
fn range(p: &Problem, line: usize, text: &[u8], index: &LineIndex) -> std::ops::Range<usize> {
    let bom = usize::from(text.starts_with("\u{feff}".as_bytes()));
    let at = |line: usize, offset: i64| {
        let col = usize::try_from(offset - 1).unwrap_or(0) + if line == 1 { bom } else { 0 };
        index.offset_units(text, line - 1, col, Units::Utf32)
    };
    let Some(offset) = p.offset.filter(|&o| o >= 1) else {
        let start = index.offset_units(
            text,
            line - 1,
            if line == 1 { bom } else { 0 },
            Units::Utf32,
        );
        let end = index.offset_units(text, line - 1, usize::MAX, Units::Utf32);
        return start..end;
    };
    let start = at(line, offset);
    let end = match (p.end_lineno, p.end_offset) {
        (Some(l), Some(o)) if l >= line && o >= 1 => at(l, o),
        _ => start,
    };
    if end > start {
        return start..end;
    }
    let line_end = index.offset_units(text, line - 1, usize::MAX, Units::Utf32);
    let next = std::str::from_utf8(&text[start..line_end])
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(0, char::len_utf8);
    start..start + next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::covered;

    fn compile(text: &str) -> ValidatorReport {
        check(text.as_bytes(), "pkg/mod.py", &PythonOptions::default())
    }

    #[test]
    fn valid_code_passes_with_a_version() {
        let r = compile("def f(x):\n    return x + 1\n");
        assert_eq!(r.verdict, Verdict::Passed, "{r:#?}");
        assert!(r.diagnostics.is_empty());
        assert!(r.version.as_deref().unwrap().starts_with('3'));
        assert_eq!(r.name, NAME);
    }

    #[test]
    fn syntax_error_span_on_a_multibyte_line() {
        // `€` is not a valid character in an expression; the span must cover exactly it.
        let text = "s = 'ok'\nx = '😀é'; foo(€ 1)\n";
        let r = compile(text);
        assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
        let d = &r.diagnostics[0];
        assert_eq!(d.code.as_deref(), Some("SyntaxError"));
        assert_eq!(d.tool, "python");
        assert_eq!(d.file.as_deref(), Some("pkg/mod.py"));
        assert!(d.message.contains('€'), "{d:?}");
        assert_eq!(covered(text, d), "€");
        assert_eq!(d.span.as_ref().unwrap().start_line, 2);
    }

    #[test]
    fn errors_tree_sitter_accepts_are_caught_with_ranges() {
        let text = "x = 1\nreturn x\n";
        let r = compile(text);
        assert_eq!(r.verdict, Verdict::Failed);
        assert_eq!(covered(text, &r.diagnostics[0]), "return x");

        let text = "\u{feff}def f(a, a):\r\n    pass\r\n";
        let r = compile(text);
        let d = &r.diagnostics[0];
        assert!(d.message.contains("duplicate argument"), "{d:?}");
        assert_eq!(covered(text, d), "a");
        assert_eq!(d.span.as_ref().unwrap().start_col, 3 + 9, "BOM bytes count");
    }

    #[test]
    fn indentation_error_and_unclosed_bracket() {
        let text = "def f():\n\treturn 1\n  x = 2\n";
        let d = &compile(text).diagnostics[0];
        assert_eq!(d.code.as_deref(), Some("IndentationError"));
        assert_eq!(d.span.as_ref().unwrap().start_line, 3);

        let text = "x = (1,\n";
        let d = &compile(text).diagnostics[0];
        assert_eq!(covered(text, d), "(");
    }

    #[test]
    fn syntax_warnings_do_not_reject() {
        let text = "x = 1\nif x is 1:\n    pass\n";
        let r = compile(text);
        assert_eq!(r.verdict, Verdict::Passed, "{r:#?}");
        let w = &r.diagnostics[0];
        assert_eq!(w.level, Level::Warning);
        assert_eq!(w.code.as_deref(), Some("SyntaxWarning"));
        assert_eq!(covered(text, w), "if x is 1:");
    }

    #[test]
    fn no_pycache_and_no_local_shadowing() {
        let dir = tempfile::tempdir().unwrap();
        // A json.py in the working directory must not be imported by the checker.
        std::fs::write(dir.path().join("json.py"), "raise SystemExit(3)\n").unwrap();
        let opts = PythonOptions::default();
        let mut cmd = Command::new(&opts.program);
        cmd.current_dir(dir.path())
            .args(["-I", "-B", "-c", SCRIPT, "m.py"]);
        match run(&mut cmd, Some(b"import os\n"), opts.timeout) {
            Ran::Done { status, stdout, .. } => {
                assert!(status.success());
                assert!(String::from_utf8_lossy(&stdout).contains("\"version\""));
            }
            _ => panic!("python3 did not run"),
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("json.py")]);
    }

    #[test]
    fn missing_interpreter_is_not_available_and_bad_bytes_are_reported() {
        let opts = PythonOptions {
            program: "llm-test-no-such-python".into(),
            ..PythonOptions::default()
        };
        let r = check(b"x = 1\n", "m.py", &opts);
        assert_eq!(r.verdict, Verdict::NotAvailable);
        assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
        assert_eq!(r.diagnostics[0].level, Level::Error);

        let r = check(b"x = '\xff'\n", "m.py", &PythonOptions::default());
        assert_eq!(r.verdict, Verdict::Failed);
        assert_eq!(r.diagnostics[0].code.as_deref(), Some("UnicodeDecodeError"));
    }
}
