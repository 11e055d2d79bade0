//! Entry point: parse, run, exit with 0 (found/applied), 1 (nothing/rejected) or 2 (error).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let code = match llm::cli::Cli::try_parse_from(&args) {
        Ok(cli) => llm::run(cli),
        Err(e) => llm::usage_error(e, &args),
    };
    ExitCode::from(code)
}
