//! `llm transform` input, way 3: the output of `llm search -r` (each match's `replacement`) or
//! of `llm ast`/`llm find` plus `--replace TEXT` becomes one edit per match; each file's
//! `checksum` from `data.files[]` is the expected checksum, so a file changed since the query
//! is rejected, not clobbered.

use super::request::{str_field, QueryInput};
use super::{NewText, Planned, PlannedEdit, Pos, Var};
use crate::error::{Code, Error};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

/// One match's byte range and file, from its `span` (or the older flat fields).
fn match_range(m: &Value) -> Option<(String, usize, usize)> {
    let span = m.get("span").unwrap_or(m);
    let file = str_field(span, &["file_path", "file", "path"])
        .or_else(|| str_field(m, &["file_path", "file", "path"]))?;
    let num = |k: &str| span.get(k).and_then(Value::as_u64).map(|n| n as usize);
    Some((file, num("byte_start")?, num("byte_end")?))
}

/// A capture's name and range (a full `span`, or flat `byte_start`/`byte_end`).
fn capture_range(c: &Value) -> Option<(String, usize, usize)> {
    let name = str_field(c, &["name", "capture"])?;
    let span = c.get("span").unwrap_or(c);
    let num = |k: &str| span.get(k).and_then(Value::as_u64).map(|n| n as usize);
    Some((name, num("byte_start")?, num("byte_end")?))
}

/// Plans the edits for piped query output. `replace` is `--replace TEXT`: used literally for
/// search output, expanded (`$name`, `${name}`, `$$`) with each match's captures (and a find
/// match's `name`) for ast/find output.
pub fn plan(q: QueryInput, replace: Option<&str>) -> Result<Vec<Planned>, Error> {
    if q.matches.is_empty() {
        return Err(Error::new(
            Code::NoEdits,
            format!(
                "the piped `llm {}` output has no matches: nothing to change",
                q.command
            ),
            "check the query; it must match something before its matches can be replaced",
        )
        // Like a search that finds nothing: exit 1, not an error.
        .rejected());
    }
    let checksums: HashMap<&str, Option<&str>> = q
        .files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_deref()))
        .collect();
    let mut order: Vec<String> = Vec::new();
    let mut by_file: HashMap<String, Vec<PlannedEdit>> = HashMap::new();
    for (i, m) in q.matches.iter().enumerate() {
        let (file, start, end) = match_range(m).ok_or_else(|| {
            Error::new(
                Code::BadRequest,
                format!(
                    "match {i} of the piped `llm {}` output has no span",
                    q.command
                ),
                "pipe the unmodified --json (or --format jsonl) output of llm search/ast/find",
            )
        })?;
        let new = match replace {
            Some(t) if q.command == "search" => NewText::Text(t.as_bytes().to_vec()),
            Some(t) => NewText::Template(t.to_string(), vars(m)),
            None => match str_field(m, &["replacement"]) {
                Some(r) => NewText::Text(r.into_bytes()),
                None => {
                    return Err(Error::new(
                        Code::NoReplacement,
                        format!(
                            "match {i} of the piped `llm {}` output has no replacement",
                            q.command
                        ),
                        if q.command == "search" {
                            "run `llm search -r TEXT ... --json`, or pass `--replace TEXT` to llm transform"
                        } else {
                            "pass `--replace TEXT` (`$name` expands a capture)"
                        },
                    )
                    .with_file(&file))
                }
            },
        };
        let old = str_field(m, &["matched_text"]).map(String::into_bytes);
        if !by_file.contains_key(&file) {
            order.push(file.clone());
        }
        let edits = by_file.entry(file).or_default();
        let edit = PlannedEdit {
            pos: Pos::Bytes(start, end),
            new,
            old,
        };
        // The same match reported twice (several patterns) is one edit.
        if !edits.contains(&edit) {
            edits.push(edit);
        }
    }
    Ok(order
        .into_iter()
        .map(|file| {
            let expected = checksums
                .get(file.as_str())
                .copied()
                .flatten()
                .map(str::to_string);
            let mut edits = by_file.remove(&file).unwrap_or_default();
            if expected.is_some() {
                // The checksum pins every byte; `matched_text` is only needed without it (and
                // is lossy for a file that is not UTF-8).
                edits.iter_mut().for_each(|e| e.old = None);
            }
            Planned {
                path: PathBuf::from(&file),
                edits,
                expected,
            }
        })
        .collect())
}

/// The variables a `--replace` template may name: every capture, and for a find match `name`.
fn vars(m: &Value) -> Vec<(String, Var)> {
    let mut out: Vec<(String, Var)> = m
        .get("captures")
        .and_then(Value::as_array)
        .map(|cs| {
            cs.iter()
                .filter_map(capture_range)
                .map(|(n, s, e)| (n, Var::Range(s, e)))
                .collect()
        })
        .unwrap_or_default();
    // A find match: `$name` is the symbol's name (its `name_span` when present).
    if !out.iter().any(|c| c.0 == "name") {
        if let Some(span) = m.get("name_span") {
            if let (Some(s), Some(e)) = (
                span.get("byte_start").and_then(Value::as_u64),
                span.get("byte_end").and_then(Value::as_u64),
            ) {
                out.push(("name".into(), Var::Range(s as usize, e as usize)));
            }
        } else if let Some(name) = str_field(m, &["name"]) {
            out.push(("name".into(), Var::Text(name)));
        }
    }
    out
}
