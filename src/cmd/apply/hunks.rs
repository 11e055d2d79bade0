//! Placing hunks in a file: exactly, then tolerantly (trailing whitespace, indentation, Unicode
//! punctuation), nearest to the patch's line hint and in order; the file's line endings and BOM
//! are kept. A hunk that cannot be placed is refused with the closest region of the file.

use super::diff::{FilePatch, Hunk, Line};
use crate::edit::BOM;
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use serde::Serialize;

/// Where one hunk went.
#[derive(Debug, Clone, Serialize)]
pub struct HunkReport {
    pub file_path: String,
    /// Position of the hunk in its file's part of the patch (0-based).
    pub index: usize,
    /// `exact`, `whitespace` (trailing), `indentation` or `punctuation` (Unicode dashes,
    /// quotes, spaces).
    pub matched_with: &'static str,
    /// 1-based line of the file (before the patch) where the hunk's old lines start; for a
    /// hunk that only adds, the line it adds after (0: at the top), as `@@ -N,0` names it.
    pub start_line: usize,
    /// Lines between where the patch said (`@@ -N`) and where the hunk was found; 0 when the
    /// patch gave no line.
    pub offset: i64,
    pub lines_removed: usize,
    pub lines_added: usize,
}

/// A line of the file with its own terminator (`\n`, `\r\n`, or none at the end).
struct FileLine<'a> {
    text: &'a str,
    eol: &'a str,
}

fn split(text: &str) -> Vec<FileLine<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let (line, eol) = if i > 0 && rest.as_bytes()[i - 1] == b'\r' {
                    (&rest[..i - 1], &rest[i - 1..=i])
                } else {
                    (&rest[..i], &rest[i..=i])
                };
                out.push(FileLine { text: line, eol });
                rest = &rest[i + 1..];
            }
            None => {
                out.push(FileLine {
                    text: rest,
                    eol: "",
                });
                rest = "";
            }
        }
    }
    out
}

/// Unicode punctuation an editor or a model may have substituted, mapped to ASCII.
fn punct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => out.push('-'),
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => out.push('\''),
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => out.push('"'),
            '\u{2026}' => out.push_str("..."),
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
                out.push(' ')
            }
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

const LEVELS: [&str; 4] = ["exact", "whitespace", "indentation", "punctuation"];

fn same(level: usize, file: &str, patch: &str) -> bool {
    match level {
        0 => file == patch,
        1 => file.trim_end() == patch.trim_end(),
        2 => file.trim() == patch.trim(),
        _ => punct(file) == punct(patch),
    }
}

fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// The patched content of one file, and a report per hunk. `bytes` is the file as it is.
pub fn apply(
    bytes: &[u8],
    fp: &FilePatch,
    display: &str,
) -> Result<(Vec<u8>, Vec<HunkReport>), Error> {
    // A move or a mode change alone reads no text (the file may be binary).
    if fp.hunks.is_empty() {
        return Ok((bytes.to_vec(), Vec::new()));
    }
    let bom = bytes.starts_with(BOM);
    let body = &bytes[if bom { BOM.len() } else { 0 }..];
    let text = std::str::from_utf8(body).map_err(|e| {
        Error::new(
            Code::ApplyBadPatch,
            format!(
                "{display} is not UTF-8 text (byte {}): a text patch cannot apply to it",
                e.valid_up_to()
            ),
            "write the file whole with `llm write`, or edit its bytes with `llm transform`",
        )
        .with_file(display)
    })?;
    let lines = split(text);
    let ending = if lines.iter().any(|l| l.eol == "\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut out: Vec<(String, &str)> = Vec::with_capacity(lines.len() + 16);
    let mut reports = Vec::new();
    let mut cursor = 0;
    let mut touched_end = None;
    // How far the last hunk was from its line number: later hunks of a file changed above
    // them are as far off.
    let mut carried = 0i64;
    for (k, hunk) in fp.hunks.iter().enumerate() {
        let old = hunk.old();
        let (start, level) = match locate(&lines, hunk, &old, cursor, carried) {
            Ok(found) => found,
            Err(Unplaced::Ambiguous(at)) => return Err(ambiguous(hunk, &old, &at, display, k)),
            Err(Unplaced::Applied(at)) => return Err(applied(hunk, at, display, k)),
            Err(why) => return Err(unplaced(&lines, hunk, &old, cursor, display, k, why)),
        };
        let hint = named(hunk);
        if let Some(h) = hint {
            carried = start as i64 - h as i64;
        }
        for l in &lines[cursor..start] {
            out.push((l.text.to_string(), l.eol));
        }
        // Indentation the file has where the patch has another (matched by `indentation`).
        let shift = (level >= 2)
            .then(|| {
                hunk.lines
                    .iter()
                    .filter(|l| !matches!(l, Line::Add(_)))
                    .zip(&lines[start..])
                    .find_map(|(p, f)| {
                        let p = match p {
                            Line::Context(t) | Line::Remove(t) => t,
                            Line::Add(_) => unreachable!(),
                        };
                        (!p.trim().is_empty() && !f.text.trim().is_empty())
                            .then(|| (leading_ws(p).to_string(), leading_ws(f.text).to_string()))
                    })
            })
            .flatten();
        let mut j = start;
        let (mut removed, mut added) = (0, 0);
        for l in &hunk.lines {
            match l {
                Line::Context(_) => {
                    out.push((lines[j].text.to_string(), lines[j].eol));
                    j += 1;
                }
                Line::Remove(_) => {
                    removed += 1;
                    j += 1;
                }
                Line::Add(t) => {
                    added += 1;
                    let t = match &shift {
                        Some((p, f)) if t.starts_with(p.as_str()) => {
                            format!("{f}{}", &t[p.len()..])
                        }
                        _ => t.clone(),
                    };
                    out.push((t, ending));
                }
            }
        }
        cursor = j;
        if j == lines.len() {
            touched_end = Some(hunk);
        }
        reports.push(HunkReport {
            file_path: display.to_string(),
            index: k,
            matched_with: LEVELS[level],
            // A hunk that only adds names the line it adds after, as `@@ -N,0` does.
            start_line: if old.is_empty() { start } else { start + 1 },
            offset: hint.map_or(0, |h| start as i64 - h as i64),
            lines_removed: removed,
            lines_added: added,
        });
    }
    for l in &lines[cursor..] {
        out.push((l.text.to_string(), l.eol));
    }
    // The end of the file: what the patch says about its last newline wins where it touched
    // the end; a Codex patch always ends a file it wrote with a newline.
    if let Some(last) = out.last_mut() {
        if let Some(h) = touched_end {
            if h.new_no_newline {
                last.1 = "";
            } else if last.1.is_empty() && (fp.codex || h.old_no_newline) {
                last.1 = ending;
            }
        }
    }
    let mut new = Vec::with_capacity(bytes.len() + 64);
    if bom && !fp.drop_bom {
        new.extend_from_slice(BOM);
    }
    for (t, eol) in &out {
        new.extend_from_slice(t.as_bytes());
        new.extend_from_slice(eol.as_bytes());
    }
    Ok((new, reports))
}

/// The lines `hunk` adds.
fn added_lines(hunk: &Hunk) -> Vec<&str> {
    (hunk.lines.iter())
        .filter_map(|l| match l {
            Line::Add(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether `added` stand in `lines` from line `at` on (0-based), at the most tolerant level.
fn stand_at(lines: &[FileLine], added: &[&str], at: usize) -> bool {
    at + added.len() <= lines.len()
        && (added.iter().zip(&lines[at..])).all(|(p, f)| same(LEVELS.len() - 1, f.text, p))
}

/// Why a hunk has no place.
enum Unplaced {
    NotFound,
    /// A hunk without context lines whose old lines are neither at its line (0-based; with
    /// tolerance) nor exactly in one other place.
    NotAtLine(usize),
    /// A hunk that must start (`Edge::Start`) or end the file, and does not there.
    NotAtEdge(Edge),
    /// A hunk without context lines whose added lines are at its line (0-based).
    Applied(usize),
    /// A hunk without context lines whose old lines are at each of these lines (0-based).
    Ambiguous(Vec<usize>),
}

/// An end of the file a hunk is tied to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    Start,
    End,
}

/// The 0-based line the patch names for `hunk`: where its old lines start, or, for a hunk
/// that only adds (`@@ -N,0`), the line it adds after (0: at the top). None without a number.
fn named(hunk: &Hunk) -> Option<usize> {
    let n = hunk.old_start?;
    Some(if hunk.old().is_empty() {
        n
    } else {
        n.saturating_sub(1)
    })
}

/// The end of the file `hunk` is tied to, as git apply reads it: a `\ No newline at end of
/// file` on its old side ends the file; so does a numbered hunk with context before its
/// changes and none after (a diff tool cuts context only at the end of the file), and a hunk
/// at line 1 with less context before its changes than after starts it. A bare `@@` hunk,
/// written by hand, is placed by its lines alone. (GNU patch also ties a hunk with less, but
/// some, context after its changes than before to the end; not here: a hunk written by hand
/// often has uneven context.)
fn edge(hunk: &Hunk) -> Option<Edge> {
    if hunk.old_no_newline {
        return Some(Edge::End);
    }
    let n = hunk.old_start?;
    let context = |l: &&Line| matches!(l, Line::Context(_));
    let leading = hunk.lines.iter().take_while(context).count();
    let trailing = hunk.lines.iter().rev().take_while(context).count() + hunk.blank_tail;
    if leading == hunk.lines.len() {
        return None;
    }
    if leading > 0 && trailing == 0 {
        Some(Edge::End)
    } else if n <= 1 && leading < trailing {
        Some(Edge::Start)
    } else {
        None
    }
}

/// Where `hunk` goes: (first line, tolerance level). `carried` is how far the previous hunk
/// was from its line number: the hunk is looked for as far from its own.
///
/// - A hunk tied to an end of the file (see [`edge`]) goes there or nowhere, matched exactly
///   or but for trailing whitespace.
/// - A hunk with context lines is looked for nearest its line, anywhere after the previous
///   hunk.
/// - One without (`diff -U0`, or a bare `@@` of removed lines) has nothing to tell its place
///   from another with the same lines: it goes at its line number (tolerantly), else where
///   its old lines are found exactly, once; in several places, or with its added lines
///   already at its line, it has none. Searched like the others, a `-U0` patch applied twice
///   changed the next equal line instead, and a `-U0` hunk changed a `}` of another
///   indentation dozens of lines away. Without a line number, it goes where its old lines
///   are found once, tolerantly.
/// - One that only adds goes after its line (`@@ -N,0`), or, without a number, at the end
///   (Codex: after its `@@` line).
fn locate(
    lines: &[FileLine],
    hunk: &Hunk,
    old: &[&str],
    cursor: usize,
    carried: i64,
) -> Result<(usize, usize), Unplaced> {
    let mut from = cursor;
    if let Some(anchor) = &hunk.anchor {
        let found = (0..LEVELS.len())
            .find_map(|level| (cursor..lines.len()).find(|&i| same(level, lines[i].text, anchor)));
        match found {
            Some(i) => from = i + 1,
            // An anchor that is the first old line itself (models write it so) is no anchor.
            None if old.first().is_some_and(|f| f.trim() == anchor.trim()) => {}
            None => return Err(Unplaced::NotFound),
        }
    }
    // The line the patch names, moved as far as the previous hunk was.
    let moved = named(hunk).map(|h| h as i64 + carried);
    if old.is_empty() {
        let at = match moved {
            Some(at) => (at.max(0) as usize).clamp(from, lines.len().max(from)),
            None if hunk.anchor.is_some() => from,
            None => lines.len(),
        };
        // Without a line number, lines added already where they go (or, appending, at the
        // end) were added by this patch before: applied again, it added them a second time.
        // (Blank lines alone say nothing: adding one beside another is common.) With one,
        // they go there as git puts them: a line duplicated (`A B C` to `A B B C`) is such
        // a hunk too.
        if moved.is_none() {
            let added = added_lines(hunk);
            let here = if at == lines.len() {
                lines.len().checked_sub(added.len())
            } else {
                Some(at)
            };
            if added.iter().any(|t| !t.trim().is_empty())
                && here.is_some_and(|s| stand_at(lines, &added, s))
            {
                return Err(Unplaced::Applied(here.unwrap_or(at)));
            }
        }
        return Ok((at, 0));
    }
    let fits = |level: usize, s: usize| {
        s + old.len() <= lines.len()
            && old
                .iter()
                .zip(&lines[s..])
                .all(|(p, f)| same(level, f.text, p))
    };
    // Tied to an end of the file: there, exactly or but for trailing whitespace. (By
    // indentation, the `\t\t}` / `\t}` a hunk ended a function with fitted the file's last
    // `\t}` / `}`.)
    if let Some(e) = edge(hunk) {
        let at = match e {
            Edge::Start => Some(0),
            Edge::End => lines.len().checked_sub(old.len()),
        };
        return match at.filter(|&at| at >= from) {
            Some(at) => (0..=1)
                .find(|&l| fits(l, at))
                .map(|level| (at, level))
                .ok_or(Unplaced::NotAtEdge(e)),
            None => Err(Unplaced::NotAtEdge(e)),
        };
    }
    if old.len() > lines.len().saturating_sub(from) {
        return Err(Unplaced::NotFound);
    }
    let last = lines.len() - old.len();
    let context_free = !hunk.lines.iter().any(|l| matches!(l, Line::Context(_)));
    if context_free && !hunk.at_eof {
        if let Some(moved) = moved {
            let at = usize::try_from(moved).ok().filter(|&a| a >= from);
            if let Some(at) = at {
                if let Some(level) = (0..LEVELS.len()).find(|&l| fits(l, at)) {
                    return Ok((at, level));
                }
                // Its added lines stand where it goes: applied already (a second time, the
                // hunk changed the next equal line further down).
                let added = added_lines(hunk);
                if !added.is_empty() && stand_at(lines, &added, at) {
                    return Err(Unplaced::Applied(at));
                }
            }
            // Away from its line, only its exact lines, once.
            let at_exact: Vec<usize> = (from..=last).filter(|&s| fits(0, s)).collect();
            return match at_exact[..] {
                [] => Err(Unplaced::NotAtLine(moved.max(0) as usize)),
                [one] => Ok((one, 0)),
                _ => Err(Unplaced::Ambiguous(at_exact)),
            };
        }
        if hunk.anchor.is_none() {
            for level in 0..LEVELS.len() {
                let at: Vec<usize> = (from..=last).filter(|&s| fits(level, s)).collect();
                match at[..] {
                    [] => continue,
                    [one] => return Ok((one, level)),
                    _ => return Err(Unplaced::Ambiguous(at)),
                }
            }
            return Err(Unplaced::NotFound);
        }
    }
    let hint = moved.map_or(from, |m| m.max(0) as usize).clamp(from, last);
    for level in 0..LEVELS.len() {
        if hunk.at_eof && fits(level, last) {
            return Ok((last, level));
        }
        // Nearest to the hint first, looking both ways.
        for d in 0..=(hint - from).max(last - hint) {
            if hint + d <= last && fits(level, hint + d) {
                return Ok((hint + d, level));
            }
            if d > 0 && hint >= from + d && fits(level, hint - d) {
                return Ok((hint - d, level));
            }
        }
    }
    Err(Unplaced::NotFound)
}

/// The refusal of a hunk without context lines whose added lines are already where it goes:
/// at its line (it removes lines that are not there), or, without a line number, where it
/// adds.
fn applied(hunk: &Hunk, at: usize, display: &str, k: usize) -> Error {
    Error::new(
        Code::ApplyHunkNotFound,
        format!(
            "{display}: hunk {} (patch line {}) has no context lines and its added lines are already at line {}: it looks applied already; nothing was written",
            k + 1,
            hunk.patch_line,
            at + 1
        ),
        if hunk.old().is_empty() {
            "check the file (`llm show FILE`) before applying the patch again; to add the lines anyway (a second time), give the hunk a context line (` LINE`: the line before them) or, in a unified diff, its line number (`@@ -N,0 +M @@` adds after line N)"
        } else {
            "check the file (`llm show FILE`) before applying the patch again: its removed lines are not at its line and its added lines are; a hunk with context lines (`diff -u`) tells where it goes"
        },
    )
    .with_file(display)
    .rejected()
}

/// The refusal of a hunk without context lines whose old lines are in several places.
fn ambiguous(hunk: &Hunk, old: &[&str], at: &[usize], display: &str, k: usize) -> Error {
    let shown: Vec<String> = at.iter().take(5).map(|a| (a + 1).to_string()).collect();
    Error::new(
        Code::ApplyHunkAmbiguous,
        format!(
            "{display}: hunk {} (patch line {}) has no context lines, and its {} removed line{} {} at lines {}{}; nothing was written",
            k + 1,
            hunk.patch_line,
            old.len(),
            if old.len() == 1 { "" } else { "s" },
            if old.len() == 1 { "is" } else { "are" },
            shown.join(", "),
            if at.len() > shown.len() { ", …" } else { "" },
        ),
        "add context lines to the hunk (a `diff -u` or `git diff` has three), or a line number (`@@ -N +N @@`), so that it names one place",
    )
    .with_file(display)
    .rejected()
}

/// The refusal of a hunk: the closest region of the file (most lines equal but for
/// whitespace) and its first differing line.
fn unplaced(
    lines: &[FileLine],
    hunk: &Hunk,
    old: &[&str],
    cursor: usize,
    display: &str,
    k: usize,
    why: Unplaced,
) -> Error {
    let n = old.len();
    let lines_ = if n == 1 { "line" } else { "lines" };
    let what = match (&why, &hunk.anchor) {
        (Unplaced::NotAtEdge(Edge::End), _) => format!(
            "it ends the file ({}) but the file's last {n} {lines_} are not its old {lines_}",
            if hunk.old_no_newline {
                "`\\ No newline at end of file` follows its old side"
            } else {
                "no context line follows its changes"
            }
        ),
        (Unplaced::NotAtEdge(Edge::Start), _) => format!(
            "it starts the file (at line 1, with less context before its changes than after) but the file's first {n} {lines_} are not its old {lines_}{}",
            if cursor > 0 { " (or an earlier hunk is there)" } else { "" }
        ),
        (Unplaced::NotAtLine(at), _) => format!(
            "it has no context lines and its {n} removed {lines_} {} not at line {} (where it goes, moved as far as the hunk before it) nor exactly anywhere else",
            if n == 1 { "is" } else { "are" },
            at + 1
        ),
        (_, Some(a)) if !(cursor..lines.len()).any(|i| same(3, lines[i].text, a)) => {
            format!("its `@@ {a}` line is not in the file after line {cursor}")
        }
        _ => format!(
            "its {} old line{} (context and removed) are not in the file{}",
            old.len(),
            if old.len() == 1 { "" } else { "s" },
            if cursor > 0 {
                format!(" after line {cursor} (hunks apply in order)")
            } else {
                String::new()
            }
        ),
    };
    // Each file line that equals an old line votes for the start that would align them: the
    // start with most votes is the closest region (the first of equals). Comparing every start
    // with every old line took hunk × file comparisons (a 3,000-line hunk against a
    // 200,000-line file: over 20 s).
    let mut best: Option<(usize, usize)> = None;
    if !old.is_empty() && !lines.is_empty() {
        let mut at: std::collections::HashMap<String, Vec<usize>> = Default::default();
        for (j, p) in old.iter().enumerate() {
            at.entry(punct(p)).or_default().push(j);
        }
        let mut votes = vec![0usize; lines.len()];
        for (i, l) in lines.iter().enumerate() {
            for &j in at.get(&punct(l.text)).map_or(&[][..], Vec::as_slice) {
                if let Some(s) = i.checked_sub(j) {
                    votes[s] += 1;
                }
            }
        }
        for (s, &score) in votes.iter().enumerate() {
            if score > 0 && best.is_none_or(|(_, b)| score > b) {
                best = Some((s, score));
            }
        }
    }
    let mut err = Error::new(
        Code::ApplyHunkNotFound,
        format!(
            "{display}: hunk {} (patch line {}) cannot be placed: {what}; nothing was written",
            k + 1,
            hunk.patch_line
        ),
        match why {
            Unplaced::NotAtEdge(Edge::End) => "re-read the end of the file (`llm show FILE`) and rebuild the hunk from its current lines; if the hunk is not meant to end the file, add the context line that follows its changes",
            Unplaced::NotAtEdge(Edge::Start) => "re-read the start of the file (`llm show FILE:1-10`) and rebuild the hunk from its current lines; if the hunk is not meant to start the file, add the context line before its changes or give it its real line number",
            Unplaced::NotAtLine(_) => "give the hunk context lines (`diff -u`, `git diff`) or its right line number; without context a hunk is matched with tolerance only at its line",
            _ => "re-read the file (`llm show FILE:START-END`) and rebuild the hunk from its current lines",
        },
    )
    .with_file(display)
    .rejected();
    if let Some((s, score)) = best {
        let diff = old
            .iter()
            .zip(&lines[s..])
            .position(|(p, f)| !same(3, f.text, p));
        let note = match (diff, &why) {
            // All alike, but where this hunk may not go: not at the end or start of the
            // file it is tied to, away from its line without context, or before the end of
            // the previous one (or before its `@@` line).
            (None, Unplaced::NotAtEdge(e)) => format!(
                "its lines are at lines {}-{}, not at the {} of the file",
                s + 1,
                (s + old.len()).min(lines.len()),
                if *e == Edge::End { "end" } else { "start" }
            ),
            (None, Unplaced::NotAtLine(at)) if s >= cursor => format!(
                "its lines are at lines {}-{} but only with tolerance (indentation, whitespace or punctuation), which a hunk without context gets only at its line {}",
                s + 1,
                (s + old.len()).min(lines.len()),
                at + 1
            ),
            (None, _) => format!(
                "its lines are at lines {}-{}, before line {} where it may start (hunks apply in order, each after the one before and after its `@@` line): order the hunks by line, or merge those that overlap",
                s + 1,
                (s + old.len()).min(lines.len()),
                cursor + 1
            ),
            (Some(diff), _) => format!(
                "closest region: lines {}-{} ({score} of {} lines alike); first difference at line {}: the patch has {:?}, the file has {:?}",
                s + 1,
                (s + old.len()).min(lines.len()),
                old.len(),
                s + diff + 1,
                old.get(diff).copied().unwrap_or(""),
                lines.get(s + diff).map_or("(end of file)", |l| l.text)
            ),
        };
        let mut region = String::new();
        for l in lines.iter().skip(s).take(old.len()) {
            region.push_str(l.text);
            region.push('\n');
        }
        let mut d = Error::new(
            Code::ApplyHunkNotFound,
            format!(
                "closest region of {display}: lines {}-{}",
                s + 1,
                (s + old.len()).min(lines.len())
            ),
            format!(
                "compare with `llm show {display}:{}-{}`",
                s + 1,
                (s + old.len()).min(lines.len())
            ),
        )
        .with_note(region)
        .diagnostic(Level::Note);
        d.tool = "apply".into();
        err = err.with_note(note).with_related(vec![d]);
    }
    err
}

/// Checks that a file to delete holds what the diff says it removes (line endings and
/// trailing whitespace aside).
pub fn check_deleted(bytes: &[u8], fp: &FilePatch, display: &str) -> Result<(), Error> {
    // A Codex `*** Delete File` has no lines; a unified diff shows every line it deletes
    // (git: none only for an empty file).
    if fp.hunks.is_empty() && (fp.codex || bytes.is_empty()) {
        return Ok(());
    }
    let text = String::from_utf8_lossy(bytes);
    let lines = split(text.trim_start_matches('\u{feff}'));
    let old: Vec<&str> = fp.hunks.iter().flat_map(|h| h.old()).collect();
    let alike = old.len() == lines.len() && old.iter().zip(&lines).all(|(p, f)| same(1, f.text, p));
    if alike {
        return Ok(());
    }
    Err(Error::new(
        Code::ApplyHunkNotFound,
        format!(
            "{display}: the diff deletes a file of {} line{} but the file has {} that differ; nothing was written",
            old.len(),
            if old.len() == 1 { "" } else { "s" },
            lines.len()
        ),
        "re-read the file: it changed since the diff was made (delete it with an `op: delete` line if that is still meant)",
    )
    .with_file(display)
    .rejected())
}

/// The content of a file the patch adds.
pub fn added(fp: &FilePatch) -> Vec<u8> {
    let mut out = String::new();
    let mut no_newline = false;
    for h in &fp.hunks {
        for l in &h.lines {
            if let Line::Add(t) | Line::Context(t) = l {
                out.push_str(t);
                out.push('\n');
            }
        }
        no_newline |= h.new_no_newline;
    }
    if no_newline && !fp.codex {
        out.pop();
    }
    out.into_bytes()
}

/// A note-level diagnostic for a hunk placed with tolerance.
pub fn tolerance_note(r: &HunkReport) -> Option<DiagnosticPayload> {
    (r.matched_with != "exact").then(|| DiagnosticPayload {
        tool: "apply".into(),
        level: Level::Note,
        code: None,
        message: format!(
            "{}: hunk {} placed at line {} by {} matching (offset {})",
            r.file_path,
            r.index + 1,
            r.start_line,
            r.matched_with,
            r.offset
        ),
        file: Some(r.file_path.clone()),
        span: None,
        note: None,
        remediation: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::diff::{parse_codex, parse_unified};
    use super::*;

    fn run(file: &str, patch: &str) -> Result<(String, Vec<HunkReport>), Error> {
        let fp = if patch.starts_with("***") {
            parse_codex(patch)
        } else {
            parse_unified(patch)
        }?
        .remove(0);
        apply(file.as_bytes(), &fp, "f").map(|(b, r)| (String::from_utf8(b).unwrap(), r))
    }

    #[test]
    fn exact_with_offset_and_crlf_kept() {
        let (out, r) = run(
            "a\r\nb\r\nc\r\nd\r\n",
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n c\n-d\n+e\n",
        )
        .unwrap();
        assert_eq!(out, "a\r\nb\r\nc\r\ne\r\n");
        assert_eq!(
            (r[0].matched_with, r[0].offset, r[0].start_line),
            ("exact", 2, 3)
        );
    }

    #[test]
    fn tolerant_levels() {
        let (out, r) = run(
            "x = 1   \ny = 2\n",
            "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x = 1\n+x = 3\n",
        )
        .unwrap();
        assert_eq!(
            (out.as_str(), r[0].matched_with),
            ("x = 3\ny = 2\n", "whitespace")
        );
        let (out, r) = run(
            "def f():\n        a = 1\n        return a\n",
            "--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n-    a = 1\n+    a = 2\n+    a += 1\n     return a\n",
        )
        .unwrap();
        assert_eq!(r[0].matched_with, "indentation");
        assert_eq!(
            out,
            "def f():\n        a = 2\n        a += 1\n        return a\n"
        );
        let (out, r) = run(
            "s = “hi” — ok\n",
            "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-s = \"hi\" - ok\n+s = 1\n",
        )
        .unwrap();
        assert_eq!(
            (out.as_str(), r[0].matched_with),
            ("s = 1\n", "punctuation")
        );
    }

    #[test]
    fn no_newline_markers_and_bom() {
        let (out, _) = run(
            "\u{feff}a\nb",
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
        )
        .unwrap();
        assert_eq!(out, "\u{feff}a\nc\n");
        let (out, _) = run(
            "a\nb\n",
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n",
        )
        .unwrap();
        assert_eq!(out, "a\nc");
    }

    #[test]
    fn codex_anchor_eof_and_pure_addition() {
        let (out, _) = run(
            "x\nfirst\nsecond\n",
            "*** Begin Patch\n*** Update File: f\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(out, "x\nfirst\nsecond updated\n");
        let (out, _) = run(
            "a\n",
            "*** Begin Patch\n*** Update File: f\n@@\n+b\n+c\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(out, "a\nb\nc\n");
        let (out, _) = run(
            "def f():\n    return 1\ndef g():\n    return 1\n",
            "*** Begin Patch\n*** Update File: f\n@@ def g():\n-    return 1\n+    return 2\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(out, "def f():\n    return 1\ndef g():\n    return 2\n");
    }

    #[test]
    fn unplaced_hunk_names_the_closest_region() {
        let e = run(
            "fn a() {\n    one();\n    two();\n}\n",
            "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n fn a() {\n-    one();\n-    three();\n+    x();\n",
        )
        .unwrap_err();
        assert_eq!(e.code, Code::ApplyHunkNotFound);
        let note = e.note.unwrap();
        assert!(
            note.contains("lines 1-3") && note.contains("line 3"),
            "{note}"
        );
    }
}
