//! Command-line surface: the only file that knows clap. Each subcommand's `*Args` is turned into
//! the plain `*Options` its `cmd/` module runs on.

use crate::error::{Code, Error};
use crate::output::{ColorChoice, Format};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

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

/// `llm search [OPTIONS] PATTERN [PATH]...`
#[derive(Debug, Args)]
#[command(
    args_override_self = true,
    after_help = "JSON: data.matches[] each have match_id, span, matched_text, line_text, \
context_before[], context_after[] (and replacement with -r); data.files[] carry each file's SHA-256 \
checksum for a later `llm transform`. With -v each match spans a whole line that does not match; \
--files and --files-without-match list data.files[] (with checksums) and no matches. \
-H, -I, -N, -0, -b, --trim, -o, -p and --stats only change human output.\n\n\
A flag given twice keeps its last value (`-C1 -C0` is `-C0`), as in ripgrep.\n\nExamples:\n  \
llm search 'fn main' src\n  llm search -F 'a.b()' -t rust --json\n  \
llm search -r 'new_$1' 'old_(\\w+)' --json | llm transform"
)]
pub struct SearchArgs {
    /// Regular expression (Rust regex syntax), or a literal with -F. With -e, -f or --files,
    /// the first positional argument is a path instead.
    #[arg(value_name = "PATTERN", required_unless_present_any = ["regexp", "type_list", "pattern_files", "files"])]
    pub pattern: Option<String>,
    /// Files or directories to search (default: the current directory, never standard
    /// input); `-` is standard input, read to its end and shown as `<stdin>`.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A pattern to search for (repeatable; a line matching any of them matches). Use it for
    /// patterns that start with `-`.
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
    pub regexp: Vec<String>,
    /// Read patterns from FILE, one per line (repeatable; `-` is stdin). An empty file matches
    /// nothing.
    #[arg(short = 'f', long = "file", value_name = "PATTERNFILE")]
    pub pattern_files: Vec<PathBuf>,
    /// Treat the pattern as a literal string, not a regex.
    #[arg(short = 'F', long)]
    pub fixed_strings: bool,
    /// Case-insensitive search.
    #[arg(short = 'i', long, overrides_with_all = ["case_sensitive", "smart_case"])]
    pub ignore_case: bool,
    /// Case-sensitive search (the default; overrides an earlier -i or -S).
    #[arg(short = 's', long, overrides_with_all = ["ignore_case", "smart_case"])]
    pub case_sensitive: bool,
    /// Case-insensitive unless the pattern has an uppercase letter.
    #[arg(short = 'S', long, overrides_with_all = ["ignore_case", "case_sensitive"])]
    pub smart_case: bool,
    /// Only match whole words (`-x` given after it wins, as in rg).
    #[arg(short = 'w', long, overrides_with = "line_regexp")]
    pub word_regexp: bool,
    /// Only match whole lines (`-w` given after it wins, as in rg).
    #[arg(short = 'x', long, overrides_with = "word_regexp")]
    pub line_regexp: bool,
    /// Report the lines that do not match (each a match spanning the whole line).
    #[arg(short = 'v', long)]
    pub invert_match: bool,
    /// Human output: print each match's text alone on its line (JSON matches already span
    /// only the match).
    #[arg(short = 'o', long)]
    pub only_matching: bool,
    /// Print nothing; exit 0 at the first match, 1 when there is none, 2 on error.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Let matches span lines (`\n` can be matched; spans cover every line).
    #[arg(short = 'U', long)]
    pub multiline: bool,
    /// With -U, make `.` match newlines too (without -U it changes nothing, as in ripgrep).
    #[arg(long)]
    pub multiline_dotall: bool,
    /// Accepted for ripgrep compatibility: `$` already matches before `\r\n`.
    #[arg(long)]
    pub crlf: bool,
    /// Accepted for ripgrep compatibility: llm reads no configuration file.
    #[arg(long)]
    pub no_config: bool,
    /// Human output: every match on a line of its own, `path:line:col:text` (a line with two
    /// matches prints twice; with -o, the match's text), for editors' quickfix lists.
    #[arg(long)]
    pub vimgrep: bool,
    /// PCRE2 syntax: look-around, backreferences (`(\w+) \1`), possessive quantifiers.
    /// Named groups are `(?<name>…)`; `-r` refers to them as `$name` or `${name}`.
    #[arg(short = 'P', long)]
    pub pcre2: bool,
    /// ASCII-only `\w`, `\d`, `\s`, `\b` and case folding.
    #[arg(long)]
    pub no_unicode: bool,
    /// Search binary files as text: no NUL detection, and patterns may match NUL.
    #[arg(short = 'a', long)]
    pub text: bool,
    /// Search binary files found by walking in full, as files named on the command line are
    /// (a warning says their text fields are lossy).
    #[arg(long)]
    pub binary: bool,
    /// Stop searching a file at the first non-matching line after a matching one.
    #[arg(long)]
    pub stop_on_nonmatch: bool,
    /// Lines of context after each match.
    #[arg(short = 'A', long, value_name = "NUM")]
    pub after_context: Option<usize>,
    /// Lines of context before each match.
    #[arg(short = 'B', long, value_name = "NUM")]
    pub before_context: Option<usize>,
    /// Lines of context before and after each match.
    #[arg(short = 'C', long, value_name = "NUM")]
    pub context: Option<usize>,
    /// Include or exclude files by glob (repeatable; `!` negates), e.g. `-g '*.rs' -g '!tests/**'`.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Like -g, but case-insensitive (repeatable).
    #[arg(long = "iglob", value_name = "GLOB")]
    pub iglobs: Vec<String>,
    /// Make every -g glob case-insensitive.
    #[arg(long)]
    pub glob_case_insensitive: bool,
    /// Only search files of this type (repeatable): rust, py, ripgrep's type table, or `all`.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Skip files of this type (repeatable; `all` skips every typed file).
    #[arg(short = 'T', long = "type-not", value_name = "TYPE")]
    pub types_not: Vec<String>,
    /// Add a type: `NAME:GLOB` (repeatable; also `NAME:include:OTHER,…`).
    #[arg(long = "type-add", value_name = "TYPESPEC")]
    pub type_add: Vec<String>,
    /// Forget the globs of a type (repeatable), before --type-add adds to it.
    #[arg(long = "type-clear", value_name = "TYPE")]
    pub type_clear: Vec<String>,
    /// List the known file types and their globs, then exit.
    #[arg(long)]
    pub type_list: bool,
    /// Search hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Do not respect .gitignore, .ignore, .rgignore and similar files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Do not respect .gitignore, .git/info/exclude and the global git excludes.
    #[arg(long)]
    pub no_ignore_vcs: bool,
    /// Do not respect .ignore and .rgignore files.
    #[arg(long)]
    pub no_ignore_dot: bool,
    /// Do not respect ignore files in the parent directories of a path.
    #[arg(long)]
    pub no_ignore_parent: bool,
    /// Do not respect the global git excludes file (core.excludesFile).
    #[arg(long)]
    pub no_ignore_global: bool,
    /// Do not respect .git/info/exclude.
    #[arg(long)]
    pub no_ignore_exclude: bool,
    /// Do not read the --ignore-file files.
    #[arg(long)]
    pub no_ignore_files: bool,
    /// Do not warn of --ignore-file files that cannot be read.
    #[arg(long)]
    pub no_ignore_messages: bool,
    /// Accepted for ripgrep compatibility: .gitignore files are honoured outside git
    /// repositories already.
    #[arg(long)]
    pub no_require_git: bool,
    /// Also read ignore rules from FILE (gitignore syntax; repeatable).
    #[arg(long = "ignore-file", value_name = "PATH")]
    pub ignore_files: Vec<PathBuf>,
    /// Match the rules of ignore files case-insensitively.
    #[arg(long)]
    pub ignore_file_case_insensitive: bool,
    /// Reduce the filters: -u searches ignored files, -uu hidden ones too, -uuu binary
    /// files too (as --binary).
    #[arg(short = 'u', long = "unrestricted", action = clap::ArgAction::Count)]
    pub unrestricted: u8,
    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Descend at most NUM directories below each path (0: only the paths themselves).
    #[arg(short = 'd', long, visible_alias = "maxdepth", value_name = "NUM")]
    pub max_depth: Option<usize>,
    /// Do not cross into other file systems.
    #[arg(long)]
    pub one_file_system: bool,
    /// At most NUM matches per file.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<usize>,
    /// At most NUM matches in the whole run; the search stops there (status `partial`).
    #[arg(long, value_name = "NUM")]
    pub max_results: Option<usize>,
    /// Skip files larger than this (bytes, or with a K, M or G suffix).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_filesize: Option<u64>,
    /// Only list the files with at least one match. Of -l and --files-without-match the last
    /// given wins; -c and --count-matches win over both, as in ripgrep.
    #[arg(short = 'l', long, overrides_with = "files_without_match")]
    pub files_with_matches: bool,
    /// Only list the files searched that have no match.
    #[arg(long, overrides_with = "files_with_matches")]
    pub files_without_match: bool,
    /// List the files that would be searched (with checksums in JSON), without searching
    /// (-l, -c and the like then change nothing).
    #[arg(long)]
    pub files: bool,
    /// Only show the number of matching lines per file (of -c and --count-matches the last
    /// given wins).
    #[arg(short = 'c', long, overrides_with = "count_matches")]
    pub count: bool,
    /// Only show the number of matches per file.
    #[arg(long, overrides_with = "count")]
    pub count_matches: bool,
    /// With -c/--count-matches, also list the files searched that have no match (count 0).
    #[arg(long)]
    pub include_zero: bool,
    /// Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement`
    /// to each match (apply it with `llm transform`).
    #[arg(short = 'r', long, value_name = "TEXT", allow_hyphen_values = true)]
    pub replace: Option<String>,
    /// Order files by path (the default), or by modified, accessed or created time.
    #[arg(long, value_name = "SORTBY", value_enum, overrides_with = "sortr")]
    pub sort: Option<SortBy>,
    /// Like --sort, in reverse (newest first for times).
    #[arg(long, value_name = "SORTBY", value_enum, overrides_with = "sort")]
    pub sortr: Option<SortBy>,
    /// In human output, do not print lines longer than NUM bytes (a summary instead; 0: no
    /// limit).
    #[arg(short = 'M', long, value_name = "NUM")]
    pub max_columns: Option<usize>,
    /// With -M, print the first NUM characters of a long line and how many matches it leaves
    /// out, rather than only a summary (as ripgrep).
    #[arg(long)]
    pub max_columns_preview: bool,
    /// Group matches under a file heading (default on a terminal).
    #[arg(long, overrides_with = "no_heading")]
    pub heading: bool,
    /// Print the path on every line (default when piped).
    #[arg(long, overrides_with = "heading")]
    pub no_heading: bool,
    /// Human output: headings and colour, as on a terminal. JSON: indented.
    #[arg(short = 'p', long)]
    pub pretty: bool,
    /// Accepted for ripgrep compatibility: line and column numbers are shown unless -N.
    #[arg(short = 'n', long = "line-number", overrides_with = "no_line_number")]
    pub line_number: bool,
    /// Human output: no line and column numbers (JSON spans keep them).
    #[arg(short = 'N', long, overrides_with = "line_number")]
    pub no_line_number: bool,
    /// Accepted for ripgrep compatibility: columns are always shown.
    #[arg(long, hide = true)]
    pub column: bool,
    /// Human output: print the path on every line, even for one file (JSON always has it).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Human output: never print the path (JSON spans keep it).
    #[arg(short = 'I', long, overrides_with = "with_filename")]
    pub no_filename: bool,
    /// Human output: follow each path with a NUL byte instead of `:` or a newline.
    #[arg(short = '0', long)]
    pub null: bool,
    /// Human output: print the byte offset of each line (of each match with -o) before it.
    #[arg(short = 'b', long)]
    pub byte_offset: bool,
    /// Human output: strip leading whitespace from printed lines (spans are unchanged).
    #[arg(long)]
    pub trim: bool,
    /// Human output: print counts and timing after the results (JSON has data.stats).
    #[arg(long)]
    pub stats: bool,
    /// Human output: do not print warnings and per-file errors on stderr (JSON keeps them).
    #[arg(long)]
    pub no_messages: bool,
    /// Number of threads (0 = one per core).
    #[arg(short = 'j', long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
}

/// `--sort`/`--sortr` keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SortBy {
    /// By path (the default order).
    Path,
    /// By last modification time.
    Modified,
    /// By last access time.
    Accessed,
    /// By creation time.
    Created,
    /// Path order, as the default.
    None,
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

impl SearchArgs {
    /// Presentation choices for human output.
    pub fn view(&self) -> crate::output::human::search::SearchView {
        crate::output::human::search::SearchView {
            heading: if self.heading || self.pretty {
                Some(true)
            } else if self.no_heading {
                Some(false)
            } else {
                None
            },
            max_columns: self.max_columns.filter(|&m| m > 0),
            max_columns_preview: self.max_columns_preview,
            only_matching: self.only_matching,
            null: self.null,
            with_filename: if self.with_filename {
                Some(true)
            } else if self.no_filename {
                Some(false)
            } else {
                None
            },
            line_numbers: !self.no_line_number,
            byte_offset: self.byte_offset,
            trim: self.trim,
            stats: self.stats,
            no_messages: self.no_messages,
            pretty: self.pretty,
            quiet: self.quiet,
            vimgrep: self.vimgrep,
        }
    }

    /// Turns the flags into the plain options `cmd::search` runs on.
    pub fn into_options(self) -> Result<crate::cmd::search::SearchOptions, Error> {
        use crate::cmd::search::Mode;
        let mut paths = self.paths;
        let mut patterns = self.regexp;
        for f in &self.pattern_files {
            patterns.extend(read_pattern_file(f)?);
        }
        let from_flags = !patterns.is_empty() || !self.pattern_files.is_empty() || self.files;
        match self.pattern {
            Some(p) if from_flags => paths.insert(0, PathBuf::from(p)),
            Some(p) => patterns.push(p),
            None => {}
        }
        if self.max_results == Some(0) {
            return Err(Error::new(
                Code::InvalidArgument,
                "--max-results must be at least 1",
                "drop --max-results, or use -l/-c to only count",
            ));
        }
        let sort = match (self.sort, self.sortr) {
            (Some(k), _) => sort_key(k).map(|k| (k, false)),
            (_, Some(k)) => sort_key(k).map(|k| (k, true)),
            _ => None,
        };
        // Counting wins over listing whatever their order, as in ripgrep 13 (`-c -l` counts);
        // within each pair the last given wins (clap's overrides above).
        let mode = if self.files {
            Mode::Files
        } else if self.count && !self.only_matching {
            Mode::CountLines
        } else if self.count || self.count_matches {
            // `-c -o` counts matches, as in ripgrep.
            Mode::CountMatches
        } else if self.files_without_match {
            Mode::FilesWithoutMatch
        } else if self.files_with_matches {
            Mode::FilesWithMatches
        } else {
            Mode::Matches
        };
        Ok(crate::cmd::search::SearchOptions {
            patterns,
            walk: crate::walk::WalkOptions {
                paths,
                globs: self.globs,
                iglobs: self.iglobs,
                glob_case_insensitive: self.glob_case_insensitive,
                types: self.types,
                types_not: self.types_not,
                type_add: self.type_add,
                type_clear: self.type_clear,
                hidden: self.hidden || self.unrestricted >= 2,
                no_ignore: self.no_ignore || self.unrestricted >= 1,
                no_ignore_vcs: self.no_ignore_vcs,
                no_ignore_dot: self.no_ignore_dot,
                no_ignore_parent: self.no_ignore_parent,
                no_ignore_global: self.no_ignore_global,
                no_ignore_exclude: self.no_ignore_exclude,
                // As rg: --no-ignore leaves the --ignore-file files in force.
                ignore_files: match self.no_ignore_files {
                    true => Vec::new(),
                    false => self.ignore_files,
                },
                no_ignore_messages: self.no_ignore_messages,
                ignore_file_case_insensitive: self.ignore_file_case_insensitive,
                follow: self.follow,
                max_depth: self.max_depth,
                one_file_system: self.one_file_system,
                max_filesize: self.max_filesize,
                sort,
                stdin: None,
            },
            fixed_strings: self.fixed_strings,
            ignore_case: self.ignore_case,
            smart_case: self.smart_case,
            word: self.word_regexp,
            line: self.line_regexp,
            multiline: self.multiline,
            multiline_dotall: self.multiline_dotall && self.multiline,
            pcre2: self.pcre2,
            invert: self.invert_match,
            text: self.text,
            binary: self.binary || self.unrestricted >= 3,
            no_unicode: self.no_unicode,
            stop_on_nonmatch: self.stop_on_nonmatch,
            quiet: self.quiet,
            include_zero: self.include_zero,
            before_context: self.before_context.or(self.context).unwrap_or(0),
            after_context: self.after_context.or(self.context).unwrap_or(0),
            max_count: self.max_count,
            max_results: self.max_results,
            mode,
            // The lines of -v hold no match to replace: printed as they are, as in ripgrep
            // (its context lines do: see `invert_replace`).
            invert_replace: self.replace.clone().filter(|_| self.invert_match),
            replace: self.replace.filter(|_| !self.invert_match),
            threads: crate::walk::thread_count(self.threads),
            first_match_only: false,
            invert_context_hits: false,
        })
    }
}

fn sort_key(k: SortBy) -> Option<crate::walk::SortKey> {
    use crate::walk::SortKey;
    match k {
        SortBy::Path => Some(SortKey::Path),
        SortBy::Modified => Some(SortKey::Modified),
        SortBy::Accessed => Some(SortKey::Accessed),
        SortBy::Created => Some(SortKey::Created),
        SortBy::None => None,
    }
}

/// The patterns of a `-f` file, one per line (`-` reads stdin). A pipe (`-f <(…)`) is read to
/// its end; every read is bounded (`/dev/zero` ends in `LLM_E115`, not in exhausted memory).
fn read_pattern_file(path: &std::path::Path) -> Result<Vec<String>, Error> {
    use std::io::Read;
    let shown = crate::walk::display_path(path);
    let max = crate::fsio::MAX_INPUT_BYTES;
    const TOO_LARGE: &str = "pass -f a file of patterns, one per line, of reasonable size";
    let bytes = if path == std::path::Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                Error::new(
                    Code::PathUnreadable,
                    format!("pattern file {shown} (stdin): {e}"),
                    "check the input piped to -f -",
                )
            })?;
        bytes
    } else {
        crate::fsio::read_input(path, &shown).map_err(|mut e| {
            e.message = format!("pattern file {}", e.message);
            if e.code == Code::TargetTooLarge {
                e.remediation = TOO_LARGE.into();
            }
            e
        })?
    };
    if bytes.len() as u64 > max {
        return Err(Error::new(
            Code::TargetTooLarge,
            format!("pattern file {shown} gives more than {max} bytes"),
            TOO_LARGE,
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        Error::new(
            Code::InvalidArgument,
            format!("pattern file {shown} is not valid UTF-8"),
            "write the patterns as UTF-8 (use \\xNN escapes for other bytes)",
        )
    })?;
    Ok(text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect())
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
