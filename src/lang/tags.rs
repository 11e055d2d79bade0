//! Our matcher for the part of tree-sitter's query language the symbol queries
//! (`queries/*.scm`) use: read once per language (microseconds, where compiling a tree-sitter
//! `Query` analyses every pattern against the grammar's parse table: tens of milliseconds in
//! C++), then matched by one walk of the tree. The `.scm` files stay the data; `llm ast` keeps
//! tree-sitter's own queries.
//!
//! Understood: node patterns `(kind …)`, wildcards `(_)` and `_`, anonymous nodes `"…"`, fields
//! `name: pat`, negated fields `!body`, alternations `[…]`, anchors `.`, captures `@x`, and the
//! text predicates `#eq?`, `#match?`, `#any-of?` (with their `not-`/`any-` forms). Anything else
//! (quantifiers, groups, supertypes, other predicates) is an error when the text is read.
//! Matches follow tree-sitter's semantics: a child step matches a later visible child, skipping
//! others; `.` before a step makes it the first named child (or the next named sibling), `.`
//! after the last one the last named child; every way a pattern matches is reported.

use regex::bytes::Regex;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// Node kind of tree-sitter's ERROR nodes (`ts_builtin_sym_error`).
const ERROR: u16 = u16::MAX;

/// A symbol query read for one grammar.
pub struct Tags {
    patterns: Vec<Pattern>,
    /// The patterns rooted at each node kind, by kind id.
    by_kind: Vec<Vec<u32>>,
    /// Patterns rooted at ERROR nodes.
    error_roots: Vec<u32>,
    /// Patterns rooted at a wildcard (tried at every node but ERROR ones).
    wildcard_roots: Vec<u32>,
    /// Capture names, by capture index.
    captures: Vec<String>,
}

struct Pattern {
    root: Elem,
    predicates: Vec<Predicate>,
}

/// One element of a pattern: a node or an alternation, with the captures put on it.
enum Elem {
    Node {
        kind: Kind,
        negated: Vec<u16>,
        children: Vec<Step>,
        captures: Vec<u16>,
    },
    Alt {
        branches: Vec<Elem>,
        captures: Vec<u16>,
    },
}

#[derive(Clone, Copy)]
enum Kind {
    /// `_`: any node but an ERROR.
    Any,
    /// `(_)`: any named node but an ERROR.
    AnyNamed,
    /// One node kind (its public symbol, as tree-sitter compares).
    Id(u16),
}

/// A child element of a node pattern.
struct Step {
    /// The field the child must be in (0: any).
    field: u16,
    /// `.` before it: the first named child, or the named sibling right after the previous
    /// step's node.
    immediate: bool,
    /// `.` after it (the last step): the last named child.
    last: bool,
    elem: Elem,
}

enum Predicate {
    /// `#eq?` a capture with a string (`text`) or another capture (`other`).
    Eq {
        cap: u16,
        text: Result<Vec<u8>, u16>,
        positive: bool,
        all: bool,
    },
    Match {
        cap: u16,
        re: Regex,
        positive: bool,
        all: bool,
    },
    AnyOf {
        cap: u16,
        values: Vec<Vec<u8>>,
        positive: bool,
    },
}

/// The captures of a match so far: capture index and node, in the order tree-sitter records
/// them (a pattern's elements in the order they are written).
pub type Captures<'t> = Vec<(u16, Node<'t>)>;

impl Tags {
    /// Reads `text` (a query in the subset) for `grammar`: kind and field names are resolved
    /// through the grammar; an unknown name or a construct outside the subset is an error
    /// naming its line.
    pub fn new(grammar: &tree_sitter::Language, text: &str) -> Result<Tags, String> {
        let tokens = tokenize(text)?;
        let mut reader = Reader {
            grammar,
            tokens: &tokens,
            pos: 0,
            captures: Vec::new(),
        };
        let mut patterns = Vec::new();
        while reader.pos < tokens.len() {
            patterns.push(reader.pattern()?);
        }
        let mut tags = Tags {
            patterns,
            by_kind: vec![Vec::new(); grammar.node_kind_count()],
            error_roots: Vec::new(),
            wildcard_roots: Vec::new(),
            captures: reader.captures,
        };
        for (i, p) in tags.patterns.iter().enumerate() {
            let Elem::Node { kind, .. } = &p.root else {
                unreachable!("a pattern's root is a node (checked when read)");
            };
            let list = match *kind {
                Kind::Any | Kind::AnyNamed => &mut tags.wildcard_roots,
                Kind::Id(ERROR) => &mut tags.error_roots,
                Kind::Id(k) => &mut tags.by_kind[k as usize],
            };
            list.push(i as u32);
        }
        Ok(tags)
    }

    /// The capture names, by capture index.
    pub fn capture_names(&self) -> &[String] {
        &self.captures
    }

    /// The index of the capture named `name`.
    pub fn capture_index(&self, name: &str) -> Option<u16> {
        self.captures
            .iter()
            .position(|c| c == name)
            .map(|i| i as u16)
    }

    /// How many patterns the query holds.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the query holds no pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Calls `found` with the captures of every match in `tree` (whose text is `source`). With
    /// a `range`, only matches rooted at nodes that intersect it, as tree-sitter's
    /// `QueryCursor::set_byte_range` gives.
    pub fn matches<'t>(
        &self,
        tree: &'t Tree,
        source: &[u8],
        range: Option<Range<usize>>,
        found: &mut dyn FnMut(&Captures<'t>),
    ) {
        // tree-sitter's `set_byte_range`: an end of 0 is no end.
        let range = range.map(|r| r.start..if r.end == 0 { usize::MAX } else { r.end });
        let intersects = |n: Node| {
            range.as_ref().is_none_or(|r| {
                let (s, e) = (n.start_byte(), n.end_byte());
                (e > r.start || (s == e && e == r.start)) && s < r.end
            })
        };
        let mut caps = Captures::new();
        let mut cursor = tree.walk();
        // Whether each node on the cursor's path intersects the range.
        let mut path: Vec<bool> = Vec::new();
        'walk: loop {
            let node = cursor.node();
            let parent_in = path.last().copied().unwrap_or(true);
            let here = parent_in && intersects(node);
            if here {
                let kind = node.kind_id();
                let rooted: &[u32] = if kind == ERROR {
                    &self.error_roots
                } else {
                    self.by_kind
                        .get(kind as usize)
                        .map_or(&[], |v| v.as_slice())
                };
                let wild: &[u32] = if kind == ERROR {
                    &[]
                } else {
                    &self.wildcard_roots
                };
                for &i in rooted.iter().chain(wild) {
                    let p = &self.patterns[i as usize];
                    self.match_elem(&p.root, node, &[], &mut caps, &mut |caps| {
                        if p.predicates.iter().all(|pr| pr.holds(caps, source)) {
                            found(caps);
                        }
                    });
                }
            }
            if here && cursor.goto_first_child() {
                path.push(here);
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
                path.pop();
            }
        }
    }

    /// Every way `e` matches `node`: calls `k` with the captures of each (`extra`: captures
    /// of enclosing alternations, which go with the node).
    fn match_elem<'t>(
        &self,
        e: &Elem,
        node: Node<'t>,
        extra: &[u16],
        caps: &mut Captures<'t>,
        k: &mut dyn FnMut(&mut Captures<'t>),
    ) {
        match e {
            Elem::Alt { branches, captures } => {
                let extra: Vec<u16> = captures.iter().chain(extra).copied().collect();
                for b in branches {
                    self.match_elem(b, node, &extra, caps, k);
                }
            }
            Elem::Node {
                kind,
                negated,
                children,
                captures,
            } => {
                let ok = match *kind {
                    Kind::Any => node.kind_id() != ERROR,
                    Kind::AnyNamed => node.kind_id() != ERROR && node.is_named(),
                    Kind::Id(id) => node.kind_id() == id,
                };
                if !ok || negated.iter().any(|&f| node.child_by_field_id(f).is_some()) {
                    return;
                }
                let n = caps.len();
                caps.extend(captures.iter().chain(extra).map(|&c| (c, node)));
                if children.is_empty() {
                    k(caps);
                } else {
                    let kids = kids_of(node);
                    self.match_steps(children, &kids, 0, caps, k);
                }
                caps.truncate(n);
            }
        }
    }

    /// Every way `steps` match `kids[from..]` in order.
    fn match_steps<'t>(
        &self,
        steps: &[Step],
        kids: &[Kid<'t>],
        from: usize,
        caps: &mut Captures<'t>,
        k: &mut dyn FnMut(&mut Captures<'t>),
    ) {
        let Some((s, rest)) = steps.split_first() else {
            k(caps);
            return;
        };
        for j in from..kids.len() {
            let kid = &kids[j];
            let fits = (s.field == 0 || s.field == kid.field) && (!s.last || !kid.later_named);
            if fits {
                self.match_elem(&s.elem, kid.node, &[], caps, &mut |caps| {
                    self.match_steps(rest, kids, j + 1, caps, k)
                });
            }
            // An anchored step cannot skip a named node; a field step stops at the last child
            // the grammar can put in its field (tree-sitter's cursor tells both, and its
            // matches follow the grammar's word, not the tree's).
            if (s.immediate && kid.named)
                || (s.field != 0 && s.field == kid.field && !kid.later_in_field)
            {
                break;
            }
        }
    }
}

/// A visible child, as tree-sitter's query cursor sees it.
#[derive(Clone, Copy)]
struct Kid<'t> {
    node: Node<'t>,
    /// The field it is in (0: none).
    field: u16,
    named: bool,
    /// Whether a named sibling follows.
    later_named: bool,
    /// Whether the grammar allows a later sibling in the same field (`field` set).
    later_in_field: bool,
}

extern "C" {
    /// tree-sitter's own account of the cursor's node for its query cursor (`tree_cursor.c`,
    /// linked in from the tree-sitter crate's C library; its signature in tree-sitter 0.27).
    fn ts_tree_cursor_current_status(
        cursor: *const tree_sitter::ffi::TSTreeCursor,
        field_id: *mut u16,
        has_later_siblings: *mut bool,
        has_later_named_siblings: *mut bool,
        can_have_later_siblings_with_this_field: *mut bool,
        supertypes: *mut u16,
        supertype_count: *mut u32,
    );
}

/// `node`'s visible children with what tree-sitter's query cursor knows of each: the field
/// (through hidden wrappers), later named siblings, and whether the grammar's production can
/// put a later child in the same field. The last comes from the parse table's field map,
/// which no public API gives: a Go `const_spec` `c, D` holds D in field `name`, yet the
/// production puts no later `name` after `c`, so tree-sitter never matches `name:` at D.
fn kids_of(node: Node<'_>) -> Vec<Kid<'_>> {
    use tree_sitter::ffi;
    let mut kids = Vec::new();
    // SAFETY: the cursor is made from a live node of a tree that outlives the nodes returned,
    // used only while `node`'s tree is borrowed, and deleted before returning; the status
    // function only reads the cursor and writes the locals it is given (8 supertypes at most).
    unsafe {
        let mut c = ffi::ts_tree_cursor_new(node.into_raw());
        if ffi::ts_tree_cursor_goto_first_child(&mut c) {
            loop {
                let n = Node::from_raw(ffi::ts_tree_cursor_current_node(&c));
                let (mut field, mut later, mut later_named, mut later_in_field) =
                    (0u16, false, false, false);
                let mut supertypes = [0u16; 8];
                let mut count = supertypes.len() as u32;
                ts_tree_cursor_current_status(
                    &c,
                    &mut field,
                    &mut later,
                    &mut later_named,
                    &mut later_in_field,
                    supertypes.as_mut_ptr(),
                    &mut count,
                );
                kids.push(Kid {
                    node: n,
                    field,
                    named: n.is_named(),
                    later_named,
                    later_in_field,
                });
                if !ffi::ts_tree_cursor_goto_next_sibling(&mut c) {
                    break;
                }
            }
        }
        ffi::ts_tree_cursor_delete(&mut c);
    }
    kids
}

impl Predicate {
    fn holds(&self, caps: &Captures, source: &[u8]) -> bool {
        let text = |n: Node| &source[n.byte_range()];
        let nodes = |c: u16| caps.iter().filter(move |x| x.0 == c).map(|x| x.1);
        match self {
            Predicate::Eq {
                cap,
                text: Ok(s),
                positive,
                all,
            } => each(nodes(*cap), *all, |n| {
                (text(n) == s.as_slice()) == *positive
            }),
            Predicate::Eq {
                cap,
                text: Err(other),
                positive,
                all,
            } => {
                // Pairwise, and both lists as long (tree-sitter's binding).
                let (mut a, mut b) = (nodes(*cap), nodes(*other));
                loop {
                    match (a.next(), b.next()) {
                        (Some(x), Some(y)) => {
                            let hit = (text(x) == text(y)) == *positive;
                            if hit != *all {
                                return hit;
                            }
                        }
                        (None, None) => return true,
                        _ => return false,
                    }
                }
            }
            Predicate::Match {
                cap,
                re,
                positive,
                all,
            } => each(nodes(*cap), *all, |n| re.is_match(text(n)) == *positive),
            Predicate::AnyOf {
                cap,
                values,
                positive,
            } => nodes(*cap).all(|n| values.iter().any(|v| text(n) == v.as_slice()) == *positive),
        }
    }
}

/// tree-sitter's binding: with `all`, every node must pass; without, one passing is enough;
/// no node at all passes.
fn each<'t>(
    nodes: impl Iterator<Item = Node<'t>>,
    all: bool,
    pass: impl Fn(Node<'t>) -> bool,
) -> bool {
    for n in nodes {
        let p = pass(n);
        if p != all {
            return p;
        }
    }
    true
}

/// A token of the query text, with the line it is on.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
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

fn tokenize(text: &str) -> Result<Vec<(Tok, usize)>, String> {
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

struct Reader<'a> {
    grammar: &'a tree_sitter::Language,
    tokens: &'a [(Tok, usize)],
    pos: usize,
    captures: Vec<String>,
}

impl Reader<'_> {
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
    fn pattern(&mut self) -> Result<Pattern, String> {
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
            ("match?", [Ok(re)]) => match Regex::new(re) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ALL;
    use tree_sitter::{QueryCursor, StreamingIterator};

    /// Every shipped symbol query is read (and compiles as a tree-sitter query, which checks
    /// kind and field names against the grammar too), with the same captures.
    #[test]
    fn every_symbol_query_is_read() {
        for l in ALL {
            let tags =
                Tags::new(l.ts(), l.symbol_query).unwrap_or_else(|e| panic!("{}: {e}", l.name));
            let q = tree_sitter::Query::new(l.ts(), l.symbol_query)
                .unwrap_or_else(|e| panic!("{}: {e}", l.name));
            assert_eq!(tags.len(), q.pattern_count(), "{}", l.name);
            let mut a: Vec<&str> = tags.capture_names().iter().map(String::as_str).collect();
            let mut b = q.capture_names().to_vec();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{}", l.name);
        }
    }

    #[test]
    fn what_is_outside_the_subset_is_an_error_naming_its_line() {
        let rust = crate::lang::by_name("rust").unwrap().ts();
        let err = |q: &str| {
            Tags::new(rust, q)
                .err()
                .unwrap_or_else(|| panic!("{q}: read"))
        };
        assert!(err("(function_item)\n(nope) @x").starts_with("line 2: unknown node kind"));
        assert!(err("(function_item nope: (identifier))").contains("unknown field"));
        assert!(err("(function_item (identifier)?)").contains("quantifier"));
        assert!(err("(function_item (identifier)* @x)").contains("quantifier"));
        assert!(err("((function_item) (struct_item))").contains("groups"));
        assert!(err("[(function_item) (struct_item)] @x").contains("one node pattern"));
        assert!(err("(function_item) @x (#set! @x \"a\")").contains("outside"));
        assert!(err("(function_item name: (_) @x (#set! x \"a\"))").contains("#set!"));
        assert!(err("(function_item name: (_) @x (#is? @x \"a\"))").contains("#is?"));
        assert!(err("(function_item (#eq? @y \"a\"))").contains("@y"));
        assert!(err("(function_item name: (_) @x (#match? @x \"(\"))").contains("regex"));
        assert!(err("(function_item \"nope\")").contains("anonymous node"));
        assert!(err("(function_item").contains("unclosed"));
        assert!(err("(function_item \"fn)").contains("unterminated"));
        let python = crate::lang::by_name("python").unwrap().ts();
        let e = Tags::new(python, "(expression)").err().unwrap_or_default();
        assert!(e.contains("supertype"), "{e}");
        assert!(err("(function_item .)").contains("anchor"));
        assert!(err("(function_item) }").contains("unexpected"));
    }

    /// (kind capture, item, name) as `collect_matches` keeps them, sorted.
    type Triple = (String, usize, usize, usize, usize);

    fn ours(tags: &Tags, tree: &Tree, src: &[u8], range: Option<Range<usize>>) -> Vec<Triple> {
        let name = tags.capture_index("name");
        let mut out = Vec::new();
        tags.matches(tree, src, range, &mut |caps| {
            out.extend(triple(
                caps.iter()
                    .map(|&(i, n)| (tags.capture_names()[i as usize].as_str(), i, n)),
                name,
            ));
        });
        out.sort();
        out.dedup();
        out
    }

    fn theirs(
        q: &tree_sitter::Query,
        tree: &Tree,
        src: &[u8],
        range: Option<Range<usize>>,
    ) -> Vec<Triple> {
        let name = q.capture_index_for_name("name").map(|i| i as u16);
        let mut cursor = QueryCursor::new();
        if let Some(r) = range {
            cursor.set_byte_range(r);
        }
        let mut it = cursor.matches(q, tree.root_node(), src);
        let mut out = Vec::new();
        while let Some(m) = it.next() {
            out.extend(triple(
                m.captures()
                    .iter()
                    .map(|c| (q.capture_names()[c.index as usize], c.index as u16, c.node)),
                name,
            ));
        }
        out.sort();
        out.dedup();
        out
    }

    /// The last kind capture and the last `@name` of a match, as `collect_matches` reads it.
    fn triple<'t>(
        caps: impl Iterator<Item = (&'t str, u16, Node<'t>)>,
        name: Option<u16>,
    ) -> Option<Triple> {
        let (mut item, mut named) = (None, None);
        for (cname, i, n) in caps {
            if Some(i) == name {
                named = Some(n);
            } else if crate::lang::SymbolKind::from_capture(cname).is_some() {
                item = Some((cname.to_string(), n));
            }
        }
        let ((k, n), m) = (item?, named?);
        Some((
            k,
            n.start_byte(),
            n.end_byte(),
            m.start_byte(),
            m.end_byte(),
        ))
    }

    /// Compares both on one file: the whole tree, and ranges around a few names.
    fn compare(l: &crate::lang::Language, src: &[u8], what: &str) -> usize {
        thread_local! {
            static QUERIES: std::cell::RefCell<std::collections::HashMap<&'static str, std::rc::Rc<tree_sitter::Query>>> = Default::default();
        }
        let q = QUERIES.with_borrow_mut(|m| {
            m.entry(l.name)
                .or_insert_with(|| {
                    std::rc::Rc::new(tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap())
                })
                .clone()
        });
        let tags = l.symbol_queries();
        let tree = l.parse(src);
        let a = theirs(&q, &tree, src, None);
        assert_eq!(a, ours(tags, &tree, src, None), "{}: {what}", l.name);
        // Ranges: the names found, and a few byte offsets.
        let mut ranges: Vec<Range<usize>> = a.iter().take(8).map(|t| t.3..t.4).collect();
        ranges.extend([
            0..0,
            0..1,
            src.len() / 2..src.len() / 2 + 1,
            src.len()..src.len(),
        ]);
        for r in ranges {
            assert_eq!(
                theirs(&q, &tree, src, Some(r.clone())),
                ours(tags, &tree, src, Some(r.clone())),
                "{}: {what}, range {r:?}",
                l.name
            );
        }
        a.len()
    }

    /// On every language's fixture and on the tests' real-looking files, our matcher finds
    /// what tree-sitter's query cursor finds.
    #[test]
    fn matches_equal_tree_sitters_on_the_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for l in ALL {
            let n = compare(l, &std::fs::read(dir.join(l.fixture)).unwrap(), l.fixture);
            assert!(n >= 5, "{}: {n} symbols", l.name);
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if let Some(l) = crate::lang::for_path(&p) {
                compare(l, &std::fs::read(&p).unwrap(), &p.display().to_string());
            }
        }
    }

    /// Anchors, negated fields, ERROR nodes and predicates, on purpose-made sources.
    #[test]
    fn matches_equal_tree_sitters_on_the_hard_shapes() {
        let by = |n| crate::lang::by_name(n).unwrap();
        let cases: &[(&str, &str)] = &[
            ("c", "BPF_CALL_2(f, int, a) {\n  return 0;\n}\nSYSCALL_DEFINE1(g, int, x) /* c */ {}\n#if X\nFOO(h) { }\n#else\nBAR(1, i) {}\n#endif\nint k(void) { TAILQ_FOREACH(v, h, f) { } }\nMACRO(x) y;\nstruct s { int a; int *b; int c[2]; };\ntypedef int (*fp)(int);\n"),
            ("cpp", "class GTEST_API_ Foo {\n public:\n  int x;\n};\nstruct BOOST_SYMBOL_VISIBLE bad_graph : public std::invalid_argument {\n};\nint size() const BOOST_ASIO_NOEXCEPT { return 0; }\nGTEST_API_ Foo* Get() { return 0; }\nA::~A() {}\nclass A<T>::B {};\nnamespace a::b { int f(); }\n"),
            ("javascript", "A.prototype.b = function () {};\nA.prototype.c = 1;\nexports.d = () => 1;\nmodule.e = function () {};\nthis.f = function () {};\nconst g = 1, h = () => 2;\nconst o = { i: function () {}, 'j': () => 1 };\n"),
            ("typescript", "interface I { new (x: number): I; m(): void; p: string }\nenum E { A, B = 2 }\nabstract class C { abstract m(): void; n(): void; }\ndeclare module 'x' { }\nnamespace N.M { }\n"),
            ("ruby", "class A::B\n  X = 1\n  def m; end\n  def self.s; end\nend\nmodule M; end\nY = 2\n"),
            ("csharp", "class C { public static C operator +(C a, C b) => a; event E e; int f, g; ~C() {} }\n"),
            // Two names in one field: tree-sitter matches `name:` at the first only (see
            // `kids_of`).
            ("go", "package p\nconst (\n\tA, b = 1, 2\n\tc, D\n)\nconst E, F = 1, 2\nvar x, Y int\n"),
        ];
        for (lang, src) in cases {
            compare(by(lang), src.as_bytes(), "a hard shape");
            // Broken copies: every line cut short in turn puts ERROR nodes in other places.
            for (i, line) in src.lines().enumerate() {
                let mut s: Vec<&str> = src.lines().collect();
                let cut = &line[..line.len() / 2];
                s[i] = cut;
                compare(by(lang), s.join("\n").as_bytes(), &format!("line {i} cut"));
            }
        }
    }

    /// Over a whole corpus: `LLM_TAGS_CORPUS=DIR cargo test --release --lib
    /// tags_equal_on_a_corpus -- --ignored --nocapture` (every file of a language with no
    /// hand-written walk; Rust and Python too, their queries being the walks' specification).
    #[test]
    #[ignore]
    fn tags_equal_on_a_corpus() {
        let Some(dir) = std::env::var_os("LLM_TAGS_CORPUS") else {
            return;
        };
        let (mut files, mut syms) = (0, 0);
        for (p, l, src) in crate::lang::source_files(std::path::Path::new(&dir)) {
            syms += compare(l, &src, &p.display().to_string());
            files += 1;
        }
        eprintln!("{files} files, {syms} symbols: our matcher finds what tree-sitter's finds");
    }

    /// What reading each symbol query costs, against compiling it as a tree-sitter `Query`
    /// (by hand: `cargo test --release --lib tags_read_costs -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn tags_read_costs() {
        for l in ALL {
            let t = std::time::Instant::now();
            Tags::new(l.ts(), l.symbol_query).unwrap();
            let ours = t.elapsed();
            let t = std::time::Instant::now();
            tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap();
            eprintln!(
                "{:>10}: read {ours:>9.1?}, tree-sitter compile {:>9.1?}",
                l.name,
                t.elapsed()
            );
        }
    }
}
