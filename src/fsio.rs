//! File I/O shared by every command: reading with coded errors, and for mutations: confinement
//! to the workspace root, atomic replace (temp file in the same directory, same permissions,
//! fsync, rename, fsync of the directory), exclusive locks, and the hard-link policy.

use crate::error::{Code, Error};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Reads a whole file, mapping failures to a coded error about `display`.
pub fn read(path: &Path, display: &str) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| {
        let (code, fix) = match e.kind() {
            std::io::ErrorKind::NotFound => (
                Code::PathNotFound,
                "check the path; paths are relative to the current directory",
            ),
            std::io::ErrorKind::PermissionDenied => {
                (Code::PathUnreadable, "check the file's permissions")
            }
            _ => (
                Code::PathUnreadable,
                "check that the path is a readable file",
            ),
        };
        Error::new(code, format!("{display}: {e}"), fix).with_file(display)
    })
}

/// Where a mutation may write.
#[derive(Debug, Clone)]
pub struct Confinement {
    /// Canonical workspace root.
    pub root: PathBuf,
    /// `--allow-outside-root`: skip the checks below.
    pub allow_outside: bool,
}

impl Confinement {
    /// Confinement to `root` (made absolute and canonical; it must exist).
    pub fn new(root: &Path, allow_outside: bool) -> Result<Self, Error> {
        let root = std::fs::canonicalize(root).map_err(|e| {
            Error::new(
                Code::PathNotFound,
                format!("workspace root {}: {e}", root.display()),
                "pass an existing directory to --root",
            )
        })?;
        Ok(Confinement {
            root,
            allow_outside,
        })
    }

    /// The real file a write to `path` lands on: symlinks resolved (a write goes through a link
    /// to its target and the link stays a link). For a file that does not exist yet, its
    /// parent directory is resolved instead. Refuses paths outside the root, lexically (`..`)
    /// or through a symlink, unless outside writes are allowed.
    pub fn resolve(&self, path: &Path, display: &str) -> Result<PathBuf, Error> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let lexical = crate::walk::normalize(&cwd.join(path));
        let outside = |what: &str| {
            Error::new(
                Code::OutsideRoot,
                format!(
                    "{display} {what} outside the workspace root {}",
                    self.root.display()
                ),
                "write only inside --root, pass a wider --root, or pass --allow-outside-root",
            )
            .with_file(display)
        };
        if !self.allow_outside && !lexical.starts_with(&self.root) {
            // The root is canonical; the lexical path may go through a symlinked prefix.
            let canon_parent = lexical.parent().and_then(|p| std::fs::canonicalize(p).ok());
            if !canon_parent.is_some_and(|p| p.starts_with(&self.root)) {
                return Err(outside("is"));
            }
        }
        let real = match std::fs::canonicalize(&lexical) {
            Ok(p) => p,
            Err(_) => {
                // Does not exist (or is a dangling link): resolve the parent.
                if std::fs::symlink_metadata(&lexical).is_ok() {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{display} is a dangling symlink"),
                        "point the link at an existing file, or write to the link's target path",
                    )
                    .with_file(display));
                }
                let parent = lexical.parent().unwrap_or(Path::new("/"));
                let name = lexical.file_name().ok_or_else(|| {
                    Error::new(
                        Code::NotAFile,
                        format!("{display} has no file name"),
                        "name a file, not a directory",
                    )
                })?;
                match std::fs::canonicalize(parent) {
                    Ok(p) => p.join(name),
                    Err(_) => lexical.clone(),
                }
            }
        };
        if !self.allow_outside && !real.starts_with(&self.root) {
            return Err(outside("resolves (through a symlink) to a path"));
        }
        Ok(real)
    }
}

/// Metadata of an existing target that a replace must keep.
#[derive(Debug, Clone)]
pub struct Keep {
    pub permissions: std::fs::Permissions,
    /// Owner and group (Unix): restored on the replacement when they differ from the writer's.
    pub owner: Option<(u32, u32)>,
}

/// Checks that `real` can be replaced atomically: a regular file with one link.
///
/// Policy for hard links: refused. An atomic rename would give this name a new inode and leave
/// the other names with the old content — a silent split; writing in place instead could leave
/// a torn file if the process is killed. The remediation says how to proceed.
pub fn check_replaceable(real: &Path, display: &str) -> Result<Keep, Error> {
    let meta = std::fs::metadata(real).map_err(|e| {
        Error::new(
            Code::PathUnreadable,
            format!("{display}: {e}"),
            "check the path and its permissions",
        )
        .with_file(display)
    })?;
    if !meta.is_file() {
        return Err(Error::new(
            Code::NotAFile,
            format!("{display} is not a regular file"),
            "name a regular file (directories, devices and sockets are never written)",
        )
        .with_file(display));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(Error::new(
                Code::HardLinked,
                format!("{display} has {} hard links; replacing it would split them", meta.nlink()),
                "make it a single-link file first (`cp FILE FILE.tmp && mv FILE.tmp FILE`), then retry",
            )
            .with_file(display));
        }
    }
    #[cfg(unix)]
    let owner = {
        use std::os::unix::fs::MetadataExt;
        Some((meta.uid(), meta.gid()))
    };
    #[cfg(not(unix))]
    let owner = None;
    Ok(Keep {
        permissions: meta.permissions(),
        owner,
    })
}

/// An exclusive advisory lock held on an open file until dropped.
pub struct Lock {
    file: File,
}

impl Lock {
    /// Locks `real` exclusively (blocking until other `llm` writers release it).
    pub fn acquire(real: &Path, display: &str) -> Result<Lock, Error> {
        let file = OpenOptions::new().read(true).open(real).map_err(|e| {
            Error::new(
                Code::PathUnreadable,
                format!("{display}: {e}"),
                "check the file's permissions",
            )
            .with_file(display)
        })?;
        file.lock().map_err(|e| {
            Error::new(
                Code::WriteFailed,
                format!("could not lock {display}: {e}"),
                "retry; another process may hold the file",
            )
            .with_file(display)
        })?;
        Ok(Lock { file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Writes `contents` to a new temp file beside `real` (same permissions), fsynced; returns it
/// ready to be renamed over `real`.
pub fn stage(
    real: &Path,
    contents: &[u8],
    keep: Option<&Keep>,
    display: &str,
) -> Result<tempfile::NamedTempFile, Error> {
    let dir = real.parent().unwrap_or(Path::new("."));
    let fail = |e: std::io::Error| {
        Error::new(
            Code::WriteFailed,
            format!("could not write a temp file beside {display}: {e}"),
            "check that the directory is writable and the disk has room; nothing was changed",
        )
        .with_file(display)
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".llm-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(contents).map_err(fail)?;
    if let Some(keep) = keep {
        keep_owner(tmp.as_file(), keep).map_err(|e| {
            Error::new(
                Code::WriteFailed,
                format!("could not give the new {display} its owner and group {:?}: {e}; nothing was changed", keep.owner),
                "run as the file's owner (or root), or make the file yours first (`cp FILE FILE.tmp && mv FILE.tmp FILE`)",
            )
            .with_file(display)
        })?;
        // After chown, which may clear set-id bits.
        std::fs::set_permissions(tmp.path(), keep.permissions.clone()).map_err(fail)?;
    } else {
        set_default_permissions(tmp.path()).map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    Ok(tmp)
}

/// Gives the replacement the target's owner and group when they differ from the writer's
/// (e.g. root editing a user's file). Only the group may change for an ordinary user; a
/// change that is not permitted is an error, so the file is never silently re-owned.
fn keep_owner(file: &File, keep: &Keep) -> std::io::Result<()> {
    #[cfg(unix)]
    if let Some((uid, gid)) = keep.owner {
        use std::os::unix::fs::MetadataExt;
        let now = file.metadata()?;
        if (now.uid(), now.gid()) != (uid, gid) {
            let new_uid = (now.uid() != uid).then_some(uid);
            let new_gid = (now.gid() != gid).then_some(gid);
            std::os::unix::fs::fchown(file, new_uid, new_gid)?;
        }
    }
    let _ = (file, keep);
    Ok(())
}

/// New files get 0666 minus the umask, like any editor would create them (tempfile uses 0600).
fn set_default_permissions(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mask = current_umask();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666 & !mask))?;
    }
    Ok(())
}

#[cfg(unix)]
fn current_umask() -> u32 {
    // Read /proc/self/status (Linux) for the umask; fall back to the usual 022.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// Renames a staged temp file over `real` (or creates `real` when `create` — failing if
/// something appeared there meanwhile), then fsyncs the directory.
pub fn install(
    tmp: tempfile::NamedTempFile,
    real: &Path,
    create: bool,
    display: &str,
) -> Result<(), Error> {
    let fail = |e: std::io::Error| {
        Error::new(
            Code::WriteFailed,
            format!("could not replace {display}: {e}"),
            "check the directory's permissions and free space",
        )
        .with_file(display)
    };
    if create {
        tmp.persist_noclobber(real).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                Error::new(
                    Code::ConcurrentModification,
                    format!("{display} was created by someone else meanwhile"),
                    "read the new file and decide again; nothing was written",
                )
                .rejected()
                .with_file(display)
            } else {
                fail(e.error)
            }
        })?;
    } else {
        tmp.persist(real).map_err(|e| fail(e.error))?;
    }
    sync_dir(real);
    Ok(())
}

/// fsyncs the directory holding `path` so the rename is durable (best effort).
pub fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }) {
            let _ = d.sync_all();
        }
    }
}

/// Removes a file this run created (rollback of a create).
pub fn remove_created(real: &Path) {
    let _ = std::fs::remove_file(real);
    sync_dir(real);
}
