//! Ruby: grammar, file names and the symbol query in `queries/ruby.scm`. A `def` at top level
//! is a function, one inside a class or module a method; comments right above document it.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};

/// The Ruby language entry.
pub static RUBY: Language = Language {
    name: "ruby",
    aliases: &["rb"],
    extensions: &["rb", "rake", "gemspec"],
    file_names: &["Rakefile", "Gemfile"],
    shebangs: &["ruby"],
    grammar: || tree_sitter_ruby::LANGUAGE.into(),
    symbol_query: include_str!("queries/ruby.scm"),
    kinds: &[K::Function, K::Method, K::Class, K::Module, K::Constant],
    path_separator: "::",
    top_level_gap: 1,
    fixture: "symbols.rb",
    rules: Rules {
        methods_in: &[K::Class, K::Module],
        doc: Doc::Adjacent,
        comments: &["comment"],
        attached: &[],
        wrappers: &[],
        identifier_kinds: &["identifier", "constant"],
        keywords: super::keywords::RUBY,
        braced: super::keywords::RUBY_BRACED,
        respelled: super::keywords::RUBY_RESPELLED,
        containers: &[],
        root_kind: "program",
        walk: None,
        regions: None,
        split: Some(super::ruby_cut::parts),
        name_node: None,
        body: None,
        is_reference: None,
        ref_context: None,
        owner: Some(scope),
    },
    grammar_crate: "tree-sitter-ruby",
    node_types: tree_sitter_ruby::NODE_TYPES,
    extras: &["comment", "heredoc_body"],
    cache: Cache::new(),
};

/// `class Outer::Reopened` (or `module A::B`): the scope its name is written in (`Outer`), the
/// owner of the definition; without it `find Outer::Reopened` found nothing.
fn scope(node: tree_sitter::Node, source: &[u8]) -> Option<String> {
    if !matches!(node.kind(), "class" | "module") {
        return None;
    }
    let name = node.child_by_field_name("name")?;
    (name.kind() == "scope_resolution").then(|| {
        let scope = name.child_by_field_name("scope");
        // `class ::Top`: from the global scope, no owner.
        scope.map_or(String::new(), |s| {
            String::from_utf8_lossy(&source[s.byte_range()]).into_owned()
        })
    })
}

/// Whether the definition `node` is a singleton method: `def self.g` or `def C.g`, or a `def`
/// in a `class << self` body (`class << obj` too, as `def obj.g` is), `private def g` there
/// included; a `def` in a method is the method's.
pub(super) fn singleton(node: tree_sitter::Node) -> bool {
    match node.kind() {
        "singleton_method" => true,
        "method" => {
            let mut n = node;
            while let Some(p) = n.parent() {
                match p.kind() {
                    "singleton_class" => return true,
                    "method" | "singleton_method" | "class" | "module" => return false,
                    _ => n = p,
                }
            }
            false
        }
        _ => false,
    }
}
