//! The separators of human search output that ripgrep lets one choose:
//! `--field-match-separator`, `--field-context-separator` and `--path-separator`.

/// What follows each field of a printed line (path, line, column, byte offset), and what
/// separates the parts of a printed path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fields {
    /// After each field of a matching line (`:`).
    pub matched: Vec<u8>,
    /// After each field of a context line (`-`).
    pub context: Vec<u8>,
    /// Printed in place of each `/` of a path (`None`: `/`).
    pub path: Option<u8>,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            matched: b":".to_vec(),
            context: b"-".to_vec(),
            path: None,
        }
    }
}

impl Fields {
    /// ripgrep's defaults, which the printer's fast paths write without asking.
    pub fn is_default(&self) -> bool {
        *self == Fields::default()
    }

    /// The separator after a field of a line of `kind` (`:` matching, `-` context).
    pub fn of(&self, kind: u8) -> &[u8] {
        match kind {
            b':' => &self.matched,
            _ => &self.context,
        }
    }

    /// A printed path with `--path-separator` in place of each `/`.
    pub fn path(&self, mut path: Vec<u8>) -> Vec<u8> {
        if let Some(sep) = self.path {
            for b in path.iter_mut().filter(|b| **b == b'/') {
                *b = sep;
            }
        }
        path
    }
}

impl super::SearchHuman {
    /// `--null-data`: the printer's lines are records, its output swapped back (`\n` and NUL)
    /// once written. What it adds itself — separators, paths, -0's NUL — is written swapped
    /// beforehand, so as to come out as given: `-0` still ends a path with a NUL, and a
    /// separator holding `\n` keeps it, as rg 13.
    pub fn for_records(&mut self) {
        self.records = true;
        swap(&mut self.fields.matched);
        swap(&mut self.fields.context);
        if let Some(sep) = self.context_separator.as_mut() {
            swap(sep);
        }
    }
}

/// `bytes` with `\n` and NUL swapped (as `cmd::search::swap_terminators`).
pub(super) fn swap(bytes: &mut [u8]) {
    crate::cmd::search::swap_terminators(bytes);
}
