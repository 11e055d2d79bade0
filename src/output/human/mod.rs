//! Human (ripgrep-like) rendering: colours, diagnostics, and one file per command.

pub mod ast;
pub mod find;
pub mod mutation;
pub mod search;
pub mod show;

use crate::envelope::{DiagnosticPayload, Level};

/// ANSI styles used in human output.
pub struct Style {
    pub on: bool,
}

impl Style {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    /// File paths (magenta, as ripgrep).
    pub fn path(&self, t: &str) -> String {
        self.wrap("35", t)
    }
    /// Line and column numbers (green).
    pub fn line_no(&self, t: &str) -> String {
        self.wrap("32", t)
    }
    /// Matched text (bold red).
    pub fn matched(&self, t: &str) -> String {
        self.wrap("1;31", t)
    }
    /// Secondary information (dim).
    pub fn dim(&self, t: &str) -> String {
        self.wrap("2", t)
    }
}

/// `llm <tool>: error[CODE]: message (file) — remediation`, one line per diagnostic plus a
/// `  = note:` / `  = help:` line when present.
pub fn diagnostic_line(d: &DiagnosticPayload) -> String {
    let level = match d.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    let code = d
        .code
        .as_deref()
        .map(|c| format!("[{c}]"))
        .unwrap_or_default();
    let mut s = format!("llm {}: {level}{code}: {}", d.tool, d.message);
    if let Some(span) = &d.span {
        s.push_str(&format!(
            "\n  --> {}:{}:{}",
            span.file_path,
            span.start_line,
            span.start_col + 1
        ));
    }
    if let Some(n) = &d.note {
        s.push_str(&format!("\n  = note: {n}"));
    }
    if let Some(r) = &d.remediation {
        s.push_str(&format!("\n  = help: {r}"));
    }
    s
}
