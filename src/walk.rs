//! File discovery shared by every command that reads a tree (search, ast, find, patch --rename):
//! paths → filtered, deterministic list of files (ignore crate), the one spelling of a path, and a
//! parallel map whose results come back in file order.

use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error, Result};
use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use ignore::WalkBuilder;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How to turn the paths given on the command line into files.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// Files and directories to search; empty means `.`.
    pub paths: Vec<PathBuf>,
    /// `-g/--glob` patterns; `!` negates.
    pub globs: Vec<String>,
    /// `-t/--type` names from the ignore crate's table.
    pub types: Vec<String>,
    /// `-T/--type-not` names.
    pub types_not: Vec<String>,
    /// Search hidden files and directories.
    pub hidden: bool,
    /// Do not respect `.gitignore`, `.ignore` and the like.
    pub no_ignore: bool,
    /// Follow symbolic links.
    pub follow: bool,
    /// Skip files larger than this many bytes (counted as `too_large`).
    pub max_filesize: Option<u64>,
}

/// A file to process.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Path to open.
    pub path: PathBuf,
    /// How the file is spelled in output (see [`display_path`]).
    pub display: String,
    /// Named on the command line rather than found by walking.
    pub explicit: bool,
}

/// Files not processed, by reason. Nothing is skipped silently.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Skipped {
    /// Contained a NUL byte (searched only when named explicitly).
    pub binary: u64,
    /// Larger than `--max-filesize`.
    pub too_large: u64,
    /// Could not be read: permissions, I/O errors, broken links, symlink loops.
    pub unreadable: u64,
}

/// What a walk produced.
#[derive(Debug, Default)]
pub struct Walk {
    /// Files in deterministic (path) order.
    pub files: Vec<Candidate>,
    /// Files skipped while walking.
    pub skipped: Skipped,
    /// Problems met while walking (error-level for explicitly named paths).
    pub diagnostics: Vec<DiagnosticPayload>,
}

/// The names `-t/--type` accepts, with their globs (for `--type-list`).
pub fn type_table() -> Vec<(String, Vec<String>)> {
    let mut builder = TypesBuilder::new();
    builder.add_defaults();
    builder
        .definitions()
        .into_iter()
        .map(|d| (d.name().to_string(), d.globs().to_vec()))
        .collect()
}

/// Walks `opts.paths` and returns every file to process, sorted by path.
///
/// A missing path is an error-level diagnostic and the walk goes on (like ripgrep); a bad glob or
/// an unknown type stops the run.
pub fn walk(opts: &WalkOptions, tool: &str) -> Result<Walk> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let default = [PathBuf::from(".")];
    let roots: &[PathBuf] = if opts.paths.is_empty() {
        &default
    } else {
        &opts.paths
    };

    let overrides = {
        let mut b = OverrideBuilder::new(&cwd);
        for g in &opts.globs {
            b.add(g).map_err(|e| {
                Error::new(
                    Code::InvalidGlob,
                    format!("invalid glob `{g}`: {e}"),
                    "fix the glob: `*` and `**` match names and directories, `{a,b}` alternates, `!` at the start negates",
                )
            })?;
        }
        b.build().map_err(|e| {
            Error::new(
                Code::InvalidGlob,
                format!("invalid glob set: {e}"),
                "check every --glob pattern",
            )
        })?
    };
    let types = {
        let mut b = TypesBuilder::new();
        b.add_defaults();
        let known: Vec<String> = b
            .definitions()
            .iter()
            .map(|d| d.name().to_string())
            .collect();
        for (names, negate) in [(&opts.types, false), (&opts.types_not, true)] {
            for t in names {
                if !known.iter().any(|k| k == t) {
                    let close = crate::suggest::closest(t, known.iter().map(String::as_str), 3);
                    return Err(Error::new(
                        Code::UnknownType,
                        format!("unknown file type `{t}`"),
                        if close.is_empty() {
                            "run `llm search --type-list` for the known types".to_string()
                        } else {
                            format!(
                                "did you mean {}? `llm search --type-list` lists all types",
                                close.join(", ")
                            )
                        },
                    ));
                }
                if negate {
                    b.negate(t);
                } else {
                    b.select(t);
                }
            }
        }
        b.build().map_err(|e| {
            Error::new(
                Code::UnknownType,
                format!("bad type selection: {e}"),
                "run `llm search --type-list`",
            )
        })?
    };

    let mut out = Walk::default();
    let mut walk_roots = Vec::new();
    for root in roots {
        match std::fs::metadata(root) {
            Ok(meta) if meta.is_file() || !meta.is_dir() => {
                // Named files are searched whatever the filters say, as in ripgrep.
                if let Some(max) = opts.max_filesize {
                    if meta.len() > max {
                        out.skipped.too_large += 1;
                        out.diagnostics.push(
                            Error::new(
                                Code::FileTooLarge,
                                format!(
                                    "{} is {} bytes, larger than --max-filesize {max}",
                                    display_path(root),
                                    meta.len()
                                ),
                                "raise --max-filesize or drop it",
                            )
                            .with_file(display_path(root))
                            .diagnostic(Level::Warning),
                        );
                        continue;
                    }
                }
                out.files.push(Candidate {
                    path: root.clone(),
                    display: display_path(root),
                    explicit: true,
                });
            }
            Ok(_) => walk_roots.push(root.clone()),
            Err(e) => {
                let (code, fix) = if e.kind() == std::io::ErrorKind::NotFound {
                    (
                        Code::PathNotFound,
                        "check the path; paths are relative to the current directory",
                    )
                } else {
                    (Code::PathUnreadable, "check the permissions of the path")
                };
                out.diagnostics.push(
                    Error::new(code, format!("{}: {e}", display_path(root)), fix)
                        .with_file(display_path(root))
                        .diagnostic(Level::Error),
                );
            }
        }
    }

    if !walk_roots.is_empty() {
        let mut builder = WalkBuilder::new(&walk_roots[0]);
        for r in &walk_roots[1..] {
            builder.add(r);
        }
        builder
            .hidden(!opts.hidden)
            .ignore(!opts.no_ignore)
            .git_ignore(!opts.no_ignore)
            .git_global(!opts.no_ignore)
            .git_exclude(!opts.no_ignore)
            .parents(!opts.no_ignore)
            .require_git(false)
            .follow_links(opts.follow)
            .overrides(overrides)
            .types(types)
            .threads(1);
        for entry in builder.build() {
            match entry {
                Ok(entry) => {
                    let is_file = entry.file_type().is_some_and(|t| t.is_file());
                    let is_link = entry.path_is_symlink() && !opts.follow;
                    if !is_file || is_link {
                        continue;
                    }
                    if let Some(max) = opts.max_filesize {
                        match entry.metadata() {
                            Ok(m) if m.len() > max => {
                                out.skipped.too_large += 1;
                                continue;
                            }
                            Ok(_) => {}
                            Err(_) => {
                                out.skipped.unreadable += 1;
                                continue;
                            }
                        }
                    }
                    let path = entry.into_path();
                    out.files.push(Candidate {
                        display: display_path(&path),
                        path,
                        explicit: false,
                    });
                }
                Err(err) => {
                    out.skipped.unreadable += 1;
                    let (file, msg) = walk_error_parts(&err);
                    let mut e = Error::new(
                        Code::PathUnreadable,
                        msg,
                        "check permissions, or exclude the path with -g '!PATH'",
                    );
                    if let Some(f) = file {
                        e = e.with_file(f);
                    }
                    out.diagnostics.push(e.diagnostic(Level::Warning));
                }
            }
        }
    }
    for d in &mut out.diagnostics {
        d.tool = tool.to_string();
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.files.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

fn walk_error_parts(err: &ignore::Error) -> (Option<String>, String) {
    match err {
        ignore::Error::WithPath { path, err } => {
            let p = display_path(path);
            (Some(p.clone()), format!("{p}: {err}"))
        }
        ignore::Error::WithDepth { err, .. } => walk_error_parts(err),
        ignore::Error::Loop { child, ancestor } => {
            let p = display_path(child);
            (
                Some(p.clone()),
                format!("{p}: symlink loop back to {}", display_path(ancestor)),
            )
        }
        other => (None, other.to_string()),
    }
}

/// The one spelling of a path in output: relative to the current directory when inside it (no
/// leading `./`, `/` separators), absolute otherwise. Purely lexical: symlinks are not resolved.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    display_path_from(&cwd, path)
}

/// [`display_path`] relative to an explicit base directory.
pub fn display_path_from(cwd: &Path, path: &Path) -> String {
    let abs = normalize(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    });
    let shown = match abs.strip_prefix(normalize(cwd)) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => abs,
    };
    let s = shown.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        s.into_owned()
    } else {
        s.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// Lexical normalisation: drops `.` components and folds `..` into its parent.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Number of worker threads for `-j N` (0 = automatic).
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested;
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(12)
}

/// Runs `work` on every item with `threads` workers and hands the results to `emit` in item
/// order, as soon as each is next in line. `emit` returns `false` to stop early.
/// Memory stays bounded by how far workers run ahead of the slowest item.
pub fn for_each_ordered<T, R, W, E>(items: &[T], threads: usize, work: W, mut emit: E)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    E: FnMut(R) -> bool,
{
    if threads <= 1 || items.len() <= 1 {
        for item in items {
            if !emit(work(item)) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::sync_channel::<(usize, R)>(threads * 64);
    let work = &work;
    let next = &next;
    let stop = &stop;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                if tx.send((i, work(&items[i]))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, R> = BTreeMap::new();
        let mut want = 0;
        let mut stopped = false;
        for (i, r) in rx.iter() {
            if stopped {
                continue;
            }
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                want += 1;
                if !emit(r) {
                    stop.store(true, Ordering::Relaxed);
                    stopped = true;
                    pending.clear();
                    break;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths() {
        let cwd = Path::new("/w/proj");
        assert_eq!(
            display_path_from(cwd, Path::new("./src/lib.rs")),
            "src/lib.rs"
        );
        assert_eq!(display_path_from(cwd, Path::new("/w/proj/a.rs")), "a.rs");
        assert_eq!(
            display_path_from(cwd, Path::new("../other/b.rs")),
            "/w/other/b.rs"
        );
        assert_eq!(display_path_from(cwd, Path::new("src/../x.py")), "x.py");
        assert_eq!(display_path_from(cwd, Path::new(".")), ".");
    }

    #[test]
    fn ordered_map_keeps_order() {
        let items: Vec<usize> = (0..500).collect();
        let mut seen = Vec::new();
        for_each_ordered(
            &items,
            4,
            |&i| i * 2,
            |r| {
                seen.push(r);
                true
            },
        );
        assert_eq!(seen, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn ordered_map_stops_early() {
        let items: Vec<usize> = (0..500).collect();
        let mut seen = 0;
        for_each_ordered(
            &items,
            3,
            |&i| i,
            |_| {
                seen += 1;
                seen < 10
            },
        );
        assert_eq!(seen, 10);
    }
}
