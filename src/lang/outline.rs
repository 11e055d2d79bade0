//! The trees of a big file's outline (`llm find --outline`), cheaper than one whole-file
//! parse: one parse that leaves out the file's data (long strings, arrays of numbers), or parts
//! of whole items (or two halves of one block) parsed on threads of their own. Each part's
//! thread goes on from its parse to its part's definitions (`symbols::prepare_part`) and, for
//! parts of whole items, to their symbols, numbered part after part; block halves are nested
//! in one pass over both ([`Language::outline_symbols`]). A file parsed whole is read in runs
//! of its root's children the same way ([`Language::symbols_of_tree_runs`]).

use super::brace::{Gap, Lexicon, MIN_GAP};
use super::items::ItemTree;
use super::regions::Regions;
use super::symbols::{
    finish, nested, number, prepare_items, prepare_part, prepare_run, Prepared, Seen, Symbol,
};
use super::Language;
use super::SyntaxError;
use crate::span::{FileSpans, LineIndex};
use std::ops::Range;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::OnceLock;
use tree_sitter::Tree;

impl Language {
    /// `then` of the symbols of a big file's outline, as [`super::symbols_with_index`] gives
    /// them from a whole-file parse, when a cheaper way applies: the file is mostly data (see
    /// [`Language::parse_outline`]), or, with `parts` > 1, its items split in that many parts
    /// (two when cut inside a block; at most that many by a language's `split` rule) that
    /// parse without a syntax error (see [`Language::split_parts`]). Parts of whole items are
    /// each a forest of their own: `then` gets each part's symbols on its thread (parent
    /// indices within the part), in order; else it gets them all. The trees are put in `trees`
    /// (for the caller to drop), the syntax errors of parts read by the rule for files with
    /// errors in `errors` (see [`Language::symbols_of_parts`]). `None`: parse the file whole.
    #[allow(clippy::too_many_arguments)]
    pub fn outline_symbols<T: Send>(
        &self,
        source: &[u8],
        index: &LineIndex,
        file_path: &str,
        parts: usize,
        trees: &mut Vec<Tree>,
        errors: &mut Vec<SyntaxError>,
        then: &(dyn Fn(Vec<Symbol>) -> T + Sync),
    ) -> Option<Vec<T>> {
        std::thread::scope(|s| {
            // The symbol walk's tables (see `pruning.rs`) are made on the core the scan leaves
            // idle.
            if source.len() >= super::symbols::PRUNE_AT {
                s.spawn(|| self.symbol_pruning());
            }
            self.outline_symbols_now(source, index, file_path, parts, trees, errors, then)
        })
    }

    /// [`Language::outline_symbols`].
    #[allow(clippy::too_many_arguments)]
    fn outline_symbols_now<T: Send>(
        &self,
        source: &[u8],
        index: &LineIndex,
        file_path: &str,
        parts: usize,
        trees: &mut Vec<Tree>,
        errors: &mut Vec<SyntaxError>,
        then: &(dyn Fn(Vec<Symbol>) -> T + Sync),
    ) -> Option<Vec<T>> {
        // One scan finds the data and, when the lexicon is the language's scanner, the items.
        let lexicon = super::brace::lexicon(self.name).filter(|_| source.len() >= OUTLINE_GAPS_AT);
        let (regions, gaps) = match lexicon {
            Some(lex) => {
                let (regions, gaps) = super::brace::scan(lex, source, true);
                (lex.items.then_some(regions), gaps)
            }
            None => (None, Vec::new()),
        };
        if let Some(tree) =
            lexicon.and_then(|lex| self.parse_leaving_out(source, index, lex, &gaps))
        {
            let spans = FileSpans::new(index, file_path);
            let part = prepare_part(self, source, &tree, &[], &spans);
            let syms = finish(self, source, file_path, vec![part]);
            trees.push(tree);
            return Some(vec![then(syms)]);
        }
        if parts < 2 {
            return None;
        }
        let regions = regions.or_else(|| self.rules.regions.map(|scan| scan(source)));
        let parts = match &regions {
            Some(regions) => self.split_parts(source, regions, parts)?,
            // Without regions, a language may still cut a file in parts (Ruby: `ruby_cut`).
            None => (self.rules.split?)(source, parts)?,
        };
        let regions = regions.as_ref().filter(|_| self.rules.regions.is_some());
        self.symbols_of_parts(
            source, index, file_path, &parts, regions, trees, errors, then,
        )
    }

    /// [`Language::outline_symbols`] of a file parsed in `parts`, each on a thread that goes
    /// on from its parse to its part's definitions and, for parts of whole items, to `then`
    /// of their symbols (see [`Language::in_parts`]). A part of whole items with a syntax
    /// error, in a language with a region scanner (`regions`, the items the parts are made
    /// of), is read by the rule for files with errors (see `items.rs`): each of its items from
    /// a parse of its own, as a whole-file parse with an error is read; their errors go to
    /// `errors`. `None` when a block half, or a part in a language without a region scanner,
    /// has a syntax error.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn symbols_of_parts<T: Send>(
        &self,
        source: &[u8],
        index: &LineIndex,
        file_path: &str,
        parts: &[Vec<Range<usize>>],
        regions: Option<&Regions>,
        trees: &mut Vec<Tree>,
        errors: &mut Vec<SyntaxError>,
        then: &(dyn Fn(Vec<Symbol>) -> T + Sync),
    ) -> Option<Vec<T>> {
        let slots: Vec<OnceLock<Tree>> = parts.iter().map(|_| OnceLock::new()).collect();
        let items: Vec<OnceLock<Vec<ItemTree>>> = parts.iter().map(|_| OnceLock::new()).collect();
        let spans = FileSpans::new(index, file_path);
        // Parts of whole items (not block halves): no definition of one holds another's.
        let whole_items = parts.iter().all(|p| p.len() == 1);
        let prepare = |i: usize| {
            let tree = slots[i].get_or_init(|| self.parse_ranges(source, index, &parts[i]));
            if !tree.root_node().has_error() {
                let later = &parts[i + 1..].concat();
                return Some(prepare_part(self, source, tree, later, &spans));
            }
            // Error recovery may reach across items: the part's items with an error each
            // from a parse of its own, the others from the part's tree.
            let (Some(regions), true, [range]) = (regions, whole_items, parts[i].as_slice()) else {
                return None;
            };
            let items = items[i].get_or_init(|| {
                self.item_trees_within(source, index, regions, range.clone(), tree)
            });
            Some(prepare_items(self, source, items, &spans))
        };
        let out = self.in_parts(source, file_path, parts.len(), whole_items, &prepare, then);
        trees.extend(slots.into_iter().filter_map(OnceLock::into_inner));
        for part in items.into_iter().filter_map(OnceLock::into_inner) {
            errors.extend(super::items::errors(&part));
            trees.extend(part.into_iter().map(|p| p.tree));
        }
        out
    }

    /// `then` of the symbols of a big file's whole `tree`, as [`super::symbols_with_index`]
    /// gives them, found on `runs` threads: the root's children cut in that many runs of about
    /// equal size (fewer when its children do not allow), each run's definitions found,
    /// nested, numbered and handed to `then` on its own thread, as for parts parsed apart.
    /// The walk over the tree is the file's longest step after its parse when the parse is
    /// whole (a C file: no region scanner). `None` when it does not apply: a language with a
    /// hand-written walk, a file read item by item (a region language's tree with an error,
    /// see `symbols::symbols_of_items`), a root with too few children or too many for its
    /// text (see below), or a definition reaching across a cut (a C function declared by a
    /// macro whose body is the next child, a definition that is the root).
    pub fn symbols_of_tree_runs<T: Send>(
        &self,
        source: &[u8],
        index: &LineIndex,
        file_path: &str,
        tree: &Tree,
        runs: usize,
        then: &(dyn Fn(Vec<Symbol>) -> T + Sync),
    ) -> Option<Vec<T>> {
        if self.rules.walk.is_some()
            || (self.rules.regions.is_some() && tree.root_node().has_error())
        {
            return None;
        }
        // Each run's walk passes every child of the root (and reads them all for patterns
        // rooted there), about 130 ns a child, where the definitions cost about 20 ns a byte:
        // runs are worth it for 16 bytes of text a child for each run. A file of 400,000
        // one-line declarations (12 bytes a child) gets none: at `-j8` on 2 cores it took
        // 1.12 s against 0.70 s in one walk; `verifier.c` (about 800 bytes a child) gets 8.
        let root = tree.root_node();
        let children = (root.child_count() as usize).max(1);
        let runs = runs.min((root.end_byte() - root.start_byte()) / children / 16);
        if runs < 2 {
            return None;
        }
        let cuts = children_cuts(root, runs);
        if cuts.is_empty() {
            return None;
        }
        let bounds: Vec<usize> = std::iter::once(0)
            .chain(cuts)
            .chain(std::iter::once(usize::MAX))
            .collect();
        let runs: Vec<Range<usize>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
        let spans = FileSpans::new(index, file_path);
        let prepare = |i: usize| prepare_run(self, source, tree, runs[i].clone(), &spans);
        self.in_parts(source, file_path, runs.len(), true, &prepare, then)
    }

    /// The definitions of `count` parts, each prepared by `prepare` on a thread of its own
    /// (the first on this one), made into symbols. Parts of `whole_items` (no definition of
    /// one holds another's) each go on, on their thread, to nest their own symbols, number
    /// them (see `symbols::number`) once the part before has numbered its own, and hand them
    /// to `then` (parent indices within the part); other parts are nested in one pass over
    /// them all, and `then` gets all their symbols. `None` when a part's `prepare` gives none.
    fn in_parts<'t, T: Send>(
        &self,
        source: &[u8],
        file_path: &str,
        count: usize,
        whole_items: bool,
        prepare: &(dyn Fn(usize) -> Option<Vec<Prepared<'t>>> + Sync),
        then: &(dyn Fn(Vec<Symbol>) -> T + Sync),
    ) -> Option<Vec<T>> {
        // How many symbols of each name the parts before counted, handed from part to part
        // (nothing when a part failed).
        let (senders, receivers): (Vec<_>, Vec<_>) =
            (1..count).map(|_| mpsc::channel::<Seen>()).unzip();
        let mut before: Vec<Option<Receiver<Seen>>> = std::iter::once(None)
            .chain(receivers.into_iter().map(Some))
            .collect();
        let mut after: Vec<Option<Sender<Seen>>> = senders
            .into_iter()
            .map(Some)
            .chain(std::iter::once(None))
            .collect();
        let part = |i: usize, before: Option<Receiver<Seen>>, after: Option<Sender<Seen>>| {
            let prepared = prepare(i)?;
            if !whole_items {
                return Some(Part::Prepared(prepared));
            }
            let mut syms = nested(self, source, vec![prepared]);
            let mut seen = match before {
                Some(rx) => rx.recv().ok()?,
                None => Seen::new(),
            };
            number(&mut syms, file_path, &mut seen);
            if let Some(tx) = after {
                // The next part may have failed and gone already.
                let _ = tx.send(seen);
            }
            let t = then(syms);
            Some(Part::Done(t))
        };
        let done = std::thread::scope(|s| {
            // The first part on this thread, the others on threads of their own.
            let part = &part;
            let others: Vec<_> = (1..count)
                .map(|i| {
                    let (b, a) = (before[i].take(), after[i].take());
                    s.spawn(move || part(i, b, a))
                })
                .collect();
            let first = part(0, before[0].take(), after[0].take());
            let others = others
                .into_iter()
                .map(|h| h.join().expect("outline thread panicked"));
            std::iter::once(first)
                .chain(others)
                .collect::<Option<Vec<_>>>()
        });
        done.map(|done| {
            let mut prepared = Vec::new();
            let mut out = Vec::new();
            for p in done {
                match p {
                    Part::Prepared(p) => prepared.push(p),
                    Part::Done(t) => out.push(t),
                }
            }
            if !prepared.is_empty() {
                out.push(then(finish(self, source, file_path, prepared)));
            }
            out
        })
    }

    /// The tree of a whole file for its outline, parsed without the insides of its long
    /// strings and data arrays (see `brace::gaps`): a generated table of a megabyte then
    /// parses in milliseconds, every position kept. The biggest gaps are left out of the parse
    /// (tree-sitter's included ranges, which cost per token as many as there are: a few), the
    /// others blanked out in a copy of the file (line breaks kept). A long run of joined
    /// strings (a table of Java's `GB18030.java` or Go's `zipdata.go`, strings joined by `+`;
    /// Python's `topics.py`, strings one after the other) is left out from the first one's
    /// inside to the last one's: the parse reads one string, where the whole parse reads an
    /// expression of strings, which defines nothing either. Each gap must then sit in one
    /// string or array literal (its inside, a list of numbers and strings, parses there as the
    /// whole-file parse reads it; a joined run's string where a joined expression can be),
    /// and the tree must have no syntax error. `None`: not worth it (small file, little data),
    /// or that check failed: parse the file as it is.
    pub fn parse_outline(&self, source: &[u8], index: &LineIndex) -> Option<Tree> {
        let lexicon = super::brace::lexicon(self.name)?;
        if source.len() < OUTLINE_GAPS_AT {
            return None;
        }
        self.parse_leaving_out(source, index, lexicon, &super::brace::gaps(lexicon, source))
    }

    /// [`Language::parse_outline`] with the file's gaps already found.
    fn parse_leaving_out(
        &self,
        source: &[u8],
        index: &LineIndex,
        lexicon: &Lexicon,
        gaps: &[Gap],
    ) -> Option<Tree> {
        // At most 64 gaps are this big.
        let left_out = (source.len() / 64).max(4096);
        let read = read_gaps(gaps, left_out, join_from(gaps, left_out));
        let skipped: usize = read.iter().map(|g| g.range.len()).sum();
        if skipped * 4 < source.len() {
            return None;
        }
        if let Some(tree) = self.parse_without(source, index, lexicon, &read) {
            return Some(tree);
        }
        // Joined strings where the check wants none (`"a" + "b".length()`): each one alone.
        if !read.iter().any(|g| g.joined) {
            return None;
        }
        let alone = read_gaps(gaps, left_out, usize::MAX);
        self.parse_without(source, index, lexicon, &alone)
    }

    /// The tree of `source` with the `gaps` (see [`read_gaps`]) left out of the parse or
    /// blanked; `None` when it has a syntax error or a gap is not where the check of
    /// [`gaps_hold`] wants it.
    fn parse_without(
        &self,
        source: &[u8],
        index: &LineIndex,
        lexicon: &Lexicon,
        gaps: &[ReadGap],
    ) -> Option<Tree> {
        let mut blank = source.to_vec();
        let mut ranges = Vec::new();
        let mut at = 0;
        for g in gaps {
            if g.left_out {
                ranges.push(at..g.range.start);
                at = g.range.end;
            } else {
                for b in &mut blank[g.range.clone()] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
        let tree = if ranges.is_empty() {
            self.parse(&blank)
        } else {
            ranges.push(at..source.len());
            ranges.retain(|r| !r.is_empty());
            self.parse_ranges(&blank, index, &ranges)
        };
        (!tree.root_node().has_error() && gaps_hold(&tree, gaps, lexicon)).then_some(tree)
    }

    /// `source` cut in `parts` groups of whole items of about equal size: the trees of a big
    /// file's outline in a fraction of the time. A file whose items do not split evenly in two
    /// is cut inside a block instead (see `block_halves`); then both parts hold that block's
    /// beginning and end, and a definition starting in ranges of both is the last part's (see
    /// `symbols::prepare_part`). `None` when the file does not split (too few items, or a
    /// file cut off in the middle).
    pub(super) fn split_parts(
        &self,
        source: &[u8],
        regions: &Regions,
        parts: usize,
    ) -> Option<Vec<Vec<Range<usize>>>> {
        // A file cut off in the middle does not parse in parts as it does whole (error
        // recovery can wrap the whole file): not worth trying.
        if parts < 2 || !regions.balanced || !regions.independent {
            return None;
        }
        // Each part is one range of consecutive whole items, of about equal weight: their
        // bytes, comments at half theirs (a parse reads a comment as one token; the symbols
        // a doc comment documents read it again). In TypeScript's `lib.dom.d.ts` (half doc
        // comments, more in its first half) the halves then take 37 and 39 ms to parse and
        // read, against 60 and 54 ms by bytes alone.
        let weight = |k: usize| {
            let item = &regions.items[k];
            item.range.len() - regions.comments.get(k).copied().unwrap_or(0) / 2
        };
        let total: usize = (0..regions.items.len()).map(weight).sum();
        let per = total / parts;
        let mut groups: Vec<Vec<Range<usize>>> = Vec::with_capacity(parts);
        let (mut start, mut done) = (0, 0);
        for (k, item) in regions.items.iter().enumerate() {
            done += weight(k);
            if groups.len() < parts - 1 && done >= per {
                groups.push(std::iter::once(start..item.range.end).collect());
                start = item.range.end;
                done = 0;
            }
        }
        if start < source.len() {
            groups.push(std::iter::once(start..source.len()).collect());
        }
        // One item holding most of the file (a module's `(function () {…})()`, a class of
        // tables) is cut in a block instead, in two.
        let lopsided = groups.iter().any(|g| g[0].len() > source.len() / 4 * 3);
        if groups.len() < 2 || lopsided {
            if let Some(g) = self.block_halves(source, regions) {
                groups = g;
            }
        }
        (groups.len() >= 2).then_some(groups)
    }

    /// A brace language's file cut in two inside a `{…}` block, at a statement or member
    /// boundary near its middle (`brace::block_cut`): the first part is the file up to the
    /// cut and from the block's `}` on, the second the top-level item holding the block up to
    /// its `{`, then from the cut to the item's end. Each statement or member of the block is
    /// parsed in one of them as the whole-file parse reads it (a cut that is not a boundary
    /// leaves a part with a syntax error: the file is parsed whole).
    ///
    /// JavaScript, TypeScript, TSX, Go and Java: every file of their corpora whose halves
    /// parse gives the whole parse's symbols (`block_halves_on_a_corpus`; the cut is never
    /// right after a comment, nor in Go at a comment's line: see `brace::block_cut`).
    pub(super) fn block_halves(
        &self,
        source: &[u8],
        regions: &Regions,
    ) -> Option<Vec<Vec<Range<usize>>>> {
        if !matches!(
            self.name,
            "javascript" | "typescript" | "tsx" | "go" | "java"
        ) {
            return None;
        }
        let lexicon = super::brace::lexicon(self.name)?;
        let (open, cut, close) = super::brace::block_cut(lexicon, source)?;
        let item = regions
            .items
            .iter()
            .find(|i| i.range.start <= open && close < i.range.end)?;
        let halves = vec![
            vec![0..cut, close..source.len()],
            vec![item.range.start..open + 1, cut..item.range.end],
        ];
        // Each part at most three quarters of the file.
        let most = source.len() / 4 * 3;
        halves
            .iter()
            .all(|h| h.iter().map(|r| r.len()).sum::<usize>() <= most)
            .then_some(halves)
    }
}

/// What a part's thread hands back: its definitions, for one pass over all parts (block
/// halves), or what was made of its symbols (parts of whole items).
enum Part<'t, T> {
    Prepared(Vec<Prepared<'t>>),
    Done(T),
}

/// Files smaller than this are outlined from a whole parse (skipping their data is not worth
/// a second scan).
const OUTLINE_GAPS_AT: usize = 64 * 1024;

/// Where to cut a root's children in `runs` runs of about equal size: for each k-th of the
/// root's text, the start of the first child that begins past it (none before the second
/// child; fewer cuts when a child spans several). Empty: the children do not cut.
fn children_cuts(root: tree_sitter::Node, runs: usize) -> Vec<usize> {
    let (start, len) = (root.start_byte(), root.end_byte() - root.start_byte());
    let mut cursor = root.walk();
    let starts: Vec<usize> = root
        .children(&mut cursor)
        .skip(1)
        .map(|c| c.start_byte())
        .collect();
    let mut cuts: Vec<usize> = (1..runs)
        .filter_map(|k| {
            let at = start + len / runs * k;
            starts.get(starts.partition_point(|&s| s < at)).copied()
        })
        .collect();
    cuts.dedup();
    cuts
}

/// A gap as a parse reads it: left out (tree-sitter's included ranges, which cost per token as
/// many as there are: a few) or blanked (line breaks kept); a run of joined strings read as
/// one string (`joined`) is left out.
struct ReadGap {
    range: Range<usize>,
    left_out: bool,
    joined: bool,
}

/// Runs of joined strings shorter than this are read string by string (a run left out is one
/// more range for every token of the parse to pass).
const JOINED_LEFT_OUT_FROM: usize = 1024;

/// The length from which runs of joined strings are read as one (and left out): every one of
/// `left_out` bytes or more, as other gaps, then the longest shorter ones (of
/// [`JOINED_LEFT_OUT_FROM`] bytes or more) while fewer than 64 gaps are left out in all. In
/// `GB18030.java`, 24 of 56 runs are a 64th of the file or more; the other 32 are 9% of its
/// data but took a third of its outline's time, read string by string.
fn join_from(gaps: &[Gap], left_out: usize) -> usize {
    let big = gaps.iter().filter(|g| g.range.len() >= left_out).count();
    let mut shorter: Vec<usize> = (gaps.iter())
        .filter(|g| !g.joined.is_empty())
        .map(|g| g.range.len())
        .filter(|&n| (JOINED_LEFT_OUT_FROM..left_out).contains(&n))
        .collect();
    shorter.sort_unstable_by(|a, b| b.cmp(a));
    shorter.truncate(64usize.saturating_sub(big));
    shorter.last().copied().unwrap_or(left_out)
}

/// The `gaps` as a parse reads them: those of `left_out` bytes or more left out; a run of
/// joined strings as one when of `join_from` bytes or more (a shorter run holds line breaks
/// that a blanked string cannot), else each of its insides long enough to be a gap.
fn read_gaps(gaps: &[Gap], left_out: usize, join_from: usize) -> Vec<ReadGap> {
    let mut read = Vec::with_capacity(gaps.len());
    for g in gaps {
        let joined = !g.joined.is_empty();
        if !joined || g.range.len() >= join_from {
            read.push(ReadGap {
                range: g.range.clone(),
                left_out: joined || g.range.len() >= left_out,
                joined,
            });
        } else {
            read.extend(
                (g.joined.iter())
                    .filter(|r| r.len() >= MIN_GAP)
                    .map(|r| ReadGap {
                        range: r.clone(),
                        left_out: r.len() >= left_out,
                        joined: false,
                    }),
            );
        }
    }
    read
}

/// Whether each gap (in order) lies in one node of the lexicon's `data_kinds` (a string or
/// array literal), between its opening leaf, which ends where the gap starts, and its closing
/// leaf, which starts where the gap ends, with only that node's own leaves (a string's
/// content) between. A joined gap's string must also sit where a joined expression can (one
/// of the lexicon's `Join::slots`: a variable's value, an argument), which the whole file has
/// there: not a Go struct tag or an import's path, where only a string parses.
fn gaps_hold(tree: &Tree, gaps: &[ReadGap], lexicon: &Lexicon) -> bool {
    let mut g = 0;
    // The parents of the cursor's node, each with its field in its own parent, and the
    // literal that holds gap `g` once opened.
    let mut parents: Vec<(tree_sitter::Node, Option<&str>)> = Vec::new();
    let mut opened: Option<usize> = None;
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.child_count() == 0 && g < gaps.len() {
            let parent = parents.last().map(|p| (p.0.id(), p.0.kind()));
            let (start, end) = (node.start_byte(), node.end_byte());
            let gap = &gaps[g].range;
            match opened {
                Some(id) if parent.map(|p| p.0) != Some(id) => return false,
                Some(_) if start == gap.end => {
                    opened = None;
                    g += 1;
                }
                Some(_) if gap.start <= start && end <= gap.end => {}
                Some(_) => return false,
                None => {}
            }
            if let (None, Some(gap)) = (opened, gaps.get(g)) {
                if end == gap.range.start {
                    match parent {
                        Some((id, kind)) if lexicon.data_kinds.contains(&kind) => {
                            if gap.joined
                                && !in_join_slot(
                                    &parents,
                                    lexicon.join.as_ref().map_or(&[], |j| j.slots),
                                )
                            {
                                return false;
                            }
                            opened = Some(id);
                        }
                        _ => return false,
                    }
                } else if end > gap.range.start {
                    return false;
                }
            }
        }
        let field = cursor.field_name();
        if cursor.goto_first_child() {
            parents.push((node, field));
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return g == gaps.len() && opened.is_none();
            }
            parents.pop();
        }
    }
}

/// Whether the last of `parents` (a string) sits in one of the `slots`: its parent's kind, or
/// that kind and the string's field (`variable_declarator.value`).
fn in_join_slot(parents: &[(tree_sitter::Node, Option<&str>)], slots: &[&str]) -> bool {
    let [.., (parent, _), (_, field)] = parents else {
        return false;
    };
    let kind = parent.kind();
    slots.iter().any(|slot| match slot.split_once('.') {
        Some((k, f)) => k == kind && *field == Some(f),
        None => *slot == kind,
    })
}

#[cfg(test)]
mod tests {
    use crate::lang::{by_name, symbols, Symbol};
    use crate::span::LineIndex;

    /// Each symbol as JSON: what the outline prints of it.
    fn json(syms: &[Symbol]) -> Vec<String> {
        (syms.iter())
            .map(|s| serde_json::to_string(s).unwrap())
            .collect()
    }

    /// `unit` (with `NN` numbered) repeated past 100 KiB.
    fn big(unit: &str) -> Vec<u8> {
        let mut text = String::new();
        let mut k = 0;
        while text.len() < 100 * 1024 {
            text.push_str(&unit.replace("NN", &k.to_string()));
            k += 1;
        }
        text.into_bytes()
    }

    /// A long run of strings joined by `+` (or, in Python, written one after the other) is
    /// left out as one string where a joined expression can be (a value, an argument, a
    /// return), each string alone elsewhere (a method's object), and not where only a string
    /// parses (a Go struct tag, an object's key): the outline is the whole parse's, or the
    /// whole file is parsed.
    #[test]
    fn joined_strings_are_read_as_one_where_an_expression_can_be() {
        let run = |q: &str, sep: &str| {
            (0..120)
                .map(|k| format!("{q}{k:0>40}{q}"))
                .collect::<Vec<_>>()
                .join(sep)
        };
        let (go, java) = (run("\"", " +\n\t"), run("\"", "\n        + "));
        let (ts, js) = (run("'", " +\n  "), run("\"", " + "));
        let py = run("'", "\n        ");
        // (language, unit, how many runs each unit joins; whether the first reading holds)
        let cases = [
            ("go", format!("// ZNN is data.\nconst ZNN = {go}\n\nfunc FNN() string {{\n\treturn f({go}, ({go}))\n}}\n\ntype TNN struct{{ A int }}\n"), 3, true),
            ("java", format!("class TNN {{\n    static final String Z = {java};\n    String m() {{ return g({java}); }}\n    int n() {{ return ({java}).length(); }}\n}}\n"), 3, true),
            ("typescript", format!("export const ZNN = {ts};\nexport function fNN(): string {{\n  return g({ts});\n}}\nconst oNN = {{ k: {ts} }};\n"), 3, true),
            ("javascript", format!("var ZNN = {js};\nfunction fNN() {{\n  return {js};\n}}\n"), 2, true),
            ("python", format!("ZNN = ({py})\n\n\ndef fNN():\n    \"\"\"Doc.\"\"\"\n    return g({py}, k={py})\n\n\nclass CNN:\n    x = {{'k': \"a\" {py}}}\n"), 4, true),
            // The value of a subscript: each string alone.
            ("python", format!("def fNN():\n    return ({py}[0])\n"), 1, false),
            // The object of a call: each string alone.
            ("java", format!("class TNN {{\n    int n() {{ return {java}.length(); }}\n}}\n"), 1, false),
        ];
        for (lang, unit, runs, first) in &cases {
            let l = by_name(lang).unwrap();
            let src = big(unit);
            let index = LineIndex::new(&src);
            let lexicon = crate::lang::brace::lexicon(lang).unwrap();
            let gaps = crate::lang::brace::gaps(lexicon, &src);
            let left_out = (src.len() / 64).max(4096);
            let read = super::read_gaps(&gaps, left_out, left_out);
            let joined = read.iter().filter(|g| g.joined).count();
            // As many units as `big` wrote.
            let (mut units, mut len) = (0, 0);
            while len < src.len() {
                len += unit.replace("NN", &units.to_string()).len();
                units += 1;
            }
            assert_eq!(joined, runs * units, "{lang}: {joined} runs");
            assert_eq!(
                l.parse_without(&src, &index, lexicon, &read).is_some(),
                *first,
                "{lang}: {unit}"
            );
            let tree = l
                .parse_outline(&src, &index)
                .unwrap_or_else(|| panic!("{lang}: parsed whole"));
            let whole = l.parse(&src);
            assert!(!whole.root_node().has_error(), "{lang}");
            let (a, b) = (
                json(&symbols(l, &src, &tree, "f")),
                json(&symbols(l, &src, &whole, "f")),
            );
            assert!(a.len() >= 8, "{lang}: {} symbols", a.len());
            assert_eq!(a, b, "{lang}: {unit}");
        }
        for (lang, unit) in [
            ("go", format!("type SNN struct {{\n\tA int {go}\n}}\n")),
            ("javascript", format!("var pNN = {{ {js}: 1 }};\n")),
        ] {
            let l = by_name(lang).unwrap();
            let src = big(&unit);
            assert!(l.parse(&src).root_node().has_error(), "{lang}");
            let index = LineIndex::new(&src);
            assert!(l.parse_outline(&src, &index).is_none(), "{lang}: {unit}");
        }
    }

    /// Runs of joined strings shorter than a 64th of the file are left out too, the longest
    /// first, while fewer than 64 gaps are left out in all; none under 1 KiB.
    #[test]
    fn the_longest_runs_of_joined_strings_are_left_out_up_to_64_gaps() {
        use crate::lang::brace::Gap;
        let mut at = 0;
        let mut gap = |len: usize, joined: bool| {
            let range = at..at + len;
            at += len + 10;
            let joined = match joined {
                true => vec![range.start..range.start + 40, range.end - 40..range.end],
                false => Vec::new(),
            };
            Gap { range, joined }
        };
        // 3 big gaps (one a run), 70 runs of 2,000 bytes and one longer, runs of 900 bytes,
        // and long strings alone.
        let mut gaps = vec![gap(5000, false), gap(5000, true), gap(4096, false)];
        gaps.extend((0..70).map(|_| gap(2000, true)));
        gaps.push(gap(3000, true));
        gaps.extend((0..5).map(|_| gap(900, true)));
        gaps.extend((0..5).map(|_| gap(3000, false)));
        let from = super::join_from(&gaps, 4096);
        assert_eq!(from, 2000);
        let read = super::read_gaps(&gaps, 4096, from);
        let left_out = read.iter().filter(|g| g.left_out).count();
        // Ties at 2,000 bytes all go in: 3 + 1 + 70.
        assert_eq!(left_out, 74);
        assert!(read
            .iter()
            .all(|g| g.left_out == (g.joined || g.range.len() >= 4096)));
        // Fewer runs: all of them down to 1 KiB, those of 900 bytes string by string.
        gaps.retain(|g| g.range.len() != 2000);
        assert_eq!(super::join_from(&gaps, 4096), 3000);
        let read = super::read_gaps(&gaps, 4096, 3000);
        assert_eq!(read.iter().filter(|g| g.joined).count(), 2);
        assert_eq!(read.iter().filter(|g| !g.left_out).count(), 5 * 2 + 5);
    }

    /// Every file of a corpus with data an outline may skip, read with every run of joined
    /// strings as one string whatever its length (and every other gap as the outline reads
    /// it): where that parse holds, its symbols are the whole parse's.
    /// `LLM_REGIONS_CORPUS=DIR cargo test --lib joined_strings_on_a_corpus -- --ignored`.
    #[test]
    #[ignore]
    fn joined_strings_on_a_corpus() {
        let dir = std::env::var("LLM_REGIONS_CORPUS").expect("LLM_REGIONS_CORPUS=DIR");
        let (mut files, mut joined, mut compared) = (0, 0, 0);
        for (p, l, src) in crate::lang::source_files(std::path::Path::new(&dir)) {
            let Some(lexicon) = crate::lang::brace::lexicon(l.name) else {
                continue;
            };
            files += 1;
            let gaps = crate::lang::brace::gaps(lexicon, &src);
            let read = super::read_gaps(&gaps, (src.len() / 64).max(4096), 0);
            let runs = read.iter().filter(|g| g.joined).count();
            if read.is_empty() {
                continue;
            }
            let index = LineIndex::new(&src);
            let Some(tree) = l.parse_without(&src, &index, lexicon, &read) else {
                continue;
            };
            compared += 1;
            joined += runs;
            let whole = json(&symbols(l, &src, &l.parse(&src), "f"));
            assert_eq!(
                json(&symbols(l, &src, &tree, "f")),
                whole,
                "{}",
                p.display()
            );
        }
        eprintln!("{files} files; {compared} compared, with {joined} runs of joined strings");
        assert!(compared > 0);
    }

    /// The outline's symbols in parts (each part's nested and numbered after the one before;
    /// or a block cut out of an item, one pass over both halves) are the whole parse's: the
    /// same JSON, same-named symbols numbered across the parts.
    #[test]
    fn outline_symbols_in_parts_are_the_whole_parses() {
        // Whether the file splits in whole items.
        let cases = [
            ("typescript", "/** Doc NN. */\ninterface A { x: string; m(): void }\nexport function fNN(a: number) { return a; }\nclass C { p = 1; q() {} }\ndeclare var A: { prototype: A; new(): A };\n", true),
            ("go", "// F is f.\nfunc F() {}\n\ntype TNN struct {\n\tA int\n}\n\nfunc (t TNN) M() {}\n", true),
            ("rust", "/// Doc.\nfn f() {}\nimpl S { fn m(&self) {} }\nmod mNN { struct S; }\n", true),
            ("python", "def f():\n    pass\n\nclass C:\n    def m(self):\n        x = 1\n\n", true),
            // One item holding most of the file: block halves, nested in one pass.
            ("javascript", "", false),
            // Ruby's cut (no regions): runs of a class's members, nested in one pass.
            ("ruby", "", false),
        ];
        for ((lang, unit, items), n) in cases.into_iter().flat_map(|c| [(c, 2), (c, 5)]) {
            let l = by_name(lang).unwrap();
            let src = if lang == "javascript" {
                let body = String::from_utf8(big(
                    "  /** f. */\n  function f() {}\n  var gNN = function () {};\n\n",
                ))
                .unwrap();
                format!("/** M. */\n;(function () {{\n{body}}}.call(this));\n").into_bytes()
            } else if lang == "ruby" {
                let body = String::from_utf8(big(
                    "  # Doc of mNN.\n  def mNN(x)\n    x + 1\n  end\n\n  C = 1\n  def self.k\n  end\n",
                ))
                .unwrap();
                format!("# A.\nclass A < B\n  attr_reader :a\n{body}end\n\nclass Z\nend\n")
                    .into_bytes()
            } else {
                big(unit)
            };
            let index = LineIndex::new(&src);
            let whole = symbols(l, &src, &l.parse(&src), "f");
            assert!(whole.iter().any(|s| s.symbol_id != whole[0].symbol_id));
            let mut trees = Vec::new();
            let parts = l
                .outline_symbols(&src, &index, "f", n, &mut trees, &mut Vec::new(), &|s| s)
                .unwrap_or_else(|| panic!("{lang}: no parts"));
            // Block halves are two, nested at once; Ruby's parts as many as asked.
            let (results, parsed) = match (items, lang) {
                (true, _) => (n, n),
                (false, "ruby") => (1, n),
                (false, _) => (1, 2),
            };
            assert_eq!(parts.len(), results, "{lang}, {n} parts");
            assert_eq!(trees.len(), parsed, "{lang}, {n} parts");
            assert_eq!(json(&parts.concat()), json(&whole), "{lang}, {n} parts");
        }
    }

    /// A whole tree's symbols found in runs of its root's children are the one walk's; a
    /// definition reaching across a cut (a C function declared by a macro, whose body is the
    /// next child) leaves the walk to one thread.
    #[test]
    fn a_trees_runs_give_its_symbols_unless_a_definition_spans_a_cut() {
        let l = by_name("c").unwrap();
        // Functions of a few lines (runs need some text for each of the root's children).
        let half = big("/* f. */\nint fNN(int a)\n{\n\tint b = a + NN;\n\n\tif (b > 2)\n\t\treturn b * 2;\n\twhile (b < 100) {\n\t\tb += a;\n\t\ta = a * 2 + 1;\n\t}\n\tswitch (b) {\n\tcase 1:\n\t\treturn 3;\n\tdefault:\n\t\tbreak;\n\t}\n\treturn b;\n}\n\n#define MNN(x) ((x) + (NN))\n");
        let half = String::from_utf8(half).unwrap();
        // The macro's call before the middle, its body (the next child) after it.
        let spanning = format!("{half}BPF_CALL_1(b, int, a)\n{{ return a; }}\n{half}");
        let apart = format!("{half}BPF_CALL_1(b, int, a)\n{{ return a; }}\n\n{half}{half}");
        // The middle is a cut in two runs as in four.
        let cases = [(&spanning, false), (&apart, true)];
        for ((src, split), n) in cases.into_iter().flat_map(|c| [(c, 2), (c, 4)]) {
            let src = src.as_bytes();
            let index = LineIndex::new(src);
            let tree = l.parse(src);
            let whole = symbols(l, src, &tree, "f");
            assert!(whole.iter().any(|s| s.name == "b"));
            let runs = l.symbols_of_tree_runs(src, &index, "f", &tree, n, &|s| s);
            let Some(runs) = runs else {
                assert!(!split, "no runs");
                continue;
            };
            assert!(split, "runs across a definition");
            assert_eq!(runs.len(), n, "{n} runs");
            assert_eq!(json(&runs.concat()), json(&whole), "{n} runs");
        }
        // Many small children for their text: one walk is cheaper than each run passing
        // them all.
        let dense = big("struct sNN { int a; };\n");
        let tree = l.parse(&dense);
        let index = LineIndex::new(&dense);
        assert!(l
            .symbols_of_tree_runs(&dense, &index, "f", &tree, 2, &|s| s)
            .is_none());
    }
}
