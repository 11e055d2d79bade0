//! One file's part of `llm find`: its definitions of the name (from a parse of the regions
//! around the name, or of the whole file), its outline (a big file's in parts, on several
//! threads) or its references, as items in file order.

use super::{
    count, FileResult, FindFile, FindItem, FindOptions, FindParsed, Mode, RefMatch, Render,
    SymbolMatch,
};
use crate::cmd::ast::{syntax_warning, syntax_warning_of, Outcome};
use crate::envelope::new_id;
use crate::error::Code;
use crate::lang::references::references_around;
use crate::lang::regions::Cut;
use crate::lang::symbols::{symbols_and_errors, symbols_around_with};
use crate::lang::{self, Language, Reference, Symbol};
use crate::span::{checksum, checksum_beside, LineIndex};
use crate::walk::Candidate;

/// `only_file`: the run's one file, whose trees are left to a background thread (see
/// `lang::discard`); in a scan, freeing on the worker costs less than freeing across threads.
pub(super) fn find_in_file(
    opts: &FindOptions,
    l: &'static Language,
    cand: &Candidate,
    source: &[u8],
    want_checksum: bool,
    only_file: bool,
    render: Option<Render>,
) -> Outcome<FindParsed> {
    // The run's one big file, parsed on every thread, is checksummed on one more meanwhile:
    // on the 16-core machine, `lib.dom.d.ts`'s checksum (1.3 MB) was 2–4 ms of its outline's
    // end with the other threads done.
    if want_checksum && only_file && opts.threads > 1 && source.len() >= SPLIT_AT {
        let (mut outcome, sum) = checksum_beside(source, || {
            find_in_file_with(opts, l, cand, source, false, only_file, render)
        });
        if let Outcome::Parsed(FindParsed {
            result: Some(r), ..
        }) = &mut outcome
        {
            r.file.checksum = sum;
        }
        return outcome;
    }
    find_in_file_with(opts, l, cand, source, want_checksum, only_file, render)
}

/// [`find_in_file`], the file's checksum computed here when `want_checksum`.
fn find_in_file_with(
    opts: &FindOptions,
    l: &'static Language,
    cand: &Candidate,
    source: &[u8],
    want_checksum: bool,
    only_file: bool,
    render: Option<Render>,
) -> Outcome<FindParsed> {
    let index = LineIndex::new(source);
    // Definitions and references of NAME lie around its occurrences: only those regions are
    // parsed. An outline needs the whole file: a big one is parsed in parts on several threads.
    let literal = match opts.mode {
        Mode::Outline => None,
        _ => opts.name.as_ref().and_then(|n| n.literal()),
    };
    // A big file's long strings and data tables are not parsed at all, when they can be left
    // out; else it is parsed in parts (see `Language::outline_symbols`).
    let big = literal.is_none() && source.len() >= SPLIT_AT;
    // The run's one file takes every thread; in a scan, each worker's file splits in two at
    // most (the workers have the other cores).
    let parts = if only_file {
        opts.threads
            .min(MAX_PARTS)
            .min((source.len() / PART_BYTES).max(2))
    } else {
        opts.threads.min(2)
    };
    let mut trees = Vec::new();
    // The syntax errors of a big file's parts read by the rule for files with errors.
    let mut part_errors = Vec::new();
    // A big file's symbols (each part's, when it is parsed in parts) made into items, and
    // rendered, on the thread that found them.
    let items_of = |syms| Run::new(items(opts, l, syms, Vec::new()), render);
    let parsed = {
        let outline = big
            .then(|| {
                let file = &cand.display;
                let (trees, errors) = (&mut trees, &mut part_errors);
                l.outline_symbols(source, &index, file, parts, trees, errors, &items_of)
            })
            .flatten();
        match (outline, literal) {
            (Some(parts), _) => Ok(parts),
            (None, Some(_)) => {
                let hits = opts
                    .name
                    .as_ref()
                    .map(|n| n.hits(source))
                    .unwrap_or_default();
                Err(l.parse_around(source, &index, &hits, Cut::Members).tree)
            }
            (None, None) => Err(l.parse(source)),
        }
    };
    // Trees of a split parse that failed too.
    if only_file {
        trees.into_iter().for_each(lang::discard);
    }
    let code = Code::FindSyntaxErrors;
    let (errors, diag, runs) = match parsed {
        Ok(runs) => {
            let diag = syntax_warning_of(code, "find", &cand.display, &index, &part_errors);
            (diag.is_some(), diag, runs)
        }
        Err(tree) => {
            // A big file parsed whole (no literal, so not for references): its symbols
            // found, made into items and rendered on `parts` threads when its tree allows.
            let halves = (big && opts.mode != Mode::Refs && parts > 1)
                .then(|| {
                    let file = &cand.display;
                    let runs = parts.min(MAX_RUNS);
                    l.symbols_of_tree_runs(source, &index, file, &tree, runs, &items_of)
                })
                .flatten();
            let (runs, rule_errors) = match halves {
                Some(runs) => (runs, None),
                None => {
                    let (syms, refs, errs) =
                        whole_tree_symbols(opts, l, source, &tree, literal, cand, &index);
                    (vec![Run::new(items(opts, l, syms, refs), render)], errs)
                }
            };
            // The errors of the parses the symbols were read from: those of the rule for
            // files with errors when it read them, as a big file read in parts reports them.
            let diag = match rule_errors {
                Some(errs) => syntax_warning_of(code, "find", &cand.display, &index, &errs),
                None => syntax_warning(code, "find", &cand.display, &index, &tree),
            };
            if only_file {
                lang::discard(tree);
            }
            (diag.is_some(), diag, runs)
        }
    };
    let match_count = runs.iter().map(|r| r.count).sum();
    let (items, rendered) = match render {
        Some(_) => (
            Vec::new(),
            Some(runs.into_iter().map(|r| r.bytes).collect()),
        ),
        None => (runs.into_iter().flat_map(|r| r.items).collect(), None),
    };
    let result = (match_count > 0).then(|| FileResult {
        file: FindFile {
            file_path: cand.display.clone(),
            checksum: if want_checksum {
                checksum(source)
            } else {
                String::new()
            },
            language: l.name,
            match_count,
            parse_errors: errors,
        },
        items,
        rendered,
    });
    Outcome::Parsed(FindParsed {
        errors,
        diag,
        result,
    })
}

/// The symbols (or references) `opts` asks for in a file's whole-file `tree`. NAME's
/// definitions hold one of its occurrences: only the definitions around them (with their
/// ancestors, for qualified names) are collected. References need only the symbols that hold
/// them (see `references_around`). With them, the syntax errors of the rule for files with
/// errors when it read the symbols (see `symbols_and_errors`).
fn whole_tree_symbols(
    opts: &FindOptions,
    l: &Language,
    source: &[u8],
    tree: &tree_sitter::Tree,
    literal: Option<&str>,
    cand: &Candidate,
    index: &LineIndex,
) -> (Vec<Symbol>, Vec<Reference>, Option<Vec<lang::SyntaxError>>) {
    match (literal, opts.mode) {
        (_, Mode::Refs) => {
            let name = opts.name.as_ref().map_or("", |n| n.as_str());
            let refs = references_around(l, source, tree, name, &cand.display, index);
            (Vec::new(), refs, None)
        }
        (Some(_), Mode::Symbols) => {
            let hits = opts
                .name
                .as_ref()
                .map(|n| n.hits(source))
                .unwrap_or_default();
            let syms = symbols_around_with(l, source, tree, &cand.display, index, &hits);
            (syms, Vec::new(), None)
        }
        _ => {
            let (syms, errs) = symbols_and_errors(l, source, tree, &cand.display, index);
            (syms, Vec::new(), errs)
        }
    }
}

/// Some of a file's items (all of them, or one half's of a big file's outline), with how many
/// matches they hold, rendered when there is a [`Render`].
struct Run {
    count: usize,
    items: Vec<FindItem>,
    bytes: Vec<u8>,
}

impl Run {
    fn new(items: Vec<FindItem>, render: Option<Render>) -> Run {
        let count = count(&items);
        match render {
            Some(render) => {
                // Room for about what the items take as JSON (a symbol's four spans each name
                // the file), so that the buffer is not grown by doubling: each doubling
                // copies what was written into fresh pages (`lib.dom.d.ts`, 9.3 MB of JSON:
                // peak RSS 69 -> 61 MB, 67 -> 64 ms). Pages reserved and never written cost
                // nothing.
                let path = match items.first() {
                    Some(FindItem::Symbol(s)) => s.symbol.span.file_path.len(),
                    _ => 0,
                };
                let mut bytes = Vec::with_capacity(count * (1024 + 4 * path));
                render(&items, &mut bytes);
                Run {
                    count,
                    items: Vec::new(),
                    bytes,
                }
            }
            None => Run {
                count,
                items,
                bytes: Vec::new(),
            },
        }
    }
}

/// A file's items: its references, or its symbols that `opts` keeps (nested for an outline).
fn items(
    opts: &FindOptions,
    l: &Language,
    syms: Vec<Symbol>,
    refs: Vec<Reference>,
) -> Vec<FindItem> {
    match opts.mode {
        Mode::Refs => refs
            .into_iter()
            .map(|r| {
                FindItem::Ref(RefMatch {
                    match_id: new_id(),
                    reference: r,
                })
            })
            .collect(),
        Mode::Symbols => syms
            .into_iter()
            .filter(|s| opts.keep(s, l))
            .map(|s| {
                FindItem::Symbol(SymbolMatch {
                    match_id: new_id(),
                    symbol: s,
                    children: None,
                })
            })
            .collect(),
        Mode::Outline => nest(opts, l, syms),
    }
}

/// Files at least this big are outlined from parts parsed in parallel.
const SPLIT_AT: usize = 64 * 1024;

/// At most this many parts of one file are outlined in parallel (the default thread count is
/// at most 12), each of at least `PART_BYTES`; a tree parsed whole is read in at most
/// `MAX_RUNS` runs (each run passes every child of the root). On the 16-core machine (same
/// run, default `-j`, median of 15): `lib.dom.d.ts` (1.3 MB) 59.4 ms in 8 parts, 44.8 in 12;
/// read in 12 runs instead of 8, `verifier.c` took 92 ms instead of 75.
const MAX_PARTS: usize = 16;
const PART_BYTES: usize = 32 << 10;
const MAX_RUNS: usize = 8;

/// Nests the kept symbols under their nearest kept ancestor.
fn nest(opts: &FindOptions, l: &Language, syms: Vec<Symbol>) -> Vec<FindItem> {
    let kept: Vec<bool> = syms.iter().map(|s| opts.keep(s, l)).collect();
    let parents: Vec<Option<usize>> = syms
        .iter()
        .map(|s| {
            let mut p = s.parent_index;
            while let Some(i) = p {
                if kept[i] {
                    break;
                }
                p = syms[i].parent_index;
            }
            p
        })
        .collect();
    // Each symbol's children, made to measure.
    let mut counts = vec![0; syms.len()];
    for (i, p) in parents.iter().enumerate() {
        if let (true, Some(p)) = (kept[i], p) {
            counts[*p] += 1;
        }
    }
    let mut children: Vec<Vec<SymbolMatch>> = counts.into_iter().map(Vec::with_capacity).collect();
    // Children come after their parents: attach from the end so each subtree is complete
    // (in reverse order, turned around once each list is whole).
    let mut roots = Vec::new();
    for (i, symbol) in syms.into_iter().enumerate().rev() {
        if !kept[i] {
            continue;
        }
        let mut mine = std::mem::take(&mut children[i]);
        mine.reverse();
        let item = SymbolMatch {
            match_id: new_id(),
            symbol,
            children: Some(mine),
        };
        match parents[i] {
            Some(p) => children[p].push(item),
            None => roots.push(FindItem::Symbol(item)),
        }
    }
    roots.reverse();
    roots
}
