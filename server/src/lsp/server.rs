//! The protocol handlers, all in one `LanguageServer` impl: each decodes its parameters, asks
//! the open documents and the core, and encodes the answer.
//!
//! tower-lsp runs up to four handlers at once, in the order their messages arrived as far as
//! their first poll goes. So every change is applied before the handler's first `.await`, under
//! the documents' lock; only publishing awaits, and its first await takes `publishing`, a fair
//! lock: diagnostics reach the client in the order of the notifications that caused them. No handler waits for the client: the settings
//! are asked for by a task of their own, with a time limit. Requests about documents that are
//! not open get empty answers, never errors that would make an editor complain. A panic in a
//! handler is answered by `panics::CatchPanics`; a change whose analysis panicked still
//! changes the text.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use ctlpgn_protocol::error::ResponseError;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::MessageType;
use tower_lsp_server::lsp_types::{
    CodeAction, CodeActionParams, CodeActionResponse, CompletionParams, CompletionResponse,
    ConfigurationItem, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentDiagnosticParams,
    DocumentDiagnosticReportResult, DocumentFormattingParams, DocumentHighlight,
    DocumentHighlightParams, DocumentRangeFormattingParams, DocumentSymbolParams,
    DocumentSymbolResponse, ExecuteCommandParams, FoldingRange, FoldingRangeParams,
    FullDocumentDiagnosticReport, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverParams,
    InitializeParams, InitializeResult, InitializedParams, LSPAny, Location, Position,
    ReferenceParams, ServerInfo, TextEdit, Uri,
};
use tower_lsp_server::lsp_types::{
    DidChangeWatchedFilesParams, DidChangeWatchedFilesRegistrationOptions,
    DidChangeWorkspaceFoldersParams, FileSystemWatcher, GlobPattern, Registration,
    UnchangedDocumentDiagnosticReport, WorkspaceDiagnosticParams, WorkspaceDiagnosticReport,
    WorkspaceDiagnosticReportResult, WorkspaceDocumentDiagnosticReport,
    WorkspaceFullDocumentDiagnosticReport, WorkspaceUnchangedDocumentDiagnosticReport,
};
use tower_lsp_server::lsp_types::{
    SemanticToken, SemanticTokens, SemanticTokensParams, SemanticTokensRangeParams,
    SemanticTokensRangeResult, SemanticTokensResult,
};
use tower_lsp_server::{Client, LanguageServer};

use super::memory;
use super::panics;
use super::paths;
use super::sent_capabilities::SentCapabilities;
use super::workspace::{self, Checking, Held, Survey, Workspace};
use ctlpgn_core::document::Document;
use ctlpgn_protocol::board;
use ctlpgn_protocol::by_name::ByName;
use ctlpgn_protocol::capabilities;
use ctlpgn_protocol::code_actions;
use ctlpgn_protocol::commands;
use ctlpgn_protocol::completion;
use ctlpgn_protocol::context::{view_at, Context};
use ctlpgn_protocol::diagnostics;
use ctlpgn_protocol::documents::{Changed, Documents, RECHECK_AT_ONCE, RECHECK_PAUSE};
use ctlpgn_protocol::encoding::Negotiated;
use ctlpgn_protocol::formatting;
use ctlpgn_protocol::from_proto;
use ctlpgn_protocol::hover;
use ctlpgn_protocol::lines;
use ctlpgn_protocol::navigation;
use ctlpgn_protocol::play;
use ctlpgn_protocol::semantic_tokens;
use ctlpgn_protocol::settings::Settings;
use ctlpgn_protocol::structure;

/// How long the client may take to answer `workspace/configuration` (the settings stay as they
/// are when it does not answer in time) or `workspace/diagnostic/refresh` (asked again after).
const CONFIGURATION_PATIENCE: Duration = Duration::from_secs(5);

/// The language server's state. A clone shares it: the task that waits for the client's
/// settings holds one.
#[derive(Clone, Debug)]
pub struct Server {
    client: Client,
    documents: Arc<Documents>,
    /// What the client's `initialize` declared that lsp-types cannot read.
    sent: Arc<SentCapabilities>,
    /// Set once by `initialize`; the defaults (UTF-16, pushed diagnostics) apply before it.
    negotiated: Arc<OnceLock<Negotiated>>,
    /// Held while deciding whether to publish and publishing, so that a result overtaken by a
    /// newer version is dropped instead of being sent after the newer one.
    publishing: Arc<tokio::sync::Mutex<()>>,
    /// Set by `shutdown`, for the exit status (LSP: 0 after a shutdown, 1 otherwise).
    shut_down: Arc<AtomicBool>,
    /// The user's settings, from `initializationOptions`, then `workspace/configuration`, with
    /// the ticket of the change that set them.
    settings: Arc<RwLock<(Settings, u64)>>,
    /// The last ticket handed out: every change of the settings takes one when it is asked
    /// for, so that an answer of the client's that arrives late never undoes a newer change.
    tickets: Arc<AtomicU64>,
    /// The workspace folders and what was reported of the record files under them, for the
    /// setting `diagnostics.workspace` (see `workspace`).
    workspace: Arc<Workspace>,
    /// What the next survey pushed to the client must read, and whether one runs: the files
    /// changed and the folders changed while one runs are read by one more after it, never by
    /// one survey per notification (see `survey_later`).
    pending: Arc<Mutex<Pending>>,
    /// Whether the client was asked to pull every diagnostic again and has not answered yet:
    /// a second request meanwhile would ask for nothing more.
    refreshing: Arc<AtomicBool>,
    /// The failures of the last survey, as said to the client: a client that pulls every
    /// two seconds is told of an unreadable file once, not every time.
    failures_said: Arc<Mutex<Vec<String>>>,
    /// Whether the client was asked to watch the record files.
    watching: Arc<AtomicBool>,
}

/// How many failures of a survey are said one by one; the others are counted.
const FAILURES_SAID: usize = 20;

/// What the next survey pushed to the client must read (see `Server::survey_later`).
#[derive(Debug, Default)]
struct Pending {
    /// A survey task runs: what is asked meanwhile waits for it.
    running: bool,
    /// The folders must be walked: the settings, the folders or the open documents changed,
    /// or a file the survey does not know of was named.
    walk: bool,
    /// The files the client said changed, read again whatever their stamps.
    files: Vec<PathBuf>,
}

impl Server {
    pub fn new(client: Client, shut_down: Arc<AtomicBool>, sent: Arc<SentCapabilities>) -> Server {
        Server {
            sent,
            client,
            documents: Arc::default(),
            negotiated: Arc::default(),
            publishing: Arc::default(),
            shut_down,
            settings: Arc::default(),
            tickets: Arc::default(),
            workspace: Arc::default(),
            pending: Arc::default(),
            refreshing: Arc::default(),
            failures_said: Arc::default(),
            watching: Arc::default(),
        }
    }

    /// The client, for the messages of `panics::CatchPanics`.
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    fn negotiated(&self) -> Negotiated {
        self.negotiated.get().copied().unwrap_or_default()
    }

    /// Runs `work` on a snapshot of a document on the blocking pool: a request over a whole
    /// large document (folding, symbols, semantic tokens, formatting) then holds neither the
    /// documents' lock, which every keystroke needs, nor an async worker. `None` when the
    /// document is not open. A panic of `work` goes on in the handler (`panics::resume`).
    async fn on_snapshot<T: Send + 'static>(
        &self,
        uri: &Uri,
        work: impl FnOnce(&Document) -> T + Send + 'static,
    ) -> Option<T> {
        let document = self.documents.snapshot(uri)?;
        panics::resume(tokio::task::spawn_blocking(move || work(&document)).await)
    }

    fn settings(&self) -> Settings {
        self.settings.read().unwrap_or_else(PoisonError::into_inner).0
    }

    /// What the protocol layer's answers read: what was negotiated and the settings.
    fn context(&self) -> Context {
        Context { negotiated: self.negotiated(), settings: self.settings() }
    }

    /// A ticket for a change of the settings asked for now.
    fn ticket(&self) -> u64 {
        self.tickets.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Updates the settings with the values `value` gives, unless a change newer than
    /// `ticket` was applied already; returns the settings before, when it updated them.
    fn update_settings(&self, ticket: u64, value: &LSPAny) -> Option<Settings> {
        let mut settings = self.settings.write().unwrap_or_else(PoisonError::into_inner);
        let (previous, applied) = *settings;
        if ticket < applied {
            return None;
        }
        let updated = previous.updated(value);
        *settings = (updated, ticket);
        // Under the settings' lock, so that two changes reach the documents in their order.
        self.documents.set_judge_rules(updated.rules);
        Some(previous)
    }

    /// Asks the client for the `ctlpgn` section of its configuration, when it can answer, in
    /// a task of its own: a client that does not answer holds up no handler, and is given up
    /// on after `CONFIGURATION_PATIENCE`.
    fn pull_settings(&self) {
        if !self.negotiated().configuration {
            return;
        }
        let (server, ticket) = (self.clone(), self.ticket());
        tokio::spawn(async move {
            let item = ConfigurationItem { scope_uri: None, section: Some("ctlpgn".to_string()) };
            let asked = server.client.configuration(vec![item]);
            match tokio::time::timeout(CONFIGURATION_PATIENCE, asked).await {
                Ok(Ok(values)) => {
                    if let Some(value) = values.first() {
                        server.apply_settings(ticket, value).await;
                    }
                }
                Ok(Err(_)) => {}
                Err(_) => {
                    let message = "ctlpgn: the client did not answer workspace/configuration \
                                   in time; the settings stay as they were";
                    server.client.log_message(MessageType::WARNING, message).await;
                }
            }
        });
    }

    /// Takes new settings (see `update_settings`); when the rule checks were switched, every
    /// open document's diagnostics are published again. Then the settings in force are
    /// logged, under the publishing lock: every diagnostic pushed for the notifications that
    /// came before the settings reaches the client before this message, which makes it a
    /// barrier the tests wait for (a client that pulls has no other).
    async fn apply_settings(&self, ticket: u64, value: &LSPAny) {
        let updated = match panics::catch(|| self.update_settings(ticket, value)) {
            Ok(updated) => updated,
            Err(panic) => {
                let message = format!("ctlpgn: applying the settings panicked: {panic}");
                self.client.log_message(MessageType::ERROR, message).await;
                return;
            }
        };
        let now = self.settings();
        // Before the first await: a pull that follows the settings reads what they change.
        if let Some(previous) = updated {
            let switched = previous.workspace_diagnostics != now.workspace_diagnostics;
            if now.workspace_diagnostics && previous.rules != now.rules {
                self.workspace.invalidate();
            }
            if switched || (now.workspace_diagnostics && previous.rules != now.rules) {
                self.workspace_changed();
            }
        }
        if updated.is_some_and(|previous| previous.rules != now.rules) {
            for (uri, version) in self.documents.versions() {
                self.publish(uri, version).await;
            }
        }
        let _publishing = self.publishing.lock().await;
        let message = format!("ctlpgn: settings {value} applied: {:?}", self.settings());
        self.client.log_message(MessageType::LOG, message).await;
    }

    /// After a change or an opening whose work panicked: makes the document's text `text`
    /// again, at `version` (see `Documents::reset`), logs the panic and publishes. The text is
    /// set before the first await, so that no later change lands on what the panic left.
    async fn recover(&self, uri: &Uri, text: Option<String>, version: i32, panic: String) {
        let reset = match &text {
            Some(text) => {
                panics::catch(|| self.documents.reset(uri.clone(), text, version)).is_ok()
            }
            None => {
                // The changes were not all applied, and the text they lead to is unknown:
                // the document is forgotten rather than kept with a wrong text.
                self.documents.close(uri);
                false
            }
        };
        let message = format!("ctlpgn: analysing {} panicked: {panic}", uri.as_str());
        self.client.log_message(MessageType::ERROR, message).await;
        if text.is_none() {
            let message =
                format!("ctlpgn: {} is no longer analysed; close and reopen it", uri.as_str());
            self.client.log_message(MessageType::ERROR, message).await;
        } else if reset {
            self.publish(uri.clone(), version).await;
        }
    }

    /// Checks the records of a document changed at `version` once the typing pauses for
    /// `RECHECK_PAUSE`, unless a later change came by then (its own task does it), and
    /// publishes their diagnostics: in a task of its own, the checking on the blocking pool.
    fn check_after_pause(&self, uri: Uri, version: i32) {
        let server = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(RECHECK_PAUSE).await;
            let (documents, settled_uri) = (server.documents.clone(), uri.clone());
            let settled = tokio::task::spawn_blocking(move || {
                panics::catch(|| documents.settle(&settled_uri, version))
            })
            .await;
            match settled {
                Ok(Ok(true)) => {
                    // What the check read and the records it replaced are free: see `memory`.
                    // Given back before the diagnostics go out, so that the memory the client
                    // sees with them is what the server holds.
                    give_back_freed().await;
                    server.publish(uri, version).await;
                }
                Ok(Ok(false)) => {}
                Ok(Err(panic)) => {
                    let text = server.documents.text(&uri, version);
                    server.recover(&uri, text, version, panic).await;
                }
                Err(error) => {
                    let text = server.documents.text(&uri, version);
                    server.recover(&uri, text, version, error.to_string()).await;
                }
            }
        });
    }

    /// Pushes the diagnostics of `version` of a document, unless the client pulls them, the
    /// document was closed, or a newer version has overtaken this one (its own handler will
    /// publish it).
    async fn publish(&self, uri: Uri, version: i32) {
        let context = self.context();
        if context.negotiated.pull_diagnostics {
            return;
        }
        let _publishing = self.publishing.lock().await;
        let current = self.documents.read(&uri, |document| {
            (document.version() == version).then(|| diagnostics::diagnostics(document, &context))
        });
        if let Some(Some(found)) = current {
            self.client.publish_diagnostics(uri, found, Some(version)).await;
        }
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let negotiated = *self.negotiated.get_or_init(|| match self.sent.capabilities() {
            Some(sent) => Negotiated::from_capabilities(sent),
            // An `initialize` too large for the transport to keep: lsp-types' reading of it.
            None => Negotiated::from_capabilities(
                &serde_json::to_value(&params.capabilities).unwrap_or_default(),
            ),
        });
        self.documents.prepare_with(negotiated.preparations());
        if let Some(options) = &params.initialization_options {
            self.update_settings(self.ticket(), options);
        }
        self.workspace.set_folders(workspace_folders(&params));
        Ok(InitializeResult {
            capabilities: capabilities::server_capabilities(&negotiated),
            server_info: Some(ServerInfo {
                name: "ctlpgn".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if self.negotiated().configuration {
            self.pull_settings();
        } else {
            // Said once, so that a user (and a test) knows the server will not ask.
            let message = "ctlpgn: the client answers no workspace/configuration; the settings \
                           come from initializationOptions and workspace/didChangeConfiguration";
            self.client.log_message(MessageType::INFO, message).await;
        }
        if self.settings().workspace_diagnostics {
            self.workspace_changed();
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        // Some clients send the settings with the notification; others send nothing and
        // expect the server to ask.
        if params.settings.is_null() {
            self.pull_settings();
        } else {
            self.apply_settings(self.ticket(), &params.settings).await;
        }
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let (uri, version) = (document.uri, document.version);
        // Its problems now come from the editor; reported from the disk again once closed.
        let pushed_from_disk = paths::file_path(&uri)
            .filter(|path| self.workspace.opened(path))
            .and_then(|path| workspace::path_uri(&path));
        match panics::catch(|| self.documents.open(uri.clone(), &document.text, version)) {
            Ok(()) => {
                if document.text.len() > RECHECK_AT_ONCE {
                    // The message, the reading on every core and the parses checked and let go
                    // are free: see `memory`. Before the diagnostics, as after a change.
                    give_back_freed().await;
                }
                self.publish(uri, version).await
            }
            Err(panic) => self.recover(&uri, Some(document.text), version, panic).await,
        }
        let negotiated = self.negotiated();
        if let Some(pushed) = pushed_from_disk.filter(|_| negotiated.pull_diagnostics) {
            // A client that pulls an open document's problems would show the disk's too.
            let _publishing = self.publishing.lock().await;
            self.client.publish_diagnostics(pushed, Vec::new(), None).await;
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let (uri, version) = (params.text_document.uri, params.text_document.version);
        let encoding = self.negotiated().encoding;
        match panics::catch(|| {
            self.documents.change(&uri, version, &params.content_changes, encoding)
        }) {
            Ok(Changed::Checked) => self.publish(uri, version).await,
            Ok(Changed::Later) => self.check_after_pause(uri, version),
            Ok(Changed::NotOpen) => {}
            Err(panic) => {
                // The text is changed before it is analysed: when the version is the new one,
                // every change reached the text, and only the records are behind it.
                let text = self.documents.text(&uri, version);
                self.recover(&uri, text, version, panic).await;
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let Some(closed) = self.documents.close(&uri) else {
            return;
        };
        if let Some(path) = paths::file_path(&uri) {
            self.workspace.closed(&path, self.negotiated().workspace_pull);
        }
        if !self.negotiated().pull_diagnostics {
            let _publishing = self.publishing.lock().await;
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
        if self.settings().workspace_diagnostics {
            // The file on the disk, which the editor may not have saved, is reported again.
            self.workspace_changed();
        }
        if closed.length > RECHECK_AT_ONCE || closed.left_open == 0 {
            // The memory the document held is free: see `memory`.
            give_back_freed().await;
        }
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let context = self.context();
        let report = self.documents.read(&params.text_document.uri, |document| {
            diagnostics::report(Some(document), &context)
        });
        Ok(report.unwrap_or_else(|| diagnostics::report(None, &context)))
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let held: HashMap<PathBuf, String> = params
            .previous_result_ids
            .into_iter()
            .filter_map(|previous| Some((paths::file_path(&previous.uri)?, previous.value)))
            .collect();
        let survey = self
            .survey(move |workspace, open, on, checking| {
                if on {
                    workspace.survey(open, Held::Ids(&held), checking)
                } else {
                    workspace.cleared(open, Held::Ids(&held))
                }
            })
            .await?;
        let full = survey.changed.into_iter().map(|report| {
            WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                uri: report.uri,
                version: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: Some(report.id),
                    items: report.diagnostics,
                },
            })
        });
        let unchanged = survey.unchanged.into_iter().map(|(uri, id)| {
            WorkspaceDocumentDiagnosticReport::Unchanged(
                WorkspaceUnchangedDocumentDiagnosticReport {
                    uri,
                    version: None,
                    unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport {
                        result_id: id,
                    },
                },
            )
        });
        let items = full.chain(unchanged).collect();
        Ok(WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items }))
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let named: Vec<PathBuf> =
            params.changes.iter().filter_map(|change| paths::file_path(&change.uri)).collect();
        if self.negotiated().workspace_pull || !self.settings().workspace_diagnostics {
            // Read again by the next survey, whatever their stamps say: a change within the
            // same second and of the same length leaves the stamp as it was.
            for path in &named {
                self.workspace.forget(path);
            }
        }
        if self.settings().workspace_diagnostics {
            self.survey_later(Some(named));
        }
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let paths = |folders: Vec<tower_lsp_server::lsp_types::WorkspaceFolder>| -> Vec<PathBuf> {
            folders.iter().filter_map(|folder| paths::file_path(&folder.uri)).collect()
        };
        let removed = paths(params.event.removed);
        self.workspace.change_folders(paths(params.event.added), &removed);
        if self.settings().workspace_diagnostics {
            self.workspace_changed();
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let (uri, context) =
            (&params.text_document_position_params.text_document.uri, self.context());
        let found = self.documents.read(uri, |document| hover::hover(document, &params, &context));
        Ok(found.flatten())
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let (negotiated, rules) = (self.negotiated(), self.settings().rules);
        let (encoding, lazy) = (negotiated.encoding, negotiated.resolve_edits);
        let uri = params.text_document.uri;
        let actions = self.documents.read(&uri, |document| {
            code_actions::actions(
                document,
                &uri,
                params.range,
                &params.context,
                rules,
                encoding,
                lazy,
            )
        });
        Ok(actions.filter(|actions| !actions.is_empty()))
    }

    async fn code_action_resolve(&self, params: CodeAction) -> Result<CodeAction> {
        let (encoding, rules) = (self.negotiated().encoding, self.settings().rules);
        let uri = params
            .data
            .as_ref()
            .and_then(|data| serde_json::from_value::<code_actions::Lazy>(data.clone()).ok())
            .map(|lazy| lazy.uri);
        let Some(uri) = uri else {
            return code_actions::resolve(None, params, rules, encoding).map_err(refused);
        };
        // The fix-all and the conversions are whole-document or whole-record work: on a
        // snapshot, off the documents' lock.
        match self.documents.snapshot(&uri) {
            Some(document) => panics::resume(
                tokio::task::spawn_blocking(move || {
                    code_actions::resolve(Some(&document), params, rules, encoding).map_err(refused)
                })
                .await,
            )
            .unwrap_or_else(|| Err(Error::internal_error())),
            None => code_actions::resolve(None, params, rules, encoding).map_err(refused),
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let (uri, position) = commands::position_at_arguments(&params).map_err(refused)?;
        let encoding = self.negotiated().encoding;
        let found =
            self.documents.read(&uri, |document| commands::pdtl_at(document, position, encoding));
        Ok(found.flatten().map(LSPAny::String))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let (uri, context) = (&params.text_document_position.text_document.uri, self.context());
        let found = self
            .documents
            .read(uri, |document| completion::completion(document, &params, &context));
        Ok(found.flatten())
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        Ok(self.on_snapshot(&params.text_document.uri, structure::folding_ranges).await)
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let encoding = self.negotiated().encoding;
        let symbols = self
            .on_snapshot(&params.text_document.uri, move |document| {
                structure::document_symbols(document, encoding)
            })
            .await;
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let (encoding, options) = (self.negotiated().encoding, self.settings().format);
        Ok(self
            .on_snapshot(&params.text_document.uri, move |document| {
                formatting::edits(document, None, &options, encoding)
            })
            .await)
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        let (encoding, options) = (self.negotiated().encoding, self.settings().format);
        let range = params.range;
        Ok(self
            .on_snapshot(&params.text_document.uri, move |document| {
                formatting::edits(document, Some(range), &options, encoding)
            })
            .await)
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let (uri, context) =
            (&params.text_document_position_params.text_document.uri, self.context());
        let found = self
            .documents
            .read(uri, |document| navigation::definition(document, &params, &context));
        Ok(found.flatten())
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let (uri, context) =
            (&params.text_document_position_params.text_document.uri, self.context());
        let found = self
            .documents
            .read(uri, |document| navigation::highlights(document, &params, &context));
        Ok(found.flatten())
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let (uri, context) = (&params.text_document_position.text_document.uri, self.context());
        Ok(self.documents.read(uri, |document| navigation::references(document, &params, &context)))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        // The transport answers this request itself (`raw_answers`, which calls
        // `semantic_tokens_full_data`); this path serves a transport that does not.
        let data = self.semantic_tokens_full_data(params).await;
        Ok(data.map(|data| SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data })))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let encoding = self.negotiated().encoding;
        let range = params.range;
        let data = self.documents.read(&params.text_document.uri, |document| {
            semantic_tokens::encode(
                document,
                Some(from_proto::byte_range(document.rope(), range, encoding)),
                encoding,
            )
        });
        Ok(data.map(|data| {
            SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data })
        }))
    }
}

/// The record files under the workspace folders (see `workspace`).
impl Server {
    /// After the setting `diagnostics.workspace`, the files or the folders changed: a client
    /// that pulls is asked to pull again (it pulls every few seconds anyway); a client that
    /// does not is pushed the reports of what changed, by a survey in a task of its own. The
    /// client is asked to watch the record files once the setting is on.
    fn workspace_changed(&self) {
        self.survey_later(None);
    }

    /// [`Server::workspace_changed`], for the files `named` only when some are (the client
    /// said they changed), else for the whole folders. Pushed surveys never overlap and are
    /// never queued one per notification: what is asked while one runs is read by one more
    /// after it, the files named together and the folders walked once.
    fn survey_later(&self, named: Option<Vec<PathBuf>>) {
        let negotiated = self.negotiated();
        if self.settings().workspace_diagnostics {
            self.watch_record_files();
        }
        if negotiated.workspace_pull {
            if negotiated.diagnostic_refresh && !self.refreshing.swap(true, Ordering::SeqCst) {
                let (client, refreshing) = (self.client.clone(), self.refreshing.clone());
                tokio::spawn(async move {
                    // A client that never answers is asked again after a while, not never.
                    let asked = client.workspace_diagnostic_refresh();
                    let _ = tokio::time::timeout(CONFIGURATION_PATIENCE, asked).await;
                    refreshing.store(false, Ordering::SeqCst);
                });
            }
            return;
        }
        {
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            match named {
                Some(files) => pending.files.extend(files),
                None => pending.walk = true,
            }
            if std::mem::replace(&mut pending.running, true) {
                return;
            }
        }
        let server = self.clone();
        tokio::spawn(async move {
            loop {
                let (walk, files) = {
                    let mut pending = server.pending.lock().unwrap_or_else(PoisonError::into_inner);
                    if !pending.walk && pending.files.is_empty() {
                        pending.running = false;
                        return;
                    }
                    (std::mem::take(&mut pending.walk), std::mem::take(&mut pending.files))
                };
                let surveyed = server
                    .survey(move |workspace, open, on, checking| match (on, walk) {
                        (false, _) => workspace.cleared(open, Held::Pushed),
                        (true, true) => {
                            for path in &files {
                                workspace.forget(path);
                            }
                            workspace.survey(open, Held::Pushed, checking)
                        }
                        (true, false) => workspace.recheck(&files, open, checking),
                    })
                    .await;
                let Ok(survey) = surveyed else {
                    continue;
                };
                for report in survey.changed {
                    let _publishing = server.publishing.lock().await;
                    // A file opened meanwhile keeps the problems of the editor's text.
                    let opened = paths::file_path(&report.uri)
                        .is_some_and(|path| paths::open_paths(&server.documents).contains(&path));
                    if !opened {
                        server
                            .client
                            .publish_diagnostics(report.uri, report.diagnostics, None)
                            .await;
                    }
                }
            }
        });
    }

    /// Runs `work` on the workspace on the blocking pool, with the files of the open
    /// documents, whether the setting is on, and how files are checked; then says the
    /// failures the survey met, unless they were said last time. A panic of `work` is said
    /// and answered as an internal error.
    async fn survey(
        &self,
        work: impl FnOnce(&Workspace, &std::collections::HashSet<PathBuf>, bool, Checking) -> Survey
            + Send
            + 'static,
    ) -> Result<Survey> {
        let settings = self.settings();
        let checking = Checking { encoding: self.negotiated().encoding, rules: settings.rules };
        let (workspace, open) = (self.workspace.clone(), paths::open_paths(&self.documents));
        let surveyed = tokio::task::spawn_blocking(move || {
            panics::catch(|| work(&workspace, &open, settings.workspace_diagnostics, checking))
        })
        .await;
        let survey = match surveyed {
            Ok(Ok(survey)) => survey,
            Ok(Err(panic)) => {
                let message = format!("ctlpgn: surveying the workspace panicked: {panic}");
                self.client.log_message(MessageType::ERROR, message).await;
                return Err(Error::internal_error());
            }
            Err(_) => return Err(Error::internal_error()),
        };
        if survey.read > RECHECK_AT_ONCE as u64 {
            // The files read and their documents are free: see `memory`.
            give_back_freed().await;
        }
        self.say_failures(&survey.failures).await;
        Ok(survey)
    }

    /// Says what a survey could not read, when it differs from what was said last.
    async fn say_failures(&self, failures: &[String]) {
        {
            let mut said = self.failures_said.lock().unwrap_or_else(PoisonError::into_inner);
            if said.as_slice() == failures {
                return;
            }
            *said = failures.to_vec();
        }
        for failure in failures.iter().take(FAILURES_SAID) {
            let message = format!("ctlpgn: workspace diagnostics: {failure}");
            self.client.log_message(MessageType::WARNING, message).await;
        }
        if failures.len() > FAILURES_SAID {
            let message = format!(
                "ctlpgn: workspace diagnostics: {} more files could not be read",
                failures.len() - FAILURES_SAID
            );
            self.client.log_message(MessageType::WARNING, message).await;
        }
    }

    /// Asks the client, once, to tell of every change to a record file on the disk, when it
    /// can watch files for the server.
    fn watch_record_files(&self) {
        if !self.negotiated().watch_files || self.watching.swap(true, Ordering::SeqCst) {
            return;
        }
        let client = self.client.clone();
        tokio::spawn(async move {
            let options = DidChangeWatchedFilesRegistrationOptions {
                watchers: vec![FileSystemWatcher {
                    glob_pattern: GlobPattern::String("**/*.ctl-pgn".to_string()),
                    kind: None,
                }],
            };
            let registration = Registration {
                id: "ctlpgn-record-files".to_string(),
                method: "workspace/didChangeWatchedFiles".to_string(),
                register_options: serde_json::to_value(options).ok(),
            };
            if let Err(error) = client.register_capability(vec![registration]).await {
                let message =
                    format!("ctlpgn: the client does not watch the record files: {error}");
                client.log_message(MessageType::WARNING, message).await;
            }
        });
    }
}

/// The folders of the workspace the client opened: its workspace folders, or the root of a
/// client that predates them.
fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
    match &params.workspace_folders {
        Some(folders) => {
            folders.iter().filter_map(|folder| paths::file_path(&folder.uri)).collect()
        }
        #[allow(deprecated)]
        None => params.root_uri.iter().filter_map(paths::file_path).collect(),
    }
}

impl Server {
    /// The tokens of `textDocument/semanticTokens/full`, for the answer that `raw_answers`
    /// writes; `None` when the document is not open.
    pub async fn semantic_tokens_full_data(
        &self,
        params: SemanticTokensParams,
    ) -> Option<Vec<SemanticToken>> {
        let encoding = self.negotiated().encoding;
        self.on_snapshot(&params.text_document.uri, move |document| {
            semantic_tokens::encode(document, None, encoding)
        })
        .await
    }

    /// `ctlpgn/board` (see `board`): the board at a place, worked out on a snapshot (see
    /// `on_record_snapshot`).
    pub async fn board(
        &self,
        ByName(params): ByName<board::BoardParams>,
    ) -> Result<Option<board::BoardReply>> {
        let context = self.context();
        let uri = params.text_document.uri.clone();
        let Some((document, offset)) = self.record_snapshot(&uri, params.position) else {
            return Ok(None);
        };
        Ok(self
            .on_record_snapshot(&uri, document, move |document| {
                board::board(document, offset, &params, &context)
            })
            .await
            .flatten())
    }

    /// `ctlpgn/checkText` (see `diagnostics::check_text`): a file's problems from its text, on
    /// the blocking pool; the server's own survey reads the disk, a client that reads files
    /// itself may ask.
    pub async fn check_text(
        &self,
        ByName(params): ByName<diagnostics::CheckTextParams>,
    ) -> Result<Option<diagnostics::CheckTextReply>> {
        let (documents, context) = (self.documents.clone(), self.context());
        // A panic of the check goes on in the handler, which answers it with an error.
        Ok(panics::resume(
            tokio::task::spawn_blocking(move || {
                diagnostics::check_text(&documents, params, &context)
            })
            .await,
        ))
    }

    /// `ctlpgn/lines` (see `lines`): the lines of play of a record, worked out on a snapshot
    /// (see `on_record_snapshot`).
    pub async fn lines(
        &self,
        ByName(params): ByName<lines::LinesParams>,
    ) -> Result<Option<lines::LinesReply>> {
        let context = self.context();
        let uri = params.text_document.uri.clone();
        let encoding = context.negotiated.encoding;
        let snapshot = self.documents.read(&uri, |document| {
            let offset = lines::record_offset(document, &params, encoding)?;
            Some(document.snapshot_at(offset))
        });
        let Some(document) = snapshot.flatten() else {
            return Ok(None);
        };
        Ok(self
            .on_record_snapshot(&uri, document, move |document| {
                lines::lines(document, &params, &context)
            })
            .await
            .flatten())
    }

    /// `ctlpgn/play` (see `play`): a half-move played at a place, as an edit for the client
    /// to apply; `null` for a document that is not open. The place must have been read in the
    /// document's current version; the play is worked out on a snapshot of that version.
    pub async fn play(
        &self,
        ByName(params): ByName<play::PlayParams>,
    ) -> Result<Option<play::PlayReply>> {
        let (encoding, format) = (self.negotiated().encoding, self.settings().format);
        let asked = params.version().map_err(refused)?;
        let uri = params.text_document.uri.clone();
        let Some((document, offset)) = self.record_snapshot(&uri, params.position) else {
            return Ok(None);
        };
        if document.version() != asked {
            return Err(refused(play::stale(asked, document.version())));
        }
        let answer = self
            .on_record_snapshot(&uri, document, move |document| {
                view_at(document, offset, |view, _| {
                    play::answer(document, view, &params, offset, &format, encoding)
                })
            })
            .await;
        answer.flatten().transpose().map_err(refused)
    }

    /// A snapshot of a document for a request about one place of it, `position`, with that
    /// place as a byte offset: taken under the documents' lock, which it then lets go, with
    /// the parse of the record there when it is kept (`Document::snapshot_at`). `None` when
    /// the document is not open.
    fn record_snapshot(&self, uri: &Uri, position: Position) -> Option<(Document, usize)> {
        let encoding = self.negotiated().encoding;
        self.documents.read(uri, |document| {
            let offset = from_proto::offset(document.rope(), position, encoding);
            (document.snapshot_at(offset), offset)
        })
    }

    /// Runs `work` on a snapshot from `record_snapshot` on the blocking pool, then gives the
    /// document the parses the work made (`Document::keep_parses_of`): a request about a place
    /// of a large record (a board on a line of 400 KB) holds neither the lock nor the task that
    /// serves every other request, and the next request about the record does not parse it
    /// again. `None` when the work was cancelled; its panic goes on in the handler.
    async fn on_record_snapshot<T: Send + 'static>(
        &self,
        uri: &Uri,
        document: Document,
        work: impl FnOnce(&Document) -> T + Send + 'static,
    ) -> Option<T> {
        let worked = tokio::task::spawn_blocking(move || {
            let found = work(&document);
            (found, document)
        });
        let (found, document) = panics::resume(worked.await)?;
        self.documents.keep_parses(uri, &document);
        Some(found)
    }
}

/// A refusal of the protocol layer as tower-lsp writes it.
fn refused(error: ResponseError) -> Error {
    Error { code: ErrorCode::from(error.code), message: error.message.into(), data: None }
}

/// Hands the memory the allocator keeps free back to the system (see `memory`), on the blocking
/// pool: it walks every pool of the allocator.
async fn give_back_freed() {
    let _ = tokio::task::spawn_blocking(memory::give_back_freed).await;
}
