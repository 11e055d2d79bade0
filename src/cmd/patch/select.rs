//! Picking the one symbol a patch applies to: name or qualified name (`Parser::parse` and
//! `Parser.parse` alike), narrowed by kind, parent and line; ambiguity and absence are refused
//! with every candidate and the flag that would pick it.

use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::lang::symbols::{Symbol, SymbolKind};

/// How the caller named the symbol.
#[derive(Debug, Clone, Default)]
pub struct Selector {
    /// Name or qualified name.
    pub name: String,
    pub kinds: Vec<SymbolKind>,
    /// Parent name or qualified name.
    pub parent: Option<String>,
    /// A 1-indexed line the definition must contain (the innermost such symbol wins).
    pub line: Option<usize>,
}

/// `Parser::parse`, `Parser.parse` → the same comparable form.
fn canon(name: &str) -> String {
    name.replace("::", ".")
}

/// The name, the qualified name, or its last segments (`Inner.meth` for `Outer.Inner.meth`,
/// as `llm find` takes it; `::`, `.` and `#` alike).
fn name_matches(s: &Symbol, wanted: &str) -> bool {
    let segments = |n: &str| -> Vec<String> {
        n.split("::")
            .flat_map(|p| p.split(['.', '#']))
            .map(str::to_string)
            .collect()
    };
    let want = segments(wanted);
    s.name == wanted
        || canon(&s.qualified_name) == canon(wanted)
        || (want.len() > 1 && segments(&s.qualified_name).ends_with(&want))
}

/// `--parent` names the owning type, its qualified name, or the trait/interface a method
/// implements (`impl Display for Error`: `--parent Display`).
fn parent_matches(s: &Symbol, parent: &str) -> bool {
    s.parent.as_deref() == Some(parent)
        || s.impl_of.as_deref() == Some(parent)
        || s.parent_qualified
            .as_deref()
            .is_some_and(|q| canon(q) == canon(parent))
}

/// The indices of every symbol `sel` names among `symbols` (with `--line`, the innermost).
pub fn matching(symbols: &[Symbol], sel: &Selector) -> Vec<usize> {
    let mut found: Vec<usize> = (0..symbols.len())
        .filter(|&i| {
            let s = &symbols[i];
            name_matches(s, &sel.name)
                && (sel.kinds.is_empty() || sel.kinds.contains(&s.kind))
                && sel.parent.as_deref().is_none_or(|p| parent_matches(s, p))
                && sel
                    .line
                    .is_none_or(|l| s.span.start_line <= l && l <= s.span.end_line)
        })
        .collect();
    if sel.line.is_some() && found.len() > 1 {
        // The innermost definition containing the line.
        let deepest = found.iter().map(|&i| symbols[i].depth).max().unwrap_or(0);
        found.retain(|&i| symbols[i].depth == deepest);
    }
    found
}

/// The index of the one symbol `sel` names among `symbols` of `file`.
pub fn select(symbols: &[Symbol], sel: &Selector, file: &str) -> Result<usize, Error> {
    let found = matching(symbols, sel);
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(not_found(symbols, sel, file)),
        _ => Err(ambiguous(symbols, &found, sel, file)),
    }
}

fn not_found(symbols: &[Symbol], sel: &Selector, file: &str) -> Error {
    let names: Vec<&str> = symbols
        .iter()
        .flat_map(|s| [s.name.as_str(), s.qualified_name.as_str()])
        .collect();
    let close = crate::suggest::closest(&sel.name, names.iter().copied(), 5);
    let named: Vec<&Symbol> = symbols
        .iter()
        .filter(|s| name_matches(s, &sel.name))
        .collect();
    let (message, remediation) = if !named.is_empty() {
        (
            format!("no symbol `{}` in {file} matches the --kind/--parent/--line filters ({} by that name)", sel.name, named.len()),
            format!(
                "drop or change the filters; candidates: {}",
                named.iter().map(|s| describe(s)).collect::<Vec<_>>().join("; ")
            ),
        )
    } else if close.is_empty() {
        (
            format!("no such symbol `{}` in {file}", sel.name),
            format!("run `llm find --outline {file}` to list its symbols"),
        )
    } else {
        (
            format!("no such symbol `{}` in {file}", sel.name),
            format!(
                "did you mean {}? (`llm find --outline {file}` lists every symbol)",
                close.join(", ")
            ),
        )
    };
    Error::new(Code::PatchNoSymbol, message, remediation)
        .with_file(file)
        .rejected()
}

fn describe(s: &Symbol) -> String {
    format!(
        "{} `{}` at line {}",
        s.kind.as_str(),
        s.qualified_name,
        s.name_span.start_line
    )
}

fn ambiguous(symbols: &[Symbol], found: &[usize], sel: &Selector, file: &str) -> Error {
    let kinds_differ =
        |s: &Symbol| found.iter().filter(|&&j| symbols[j].kind == s.kind).count() == 1;
    let parents_differ = |s: &Symbol| {
        s.parent.is_some()
            && found
                .iter()
                .filter(|&&j| symbols[j].parent_qualified == s.parent_qualified)
                .count()
                == 1
    };
    let traits_differ = |s: &Symbol| {
        s.impl_of.is_some()
            && found
                .iter()
                .filter(|&&j| symbols[j].impl_of == s.impl_of)
                .count()
                == 1
    };
    let related: Vec<DiagnosticPayload> = found
        .iter()
        .map(|&i| {
            let s = &symbols[i];
            let flag = if kinds_differ(s) {
                format!("--kind {}", s.kind.as_str())
            } else if parents_differ(s) {
                format!(
                    "--parent {}",
                    s.parent_qualified.as_deref().unwrap_or_default()
                )
            } else if traits_differ(s) {
                format!("--parent {}", s.impl_of.as_deref().unwrap_or_default())
            } else {
                format!("--line {}", s.name_span.start_line)
            };
            let mut d = Error::new(
                Code::PatchAmbiguous,
                format!(
                    "candidate: {}{}{}",
                    describe(s),
                    s.parent
                        .as_deref()
                        .map(|p| format!(" in `{p}`"))
                        .unwrap_or_default(),
                    s.impl_of
                        .as_deref()
                        .map(|t| format!(" (impl {t})"))
                        .unwrap_or_default()
                ),
                format!("pass {flag} to pick this one"),
            )
            .with_span(s.span.clone())
            .diagnostic(Level::Note);
            d.tool = "patch".into();
            d
        })
        .collect();
    let picks: Vec<String> = related
        .iter()
        .filter_map(|d| {
            d.remediation.as_deref().map(|r| {
                r.trim_start_matches("pass ")
                    .trim_end_matches(" to pick this one")
                    .to_string()
            })
        })
        .collect();
    Error::new(
        Code::PatchAmbiguous,
        format!(
            "symbol `{}` is ambiguous in {file}: {} candidates",
            sel.name,
            found.len()
        ),
        format!("narrow the selection: {}", picks.join(" | ")),
    )
    .with_file(file)
    .rejected()
    .with_related(related)
}
