//! Which names on a command line are streams rather than files: `-`, `/dev/stdin`,
//! `/dev/stdout`, a descriptor (`/dev/fd/N`, `/proc/self/fd/N`) or a link to one. A stream is
//! read or written as it is and never replaced: `fmt /dev/stdin < FILE` must not rewrite FILE,
//! which `/dev/stdin` leads to when standard input comes from it.
//! Symbolic links are followed here by hand, one at a time, so that a link to a file not yet
//! made leads to the name to create (where `fs::canonicalize` fails).

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// How many links are followed before giving up, as Linux does (`ELOOP`).
const MOST_LINKS: usize = 40;

/// Whether `path` names standard input: `-`, `/dev/stdin` or descriptor 0.
pub fn is_standard_input(path: &Path) -> bool {
    names_descriptor(path, "stdin", "0")
}

/// Whether `path` names standard output: `-`, `/dev/stdout` or descriptor 1.
pub fn is_standard_output(path: &Path) -> bool {
    names_descriptor(path, "stdout", "1")
}

fn names_descriptor(path: &Path, stream: &str, number: &str) -> bool {
    path == Path::new("-")
        || path == Path::new("/dev").join(stream)
        || path == Path::new("/dev/fd").join(number)
        || path == Path::new("/proc/self/fd").join(number)
}

/// Whether `path`, or a link it leads through, names an open descriptor of this process rather
/// than a file: `-`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, anything in `/dev/fd/` or in a
/// `/proc/…/fd/` folder.
pub fn names_a_stream(path: &Path) -> bool {
    let mut current = path.to_path_buf();
    for _ in 0..=MOST_LINKS {
        if is_descriptor_name(&current) {
            return true;
        }
        match next_link(&current) {
            Ok(Some(next)) => current = next,
            _ => return false,
        }
    }
    false
}

fn is_descriptor_name(path: &Path) -> bool {
    if path == Path::new("-")
        || ["stdin", "stdout", "stderr"].iter().any(|stream| path == Path::new("/dev").join(stream))
    {
        return true;
    }
    let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) else {
        return false;
    };
    // `/dev/fd` is a link to `/proc/self/fd` on Linux, which is `/proc/PID/fd`.
    folder == Path::new("/dev/fd") || is_descriptor_folder(folder)
}

/// Whether `folder` is, once its links are followed, a `/proc/…/fd` folder. Remembered by
/// folder: `check DIR` asks it of each of thousands of files in a few folders, and following
/// a folder's links costs a system call per part of its path.
fn is_descriptor_folder(folder: &Path) -> bool {
    /// Enough for any archive's folders; past it the memory starts again.
    const MOST_REMEMBERED: usize = 4096;
    static REMEMBERED: Mutex<Option<HashMap<PathBuf, bool>>> = Mutex::new(None);
    let mut remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    let folders = remembered.get_or_insert_with(HashMap::new);
    if let Some(&known) = folders.get(folder) {
        return known;
    }
    let found = fs::canonicalize(folder).is_ok_and(|folder| {
        folder.starts_with("/proc") && folder.file_name().is_some_and(|name| name == "fd")
    });
    if folders.len() >= MOST_REMEMBERED {
        folders.clear();
    }
    folders.insert(folder.to_path_buf(), found);
    found
}

/// The name `path` leads to once every symbolic link is followed: the file itself, or the name
/// a dangling link points at (the file to create there). A relative link is read from the
/// link's own folder.
pub fn final_target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..=MOST_LINKS {
        match next_link(&current)? {
            Some(next) => current = next,
            None => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Where the link at `path` points, or `None` when `path` is not a link (or does not exist).
fn next_link(path: &Path) -> io::Result<Option<PathBuf>> {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            let target = fs::read_link(path)?;
            let folder = path.parent().unwrap_or(Path::new(""));
            Ok(Some(folder.join(target)))
        }
        Ok(_) => Ok(None),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_streams_are_named_by_their_names_and_descriptors() {
        for name in ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
            assert!(is_standard_input(Path::new(name)), "{name}");
            assert!(names_a_stream(Path::new(name)), "{name}");
        }
        for name in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            assert!(is_standard_output(Path::new(name)), "{name}");
        }
        assert!(names_a_stream(Path::new("/dev/stderr")));
        assert!(!is_standard_input(Path::new("/dev/stdout")));
        assert!(!is_standard_output(Path::new("game.ctl-pgn")));
        assert!(!names_a_stream(Path::new("game.ctl-pgn")));
        assert!(!names_a_stream(Path::new("/dev/null")));
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_a_stream_or_to_a_file_not_yet_made() {
        let folder = std::env::temp_dir().join(format!("ctlpgn-streams-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(folder.join("inner")).expect("a scratch folder");
        let to_stdin = folder.join("to-stdin");
        std::os::unix::fs::symlink("/dev/stdin", &to_stdin).expect("a link");
        assert!(names_a_stream(&to_stdin));
        // A chain of links, one relative to its own folder, ending at a name not yet made.
        std::os::unix::fs::symlink("inner/second", folder.join("first")).expect("a link");
        std::os::unix::fs::symlink("../board.svg", folder.join("inner/second")).expect("a link");
        let target = final_target(&folder.join("first")).expect("resolved");
        assert_eq!(target, folder.join("inner/../board.svg"));
        assert!(!names_a_stream(&folder.join("first")));
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", folder.join("loop-a")).expect("a link");
        std::os::unix::fs::symlink("loop-a", folder.join("loop-b")).expect("a link");
        assert!(final_target(&folder.join("loop-a")).is_err());
        assert!(!names_a_stream(&folder.join("loop-a")));
        fs::remove_dir_all(&folder).expect("cleaned");
    }
}
