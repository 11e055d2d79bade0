//! How paths are spelled in output: relative to the current directory inside it (no leading
//! `./`), absolute outside, lexically normalized — the `file_path` of every span.

use std::path::{Component, Path, PathBuf};

/// The one spelling of a path in output: relative to the current directory when inside it (no
/// leading `./`, `/` separators), absolute otherwise. Purely lexical: symlinks are not resolved.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    display_path_from(&cwd, path)
}

/// [`display_path`] relative to an explicit base directory.
pub fn display_path_from(cwd: &Path, path: &Path) -> String {
    if let Some(shown) = plain_relative(path) {
        return shown.to_string();
    }
    normalized_display(cwd, path)
}

/// A relative path whose components are all plain names, after at most one leading `./` (every
/// file walked under `.`), spelled as it is minus the `./`: what [`normalized_display`] gives
/// for it, without building three `PathBuf`s per file.
fn plain_relative(path: &Path) -> Option<&str> {
    if std::path::MAIN_SEPARATOR != '/' {
        return None;
    }
    let s = path.to_str()?;
    let s = s.strip_prefix("./").unwrap_or(s);
    let plain = !s.is_empty()
        && !s.starts_with('/')
        && s.split('/').all(|c| !c.is_empty() && c != "." && c != "..");
    plain.then_some(s)
}

/// [`display_path`]'s spelling of `path` as its own bytes: a name that is not UTF-8 as it is,
/// not with U+FFFD (what `-0` prints, for `xargs -0`).
#[cfg(unix)]
pub fn display_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    let cwd = std::env::current_dir().unwrap_or_default();
    shown_path(&cwd, path).as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
pub fn display_bytes(path: &Path) -> Vec<u8> {
    display_path(path).into_bytes()
}

/// What [`normalized_display`] spells: relative to `cwd` inside it, else absolute.
fn shown_path(cwd: &Path, path: &Path) -> PathBuf {
    let abs = normalize(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    });
    match abs.strip_prefix(normalize(cwd)) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => abs,
    }
}

/// [`display_path_from`] by lexical normalisation of the joined path.
pub(super) fn normalized_display(cwd: &Path, path: &Path) -> String {
    let shown = shown_path(cwd, path);
    let s = shown.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        s.into_owned()
    } else {
        s.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// `path` made absolute against the current directory, then [`normalize`]d (for a path whose
/// directories may not exist yet).
pub fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&std::env::current_dir().unwrap_or_default().join(path))
    }
}

/// Lexical normalisation: drops `.` components and folds `..` into its parent.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths() {
        let cwd = Path::new("/w/proj");
        assert_eq!(
            display_path_from(cwd, Path::new("./src/lib.rs")),
            "src/lib.rs"
        );
        assert_eq!(display_path_from(cwd, Path::new("/w/proj/a.rs")), "a.rs");
        assert_eq!(
            display_path_from(cwd, Path::new("../other/b.rs")),
            "/w/other/b.rs"
        );
        assert_eq!(display_path_from(cwd, Path::new("src/../x.py")), "x.py");
        assert_eq!(display_path_from(cwd, Path::new(".")), ".");
    }

    #[test]
    fn plain_relative_paths_are_spelled_as_normalisation_spells_them() {
        for cwd in ["/w/proj", "/", "/w/./x/../proj"] {
            for p in [
                "./src/lib.rs",
                "src/lib.rs",
                "a",
                "./a",
                "./",
                ".",
                "..",
                "././a",
                "./a//b",
                "a/./b",
                "a/../b",
                "a/b/",
                "/abs/a.rs",
                "./.hidden/x",
                "..x/y..",
                "./é/ü.rs",
            ] {
                let (cwd, path) = (Path::new(cwd), Path::new(p));
                assert_eq!(
                    display_path_from(cwd, path),
                    normalized_display(cwd, path),
                    "{p} in {cwd:?}"
                );
            }
        }
    }
}
