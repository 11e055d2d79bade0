//! `llm find` glue: name/outline/refs → `cmd::find` → printer, and the exit code.

use crate::cli::FindArgs;
use crate::cmd::find::{self, FindData, FindFile, FindItem, Mode};
use crate::envelope::{JsonResponse, Level, Status};
use crate::output::human::Style;
use crate::output::{json, query_exit_code, Format, Printer};
use std::io;

/// Runs `llm find` and prints its result; returns the exit code.
pub fn run(args: FindArgs, printer: &mut Printer) -> io::Result<u8> {
    let echo = serde_json::json!({ "name": args.name });
    let opts = match args.into_options() {
        Ok(o) => o,
        Err(e) => return crate::fail_query(printer, "find", echo, &e),
    };
    let query = opts.query_echo();
    let format = printer.format;
    let pretty = printer.tty;
    let style = Style { on: printer.color };
    let outline = opts.mode == Mode::Outline;
    let mut items: Vec<FindItem> = Vec::new();
    let mut files: Vec<FindFile> = Vec::new();
    let out = printer.out();
    let outcome = find::run(&opts, format != Format::Human, &mut |mut r| match format {
        Format::Human => crate::output::human::find::file(out, &style, &r, outline),
        Format::Json => {
            items.append(&mut r.items);
            files.push(r.file);
            Ok(())
        }
        Format::Jsonl => {
            for m in &r.items {
                json::tagged_line(out, "match", m)?;
            }
            files.push(r.file);
            Ok(())
        }
    });
    let mut summary = match outcome {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(e),
        Err(e) => return crate::fail_query(printer, "find", query, &e),
    };
    if summary.status == Status::NoMatches {
        if let Some(n) = &opts.name {
            let what = if opts.mode == Mode::Refs {
                format!("no identifier `{}` found", n.as_str())
            } else {
                String::new()
            };
            let mut e = find::not_found(n.as_str(), &summary.suggestions);
            if !what.is_empty() {
                e.message = what;
            }
            summary.diagnostics.push(e.diagnostic(Level::Note));
        }
    }
    let code = query_exit_code(summary.status, &summary.diagnostics);
    if format == Format::Human {
        printer.diagnostics_to_stderr(&summary.diagnostics);
        return Ok(code);
    }
    // Compact JSON renders its matches on the worker threads (see `json::envelope_with_members`).
    let threaded = format == Format::Json && !pretty;
    let data = FindData {
        mode: opts.mode,
        name: opts.name.as_ref().map(|n| n.as_str().to_string()),
        matches: if threaded {
            Vec::new()
        } else {
            std::mem::take(&mut items)
        },
        files,
        match_count: summary.match_count,
        total_count: summary.total_count,
        stats: summary.stats,
    };
    let env = JsonResponse::new("find", summary.status, query, data, summary.diagnostics);
    let out = printer.out();
    match format {
        Format::Json if threaded => {
            let (key, threads) = ("matches", opts.threads);
            json::envelope_with_members(
                out,
                &env,
                key,
                items,
                threads,
                find::weight,
                json::find::item,
            )?
        }
        Format::Json => json::envelope(out, &env, pretty)?,
        _ => json::tagged_line(out, "summary", &env)?,
    }
    Ok(code)
}
