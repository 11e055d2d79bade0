//! Recovery of runs a crash interrupted (a `*.pending.json` record left behind). The rule:
//! when every file of the run already has its after-checksum (deleted files are gone), the run
//! is completed — the record is marked done, `recovered: "completed"`; otherwise every file
//! that has its after-checksum is put back to its pre-image (created files removed, deleted
//! files restored) and the record is marked `rolled_back`, `recovered: "rolled_back"`. A file
//! holding neither state (another program wrote it since) is left as it is. Either way the
//! run's temp files (named from its execution id) are removed.

use super::{read_record, sync, temp_name, Journal, Record};
use crate::error::Error;
use crate::fsio;
use crate::paths::Root;
use std::path::Path;

/// Resolves every pending record of the (locked) journal. Returns the records resolved.
pub fn run(journal: &Journal, allow_outside_root: bool) -> Result<Vec<Record>, Error> {
    // Every writer holds the lock: a temp file of the journal's own is a torn write.
    for dir in [journal.dir.clone(), journal.objects.clone()] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().starts_with(".tmp-") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
    let mut out = Vec::new();
    let entries = journal.entries();
    for (_, path, pending) in &entries {
        if !pending {
            continue;
        }
        let Some(mut record) = read_record(path) else {
            // A record torn before its rename never existed; its temp file is in .tmp-*.
            let _ = std::fs::remove_file(path);
            continue;
        };
        if journal.final_path(&record).exists() {
            let _ = std::fs::remove_file(path);
            continue;
        }
        record.check_reach(&journal.top, allow_outside_root)?;
        resolve(journal, &mut record, allow_outside_root)?;
        journal.put(&journal.final_path(&record), &record)?;
        let _ = std::fs::remove_file(path);
        sync(&journal.dir);
        out.push(record);
    }
    Ok(out)
}

/// Resolves the journal of `top`, if there is one, and releases it (the first step of every
/// mutating command).
pub fn at(top: &Path, allow_outside_root: bool) -> Result<(), Error> {
    if !super::enabled() || !top.join(".llm/journal").is_dir() {
        return Ok(());
    }
    if let Some(j) = Journal::open(top, false)? {
        // Cheap when nothing is pending: one directory listing.
        if j.entries().iter().any(|e| e.2) {
            run(&j, allow_outside_root)?;
        }
    }
    Ok(())
}

/// What a file holds now.
#[derive(PartialEq)]
enum State {
    After,
    Before,
    Other,
}

fn resolve(journal: &Journal, record: &mut Record, allow_outside_root: bool) -> Result<(), Error> {
    // Outside the workspace only when both the run and this one were allowed to (paths are
    // resolved under the root: a symlink cannot lead out either).
    let outside = record.allow_outside_root && allow_outside_root;
    let root = Root::open(
        if outside {
            Path::new("/")
        } else {
            &journal.top
        },
        outside,
    )?;
    let mut states = Vec::with_capacity(record.files.len());
    for f in &record.files {
        let now = current(&root, Path::new(&f.path), &f.file_path);
        let sum = now.as_deref().map(crate::span::checksum);
        states.push(if sum == f.after_checksum {
            State::After
        } else if sum == f.before_checksum {
            State::Before
        } else {
            State::Other
        });
    }
    if !record.validating && states.iter().all(|s| *s == State::After) {
        record.status = "done".into();
        record.recovered = Some("completed".into());
    } else {
        for (f, s) in record.files.iter().zip(&states) {
            if *s != State::After {
                continue;
            }
            let Ok(target) = root.resolve(Path::new(&f.path), &f.file_path) else {
                continue;
            };
            match &f.before_checksum {
                None => fsio::remove_created(&target),
                Some(sum) => {
                    let bytes = journal.object_bytes(sum, &f.file_path)?;
                    let keep = target
                        .open()
                        .ok()
                        .flatten()
                        .and_then(|h| fsio::check_replaceable(&h, &f.file_path, true).ok());
                    // The old permission bits (the owner stays as the file has it).
                    let keep = match f.before_mode {
                        Some(m) => Some(fsio::Keep {
                            permissions: std::os::unix::fs::PermissionsExt::from_mode(m),
                            owner: keep.and_then(|k| k.owner),
                        }),
                        None => keep,
                    };
                    let name = temp_name(&record.execution_id, 0, true);
                    let staged = fsio::stage_named(
                        &target,
                        &bytes,
                        keep.as_ref(),
                        &f.file_path,
                        Some(&name),
                    )?;
                    fsio::install(staged, &target, f.after_checksum.is_none(), &f.file_path)?;
                }
            }
        }
        record.status = "rolled_back".into();
        record.recovered = Some("rolled_back".into());
    }
    // The run's temp files.
    for (i, f) in record.files.iter().enumerate() {
        let Some(dir) = Path::new(&f.path).parent() else {
            continue;
        };
        for restore in [false, true] {
            for index in [i, 0] {
                let p = dir.join(temp_name(&record.execution_id, index, restore));
                if let Ok(t) = root.resolve(&p, &f.file_path) {
                    let _ = rustix::fs::unlinkat(&*t.dir, &t.name, rustix::fs::AtFlags::empty());
                }
            }
        }
    }
    // Rolled back: the directories the run created go too, where they are empty.
    if record.status == "rolled_back" {
        for d in &record.created_dirs {
            root.remove_empty_dir(Path::new(d));
        }
    }
    Ok(())
}

/// The bytes of `path` now (`None`: it does not exist).
fn current(root: &Root, path: &Path, display: &str) -> Option<Vec<u8>> {
    let t = root.resolve(path, display).ok()?;
    let f = t.open().ok()??;
    fsio::read_all(&f, display).ok()
}
