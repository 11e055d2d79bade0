//! `llm`: one binary, six tools over a source tree, one JSON language.
//!
//! Flow: `main.rs` parses the command line (`cli.rs`) → [`run`] hands it to the command's `app/`
//! glue, which turns arguments into options → a `cmd/` module does the work and returns data →
//! an `output/` printer renders it.

// `Error` carries a span and a remediation (~220 bytes); it travels only on cold failure paths,
// where boxing buys nothing measurable.
#![allow(clippy::result_large_err)]

pub mod app;
pub mod check;
pub mod cli;
pub mod cmd;
pub mod edit;
pub mod envelope;
pub mod error;
pub mod fsio;
pub mod generate;
pub mod hash;
pub mod indent;
pub mod journal;
pub mod lang;
pub mod memory;
pub mod mutation;
pub mod output;
pub mod paths;
pub mod span;
pub mod suggest;
pub mod walk;

use cli::{Cli, Command};
use envelope::{JsonResponse, OperationResult};
use error::Error;
use output::{Format, Printer};
use serde::Serialize;
use std::io::{self, Write};

/// Runs a parsed command line and returns the process exit code (0 found/applied, 1 nothing
/// found/rejected, 2 error). A closed stdout ends the run quietly with 0.
pub fn run(cli: Cli) -> u8 {
    let format = cli.global.format();
    let mut printer = Printer::new(format, cli.global.color());
    let result = match cli.command {
        Command::Search(args) => app::search::run(args, &mut printer),
        Command::Ast(args) => app::ast::run(args, &mut printer),
        Command::Find(args) => app::find::run(args, &mut printer),
        Command::Transform(args) => app::transform::run(args, &mut printer),
        Command::Write(args) => app::write::run(args, &mut printer),
        Command::Patch(args) => app::patch::run(args, &mut printer),
        Command::Apply(args) => app::apply::run(args, &mut printer),
        Command::Show(args) => app::show::run(args, &mut printer),
        Command::History(args) => app::history::run(args, &mut printer),
        Command::Undo(args) => app::undo::run(args, &mut printer),
        Command::Generate(args) => generate::run(&args.out_dir, &mut printer),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return 0,
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "llm: error[LLM_E002]: could not write the output: {e}"
            );
            return 2;
        }
    };
    match printer.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(
                io::stderr(),
                "llm: error[LLM_E002]: could not write the output: {e}"
            );
            2
        }
        _ => code,
    }
}

/// Prints a query that failed before producing data: an envelope with status `error` in
/// json/jsonl, a diagnostic on stderr in human format. Returns the exit code.
pub fn fail_query(
    printer: &mut Printer,
    command: &'static str,
    query: serde_json::Value,
    err: &Error,
) -> io::Result<u8> {
    let env: JsonResponse<()> = JsonResponse::failed(command, query, err);
    match printer.format {
        Format::Human => {
            let mut d = err.to_diagnostic();
            d.tool = command.to_string();
            printer.diagnostics_to_stderr(&err.related);
            printer.diagnostics_to_stderr(&[d]);
        }
        Format::Json => {
            let pretty = printer.tty;
            output::json::envelope(printer.out(), &env, pretty)?;
        }
        Format::Jsonl => output::json::tagged_line(printer.out(), "summary", &env)?,
    }
    Ok(env.status.exit_code())
}

/// Handles a command line clap could not parse: help and version print normally (exit 0);
/// errors become `LLM_E001` — an error envelope when JSON output was asked for.
pub fn usage_error(err: clap::Error, args: &[String]) -> u8 {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
            2
        } else {
            0
        };
    }
    let wants = |f: &str| {
        (f == "json" && args.iter().any(|a| a == "--json"))
            || args.windows(2).any(|w| w[0] == "--format" && w[1] == f)
            || args.iter().any(|a| a == &format!("--format={f}"))
            || (!args.iter().any(|a| a.starts_with("--format"))
                && std::env::var("LLM_FORMAT").is_ok_and(|v| v == f))
    };
    let format = if wants("jsonl") {
        Format::Jsonl
    } else if wants("json") {
        Format::Json
    } else {
        let _ = err.print();
        return 2;
    };
    let command = cli::command_name(args);
    let rendered = err.render().to_string();
    let message = rendered
        .lines()
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string();
    let e = Error::new(
        error::Code::UsageInvalid,
        message,
        format!("see `llm {command} --help`"),
    )
    .with_note(rendered.trim().to_string());
    let mut printer = Printer::new(format, output::ColorChoice::Never);
    let code = fail_query(&mut printer, command, serde_json::Value::Null, &e).unwrap_or(2);
    let _ = printer.flush();
    code
}

/// Prints a mutation's envelope: json/jsonl as one envelope (jsonl tags it `summary`); human as
/// a status line, a line per file and a dry run's diff on stdout, diagnostics on stderr.
/// `mutation` picks the shared mutation result out of the command's result for human output.
pub fn print_operation<R: Serialize>(
    printer: &mut Printer,
    env: &OperationResult<R>,
    mutation: impl Fn(&R) -> Option<&mutation::MutationResult>,
) -> io::Result<u8> {
    match printer.format {
        Format::Json => {
            let pretty = printer.tty;
            output::json::envelope(printer.out(), env, pretty)?;
        }
        Format::Jsonl => output::json::tagged_line(printer.out(), "summary", env)?,
        Format::Human => {
            let style = output::human::Style { on: printer.color };
            let result = env.result.as_ref().and_then(mutation);
            output::human::mutation::print(
                printer.out(),
                &style,
                env.status,
                &env.message,
                result,
            )?;
            printer.diagnostics_to_stderr(&env.diagnostics);
            if let Some(e) = &env.error {
                printer.diagnostics_to_stderr(std::slice::from_ref(e));
            }
        }
    }
    Ok(env.status.exit_code())
}
