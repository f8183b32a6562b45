//! `ctlpgn lsp` run as an editor runs it, a process on standard input and output, with what it
//! writes read by a thread of its own: shared by the process tests and the opening benchmark,
//! each of which uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any answer, or the exit, may take before the caller fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A running `ctlpgn lsp` and the messages it wrote, each with the moment its last byte was
/// read.
pub struct Server {
    child: Child,
    /// Its standard input; `None` once the caller has closed it.
    pub input: Option<ChildStdin>,
    messages: Receiver<(Instant, Value)>,
}

impl Server {
    pub fn start() -> Server {
        Server::start_binary(env!("CARGO_BIN_EXE_ctlpgn"))
    }

    /// `ctlpgn lsp` of another build (a benchmark compares two).
    pub fn start_binary(binary: &str) -> Server {
        let mut child = Command::new(binary)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ctlpgn starts");
        let output = child.stdout.take().expect("a standard output");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(message) = read_frame(&mut output) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        let input = child.stdin.take();
        Server { child, input, messages }
    }

    /// Initializes the server for a client with these capabilities.
    pub fn initialize(&mut self, capabilities: Value) {
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities});
        self.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}));
        assert!(self.response_to(&json!(1))["result"]["capabilities"].is_object());
        self.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("the input is open");
        input.write_all(bytes).and_then(|()| input.flush()).expect("the server reads");
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(&frame(message));
    }

    /// The process id, to read its memory in `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The first message `wanted` accepts, with the moment it had arrived; the others are
    /// dropped (the server's own requests are left unanswered, which it allows).
    pub fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> (Instant, Value) {
        self.wait_for_within(PATIENCE, wanted)
    }

    /// [`Server::wait_for`] with a patience of its own.
    pub fn wait_for_within(
        &mut self,
        patience: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> (Instant, Value) {
        self.try_wait_for(patience, wanted).expect("an answer in time")
    }

    /// [`Server::wait_for_within`], or `None` when no such message came in time.
    pub fn try_wait_for(
        &mut self,
        patience: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Option<(Instant, Value)> {
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (arrival, message) = self.messages.recv_timeout(left).ok()?;
            if wanted(&message) {
                return Some((arrival, message));
            }
        }
    }

    /// Ends the process at once.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The response to the request `id`: the next message with that id that is not a request
    /// of the server's.
    pub fn response_to(&mut self, id: &Value) -> Value {
        self.wait_for(|message| message.get("method").is_none() && message["id"] == *id).1
    }

    /// The exit status, once the process has ended (polled until `PATIENCE`).
    pub fn status(mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("the process can be waited for") {
                return status;
            }
            assert!(Instant::now() < deadline, "ctlpgn lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The resident memory of a process and its peak so far, in megabytes (Linux's `/proc`; zeros
/// elsewhere).
pub fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kilobytes| kilobytes / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A message as a frame: its `Content-Length` header and its JSON.
pub fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// One frame of the server's output, with the moment its last byte was read: `None` at the
/// output's end. Anything but a frame panics, which ends the reading thread and so fails the
/// caller waiting for an answer.
fn read_frame(output: &mut impl BufRead) -> Option<(Instant, Value)> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("the output is readable") == 0 {
            return None;
        }
        let line = line.trim_end_matches("\r\n");
        if line.is_empty() {
            break;
        }
        let value = line.strip_prefix("Content-Length: ").expect("only Content-Length headers");
        length = Some(value.parse::<usize>().expect("a length"));
    }
    let mut body = vec![0; length.expect("a Content-Length")];
    output.read_exact(&mut body).expect("the whole body");
    let arrival = Instant::now();
    Some((arrival, serde_json::from_slice(&body).expect("a JSON body")))
}
