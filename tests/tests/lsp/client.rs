//! An in-process client for the language server. The server runs on a tokio runtime behind
//! in-memory pipes, exactly as `ctlpgn lsp` runs behind standard input and output, and the
//! client speaks JSON-RPC to it with the protocol's `Content-Length` framing. Every call
//! blocks until its answer, so that tests read as data: open this text, change it so, expect
//! these diagnostics.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf,
};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

/// How long any answer may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(20);

/// Client capabilities: no position encoding offered (so UTF-16), diagnostics pushed.
pub fn utf16_client() -> Value {
    json!({})
}

/// Client capabilities offering UTF-8 positions.
pub fn utf8_client() -> Value {
    json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
}

/// Client capabilities of a client that pulls diagnostics.
pub fn pull_client() -> Value {
    json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}})
}

/// The URI of a test document.
pub fn uri(name: &str) -> String {
    format!("file:///tests/{name}.ctl-pgn")
}

/// A running server and the client side of its pipes.
pub struct Client {
    runtime: Runtime,
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    server: Option<JoinHandle<bool>>,
    next_id: i64,
    /// Notifications that arrived while the client waited for something else, oldest first.
    notifications: VecDeque<Value>,
    /// The result of `initialize`.
    pub initialized: Value,
    /// What the client answers to `workspace/configuration`, for each item.
    pub settings: Value,
    /// Whether the client answers `workspace/configuration` at all.
    pub answers_configuration: bool,
    /// The requests the server sent to the client, oldest first.
    pub requests_received: Vec<Value>,
    /// How many barriers `pushed_so_far` has sent.
    barriers: u64,
}

impl Client {
    /// Starts a server and initializes it with the client capabilities given.
    pub fn start(capabilities: Value) -> Client {
        Client::start_with(capabilities, Value::Null, Value::Null)
    }

    /// Starts a server with `initializationOptions`, answering `workspace/configuration`
    /// with `settings`.
    pub fn start_with(
        capabilities: Value,
        initialization_options: Value,
        settings: Value,
    ) -> Client {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_stack_size(256 * 1024)
            .enable_all()
            .build()
            .expect("a runtime");
        let (client_end, server_end) = tokio::io::duplex(1 << 16);
        let (server_input, server_output) = tokio::io::split(server_end);
        let server = runtime.spawn(ctlpgn::lsp::serve(server_input, server_output));
        let (reader, writer) = tokio::io::split(client_end);
        let mut client = Client {
            runtime,
            reader: BufReader::new(reader),
            writer,
            server: Some(server),
            next_id: 0,
            notifications: VecDeque::new(),
            initialized: Value::Null,
            settings,
            answers_configuration: true,
            requests_received: Vec::new(),
            barriers: 0,
        };
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities, "initializationOptions": initialization_options});
        client.initialized = client.request("initialize", params).expect("initialize succeeds");
        client.notify("initialized", json!({}));
        client
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response: the result, or the error object.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response_to(&json!(id))
    }

    /// Waits for the response with `id` (`null` for the answers to frames that carried no
    /// usable id): the result, or the error object.
    pub fn response_to(&mut self, id: &Value) -> Result<Value, Value> {
        loop {
            let message = self.receive();
            if message.get("method").is_some() {
                self.notifications.push_back(message);
            } else if message["id"] == *id {
                return match message.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(message["result"].clone()),
                };
            }
        }
    }

    /// The next notification with `method` the server sent: its parameters.
    pub fn notified(&mut self, method: &str) -> Value {
        if let Some(index) =
            self.notifications.iter().position(|message| message["method"] == method)
        {
            return self
                .notifications
                .remove(index)
                .map(|message| message["params"].clone())
                .unwrap_or_default();
        }
        loop {
            let message = self.receive();
            if message["method"] == method {
                return message["params"].clone();
            }
            self.notifications.push_back(message);
        }
    }

    /// Opens a document at version 1.
    pub fn open(&mut self, uri: &str, text: &str) {
        let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
    }

    /// Sends one `didChange` with the content changes given, in order.
    pub fn change(&mut self, uri: &str, version: i32, changes: Value) {
        let params =
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes});
        self.notify("textDocument/didChange", params);
    }

    /// A request about a position of a document.
    pub fn at(
        &mut self,
        method: &str,
        uri: &str,
        line: u32,
        character: u32,
    ) -> Result<Value, Value> {
        self.request(method, json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}))
    }

    /// A request about a whole document.
    pub fn about(&mut self, method: &str, uri: &str) -> Result<Value, Value> {
        self.request(method, json!({"textDocument": {"uri": uri}}))
    }

    /// The next `publishDiagnostics` for a document: its parameters (uri, version, diagnostics).
    pub fn published(&mut self, uri: &str) -> Value {
        let is_ours = |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
        };
        if let Some(index) = self.notifications.iter().position(is_ours) {
            return self
                .notifications
                .remove(index)
                .map(|message| message["params"].clone())
                .unwrap_or_default();
        }
        loop {
            let message = self.receive();
            if is_ours(&message) {
                return message["params"].clone();
            }
            self.notifications.push_back(message);
        }
    }

    /// Every `publishDiagnostics` for a document until the one for `version`, in arrival order.
    pub fn published_until(&mut self, uri: &str, version: i32) -> Vec<Value> {
        let mut all = Vec::new();
        loop {
            let published = self.published(uri);
            let done = published["version"] == json!(version);
            all.push(published);
            if done {
                return all;
            }
        }
    }

    /// The diagnostics pushed for any document and not taken yet, once the server has
    /// pushed those of every notification sent so far. The barrier is a
    /// `didChangeConfiguration` that changes nothing: the server logs the settings it applied
    /// after every diagnostic pushed before (see `Server::apply_settings`), and the log names
    /// the value sent, so that another log of the settings is not taken for this one.
    pub fn pushed_so_far(&mut self) -> Vec<Value> {
        self.barriers += 1;
        let value = json!({"barrier": self.barriers});
        self.notify("workspace/didChangeConfiguration", json!({"settings": value}));
        let logged = format!("ctlpgn: settings {value} applied");
        loop {
            let message = self.receive();
            let is_barrier = message["method"] == "window/logMessage"
                && message["params"]["message"]
                    .as_str()
                    .is_some_and(|text| text.starts_with(&logged));
            if is_barrier {
                break;
            }
            self.notifications.push_back(message);
        }
        let is_published = |message: &Value| message["method"] == "textDocument/publishDiagnostics";
        self.notifications
            .iter()
            .filter(|message| is_published(message))
            .map(|message| message["params"].clone())
            .collect()
    }

    /// Whether the server sent a request with `method` to the client, waiting up to `wait`
    /// for it to arrive.
    pub fn received_request(&mut self, method: &str, wait: Duration) -> bool {
        let asked = |client: &Client| {
            client.requests_received.iter().any(|request| request["method"] == method)
        };
        self.read_for(wait, asked);
        asked(self)
    }

    /// Reads the server's messages for up to `wait`, until `enough` holds: requests are
    /// answered and recorded, everything else queued. A message is only read once its first
    /// bytes are there, so that the deadline never cuts one in half.
    fn read_for(&mut self, wait: Duration, enough: impl Fn(&Client) -> bool) {
        let deadline = tokio::time::Instant::now() + wait;
        while !enough(self) {
            let reader = &mut self.reader;
            let arrived = self.runtime.block_on(async {
                tokio::time::timeout_at(deadline, reader.fill_buf())
                    .await
                    .is_ok_and(|read| read.is_ok_and(|bytes| !bytes.is_empty()))
            });
            if !arrived {
                return;
            }
            if let Some(message) = self.receive_one() {
                self.notifications.push_back(message);
            }
        }
    }

    /// Shuts the server down and lets it exit; returns what `serve` returned (whether the
    /// client asked for a shutdown before exiting).
    pub fn finish(mut self, shutdown_first: bool) -> bool {
        if shutdown_first {
            self.request("shutdown", Value::Null).expect("shutdown succeeds");
        }
        self.notify("exit", Value::Null);
        self.server_ended()
    }

    /// Closes the server's input, as a client that dies does; returns what `serve` returned.
    pub fn close_input(mut self) -> bool {
        let writer = &mut self.writer;
        self.runtime.block_on(writer.shutdown()).expect("the input closes");
        self.server_ended()
    }

    /// What `serve` returned, once it has (the test fails if it does not within `PATIENCE`).
    fn server_ended(mut self) -> bool {
        let server = self.server.take().expect("a running server");
        self.runtime
            .block_on(async { tokio::time::timeout(PATIENCE, server).await })
            .expect("the server exits")
            .expect("the server task ends")
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.send_raw(frame.as_bytes());
    }

    /// Writes bytes to the server's input as they are: frames with any header and body.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let writer = &mut self.writer;
        self.runtime
            .block_on(async {
                writer.write_all(bytes).await?;
                writer.flush().await
            })
            .expect("the server reads its input");
    }

    /// The next message from the server that is not a request to the client.
    fn receive(&mut self) -> Value {
        loop {
            if let Some(message) = self.receive_one() {
                return message;
            }
        }
    }

    /// The next message from the server, or `None` when it was a request to the client:
    /// requests are answered at once, `workspace/configuration` with `settings` for every
    /// item asked (unless `answers_configuration` is off), and every other request with
    /// `null`, and kept in `requests_received`.
    fn receive_one(&mut self) -> Option<Value> {
        let message = self.receive_any();
        let (Some(id), Some(method)) =
            (message.get("id"), message.get("method").and_then(Value::as_str))
        else {
            return Some(message);
        };
        let result = match method {
            "workspace/configuration" if !self.answers_configuration => None,
            "workspace/configuration" => {
                let asked = message["params"]["items"].as_array().map_or(0, Vec::len);
                Some(Value::Array(vec![self.settings.clone(); asked]))
            }
            _ => Some(Value::Null),
        };
        if let Some(result) = result {
            self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
        }
        self.requests_received.push(message);
        None
    }

    fn receive_any(&mut self) -> Value {
        let reader = &mut self.reader;
        let read = async {
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).await?;
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some(value) = header.strip_prefix("Content-Length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).await?;
            Ok::<_, std::io::Error>(body)
        };
        let body = self
            .runtime
            .block_on(async { tokio::time::timeout(PATIENCE, read).await })
            .expect("the server answers in time")
            .expect("a framed message");
        serde_json::from_slice(&body).expect("a JSON message")
    }
}
