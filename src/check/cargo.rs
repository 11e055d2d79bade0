//! `cargo check` as a validator: find the Cargo package a file belongs to, run
//! `cargo check --message-format=json` on it, and turn rustc's messages into our diagnostics
//! (spans via [`LineIndex`], paths via [`display_path`]). Called by `write --check` and
//! `patch --check` once the new text is on disk (they place, check, and restore under a lock).

use super::{not_installed, run, tail, Ran, ValidatorReport, Verdict};
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::span::{LineIndex, Units};
use crate::walk::{display_path, normalize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The validator's name in `validators[]`.
pub const NAME: &str = "cargo check";

/// How to run `cargo check`.
#[derive(Debug, Clone)]
pub struct CargoOptions {
    /// The cargo program (default `cargo` from PATH).
    pub program: OsString,
    /// Longest the check may run before it is stopped (default 300 s: a cold build is slow).
    pub timeout: Duration,
    /// Check tests, benches and examples too (`--all-targets`, the default), so that a
    /// `#[cfg(test)]` module or a file under `tests/` is compiled.
    pub all_targets: bool,
}

impl Default for CargoOptions {
    fn default() -> Self {
        CargoOptions {
            program: "cargo".into(),
            timeout: Duration::from_secs(300),
            all_targets: true,
        }
    }
}

/// A Cargo package: the nearest `Cargo.toml` above a file that has a `[package]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// `package.name`, when the manifest spells it plainly.
    pub name: Option<String>,
    /// Absolute path of its `Cargo.toml`.
    pub manifest: PathBuf,
    /// The directory holding the manifest.
    pub dir: PathBuf,
    /// The workspace root (where rustc runs, so rustc's relative paths start there): the nearest
    /// directory at or above `dir` whose manifest has `[workspace]`, else `dir`.
    pub workspace_root: PathBuf,
}

/// The Cargo package `file` belongs to (the file itself need not exist yet): the nearest
/// `Cargo.toml` upward that declares `[package]`. Virtual workspace manifests are passed over.
pub fn find_package(file: &Path) -> Option<Package> {
    let abs = absolute(file);
    let mut found: Option<Package> = None;
    for dir in abs.ancestors().skip(1) {
        let manifest = dir.join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let m = Manifest::scan(&text);
        match &mut found {
            None if m.package => {
                found = Some(Package {
                    name: m.name,
                    manifest,
                    dir: dir.to_path_buf(),
                    workspace_root: dir.to_path_buf(),
                });
                if m.workspace {
                    break;
                }
            }
            Some(pkg) if m.workspace => {
                pkg.workspace_root = dir.to_path_buf();
                break;
            }
            _ => {}
        }
    }
    found
}

/// Checks the package `file` belongs to, as the files stand on disk. A file outside any Cargo
/// package gives verdict `skipped`.
pub fn check_file(file: &Path, opts: &CargoOptions) -> ValidatorReport {
    let started = Instant::now();
    match find_package(file) {
        Some(pkg) => check(&pkg, Some(file), opts),
        None => {
            let shown = display_path(file);
            let err = Error::new(
                Code::CheckerSkipped,
                format!("{shown} is not inside a Cargo package; `cargo check` was not run"),
                "put the file in a package (a directory with a Cargo.toml that has [package]), or drop --check",
            )
            .with_file(shown);
            ValidatorReport::unavailable(NAME, None, started, Verdict::Skipped, err, "cargo")
        }
    }
}

/// Runs `cargo check --message-format=json` on `pkg` and reports rustc's errors and warnings.
/// With `focus` (the file being written), a check that never compiled that file (no `mod`
/// reaches it, or the package did not build) adds a `CHECK_E004` warning saying so, and the
/// verdict is `skipped`: a pass only counts for files rustc compiled.
pub fn check(pkg: &Package, focus: Option<&Path>, opts: &CargoOptions) -> ValidatorReport {
    let started = Instant::now();
    let mut cmd = Command::new(&opts.program);
    cmd.args(["check", "--message-format=json", "--quiet"])
        .arg("--manifest-path")
        .arg(&pkg.manifest)
        .current_dir(&pkg.dir)
        .env("CARGO_TERM_COLOR", "never");
    if opts.all_targets {
        cmd.arg("--all-targets");
    }
    let program = opts.program.to_string_lossy().into_owned();
    let (status, stdout, stderr) = match run(&mut cmd, None, opts.timeout) {
        Ran::Done {
            status,
            stdout,
            stderr,
        } => (status, stdout, stderr),
        Ran::NotFound => {
            let err = not_installed(
                &program,
                "rustup (https://rustup.rs: `curl --proto '=https' -sSf https://sh.rustup.rs | sh`)",
            );
            return ValidatorReport::unavailable(
                NAME,
                None,
                started,
                Verdict::NotAvailable,
                err,
                "cargo",
            );
        }
        Ran::TimedOut { stderr } => {
            let err = Error::new(
                Code::CheckerTimedOut,
                format!(
                    "`cargo check` did not finish within {} s and was stopped",
                    opts.timeout.as_secs_f64()
                ),
                "warm the build first (`cargo check` in the package), or raise the check timeout",
            )
            .with_note(tail(&stderr, 400));
            return ValidatorReport::unavailable(
                NAME,
                None,
                started,
                Verdict::TimedOut,
                err,
                "cargo",
            );
        }
        Ran::Failed(e) => {
            let err = Error::new(
                Code::CheckerNotAvailable,
                format!("`{program}` could not be started: {e}"),
                "check that cargo is installed and executable (rustup), or drop --check",
            );
            return ValidatorReport::unavailable(
                NAME,
                None,
                started,
                Verdict::NotAvailable,
                err,
                "cargo",
            );
        }
    };
    let version = version(&opts.program);
    let parsed = parse_messages(&stdout, pkg);
    let mut diagnostics = parsed.diagnostics;
    let has_errors = diagnostics.iter().any(|d| d.level == Level::Error);
    if !status.success() && !has_errors {
        // cargo failed before rustc said anything: a broken manifest, a missing dependency…
        let err = Error::new(
            Code::CheckerFailed,
            format!(
                "`cargo check` failed without compiler errors (exit {})",
                status.code().map_or("signal".to_string(), |c| c.to_string())
            ),
            format!(
                "run `cargo check --manifest-path {}` to see the problem; fix the package or drop --check",
                pkg.manifest.display()
            ),
        )
        .with_note(tail(&stderr, 1500))
        .with_file(display_path(&pkg.manifest));
        let mut report =
            ValidatorReport::unavailable(NAME, version, started, Verdict::Error, err, "cargo");
        report.diagnostics.extend(diagnostics);
        return report;
    }
    if let Some(focus) = focus {
        // A pass only counts for a file rustc compiled: one some target's dep-info lists, or
        // one rustc spoke about.
        let want = absolute(focus);
        let spoke = diagnostics
            .iter()
            .filter_map(|d| d.file.as_deref())
            .any(|f| resolve(pkg, f).is_some_and(|p| p == want));
        if !spoke && !compiled(&parsed.dep_info, &want, pkg) {
            let shown = display_path(focus);
            let message = if status.success() {
                format!("{shown} is not compiled by any target of the package, so `cargo check` did not examine it")
            } else {
                format!("the package did not build, and nothing cargo reported shows that it compiled {shown}; `cargo check` did not examine it")
            };
            let mut d = Error::new(
                Code::CheckerSkipped,
                message,
                "declare it with `mod <name>;` in its parent module (or make it a target), fix the package's other errors, then check again",
            )
            .with_file(shown)
            .diagnostic(Level::Warning);
            d.tool = "cargo".into();
            diagnostics.push(d);
        }
    }
    ValidatorReport::from_diagnostics(NAME, version, started, diagnostics)
}

/// `cargo --version`, trimmed (`cargo 1.85.0 (d73d2caf9 2024-12-31)`).
fn version(program: &OsString) -> Option<String> {
    let out = Command::new(program).arg("--version").output().ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// The plain facts `find_package` needs from a manifest, read line by line (table headers and
/// `name = "…"` under `[package]`): enough for locating packages, without a TOML parser.
struct Manifest {
    package: bool,
    workspace: bool,
    name: Option<String>,
}

impl Manifest {
    fn scan(text: &str) -> Manifest {
        let mut m = Manifest {
            package: false,
            workspace: false,
            name: None,
        };
        let mut table = String::new();
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if let Some(header) = line.strip_prefix('[') {
                table = header.trim_end_matches(']').trim().to_string();
                m.package |= table == "package";
                m.workspace |= table == "workspace";
            } else if table == "package" && m.name.is_none() {
                if let Some((key, value)) = line.split_once('=') {
                    if key.trim() == "name" {
                        m.name = Some(value.trim().trim_matches('"').to_string());
                    }
                }
            }
        }
        m
    }
}

struct Parsed {
    diagnostics: Vec<DiagnosticPayload>,
    /// Dep-info files of the package's own compiled targets.
    dep_info: Vec<PathBuf>,
}

/// Turns cargo's JSON lines into diagnostics (deduplicated: with `--all-targets` a library is
/// compiled twice and says everything twice) and collects the package's dep-info files.
fn parse_messages(stdout: &[u8], pkg: &Package) -> Parsed {
    let mut files = FileCache::default();
    let mut seen = HashSet::new();
    let mut out = Parsed {
        diagnostics: Vec::new(),
        dep_info: Vec::new(),
    };
    for line in stdout.split(|&b| b == b'\n') {
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        match v["reason"].as_str() {
            Some("compiler-message") => {
                if let Some(d) = diagnostic(&v["message"], pkg, &mut files) {
                    let key = serde_json::to_string(&d).unwrap_or_default();
                    if seen.insert(key) {
                        out.diagnostics.push(d);
                    }
                }
            }
            Some("compiler-artifact")
                if v["manifest_path"].as_str().map(Path::new) == Some(&pkg.manifest) =>
            {
                let target = v["target"]["name"].as_str().unwrap_or("");
                for f in v["filenames"].as_array().into_iter().flatten() {
                    if let Some(f) = f.as_str() {
                        out.dep_info.extend(dep_info_of(f, target));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The dep-info files of an artifact: `…/deps/libname-hash.rmeta` → `…/deps/name-hash.d`; for
/// an artifact named otherwise (a build script's `…/build/pkg-hash/build-script-build`, a link
/// to `build_script_build-hash`), the `.d` files beside it named after the target.
fn dep_info_of(artifact: &str, target: &str) -> Vec<PathBuf> {
    let p = Path::new(artifact);
    let Some(stem) = p.file_stem().and_then(|s| s.to_str()) else {
        return Vec::new();
    };
    let stem = stem.strip_prefix("lib").unwrap_or(stem);
    let direct = p.with_file_name(format!("{stem}.d"));
    if direct.is_file() {
        return vec![direct];
    }
    let prefix = format!("{}-", target.replace('-', "_"));
    let Some(dir) = p.parent().and_then(|d| std::fs::read_dir(d).ok()) else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|f| {
            f.extension().is_some_and(|e| e == "d")
                && f.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix))
        })
        .collect()
}

/// Whether any dep-info file lists `want` (absolute) among the sources it was built from. An
/// unreadable dep-info file confirms nothing.
fn compiled(dep_info: &[PathBuf], want: &Path, pkg: &Package) -> bool {
    dep_info.iter().any(|d| {
        let Ok(text) = std::fs::read_to_string(d) else {
            return false;
        };
        text.lines().any(|line| {
            let Some((_, deps)) = line.split_once(": ") else {
                return false;
            };
            deps.replace("\\ ", "\u{0}")
                .split_whitespace()
                .map(|t| t.replace('\u{0}', " "))
                .any(|t| resolve(pkg, &t).is_some_and(|p| p == *want))
        })
    })
}

/// One rustc message → one diagnostic at its primary span. Summary lines ("aborting due to…",
/// "N warnings emitted") and failure notes are dropped.
fn diagnostic(msg: &Value, pkg: &Package, files: &mut FileCache) -> Option<DiagnosticPayload> {
    let message = msg["message"].as_str()?.to_string();
    let level = match msg["level"].as_str()? {
        "error" | "error: internal compiler error" => Level::Error,
        "warning" => Level::Warning,
        "note" | "help" => Level::Note,
        _ => return None, // failure-note
    };
    let spans = msg["spans"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if spans.is_empty()
        && (message.starts_with("aborting due to")
            || message.ends_with("warning emitted")
            || message.ends_with("warnings emitted"))
    {
        return None;
    }
    let code = msg["code"]["code"].as_str().map(str::to_string);
    let primary = spans
        .iter()
        .find(|s| s["is_primary"].as_bool() == Some(true))
        .or(spans.first());
    let mut file = None;
    let mut span = None;
    let mut notes = Vec::new();
    if let Some(p) = primary {
        if let Some(path) = p["file_name"].as_str().and_then(|f| resolve(pkg, f)) {
            let shown = display_path(&path);
            span = files.span(&path, &shown, p);
            file = Some(shown);
        } else if let Some(f) = p["file_name"].as_str() {
            file = Some(f.to_string());
        }
        if let Some(label) = p["label"].as_str() {
            notes.push(label.to_string());
        }
    }
    let mut fixes = Vec::new();
    for child in msg["children"].as_array().into_iter().flatten() {
        let (Some(lvl), Some(text)) = (child["level"].as_str(), child["message"].as_str()) else {
            continue;
        };
        let replacement = child["spans"]
            .as_array()
            .into_iter()
            .flatten()
            .find_map(|s| s["suggested_replacement"].as_str());
        match (lvl, replacement) {
            ("help", Some(r)) if !r.is_empty() => fixes.push(format!("{text}: `{}`", r.trim())),
            ("help", _) => fixes.push(text.to_string()),
            _ => notes.push(format!("{lvl}: {text}")),
        }
    }
    let remediation = if !fixes.is_empty() {
        fixes.join("; ")
    } else if let Some(c) = code.as_deref().filter(|c| c.starts_with('E')) {
        format!("fix the code at the span; `rustc --explain {c}` explains the error")
    } else {
        "fix the code at the span".to_string()
    };
    Some(DiagnosticPayload {
        tool: "cargo".into(),
        level,
        code,
        message,
        file,
        span,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        remediation: Some(remediation),
    })
}

/// rustc's file names are relative to the workspace root (where it runs) or absolute.
fn resolve(pkg: &Package, name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_absolute() {
        return Some(normalize(p));
    }
    [&pkg.workspace_root, &pkg.dir]
        .into_iter()
        .map(|base| normalize(&base.join(p)))
        .find(|c| c.exists())
}

/// Files read once each, with their line index, for mapping rustc's spans.
#[derive(Default)]
struct FileCache {
    files: HashMap<PathBuf, Option<(Vec<u8>, LineIndex)>>,
}

impl FileCache {
    /// Our span for a rustc span. rustc's byte offsets are into the file as stored (BOM and
    /// `\r\n` included); they are used when they agree with its line numbers, else its 1-based
    /// character columns are converted.
    fn span(&mut self, path: &Path, shown: &str, s: &Value) -> Option<crate::span::Span> {
        let (bytes, index) = self
            .files
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                std::fs::read(path).ok().map(|b| {
                    let i = LineIndex::new(&b);
                    (b, i)
                })
            })
            .as_ref()?;
        let num = |k: &str| s[k].as_u64().map(|n| n as usize);
        let (line_start, line_end) = (num("line_start")?, num("line_end")?);
        let by_bytes = match (num("byte_start"), num("byte_end")) {
            (Some(a), Some(b))
                if a <= b
                    && b <= bytes.len()
                    && index.position(a).0 == line_start
                    && index.position(b).0 == line_end =>
            {
                Some(a..b)
            }
            _ => None,
        };
        let range = by_bytes.unwrap_or_else(|| {
            let col = |k: &str| num(k).unwrap_or(1).saturating_sub(1);
            let a = index.offset_units(bytes, line_start - 1, col("column_start"), Units::Utf32);
            let b = index.offset_units(bytes, line_end - 1, col("column_end"), Units::Utf32);
            a..b.max(a)
        });
        Some(index.span(shown, range))
    }
}

/// `path` made absolute against the current directory and normalised.
fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&std::env::current_dir().unwrap_or_default().join(path))
    }
}

#[cfg(test)]
#[path = "cargo_tests.rs"]
mod tests;
