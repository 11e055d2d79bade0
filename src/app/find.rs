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
    // Compact JSON: the members of `data.matches` are rendered where the items were made, and
    // streamed (see `StreamedArray`): the draft envelope has what the final one has before
    // `matches` (status `ok`: the array opens only once a match has come, and rendered items
    // mean no --max-results, hence no `partial`).
    let render_json = |items: &[FindItem], buf: &mut Vec<u8>| {
        for (i, m) in items.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            json::find::item(buf, m);
        }
    };
    let render: Option<find::Render> = (format == Format::Json && !pretty).then_some(&render_json);
    let data = |matches, files, summary: Option<&find::FindSummary>| FindData {
        mode: opts.mode,
        name: opts.name.as_ref().map(|n| n.as_str().to_string()),
        matches,
        files,
        match_count: summary.map_or(0, |s| s.match_count),
        total_count: summary.map_or(0, |s| s.total_count),
        stats: summary.map(|s| s.stats.clone()).unwrap_or_default(),
    };
    let draft = JsonResponse::new(
        "find",
        Status::Ok,
        query.clone(),
        data(Vec::new(), Vec::new(), None),
        Vec::new(),
    );
    let mut streamed = json::StreamedArray::new(&draft, "matches")?;
    let out = printer.out();
    let outcome = find::run(&opts, format != Format::Human, render, &mut |mut r| {
        match (&r.rendered, format) {
            (Some(runs), _) => {
                for run in runs {
                    streamed.members(out, run)?;
                }
            }
            (None, Format::Human) => {
                return crate::output::human::find::file(out, &style, &r, outline)
            }
            (None, Format::Json) => items.append(&mut r.items),
            (None, Format::Jsonl) => {
                for m in &r.items {
                    json::tagged_line(out, "match", m)?;
                }
            }
        }
        files.push(r.file);
        Ok(())
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
    let mut env = draft;
    env.data = Some(data(items, files, Some(&summary)));
    env.status = summary.status;
    env.partial = summary.status == Status::Partial;
    env.diagnostics = summary.diagnostics;
    let out = printer.out();
    match format {
        // The whole envelope when nothing was streamed.
        Format::Json if !pretty => streamed.finish(out, &env)?,
        Format::Json => json::envelope(out, &env, pretty)?,
        _ => json::tagged_line(out, "summary", &env)?,
    }
    Ok(code)
}
