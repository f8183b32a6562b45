//! A language server session as one value: JSON-RPC messages in, the messages to send out
//! (answers, `publishDiagnostics`, the server's own requests) back, with no IO, runtime or
//! clock. A transport only passes messages through: the browser's worker hands each message it
//! reads to [`Session::handle`] and writes what it returns; the pause after a change of a large
//! record is the transport's timer, which calls [`Session::settle`] when it ends.
//!
//! Every answer comes from the same functions the native server's handlers call (`hover`,
//! `completion`, `navigation`, …), so that both servers answer alike by construction.

use lsp_types::{
    CodeAction, CodeActionParams, CompletionParams, DidChangeConfigurationParams,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentDiagnosticParams, DocumentFormattingParams, DocumentHighlightParams,
    DocumentRangeFormattingParams, DocumentSymbolParams, DocumentSymbolResponse,
    ExecuteCommandParams, FoldingRangeParams, GotoDefinitionParams, HoverParams, InitializeResult,
    ReferenceParams, SemanticTokens, SemanticTokensParams, SemanticTokensRangeParams,
    SemanticTokensRangeResult, SemanticTokensResult, ServerInfo, Uri,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::board::{self, BoardParams};
use crate::code_actions;
use crate::commands;
use crate::completion;
use crate::context::{view_at, Context};
use crate::diagnostics;
use crate::documents::{Changed, Documents};
use crate::encoding::Negotiated;
use crate::error::{ResponseError, INVALID_PARAMS};
use crate::formatting;
use crate::from_proto;
use crate::hover;
use crate::lines::{self, LinesParams};
use crate::navigation;
use crate::play::{self, PlayParams};
use crate::semantic_tokens;
use crate::structure;
use ctlpgn_core::document::Document;
use ctlpgn_core::text::quoted;

/// JSON-RPC's code for a method the server does not have.
const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's code for a message that is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for a message that is no request.
const INVALID_REQUEST: i64 = -32600;
/// LSP's code for a request before `initialize`.
const SERVER_NOT_INITIALIZED: i64 = -32002;

/// The id of the server's request for the client's settings (`workspace/configuration`).
const CONFIGURATION_REQUEST: &str = "ctlpgn/configuration";

/// Where the session stands in the protocol's life cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    #[default]
    Started,
    Initialized,
    ShutDown,
    Exited,
}

/// The open documents, what was negotiated, the settings, and the stage.
#[derive(Debug, Default)]
pub struct Session {
    documents: Documents,
    context: Context,
    stage: Stage,
    /// The documents closed since the client last pulled the workspace's problems: a client
    /// that pulls them keeps a closed document's problems until the next pull answers the
    /// file (the native server's `workspace` says why); the session reads no files, so it
    /// answers each with an empty report.
    closed: Vec<Uri>,
    /// The documents changed (at these versions) whose records wait for a pause
    /// (`Changed::Later`), one entry per document.
    later: Vec<(Uri, i32)>,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// Whether the client sent `exit`: the transport ends.
    pub fn exited(&self) -> bool {
        self.stage == Stage::Exited
    }

    /// What was negotiated and the settings in force.
    pub fn context(&self) -> Context {
        self.context
    }

    /// The messages to send for one message received. Nothing a client sends makes it fail: a
    /// message that is no request, notification or answer is answered with an error when it
    /// has an id, else dropped.
    pub fn handle(&mut self, message: &Value) -> Vec<Value> {
        let id = message.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        match (message.get("method").and_then(Value::as_str), id) {
            (Some(method), Some(id)) => {
                vec![response(id, self.request(method, params))]
            }
            (Some(method), None) => self.notification(method, params),
            (None, Some(id))
                if message.get("result").is_some() || message.get("error").is_some() =>
            {
                self.answered(&id, message.get("result"))
            }
            (None, Some(id)) => {
                let refused =
                    ResponseError { code: INVALID_REQUEST, message: "not a request".into() };
                vec![response(id, Err(refused))]
            }
            (None, None) => Vec::new(),
        }
    }

    /// The messages to send for one message received as JSON text, as a worker reads it: JSON
    /// that does not parse is answered with a parse error, and a value that is no object (a
    /// batch, a bare value) with an invalid request, both with id `null`, as the native
    /// transport answers them.
    pub fn handle_json(&mut self, message: &[u8]) -> Vec<Value> {
        match serde_json::from_slice::<Value>(message) {
            Ok(message) if message.is_object() => self.handle(&message),
            Ok(_) => {
                let message = "a message is a JSON object".into();
                vec![response(Value::Null, Err(ResponseError { code: INVALID_REQUEST, message }))]
            }
            Err(error) => {
                let message = format!("not JSON: {}", quoted(&error.to_string()));
                vec![response(Value::Null, Err(ResponseError { code: PARSE_ERROR, message }))]
            }
        }
    }

    /// Brings the documents whose records a change left behind (a large record to check,
    /// `Changed::Later`) up to date, after the pause the transport waited since the last change,
    /// and publishes their diagnostics. Nothing when no change waits.
    pub fn settle(&mut self) -> Vec<Value> {
        let later = std::mem::take(&mut self.later);
        let mut messages = Vec::new();
        for (uri, version) in later {
            if self.documents.settle(&uri, version) {
                messages.extend(self.publish(&uri, version));
            }
        }
        messages
    }

    fn request(&mut self, method: &str, params: Value) -> Answer {
        match (self.stage, method) {
            (Stage::Started, "initialize") => return self.initialize(params),
            (Stage::Started, _) => {
                return Err(ResponseError {
                    code: SERVER_NOT_INITIALIZED,
                    message: "the server is not initialized yet".into(),
                })
            }
            (_, "shutdown") => {
                self.stage = Stage::ShutDown;
                return Ok(Value::Null);
            }
            (Stage::ShutDown | Stage::Exited, _) => {
                return Err(ResponseError {
                    code: INVALID_REQUEST,
                    message: "the server was shut down".into(),
                })
            }
            _ => {}
        }
        let context = self.context;
        let documents = &self.documents;
        match method {
            "textDocument/hover" => about(documents, params, |document, params: HoverParams| {
                hover::hover(document, &params, &context)
            }),
            "textDocument/completion" => {
                about(documents, params, |document, params: CompletionParams| {
                    completion::completion(document, &params, &context)
                })
            }
            "textDocument/definition" => {
                about(documents, params, |document, params: GotoDefinitionParams| {
                    navigation::definition(document, &params, &context)
                })
            }
            "textDocument/documentHighlight" => {
                about(documents, params, |document, params: DocumentHighlightParams| {
                    navigation::highlights(document, &params, &context)
                })
            }
            "textDocument/references" => {
                about(documents, params, |document, params: ReferenceParams| {
                    navigation::references(document, &params, &context)
                })
            }
            "textDocument/foldingRange" => {
                about(documents, params, |document, _: FoldingRangeParams| {
                    structure::folding_ranges(document)
                })
            }
            "textDocument/documentSymbol" => {
                about(documents, params, |document, _: DocumentSymbolParams| {
                    let symbols =
                        structure::document_symbols(document, context.negotiated.encoding);
                    DocumentSymbolResponse::Nested(symbols)
                })
            }
            "textDocument/formatting" => {
                about(documents, params, |document, _: DocumentFormattingParams| {
                    let (options, encoding) =
                        (context.settings.format, context.negotiated.encoding);
                    formatting::edits(document, None, &options, encoding)
                })
            }
            "textDocument/rangeFormatting" => {
                about(documents, params, |document, params: DocumentRangeFormattingParams| {
                    let (options, encoding) =
                        (context.settings.format, context.negotiated.encoding);
                    formatting::edits(document, Some(params.range), &options, encoding)
                })
            }
            "textDocument/semanticTokens/full" => {
                about(documents, params, |document, _: SemanticTokensParams| {
                    let data = semantic_tokens::encode(document, None, context.negotiated.encoding);
                    SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data })
                })
            }
            "textDocument/semanticTokens/range" => {
                about(documents, params, |document, params: SemanticTokensRangeParams| {
                    let encoding = context.negotiated.encoding;
                    let range = from_proto::byte_range(document.rope(), params.range, encoding);
                    let data = semantic_tokens::encode(document, Some(range), encoding);
                    SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data })
                })
            }
            "textDocument/codeAction" => {
                about(documents, params, |document, params: CodeActionParams| {
                    let (rules, encoding) = (context.settings.rules, context.negotiated.encoding);
                    let lazy = context.negotiated.resolve_edits;
                    let uri = &params.text_document.uri;
                    let actions = code_actions::actions(
                        document,
                        uri,
                        params.range,
                        &params.context,
                        rules,
                        encoding,
                        lazy,
                    );
                    (!actions.is_empty()).then_some(actions)
                })
            }
            "codeAction/resolve" => {
                let action: CodeAction = decode(params)?;
                let uri = action.data.as_ref().and_then(|data| {
                    serde_json::from_value::<code_actions::Lazy>(data.clone()).ok()
                });
                let (rules, encoding) = (context.settings.rules, context.negotiated.encoding);
                let open = uri.filter(|lazy| documents.read(&lazy.uri, |_| ()).is_some());
                let resolved = match open {
                    Some(lazy) => documents
                        .read(&lazy.uri, |document| {
                            code_actions::resolve(Some(document), action, rules, encoding)
                        })
                        .ok_or_else(|| ResponseError::content_modified("the document closed"))?,
                    None => code_actions::resolve(None, action, rules, encoding),
                }?;
                encode(resolved)
            }
            "workspace/executeCommand" => {
                let params: ExecuteCommandParams = decode(params)?;
                let (uri, position) = commands::position_at_arguments(&params)?;
                let encoding = context.negotiated.encoding;
                let found = documents
                    .read(&uri, |document| commands::pdtl_at(document, position, encoding));
                encode(found.flatten())
            }
            "textDocument/diagnostic" => {
                let params: DocumentDiagnosticParams = decode(params)?;
                let report = documents.read(&params.text_document.uri, |document| {
                    diagnostics::report(Some(document), &context)
                });
                encode(report.unwrap_or_else(|| diagnostics::report(None, &context)))
            }
            "workspace/diagnostic" => {
                let items: Vec<Value> = std::mem::take(&mut self.closed)
                    .into_iter()
                    .filter(|uri| self.documents.read(uri, |_| ()).is_none())
                    .map(|uri| {
                        json!({"kind": "full", "uri": uri, "version": null, "resultId": "cleared", "items": []})
                    })
                    .collect();
                Ok(json!({"items": items}))
            }
            "ctlpgn/checkText" => {
                let params: diagnostics::CheckTextParams = decode_by_name(params)?;
                encode(diagnostics::check_text(documents, params, &context))
            }
            "ctlpgn/board" => {
                let params: BoardParams = decode_by_name(params)?;
                let found = documents.read(&params.text_document.uri, |document| {
                    let offset = from_proto::offset(
                        document.rope(),
                        params.position,
                        context.negotiated.encoding,
                    );
                    board::board(document, offset, &params, &context)
                });
                encode(found.flatten())
            }
            "ctlpgn/lines" => {
                let params: LinesParams = decode_by_name(params)?;
                let found = documents.read(&params.text_document.uri, |document| {
                    lines::lines(document, &params, &context)
                });
                encode(found.flatten())
            }
            "ctlpgn/play" => {
                let params: PlayParams = decode_by_name(params)?;
                let asked = params.version()?;
                let played = documents.read(&params.text_document.uri, |document| {
                    if document.version() != asked {
                        return Some(Err(play::stale(asked, document.version())));
                    }
                    let encoding = context.negotiated.encoding;
                    let offset = from_proto::offset(document.rope(), params.position, encoding);
                    view_at(document, offset, |view, _| {
                        let format = context.settings.format;
                        play::answer(document, view, &params, offset, &format, encoding)
                    })
                });
                encode(played.flatten().transpose()?)
            }
            _ => Err(ResponseError {
                code: METHOD_NOT_FOUND,
                message: format!("no method {}", quoted(method)),
            }),
        }
    }

    fn initialize(&mut self, params: Value) -> Answer {
        let Some(capabilities) = params.get("capabilities").filter(|sent| sent.is_object()) else {
            return Err(ResponseError::invalid_params("initialize names no capabilities object"));
        };
        let negotiated = Negotiated::from_capabilities(capabilities);
        let options = params.get("initializationOptions").cloned();
        self.context.negotiated = negotiated;
        self.documents.prepare_with(negotiated.preparations());
        if let Some(options) = options.filter(|options| !options.is_null()) {
            self.context.settings = self.context.settings.updated(&options);
            self.documents.set_judge_rules(self.context.settings.rules);
        }
        self.stage = Stage::Initialized;
        encode(InitializeResult {
            capabilities: crate::capabilities::server_capabilities(&negotiated),
            server_info: Some(ServerInfo {
                name: "ctlpgn".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        })
    }

    fn notification(&mut self, method: &str, params: Value) -> Vec<Value> {
        if method == "exit" {
            self.stage = Stage::Exited;
            return Vec::new();
        }
        if self.stage != Stage::Initialized {
            return Vec::new();
        }
        let encoding = self.context.negotiated.encoding;
        match method {
            "initialized" if self.context.negotiated.configuration => {
                let item = json!({"section": "ctlpgn"});
                let params = json!({"items": [item]});
                vec![
                    json!({"jsonrpc": "2.0", "id": CONFIGURATION_REQUEST, "method": "workspace/configuration", "params": params}),
                ]
            }
            "textDocument/didOpen" => {
                let Ok(params) = serde_json::from_value::<DidOpenTextDocumentParams>(params) else {
                    return Vec::new();
                };
                let document = params.text_document;
                self.documents.open(document.uri.clone(), &document.text, document.version);
                self.publish(&document.uri, document.version)
            }
            "textDocument/didChange" => {
                let Ok(params) = serde_json::from_value::<DidChangeTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let (uri, version) = (params.text_document.uri, params.text_document.version);
                match self.documents.change(&uri, version, &params.content_changes, encoding) {
                    Changed::Checked => self.publish(&uri, version),
                    Changed::Later => {
                        self.later.retain(|(waiting, _)| *waiting != uri);
                        self.later.push((uri, version));
                        Vec::new()
                    }
                    Changed::NotOpen => Vec::new(),
                }
            }
            "textDocument/didClose" => {
                let Ok(params) = serde_json::from_value::<DidCloseTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let uri = params.text_document.uri;
                if self.documents.close(&uri).is_none() {
                    return Vec::new();
                }
                if self.context.negotiated.workspace_pull {
                    self.closed.push(uri.clone());
                }
                if self.context.negotiated.pull_diagnostics {
                    return Vec::new();
                }
                vec![publish_message(&uri, Vec::new(), None)]
            }
            "workspace/didChangeConfiguration" => {
                let Ok(params) = serde_json::from_value::<DidChangeConfigurationParams>(params)
                else {
                    return Vec::new();
                };
                self.apply_settings(&params.settings)
            }
            _ => Vec::new(),
        }
    }

    /// A client's answer to one of the session's requests: the settings it was asked for.
    fn answered(&mut self, id: &Value, result: Option<&Value>) -> Vec<Value> {
        if id != CONFIGURATION_REQUEST || self.stage != Stage::Initialized {
            return Vec::new();
        }
        match result.and_then(|result| result.get(0)) {
            Some(value) => self.apply_settings(value),
            None => Vec::new(),
        }
    }

    /// Applies settings, and publishes every open document's diagnostics again when the rule
    /// checks were switched.
    fn apply_settings(&mut self, value: &Value) -> Vec<Value> {
        let previous = self.context.settings;
        self.context.settings = previous.updated(value);
        if previous.rules == self.context.settings.rules {
            return Vec::new();
        }
        self.documents.set_judge_rules(self.context.settings.rules);
        let versions = self.documents.versions();
        versions.iter().flat_map(|(uri, version)| self.publish(uri, *version)).collect()
    }

    /// The diagnostics of `version` of a document, pushed unless the client pulls them.
    fn publish(&self, uri: &Uri, version: i32) -> Vec<Value> {
        if self.context.negotiated.pull_diagnostics {
            return Vec::new();
        }
        let found = self.documents.read(uri, |document| {
            (document.version() == version)
                .then(|| diagnostics::diagnostics(document, &self.context))
        });
        match found.flatten() {
            Some(found) => vec![publish_message(uri, found, Some(version))],
            None => Vec::new(),
        }
    }
}

/// What a request is answered with.
type Answer = Result<Value, ResponseError>;

/// A request about a document: its parameters decoded, answered from the document when it is
/// open, `null` otherwise (never an error an editor would show).
fn about<P: DeserializeOwned, T: Serialize>(
    documents: &Documents,
    params: Value,
    answer: impl FnOnce(&Document, P) -> T,
) -> Answer {
    let uri = params.pointer("/textDocument/uri").cloned();
    let params: P = decode(params)?;
    let Some(uri) = uri.and_then(|uri| serde_json::from_value::<Uri>(uri).ok()) else {
        return Err(ResponseError::invalid_params("the request names no textDocument.uri"));
    };
    encode(documents.read(&uri, |document| answer(document, params)))
}

/// A request's parameters as `P`, or why they are not.
fn decode<P: DeserializeOwned>(params: Value) -> Result<P, ResponseError> {
    serde_json::from_value(params).map_err(|error| ResponseError {
        code: INVALID_PARAMS,
        message: format!("invalid parameters: {}", quoted(&error.to_string())),
    })
}

/// [`decode`] for the requests of our own, whose parameters are read by name only: an array
/// is refused (as the native server's `ByName`).
fn decode_by_name<P: DeserializeOwned>(params: Value) -> Result<P, ResponseError> {
    if !params.is_object() {
        return Err(ResponseError::invalid_params("the parameters are an object, by name"));
    }
    decode(params)
}

/// An answer as JSON.
fn encode<T: Serialize>(value: T) -> Answer {
    serde_json::to_value(value).map_err(|error| ResponseError {
        code: -32603,
        message: format!("the answer could not be written: {error}"),
    })
}

/// The response to request `id`.
fn response(id: Value, answer: Answer) -> Value {
    match answer {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": error.code, "message": error.message}})
        }
    }
}

/// A `publishDiagnostics` notification.
fn publish_message(
    uri: &Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Value {
    let params = lsp_types::PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version };
    json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;
    use ctlpgn_test_support::fixtures::knights_out_and_back;

    fn initialized() -> Session {
        let mut session = Session::new();
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
        assert_eq!(session.handle(&initialize).len(), 1);
        assert!(session
            .handle(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
            .is_empty());
        session
    }

    /// The versions of the `publishDiagnostics` among `messages`.
    fn published(messages: &[Value]) -> Vec<i64> {
        let published = messages
            .iter()
            .filter(|message| message["method"] == "textDocument/publishDiagnostics");
        published.map(|message| message["params"]["version"].as_i64().expect("a version")).collect()
    }

    /// A change in a record too large to check at once publishes nothing until the transport's
    /// pause ends; then the latest version's diagnostics, once, and nothing at a second pause.
    #[test]
    fn a_change_to_a_large_record_is_published_when_the_pause_ends() {
        let mut session = initialized();
        let uri = "file:///large.ctl-pgn";
        let text = knights_out_and_back(14_000, false);
        assert!(text.len() > crate::documents::RECHECK_AT_ONCE);
        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "ctlpgn", "version": 1, "text": text}}});
        assert_eq!(published(&session.handle(&open)), [1]);
        for version in [2, 3] {
            let range = json!({"start": {"line": 7_002, "character": 10}, "end": {"line": 7_002, "character": 12}});
            let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range, "text": "I7"}]}});
            assert!(session.handle(&change).is_empty(), "version {version} waits for the pause");
        }
        let settled = session.settle();
        assert_eq!(published(&settled), [3]);
        let errors = settled[0]["params"]["diagnostics"].as_array().expect("a list");
        assert!(
            errors.iter().any(|found| found["severity"] == 1),
            "the Knight sent elsewhere: {errors:?}"
        );
        assert!(session.settle().is_empty());
    }

    /// A text checked without being opened: its problems, at the settings in force, and no
    /// document left open (a hover on it finds none).
    #[test]
    fn check_text_answers_a_files_problems_without_opening_it() {
        let mut session = initialized();
        let uri = "file:///archive/unopened.ctl-pgn";
        let text = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. E7-E13, E21-E99\n*\n";
        let check = json!({"jsonrpc": "2.0", "id": 2, "method": "ctlpgn/checkText", "params": {"uri": uri, "text": text}});
        let answer = session.handle(&check);
        assert_eq!(answer[0]["result"]["uri"], uri);
        let found = answer[0]["result"]["diagnostics"].as_array().expect("a list");
        let codes: Vec<&str> = found.iter().filter_map(|found| found["code"].as_str()).collect();
        assert_eq!(codes, ["T007", "M004", "C002"], "{found:?}");
        let c002 = &found[2]["range"];
        assert_eq!(
            c002,
            &json!({"start": {"line": 3, "character": 15}, "end": {"line": 3, "character": 18}})
        );
        let hover = json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 4}}});
        assert_eq!(session.handle(&hover)[0]["result"], Value::Null);
        let missing = json!({"jsonrpc": "2.0", "id": 4, "method": "ctlpgn/checkText", "params": {"uri": uri}});
        assert_eq!(session.handle(&missing)[0]["error"]["code"], json!(-32602));
    }

    /// What a worker may read that is no message is answered as the native transport answers it.
    #[test]
    fn text_that_is_no_message_is_answered_with_the_error_and_id_null() {
        let mut session = initialized();
        let code = |answer: &[Value]| (answer[0]["id"].clone(), answer[0]["error"]["code"].clone());
        assert_eq!(code(&session.handle_json(b"{not json")), (Value::Null, json!(-32700)));
        assert_eq!(code(&session.handle_json(b"\"\xff\xfe\"")), (Value::Null, json!(-32700)));
        assert_eq!(code(&session.handle_json(b"[1, 2]")), (Value::Null, json!(-32600)));
        assert_eq!(code(&session.handle_json(b"42")), (Value::Null, json!(-32600)));
        let hover = br#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{}}"#;
        assert_eq!(code(&session.handle_json(hover)), (json!(3), json!(-32602)));
    }
}
