//! Glue per subcommand: clap arguments → options → `cmd/` → printer, and the exit code.

pub mod apply;
pub mod ast;
pub mod find;
pub mod history;
pub mod patch;
pub mod search;
pub mod show;
pub mod transform;
pub mod undo;
pub mod write;
