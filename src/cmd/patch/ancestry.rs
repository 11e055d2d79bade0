//! `llm patch --rename` of a Ruby method: the classes and modules of every file the rename
//! reads — their superclasses, the modules they mix in (`include`, `prepend`, `extend`) and
//! whether they define a method of the name themselves — read before any file is classed, so
//! that a bare call or a `self.` call is classed as a call of the renamed method where `self`
//! inherits it: in a module's own instance methods, in a class that mixes the module in, in a
//! subclass of the method's class (`class Sub < Base`, `class Sub2 < Sub`) or of such a class,
//! and the overrides in those subclasses that go with a class's method.

use super::classes::{CERTAIN, EXCLUDED, POSSIBLE};
use super::members::{scope_name, text};
use crate::error::{Code, Error};
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
    /// Whether its instance method, its singleton method of the name calls `super`.
    supers: (bool, bool),
    /// The modules it mixes in, by their last name (`A::B` is `B`), in order.
    mixins: Vec<(Mix, String)>,
    /// Its superclass, by its last name (`class Sub < A::Base` is `Base`).
    superclass: Option<String>,
}

/// The classes and modules of the files a rename of a Ruby method reads, by name (the last
/// one: `class A::App` is `App`; reopened bodies merged).
pub(super) struct Ancestry {
    /// The method's class or module.
    owner: String,
    /// Whether that is a module (its instance methods reach a class through a mixin).
    module: bool,
    /// Whether the method is a singleton method (`def self.g`).
    singleton: bool,
    scopes: HashMap<String, Scope>,
}

impl Ancestry {
    /// Where `s` is a Ruby method of a class or module (`parent`), reads the classes and
    /// modules of `files`, each parsed whole. A module's singleton methods are no one's to
    /// inherit: `None` for them. `links`: the superclasses of the classes of the files
    /// without the name (see [`superclasses`]), which a chain may pass through. Refused
    /// (`PATCH_E010`) where a class that mixes a module's method in defines its own that
    /// calls `super` (see [`Self::refuse_super`]), and where a class's method may override
    /// one the rename does not reach (see [`Self::refuse_unseen_base`]).
    pub(super) fn read(
        language: &lang::Language,
        s: &Symbol,
        parent: Option<&Symbol>,
        files: &[(PathBuf, Vec<u8>)],
        links: Vec<(String, String)>,
    ) -> Result<Option<Ancestry>, Error> {
        let Some(owner) =
            parent.filter(|p| matches!(p.kind, SymbolKind::Module | SymbolKind::Class))
        else {
            return Ok(None);
        };
        let module = owner.kind == SymbolKind::Module;
        if language.name != "ruby" || s.kind != SymbolKind::Method || (module && s.singleton) {
            return Ok(None);
        }
        let mut out = Ancestry {
            owner: owner.name.clone(),
            module,
            singleton: s.singleton,
            scopes: HashMap::new(),
        };
        for (_, bytes) in files {
            let tree = language.parse(bytes);
            out.read_node(tree.root_node(), bytes, &s.name);
        }
        for (class, superclass) in links {
            let scope = out.scopes.entry(class).or_default();
            // A root class (`class A`, read as `""`) gives way to another body's superclass.
            if !superclass.is_empty() && scope.superclass.as_deref().is_none_or(str::is_empty) {
                scope.superclass = Some(superclass);
            }
        }
        out.refuse_super(&s.qualified_name)?;
        out.refuse_unseen_base(&s.qualified_name, &s.name)?;
        Ok(Some(out))
    }

    /// Refuses the rename of a class's method where the class overrides one of its name: a
    /// superclass up the chain defines the method on its side (rename that one: the
    /// overrides follow), or the chain leaves the files read at a class that may (a gem's),
    /// other than `Object` and Ruby's exception classes (unless the name is one of
    /// `Exception`'s). Renamed alone, the override would no longer override it.
    fn refuse_unseen_base(&self, qualified: &str, name: &str) -> Result<(), Error> {
        if self.module {
            return Ok(());
        }
        let mut class = self.owner.as_str();
        for _ in 0..=self.scopes.len() {
            let Some(s) = self.scopes.get(class) else {
                // A class no file read defines. A library's (a gem's, `ActiveRecord::Base`)
                // methods cannot be known, and refusing every method of a Rails model was
                // too much: renamed alone, as before. A core class's known methods refuse.
                if !(CORE.contains(&class) && EXCEPTION.contains(&name)) {
                    return Ok(());
                }
                return Err(Error::new(
                    Code::PatchNotAName,
                    format!("`{qualified}`'s class inherits from `{class}`, which no file the rename reads defines: a library's class may define `{name}`, which the method would override, and renamed alone it would no longer override it"),
                    format!("leave the name, or rename it by hand where `{class}`'s `{name}` is known not to exist. Nothing was renamed"),
                ));
            };
            let own = if self.singleton {
                s.singleton
            } else {
                s.instance
            };
            if own && class != self.owner {
                return Err(Error::new(
                    Code::PatchNotAName,
                    format!("`{qualified}` overrides `{class}`'s `{name}`, defined in another file: renamed alone, it would no longer override it"),
                    format!("rename `{class}::{name}` where `{class}` is defined: its overrides follow. Nothing was renamed"),
                ));
            }
            match s.superclass.as_deref() {
                Some(p) if !p.is_empty() => class = p,
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    /// The definitions of the name in `syms` (one file's) that override the renamed method
    /// and go with it: a class's own method on the method's side, in a subclass of its class
    /// (up the chain, through overrides that go too). Not for a module's methods.
    pub(super) fn overrides(&self, syms: &[Symbol], name: &str) -> Vec<usize> {
        let overrides = |class: &str| {
            let Some(s) = self.scopes.get(class).filter(|_| !self.module) else {
                return false;
            };
            let up = s.superclass.as_deref().filter(|p| !p.is_empty());
            class != self.owner && up.is_some_and(|p| self.walk(p, self.singleton).is_some())
        };
        (syms.iter())
            .filter(|m| m.name == name && m.kind == SymbolKind::Method)
            .filter(|m| m.singleton == self.singleton)
            .filter(|m| {
                let p = m.parent.as_deref().unwrap_or("");
                overrides(p.rsplit("::").next().unwrap_or(p))
            })
            .map(|m| m.name_span.byte_start)
            .collect()
    }

    /// Refuses the rename of a module's method where a class's own method of the name calls
    /// `super` and `super` reaches it (the module the class includes or extends, or one a
    /// superclass mixes in): such an override is not renamed with the module's method, and its
    /// `super` would raise NoMethodError. A class's overrides go with it ([`Self::overrides`]).
    fn refuse_super(&self, qualified: &str) -> Result<(), Error> {
        // A class's overrides are renamed with it (see [`Self::overrides`]).
        if !self.module {
            return Ok(());
        }
        let sides: &[bool] = match (self.module, self.singleton) {
            (true, _) => &[false, true],
            (false, s) => {
                if s {
                    &[true]
                } else {
                    &[false]
                }
            }
        };
        for (name, s) in &self.scopes {
            for &on_class in sides {
                let calls = if on_class { s.supers.1 } else { s.supers.0 };
                if !calls || *name == self.owner {
                    continue;
                }
                let reaches = |m: Mix| (m == Mix::Extend) == on_class;
                let mixed = self.module
                    && (s.mixins.iter())
                        .any(|(m, n)| reaches(*m) && *m != Mix::Prepend && *n == self.owner);
                let above = (s.superclass.as_deref()).and_then(|p| self.walk(p, on_class));
                if mixed || above.is_some_and(|c| c != EXCLUDED) {
                    return Err(Error::new(
                        Code::PatchNotAName,
                        format!("`{name}` overrides `{qualified}` with a method that calls `super`: a Ruby override is not renamed with the method it overrides, and its `super` would no longer find it"),
                        "rename the override and the method together by hand, or leave the name. Nothing was renamed",
                    ));
                }
            }
        }
        Ok(())
    }

    /// Records the classes and modules at and under `node`.
    fn read_node(&mut self, node: Node, bytes: &[u8], name: &str) {
        if matches!(node.kind(), "class" | "module") {
            if let Some(scope) = scope_name(node, bytes) {
                let entry = self.scopes.entry(scope.to_string()).or_default();
                entry.module |= node.kind() == "module";
                if let Some(s) = node.child_by_field_name("superclass") {
                    let s = text(bytes, s).trim_start_matches('<').trim();
                    let s = s.rsplit("::").next().unwrap_or(s);
                    entry.superclass = Some(s.to_string());
                }
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
    /// it (`Some(false)`). `None`: neither rule below says (the owner's own class, another
    /// side, a chain of superclasses that leaves the files).
    /// - A module's instance method: in the module's own instance methods `self` is an
    ///   instance of a class that mixes it in: the module's method (`certain`), unless a class
    ///   includes it and defines the method itself (its own comes first: `possible`).
    /// - In a class, and up its superclasses: the first that mixes the module in on `self`'s
    ///   side (`include`, `prepend` for an instance; `extend` for the class) or that is the
    ///   method's class ends the walk: the method (`certain`), unless a class on the way (that
    ///   one too, where it mixes the module in other than by `prepend`) defines its own on that
    ///   side (`excluded`; the one that prepends the module: `possible`) or mixes in another
    ///   module of the files that does (`possible`).
    pub(super) fn class(
        &self,
        scope: Node,
        bytes: &[u8],
        side: Option<bool>,
    ) -> Option<&'static str> {
        let name = scope_name(scope, bytes)?;
        if self.module && scope.kind() == "module" && name == self.owner {
            return (side == Some(false)).then(|| self.own());
        }
        let on_class = side != Some(false);
        // A class's method reaches a class by inheritance, on its own side.
        if !self.module
            && (scope.kind() != "class" || name == self.owner || on_class != self.singleton)
        {
            return None;
        }
        self.walk(name, on_class)
    }

    /// The class of `q.g` for a singleton method `g` of a class: `q` a subclass of the
    /// method's class, as [`Self::class`] reads its singleton side. `None`: another.
    pub(super) fn named(&self, q: &str) -> Option<&'static str> {
        (!self.module && self.singleton && q != self.owner)
            .then(|| self.walk(q, true))
            .flatten()
    }

    /// Walks class `name` and its superclasses to the one that has the method on side
    /// `on_class` (see [`Self::class`]).
    fn walk(&self, name: &str, on_class: bool) -> Option<&'static str> {
        let reaches = |m: Mix| (m == Mix::Extend) == on_class;
        let mut unsure = false;
        let mut name = name;
        // At most one step per class: superclasses that name each other end the walk.
        for _ in 0..=self.scopes.len() {
            if !self.module && name == self.owner {
                return Some(if unsure { POSSIBLE } else { CERTAIN });
            }
            let s = self.scopes.get(name)?;
            let own = if on_class { s.singleton } else { s.instance };
            let mix =
                (s.mixins.iter()).find(|(m, n)| self.module && reaches(*m) && *n == self.owner);
            // A class's override goes with it: its calls are the renamed method's.
            let own = own && self.module;
            if own && mix.is_none_or(|(m, _)| *m != Mix::Prepend) {
                return Some(EXCLUDED);
            }
            unsure |= own
                || s.mixins.iter().any(|(m, n)| {
                    reaches(*m)
                        && *n != self.owner
                        && self.scopes.get(n).is_some_and(|o| o.module && o.instance)
                });
            if mix.is_some() {
                return Some(if unsure { POSSIBLE } else { CERTAIN });
            }
            name = s.superclass.as_deref()?;
        }
        None
    }

    /// The class of a call on `self` in the module's own instance methods (see [`Self::class`]).
    fn own(&self) -> &'static str {
        let shadowed = self.scopes.values().any(|s| {
            s.instance && (s.mixins.iter()).any(|(m, n)| *m == Mix::Include && *n == self.owner)
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
    // Records a definition of the name, on the class's side or its instances'.
    let define = |entry: &mut Scope, def: Node, on_class: bool| {
        let supers = calls_super(def);
        match on_class {
            true => (entry.singleton, entry.supers.1) = (true, entry.supers.1 || supers),
            false => (entry.instance, entry.supers.0) = (true, entry.supers.0 || supers),
        }
    };
    let mut c = body.walk();
    for n in body.named_children(&mut c) {
        match n.kind() {
            "method" if named(n) => define(entry, n, singleton),
            "singleton_method" if named(n) => define(entry, n, true),
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
                        for a in args.iter().filter(|a| a.kind() == "method" && named(**a)) {
                            define(entry, *a, singleton);
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

/// Ruby's classes a class's chain may end at without a library's method of the name.
const CORE: &[&str] = &[
    "Object",
    "BasicObject",
    "Exception",
    "StandardError",
    "RuntimeError",
    "ArgumentError",
    "TypeError",
    "NameError",
    "NoMethodError",
    "KeyError",
    "IndexError",
    "RangeError",
    "IOError",
    "NotImplementedError",
];

/// `Exception`'s methods, which an exception class's method of the name overrides.
const EXCEPTION: &[&str] = &[
    "message",
    "to_s",
    "full_message",
    "detailed_message",
    "backtrace",
    "backtrace_locations",
    "cause",
    "exception",
    "inspect",
];

/// Whether `node` holds a `super` call (bare `super`, `super(…)`).
fn calls_super(node: Node) -> bool {
    let mut c = node.walk();
    node.kind() == "super" || (node.named_children(&mut c)).any(calls_super)
}

/// Ruby: the `class A < B` headers of a file read as text (a file without the renamed name,
/// which is not parsed), by their last names (`class A::C < B::D` is `C`, `D`; `class A` is
/// `A`, `""`), into `out`.
pub(super) fn superclasses(bytes: &[u8], out: &mut Vec<(String, String)>) {
    let last = |t: &str| t.rsplit("::").next().unwrap_or(t).to_string();
    let word = |t: &str| {
        let end = t
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(t.len());
        last(t[..end].trim_end_matches(':'))
    };
    for line in String::from_utf8_lossy(bytes).lines() {
        let Some(rest) = line.trim_start().strip_prefix("class ") else {
            continue;
        };
        let Some((name, superclass)) = rest.split_once('<') else {
            // A root class (or one reopened): no superclass here, `""`.
            if rest.starts_with(|c: char| c.is_uppercase()) {
                out.push((word(rest), String::new()));
            }
            continue;
        };
        let (name, superclass) = (name.trim(), superclass.trim_start());
        if name.is_empty()
            || superclass.starts_with('<')
            || !superclass.starts_with(|c: char| c.is_uppercase() || c == ':')
        {
            continue;
        }
        let superclass = word(superclass.trim_start_matches("::"));
        if !superclass.is_empty() {
            out.push((word(name), superclass));
        }
    }
}
