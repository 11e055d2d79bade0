//! `llm patch --rename` and `--delete` that were refused where the edit was sound. Found by an
//! invariant run (round 5: rename, check the file, rename back); each was refused with a code
//! and nothing written, but no rule stood against it.

use crate::util::TestEnv;

/// Ruby: a setter `def level=(v)` is named by no one token (`setter` holds `level` and `=`),
/// and its calls write it apart (`obj.level = 1`): it had no site to rename (`PATCH_E012`).
/// Its definition, its assignments through a receiver and `send(:level=)` go; the getter
/// `level` and `obj.level += 1` (which reads through the getter) stay. A bare `size` names the
/// setter `size=`.
#[test]
fn ruby_setter_is_renamed_with_its_assignments() {
    let src = "class Logger\n  def level=(v)\n    @level = v\n  end\n\n  def level\n    @level\n  end\n\n  def reset\n    self.level = 0\n    send(:level=, 1)\n  end\nend\n\nl = Logger.new\nl.level = 3\na, l.level = 1, 2\nputs l.level\n";
    let want = src
        .replace("def level=", "def size=")
        .replace("self.level =", "self.size =")
        .replace(":level=", ":size=")
        .replace("l.level = 3", "l.size = 3")
        .replace("a, l.level", "a, l.size");
    for new in ["size=", "size"] {
        let env = TestEnv::new();
        env.write("l.rb", src);
        let (v, code) = env.rename_at("l.rb", "Logger::level=", "2", new);
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("l.rb"), want, "--rename {new}");
        // …and back, byte for byte.
        let (v, code) = env.rename_at("l.rb", "Logger::size=", "2", "level=");
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text("l.rb"), src);
    }
}

/// A definition local to a function takes a name the file defines at its top level: it
/// shadows that one where it is seen (refused `PATCH_E009`, "already defined", so that the
/// rename back of a local named like a module-level function failed). A use of the top-level
/// name where the local is seen would be captured: still refused.
#[test]
fn a_local_definition_may_shadow_a_top_level_one() {
    let py = "def wrapper():\n    return -1\n\n\ndef make(n):\n    def inner():\n        return n\n    return inner\n";
    let rs = "struct D;\n\nfn f() -> u8 {\n    struct E(u8);\n    let e = E(1);\n    e.0\n}\n";
    for (file, src, symbol, line, old, new) in [
        ("n.py", py, "make.inner", "6", "inner", "wrapper"),
        ("d.rs", rs, "f::E", "4", "E", "D"),
    ] {
        let env = TestEnv::new();
        env.write(file, src);
        let (v, code) = env.rename_at(file, symbol, line, new);
        assert_eq!(code, 0, "{v}");
        assert_eq!(env.text(file), src.replace(old, new));
        let used = match file {
            "n.py" => src.replace("    return inner", "    wrapper()\n    return inner"),
            _ => src.replace("    let e", "    let _d = D;\n    let e"),
        };
        let env = TestEnv::new();
        env.write(file, &used);
        let (v, code) = env.rename_at(file, symbol, line, new);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
        assert_eq!(env.text(file), used);
    }
}

/// C: a struct, union or enum tag is a name space of its own (`struct stat` beside `int
/// stat(…)`, as in <sys/stat.h>): renaming a function onto a tag's name was refused
/// `PATCH_E009`. Another tag of the name still takes it.
#[test]
fn c_struct_tag_and_function_share_a_name() {
    let src = "struct stat {\n    int size;\n};\n\nint statx(struct stat *s) {\n    return s->size;\n}\n\nint main(void) {\n    struct stat s = {1};\n    return statx(&s);\n}\n";
    let env = TestEnv::new();
    env.write("s.c", src);
    let (v, code) = env.rename_at("s.c", "statx", "5", "stat");
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        env.text("s.c"),
        src.replace("int statx", "int stat")
            .replace("statx(&s)", "stat(&s)")
    );
    let tags = "struct stat { int a; };\nstruct other { int b; };\n";
    let env = TestEnv::new();
    env.write("t.c", tags);
    let (v, code) = env.rename_at("t.c", "other", "2", "stat");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
}

/// Ruby: a singleton method (`def self.h`) and an instance method (`def g`) of one class are
/// two methods, called `A.g` and `A.new.g`: renaming one onto the other's name was refused
/// `PATCH_E009`. Two instance methods still clash.
#[test]
fn ruby_singleton_method_may_take_an_instance_methods_name() {
    let src = "class A\n  def g\n    1\n  end\n\n  def self.h\n    2\n  end\n\n  def k\n    3\n  end\nend\n\nA.h\nA.new.g\n";
    let env = TestEnv::new();
    env.write("r.rb", src);
    let (v, code) = env.rename_at("r.rb", "A::h", "6", "g");
    assert_eq!(code, 0, "{v}");
    let want = src.replace("self.h", "self.g").replace("A.h\n", "A.g\n");
    assert_eq!(env.text("r.rb"), want);
    // …and back.
    let (v, code) = env.rename_at("r.rb", "A::g", "6", "h");
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("r.rb"), src);
    let (v, code) = env.rename_at("r.rb", "A::k", "10", "g");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E009", "{v}");
}

/// Bash: a function defined as the first command of an `&&` list whose other commands only
/// name it (`_f() { …; } && complete -F _f cmd`, bash-completion's style) goes with the list,
/// its comment too; deleted alone, `&& complete …` was left and the syntax gate refused it
/// (`LLM_E106`). A list with another command is refused, `PATCH_E011`, nothing written.
#[test]
fn bash_function_in_a_complete_list_goes_with_it() {
    let src = "#!/bin/bash\n# complete cmd\n_f() {\n    echo hi\n} && complete -F _f cmd && complete -F _f cmd2\n\ng() { :; }\n";
    let env = TestEnv::new();
    env.write("c.sh", src);
    let (v, code) = env.patch(&["--file", "c.sh", "--symbol", "_f", "--delete"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(env.text("c.sh"), "#!/bin/bash\ng() { :; }\n");
    let other = "_f() {\n    echo hi\n} && echo done\n";
    let env = TestEnv::new();
    env.write("o.sh", other);
    let (v, code) = env.patch(&["--file", "o.sh", "--symbol", "_f", "--delete"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["error"]["code"], "PATCH_E011", "{v}");
    assert_eq!(env.text("o.sh"), other);
}
