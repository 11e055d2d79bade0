//! The workspace's `.llm/` store: content-addressed blobs (`.llm/objects/<sha256>`) of bytes a
//! mutation must not lose — today the bytes another program wrote while `llm` replaced a file;
//! the journal (intent records and pre-images for recovery and undo) keeps its pre-images in the
//! same store. `.llm/` sits at the workspace's top level (git's top level above the root, else
//! the root) and holds a `.gitignore` of `*`, so it is never committed; the walks skip it as a
//! hidden directory.
//!
//! Layout, shared with the journal: `objects/<sha256>` holds bytes by their checksum (written to
//! a temp name, fsynced, renamed: a blob is complete or absent). The journal adds one record per
//! operation (`journal/<execution_id>.json`: intent, files with before/after checksums, status)
//! that names its pre-images by checksum; at commit time the handle a mutation holds on each
//! replaced file (its pre-image, see `Prepared::commit`) is what gets kept here, before the
//! rename. Retention (bounded count/size) belongs to the journal.

use crate::span::checksum;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The workspace's top level for `root` (canonical): the nearest ancestor holding `.git`, else
/// `root` itself.
pub fn workspace_top(root: &Path) -> PathBuf {
    root.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(root)
        .to_path_buf()
}

/// Whether `path` (absolute) lies in the `.llm/` store of the workspace at `top`.
pub fn in_store(top: &Path, path: &Path) -> bool {
    path.starts_with(top.join(".llm"))
}

/// Fails when `dir` exists but is no real directory (a symlink planted in the workspace would
/// send the store's writes elsewhere).
pub fn real_dir_or_absent(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if !m.is_dir() => Err(std::io::Error::other(format!(
            "{} is not a directory (a symlink?)",
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// A directory of the store (`.llm`, `.llm/journal`, `.llm/objects`), made when asked and held
/// open: `path` reaches it through its handle (`/proc/self/fd/N` where /proc is mounted), so
/// another program that renames `.llm` or swaps in a symlink while a run goes on cannot
/// redirect what is written after the open (an attack run got journal records and pre-images
/// written to a directory outside the root that way). Never opened through a symlink.
pub struct StoreDir {
    _fd: std::os::fd::OwnedFd,
    pub path: PathBuf,
}

impl StoreDir {
    /// `name` in `parent` (a store directory, or the workspace's top level for `.llm`).
    /// `Ok(None)` when it does not exist and `create` is false.
    pub fn open(parent: &Path, name: &str, create: bool) -> std::io::Result<Option<StoreDir>> {
        use rustix::fs::{Mode, OFlags};
        let dir = rustix::fs::open(
            parent,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        if create {
            match rustix::fs::mkdirat(&dir, name, Mode::from_raw_mode(0o755)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let fd = match rustix::fs::openat(
            &dir,
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) if !create => return Ok(None),
            Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
                return Err(std::io::Error::other(format!(
                    "{} is not a directory (a symlink?)",
                    parent.join(name).display()
                )))
            }
            Err(e) => return Err(e.into()),
        };
        use std::os::fd::AsRawFd;
        let through = PathBuf::from(format!("/proc/self/fd/{}", fd.as_raw_fd()));
        let path = if through.is_dir() {
            through
        } else {
            parent.join(name)
        };
        Ok(Some(StoreDir { _fd: fd, path }))
    }
}

/// Writes `.gitignore` (`*`) into the store directory `base` unless one is there (never
/// through a link: created exclusively).
pub fn ignore_all(base: &Path) -> std::io::Result<()> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(base.join(".gitignore"))
    {
        Ok(mut f) => f.write_all(b"*\n"),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Keeps `bytes` as `.llm/objects/<sha256>` under `top` (durably: written to a temp name,
/// fsynced, renamed); returns the blob's path. A blob already there is not written again.
pub fn keep(top: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let base = StoreDir::open(top, ".llm", true)?.expect("created");
    ignore_all(&base.path)?;
    let objects = StoreDir::open(&base.path, "objects", true)?.expect("created");
    let name = keep_in(&objects.path, bytes)?;
    Ok(top.join(".llm").join("objects").join(name))
}

/// Keeps `bytes` in the objects directory `objects` (one already opened, see [`StoreDir`]);
/// returns the blob's name, its checksum.
pub fn keep_in(objects: &Path, bytes: &[u8]) -> std::io::Result<String> {
    let name = checksum(bytes);
    let path = objects.join(&name);
    if std::fs::symlink_metadata(&path).is_ok() {
        return Ok(name);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(objects)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(objects) {
        let _ = d.sync_all();
    }
    Ok(name)
}
