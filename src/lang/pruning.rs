//! Which subtrees a walk looking for nodes of some kinds may leave unopened. The grammar's
//! `node-types.json` tells which kinds a node of each kind can hold (`Language::may_contain`);
//! the tokens every node of a kind holds (its keywords, a `{`: `keywords.rs`) tell more: when
//! every way down from a node to a target passes a node of a kind that holds one of some words
//! or a `{`, a node whose text shows none of them holds no target. The symbol walk
//! ([`Pruning`]) then opens, in a TypeScript declaration file, the interfaces but not their
//! members' types: a third of the nodes instead of all of them. `llm ast`'s bare-kind walk
//! ([`Pruning::for_kinds`]) opens a C function's body but not the statements in it that hold no
//! `{`, when it looks for functions.

use super::Language;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use tree_sitter::{Node, Tree};

impl Language {
    /// For each node symbol of the grammar, whether a node of that kind can have a descendant of
    /// one of the `targets` kinds, as the grammar's `node-types.json` says (every kind when a
    /// target can sit inside an extra such as a comment, which can appear anywhere). A walk
    /// looking for the targets need not open the other nodes: in a Rust macro's token tree there
    /// is never a `call_expression`. ERROR nodes (outside the table) can hold anything. (What
    /// [`Pruning`] builds on; the tests check it against the nestings of real files.)
    #[cfg(test)]
    pub fn may_contain(&self, targets: &[&str]) -> Vec<bool> {
        match KindGraph::new(self) {
            Some(g) => g.reach(self, targets, &|_| false),
            None => vec![true; self.ts().node_kind_count()],
        }
    }

    /// What the walk for the symbol query's matches may leave unopened (made once); `None`
    /// when a pattern is rooted at a wildcard.
    pub(crate) fn symbol_pruning(&self) -> Option<&Pruning> {
        self.cache
            .pruning
            .get_or_init(|| Pruning::new(self))
            .as_ref()
    }
}

/// Which kinds a node of each kind can have as children, from `node-types.json`.
struct KindGraph {
    /// The kinds a node of each kind can be a child of.
    parents: HashMap<String, Vec<String>>,
    /// The kinds the file describes.
    described: HashSet<String>,
}

impl KindGraph {
    fn new(lang: &Language) -> Option<KindGraph> {
        let types = serde_json::from_str::<Vec<serde_json::Value>>(lang.node_types).ok()?;
        let named = |t: &serde_json::Value| t["named"].as_bool() == Some(true);
        let name = |t: &serde_json::Value| t["type"].as_str().unwrap_or("").to_string();
        let mut subtypes: HashMap<String, Vec<String>> = HashMap::new();
        for t in types.iter().filter(|t| named(t)) {
            if let Some(subs) = t["subtypes"].as_array() {
                subtypes.insert(
                    name(t),
                    subs.iter().filter(|s| named(s)).map(name).collect(),
                );
            }
        }
        // A supertype stands for each of its subtypes (recursively).
        fn expand(n: &str, subtypes: &HashMap<String, Vec<String>>, out: &mut Vec<String>) {
            match subtypes.get(n) {
                Some(subs) => subs.iter().for_each(|s| expand(s, subtypes, out)),
                None => out.push(n.to_string()),
            }
        }
        let mut parents: HashMap<String, Vec<String>> = HashMap::new();
        for t in types.iter().filter(|t| named(t)) {
            let fields = t["fields"].as_object().into_iter().flat_map(|f| f.values());
            for slot in fields.chain(std::iter::once(&t["children"])) {
                for c in slot["types"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|c| named(c))
                {
                    let mut kinds = Vec::new();
                    expand(&name(c), &subtypes, &mut kinds);
                    for k in kinds {
                        parents.entry(k).or_default().push(name(t));
                    }
                }
            }
        }
        let described = types.iter().filter(|t| named(t)).map(name).collect();
        Some(KindGraph { parents, described })
    }

    /// For each node symbol, whether a node of the kind can hold a node of a `targets` kind
    /// along a way down that passes no node of a `witnessed` kind (the target's own kind
    /// included; the node's own kind not). A node of a kind that cannot holds a target only if
    /// it holds a node of a witnessed kind. With nothing witnessed: [`Language::may_contain`].
    fn reach(
        &self,
        lang: &Language,
        targets: &[&str],
        witnessed: &dyn Fn(&str) -> bool,
    ) -> Vec<bool> {
        let ts = lang.ts();
        let count = ts.node_kind_count();
        // Every kind from which a target can be reached going down. A kind the file does not
        // describe (an alias of a supertype, such as Python's `as_pattern_target`) may hold
        // anything.
        let parents = &self.parents;
        let mut reach: HashSet<String> = parents
            .keys()
            .chain(parents.values().flatten())
            .filter(|k| !self.described.contains(*k))
            .cloned()
            .collect();
        let mut todo: Vec<String> = targets
            .iter()
            .map(|t| t.to_string())
            .chain(reach.iter().cloned())
            .collect();
        while let Some(k) = todo.pop() {
            // A way down through a witnessed kind is not one.
            if witnessed(&k) {
                continue;
            }
            for p in parents.get(&k).into_iter().flatten() {
                if reach.insert(p.clone()) {
                    todo.push(p.clone());
                }
            }
        }
        if lang
            .extras
            .iter()
            .any(|e| !witnessed(e) && (reach.contains(*e) || targets.contains(e)))
        {
            return vec![true; count];
        }
        (0..count as u16)
            .map(|id| ts.node_kind_for_id(id).is_some_and(|k| reach.contains(k)))
            .collect()
    }
}

/// Which nodes the walk for a symbol query's matches opens (see the module's comment): the
/// nodes of a kind that can hold a pattern's root with no witness on the way, and those of a
/// kind that can hold one at all whose text shows a witness: one of the keywords of the
/// roots' kinds (a whole word), or a `{`.
pub struct Pruning {
    /// Per node symbol: a node of the kind may hold a root.
    may: Vec<bool>,
    /// Per node symbol: a node of the kind may hold a root, whatever its text.
    blind: Vec<bool>,
    /// The witness words.
    words: Vec<&'static str>,
}

impl Pruning {
    /// For the symbol query's pattern roots.
    fn new(lang: &Language) -> Option<Pruning> {
        let ts = lang.ts();
        let (kinds, wildcard) = lang.symbol_tags().root_kinds();
        if wildcard {
            return None;
        }
        let roots: Vec<&str> = kinds
            .iter()
            .filter_map(|&k| ts.node_kind_for_id(k))
            .collect();
        Pruning::for_kinds(lang, &roots)
    }

    /// What a walk looking for the nodes of the `roots` kinds may leave unopened (`llm ast`'s
    /// bare-kind queries); `None` when the grammar's `node-types.json` does not read.
    pub fn for_kinds(lang: &Language, roots: &[&str]) -> Option<Pruning> {
        let ts = lang.ts();
        let keywords = |kind: &str| {
            (lang.rules.keywords.iter())
                .find(|(k, _)| *k == kind)
                .map_or(&[][..], |k| k.1)
        };
        let mut words: Vec<&'static str> =
            roots.iter().flat_map(|r| keywords(r)).copied().collect();
        words.sort_unstable();
        words.dedup();
        let witnessed = |kind: &str| {
            lang.rules.braced.contains(&kind) || keywords(kind).iter().any(|w| words.contains(w))
        };
        let graph = KindGraph::new(lang)?;
        let mut may = graph.reach(lang, roots, &|_| false);
        let mut blind = graph.reach(lang, roots, &witnessed);
        // Anonymous nodes (tokens; rarely an alias of a rule with children) are opened.
        for id in 0..ts.node_kind_count() as u16 {
            if !ts.node_kind_is_named(id) {
                may[id as usize] = true;
                blind[id as usize] = true;
            }
        }
        Some(Pruning { may, blind, words })
    }

    /// The witnesses in the text `tree` was parsed from (the parts of `source` it spans), in
    /// order.
    fn witnesses(&self, source: &[u8], tree: &Tree) -> Vec<Range<usize>> {
        let mut hits = super::parsed_word_hits(tree, source, &self.words);
        for r in tree.included_ranges() {
            let start = r.start_byte.min(source.len());
            let part = &source[start..r.end_byte.min(source.len())];
            hits.extend(memchr::memchr_iter(b'{', part).map(|i| start + i..start + i + 1));
        }
        hits.sort_unstable_by_key(|h| h.start);
        hits
    }
}

/// A [`Pruning`] applied to one tree, asked about its nodes in document order.
pub struct Opener<'p> {
    pruning: &'p Pruning,
    hits: Vec<Range<usize>>,
    /// The first witness not before the last node asked about.
    next: usize,
}

impl<'p> Opener<'p> {
    pub fn new(pruning: &'p Pruning, source: &[u8], tree: &Tree) -> Opener<'p> {
        Opener {
            pruning,
            hits: pruning.witnesses(source, tree),
            next: 0,
        }
    }

    /// Whether the walk must open `node` (asked in document order). A node holding a syntax
    /// error always is: an ERROR node can hold anything, a MISSING token shows no text.
    pub fn open(&mut self, node: Node) -> bool {
        if node.has_error() {
            return true;
        }
        let kind = node.kind_id() as usize;
        let p = self.pruning;
        if !p.may.get(kind).copied().unwrap_or(true) {
            return false;
        }
        if p.blind.get(kind).copied().unwrap_or(true) {
            return true;
        }
        let r = node.byte_range();
        while self.next < self.hits.len() && self.hits[self.next].start < r.start {
            self.next += 1;
        }
        self.hits[self.next..]
            .iter()
            .take_while(|h| h.start < r.end)
            .any(|h| h.end <= r.end)
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::by_name;

    /// In TypeScript, a member's type is opened only when its text shows a witness; statements
    /// and object literals always are.
    #[test]
    fn typescript_types_are_left_unopened_unless_their_text_says_otherwise() {
        let ts = by_name("typescript").unwrap();
        let p = ts.symbol_pruning().unwrap();
        let blind = |kind: &str| ts.kind_ids(kind).iter().any(|&k| p.blind[k as usize]);
        for kind in [
            "type_annotation",
            "property_signature",
            "union_type",
            "formal_parameters",
        ] {
            assert!(!blind(kind), "{kind}");
        }
        for kind in ["program", "statement_block", "object"] {
            assert!(blind(kind), "{kind}");
        }
        assert!(p.words.contains(&"function") && p.words.contains(&"class"));
    }
}
