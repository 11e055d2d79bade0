//! Errors with stable codes: every failure any subcommand reports is an [`Error`] carrying a
//! [`Code`] from the one table below, a message, and a remediation.
//!
//! The table is the source of the README's error-code list (a test keeps them in step).
//! Codes are stable once released: add new ones at the end of a subcommand's block, never renumber.

use crate::envelope::{DiagnosticPayload, Level, Status};
use crate::span::Span;

macro_rules! codes {
    ($( $variant:ident = $id:literal, $status:ident, $summary:literal; )*) => {
        /// Every stable error code `llm` can report.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Code { $($variant),* }

        impl Code {
            /// All codes, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The wire spelling, e.g. `SEARCH_E001`.
            pub fn id(self) -> &'static str {
                match self { $(Code::$variant => $id),* }
            }

            /// One line saying what the code means (the README table).
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary),* }
            }

            /// The status a run ends with when this code stops it.
            pub fn status(self) -> Status {
                match self { $(Code::$variant => Status::$status),* }
            }
        }
    };
}

codes! {
    // Whole program.
    UsageInvalid = "LLM_E001", Error, "invalid command-line arguments";
    OutputFailed = "LLM_E002", Error, "could not write the output";
    GenerateFailed = "LLM_E003", Error, "`llm generate` could not write completions or man pages";
    // Shared by the commands that walk a tree (search, ast, find); `tool` names the command.
    PathNotFound = "LLM_E004", Error, "a path given on the command line does not exist";
    PathUnreadable = "LLM_E005", Error, "a file or directory could not be read (permissions, I/O error, symlink loop)";
    InvalidGlob = "LLM_E006", Error, "a --glob pattern is not valid";
    UnknownType = "LLM_E007", Error, "a --type/--type-not name is not in the type table";
    FileTooLarge = "LLM_E008", Ok, "a file named on the command line is larger than --max-filesize and was skipped (warning)";
    NotUtf8 = "LLM_E009", Ok, "a file is not valid UTF-8; its text fields are shown lossily (warning)";
    // search
    InvalidRegex = "SEARCH_E001", Error, "the search pattern is not a valid regular expression";
    BinarySearched = "SEARCH_E002", Ok, "a binary file named on the command line was searched; text fields are lossy (warning)";
    InvalidArgument = "SEARCH_E003", Error, "an option value is out of range or contradicts another option";
    BinaryStopped = "SEARCH_E004", Ok, "a binary file found by walking matched before its first NUL byte; searching it stopped there, as ripgrep does (warning)";
}

/// A failure with a stable code and a remediation. Carried up to the printer, which turns it
/// into the envelope's `error` (json/jsonl) or a message on stderr (human).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}: {message}", code.id())]
pub struct Error {
    pub code: Code,
    pub message: String,
    pub remediation: String,
    pub note: Option<String>,
    pub file: Option<String>,
    pub span: Option<Span>,
    /// Overrides the code's status (e.g. a validation failure that rejects rather than errors).
    pub status: Option<Status>,
    /// Further diagnostics that explain the failure (every candidate of an ambiguous symbol…).
    pub related: Vec<DiagnosticPayload>,
}

impl Error {
    /// A new error with its remediation.
    pub fn new(code: Code, message: impl Into<String>, remediation: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            remediation: remediation.into(),
            note: None,
            file: None,
            span: None,
            status: None,
            related: Vec::new(),
        }
    }

    /// Attaches the file the error is about.
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Attaches the span the error is about (and its file).
    pub fn with_span(mut self, span: Span) -> Self {
        self.file.get_or_insert_with(|| span.file_path.clone());
        self.span = Some(span);
        self
    }

    /// Attaches a note with more context.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Makes the run end `rejected` (refused on purpose) instead of the code's default.
    pub fn rejected(mut self) -> Self {
        self.status = Some(Status::Rejected);
        self
    }

    /// Adds diagnostics that go with the error in the envelope's `diagnostics[]`.
    pub fn with_related(mut self, related: Vec<DiagnosticPayload>) -> Self {
        self.related = related;
        self
    }

    /// The status a run that stops on this error ends with.
    pub fn status(&self) -> Status {
        self.status.unwrap_or(match self.code.status() {
            Status::Ok => Status::Error,
            s => s,
        })
    }

    /// The diagnostics that accompany the error.
    pub fn extra_diagnostics(&self) -> &[DiagnosticPayload] {
        &self.related
    }

    /// The tool name the code belongs to (`search` for `SEARCH_E001`).
    pub fn tool(&self) -> String {
        tool_of(self.code)
    }

    /// This error as an error-level diagnostic.
    pub fn to_diagnostic(&self) -> DiagnosticPayload {
        self.diagnostic(Level::Error)
    }

    /// This error as a diagnostic of the given level (for problems that did not stop the run).
    pub fn diagnostic(&self, level: Level) -> DiagnosticPayload {
        DiagnosticPayload {
            tool: self.tool(),
            level,
            code: Some(self.code.id().to_string()),
            message: self.message.clone(),
            file: self.file.clone(),
            span: self.span.clone(),
            note: self.note.clone(),
            remediation: Some(self.remediation.clone()),
        }
    }
}

fn tool_of(code: Code) -> String {
    let id = code.id();
    id[..id.find('_').unwrap_or(id.len())].to_ascii_lowercase()
}

/// Shorthand for results whose error is an [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            let id = code.id();
            assert!(seen.insert(id), "duplicate code {id}");
            let (tool, num) = id.split_once("_E").expect("<TOOL>_E<NNN>");
            assert!(tool.chars().all(|c| c.is_ascii_uppercase()), "{id}");
            assert!(
                num.len() == 3 && num.chars().all(|c| c.is_ascii_digit()),
                "{id}"
            );
            assert!(!code.summary().is_empty());
        }
    }

    #[test]
    fn diagnostic_carries_code_and_remediation() {
        let e = Error::new(Code::InvalidRegex, "bad", "use -F").with_file("a.rs");
        let d = e.to_diagnostic();
        assert_eq!(d.tool, "search");
        assert_eq!(d.code.as_deref(), Some("SEARCH_E001"));
        assert_eq!(d.remediation.as_deref(), Some("use -F"));
        assert_eq!(e.status(), Status::Error);
        assert_eq!(e.clone().rejected().status(), Status::Rejected);
    }
}
