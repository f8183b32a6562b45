//! The protocol layer's session (`ctlpgn_protocol::session::Session`: messages in, messages out,
//! what a worker in the browser runs) answers what the native server answers through its real
//! transport, message for message: the capabilities at `initialize` for each editor's recorded
//! request (VS Code, Neovim, eglot), then for every file of the test data and examples the
//! diagnostics (pushed or pulled, as the editor gets them), the whole-document requests (the
//! lines of play of the first and second records among them), and
//! the requests about a place at every word of every line (for VS Code; at every seventh for
//! the others, which differ from it in what was negotiated, not in the places).

use ctlpgn_protocol::session::Session;
use ctlpgn_test_client::{Client, Launch};
use ctlpgn_test_support::fixtures::{compared_files, recorded_initialize};
use serde_json::{json, Value};

/// The places asked about: the start of every word of every line and each line's end, as
/// columns in `encoding` (`utf-8` or `utf-16`).
fn places(text: &str, encoding: &str) -> Vec<(usize, usize)> {
    let mut places = Vec::new();
    for (line, content) in text.split('\n').enumerate() {
        let (mut column, mut after_space) = (0, true);
        for c in content.chars() {
            if !c.is_whitespace() && after_space {
                places.push((line, column));
            }
            after_space = c.is_whitespace();
            column += if encoding == "utf-8" { c.len_utf8() } else { c.len_utf16() };
        }
        places.push((line, column));
    }
    places
}

/// The session and the messages it sends, answers by id.
struct Served {
    session: Session,
    next_id: u64,
}

impl Served {
    /// The session's answer to a request: its result, or its error.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = format!("parity-{}", self.next_id);
        let out = self
            .session
            .handle(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let answer =
            out.into_iter().find(|message| message["id"] == id.as_str()).expect("an answer");
        match answer.get("error") {
            Some(error) => Err(error.clone()),
            None => Ok(answer["result"].clone()),
        }
    }

    fn notify(&mut self, method: &str, params: Value) -> Vec<Value> {
        self.session.handle(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }
}

/// An error as compared: its code (the messages are each transport's own words).
fn compared(answer: Result<Value, Value>) -> Value {
    answer.unwrap_or_else(|error| json!({"error": error["code"]}))
}

#[test]
fn the_session_answers_what_the_native_server_answers_for_every_editor() {
    for (fixture, stride) in [("vscode.json", 1), ("neovim-0.11.json", 7), ("eglot.json", 7)] {
        let recorded = recorded_initialize(fixture)["params"].clone();
        let options = recorded["initializationOptions"].clone();
        let launch = Launch {
            initialization_options: options.clone(),
            settings: options.clone(),
            ..Launch::new(recorded["capabilities"].clone())
        };
        let mut client = Client::launch(launch).expect("the server starts");
        let mut served = Served { session: Session::new(), next_id: 0 };
        let params = json!({"processId": null, "rootUri": null, "capabilities": recorded["capabilities"], "initializationOptions": options, "workspaceFolders": null});
        let initialized = served.request("initialize", params).expect("initialized");
        assert_eq!(initialized, client.initialized, "{fixture}: the capabilities");
        for asked in served.notify("initialized", json!({})) {
            // The settings, answered as the native client answers them.
            if asked["method"] == "workspace/configuration" {
                let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": [options]});
                served.session.handle(&answer);
            }
        }
        let encoding = initialized["capabilities"]["positionEncoding"].as_str().unwrap_or("utf-16");
        let pulls = initialized["capabilities"]["diagnosticProvider"].is_object();
        let mut asked = 0usize;
        for (index, path) in compared_files().into_iter().enumerate() {
            let Ok(text) = String::from_utf8(std::fs::read(&path).expect("readable")) else {
                continue;
            };
            let name = format!("{fixture} {}", path.display());
            let uri = format!("file:///parity/{index}.ctl-pgn");
            let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
            client.notify("textDocument/didOpen", json!({"textDocument": document}));
            let pushed = served.notify("textDocument/didOpen", json!({"textDocument": document}));
            if pulls {
                assert_eq!(
                    pushed,
                    Vec::<Value>::new(),
                    "{name}: nothing pushed to a client that pulls"
                );
            } else {
                assert_eq!(pushed.len(), 1, "{name}: one publishDiagnostics");
                assert_eq!(pushed[0]["params"], client.published(&uri), "{name}: pushed");
            }
            let of_document = json!({"textDocument": {"uri": uri}});
            let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": u32::MAX, "character": 0}});
            let formatting = json!({"tabSize": 4, "insertSpaces": true});
            for (method, params) in [
                ("textDocument/diagnostic", of_document.clone()),
                ("textDocument/foldingRange", of_document.clone()),
                ("textDocument/documentSymbol", of_document.clone()),
                ("textDocument/semanticTokens/full", of_document.clone()),
                ("ctlpgn/lines", of_document.clone()),
                ("ctlpgn/lines", json!({"textDocument": {"uri": uri}, "record": 2})),
                (
                    "textDocument/formatting",
                    json!({"textDocument": {"uri": uri}, "options": formatting}),
                ),
                (
                    "textDocument/codeAction",
                    json!({"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}}),
                ),
                ("ctlpgn/checkText", json!({"uri": uri, "text": text})),
            ] {
                let native = compared(client.request(method, params.clone()));
                assert_eq!(compared(served.request(method, params)), native, "{name}: {method}");
                asked += 1;
            }
            for (line, character) in places(&text, encoding).into_iter().step_by(stride) {
                let position = json!({"line": line, "character": character});
                let at = json!({"textDocument": {"uri": uri}, "position": position});
                let mut references = at.clone();
                references["context"] = json!({"includeDeclaration": true});
                let command = json!({"command": "ctlpgn.positionAt", "arguments": [uri, position]});
                for (method, params) in [
                    ("textDocument/hover", at.clone()),
                    ("textDocument/completion", at.clone()),
                    ("textDocument/definition", at.clone()),
                    ("textDocument/documentHighlight", at.clone()),
                    ("textDocument/references", references),
                    ("workspace/executeCommand", command),
                    ("ctlpgn/board", at.clone()),
                ] {
                    let native = compared(client.request(method, params.clone()));
                    let session = compared(served.request(method, params.clone()));
                    assert_eq!(session, native, "{name}: {method} {position}");
                    asked += 1;
                }
            }
            client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
            served.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
            if !pulls {
                assert_eq!(client.published(&uri)["diagnostics"], json!([]), "{name}: cleared");
            }
        }
        assert!(asked > 2_000, "{fixture}: {asked} requests compared");
    }
}
