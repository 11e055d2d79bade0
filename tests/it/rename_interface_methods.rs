//! `llm patch --rename` of a C# or Java method that implements an interface's method (or
//! overrides a class's) of its name declared in another file or by a library, with no
//! `override`/`@Override` marker. Renamed alone, the class no longer implemented the interface
//! (CS0535; javac: `is not abstract and does not override abstract method`), and the rename
//! said `ok`. Refused (`PATCH_E010`), nothing written: rename the interface's method.

use crate::util::TestEnv;
use serde_json::Value;

/// Asserts a `PATCH_E010` refusal that names `hint`, with `files` left as written.
fn refused(env: &TestEnv, (v, code): (Value, i32), hint: &str, files: &[(&str, &str)]) {
    assert_ne!(code, 0, "{v}");
    assert!(v.to_string().contains("PATCH_E010"), "{v}");
    assert!(v.to_string().contains(hint), "{v}");
    for (path, text) in files {
        assert_eq!(env.text(path), *text, "{path}");
    }
}

const INAMER: &str = "public interface INamer { string MakeName(int n); }\n";
const NAMER: &str = "public class Namer : INamer { public string MakeName(int n) => \"x\" + n; }\n";
const USE: &str = "public static class Use { public static string F(INamer a, Namer b) => a.MakeName(1) + b.MakeName(2); }\n";

/// C#: the implementation is refused, naming the interface's file; renaming the interface's
/// method there renames the implementation and both calls.
#[test]
fn csharp_method_of_an_interface_in_another_file() {
    let env = TestEnv::new();
    env.write("INamer.cs", INAMER);
    env.write("Namer.cs", NAMER);
    env.write("Use.cs", USE);
    let files = [("INamer.cs", INAMER), ("Namer.cs", NAMER), ("Use.cs", USE)];
    let out = env.rename("Namer.cs", "Namer.MakeName", "Build");
    refused(&env, out, "INamer.cs", &files);
    let (v, code) = env.rename("INamer.cs", "INamer.MakeName", "Build");
    assert_eq!(code, 0, "{v}");
    for (path, text) in files {
        assert_eq!(env.text(path), text.replace("MakeName", "Build"), "{path}");
    }
}

/// C#: a method of a class implementing `IDisposable` and `IEquatable<T>` is renamed when
/// neither declares its name; `Dispose` and `Equals` are refused. An unknown `I`-named
/// interface the project does not define refuses any of the class's methods.
#[test]
fn csharp_method_beside_library_interfaces() {
    let src = "using System;\npublic class Shelf : IDisposable, IEquatable<Shelf> {\n    public string Title { get; set; }\n    public void Dispose() {}\n    public bool Equals(Shelf o) => o.Title == Title;\n    public string Label() => Title;\n}\npublic class Use { public static string F(Shelf s) { s.Dispose(); return s.Label(); } }\n";
    let env = TestEnv::new();
    env.write("Shelf.cs", src);
    for symbol in ["Shelf.Dispose", "Shelf.Equals"] {
        let out = env.rename("Shelf.cs", symbol, "Close");
        refused(&env, out, "Shelf.", &[("Shelf.cs", src)]);
    }
    let (v, code) = env.rename("Shelf.cs", "Shelf.Label", "Caption");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Shelf.cs"), src.replace("Label", "Caption"));
    let other = "public class Paper : IExternal {\n    public string Code() => Make();\n    static string Make() => \"c\";\n}\n";
    env.write("Paper.cs", other);
    let out = env.rename("Paper.cs", "Paper.Code", "Key");
    refused(&env, out, "IExternal", &[("Paper.cs", other)]);
    // A static method implements no interface's.
    let (v, code) = env.rename("Paper.cs", "Paper.Make", "Build");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Paper.cs"), other.replace("Make", "Build"));
}

/// Java: a method implementing another file's interface without `@Override` is refused,
/// naming the interface's file; renaming the interface's method renames both and the calls.
/// `Comparable.compareTo` of a record is refused, its own method renamed.
#[test]
fn java_method_of_an_interface_in_another_file() {
    let naming = "public interface Naming { String makeName(int n); }\n";
    let namer =
        "public class Namer implements Naming { public String makeName(int n) { return \"x\" + n; } }\n";
    let uses = "public class Use { static String f(Naming a, Namer b) { return a.makeName(1) + b.makeName(2); } }\n";
    let env = TestEnv::new();
    env.write("Naming.java", naming);
    env.write("Namer.java", namer);
    env.write("Use.java", uses);
    let files = [
        ("Naming.java", naming),
        ("Namer.java", namer),
        ("Use.java", uses),
    ];
    let out = env.rename("Namer.java", "Namer.makeName", "build");
    refused(&env, out, "Naming.java", &files);
    let (v, code) = env.rename("Naming.java", "Naming.makeName", "build");
    assert_eq!(code, 0, "{v}");
    for (path, text) in files {
        assert_eq!(env.text(path), text.replace("makeName", "build"), "{path}");
    }
    let boxed = "public record Box<T extends Comparable<T>>(String label, T value) implements Comparable<Box<T>> {\n    public int compareTo(Box<T> o) { return value.compareTo(o.value); }\n    public String shown() { return label; }\n}\n";
    env.write("Box.java", boxed);
    let out = env.rename("Box.java", "Box.compareTo", "cmp");
    refused(&env, out, "Comparable", &[("Box.java", boxed)]);
    let (v, code) = env.rename("Box.java", "Box.shown", "show");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Box.java"), boxed.replace("shown", "show"));
    // A well-known JDK class: its methods are known, the subclass's own are renamed.
    let bad = "public class BadInput extends IllegalArgumentException {\n    public String field() { return getMessage(); }\n    public String getMessage() { return \"b\"; }\n}\n";
    env.write("BadInput.java", bad);
    let out = env.rename("BadInput.java", "BadInput.getMessage", "msg");
    refused(
        &env,
        out,
        "IllegalArgumentException",
        &[("BadInput.java", bad)],
    );
    let (v, code) = env.rename("BadInput.java", "BadInput.field", "which");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("BadInput.java"), bad.replace("field", "which"));
    // A library class it extends (unknown): Java marks its overrides (`@Override`), so an
    // unmarked method is the class's own; a library interface it implements still refuses.
    let frame =
        "public class Window extends JFrame implements Listener {\n    public void paint() {}\n}\n";
    env.write("Window.java", frame);
    let out = env.rename("Window.java", "Window.paint", "draw");
    refused(&env, out, "Listener", &[("Window.java", frame)]);
    let plain = "public class Panel extends JPanel {\n    public void refresh() {}\n}\n";
    env.write("Panel.java", plain);
    let (v, code) = env.rename("Panel.java", "Panel.refresh", "redo");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Panel.java"), plain.replace("refresh", "redo"));
}
