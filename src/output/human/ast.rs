//! Human output of `llm ast`: one ripgrep-like line per capture, `path:line:col: @name text`
//! (the capture's first line), and the `--tree` dump as an indented list of named nodes.

use super::Style;
use crate::cmd::ast::FileResult;
use crate::cmd::tree::{TreeData, TreeNode};
use std::io::{self, Write};

/// Prints one file's matches.
pub fn file(out: &mut impl Write, style: &Style, r: &FileResult) -> io::Result<()> {
    let path = style.path(&r.file.file_path);
    for m in &r.matches {
        for c in &m.captures {
            let first = c.content.lines().next().unwrap_or("");
            let more = if c.more || c.content.trim_end().contains('\n') {
                style.dim(" …")
            } else {
                String::new()
            };
            writeln!(
                out,
                "{path}:{}:{}: {} {}{more}",
                style.line_no(&c.span.start_line.to_string()),
                style.line_no(&(c.span.start_col + 1).to_string()),
                style.dim(&format!("@{}", c.name)),
                style.matched(first.trim_end_matches('\r')),
            )?;
        }
    }
    Ok(())
}

/// Prints a `--tree` result: with `--at`, the path from the root first.
pub fn tree(out: &mut impl Write, style: &Style, t: &TreeData) -> io::Result<()> {
    if let Some(path) = &t.path {
        writeln!(
            out,
            "{}",
            style.path(&format!("{} ({}) path to node:", t.file_path, t.language))
        )?;
        for (depth, n) in path.iter().enumerate() {
            let field = n
                .field
                .as_ref()
                .map(|f| format!("{f}: "))
                .unwrap_or_default();
            writeln!(
                out,
                "{}{field}{} {}",
                "  ".repeat(depth),
                n.kind,
                style.line_no(&range(&n.span))
            )?;
        }
        writeln!(out, "{}", style.path("subtree:"))?;
    }
    node(out, style, &t.root, 0)
}

fn range(s: &crate::span::Span) -> String {
    format!(
        "[{}:{}-{}:{}]",
        s.start_line, s.start_col, s.end_line, s.end_col
    )
}

fn node(out: &mut impl Write, style: &Style, n: &TreeNode, depth: usize) -> io::Result<()> {
    let field = n
        .field
        .as_ref()
        .map(|f| format!("{f}: "))
        .unwrap_or_default();
    let text = match &n.text {
        Some(t) if !t.is_empty() => {
            let first = t.lines().next().unwrap_or("");
            let cut: String = first.chars().take(60).collect();
            let ell = if cut.len() < t.trim_end().len() {
                "…"
            } else {
                ""
            };
            format!(" {}", style.matched(&format!("{cut:?}{ell}")))
        }
        _ => String::new(),
    };
    let err = if n.error { " (error)" } else { "" };
    writeln!(
        out,
        "{}{}{}{err} {}{text}",
        "  ".repeat(depth),
        style.dim(&field),
        n.kind,
        style.line_no(&range(&n.span)),
    )?;
    for c in &n.children {
        node(out, style, c, depth + 1)?;
    }
    if n.deeper {
        writeln!(
            out,
            "{}… {} levels down: `--at LINE:COL` shows what lies below",
            "  ".repeat(depth + 1),
            crate::cmd::tree::MAX_DEPTH
        )?;
    }
    Ok(())
}
