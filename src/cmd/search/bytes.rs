//! `llm search`, one file's bytes once read (`file.rs` reads them): its matches found
//! (`find.rs`), made records (`matches.rs`) and rendered, its checksum taken now, left
//! pending or taken apart, and a file with too many matches to hold handed on to be streamed.

use super::file::{ChunkSink, FileOutcome, Shared, SkipReason, Worker, STREAM_AT};
use super::find::{expand_replacement, find_in_bytes, find_matches, Limits};
use super::hits::line_hits;
use super::matches::{hold_back, set_ids, Chunk, FileMatches, MatchRecord};
use super::SearchMatcher;
use super::{FileResult, Mode, SearchFile, SearchOptions, WholeFile};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::hash::Partial;
use crate::span::{checksum, hex};
use crate::walk::Candidate;

/// How [`search_bytes`] gets a file's checksum.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Hash {
    /// Now, or left pending (see `finish`) if no other file's waits.
    MayDefer,
    /// Now.
    Now,
    /// By the caller, on a thread of its own (see `search_file`): `file.checksum` comes back
    /// empty.
    Apart,
}

/// Searches a file's bytes and renders its matches, its checksum got as `hash` says. With
/// `sink` (on the printing thread), the matches are rendered and handed over in chunks as they
/// are found; without, a file with more than `STREAM_AT` matches comes back
/// [`FileOutcome::Deferred`] where matches are rendered in workers.
pub(super) fn search_bytes(
    s: &Shared<'_>,
    w: &mut Worker,
    cand: &Candidate,
    bytes: &[u8],
    hash: Hash,
    mut sink: Option<ChunkSink<'_>>,
) -> FileOutcome {
    let (opts, matcher, want_checksum, render) = (s.opts, s.matcher(w), s.want_checksum, s.render);
    let slot = w.slot;
    let origin = w.origin.take();
    let whole_only = origin.is_some() || w.derived;
    let nul = if opts.text {
        None
    } else {
        memchr::memchr(0, bytes)
    };
    let as_named = cand.explicit || opts.binary;
    // --null-data in human output: the printer sees records as its lines (see `null_data.rs`).
    let swapped;
    let lines = match opts.null_data_records {
        true => {
            swapped = super::null_data::swapped(bytes);
            &swapped[..]
        }
        false => bytes,
    };
    w.records.clear();
    w.trim();
    let streams = render.is_some() && opts.mode == Mode::Matches;
    // Where a worker stops: at the first match past --max-results (a file cannot give more),
    // or where a file becomes one to stream.
    let stop_at = match (opts.max_results, streams && sink.is_none()) {
        (Some(max), _) if opts.mode == Mode::Matches => max.saturating_add(1),
        (_, true) if !whole_only => STREAM_AT,
        _ => usize::MAX,
    };
    // On the printing thread, chunks of matches go out as they are found.
    let streaming = sink.is_some();
    let utf8 = streaming && std::str::from_utf8(bytes).is_ok();
    let mut sent = 0usize;
    // What the chunks sent so far printed (human output prints them as one).
    let mut chunk_state = Chunk {
        more: true,
        ..Chunk::default()
    };
    // The last matches found, held back for the next chunk: they share a line with it.
    let mut held: Vec<MatchRecord> = Vec::new();
    let mut sink_error = None;
    let mut chunk_records = Vec::new();
    let mut send = |found: &mut Vec<MatchRecord>| -> bool {
        let (Some(sink), Some(render)) = (sink.as_mut(), render) else {
            return true;
        };
        let mut records = std::mem::take(&mut held);
        records.append(found);
        held = hold_back(&mut records);
        if records.is_empty() {
            // All on one line (or joined lines) with what may follow: sent with it.
            return true;
        }
        let records = &mut records;
        let mut chunk = FileResult::of(
            cand,
            SearchFile {
                file_path: cand.display.clone(),
                file_path_lossy: crate::span::path_is_lossy(&cand.display),
                ..SearchFile::default()
            },
        );
        chunk.continued = sent > 0;
        chunk.more = true;
        let replacements = replacements(opts, matcher, bytes, records);
        let hits = line_hits(
            opts,
            matcher,
            lines,
            false,
            records,
            chunk_state.lead.as_ref(),
            true,
        );
        if want_checksum {
            set_ids(records, &cand.display);
        }
        let view = FileMatches {
            bytes: lines,
            records,
            utf8,
            replacements: &replacements,
            before_context: opts.before_context,
            after_context: opts.after_context,
            line_hits: &hits,
            chunk: chunk_state,
            origin: origin.as_ref(),
            passthru: opts.passthru,
            stopped: false,
        };
        chunk.rendered = Some(render.render(slot, &chunk, &view));
        chunk.render_slot = slot;
        chunk_state = chunk_state.after(records);
        // The buffer's storage is `found`'s again (its records were all taken).
        std::mem::swap(found, records);
        sent += 1;
        let written = sink(&mut chunk);
        if let Some(buf) = chunk.rendered.take() {
            render.give(slot, buf);
        }
        match written {
            Ok(()) => true,
            Err(e) => {
                sink_error = Some(e);
                false
            }
        }
    };
    let mut recorder = super::matches::Recorder::new(lines);
    let mut send_ranges = |ranges: &mut Vec<std::ops::Range<usize>>| -> bool {
        if opts.mode != Mode::Matches {
            return true;
        }
        chunk_records.clear();
        chunk_records.extend(ranges.iter().map(|r| recorder.record(r.clone())));
        send(&mut chunk_records)
    };
    // Counting modes keep no ranges: they are dropped as they pile up.
    let flush_ranges = streaming || opts.mode != Mode::Matches;
    let found = if nul.is_some() && !as_named {
        // As ripgrep: stop at the NUL, keep what matched before it (buffer by buffer).
        let ranges = std::mem::take(&mut w.ranges);
        let limits = Limits {
            stop_at,
            flush: flush_ranges.then_some(&mut send_ranges as _),
        };
        let found = find_matches(
            opts,
            matcher,
            &mut w.binary_searcher,
            bytes,
            true,
            ranges,
            limits,
        );
        // A walked binary file is only reported with the matches before its NUL, and never
        // by the modes that list files or count (as ripgrep's summaries).
        if found.matches == 0 || opts.mode != Mode::Matches {
            w.ranges = found.ranges;
            return FileOutcome::Skipped(SkipReason::Binary, None);
        }
        found
    } else if w.whole == WholeFile::Always
        || (w.whole == WholeFile::WithoutCr && memchr::memchr(b'\r', bytes).is_none())
    {
        let records = &mut w.records;
        let limits = Limits {
            stop_at,
            flush: streaming.then_some(&mut send as _),
        };
        find_in_bytes(
            opts,
            matcher,
            bytes,
            records,
            std::mem::take(&mut w.ranges),
            limits,
        )
    } else {
        let ranges = std::mem::take(&mut w.ranges);
        let limits = Limits {
            stop_at,
            flush: flush_ranges.then_some(&mut send_ranges as _),
        };
        find_matches(opts, matcher, &mut w.searcher, bytes, false, ranges, limits)
    };
    if sink_error.is_some() {
        // The printer failed (closed stdout): `stream_file` reports it.
        return FileOutcome::Skipped(SkipReason::Unreadable, None);
    }
    if found.stopped && stop_at == STREAM_AT {
        w.ranges = found.ranges;
        return FileOutcome::Deferred(cand.clone());
    }
    if opts.mode == Mode::Matches && !found.ranges.is_empty() {
        w.records
            .extend(found.ranges.iter().map(|r| recorder.record(r.clone())));
    }
    if !held.is_empty() {
        w.records.splice(0..0, held);
    }
    let size = bytes.len() as u64;
    // A NUL byte makes text fields lossy (-a searches past it without a warning).
    let has_nul = nul.is_some() || (opts.text && memchr::memchr(0, bytes).is_some());
    let lossy = has_nul || (found.matches > 0 && std::str::from_utf8(bytes).is_err());
    let mut diagnostics = Vec::new();
    let binary_stopped_at = nul
        .filter(|_| !as_named)
        .map(|at| found.binary_at.unwrap_or(at as u64));
    if let Some(at) = nul {
        let (code, message, fix) = if as_named {
            (
                Code::BinarySearched,
                format!(
                    "{} is binary (NUL byte at offset {at}); searched because {}",
                    cand.display,
                    if cand.explicit {
                        "it was named"
                    } else {
                        "of --binary"
                    }
                ),
                "treat matched_text and line_text as lossy; rely on the byte offsets",
            )
        } else {
            (
                Code::BinaryStopped,
                format!(
                    "{} is binary (NUL byte at offset {}): searching stopped there, as ripgrep does; \
the matches before it are reported",
                    cand.display,
                    found.binary_at.unwrap_or(at as u64)
                ),
                "name the file on the command line to search all of it",
            )
        };
        diagnostics.push(tool_diag(
            Error::new(code, message, fix).with_file(&cand.display),
        ));
    }
    if found.matches == 0 {
        let listed = opts.mode == Mode::FilesWithoutMatch || opts.include_zero;
        let passthru = opts.passthru_unmatched && opts.mode == Mode::Matches;
        let result = (listed || passthru || !diagnostics.is_empty()).then(|| {
            let mut r = FileResult::of(
                cand,
                SearchFile {
                    file_path: cand.display.clone(),
                    file_path_lossy: crate::span::path_is_lossy(&cand.display),
                    checksum: if listed && want_checksum {
                        checksum(bytes)
                    } else {
                        String::new()
                    },
                    match_count: 0,
                    line_count: 0,
                    lossy,
                },
            );
            r.diagnostics = diagnostics;
            if let (true, Some(render)) = (passthru, render) {
                // Every line, as context (see `SearchHuman::passthru_lines`).
                let view = FileMatches {
                    passthru: true,
                    ..FileMatches::none(lines)
                };
                r.rendered = Some(render.render(slot, &r, &view));
                r.render_slot = slot;
            }
            r
        });
        w.ranges = found.ranges;
        return FileOutcome::Searched {
            bytes: size,
            lossy,
            result,
        };
    }
    if lossy && !has_nul {
        diagnostics.push(tool_diag(
            Error::new(
                Code::NotUtf8,
                format!("{} is not valid UTF-8; text fields are lossy", cand.display),
                "rely on byte offsets, or convert the file to UTF-8",
            )
            .with_file(&cand.display),
        ));
    }
    // Checksums are computed two streams at a time (see `hash::Partial`): this file's beside
    // the file carried from before, and the one whose whole blocks outlast the other's is
    // carried on to the next file (see `finish`).
    let mut checksum_pending = false;
    let checksum = if want_checksum && hash == Hash::Apart {
        // The file carried from before finishes alone.
        if let Some(previous) = w.pending.take() {
            let carried = std::mem::take(&mut w.carried);
            w.resolved.push_back(hex(&carried.finish(&previous)));
            w.recycle(previous);
        }
        String::new()
    } else if want_checksum {
        let mut this = Partial::new();
        let mut done = None;
        if let Some(previous) = w.pending.take() {
            let mut carried = std::mem::take(&mut w.carried);
            Partial::advance_pair(&mut carried, &previous, &mut this, bytes);
            if carried.whole_left(&previous) > 0 {
                // This file ran out first: the previous one goes on beside the next.
                done = Some(hex(&this.clone().finish(bytes)));
                w.pending = Some(previous);
                w.carried = carried;
            } else {
                w.resolved.push_back(hex(&carried.finish(&previous)));
                w.recycle(previous);
            }
        }
        match done {
            Some(c) => c,
            None if hash == Hash::MayDefer && this.whole_left(bytes) > 0 => {
                w.carried = this;
                checksum_pending = true;
                String::new()
            }
            None => hex(&this.finish(bytes)),
        }
    } else {
        String::new()
    };
    let file = SearchFile {
        file_path: cand.display.clone(),
        file_path_lossy: crate::span::path_is_lossy(&cand.display),
        checksum,
        match_count: found.matches,
        line_count: found.lines,
        lossy,
    };
    let mut result = FileResult::of(cand, file);
    result.diagnostics = diagnostics;
    result.binary_stopped_at = binary_stopped_at;
    result.checksum_pending = checksum_pending;
    result.continued = sent > 0;
    if opts.mode == Mode::Matches {
        if want_checksum {
            set_ids(&mut w.records, &cand.display);
        }
        // A walked binary file's search stopped before the buffer that held its NUL: as rg,
        // no context line is printed past what it had read (the checksum is the whole file's).
        let bytes = match binary_stopped_at {
            Some(_) => &bytes[..bytes.len().min(found.searched as usize)],
            None => bytes,
        };
        let lines = &lines[..bytes.len()];
        let replacements = replacements(opts, matcher, bytes, &w.records);
        let past_limit = opts.max_count.is_some_and(|max| found.lines >= max);
        let lead = chunk_state.lead.as_ref();
        let hits = line_hits(opts, matcher, lines, past_limit, &w.records, lead, false);
        let view = FileMatches {
            bytes: lines,
            records: &w.records,
            utf8: !lossy,
            replacements: &replacements,
            before_context: opts.before_context,
            after_context: opts.after_context,
            line_hits: &hits,
            chunk: Chunk {
                more: false,
                ..chunk_state
            },
            origin: origin.as_ref(),
            passthru: opts.passthru,
            stopped: past_limit,
        };
        match render {
            Some(render) => {
                result.rendered = Some(render.render(slot, &result, &view));
                result.render_slot = slot;
            }
            None => {
                result.matches = view.to_matches(want_checksum.then_some(cand.display.as_str()));
            }
        }
    } else if let Some(render) = render {
        result.rendered = Some(render.render(slot, &result, &FileMatches::none(lines)));
        result.render_slot = slot;
    }
    w.ranges = found.ranges;
    FileOutcome::Searched {
        bytes: size,
        lossy,
        result: Some(result),
    }
}

/// The `-r` expansions of some records (none without `-r`).
fn replacements(
    opts: &SearchOptions,
    matcher: &SearchMatcher,
    bytes: &[u8],
    records: &[MatchRecord],
) -> Vec<Vec<u8>> {
    match &opts.replace {
        Some(r) => records
            .iter()
            .map(|m| {
                expand_replacement(
                    opts,
                    matcher,
                    bytes,
                    m.byte_start..m.byte_end,
                    m.line_end,
                    r,
                )
            })
            .collect(),
        None => Vec::new(),
    }
}

fn tool_diag(e: Error) -> DiagnosticPayload {
    let mut d = e.diagnostic(Level::Warning);
    d.tool = "search".into();
    d
}
