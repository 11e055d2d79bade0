//! `--passthru`: every line of a file is printed, those that do not match as context lines.
//! No line is given twice: each match's context before is the lines since the previous match
//! (the first match's: since the file's start; a chunk's first: since the previous chunk's
//! last match), and the last match's context after is the rest of the file — unless `-m`
//! stopped the search there (then its `-A` lines, as rg prints), or more chunks follow.

use super::matches::{FileMatches, MatchRecord};
use crate::span::{lines_after, lines_before, lines_from};
use std::ops::Range;

/// The ranges of the lines before `r` that are its context under `--passthru`.
pub(super) fn before<'a>(
    m: &FileMatches<'a>,
    r: &MatchRecord,
) -> Box<dyn Iterator<Item = Range<usize>> + 'a> {
    let i = index(m, r);
    let prev = match i {
        0 => m.chunk.lead,
        _ => Some(m.records[i - 1]),
    };
    match prev {
        // The previous chunk's last match itself (see `FileMatches::with_records`).
        Some(p) if p.byte_start >= r.byte_start => Box::new(std::iter::empty()),
        Some(p) => {
            let gap = r.start_line.saturating_sub(p.last_line + 1);
            Box::new(lines_after(m.bytes, p.last_end, gap))
        }
        None => Box::new(lines_before(m.bytes, r.line_start(), r.start_line - 1)),
    }
}

/// The ranges of the lines after `r` that are its context under `--passthru`.
pub(super) fn after<'a>(
    m: &FileMatches<'a>,
    r: &MatchRecord,
) -> Box<dyn Iterator<Item = Range<usize>> + 'a> {
    let last = index(m, r) + 1 == m.records.len();
    let lead = m.chunk.lead.is_some_and(|l| l.byte_start >= r.byte_start);
    if !last || lead || m.chunk.more {
        return Box::new(std::iter::empty());
    }
    let n = if m.stopped {
        m.after_context
    } else {
        usize::MAX
    };
    Box::new(lines_after(m.bytes, r.last_end, n))
}

/// Where `r` is among `m.records` (they are in offset order).
fn index(m: &FileMatches<'_>, r: &MatchRecord) -> usize {
    m.records.partition_point(|x| x.byte_start < r.byte_start)
}

/// Every line `records` print under `--passthru` (context and match lines), numbered: from
/// the line after `lead` (or the file's first) to the last record's last line, then to the
/// end of the file, or past `-m` its `after` lines, or none when more chunks follow.
pub(super) fn window(
    bytes: &[u8],
    records: &[MatchRecord],
    lead: Option<&MatchRecord>,
    after: Option<usize>,
) -> Vec<(usize, Range<usize>)> {
    let Some(last) = records.last() else {
        return Vec::new();
    };
    let (first_no, start) = match lead {
        Some(l) => (l.last_line + 1, l.last_end + 1),
        None => (1, 0),
    };
    let upto = last.last_line.saturating_add(after.unwrap_or(usize::MAX));
    let n = upto.saturating_add(1).saturating_sub(first_no);
    (lines_from(bytes, start).take(n))
        .enumerate()
        .map(|(i, l)| (first_no + i, l))
        .collect()
}
