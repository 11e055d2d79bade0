//! `gcc -fsyntax-only` (C) and `g++ -fsyntax-only` (C++) on a temporary copy of the text, with
//! the include paths, macros and language options of the file's `compile_commands.json` entry
//! when the project has one, and the file's own directory searched for `#include "…"`. GCC's
//! JSON diagnostics (`-fdiagnostics-format=json`) give lines and byte columns.

use super::{located, At, Output, Tool, ValidatorReport};
use crate::envelope::{DiagnosticPayload, Level};
use crate::span::Units;
use crate::walk::{display_path, normalize};
use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Validator names.
pub const GCC: &str = "gcc -fsyntax-only";
pub const GXX: &str = "g++ -fsyntax-only";

/// Checks `text`, the new content of `path` (reported as `display`), as C (`cpp` false) or C++.
pub fn check(
    cpp: bool,
    text: &[u8],
    path: &Path,
    display: &str,
    timeout: Duration,
) -> ValidatorReport {
    let program = if cpp { "g++" } else { "gcc" };
    check_with(cpp, OsStr::new(program), text, path, display, timeout)
}

/// [`check`] with the compiler named.
pub(crate) fn check_with(
    cpp: bool,
    program: &OsStr,
    text: &[u8],
    path: &Path,
    display: &str,
    timeout: Duration,
) -> ValidatorReport {
    let started = Instant::now();
    let tool = Tool {
        name: if cpp { GXX } else { GCC },
        tool: if cpp { "g++" } else { "gcc" },
        program,
        install: if cpp {
            "`apt-get install g++`"
        } else {
            "`apt-get install gcc`"
        },
        timeout,
    };
    let name = path
        .file_name()
        .map_or_else(|| OsString::from("file.c"), OsStr::to_os_string);
    let (dir, copy) = match tool.copy(text, &name, started) {
        Ok(t) => t,
        Err(report) => return report,
    };
    let entry = compile_command(path);
    let mut cmd = Command::new(program);
    cmd.args(["-fsyntax-only", "-fdiagnostics-format=json", "-x"])
        .arg(match (cpp, is_header(path)) {
            (false, false) => "c",
            (false, true) => "c-header",
            (true, false) => "c++",
            (true, true) => "c++-header",
        });
    if let Some(parent) = path.parent() {
        cmd.arg("-iquote").arg(parent);
    }
    match &entry {
        Some(e) => {
            cmd.args(&e.flags).current_dir(&e.directory);
        }
        None => {
            cmd.current_dir(dir.path());
        }
    }
    cmd.arg(&copy);
    let out = match tool.run(&mut cmd, started) {
        Ok(o) => o,
        Err(report) => return report,
    };
    let version = tool
        .version(&["-dumpfullversion"])
        .map(|v| format!("{} {v}", tool.tool));
    let mut diagnostics = parse(&out, &copy, text, display, tool.tool);
    if let Some(e) = &entry {
        let note = format!("flags from {}", display_path(&e.database));
        for d in &mut diagnostics {
            d.note = Some(
                d.note
                    .take()
                    .map_or(note.clone(), |n| format!("{n}; {note}")),
            );
        }
    }
    tool.report(&out, version, started, diagnostics)
}

fn is_header(path: &Path) -> bool {
    matches!(
        path.extension().and_then(OsStr::to_str),
        Some("h" | "hh" | "hpp" | "hxx" | "ipp")
    )
}

/// The flags of a `compile_commands.json` entry that shape parsing.
#[derive(Debug)]
struct Entry {
    database: PathBuf,
    directory: PathBuf,
    flags: Vec<String>,
}

/// The entry for `path` in the nearest `compile_commands.json` (in a directory above the file
/// or its `build/`), keeping only the flags that change how the file parses.
fn compile_command(path: &Path) -> Option<Entry> {
    let want = normalize(path);
    for dir in want.ancestors().skip(1) {
        for db in [
            dir.join("compile_commands.json"),
            dir.join("build/compile_commands.json"),
        ] {
            let Ok(text) = std::fs::read_to_string(&db) else {
                continue;
            };
            let entries: Vec<Value> = serde_json::from_str(&text).ok()?;
            for e in entries {
                // A relative directory is the database's own (CMake writes absolute ones;
                // hand-written databases often say "."): it was taken relative to wherever
                // llm ran, so the entry never matched and no flag was used.
                let home = db.parent().unwrap_or(dir);
                let directory = normalize(&home.join(e["directory"].as_str().unwrap_or(".")));
                let file = e["file"].as_str().map(|f| normalize(&directory.join(f)));
                if file.as_deref() != Some(&want) {
                    continue;
                }
                let args: Vec<String> = match e["arguments"].as_array() {
                    Some(a) => a
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect(),
                    None => shlex::split(e["command"].as_str().unwrap_or(""))?,
                };
                return Some(Entry {
                    database: db,
                    directory,
                    flags: parse_flags(&args),
                });
            }
            return None;
        }
    }
    None
}

/// The flags that shape parsing: include paths, macros, forced includes, the language standard,
/// `-f`/`-m` options and the sysroot; outputs, dependency files, the inputs and optimisation are
/// dropped. A flag's separate value (`-I dir`) travels with it.
fn parse_flags(args: &[String]) -> Vec<String> {
    const WITH_VALUE: &[&str] = &[
        "-I",
        "-D",
        "-U",
        "-include",
        "-isystem",
        "-iquote",
        "-idirafter",
        "-imacros",
        "--sysroot",
        "-isysroot",
        "-std",
    ];
    let mut out = Vec::new();
    let mut i = 1; // args[0] is the compiler
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if WITH_VALUE.contains(&a.as_str()) {
            if let Some(v) = args.get(i) {
                out.push(a.clone());
                out.push(v.clone());
                i += 1;
            }
            continue;
        }
        let keep = [
            "-I",
            "-D",
            "-U",
            "-std=",
            "-isystem",
            "-iquote",
            "-idirafter",
            "-include",
            "-imacros",
            "--sysroot=",
            "-pthread",
        ]
        .iter()
        .any(|p| a.starts_with(p))
            || ((a.starts_with("-f") || a.starts_with("-m"))
                && !a.starts_with("-fdiagnostics")
                && !a.starts_with("-fsyntax-only")
                && !a.starts_with("-fprofile")
                && !a.starts_with("-fdump"));
        if keep {
            out.push(a.clone());
        }
    }
    out
}

/// GCC's JSON: a list of diagnostics, each with `kind`, `message`, `option`, `locations[]` whose
/// `caret` has `file`, `line` and `byte-column`, and `children` (notes). Messages about other
/// files (headers) keep that file's name and no span.
fn parse(
    out: &Output,
    copy: &Path,
    text: &[u8],
    display: &str,
    tool: &str,
) -> Vec<DiagnosticPayload> {
    let Some(start) = out.stderr.iter().position(|&b| b == b'[') else {
        return Vec::new();
    };
    // The JSON array may be followed by plain lines (`compilation terminated.`).
    let mut stream =
        serde_json::Deserializer::from_slice(&out.stderr[start..]).into_iter::<Vec<Value>>();
    let Some(Ok(list)) = stream.next() else {
        return Vec::new();
    };
    let ours = |f: &str| Path::new(f) == copy;
    list.iter()
        .filter_map(|d| {
            let level = match d["kind"].as_str()? {
                "error" | "fatal error" => Level::Error,
                "warning" | "pedantic warning" => Level::Warning,
                _ => Level::Note,
            };
            let message = d["message"].as_str()?.to_string();
            let code = d["option"].as_str().map(str::to_string);
            let caret = &d["locations"][0]["caret"];
            let file = caret["file"].as_str().unwrap_or("");
            let line = caret["line"].as_u64().map(|n| n as usize);
            let mut diag = match line {
                Some(line) if ours(file) => {
                    let col = caret["byte-column"]
                        .as_u64()
                        .map(|c| (c as usize, Units::Utf8));
                    located(tool, level, code, message, text, display, At { line, col })
                }
                _ => DiagnosticPayload {
                    tool: tool.to_string(),
                    level,
                    code,
                    message,
                    file: (!file.is_empty()).then(|| file.to_string()),
                    span: None,
                    note: line.map(|l| format!("at line {l}")),
                    remediation: Some("fix the code the message points at".into()),
                },
            };
            let notes: Vec<String> = d["children"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["message"].as_str().map(str::to_string))
                .collect();
            if !notes.is_empty() {
                let joined = notes.join("; ");
                diag.note = Some(
                    diag.note
                        .take()
                        .map_or(joined.clone(), |n| format!("{n}; {joined}")),
                );
            }
            Some(diag)
        })
        .collect()
}

#[cfg(test)]
#[path = "cc_tests.rs"]
mod tests;
