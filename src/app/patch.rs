//! `llm patch` glue: new text from --with/--with-text/stdin (or the selection from `llm find`
//! JSON on stdin), options, the run, the `OperationResult`.

use crate::cli::PatchArgs;
use crate::cmd::patch::{self, Action, PatchOptions, PatchResult, Selector};
use crate::error::{Code, Error};
use crate::lang::symbols::SymbolKind;
use crate::output::Printer;
use std::io::{self, IsTerminal, Read};

/// Runs `llm patch` and prints its result; returns the exit code.
pub fn run(args: PatchArgs, printer: &mut Printer) -> io::Result<u8> {
    let workspace = super::workspace(&args.mutation.root);
    let outcome = options(args).and_then(|opts| patch::run(&opts));
    super::print_outcome(printer, "patch", workspace, outcome, |r: &PatchResult| {
        Some(&r.mutation)
    })
}

/// What stdin held.
enum Stdin {
    Nothing,
    Text(String),
    /// `llm find` output: file, qualified name, kind, line and the file's checksum.
    Found {
        file: String,
        name: String,
        kind: Option<SymbolKind>,
        line: usize,
        checksum: Option<String>,
    },
}

fn read_stdin() -> Result<Stdin, Error> {
    if io::stdin().is_terminal() {
        return Ok(Stdin::Nothing);
    }
    let mut buf = String::new();
    io::stdin().read_to_string(&mut buf).map_err(|e| {
        Error::new(
            Code::PatchBadInput,
            format!("could not read stdin as UTF-8 text: {e}"),
            "pipe UTF-8 text, or pass --with FILE",
        )
    })?;
    if buf.is_empty() {
        return Ok(Stdin::Nothing);
    }
    let trimmed = buf.trim_start();
    if trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(trimmed) {
            if v["command"] == "find" {
                return found_symbol(&v);
            }
        }
    }
    Ok(Stdin::Text(buf))
}

fn found_symbol(v: &serde_json::Value) -> Result<Stdin, Error> {
    let matches = v["data"]["matches"].as_array().cloned().unwrap_or_default();
    if matches.len() != 1 {
        return Err(Error::new(
            Code::PatchBadInput,
            format!(
                "the `llm find` output on stdin has {} matches; patch needs exactly one",
                matches.len()
            ),
            "narrow the find (--kind, --parent, a qualified name) until it returns one symbol",
        ));
    }
    let m = &matches[0];
    let file = m["span"]["file_path"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let checksum = v["data"]["files"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["file_path"] == file.as_str()))
        .and_then(|f| f["checksum"].as_str())
        .map(str::to_string);
    Ok(Stdin::Found {
        name: m["qualified_name"]
            .as_str()
            .or(m["name"].as_str())
            .unwrap_or_default()
            .to_string(),
        kind: m["kind"].as_str().and_then(SymbolKind::from_name),
        line: m["name_span"]["start_line"]
            .as_u64()
            .or(m["span"]["start_line"].as_u64())
            .unwrap_or(0) as usize,
        file,
        checksum,
    })
}

/// The symbol kinds of `--kind` (patch and show select the same way).
pub(super) fn kinds(names: &[String]) -> Result<Vec<SymbolKind>, Error> {
    names
        .iter()
        .map(|k| {
            SymbolKind::from_name(k).ok_or_else(|| {
                let names: Vec<&str> = SymbolKind::ALL.iter().map(|k| k.as_str()).collect();
                Error::new(
                    Code::UnknownKind,
                    format!("unknown symbol kind `{k}`"),
                    format!("use one of: {}", names.join(", ")),
                )
            })
        })
        .collect()
}

fn options(args: PatchArgs) -> Result<PatchOptions, Error> {
    let mut kinds = kinds(&args.kind)?;
    let action = if args.body {
        Action::Body
    } else if args.delete {
        Action::Delete
    } else if args.insert_before {
        Action::InsertBefore
    } else if args.insert_after {
        Action::InsertAfter
    } else if let Some(new) = &args.rename {
        Action::Rename(new.clone())
    } else {
        Action::Replace
    };
    let needs_text = matches!(
        action,
        Action::Replace | Action::Body | Action::InsertBefore | Action::InsertAfter
    );
    let mut text = match (&args.with, &args.with_text) {
        (Some(path), _) => Some(
            String::from_utf8(crate::fsio::read_input(
                path,
                &crate::walk::display_path(path),
            )?)
            .map_err(|_| {
                Error::new(
                    Code::PatchBadInput,
                    format!("{} is not UTF-8 text", path.display()),
                    "save the new text as UTF-8",
                )
            })?,
        ),
        (None, Some(t)) => Some(t.clone()),
        (None, None) => None,
    };
    let mut file = args.file.clone();
    let mut name = args.symbol.clone();
    let mut expected = args.expected_checksum.clone();
    let mut line = args.line;
    if text.is_none() || file.is_none() || name.is_none() {
        match read_stdin()? {
            Stdin::Nothing => {}
            Stdin::Text(t) if needs_text && text.is_none() => text = Some(t),
            Stdin::Text(_) => {}
            Stdin::Found {
                file: f,
                name: n,
                kind,
                line: l,
                checksum,
            } => {
                // Its checksum and line are those of its own file: with another --file they
                // read as "b.py changed since it was read" (LLM_E101).
                if let Some(named) = &file {
                    let same =
                        |p: &std::path::Path| crate::walk::normalize(&crate::walk::absolute(p));
                    if same(named) != same(std::path::Path::new(&f)) {
                        return Err(Error::new(
                            Code::PatchBadInput,
                            format!(
                                "the `llm find` output on stdin is about {f}, not --file {}",
                                named.display()
                            ),
                            "pipe `llm find` output for the same file, or drop --file (the piped symbol's file is used)",
                        ));
                    }
                }
                file = file.or(Some(f.into()));
                name = name.or(Some(n));
                if kinds.is_empty() {
                    kinds.extend(kind);
                }
                line = line.or(Some(l).filter(|&l| l > 0));
                expected = expected.or(checksum);
            }
        }
    }
    let (Some(file), Some(name)) = (file, name) else {
        return Err(Error::new(
            Code::PatchBadInput,
            "which symbol? --file and --symbol are required (or pipe the JSON of `llm find` for one symbol)",
            "pass --file FILE --symbol NAME",
        ));
    };
    Ok(PatchOptions {
        file,
        selector: Selector {
            name,
            kinds,
            parent: args.parent,
            line,
        },
        action,
        text,
        expected_checksum: expected,
        rename_paths: args.rename_in,
        rename_scope: patch::RenameScope {
            certain_only: args.certain_only,
            in_comments: args.in_comments,
            in_strings: args.in_strings,
        },
        check: args.check,
        check_timeout: crate::cli::secs(args.check_timeout, "--check-timeout")?,
        mutation: args.mutation.options("patch"),
    })
}
