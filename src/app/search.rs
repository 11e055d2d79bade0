//! `llm search` glue: picks the printer for the format and streams file results into it.

use crate::cli::SearchArgs;
use crate::cmd::search::{self, SearchData, SearchFile, SearchMatch};
use crate::envelope::JsonResponse;
use crate::output::human::search::SearchHuman;
use crate::output::human::Style;
use crate::output::{has_errors, json, Format, Printer};
use std::io::{self, Write};

/// Runs `llm search` and prints its result; returns the exit code.
pub fn run(args: SearchArgs, printer: &mut Printer) -> io::Result<u8> {
    if args.type_list {
        return type_list(printer);
    }
    let view = args.view();
    let single_file = args.paths.len() == 1 && args.regexp.is_empty() && args.paths[0].is_file();
    let opts = match args.into_options() {
        Ok(o) => o,
        Err(e) => return crate::fail_query(printer, "search", serde_json::Value::Null, &e),
    };
    let query = opts.query_echo();
    let format = printer.format;
    let pretty = printer.tty;

    let mut matches: Vec<SearchMatch> = Vec::new();
    let mut files: Vec<SearchFile> = Vec::new();
    let mut human = SearchHuman::new(
        Style { on: printer.color },
        view.heading.unwrap_or(printer.tty),
        view,
        opts.mode,
        opts.before_context + opts.after_context > 0,
        single_file,
    );
    let out = printer.out();
    let outcome = search::run(&opts, format != Format::Human, &mut |mut r| match format {
        Format::Human => human.file(out, &r),
        Format::Json => {
            matches.append(&mut r.matches);
            files.push(r.file);
            Ok(())
        }
        Format::Jsonl => {
            for m in &r.matches {
                json::tagged_line(out, "match", m)?;
            }
            files.push(r.file);
            Ok(())
        }
    });
    let summary = match outcome {
        Ok(Ok(s)) => s,
        Ok(Err(io_err)) => return Err(io_err),
        Err(e) => return crate::fail_query(printer, "search", query, &e),
    };
    let code = if has_errors(&summary.diagnostics) {
        2
    } else {
        summary.status.exit_code()
    };
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
        Format::Json => json::envelope(out, &env, pretty)?,
        _ => json::tagged_line(out, "summary", &env)?,
    }
    Ok(code)
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
