//! `llm search` glue: picks the printer for the format and streams file results into it.

use crate::cli::SearchArgs;
use crate::cmd::search::{
    self, FileList, FileMatches, FileResult, SearchData, SearchMatch, SearchOptions, SearchStats,
};
use crate::envelope::{JsonResponse, Status};
use crate::output::human::search::SearchHuman;
use crate::output::human::Style;
use crate::output::json::search::Layout;
use crate::output::{json, query_exit_code, Format, Printer};
use std::io::{self, Write};

/// Runs `llm search` and prints its result; returns the exit code.
pub fn run(args: SearchArgs, printer: &mut Printer) -> io::Result<u8> {
    crate::memory::purge_at_once();
    if args.type_list {
        return type_list(printer);
    }
    if args.pcre2_version {
        return pcre2_version(printer);
    }
    match args.output.debug_level() {
        crate::cli::DebugLevel::Off => {}
        crate::cli::DebugLevel::Debug => crate::output::debug_log::install(log::LevelFilter::Debug),
        crate::cli::DebugLevel::Trace => crate::output::debug_log::install(log::LevelFilter::Trace),
    }
    let view = args.view();
    printer.set_line_buffered(match args.output.buffering() {
        crate::cli::Buffering::Line => Some(true),
        crate::cli::Buffering::Block => Some(false),
        crate::cli::Buffering::Auto => None,
    });
    let mut opts = match args.into_options() {
        Ok(o) => o,
        Err(e) => return crate::fail_query(printer, "search", serde_json::Value::Null, &e),
    };
    let query = opts.query_echo();
    // `-`: standard input, read into a file that lasts the run.
    let _stdin = match crate::walk::spool_stdin(&mut opts.walk) {
        Ok(s) => s,
        Err(e) => return crate::fail_query(printer, "search", query, &e),
    };
    let single_file = opts.walk.paths.len() == 1 && opts.walk.paths[0].is_file();
    let format = printer.format;
    let pretty = printer.tty || view.pretty;
    let started = std::time::Instant::now();
    if view.quiet {
        let stats = (view.stats && format == Format::Human).then_some(started);
        return quiet(&mut opts, printer, query, view.no_messages, stats);
    }

    let mut matches: Vec<SearchMatch> = Vec::new();
    let mut files = FileList::default();
    let mut human = SearchHuman::new(
        Style {
            on: printer.color || view.pretty,
        },
        view.heading.unwrap_or(printer.tty),
        view.clone(),
        opts.mode,
        opts.before_context + opts.after_context > 0 || opts.passthru,
        single_file,
        opts.invert,
    );
    // --passthru alone prints no `--` between files, as rg (its lines are all contiguous).
    human.file_break = opts.before_context + opts.after_context > 0;
    // As rg, --passthru prints the files without a match too, every line as context (not
    // under --max-results, whose results are not rendered as they are found).
    opts.passthru_unmatched =
        format == Format::Human && opts.passthru && opts.max_results.is_none();
    // --null-data: human output prints NUL-terminated records (`--files` lists paths as rg).
    let records = format == Format::Human && opts.null_data && opts.mode != search::Mode::Files;
    opts.null_data_records = records;
    opts.full_counts = format == Format::Human && view.stats;
    if records {
        human.for_records();
    }
    human.replace = opts.replace.is_some() || opts.invert_replace.is_some();
    // With -v, the matches in context lines are replaced, highlighted, printed by -o, or
    // their columns shown (as `rg --column`; --vimgrep prints a line per match).
    opts.invert_context_hits = format == Format::Human
        && opts.invert
        && (human.replace
            || human.style.on
            || view.only_matching
            || view.stats
            || human.context_columns);
    // Plain human lines show each matching line once, with the column of its first match:
    // the other matches need not be found (with -r, -U or --max-results they count).
    opts.first_match_only = format == Format::Human
        && human.plain()
        && opts.mode == search::Mode::Matches
        && opts.replace.is_none()
        && !view.stats
        && !opts.multiline
        && opts.max_results.is_none();
    // Matches are rendered by the search's worker threads: human text, JSON lines, or (for
    // compact JSON) the comma-separated members of `data.matches`, streamed into the envelope.
    let render_json = |r: &FileResult, m: &FileMatches, buf: &mut Vec<u8>| {
        json::search::matches(
            buf,
            &r.file.file_path,
            r.file.file_path_lossy,
            m,
            Layout::Array,
        );
    };
    let render_jsonl = |r: &FileResult, m: &FileMatches, buf: &mut Vec<u8>| {
        json::search::matches(
            buf,
            &r.file.file_path,
            r.file.file_path_lossy,
            m,
            Layout::Lines,
        );
    };
    let render_human = |r: &FileResult, m: &FileMatches, buf: &mut Vec<u8>| {
        let _ = human.body_of(buf, r, m);
    };
    let render: Option<search::Render> = match format {
        Format::Human => Some(&render_human),
        Format::Json if !pretty => Some(&render_json),
        Format::Json => None,
        Format::Jsonl => Some(&render_jsonl),
    };
    // Compact JSON streams `data.matches` (see `StreamedArray`): the draft envelope has what
    // the final one will have before `matches`, status `ok` included, since the array only
    // opens once a match has come and, without --max-results (which does not stream), a
    // match means `ok`.
    let draft = JsonResponse::new(
        "search",
        Status::Ok,
        query.clone(),
        search_data(
            &opts,
            Vec::new(),
            FileList::default(),
            0,
            Some(0),
            Default::default(),
        ),
        Vec::new(),
    );
    let mut streamed = json::StreamedArray::new(&draft, "matches")?;
    // With several workers, this thread hands them the walk's files and their results on in
    // order: the output is written behind it, so that it never waits on the pipe meanwhile.
    if opts.threads >= WRITE_BEHIND_THREADS {
        printer.write_behind()?;
    }
    let line_buffered = printer.line_buffered;
    let hold = injected_hold();
    let out = printer.out();
    // `--stats`: the bytes of matches and context printed (rg 13's count: neither the lines
    // between files nor what -c and -l print), and the time the search itself took.
    let mut printed = 0usize;
    let searching = std::time::Instant::now();
    let outcome = search::run(&opts, format != Format::Human, render, &mut |r| {
        match format {
            Format::Human if records => {
                // The printer's lines are records: each `\n` it wrote ends one (a NUL), and
                // each NUL it wrote is a record's `\n` (see `cmd::search::swap_terminators`).
                let mut text = Vec::new();
                printed += human.file(&mut text, r)?;
                search::swap_terminators(&mut text);
                out.write_all(&text)?;
            }
            Format::Human => {
                printed += human.file(out, r)?;
            }
            Format::Json => {
                match &r.rendered {
                    Some(bytes) => streamed.members(out, bytes)?,
                    None => matches.append(&mut r.matches),
                }
                if !r.more {
                    files.push(std::mem::take(&mut r.file));
                }
            }
            Format::Jsonl => {
                match &r.rendered {
                    Some(bytes) => out.write_all(bytes)?,
                    None => {
                        for m in &r.matches {
                            json::tagged_line(out, "match", m)?;
                        }
                    }
                }
                if !r.more {
                    files.push(std::mem::take(&mut r.file));
                }
            }
        }
        // Line-buffered (a terminal, --line-buffered): each file's lines go out as they
        // are printed, in every format.
        if line_buffered {
            out.flush()?;
        }
        if let Some(path) = &hold {
            hold_until(path);
        }
        Ok(())
    });
    let searched_in = searching.elapsed();
    let summary = match outcome {
        Ok(Ok(s)) => s,
        Ok(Err(io_err)) => return Err(io_err),
        Err(e) => return crate::fail_query(printer, "search", query, &e),
    };
    let code = query_exit_code(summary.status, &summary.diagnostics);
    if format == Format::Human {
        if view.stats {
            let times = (searched_in, started.elapsed());
            print_stats(printer.out(), &summary, printed, times)?;
        }
        // A walked binary file that stopped after a match was said so on stdout, after its
        // matches, as rg does (see `SearchHuman::binary_stopped`); not again on stderr.
        let stopped = crate::error::Code::BinaryStopped.id();
        let messages: Vec<_> = (summary.diagnostics.iter())
            .filter(|d| d.code.as_deref() != Some(stopped))
            .cloned()
            .collect();
        if !view.no_messages && !messages.is_empty() {
            // All of stdout first (a writer behind holds up to 2 MiB of it): read through
            // `2>&1`, the messages come after the matches, not among their last lines.
            printer.flush()?;
            printer.diagnostics_to_stderr(&messages);
        }
        return Ok(code);
    }
    let data = search_data(
        &opts,
        matches,
        files,
        summary.match_count,
        summary.total_count,
        summary.stats,
    );
    let mut env = draft;
    env.status = summary.status;
    env.partial = summary.status == Status::Partial;
    env.data = Some(data);
    env.diagnostics = summary.diagnostics;
    let out = printer.out();
    match format {
        Format::Json if render.is_some() => streamed.finish(out, &env)?,
        Format::Json => json::envelope(out, &env, pretty)?,
        _ => json::tagged_line(out, "summary", &env)?,
    }
    Ok(code)
}

/// The JSON `data` of a search.
fn search_data(
    opts: &SearchOptions,
    matches: Vec<SearchMatch>,
    files: FileList,
    match_count: usize,
    total_count: Option<usize>,
    stats: SearchStats,
) -> SearchData {
    SearchData {
        pattern: opts.patterns.first().cloned().unwrap_or_default(),
        patterns: (opts.patterns.len() > 1).then(|| opts.patterns.clone()),
        matches,
        files,
        match_count,
        total_count,
        stats,
    }
}

/// `-q`: the search stops at the first match; nothing is printed on stdout, in any format
/// (problems go to stderr, unless `--no-messages`). As in ripgrep, a match means exit 0 even
/// when a path failed: the question `-q` answers is whether there is a match.
///
/// With `--stats` (human output; `stats` is when the run started), the whole search is done
/// and its block printed, as rg 13 does (it never stops early when it counts).
fn quiet(
    opts: &mut SearchOptions,
    printer: &mut Printer,
    query: serde_json::Value,
    no_messages: bool,
    stats: Option<std::time::Instant>,
) -> io::Result<u8> {
    // What -q answers is whether something matched, whatever listing was asked for (rg 13:
    // `-q --files-without-match zzz` exits 1).
    if opts.mode != search::Mode::Files {
        opts.mode = search::Mode::FilesWithMatches;
    }
    opts.max_results = None;
    opts.quiet = stats.is_none();
    opts.full_counts = stats.is_some();
    let searching = std::time::Instant::now();
    match search::run(opts, false, None, &mut |_| Ok(())) {
        Ok(Ok(s)) => {
            if let Some(started) = stats {
                let times = (searching.elapsed(), started.elapsed());
                print_stats(printer.out(), &s, 0, times)?;
            }
            if !no_messages {
                printer.diagnostics_to_stderr(&s.diagnostics);
            }
            Ok(if s.status == Status::Ok {
                0
            } else {
                query_exit_code(s.status, &s.diagnostics)
            })
        }
        Ok(Err(e)) => Err(e),
        Err(e) => {
            // The failure still goes to stderr, as a human line.
            let format = printer.format;
            printer.format = Format::Human;
            let code = crate::fail_query(printer, "search", query, &e);
            printer.format = format;
            code
        }
    }
}

/// `--stats` in human output, as ripgrep words it: `printed`, the bytes of the results;
/// `times`, the search's and the whole run's.
fn print_stats(
    out: &mut impl Write,
    s: &search::SearchSummary,
    printed: usize,
    times: (std::time::Duration, std::time::Duration),
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{} matches", s.stats_matches)?;
    writeln!(out, "{} matched lines", s.matched_lines)?;
    writeln!(
        out,
        "{} files contained matches",
        s.stats.files_with_matches
    )?;
    // rg 13 counts a walked binary file as searched (it opened it, and quit at the NUL).
    let searched = s.stats.files_searched + s.stats.skipped.binary;
    writeln!(out, "{searched} files searched")?;
    writeln!(out, "{printed} bytes printed")?;
    writeln!(out, "{} bytes searched", s.stats.bytes_searched)?;
    writeln!(out, "{:.6} seconds spent searching", times.0.as_secs_f64())?;
    writeln!(out, "{:.6} seconds", times.1.as_secs_f64())
}

/// `--pcre2-version`: as rg, the version and whether the JIT is there.
fn pcre2_version(printer: &mut Printer) -> io::Result<u8> {
    let (major, minor) = grep_pcre2::version();
    let jit = grep_pcre2::is_jit_available();
    match printer.format {
        Format::Human => {
            let out = printer.out();
            writeln!(out, "PCRE2 {major}.{minor} is available")?;
            writeln!(
                out,
                "JIT is {}",
                if jit { "available" } else { "unavailable" }
            )?;
        }
        _ => {
            let env = JsonResponse::new(
                "search",
                crate::envelope::Status::Ok,
                serde_json::json!({"pcre2_version": true}),
                serde_json::json!({"pcre2": {"version": format!("{major}.{minor}"), "jit": jit}}),
                vec![],
            );
            let pretty = printer.tty;
            json::envelope(printer.out(), &env, pretty)?;
        }
    }
    Ok(0)
}

fn type_list(printer: &mut Printer) -> io::Result<u8> {
    let table = crate::walk::type_table();
    match printer.format {
        Format::Human => {
            let out = printer.out();
            for (name, globs) in &table {
                writeln!(out, "{name}: {}", globs.join(", "))?;
            }
        }
        _ => {
            let types: Vec<_> = table
                .iter()
                .map(|(n, g)| serde_json::json!({"name": n, "globs": g}))
                .collect();
            let env = JsonResponse::new(
                "search",
                crate::envelope::Status::Ok,
                serde_json::json!({"type_list": true}),
                serde_json::json!({"types": types}),
                vec![],
            );
            let pretty = printer.tty;
            json::envelope(printer.out(), &env, pretty)?;
        }
    }
    Ok(0)
}

/// From this many threads on, a search's output is written by a thread of its own (see
/// [`Printer::write_behind`]); with fewer, there are not the cores for it to run beside the
/// workers.
const WRITE_BEHIND_THREADS: usize = 4;

/// Test builds only: `LLM_FAILPOINT_SEARCH_HOLD=PATH` makes a search wait, after printing each
/// file's result, until PATH exists (at most 10 s), so that a test can read what reached
/// stdout meanwhile (`--line-buffered`). Compiled out of release builds.
fn injected_hold() -> Option<std::path::PathBuf> {
    if !cfg!(debug_assertions) {
        return None;
    }
    std::env::var_os("LLM_FAILPOINT_SEARCH_HOLD").map(Into::into)
}

fn hold_until(path: &std::path::Path) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !path.exists() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
