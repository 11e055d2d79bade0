//! C++: grammar, extensions and the symbol query in `queries/cpp.scm`. `template<…>` belongs to
//! the span of what it declares; a function defined in a class is a method.

use super::symbols::SymbolKind as K;
use super::{Cache, Doc, Language, Rules};
use tree_sitter::Node;

/// The C++ language entry.
pub static CPP: Language = Language {
    name: "cpp",
    aliases: &["c++", "cxx"],
    extensions: &["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "ipp"],
    file_names: &[],
    shebangs: &[],
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
    symbol_query: include_str!("queries/cpp.scm"),
    kinds: &[
        K::Function,
        K::Method,
        K::Class,
        K::Struct,
        K::Union,
        K::Enum,
        K::Variant,
        K::Type,
        K::Module,
        K::Macro,
        K::Field,
    ],
    path_separator: "::",
    top_level_gap: 1,
    fixture: "symbols.cpp",
    rules: Rules {
        methods_in: &[K::Class, K::Struct, K::Union],
        doc: Doc::Adjacent,
        comments: &["comment"],
        attached: &[],
        wrappers: &["template_declaration"],
        identifier_kinds: &[
            "identifier",
            "field_identifier",
            "type_identifier",
            "namespace_identifier",
        ],
        keywords: super::keywords::CPP,
        braced: super::keywords::CPP_BRACED,
        respelled: super::keywords::CPP_RESPELLED,
        containers: &[],
        root_kind: "translation_unit",
        walk: None,
        regions: None,
        split: None,
        name_node: Some(|_, n| innermost(n)),
        body: None,
        is_reference: None,
        ref_context: None,
        owner: Some(scope),
    },
    grammar_crate: "tree-sitter-cpp",
    node_types: tree_sitter_cpp::NODE_TYPES,
    extras: &["comment"],
    cache: Cache::new(),
};

/// `double geom::Shape::area()` defined outside its class: the scope (`geom::Shape`), through
/// pointer and reference declarators (`T& Box::get()`: a reference declarator holds its
/// declarator unnamed) and without template arguments (`Box<T>::get` is a member of `Box`).
fn scope(node: Node, source: &[u8]) -> Option<String> {
    let mut d = node.child_by_field_name("declarator")?;
    // `K::operator bool() const`: the qualified name is the declarator itself.
    let q = if d.kind() == "qualified_identifier" && innermost(d).kind() == "operator_cast" {
        d
    } else {
        while d.kind() != "function_declarator" {
            d = match d.child_by_field_name("declarator") {
                Some(inner) => inner,
                None if d.kind() == "reference_declarator" => d.named_child(0)?,
                None => return None,
            };
        }
        d.child_by_field_name("declarator")?
    };
    let name = innermost(q);
    (name != q).then(|| {
        let text = String::from_utf8_lossy(&source[q.start_byte()..name.start_byte()]);
        without_template_arguments(text.trim_end().trim_end_matches("::").trim())
    })
}

/// `a::Box<T, std::pair<A, B>>::c` → `a::Box::c`.
fn without_template_arguments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split("::")
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("::")
}

/// The last name of `a::b::f` (the node itself when not qualified).
fn innermost(mut n: Node) -> Node {
    while n.kind() == "qualified_identifier" {
        match n.child_by_field_name("name") {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}
