//! How a mutation's path is spelled and resolved: the one home of path handling for writes.
//!
//! A path is resolved beneath an open handle of the workspace root, one component at a time,
//! never letting the kernel follow a symlink: each directory is opened `O_NOFOLLOW` relative to
//! the handle of its parent, and a symlink met on the way is read and spliced into the path, its
//! target judged against the root before anything is opened through it. The result holds the
//! handle of the target's directory; reads, temp files, renames and locks all happen relative to
//! it, so a concurrent rename or symlink swap can no longer move a write outside the root.
//! `..` is resolved physically (as the kernel would), so `link/../f` names the file a read of it
//! gets. How paths are shown stays [`display_path`] (re-exported from `walk`, shared with the
//! query commands).

use crate::error::{Code, Error};
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

pub use crate::walk::{display_path, normalize};

/// Symlinks followed in one resolution before it is called a loop (the kernel's limit).
const MAX_LINKS: usize = 40;

/// The workspace root, held open.
#[derive(Debug, Clone)]
pub struct Root {
    fd: Arc<OwnedFd>,
    /// Canonical path of the root (`/` when writes outside it are allowed).
    pub path: PathBuf,
    /// The root the caller named (canonical), for messages.
    pub named: PathBuf,
}

/// Refuses a path JSON cannot spell exactly: not valid UTF-8 (it would be shown lossily), or
/// holding U+FFFD, the replacement character such a lossy spelling contains — a `file_path`
/// read back from output that was lossy must never name another file.
fn unspellable(path: &Path, display: &str) -> Result<(), Error> {
    let why = match path.to_str() {
        None => "is not valid UTF-8 (shown lossily)",
        Some(s) if s.contains('\u{FFFD}') => {
            "holds U+FFFD, the mark of a name that is not valid UTF-8 shown lossily"
        }
        Some(_) => return Ok(()),
    };
    Err(Error::new(
        Code::PathNotText,
        format!("{display}: the path {why}; it is never a mutation target"),
        "rename the file to a UTF-8 name first (e.g. with `mv`), then edit it",
    )
    .with_file(display))
}

/// What a walk does with the directories on the way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dirs {
    /// A file target: every directory must exist.
    MustExist,
    /// A directory: list the missing ones.
    Probe,
    /// A directory: create the missing ones.
    Create,
}

/// A target resolved beneath the root: its directory (held open) and its final name.
#[derive(Debug, Clone)]
pub struct Target {
    /// The directory holding the target, opened while resolving.
    pub dir: Arc<OwnedFd>,
    /// The target's name in `dir`.
    pub name: OsString,
    /// The real path (root + resolved components): for checkers and messages only, never
    /// used to open anything.
    pub real: PathBuf,
}

fn errno(e: rustix::io::Errno) -> std::io::Error {
    std::io::Error::from_raw_os_error(e.raw_os_error())
}

fn open_dir(at: impl AsFd, name: &OsStr) -> rustix::io::Result<OwnedFd> {
    rustix::fs::openat(
        at,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

impl Root {
    /// Whether writes outside the named root are allowed (`--allow-outside-root`).
    pub fn allows_outside(&self) -> bool {
        self.path != self.named
    }

    /// Opens the workspace root (it must be an existing directory). With `allow_outside`, the
    /// filesystem root `/` is the confinement instead.
    pub fn open(root: &Path, allow_outside: bool) -> Result<Root, Error> {
        let named = std::fs::canonicalize(root).map_err(|e| {
            Error::new(
                Code::PathNotFound,
                format!("workspace root {}: {e}", root.display()),
                "pass an existing directory to --root",
            )
        })?;
        if !named.is_dir() {
            return Err(Error::new(
                Code::NotAFile,
                format!("workspace root {} is not a directory", root.display()),
                "pass a directory to --root (the top of the files you edit)",
            ));
        }
        let path = if allow_outside {
            PathBuf::from("/")
        } else {
            named.clone()
        };
        let fd = rustix::fs::open(
            &path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| {
            Error::new(
                Code::PathUnreadable,
                format!("workspace root {}: {}", path.display(), errno(e)),
                "check the root directory's permissions",
            )
        })?;
        Ok(Root {
            fd: Arc::new(fd),
            path,
            named,
        })
    }

    fn outside(&self, display: &str, what: &str) -> Error {
        Error::new(
            Code::OutsideRoot,
            format!(
                "{display} {what} outside the workspace root {}",
                self.named.display()
            ),
            "write only inside --root, pass a wider --root, or pass --allow-outside-root",
        )
        .with_file(display)
    }

    /// The components of `path` relative to the root, before any symlink is read.
    fn relative(&self, path: &Path, display: &str) -> Result<Vec<OsString>, Error> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            cwd.join(path)
        };
        let strip = |p: &Path| -> Option<Vec<OsString>> {
            p.strip_prefix(&self.path)
                .ok()
                .map(|r| r.iter().map(|c| c.to_os_string()).collect())
        };
        if let Some(rel) = strip(&abs) {
            return Ok(rel);
        }
        // The root is canonical; the path may go through a symlinked prefix (e.g. a temp dir
        // reached through a link). Spell its longest existing ancestor canonically.
        let mut ancestor = abs.as_path();
        let mut rest: Vec<&OsStr> = Vec::new();
        while let Some(parent) = ancestor.parent() {
            if let Some(name) = ancestor.file_name() {
                rest.push(name);
            } else {
                break;
            }
            if let Ok(canon) = std::fs::canonicalize(parent) {
                if let Some(mut rel) = strip(&canon) {
                    rel.extend(rest.iter().rev().map(|c| c.to_os_string()));
                    return Ok(rel);
                }
                break;
            }
            ancestor = parent;
        }
        Err(self.outside(display, "is"))
    }

    /// Resolves `path` beneath the root: every directory on the way must exist; the final
    /// component may be missing (a file to create). A final symlink is followed (a write goes
    /// to its target and the link stays); a dangling one is refused.
    pub fn resolve(&self, path: &Path, display: &str) -> Result<Target, Error> {
        self.walk(path, display, Dirs::MustExist)
            .map(|(t, _)| t.expect("a file target"))
    }

    /// The directories of `dir` (resolved beneath the root) that do not exist, shallowest
    /// first, as real paths; empty when it exists. Refuses a path leading outside the root.
    pub fn missing_dirs(&self, dir: &Path, display: &str) -> Result<Vec<PathBuf>, Error> {
        self.walk(dir, display, Dirs::Probe).map(|(_, m)| m)
    }

    /// Creates the missing directories of `dir` beneath the root (mode 0777 minus the umask),
    /// each relative to its parent's handle; returns the ones created, shallowest first.
    pub fn create_dirs(&self, dir: &Path, display: &str) -> Result<Vec<PathBuf>, Error> {
        self.walk(dir, display, Dirs::Create).map(|(_, m)| m)
    }

    /// Removes the directory `dir` (resolved beneath the root) if it is empty: the rollback of
    /// [`Root::create_dirs`]. Best effort; never follows a symlink out of the root.
    pub fn remove_empty_dir(&self, dir: &Path) {
        let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
            return;
        };
        if let Ok((Some(t), missing)) = self.walk(parent, "", Dirs::Probe) {
            if missing.is_empty() {
                let _ = rustix::fs::unlinkat(&*t.dir, name, AtFlags::REMOVEDIR);
            }
        }
    }

    /// The walk behind [`Root::resolve`] (a file target) and the directory probes.
    fn walk(
        &self,
        path: &Path,
        display: &str,
        dirs: Dirs,
    ) -> Result<(Option<Target>, Vec<PathBuf>), Error> {
        unspellable(path, display)?;
        let mut listed: Vec<PathBuf> = Vec::new();
        let mut pending: Vec<OsString> = self.relative(path, display)?;
        pending.reverse(); // a stack: next component last
        let mut stack: Vec<(Arc<OwnedFd>, OsString)> = Vec::new();
        let mut links = 0;
        let mut via_link = false;
        let top = |stack: &Vec<(Arc<OwnedFd>, OsString)>| {
            stack.last().map_or(self.fd.clone(), |(fd, _)| fd.clone())
        };
        let real = |stack: &Vec<(Arc<OwnedFd>, OsString)>| {
            let mut p = self.path.clone();
            p.extend(stack.iter().map(|(_, n)| n));
            p
        };
        let io = |e: std::io::Error, stack: &Vec<(Arc<OwnedFd>, OsString)>, name: &OsStr| {
            let at = real(stack).join(name);
            let (code, fix) = match e.kind() {
                std::io::ErrorKind::NotFound => (
                    Code::PathNotFound,
                    "check the path (relative to the current directory)",
                ),
                std::io::ErrorKind::PermissionDenied => {
                    (Code::PathUnreadable, "check the directories' permissions")
                }
                _ => (Code::PathUnreadable, "check the path"),
            };
            Error::new(code, format!("{display}: {}: {e}", display_path(&at)), fix)
                .with_file(display)
        };
        while let Some(name) = pending.pop() {
            if name == "." || name.is_empty() {
                continue;
            }
            if name == ".." {
                if stack.pop().is_none() && self.path != Path::new("/") {
                    return Err(self.outside(display, "is"));
                }
                continue;
            }
            let last = pending.is_empty() && dirs == Dirs::MustExist;
            let dir = top(&stack);
            let stat = match rustix::fs::statat(&*dir, &name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(s) => Some(s),
                Err(rustix::io::Errno::NOENT) if last => None,
                Err(rustix::io::Errno::NOENT) if dirs == Dirs::Probe => {
                    // This one and every later one is missing.
                    let mut at = real(&stack);
                    at.push(&name);
                    listed.push(at.clone());
                    while let Some(n) = pending.pop() {
                        at = normalize(&at.join(n));
                        listed.push(at.clone());
                    }
                    return Ok((None, listed));
                }
                Err(rustix::io::Errno::NOENT) if dirs == Dirs::Create => {
                    match rustix::fs::mkdirat(&*dir, &name, Mode::from_raw_mode(0o777)) {
                        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                        Err(e) => {
                            return Err(Error::new(
                                Code::WriteFailed,
                                format!(
                                    "could not create directory {}: {}",
                                    display_path(&real(&stack).join(&name)),
                                    errno(e)
                                ),
                                "check the permissions of the parent directory",
                            )
                            .with_file(display))
                        }
                    }
                    listed.push(real(&stack).join(&name));
                    pending.push(name);
                    continue;
                }
                Err(e) => return Err(io(errno(e), &stack, &name)),
            };
            let kind = stat.map(|s| FileType::from_raw_mode(s.st_mode));
            if kind == Some(FileType::Symlink) {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Error::new(
                        Code::PathUnreadable,
                        format!("{display}: too many levels of symbolic links"),
                        "fix the symlink loop",
                    )
                    .with_file(display));
                }
                let target = match rustix::fs::readlinkat(&*dir, &name, Vec::new()) {
                    Ok(t) => PathBuf::from(OsStr::from_bytes(t.as_bytes())),
                    // Swapped for a non-link meanwhile: look at the name again.
                    Err(rustix::io::Errno::INVAL) => {
                        pending.push(name);
                        continue;
                    }
                    Err(e) => return Err(io(errno(e), &stack, &name)),
                };
                via_link |= last;
                if target.is_absolute() {
                    let Ok(rel) = target.strip_prefix(&self.path) else {
                        return Err(self.outside(display, "resolves (through a symlink) to a path"));
                    };
                    stack.clear();
                    pending.extend(rel.components().rev().map(|c| c.as_os_str().to_os_string()));
                } else {
                    pending.extend(
                        target
                            .components()
                            .rev()
                            .filter(|c| !matches!(c, Component::RootDir))
                            .map(|c| c.as_os_str().to_os_string()),
                    );
                }
                continue;
            }
            if last {
                if kind.is_none() && via_link {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{display} is a dangling symlink"),
                        "point the link at an existing file, or write to the link's target path",
                    )
                    .with_file(display));
                }
                if kind == Some(FileType::Directory) {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{display} is a directory"),
                        "name a file, not a directory",
                    )
                    .with_file(display));
                }
                return Ok((
                    Some(Target {
                        real: real(&stack).join(&name),
                        dir,
                        name,
                    }),
                    listed,
                ));
            }
            match open_dir(&*dir, &name) {
                Ok(fd) => stack.push((Arc::new(fd), name)),
                // Became a symlink between the stat and the open: look again.
                Err(rustix::io::Errno::LOOP) => pending.push(name),
                Err(rustix::io::Errno::NOTDIR) => {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!(
                            "{display}: {} is not a directory",
                            display_path(&real(&stack).join(&name))
                        ),
                        "fix the path: a file stands where a directory is expected",
                    )
                    .with_file(display))
                }
                Err(e) => return Err(io(errno(e), &stack, &name)),
            }
        }
        if dirs != Dirs::MustExist {
            // The directory itself, every part of it existing (or created).
            return Ok((
                Some(Target {
                    real: real(&stack),
                    dir: top(&stack),
                    name: OsString::new(),
                }),
                listed,
            ));
        }
        Err(Error::new(
            Code::NotAFile,
            format!("{display} has no file name"),
            "name a file, not a directory",
        )
        .with_file(display))
    }
}

impl Target {
    /// Opens the target for reading without following a symlink and without blocking (a FIFO
    /// opens at once); `None` when it does not exist.
    pub fn open(&self) -> std::io::Result<Option<std::fs::File>> {
        match rustix::fs::openat(
            &*self.dir,
            &self.name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => Ok(Some(std::fs::File::from(fd))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(errno(e)),
        }
    }
}

/// Reads a mutation's target the way the mutation will: resolved beneath `root` (refused
/// outside it), opened without following a final symlink out of it or blocking on a FIFO,
/// refused unless a regular file, bounded by [`crate::fsio::MAX_TARGET_BYTES`]. Commands that
/// compute edits from a file read it with this, so they edit the bytes the write will check.
pub fn read_target(
    root: &Path,
    allow_outside: bool,
    path: &Path,
    display: &str,
) -> Result<Vec<u8>, Error> {
    let target = Root::open(root, allow_outside)?.resolve(path, display)?;
    let file = target
        .open()
        .map_err(|e| {
            Error::new(
                Code::PathUnreadable,
                format!("{display}: {e}"),
                "check the file's permissions",
            )
            .with_file(display)
        })?
        .ok_or_else(|| {
            Error::new(
                Code::PathNotFound,
                format!("{display}: No such file or directory (os error 2)"),
                "check the path; paths are relative to the current directory",
            )
            .with_file(display)
        })?;
    let st = rustix::fs::fstat(&file).map_err(|e| {
        Error::new(
            Code::PathUnreadable,
            format!("{display}: {}", errno(e)),
            "check the file's permissions",
        )
        .with_file(display)
    })?;
    crate::fsio::refuse_special(FileType::from_raw_mode(st.st_mode), display)?;
    crate::fsio::read_all(&file, display)
}
