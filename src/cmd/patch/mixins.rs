//! `llm patch --rename` of a Ruby module's instance method: the classes and modules that mix
//! the module in (`include`, `prepend`, `extend`) or define a method of its name themselves,
//! read from every file the rename reads before any is classed, so that a bare call or a
//! `self.` call in the module's own instance methods, or in such a class, is classed as a call
//! of the module's method.

use super::classes::{CERTAIN, EXCLUDED, POSSIBLE};
use super::members::{scope_name, text};
use crate::lang::{self, symbols::Symbol, symbols::SymbolKind};
use std::collections::HashMap;
use std::path::PathBuf;
use tree_sitter::Node;

/// How a class or module mixes a module in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mix {
    /// `include M`: after the class's own methods, for its instances.
    Include,
    /// `prepend M`: before the class's own methods, for its instances.
    Prepend,
    /// `extend M`: for the class itself (its singleton side).
    Extend,
}

/// What the files say of one class or module name (all its bodies: reopened ones too).
#[derive(Default)]
struct Scope {
    /// Whether a body is a module's (`module M`), not a class's.
    module: bool,
    /// Whether it defines an instance method of the name (`def g`).
    instance: bool,
    /// Whether it defines a singleton method of the name (`def self.g`, a `def` in `class <<
    /// self`).
    singleton: bool,
    /// The modules it mixes in, by their last name (`A::B` is `B`), in order.
    mixins: Vec<(Mix, String)>,
}

/// The classes and modules of the files a rename of module `module`'s instance method reads,
/// by name (the last one: `class A::App` is `App`).
pub(super) struct Mixins {
    module: String,
    scopes: HashMap<String, Scope>,
}

impl Mixins {
    /// Where `s` is a Ruby module's instance method (`parent` its module), reads the classes
    /// and modules of `files`, each parsed whole.
    pub(super) fn read(
        language: &lang::Language,
        s: &Symbol,
        parent: Option<&Symbol>,
        files: &[(PathBuf, Vec<u8>)],
    ) -> Option<Mixins> {
        let module = parent.filter(|p| p.kind == SymbolKind::Module)?;
        if language.name != "ruby" || s.singleton || s.kind != SymbolKind::Method {
            return None;
        }
        let mut out = Mixins {
            module: module.name.clone(),
            scopes: HashMap::new(),
        };
        for (_, bytes) in files {
            let tree = language.parse(bytes);
            out.read_node(tree.root_node(), bytes, &s.name);
        }
        Some(out)
    }

    /// Records the classes and modules at and under `node`.
    fn read_node(&mut self, node: Node, bytes: &[u8], name: &str) {
        if matches!(node.kind(), "class" | "module") {
            if let Some(scope) = scope_name(node, bytes) {
                let entry = self.scopes.entry(scope.to_string()).or_default();
                entry.module |= node.kind() == "module";
                if let Some(body) = node.child_by_field_name("body") {
                    read_body(entry, body, bytes, name, false);
                }
            }
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.read_node(child, bytes, name);
        }
    }

    /// The class of a bare call of the name, or one on `self`, in class or module `scope`,
    /// where `self` is the class (`side` `Some(true)`, or `None`: its body) or an instance of
    /// it (`Some(false)`). In the module's own instance methods `self` is an instance of a
    /// class that mixes it in: the module's method (`certain`), unless a class includes it and
    /// defines the method itself (its own comes first: `possible`). In a class or module that
    /// mixes the module in on `self`'s side (`include`, `prepend` for an instance; `extend`
    /// for the class): the module's method (`certain`), unless that class defines its own on
    /// that side (`excluded`; not where it prepends the module: `possible`) or mixes in
    /// another module of the files that does (`possible`). `None`: neither.
    pub(super) fn class(
        &self,
        scope: Node,
        bytes: &[u8],
        side: Option<bool>,
    ) -> Option<&'static str> {
        let name = scope_name(scope, bytes)?;
        if scope.kind() == "module" && name == self.module {
            return (side == Some(false)).then(|| self.own());
        }
        let s = self.scopes.get(name)?;
        let on_class = side != Some(false);
        let reaches = |m: Mix| (m == Mix::Extend) == on_class;
        let (mix, _) = (s.mixins.iter()).find(|(m, n)| reaches(*m) && *n == self.module)?;
        let own = if on_class { s.singleton } else { s.instance };
        if own && *mix != Mix::Prepend {
            return Some(EXCLUDED);
        }
        let others = s.mixins.iter().any(|(m, n)| {
            reaches(*m)
                && *n != self.module
                && self.scopes.get(n).is_some_and(|o| o.module && o.instance)
        });
        Some(if own || others { POSSIBLE } else { CERTAIN })
    }

    /// The class of a call on `self` in the module's own instance methods (see [`Self::class`]).
    fn own(&self) -> &'static str {
        let shadowed = self.scopes.values().any(|s| {
            s.instance && (s.mixins.iter()).any(|(m, n)| *m == Mix::Include && *n == self.module)
        });
        if shadowed {
            POSSIBLE
        } else {
            CERTAIN
        }
    }
}

/// Records what class or module body `body` defines of `name` and mixes in; `singleton`: it
/// is a `class << self` body (its `def g` is a singleton method, its `include M` an `extend
/// M`).
fn read_body(entry: &mut Scope, body: Node, bytes: &[u8], name: &str, singleton: bool) {
    let named = |n: Node| {
        n.child_by_field_name("name")
            .is_some_and(|k| text(bytes, k) == name)
    };
    let mut c = body.walk();
    for n in body.named_children(&mut c) {
        match n.kind() {
            "method" if named(n) => match singleton {
                true => entry.singleton = true,
                false => entry.instance = true,
            },
            "singleton_method" if named(n) => entry.singleton = true,
            "singleton_class" => {
                let on_self =
                    n.child_by_field_name("value").map(|v| text(bytes, v)) == Some("self");
                if let (true, Some(b)) = (on_self, n.child_by_field_name("body")) {
                    read_body(entry, b, bytes, name, true);
                }
            }
            "call" if n.child_by_field_name("receiver").is_none() => {
                let Some(args) = n.child_by_field_name("arguments") else {
                    continue;
                };
                let mut c = args.walk();
                let args: Vec<Node> = args.named_children(&mut c).collect();
                let mix = match n.child_by_field_name("method").map(|m| text(bytes, m)) {
                    Some("extend") => Mix::Extend,
                    Some("include" | "prepend") if singleton => Mix::Extend,
                    Some("include") => Mix::Include,
                    Some("prepend") => Mix::Prepend,
                    // `private def g`: a definition.
                    _ => {
                        if args.iter().any(|a| a.kind() == "method" && named(*a)) {
                            match singleton {
                                true => entry.singleton = true,
                                false => entry.instance = true,
                            }
                        }
                        continue;
                    }
                };
                for a in args {
                    if matches!(a.kind(), "constant" | "scope_resolution") {
                        let m = text(bytes, a);
                        let m = m.rsplit("::").next().unwrap_or(m);
                        entry.mixins.push((mix, m.to_string()));
                    }
                }
            }
            _ => {}
        }
    }
}
