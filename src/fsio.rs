//! File I/O shared by every command: reading a file with its checksum. (The mutation core adds
//! atomic replace, line-ending/BOM handling and root confinement here.)

use crate::error::{Code, Error};
use std::path::Path;

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
