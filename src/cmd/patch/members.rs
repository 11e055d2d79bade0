//! `llm patch --rename` of a method where the syntax names the type a call goes to: a bare
//! Ruby call inside a class body's method, a Go call on a method's receiver, whose type the
//! method's header writes.

use super::classes::{CERTAIN, EXCLUDED};
use crate::lang::symbols::{Symbol, SymbolKind};
use tree_sitter::Node;

/// The text of `node`.
pub(super) fn text<'b>(bytes: &'b [u8], node: Node) -> &'b str {
    std::str::from_utf8(&bytes[node.byte_range()]).unwrap_or_default()
}

/// Whether `text` holds `word` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// Ruby: where `self` stands at `node`: the class or module whose body holds it, and whether
/// it is the class itself (`Some(true)`: in a singleton method, `def self.g` or a `def` in
/// `class << self`, or in a `class << self` body) or an instance of it (`Some(false)`: in an
/// instance method); `None` right in the class body. `None` at all at the top level and in
/// `class << obj` for another object than `self`.
fn ruby_self<'t>(node: Node<'t>, bytes: &[u8]) -> Option<(Node<'t>, Option<bool>)> {
    let mut side = None;
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "method" if side.is_none() => side = Some(false),
            "singleton_method" if side.is_none() => side = Some(true),
            "singleton_class" => {
                if p.child_by_field_name("value").map(|v| text(bytes, v)) != Some("self") {
                    return None;
                }
                side = Some(true);
            }
            "class" | "module" => return Some((p, side)),
            _ => {}
        }
        n = p;
    }
    None
}

/// Ruby: whether `self` at `node` is its class (`Some(true)`) or an instance of it
/// (`Some(false)`), as [`ruby_self`] reads it.
pub(super) fn ruby_self_side(node: Node, bytes: &[u8]) -> Option<bool> {
    ruby_self(node, bytes).and_then(|(_, side)| side)
}

/// Ruby: a bare name (or `self.name`) in a method is a call on `self`. In the owner's class
/// (`class A`, reopened too) it is the owner's method (`certain`); in another class that does
/// not name the owner as its superclass, that class's (`excluded`). Where `self` is the class
/// (a singleton method's body, `class << self`'s) it calls singleton methods, in an instance
/// method instance methods: the other side's method of the name is never the one
/// (`excluded`), but in a module that `extend self` or `module_function` lends both. `ancestry`
/// classes the calls in a module's own instance methods, in the classes that mix the module
/// in and in the subclasses of the method's class or of those. `None`: the syntax does not
/// say (a subclass whose superclasses leave the files, the top level).
pub(super) fn ruby_bare(
    node: Node,
    bytes: &[u8],
    owner: &str,
    singleton: bool,
    ancestry: Option<&super::ancestry::Ancestry>,
) -> Option<&'static str> {
    let (scope, side) = ruby_self(node, bytes)?;
    if let Some(c) = ancestry.and_then(|a| a.class(scope, bytes, side)) {
        return Some(c);
    }
    let other_side = side.is_some_and(|s| s != singleton);
    match scope.kind() {
        "module" if other_side => (!lends_both(scope, bytes)).then_some(EXCLUDED),
        "module" => (scope_name(scope, bytes)? == owner && side == Some(true) && singleton)
            .then_some(CERTAIN),
        _ if other_side => Some(EXCLUDED),
        _ => ruby_class(scope, bytes, owner),
    }
}

/// Ruby: whether module `scope`'s body makes its instance methods singleton methods too
/// (`extend self`, `module_function`).
fn lends_both(scope: Node, bytes: &[u8]) -> bool {
    let mut c = scope.walk();
    let body = scope
        .named_children(&mut c)
        .find(|b| b.kind() == "body_statement");
    body.is_some_and(|body| {
        let mut c = body.walk();
        let lends = body.named_children(&mut c).any(|n| {
            let t = text(bytes, n);
            t.starts_with("module_function") || (t.starts_with("extend") && has_word(t, "self"))
        });
        lends
    })
}

/// Ruby: the name of class or module `scope`, without the scope it is written in.
pub(super) fn scope_name<'b>(scope: Node, bytes: &'b [u8]) -> Option<&'b str> {
    let name = text(bytes, scope.child_by_field_name("name")?);
    Some(name.rsplit("::").next().unwrap_or(name))
}

/// Ruby: whether a method of class `scope` called on `self` is the owner's: `certain` in the
/// owner's class, `None` in a class that names the owner as its superclass, `excluded` in
/// another.
fn ruby_class(scope: Node, bytes: &[u8], owner: &str) -> Option<&'static str> {
    if scope_name(scope, bytes)? == owner {
        return Some(CERTAIN);
    }
    match scope.child_by_field_name("superclass") {
        Some(s) if has_word(text(bytes, s), owner) => None,
        _ => Some(EXCLUDED),
    }
}

/// Ruby: whether the name at `node` is called on `self.class` (`self.class.g`).
pub(super) fn ruby_on_self_class(node: Node, bytes: &[u8]) -> bool {
    let receiver = node
        .parent()
        .filter(|p| p.kind() == "call")
        .and_then(|p| p.child_by_field_name("receiver"));
    receiver.is_some_and(|r| {
        r.kind() == "call"
            && r.child_by_field_name("receiver")
                .is_some_and(|s| s.kind() == "self")
            && r.child_by_field_name("method")
                .is_some_and(|m| text(bytes, m) == "class")
    })
}

/// Ruby: `self.class.name` is a call on the class of an instance: in the owner's instance
/// method, the owner's singleton method (`certain`), and in a subclass's where it inherits
/// it (`ancestry`); never its instance method (`excluded`). Where `self` is a class already
/// (a singleton method, a class body), `self.class` is `Class`: neither (`excluded`).
/// `None`: the syntax does not say.
pub(super) fn ruby_self_class(
    node: Node,
    bytes: &[u8],
    owner: &str,
    singleton: bool,
    ancestry: Option<&super::ancestry::Ancestry>,
) -> Option<&'static str> {
    let (scope, side) = ruby_self(node, bytes)?;
    if scope.kind() != "class" {
        return None;
    }
    let inherited = || ancestry.and_then(|a| a.named(scope_name(scope, bytes)?));
    match (singleton, side) {
        (true, Some(false)) => inherited().or_else(|| ruby_class(scope, bytes, owner)),
        (true, _) => Some(EXCLUDED),
        (false, _) => (scope_name(scope, bytes)? == owner).then_some(EXCLUDED),
    }
}

/// Ruby: whether the bare name at `node`, inside an instance method, is a method the
/// enclosing class or module defines itself (`class K; def g; end; def run; g; end; end`):
/// a call on `self` goes there, not to a free function of that name.
pub(super) fn ruby_own_method(node: Node, bytes: &[u8]) -> bool {
    let name = text(bytes, node);
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "singleton_method" | "singleton_class" => return false,
            "class" | "module" => {
                let mut c = p.walk();
                let body = p
                    .named_children(&mut c)
                    .find(|b| b.kind() == "body_statement");
                let Some(body) = body else {
                    return false;
                };
                let mut c = body.walk();
                return body.named_children(&mut c).any(|m| {
                    m.kind() == "method"
                        && m.child_by_field_name("name")
                            .is_some_and(|k| text(bytes, k) == name)
                });
            }
            _ => n = p,
        }
    }
    false
}

/// Go: `q.Name` inside a method whose receiver is `q`: the receiver's type (`func (b B)`,
/// `func (b *B[T])`) is the owner (`certain`), or another type (`excluded`) unless that
/// type's declaration in this file embeds the owner, or is not in this file. `None`: `q` is
/// not the receiver.
pub(super) fn go_receiver(node: Node, bytes: &[u8], q: &str, owner: &str) -> Option<&'static str> {
    let mut n = node;
    let method = loop {
        let p = n.parent()?;
        match p.kind() {
            "method_declaration" => break p,
            "func_literal" | "function_declaration" => return None,
            _ => n = p,
        }
    };
    let receiver = method.child_by_field_name("receiver")?;
    let mut c = receiver.walk();
    let param = (receiver.named_children(&mut c)).find(|p| {
        p.child_by_field_name("name")
            .is_some_and(|name| text(bytes, name) == q)
    })?;
    let ty = text(bytes, param.child_by_field_name("type")?);
    let ty = ty.trim_start_matches('*');
    let ty = ty.split('[').next().unwrap_or(ty).trim();
    if ty == owner {
        return Some(CERTAIN);
    }
    // The receiver type's declaration: an embedded owner lends it the method.
    let root = {
        let mut r = method;
        while let Some(p) = r.parent() {
            r = p;
        }
        r
    };
    let mut c = root.walk();
    let declared = (root.named_children(&mut c))
        .filter(|d| d.kind() == "type_declaration")
        .flat_map(|d| {
            let mut c = d.walk();
            d.named_children(&mut c).collect::<Vec<_>>()
        })
        .find(|s| {
            s.child_by_field_name("name")
                .is_some_and(|name| text(bytes, name) == ty)
        });
    match declared {
        Some(d) if !has_word(text(bytes, d.child_by_field_name("type")?), owner) => Some(EXCLUDED),
        _ => None,
    }
}

/// Java, C#, C++ and Rust resolve a bare name to the innermost class, struct, namespace or
/// (Rust) module around it that declares a member of that name. Whether that member, for the
/// occurrence at `at`, is another than the one renamed (`is_target` tells them apart): a
/// nested class's own `g`, a `mod inner { fn g() {} … g() }`, a namespace's own `g` were
/// renamed with the outer one, and the program then called another function or none.
pub(super) fn nearer_member(
    language: &str,
    syms: &[Symbol],
    at: usize,
    name: &str,
    called: bool,
    is_target: impl Fn(&Symbol) -> bool,
) -> bool {
    let scope_kind = |k: SymbolKind| match language {
        "rust" => k == SymbolKind::Module,
        "java" | "csharp" | "cpp" => matches!(
            k,
            SymbolKind::Class
                | SymbolKind::Struct
                | SymbolKind::Interface
                | SymbolKind::Enum
                | SymbolKind::Module
        ),
        _ => false,
    };
    let mut scopes: Vec<&Symbol> = syms
        .iter()
        .filter(|s| scope_kind(s.kind) && holds(s, at))
        .collect();
    // Innermost first.
    scopes.sort_by_key(|s| std::cmp::Reverse(s.depth));
    // Java keeps fields and methods apart: a bare name read is a field, a called one a method
    // (a field's bare uses in a class with a method of its name were excluded, and the
    // renamed field's class no longer compiled).
    let sort = |m: &Symbol| match (language, called) {
        ("java", false) => m.kind == SymbolKind::Field,
        _ => callable(m.kind),
    };
    for scope in scopes {
        let member = members_named(syms, scope, name).find(|m| sort(m));
        if let Some(m) = member {
            return !is_target(m);
        }
    }
    false
}

/// Whether `q::name` (`q.name`) goes through a class, struct, namespace or module of this file
/// named `q` that declares its own member `name`, another than the one renamed (`ns::g` when
/// renaming the global `g`: it was renamed to `ns::inc`, which does not exist).
pub(super) fn qualified_other(
    syms: &[Symbol],
    q: &str,
    name: &str,
    is_target: impl Fn(&Symbol) -> bool,
) -> bool {
    let q = q.rsplit([':', '.']).next().unwrap_or(q);
    syms.iter()
        .filter(|s| {
            s.name == q
                && matches!(
                    s.kind,
                    SymbolKind::Class
                        | SymbolKind::Struct
                        | SymbolKind::Interface
                        | SymbolKind::Enum
                        | SymbolKind::Module
                )
        })
        .any(|scope| {
            // Ruby: `C.g` calls the singleton method (`def self.g`, `def C.g`, a `def` in
            // `class << self`) where the class has one, not its instance method `g`.
            let singleton = members_named(syms, scope, name).any(|m| m.singleton);
            members_named(syms, scope, name)
                .filter(|m| !singleton || m.singleton)
                .any(|m| !is_target(m))
        })
}

/// Whether `self.name` (`this.name`, `$this->name`) at `at` goes to a member `name` that the
/// innermost class, struct, interface, enum or impl around it declares itself, another than
/// the one renamed (`is_target` tells them apart, the renamed one's overrides included):
/// another file's `class A { m() {} g() { this.m() } }` had its call renamed and not its `m`.
/// Only a member of `kind`'s sort counts (a method for a method, a field for a field): Rust's
/// `self.name` is the field even where the impl has a method `name`. Ruby's `self` is the
/// class or an instance of it (`singleton`, see [`ruby_self_side`]): only the members of
/// that side count.
pub(super) fn self_member_other(
    syms: &[Symbol],
    at: usize,
    name: &str,
    kind: SymbolKind,
    singleton: Option<bool>,
    is_target: impl Fn(&Symbol) -> bool,
) -> bool {
    let class = syms
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                SymbolKind::Class
                    | SymbolKind::Struct
                    | SymbolKind::Interface
                    | SymbolKind::Enum
                    | SymbolKind::Impl
            ) && holds(s, at)
        })
        .max_by_key(|s| s.depth);
    class.is_some_and(|class| {
        members_named(syms, class, name).any(|m| {
            callable(m.kind) == callable(kind)
                && singleton.is_none_or(|s| m.singleton == s)
                && !is_target(m)
        })
    })
}

/// Whether `s`'s span holds the byte `at`.
fn holds(s: &Symbol, at: usize) -> bool {
    s.span.byte_start <= at && at < s.span.byte_end
}

/// Whether a symbol of kind `k` is called (a function, method or constructor).
fn callable(k: SymbolKind) -> bool {
    matches!(
        k,
        SymbolKind::Function | SymbolKind::Method | SymbolKind::Constructor
    )
}

/// The members named `name` that `scope` declares directly.
fn members_named<'s>(
    syms: &'s [Symbol],
    scope: &'s Symbol,
    name: &'s str,
) -> impl Iterator<Item = &'s Symbol> {
    syms.iter().filter(move |m| {
        m.name == name && m.depth == scope.depth + 1 && holds(scope, m.span.byte_start)
    })
}

/// TypeScript: the name offsets of the overload set of the function or method whose name
/// starts at `def_start` (the renamed one, among `syms`): the signatures without a body right
/// before it, or after it up to the implementation (`function f(a: number): number;` …
/// `function f(a: any) { … }`). Functions of the name elsewhere (another callback's own
/// `function Page()`) are not in it.
pub(super) fn overloads(syms: &[Symbol], def_start: usize) -> Vec<usize> {
    let Some(t) = syms
        .iter()
        .position(|s| s.name_span.byte_start == def_start)
    else {
        return Vec::new();
    };
    let target = &syms[t];
    if !matches!(target.kind, SymbolKind::Function | SymbolKind::Method) {
        return Vec::new();
    }
    // Its siblings, in file order.
    let siblings: Vec<&Symbol> = (syms.iter())
        .filter(|s| s.parent_index == target.parent_index)
        .collect();
    let Some(k) = siblings
        .iter()
        .position(|s| s.name_span.byte_start == def_start)
    else {
        return Vec::new();
    };
    let same = |s: &Symbol| s.name == target.name && s.kind == target.kind;
    let mut out = Vec::new();
    for s in siblings[..k].iter().rev() {
        if !same(s) || s.body_span.is_some() {
            break;
        }
        out.push(s.name_span.byte_start);
    }
    if target.body_span.is_none() {
        for s in &siblings[k + 1..] {
            if !same(s) {
                break;
            }
            out.push(s.name_span.byte_start);
            if s.body_span.is_some() {
                break;
            }
        }
    }
    out
}

/// Ruby: whether the word at `range` is a symbol that names a method to a call that takes
/// one (`method(:g)`, `o.send(:g, 1)`, `respond_to?(:g)`, `alias_method :x, :g`, `private
/// :g`, `alias :y :g`): renamed with the method, `possible` (the receiver's class is not
/// known), as a call of it would be. `define_method(:g)` and `attr_reader :g` define another
/// `g`, and are not.
pub(super) fn ruby_method_symbol(
    tree: &tree_sitter::Tree,
    bytes: &[u8],
    range: std::ops::Range<usize>,
) -> bool {
    // The first argument names the method.
    const FIRST: [&str; 14] = [
        "method",
        "public_method",
        "instance_method",
        "public_instance_method",
        "send",
        "public_send",
        "__send__",
        "respond_to?",
        "method_defined?",
        "public_method_defined?",
        "private_method_defined?",
        "protected_method_defined?",
        "remove_method",
        "undef_method",
    ];
    // Every argument does.
    const ALL: [&str; 7] = [
        "alias_method",
        "private",
        "public",
        "protected",
        "module_function",
        "private_class_method",
        "public_class_method",
    ];
    let Some(node) = (range.start > 0)
        .then(|| {
            tree.root_node()
                .descendant_for_byte_range(range.start - 1, range.end)
        })
        .flatten()
        .filter(|n| n.kind() == "simple_symbol" && n.byte_range() == (range.start - 1..range.end))
    else {
        return false;
    };
    let Some(parent) = node.parent() else {
        return false;
    };
    if parent.kind() == "alias" {
        return true;
    }
    let Some(call) = parent.parent().filter(|_| parent.kind() == "argument_list") else {
        return false;
    };
    let Some(method) = call
        .child_by_field_name("method")
        .filter(|_| call.kind() == "call")
    else {
        return false;
    };
    let name = text(bytes, method);
    let first = parent.named_child(0).is_some_and(|c| c.id() == node.id());
    ALL.contains(&name) || (first && FIRST.contains(&name))
}

/// Python: the class of a bare name for a member of `owner`: `certain` in the body of the
/// owner's class itself (`value = property(get, set)`, a decorator's `@x.setter`), `excluded`
/// in a function or lambda (methods do not see their class's names) or another class's body.
pub(super) fn python_bare(node: Node, bytes: &[u8], owner: &str) -> &'static str {
    let mut n = node;
    while let Some(p) = n.parent() {
        match p.kind() {
            "function_definition" | "lambda" => {
                // Its decorators and default values are evaluated in the enclosing scope.
                let inside = p
                    .child_by_field_name("body")
                    .is_some_and(|b| b.byte_range().contains(&node.start_byte()));
                if inside {
                    return EXCLUDED;
                }
            }
            "class_definition" => {
                let name = p.child_by_field_name("name").map(|c| text(bytes, c));
                return match name == Some(owner) {
                    true => CERTAIN,
                    false => EXCLUDED,
                };
            }
            _ => {}
        }
        n = p;
    }
    EXCLUDED
}
