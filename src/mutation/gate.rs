//! The syntax gate of the mutation core (see [`super::prepare`]): the syntax errors a change
//! introduces, judged against the file's old ones; Python's indentation rules and the tree
//! rules tree-sitter does not enforce (Bash's empty compound commands, Go's valueless
//! constants) checked the same way; and the incremental re-parse behind them. With a region
//! scanner only the items the edits touch are parsed again.

use crate::edit;
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::lang::{self, Language};
use crate::span::LineIndex;
use std::ops::Range;

/// Syntax errors in `after` that `before` did not have: more errors than before, or any error
/// touching an edited range. Spans are in the file after the change.
#[allow(clippy::too_many_arguments)]
pub(super) fn introduced_syntax_errors(
    language: &Language,
    before: &[u8],
    before_tree: Option<&tree_sitter::Tree>,
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Vec<DiagnosticPayload> {
    // A tree of some regions only (`lang::regions`, as `llm patch` parses): the moved regions
    // are parsed again; any error there, or an edit outside them, is judged on the whole file.
    if let Some(ranges) = before_tree.and_then(|t| region_ranges(t, before.len())) {
        if let Some(moved) = move_ranges(&ranges, placed) {
            let index = LineIndex::new(after);
            if !language
                .parse_ranges(after, &index, &moved)
                .root_node()
                .has_error()
            {
                return Vec::new();
            }
        }
        return introduced_syntax_errors(
            language, before, None, after, placed, created, display, tool,
        );
    }
    let after_tree = match before_tree {
        Some(t) => reparse(language, before, t, after, placed),
        None => language.parse(after),
    };
    let after_errors = lang::syntax_errors(&after_tree);
    if after_errors.is_empty() {
        return Vec::new();
    }
    let mut before_errors = match (created, before_tree) {
        (true, _) => Vec::new(),
        (false, Some(t)) => lang::syntax_errors(t),
        (false, None) => lang::syntax_errors(&language.parse(before)),
    };
    // A file that had errors, in a language with a region scanner: the edited items are judged
    // each parsed alone, before and after, as the symbols of such a file are read (see
    // `symbols_of_items`): the whole-file recovery of an error elsewhere can swallow a new one.
    let mut after_errors = after_errors;
    if let (false, Some(scan)) = (before_errors.is_empty(), language.rules.regions) {
        let new: Vec<_> = placed.iter().map(|p| p.new.clone()).collect();
        let after_items = edited_items(after, scan, &new);
        // Before, the same items: an inserted comment joins the item after it, whose error
        // (there before) is then judged on both sides.
        let old: Vec<_> = (placed.iter().map(|p| p.old.clone()))
            .chain(after_items.iter().map(|r| unshifted(r, placed)))
            .collect();
        before_errors = item_errors(language, before, &edited_items(before, scan, &old));
        after_errors = item_errors(language, after, &after_items);
        if after_errors.is_empty() {
            return Vec::new();
        }
    }
    let touches = |r: &Range<usize>| touches_an_edit(placed, r);
    // An error that starts where one started before, outside the edits (moved by those before
    // it), is that one: its recovery may now end elsewhere (it can run over the edits). With
    // more errors than before, the others are new; else those of them the edits touch. Only
    // when that leaves none (recovery shifted every error) are all of them shown.
    let old: Vec<(usize, bool)> = before_errors
        .iter()
        .filter(|e| {
            !placed
                .iter()
                .any(|p| p.old.start <= e.range.start && e.range.start < p.old.end)
        })
        .map(|e| (shifted(&e.range, placed).start, e.missing))
        .collect();
    // Errors that started inside an edit went with the text it replaced: the edit is judged
    // against those that stay (deleting a Bash function with an old error, leaving a bare
    // `&&` after it, swapped one error for another and was written).
    let more = after_errors.len() > old.len();
    let mut shown: Vec<&lang::SyntaxError> = after_errors
        .iter()
        .filter(|e| !old.contains(&(e.range.start, e.missing)) && (more || touches(&e.range)))
        .collect();
    if shown.is_empty() && more {
        shown = after_errors.iter().collect();
    }
    let index = LineIndex::new(after);
    shown
        .into_iter()
        .map(|e| {
            let span = index.span(display, e.range.clone());
            let line =
                String::from_utf8_lossy(index.line_text(after, span.start_line)).into_owned();
            let message = if e.missing {
                format!(
                    "syntax error: missing `{}`",
                    e.expected.as_deref().unwrap_or("?")
                )
            } else {
                let text = String::from_utf8_lossy(&after[e.range.clone()]);
                let shown: String = text.chars().take(40).collect();
                format!("syntax error: unexpected `{}`", shown.trim())
            };
            let mut d = Error::new(
                Code::SyntaxIntroduced,
                format!(
                    "{message} at {display}:{}:{}",
                    span.start_line,
                    span.start_col + 1
                ),
                "fix the new text at this position, or pass --force",
            )
            .with_span(span)
            .with_note(format!(
                "{} parse of the changed file; line {}: {line}",
                language.name,
                index.position(e.range.start).0
            ))
            .diagnostic(Level::Error);
            d.tool = tool.to_string();
            d
        })
        .collect()
}

/// The ranges of the top-level items of `source` that touch one of `edited`.
fn edited_items(
    source: &[u8],
    scan: fn(&[u8]) -> lang::regions::Regions,
    edited: &[Range<usize>],
) -> Vec<Range<usize>> {
    items_touching(scan(source), edited)
}

/// The ranges of the top-level items of `regions` that touch one of `edited`.
fn items_touching(regions: lang::regions::Regions, edited: &[Range<usize>]) -> Vec<Range<usize>> {
    (regions.items.into_iter())
        .map(|i| i.range)
        .filter(|r| edited.iter().any(|e| r.start <= e.end && e.start <= r.end))
        .collect()
}

/// The syntax errors of `items` of `source`, each parsed alone.
fn item_errors(
    language: &Language,
    source: &[u8],
    items: &[Range<usize>],
) -> Vec<lang::SyntaxError> {
    let index = LineIndex::new(source);
    items
        .iter()
        .flat_map(|r| {
            lang::syntax_errors(&language.parse_ranges(source, &index, std::slice::from_ref(r)))
        })
        .collect()
}

/// Where `range` of the file after the edits `placed` lay before them: the inverse of
/// [`shifted`], an end inside an edit's new text taken to that edit's old range.
fn unshifted(range: &Range<usize>, placed: &[edit::Placed]) -> Range<usize> {
    let back = |x: usize, end: bool| {
        let mut delta = 0isize;
        for p in placed.iter().filter(|p| p.new.start <= x) {
            if x < p.new.end {
                return if end { p.old.end } else { p.old.start };
            }
            delta += p.old.len() as isize - p.new.len() as isize;
        }
        x.saturating_add_signed(delta)
    };
    back(range.start, false)..back(range.end, true)
}

/// Where `range` of the file before the edits `placed` lies after them (a range outside every
/// edit moves by the growth of the edits before it).
fn shifted(range: &Range<usize>, placed: &[edit::Placed]) -> Range<usize> {
    let mut delta = 0isize;
    for p in placed.iter().filter(|p| p.old.end <= range.start) {
        delta += p.new.len() as isize - p.old.len() as isize;
    }
    let at = |x: usize| x.saturating_add_signed(delta);
    at(range.start)..at(range.end)
}

/// Python's indentation rules, which tree-sitter does not enforce: the first indentation error
/// of `after` when `before` had none (or it lies in an edited range), as a syntax error.
pub(super) fn introduced_indentation_error(
    before: &[u8],
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Option<DiagnosticPayload> {
    let e = crate::indent::python_indentation_error(after)?;
    let touches = touches_an_edit(placed, &e.range);
    if !created && !touches && crate::indent::python_indentation_error(before).is_some() {
        return None;
    }
    let line_end =
        memchr::memchr(b'\n', &after[e.range.start..]).map_or(after.len(), |k| e.range.start + k);
    Some(rule_error(
        after,
        e.range.start..line_end,
        display,
        tool,
        |at| format!("syntax error: {} at {at}", e.message),
        "fix the indentation of the new text at this line, or pass --force",
        "Python's indentation rules",
    ))
}

/// Whether `range` of the file after the edits `placed` touches one of their new texts.
fn touches_an_edit(placed: &[edit::Placed], range: &Range<usize>) -> bool {
    placed
        .iter()
        .any(|p| range.start <= p.new.end && p.new.start <= range.end)
}

/// An error of a language rule tree-sitter does not enforce, at `range` of `after`: `message`
/// gets the place (`file:line:col`), the note names the rule and shows the line.
fn rule_error(
    after: &[u8],
    range: Range<usize>,
    display: &str,
    tool: &str,
    message: impl FnOnce(String) -> String,
    fix: &str,
    rule: &str,
) -> DiagnosticPayload {
    let index = LineIndex::new(after);
    let span = index.span(display, range);
    let line = String::from_utf8_lossy(index.line_text(after, span.start_line)).into_owned();
    let at = format!("{display}:{}:{}", span.start_line, span.start_col + 1);
    let mut d = Error::new(Code::SyntaxIntroduced, message(at), fix)
        .with_span(span.clone())
        .with_note(format!(
            "{rule} (tree-sitter accepts this); line {}: {line}",
            span.start_line
        ))
        .diagnostic(Level::Error);
    d.tool = tool.to_string();
    d
}

/// The places of a tree that break a [`TreeRule`], each with what it is.
type Breaks = Vec<(Range<usize>, &'static str)>;

/// A language's rule that tree-sitter does not enforce, read from its tree.
pub(super) struct TreeRule {
    /// The ranges of a tree that break the rule, each with what it is.
    find: fn(&tree_sitter::Tree) -> Breaks,
    /// The message, from what broke it and where (`file:line:col`).
    message: fn(&str, &str) -> String,
    fix: &'static str,
    rule: &'static str,
}

/// The tree rule of a language, if it has one: Bash's compound commands hold a command (`if
/// true; then fi`, `f() { }`, a `{ }` left with a comment only); Go's constant specs have a
/// value where no spec before them gives one (`const ( B )` left by deleting `A = iota`).
pub(super) fn tree_rule(language: &Language) -> Option<TreeRule> {
    match language.name {
        "bash" => Some(TreeRule {
            find: lang::bash::empty_bodies,
            message: |what, at| {
                format!("syntax error: a {what} without a command at {at} (bash rejects it)")
            },
            fix: "give the body a command (`:` does nothing), or pass --force",
            rule: "Bash's grammar",
        }),
        "go" => Some(TreeRule {
            find: lang::go::valueless_consts,
            message: |what, at| {
                format!("syntax error: {what} at {at} (Go rejects it: missing constant value)")
            },
            fix: "give the constant a value (`= …`), or pass --force",
            rule: "Go's grammar",
        }),
        _ => None,
    }
}

/// The first place of `after` that breaks `rule` and that an edit touches, or that `before`
/// did not have, as a syntax error. With a region scanner, only the items the edits touch are
/// parsed (a rule's break lies inside one item).
#[allow(clippy::too_many_arguments)]
pub(super) fn introduced_rule_error(
    language: &Language,
    rule: &TreeRule,
    before: &[u8],
    after: &[u8],
    placed: &[edit::Placed],
    created: bool,
    display: &str,
    tool: &str,
) -> Option<DiagnosticPayload> {
    let parse = |src: &[u8], edited: &[Range<usize>]| {
        // One scan of the file: its items, when they parse apart.
        let regions = language.rules.regions.map(|scan| scan(src));
        match regions
            .filter(|r| r.independent)
            .map(|r| items_touching(r, edited))
        {
            Some(items) if !items.is_empty() => {
                language.parse_ranges(src, &LineIndex::new(src), &items)
            }
            _ => language.parse(src),
        }
    };
    let new: Vec<_> = placed.iter().map(|p| p.new.clone()).collect();
    let now = (rule.find)(&parse(after, &new));
    if now.is_empty() {
        return None;
    }
    // A created file had none.
    let had = if created {
        Vec::new()
    } else {
        let old: Vec<_> = placed.iter().map(|p| p.old.clone()).collect();
        (rule.find)(&parse(before, &old))
    };
    let touches = |r: &Range<usize>| touches_an_edit(placed, r);
    let (range, what) = now
        .into_iter()
        .find(|(r, _)| touches(r) || !had.iter().any(|(o, _)| shifted(o, placed) == *r))?;
    Some(rule_error(
        after,
        range,
        display,
        tool,
        |at| (rule.message)(what, &at),
        rule.fix,
        rule.rule,
    ))
}

/// The byte ranges a tree of some regions was parsed from; `None` for a whole-file tree.
fn region_ranges(tree: &tree_sitter::Tree, len: usize) -> Option<Vec<Range<usize>>> {
    let ranges = tree.included_ranges();
    let whole = ranges.len() == 1 && ranges[0].start_byte == 0 && ranges[0].end_byte >= len;
    (!whole).then(|| ranges.iter().map(|r| r.start_byte..r.end_byte).collect())
}

/// `ranges` (before the edits) moved and stretched by the edits, each of which must lie inside
/// one of them (touching an end counts); `None` when one does not.
fn move_ranges(ranges: &[Range<usize>], placed: &[edit::Placed]) -> Option<Vec<Range<usize>>> {
    let inside = |p: &edit::Placed| {
        ranges
            .iter()
            .any(|r| r.start <= p.old.start && p.old.end <= r.end)
    };
    if !placed.iter().all(inside) {
        return None;
    }
    let delta = |p: &edit::Placed| p.new.len() as isize - p.old.len() as isize;
    let moved = ranges
        .iter()
        .map(|r| {
            let before: isize = placed
                .iter()
                .filter(|p| p.old.start < r.start)
                .map(delta)
                .sum();
            let through: isize = placed
                .iter()
                .filter(|p| p.old.start <= r.end)
                .map(delta)
                .sum();
            (r.start as isize + before) as usize..(r.end as isize + through) as usize
        })
        .collect();
    Some(moved)
}

/// Incremental re-parse: the old tree is told about every edit (last first, so earlier offsets
/// stay valid) and only the changed regions are parsed again.
pub(super) fn reparse(
    language: &Language,
    before: &[u8],
    tree: &tree_sitter::Tree,
    after: &[u8],
    placed: &[edit::Placed],
) -> tree_sitter::Tree {
    let mut tree = tree.clone();
    let index = LineIndex::new(before);
    let point = |off: usize| {
        let (line, col) = index.position(off);
        tree_sitter::Point {
            row: line - 1,
            column: col,
        }
    };
    for p in placed.iter().rev() {
        let start = point(p.old.start);
        let new_text = &after[p.new.clone()];
        let (rows, col) = crate::span::extent(new_text);
        let new_end = tree_sitter::Point {
            row: start.row + rows,
            column: if rows == 0 { start.column + col } else { col },
        };
        tree.edit(&tree_sitter::InputEdit {
            start_byte: p.old.start,
            old_end_byte: p.old.end,
            new_end_byte: p.old.start + new_text.len(),
            start_position: start,
            old_end_position: point(p.old.end),
            new_end_position: new_end,
        });
    }
    language
        .parser()
        .parse(after, Some(&tree))
        .unwrap_or_else(|| language.parse(after))
}
