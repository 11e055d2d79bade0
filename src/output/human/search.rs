//! Human output of `llm search`, as ripgrep prints it: `path:line:col:text`, or headings on a
//! terminal; `-` for context lines and `--` between groups; `-l` paths; `-c` counts.

use super::Style;
use crate::cmd::search::{FileResult, Mode, SearchMatch};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Presentation choices that do not change what is found.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchView {
    /// Group under a heading (None = on a terminal).
    pub heading: Option<bool>,
    /// Omit lines longer than this.
    pub max_columns: Option<usize>,
}

/// Streams search results as text.
pub struct SearchHuman {
    pub style: Style,
    pub heading: bool,
    pub max_columns: Option<usize>,
    pub mode: Mode,
    pub context: bool,
    /// Only one file was named: `-c` prints just the count, as ripgrep does.
    pub single_file: bool,
    printed_any: bool,
}

enum Line<'a> {
    Match {
        text: &'a str,
        col: usize,
        ranges: Vec<(usize, usize)>,
        n_matches: usize,
    },
    Context(&'a str),
}

impl SearchHuman {
    /// A printer for a run in `mode`.
    pub fn new(
        style: Style,
        heading: bool,
        view: SearchView,
        mode: Mode,
        context: bool,
        single_file: bool,
    ) -> Self {
        SearchHuman {
            style,
            heading,
            max_columns: view.max_columns,
            mode,
            context,
            single_file,
            printed_any: false,
        }
    }

    /// Prints one file's result.
    pub fn file(&mut self, out: &mut impl Write, r: &FileResult) -> io::Result<()> {
        let path = self.style.path(&r.file.file_path);
        match self.mode {
            Mode::FilesWithMatches => return writeln!(out, "{path}"),
            Mode::CountLines | Mode::CountMatches => {
                let n = if self.mode == Mode::CountLines {
                    r.file.line_count
                } else {
                    r.file.match_count
                };
                return if self.single_file {
                    writeln!(out, "{n}")
                } else {
                    writeln!(out, "{path}:{n}")
                };
            }
            Mode::Matches => {}
        }
        if self.heading {
            if self.printed_any {
                writeln!(out)?;
            }
            writeln!(out, "{path}")?;
        } else if self.printed_any && self.context {
            writeln!(out, "--")?;
        }
        self.printed_any = true;
        let lines = collect_lines(&r.matches);
        let mut prev: Option<usize> = None;
        for (no, line) in &lines {
            if self.context && prev.is_some_and(|p| no - p > 1) {
                writeln!(out, "--")?;
            }
            prev = Some(*no);
            let prefix = if self.heading {
                String::new()
            } else {
                path.clone()
            };
            match line {
                Line::Match {
                    text,
                    col,
                    ranges,
                    n_matches,
                } => {
                    let sep = if self.heading { "" } else { ":" };
                    let body = self.render(text, ranges, *n_matches);
                    writeln!(
                        out,
                        "{prefix}{sep}{}:{}:{body}",
                        self.style.line_no(&no.to_string()),
                        self.style.line_no(&(col + 1).to_string()),
                    )?;
                }
                Line::Context(text) => {
                    let sep = if self.heading { "" } else { "-" };
                    let body = self.render(text, &[], 0);
                    writeln!(
                        out,
                        "{prefix}{sep}{}-{body}",
                        self.style.line_no(&no.to_string())
                    )?;
                }
            }
        }
        Ok(())
    }

    fn render(&self, text: &str, ranges: &[(usize, usize)], n_matches: usize) -> String {
        if let Some(max) = self.max_columns {
            if text.len() > max {
                return if n_matches > 0 {
                    format!("[Omitted long line with {n_matches} matches]")
                } else {
                    "[Omitted long context line]".to_string()
                };
            }
        }
        if !self.style.on || ranges.is_empty() {
            return text.to_string();
        }
        let mut s = String::with_capacity(text.len() + ranges.len() * 12);
        let mut at = 0;
        for &(a, b) in ranges {
            let (a, b) = (a.max(at).min(text.len()), b.min(text.len()));
            if a < at || !text.is_char_boundary(a) || !text.is_char_boundary(b) || a > b {
                continue;
            }
            s.push_str(&text[at..a]);
            s.push_str(&self.style.matched(&text[a..b]));
            at = b;
        }
        s.push_str(&text[at..]);
        s
    }
}

/// Every line to print for one file: match lines (highlight ranges, first column) and context.
fn collect_lines(matches: &[SearchMatch]) -> BTreeMap<usize, Line<'_>> {
    let mut lines: BTreeMap<usize, Line> = BTreeMap::new();
    for m in matches {
        let s = &m.span;
        let texts =
            std::iter::once(m.line_text.as_str()).chain(m.more_lines.iter().map(String::as_str));
        for (i, text) in texts.enumerate() {
            let no = s.start_line + i;
            let start = if i == 0 { s.start_col } else { 0 };
            let end = if no == s.end_line {
                s.end_col
            } else {
                text.len()
            };
            match lines.get_mut(&no) {
                Some(Line::Match {
                    ranges, n_matches, ..
                }) => {
                    ranges.push((start, end));
                    *n_matches += 1;
                }
                _ => {
                    lines.insert(
                        no,
                        Line::Match {
                            text,
                            col: start,
                            ranges: vec![(start, end)],
                            n_matches: 1,
                        },
                    );
                }
            }
        }
        let last = s.start_line + m.more_lines.len();
        for (i, text) in m.context_before.iter().enumerate() {
            let no = s.start_line - m.context_before.len() + i;
            lines.entry(no).or_insert(Line::Context(text));
        }
        for (i, text) in m.context_after.iter().enumerate() {
            lines.entry(last + 1 + i).or_insert(Line::Context(text));
        }
    }
    lines
}
