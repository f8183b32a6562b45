//! Writing the user's files: a file a command read is written back (`fmt FILE`,
//! `convert --in-place`) and a file named with `-o` is written (`board -o OUT`), keeping what
//! the user meant and losing nothing:
//!
//! * the new text goes to a temporary file beside the file, is flushed to the disk, and is
//!   renamed over it, so that the file is the old text or the new one, never a mix (a write in
//!   place left it cut short when the disk filled up);
//! * a read-only file is refused: no write permission bit at all (`chmod a-w`, which holds
//!   even for root, who may write anything), or no permission for this user (`access(W_OK)`),
//!   for a rename would replace what a plain write may not touch;
//! * a symbolic link is written through, dangling or not: the link stays, its target gets the
//!   text, the temporary file is made beside the target;
//! * a file read is replaced only if it is still the one read (device, inode, size,
//!   modification time and bytes): when another program (an editor saving) changed it
//!   meanwhile, its text stays and ours goes to `NAME.ctlpgn-new` beside it;
//! * the replacement keeps the file's mode, its extended attributes and ACL (`attributes`) and,
//!   where the process may, its owner and group;
//! * a file found by walking a folder is written without following a link, as it was read: a
//!   link swapped in meanwhile is refused;
//! * streams (`-`, `/dev/stdout`, `/dev/fd/N`) and devices or pipes are written into as they
//!   are, never replaced.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::attributes::keep_attributes;
use super::input::{FileIdentity, ReadFile};
use super::streams::{final_target, names_a_stream};

/// Replaces the text of a file a command read (`read`, as it was read) with `contents`.
/// On any error, and when the file is read-only or no longer the one read, the file is as it
/// was and the message names it (and says where our text went, if anywhere). A second hard
/// link to the file keeps the old text: the name now points at a new file, as after any
/// editor's save.
///
/// If the process is killed while it writes (`SIGXFSZ` past a file-size limit, `SIGKILL`), the
/// original is still intact, since only the rename touches it; the temporary file, a name
/// starting with a dot, may then be left beside it.
pub fn replace_file(file: &ReadFile, read: &[u8], contents: &[u8]) -> Result<(), String> {
    replace_file_with(file, read, |new| new.write_all(contents))
}

/// [`replace_file`] with the writing of the new text given as a function, so that tests can
/// make it fail halfway, or change the file meanwhile as another program would.
fn replace_file_with(
    file: &ReadFile,
    read: &[u8],
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), String> {
    let shown = file.path.display();
    let left = |error: io::Error| format!("{shown}: {error}; the file was left as it was");
    let (target, metadata) = if file.walked {
        (file.path.clone(), fs::symlink_metadata(&file.path).map_err(left)?)
    } else {
        let target = final_target(&file.path).map_err(left)?;
        let metadata = fs::metadata(&target).map_err(left)?;
        (target, metadata)
    };
    if metadata.file_type().is_symlink() {
        return Err(format!(
            "{shown}: a symbolic link now stands where the folder's walk found a file; links \
             found in a folder are not followed, and nothing was written"
        ));
    }
    if !metadata.is_file() {
        return Err(format!("{shown}: not a regular file; nothing was written"));
    }
    refuse_read_only(&target, &metadata).map_err(|why| format!("{shown}: {why}"))?;
    let temporary = write_temporary(&target, Some(&metadata), write).map_err(left)?;
    match still_as_read(&target, &file.identity, read) {
        Ok(true) => {}
        Ok(false) => {
            let kept = keep_beside(&target, &temporary);
            return Err(format!(
                "{shown}: changed by another program since ctlpgn read it; its new text was left \
                 as it is, and ctlpgn's result from the text it had read was written to {}",
                kept.display()
            ));
        }
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            return Err(left(error));
        }
    }
    if let Err(error) = fs::rename(&temporary, &target) {
        let _ = fs::remove_file(&temporary);
        return Err(left(error));
    }
    sync_folder(&target);
    Ok(())
}

/// Writes `contents` to `path` (`board -o`): a regular file is replaced as by [`replace_file`]
/// (without the check that it is the one read: it was not read); a file not yet made, at the
/// path or where a dangling link points, is created by the same temporary file, so that a
/// failed write leaves no half-written file; a stream, a device or a pipe is written into.
/// Standard output (`-`, `/dev/stdout`) is the caller's to write, through its buffered output.
pub fn write_file(path: &Path, contents: &[u8]) -> Result<(), String> {
    let shown = path.display();
    let failed = |error: io::Error| format!("{shown}: {error}; nothing was written");
    if names_a_stream(path) {
        return write_into(path, contents).map_err(failed);
    }
    let target = final_target(path).map_err(failed)?;
    let existing = match fs::metadata(&target) {
        Ok(metadata) => Some(metadata),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(failed(error)),
    };
    match &existing {
        Some(metadata) if metadata.is_dir() => {
            return Err(format!("{shown}: a folder, not a file; nothing was written"));
        }
        Some(metadata) if !metadata.is_file() => {
            return write_into(&target, contents).map_err(failed);
        }
        Some(metadata) => {
            refuse_read_only(&target, metadata).map_err(|why| format!("{shown}: {why}"))?
        }
        None => {}
    }
    let temporary = write_temporary(&target, existing.as_ref(), |new| new.write_all(contents))
        .map_err(failed)?;
    let placed = if existing.is_some() {
        fs::rename(&temporary, &target)
    } else {
        create_from(&temporary, &target)
    };
    if let Err(error) = placed {
        let _ = fs::remove_file(&temporary);
        return Err(failed(error));
    }
    sync_folder(&target);
    Ok(())
}

/// Writes into a stream, a device or a pipe as it is, without making or replacing anything.
fn write_into(path: &Path, contents: &[u8]) -> io::Result<()> {
    OpenOptions::new().write(true).truncate(true).open(path)?.write_all(contents)
}

/// Why this process must not replace the file at `target`, if it must not: no write
/// permission bit is set at all, or this user may not write it.
fn refuse_read_only(target: &Path, metadata: &Metadata) -> Result<(), String> {
    if metadata.permissions().readonly() {
        return Err(format!(
            "the file is read-only{}; nothing was written (make it writable, as with \
             chmod u+w, for ctlpgn to rewrite it)",
            mode_of(metadata)
        ));
    }
    may_write(target).map_err(|error| {
        format!(
            "this user may not write the file{} ({error}); nothing was written",
            mode_of(metadata)
        )
    })
}

/// Whether this process may write the file, as the kernel judges it for a plain write (its
/// effective user and groups, access control lists, a read-only file system).
#[cfg(unix)]
fn may_write(target: &Path) -> io::Result<()> {
    use rustix::fs::{accessat, Access, AtFlags, CWD};
    accessat(CWD, target, Access::WRITE_OK, AtFlags::EACCESS).map_err(io::Error::from)
}

#[cfg(not(unix))]
fn may_write(_: &Path) -> io::Result<()> {
    Ok(())
}

/// The file's mode as a message shows it, ` (mode 0444)`.
fn mode_of(metadata: &Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        format!(" (mode {:04o})", metadata.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        String::new()
    }
}

/// A temporary file beside `target` holding what `write` wrote, flushed to the disk, with the
/// owner, group and mode of the file it replaces (`original`); removed again on an error.
fn write_temporary(
    target: &Path,
    original: Option<&Metadata>,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<PathBuf> {
    let (mut file, temporary) = create_temporary(folder_of(target))?;
    let written = (|| {
        if let Some(original) = original {
            // The owner first: changing it clears the set-user-ID and set-group-ID bits.
            keep_owner(&file, original);
            file.set_permissions(original.permissions())?;
            // After the mode: an ACL sets the group bits to its mask.
            keep_attributes(target, &file).map_err(io::Error::other)?;
        }
        write(&mut file)?;
        file.sync_all()
    })();
    match written {
        Ok(()) => Ok(temporary),
        Err(error) => {
            drop(file);
            let _ = fs::remove_file(&temporary);
            Err(error)
        }
    }
}

/// Whether the file at `target` is still the one read: the same identity and the same bytes
/// (a save within one tick of the file system's clock, of the same size, keeps the identity).
/// A file gone is not the one read.
fn still_as_read(target: &Path, identity: &FileIdentity, read: &[u8]) -> io::Result<bool> {
    let mut file = match open_no_follow(target) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(error),
    };
    if FileIdentity::of(&file.metadata()?) != *identity {
        return Ok(false);
    }
    let mut rest = read;
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let count = file.read(&mut chunk)?;
        if count == 0 {
            return Ok(rest.is_empty());
        }
        let Some(expected) = rest.get(..count) else { return Ok(false) };
        if chunk[..count] != *expected {
            return Ok(false);
        }
        rest = &rest[count..];
    }
}

/// Opens `target`, the end of any links, for reading, and fails on a link swapped in since.
fn open_no_follow(target: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    options.open(target)
}

/// Keeps our text, written to `temporary`, beside `target` under the first free name of
/// `NAME.ctlpgn-new`, `NAME.ctlpgn-new-2`, …, never over an existing file; where that fails
/// the temporary file itself stays. Returns where the text is.
fn keep_beside(target: &Path, temporary: &Path) -> PathBuf {
    let name = target.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    for attempt in 1..100 {
        let suffix = if attempt == 1 { String::new() } else { format!("-{attempt}") };
        let beside = folder_of(target).join(format!("{name}.ctlpgn-new{suffix}"));
        match create_from(temporary, &beside) {
            Ok(()) => return beside,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => break,
        }
    }
    temporary.to_path_buf()
}

/// Gives the finished `temporary` file the name `target`, which must not exist: a hard link
/// fails rather than replace a file another program made meanwhile. Where hard links are not
/// to be had (some file systems), a rename does it.
fn create_from(temporary: &Path, target: &Path) -> io::Result<()> {
    match fs::hard_link(temporary, target) {
        Ok(()) => fs::remove_file(temporary),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(error),
        Err(_) if !target.exists() => fs::rename(temporary, target),
        Err(error) => Err(error),
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Makes a rename or a new name durable: a failure here leaves the new text in place.
fn sync_folder(target: &Path) {
    if let Ok(folder) = File::open(folder_of(target)) {
        let _ = folder.sync_all();
    }
}

/// A new file in `folder`, named `.ctlpgn-PID-N.tmp` with the first free `N`: short, whatever
/// the length of the file's name (a name of 226 bytes or more, with the name in the temporary
/// one, passed the 255 bytes a name may have, and could never be rewritten).
fn create_temporary(folder: &Path) -> io::Result<(File, PathBuf)> {
    let mut attempt = 0u32;
    loop {
        let temporary = folder.join(format!(".ctlpgn-{}-{attempt}.tmp", std::process::id()));
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
fn keep_owner(file: &File, metadata: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &Metadata) {}

#[cfg(test)]
mod tests {
    use super::super::input::read_input;
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

    /// The file at `path` as a command reads it, and its text.
    fn read(path: &Path) -> (ReadFile, String) {
        let input = read_input(path, u64::MAX).expect("readable");
        (input.file.expect("a regular file"), input.text)
    }

    #[test]
    fn a_write_failing_halfway_leaves_the_original_and_no_temporary_file() {
        let folder = scratch("failing");
        let path = folder.join("game.ctl-pgn");
        fs::write(&path, "the original text\n").expect("written");
        let (file, text) = read(&path);
        let message = replace_file_with(&file, text.as_bytes(), |new| {
            new.write_all(b"the new te")?;
            Err(io::Error::from(io::ErrorKind::StorageFull))
        })
        .expect_err("the write fails");
        assert!(message.starts_with(&path.display().to_string()), "{message}");
        assert_eq!(fs::read_to_string(&path).expect("readable"), "the original text\n");
        assert_eq!(entries(&folder), ["game.ctl-pgn"]);
        fs::remove_dir_all(&folder).expect("cleaned");
    }

    /// A file the walk found, swapped for a link after it was read, is not written through
    /// the link: the link's target stays as it was and nothing is made beside it.
    #[cfg(unix)]
    #[test]
    fn a_walked_file_swapped_for_a_link_is_not_written_through_it() {
        use std::os::unix::fs::MetadataExt;
        let folder = scratch("walked-link");
        fs::create_dir(folder.join("games")).expect("a folder");
        let outside = folder.join("outside");
        fs::create_dir(&outside).expect("a folder");
        let secret = outside.join("secret");
        fs::write(&secret, "kept").expect("written");
        let game = folder.join("games/a.ctl-pgn");
        fs::write(&game, "1.  E7-E13:\n").expect("written");
        let metadata = fs::metadata(&game).expect("there");
        let entry = crate::walk::Entry {
            path: game.clone(),
            walked: Some((metadata.dev(), metadata.ino())),
        };
        let input = super::super::input::read_entry(&entry, u64::MAX).expect("read");
        let file = input.file.expect("a file");
        assert!(file.walked);
        let swap = folder.join("games/.swap");
        std::os::unix::fs::symlink(&secret, &swap).expect("a link");
        fs::rename(&swap, &game).expect("swapped");
        let message = replace_file(&file, input.text.as_bytes(), b"1. E7-E13:\n")
            .expect_err("the link is not written through");
        assert!(message.contains("a symbolic link now stands"), "{message}");
        assert_eq!(fs::read_to_string(&secret).expect("read"), "kept");
        assert_eq!(entries(&outside), ["secret"]);
        assert_eq!(entries(&folder.join("games")), ["a.ctl-pgn"]);
        fs::remove_dir_all(&folder).expect("cleaned");
    }

    #[test]
    fn a_folder_is_not_replaced() {
        let folder = scratch("folder");
        let message = write_file(&folder, b"text").expect_err("a folder is refused");
        assert!(message.contains("a folder, not a file"), "{message}");
        assert!(entries(&folder).is_empty());
        fs::remove_dir_all(&folder).expect("cleaned");
    }

    /// Another program (an editor saving) changes the file between our reading it and our
    /// rename: its text stays, ours goes beside under a name the message gives, whichever way
    /// the file changed, even when its size and modification time stay (a save within one
    /// tick of the file system's clock).
    #[test]
    fn a_file_changed_by_another_program_keeps_its_text_and_ours_goes_beside() {
        let original = "1.  E7-E13\n";
        let theirs = "1. F8-F12\n";
        // Of the original's size, for a save in place that keeps the identity.
        let theirs_in_place = "1.  F8-F12\n";
        let folder = scratch("changed");
        let path = folder.join("game.ctl-pgn");
        let saved_by_rename = |path: &Path| {
            let theirs_beside = path.with_extension("editor");
            fs::write(&theirs_beside, theirs)?;
            fs::rename(theirs_beside, path)
        };
        let written_in_place_within_a_tick = |path: &Path| {
            let modified = fs::metadata(path)?.modified()?;
            let mut file = OpenOptions::new().write(true).open(path)?;
            file.write_all(theirs_in_place.as_bytes())?;
            file.set_modified(modified)
        };
        let removed = |path: &Path| fs::remove_file(path);
        type Change<'a> = &'a dyn Fn(&Path) -> io::Result<()>;
        let changes: [(&str, Change); 4] = [
            ("saved by a rename", &saved_by_rename),
            ("saved by a rename again", &saved_by_rename),
            ("written in place", &written_in_place_within_a_tick),
            ("removed", &removed),
        ];
        for (round, (how, change)) in changes.iter().enumerate() {
            fs::write(&path, original).expect("written");
            let (file, text) = read(&path);
            let identity = file.identity.clone();
            let message = replace_file_with(&file, text.as_bytes(), |new| {
                change(&path)?;
                new.write_all(b"1. E7-E13\n")
            })
            .expect_err("the file is no longer the one read");
            let beside = match round {
                0 => folder.join("game.ctl-pgn.ctlpgn-new"),
                _ => folder.join(format!("game.ctl-pgn.ctlpgn-new-{}", round + 1)),
            };
            assert!(message.starts_with(&path.display().to_string()), "{how}: {message}");
            assert!(message.contains("changed by another program"), "{how}: {message}");
            assert!(message.contains(&beside.display().to_string()), "{how}: {message}");
            assert_eq!(fs::read_to_string(&beside).expect(how), "1. E7-E13\n", "{how}: ours");
            let now = fs::read_to_string(&path).ok();
            match *how {
                "removed" => assert_eq!(now, None),
                "written in place" => {
                    let metadata = fs::metadata(&path).expect("there");
                    assert_eq!(FileIdentity::of(&metadata), identity, "only the bytes differ");
                    assert_eq!(now.as_deref(), Some(theirs_in_place));
                }
                _ => assert_eq!(now.as_deref(), Some(theirs), "{how}: theirs stays"),
            }
            let temporary = entries(&folder).into_iter().filter(|name| name.ends_with(".tmp"));
            assert_eq!(temporary.count(), 0, "{how}");
        }
        fs::remove_dir_all(&folder).expect("cleaned");
    }
}
