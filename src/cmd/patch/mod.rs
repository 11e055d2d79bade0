//! `llm patch`: replace, delete, insert beside or rename a named symbol. Symbols are located with
//! the extraction `llm find` uses (`lang::symbols`) and every write goes through the mutation
//! core (`mutation.rs`) — one all-or-nothing request, even for a rename across files.

mod actions;
mod ancestry;
mod classes;
mod declarators;
mod declared;
mod delete;
mod found;
mod headers;
mod keys;
mod links;
mod members;
mod names;
mod overloads;
mod overrides;
mod rename;
mod scopes;
mod select;
mod shell;
mod taken;
mod typed;
mod types;

pub use actions::Action;
pub use rename::rename_on;
pub use select::{matching, Selector};

use crate::check::{self, ValidatorReport, Verdict};
use crate::edit::Edit;
use crate::envelope::DiagnosticPayload;
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::{self, symbols};
use crate::mutation::{self, Change, MutationOptions, MutationResult};
use crate::span::{checksum, LineIndex, Span};
use crate::walk::display_path;
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
    /// Which classes of site a rename rewrites.
    pub rename_scope: RenameScope,
    /// `--check`: run the language's own checker on the real project before and after; errors
    /// the patch introduced reject it and the files are restored.
    pub check: bool,
    /// How long each --check run may take.
    pub check_timeout: std::time::Duration,
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

/// One occurrence of the old name a rename looked at.
#[derive(Debug, Clone, Serialize)]
pub struct RenameSite {
    /// The old identifier's span (before the rename).
    pub span: Span,
    pub context: crate::lang::RefContext,
    pub is_definition: bool,
    /// `certain` (the definition and what the syntax ties to it), `possible` (a receiver of
    /// unknown type), `excluded` (through another type, or another type's definition).
    pub class: &'static str,
    /// Whether this site was rewritten.
    pub renamed: bool,
    /// The line as it was.
    pub line_text: String,
}

/// A textual occurrence of the old name outside code: in a comment (doc comments and
/// doctests included) or a string (docstrings included).
#[derive(Debug, Clone, Serialize)]
pub struct Leftover {
    pub span: Span,
    /// `comment`, `string` or `other`.
    pub kind: &'static str,
    /// What the text around it says (`Other::name` is `excluded`).
    pub class: &'static str,
    /// Rewritten (--in-comments / --in-strings).
    pub renamed: bool,
    pub line_text: String,
}

/// What a rename covers besides certain sites.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenameScope {
    /// Only `certain` sites (not method calls on receivers of unknown type).
    pub certain_only: bool,
    /// Also occurrences in comments, doc comments and doctests.
    pub in_comments: bool,
    /// Also occurrences in string literals and docstrings.
    pub in_strings: bool,
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
    /// Every site a rename looked at, in every file, with its class.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<RenameSite>,
    /// A rename's textual occurrences in comments and strings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leftovers: Option<Vec<Leftover>>,
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
    pub leftovers: Option<Vec<Leftover>>,
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
                let (start, end) = (span_before.byte_start, span_before.byte_end);
                let at = |e: &&mutation::EditReport| {
                    e.old_span.byte_start >= start && e.old_span.byte_start <= end
                };
                // A delete's edit starts at its line, and may follow the separator's.
                let over = |e: &&mutation::EditReport| {
                    e.old_span.byte_start <= end && e.old_span.byte_end >= start
                };
                (f.edits.iter().find(at))
                    .or_else(|| f.edits.iter().find(over))
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
            leftovers: None,
            validators: Vec::new(),
        }
    }
}

/// The language of the file to patch (spelled `display`); none is `PATCH_E005` with `remediation`.
fn language_of(
    opts: &PatchOptions,
    display: &str,
    remediation: impl FnOnce() -> String,
) -> Result<&'static lang::Language, Error> {
    lang::for_path(&opts.file).ok_or_else(|| {
        Error::new(
            Code::PatchUnsupportedLanguage,
            format!("{display}: no registered language for this file"),
            remediation(),
        )
        .with_file(display)
    })
}

/// Whether a suite header (a line ending in `:`) is in the new text or right before it: only
/// then can the edit leave a suite empty, and the file is parsed again to see.
fn opens_a_suite(src: &[u8], edit: &crate::edit::Edit) -> bool {
    let header = |line: &[u8]| {
        let code = line.split(|&b| b == b'#').next().unwrap_or(line);
        code.trim_ascii_end().ends_with(b":")
    };
    src[..edit.byte_start].trim_ascii_end().ends_with(b":")
        || edit.new_content.split(|&b| b == b'\n').any(header)
}

/// Refuses a Python edit that leaves a suite without a statement (`def f():` followed by
/// nothing, or by a comment only): Python rejects it, but tree-sitter reads it without an
/// error node, so the syntax gate let it through.
fn empty_suite(
    src: &[u8],
    edit: &crate::edit::Edit,
    language: &lang::Language,
    display: &str,
) -> Result<(), Error> {
    let mut after = src[..edit.byte_start].to_vec();
    after.extend_from_slice(&edit.new_content);
    after.extend_from_slice(&src[edit.byte_end..]);
    // From the line before the edit: an empty suite is a zero-length node at the end of its
    // header's line (`def f():`), before a body that went.
    let before = after[..edit.byte_start].trim_ascii_end().len();
    let edited = before..edit.byte_start + edit.new_content.len();
    let tree = language.parse(&after);
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let (start, end) = (n.start_byte(), n.end_byte());
        if end < edited.start || start > edited.end {
            continue;
        }
        let suite = match n.kind() {
            "function_definition"
            | "class_definition"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "for_statement"
            | "while_statement"
            | "try_statement"
            | "except_clause"
            | "finally_clause"
            | "with_statement" => n
                .child_by_field_name("body")
                .or_else(|| n.child_by_field_name("consequence")),
            _ => None,
        };
        let empty = suite.is_none_or(|b| {
            let mut c = b.walk();
            let statements = b
                .named_children(&mut c)
                .filter(|k| k.kind() != "comment")
                .count();
            statements == 0
        });
        if suite.is_some() && empty || (n.kind() == "block" && n.named_child_count() == 0) {
            let index = crate::span::LineIndex::new(&after);
            let span = index.span(display, start..end);
            return Err(Error::new(
                Code::SyntaxIntroduced,
                format!(
                    "{display}:{}: the patch leaves a Python `{}` without a statement (a comment is none)",
                    span.start_line,
                    n.kind().trim_end_matches("_statement").trim_end_matches("_definition").trim_end_matches("_clause")
                ),
                "give the suite a statement (`pass`, or `...` in a stub)",
            )
            .rejected()
            .with_span(span));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    Ok(())
}

/// Locates the symbol, builds the edits, and prepares them (validated, nothing written).
pub fn plan(opts: &PatchOptions) -> Result<Planned, Error> {
    let display = display_path(&opts.file);
    let language = language_of(opts, &display, || {
        format!(
            "patch works on {} files; use `llm transform` for byte or exact-text edits",
            lang::ALL
                .iter()
                .map(|l| l.name)
                .collect::<Vec<_>>()
                .join(" and ")
        )
    })?;
    // Read beneath the root, as the write will (an outside target is refused).
    let src = crate::paths::read_target(
        &opts.mutation.root,
        opts.mutation.allow_outside_root,
        &opts.file,
        &display,
    )?;
    crate::cmd::transform::expect_checksum(
        opts.expected_checksum.as_deref(),
        &src,
        &display,
        "re-run `llm find` on the file and patch from its current content",
    )?;
    let (syms, i, tree) = locate(opts, language, &src, &display)?;
    // Renaming a Rust `impl P` renames `P`.
    let i = match opts.action {
        // A Rust trait impl's item its trait's, a C++ method defined outside its class its
        // declaration, an override the method it overrides.
        Action::Rename(_) => {
            let i = overloads::renamed_index(&syms, types::renamed_index(&syms, i)?)?;
            overrides::renamed_index(&syms, &src, i)?
        }
        _ => i,
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
        return rename::plan_rename(opts, language, &syms, i, symbol, new, &src, checksum_now);
    }
    let edits = action_edits(opts, language, &src, &syms, i, &display)?;
    // The definition's own edit (a delete's separator before it comes first).
    let edit = edits.last().expect("an action has an edit");
    if language.name == "python" && !opts.mutation.force && opens_a_suite(&src, edit) {
        empty_suite(&src, edit, language, &display)?;
    }
    let span_before = match opts.action {
        Action::Body => s.body_span.clone().unwrap_or_else(|| s.span.clone()),
        _ => s.span.clone(),
    };
    let changes = [Change::edits(&opts.file, edits, checksum_now).with_tree(tree)];
    let mut prepared = mutation::prepare(&changes, &opts.mutation)?;
    if opts.action == Action::Delete {
        let warning = delete::go_iota_warning(&src, s, language, &display);
        prepared.diagnostics.extend(warning);
    }
    if opts.check {
        prepared.set_validating();
    }
    let message = message(opts, s, &display);
    Ok(Planned {
        prepared,
        paths: vec![opts.file.clone()],
        symbol,
        span_before,
        sites: Vec::new(),
        leftovers: None,
        message,
    })
}

/// The edits of a patch other than a rename, on `src` (the file as it is, or as earlier
/// operations of an `llm apply` batch left it), with the message that describes it.
pub fn edits_on(opts: &PatchOptions, src: &[u8]) -> Result<(Vec<Edit>, String), Error> {
    let display = display_path(&opts.file);
    let language = language_of(opts, &display, || {
        "patch works on files of a registered language; use a `transform` operation for exact-text edits".into()
    })?;
    let (syms, i, _) = locate(opts, language, src, &display)?;
    let edits = action_edits(opts, language, src, &syms, i, &display)?;
    Ok((edits, message(opts, &syms[i], &display)))
}

fn message(opts: &PatchOptions, s: &symbols::Symbol, display: &str) -> String {
    let verb = match opts.action {
        Action::Replace => "replaced",
        Action::Body => "replaced the body of",
        Action::Delete => "deleted",
        Action::InsertBefore => "inserted text before",
        Action::InsertAfter => "inserted text after",
        Action::Rename(_) => "renamed",
    };
    format!(
        "{verb} {} `{}` in {display}",
        s.kind.as_str(),
        s.qualified_name
    )
}

/// The file's symbols (all, or those around the name) and the index of the one selected,
/// with the tree they came from.
fn locate(
    opts: &PatchOptions,
    language: &'static lang::Language,
    src: &[u8],
    display: &str,
) -> Result<(Vec<symbols::Symbol>, usize, tree_sitter::Tree), Error> {
    // Only the regions around the name's occurrences are parsed (`lang::regions`), and only
    // the definitions around it extracted (their ancestors come along); inserts need the
    // neighbours too, and a failed lookup needs every name to suggest.
    let needs_all = matches!(opts.action, Action::InsertBefore | Action::InsertAfter);
    let mut tree;
    let mut syms = if needs_all {
        tree = language.parse(src);
        symbols::symbols(language, src, &tree, display)
    } else {
        let name = symbols::last_segment(&opts.selector.name).as_bytes();
        let ranges: Vec<_> = memchr::memmem::find_iter(src, name)
            .map(|at| at..at + name.len())
            .collect();
        let index = LineIndex::new(src);
        tree = language
            .parse_around(src, &index, &ranges, Cut::Members)
            .tree;
        symbols::symbols_around(language, src, &tree, display, &ranges)
    };
    let i = match select::select(&syms, &opts.selector, display) {
        Ok(i) => i,
        Err(_) if !needs_all => {
            tree = language.parse(src);
            syms = symbols::symbols(language, src, &tree, display);
            select::select(&syms, &opts.selector, display)?
        }
        Err(e) => return Err(e),
    };
    Ok((syms, i, tree))
}

/// The edits of a replace, body, delete or insert (one, but for a delete that takes the
/// separator before the symbol too), refusing an insert already in place.
fn action_edits(
    opts: &PatchOptions,
    language: &lang::Language,
    src: &[u8],
    syms: &[symbols::Symbol],
    i: usize,
    display: &str,
) -> Result<Vec<Edit>, Error> {
    let s = &syms[i];
    let text = match (&opts.action, &opts.text) {
        (Action::Delete, _) => return delete::delete_edits(src, syms, i, language, display),
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
    let edit = actions::edit_for(&opts.action, src, syms, i, &text, language)?;
    if matches!(opts.action, Action::InsertBefore | Action::InsertAfter) {
        let before = opts.action == Action::InsertBefore;
        if let Some(there) = actions::already_inserted(src, &edit, before) {
            let index = LineIndex::new(src);
            let span = index.span(display, there);
            return Err(Error::new(
                Code::AlreadyApplied,
                format!(
                    "the text to insert {} `{}` is already there (line {}): the insert was probably applied before; nothing was written",
                    if before { "before" } else { "after" },
                    s.qualified_name,
                    span.start_line
                ),
                "re-read the file: if it already has the text, there is nothing to do",
            )
            .with_span(span)
            .with_note("probably already applied")
            .rejected());
        }
    }
    Ok(vec![edit])
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
        leftovers,
        message,
    } = plan(opts)?;
    if opts.mutation.dry_run {
        let diags = prepared.diagnostics.clone();
        let mut result = Planned::result(symbol, &opts.action, span_before, sites, prepared.result);
        result.leftovers = leftovers;
        return Ok((
            result,
            format!("dry run: {message} (nothing written)"),
            diags,
        ));
    }
    let before = if opts.check {
        run_checks(&paths, opts.check_timeout)
    } else {
        Vec::new()
    };
    let committed = prepared.commit()?;
    let mut validators = Vec::new();
    if opts.check {
        let after = recheck(&paths, &before, opts.check_timeout);
        if after.refused() {
            let restored = committed.rollback();
            return Err(Error::new(
                Code::PatchCheckFailed,
                format!(
                    "--check rejected the patch ({}); {}",
                    after.refused_names.join(", "),
                    restored_note(restored)
                ),
                after.remediation("fix the new text so the project still builds"),
            )
            .rejected()
            .with_related(after.refused_errors));
        }
        validators = after.validators;
    }
    let (m, diags) = committed.keep();
    let mut result = Planned::result(symbol, &opts.action, span_before, sites, m);
    result.validators = validators;
    result.leftovers = leftovers;
    Ok((result, message, diags))
}

/// `--check` after the commit: every checker run again and judged against its run before.
pub(crate) struct Rechecked {
    /// One report per checker, judged relative to its run before the change.
    pub validators: Vec<ValidatorReport>,
    /// `name: verdict` of each checker that refuses the change (anything but passed/skipped).
    pub refused_names: Vec<String>,
    /// The error diagnostics of those checkers.
    pub refused_errors: Vec<DiagnosticPayload>,
}

impl Rechecked {
    /// The remediation of a rejection: fix the text when a checker found errors in it, else
    /// (a checker missing, stopped, or broken) see to the checker.
    pub fn remediation(&self, fix: &str) -> String {
        let failed = (self.validators.iter()).any(|v| v.verdict == Verdict::Failed);
        if failed {
            format!("{fix} (see diagnostics), or drop --check")
        } else {
            "no checker could judge the change (see diagnostics: install the checker, or give it more time); nothing was kept, or drop --check".to_string()
        }
    }

    /// Whether any checker refuses the change.
    pub fn refused(&self) -> bool {
        !self.refused_names.is_empty()
    }
}

/// Runs the checkers of `paths` again after the commit and judges each report against the
/// same checker's run `before` (as [`run_checks`] returned it for the same paths).
pub(crate) fn recheck(
    paths: &[PathBuf],
    before: &[ValidatorReport],
    timeout: std::time::Duration,
) -> Rechecked {
    let validators: Vec<ValidatorReport> = run_checks(paths, timeout)
        .into_iter()
        .zip(before.iter())
        .map(|(a, b)| a.relative_to(b))
        .collect();
    let refused: Vec<&ValidatorReport> = validators
        .iter()
        .filter(|v| !matches!(v.verdict, Verdict::Passed | Verdict::Skipped))
        .collect();
    let refused_names = refused
        .iter()
        .map(|v| format!("{}: {}", v.name, v.verdict.as_str()))
        .collect();
    let refused_errors = refused.iter().flat_map(|v| v.errors().cloned()).collect();
    Rechecked {
        validators,
        refused_names,
        refused_errors,
    }
}

/// The end of a `--check` rejection's message: whether the files were put back.
pub(crate) fn restored_note(restored: bool) -> &'static str {
    if restored {
        "the files were restored"
    } else {
        "RESTORING FAILED: check the files"
    }
}

/// One report per checker: `cargo check` once per Cargo package touched, `tsc` once per
/// TypeScript project, the language's one-file checker per other file (see `check::Checker`).
pub(crate) fn run_checks(paths: &[PathBuf], timeout: std::time::Duration) -> Vec<ValidatorReport> {
    let mut reports = Vec::new();
    let mut projects = Vec::new();
    for path in paths {
        let display = display_path(path);
        // Absolute, as the checkers take it: a relative one sent C's `-iquote` and tsc's
        // project directory nowhere once the checker ran in another directory.
        let path = &crate::walk::absolute(path);
        let Some(checker) = check::Checker::for_file(lang::for_path(path).map(|l| l.name), path)
        else {
            continue;
        };
        let project = match checker {
            check::Checker::Cargo => check::cargo::find_package(path).map(|p| p.manifest),
            check::Checker::Tsc => check::tsc::project(path),
            _ => None,
        };
        if checker.in_place() {
            if projects.contains(&(checker, project.clone())) {
                continue;
            }
            projects.push((checker, project));
        }
        let text = crate::fsio::read(path, &display).unwrap_or_default();
        reports.push(checker.check(&text, path, &display, timeout));
    }
    reports
}
