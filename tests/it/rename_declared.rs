//! `llm patch --rename` of a Go, Java, C# or PHP member where another type has a member of the
//! same name: a value's declared type (`s := Square{…}`, `Tag t = new Tag()`, `var m = new
//! Movie()`, `$p = new Pet()`, a receiver `func (s Square)`) and a literal's written type
//! (`Square{Label: …}`, `new Movie { Title = … }`) tell them apart. Each case below was
//! renamed wrongly before, with status `ok`, and no longer compiled (or ran).

use crate::util::TestEnv;

const SHAPES: &str = "package shapes\n\ntype Base struct {\n\tLabel string\n}\n\nfunc (b Base) Describe() string { return b.Label }\n\ntype Square struct {\n\tLabel string\n\tSide  float64\n}\n\nfunc (s Square) Show() string { return \"square \" + s.Label }\n\nfunc NewBase() Base {\n\treturn Base{Label: \"b\"}\n}\n";

const MAIN_GO: &str = "package main\n\nimport (\n\t\"fmt\"\n\n\t\"ex/shapes\"\n)\n\nfunc main() {\n\ts := shapes.Square{Label: \"s\", Side: 1}\n\tb := shapes.Base{Label: \"x\"}\n\tfmt.Println(s.Label, b.Label)\n}\n";

/// Go: `Base.Label` renamed leaves `Square`'s own field, its literal's key and its
/// receiver's and variable's `s.Label` (they were renamed as possible sites).
#[test]
fn go_field_rename_leaves_another_structs_field() {
    let env = TestEnv::new();
    env.write("go.mod", "module ex\n\ngo 1.21\n");
    env.write("shapes/shapes.go", SHAPES);
    env.write("app/main.go", MAIN_GO);
    let (v, code) = env.rename_line("shapes/shapes.go", "Base.Label", "4", "Title");
    assert_eq!(code, 0, "{v}");
    let want = SHAPES
        .replace(
            "\tLabel string\n}\n\nfunc (b",
            "\tTitle string\n}\n\nfunc (b",
        )
        .replace("b.Label", "b.Title")
        .replace("Base{Label:", "Base{Title:");
    assert_eq!(env.text("shapes/shapes.go"), want);
    let want = MAIN_GO
        .replace("Base{Label:", "Base{Title:")
        .replace("b.Label", "b.Title");
    assert_eq!(env.text("app/main.go"), want);
}

/// Go: an interface's method and a type's method of its name are tied (the type implements
/// the interface by the name): renamed alone, either broke the build. Refused, nothing
/// written.
#[test]
fn go_interface_method_rename_is_refused() {
    let src = "package shapes\n\ntype Named interface {\n\tName() string\n}\n\ntype Circle struct{}\n\nfunc (c Circle) Name() string { return \"circle\" }\n\nfunc Show(n Named) string { return n.Name() }\n";
    let env = TestEnv::new();
    env.write("go.mod", "module ex\n\ngo 1.21\n");
    env.write("shapes/shapes.go", src);
    for (symbol, line) in [("Named.Name", "4"), ("Circle.Name", "9")] {
        let (v, code) = env.rename_line("shapes/shapes.go", symbol, line, "Title");
        assert_ne!(code, 0, "{v}");
        assert!(v.to_string().contains("PATCH_E010"), "{v}");
        assert_eq!(env.text("shapes/shapes.go"), src);
    }
}

const CIRCLE: &str = "package app;\n\npublic class Circle {\n    private String label;\n\n    public Circle(String label) {\n        this.label = label;\n    }\n\n    public String name() { return label; }\n\n    public String label() { return label; }\n}\n";

const TAG: &str = "package app;\n\npublic class Tag {\n    String label;\n\n    Tag(String label) { this.label = label; }\n\n    String show() { return label + \"!\"; }\n}\n";

const MAIN_JAVA: &str = "package app;\n\npublic class Main {\n    public static void main(String[] args) {\n        Circle c = new Circle(\"d\");\n        Tag t = new Tag(\"t\");\n        System.out.println(c.label() + t.label);\n    }\n}\n";

/// Java: a field's bare uses in its class's methods are renamed though the class has a method
/// of the name (they were excluded: `return label;` no longer compiled), a parameter of its
/// name keeps its uses (they were renamed with it), and `t.label` through a `Tag t` stays.
#[test]
fn java_field_rename_keeps_parameters_methods_and_other_types() {
    let env = TestEnv::new();
    env.write("src/app/Circle.java", CIRCLE);
    env.write("src/app/Tag.java", TAG);
    env.write("src/app/Main.java", MAIN_JAVA);
    let (v, code) = env.rename_line("src/app/Circle.java", "Circle.label", "4", "caption");
    assert_eq!(code, 0, "{v}");
    let want = "package app;\n\npublic class Circle {\n    private String caption;\n\n    public Circle(String label) {\n        this.caption = label;\n    }\n\n    public String name() { return caption; }\n\n    public String label() { return caption; }\n}\n";
    assert_eq!(env.text("src/app/Circle.java"), want);
    assert_eq!(env.text("src/app/Main.java"), MAIN_JAVA);
    assert_eq!(env.text("src/app/Tag.java"), TAG);
    let (v, code) = env.rename_line("src/app/Tag.java", "Tag.label", "4", "caption");
    assert_eq!(code, 0, "{v}");
    let want = "package app;\n\npublic class Tag {\n    String caption;\n\n    Tag(String label) { this.caption = label; }\n\n    String show() { return caption + \"!\"; }\n}\n";
    assert_eq!(env.text("src/app/Tag.java"), want);
    assert_eq!(
        env.text("src/app/Main.java"),
        MAIN_JAVA.replace("t.label", "t.caption")
    );
}

const MODELS_CS: &str = "namespace App\n{\n    public class Book\n    {\n        public string Title { get; set; }\n    }\n\n    public class Movie\n    {\n        public string Title { get; set; }\n    }\n}\n";

const PROGRAM_CS: &str = "namespace App\n{\n    public static class Program\n    {\n        public static void Main()\n        {\n            var b = new Book { Title = \"Dune\" };\n            var m = new Movie { Title = \"Alien\" };\n            Movie m2 = new Movie();\n            m2.Title = \"x\";\n            System.Console.WriteLine(b.Title + m.Title);\n        }\n    }\n}\n";

/// C#: `Book.Title` renamed leaves `Movie`'s object initializer and its values' `m.Title`
/// (renamed before as possible sites), and renames `Book`'s, certain.
#[test]
fn csharp_property_rename_leaves_another_classes_initializers() {
    let env = TestEnv::new();
    env.write("Models.cs", MODELS_CS);
    env.write("Program.cs", PROGRAM_CS);
    let (v, code) = env.rename_line("Models.cs", "Book.Title", "5", "Name");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("Models.cs"),
        MODELS_CS.replacen("string Title", "string Name", 1)
    );
    let want = PROGRAM_CS
        .replace("new Book { Title", "new Book { Name")
        .replace("b.Title", "b.Name");
    assert_eq!(env.text("Program.cs"), want);
}

/// PHP: a named argument (`make(name: …)`) is a parameter's name, never a property's (it was
/// renamed with `Pet::$name`: "Unknown named parameter"), and `$u->name` through `$u = new
/// User(…)` is `User`'s.
#[test]
fn php_property_rename_leaves_named_arguments() {
    let models = "<?php\n\nclass User\n{\n    public string $name = \"\";\n\n    public static function make(string $name): User\n    {\n        $u = new User();\n        $u->name = $name;\n        return $u;\n    }\n}\n\nclass Pet\n{\n    public string $name = \"\";\n}\n";
    let main = "<?php\n\nrequire __DIR__ . '/models.php';\n\n$u = User::make(name: \"ann\");\n$p = new Pet();\n$p->name = \"rex\";\n$v = new User();\n$v->name = \"bob\";\necho $p->name . $v->name;\n";
    let env = TestEnv::new();
    env.write("models.php", models);
    env.write("main.php", main);
    let (v, code) = env.rename_line("models.php", "Pet.name", "17", "title");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("models.php"),
        models.replace(
            "{\n    public string $name = \"\";\n}",
            "{\n    public string $title = \"\";\n}"
        )
    );
    let want = main
        .replace("$p->name = \"rex\"", "$p->title = \"rex\"")
        .replace("echo $p->name", "echo $p->title");
    assert_eq!(env.text("main.php"), want);
}
