//! `llm history` glue: arguments → `journal::undo::history` → printer, and the exit code.

use crate::cli::HistoryArgs;
use crate::envelope::{JsonResponse, Status};
use crate::output::{json, Format, Printer};
use std::io;

/// Runs `llm history` and prints the journal; returns the exit code.
pub fn run(args: HistoryArgs, printer: &mut Printer) -> io::Result<u8> {
    let query = serde_json::json!({
        "limit": args.limit,
        "prune": args.prune,
        "root": args.root.to_string_lossy(),
    });
    let data = match crate::journal::undo::history(
        &args.root,
        args.limit,
        args.prune,
        args.allow_outside_root,
    ) {
        Ok(d) => d,
        Err(e) => return crate::fail_query(printer, "history", query, &e),
    };
    let status = if data.operations.is_empty() && data.pruned.is_none() {
        Status::NoMatches
    } else {
        Status::Ok
    };
    match printer.format {
        Format::Human => {
            let style = crate::output::human::Style { on: printer.color };
            crate::output::human::history::print(printer.out(), &style, &data)?;
        }
        Format::Json => {
            let pretty = printer.tty;
            let env = JsonResponse::new("history", status, query, data, Vec::new());
            json::envelope(printer.out(), &env, pretty)?;
        }
        Format::Jsonl => {
            let mut data = data;
            for op in &data.operations {
                json::tagged_line(printer.out(), "operation", op)?;
            }
            data.operations.clear();
            let env = JsonResponse::new("history", status, query, data, Vec::new());
            json::tagged_line(printer.out(), "summary", &env)?;
        }
    }
    // An empty journal is not an error.
    Ok(0)
}
