//! `llm patch --rename` of a C# property tied to an interface's property of its name (a class
//! implements it by the name, implicitly or as `string INamed.Title`), and of a TypeScript
//! class field that implements an interface's. Renamed alone, the class no longer implemented
//! the interface (CS0535; tsc TS2420), and the rename said `ok`.

use crate::util::TestEnv;

const BOOK: &str = "public interface INamed { string Title { get; } }\npublic class Book : INamed {\n    public string Title { get; set; }\n}\npublic class Mag : INamed {\n    string INamed.Title => \"m\";\n}\npublic class Use { public static string F(Book b, INamed n) => b.Title + n.Title; }\n";

const RENAMED: &str = "public interface INamed { string Name { get; } }\npublic class Book : INamed {\n    public string Name { get; set; }\n}\npublic class Mag : INamed {\n    string INamed.Name => \"m\";\n}\npublic class Use { public static string F(Book b, INamed n) => b.Name + n.Name; }\n";

/// An implicit implementation (`Book.Title`), an explicit one (`Mag`'s `INamed.Title`) and
/// the interface's property each rename the three and their uses.
#[test]
fn csharp_property_renames_its_interface_and_implementations() {
    for (symbol, line) in [
        ("Book.Title", "3"),
        ("Mag.Title", "6"),
        ("INamed.Title", "1"),
    ] {
        let env = TestEnv::new();
        env.write("Book.cs", BOOK);
        let (v, code) = env.rename_line("Book.cs", symbol, line, "Name");
        assert_eq!(code, 0, "{symbol}: {v}");
        assert_eq!(env.text("Book.cs"), RENAMED, "{symbol}");
    }
}

/// The interface in another file of the project: renaming it renames the implementations;
/// renaming an implementation is refused (rename the interface's), nothing written. An
/// interface of the project that declares no member of the name leaves the rename free.
#[test]
fn csharp_property_of_an_interface_in_another_file() {
    let book = "public class Book : INamed {\n    public string Title { get; set; }\n}\npublic class Box : IThing {\n    public int Count => 1;\n    public string Title { get; set; }\n}\n";
    let env = TestEnv::new();
    env.write(
        "INamed.cs",
        "public interface INamed { string Title { get; } }\n",
    );
    env.write(
        "IThing.cs",
        "public interface IThing { int Count { get; } }\n",
    );
    env.write("Book.cs", book);
    let (v, code) = env.rename_line("Book.cs", "Book.Title", "2", "Name");
    assert_ne!(code, 0, "{v}");
    assert!(v.to_string().contains("PATCH_E010"), "{v}");
    assert_eq!(env.text("Book.cs"), book);
    let (v, code) = env.rename_line("INamed.cs", "INamed.Title", "1", "Name");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("INamed.cs"),
        "public interface INamed { string Name { get; } }\n"
    );
    let (v, code) = env.rename_line("Book.cs", "Box.Title", "6", "Caption");
    assert_eq!(code, 0, "{v}");
    let want = book.replacen("Title", "Name", 1).replace(
        "string Title { get; set; }\n}\n",
        "string Caption { get; set; }\n}\n",
    );
    assert_eq!(env.text("Book.cs"), want);
}

/// An interface the project does not define (a library's): its property may be the one
/// implemented, implicitly or explicitly. Refused, nothing written.
#[test]
fn csharp_property_of_an_interface_outside_the_project_is_refused() {
    let src = "public class Paper : IExternal, IOther {\n    public string Title { get; set; }\n    string IOther.Code => \"c\";\n}\n";
    let env = TestEnv::new();
    env.write("Paper.cs", src);
    for (symbol, line) in [("Paper.Title", "2"), ("Paper.Code", "3")] {
        let (v, code) = env.rename_line("Paper.cs", symbol, line, "Name");
        assert_ne!(code, 0, "{symbol}: {v}");
        assert!(v.to_string().contains("PATCH_E010"), "{symbol}: {v}");
        assert_eq!(env.text("Paper.cs"), src);
    }
}

/// .NET's well-known interfaces declare known properties: a class implementing `IDisposable`
/// and `IEquatable<T>` renames a property of its own, while `Count` of a class implementing
/// `IReadOnlyCollection<T>` may be that interface's (refused).
#[test]
fn csharp_property_beside_a_well_known_interface() {
    let src = "using System;\nusing System.Collections.Generic;\npublic class Shelf : IDisposable, IEquatable<Shelf>, IReadOnlyCollection<string> {\n    public string Title { get; set; }\n    public int Count => 0;\n    public void Dispose() {}\n    public bool Equals(Shelf o) => o.Title == Title;\n    public IEnumerator<string> GetEnumerator() => null;\n    System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => null;\n}\n";
    let env = TestEnv::new();
    env.write("Shelf.cs", src);
    let (v, code) = env.rename_line("Shelf.cs", "Shelf.Count", "5", "Size");
    assert_ne!(code, 0, "{v}");
    assert!(v.to_string().contains("PATCH_E010"), "{v}");
    assert_eq!(env.text("Shelf.cs"), src);
    let (v, code) = env.rename_line("Shelf.cs", "Shelf.Title", "4", "Name");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Shelf.cs"), src.replace("Title", "Name"));
}

/// TypeScript: a class field that implements an interface's (`class Book implements Named`)
/// renames the interface's field with it (the class's alone was renamed: TS2420).
#[test]
fn typescript_class_field_renames_its_interface_field() {
    let src = "interface Named { title: string; }\nclass Book implements Named {\n    title = \"b\";\n}\nexport function f(b: Book, n: Named) { return b.title + n.title; }\n";
    let env = TestEnv::new();
    env.write("a.ts", src);
    let (v, code) = env.rename_line("a.ts", "Book.title", "3", "name");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.ts"), src.replace("title", "name"));
}
