//! Indentation: what a file indents with, the common indentation of a block, and re-indenting a
//! block to where it goes. Used by `patch` (text sent dedented or at another depth) and by
//! `transform`'s indentation-tolerant matching.

/// One level of indentation as a file uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unit {
    Tabs,
    Spaces(usize),
}

impl Unit {
    /// The indentation string for `levels` levels.
    pub fn repeat(&self, levels: usize) -> String {
        match self {
            Unit::Tabs => "\t".repeat(levels),
            Unit::Spaces(n) => " ".repeat(n * levels),
        }
    }
}

/// Leading whitespace (spaces and tabs) of a line.
pub fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The indentation unit of a text: tabs if most indented lines start with a tab, otherwise the
/// most common positive difference between consecutive indentation widths (default 4 spaces).
pub fn detect_unit(text: &str) -> Unit {
    let mut tabs = 0;
    let mut spaces = 0;
    let mut steps = [0usize; 9];
    let mut prev = 0usize;
    // A block comment's continuation lines (` * text` under `/**`) sit one column in: no
    // indentation step (Javadoc made a 4-space Java file read as 1-space).
    let continuation = |l: &&str| l.trim_start().starts_with('*');
    for line in text.lines().filter(|l| !is_blank(l) && !continuation(l)) {
        let lead = leading(line);
        if lead.starts_with('\t') {
            tabs += 1;
        } else if !lead.is_empty() {
            spaces += 1;
        }
        let width = lead.chars().filter(|&c| c == ' ').count();
        if width > prev && width - prev <= 8 && !lead.starts_with('\t') {
            steps[width - prev] += 1;
        }
        prev = width;
    }
    if tabs > spaces {
        return Unit::Tabs;
    }
    match (1..=8).max_by_key(|&n| (steps[n], n == 4)) {
        Some(n) if steps[n] > 0 => Unit::Spaces(n),
        _ => Unit::Spaces(4),
    }
}

/// The longest leading whitespace shared by every non-blank line (first line included unless
/// `skip_first`).
pub fn common_indent(text: &str, skip_first: bool) -> String {
    let mut common: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        if (skip_first && i == 0) || is_blank(line) {
            continue;
        }
        let lead = leading(line);
        common = Some(match common {
            None => lead,
            Some(c) => {
                let n = c
                    .bytes()
                    .zip(lead.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &c[..n]
            }
        });
    }
    common.unwrap_or("").to_string()
}

/// Re-indents `text` so its least-indented lines start with `target`, keeping relative
/// indentation. Leading tabs/spaces are converted to the file's `unit`. Blank lines become
/// empty. When `first_line_placed` is true the first line is left without indentation (it goes
/// after existing text on its line) and the common indent is computed from the other lines —
/// unless the first line itself is less indented than them, as in a dedented `def` whose body
/// is indented one level.
pub fn reindent(text: &str, target: &str, unit: &Unit, first_line_placed: bool) -> String {
    reindent_keeping(text, target, unit, first_line_placed, &[])
}

/// [`reindent`], with the lines `inside` (0-based, sorted: the lines of a multi-line string
/// literal after its first) moved by the block's shift alone: their indentation is the
/// string's value, which converting it level by level to the file's unit would change (a
/// 2-space gap inside a docstring became 4).
pub fn reindent_keeping(
    text: &str,
    target: &str,
    unit: &Unit,
    first_line_placed: bool,
    inside: &[usize],
) -> String {
    if first_line_placed && already_placed(text, target) && in_unit(text, target, unit) {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let kept = |i: usize| inside.binary_search(&i).is_ok();
    let first_lead = lines
        .first()
        .map(|l| leading(l).to_string())
        .unwrap_or_default();
    let rest_common = common_indent(&lines[1.min(lines.len())..].join("\n"), false);
    let base = if first_line_placed && !lines.first().is_some_and(|l| is_blank(l)) {
        // The first line's own indentation (usually none) is the block's base when it is not
        // deeper than the rest, e.g. "def f():\n    body" sent at column 0.
        if first_lead.len() <= rest_common.len() || lines.len() == 1 {
            first_lead.clone()
        } else {
            rest_common.clone()
        }
    } else {
        common_indent(text, false)
    };
    let code: Vec<&str> = (lines.iter().enumerate())
        .filter(|(i, _)| !kept(*i))
        .map(|(_, l)| *l)
        .collect();
    let source_unit = detect_unit(&code.join("\n"));
    let mut out = String::with_capacity(text.len() + lines.len() * target.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let (cr, body) = match line.strip_suffix('\r') {
            Some(b) => ("\r", b),
            None => ("", *line),
        };
        if is_blank(body) {
            // Inside a string, a line of spaces is part of its value.
            out.push_str(if kept(i) { body } else { "" });
            out.push_str(cr);
            continue;
        }
        let lead = leading(body);
        // A string's line below the block's base (its value starts at column 0) stays as it
        // is: no shift keeps its value.
        if kept(i) && !lead.starts_with(base.as_str()) {
            out.push_str(body);
            out.push_str(cr);
            continue;
        }
        let rel = lead
            .strip_prefix(base.as_str())
            .unwrap_or_else(|| lead.trim_start_matches(base.trim_end()));
        let rel = if kept(i) {
            rel.to_string()
        } else {
            convert(rel, &source_unit, unit)
        };
        if !(i == 0 && first_line_placed) {
            out.push_str(target);
        }
        out.push_str(&rel);
        out.push_str(&body[lead.len()..]);
        out.push_str(cr);
    }
    out
}

/// Whether `text`, whose first line goes after existing text at indentation `target`, already
/// carries the file's indentation on its other lines — as `llm find` reports a `body_span` or a
/// method's `span`: its first line starts mid-line, the following ones at their columns in the
/// file. Such text is placed as it is (re-indenting it would shift every line after the first).
///
/// It does when the first line has no indentation of its own, every other non-blank line
/// starts with `target`, and, when the first line opens a block (ends with `:`, `{`, `(` or
/// `[`), the next non-blank line is deeper than `target` (otherwise, as in `def f():` then
/// `    return 1` sent for a method at `    `, the lines are relative to the first).
pub fn already_placed(text: &str, target: &str) -> bool {
    let mut lines = text.split('\n');
    let Some(first) = lines.next() else {
        return true;
    };
    if !leading(first).is_empty() {
        return false;
    }
    let rest: Vec<&str> = lines
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !is_blank(l))
        .collect();
    let Some(next) = rest.first() else {
        return true;
    };
    if !rest.iter().all(|l| leading(l).starts_with(target)) {
        return false;
    }
    let code = first.split(" #").next().unwrap_or(first);
    let code = code.split(" //").next().unwrap_or(code).trim_end();
    let opens = code.ends_with([':', '{', '(', '[']);
    !opens || leading(next).len() > target.len()
}

/// Whether the lines of `text` are indented past `target` in `unit`: with tabs (alignment
/// spaces after them aside) in a tab-indented file, without any in a space-indented one. Text
/// placed at column 0 in a file of tabs came back with its spaces.
pub fn in_unit(text: &str, target: &str, unit: &Unit) -> bool {
    text.split('\n').filter(|l| !is_blank(l)).all(|l| {
        let rel = leading(l).strip_prefix(target).unwrap_or(leading(l));
        match unit {
            Unit::Tabs => rel.is_empty() || rel.starts_with('\t'),
            Unit::Spaces(_) => !rel.contains('\t'),
        }
    })
}

/// Converts relative indentation between units (whole levels; leftover spaces kept).
fn convert(rel: &str, from: &Unit, to: &Unit) -> String {
    if from == to || rel.is_empty() {
        return rel.to_string();
    }
    let width = |u: &Unit| match u {
        Unit::Tabs => 1,
        Unit::Spaces(n) => *n,
    };
    let tabs = rel.chars().filter(|&c| c == '\t').count();
    let spaces = rel.len() - tabs;
    let (levels, extra) = match from {
        Unit::Tabs => (tabs, spaces),
        Unit::Spaces(_) => (tabs + spaces / width(from), spaces % width(from)),
    };
    to.repeat(levels) + &" ".repeat(extra)
}

/// An indentation error Python itself would raise (tree-sitter's Python grammar accepts most of
/// them): the byte range of the offending line's indentation and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonIndentError {
    pub range: std::ops::Range<usize>,
    pub message: &'static str,
}

/// The first indentation error of a Python source, as Python's tokenizer finds it: an indented
/// line that no block opened ("unexpected indent"), a block opener (a line ending with `:`) not
/// followed by a deeper line ("expected an indented block"), a dedent to a column no enclosing
/// block has ("unindent does not match any outer indentation level"), or tabs and spaces mixed
/// so that the meaning depends on the tab width ("inconsistent use of tabs and spaces").
/// Strings, comments, brackets and backslash continuations are followed, so only the first
/// line of each logical line counts.
pub fn python_indentation_error(src: &[u8]) -> Option<PythonIndentError> {
    // Indentation stack of (column with tabs to 8, column with tabs to 1).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let mut expect_block = false;
    let mut depth = 0usize; // open brackets
    let mut string: Option<(u8, bool)> = None; // (quote, triple)
    let mut i = 0;
    let n = src.len();
    let mut at_line_start = true;
    let mut code_on_line = false;
    let mut last = 0u8; // the last byte of code (outside strings and comments) on the line
    while i < n {
        if at_line_start {
            let start = i;
            let (mut col8, mut col1) = (0usize, 0usize);
            while i < n && matches!(src[i], b' ' | b'\t' | b'\x0c') {
                match src[i] {
                    b'\t' => {
                        col8 = (col8 / 8 + 1) * 8;
                        col1 += 1;
                    }
                    b' ' => {
                        col8 += 1;
                        col1 += 1;
                    }
                    _ => {
                        col8 = 0;
                        col1 = 0;
                    }
                }
                i += 1;
            }
            at_line_start = false;
            if i >= n || matches!(src[i], b'\n' | b'\r' | b'#') {
                continue; // blank or comment-only line: no indentation meaning
            }
            let range = start..i;
            let err = |message| {
                Some(PythonIndentError {
                    range: range.clone(),
                    message,
                })
            };
            const TAB: &str = "TabError: inconsistent use of tabs and spaces in indentation";
            let top = *stack.last().expect("never empty");
            if expect_block {
                if col8 <= top.0 {
                    return err("IndentationError: expected an indented block");
                }
                if col1 <= top.1 {
                    return err(TAB);
                }
                stack.push((col8, col1));
                expect_block = false;
            } else if col8 > top.0 {
                return err("IndentationError: unexpected indent");
            } else if col8 < top.0 {
                while stack.last().is_some_and(|t| t.0 > col8) {
                    stack.pop();
                }
                match stack.last() {
                    Some(t) if t.0 == col8 => {
                        if t.1 != col1 {
                            return err(TAB);
                        }
                    }
                    _ => {
                        return err(
                            "IndentationError: unindent does not match any outer indentation level",
                        )
                    }
                }
            } else if col1 != top.1 {
                return err(TAB);
            }
            continue;
        }
        let b = src[i];
        if let Some((q, triple)) = string {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == q {
                last = q;
                if !triple {
                    string = None;
                    i += 1;
                    continue;
                }
                if src[i..].starts_with(&[q, q, q]) {
                    string = None;
                    i += 3;
                    continue;
                }
            }
            if b == b'\n' && !triple {
                string = None; // unterminated: the parser reports it
                continue;
            }
            i += 1;
            continue;
        }
        match b {
            b'#' => {
                while i < n && src[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                code_on_line = true;
                last = b;
                let triple = src[i..].starts_with(&[b, b, b]);
                string = Some((b, triple));
                i += if triple { 3 } else { 1 };
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            // A backslash continuation: the next physical line belongs to this logical line.
            b'\\' if matches!(src.get(i + 1), Some(b'\n') | Some(b'\r')) => {
                i += if src.get(i + 1) == Some(&b'\r') { 3 } else { 2 };
                continue;
            }
            b'\n' if depth == 0 => {
                at_line_start = true;
                if code_on_line {
                    expect_block = last == b':';
                }
                code_on_line = false;
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            code_on_line = true;
            last = b;
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every module of the standard library (top level) compiles, so none has an indentation
    /// error; and removing one indentation level from a block's first line makes one.
    #[test]
    fn python_indentation_check_agrees_with_the_standard_library() {
        let dir = crate::lang::python_stdlib().expect("python3 is needed (CI has it)");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .collect();
        files.sort();
        assert!(files.len() > 100);
        let tmp = tempfile::tempdir().unwrap();
        let mut mine: Vec<(String, bool)> = Vec::new();
        for p in &files {
            let src = std::fs::read(p).unwrap();
            if let Some(e) = python_indentation_error(&src) {
                let line = crate::span::LineIndex::new(&src).position(e.range.start).0;
                panic!("{}:{line}: {}", p.display(), e.message);
            }
            // Dedent the first body line of the first `def` to its `def`'s column.
            let text = String::from_utf8_lossy(&src);
            if let Some(at) = text.find("\n    def ") {
                let body = at + 1 + text[at + 1..].find('\n').unwrap() + 1;
                let lead = leading(&text[body..]).len();
                if lead > 4 {
                    let mut cut = src.clone();
                    cut.drain(body..body + lead - 4);
                    let name = p.file_name().unwrap();
                    std::fs::write(tmp.path().join(name), &cut).unwrap();
                    mine.push((
                        name.to_string_lossy().into_owned(),
                        python_indentation_error(&cut).is_some(),
                    ));
                }
            }
        }
        // Python's own verdict on each broken copy.
        let script = "import sys, pathlib\nfor n in sys.argv[2:]:\n    try:\n        compile(pathlib.Path(sys.argv[1], n).read_bytes(), n, 'exec')\n        print(0)\n    except (IndentationError, TabError):\n        print(1)\n    except SyntaxError:\n        print(2)\n";
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(tmp.path())
            .args(mine.iter().map(|(n, _)| n))
            .output()
            .unwrap();
        let verdicts: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(verdicts.len(), mine.len());
        let mut broken = 0;
        for ((name, found), python) in mine.iter().zip(&verdicts) {
            if python == "2" {
                continue; // another syntax error first (the cut landed in a string)
            }
            assert_eq!(*found, python == "1", "{name}: python says {python}");
            broken += usize::from(*found);
        }
        assert!(broken > 50, "{broken}");
    }

    #[test]
    fn python_indentation_errors() {
        let err = |s: &str| python_indentation_error(s.as_bytes()).map(|e| e.message);
        assert_eq!(err("def f():\n    x = 1\n    return x\n"), None);
        assert_eq!(
            err("def f():\n    x = 1\n        y = 2\n"),
            Some("IndentationError: unexpected indent")
        );
        assert_eq!(
            err("def f():\nreturn 1\n"),
            Some("IndentationError: expected an indented block")
        );
        assert_eq!(
            err("if a:\n    if b:\n        c\n  d\n"),
            Some("IndentationError: unindent does not match any outer indentation level")
        );
        // Strings, brackets, continuations and comments do not count.
        let ok = "x = '''\n  a:\n      b\n'''\ny = (1,\n       2)\nz = 1 + \\\n      2\nif x:  # c:\n    # comment\n        # deeper comment\n    pass\nd = {'a': 1,\n  'b:': 2}\ns = 'a:'\n";
        assert_eq!(err(ok), None);
        assert_eq!(err("class A:\n\tdef f(self):\n\t\tpass\n"), None);
        assert_eq!(
            err("if a:\n\tb\n        c\n"),
            Some("TabError: inconsistent use of tabs and spaces in indentation")
        );
    }

    #[test]
    fn detects_units() {
        assert_eq!(detect_unit("a\n  b\n    c\n"), Unit::Spaces(2));
        assert_eq!(detect_unit("a\n\tb\n\t\tc\n"), Unit::Tabs);
        assert_eq!(detect_unit("flat\n"), Unit::Spaces(4));
        assert_eq!(
            detect_unit("class A:\n    def f(self):\n        pass\n"),
            Unit::Spaces(4)
        );
    }

    #[test]
    fn common_indents() {
        assert_eq!(common_indent("    a\n      b\n\n    c", false), "    ");
        assert_eq!(common_indent("x\n    a\n    b", true), "    ");
    }

    #[test]
    fn dedented_method_goes_to_class_body() {
        let sent = "def area(self):\n    return self.w * self.h\n";
        let got = reindent(sent, "    ", &Unit::Spaces(4), false);
        assert_eq!(got, "    def area(self):\n        return self.w * self.h\n");
    }

    #[test]
    fn over_indented_block_is_brought_back() {
        let sent = "        fn f() {\n            1\n        }";
        assert_eq!(
            reindent(sent, "", &Unit::Spaces(4), false),
            "fn f() {\n    1\n}"
        );
    }

    #[test]
    fn first_line_placed_after_existing_text() {
        // Replacing a span that starts mid-line (after the indentation already in the file).
        let sent = "def f():\n    return 1";
        assert_eq!(
            reindent(sent, "    ", &Unit::Spaces(4), true),
            "def f():\n        return 1"
        );
    }

    #[test]
    fn tabs_follow_the_file() {
        let sent = "fn f() {\n    let x = 1;\n}";
        assert_eq!(
            reindent(sent, "\t", &Unit::Tabs, false),
            "\tfn f() {\n\t\tlet x = 1;\n\t}"
        );
    }

    #[test]
    fn crlf_and_blank_lines_kept() {
        let sent = "a\r\n\r\n  b\r\n";
        assert_eq!(
            reindent(sent, "  ", &Unit::Spaces(2), false),
            "  a\r\n\r\n    b\r\n"
        );
    }
}
