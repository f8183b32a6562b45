//! The fuzzer's own small LSP client: the real server (`ctlpgn::lsp::serve`) on a tokio runtime
//! behind in-memory pipes, spoken to with the protocol's `Content-Length` framing. Every wait
//! is bounded: an answer that does not come in time is an error the caller reports.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf,
};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

/// A running server and the client side of its pipes.
pub struct Client {
    runtime: Runtime,
    reader: BufReader<ReadHalf<DuplexStream>>,
    writer: WriteHalf<DuplexStream>,
    server: Option<JoinHandle<bool>>,
    next_id: i64,
    patience: Duration,
    /// The last `publishDiagnostics` of each document: version and diagnostics.
    pub published: HashMap<String, (Value, Value)>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("next_id", &self.next_id).finish()
    }
}

impl Client {
    /// Starts a server and initializes it.
    pub fn start(
        capabilities: Value,
        initialization_options: Value,
        patience: Duration,
    ) -> Result<(Client, Value), String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|error| format!("no runtime: {error}"))?;
        let (client_end, server_end) = tokio::io::duplex(1 << 25);
        let (server_input, server_output) = tokio::io::split(server_end);
        let server = runtime.spawn(ctlpgn::lsp::serve(server_input, server_output));
        let (reader, writer) = tokio::io::split(client_end);
        let mut client = Client {
            runtime,
            reader: BufReader::new(reader),
            writer,
            server: Some(server),
            next_id: 0,
            patience,
            published: HashMap::new(),
        };
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities, "initializationOptions": initialization_options});
        let initialized = client
            .request("initialize", params)?
            .map_err(|error| format!("initialize failed: {error}"))?;
        client.notify("initialized", json!({}))?;
        Ok((client, initialized))
    }

    pub fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    /// Sends a request and waits for its answer: `Ok(Ok(result))`, `Ok(Err(error object))`, or
    /// `Err` when no answer came in time.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Result<Value, Value>, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let message = self.receive().map_err(|error| format!("{method}: {error}"))?;
            if message.get("method").is_none() && message["id"] == json!(id) {
                return Ok(match message.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(message["result"].clone()),
                });
            }
        }
    }

    /// Waits for the `publishDiagnostics` of `version` of a document; its diagnostics.
    pub fn published_version(&mut self, uri: &str, version: i64) -> Result<Value, String> {
        loop {
            if let Some((published, diagnostics)) = self.published.get(uri) {
                if *published == json!(version) {
                    return Ok(diagnostics.clone());
                }
            }
            self.receive()
                .map_err(|error| format!("publishDiagnostics of version {version}: {error}"))?;
        }
    }

    /// Says `exit` and lets the server end, within the patience.
    pub fn finish(mut self) {
        let _ = self.request("shutdown", Value::Null);
        let _ = self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            let patience = self.patience;
            let _ = self.runtime.block_on(async { tokio::time::timeout(patience, server).await });
        }
        self.runtime.shutdown_background();
    }

    fn send(&mut self, message: Value) -> Result<(), String> {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let writer = &mut self.writer;
        let patience = self.patience;
        self.runtime
            .block_on(async {
                tokio::time::timeout(patience, async {
                    writer.write_all(frame.as_bytes()).await?;
                    writer.flush().await
                })
                .await
            })
            .map_err(|_| "the server stopped reading its input".to_string())?
            .map_err(|error| format!("writing to the server: {error}"))
    }

    /// The next message from the server; requests to the client are answered with `null`,
    /// published diagnostics recorded.
    fn receive(&mut self) -> Result<Value, String> {
        let message = self.receive_any()?;
        if let (Some(id), Some(_)) = (message.get("id"), message.get("method")) {
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": null});
            self.send(answer)?;
        } else if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            if let Some(uri) = params["uri"].as_str() {
                self.published.insert(
                    uri.to_string(),
                    (params["version"].clone(), params["diagnostics"].clone()),
                );
            }
        }
        Ok(message)
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
        serde_json::from_slice(&body)
            .map_err(|error| format!("a message that is not JSON: {error}"))
    }
}
