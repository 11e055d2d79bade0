//! What a rename found (the files it changes, each occurrence classed, the textual leftovers)
//! and the one-line summary `llm patch --rename` gives of it.

use super::classes::{CERTAIN, EXCLUDED, POSSIBLE};
use super::rename::RenamedFile;
use super::{Leftover, RenameSite};
use crate::lang::symbols;

/// What the rename found.
pub(super) struct Found {
    pub files: Vec<RenamedFile>,
    pub sites: Vec<RenameSite>,
    pub leftovers: Vec<Leftover>,
    /// The other definitions of the name renamed with it: a Java, C# or C++ method's
    /// overloads, a C++ method's declaration or definition outside its class.
    pub together: usize,
}

/// The summary of renaming `s` to `new` (`files`: how many files change).
pub(super) fn message(s: &symbols::Symbol, new: &str, found: &Found, files: usize) -> String {
    let count = |c: &str, renamed: bool| {
        found
            .sites
            .iter()
            .filter(|x| x.class == c && x.renamed == renamed)
            .count()
    };
    let renamed = found.sites.iter().filter(|x| x.renamed).count()
        + found.leftovers.iter().filter(|l| l.renamed).count();
    let mut m = format!(
        "renamed {} `{}` to `{new}`: {renamed} site{} in {files} file{} ({} certain, {} possible)",
        s.kind.as_str(),
        s.qualified_name,
        if renamed == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
        count(CERTAIN, true),
        count(POSSIBLE, true),
    );
    if found.together > 0 {
        m.push_str(&format!(
            ", with the {} other definition{} of `{}` (overloads, declarations, `#if`, `#[cfg]` and `if`/`else` twins, a property's accessors: renamed as one)",
            found.together,
            if found.together == 1 { "" } else { "s" },
            s.name
        ));
    }
    let kept = count(EXCLUDED, false) + count(POSSIBLE, false);
    if kept > 0 {
        m.push_str(&format!(
            "; {kept} left alone (excluded, or possible with --certain-only)"
        ));
    }
    // Other definitions of the name (another type's method of the same name): a possible
    // site, a call on a value of unknown type, may be theirs. Renamed all the same, they
    // broke the build with no word of it (`Arg::get_id` beside `ArgGroup::get_id`).
    let others: Vec<&RenameSite> = (found.sites.iter())
        .filter(|x| x.is_definition && x.class == EXCLUDED)
        .collect();
    if let (Some(first), true) = (others.first(), count(POSSIBLE, true) > 0) {
        m.push_str(&format!(
            "; the name is defined {} other time{} (first at {}:{}): some possible sites may be {}; check them (`result.sites`, --dry-run) or pass --certain-only",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            first.span.file_path,
            first.span.start_line,
            if others.len() == 1 { "that one's" } else { "theirs" },
        ));
    }
    let left = found.leftovers.iter().filter(|l| !l.renamed).count();
    if left > 0 {
        m.push_str(&format!(
            "; {left} textual occurrence{} in comments/strings not renamed (see leftovers; --in-comments/--in-strings)",
            if left == 1 { "" } else { "s" }
        ));
    }
    m
}
