//! File I/O shared by every command: reading with coded errors, and for mutations (on targets
//! resolved by [`crate::paths`], through their directory handles): atomic replace (temp file in
//! the same directory, same permissions, fsync, rename, fsync of the directory), exclusive
//! locks, and the policies for hard links, read-only files and special files.

use crate::error::{Code, Error};
use crate::paths::Target;
use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags, RenameFlags};
use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::Arc;

/// Reads a whole file named by a query or a command (a source file, never a mutation's input
/// text), mapping failures to a coded error about `display`. Opened without blocking and
/// refused unless a regular file (a FIFO would hang, a device never end); bounded by
/// [`MAX_TARGET_BYTES`].
pub fn read(path: &Path, display: &str) -> Result<Vec<u8>, Error> {
    let file = open_nonblocking(path, display)?;
    refuse_special(file_type(&file, display)?, display)?;
    read_all(&file, display)
}

/// Largest input text read from a file, a pipe or a device (`--content-file`, `--old-file`,
/// `--with`, …): a device like /dev/zero ends in an error here, not in exhausted memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Reads an input file (`--content-file`, `--with`…): a regular file, or a pipe or device such
/// as a shell's `<(…)` or /dev/stdin, bounded by [`MAX_INPUT_BYTES`].
pub fn read_input(path: &Path, display: &str) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let unreadable = |e: std::io::Error| {
        Error::new(
            Code::PathUnreadable,
            format!("{display}: {e}"),
            "check that the path is readable",
        )
        .with_file(display)
    };
    // A named pipe is read like `cat` reads it: the open waits for its writer (an input the
    // caller chose), then it is read to its end.
    let file = if std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
        File::open(path).map_err(unreadable)?
    } else {
        let file = open_nonblocking(path, display)?;
        let kind = file_type(&file, display)?;
        if matches!(
            kind,
            FileType::Directory | FileType::Socket | FileType::BlockDevice
        ) {
            refuse_special(kind, display)?;
        }
        if kind != FileType::RegularFile {
            let flags = rustix::fs::fcntl_getfl(&file).unwrap_or(OFlags::empty());
            let _ = rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK);
        }
        file
    };
    let mut buf = Vec::new();
    (&file)
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| {
            Error::new(
                Code::PathUnreadable,
                format!("{display}: {e}"),
                "check that the path is readable",
            )
            .with_file(display)
        })?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::new(
            Code::TargetTooLarge,
            format!("{display} gives more than {MAX_INPUT_BYTES} bytes"),
            "pass a regular file of reasonable size",
        )
        .with_file(display));
    }
    Ok(buf)
}

/// Opens `path` for reading (following symlinks, as a query does) without blocking on a FIFO.
fn open_nonblocking(path: &Path, display: &str) -> Result<File, Error> {
    rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map(File::from)
    .map_err(|e| {
        let e = std::io::Error::from(e);
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

/// A file of llm's own store (`.llm/`: journal records, pre-images, config) that is a regular
/// file, not a link, and at most `max` bytes: `None` otherwise. Another program can put a
/// FIFO, a link to /dev/zero or a huge file there; none of them hangs a run or fills memory.
pub fn read_store_file(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map(File::from)
    .ok()?;
    let st = rustix::fs::fstat(&file).ok()?;
    if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile || st.st_size as u64 > max {
        return None;
    }
    let mut out = Vec::with_capacity(st.st_size as usize);
    (&file).take(max + 1).read_to_end(&mut out).ok()?;
    (out.len() as u64 <= max).then_some(out)
}

/// The first `max` bytes of a regular file, opened without blocking (for sniffing a file's
/// language: a `#!` line, a header's C++): `None` for a FIFO, a device, a directory or a path
/// that cannot be read — never a hang, never an unbounded read.
pub fn head(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = open_nonblocking(path, "").ok()?;
    if file_type(&file, "").ok()? != FileType::RegularFile {
        return None;
    }
    let mut out = Vec::new();
    file.take(max).read_to_end(&mut out).ok()?;
    Some(out)
}

fn file_type(file: &File, display: &str) -> Result<FileType, Error> {
    rustix::fs::fstat(file)
        .map(|st| FileType::from_raw_mode(st.st_mode))
        .map_err(|e| {
            Error::new(
                Code::PathUnreadable,
                format!("{display}: {}", std::io::Error::from(e)),
                "check the file's permissions",
            )
            .with_file(display)
        })
}

/// Metadata of an existing target that a replace must keep.
#[derive(Debug, Clone)]
pub struct Keep {
    pub permissions: std::fs::Permissions,
    /// Owner and group (Unix): restored on the replacement when they differ from the writer's.
    pub owner: Option<(u32, u32)>,
}

/// Checks that the open target `file` can be replaced atomically: a regular file with one
/// link, writable unless `force`.
///
/// Policy for hard links: refused. An atomic rename would give this name a new inode and leave
/// the other names with the old content — a silent split; writing in place instead could leave
/// a torn file if the process is killed. The remediation says how to proceed.
pub fn check_replaceable(file: &File, display: &str, force: bool) -> Result<Keep, Error> {
    use std::os::unix::fs::PermissionsExt;
    let st = rustix::fs::fstat(file).map_err(|e| {
        Error::new(
            Code::PathUnreadable,
            format!("{display}: {}", std::io::Error::from(e)),
            "check the path and its permissions",
        )
        .with_file(display)
    })?;
    refuse_special(FileType::from_raw_mode(st.st_mode), display)?;
    if st.st_nlink > 1 {
        return Err(Error::new(
            Code::HardLinked,
            format!(
                "{display} has {} hard links; replacing it would split them",
                st.st_nlink
            ),
            "make it a single-link file first (`cp FILE FILE.tmp && mv FILE.tmp FILE`), then retry",
        )
        .with_file(display));
    }
    let mode = st.st_mode & 0o7777;
    if mode & 0o222 == 0 && !force {
        return Err(Error::new(
            Code::ReadOnlyTarget,
            format!("{display} is read-only (mode {mode:04o}); nothing was written"),
            "pass --force to replace it anyway (the mode is kept), or make it writable first (`chmod u+w`)",
        )
        .with_file(display)
        .rejected());
    }
    Ok(Keep {
        permissions: std::fs::Permissions::from_mode(mode),
        owner: Some((st.st_uid, st.st_gid)),
    })
}

/// Refuses anything but a regular file: directories, FIFOs, devices and sockets are never
/// read or written as a target (a FIFO would block, a device never end).
pub fn refuse_special(kind: FileType, display: &str) -> Result<(), Error> {
    let what = match kind {
        FileType::RegularFile => return Ok(()),
        FileType::Directory => "a directory",
        FileType::Fifo => "a FIFO (named pipe)",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        FileType::Symlink => "a symlink",
        FileType::Unknown => "not a regular file",
    };
    Err(Error::new(
        Code::NotAFile,
        format!("{display} is {what}, not a regular file"),
        "name a regular file (directories, FIFOs, devices and sockets are never read or written as targets)",
    )
    .with_file(display))
}

/// Largest file a mutation reads (or a command reads as a named input): far above any source
/// file, far below what would exhaust memory.
pub const MAX_TARGET_BYTES: u64 = 1 << 30;

/// Reads an open file from its start, at most [`MAX_TARGET_BYTES`] (a larger file is an
/// error, never a partial read).
pub fn read_all(file: &File, display: &str) -> Result<Vec<u8>, Error> {
    use std::io::{Read, Seek};
    let mut f = file;
    let fail = |e: std::io::Error| {
        Error::new(
            Code::PathUnreadable,
            format!("{display}: {e}"),
            "check that the path is a readable file",
        )
        .with_file(display)
    };
    let too_large = || {
        Error::new(
            Code::TargetTooLarge,
            format!("{display} is larger than {MAX_TARGET_BYTES} bytes"),
            "edit it with another tool; llm reads whole files into memory",
        )
        .with_file(display)
    };
    f.seek(std::io::SeekFrom::Start(0)).map_err(fail)?;
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0);
    // Refused before reading when its size says so (a 2 GiB file took 2 GiB of memory to be
    // refused); the bounded read still catches one that grows.
    if hint > MAX_TARGET_BYTES {
        return Err(too_large());
    }
    let mut buf = Vec::with_capacity(hint as usize);
    f.take(MAX_TARGET_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(fail)?;
    if buf.len() as u64 > MAX_TARGET_BYTES {
        return Err(too_large());
    }
    Ok(buf)
}

/// An exclusive advisory lock held on an open directory until dropped.
pub struct Lock {
    dir: Arc<OwnedFd>,
}

impl Lock {
    /// Locks the directory `dir` exclusively (blocking until other `llm` writers release it).
    pub fn acquire(dir: &Arc<OwnedFd>, display: &str) -> Result<Lock, Error> {
        rustix::fs::flock(&**dir, FlockOperation::LockExclusive).map_err(|e| {
            Error::new(
                Code::WriteFailed,
                format!("could not lock {display}: {}", std::io::Error::from(e)),
                "retry; another process may hold the directory",
            )
            .with_file(display)
        })?;
        Ok(Lock { dir: dir.clone() })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = rustix::fs::flock(&*self.dir, FlockOperation::Unlock);
    }
}

/// A temp file written beside its target (in the target's directory handle), removed on drop
/// unless installed.
pub struct Staged {
    dir: Arc<OwnedFd>,
    name: Option<OsString>,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(name) = self.name.take() {
            let _ = rustix::fs::unlinkat(&*self.dir, &name, AtFlags::empty());
        }
    }
}

/// Writes `contents` to a new temp file in `target`'s directory (same permissions and owner
/// as the file it replaces), fsynced; returns it ready to be renamed over the target.
pub fn stage(
    target: &Target,
    contents: &[u8],
    keep: Option<&Keep>,
    display: &str,
) -> Result<Staged, Error> {
    stage_named(target, contents, keep, display, None)
}

/// [`stage`] under a given temp name (the journal derives it from the execution id, so that
/// recovery after a crash finds and removes it); `None` = a random `.llm-<uuid>.tmp`.
pub fn stage_named(
    target: &Target,
    contents: &[u8],
    keep: Option<&Keep>,
    display: &str,
    fixed: Option<&std::ffi::OsStr>,
) -> Result<Staged, Error> {
    use std::os::unix::fs::PermissionsExt;
    let fail = |e: std::io::Error| {
        Error::new(
            Code::WriteFailed,
            format!("could not write a temp file beside {display}: {e}"),
            "check that the directory is writable and the disk has room; nothing was changed",
        )
        .with_file(display)
    };
    let mut tries = 0;
    let (fd, name) = loop {
        let name = match fixed {
            // A leftover of the same name (a crashed run) is replaced.
            Some(n) => {
                let _ = rustix::fs::unlinkat(&*target.dir, n, AtFlags::empty());
                n.to_os_string()
            }
            None => OsString::from(format!(".llm-{}.tmp", uuid::Uuid::new_v4().simple())),
        };
        match rustix::fs::openat(
            &*target.dir,
            &name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        ) {
            Ok(fd) => break (fd, name),
            Err(rustix::io::Errno::EXIST) if tries < 8 => tries += 1,
            Err(e) => return Err(fail(e.into())),
        }
    };
    let staged = Staged {
        dir: target.dir.clone(),
        name: Some(name),
    };
    let mut file = File::from(fd);
    file.write_all(contents).map_err(fail)?;
    if let Some(keep) = keep {
        keep_owner(&file, keep).map_err(|e| {
            Error::new(
                Code::WriteFailed,
                format!("could not give the new {display} its owner and group {:?}: {e}; nothing was changed", keep.owner),
                "run as the file's owner (or root), or make the file yours first (`cp FILE FILE.tmp && mv FILE.tmp FILE`)",
            )
            .with_file(display)
        })?;
        // After chown, which may clear set-id bits.
        file.set_permissions(keep.permissions.clone())
            .map_err(fail)?;
    } else {
        let mode = 0o666 & !current_umask();
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(fail)?;
    }
    file.sync_all().map_err(fail)?;
    Ok(staged)
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

#[cfg(unix)]
pub fn current_umask() -> u32 {
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

/// Renames a staged temp file over the target (or creates the target when `create` — failing
/// if something appeared there meanwhile), then fsyncs the directory.
pub fn install(tmp: Staged, target: &Target, create: bool, display: &str) -> Result<(), Error> {
    install_over(tmp, target, create, None, display)
}

/// [`install`] over the file `expected` (its device and inode): the temp file and the target
/// trade places in one step (`RENAME_EXCHANGE`), and if what came out is not that file — a
/// program saved its own over the name (write a copy, rename it over) since it was checked —
/// they trade back and nothing is replaced (`LLM_E102`): a plain rename would have thrown that
/// program's file away unseen. Without `RENAME_EXCHANGE` (some file systems), a plain rename.
pub fn install_over(
    mut tmp: Staged,
    target: &Target,
    create: bool,
    expected: Option<(u64, u64)>,
    display: &str,
) -> Result<(), Error> {
    let name = tmp.name.clone().expect("a staged file not yet installed");
    if let (Some(want), false) = (expected, create) {
        let exchange = |a: &std::ffi::OsStr, b: &std::ffi::OsStr| {
            rustix::fs::renameat_with(&*target.dir, a, &*target.dir, b, RenameFlags::EXCHANGE)
        };
        // A file system without RENAME_EXCHANGE (EINVAL; overlay and network file systems can
        // refuse it otherwise) gets the plain rename below, which reports its own failure.
        if exchange(&name, &target.name).is_ok() {
            let out = rustix::fs::statat(&*target.dir, &name, AtFlags::SYMLINK_NOFOLLOW);
            if out.is_ok_and(|s| (s.st_dev, s.st_ino) == want) {
                // The old file now has the temp name: gone with it.
                let _ = rustix::fs::unlinkat(&*target.dir, &name, AtFlags::empty());
                tmp.name = None;
                drop(tmp);
                sync_dir(&target.dir);
                return Ok(());
            }
            // Another program's file: back under its name; ours is removed on drop.
            let _ = exchange(&name, &target.name);
            return Err(Error::new(
                Code::ConcurrentModification,
                format!(
                    "{display} was replaced by another program while it was being written; nothing was written over it"
                ),
                "re-read the file and redo the edit on its current content",
            )
            .rejected()
            .with_file(display));
        }
    }
    install_renamed(tmp, target, create, display)
}

fn install_renamed(
    mut tmp: Staged,
    target: &Target,
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
    let name = tmp.name.clone().expect("a staged file not yet installed");
    let renamed = if create {
        match rustix::fs::renameat_with(
            &*target.dir,
            &name,
            &*target.dir,
            &target.name,
            RenameFlags::NOREPLACE,
        ) {
            // Filesystems without RENAME_NOREPLACE: link (fails if the name exists), unlink.
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => rustix::fs::linkat(
                &*target.dir,
                &name,
                &*target.dir,
                &target.name,
                AtFlags::empty(),
            ),
            other => other,
        }
    } else {
        rustix::fs::renameat(&*target.dir, &name, &*target.dir, &target.name)
    };
    match renamed {
        Ok(()) => {}
        Err(rustix::io::Errno::EXIST) if create => {
            return Err(Error::new(
                Code::ConcurrentModification,
                format!("{display} was created by someone else meanwhile"),
                "read the new file and decide again; nothing was written",
            )
            .rejected()
            .with_file(display))
        }
        Err(e) => return Err(fail(e.into())),
    }
    // Renamed away (or linked, whose temp name the drop removes).
    if !create || rustix::fs::statat(&*target.dir, &name, AtFlags::SYMLINK_NOFOLLOW).is_err() {
        tmp.name = None;
    }
    drop(tmp);
    sync_dir(&target.dir);
    Ok(())
}

/// fsyncs a directory so a rename in it is durable (best effort).
pub fn sync_dir(dir: &OwnedFd) {
    let _ = rustix::fs::fsync(dir);
}

/// Removes a file this run created (rollback of a create).
pub fn remove_created(target: &Target) {
    let _ = rustix::fs::unlinkat(&*target.dir, &target.name, AtFlags::empty());
    sync_dir(&target.dir);
}

/// Waits, at most `bound`, until no program has the file of `handle` (opened read-only) open
/// for writing: a file replaced by rename may still get writes through a handle another
/// program opened before the rename (an appender between its open and its write). Linux tells
/// through a read lease, which is refused while the file is open for writing anywhere (its
/// owner's files, on file systems that give leases). Whether none has it open now; `true` where
/// that cannot be known.
pub fn writers_gone(handle: &File, bound: std::time::Duration) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let fd = handle.as_raw_fd();
        // A lease broken while held signals its holder: with a signal ignored by default.
        // (`F_SETSIG`, which the libc crate leaves out on Linux.)
        const F_SETSIG: libc::c_int = 10;
        // SAFETY: fcntl on a descriptor this function borrows, with integer arguments.
        unsafe { libc::fcntl(fd, F_SETSIG, libc::SIGURG) };
        let start = std::time::Instant::now();
        let mut pause = std::time::Duration::from_micros(100);
        loop {
            // SAFETY: as above.
            if unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) } == 0 {
                // SAFETY: as above.
                unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK) };
                return true;
            }
            let busy = std::io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN);
            if !busy {
                return true;
            }
            if start.elapsed() >= bound {
                return false;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(10));
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (handle, bound);
        true
    }
}
