//! `llm search`'s flags of ripgrep's output (clap): `--passthru`, the field and path separators,
//! `--colors`, `--sort-files`, line or block buffering, `--debug`/`--trace`. Flattened into
//! [`super::SearchArgs`]; turned into plain values for the printer and the search here.

use crate::error::{Code, Error};
use clap::Args;

/// ripgrep's output flags that `SearchArgs` flattens in.
#[derive(Debug, Default, Args)]
pub struct SearchOutputArgs {
    /// Print every line of each file searched, those that do not match as context lines (of
    /// --passthru and -A/-B/-C the last given wins, as rg). JSON: each match's context_before
    /// holds the lines since the previous match (the first: since the file's start), the last
    /// match's context_after the rest of the file; no line is given twice.
    #[arg(
        long,
        visible_alias = "passthrough",
        overrides_with_all = ["after_context", "before_context", "context"]
    )]
    pub passthru: bool,
    /// NUL ends each line (a record) instead of `\n`, as rg: patterns may match `\n`, and no
    /// binary detection (as -a). Human output numbers, prints and ends records (with NUL);
    /// JSON spans keep the file's real lines.
    #[arg(long)]
    pub null_data: bool,
    /// Human output: what follows the path, line number, column and byte offset on a
    /// matching line (default `:`; escapes such as `\t` and `\x7F` are understood, as rg).
    #[arg(long, value_name = "SEPARATOR", allow_hyphen_values = true)]
    pub field_match_separator: Option<String>,
    /// Human output: what follows the path, line number and byte offset on a context line
    /// (default `-`; escapes as in --field-match-separator).
    #[arg(long, value_name = "SEPARATOR", allow_hyphen_values = true)]
    pub field_context_separator: Option<String>,
    /// Human output: the byte that separates the parts of printed paths instead of `/`
    /// (exactly one byte, escapes understood; empty: `/`). JSON paths keep `/`.
    #[arg(long, value_name = "SEPARATOR", allow_hyphen_values = true)]
    pub path_separator: Option<String>,
    /// Human output with colour on: change a colour, as rg: `{type}:{attribute}:{value}`,
    /// type path, line, column or match; attribute fg or bg (black, blue, green, red, cyan,
    /// magenta, yellow, white, 0-255, or r,g,b) or style (bold, nobold, intense, nointense,
    /// underline, nounderline); `{type}:none` clears the type's colours. Repeatable, later
    /// specs overriding earlier ones.
    #[arg(long, value_name = "COLOR_SPEC", allow_hyphen_values = true)]
    pub colors: Vec<String>,
    /// ripgrep's older spelling of `--sort path` (the last of --sort, --sortr and
    /// --sort-files wins).
    #[arg(long, overrides_with_all = ["sort", "sortr", "no_sort_files"])]
    pub sort_files: bool,
    /// Cancels --sort-files (files come in path order all the same).
    #[arg(long, hide = true, overrides_with = "sort_files")]
    pub no_sort_files: bool,
    /// Write each line of output as soon as it is printed (the default on a terminal), in
    /// every format.
    #[arg(long, overrides_with_all = ["block_buffered", "no_line_buffered"])]
    pub line_buffered: bool,
    /// Write output in large blocks (the default when stdout is not a terminal), in every
    /// format.
    #[arg(long, overrides_with_all = ["line_buffered", "no_block_buffered"])]
    pub block_buffered: bool,
    #[arg(long, hide = true, overrides_with = "line_buffered")]
    pub no_line_buffered: bool,
    #[arg(long, hide = true, overrides_with = "block_buffered")]
    pub no_block_buffered: bool,
    /// Print what llm decides on stderr (files and directories skipped and by which rule,
    /// threads, the regex engine); stdout is unchanged.
    #[arg(long, overrides_with = "trace")]
    pub debug: bool,
    /// As --debug, with more detail (the crates' own trace messages too).
    #[arg(long, overrides_with = "debug")]
    pub trace: bool,
}

/// How standard output is flushed (`--line-buffered`, `--block-buffered`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffering {
    /// Line by line on a terminal, in blocks otherwise (as rg).
    Auto,
    Line,
    Block,
}

/// How much `--debug`/`--trace` say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DebugLevel {
    Off,
    Debug,
    Trace,
}

impl SearchOutputArgs {
    /// The human printer's field and path separators (escapes understood, as rg; a path
    /// separator of more than one byte is refused, as rg).
    pub fn fields(&self) -> Result<crate::output::human::search::Fields, Error> {
        let mut fields = crate::output::human::search::Fields::default();
        if let Some(s) = &self.field_match_separator {
            fields.matched = grep_cli::unescape(s);
        }
        if let Some(s) = &self.field_context_separator {
            fields.context = grep_cli::unescape(s);
        }
        if let Some(s) = &self.path_separator {
            let sep = grep_cli::unescape(s);
            match sep[..] {
                [] => {}
                [b] => fields.path = Some(b),
                _ => {
                    return Err(Error::new(
                        Code::InvalidArgument,
                        format!(
                            "--path-separator must be exactly one byte, but `{s}` is {} bytes",
                            sep.len()
                        ),
                        "pass one byte, such as `\\` or `\\x5C` (escapes are understood)",
                    ))
                }
            }
        }
        Ok(fields)
    }

    /// rg's colours as `--colors` changes them (a malformed spec is refused, as rg, even
    /// when colour is off).
    pub fn colors(&self) -> Result<crate::output::human::search::Colors, Error> {
        crate::output::human::search::Colors::from_specs(&self.colors).map_err(|e| {
            Error::new(
                Code::InvalidArgument,
                e.to_string(),
                "pass {type}:{attribute}:{value}, such as `--colors match:fg:yellow`, \
                 `--colors path:bg:0,0,255`, `--colors line:style:bold` or `--colors column:none`",
            )
        })
    }

    /// `--line-buffered` / `--block-buffered` (the last given wins; each negation cancels).
    pub fn buffering(&self) -> Buffering {
        if self.line_buffered {
            Buffering::Line
        } else if self.block_buffered {
            Buffering::Block
        } else {
            Buffering::Auto
        }
    }

    /// `--debug` / `--trace`.
    pub fn debug_level(&self) -> DebugLevel {
        if self.trace {
            DebugLevel::Trace
        } else if self.debug {
            DebugLevel::Debug
        } else {
            DebugLevel::Off
        }
    }
}
