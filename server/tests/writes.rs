//! How the commands write the user's files (`fmt`, `convert -i`, `board -o`), end to end as
//! root runs them in CI and as a user does: whole or not at all, never a read-only file, through
//! symbolic links (dangling ones too) keeping the link, keeping the mode and owner, and never
//! over a stream, a pipe or a device. A file changed by another program while a command works
//! on it is `write.rs`'s unit tests' (they change it at the moment between the write and the
//! rename).
#![cfg(unix)]

mod command;

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use command::{execute, names_in, run, scratch, unformatted_records};

/// The user and group `nobody` (65534), as whom root runs a command on a file not its own.
const NOBODY: u32 = 65534;

/// Whether the tests run as root, who may write any file whatever its mode: `/proc/self` is the
/// process's own.
fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|metadata| metadata.uid() == 0)
}

/// A copy of the binary at `binary` that `nobody` may run, in `folder`: the binary cargo built
/// lies under the checkout's target folder, which another user may not enter (a clone under
/// root's home, mode 0700), so a test that runs it as another user runs a copy from its own
/// scratch folder, every folder above which lets anyone through.
fn runnable_by_anyone(binary: &Path, folder: &Path) -> PathBuf {
    for above in folder.ancestors() {
        let mode = fs::metadata(above).expect("a folder above the scratch folder").mode();
        assert!(
            mode & 0o001 != 0,
            "another user cannot enter {} (mode {:o}): set TMPDIR to a folder anyone may enter",
            above.display(),
            mode & 0o777
        );
    }
    let bin = folder.join("bin");
    fs::create_dir(&bin).expect("a folder for the binary");
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).expect("chmod");
    let copy = bin.join("ctlpgn");
    fs::copy(binary, &copy).expect("the binary is copied");
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).expect("chmod");
    copy
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/opening.ctl-pgn")
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The PDTL after the second half-move of the example, for `board --pdtl`.
fn a_pdtl() -> String {
    let run = execute(&["pdtl", path(&example()), "--ply", "2"], b"", Stdio::piped());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    String::from_utf8(run.stdout).expect("UTF-8").trim().to_string()
}

#[test]
fn fmt_leaves_the_file_whole_when_a_file_size_limit_stops_the_write() {
    let folder = scratch("file-size-limit");
    let path = folder.join("big.ctl-pgn");
    let original = unformatted_records(2_500_000);
    std::fs::write(&path, &original).expect("written");
    let binary = env!("CARGO_BIN_EXE_ctlpgn");
    // `ulimit -f 1000` allows 0.5 or 1 MB (512-byte or 1024-byte blocks, by shell). Past it the
    // kernel sends SIGXFSZ, which kills the process mid-write: the original must not care,
    // since only a rename of the finished temporary file ever touches it. With the signal
    // ignored, the write fails with EFBIG instead: the temporary file is removed and the
    // message names the file.
    for (script, killed) in [
        ("ulimit -f 1000; exec \"$0\" fmt \"$1\"", true),
        ("trap '' XFSZ; ulimit -f 1000; exec \"$0\" fmt \"$1\"", false),
    ] {
        let output = Command::new("sh")
            .args(["-c", script, binary, path.to_str().expect("a path")])
            .output()
            .expect("sh runs");
        let after = std::fs::read(&path).expect("readable");
        assert!(after == original.as_bytes(), "{script}: the file changed ({} bytes)", after.len());
        if killed {
            assert_eq!(output.status.code(), None, "{script}: SIGXFSZ ends the process");
            for name in names_in(&folder).iter().filter(|name| name.ends_with(".tmp")) {
                std::fs::remove_file(folder.join(name)).expect("the killed run's leftover");
            }
        } else {
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{script}: {stderr}");
            assert!(stderr.contains(path.to_str().expect("a path")), "{stderr}");
            assert_eq!(names_in(&folder), ["big.ctl-pgn"], "no temporary file is left");
        }
    }
    std::fs::remove_dir_all(&folder).expect("cleaned");
}

#[test]
fn fmt_keeps_the_mode_and_owner_and_writes_through_a_symbolic_link() {
    let folder = scratch("mode-and-link");
    let target = folder.join("game.ctl-pgn");
    let link = folder.join("link.ctl-pgn");
    let original = unformatted_records(1);
    std::fs::write(&target, &original).expect("written");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    // As root (CI), the file is another user's, whose it must stay.
    if is_root() {
        std::os::unix::fs::chown(&target, Some(NOBODY), Some(NOBODY)).expect("chown");
    }
    let owner = std::fs::metadata(&target).expect("the target").uid();
    std::os::unix::fs::symlink("game.ctl-pgn", &link).expect("a link");
    let run = execute(&["fmt", link.to_str().expect("a path")], b"", Stdio::piped());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let formatted = std::fs::read_to_string(&target).expect("readable");
    assert!(formatted != original && formatted.contains("\n1. E7-E13, E21-E15\n"), "{formatted}");
    let link_metadata = std::fs::symlink_metadata(&link).expect("the link is there");
    assert!(link_metadata.file_type().is_symlink(), "the link stays a link");
    let mode = std::fs::metadata(&target).expect("the target").permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
    assert_eq!(std::fs::metadata(&target).expect("the target").uid(), owner);
    assert_eq!(names_in(&folder), ["game.ctl-pgn", "link.ctl-pgn"]);
    std::fs::remove_dir_all(&folder).expect("cleaned");
}

#[test]
fn convert_in_place_writes_through_the_same_replacement() {
    let folder = scratch("convert-in-place");
    let path = folder.join("game.ctl-pgn");
    let text = std::fs::read_to_string(example()).expect("the example");
    std::fs::write(&path, &text).expect("written");
    let run =
        execute(&["convert", "--fan", "-i", path.to_str().expect("a path")], b"", Stdio::piped());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let converted = std::fs::read_to_string(&path).expect("readable");
    assert!(converted.contains("[Redefine \"FAN\"]"), "{converted}");
    assert_eq!(names_in(&folder), ["game.ctl-pgn"]);
    std::fs::remove_dir_all(&folder).expect("cleaned");
}

#[test]
fn a_read_only_file_is_refused_with_status_2_by_every_command_that_writes() {
    let folder = scratch("read-only");
    let game = folder.join("game.ctl-pgn");
    let board = folder.join("board.svg");
    let original = unformatted_records(1);
    fs::write(&game, &original).expect("written");
    fs::write(&board, "an old board").expect("written");
    for file in [&game, &board] {
        fs::set_permissions(file, fs::Permissions::from_mode(0o444)).expect("chmod");
    }
    // Root may write a mode-444 file (CI runs as root): the refusal is by the mode alone.
    let pdtl = a_pdtl();
    for (arguments, file) in [
        (vec!["fmt", path(&game)], &game),
        (vec!["convert", "--fan", "-i", path(&game)], &game),
        (vec!["board", "--pdtl", &pdtl, "-o", path(&board)], &board),
    ] {
        let run = execute(&arguments, b"", Stdio::piped());
        assert_eq!(run.status, Some(2), "{arguments:?}: {}", run.stderr);
        assert!(run.stderr.contains(path(file)), "names the file: {}", run.stderr);
        assert!(run.stderr.contains("read-only (mode 0444)"), "{}", run.stderr);
        let metadata = fs::metadata(file).expect("still there");
        assert_eq!(metadata.permissions().mode() & 0o777, 0o444);
    }
    assert_eq!(fs::read_to_string(&game).expect("readable"), original);
    assert_eq!(fs::read_to_string(&board).expect("readable"), "an old board");
    assert_eq!(names_in(&folder), ["board.svg", "game.ctl-pgn"], "no file is left beside");
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// The world-writable folder of the report: a rename there may replace any file, but a user
/// who may not write a file must not replace it. As root, the command runs as `nobody` on
/// root's files; as another user, on the user's own file whose owner bits forbid writing
/// while its group's allow it (so that only the user's own permission refuses it).
#[test]
fn a_file_this_user_may_not_write_is_refused_though_its_folder_lets_anyone_rename() {
    let folder = scratch("not-this-users");
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o777)).expect("chmod");
    let binary = runnable_by_anyone(Path::new(env!("CARGO_BIN_EXE_ctlpgn")), &folder);
    let game = folder.join("game.ctl-pgn");
    let original = unformatted_records(1);
    fs::write(&game, &original).expect("written");
    let modes: &[u32] = if is_root() { &[0o644, 0o444] } else { &[0o464] };
    for &mode in modes {
        fs::set_permissions(&game, fs::Permissions::from_mode(mode)).expect("chmod");
        let owner = fs::metadata(&game).expect("the file").uid();
        for arguments in [vec!["fmt", path(&game)], vec!["convert", "--fan", "-i", path(&game)]] {
            let mut command = Command::new(&binary);
            command.args(&arguments);
            if is_root() {
                command.uid(NOBODY).gid(NOBODY);
            }
            let run = run(&mut command, b"", Stdio::piped());
            assert_eq!(run.status, Some(2), "{mode:o} {arguments:?}: {}", run.stderr);
            assert!(run.stderr.contains(path(&game)), "names the file: {}", run.stderr);
            assert!(run.stderr.contains("nothing was written"), "{}", run.stderr);
            let metadata = fs::metadata(&game).expect("still there");
            assert_eq!((metadata.uid(), metadata.mode() & 0o777), (owner, mode));
            assert_eq!(fs::read_to_string(&game).expect("readable"), original);
            assert_eq!(names_in(&folder), ["bin", "game.ctl-pgn"], "no file is left beside");
        }
    }
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// The binary of a checkout another user cannot enter (a clone under root's home) still runs
/// as `nobody`, from the copy the test makes: a binary in a folder of mode 0700 stands for it.
#[test]
fn a_binary_in_a_folder_only_its_owner_may_enter_runs_as_another_user_from_its_copy() {
    if !is_root() {
        return;
    }
    let folder = scratch("closed-checkout");
    let closed = folder.join("checkout");
    fs::create_dir(&closed).expect("a folder");
    let built = closed.join("ctlpgn");
    fs::copy(env!("CARGO_BIN_EXE_ctlpgn"), &built).expect("the binary is copied");
    fs::set_permissions(&closed, fs::Permissions::from_mode(0o700)).expect("chmod");
    let as_nobody = |binary: &Path| {
        let mut command = Command::new(binary);
        command.arg("--version").uid(NOBODY).gid(NOBODY);
        command.output()
    };
    let refused = as_nobody(&built);
    assert!(
        refused.as_ref().is_err_and(|error| error.kind() == std::io::ErrorKind::PermissionDenied),
        "nobody may not run what lies in a folder of mode 0700: {refused:?}"
    );
    let open = folder.join("open");
    fs::create_dir(&open).expect("a folder");
    fs::set_permissions(&open, fs::Permissions::from_mode(0o755)).expect("chmod");
    let output = as_nobody(&runnable_by_anyone(&built, &open)).expect("the copy runs");
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("ctlpgn "), "{output:?}");
    fs::remove_dir_all(&folder).expect("cleaned");
}

#[test]
fn board_writes_through_a_dangling_link_and_keeps_the_link() {
    let folder = scratch("dangling-link");
    fs::create_dir(folder.join("boards")).expect("a folder");
    let link = folder.join("board.svg");
    std::os::unix::fs::symlink("boards/after-ply-2.svg", &link).expect("a link");
    let pdtl = a_pdtl();
    let drawn = execute(&["board", "--pdtl", &pdtl], b"", Stdio::piped());
    for round in ["dangling", "existing target"] {
        let run = execute(&["board", "--pdtl", &pdtl, "-o", path(&link)], b"", Stdio::piped());
        assert_eq!(run.status, Some(0), "{round}: {}", run.stderr);
        assert!(fs::symlink_metadata(&link).expect("there").file_type().is_symlink(), "{round}");
        let target = folder.join("boards/after-ply-2.svg");
        assert_eq!(fs::read(&target).expect("the target is written"), drawn.stdout, "{round}");
        assert_eq!(names_in(&folder), ["board.svg", "boards"], "{round}");
        assert_eq!(names_in(&folder.join("boards")), ["after-ply-2.svg"], "{round}");
    }
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// `fmt /dev/stdin < FILE` used to format FILE in place, `/dev/stdin` leading to it; from a
/// pipe, `fmt /dev/stdin` and `board -o /dev/stdout` found no such file.
#[test]
fn standard_input_and_output_named_as_paths_are_streams_never_replaced() {
    let folder = scratch("standard-streams");
    let game = folder.join("game.ctl-pgn");
    let original = unformatted_records(1);
    fs::write(&game, &original).expect("written");
    let formatted = execute(&["fmt", "-"], original.as_bytes(), Stdio::piped());
    assert!(formatted.stdout != original.as_bytes() && !formatted.stdout.is_empty());

    for name in ["/dev/stdin", "/dev/fd/0", "-"] {
        let output = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
            .args(["fmt", name])
            .stdin(fs::File::open(&game).expect("readable"))
            .output()
            .expect("ctlpgn runs");
        assert_eq!(output.status.code(), Some(0), "{name} < FILE");
        assert_eq!(output.stdout, formatted.stdout, "{name} < FILE prints the formatted text");
        let from_pipe = execute(&["fmt", name], original.as_bytes(), Stdio::piped());
        assert_eq!((from_pipe.status, &from_pipe.stdout), (Some(0), &formatted.stdout), "{name}");
        let converted = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
            .args(["convert", "--fan", "-i", name])
            .stdin(fs::File::open(&game).expect("readable"))
            .output()
            .expect("ctlpgn runs");
        assert_eq!(converted.status.code(), Some(2), "convert -i {name} < FILE");
        assert!(String::from_utf8_lossy(&converted.stderr).contains("is a stream"));
    }
    assert_eq!(fs::read_to_string(&game).expect("readable"), original, "FILE is untouched");

    let pdtl = a_pdtl();
    let drawn = execute(&["board", "--pdtl", &pdtl], b"", Stdio::piped());
    assert!(drawn.stdout.starts_with(b"<svg"));
    for name in ["/dev/stdout", "-", "/dev/fd/1"] {
        let run = execute(&["board", "--pdtl", &pdtl, "-o", name], b"", Stdio::piped());
        assert_eq!(
            (run.status, &run.stdout),
            (Some(0), &drawn.stdout),
            "-o {name}: {}",
            run.stderr
        );
    }
    assert_eq!(names_in(&folder), ["game.ctl-pgn"]);
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// A named pipe is read as a stream (`fmt` prints its text formatted) and written into
/// (`board -o`), never replaced by a regular file.
#[test]
fn a_named_pipe_is_read_and_written_as_a_stream_never_replaced() {
    let folder = scratch("named-pipe");
    let pipe = folder.join("pipe");
    let made = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs");
    assert!(made.success());
    let pdtl = a_pdtl();
    let drawn = execute(&["board", "--pdtl", &pdtl], b"", Stdio::piped());
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || fs::read(pipe).expect("the pipe is read"))
    };
    let run = execute(&["board", "--pdtl", &pdtl, "-o", path(&pipe)], b"", Stdio::piped());
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert_eq!(reader.join().expect("the reader ends"), drawn.stdout);

    let original = unformatted_records(1);
    let formatted = execute(&["fmt", "-"], original.as_bytes(), Stdio::piped());
    let writer = {
        let pipe = pipe.clone();
        let original = original.clone();
        std::thread::spawn(move || fs::write(pipe, original).expect("the pipe is written"))
    };
    let run = execute(&["fmt", path(&pipe)], b"", Stdio::piped());
    writer.join().expect("the writer ends");
    assert_eq!((run.status, &run.stdout), (Some(0), &formatted.stdout), "{}", run.stderr);
    assert!(fs::symlink_metadata(&pipe).expect("there").file_type().is_fifo());
    assert_eq!(names_in(&folder), ["pipe"]);
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// A rewrite keeps the file's POSIX ACL and extended attributes: a file of group `nogroup`,
/// mode 0640, whose ACL denies `nobody` what the group bits allow, and a `user.note`. After
/// `fmt`, the note is there and `nobody` still cannot read the file.
#[test]
fn a_rewrite_keeps_the_acl_and_the_extended_attributes() {
    if !is_root() {
        return;
    }
    let folder = scratch("acl");
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = folder.join("game.ctl-pgn");
    fs::write(&path, unformatted_records(200)).expect("written");
    std::os::unix::fs::chown(&path, Some(0), Some(NOBODY)).expect("chown");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
    let acl = Command::new("setfacl")
        .args(["-m", "user:nobody:---"])
        .arg(&path)
        .status()
        .expect("setfacl runs (Debian's package acl)");
    assert!(acl.success());
    rustix::fs::setxattr(&path, "user.note", b"from the club", rustix::fs::XattrFlags::empty())
        .expect("an extended attribute");
    let acl_of = |path: &Path| {
        let shown =
            Command::new("getfacl").arg("--omit-header").arg(path).output().expect("getfacl");
        String::from_utf8_lossy(&shown.stdout).into_owned()
    };
    let before = acl_of(&path);
    assert!(before.contains("user:nobody:---"), "{before}");
    let formatted = execute(&["fmt", path.to_str().expect("UTF-8")], b"", Stdio::piped());
    assert_eq!(formatted.status, Some(0), "{}", formatted.stderr);
    assert_ne!(fs::read_to_string(&path).expect("read"), unformatted_records(200), "rewritten");
    assert_eq!(acl_of(&path), before);
    let mut note = [0; 64];
    let length = rustix::fs::getxattr(&path, "user.note", &mut note[..]).expect("the note stays");
    assert_eq!(&note[..length], b"from the club");
    let metadata = fs::metadata(&path).expect("there");
    assert_eq!((metadata.uid(), metadata.gid(), metadata.mode() & 0o777), (0, NOBODY, 0o640));
    let read_as_nobody =
        Command::new("cat").arg(&path).uid(NOBODY).gid(NOBODY).output().expect("cat runs");
    assert!(!read_as_nobody.status.success(), "nobody reads the file: {read_as_nobody:?}");
    fs::remove_dir_all(&folder).expect("cleaned");
}

/// A file whose name takes the 255 bytes a name may have is rewritten (a temporary file named
/// after it could not be made), and a named pipe no program writes to is refused at once, not
/// waited on for ever.
#[test]
fn a_longest_name_is_rewritten_and_a_pipe_without_writer_is_refused() {
    let folder = scratch("long-name");
    let name = format!("{}.ctl-pgn", "g".repeat(255 - ".ctl-pgn".len()));
    let path = folder.join(&name);
    fs::write(&path, unformatted_records(200)).expect("written");
    let formatted = execute(&["fmt", path.to_str().expect("UTF-8")], b"", Stdio::piped());
    assert_eq!(formatted.status, Some(0), "{}", formatted.stderr);
    assert_ne!(fs::read_to_string(&path).expect("read"), unformatted_records(200), "rewritten");
    assert_eq!(names_in(&folder), [name]);

    let pipe = folder.join("pipe.ctl-pgn");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &pipe,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from(0o600),
        0,
    )
    .expect("a named pipe");
    assert!(fs::metadata(&pipe).expect("there").file_type().is_fifo());
    for command in ["check", "fmt"] {
        let run = execute(&[command, pipe.to_str().expect("UTF-8")], b"", Stdio::piped());
        assert_eq!(run.status, Some(2), "{command}: {}", run.stderr);
        assert!(run.stderr.contains("a named pipe that no program writes to"), "{}", run.stderr);
    }
    fs::remove_dir_all(&folder).expect("cleaned");
}
