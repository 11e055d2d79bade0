//! Reading a symbol query's text for `tags.rs`: its tokens, then its patterns, with kind and
//! field names resolved through the grammar; what is outside the subset is an error naming
//! its line.

use super::{Elem, Kind, Pattern, Predicate, Step, ERROR};
use regex::bytes::Regex;

/// A token of the query text, with the line it is on.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Open,
    Close,
    OpenAlt,
    CloseAlt,
    Anchor,
    /// `?`, `*`, `+`.
    Quantifier(char),
    Str(String),
    Capture(String),
    Predicate(String),
    Field(String),
    Negated(String),
    Word(String),
}

pub(super) fn tokenize(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let word_end = |mut j: usize, dots: bool| {
        while j < b.len()
            && (b[j].is_ascii_alphanumeric()
                || b[j] == b'_'
                || b[j] == b'-'
                || (dots && b[j] == b'.'))
        {
            j += 1;
        }
        j
    };
    while i < b.len() {
        let c = b[i];
        let tok = match c {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b';' => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
                continue;
            }
            _ if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'(' => Tok::Open,
            b')' => Tok::Close,
            b'[' => Tok::OpenAlt,
            b']' => Tok::CloseAlt,
            b'.' => Tok::Anchor,
            b'?' | b'*' | b'+' => Tok::Quantifier(c as char),
            b'"' => {
                let mut s = Vec::new();
                i += 1;
                loop {
                    match b.get(i) {
                        None => return Err(format!("line {line}: unterminated string")),
                        Some(b'"') => break,
                        Some(b'\\') => {
                            s.push(match b.get(i + 1) {
                                Some(b'n') => b'\n',
                                Some(b'r') => b'\r',
                                Some(b't') => b'\t',
                                Some(b'0') => 0,
                                Some(&e) => e,
                                None => return Err(format!("line {line}: unterminated string")),
                            });
                            i += 2;
                        }
                        Some(&x) => {
                            line += usize::from(x == b'\n');
                            s.push(x);
                            i += 1;
                        }
                    }
                }
                let s = String::from_utf8(s)
                    .map_err(|_| format!("line {line}: a string that is not UTF-8"))?;
                out.push((Tok::Str(s), line));
                i += 1;
                continue;
            }
            b'@' | b'#' | b'!' => {
                let end = word_end(i + 1, c == b'@');
                let mut name = text[i + 1..end].to_string();
                let mut next = end;
                if c == b'#' && matches!(b.get(end), Some(b'?' | b'!')) {
                    name.push(b[end] as char);
                    next += 1;
                }
                if name.is_empty() {
                    return Err(format!("line {line}: `{}` without a name", c as char));
                }
                out.push((
                    match c {
                        b'@' => Tok::Capture(name),
                        b'#' => Tok::Predicate(name),
                        _ => Tok::Negated(name),
                    },
                    line,
                ));
                i = next;
                continue;
            }
            _ if c.is_ascii_alphanumeric() || c == b'_' => {
                let end = word_end(i, false);
                let name = text[i..end].to_string();
                let (tok, next) = if b.get(end) == Some(&b':') {
                    (Tok::Field(name), end + 1)
                } else {
                    (Tok::Word(name), end)
                };
                out.push((tok, line));
                i = next;
                continue;
            }
            _ => {
                return Err(format!(
                    "line {line}: unexpected `{}`",
                    text[i..].chars().next().unwrap_or(' ')
                ))
            }
        };
        out.push((tok, line));
        i += 1;
    }
    Ok(out)
}

pub(super) struct Reader<'a> {
    pub(super) grammar: &'a tree_sitter::Language,
    pub(super) tokens: &'a [(Tok, usize)],
    pub(super) pos: usize,
    pub(super) captures: Vec<String>,
    /// The `#match?` regexes compiled so far, by pattern: a query repeats one (C's macro
    /// names, six times), and each compile builds a DFA (about 150,000 instructions).
    pub(super) regexes: std::collections::HashMap<String, Regex>,
}

impl Reader<'_> {
    /// `pattern` compiled, once per query.
    fn regex(&mut self, pattern: &str) -> Result<Regex, regex::Error> {
        if let Some(re) = self.regexes.get(pattern) {
            return Ok(re.clone());
        }
        let re = Regex::new(pattern)?;
        self.regexes.insert(pattern.to_string(), re.clone());
        Ok(re)
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.0)
    }

    fn line(&self) -> usize {
        self.tokens
            .get(self.pos)
            .or(self.tokens.last())
            .map_or(1, |t| t.1)
    }

    fn err<T>(&self, what: impl std::fmt::Display) -> Result<T, String> {
        Err(format!("line {}: {what}", self.line()))
    }

    fn next(&mut self) -> Result<Tok, String> {
        match self.tokens.get(self.pos) {
            Some((t, _)) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => self.err("unexpected end of the query"),
        }
    }

    fn capture(&mut self, name: String) -> u16 {
        match self.captures.iter().position(|c| *c == name) {
            Some(i) => i as u16,
            None => {
                self.captures.push(name);
                (self.captures.len() - 1) as u16
            }
        }
    }

    fn field(&self, name: &str) -> Result<u16, String> {
        match self.grammar.field_id_for_name(name) {
            Some(f) => Ok(f.get()),
            None => self.err(format!("unknown field `{name}`")),
        }
    }

    /// One top-level pattern: a node pattern, with its predicates.
    pub(super) fn pattern(&mut self) -> Result<Pattern, String> {
        let mut predicates = Vec::new();
        let root = self.elem(&mut predicates)?;
        if !matches!(root, Elem::Node { .. }) {
            return self.err("a pattern must be one node pattern (no top-level alternation)");
        }
        Ok(Pattern { root, predicates })
    }

    /// An element with the captures after it.
    fn elem(&mut self, predicates: &mut Vec<Predicate>) -> Result<Elem, String> {
        let mut e = match self.next()? {
            Tok::Open => self.node(predicates)?,
            Tok::OpenAlt => {
                let mut branches = Vec::new();
                while self.peek() != Some(&Tok::CloseAlt) {
                    if self.peek().is_none() {
                        return self.err("unclosed `[`");
                    }
                    branches.push(self.elem(predicates)?);
                }
                self.pos += 1;
                if branches.is_empty() {
                    return self.err("an empty alternation");
                }
                Elem::Alt {
                    branches,
                    captures: Vec::new(),
                }
            }
            Tok::Str(s) => Elem::Node {
                kind: Kind::Id(self.kind(&s, false)?),
                negated: Vec::new(),
                children: Vec::new(),
                captures: Vec::new(),
            },
            Tok::Word(w) if w == "_" => Elem::Node {
                kind: Kind::Any,
                negated: Vec::new(),
                children: Vec::new(),
                captures: Vec::new(),
            },
            t => return self.err(format!("unexpected {t:?}")),
        };
        while let Some(Tok::Capture(c)) = self.peek() {
            let c = c.clone();
            self.pos += 1;
            let i = self.capture(c);
            match &mut e {
                Elem::Node { captures, .. } | Elem::Alt { captures, .. } => captures.push(i),
            }
        }
        if let Some(Tok::Quantifier(q)) = self.peek() {
            return self.err(format!("the quantifier `{q}` is not supported"));
        }
        Ok(e)
    }

    fn kind(&self, name: &str, named: bool) -> Result<u16, String> {
        if named && name == "ERROR" {
            return Ok(ERROR);
        }
        let id = self.grammar.id_for_node_kind(name, named);
        if id == 0 {
            return self.err(format!(
                "unknown {} `{name}`",
                if named { "node kind" } else { "anonymous node" }
            ));
        }
        if self.grammar.node_kind_is_supertype(id) {
            return self.err(format!("the supertype `{name}` is not supported"));
        }
        Ok(id)
    }

    /// A node pattern after its `(`, through its `)`.
    fn node(&mut self, predicates: &mut Vec<Predicate>) -> Result<Elem, String> {
        let kind = match self.next()? {
            Tok::Word(w) if w == "_" => Kind::AnyNamed,
            Tok::Word(w) => Kind::Id(self.kind(&w, true)?),
            Tok::Open | Tok::OpenAlt => {
                return self.err("groups of sibling patterns are not supported")
            }
            Tok::Predicate(_) => return self.err("a predicate outside a node pattern"),
            t => return self.err(format!("unexpected {t:?} after `(`")),
        };
        let mut negated = Vec::new();
        let mut children: Vec<Step> = Vec::new();
        let mut immediate = false;
        loop {
            match self.peek() {
                None => return self.err("unclosed `(`"),
                Some(Tok::Close) => {
                    self.pos += 1;
                    if immediate {
                        match children.last_mut() {
                            Some(s) => s.last = true,
                            None => return self.err("an anchor `.` in an empty node pattern"),
                        }
                    }
                    break;
                }
                Some(Tok::Anchor) => {
                    self.pos += 1;
                    immediate = true;
                }
                Some(Tok::Negated(f)) => {
                    let f = self.field(&f.clone())?;
                    self.pos += 1;
                    negated.push(f);
                }
                Some(Tok::Open)
                    if matches!(self.tokens.get(self.pos + 1), Some((Tok::Predicate(_), _))) =>
                {
                    self.pos += 1;
                    let p = self.predicate()?;
                    predicates.push(p);
                }
                Some(Tok::Field(f)) => {
                    let field = self.field(&f.clone())?;
                    self.pos += 1;
                    let elem = self.elem(predicates)?;
                    children.push(Step {
                        field,
                        immediate: std::mem::take(&mut immediate),
                        last: false,
                        elem,
                    });
                }
                Some(_) => {
                    let elem = self.elem(predicates)?;
                    children.push(Step {
                        field: 0,
                        immediate: std::mem::take(&mut immediate),
                        last: false,
                        elem,
                    });
                }
            }
        }
        Ok(Elem::Node {
            kind,
            negated,
            children,
            captures: Vec::new(),
        })
    }

    /// A predicate after its `(`, through its `)`.
    fn predicate(&mut self) -> Result<Predicate, String> {
        let Tok::Predicate(name) = self.next()? else {
            return self.err("a predicate expected");
        };
        let mut args = Vec::new();
        loop {
            match self.next()? {
                Tok::Close => break,
                Tok::Capture(c) => match self.captures.iter().position(|x| *x == c) {
                    Some(i) => args.push(Err(i as u16)),
                    None => {
                        return self.err(format!("#{name} names @{c}, captured nowhere before"))
                    }
                },
                Tok::Str(s) => args.push(Ok(s)),
                t => return self.err(format!("unexpected {t:?} in #{name}")),
            }
        }
        let (base, positive, all) = match name.as_str() {
            "eq?" | "match?" => (name.as_str(), true, true),
            "not-eq?" => ("eq?", false, true),
            "any-eq?" => ("eq?", true, false),
            "any-not-eq?" => ("eq?", false, false),
            "not-match?" => ("match?", false, true),
            "any-match?" => ("match?", true, false),
            "any-not-match?" => ("match?", false, false),
            "any-of?" => ("any-of?", true, true),
            "not-any-of?" => ("any-of?", false, true),
            _ => return self.err(format!("the predicate #{name} is not supported")),
        };
        let Some(Err(cap)) = args.first().cloned() else {
            return self.err(format!("#{name} must start with a capture"));
        };
        match (base, &args[1..]) {
            ("eq?", [arg]) => Ok(Predicate::Eq {
                cap,
                text: arg.clone().map(String::into_bytes),
                positive,
                all,
            }),
            ("match?", [Ok(re)]) => match self.regex(re) {
                Ok(re) => Ok(Predicate::Match {
                    cap,
                    re,
                    positive,
                    all,
                }),
                Err(e) => self.err(format!("#{name}: bad regex: {e}")),
            },
            ("any-of?", values) if values.iter().all(Result::is_ok) => Ok(Predicate::AnyOf {
                cap,
                values: values
                    .iter()
                    .filter_map(|v| v.clone().ok())
                    .map(String::into_bytes)
                    .collect(),
                positive,
            }),
            _ => self.err(format!("#{name}: wrong arguments")),
        }
    }
}
