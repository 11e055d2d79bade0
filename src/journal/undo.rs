//! `llm undo` and `llm history` on the journal: undo puts every file of an operation back to
//! its pre-image (created files removed, deleted files restored, so moves reverse) as one
//! all-or-nothing mutation through the mutation core, guarded by the operation's
//! after-checksums; history lists the operations newest first.

use super::{recover, Journal, Record};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::mutation::{self, store, Change, Content, Existence, MutationOptions, MutationResult};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One operation as `llm history` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryEntry {
    #[serde(flatten)]
    pub record: Record,
    /// The undo that took this operation back (while that undo is not itself undone).
    pub undone_by: Option<String>,
    /// The command that undoes it, when it can be undone now.
    pub undo: Option<String>,
}

/// `llm history`'s data.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryData {
    /// The journal directory.
    pub journal: String,
    /// Newest first.
    pub operations: Vec<HistoryEntry>,
    /// Operations in the journal (before --limit).
    pub total: usize,
    /// Runs a crash had interrupted, resolved by this command.
    pub recovered: Vec<String>,
    /// Records removed by --prune.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pruned: Option<usize>,
    /// Files in the journal that are no record as llm writes them (damaged, cut short, or
    /// written by another program): ignored, and reported.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

/// `llm undo`'s result.
#[derive(Debug, Clone, Serialize)]
pub struct UndoData {
    /// The execution id of the operation undone.
    pub undoes: String,
    #[serde(flatten)]
    pub mutation: MutationResult,
}

/// The workspace's top level for `--root` (git's top level, else the root).
pub fn top_of(root: &Path) -> Result<PathBuf, Error> {
    let named = std::fs::canonicalize(root).map_err(|e| {
        Error::new(
            Code::PathNotFound,
            format!("workspace root {}: {e}", root.display()),
            "pass an existing directory to --root",
        )
    })?;
    Ok(store::workspace_top(&named))
}

/// Which operation undid which, newest first: an undo counts while it is not undone itself.
fn undone_by(records: &[Record]) -> HashMap<String, String> {
    let mut map: HashMap<String, String> = HashMap::new();
    for r in records.iter().rev() {
        if r.status != "done" || map.contains_key(&r.execution_id) {
            continue;
        }
        if let Some(x) = &r.undoes {
            map.insert(x.clone(), r.execution_id.clone());
        }
    }
    map
}

/// Lists the journal (after recovering interrupted runs); `prune` empties it.
pub fn history(
    root: &Path,
    limit: Option<usize>,
    prune: bool,
    allow_outside_root: bool,
) -> Result<HistoryData, Error> {
    let top = top_of(root)?;
    let shown = top.join(".llm").join("journal").display().to_string();
    let Some(journal) = Journal::open(&top, false)? else {
        return Ok(HistoryData {
            journal: shown,
            operations: Vec::new(),
            total: 0,
            recovered: Vec::new(),
            pruned: prune.then_some(0),
            ignored: Vec::new(),
        });
    };
    let recovered = recover::run(&journal, allow_outside_root)?
        .into_iter()
        .map(|r| r.execution_id)
        .collect();
    if prune {
        let n = journal.prune_all();
        return Ok(HistoryData {
            journal: shown,
            operations: Vec::new(),
            total: 0,
            recovered,
            pruned: Some(n),
            ignored: Vec::new(),
        });
    }
    let (records, ignored) = journal.read_done();
    let by = undone_by(&records);
    let total = records.len();
    let operations = records
        .into_iter()
        .rev()
        .take(limit.unwrap_or(usize::MAX))
        .map(|r| {
            let undone = by.get(&r.execution_id).cloned();
            let undo = (r.status == "done" && undone.is_none())
                .then(|| format!("llm undo {}", r.execution_id));
            HistoryEntry {
                record: r,
                undone_by: undone,
                undo,
            }
        })
        .collect();
    Ok(HistoryData {
        journal: shown,
        operations,
        total,
        recovered,
        pruned: None,
        ignored,
    })
}

/// The path to hand the core for a recorded file: relative to the current directory when it
/// lies beneath it (as the operation showed it), else absolute.
fn path_for(real: &str) -> PathBuf {
    let real = PathBuf::from(real);
    match std::env::current_dir()
        .ok()
        .and_then(|cwd| real.strip_prefix(cwd).ok().map(Path::to_path_buf))
    {
        Some(rel) if !rel.as_os_str().is_empty() => rel,
        _ => real,
    }
}

/// Undoes operation `id` (default: the newest one that is not undone and not itself an undo).
pub fn undo(
    root: &Path,
    id: Option<&str>,
    dry_run: bool,
    allow_outside_root: bool,
) -> Result<(UndoData, Vec<DiagnosticPayload>), Error> {
    let top = top_of(root)?;
    let journal = Journal::open(&top, false)?.ok_or_else(|| {
        Error::new(
            Code::UndoUnknown,
            format!("there is no journal in {} yet: nothing to undo", top.display()),
            "run a mutating command (transform, patch, write, apply) first; `llm history` lists what can be undone",
        )
    })?;
    recover::run(&journal, allow_outside_root)?;
    let (records, ignored) = journal.read_done();
    let by = undone_by(&records);
    let record = match id {
        Some(id) => {
            let found: Vec<&Record> = records
                .iter()
                .filter(|r| {
                    r.execution_id == id || (id.len() >= 4 && r.execution_id.starts_with(id))
                })
                .collect();
            match found.as_slice() {
                [r] => (*r).clone(),
                [] => {
                    return Err(Error::new(
                        Code::UndoUnknown,
                        format!("no operation {id} in the journal"),
                        "pick an execution_id from `llm history` (old operations are dropped past the retention limits)",
                    ))
                }
                _ => {
                    return Err(Error::new(
                        Code::UndoUnknown,
                        format!("{id} is the start of several operations' ids"),
                        "pass more of the execution_id (see `llm history`)",
                    ))
                }
            }
        }
        None => records
            .iter()
            .rev()
            .find(|r| r.status == "done" && r.undoes.is_none() && !by.contains_key(&r.execution_id))
            .cloned()
            .ok_or_else(|| {
                let (message, fix) = match (records.is_empty(), ignored.len()) {
                    (_, 0) => (
                        "nothing to undo: every operation in the journal is undone".to_string(),
                        "`llm history` lists the operations; `llm undo ID` undoes an undo (redo)",
                    ),
                    (true, n) => (
                        format!("nothing to undo: the journal's {n} record(s) are damaged or not llm's, and were ignored"),
                        "`llm history` names them (data.ignored); restore the files from version control",
                    ),
                    (false, n) => (
                        format!("nothing to undo: every operation in the journal is undone ({n} damaged record(s) ignored)"),
                        "`llm history` lists the operations and names the ignored records (data.ignored)",
                    ),
                };
                Error::new(Code::UndoUnknown, message, fix)
            })?,
    };
    let rid = record.execution_id.clone();
    if record.status != "done" {
        return Err(Error::new(
            Code::UndoAlready,
            format!("operation {rid} was rolled back after a crash: its files are as before it"),
            "nothing to undo; `llm history` shows its status",
        )
        .rejected());
    }
    if let Some(u) = by.get(&rid) {
        return Err(Error::new(
            Code::UndoAlready,
            format!("operation {rid} was already undone by {u}"),
            format!("to redo it, undo the undo: `llm undo {u}`"),
        )
        .rejected());
    }
    record.check_reach(&top, allow_outside_root)?;
    // The guard: every file must be as the operation left it.
    let outside = record.allow_outside_root && allow_outside_root;
    let root_path = if outside {
        PathBuf::from("/")
    } else {
        top.clone()
    };
    let droot = crate::paths::Root::open(&root_path, outside)?;
    let mut changed = Vec::new();
    for f in &record.files {
        let now = droot
            .resolve(Path::new(&f.path), &f.file_path)
            .ok()
            .and_then(|t| t.open().ok().flatten())
            .and_then(|h| crate::fsio::read_all(&h, &f.file_path).ok());
        let sum = now.as_deref().map(crate::span::checksum);
        if sum != f.after_checksum {
            let what = match std::fs::symlink_metadata(&f.path) {
                Ok(m) if m.is_dir() => "(a directory now)",
                Ok(m) if !m.is_file() => "(no regular file now)",
                Ok(_) => "(a file that cannot be read)",
                Err(_) => "(the file does not exist)",
            };
            let found = sum.as_deref().unwrap_or(what);
            let expected = f.after_checksum.as_deref().unwrap_or("(deleted)");
            let mut d = Error::new(
                Code::UndoChanged,
                format!(
                    "{} changed since operation {rid}: expected {expected}, found {found}",
                    f.file_path
                ),
                "undo the later operation that touched it first (`llm history`), or see the difference with `llm undo ID --dry-run` after that",
            )
            .with_file(&f.file_path)
            .diagnostic(Level::Error);
            d.tool = "undo".into();
            changed.push(d);
        }
    }
    if dry_run {
        // A dry run shows the diff anyway; the changed files are warnings.
        for d in &mut changed {
            d.level = Level::Warning;
        }
    } else if !changed.is_empty() {
        return Err(Error::new(
            Code::UndoChanged,
            format!(
                "{} file(s) of operation {rid} changed since; nothing was changed",
                changed.len()
            ),
            "undo the later operations that touched them first (`llm history` lists them, newest first), then retry",
        )
        .rejected()
        .with_related(changed));
    }
    let guard = |sum: &Option<String>| if dry_run { None } else { sum.clone() };
    let mut changes = Vec::with_capacity(record.files.len());
    for f in &record.files {
        let path = path_for(&f.path);
        let restore = f.foreign_checksum.as_ref().or(f.before_checksum.as_ref());
        let bytes = match restore {
            Some(sum) => Some(journal.object_bytes(sum, &f.file_path)?),
            None => None,
        };
        changes.push(match (bytes, &f.after_checksum) {
            (None, after) => Change::delete(path, guard(after)),
            (Some(b), after) => Change {
                path,
                content: Content::Replace(b),
                expected_checksum: guard(after),
                existence: match (after, dry_run) {
                    (_, true) => Existence::Either,
                    (None, false) => Existence::MustNotExist,
                    (Some(_), false) => Existence::MustExist,
                },
                language: None,
                tree: None,
                origin: None,
            },
        });
    }
    // The core takes the journal lock itself.
    drop(journal);
    super::set_undoes(&rid);
    let opts = MutationOptions {
        root: root_path,
        allow_outside_root: record.allow_outside_root && allow_outside_root,
        dry_run,
        force: true,
        match_line_endings: false,
        tool: "undo",
    };
    let mut prepared = mutation::prepare(&changes, &opts)?;
    // The mode it had, where the operation changed it (or removed the file): a mode the
    // operation left alone is the file's own, and a `chmod` made since stays (undo put the
    // old bits back over it).
    for (i, f) in record.files.iter().enumerate() {
        if let Some(m) = f.before_mode.filter(|&m| Some(m) != f.after_mode) {
            prepared.set_mode(i, m);
        }
    }
    let (mutation, mut diagnostics) = if dry_run {
        (prepared.result, prepared.diagnostics)
    } else {
        // Directories a restored file needs (an undo of an undo that removed them): made now,
        // journaled with this undo, so undoing it removes them again.
        let mut made: Vec<PathBuf> = Vec::new();
        for f in &record.files {
            if f.before_checksum.is_none() {
                continue;
            }
            let Some(parent) = Path::new(&f.path).parent() else {
                continue;
            };
            let missing = droot.missing_dirs(parent, &f.file_path)?;
            if let Some(deepest) = missing.last() {
                match droot.create_dirs(deepest, &f.file_path) {
                    Ok(new) => new.into_iter().for_each(|d| made.insert(0, d)),
                    Err(e) => {
                        made.iter().for_each(|d| droot.remove_empty_dir(d));
                        return Err(e);
                    }
                }
            }
        }
        prepared.set_created_dirs(&made);
        let committed = prepared.commit().inspect_err(|_| {
            made.iter().for_each(|d| droot.remove_empty_dir(d));
        })?;
        let kept = committed.keep();
        // The directories the operation created, where its files' removal left them empty.
        for d in &record.created_dirs {
            droot.remove_empty_dir(Path::new(d));
        }
        kept
    };
    // Pre-images are put back as they were: a syntax error they hold is not news.
    diagnostics.retain(|d| d.code.as_deref() != Some(Code::SyntaxIntroduced.id()));
    diagnostics.extend(changed);
    Ok((
        UndoData {
            undoes: rid,
            mutation,
        },
        diagnostics,
    ))
}
