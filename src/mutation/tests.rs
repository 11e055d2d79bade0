//! Unit tests of the mutation core on real files in temp directories.

use super::gate::reparse;
use super::*;

struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    fn new() -> Self {
        Dir {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn file(&self, name: &str, text: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
    fn opts(&self) -> MutationOptions {
        MutationOptions {
            root: self.dir.path().to_path_buf(),
            allow_outside_root: false,
            dry_run: false,
            force: false,
            match_line_endings: true,
            tool: "transform",
        }
    }
}

#[test]
fn edits_keep_crlf_and_bom() {
    let d = Dir::new();
    let p = d.file("a.txt", b"\xEF\xBB\xBFone\r\ntwo\r\n");
    let ins = Edit::new(8..8, "mid\nmore\n");
    run(&[Change::edits(&p, vec![ins], None)], &d.opts()).unwrap();
    assert_eq!(
        std::fs::read(&p).unwrap(),
        b"\xEF\xBB\xBFone\r\nmid\r\nmore\r\ntwo\r\n"
    );
}

#[test]
fn replace_keeps_bom_and_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    let p = d.file("run.sh", b"\xEF\xBB\xBFecho 1\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    let c = Change {
        path: p.clone(),
        content: Content::Replace(b"echo 2\n".to_vec()),
        expected_checksum: None,
        existence: Existence::Either,
        language: None,
        tree: None,
        origin: None,
    };
    run(&[c], &d.opts()).unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"\xEF\xBB\xBFecho 2\n");
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o755
    );
}

#[test]
fn checksum_mismatch_is_rejected_and_nothing_written() {
    let d = Dir::new();
    let p = d.file("a.txt", b"hello\n");
    let e = run(
        &[Change::edits(
            &p,
            vec![Edit::new(0..5, "bye")],
            Some("00".repeat(32)),
        )],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::ChecksumMismatch);
    assert_eq!(e.status(), crate::envelope::Status::Rejected);
    assert_eq!(std::fs::read(&p).unwrap(), b"hello\n");
    let ok = checksum(b"hello\n");
    run(
        &[Change::edits(&p, vec![Edit::new(0..5, "bye")], Some(ok))],
        &d.opts(),
    )
    .unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"bye\n");
}

#[test]
fn syntax_error_introduced_is_rejected_with_span() {
    let d = Dir::new();
    let p = d.file("lib.rs", b"fn a() -> i32 {\n    1\n}\n");
    let e = run(
        &[Change::edits(&p, vec![Edit::new(20..21, "1 +")], None)],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::SyntaxIntroduced);
    assert!(e.span.is_some() && !e.related.is_empty(), "{e:?}");
    assert_eq!(std::fs::read(&p).unwrap(), b"fn a() -> i32 {\n    1\n}\n");
    // --force writes and keeps the errors as warnings.
    let mut o = d.opts();
    o.force = true;
    let (_, warnings) = run(
        &[Change::edits(&p, vec![Edit::new(20..21, "1 +")], None)],
        &o,
    )
    .unwrap();
    assert!(warnings.iter().all(|w| w.level == Level::Warning) && !warnings.is_empty());
}

#[test]
fn preexisting_error_elsewhere_does_not_block() {
    let d = Dir::new();
    let src = b"def ok():\n    return 1\n\ndef broken(:\n    pass\n";
    let p = d.file("m.py", src);
    run(
        &[Change::edits(&p, vec![Edit::new(21..22, "2")], None)],
        &d.opts(),
    )
    .unwrap();
    assert!(std::fs::read(&p)
        .unwrap()
        .starts_with(b"def ok():\n    return 2\n"));
}

/// An edit that takes away the only old error and leaves a new one elsewhere (a Bash function
/// deleted, its `} &&` left dangling, tree-sitter's error at the file's end) is judged against
/// the errors that stay: none, so the new one is shown. (The counts were equal: 1 and 1.)
#[test]
fn an_old_error_taken_away_does_not_cover_a_new_one() {
    let before = b"int a() { x = ; }\nint b() {}\n";
    let after = b"int a() {}\nint b() { y = ; }\n";
    // A language without a region scanner: the whole file is judged.
    let c = crate::lang::by_name("c").unwrap();
    // The edit as the gate sees it: only `a`'s body (its error inside) was replaced.
    let placed = [edit::Placed {
        index: 0,
        old: 0..17,
        new: 0..10,
    }];
    let found = introduced_syntax_errors(c, before, None, after, &placed, false, "m.c", "t");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].span.as_ref().unwrap().start_line, 2);
}

#[test]
fn multi_file_all_or_nothing() {
    let d = Dir::new();
    let a = d.file("a.txt", b"aaa\n");
    let b = d.file("b.txt", b"bbb\n");
    let bad = Change::edits(&b, vec![Edit::new(0..9, "x")], None);
    let e = run(
        &[Change::edits(&a, vec![Edit::new(0..3, "AAA")], None), bad],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::EditOutOfRange);
    assert_eq!(std::fs::read(&a).unwrap(), b"aaa\n");
}

#[test]
fn symlink_is_written_through_and_stays_a_link() {
    let d = Dir::new();
    let target = d.file("real.txt", b"old\n");
    let link = d.dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    run(
        &[Change::edits(&link, vec![Edit::new(0..3, "new")], None)],
        &d.opts(),
    )
    .unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
}

#[test]
fn outside_root_and_escaping_symlinks_refused() {
    let d = Dir::new();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("v.txt");
    std::fs::write(&victim, b"keep\n").unwrap();
    let link = d.dir.path().join("esc.txt");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let e = run(
        &[Change::edits(&link, vec![Edit::new(0..4, "gone")], None)],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::OutsideRoot);
    let e = run(
        &[Change::edits(&victim, vec![Edit::new(0..4, "gone")], None)],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::OutsideRoot);
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep\n");
    let mut o = d.opts();
    o.allow_outside_root = true;
    run(
        &[Change::edits(&victim, vec![Edit::new(0..4, "gone")], None)],
        &o,
    )
    .unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"gone\n");
}

#[test]
fn hard_links_refused() {
    let d = Dir::new();
    let a = d.file("a.txt", b"x\n");
    std::fs::hard_link(&a, d.dir.path().join("b.txt")).unwrap();
    let e = run(
        &[Change::edits(&a, vec![Edit::new(0..1, "y")], None)],
        &d.opts(),
    )
    .unwrap_err();
    assert_eq!(e.code, Code::HardLinked);
    assert_eq!(std::fs::read(&a).unwrap(), b"x\n");
}

#[test]
fn dry_run_writes_nothing_and_diffs() {
    let d = Dir::new();
    let p = d.file("a.txt", b"one\ntwo\n");
    let mut o = d.opts();
    o.dry_run = true;
    let (r, _) = run(&[Change::edits(&p, vec![Edit::new(4..7, "2")], None)], &o).unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"one\ntwo\n");
    let diff = r.diff();
    assert!(diff.contains("-two") && diff.contains("+2"), "{diff}");
    assert_eq!((r.lines_added, r.lines_removed), (1, 1));
    assert_eq!(r.files[0].edits[0].span.byte_end, 5);
}

#[test]
fn concurrent_change_after_prepare_is_detected() {
    let d = Dir::new();
    let p = d.file("a.txt", b"v1\n");
    let prepared = prepare(
        &[Change::edits(&p, vec![Edit::new(0..2, "mine")], None)],
        &d.opts(),
    )
    .unwrap();
    std::fs::write(&p, b"theirs\n").unwrap();
    let e = prepared.commit().err().expect("must be rejected");
    assert_eq!(e.code, Code::ConcurrentModification);
    assert_eq!(std::fs::read(&p).unwrap(), b"theirs\n");
}

#[test]
fn rollback_restores_and_removes_created() {
    let d = Dir::new();
    let p = d.file("a.txt", b"old\n");
    let newf = d.dir.path().join("new.txt");
    let changes = [
        Change::edits(&p, vec![Edit::new(0..3, "new")], None),
        Change {
            path: newf.clone(),
            content: Content::Replace(b"hi\n".to_vec()),
            expected_checksum: None,
            existence: Existence::MustNotExist,
            language: None,
            tree: None,
            origin: None,
        },
    ];
    let committed = prepare(&changes, &d.opts()).unwrap().commit().unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new\n");
    assert!(newf.exists());
    assert!(committed.rollback());
    assert_eq!(std::fs::read(&p).unwrap(), b"old\n");
    assert!(!newf.exists());
}

#[test]
fn create_refuses_existing() {
    let d = Dir::new();
    let p = d.file("a.txt", b"x");
    let c = Change {
        path: p.clone(),
        content: Content::Replace(b"y".to_vec()),
        expected_checksum: None,
        existence: Existence::MustNotExist,
        language: None,
        tree: None,
        origin: None,
    };
    assert_eq!(run(&[c], &d.opts()).unwrap_err().code, Code::FileExists);
    // A created file reports the line ending it was written with.
    let c = Change {
        path: d.dir.path().join("new.txt"),
        content: Content::Replace(b"a\r\nb\r\n".to_vec()),
        expected_checksum: None,
        existence: Existence::MustNotExist,
        language: None,
        tree: None,
        origin: None,
    };
    let (r, _) = run(&[c], &d.opts()).unwrap();
    assert_eq!(r.files[0].line_ending, "crlf");
}

#[test]
fn incremental_reparse_agrees_with_full_parse() {
    let d = Dir::new();
    let src = b"fn a() -> i32 {\n    1\n}\n\nfn b() {}\n";
    let p = d.file("lib.rs", src);
    let rust = crate::lang::by_name("rust").unwrap();
    // A valid multi-line edit and an invalid one, each judged from the caller's tree.
    let ok = Change::edits(&p, vec![Edit::new(20..21, "let x = 2;\n    x")], None)
        .with_tree(rust.parse(src));
    let mut o = d.opts();
    o.dry_run = true;
    run(&[ok], &o).unwrap();
    let bad =
        Change::edits(&p, vec![Edit::new(25..34, "fn b( {}")], None).with_tree(rust.parse(src));
    assert_eq!(run(&[bad], &o).unwrap_err().code, Code::SyntaxIntroduced);
}

#[test]
fn reparse_tree_equals_full_parse() {
    let rust = crate::lang::by_name("rust").unwrap();
    let src: &[u8] =
        "fn a() -> i32 {\n    1\n}\n\n// é\nfn b() {}\nstruct S { x: u8 }\n".as_bytes();
    let cases: Vec<Vec<Edit>> = vec![
        vec![Edit::new(20..21, "let x = 2;\n    x")],
        vec![
            Edit::new(0..0, "use std::io;\n"),
            Edit::new(src.len()..src.len(), "\nfn c() {}\n"),
        ],
        vec![Edit::new(3..4, "alpha"), Edit::new(42..43, "beta\n")],
        vec![Edit::new(26..35, "")],
    ];
    for edits in cases {
        let applied = crate::edit::apply(src, &edits, "f").unwrap();
        let incremental = reparse(rust, src, &rust.parse(src), &applied.bytes, &applied.placed);
        let full = rust.parse(&applied.bytes);
        assert_eq!(
            incremental.root_node().to_sexp(),
            full.root_node().to_sexp(),
            "{edits:?}"
        );
    }
}

/// A whole rewrite of a 40,000-line file must still produce its line counts (the line diff has
/// a deadline; without it this took minutes). Speed itself is measured in bench/, not here.
#[test]
fn whole_rewrite_of_a_large_file_is_counted() {
    let d = Dir::new();
    let old: String = (0..40_000).map(|i| format!("line {i} old\n")).collect();
    let new: String = (0..40_000).map(|i| format!("row {i} new\n")).collect();
    let p = d.file("big.txt", old.as_bytes());
    let mut opts = d.opts();
    opts.dry_run = true;
    let (r, _) = run(
        &[Change::edits(&p, vec![Edit::new(0..old.len(), new)], None)],
        &opts,
    )
    .unwrap();
    assert_eq!((r.lines_added, r.lines_removed), (40_000, 40_000));
}

#[test]
fn owner_and_group_are_kept() {
    use std::os::unix::fs::MetadataExt;
    let d = Dir::new();
    let p = d.file("owned.txt", b"old\n");
    let me = std::fs::metadata(&p).unwrap().uid();
    // Only root can hand a file to someone else; as another user the owner is already the
    // writer's and the check below still holds.
    let want = if me == 0 {
        std::os::unix::fs::chown(&p, Some(4321), Some(4322)).unwrap();
        (4321, 4322)
    } else {
        let m = std::fs::metadata(&p).unwrap();
        (m.uid(), m.gid())
    };
    run(
        &[Change::edits(&p, vec![Edit::new(0..3, "new")], None)],
        &d.opts(),
    )
    .unwrap();
    let m = std::fs::metadata(&p).unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new\n");
    assert_eq!((m.uid(), m.gid()), want);
}
