//! Glue per subcommand: clap arguments → options → `cmd/` → printer, and the exit code.

pub mod patch;
pub mod search;
