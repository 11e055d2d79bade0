//! The mutation core shared by `transform`, `patch` and `write`: every file change goes
//! prepare → commit → (optional external check) → keep or roll back.
//!
//! - [`prepare`] reads each file, checks the caller's expected checksum, applies the edits in
//!   memory (line endings and BOM kept), re-parses supported languages and rejects syntax errors
//!   the change introduced, and computes line counts and diffs. Nothing is written; `--dry-run`
//!   stops here.
//! - [`Prepared::commit`] locks the files' directories (exclusive, in path order), re-reads every
//!   file and compares it with what was prepared (compare-and-swap: a concurrent writer is
//!   detected, never overwritten), stages every new content in a temp file beside its target
//!   (same permissions, fsync), then renames them all in; if one rename fails the files already
//!   replaced are restored. All or nothing.
//! - [`Committed`] keeps the locks so a caller can run a checker on the real project and then
//!   [`Committed::rollback`] (restores old contents, removes created files) or
//!   [`Committed::keep`].
//!
//! `gate.rs` holds the syntax gate [`prepare`] runs, `commit.rs` the writing half.

use crate::edit::{self, Edit, LineEnding, BOM};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::fsio::{self, Keep};
use crate::lang::{self, Language};
use crate::paths::{Root, Target};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::display_path;
use serde::Serialize;
use std::path::{Component, PathBuf};

/// Options every mutation shares (`--root`, `--allow-outside-root`, `--dry-run`, `--force`).
#[derive(Debug, Clone)]
pub struct MutationOptions {
    /// Workspace root; nothing is written outside it unless `allow_outside_root`.
    pub root: PathBuf,
    pub allow_outside_root: bool,
    /// Compute everything and include a diff; write nothing.
    pub dry_run: bool,
    /// Write even when validation finds introduced syntax errors (reported as warnings).
    pub force: bool,
    /// Convert `\n` in new text to the file's line ending (CRLF files stay CRLF). `false` keeps
    /// new text byte for byte.
    pub match_line_endings: bool,
    /// Name of the subcommand, for diagnostics.
    pub tool: &'static str,
}

/// What to do to one file.
#[derive(Debug, Clone)]
pub enum Content {
    /// Byte edits on the file as it is (the file must exist).
    Edits(Vec<Edit>),
    /// The whole new content (the file may or may not exist; see [`Change::create`]).
    Replace(Vec<u8>),
    /// Remove the file (it must exist). Restored from its old content if the request fails.
    Delete,
}

/// Whether the target may or must exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existence {
    /// Edit an existing file.
    MustExist,
    /// Create a new file; refuse if it exists.
    MustNotExist,
    /// Create or replace.
    Either,
}

/// One file's change request.
#[derive(Debug, Clone)]
pub struct Change {
    pub path: PathBuf,
    pub content: Content,
    /// Refuse (rejected) unless the file's SHA-256 is this.
    pub expected_checksum: Option<String>,
    pub existence: Existence,
    /// Language for the syntax check; `None` = from the extension.
    pub language: Option<&'static Language>,
    /// The file's syntax tree as the caller already parsed it (same bytes as on disk): the
    /// check after the edit is then an incremental re-parse instead of a full one.
    pub tree: Option<tree_sitter::Tree>,
    /// For a created file, the content of the file it was moved or copied from: the syntax
    /// check counts only errors that one did not have (a renamed file's own are not new).
    pub origin: Option<Vec<u8>>,
}

impl Change {
    /// Byte edits on an existing file.
    pub fn edits(
        path: impl Into<PathBuf>,
        edits: Vec<Edit>,
        expected_checksum: Option<String>,
    ) -> Self {
        Change {
            path: path.into(),
            content: Content::Edits(edits),
            expected_checksum,
            existence: Existence::MustExist,
            language: None,
            tree: None,
            origin: None,
        }
    }

    /// Hands over the tree the caller parsed from the file's current bytes.
    pub fn with_tree(mut self, tree: tree_sitter::Tree) -> Self {
        self.tree = Some(tree);
        self
    }

    /// Removes an existing file.
    pub fn delete(path: impl Into<PathBuf>, expected_checksum: Option<String>) -> Self {
        Change {
            path: path.into(),
            content: Content::Delete,
            expected_checksum,
            existence: Existence::MustExist,
            language: None,
            tree: None,
            origin: None,
        }
    }

    /// Creates a new file (refused if it exists).
    pub fn create(path: impl Into<PathBuf>, content: Vec<u8>) -> Self {
        Change {
            path: path.into(),
            content: Content::Replace(content),
            expected_checksum: None,
            existence: Existence::MustNotExist,
            language: None,
            tree: None,
            origin: None,
        }
    }
}

/// Where one edit landed.
#[derive(Debug, Clone, Serialize)]
pub struct EditReport {
    /// Position of the edit in the request.
    pub index: usize,
    /// The new text's span in the file after the change.
    pub span: Span,
    /// The replaced range in the file before the change.
    pub old_span: Span,
    pub status: &'static str,
}

/// What happened (or would happen, in a dry run) to one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub file_path: String,
    pub created: bool,
    /// The file is removed (`after_checksum` is then empty).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// SHA-256 before (null for a created file).
    pub before_checksum: Option<String>,
    pub after_checksum: String,
    pub edits: Vec<EditReport>,
    pub lines_added: usize,
    pub lines_removed: usize,
    pub total_byte_shift: i64,
    pub applied_count: usize,
    pub skipped_count: usize,
    /// `lf` or `crlf`: the file's line ending, kept.
    pub line_ending: &'static str,
    /// The file starts with a UTF-8 BOM (kept).
    pub bom: bool,
    /// Unified diff (dry runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// The mutation part of every mutation's `result`.
#[derive(Debug, Clone, Serialize)]
pub struct MutationResult {
    pub dry_run: bool,
    pub files: Vec<FileReport>,
    pub applied_count: usize,
    pub skipped_count: usize,
    pub lines_added: usize,
    pub lines_removed: usize,
    /// The command that undoes this mutation (`llm undo <execution_id>`), once it is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<String>,
}

impl MutationResult {
    /// The unified diff of every file (dry runs).
    pub fn diff(&self) -> String {
        self.files
            .iter()
            .filter_map(|f| f.diff.as_deref())
            .collect()
    }
}

struct PreparedFile {
    /// `None` while directories on the way are still to be created (`llm write --parents`):
    /// resolved at commit.
    target: Option<Target>,
    path: PathBuf,
    display: String,
    before: Option<Vec<u8>>,
    after: Vec<u8>,
    keep: Option<Keep>,
    /// Remove the file instead of writing `after`.
    delete: bool,
    /// Permission bits the written file gets (else the old file's, or the default).
    mode: Option<u32>,
}

impl PreparedFile {
    fn target(&self) -> &Target {
        self.target
            .as_ref()
            .expect("targets are resolved before anything is written")
    }
}

/// Changes computed and validated in memory; nothing written yet.
pub struct Prepared {
    files: Vec<PreparedFile>,
    root: Root,
    tool: &'static str,
    /// The workspace's top level (where `.llm/` lives).
    top: PathBuf,
    /// The result to report (checksums, spans, counts, diffs on dry runs).
    pub result: MutationResult,
    /// Warnings (e.g. syntax errors written anyway with `--force`).
    pub diagnostics: Vec<DiagnosticPayload>,
    /// Directories the caller created for this run (deepest first): journaled, so that
    /// undo removes them when they are empty.
    created_dirs: Vec<PathBuf>,
    /// The caller checks the files once written (`--check`), and keeps or rolls back.
    validating: bool,
}

impl Prepared {
    /// The caller runs checkers on the written files before it keeps them (`--check`): until
    /// it does, a crash (or a kill) leaves a change never validated, which recovery rolls
    /// back instead of completing.
    pub fn set_validating(&mut self) {
        self.validating = true;
    }

    /// Gives the file of the `index`-th change the permission bits `mode` when it is written
    /// (part of the same commit, journaled: undo restores the old mode).
    pub fn set_mode(&mut self, index: usize, mode: u32) {
        if let Some(f) = self.files.get_mut(index) {
            f.mode = Some(mode & 0o7777);
        }
    }

    /// The directories the caller created for this run, deepest first (recorded in the
    /// journal, removed by undo when empty).
    pub fn set_created_dirs(&mut self, dirs: &[PathBuf]) {
        self.created_dirs = dirs.to_vec();
    }
}

/// The permission bits of a kept file.
fn mode_bits(keep: &Keep) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    keep.permissions.mode() & 0o7777
}

/// What the written file of `f` keeps: its old metadata with `f.mode` applied.
fn keep_for(f: &PreparedFile) -> Option<Keep> {
    use std::os::unix::fs::PermissionsExt;
    match (f.mode, &f.keep) {
        (None, k) => k.clone(),
        (Some(m), k) => Some(Keep {
            permissions: std::fs::Permissions::from_mode(m),
            owner: k.as_ref().and_then(|k| k.owner),
        }),
    }
}

/// Reads, checks and computes every change. Errors: bad input or I/O (`error`); a checksum
/// mismatch or an introduced syntax error (`rejected`, with each error's span in
/// `error.related`). Nothing is written.
pub fn prepare(changes: &[Change], opts: &MutationOptions) -> Result<Prepared, Error> {
    let root = Root::open(&opts.root, opts.allow_outside_root)?;
    let top = store::workspace_top(&root.named);
    if !opts.dry_run {
        // An interrupted run is completed or rolled back before anything is read.
        crate::journal::recover::at(&top, opts.allow_outside_root)?;
    }
    let mut files = Vec::with_capacity(changes.len());
    let mut reports = Vec::with_capacity(changes.len());
    let mut rejected: Vec<DiagnosticPayload> = Vec::new();
    let mut warnings = Vec::new();
    for change in changes {
        let display = display_path(&change.path);
        let target = match root.resolve(&change.path, &display) {
            Ok(t) => Some(t),
            // A file to create in directories still to be made (`llm write --parents`).
            Err(e)
                if e.code == Code::PathNotFound
                    && change.existence != Existence::MustExist
                    && !change.path.parent().is_some_and(|p| {
                        root.missing_dirs(p, &display).is_ok_and(|m| m.is_empty())
                    }) =>
            {
                None
            }
            Err(e) => return Err(e),
        };
        // `..` is resolved physically (as a read of the path is): show the file it names.
        let display = match &target {
            Some(t)
                if change
                    .path
                    .components()
                    .any(|c| matches!(c, Component::ParentDir)) =>
            {
                display_path(&t.real)
            }
            _ => display,
        };
        // The journal and its kept bytes are llm's own: a mutation that wrote them could make a
        // later undo or recovery write anything, anywhere it was allowed to.
        let at = match &target {
            Some(t) => t.real.clone(),
            None => crate::walk::absolute(&change.path),
        };
        if store::in_store(&top, &at) {
            return Err(Error::new(
                Code::JournalTarget,
                format!("{display} is inside the journal (.llm/), which only llm writes"),
                "edit files of the tree, not .llm/; `llm history` and `llm undo` read the journal",
            )
            .with_file(&display));
        }
        let real = target.as_ref().map(|t| t.real.clone());
        if real.is_some()
            && files
                .iter()
                .any(|f: &PreparedFile| f.target.as_ref().map(|t| &t.real) == real.as_ref())
        {
            return Err(Error::new(
                Code::EditsOverlap,
                format!("{display} appears twice in one request"),
                "put all edits of one file in one request entry",
            )
            .with_file(&display));
        }
        let file = match &target {
            Some(t) => t.open().map_err(|e| {
                Error::new(
                    Code::PathUnreadable,
                    format!("{display}: {e}"),
                    "check the file's permissions",
                )
                .with_file(&display)
            })?,
            None => None,
        };
        match (change.existence, file.is_some()) {
            (Existence::MustExist, false) => {
                return Err(Error::new(
                    Code::PathNotFound,
                    format!("{display} does not exist"),
                    "check the path (relative to the current directory); use `llm write` to create files",
                )
                .with_file(&display))
            }
            (Existence::MustNotExist, true) => {
                return Err(Error::new(
                    Code::FileExists,
                    format!("{display} already exists"),
                    "pass --overwrite (with --expected-checksum from a prior read) to replace it",
                )
                .with_file(&display))
            }
            _ => {}
        }
        let (before, keep) = match &file {
            Some(f) => {
                let keep = fsio::check_replaceable(f, &display, opts.force)?;
                (Some(fsio::read_all(f, &display)?), Some(keep))
            }
            None => (None, None),
        };
        let before_sum = before.as_deref().map(checksum);
        if let Some(expected) = &change.expected_checksum {
            valid_checksum(expected, &display)?;
            let actual = before_sum.as_deref().unwrap_or("(file does not exist)");
            if !expected.eq_ignore_ascii_case(actual) {
                return Err(changed_since_read(
                    &display,
                    expected,
                    actual,
                    "re-run the query that produced the edit (or re-read the file) and build the edit from the current content",
                ));
            }
        }
        let old = before.as_deref().unwrap_or(b"");
        let ending = edit::detect_line_ending(old);
        let adapt = |text: &[u8]| {
            if opts.match_line_endings && before.is_some() {
                edit::to_line_ending(text, ending)
            } else {
                text.to_vec()
            }
        };
        let (after, placed) = match &change.content {
            Content::Edits(edits) => {
                // An edit that puts back the bytes it replaces changes nothing, also in a file
                // whose lines end both ways (its `\n`s are not made the file's ending).
                let adapted: Vec<Edit> = edits
                    .iter()
                    .map(|e| {
                        let e = Edit {
                            new_content: match old.get(e.byte_start..e.byte_end) {
                                Some(was) if was == e.new_content.as_slice() => was.to_vec(),
                                _ => adapt(&e.new_content),
                            },
                            ..e.clone()
                        };
                        // `llm apply` made the whole new content itself, its BOM as the
                        // patch says (line 1 removed takes it away).
                        match opts.tool {
                            "apply" => e,
                            _ => edit::keep_bom_first(old, &e),
                        }
                    })
                    .collect();
                let applied = edit::apply(old, &adapted, &display)?;
                (applied.bytes, applied.placed)
            }
            Content::Delete => (Vec::new(), Vec::new()),
            Content::Replace(new) => {
                let mut new = adapt(new);
                // `llm undo` puts back exact pre-images.
                if old.starts_with(BOM) && !new.starts_with(BOM) && opts.tool != "undo" {
                    new.splice(0..0, BOM.iter().copied());
                }
                let placed = vec![edit::Placed {
                    index: 0,
                    old: 0..old.len(),
                    new: 0..new.len(),
                }];
                (new, placed)
            }
        };
        let deleting = matches!(change.content, Content::Delete);
        // A change that leaves the file byte-identical cannot introduce an error (a body sent
        // back as it is, in a file with an error the grammar already saw).
        let unchanged = before.is_some() && after[..] == old[..];
        // By the name, else by the real file's (a link named `le` to `e.rs` holds Rust).
        let language = (change.language)
            .or_else(|| lang::for_path(&change.path))
            .or_else(|| real.as_deref().and_then(lang::for_path));
        if let Some(language) = language.filter(|_| !deleting && !unchanged) {
            let old_tree = change
                .tree
                .as_ref()
                .filter(|_| matches!(change.content, Content::Edits(_)));
            // A file moved or copied is judged against the one it came from.
            let origin = (change.origin.as_deref())
                .filter(|_| before.is_none())
                .map(|from| {
                    (
                        from,
                        edit::apply(from, &edit::between(from, &after), &display),
                    )
                });
            let (old, placed, created) = match &origin {
                Some((from, Ok(applied))) => (*from, &applied.placed, false),
                _ => (old, &placed, before.is_none()),
            };
            let mut found = introduced_syntax_errors(
                language, old, old_tree, &after, placed, created, &display, opts.tool,
            );
            if language.name == "python" && found.is_empty() {
                found.extend(introduced_indentation_error(
                    old, &after, placed, created, &display, opts.tool,
                ));
            }
            if let Some(rule) = tree_rule(language).filter(|_| found.is_empty()) {
                found.extend(introduced_rule_error(
                    language, &rule, old, &after, placed, created, &display, opts.tool,
                ));
            }
            if opts.force {
                warnings.extend(found.into_iter().map(|mut d| {
                    d.level = Level::Warning;
                    d.note = Some(format!(
                        "{} (written anyway: --force)",
                        d.note.unwrap_or_default()
                    ));
                    d
                }));
            } else {
                rejected.extend(found);
            }
        }
        let old_index = LineIndex::new(old);
        let new_index = LineIndex::new(&after);
        let mut edit_reports: Vec<EditReport> = placed
            .iter()
            .map(|p| EditReport {
                index: p.index,
                span: new_index.span(&display, p.new.clone()),
                old_span: old_index.span(&display, p.old.clone()),
                status: "applied",
            })
            .collect();
        edit_reports.sort_by_key(|e| e.index);
        let (lines_added, lines_removed, diff) = line_changes(old, &after, &display, opts.dry_run);
        reports.push(FileReport {
            file_path: display.clone(),
            created: before.is_none(),
            deleted: deleting,
            before_checksum: before_sum,
            after_checksum: if deleting {
                String::new()
            } else {
                checksum(&after)
            },
            applied_count: if deleting { 1 } else { edit_reports.len() },
            edits: edit_reports,
            lines_added,
            lines_removed,
            total_byte_shift: after.len() as i64 - old.len() as i64,
            skipped_count: 0,
            // A created file has no old content: report what was written.
            line_ending: match if before.is_some() {
                ending
            } else {
                edit::detect_line_ending(&after)
            } {
                LineEnding::Lf => "lf",
                LineEnding::CrLf => "crlf",
            },
            bom: after.starts_with(BOM),
            diff,
        });
        files.push(PreparedFile {
            target,
            path: change.path.clone(),
            display,
            before,
            after,
            keep,
            delete: deleting,
            mode: None,
        });
    }
    if !rejected.is_empty() {
        let first = rejected[0].clone();
        let mut err = Error::new(
            Code::SyntaxIntroduced,
            format!(
                "the change introduces {} syntax error{} ({}); nothing was written",
                rejected.len(),
                if rejected.len() == 1 { "" } else { "s" },
                first.message
            ),
            "fix the new text (see each diagnostic's span, in the file as it would be after the change), or pass --force to write it anyway",
        )
        .rejected()
        .with_related(rejected);
        if let Some(span) = first.span {
            err = err.with_span(span);
        }
        return Err(err);
    }
    let result = MutationResult {
        dry_run: opts.dry_run,
        applied_count: reports.iter().map(|r| r.applied_count).sum(),
        skipped_count: 0,
        lines_added: reports.iter().map(|r| r.lines_added).sum(),
        lines_removed: reports.iter().map(|r| r.lines_removed).sum(),
        files: reports,
        undo: None,
    };
    Ok(Prepared {
        files,
        top,
        root,
        tool: opts.tool,
        result,
        diagnostics: warnings,
        created_dirs: Vec::new(),
        validating: false,
    })
}

/// Refuses an expected checksum that is not a SHA-256 (64 hex digits): a typo must be an input
/// error, not a "changed since it was read" rejection.
/// The one `LLM_E101` (`rejected`): `display` no longer has the checksum the caller expected.
pub fn changed_since_read(display: &str, expected: &str, found: &str, remediation: &str) -> Error {
    Error::new(
        Code::ChecksumMismatch,
        format!("{display} changed since it was read: expected checksum {expected}, found {found}"),
        remediation,
    )
    .with_file(display)
    .rejected()
}

pub fn valid_checksum(expected: &str, display: &str) -> Result<(), Error> {
    if crate::span::is_sha256(expected) {
        return Ok(());
    }
    Err(Error::new(
        Code::BadChecksum,
        format!("{display}: expected checksum {expected:?} is not a SHA-256 (64 hexadecimal digits)"),
        "pass the `checksum` a query reported for the file (e.g. `llm search --json` data.files[].checksum), or drop the option",
    )
    .with_file(display))
}
/// Lines added and removed (a line diff), and the unified diff when asked.
fn line_changes(
    old: &[u8],
    new: &[u8],
    display: &str,
    want_diff: bool,
) -> (usize, usize, Option<String>) {
    // A BOM both sides keep is no part of line 1: with it, a line added before line 1 counted
    // as +2 -1 (line 1 changed too).
    let (old, new) = match (old.strip_prefix(BOM), new.strip_prefix(BOM)) {
        (Some(o), Some(n)) => (o, n),
        _ => (old, new),
    };
    let old_s = String::from_utf8_lossy(old);
    let new_s = String::from_utf8_lossy(new);
    // A deadline keeps huge rewrites fast (Myers is O(N·D)); past it the diff is still
    // correct, just not minimal.
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_millis(500))
        .diff_lines(old_s.as_ref(), new_s.as_ref());
    let (mut added, mut removed) = (0, 0);
    for op in diff.ops() {
        for change in diff.iter_changes(op) {
            match change.tag() {
                similar::ChangeTag::Insert => added += 1,
                similar::ChangeTag::Delete => removed += 1,
                similar::ChangeTag::Equal => {}
            }
        }
    }
    // A name with a newline must not break the diff's header lines.
    let shown = crate::output::human::escape_controls(display);
    let text = want_diff.then(|| {
        diff.unified_diff()
            .context_radius(3)
            .header(&format!("a/{shown}"), &format!("b/{shown}"))
            .to_string()
    });
    (added, removed, text)
}

/// Prepares and, unless it is a dry run, commits and keeps. The common path for commands
/// without an external check.
pub fn run(
    changes: &[Change],
    opts: &MutationOptions,
) -> Result<(MutationResult, Vec<DiagnosticPayload>), Error> {
    let prepared = prepare(changes, opts)?;
    if opts.dry_run {
        return Ok((prepared.result, prepared.diagnostics));
    }
    Ok(prepared.commit()?.keep())
}

mod commit;
mod gate;
pub mod store;

pub use commit::Committed;
use gate::{
    introduced_indentation_error, introduced_rule_error, introduced_syntax_errors, tree_rule,
};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod delete_tests;
