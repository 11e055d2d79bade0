//! Tests of `gcc`/`g++ -fsyntax-only`, run for real (skipped loudly outside CI when missing).

use super::*;
use crate::check::{covered, have, Verdict};

const T: Duration = Duration::from_secs(60);

#[test]
fn c_errors_have_byte_columns_and_warnings_do_not_fail() {
    if !have("gcc", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.c");
    let text = "#include <stdio.h>\nint f(void) {\n\tconst char *s = \"é\"; int x = s;\n\treturn missing + x;\n}\n";
    let r = check(false, text.as_bytes(), &path, "src/a.c", T);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let e = r.errors().next().unwrap();
    assert_eq!(
        (e.tool.as_str(), e.file.as_deref()),
        ("gcc", Some("src/a.c"))
    );
    assert_eq!(covered(text, e), "missing");
    let w = r
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Warning)
        .unwrap();
    assert_eq!(w.code.as_deref(), Some("-Wint-conversion"));
    assert_eq!(covered(text, w), "s");
    assert!(r.version.as_deref().unwrap().starts_with("gcc "), "{r:?}");
    let ok = check(false, b"int g(void) { return 1; }\n", &path, "a.c", T);
    assert_eq!(ok.verdict, Verdict::Passed, "{ok:#?}");
}

#[test]
fn cpp_uses_the_compile_commands_flags_and_the_files_own_directory() {
    if !have("g++", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("include/lib")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("include/lib/api.hpp"),
        "namespace lib { int api(); }\n",
    )
    .unwrap();
    std::fs::write(root.join("src/local.hpp"), "#define LOCAL 1\n").unwrap();
    let text = "#include \"lib/api.hpp\"\n#include \"local.hpp\"\n#ifndef FEATURE\n#error FEATURE missing\n#endif\nint main() { return lib::api() + LOCAL; }\n";
    let file = root.join("src/main.cpp");
    // Without the database: the include path and the macro are missing.
    let r = check(true, text.as_bytes(), &file, "src/main.cpp", T);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let db = serde_json::json!([{
        "directory": root.join("build"),
        "file": "../src/main.cpp",
        "command": "/usr/bin/c++ -I../include -DFEATURE=1 -std=c++17 -O2 -o main.o -c ../src/main.cpp",
    }]);
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::write(root.join("build/compile_commands.json"), db.to_string()).unwrap();
    let r = check(true, text.as_bytes(), &file, "src/main.cpp", T);
    assert_eq!(r.verdict, Verdict::Passed, "{r:#?}");
    let bad = text.replace("+ LOCAL", "+ LOCAL +");
    let r = check(true, bad.as_bytes(), &file, "src/main.cpp", T);
    let e = r.errors().next().expect("an error");
    assert!(
        e.note.as_deref().unwrap().contains("compile_commands.json"),
        "{e:?}"
    );
    assert_eq!(e.span.as_ref().unwrap().start_line, 6);
}

#[test]
fn flags_keep_what_shapes_parsing() {
    let args: Vec<String> = "cc -I inc -Iother -D X=1 -DY -std=c11 -O2 -g -Wall -fno-common -fdiagnostics-color=always -MD -MF x.d -o x.o -c x.c -include pre.h"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(
        parse_flags(&args),
        [
            "-I",
            "inc",
            "-Iother",
            "-D",
            "X=1",
            "-DY",
            "-std=c11",
            "-fno-common",
            "-include",
            "pre.h"
        ]
    );
}

#[test]
fn missing_compiler_is_not_available() {
    let r = check_with(
        false,
        OsStr::new("llm-test-no-such-gcc"),
        b"int x;\n",
        Path::new("a.c"),
        "a.c",
        T,
    );
    assert_eq!(r.verdict, Verdict::NotAvailable);
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
}

/// A database whose `directory` is relative (`"."`) is read from its own directory: it was
/// taken relative to wherever llm ran, never matched, and no flag was used.
#[test]
fn a_relative_directory_in_the_database_is_the_databases_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("compile_commands.json"),
        r#"[{"directory": ".", "command": "cc -I inc -DX=1 -c src/x.c", "file": "src/x.c"}]"#,
    )
    .unwrap();
    let e = compile_command(&root.join("src/x.c")).expect("the entry matches");
    assert_eq!(e.directory, normalize(root));
    assert_eq!(e.flags, ["-I", "inc", "-DX=1"]);
}
