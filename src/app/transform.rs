//! `llm transform` glue: arguments (and stdin) → options → `cmd::transform` → mutation envelope.

use crate::cli::TransformArgs;
use crate::cmd::transform::{self, TransformData};
use crate::envelope::OperationResult;
use crate::error::{Code, Error};
use crate::output::Printer;
use std::io::{self, IsTerminal, Read};

/// Runs `llm transform` and prints its envelope; returns the exit code.
pub fn run(args: TransformArgs, printer: &mut Printer) -> io::Result<u8> {
    let workspace = super::workspace(&args.mutation.root);
    let outcome = args
        .into_options(read_stdin)
        .and_then(|o| transform::run(&o));
    let env: OperationResult<TransformData> = match outcome {
        Ok(o) => OperationResult::new(
            "transform",
            crate::envelope::Status::Ok,
            o.message,
            workspace,
            o.data,
            o.diagnostics,
        ),
        Err(e) => {
            let mut env = OperationResult::failed("transform", workspace, &e);
            if let Some(err) = env.error.as_mut() {
                err.tool = "transform".into();
            }
            for d in env.diagnostics.iter_mut() {
                d.tool = "transform".into();
            }
            env
        }
    };
    crate::print_operation(printer, &env, |r| Some(&r.mutation))
}

/// Reads the JSON input from stdin; refuses to wait on a terminal.
fn read_stdin() -> Result<Vec<u8>, Error> {
    let mut stdin = io::stdin();
    if stdin.is_terminal() {
        return Err(Error::new(
            Code::NoEdits,
            "no input: stdin is a terminal",
            "pipe an edit request or `llm search -r TEXT --json` output, pass --edits FILE, or use `llm transform FILE --old TEXT --new TEXT`",
        ));
    }
    let mut buf = Vec::new();
    stdin.read_to_end(&mut buf).map_err(|e| {
        Error::new(
            Code::PathUnreadable,
            format!("could not read stdin: {e}"),
            "pipe the edit request into llm transform, or pass --edits FILE",
        )
    })?;
    Ok(buf)
}
