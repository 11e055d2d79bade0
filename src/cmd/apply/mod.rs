//! `llm apply`: a unified diff, a Codex patch or a JSONL batch of operations, applied as one
//! all-or-nothing mutation. Every operation works on a staged copy of the files it touches (in
//! order: a later operation sees what an earlier one did); the difference between the staged
//! and the real files then goes through the mutation core as one request (confinement,
//! checksum guards, syntax gate, dry-run diff), with `--check` as `llm patch` has it.

mod batch;
pub mod diff;
pub mod hunks;

use crate::check::ValidatorReport;
use crate::envelope::DiagnosticPayload;
use crate::error::{Code, Error};
use crate::mutation::{self, Change, Existence, MutationOptions, MutationResult};
use crate::paths::Root;
use crate::span::checksum;
use crate::walk::{display_path, normalize};
use diff::{FilePatch, Format, Kind};
use hunks::HunkReport;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Everything `llm apply` needs, free of clap.
#[derive(Debug, Clone)]
pub struct ApplyOptions {
    pub input: Vec<u8>,
    /// `stdin` or the `--patch` path, for messages.
    pub origin: String,
    /// `--format-in`; detected when `None`.
    pub format: Option<Format>,
    /// `--check`: the language's checker before and after, as `llm patch --check`.
    pub check: bool,
    /// How long each --check run may take.
    pub check_timeout: std::time::Duration,
    pub mutation: MutationOptions,
}

/// One operation of the input and what became of it.
#[derive(Debug, Clone, Serialize)]
pub struct OperationReport {
    /// Position in the input (0-based).
    pub index: usize,
    /// `add`, `update`, `delete`, `move`, `write`, `transform`, `patch`.
    pub op: &'static str,
    pub file_path: String,
    /// Where a move or rename went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub message: String,
}

/// `result` of `llm apply`.
#[derive(Debug, Clone, Serialize)]
pub struct ApplyResult {
    /// `unified`, `codex` or `jsonl`.
    pub format: &'static str,
    pub operations: Vec<OperationReport>,
    /// Every hunk of a diff or Codex patch: where it went and how it matched.
    pub hunks: Vec<HunkReport>,
    #[serde(flatten)]
    pub mutation: MutationResult,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub validators: Vec<ValidatorReport>,
}

/// A file as the input's operations leave it, next to what it is on disk.
struct Staged {
    /// As the input spells it.
    path: PathBuf,
    display: String,
    original: Option<Vec<u8>>,
    current: Option<Vec<u8>>,
    /// A checksum the caller gave for the file as it was before the input.
    expected: Option<String>,
    /// The file this one was moved or copied from by the input: the syntax gate judges the
    /// new file against that one's content (a renamed file's errors are not new).
    from: Option<PathBuf>,
}

/// The files the input touches, staged in memory.
pub(crate) struct Stage {
    files: BTreeMap<PathBuf, Staged>,
    order: Vec<PathBuf>,
    root: Root,
}

impl Stage {
    fn new(opts: &MutationOptions) -> Result<Self, Error> {
        Ok(Stage {
            files: BTreeMap::new(),
            order: Vec::new(),
            root: Root::open(&opts.root, opts.allow_outside_root)?,
        })
    }

    fn key(path: &Path) -> PathBuf {
        normalize(&std::env::current_dir().unwrap_or_default().join(path))
    }

    /// Whether the real path `real` has a `.git` directory on its way down from the root.
    fn in_git_dir_below_root(&self, real: &Path) -> bool {
        real.strip_prefix(&self.root.path).is_ok_and(in_git_dir)
    }

    /// The staged file at `path`, read from disk on first use (confined to the root).
    fn entry(&mut self, path: &Path) -> Result<&mut Staged, Error> {
        let key = Self::key(path);
        if !self.files.contains_key(&key) {
            let display = display_path(path);
            // As `git apply`: a patch never writes a repository's own files (a hook in
            // `.git/hooks` runs at the next commit), whether the path spells `.git` or reaches
            // it through a symlink in the tree (`g -> .git`, then `g/hooks/pre-commit`).
            let git_dir = || {
                Error::new(
                    Code::ApplyGitDir,
                    format!("{display} is inside a .git directory: the input may not touch it"),
                    "leave the repository's own files (.git/…) out of the patch; change them with git itself",
                )
                .with_file(&display)
            };
            if in_git_dir(path) {
                return Err(git_dir());
            }
            // A file in a directory that does not exist yet has no original.
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            let missing = match parent {
                Some(dir) => self.root.missing_dirs(dir, &display)?,
                None => Vec::new(),
            };
            let real = match missing.is_empty() {
                true => Some(self.root.resolve(path, &display)?.real),
                false => None,
            };
            if real
                .as_ref()
                .or(missing.first())
                .is_some_and(|p| self.in_git_dir_below_root(p))
            {
                return Err(git_dir());
            }
            let original = match real.as_ref().map(std::fs::symlink_metadata) {
                None => None,
                Some(Ok(m)) if m.is_dir() => {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{display} is a directory"),
                        "name a file",
                    )
                    .with_file(&display))
                }
                Some(Ok(_)) => Some(crate::fsio::read(
                    real.as_ref().expect("resolved"),
                    &display,
                )?),
                Some(Err(_)) => None,
            };
            self.order.push(key.clone());
            self.files.insert(
                key.clone(),
                Staged {
                    path: path.to_path_buf(),
                    display,
                    current: original.clone(),
                    original,
                    expected: None,
                    from: None,
                },
            );
        }
        Ok(self.files.get_mut(&key).expect("inserted above"))
    }

    /// The current content of an existing file (after earlier operations).
    pub(crate) fn read(&mut self, path: &Path, what: &str) -> Result<(Vec<u8>, String), Error> {
        let e = self.entry(path)?;
        match &e.current {
            Some(b) => Ok((b.clone(), e.display.clone())),
            None if e.original.is_some() => Err(Error::new(
                Code::ApplyConflict,
                format!("{what}: {} was deleted or moved away by an earlier operation of the input", e.display),
                "order the operations so that each file is changed before it is moved or deleted",
            )
            .with_file(&e.display)
            .rejected()),
            None => Err(Error::new(
                Code::PathNotFound,
                format!("{what}: {} does not exist", e.display),
                "check the path (relative to the current directory); add the file with `*** Add File:`, a `--- /dev/null` diff, or an `op: write` line",
            )
            .with_file(&e.display)),
        }
    }

    /// An existing file's content as it was before the input.
    fn read_original(&mut self, path: &Path, what: &str) -> Result<(Vec<u8>, String), Error> {
        let e = self.entry(path)?;
        match &e.original {
            Some(b) => Ok((b.clone(), e.display.clone())),
            None => self.read(path, what),
        }
    }

    /// Checks a caller's checksum against the file as it was, or as earlier operations left it.
    pub(crate) fn expect(&mut self, path: &Path, sum: Option<&str>) -> Result<(), Error> {
        let Some(sum) = sum else { return Ok(()) };
        let e = self.entry(path)?;
        let matches = |b: &Option<Vec<u8>>| {
            b.as_deref()
                .is_some_and(|b| checksum(b).eq_ignore_ascii_case(sum))
        };
        if matches(&e.original) {
            e.expected = Some(sum.to_string());
            return Ok(());
        }
        if matches(&e.current) {
            return Ok(());
        }
        let found = e
            .current
            .as_deref()
            .map_or("(file does not exist)".to_string(), checksum);
        Err(mutation::changed_since_read(
            &e.display,
            sum,
            &found,
            "re-read the file and rebuild the operation from its current content",
        ))
    }

    /// Sets the new content of a file (`create`: it must not exist now).
    pub(crate) fn put(&mut self, path: &Path, content: Vec<u8>, create: bool) -> Result<(), Error> {
        let e = self.entry(path)?;
        if create && e.current.is_some() {
            return Err(Error::new(
                Code::ApplyConflict,
                format!("{} already exists; the input would create it", e.display),
                "update the file instead (a diff hunk, `*** Update File:`, or `op: write` with `overwrite: true`), or delete it first",
            )
            .with_file(&e.display)
            .rejected());
        }
        e.current = Some(content);
        Ok(())
    }

    /// Creates `path` with `content` moved or copied from `from` (see [`Staged::from`]).
    pub(crate) fn put_from(
        &mut self,
        path: &Path,
        content: Vec<u8>,
        from: &Path,
    ) -> Result<(), Error> {
        self.put(path, content, true)?;
        self.entry(path)?.from = Some(Self::key(from));
        Ok(())
    }

    /// Removes a file (it must exist now).
    pub(crate) fn remove(&mut self, path: &Path, what: &str) -> Result<Vec<u8>, Error> {
        let (bytes, display) = self.read(path, what)?;
        // Removing goes through a link to its target: refuse rather than leave a dangling link.
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::new(
                Code::NotAFile,
                format!("{what}: {display} is a symbolic link; removing or moving it would act on its target"),
                "delete or move the link with the shell (`rm`, `git mv`), or name its target",
            )
            .with_file(&display));
        }
        self.entry(path)?.current = None;
        Ok(bytes)
    }

    /// The changes for the mutation core: the staged files that differ from the disk.
    fn changes(&self) -> Vec<Change> {
        let mut out = Vec::new();
        for key in &self.order {
            let f = &self.files[key];
            match (&f.original, &f.current) {
                (Some(a), Some(b)) if a != b => {
                    let sum = f.expected.clone().or_else(|| Some(checksum(a)));
                    out.push(Change::edits(&f.path, crate::edit::between(a, b), sum));
                }
                (None, Some(b)) => out.push(Change {
                    existence: Existence::MustNotExist,
                    origin: (f.from.as_ref())
                        .and_then(|from| self.files.get(from))
                        .and_then(|from| from.original.clone()),
                    ..Change::create(&f.path, b.clone())
                }),
                (Some(a), None) => out.push(Change::delete(
                    &f.path,
                    f.expected.clone().or_else(|| Some(checksum(a))),
                )),
                _ => {}
            }
        }
        out
    }
}

/// Runs `llm apply`: the result, its message, warnings.
pub fn run(opts: &ApplyOptions) -> Result<(ApplyResult, String, Vec<DiagnosticPayload>), Error> {
    let text = std::str::from_utf8(&opts.input).map_err(|e| {
        Error::new(
            Code::ApplyBadPatch,
            format!(
                "{} is not UTF-8 text (byte {})",
                opts.origin,
                e.valid_up_to()
            ),
            "pass the patch as UTF-8 text",
        )
    })?;
    // A BOM some Windows tools put first is no part of the patch.
    let text = diff::unfence(text.strip_prefix('\u{feff}').unwrap_or(text));
    if text.trim().is_empty() {
        return Err(Error::new(
            Code::ApplyEmpty,
            format!("{} is empty: nothing to apply", opts.origin),
            "pipe a unified diff, a Codex patch (`*** Begin Patch`) or JSON lines of operations, or pass --patch FILE",
        ));
    }
    let format = match opts.format.or_else(|| diff::detect(text)) {
        Some(f) => f,
        None => {
            return Err(Error::new(
                Code::ApplyBadPatch,
                format!("{} is not a patch llm knows", opts.origin),
                "pass a unified diff (`--- a/F`, `+++ b/F`, `@@`), a Codex patch (`*** Begin Patch` … `*** End Patch`) or JSON lines with an `op` each; --format-in forces one",
            ))
        }
    };
    let mut mopts = opts.mutation.clone();
    mopts.tool = "apply";
    // Operations keep the files' line endings themselves; the core writes bytes as staged.
    mopts.match_line_endings = false;
    let mut stage = Stage::new(&mopts)?;
    let mut ops = Vec::new();
    let mut hunk_reports = Vec::new();
    let mut diagnostics = Vec::new();
    // Permission bits to set once the contents are in (git modes; a moved file keeps its own).
    let mut modes: Vec<(PathBuf, u32)> = Vec::new();
    match format {
        Format::Jsonl => {
            batch::run(
                text,
                &opts.mutation,
                &mut stage,
                &mut ops,
                &mut diagnostics,
                &mut modes,
            )?;
        }
        Format::Unified | Format::Codex => {
            let files = if format == Format::Codex {
                diff::parse_codex(text)?
            } else {
                diff::parse_unified(text)?
            };
            // As `git apply`: every file a diff moves away is gone before the moved files
            // arrive, so that two files can swap names (`a → b`, `b → a`).
            let mut arriving = Vec::new();
            for (i, fp) in files.iter().enumerate() {
                ops.push(file_patch(
                    &mut stage,
                    fp,
                    i,
                    &mut hunk_reports,
                    &mut modes,
                    &mut arriving,
                )?);
            }
            for (to, bytes, from) in arriving {
                stage.put_from(&to, bytes, &from)?;
            }
            diagnostics.extend(hunk_reports.iter().filter_map(hunks::tolerance_note));
        }
    }
    let mut changes = stage.changes();
    // Git modes go through the commit (journaled, so undo restores the old mode): a file whose
    // only change is its mode is rewritten with its own bytes.
    if !mopts.dry_run {
        for (path, mode) in &modes {
            if changes.iter().any(|c| &c.path == path) || mode_of(path) == Some(*mode) {
                continue;
            }
            if let Ok(bytes) = std::fs::read(path) {
                let sum = checksum(&bytes);
                changes.push(Change {
                    existence: Existence::MustExist,
                    expected_checksum: Some(sum),
                    ..Change::create(path, bytes)
                });
            }
        }
    }
    let message_ops = format!(
        "{} operation{}",
        ops.len(),
        if ops.len() == 1 { "" } else { "s" }
    );
    let result = |m: MutationResult, validators| ApplyResult {
        format: format.as_str(),
        operations: ops.clone(),
        hunks: hunk_reports.clone(),
        mutation: m,
        validators,
    };
    if changes.is_empty() {
        if !mopts.dry_run {
            set_modes(&modes, &mut diagnostics);
        }
        let m = MutationResult {
            dry_run: mopts.dry_run,
            files: Vec::new(),
            applied_count: 0,
            skipped_count: 0,
            lines_added: 0,
            lines_removed: 0,
            undo: None,
        };
        return Ok((
            result(m, Vec::new()),
            format!(
                "{message_ops}: the files already are as the input leaves them; nothing to write"
            ),
            diagnostics,
        ));
    }
    // Directories a created file needs: checked inside the root now, made just before the
    // commit, removed again if it fails.
    let mut missing = Vec::new();
    for c in &changes {
        missing.extend(missing_parents(&stage.root, &c.path)?);
    }
    let mut prepared = mutation::prepare(&changes, &mopts)?;
    if opts.check {
        prepared.set_validating();
    }
    for (path, mode) in &modes {
        if let Some(i) = changes.iter().position(|c| &c.path == path) {
            prepared.set_mode(i, *mode);
        }
    }
    diagnostics.extend(prepared.diagnostics.clone());
    let summary = |m: &MutationResult| {
        format!(
            "{message_ops} on {} file{} (+{} -{} lines)",
            m.files.len(),
            if m.files.len() == 1 { "" } else { "s" },
            m.lines_added,
            m.lines_removed
        )
    };
    if mopts.dry_run {
        let message = format!("dry run: {} (nothing written)", summary(&prepared.result));
        return Ok((result(prepared.result, Vec::new()), message, diagnostics));
    }
    let paths: Vec<PathBuf> = changes
        .iter()
        .filter(|c| !matches!(c.content, mutation::Content::Delete))
        .map(|c| c.path.clone())
        .collect();
    let before = if opts.check {
        crate::cmd::patch::run_checks(&paths, opts.check_timeout)
    } else {
        Vec::new()
    };
    let created = make_dirs(&stage.root, &missing)?;
    prepared.set_created_dirs(&created);
    let committed = match prepared.commit() {
        Ok(c) => c,
        Err(e) => {
            remove_dirs(&created);
            return Err(e);
        }
    };
    let mut validators = Vec::new();
    if opts.check {
        let after = crate::cmd::patch::recheck(&paths, &before, opts.check_timeout);
        if after.refused() {
            let restored = committed.rollback();
            remove_dirs(&created);
            return Err(Error::new(
                Code::ApplyCheckFailed,
                format!(
                    "--check rejected the input ({}); {}",
                    after.refused_names.join(", "),
                    crate::cmd::patch::restored_note(restored)
                ),
                after.remediation("fix the patch so the project still builds"),
            )
            .rejected()
            .with_related(after.refused_errors));
        }
        validators = after.validators;
    }
    let (m, _) = committed.keep();
    let message = format!("applied {}", summary(&m));
    Ok((result(m, validators), message, diagnostics))
}

/// Sets permission bits after the write (best effort: a failure is a warning, the contents
/// stay written).
fn set_modes(modes: &[(PathBuf, u32)], diagnostics: &mut Vec<DiagnosticPayload>) {
    #[cfg(unix)]
    for (path, mode) in modes {
        use std::os::unix::fs::PermissionsExt;
        if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(*mode)) {
            let display = display_path(path);
            diagnostics.push(
                Error::new(
                    Code::WriteFailed,
                    format!(
                        "{display}: could not set mode {mode:o}: {e} (its contents were written)"
                    ),
                    format!("chmod {mode:o} {display}"),
                )
                .with_file(&display)
                .diagnostic(crate::envelope::Level::Warning),
            );
        }
    }
    let _ = (modes, diagnostics);
}

/// The permission bits of an existing file.
fn mode_of(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .ok()
            .map(|m| m.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Stages one file's part of a diff or Codex patch.
fn file_patch(
    stage: &mut Stage,
    fp: &FilePatch,
    index: usize,
    reports: &mut Vec<HunkReport>,
    modes: &mut Vec<(PathBuf, u32)>,
    arriving: &mut Vec<(PathBuf, Vec<u8>, PathBuf)>,
) -> Result<OperationReport, Error> {
    let display = display_path(&fp.path);
    let target = fp.move_to.as_ref().unwrap_or(&fp.path);
    if fp.kind != Kind::Delete {
        let moved = fp.move_to.as_ref().and_then(|_| mode_of(&fp.path));
        if let Some(mode) = fp.mode.or(moved) {
            modes.push((target.clone(), mode));
        }
    }
    let (op, to, message) = match fp.kind {
        Kind::Add => {
            stage.put(&fp.path, hunks::added(fp), true)?;
            ("add", None, format!("added {display}"))
        }
        Kind::Delete => {
            let bytes = stage.remove(&fp.path, "delete")?;
            hunks::check_deleted(&bytes, fp, &display)?;
            ("delete", None, format!("deleted {display}"))
        }
        Kind::Update => {
            // A copy is made from the file as it was (git's preimage), whatever other parts
            // of the diff do to it.
            let (bytes, display) = match fp.copy {
                true => stage.read_original(&fp.path, "copy")?,
                false => stage.read(&fp.path, "update")?,
            };
            let (new, mut r) = hunks::apply(&bytes, fp, &display)?;
            let n = r.len();
            reports.append(&mut r);
            match &fp.move_to {
                Some(to) if fp.copy => {
                    stage.put_from(to, new, &fp.path)?;
                    let to = display_path(to);
                    (
                        "copy",
                        Some(to.clone()),
                        format!(
                            "copied {display} to {to} ({n} hunk{})",
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                }
                Some(to) => {
                    stage.remove(&fp.path, "move")?;
                    arriving.push((to.clone(), new, fp.path.clone()));
                    let to = display_path(to);
                    (
                        "move",
                        Some(to.clone()),
                        format!(
                            "moved {display} to {to} ({n} hunk{})",
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                }
                None => {
                    stage.put(&fp.path, new, false)?;
                    (
                        "update",
                        None,
                        format!(
                            "updated {display} ({n} hunk{})",
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                }
            }
        }
    };
    Ok(OperationReport {
        index,
        op,
        file_path: display_path(&fp.path),
        to,
        message,
    })
}

/// Directories above `path` that do not exist (shallowest first), resolved beneath the root
/// (a path leading outside it is refused).
fn missing_parents(root: &Root, path: &Path) -> Result<Vec<PathBuf>, Error> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => root.missing_dirs(dir, &display_path(dir)),
        None => Ok(Vec::new()),
    }
}

/// Creates the directories beneath the root, each relative to its parent's handle; returns
/// the ones made, deepest first.
fn make_dirs(root: &Root, missing: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut all: Vec<&PathBuf> = missing.iter().collect();
    all.sort();
    all.dedup();
    let mut made = Vec::new();
    for d in all {
        match root.create_dirs(d, &display_path(d)) {
            Ok(new) => new.into_iter().for_each(|n| made.insert(0, n)),
            Err(e) => {
                remove_dirs(&made);
                return Err(e);
            }
        }
    }
    Ok(made)
}

/// Removes directories this run made, deepest first, where they are empty.
fn remove_dirs(made: &[PathBuf]) {
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
}

/// Whether `path` has a `.git` component (in any letter case: on a case-insensitive file
/// system `.GIT` is the same directory).
fn in_git_dir(path: &Path) -> bool {
    path.components()
        .any(|c| c.as_os_str().to_string_lossy().eq_ignore_ascii_case(".git"))
}
