//! The language registry: one file per language, one [`ALL`] list. Everything that parses code
//! (ast, find, patch, the mutation core's syntax check, write) goes through here.

use std::cell::RefCell;
use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;
use tree_sitter::{Node, Parser, Tree};

mod ancestry;
pub(crate) mod bash;
pub mod brace;
mod c;
mod cpp;
mod csharp;
mod ecmascript;
pub(crate) mod go;
#[cfg(test)]
mod grammar_check;
pub mod items;
mod java;
mod javascript;
#[rustfmt::skip]
mod keywords;
pub mod literals;
mod nesting;
mod outline;
mod php;
mod pruning;
mod python;
pub mod references;
pub mod regions;
mod ruby;
mod ruby_cut;
mod rust;
mod shell;
pub mod symbols;
mod tags;
mod typescript;

pub use pruning::{Opener, Pruning};
pub use references::{references, RefContext, Reference};
pub use symbols::{symbols, Symbol, SymbolKind};

/// A language `llm` understands structurally.
pub struct Language {
    /// Canonical lowercase name (`rust`, `python`), used in JSON output and `--lang`.
    pub name: &'static str,
    /// Other names accepted by `--lang` (`rs`, `py`…).
    pub aliases: &'static [&'static str],
    /// File extensions without the dot.
    pub extensions: &'static [&'static str],
    /// Whole file names (`Rakefile`).
    pub file_names: &'static [&'static str],
    /// Interpreters whose `#!` line makes an extensionless file this language (`bash`).
    pub shebangs: &'static [&'static str],
    /// The tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
    /// Tree-sitter query defining the symbols `llm find` reports: each pattern captures the
    /// item as `@<kind>` (a [`SymbolKind`] wire name) and its name as `@name`.
    pub symbol_query: &'static str,
    /// Every kind this language reports (its fixture must exercise each one).
    pub kinds: &'static [SymbolKind],
    /// Joins a parent's name and a child's in a qualified name (`::`, `.`).
    pub path_separator: &'static str,
    /// Blank lines put between an inserted top-level definition and its neighbour when the file
    /// has no sibling to copy the spacing from (PEP 8's two for Python, one elsewhere).
    pub top_level_gap: usize,
    /// File name under `tests/fixtures/` that exercises every kind.
    pub fixture: &'static str,
    /// The per-language rules symbol extraction needs.
    pub rules: Rules,
    /// The crate the grammar comes from (its `grammar.json` checks `rules.keywords`).
    pub grammar_crate: &'static str,
    /// The grammar's `node-types.json`: which kinds a node of each kind can have as children.
    pub node_types: &'static str,
    /// Kinds that can appear anywhere (comments), as the grammar's `extras` lists them.
    pub extras: &'static [&'static str],
    /// What is made on first use.
    pub cache: Cache,
}

/// A language's objects made on first use.
pub struct Cache {
    /// The `symbol_query`, read (see [`Language::symbol_tags`]).
    tags: OnceLock<tags::Tags>,
    /// The grammar's language object.
    language: OnceLock<tree_sitter::Language>,
    /// [`Language::keywordless_table`].
    keywordless: OnceLock<Vec<Option<Vec<bool>>>>,
    /// [`Language::symbol_pruning`].
    pruning: OnceLock<Option<pruning::Pruning>>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache::new()
    }
}

impl Cache {
    /// Nothing made yet.
    pub const fn new() -> Cache {
        Cache {
            tags: OnceLock::new(),
            language: OnceLock::new(),
            keywordless: OnceLock::new(),
            pruning: OnceLock::new(),
        }
    }
}

/// What symbol extraction needs to know about a language beyond its query: small tables every
/// language fills, and optional hooks (a faster walk, a region scanner, naming rules) that only
/// some need. The shared rules that read them live once, in [`symbols`].
pub struct Rules {
    /// A symbol of one of these kinds makes a `function` directly inside it a `method`.
    pub methods_in: &'static [SymbolKind],
    /// Which comments directly before a definition are its documentation (part of `span`).
    pub doc: Doc,
    /// Node kinds of the grammar's comments.
    pub comments: &'static [&'static str],
    /// Sibling kinds before a definition that belong to it (attributes, decorators, annotations).
    pub attached: &'static [&'static str],
    /// Parent kinds that wrap a definition and belong to its span (`decorated_definition`,
    /// `export_statement`, `template_declaration`): the span starts at theirs.
    pub wrappers: &'static [&'static str],
    /// Node kinds that are identifier occurrences for `llm find --refs`.
    pub identifier_kinds: &'static [&'static str],
    /// Node kinds with the keyword tokens every node of the kind holds (`function_item`: `fn`):
    /// what a query naming the kind needs in a file, for the literal prefilter (generated from
    /// the grammar's `grammar.json`: see `keywords.rs`).
    pub keywords: &'static [(&'static str, &'static [&'static str])],
    /// Node kinds every node of which holds a `{` byte (generated with `keywords`): with the
    /// keywords, what tells a symbol walk which subtrees need not be opened (see `pruning.rs`).
    pub braced: &'static [&'static str],
    /// Anonymous node names whose text can differ from the name (generated with `keywords`):
    /// `"#include"` is also `# include`, PHP's `"function"` also `FUNCTION`; the literal
    /// prefilter does not require them.
    pub respelled: &'static [&'static str],
    /// Node kinds that are ancestors of a container's members below the root (they come out
    /// shortened from a member's region parse).
    pub containers: &'static [&'static str],
    /// The kind of a whole file's root node.
    pub root_kind: &'static str,
    /// Optional speed-up: a hand-written twin of the symbol query (tests check both agree).
    pub walk: Option<Walk>,
    /// Optional: the file's lexical outline, so that a file can be parsed only around a name
    /// (see [`regions`]; not Bash's), and a file with syntax errors is read item by item (see
    /// `symbols.rs`). Without it files are parsed whole.
    pub regions: Option<fn(&[u8]) -> regions::Regions>,
    /// Optional speed-up for a language without `regions`: a big file cut in at most the
    /// number of parts asked for its outline, each part parsed on a thread of its own (the
    /// ranges of each part; `None`: no cut). Ruby's cuts between members of a class
    /// (`ruby_cut.rs`).
    pub split: Option<Split>,
    /// The identifier a captured `@name` node stands for (Rust impl: the type's last segment).
    pub name_node: Option<for<'t> fn(SymbolKind, Node<'t>) -> Node<'t>>,
    /// The body `llm patch --body` replaces, when it is not the definition's `body` field.
    pub body: Option<for<'t> fn(SymbolKind, Node<'t>) -> Option<Node<'t>>>,
    /// Whether an identifier node is a real reference (not a lifetime, label…); default: yes.
    pub is_reference: Option<fn(Node) -> bool>,
    /// How an identifier is used, when the shared rule (see `references::ref_context`) is not
    /// enough; given the node's ancestors.
    pub ref_context: Option<fn(Node, references::Up) -> RefContext>,
    /// The type a definition outside any symbol belongs to (a Go method's receiver type, C++'s
    /// `void Shape::draw()`): its `parent`.
    pub owner: Option<Owner>,
}

/// The name of the type a definition outside any symbol belongs to, from its node and the source.
pub type Owner = fn(Node, &[u8]) -> Option<String>;

/// See [`Rules::split`].
pub type Split = fn(&[u8], usize) -> Option<Vec<Vec<std::ops::Range<usize>>>>;

/// Which comments before a definition document it.
#[derive(Clone, Copy)]
pub enum Doc {
    /// None do (Python: docstrings sit inside the body).
    None,
    /// Any comment that starts its line, in an unbroken run of lines ending right above the
    /// definition (Go, C, Ruby, shell).
    Adjacent,
    /// Comments starting with one of these prefixes, directly above (no blank line): `/**`, `///`.
    Prefixed(&'static [&'static str]),
    /// Comments whose text passes the test, with any plain comments between them and the
    /// definition (Rust: `///`, `/** */`).
    Custom(fn(&[u8]) -> bool),
}

/// A language's hand-written symbol walk: the speed-up twin of its symbol query.
pub struct Walk {
    /// Whether a node is a symbol definition, and its name node before `name_node`: the same
    /// answer the language's `symbol_query` gives, by a plain tree walk.
    /// (Several names for one node: Python's `a = b = 1`.)
    pub symbol_node: for<'t> fn(Node<'t>, &mut Vec<(SymbolKind, Node<'t>)>),
    /// Keywords that every symbol definition holds, but for those under `keywordless_parents`
    /// (`fn`, `struct`…; `def`, `class`): the walk enters only the subtrees that hold one.
    pub definition_words: &'static [&'static str],
    /// Node kinds (with the kind their parent must have, if any) whose children can be symbols
    /// without a definition word: enum variants, struct fields, class-level assignments.
    pub keywordless_parents: &'static [(&'static str, Option<&'static str>)],
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Language({})", self.name)
    }
}

/// Every registered language. Adding a language = one file in `src/lang/`, its symbol query in
/// `src/lang/queries/`, a fixture in `tests/fixtures/`, and one line here (then regenerate
/// `keywords.rs`: see `grammar_check.rs`).
pub static ALL: &[&Language] = &[
    &rust::RUST,
    &python::PYTHON,
    &javascript::JAVASCRIPT,
    &typescript::TYPESCRIPT,
    &typescript::TSX,
    &go::GO,
    &java::JAVA,
    &c::C,
    &cpp::CPP,
    &csharp::CSHARP,
    &ruby::RUBY,
    &php::PHP,
    &bash::BASH,
];

impl Language {
    /// A fresh parser for this language.
    pub fn parser(&self) -> Parser {
        let mut parser = Parser::new();
        parser
            .set_language(self.ts())
            .expect("grammar ABI is compatible with the tree-sitter crate");
        parser
    }

    /// Parses `source`. Tree-sitter always produces a tree (with ERROR/MISSING nodes where the
    /// text does not parse). Parsers are kept per thread and language, so parallel callers pay
    /// for `set_language` once.
    pub fn parse(&self, source: &[u8]) -> Tree {
        self.with_parser(|parser| {
            parser
                .parse(source, None)
                .expect("parser has a language and no timeout")
        })
    }

    /// Runs `f` with this thread's parser for the language (which `f` must leave parsing whole
    /// documents).
    pub(crate) fn with_parser<R>(&self, f: impl FnOnce(&mut Parser) -> R) -> R {
        thread_local! {
            static PARSERS: RefCell<Vec<(&'static str, Parser)>> = const { RefCell::new(Vec::new()) };
        }
        PARSERS.with(|cell| {
            let mut parsers = cell.borrow_mut();
            let i = match parsers.iter().position(|(n, _)| *n == self.name) {
                Some(i) => i,
                None => {
                    parsers.push((self.name, self.parser()));
                    parsers.len() - 1
                }
            };
            f(&mut parsers[i].1)
        })
    }

    /// The tree-sitter language object (made once).
    pub fn ts(&self) -> &tree_sitter::Language {
        self.cache.language.get_or_init(self.grammar)
    }

    /// The symbol query, read for our matcher (`tags.rs`; made once, in microseconds: no
    /// tree-sitter `Query` is compiled for symbols).
    pub fn symbol_tags(&self) -> &tags::Tags {
        self.cache.tags.get_or_init(|| {
            tags::Tags::new(self.ts(), self.symbol_query)
                .unwrap_or_else(|e| panic!("{} symbol query: {e}", self.name))
        })
    }

    /// Named node kinds of the grammar (for "did you mean" on a bad query), without duplicates.
    pub fn named_node_kinds(&self) -> Vec<&str> {
        let ts = self.ts();
        let mut kinds: Vec<&str> = (0..ts.node_kind_count() as u16)
            .filter(|&id| ts.node_kind_is_named(id) && ts.node_kind_is_visible(id))
            .filter_map(|id| ts.node_kind_for_id(id))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds
    }

    /// The symbols of the named node kind `kind` (several when aliases share the name).
    pub fn kind_ids(&self, kind: &str) -> Vec<u16> {
        let ts = self.ts();
        (0..ts.node_kind_count() as u16)
            .filter(|&id| ts.node_kind_is_named(id) && ts.node_kind_for_id(id) == Some(kind))
            .collect()
    }

    /// Per node symbol: `None` unless the kind is one of `rules.keywordless_parents`, else per
    /// parent symbol whether it fits (see `symbols`: these nodes are always opened).
    pub(crate) fn keywordless_table(&self) -> &[Option<Vec<bool>>] {
        self.cache.keywordless.get_or_init(|| {
            let count = self.ts().node_kind_count();
            let mut table = vec![None; count];
            let parents = self
                .rules
                .walk
                .as_ref()
                .map_or(&[][..], |w| w.keywordless_parents);
            // Several entries for one kind add up.
            for (kind, parent) in parents {
                for id in self.kind_ids(kind) {
                    let v = table[id as usize].get_or_insert_with(|| vec![false; count]);
                    match parent {
                        None => v.iter_mut().for_each(|b| *b = true),
                        Some(p) => self
                            .kind_ids(p)
                            .into_iter()
                            .for_each(|pid| v[pid as usize] = true),
                    }
                }
            }
            table
        })
    }

    /// Field names of the grammar.
    pub fn field_names(&self) -> Vec<&str> {
        let ts = self.ts();
        (1..=ts.field_count() as u16)
            .filter_map(|id| ts.field_name_for_id(id))
            .collect()
    }
}

/// Visits the nodes of `tree` that can matter around `hits` (sorted by start), in document
/// order: the root, and every child of an entered node. A node is entered when its range holds
/// a hit, or when `always(kind id, parent's kind id)` says so; subtrees without either are
/// passed over unopened. So every node that holds a hit is visited, with its ancestors, which
/// `visit` is given too (root first: `Node::parent` descends from the root for each call).
pub fn walk_hits<'t>(
    tree: &'t Tree,
    hits: &[Range<usize>],
    always: impl Fn(u16, u16) -> bool,
    mut visit: impl FnMut(Node<'t>, &[Node<'t>]),
) {
    let mut cursor = tree.walk();
    // The first hit not before the node visited (nodes come in order of their start).
    let mut next = 0;
    let mut parents: Vec<Node<'t>> = Vec::new();
    'outer: loop {
        let node = cursor.node();
        visit(node, &parents);
        let r = node.byte_range();
        while next < hits.len() && hits[next].start < r.start {
            next += 1;
        }
        let enter = match parents.last() {
            None => true,
            Some(parent) => {
                hits[next..]
                    .iter()
                    .take_while(|h| h.start < r.end)
                    .any(|h| h.end <= r.end)
                    || always(node.kind_id(), parent.kind_id())
            }
        };
        if enter && cursor.goto_first_child() {
            parents.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'outer;
            }
            if !cursor.goto_parent() {
                break 'outer;
            }
            parents.pop();
        }
    }
}

/// Leaves a tree to the process's exit: for the trees of a run's only file, whose node-by-node
/// freeing (its nodes no longer in cache; 190k of them in TypeScript's `lib.dom.d.ts`) would
/// hold up the answer, or take a core from its rendering: the run ends with the answer. (A
/// scan frees on its workers.)
pub fn discard(tree: Tree) {
    std::mem::forget(tree);
}

/// [`word_hits`] in the parts of `source` that `tree` was parsed from (one item's, for a tree
/// of one item: a file read item by item is then scanned once in all, not once per item),
/// sorted by start.
pub(crate) fn parsed_word_hits(tree: &Tree, source: &[u8], words: &[&str]) -> Vec<Range<usize>> {
    let mut hits = Vec::new();
    for r in tree.included_ranges() {
        let start = r.start_byte.min(source.len());
        let part = &source[start..r.end_byte.min(source.len())];
        hits.extend(
            word_hits(part, words)
                .into_iter()
                .map(|h| h.start + start..h.end + start),
        );
    }
    hits
}

/// Where `words` occur in `hay` as whole words (see [`literals::whole_word`]), sorted by start.
pub fn word_hits(hay: &[u8], words: &[&str]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = words
        .iter()
        .flat_map(|w| {
            memchr::memmem::find_iter(hay, w.as_bytes())
                .map(|at| at..at + w.len())
                .filter(|r| literals::whole_word(hay, r))
        })
        .collect();
    out.sort_by_key(|r| r.start);
    out
}

/// The Python standard library's directory, for tests over real code (`None` without python3;
/// CI has it).
#[cfg(test)]
pub(crate) fn python_stdlib() -> Option<std::path::PathBuf> {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (!dir.is_empty()).then(|| dir.into())
}

/// A few big standard-library modules, `(name, bytes)`: real Python for tests.
#[cfg(test)]
pub(crate) fn python_stdlib_sample() -> Vec<(&'static str, Vec<u8>)> {
    let Some(dir) = python_stdlib() else {
        return Vec::new();
    };
    [
        "argparse.py",
        "dataclasses.py",
        "typing.py",
        "enum.py",
        "configparser.py",
        "inspect.py",
        "tarfile.py",
    ]
    .into_iter()
    .filter_map(|m| std::fs::read(dir.join(m)).ok().map(|src| (m, src)))
    .collect()
}

/// Every file of a registered language under `path` (itself, if a file), in path order, with
/// its language and bytes: for tests over real code.
#[cfg(test)]
pub(crate) fn source_files(path: &Path) -> Vec<(std::path::PathBuf, &'static Language, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![path.to_path_buf()];
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            let mut entries: Vec<_> = std::fs::read_dir(&p)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            entries.sort();
            todo.extend(entries.into_iter().rev());
        } else if let (Some(l), Ok(src)) = (for_path(&p), std::fs::read(&p)) {
            out.push((p, l, src));
        }
    }
    out
}

/// Whether `name` is one of the file names `l` claims (`Rakefile`, `Gemfile`).
fn named(l: &Language, name: &std::ffi::OsStr) -> bool {
    l.file_names
        .iter()
        .any(|&f| std::ffi::OsStr::new(f) == name)
}

/// The language of a file: by its name (`Rakefile`), its extension, or, for a file without an
/// extension, the interpreter its `#!` line names. A `.h` file holding C++ (a `class`,
/// `namespace` or `template` starting a line) is C++.
pub fn for_path(path: &Path) -> Option<&'static Language> {
    // As bytes: a name that is not UTF-8 (`bad\xff.rs`) still has its extension; the files
    // walked with such names were never read.
    let name = path.file_name()?;
    if let Some(l) = ALL.iter().copied().find(|l| named(l, name)) {
        return Some(l);
    }
    let Some(ext) = path.extension() else {
        return by_shebang(path);
    };
    let ext = ext.to_str()?;
    let l = ALL.iter().copied().find(|l| l.extensions.contains(&ext))?;
    // (The first 16 MiB: a header that is C++ says so long before.)
    if ext == "h" && crate::fsio::head(path, 16 << 20).is_some_and(|src| holds_cpp(&src)) {
        return Some(&cpp::CPP);
    }
    Some(l)
}

/// The language of a file about to hold `content` whole (`llm write`): as [`for_path`], but a
/// `.h`'s C++ and an extensionless file's `#!` line are read from `content`, not from the disk
/// (a new file has none; an overwritten one's old text says nothing of the new).
pub fn for_content(path: &Path, content: &[u8]) -> Option<&'static Language> {
    let name = path.file_name()?;
    if let Some(l) = ALL.iter().copied().find(|l| named(l, name)) {
        return Some(l);
    }
    let Some(ext) = path.extension() else {
        return shebang_language(content);
    };
    let ext = ext.to_str()?;
    let l = ALL.iter().copied().find(|l| l.extensions.contains(&ext))?;
    if ext == "h" && holds_cpp(content) {
        return Some(&cpp::CPP);
    }
    Some(l)
}

/// Whether a header holds C++: a line starting with `class`, `namespace` or `template`.
pub fn holds_cpp(src: &[u8]) -> bool {
    let src = src.strip_prefix(b"\xef\xbb\xbf").unwrap_or(src);
    src.split(|&b| b == b'\n').any(|line| {
        ["class ", "namespace ", "template<", "template <"]
            .iter()
            .any(|kw| line.starts_with(kw.as_bytes()))
    })
}

/// The language whose `shebangs` name the interpreter of an extensionless file's `#!` line
/// (`#!/bin/sh`, `#!/usr/bin/env bash`).
fn by_shebang(path: &Path) -> Option<&'static Language> {
    shebang_language(&crate::fsio::head(path, 128)?)
}

/// The language whose `shebangs` name the interpreter of the `#!` line `head` starts with.
fn shebang_language(head: &[u8]) -> Option<&'static Language> {
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let mut words = std::str::from_utf8(line).ok()?.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    ALL.iter().copied().find(|l| l.shebangs.contains(&program))
}

/// The language called `name` or one of its aliases (case-insensitive).
pub fn by_name(name: &str) -> Option<&'static Language> {
    let name = name.to_ascii_lowercase();
    ALL.iter()
        .copied()
        .find(|l| l.name == name || l.aliases.contains(&name.as_str()))
}

/// A syntax problem found in a tree: an `ERROR` node or a `MISSING` node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte range of the node (a MISSING node is empty: the place the token was expected).
    pub range: Range<usize>,
    /// `true` for MISSING, `false` for ERROR.
    pub missing: bool,
    /// For MISSING nodes, the kind of the expected token (`;`, `)`, `identifier`…).
    pub expected: Option<String>,
}

/// Every ERROR and MISSING node of a tree, outermost first, in source order.
/// Subtrees of an ERROR node are not searched again (one error per broken region).
pub fn syntax_errors(tree: &Tree) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    if !tree.root_node().has_error() {
        return out;
    }
    collect_errors(tree.root_node(), &mut out);
    out
}

fn collect_errors(node: Node, out: &mut Vec<SyntaxError>) {
    if node.is_error() {
        out.push(SyntaxError {
            range: node.byte_range(),
            missing: false,
            expected: None,
        });
        return;
    }
    if node.is_missing() {
        out.push(SyntaxError {
            range: node.byte_range(),
            missing: true,
            expected: Some(node.kind().to_string()),
        });
        return;
    }
    if !node.has_error() {
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect_errors(child, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_aliases_and_extensions_are_unique() {
        let mut names = HashSet::new();
        let mut exts = HashSet::new();
        for l in ALL {
            assert!(names.insert(l.name), "duplicate name {}", l.name);
            for a in l.aliases {
                assert!(names.insert(a), "duplicate alias {a}");
            }
            for e in l.extensions {
                assert!(exts.insert(e), "duplicate extension {e}");
            }
        }
    }

    #[test]
    fn lookup() {
        assert_eq!(by_name("RS").unwrap().name, "rust");
        assert_eq!(for_path(Path::new("a/b.py")).unwrap().name, "python");
        assert!(for_path(Path::new("Makefile")).is_none());
        let name = |p: &str| for_path(Path::new(p)).map(|l| l.name);
        assert_eq!(name("x/Rakefile"), Some("ruby"));
        assert_eq!(name("a.tsx"), Some("tsx"));
        assert_eq!(name("a.mts"), Some("typescript"));
        assert_eq!(name("a.cjs"), Some("javascript"));
        assert_eq!(name("a.c++"), Some("cpp"));
        let dir = tempfile::tempdir().unwrap();
        let write = |n: &str, text: &str| {
            let p = dir.path().join(n);
            std::fs::write(&p, text).unwrap();
            for_path(&p).map(|l| l.name)
        };
        assert_eq!(write("run", "#!/usr/bin/env bash\necho\n"), Some("bash"));
        assert_eq!(write("run2", "#!/bin/sh -e\necho\n"), Some("bash"));
        assert_eq!(write("run3", "#!/usr/bin/env -S zsh -f\n"), Some("bash"));
        assert_eq!(write("run4", "#!/usr/bin/perl\n"), None);
        assert_eq!(write("run5", "echo\n"), None);
        assert_eq!(write("a.h", "int f(void);\n"), Some("c"));
        assert_eq!(write("b.h", "namespace n {\nclass A;\n}\n"), Some("cpp"));
    }

    #[test]
    fn symbol_tags_compile_and_capture_only_kinds() {
        for l in ALL {
            for name in l.symbol_tags().capture_names() {
                assert!(
                    *name == "name"
                        || *name == "doc"
                        || name.starts_with('_')
                        || SymbolKind::from_capture(name).is_some(),
                    "{}: capture @{name} is neither @name, @doc, an @_auxiliary nor a kind",
                    l.name
                );
            }
            assert!(!l.rules.identifier_kinds.is_empty());
            for k in l.rules.identifier_kinds {
                assert!(
                    l.named_node_kinds().contains(k),
                    "{}: {k} is not a node kind",
                    l.name
                );
            }
        }
    }

    #[test]
    fn every_language_has_a_fixture_exercising_every_kind() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut fixtures = HashSet::new();
        for l in ALL {
            assert!(fixtures.insert(l.fixture), "fixture {} shared", l.fixture);
            let path = dir.join(l.fixture);
            assert_eq!(for_path(&path).map(|x| x.name), Some(l.name));
            let src = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tree = l.parse(&src);
            assert!(
                syntax_errors(&tree).is_empty(),
                "{} fixture has errors",
                l.name
            );
            let syms = symbols(l, &src, &tree, l.fixture);
            for k in l.kinds {
                assert!(
                    syms.iter().any(|s| s.kind == *k),
                    "{} fixture has no {k:?}",
                    l.name
                );
            }
            for s in &syms {
                assert!(
                    l.kinds.contains(&s.kind),
                    "{}: unlisted kind {:?}",
                    l.name,
                    s.kind
                );
                assert_eq!(&src[s.name_span.range()], s.name.as_bytes());
                assert!(s.span.byte_start <= s.node_span.byte_start);
                assert_eq!(s.span.byte_end, s.node_span.byte_end);
                if let Some(b) = &s.body_span {
                    assert!(
                        s.node_span.byte_start < b.byte_start && b.byte_end <= s.node_span.byte_end
                    );
                }
            }
        }
    }

    /// Every (ancestor kind, descendant kind) pair met in the error-free files under `dirs` is
    /// one `may_contain` allows. Returns the number of files read.
    fn check_may_contain(dirs: &[std::path::PathBuf]) -> usize {
        use std::collections::{BTreeMap, BTreeSet};
        let mut pairs: BTreeMap<&str, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        let mut files = 0;
        for (_, l, src) in dirs.iter().flat_map(|d| source_files(d)) {
            let tree = l.parse(&src);
            if tree.root_node().has_error() {
                continue;
            }
            files += 1;
            let by_desc = pairs.entry(l.name).or_default();
            fn go(
                n: Node,
                stack: &mut Vec<String>,
                by_desc: &mut BTreeMap<String, BTreeSet<String>>,
            ) {
                // Queries name named kinds (anonymous nodes are leaves, found by their parent).
                if n.is_named() {
                    let anc = by_desc.entry(n.kind().to_string()).or_default();
                    anc.extend(stack.iter().skip(1).cloned());
                }
                stack.push(n.kind().to_string());
                let mut c = n.walk();
                for child in n.children(&mut c) {
                    go(child, stack, by_desc);
                }
                stack.pop();
            }
            go(tree.root_node(), &mut Vec::new(), by_desc);
        }
        for (lang, by_desc) in pairs {
            let l = by_name(lang).unwrap();
            for (desc, ancestors) in by_desc {
                let may = l.may_contain(&[desc.as_str()]);
                for a in ancestors {
                    let ok = l.kind_ids(&a).into_iter().all(|id| may[id as usize]);
                    assert!(
                        ok,
                        "{lang}: a {a} holds a {desc}, but may_contain says it cannot"
                    );
                }
            }
        }
        files
    }

    #[test]
    fn may_contain_allows_every_nesting_met_in_real_files() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("src"), root.join("tests")];
        if let Some(stdlib) = python_stdlib() {
            dirs.extend(
                [
                    "json",
                    "email",
                    "argparse.py",
                    "typing.py",
                    "dataclasses.py",
                ]
                .map(|m| stdlib.join(m)),
            );
        }
        assert!(check_may_contain(&dirs) > 50);
        // And it does prune: a token tree never holds a call.
        let rust = by_name("rust").unwrap();
        let may = rust.may_contain(&["call_expression"]);
        let id = rust.ts().id_for_node_kind("token_tree", true);
        assert!(!may[id as usize]);
        let id = rust.ts().id_for_node_kind("block", true);
        assert!(may[id as usize]);
    }

    /// Over a corpus: `LLM_REGIONS_CORPUS=DIR cargo test --lib on_a_corpus -- --ignored`.
    #[test]
    #[ignore]
    fn may_contain_on_a_corpus() {
        if let Some(dir) = std::env::var_os("LLM_REGIONS_CORPUS") {
            let n = check_may_contain(&[dir.into()]);
            eprintln!("{n} files: every nesting is allowed");
        }
    }

    #[test]
    fn syntax_errors_found() {
        let rust = by_name("rust").unwrap();
        assert!(syntax_errors(&rust.parse(b"fn main() {}\n")).is_empty());
        let errs = syntax_errors(&rust.parse(b"fn main() { let x = ; }\n"));
        assert!(!errs.is_empty());
        let py = by_name("python").unwrap();
        assert!(!syntax_errors(&py.parse(b"def f(:\n  pass\n")).is_empty());
    }
}
