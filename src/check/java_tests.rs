//! Tests of `javac` on one file, run for real (skipped loudly outside CI when missing).

use super::*;
use crate::check::{have, Verdict};
use crate::span::LineIndex;

const T: Duration = Duration::from_secs(120);

fn covered<'a>(text: &'a str, d: &DiagnosticPayload) -> &'a str {
    let s = d.span.as_ref().expect("span");
    let (line, col) = LineIndex::new(text.as_bytes()).position(s.byte_start);
    assert_eq!((s.start_line, s.start_col), (line, col));
    &text[s.byte_start..s.byte_end]
}

#[test]
fn errors_have_caret_columns_and_the_source_root_resolves_other_classes() {
    if !have("javac", "-version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("src/com/acme");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("Util.java"),
        "package com.acme;\npublic class Util { public static int one() { return 1; } }\n",
    )
    .unwrap();
    let file = pkg.join("App.java");
    let ok = "package com.acme;\n\npublic class App {\n\tint f() { return Util.one(); }\n}\n";
    let r = check(ok.as_bytes(), &file, "src/com/acme/App.java", T);
    assert_eq!(r.verdict, Verdict::Passed, "{r:#?}");
    assert!(r.version.as_deref().unwrap().starts_with("javac"), "{r:?}");
    assert!(!pkg.join("Util.class").exists() && !pkg.join("App.class").exists());

    let bad = "package com.acme;\n\npublic class App {\n\tString s = \"é\";\n\tint f() { return Util.two() + missing; }\n}\n";
    let r = check(bad.as_bytes(), &file, "src/com/acme/App.java", T);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let spans: Vec<&str> = r.errors().map(|d| covered(bad, d)).collect();
    assert_eq!(spans, ["two", "missing"], "{r:#?}");
    let d = r.errors().next().unwrap();
    assert_eq!(d.message, "cannot find symbol");
    assert!(d.note.as_deref().unwrap().contains("symbol:"), "{d:?}");
}

#[test]
fn missing_javac_is_not_available() {
    let r = check_with(
        OsStr::new("llm-test-no-such-javac"),
        b"class A {}\n",
        Path::new("A.java"),
        "A.java",
        T,
    );
    assert_eq!(r.verdict, Verdict::NotAvailable);
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
}
