//! The record files under folders: the files a command names, each folder among them walked
//! for `*.ctl-pgn` files, and the workspace folders the language server reports on. Folders are
//! walked as ripgrep walks (the `ignore` crate): what `.gitignore`, `.ignore` and
//! `.git/info/exclude` exclude is left out (inside a Git repository or not), and so are hidden
//! files and folders, unless `--no-ignore`; symbolic links are not followed, so a link loop
//! ends nothing. A file named on the command line is always read, whatever its name; `-` stays
//! standard input. Each folder's files come in the order of their paths, so that output is the
//! same on every run whichever file a core finishes first.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// What a command's file arguments stand for: the files to read, in order, and what could not
/// be walked (a folder that cannot be read), each said in a message.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    pub failures: Vec<String>,
}

/// The extension of the files a folder is walked for.
const EXTENSION: &str = "ctl-pgn";

/// The files `arguments` name: each folder walked, each other path as it is (a path that does
/// not exist is kept, for the reading to say so).
pub fn expand(arguments: &[PathBuf], include_ignored: bool) -> Walked {
    let mut walked = Walked::default();
    for argument in arguments {
        if argument.is_dir() {
            walk(argument, include_ignored, &mut walked);
        } else {
            walked.files.push(argument.clone());
        }
    }
    walked
}

fn walk(folder: &Path, include_ignored: bool, walked: &mut Walked) {
    let walker = WalkBuilder::new(folder)
        .standard_filters(!include_ignored)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_path(Path::cmp)
        .build();
    for entry in walker {
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                let ours = entry.path().extension().is_some_and(|extension| extension == EXTENSION);
                if is_file && ours {
                    walked.files.push(entry.into_path());
                }
            }
            Err(error) => walked.failures.push(error.to_string()),
        }
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
            (".gitignore", "ignored/\n"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("made");
            std::fs::write(path, text).expect("written");
        }
        let named = root.join("notes.txt");
        let walked = expand(&[root.clone(), named.clone()], false);
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
