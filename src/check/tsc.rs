//! `tsc --noEmit -p DIR` on the project of the nearest `tsconfig.json` (TypeScript and TSX),
//! with the files in place: the project's own `node_modules/.bin/tsc` when it has one, else
//! `tsc` from PATH. `--listFiles` tells which files the program included, so a pass only counts
//! for a file tsc compiled; without a `tsconfig.json` the check is `skipped`, never passed.

use super::{located, upward, At, Tool, ValidatorReport, Verdict};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::Units;
use crate::walk::{display_path, normalize};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The validator's name.
pub const NAME: &str = "tsc --noEmit";

/// The directory of the `tsconfig.json` that governs `file` (the nearest one above it).
pub fn project(file: &Path) -> Option<PathBuf> {
    upward(normalize(file).parent()?, "tsconfig.json")
}

/// Checks the project of `file` (reported as `display`) with `file` as the file of interest.
pub fn check(file: &Path, display: &str, timeout: Duration) -> ValidatorReport {
    let started = Instant::now();
    match project(file) {
        Some(dir) => check_project(&dir, Some(file), timeout),
        None => {
            let err = Error::new(
                Code::CheckerSkipped,
                format!("{display} has no tsconfig.json above it; `tsc` needs a project to type-check, so nothing was checked"),
                "add a tsconfig.json to the project, or check through a language server (--lsp 'typescript-language-server --stdio')",
            )
            .with_file(display);
            ValidatorReport::unavailable(NAME, None, started, Verdict::Skipped, err, "tsc")
        }
    }
}

/// Runs `tsc --noEmit -p dir`; with `focus`, a file the program did not include turns a pass
/// into `skipped` (a `CHECK_E004` warning).
pub fn check_project(dir: &Path, focus: Option<&Path>, timeout: Duration) -> ValidatorReport {
    check_with(&program(dir), dir, focus, timeout)
}

/// The project's `node_modules/.bin/tsc`, else `tsc`.
fn program(dir: &Path) -> OsString {
    dir.ancestors()
        .map(|d| d.join("node_modules/.bin/tsc"))
        .find(|p| p.is_file())
        .map_or_else(|| OsString::from("tsc"), PathBuf::into_os_string)
}

pub(crate) fn check_with(
    program: &OsStr,
    dir: &Path,
    focus: Option<&Path>,
    timeout: Duration,
) -> ValidatorReport {
    let started = Instant::now();
    let tool = Tool {
        name: NAME,
        tool: "tsc",
        program,
        install:
            "`npm install -g typescript` (or `npm install --save-dev typescript` in the project)",
        timeout,
    };
    let mut cmd = Command::new(program);
    cmd.current_dir(dir)
        .args(["--noEmit", "--pretty", "false", "--listFiles", "-p", "."]);
    let out = match tool.run(&mut cmd, started) {
        Ok(o) => o,
        Err(report) => return report,
    };
    let version = tool.version(&["--version"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut diagnostics: Vec<DiagnosticPayload> = Vec::new();
    let mut listed = Vec::new();
    let mut texts: std::collections::HashMap<PathBuf, Vec<u8>> = Default::default();
    for line in stdout.lines() {
        if let Some((file, at, level, code, msg)) = message(line) {
            let abs = normalize(&dir.join(file));
            let shown = display_path(&abs);
            let text = texts
                .entry(abs.clone())
                .or_insert_with(|| std::fs::read(&abs).unwrap_or_default());
            diagnostics.push(located("tsc", level, Some(code), msg, text, &shown, at));
        } else if line.starts_with([' ', '\t']) && !line.trim().is_empty() {
            if let Some(last) = diagnostics.last_mut() {
                let more = line.trim().to_string();
                last.note = Some(
                    last.note
                        .take()
                        .map_or(more.clone(), |n| format!("{n}; {more}")),
                );
            }
        } else if !line.trim().is_empty() {
            listed.push(normalize(&dir.join(line.trim())));
        }
    }
    let has_errors = diagnostics.iter().any(|d| d.level == Level::Error);
    if !out.status.success() && !has_errors {
        return tool.broken(&out, version, started);
    }
    if let Some(focus) = focus {
        let want = normalize(focus);
        if !has_errors && !listed.contains(&want) {
            let shown = display_path(focus);
            let mut d = Error::new(
                Code::CheckerSkipped,
                format!("{shown} is not part of the program of {}, so `tsc` did not examine it", display_path(&dir.join("tsconfig.json"))),
                "include it in the tsconfig.json (`include`/`files`) or import it from a file that is, then check again",
            )
            .with_file(shown)
            .diagnostic(Level::Warning);
            d.tool = "tsc".into();
            diagnostics.push(d);
        }
    }
    ValidatorReport::from_diagnostics(NAME, version, started, diagnostics)
}

/// `FILE(L,C): error TS2322: message` → its parts (columns in UTF-16 units).
fn message(line: &str) -> Option<(&str, At, Level, String, String)> {
    let (head, rest) = line.split_once("): ")?;
    let (file, pos) = head.rsplit_once('(')?;
    let (l, c) = pos.split_once(',')?;
    let (kind, rest) = rest.split_once(' ')?;
    let level = match kind {
        "error" => Level::Error,
        "warning" => Level::Warning,
        "message" => Level::Note,
        _ => return None,
    };
    let (code, msg) = rest.split_once(": ")?;
    let at = At {
        line: l.parse().ok()?,
        col: Some((c.parse().ok()?, Units::Utf16)),
    };
    Some((file, at, level, code.to_string(), msg.to_string()))
}

#[cfg(test)]
#[path = "tsc_tests.rs"]
mod tests;
