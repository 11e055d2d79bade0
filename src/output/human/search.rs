//! Human output of `llm search`, as ripgrep prints it: `path:line:col:text`, or headings on a
//! terminal; `-` for context lines and `--` between groups; `-l` paths; `-c` counts; `-r` shows
//! the lines with the replacement applied.

use super::Style;
use crate::cmd::search::{FileMatches, FileResult, Mode, SearchMatch};
use crate::output::write_uint;
use lines::{collect_lines, piece, Line, Piece};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

mod colors;
mod fields;
mod lines;
mod passthru;
mod preview;

pub use colors::{Colors, SpecError};
pub use fields::Fields;

/// Presentation choices that do not change what is found.
#[derive(Debug, Clone, Default)]
pub struct SearchView {
    /// Group under a heading (None = on a terminal).
    pub heading: Option<bool>,
    /// Omit lines longer than this.
    pub max_columns: Option<usize>,
    /// `--max-columns-preview`: print a long line's first `max_columns` bytes, and how many
    /// matches it leaves out, rather than only a summary.
    pub max_columns_preview: bool,
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
    /// The line between groups of context lines that are not contiguous (`--`;
    /// `--context-separator`); `None` with `--no-context-separator`.
    pub context_separator: Option<Vec<u8>>,
    /// `--no-column`: no column on any line (`--vimgrep` too, as rg).
    pub no_column: bool,
    /// `--field-match-separator`, `--field-context-separator`, `--path-separator`.
    pub fields: Fields,
    /// `--colors`: rg's colours, as changed (used when colour is on).
    pub colors: Colors,
}

/// Streams search results as text. [`SearchHuman::body`] renders one file on any thread;
/// [`SearchHuman::separator`] writes what goes between files, in order.
pub struct SearchHuman {
    pub style: Style,
    pub heading: bool,
    pub max_columns: Option<usize>,
    /// See [`SearchView::max_columns_preview`].
    pub max_columns_preview: bool,
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
    /// With -v, context lines (which match) show the column of their match, as `rg --column
    /// -v` does (with --vimgrep, one line per match).
    pub context_columns: bool,
    /// `--vimgrep`'s match lines show their column (even under -N; not with `--no-column`).
    pub vimgrep_columns: bool,
    pub byte_offset: bool,
    pub trim: bool,
    pub vimgrep: bool,
    /// Files' groups of lines are set apart by a blank line: under headings, and with
    /// `--heading` asked where no path is shown (`-I`), as ripgrep does.
    pub grouped: bool,
    /// `-v`: the lines printed are the ones that do not match (`-M` says "matching line").
    pub invert: bool,
    /// `-r` was given (with `-v` too, whose context lines it replaces). Not a view flag: the
    /// caller sets it.
    pub replace: bool,
    /// `--stats`.
    pub stats: bool,
    /// See [`SearchView::context_separator`].
    pub context_separator: Option<Vec<u8>>,
    /// See [`SearchView::fields`].
    pub fields: Fields,
    /// See [`SearchView::colors`].
    pub colors: Colors,
    /// `--` (or a blank line) goes between files' groups of lines: context lines were asked
    /// for (`-A/-B/-C`; `--passthru` alone prints none there, as rg). Set by `new` from
    /// `context`; the caller may turn it off.
    pub file_break: bool,
    /// `--null-data` (see [`SearchHuman::for_records`]): what the printer adds to the lines
    /// (paths, separators, -0's NUL) is written with `\n` and NUL swapped, so that the swap
    /// back of the whole output leaves it as it was.
    records: bool,
    /// A file was printed (separators go between files). Atomic so that the printer can be
    /// shared with the threads that render bodies.
    printed_any: AtomicBool,
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
        let show_path = view.with_filename.unwrap_or(view.vimgrep || !single_file);
        let grouped = heading && !view.vimgrep && !single_file;
        SearchHuman {
            style,
            grouped,
            invert,
            replace: false,
            stats: view.stats,
            heading: heading
                && show_path
                && !view.vimgrep
                && (!single_file || view.with_filename == Some(true)),
            max_columns: view.max_columns,
            max_columns_preview: view.max_columns_preview,
            mode,
            context,
            single_file,
            show_path,
            null: view.null,
            only_matching: view.only_matching,
            line_numbers: view.line_numbers,
            columns: view.line_numbers && !invert && !view.no_column,
            context_columns: invert && (view.line_numbers || view.vimgrep) && !view.no_column,
            vimgrep_columns: view.vimgrep && !invert && !view.no_column,
            byte_offset: view.byte_offset,
            trim: view.trim,
            vimgrep: view.vimgrep,
            context_separator: view.context_separator,
            fields: view.fields,
            colors: view.colors,
            file_break: context,
            records: false,
            printed_any: AtomicBool::new(false),
        }
    }

    /// Prints one file's result (separator and body); returns the bytes of its lines of
    /// matches and context (what rg's `--stats` counts as printed: not the separator, nor
    /// the lines of -c and -l).
    pub fn file(&self, out: &mut impl Write, r: &FileResult) -> io::Result<usize> {
        if !r.continued {
            self.separator(out)?;
        }
        let printed = match &r.rendered {
            Some(bytes) => {
                out.write_all(bytes)?;
                bytes.len()
            }
            None => {
                let mut body = Vec::new();
                self.body(&mut body, r)?;
                out.write_all(&body)?;
                body.len()
            }
        };
        Ok(if self.mode == Mode::Matches {
            printed
        } else {
            0
        })
    }

    /// The line between groups of context lines (`--`, or `--context-separator`'s), if any.
    fn context_break(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.context_separator {
            Some(sep) => {
                out.write_all(sep)?;
                out.write_all(b"\n")
            }
            None => Ok(()),
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
            } else if self.file_break {
                self.context_break(out)?;
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
        if m.passthru && m.records.is_empty() {
            return self.passthru_lines(out, r, m);
        }
        if self.plain()
            && m.replacements.is_empty()
            && m.records.iter().all(|x| x.last_line == x.start_line)
        {
            self.plain_records(out, r, m);
            return self.binary_stopped(out, r);
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
            && self.fields.is_default()
    }

    /// The path as printed: escaped (control characters could fake lines of output), or with
    /// -0 the name's own bytes, for `xargs -0` (a name that is not UTF-8 too).
    fn path(&self, r: &FileResult) -> Vec<u8> {
        let mut path = self.path_bytes(r);
        if self.records {
            fields::swap(&mut path);
        }
        path
    }

    fn path_bytes(&self, r: &FileResult) -> Vec<u8> {
        if !self.null {
            let name = super::escape_controls(&r.file.file_path);
            return self
                .fields
                .path(self.painted(&self.colors.path, name.as_bytes()));
        }
        let name = r.raw_path.as_deref().unwrap_or(r.file.file_path.as_bytes());
        self.fields.path(self.painted(&self.colors.path, name))
    }

    /// -0's NUL, as the printer writes it (a `\n` for records: see `records`).
    fn nul(&self) -> &'static [u8] {
        if self.records {
            b"\n"
        } else {
            b"\0"
        }
    }

    /// What follows a path: `sep` (`:` and `-` as --field-match-separator and
    /// --field-context-separator say), or a NUL byte with -0.
    fn after_path(&self, sep: &'static str) -> &[u8] {
        match (self.null, sep) {
            (true, _) => self.nul(),
            (false, ":") => &self.fields.matched,
            (false, "-") => &self.fields.context,
            (false, _) => sep.as_bytes(),
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
                return out.write_all(self.after_path("\n"));
            }
            Mode::CountLines | Mode::CountMatches => {
                let n = if self.mode == Mode::CountLines {
                    r.file.line_count
                } else {
                    r.file.match_count
                };
                // rg 13 writes `:` here whatever --field-match-separator says.
                return if self.show_path {
                    out.write_all(&path)?;
                    out.write_all(if self.null { self.nul() } else { b":" })?;
                    writeln!(out, "{n}")
                } else {
                    writeln!(out, "{n}")
                };
            }
            Mode::Matches => {}
        }
        if self.heading && !r.continued {
            out.write_all(&path)?;
            out.write_all(self.after_path("\n"))?;
        }
        let prefix = if self.heading || !self.show_path {
            Vec::new()
        } else {
            path
        };
        let (match_sep, context_sep): (&[u8], &[u8]) = if prefix.is_empty() {
            (b"", b"")
        } else {
            (self.after_path(":"), self.after_path("-"))
        };
        if self.vimgrep && !self.context {
            self.vimgrep_lines(out, &prefix, match_sep, matches)?;
            return self.binary_stopped(out, r);
        }
        if self.only_matching && !self.context {
            self.only_matches(out, &prefix, match_sep, matches)?;
            return self.binary_stopped(out, r);
        }
        if self.plain()
            && matches
                .iter()
                .all(|m| m.more_lines.is_empty() && m.replacement.is_none())
        {
            self.plain_lines(out, &prefix, match_sep, matches, printed_through)?;
            return self.binary_stopped(out, r);
        }
        let lines = collect_lines(matches);
        let starts = match self.vimgrep {
            true => match_starts(matches),
            false => BTreeSet::new(),
        };
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
        let mut buf = Vec::new();
        for (&no, line) in shown {
            if matches!(line, Line::Replaced) {
                continue;
            }
            if self.context && prev.is_some_and(|p| no - p > 1) {
                self.context_break(out)?;
            }
            prev = Some(no);
            buf.clear();
            let at = |offset: &Option<usize>, a: usize| offset.map(|o| o + a);
            match line {
                Line::Match {
                    text,
                    ranges,
                    n_matches,
                    offset,
                    len,
                    ..
                } if self.vimgrep => {
                    // --vimgrep with context: a line per match that starts on it (none for
                    // the further lines of a multiline one), among the context lines, as rg.
                    let starting = ranges.iter().filter(|r| starts.contains(&(no, r.0)));
                    for (a, b, repl) in starting {
                        let head = Head::new(no, Some(*a), at(offset, *a));
                        match piece(text, *a, *b, repl) {
                            Some(t) if self.only_matching => {
                                self.prelude(&mut buf, &prefix, match_sep, head, b':');
                                let measured = if self.invert { *len } else { t.len() };
                                self.only_text(&mut buf, t, measured, false);
                            }
                            None if self.only_matching => {}
                            _ => {
                                self.prelude(&mut buf, &prefix, match_sep, head, b':');
                                let kind = LineKind::Match(*n_matches);
                                self.render(&mut buf, text, *len, ranges, kind, Some(*a));
                            }
                        }
                        if self.invert {
                            // A line of -v is one match.
                            break;
                        }
                    }
                }
                Line::Match {
                    text,
                    ranges,
                    offset,
                    len,
                    ..
                } if self.only_matching => {
                    // -o with context: each match's text on a line of its own, as rg, an
                    // empty one too (a match of the `\r` that `text` leaves out prints empty).
                    for (a, b, repl) in ranges {
                        let Some(piece) = piece(text, *a, *b, repl) else {
                            continue;
                        };
                        let head = Head::new(no, Some(*a), at(offset, *a));
                        self.prelude(&mut buf, &prefix, match_sep, head, b':');
                        // A line of -v is printed whole, as a line (rg finds no match in it).
                        let measured = if self.invert { *len } else { piece.len() };
                        self.only_text(&mut buf, piece, measured, false);
                    }
                }
                Line::Context {
                    text,
                    ranges,
                    offset,
                    len,
                } if (self.only_matching || self.vimgrep) && !ranges.is_empty() => {
                    // -v -o (or --vimgrep): a context line's matches, each on a line of its
                    // own with its column and offset.
                    for (a, b, repl) in ranges {
                        let head = Head::new(no, Some(*a), at(offset, *a));
                        match piece(text, *a, *b, repl) {
                            Some(t) if self.only_matching => {
                                self.prelude(&mut buf, &prefix, context_sep, head, b'-');
                                self.only_text(&mut buf, t, t.len(), true);
                            }
                            None if self.only_matching => {}
                            _ => {
                                self.prelude(&mut buf, &prefix, context_sep, head, b'-');
                                let kind = LineKind::Context;
                                self.render(&mut buf, text, *len, ranges, kind, Some(*a));
                            }
                        }
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
                    let head = Head::new(no, Some(*col), *offset);
                    self.prelude(&mut buf, &prefix, match_sep, head, b':');
                    let kind = LineKind::Match(*n_matches);
                    self.render(&mut buf, text, *len, ranges, kind, None);
                }
                Line::Context {
                    text,
                    offset,
                    len,
                    ranges,
                } => {
                    // With -v, the column of the line's first match (see `context_columns`).
                    let head = Head::new(no, ranges.first().map(|r| r.0), *offset);
                    self.prelude(&mut buf, &prefix, context_sep, head, b'-');
                    self.render(&mut buf, text, *len, ranges, LineKind::Context, None);
                }
                Line::Replaced => {}
            }
            out.write_all(&buf)?;
        }
        self.binary_stopped(out, r)
    }

    /// After the matches of a binary file found by walking, whose search stopped at its NUL
    /// byte, ripgrep's line saying so (on stdout, after the path unless -I; not with -0's NUL).
    fn binary_stopped(&self, out: &mut impl Write, r: &FileResult) -> io::Result<()> {
        let Some(at) = r
            .binary_stopped_at
            .filter(|_| !r.more && r.file.match_count > 0)
        else {
            return Ok(());
        };
        if self.show_path {
            out.write_all(&self.path(r))?;
            out.write_all(b": ")?;
        }
        writeln!(
            out,
            "WARNING: stopped searching binary file after match (found \"\\0\" byte around offset {at})"
        )
    }

    /// What precedes a printed line's text: the path (`prefix`, then `sep`), then those of
    /// the line number, column and byte offset that are shown, each followed by `kind`
    /// (`:` on a match line, `-` on a context line). --vimgrep shows a match's column even
    /// under -N, as rg.
    fn prelude(&self, out: &mut Vec<u8>, prefix: &[u8], sep: &[u8], head: Head, kind: u8) {
        out.extend_from_slice(prefix);
        out.extend_from_slice(sep);
        let field = self.fields.of(kind);
        if self.line_numbers {
            self.number(out, &self.colors.line, head.line);
            out.extend_from_slice(field);
        }
        let columns = match kind {
            b':' => self.columns || self.vimgrep_columns,
            _ => self.context_columns,
        };
        if let (true, Some(col)) = (columns, head.col) {
            self.number(out, &self.colors.column, col + 1);
            out.extend_from_slice(field);
        }
        if let (true, Some(o)) = (self.byte_offset, head.offset) {
            self.number(out, &self.colors.column, o);
            out.extend_from_slice(field);
        }
    }

    /// `--trim`: without leading ASCII whitespace.
    fn trimmed<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        if self.trim {
            let n = text.iter().take_while(|b| b.is_ascii_whitespace()).count();
            &text[n..]
        } else {
            text
        }
    }

    /// Whether ripgrep's printer finds each match in the lines it prints (it does for
    /// columns, `-r`, colour, `--vimgrep`, `-o` and `--stats`): `-M` then counts a long line's
    /// matches, else says "matching line".
    fn granular(&self) -> bool {
        self.columns
            || self.context_columns
            || self.replace
            || self.style.on
            || self.vimgrep
            || self.only_matching
            || self.stats
    }

    /// `-o`: one match's text (or replacement) and its line ending; `measured` is what `-M`
    /// limits (the text; with `-v`, the whole line with its ending).
    fn only_text(&self, out: &mut Vec<u8>, text: &[u8], measured: usize, context: bool) {
        if self.max_columns.is_some_and(|max| measured > max) {
            out.extend_from_slice(match context {
                true => b"[Omitted long context line]\n",
                false => b"[Omitted long matching line]\n",
            });
            return;
        }
        let text = self.trimmed(text);
        if self.invert && !context {
            out.extend_from_slice(text);
        } else {
            self.paint(out, text);
        }
        out.push(b'\n');
    }

    /// `-o`: each match's text on a line of its own (each line of a multiline match).
    fn only_matches(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &[u8],
        matches: &[SearchMatch],
    ) -> io::Result<()> {
        let mut buf = Vec::new();
        for m in matches {
            let text = m.replacement_bytes().unwrap_or(m.matched_bytes());
            let mut offset = m.span.byte_start;
            // An empty text (`-r ''`, an empty match) is one empty line, as in rg.
            let pieces = text
                .split_inclusive(|&b| b == b'\n')
                .chain(text.is_empty().then_some(&b""[..]));
            for (i, piece) in pieces.enumerate() {
                let line = piece.strip_suffix(b"\n").unwrap_or(piece);
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                let col = if i == 0 { m.span.start_col } else { 0 };
                let head = Head::new(m.span.start_line + i, Some(col), Some(offset));
                buf.clear();
                self.prelude(&mut buf, prefix, sep, head, b':');
                let measured = match self.invert {
                    true => m.line_offsets.first_len,
                    false => line.len(),
                };
                self.only_text(&mut buf, line, measured, false);
                out.write_all(&buf)?;
                offset += piece.len();
            }
        }
        Ok(())
    }

    /// `--vimgrep`: one `path:line:col:text` per match, the text its line's (with every
    /// match's replacement under -r; its own text with -o, or its replacement), the first line
    /// of a multiline one. As rg, -b adds the match's offset, -N drops the line number but not
    /// the column, and -I the path.
    fn vimgrep_lines(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &[u8],
        matches: &[SearchMatch],
    ) -> io::Result<()> {
        let lines = if self.only_matching {
            BTreeMap::new()
        } else {
            collect_lines(matches)
        };
        let mut buf = Vec::new();
        for m in matches {
            buf.clear();
            let s = &m.span;
            buf.extend_from_slice(prefix);
            buf.extend_from_slice(sep);
            let field = &self.fields.matched;
            if self.line_numbers {
                self.number(&mut buf, &self.colors.line, s.start_line);
                buf.extend_from_slice(field);
            }
            // -v: a line that does not match has no column (nor any line with --no-column).
            if self.vimgrep_columns {
                self.number(&mut buf, &self.colors.column, s.start_col + 1);
                buf.extend_from_slice(field);
            }
            if self.byte_offset {
                self.number(&mut buf, &self.colors.column, s.byte_start);
                buf.extend_from_slice(field);
            }
            if self.only_matching {
                let t = m.replacement_bytes().unwrap_or(m.matched_bytes());
                let t = t.split(|&b| b == b'\n').next().unwrap_or(t);
                let t = t.strip_suffix(b"\r").unwrap_or(t);
                let measured = match self.invert {
                    true => m.line_offsets.first_len,
                    false => t.len(),
                };
                self.only_text(&mut buf, t, measured, false);
            } else if let Some(Line::Match {
                text,
                ranges,
                n_matches,
                len,
                ..
            }) = lines.get(&s.start_line)
            {
                let kind = LineKind::Match(*n_matches);
                self.render(&mut buf, text, *len, ranges, kind, Some(s.start_col));
            }
            out.write_all(&buf)?;
        }
        Ok(())
    }

    /// The common case, without allocating: single-line matches, no context, no colour, no
    /// replacement, no column limit — one `prefix:line:col:text` per matching line.
    fn plain_lines(
        &self,
        out: &mut impl Write,
        prefix: &[u8],
        sep: &[u8],
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
            out.write_all(sep)?;
            write!(out, "{}:{}:", m.span.start_line, m.span.start_col + 1)?;
            out.write_all(m.line_bytes())?;
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
            // The line's bytes as they are, valid UTF-8 or not (as rg).
            out.extend_from_slice(text);
            out.push(b'\n');
        }
    }

    /// A line's text and its line ending: with its ranges replaced (-r) and highlighted
    /// (colour; with `paint_at`, only the range that starts there; never a line of -v), or
    /// ripgrep's summary when `-M` finds it too long. `len`: the line's length with its line
    /// ending, what `-M` limits (as ripgrep; with -r, the line as printed, replacements in,
    /// without its line ending).
    fn render(
        &self,
        out: &mut Vec<u8>,
        text: &[u8],
        len: usize,
        ranges: &[Piece<'_>],
        kind: LineKind,
        paint_at: Option<usize>,
    ) {
        let replacing = ranges.iter().any(|r| r.2.is_some());
        if let Some(max) = self.max_columns {
            let shown = match replacing {
                false => len.max(text.len()),
                true => ranges.iter().fold(text.len(), |n, (s, e, r)| match r {
                    Some(r) => (n + r.len()).saturating_sub(e - s),
                    None => n,
                }),
            };
            if shown > max {
                let granular = self.granular();
                let counted = match kind {
                    // A line of -v holds no match.
                    LineKind::Match(n) if granular && !self.invert => Some(n),
                    LineKind::Context if granular && !ranges.is_empty() => Some(ranges.len()),
                    _ => None,
                };
                if self.max_columns_preview {
                    // A line of -v is printed as it is (no match to paint or replace).
                    let invert_line = self.invert && matches!(kind, LineKind::Match(_));
                    let ranges = if invert_line { &[][..] } else { ranges };
                    let line = self.spliced(text, ranges, paint_at);
                    return self.preview(out, &line, max, counted.is_some());
                }
                match (counted, kind) {
                    (Some(n), _) => {
                        let _ = write!(out, "[Omitted long line with {n} matches]");
                    }
                    (None, LineKind::Match(_)) => {
                        out.extend_from_slice(b"[Omitted long matching line]");
                    }
                    (None, LineKind::Context) => {
                        out.extend_from_slice(b"[Omitted long context line]");
                    }
                }
                out.push(b'\n');
                return;
            }
        }
        let start = out.len();
        let invert_line = self.invert && matches!(kind, LineKind::Match(_));
        if (!self.style.on && !replacing) || ranges.is_empty() || invert_line {
            out.extend_from_slice(text);
        } else {
            for (bytes, paint) in self.spliced(text, ranges, paint_at).pieces {
                match paint {
                    true => self.paint(out, &bytes),
                    false => out.extend_from_slice(&bytes),
                }
            }
        }
        if self.trim {
            let n = self.trimmed(&out[start..]).len();
            out.drain(start..out.len() - n);
        }
        out.push(b'\n');
    }
}

/// Where each match starts, as (line, column): the lines --vimgrep prints once per match (the
/// selected after-context lines past `-m` too), among lines that only continue a match.
fn match_starts(matches: &[SearchMatch]) -> BTreeSet<(usize, usize)> {
    let hits = matches.iter().flat_map(|m| &m.line_hits);
    let selected = hits.filter(|h| h.selected).map(|h| (h.line, h.start));
    let spans = matches
        .iter()
        .map(|m| (m.span.start_line, m.span.start_col));
    spans.chain(selected).collect()
}

/// The numbers before a printed line's text, where known (see [`SearchHuman::prelude`]).
#[derive(Debug, Clone, Copy)]
struct Head {
    line: usize,
    col: Option<usize>,
    offset: Option<usize>,
}

impl Head {
    fn new(line: usize, col: Option<usize>, offset: Option<usize>) -> Self {
        Head { line, col, offset }
    }
}

/// What a printed line is, for `-M`'s summary.
#[derive(Debug, Clone, Copy)]
enum LineKind {
    /// A match line, with this many matches.
    Match(usize),
    Context,
}
