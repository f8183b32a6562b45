//! Writing a file back (`fmt FILE`, `convert --in-place`) so that it is either the old text or
//! the new one, never a mix: the new text goes to a temporary file in the same folder, is
//! flushed to the disk, and is renamed over the original, which a rename replaces at once.
//! Writing the file in place instead left it cut short when the disk filled up.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces the contents of the file at `path` with `contents`, keeping its permissions.
/// A symbolic link is written through: its target gets the new text and the link stays a link.
/// On any error the file is as it was and the temporary file is gone; the message names the
/// file.
/// A second hard link to the file keeps the old text: the name now points at a new file, as
/// after any editor's save.
///
/// If the process is killed while it writes (`SIGXFSZ` past a file-size limit, `SIGKILL`), the
/// original is still intact, since only the rename touches it; the temporary file, named after
/// the original and starting with a dot, may then be left beside it.
pub fn replace_file(path: &Path, contents: &[u8]) -> Result<(), String> {
    replace_file_with(path, |file| file.write_all(contents))
}

/// [`replace_file`] with the writing of the new text given as a function, so that tests can
/// make it fail halfway.
fn replace_file_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), String> {
    let named =
        |error: io::Error| format!("{}: {error}; the file was left as it was", path.display());
    // The link's final target, so that the rename replaces the target and not the link.
    let target = fs::canonicalize(path).map_err(named)?;
    let metadata = fs::metadata(&target).map_err(named)?;
    if !metadata.is_file() {
        return Err(format!("{}: not a regular file; nothing was written", path.display()));
    }
    let folder = target.parent().unwrap_or(Path::new("."));
    let (mut file, temporary) = create_temporary(folder, &target).map_err(named)?;
    let written = (|| {
        file.set_permissions(metadata.permissions())?;
        keep_owner(&file, &metadata);
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, &target)
    })();
    if let Err(error) = written {
        let _ = fs::remove_file(&temporary);
        return Err(named(error));
    }
    // The rename is durable once the folder is: a failure here leaves the new text in place.
    if let Ok(folder) = File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Writes `contents` to `path`: as [`replace_file`] when the file exists, else created by the
/// same temporary file and rename, so that a failed write leaves no half-written file.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<(), String> {
    if path.exists() {
        return replace_file(path, contents);
    }
    let named = |error: io::Error| format!("{}: {error}; nothing was written", path.display());
    let folder = path.parent().filter(|folder| !folder.as_os_str().is_empty());
    let folder = folder.unwrap_or(Path::new("."));
    let (mut file, temporary) = create_temporary(folder, path).map_err(named)?;
    let written = (|| {
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, path)
    })();
    written.map_err(|error| {
        let _ = fs::remove_file(&temporary);
        named(error)
    })
}

/// A new file beside `target`, named `.NAME.ctlpgn-PID-N.tmp` with the first free `N`.
fn create_temporary(folder: &Path, target: &Path) -> io::Result<(File, PathBuf)> {
    let name = target.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    let mut attempt = 0u32;
    loop {
        let temporary = folder.join(format!(".{name}.ctlpgn-{}-{attempt}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => return Ok((file, temporary)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

/// Gives the new file the original's owner and group, where the process may (as root, or a
/// group it belongs to); elsewhere the new file is the writer's, as any editor's save makes it.
#[cfg(unix)]
fn keep_owner(file: &File, metadata: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &fs::Metadata) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("ctlpgn-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).expect("a scratch folder");
        folder
    }

    fn entries(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .expect("readable")
            .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_failing_halfway_leaves_the_original_and_no_temporary_file() {
        let folder = scratch("failing");
        let path = folder.join("game.ctl-pgn");
        fs::write(&path, "the original text\n").expect("written");
        let message = replace_file_with(&path, |file| {
            file.write_all(b"the new te")?;
            Err(io::Error::from(io::ErrorKind::StorageFull))
        })
        .expect_err("the write fails");
        assert!(message.starts_with(&path.display().to_string()), "{message}");
        assert_eq!(fs::read_to_string(&path).expect("readable"), "the original text\n");
        assert_eq!(entries(&folder), ["game.ctl-pgn"]);
        fs::remove_dir_all(&folder).expect("cleaned");
    }

    #[test]
    fn a_folder_is_not_replaced() {
        let folder = scratch("folder");
        let message = replace_file(&folder, b"text").expect_err("a folder is refused");
        assert!(message.contains("not a regular file"), "{message}");
        assert!(entries(&folder).is_empty());
        fs::remove_dir_all(&folder).expect("cleaned");
    }
}
