//! Reading the files a command names, or standard input for `-`, as UTF-8 text, never more than
//! `--max-input-size` bytes of them: `ctlpgn check /dev/zero` is refused once the limit is
//! passed instead of filling the memory. A regular file read is remembered as it was (device,
//! inode, size, modification time), so that writing it back can tell whether another program
//! changed it meanwhile; anything else (standard input, a pipe, a device, `/dev/fd/N`) is a
//! stream, never a file to replace. A file found by walking a folder is opened without following
//! a link and must still be the file the walk found (a link swapped in meanwhile would show
//! another file's lines); a named pipe no program writes to is refused rather than waited on.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::streams::{is_standard_input, names_a_stream};
use crate::walk::Entry;

/// The default of `--max-input-size`: 1 GiB, a thousand times the largest game collections.
pub const DEFAULT_MAX_INPUT_SIZE: &str = "1G";

/// A file read for a command: its name as given, the file it is (`None` for a stream) and its
/// text.
#[derive(Debug)]
pub struct Input {
    pub name: String,
    pub file: Option<ReadFile>,
    pub text: String,
}

/// A regular file that was read, which a command may write back.
#[derive(Debug)]
pub struct ReadFile {
    /// The path as given (a symbolic link stays one).
    pub path: PathBuf,
    /// The file as it was when it was opened for reading.
    pub identity: FileIdentity,
    /// Found by walking a folder: written back without following a link, as it was read.
    pub walked: bool,
}

/// What tells one state of a file from another without reading it: the device and inode (a new
/// file saved over the name has another), the size and the modification time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified: Option<SystemTime>,
}

impl FileIdentity {
    pub fn of(metadata: &Metadata) -> FileIdentity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        FileIdentity { device, inode, size: metadata.len(), modified: metadata.modified().ok() }
    }
}

/// Why a file could not be read as CTL-PGN text.
#[derive(Debug)]
pub enum ReadFailure {
    /// The bytes are not UTF-8 (S000): a finding about the file, not a failure to read it.
    NotUtf8 { name: String, valid_up_to: usize },
    /// The file holds more than the limit allows.
    TooLarge { name: String, limit: u64 },
    /// The file could not be read at all.
    Unreadable { name: String, error: io::Error },
}

impl fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadFailure::NotUtf8 { name, valid_up_to } => {
                write!(f, "{name}: the file is not valid UTF-8 (S000, first bad byte at offset {valid_up_to}); CTL-PGN files are UTF-8")
            }
            ReadFailure::TooLarge { name, limit } => write!(
                f,
                "{name}: larger than {limit} bytes, the input size limit; raise it with --max-input-size BYTES"
            ),
            ReadFailure::Unreadable { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

/// The name a path is shown with in messages; `-` stands for standard input.
pub fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// Reads a file, or standard input for `-` or `/dev/stdin`, refusing more than `limit` bytes.
pub fn read_input(path: &Path, limit: u64) -> Result<Input, ReadFailure> {
    read_entry(&Entry { path: path.to_path_buf(), walked: None }, limit)
}

/// [`read_input`] for a file a folder's walk may have found.
pub fn read_entry(entry: &Entry, limit: u64) -> Result<Input, ReadFailure> {
    let path = entry.path.as_path();
    let name = display_name(path);
    let unreadable = |error| ReadFailure::Unreadable { name: name.clone(), error };
    let (bytes, file) = if is_standard_input(path) {
        (read_limited(io::stdin().lock(), limit), None)
    } else {
        let (opened, first) = open(entry).map_err(unreadable)?;
        let metadata = opened.metadata().map_err(unreadable)?;
        // A regular file says its size: refuse it before reading a byte.
        if metadata.is_file() && metadata.len() > limit {
            return Err(ReadFailure::TooLarge { name, limit });
        }
        let file = (metadata.is_file() && !names_a_stream(path)).then(|| ReadFile {
            path: path.to_path_buf(),
            identity: FileIdentity::of(&metadata),
            walked: entry.walked.is_some(),
        });
        (read_limited_sized((&first[..]).chain(opened), limit, metadata.len()), file)
    };
    let Some(bytes) = bytes.map_err(unreadable)? else {
        return Err(ReadFailure::TooLarge { name, limit });
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Input { name, file, text }),
        Err(error) => {
            Err(ReadFailure::NotUtf8 { name, valid_up_to: error.utf8_error().valid_up_to() })
        }
    }
}

/// Opens the file `entry` names for reading, and what a named pipe gave already. A file found by
/// a walk is not followed if it became a link, and must be the file the walk found. It opens
/// without waiting (`O_NONBLOCK`), then reads blocking: a named pipe with no writer would
/// otherwise wait in `open` for ever, silently (a CI job that never ends), so one whose first
/// read says it has none is refused.
#[cfg(unix)]
fn open(entry: &Entry) -> io::Result<(File, Vec<u8>)> {
    use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let mut flags = OFlags::NONBLOCK;
    if entry.walked.is_some() {
        flags |= OFlags::NOFOLLOW;
    }
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(&entry.path)
        .map_err(|error| match error.raw_os_error() {
            Some(code)
                if code == rustix::io::Errno::LOOP.raw_os_error() && entry.walked.is_some() =>
            {
                io::Error::other(
                    "a symbolic link now stands where the folder's walk found a file; links \
                     found in a folder are not followed",
                )
            }
            _ => error,
        })?;
    let metadata = opened.metadata()?;
    if let Some(walked) = entry.walked {
        use std::os::unix::fs::MetadataExt;
        if (metadata.dev(), metadata.ino()) != walked {
            return Err(io::Error::other(
                "no longer the file the folder's walk found (replaced meanwhile); not read",
            ));
        }
    }
    let mut first = Vec::new();
    if metadata.file_type().is_fifo() {
        let mut chunk = vec![0; 64 * 1024];
        match (&opened).read(&mut chunk) {
            Ok(0) => {
                return Err(io::Error::other(
                    "a named pipe that no program writes to; ctlpgn does not wait for one \
                     (start the writer first, or pipe into ctlpgn and name -)",
                ))
            }
            Ok(count) => first.extend_from_slice(&chunk[..count]),
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(error) => return Err(error),
        }
    }
    fcntl_setfl(&opened, fcntl_getfl(&opened)? - OFlags::NONBLOCK)?;
    Ok((opened, first))
}

#[cfg(not(unix))]
fn open(entry: &Entry) -> io::Result<(File, Vec<u8>)> {
    Ok((File::open(&entry.path)?, Vec::new()))
}

/// Everything `reader` holds, or `None` when it holds more than `limit` bytes; it reads at
/// most one byte past the limit (a device such as `/dev/zero` never ends).
fn read_limited(reader: impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    read_limited_sized(reader, limit, 0)
}

/// [`read_limited`] with room made for the `expected` bytes a file says it holds, so that a
/// small file is read in one call and not in a series of growing ones.
fn read_limited_sized(reader: impl Read, limit: u64, expected: u64) -> io::Result<Option<Vec<u8>>> {
    let room = usize::try_from(expected.min(limit)).unwrap_or(0).saturating_add(1);
    let mut bytes = Vec::with_capacity(room);
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads every file a command names before it writes anything, so that an unreadable or
/// non-UTF-8 file leaves all the files as they were.
pub fn read_inputs(entries: &[Entry], limit: u64) -> Result<Vec<Input>, ReadFailure> {
    entries.iter().map(|entry| read_entry(entry, limit)).collect()
}

/// A size written as a number of bytes, or with `K`, `M` or `G` (powers of 1024, `KiB` and the
/// like also read), for `--max-input-size`.
pub fn parse_size(written: &str) -> Result<u64, String> {
    let digits = written.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &written[digits.len()..];
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => return Err(format!("unknown unit {unit:?}: use K, M or G (1024-based)")),
    };
    let number: u64 =
        digits.parse().map_err(|_| format!("{written:?} is not a number of bytes"))?;
    number.checked_mul(1 << shift).ok_or_else(|| format!("{written} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_past_the_limit_is_refused_after_one_byte_more() {
        let endless = io::repeat(0);
        assert_eq!(read_limited(endless, 1000).expect("read"), None);
        let mut counted = io::repeat(0).take(10_000);
        assert_eq!(read_limited(&mut counted, 1000).expect("read"), None);
        assert_eq!(counted.limit(), 10_000 - 1001, "one byte past the limit is read, no more");
        assert_eq!(read_limited(&b"abc"[..], 3).expect("read"), Some(b"abc".to_vec()));
    }

    /// A file the walk found, swapped for a link to a file outside the folder (renamed over it,
    /// as atomically as a race does it) or for another file, is not read; named on the command
    /// line, the link is followed.
    #[cfg(unix)]
    #[test]
    fn a_walked_file_swapped_for_a_link_or_another_file_is_not_read() {
        use std::os::unix::fs::MetadataExt;
        let folder = std::env::temp_dir().join(format!("ctlpgn-swap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(folder.join("games")).expect("a scratch folder");
        let secret = folder.join("secret");
        std::fs::write(&secret, "not for the folder's readers").expect("written");
        let game = folder.join("games/a.ctl-pgn");
        std::fs::write(&game, "1. E7-E13:\n").expect("written");
        let metadata = std::fs::metadata(&game).expect("there");
        let entry = Entry { path: game.clone(), walked: Some((metadata.dev(), metadata.ino())) };
        assert_eq!(read_entry(&entry, u64::MAX).expect("read").text, "1. E7-E13:\n");
        // Made while the file is there, so that it is another inode.
        let swap = folder.join("games/.swap");
        std::fs::write(&swap, "1. E7-E13:\n").expect("written");
        std::fs::rename(&swap, &game).expect("swapped");
        let failure = read_entry(&entry, u64::MAX).expect_err("another file is not read");
        assert!(failure.to_string().contains("no longer the file the folder's walk found"));
        std::os::unix::fs::symlink(&secret, &swap).expect("a link");
        std::fs::rename(&swap, &game).expect("swapped");
        let failure = read_entry(&entry, u64::MAX).expect_err("a link is not followed");
        assert!(failure.to_string().contains("a symbolic link now stands"), "{failure}");
        let named = read_input(&game, u64::MAX).expect("named, it is followed");
        assert_eq!(named.text, "not for the folder's readers");
        std::fs::remove_dir_all(&folder).expect("cleaned");
    }

    #[test]
    fn sizes_read_with_binary_units() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("3MiB"), Ok(3 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert!(parse_size("ten").is_err());
        assert!(parse_size("1T").is_err());
        assert!(parse_size("").is_err());
    }
}
