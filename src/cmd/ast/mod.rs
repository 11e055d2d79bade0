//! `llm ast`: a tree-sitter query over every file of the languages it applies to. Files that
//! lack the query's required literals are skipped unparsed; the rest are parsed in parallel and
//! their matches reach the printer per file, in path order.

use crate::envelope::{new_id, DiagnosticPayload, Level, Status};
use crate::error::{Code, Error, Result};
use crate::lang::literals::{self, Prefilter};
use crate::lang::regions::Cut;
use crate::lang::{self, Language};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::{self, Candidate, Skipped, WalkOptions};
use serde::Serialize;
use tree_sitter::{Query, QueryCursor, QueryError, QueryErrorKind, StreamingIterator, Tree};

mod bare;
use bare::bare_matches;
pub use bare::Bare;

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

/// A query compiled for one language.
pub struct Compiled {
    pub lang: &'static Language,
    pub query: Query,
    /// Set when the query is only bare captured kinds (see [`literals::bare_kinds`]).
    pub bare: Option<Bare>,
    /// The literal prefilter, when every match needs one.
    pub prefilter: Option<Prefilter>,
    /// How finely a file may be cut to parse only around the prefilter's literals (see
    /// [`crate::lang::regions`]); `None`: files are parsed whole.
    pub cut: Option<Cut>,
    /// A file whose whole-file parse has a syntax error is read item by item (see
    /// [`crate::lang::items`]), as a region parse around the literals reads it: set when the
    /// query could be answered from regions (with or without `--no-prefilter`), so that its
    /// matches never depend on how much of a file was parsed.
    pub by_items: bool,
    /// [`AstOptions::first_lines`].
    pub first_lines: bool,
}

/// The capture a pattern that names none reports its node as.
pub const BARE_PATTERN_CAPTURE: &str = "match";

/// `src` with ` @match` after the root of each pattern that captures nothing (`(function_item)`
/// alone matches, but a match without captures has nothing to report); `None` when every
/// pattern captures something.
fn capture_bare_patterns(src: &str, query: &Query) -> Option<String> {
    use tree_sitter::CaptureQuantifier;
    let bare: Vec<usize> = (0..query.pattern_count())
        .filter(|&i| (query.capture_quantifiers(i).iter()).all(|q| *q == CaptureQuantifier::Zero))
        .collect();
    if bare.is_empty() {
        return None;
    }
    let mut out = src.to_string();
    for &i in bare.iter().rev() {
        let at = root_end(src, query.start_byte_for_pattern(i))?;
        out.insert_str(at, &format!(" @{BARE_PATTERN_CAPTURE}"));
    }
    Some(out)
}

/// The end of the node expression that starts a pattern at `start` (`(…)`, `[…]`, `"…"`, a
/// word), and of the quantifier after it.
fn root_end(src: &str, start: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = start;
    let mut depth = 0usize;
    loop {
        match *b.get(i)? {
            b'"' => {
                i += 1;
                while *b.get(i)? != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b';' => {
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.checked_sub(1)?,
            c if depth == 0 && (c.is_ascii_alphanumeric() || c == b'_') => {
                while b
                    .get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
        if depth == 0 {
            break;
        }
    }
    while matches!(b.get(i), Some(b'?' | b'*' | b'+')) {
        i += 1;
    }
    Some(i)
}

/// Whether a capture of the query is repeated (`(call)+ @c`): tree-sitter's matches of a
/// repeated top-level pattern are not one per node (a run of sibling `argument_list`s in a C++
/// file with errors gave some none), so the walk of bare kinds must not answer it.
fn repeated(query: &Query) -> bool {
    use tree_sitter::CaptureQuantifier::{OneOrMore, ZeroOrMore};
    (0..query.pattern_count())
        .any(|i| (query.capture_quantifiers(i).iter()).any(|q| matches!(q, OneOrMore | ZeroOrMore)))
}

/// `query`, or an error when one of its patterns is a predicate alone: tree-sitter reads
/// `[(a) @n (b) @n] (#eq? @n "x")` as two patterns, the second `(#eq? …)` matching every node
/// and filtering nothing (the `@match` it was then given made the query a syntax error).
fn lone_predicate(src: &str, query: Query) -> std::result::Result<Query, QueryError> {
    for i in 0..query.pattern_count() {
        let at = query.start_byte_for_pattern(i);
        let rest = src[at..].strip_prefix('(').map(str::trim_start);
        if rest.is_some_and(|r| r.starts_with('#')) {
            let line_start = src[..at].rfind('\n').map_or(0, |n| n + 1);
            return Err(QueryError {
                row: src[..at].matches('\n').count(),
                column: at - line_start,
                offset: at,
                message: "a predicate stands alone: it belongs inside its pattern's parentheses, \
                          `((kind) @c (#eq? @c \"x\"))`"
                    .into(),
                kind: QueryErrorKind::Predicate,
            });
        }
    }
    Ok(query)
}

/// Compiles `src` for each language in `langs` (or every registered one). Languages whose
/// grammar rejects it are dropped; if none accepts it, the error names each language's problem.
pub fn compile(src: &str, langs: &[&'static Language]) -> Result<Vec<Compiled>> {
    let tried: Vec<&'static Language> = if langs.is_empty() {
        lang::ALL.to_vec()
    } else {
        langs.to_vec()
    };
    let mut ok = Vec::new();
    let mut errs = Vec::new();
    for l in &tried {
        let mut src = src;
        let captured;
        let compiled = match Query::new(l.ts(), src).and_then(|q| lone_predicate(src, q)) {
            Ok(q) => match capture_bare_patterns(src, &q) {
                Some(with) => {
                    captured = with;
                    src = &captured;
                    Query::new(l.ts(), src)
                }
                None => Ok(q),
            },
            Err(e) => Err(e),
        };
        match compiled {
            Ok(query) => {
                let n = query.pattern_count();
                let prefilter = literals::prefilter(src, n, l.rules.keywords, l.rules.respelled);
                // Only a pattern with one root node, that needs a literal, can be answered from
                // the regions around that literal.
                let rooted =
                    (0..n).all(|i| query.is_pattern_rooted(i) && !query.is_pattern_non_local(i));
                let cut = literals::pattern_roots(src, n)
                    .filter(|_| rooted && prefilter.is_some())
                    .and_then(|roots| l.cut_for_roots(&roots.concat()));
                ok.push(Compiled {
                    by_items: cut.is_some(),
                    first_lines: false,
                    lang: l,
                    // MISSING is no node kind of the grammar's tables: the query engine finds
                    // it (ERROR is walked too: the query engine takes time quadratic in the
                    // children of an ERROR node, a whole file's after an unclosed bracket).
                    bare: literals::bare_kinds(src, n)
                        .filter(|b| b.iter().all(|(k, _)| Bare::walks(l, k)))
                        .filter(|_| !repeated(&query))
                        .map(|b| Bare::new(l, b, prefilter.is_none())),
                    prefilter,
                    cut,
                    query,
                })
            }
            Err(e) => errs.push((l, e)),
        }
    }
    if !ok.is_empty() {
        return Ok(ok);
    }
    // Explained only when no language takes the query (suggestions cost a scan of the grammars).
    let mut errs: Vec<Error> = errs
        .into_iter()
        .map(|(l, e)| query_error(l, src, &e))
        .collect();
    if errs.len() == 1 {
        return Err(errs.pop().unwrap());
    }
    let first = errs[0].clone();
    let names: Vec<_> = tried.iter().map(|l| l.name).collect();
    Err(Error::new(
        Code::InvalidQuery,
        format!(
            "the query does not compile for any language ({}): {}",
            names.join(", "),
            first.message
        ),
        first.remediation.clone(),
    )
    .with_note("each language's error is in diagnostics[]; pass --lang to pick one")
    .with_related(errs.iter().map(|e| e.diagnostic(Level::Error)).collect()))
}

/// A tree-sitter query error as an `AST_E001` with its position and a remediation.
pub fn query_error(l: &Language, src: &str, e: &QueryError) -> Error {
    // tree-sitter quotes the name it could not resolve (`"functon_item"`).
    let name = e.message.trim().trim_matches('"');
    let (what, fix) = match e.kind {
        QueryErrorKind::NodeType => {
            let kinds = l.named_node_kinds();
            let close = crate::suggest::closest(name, kinds.iter().copied(), 5);
            let elsewhere: Vec<&str> = lang::ALL
                .iter()
                .filter(|o| o.name != l.name && o.named_node_kinds().contains(&name))
                .map(|o| o.name)
                .collect();
            (
                format!("unknown node type `{name}`"),
                if !elsewhere.is_empty() && close.is_empty() {
                    format!(
                        "`{}` is a node kind of {}: pass --lang {} (or drop --lang)",
                        name,
                        elsewhere.join(", "),
                        elsewhere[0]
                    )
                } else if close.is_empty() {
                    format!("use a node kind of the {} grammar; `llm ast --tree FILE` shows the kinds in a real file", l.name)
                } else {
                    format!(
                        "did you mean {}? `llm ast --tree FILE` shows the kinds in a real file",
                        close.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                    )
                },
            )
        }
        QueryErrorKind::Field => {
            let close = crate::suggest::closest(name, l.field_names().into_iter(), 5);
            (
                format!("unknown field `{name}`"),
                if close.is_empty() {
                    "use a field name of the grammar (`llm ast --tree FILE` prints fields as `name:`)".to_string()
                } else {
                    format!("did you mean {}?", close.iter().map(|c| format!("`{c}:`")).collect::<Vec<_>>().join(", "))
                },
            )
        }
        QueryErrorKind::Capture => (
            format!("unknown capture `@{name}` in a predicate"),
            "capture the node first (`(identifier) @name`), then use @name in the predicate".into(),
        ),
        QueryErrorKind::Predicate => (
            format!("bad predicate: {}", e.message),
            "supported: #eq?, #not-eq?, #match?, #not-match?, #any-of?, #not-any-of? with a capture and a string or capture".into(),
        ),
        QueryErrorKind::Structure => (
            "impossible pattern: the grammar never nests these nodes this way".to_string(),
            "check parent/child kinds with `llm ast --tree FILE`; a field or child may belong to another node".into(),
        ),
        QueryErrorKind::Syntax | QueryErrorKind::Language => (
            "invalid query syntax".to_string(),
            "check parentheses and quotes: a pattern is `(kind field: (kind) @capture)`; strings are double-quoted".into(),
        ),
    };
    let line = src.lines().nth(e.row).unwrap_or("");
    let col = e.column.min(line.len());
    let (before, after) = line.split_at(if line.is_char_boundary(col) { col } else { 0 });
    Error::new(
        Code::InvalidQuery,
        format!(
            "{} query error at {}:{}: {what}",
            l.name,
            e.row + 1,
            e.column + 1
        ),
        fix,
    )
    .with_note(format!("query line {}: {before}>>>{after}", e.row + 1))
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
    let mut compiled = compile(&opts.query, &opts.langs)?;
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
