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
    #[arg(
        short = 'e',
        long = "regexp",
        value_name = "PATTERN",
        allow_hyphen_values = true
    )]
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
