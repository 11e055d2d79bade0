//! Tests of the `cargo check` validator on small real crates built in temp dirs.

use super::*;
use crate::span::Span;

/// A crate named `demo` in a temp dir with the given files (`Cargo.toml` written for you).
fn krate(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"demo\" # the crate\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    )
    .unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The bytes a span covers, checked against the file independently of LineIndex.
fn covered(span: &Span, root: &Path, rel: &str) -> String {
    let bytes = std::fs::read(root.join(rel)).unwrap();
    let text = &bytes[span.byte_start..span.byte_end];
    let before = &bytes[..span.byte_start];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = span.byte_start
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    assert_eq!((span.start_line, span.start_col), (line, col), "{span:?}");
    assert_eq!(
        span.span_id,
        crate::span::span_id(&span.file_path, span.byte_start, span.byte_end)
    );
    String::from_utf8(text.to_vec()).unwrap()
}

#[test]
fn type_error_is_found_with_its_span() {
    // BOM, CRLF and multibyte text before the error: rustc's offsets must still land on `"x"`.
    let src = "\u{feff}// é – ünïcode\r\npub fn f() -> i32 {\r\n    let _s = \"😀\";\r\n    \"x\"\r\n}\r\n";
    let dir = krate(&[("src/lib.rs", src.as_bytes())]);
    let file = dir.path().join("src/lib.rs");
    let report = check_file(&file, &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Failed, "{report:#?}");
    assert_eq!(report.name, NAME);
    assert!(report.version.as_deref().unwrap().starts_with("cargo "));
    let errors: Vec<_> = report.errors().collect();
    assert_eq!(errors.len(), 1, "deduplicated across targets: {errors:#?}");
    let e = errors[0];
    assert_eq!(e.code.as_deref(), Some("E0308"));
    assert_eq!(e.tool, "cargo");
    assert_eq!(e.message, "mismatched types");
    assert!(
        e.note.as_deref().unwrap().contains("expected `i32`"),
        "{e:?}"
    );
    assert!(e.remediation.is_some());
    let span = e.span.as_ref().unwrap();
    assert_eq!(e.file.as_deref(), Some(span.file_path.as_str()));
    assert_eq!(span.file_path, display_path(&file));
    assert_eq!(covered(span, dir.path(), "src/lib.rs"), "\"x\"");
    assert_eq!((span.start_line, span.start_col, span.end_col), (4, 4, 7));
}

#[test]
fn clean_crate_passes_and_unused_variable_is_only_a_warning() {
    let dir = krate(&[(
        "src/main.rs",
        b"fn main() {\n    let unused = 1;\n    println!(\"hi\");\n}\n",
    )]);
    let report = check_file(&dir.path().join("src/main.rs"), &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Passed, "{report:#?}");
    assert_eq!(report.errors().count(), 0);
    let w = &report.diagnostics[0];
    assert_eq!(w.level, Level::Warning);
    assert_eq!(w.code.as_deref(), Some("unused_variables"));
    assert_eq!(
        covered(w.span.as_ref().unwrap(), dir.path(), "src/main.rs"),
        "unused"
    );

    std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    let report = check_file(&dir.path().join("src/main.rs"), &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Passed);
    assert!(report.diagnostics.is_empty(), "{report:#?}");
}

#[test]
fn a_file_no_mod_reaches_is_flagged_not_passed_silently() {
    let dir = krate(&[
        ("src/lib.rs", b"pub fn f() {}\n"),
        ("src/orphan.rs", b"pub fn g() -> i32 { \"not checked\" }\n"),
    ]);
    let report = check_file(&dir.path().join("src/orphan.rs"), &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Skipped, "{report:#?}");
    let w = &report.diagnostics[0];
    assert_eq!(
        (w.level, w.code.as_deref(), w.tool.as_str()),
        (Level::Warning, Some("CHECK_E004"), "cargo")
    );
    // The same check for a file that is compiled adds nothing.
    let report = check_file(&dir.path().join("src/lib.rs"), &CargoOptions::default());
    assert!(report.diagnostics.is_empty(), "{report:#?}");
}

#[test]
fn outside_a_package_is_skipped_and_missing_cargo_is_not_available() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("loose.rs");
    std::fs::write(&file, "fn main() {}\n").unwrap();
    let report = check_file(&file, &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Skipped);
    assert_eq!(report.diagnostics[0].level, Level::Warning);
    assert_eq!(report.diagnostics[0].code.as_deref(), Some("CHECK_E004"));

    let dir = krate(&[("src/lib.rs", b"")]);
    let opts = CargoOptions {
        program: "llm-test-no-such-cargo".into(),
        ..CargoOptions::default()
    };
    let report = check_file(&dir.path().join("src/lib.rs"), &opts);
    assert_eq!(report.verdict, Verdict::NotAvailable);
    let d = &report.diagnostics[0];
    assert_eq!(
        (d.level, d.code.as_deref()),
        (Level::Error, Some("CHECK_E001"))
    );
    assert!(d.remediation.as_deref().unwrap().contains("rustup"));
}

#[test]
fn broken_manifest_is_a_checker_error_not_a_pass() {
    let dir = krate(&[("src/lib.rs", b"")]);
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[dependencies]\nnope = { path = \"missing\" }\n",
    )
    .unwrap();
    let report = check_file(&dir.path().join("src/lib.rs"), &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Error, "{report:#?}");
    let d = &report.diagnostics[0];
    assert_eq!(d.code.as_deref(), Some("CHECK_E003"));
    assert!(d.note.as_deref().unwrap().contains("missing"), "{d:?}");
}

#[test]
fn workspace_member_errors_map_to_the_member_file() {
    let dir = tempfile::tempdir().unwrap();
    let w = |rel: &str, text: &str| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/a\"]\nresolver = \"2\"\n",
    );
    w(
        "crates/a/Cargo.toml",
        "[package]\nname = \"a\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    w("crates/a/src/lib.rs", "mod m;\n");
    w("crates/a/src/m.rs", "fn g() -> u8 { missing_name }\n");
    let file = dir.path().join("crates/a/src/m.rs");
    let pkg = find_package(&file).unwrap();
    assert_eq!(pkg.name.as_deref(), Some("a"));
    assert_eq!(pkg.dir, dir.path().join("crates/a"));
    assert_eq!(pkg.workspace_root, dir.path());
    let report = check(&pkg, Some(&file), &CargoOptions::default());
    assert_eq!(report.verdict, Verdict::Failed, "{report:#?}");
    let e = report.errors().next().unwrap();
    assert_eq!(e.code.as_deref(), Some("E0425"));
    assert_eq!(
        covered(e.span.as_ref().unwrap(), dir.path(), "crates/a/src/m.rs"),
        "missing_name"
    );
    // A file of the virtual workspace itself belongs to no package.
    assert!(find_package(&dir.path().join("tools/x.rs")).is_none());
}

#[test]
fn manifest_scan() {
    let m = Manifest::scan("# c\n[package] # x\nname = \"p\"\n[workspace]\n");
    assert!(m.package && m.workspace);
    assert_eq!(m.name.as_deref(), Some("p"));
    let m = Manifest::scan("[workspace.package]\nname = \"no\"\n");
    assert!(!m.package && !m.workspace && m.name.is_none());
}

#[test]
fn dep_info_of_libraries_and_build_scripts() {
    let t = tempfile::tempdir().unwrap();
    let deps = t.path().join("deps");
    let build = t.path().join("build/demo-1a2b");
    std::fs::create_dir_all(&deps).unwrap();
    std::fs::create_dir_all(&build).unwrap();
    for f in [
        deps.join("demo-abc.d"),
        build.join("build_script_build-1a2b.d"),
    ] {
        std::fs::write(f, "").unwrap();
    }
    let rmeta = deps.join("libdemo-abc.rmeta");
    assert_eq!(
        dep_info_of(rmeta.to_str().unwrap(), "demo"),
        vec![deps.join("demo-abc.d")]
    );
    let script = build.join("build-script-build");
    assert_eq!(
        dep_info_of(script.to_str().unwrap(), "build-script-build"),
        vec![build.join("build_script_build-1a2b.d")]
    );
    assert!(dep_info_of(deps.join("libother-x.rmeta").to_str().unwrap(), "other").is_empty());
}
