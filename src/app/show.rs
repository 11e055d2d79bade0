//! `llm show` glue: targets (NAME [PATH]…, FILE:START-END, FILE:LINE, --skeleton PATH…) →
//! `cmd::show` → printer, and the exit code.

use crate::cli::ShowArgs;
use crate::cmd::patch::Selector;
use crate::cmd::show::{self, ShowOptions, Target};
use crate::envelope::JsonResponse;
use crate::error::{Code, Error};
use crate::output::human::Style;
use crate::output::{json, query_exit_code, Format, Printer};
use std::io;
use std::path::PathBuf;

/// Runs `llm show` and prints its result; returns the exit code.
pub fn run(args: ShowArgs, printer: &mut Printer) -> io::Result<u8> {
    let query = serde_json::json!({
        "targets": args.targets.iter().map(|t| t.to_string_lossy()).collect::<Vec<_>>(),
        "skeleton": args.skeleton,
        "kind": args.kind,
        "parent": args.parent,
        "line": args.line,
        "context": args.context,
        "max_bytes": args.max_bytes,
    });
    let outcome = options(args).and_then(|o| show::run(&o));
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => return crate::fail_query(printer, "show", query, &e),
    };
    let code = query_exit_code(outcome.status, &outcome.diagnostics);
    match printer.format {
        Format::Human => {
            let style = Style { on: printer.color };
            crate::output::human::show::print(printer.out(), &style, &outcome.data)?;
            printer.diagnostics_to_stderr(&outcome.diagnostics);
        }
        Format::Json => {
            let pretty = printer.tty;
            let env = JsonResponse::new(
                "show",
                outcome.status,
                query,
                outcome.data,
                outcome.diagnostics,
            );
            json::envelope(printer.out(), &env, pretty)?;
        }
        Format::Jsonl => {
            let mut data = outcome.data;
            for v in &data.views {
                json::tagged_line(printer.out(), "view", v)?;
            }
            data.views.clear();
            let env = JsonResponse::new("show", outcome.status, query, data, outcome.diagnostics);
            json::tagged_line(printer.out(), "summary", &env)?;
        }
    }
    Ok(code)
}

/// `FILE:START-END` or `FILE:LINE` when the text has that form and FILE is a file.
fn parse_range(t: &std::path::Path) -> Option<(PathBuf, usize, usize)> {
    let s = t.to_str()?;
    let (file, lines) = s.rsplit_once(':')?;
    let (a, b) = match lines.split_once('-') {
        Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
        None => {
            let n: usize = lines.parse().ok()?;
            (n, n)
        }
    };
    let file = PathBuf::from(file);
    file.is_file().then_some((file, a, b))
}

fn options(args: ShowArgs) -> Result<ShowOptions, Error> {
    let target = if args.skeleton {
        Target::Skeleton {
            paths: args.targets,
        }
    } else {
        let mut targets = args.targets.into_iter();
        let Some(first) = targets.next() else {
            return Err(Error::new(
                Code::ShowArgs,
                "nothing to show: pass NAME, FILE:START-END or --skeleton PATH",
                "e.g. `llm show Parser::parse src/`, `llm show src/lib.rs:10-40`",
            ));
        };
        let rest: Vec<PathBuf> = targets.collect();
        // A FIFO, socket or device, or a directory spelled as a path (`./d`, `d/`, `.`), is
        // no symbol's name: it was looked for as one ("no symbol `pipe.rs`").
        let spelled_as_path = |p: &std::path::Path| {
            let s = p.as_os_str().as_encoded_bytes();
            s.contains(&b'/') || s == b"." || s == b".."
        };
        if rest.is_empty() {
            if let Ok(meta) = std::fs::metadata(&first) {
                if !meta.is_file() && (!meta.is_dir() || spelled_as_path(&first)) {
                    let shown = first.display();
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{shown} is not a regular file (a directory, FIFO, socket or device)"),
                        "show a regular file, a range of it (FILE:START-END) or a symbol; `llm show --skeleton DIR` outlines a directory",
                    )
                    .with_file(shown.to_string()));
                }
            }
        }
        let whole = (rest.is_empty() && first.is_file()).then(|| (first.clone(), 1, usize::MAX));
        if let Some((file, start, end)) = whole.or_else(|| parse_range(&first)) {
            if !rest.is_empty() || !args.kind.is_empty() || args.parent.is_some() {
                return Err(Error::new(
                    Code::ShowArgs,
                    "FILE:START-END takes no further paths, --kind or --parent",
                    "run one `llm show FILE:START-END` per range",
                ));
            }
            Target::Range { file, start, end }
        } else {
            let Some(name) = first.to_str().map(str::to_string) else {
                return Err(Error::new(
                    Code::ShowArgs,
                    format!("`{}` is not a UTF-8 name", first.to_string_lossy()),
                    "name the symbol in UTF-8, or show a FILE:START-END range",
                ));
            };
            let looks_like_range = name.rsplit_once(':').filter(|(f, l)| {
                !f.is_empty()
                    && !f.ends_with(':')
                    && !l.is_empty()
                    && l.split('-')
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            });
            if let Some((file, lines)) = looks_like_range {
                let path = std::path::Path::new(file);
                if path.exists() && !path.is_file() {
                    return Err(Error::new(
                        Code::NotAFile,
                        format!("{file} is not a regular file (a directory, FIFO, socket or device)"),
                        "show lines of a regular file; `llm show --skeleton DIR` outlines a directory",
                    )
                    .with_file(file));
                }
                if path.is_file() {
                    return Err(Error::new(
                        Code::ShowBadRange,
                        format!("{file}:{lines}: the line numbers are too large"),
                        format!("pass lines of the file, e.g. `llm show {file}:1-40`"),
                    ));
                }
                return Err(Error::new(
                    Code::PathNotFound,
                    format!("{file}: no such file"),
                    "check the path of FILE:START-END (relative to the current directory)",
                ));
            }
            Target::Symbol {
                selector: Selector {
                    name,
                    kinds: super::patch::kinds(&args.kind)?,
                    parent: args.parent,
                    line: args.line,
                },
                paths: rest,
            }
        }
    };
    Ok(ShowOptions {
        target,
        context: args.context,
        max_bytes: args.max_bytes,
    })
}
