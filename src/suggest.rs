//! "Did you mean": the closest names to a misspelt one, for remediations (types, symbols, nodes).

/// Up to `max` candidates closest to `wanted` by edit distance (case-insensitive), best first.
/// Only reasonably close names are returned: distance at most a third of the longer name, or a
/// candidate containing `wanted` (or the reverse).
pub fn closest<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let w = wanted.to_lowercase();
    let mut scored: Vec<(usize, String)> = candidates
        .filter_map(|c| {
            let lc = c.to_lowercase();
            let d = levenshtein(&w, &lc);
            let limit = (w.chars().count().max(lc.chars().count()) / 3).max(1);
            let contains = !w.is_empty() && (lc.contains(&w) || w.contains(&lc)) && lc.len() > 1;
            (d <= limit || contains)
                .then(|| (if contains { d.min(limit) } else { d }, c.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c).collect()
}

/// Edit distance over chars where insertions, deletions, substitutions and swaps of two
/// neighbouring chars each cost 1 (optimal string alignment).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
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
    }
}
