//! `llm patch --rename` and `--delete` that were refused where the edit was sound. Found by an
//! invariant run (round 5: rename, check the file, rename back); each was refused with a code
//! and nothing written, but no rule stood against it.

use crate::util::TestEnv;

fn text(env: &TestEnv, file: &str) -> String {
    String::from_utf8(env.read(file)).unwrap()
}

/// Renames `symbol` at `line` of `file` to `new`; returns the envelope and the exit code.
fn rename(
    env: &TestEnv,
    file: &str,
    symbol: &str,
    line: &str,
    new: &str,
) -> (serde_json::Value, i32) {
    env.patch(&[
        "--file", file, "--symbol", symbol, "--line", line, "--rename", new, "--in", file,
    ])
}

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
        let (v, code) = rename(&env, "l.rb", "Logger::level=", "2", new);
        assert_eq!(code, 0, "{v}");
        assert_eq!(text(&env, "l.rb"), want, "--rename {new}");
        // …and back, byte for byte.
        let (v, code) = rename(&env, "l.rb", "Logger::size=", "2", "level=");
        assert_eq!(code, 0, "{v}");
        assert_eq!(text(&env, "l.rb"), src);
    }
}
