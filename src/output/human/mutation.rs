//! Human output shared by every mutation (transform, patch, write): a status line, one line per
//! file, and the diff of a dry run.

use super::Style;
use crate::envelope::Status;
use crate::mutation::MutationResult;
use std::io::{self, Write};

/// Prints `status: message`, then per file `path: +added -removed (n edits)`, then the diff.
pub fn print(
    out: &mut impl Write,
    style: &Style,
    status: Status,
    message: &str,
    result: Option<&MutationResult>,
) -> io::Result<()> {
    let word = match status {
        Status::Ok => "ok",
        Status::Rejected => "rejected",
        Status::Error => "error",
        Status::Partial => "partial",
        Status::NoMatches => "no changes",
    };
    writeln!(
        out,
        "{}: {}",
        style.matched(word),
        super::escape_controls(message)
    )?;
    let Some(r) = result else { return Ok(()) };
    for f in &r.files {
        writeln!(
            out,
            "  {}: +{} -{} ({} edit{}){}",
            style.path(&f.file_path),
            f.lines_added,
            f.lines_removed,
            f.applied_count,
            if f.applied_count == 1 { "" } else { "s" },
            if f.created {
                " [created]"
            } else if f.deleted {
                " [deleted]"
            } else {
                ""
            }
        )?;
    }
    if let Some(u) = &r.undo {
        writeln!(out, "  undo: {u}")?;
    }
    let diff = r.diff();
    if !diff.is_empty() {
        for line in diff.lines() {
            let shown = if !style.on {
                line.to_string()
            } else if line.starts_with("+++") || line.starts_with("---") {
                style.dim(line)
            } else if line.starts_with('+') {
                style.line_no(line)
            } else if line.starts_with('-') {
                style.matched(line)
            } else if line.starts_with("@@") {
                style.path(line)
            } else {
                line.to_string()
            };
            writeln!(out, "{shown}")?;
        }
    }
    Ok(())
}
