//! `llm transform`: checksum-guarded edits. Three ways in — an edit request (`request.rs`),
//! exact text (`exact.rs`), piped query output (`chain.rs`) — all become planned edits, which
//! are resolved against the files as read (line/column positions, recorded old texts,
//! `--replace` templates) and handed to the mutation core as one all-or-nothing request.

mod chain;
pub(crate) mod exact;
pub(crate) mod request;

use crate::edit::Edit;
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::mutation::{self, Change, MutationOptions, MutationResult};
use crate::paths::read_target;
use crate::span::{checksum, LineIndex};
use crate::walk::display_path;
use serde::Serialize;
use std::path::PathBuf;

/// Where the edits come from.
#[derive(Debug, Clone)]
pub enum Input {
    /// `FILE --old TEXT --new TEXT [--all]`.
    Exact {
        file: PathBuf,
        old: Vec<u8>,
        new: Vec<u8>,
        all: bool,
    },
    /// JSON read from stdin or `--edits FILE` (`origin` names it in messages).
    Json { text: Vec<u8>, origin: String },
}

/// Everything `llm transform` runs on.
#[derive(Debug, Clone)]
pub struct TransformOptions {
    pub mutation: MutationOptions,
    pub input: Input,
    /// `--expected-checksum`: the SHA-256 the (single) target file must have.
    pub expected_checksum: Option<String>,
    /// `--replace TEXT` for piped query output.
    pub replace: Option<String>,
}

/// The `result` of a transform: the mutation core's result plus where the edits came from.
#[derive(Debug, Clone, Serialize)]
pub struct TransformData {
    /// `request`, `exact`, `search`, `ast` or `find`.
    pub source: String,
    /// Exact mode: how `--old` was found (`exact`, `line_endings`, `indentation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_with: Option<&'static str>,
    #[serde(flatten)]
    pub mutation: MutationResult,
}

/// A finished transform: its result, warnings/notes and a one-line message.
#[derive(Debug)]
pub struct TransformOutcome {
    pub data: TransformData,
    pub diagnostics: Vec<DiagnosticPayload>,
    pub message: String,
}

/// A planned edit's position, before the file is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pos {
    Bytes(usize, usize),
    /// `(line, col)` pairs: 1-indexed lines, 0-indexed byte columns.
    Lines {
        start: (usize, usize),
        end: (usize, usize),
    },
    /// Byte offsets with the line/column positions sent alongside them, which must agree.
    Checked {
        bytes: (usize, usize),
        start: Option<(usize, usize)>,
        end: Option<(usize, usize)>,
    },
}

/// A template variable: a byte range of the file, or a given text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Var {
    Range(usize, usize),
    Text(String),
}

/// A planned edit's new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NewText {
    Text(Vec<u8>),
    /// `--replace` text with `$name` expanded from the variables.
    Template(String, Vec<(String, Var)>),
}

/// One edit as planned from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlannedEdit {
    pub pos: Pos,
    pub new: NewText,
    /// The text the range must hold now (checked when given).
    pub old: Option<Vec<u8>>,
}

/// One file's planned edits.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    pub path: PathBuf,
    pub edits: Vec<PlannedEdit>,
    pub expected: Option<String>,
}

/// Runs a transform. Errors carry their status (`rejected` for refusals, `error` for bad input).
pub fn run(opts: &TransformOptions) -> Result<TransformOutcome, Error> {
    let mopts = &opts.mutation;
    let (source, matched_with, changes) = match &opts.input {
        Input::Exact {
            file,
            old,
            new,
            all,
        } => {
            let display = display_path(file);
            // Read beneath the root, as the write will (an outside target is refused).
            let bytes = read_target(&mopts.root, mopts.allow_outside_root, file, &display)?;
            check_expected(opts.expected_checksum.as_deref(), &bytes, &display)?;
            let args = exact::ExactArgs {
                old,
                new,
                all: *all,
                raw: !mopts.match_line_endings,
            };
            let plan = exact::plan(&bytes, &display, &args)?;
            let change = Change::edits(file, plan.edits, Some(checksum(&bytes)));
            ("exact".to_string(), Some(plan.matched_with), vec![change])
        }
        Input::Json { text, origin } => {
            let (source, mut planned) = match request::parse(text, origin)? {
                request::Parsed::Requests(values) => {
                    if opts.replace.is_some() {
                        return Err(Error::new(
                            Code::TransformArgs,
                            "--replace applies to piped llm search/ast/find output, not to edit requests",
                            "put the new text in each edit's `new_content`, or drop --replace",
                        ));
                    }
                    ("request".to_string(), request::plan(values, origin)?)
                }
                request::Parsed::Query(q) => {
                    let command = q.command.clone();
                    (command, chain::plan(q, opts.replace.as_deref())?)
                }
            };
            apply_cli_checksum(&mut planned, opts.expected_checksum.as_deref())?;
            let mut changes = Vec::with_capacity(planned.len());
            for p in planned {
                changes.push(resolve(p, mopts)?);
            }
            if changes.iter().all(|c| match &c.content {
                mutation::Content::Edits(e) => e.is_empty(),
                mutation::Content::Replace(_) | mutation::Content::Delete => false,
            }) {
                return Err(Error::new(
                    Code::NoEdits,
                    format!("{origin} holds no edits"),
                    "give each request at least one edit in `edits`",
                ));
            }
            (source, None, changes)
        }
    };
    let (result, mut diagnostics) = mutation::run(&changes, mopts)?;
    if let Some(how) = matched_with.filter(|m| *m != "exact") {
        let what = if how == "line_endings" {
            "after normalising line endings"
        } else {
            "with a uniform indentation offset (the new text was re-indented the same way)"
        };
        diagnostics.push(DiagnosticPayload {
            tool: "transform".into(),
            level: Level::Note,
            code: None,
            message: format!("--old matched {what}"),
            file: result.files.first().map(|f| f.file_path.clone()),
            span: None,
            note: None,
            remediation: None,
        });
    }
    let message = summary(&result);
    Ok(TransformOutcome {
        data: TransformData {
            source,
            matched_with,
            mutation: result,
        },
        diagnostics,
        message,
    })
}

fn summary(r: &MutationResult) -> String {
    let edits = r.applied_count;
    let files = r.files.len();
    let what = format!(
        "{edits} edit{} in {files} file{} (+{} -{} lines)",
        if edits == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
        r.lines_added,
        r.lines_removed
    );
    if r.dry_run {
        format!("dry run: would apply {what}; nothing written")
    } else {
        format!("applied {what}")
    }
}

/// Refuses when the bytes read do not have the caller's checksum (the core checks again).
fn check_expected(expected: Option<&str>, bytes: &[u8], display: &str) -> Result<(), Error> {
    expect_checksum(
        expected,
        bytes,
        display,
        "re-run the query that produced the edit (or re-read the file) and build the edit from the current content",
    )
}

/// Refuses (`LLM_E101`, with `remediation`) when `bytes` do not have the checksum `expected`;
/// a malformed checksum is `LLM_E116`. Nothing expected passes.
pub(crate) fn expect_checksum(
    expected: Option<&str>,
    bytes: &[u8],
    display: &str,
    remediation: &str,
) -> Result<(), Error> {
    let Some(expected) = expected else {
        return Ok(());
    };
    crate::mutation::valid_checksum(expected, display)?;
    let actual = checksum(bytes);
    if expected.eq_ignore_ascii_case(&actual) {
        return Ok(());
    }
    Err(crate::mutation::changed_since_read(
        display,
        expected,
        &actual,
        remediation,
    ))
}

/// `--expected-checksum` names the checksum of the one file the input touches.
fn apply_cli_checksum(planned: &mut [Planned], cli: Option<&str>) -> Result<(), Error> {
    let Some(cli) = cli else { return Ok(()) };
    if planned.len() != 1 {
        return Err(Error::new(
            Code::TransformArgs,
            format!(
                "--expected-checksum names one file's checksum but the input touches {} files",
                planned.len()
            ),
            "put each file's `expected_checksum` in its edit request, or drop --expected-checksum",
        ));
    }
    let p = &mut planned[0];
    match &p.expected {
        Some(given) if !given.eq_ignore_ascii_case(cli) => Err(Error::new(
            Code::TransformArgs,
            format!(
                "--expected-checksum {cli} contradicts the input's checksum {given} for {}",
                display_path(&p.path)
            ),
            "drop --expected-checksum (the input's checksum is used), or fix it",
        )),
        _ => {
            p.expected = Some(cli.to_string());
            Ok(())
        }
    }
}

/// Turns planned edits into a core [`Change`]: reads the file when an edit needs its bytes
/// (line/column positions, recorded old texts, templates), and then pins the checksum of
/// those bytes so the core refuses a file that changed in between.
fn resolve(p: Planned, mopts: &mutation::MutationOptions) -> Result<Change, Error> {
    let needs_bytes = p.edits.iter().any(|e| {
        matches!(e.pos, Pos::Lines { .. } | Pos::Checked { .. })
            || e.old.is_some()
            || matches!(e.new, NewText::Template(..))
    });
    if !needs_bytes {
        let edits = p
            .edits
            .into_iter()
            .map(|e| match (e.pos, e.new) {
                (Pos::Bytes(s, end), NewText::Text(t)) => Edit {
                    byte_start: s,
                    byte_end: end,
                    new_content: t,
                },
                _ => unreachable!("needs_bytes covers the other cases"),
            })
            .collect();
        return Ok(Change::edits(p.path, edits, p.expected));
    }
    let display = display_path(&p.path);
    let bytes = read_target(&mopts.root, mopts.allow_outside_root, &p.path, &display)?;
    check_expected(p.expected.as_deref(), &bytes, &display)?;
    let expected = Some(p.expected.clone().unwrap_or_else(|| checksum(&bytes)));
    let edits = resolve_on(p.edits, p.expected.is_some(), &bytes, &display)?;
    Ok(Change::edits(p.path, edits, expected))
}

/// The byte edits of planned edits on `bytes` (the file `display` as it is, or as earlier
/// operations of an `llm apply` batch left it): positions resolved, recorded old texts
/// checked, templates expanded. `checked` says the caller's checksum matched these bytes.
pub(crate) fn resolve_on(
    planned: Vec<PlannedEdit>,
    checked: bool,
    bytes: &[u8],
    display: &str,
) -> Result<Vec<Edit>, Error> {
    let display = display.to_string();
    let index = LineIndex::new(bytes);
    let mut edits = Vec::with_capacity(planned.len());
    for (i, e) in planned.into_iter().enumerate() {
        let (start, end) = match e.pos {
            Pos::Bytes(s, end) => (s, end),
            Pos::Lines { start, end } => (
                line_offset(&index, start, i, &display)?,
                line_offset(&index, end, i, &display)?,
            ),
            Pos::Checked { bytes, start, end } => {
                let agrees = |pos: Option<(usize, usize)>, byte: usize| {
                    pos.is_none_or(|(line, col)| {
                        index
                            .line_range(line)
                            .is_some_and(|r| col <= r.len() && r.start + col == byte)
                    })
                };
                if !agrees(start, bytes.0) || !agrees(end, bytes.1) {
                    return Err(Error::new(
                        Code::BadRequest,
                        format!(
                            "edit {i}: bytes [{}, {}) and the line/column positions given with them name different places in {display}",
                            bytes.0, bytes.1
                        ),
                        "send positions that agree (as `llm search`/`find` print them), or only one of them",
                    )
                    .with_file(&display));
                }
                bytes
            }
        };
        if let Some(old) = &e.old {
            let now = bytes.get(start..end);
            if now != Some(old.as_slice()) {
                let (message, remediation) =
                    mismatch(i, &display, bytes, &index, start..end, old, checked);
                let mut err = Error::new(Code::OldTextMismatch, message, remediation)
                    .with_file(&display)
                    .rejected();
                if start <= end && end <= bytes.len() {
                    err = err.with_span(index.span(&display, start..end));
                }
                return Err(err);
            }
        }
        let new = match e.new {
            NewText::Text(t) => t,
            NewText::Template(t, vars) => expand(&t, &vars, bytes, &display)?,
        };
        edits.push(Edit {
            byte_start: start,
            byte_end: end,
            new_content: new,
        });
    }
    Ok(edits)
}

/// The byte offset of a `(line, col)` position; refuses positions outside the file.
fn line_offset(
    index: &LineIndex,
    (line, col): (usize, usize),
    i: usize,
    display: &str,
) -> Result<usize, Error> {
    match index.line_range(line) {
        Some(r) if col <= r.len() => Ok(r.start + col),
        _ => Err(Error::new(
            Code::EditOutOfRange,
            format!("edit {i}: line {line}, column {col} is outside {display}"),
            "lines are 1-indexed and columns 0-indexed bytes: take positions from a span `llm` reported",
        )
        .with_file(display)),
    }
}

/// Expands `$name`, `${name}` and `$$` in a `--replace` template.
fn expand(t: &str, vars: &[(String, Var)], bytes: &[u8], display: &str) -> Result<Vec<u8>, Error> {
    let value = |name: &str| -> Result<Vec<u8>, Error> {
        match vars.iter().find(|(n, _)| n == name).map(|(_, v)| v) {
            Some(Var::Text(s)) => Ok(s.as_bytes().to_vec()),
            Some(Var::Range(s, e)) if s <= e && *e <= bytes.len() => Ok(bytes[*s..*e].to_vec()),
            Some(Var::Range(s, e)) => Err(Error::new(
                Code::EditOutOfRange,
                format!("capture `{name}` [{s}, {e}) is outside {display}"),
                "re-run the query: the file changed",
            )
            .with_file(display)),
            None => {
                let known: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
                Err(Error::new(
                    Code::UnknownCapture,
                    format!("--replace names `${name}` but the match has no such capture"),
                    if known.is_empty() {
                        "this match has no captures: write the replacement literally (`$$` is a literal `$`)".to_string()
                    } else {
                        format!("use one of: {}", known.iter().map(|k| format!("${k}")).collect::<Vec<_>>().join(", "))
                    },
                )
                .with_file(display))
            }
        }
    };
    let mut out = Vec::with_capacity(t.len());
    let mut rest = t;
    while let Some(at) = rest.find('$') {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let after = &rest[at + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push(b'$');
            rest = r;
        } else if let Some(r) = after.strip_prefix('{') {
            let close = r.find('}').ok_or_else(|| {
                Error::new(
                    Code::UnknownCapture,
                    "--replace has `${` without a closing `}`",
                    "write `${name}`, or `$$` for a literal `$`",
                )
            })?;
            out.extend(value(&r[..close])?);
            rest = &r[close + 1..];
        } else {
            let n = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if n == 0 {
                out.push(b'$');
                rest = after;
            } else {
                out.extend(value(&after[..n])?);
                rest = &after[n..];
            }
        }
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}

/// TRANSFORM_E008's message and remediation. With a matching checksum the file is as the edit
/// was built from, so the edit's own position is wrong: say what the range holds and where the
/// recorded text is.
fn mismatch(
    i: usize,
    display: &str,
    bytes: &[u8],
    index: &LineIndex,
    range: std::ops::Range<usize>,
    old: &[u8],
    unchanged: bool,
) -> (String, String) {
    let at = |r: std::ops::Range<usize>| {
        let (l, c) = index.position(r.start);
        format!("line {l}, column {}", c + 1)
    };
    if !unchanged {
        return (
            format!(
                "edit {i}: {display} does not hold the recorded old text at [{}, {}) ({}); nothing was written",
                range.start,
                range.end,
                at(range.clone())
            ),
            "the file changed since the edit was built: re-run the query and rebuild the edit"
                .to_string(),
        );
    }
    let short = |b: &[u8]| {
        let t = String::from_utf8_lossy(b);
        let t: String = t.chars().take(60).collect();
        format!("{t:?}")
    };
    let holds = bytes.get(range.clone()).map_or(
        "nothing (the range is past the end of the file)".to_string(),
        short,
    );
    let elsewhere: Vec<usize> = if old.is_empty() {
        Vec::new()
    } else {
        memchr::memmem::find_iter(bytes, old).take(5).collect()
    };
    let message = format!(
        "edit {i}: the file is unchanged (its checksum matches) but the edit's range [{}, {}) ({}) holds {} instead of the recorded old text {}: the edit's position is wrong; nothing was written",
        range.start,
        range.end,
        at(range.clone()),
        holds,
        short(old)
    );
    let remediation = match elsewhere.as_slice() {
        [] => "the recorded old text is nowhere in the file: rebuild the edit from the file's current content".to_string(),
        [one] => format!(
            "the recorded old text is at [{one}, {}) ({}): fix the edit's position (byte_start/byte_end or its lines) to that",
            one + old.len(),
            at(*one..*one)
        ),
        many => format!(
            "the recorded old text occurs at byte offsets {}: point the edit at the one meant",
            many.iter().map(|o| o.to_string()).collect::<Vec<_>>().join(", ")
        ),
    };
    (message, remediation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_expand_captures() {
        let vars = vec![
            ("name".to_string(), Var::Range(3, 7)),
            ("x".to_string(), Var::Text("X".into())),
        ];
        let got = expand("new_$name(${x}) $$1 $", &vars, b"fn main() {}", "f").unwrap();
        assert_eq!(got, b"new_main(X) $1 $");
        let e = expand("$nope", &vars, b"", "f").unwrap_err();
        assert_eq!(e.code, Code::UnknownCapture);
    }
}
