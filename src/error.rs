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
    SpecialFile = "LLM_E010", Ok, "a path names a FIFO, socket or device: skipped without opening it, counted in stats.skipped.special (warning)";
    // search
    InvalidRegex = "SEARCH_E001", Error, "the search pattern is not a valid regular expression";
    BinarySearched = "SEARCH_E002", Ok, "a binary file named on the command line was searched; text fields are lossy (warning)";
    InvalidArgument = "SEARCH_E003", Error, "an option value is out of range or contradicts another option";
    BinaryStopped = "SEARCH_E004", Ok, "a binary file found by walking matched before its first NUL byte; searching it stopped there, as ripgrep does (warning)";
    NoFilesSearched = "SEARCH_E005", Error, "no file was searched: every file under the paths was removed by a filter (hidden, ignore files, globs, types, depth, size); the message names them";
    NulPattern = "SEARCH_E006", Error, "the pattern can only match a NUL byte, which binary detection makes impossible; pass -a/--text";
    UnknownEncoding = "SEARCH_E007", Error, "the -E/--encoding value is not an encoding label encoding_rs knows (nor auto or none)";
    PreprocessFailed = "SEARCH_E008", Error, "a --pre command or a -z decompressor failed on a file (could not start, exited with an error, or gave more than 256 MiB): that file was not searched, the rest was";
    DecompressorMissing = "SEARCH_E009", Ok, "-z met a compressed file whose decompression program is not installed: the file was skipped (warning)";
    // The mutation core, shared by transform, patch and write; `tool` names the command.
    ChecksumMismatch = "LLM_E101", Rejected, "the file's SHA-256 is not the expected checksum: it changed since it was read";
    ConcurrentModification = "LLM_E102", Rejected, "another process changed the file between its read and the write";
    EditOutOfRange = "LLM_E103", Error, "an edit's byte range is reversed or past the end of the file";
    EditsOverlap = "LLM_E104", Error, "two edits overlap (or one file appears twice in a request)";
    EditSplitsChar = "LLM_E105", Error, "an edit boundary falls inside a UTF-8 character";
    SyntaxIntroduced = "LLM_E106", Rejected, "the change introduces a syntax error (ERROR or MISSING node)";
    OutsideRoot = "LLM_E107", Error, "the target is outside the workspace root (by `..` or through a symlink)";
    NotAFile = "LLM_E108", Error, "the target is not a regular file (directory, dangling symlink, device)";
    HardLinked = "LLM_E109", Error, "the target has several hard links; an atomic replace would split them";
    WriteFailed = "LLM_E110", Error, "writing failed (permissions, disk full); files already replaced were restored";
    FileExists = "LLM_E111", Rejected, "the file already exists and replacing it was not asked for";
    PathNotText = "LLM_E112", Error, "the target's path is not valid UTF-8: JSON cannot spell it exactly, so it is never a mutation target";
    ReadOnlyTarget = "LLM_E113", Rejected, "the target file is read-only (no write permission bit); pass --force to replace it anyway";
    ForeignWrite = "LLM_E114", Ok, "another program wrote to the file while llm replaced it; the overtaken bytes are kept in .llm/objects/ (warning)";
    TargetTooLarge = "LLM_E115", Error, "the target (or a file named for reading) is larger than the 1 GiB limit";
    BadChecksum = "LLM_E116", Error, "an expected checksum is not a SHA-256 (64 hexadecimal digits)";
    JournalFailed = "LLM_E117", Error, "the journal (.llm/ at the workspace's top level) could not be written; nothing was changed";
    UndoChanged = "LLM_E118", Rejected, "llm undo: a file of the operation changed since (its checksum is not the operation's after-checksum); nothing was changed";
    UndoUnknown = "LLM_E119", Error, "llm undo: no such operation in the journal, or nothing left to undo";
    UndoAlready = "LLM_E120", Rejected, "llm undo: the operation was already undone, or was rolled back after a crash";
    JournalTarget = "LLM_E121", Error, "the target is inside the journal (.llm/ at the workspace's top level), which only llm itself writes";
    JournalUntrusted = "LLM_E122", Error, "a journal record or pre-image llm cannot trust (damaged or not written by llm, a path outside the root without --allow-outside-root here, bytes that do not hold their checksum): not acted on";
    // ast
    InvalidQuery = "AST_E001", Error, "the tree-sitter query does not compile for any language it was tried on";
    UnknownLanguage = "AST_E002", Error, "a --lang name is not a registered language";
    QueryFileUnreadable = "AST_E003", Error, "the --query-file could not be read";
    SyntaxErrors = "AST_E004", Ok, "a file has syntax errors; matches inside the broken region may be missing (warning)";
    NoLanguage = "AST_E005", Error, "a file named on the command line has no registered language (pass --lang); a warning when other files were searched";
    BadPosition = "AST_E006", Error, "a --at position is not LINE:COL inside the file";
    SourceNotUtf8 = "AST_E007", Ok, "a file found by the walk is not valid UTF-8 and was not parsed (warning; name it to parse it anyway)";
    // find
    UnknownKind = "FIND_E001", Error, "a --kind name is not a symbol kind";
    InvalidNameRegex = "FIND_E002", Error, "the --regex NAME is not a valid regular expression";
    FindSyntaxErrors = "FIND_E003", Ok, "a file has syntax errors; symbols inside the broken region may be missing (warning)";
    FindArguments = "FIND_E004", Error, "NAME is missing (it is required unless --outline)";
    NoSuchSymbol = "FIND_E005", NoMatches, "no symbol matched NAME; the remediation lists close names";
    // transform
    BadRequest = "TRANSFORM_E001", Error, "the edit request (stdin or --edits) is not valid JSON or lacks a required field";
    NoEdits = "TRANSFORM_E002", Error, "the input holds no edits (empty request, or query output without matches)";
    OldTextNotFound = "TRANSFORM_E003", Rejected, "--old text occurs nowhere in the file, even after normalising line endings and indentation";
    OldTextAmbiguous = "TRANSFORM_E004", Rejected, "--old text occurs more than once and --all was not given";
    AlreadyApplied = "TRANSFORM_E005", Rejected, "--old text is absent but --new text is present: the edit was probably applied before";
    NoReplacement = "TRANSFORM_E006", Error, "query output piped in has no replacement (search without -r, ast/find without --replace)";
    TransformArgs = "TRANSFORM_E007", Error, "the options contradict each other or the input (e.g. --expected-checksum with several files)";
    OldTextMismatch = "TRANSFORM_E008", Rejected, "an edit's recorded old text (matched_text/old_content) is not what the file holds at its range";
    UnknownCapture = "TRANSFORM_E009", Error, "a --replace template names a capture the match does not have";
    FailedQueryInput = "TRANSFORM_E010", Error, "the query output piped in is a failed run (status error) with nothing to apply";
    // check: the external checkers shared by `write --check/--lsp` and `patch --check`
    CheckerNotAvailable = "CHECK_E001", Rejected, "a requested checker (cargo, python3, a language server) is not installed or could not start; never counted as a pass";
    CheckerTimedOut = "CHECK_E002", Rejected, "a checker did not finish within its timeout (it was stopped); never counted as a pass";
    CheckerFailed = "CHECK_E003", Rejected, "a checker ran but could not do its job (bad Cargo.toml, server crashed, protocol error)";
    CheckerSkipped = "CHECK_E004", Ok, "the checker does not apply to this file (e.g. a Rust file outside any Cargo package, or not reached by any `mod`) (warning)";
    // write
    NoContent = "WRITE_E001", Error, "no content was given, or more than one source (--content, --content-file, stdin)";
    ValidationFailed = "WRITE_E002", Rejected, "a validator (tree-sitter, --check, --lsp) reported errors; nothing was written";
    SuspiciousContent = "WRITE_E003", Rejected, "the content is not UTF-8, or shrinks the file drastically while containing elision markers";
    ParentMissing = "WRITE_E004", Error, "the file's directory does not exist (pass --parents to create it)";
    WriteUnknownLanguage = "WRITE_E005", Error, "--lang names no language llm knows";
    // patch
    PatchNoSymbol = "PATCH_E001", Rejected, "no symbol of that name (and kind/parent/line) in the file";
    PatchAmbiguous = "PATCH_E002", Rejected, "several symbols match; the diagnostics list each with the flag that picks it";
    PatchNoBody = "PATCH_E003", Error, "--body was asked of a symbol without a body";
    PatchNoText = "PATCH_E004", Error, "no new text was given (--with, --with-text or stdin)";
    PatchUnsupportedLanguage = "PATCH_E005", Error, "the file's language is not registered";
    PatchBadName = "PATCH_E006", Error, "the --rename name is not an identifier";
    PatchCheckFailed = "PATCH_E007", Rejected, "--check found errors the patch introduced; the files were restored";
    PatchBadInput = "PATCH_E008", Error, "stdin is neither text nor the JSON output of `llm find` for one symbol";
    PatchNameTaken = "PATCH_E009", Rejected, "the --rename name is already taken where the symbol is seen: defined in its scope (in C and C++ also in a header included with quotes), bound as a local or parameter where a renamed site lies, or used there (a builtin, an import); nothing was renamed";
    PatchNotAName = "PATCH_E010", Error, "the symbol's name is not an identifier --rename can change (an operator, a conversion operator, a destructor, an indexer), or an impl's or a constructor's type is not defined in its file, or a trait impl's item's trait is not, or a method overrides one its file does not define (`@Override`, `override`, a C# explicit `INamed.Title`), or a C# property or method, or a Java method, may implement an interface's (Java: a supertype's) another file or a library declares, or is one the language calls by its name (`__getitem__`, PHP's `Countable::count`), or a Go method an interface ties to another by its name, or a Ruby module's method a class's override reaches through `super`, or a Ruby method that overrides one of another file (or an `Exception` method)";
    PatchDeleteChangesOthers = "PATCH_E011", Rejected, "--delete would delete or change other definitions too: one of several names one declaration declares where it cannot go alone (Go's `var a, b = f()`, Python's `a = b = 1`), a Go constant whose value the constants after it repeat, a Bash function in an `&&`/`||` list with another command (refused; nothing was written); as a warning: constants after a deleted Go constant count iota, and their values change";
    PatchNothingRenamed = "PATCH_E012", Rejected, "--rename found no site to rename: no occurrence, the definition's own included, is one it may change (a Python name an import from another module binds first; a TypeScript `new (…)` signature; a string key); nothing was written";
    // show
    ShowNoSymbol = "SHOW_E001", NoMatches, "no symbol matched NAME (and --kind/--parent/--line) under the paths; the remediation lists close names";
    ShowBadRange = "SHOW_E002", Error, "FILE:START-END or FILE:LINE names no lines of the file (reversed, zero, or past its end)";
    ShowArgs = "SHOW_E003", Error, "the arguments name nothing to show (NAME, FILE:START-END, or --skeleton PATH)";
    ShowNoLanguage = "SHOW_E004", Ok, "a file named for a symbol or a skeleton has no registered language and was skipped (warning)";
    // apply
    ApplyBadPatch = "APPLY_E001", Error, "the input is not a patch in a known format, or is malformed (bad header, bad line prefix, no `*** End Patch`, binary diff)";
    ApplyEmpty = "APPLY_E002", Error, "the input holds no operations (empty patch, no file sections, empty batch)";
    ApplyHunkNotFound = "APPLY_E003", Rejected, "a hunk's old lines are not in the file where it may go, even tolerantly (a hunk that ends or starts the file goes only there); the closest region is reported (or a file to delete differs from the diff's)";
    ApplyBadOperation = "APPLY_E004", Error, "a batch line is not a JSON object with a known `op` and that operation's fields";
    ApplyConflict = "APPLY_E005", Rejected, "an operation targets a file an earlier operation of the input deleted or moved away, or creates one that exists";
    ApplyCheckFailed = "APPLY_E006", Rejected, "--check found errors the input introduced; the files were restored";
    ApplyGitDir = "APPLY_E007", Error, "the input names a path inside a `.git` directory, which a patch may not touch (as `git apply` refuses)";
    ApplyHunkAmbiguous = "APPLY_E008", Rejected, "a hunk without context lines, not at its line number or without one, removes lines that are in several places of the file";
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
