//! `--null-data`: NUL ends each line (a record), as ripgrep. The search finds matches in the
//! records (`find.rs`); JSON spans keep the file's real `\n` lines; human output numbers,
//! prints and ends records as rg does, from a copy of the bytes with `\n` and NUL swapped
//! (see [`swap`]), through the `\n`-line printer.

use super::SearchMatcher;
use grep_matcher::Matcher;
use std::ops::Range;

/// The matches in the record `text` of `buf` (without its NUL), searched as a haystack of its
/// own, handed to `matched` until it says stop.
pub(super) fn record_matches(
    matcher: &SearchMatcher,
    buf: &[u8],
    text: Range<usize>,
    mut matched: impl FnMut(Range<usize>) -> bool,
) {
    let start = text.start;
    let _ = matcher.try_find_iter(&buf[text], |m| {
        Ok::<_, ()>(matched(start + m.start()..start + m.end()))
    });
}

/// A copy of `bytes` with every `\n` a NUL and every NUL a `\n` (see [`swap`]).
pub(super) fn swapped(bytes: &[u8]) -> Vec<u8> {
    let mut copy = bytes.to_vec();
    swap(&mut copy);
    copy
}

/// `bytes` with every `\n` a NUL and every NUL a `\n`: records become lines, for the printer
/// (and, applied to what it printed, lines become records again). Offsets do not move.
pub fn swap(bytes: &mut [u8]) {
    for b in bytes.iter_mut() {
        *b = match *b {
            b'\n' => 0,
            0 => b'\n',
            other => other,
        };
    }
}
