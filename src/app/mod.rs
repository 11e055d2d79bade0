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

/// The workspace root a mutation's envelope reports: `root` made absolute (as given when it
/// cannot be resolved).
fn workspace(root: &std::path::Path) -> String {
    std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .display()
        .to_string()
}

/// Prints the envelope of the mutation `command` whose run gave `outcome` (result, message,
/// diagnostics); returns the exit code.
fn print_outcome<R: serde::Serialize>(
    printer: &mut crate::output::Printer,
    command: &'static str,
    workspace: String,
    outcome: Result<(R, String, Vec<crate::envelope::DiagnosticPayload>), crate::error::Error>,
    mutation: impl Fn(&R) -> Option<&crate::mutation::MutationResult>,
) -> std::io::Result<u8> {
    use crate::envelope::{OperationResult, Status};
    let env = match outcome {
        Ok((result, message, diags)) => {
            OperationResult::new(command, Status::Ok, message, workspace, result, diags)
        }
        Err(e) => OperationResult::<R>::failed(command, workspace, &e),
    };
    crate::print_operation(printer, &env, mutation)
}
