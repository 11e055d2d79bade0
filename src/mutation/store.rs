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

/// Keeps `bytes` as `.llm/objects/<sha256>` under `top` (durably: written to a temp name,
/// fsynced, renamed); returns the blob's path. A blob already there is not written again.
pub fn keep(top: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let base = top.join(".llm");
    let objects = base.join("objects");
    // Never through a symlink planted in the workspace.
    for d in [&base, &objects] {
        real_dir_or_absent(d)?;
    }
    std::fs::create_dir_all(&objects)?;
    let ignore = base.join(".gitignore");
    if std::fs::symlink_metadata(&ignore).is_err() {
        std::fs::write(&ignore, "*\n")?;
    }
    let path = objects.join(checksum(bytes));
    if path.exists() {
        return Ok(path);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(&objects)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    if let Ok(d) = std::fs::File::open(&objects) {
        let _ = d.sync_all();
    }
    Ok(path)
}
