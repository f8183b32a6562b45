//! An in-process client for the language server. The server (`ctlpgn::lsp::serve`) runs on a
//! tokio runtime behind in-memory pipes, exactly as `ctlpgn lsp` runs behind standard input
//! and output, and the client speaks JSON-RPC to it with the protocol's `Content-Length`
//! framing. Every call waits for its answer, never for a fixed time, so that tests read as
//! data: open this text, change it so, expect these diagnostics. A wait is bounded by the
//! client's patience only as a failure guard.
//!
//! Each call comes twice: `try_*` returns an error the caller reports (the fuzzer turns it
//! into a finding), the plain one fails the test with that error.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf,
};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

use ctlpgn_test_support::cursor::Marked;
use ctlpgn_test_support::positions::Encoding;

/// How long any answer may take before a test fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Client capabilities: no position encoding offered (so UTF-16), diagnostics pushed.
pub fn utf16_client() -> Value {
    json!({})
}

/// Client capabilities offering UTF-8 positions.
pub fn utf8_client() -> Value {
    json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
}

/// `capabilities` with what VS Code shows of a document as soon as it opens it: semantic
/// tokens (asked for whole and by range), folds and an outline. The server then derives them
/// as it reads the document's records when it opens it.
pub fn like_vscode(mut capabilities: Value) -> Value {
    capabilities["textDocument"]["semanticTokens"] = json!({
        "requests": {"full": {"delta": true}, "range": true},
        "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"]
    });
    capabilities["textDocument"]["foldingRange"] = json!({"lineFoldingOnly": true});
    capabilities["textDocument"]["documentSymbol"] =
        json!({"hierarchicalDocumentSymbolSupport": true});
    capabilities
}

/// Client capabilities of a client that pulls diagnostics.
pub fn pull_client() -> Value {
    json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}})
}

/// The URI of a test document.
pub fn uri(name: &str) -> String {
    format!("file:///tests/{name}.ctl-pgn")
}

/// How a client starts.
#[derive(Clone, Debug)]
pub struct Launch {
    pub capabilities: Value,
    pub initialization_options: Value,
    /// The `workspaceFolders` of `initialize`: `null`, or `[{"uri", "name"}]`.
    pub workspace_folders: Value,
    /// What the client answers to `workspace/configuration`, for each item.
    pub settings: Value,
    /// How long any answer may take before the call fails.
    pub patience: Duration,
    /// The capacity of each in-memory pipe: a client that reads late (the fuzzer sends edit
    /// after edit) needs room for everything the server writes meanwhile.
    pub pipe_bytes: usize,
}

impl Launch {
    /// A client with these capabilities and nothing else.
    pub fn new(capabilities: Value) -> Launch {
        Launch {
            capabilities,
            initialization_options: Value::Null,
            workspace_folders: Value::Null,
            settings: Value::Null,
            patience: PATIENCE,
            pipe_bytes: 1 << 16,
        }
    }
}

/// A running server and the client side of its pipes.
pub struct Client {
    runtime: Runtime,
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    server: Option<JoinHandle<bool>>,
    next_id: i64,
    patience: Duration,
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
    /// When the last message from the server had wholly arrived, before it was decoded: the
    /// benchmarks time the server by it, as decoding a large answer into JSON values costs
    /// the client more than writing it cost the server.
    pub last_arrival: Instant,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("next_id", &self.next_id)
            .field("notifications", &self.notifications.len())
            .field("requests_received", &self.requests_received.len())
            .finish()
    }
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
        let launch = Launch { initialization_options, settings, ..Launch::new(capabilities) };
        Client::launch(launch).unwrap_or_else(|error| panic!("the server starts: {error}"))
    }

    /// Starts a server and initializes it, or says why it could not.
    pub fn launch(launch: Launch) -> Result<Client, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_stack_size(256 * 1024)
            .enable_all()
            .build()
            .map_err(|error| format!("no runtime: {error}"))?;
        let (client_end, server_end) = tokio::io::duplex(launch.pipe_bytes);
        let (server_input, server_output) = tokio::io::split(server_end);
        let server = runtime.spawn(ctlpgn::lsp::serve(server_input, server_output));
        let (reader, writer) = tokio::io::split(client_end);
        let mut client = Client {
            runtime,
            reader: BufReader::new(reader),
            writer,
            server: Some(server),
            next_id: 0,
            patience: launch.patience,
            notifications: VecDeque::new(),
            initialized: Value::Null,
            settings: launch.settings,
            answers_configuration: true,
            requests_received: Vec::new(),
            barriers: 0,
            last_arrival: Instant::now(),
        };
        let params = json!({"processId": null, "rootUri": null, "capabilities": launch.capabilities, "initializationOptions": launch.initialization_options, "workspaceFolders": launch.workspace_folders});
        client.initialized = client
            .try_request("initialize", params)?
            .map_err(|error| format!("initialize failed: {error}"))?;
        client.try_notify("initialized", json!({}))?;
        Ok(client)
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.try_notify(method, params).unwrap_or_else(|error| panic!("{error}"));
    }

    /// Sends a notification, or says why it could not.
    pub fn try_notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    /// Sends a request and waits for its response: the result, or the error object.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.try_request(method, params).unwrap_or_else(|error| panic!("{error}"))
    }

    /// Sends a request and waits for its answer: `Ok(Ok(result))`, `Ok(Err(error object))`,
    /// or `Err` when no answer came within the patience.
    pub fn try_request(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<Result<Value, Value>, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        self.try_response_to(&json!(id)).map_err(|error| format!("{method}: {error}"))
    }

    /// Sends a request without waiting for its answer, as a client that goes on sending does
    /// (requests sent so one after another are pipelined); its id, for [`Client::arrivals`].
    pub fn send_request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(message).unwrap_or_else(|error| panic!("{method}: {error}"));
        id
    }

    /// The answers to the requests `ids` (from [`Client::send_request`]), in the order they
    /// arrive: each id with its result or error object. Notifications are queued meanwhile.
    pub fn arrivals(&mut self, ids: &[Value]) -> Vec<(Value, Result<Value, Value>)> {
        let mut arrived = Vec::with_capacity(ids.len());
        while arrived.len() < ids.len() {
            let mut message = self.receive().unwrap_or_else(|error| panic!("{ids:?}: {error}"));
            if message.get("method").is_some() {
                self.notifications.push_back(message);
            } else if ids.contains(&message["id"]) {
                let answer = match message.get_mut("error") {
                    Some(error) => Err(error.take()),
                    None => Ok(message["result"].take()),
                };
                arrived.push((message["id"].take(), answer));
            }
        }
        arrived
    }

    /// Waits for the response with `id` (`null` for the answers to frames that carried no
    /// usable id): the result, or the error object.
    pub fn response_to(&mut self, id: &Value) -> Result<Value, Value> {
        self.try_response_to(id).unwrap_or_else(|error| panic!("{error}"))
    }

    /// Waits for the response with `id`: `Ok(Ok(result))`, `Ok(Err(error object))`, or `Err`
    /// when none came within the patience (for a request sent as raw bytes).
    pub fn try_response_to(&mut self, id: &Value) -> Result<Result<Value, Value>, String> {
        loop {
            let mut message = self.receive()?;
            if message.get("method").is_some() {
                self.notifications.push_back(message);
            } else if message["id"] == *id {
                // Taken, not cloned: the benchmarks time this, and a board answer is 30-40 kB.
                return Ok(match message.get_mut("error") {
                    Some(error) => Err(error.take()),
                    None => Ok(message["result"].take()),
                });
            }
        }
    }

    /// The next notification with `method` the server sent: its parameters.
    pub fn notified(&mut self, method: &str) -> Value {
        self.next_notification(|message| message["method"] == method)
            .unwrap_or_else(|error| panic!("{method}: {error}"))
    }

    /// The next `publishDiagnostics` for a document: its parameters (uri, version, diagnostics).
    pub fn published(&mut self, uri: &str) -> Value {
        self.try_published(uri).unwrap_or_else(|error| panic!("{error}"))
    }

    /// The next `publishDiagnostics` for a document, or why none came.
    pub fn try_published(&mut self, uri: &str) -> Result<Value, String> {
        let is_ours = |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
        };
        self.next_notification(is_ours)
            .map_err(|error| format!("publishDiagnostics of {uri}: {error}"))
    }

    /// The parameters of the first notification queued or to come that `wanted` accepts; the
    /// others stay queued.
    fn next_notification(&mut self, wanted: impl Fn(&Value) -> bool) -> Result<Value, String> {
        if let Some(index) = self.notifications.iter().position(&wanted) {
            return Ok(self
                .notifications
                .remove(index)
                .map(|message| message["params"].clone())
                .unwrap_or_default());
        }
        loop {
            let message = self.receive()?;
            if wanted(&message) {
                return Ok(message["params"].clone());
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

    /// The notifications queued so far, oldest first, taken out of the queue.
    pub fn take_notifications(&mut self) -> Vec<Value> {
        self.notifications.drain(..).collect()
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

    /// The position encoding the server announced (UTF-16 when it announced none).
    pub fn encoding(&self) -> Encoding {
        self.initialized["capabilities"]["positionEncoding"]
            .as_str()
            .and_then(Encoding::named)
            .unwrap_or(Encoding::Utf16)
    }

    /// A request about the cursor of a marked fixture opened as `uri`, placed in the encoding
    /// the server announced.
    pub fn at_cursor(&mut self, method: &str, uri: &str, marked: &Marked) -> Result<Value, Value> {
        let position = marked.position(self.encoding());
        self.request(method, json!({"textDocument": {"uri": uri}, "position": position}))
    }

    /// A request about a whole document.
    pub fn about(&mut self, method: &str, uri: &str) -> Result<Value, Value> {
        self.request(method, json!({"textDocument": {"uri": uri}}))
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
            let message = self.receive().unwrap_or_else(|error| panic!("the barrier: {error}"));
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
            match self.receive_one() {
                Ok(Some(message)) => self.notifications.push_back(message),
                Ok(None) => {}
                Err(error) => panic!("{error}"),
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

    /// Asks for a shutdown and an exit without minding the answers, gives the server the
    /// patience to end, and lets go of whatever still runs: the end of a session whose
    /// server may be stuck.
    pub fn abandon(mut self) {
        let _ = self.try_request("shutdown", Value::Null);
        let _ = self.try_notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            let patience = self.patience;
            let _ = self.runtime.block_on(async { tokio::time::timeout(patience, server).await });
        }
        self.runtime.shutdown_background();
    }

    /// Closes the server's input, as a client that dies does; returns what `serve` returned.
    pub fn close_input(mut self) -> bool {
        let writer = &mut self.writer;
        self.runtime.block_on(writer.shutdown()).expect("the input closes");
        self.server_ended()
    }

    /// What `serve` returned, once it has (the test fails if it does not within the patience).
    fn server_ended(mut self) -> bool {
        let server = self.server.take().expect("a running server");
        let patience = self.patience;
        self.runtime
            .block_on(async { tokio::time::timeout(patience, server).await })
            .expect("the server exits")
            .expect("the server task ends")
    }

    fn send(&mut self, message: Value) -> Result<(), String> {
        self.try_send_body(&message.to_string())
    }

    /// Sends a message written as JSON text, in its frame: for JSON that serde_json does not
    /// write (a lone surrogate escape, `"\ud83d"`); or says why it could not.
    pub fn try_send_body(&mut self, body: &str) -> Result<(), String> {
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.try_send_raw(frame.as_bytes())
    }

    /// Writes bytes to the server's input as they are: frames with any header and body.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.try_send_raw(bytes).unwrap_or_else(|error| panic!("{error}"));
    }

    fn try_send_raw(&mut self, bytes: &[u8]) -> Result<(), String> {
        let writer = &mut self.writer;
        let patience = self.patience;
        self.runtime
            .block_on(async {
                tokio::time::timeout(patience, async {
                    writer.write_all(bytes).await?;
                    writer.flush().await
                })
                .await
            })
            .map_err(|_| "the server stopped reading its input".to_string())?
            .map_err(|error| format!("writing to the server: {error}"))
    }

    /// The next message from the server that is not a request to the client.
    fn receive(&mut self) -> Result<Value, String> {
        loop {
            if let Some(message) = self.receive_one()? {
                return Ok(message);
            }
        }
    }

    /// The next message from the server, or `None` when it was a request to the client:
    /// requests are answered at once, `workspace/configuration` with `settings` for every
    /// item asked (unless `answers_configuration` is off), and every other request with
    /// `null`, and kept in `requests_received`.
    fn receive_one(&mut self) -> Result<Option<Value>, String> {
        let message = self.receive_any()?;
        let (Some(id), Some(method)) =
            (message.get("id"), message.get("method").and_then(Value::as_str))
        else {
            return Ok(Some(message));
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
            self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}))?;
        }
        self.requests_received.push(message);
        Ok(None)
    }

    fn receive_any(&mut self) -> Result<Value, String> {
        let reader = &mut self.reader;
        let read = async {
            let mut length = 0;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).await? == 0 {
                    return Err(std::io::Error::other("the server closed its output"));
                }
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
        let patience = self.patience;
        let body = self
            .runtime
            .block_on(async { tokio::time::timeout(patience, read).await })
            .map_err(|_| format!("no answer within {} s", patience.as_secs_f64()))?
            .map_err(|error| format!("reading from the server: {error}"))?;
        self.last_arrival = Instant::now();
        serde_json::from_slice(&body)
            .map_err(|error| format!("a message that is not JSON: {error}"))
    }
}
