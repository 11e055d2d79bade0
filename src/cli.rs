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
    /// Replace, delete, insert beside, or rename a named symbol (function, method, class…).
    Patch(PatchArgs),
    /// Write shell completions and man pages (for packagers and this repository).
    #[command(hide = true)]
    Generate(GenerateArgs),
}

/// `llm search [OPTIONS] PATTERN [PATH]...`
#[derive(Debug, Args)]
#[command(
    after_help = "JSON: data.matches[] each have match_id, span, matched_text, line_text, \
context_before[], context_after[] (and replacement with -r); data.files[] carry each file's SHA-256 \
checksum for a later `llm transform`.\n\nExamples:\n  llm search 'fn main' src\n  llm search -F 'a.b()' -t rust --json\n  \
llm search -r 'new_$1' 'old_(\\w+)' --json | llm transform"
)]
pub struct SearchArgs {
    /// Regular expression (Rust regex syntax), or a literal with -F. With -e, the first
    /// positional argument is a path instead.
    #[arg(value_name = "PATTERN", required_unless_present_any = ["regexp", "type_list"])]
    pub pattern: Option<String>,
    /// Files or directories to search (default: the current directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A pattern to search for (repeatable; a line matching any of them matches). Use it for
    /// patterns that start with `-`.
    #[arg(short = 'e', long = "regexp", value_name = "PATTERN")]
    pub regexp: Vec<String>,
    /// Treat the pattern as a literal string, not a regex.
    #[arg(short = 'F', long)]
    pub fixed_strings: bool,
    /// Case-insensitive search.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Case-insensitive unless the pattern has an uppercase letter.
    #[arg(short = 'S', long)]
    pub smart_case: bool,
    /// Only match whole words.
    #[arg(short = 'w', long)]
    pub word_regexp: bool,
    /// Only match whole lines.
    #[arg(short = 'x', long)]
    pub line_regexp: bool,
    /// Let matches span lines (`\n` can be matched; spans cover every line).
    #[arg(short = 'U', long)]
    pub multiline: bool,
    /// With -U, make `.` match newlines too.
    #[arg(long, requires = "multiline")]
    pub multiline_dotall: bool,
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
    /// Only search files of this type (repeatable): rust, py, and ripgrep's type table.
    #[arg(short = 't', long = "type", value_name = "TYPE")]
    pub types: Vec<String>,
    /// Skip files of this type (repeatable).
    #[arg(short = 'T', long = "type-not", value_name = "TYPE")]
    pub types_not: Vec<String>,
    /// List the known file types and their globs, then exit.
    #[arg(long)]
    pub type_list: bool,
    /// Search hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Do not respect .gitignore, .ignore and similar files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Follow symbolic links.
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// At most NUM matches per file.
    #[arg(short = 'm', long, value_name = "NUM")]
    pub max_count: Option<usize>,
    /// At most NUM matches in the whole run; the rest are still counted (status `partial`).
    #[arg(long, value_name = "NUM")]
    pub max_results: Option<usize>,
    /// Skip files larger than this (bytes, or with a K, M or G suffix).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_filesize: Option<u64>,
    /// Only list the files with at least one match.
    #[arg(short = 'l', long)]
    pub files_with_matches: bool,
    /// Only show the number of matching lines per file.
    #[arg(short = 'c', long, conflicts_with = "files_with_matches")]
    pub count: bool,
    /// Only show the number of matches per file.
    #[arg(long, conflicts_with_all = ["files_with_matches", "count"])]
    pub count_matches: bool,
    /// Replacement preview for every match: `$1`, `${name}` and `$$` expand; adds `replacement`
    /// to each match (apply it with `llm transform`).
    #[arg(short = 'r', long, value_name = "TEXT")]
    pub replace: Option<String>,
    /// In human output, do not print lines longer than NUM bytes (a summary instead).
    #[arg(short = 'M', long, value_name = "NUM")]
    pub max_columns: Option<usize>,
    /// Group matches under a file heading (default on a terminal).
    #[arg(long, overrides_with = "no_heading")]
    pub heading: bool,
    /// Print the path on every line (default when piped).
    #[arg(long, overrides_with = "heading")]
    pub no_heading: bool,
    /// Accepted for ripgrep compatibility: line and column numbers are always shown.
    #[arg(short = 'n', long = "line-number", hide = true)]
    pub line_number: bool,
    /// Accepted for ripgrep compatibility: columns are always shown.
    #[arg(long, hide = true)]
    pub column: bool,
    /// Number of threads (0 = one per core).
    #[arg(short = 'j', long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
}

/// Options every mutation shares (transform, patch, write).
#[derive(Debug, Args, Clone)]
pub struct MutationArgs {
    /// Workspace root: nothing is written outside it (by `..` or through a symlink).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Allow writing outside --root.
    #[arg(long)]
    pub allow_outside_root: bool,
    /// Compute everything and print a unified diff; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write even if the change introduces syntax errors (they are reported as warnings).
    #[arg(long)]
    pub force: bool,
    /// Refuse (status `rejected`) unless the file's SHA-256 is this, e.g. the `checksum` of a
    /// prior `llm search`/`llm find`.
    #[arg(long, value_name = "SHA256")]
    pub expected_checksum: Option<String>,
    /// Keep new text's line endings byte for byte (by default `\n` in new text becomes `\r\n`
    /// in a CRLF file).
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

/// `llm patch --file FILE --symbol NAME [selection] [ACTION] [OPTIONS]`
#[derive(Debug, Args)]
#[command(
    after_help = "The symbol's span covers its attributes (#[...]), doc comments (///, //!, /** */) \
and Python decorators directly attached to it; replace and delete include them, --body keeps them.\n\n\
New text is re-indented to where it goes (send a method at column 0 or at any depth), with tabs or \
spaces as the file uses. Stdin is the new text, or the JSON output of `llm find` for one symbol \
(then its checksum guards the patch and --with/--with-text give the text).\n\nExamples:\n  \
llm patch --file src/lib.rs --symbol Parser::parse --with new_parse.rs\n  \
llm patch --file app.py --symbol Shape.area --body --with-text 'return 0'\n  \
llm patch --file src/util.rs --symbol inc --rename increment --dry-run"
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
    /// Replace only the body (block of a Rust fn/impl/trait/mod; suite of a Python def/class).
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
    /// package, Python's compile()), before and after: errors the patch introduces reject it and
    /// the file is restored. A checker that is not installed rejects, never passes.
    #[arg(long)]
    pub check: bool,
    /// Where --rename looks for references (repeatable; default: --root).
    #[arg(long = "in", value_name = "PATH", requires = "rename")]
    pub rename_in: Vec<PathBuf>,
    #[command(flatten)]
    pub mutation: MutationArgs,
}

/// `llm generate`
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Directory under which `completions/` and `man/` are written.
    #[arg(long, default_value = ".")]
    pub out_dir: PathBuf,
}

/// Parses `10`, `10K`, `2M`, `1G` into bytes.
fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('k' | 'K') => (&s[..s.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&s[..s.len() - 1], 1 << 20),
        Some('g' | 'G') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("`{s}` is not a size: use bytes or a K, M or G suffix"))
}

impl SearchArgs {
    /// Presentation choices for human output.
    pub fn view(&self) -> crate::output::human::search::SearchView {
        crate::output::human::search::SearchView {
            heading: if self.heading {
                Some(true)
            } else if self.no_heading {
                Some(false)
            } else {
                None
            },
            max_columns: self.max_columns,
        }
    }

    /// Turns the flags into the plain options `cmd::search` runs on.
    pub fn into_options(self) -> Result<crate::cmd::search::SearchOptions, Error> {
        let mut paths = self.paths;
        let patterns = if self.regexp.is_empty() {
            vec![self.pattern.unwrap_or_default()]
        } else {
            if let Some(p) = self.pattern {
                paths.insert(0, PathBuf::from(p));
            }
            self.regexp
        };
        if self.max_results == Some(0) {
            return Err(Error::new(
                Code::InvalidArgument,
                "--max-results must be at least 1",
                "drop --max-results, or use -l/-c to only count",
            ));
        }
        Ok(crate::cmd::search::SearchOptions {
            patterns,
            walk: crate::walk::WalkOptions {
                paths,
                globs: self.globs,
                types: self.types,
                types_not: self.types_not,
                hidden: self.hidden,
                no_ignore: self.no_ignore,
                follow: self.follow,
                max_filesize: self.max_filesize,
            },
            fixed_strings: self.fixed_strings,
            ignore_case: self.ignore_case,
            smart_case: self.smart_case,
            word: self.word_regexp,
            line: self.line_regexp,
            multiline: self.multiline,
            multiline_dotall: self.multiline_dotall,
            before_context: self.before_context.or(self.context).unwrap_or(0),
            after_context: self.after_context.or(self.context).unwrap_or(0),
            max_count: self.max_count,
            max_results: self.max_results,
            mode: if self.files_with_matches {
                crate::cmd::search::Mode::FilesWithMatches
            } else if self.count {
                crate::cmd::search::Mode::CountLines
            } else if self.count_matches {
                crate::cmd::search::Mode::CountMatches
            } else {
                crate::cmd::search::Mode::Matches
            },
            replace: self.replace,
            threads: crate::walk::thread_count(self.threads),
        })
    }
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
        assert_eq!(parse_size("1m"), Ok(1 << 20));
        assert!(parse_size("x").is_err());
    }
}
