//! Races against the real binary, bounded in count and time: a symlink swapped in for a
//! directory while `llm` writes beneath it (confinement by handles), and a plain appender
//! writing to a file while `llm transform` replaces it (no silent loss). Set `LLM_RACE_ATTEMPTS`
//! to run more attempts (the README's measures use 1,000).

use crate::util::{llm, sha, TestEnv};
use std::ffi::CString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn attempts(default: usize) -> usize {
    std::env::var("LLM_RACE_ATTEMPTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn cstr(p: &Path) -> CString {
    CString::new(p.as_os_str().as_bytes()).unwrap()
}

/// Swaps two names with renameat2(RENAME_EXCHANGE) until `stop`.
fn swapper(a: &Path, b: &Path, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    let (a, b) = (cstr(a), cstr(b));
    std::thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            // SAFETY: two valid NUL-terminated paths; the call touches no memory of ours.
            let r = unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    a.as_ptr(),
                    libc::AT_FDCWD,
                    b.as_ptr(),
                    libc::RENAME_EXCHANGE,
                )
            };
            assert_eq!(r, 0, "renameat2: {}", std::io::Error::last_os_error());
            swaps += 1;
        }
        swaps
    })
}

#[test]
fn a_symlink_swapped_in_for_a_directory_never_leads_a_write_outside() {
    let env = TestEnv::new();
    let root = env.path().join("r");
    let outside = env.path().join("o");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("f.txt"), "same\n").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("alt")).unwrap();
    // The real directory, reachable whatever name it has now.
    let real = std::fs::File::open(root.join("sub")).unwrap();
    use std::os::fd::AsRawFd;
    let real_dir = std::path::PathBuf::from(format!("/proc/self/fd/{}", real.as_raw_fd()));
    std::fs::write(real_dir.join("f.txt"), "same\n").unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&root.join("sub"), &root.join("alt"), stop.clone());
    let n = attempts(200);
    let started = Instant::now();
    let (mut escapes, mut inside, mut refused) = (0, 0, 0);
    for i in 0..n {
        let out = if i % 2 == 0 {
            llm()
                .current_dir(&root)
                .args([
                    "transform",
                    "sub/f.txt",
                    "--old",
                    "same",
                    "--new",
                    "PWNED",
                    "--json",
                ])
                .output()
                .unwrap()
        } else {
            llm()
                .current_dir(&root)
                .args([
                    "write",
                    &format!("sub/new{i}.txt"),
                    "--content",
                    "PWNED\n",
                    "--json",
                ])
                .output()
                .unwrap()
        };
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if v["status"] == "ok" {
            inside += 1;
        } else {
            refused += 1;
        }
        let leaked = std::fs::read_to_string(outside.join("f.txt")).unwrap() != "same\n"
            || std::fs::read_dir(&outside).unwrap().count() != 1;
        if leaked {
            escapes += 1;
            std::fs::write(outside.join("f.txt"), "same\n").unwrap();
            for e in std::fs::read_dir(&outside).unwrap().flatten() {
                if e.file_name() != "f.txt" {
                    std::fs::remove_file(e.path()).unwrap();
                }
            }
        }
        std::fs::write(real_dir.join("f.txt"), "same\n").unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "bounded in time"
        );
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    eprintln!("swap race: {n} attempts, {swaps} swaps, {escapes} escapes, {inside} written inside, {refused} refused");
    assert!(swaps > n, "the swapper must really race ({swaps} swaps)");
    assert_eq!(escapes, 0, "writes landed outside the root");
    assert!(inside > 0, "some writes must succeed inside");
}

/// The store (`.llm`) swapped for a symlink out of the root while edits and undos run: no
/// record, lock, pre-image or temp file lands outside. An attack run got about ten there in
/// 100 edit-and-undo rounds; the store is now held by its handle once opened.
#[test]
fn the_store_swapped_for_a_symlink_never_leads_the_journal_outside() {
    let env = TestEnv::new();
    let root = env.path().join("r");
    let outside = env.path().join("o");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let run = |args: &[&str]| {
        llm()
            .current_dir(&root)
            .args(args)
            .arg("--json")
            .output()
            .unwrap()
    };
    run(&["transform", "a.txt", "--old", "alpha", "--new", "beta"]);
    std::os::unix::fs::symlink(&outside, root.join("alt")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(&root.join(".llm"), &root.join("alt"), stop.clone());
    let n = attempts(150);
    for _ in 0..n {
        let now = std::fs::read_to_string(root.join("a.txt")).unwrap();
        let (old, new) = if now.contains("alpha") {
            ("alpha", "beta")
        } else {
            ("beta", "alpha")
        };
        run(&["transform", "a.txt", "--old", old, "--new", new]);
        run(&["undo"]);
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    let leaked: Vec<_> = walk(&outside);
    eprintln!(
        "store swap race: {n} rounds, {swaps} swaps, {} files outside",
        leaked.len()
    );
    assert!(swaps > n, "the swapper must really race ({swaps} swaps)");
    assert!(leaked.is_empty(), "written outside the root: {leaked:?}");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() && !p.is_symlink() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Whether the file system of `path` (a file its owner opens read-only) gives leases.
fn leases_work(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(path).unwrap();
    // SAFETY: fcntl on an open descriptor, with integer arguments.
    let ok = unsafe { libc::fcntl(f.as_raw_fd(), libc::F_SETLEASE, libc::F_RDLCK) } == 0;
    if ok {
        // SAFETY: as above.
        unsafe { libc::fcntl(f.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK) };
    }
    ok
}

/// A program that opened the file before `llm` replaced it and writes later through that
/// handle (an appender between its open and its write) writes to the replaced file: `llm`
/// waits while the file is open for writing, so the write is reported (LLM_E114) and its bytes
/// kept; on a machine so slow that the write comes first, the edit is refused instead.
#[test]
fn a_write_through_a_handle_opened_before_the_replace_is_reported() {
    let env = TestEnv::new();
    env.write("t.txt", "word alpha\n");
    let path = env.path().join("t.txt");
    if !leases_work(&path) {
        eprintln!("no leases on this file system: nothing to check");
        return;
    }
    let mut w = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let late = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        w.write_all(b"late line\n").unwrap();
    });
    let started = Instant::now();
    let out = env
        .llm(&[
            "transform",
            "t.txt",
            "--old",
            "word alpha",
            "--new",
            "word beta",
            "--json",
        ])
        .output()
        .unwrap();
    late.join().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let now = std::fs::read_to_string(&path).unwrap();
    if v["status"] == "ok" {
        assert!(v.to_string().contains("LLM_E114"), "{v}");
        assert!(started.elapsed() >= Duration::from_millis(300));
        let kept: String = std::fs::read_dir(env.path().join(".llm/objects"))
            .unwrap()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect();
        assert!(kept.contains("word alpha\nlate line\n"), "{kept}");
        assert_eq!(now, "word beta\n");
    } else {
        assert!(now.contains("late line"), "{v}");
    }
}

#[test]
fn a_plain_appender_racing_transforms_loses_nothing_unreported() {
    let env = TestEnv::new();
    env.write("t.txt", "word alpha\n");
    let path = env.path().join("t.txt");
    let stop = Arc::new(AtomicBool::new(false));
    let appended = Arc::new(AtomicUsize::new(0));
    let appender = {
        let (stop, appended, path) = (stop.clone(), appended.clone(), path.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let i = appended.load(Ordering::Relaxed);
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap();
                f.write_all(format!("line {i}\n").as_bytes()).unwrap();
                drop(f);
                appended.store(i + 1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let n = attempts(200);
    let (mut ok, mut warned) = (0, 0);
    for _ in 0..n {
        // Flip whichever word the file holds now (a rejected run leaves it as it was).
        let (old, new) = if std::fs::read_to_string(&path)
            .unwrap()
            .contains("word alpha")
        {
            ("word alpha", "word beta")
        } else {
            ("word beta", "word alpha")
        };
        let out = env
            .llm(&["transform", "t.txt", "--old", old, "--new", new, "--json"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if v["status"] == "ok" {
            ok += 1;
        }
        if v.to_string().contains("LLM_E114") {
            warned += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    appender.join().unwrap();
    let total = appended.load(Ordering::Relaxed);
    let now = std::fs::read_to_string(&path).unwrap();
    let mut kept = String::new();
    if let Ok(dir) = std::fs::read_dir(env.path().join(".llm/objects")) {
        for e in dir.flatten() {
            kept.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
        }
    }
    let has = |text: &str, i: usize| text.lines().any(|l| l == format!("line {i}"));
    let lost: Vec<usize> = (0..total).filter(|&i| !has(&now, i)).collect();
    let unreported: Vec<usize> = lost.iter().copied().filter(|&i| !has(&kept, i)).collect();
    eprintln!(
        "appender race: {n} transforms ({ok} ok, {warned} warned LLM_E114), {total} appends, {} not in the file, {} lost without a report",
        lost.len(),
        unreported.len()
    );
    assert!(ok > 0 && total > 0);
    assert!(
        unreported.is_empty(),
        "appends lost silently: {unreported:?}"
    );
}

#[test]
fn bytes_written_to_the_old_file_during_the_replace_are_kept_and_reported() {
    let env = TestEnv::new();
    std::fs::create_dir(env.path().join(".git")).unwrap();
    env.write("pkg/t.txt", "word alpha\n");
    let out = llm()
        .current_dir(env.path().join("pkg"))
        .env(
            "LLM_FAILPOINT_FOREIGN_WRITE",
            "appended by another program\n",
        )
        .args([
            "transform",
            "t.txt",
            "--old",
            "alpha",
            "--new",
            "beta",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "ok", "{v}");
    assert_eq!(env.read("pkg/t.txt"), b"word beta\n");
    let d = &v["diagnostics"][0];
    assert_eq!(d["tool"], "transform");
    assert_eq!(
        (d["code"].as_str(), d["level"].as_str()),
        (Some("LLM_E114"), Some("warning")),
        "{v}"
    );
    // Kept at the workspace's top level (git's), content-addressed, never committed.
    let kept = "word alpha\nappended by another program\n";
    let blob = format!(".llm/objects/{}", sha(kept.as_bytes()));
    assert!(d["message"].as_str().unwrap().ends_with(&blob), "{d}");
    assert_eq!(env.read(&blob), kept.as_bytes());
    assert_eq!(env.read(".llm/.gitignore"), b"*\n");
}

/// A program that saves as editors do (a copy written, then renamed over the name) right
/// before llm replaces or deletes the file: its save stays, and the request is rejected
/// (`LLM_E102`) with every file as it was. An attack run lost such saves to `transform`
/// (about one run in two of 400 edits against a saving loop), reported `ok`.
#[test]
fn a_save_renamed_over_the_file_while_it_is_replaced_is_never_thrown_away() {
    let env = TestEnv::new();
    env.write("a.txt", "word alpha\n");
    env.write("b.txt", "word alpha\n");
    let transform = vec!["transform", "a.txt", "--old", "alpha", "--new", "beta"];
    let delete = "{\"op\":\"delete\",\"file_path\":\"b.txt\"}\n";
    for (args, stdin, saved) in [(transform, "", "a.txt"), (vec!["apply"], delete, "b.txt")] {
        let out = llm()
            .current_dir(env.path())
            .env("LLM_FAILPOINT_SAVE_OVER", "saved by an editor\n")
            .args(&args)
            .arg("--json")
            .write_stdin(stdin)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{v}");
        assert!(v.to_string().contains("LLM_E102"), "{v}");
        assert_eq!(env.read(saved), b"saved by an editor\n", "{args:?}");
    }
    // Nothing of the runs is left beside the files.
    let names: Vec<String> = std::fs::read_dir(env.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".llm")
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}
