//! The wire format every subcommand speaks: `JsonResponse` for queries, `OperationResult` for
//! mutations, `DiagnosticPayload` for problems, and the status → exit code table (SPEC.md).

use crate::error::Error;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// Version of the JSON envelopes; bumped on any incompatible change.
pub const SCHEMA_VERSION: &str = "1.0.0";

/// Outcome of a run. Queries use `ok`/`no_matches`/`partial`/`error`; mutations use
/// `ok`/`rejected`/`error` (and `partial` only for explicit best-effort requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Something was found, or the mutation was applied.
    Ok,
    /// The query ran and found nothing.
    NoMatches,
    /// Results were cut by a limit (queries) or applied best-effort (mutations).
    Partial,
    /// A mutation was refused on purpose; nothing was changed.
    Rejected,
    /// Bad input or an I/O failure; nothing was changed.
    Error,
}

impl Status {
    /// 0 = found / applied; 1 = nothing found / rejected; 2 = error.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Ok | Status::Partial => 0,
            Status::NoMatches | Status::Rejected => 1,
            Status::Error => 2,
        }
    }

    /// The lowercase wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NoMatches => "no_matches",
            Status::Partial => "partial",
            Status::Rejected => "rejected",
            Status::Error => "error",
        }
    }
}

/// Severity of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// One problem, with a stable code and a remediation an agent can act on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosticPayload {
    /// Subcommand (or external checker) that produced it: `search`, `patch`, `cargo`…
    pub tool: String,
    pub level: Level,
    /// Stable code, `<SUBCOMMAND>_E<NNN>`, or the external checker's own code (`E0308`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub code: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub remediation: Option<String>,
}

/// Envelope of every query (`search`, `ast`, `find`).
#[derive(Debug, Clone, Serialize)]
pub struct JsonResponse<D: Serialize> {
    pub schema_version: &'static str,
    pub execution_id: String,
    pub command: &'static str,
    pub status: Status,
    /// The request echoed back: pattern, paths, and the flags that change the result.
    pub query: serde_json::Value,
    /// The command's payload; `null` when the run failed before producing one.
    pub data: Option<D>,
    pub partial: bool,
    pub diagnostics: Vec<DiagnosticPayload>,
    /// Set when `status` is `error`.
    pub error: Option<DiagnosticPayload>,
}

impl<D: Serialize> JsonResponse<D> {
    /// A successful (or empty, or partial) response.
    pub fn new(
        command: &'static str,
        status: Status,
        query: serde_json::Value,
        data: D,
        diagnostics: Vec<DiagnosticPayload>,
    ) -> Self {
        JsonResponse {
            schema_version: SCHEMA_VERSION,
            execution_id: execution_id(),
            command,
            status,
            query,
            data: Some(data),
            partial: status == Status::Partial,
            diagnostics,
            error: None,
        }
    }

    /// A failed run: status `error` (or `rejected`), no data, the error set. The error's
    /// `tool` is the command that failed, also for shared `LLM_` codes.
    pub fn failed(command: &'static str, query: serde_json::Value, error: &Error) -> Self {
        let mut diagnostic = error.to_diagnostic();
        diagnostic.tool = command.to_string();
        JsonResponse {
            schema_version: SCHEMA_VERSION,
            execution_id: execution_id(),
            command,
            status: error.status(),
            query,
            data: None,
            partial: false,
            diagnostics: error.extra_diagnostics().to_vec(),
            error: Some(diagnostic),
        }
    }
}

/// Envelope of every mutation (`transform`, `patch`, `write`).
#[derive(Debug, Clone, Serialize)]
pub struct OperationResult<R: Serialize> {
    pub schema_version: &'static str,
    pub execution_id: String,
    pub operation_type: &'static str,
    pub status: Status,
    pub message: String,
    /// RFC 3339, UTC.
    pub timestamp: String,
    /// Absolute workspace root the mutation was confined to.
    pub workspace: String,
    pub result: Option<R>,
    pub diagnostics: Vec<DiagnosticPayload>,
    pub error: Option<DiagnosticPayload>,
}

impl<R: Serialize> OperationResult<R> {
    /// A finished mutation (applied, dry-run, or rejected with a result to show).
    pub fn new(
        operation_type: &'static str,
        status: Status,
        message: String,
        workspace: String,
        result: R,
        diagnostics: Vec<DiagnosticPayload>,
    ) -> Self {
        OperationResult {
            schema_version: SCHEMA_VERSION,
            execution_id: execution_id(),
            operation_type,
            status,
            message,
            timestamp: now_rfc3339(),
            workspace,
            result: Some(result),
            diagnostics,
            error: None,
        }
    }

    /// A mutation that failed or was refused before producing a result.
    pub fn failed(operation_type: &'static str, workspace: String, error: &Error) -> Self {
        let mut diagnostic = error.to_diagnostic();
        diagnostic.tool = operation_type.to_string();
        OperationResult {
            schema_version: SCHEMA_VERSION,
            execution_id: execution_id(),
            operation_type,
            status: error.status(),
            message: error.message.clone(),
            timestamp: now_rfc3339(),
            workspace,
            result: None,
            diagnostics: error.extra_diagnostics().to_vec(),
            error: Some(diagnostic),
        }
    }
}

/// This process's execution id (a UUID v4, the same for every envelope and the journal record
/// of the run: one process is one execution).
pub fn execution_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(new_id).clone()
}

/// A fresh UUID v4 as a string (`match_id`).
pub fn new_id() -> String {
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// Current time, RFC 3339 in UTC with second precision.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes() {
        assert_eq!(Status::Ok.exit_code(), 0);
        assert_eq!(Status::Partial.exit_code(), 0);
        assert_eq!(Status::NoMatches.exit_code(), 1);
        assert_eq!(Status::Rejected.exit_code(), 1);
        assert_eq!(Status::Error.exit_code(), 2);
    }

    #[test]
    fn status_wire_names() {
        for s in [
            Status::Ok,
            Status::NoMatches,
            Status::Partial,
            Status::Rejected,
            Status::Error,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }

    #[test]
    fn timestamp_is_rfc3339_utc() {
        let t = now_rfc3339();
        assert!(t.ends_with('Z') && t.len() == 20, "{t}");
    }
}
