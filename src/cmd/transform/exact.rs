//! `llm transform` input, way 2: `FILE --old TEXT --new TEXT`. Finds the old text (exactly,
//! then after normalising line endings, then with a uniform indentation offset), insists on
//! exactly one occurrence unless `--all`, and explains a miss: every candidate, the closest
//! region and its first differing line, or that the new text is already there.

use crate::edit::{self, Edit, LineEnding};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{strip_cr, LineIndex};
use std::collections::HashSet;
use std::ops::Range;

/// Where the old text was found and what replaces it.
#[derive(Debug)]
pub struct ExactPlan {
    pub edits: Vec<Edit>,
    /// `exact`, `line_endings` or `indentation`.
    pub matched_with: &'static str,
}

/// The text arguments of exact mode.
pub struct ExactArgs<'a> {
    pub old: &'a [u8],
    pub new: &'a [u8],
    pub all: bool,
    /// Keep the new text byte for byte (no line-ending adaptation).
    pub raw: bool,
}

/// Finds `args.old` in `bytes` (the file `display`) and plans its replacement.
pub fn plan(bytes: &[u8], display: &str, args: &ExactArgs) -> Result<ExactPlan, Error> {
    if args.old.is_empty() {
        return Err(Error::new(
            Code::TransformArgs,
            "--old is empty: an empty text occurs everywhere",
            "give the exact text to replace (copy it from the file), or use an edit request with byte offsets to insert",
        ));
    }
    let ending = edit::detect_line_ending(bytes);
    let found = find_all(bytes, args.old);
    if !found.is_empty() {
        let placed_new = if args.raw {
            args.new.to_vec()
        } else {
            normalize(args.new, ending)
        };
        let found = not_in_place(bytes, display, found, args.old, &placed_new)?;
        return decide(bytes, display, args, found, args.new.to_vec(), "exact");
    }
    let old_n = normalize(args.old, ending);
    if old_n != args.old {
        let found = find_all(bytes, &old_n);
        if !found.is_empty() {
            let new = if args.raw {
                args.new.to_vec()
            } else {
                normalize(args.new, ending)
            };
            let found = not_in_place(bytes, display, found, &old_n, &new)?;
            return decide(bytes, display, args, found, new, "line_endings");
        }
    }
    let indented = find_indented(bytes, args.old);
    if !indented.is_empty() {
        let ranges: Vec<Range<usize>> = indented.iter().map(|m| m.range.clone()).collect();
        if ranges.len() == 1 || args.all {
            let mut edits = Vec::new();
            let mut placed = Vec::new();
            for m in &indented {
                let mut new = reindent(args.new, args.old, &m.old_indent, &m.file_indent);
                if !args.raw {
                    new = normalize(&new, ending);
                }
                match in_place(bytes, m.range.clone(), &bytes[m.range.clone()], &new) {
                    Some(r) => placed.push(r),
                    None => edits.push(Edit::new(m.range.clone(), new)),
                }
            }
            if !placed.is_empty() && (!args.all || edits.is_empty()) {
                return Err(already_applied(
                    bytes,
                    display,
                    &placed,
                    "--old text is there only as part of --new text",
                ));
            }
            return Ok(ExactPlan {
                edits,
                matched_with: "indentation",
            });
        }
        return Err(ambiguous(
            bytes,
            display,
            &ranges,
            " (with an indentation offset)",
        ));
    }
    if let Some(found) = already_there(bytes, args.old, args.new, ending) {
        return Err(already_applied(
            bytes,
            display,
            &found,
            "--old text is not in the file",
        ));
    }
    Err(not_found(bytes, display, args.old))
}

/// TRANSFORM_E005: the new text is in place at `found` (`why` says how that was seen).
fn already_applied(bytes: &[u8], display: &str, found: &[Range<usize>], why: &str) -> Error {
    let index = LineIndex::new(bytes);
    let lines = line_list(&index, found);
    Error::new(
        Code::AlreadyApplied,
        format!(
            "{why}: --new text is already in {display} (line {lines}), so the edit was probably applied before; nothing was written"
        ),
        "re-read the file: if it already has the change, there is nothing to do",
    )
    .with_file(display)
    .with_span(index.span(display, found[0].clone()))
    .with_note("probably already applied")
    .rejected()
    .with_related(candidates(bytes, display, found, Code::AlreadyApplied, "--new text"))
}

/// Where `new` already stands around the occurrence `at` of `old` — placed so that `old` is
/// the part of `new` it would be replaced by (`old` = `mod a;`, `new` = `mod b;\nmod a;`).
fn in_place(bytes: &[u8], at: Range<usize>, old: &[u8], new: &[u8]) -> Option<Range<usize>> {
    if old.is_empty() || new.len() <= old.len() {
        return None;
    }
    memchr::memmem::find_iter(new, old).find_map(|k| {
        let start = at.start.checked_sub(k)?;
        let r = start..start + new.len();
        (bytes.get(r.clone()) == Some(new)).then_some(r)
    })
}

/// The occurrences of `old` the edit still has to replace: a retry whose result is already in
/// place is refused (every occurrence in place). Occurrences inside the new text where it
/// already stands are not counted: with one other left, that one is replaced (`foo` →
/// `foo_bar` in `foo\nfoo_bar\n`); refusing any, as before, said "only as part of --new text"
/// of a file where `foo` stood on its own, and the change was never made.
fn not_in_place(
    bytes: &[u8],
    display: &str,
    found: Vec<Range<usize>>,
    old: &[u8],
    new: &[u8],
) -> Result<Vec<Range<usize>>, Error> {
    let (placed, rest): (Vec<_>, Vec<_>) = found
        .into_iter()
        .map(|r| (in_place(bytes, r.clone(), old, new), r))
        .partition(|(p, _)| p.is_some());
    if !placed.is_empty() && rest.is_empty() {
        let placed: Vec<Range<usize>> = placed.into_iter().filter_map(|(p, _)| p).collect();
        return Err(already_applied(
            bytes,
            display,
            &placed,
            "--old text is there only as part of --new text",
        ));
    }
    Ok(rest.into_iter().map(|(_, r)| r).collect())
}

fn decide(
    bytes: &[u8],
    display: &str,
    args: &ExactArgs,
    found: Vec<Range<usize>>,
    new: Vec<u8>,
    matched_with: &'static str,
) -> Result<ExactPlan, Error> {
    let mut found = found;
    if !args.all {
        let needle = found
            .first()
            .map(|r| bytes[r.clone()].to_vec())
            .unwrap_or_default();
        if let Some(second) = overlapping(bytes, &needle, &found) {
            found.push(second);
        }
    }
    if found.len() > 1 && !args.all {
        let how = if matched_with == "exact" {
            ""
        } else {
            " (after normalising line endings)"
        };
        return Err(ambiguous(bytes, display, &found, how));
    }
    Ok(ExactPlan {
        edits: found
            .into_iter()
            .map(|r| Edit::new(r, new.clone()))
            .collect(),
        matched_with,
    })
}

/// Non-overlapping occurrences of `needle`, left to right; none that starts or ends inside a
/// CRLF pair (an `--old` of `\nb` in `a\r\nb` is the line break, found with the file's line
/// endings: matched at the `\n` alone, it left a lone `\r`).
fn find_all(hay: &[u8], needle: &[u8]) -> Vec<Range<usize>> {
    let splits = |at: usize| at > 0 && hay[at - 1] == b'\r' && hay.get(at) == Some(&b'\n');
    memchr::memmem::find_iter(hay, needle)
        .filter(|&at| !splits(at) && !splits(at + needle.len()))
        .scan(0usize, |next, at| {
            if at < *next {
                return Some(None);
            }
            *next = at + needle.len();
            Some(Some(at..at + needle.len()))
        })
        .flatten()
        .collect()
}

/// A second occurrence of `needle` overlapping the only one found (`aba` in `ababa`): the text
/// occurs twice, and which one is meant is not known.
fn overlapping(hay: &[u8], needle: &[u8], found: &[Range<usize>]) -> Option<Range<usize>> {
    let [only] = found else { return None };
    let from = only.start + 1;
    let at = memchr::memmem::find(hay.get(from..only.end + needle.len() - 1)?, needle)? + from;
    Some(at..at + needle.len())
}

/// `text` with the file's line ending: `\n` → `\r\n` for CRLF files, `\r\n` → `\n` for LF files.
fn normalize(text: &[u8], ending: LineEnding) -> Vec<u8> {
    match ending {
        LineEnding::CrLf => edit::to_line_ending(text, ending),
        LineEnding::Lf => {
            let mut out = Vec::with_capacity(text.len());
            for (i, &b) in text.iter().enumerate() {
                if b == b'\r' && text.get(i + 1) == Some(&b'\n') {
                    continue;
                }
                out.push(b);
            }
            out
        }
    }
}

fn ambiguous(bytes: &[u8], display: &str, found: &[Range<usize>], how: &str) -> Error {
    let index = LineIndex::new(bytes);
    let lines = line_list(&index, found);
    Error::new(
        Code::OldTextAmbiguous,
        format!(
            "--old text occurs {} times in {display}{how} (lines {lines}); nothing was written",
            found.len(),
        ),
        "add surrounding lines to --old until it is unique, or pass --all to replace every occurrence",
    )
    .with_file(display)
    .rejected()
    .with_related(candidates(bytes, display, found, Code::OldTextAmbiguous, "candidate"))
}

/// At most this many candidates are listed (the message says how many there are).
const MAX_CANDIDATES: usize = 20;

/// `3, 7, 12` — the line numbers of the first occurrences, `…` when there are more.
fn line_list(index: &LineIndex, found: &[Range<usize>]) -> String {
    let mut s: Vec<String> = found
        .iter()
        .take(MAX_CANDIDATES)
        .map(|r| index.position(r.start).0.to_string())
        .collect();
    if found.len() > MAX_CANDIDATES {
        s.push(format!("… {} more", found.len() - MAX_CANDIDATES));
    }
    s.join(", ")
}

/// A note per occurrence (the first [`MAX_CANDIDATES`]), with its span and line.
fn candidates(
    bytes: &[u8],
    display: &str,
    found: &[Range<usize>],
    code: Code,
    what: &str,
) -> Vec<DiagnosticPayload> {
    let index = LineIndex::new(bytes);
    found
        .iter()
        .take(MAX_CANDIDATES)
        .enumerate()
        .map(|(i, r)| {
            let span = index.span(display, r.clone());
            let line = shorten(index.line_text(bytes, span.start_line));
            let mut d = Error::new(
                code,
                format!("{what} {} at {display}:{}: {line}", i + 1, span.start_line),
                "make --old unique or pass --all",
            )
            .with_span(span)
            .diagnostic(Level::Note);
            d.tool = "transform".into();
            d.remediation = None;
            d
        })
        .collect()
}

fn shorten(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    let t = s.trim();
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(80).collect::<String>())
    } else {
        t.to_string()
    }
}

/// A match found with a uniform indentation offset.
struct Indented {
    range: Range<usize>,
    /// Indentation common to the old text's lines (replaced by `file_indent`).
    old_indent: Vec<u8>,
    file_indent: Vec<u8>,
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

fn leading_ws(line: &[u8]) -> &[u8] {
    let n = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    &line[..n]
}

/// The common leading whitespace of the non-blank lines.
fn common_indent(lines: &[&[u8]]) -> Vec<u8> {
    let mut common: Option<&[u8]> = None;
    for l in lines.iter().filter(|l| !is_blank(l)) {
        let ws = leading_ws(l);
        common = Some(match common {
            None => ws,
            Some(c) => {
                let n = c.iter().zip(ws).take_while(|(a, b)| a == b).count();
                &c[..n]
            }
        });
    }
    common.unwrap_or(&[]).to_vec()
}

/// Lines of `text` (split at `\n`, a trailing `\r` dropped); and whether it ended with `\n`.
fn split_lines(text: &[u8]) -> (Vec<&[u8]>, bool) {
    let trailing = text.ends_with(b"\n");
    let body = if trailing {
        &text[..text.len() - 1]
    } else {
        text
    };
    (
        body.split(|&b| b == b'\n').map(strip_cr).collect(),
        trailing,
    )
}

/// Occurrences of `old`'s whole lines in `bytes` where every line carries the same extra (or
/// different) indentation.
fn find_indented(bytes: &[u8], old: &[u8]) -> Vec<Indented> {
    let (old_lines, trailing) = split_lines(old);
    if old_lines.iter().all(|l| is_blank(l)) {
        return Vec::new();
    }
    let indent = common_indent(&old_lines);
    let dedented: Vec<&[u8]> = old_lines
        .iter()
        .map(|l| {
            if is_blank(l) {
                &l[..0]
            } else {
                &l[indent.len()..]
            }
        })
        .collect();
    let first = dedented.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let index = LineIndex::new(bytes);
    let file_lines: Vec<Range<usize>> = (1..=index.line_count())
        .filter_map(|l| index.line_range(l))
        .collect();
    let n = old_lines.len();
    let mut out: Vec<Indented> = Vec::new();
    let mut i = 0;
    while i + n <= file_lines.len() {
        let line = |k: usize| strip_cr(&bytes[file_lines[i + k].clone()]);
        let f = line(first);
        let d = dedented[first];
        let ok_prefix = f.ends_with(d) && is_blank(&f[..f.len() - d.len()]);
        if ok_prefix {
            let prefix = &f[..f.len() - d.len()];
            let all = (0..n).all(|k| {
                let f = line(k);
                if dedented[k].is_empty() {
                    is_blank(f)
                } else {
                    f.len() == prefix.len() + dedented[k].len()
                        && f.starts_with(prefix)
                        && f.ends_with(dedented[k])
                }
            });
            let last = &file_lines[i + n - 1];
            let end = if trailing {
                // The old text ended with a line break: the file's line must have one too.
                (last.end < bytes.len()).then_some(last.end + 1)
            } else {
                Some(last.start + line(n - 1).len())
            };
            if let (true, Some(end)) = (all, end) {
                out.push(Indented {
                    range: file_lines[i].start..end,
                    old_indent: indent.clone(),
                    file_indent: prefix.to_vec(),
                });
                i += n;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `new` with `old_indent` replaced by `file_indent` at the start of every non-blank line: the
/// old text matched with every line shifted alike (`find_indented`), and the new text goes in
/// the same frame. Unless it reads as already placed (as `llm find` reports a span: its lines
/// after the first at the file's columns) and only that reading keeps the step the old text
/// has from its first line to its second (`x = 1` / `return x` replaced by `x = 2` /
/// `    return x`): taken as placed whenever its later lines reached the file's indentation,
/// `case y in` then `    a)` lost a level.
fn reindent(new: &[u8], old: &[u8], old_indent: &[u8], file_indent: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(new.len() + 16);
    if let (Ok(text), Ok(indent)) = (std::str::from_utf8(new), std::str::from_utf8(file_indent)) {
        let step = |t: &[u8]| -> Option<isize> {
            let mut lines = t.split(|&b| b == b'\n').filter(|l| !is_blank(strip_cr(l)));
            let (a, b) = (lines.next()?, lines.next()?);
            Some(leading_ws(b).len() as isize - leading_ws(a).len() as isize)
        };
        let (old_step, new_step) = (step(old), step(new));
        let placed_step = new_step.map(|n| n - file_indent.len() as isize);
        if text.contains('\n')
            && crate::indent::already_placed(text, indent)
            && placed_step == old_step
            && new_step != old_step
        {
            out.extend_from_slice(file_indent);
            out.extend_from_slice(new);
            return out;
        }
    }
    for (i, line) in new.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if is_blank(strip_cr(line)) {
            out.extend_from_slice(line);
            continue;
        }
        let n = old_indent
            .iter()
            .zip(line)
            .take_while(|(a, b)| a == b)
            .count();
        out.extend_from_slice(file_indent);
        out.extend_from_slice(&line[n..]);
    }
    out
}

/// Where `new` already occurs (as is, or with the file's line endings). Only for a new text
/// distinctive enough to say so: not blank, and not much shorter than the old text (a short
/// replacement such as `x` occurs by chance).
fn already_there(
    bytes: &[u8],
    old: &[u8],
    new: &[u8],
    ending: LineEnding,
) -> Option<Vec<Range<usize>>> {
    let len = |t: &[u8]| t.iter().filter(|b| !b.is_ascii_whitespace()).count();
    if len(new) == 0 || (len(new) < 8 && len(new) < len(old)) {
        return None;
    }
    let found = find_all(bytes, new);
    if !found.is_empty() {
        return Some(found);
    }
    let found = find_all(bytes, &normalize(new, ending));
    (!found.is_empty()).then_some(found)
}

/// The not-found error: the closest region of the file and its first differing line.
fn not_found(bytes: &[u8], display: &str, old: &[u8]) -> Error {
    let (old_lines, _) = split_lines(old);
    let index = LineIndex::new(bytes);
    let total = index.line_count();
    let n = old_lines.len().min(total).max(1);
    let old_text = String::from_utf8_lossy(&old_lines.join(&b'\n')).into_owned();
    let window = |start: usize| -> String {
        (start..start + n)
            .map(|l| String::from_utf8_lossy(index.line_text(bytes, l)).into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Rank every window cheaply (shared byte pairs with --old, linear in the file), then
    // compare the best few character by character (with a deadline).
    let pairs: HashSet<[u8; 2]> = old_text
        .as_bytes()
        .windows(2)
        .map(|w| [w[0], w[1]])
        .collect();
    let mut hits = vec![0usize; total + 1];
    let mut lens = vec![0usize; total + 1];
    for l in 1..=total {
        let t = index.line_text(bytes, l);
        let h = t
            .windows(2)
            .filter(|w| pairs.contains(&[w[0], w[1]]))
            .count();
        hits[l] = hits[l - 1] + h;
        lens[l] = lens[l - 1] + t.len();
    }
    let mut ranked: Vec<(f64, usize)> = (1..=total + 1 - n)
        .map(|s| {
            let h = (hits[s + n - 1] - hits[s - 1]) as f64;
            let len = (lens[s + n - 1] - lens[s - 1] + old_text.len()) as f64;
            (2.0 * h / len.max(1.0), s)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut best = (0.0f32, 1usize);
    for &(_, start) in ranked.iter().take(16) {
        let w = window(start);
        let ratio = similar::TextDiff::configure()
            .timeout(std::time::Duration::from_millis(100))
            .diff_chars(old_text.as_str(), w.as_str())
            .ratio();
        if ratio > best.0 || (ratio == best.0 && start < best.1) {
            best = (ratio, start);
        }
    }
    let (ratio, start) = best;
    let end_line = start + n - 1;
    let mut err = Error::new(
        Code::OldTextNotFound,
        format!("--old text not found in {display}; nothing was written"),
        "copy the exact current text from the file (re-read it: it may have changed) and retry",
    )
    .with_file(display)
    .rejected();
    if ratio <= 0.0 || bytes.is_empty() {
        return err.with_note("no region of the file resembles it");
    }
    let first_diff = (0..n)
        .find(|&k| old_lines.get(k).copied().unwrap_or(&[]) != index.line_text(bytes, start + k));
    let range = index.line_range(start).map_or(0, |r| r.start)
        ..index.line_range(end_line).map_or(bytes.len(), |r| r.end);
    let span = index.span(display, range);
    let mut note = format!(
        "closest region: lines {start}-{end_line} ({:.0}% similar)",
        ratio * 100.0
    );
    if first_diff.is_none() && old_lines.len() > n {
        note.push_str(&format!(
            "; the file ends at line {end_line} but --old goes on with `{}`",
            shorten(old_lines[n])
        ));
    }
    if let Some(k) = first_diff {
        let (file, old) = (
            index.line_text(bytes, start + k),
            old_lines.get(k).copied().unwrap_or(&[]),
        );
        let (a, b) = (shorten(file), shorten(old));
        if a == b {
            // They differ only in whitespace (tabs for spaces, trailing blanks, a `\r`): shown
            // trimmed, the two sides looked the same.
            note.push_str(&format!(
                "; first difference at line {}, in whitespace only: the file has {:?}, --old has {:?}",
                start + k,
                String::from_utf8_lossy(file),
                String::from_utf8_lossy(old)
            ));
        } else {
            note.push_str(&format!(
                "; first difference at line {}: the file has `{a}`, --old has `{b}`",
                start + k
            ));
        }
    }
    let mut d = Error::new(
        Code::OldTextNotFound,
        note.clone(),
        "compare --old with these lines",
    )
    .with_span(span.clone())
    .diagnostic(Level::Note);
    d.tool = "transform".into();
    err = err.with_span(span).with_note(note).with_related(vec![d]);
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args<'a>(old: &'a str, new: &'a str) -> ExactArgs<'a> {
        ExactArgs {
            old: old.as_bytes(),
            new: new.as_bytes(),
            all: false,
            raw: false,
        }
    }

    fn apply(text: &str, p: &ExactPlan) -> String {
        String::from_utf8(edit::apply(text.as_bytes(), &p.edits, "f").unwrap().bytes).unwrap()
    }

    #[test]
    fn exact_once() {
        let p = plan(b"a b c", "f", &args("b", "X")).unwrap();
        assert_eq!(p.matched_with, "exact");
        assert_eq!(apply("a b c", &p), "a X c");
    }

    #[test]
    fn ambiguous_lists_candidates() {
        let e = plan(b"x\nx\n", "f", &args("x", "y")).unwrap_err();
        assert_eq!(e.code, Code::OldTextAmbiguous);
        assert_eq!(e.related.len(), 2);
        assert_eq!(e.related[1].span.as_ref().unwrap().start_line, 2);
    }

    #[test]
    fn line_endings_fallback() {
        let text = "a\r\nb\r\nc\r\n";
        let p = plan(text.as_bytes(), "f", &args("a\nb\n", "z\n")).unwrap();
        assert_eq!(p.matched_with, "line_endings");
        assert_eq!(apply(text, &p), "z\r\nc\r\n");
    }

    #[test]
    fn indentation_fallback_reindents() {
        let text = "fn f() {\n    if x {\n        y();\n    }\n}\n";
        let p = plan(
            text.as_bytes(),
            "f",
            &args("if x {\n    y();\n}", "if z {\n    w();\n}"),
        )
        .unwrap();
        assert_eq!(p.matched_with, "indentation");
        assert_eq!(
            apply(text, &p),
            "fn f() {\n    if z {\n        w();\n    }\n}\n"
        );
    }

    #[test]
    fn already_applied_and_not_found() {
        let e = plan(b"let y = 2;\n", "f", &args("let x = 1;", "let y = 2;")).unwrap_err();
        assert_eq!(e.code, Code::AlreadyApplied);
        let e = plan(b"one\ntwo\nthree\n", "f", &args("twp", "2")).unwrap_err();
        assert_eq!(e.code, Code::OldTextNotFound);
        assert!(e.note.unwrap().contains("line 2"));
    }
}
