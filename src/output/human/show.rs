//! Human rendering of `llm show`: a heading per view, then its lines numbered as `cat -n`
//! numbers them (`%6d\t`), elision markers unnumbered, and what `--max-bytes` cut.

use super::Style;
use crate::cmd::show::ShowData;
use std::io::{self, Write};

/// Prints every view.
pub fn print(out: &mut impl Write, style: &Style, data: &ShowData) -> io::Result<()> {
    for (i, v) in data.views.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let what = match &v.symbol {
            Some(s) => format!(" {} `{}`", s.kind.as_str(), s.qualified_name),
            None if v.mode == "skeleton" => " skeleton".to_string(),
            None => String::new(),
        };
        let lines = if v.mode == "skeleton" {
            String::new()
        } else {
            format!(
                ":{}-{}",
                v.lines
                    .first()
                    .and_then(|l| l.number)
                    .unwrap_or(v.span.start_line),
                v.lines
                    .last()
                    .and_then(|l| l.number)
                    .unwrap_or(v.span.start_line)
            )
        };
        writeln!(
            out,
            "{}{}",
            style.path(&format!("{}{lines}", v.file_path)),
            style.dim(&format!("{what} (checksum {})", &v.checksum[..16]))
        )?;
        for l in &v.lines {
            match l.number {
                Some(n) => writeln!(out, "{}\t{}", style.line_no(&format!("{n:>6}")), l.text)?,
                None => writeln!(out, "      \t{}", style.dim(&l.text))?,
            }
        }
        if let Some(o) = &v.omitted {
            writeln!(
                out,
                "{}",
                style.dim(&format!(
                    "… cut by --max-bytes: {} line{} ({}-{}, {} bytes) not shown; see them with `{}`",
                    o.lines,
                    if o.lines == 1 { "" } else { "s" },
                    o.start_line,
                    o.end_line,
                    o.bytes,
                    o.command
                ))
            )?;
        }
    }
    Ok(())
}
