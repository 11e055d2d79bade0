//! Tests of `tsc --noEmit` on small real projects (skipped loudly outside CI when missing).

use super::*;
use crate::check::have;

const T: Duration = Duration::from_secs(180);

#[test]
fn type_errors_map_to_files_and_files_outside_the_program_are_skipped() {
    if !have("tsc", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("tsconfig.json"),
        r#"{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}"#,
    )
    .unwrap();
    let text = "const s: string = \"😀\";\nexport const n: number = s;\n";
    std::fs::write(root.join("src/a.ts"), text).unwrap();
    std::fs::write(root.join("loose.ts"), "export const x: number = 1;\n").unwrap();
    let r = check_project(root, Some(&root.join("src/a.ts")), T);
    assert_eq!(r.verdict, Verdict::Failed, "{r:#?}");
    let d = r.errors().next().unwrap();
    assert_eq!(d.code.as_deref(), Some("TS2322"));
    let s = d.span.as_ref().unwrap();
    assert_eq!((s.start_line, &text[s.byte_start..s.byte_end]), (2, "n"));
    assert!(d.file.as_deref().unwrap().ends_with("src/a.ts"), "{d:?}");
    assert!(
        r.version.as_deref().unwrap().starts_with("Version"),
        "{r:?}"
    );

    std::fs::write(root.join("src/a.ts"), "export const n: number = 1;\n").unwrap();
    let r = check_project(root, Some(&root.join("src/a.ts")), T);
    assert_eq!(r.verdict, Verdict::Passed, "{r:#?}");
    let r = check_project(root, Some(&root.join("loose.ts")), T);
    assert_eq!(r.verdict, Verdict::Skipped, "{r:#?}");
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E004"));
}

#[test]
fn no_tsconfig_is_skipped_and_missing_tsc_is_not_available() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.ts");
    std::fs::write(&file, "let x = 1;\n").unwrap();
    let r = check(&file, "a.ts", T);
    assert_eq!(r.verdict, Verdict::Skipped, "{r:#?}");
    assert!(r.diagnostics[0].message.contains("tsconfig.json"));
    let r = check_with(OsStr::new("llm-test-no-such-tsc"), dir.path(), None, T);
    assert_eq!(r.verdict, Verdict::NotAvailable);
    assert_eq!(r.diagnostics[0].code.as_deref(), Some("CHECK_E001"));
}

#[test]
fn message_lines() {
    let (file, at, level, code, msg) =
        message("src/a.ts(3,15): error TS2322: Type 'x' is not assignable.").unwrap();
    assert_eq!(
        (file, at.line, level, code.as_str(), msg.as_str()),
        (
            "src/a.ts",
            3,
            Level::Error,
            "TS2322",
            "Type 'x' is not assignable."
        )
    );
    assert_eq!(at.col.unwrap().0, 15);
    assert!(message("/usr/lib/node_modules/typescript/lib/lib.d.ts").is_none());
}
