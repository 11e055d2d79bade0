//! `llm patch --rename` of a method that overrides another: renamed alone, it would no longer
//! override it (javac: `method does not override … from a supertype`; PHP: a fatal error for
//! the interface method left unimplemented; Python, JavaScript: the base's method silently runs
//! instead). It is renamed from the method it overrides when the file defines that (the
//! overrides in every subclass follow, as for any method), and refused where the syntax says
//! it overrides one the file does not define, or names a method the language itself calls.
//! A C# or TypeScript property (a field symbol) is tied to an interface's or base class's of
//! its name as a method is (`class Book : INamed { public string Title … }`).

use super::classes::{class_like, extends};
use super::scopes::words;
use crate::error::{Code, Error};
use crate::lang::symbols::{self, Symbol, SymbolKind};
use crate::lang::{self, Language};
use std::path::{Path, PathBuf};

/// The index the rename starts from instead of `i`: the method `i` overrides in a class or
/// interface of the file its class's header names (followed up the chain), or `i` itself.
/// Refused (`PATCH_E010`) for a method the syntax marks as an override (Java's `@Override`,
/// C#'s, C++'s and TypeScript's `override`, PHP's `#[\Override]`) of a method the file does
/// not define, a PHP method of a built-in interface its class implements (`Countable::count`),
/// a PHP magic method (`__toString`) or a Python special method (`__getitem__`), and a C#
/// explicit implementation (`string INamed.Title`) of an interface the file does not define.
/// A C# or TypeScript property goes the same way.
pub(super) fn renamed_index(syms: &[Symbol], src: &[u8], i: usize) -> Result<usize, Error> {
    let mut i = i;
    // At most one step per class of the file: headers that name each other end the walk.
    for _ in 0..syms.len() {
        let s = &syms[i];
        if !tied(s) {
            return Ok(i);
        }
        if let Some(b) = base_method(syms, i) {
            i = b;
            continue;
        }
        return match marker(syms, s, src) {
            Some(m) => Err(refusal(s, m)),
            None => Ok(i),
        };
    }
    Ok(i)
}

/// Whether `s` is a member that a subclass's or an implementation's member of its name
/// overrides: a method, or a C# or TypeScript property (a field symbol; C# events too).
fn tied(s: &Symbol) -> bool {
    s.kind == SymbolKind::Method
        || (s.kind == SymbolKind::Field && matches!(s.language, "csharp" | "typescript" | "tsx"))
}

/// The member named as `syms[i]`, of its kind, in a class or interface that its class's
/// header names.
fn base_method(syms: &[Symbol], i: usize) -> Option<usize> {
    let s = &syms[i];
    let class = &syms[s.parent_index?];
    if !(class_like(class) || class.kind == SymbolKind::Interface) {
        return None;
    }
    (0..syms.len()).find(|&k| {
        let m = &syms[k];
        k != i
            && m.kind == s.kind
            && m.name == s.name
            && m.parent_index.is_some_and(|p| {
                let base = &syms[p];
                p != s.parent_index.unwrap_or(p)
                    && (class_like(base) || base.kind == SymbolKind::Interface)
                    && extends(class, &base.name)
            })
    })
}

/// What says `s` overrides a method or is called by the language by its name.
enum Marker {
    /// The override marker as written (`@Override`, `override`, `#[\Override]`).
    Written(&'static str),
    /// A C# explicit implementation's interface (`INamed` of `string INamed.Title`).
    Explicit(String),
    /// A PHP built-in interface its class implements.
    Interface(&'static str),
    /// A method the language calls by its name.
    Special,
}

/// PHP's built-in interfaces and their methods.
const PHP_INTERFACES: &[(&str, &[&str])] = &[
    ("Countable", &["count"]),
    (
        "ArrayAccess",
        &["offsetExists", "offsetGet", "offsetSet", "offsetUnset"],
    ),
    ("Iterator", &["current", "key", "next", "rewind", "valid"]),
    ("IteratorAggregate", &["getIterator"]),
    ("JsonSerializable", &["jsonSerialize"]),
    ("Serializable", &["serialize", "unserialize"]),
    ("Stringable", &["__toString"]),
];

/// .NET's common interfaces with the properties and events, then the methods, they declare:
/// a C# class naming one in its header implements those, and no other member of its, so that
/// a member renamed there is no library interface's (see [`refuse_unseen_interface`]).
const DOTNET_INTERFACES: &[(&str, &[&str], &[&str])] = &[
    ("IDisposable", &[], &["Dispose"]),
    ("IAsyncDisposable", &[], &["DisposeAsync"]),
    ("ICloneable", &[], &["Clone"]),
    ("IComparable", &[], &["CompareTo"]),
    ("IComparer", &[], &["Compare"]),
    (
        "IConvertible",
        &[],
        &[
            "GetTypeCode",
            "ToBoolean",
            "ToByte",
            "ToChar",
            "ToDateTime",
            "ToDecimal",
            "ToDouble",
            "ToInt16",
            "ToInt32",
            "ToInt64",
            "ToSByte",
            "ToSingle",
            "ToString",
            "ToType",
            "ToUInt16",
            "ToUInt32",
            "ToUInt64",
        ],
    ),
    ("IEquatable", &[], &["Equals"]),
    ("IEqualityComparer", &[], &["Equals", "GetHashCode"]),
    ("IFormattable", &[], &["ToString"]),
    ("IEnumerable", &[], &["GetEnumerator"]),
    ("IAsyncEnumerable", &[], &["GetAsyncEnumerator"]),
    (
        "IEnumerator",
        &["Current"],
        &["MoveNext", "Reset", "Dispose"],
    ),
    (
        "IAsyncEnumerator",
        &["Current"],
        &["MoveNextAsync", "DisposeAsync"],
    ),
    (
        "ICollection",
        &["Count", "IsReadOnly", "IsSynchronized", "SyncRoot"],
        &[
            "Add",
            "Clear",
            "Contains",
            "CopyTo",
            "Remove",
            "GetEnumerator",
        ],
    ),
    ("IReadOnlyCollection", &["Count"], &["GetEnumerator"]),
    (
        "IList",
        &[
            "Count",
            "IsReadOnly",
            "IsFixedSize",
            "IsSynchronized",
            "SyncRoot",
        ],
        &[
            "IndexOf",
            "Insert",
            "RemoveAt",
            "Add",
            "Clear",
            "Contains",
            "CopyTo",
            "Remove",
            "GetEnumerator",
        ],
    ),
    ("IReadOnlyList", &["Count"], &["GetEnumerator"]),
    (
        "ISet",
        &["Count", "IsReadOnly"],
        &[
            "Add",
            "ExceptWith",
            "IntersectWith",
            "IsProperSubsetOf",
            "IsProperSupersetOf",
            "IsSubsetOf",
            "IsSupersetOf",
            "Overlaps",
            "SetEquals",
            "SymmetricExceptWith",
            "UnionWith",
            "Clear",
            "Contains",
            "CopyTo",
            "Remove",
            "GetEnumerator",
        ],
    ),
    (
        "IDictionary",
        &["Count", "IsReadOnly", "IsFixedSize", "Keys", "Values"],
        &[
            "Add",
            "ContainsKey",
            "Remove",
            "TryGetValue",
            "Clear",
            "Contains",
            "CopyTo",
            "GetEnumerator",
        ],
    ),
    (
        "IReadOnlyDictionary",
        &["Count", "Keys", "Values"],
        &["ContainsKey", "TryGetValue", "GetEnumerator"],
    ),
    ("IGrouping", &["Key"], &["GetEnumerator"]),
    ("INotifyPropertyChanged", &["PropertyChanged"], &[]),
    ("INotifyPropertyChanging", &["PropertyChanging"], &[]),
    ("INotifyCollectionChanged", &["CollectionChanged"], &[]),
    (
        "INotifyDataErrorInfo",
        &["HasErrors", "ErrorsChanged"],
        &["GetErrors"],
    ),
    ("IServiceProvider", &[], &["GetService"]),
];

/// The methods a subclass of `Throwable` may override.
const THROWABLE: &[&str] = &[
    "getMessage",
    "getLocalizedMessage",
    "getCause",
    "initCause",
    "toString",
    "printStackTrace",
    "fillInStackTrace",
    "getStackTrace",
    "setStackTrace",
];

/// The JDK's common interfaces and classes and the methods they declare (those a class
/// implements or overrides by its name; `Serializable`'s are called by serialization).
const JDK_TYPES: &[(&str, &[&str])] = &[
    (
        "Object",
        &["equals", "hashCode", "toString", "clone", "finalize"],
    ),
    ("Throwable", THROWABLE),
    ("Exception", THROWABLE),
    ("RuntimeException", THROWABLE),
    ("Error", THROWABLE),
    ("IllegalArgumentException", THROWABLE),
    ("IllegalStateException", THROWABLE),
    ("IOException", THROWABLE),
    ("Runnable", &["run"]),
    ("Comparable", &["compareTo"]),
    ("AutoCloseable", &["close"]),
    ("Closeable", &["close"]),
    ("Iterable", &["iterator", "forEach", "spliterator"]),
    (
        "Iterator",
        &["hasNext", "next", "remove", "forEachRemaining"],
    ),
    (
        "Comparator",
        &["compare", "equals", "reversed", "thenComparing"],
    ),
    ("Callable", &["call"]),
    ("Supplier", &["get"]),
    ("Consumer", &["accept", "andThen"]),
    ("Function", &["apply", "andThen", "compose"]),
    ("Predicate", &["test", "and", "or", "negate"]),
    ("Cloneable", &[]),
    (
        "Serializable",
        &[
            "writeObject",
            "readObject",
            "readObjectNoData",
            "writeReplace",
            "readResolve",
        ],
    ),
];

fn marker(syms: &[Symbol], s: &Symbol, src: &[u8]) -> Option<Marker> {
    let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(src.get(r).unwrap_or(b""));
    let before = text(s.span.byte_start..s.name_span.byte_start);
    let after = text(
        s.name_span.byte_end
            ..s.body_span
                .as_ref()
                .map_or(s.span.byte_end, |b| b.byte_start),
    );
    let word = |t: &str, w: &str| {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|x| x == w)
    };
    // C#: `string INamed.Title`, `void IDisposable.Dispose()`.
    let explicit = before
        .trim_end()
        .strip_suffix('.')
        .and_then(|q| {
            q.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
        })
        .filter(|q| !q.is_empty());
    match s.language {
        "csharp" if explicit.is_some() => explicit.map(|q| Marker::Explicit(q.to_string())),
        "java" if before.contains("@Override") => Some(Marker::Written("@Override")),
        "csharp" | "typescript" | "tsx" if word(&before, "override") => {
            Some(Marker::Written("override"))
        }
        "cpp" if word(&after, "override") => Some(Marker::Written("override")),
        "python" if s.name.len() > 4 && s.name.starts_with("__") && s.name.ends_with("__") => {
            Some(Marker::Special)
        }
        "php" if before.contains("#[\\Override]") || before.contains("#[Override]") => {
            Some(Marker::Written("#[\\Override]"))
        }
        "php" if s.name.starts_with("__") => Some(Marker::Special),
        "php" => {
            let class = &syms[s.parent_index?];
            PHP_INTERFACES
                .iter()
                .find(|(name, methods)| {
                    methods.iter().any(|m| m.eq_ignore_ascii_case(&s.name)) && extends(class, name)
                })
                .map(|(name, _)| Marker::Interface(name))
        }
        _ => None,
    }
}

fn refusal(s: &Symbol, m: Marker) -> Error {
    let what = format!("{} `{}`", s.kind.as_str(), s.qualified_name);
    let (message, fix) = match m {
        Marker::Written(w) => (
            format!("{what} overrides a {} (`{w}`) that {} does not define: renamed alone, it would no longer override it", member(s), s.name_span.file_path),
            format!("rename the overridden {} where its type is defined (`llm find {} --kind {}`): the overrides follow; a library type's cannot be renamed. Nothing was renamed", member(s), s.name, s.kind.as_str()),
        ),
        Marker::Explicit(i) => (
            format!("{what} implements `{i}.{}` explicitly, and {} does not define `{i}`: renamed alone, the class would no longer implement `{i}`", s.name, s.name_span.file_path),
            format!("rename `{i}.{}` where `{i}` is defined: its implementations follow; a library interface's cannot be renamed. Nothing was renamed", s.name),
        ),
        Marker::Interface(i) => (
            format!("{what} implements PHP's built-in `{i}::{}`: renamed, the class would no longer implement `{i}`", s.name),
            "leave its name: PHP calls it through the interface. Nothing was renamed".to_string(),
        ),
        Marker::Special => (
            format!("{what} is a method the language calls by its name: renamed, it would no longer be called"),
            "leave its name, or rename the methods it calls. Nothing was renamed".to_string(),
        ),
    };
    Error::new(Code::PatchNotAName, message, fix).with_file(&s.name_span.file_path)
}

/// A method's or a property's name for messages.
fn member(s: &Symbol) -> &'static str {
    match s.kind {
        SymbolKind::Method => "method",
        _ => "property",
    }
}

/// C#: a class's property (or event) or method that another file's interface may declare;
/// Java: a class's method that another file's interface or class may declare. A class
/// implements an interface's member by its name (`class Book : INamed { public string Title
/// … }`, `class Namer implements Naming { public String make() … }`), with no marker: renamed
/// alone, `Book` no longer implements `INamed`. When `syms[i]` (already walked to its base in
/// its file, [`renamed_index`]) is such a member and its class's header names a supertype that
/// its file does not define (C#: an interface, `I` and a capital by the convention; Java: any
/// type after `extends` or `implements`), that type is looked for in `files` (the files
/// holding the name) and then among `others` (the rest of the language's files under the
/// rename's paths): refused (`PATCH_E010`) where it declares a member of the name (rename
/// that one: its implementations follow) or is defined nowhere there (a library's), unless it
/// is one of the well-known library types without a member of the name
/// ([`DOTNET_INTERFACES`], [`JDK_TYPES`]).
pub(super) fn refuse_unseen_interface(
    language: &Language,
    syms: &[Symbol],
    i: usize,
    files: &[(PathBuf, Vec<u8>)],
    others: &[&Path],
    read: &mut dyn FnMut(&Path) -> Option<Vec<u8>>,
) -> Result<(), Error> {
    let s = &syms[i];
    let Some(class) = s.parent_index.map(|p| &syms[p]) else {
        return Ok(());
    };
    let java = language.name == "java";
    let applies = match language.name {
        "csharp" => matches!(s.kind, SymbolKind::Field | SymbolKind::Method) && class_like(class),
        "java" => {
            s.kind == SymbolKind::Method && (class_like(class) || class.kind == SymbolKind::Enum)
        }
        _ => false,
    };
    // A static or private method implements no interface's.
    let modifiers = s
        .signature
        .find(s.name.as_str())
        .map_or("", |k| &s.signature[..k]);
    let bound = |w: &str| {
        modifiers
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|x| x == w)
    };
    if !applies || (s.kind == SymbolKind::Method && (bound("static") || bound("private"))) {
        return Ok(());
    }
    let defined_here = |n: &str| {
        (syms.iter()).any(|t| {
            t.name == n
                && (class_like(t) || matches!(t.kind, SymbolKind::Interface | SymbolKind::Enum))
        })
    };
    let keywords: &[&str] = match java {
        true => &["interface", "class"],
        false => &["interface"],
    };
    for (name, is_interface) in supertypes(java, class) {
        if defined_here(&name) {
            continue;
        }
        let name = name.as_str();
        let declares = |bytes: &[u8]| {
            keywords.iter().any(|k| {
                words(bytes, k).into_iter().any(|r| {
                    let rest = &bytes[r.end..];
                    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
                    rest.starts_with(name.as_bytes())
                        && !rest
                            .get(name.len())
                            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                })
            })
        };
        let home = files.iter().skip(1).find(|(_, b)| declares(b));
        let why = match home {
            Some((path, bytes)) => {
                let display = crate::walk::display_path(path);
                let tree = language.parse(bytes);
                let theirs = symbols::symbols(language, bytes, &tree, &display);
                let tied = theirs.iter().any(|m| {
                    m.name == s.name
                        && m.kind == s.kind
                        && m.parent_index.is_some_and(|p| {
                            theirs[p].name == name
                                && (theirs[p].kind == SymbolKind::Interface
                                    || (java && class_like(&theirs[p])))
                        })
                });
                if !tied {
                    continue;
                }
                format!(
                    "its class's header names `{name}`, whose `{name}.{}` {display} declares",
                    s.name
                )
            }
            None => {
                // A well-known type declares the members it declares, and no other.
                let known = match java {
                    true => JDK_TYPES
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, methods)| methods.contains(&s.name.as_str())),
                    false => DOTNET_INTERFACES.iter().find(|(n, _, _)| *n == name).map(
                        |(_, properties, methods)| match s.kind {
                            SymbolKind::Method => methods.contains(&s.name.as_str()),
                            _ => properties.contains(&s.name.as_str()),
                        },
                    ),
                };
                // A library's class a Java class extends: its methods are many and unknown,
                // and Java marks an override (`@Override`, refused above when its base is not
                // seen): every method of a class extending `JFrame` or `TestCase` refused was
                // too much. Its interfaces are read as C#'s are.
                if known == Some(false) || (known.is_none() && java && !is_interface) {
                    continue;
                }
                let seen = others.iter().any(|p| {
                    lang::for_path(p).is_some_and(|l| std::ptr::eq(l, language))
                        && read(p).is_some_and(|b| declares(&b))
                });
                if seen {
                    continue;
                }
                match known {
                    Some(_) => format!("its class's header names the library's `{name}`, which declares `{}`", s.name),
                    None => format!("its class's header names `{name}`, which no file under the rename's paths defines: a library's type may declare `{}`", s.name),
                }
            }
        };
        let owned = match home {
            Some((path, _)) => format!(
                "rename `{name}.{}` in {} instead: its implementations and their calls follow",
                s.name,
                crate::walk::display_path(path)
            ),
            None => format!(
                "a library's `{name}.{}` cannot be renamed: leave the name",
                s.name
            ),
        };
        return Err(Error::new(
            Code::PatchNotAName,
            format!("{} `{}` may implement or override `{name}`'s {}: {why}; renamed alone, the class would no longer implement or override it", s.kind.as_str(), s.qualified_name, member(s)),
            format!("{owned}. Nothing was renamed"),
        )
        .with_file(&s.name_span.file_path));
    }
    Ok(())
}

/// The supertypes class `c`'s header names after its own name, each with whether it is an
/// interface. C#: the `I`-named words (read as interfaces; a base class's members are
/// overridden with `override`). Java: the types after `extends` (a class) and `implements`
/// (interfaces), type arguments, a record's components and `permits` left out.
fn supertypes(java: bool, c: &Symbol) -> Vec<(String, bool)> {
    let header = c
        .signature
        .find(c.name.as_str())
        .map_or("", |k| &c.signature[k + c.name.len()..]);
    let split = |t: &str| -> Vec<String> {
        t.split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
            .filter(|w| !w.is_empty() && *w != c.name)
            .map(str::to_string)
            .collect()
    };
    if !java {
        return split(header)
            .into_iter()
            .filter(|w| {
                let mut ch = w.chars();
                ch.next() == Some('I') && ch.next().is_some_and(char::is_uppercase)
            })
            .map(|w| (w, true))
            .collect();
    }
    // Depth-0 text only: `<…>` and `(…)` dropped.
    let mut flat = String::new();
    let mut depth = 0usize;
    for ch in header.chars() {
        match ch {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            '{' if depth == 0 => break,
            _ if depth == 0 => flat.push(ch),
            _ => {}
        }
    }
    let flat = flat.split(" permits ").next().unwrap_or("");
    let (extended, implemented) = flat.split_once(" implements ").unwrap_or((flat, ""));
    // A qualified name's last segment (`java.io.Serializable`).
    let types = |t: &str, interface: bool| {
        split(t)
            .into_iter()
            .filter(|w| w.starts_with(|ch: char| ch.is_ascii_uppercase()))
            .map(move |w| (w, interface))
            .collect::<Vec<_>>()
    };
    let mut all = types(extended, false);
    all.extend(types(implemented, true));
    all
}
