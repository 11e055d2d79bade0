//! `completions/` and `man/` must be what `llm generate` writes today.

use crate::util::llm;

#[test]
fn generated_files_are_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    llm()
        .args(["generate", "--out-dir"])
        .arg(tmp.path())
        .assert()
        .success();
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for dir in ["completions", "man"] {
        for entry in std::fs::read_dir(tmp.path().join(dir)).unwrap() {
            let entry = entry.unwrap();
            let committed = repo.join(dir).join(entry.file_name());
            let fresh = std::fs::read(entry.path()).unwrap();
            let old = std::fs::read(&committed).unwrap_or_default();
            assert!(
                fresh == old,
                "{} is stale: run `cargo run -- generate` and commit the result",
                committed.display()
            );
            checked += 1;
        }
        let committed_count = std::fs::read_dir(repo.join(dir)).unwrap().count();
        let fresh_count = std::fs::read_dir(tmp.path().join(dir)).unwrap().count();
        assert_eq!(
            committed_count, fresh_count,
            "{dir}/ has files `llm generate` no longer writes"
        );
    }
    assert!(
        checked >= 7,
        "expected completions for 5 shells and at least 2 man pages"
    );
}

#[test]
fn readme_lists_every_error_code() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for code in llm::error::Code::ALL {
        let row = format!(
            "| `{}` | {} |",
            code.id(),
            code.summary().replace('|', "\\|")
        );
        assert!(
            readme.contains(&row),
            "README.md lacks the row for {}: run `python3 .ci/readme-codes.py`",
            code.id()
        );
    }
}
