//! `llm patch --rename` of a type: its constructors and destructors, Rust's impl headers and its
//! uses as a type (`new Box(1)`, `-> P`, `IEquatable<Box>`, a cast) go with it. Each case was
//! left under the old name by an adversarial run while the rename reported `ok`, and the code
//! no longer compiled (`javac`: invalid method declaration; rustc E0425; g++).

use crate::util::{site_class, TestEnv};

/// Renames `symbol` of `kind` in `file` to `new` and returns the envelope and exit code.
fn rename(
    env: &TestEnv,
    file: &str,
    symbol: &str,
    kind: &str,
    new: &str,
) -> (serde_json::Value, i32) {
    env.patch(&[
        "--file", file, "--symbol", symbol, "--kind", kind, "--rename", new,
    ])
}

/// `s` with each whole word `old` replaced by `new`.
fn words(s: &str, old: &str, new: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(old) {
        out.push_str(&rest[..i]);
        let before = out.chars().next_back();
        let after = rest[i + old.len()..].chars().next();
        if before.is_some_and(word) || after.is_some_and(word) {
            out.push_str(old);
        } else {
            out.push_str(new);
        }
        rest = &rest[i + old.len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn java_constructors_new_casts_and_return_types_follow_the_class() {
    let env = TestEnv::new();
    let java = "package geo;\n\npublic class Box {\n    private int v;\n\n    public Box(int v) {\n        this.v = v;\n    }\n\n    public static Box make() {\n        return new Box(1);\n    }\n\n    Box copy(Object o) {\n        return (Box) o;\n    }\n\n    int pick(int k) {\n        // Choose by kind.\n        return switch (k) {\n            case 0 -> Box.ZERO;\n            default -> k;\n        };\n    }\n\n    static final int ZERO = 0;\n}\n";
    env.write("geo/Box.java", java);
    let user = "package app;\n\nimport geo.Box;\nimport java.util.List;\n\nclass Shelf {\n    List<Box> boxes;\n    Box first = Box.make();\n}\n";
    env.write("app/Shelf.java", user);
    let (v, code) = rename(&env, "geo/Box.java", "Box", "class", "Crate");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("geo/Box.java"), java.replace("Box", "Crate"));
    assert_eq!(env.text("app/Shelf.java"), user.replace("Box", "Crate"));
    assert_eq!(
        site_class(&v, "geo/Box.java", 6, 11),
        "certain",
        "the constructor"
    );
    assert_eq!(
        site_class(&v, "geo/Box.java", 11, 19),
        "certain",
        "new Box(1)"
    );
    assert_eq!(
        site_class(&v, "geo/Box.java", 15, 16),
        "certain",
        "the cast"
    );
    // `case 0 -> Box.ZERO` is no member access through `0`.
    assert_eq!(site_class(&v, "geo/Box.java", 21, 22), "certain");
    assert_eq!(
        site_class(&v, "app/Shelf.java", 7, 9),
        "certain",
        "imported"
    );
    // Renaming a constructor renames its class (a constructor named otherwise is a method
    // without a return type: the round trip left `Crate(int v)` in a class `Box`).
    let (v, code) = env.patch(&[
        "--file",
        "geo/Box.java",
        "--symbol",
        "Crate.Crate",
        "--kind",
        "constructor",
        "--rename",
        "Box",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["symbol"]["kind"], "class");
    assert_eq!(env.text("geo/Box.java"), java);
    assert_eq!(env.text("app/Shelf.java"), user);

    // A method that has its class's name is not a constructor: another class's stays.
    let env = TestEnv::new();
    let fill = "class MaskFill {\n    static class General extends MaskFill {\n        public void MaskFill(int g) {}\n    }\n}\n";
    env.write("MaskFill.java", fill);
    let (v, code) = rename(&env, "MaskFill.java", "MaskFill", "class", "Fill");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("MaskFill.java"),
        fill.replacen("MaskFill", "Fill", 2)
    );
    assert_eq!(site_class(&v, "MaskFill.java", 3, 20), "excluded");
}

#[test]
fn cpp_constructors_destructors_and_definitions_outside_the_class_follow_it() {
    let env = TestEnv::new();
    let header = "#pragma once\n\nclass Shape {\npublic:\n    Shape();\n    ~Shape();\n    void draw();\n    static Shape* make();\n};\n";
    env.write("shape.hpp", header);
    let source = "#include \"shape.hpp\"\n\nShape::Shape() {}\n\nShape::~Shape() {}\n\nvoid Shape::draw() {}\n\nShape* Shape::make() { return new Shape(); }\n";
    env.write("shape.cpp", source);
    // Another file's own `Shape` (no include of the header) keeps its name.
    let other = "struct Shape { int sides; };\n\nint count(Shape s) { return s.sides; }\n";
    env.write("other.cpp", other);
    let (v, code) = rename(&env, "shape.hpp", "Shape", "class", "Form");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("shape.hpp"), header.replace("Shape", "Form"));
    assert_eq!(env.text("shape.cpp"), source.replace("Shape", "Form"));
    assert_eq!(env.text("other.cpp"), other);
    assert_eq!(site_class(&v, "shape.hpp", 5, 4), "certain", "Shape();");
    assert_eq!(site_class(&v, "shape.hpp", 6, 5), "certain", "~Shape();");
    // The header's file includes it: its names are the header's.
    assert_eq!(
        site_class(&v, "shape.cpp", 3, 7),
        "certain",
        "Shape::Shape()"
    );
    assert_eq!(site_class(&v, "other.cpp", 1, 7), "excluded");
    // A constructor defined outside its header's class: the class is not here to rename.
    let (v, code) = env.patch(&[
        "--file",
        "shape.cpp",
        "--symbol",
        "Form",
        "--kind",
        "function",
        "--line",
        "3",
        "--rename",
        "Shape",
    ]);
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E010");

    // A type alias in a class, used after a comment that ends with a full stop.
    let env = TestEnv::new();
    let svc = "class resolver {\npublic:\n  typedef int results_type;\n\n  // Resolve a query to a list of entries.\n  results_type resolve();\n};\n";
    env.write("svc.hpp", svc);
    let (v, code) = rename(&env, "svc.hpp", "results_type", "type", "results");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("svc.hpp"), svc.replace("results_type", "results"));
}

#[test]
fn csharp_constructor_finalizer_and_generic_argument_follow_the_struct() {
    let env = TestEnv::new();
    let cs = "using System;\n\nnamespace Geo\n{\n    public struct TypePair : IEquatable<TypePair>\n    {\n        public int A;\n        public TypePair(int a) { A = a; }\n        ~TypePair() { }\n        public bool Equals(TypePair o) => A == o.A;\n        public static TypePair Make() => new TypePair(1);\n        public static object Of(object o) => (TypePair)o;\n    }\n}\n";
    env.write("Pair.cs", cs);
    let (v, code) = rename(&env, "Pair.cs", "TypePair", "struct", "Pair");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Pair.cs"), cs.replace("TypePair", "Pair"));
    assert_eq!(
        site_class(&v, "Pair.cs", 5, 40),
        "certain",
        "IEquatable<TypePair>"
    );
    assert_eq!(site_class(&v, "Pair.cs", 9, 9), "certain", "the finalizer");
}

#[test]
fn rust_impl_headers_and_return_types_follow_the_struct() {
    let env = TestEnv::new();
    env.write("src/lib.rs", "pub mod p;\npub mod q;\n");
    let p = "pub struct P {\n    pub x: u8,\n}\n\nimpl P {\n    pub fn new() -> P {\n        P { x: 1 }\n    }\n}\n\nimpl Clone for P {\n    fn clone(&self) -> Self {\n        P { x: self.x }\n    }\n}\n\npub fn all() -> Vec<P> {\n    vec![P::new()]\n}\n";
    env.write("src/p.rs", p);
    let q = "use crate::p::P;\nuse std::fmt;\n\nimpl fmt::Display for P {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, \"{}\", self.x)\n    }\n}\n\npub fn make() -> P {\n    P::new()\n}\n";
    env.write("src/q.rs", q);
    let (v, code) = rename(&env, "src/p.rs", "P", "struct", "Point");
    assert_eq!(code, 0, "{v}");
    // Every whole word `P` (no other word of the files is `P`).
    let renamed = |s: &str| words(s, "P", "Point");
    assert_eq!(env.text("src/p.rs"), renamed(p));
    assert_eq!(env.text("src/q.rs"), renamed(q));
    assert_eq!(site_class(&v, "src/p.rs", 5, 5), "certain", "impl P");
    assert_eq!(site_class(&v, "src/p.rs", 6, 20), "certain", "-> P");
    assert_eq!(
        site_class(&v, "src/p.rs", 11, 15),
        "certain",
        "impl Clone for P"
    );
    assert_eq!(
        site_class(&v, "src/q.rs", 4, 22),
        "certain",
        "imported, then impl"
    );

    // Renaming the impl renames its type.
    let (v, code) = env.patch(&[
        "--file", "src/p.rs", "--symbol", "Point", "--kind", "impl", "--line", "5", "--rename", "P",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["result"]["symbol"]["kind"], "struct");
    assert_eq!(env.text("src/p.rs"), p);
    assert_eq!(env.text("src/q.rs"), q);

    // An impl of a type defined elsewhere has nothing here to rename.
    env.write("src/b.rs", "pub trait B {}\n\nimpl B for u8 {}\n");
    let (v, code) = rename(&env, "src/b.rs", "u8", "impl", "u9");
    assert_eq!(code, 2, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E010");
    assert_eq!(env.text("src/b.rs"), "pub trait B {}\n\nimpl B for u8 {}\n");
}

#[test]
fn a_field_named_after_the_type_is_kept_and_a_go_embedded_one_is_possible() {
    // C: `dev->udp_tunnel_nic` is a field of that name, not the struct.
    let env = TestEnv::new();
    let c = "struct udp_tunnel_nic { int n; };\nstruct net_device { struct udp_tunnel_nic *udp_tunnel_nic; };\n\nint count(struct net_device *dev)\n{\n\tstruct udp_tunnel_nic *utn = dev->udp_tunnel_nic;\n\treturn utn->n;\n}\n";
    env.write("nic.c", c);
    let (v, code) = rename(&env, "nic.c", "udp_tunnel_nic", "struct", "utn_state");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("nic.c"),
        c.replace("struct udp_tunnel_nic", "struct utn_state")
    );
    assert_eq!(site_class(&v, "nic.c", 6, 35), "excluded");

    // Go: an embedded field is named after its type.
    let env = TestEnv::new();
    let go = "package fmtx\n\ntype fmtFlags struct {\n\tplus bool\n}\n\ntype state struct {\n\tfmtFlags\n\twid int\n}\n\nfunc (s *state) clear() {\n\ts.fmtFlags = fmtFlags{}\n}\n";
    env.write("format.go", go);
    let (v, code) = rename(&env, "format.go", "fmtFlags", "struct", "flags");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("format.go"), go.replace("fmtFlags", "flags"));
    assert_eq!(site_class(&v, "format.go", 13, 3), "possible");
}

#[test]
fn ruby_class_in_a_module_of_its_own_name_keeps_the_module() {
    let env = TestEnv::new();
    let rb = "module RDoc\nend\n\nclass RDoc::RDoc\n  def go\n    RDoc::RDoc.new\n  end\nend\n";
    env.write("rdoc.rb", rb);
    let (v, code) = rename(&env, "rdoc.rb", "RDoc::RDoc", "class", "Runner");
    assert_eq!(code, 0, "{v}");
    let renamed = rb.replace("RDoc::RDoc", "RDoc::Runner");
    assert_eq!(env.text("rdoc.rb"), renamed);
    assert_eq!(site_class(&v, "rdoc.rb", 4, 6), "excluded", "the module");
    assert_eq!(site_class(&v, "rdoc.rb", 6, 4), "excluded", "the module");
    assert_eq!(site_class(&v, "rdoc.rb", 6, 10), "certain");
    // And back.
    let (v, code) = rename(&env, "rdoc.rb", "RDoc::Runner", "class", "RDoc");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("rdoc.rb"), rb);

    // A class first made by `Struct.new` and reopened is one class; a class reached through
    // its module's path is it.
    let env = TestEnv::new();
    let rb = "module Bundler\n  module URI\n    Conflict = Struct.new(:a)\n\n    class Conflict\n      def b; end\n    end\n\n    class Generic\n      X = 1\n\n      def a\n        ::Bundler::URI::Generic::X\n      end\n    end\n  end\nend\n";
    env.write("uri.rb", rb);
    let (v, code) = rename(&env, "uri.rb", "Conflict", "class", "Clash");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("uri.rb"), rb.replace("Conflict", "Clash"));
    let (v, code) = rename(&env, "uri.rb", "Generic", "class", "Plain");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("uri.rb"),
        rb.replace("Conflict", "Clash").replace("Generic", "Plain")
    );
}

#[test]
fn the_same_type_declared_again_goes_with_it() {
    // TypeScript merges an interface with the value of its name (`lib.d.ts`'s pattern).
    let env = TestEnv::new();
    let ts = "declare namespace Intl {\n  interface ListFormat {\n    format(list: string[]): string;\n  }\n  const ListFormat: {\n    prototype: ListFormat;\n    new (): ListFormat;\n  };\n}\n\nexport const f: Intl.ListFormat = new Intl.ListFormat();\n";
    env.write("intl.ts", ts);
    let (v, code) = rename(&env, "intl.ts", "Intl.ListFormat", "interface", "Lister");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("intl.ts"), ts.replace("ListFormat", "Lister"));
    assert_eq!(
        site_class(&v, "intl.ts", 5, 8),
        "certain",
        "const ListFormat"
    );

    // A C# partial class in two files.
    let env = TestEnv::new();
    let a = "namespace Geo\n{\n    public partial class Shape\n    {\n        public Shape() { }\n    }\n}\n";
    let b = "namespace Geo\n{\n    public partial class Shape\n    {\n        public int Sides() => 3;\n    }\n}\n";
    env.write("Shape.cs", a);
    env.write("Shape.Sides.cs", b);
    let (v, code) = rename(&env, "Shape.cs", "Shape", "class", "Form");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("Shape.cs"), a.replace("Shape", "Form"));
    assert_eq!(env.text("Shape.Sides.cs"), b.replace("Shape", "Form"));
    assert_eq!(site_class(&v, "Shape.Sides.cs", 3, 25), "certain");
}

#[test]
fn a_python_nested_class_is_seen_in_its_class_body_not_in_its_methods() {
    let env = TestEnv::new();
    let py = "class Inner:\n    pass\n\n\nclass Outer:\n    class Inner:\n        pass\n\n    default = Inner()\n\n    def make(self):\n        return self.Inner(), Outer.Inner(), Inner()\n";
    env.write("n.py", py);
    let (v, code) = rename(&env, "n.py", "Outer.Inner", "class", "Part");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("n.py"),
        "class Inner:\n    pass\n\n\nclass Outer:\n    class Part:\n        pass\n\n    default = Part()\n\n    def make(self):\n        return self.Part(), Outer.Part(), Inner()\n"
    );
    // In the method, `Inner` is the module's class.
    assert_eq!(site_class(&v, "n.py", 12, 44), "excluded");
    assert_eq!(site_class(&v, "n.py", 9, 14), "certain");
}

#[test]
fn a_cpp_template_and_its_specializations_are_one_type() {
    let env = TestEnv::new();
    let hpp = "#include <array>\n\nnamespace detail {\n\ntemplate <typename Buffers>\nstruct buffers_max\n{\n  enum { value = 64 };\n};\n\ntemplate <typename Elem, std::size_t N>\nstruct buffers_max<std::array<Elem, N> >\n{\n  enum { value = N };\n};\n\ntemplate <typename B>\nint limit() { return buffers_max<B>::value; }\n\n} // namespace detail\n";
    env.write("max.hpp", hpp);
    let (v, code) = env.patch(&[
        "--file",
        "max.hpp",
        "--symbol",
        "buffers_max",
        "--kind",
        "struct",
        "--line",
        "12",
        "--rename",
        "max_buffers",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("max.hpp"),
        hpp.replace("buffers_max", "max_buffers")
    );
    assert_eq!(
        site_class(&v, "max.hpp", 6, 7),
        "certain",
        "the primary template"
    );
}

#[test]
fn rust_cfg_twins_are_one_type() {
    let env = TestEnv::new();
    let rs = "#[cfg(unix)]\npub struct M {\n    a: u8,\n}\n\n#[cfg(not(unix))]\npub struct M {\n    a: u16,\n}\n\nimpl M {\n    pub fn new() -> M {\n        todo!()\n    }\n}\n";
    env.write("m.rs", rs);
    let (v, code) = env.patch(&[
        "--file", "m.rs", "--symbol", "M", "--kind", "struct", "--line", "2", "--rename", "Map",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("m.rs"), words(rs, "M", "Map"));
    assert_eq!(
        site_class(&v, "m.rs", 7, 11),
        "certain",
        "the other cfg's struct"
    );
}
