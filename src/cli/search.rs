//! `llm search`'s flags (clap) and how they become [`crate::cmd::search::SearchOptions`].

use super::parse_size;
use crate::error::{Code, Error};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `llm search [OPTIONS] PATTERN [PATH]...`
#[derive(Debug, Args)]
#[command(
    args_override_self = true,
    after_help = "JSON: data.matches[] each have match_id, span, matched_text, line_text, \
context_before[], context_after[] (and replacement with -r); data.files[] carry each file's SHA-256 \
checksum for a later `llm transform`. With -v each match spans a whole line that does not match; \
--files and --files-without-match list data.files[] (with checksums) and no matches. \
-H, -I, -N, -0, -b, --trim, -o, -p, --stats, --no-column, --context-separator, \
--field-match-separator, --field-context-separator and --path-separator only change human output.\n\n\
A flag given twice keeps its last value (`-C1 -C0` is `-C0`), as in ripgrep.\n\nExamples:\n  \
llm search 'fn main' src\n  llm search -F 'a.b()' -t rust --json\n  \
llm search -r 'new_$1' 'old_(\\w+)' --json | llm transform"
)]
pub struct SearchArgs {
    /// Regular expression (Rust regex syntax), or a literal with -F. With -e, -f or --files,
    /// the first positional argument is a path instead.
    #[arg(value_name = "PATTERN", required_unless_present_any = ["regexp", "type_list", "pcre2_version", "pattern_files", "files"])]
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
    /// The regex engine: `default` (Rust's regex), `pcre2` (as -P), or `auto` (Rust's, and
    /// PCRE2 for a pattern it cannot compile: look-around, backreferences). The last of
    /// --engine, -P and --no-pcre2 wins.
    #[arg(long, value_enum, value_name = "ENGINE", overrides_with_all = ["pcre2", "no_pcre2", "auto_hybrid_regex"])]
    pub engine: Option<EngineArg>,
    /// ripgrep's older spelling of `--engine auto`.
    #[arg(long, hide = true, overrides_with_all = ["engine", "pcre2", "no_pcre2"])]
    pub auto_hybrid_regex: bool,
    /// The size limit of the compiled regex (bytes, or a K, M or G suffix), as ripgrep.
    #[arg(long, value_name = "NUM+SUFFIX?", value_parser = parse_size)]
    pub regex_size_limit: Option<u64>,
    /// The size limit of the regex's lazy DFA cache (bytes, or a K, M or G suffix), as ripgrep.
    #[arg(long, value_name = "NUM+SUFFIX?", value_parser = parse_size)]
    pub dfa_size_limit: Option<u64>,
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
    /// Print the version of PCRE2 that -P uses and whether its JIT is available, then exit.
    #[arg(long)]
    pub pcre2_version: bool,
    /// Search hidden files and directories.
    #[arg(short = '.', long)]
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
    /// In human output, the line between groups of context lines that are not contiguous
    /// (default `--`; escapes such as `\t` and `\x7F` are understood, as ripgrep).
    #[arg(
        long,
        value_name = "SEPARATOR",
        overrides_with = "no_context_separator"
    )]
    pub context_separator: Option<String>,
    /// In human output, nothing between groups of context lines.
    #[arg(long, overrides_with = "context_separator")]
    pub no_context_separator: bool,
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
    // ripgrep's negations of the flags above (hidden, as in rg): of a flag and its negation
    // the last wins, which clap's override does; nothing reads these fields.
    #[arg(long = "no-hidden", overrides_with = "hidden", hide = true)]
    pub no_hidden: bool,
    #[arg(long = "no-follow", overrides_with = "follow", hide = true)]
    pub no_follow: bool,
    #[arg(long = "no-text", overrides_with = "text", hide = true)]
    pub no_text: bool,
    #[arg(long = "no-binary", overrides_with = "binary", hide = true)]
    pub no_binary: bool,
    #[arg(long = "no-crlf", overrides_with = "crlf", hide = true)]
    pub no_crlf: bool,
    #[arg(
        long = "no-fixed-strings",
        overrides_with = "fixed_strings",
        hide = true
    )]
    pub no_fixed_strings: bool,
    #[arg(
        long = "no-glob-case-insensitive",
        overrides_with = "glob_case_insensitive",
        hide = true
    )]
    pub no_glob_case_insensitive: bool,
    #[arg(
        long = "no-ignore-file-case-insensitive",
        overrides_with = "ignore_file_case_insensitive",
        hide = true
    )]
    pub no_ignore_file_case_insensitive: bool,
    #[arg(
        long = "no-max-columns-preview",
        overrides_with = "max_columns_preview",
        hide = true
    )]
    pub no_max_columns_preview: bool,
    #[arg(long = "no-multiline", overrides_with = "multiline", hide = true)]
    pub no_multiline: bool,
    #[arg(
        long = "no-multiline-dotall",
        overrides_with = "multiline_dotall",
        hide = true
    )]
    pub no_multiline_dotall: bool,
    #[arg(
        long = "no-one-file-system",
        overrides_with = "one_file_system",
        hide = true
    )]
    pub no_one_file_system: bool,
    #[arg(long = "no-pcre2", overrides_with = "pcre2", hide = true)]
    pub no_pcre2: bool,
    #[arg(long = "no-stats", overrides_with = "stats", hide = true)]
    pub no_stats: bool,
    #[arg(long = "no-trim", overrides_with = "trim", hide = true)]
    pub no_trim: bool,
    #[arg(long = "ignore", overrides_with = "no_ignore", hide = true)]
    pub ignore: bool,
    #[arg(long = "ignore-vcs", overrides_with = "no_ignore_vcs", hide = true)]
    pub ignore_vcs: bool,
    #[arg(long = "ignore-dot", overrides_with = "no_ignore_dot", hide = true)]
    pub ignore_dot: bool,
    #[arg(
        long = "ignore-parent",
        overrides_with = "no_ignore_parent",
        hide = true
    )]
    pub ignore_parent: bool,
    #[arg(
        long = "ignore-global",
        overrides_with = "no_ignore_global",
        hide = true
    )]
    pub ignore_global: bool,
    #[arg(
        long = "ignore-exclude",
        overrides_with = "no_ignore_exclude",
        hide = true
    )]
    pub ignore_exclude: bool,
    #[arg(long = "ignore-files", overrides_with = "no_ignore_files", hide = true)]
    pub respect_ignore_files: bool,
    #[arg(
        long = "ignore-messages",
        overrides_with = "no_ignore_messages",
        hide = true
    )]
    pub ignore_messages: bool,
    #[arg(long = "messages", overrides_with = "no_messages", hide = true)]
    pub messages: bool,
    #[arg(long = "require-git", overrides_with = "no_require_git", hide = true)]
    pub require_git: bool,
    #[arg(long = "unicode", overrides_with_all = ["no_unicode", "no_pcre2_unicode"], hide = true)]
    pub unicode: bool,
    /// Show no column in human output (`--column` shows it again; JSON always has it).
    #[arg(long, overrides_with = "column")]
    pub no_column: bool,
    /// Accepted for ripgrep's sake: llm chooses how it reads files.
    #[arg(long, overrides_with = "no_mmap", hide = true)]
    pub mmap: bool,
    /// Accepted for ripgrep's sake: llm chooses how it reads files.
    #[arg(long, overrides_with = "mmap", hide = true)]
    pub no_mmap: bool,
    /// ripgrep's older spelling of --no-unicode (for -P).
    #[arg(long, overrides_with_all = ["unicode", "pcre2_unicode"], hide = true)]
    pub no_pcre2_unicode: bool,
    /// ripgrep's older spelling of --unicode.
    #[arg(long, overrides_with_all = ["no_unicode", "no_pcre2_unicode"], hide = true)]
    pub pcre2_unicode: bool,
    /// Number of threads (0 = one per core).
    #[arg(short = 'j', long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
    /// The encoding files are decoded from before they are searched: any WHATWG label
    /// (`latin1`, `shift_jis`, `utf-16le`…), `auto` (the default: a UTF-16 byte-order mark is
    /// decoded) or `none` (bytes as they are). JSON spans still address the bytes on disk;
    /// UTF-16 results are spelled `<PATH | UTF-16LE>` there (not mutation targets).
    #[arg(short = 'E', long, value_name = "ENCODING")]
    pub encoding: Option<String>,
    /// Search what COMMAND PATH writes to standard output (the file is its standard input
    /// too) instead of each file, as rg. In JSON such results are spelled `<PATH | COMMAND>`:
    /// no mutation takes them. An empty COMMAND runs none, as rg. Of --pre and -z, the
    /// last wins (as rg 13).
    #[arg(long, value_name = "COMMAND", overrides_with_all = ["no_pre", "search_zip"],
          value_parser = clap::builder::TypedValueParser::map(clap::builder::OsStringValueParser::new(), PathBuf::from))]
    pub pre: Option<PathBuf>,
    /// Run no --pre command (overrides an earlier --pre).
    #[arg(long, overrides_with = "pre")]
    pub no_pre: bool,
    /// Only files matching GLOB go through --pre (repeatable; `!` excludes).
    #[arg(long, value_name = "GLOB")]
    pub pre_glob: Vec<String>,
    /// Search compressed files (.gz .tgz .bz2 .tbz2 .xz .txz .lz4 .lzma .br .zst .zstd .Z)
    /// through the program rg uses (gzip, bzip2, xz, lz4, brotli, zstd, uncompress). In JSON
    /// such results are spelled `<PATH | gzip -d -c>`: no mutation takes them. Of -z and
    /// --pre, the last wins (as rg 13).
    #[arg(short = 'z', long, overrides_with_all = ["no_search_zip", "pre"])]
    pub search_zip: bool,
    /// Do not decompress files (overrides an earlier -z).
    #[arg(long, overrides_with = "search_zip")]
    pub no_search_zip: bool,
    /// ripgrep's remaining output flags (`--passthru`, separators, buffering, `--debug`).
    #[command(flatten)]
    pub output: super::search_output::SearchOutputArgs,
}

/// `--engine` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Rust's regex.
    Default,
    /// PCRE2 (as -P).
    Pcre2,
    /// Rust's regex, and PCRE2 for a pattern it cannot compile.
    Auto,
}

/// A size in bytes as a `usize` (a limit past the address space is no limit).
fn size_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
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
            no_column: self.no_column,
            context_separator: match (&self.context_separator, self.no_context_separator) {
                (_, true) => None,
                (Some(sep), false) => Some(grep_cli::unescape(sep)),
                (None, false) => Some(b"--".to_vec()),
            },
            // A bad --path-separator is refused by `into_options`.
            fields: self.output.fields().unwrap_or_default(),
            // A bad --colors spec is refused by `into_options` too.
            colors: self.output.colors().unwrap_or_default(),
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
        let encoding = match &self.encoding {
            Some(e) => crate::cmd::search::EncodingChoice::parse(e)?,
            None => Default::default(),
        };
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
        self.output.fields()?;
        self.output.colors()?;
        if self.output.null_data && (self.pcre2 || self.engine == Some(EngineArg::Pcre2)) {
            return Err(Error::new(
                Code::InvalidArgument,
                "--null-data cannot be used with -P/--engine pcre2 (PCRE2 has no NUL line terminator here)",
                "drop -P (Rust's regex searches NUL-terminated records), or drop --null-data",
            ));
        }
        let sort = match (self.sort, self.sortr) {
            // --sort-files (clap keeps the last of it, --sort and --sortr).
            _ if self.output.sort_files => Some((crate::walk::SortKey::Path, false)),
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
            pcre2: self.pcre2 || self.engine == Some(EngineArg::Pcre2),
            engine_auto: self.auto_hybrid_regex || self.engine == Some(EngineArg::Auto),
            regex_size_limit: self.regex_size_limit.map(size_usize),
            dfa_size_limit: self.dfa_size_limit.map(size_usize),
            invert: self.invert_match,
            // --null-data implies -a, as rg.
            text: self.text || self.output.null_data,
            binary: self.binary || self.unrestricted >= 3,
            no_unicode: self.no_unicode || self.no_pcre2_unicode,
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
            input: crate::cmd::search::InputOptions {
                encoding,
                pre: self
                    .pre
                    .filter(|p| !self.no_pre && !p.as_os_str().is_empty()),
                pre_globs: self.pre_glob,
                search_zip: self.search_zip && !self.no_search_zip,
            },
            passthru: self.output.passthru,
            null_data: self.output.null_data,
            null_data_records: false,
            full_counts: false,
            passthru_unmatched: false,
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
