//! Every byte the command line prints goes through here: standard output through [`Output`],
//! whose writes return an error instead of panicking as `println!` does, and messages through
//! [`error_line`]. A closed pipe (`ctlpgn check big.ctl-pgn | head`) ends a command quietly with
//! status 0, as `rg` or `grep` do; any other write error (a full disk) is one line on standard
//! error and status 2.

use std::fmt;
use std::io::{self, BufWriter, Write};

use super::Status;

/// Standard output could not be written: the command stops, and [`OutputFailed::status`] says
/// how the process ends.
#[derive(Debug)]
pub struct OutputFailed(pub io::Error);

impl OutputFailed {
    /// The exit status: 0 when the reader went away (nobody is left to tell), else 2 with a
    /// message on standard error.
    pub fn status(&self) -> Status {
        if self.0.kind() == io::ErrorKind::BrokenPipe {
            Status::Clean
        } else {
            error_line(&format!("ctlpgn: standard output: {}", self.0));
            Status::Failure
        }
    }
}

/// Standard output, or any other writer in tests, buffered: the commands print many short
/// lines, and a system call per line is most of the time of `check` on a file with many
/// findings.
pub struct Output<'a> {
    writer: BufWriter<Box<dyn Write + 'a>>,
}

impl fmt::Debug for Output<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}

impl<'a> Output<'a> {
    /// The process's standard output.
    pub fn stdout() -> Output<'static> {
        Output::new(Box::new(io::stdout().lock()))
    }

    pub fn new(writer: Box<dyn Write + 'a>) -> Output<'a> {
        Output { writer: BufWriter::with_capacity(64 * 1024, writer) }
    }

    /// Writes `text` as it is.
    pub fn text(&mut self, text: &str) -> Result<(), OutputFailed> {
        self.writer.write_all(text.as_bytes()).map_err(OutputFailed)
    }

    /// Writes bytes as they are (a PNG picture).
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), OutputFailed> {
        self.writer.write_all(bytes).map_err(OutputFailed)
    }

    /// Writes a formatted line and its line feed.
    pub fn line(&mut self, arguments: fmt::Arguments<'_>) -> Result<(), OutputFailed> {
        self.writer
            .write_fmt(arguments)
            .and_then(|()| self.writer.write_all(b"\n"))
            .map_err(OutputFailed)
    }

    /// Hands everything buffered to the writer; a command's output is complete only once this
    /// succeeded.
    pub fn flush(&mut self) -> Result<(), OutputFailed> {
        self.writer.flush().map_err(OutputFailed)
    }
}

/// Writes one message line to standard error, the characters that would act on a terminal
/// shown by their stand-ins (a message may quote a record or name a file). A failure to write
/// it is ignored: there is no other place left to report it, and the exit status still tells.
pub fn error_line(message: &str) {
    let mut stderr = io::stderr().lock();
    let message = super::terminal::visible(message);
    let _ = stderr.write_all(message.as_bytes()).and_then(|()| stderr.write_all(b"\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails as a closed pipe or a full disk does.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn a_closed_pipe_ends_cleanly_and_a_full_disk_fails() {
        for (kind, status) in [
            (io::ErrorKind::BrokenPipe, Status::Clean),
            (io::ErrorKind::StorageFull, Status::Failure),
        ] {
            let mut output = Output::new(Box::new(Failing(kind)));
            let failure = output
                .line(format_args!("{}", "x".repeat(100_000)))
                .expect_err("a write past the buffer reaches the writer");
            assert_eq!(failure.status(), status);
        }
    }
}
