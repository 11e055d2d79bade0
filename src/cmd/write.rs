//! `llm write`: create or replace a whole file only when it is valid. Flow: content checks
//! (UTF-8, elision markers) → the mutation core's prepare (confinement, existence, checksum,
//! tree-sitter syntax) → `--check` (the language's checker from `check::Checker`: one file's text
//! in a temporary copy, or `cargo check`/`tsc` with the file placed under the core's lock) → `--lsp` → keep, or roll back so nothing invalid is left on disk.

use crate::check::{cargo, lsp, tsc, Checker, ValidatorReport, Verdict};
use crate::envelope::{DiagnosticPayload, Level, Status};
use crate::error::{Code, Error};
use crate::lang::{self, Language};
use crate::mutation::{self, Change, Content, Existence, MutationOptions, MutationResult};
use crate::span::LineIndex;
use crate::walk::{absolute, display_path};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Everything `llm write` needs, already parsed.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    pub path: PathBuf,
    /// The new content, byte for byte (line endings kept as given).
    pub content: Vec<u8>,
    /// Create missing parent directories.
    pub parents: bool,
    /// Replace an existing file (otherwise an existing file is refused).
    pub overwrite: bool,
    pub expected_checksum: Option<String>,
    /// `--lang`, already resolved.
    pub language: Option<&'static Language>,
    /// Run the language's checker (`cargo check`, Python `compile()`).
    pub check: bool,
    pub check_timeout: Duration,
    /// Language server command line (`--lsp`, or `LLM_LSP_<LANG>`).
    pub lsp: Option<String>,
    pub lsp_timeout: Duration,
    pub root: PathBuf,
    pub allow_outside_root: bool,
    pub dry_run: bool,
    pub force: bool,
}

/// `result` of `llm write`.
#[derive(Debug, Clone, Serialize)]
pub struct WriteData {
    pub path: String,
    /// Language used for validation; null when unknown (written without syntax validation).
    pub language: Option<&'static str>,
    /// Whether the file was (or, in a dry run, would be) created rather than replaced.
    pub created: bool,
    /// SHA-256 of the content written.
    pub checksum: String,
    /// SHA-256 of the file it replaced (null when created).
    pub before_checksum: Option<String>,
    pub bytes: usize,
    pub lines: usize,
    /// Whether the content is on disk now (false for dry runs and rejections).
    pub written: bool,
    /// Each validator that ran, in order.
    pub validators: Vec<ValidatorReport>,
    /// The language server command used, if any.
    pub lsp_used: Option<String>,
    /// Every validator diagnostic (errors turned into warnings with `--force`).
    pub diagnostics: Vec<DiagnosticPayload>,
    #[serde(flatten)]
    pub mutation: MutationResult,
}

/// How a run ended: status, message, the data when there is some, and the error when it failed.
pub struct WriteOutcome {
    pub status: Status,
    pub message: String,
    pub data: Option<WriteData>,
    pub diagnostics: Vec<DiagnosticPayload>,
    pub error: Option<Error>,
}

impl WriteOutcome {
    fn failed(e: Error) -> Self {
        WriteOutcome {
            status: e.status(),
            message: e.message.clone(),
            data: None,
            diagnostics: Vec::new(),
            error: Some(e),
        }
    }
}

/// The name of the syntax validator.
const SYNTAX: &str = "tree-sitter";

/// Runs `llm write`.
pub fn run(opts: &WriteOptions) -> WriteOutcome {
    match write(opts) {
        Ok(o) => o,
        Err(e) => WriteOutcome::failed(e),
    }
}

fn write(opts: &WriteOptions) -> Result<WriteOutcome, Error> {
    let display = display_path(&opts.path);
    let abs = absolute(&opts.path);
    // The language of the text being written (a new `.h` holding C++ is C++).
    let language = opts
        .language
        .or_else(|| lang::for_content(&opts.path, &opts.content));
    let root = crate::paths::Root::open(&opts.root, opts.allow_outside_root)?;
    // Probed beneath the root's handle, component by component (no PATH_MAX limit, no symlink
    // followed out of the root).
    let parent = match opts.path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let missing_dirs = root.missing_dirs(parent, &display)?;
    let mut language = language;
    if missing_dirs.is_empty() {
        let target = root.resolve(&opts.path, &display)?;
        // A link's name may say nothing of the file it leads to (`le` → `e.rs`).
        language = language.or_else(|| lang::for_content(&target.real, &opts.content));
    } else if !opts.parents {
        return Err(Error::new(
            Code::ParentMissing,
            format!(
                "{display}: directory {} does not exist",
                display_path(missing_dirs.last().expect("a missing directory"))
            ),
            "pass --parents to create missing directories, or fix the path",
        )
        .with_file(&display));
    }
    let exists = std::fs::symlink_metadata(&abs).is_ok();
    if !opts.force {
        suspicious(opts, &display, exists)?;
    }

    let started = Instant::now();
    let change = Change {
        path: opts.path.clone(),
        content: Content::Replace(opts.content.clone()),
        expected_checksum: opts.expected_checksum.clone(),
        existence: if opts.overwrite {
            Existence::Either
        } else {
            Existence::MustNotExist
        },
        language,
        tree: None,
        origin: None,
    };
    let mopts = MutationOptions {
        root: opts.root.clone(),
        allow_outside_root: opts.allow_outside_root,
        dry_run: opts.dry_run,
        // Syntax errors come back as warnings; the verdict is ours (all validators together).
        force: true,
        match_line_endings: false,
        tool: "write",
    };
    let prepared = mutation::prepare(std::slice::from_ref(&change), &mopts)?;
    let mut validators = vec![syntax_report(language, &prepared.diagnostics, started)];
    let core_warnings: Vec<DiagnosticPayload> = prepared
        .diagnostics
        .iter()
        .filter(|d| d.code.as_deref() != Some(Code::SyntaxIntroduced.id()))
        .cloned()
        .collect();
    let written_text = written_bytes(&prepared.result, opts);
    let syntax_ok = validators[0].errors().next().is_none();

    // Validators that work on the text alone run before anything is placed; `cargo check`
    // needs the file in place, so it commits (under the core's lock) and may roll back.
    let go_on = syntax_ok || opts.force;
    let mut placement = Placement::Prepared(prepared, missing_dirs);
    if go_on && opts.check {
        let checker = Checker::for_file(language.map(|l| l.name), &opts.path);
        let timeout = opts.check_timeout;
        match checker {
            None => validators.push(skipped(
                "check",
                &display,
                &format!(
                    "--check has no checker for {}; only the syntax check ran",
                    language.map_or("files of unknown language", |l| l.name)
                ),
                "drop --check, or pass --lang NAME if the extension hides the language",
            )),
            Some(c) if c.in_place() && opts.dry_run => validators.push(skipped(
                c.name(),
                &display,
                &format!(
                    "a dry run writes nothing, and `{}` needs the file in place; it was not run",
                    c.name()
                ),
                "run again without --dry-run to check the project",
            )),
            Some(c) if c.in_place() => {
                let project = match c {
                    Checker::Cargo => cargo::find_package(&abs).map(|p| p.manifest),
                    _ => tsc::project(&abs),
                };
                if project.is_none() {
                    validators.push(c.check(&written_text, &abs, &display, timeout));
                } else {
                    let Placement::Prepared(mut prepared, missing) = placement else {
                        unreachable!("nothing is committed before the project check")
                    };
                    let before = in_place(c, &abs, false, timeout);
                    let created = make_dirs(&root, &missing, &display)?;
                    prepared.set_created_dirs(&created);
                    prepared.set_validating();
                    let committed = prepared
                        .commit()
                        .inspect_err(|_| remove_dirs(opts, &created))?;
                    let after = in_place(c, &abs, true, timeout);
                    validators.push(after.judged_for(&before, &display));
                    placement = Placement::Committed(committed, created);
                }
            }
            Some(c) => {
                // One file's text: every error in it counts; errors the tool reports elsewhere
                // (headers, other classes) only if the old text did not have them.
                let after = c.check(&written_text, &abs, &display, timeout);
                let report = match std::fs::read(&abs).ok().filter(|_| exists) {
                    Some(old) => {
                        after.judged_for(&c.check(&old, &abs, &display, timeout), &display)
                    }
                    None => after,
                };
                validators.push(report);
            }
        }
    }
    finish(
        opts,
        display,
        language,
        validators,
        core_warnings,
        written_text,
        placement,
        exists,
    )
}

/// Where the new content stands when the text-only validators are done.
enum Placement {
    /// Not written yet, with the directories a commit must create first.
    Prepared(mutation::Prepared, Vec<PathBuf>),
    /// Already written (for `cargo check`), with the directories created for it.
    Committed(mutation::Committed, Vec<PathBuf>),
}

/// Runs the language server, reaches the verdict, then keeps or rolls back.
#[allow(clippy::too_many_arguments)]
fn finish(
    opts: &WriteOptions,
    display: String,
    language: Option<&'static Language>,
    mut validators: Vec<ValidatorReport>,
    core_warnings: Vec<DiagnosticPayload>,
    text: Vec<u8>,
    placement: Placement,
    existed: bool,
) -> Result<WriteOutcome, Error> {
    let syntax_ok = validators[0].errors().next().is_none();
    let mut lsp_used = None;
    if let Some(cmd) = opts.lsp.as_deref().filter(|_| syntax_ok || opts.force) {
        let lopts = lsp::LspOptions {
            timeout: opts.lsp_timeout,
            ..lsp::LspOptions::new(cmd, absolute(&opts.root))
        };
        let language_id = language.map_or("plaintext", |l| l.name);
        validators.push(lsp::check(
            &lopts,
            &absolute(&opts.path),
            &display,
            language_id,
            &text,
        ));
        lsp_used = Some(cmd.to_string());
    }
    let mut diagnostics: Vec<DiagnosticPayload> = validators
        .iter()
        .flat_map(|v| v.diagnostics.iter().cloned())
        .collect();
    let errors = diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .count();
    let reject = errors > 0 && !opts.force;
    if opts.force {
        for d in diagnostics.iter_mut().filter(|d| d.level == Level::Error) {
            d.level = Level::Warning;
            d.note = Some(match d.note.take() {
                Some(n) => format!("{n} (written anyway: --force)"),
                None => "written anyway: --force".into(),
            });
        }
    }

    // Keep or undo.
    let (mutation, written) = match placement {
        Placement::Committed(c, created) => {
            if reject {
                let result = c.result.clone();
                let restored = c.rollback();
                remove_dirs(opts, &created);
                if !restored {
                    return Err(Error::new(
                        Code::WriteFailed,
                        format!("{display} was rejected, but restoring its old content failed"),
                        "inspect the file: the rejected content may still be in place",
                    )
                    .with_file(&display));
                }
                (result, false)
            } else {
                (c.keep().0, true)
            }
        }
        Placement::Prepared(mut p, missing) => {
            if reject || opts.dry_run {
                (p.result, false)
            } else {
                let root = crate::paths::Root::open(&opts.root, opts.allow_outside_root)?;
                let created = make_dirs(&root, &missing, &display)?;
                p.set_created_dirs(&created);
                let c = p.commit().inspect_err(|_| remove_dirs(opts, &created))?;
                (c.keep().0, true)
            }
        }
    };
    let file = &mutation.files[0];
    let data = WriteData {
        path: display.clone(),
        language: language.map(|l| l.name),
        created: !existed,
        checksum: file.after_checksum.clone(),
        before_checksum: file.before_checksum.clone(),
        bytes: text.len(),
        lines: if text.is_empty() {
            0
        } else {
            LineIndex::new(&text).line_count()
        },
        written,
        validators,
        lsp_used,
        diagnostics: diagnostics.clone(),
        mutation,
    };
    let mut warnings = core_warnings;
    warnings.extend(
        diagnostics
            .iter()
            .filter(|d| d.level == Level::Warning)
            .cloned(),
    );
    if reject {
        let failed: Vec<&str> = data
            .validators
            .iter()
            .filter(|v| v.errors().next().is_some())
            .map(|v| v.name.as_str())
            .collect();
        let first = diagnostics
            .iter()
            .find(|d| d.level == Level::Error)
            .cloned();
        let mut e = Error::new(
            Code::ValidationFailed,
            format!(
                "{display} not written: {errors} error{} from {}{}",
                if errors == 1 { "" } else { "s" },
                failed.join(", "),
                if existed { "; the old file is intact" } else { "" }
            ),
            "fix the content at each diagnostic's span (see result.diagnostics), or pass --force to write it anyway",
        )
        .rejected()
        .with_file(&display);
        if let Some(span) = first.and_then(|d| d.span) {
            e = e.with_span(span);
        }
        return Ok(WriteOutcome {
            status: Status::Rejected,
            message: e.message.clone(),
            data: Some(data),
            diagnostics: warnings,
            error: Some(e),
        });
    }
    let verb = match (opts.dry_run, existed) {
        (true, true) => "would replace",
        (true, false) => "would create",
        (false, true) => "replaced",
        (false, false) => "created",
    };
    let message = format!(
        "{verb} {display} ({} byte{}, {} line{}; {})",
        data.bytes,
        if data.bytes == 1 { "" } else { "s" },
        data.lines,
        if data.lines == 1 { "" } else { "s" },
        summary(&data.validators)
    );
    Ok(WriteOutcome {
        status: Status::Ok,
        message,
        data: Some(data),
        diagnostics: warnings,
        error: None,
    })
}

/// `validated by tree-sitter, cargo check` / `no syntax validation (unknown language)`.
fn summary(validators: &[ValidatorReport]) -> String {
    let parts: Vec<String> = validators
        .iter()
        .map(|v| match v.verdict {
            Verdict::Passed => format!("{} passed", v.name),
            other => format!(
                "{} {}",
                v.name,
                serde_json::to_value(other)
                    .ok()
                    .and_then(|s| s.as_str().map(|s| s.replace('_', " ")))
                    .unwrap_or_default()
            ),
        })
        .collect();
    parts.join(", ")
}

/// The tree-sitter validator's report, from the syntax diagnostics the core computed.
fn syntax_report(
    language: Option<&'static Language>,
    core: &[DiagnosticPayload],
    started: Instant,
) -> ValidatorReport {
    let Some(language) = language else {
        let names: Vec<&str> = crate::lang::ALL.iter().map(|l| l.name).collect();
        let mut r = skipped(
            SYNTAX,
            "",
            "unknown language: written without syntax validation",
            &format!("pass --lang {} to validate the syntax", names.join("|")),
        );
        r.duration_ms = 0;
        return r;
    };
    let diagnostics: Vec<DiagnosticPayload> = core
        .iter()
        .filter(|d| d.code.as_deref() == Some(Code::SyntaxIntroduced.id()))
        .map(|d| {
            let mut d = d.clone();
            d.level = Level::Error;
            d.note = d
                .note
                .map(|n| n.trim_end_matches(" (written anyway: --force)").to_string());
            d.remediation = Some("fix the syntax at this position, or pass --force".into());
            d
        })
        .collect();
    // The grammar is compiled in; its ABI version is the one version the binary knows.
    let version = format!(
        "{} grammar, ABI {}",
        language.name,
        (language.grammar)().abi_version()
    );
    ValidatorReport::from_diagnostics(SYNTAX, Some(version), started, diagnostics)
}

/// A validator that did not apply: verdict `skipped`, one warning saying why.
fn skipped(name: &str, display: &str, why: &str, fix: &str) -> ValidatorReport {
    let mut e = Error::new(Code::CheckerSkipped, why, fix);
    if !display.is_empty() {
        e = e.with_file(display);
    }
    ValidatorReport::unavailable(name, None, Instant::now(), Verdict::Skipped, e, "write")
}

/// A project checker (`cargo check`, `tsc`) on the project of `abs` as it stands on disk;
/// with `focus`, a pass counts only if the checker compiled `abs`.
fn in_place(c: Checker, abs: &Path, focus: bool, timeout: Duration) -> ValidatorReport {
    match c {
        Checker::Cargo => {
            let copts = cargo::CargoOptions {
                timeout,
                ..Default::default()
            };
            match cargo::find_package(abs) {
                Some(pkg) => cargo::check(&pkg, focus.then_some(abs), &copts),
                None => cargo::check_file(abs, &copts),
            }
        }
        _ => match tsc::project(abs) {
            Some(dir) => tsc::check_project(&dir, focus.then_some(abs), timeout),
            None => tsc::check(abs, &display_path(abs), timeout),
        },
    }
}

/// The exact bytes the core will write (it may add the old file's BOM).
fn written_bytes(result: &MutationResult, opts: &WriteOptions) -> Vec<u8> {
    let bom = result.files.first().is_some_and(|f| f.bom);
    let bom_bytes = crate::edit::BOM;
    if bom && !opts.content.starts_with(bom_bytes) {
        let mut v = bom_bytes.to_vec();
        v.extend_from_slice(&opts.content);
        v
    } else {
        opts.content.clone()
    }
}

/// Refuses content that is not UTF-8, or an overwrite that shrinks the file drastically while
/// containing elision markers (`// ... existing code ...`): a model's abbreviated rewrite.
fn suspicious(opts: &WriteOptions, display: &str, exists: bool) -> Result<(), Error> {
    if let Err(e) = std::str::from_utf8(&opts.content) {
        let idx = LineIndex::new(&opts.content);
        let (line, col) = idx.position(e.valid_up_to());
        return Err(Error::new(
            Code::SuspiciousContent,
            format!("the content for {display} is not valid UTF-8 (first bad byte at line {line}, column {})", col + 1),
            "send UTF-8 text (re-encode it), or pass --force to write the bytes as they are",
        )
        .with_file(display)
        .rejected());
    }
    if !(opts.overwrite && exists) {
        return Ok(());
    }
    let Ok(old) = crate::fsio::read(&absolute(&opts.path), display) else {
        return Ok(()); // the core reports unreadable files
    };
    let new = &opts.content;
    let shrinks = new.len() * 2 < old.len() && old.len() >= 200;
    if !shrinks {
        return Ok(());
    }
    let text = String::from_utf8_lossy(new);
    let old_text = String::from_utf8_lossy(&old);
    if let Some((n, line)) = text
        .lines()
        .enumerate()
        .find(|(_, l)| is_elision(l) && !old_text.contains(l.trim()))
    {
        return Err(Error::new(
            Code::SuspiciousContent,
            format!(
                "the content for {display} looks abbreviated: it shrinks the file from {} to {} bytes and line {} reads {:?}",
                old.len(),
                new.len(),
                n + 1,
                line.trim()
            ),
            "send the complete file (not `... existing code ...` placeholders), use `llm patch` to change one symbol, or pass --force if this is really the whole file",
        )
        .with_file(display)
        .rejected());
    }
    Ok(())
}

/// A line that stands for omitted code: a comment (or bare line) saying the rest is unchanged.
pub fn is_elision(line: &str) -> bool {
    let l = line.trim().to_lowercase();
    let body = l
        .trim_start_matches(['/', '#', '*', '-', '<', '!', ';'])
        .trim_end_matches(['/', '*', '>', '-'])
        .trim();
    if body.is_empty() || body.len() > 80 {
        return false;
    }
    let was_comment = body.len() < l.len();
    let dots = body.starts_with("...")
        || body.starts_with('…')
        || body.ends_with("...")
        || body.ends_with('…');
    const PHRASES: &[&str] = &[
        "rest unchanged",
        "rest of the file",
        "rest of file",
        "rest of the code",
        "rest of code",
        "rest of the function",
        "rest of the class",
        "existing code",
        "unchanged code",
        "code unchanged",
        "remains unchanged",
        "remain unchanged",
        "same as before",
        "previous code",
        "other methods",
        "remaining code",
        "omitted for brevity",
        "truncated",
    ];
    let phrase = PHRASES.iter().any(|p| body.contains(p));
    (phrase && (was_comment || dots)) || (was_comment && (body == "..." || body == "…"))
}

/// Creates the missing directories (`missing`: shallowest first) beneath the root's handle;
/// returns the ones created, deepest first.
fn make_dirs(
    root: &crate::paths::Root,
    missing: &[PathBuf],
    display: &str,
) -> Result<Vec<PathBuf>, Error> {
    let Some(deepest) = missing.last() else {
        return Ok(Vec::new());
    };
    let mut created = root.create_dirs(deepest, display)?;
    created.reverse();
    Ok(created)
}

/// Removes directories this run created (deepest first), if they are still empty.
fn remove_dirs(opts: &WriteOptions, created: &[PathBuf]) {
    if let Ok(root) = crate::paths::Root::open(&opts.root, opts.allow_outside_root) {
        for d in created {
            root.remove_empty_dir(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elision_markers() {
        for yes in [
            "// ... existing code ...",
            "    # ... rest unchanged ...",
            "/* rest of the file unchanged */",
            "// existing code",
            "<!-- rest of file -->",
            "    // ...",
            "# … remaining code …",
        ] {
            assert!(is_elision(yes), "{yes}");
        }
        for no in [
            "let x = 1;",
            "print('...')",
            "// TODO: handle the rest",
            "...",
            "x = y  # keep existing code paths fast and simple to read later on",
        ] {
            assert!(!is_elision(no), "{no}");
        }
    }

    #[test]
    fn cargo_judgement_counts_every_error_in_our_file_and_new_ones_elsewhere() {
        let d = |file: &str, msg: &str| DiagnosticPayload {
            tool: "cargo".into(),
            level: Level::Error,
            code: Some("E0308".into()),
            message: msg.into(),
            file: Some(file.into()),
            span: None,
            note: None,
            remediation: None,
        };
        let t = Instant::now();
        let before = ValidatorReport::from_diagnostics(
            "cargo check",
            None,
            t,
            vec![d("src/a.rs", "old"), d("src/w.rs", "x")],
        );
        let after = ValidatorReport::from_diagnostics(
            "cargo check",
            None,
            t,
            vec![d("src/a.rs", "old"), d("src/w.rs", "x")],
        );
        let j = after.judged_for(&before, "src/w.rs");
        assert_eq!(j.verdict, Verdict::Failed);
        assert_eq!(j.diagnostics.len(), 1);
        assert_eq!(j.diagnostics[0].file.as_deref(), Some("src/w.rs"));
        let after =
            ValidatorReport::from_diagnostics("cargo check", None, t, vec![d("src/a.rs", "old")]);
        assert_eq!(
            after.judged_for(&before, "src/w.rs").verdict,
            Verdict::Passed
        );
    }
}
