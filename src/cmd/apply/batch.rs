//! JSONL batches for `llm apply`: one JSON object per line, `"op"` naming the operation
//! (`transform`, `patch`, `write`, `delete`, `move`) and the rest that operation's own fields,
//! spelled as its CLI/JSON spells them. Operations run in order on the staged files.

use super::{OperationReport, Stage};
use crate::cmd::patch::{self, Action, PatchOptions, Selector};
use crate::cmd::transform::{exact, request, resolve_on};
use crate::edit::{self, Edit};
use crate::envelope::DiagnosticPayload;
use crate::error::{Code, Error};
use crate::lang::symbols::SymbolKind;
use crate::mutation::MutationOptions;
use crate::walk::display_path;
use serde_json::Value;
use std::path::PathBuf;

fn bad(line: usize, message: impl Into<String>, fix: impl Into<String>) -> Error {
    Error::new(
        Code::ApplyBadOperation,
        format!("batch line {line}: {}", message.into()),
        fix.into(),
    )
}

const OPS: &str = "transform, patch, write, delete, move";

/// A string field under any of `keys`.
fn text(v: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Runs every operation of the batch on `stage`.
pub fn run(
    text_in: &str,
    mopts: &MutationOptions,
    stage: &mut Stage,
    ops: &mut Vec<OperationReport>,
    _diagnostics: &mut Vec<DiagnosticPayload>,
    modes: &mut Vec<(PathBuf, u32)>,
) -> Result<(), Error> {
    let raw = !mopts.match_line_endings;
    let mut n = 0;
    for (i, line) in text_in.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| {
            bad(
                line_no,
                format!("not JSON: {e}"),
                "write one JSON object per line, e.g. {\"op\":\"delete\",\"file_path\":\"old.rs\"}",
            )
        })?;
        if !v.is_object() {
            return Err(bad(
                line_no,
                "not a JSON object",
                "write one JSON object per line",
            ));
        }
        if let Some(e) = crate::cmd::transform::request::duplicate_key(line.as_bytes()) {
            return Err(bad(
                line_no,
                e,
                "send each field once: with two values, which one is meant is unclear",
            ));
        }
        let Some(op) = v.get("op").and_then(Value::as_str) else {
            return Err(bad(
                line_no,
                "no `op` field",
                format!("name the operation in `op`: {OPS}"),
            ));
        };
        let report = match op {
            "write" => write(&v, line_no, stage)?,
            "delete" => delete(&v, line_no, stage)?,
            "move" => move_file(&v, line_no, stage, modes)?,
            "transform" => transform(&v, line_no, stage, raw)?,
            "patch" => patch_op(&v, line_no, stage, mopts, raw)?,
            other => {
                return Err(bad(
                    line_no,
                    format!("unknown op `{other}`"),
                    format!("use one of: {OPS}"),
                ))
            }
        };
        ops.push(OperationReport { index: n, ..report });
        n += 1;
    }
    if n == 0 {
        return Err(Error::new(
            Code::ApplyEmpty,
            "the batch holds no operations",
            "write one JSON object per line, each with an `op`",
        ));
    }
    Ok(())
}

fn path_of(v: &Value, line: usize, op: &str) -> Result<PathBuf, Error> {
    text(v, &["file_path", "path", "file"])
        .map(PathBuf::from)
        .ok_or_else(|| {
            bad(
                line,
                format!("`{op}` needs `file_path`"),
                "name the file in `file_path` (or `path`)",
            )
        })
}

fn report(
    op: &'static str,
    path: &std::path::Path,
    to: Option<String>,
    message: String,
) -> OperationReport {
    OperationReport {
        index: 0,
        op,
        file_path: display_path(path),
        to,
        message,
    }
}

fn write(v: &Value, line: usize, stage: &mut Stage) -> Result<OperationReport, Error> {
    let path = path_of(v, line, "write")?;
    let content = text(v, &["content", "text", "new_content"]).ok_or_else(|| {
        bad(
            line,
            "`write` needs `content`",
            "give the whole new file as a string in `content`",
        )
    })?;
    let overwrite = flag(v, "overwrite");
    stage.expect(&path, text(v, &["expected_checksum"]).as_deref())?;
    let mut content = content.into_bytes();
    // A file that began with a BOM keeps it, as under `llm write --overwrite`.
    let had_bom = overwrite
        && stage
            .entry(&path)?
            .current
            .as_ref()
            .is_some_and(|b| b.starts_with(edit::BOM));
    if had_bom && !content.starts_with(edit::BOM) {
        content.splice(0..0, edit::BOM.iter().copied());
    }
    stage.put(&path, content, !overwrite)?;
    let d = display_path(&path);
    Ok(report("write", &path, None, format!("wrote {d}")))
}

fn delete(v: &Value, line: usize, stage: &mut Stage) -> Result<OperationReport, Error> {
    let path = path_of(v, line, "delete")?;
    stage.expect(&path, text(v, &["expected_checksum"]).as_deref())?;
    stage.remove(&path, "delete")?;
    let d = display_path(&path);
    Ok(report("delete", &path, None, format!("deleted {d}")))
}

/// `move`: the file keeps its permission bits (pushed to `modes`).
fn move_file(
    v: &Value,
    line: usize,
    stage: &mut Stage,
    modes: &mut Vec<(PathBuf, u32)>,
) -> Result<OperationReport, Error> {
    let from = text(v, &["from", "file_path", "path"])
        .map(PathBuf::from)
        .ok_or_else(|| {
            bad(
                line,
                "`move` needs `from`",
                "name the file to move in `from` (or `file_path`)",
            )
        })?;
    let to = text(v, &["to", "new_path"])
        .map(PathBuf::from)
        .ok_or_else(|| bad(line, "`move` needs `to`", "name the destination in `to`"))?;
    if display_path(&from) == display_path(&to) {
        return Err(bad(
            line,
            format!("`move` from {} to itself", display_path(&from)),
            "name another destination in `to`, or drop the line",
        ));
    }
    stage.expect(&from, text(v, &["expected_checksum"]).as_deref())?;
    let bytes = stage.remove(&from, "move")?;
    stage.put_from(&to, bytes, &from)?;
    if let Some(m) = super::mode_of(&from) {
        modes.retain(|(p, _)| p != &to);
        modes.push((to.clone(), m));
    }
    let (a, b) = (display_path(&from), display_path(&to));
    Ok(report(
        "move",
        &from,
        Some(b.clone()),
        format!("moved {a} to {b}"),
    ))
}

/// `edits` with their new text in the file's line ending (unless `raw`), applied to `bytes`.
fn apply_edits(
    bytes: &[u8],
    mut edits: Vec<Edit>,
    display: &str,
    raw: bool,
) -> Result<Vec<u8>, Error> {
    if !raw {
        let ending = edit::detect_line_ending(bytes);
        for e in &mut edits {
            e.new_content = edit::to_line_ending(&e.new_content, ending);
        }
    }
    let edits: Vec<Edit> = edits
        .iter()
        .map(|e| edit::keep_bom_first(bytes, e))
        .collect();
    Ok(edit::apply(bytes, &edits, display)?.bytes)
}

fn transform(
    v: &Value,
    line: usize,
    stage: &mut Stage,
    raw: bool,
) -> Result<OperationReport, Error> {
    let path = path_of(v, line, "transform")?;
    let expected = text(v, &["expected_checksum", "checksum", "before_checksum"]);
    stage.expect(&path, expected.as_deref())?;
    let (bytes, display) = stage.read(&path, "transform")?;
    let (edits, how) = if let Some(old) = text(v, &["old", "old_text"]) {
        let new = text(v, &["new", "new_text"]).ok_or_else(|| {
            bad(
                line,
                "`old` needs `new`",
                "give the replacement in `new` (\"\" deletes)",
            )
        })?;
        let args = exact::ExactArgs {
            old: old.as_bytes(),
            new: new.as_bytes(),
            all: flag(v, "all"),
            raw,
        };
        let plan = exact::plan(&bytes, &display, &args)?;
        (plan.edits, plan.matched_with)
    } else {
        let planned = request::plan(vec![v.clone()], &format!("batch line {line}"))?;
        let p = planned
            .into_iter()
            .next()
            .ok_or_else(|| bad(line, "no edit request", "give `edits` or `old`/`new`"))?;
        if p.edits.is_empty() {
            return Err(Error::new(
                Code::NoEdits,
                format!("batch line {line}: the edit request has no edits"),
                "give at least one edit in `edits`",
            ));
        }
        (
            resolve_on(p.edits, expected.is_some(), &bytes, &display)?,
            "exact",
        )
    };
    let n = edits.len();
    let new = apply_edits(&bytes, edits, &display, raw)?;
    stage.put(&path, new, false)?;
    Ok(report(
        "transform",
        &path,
        None,
        format!(
            "{n} edit{} in {display}{}",
            if n == 1 { "" } else { "s" },
            if how == "exact" {
                String::new()
            } else {
                format!(" (matched with {how})")
            }
        ),
    ))
}

fn patch_op(
    v: &Value,
    line: usize,
    stage: &mut Stage,
    mopts: &MutationOptions,
    raw: bool,
) -> Result<OperationReport, Error> {
    let path = text(v, &["file", "file_path", "path"])
        .map(PathBuf::from)
        .ok_or_else(|| {
            bad(
                line,
                "`patch` needs `file`",
                "name the file in `file` (or `file_path`)",
            )
        })?;
    let name = text(v, &["symbol", "name", "qualified_name"]).ok_or_else(|| {
        bad(
            line,
            "`patch` needs `symbol`",
            "name the symbol in `symbol` (`parse`, `Parser::parse`)",
        )
    })?;
    let mut kinds = Vec::new();
    let kind_values: Vec<String> = match v.get("kind") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    for k in kind_values {
        kinds.push(SymbolKind::from_name(&k).ok_or_else(|| {
            bad(
                line,
                format!("unknown symbol kind `{k}`"),
                "use a kind `llm find` reports: function, method, struct, class…",
            )
        })?);
    }
    let rename = text(v, &["rename"]);
    let action = if flag(v, "body") {
        Action::Body
    } else if flag(v, "delete") {
        Action::Delete
    } else if flag(v, "insert_before") {
        Action::InsertBefore
    } else if flag(v, "insert_after") {
        Action::InsertAfter
    } else if let Some(new) = &rename {
        Action::Rename(new.clone())
    } else {
        Action::Replace
    };
    let expected = text(v, &["expected_checksum", "checksum"]);
    stage.expect(&path, expected.as_deref())?;
    let opts = PatchOptions {
        file: path.clone(),
        selector: Selector {
            name,
            kinds,
            parent: text(v, &["parent"]),
            line: v.get("line").and_then(Value::as_u64).map(|l| l as usize),
        },
        action,
        text: text(v, &["with_text", "text", "new_text", "content"]),
        expected_checksum: None,
        rename_paths: v
            .get("in")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(PathBuf::from))
                    .collect()
            })
            .unwrap_or_default(),
        rename_scope: patch::RenameScope {
            certain_only: flag(v, "certain_only"),
            in_comments: flag(v, "in_comments"),
            in_strings: flag(v, "in_strings"),
        },
        check: false,
        check_timeout: std::time::Duration::from_secs(300),
        mutation: mopts.clone(),
    };
    if let Action::Rename(_) = &opts.action {
        let (files, message) =
            patch::rename_on(&opts, &mut |p| stage.read(p, "patch").ok().map(|(b, _)| b))?;
        for (p, edits) in files {
            let (bytes, display) = stage.read(&p, "patch")?;
            let new = apply_edits(&bytes, edits, &display, true)?;
            stage.put(&p, new, false)?;
        }
        return Ok(report("patch", &path, None, message));
    }
    let (bytes, display) = stage.read(&path, "patch")?;
    let (edits, message) = patch::edits_on(&opts, &bytes)?;
    let new = apply_edits(&bytes, edits, &display, raw)?;
    stage.put(&path, new, false)?;
    Ok(report("patch", &path, None, message))
}
