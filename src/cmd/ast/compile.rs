//! An `llm ast` query compiled for each language it applies to: the tree-sitter query, its
//! bare-kind shortcut, literal prefilter and region cut, and query errors that say where and
//! how to fix them.

use super::bare::Bare;
use crate::envelope::Level;
use crate::error::{Code, Error, Result};
use crate::lang::literals::{self, Prefilter};
use crate::lang::regions::Cut;
use crate::lang::{self, Language};
use tree_sitter::{Query, QueryError, QueryErrorKind};

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
