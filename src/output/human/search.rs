//! Human output of `llm search`, as ripgrep prints it: `path:line:col:text`, or headings on a
//! terminal; `-` for context lines and `--` between groups; `-l` paths; `-c` counts; `-r` shows
//! the lines with the replacement applied.

use super::Style;
use crate::cmd::search::{FileMatches, FileResult, Mode, SearchMatch};
use crate::output::write_uint;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Presentation choices that do not change what is found.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchView {
    /// Group under a heading (None = on a terminal).
    pub heading: Option<bool>,
    /// Omit lines longer than this.
    pub max_columns: Option<usize>,
    /// `-o`: each match's text on a line of its own.
    pub only_matching: bool,
    /// `-0`: a NUL byte after each path instead of `:` or a newline.
    pub null: bool,
    /// `-H` (Some(true)) / `-I` (Some(false)): the path on each line or never; None: unless
    /// one file was named.
    pub with_filename: Option<bool>,
    /// Line and column numbers (`-N` turns them off).
    pub line_numbers: bool,
    /// `-b`: the byte offset of each line (of each match with -o).
    pub byte_offset: bool,
    /// `--trim`: leading whitespace of printed lines dropped.
    pub trim: bool,
    /// `--stats`: counts after the results.
    pub stats: bool,
    /// `--no-messages`: no warnings or per-file errors on stderr.
    pub no_messages: bool,
    /// `-p`: headings and colour (indented JSON).
    pub pretty: bool,
    /// `-q`: nothing printed.
    pub quiet: bool,
    /// `--vimgrep`: each match on a line of its own, with its path, line and column.
    pub vimgrep: bool,
}

/// Streams search results as text. [`SearchHuman::body`] renders one file on any thread;
/// [`SearchHuman::separator`] writes what goes between files, in order.
pub struct SearchHuman {
    pub style: Style,
    pub heading: bool,
    pub max_columns: Option<usize>,
    pub mode: Mode,
    pub context: bool,
    /// Only one file was named: no path on match lines, and `-c` prints just the count, as
    /// ripgrep does.
    pub single_file: bool,
    /// The path is printed (on each line, or as a heading).
    pub show_path: bool,
    /// What follows a path on a line: `:` (`-` on context lines), or NUL with -0.
    pub null: bool,
    pub only_matching: bool,
    pub line_numbers: bool,
    /// No column (-v: a line that does not match has no match column, as ripgrep).
    pub columns: bool,
    pub byte_offset: bool,
    pub trim: bool,
    pub vimgrep: bool,
    /// Files' groups of lines are set apart by a blank line: under headings, and with
    /// `--heading` asked where no path is shown (`-I`), as ripgrep does.
    pub grouped: bool,
    /// `-v`: the lines printed are the ones that do not match (`-M` says "matching line").
    pub invert: bool,
    /// A file was printed (separators go between files). Atomic so that the printer can be
    /// shared with the threads that render bodies.
    printed_any: AtomicBool,
}

enum Line<'a> {
    Match {
        text: &'a str,
        col: usize,
        /// Byte offset of the line's start, where known (-b).
        offset: Option<usize>,
        /// The line's length with its line ending (-M), where known.
        len: usize,
        /// Highlighted byte ranges of `text`, each with its replacement under `-r`.
        ranges: Vec<(usize, usize, Option<Cow<'a, str>>)>,
        n_matches: usize,
    },
    Context {
        text: &'a str,
        /// Byte offset of the line's start (-b).
        offset: Option<usize>,
        /// The line's length with its line ending (-M), where known.
        len: usize,
    },
    /// A line covered by a multiline match that `-r` replaced: not printed.
    Replaced,
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
        invert: bool,
    ) -> Self {
        let show_path = view.vimgrep || view.with_filename.unwrap_or(!single_file);
        let grouped = heading && !view.vimgrep && !single_file;
        SearchHuman {
            style,
            grouped,
            invert,
            heading: heading
                && show_path
                && !view.vimgrep
                && (!single_file || view.with_filename == Some(true)),
            max_columns: view.max_columns,
            mode,
            context: context && !view.vimgrep,
            single_file,
            show_path,
            null: view.null,
            only_matching: view.only_matching,
            line_numbers: view.line_numbers,
            columns: view.line_numbers && !invert,
            byte_offset: view.byte_offset,
            trim: view.trim,
            vimgrep: view.vimgrep,
            printed_any: AtomicBool::new(false),
        }
    }

    /// Prints one file's result (separator and body).
    pub fn file(&self, out: &mut impl Write, r: &FileResult) -> io::Result<()> {
        if !r.continued {
            self.separator(out)?;
        }
        match &r.rendered {
            Some(bytes) => out.write_all(bytes),
            None => self.body(out, r),
        }
    }

    /// What goes before a file's body: a blank line between headings, `--` between context
    /// groups of different files.
    pub fn separator(&self, out: &mut impl Write) -> io::Result<()> {
        if self.mode != Mode::Matches {
            return Ok(());
        }
        if self.printed_any.swap(true, Ordering::Relaxed) {
            if self.heading || self.grouped {
                writeln!(out)?;
            } else if self.context {
                writeln!(out, "--")?;
            }
        }
        Ok(())
    }

    /// One file's lines (or its `-l` path, or its `-c` count), from the worker's records.
    pub fn body_of(
        &self,
        out: &mut Vec<u8>,
        r: &FileResult,
        m: &FileMatches<'_>,
    ) -> io::Result<()> {
        if self.mode != Mode::Matches {
            return self.body(out, r);
        }
        if self.plain()
            && m.replacements.is_empty()
            && m.records.iter().all(|x| x.last_line == x.start_line)
        {
            self.plain_records(out, r, m);
            return Ok(());
        }
        let mut matches = Vec::with_capacity(m.records.len() + 1);
        if let (Some(lead), true) = (&m.chunk.lead, self.context) {
            // The previous chunk's last match: its after-context is this chunk's to print.
            matches.extend(m.with_records(std::slice::from_ref(lead)).to_matches(None));
        }
        matches.extend(m.to_matches(None));
        self.matches_body(out, r, &matches, m.chunk.printed_through, m.chunk.more)
    }

    /// One file's lines (or its `-l` path, or its `-c` count).
    pub fn body(&self, out: &mut impl Write, r: &FileResult) -> io::Result<()> {
        self.matches_body(out, r, &r.matches, 0, false)
    }

    /// No colour, context or column limit: match lines print as they are.
    pub fn plain(&self) -> bool {
        !self.context
            && !self.style.on
            && self.max_columns.is_none()
            && !self.null
            && !self.only_matching
            && !self.vimgrep
            && self.columns
            && !self.byte_offset
            && !self.trim
            && self.show_path != self.single_file
    }

    /// The path as printed: escaped (control characters could fake lines of output), or with
    /// -0 the name's own bytes, for `xargs -0` (a name that is not UTF-8 too).
    fn path(&self, r: &FileResult) -> Vec<u8> {
        if !self.null {
            return self.style.path(&r.file.file_path).into_bytes();
        }
        let name = r.raw_path.as_deref().unwrap_or(r.file.file_path.as_bytes());
        if !self.style.on {
            return name.to_vec();
        }
        [b"\x1b[35m", name, b"\x1b[0m"].concat()
    }

    /// What follows a path: `sep`, or a NUL byte with -0.
    fn after_path(&self, sep: &'static str) -> &'static str {
        if self.null {
            "\0"
        } else {
            sep
        }
    }

    /// Where `matches` are one chunk of the file's (see `cmd::search::matches::Chunk`; the
    /// first may then be the previous chunk's last): `printed_through`, the last line the
    /// chunks before printed, and `more`, whether more chunks follow.
    fn matches_body(
        &self,
        out: &mut impl Write,
        r: &FileResult,
        matches: &[SearchMatch],
        printed_through: usize,
        more: bool,
    ) -> io::Result<()> {
        let path = self.path(r);
        match self.mode {
            Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Files => {
                out.write_all(&path)?;
                return write!(out, "{}", self.after_path("\n"));
            }
            Mode::CountLines | Mode::CountMatches => {
                let n = if self.mode == Mode::CountLines {
                    r.file.line_count
                } else {
                    r.file.match_count
                };
                return if self.show_path {
                    out.write_all(&path)?;
                    writeln!(out, "{}{n}", self.after_path(":"))
                } else {
                    writeln!(out, "{n}")
                };
            }
            Mode::Matches => {}
        }
        if self.heading && !r.continued {
            out.write_all(&path)?;
            write!(out, "{}", self.after_path("\n"))?;
        }
        let prefix = if self.heading || !self.show_path {
            Vec::new()
        } else {
            path
        };
        let (match_sep, context_sep) = if prefix.is_empty() {
            ("", "")
        } else {
            (self.after_path(":"), self.after_path("-"))
        };
        if self.vimgrep {
            return self.vimgrep_lines(out, &prefix, match_sep, matches);
        }
        if self.only_matching && !self.context {
            return self.only_matches(out, &prefix, match_sep, matches);
        }
        if self.plain()
            && matches
                .iter()
                .all(|m| m.more_lines.is_empty() && m.replacement.is_none())
        {
            return self.plain_lines(out, &prefix, match_sep, matches, printed_through);
        }
        let lines = collect_lines(matches);
        // Lines the chunks before printed are not printed again, nor those past this chunk's
        // last match while more chunks follow.
        let after = printed_through;
        let through = match matches.last() {
            Some(m) if more => m.span.start_line + m.more_lines.len(),
            _ => usize::MAX,
        };
        let mut prev: Option<usize> = (after > 0).then_some(after);
        let shown = match through > after {
            true => lines.range(after + 1..=through),
            false => lines.range(0..0),
        };
        for (no, line) in shown {
            if matches!(line, Line::Replaced) {
                continue;
            }
            if self.context && prev.is_some_and(|p| no - p > 1) {
                writeln!(out, "--")?;
            }
            prev = Some(*no);
            let no_text = self.style.line_no(&no.to_string());
            match line {
                Line::Match {
                    text,
                    ranges,
                    offset,
                    ..
                } if self.only_matching => {
                    // -o with context: each match's text on a line of its own, as rg, an
                    // empty one too (a match of the `\r` that `text` leaves out prints empty).
                    for (a, b, repl) in ranges {
                        let clip = |i: usize| i.min(text.len());
                        let piece = repl.as_deref().or_else(|| text.get(clip(*a)..clip(*b)));
                        let Some(piece) = piece else {
                            continue;
                        };
                        out.write_all(&prefix)?;
                        write!(out, "{match_sep}")?;
                        if self.line_numbers {
                            write!(out, "{no_text}:")?;
                        }
                        if self.columns {
                            write!(out, "{}:", a + 1)?;
                        }
                        if let (true, Some(o)) = (self.byte_offset, offset) {
                            write!(out, "{}:", o + a)?;
                        }
                        writeln!(out, "{}", self.style.matched(self.trimmed(piece)))?;
                    }
                }
                Line::Match {
                    text,
                    col,
                    ranges,
                    n_matches,
                    offset,
                    len,
                } => {
                    let body = self.render(text, *len, ranges, *n_matches);
                    out.write_all(&prefix)?;
                    write!(out, "{match_sep}")?;
                    if self.line_numbers {
                        write!(out, "{no_text}:")?;
                    }
                    if self.columns {
                        write!(out, "{}:", col + 1)?;
                    }
                    if let (true, Some(o)) = (self.byte_offset, offset) {
                        write!(out, "{o}:")?;
                    }
                    writeln!(out, "{}", self.trimmed(&body))?;
                }
                Line::Context { text, offset, len } => {
                    let body = self.render(text, *len, &[], 0);
                    out.write_all(&prefix)?;
                    write!(out, "{context_sep}")?;
                    if self.line_numbers {
                        write!(out, "{no_text}-")?;
                    }
                    if let (true, Some(o)) = (self.byte_offset, offset) {
                        write!(out, "{o}-")?;
                    }
                    writeln!(out, "{}", self.trimmed(&body))?;
                }
                Line::Replaced => {}
            }
        }
        Ok(())
    }

    /// `--trim`: without leading ASCII whitespace.
    fn trimmed<'t>(&self, text: &'t str) -> &'t str {
        if self.trim {
            text.trim_start_matches(|c: char| c.is_ascii_whitespace())
        } else {
            text
        }
    }

    /// `-o`: each match's text on a line of its own (each line of a multiline match).
    fn only_matches(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &str,
        matches: &[SearchMatch],
    ) -> io::Result<()> {
        for m in matches {
            let text = m.replacement.as_deref().unwrap_or(&m.matched_text);
            let mut offset = m.span.byte_start;
            // An empty text (`-r ''`, an empty match) is one empty line, as in rg.
            let pieces = text
                .split_inclusive('\n')
                .chain(text.is_empty().then_some(""));
            for (i, piece) in pieces.enumerate() {
                let line = piece.strip_suffix('\n').unwrap_or(piece);
                let line = line.strip_suffix('\r').unwrap_or(line);
                out.write_all(prefix)?;
                write!(out, "{sep}")?;
                if self.line_numbers {
                    write!(
                        out,
                        "{}:",
                        self.style.line_no(&(m.span.start_line + i).to_string())
                    )?;
                }
                if self.columns {
                    let col = if i == 0 { m.span.start_col + 1 } else { 1 };
                    write!(out, "{col}:")?;
                }
                if self.byte_offset {
                    write!(out, "{offset}:")?;
                }
                writeln!(out, "{}", self.style.matched(self.trimmed(line)))?;
                offset += piece.len();
            }
        }
        Ok(())
    }

    /// `--vimgrep`: one `path:line:col:text` per match, the text its line's (its own with -o,
    /// its replacement with -r -o), the first line of a multiline one.
    fn vimgrep_lines(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &str,
        matches: &[SearchMatch],
    ) -> io::Result<()> {
        for m in matches {
            let text = if self.only_matching {
                let t = m.replacement.as_deref().unwrap_or(&m.matched_text);
                t.split('\n').next().unwrap_or(t)
            } else {
                m.line_text.as_str()
            };
            let text = text.strip_suffix('\r').unwrap_or(text);
            let line = self.style.line_no(&m.span.start_line.to_string());
            out.write_all(prefix)?;
            write!(out, "{sep}{line}:")?;
            if self.columns {
                write!(out, "{}:", m.span.start_col + 1)?;
            }
            writeln!(out, "{}", self.trimmed(text))?;
        }
        Ok(())
    }

    /// The common case, without allocating: single-line matches, no context, no colour, no
    /// replacement, no column limit — one `prefix:line:col:text` per matching line.
    fn plain_lines(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &str,
        matches: &[SearchMatch],
        printed_through: usize,
    ) -> io::Result<()> {
        let mut last_line = printed_through;
        for m in matches {
            if m.span.start_line <= last_line {
                continue;
            }
            last_line = m.span.start_line;
            out.write_all(prefix)?;
            out.write_all(sep.as_bytes())?;
            write!(out, "{}:{}:", m.span.start_line, m.span.start_col + 1)?;
            out.write_all(m.line_text.as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// [`SearchHuman::plain_lines`] straight from the file's bytes.
    fn plain_records(&self, out: &mut Vec<u8>, r: &FileResult, m: &FileMatches<'_>) {
        // Control characters in a name are escaped (they could fake result lines).
        let path = super::escape_controls(&r.file.file_path);
        if self.heading && !r.continued {
            out.extend_from_slice(path.as_bytes());
            out.push(b'\n');
        }
        let prefix: &[u8] = if self.heading || self.single_file {
            b""
        } else {
            path.as_bytes()
        };
        // Room for all of it at once: a buffer grown by doubling copies its bytes each time.
        let room = |rec| prefix.len() + m.line_text(rec).len() + 24;
        out.reserve(m.records.iter().map(room).sum());
        // A line the previous chunk printed (its first matches) is not printed again.
        let mut last_line = m.chunk.printed_through;
        for rec in m.records {
            if rec.start_line <= last_line {
                continue;
            }
            last_line = rec.start_line;
            let text = m.line_text(rec);
            out.reserve(room(rec));
            if !prefix.is_empty() {
                out.extend_from_slice(prefix);
                out.push(b':');
            }
            write_uint(out, rec.start_line);
            out.push(b':');
            write_uint(out, rec.start_col + 1);
            out.push(b':');
            if m.utf8 {
                out.extend_from_slice(text);
            } else {
                out.extend_from_slice(String::from_utf8_lossy(text).as_bytes());
            }
            out.push(b'\n');
        }
    }

    /// `len`: the line's length with its line ending, what `-M` limits (as ripgrep).
    fn render(
        &self,
        text: &str,
        len: usize,
        ranges: &[(usize, usize, Option<Cow<'_, str>>)],
        n_matches: usize,
    ) -> String {
        let replacing = ranges.iter().any(|r| r.2.is_some());
        if let Some(max) = self.max_columns {
            // With -r, the line as printed, replacements in (as ripgrep measures it).
            let shown = ranges
                .iter()
                .fold(len.max(text.len()), |n, (s, e, r)| match r {
                    Some(r) => (n + r.len()).saturating_sub(e - s),
                    None => n,
                });
            if shown > max {
                // A `-v` line is one that does not match: ripgrep names it so.
                return if self.invert && n_matches > 0 {
                    "[Omitted long matching line]".to_string()
                } else if n_matches > 0 {
                    format!("[Omitted long line with {n_matches} matches]")
                } else {
                    "[Omitted long context line]".to_string()
                };
            }
        }
        if (!self.style.on && !replacing) || ranges.is_empty() {
            return text.to_string();
        }
        let mut s = String::with_capacity(text.len() + ranges.len() * 12);
        let mut at = 0;
        for (a, b, repl) in ranges {
            let (a, b) = (*a, *b);
            let (a, b) = (a.min(text.len()), b.min(text.len()));
            if a < at || a > b || !text.is_char_boundary(a) || !text.is_char_boundary(b) {
                continue;
            }
            s.push_str(&text[at..a]);
            s.push_str(&self.style.matched(repl.as_deref().unwrap_or(&text[a..b])));
            at = b;
        }
        s.push_str(&text[at..]);
        s
    }
}

/// Every line to print for one file: match lines (highlight ranges, first column) and context.
fn collect_lines(matches: &[SearchMatch]) -> BTreeMap<usize, Line<'_>> {
    let mut lines: BTreeMap<usize, Line> = BTreeMap::new();
    fn add<'a>(
        lines: &mut BTreeMap<usize, Line<'a>>,
        no: usize,
        text: &'a str,
        range: (usize, usize, Option<Cow<'a, str>>),
        (offset, len): (Option<usize>, usize),
    ) {
        match lines.get_mut(&no) {
            Some(Line::Match {
                ranges, n_matches, ..
            }) => {
                ranges.push(range);
                *n_matches += 1;
            }
            _ => {
                lines.insert(
                    no,
                    Line::Match {
                        text,
                        col: range.0,
                        offset,
                        len,
                        ranges: vec![range],
                        n_matches: 1,
                    },
                );
            }
        }
    }
    for m in matches {
        let s = &m.span;
        let last = s.start_line + m.more_lines.len();
        let offsets = &m.line_offsets;
        let first = (Some(s.byte_start - s.start_col), offsets.first_len);
        // Where a line is, by what `LineOffsets` knows of it: (offset, length with ending).
        let at = |known: Option<&(usize, usize)>| known.map_or((None, 0), |&(o, l)| (Some(o), l));
        if let (Some(repl), false) = (&m.replacement, m.more_lines.is_empty()) {
            // A replaced multiline match prints as one line: what precedes the match on its
            // first line, the replacement, and what follows it on its last line.
            let tail = if s.end_line == last {
                m.more_lines
                    .last()
                    .map_or("", |t| &t[s.end_col.min(t.len())..])
            } else {
                ""
            };
            add(
                &mut lines,
                s.start_line,
                m.line_text.as_str(),
                (
                    s.start_col,
                    m.line_text.len(),
                    Some(Cow::Owned(format!("{repl}{tail}"))),
                ),
                first,
            );
            for no in s.start_line + 1..=last {
                lines.insert(no, Line::Replaced);
            }
        } else {
            let texts = std::iter::once(m.line_text.as_str())
                .chain(m.more_lines.iter().map(String::as_str));
            for (i, text) in texts.enumerate() {
                let no = s.start_line + i;
                let start = if i == 0 { s.start_col } else { 0 };
                let end = if no == s.end_line {
                    s.end_col
                } else {
                    text.len()
                };
                let place = match i {
                    0 => first,
                    _ => at(offsets.more.get(i - 1)),
                };
                add(
                    &mut lines,
                    no,
                    text,
                    (start, end, m.replacement.as_deref().map(Cow::Borrowed)),
                    place,
                );
            }
        }
        for (i, text) in m.context_before.iter().enumerate() {
            let no = s.start_line - m.context_before.len() + i;
            let (offset, len) = at(offsets.before.get(i));
            lines
                .entry(no)
                .or_insert(Line::Context { text, offset, len });
        }
        for (i, text) in m.context_after.iter().enumerate() {
            let no = last + 1 + i;
            let (offset, len) = at(offsets.after.get(i));
            // A line with hits past -m prints as a match, with each of them (`-o` prints
            // them), also where an earlier match's context put the line in as context.
            let matched = matches!(lines.get(&no), Some(Line::Match { .. }));
            let mut hits = m.after_hits.iter().filter(|h| h.0 == no).peekable();
            if !matched && hits.peek().is_some() {
                for &(_, a, b) in hits {
                    add(&mut lines, no, text, (a, b, None), (offset, len));
                }
            } else {
                lines
                    .entry(no)
                    .or_insert(Line::Context { text, offset, len });
            }
        }
    }
    lines
}
