//! `llm search` at the edges of lines: empty matches (`''`, `$`, `\z`, `x*`) at a line's end,
//! at the end of a file without a final newline and on empty lines, `^` in CRLF files, and
//! `-o` with context. rg's outputs are written out as literals (rg is not needed at test time);
//! where llm differs on purpose (the column after the line number, no `\r` printed) the
//! comment gives rg's.

use crate::search::{human, search};
use crate::util::TestEnv;

/// JSON matches as (byte_start, byte_end), `files[0].match_count` and `line_count`, exit code.
fn spans(env: &TestEnv, args: &[&str]) -> (Vec<(usize, usize)>, usize, usize, i32) {
    let (e, code) = search(env, args);
    let data = e.data.unwrap_or_else(|| panic!("{args:?}: {:?}", e.error));
    let got = data
        .matches
        .iter()
        .map(|m| (m.span.byte_start, m.span.byte_end))
        .collect();
    let (count, lines) = data
        .files
        .first()
        .map_or((0, 0), |f| (f.match_count, f.line_count));
    (got, count, lines, code)
}

#[test]
fn an_empty_match_at_the_end_of_a_file_without_a_final_newline_is_on_its_last_line() {
    let env = TestEnv::new();
    env.write("z.txt", "abc");
    env.write("nonl.txt", "a foo\nlast foo");
    // rg -n '$' z.txt and rg -n '\z' z.txt: `1:abc` (llm adds the column).
    for p in ["$", "\\z", "x*$"] {
        let (out, _, code) = human(&env, &[p, "z.txt"]);
        assert_eq!((out.as_str(), code), ("1:4:abc\n", 0), "{p}");
        let (got, count, lines, code) = spans(&env, &[p, "z.txt"]);
        assert_eq!((got, count, lines, code), (vec![(3, 3)], 1, 1, 0), "{p}");
    }
    let (out, _, code) = human(&env, &["-P", "$", "z.txt"]);
    assert_eq!((out.as_str(), code), ("1:4:abc\n", 0));
    // -c and --count-matches agree with what is printed.
    let (out, _, _) = human(&env, &["--count-matches", "$", "z.txt"]);
    assert_eq!(out, "1\n");
    // rg -n '$' nonl.txt: both lines.
    let (out, _, _) = human(&env, &["$", "nonl.txt"]);
    assert_eq!(out, "1:6:a foo\n2:9:last foo\n");
    // rg -n --column -r '[$0]' 'a*' nonl.txt: the final empty match is replaced too.
    let (out, _, _) = human(&env, &["-r", "[$0]", "a*", "nonl.txt"]);
    assert_eq!(out, "1:1:[a] []f[]o[]o[]\n2:1:[]l[a]s[]t[] []f[]o[]o[]\n");
    // -o prints it (rg 13 prints `1:1:a`, `1:3:`, missing the last, while its -r has it).
    let (out, _, _) = human(&env, &["-o", "a*", "z.txt"]);
    assert_eq!(out, "1:1:a\n1:3:\n1:4:\n");
    // After a final newline there is no line for it.
    env.write("nl.txt", "abc\n");
    let (got, count, _, _) = spans(&env, &["\\z", "nl.txt"]);
    assert_eq!((got, count), (vec![(3, 3)], 1));
}

#[test]
fn caret_matches_only_at_the_start_of_a_crlf_line() {
    let env = TestEnv::new();
    env.write("c.txt", "ab\r\ncd\r\n");
    // rg --crlf -r '#' '^' c.txt: `#ab\r`, `#cd\r` (llm prints no `\r`, adds the column).
    let (out, _, _) = human(&env, &["-r", "#", "^", "c.txt"]);
    assert_eq!(out, "1:1:#ab\n2:1:#cd\n");
    // rg --crlf --count-matches '^' c.txt: 2 (and rg -P: 2).
    for args in [&["^"][..], &["(?m)^"], &["-P", "^"]] {
        let (out, _, _) = human(&env, &[&["--count-matches"], args, &["c.txt"]].concat());
        assert_eq!(out, "2\n", "{args:?}");
    }
    // The replacement spans a transform would take sit at the lines' starts, not between
    // `\r` and `\n`.
    let (got, count, _, _) = spans(&env, &["-r", "#", "^", "c.txt"]);
    assert_eq!((got, count), (vec![(0, 0), (4, 4)], 2));
    let (got, _, _, _) = spans(&env, &["^x*", "c.txt"]);
    assert_eq!(got, vec![(0, 0), (4, 4)]);
    // `$` matches before `\r\n` (rg --crlf -o -b '$': offsets 2 and 6).
    let (got, _, _, _) = spans(&env, &["$", "c.txt"]);
    assert_eq!(got, vec![(2, 2), (6, 6)]);
    // A lone `\r` still ends a line for `^` (regex's CRLF mode).
    env.write("r.txt", "a\rb\r\n");
    let (got, _, _, _) = spans(&env, &["^", "r.txt"]);
    assert_eq!(got, vec![(0, 0), (2, 2)]);
}

#[test]
fn pcre2_finds_matches_on_empty_lines() {
    let env = TestEnv::new();
    env.write("e.txt", "a\n\nb\n");
    // rg -n -P '^$' e.txt: `2:` (rg finds no match in the line to give a column: llm's is 1).
    for p in [&["^$"][..], &["-x", ""], &["^\\s*$"], &["(?m)^$"]] {
        let args = [&["-P"], p, &["e.txt"]].concat();
        let (out, _, code) = human(&env, &args);
        assert_eq!((out.as_str(), code), ("2:1:\n", 0), "{p:?}");
        // JSON has the match that -c counts (the envelope check wants a pattern).
        if p[0] == "-x" {
            continue;
        }
        let (got, count, lines, code) = spans(&env, &args);
        assert_eq!((got, count, lines, code), (vec![(2, 2)], 1, 1, 0), "{p:?}");
    }
    // rg -n -P '^' e.txt: `1:a`, `2:`, `3:b`.
    let (out, _, _) = human(&env, &["-P", "^", "e.txt"]);
    assert_eq!(out, "1:1:a\n2:1:\n3:1:b\n");
    let (out, _, _) = human(&env, &["-P", "--count-matches", "^", "e.txt"]);
    assert_eq!(out, "3\n");
    // rg -n --column -P -o '^' e.txt: `1:1:`, `2:`, `3:1:` (rg gives line 2 no column).
    let (out, _, _) = human(&env, &["-P", "-o", "^", "e.txt"]);
    assert_eq!(out, "1:1:\n2:1:\n3:1:\n");
    // The replacement of the empty line's match (rg 13 prints `2:`, finding none) stops at
    // the line's end, though `\s*` could take the `\n`.
    let (out, _, _) = human(&env, &["-P", "-r", "[$0]", "^\\s*", "e.txt"]);
    assert_eq!(out, "1:1:[]a\n2:1:[]\n3:1:[]b\n");
}

#[test]
fn only_matching_with_context_prints_empty_matches_and_matches_of_a_cr() {
    let env = TestEnv::new();
    env.write("f.txt", "ab\n");
    env.write("g.txt", "a b\r\ncd\n");
    env.write("o.txt", "foo\nxoo oo\nbar\n\nboo\n");
    // rg -n --column -o -A1 '' f.txt (the same with -b: offsets 0, 1, 2).
    let (out, _, code) = human(&env, &["-o", "-A1", "", "f.txt"]);
    assert_eq!((out.as_str(), code), ("1:1:\n1:2:\n1:3:\n", 0));
    let (out, _, _) = human(&env, &["-b", "-o", "-B1", "", "f.txt"]);
    assert_eq!(out, "1:1:0:\n1:2:1:\n1:3:2:\n");
    // rg -n --column -o -A1 '\s' g.txt: `1:2: `, `1:4:\r`, `2-cd` (llm prints no `\r`).
    let (out, _, _) = human(&env, &["-o", "-A1", "\\s", "g.txt"]);
    assert_eq!(out, "1:2: \n1:4:\n2-cd\n");
    // rg -n --column -o -C1 'o*' o.txt.
    let (out, _, _) = human(&env, &["-o", "-C1", "o*", "o.txt"]);
    assert_eq!(
        out,
        "1:1:\n1:2:oo\n2:1:\n2:2:oo\n2:5:oo\n3:1:\n3:2:\n3:3:\n3:4:\n4:1:\n5:1:\n5:2:oo\n"
    );
    // rg -n --column -o -C1 '^' o.txt: one empty match per line.
    let (out, _, _) = human(&env, &["-o", "-C1", "^", "o.txt"]);
    assert_eq!(out, "1:1:\n2:1:\n3:1:\n4:1:\n5:1:\n");
}

#[test]
fn after_context_matches_past_max_count_print_as_matches() {
    let env = TestEnv::new();
    env.write("u.txt", "a1\nb\na2 a3\nb\nc\nd\n");
    // rg -n --column -o -m1 -A3 'a\d' u.txt: the after-context line's matches, each.
    let (out, _, _) = human(&env, &["-o", "-m1", "-A3", "a\\d", "u.txt"]);
    assert_eq!(out, "1:1:a1\n2-b\n3:1:a2\n3:4:a3\n4-b\n");
    env.write("v.txt", "a1\nb\na2\nb\nc\nd\n");
    // rg -n -U -m1 -A3 'a\d\nb' v.txt: `1:a1 2:b 3:a2 4:b 5-c 6-d`; a match in the
    // after-context spans lines 3 and 4, which print as matches. (rg also prints `6-d`: its
    // printer counts the match as one line of the three; llm stops at -A3's lines.)
    let (out, _, _) = human(&env, &["-U", "-m1", "-A3", "a\\d\\nb", "v.txt"]);
    assert_eq!(out, "1:1:a1\n2:1:b\n3:1:a2\n4:1:b\n5-c\n");
}
