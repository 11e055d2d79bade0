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
    // Records that could not be read are left out of the list: said, not silently.
    let diagnostics: Vec<_> = (data.ignored.iter())
        .map(|f| {
            let mut d = crate::error::Error::new(
                crate::error::Code::JournalUntrusted,
                format!("{f} is no journal record llm can read (damaged, cut short, or not written by llm): ignored"),
                "remove it if it is not needed; the operations it held cannot be undone with llm",
            )
            .with_file(f)
            .diagnostic(crate::envelope::Level::Warning);
            d.tool = "history".into();
            d
        })
        .collect();
    let status = if data.operations.is_empty() && data.pruned.is_none() {
        Status::NoMatches
    } else {
        Status::Ok
    };
    match printer.format {
        Format::Human => {
            let style = crate::output::human::Style { on: printer.color };
            crate::output::human::history::print(printer.out(), &style, &data)?;
            printer.flush()?;
            printer.diagnostics_to_stderr(&diagnostics);
        }
        Format::Json => {
            let pretty = printer.tty;
            let env = JsonResponse::new("history", status, query, data, diagnostics);
            json::envelope(printer.out(), &env, pretty)?;
        }
        Format::Jsonl => {
            let mut data = data;
            for op in &data.operations {
                json::tagged_line(printer.out(), "operation", op)?;
            }
            data.operations.clear();
            let env = JsonResponse::new("history", status, query, data, diagnostics);
            json::tagged_line(printer.out(), "summary", &env)?;
        }
    }
    // An empty journal is not an error.
    Ok(0)
}
