//! Helpers for the checkers' tests: skip (loudly, failing under CI) when a tool is missing, and
//! the text a diagnostic's span covers.

use crate::envelope::DiagnosticPayload;
use crate::span::LineIndex;
use std::process::{Command, Stdio};

/// For tests that need an external tool: true when `program` runs (`program ARG`). When it does
/// not, the test fails under CI (`CI` set: `.ci/run` installs every checker) and is skipped
/// with a loud message elsewhere.
pub(crate) fn have(program: &str, arg: &str) -> bool {
    let ok = Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "`{program}` is not installed; `.ci/run` installs every checker the tests need"
        );
        eprintln!(
            "SKIPPED: `{program}` is not installed (CI would fail here; run .ci/run to install it)"
        );
    }
    ok
}

/// For checker tests: the text `d`'s span covers, after asserting that its line and column
/// agree with its byte offset.
pub(crate) fn covered<'a>(text: &'a str, d: &DiagnosticPayload) -> &'a str {
    let s = d.span.as_ref().expect("span");
    let (line, col) = LineIndex::new(text.as_bytes()).position(s.byte_start);
    assert_eq!((s.start_line, s.start_col), (line, col), "{s:?}");
    &text[s.byte_start..s.byte_end]
}
