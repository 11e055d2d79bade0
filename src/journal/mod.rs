//! The workspace journal (`.llm/journal/` at the workspace's top level): every mutation records
//! its intent — execution id, command, arguments, files with before/after checksums and line
//! counts — and the files' pre-images (in `.llm/objects/`) durably *before* it touches a file,
//! then commits the files, then marks the record done. A run killed in between leaves a
//! `*.pending.json` record, which the next mutating command (or `llm history`/`llm undo`)
//! resolves under the journal lock ([`recover`]): completed when every file already has its
//! after-checksum, else rolled back to the pre-images; the run's temp files (named from its
//! execution id) are removed. Done records are the history `llm undo` works from. Retention is
//! bounded ([`Limits`]).

pub mod recover;
pub mod undo;

use crate::error::{Code, Error};
use crate::mutation::store;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// One file of a journaled operation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileRecord {
    /// The path as the command showed it.
    pub file_path: String,
    /// The file's real (canonical) path.
    pub path: String,
    /// SHA-256 before (null: the operation created the file); the pre-image is
    /// `.llm/objects/<before_checksum>`.
    pub before_checksum: Option<String>,
    /// SHA-256 after (null: the operation deleted the file).
    pub after_checksum: Option<String>,
    pub before_lines: usize,
    pub after_lines: usize,
    /// Bytes another program wrote to the old file while it was replaced (LLM_E114), kept in
    /// `.llm/objects/`: undo restores these instead of the pre-image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreign_checksum: Option<String>,
    /// Permission bits before (null: the file did not exist); undo gives them back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_mode: Option<u32>,
    /// Permission bits after (null: the operation deleted the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_mode: Option<u32>,
}

/// One journaled operation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub execution_id: String,
    /// Order in the journal (grows by one per operation).
    pub seq: u64,
    /// The command (`transform`, `patch`, `write`, `apply`, `undo`).
    pub command: String,
    /// The command line, shortened.
    pub args: String,
    /// RFC 3339, UTC.
    pub time: String,
    /// `pending` (intent recorded, files being committed), `done`, or `rolled_back` (a crashed
    /// run undone by recovery: the files are as before it).
    pub status: String,
    /// Set when a crash interrupted the run: `completed` or `rolled_back` by recovery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered: Option<String>,
    /// The operation this one undid (an `llm undo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// The run could write outside its root (`--allow-outside-root`); undo may too.
    #[serde(default)]
    pub allow_outside_root: bool,
    /// The run checked the files once written (`--check`) before keeping them: a pending
    /// record of such a run was interrupted before its change was validated, and recovery
    /// rolls it back rather than completing it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub validating: bool,
    pub files: Vec<FileRecord>,
    /// Directories the operation created (real paths, deepest first): undo removes the ones
    /// left empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_dirs: Vec<String>,
}

/// Retention: the newest `max_ops` operations, while their objects take at most `max_bytes`
/// (the newest operation is always kept); past a limit the oldest go until 90% of it is left. From `LLM_JOURNAL_MAX_OPS` /
/// `LLM_JOURNAL_MAX_BYTES`, else `.llm/config` (`max_ops = N`, `max_bytes = N`), else 200 and
/// 256 MiB.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_ops: usize,
    pub max_bytes: u64,
}

impl Limits {
    fn load(base: &Path) -> Limits {
        let config = crate::fsio::read_store_file(&base.join("config"), 64 << 10)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let from_config = |key: &str| {
            config.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().parse::<u64>().ok())?
            })
        };
        let get = |env: &str, key: &str, default: u64| {
            std::env::var(env)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .or_else(|| from_config(key))
                .unwrap_or(default)
        };
        Limits {
            max_ops: get("LLM_JOURNAL_MAX_OPS", "max_ops", 200).max(1) as usize,
            max_bytes: get("LLM_JOURNAL_MAX_BYTES", "max_bytes", 256 << 20),
        }
    }
}

/// Whether journaling is on (`LLM_JOURNAL=off` turns it off: no recovery record, no undo).
pub fn enabled() -> bool {
    !matches!(std::env::var("LLM_JOURNAL").as_deref(), Ok("off" | "0"))
}

/// The journal of the workspace at `top`, locked (an exclusive `flock` on `.llm/lock`): one
/// `llm` process at a time reads or writes it.
pub struct Journal {
    pub top: PathBuf,
    /// `.llm` and `.llm/journal`, reached through their handles (see [`store::StoreDir`]).
    base: PathBuf,
    dir: PathBuf,
    objects: PathBuf,
    _held: [store::StoreDir; 3],
    _lock: File,
}

fn journal_error(what: impl std::fmt::Display) -> Error {
    Error::new(
        Code::JournalFailed,
        format!("the journal could not be written: {what}; nothing was changed"),
        "make .llm/ at the workspace's top level writable (or free disk space), or set LLM_JOURNAL=off to mutate without a journal (no recovery, no undo)",
    )
}

impl Journal {
    /// Opens (creating `.llm/journal/` and `.llm/.gitignore` when `create`) and locks the
    /// journal of `top`; `None` when it does not exist and `create` is false.
    pub fn open(top: &Path, create: bool) -> Result<Option<Journal>, Error> {
        let base = top.join(".llm");
        let dir = base.join("journal");
        // Never through a symlink planted in the workspace: checked before anything is made.
        for d in [&base, &dir, &base.join("objects")] {
            store::real_dir_or_absent(d).map_err(journal_error)?;
        }
        if !create && !dir.is_dir() {
            return Ok(None);
        }
        let held = |d: std::io::Result<Option<store::StoreDir>>, shown: &Path| {
            d.map_err(|e| journal_error(format!("{}: {e}", shown.display())))?
                .ok_or_else(|| journal_error(format!("{} is gone", shown.display())))
        };
        let base_dir = held(store::StoreDir::open(top, ".llm", create), &base)?;
        let journal_dir = held(
            store::StoreDir::open(&base_dir.path, "journal", create),
            &dir,
        )?;
        let objects_dir = held(
            store::StoreDir::open(&base_dir.path, "objects", true),
            &base.join("objects"),
        )?;
        let (base, dir) = (base_dir.path.clone(), journal_dir.path.clone());
        let objects = objects_dir.path.clone();
        store::ignore_all(&base).map_err(journal_error)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(base.join("lock"))
            .map_err(|e| journal_error(format!("{}: {e}", top.join(".llm/lock").display())))?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|e| journal_error(std::io::Error::from(e)))?;
        Ok(Some(Journal {
            top: top.to_path_buf(),
            base,
            dir,
            objects,
            _held: [base_dir, journal_dir, objects_dir],
            _lock: lock,
        }))
    }

    /// Record file names in the journal directory: (seq, path, pending).
    fn entries(&self) -> Vec<(u64, PathBuf, bool)> {
        let mut out = Vec::new();
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return out;
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let (stem, pending) = if let Some(s) = name.strip_suffix(".pending.json") {
                (s, true)
            } else if let Some(s) = name.strip_suffix(".json") {
                (s, false)
            } else {
                continue;
            };
            let Some(seq) = stem.split('-').next().and_then(|s| s.parse().ok()) else {
                continue;
            };
            out.push((seq, e.path(), pending));
        }
        out.sort_by_key(|e| e.0);
        out
    }

    fn final_path(&self, r: &Record) -> PathBuf {
        self.dir
            .join(format!("{:010}-{}.json", r.seq, r.execution_id))
    }

    fn pending_path(&self, r: &Record) -> PathBuf {
        self.dir
            .join(format!("{:010}-{}.pending.json", r.seq, r.execution_id))
    }

    /// Writes `record` durably (temp file, fsync, rename, fsync of the directory).
    fn put(&self, path: &Path, record: &Record) -> Result<(), Error> {
        self.put_as(path, record, true)
    }

    /// Writes `record` atomically (temp file, rename); fsynced when `durable`. A done mark
    /// need not be: lost in a power cut, its pending record stays, and recovery completes the
    /// run again (every file has its after-checksum).
    fn put_as(&self, path: &Path, record: &Record, durable: bool) -> Result<(), Error> {
        let bytes = serde_json::to_vec(record).map_err(journal_error)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(&self.dir)
            .map_err(journal_error)?;
        tmp.write_all(&bytes).map_err(journal_error)?;
        if durable {
            tmp.as_file().sync_all().map_err(journal_error)?;
        }
        tmp.persist(path).map_err(|e| journal_error(e.error))?;
        if durable {
            sync(&self.dir);
        }
        Ok(())
    }

    /// A path in `.llm/journal/` as the workspace spells it (not through the handle).
    fn shown(&self, p: &Path) -> String {
        let journal = self.top.join(".llm").join("journal");
        match p.strip_prefix(&self.dir) {
            Ok(rest) => journal.join(rest).display().to_string(),
            Err(_) => p.display().to_string(),
        }
    }

    /// Every done (or rolled-back) record, oldest first.
    pub fn records(&self) -> Vec<Record> {
        self.read_done().0
    }

    /// Every done (or rolled-back) record, oldest first, and the files among them that are
    /// no record as llm writes them (see [`Record`]), read once.
    pub fn read_done(&self) -> (Vec<Record>, Vec<String>) {
        let mut records = Vec::new();
        let mut unreadable = Vec::new();
        for (_, p, _) in self.entries().into_iter().filter(|e| !e.2) {
            match read_record(&p) {
                Some(r) => records.push(r),
                None => unreadable.push(self.shown(&p)),
            }
        }
        (records, unreadable)
    }

    /// The path of the object holding `sum`.
    pub fn object(&self, sum: &str) -> PathBuf {
        self.objects.join(sum)
    }

    /// The bytes kept as `sum`, checked against it: a pre-image that does not hold its
    /// checksum's bytes (damaged, or written by another program) is never restored.
    pub fn object_bytes(&self, sum: &str, file_path: &str) -> Result<Vec<u8>, Error> {
        let bytes =
            crate::fsio::read_store_file(&self.object(sum), crate::fsio::MAX_TARGET_BYTES)
                .ok_or_else(|| {
                    journal_error(format!(
                        "the pre-image of {file_path} is missing from .llm/objects, or is no regular file of at most 1 GiB"
                    ))
                })?;
        if crate::span::checksum(&bytes) != sum.to_ascii_lowercase() {
            return Err(Error::new(
                Code::JournalUntrusted,
                format!(
                    "the pre-image of {file_path} in .llm/objects/{sum} does not hold the bytes of its checksum; nothing was restored"
                ),
                "the journal's copy is damaged: restore the file from version control",
            )
            .with_file(file_path));
        }
        Ok(bytes)
    }

    /// Empties the journal: every record and every object. Returns how many records went.
    pub fn prune_all(&self) -> usize {
        let mut n = 0;
        for (_, p, pending) in self.entries() {
            if std::fs::remove_file(&p).is_ok() && !pending {
                n += 1;
            }
        }
        if let Ok(rd) = std::fs::read_dir(&self.objects) {
            for e in rd.flatten() {
                let _ = std::fs::remove_file(e.path());
            }
        }
        n
    }

    /// Drops the oldest records past the limits (down to 90% of them) and the objects no record
    /// refers to. Below the limits it costs a listing of `.llm/journal/` and `.llm/objects/`.
    fn enforce(&self, limits: Limits) {
        let done: Vec<_> = self.entries().into_iter().filter(|e| !e.2).collect();
        let objects = &self.objects;
        let sizes: Vec<(OsString, u64)> = std::fs::read_dir(objects)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| Some((e.file_name(), e.metadata().ok()?.len())))
                    .collect()
            })
            .unwrap_or_default();
        let total: u64 = sizes.iter().map(|s| s.1).sum();
        if done.len() <= limits.max_ops && total <= limits.max_bytes {
            return;
        }
        let mut keep: Vec<(PathBuf, Record)> = done
            .iter()
            .filter_map(|(_, p, _)| Some((p.clone(), read_record(p)?)))
            .collect();
        let size_of = |sum: &str| {
            sizes
                .iter()
                .find(|(n, _)| n.to_str() == Some(sum))
                .map_or(0, |s| s.1)
        };
        let referenced = |keep: &[(PathBuf, Record)]| {
            let mut sums: Vec<String> = keep
                .iter()
                .flat_map(|(_, r)| r.files.iter())
                .flat_map(|f| [f.before_checksum.clone(), f.foreign_checksum.clone()])
                .flatten()
                .collect();
            sums.sort();
            sums.dedup();
            sums
        };
        // Once over a limit, down to 90% of it: reading every record to find the unused
        // objects then happens once per tenth of the limit, not on every operation.
        let (ops_to, bytes_to) = (
            limits.max_ops - limits.max_ops / 10,
            limits.max_bytes - limits.max_bytes / 10,
        );
        while keep.len() > 1 {
            let bytes: u64 = referenced(&keep).iter().map(|s| size_of(s)).sum();
            if keep.len() <= ops_to && bytes <= bytes_to {
                break;
            }
            let (p, _) = keep.remove(0);
            let _ = std::fs::remove_file(p);
        }
        let live = referenced(&keep);
        for (name, _) in &sizes {
            let Some(n) = name.to_str() else { continue };
            if !n.starts_with('.') && live.binary_search(&n.to_string()).is_err() {
                let _ = std::fs::remove_file(objects.join(n));
            }
        }
    }
}

/// The largest journal record read: one that lists every file of a big change stays far
/// below it; a bigger one is not llm's.
const MAX_RECORD_BYTES: u64 = 64 << 20;

fn read_record(p: &Path) -> Option<Record> {
    let bytes = crate::fsio::read_store_file(p, MAX_RECORD_BYTES)?;
    let mut record: Record = serde_json::from_slice(&bytes).ok()?;
    // Only the nine permission bits are ever restored from a record: anyone who can write
    // `.llm/` can write one, and setuid, setgid or sticky bits from it would be theirs.
    for f in &mut record.files {
        f.before_mode = f.before_mode.map(|m| m & 0o777);
    }
    record.well_formed().then_some(record)
}

/// An absolute path of plain names (no `.` or `..`), as llm records real paths.
fn plain_absolute(p: &str) -> bool {
    use std::path::Component;
    let p = Path::new(p);
    p.is_absolute()
        && p.components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
}

impl Record {
    /// What llm writes: an execution id of hex digits and dashes (temp file names are made
    /// from it), checksums of 64 hex digits (object names), absolute paths. Anything else in
    /// `.llm/journal/` was not written by llm and is ignored.
    fn well_formed(&self) -> bool {
        let sums = |f: &FileRecord| {
            [&f.before_checksum, &f.after_checksum, &f.foreign_checksum]
                .into_iter()
                .flatten()
                .all(|s| crate::span::is_sha256(s))
        };
        !self.execution_id.is_empty()
            && self.execution_id.len() <= 64
            && (self.execution_id.bytes()).all(|b| b.is_ascii_hexdigit() || b == b'-')
            && (self.files.iter()).all(|f| sums(f) && plain_absolute(&f.path))
            && self.created_dirs.iter().all(|d| plain_absolute(d))
            // An operation never undoes itself.
            && self.undoes.as_deref() != Some(self.execution_id.as_str())
    }

    /// Refuses a record that reaches outside its workspace's root when this run may not: only
    /// a run given --allow-outside-root acts on one (a record planted in `.llm/` could
    /// otherwise make recovery or undo write anywhere).
    pub fn check_reach(&self, top: &Path, allow_outside_root: bool) -> Result<(), Error> {
        let outside = (self.files.iter().map(|f| Path::new(&f.path)))
            .chain(self.created_dirs.iter().map(Path::new))
            .find(|p| !p.starts_with(top));
        match outside {
            Some(p) if !allow_outside_root => Err(Error::new(
                Code::JournalUntrusted,
                format!(
                    "operation {} touched {} outside {}; nothing was restored",
                    self.execution_id,
                    p.display(),
                    top.display()
                ),
                "if you ran it with --allow-outside-root, pass --allow-outside-root here too; \
if you did not, remove its record from .llm/journal/",
            )),
            _ => Ok(()),
        }
    }
}

fn sync(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Number of lines in `bytes` (a last line without a newline counts).
pub fn line_count(bytes: &[u8]) -> usize {
    let n = memchr::memchr_iter(b'\n', bytes).count();
    n + usize::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

/// The temp file name of the `index`-th file of run `id` (`restore`: the name used when it is
/// put back): derived from the id so recovery can remove it.
pub fn temp_name(id: &str, index: usize, restore: bool) -> OsString {
    let simple: String = id.chars().filter(|c| *c != '-').collect();
    OsString::from(format!(
        ".llm-{simple}-{index}{}.tmp",
        if restore { "r" } else { "" }
    ))
}

/// The operation an `llm undo` in this process undoes (recorded as `undoes`).
static UNDOES: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Marks this process's mutation as the undo of `id`.
pub fn set_undoes(id: &str) {
    let _ = UNDOES.set(id.to_string());
}

/// The command line, shortened to 300 characters.
fn args_summary() -> String {
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            let s = a.to_string_lossy().into_owned();
            if s.is_empty() || s.contains(|c: char| c.is_whitespace() || c == '\'') {
                format!("'{}'", s.replace('\'', "'\\''"))
            } else {
                s
            }
        })
        .collect();
    let line = words.join(" ");
    if line.chars().count() > 300 {
        format!("{}…", line.chars().take(299).collect::<String>())
    } else {
        line
    }
}

/// One file as the mutation core hands it to [`begin`].
pub struct Intent<'a> {
    pub file_path: &'a str,
    pub real: &'a Path,
    pub before: Option<&'a [u8]>,
    pub after: Option<&'a [u8]>,
    pub before_mode: Option<u32>,
    pub after_mode: Option<u32>,
}

/// An operation whose intent is recorded (the journal stays locked until it is done or
/// abandoned).
pub struct Active {
    journal: Journal,
    record: Record,
}

/// Opens and locks the journal of `top` for a commit and resolves any interrupted run; `None`
/// when journaling is off. Taken before the files' directory locks (always in that order).
pub fn open_for_commit(top: &Path, allow_outside_root: bool) -> Result<Option<Journal>, Error> {
    if !enabled() {
        return Ok(None);
    }
    let journal = Journal::open(top, true)?.expect("created");
    recover::run(&journal, allow_outside_root)?;
    Ok(Some(journal))
}

impl Journal {
    /// Records the intent of a mutation of `files`: the pre-images go to `.llm/objects/`, the
    /// record to `.llm/journal/<seq>-<id>.pending.json`, all fsynced, before any file is
    /// touched. The journal stays locked until the run is done or abandoned.
    pub fn begin(
        self,
        command: &str,
        allow_outside_root: bool,
        files: &[Intent],
        created_dirs: &[PathBuf],
        validating: bool,
    ) -> Result<Active, Error> {
        for f in files {
            if let Some(b) = f.before {
                store::keep_in(&self.objects, b).map_err(journal_error)?;
            }
        }
        let seq = self.entries().last().map_or(1, |e| e.0 + 1);
        let record = Record {
            execution_id: crate::envelope::execution_id(),
            seq,
            command: command.to_string(),
            args: args_summary(),
            time: crate::envelope::now_rfc3339(),
            status: "pending".into(),
            recovered: None,
            undoes: UNDOES.get().cloned(),
            allow_outside_root,
            validating,
            files: files
                .iter()
                .map(|f| FileRecord {
                    file_path: f.file_path.to_string(),
                    path: f.real.to_string_lossy().into_owned(),
                    before_checksum: f.before.map(crate::span::checksum),
                    after_checksum: f.after.map(crate::span::checksum),
                    before_lines: f.before.map_or(0, line_count),
                    after_lines: f.after.map_or(0, line_count),
                    foreign_checksum: None,
                    before_mode: f.before_mode,
                    after_mode: f.after_mode,
                })
                .collect(),
            created_dirs: created_dirs
                .iter()
                .map(|d| d.to_string_lossy().into_owned())
                .collect(),
        };
        self.put(&self.pending_path(&record), &record)?;
        Ok(Active {
            journal: self,
            record,
        })
    }
}

impl Active {
    /// The execution id of the run.
    pub fn id(&self) -> &str {
        &self.record.execution_id
    }

    /// The files are committed: the record becomes done (`foreign`: per file index, the
    /// checksum of bytes a foreign writer left, already kept in the store), then retention is
    /// enforced. A failure here leaves the pending record, which recovery completes.
    pub fn done(mut self, foreign: &[(usize, String)]) {
        for (i, sum) in foreign {
            if let Some(f) = self.record.files.get_mut(*i) {
                f.foreign_checksum = Some(sum.clone());
            }
        }
        self.record.status = "done".into();
        let j = &self.journal;
        if j.put_as(&j.final_path(&self.record), &self.record, false)
            .is_ok()
        {
            let _ = std::fs::remove_file(j.pending_path(&self.record));
            j.enforce(Limits::load(&j.base));
        }
    }

    /// Nothing was changed after all (the files were restored): the intent is dropped.
    pub fn abandon(self) {
        let j = &self.journal;
        let _ = std::fs::remove_file(j.pending_path(&self.record));
        sync(&j.dir);
    }
}
