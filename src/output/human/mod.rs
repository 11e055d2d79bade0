//! Human (ripgrep-like) rendering: colours, diagnostics, and one file per command.

pub mod ast;
pub mod find;
pub mod history;
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
    /// File paths (magenta, as ripgrep), control characters escaped (see [`escape_controls`]).
    pub fn path(&self, t: &str) -> String {
        self.wrap("35", &escape_controls(t))
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

/// `text` with control characters (C0, DEL, C1) written as escapes (`\n`, `\t`, `\u{1b}`…), so
/// that a file name cannot fake lines of output or send terminal sequences. Text without any
/// is returned as it is.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
    let mut s = format!(
        "llm {}: {level}{code}: {}",
        d.tool,
        escape_controls(&d.message)
    );
    if let Some(span) = &d.span {
        s.push_str(&format!(
            "\n  --> {}:{}:{}",
            escape_controls(&span.file_path),
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
