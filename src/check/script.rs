//! One-file syntax checkers run on a temporary copy of the text: `bash -n`, `ruby -wc`,
//! `php -l`, `node --check` (as CommonJS or as an ES module, the way Node would load the file)
//! and `gofmt -e`. Each tool's messages (`FILE: line N: …`, `FILE:N: …` with a caret line,
//! `… in FILE on line N`, V8's caret block, `FILE:L:C: …`) become diagnostics with spans.

use super::{dedup, located, upward, At, Checker, Output, Tool, ValidatorReport};
use crate::envelope::{DiagnosticPayload, Level};
use crate::span::Units;
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Validator names.
pub const BASH: &str = "bash -n";
pub const RUBY: &str = "ruby -wc";
pub const PHP: &str = "php -l";
pub const NODE: &str = "node --check";
pub const GOFMT: &str = "gofmt -e";

/// Checks `text` (the new content of `path`, reported as `display`) with the tool of `which`.
pub fn check(
    which: Checker,
    text: &[u8],
    path: &Path,
    display: &str,
    timeout: Duration,
) -> ValidatorReport {
    let program = match which {
        Checker::Bash => "bash",
        Checker::Ruby => "ruby",
        Checker::Php => "php",
        Checker::Node => "node",
        _ => "gofmt",
    };
    check_with(which, OsStr::new(program), text, path, display, timeout)
}

/// [`check`] with the program named (tests use a missing one).
pub(crate) fn check_with(
    which: Checker,
    program: &OsStr,
    text: &[u8],
    path: &Path,
    display: &str,
    timeout: Duration,
) -> ValidatorReport {
    let started = Instant::now();
    let (name, tool, install, version_args): (_, _, _, &[&str]) = match which {
        Checker::Bash => (BASH, "bash", "`apt-get install bash`", &["--version"]),
        Checker::Ruby => (
            RUBY,
            "ruby",
            "`apt-get install ruby` (or https://www.ruby-lang.org)",
            &["--version"],
        ),
        Checker::Php => (
            PHP,
            "php",
            "`apt-get install php-cli` (or https://www.php.net)",
            &["-n", "-v"],
        ),
        Checker::Node => (
            NODE,
            "node",
            "`apt-get install nodejs` (or https://nodejs.org)",
            &["--version"],
        ),
        _ => (
            GOFMT,
            "gofmt",
            "`apt-get install golang-go` (gofmt comes with Go: https://go.dev/dl)",
            &[],
        ),
    };
    let tool = Tool {
        name,
        tool,
        program,
        install,
        timeout,
    };
    if which == Checker::Bash && zsh(text) {
        return tool.skipped(
            display,
            format!("{display} is a zsh script; `bash -n` cannot check zsh syntax, so nothing was checked"),
            "check it with `zsh -n` yourself, or drop --check",
            started,
        );
    }
    if which == Checker::Node && path.extension() == Some(OsStr::new("jsx")) {
        return tool.skipped(
            display,
            format!("{display} is JSX, which `node --check` cannot parse; nothing was checked"),
            "check it with a language server (--lsp 'typescript-language-server --stdio') or drop --check",
            started,
        );
    }
    let modes: Vec<&str> = match which {
        Checker::Node => node_modes(path),
        _ => vec![""],
    };
    let mut runs = Vec::new();
    for ext in modes {
        let file_name = copy_name(path, ext);
        let (dir, _file) = match tool.copy(text, &file_name, started) {
            Ok(t) => t,
            Err(report) => return report,
        };
        let mut cmd = Command::new(program);
        cmd.current_dir(dir.path());
        match which {
            Checker::Bash => cmd.arg("-n").arg(&file_name),
            Checker::Ruby => cmd.arg("-wc").arg(&file_name),
            Checker::Php => cmd
                .args(["-n", "-d", "display_errors=stderr", "-d", "log_errors=0"])
                .args(["-d", "error_reporting=-1", "-l"])
                .arg(&file_name),
            Checker::Node => cmd.arg("--check").arg(&file_name),
            _ => cmd.args(["-e", "-l"]).arg(&file_name),
        };
        let out = match tool.run(&mut cmd, started) {
            Ok(out) => out,
            Err(report) => return report,
        };
        let name_str = file_name.to_string_lossy().into_owned();
        let abs = dir.path().join(&file_name).to_string_lossy().into_owned();
        let mut diagnostics = match which {
            Checker::Bash => parse_bash(&out, &name_str, text, display),
            Checker::Ruby => parse_ruby(&out, &name_str, text, display),
            Checker::Php => parse_php(&out, &name_str, text, display),
            Checker::Node => parse_node(&out, &abs, text, display),
            _ => parse_gofmt(&out, &name_str, text, display),
        };
        dedup(&mut diagnostics);
        let passed = out.status.success() && !diagnostics.iter().any(|d| d.level == Level::Error);
        runs.push((out, diagnostics));
        if passed {
            break;
        }
    }
    let version = (!version_args.is_empty())
        .then(|| tool.version(version_args))
        .flatten();
    // Node: the first mode that passes wins; when both fail, the module's errors are reported
    // for a text that uses import/export, else the script's.
    let pick = if runs.len() == 2 && runs[1].0.status.success() || runs.len() == 2 && esm(text) {
        1
    } else {
        0
    };
    let (out, diagnostics) = runs.swap_remove(pick.min(runs.len() - 1));
    tool.report(&out, version, started, diagnostics)
}

/// The copy's file name: the file's own, with `ext` (a Node module type) when given, never
/// starting with `-` (which the tools would read as an option).
fn copy_name(path: &Path, ext: &str) -> OsString {
    let mut name = path
        .file_name()
        .map_or_else(|| OsString::from("file"), OsStr::to_os_string);
    if name.to_string_lossy().starts_with('-') {
        let mut safe = OsString::from("_");
        safe.push(&name);
        name = safe;
    }
    if ext.is_empty() {
        return name;
    }
    Path::new(&name).with_extension(ext).into_os_string()
}

/// The module types to try for a JavaScript file, in order: `.mjs`/`.cjs` are what they say; a
/// `.js` file is what its nearest `package.json`'s `"type"` says (`module`, or `commonjs`, which
/// Node loads as a script whatever the syntax), else tried as a script first, then as a module
/// (Node 20 would otherwise guess, and pass broken modules).
fn node_modes(path: &Path) -> Vec<&'static str> {
    match path.extension().and_then(OsStr::to_str) {
        Some("mjs") => return vec!["mjs"],
        Some("cjs") => return vec!["cjs"],
        _ => {}
    }
    let declared = path
        .parent()
        .and_then(|d| upward(d, "package.json"))
        .and_then(|d| std::fs::read_to_string(d.join("package.json")).ok())
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["type"].as_str().map(str::to_string));
    match declared.as_deref() {
        Some("module") => vec!["mjs"],
        Some("commonjs") => vec!["cjs"],
        _ => vec!["cjs", "mjs"],
    }
}

/// Whether the text has a line starting with `import` or `export` (an ES module).
fn esm(text: &[u8]) -> bool {
    String::from_utf8_lossy(text).lines().any(|l| {
        let l = l.trim_start();
        (l.starts_with("import") || l.starts_with("export"))
            && l[6..].starts_with([' ', '{', '*', '(', '.'])
    })
}

/// Whether the text is a zsh script (`#!` line naming zsh).
fn zsh(text: &[u8]) -> bool {
    let first = text.split(|&b| b == b'\n').next().unwrap_or(b"");
    first.starts_with(b"#!") && String::from_utf8_lossy(first).contains("zsh")
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `NAME: line N: message`; bash repeats the offending line as `` NAME: line N: `…' `` (a note).
fn parse_bash(out: &Output, name: &str, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let mut diags: Vec<DiagnosticPayload> = Vec::new();
    let prefix = format!("{name}: line ");
    for l in lines(&out.stderr) {
        let Some(rest) = l.strip_prefix(&prefix) else {
            continue;
        };
        let Some((n, msg)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(line) = n.parse::<usize>() else {
            continue;
        };
        if msg.starts_with('`') && msg.ends_with('\'') {
            if let Some(last) = diags.last_mut() {
                last.note = Some(format!("at {msg}"));
                continue;
            }
        }
        let level = if msg.starts_with("warning:") {
            Level::Warning
        } else {
            Level::Error
        };
        diags.push(located(
            "bash",
            level,
            None,
            msg.to_string(),
            text,
            display,
            At { line, col: None },
        ));
    }
    diags
}

/// `NAME:N: message`, then possibly the source line and a caret line under it.
fn parse_ruby(out: &Output, name: &str, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let mut diags = Vec::new();
    let err = lines(&out.stderr);
    let prefix = format!("{name}:");
    let src = lines(text);
    let mut i = 0;
    while i < err.len() {
        let l = &err[i];
        i += 1;
        let Some((n, msg)) = l.strip_prefix(&prefix).and_then(|r| r.split_once(": ")) else {
            continue;
        };
        let Ok(line) = n.parse::<usize>() else {
            continue;
        };
        let (level, msg) = match msg.strip_prefix("warning: ") {
            Some(w) => (Level::Warning, w),
            None => (Level::Error, msg),
        };
        // A caret block: the line as in the file, then `^` (and `~`) under the culprit.
        let mut col = None;
        if let (Some(shown), Some(caret)) = (err.get(i), err.get(i + 1)) {
            let is_caret = caret.trim_start().starts_with('^')
                && caret.trim().chars().all(|c| c == '^' || c == '~');
            if is_caret
                && src
                    .get(line - 1)
                    .is_some_and(|s| s.trim_end_matches('\r') == shown)
            {
                // Ruby pads the caret by bytes of the line.
                let at = caret.chars().take_while(|&c| c != '^').count();
                col = Some((at + 1, Units::Utf8));
                i += 2;
            }
        }
        diags.push(located(
            "ruby",
            level,
            None,
            msg.to_string(),
            text,
            display,
            At { line, col },
        ));
    }
    diags
}

/// `PHP Parse error:  message in NAME on line N` (and the same for fatal errors, warnings and
/// deprecations `-l` reports).
fn parse_php(out: &Output, name: &str, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let mut diags = Vec::new();
    let tail = format!(" in {name} on line ");
    for l in lines(&out.stderr).into_iter().chain(lines(&out.stdout)) {
        let l = l.strip_prefix("PHP ").unwrap_or(&l);
        let Some((kind, rest)) = l.split_once(':') else {
            continue;
        };
        let level = match kind {
            "Parse error" | "Fatal error" => Level::Error,
            "Warning" | "Deprecated" | "Notice" => Level::Warning,
            _ => continue,
        };
        let Some((msg, n)) = rest.rsplit_once(&tail) else {
            continue;
        };
        let Ok(line) = n.trim().parse::<usize>() else {
            continue;
        };
        let code = Some(kind.to_string());
        diags.push(located(
            "php",
            level,
            code,
            msg.trim().to_string(),
            text,
            display,
            At { line, col: None },
        ));
    }
    diags
}

/// V8's block: `PATH:N`, the source line, a caret line, a blank line, `SyntaxError: message`.
fn parse_node(out: &Output, abs: &str, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let err = lines(&out.stderr);
    let prefix = format!("{abs}:");
    let Some(at) = err.iter().position(|l| {
        l.strip_prefix(&prefix)
            .is_some_and(|n| n.parse::<usize>().is_ok())
    }) else {
        return Vec::new();
    };
    let line: usize = err[at][prefix.len()..].parse().unwrap_or(1);
    let col = err
        .get(at + 2)
        .filter(|c| c.trim_start().starts_with('^'))
        .map(|c| {
            (
                c.chars().take_while(|&ch| ch != '^').count() + 1,
                Units::Utf16,
            )
        });
    let Some((kind, msg)) = err[at..].iter().find_map(|l| {
        let (k, m) = l.split_once(": ")?;
        (k.ends_with("Error") && !k.contains(' ')).then(|| (k.to_string(), m.to_string()))
    }) else {
        return Vec::new();
    };
    vec![located(
        "node",
        Level::Error,
        Some(kind),
        msg,
        text,
        display,
        At { line, col },
    )]
}

/// `NAME:L:C: message` (byte columns), repeats removed by the caller.
fn parse_gofmt(out: &Output, name: &str, text: &[u8], display: &str) -> Vec<DiagnosticPayload> {
    let prefix = format!("{name}:");
    lines(&out.stderr)
        .iter()
        .filter_map(|l| {
            let mut parts = l.strip_prefix(&prefix)?.splitn(3, ':');
            let line = parts.next()?.parse::<usize>().ok()?;
            let col = parts.next()?.parse::<usize>().ok()?;
            let msg = parts.next()?.trim().to_string();
            Some(located(
                "gofmt",
                Level::Error,
                None,
                msg,
                text,
                display,
                At {
                    line,
                    col: Some((col, Units::Utf8)),
                },
            ))
        })
        .collect()
}

#[cfg(test)]
#[path = "script_tests.rs"]
mod tests;
