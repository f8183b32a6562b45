//! The fuzzer's side of the shared in-process client (`ctlpgn_test_client`): the real
//! server behind in-memory pipes, every wait bounded by the patience, an answer that does not
//! come in time an error the caller reports. What the fuzzer adds is the last diagnostics
//! published for each document, kept instead of a queue that would grow with every edit.

use std::collections::HashMap;
use std::time::Duration;

use ctlpgn_test_client::{self as lsp, Launch};
use serde_json::{json, Value};

/// A running server and the client side of its pipes.
#[derive(Debug)]
pub struct Client {
    client: lsp::Client,
    /// The last `publishDiagnostics` of each document: version and diagnostics.
    published: HashMap<String, (Value, Value)>,
}

impl Client {
    /// Starts a server and initializes it; the client and the result of `initialize`.
    pub fn start(
        capabilities: Value,
        initialization_options: Value,
        patience: Duration,
    ) -> Result<(Client, Value), String> {
        // Room for everything the server writes while the fuzzer sends edit after edit.
        let launch = Launch {
            initialization_options,
            patience,
            pipe_bytes: 1 << 25,
            ..Launch::new(capabilities)
        };
        let client = lsp::Client::launch(launch)?;
        let initialized = client.initialized.clone();
        Ok((Client { client, published: HashMap::new() }, initialized))
    }

    pub fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.client.try_notify(method, params)
    }

    /// Sends a request and waits for its answer: `Ok(Ok(result))`, `Ok(Err(error object))`, or
    /// `Err` when no answer came in time.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Result<Value, Value>, String> {
        let answer = self.client.try_request(method, params);
        self.record_published();
        answer
    }

    /// Sends a message written as JSON text (what serde_json does not write), and for a request
    /// (`id`) waits for its answer as [`Client::request`] does.
    pub fn send_body(
        &mut self,
        body: &str,
        id: Option<&Value>,
    ) -> Result<Option<Result<Value, Value>>, String> {
        self.client.try_send_body(body)?;
        let answer = id.map(|id| self.client.try_response_to(id)).transpose();
        self.record_published();
        answer
    }

    /// Waits for the `publishDiagnostics` of `version` of a document; its diagnostics.
    pub fn published_version(&mut self, uri: &str, version: i64) -> Result<Value, String> {
        loop {
            self.record_published();
            if let Some((published, diagnostics)) = self.published.get(uri) {
                if *published == json!(version) {
                    return Ok(diagnostics.clone());
                }
            }
            let params = self
                .client
                .try_published(uri)
                .map_err(|error| format!("publishDiagnostics of version {version}: {error}"))?;
            self.published.insert(
                uri.to_string(),
                (params["version"].clone(), params["diagnostics"].clone()),
            );
        }
    }

    /// Says `exit` and lets the server end, within the patience.
    pub fn finish(self) {
        self.client.abandon();
    }

    /// Takes the notifications the client queued, keeping the last diagnostics published for
    /// each document.
    fn record_published(&mut self) {
        for message in self.client.take_notifications() {
            let params = &message["params"];
            if message["method"] == "textDocument/publishDiagnostics" {
                if let Some(uri) = params["uri"].as_str() {
                    self.published.insert(
                        uri.to_string(),
                        (params["version"].clone(), params["diagnostics"].clone()),
                    );
                }
            }
        }
    }
}
