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
    for line in text.lines().filter(|l| !is_blank(l)) {
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
    let lines: Vec<&str> = text.split('\n').collect();
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
    let source_unit = detect_unit(text);
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
            out.push_str(cr);
            continue;
        }
        let lead = leading(body);
        let rel = lead
            .strip_prefix(base.as_str())
            .unwrap_or_else(|| lead.trim_start_matches(base.trim_end()));
        let rel = convert(rel, &source_unit, unit);
        if !(i == 0 && first_line_placed) {
            out.push_str(target);
        }
        out.push_str(&rel);
        out.push_str(&body[lead.len()..]);
        out.push_str(cr);
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

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
