//! Tests of the one-file syntax checkers, each run for real on a temporary copy (skipped with a
//! loud message when the tool is missing outside CI; failing under CI).

use super::*;
use crate::check::{covered, have, Verdict};

const T: Duration = Duration::from_secs(60);

fn run(which: Checker, file: &str, text: &str) -> ValidatorReport {
    check(which, text.as_bytes(), Path::new(file), file, T)
}

fn first_error(r: &ValidatorReport) -> &DiagnosticPayload {
    r.errors()
        .next()
        .unwrap_or_else(|| panic!("no error in {r:#?}"))
}

#[test]
fn bash_syntax_error_covers_its_line_and_valid_scripts_pass() {
    if !have("bash", "--version") {
        return;
    }
    let ok = run(
        Checker::Bash,
        "ok.sh",
        "#!/bin/sh\nf() {\n  echo \"é $1\"\n}\nf x\n",
    );
    assert_eq!(ok.verdict, Verdict::Passed, "{ok:#?}");
    assert!(ok.version.as_deref().unwrap().contains("bash"), "{ok:?}");
    assert_eq!(ok.name, "bash -n");
    let text = "f() {\n  echo \"é\"\n  if true; then\n\t}\n";
    let r = run(Checker::Bash, "dir/bad.sh", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(
        (d.tool.as_str(), d.file.as_deref()),
        ("bash", Some("dir/bad.sh"))
    );
    assert!(d.message.contains("syntax error"), "{d:?}");
    assert_eq!(covered(text, d), "}");
    assert_eq!(d.span.as_ref().unwrap().start_line, 4);
    assert_eq!(r.diagnostics.len(), 1, "the echoed line is a note: {r:#?}");
    let zsh = run(Checker::Bash, "z", "#!/usr/bin/env zsh\nprint ${(U)x}\n");
    assert_eq!(zsh.verdict, Verdict::Skipped, "{zsh:#?}");
}

#[test]
fn ruby_errors_have_caret_columns_and_warnings_do_not_fail() {
    if !have("ruby", "--version") {
        return;
    }
    let text = "def f\n  a = 1\nend\nputs(\"é\", 1 if true)\n";
    let r = run(Checker::Ruby, "lib/x.rb", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(covered(text, d), "if");
    assert!(d.message.contains("syntax error"), "{d:?}");
    let w = r
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Warning)
        .expect("warning");
    assert!(w.message.contains("unused variable"), "{w:?}");
    assert_eq!(w.span.as_ref().unwrap().start_line, 2);

    let warn_only = run(Checker::Ruby, "w.rb", "def f\n  a = 1\nend\n");
    assert_eq!(warn_only.verdict, Verdict::Passed, "{warn_only:#?}");
    assert_eq!(warn_only.diagnostics[0].level, Level::Warning);
    let unclosed = run(Checker::Ruby, "Rakefile", "task :x do\n  puts 1\n");
    assert_eq!(unclosed.verdict, Verdict::Failed, "{unclosed:#?}");
}

#[test]
fn php_parse_error_is_on_its_line() {
    if !have("php", "-v") {
        return;
    }
    let text = "<?php\nfunction f() {\n  $s = 'é';\n  $x = ;\n}\n";
    let r = run(Checker::Php, "src/A.php", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(d.code.as_deref(), Some("Parse error"));
    assert!(d.message.contains("unexpected token \";\""), "{d:?}");
    assert_eq!(covered(text, d), "$x = ;");
    let ok = run(
        Checker::Php,
        "ok.php",
        "<?php\nclass A { public function g(): int { return 1; } }\n",
    );
    assert_eq!(ok.verdict, Verdict::Passed, "{ok:#?}");
    assert!(ok.version.as_deref().unwrap().starts_with("PHP"), "{ok:?}");
}

#[test]
fn node_checks_scripts_and_modules_as_node_would_load_them() {
    if !have("node", "--version") {
        return;
    }
    let text = "const s = \"😀é\";\nfunction f( {\n  return 1;\n}\n";
    let r = run(Checker::Node, "a.js", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(d.code.as_deref(), Some("SyntaxError"));
    assert_eq!(covered(text, d), "1");
    // An ES module with a syntax error: Node 20's own guess would pass it.
    let text = "import x from \"y\";\nexport const a = x;\nconst b = ;\n";
    let r = run(Checker::Node, "m.js", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(
        (covered(text, d), d.span.as_ref().unwrap().start_line),
        (";", 3)
    );
    for (file, text) in [
        ("ok.js", "import x from \"y\";\nexport const a = x;\n"),
        ("ok.cjs", "module.exports = { a: 1 };\n"),
        ("ok.mjs", "export default 1;\n"),
    ] {
        let r = run(Checker::Node, file, text);
        assert_eq!(r.verdict, Verdict::Passed, "{file}: {r:#?}");
    }
    // `.mjs` is a module: `with` is a syntax error there, not in a script.
    assert_eq!(
        run(Checker::Node, "w.mjs", "with (o) {}\n").verdict,
        Verdict::Failed
    );
    assert_eq!(
        run(Checker::Node, "w.js", "with (o) {}\n").verdict,
        Verdict::Passed
    );
    // A package.json's "type" says what a .js is: "module" makes it a module (no `with`);
    // "commonjs" a script, where ES module syntax fails, as in Node (the module mode tried
    // after the script one passed it).
    let dir = tempfile::tempdir().unwrap();
    for (kind, text) in [
        ("module", "with (o) {}\n"),
        ("commonjs", "import x from \"y\";\n"),
    ] {
        let package = format!(r#"{{"type": "{kind}"}}"#);
        std::fs::write(dir.path().join("package.json"), package).unwrap();
        let r = check(
            Checker::Node,
            text.as_bytes(),
            &dir.path().join("w.js"),
            "w.js",
            T,
        );
        assert_eq!(r.verdict, Verdict::Failed, "{kind}: {r:#?}");
    }
    let jsx = run(Checker::Node, "c.jsx", "const a = <div/>;\n");
    assert_eq!(jsx.verdict, Verdict::Skipped);
}

#[test]
fn gofmt_errors_have_byte_columns_without_repeats() {
    if !have("gofmt", "-h") {
        return;
    }
    let text = "package main\n\nfunc main() {\n\tx := \"é\" + )\n}\n";
    let r = run(Checker::Gofmt, "cmd/main.go", text);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = first_error(&r);
    assert_eq!(covered(text, d), ")");
    assert_eq!(d.span.as_ref().unwrap().start_line, 4);
    let msgs: Vec<_> = r
        .diagnostics
        .iter()
        .map(|d| (&d.message, &d.span))
        .collect();
    let mut unique = msgs.clone();
    unique.dedup();
    assert_eq!(msgs.len(), unique.len(), "{r:#?}");
    let ok = run(
        Checker::Gofmt,
        "ok.go",
        "package p\n\nfunc F() int {\n\treturn 1\n}\n",
    );
    assert_eq!(ok.verdict, Verdict::Passed, "{ok:#?}");
}

#[test]
fn missing_tools_are_not_available_never_a_pass() {
    for which in [
        Checker::Bash,
        Checker::Ruby,
        Checker::Php,
        Checker::Node,
        Checker::Gofmt,
    ] {
        let r = check_with(
            which,
            OsStr::new("llm-test-no-such-tool"),
            b"x\n",
            Path::new("f"),
            "f",
            T,
        );
        assert_eq!(r.verdict, Verdict::NotAvailable, "{which:?}");
        let d = &r.diagnostics[0];
        assert_eq!(
            (d.level, d.code.as_deref()),
            (Level::Error, Some("CHECK_E001"))
        );
        assert!(
            d.remediation.as_deref().unwrap().contains("install"),
            "{d:?}"
        );
    }
}

#[test]
fn a_tool_that_fails_without_a_message_is_an_error_and_one_that_hangs_times_out() {
    // `false` exits 1 and prints nothing.
    let r = check_with(
        Checker::Bash,
        OsStr::new("false"),
        b"x\n",
        Path::new("f.sh"),
        "f.sh",
        T,
    );
    assert_eq!(r.verdict, Verdict::Error, "{r:#?}");
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E003"));
    let dir = tempfile::tempdir().unwrap();
    let slow = dir.path().join("slow");
    std::fs::write(&slow, "#!/bin/sh\nsleep 30\n").unwrap();
    std::fs::set_permissions(&slow, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let r = check_with(
        Checker::Ruby,
        slow.as_os_str(),
        b"x\n",
        Path::new("f.rb"),
        "f.rb",
        Duration::from_millis(300),
    );
    assert_eq!(r.verdict, Verdict::TimedOut, "{r:#?}");
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E002"));
}

#[test]
fn a_file_named_like_an_option_is_still_checked() {
    if !have("bash", "--version") {
        return;
    }
    let r = run(Checker::Bash, "-n.sh", "if true; then\n");
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    assert_eq!(r.diagnostics[0].file.as_deref(), Some("-n.sh"));
}
