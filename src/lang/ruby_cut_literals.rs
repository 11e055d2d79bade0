//! The literals of `ruby_cut`'s scan, read as tree-sitter-ruby's external scanner reads them:
//! strings and percent literals (nesting brackets, `#{}` interpolation read as code), regexps,
//! heredocs (bodies after their line, several per line, terminators indented or not), `?c`
//! characters and symbols.

use super::{is_ident, Scan, St, MAX_DEPTH};

/// A heredoc whose body starts after the current line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Heredoc {
    /// The identifier's range in the source.
    word: (usize, usize),
    /// `<<~ID`, `<<-ID`: the terminator may be indented.
    indent: bool,
    /// Not `<<~'ID'`: `#{}` interpolates.
    interp: bool,
}

/// The delimiters tree-sitter-ruby takes after `%` (a bracket opens a nesting pair).
fn percent_delimiter(b: u8) -> bool {
    b"([{<|!#/\\@$%^&*)]}>+-~`,.?:;_\"'".contains(&b)
}

/// The closer of a literal or bracket opened by `open`.
pub(super) fn closing(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        b'<' => b'>',
        b => b,
    }
}

impl Scan<'_> {
    /// A symbol's name after `:` at `i - 1` (`:a`, `:a?`, `:a=`, `:@a`, `:$a`, `:<=>`); `None`
    /// when `:` is an operator.
    pub(super) fn symbol(&self, i: usize) -> Option<usize> {
        let mut j = i;
        if self.at(j) == b'@' {
            j += if self.at(j + 1) == b'@' { 2 } else { 1 };
        } else if self.at(j) == b'$' {
            j += 1;
        }
        if is_ident(self.at(j)) {
            j = self.word_end(j);
        } else {
            j = self.operator_end(j)?;
            j = self.word_end(j);
        }
        if matches!(self.at(j), b'?' | b'!') {
            j += 1;
        }
        if self.at(j) == b'=' && self.at(j + 1) != b'>' {
            j += 1;
        }
        Some(j)
    }

    /// A character literal after `?` at `i - 1` (`?a`, `?\n`, `?\u{41}`, `?\C-a`), as
    /// tree-sitter-ruby's token reads it; `None` when `?` is the ternary operator.
    pub(super) fn character(&self, i: usize) -> Option<usize> {
        let c = self.at(i);
        if c == 0 && i >= self.src.len() || c.is_ascii_whitespace() {
            return None;
        }
        if c != b'\\' {
            return Some(self.char_end(i));
        }
        let e = self.at(i + 1);
        if e == 0 && i + 1 >= self.src.len() || e.is_ascii_whitespace() {
            return Some(i + 1);
        }
        let mut j = self.char_end(i + 1);
        if self.at(j) == b'{' {
            let h = j
                + 1
                + self.src[j + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_hexdigit())
                    .count();
            if self.at(h) == b'}' {
                return Some(h + 1);
            }
        }
        if self.at(j) == b'-' && !self.at(j + 1).is_ascii_whitespace() && j + 1 < self.src.len() {
            j = self.char_end(j + 1);
            if matches!(self.at(j), b'M' | b'C') && self.at(j + 1) == b'-' {
                let k = j + 2;
                if k < self.src.len() && !self.at(k).is_ascii_whitespace() {
                    return Some(self.char_end(k));
                }
            }
            return Some(j);
        }
        Some(
            j + self.src[j..]
                .iter()
                .take_while(|b| b.is_ascii_hexdigit())
                .count(),
        )
    }

    /// The end of the UTF-8 character at `i`.
    fn char_end(&self, i: usize) -> usize {
        let mut j = i + 1;
        while j < self.src.len() && self.src[j] & 0xC0 == 0x80 {
            j += 1;
        }
        j
    }

    /// A percent literal at `i` (`%w[…]`, `%q(…)`, `%(…)`, `%r{…}`), as tree-sitter-ruby
    /// opens one; `Some(None)` when `%` is the operator. After a name (`arg`), a space does not
    /// open one.
    pub(super) fn percent(&mut self, i: usize, arg: bool) -> Option<Option<usize>> {
        let mut j = i + 1;
        let (interp, regex) = match self.at(j) {
            b'q' | b'w' | b'i' | b's' => (false, false),
            b'Q' | b'W' | b'I' | b'x' => (true, false),
            b'r' => (true, true),
            _ => {
                j -= 1;
                (true, false)
            }
        };
        j += 1;
        let d = self.at(j);
        let opens = percent_delimiter(d) || (!arg && matches!(d, b' ' | b'\t' | b'\n' | b'\r'));
        if j >= self.src.len() || !opens {
            return Some(None);
        }
        self.literal(j + 1, d, closing(d), interp, regex).map(Some)
    }

    /// The rest of a literal from `i` to its closing `close` (nesting `open` when they
    /// differ), reading `#{…}` as code when it interpolates; returns the offset after it (and
    /// after a regexp's flags).
    pub(super) fn literal(
        &mut self,
        mut i: usize,
        open: u8,
        close: u8,
        interp: bool,
        regex: bool,
    ) -> Option<usize> {
        let src = self.src;
        let mut nest = 0usize;
        while i < src.len() {
            let b = src[i];
            if b == close {
                if nest == 0 {
                    i += 1;
                    if regex {
                        while self.at(i).is_ascii_lowercase() {
                            i += 1;
                        }
                    }
                    return Some(i);
                }
                nest -= 1;
            } else if b == open {
                nest += 1;
            } else if b == b'\\' {
                i += 1;
            } else if interp && b == b'#' && self.at(i + 1) == b'{' {
                i = self.interpolation(i + 2)?;
                continue;
            }
            i += 1;
        }
        None
    }

    /// The code of an interpolation from `i` (after `#{`); returns the offset after its `}`.
    fn interpolation(&mut self, i: usize) -> Option<usize> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let st = self.st;
        self.depth += 1;
        self.st = St::Beg;
        let end = self.code(i);
        self.depth -= 1;
        self.st = st;
        end
    }

    /// A heredoc's identifier after `<<` at `i - 2` (`<<~ID`, `<<-ID`, `<<ID`, quoted): its
    /// body is read after the line. `None` when `<<` is the operator.
    pub(super) fn heredoc_start(&mut self, i: usize) -> Option<usize> {
        let mut j = i;
        let indent = matches!(self.at(j), b'-' | b'~');
        if indent {
            j += 1;
        }
        let q = self.at(j);
        let (word, end, interp) = if matches!(q, b'\'' | b'"' | b'`') {
            let k = j + 1 + memchr::memchr(q, &self.src[j + 1..])?;
            ((j + 1, k), k + 1, q != b'\'')
        } else {
            let k = j + self.src[j..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            ((j, k), k, true)
        };
        if word.0 == word.1 {
            return None;
        }
        self.heredocs.push(Heredoc {
            word,
            indent,
            interp,
        });
        Some(end)
    }

    /// The bodies of the heredocs started on the line before `i`, one after another; returns
    /// the start of the line after the last terminator.
    pub(super) fn heredoc_bodies(&mut self, mut i: usize) -> Option<usize> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        let docs = std::mem::take(&mut self.heredocs);
        self.depth += 1;
        for h in docs {
            i = self.heredoc_body(i, h)?;
        }
        self.depth -= 1;
        // A heredoc started inside a body's interpolation: not read.
        self.heredocs.is_empty().then_some(i)
    }

    /// Whether the heredoc's terminator is at `i`: its identifier, blanks, a line break.
    fn terminator(&self, i: usize, h: &Heredoc) -> Option<usize> {
        let word = &self.src[h.word.0..h.word.1];
        if !self.starts(i, word) {
            return None;
        }
        let k = self.skip_blanks(i + word.len());
        match self.at(k) {
            b'\n' => Some(k + 1),
            b'\r' if self.at(k + 1) == b'\n' => Some(k + 2),
            b'\r' => Some(k + 1),
            _ if k >= self.src.len() => Some(k),
            _ => None,
        }
    }

    /// One heredoc body from the line start `i`; returns the start of the line after its
    /// terminator. As tree-sitter-ruby reads it, the terminator is also looked for right after
    /// an interpolation or an escape.
    fn heredoc_body(&mut self, mut i: usize, h: Heredoc) -> Option<usize> {
        let src = self.src;
        let mut line_start = true;
        while i < src.len() {
            if line_start {
                let k = self.skip_blanks(i);
                if k == i || h.indent {
                    if let Some(e) = self.terminator(k, &h) {
                        return Some(e);
                    }
                }
                line_start = false;
            }
            let b = src[i];
            if b == b'\n' {
                line_start = true;
                i += 1;
            } else if h.interp && (b == b'\\' || b == b'#' && self.at(i + 1) == b'{') {
                i = if b == b'\\' {
                    self.char_end(i + 1)
                } else {
                    self.interpolation(i + 2)?
                };
                if let Some(e) = self.terminator(i, &h) {
                    return Some(e);
                }
            } else {
                i += 1;
            }
        }
        None
    }
}
