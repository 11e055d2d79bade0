//! File discovery shared by every command that reads a tree (search, ast, find, patch --rename):
//! paths → filtered, deterministic list of files (ignore crate), the one spelling of a path, and a
//! parallel map whose results come back in file order.

use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error, Result};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};
use ignore::WalkBuilder;
use serde::Serialize;

mod ordered;
mod paths;
mod split;

pub use ordered::{for_each_file, for_each_ordered_batches};
pub use paths::{absolute, display_bytes, display_path, display_path_from, normalize};
use std::path::PathBuf;

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
    /// `--iglob` patterns: case-insensitive globs.
    pub iglobs: Vec<String>,
    /// Every `globs` pattern is case-insensitive.
    pub glob_case_insensitive: bool,
    /// `--type-add NAME:GLOB` definitions.
    pub type_add: Vec<String>,
    /// `--type-clear NAME`.
    pub type_clear: Vec<String>,
    /// Finer ignore switches (each a part of `no_ignore`).
    pub no_ignore_vcs: bool,
    pub no_ignore_dot: bool,
    pub no_ignore_parent: bool,
    pub no_ignore_global: bool,
    /// `--no-ignore-exclude`: `.git/info/exclude` is not read.
    pub no_ignore_exclude: bool,
    /// `--no-ignore-messages`: no warning for an `--ignore-file` that cannot be read.
    pub no_ignore_messages: bool,
    /// `--ignore-file`: further gitignore-syntax files.
    pub ignore_files: Vec<PathBuf>,
    pub ignore_file_case_insensitive: bool,
    /// Directories below each root to descend into at most.
    pub max_depth: Option<usize>,
    /// Do not cross file-system boundaries.
    pub one_file_system: bool,
    /// Order of the files (`None`: by path); `true` reverses.
    pub sort: Option<(SortKey, bool)>,
    /// The file that holds what was read from standard input for a `-` path (see
    /// [`spool_stdin`]): shown as `<stdin>`.
    pub stdin: Option<PathBuf>,
}

/// The name standard input goes by in results, as in ripgrep.
pub const STDIN_NAME: &str = "<stdin>";

/// A path `-` means standard input, as in ripgrep: it is read to its end into a temporary
/// file, which takes the `-`'s place (every `-` is the same input) and lives as long as the
/// returned handle. Without a `-` path, standard input is never read: with no path, the
/// current directory is searched, where ripgrep would guess from what stdin is — a guess that
/// makes it wait for ever under programs that leave stdin an open pipe.
pub fn spool_stdin(opts: &mut WalkOptions) -> Result<Option<tempfile::TempPath>> {
    if !opts.paths.iter().any(|p| p.as_os_str() == "-") {
        return Ok(None);
    }
    let failed = |e: std::io::Error| {
        Error::new(
            Code::PathUnreadable,
            format!("could not read standard input: {e}"),
            "pipe the text in, or save it to a file and name the file",
        )
    };
    let mut file = tempfile::NamedTempFile::new().map_err(failed)?;
    std::io::copy(&mut std::io::stdin().lock(), &mut file).map_err(failed)?;
    let path = file.into_temp_path();
    for p in opts.paths.iter_mut().filter(|p| p.as_os_str() == "-") {
        *p = path.to_path_buf();
    }
    opts.paths.dedup();
    opts.stdin = Some(path.to_path_buf());
    Ok(Some(path))
}

/// What `--sort` orders files by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Path,
    Modified,
    Accessed,
    Created,
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
    /// FIFOs, sockets and devices: never opened (reading one could block or never end).
    #[serde(skip_serializing_if = "is_zero")]
    pub special: u64,
}

impl Skipped {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Skipped) {
        self.binary += other.binary;
        self.too_large += other.too_large;
        self.unreadable += other.unreadable;
        self.special += other.special;
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    let walker = prepare(opts, tool)?;
    let mut files = Vec::new();
    let tail = walker.collect_into(&mut files);
    Ok(Walk {
        files,
        skipped: tail.skipped,
        diagnostics: tail.diagnostics,
    })
}

/// How many threads walk a tree for a run of `threads` threads: from `SPLIT_WALK_FROM` on,
/// that many (the tree cut in subtrees, see `split`); below it, one. On 2 cores the split
/// walk's threads only share the cores with the workers, and cost more than they save: on the
/// Rust corpus at `-j2`, `search` human 50 → 43 ms and json 69 → 60 ms with one walking
/// thread, `find from_utf8 --json` 77.5 → 70.2 ms (CPU 124 → 109 ms). On the 16-core
/// machine, 4 threads searched the 16× tree in 259 ms (human), about what one serial walk of
/// it takes on 2 cores (261–303 ms).
pub fn walk_threads(threads: usize) -> usize {
    if threads >= SPLIT_WALK_FROM {
        threads
    } else {
        1
    }
}

/// See [`walk_threads`].
pub(super) const SPLIT_WALK_FROM: usize = 4;

/// A walk whose filters are built and whose roots are checked, ready to produce files.
/// [`walk`] collects it; [`Walker::stream`] hands files over one at a time, in path order, so
/// that work can start before the walk ends.
pub struct Walker {
    explicit: Vec<Candidate>,
    walk_roots: Vec<PathBuf>,
    filters: Option<TreeFilters>,
    /// Threads the walk may use (see [`Walker::threads`]).
    threads: usize,
    cwd: PathBuf,
    follow: bool,
    max_filesize: Option<u64>,
    tool: String,
    tally: Tally,
    sort: Option<(SortKey, bool)>,
}

/// What a walk skipped and met on the way, besides its files.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Tally {
    pub(crate) skipped: Skipped,
    pub(crate) diagnostics: Vec<DiagnosticPayload>,
}

impl Tally {
    fn append(&mut self, mut other: Tally) {
        self.skipped.add(&other.skipped);
        self.diagnostics.append(&mut other.diagnostics);
    }
}

/// What a streamed walk leaves once its files are handed over.
#[derive(Debug, Default)]
pub struct WalkTail {
    /// Files skipped while walking.
    pub skipped: Skipped,
    /// Problems met while walking (error-level for explicitly named paths).
    pub diagnostics: Vec<DiagnosticPayload>,
}

impl WalkTail {
    /// Adds what the walk skipped to `skipped`, and puts its diagnostics before `diagnostics`
    /// (those of the files, met while it went on).
    pub fn merge_into(self, skipped: &mut Skipped, diagnostics: &mut Vec<DiagnosticPayload>) {
        skipped.add(&self.skipped);
        let mut files = std::mem::replace(diagnostics, self.diagnostics);
        diagnostics.append(&mut files);
    }
}

/// Builds the filters and checks the roots of a walk (see [`walk`] for the rules).
pub fn prepare(opts: &WalkOptions, tool: &str) -> Result<Walker> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let default = [PathBuf::from(".")];
    let roots: &[PathBuf] = if opts.paths.is_empty() {
        &default
    } else {
        &opts.paths
    };

    let overrides = {
        let mut b = OverrideBuilder::new(&cwd);
        let case_folded = opts.iglobs.iter().map(|g| (g, true));
        let globs = opts
            .globs
            .iter()
            .map(|g| (g, opts.glob_case_insensitive))
            .chain(case_folded);
        for (g, fold) in globs {
            let _ = b.case_insensitive(fold);
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
    // Without a type flag no file is selected or left out by type: ignore's whole type
    // table (built and sorted, about a fifth of the instructions of a small file's outline)
    // is left unbuilt.
    let typed = !(opts.types.is_empty()
        && opts.types_not.is_empty()
        && opts.type_add.is_empty()
        && opts.type_clear.is_empty());
    let types = if !typed {
        TypesBuilder::new()
            .build()
            .expect("an empty type selection builds")
    } else {
        let mut b = TypesBuilder::new();
        b.add_defaults();
        for t in &opts.type_clear {
            b.clear(t);
        }
        for def in &opts.type_add {
            b.add_def(def).map_err(|e| {
                Error::new(
                    Code::UnknownType,
                    format!("bad --type-add `{def}`: {e}"),
                    "write NAME:GLOB (e.g. `web:*.{html,css}`) or NAME:include:TYPE,TYPE",
                )
            })?;
        }
        let known: Vec<String> = b
            .definitions()
            .iter()
            .map(|d| d.name().to_string())
            .collect();
        for (names, negate) in [(&opts.types, false), (&opts.types_not, true)] {
            for t in names {
                if t != "all" && !known.iter().any(|k| k == t) {
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

    let mut out = Walker {
        explicit: Vec::new(),
        walk_roots: Vec::new(),
        filters: None,
        threads: 1,
        follow: opts.follow,
        max_filesize: opts.max_filesize,
        tool: tool.to_string(),
        tally: Tally::default(),
        cwd,
        sort: opts.sort,
    };
    for root in roots {
        let shown = if opts.stdin.as_deref() == Some(root.as_path()) {
            STDIN_NAME.to_string()
        } else {
            display_path_from(&out.cwd, root)
        };
        match std::fs::metadata(root) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => {
                // A FIFO would block the open, a device never end: named or not, skipped.
                out.tally.skipped.special += 1;
                out.tally.diagnostics.push(
                    Error::new(
                        Code::SpecialFile,
                        format!("{shown} is not a regular file ({}); skipped", kind_of(&meta)),
                        "name regular files or directories; read a pipe or device into a file first",
                    )
                    .with_file(shown)
                    .diagnostic(Level::Warning),
                );
            }
            Ok(meta) if meta.is_file() => {
                // Named files are searched whatever the filters say (--max-filesize too),
                // as in ripgrep.
                out.explicit.push(Candidate {
                    path: root.clone(),
                    display: shown,
                    explicit: true,
                });
            }
            Ok(_) => out.walk_roots.push(root.clone()),
            Err(e) => {
                let (code, fix) = if e.kind() == std::io::ErrorKind::NotFound {
                    (
                        Code::PathNotFound,
                        "check the path; paths are relative to the current directory",
                    )
                } else {
                    (Code::PathUnreadable, "check the permissions of the path")
                };
                out.tally.diagnostics.push(
                    Error::new(code, format!("{shown}: {e}"), fix)
                        .with_file(shown)
                        .diagnostic(Level::Error),
                );
            }
        }
    }

    if !opts.no_ignore_messages {
        out.tally.diagnostics.extend(ignore_file_problems(opts));
    }
    let filters = TreeFilters {
        opts: opts.clone(),
        overrides,
        types,
    };
    if !out.walk_roots.is_empty() {
        out.filters = Some(filters);
    }
    Ok(out)
}

/// A warning for each `--ignore-file` that cannot be read, or has lines that are not globs
/// (their other lines apply). The run goes on, as in ripgrep, which says so on stderr and
/// searches as if the file had not been given; checked once, here, as each walk (and each
/// subtree of a split walk) reads the files again.
fn ignore_file_problems(opts: &WalkOptions) -> Vec<DiagnosticPayload> {
    let mut probe = WalkBuilder::new(".");
    probe.ignore_case_insensitive(opts.ignore_file_case_insensitive);
    opts.ignore_files
        .iter()
        .filter_map(|f| {
            let e = probe.add_ignore(f)?;
            Some(
                Error::new(
                    Code::PathUnreadable,
                    format!("--ignore-file {}: {e}", display_path(f)),
                    "check the path given to --ignore-file; the search went on without it",
                )
                .with_file(display_path(f))
                .diagnostic(Level::Warning),
            )
        })
        .collect()
}

/// What decides which files a walk yields: the options and the built globs and types, from
/// which a walk of any root (the whole tree, or one subtree of it) is made.
pub(crate) struct TreeFilters {
    pub(crate) opts: WalkOptions,
    overrides: Override,
    types: Types,
}

impl TreeFilters {
    /// A walk of `roots` with every filter of the options, descending at most `max_depth`.
    /// An `--ignore-file` that cannot be read adds nothing ([`prepare`] warned of it).
    pub(crate) fn builder(&self, roots: &[PathBuf], max_depth: Option<usize>) -> WalkBuilder {
        let opts = &self.opts;
        let mut builder = WalkBuilder::new(&roots[0]);
        for r in &roots[1..] {
            builder.add(r);
        }
        let vcs = !opts.no_ignore && !opts.no_ignore_vcs;
        builder
            .hidden(!opts.hidden)
            .ignore(!opts.no_ignore && !opts.no_ignore_dot)
            .git_ignore(vcs)
            .git_global(vcs && !opts.no_ignore_global)
            .git_exclude(vcs && !opts.no_ignore_exclude)
            .parents(!opts.no_ignore && !opts.no_ignore_parent)
            .require_git(false)
            .ignore_case_insensitive(opts.ignore_file_case_insensitive)
            .max_depth(max_depth)
            .same_file_system(opts.one_file_system)
            .follow_links(opts.follow)
            .overrides(self.overrides.clone())
            .types(self.types.clone())
            // Children in name order make the depth-first walk come out in path order.
            .sort_by_file_name(|a, b| a.cmp(b))
            .threads(1);
        if !opts.no_ignore && !opts.no_ignore_dot {
            builder.add_custom_ignore_filename(".rgignore");
        }
        for f in &opts.ignore_files {
            let _ = builder.add_ignore(f);
        }
        builder
    }
}

impl Walker {
    /// Hands every file to `f` in path order (sorted and deduplicated, as [`walk`] returns
    /// them); `f` returns `false` to stop. With a single root the files come as the walk finds
    /// them; with several, after the walk (to sort them).
    pub fn stream(mut self, f: &mut dyn FnMut(Candidate) -> bool) -> WalkTail {
        if self.explicit.len() + self.walk_roots.len() > 1 || self.sort.is_some() {
            let mut files = Vec::new();
            let tail = self.collect_into(&mut files);
            for c in files {
                if !f(c) {
                    break;
                }
            }
            return tail;
        }
        for c in std::mem::take(&mut self.explicit) {
            if !f(c) {
                return self.finish();
            }
        }
        self.walk_tree(f);
        self.finish()
    }

    /// Every file, sorted by path and deduplicated.
    fn collect_into(mut self, files: &mut Vec<Candidate>) -> WalkTail {
        files.append(&mut self.explicit);
        self.walk_tree(&mut |c| {
            files.push(c);
            true
        });
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files.dedup_by(|a, b| a.path == b.path);
        if let Some((key, reverse)) = self.sort {
            sort_files(files, key, reverse);
        }
        self.finish()
    }

    fn finish(mut self) -> WalkTail {
        for d in &mut self.tally.diagnostics {
            d.tool = self.tool.clone();
        }
        WalkTail {
            skipped: self.tally.skipped,
            diagnostics: self.tally.diagnostics,
        }
    }

    /// Whether the walk is of one file named on the command line and nothing else.
    pub fn is_one_file(&self) -> bool {
        self.explicit.len() == 1 && self.walk_roots.is_empty()
    }

    /// Uses up to `threads` threads to walk a directory (see [`split`]); the order of the
    /// files does not change.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Walks the directory roots, handing files to `f` in depth-first name order.
    fn walk_tree(&mut self, f: &mut dyn FnMut(Candidate) -> bool) {
        let Some(filters) = self.filters.take() else {
            return;
        };
        let roots = std::mem::take(&mut self.walk_roots);
        let rules = EntryRules {
            cwd: self.cwd.clone(),
            follow: self.follow,
            max_filesize: self.max_filesize,
        };
        if let [root] = &roots[..] {
            if self.threads > 1 && split::splittable(&filters.opts) {
                split::walk(&filters, root, self.threads, &rules, &mut self.tally, f);
                return;
            }
        }
        walk_serial(
            &filters,
            &roots,
            filters.opts.max_depth,
            &rules,
            &mut self.tally,
            f,
        );
    }
}

/// Walks `roots` on this thread, handing files to `f` in depth-first name order; `false` when
/// `f` said to stop.
pub(crate) fn walk_serial(
    filters: &TreeFilters,
    roots: &[PathBuf],
    max_depth: Option<usize>,
    rules: &EntryRules,
    tally: &mut Tally,
    f: &mut dyn FnMut(Candidate) -> bool,
) -> bool {
    for entry in filters.builder(roots, max_depth).build() {
        if let Entry::File(c) = rules.entry(entry, tally) {
            if !f(c) {
                return false;
            }
        }
    }
    true
}

/// How a walk's entries become files.
pub(crate) struct EntryRules {
    cwd: PathBuf,
    follow: bool,
    max_filesize: Option<u64>,
}

/// What one entry of a walk is to us.
pub(crate) enum Entry {
    File(Candidate),
    /// A directory below the walk's root (symbolic links to one are not, unless followed).
    Dir(PathBuf),
    /// Nothing to hand on: a directory root, a link not followed, a skipped or unreadable file
    /// (counted in the tally).
    Nothing,
}

impl EntryRules {
    /// Judges one entry of a walk, counting what is skipped in `tally`.
    pub(crate) fn entry(
        &self,
        entry: std::result::Result<ignore::DirEntry, ignore::Error>,
        tally: &mut Tally,
    ) -> Entry {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                tally.skipped.unreadable += 1;
                let (file, msg) = walk_error_parts(&err);
                let fix = if is_loop(&err) {
                    "the link leads back to a directory being searched: drop -L/--follow, \
or exclude the link with -g '!PATH'"
                } else {
                    "check permissions, or exclude the path with -g '!PATH'"
                };
                let mut e = Error::new(Code::PathUnreadable, msg, fix);
                if let Some(f) = file {
                    e = e.with_file(f);
                }
                tally.diagnostics.push(e.diagnostic(Level::Warning));
                return Entry::Nothing;
            }
        };
        let Some(ft) = entry.file_type() else {
            return Entry::Nothing;
        };
        let is_link = entry.path_is_symlink() && !self.follow;
        if is_link {
            return Entry::Nothing;
        }
        if ft.is_dir() {
            if entry.depth() == 0 {
                return Entry::Nothing;
            }
            return Entry::Dir(entry.into_path());
        }
        if !ft.is_file() {
            // A FIFO, socket or device: opening or reading it could block or never end.
            if !ft.is_symlink() {
                tally.skipped.special += 1;
                log::debug!("skipping {}: not a regular file", entry.path().display());
            }
            return Entry::Nothing;
        }
        if let Some(max) = self.max_filesize {
            match entry.metadata() {
                Ok(m) if m.len() > max => {
                    tally.skipped.too_large += 1;
                    log::debug!(
                        "skipping {}: larger than --max-filesize",
                        entry.path().display()
                    );
                    return Entry::Nothing;
                }
                Ok(_) => {}
                Err(_) => {
                    tally.skipped.unreadable += 1;
                    return Entry::Nothing;
                }
            }
        }
        let path = entry.into_path();
        Entry::File(Candidate {
            display: display_path_from(&self.cwd, &path),
            path,
            explicit: false,
        })
    }
}

/// Orders files by a time (oldest first; `reverse`: newest first) or by path in reverse.
/// Files whose time cannot be read come first, in path order, as ripgrep.
fn sort_files(files: &mut [Candidate], key: SortKey, reverse: bool) {
    let time = |c: &Candidate| {
        let m = std::fs::metadata(&c.path).ok()?;
        match key {
            SortKey::Path => None,
            SortKey::Modified => m.modified().ok(),
            SortKey::Accessed => m.accessed().ok(),
            SortKey::Created => m.created().ok(),
        }
    };
    if key == SortKey::Path {
        if reverse {
            files.reverse();
        }
        return;
    }
    let mut keyed: Vec<_> = files.iter().map(|c| (time(c), c.clone())).collect();
    keyed.sort_by(|a, b| {
        let o = a.0.cmp(&b.0);
        if reverse {
            o.reverse()
        } else {
            o
        }
    });
    for (slot, (_, c)) in files.iter_mut().zip(keyed) {
        *slot = c;
    }
}

/// How a special file is named in messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "a special file"
}

fn is_loop(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => is_loop(err),
        _ => false,
    }
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

/// Number of worker threads for `-j N` (0 = automatic), at most [`MAX_THREADS`].
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        return requested.min(MAX_THREADS);
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(12)
}

/// The most threads `-j` starts: each worker holds its own buffers (256 KiB and more), so
/// that past a few hundred more threads only cost memory; `-j 20000` ran out of it and
/// aborted.
pub const MAX_THREADS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_streams_in_path_order() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["b.rs", "a/z.rs", "a.rs", "a/b/c.rs", "a-b/x.rs", "B.rs"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "x").unwrap();
        }
        let opts = WalkOptions {
            paths: vec![dir.path().to_path_buf()],
            ..Default::default()
        };
        let mut streamed = Vec::new();
        prepare(&opts, "t").unwrap().stream(&mut |c| {
            streamed.push(c.path);
            true
        });
        let mut sorted = streamed.clone();
        sorted.sort();
        assert_eq!(streamed, sorted);
        assert_eq!(streamed.len(), 6);
    }
}
