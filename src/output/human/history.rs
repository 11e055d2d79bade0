//! Human output of `llm history`: one block per operation, newest first.

use super::{escape_controls, Style};
use crate::journal::undo::HistoryData;
use std::io::{self, Write};

/// Prints each operation (id, time, status, command line) and its files.
pub fn print(out: &mut impl Write, style: &Style, data: &HistoryData) -> io::Result<()> {
    for id in &data.recovered {
        writeln!(out, "recovered interrupted operation {id}")?;
    }
    if let Some(n) = data.pruned {
        writeln!(
            out,
            "pruned {n} operation(s) from {}",
            escape_controls(&data.journal)
        )?;
        return Ok(());
    }
    if data.operations.is_empty() {
        writeln!(out, "no operations in {}", escape_controls(&data.journal))?;
        return Ok(());
    }
    for op in &data.operations {
        let r = &op.record;
        let mut state = r.status.clone();
        if let Some(rec) = &r.recovered {
            state.push_str(&format!(", recovered after a crash: {rec}"));
        }
        if let Some(by) = &op.undone_by {
            state.push_str(&format!(", undone by {by}"));
        }
        if let Some(x) = &r.undoes {
            state.push_str(&format!(", undoes {x}"));
        }
        writeln!(
            out,
            "{} {} [{}] llm {}",
            style.path(&r.execution_id),
            r.time,
            state,
            escape_controls(&r.args)
        )?;
        for f in &r.files {
            let short = |s: &Option<String>| {
                s.as_deref()
                    .map_or("(none)".to_string(), |s| s[..12.min(s.len())].to_string())
            };
            writeln!(
                out,
                "  {}: {} ({} lines) -> {} ({} lines){}",
                style.path(&escape_controls(&f.file_path)),
                short(&f.before_checksum),
                f.before_lines,
                short(&f.after_checksum),
                f.after_lines,
                if f.foreign_checksum.is_some() {
                    " [foreign bytes kept]"
                } else {
                    ""
                }
            )?;
        }
        if let Some(u) = &op.undo {
            writeln!(out, "  undo: {u}")?;
        }
    }
    Ok(())
}
