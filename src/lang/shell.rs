//! The lexical scanner of shell scripts: a Bash file's top-level items and function bodies, so
//! that in a file with a syntax error each item is read from a parse of its own, and a function
//! whose body the grammar cannot read is still listed (see `symbols.rs`). Not for region
//! parses: tree-sitter-bash does not read every item alone as it reads it in the whole file.

use super::regions::{Body, Regions};

/// Where the scanner is: the constructs open around it, innermost last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// A subshell `(…)` or an array `(…)`: code up to its `)`.
    Paren,
    /// `$(…)`: code up to its `)`, inside a word.
    Subst,
    /// `{ …; }`: code up to a `}` in command position.
    Group,
    /// `` `…` ``: code up to the next backquote.
    Backquote,
    /// `"…"`: text with `$…` expansions.
    Quoted,
    /// `${…}`: up to its `}`.
    Param,
    /// `$((…))` and `((…))`, with the depth of the parentheses inside.
    Arith(usize),
}

/// Keywords that close or continue a compound command: no item starts with them.
const CONTINUATIONS: &[&[u8]] = &[
    b"then", b"do", b"done", b"fi", b"esac", b"else", b"elif", b"in",
];

/// Bytes that end a word.
fn ends_word(b: u8) -> bool {
    b.is_ascii_whitespace() || b";&|()<>\"'`\\${}".contains(&b)
}

/// The lexical outline of a shell script (see `regions`): an item starts on a line that begins
/// in column 0 with a command or a comment, once the items before it are complete — outside
/// strings, here-documents, brackets, `{…}` groups and `if`/`case`/loop bodies, not after a
/// `|`, `&&`, `||` or `\`. Comment lines stay with the command after them (a function's doc
/// comment), blank lines with the item before.
pub(super) fn regions(src: &[u8]) -> Regions {
    let n = src.len();
    let mut starts: Vec<(usize, Option<Body>)> = vec![(0, None)];
    let mut stack: Vec<Ctx> = Vec::new();
    // Open `if`/`case`/loop commands (`c` for `case`), the here-documents to read after the
    // current line (delimiter, `<<-`), and whether code came since the last item started.
    let mut blocks: Vec<u8> = Vec::new();
    let mut heredocs: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut code = false;
    // The next word is a command (where keywords count); a `case` reads its word, then
    // patterns up to `)` (`(`s opened in them: extended globs); the line so far ends in an
    // operator that joins it to the next (`|`, `&&`).
    let mut command = true;
    let (mut case_word, mut pattern, mut globs) = (false, false, 0usize);
    let mut joined = false;
    // The last word was the keyword `function`: a name comes. The last token completed a
    // function's head; the `{` of a function body not nested in brackets or groups.
    let mut function = false;
    let mut head = false;
    let mut body: Option<usize> = None;
    let mut bodies = Vec::new();
    // The open `[[ … ]]` test: where its inside begins and the depth of `stack` there.
    let mut test: Option<(usize, usize)> = None;
    let mut tests = Vec::new();
    let mut open = false;
    let mut i = 0;
    while i < n {
        let b = src[i];
        let top = stack.last().copied();
        match top {
            Some(Ctx::Quoted) => {
                match b {
                    b'"' => {
                        stack.pop();
                    }
                    b'\\' => i += 1,
                    b'`' => stack.push(Ctx::Backquote),
                    b'$' => i = dollar(src, i, &mut stack, &mut command),
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Ctx::Param) => {
                match b {
                    b'}' => {
                        stack.pop();
                    }
                    b'\\' => i += 1,
                    b'"' => stack.push(Ctx::Quoted),
                    b'\'' if !stack.contains(&Ctx::Quoted) => {
                        i = quote_end(src, i, false, &mut open) - 1
                    }
                    b'`' => stack.push(Ctx::Backquote),
                    b'$' => i = dollar(src, i, &mut stack, &mut command),
                    _ => {}
                }
                i += 1;
                continue;
            }
            Some(Ctx::Arith(d)) => {
                match b {
                    b'(' => *stack.last_mut().unwrap() = Ctx::Arith(d + 1),
                    b')' if d > 0 => *stack.last_mut().unwrap() = Ctx::Arith(d - 1),
                    b')' if src.get(i + 1) == Some(&b')') => {
                        stack.pop();
                        i += 1;
                        command = false;
                    }
                    b'\\' => i += 1,
                    b'"' => stack.push(Ctx::Quoted),
                    b'`' => stack.push(Ctx::Backquote),
                    b'$' => i = dollar(src, i, &mut stack, &mut command),
                    _ => {}
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        let after_head = head;
        head &= b.is_ascii_whitespace() || b == b'#';
        match b {
            b'\n' => {
                i += 1;
                // Here-documents begin on the next line and end at their delimiter's line.
                for (delim, tabs) in heredocs.drain(..) {
                    i = heredoc_end(src, i, &delim, tabs, &mut open);
                }
                if !pattern {
                    command = true;
                }
                if stack.is_empty()
                    && blocks.is_empty()
                    && !joined
                    && code
                    && i < n
                    && starts_item(&src[i..])
                {
                    starts.push((i, None));
                    code = false;
                }
                continue;
            }
            _ if b.is_ascii_whitespace() => {}
            b'#' if i == 0 || ends_word(src[i - 1]) && src[i - 1] != b'$' => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k);
                continue;
            }
            b'\\' => {
                i += 1;
                (code, command, joined) = (true, false, false);
            }
            b'\'' => {
                i = quote_end(src, i, false, &mut open);
                (code, command, joined) = (true, false, false);
                continue;
            }
            b'"' => {
                stack.push(Ctx::Quoted);
                (code, command, joined) = (true, false, false);
            }
            b'`' if top == Some(Ctx::Backquote) => {
                stack.pop();
            }
            b'`' => {
                stack.push(Ctx::Backquote);
                (code, command, joined) = (true, true, false);
            }
            b'$' if src.get(i + 1) == Some(&b'\'') => {
                i = quote_end(src, i + 1, true, &mut open);
                (code, command, joined) = (true, false, false);
                continue;
            }
            b'$' => {
                i = dollar(src, i, &mut stack, &mut command);
                (code, joined) = (true, false);
            }
            b'(' if pattern => {
                if i > 0 && b"@?*+!".contains(&src[i - 1]) {
                    globs += 1;
                }
            }
            b')' if pattern && globs > 0 => globs -= 1,
            b')' if pattern => (pattern, command) = (false, true),
            b'(' if command && src.get(i + 1) == Some(&b'(') => {
                stack.push(Ctx::Arith(0));
                i += 1;
                code = true;
            }
            b'(' => {
                // `name()` of a function definition, or a subshell, array or `$(`.
                let close = src[i + 1..].iter().position(|c| !matches!(c, b' ' | b'\t'));
                // A function's head is joined to its body, which may begin on the next line.
                let is_head = !command && close.is_some_and(|k| src[i + 1 + k] == b')');
                if is_head {
                    i += 1 + close.unwrap();
                    head = true;
                } else {
                    stack.push(Ctx::Paren);
                }
                (code, command, joined) = (true, true, is_head);
            }
            b')' => {
                // After `$(…)` the word goes on; after a subshell comes an operator.
                (command, joined) = (top != Some(Ctx::Subst), false);
                if matches!(top, Some(Ctx::Paren | Ctx::Subst)) {
                    stack.pop();
                }
            }
            b'{' if command && src.get(i + 1).is_none_or(u8::is_ascii_whitespace) => {
                if after_head && stack.is_empty() {
                    body = Some(i + 1);
                }
                stack.push(Ctx::Group);
                (code, joined) = (true, false);
            }
            b'}' if command && top == Some(Ctx::Group) => {
                stack.pop();
                command = false;
                if stack.is_empty() {
                    bodies.extend(body.take().map(|open| open..i));
                }
            }
            b';' if src.get(i + 1) == Some(&b';') || src.get(i + 1) == Some(&b'&') => {
                // `;;`, `;&`, `;;&`: the next pattern of a `case`.
                i += 1 + usize::from(src.get(i + 2) == Some(&b'&'));
                pattern = blocks.last() == Some(&b'c');
                command = !pattern;
            }
            b';' => (command, joined) = (true, false),
            b'|' if src.get(i + 1) == Some(&b'&') => {
                // `a |& b`
                i += 1;
                (joined, command) = (true, true);
            }
            b'|' | b'&' => {
                let double = src.get(i + 1) == Some(&b);
                i += usize::from(double);
                if !pattern {
                    // `a | b`, `a && b`; a lone `&` ends a command like `;`.
                    joined = b == b'|' || double;
                    command = true;
                }
            }
            // A here-string `<<<`, or a here-document `<<`.
            b'<' if src[i..].starts_with(b"<<<") => i += 2,
            b'<' if src.get(i + 1) == Some(&b'<') => {
                let (delim, tabs, end) = heredoc_start(src, i + 2);
                if !delim.is_empty() {
                    heredocs.push((delim, tabs));
                }
                i = end;
                (code, joined) = (true, false);
                continue;
            }
            _ => {
                let end = src[i..]
                    .iter()
                    .position(|&c| ends_word(c))
                    .map_or(n, |k| i + k)
                    .max(i + 1);
                let word = &src[i..end];
                if let Some((from, depth)) = test {
                    if word.ends_with(b"]]") && stack.len() == depth {
                        tests.push(from..end - 2);
                        test = None;
                    }
                } else if command && word == b"[[" {
                    test = Some((end, stack.len()));
                }
                if function {
                    // `function name {` or `function name() {`.
                    function = false;
                    let next = src[end..].iter().find(|c| !matches!(c, b' ' | b'\t'));
                    command = next != Some(&b'(');
                    (code, joined, head) = (true, command, command);
                    i = end;
                    continue;
                } else if pattern {
                    if word == b"esac" && globs == 0 {
                        blocks.pop();
                        (pattern, command) = (false, false);
                    }
                } else if case_word && word == b"in" {
                    (case_word, pattern) = (false, true);
                } else if command {
                    command = match word {
                        b"if" | b"while" | b"until" => {
                            blocks.push(b'i');
                            true
                        }
                        b"for" | b"select" => {
                            blocks.push(b'l');
                            false
                        }
                        b"case" => {
                            blocks.push(b'c');
                            case_word = true;
                            false
                        }
                        b"fi" | b"done" | b"esac" => {
                            blocks.pop();
                            false
                        }
                        b"function" => {
                            function = true;
                            false
                        }
                        b"then" | b"do" | b"else" | b"elif" | b"!" | b"time" => true,
                        // `x=1 cmd`: an assignment leaves the command to come.
                        _ => word.contains(&b'='),
                    };
                }
                (code, joined) = (true, false);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    open |= !stack.is_empty() || !blocks.is_empty() || !heredocs.is_empty();
    Regions {
        bodies,
        tests,
        independent: false,
        ..Regions::from_starts(n, starts, !open)
    }
}

/// After a `$` at `i`: opens what it opens (`$(`, `$((`, `${`, `$"`) and returns the index of
/// its last byte. Code inside `$(` begins with a command.
fn dollar(src: &[u8], i: usize, stack: &mut Vec<Ctx>, command: &mut bool) -> usize {
    match (src.get(i + 1), src.get(i + 2)) {
        (Some(b'('), Some(b'(')) => {
            stack.push(Ctx::Arith(0));
            i + 2
        }
        (Some(b'('), _) => {
            stack.push(Ctx::Subst);
            *command = true;
            i + 1
        }
        (Some(b'{'), _) => {
            stack.push(Ctx::Param);
            i + 1
        }
        (Some(b'"'), _) => {
            stack.push(Ctx::Quoted);
            i + 1
        }
        _ => {
            *command = false;
            i
        }
    }
}

/// Past the quote opened by the `'` at `i` (`$'…'` with `\` escapes); `open` when none closes.
fn quote_end(src: &[u8], i: usize, escapes: bool, open: &mut bool) -> usize {
    let mut j = i + 1;
    while j < src.len() {
        match src[j] {
            b'\'' => return j + 1,
            b'\\' if escapes => j += 2,
            _ => j += 1,
        }
    }
    *open = true;
    src.len()
}

/// A here-document's operator after its `<<` at `i`: its delimiter without quotes, whether
/// `<<-` strips leading tabs, and where the delimiter word ends.
fn heredoc_start(src: &[u8], mut i: usize) -> (Vec<u8>, bool, usize) {
    let tabs = src.get(i) == Some(&b'-');
    i += usize::from(tabs);
    while matches!(src.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let mut delim = Vec::new();
    while let Some(&c) = src.get(i) {
        match c {
            b'\'' | b'"' => {
                let close = memchr::memchr(c, &src[i + 1..]).map_or(src.len(), |k| i + 1 + k);
                delim.extend_from_slice(&src[i + 1..close]);
                i = close + 1;
            }
            b'\\' => {
                delim.extend(src.get(i + 1));
                i += 2;
            }
            _ if c.is_ascii_whitespace() || b";&|<>()".contains(&c) => break,
            _ => {
                delim.push(c);
                i += 1;
            }
        }
    }
    (delim, tabs, i.min(src.len()))
}

/// Past the line that ends a here-document whose text begins at `i` (its delimiter alone on
/// the line, after tabs for `<<-`; a CRLF line's `\r` allowed); `open` when none does.
fn heredoc_end(src: &[u8], mut i: usize, delim: &[u8], tabs: bool, open: &mut bool) -> usize {
    while i < src.len() {
        let eol = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |k| i + k);
        let mut line = &src[i..eol];
        if tabs {
            line = &line[line.iter().take_while(|&&c| c == b'\t').count()..];
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line == delim {
            return (eol + 1).min(src.len());
        }
        i = eol + 1;
    }
    *open = true;
    src.len()
}

/// Whether a line can begin an item: a command or a comment, not a keyword that continues a
/// compound command.
fn starts_item(line: &[u8]) -> bool {
    let Some(&first) = line.first() else {
        return false;
    };
    if first.is_ascii_whitespace() || b")}|&;".contains(&first) {
        return false;
    }
    let end = line
        .iter()
        .position(|&c| ends_word(c))
        .unwrap_or(line.len());
    !CONTINUATIONS.contains(&&line[..end])
}

#[cfg(test)]
mod tests {
    use crate::lang::regions::Regions;

    fn scan(src: &str) -> (Vec<&str>, Vec<&str>, Regions) {
        let r = super::regions(src.as_bytes());
        let items = r.items.iter().map(|i| &src[i.range.clone()]).collect();
        let bodies = r.bodies.iter().map(|b| &src[b.clone()]).collect();
        (items, bodies, r)
    }

    #[test]
    fn items_start_at_commands_in_column_0_with_their_comments() {
        let src = "#!/bin/sh\nset -e\n\n# Doc of f.\nf()\n{\n\techo }\n}\n\nfunction g {\n  :\n}\nx=1 \\\ny=2\nls |\nwc -l\n";
        let (items, bodies, r) = scan(src);
        assert_eq!(
            items,
            [
                "#!/bin/sh\nset -e\n\n",
                "# Doc of f.\nf()\n{\n\techo }\n}\n\n",
                "function g {\n  :\n}\n",
                "x=1 \\\ny=2\n",
                "ls |\nwc -l\n",
            ]
        );
        assert_eq!(bodies, ["\n\techo }\n", "\n  :\n"]);
        assert!(r.balanced && !r.independent);
    }

    #[test]
    fn strings_heredocs_and_compound_commands_hold_no_boundary() {
        // Each piece is one item: nothing inside it starts another.
        let pieces = [
            "cat <<'EOF' >x\nf() {\n}\nEOF\n",
            "cat <<-END\n\tg() {\n\tEND\n",
            "if [[ $a == @(x|y) ]]; then\nh() { :; }\nfi\n",
            "case $v in\nif) echo \"}\n# no comment\" ;;\n*.@(gz|bz2)) x=$((1 << 2)) ;;\nesac\n",
            "s='\n}\n'\n",
            "t=$(echo \"$(date)\n}\")\n",
            "read -r w <<< \"$x\"\n",
            "echo ${#x} $# a#b # c {\n",
            "k() {\n  for ((i = 0; i < 2; i++)); do\n    :\n  done\n}\n",
        ];
        let src = pieces.concat();
        let (items, bodies, r) = scan(&src);
        assert_eq!(items, pieces);
        assert_eq!(
            bodies,
            [" :; ", "\n  for ((i = 0; i < 2; i++)); do\n    :\n  done\n"]
        );
        assert!(r.balanced);
        let tests: Vec<&str> = r.tests.iter().map(|t| &src[t.clone()]).collect();
        assert_eq!(tests, [" $a == @(x|y) "]);
    }

    #[test]
    fn tests_end_at_their_own_closing_brackets() {
        let src = "[[ -n $(f \"]]\") ]] && [[ $l =~ ^[[(](.+)[])]$ ]]\necho [[ x ]]\nif [[ a\n  == b ]]; then :; fi\n";
        let r = super::regions(src.as_bytes());
        let tests: Vec<&str> = r.tests.iter().map(|t| &src[t.clone()]).collect();
        assert_eq!(
            tests,
            [" -n $(f \"]]\") ", " $l =~ ^[[(](.+)[])]$ ", " a\n  == b "]
        );
    }

    #[test]
    fn an_unclosed_heredoc_or_quote_is_not_balanced() {
        for src in ["cat <<EOF\nf() {\n}\n", "echo 'a\n", "f() {\n  :\n"] {
            let (items, _, r) = scan(src);
            assert!(!r.balanced, "{src:?}");
            assert_eq!(items, [src]);
        }
    }
}
