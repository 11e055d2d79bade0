//! `llm write` decides the language from the text it writes where the path leaves it open: a
//! `.h` holding C++ (new, or overwriting a C header), an extensionless file's `#!` line.

use crate::util::TestEnv;
use serde_json::Value;

/// A C++ header as editors leave them: BOM, CRLF, tabs, a multibyte comment, no final newline.
const CPP_HEADER: &str = "\u{feff}// Géométrie — formes\r\n#pragma once\r\nnamespace geom {\r\n\r\nclass Shape {\r\npublic:\r\n\tvirtual ~Shape() = default;\r\n\tvirtual double area() const = 0;\r\n};\r\n\r\ntemplate <typename T>\r\nT twice(T x) { return x + x; }\r\n\r\n}  // namespace geom";

/// True when `program` runs; under CI (`CI` set) a missing tool fails the test, elsewhere it is
/// skipped with a loud message.
fn have(program: &str) -> bool {
    let ok = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "`{program}` is not installed; `.ci/run` installs every checker the tests need"
        );
        eprintln!("SKIPPED: `{program}` is not installed (CI would fail here)");
    }
    ok
}

fn verdicts(v: &Value) -> Vec<(String, String)> {
    v["result"]["validators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (s("name"), s("verdict"))
        })
        .collect()
}

#[test]
fn a_new_header_holding_cpp_is_validated_as_cpp() {
    let env = TestEnv::new();
    let (v, code) = env.json(&[
        "write",
        "include/geom/shape.h",
        "--parents",
        "--json",
        "--content",
        CPP_HEADER,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["result"]["language"], "cpp", "{v:#}");
    assert_eq!(v["result"]["diagnostics"], serde_json::json!([]), "{v:#}");
    assert_eq!(env.read("include/geom/shape.h"), CPP_HEADER.as_bytes());
    // The written file is read as C++ from then on.
    let (v, _) = env.json(&["find", "--json", "--outline", "include/geom/shape.h"]);
    assert_eq!(v["data"]["matches"][0]["qualified_name"], "geom", "{v:#}");

    // A header of plain C stays C, and a C++ syntax error in a new header is still caught.
    let c = "#ifndef A_H\n#define A_H\nstruct point { int x, y; };\nint norm(struct point p);\n#endif\n";
    let (v, code) = env.json(&["write", "a.h", "--json", "--content", c]);
    assert_eq!((code, &v["result"]["language"]), (0, &"c".into()), "{v:#}");
    let broken = "namespace n {\nclass A {\n  int f( {\n};\n}\n";
    let (v, code) = env.json(&["write", "b.h", "--json", "--content", broken]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["result"]["language"], "cpp", "{v:#}");
    assert!(!env.path().join("b.h").exists());
}

#[test]
fn overwriting_a_c_header_with_cpp_reads_the_new_text() {
    let env = TestEnv::new();
    env.write("api.h", "int api_version(void);\n");
    let (v, code) = env.json(&[
        "write",
        "api.h",
        "--overwrite",
        "--json",
        "--content",
        CPP_HEADER,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["result"]["language"], "cpp", "{v:#}");
    assert_eq!(env.read("api.h"), CPP_HEADER.as_bytes());
}

#[test]
fn a_new_extensionless_script_takes_its_shebangs_language() {
    let env = TestEnv::new();
    let script =
        "#!/usr/bin/env bash\r\nset -eu\r\nmain() {\r\n\techo \"héllo\"\r\n}\r\nmain \"$@\"\r\n";
    let (v, code) = env.json(&[
        "write",
        "bin/run",
        "--parents",
        "--json",
        "--content",
        script,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["result"]["language"], "bash", "{v:#}");
    // Its syntax is checked as bash: an unclosed `if` is rejected.
    let bad = "#!/bin/sh\nif true; then\n  echo x\n";
    let (v, code) = env.json(&["write", "bin/bad", "--json", "--content", bad]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["result"]["language"], "bash", "{v:#}");
    assert!(!env.path().join("bin/bad").exists());
}

#[test]
fn check_runs_gxx_on_a_new_cpp_header() {
    if !have("g++") {
        return;
    }
    let env = TestEnv::new();
    let (v, code) = env.json(&[
        "write",
        "shape.h",
        "--check",
        "--json",
        "--content",
        CPP_HEADER,
    ]);
    assert_eq!(code, 0, "{v:#}");
    assert!(
        verdicts(&v).contains(&("g++ -fsyntax-only".into(), "passed".into())),
        "{v:#}"
    );
    // A type error only the compiler sees: rejected by g++, nothing written.
    let bad = "namespace n {\nclass A {\n  int f() { return undeclared_name; }\n};\n}\n";
    let (v, code) = env.json(&["write", "bad.h", "--check", "--json", "--content", bad]);
    assert_eq!(code, 1, "{v:#}");
    assert!(
        verdicts(&v).contains(&("g++ -fsyntax-only".into(), "failed".into())),
        "{v:#}"
    );
    assert!(!env.path().join("bad.h").exists());
}
