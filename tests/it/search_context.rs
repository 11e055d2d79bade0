//! `llm search` context lines as ripgrep prints them: `-b` offsets on context lines, files
//! whose matches are streamed in chunks (more than 16,384) printed as one, and `-f` pattern
//! files from pipes and devices. rg's outputs are written out as literals (rg is not needed);
//! where llm differs on purpose (the column after the line number, no `\r` at the end of a
//! CRLF line) the expected text is llm's and the comment gives rg's.

use crate::search::{human, search};
use crate::util::TestEnv;
use serde_json::Value;

/// CRLF, a multibyte character, no final newline: offsets count every byte on disk.
const C_TXT: &str = "one\ntwo foo\r\nthrée\nfour\nfive foo\nsix\nseven\neight\nnine foo\nten";

#[test]
fn byte_offsets_on_context_lines() {
    let env = TestEnv::new();
    env.write("c.txt", C_TXT);
    // rg -n -b -C1 foo c.txt: the same but `2:4:two foo\r`, `5:25:…`, `9:50:…` (no column).
    let (out, _, code) = human(&env, &["-b", "-C1", "foo", "c.txt"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "1-0-one\n2:5:4:two foo\n3-13-thrée\n4-20-four\n5:6:25:five foo\n6-34-six\n--\n\
8-44-eight\n9:6:50:nine foo\n10-59-ten\n"
    );
    // rg -b -N -B2 foo c.txt (rg: `4:two foo\r`).
    let (out, _, _) = human(&env, &["-b", "-N", "-B2", "foo", "c.txt"]);
    assert_eq!(
        out,
        "0-one\n4:two foo\n13-thrée\n20-four\n25:five foo\n--\n38-seven\n44-eight\n50:nine foo\n"
    );
    // Past -m, after-context lines that match print as matches, with their offsets too.
    // rg -n -b -A3 -m1 f c.txt: 2:4:two foo\r, 3-13-thrée, 4:20:four, 5:25:five foo.
    let (out, _, _) = human(&env, &["-b", "-A3", "-m1", "f", "c.txt"]);
    assert_eq!(
        out,
        "2:5:4:two foo\n3-13-thrée\n4:1:20:four\n5:1:25:five foo\n"
    );
    // Each line of a multiline match has its own offset.
    // rg -n -b -U -C1 'foo\r?\nthr' c.txt: 1-0-one, 2:4:two foo\r, 3:13:thrée, 4-20-four.
    let (out, _, _) = human(&env, &["-b", "-U", "-C1", "foo\\r?\\nthr", "c.txt"]);
    assert_eq!(out, "1-0-one\n2:5:4:two foo\n3:1:13:thrée\n4-20-four\n");
    // -v: the lines that match are the context, with their match's column (rg -n --column -b
    // -v -C1 e c.txt, but `2:4:two foo\r`).
    let (out, _, _) = human(&env, &["-b", "-v", "-C1", "e", "c.txt"]);
    assert_eq!(
        out,
        "1-3-0-one\n2:4:two foo\n3-6-13-thrée\n4:20:four\n5-4-25-five foo\n6:34:six\n7-2-38-seven\n"
    );
    // With the path (rg -H -n -b -C1 nine c.txt, without the column).
    let (out, _, _) = human(&env, &["-H", "-b", "-C1", "nine", "c.txt"]);
    assert_eq!(
        out,
        "c.txt-8-44-eight\nc.txt:9:1:50:nine foo\nc.txt-10-59-ten\n"
    );
    // The same through the printer that keeps matches whole (--max-results) and headings.
    let (out, _, _) = human(&env, &["--max-results", "1", "-b", "-C1", "foo", "c.txt"]);
    assert_eq!(out, "1-0-one\n2:5:4:two foo\n3-13-thrée\n");
    let (out, _, _) = human(&env, &["--heading", "-H", "-b", "-B1", "nine", "c.txt"]);
    assert_eq!(out, "c.txt\n8-44-eight\n9:1:50:nine foo\n");
    // -o with context: each match on a line of its own, with its own offset, and the context
    // lines around (rg -n --column -b -o -C1 foo c.txt, the same text).
    let (out, _, _) = human(&env, &["-b", "-o", "-C1", "foo", "c.txt"]);
    assert_eq!(
        out,
        "1-0-one\n2:5:8:foo\n3-13-thrée\n4-20-four\n5:6:30:foo\n6-34-six\n--\n\
8-44-eight\n9:6:55:foo\n10-59-ten\n"
    );
    // rg -n --column -o -C1 -r X o c.txt, the same text.
    let (out, _, _) = human(&env, &["-o", "-C1", "-r", "X", "o", "c.txt"]);
    assert_eq!(
        out,
        "1:1:X\n2:3:X\n2:6:X\n2:7:X\n3-thrée\n4:2:X\n5:7:X\n5:8:X\n6-six\n--\n8-eight\n\
9:7:X\n9:8:X\n10-ten\n"
    );
}

#[test]
fn max_columns_counts_the_line_ending() {
    // As rg, -M limits a line with its line ending: `abc foo\n` is 8 bytes, `abcd foo\r\n` 10,
    // a last line without one only its text (rg -n --column -M 7 / -M 8 foo n.txt).
    let env = TestEnv::new();
    env.write("n.txt", "abcd foo\r\nabc foo\nab foo");
    env.write("c.txt", C_TXT);
    let omitted = "[Omitted long line with 1 matches]";
    let (out, _, _) = human(&env, &["-M", "7", "foo", "n.txt"]);
    assert_eq!(out, format!("1:6:{omitted}\n2:5:{omitted}\n3:4:ab foo\n"));
    let (out, _, _) = human(&env, &["-M", "8", "foo", "n.txt"]);
    assert_eq!(out, format!("1:6:{omitted}\n2:5:abc foo\n3:4:ab foo\n"));
    // Context lines too (rg -n --column -M 6 -C1 foo c.txt): `thrée\n` is 7 bytes.
    let (out, _, _) = human(&env, &["-M", "6", "-C1", "foo", "c.txt"]);
    assert_eq!(
        out,
        format!(
            "1-one\n2:5:{omitted}\n3-[Omitted long context line]\n4-four\n5:6:{omitted}\n\
6-six\n--\n8-eight\n9:6:{omitted}\n10-ten\n"
        )
    );
}

#[test]
fn json_context_stays_lines_of_text() {
    // The contract (SPEC.md, seed 000) gives `context_before`/`context_after` as arrays of line
    // texts: -b changes nothing in JSON, whose match spans carry the byte offsets.
    let env = TestEnv::new();
    env.write("c.txt", C_TXT);
    let (e, _) = search(&env, &["-b", "-C1", "foo", "c.txt"]);
    let d = e.data.unwrap();
    let ctx: Vec<_> = d
        .matches
        .iter()
        .map(|m| (m.context_before.clone(), m.context_after.clone()))
        .collect();
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        ctx,
        [
            (s(&["one"]), s(&["thrée"])),
            (s(&["four"]), s(&["six"])),
            (s(&["eight"]), s(&["ten"])),
        ]
    );
    assert_eq!(d.matches[1].span.byte_start, 30);
}

// ---- a file whose matches are streamed in chunks ----

/// 40,000 lines, each `line N foo` (a quarter of them `line N foo foo`) or `line N bar`,
/// chosen by a linear congruential generator: runs and gaps of every length, so that the
/// chunk boundaries (every 4,096 matches) fall inside groups, between adjacent groups and
/// between groups apart.
fn big_lines() -> Vec<(String, bool)> {
    let mut s: u64 = 12345;
    (1..=40_000)
        .map(|n| {
            s = (s * 1_103_515_245 + 12_345) % (1 << 31);
            match (s >> 16) % 8 {
                0 => (format!("line {n} foo foo"), true),
                1..=3 => (format!("line {n} foo"), true),
                _ => (format!("line {n} bar"), false),
            }
        })
        .collect()
}

/// What ripgrep prints for `-b -B before -A after foo` (with llm's column): every line within
/// reach of a match once, `--` between groups apart; with `-r X` every `foo` of a matching
/// line replaced; with `-o` each `foo` on a line of its own.
fn expected(lines: &[(String, bool)], before: usize, after: usize, flags: &[&str]) -> String {
    let (replace, only) = (flags.contains(&"-r"), flags.contains(&"-o"));
    let mut offsets = Vec::with_capacity(lines.len());
    let mut at = 0;
    for (text, _) in lines {
        offsets.push(at);
        at += text.len() + 1;
    }
    let shown = |i: usize| {
        let lo = i.saturating_sub(after);
        let hi = (i + before).min(lines.len() - 1);
        (lo..=hi).any(|j| lines[j].1)
    };
    let mut out = String::new();
    let mut prev: Option<usize> = None;
    for (i, (text, hit)) in lines.iter().enumerate() {
        if !shown(i) {
            continue;
        }
        if prev.is_some_and(|p| i > p + 1) {
            out.push_str("--\n");
        }
        prev = Some(i);
        let (no, off) = (i + 1, offsets[i]);
        if *hit && only {
            for (at, _) in text.match_indices("foo") {
                out.push_str(&format!("{no}:{}:{}:foo\n", at + 1, off + at));
            }
        } else if *hit {
            let col = text.find("foo").unwrap() + 1;
            let text = match replace {
                true => text.replace("foo", "X"),
                false => text.clone(),
            };
            out.push_str(&format!("{no}:{col}:{off}:{text}\n"));
        } else {
            out.push_str(&format!("{no}-{off}-{text}\n"));
        }
    }
    out
}

#[test]
fn context_across_streamed_chunks() {
    let lines = big_lines();
    let hits = lines.iter().filter(|l| l.1).count();
    let matches = lines.iter().filter(|l| l.0.ends_with("foo foo")).count() + hits;
    // More than 16,384 matches: the file is streamed in chunks of 4,096.
    assert_eq!((hits, matches), (20_101, 24_988));
    let env = TestEnv::new();
    let mut text = String::new();
    for (l, _) in &lines {
        text.push_str(l);
        text.push('\n');
    }
    env.write("big.txt", &text);
    // rg -n -b -C1 / -A2 / -B3 / -C2 foo big.txt printed 37,523 / 37,522 / 38,764 / 39,360
    // lines, 2,446 / 2,446 / 1,239 / 597 of them `--` (the same text, without the column).
    // With -r, the two matches of a line where a chunk ends between them are both replaced.
    for (flags, before, after, rg_lines, rg_groups) in [
        (&["-C1"][..], 1, 1, 37_523, 2_446),
        (&["-A2"], 0, 2, 37_522, 2_446),
        (&["-B3"], 3, 0, 38_764, 1_239),
        (&["-C2"], 2, 2, 39_360, 597),
        (&["-C1", "-r", "X"], 1, 1, 37_523, 2_446),
        // rg -n --column -b -o -C1 foo big.txt: 42,410 lines (the same text).
        (&["-C1", "-o"], 1, 1, 42_410, 2_446),
    ] {
        let (out, _, code) = human(&env, &[&["-b"], flags, &["foo", "big.txt"]].concat());
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), rg_lines, "{flags:?}");
        assert_eq!(
            out.lines().filter(|l| *l == "--").count(),
            rg_groups,
            "{flags:?}"
        );
        let want = expected(&lines, before, after, flags);
        if out != want {
            let at = out
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let show = |s: &str| -> String {
                let window = s.lines().skip(at.saturating_sub(3)).take(8);
                window.collect::<Vec<_>>().join("\n")
            };
            panic!(
                "{flags:?}: differs at line {at}: {:#?} want {:#?}",
                show(&out),
                show(&want)
            );
        }
    }
    // -o -b: each match once with its own offset (rg -n -b -o: 24,988 lines), two on a line
    // even where a chunk ends between them.
    let (out, _, _) = human(&env, &["-o", "-b", "foo", "big.txt"]);
    assert_eq!(out.lines().count(), 24_988);
    let mut offset = 0;
    let mut want = String::new();
    for (i, (l, _)) in lines.iter().enumerate() {
        for (col, _) in l.match_indices("foo") {
            want.push_str(&format!("{}:{}:{}:foo\n", i + 1, col + 1, offset + col));
        }
        offset += l.len() + 1;
    }
    assert!(out == want, "-o -b differs");
    // Without context, each matching line once.
    let (out, _, _) = human(&env, &["foo", "big.txt"]);
    assert_eq!(out.lines().count(), 20_101);
    // JSON lines: each match with its own context, whatever chunk it came in.
    let out = env
        .llm(&["search", "--format", "jsonl", "-C1", "foo", "big.txt"])
        .output()
        .unwrap();
    let records: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(records.len(), 24_988 + 1);
    for r in &records[..24_988] {
        let no = r["span"]["start_line"].as_u64().unwrap() as usize;
        let before: Vec<&str> = lines[no.saturating_sub(2)..no - 1]
            .iter()
            .map(|l| l.0.as_str())
            .collect();
        let after: Vec<&str> = lines[no..(no + 1).min(lines.len())]
            .iter()
            .map(|l| l.0.as_str())
            .collect();
        assert_eq!(r["context_before"], serde_json::json!(before), "{r}");
        assert_eq!(r["context_after"], serde_json::json!(after), "{r}");
    }
}

#[test]
fn a_line_with_more_matches_than_a_chunk() {
    // 20,000 matches on one line: the chunks that would end inside it wait for the rest, so
    // the line prints once with every match replaced (rg -r X -C1 foo one.txt, without the
    // column; this panicked or left 15,904 matches unreplaced before).
    let env = TestEnv::new();
    let line = vec!["foo"; 20_000].join(" ");
    env.write("one.txt", format!("a\n{line}\nb\n"));
    let (out, _, code) = human(&env, &["-r", "X", "-C1", "foo", "one.txt"]);
    assert_eq!(code, 0);
    assert!(
        out == format!("1-a\n2:1:{}\n3-b\n", vec!["X"; 20_000].join(" ")),
        "{}",
        &out[..out.len().min(300)]
    );
    let (out, _, _) = human(&env, &["-o", "-b", "-C1", "foo", "one.txt"]);
    let mut want = String::from("1-0-a\n");
    for i in 0..20_000 {
        want.push_str(&format!("2:{}:{}:foo\n", 4 * i + 1, 2 + 4 * i));
    }
    want.push_str(&format!("3-{}-b\n", 2 + line.len() + 1));
    assert!(out == want, "-o -b -C1 differs");
}

// ---- -f from pipes and devices ----

#[test]
fn pattern_file_from_a_fifo_stdin_and_devices() {
    let env = TestEnv::new();
    env.write("c.txt", C_TXT);
    // A FIFO that ends (a shell's `-f <(…)`): read to its end, as rg does.
    let fifo = env.path().join("pats");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // The writer opens (blocking until llm opens the reading end), writes, closes.
    let writer = std::thread::spawn({
        let fifo = fifo.clone();
        move || std::fs::write(fifo, "nine\nthr\n").unwrap()
    });
    let (out, _, code) = human(&env, &["-f", "pats", "c.txt"]);
    writer.join().unwrap();
    assert_eq!(code, 0);
    assert_eq!(out, "3:1:thrée\n9:1:nine foo\n");
    // stdin (rg: `-f -`).
    let out = env
        .llm(&["search", "-f", "-", "c.txt"])
        .write_stdin("six\r\nten\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "6:1:six\n10:1:ten\n");
    // /dev/null: no patterns, nothing matches (rg exits 1 too).
    let (out, _, code) = human(&env, &["-f", "/dev/null", "c.txt"]);
    assert_eq!((out.as_str(), code), ("", 1));
    // A device that never ends: a bounded read, then a coded error (not a hang, not all of
    // memory), in every format.
    let (out, err, code) = human(&env, &["-f", "/dev/zero", "c.txt"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("LLM_E115") && err.contains("pattern file /dev/zero"),
        "{err}"
    );
    assert!(err.contains("help: pass -f a file of patterns"), "{err}");
    let out = env
        .llm(&["search", "--format", "json", "-f", "/dev/zero", "c.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "error");
    assert_eq!(v["error"]["code"], "LLM_E115");
    assert!(v["error"]["remediation"].as_str().unwrap().contains("-f"));
    // A directory, a missing file: coded errors naming the pattern file.
    let (_, err, code) = human(&env, &["-f", ".", "c.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("LLM_E108") && err.contains("pattern file ."),
        "{err}"
    );
    let (_, err, code) = human(&env, &["-f", "missing", "c.txt"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("LLM_E004") && err.contains("pattern file missing"),
        "{err}"
    );
}
