//! `llm patch --rename`: the definition and its references in every file of the language
//! under `--in` (default: the root), as one request. Each occurrence is classified from the
//! syntax around it — `certain` (the definition, `Owner::name`, `self.name`/`Self::name` inside
//! the owner's impl or class, imports), `possible` (a receiver of unknown type), `excluded`
//! (through another type, another type's definition) — and occurrences in comments and strings
//! are reported as leftovers.

use super::classes::{
    class_like, classify, extends, inside, is_self, qualifier, subclassing, syntactic_class,
    text_kind, Target, CERTAIN, EXCLUDED, POSSIBLE,
};
use super::found::{message, Found};
use super::names::{new_name, valid_name};
use super::scopes::{self, words, Binding};
use super::{declared, headers, keys, links, taken, typed, types};
use super::{locate, Leftover, PatchOptions, PatchedSymbol, Planned, RenameSite};
use crate::edit::Edit;
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::{self, symbols};
use crate::mutation::{self, Change};
use crate::span::{checksum, LineIndex};
use crate::walk::{self, display_path, WalkOptions};
use std::path::{Path, PathBuf};

/// One file a rename changes: its path, its bytes as read, their tree, and the edits.
pub(super) struct RenamedFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub tree: tree_sitter::Tree,
    pub edits: Vec<Edit>,
}

/// The files and sites of renaming `s` (defined in `opts.file`, whose bytes are `src`) to
/// `new`; `read` gives a file's bytes (from disk, or as an `llm apply` batch staged them).
/// Every occurrence is classified; `certain` ones are rewritten, `possible` ones unless
/// `certain_only`, `excluded` ones never; comments and strings per the scope.
fn rename_core(
    opts: &PatchOptions,
    language: &'static lang::Language,
    syms: &[symbols::Symbol],
    i: usize,
    new: &str,
    src: &[u8],
    read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
) -> Result<Found, Error> {
    let s = &syms[i];
    // C#'s indexer is named by its keyword (`public int this[int i]`).
    let indexer = language.name == "csharp" && s.name == "this";
    if indexer || !valid_name(language, &s.name, &s.name) {
        return Err(Error::new(
            Code::PatchNotAName,
            format!(
                "{} `{}` is named by an operator, a type or a keyword, not an identifier: --rename changes identifiers only",
                s.kind.as_str(),
                s.qualified_name
            ),
            "rename its type to rename a destructor; change an operator or a conversion with --with-text",
        ));
    }
    if !valid_name(language, &s.name, new) {
        return Err(Error::new(
            Code::PatchBadName,
            match s.name.starts_with('#') {
                // A JavaScript private name stays one: `this.#n` is not `this.n`.
                true => format!("`{new}` is not a private name, as `{}` is", s.name),
                false => format!("`{new}` is not an identifier"),
            },
            "pass a plain name (letters, digits, `_`; not starting with a digit; Rust's `r#name`, a Ruby method's `name?`, `name!`, a setter's `name=`, `$` in JavaScript, TypeScript and Java, `#name` for a JavaScript private name) to --rename",
        ));
    }
    // A member of a type (method, field, associated item): not of a function or a module.
    let owner = s
        .parent_index
        .map(|p| &syms[p])
        .filter(|p| {
            !matches!(
                p.kind,
                symbols::SymbolKind::Function
                    | symbols::SymbolKind::Method
                    | symbols::SymbolKind::Module
            )
        })
        .map(|p| p.name.as_str())
        .or(s
            .parent
            .as_deref()
            .filter(|_| s.kind == symbols::SymbolKind::Method));
    let parent = s.parent_index.map(|p| &syms[p]);
    // A type's uses are classed by the type rules (`types::use_class`), not a member's.
    let is_type = types::is_type(s.kind, parent.map(|p| p.kind));
    let owner = owner.filter(|_| !is_type);
    let outer = parent
        .filter(|p| {
            is_type
                && !matches!(
                    p.kind,
                    symbols::SymbolKind::Function | symbols::SymbolKind::Method
                )
        })
        .map(|p| p.name.as_str())
        // Ruby's `class RDoc::RDoc` names its module without nesting in it.
        .or(s.parent.as_deref().filter(|_| is_type && parent.is_none()))
        // `Python.Runtime` for a C# namespace: `Runtime.Box`, `inside` read by segment.
        .map(|p| p.rsplit([':', '.']).next().unwrap_or(p));
    // A definition nested in a function or method is local to it where the language scopes
    // it so (not Ruby's nested `def`, PHP's or Bash's nested functions: global once run):
    // only what its binding there holds is it (see `own` below).
    // Where `scopes` reads no binding of it (Go's local types), the function's span is.
    let local_scope = parent.map_or(0..0, |p| p.span.range());
    let local_target = parent.is_some_and(|p| {
        matches!(
            p.kind,
            symbols::SymbolKind::Function | symbols::SymbolKind::Method
        )
    }) && matches!(
        language.name,
        "python" | "javascript" | "typescript" | "tsx" | "rust" | "go"
    );
    let trait_of = s
        .parent_index
        .map(|p| &syms[p])
        .filter(|p| p.kind == symbols::SymbolKind::Trait)
        .map(|p| p.name.as_str());
    let mut target = Target {
        language: language.name,
        owner,
        is_type,
        outer,
        outer_class: parent.is_some_and(|p| {
            matches!(
                p.kind,
                symbols::SymbolKind::Class
                    | symbols::SymbolKind::Struct
                    | symbols::SymbolKind::Interface
                    | symbols::SymbolKind::Enum
            )
        }),
        kind: s.kind,
        trait_of,
        singleton: s.singleton,
        ancestry: None,
        def_file: s.name_span.file_path.clone(),
        def_start: s.name_span.byte_start,
        modules: links::module_names(language, &s.name_span.file_path),
    };
    let type_target = is_type.then(|| types::Renamed {
        language: language.name,
        name: &s.name,
        kind: s.kind,
        parent_qualified: s.parent_qualified.as_deref(),
        def_file: &target.def_file,
        def_start: target.def_start,
    });
    let scope = opts.rename_scope;
    let old = s.name.clone();
    // Ruby: a singleton method (`def self.g`, a `def` in `class << self`) beside an instance
    // method of its name in its class. A call through a value (`A.new.g`, `obj.g`, `f().g`) is the instance method's.
    let instance_twin = language.name == "ruby"
        && s.singleton
        && syms.iter().any(|m| {
            m.name == old
                && m.kind == symbols::SymbolKind::Method
                && m.parent_index == s.parent_index
                && !m.singleton
        });
    let through_value = |q: &Option<String>| match q {
        None => true,
        Some(q) => {
            let w = q.rsplit([':', '.']).next().unwrap_or(q);
            w != "self" && !w.starts_with(|c: char| c.is_ascii_uppercase())
        }
    };
    let roots = if opts.rename_paths.is_empty() {
        vec![opts.mutation.root.clone()]
    } else {
        opts.rename_paths.clone()
    };
    let walked = walk::walk(
        &WalkOptions {
            paths: roots,
            ..Default::default()
        },
        "patch",
    )?;
    // A rename over an incomplete set of files would leave stale names behind: a path of
    // --in that cannot be walked stops it.
    if let Some(d) = walked
        .diagnostics
        .iter()
        .find(|d| d.level == crate::envelope::Level::Error)
    {
        return Err(Error::new(
            Code::PathNotFound,
            format!("--in: {}", d.message),
            "check the paths given to --in; nothing was renamed",
        ));
    }
    let primary = std::fs::canonicalize(&opts.file).unwrap_or_else(|_| opts.file.clone());
    // A Ruby setter's calls write its name apart (`obj.level = 1`): they are found by its base.
    let setter = language.name == "ruby" && old.len() > 1 && old.ends_with('=');
    let (old_base, new_base) = match setter {
        true => (&old[..old.len() - 1], new.strip_suffix('=').unwrap_or(new)),
        false => (old.as_str(), new),
    };
    let finder = memchr::memmem::Finder::new(old_base.as_bytes());
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![(opts.file.clone(), src.to_vec())];
    let mut superclasses = Vec::new(); // Ruby's `class A < B` in the other files.
    for c in walked
        .files
        .iter()
        .filter(|c| lang::for_path(&c.path).is_some_and(|l| one_program(l, language)))
    {
        if std::fs::canonicalize(&c.path).is_ok_and(|p| p == primary) {
            continue;
        }
        if let Some(bytes) = read(&c.path) {
            if finder.find(&bytes).is_some() {
                files.push((c.path.clone(), bytes));
            } else if language.name == "ruby" {
                super::ancestry::superclasses(&bytes, &mut superclasses);
            }
        }
    }
    let paths: Vec<&Path> = walked.files.iter().map(|c| c.path.as_path()).collect();
    super::overrides::refuse_unseen_interface(language, syms, i, &files, &paths, read)?;
    // Ruby: a method is called bare in the classes that inherit it or mix its module in.
    target.ancestry = super::ancestry::Ancestry::read(language, s, parent, &files, superclasses)?;
    // Go, Java, C#, PHP: the other types with a member of the name, which a value's declared
    // type tells apart (`declared`); Go ties an interface's method to its implementations.
    // Each file's regions around the name, parsed once with their symbols: read for the
    // other types below and classed in the loop after.
    let parsed: Vec<_> = (files.into_iter())
        .map(|(path, bytes)| {
            // A `.tsx` file beside the definition's `.ts` is read with its own grammar.
            let language = lang::for_path(&path)
                .filter(|l| one_program(l, language))
                .unwrap_or(language);
            let display = display_path(&path);
            let hits: Vec<_> = finder
                .find_iter(&bytes)
                .map(|at| at..at + old_base.len())
                .collect();
            let index = LineIndex::new(&bytes);
            let tree = language
                .parse_around(&bytes, &index, &hits, Cut::Members)
                .tree;
            let syms = symbols::symbols_with_index(language, &bytes, &tree, &display, &index);
            (path, bytes, language, display, index, tree, syms)
        })
        .collect();
    let others = match target.owner.filter(|_| declared::supported(language)) {
        Some(owner) => {
            let shown = (parsed.iter())
                .map(|(_, _, _, shown, _, _, syms)| (shown.as_str(), syms.as_slice()));
            let is_target = |f: &str, at: usize| f == target.def_file && at == target.def_start;
            declared::Others::scan(shown, &old, owner, is_target)
        }
        None => declared::Others::default(),
    };
    if language.name == "go" {
        let owner_kind = (parent.map(|p| p.kind))
            .or_else(|| {
                syms.iter()
                    .find(|t| Some(t.name.as_str()) == owner)
                    .map(|t| t.kind)
            })
            .unwrap_or(symbols::SymbolKind::Struct);
        declared::refuse_go_interface_tie(s, owner_kind, &others)?;
    }
    // TypeScript: the modules imports name, read and parsed once, for the types their
    // declarations write (`typed::exported`).
    let modules = typed::Modules::new(read);
    let mut out = Vec::new();
    let mut sites = Vec::new();
    let mut leftovers = Vec::new();
    let mut together = 0;
    let mut headers = headers::Headers::new(&opts.mutation.root);
    for (path, bytes, language, display, index, tree, file_syms) in parsed {
        // Format arguments are classed with the other words in strings, below.
        let mut refs = crate::lang::references::references_with(
            language, &bytes, &tree, &old, &display, &index, &file_syms,
        );
        refs.retain(|r| r.context != lang::RefContext::FormatArg);
        let home = display == target.def_file;
        // Where the name is bound in a function or block, an occurrence is that binding, not
        // the symbol (`g = 10` in a function beside `def g`); the symbol's own definition, when
        // it is nested in a function, is not one.
        let mut bindings = scopes::bindings(language, &tree, &bytes, &old);
        // The name bound again in the target's scope (`overloads::rebound`): one binding.
        let rebound_here = match home {
            true => super::overloads::rebound(&file_syms, s),
            false => Vec::new(),
        };
        // The local target's own binding: what it does not hold is another name (a
        // module-level class of the name, in this file or another).
        let own = (home && local_target)
            .then(|| {
                (bindings.iter())
                    .position(|b| b.at.start == target.def_start && !b.top_level)
                    .map(|i| bindings.remove(i))
            })
            .flatten();
        // Where the local target is seen in its file (its binding, or its function).
        let local_seen = (home && local_target).then(|| match &own {
            Some(b) => b.visible.clone(),
            None => local_scope.clone(),
        });
        let beyond = |at: usize| {
            local_target
                && !match &own {
                    Some(b) => b.holds(at),
                    None => home && local_scope.contains(&at),
                }
        };
        let (local, top): (Vec<Binding>, Vec<Binding>) = bindings
            .into_iter()
            .filter(|b| !(home && b.at.start == target.def_start))
            .filter(|b| !rebound_here.contains(&b.at.start))
            // A member's bare name in a class body is classed by the member rules.
            .filter(|b| !(b.class_body && target.owner.is_some()))
            .partition(|b| !b.top_level);
        let shadowed = |at: usize| {
            qualifier(language.name, &bytes, at).is_none()
                && local.iter().any(|b| b.holds(at))
                // A Java local is never called: `label()` beside one is the method.
                && !(language.name == "java" && types::called_bare(&bytes, at, old.len()))
                && keys::bare_name(&tree, at..at + old.len(), target.kind)
        };
        // In another file, a free symbol's bare name is the file's own, or reaches the
        // definition only through an import or as the language lets it.
        let foreign = (target.owner.is_none() && !home).then(|| {
            links::foreign(
                language,
                &tree,
                &bytes,
                &display,
                &refs,
                &file_syms,
                !top.is_empty(),
                target.kind,
                &target.def_file,
                &target.modules,
            )
        });
        // Python: the definition's own file importing the name from another module (`try: from
        // math import floor`) rebinds it there: the import and the bare uses after it are that
        // module's name, not the definition's.
        let rebound = (home && language.name == "python" && target.owner.is_none())
            .then(|| {
                refs.iter()
                    .filter(|r| r.context == lang::RefContext::Import)
                    .filter(|r| {
                        links::import_text(&tree, &bytes, r.span.range())
                            .is_some_and(|i| !links::names_module(&i, &target.modules))
                    })
                    // `import time as _time` binds `_time`, not the class `time` (its
                    // definition and uses after it were left, and `_time.time()` renamed).
                    .filter(|r| links::python_import_binds(&tree, r.span.range()))
                    .map(|r| r.span.byte_start)
                    .min()
            })
            .flatten();
        let imported =
            |module: &str, name: &str, asked| modules.declared(&path, module, name, asked);
        let mut taken_at: Vec<taken::Site> = Vec::new();
        // The owner's subclasses in this file (a header naming it: `class Sq(Base):`, `class Sq
        // extends Base`): their overrides and their `self.name`/`this.name` go with a method.
        // A TypeScript interface that extends the owner (`interface B extends A`) declares its
        // members again as the owner's, as a class that implements it does.
        let ts = matches!(language.name, "typescript" | "tsx");
        let subclasses: Vec<&str> = match target.owner {
            Some(owner) if subclassing(language) => (file_syms.iter())
                .filter(|c| {
                    (class_like(c) || (ts && c.kind == symbols::SymbolKind::Interface))
                        && extends(c, owner)
                })
                .map(|c| c.name.as_str())
                .collect(),
            _ => Vec::new(),
        };
        // The whole file's tree, for what lies outside the regions parsed: parsed once, when
        // first asked for.
        let full = std::cell::OnceCell::new();
        let typed = target.owner.and_then(|owner| {
            let file = typed::File {
                language,
                bytes: &bytes,
                syms: &file_syms,
                home,
                full: &full,
            };
            typed::Types::of(file, owner, &subclasses, &imported)
        });
        let declared = (target.owner).and_then(|owner| {
            declared::Declared::of(language, &bytes, owner, s.kind, &others, &full)
        });
        // Definitions that go with the target: a trait method's in the trait's impls (`impl
        // Shape for Sq { fn area … }`), a class method's overrides in those subclasses, a
        // TypeScript function's or method's overload signatures (`function f(a: number):
        // number;` before its implementation), all of one scope.
        // A Java, C# or C++ method's overloads (`overloads::same_class`) too: calls of them
        // are not told apart; a C or C++ function's or macro's twins in its file.
        let overloads = match (home, language.name) {
            (true, "typescript" | "tsx" | "javascript") => {
                // Overload signatures, and a getter's setter (`overloads::same_class`).
                let mut set = super::members::overloads(&file_syms, target.def_start);
                let accessors = super::overloads::same_class(&file_syms, s, home);
                set.extend(
                    accessors
                        .into_iter()
                        .filter(|a| !set.contains(a))
                        .collect::<Vec<_>>(),
                );
                set
            }
            // The name bound again in its scope (`if`/`else` twins, a property's setter).
            (true, "python" | "ruby" | "bash") => {
                together += rebound_here.len();
                rebound_here.clone()
            }
            (true, "rust" | "java" | "csharp" | "c") | (_, "cpp") => {
                let same = super::overloads::same_class(&file_syms, s, home);
                together += same.len();
                same
            }
            _ => Vec::new(),
        };
        // The overloads are the target where a bare call's nearest member is looked for.
        let overloaded = overloads.clone();
        let with_target: Vec<usize> = (file_syms.iter())
            .filter(|m| {
                m.name == old
                    && (target
                        .trait_of
                        .is_some_and(|t| m.impl_of.as_deref() == Some(t))
                        || m.parent.as_deref().is_some_and(|p| subclasses.contains(&p)))
            })
            .map(|m| m.name_span.byte_start)
            .chain(overloads)
            // Ruby: the overrides in the method's subclasses.
            .chain((target.ancestry.as_ref()).map_or(vec![], |a| a.overrides(&file_syms, &old)))
            .collect();
        // A type's definitions of its name here: its constructors and the same type declared
        // again go with it, Rust's impl headers are uses (`types::def`).
        let type_defs: Vec<(usize, types::Def)> = match &type_target {
            Some(t) => (file_syms.iter())
                .filter(|m| m.name == old || m.name.strip_prefix('~') == Some(old.as_str()))
                .map(|m| {
                    (
                        m.name_span.byte_start,
                        types::def(t, &display, &file_syms, m),
                    )
                })
                .collect(),
            None => Vec::new(),
        };
        let with_target: Vec<usize> = (type_defs.iter())
            .filter(|d| d.1 == types::Def::Same)
            .map(|d| d.0)
            .chain(with_target)
            .collect();
        let type_use = |at: usize| type_defs.contains(&(at, types::Def::Use));
        // Another member of the name is nearer than the renamed one: a bare name's scope, or
        // `q::name`'s (see `members::nearer_member`, `members::qualified_other`). A type's
        // constructors are its own, as are a method's overrides in subclasses.
        let is_target = |m: &symbols::Symbol| {
            (display == target.def_file && m.name_span.byte_start == target.def_start)
                || with_target.contains(&m.name_span.byte_start)
                || overloaded.contains(&m.name_span.byte_start)
        };
        // Ruby: the name's node at `at`, whose place says what `self` is there.
        let ruby_node = |at: usize| {
            (language.name == "ruby")
                .then(|| {
                    tree.root_node()
                        .descendant_for_byte_range(at, at + old.len())
                })
                .flatten()
        };
        let on_self_class = |at: usize| {
            ruby_node(at).is_some_and(|n| super::members::ruby_on_self_class(n, &bytes))
        };
        let elsewhere = |at: usize| match qualifier(language.name, &bytes, at) {
            // A type's name is a method's only where it is called so (`MaskFill(g)`, not
            // `MaskFill m;` nor `new MaskFill(g)`).
            None if target.is_type && !types::called_bare(&bytes, at, old.len()) => false,
            None => {
                let called = types::called_bare(&bytes, at, old.len());
                super::members::nearer_member(
                    language.name,
                    &file_syms,
                    at,
                    &old,
                    called,
                    is_target,
                )
            }
            // `self.class.g` is a call on a class, no value.
            Some((".", q)) if instance_twin && through_value(&q) && !on_self_class(at) => true,
            Some((_, Some(q))) if !is_self(&q) => {
                super::members::qualified_other(&file_syms, &q, &old, is_target)
            }
            Some((_, Some(_))) => super::members::self_member_other(
                &file_syms,
                at,
                &old,
                target.kind,
                ruby_node(at).and_then(|n| super::members::ruby_self_side(n, &bytes)),
                |m| is_target(m) || with_target.contains(&m.name_span.byte_start),
            ),
            Some(_) => false,
        };
        let mut edits: Vec<Edit> = Vec::new();
        for r in &refs {
            // A definition's name that is a use of the renamed type (`impl P`).
            let def = r.is_definition && !type_use(r.span.byte_start);
            let class = if def {
                if (display == target.def_file && r.span.byte_start == target.def_start)
                    || with_target.contains(&r.span.byte_start)
                {
                    CERTAIN
                } else {
                    EXCLUDED
                }
            } else if shadowed(r.span.byte_start)
                || elsewhere(r.span.byte_start)
                || beyond(r.span.byte_start)
            {
                EXCLUDED
            } else if matches!(qualifier(language.name, &bytes, r.span.byte_start), Some((_, Some(q))) if is_self(&q))
                && subclasses.iter().any(|c| inside(r.enclosing.as_deref(), c))
            {
                CERTAIN
            } else if let Some(c) = declared.as_ref().and_then(|d| d.class(r.span.range())) {
                c
            } else {
                syntactic_class(
                    language,
                    &tree,
                    &bytes,
                    r.span.range(),
                    r.enclosing.as_deref(),
                    &target,
                    &subclasses,
                    typed.as_ref(),
                )
                .unwrap_or_else(|| {
                    classify(
                        &target,
                        &bytes,
                        r.span.byte_start,
                        r.enclosing.as_deref(),
                        r.context == crate::lang::RefContext::Import,
                    )
                })
            };
            // A constructor defined outside its class in another file (`Shape::Shape() {}`)
            // follows the class named before it.
            let bare = match qualifier(language.name, &bytes, r.span.byte_start) {
                None => true,
                Some(("::", Some(q))) => r.is_definition && !def && q == old,
                Some(_) => false,
            };
            let import = r.context == lang::RefContext::Import;
            let class = match &foreign {
                _ if rebound.is_some_and(|at| r.span.byte_start >= at) && (bare || import) => {
                    EXCLUDED
                }
                Some(f) if class != EXCLUDED && !def && import => f.imports,
                Some(f) if class != EXCLUDED && !def && bare => f.bare,
                _ => class,
            };
            let renamed = class == CERTAIN || (class == POSSIBLE && !scope.certain_only);
            if renamed {
                let text =
                    keys::shorthand_text(&tree, r.span.range(), &bytes, &old, new, target.kind);
                // A field's shorthand written out (`{ deadline: timeout }`) takes the new name
                // as a key only, which no local captures.
                let key_only = text.is_some() && target.kind == symbols::SymbolKind::Field;
                taken_at.push(taken::Site {
                    at: r.span.byte_start,
                    // A member's definition (`consumer: C,` in a struct declared in a
                    // function with a parameter `consumer`) is no local's to capture.
                    bare: (bare
                        && !r.is_definition
                        && !key_only
                        && !keys::field_key(&tree, r.span.range()))
                        || import
                        || (r.is_definition && target.owner.is_none()),
                });
                let edit = match keys::shorthand_again(&tree, r.span.range(), &bytes, new) {
                    Some(whole) => Edit::new(whole, new),
                    None => {
                        // A setter's call (`obj.level = 1`) names it without its `=`.
                        let new = match bytes[r.span.range()].ends_with(b"=") {
                            false if setter => new_base,
                            _ => new,
                        };
                        Edit::new(r.span.range(), text.as_deref().unwrap_or(new))
                    }
                };
                edits.push(edit);
            }
            sites.push(RenameSite {
                span: r.span.clone(),
                context: r.context,
                is_definition: r.is_definition,
                class,
                renamed,
                line_text: r.line_text.clone(),
            });
        }
        // Textual occurrences the syntax does not see as identifiers.
        let covered =
            |w: &std::ops::Range<usize>| refs.iter().any(|r| r.span.byte_start == w.start);
        let loose: Vec<_> = words(&bytes, &old)
            .into_iter()
            .filter(|w| !covered(w))
            .collect();
        if !loose.is_empty() {
            let full = full.get_or_init(|| language.parse(&bytes));
            for w in loose {
                let kind = text_kind(full, w.clone());
                // In prose only a qualifier says whose name it is (`Other::name`).
                let class = match qualifier(language.name, &bytes, w.start) {
                    Some(_) if classify(&target, &bytes, w.start, None, false) == EXCLUDED => {
                        EXCLUDED
                    }
                    _ => POSSIBLE,
                };
                // Rust's inline format arguments (`println!("{LIMIT}")`) are code: the
                // macro reads the name from the string.
                let format_arg = language.name == "rust"
                    && kind == "string"
                    && target.owner.is_none()
                    && lang::references::is_format_arg(full, &bytes, &w);
                // Python's `__all__ = ["g", …]` names the module's exports: a star import
                // reads the name from it (left as it was, `from m import *` lost the function).
                let exported = language.name == "python"
                    && kind == "string"
                    && target.owner.is_none()
                    && links::in_dunder_all(full, &bytes, &w);
                // A Ruby symbol naming a method to `send`, `method`, `alias_method`… is the
                // method's name (left as it was, `send(:g)` raised NoMethodError).
                let method_symbol = language.name == "ruby"
                    && matches!(
                        target.kind,
                        symbols::SymbolKind::Method | symbols::SymbolKind::Function
                    )
                    && super::members::ruby_method_symbol(full, &bytes, w.clone());
                let wanted = match kind {
                    "comment" => scope.in_comments,
                    "string" => scope.in_strings || format_arg || exported,
                    _ => method_symbol,
                };
                // …unless the name there is a local's, or another file's own.
                let theirs = local.iter().any(|b| b.holds(w.start))
                    || foreign.as_ref().is_some_and(|f| f.bare == EXCLUDED);
                let class = match () {
                    _ if format_arg && theirs => EXCLUDED,
                    _ if format_arg => CERTAIN,
                    // Another file's `__all__` re-exports what it imported.
                    _ if exported => match foreign.as_ref() {
                        None => CERTAIN,
                        Some(f) if f.bare == EXCLUDED => EXCLUDED,
                        Some(f) => f.imports,
                    },
                    _ => class,
                };
                let renamed = wanted && class != EXCLUDED;
                if renamed {
                    edits.push(Edit::new(w.clone(), new));
                }
                let span = index.span(&display, w);
                let line_text =
                    String::from_utf8_lossy(index.line_text(&bytes, span.start_line)).into_owned();
                leftovers.push(Leftover {
                    span,
                    kind,
                    class,
                    renamed,
                    line_text,
                });
            }
        }
        if edits.is_empty() {
            continue;
        }
        if new != old {
            let renamed = taken::Renamed {
                // A type in a class, module or namespace is beside that one's members.
                owner: target.owner.or(target.outer),
                owner_qualified: s.parent_qualified.as_deref(),
                kind: target.kind,
                def_file: &target.def_file,
                singleton: s.singleton,
                local: local_seen.clone(),
            };
            taken::check(language, &bytes, &display, new, &renamed, &taken_at)?;
            // C and C++ are parsed whole (no region scanner): `tree` holds every `#include`.
            let read = &mut |p: &Path| modules.read(p);
            headers.check(language, &path, &bytes, &tree, new, &renamed, read)?;
        }
        edits.sort_by_key(|e| e.byte_start);
        out.push(RenamedFile {
            path,
            bytes,
            tree,
            edits,
        });
    }
    // Nothing renamed, not even the definition: `ok … 0 sites` said it was done.
    if !sites.iter().any(|x| x.renamed) && !leftovers.iter().any(|l| l.renamed) {
        return Err(Error::new(
            Code::PatchNothingRenamed,
            format!(
                "{} `{}` has no site to rename: no occurrence of `{old}`, its definition included, is one the rename may change ({} left alone)",
                s.kind.as_str(),
                s.qualified_name,
                sites.len()
            ),
            "a name an import from another module binds first (Python's `from m import s as g` before `g = None`) is that import's; a keyword or a string is no identifier (a TypeScript `new (…)` signature, a `'key': function` key); see `llm find --refs`; nothing was renamed",
        ));
    }
    Ok(Found {
        files: out,
        sites,
        leftovers,
        together,
    })
}

/// Whether files of languages `a` and `b` are one program's: the same language, or TypeScript
/// and TSX (a `.tsx` component imports the `.ts` file's types and functions).
fn one_program(a: &lang::Language, b: &lang::Language) -> bool {
    std::ptr::eq(a, b)
        || (matches!(a.name, "typescript" | "tsx") && matches!(b.name, "typescript" | "tsx"))
}

/// Plans a rename on the files as they are on disk.
#[allow(clippy::too_many_arguments)]
pub(super) fn plan_rename(
    opts: &PatchOptions,
    language: &'static lang::Language,
    syms: &[symbols::Symbol],
    i: usize,
    symbol: PatchedSymbol,
    new: &str,
    src: &[u8],
    checksum_now: Option<String>,
) -> Result<Planned, Error> {
    let new = &new_name(language, &syms[i].name, new);
    let found = rename_core(opts, language, syms, i, new, src, &mut |p| {
        crate::fsio::read(p, &crate::walk::display_path(p)).ok()
    })?;
    let message = message(&syms[i], new, &found, found.files.len());
    let Found {
        files,
        sites,
        leftovers,
        ..
    } = found;
    let changes: Vec<Change> = files
        .into_iter()
        .enumerate()
        .map(|(k, f)| {
            let expected = if k == 0 && f.path == opts.file {
                checksum_now.clone()
            } else {
                Some(checksum(&f.bytes))
            };
            Change::edits(&f.path, f.edits, expected).with_tree(f.tree)
        })
        .collect();
    let prepared = mutation::prepare(&changes, &opts.mutation)?;
    let paths = changes.iter().map(|c| c.path.clone()).collect();
    Ok(Planned {
        prepared,
        paths,
        symbol,
        span_before: syms[i].name_span.clone(),
        sites,
        leftovers: Some(leftovers),
        message,
    })
}

/// Each file's edits.
pub type FileEdits = Vec<(PathBuf, Vec<Edit>)>;

/// A rename's edits per file, on files as `read` gives them (an `llm apply` batch's staged
/// files), with the message that describes it.
pub fn rename_on(
    opts: &PatchOptions,
    read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
) -> Result<(FileEdits, String), Error> {
    let super::Action::Rename(new) = &opts.action else {
        unreachable!("rename_on is called for --rename")
    };
    let display = display_path(&opts.file);
    let language = super::language_of(opts, &display, || {
        "rename works on files of a registered language".into()
    })?;
    let src = read(&opts.file).ok_or_else(|| {
        Error::new(
            Code::PathNotFound,
            format!("{display} does not exist"),
            "check the path",
        )
        .with_file(&display)
    })?;
    let (syms, i, _) = locate(opts, language, &src, &display)?;
    let i = types::renamed_index(&syms, i)?;
    let i = super::overloads::renamed_index(&syms, i)?;
    let i = super::overrides::renamed_index(&syms, &src, i)?;
    let new = &new_name(language, &syms[i].name, new);
    let found = rename_core(opts, language, &syms, i, new, &src, read)?;
    let message = message(&syms[i], new, &found, found.files.len());
    Ok((
        found.files.into_iter().map(|f| (f.path, f.edits)).collect(),
        message,
    ))
}
