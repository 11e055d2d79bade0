//! The `files[]` of a search's summary, packed: what it must keep of each file with a match
//! (path, checksum, counts) in two growing buffers of the printing thread rather than two
//! strings per file allocated by the workers, so that its memory is small and in one place
//! however many files the tree holds.

use super::SearchFile;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Files in the order they were pushed; serializes as the `Vec<SearchFile>` it stands for.
#[derive(Debug, Default)]
pub struct FileList {
    /// Each file's path then its checksum, back to back.
    text: String,
    entries: Vec<Packed>,
}

/// One file: where its path and checksum end in `text`, and the rest of its fields.
#[derive(Debug, Clone, Copy)]
struct Packed {
    path_end: usize,
    checksum_end: usize,
    match_count: usize,
    line_count: usize,
    file_path_lossy: bool,
    lossy: bool,
}

/// A [`SearchFile`] borrowed from the list, with the same fields, order and skip rules.
#[derive(serde::Serialize)]
struct FileView<'a> {
    file_path: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    file_path_lossy: bool,
    checksum: &'a str,
    match_count: usize,
    line_count: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    lossy: bool,
}

impl FileList {
    /// Appends `f` (its strings are copied, and dropped here).
    pub fn push(&mut self, f: SearchFile) {
        self.text.push_str(&f.file_path);
        let path_end = self.text.len();
        self.text.push_str(&f.checksum);
        self.entries.push(Packed {
            path_end,
            checksum_end: self.text.len(),
            match_count: f.match_count,
            line_count: f.line_count,
            file_path_lossy: f.file_path_lossy,
            lossy: f.lossy,
        });
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn views(&self) -> impl Iterator<Item = FileView<'_>> {
        let mut start = 0;
        self.entries.iter().map(move |p| {
            let view = FileView {
                file_path: &self.text[start..p.path_end],
                file_path_lossy: p.file_path_lossy,
                checksum: &self.text[p.path_end..p.checksum_end],
                match_count: p.match_count,
                line_count: p.line_count,
                lossy: p.lossy,
            };
            start = p.checksum_end;
            view
        })
    }
}

impl From<Vec<SearchFile>> for FileList {
    fn from(files: Vec<SearchFile>) -> Self {
        let mut list = FileList::default();
        for f in files {
            list.push(f);
        }
        list
    }
}

impl Serialize for FileList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for view in self.views() {
            seq.serialize_element(&view)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed list serializes as the files it was made of, compact and pretty.
    #[test]
    fn serializes_as_the_files() {
        let files = vec![
            SearchFile {
                file_path: "src/a \"q\".rs".into(),
                checksum: "ab".repeat(32),
                match_count: 3,
                line_count: 2,
                ..SearchFile::default()
            },
            SearchFile {
                file_path: "caf\u{FFFD}/é.rs".into(),
                file_path_lossy: true,
                checksum: "cd".repeat(32),
                match_count: 1,
                line_count: 1,
                lossy: true,
            },
            SearchFile::default(),
        ];
        let list = FileList::from(files.clone());
        assert_eq!(list.len(), 3);
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            serde_json::to_string(&files).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&list).unwrap(),
            serde_json::to_string_pretty(&files).unwrap()
        );
        assert_eq!(serde_json::to_string(&FileList::default()).unwrap(), "[]");
    }
}
