//! The fuzzer's side of the shared in-process client (`ctlpgn_test_client`): the real
//! server behind in-memory pipes, every wait bounded by the patience, an answer that does not
//! come in time an error the caller reports. What the fuzzer adds is the last diagnostics
//! published for each document, kept instead of a queue that would grow with every edit.
//!
//! And beside the server, the protocol layer's session that the browser's worker runs
//! (`ctlpgn_protocol::session::Session`), sent every message the server is sent: each of its
//! answers must be the server's (a result, or an error with the same code), so that the two
//! servers answer alike on random edit streams too, not only on the test data.

use std::collections::HashMap;
use std::time::Duration;

use ctlpgn_protocol::session::Session;
use ctlpgn_test_client::{self as lsp, Launch};
use serde_json::{json, Value};

/// A running server and the client side of its pipes, and the session sent the same.
#[derive(Debug)]
pub struct Client {
    client: lsp::Client,
    /// The last `publishDiagnostics` of each document: version and diagnostics.
    published: HashMap<String, (Value, Value)>,
    session: Session,
    /// The settings the client answers `workspace/configuration` with.
    settings: Value,
    /// The first answer of the session that was not the server's, until taken.
    differed: Option<String>,
    next_id: u64,
}

impl Client {
    /// Starts a server and initializes it; the client and the result of `initialize`.
    pub fn start(
        capabilities: Value,
        initialization_options: Value,
        patience: Duration,
    ) -> Result<(Client, Value), String> {
        // Room for everything the server writes while the fuzzer sends edit after edit.
        let settings = initialization_options.clone();
        let initialize = json!({"processId": null, "rootUri": null, "capabilities": capabilities.clone(), "initializationOptions": initialization_options.clone(), "workspaceFolders": null});
        let launch = Launch {
            initialization_options,
            patience,
            pipe_bytes: 1 << 25,
            ..Launch::new(capabilities)
        };
        let client = lsp::Client::launch(launch)?;
        let initialized = client.initialized.clone();
        let mut client = Client {
            client,
            published: HashMap::new(),
            session: Session::new(),
            settings,
            differed: None,
            next_id: 0,
        };
        client.compare("initialize", &initialize, Ok(Ok(initialized.clone())));
        client.tell_session(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        Ok((client, initialized))
    }

    pub fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.tell_session(json!({"jsonrpc": "2.0", "method": method, "params": params.clone()}));
        self.client.try_notify(method, params)
    }

    /// Sends a request and waits for its answer: `Ok(Ok(result))`, `Ok(Err(error object))`, or
    /// `Err` when no answer came in time.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Result<Value, Value>, String> {
        let answer = self.client.try_request(method, params.clone());
        self.record_published();
        self.compare(method, &params, answer.clone());
        answer
    }

    /// The first of the session's answers that was not the server's since the last call.
    pub fn take_difference(&mut self) -> Option<String> {
        self.differed.take()
    }

    /// Asks the session what the server was asked, and notes where its answer differs from
    /// the server's `answer` (compared by result, or by error code: each words its messages).
    fn compare(
        &mut self,
        method: &str,
        params: &Value,
        answer: Result<Result<Value, Value>, String>,
    ) {
        self.next_id += 1;
        let id = format!("session-{}", self.next_id);
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let sent = self.tell_session(request);
        let Ok(native) = answer else { return };
        let session = sent.into_iter().find(|message| message["id"] == id.as_str());
        let compared = |answer: Result<Value, Value>| match answer {
            Ok(result) => result,
            Err(error) => json!({"error": error["code"]}),
        };
        let session = session.map(|message| match message.get("error") {
            Some(error) => compared(Err(error.clone())),
            None => message["result"].clone(),
        });
        let native = compared(native);
        if session.as_ref() != Some(&native) && self.differed.is_none() {
            let session = session.map_or("no answer".to_string(), |session| session.to_string());
            self.differed = Some(format!(
                "{method} {params}: the server answered {native}, the session {session}"
            ));
        }
    }

    /// Hands the session one message, answers its requests for the settings, and returns what
    /// it sent; a panic in it is a difference (the server answers an error instead).
    fn tell_session(&mut self, message: Value) -> Vec<Value> {
        let session = &mut self.session;
        let handled =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.handle(&message)));
        let sent = match handled {
            Ok(sent) => sent,
            Err(_) => {
                if self.differed.is_none() {
                    self.differed = Some(format!("the session panicked on {message}"));
                }
                return Vec::new();
            }
        };
        for asked in sent.iter().filter(|one| one["method"] == "workspace/configuration") {
            let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": [self.settings]});
            self.session.handle(&answer);
        }
        sent
    }

    /// Sends a message written as JSON text (what serde_json does not write), and for a request
    /// (`id`) waits for its answer as [`Client::request`] does.
    pub fn send_body(
        &mut self,
        body: &str,
        id: Option<&Value>,
    ) -> Result<Option<Result<Value, Value>>, String> {
        // The session reads what a worker reads: the text, which a lone surrogate makes no JSON
        // value (its refusal is its own; the server's is checked by the caller).
        let _ = self.session.handle_json(body.as_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A session that holds a document the server does not answers otherwise, and the
    /// difference is reported once, with both answers.
    #[test]
    fn an_answer_of_the_session_that_is_not_the_servers_is_a_difference() {
        let (mut client, _) =
            Client::start(json!({}), Value::Null, Duration::from_secs(20)).expect("started");
        let uri = "file:///fuzz/only-in-the-session.ctl-pgn";
        let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n*\n";
        let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
        client
            .notify("textDocument/didOpen", json!({"textDocument": document.clone()}))
            .expect("sent");
        let outline = json!({"textDocument": {"uri": uri}});
        let _ = client.request("textDocument/documentSymbol", outline.clone()).expect("answered");
        assert_eq!(client.take_difference(), None, "both hold the document");
        client.tell_session(json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}}));
        let _ = client.request("textDocument/documentSymbol", outline).expect("answered");
        let difference = client.take_difference().expect("a difference");
        assert!(difference.contains("the session null"), "{difference}");
        client.finish();
    }
}
