//! The flags of the commands that edit files — `llm transform`, `llm write`, `llm patch` —
//! and the mutation flags they share (clap), with how they become the commands' options.

use super::secs;
use crate::error::{Code, Error};
use clap::Args;
use std::path::PathBuf;

/// `llm transform [FILE --old TEXT --new TEXT] [OPTIONS]`
#[derive(Debug, Args)]
#[command(after_help = "Input (one of):\n  \
an edit request on stdin or --edits FILE: {\"file_path\", \"expected_checksum\", \"edits\": \
[{\"byte_start\", \"byte_end\", \"new_content\"}]} (one object, an array, or JSON lines; several files \
are all or nothing)\n  \
FILE --old TEXT --new TEXT: exact text, which must occur once (or --all)\n  \
the --json output of `llm search -r TEXT`, or of `llm ast`/`llm find` with --replace TEXT\n\n\
JSON: result.files[] each have before_checksum, after_checksum, edits[] (span in the new file, \
old_span), lines_added/lines_removed, total_byte_shift; result.source and result.matched_with say \
how the edits were found.\n\nExamples:\n  \
llm transform src/lib.rs --old 'fn old()' --new 'fn new()'\n  \
llm search -r 'new_$1' 'old_(\\w+)' --json | llm transform --dry-run\n  \
llm transform --edits edits.json --json")]
pub struct TransformArgs {
    /// The file to edit with --old/--new.
    #[arg(value_name = "FILE", requires = "old_text")]
    pub file: Option<PathBuf>,
    /// Exact text to replace (must occur exactly once unless --all).
    #[arg(
        long = "old",
        value_name = "TEXT",
        requires = "file",
        group = "old_text"
    )]
    pub old: Option<std::ffi::OsString>,
    /// Read the text to replace from a file.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "old",
        requires = "file",
        group = "old_text"
    )]
    pub old_file: Option<PathBuf>,
    /// Text that replaces --old (`''` deletes it).
    #[arg(
        long = "new",
        value_name = "TEXT",
        requires = "old_text",
        group = "new_text"
    )]
    pub new: Option<std::ffi::OsString>,
    /// Read the replacement text from a file.
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "new",
        requires = "old_text",
        group = "new_text"
    )]
    pub new_file: Option<PathBuf>,
    /// Replace every occurrence of --old (otherwise several occurrences are rejected).
    #[arg(long, requires = "old_text")]
    pub all: bool,
    /// Read the edit request (or piped query output) from this file instead of stdin (`-` = stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    pub edits: Option<PathBuf>,
    /// For piped `llm ast`/`llm find` output: replace each match's span with TEXT (`$name`
    /// expands a capture, `$$` is `$`). For `llm search` output: used literally instead of -r.
    #[arg(long, value_name = "TEXT", conflicts_with = "file")]
    pub replace: Option<String>,
    /// Refuse (rejected) unless the file's SHA-256 is this (a checksum from an earlier read).
    #[arg(long, value_name = "SHA256")]
    pub expected_checksum: Option<String>,
    #[command(flatten)]
    pub mutation: MutationArgs,
}

/// Options every mutation (transform, patch, write) shares.
#[derive(Debug, Args, Clone)]
pub struct MutationArgs {
    /// Compute everything and show a unified diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write even when the change introduces syntax (or Python indentation) errors, reported as
    /// warnings, or the target is read-only (its mode is kept).
    #[arg(long)]
    pub force: bool,
    /// Workspace root: nothing is written outside it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Allow writing outside --root (and through symlinks that leave it).
    #[arg(long)]
    pub allow_outside_root: bool,
    /// Keep inserted text byte for byte: do not convert its `\n` to `\r\n` in CRLF files.
    #[arg(long)]
    pub raw_line_endings: bool,
}

impl MutationArgs {
    /// The mutation core's options for `tool`.
    pub fn options(&self, tool: &'static str) -> crate::mutation::MutationOptions {
        crate::mutation::MutationOptions {
            root: self.root.clone(),
            allow_outside_root: self.allow_outside_root,
            dry_run: self.dry_run,
            force: self.force,
            match_line_endings: !self.raw_line_endings,
            tool,
        }
    }
}

impl TransformArgs {
    /// Turns the flags into the plain options `cmd::transform` runs on; `stdin` supplies the
    /// JSON input when neither exact text nor `--edits FILE` is given.
    pub fn into_options(
        self,
        stdin: impl FnOnce() -> Result<Vec<u8>, Error>,
    ) -> Result<crate::cmd::transform::TransformOptions, Error> {
        use crate::cmd::transform::Input;
        let read_arg = |p: &PathBuf, flag: &str| {
            crate::fsio::read_input(p, &format!("{flag} {}", p.display())).map_err(|e| {
                Error::new(e.code, e.message, format!("pass a readable file to {flag}"))
            })
        };
        let input = if let Some(file) = self.file {
            let old = match (self.old, &self.old_file) {
                (Some(t), _) => os_bytes(&t, "--old")?,
                (None, Some(p)) => read_arg(p, "--old-file")?,
                (None, None) => unreachable!("clap requires --old or --old-file"),
            };
            let new = match (self.new, &self.new_file) {
                (Some(t), _) => os_bytes(&t, "--new")?,
                (None, Some(p)) => read_arg(p, "--new-file")?,
                (None, None) => {
                    return Err(Error::new(
                        Code::TransformArgs,
                        "--old needs --new (or --new-file)",
                        "pass --new TEXT (`--new ''` deletes the old text)",
                    ))
                }
            };
            Input::Exact {
                file,
                old,
                new,
                all: self.all,
            }
        } else {
            match self.edits.as_ref().filter(|p| p.as_os_str() != "-") {
                Some(p) => Input::Json {
                    text: read_arg(p, "--edits")?,
                    origin: p.display().to_string(),
                },
                None => Input::Json {
                    text: stdin()?,
                    origin: "stdin".to_string(),
                },
            }
        };
        Ok(crate::cmd::transform::TransformOptions {
            mutation: self.mutation.options("transform"),
            input,
            expected_checksum: self.expected_checksum,
            replace: self.replace,
        })
    }
}

/// The bytes of an argument given as text (`--content`, `--old`, `--new`): on Unix any bytes
/// are file content; elsewhere the argument must be valid Unicode.
fn os_bytes(arg: &std::ffi::OsStr, flag: &str) -> Result<Vec<u8>, Error> {
    #[cfg(unix)]
    {
        let _ = flag;
        use std::os::unix::ffi::OsStrExt;
        Ok(arg.as_bytes().to_vec())
    }
    #[cfg(not(unix))]
    arg.to_str().map(|s| s.as_bytes().to_vec()).ok_or_else(|| {
        Error::new(
            Code::UsageInvalid,
            format!("{flag} is not valid Unicode"),
            format!("pass the text in a file with {flag}-file"),
        )
    })
}

/// `llm write PATH [--content TEXT | --content-file FILE | stdin]`
#[derive(Debug, Args)]
#[command(
    after_help = "Validators run in order: tree-sitter syntax; with --check, the language's checker: \
`cargo check` (Rust file in a Cargo package: placed, checked, removed/restored if rejected, under \
a lock), Python's compile(), bash -n, ruby -wc, php -l, node --check, gofmt -e, javac, \
gcc/g++ -fsyntax-only (compile_commands.json flags), tsc --noEmit (project with a tsconfig.json, \
in place); with --lsp (or LLM_LSP_<LANG>, e.g. LLM_LSP_PYTHON=pylsp), a language server. Any \
error → status rejected and nothing left on disk. A checker that is missing or times out is an \
error, never a pass.\n\nJSON: result has path, language, checksum, bytes, lines, written, \
validators[] (name, version, duration_ms, verdict, diagnostics), lsp_used, diagnostics[], and the \
mutation fields (files[], lines_added…, diff with --dry-run).\n\nExamples:\n  \
llm write src/util.rs --content-file /tmp/util.rs --check\n  \
printf 'def f():\\n    return 1\\n' | llm write pkg/f.py --parents --lsp pylsp --json\n  \
llm write app.py --overwrite --expected-checksum SHA256 --content-file new.py"
)]
pub struct WriteArgs {
    /// File to create (or replace, with --overwrite).
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// The new content as an argument.
    #[arg(long, value_name = "TEXT", conflicts_with = "content_file")]
    pub content: Option<std::ffi::OsString>,
    /// Read the new content from a file (`-` for stdin). Without --content or --content-file,
    /// the content is read from stdin.
    #[arg(long, value_name = "FILE")]
    pub content_file: Option<PathBuf>,
    /// Create missing parent directories (inside the root).
    #[arg(short = 'p', long)]
    pub parents: bool,
    /// Replace the file if it exists (otherwise an existing file is refused).
    #[arg(long)]
    pub overwrite: bool,
    /// With --overwrite: refuse unless the existing file's SHA-256 is this (from a prior read).
    #[arg(long, value_name = "SHA256", requires = "overwrite")]
    pub expected_checksum: Option<String>,
    /// Language for validation (rust, python…); default: from the extension.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Also run the language's own checker: `cargo check` for a Rust file in a Cargo package,
    /// Python's compile(), `bash -n`, `ruby -wc`, `php -l`, `node --check`, `gofmt -e`, `javac`,
    /// `gcc`/`g++ -fsyntax-only`, `tsc --noEmit` (with a tsconfig.json); C# has none.
    #[arg(long)]
    pub check: bool,
    /// Seconds --check may take (a cold `cargo check` can be slow).
    #[arg(long, value_name = "SECS", default_value_t = 300.0)]
    pub check_timeout: f64,
    /// Validate with a language server over stdio, e.g. `pylsp` or `pyright-langserver --stdio`.
    /// Default: the LLM_LSP_<LANG> environment variable (LLM_LSP_PYTHON, LLM_LSP_RUST).
    #[arg(long, value_name = "CMD")]
    pub lsp: Option<String>,
    /// Do not use a language server, even if LLM_LSP_<LANG> is set.
    #[arg(long, conflicts_with = "lsp")]
    pub no_lsp: bool,
    /// Seconds the language server may take to start and publish diagnostics.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub lsp_timeout: f64,
    /// Workspace root; nothing is written outside it.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Allow writing outside --root.
    #[arg(long)]
    pub allow_outside_root: bool,
    /// Validate and report (with a diff), write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write even when validators report errors, or the content looks suspicious (they are
    /// reported as warnings), or the file to replace is read-only (its mode is kept).
    #[arg(long)]
    pub force: bool,
}

impl WriteArgs {
    /// The plain options: resolves --lang and the LSP default, and reads the content.
    pub fn into_options(self) -> Result<crate::cmd::write::WriteOptions, Error> {
        use std::io::{IsTerminal, Read};
        let language = match &self.lang {
            None => None,
            Some(name) => Some(crate::lang::by_name(name).ok_or_else(|| {
                let names = crate::lang::ALL.iter().map(|l| l.name);
                let mut fix = format!(
                    "use one of: {}",
                    crate::lang::ALL
                        .iter()
                        .map(|l| l.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if let Some(best) = crate::suggest::closest(name, names, 1).first() {
                    fix = format!("did you mean `{best}`? {fix}");
                }
                Error::new(
                    Code::WriteUnknownLanguage,
                    format!("unknown language `{name}`"),
                    fix,
                )
            })?),
        };
        let no_content = || {
            Error::new(
                Code::NoContent,
                "no content: pass --content TEXT, --content-file FILE, or pipe the content on stdin",
                "give the file's full new content one of those ways",
            )
        };
        let content = match (&self.content, &self.content_file) {
            (Some(text), None) => os_bytes(text, "--content")?,
            (None, Some(f)) if f.as_os_str() == "-" => read_stdin()?,
            (None, Some(f)) => crate::fsio::read_input(f, &f.display().to_string())?,
            (None, None) if std::io::stdin().is_terminal() => return Err(no_content()),
            (None, None) => read_stdin()?,
            (Some(_), Some(_)) => return Err(no_content()),
        };
        fn read_stdin() -> Result<Vec<u8>, Error> {
            let mut buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).map_err(|e| {
                Error::new(
                    Code::NoContent,
                    format!("could not read stdin: {e}"),
                    "pipe the content, or use --content-file",
                )
            })?;
            Ok(buf)
        }
        let lang_for_env = language.or_else(|| crate::lang::for_path(&self.path));
        let lsp = match (&self.lsp, self.no_lsp, lang_for_env) {
            (Some(cmd), _, _) => Some(cmd.clone()),
            (None, false, Some(l)) => {
                std::env::var(format!("LLM_LSP_{}", l.name.to_ascii_uppercase()))
                    .ok()
                    .filter(|v| !v.trim().is_empty())
            }
            _ => None,
        };
        Ok(crate::cmd::write::WriteOptions {
            path: self.path,
            content,
            parents: self.parents,
            overwrite: self.overwrite,
            expected_checksum: self.expected_checksum,
            language,
            check: self.check,
            check_timeout: secs(self.check_timeout, "--check-timeout")?,
            lsp,
            lsp_timeout: secs(self.lsp_timeout, "--lsp-timeout")?,
            root: self.root,
            allow_outside_root: self.allow_outside_root,
            dry_run: self.dry_run,
            force: self.force,
        })
    }
}

/// `llm patch --file FILE --symbol NAME [selection] [ACTION] [OPTIONS]`
#[derive(Debug, Args)]
#[command(
    after_help = "The symbol's span covers its attributes (#[...], [Serializable]), annotations \
(@Override), doc comments (///, /** */) and decorators directly attached to it, and `export`; replace \
and delete include them, --body keeps them.\n\n\
New text is re-indented to where it goes (send a method at column 0 or at any depth), with tabs or \
spaces as the file uses. Stdin is the new text, or the JSON output of `llm find` for one symbol \
(then its checksum guards the patch and --with/--with-text give the text).\n\nExamples:\n  \
llm patch --file src/lib.rs --symbol Parser::parse --with new_parse.rs\n  \
llm patch --file app.py --symbol Shape.area --body --with-text 'return 0'\n  \
llm patch --file src/util.rs --symbol inc --rename increment --dry-run\n\n\
--rename classifies every occurrence: certain (the definition, Owner::name, self.name/Self::name \
inside the owner's impl or class, imports), possible (a method call on a receiver of unknown \
type), excluded (through another type, or another type's definition: never renamed). Certain and \
possible are renamed (--certain-only narrows); result.sites[] lists each with its class, and \
result.leftovers[] the occurrences in comments, strings, docstrings and doctests \
(--in-comments/--in-strings rename those too)."
)]
pub struct PatchArgs {
    /// The file holding the symbol.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Name or qualified name (`parse`, `Parser::parse`, `Parser.parse`).
    #[arg(long, value_name = "NAME")]
    pub symbol: Option<String>,
    /// Only symbols of this kind (repeatable): function, method, struct, enum, class, impl…
    #[arg(short = 'k', long, value_name = "KIND")]
    pub kind: Vec<String>,
    /// Only symbols whose parent (impl type, class, module) has this name.
    #[arg(long, value_name = "NAME")]
    pub parent: Option<String>,
    /// The symbol whose definition contains this line (innermost wins).
    #[arg(long, value_name = "N")]
    pub line: Option<usize>,
    /// Read the new text from FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "with_text")]
    pub with: Option<PathBuf>,
    /// The new text.
    #[arg(long, value_name = "TEXT")]
    pub with_text: Option<String>,
    /// Replace only the body (the `{…}` block of a function, method, class…; the suite of a
    /// Python def/class or a Ruby def/class).
    #[arg(long, group = "action")]
    pub body: bool,
    /// Delete the definition, with what is attached to it and the blank line it leaves.
    #[arg(long, group = "action")]
    pub delete: bool,
    /// Insert the new text before the symbol, separated as its neighbours are.
    #[arg(long, group = "action")]
    pub insert_before: bool,
    /// Insert the new text after the symbol, separated as its neighbours are.
    #[arg(long, group = "action")]
    pub insert_after: bool,
    /// Rename the definition and every reference `llm find --refs` finds (all files at once).
    #[arg(long, group = "action", value_name = "NEW")]
    pub rename: Option<String>,
    /// Also run the language's checker on the real project (`cargo check` for a file in a Cargo
    /// package, Python's compile(), bash -n, ruby -wc, php -l, node --check, gofmt -e, javac,
    /// gcc/g++ -fsyntax-only, tsc --noEmit), before and after: errors the patch introduces reject
    /// it and the file is restored. A checker that is not installed rejects, never passes.
    #[arg(long)]
    pub check: bool,
    /// Seconds each --check run may take (a cold `cargo check` can be slow).
    #[arg(long, value_name = "SECS", default_value_t = 300.0, requires = "check")]
    pub check_timeout: f64,
    /// Where --rename looks for references (repeatable; default: --root).
    #[arg(long = "in", value_name = "PATH", requires = "rename")]
    pub rename_in: Vec<PathBuf>,
    /// With --rename: rewrite only `certain` sites (not method calls on receivers of unknown
    /// type, which are `possible`).
    #[arg(long, requires = "rename")]
    pub certain_only: bool,
    /// With --rename: also rewrite the name in comments, doc comments and doctests.
    #[arg(long, requires = "rename")]
    pub in_comments: bool,
    /// With --rename: also rewrite the name in string literals and docstrings.
    #[arg(long, requires = "rename")]
    pub in_strings: bool,
    /// Refuse (status `rejected`) unless the file's SHA-256 is this, e.g. the `checksum` of a
    /// prior `llm find` (piping that output on stdin sets it).
    #[arg(long, value_name = "SHA256")]
    pub expected_checksum: Option<String>,
    #[command(flatten)]
    pub mutation: MutationArgs,
}
