//! What `--delete` removes around a symbol: its whole lines and the blank lines it leaves; as a
//! member of a list, its own separator (the `,` after an enum variant or a field, the `;` after
//! a TypeScript interface member; for the last member without one, the separator before it);
//! and a comment on the same line after it. One of several names a declaration declares goes
//! alone (`declarators`). A deletion that would change other definitions (a Go constant whose
//! value the specs after it repeat, a name whose declaration cannot lose it) is refused. A Bash
//! function first in an `&&` list that only names it (`f() {…} && complete -F f c`) goes with it.

use super::actions::{is_blank_line, line_end_after_newline, line_start};
use crate::edit::Edit;
use crate::envelope::{DiagnosticPayload, Level};
use crate::error::{Code, Error};
use crate::lang::regions::Cut;
use crate::lang::symbols::{Symbol, SymbolKind};
use crate::lang::Language;
use crate::span::LineIndex;
use std::ops::Range;
use tree_sitter::{Node, Tree};

/// The edits that delete `symbols[i]`: the definition's range and, for the last member of a
/// list, the separator before it when text lies between them (`A, // c` on the line above).
pub fn delete_edits(
    src: &[u8],
    symbols: &[Symbol],
    i: usize,
    language: &Language,
    display: &str,
) -> Result<Vec<Edit>, Error> {
    let s = &symbols[i];
    // One of several names of a declaration: that name alone, where the syntax allows it.
    if let Err(e) = shared_declaration(symbols, i, display) {
        return super::declarators::one_name(src, s, language).ok_or(e);
    }
    if language.name == "bash" {
        if let Some(list) = bash_list(src, s, language, display)? {
            let start = s.span.byte_start.min(list.start);
            return Ok(vec![Edit::new(
                delete_range(src, start, list.end, false),
                "",
            )]);
        }
    }
    let tree = tree_around(src, s, language);
    let member = tree.as_ref().and_then(|t| member_node(t, s));
    if let (Some(m), "go") = (member, language.name) {
        go_repeated_value(src, s, m, display)?;
    }
    let after = member.and_then(|m| separator_after(src, s, m));
    let end = after.as_ref().map_or(s.span.byte_end, |r| r.end);
    let starts_line = spaces(src, line_start(src, s.span.byte_start)..s.span.byte_start);
    let comment = match (&tree, starts_line) {
        (Some(t), true) => trailing_comment(src, t, end, language),
        _ => None,
    };
    let end = comment.map_or(end, |r| r.end);
    let before = match after {
        None => member.and_then(|m| separator_before(src, s, m)),
        Some(_) => None,
    };
    let main = delete_range(src, s.span.byte_start, end, after.is_some());
    // Text after it on its line, which stays (a Java enum's `;` before its members).
    let mid_line = main.end > 0 && main.end < src.len() && src[main.end - 1] != b'\n';
    let blank = |r: Range<usize>| src[r].iter().all(|b| b.is_ascii_whitespace());
    Ok(match before {
        // `{ A, B }`: `, B` at once; `A,` above `B;` becomes `A;`.
        // A list written with leading commas (`  , B` on its own line) loses the whole line
        // (a line of spaces was left).
        Some(sep)
            if spaces(src, sep.end..main.start)
                && spaces(src, line_start(src, sep.start)..sep.start) =>
        {
            vec![Edit::new(delete_range(src, sep.start, main.end, false), "")]
        }
        Some(sep)
            if spaces(src, sep.end..main.start)
                || (mid_line && blank(sep.end..s.span.byte_start)) =>
        {
            vec![Edit::new(sep.start..main.end, "")]
        }
        Some(sep) => vec![Edit::new(sep, ""), Edit::new(main, "")],
        None => vec![Edit::new(main, "")],
    })
}

/// The definition's whole lines (from `start` to `end0`) plus the blank lines it would leave
/// behind: the blank lines after it, or when there are none (last item), the ones before it.
/// A definition that shares a line with other text leaves that text where it was, with the
/// line's indentation (`int a; int b;` keeps `    int b;`), and the spaces between them go:
/// after it when it starts the line or a separator was taken (`separated`: `{ A, B }` becomes
/// `{ B }`), else before it.
fn delete_range(src: &[u8], start: usize, end0: usize, separated: bool) -> Range<usize> {
    let ls = line_start(src, start);
    let whole_start = spaces(src, ls..start);
    let le = if end0 > 0 && src[end0 - 1] == b'\n' {
        end0
    } else {
        line_end_after_newline(src, end0)
    };
    let whole_end = src[end0..le].iter().all(|b| b.is_ascii_whitespace());
    let before = src[ls..start].iter().rev();
    let before = before.take_while(|b| matches!(b, b' ' | b'\t')).count();
    if !whole_end && (separated || whole_start) {
        let after = src[end0..].iter().take_while(|b| matches!(b, b' ' | b'\t'));
        return start..end0 + after.count();
    }
    if !whole_start {
        // Text before it on its line (`int a; int b; // both`, `{ A,` with `A` deleted):
        // the spaces before it go.
        return start - before..end0;
    }
    let (start, end) = (ls, le);
    let mut after = end;
    while let Some(next) = is_blank_line(src, after) {
        after = next;
    }
    if after > end {
        return start..after;
    }
    let mut start = start;
    while start > 0 {
        let prev = line_start(src, start - 1);
        if is_blank_line(src, prev).is_none() {
            break;
        }
        start = prev;
    }
    if end == src.len() && !src.ends_with(b"\n") && start > 0 {
        // The file had no final newline: the line before becomes the last one, without one.
        start -= 1;
        if start > 0 && src[start - 1] == b'\r' {
            start -= 1;
        }
    }
    start..end
}

/// The syntax tree around the symbol when what follows or precedes it may be a separator or a
/// comment of its own (else `None`: its lines are all a delete needs). Only the top-level items
/// holding the symbol and its line are parsed (the whole file without a region scanner).
fn tree_around(src: &[u8], s: &Symbol, language: &Language) -> Option<Tree> {
    let (start, end) = (s.span.byte_start, s.span.byte_end);
    let line_end = line_end_after_newline(src, end.max(1) - 1).max(end);
    let rest_of_line = !src[end..line_end].trim_ascii().is_empty();
    let next = src[end..].iter().find(|b| !b.is_ascii_whitespace());
    let last_member = s.depth > 0 && matches!(next, Some(b'}' | b')' | b']' | b';'));
    let after_separator = matches!(src[..start].trim_ascii_end().last(), Some(b',' | b';'));
    let go_const = language.name == "go" && s.kind == SymbolKind::Const;
    if !(rest_of_line || last_member || after_separator || go_const) {
        return None;
    }
    let from = src[..start]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .unwrap_or(start);
    Some(items_tree(src, from..line_end, language))
}

/// The tree of the top-level items that hold `range` (the whole file without a region
/// scanner), as a delete reads the syntax around a symbol.
pub(super) fn items_tree(src: &[u8], range: Range<usize>, language: &Language) -> Tree {
    let index = LineIndex::new(src);
    language
        .parse_around(src, &index, &[range], Cut::Items)
        .tree
}

/// The outermost node of the definition inside its span (an `export_statement`, a Python
/// assignment's `expression_statement`): the node whose siblings are the list's separators.
fn member_node<'t>(tree: &'t Tree, s: &Symbol) -> Option<Node<'t>> {
    let (ns, span) = (&s.node_span, &s.span);
    let within = |n: &Node| n.start_byte() >= span.byte_start && n.end_byte() <= span.byte_end;
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(ns.byte_start, ns.byte_end)?;
    if !within(&n) || n.parent().is_none() {
        return None;
    }
    while let Some(p) = n.parent().filter(|p| within(p) && p.parent().is_some()) {
        n = p;
    }
    Some(n)
}

fn is_separator(n: &Node) -> bool {
    !n.is_named() && matches!(n.kind(), "," | ";") && n.end_byte() > n.start_byte()
}

/// Whether only spaces and tabs lie in `range` of `src`.
fn spaces(src: &[u8], range: Range<usize>) -> bool {
    src[range].iter().all(|b| *b == b' ' || *b == b'\t')
}

/// The member's own separator: a `,` or `;` of its list right after it on its line.
fn separator_after(src: &[u8], s: &Symbol, member: Node) -> Option<Range<usize>> {
    let next = member.next_sibling().filter(is_separator)?;
    let end = s.span.byte_end.max(member.end_byte());
    (next.start_byte() >= end && spaces(src, end..next.start_byte())).then(|| next.byte_range())
}

/// For the last member of a list, which has no separator after it: the one before it (the
/// previous member's), so that the list keeps its style (`{ A, B }` becomes `{ A }`, not
/// `{ A, }`). A `,` anywhere before it, a `;` on its own line (`X = 1; Y = 2`); none when
/// another member of its kind follows without a separator.
fn separator_before(src: &[u8], s: &Symbol, member: Node) -> Option<Range<usize>> {
    let comment = |n: &Node| n.kind().contains("comment");
    let mut next = member.next_sibling();
    while let Some(n) = next.filter(comment) {
        next = n.next_sibling();
    }
    if next.is_some_and(|n| n.kind() == member.kind()) {
        return None;
    }
    let mut prev = member.prev_sibling();
    // Attributes and doc comments in the span, comments after the previous member.
    while let Some(p) = prev.filter(|p| p.start_byte() >= s.span.byte_start || comment(p)) {
        prev = p.prev_sibling();
    }
    let sep = prev.filter(is_separator)?;
    let same_line = spaces(src, sep.end_byte()..s.span.byte_start);
    (sep.kind() == "," || same_line).then(|| sep.byte_range())
}

/// A comment that starts after `end` on the same line (`X int // the x`), with nothing after
/// it on the line it ends on (a block comment may go on over the lines below: `int n; /*` …).
fn trailing_comment(
    src: &[u8],
    tree: &Tree,
    end: usize,
    language: &Language,
) -> Option<Range<usize>> {
    let at = end
        + src[end..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
    if at >= src.len() || matches!(src[at], b'\r' | b'\n') {
        return None;
    }
    let mut n = tree.root_node().descendant_for_byte_range(at, at)?;
    while !language.rules.comments.contains(&n.kind()) {
        n = n.parent()?;
    }
    let last = n.end_byte().max(1) - 1;
    let rest = &src[n.end_byte()..line_end_after_newline(src, last).max(n.end_byte())];
    (n.start_byte() == at && rest.trim_ascii().is_empty()).then(|| n.byte_range())
}

/// Refuses to delete one of several names a declaration declares together (`int x, y;`,
/// `const A = 1, B = 2;`): their span is the whole declaration, and all would go.
fn shared_declaration(symbols: &[Symbol], i: usize, display: &str) -> Result<(), Error> {
    let s = &symbols[i];
    let others: Vec<&str> = (symbols.iter().enumerate())
        .filter(|(j, o)| *j != i && o.name != s.name && o.node_span.range() == s.node_span.range())
        .map(|(_, o)| o.name.as_str())
        .collect();
    if others.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        Code::PatchDeleteChangesOthers,
        format!(
            "{} `{}` is declared in one declaration with `{}` ({display}:{}): deleting it would delete them too; nothing was written",
            s.kind.as_str(),
            s.qualified_name,
            others.join("`, `"),
            s.span.start_line
        ),
        format!(
            "replace the declaration with one without `{}` (llm patch --file {display} --symbol {} --with-text …)",
            s.name, s.qualified_name
        ),
    )
    .with_span(s.span.clone())
    .rejected())
}

/// Refuses to delete a Go constant whose value the specs after it repeat (`A Mode = 1 << iota`
/// followed by `B` and `C`): deleting the first of a group leaves `B` without a value (`gofmt`:
/// missing constant value), deleting a later one hands `B` the expression before it.
fn go_repeated_value(src: &[u8], s: &Symbol, spec: Node, display: &str) -> Result<(), Error> {
    if spec.kind() != "const_spec" || spec.child_by_field_name("value").is_none() {
        return Ok(());
    }
    let mut next = spec.next_named_sibling();
    while let Some(n) = next.filter(|n| n.kind() == "comment") {
        next = n.next_named_sibling();
    }
    let Some(next) =
        next.filter(|n| n.kind() == "const_spec" && n.child_by_field_name("value").is_none())
    else {
        return Ok(());
    };
    let mut prev = spec.prev_named_sibling();
    while let Some(n) = prev.filter(|n| n.kind() == "comment") {
        prev = n.prev_named_sibling();
    }
    let first = prev.is_none_or(|n| n.kind() != "const_spec");
    let name = next.child_by_field_name("name").map_or("", |n| {
        std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
    });
    let value = (spec.child_by_field_name("value")).map_or(Default::default(), |v| {
        String::from_utf8_lossy(&src[v.byte_range()])
    });
    let what = if first {
        format!("`{name}` would be left without a value, which Go rejects (missing constant value)")
    } else {
        format!(
            "`{name}` would repeat the expression before `{}` instead",
            s.name
        )
    };
    Err(Error::new(
        Code::PatchDeleteChangesOthers,
        format!(
            "const `{}` ({display}:{}) gives its value to the constants after it, which repeat `{}` implicitly: {what}; nothing was written",
            s.qualified_name,
            s.span.start_line,
            value.trim()
        ),
        format!(
            "give `{name}` a value of its own first (llm patch --file {display} --symbol {name} --with-text '{name} = …'; iota counts from the top of the group), then delete `{}`; or replace the whole const group",
            s.name
        ),
    )
    .with_span(s.span.clone())
    .rejected())
}

/// A warning when deleting a Go constant moves constants after it whose value counts `iota`
/// (`_ = iota` before `KB = 1 << (10 * iota)`): iota numbers the specs from the top of the
/// group, so theirs change. Deleting is what was asked; the values are for the caller to check.
pub fn go_iota_warning(
    src: &[u8],
    s: &Symbol,
    language: &Language,
    display: &str,
) -> Option<DiagnosticPayload> {
    if language.name != "go" || s.kind != SymbolKind::Const {
        return None;
    }
    let tree = tree_around(src, s, language)?;
    let spec = member_node(&tree, s).filter(|n| n.kind() == "const_spec")?;
    let uses_iota = |v: Node| {
        let mut stack = vec![v];
        while let Some(n) = stack.pop() {
            if n.kind() == "iota" || (n.kind() == "identifier" && &src[n.byte_range()] == b"iota") {
                return true;
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        false
    };
    // Whether the value a spec has or repeats counts iota, spec by spec from the group's top.
    let mut counts = spec.parent().and_then(|g| {
        let mut c = g.walk();
        let before = g.named_children(&mut c).take_while(|n| n.id() != spec.id());
        let values = before.filter_map(|n| n.child_by_field_name("value"));
        values.last().map(uses_iota)
    });
    let mut moved = Vec::new();
    let mut next = spec.next_named_sibling();
    while let Some(n) = next {
        next = n.next_named_sibling();
        if n.kind() != "const_spec" {
            continue;
        }
        if let Some(v) = n.child_by_field_name("value") {
            counts = Some(uses_iota(v));
        }
        if counts == Some(true) {
            let name = n.child_by_field_name("name").map(|k| &src[k.byte_range()]);
            moved.push(format!(
                "`{}`",
                String::from_utf8_lossy(name.unwrap_or(b"?"))
            ));
        }
    }
    if moved.is_empty() {
        return None;
    }
    let shown = match moved.len() {
        1 => format!("{} now has another value", moved[0]),
        2..=4 => format!("{} now have other values", moved.join(", ")),
        n => format!(
            "{} and {} more now have other values",
            moved[..3].join(", "),
            n - 3
        ),
    };
    Some(
        Error::new(
            Code::PatchDeleteChangesOthers,
            format!(
                "the constants after `{}` in its group count iota, which numbers the specs from the top of the group: {shown}",
                s.name
            ),
            "check their values; to keep them, keep a `_` spec in its place, or add the offset where iota is counted (`iota + 1`)",
        )
        .with_file(display)
        .with_span(s.span.clone())
        .diagnostic(Level::Warning),
    )
}

/// Bash: a function defined as the first command of an `&&`/`||` list (`f() { …; } && complete
/// -F f cmd`, bash-completion's style). Deleted alone, `&& complete …` was left, a syntax
/// error. Where every other command of the list names the function as a word, the list goes
/// with it (its range); where one does not, or the function is not the list's first command,
/// the delete is refused (`PATCH_E011`): that command would go too. `None`: not in a list.
fn bash_list(
    src: &[u8],
    s: &Symbol,
    language: &Language,
    display: &str,
) -> Result<Option<Range<usize>>, Error> {
    let tree = language.parse(src);
    let name = s.name_span.range();
    let Some(mut node) = tree
        .root_node()
        .descendant_for_byte_range(name.start, name.end)
    else {
        return Ok(None);
    };
    while node.kind() != "function_definition" {
        match node.parent() {
            Some(p) => node = p,
            None => return Ok(None),
        }
    }
    let def = node;
    let mut first = true;
    while let Some(p) = node.parent().filter(|p| p.kind() == "list") {
        first &= p.named_child(0) == Some(node);
        node = p;
    }
    if node == def {
        return Ok(None);
    }
    let list = node;
    // Every command of the list but the definition, and whether it names the function.
    let mut others = Vec::new();
    let mut stack = vec![list];
    while let Some(n) = stack.pop() {
        if n.kind() == "list" {
            stack.extend((0..n.named_child_count() as u32).filter_map(|k| n.named_child(k)));
        } else if n != def {
            others.push(n);
        }
    }
    let names = |n: &Node| {
        let mut cursor = n.walk();
        let found = n
            .children_by_field_name("argument", &mut cursor)
            .any(|a| a.kind() == "word" && src[a.byte_range()] == *s.name.as_bytes());
        found
    };
    let stranger = others.iter().find(|n| !names(n));
    // The comments right above the list are the function's, as above a definition alone.
    let mut start = list.start_byte();
    let mut above = list.prev_sibling();
    // A shebang is the file's.
    while let Some(c) =
        above.filter(|c| c.kind() == "comment" && !src[c.byte_range()].starts_with(b"#!"))
    {
        let gap = &src[c.end_byte()..start];
        if gap.iter().filter(|&&b| b == b'\n').count() != 1
            || !gap.iter().all(u8::is_ascii_whitespace)
        {
            break;
        }
        start = c.start_byte();
        above = c.prev_sibling();
    }
    match stranger {
        None if first => Ok(Some(start..list.end_byte())),
        _ => {
            let other = stranger.or(others.first()).copied().unwrap_or(list);
            let text = String::from_utf8_lossy(&src[other.byte_range()]);
            let line = LineIndex::new(src)
                .span(display, other.start_byte()..other.start_byte())
                .start_line;
            Err(Error::new(
                Code::PatchDeleteChangesOthers,
                format!(
                    "function `{}` is one command of an `&&`/`||` list with `{}` (line {line}), which does not only name it: deleted alone, the list would be broken",
                    s.name,
                    text.lines().next().unwrap_or_default()
                ),
                "take the function out of the list first (its own line, then `complete -F f cmd` apart), or edit the list as a whole; nothing was deleted",
            )
            .with_file(display))
        }
    }
}
