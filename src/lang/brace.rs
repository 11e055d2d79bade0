//! The shared lexical scanner of brace languages (Go, Java, JavaScript, TypeScript): a language
//! describes its comments, quotes and item keywords as data (a [`Lexicon`]), and one scanner
//! reads any of them. It gives the file's top-level items ([`regions`]) and its big literal
//! data: the insides of long strings (of runs of joined strings too) and of brackets holding
//! only numbers and strings ([`gaps`]), which a whole-file outline need not parse (see
//! `Language::parse_outline`). Rust's and Python's items come from scanners of their own; their
//! data from this one, with a lexicon each.

use super::regions::Regions;
use std::ops::Range;

/// How a language writes one kind of string.
pub struct Quote {
    pub open: &'static str,
    pub close: &'static str,
    /// `\` escapes the next character.
    pub escapes: bool,
    /// May run over several lines (raw strings, text blocks, template literals).
    pub multiline: bool,
    /// Opens code inside the string (a template literal's `${`), closed by the matching `}`.
    pub interpolation: Option<&'static str>,
    /// A long inside may be skipped by an outline's parse (not Java's text blocks, whose empty
    /// form is not one).
    pub gap: bool,
}

impl Quote {
    /// A one-line string or char literal closed by its opener, with `\` escapes (C's `"…"` and
    /// `'…'`); `gap`: its inside may be skipped by an outline's parse.
    pub const fn escaped_line(delimiter: &'static str, gap: bool) -> Quote {
        Quote {
            open: delimiter,
            close: delimiter,
            escapes: true,
            multiline: false,
            interpolation: None,
            gap,
        }
    }

    /// A string closed by its opener that may run over several lines, with `\` escapes
    /// (Python's `'''…'''`, Java's text blocks, Rust's `"…"`).
    pub const fn escaped_block(delimiter: &'static str, gap: bool) -> Quote {
        Quote {
            multiline: true,
            ..Quote::escaped_line(delimiter, gap)
        }
    }
}

/// What the scanner needs to know about a language's text.
pub struct Lexicon {
    /// Line comment openers (`//`).
    pub line_comments: &'static [&'static str],
    /// Block comment delimiters (`/*`, `*/`; Python has none), and whether they nest (Rust).
    pub block_comment: Option<(&'static str, &'static str)>,
    pub nested_comments: bool,
    /// String forms, the longer openers first (`"""` before `"`).
    pub quotes: &'static [Quote],
    /// `'` opens a char literal or, when none closes it within a character, is a lifetime
    /// (Rust); otherwise `'` is read by `quotes` like any other quote.
    pub char_or_lifetime: bool,
    /// Rust's raw strings: `r"…"`, `r#"…"#`, `br"…"`.
    pub raw_hash_strings: bool,
    /// `/…/` after an operator is a regular expression literal (JavaScript).
    pub regex_literals: bool,
    /// Whether the language's top-level items are this scanner's [`regions`] (Rust's come
    /// from a scanner of its own).
    pub items: bool,
    /// What can begin a top-level item in column 0 (keywords, `@`); a comment there begins one
    /// too, so that an item's doc comment stays with it.
    pub item_starts: &'static [&'static str],
    /// After which tokens a top-level item can end: the bytes `}`, `;`, `)`, `]`, with `a` for
    /// a word or number and `"` for a string (Go and JavaScript end statements at line ends).
    pub item_ends: &'static [u8],
    /// The bracket of array literals whose inside may be skipped (`[` or `{`).
    pub data_open: u8,
    /// Node kinds whose inside may be skipped: the strings and array literals the gaps are in.
    pub data_kinds: &'static [&'static str],
    /// How strings are joined into one (`"…" +\n"…"`, a generated table's way), which an
    /// outline may skip as one string; `None`: never (Rust).
    pub join: Option<Join>,
    /// Bytes of a string's prefix that make it code (Python's `f'{x}'`): no data.
    pub code_prefixes: &'static [u8],
    /// Suffixes an integer literal may carry (`u8`, `L`).
    pub int_suffixes: &'static [&'static str],
    /// A line break after a value ends a statement (Go): inside an array literal, a value that
    /// ends its line must be followed by a comma.
    pub newline_ends_values: bool,
    /// A block may be cut in two at a comment's line (see [`block_cut`]): a comment first in a
    /// `{…}` block still documents the statement after it. Not in Go, whose blocks hold their
    /// statements in a list that a leading comment stays outside of.
    pub comment_cuts: bool,
}

/// How a language joins strings into one expression.
pub struct Join {
    /// What stands between two joined strings: `+`, or nothing (Python's `'a' 'b'`).
    pub with: &'static str,
    /// Where a line break may stand between them.
    pub breaks: Breaks,
    /// Where joined strings may be read as one: the node kinds whose children, or
    /// `kind.field`s whose child, may be a joined expression (a variable's value, an
    /// argument), as one string is.
    pub slots: &'static [&'static str],
}

/// Where a line break may stand between joined strings.
pub enum Breaks {
    /// Anywhere (Java, JavaScript).
    Anywhere,
    /// After the `+` only: one after a string ends the statement (Go).
    AfterJoiner,
    /// Inside brackets only (Python).
    InBrackets,
}

/// A string or array literal's inside shorter than this is parsed as it is (not worth a gap).
pub(super) const MIN_GAP: usize = 32;

/// Array literals nested deeper than this are not read as data (see `Scan::data`).
const MAX_DATA_DEPTH: usize = 256;

/// Data an outline's parse need not read (see `Language::parse_outline`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// A long string's inside, an array literal's, or, for a run of joined strings, from the
    /// first one's inside to the last one's.
    pub range: Range<usize>,
    /// Joined strings: each one's inside (empty for one literal). Left out of a parse, the
    /// range reads as one string; a range too short to leave out holds line breaks that no
    /// blank string can, so then each inside is blanked alone.
    pub joined: Vec<Range<usize>>,
}

/// The scanner's position in a file.
struct Scan<'a> {
    lex: &'static Lexicon,
    /// The bytes that may begin a comment, a string or a regular expression in the lexicon
    /// (see [`Scan::new`]): a token starting with any other is a word, a blank or a byte.
    special: [bool; 256],
    src: &'a [u8],
    gaps: Vec<Gap>,
    /// A comment or string still open at the end of the file.
    open: bool,
}

/// What one step of the scanner read.
enum Token {
    Space,
    Comment,
    /// A string; `Some` when its inside is plain data (a candidate gap, when long enough).
    Str(Option<Range<usize>>),
    Word,
    Byte(u8),
}

fn is_word(b: u8) -> bool {
    WORD_BYTES[b as usize]
}

/// [`is_word`] as a table: the scanner asks it of every byte of every word.
const WORD_BYTES: [bool; 256] = word_bytes(b"_$");

/// The bytes of a word as a table, for scanners that ask it of every byte of every word: ASCII
/// letters and digits, every byte of a multibyte UTF-8 character, and `also`.
pub(super) const fn word_bytes(also: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c >= 0x80;
        b += 1;
    }
    let mut k = 0;
    while k < also.len() {
        t[also[k] as usize] = true;
        k += 1;
    }
    t
}

impl<'a> Scan<'a> {
    fn new(lex: &'static Lexicon, src: &'a [u8]) -> Scan<'a> {
        let mut special = [false; 256];
        let firsts = (lex.line_comments.iter().copied())
            .chain(lex.block_comment.map(|b| b.0))
            .chain(lex.quotes.iter().map(|q| q.open));
        for s in firsts {
            special[s.as_bytes()[0] as usize] = true;
        }
        for (b, on) in [
            (b'\'', lex.char_or_lifetime),
            (b'r', lex.raw_hash_strings),
            (b'b', lex.raw_hash_strings),
            (b'/', lex.regex_literals),
        ] {
            special[b as usize] |= on;
        }
        Scan {
            lex,
            special,
            src,
            gaps: Vec::new(),
            open: false,
        }
    }

    /// Whether `s` is at `i` (its first byte compared first: most tokens open nothing).
    fn at(&self, i: usize, s: &str) -> bool {
        let s = s.as_bytes();
        self.src.get(i) == s.first() && self.src[i..].starts_with(s)
    }

    /// Reads one token at `i`; returns it and where the next one starts. `prev` is the last
    /// code byte before it (for `/` as a regular expression).
    fn token(&mut self, i: usize, prev: u8) -> (Token, usize) {
        let (src, lex) = (self.src, self.lex);
        let n = src.len();
        let b = src[i];
        if b.is_ascii_whitespace() {
            // A run of blanks at once (a line break alone: the caller looks at each line's start).
            let blanks = src[i + 1..]
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count();
            let end = if b == b'\n' { i + 1 } else { i + 1 + blanks };
            return (Token::Space, end);
        }
        if !self.special[b as usize] {
            return self.word_or_byte(i);
        }
        if lex.line_comments.iter().any(|c| self.at(i, c)) {
            return (
                Token::Comment,
                memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k),
            );
        }
        let (bo, bc) = lex.block_comment.unwrap_or(("", ""));
        if !bo.is_empty() && self.at(i, bo) && !lex.nested_comments {
            let body = i + bo.len();
            return match memchr::memmem::find(&src[body..], bc.as_bytes()) {
                Some(k) => (Token::Comment, body + k + bc.len()),
                None => {
                    self.open = true;
                    (Token::Comment, n)
                }
            };
        }
        if !bo.is_empty() && self.at(i, bo) {
            let mut nest = 1;
            let mut j = i + bo.len();
            while j < n && nest > 0 {
                if lex.nested_comments && self.at(j, bo) {
                    nest += 1;
                    j += bo.len();
                } else if self.at(j, bc) {
                    nest -= 1;
                    j += bc.len();
                } else {
                    j += 1;
                }
            }
            self.open |= nest > 0;
            return (Token::Comment, j);
        }
        if lex.char_or_lifetime && b == b'\'' {
            return (Token::Byte(b'"'), char_or_lifetime_end(src, i));
        }
        if lex.raw_hash_strings && (b == b'r' || (b == b'b' && src.get(i + 1) == Some(&b'r'))) {
            let q = i + 1 + usize::from(b == b'b');
            let hashes = src[q..].iter().take_while(|&&c| c == b'#').count();
            if src.get(q + hashes) == Some(&b'"') && (i == 0 || !is_word(src[i - 1])) {
                let body = q + hashes + 1;
                let close = "\"".to_string() + &"#".repeat(hashes);
                return match memchr::memmem::find(&src[body..], close.as_bytes()) {
                    Some(k) => (Token::Str(None), body + k + close.len()),
                    None => {
                        self.open = true;
                        (Token::Str(None), n)
                    }
                };
            }
        }
        if let Some(q) = lex.quotes.iter().find(|q| self.at(i, q.open)) {
            return self.string(i, q);
        }
        if lex.regex_literals && b == b'/' && !matches!(prev, b'a' | b'"' | b')' | b']' | b'}') {
            if let Some(end) = regex_end(src, i) {
                return (Token::Byte(b'"'), end);
            }
        }
        self.word_or_byte(i)
    }

    /// The word or the single byte at `i`.
    fn word_or_byte(&self, i: usize) -> (Token, usize) {
        let (src, b) = (self.src, self.src[i]);
        if is_word(b) {
            let end = src[i..]
                .iter()
                .position(|&c| !is_word(c))
                .map_or(src.len(), |k| i + k);
            return (Token::Word, end);
        }
        (Token::Byte(b), i + 1)
    }

    /// A string opened at `i`: its end, and its inside when that is plain data.
    fn string(&mut self, i: usize, q: &Quote) -> (Token, usize) {
        let (src, n) = (self.src, self.src.len());
        let body = i + q.open.len();
        let mut j = body;
        let prefix = src[..i].iter().rev().take_while(|&&b| is_word(b));
        let mut plain = !prefix.take(3).any(|b| self.lex.code_prefixes.contains(b));
        // The bytes that can end the string or change how it reads: the others are skipped
        // at once.
        let mut stops = [0u8; 4];
        let mut count = 0;
        let escape = q.escapes.then_some(b'\\');
        let line = (!q.multiline).then_some(b'\n');
        let interpolation = q.interpolation.map(|o| o.as_bytes()[0]);
        for b in [Some(q.close.as_bytes()[0]), escape, line, interpolation]
            .into_iter()
            .flatten()
        {
            stops[count] = b;
            count += 1;
        }
        while j < n {
            let next = match stops[..count] {
                [a] => memchr::memchr(a, &src[j..]),
                [a, b] => memchr::memchr2(a, b, &src[j..]),
                [a, b, c] => memchr::memchr3(a, b, c, &src[j..]),
                _ => Some(0),
            };
            match next {
                Some(k) => j += k,
                None => {
                    j = n;
                    break;
                }
            }
            if self.at(j, q.close) {
                let inside = (q.gap && plain).then_some(body..j);
                return (Token::Str(inside), j + q.close.len());
            }
            match src[j] {
                b'\\' if q.escapes => {
                    plain &= valid_escape(&src[j + 1..]);
                    j += 2;
                }
                b'\n' if !q.multiline => break,
                _ if q.interpolation.is_some_and(|o| self.at(j, o)) => {
                    plain = false;
                    j = self.code_block(j + q.interpolation.unwrap().len());
                }
                _ => j += 1,
            }
        }
        self.open = true;
        (Token::Str(None), j.min(n))
    }

    /// The strings of quote `q` joined (see [`Join`]) to the plain one whose inside is
    /// `first` and which ends at `end`, `in_brackets` or not: each one's inside (`first` alone
    /// when none is joined), and the end of the last. Only blanks between them.
    fn joined(
        &mut self,
        join: &Join,
        q: &'static Quote,
        first: Range<usize>,
        end: usize,
        in_brackets: bool,
    ) -> (Vec<Range<usize>>, usize) {
        let src = self.src;
        let (break_before, break_after) = match join.breaks {
            Breaks::Anywhere => (true, true),
            Breaks::AfterJoiner => (false, true),
            Breaks::InBrackets => (in_brackets, in_brackets),
        };
        let blanks = |mut j: usize, breaks: bool| {
            while j < src.len()
                && (matches!(src[j], b' ' | b'\t' | b'\r') || (breaks && src[j] == b'\n'))
            {
                j += 1;
            }
            j
        };
        let (mut insides, mut end) = (vec![first], end);
        loop {
            let mut next = blanks(end, break_before);
            if !join.with.is_empty() {
                // One `+`: not `++` or `+=`.
                if !self.at(next, join.with) || matches!(src.get(next + 1), Some(b'+' | b'=')) {
                    break;
                }
                next = blanks(next + join.with.len(), break_after);
            }
            if !self.quote_at(next).is_some_and(|n| std::ptr::eq(n, q)) {
                break;
            }
            let open = self.open;
            match self.string(next, q) {
                (Token::Str(Some(inside)), string_end) => {
                    insides.push(inside);
                    end = string_end;
                }
                // Not data: the scan reads it again.
                _ => {
                    self.open = open;
                    break;
                }
            }
        }
        (insides, end)
    }

    /// Code from `i` up to its unmatched `}` (a template literal's `${…}`): after that `}`.
    fn code_block(&mut self, mut i: usize) -> usize {
        let mut depth = 0usize;
        let mut prev = b'(';
        while i < self.src.len() {
            let (t, next) = self.token(i, prev);
            match t {
                Token::Byte(b'{') => depth += 1,
                Token::Byte(b'}') if depth == 0 => return next,
                Token::Byte(b'}') => depth -= 1,
                _ => {}
            }
            prev = code_class(&t).unwrap_or(prev);
            i = next;
        }
        self.open = true;
        i
    }

    /// An array literal opened at `i` that holds only numbers, strings and array literals of
    /// the same bracket, comma-separated: its end. The inside parses as those elements wherever
    /// an empty literal parses (the gap check in `Language::parse_outline` makes sure that the
    /// brackets are an array literal's). `depth`: the literals it is nested in; past
    /// [`MAX_DATA_DEPTH`] it is no data (a table is never that deep, and each level is a
    /// frame of this recursion).
    fn data(&mut self, i: usize, depth: usize) -> Option<usize> {
        if depth >= MAX_DATA_DEPTH {
            return None;
        }
        let (src, lex) = (self.src, self.lex);
        let close = if lex.data_open == b'[' { b']' } else { b'}' };
        let mut j = i + 1;
        // Whether an element was just read (a comma or the close must come next).
        let mut after_value = false;
        while j < src.len() {
            let b = src[j];
            if b == b'\n' && after_value && lex.newline_ends_values {
                return None;
            }
            // Whether this token is left open (a string or comment cut off by its line's or
            // the file's end): then it is no data.
            let open_before = std::mem::replace(&mut self.open, false);
            let (t, next) = self.token(j, b',');
            let left_open = self.open;
            self.open |= open_before;
            if left_open {
                return None;
            }
            match t {
                Token::Space | Token::Comment => {
                    if matches!(t, Token::Comment) && after_value && lex.newline_ends_values {
                        return None;
                    }
                }
                Token::Byte(c) if c == close => return Some(next),
                Token::Byte(b',') if after_value => after_value = false,
                _ if after_value => return None,
                Token::Str(_) if self.quote_at(j).is_some_and(|q| q.interpolation.is_none()) => {
                    let q = self.quote_at(j)?;
                    let inner = &src[j + q.open.len()..next - q.close.len()];
                    if (q.escapes && !escapes_valid(inner))
                        || (!q.multiline && inner.contains(&b'\n'))
                    {
                        return None;
                    }
                    after_value = true;
                }
                Token::Byte(c) if c == lex.data_open => {
                    j = self.data(j, depth + 1)?;
                    after_value = true;
                    continue;
                }
                Token::Byte(b'-') | Token::Word => {
                    let s = if b == b'-' { j + 1 } else { j };
                    j = self.number(s)?;
                    after_value = true;
                    continue;
                }
                _ => return None,
            }
            j = next;
        }
        None
    }

    fn quote_at(&self, i: usize) -> Option<&'static Quote> {
        self.lex.quotes.iter().find(|q| self.at(i, q.open))
    }

    /// An integer literal at `i` (`0`, `42`, `0x1F`, with one of the language's suffixes):
    /// its end.
    fn number(&self, i: usize) -> Option<usize> {
        let src = self.src;
        let digits = |from: usize, hex: bool| {
            src[from..]
                .iter()
                .take_while(|c| c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()))
                .count()
        };
        let mut j = match (src.get(i), src.get(i + 1)) {
            (Some(b'0'), Some(b'x' | b'X')) => {
                let k = digits(i + 2, true);
                (k > 0).then_some(i + 2 + k)?
            }
            (Some(b'0'), _) => i + 1,
            (Some(b'1'..=b'9'), _) => i + digits(i, false),
            _ => return None,
        };
        if let Some(s) = self.lex.int_suffixes.iter().find(|s| self.at(j, s)) {
            j += s.len();
        }
        match src.get(j) {
            Some(&c) if is_word(c) || c == b'.' => None,
            _ => Some(j),
        }
    }
}

/// The class of a code token for the byte before a `/`: `a` for a word, `"` for a string.
fn code_class(t: &Token) -> Option<u8> {
    match t {
        Token::Word => Some(b'a'),
        Token::Str(_) => Some(b'"'),
        Token::Byte(b) => Some(*b),
        Token::Space | Token::Comment => None,
    }
}

/// Whether the text after a `\` is an escape every grammar reads: `\x` with two hex digits,
/// `\u` with four or `{…}`, `\U` with eight, or any other character but a line break.
fn valid_escape(rest: &[u8]) -> bool {
    let hex = |k: usize| rest.len() > k && rest[1..=k].iter().all(u8::is_ascii_hexdigit);
    match rest.first() {
        Some(b'x') => hex(2),
        Some(b'u') if rest.get(1) == Some(&b'{') => {
            let k = rest[2..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            k > 0 && rest.get(2 + k) == Some(&b'}')
        }
        Some(b'u') => hex(4),
        Some(b'U') => hex(8),
        Some(b'\n' | b'\r') | None => false,
        Some(_) => true,
    }
}

/// [`valid_escape`] for every escape of a string's inside.
fn escapes_valid(inner: &[u8]) -> bool {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'\\', &inner[i..]) {
        if !valid_escape(&inner[i + k + 1..]) {
            return false;
        }
        i += k + 2;
        if i >= inner.len() {
            break;
        }
    }
    true
}

/// A regular expression literal at `i` (`/…/flags` on one line, `/` inside `[…]` allowed):
/// its end, or `None` when none closes on the line (a division then).
fn regex_end(src: &[u8], i: usize) -> Option<usize> {
    if matches!(src.get(i + 1), Some(b'/' | b'*')) {
        return None;
    }
    let mut j = i + 1;
    let mut class = false;
    while j < src.len() {
        match src[j] {
            b'\\' => j += 1,
            b'\n' => return None,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => {
                let flags = src[j + 1..].iter().take_while(|&&c| is_word(c)).count();
                return Some(j + 1 + flags);
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// After a `'` at `i`: past a char literal (`'x'`, `'\n'`, `'\u{1F600}'`, `'é'`), or past the
/// quote of a lifetime or label (`'a`, `'static`), whose name the caller reads next as a word.
/// An escape's closing quote comes within a few bytes.
pub(super) fn char_or_lifetime_end(src: &[u8], i: usize) -> usize {
    match src.get(i + 1) {
        Some(b'\\') => {
            let lo = src.len().min(i + 3);
            let window = &src[lo..src.len().min(i + 14)];
            memchr::memchr(b'\'', window).map_or(i + 1, |k| lo + k + 1)
        }
        Some(&c) => {
            let width = match c {
                0xF0..=0xFF => 4,
                0xE0..=0xEF => 3,
                0xC0..=0xDF => 2,
                _ => 1,
            };
            if src.get(i + 1 + width) == Some(&b'\'') {
                i + 2 + width
            } else {
                i + 1
            }
        }
        None => i + 1,
    }
}

/// Whether a comment begins at `i`.
fn starts_comment(lex: &Lexicon, src: &[u8], i: usize) -> bool {
    let rest = &src[i..];
    (lex.line_comments.iter().copied())
        .chain(lex.block_comment.map(|b| b.0))
        .any(|c| rest.starts_with(c.as_bytes()))
}

/// Whether column 0 at `i` begins an item: a comment or one of the lexicon's item starts (a
/// keyword as a whole word).
fn starts_item(lex: &Lexicon, src: &[u8], i: usize) -> bool {
    let rest = &src[i..];
    starts_comment(lex, src, i)
        || lex.item_starts.iter().any(|w| {
            rest.starts_with(w.as_bytes())
                && (!w.bytes().last().is_some_and(is_word)
                    || !rest.get(w.len()).is_some_and(|&c| is_word(c)))
        })
}

/// The file's top-level items, by the lexicon. An item ends after one of
/// the lexicon's `item_ends` at bracket depth 0; the next one starts on a later line that
/// begins, in column 0, with a comment or one of its `item_starts`, so that doc comments and
/// annotations stay with their item and blank lines with the one before.
pub fn regions(lex: &'static Lexicon, src: &[u8]) -> Regions {
    scan(lex, src, false).0
}

/// The insides of the file's long strings (and of runs of joined strings) and of its array
/// literals that hold only numbers and strings, in order: what a whole-file outline need not
/// parse.
pub fn gaps(lex: &'static Lexicon, src: &[u8]) -> Vec<Gap> {
    scan(lex, src, true).1
}

/// A place to cut a file's parse in two inside a block (see `Language::split_parts`): a line
/// in a `{…}` block that begins, after its indentation, with a comment (where the lexicon
/// allows: `comment_cuts`) or one of the lexicon's item starts right after one of its item
/// ends — a statement or member boundary, as between top-level items — with no comment right
/// before it. `(open, cut, close)`: the offsets of the block's `{`, of the line,
/// and of the block's `}`; of all such lines, the one that leaves the less to parse to the
/// bigger of the two parts: the file up to the line and from the `}` on, and the file up to
/// the `{` and from the line on. `None` when there is none.
pub fn block_cut(lex: &'static Lexicon, src: &[u8]) -> Option<(usize, usize, usize)> {
    let n = src.len();
    let mut scan = Scan::new(lex, src);
    // Open brackets (offset, byte); each `{…}` block once closed (open, close).
    let mut opens: Vec<(usize, u8)> = Vec::new();
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut last = 0u8;
    let mut decorator = false;
    // The last token that is not white space was a comment: a cut is never right after one,
    // which may be the next item's doc (a line after an annotation that ends its own item,
    // Java's `@Native int X = 1;`, is no cut, and nor is its next comment's line).
    let mut comment = false;
    let mut i = 0;
    while i < n {
        if i > 0 && src[i - 1] == b'\n' {
            let j = i + src[i..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            if j < n && !matches!(src[j], b'\n' | b'\r') {
                if let Some(&(open, b'{')) = opens.last() {
                    if lex.item_ends.contains(&last)
                        && !decorator
                        && !comment
                        && (lex.comment_cuts || !starts_comment(lex, src, j))
                        && starts_item(lex, src, j)
                    {
                        cuts.push((i, open));
                        // Its doc comment's next line is not one.
                        last = 0;
                    }
                }
                decorator = src[j] == b'@';
            }
        }
        let (t, next) = scan.token(i, last);
        match &t {
            Token::Byte(b @ (b'{' | b'(' | b'[')) => opens.push((i, *b)),
            Token::Byte(b @ (b'}' | b')' | b']')) => match opens.pop() {
                Some((open, b'{')) if *b == b'}' => blocks.push((open, i)),
                Some((_, o)) if o == b'{' || *b == b'}' => return None,
                _ => {}
            },
            _ => {}
        }
        last = code_class(&t).unwrap_or(last);
        match t {
            Token::Comment => comment = true,
            Token::Space => {}
            _ => comment = false,
        }
        i = next;
    }
    if !opens.is_empty() || scan.open {
        return None;
    }
    blocks.sort_unstable();
    cuts.into_iter()
        .filter_map(|(cut, open)| {
            let k = blocks.binary_search_by_key(&open, |b| b.0).ok()?;
            let close = blocks[k].1;
            let most = (cut + n - close).max(open + 1 + n - cut);
            Some((most, (open, cut, close)))
        })
        .min()
        .map(|(_, c)| c)
}

/// The lexicon of a language whose data an outline may skip (see `Language::parse_outline`).
pub fn lexicon(language: &str) -> Option<&'static Lexicon> {
    match language {
        "rust" => Some(&super::rust::LEXICON),
        "python" => Some(&super::python::LEXICON),
        "go" => Some(&super::go::LEXICON),
        "java" => Some(&super::java::LEXICON),
        "javascript" | "typescript" | "tsx" => Some(&super::ecmascript::LEXICON),
        _ => None,
    }
}

/// [`regions`], and [`gaps`] when `data` says so.
pub(super) fn scan(lex: &'static Lexicon, src: &[u8], data: bool) -> (Regions, Vec<Gap>) {
    let n = src.len();
    let mut scan = Scan::new(lex, src);
    let mut starts: Vec<(usize, Option<super::regions::Body>)> = vec![(0, None)];
    let mut comments: Vec<Range<usize>> = Vec::new();
    let mut depth = 0usize;
    // The last code byte (its class for words and strings); 0 right after a boundary.
    let mut last = 0u8;
    // Whether the last line begun at depth 0 was a decorator's or annotation's (`@`): its item
    // goes on.
    let mut decorator = false;
    let mut i = 0;
    while i < n {
        if i > 0 && src[i - 1] == b'\n' && depth == 0 {
            if lex.item_ends.contains(&last) && !decorator && starts_item(lex, src, i) {
                starts.push((i, None));
                last = 0;
            }
            decorator = src[i] == b'@';
        }
        if data && src[i] == lex.data_open {
            if let Some(end) = scan.data(i, 0) {
                if end - i - 2 >= MIN_GAP {
                    scan.gaps.push(Gap {
                        range: i + 1..end - 1,
                        joined: Vec::new(),
                    });
                    i = end;
                    last = if lex.data_open == b'[' { b']' } else { b'}' };
                    continue;
                }
            }
        }
        let (t, mut next) = scan.token(i, last);
        match &t {
            Token::Str(Some(inside)) if data => {
                let q = scan.quote_at(i).expect("a plain string opens with a quote");
                let (joined, end) = match &lex.join {
                    Some(join) => scan.joined(join, q, inside.clone(), next, depth > 0),
                    None => (vec![inside.clone()], next),
                };
                next = end;
                match joined.len() {
                    1 if inside.len() >= MIN_GAP => scan.gaps.push(Gap {
                        range: inside.clone(),
                        joined: Vec::new(),
                    }),
                    1 => {}
                    _ => scan.gaps.push(Gap {
                        range: joined[0].start..joined[joined.len() - 1].end,
                        joined,
                    }),
                }
            }
            Token::Comment => comments.push(i..next),
            Token::Byte(b'{' | b'(' | b'[') => depth += 1,
            Token::Byte(b'}' | b')' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
        last = code_class(&t).unwrap_or(last);
        i = next;
    }
    let mut regions = Regions::from_starts(n, starts, depth == 0 && !scan.open);
    // Each comment's bytes to the item it starts in.
    let mut comments = comments.into_iter().peekable();
    regions.comments = (regions.items.iter())
        .map(|item| {
            let mut bytes = 0;
            while let Some(c) = comments.next_if(|c| c.start < item.range.end) {
                bytes += c.len();
            }
            bytes
        })
        .collect();
    (regions, scan.gaps)
}

#[cfg(test)]
mod tests;
