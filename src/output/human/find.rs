//! Human output of `llm find`: `path:line:col kind qualified_name  signature` per symbol, an
//! indented tree with line numbers per file for `--outline`, and `path:line:col: context line`
//! per reference.

use super::Style;
use crate::cmd::find::{FileResult, FindItem, SymbolMatch};
use std::io::{self, Write};

/// Prints one file's result.
pub fn file(out: &mut impl Write, style: &Style, r: &FileResult, outline: bool) -> io::Result<()> {
    let path = style.path(&r.file.file_path);
    if outline {
        writeln!(out, "{path}")?;
        for it in &r.items {
            if let FindItem::Symbol(s) = it {
                outline_item(out, style, s, 0)?;
            }
        }
        return Ok(());
    }
    for it in &r.items {
        match it {
            FindItem::Symbol(m) => {
                let s = &m.symbol;
                writeln!(
                    out,
                    "{path}:{}:{} {} {}  {}",
                    style.line_no(&s.name_span.start_line.to_string()),
                    style.line_no(&(s.name_span.start_col + 1).to_string()),
                    s.kind.as_str(),
                    style.matched(&s.qualified_name),
                    style.dim(&s.signature),
                )?;
            }
            FindItem::Ref(m) => {
                let r = &m.reference;
                let ctx = if r.is_definition {
                    "definition".to_string()
                } else {
                    serde_json::to_value(r.context)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                };
                let within = r
                    .enclosing
                    .as_deref()
                    .map(|e| style.dim(&format!("  (in {e})")))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{path}:{}:{}: {} {}{within}",
                    style.line_no(&r.span.start_line.to_string()),
                    style.line_no(&(r.span.start_col + 1).to_string()),
                    style.dim(&format!("[{ctx}]")),
                    r.line_text.trim(),
                )?;
            }
        }
    }
    Ok(())
}

fn outline_item(
    out: &mut impl Write,
    style: &Style,
    m: &SymbolMatch,
    depth: usize,
) -> io::Result<()> {
    let s = &m.symbol;
    writeln!(
        out,
        "{}  {}{} {}  {}",
        style.line_no(&format!("{:>6}", s.node_span.start_line)),
        "  ".repeat(depth),
        s.kind.as_str(),
        style.matched(&s.name),
        style.dim(&s.signature),
    )?;
    for c in m.children.as_deref().unwrap_or(&[]) {
        outline_item(out, style, c, depth + 1)?;
    }
    Ok(())
}
