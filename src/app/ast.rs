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
    let opts = match args.into_request() {
        Ok(AstRequest::Query(o)) => o,
        Ok(AstRequest::Tree(t)) => return run_tree(&t, printer),
        Err(e) => return crate::fail_query(printer, "ast", echo, &e),
    };
    let query = opts.query_echo();
    let format = printer.format;
    let pretty = printer.tty;
    let style = Style { on: printer.color };
    let mut matches: Vec<AstMatch> = Vec::new();
    let mut files: Vec<AstFile> = Vec::new();
    // Human text and JSON lines are rendered by the workers that found the matches.
    let render_human = |r: &ast::FileResult, buf: &mut Vec<u8>| {
        let _ = crate::output::human::ast::file(buf, &style, r);
    };
    let render_jsonl = |r: &ast::FileResult, buf: &mut Vec<u8>| {
        for m in &r.matches {
            let _ = json::tagged_line(buf, "match", m);
        }
    };
    let render: Option<ast::Render> = match format {
        Format::Human => Some(&render_human),
        Format::Json => None,
        Format::Jsonl => Some(&render_jsonl),
    };
    let out = printer.out();
    let outcome = ast::run(&opts, format != Format::Human, render, &mut |mut r| {
        if let Some(bytes) = &r.rendered {
            out.write_all(bytes)?;
        }
        match format {
            Format::Human => crate::output::human::ast::file(out, &style, &r),
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
        }
    });
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
    let data = AstData {
        query: opts.query.clone(),
        languages: summary.languages,
        prefilter: summary.prefilter,
        matches,
        files,
        match_count: summary.match_count,
        total_count: summary.total_count,
        stats: summary.stats,
    };
    let env = JsonResponse::new("ast", summary.status, query, data, summary.diagnostics);
    let out = printer.out();
    match format {
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
