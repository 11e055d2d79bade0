//! Codex patches (`*** Begin Patch` … `*** End Patch`, with `*** Add File:`, `*** Update
//! File:` and its `*** Move to:`, `*** Delete File:`) parsed into [`super::FilePatch`]es.

use super::{bad, lines_of, FilePatch, Hunk, Kind, Line};
use crate::error::{Code, Error};
use std::path::PathBuf;

/// Parses `*** Begin Patch` … `*** End Patch`. Marker lines may carry spaces around them.
pub fn parse_codex(text: &str) -> Result<Vec<FilePatch>, Error> {
    let lines = lines_of(text);
    let mut i = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    if lines.get(i).map(|l| l.trim()) != Some("*** Begin Patch") {
        return Err(bad(
            i + 1,
            "a Codex patch starts with `*** Begin Patch`",
            "start the patch with `*** Begin Patch` and end it with `*** End Patch`",
        ));
    }
    i += 1;
    let mut files: Vec<FilePatch> = Vec::new();
    let mut ended = false;
    while i < lines.len() {
        let raw = lines[i];
        let t = raw.trim();
        if t == "*** End Patch" {
            ended = true;
            break;
        }
        if t.is_empty() && files.is_empty() {
            i += 1;
            continue;
        }
        let header = |p: &str| t.strip_prefix(p).map(|s| PathBuf::from(s.trim()));
        if let Some(path) = header("*** Add File:") {
            i += 1;
            let mut hunk = Hunk {
                patch_line: i,
                ..Default::default()
            };
            while i < lines.len() && !lines[i].trim_start().starts_with("*** ") {
                match lines[i].strip_prefix('+') {
                    Some(l) => hunk.lines.push(Line::Add(l.to_string())),
                    None if lines[i].is_empty() => {}
                    None => {
                        return Err(bad(
                            i + 1,
                            format!(
                                "a line of an added file must start with `+`: {:?}",
                                lines[i]
                            ),
                            "prefix every line of an added file with `+`",
                        ))
                    }
                }
                i += 1;
            }
            files.push(FilePatch {
                kind: Kind::Add,
                path,
                move_to: None,
                hunks: vec![hunk],
                codex: true,
                mode: None,
                copy: false,
                drop_bom: false,
            });
            continue;
        }
        if let Some(path) = header("*** Delete File:") {
            files.push(FilePatch {
                kind: Kind::Delete,
                path,
                move_to: None,
                hunks: Vec::new(),
                codex: true,
                mode: None,
                copy: false,
                drop_bom: false,
            });
            i += 1;
            continue;
        }
        if let Some(path) = header("*** Update File:") {
            i += 1;
            let mut move_to = None;
            if let Some(to) = lines
                .get(i)
                .and_then(|l| l.trim().strip_prefix("*** Move to:"))
            {
                move_to = Some(PathBuf::from(to.trim()));
                i += 1;
            }
            let start = i;
            let mut hunks: Vec<Hunk> = Vec::new();
            while i < lines.len() {
                let l = lines[i];
                let lt = l.trim();
                if lt == "*** End of File" {
                    if let Some(h) = hunks.last_mut() {
                        h.at_eof = true;
                    }
                    i += 1;
                    continue;
                }
                if lt.starts_with("*** ") {
                    break;
                }
                if lt == "@@" || lt.starts_with("@@ ") {
                    let anchor = lt.strip_prefix("@@").unwrap_or("").trim();
                    hunks.push(Hunk {
                        anchor: (!anchor.is_empty()).then(|| anchor.to_string()),
                        patch_line: i + 1,
                        ..Default::default()
                    });
                    i += 1;
                    continue;
                }
                if hunks.is_empty() {
                    // The first chunk may go without `@@`.
                    hunks.push(Hunk {
                        patch_line: i + 1,
                        ..Default::default()
                    });
                }
                let h = hunks.last_mut().expect("pushed above");
                let line = match l.chars().next() {
                    Some(' ') => Line::Context(l[1..].to_string()),
                    Some('-') => Line::Remove(l[1..].to_string()),
                    Some('+') => Line::Add(l[1..].to_string()),
                    None => Line::Context(String::new()),
                    Some(_) => {
                        return Err(bad(
                            i + 1,
                            format!("a chunk line must start with ` `, `-` or `+`: {l:?}"),
                            "prefix context lines with a space, removed ones with `-`, added ones with `+`",
                        ))
                    }
                };
                h.lines.push(line);
                i += 1;
            }
            for h in &mut hunks {
                // Blank lines at a chunk's end are separators, not context.
                while h.lines.last() == Some(&Line::Context(String::new())) {
                    h.lines.pop();
                }
            }
            hunks.retain(|h| !h.lines.is_empty() || h.anchor.is_some());
            if hunks.iter().all(|h| h.lines.is_empty()) && move_to.is_none() {
                return Err(bad(
                    start,
                    format!("`*** Update File: {}` has no change lines", path.display()),
                    "give the chunk's context (` `), removed (`-`) and added (`+`) lines",
                ));
            }
            files.push(FilePatch {
                kind: Kind::Update,
                path,
                move_to,
                hunks,
                codex: true,
                mode: None,
                copy: false,
                drop_bom: false,
            });
            continue;
        }
        return Err(bad(
            i + 1,
            format!("`{t}` is not a Codex patch header"),
            "use `*** Add File: PATH`, `*** Delete File: PATH` or `*** Update File: PATH` (optionally `*** Move to: PATH`)",
        ));
    }
    if !ended {
        return Err(bad(
            lines.len(),
            "the patch has no `*** End Patch`",
            "end the patch with a `*** End Patch` line (was it cut off?)",
        ));
    }
    if files.is_empty() {
        return Err(Error::new(
            Code::ApplyEmpty,
            "the patch holds no file operations",
            "put `*** Add File:`, `*** Delete File:` or `*** Update File:` sections between the markers",
        ));
    }
    Ok(files)
}
