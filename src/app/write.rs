//! `llm write` glue: arguments → options → `cmd::write::run` → one `OperationResult` printed.

use crate::cli::WriteArgs;
use crate::cmd::write::{self, WriteData};
use crate::envelope::{now_rfc3339, Level, OperationResult, SCHEMA_VERSION};
use crate::output::{Format, Printer};
use std::io;

/// Runs `llm write` and prints its result; returns the exit code.
pub fn run(args: WriteArgs, printer: &mut Printer) -> io::Result<u8> {
    let workspace = super::workspace(&args.root);
    let outcome = match args.into_options() {
        Ok(opts) => write::run(&opts),
        Err(e) => write::WriteOutcome {
            status: e.status(),
            message: e.message.clone(),
            data: None,
            diagnostics: Vec::new(),
            error: Some(e),
        },
    };
    let mut diagnostics = outcome.diagnostics;
    if let Some(e) = &outcome.error {
        diagnostics.extend(e.extra_diagnostics().iter().cloned());
    }
    let env: OperationResult<WriteData> = OperationResult {
        schema_version: SCHEMA_VERSION,
        execution_id: crate::envelope::execution_id(),
        operation_type: "write",
        status: outcome.status,
        message: outcome.message,
        timestamp: now_rfc3339(),
        workspace,
        result: outcome.data,
        diagnostics,
        error: outcome.error.as_ref().map(|e| {
            let mut d = e.to_diagnostic();
            d.tool = "write".into();
            d
        }),
    };
    let code = crate::print_operation(printer, &env, |r| Some(&r.mutation))?;
    if printer.format == Format::Human {
        if let Some(r) = &env.result {
            let errors: Vec<_> = r
                .diagnostics
                .iter()
                .filter(|d| d.level == Level::Error)
                .cloned()
                .collect();
            printer.diagnostics_to_stderr(&errors);
        }
    }
    Ok(code)
}
