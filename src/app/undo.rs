//! `llm undo` glue: arguments → `journal::undo::undo` → one `OperationResult` printed.

use crate::cli::UndoArgs;
use crate::envelope::{OperationResult, Status};
use crate::journal::undo::UndoData;
use crate::output::Printer;
use std::io;

/// Runs `llm undo` and prints its result; returns the exit code.
pub fn run(args: UndoArgs, printer: &mut Printer) -> io::Result<u8> {
    let workspace = crate::journal::undo::top_of(&args.root)
        .unwrap_or_else(|_| args.root.clone())
        .display()
        .to_string();
    let env = match crate::journal::undo::undo(
        &args.root,
        args.id.as_deref(),
        args.dry_run,
        args.allow_outside_root,
    ) {
        Ok((data, diags)) => {
            let n = data.mutation.files.len();
            let message = format!(
                "{} operation {} ({n} file{})",
                if args.dry_run { "would undo" } else { "undid" },
                data.undoes,
                if n == 1 { "" } else { "s" }
            );
            OperationResult::new("undo", Status::Ok, message, workspace, data, diags)
        }
        Err(e) => OperationResult::<UndoData>::failed("undo", workspace, &e),
    };
    crate::print_operation(printer, &env, |r| Some(&r.mutation))
}
