//! "Did you mean": the closest names to a misspelt one, for remediations (types, symbols, nodes).

/// Up to `max` candidates closest to `wanted` by edit distance (case-insensitive), best first.
/// Only reasonably close names are returned: distance at most a third of the longer name, or a
/// candidate containing `wanted` (or the reverse) when the contained name has two chars or
/// more (every name with an `a` in it "contains" `a`: `find a` on 200,000 `def fN(): pass`
/// took `pass` for a suggestion and parsed the whole file to see whether it is defined).
///
/// The distance of two names is at least the difference of their lengths, so a candidate
/// whose length differs by more than the limit is never measured: `find` passes every word of
/// the files, and one 2 MB word measured against a 16-char name took 2 s and 300 MB.
pub fn closest<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let w = wanted.to_lowercase();
    let wn = w.chars().count();
    let mut scored: Vec<(usize, String)> = candidates
        .filter_map(|c| {
            let lc = c.to_lowercase();
            let cn = lc.chars().count();
            let limit = (wn.max(cn) / 3).max(1);
            let contains = wn.min(cn) > 1 && (lc.contains(&w) || w.contains(&lc));
            // Farther than `limit` when the lengths alone differ by more.
            let d = if wn.abs_diff(cn) > limit {
                limit + 1
            } else {
                levenshtein(&w, &lc)
            };
            (d <= limit || contains)
                .then(|| (if contains { d.min(limit) } else { d }, c.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c).collect()
}

/// Edit distance over chars where insertions, deletions, substitutions and swaps of two
/// neighbouring chars each cost 1 (optimal string alignment). Three rows of `b`'s length are
/// kept, not the whole table.
pub fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(before[j - 2] + 1);
            }
            cur[j] = v;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "ab"), 2);
        assert_eq!(levenshtein("same", "same"), 0);
        assert_eq!(levenshtein("rsut", "rust"), 1);
        assert_eq!(levenshtein("ab", ""), 2);
        assert_eq!(levenshtein("ca", "abc"), 3);
        assert_eq!(levenshtein("abcdef", "badcfe"), 3);
    }

    #[test]
    fn closest_names() {
        let names = ["rust", "ruby", "python", "py", "toml"];
        assert_eq!(closest("rsut", names.iter().copied(), 2), vec!["rust"]);
        assert!(closest("zzzzzz", names.iter().copied(), 3).is_empty());
        assert_eq!(
            closest("parse", ["parse_expr", "print"].into_iter(), 3),
            vec!["parse_expr"]
        );
        // One letter inside a name is no sign of closeness.
        assert!(closest("a", ["pass", "table"].into_iter(), 3).is_empty());
        assert_eq!(closest("b", ["a", "bb"].into_iter(), 3), vec!["a", "bb"]);
    }
}
