//! A symbol query dealt into parts of whole patterns, compiled on threads of their own (see
//! `Language::symbol_queries`): a pattern matches alone, so the parts' matches together are
//! the whole query's.

/// Into how many queries a symbol query is dealt: one per core, at most four (each part
/// repeats tree-sitter's scan of the parse table, a fixed ~15 ms in C++).
pub fn query_parts_wanted() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// A query of fewer patterns is compiled whole (measured: C# and Java lose in parts, C++ and
/// TypeScript, 28 patterns each, gain).
const SPLIT_FROM: usize = 24;

/// The patterns of a query's text (each with the comments before it), dealt into at most
/// `parts` texts (fewer when there are fewer patterns), the longest first, each to the part
/// with the least text so far (a pattern's analysis costs about as much as its nesting, which
/// its length follows).
pub fn query_parts(text: &str, parts: usize) -> Vec<String> {
    let mut patterns = patterns(text);
    // A smaller query (C#, Java: few patterns, a costly fixed scan) costs more in parts.
    let parts = if patterns.len() < SPLIT_FROM {
        1
    } else {
        parts
    };
    let n = parts.clamp(1, patterns.len().max(1));
    let mut out = vec![String::new(); n];
    // Stable: equal lengths keep the query's order.
    patterns.sort_by_key(|p| std::cmp::Reverse(p.trim().len()));
    for p in patterns {
        let k = (0..n).min_by_key(|&k| out[k].len()).unwrap_or(0);
        out[k].push_str(p);
        out[k].push('\n');
    }
    out
}

/// Splits a query's text where a pattern begins: an opening `(` or `[` at depth 0, outside
/// strings and `;` comments. What follows a pattern (its captures, quantifiers, the comments
/// before the next one) stays with it.
fn patterns(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => {
                if depth == 0 {
                    starts.push(i);
                }
                depth += 1;
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    // Each pattern runs to the next one's start; the text before the first goes with it.
    let mut out = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let from = if k == 0 { 0 } else { s };
        let to = starts.get(k + 1).copied().unwrap_or(b.len());
        out.push(&text[from..to]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::ALL;

    #[test]
    fn patterns_are_split_whole_outside_strings_and_comments() {
        let q = "; a (comment [\n(a (b) @x) @y\n(c \"(\" [(d) (e)] @z\n  (#match? @z \"^[(]\"))\n[(f) (g)] @w\n";
        assert_eq!(
            patterns(q),
            [
                "; a (comment [\n(a (b) @x) @y\n",
                "(c \"(\" [(d) (e)] @z\n  (#match? @z \"^[(]\"))\n",
                "[(f) (g)] @w\n",
            ]
        );
        let parts = query_parts(&q.repeat(SPLIT_FROM), 2);
        assert_eq!(parts.len(), 2);
        assert!(parts[0].starts_with("(c "), "the longest first: {parts:?}");
        assert!(parts[1].contains("(a (b)") && parts[1].contains("[(f)"));
        assert_eq!(query_parts("(a) @x", 4).len(), 1);
        let many = "(a) @x\n".repeat(SPLIT_FROM);
        assert_eq!(query_parts(&many, 2).len(), 2);
        assert_eq!(query_parts(&many[2..], 2).len(), 1, "one pattern fewer");
    }

    /// Every language's parts hold all its patterns: as many as the whole query compiles to.
    #[test]
    fn the_parts_of_every_symbol_query_hold_all_its_patterns() {
        for l in ALL {
            let whole = tree_sitter::Query::new(l.ts(), l.symbol_query).unwrap();
            let parts = l.symbol_queries();
            let count: usize = parts.iter().map(|q| q.pattern_count()).sum();
            assert_eq!(count, whole.pattern_count(), "{}", l.name);
            assert_eq!(
                parts.len(),
                if whole.pattern_count() < SPLIT_FROM {
                    1
                } else {
                    query_parts_wanted()
                },
                "{}",
                l.name
            );
        }
    }
}
