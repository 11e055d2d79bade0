//! Command-line surface: the only code that knows clap (with `cli/search.rs`, search's flags,
//! and `cli/edit.rs`, those of transform, write and patch). Each subcommand's `*Args` is turned
//! into the plain `*Options` its `cmd/` module runs on.

use crate::error::{Code, Error};
use crate::output::{ColorChoice, Format};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

mod edit;
mod search;
mod search_output;

pub use edit::{MutationArgs, PatchArgs, TransformArgs, WriteArgs};
pub use search::{SearchArgs, SortBy};
pub use search_output::{Buffering, DebugLevel};

/// One binary, six tools over a source tree, one JSON language.
#[derive(Debug, Parser)]
#[command(
    name = "llm",
    version,
    about = "Search, query and edit a source tree with precise byte spans and one JSON envelope",
    long_about = "llm gives coding agents, scripts and people tools over a source tree that all speak \
one JSON language: the same Span, the same JsonResponse/OperationResult envelope, the same diagnostics.\n\n\
Exit codes: 0 found/applied, 1 nothing found/rejected, 2 error.",
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Output options every subcommand shares.
#[derive(Debug, Args, Clone)]
pub struct GlobalArgs {
    /// Output format: ripgrep-like text, one JSON envelope, or JSON lines (one per match, then a
    /// summary line).
    #[arg(
        long,
        global = true,
        value_enum,
        env = "LLM_FORMAT",
        default_value = "human"
    )]
    pub format: FormatArg,
    /// Shorthand for `--format json`.
    #[arg(long, global = true)]
    pub json: bool,
    /// When to use colour in human output. `auto` colours a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value = "auto")]
    pub color: ColorArg,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Human,
    Json,
    Jsonl,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl GlobalArgs {
    /// The output format after `--json` and `LLM_FORMAT`.
    pub fn format(&self) -> Format {
        if self.json {
            return Format::Json;
        }
        match self.format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Jsonl => Format::Jsonl,
        }
    }

    /// The colour choice.
    pub fn color(&self) -> ColorChoice {
        match self.color {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::Always,
            ColorArg::Never => ColorChoice::Never,
        }
    }
}

/// The subcommands. (Parsed once per process, so variant sizes do not matter.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Regex or literal text search over files and directories (ripgrep's engine).
    Search(SearchArgs),
    /// Tree-sitter query search over the files of 13 languages; `--tree` prints a file's syntax tree.
    Ast(AstArgs),
    /// Symbol definitions by name or kind, file outlines (`--outline`), references (`--refs`).
    Find(FindArgs),
    /// Apply byte-span or exact-text edits, guarded by the file's SHA-256 (atomic, all or nothing).
    Transform(TransformArgs),
    /// Replace, delete, insert beside, or rename a named symbol (function, method, class…).
    Patch(PatchArgs),
    /// Create or replace a file only when it is valid: tree-sitter syntax, then optionally the
    /// language's checker (--check) and a language server (--lsp).
    Write(WriteArgs),
    /// Print source with line numbers: a named symbol, FILE:START-END, or a --skeleton of
    /// every signature with bodies elided.
    Show(ShowArgs),
    /// Apply a unified diff, a Codex patch or a JSONL batch of operations as one all-or-nothing
    /// change (add, delete, move, edit, patch symbols).
    Apply(ApplyArgs),
    /// The journal of mutations, newest first: ids, commands, files with before/after
    /// checksums, undone or recovered after a crash; `--prune` empties it.
    History(HistoryArgs),
    /// Put every file of a journaled operation back as it was before (default: the newest
    /// operation not yet undone), all or nothing, refused when a file changed since.
    Undo(UndoArgs),
    /// Write shell completions and man pages (for packagers and this repository).
    #[command(hide = true)]
    Generate(GenerateArgs),
}

/// File-walking flags shared by `llm ast` and `llm find` (same meaning as in `llm search`).
#[derive(Debug, Args, Clone)]
pub struct WalkArgs {
    /// Include or exclude files by glob (repeatable; `!` negates), e.g. `-g '*.rs' -g '!tests/**'`.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Search hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Do not respect .gitignore, .ignore and similar files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Skip files larger than this (bytes, or with a K, M or G suffix).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_filesize: Option<u64>,
    /// At most NUM matches in the whole run; the rest are still counted (status `partial`).
    #[arg(long, value_name = "NUM")]
    pub max_results: Option<usize>,
    /// Number of threads (0 = one per core).
    #[arg(short = 'j', long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
}

impl WalkArgs {
    fn walk_options(&self, paths: Vec<PathBuf>) -> crate::walk::WalkOptions {
        crate::walk::WalkOptions {
            paths,
            globs: self.globs.clone(),
            types: Vec::new(),
            types_not: Vec::new(),
            hidden: self.hidden,
            no_ignore: self.no_ignore,
            follow: self.follow,
            max_filesize: self.max_filesize,
            ..Default::default()
        }
    }

    fn max_results(&self, tool: &str) -> Result<Option<usize>, Error> {
        if self.max_results == Some(0) {
            return Err(Error::new(
                Code::InvalidArgument,
                "--max-results must be at least 1",
                format!("drop --max-results or give a positive number (`llm {tool}`)"),
            ));
        }
        Ok(self.max_results)
    }
}

/// `--lang` names → registered languages (with a "did you mean" for a misspelt one).
fn languages(names: &[String]) -> Result<Vec<&'static crate::lang::Language>, Error> {
    names
        .iter()
        .map(|n| {
            crate::lang::by_name(n).ok_or_else(|| {
                let all = crate::lang::ALL
                    .iter()
                    .flat_map(|l| std::iter::once(l.name).chain(l.aliases.iter().copied()));
                let close = crate::suggest::closest(n, all, 3);
                Error::new(
                    Code::UnknownLanguage,
                    format!("unknown language `{n}`"),
                    format!(
                        "{}registered languages: {}",
                        if close.is_empty() {
                            String::new()
                        } else {
                            format!("did you mean {}? ", close.join(", "))
                        },
                        crate::lang::ALL
                            .iter()
                            .map(|l| format!("{} ({})", l.name, l.aliases.join(", ")))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
        })
        .collect()
}

/// `llm ast [OPTIONS] QUERY [PATH]...`
#[derive(Debug, Args)]
#[command(
    after_help = "The query is a tree-sitter S-expression query; predicates #eq?, #not-eq?, \
#match?, #not-match?, #any-of? work. Without --lang it runs on every registered language whose grammar \
accepts it. Files that cannot match (the query needs a literal such as `#eq? @m \"unwrap\"` or an \
anonymous node `\"unsafe\"` that the file lacks) are skipped unparsed (stats.files_skipped_prefilter).\n\n\
JSON: data.matches[] each have match_id, span (covering all captures), pattern_index, language, \
captures[] {name, span, content}; data.files[] carry checksums; data.stats counts files parsed, \
skipped by the prefilter, and with parse errors.\n\nExamples:\n  llm ast '(function_item name: (identifier) @name)' -l rust src\n  \
llm ast '(call_expression function: (field_expression field: (field_identifier) @m) (#eq? @m \"unwrap\"))' --json\n  \
llm ast --tree src/lib.rs --at 12:4"
)]
pub struct AstArgs {
    /// Tree-sitter query (a pattern without a capture reports its node as `@match`). With
    /// --query-file or --tree, the first positional argument is a path.
    #[arg(value_name = "QUERY", required_unless_present_any = ["query_file", "tree"])]
    pub query: Option<String>,
    /// Files or directories to search (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read the query from a file.
    #[arg(long, value_name = "FILE", conflicts_with = "tree")]
    pub query_file: Option<PathBuf>,
    /// Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts),
    /// tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh). Also the language of a named
    /// file whose extension is not registered.
    #[arg(short = 'l', long = "lang", value_name = "LANG")]
    pub langs: Vec<String>,
    /// Print the syntax tree of FILE (named nodes with field names and spans) instead of querying.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// With --tree: show the path from the root to the smallest named node at LINE:COL
    /// (1-indexed line, 0-indexed byte column) and that node's subtree.
    #[arg(long, value_name = "LINE:COL", requires = "tree", value_parser = parse_position)]
    pub at: Option<(usize, usize)>,
    /// Parse every file of the queried languages whole, even when the query needs words a file
    /// (or a region of it) lacks: for nodes that error recovery builds in broken code around a
    /// missing keyword. Slower; the results are otherwise the same.
    #[arg(long)]
    pub no_prefilter: bool,
    #[command(flatten)]
    pub walk: WalkArgs,
}

fn parse_position(s: &str) -> Result<(usize, usize), String> {
    let (l, c) = s.split_once(':').unwrap_or((s, "0"));
    match (l.trim().parse::<usize>(), c.trim().parse::<usize>()) {
        (Ok(l), Ok(c)) if l >= 1 => Ok((l, c)),
        _ => Err(format!(
            "`{s}` is not LINE:COL (1-indexed line, 0-indexed byte column)"
        )),
    }
}

/// What `llm ast` was asked to do.
#[allow(clippy::large_enum_variant)]
pub enum AstRequest {
    Query(crate::cmd::ast::AstOptions),
    Tree(crate::cmd::tree::TreeOptions),
}

impl AstArgs {
    /// Turns the flags into the plain options `cmd::ast` / `cmd::tree` run on.
    pub fn into_request(self) -> Result<AstRequest, Error> {
        let langs = languages(&self.langs)?;
        if let Some(file) = self.tree {
            if langs.len() > 1 {
                return Err(Error::new(
                    Code::InvalidArgument,
                    "--tree takes at most one --lang",
                    "pass the one language the file is written in",
                ));
            }
            return Ok(AstRequest::Tree(crate::cmd::tree::TreeOptions {
                file,
                lang: langs.first().copied(),
                at: self.at,
            }));
        }
        let mut paths = self.paths;
        let query = match self.query_file {
            Some(f) => {
                if let Some(p) = self.query {
                    paths.insert(0, PathBuf::from(p));
                }
                std::fs::read_to_string(&f).map_err(|e| {
                    Error::new(
                        Code::QueryFileUnreadable,
                        format!("--query-file {}: {e}", f.display()),
                        "check the path (relative to the current directory) and that it is UTF-8 text",
                    )
                })?
            }
            None => self.query.unwrap_or_default(),
        };
        Ok(AstRequest::Query(crate::cmd::ast::AstOptions {
            query,
            langs,
            prefilter: !self.no_prefilter,
            max_results: self.walk.max_results("ast")?,
            threads: crate::walk::thread_count(self.walk.threads),
            walk: self.walk.walk_options(paths),
            first_lines: false,
        }))
    }
}

/// `llm find [OPTIONS] NAME [PATH]...`
#[derive(Debug, Args)]
#[command(
    after_help = "Symbols — Rust: function, method (fn in an impl or trait; parent = the impl's \
type), struct, union, enum, variant, trait, impl (named after its type), type, const, static, module, \
macro (macro_rules!), field; a trait impl's items say impl_of (the trait), which --parent also \
matches. Python: function (async too), method, class, constant (module-level assignment, also in a \
module-level if/try/with/for), field (class-level assignment). JavaScript, TypeScript, Go, Java, C, \
C++, C#, Ruby, PHP and Bash map their definitions onto the same names (plus interface, constructor); \
a Go method's parent is its receiver type.\n\n\
span covers the whole definition including what is directly attached to it: Rust outer attributes \
(#[...]) and outer doc comments (///, /** */) right above it; Python decorators; `export`, \
annotations (@Override), attributes ([Serializable], #[Route]), `template<…>` and doc comments of the \
other languages (/** */, ///, or the comment lines right above in Go, C, C++, Ruby, Bash). node_span is the item \
alone; name_span the identifier; body_span the block/suite `llm patch --body` replaces. \
qualified_name joins enclosing symbols (Parser::parse, Outer.Inner.method); NAME may use either \
separator and may be a suffix of it. symbol_id hashes file path, qualified name and kind: stable when \
the symbol moves within its file.\n\n\
Only files whose bytes contain NAME's last segment are parsed.\n\nExamples:\n  llm find parse src\n  \
llm find Parser::parse --json\n  llm find --prefix test_ -k function tests\n  llm find --outline src/lib.rs\n  \
llm find --refs inc src"
)]
pub struct FindArgs {
    /// Symbol name or qualified name (`parse`, `Parser::parse`, `Class.method`). With --outline,
    /// the first positional argument is a path.
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// Files or directories to search (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Every symbol of the files, nested, in file order (no NAME).
    #[arg(long, conflicts_with_all = ["refs", "regex", "prefix"])]
    pub outline: bool,
    /// Occurrences of NAME as an identifier (calls, paths like util::inc, obj.inc, imports);
    /// never inside comments or strings. Definitions are flagged is_definition.
    #[arg(long, conflicts_with_all = ["regex", "prefix"])]
    pub refs: bool,
    /// NAME is a regular expression matched against names and qualified names.
    #[arg(long, conflicts_with = "prefix")]
    pub regex: bool,
    /// NAME is a prefix of the name or qualified name.
    #[arg(long)]
    pub prefix: bool,
    /// Only symbols of this kind (repeatable): function, method, struct, enum, variant, trait,
    /// impl, type, const, static, module, macro, field, union, class, constant.
    #[arg(short = 'k', long = "kind", value_name = "KIND")]
    pub kinds: Vec<String>,
    /// Only symbols whose enclosing symbol has this name or qualified name (a method's impl type
    /// or class).
    #[arg(long, value_name = "NAME")]
    pub parent: Option<String>,
    /// Only these languages (repeatable): rust (rs), python (py), javascript (js), typescript (ts),
    /// tsx, go, java, c, cpp, csharp (cs), ruby (rb), php, bash (sh).
    #[arg(short = 'l', long = "lang", value_name = "LANG")]
    pub langs: Vec<String>,
    #[command(flatten)]
    pub walk: WalkArgs,
}

impl FindArgs {
    /// Turns the flags into the plain options `cmd::find` runs on.
    pub fn into_options(self) -> Result<crate::cmd::find::FindOptions, Error> {
        use crate::cmd::find::{Mode, NameMatch};
        use crate::lang::SymbolKind;
        let mut paths = self.paths;
        let mode = if self.outline {
            Mode::Outline
        } else if self.refs {
            Mode::Refs
        } else {
            Mode::Symbols
        };
        let name = if mode == Mode::Outline {
            if let Some(p) = self.name {
                paths.insert(0, PathBuf::from(p));
            }
            None
        } else {
            let n = self.name.filter(|n| !n.is_empty()).ok_or_else(|| {
                Error::new(
                    Code::FindArguments,
                    "NAME is required",
                    "give a symbol name (`llm find parse`), or --outline to list every symbol",
                )
            })?;
            Some(if self.regex {
                NameMatch::Regex(regex::Regex::new(&n).map_err(|e| {
                    Error::new(
                        Code::InvalidNameRegex,
                        format!("invalid --regex `{n}`"),
                        "fix the regex (Rust syntax), or drop --regex for an exact name",
                    )
                    .with_note(e.to_string())
                })?)
            } else if self.prefix {
                NameMatch::Prefix(n)
            } else {
                NameMatch::Exact(n)
            })
        };
        let kinds = self
            .kinds
            .iter()
            .flat_map(|k| k.split(','))
            .map(|k| {
                SymbolKind::from_name(k.trim()).ok_or_else(|| {
                    let names = SymbolKind::ALL.iter().map(|k| k.as_str());
                    let close = crate::suggest::closest(k, names.clone(), 3);
                    Error::new(
                        Code::UnknownKind,
                        format!("unknown symbol kind `{k}`"),
                        format!(
                            "{}kinds: {}",
                            if close.is_empty() {
                                String::new()
                            } else {
                                format!("did you mean {}? ", close.join(", "))
                            },
                            names.collect::<Vec<_>>().join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(crate::cmd::find::FindOptions {
            mode,
            name,
            kinds,
            parent: self.parent,
            langs: languages(&self.langs)?,
            max_results: self.walk.max_results("find")?,
            threads: crate::walk::thread_count(self.walk.threads),
            walk: self.walk.walk_options(paths),
        })
    }
}

/// `llm show NAME [PATH]... | FILE:START-END | FILE:LINE | --skeleton PATH...`
#[derive(Debug, Args)]
#[command(after_help = "Targets:\n  \
NAME [PATH]...: every definition NAME names under the paths (default: .), selected as `llm patch` \
selects (`parse`, `Parser::parse`, `Parser.parse`; --kind, --parent, --line)\n  \
FILE:START-END, FILE:LINE: those lines (--context N adds lines around); FILE alone: the whole file\n  \
--skeleton PATH...: every signature, bodies elided (`…`), a map of a file or tree\n\n\
Lines are numbered as `cat -n` numbers them. --max-bytes cuts the text on a line boundary and \
names the lines cut and the command that shows them.\n\n\
JSON: data.views[] each with mode, file_path, span (of text), text, checksum (of the whole file: \
pass it as expected_checksum), truncated, omitted {start_line, end_line, lines, bytes, command}, \
symbol {name, kind, qualified_name, parent, symbol_id, span}.\n\nExamples:\n  \
llm show Parser::parse src/\n  \
llm show src/lib.rs:40-80\n  \
llm show src/lib.rs:120 --context 5\n  \
llm show --skeleton src/ --max-bytes 8000")]
pub struct ShowArgs {
    /// NAME then PATHs, or FILE:START-END / FILE:LINE, or (with --skeleton) PATHs.
    #[arg(value_name = "TARGET", required_unless_present = "skeleton")]
    pub targets: Vec<PathBuf>,
    /// Show every signature of the files under the paths, bodies elided.
    #[arg(long)]
    pub skeleton: bool,
    /// Only symbols of this kind (repeatable): function, method, struct, class…
    #[arg(short = 'k', long, value_name = "KIND", conflicts_with = "skeleton")]
    pub kind: Vec<String>,
    /// Only symbols whose parent (impl type, class, module) has this name.
    #[arg(long, value_name = "NAME", conflicts_with = "skeleton")]
    pub parent: Option<String>,
    /// The symbol whose definition contains this line (innermost wins).
    #[arg(long, value_name = "N", conflicts_with = "skeleton")]
    pub line: Option<usize>,
    /// Lines of context before and after a symbol or a range.
    #[arg(short = 'C', long, value_name = "N", default_value_t = 0)]
    pub context: usize,
    /// Cut the text shown (all views together) at this many bytes, on a line boundary.
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
}

/// `llm apply [--patch FILE] [--format-in FORMAT] [OPTIONS]`
#[derive(Debug, Args)]
#[command(
    after_help = "Input (stdin or --patch FILE), detected or forced with --format-in:\n  \
unified: `diff -u`, `git diff` (new, deleted and renamed files, /dev/null, `\\ No newline at end of \
file`, several files); hunk line counts are not trusted\n  \
codex: `*** Begin Patch`, `*** Add File:`/`*** Delete File:`/`*** Update File:`, `*** Move to:`, \
`@@ CONTEXT` lines, `*** End of File`, `*** End Patch`\n  \
jsonl: one object per line with `op`: transform (an edit request, or file_path/old/new/all), \
patch (file, symbol, kind, parent, line, with_text, body/delete/insert_before/insert_after, \
rename), write (file_path, content, overwrite), delete (file_path), move (from, to); each may \
carry expected_checksum\n\n\
Operations run in order on staged copies; the result is one all-or-nothing mutation. Hunks are \
placed exactly, then ignoring trailing whitespace, indentation, Unicode punctuation (the file's \
own context lines are kept); the file's line endings and BOM win over the patch's. A numbered hunk \
with context before its changes and none after, or `\\ No newline at end of file` on its old side, goes only at the end \
of the file; one at line 1 with less context before its changes than after, only at the start. A \
hunk without context goes at its line number (`@@ -N,0`: after line N), with tolerance only there. \
A hunk that cannot be placed is rejected with the closest region. Adding a file that exists, or moving onto \
one, is rejected.\n\nJSON: result.format, operations[] (op, file_path, to, message), hunks[] \
(file_path, index, matched_with, start_line, offset, lines_removed, lines_added), files[] as for \
every mutation (deleted: true for removed files).\n\nExamples:\n  \
git diff HEAD~1 | llm apply --dry-run\n  \
llm apply --patch change.patch --json\n  \
printf '%s\\n' '{\"op\":\"move\",\"from\":\"a.rs\",\"to\":\"b.rs\"}' | llm apply"
)]
pub struct ApplyArgs {
    /// Read the patch from FILE instead of stdin (`-` = stdin).
    #[arg(long, value_name = "FILE")]
    pub patch: Option<PathBuf>,
    /// The input's format (default: detected).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format_in: Option<ApplyFormatArg>,
    /// Also run the language's checker on the real project before and after (as `llm patch
    /// --check`); errors the input introduced reject it and the files are restored.
    #[arg(long)]
    pub check: bool,
    /// Seconds each --check run may take (a cold `cargo check` can be slow).
    #[arg(long, value_name = "SECS", default_value_t = 300.0, requires = "check")]
    pub check_timeout: f64,
    #[command(flatten)]
    pub mutation: MutationArgs,
}

/// `--format-in` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ApplyFormatArg {
    Unified,
    Codex,
    Jsonl,
}

/// `llm generate`
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Directory under which `completions/` and `man/` are written.
    #[arg(long, default_value = ".")]
    pub out_dir: PathBuf,
}

/// Parses `10`, `10K`, `2M`, `1G` into bytes (upper-case suffixes only, as ripgrep).
fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('K') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M') => (&s[..s.len() - 1], 1 << 20),
        Some('G') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| {
            format!(
                "`{s}` is not a size: use bytes, or a K, M or G suffix (upper case, as ripgrep)"
            )
        })
}

/// `llm history [--limit N] [--prune]`
#[derive(Debug, Args)]
#[command(
    after_help = "The journal lives in .llm/journal/ at the workspace's top level (git's top \
level above --root, else --root), so any subdirectory finds the same one. A run a crash interrupted \
is completed or rolled back first.\n\nJSON: data.journal, data.total, data.recovered[] (ids resolved \
now), data.operations[] (newest first) each with execution_id, seq, command, args, time, status \
(done, rolled_back), recovered (completed, rolled_back), undoes, undone_by, undo (the command that \
undoes it), files[] (file_path, path, before_checksum, after_checksum, before_lines, after_lines, \
foreign_checksum).\n\nExamples:\n  llm history\n  llm history --limit 5 --json\n  llm history --prune"
)]
pub struct HistoryArgs {
    /// Show at most N operations (the newest).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Empty the journal (every record and pre-image); nothing can be undone afterwards.
    #[arg(long)]
    pub prune: bool,
    /// Workspace root (its journal is at git's top level above it, else here).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Let recovery and undo act on an operation that ran with --allow-outside-root (its
    /// record names files outside the root); without it such a record is refused (LLM_E122).
    #[arg(long)]
    pub allow_outside_root: bool,
}

/// `llm undo [EXECUTION_ID] [--dry-run]`
#[derive(Debug, Args)]
#[command(
    after_help = "Restores every file of the operation to its pre-image: created files are \
removed, deleted files restored, moves reversed, all or nothing through the same core as every \
mutation. Each file must still have the operation's after-checksum; otherwise the undo is rejected \
(LLM_E118, one diagnostic per file) and nothing changes. An undo is journaled too: undoing it \
redoes. Without an id, the newest operation that is not undone and not itself an undo is taken, \
so repeated `llm undo` walks back. Bytes another program wrote during an operation (LLM_E114) are \
what undo restores for that file.\n\nJSON: result.undoes (the id undone), result.files[] as \
every mutation, result.undo (the command that undoes this undo).\n\nExamples:\n  llm undo\n  \
llm undo 3f2a9c1e --dry-run\n  llm undo --json"
)]
pub struct UndoArgs {
    /// The operation's execution_id (or a unique prefix of at least 4 characters), from a
    /// mutation's result or `llm history`.
    #[arg(value_name = "EXECUTION_ID")]
    pub id: Option<String>,
    /// Show the unified diff of the undo; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Workspace root (its journal is at git's top level above it, else here).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Let recovery and undo act on an operation that ran with --allow-outside-root (its
    /// record names files outside the root); without it such a record is refused (LLM_E122).
    #[arg(long)]
    pub allow_outside_root: bool,
}

/// The clap command, for `llm generate` (completions and man pages).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

/// Names of the subcommands, for error envelopes of unparsable arguments.
const COMMAND_NAMES: &[&str] = &[
    "search",
    "ast",
    "find",
    "transform",
    "patch",
    "write",
    "show",
    "apply",
    "history",
    "undo",
    "generate",
];

/// The subcommand named on a command line, or `llm`.
pub fn command_name(args: &[String]) -> &'static str {
    args.iter()
        .skip(1)
        .find_map(|a| COMMAND_NAMES.iter().find(|n| **n == a.as_str()))
        .copied()
        .unwrap_or("llm")
}

/// A `--…-timeout SECS` value: a positive, finite number of seconds.
pub fn secs(s: f64, flag: &str) -> Result<std::time::Duration, Error> {
    if s.is_finite() && s > 0.0 {
        Ok(std::time::Duration::from_secs_f64(s))
    } else {
        Err(Error::new(
            Code::UsageInvalid,
            format!("{flag} must be a positive number of seconds, not {s}"),
            format!("pass e.g. {flag} 10"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert!(parse_size("45k").is_err());
        assert!(parse_size("x").is_err());
    }
}
