//! The record files under folders: the files a command names, each folder among them walked
//! for `*.ctl-pgn` files, and the workspace folders the language server reports on. Folders are
//! walked as ripgrep walks by default (the `ignore` crate): inside a Git repository, what its
//! `.gitignore` files, `.git/info/exclude` and the user's global excludes leave out; anywhere,
//! what `.ignore` files in the folder and above it leave out; hidden files and folders; all of
//! them walked with `--no-ignore`. A `.gitignore` outside a repository counts for nothing (a
//! home folder of dotfiles with `*` in its `.gitignore` emptied a check). Symbolic links are
//! not followed, so a link loop ends nothing. A file named on the command line is always read,
//! whatever its name; `-` stays standard input. Each folder's files come in the order of their
//! paths, so that output is the same on every run whichever file a core finishes first; a file
//! named twice (a folder and a file in it, a file and a link to it) is read once, at its first
//! place.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// What a command's file arguments stand for: the files to read, in order, and what could not
/// be walked (a folder that cannot be read), each said in a message.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    pub failures: Vec<String>,
}

/// [`Walked`] with what the command line needs besides: each file's place in the walk, and
/// the folders named that gave no record file.
#[derive(Debug, Default)]
pub struct Expanded {
    pub entries: Vec<Entry>,
    pub failures: Vec<String>,
    /// Each folder named that gave no record file, and how many the ignore rules left out.
    pub empty: Vec<(PathBuf, usize)>,
}

/// A file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    /// The device and inode the walk found at the path, for a file found by walking a folder:
    /// it must still be that file, and not a link, when it is read or written (a file named
    /// on the command line may be a link the user named on purpose).
    pub walked: Option<(u64, u64)>,
}

/// The extension of the files a folder is walked for.
const EXTENSION: &str = "ctl-pgn";

/// The files `arguments` name: each folder walked, each other path as it is (a path that does
/// not exist is kept, for the reading to say so).
pub fn expand(arguments: &[PathBuf], include_ignored: bool) -> Walked {
    let expanded = expand_entries(arguments, include_ignored);
    Walked {
        files: expanded.entries.into_iter().map(|entry| entry.path).collect(),
        failures: expanded.failures,
    }
}

/// [`expand`], each file with its place in the walk, once each.
pub fn expand_entries(arguments: &[PathBuf], include_ignored: bool) -> Expanded {
    let mut expanded = Expanded::default();
    let mut seen = HashSet::new();
    for argument in arguments {
        if argument.is_dir() {
            let mut found = 0;
            walk(argument, include_ignored, &mut |entry| {
                found += 1;
                // Named twice: the folder's walk and the file itself, two folders that overlap.
                if entry.walked.is_none_or(|identity| seen.insert(identity)) {
                    expanded.entries.push(entry);
                }
            })
            .into_iter()
            .for_each(|failure| expanded.failures.push(failure));
            if found == 0 {
                let left_out = if include_ignored { 0 } else { count_all(argument) };
                expanded.empty.push((argument.clone(), left_out));
            }
        } else {
            // A regular file is known by its device and inode, through any link to it; a
            // stream, a device or a path not there is kept as named.
            let identity = std::fs::metadata(argument)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|metadata| identity(&metadata));
            if identity.is_none_or(|identity| seen.insert(identity)) {
                expanded.entries.push(Entry { path: argument.clone(), walked: None });
            }
        }
    }
    expanded
}

/// How many record files a walk that leaves nothing out finds under `folder`.
fn count_all(folder: &Path) -> usize {
    let mut count = 0;
    walk(folder, true, &mut |_| count += 1);
    count
}

/// Walks `folder`, handing each record file found to `found`; returns what could not be read.
fn walk(folder: &Path, include_ignored: bool, found: &mut dyn FnMut(Entry)) -> Vec<String> {
    let walker = WalkBuilder::new(folder)
        .standard_filters(!include_ignored)
        .follow_links(false)
        .sort_by_file_path(Path::cmp)
        .build();
    let mut failures = Vec::new();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                let ours = entry.path().extension().is_some_and(|extension| extension == EXTENSION);
                if !(is_file && ours) {
                    continue;
                }
                match entry.metadata() {
                    Ok(metadata) => {
                        let walked = identity(&metadata);
                        found(Entry { path: entry.into_path(), walked });
                    }
                    // Gone since its folder was read: the reading says so.
                    Err(_) => found(Entry { path: entry.into_path(), walked: None }),
                }
            }
            Err(error) => failures.push(error.to_string()),
        }
    }
    failures
}

/// A file's device and inode.
fn identity(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_gives_its_records_in_path_order_and_a_named_file_stays() {
        let root = std::env::temp_dir().join(format!("ctlpgn-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in [
            ("b/z.ctl-pgn", ""),
            ("b/a.ctl-pgn", ""),
            ("a.ctl-pgn", ""),
            ("notes.txt", ""),
            ("ignored/x.ctl-pgn", ""),
            (".hidden/y.ctl-pgn", ""),
            (".ignore", "ignored/\n"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("made");
            std::fs::write(path, text).expect("written");
        }
        let named = root.join("notes.txt");
        let walked = expand(&[root.clone(), named.clone(), root.join("b")], false);
        let relative: Vec<PathBuf> = walked
            .files
            .iter()
            .map(|file| file.strip_prefix(&root).unwrap_or(file).to_path_buf())
            .collect();
        let expected = ["a.ctl-pgn", "b/a.ctl-pgn", "b/z.ctl-pgn", "notes.txt"].map(PathBuf::from);
        assert_eq!(relative, expected);
        let all = expand(std::slice::from_ref(&root), true);
        assert_eq!(all.files.len(), 5, "{:?}", all.files);
        std::fs::remove_dir_all(&root).expect("removed");
    }
}
