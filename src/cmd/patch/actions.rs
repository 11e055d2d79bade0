//! What each patch action does to the bytes around one symbol: one [`Edit`] per action, with the
//! new text re-indented to where it goes (tabs or spaces as the file uses). Line endings are
//! left to the mutation core, which writes `\n` as the file's own line ending.

use crate::edit::Edit;
use crate::error::{Code, Error};
use crate::indent::{self, Unit};
use crate::lang::symbols::{Symbol, SymbolKind};
use crate::lang::Language;

/// One patch action on a symbol (rename is handled across files in `mod.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Replace the whole definition (attributes, doc comments and decorators included).
    Replace,
    /// Replace only the body.
    Body,
    /// Remove the definition with what is attached to it (a list member's separator, a comment
    /// after it on its line) and the blank line it leaves.
    Delete,
    InsertBefore,
    InsertAfter,
    /// Rename the definition and every reference.
    Rename(String),
}

impl Action {
    /// Wire name for the result.
    pub fn as_str(&self) -> &'static str {
        match self {
            Action::Replace => "replace",
            Action::Body => "body",
            Action::Delete => "delete",
            Action::InsertBefore => "insert_before",
            Action::InsertAfter => "insert_after",
            Action::Rename(_) => "rename",
        }
    }
}

/// Start of the line holding `at`; line 1 of a file with a BOM starts after the BOM (deleting
/// its first definition otherwise kept the blank lines after it, the BOM taken for text before
/// the definition on its line).
pub(super) fn line_start(src: &[u8], at: usize) -> usize {
    let first = match src.starts_with(crate::edit::BOM) && at >= crate::edit::BOM.len() {
        true => crate::edit::BOM.len(),
        false => 0,
    };
    src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(first, |i| i + 1)
}

/// End of the line holding `at`, after its `\n` (or the end of the file).
pub(super) fn line_end_after_newline(src: &[u8], at: usize) -> usize {
    src[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |i| at + i + 1)
}

/// The end of the line starting at `start` (after its `\n`) when it holds only whitespace.
pub(super) fn is_blank_line(src: &[u8], start: usize) -> Option<usize> {
    if start >= src.len() {
        return None;
    }
    let end = line_end_after_newline(src, start);
    src[start..end]
        .iter()
        .all(|b| b.is_ascii_whitespace())
        .then_some(end)
}

/// The indentation of the line a symbol starts on.
fn indent_of(src: &[u8], at: usize) -> String {
    let start = line_start(src, at);
    let line =
        String::from_utf8_lossy(&src[start..line_end_after_newline(src, start)]).into_owned();
    indent::leading(&line).to_string()
}

/// The lines of `text` (0-based, sorted) that lie inside a multi-line string literal after
/// its first line (a docstring's, a template's, a heredoc's): their indentation is the
/// string's value, moved with the block but never converted to the file's unit.
fn string_lines(language: &Language, text: &str) -> Vec<usize> {
    if !text.contains('\n') {
        return Vec::new();
    }
    let tree = language.parse(text.as_bytes());
    let mut lines = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let (first, last) = (n.start_position().row, n.end_position().row);
        if first == last {
            continue;
        }
        let kind = n.kind();
        if kind.contains("string") || kind.contains("heredoc") || kind.contains("template") {
            lines.extend(first + 1..=last);
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The new text as sent, with CRLF made LF and surrounding blank lines dropped.
pub fn clean(text: &str) -> String {
    let t = text.replace("\r\n", "\n");
    let t = t.trim_end();
    let first = t.find(|c: char| c != '\n').unwrap_or(0);
    let t = &t[first..];
    // Drop whole leading blank lines but keep the first line's own indentation.
    let start = t
        .lines()
        .take_while(|l| l.trim().is_empty())
        .map(|l| l.len() + 1)
        .sum::<usize>();
    t[start.min(t.len())..].to_string()
}

/// The edit for `action` on `symbols[i]` (not a delete: see `delete.rs`); `text` is the new text.
pub fn edit_for(
    action: &Action,
    src: &[u8],
    symbols: &[Symbol],
    i: usize,
    text: &str,
    language: &Language,
) -> Result<Edit, Error> {
    // Bodies that are indented suites without braces (Python; Ruby's `def … end`).
    let python = matches!(language.name, "python" | "ruby");
    let s = &symbols[i];
    let unit = indent::detect_unit(&String::from_utf8_lossy(src));
    let indent = indent_of(src, s.span.byte_start);
    let text = clean(text);
    let inside = string_lines(language, &text);
    match action {
        // The text already there (line endings and blank edges aside): its bytes, as they are.
        Action::Replace if holds(src, s.span.range(), &text) => {
            Ok(Edit::new(s.span.range(), &src[s.span.range()]))
        }
        Action::Replace => {
            let new = indent::reindent_keeping(&text, &indent, &unit, true, &inside);
            // A span that ends in the `\r` of a CRLF (a C `#define` holds its line's end):
            // the `\r` stays, the new text does not carry one.
            let mut range = s.span.range();
            if src[..range.end].ends_with(b"\r") {
                range.end -= 1;
            }
            Ok(Edit::new(range, new))
        }
        Action::Body => body_edit(src, s, &text, &indent, &unit, python, &inside),
        Action::InsertBefore | Action::InsertAfter => {
            let gap = "\n".repeat(separation(src, symbols, i, language.top_level_gap));
            let new = indent::reindent_keeping(&text, &indent, &unit, false, &inside);
            if *action == Action::InsertBefore {
                let at = line_start(src, s.span.byte_start);
                Ok(Edit::new(at..at, format!("{new}\n{gap}")))
            } else {
                let end = line_end_after_newline(src, s.span.byte_end.max(1) - 1);
                if end == src.len() && !src.ends_with(b"\n") {
                    // Last line without a final newline: keep it that way.
                    Ok(Edit::new(end..end, format!("\n{gap}{new}")))
                } else {
                    Ok(Edit::new(end..end, format!("{gap}{new}\n")))
                }
            }
        }
        Action::Delete => unreachable!("a delete's edits are `delete::delete_edits`"),
        Action::Rename(_) => unreachable!("rename is applied across files by the caller"),
    }
}

/// Whether an insert's text already stands where it would go (a retried `--insert-after`/
/// `--insert-before`), line endings aside.
pub fn already_inserted(src: &[u8], edit: &Edit, before: bool) -> Option<std::ops::Range<usize>> {
    let want: Vec<u8> = edit
        .new_content
        .iter()
        .copied()
        .filter(|&b| b != b'\r')
        .collect();
    let want = String::from_utf8_lossy(&want);
    let want = want.trim_matches('\n').as_bytes();
    if want.trim_ascii().is_empty() {
        return None;
    }
    // The file's bytes beside the insertion point, `\r` dropped, with each kept byte's offset.
    let beside: Vec<(usize, u8)> = if before {
        let mut v: Vec<(usize, u8)> = src[..edit.byte_start]
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, &b)| b != b'\r')
            .take(want.len() + 64)
            .map(|(i, &b)| (i, b))
            .collect();
        v.reverse();
        v
    } else {
        src[edit.byte_end..]
            .iter()
            .enumerate()
            .filter(|(_, &b)| b != b'\r')
            .take(want.len() + 64)
            .map(|(i, &b)| (edit.byte_end + i, b))
            .collect()
    };
    let text: Vec<u8> = beside.iter().map(|&(_, b)| b).collect();
    let at = if before {
        let t = text.trim_ascii_end();
        t.ends_with(want).then(|| t.len() - want.len())
    } else {
        let skip = text.len() - text.trim_ascii_start().len();
        text[skip..].starts_with(want).then_some(skip)
    }?;
    let start = beside[at].0;
    let end = beside[at + want.len() - 1].0 + 1;
    Some(start..end)
}

/// Whether `range` of the file already holds `text` (as [`clean`] leaves both): such text goes
/// back exactly as it is, whatever its indentation (tabs, heredocs at column 0), so sending a
/// definition or body back unchanged leaves the file byte-identical.
fn holds(src: &[u8], range: std::ops::Range<usize>, text: &str) -> bool {
    std::str::from_utf8(&src[range]).is_ok_and(|old| clean(old) == text)
}

fn body_edit(
    src: &[u8],
    s: &Symbol,
    text: &str,
    indent: &str,
    unit: &Unit,
    python: bool,
    inside: &[usize],
) -> Result<Edit, Error> {
    let body = s.body_span.as_ref().ok_or_else(|| {
        Error::new(
            Code::PatchNoBody,
            format!(
                "{} `{}` has no body to replace",
                s.kind.as_str(),
                s.qualified_name
            ),
            "replace the whole definition instead (drop --body)",
        )
        .with_span(s.span.clone())
    })?;
    if holds(src, body.range(), text) {
        return Ok(Edit::new(body.range(), &src[body.range()]));
    }
    let inner = format!("{indent}{}", unit.repeat(1));
    if python {
        let block_line_start = line_start(src, body.byte_start);
        let same_line = block_line_start <= s.node_span.byte_start;
        if same_line && !text.trim().contains('\n') {
            // `def f(): return 1`, Ruby's `def y = 2`, given one line: it stays on its line.
            return Ok(Edit::new(body.range(), text.trim()));
        }
        if same_line {
            // `def f(): return 1` given several lines: put the new suite on its own lines.
            let new = indent::reindent_keeping(text, &inner, unit, false, inside);
            let mut start = body.byte_start;
            while start > 0 && (src[start - 1] == b' ' || src[start - 1] == b'\t') {
                start -= 1;
            }
            return Ok(Edit::new(start..body.byte_end, format!("\n{new}")));
        }
        let body_indent = indent_of(src, body.byte_start);
        let new = indent::reindent_keeping(text, &body_indent, unit, true, inside);
        return Ok(Edit::new(body.range(), new));
    }
    let braced = text.trim_start().starts_with('{');
    // A body that is an expression (`(x) => x + 1`, C#'s `int F() => 1;`): the new one stays
    // an expression, not a block around it (a block would return nothing).
    let old = &src[body.range()];
    if !braced && !old.starts_with(b"{") {
        let arrow = old.starts_with(b"=>") && !text.trim_start().starts_with("=>");
        let text = format!("{}{}", if arrow { "=> " } else { "" }, text.trim_start());
        return Ok(Edit::new(
            body.range(),
            indent::reindent_keeping(&text, indent, unit, true, inside),
        ));
    }
    let new = if text.as_bytes() == old {
        // The body as the file holds it goes back byte for byte, whatever its indentation.
        text.to_string()
    } else if braced && indent::already_placed(text, indent) && indent::in_unit(text, indent, unit)
    {
        // As `llm find` reports a body: `{` mid-line, the other lines at their columns, in
        // the file's unit (a body in spaces sent to a file of tabs kept its spaces).
        text.to_string()
    } else if braced {
        // The closing `}` line's indentation is the block's base: a body copied from the file
        // (`{` mid-line, `}` indented) goes back byte for byte.
        let last = text.trim_end().rsplit('\n').next().unwrap_or("");
        let lead = &last[..last.len() - last.trim_start().len()];
        let text = format!("{lead}{}", text.trim_start());
        indent::reindent_keeping(&text, indent, unit, true, inside)
    } else if text.trim().is_empty() {
        "{}".to_string()
    } else {
        format!(
            "{{\n{}\n{indent}}}",
            indent::reindent_keeping(text, &inner, unit, false, inside)
        )
    };
    Ok(Edit::new(body.range(), new))
}

/// Blank lines between the symbol and its neighbours (same parent), so an inserted item is
/// separated as they are; without any, one blank line (the language's `top_level_gap` at top
/// level), none between fields, variants and constants.
fn separation(src: &[u8], symbols: &[Symbol], i: usize, top_level_gap: usize) -> usize {
    let s = &symbols[i];
    let sibling = |j: usize| symbols[j].parent_index == s.parent_index && j != i;
    let next = (i + 1..symbols.len())
        .find(|&j| sibling(j) && symbols[j].span.byte_start >= s.span.byte_end);
    let prev = (0..i)
        .rev()
        .find(|&j| sibling(j) && symbols[j].span.byte_end <= s.span.byte_start);
    let gap = |a: &Symbol, b: &Symbol| {
        let text = &src[a.span.byte_end..b.span.byte_start];
        let lines = text.iter().filter(|&&c| c == b'\n').count();
        lines.saturating_sub(1)
    };
    match (prev, next) {
        (_, Some(n)) => gap(s, &symbols[n]),
        (Some(p), None) => gap(&symbols[p], s),
        (None, None) => match s.kind {
            SymbolKind::Field | SymbolKind::Variant | SymbolKind::Constant => 0,
            _ if s.depth == 0 => top_level_gap,
            _ => 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text() {
        assert_eq!(clean("\n\n  fn a() {}\r\n\n"), "  fn a() {}");
        assert_eq!(clean("x\r\ny\r\n"), "x\ny");
    }
}
