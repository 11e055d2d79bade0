//! `llm generate`: shell completions and man pages from the clap definition, written into
//! `completions/` and `man/`. Both are committed; a test regenerates them and fails when stale.

use crate::error::{Code, Error};
use crate::output::Printer;
use clap_complete::Shell;
use std::io::{self, Write};
use std::path::Path;

/// Every generated file as (relative path, contents).
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut cmd = crate::cli::command();
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cmd, "llm", &mut buf);
        let name = match shell {
            Shell::Bash => "llm.bash".to_string(),
            Shell::Zsh => "_llm".to_string(),
            Shell::Fish => "llm.fish".to_string(),
            Shell::PowerShell => "_llm.ps1".to_string(),
            _ => "llm.elv".to_string(),
        };
        out.push((format!("completions/{name}"), buf));
    }
    let cmd = crate::cli::command();
    out.push(("man/llm.1".to_string(), man_page(&cmd)));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name: &'static str = Box::leak(format!("llm-{}", sub.get_name()).into_boxed_str());
        let sub = sub.clone().name(name).display_name(name);
        out.push((format!("man/{name}.1"), man_page(&sub)));
    }
    out
}

fn man_page(cmd: &clap::Command) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .date("")
        .render(&mut buf)
        .expect("rendering to memory cannot fail");
    buf
}

/// Writes every generated file under `out_dir`.
pub fn run(out_dir: &Path, printer: &mut Printer) -> io::Result<u8> {
    for (rel, contents) in files() {
        let path = out_dir.join(&rel);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|_| std::fs::write(&path, &contents));
        if let Err(e) = written {
            let err = Error::new(
                Code::GenerateFailed,
                format!("{}: {e}", path.display()),
                "check that the directory is writable",
            );
            return crate::fail_query(printer, "generate", serde_json::Value::Null, &err);
        }
        writeln!(printer.out(), "wrote {}", path.display())?;
    }
    Ok(0)
}
