//! `javac` on one file: a temporary copy (named as the file, as Java requires) compiled into a
//! temporary directory, with the file's source root (its directory less its `package` path) on
//! the source path so that the project's other classes resolve, and nothing else generated.
//! Messages (`FILE:N: error: …`, the source line, a caret line, `symbol:`/`location:` lines)
//! become diagnostics with spans.

use super::{located, no_temp, temp_copy, At, Output, Tool, ValidatorReport};
use crate::envelope::{DiagnosticPayload, Level};
use crate::span::Units;
use crate::walk::display_path;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The validator's name.
pub const NAME: &str = "javac";

/// Checks `text`, the new content of `path` (reported as `display`).
pub fn check(text: &[u8], path: &Path, display: &str, timeout: Duration) -> ValidatorReport {
    check_with(OsStr::new("javac"), text, path, display, timeout)
}

/// [`check`] with the compiler named.
pub(crate) fn check_with(
    program: &OsStr,
    text: &[u8],
    path: &Path,
    display: &str,
    timeout: Duration,
) -> ValidatorReport {
    let started = Instant::now();
    let tool = Tool {
        name: NAME,
        tool: "javac",
        program,
        install: "`apt-get install default-jdk-headless` (or any JDK 11+)",
        timeout,
    };
    let name = path
        .file_name()
        .map_or_else(|| OsString::from("Main.java"), OsStr::to_os_string);
    let (dir, copy) = match temp_copy(text, &name) {
        Ok(t) => t,
        Err(e) => return no_temp(NAME, "javac", e, started),
    };
    let classes = dir.path().join("classes");
    let mut cmd = Command::new(program);
    cmd.current_dir(dir.path())
        .args([
            "-J-Duser.language=en",
            "-J-Duser.country=US",
            "-encoding",
            "UTF-8",
        ])
        .args(["-proc:none", "-implicit:none", "-Xmaxerrs", "200", "-d"])
        .arg(&classes);
    if let Some(root) = source_root(text, path) {
        cmd.arg("-sourcepath").arg(root);
    }
    cmd.arg(&copy);
    let out = match tool.run(&mut cmd, started) {
        Ok(o) => o,
        Err(report) => return report,
    };
    let version = tool.version(&["-version"]);
    let diagnostics = parse(&out, &copy, text, display);
    if !out.status.success() && !diagnostics.iter().any(|d| d.level == Level::Error) {
        return tool.broken(&out, version, started);
    }
    ValidatorReport::from_diagnostics(NAME, version, started, diagnostics)
}

/// The directory the file's `package a.b;` is rooted at (`…/src` for `…/src/a/b/F.java`), when
/// the file's directory ends with the package path (or the file has no package).
fn source_root(text: &[u8], path: &Path) -> Option<PathBuf> {
    let text = String::from_utf8_lossy(text);
    let re = regex::Regex::new(r"(?m)^\s*package\s+([\w.]+)\s*;").ok()?;
    let package = re.captures(&text).map(|c| c[1].to_string());
    let mut dir = path.parent()?.to_path_buf();
    for part in package.iter().flat_map(|p| p.rsplit('.')) {
        if dir.file_name() != Some(OsStr::new(part)) {
            return None;
        }
        dir.pop();
    }
    dir.is_dir().then_some(dir)
}

/// `PATH:N: error: message`, then the source line, a caret line, and indented detail lines.
fn parse(out: &Output, copy: &Path, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let err: Vec<String> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_string)
        .collect();
    let ours = copy.to_string_lossy();
    let mut diags: Vec<DiagnosticPayload> = Vec::new();
    let mut i = 0;
    while i < err.len() {
        let Some((file, line, level, msg)) = header(&err[i]) else {
            i += 1;
            continue;
        };
        i += 1;
        let mut col = None;
        if let (Some(shown), Some(caret)) = (err.get(i), err.get(i + 1).filter(|c| c.trim() == "^"))
        {
            let mut at = caret.chars().take_while(|&c| c != '^').count();
            // javac points at the `.` of a member it cannot find: the name after it is meant.
            let units: Vec<u16> = shown.encode_utf16().collect();
            let next = units
                .get(at + 1)
                .and_then(|&u| char::from_u32(u32::from(u)));
            if units.get(at) == Some(&u16::from(b'.'))
                && next.is_some_and(|c| c.is_alphabetic() || c == '_')
            {
                at += 1;
            }
            col = Some((at + 1, Units::Utf16));
            i += 2;
        }
        let mut details = Vec::new();
        while let Some(d) = err
            .get(i)
            .filter(|l| l.starts_with("  ") && header(l).is_none())
        {
            details.push(d.trim().to_string());
            i += 1;
        }
        let mut d = if file == ours {
            located("javac", level, None, msg, text, display, At { line, col })
        } else {
            DiagnosticPayload {
                tool: "javac".into(),
                level,
                code: None,
                message: msg,
                file: Some(display_path(Path::new(&file))),
                span: None,
                note: Some(format!("at line {line}")),
                remediation: Some("fix the code the message points at".into()),
            }
        };
        if !details.is_empty() {
            let joined = details.join("; ");
            d.note = Some(
                d.note
                    .take()
                    .map_or(joined.clone(), |n| format!("{n}; {joined}")),
            );
        }
        diags.push(d);
    }
    diags
}

fn header(l: &str) -> Option<(String, usize, Level, String)> {
    for (tag, level) in [(": error: ", Level::Error), (": warning: ", Level::Warning)] {
        if let Some((head, msg)) = l.split_once(tag) {
            let (file, n) = head.rsplit_once(':')?;
            let line = n.parse().ok()?;
            return Some((file.to_string(), line, level, msg.to_string()));
        }
    }
    None
}

#[cfg(test)]
#[path = "java_tests.rs"]
mod tests;
