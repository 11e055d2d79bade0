//! Ruby's places to cut a big file's outline parse in parts (see `Language::outline_symbols`):
//! a lexical scan that reads Ruby as tree-sitter-ruby does — strings with `#{}` interpolation,
//! heredocs, percent literals, regexps, `?c` characters, symbols, comments, `=begin` blocks,
//! `__END__` — and follows `class`/`module`/`def`/`if`/`do`/… blocks to their `end`, to find
//! lines between two members of a class or module body (or between two top-level items).
//!
//! Ruby has no region scanner (`Rules::regions`): this serves only the split outline, so
//! nothing else about Ruby files changes. A scan that meets anything it cannot place (a
//! closer without its opener, a literal or block still open at the end) finds no cut, and a
//! part that has a syntax error sends the file to a whole parse: a misreading costs time.

use std::ops::Range;

/// Where a file is cut: the first part is the file up to `cut` and from `close` on, the second
/// the file up to `head` and from `cut` on. Each member of the container is parsed in one of
/// them as in the whole file, with the container's head and `end` around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockCut {
    /// The end of the container's head and first member (the line after its `end`): the
    /// second part holds them, so that the container's body starts where the whole parse has
    /// it (its `body_span`); 0 at top level.
    pub head: usize,
    /// The start of the line after a member's `end`: the next member, or the comments and
    /// blank lines above it.
    pub cut: usize,
    /// The container's `end` keyword; the file's length at top level.
    pub close: usize,
}

/// At most `parts` parts of `src` to parse for its outline, each at most three quarters of the
/// file; `None` when there is no cut. Two are cut at [`best_cut`]'s line; more at lines of its
/// container (or of the top level), about evenly spaced in its body: each part holds the
/// file up to the container's head, one run of its members, and the file from its `end` on
/// (the first, the file up to its first cut; the last, the file from its cut on). A member is
/// parsed in one part as in the whole file, with the container's head and `end` around it.
pub fn parts(src: &[u8], parts: usize) -> Option<Vec<Vec<Range<usize>>>> {
    let split = any_parts(src, parts)?;
    let most = src.len() / 4 * 3;
    split
        .iter()
        .all(|h| h.iter().map(|r| r.len()).sum::<usize>() <= most)
        .then_some(split)
}

/// [`parts`] of any size.
fn any_parts(src: &[u8], parts: usize) -> Option<Vec<Vec<Range<usize>>>> {
    let all = cuts(src)?;
    let best = best_cut(src.len(), &all)?;
    let lines = if parts <= 2 {
        vec![best.cut]
    } else {
        // The cut lines of the container, the one nearest each of `parts - 1` evenly spaced
        // places in its body.
        let own: Vec<usize> = (all.iter())
            .filter(|c| (c.head, c.close) == (best.head, best.close))
            .map(|c| c.cut)
            .collect();
        let body = best.close - best.head;
        let mut lines: Vec<usize> = (1..parts)
            .filter_map(|k| {
                let at = best.head + body * k / parts;
                own.iter().copied().min_by_key(|&c| c.abs_diff(at))
            })
            .collect();
        lines.dedup();
        lines
    };
    Some(best.parts_at(&lines, src.len()))
}

impl BlockCut {
    /// The ranges of the two parts of a file of `len` bytes.
    #[cfg(test)]
    pub fn parts(&self, len: usize) -> Vec<Vec<Range<usize>>> {
        self.parts_at(&[self.cut], len)
    }

    /// The ranges of the parts of a file of `len` bytes cut at `lines`, cut lines of this cut's
    /// container (or of the top level), in order (see [`parts`]).
    fn parts_at(&self, lines: &[usize], len: usize) -> Vec<Vec<Range<usize>>> {
        let mut out = Vec::with_capacity(lines.len() + 1);
        let mut from = 0;
        for &line in lines {
            out.push(vec![0..self.head, from..line, self.close..len]);
            from = line;
        }
        out.push(vec![0..self.head, from..len]);
        // The first part's run starts at 0: it holds the head already.
        out[0].remove(0);
        (out.into_iter())
            .map(|p| p.into_iter().filter(|r| !r.is_empty()).collect())
            .collect()
    }
}

/// [`best_cut`] of `src`; `None` when there is none, or the scan is not sure of the file.
#[cfg(test)]
pub fn block_cut(src: &[u8]) -> Option<BlockCut> {
    best_cut(src.len(), &cuts(src)?)
}

/// Of `cuts` of a file of `n` bytes, the one that leaves the less to parse to the bigger part:
/// each a line right after a line that ends with an `end` closing a member, whose first code is
/// `def`, `class` or `module`, in a `class` or `module` body (not its first such line: see
/// [`BlockCut::head`]) or at top level.
fn best_cut(n: usize, cuts: &[BlockCut]) -> Option<BlockCut> {
    cuts.iter()
        .copied()
        .min_by_key(|c| (c.cut + n - c.close).max(c.head + n - c.cut))
}

/// Every cut of `src`, in order; `None` when the scan is not sure of the file.
fn cuts(src: &[u8]) -> Option<Vec<BlockCut>> {
    let mut s = Scan {
        src,
        stack: Vec::new(),
        containers: Vec::new(),
        heredocs: Vec::new(),
        st: St::Beg,
        space: true,
        loop_cond: None,
        after_end: After::Off,
        alias: false,
        cuts: Vec::new(),
        depth: 0,
    };
    let start = if src.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    s.code(start)?;
    if !s.stack.is_empty() || !s.heredocs.is_empty() {
        return None;
    }
    let cuts = s.cuts.iter().filter_map(|&(cut, c)| {
        let (head, close) = match c {
            None => (0, src.len()),
            Some(c) => (s.containers[c].first?, s.containers[c].close?),
        };
        Some(BlockCut { head, cut, close })
    });
    Some(cuts.collect())
}

/// What the last token leaves the lexer expecting, as tree-sitter-ruby's states decide between
/// `/regexp/` and `/`, `%w[…]` and `%`, `<<~ID` and `<<`, `?c` and `?`, `if` and modifier `if`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// An expression (statement start, after an operator, `(`, `,` or most keywords).
    Beg,
    /// After `return`, `break`, `next`: an expression, but `if` is a modifier.
    Mid,
    /// After a name that may be a command call (`foo /x/`): a literal when spaced like one.
    Arg,
    /// After a value (`)`, a literal, `end`, `self`): an operator.
    End,
    /// After `.`, `&.`, `::`: a method name, keywords included.
    Dot,
    /// After `class`: `<<` opens a singleton class.
    Class,
}

/// An open construct that its closer must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A `class` or `module` (its index in `Scan::containers`).
    Container(usize),
    /// A `def` that is not endless (as far as read).
    Def,
    /// Any other keyword block to `end`: `if`, `unless`, `while`, `until`, `for`, `case`,
    /// `begin`, `do`.
    Block,
    /// A bracket; a `(` of a `def`'s parameters is `true` (`=` after its `)` makes the
    /// definition endless).
    Open(u8, bool),
}

#[derive(Debug, Clone, Copy)]
struct Container {
    /// Its first cut line, which ends [`BlockCut::head`] for the others.
    first: Option<usize>,
    /// Its `end` keyword.
    close: Option<usize>,
}

/// Whether the lines since the last `end` can be a cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum After {
    Off,
    /// The last code token was an `end`.
    End,
    /// …followed by a line break, after which a cut may start (only comments since).
    Line(usize),
}

struct Scan<'a> {
    src: &'a [u8],
    stack: Vec<Frame>,
    containers: Vec<Container>,
    /// Heredocs started on the current line.
    heredocs: Vec<literals::Heredoc>,
    st: St,
    /// Whitespace before the current token.
    space: bool,
    /// The stack height of a `while`/`until`/`for` whose condition is being read: its `do`
    /// belongs to it, not to a block.
    loop_cond: Option<usize>,
    after_end: After,
    /// After `alias`: its first name is read next.
    alias: bool,
    /// Cut lines and the container each is in (`None`: top level).
    cuts: Vec<(usize, Option<usize>)>,
    /// Interpolations and heredoc bodies being read, nested.
    depth: usize,
}

/// Deeper nesting of interpolations than this is not read (no cut).
const MAX_DEPTH: usize = 64;

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Operator method names (`def <=>`, `:[]=`, `x.+`), longest first.
const OPERATORS: &[&[u8]] = &[
    b"[]=", b"<=>", b"===", b"[]", b"==", b"=~", b"!=", b"!~", b"<<", b">>", b"<=", b">=", b"**",
    b"+@", b"-@", b"~@", b"!@", b"+", b"-", b"*", b"/", b"%", b"<", b">", b"!", b"~", b"&", b"|",
    b"^", b"`",
];

impl Scan<'_> {
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn starts(&self, i: usize, s: &[u8]) -> bool {
        self.src.get(i..i + s.len()) == Some(s)
    }

    fn skip_blanks(&self, mut i: usize) -> usize {
        while matches!(self.at(i), b' ' | b'\t') {
            i += 1;
        }
        i
    }

    fn word_end(&self, mut i: usize) -> usize {
        while i < self.src.len() && is_ident(self.src[i]) {
            i += 1;
        }
        i
    }

    /// The end of the operator method name at `i`, if one is there.
    fn operator_end(&self, i: usize) -> Option<usize> {
        OPERATORS
            .iter()
            .find(|op| self.starts(i, op))
            .map(|op| i + op.len())
    }

    /// Reads code from `i` to the end of the file (`depth` 0) or to the `}` closing an
    /// interpolation (returns the offset after it). `None`: the file is not read with
    /// confidence.
    fn code(&mut self, mut i: usize) -> Option<usize> {
        let src = self.src;
        let n = src.len();
        let base = self.stack.len();
        let nested = self.depth > 0;
        loop {
            if i >= n {
                return (!nested).then_some(n);
            }
            if i == 0 || src[i - 1] == b'\n' {
                if self.starts(i, b"=begin") {
                    i = self.begin_comment(i)?;
                    self.space = true;
                    continue;
                }
                if !nested && self.starts(i, b"__END__") {
                    let j = i + 7;
                    if j == n || src[j] == b'\n' || self.starts(j, b"\r\n") {
                        return Some(n);
                    }
                }
            }
            let b = src[i];
            match b {
                b'\n' => {
                    i = self.newline(i + 1)?;
                    continue;
                }
                _ if is_space(b) => {
                    self.space = true;
                    i += 1;
                    continue;
                }
                b'\\' if src.get(i + 1) == Some(&b'\n') || self.starts(i + 1, b"\r\n") => {
                    self.space = true;
                    i += if src[i + 1] == b'\n' { 2 } else { 3 };
                    continue;
                }
                b'#' => {
                    i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k);
                    self.space = true;
                    continue;
                }
                b'}' if nested && self.stack.len() == base => return Some(i + 1),
                _ => {}
            }
            // A token: the lines since an `end` can hold a cut only before a member.
            let after = std::mem::replace(&mut self.after_end, After::Off);
            i = if self.st == St::Dot {
                let j = self.method_name(i);
                // `alias new old`: two names.
                if std::mem::take(&mut self.alias) && j > i {
                    self.st = St::Dot;
                }
                j
            } else {
                self.token(i, after)?
            };
            self.space = false;
        }
    }

    /// After a line break at `i - 1`: the bodies of the heredocs started on the line, and what
    /// the line's end decides (a loop's condition, a cut's start).
    fn newline(&mut self, i: usize) -> Option<usize> {
        let i = if self.heredocs.is_empty() {
            i
        } else {
            self.heredoc_bodies(i)?
        };
        // A line ending in a value ends its statement (`while x`); one ending in an operator
        // or comma goes on.
        if matches!(self.st, St::Arg | St::End) {
            self.loop_cond = None;
        }
        if self.after_end == After::End {
            self.after_end = After::Line(i);
        }
        if self.st != St::Dot {
            self.st = St::Beg;
        }
        self.space = true;
        Some(i)
    }

    /// A `=begin` comment at `i` (a line start), as tree-sitter-ruby reads it: to the end of
    /// the line holding the next `=end`, wherever it is on that line.
    fn begin_comment(&self, i: usize) -> Option<usize> {
        let src = self.src;
        let line = i + memchr::memchr(b'\n', &src[i..])? + 1;
        let end = line + memchr::memmem::find(&src[line..], b"=end")?;
        Some(memchr::memchr(b'\n', &src[end..]).map_or(src.len(), |k| end + k))
    }

    /// One token at `i` (not whitespace or a comment); returns the offset after it.
    fn token(&mut self, i: usize, after: After) -> Option<usize> {
        let src = self.src;
        let b = src[i];
        let st = self.st;
        // Where an expression may start: a literal rather than an operator.
        let value_next = matches!(st, St::Beg | St::Mid | St::Class);
        let next = self.at(i + 1);
        let mut j = i + 1;
        self.st = St::Beg;
        match b {
            b'"' | b'`' => {
                j = self.literal(i + 1, b, b, true, false)?;
                self.st = St::End;
            }
            b'\'' => {
                j = self.literal(i + 1, b, b, false, false)?;
                self.st = St::End;
            }
            b':' => match next {
                b':' => {
                    j = i + 2;
                    self.st = St::Dot;
                }
                b'"' => {
                    j = self.literal(i + 2, next, next, true, false)?;
                    self.st = St::End;
                }
                b'\'' => {
                    j = self.literal(i + 2, next, next, false, false)?;
                    self.st = St::End;
                }
                _ => {
                    if let Some(e) = self.symbol(i + 1) {
                        j = e;
                        self.st = St::End;
                    }
                }
            },
            b'?' if st != St::End => {
                if let Some(e) = self.character(i + 1) {
                    j = e;
                    self.st = St::End;
                }
            }
            b'/' if value_next
                || (st == St::Arg
                    && self.space
                    && !matches!(next, b' ' | b'\t' | b'\n' | b'\r' | b'=')) =>
            {
                j = self.literal(i + 1, b'/', b'/', true, true)?;
                self.st = St::End;
            }
            b'%' if st != St::End => {
                if let Some(e) = self.percent(i, st == St::Arg)? {
                    j = e;
                    self.st = St::End;
                }
            }
            b'<' if next == b'<' && st == St::Class => j = i + 2,
            b'<' if next == b'<' && st != St::End => {
                if let Some(e) = self.heredoc_start(i + 2) {
                    j = e;
                    self.st = St::End;
                } else {
                    j = i + 2;
                }
            }
            b'@' => {
                j = self.word_end(i + if next == b'@' { 2 } else { 1 });
                self.st = St::Arg;
            }
            b'$' => {
                j = if next == b'-' {
                    i + 3
                } else if is_ident(next) {
                    self.word_end(i + 1)
                } else {
                    i + 2
                };
                self.st = St::Arg;
            }
            b'.' => {
                if next == b'.' {
                    j = if self.at(i + 2) == b'.' { i + 3 } else { i + 2 };
                } else {
                    self.st = St::Dot;
                }
            }
            b'&' if next == b'.' => {
                j = i + 2;
                self.st = St::Dot;
            }
            b'(' | b'[' | b'{' => self.stack.push(Frame::Open(b, false)),
            b')' | b']' | b'}' => {
                let Some(Frame::Open(open, params)) = self.stack.pop() else {
                    return None;
                };
                if literals::closing(open) != b {
                    return None;
                }
                self.st = St::End;
                if params {
                    // The body starts (`def m(s) /x/ end`), or `def m(a) = a`: an endless
                    // definition, no `end`.
                    self.st = St::Beg;
                    let k = self.skip_blanks(j);
                    if self.at(k) == b'=' && !b"=~>".contains(&self.at(k + 1)) {
                        (self.stack.pop() == Some(Frame::Def)).then_some(())?;
                        j = k + 1;
                    }
                }
            }
            b';' => self.loop_cond = None,
            b'0'..=b'9' => {
                j = self.number(i);
                self.st = St::End;
            }
            _ if is_ident(b) => return self.word(i, st, after),
            _ => {}
        }
        Some(j)
    }

    /// A number at `i` (`1_000`, `0x1F`, `1.5e-3`, `2r`).
    fn number(&self, mut i: usize) -> usize {
        let src = self.src;
        let mut dot = false;
        while i < src.len() {
            let b = src[i];
            if is_ident(b) {
                i += 1;
            } else if b == b'.' && !dot && self.at(i + 1).is_ascii_digit() {
                dot = true;
                i += 1;
            } else if matches!(b, b'+' | b'-')
                && matches!(src[i - 1], b'e' | b'E')
                && self.at(i + 1).is_ascii_digit()
            {
                i += 1;
            } else {
                break;
            }
        }
        i
    }

    /// A name after `.`, `::` or `def` (keywords and operators are names there); returns the
    /// offset after it.
    fn method_name(&mut self, i: usize) -> usize {
        self.st = St::Arg;
        if is_ident(self.at(i)) {
            let mut j = self.word_end(i);
            if matches!(self.at(j), b'?' | b'!') && self.at(j + 1) != b'=' {
                j += 1;
            }
            return j;
        }
        // Not a name (`x.()`, `alias :a :b`, `alias $a $b`): read as code.
        self.operator_end(i).unwrap_or_else(|| {
            self.st = St::Beg;
            i
        })
    }

    /// A word at `i` after a token that left `st`: a keyword, a label, or a name.
    fn word(&mut self, i: usize, st: St, after: After) -> Option<usize> {
        let src = self.src;
        let mut j = self.word_end(i);
        if matches!(self.at(j), b'?' | b'!') && self.at(j + 1) != b'=' {
            j += 1;
        }
        // `if: 1`, `end:` — a label, not a keyword.
        if self.at(j) == b':' && self.at(j + 1) != b':' {
            self.st = St::Beg;
            return Some(j + 1);
        }
        let w = &src[i..j];
        if let After::Line(cut) = after {
            if matches!(w, b"def" | b"class" | b"module") && self.depth == 0 {
                match self.stack.last() {
                    None => self.cuts.push((cut, None)),
                    Some(&Frame::Container(c)) => match self.containers[c].first {
                        None => self.containers[c].first = Some(cut),
                        Some(_) => self.cuts.push((cut, Some(c))),
                    },
                    Some(_) => {}
                }
            }
        }
        let opens = matches!(st, St::Beg | St::Class);
        self.st = St::Beg;
        match w {
            b"class" | b"module" => {
                self.stack.push(Frame::Container(self.containers.len()));
                self.containers.push(Container {
                    first: None,
                    close: None,
                });
                if w == b"class" {
                    self.st = St::Class;
                }
            }
            b"def" => {
                self.stack.push(Frame::Def);
                return self.def_head(j);
            }
            b"if" | b"unless" | b"while" | b"until" if opens => {
                self.stack.push(Frame::Block);
                if matches!(w, b"while" | b"until") {
                    self.loop_cond = Some(self.stack.len());
                }
            }
            b"for" => {
                self.stack.push(Frame::Block);
                self.loop_cond = Some(self.stack.len());
            }
            b"case" | b"begin" => self.stack.push(Frame::Block),
            b"do" => {
                if self.loop_cond == Some(self.stack.len()) {
                    self.loop_cond = None;
                } else {
                    self.stack.push(Frame::Block);
                }
            }
            b"end" => {
                match self.stack.pop()? {
                    Frame::Open(..) => return None,
                    Frame::Container(c) => self.containers[c].close = Some(i),
                    _ => {}
                }
                if self.loop_cond.is_some_and(|h| h > self.stack.len()) {
                    self.loop_cond = None;
                }
                self.st = St::End;
                self.after_end = After::End;
            }
            b"return" | b"break" | b"next" => self.st = St::Mid,
            b"self" | b"nil" | b"true" | b"false" | b"redo" | b"retry" | b"__FILE__"
            | b"__LINE__" | b"__ENCODING__" => self.st = St::End,
            b"alias" | b"undef" => {
                self.st = St::Dot;
                self.alias = w == b"alias";
            }
            b"if" | b"unless" | b"while" | b"until" | b"then" | b"else" | b"elsif" | b"when"
            | b"in" | b"and" | b"or" | b"not" | b"rescue" | b"ensure" => {}
            _ => self.st = St::Arg,
        }
        Some(j)
    }

    /// After `def` (at `i`): the name, then whether the definition is endless (`def m = x`,
    /// `def m(a) = x`: no `end`), known at once or at its parameters' `)`.
    fn def_head(&mut self, i: usize) -> Option<usize> {
        let mut j = self.skip_blanks(i);
        if !is_ident(self.at(j)) && self.operator_end(j).is_none() {
            // A name on another line, or `def (expr).m`: left to the code.
            return Some(j);
        }
        // `def self.m`, `def obj.m`.
        let w = self.word_end(j);
        if w > j && self.at(w) == b'.' && self.at(w + 1) != b'.' {
            j = w + 1;
        }
        j = self.method_name(j);
        // A setter: `def x=(v)`.
        if is_ident(self.at(j - 1)) && self.at(j) == b'=' && !b"=~>".contains(&self.at(j + 1)) {
            j += 1;
        }
        self.st = St::Beg;
        let k = self.skip_blanks(j);
        match self.at(k) {
            b'(' => {
                self.stack.push(Frame::Open(b'(', true));
                Some(k + 1)
            }
            b'=' if !b"=~>".contains(&self.at(k + 1)) => {
                (self.stack.pop() == Some(Frame::Def)).then_some(())?;
                Some(k + 1)
            }
            _ => Some(j),
        }
    }
}

#[path = "ruby_cut_literals.rs"]
mod literals;

#[cfg(test)]
#[path = "ruby_cut_tests.rs"]
mod tests;
