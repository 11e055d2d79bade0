//! `llm patch --rename` of a Ruby class's method: its calls on `self` (bare, or `self.g`) in
//! the subclasses that inherit it (`class Sub < Base`, up a chain of superclasses, in any file
//! the rename reads), and `Sub.g` for a singleton method. Each said `ok` and left a call of the
//! old name behind: the called bare names and `self.g` were read as another class's. Its
//! overrides in those subclasses go with it (left, a call through the base skipped them).

use crate::util::TestEnv;

/// A class, a subclass that calls its method on `self`, and another class with its own.
const BASE: &str = r#"class Base
  def grab(x) = x + 1
end

class Sub < Base
  def run
    grab(1)
    self.grab(2)
    grab
  end
end

class Other
  def grab(x) = x
  def run = grab(3)
end
"#;

/// The class of the site whose line is `text`.
fn class(v: &serde_json::Value, text: &str) -> String {
    let sites = v["result"]["sites"].as_array().unwrap();
    let s = sites.iter().find(|s| s["line_text"] == text).unwrap();
    s["class"].as_str().unwrap().to_string()
}

/// Ruby: in a subclass's instance method, a bare call (`grab(1)`), a bare name and
/// `self.grab` are the inherited method, `certain`; another class's `grab` stays. Renaming
/// `Base#grab` left `grab(1)` and `self.grab(2)` (NoMethodError).
#[test]
fn ruby_subclass_calls_inherited_method() {
    let env = TestEnv::new();
    env.write("a.rb", BASE);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let (renamed, other) = BASE.split_at(BASE.find("class Other").unwrap());
    assert_eq!(
        env.text("a.rb"),
        format!("{}{other}", renamed.replace("grab", "fetch"))
    );
    assert_eq!(class(&v, "    grab(1)"), "certain", "{v}");
    assert_eq!(class(&v, "    self.grab(2)"), "certain", "{v}");
    assert_eq!(class(&v, "    grab"), "certain", "{v}");
    assert_eq!(class(&v, "  def run = grab(3)"), "excluded", "{v}");
}

/// Ruby: the method is inherited through a class between (`class Sub2 < Sub`), reopened
/// classes merged; a class of the chain that mixes in a module of the files with its own
/// `grab` makes the call `possible`.
#[test]
fn ruby_two_level_chain() {
    let src = format!(
        "{BASE}class Sub\n  def more = grab(4)\nend\n\nclass Sub2 < Sub\n  def go\n    grab(5)\n  end\nend\n\nmodule Cache\n  def grab(x) = x\nend\n\nclass Mid < Base\n  include Cache\nend\n\nclass Low < Mid\n  def go = grab(6)\nend\n"
    );
    let env = TestEnv::new();
    env.write("a.rb", &src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(class(&v, "  def more = grab(4)"), "certain", "{v}");
    assert_eq!(class(&v, "    grab(5)"), "certain", "{v}");
    assert_eq!(class(&v, "  def go = grab(6)"), "possible", "{v}");
    let text = env.text("a.rb");
    assert!(text.contains("  def more = fetch(4)\n"), "{text}");
    assert!(text.contains("    fetch(5)\n"), "{text}");
    assert!(text.contains("  def run = grab(3)\n"), "{text}");
    assert!(text.contains("module Cache\n  def grab(x) = x\n"), "{text}");
}

/// Ruby: a subclass that defines its own `grab` overrides the base's: its definition goes with
/// the rename, and so do its calls and its subclasses' (`certain`), as a sibling subclass's.
#[test]
fn ruby_subclass_that_overrides() {
    let src = r#"class Base
  def grab(x) = x + 1
end

class Own < Base
  def grab(x) = x * 2
  def run = grab(1)
end

class Below < Own
  def go
    self.grab(2)
  end
end

class Plain < Base
  def go = grab(3)
end
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), src.replace("grab", "fetch"));
    assert_eq!(class(&v, "  def run = grab(1)"), "certain", "{v}");
    assert_eq!(class(&v, "    self.grab(2)"), "certain", "{v}");
    assert_eq!(class(&v, "  def go = grab(3)"), "certain", "{v}");
}

/// Ruby: a singleton method (`def self.make`) is inherited by the subclass itself: a bare
/// call in its singleton methods or `class << self`, `Sub.make` and, in a subclass's instance
/// method, `self.class.make` are the base's; a bare call in an instance method is not.
#[test]
fn ruby_subclass_inherits_singleton_method() {
    let src = r#"class Base
  def self.make(x) = x
end

class Sub < Base
  def self.go
    make(1)
  end

  class << self
    def again = self.make(2)
  end

  def run = make(3)
end

class Low < Sub
  def again = self.class.make(6)
end

class Other
  def self.make(x) = x
end

Sub.make(4)
Other.make(5)
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::make", "2", "build");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def self.make", "def self.build", 1)
        .replace("make(1)", "build(1)")
        .replace("make(2)", "build(2)")
        .replace("Sub.make(4)", "Sub.build(4)")
        .replace("make(6)", "build(6)");
    assert_eq!(env.text("a.rb"), want);
    assert_eq!(class(&v, "    make(1)"), "certain", "{v}");
    assert_eq!(class(&v, "Sub.make(4)"), "certain", "{v}");
    assert_eq!(
        class(&v, "  def again = self.class.make(6)"),
        "certain",
        "{v}"
    );
    assert_eq!(class(&v, "  def run = make(3)"), "excluded", "{v}");
    assert_eq!(class(&v, "Other.make(5)"), "excluded", "{v}");
}

/// Ruby: the subclass, and a class between, may be in other files: their calls are found
/// the same way, through a class between whose file does not name the method too.
#[test]
fn ruby_subclass_in_another_file() {
    let base = "class Base\n  def grab(x) = x + 1\nend\n";
    let mid = "require_relative \"base\"\n\nclass Mid < Base\n  def grab?\n    true\n  end\nend\n";
    let sub = "require_relative \"mid\"\n\nclass Sub < Mid\n  def run\n    grab(1)\n  end\nend\n";
    let env = TestEnv::new();
    env.write("base.rb", base);
    env.write("mid.rb", mid);
    env.write("sub.rb", sub);
    let plain = "class Plain < ::Base\nend\n";
    let deep = "class Deep < Plain\n  def run = grab(2)\nend\n";
    env.write("plain.rb", plain);
    env.write("deep.rb", deep);
    let (v, code) = env.rename("base.rb", "Base::grab", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("base.rb"), base.replace("grab", "fetch"));
    assert_eq!(env.text("mid.rb"), mid);
    assert_eq!(env.text("sub.rb"), sub.replace("grab(1)", "fetch(1)"));
    assert_eq!(class(&v, "    grab(1)"), "certain", "{v}");
    assert_eq!(env.text("plain.rb"), plain);
    assert_eq!(env.text("deep.rb"), deep.replace("grab", "fetch"));
}

/// Ruby: a class that includes a module passes the module's instance method on to its
/// subclasses: a bare call there is the module's.
#[test]
fn ruby_subclass_of_an_including_class() {
    let src = r#"module Loader
  def grab(x) = x + 1
end

class App
  include Loader
end

class Web < App
  def go = grab(1)
end

class Api < App
  def grab(x) = x
  def go = grab(2)
end
"#;
    let env = TestEnv::new();
    env.write("m.rb", src);
    let (v, code) = env.rename_at("m.rb", "Loader::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replacen("def grab", "def fetch", 1)
        .replace("grab(1)", "fetch(1)");
    assert_eq!(env.text("m.rb"), want);
    assert_eq!(class(&v, "  def go = grab(1)"), "certain", "{v}");
    assert_eq!(class(&v, "  def go = grab(2)"), "excluded", "{v}");
}

/// Ruby: an override in a subclass that calls `super` is renamed with the base, so its
/// `super` still finds it (it was refused, `PATCH_E010`, when the override stayed behind).
#[test]
fn ruby_override_calling_super_renamed_together() {
    let src = r#"class Base
  def grab(x) = x + 1
end

class Sub < Base
  def grab(x)
    super(x) * 2
  end
end
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), src.replace("grab", "fetch"));
}

/// The example of the bug: `Base#run` calls `o.grab` on a `Sub`. With `Base#grab` renamed
/// alone, `o.fetch(1)` ran `Base#fetch` and skipped Sub's override (2, then 4), said `ok`.
const OVERRIDE: &str = r#"class Base
  def grab(x) = x + 1
  def run(o) = o.grab(1)
end
class Sub < Base
  def grab(x) = x * 2      # overrides Base#grab
end
Base.new.run(Sub.new)
"#;

/// Ruby: renaming a method renames its override in a subclass.
#[test]
fn ruby_override_renamed_with_base() {
    let env = TestEnv::new();
    env.write("a.rb", OVERRIDE);
    let (v, code) = env.rename_at("a.rb", "Base::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = OVERRIDE
        .replace("def grab", "def fetch")
        .replace("o.grab", "o.fetch");
    assert_eq!(env.text("a.rb"), want);
    assert_eq!(
        class(&v, "  def grab(x) = x * 2      # overrides Base#grab"),
        "certain",
        "{v}"
    );
}

/// Ruby: renaming the override renames the method it overrides, and every override with it.
#[test]
fn ruby_rename_from_the_override() {
    let env = TestEnv::new();
    env.write("a.rb", OVERRIDE);
    let (v, code) = env.rename_at("a.rb", "Sub::grab", "6", "fetch");
    assert_eq!(code, 0, "{v}");
    let want = OVERRIDE
        .replace("def grab", "def fetch")
        .replace("o.grab", "o.fetch");
    assert_eq!(env.text("a.rb"), want);
}

/// Ruby: overrides up a chain (`Low < Sub < Mid < Base`, Mid without its own) go with the
/// base, in other files too, with their calls; a class outside the chain keeps its own.
#[test]
fn ruby_overrides_down_a_chain() {
    let base = "class Base
  def grab(x) = x + 1
end
";
    let mid = "class Mid < Base
end
";
    let sub = "class Sub < Mid
  def grab(x) = x * 2
  def go = grab(1)
end

class Low < Sub
  def grab(x) = super(x) - 1
end

class Other
  def grab(x) = x
end
";
    let env = TestEnv::new();
    env.write("base.rb", base);
    env.write("mid.rb", mid);
    env.write("sub.rb", sub);
    let (v, code) = env.rename("base.rb", "Base::grab", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("base.rb"), base.replace("grab", "fetch"));
    assert_eq!(env.text("mid.rb"), mid);
    let (renamed, other) = sub.split_at(sub.find("class Other").unwrap());
    assert_eq!(
        env.text("sub.rb"),
        format!("{}{other}", renamed.replace("grab", "fetch"))
    );
}

/// Ruby: a method whose class inherits from a class no file under the rename's paths defines
/// (a gem's) may override one of it: refused (`PATCH_E010`); so is renaming an override from
/// its subclass where the base is in another file (rename the base: the overrides follow).
#[test]
fn ruby_override_of_a_base_in_another_file_is_refused() {
    let gem = "class Sub < Gem::Base
  def grab(x) = x * 2
end
";
    // A gem's base cannot be known: the method is renamed alone, as before (refusing every
    // method of a Rails model was too much).
    let env = TestEnv::new();
    env.write("a.rb", gem);
    let (v, code) = env.rename_at("a.rb", "Sub::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("a.rb"), gem.replace("grab", "fetch"));
    let env = TestEnv::new();
    env.write(
        "base.rb",
        "class Base
  def grab(x) = x + 1
end
",
    );
    let sub = "class Sub < Base
  def grab(x) = x * 2
end
";
    env.write("sub.rb", sub);
    let (v, code) = env.rename("sub.rb", "Sub::grab", "fetch");
    assert_ne!(code, 0, "{v}");
    assert!(v.to_string().contains("PATCH_E010"), "{v}");
    assert_eq!(env.text("sub.rb"), sub);
    // An exception class's own method is no library's.
    let error = "class Oops < StandardError
  def grab(x) = x
end
";
    env.write("e.rb", error);
    let (v, code) = env.rename_at("e.rb", "Oops::grab", "2", "fetch");
    assert_eq!(code, 0, "{v}");
}

/// Ruby: a singleton method's overrides are the subclasses' singleton methods of its name
/// (`def self.make`, one in `class << self`); a subclass's instance method of the name is
/// another method and stays.
#[test]
fn ruby_singleton_overrides() {
    let src = r#"class Base
  def self.make(x) = x
end

class Sub < Base
  def self.make(x) = x * 2
  def make = 3
end

class Low < Sub
  class << self
    def make(x) = super(x) + 1
  end
end
"#;
    let env = TestEnv::new();
    env.write("a.rb", src);
    let (v, code) = env.rename_at("a.rb", "Base::make", "2", "build");
    assert_eq!(code, 0, "{v}");
    let want = src
        .replace("def self.make", "def self.build")
        .replace("def make(x)", "def build(x)");
    assert_eq!(env.text("a.rb"), want);
}
