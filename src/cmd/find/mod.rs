//! `llm find`: symbol definitions by name/kind, file outlines, and references. Only files whose
//! bytes contain the name's last segment as a whole word are parsed (memchr literal prefilter),
//! and of those only the regions around its occurrences (`lang::regions`); files are parsed in
//! parallel and results come back in path order.

use crate::cmd::ast::{
    language_of, no_language, not_utf8, read_source, walk_echo, Outcome, Unparsed,
};
use crate::envelope::{DiagnosticPayload, Status};
use crate::error::{Code, Error, Result};
use crate::lang::literals;
use crate::lang::symbols::last_segment;
use crate::lang::{self, Language, Reference, Symbol, SymbolKind};
use crate::walk::{self, Candidate, Skipped, WalkOptions};
use serde::Serialize;
use std::collections::HashSet;

mod file;
use file::find_in_file;

/// What `llm find` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Definitions matching NAME.
    Symbols,
    /// Every symbol of the files, nested.
    Outline,
    /// Identifier occurrences of NAME.
    Refs,
}

/// How NAME is compared with a symbol's name and qualified name.
#[derive(Debug, Clone)]
pub enum NameMatch {
    /// Equal to the name, or to the qualified name (or a `::`/`.` suffix of it).
    Exact(String),
    /// The name or qualified name starts with it.
    Prefix(String),
    /// The regex matches the name or the qualified name.
    Regex(regex::Regex),
}

/// Everything `llm find` needs, free of clap.
#[derive(Debug, Clone)]
pub struct FindOptions {
    pub mode: Mode,
    /// `None` only in outline mode.
    pub name: Option<NameMatch>,
    pub kinds: Vec<SymbolKind>,
    pub parent: Option<String>,
    pub langs: Vec<&'static Language>,
    pub walk: WalkOptions,
    pub max_results: Option<usize>,
    pub threads: usize,
}

/// One symbol in the output.
#[derive(Debug, Clone, Serialize)]
pub struct SymbolMatch {
    pub match_id: String,
    #[serde(flatten)]
    pub symbol: Symbol,
    /// Outline only: the symbols nested in this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<SymbolMatch>>,
}

/// One reference in the output.
#[derive(Debug, Clone, Serialize)]
pub struct RefMatch {
    pub match_id: String,
    #[serde(flatten)]
    pub reference: Reference,
}

/// A match of any mode.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
// Items are built once per file and moved in Vecs to the printer; boxing would only add an
// allocation per symbol.
#[allow(clippy::large_enum_variant)]
pub enum FindItem {
    Symbol(SymbolMatch),
    Ref(RefMatch),
}

/// A file that contributed matches.
#[derive(Debug, Clone, Serialize)]
pub struct FindFile {
    pub file_path: String,
    pub checksum: String,
    pub language: &'static str,
    pub match_count: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parse_errors: bool,
}

/// One file's result, in path order.
#[derive(Debug)]
pub struct FileResult {
    pub file: FindFile,
    pub items: Vec<FindItem>,
    /// The items as the printer writes them, rendered where they were made (see [`Render`]),
    /// in runs (one per half of a big file's outline); `items` is then empty.
    pub rendered: Option<Vec<Vec<u8>>>,
}

/// Renders a run of a file's items as the printer writes them (compact JSON: the members of
/// `data.matches`, comma-separated), on the thread that made them (in parallel, and the items
/// are freed on the thread that allocated them).
pub type Render<'a> = &'a (dyn Fn(&[FindItem], &mut Vec<u8>) + Sync);

/// Counters for the whole run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FindStats {
    pub files_parsed: u64,
    /// Files whose bytes lack the name, never parsed.
    pub files_skipped_prefilter: u64,
    pub files_with_parse_errors: u64,
    /// Files skipped because they are not UTF-8 (parsed anyway when named explicitly).
    pub files_not_utf8: u64,
    pub files_with_matches: u64,
    pub files_other_language: u64,
    pub skipped: Skipped,
}

/// Everything but the items.
#[derive(Debug, Clone)]
pub struct FindSummary {
    pub status: Status,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: FindStats,
    pub diagnostics: Vec<DiagnosticPayload>,
    /// Close symbol names when nothing matched.
    pub suggestions: Vec<String>,
}

/// The JSON `data` of `llm find`.
#[derive(Debug, Serialize)]
pub struct FindData {
    pub mode: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub matches: Vec<FindItem>,
    pub files: Vec<FindFile>,
    pub match_count: usize,
    pub total_count: usize,
    pub stats: FindStats,
}

impl NameMatch {
    /// The NAME as given.
    pub fn as_str(&self) -> &str {
        match self {
            NameMatch::Exact(s) | NameMatch::Prefix(s) => s,
            NameMatch::Regex(r) => r.as_str(),
        }
    }

    /// The bytes a file must contain to hold a match (`None`: no prefilter).
    pub fn literal(&self) -> Option<&str> {
        match self {
            NameMatch::Exact(s) | NameMatch::Prefix(s) => {
                Some(last_segment(s)).filter(|l| !l.is_empty())
            }
            NameMatch::Regex(_) => None,
        }
    }

    /// Whether the occurrence `r` of [`Self::literal`] in `hay` can be part of a matching name:
    /// a name is a whole token, so an occurrence glued to a word byte (`IoResult`, `new_in`)
    /// cannot be NAME (`--prefix`: at its start only). The rule of `ast`'s word prefilter.
    pub fn can_match_at(&self, hay: &[u8], r: &std::ops::Range<usize>) -> bool {
        match self {
            NameMatch::Exact(_) => literals::whole_word(hay, r),
            NameMatch::Prefix(_) => {
                let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
                !(r.start > 0 && word(hay[r.start - 1]) && word(hay[r.start]))
            }
            NameMatch::Regex(_) => true,
        }
    }

    /// The occurrences of [`Self::literal`] that can be part of a matching name, in order.
    pub fn hits(&self, hay: &[u8]) -> Vec<std::ops::Range<usize>> {
        let Some(lit) = self.literal() else {
            return Vec::new();
        };
        memchr::memmem::find_iter(hay, lit.as_bytes())
            .map(|at| at..at + lit.len())
            .filter(|r| self.can_match_at(hay, r))
            .collect()
    }

    fn matches(&self, s: &Symbol, sep: &str) -> bool {
        match self {
            NameMatch::Exact(n) => {
                s.name == *n || s.qualified_name == *n || {
                    let want = segments(n);
                    let have: Vec<&str> = s.qualified_name.split(sep).collect();
                    want.len() > 1 && have.ends_with(&want)
                }
            }
            NameMatch::Prefix(p) => {
                s.name.starts_with(p.as_str())
                    || s.qualified_name.starts_with(p.as_str())
                    || s.qualified_name.starts_with(&segments(p).join(sep))
            }
            NameMatch::Regex(r) => r.is_match(&s.name) || r.is_match(&s.qualified_name),
        }
    }
}

/// `a::b.c` → `[a, b, c]`: either separator is accepted in NAME.
fn segments(name: &str) -> Vec<&str> {
    name.split("::").flat_map(|p| p.split('.')).collect()
}

impl FindOptions {
    /// The request as echoed in the envelope's `query`.
    pub fn query_echo(&self) -> serde_json::Value {
        let mut q = serde_json::json!({
            "mode": self.mode,
            "paths": self.walk.paths.iter().map(|p| walk::display_path(p)).collect::<Vec<_>>(),
        });
        let o = q.as_object_mut().unwrap();
        if let Some(n) = &self.name {
            o.insert("name".into(), n.as_str().into());
            match n {
                NameMatch::Prefix(_) => o.insert("prefix".into(), true.into()),
                NameMatch::Regex(_) => o.insert("regex".into(), true.into()),
                NameMatch::Exact(_) => None,
            };
        }
        if !self.kinds.is_empty() {
            o.insert(
                "kinds".into(),
                self.kinds
                    .iter()
                    .map(|k| k.as_str())
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        if let Some(p) = &self.parent {
            o.insert("parent".into(), p.clone().into());
        }
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
        q
    }

    fn keep(&self, s: &Symbol, lang: &Language) -> bool {
        if !self.kinds.is_empty() && !self.kinds.contains(&s.kind) {
            return false;
        }
        if let Some(p) = &self.parent {
            let ok = s.parent.as_deref() == Some(p.as_str())
                || s.impl_of.as_deref() == Some(p.as_str())
                || s.parent_qualified.as_deref().is_some_and(|q| {
                    q == p
                        || q.split(lang.path_separator)
                            .collect::<Vec<_>>()
                            .ends_with(&segments(p))
                });
            if !ok {
                return false;
            }
        }
        match (&self.name, self.mode) {
            (Some(n), Mode::Symbols) => n.matches(s, lang.path_separator),
            _ => true,
        }
    }
}

/// A file `llm find` parsed.
struct FindParsed {
    errors: bool,
    diag: Option<DiagnosticPayload>,
    result: Option<FileResult>,
}

/// Runs the search, handing each file's result to `emit` in path order. With `render` (used
/// only without `--max-results`, which may cut a file's items when it is handed on), each
/// file's items come rendered.
pub fn run(
    opts: &FindOptions,
    want_checksum: bool,
    render: Option<Render>,
    emit: &mut dyn FnMut(FileResult) -> std::io::Result<()>,
) -> Result<std::result::Result<FindSummary, std::io::Error>> {
    let render = render.filter(|_| opts.max_results.is_none());
    let walker = walk::prepare(&opts.walk, "find")?.threads(walk::walk_threads(opts.threads));
    let allowed: Vec<&'static Language> = if opts.langs.is_empty() {
        lang::ALL.to_vec()
    } else {
        opts.langs.clone()
    };
    let forced = (allowed.len() == 1 && !opts.langs.is_empty()).then(|| allowed[0]);
    let name = match opts.mode {
        Mode::Outline => None,
        _ => opts.name.as_ref().filter(|n| n.literal().is_some()),
    };
    let finder = name
        .and_then(|n| n.literal())
        .map(memchr::memmem::Finder::new);
    let worker = |cand: &Candidate, only_file: bool| -> Outcome<FindParsed> {
        let Some(l) = language_of(cand, &allowed, forced) else {
            return Outcome::Other(no_language(cand, "find"));
        };
        let source = match read_source(cand, "find") {
            Ok(s) => s,
            Err(s) => return Outcome::Skipped(s),
        };
        // A file without NAME as a word (or the start of one, `--prefix`) holds no match.
        if let (Some(f), Some(n)) = (&finder, name) {
            let l = f.needle().len();
            if !f
                .find_iter(&source)
                .any(|at| n.can_match_at(&source, &(at..at + l)))
            {
                return Outcome::Prefiltered;
            }
        }
        if let Some(d) = not_utf8(cand, &source, "find") {
            return Outcome::NotUtf8(d);
        }
        find_in_file(opts, l, cand, &source, want_checksum, only_file, render)
    };
    // What a result holds: its rendered bytes, or about so much per item.
    let weigh = |o: &Outcome<FindParsed>| match o {
        Outcome::Parsed(FindParsed {
            result: Some(r), ..
        }) => r
            .rendered
            .as_ref()
            .map_or(r.items.len() * 256, |runs| runs.iter().map(Vec::len).sum()),
        _ => 0,
    };
    let mut stats = FindStats::default();
    let mut diagnostics = Vec::new();
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
        let Some(FindParsed {
            errors,
            diag,
            result,
        }) = o.parsed(unparsed, &mut diagnostics)
        else {
            return true;
        };
        stats.files_parsed += 1;
        if errors {
            stats.files_with_parse_errors += 1;
        }
        diagnostics.extend(diag);
        let Some(mut r) = result else { return true };
        stats.files_with_matches += 1;
        let n = match r.rendered {
            Some(_) => r.file.match_count,
            None => count(&r.items),
        };
        total_count += n;
        if let Some(max) = opts.max_results {
            let room = max.saturating_sub(match_count);
            if room == 0 {
                return true;
            }
            if n > room {
                cut(&mut r.items, room);
            }
        }
        if r.rendered.is_none() {
            r.file.match_count = count(&r.items);
        }
        match_count += r.file.match_count;
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
    let suggestions = match (&opts.name, status) {
        // The files again, for their identifiers: only when nothing matched.
        (Some(n), Status::NoMatches) => {
            let files = walk::walk(&opts.walk, "find").map_or_else(|_| Vec::new(), |w| w.files);
            suggest(opts, n, &files, &allowed, forced)
        }
        _ => Vec::new(),
    };
    Ok(Ok(FindSummary {
        status,
        match_count,
        total_count,
        stats,
        diagnostics,
        suggestions,
    }))
}

fn count(items: &[FindItem]) -> usize {
    items
        .iter()
        .map(|i| match i {
            FindItem::Symbol(s) => count_symbol(s),
            FindItem::Ref(_) => 1,
        })
        .sum()
}

fn count_symbol(s: &SymbolMatch) -> usize {
    1 + s
        .children
        .as_deref()
        .map_or(0, |c| c.iter().map(count_symbol).sum())
}

/// Keeps the first `room` items in file order (an outline keeps its nesting).
fn cut(items: &mut Vec<FindItem>, mut room: usize) {
    fn go(children: &mut Vec<SymbolMatch>, room: &mut usize) {
        let mut keep = 0;
        for c in children.iter_mut() {
            if *room == 0 {
                break;
            }
            *room -= 1;
            keep += 1;
            if let Some(cc) = c.children.as_mut() {
                go(cc, room);
            }
        }
        children.truncate(keep);
    }
    let mut keep = 0;
    for it in items.iter_mut() {
        if room == 0 {
            break;
        }
        room -= 1;
        keep += 1;
        if let FindItem::Symbol(SymbolMatch {
            children: Some(c), ..
        }) = it
        {
            go(c, &mut room);
        }
    }
    items.truncate(keep);
}

/// Close symbol names for a NAME that matched nothing: identifiers of the walked files close
/// to it by edit distance, kept when a file really defines them (bounded: 200 files parsed).
fn suggest(
    opts: &FindOptions,
    name: &NameMatch,
    files: &[Candidate],
    allowed: &[&'static Language],
    forced: Option<&'static Language>,
) -> Vec<String> {
    let want = match name {
        NameMatch::Regex(_) => return Vec::new(),
        NameMatch::Exact(s) | NameMatch::Prefix(s) => last_segment(s).to_string(),
    };
    let sources: Vec<(&Candidate, &'static Language, Vec<u8>)> = files
        .iter()
        .filter_map(|c| {
            let l = language_of(c, allowed, forced)?;
            read_source(c, "find").ok().map(|s| (c, l, s))
        })
        .collect();
    let mut words: HashSet<&[u8]> = HashSet::new();
    for (_, _, s) in &sources {
        let mut i = 0;
        while i < s.len() {
            if s[i].is_ascii_alphabetic() || s[i] == b'_' {
                let st = i;
                while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
                    i += 1;
                }
                words.insert(&s[st..i]);
            } else {
                i += 1;
            }
        }
    }
    let words: Vec<&str> = words
        .into_iter()
        .filter_map(|w| std::str::from_utf8(w).ok())
        .collect();
    let close = crate::suggest::closest(&want, words.iter().copied(), 20);
    if close.is_empty() {
        return close;
    }
    let mut defined: HashSet<String> = HashSet::new();
    let mut parsed = 0;
    for (c, l, s) in &sources {
        if parsed >= 200 {
            break;
        }
        if !close
            .iter()
            .any(|w| memchr::memmem::find(s, w.as_bytes()).is_some())
        {
            continue;
        }
        parsed += 1;
        let tree = l.parse(s);
        for sym in crate::lang::symbols(l, s, &tree, &c.display) {
            if close.contains(&sym.name)
                && (opts.kinds.is_empty() || opts.kinds.contains(&sym.kind))
            {
                defined.insert(sym.name);
            }
        }
    }
    close
        .into_iter()
        .filter(|w| defined.contains(w))
        .take(5)
        .collect()
}

/// The `no_matches` remediation for a NAME that matched nothing.
pub fn not_found(name: &str, suggestions: &[String]) -> Error {
    let fix = if suggestions.is_empty() {
        "check the spelling, shorten the name (--prefix matches the start) or use --regex, drop --kind/--parent, or list a file's symbols with `llm find --outline FILE`".to_string()
    } else {
        format!(
            "did you mean {}? (or shorten the name, --prefix matching its start, try --regex, or `llm find --outline FILE`)",
            suggestions
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Error::new(Code::NoSuchSymbol, format!("no symbol named `{name}`"), fix)
}
