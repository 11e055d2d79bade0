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

use crate::edit::{self, Edit, LineEnding, BOM};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::fsio::{self, Keep, Lock};
use crate::lang::{self, Language};
use crate::paths::{Root, Target};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::display_path;
use serde::Serialize;
use std::fs::File;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

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

/// Syntax errors in `after` that `before` did not have: more errors than before, or any error
/// touching an edited range. Spans are in the file after the change.
#[allow(clippy::too_many_arguments)]
fn introduced_syntax_errors(
    language: &Language,
    before: &[u8],
    before_tree: Option<&tree_sitter::Tree>,
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Vec<DiagnosticPayload> {
    // A tree of some regions only (`lang::regions`, as `llm patch` parses): the moved regions
    // are parsed again; any error there, or an edit outside them, is judged on the whole file.
    if let Some(ranges) = before_tree.and_then(|t| region_ranges(t, before.len())) {
        if let Some(moved) = move_ranges(&ranges, placed) {
            let index = LineIndex::new(after);
            if !language
                .parse_ranges(after, &index, &moved)
                .root_node()
                .has_error()
            {
                return Vec::new();
            }
        }
        return introduced_syntax_errors(
            language, before, None, after, placed, created, display, tool,
        );
    }
    let after_tree = match before_tree {
        Some(t) => reparse(language, before, t, after, placed),
        None => language.parse(after),
    };
    let after_errors = lang::syntax_errors(&after_tree);
    if after_errors.is_empty() {
        return Vec::new();
    }
    let mut before_errors = match (created, before_tree) {
        (true, _) => Vec::new(),
        (false, Some(t)) => lang::syntax_errors(t),
        (false, None) => lang::syntax_errors(&language.parse(before)),
    };
    // A file that had errors, in a language with a region scanner: the edited items are judged
    // each parsed alone, before and after, as the symbols of such a file are read (see
    // `symbols_of_items`): the whole-file recovery of an error elsewhere can swallow a new one.
    let mut after_errors = after_errors;
    if let (false, Some(scan)) = (before_errors.is_empty(), language.rules.regions) {
        let new: Vec<_> = placed.iter().map(|p| p.new.clone()).collect();
        let after_items = edited_items(after, scan, &new);
        // Before, the same items: an inserted comment joins the item after it, whose error
        // (there before) is then judged on both sides.
        let old: Vec<_> = (placed.iter().map(|p| p.old.clone()))
            .chain(after_items.iter().map(|r| unshifted(r, placed)))
            .collect();
        before_errors = item_errors(language, before, &edited_items(before, scan, &old));
        after_errors = item_errors(language, after, &after_items);
        if after_errors.is_empty() {
            return Vec::new();
        }
    }
    let touches = |r: &Range<usize>| touches_an_edit(placed, r);
    // An error that starts where one started before, outside the edits (moved by those before
    // it), is that one: its recovery may now end elsewhere (it can run over the edits). With
    // more errors than before, the others are new; else those of them the edits touch. Only
    // when that leaves none (recovery shifted every error) are all of them shown.
    let old: Vec<(usize, bool)> = before_errors
        .iter()
        .filter(|e| {
            !placed
                .iter()
                .any(|p| p.old.start <= e.range.start && e.range.start < p.old.end)
        })
        .map(|e| (shifted(&e.range, placed).start, e.missing))
        .collect();
    // Errors that started inside an edit went with the text it replaced: the edit is judged
    // against those that stay (deleting a Bash function with an old error, leaving a bare
    // `&&` after it, swapped one error for another and was written).
    let more = after_errors.len() > old.len();
    let mut shown: Vec<&lang::SyntaxError> = after_errors
        .iter()
        .filter(|e| !old.contains(&(e.range.start, e.missing)) && (more || touches(&e.range)))
        .collect();
    if shown.is_empty() && more {
        shown = after_errors.iter().collect();
    }
    let index = LineIndex::new(after);
    shown
        .into_iter()
        .map(|e| {
            let span = index.span(display, e.range.clone());
            let line =
                String::from_utf8_lossy(index.line_text(after, span.start_line)).into_owned();
            let message = if e.missing {
                format!(
                    "syntax error: missing `{}`",
                    e.expected.as_deref().unwrap_or("?")
                )
            } else {
                let text = String::from_utf8_lossy(&after[e.range.clone()]);
                let shown: String = text.chars().take(40).collect();
                format!("syntax error: unexpected `{}`", shown.trim())
            };
            let mut d = Error::new(
                Code::SyntaxIntroduced,
                format!(
                    "{message} at {display}:{}:{}",
                    span.start_line,
                    span.start_col + 1
                ),
                "fix the new text at this position, or pass --force",
            )
            .with_span(span)
            .with_note(format!(
                "{} parse of the changed file; line {}: {line}",
                language.name,
                index.position(e.range.start).0
            ))
            .diagnostic(Level::Error);
            d.tool = tool.to_string();
            d
        })
        .collect()
}

/// The ranges of the top-level items of `source` that touch one of `edited`.
fn edited_items(
    source: &[u8],
    scan: fn(&[u8]) -> lang::regions::Regions,
    edited: &[Range<usize>],
) -> Vec<Range<usize>> {
    items_touching(scan(source), edited)
}

/// The ranges of the top-level items of `regions` that touch one of `edited`.
fn items_touching(regions: lang::regions::Regions, edited: &[Range<usize>]) -> Vec<Range<usize>> {
    (regions.items.into_iter())
        .map(|i| i.range)
        .filter(|r| edited.iter().any(|e| r.start <= e.end && e.start <= r.end))
        .collect()
}

/// The syntax errors of `items` of `source`, each parsed alone.
fn item_errors(
    language: &Language,
    source: &[u8],
    items: &[Range<usize>],
) -> Vec<lang::SyntaxError> {
    let index = LineIndex::new(source);
    items
        .iter()
        .flat_map(|r| {
            lang::syntax_errors(&language.parse_ranges(source, &index, std::slice::from_ref(r)))
        })
        .collect()
}

/// Where `range` of the file after the edits `placed` lay before them: the inverse of
/// [`shifted`], an end inside an edit's new text taken to that edit's old range.
fn unshifted(range: &Range<usize>, placed: &[edit::Placed]) -> Range<usize> {
    let back = |x: usize, end: bool| {
        let mut delta = 0isize;
        for p in placed.iter().filter(|p| p.new.start <= x) {
            if x < p.new.end {
                return if end { p.old.end } else { p.old.start };
            }
            delta += p.old.len() as isize - p.new.len() as isize;
        }
        x.saturating_add_signed(delta)
    };
    back(range.start, false)..back(range.end, true)
}

/// Where `range` of the file before the edits `placed` lies after them (a range outside every
/// edit moves by the growth of the edits before it).
fn shifted(range: &Range<usize>, placed: &[edit::Placed]) -> Range<usize> {
    let mut delta = 0isize;
    for p in placed.iter().filter(|p| p.old.end <= range.start) {
        delta += p.new.len() as isize - p.old.len() as isize;
    }
    let at = |x: usize| x.saturating_add_signed(delta);
    at(range.start)..at(range.end)
}

/// Python's indentation rules, which tree-sitter does not enforce: the first indentation error
/// of `after` when `before` had none (or it lies in an edited range), as a syntax error.
fn introduced_indentation_error(
    before: &[u8],
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Option<DiagnosticPayload> {
    let e = crate::indent::python_indentation_error(after)?;
    let touches = touches_an_edit(placed, &e.range);
    if !created && !touches && crate::indent::python_indentation_error(before).is_some() {
        return None;
    }
    let line_end =
        memchr::memchr(b'\n', &after[e.range.start..]).map_or(after.len(), |k| e.range.start + k);
    Some(rule_error(
        after,
        e.range.start..line_end,
        display,
        tool,
        |at| format!("syntax error: {} at {at}", e.message),
        "fix the indentation of the new text at this line, or pass --force",
        "Python's indentation rules",
    ))
}

/// Whether `range` of the file after the edits `placed` touches one of their new texts.
fn touches_an_edit(placed: &[edit::Placed], range: &Range<usize>) -> bool {
    placed
        .iter()
        .any(|p| range.start <= p.new.end && p.new.start <= range.end)
}

/// An error of a language rule tree-sitter does not enforce, at `range` of `after`: `message`
/// gets the place (`file:line:col`), the note names the rule and shows the line.
fn rule_error(
    after: &[u8],
    range: Range<usize>,
    display: &str,
    tool: &str,
    message: impl FnOnce(String) -> String,
    fix: &str,
    rule: &str,
) -> DiagnosticPayload {
    let index = LineIndex::new(after);
    let span = index.span(display, range);
    let line = String::from_utf8_lossy(index.line_text(after, span.start_line)).into_owned();
    let at = format!("{display}:{}:{}", span.start_line, span.start_col + 1);
    let mut d = Error::new(Code::SyntaxIntroduced, message(at), fix)
        .with_span(span.clone())
        .with_note(format!(
            "{rule} (tree-sitter accepts this); line {}: {line}",
            span.start_line
        ))
        .diagnostic(Level::Error);
    d.tool = tool.to_string();
    d
}

/// The places of a tree that break a [`TreeRule`], each with what it is.
type Breaks = Vec<(Range<usize>, &'static str)>;

/// A language's rule that tree-sitter does not enforce, read from its tree.
struct TreeRule {
    /// The ranges of a tree that break the rule, each with what it is.
    find: fn(&tree_sitter::Tree) -> Breaks,
    /// The message, from what broke it and where (`file:line:col`).
    message: fn(&str, &str) -> String,
    fix: &'static str,
    rule: &'static str,
}

/// The tree rule of a language, if it has one: Bash's compound commands hold a command (`if
/// true; then fi`, `f() { }`, a `{ }` left with a comment only); Go's constant specs have a
/// value where no spec before them gives one (`const ( B )` left by deleting `A = iota`).
fn tree_rule(language: &Language) -> Option<TreeRule> {
    match language.name {
        "bash" => Some(TreeRule {
            find: lang::bash::empty_bodies,
            message: |what, at| {
                format!("syntax error: a {what} without a command at {at} (bash rejects it)")
            },
            fix: "give the body a command (`:` does nothing), or pass --force",
            rule: "Bash's grammar",
        }),
        "go" => Some(TreeRule {
            find: lang::go::valueless_consts,
            message: |what, at| {
                format!("syntax error: {what} at {at} (Go rejects it: missing constant value)")
            },
            fix: "give the constant a value (`= …`), or pass --force",
            rule: "Go's grammar",
        }),
        _ => None,
    }
}

/// The first place of `after` that breaks `rule` and that an edit touches, or that `before`
/// did not have, as a syntax error. With a region scanner, only the items the edits touch are
/// parsed (a rule's break lies inside one item).
#[allow(clippy::too_many_arguments)]
fn introduced_rule_error(
    language: &Language,
    rule: &TreeRule,
    before: &[u8],
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Option<DiagnosticPayload> {
    let parse = |src: &[u8], edited: &[Range<usize>]| {
        // One scan of the file: its items, when they parse apart.
        let regions = language.rules.regions.map(|scan| scan(src));
        match regions
            .filter(|r| r.independent)
            .map(|r| items_touching(r, edited))
        {
            Some(items) if !items.is_empty() => {
                language.parse_ranges(src, &LineIndex::new(src), &items)
            }
            _ => language.parse(src),
        }
    };
    let new: Vec<_> = placed.iter().map(|p| p.new.clone()).collect();
    let now = (rule.find)(&parse(after, &new));
    if now.is_empty() {
        return None;
    }
    // A created file had none.
    let had = if created {
        Vec::new()
    } else {
        let old: Vec<_> = placed.iter().map(|p| p.old.clone()).collect();
        (rule.find)(&parse(before, &old))
    };
    let touches = |r: &Range<usize>| touches_an_edit(placed, r);
    let (range, what) = now
        .into_iter()
        .find(|(r, _)| touches(r) || !had.iter().any(|(o, _)| shifted(o, placed) == *r))?;
    Some(rule_error(
        after,
        range,
        display,
        tool,
        |at| (rule.message)(what, &at),
        rule.fix,
        rule.rule,
    ))
}

/// The byte ranges a tree of some regions was parsed from; `None` for a whole-file tree.
fn region_ranges(tree: &tree_sitter::Tree, len: usize) -> Option<Vec<Range<usize>>> {
    let ranges = tree.included_ranges();
    let whole = ranges.len() == 1 && ranges[0].start_byte == 0 && ranges[0].end_byte >= len;
    (!whole).then(|| ranges.iter().map(|r| r.start_byte..r.end_byte).collect())
}

/// `ranges` (before the edits) moved and stretched by the edits, each of which must lie inside
/// one of them (touching an end counts); `None` when one does not.
fn move_ranges(ranges: &[Range<usize>], placed: &[edit::Placed]) -> Option<Vec<Range<usize>>> {
    let inside = |p: &edit::Placed| {
        ranges
            .iter()
            .any(|r| r.start <= p.old.start && p.old.end <= r.end)
    };
    if !placed.iter().all(inside) {
        return None;
    }
    let delta = |p: &edit::Placed| p.new.len() as isize - p.old.len() as isize;
    let moved = ranges
        .iter()
        .map(|r| {
            let before: isize = placed
                .iter()
                .filter(|p| p.old.start < r.start)
                .map(delta)
                .sum();
            let through: isize = placed
                .iter()
                .filter(|p| p.old.start <= r.end)
                .map(delta)
                .sum();
            (r.start as isize + before) as usize..(r.end as isize + through) as usize
        })
        .collect();
    Some(moved)
}

/// Incremental re-parse: the old tree is told about every edit (last first, so earlier offsets
/// stay valid) and only the changed regions are parsed again.
fn reparse(
    language: &Language,
    before: &[u8],
    tree: &tree_sitter::Tree,
    after: &[u8],
    placed: &[edit::Placed],
) -> tree_sitter::Tree {
    let mut tree = tree.clone();
    let index = LineIndex::new(before);
    let point = |off: usize| {
        let (line, col) = index.position(off);
        tree_sitter::Point {
            row: line - 1,
            column: col,
        }
    };
    for p in placed.iter().rev() {
        let start = point(p.old.start);
        let new_text = &after[p.new.clone()];
        let (rows, col) = crate::span::extent(new_text);
        let new_end = tree_sitter::Point {
            row: start.row + rows,
            column: if rows == 0 { start.column + col } else { col },
        };
        tree.edit(&tree_sitter::InputEdit {
            start_byte: p.old.start,
            old_end_byte: p.old.end,
            new_end_byte: p.old.start + new_text.len(),
            start_position: start,
            old_end_position: point(p.old.end),
            new_end_position: new_end,
        });
    }
    language
        .parser()
        .parse(after, Some(&tree))
        .unwrap_or_else(|| language.parse(after))
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

impl Prepared {
    /// Writes every prepared file, all or nothing, and keeps the directory locks until the
    /// returned [`Committed`] is kept or rolled back.
    ///
    /// Under the locks each existing file is opened once; that handle is the pre-image of the
    /// file (the inode the rename will detach). Its bytes are compared with what was prepared
    /// (compare-and-swap), the new contents are staged, the handle is compared once more right
    /// before each rename, and after the renames it must still hold exactly what was validated:
    /// bytes another program wrote in between are kept in `.llm/objects/` and reported as an
    /// `LLM_E114` warning — never lost silently.
    pub fn commit(mut self) -> Result<Committed, Error> {
        for f in &mut self.files {
            if f.target.is_none() {
                f.target = Some(self.root.resolve(&f.path, &f.display)?);
            }
        }
        // The journal is locked first (then the directories, always in that order).
        let journal = crate::journal::open_for_commit(&self.top, self.root.allows_outside())?;
        let mut order: Vec<usize> = (0..self.files.len()).collect();
        let dir_of = |i: &usize| self.files[*i].target().real.parent().map(Path::to_path_buf);
        order.sort_by_key(dir_of);
        order.dedup_by_key(|i| dir_of(i));
        let mut locks = Vec::with_capacity(order.len());
        for i in order {
            let f = &self.files[i];
            let shown = f
                .target()
                .real
                .parent()
                .map_or_else(String::new, display_path);
            locks.push(Lock::acquire(&f.target().dir, &shown)?);
        }
        let changed = |f: &PreparedFile| {
            Error::new(
                Code::ConcurrentModification,
                format!(
                    "{} was changed by another process after it was read; nothing was written",
                    f.display
                ),
                "re-read the file and redo the edit on its current content",
            )
            .with_file(&f.display)
            .rejected()
        };
        // The intent and the pre-images, durably, before any file is touched (and before the
        // temp files, which are named from the execution id so recovery can remove them).
        let active = match journal {
            Some(j) => {
                let intents: Vec<crate::journal::Intent> = self
                    .files
                    .iter()
                    .map(|f| crate::journal::Intent {
                        file_path: &f.display,
                        real: &f.target().real,
                        before: f.before.as_deref(),
                        after: (!f.delete).then_some(f.after.as_slice()),
                        before_mode: f.keep.as_ref().map(mode_bits),
                        after_mode: (!f.delete).then(|| {
                            keep_for(f)
                                .as_ref()
                                .map_or(0o666 & !fsio::current_umask(), mode_bits)
                        }),
                    })
                    .collect();
                Some(j.begin(
                    self.tool,
                    self.root.path == Path::new("/"),
                    &intents,
                    &self.created_dirs,
                    self.validating,
                )?)
            }
            None => None,
        };
        let id = active.as_ref().map(|a| a.id().to_string());
        // Nothing touched yet: the staged files are removed on drop, the intent is dropped.
        let give_up = |active: Option<crate::journal::Active>, e: Error| {
            if let Some(a) = active {
                a.abandon();
            }
            Err(e)
        };
        // Staged first (written and fsynced, the slow part), so that the compare-and-swap, the
        // last compare and the rename follow each other closely.
        let mut staged = Vec::with_capacity(self.files.len());
        for (i, f) in self.files.iter().enumerate() {
            if f.delete {
                staged.push(None);
                continue;
            }
            let name = id
                .as_deref()
                .map(|id| crate::journal::temp_name(id, i, false));
            match fsio::stage_named(
                f.target(),
                &f.after,
                keep_for(f).as_ref(),
                &f.display,
                name.as_deref(),
            ) {
                Ok(t) => staged.push(Some(t)),
                Err(e) => {
                    drop(staged);
                    return give_up(active, e);
                }
            }
        }
        // Compare-and-swap, under the locks: the files must still be what was prepared.
        let compared = || -> Result<Vec<Option<File>>, Error> {
            let mut held: Vec<Option<File>> = Vec::with_capacity(self.files.len());
            for f in &self.files {
                let file = f.target().open().map_err(|e| {
                    Error::new(
                        Code::PathUnreadable,
                        format!("{}: {e}", f.display),
                        "check the file's permissions",
                    )
                    .with_file(&f.display)
                })?;
                let now = match &file {
                    Some(h) => {
                        fsio::check_replaceable(h, &f.display, true)?;
                        Some(fsio::read_all(h, &f.display)?)
                    }
                    None => None,
                };
                if now != f.before {
                    return Err(changed(f));
                }
                held.push(file);
            }
            Ok(held)
        };
        let held = match compared() {
            Ok(h) => h,
            Err(e) => {
                drop(staged);
                return give_up(active, e);
            }
        };
        let mut done: Vec<usize> = Vec::new();
        for (i, tmp) in staged.into_iter().enumerate() {
            let f = &self.files[i];
            injected_sleep();
            // The file compared, by its identity: what the rename must take off the name.
            let expected = held[i]
                .as_ref()
                .and_then(|h| rustix::fs::fstat(h).ok())
                .map(|s| (s.st_dev, s.st_ino));
            let installed = match injected_failure(i, &f.display) {
                Some(e) => Err(e),
                None if !still_same(f, held[i].as_ref()) => Err(changed(f)),
                None => {
                    injected_save_over(f.target());
                    match tmp {
                        Some(tmp) => fsio::install_over(
                            tmp,
                            f.target(),
                            f.before.is_none(),
                            expected,
                            &f.display,
                        ),
                        None => {
                            let aside = match id.as_deref() {
                                Some(id) => crate::journal::temp_name(id, i, false),
                                None => {
                                    format!(".llm-delete-{}-{i}.tmp", std::process::id()).into()
                                }
                            };
                            remove(f.target(), expected, &aside, &f.display)
                        }
                    }
                }
            };
            if let Err(e) = installed {
                let restored = restore(&self.files, &done, id.as_deref());
                // Restored: the run changed nothing. Otherwise the pending record stays, and
                // the next run's recovery finishes the rollback.
                if let (true, Some(a)) = (restored, active) {
                    a.abandon();
                }
                return Err(e.with_note(format!(
                    "{} file(s) already replaced in this request were restored{}",
                    done.len(),
                    if restored {
                        ""
                    } else {
                        " (some could not be: see their paths)"
                    }
                )));
            }
            done.push(i);
        }
        // (Test builds: also between the last rename and the done mark.)
        injected_sleep();
        injected_foreign_write(&held);
        let mut diagnostics = self.diagnostics;
        let mut foreign = Vec::new();
        for (i, (f, h)) in self.files.iter().zip(&held).enumerate() {
            if let (Some(h), Some(before)) = (h, &f.before) {
                // A program that opened the file before the rename (an appender between its
                // open and its write) may still write to the old one: what it writes while it
                // has it open, up to a second, is seen.
                fsio::writers_gone(h, std::time::Duration::from_secs(1));
                if let Some((mut d, sum)) = overtaken(&self.top, f, h, before) {
                    d.tool = self.tool.to_string();
                    diagnostics.push(d);
                    foreign.extend(sum.map(|s| (i, s)));
                }
            }
        }
        Ok(Committed {
            files: self.files,
            result: self.result,
            diagnostics,
            journal: active.map(Box::new),
            foreign,
            _locks: locks,
        })
    }
}

/// Right before the rename: the name still refers to the inode that was compared, and that
/// inode still holds the prepared bytes (or, for a create, the name is still free).
fn still_same(f: &PreparedFile, held: Option<&File>) -> bool {
    let now = rustix::fs::statat(
        &*f.target().dir,
        &f.target().name,
        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
    );
    match (held, &f.before) {
        (Some(h), Some(before)) => {
            let Ok(mine) = rustix::fs::fstat(h) else {
                return false;
            };
            now.is_ok_and(|s| (s.st_dev, s.st_ino) == (mine.st_dev, mine.st_ino))
                && fsio::read_all(h, &f.display).is_ok_and(|b| &b == before)
        }
        (None, None) => now.is_err(),
        _ => false,
    }
}

/// After the rename: the detached old inode must still hold exactly what was validated. If
/// another program wrote to it meanwhile, its bytes are kept in the store and a warning says
/// where.
fn overtaken(
    top: &Path,
    f: &PreparedFile,
    held: &File,
    before: &[u8],
) -> Option<(DiagnosticPayload, Option<String>)> {
    let now = fsio::read_all(held, &f.display).ok()?;
    if now == before {
        return None;
    }
    let mut sum = None;
    let (kept, fix) = match store::keep(top, &now) {
        Ok(p) => (
            {
                sum = Some(checksum(&now));
                format!("its bytes are kept in {}", display_path(&p))
            },
            format!(
                "compare {} with the file and merge what the other program wrote (`llm undo` of this run restores the file as the other program left it)",
                display_path(&p)
            ),
        ),
        Err(e) => (
            format!("its bytes could not be kept ({e})"),
            "re-run the other program's write".to_string(),
        ),
    };
    let d = Error::new(
        Code::ForeignWrite,
        format!(
            "another program wrote to {} while it was being replaced; {kept}",
            f.display
        ),
        fix,
    )
    .with_file(&f.display)
    .diagnostic(Level::Warning);
    Some((d, sum))
}

/// Test builds only: `LLM_FAILPOINT_INSTALL=N` makes the rename of the N-th file (0-based) of
/// a request fail, so tests can prove through the real binary that the files already replaced
/// are restored. Compiled out of release builds.
fn injected_failure(index: usize, display: &str) -> Option<Error> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let at: usize = std::env::var("LLM_FAILPOINT_INSTALL").ok()?.parse().ok()?;
    (at == index).then(|| {
        Error::new(
            Code::WriteFailed,
            format!("could not replace {display}: injected failure (LLM_FAILPOINT_INSTALL)"),
            "unset LLM_FAILPOINT_INSTALL (a test hook)",
        )
        .with_file(display)
    })
}

/// Test builds only: `LLM_FAILPOINT_SLEEP_MS=N` sleeps N ms before each rename and after the
/// last one, so a kill test can land inside a commit. Compiled out of release builds.
/// Test builds only: `LLM_FAILPOINT_SAVE_OVER=TEXT` saves TEXT over each file right before
/// it is replaced or deleted, as an editor saves (a copy written, then renamed over the name),
/// so tests can prove such a save is never thrown away. Compiled out of release builds.
fn injected_save_over(target: &Target) {
    if !cfg!(debug_assertions) {
        return;
    }
    let Ok(text) = std::env::var("LLM_FAILPOINT_SAVE_OVER") else {
        return;
    };
    let copy = std::ffi::OsString::from(".llm-test-save-over");
    if let Ok(fd) = rustix::fs::openat(
        &*target.dir,
        &copy,
        rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CREATE | rustix::fs::OFlags::TRUNC,
        rustix::fs::Mode::from_raw_mode(0o644),
    ) {
        let _ = rustix::io::write(&fd, text.as_bytes());
        let _ = rustix::fs::renameat(&*target.dir, &copy, &*target.dir, &target.name);
    }
}

fn injected_sleep() {
    if !cfg!(debug_assertions) {
        return;
    }
    if let Some(ms) = std::env::var("LLM_FAILPOINT_SLEEP_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Removes a file a request deletes (put back from its old content by [`restore`]): the file
/// `expected` (its device and inode) from its name: first moved aside under
/// the name `aside`, then unlinked if it is that file; a file another program saved over the
/// name since it was checked goes back under it instead (`LLM_E102`), where an unlink would
/// have thrown it away unseen.
fn remove(
    target: &Target,
    expected: Option<(u64, u64)>,
    aside: &std::ffi::OsStr,
    display: &str,
) -> Result<(), Error> {
    use rustix::fs::{AtFlags, RenameFlags};
    let failed = |e: rustix::io::Errno| {
        Error::new(
            Code::WriteFailed,
            format!("could not remove {display}: {}", std::io::Error::from(e)),
            "check the directory's permissions",
        )
        .with_file(display)
    };
    let dir = &*target.dir;
    let moved = rustix::fs::renameat_with(dir, &target.name, dir, aside, RenameFlags::NOREPLACE);
    match (expected, moved) {
        (Some(want), Ok(())) => {
            let out = rustix::fs::statat(dir, aside, AtFlags::SYMLINK_NOFOLLOW);
            if !out.is_ok_and(|s| (s.st_dev, s.st_ino) == want) {
                let _ = rustix::fs::renameat_with(
                    dir,
                    aside,
                    dir,
                    &target.name,
                    RenameFlags::NOREPLACE,
                );
                return Err(Error::new(
                    Code::ConcurrentModification,
                    format!(
                        "{display} was replaced by another program while it was being deleted; it was kept"
                    ),
                    "re-read the file and decide again",
                )
                .rejected()
                .with_file(display));
            }
            rustix::fs::unlinkat(dir, aside, AtFlags::empty()).map_err(failed)?;
        }
        // Moved aside without an identity to check it by: removed.
        (None, Ok(())) => rustix::fs::unlinkat(dir, aside, AtFlags::empty()).map_err(failed)?,
        // Not moved aside (a file system without RENAME_NOREPLACE, or one that refuses it):
        // unlinked by name, as before, which reports its own failure.
        (_, Err(_)) => rustix::fs::unlinkat(dir, &target.name, AtFlags::empty()).map_err(failed)?,
    }
    fsio::sync_dir(dir);
    Ok(())
}

/// Test builds only: `LLM_FAILPOINT_FOREIGN_WRITE=TEXT` appends TEXT to each replaced file's
/// old inode right after the renames — what a writer that opened the file before the rename
/// and wrote after it does — so tests can prove the overtaken bytes are kept and reported.
fn injected_foreign_write(held: &[Option<File>]) {
    if !cfg!(debug_assertions) {
        return;
    }
    let Ok(text) = std::env::var("LLM_FAILPOINT_FOREIGN_WRITE") else {
        return;
    };
    use std::io::Write;
    use std::os::fd::AsRawFd;
    for h in held.iter().flatten() {
        let proc = format!("/proc/self/fd/{}", h.as_raw_fd());
        if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(proc) {
            let _ = f.write_all(text.as_bytes());
        }
    }
}

/// Puts back the old content of the files at `indices` (removes the ones that were created).
/// `id`: the journaled run's execution id, which names the temp files.
fn restore(files: &[PreparedFile], indices: &[usize], id: Option<&str>) -> bool {
    let mut ok = true;
    for &i in indices {
        let f = &files[i];
        match &f.before {
            None => fsio::remove_created(f.target()),
            Some(old) => {
                let name = id.map(|id| crate::journal::temp_name(id, i, true));
                let put = fsio::stage_named(
                    f.target(),
                    old,
                    f.keep.as_ref(),
                    &f.display,
                    name.as_deref(),
                )
                .and_then(|t| fsio::install(t, f.target(), false, &f.display));
                ok &= put.is_ok();
            }
        }
    }
    ok
}

/// Files written, locks still held.
pub struct Committed {
    files: Vec<PreparedFile>,
    pub result: MutationResult,
    pub diagnostics: Vec<DiagnosticPayload>,
    /// The journal record of the run (done on keep).
    journal: Option<Box<crate::journal::Active>>,
    /// Files whose overtaken foreign bytes are kept (index, checksum).
    foreign: Vec<(usize, String)>,
    _locks: Vec<Lock>,
}

impl Committed {
    /// The real paths written (for checkers that run on the project).
    pub fn paths(&self) -> Vec<&Path> {
        self.files
            .iter()
            .map(|f| f.target().real.as_path())
            .collect()
    }

    /// Keeps the new contents and releases the locks.
    pub fn keep(mut self) -> (MutationResult, Vec<DiagnosticPayload>) {
        if let Some(a) = self.journal.take() {
            self.result.undo = Some(format!("llm undo {}", a.id()));
            a.done(&self.foreign);
        }
        (self.result, self.diagnostics)
    }

    /// Restores every file to its old content (created files are removed); returns whether
    /// every restore succeeded.
    pub fn rollback(mut self) -> bool {
        let all: Vec<usize> = (0..self.files.len()).collect();
        let id = self.journal.as_ref().map(|a| a.id().to_string());
        let ok = restore(&self.files, &all, id.as_deref());
        // Restored: the run changed nothing. Otherwise recovery finishes the rollback.
        if let (true, Some(a)) = (ok, self.journal.take()) {
            a.abandon();
        }
        ok
    }
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

pub mod store;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod delete_tests;
