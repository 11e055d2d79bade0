//! `llm ast` glue: query → `cmd::ast` (or `cmd::tree` for `--tree`) → printer, and the exit code.

use crate::cli::{AstArgs, AstRequest};
use crate::cmd::ast::{self, AstData, AstFile, AstMatch};
use crate::cmd::tree;
use crate::envelope::{JsonResponse, Status};
use crate::output::human::Style;
use crate::output::{json, query_exit_code, Format, Printer};
use std::io::{self, Write};

/// Runs `llm ast` and prints its result; returns the exit code.
pub fn run(args: AstArgs, printer: &mut Printer) -> io::Result<u8> {
    let echo = serde_json::json!({
        "query": args.query,
        "tree": args.tree.as_ref().map(|p| crate::walk::display_path(p)),
    });
    let mut opts = match args.into_request() {
        Ok(AstRequest::Query(o)) => o,
        Ok(AstRequest::Tree(t)) => return run_tree(&t, printer),
        Err(e) => return crate::fail_query(printer, "ast", echo, &e),
    };
    // Human output shows each capture's first line: no more is kept.
    opts.first_lines = printer.format == Format::Human;
    let query = opts.query_echo();
    let prepared = match ast::prepare(&opts) {
        Ok(p) => p,
        Err(e) => return crate::fail_query(printer, "ast", query, &e),
    };
    let format = printer.format;
    let pretty = printer.tty;
    let style = Style { on: printer.color };
    let mut matches: Vec<AstMatch> = Vec::new();
    let mut files: Vec<AstFile> = Vec::new();
    // Human text, JSON lines and (for compact JSON) the comma-separated members of
    // `data.matches` are rendered by the workers that found the matches.
    let render_human = |r: &ast::FileResult, buf: &mut Vec<u8>| {
        let _ = crate::output::human::ast::file(buf, &style, r);
    };
    let render_jsonl = |r: &ast::FileResult, buf: &mut Vec<u8>| {
        for m in &r.matches {
            let _ = json::tagged_line(buf, "match", m);
        }
    };
    let render_json = |r: &ast::FileResult, buf: &mut Vec<u8>| {
        for (i, m) in r.matches.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            let _ = serde_json::to_writer(&mut *buf, m);
        }
    };
    let render: Option<ast::Render> = match format {
        Format::Human => Some(&render_human),
        Format::Json if !pretty => Some(&render_json),
        Format::Json => None,
        Format::Jsonl => Some(&render_jsonl),
    };
    // Compact JSON streams `data.matches` (see `StreamedArray`): the draft envelope has what
    // the final one has before `matches` (status `ok`: the array opens only once a match has
    // come, and rendered matches mean no --max-results, hence no `partial`).
    let data = |matches, files, summary: Option<&ast::AstSummary>| AstData {
        query: opts.query.clone(),
        languages: prepared.languages(),
        prefilter: prepared.prefilter(),
        matches,
        files,
        match_count: summary.map_or(0, |s| s.match_count),
        total_count: summary.map_or(0, |s| s.total_count),
        stats: summary.map(|s| s.stats.clone()).unwrap_or_default(),
    };
    let draft = JsonResponse::new(
        "ast",
        Status::Ok,
        query.clone(),
        data(Vec::new(), Vec::new(), None),
        Vec::new(),
    );
    let mut streamed = json::StreamedArray::new(&draft, "matches")?;
    let out = printer.out();
    let outcome = ast::run(
        &opts,
        &prepared,
        format != Format::Human,
        render,
        &mut |mut r| {
            match (&r.rendered, format) {
                (Some(bytes), Format::Json) => streamed.members(out, bytes)?,
                (Some(bytes), _) => out.write_all(bytes)?,
                (None, Format::Human) => crate::output::human::ast::file(out, &style, &r)?,
                (None, Format::Json) => matches.append(&mut r.matches),
                (None, Format::Jsonl) => {
                    for m in &r.matches {
                        json::tagged_line(out, "match", m)?;
                    }
                }
            }
            if format != Format::Human {
                files.push(r.file);
            }
            Ok(())
        },
    );
    let summary = match outcome {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return Err(e),
        Err(e) => return crate::fail_query(printer, "ast", query, &e),
    };
    let code = query_exit_code(summary.status, &summary.diagnostics);
    if format == Format::Human {
        printer.diagnostics_to_stderr(&summary.diagnostics);
        return Ok(code);
    }
    let mut env = draft;
    env.data = Some(data(matches, files, Some(&summary)));
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

fn run_tree(t: &tree::TreeOptions, printer: &mut Printer) -> io::Result<u8> {
    let query = serde_json::json!({
        "tree": crate::walk::display_path(&t.file),
        "at": t.at.map(|(l, c)| format!("{l}:{c}")),
        "language": t.lang.map(|l| l.name),
    });
    let data = match tree::run(t) {
        Ok(d) => d,
        Err(e) => return crate::fail_query(printer, "ast", query, &e),
    };
    let style = Style { on: printer.color };
    let pretty = printer.tty;
    match printer.format {
        Format::Human => crate::output::human::ast::tree(printer.out(), &style, &data)?,
        Format::Json => {
            let env = JsonResponse::new("ast", Status::Ok, query, data, vec![]);
            json::envelope(printer.out(), &env, pretty)?
        }
        Format::Jsonl => {
            let env = JsonResponse::new("ast", Status::Ok, query, data, vec![]);
            json::tagged_line(printer.out(), "summary", &env)?
        }
    }
    Ok(0)
}
