//! The writing half of the mutation core: [`Prepared::commit`] (locks, compare-and-swap,
//! staged temp files renamed in, all or nothing), [`Committed`] (keep or roll back), and the
//! fault injection the tests use to break a commit part-way.

use super::{keep_for, mode_bits, store, MutationResult, Prepared, PreparedFile};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::fsio::{self, Lock};
use crate::paths::Target;
use crate::span::checksum;
use crate::walk::display_path;
use std::fs::File;
use std::path::Path;

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
