//! Our matcher for the part of tree-sitter's query language the symbol queries
//! (`queries/*.scm`) use: read once per language (microseconds, where compiling a tree-sitter
//! `Query` analyses every pattern against the grammar's parse table: tens of milliseconds in
//! C++), then matched by one walk of the tree (which may leave unopened the subtrees that
//! cannot hold a pattern's root: `pruning.rs`). The `.scm` files stay the data; `llm ast` keeps
//! tree-sitter's own queries.
//!
//! Understood: node patterns `(kind …)`, wildcards `(_)` and `_`, anonymous nodes `"…"`, fields
//! `name: pat`, negated fields `!body`, alternations `[…]`, anchors `.`, captures `@x`, and the
//! text predicates `#eq?`, `#match?`, `#any-of?` (with their `not-`/`any-` forms). Anything else
//! (quantifiers, groups, supertypes, other predicates) is an error when the text is read.
//! Matches follow tree-sitter's semantics: a child step matches a later visible child, skipping
//! others; `.` before a step makes it the first named child (or the next named sibling), `.`
//! after the last one the last named child; every way a pattern matches is reported.

use super::pruning::Opener;
use read::{tokenize, Reader};
use regex::bytes::Regex;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// Node kind of tree-sitter's ERROR nodes (`ts_builtin_sym_error`).
const ERROR: u16 = u16::MAX;

#[path = "tags_read.rs"]
mod read;

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
            regexes: Default::default(),
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

    /// The kinds patterns are rooted at, and whether one is rooted at a wildcard.
    pub fn root_kinds(&self) -> (Vec<u16>, bool) {
        let kinds = (0..self.by_kind.len())
            .filter(|&k| !self.by_kind[k].is_empty())
            .map(|k| k as u16)
            .collect();
        (kinds, !self.wildcard_roots.is_empty())
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
    /// `QueryCursor::set_byte_range` gives. With an `opener`, only the nodes it opens are
    /// opened (it must open every node that holds a pattern's root).
    pub fn matches<'t>(
        &self,
        tree: &'t Tree,
        source: &[u8],
        range: Option<Range<usize>>,
        opener: Option<&mut Opener>,
        found: &mut dyn FnMut(&Captures<'t>),
    ) {
        // tree-sitter's `set_byte_range`: an end of 0 is no end.
        let range = range.map(|r| r.start..if r.end == 0 { usize::MAX } else { r.end });
        let ranges = range.as_ref().map(std::slice::from_ref);
        self.matches_in(tree, source, ranges, opener, found);
    }

    /// [`Self::matches`] for several ranges at once, in one walk: each match found once, where
    /// one ranged walk per range finds it (a node is visited when it and its ancestors
    /// intersect one same range). `ranges` must be [`disjoint`]. One walk per range passed
    /// every child of the nodes on the way, again for each range: `find a` on a Go function of
    /// 4,000 calls to `a` took 2.9 s (debug), 8,000 took 14.8 s.
    pub fn matches_in<'t>(
        &self,
        tree: &'t Tree,
        source: &[u8],
        ranges: Option<&[Range<usize>]>,
        mut opener: Option<&mut Opener>,
        found: &mut dyn FnMut(&Captures<'t>),
    ) {
        let mut caps = Captures::new();
        // The visible children of the node the patterns are rooted at, read once for them all.
        let mut kids = KidCache::default();
        let mut cursor = tree.walk();
        // For each node on the cursor's path above the current one: the window of `ranges`
        // it and its ancestors intersect, and the first of them its children after the one
        // being visited may intersect (siblings come in order, so the window only moves on).
        let everywhere = std::slice::from_ref(&(0..usize::MAX));
        let ranges = ranges.unwrap_or(everywhere);
        let mut path: Vec<Window> = Vec::new();
        let mut root = Window {
            end: ranges.len(),
            from: 0,
        };
        'walk: loop {
            let node = cursor.node();
            let parent = path.last_mut().unwrap_or(&mut root);
            let here = parent.enter(ranges, node.start_byte(), node.end_byte());
            if here.is_some() {
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
                    self.match_elem(
                        &p.root,
                        node,
                        &[],
                        Some(&mut kids),
                        &mut caps,
                        &mut |caps| {
                            if p.predicates.iter().all(|pr| pr.holds(caps, source)) {
                                found(caps);
                            }
                        },
                    );
                }
            }
            if let Some(window) = here {
                let open = (path.is_empty() || opener.as_mut().is_none_or(|o| o.open(node)))
                    && cursor.goto_first_child();
                if open {
                    path.push(window);
                    continue;
                }
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
    /// of enclosing alternations, which go with the node). `kids`: where `node`'s children
    /// may already have been read.
    fn match_elem<'t>(
        &self,
        e: &Elem,
        node: Node<'t>,
        extra: &[u16],
        kids: Option<&mut KidCache<'t>>,
        caps: &mut Captures<'t>,
        k: &mut dyn FnMut(&mut Captures<'t>),
    ) {
        match e {
            Elem::Alt { branches, captures } => {
                let extra: Vec<u16> = captures.iter().chain(extra).copied().collect();
                for b in branches {
                    self.match_elem(b, node, &extra, None, caps, k);
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
                    // The cursor's account of each child only for a field or a last child.
                    let status = children.iter().any(|s| s.field != 0 || s.last);
                    let mut own = KidCache::default();
                    let kids = kids.unwrap_or(&mut own).of(node, status);
                    self.match_steps(children, kids, 0, caps, k);
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
                self.match_elem(&s.elem, kid.node, &[], None, caps, &mut |caps| {
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

/// The children of the last node asked about, kept for the next question about it.
#[derive(Default)]
struct KidCache<'t> {
    node: Option<Node<'t>>,
    /// Whether `kids` have their status (see [`kids_of`]).
    status: bool,
    kids: Vec<Kid<'t>>,
}

impl<'t> KidCache<'t> {
    /// `node`'s children (with their status when `status`), read unless they were just read.
    fn of(&mut self, node: Node<'t>, status: bool) -> &[Kid<'t>] {
        if self.node != Some(node) || (status && !self.status) {
            kids_of(node, status, &mut self.kids);
            self.node = Some(node);
            self.status = status;
        }
        &self.kids
    }
}

/// `node`'s visible children into `kids`, with, when `status` (else left at their defaults:
/// none, no, no), what tree-sitter's query cursor knows of each: the field (through hidden
/// wrappers), later named siblings, and whether the grammar's production can put a later child
/// in the same field. The last comes from the parse table's field map, which no public API
/// gives: a Go `const_spec` `c, D` holds D in field `name`, yet the production puts no later
/// `name` after `c`, so tree-sitter never matches `name:` at D.
fn kids_of<'t>(node: Node<'t>, status: bool, kids: &mut Vec<Kid<'t>>) {
    use tree_sitter::ffi;
    kids.clear();
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
                if status {
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
                }
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

/// Ranges sorted by start, those that overlap merged: their ends then come in order too, as
/// [`Tags::matches_in`] needs. A node intersects one of the merged ranges where it intersected
/// one of those merged (nodes nest: a node and its ancestors intersect the same one).
pub fn disjoint(ranges: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if r.start < last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The ranges (of a sorted, disjoint list) a node on a walk's path and its ancestors
/// intersect, `from..end`; while its children are visited, `from` moves past those that end
/// before the child being visited.
struct Window {
    end: usize,
    from: usize,
}

impl Window {
    /// The window of the child `start..end` of this window's node (the children entered in
    /// order), `None` when it intersects none of its parent's ranges. Intersecting is
    /// tree-sitter's `set_byte_range` rule: the node ends after the range starts (or is empty
    /// at its start) and starts before it ends.
    fn enter(&mut self, ranges: &[Range<usize>], start: usize, end: usize) -> Option<Window> {
        // Those that end before this child end before every later one.
        while self.from < self.end && ranges[self.from].end <= start {
            self.from += 1;
        }
        let mut upto = self.from;
        while upto < self.end
            && (ranges[upto].start < end || (start == end && ranges[upto].start == end))
        {
            upto += 1;
        }
        (upto > self.from).then_some(Window {
            end: upto,
            from: self.from,
        })
    }
}

#[cfg(test)]
#[path = "tags_tests.rs"]
mod tests;
