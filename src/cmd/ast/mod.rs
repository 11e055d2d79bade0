//! `llm ast`: a tree-sitter query over every file of the languages it applies to. Files that
//! lack the query's required literals are skipped unparsed; the rest are parsed in parallel and
//! their matches reach the printer per file, in path order.

use crate::envelope::{new_id, DiagnosticPayload, Level, Status};
use crate::error::{Code, Error, Result};
use crate::lang::{self, Language};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::{self, Candidate, Skipped, WalkOptions};
use serde::Serialize;
use tree_sitter::{QueryCursor, StreamingIterator, Tree};

mod bare;
mod compile;
use bare::bare_matches;
pub use bare::Bare;
pub use compile::{compile, query_error, Compiled, BARE_PATTERN_CAPTURE};

/// Everything `llm ast QUERY` needs, free of clap.
#[derive(Debug, Clone)]
pub struct AstOptions {
    /// The query source.
    pub query: String,
    /// Languages to try (empty: every registered language).
    pub langs: Vec<&'static Language>,
    /// Skip files and regions that lack the words every match needs (`--no-prefilter`: no).
    pub prefilter: bool,
    pub walk: WalkOptions,
    pub max_results: Option<usize>,
    pub threads: usize,
    /// Keep only each capture's first line (human output shows no more): a capture's whole
    /// text, kept for each of nested matches, is quadratic in their depth.
    pub first_lines: bool,
}

/// One capture of a match.
#[derive(Debug, Clone, Serialize)]
pub struct AstCapture {
    pub name: String,
    pub span: Span,
    /// The captured node's text (lossy if the file is not UTF-8); with
    /// [`AstOptions::first_lines`], its first line (with its line ending).
    pub content: String,
    /// With [`AstOptions::first_lines`]: lines other than blank ones follow the first.
    #[serde(skip)]
    pub more: bool,
}

/// A capture's text at `r` and whether more than blank lines follow its first (see
/// [`AstCapture`]): all of it, or with `first_line` its first line only. 20,000 nested
/// `{a:` pairs (100 KB of JavaScript), each pair's whole text kept, took 1.25 GB (release)
/// for `llm ast '(pair) @p'` in human output.
fn capture_text(source: &[u8], r: std::ops::Range<usize>, first_line: bool) -> (String, bool) {
    let text = &source[r];
    let nl = memchr::memchr(b'\n', text).filter(|_| first_line);
    let Some(nl) = nl else {
        return (String::from_utf8_lossy(text).into_owned(), false);
    };
    (
        String::from_utf8_lossy(&text[..=nl]).into_owned(),
        !blank(&text[nl + 1..]),
    )
}

/// Whether `text` is whitespace only, as `String::from_utf8_lossy(text).trim().is_empty()`
/// (a byte that is not UTF-8 reads as U+FFFD, no blank), read only up to its first other
/// char (`utf8_chunks` checks all of it first: the nested pairs above took 1.6 s).
fn blank(text: &[u8]) -> bool {
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        let len = match b {
            0..=0x7f if (b as char).is_whitespace() => 1,
            0..=0x7f => return false,
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return false,
        };
        let ch = text
            .get(i..i + len)
            .and_then(|c| std::str::from_utf8(c).ok());
        if !ch.is_some_and(|c| c.chars().all(char::is_whitespace)) {
            return false;
        }
        i += len;
    }
    true
}

/// One match of the query.
#[derive(Debug, Clone, Serialize)]
pub struct AstMatch {
    pub match_id: String,
    /// Covers every capture of the match.
    pub span: Span,
    /// Which top-level pattern of the query matched (0-based).
    pub pattern_index: usize,
    pub language: &'static str,
    pub captures: Vec<AstCapture>,
}

/// A file that contributed matches.
#[derive(Debug, Clone, Serialize)]
pub struct AstFile {
    pub file_path: String,
    /// SHA-256 of the bytes queried.
    pub checksum: String,
    pub language: &'static str,
    pub match_count: usize,
    /// The file has ERROR/MISSING nodes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parse_errors: bool,
}

/// One file's result, handed to the printer in path order.
#[derive(Debug)]
pub struct FileResult {
    pub file: AstFile,
    pub matches: Vec<AstMatch>,
    /// Matches found in the file: more than `matches` when `--max-results` cut them while
    /// they were collected.
    pub found: usize,
    /// The matches as the printer writes them, rendered by the worker (see [`Render`]);
    /// `matches` is then empty.
    pub rendered: Option<Vec<u8>>,
}

/// Renders a file's matches as the printer would write them, on the worker that found them
/// (in parallel, and the matches are freed on the thread that allocated them).
pub type Render<'a> = &'a (dyn Fn(&FileResult, &mut Vec<u8>) + Sync);

/// One file's matches as they are found, keeping at most `limit` of them (the first by
/// position, as the output orders them): pruned whenever twice the limit piles up, so a query
/// matching millions of times in one file holds O(limit) matches, not all of them.
struct Collected {
    matches: Vec<AstMatch>,
    limit: Option<usize>,
    found: usize,
    /// After a prune: the position of the last match kept; a match after it can never be
    /// kept, so it is only counted (not built).
    cutoff: Option<(usize, usize, usize)>,
}

impl Collected {
    /// Counts a match at `key` (start, end, pattern) that cannot be kept; `false` when it
    /// might be (build it and [`Collected::push`] it).
    fn skip(&mut self, key: (usize, usize, usize)) -> bool {
        let skip = self.cutoff.is_some_and(|c| key > c);
        self.found += usize::from(skip);
        skip
    }

    fn push(&mut self, m: AstMatch) {
        self.found += 1;
        self.matches.push(m);
        if let Some(limit) = self.limit {
            if self.matches.len() >= 2 * limit.max(1) {
                self.finish();
            }
        }
    }

    /// Sorted by position, cut to the limit.
    fn finish(&mut self) {
        self.matches
            .sort_by_key(|m| (m.span.byte_start, m.span.byte_end, m.pattern_index));
        if let Some(limit) = self.limit {
            self.matches.truncate(limit);
            if self.matches.len() == limit {
                self.cutoff = self
                    .matches
                    .last()
                    .map(|m| (m.span.byte_start, m.span.byte_end, m.pattern_index));
            }
        }
    }
}

/// Counters for the whole run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AstStats {
    pub files_parsed: u64,
    /// Files of a queried language whose bytes lack the query's required literals.
    pub files_skipped_prefilter: u64,
    pub files_with_parse_errors: u64,
    /// Files skipped because they are not UTF-8 (parsed anyway when named explicitly).
    pub files_not_utf8: u64,
    pub files_with_matches: u64,
    /// Files found by the walk that belong to no queried language.
    pub files_other_language: u64,
    pub bytes_parsed: u64,
    pub skipped: Skipped,
}

/// Everything but the matches (which went to the printer as they came).
#[derive(Debug, Clone)]
pub struct AstSummary {
    pub status: Status,
    pub languages: Vec<&'static str>,
    pub prefilter: Vec<String>,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: AstStats,
    pub diagnostics: Vec<DiagnosticPayload>,
}

/// The JSON `data` of `llm ast`.
#[derive(Debug, Serialize)]
pub struct AstData {
    pub query: String,
    /// Languages whose grammar accepted the query.
    pub languages: Vec<&'static str>,
    /// Literals a file must contain to be parsed (empty: every file is parsed).
    pub prefilter: Vec<String>,
    pub matches: Vec<AstMatch>,
    pub files: Vec<AstFile>,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: AstStats,
}

impl AstOptions {
    /// The request as echoed in the envelope's `query`.
    pub fn query_echo(&self) -> serde_json::Value {
        let mut q = serde_json::json!({
            "query": self.query,
            "paths": self.walk.paths.iter().map(|p| walk::display_path(p)).collect::<Vec<_>>(),
        });
        let o = q.as_object_mut().unwrap();
        if !self.langs.is_empty() {
            o.insert(
                "languages".into(),
                self.langs.iter().map(|l| l.name).collect::<Vec<_>>().into(),
            );
        }
        walk_echo(o, &self.walk);
        if let Some(m) = self.max_results {
            o.insert("max_results".into(), m.into());
        }
        if !self.prefilter {
            o.insert("no_prefilter".into(), true.into());
        }
        q
    }
}

/// Adds the walk flags that change a result to a query echo.
pub fn walk_echo(o: &mut serde_json::Map<String, serde_json::Value>, w: &WalkOptions) {
    if !w.globs.is_empty() {
        o.insert("globs".into(), w.globs.clone().into());
    }
    for (k, v) in [
        ("hidden", w.hidden),
        ("no_ignore", w.no_ignore),
        ("follow", w.follow),
    ] {
        if v {
            o.insert(k.into(), true.into());
        }
    }
    if let Some(m) = w.max_filesize {
        o.insert("max_filesize".into(), m.into());
    }
}

/// Why a file was not queried.
pub enum Skip {
    Binary,
    Unreadable(Box<DiagnosticPayload>),
}

/// Reads a candidate file; binary files are skipped unless named explicitly.
pub fn read_source(cand: &Candidate, tool: &str) -> std::result::Result<Vec<u8>, Skip> {
    match crate::fsio::read(&cand.path, &cand.display) {
        Ok(b) => {
            if !cand.explicit && memchr::memchr(0, &b[..b.len().min(8192)]).is_some() {
                Err(Skip::Binary)
            } else {
                Ok(b)
            }
        }
        Err(e) => {
            let level = if cand.explicit {
                Level::Error
            } else {
                Level::Warning
            };
            let mut d = e.diagnostic(level);
            d.tool = tool.into();
            Err(Skip::Unreadable(Box::new(d)))
        }
    }
}

/// The language a file is queried as: by extension, or the only `--lang` for a named file.
pub fn language_of(
    cand: &Candidate,
    allowed: &[&'static Language],
    forced: Option<&'static Language>,
) -> Option<&'static Language> {
    match lang::for_path(&cand.path) {
        Some(l) if allowed.iter().any(|a| a.name == l.name) => Some(l),
        Some(_) => None,
        None if cand.explicit => forced,
        None => None,
    }
}

/// For a file named on the command line that no queried language claims: a warning saying so.
pub fn no_language(cand: &Candidate, tool: &str) -> Option<DiagnosticPayload> {
    if !cand.explicit {
        return None;
    }
    let mut d = Error::new(
        Code::NoLanguage,
        format!(
            "{}: not a file of the languages queried; skipped",
            cand.display
        ),
        "pass --lang LANG to read it as that language, or drop it from the paths",
    )
    .with_file(&cand.display)
    .diagnostic(Level::Warning);
    d.tool = tool.into();
    Some(d)
}

/// Tree-sitter reads sources as UTF-8: a found file that is not is skipped with a warning (as
/// ast-grep does); a file named on the command line is parsed anyway (text fields lossy).
pub fn not_utf8(cand: &Candidate, source: &[u8], tool: &str) -> Option<DiagnosticPayload> {
    if cand.explicit || std::str::from_utf8(source).is_ok() {
        return None;
    }
    let mut d = Error::new(
        Code::SourceNotUtf8,
        format!("{} is not valid UTF-8; skipped", cand.display),
        "convert it to UTF-8, or name the file explicitly to parse it anyway (text fields lossy)",
    )
    .with_file(&cand.display)
    .diagnostic(Level::Warning);
    d.tool = tool.into();
    Some(d)
}

/// A warning for a file with syntax errors, located at its first error; `None` when the tree
/// has none (a root flagged with an error that no ERROR or MISSING node shows is no warning).
pub fn syntax_warning(
    code: Code,
    tool: &str,
    display: &str,
    index: &LineIndex,
    tree: &tree_sitter::Tree,
) -> Option<DiagnosticPayload> {
    syntax_warning_of(code, tool, display, index, &lang::syntax_errors(tree))
}

/// [`syntax_warning`] of the syntax errors `errs` (in file order); `None` when there are none.
pub fn syntax_warning_of(
    code: Code,
    tool: &str,
    display: &str,
    index: &LineIndex,
    errs: &[lang::SyntaxError],
) -> Option<DiagnosticPayload> {
    let first = errs.first()?.range.clone();
    let what = if tool == "ast" { "matches" } else { "symbols" };
    let mut d = Error::new(
        code,
        format!(
            "{display} has {} syntax error(s); {what} inside the broken region may be missing",
            errs.len()
        ),
        "fix the syntax error, or treat results near it as incomplete",
    )
    .with_span(index.span(display, first))
    .diagnostic(Level::Warning);
    d.tool = tool.into();
    Some(d)
}

/// What became of one file in a parsing command (`ast`, `find`): not its language, not UTF-8,
/// skipped, cut by the prefilter, or parsed with the command's own payload `P`.
pub(crate) enum Outcome<P> {
    Other(Option<DiagnosticPayload>),
    NotUtf8(DiagnosticPayload),
    Skipped(Skip),
    Prefiltered,
    Parsed(P),
}

/// The counters every parsing command keeps for the files it did not parse.
pub(crate) struct Unparsed<'a> {
    pub other_language: &'a mut u64,
    pub prefiltered: &'a mut u64,
    pub not_utf8: &'a mut u64,
    pub skipped: &'a mut Skipped,
}

impl<P> Outcome<P> {
    /// Counts a file that was not parsed (keeping its diagnostic) or hands back the payload of
    /// one that was.
    pub(crate) fn parsed(
        self,
        c: Unparsed<'_>,
        diagnostics: &mut Vec<DiagnosticPayload>,
    ) -> Option<P> {
        match self {
            Outcome::Other(d) => {
                *c.other_language += 1;
                diagnostics.extend(d);
            }
            Outcome::Skipped(Skip::Binary) => c.skipped.binary += 1,
            Outcome::Skipped(Skip::Unreadable(d)) => {
                c.skipped.unreadable += 1;
                diagnostics.push(*d);
            }
            Outcome::Prefiltered => *c.prefiltered += 1,
            Outcome::NotUtf8(d) => {
                *c.not_utf8 += 1;
                diagnostics.push(d);
            }
            Outcome::Parsed(p) => return Some(p),
        }
        None
    }
}

/// A file `llm ast` parsed.
struct AstParsed {
    bytes: u64,
    errors: bool,
    diag: Option<DiagnosticPayload>,
    result: Option<FileResult>,
}

/// The query compiled for the languages that accept it (see [`compile`]), `--no-prefilter`
/// applied: what [`run`] runs, and what the envelope says of it before any match comes.
pub struct Prepared {
    compiled: Vec<Compiled>,
}

impl Prepared {
    /// Languages whose grammar accepted the query.
    pub fn languages(&self) -> Vec<&'static str> {
        self.compiled.iter().map(|c| c.lang.name).collect()
    }

    /// Literals a file must contain to be parsed.
    pub fn prefilter(&self) -> Vec<String> {
        let mut prefilter: Vec<String> = self
            .compiled
            .iter()
            .filter_map(|c| c.prefilter.as_ref())
            .flat_map(|f| f.describe())
            .collect();
        prefilter.dedup();
        prefilter
    }
}

/// Compiles the query of `opts`.
pub fn prepare(opts: &AstOptions) -> Result<Prepared> {
    let langs = if opts.langs.is_empty() {
        named_languages(&opts.walk.paths)
    } else {
        opts.langs.clone()
    };
    let mut compiled = compile(&opts.query, &langs)?;
    for c in &mut compiled {
        c.first_lines = opts.first_lines;
    }
    if !opts.prefilter {
        for c in &mut compiled {
            (c.prefilter, c.cut) = (None, None);
            if let Some(b) = c.bare.as_mut() {
                b.pruning = None;
            }
        }
    }
    Ok(Prepared { compiled })
}

/// The languages of `paths` when each is a file of a known language, in their order, once
/// each; else none (the query is compiled for every language). Compiling a query for all
/// thirteen grammars is most of a small file's `llm ast` (Python's and C++'s tables are the
/// slowest to analyse: 23 against 9 ms for `(function_definition) @f` on a two-line file).
fn named_languages(paths: &[std::path::PathBuf]) -> Vec<&'static Language> {
    let mut langs: Vec<&'static Language> = Vec::new();
    for p in paths {
        let Some(l) = p.is_file().then(|| lang::for_path(p)).flatten() else {
            return Vec::new();
        };
        if !langs.iter().any(|k| k.name == l.name) {
            langs.push(l);
        }
    }
    langs
}

/// Runs the query, handing each file's result to `emit` in path order. With `render` (used
/// only without `--max-results`, which may cut a file's matches when it is handed on), each
/// file's matches come rendered.
pub fn run(
    opts: &AstOptions,
    prepared: &Prepared,
    want_checksum: bool,
    render: Option<Render>,
    emit: &mut dyn FnMut(FileResult) -> std::io::Result<()>,
) -> Result<std::result::Result<AstSummary, std::io::Error>> {
    let compiled = &prepared.compiled;
    let walker = walk::prepare(&opts.walk, "ast")?.threads(walk::walk_threads(opts.threads));
    let allowed: Vec<&'static Language> = compiled.iter().map(|c| c.lang).collect();
    let forced = (allowed.len() == 1 && opts.langs.len() == 1).then(|| allowed[0]);
    let mut diagnostics = Vec::new();
    let mut stats = AstStats::default();
    let worker = |cand: &Candidate, only_file: bool| -> Outcome<AstParsed> {
        let Some(l) = language_of(cand, &allowed, forced) else {
            return Outcome::Other(no_language(cand, "ast"));
        };
        let i = compiled.iter().position(|c| c.lang.name == l.name).unwrap();
        let source = match read_source(cand, "ast") {
            Ok(s) => s,
            Err(s) => return Outcome::Skipped(s),
        };
        if let Some(f) = &compiled[i].prefilter {
            if !f.may_match(&source) {
                return Outcome::Prefiltered;
            }
        }
        if let Some(d) = not_utf8(cand, &source, "ast") {
            return Outcome::NotUtf8(d);
        }
        let mut parsed = query_file(
            &compiled[i],
            cand,
            &source,
            want_checksum,
            only_file,
            opts.max_results,
        );
        if let (Outcome::Parsed(p), Some(render)) = (&mut parsed, render) {
            if let Some(r) = p.result.as_mut().filter(|_| opts.max_results.is_none()) {
                let mut buf = Vec::new();
                render(r, &mut buf);
                r.matches = Vec::new();
                r.rendered = Some(buf);
            }
        }
        parsed
    };
    // What a result holds: its rendered bytes, or about so much per match.
    let weigh = |o: &Outcome<AstParsed>| match o {
        Outcome::Parsed(AstParsed {
            result: Some(r), ..
        }) => r.rendered.as_ref().map_or(r.matches.len() * 256, Vec::len),
        _ => 0,
    };
    let mut match_count = 0;
    let mut total_count = 0;
    let mut io_error = None;
    let tail = walk::for_each_file(walker, opts.threads, worker, weigh, |o| {
        let unparsed = Unparsed {
            other_language: &mut stats.files_other_language,
            prefiltered: &mut stats.files_skipped_prefilter,
            not_utf8: &mut stats.files_not_utf8,
            skipped: &mut stats.skipped,
        };
        let Some(AstParsed {
            bytes,
            errors,
            diag,
            result,
        }) = o.parsed(unparsed, &mut diagnostics)
        else {
            return true;
        };
        stats.files_parsed += 1;
        stats.bytes_parsed += bytes;
        if errors {
            stats.files_with_parse_errors += 1;
        }
        diagnostics.extend(diag);
        let Some(mut r) = result else { return true };
        stats.files_with_matches += 1;
        total_count += r.found;
        if let Some(max) = opts.max_results {
            let room = max.saturating_sub(match_count);
            if room == 0 {
                return true;
            }
            r.matches.truncate(room);
            r.file.match_count = r.matches.len();
        }
        // Rendered: every match of the file is there.
        match_count += if r.rendered.is_some() {
            r.found
        } else {
            r.matches.len()
        };
        if let Err(e) = emit(r) {
            io_error = Some(e);
            return false;
        }
        true
    });
    if let Some(e) = io_error {
        return Ok(Err(e));
    }
    tail.merge_into(&mut stats.skipped, &mut diagnostics);
    let status = if total_count > match_count {
        Status::Partial
    } else if match_count > 0 {
        Status::Ok
    } else {
        Status::NoMatches
    };
    Ok(Ok(AstSummary {
        status,
        languages: prepared.languages(),
        prefilter: prepared.prefilter(),
        match_count,
        total_count,
        stats,
        diagnostics,
    }))
}

/// `only_file`: the run's one file, whose tree is left to a background thread (see
/// `lang::discard`); in a scan, freeing on the worker costs less than freeing across threads.
fn query_file(
    c: &Compiled,
    cand: &Candidate,
    source: &[u8],
    want_checksum: bool,
    only_file: bool,
    limit: Option<usize>,
) -> Outcome<AstParsed> {
    let index = LineIndex::new(source);
    // Around the literals only, when the query allows it; a region parse has no errors (or it
    // would have been replaced by a whole-file parse).
    let hits = c.prefilter.as_ref().map(|f| {
        let mut hits = f.hits(source);
        hits.sort_by_key(|r| (r.start, r.end));
        hits
    });
    let (tree, parsed_bytes) = match (&hits, c.cut) {
        (Some(hits), Some(cut)) => {
            let p = c.lang.parse_around(source, &index, hits, cut);
            let bytes = p
                .ranges
                .as_ref()
                .map_or(source.len(), |r| r.iter().map(|r| r.len()).sum());
            (p.tree, bytes)
        }
        _ => (c.lang.parse(source), source.len()),
    };
    // The errors of the parses the matches are read from: the items' own, when the rule for
    // files with errors reads them (as `find` reports them).
    let items = by_items(c, source, &index, &tree, parsed_bytes);
    let diag = match &items {
        Some(parts) => {
            let errs = lang::items::errors(parts);
            syntax_warning_of(Code::SyntaxErrors, "ast", &cand.display, &index, &errs)
        }
        None => syntax_warning(Code::SyntaxErrors, "ast", &cand.display, &index, &tree),
    };
    let errors = diag.is_some();
    let names = c.query.capture_names();
    let mut matches = Collected {
        matches: Vec::new(),
        limit,
        found: 0,
        cutoff: None,
    };
    let find =
        |tree: &Tree, hits: Option<&[std::ops::Range<usize>]>, out: &mut Collected| match &c.bare {
            Some(bare) => bare_matches(c, bare, tree, source, &index, &cand.display, hits, out),
            None => query_matches(c, names, tree, source, &index, &cand.display, out),
        };
    match items {
        // Each match from the tree of the item (or member) it starts in.
        Some(parts) => {
            for part in &parts {
                let mut found = Collected {
                    matches: Vec::new(),
                    limit: None,
                    found: 0,
                    cutoff: None,
                };
                find(&part.tree, None, &mut found);
                for m in found.matches {
                    let key = (m.span.byte_start, m.span.byte_end, m.pattern_index);
                    if part.keeps(m.span.byte_start) && !matches.skip(key) {
                        matches.push(m);
                    }
                }
            }
        }
        None => find(&tree, hits.as_deref(), &mut matches),
    }
    if only_file {
        lang::discard(tree);
    }
    matches.finish();
    let Collected { matches, found, .. } = matches;
    let result = (found > 0).then(|| FileResult {
        file: AstFile {
            file_path: cand.display.clone(),
            checksum: if want_checksum {
                checksum(source)
            } else {
                String::new()
            },
            language: c.lang.name,
            match_count: found,
            parse_errors: errors,
        },
        matches,
        found,
        rendered: None,
    });
    Outcome::Parsed(AstParsed {
        bytes: parsed_bytes as u64,
        errors,
        diag,
        result,
    })
}

/// The trees of the rule for files with syntax errors (see [`crate::lang::items`]), when it
/// applies: the query could be answered from regions, `tree` is the whole file's and has an
/// error, and the language's items parse alone as in the whole file (not Bash's: it has no
/// region parses to agree with).
fn by_items(
    c: &Compiled,
    source: &[u8],
    index: &LineIndex,
    tree: &Tree,
    parsed_bytes: usize,
) -> Option<Vec<lang::items::ItemTree>> {
    let scan = c.lang.rules.regions?;
    if !c.by_items || parsed_bytes < source.len() || !tree.root_node().has_error() {
        return None;
    }
    let regions = scan(source);
    regions
        .independent
        .then(|| c.lang.item_trees(source, index, &regions, tree))
}

/// Matches through the query engine (predicates, fields, anchors, quantifiers).
fn query_matches(
    c: &Compiled,
    names: &[&str],
    tree: &tree_sitter::Tree,
    source: &[u8],
    index: &LineIndex,
    display: &str,
    matches: &mut Collected,
) {
    let mut cursor = QueryCursor::new();
    let mut it = cursor.matches(&c.query, tree.root_node(), source);
    while let Some(m) = it.next() {
        if m.captures().is_empty() {
            continue;
        }
        let lo = m.captures().iter().map(|c| c.node.start_byte()).min();
        let hi = m.captures().iter().map(|c| c.node.end_byte()).max();
        let (lo, hi) = (lo.unwrap_or(0), hi.unwrap_or(0));
        if matches.skip((lo, hi, m.pattern_index)) {
            continue;
        }
        let mut captures = Vec::with_capacity(m.captures().len());
        for cap in m.captures() {
            let r = cap.node.byte_range();
            let (content, more) = capture_text(source, r.clone(), c.first_lines);
            captures.push(AstCapture {
                name: names[cap.index as usize].to_string(),
                content,
                more,
                span: index.span(display, r),
            });
        }
        captures.sort_by_key(|c| (c.span.byte_start, c.span.byte_end));
        matches.push(AstMatch {
            match_id: new_id(),
            span: index.span(display, lo..hi),
            pattern_index: m.pattern_index,
            language: c.lang.name,
            captures,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::capture_text;

    #[test]
    fn a_first_line_says_whether_more_follows_as_the_whole_text_does() {
        let samples: [&[u8]; 10] = [
            b"one",
            b"one\n",
            b"one\r\n  \t\n",
            b"one\ntwo",
            b"one\r\n\n  x\n",
            b"one\n\xc2\xa0\n",
            b"one\n\xc2\xa0y",
            b"one\n\xff",
            b"one\n \xe2\x80",
            b"\nx",
        ];
        for s in samples {
            let whole = String::from_utf8_lossy(s);
            let (first, more) = capture_text(s, 0..s.len(), true);
            assert_eq!(first.lines().next(), whole.lines().next(), "{s:?}");
            assert_eq!(more, whole.trim_end().contains('\n'), "{s:?}");
            assert_eq!(
                capture_text(s, 0..s.len(), false),
                (whole.into_owned(), false)
            );
        }
    }
}
