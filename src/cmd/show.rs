//! `llm show`: source to read, with line numbers — a named symbol (selected as `llm patch`
//! selects), a line range, or a skeleton (every signature, bodies elided). Views carry the
//! file's checksum so an edit built from them is guarded; `--max-bytes` cuts on a line boundary
//! and says what was cut and how to see it.

use crate::cmd::patch::{matching, Selector};
use crate::envelope::{DiagnosticPayload, Level, Status};
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::symbols::{self, last_segment, Symbol, SymbolKind};
use crate::lang::{self, Language};
use crate::span::{checksum, strip_cr, LineIndex, Span};
use crate::walk::{self, display_path, WalkOptions};
use serde::Serialize;
use std::path::PathBuf;

/// What to show.
#[derive(Debug, Clone)]
pub enum Target {
    /// Every symbol the selector names under `paths` (default `.`).
    Symbol {
        selector: Selector,
        paths: Vec<PathBuf>,
    },
    /// Lines `start..=end` of one file.
    Range {
        file: PathBuf,
        start: usize,
        end: usize,
    },
    /// Signatures with bodies elided, for every file of a supported language under `paths`.
    Skeleton { paths: Vec<PathBuf> },
}

/// Everything `llm show` needs, free of clap.
#[derive(Debug, Clone)]
pub struct ShowOptions {
    pub target: Target,
    /// Lines of context around a symbol or range.
    pub context: usize,
    /// Cut the views' text (all together) on a line boundary at this many bytes.
    pub max_bytes: Option<usize>,
}

/// The symbol a view shows.
#[derive(Debug, Clone, Serialize)]
pub struct ShownSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub qualified_name: String,
    pub parent: Option<String>,
    pub symbol_id: String,
    /// The definition's own span (attributes and doc comments included).
    pub span: Span,
}

/// What `--max-bytes` cut from a view, and the command that shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Omitted {
    pub start_line: usize,
    pub end_line: usize,
    pub lines: usize,
    pub bytes: usize,
    /// An `llm show` command line that prints the part not shown.
    pub command: String,
}

/// One line of a view as printed: its number in the file (`None` for an elision marker).
#[derive(Debug, Clone)]
pub struct ViewLine {
    pub number: Option<usize>,
    pub text: String,
}

/// One piece of source shown.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// `symbol`, `range` or `skeleton`.
    pub mode: &'static str,
    pub file_path: String,
    pub language: Option<&'static str>,
    /// The bytes of `text` in the file (whole lines); for a skeleton, the whole file.
    pub span: Span,
    /// The source shown, byte for byte (lossy only where the file is not UTF-8). For a
    /// skeleton: the kept lines, with a `…` line where a body was elided.
    pub text: String,
    /// SHA-256 of the whole file as read: pass it as `expected_checksum` to guard an edit.
    pub checksum: String,
    /// `--max-bytes` cut this view.
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<ShownSymbol>,
    /// Skeletons: the file line of each line of `text` (`null` for an elision marker).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_numbers: Option<Vec<Option<usize>>>,
    #[serde(skip)]
    pub lines: Vec<ViewLine>,
}

/// `data` of `llm show`.
#[derive(Debug, Clone, Serialize)]
pub struct ShowData {
    pub views: Vec<View>,
    pub view_count: usize,
    /// Bytes of `text` shown, over every view.
    pub bytes_shown: usize,
}

/// The views, the run's status (`ok`, `no_matches`, `partial` when cut) and its diagnostics.
pub struct ShowOutcome {
    pub data: ShowData,
    pub status: Status,
    pub diagnostics: Vec<DiagnosticPayload>,
}

/// Runs `llm show`.
pub fn run(opts: &ShowOptions) -> Result<ShowOutcome, Error> {
    let mut diagnostics = Vec::new();
    let mut views = match &opts.target {
        Target::Range { file, start, end } => vec![range_view(
            file,
            *start,
            *end,
            opts.context,
            &mut diagnostics,
        )?],
        Target::Symbol { selector, paths } => {
            symbol_views(selector, paths, opts.context, &mut diagnostics)?
        }
        Target::Skeleton { paths } => skeleton_views(paths, &mut diagnostics)?,
    };
    let cut = opts.max_bytes.is_some_and(|max| truncate(&mut views, max));
    let bytes_shown = views.iter().map(|v| v.text.len()).sum();
    let status = if views.is_empty() {
        Status::NoMatches
    } else if cut {
        Status::Partial
    } else {
        Status::Ok
    };
    Ok(ShowOutcome {
        data: ShowData {
            view_count: views.len(),
            views,
            bytes_shown,
        },
        status,
        diagnostics,
    })
}

/// A file read for showing.
struct Source {
    display: String,
    bytes: Vec<u8>,
    index: LineIndex,
    checksum: String,
}

fn read(path: &std::path::Path) -> Result<Source, Error> {
    let display = display_path(path);
    let bytes = crate::fsio::read(path, &display)?;
    Ok(read_bytes(&display, bytes))
}

impl Source {
    /// The byte range of lines `start..=end` (each with its line ending).
    fn lines_range(&self, start: usize, end: usize) -> std::ops::Range<usize> {
        let a = self
            .index
            .line_range(start)
            .map_or(self.bytes.len(), |r| r.start);
        let b = match self.index.line_range(end + 1) {
            Some(r) => r.start,
            None => self.bytes.len(),
        };
        a..b.max(a)
    }

    /// A contiguous view of lines `start..=end`.
    fn view(&self, mode: &'static str, start: usize, end: usize) -> View {
        let range = self.lines_range(start, end);
        let lines = (start..=end)
            .map(|n| ViewLine {
                number: Some(n),
                text: lossy(self.index.line_text(&self.bytes, n)),
            })
            .collect();
        View {
            mode,
            file_path: self.display.clone(),
            language: None,
            span: self.index.span(&self.display, range.clone()),
            text: String::from_utf8_lossy(&self.bytes[range]).into_owned(),
            checksum: self.checksum.clone(),
            truncated: false,
            omitted: None,
            symbol: None,
            line_numbers: None,
            lines,
        }
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn range_view(
    file: &std::path::Path,
    start: usize,
    end: usize,
    context: usize,
    diagnostics: &mut Vec<DiagnosticPayload>,
) -> Result<View, Error> {
    let src = read(file)?;
    if std::str::from_utf8(&src.bytes).is_err() {
        // `text` then holds U+FFFD where the file has bytes that are no UTF-8: not its bytes.
        let mut d = Error::new(
            Code::NotUtf8,
            format!(
                "{} is not valid UTF-8: its text is shown lossily",
                src.display
            ),
            "read the bytes with another tool; the span's offsets are the file's",
        )
        .with_file(&src.display)
        .diagnostic(crate::envelope::Level::Warning);
        d.tool = "show".into();
        diagnostics.push(d);
    }
    if src.bytes.is_empty() && (start, end) == (1, usize::MAX) {
        // The whole of an empty file: no lines.
        let mut v = src.view("range", 1, 0);
        v.language = lang::for_path(file).map(|l| l.name);
        return Ok(v);
    }
    if src.bytes.is_empty() {
        return Err(Error::new(
            Code::ShowBadRange,
            format!(
                "{}:{start}-{end}: the file is empty (no lines)",
                src.display
            ),
            format!("`llm show {}` shows it whole", src.display),
        )
        .with_file(&src.display));
    }
    let count = src.index.line_count();
    if start == 0 || start > end || start > count {
        return Err(Error::new(
            Code::ShowBadRange,
            format!(
                "{}:{start}-{end} is not a range of lines in the file ({count} line{})",
                src.display,
                if count == 1 { "" } else { "s" }
            ),
            format!(
                "pass FILE:START-END with 1 <= START <= END, START <= {count} (e.g. `llm show {}:1-{}`)",
                src.display,
                count.min(40)
            ),
        )
        .with_file(&src.display));
    }
    let (a, b) = (
        start.saturating_sub(context).max(1),
        end.saturating_add(context).min(count),
    );
    let mut v = src.view("range", a, b);
    v.language = lang::for_path(file).map(|l| l.name);
    Ok(v)
}

fn symbol_views(
    selector: &Selector,
    paths: &[PathBuf],
    context: usize,
    diagnostics: &mut Vec<DiagnosticPayload>,
) -> Result<Vec<View>, Error> {
    let needle = last_segment(&selector.name).as_bytes().to_vec();
    let finder = memchr::memmem::Finder::new(&needle);
    let mut candidates: Vec<(Source, &'static Language)> = Vec::new();
    each_file(paths, diagnostics, |display, language, bytes| {
        if finder.find(&bytes).is_some() {
            candidates.push((read_bytes(display, bytes), language));
        }
    })?;
    let mut views = Vec::new();
    for full in [false, true] {
        for (src, language) in &candidates {
            let tree;
            let syms = if full {
                tree = language.parse(&src.bytes);
                symbols::symbols(language, &src.bytes, &tree, &src.display)
            } else {
                let hits: Vec<_> = finder
                    .find_iter(&src.bytes)
                    .map(|at| at..at + needle.len())
                    .collect();
                tree = language
                    .parse_around(&src.bytes, &src.index, &hits, Cut::Members)
                    .tree;
                symbols::symbols_around(language, &src.bytes, &tree, &src.display, &hits)
            };
            for i in matching(&syms, selector) {
                views.push(symbol_view(src, language, &syms[i], context));
            }
        }
        if !views.is_empty() {
            break;
        }
    }
    if views.is_empty() {
        return Err(no_symbol(selector, paths, &candidates));
    }
    Ok(views)
}

fn read_bytes(display: &str, bytes: Vec<u8>) -> Source {
    Source {
        index: LineIndex::new(&bytes),
        checksum: checksum(&bytes),
        display: display.to_string(),
        bytes,
    }
}

fn symbol_view(src: &Source, language: &Language, s: &Symbol, context: usize) -> View {
    let count = src.index.line_count();
    let end_line = if s.span.end_col == 0 && s.span.end_line > s.span.start_line {
        s.span.end_line - 1
    } else {
        s.span.end_line
    };
    let a = s.span.start_line.saturating_sub(context).max(1);
    let b = (end_line + context).min(count);
    let mut v = src.view("symbol", a, b);
    v.language = Some(language.name);
    v.symbol = Some(ShownSymbol {
        name: s.name.clone(),
        kind: s.kind,
        qualified_name: s.qualified_name.clone(),
        parent: s.parent.clone(),
        symbol_id: s.symbol_id.clone(),
        span: s.span.clone(),
    });
    v
}

fn no_language(display: &str) -> DiagnosticPayload {
    let names: Vec<&str> = lang::ALL.iter().map(|l| l.name).collect();
    let mut d = Error::new(
        Code::ShowNoLanguage,
        format!("{display}: no registered language for this file; it was not searched for symbols"),
        format!(
            "name a {} file, or show lines with `llm show {display}:START-END`",
            names.join("/")
        ),
    )
    .with_file(display)
    .diagnostic(Level::Warning);
    d.tool = "show".into();
    d
}

fn no_symbol(selector: &Selector, paths: &[PathBuf], searched: &[(Source, &Language)]) -> Error {
    let mut names: Vec<String> = Vec::new();
    // Suggestions from the files that hold the name's text (cheap: they were read already).
    for (src, language) in searched.iter().take(20) {
        let tree = language.parse(&src.bytes);
        for s in symbols::symbols(language, &src.bytes, &tree, &src.display) {
            names.push(s.qualified_name);
        }
    }
    let close = crate::suggest::closest(&selector.name, names.iter().map(String::as_str), 5);
    let where_ = if paths.is_empty() {
        ".".to_string()
    } else {
        paths
            .iter()
            .map(|p| display_path(p))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let remediation = if close.is_empty() {
        format!(
            "check the name (or --kind/--parent/--line); `llm find {} {where_} --prefix` or `llm show --skeleton {where_}` lists what is there",
            last_segment(&selector.name)
        )
    } else {
        format!(
            "did you mean {}? (`llm show --skeleton {where_}` lists every signature)",
            close.join(", ")
        )
    };
    Error::new(
        Code::ShowNoSymbol,
        format!("no symbol `{}` under {where_}", selector.name),
        remediation,
    )
}

fn skeleton_views(
    paths: &[PathBuf],
    diagnostics: &mut Vec<DiagnosticPayload>,
) -> Result<Vec<View>, Error> {
    let mut views = Vec::new();
    each_file(paths, diagnostics, |display, language, bytes| {
        views.push(skeleton(&read_bytes(display, bytes), language));
    })?;
    Ok(views)
}

/// Walks `paths` and hands each file with a language to `f` with its bytes: a file named
/// explicitly without a language gets a diagnostic, a file that cannot be read is left out.
fn each_file(
    paths: &[PathBuf],
    diagnostics: &mut Vec<DiagnosticPayload>,
    mut f: impl FnMut(&str, &'static Language, Vec<u8>),
) -> Result<(), Error> {
    let walked = walk::walk(
        &WalkOptions {
            paths: paths.to_vec(),
            ..Default::default()
        },
        "show",
    )?;
    diagnostics.extend(walked.diagnostics);
    for c in &walked.files {
        let Some(language) = lang::for_path(&c.path) else {
            if c.explicit {
                diagnostics.push(no_language(&c.display));
            }
            continue;
        };
        // Bounded, and special files refused, as every query reads (a file that cannot be
        // read is reported, not skipped silently).
        let bytes = match crate::fsio::read(&c.path, &c.display) {
            Ok(bytes) => bytes,
            Err(e) => {
                let mut d = e.diagnostic(Level::Warning);
                d.tool = "show".into();
                diagnostics.push(d);
                continue;
            }
        };
        f(&c.display, language, bytes);
    }
    Ok(())
}

/// `}`, `};`, `)`, `end`: a line that only closes a block.
fn closes_only(line: &[u8]) -> bool {
    let t = String::from_utf8_lossy(line);
    let t = t.trim();
    !t.is_empty() && (t == "end" || t.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ',')))
}

fn indent_of(line: &[u8]) -> String {
    let n = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    lossy(&line[..n])
}

/// Lines of bodiless definitions kept whole up to this count (longer ones: first and last).
const KEEP_WHOLE: usize = 12;

/// Every definition's signature lines; bodies without nested definitions become one `…` line,
/// bodies with nested definitions keep their opening and closing lines around them.
fn skeleton(src: &Source, language: &Language) -> View {
    use std::collections::{BTreeMap, BTreeSet};
    let tree = language.parse(&src.bytes);
    let syms = symbols::symbols(language, &src.bytes, &tree, &src.display);
    let line = |n: usize| strip_cr(src.index.line_text(&src.bytes, n));
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    // An elision marker after a line, with its indentation.
    let mut marks: BTreeMap<usize, String> = BTreeMap::new();
    let mut parents = vec![false; syms.len()];
    for p in syms.iter().filter_map(|s| s.parent_index) {
        parents[p] = true;
    }
    for (i, s) in syms.iter().enumerate() {
        let start = s.node_span.start_line;
        // Decorators above the definition (`@property`, `@staticmethod`, TypeScript's), from
        // the first to the definition, a multi-line one whole, say what it is: kept; doc
        // comments and attributes are not.
        let first_char = |n: usize| line(n).iter().copied().find(|c| !c.is_ascii_whitespace());
        if let Some(first) = (s.span.start_line..start).find(|&n| first_char(n) == Some(b'@')) {
            keep.extend(
                (first..start).filter(|&n| !matches!(first_char(n), Some(b'#' | b'/' | b'*'))),
            );
        }
        // The lines that open and close what holds the definition without being one (Go's
        // `type (` … `)`, C's `extern "C" {` … `}`, Python's `if TYPE_CHECKING:`): kept, so
        // that the definition is seen where it stands.
        let root = tree.root_node();
        let mut n = root.descendant_for_byte_range(s.node_span.byte_start, s.node_span.byte_end);
        while let Some(p) = n.and_then(|n| n.parent()).filter(|p| p.id() != root.id()) {
            n = Some(p);
            // A body is its definition's (a class's first statement is not its opening line).
            let body = p.parent().and_then(|o| o.child_by_field_name("body"));
            if body.is_some_and(|b| b.id() == p.id()) {
                continue;
            }
            let first = src.index.position(p.start_byte()).0;
            // The line of its last byte (an end at a line's start belongs to the line before).
            let last = src.index.position(p.end_byte().saturating_sub(1)).0;
            if first < start {
                keep.insert(first);
                if last > start && closes_only(line(last)) {
                    keep.insert(last);
                }
            }
        }
        let has_children = parents[i];
        match &s.body_span {
            Some(b) => {
                let before_body = &line(b.start_line)[..b.start_col.min(line(b.start_line).len())];
                // A body that starts a line of its own is left out of the header (Python's
                // suite), unless that line opens it (`{` after a Rust `where` clause).
                let opens = matches!(src.bytes.get(b.byte_start), Some(b'{' | b'('));
                let header_end = if before_body.iter().all(|c| c.is_ascii_whitespace())
                    && b.start_line > start
                    && !opens
                {
                    b.start_line - 1
                } else {
                    b.start_line
                };
                keep.extend(start..=header_end);
                let close = (b.end_line > header_end && closes_only(line(b.end_line)))
                    .then_some(b.end_line);
                if let Some(c) = close {
                    keep.insert(c);
                }
                let last_inner = close.map_or(b.end_line, |c| c - 1);
                if !has_children && last_inner > header_end {
                    let first_inner = (header_end + 1..=last_inner)
                        .find(|&n| !line(n).iter().all(|c| c.is_ascii_whitespace()))
                        .unwrap_or(header_end + 1);
                    marks.insert(header_end, indent_of(line(first_inner)));
                }
            }
            None => {
                let end = if s.node_span.end_col == 0 && s.node_span.end_line > start {
                    s.node_span.end_line - 1
                } else {
                    s.node_span.end_line
                };
                if end + 1 - start <= KEEP_WHOLE {
                    keep.extend(start..=end);
                } else {
                    keep.insert(start);
                    keep.insert(end);
                    marks.insert(start, indent_of(line(start + 1)));
                }
            }
        }
    }
    let mut lines = Vec::new();
    for n in keep {
        lines.push(ViewLine {
            number: Some(n),
            text: lossy(line(n)),
        });
        if let Some(indent) = marks.get(&n) {
            lines.push(ViewLine {
                number: None,
                text: format!("{indent}…"),
            });
        }
    }
    let mut text = String::new();
    for l in &lines {
        text.push_str(&l.text);
        text.push('\n');
    }
    View {
        mode: "skeleton",
        file_path: src.display.clone(),
        language: Some(language.name),
        span: src.index.span(&src.display, 0..src.bytes.len()),
        text,
        checksum: src.checksum.clone(),
        truncated: false,
        omitted: None,
        symbol: None,
        line_numbers: Some(lines.iter().map(|l| l.number).collect()),
        lines,
    }
}

/// Cuts the views to `max` bytes of text in all, on line boundaries; returns whether it cut.
fn truncate(views: &mut [View], max: usize) -> bool {
    let mut left = max;
    let mut cut = false;
    for v in views.iter_mut() {
        if v.text.is_empty() {
            continue;
        }
        let contiguous = v.mode != "skeleton";
        let sizes: Vec<usize> = if contiguous {
            // Lines as they are in `text` (with their line endings).
            v.text.split_inclusive('\n').map(str::len).collect()
        } else {
            v.lines.iter().map(|l| l.text.len() + 1).collect()
        };
        let mut used = 0;
        let mut kept = 0;
        for s in &sizes {
            if used + s > left {
                break;
            }
            used += s;
            kept += 1;
        }
        left -= used;
        if kept == v.lines.len() {
            continue;
        }
        cut = true;
        let omitted_lines: Vec<usize> = v.lines[kept..].iter().filter_map(|l| l.number).collect();
        let first = omitted_lines.first().copied().unwrap_or(0);
        let last = omitted_lines.last().copied().unwrap_or(0);
        let bytes = sizes[kept..].iter().sum();
        let command = if contiguous {
            format!("llm show {}:{first}-{last}", shell_word(&v.file_path))
        } else {
            format!(
                "llm show --skeleton {} --max-bytes {}",
                shell_word(&v.file_path),
                sizes.iter().sum::<usize>()
            )
        };
        v.omitted = Some(Omitted {
            start_line: first,
            end_line: last,
            lines: v.lines.len() - kept,
            bytes,
            command,
        });
        v.truncated = true;
        v.lines.truncate(kept);
        if contiguous {
            let keep_bytes: usize = sizes[..kept].iter().sum();
            v.text.truncate(keep_bytes);
            let start = v.span.byte_start;
            let index_line = v.span.start_line;
            // The span shrinks to the text kept.
            let end_line = index_line + kept;
            v.span = Span {
                span_id: crate::span::span_id(&v.file_path, start, start + keep_bytes),
                file_path: v.file_path.clone(),
                file_path_lossy: v.span.file_path_lossy,
                byte_start: start,
                byte_end: start + keep_bytes,
                start_line: index_line,
                start_col: 0,
                end_line: if kept == 0 { index_line } else { end_line },
                end_col: 0,
            };
        } else {
            let keep_bytes: usize = sizes[..kept].iter().sum();
            v.text.truncate(keep_bytes);
            if let Some(n) = &mut v.line_numbers {
                n.truncate(kept);
            }
        }
    }
    cut
}

/// `path` quoted for a shell when it needs it.
fn shell_word(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
