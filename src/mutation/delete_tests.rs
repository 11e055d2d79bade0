//! Unit tests of `Content::Delete` and moves (delete + create) in the mutation core.

use super::*;
use std::path::Path;

fn opts(root: &Path, dry_run: bool) -> MutationOptions {
    MutationOptions {
        root: root.to_path_buf(),
        allow_outside_root: false,
        dry_run,
        force: false,
        match_line_endings: true,
        tool: "apply",
    }
}

#[test]
fn delete_removes_and_reports() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.rs");
    std::fs::write(&p, "fn a() {}\n").unwrap();
    let (r, _) = run(&[Change::delete(&p, None)], &opts(d.path(), false)).unwrap();
    assert!(!p.exists());
    assert!(r.files[0].deleted);
    assert_eq!(r.files[0].lines_removed, 1);
    assert_eq!(r.files[0].after_checksum, "");
}

#[test]
fn delete_of_a_missing_file_or_outside_the_root_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let e = prepare(
        &[Change::delete(d.path().join("nope"), None)],
        &opts(d.path(), false),
    );
    assert_eq!(e.err().unwrap().code, Code::PathNotFound);
    let outside = tempfile::NamedTempFile::new().unwrap();
    let e = prepare(
        &[Change::delete(outside.path(), None)],
        &opts(d.path(), false),
    );
    assert_eq!(e.err().unwrap().code, Code::OutsideRoot);
    assert!(outside.path().exists());
}

#[test]
fn delete_checks_the_expected_checksum_and_dry_run_keeps_the_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.txt");
    std::fs::write(&p, "x\n").unwrap();
    let e = prepare(
        &[Change::delete(&p, Some("0".repeat(64)))],
        &opts(d.path(), false),
    );
    assert_eq!(e.err().unwrap().code, Code::ChecksumMismatch);
    let (r, _) = run(&[Change::delete(&p, None)], &opts(d.path(), true)).unwrap();
    assert!(p.exists());
    assert!(r.diff().contains("-x"), "{}", r.diff());
}

#[test]
fn failed_request_restores_a_deleted_file_with_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let gone = d.path().join("run.sh");
    std::fs::write(&gone, "echo 1\n").unwrap();
    std::fs::set_permissions(&gone, std::fs::Permissions::from_mode(0o750)).unwrap();
    let moved = d.path().join("bin.sh");
    let changes = [
        Change::delete(&gone, None),
        Change::create(&moved, b"echo 1\n".to_vec()),
    ];
    let prepared = prepare(&changes, &opts(d.path(), false)).unwrap();
    let committed = prepared.commit().unwrap();
    assert!(!gone.exists() && moved.exists());
    assert!(committed.rollback());
    assert_eq!(std::fs::read(&gone).unwrap(), b"echo 1\n");
    let mode = std::fs::metadata(&gone).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o750);
    assert!(!moved.exists());
}

#[test]
fn concurrent_change_of_a_file_to_delete_is_detected() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("a.txt");
    std::fs::write(&p, "x\n").unwrap();
    let prepared = prepare(&[Change::delete(&p, None)], &opts(d.path(), false)).unwrap();
    std::fs::write(&p, "y\n").unwrap();
    let e = prepared.commit().err().unwrap();
    assert_eq!(e.code, Code::ConcurrentModification);
    assert_eq!(std::fs::read(&p).unwrap(), b"y\n");
}
