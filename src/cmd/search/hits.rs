//! `llm search`, per file: the context lines that human output prints as ripgrep does
//! (see [`LineHit`]): past `-m`, the after-context lines that would be selected; with `-v`,
//! the matches in context lines, to replace and highlight.

use super::find::{expand_replacement, line_matches, MAX_LOOK_AHEAD};
use super::matches::{LineHit, MatchRecord};
use super::{SearchMatcher, SearchOptions};
use grep_matcher::Matcher;

/// Matches and selected lines among the context lines of `records` (see [`LineHit`]), for
/// human output. `past_limit`: `-m` stopped the search at the last record; the after-context
/// lines there that would be selected print as matches, found as the search finds them (with
/// -U, matches that span the lines, cut at their ends). With `-v` (where the printer wants
/// them), the matches in every context line of `records`, and in the after-context lines of
/// `lead` (the previous chunk's last record, whose after-context this chunk prints).
pub(super) fn line_hits(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    bytes: &[u8],
    past_limit: bool,
    records: &[MatchRecord],
    lead: Option<&MatchRecord>,
    more: bool,
) -> Vec<LineHit> {
    let mut hits = Vec::new();
    if past_limit {
        if let Some(last) = records.last() {
            selected_after_limit(opts, matcher, bytes, last, &mut hits);
        }
    }
    let context = opts.before_context + opts.after_context > 0 || opts.passthru;
    // With -U, a pattern that cannot match `\n` is still searched line by line (as the
    // searcher does, see `find::Collect`): its matches in a context line are that line's.
    let by_line =
        !opts.multiline || (matcher.non_matching_bytes()).is_some_and(|b| b.contains(b'\n'));
    if opts.invert && opts.invert_context_hits && context && by_line {
        // Each context line once, in order.
        let mut lines = std::collections::BTreeMap::new();
        let after = |r: &MatchRecord| {
            crate::span::lines_after(bytes, r.last_end, opts.after_context)
                .enumerate()
                .map(|(i, l)| (r.last_line + 1 + i, l))
                .collect::<Vec<_>>()
        };
        if opts.passthru {
            // Every line from the previous chunk's last match on (match lines hold no match).
            let upto = match (more, past_limit) {
                (true, _) => Some(0),
                (false, true) => Some(opts.after_context),
                (false, false) => None,
            };
            lines.extend(super::passthru::window(bytes, records, lead, upto));
        }
        lines.extend(lead.map(after).unwrap_or_default());
        for r in records.iter().filter(|_| !opts.passthru) {
            let before: Vec<_> =
                crate::span::lines_before(bytes, r.line_start(), opts.before_context).collect();
            let first = r.start_line - before.len();
            lines.extend(before.into_iter().enumerate().map(|(i, l)| (first + i, l)));
            lines.extend(after(r));
        }
        let sliced = matcher.line_terminator().is_some();
        for (no, l) in lines {
            line_matches(matcher, sliced, bytes, l.clone(), |m| {
                hits.push(LineHit {
                    line: no,
                    start: m.start - l.start,
                    end: m.end - l.start,
                    selected: false,
                    replacement: opts
                        .invert_replace
                        .as_deref()
                        .map(|r| expand_replacement(opts, matcher, bytes, m.clone(), l.end, r)),
                });
                true
            });
        }
    }
    hits
}

/// Past `-m`, the after-context lines of the last match `last` that would be selected (as
/// ripgrep's searcher reports them): each match in them, or with `-v` each line without one.
fn selected_after_limit(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    bytes: &[u8],
    last: &MatchRecord,
    hits: &mut Vec<LineHit>,
) {
    if opts.after_context == 0 {
        return;
    }
    let lines: Vec<_> = crate::span::lines_after(bytes, last.last_end, opts.after_context)
        .enumerate()
        .map(|(i, l)| (last.last_line + 1 + i, l))
        .collect();
    let hit = |line, start, end, replacement| LineHit {
        line,
        start,
        end,
        selected: true,
        replacement,
    };
    if !opts.multiline {
        let sliced = matcher.line_terminator().is_some();
        for (no, l) in &lines {
            let mut found = false;
            line_matches(matcher, sliced, bytes, l.clone(), |m| {
                found = true;
                if !opts.invert {
                    let replacement = opts
                        .replace
                        .as_deref()
                        .map(|r| expand_replacement(opts, matcher, bytes, m.clone(), l.end, r));
                    hits.push(hit(*no, m.start - l.start, m.end - l.start, replacement));
                }
                !opts.invert
            });
            if opts.invert && !found {
                // The whole line, as a match of -v (see `Collect::matched`).
                hits.push(hit(*no, 0, l.len(), None));
            }
        }
        return;
    }
    if opts.invert {
        return;
    }
    let (Some((_, first)), Some((_, end))) = (lines.first(), lines.last()) else {
        return;
    };
    let (from, to) = (first.start, end.end);
    let hay = &bytes[..bytes.len().min(to + MAX_LOOK_AHEAD)];
    let _ = matcher.find_iter_at(hay, from, |m| {
        if m.start() > to {
            return false;
        }
        for (no, l) in &lines {
            // The line where the match starts (up to its `\n`), and those it goes on into.
            let on = if m.start() >= l.start {
                m.start() <= l.end
            } else {
                m.end() > l.start
            };
            if on {
                let (a, b) = (m.start().max(l.start), m.end().min(l.end));
                hits.push(hit(*no, a - l.start, b.max(a) - l.start, None));
            }
        }
        true
    });
}
