//! `llm patch`: replace, delete, insert beside or rename a named symbol. Symbols are located with
//! the extraction `llm find` uses (`lang::symbols`) and every write goes through the mutation
//! core (`mutation.rs`) — one all-or-nothing request, even for a rename across files.

mod actions;
mod select;

pub use actions::Action;
pub use select::Selector;

use crate::check::{self, ValidatorReport, Verdict};
use crate::edit::Edit;
use crate::envelope::DiagnosticPayload;
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::{self, symbols};
use crate::mutation::{self, Change, MutationOptions, MutationResult};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::{self, display_path, WalkOptions};
use serde::Serialize;
use std::path::PathBuf;

/// Everything a patch needs, free of clap.
#[derive(Debug, Clone)]
pub struct PatchOptions {
    pub file: PathBuf,
    pub selector: Selector,
    pub action: Action,
    /// New text for replace / body / insert.
    pub text: Option<String>,
    pub expected_checksum: Option<String>,
    /// Where `--rename` looks for references (default: the workspace root).
    pub rename_paths: Vec<PathBuf>,
    /// `--check`: run the language's own checker on the real project before and after; errors
    /// the patch introduced reject it and the files are restored.
    pub check: bool,
    pub mutation: MutationOptions,
}

/// The symbol a patch applied to.
#[derive(Debug, Clone, Serialize)]
pub struct PatchedSymbol {
    pub name: String,
    pub kind: symbols::SymbolKind,
    pub qualified_name: String,
    pub parent: Option<String>,
    pub symbol_id: String,
    pub language: &'static str,
}

/// One place a rename changed.
#[derive(Debug, Clone, Serialize)]
pub struct RenameSite {
    /// The old identifier's span (before the rename).
    pub span: Span,
    pub context: symbols::RefContext,
    pub is_definition: bool,
    /// The line as it was.
    pub line_text: String,
}

/// `result` of a patch.
#[derive(Debug, Clone, Serialize)]
pub struct PatchResult {
    pub action: &'static str,
    pub symbol: PatchedSymbol,
    /// What was replaced, in the file before the patch (for inserts: the symbol beside which
    /// the text went; for a rename: the definition's name).
    pub span_before: Span,
    /// The new text's span in the file after the patch (empty at the deletion point for a
    /// delete; the new name for a rename).
    pub span_after: Span,
    #[serde(flatten)]
    pub mutation: MutationResult,
    /// Every site a rename changed, in every file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<RenameSite>,
    /// `--check` runs (cargo check / python compile), judged against the run before the patch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub validators: Vec<ValidatorReport>,
}

/// A patch ready to be committed: prepared changes plus the result to report.
pub struct Planned {
    pub prepared: mutation::Prepared,
    /// The files the patch changes (for `--check`).
    pub paths: Vec<PathBuf>,
    pub symbol: PatchedSymbol,
    pub span_before: Span,
    pub sites: Vec<RenameSite>,
    pub message: String,
}

impl Planned {
    /// The result, from the mutation result of the prepared (or committed) change.
    pub fn result(
        symbol: PatchedSymbol,
        action: &Action,
        span_before: Span,
        sites: Vec<RenameSite>,
        m: MutationResult,
    ) -> PatchResult {
        let span_after = m
            .files
            .iter()
            .find(|f| f.file_path == span_before.file_path)
            .and_then(|f| {
                f.edits
                    .iter()
                    .find(|e| {
                        e.old_span.byte_start >= span_before.byte_start
                            && e.old_span.byte_start <= span_before.byte_end
                    })
                    .or(f.edits.first())
            })
            .map(|e| e.span.clone())
            .unwrap_or_else(|| span_before.clone());
        PatchResult {
            action: action.as_str(),
            symbol,
            span_before,
            span_after,
            mutation: m,
            sites,
            validators: Vec::new(),
        }
    }
}

/// Locates the symbol, builds the edits, and prepares them (validated, nothing written).
pub fn plan(opts: &PatchOptions) -> Result<Planned, Error> {
    let display = display_path(&opts.file);
    let language = lang::for_path(&opts.file).ok_or_else(|| {
        Error::new(
            Code::PatchUnsupportedLanguage,
            format!("{display}: no registered language for this file"),
            format!(
                "patch works on {} files; use `llm transform` for byte or exact-text edits",
                lang::ALL
                    .iter()
                    .map(|l| l.name)
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        )
        .with_file(&display)
    })?;
    let src = crate::fsio::read(&opts.file, &display)?;
    if let Some(expected) = &opts.expected_checksum {
        let actual = checksum(&src);
        if !expected.eq_ignore_ascii_case(&actual) {
            return Err(Error::new(
                Code::ChecksumMismatch,
                format!("{display} changed since it was read: expected checksum {expected}, found {actual}"),
                "re-run `llm find` on the file and patch from its current content",
            )
            .with_file(&display)
            .rejected());
        }
    }
    // Only the regions around the name's occurrences are parsed (`lang::regions`), and only
    // the definitions around it extracted (their ancestors come along); inserts need the
    // neighbours too, and a failed lookup needs every name to suggest.
    let needs_all = matches!(opts.action, Action::InsertBefore | Action::InsertAfter);
    let mut tree;
    let mut syms = if needs_all {
        tree = language.parse(&src);
        symbols::symbols(language, &src, &tree, &display)
    } else {
        let name = symbols::last_segment(&opts.selector.name).as_bytes();
        let ranges: Vec<_> = memchr::memmem::find_iter(&src, name)
            .map(|at| at..at + name.len())
            .collect();
        let index = LineIndex::new(&src);
        tree = language
            .parse_around(&src, &index, &ranges, Cut::Members)
            .tree;
        symbols::symbols_around(language, &src, &tree, &display, &ranges)
    };
    let i = match select::select(&syms, &opts.selector, &display) {
        Ok(i) => i,
        Err(_) if !needs_all => {
            tree = language.parse(&src);
            syms = symbols::symbols(language, &src, &tree, &display);
            select::select(&syms, &opts.selector, &display)?
        }
        Err(e) => return Err(e),
    };
    let s = &syms[i];
    let symbol = PatchedSymbol {
        name: s.name.clone(),
        kind: s.kind,
        qualified_name: s.qualified_name.clone(),
        parent: s.parent.clone(),
        symbol_id: s.symbol_id.clone(),
        language: language.name,
    };
    let checksum_now = Some(
        opts.expected_checksum
            .clone()
            .unwrap_or_else(|| checksum(&src)),
    );
    if let Action::Rename(new) = &opts.action {
        return plan_rename(opts, language, s, symbol, new, &src, checksum_now);
    }
    let text = match (&opts.action, &opts.text) {
        (Action::Delete, _) => String::new(),
        (_, Some(t)) if !t.trim().is_empty() || opts.action == Action::Body => t.clone(),
        _ => {
            return Err(Error::new(
                Code::PatchNoText,
                format!(
                    "no new text for {} of `{}`",
                    opts.action.as_str(),
                    s.qualified_name
                ),
                "pass --with FILE, --with-text TEXT, or pipe the text on stdin",
            ))
        }
    };
    // Bodies that are indented suites without braces (Python; Ruby's `def … end`).
    let python = matches!(language.name, "python" | "ruby");
    let edit = actions::edit_for(&opts.action, &src, &syms, i, &text, python)?;
    let span_before = match opts.action {
        Action::Body => s.body_span.clone().unwrap_or_else(|| s.span.clone()),
        _ => s.span.clone(),
    };
    let changes = [Change::edits(&opts.file, vec![edit], checksum_now).with_tree(tree)];
    let prepared = mutation::prepare(&changes, &opts.mutation)?;
    let verb = match opts.action {
        Action::Replace => "replaced",
        Action::Body => "replaced the body of",
        Action::Delete => "deleted",
        Action::InsertBefore => "inserted text before",
        Action::InsertAfter => "inserted text after",
        Action::Rename(_) => unreachable!(),
    };
    let message = format!(
        "{verb} {} `{}` in {display}",
        s.kind.as_str(),
        s.qualified_name
    );
    Ok(Planned {
        prepared,
        paths: vec![opts.file.clone()],
        symbol,
        span_before,
        sites: Vec::new(),
        message,
    })
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

fn plan_rename(
    opts: &PatchOptions,
    language: &'static lang::Language,
    s: &symbols::Symbol,
    symbol: PatchedSymbol,
    new: &str,
    src: &[u8],
    checksum_now: Option<String>,
) -> Result<Planned, Error> {
    if !is_identifier(new) {
        return Err(Error::new(
            Code::PatchBadName,
            format!("`{new}` is not an identifier"),
            "pass a plain name (letters, digits, `_`; not starting with a digit) to --rename",
        ));
    }
    let old = s.name.clone();
    let roots = if opts.rename_paths.is_empty() {
        vec![opts.mutation.root.clone()]
    } else {
        opts.rename_paths.clone()
    };
    let walked = walk::walk(
        &WalkOptions {
            paths: roots,
            ..Default::default()
        },
        "patch",
    )?;
    let primary = std::fs::canonicalize(&opts.file).unwrap_or_else(|_| opts.file.clone());
    let finder = memchr::memmem::Finder::new(old.as_bytes());
    let mut changes = Vec::new();
    let mut sites = Vec::new();
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![(opts.file.clone(), src.to_vec())];
    for c in walked
        .files
        .iter()
        .filter(|c| lang::for_path(&c.path).is_some_and(|l| std::ptr::eq(l, language)))
    {
        if std::fs::canonicalize(&c.path).is_ok_and(|p| p == primary) {
            continue;
        }
        if let Ok(bytes) = std::fs::read(&c.path) {
            if finder.find(&bytes).is_some() {
                files.push((c.path.clone(), bytes));
            }
        }
    }
    for (k, (path, bytes)) in files.iter().enumerate() {
        let display = display_path(path);
        let hits: Vec<_> = finder
            .find_iter(bytes)
            .map(|at| at..at + old.len())
            .collect();
        let index = LineIndex::new(bytes);
        let tree = language
            .parse_around(bytes, &index, &hits, Cut::Members)
            .tree;
        let refs = symbols::references(language, bytes, &tree, &old, &display);
        if refs.is_empty() {
            continue;
        }
        let edits: Vec<Edit> = refs
            .iter()
            .map(|r| Edit::new(r.span.range(), new))
            .collect();
        sites.extend(refs.into_iter().map(|r| RenameSite {
            span: r.span,
            context: r.context,
            is_definition: r.is_definition,
            line_text: r.line_text,
        }));
        let expected = if k == 0 {
            checksum_now.clone()
        } else {
            Some(checksum(bytes))
        };
        changes.push(Change::edits(path, edits, expected).with_tree(tree));
    }
    let prepared = mutation::prepare(&changes, &opts.mutation)?;
    let message = format!(
        "renamed {} `{}` to `{new}`: {} site{} in {} file{}",
        s.kind.as_str(),
        s.qualified_name,
        sites.len(),
        if sites.len() == 1 { "" } else { "s" },
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    );
    let paths = changes.iter().map(|c| c.path.clone()).collect();
    Ok(Planned {
        prepared,
        paths,
        symbol,
        span_before: s.name_span.clone(),
        sites,
        message,
    })
}

/// Plans and, unless a dry run, commits the patch. With `--check`, the language's checker runs
/// on the project before the commit and again after it (with the core's locks held); errors the
/// patch introduced — or a checker that could not run — restore the files and reject the patch.
pub fn run(opts: &PatchOptions) -> Result<(PatchResult, String, Vec<DiagnosticPayload>), Error> {
    let Planned {
        prepared,
        paths,
        symbol,
        span_before,
        sites,
        message,
    } = plan(opts)?;
    if opts.mutation.dry_run {
        let diags = prepared.diagnostics.clone();
        let result = Planned::result(symbol, &opts.action, span_before, sites, prepared.result);
        return Ok((
            result,
            format!("dry run: {message} (nothing written)"),
            diags,
        ));
    }
    let before = if opts.check {
        run_checks(&paths)
    } else {
        Vec::new()
    };
    let committed = prepared.commit()?;
    let mut validators = Vec::new();
    if opts.check {
        let after = run_checks(&paths);
        validators = after
            .into_iter()
            .zip(before.iter())
            .map(|(a, b)| a.relative_to(b))
            .collect();
        let refused: Vec<&ValidatorReport> = validators
            .iter()
            .filter(|v| !matches!(v.verdict, Verdict::Passed | Verdict::Skipped))
            .collect();
        if !refused.is_empty() {
            let restored = committed.rollback();
            let diags: Vec<DiagnosticPayload> =
                refused.iter().flat_map(|v| v.errors().cloned()).collect();
            let names: Vec<String> = refused
                .iter()
                .map(|v| format!("{}: {:?}", v.name, v.verdict).to_lowercase())
                .collect();
            return Err(Error::new(
                Code::PatchCheckFailed,
                format!(
                    "--check rejected the patch ({}); {}",
                    names.join(", "),
                    if restored {
                        "the files were restored"
                    } else {
                        "RESTORING FAILED: check the files"
                    }
                ),
                "fix the new text so the project still builds (see diagnostics), or drop --check",
            )
            .rejected()
            .with_related(diags));
        }
    }
    let (m, diags) = committed.keep();
    let mut result = Planned::result(symbol, &opts.action, span_before, sites, m);
    result.validators = validators;
    Ok((result, message, diags))
}

/// One report per checker: `cargo check` once per Cargo package touched, Python's `compile()`
/// per Python file.
fn run_checks(paths: &[PathBuf]) -> Vec<ValidatorReport> {
    let mut reports = Vec::new();
    let mut packages = Vec::new();
    for path in paths {
        match lang::for_path(path).map(|l| l.name) {
            Some("rust") => {
                let pkg = check::cargo::find_package(path).map(|p| p.manifest);
                if !packages.contains(&pkg) {
                    packages.push(pkg);
                    reports.push(check::cargo::check_file(
                        path,
                        &check::cargo::CargoOptions::default(),
                    ));
                }
            }
            Some("python") => {
                let display = display_path(path);
                let text = std::fs::read(path).unwrap_or_default();
                reports.push(check::python::check(
                    &text,
                    &display,
                    &check::python::PythonOptions::default(),
                ));
            }
            _ => {}
        }
    }
    reports
}
