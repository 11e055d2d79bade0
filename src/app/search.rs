//! `llm search` glue: picks the printer for the format and streams file results into it.

use crate::cli::SearchArgs;
use crate::cmd::search::{self, FileMatches, FileResult, SearchData, SearchFile, SearchMatch};
use crate::envelope::JsonResponse;
use crate::output::human::search::SearchHuman;
use crate::output::human::Style;
use crate::output::json::search::Layout;
use crate::output::{json, query_exit_code, Format, Printer};
use std::io::{self, Write};

/// Runs `llm search` and prints its result; returns the exit code.
pub fn run(args: SearchArgs, printer: &mut Printer) -> io::Result<u8> {
    if args.type_list {
        return type_list(printer);
    }
    let view = args.view();
    let opts = match args.into_options() {
        Ok(o) => o,
        Err(e) => return crate::fail_query(printer, "search", serde_json::Value::Null, &e),
    };
    let single_file = opts.walk.paths.len() == 1 && opts.walk.paths[0].is_file();
    let query = opts.query_echo();
    let format = printer.format;
    let pretty = printer.tty;

    let mut matches: Vec<SearchMatch> = Vec::new();
    let mut files: Vec<SearchFile> = Vec::new();
    let human = SearchHuman::new(
        Style { on: printer.color },
        view.heading.unwrap_or(printer.tty),
        view,
        opts.mode,
        opts.before_context + opts.after_context > 0,
        single_file,
    );
    // Matches are rendered by the search's worker threads: human text, JSON lines, or (for
    // compact JSON) the comma-separated members of `data.matches`, spliced in at the end.
    let render_json = |r: &FileResult, m: &FileMatches, buf: &mut Vec<u8>| {
        json::search::matches(buf, &r.file.file_path, m, Layout::Array);
    };
    let render_jsonl = |r: &FileResult, m: &FileMatches, buf: &mut Vec<u8>| {
        json::search::matches(buf, &r.file.file_path, m, Layout::Lines);
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
    // Per-file chunks, kept apart: one growing buffer would be copied again at every doubling.
    let mut raw_matches: Vec<Vec<u8>> = Vec::new();
    let out = printer.out();
    let outcome = search::run(
        &opts,
        format != Format::Human,
        render,
        &mut |mut r| match format {
            Format::Human => human.file(out, &r),
            Format::Json => {
                match r.rendered.take() {
                    Some(bytes) if !bytes.is_empty() => {
                        raw_matches.push(bytes);
                    }
                    Some(_) => {}
                    None => matches.append(&mut r.matches),
                }
                files.push(r.file);
                Ok(())
            }
            Format::Jsonl => {
                match r.rendered.take() {
                    Some(bytes) => out.write_all(&bytes)?,
                    None => {
                        for m in &r.matches {
                            json::tagged_line(out, "match", m)?;
                        }
                    }
                }
                files.push(r.file);
                Ok(())
            }
        },
    );
    let summary = match outcome {
        Ok(Ok(s)) => s,
        Ok(Err(io_err)) => return Err(io_err),
        Err(e) => return crate::fail_query(printer, "search", query, &e),
    };
    let code = query_exit_code(summary.status, &summary.diagnostics);
    if format == Format::Human {
        printer.diagnostics_to_stderr(&summary.diagnostics);
        return Ok(code);
    }
    let data = SearchData {
        pattern: opts.patterns[0].clone(),
        patterns: (opts.patterns.len() > 1).then(|| opts.patterns.clone()),
        matches,
        files,
        match_count: summary.match_count,
        total_count: summary.total_count,
        stats: summary.stats,
    };
    let env = JsonResponse::new("search", summary.status, query, data, summary.diagnostics);
    let out = printer.out();
    match format {
        Format::Json if !raw_matches.is_empty() => splice_matches(out, &env, &raw_matches)?,
        Format::Json => json::envelope(out, &env, pretty)?,
        _ => json::tagged_line(out, "summary", &env)?,
    }
    Ok(code)
}

/// Writes the compact envelope with the pre-rendered matches as `data.matches`: the envelope
/// is serialized with an empty `matches` array, which is then filled in. The first
/// `"matches":[]` is that array: any earlier occurrence would be inside a JSON string, where
/// its quotes are escaped.
fn splice_matches(
    out: &mut impl Write,
    env: &JsonResponse<SearchData>,
    raw: &[Vec<u8>],
) -> io::Result<()> {
    const EMPTY: &[u8] = b"\"matches\":[]";
    let head = serde_json::to_vec(env)?;
    let at =
        memchr::memmem::find(&head, EMPTY).ok_or_else(|| io::Error::other("no matches key"))?;
    let split = at + EMPTY.len() - 1;
    out.write_all(&head[..split])?;
    for (i, chunk) in raw.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(chunk)?;
    }
    out.write_all(&head[split..])?;
    out.write_all(b"\n")
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
