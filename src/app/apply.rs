//! `llm apply` glue: the patch from stdin or --patch, options, the run, the `OperationResult`.

use crate::cli::{ApplyArgs, ApplyFormatArg};
use crate::cmd::apply::{self, diff::Format, ApplyOptions, ApplyResult};
use crate::error::{Code, Error};
use crate::output::Printer;
use std::io::{self, IsTerminal, Read};

/// Runs `llm apply` and prints its result; returns the exit code.
pub fn run(args: ApplyArgs, printer: &mut Printer) -> io::Result<u8> {
    let workspace = super::workspace(&args.mutation.root);
    let outcome = options(args).and_then(|o| apply::run(&o));
    super::print_outcome(printer, "apply", workspace, outcome, |r: &ApplyResult| {
        Some(&r.mutation)
    })
}

fn options(args: ApplyArgs) -> Result<ApplyOptions, Error> {
    let (input, origin) = match args.patch.as_ref().filter(|p| p.as_os_str() != "-") {
        Some(p) => (
            // Bounded like every input text; a pipe (`<(git diff)`) works too.
            crate::fsio::read_input(p, &format!("--patch {}", p.display()))?,
            p.display().to_string(),
        ),
        None => {
            if io::stdin().is_terminal() {
                return Err(Error::new(
                    Code::ApplyEmpty,
                    "no patch: stdin is a terminal and --patch was not given",
                    "pipe a patch (`git diff | llm apply`) or pass --patch FILE",
                ));
            }
            let mut buf = Vec::new();
            io::stdin().read_to_end(&mut buf).map_err(|e| {
                Error::new(
                    Code::PathUnreadable,
                    format!("could not read stdin: {e}"),
                    "pipe the patch, or pass --patch FILE",
                )
            })?;
            (buf, "stdin".to_string())
        }
    };
    Ok(ApplyOptions {
        input,
        origin,
        format: args.format_in.map(|f| match f {
            ApplyFormatArg::Unified => Format::Unified,
            ApplyFormatArg::Codex => Format::Codex,
            ApplyFormatArg::Jsonl => Format::Jsonl,
        }),
        check: args.check,
        check_timeout: crate::cli::secs(args.check_timeout, "--check-timeout")?,
        mutation: args.mutation.options("apply"),
    })
}
