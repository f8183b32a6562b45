//! The protocol handlers, all in one `LanguageServer` impl: each decodes its parameters, asks
//! the open documents and the core, and encodes the answer.
//!
//! tower-lsp runs up to four handlers at once, in the order their messages arrived as far as
//! their first poll goes. So every change is applied before the handler's first `.await`, under
//! the documents' lock; only publishing awaits. Requests about documents that are not open get
//! empty answers, never errors that would make an editor complain.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentDiagnosticParams,
    DocumentFormattingParams, DocumentRangeFormattingParams, GotoDefinitionParams, GotoDefinitionResponse, Location,
    ReferenceParams, TextEdit,
    DocumentDiagnosticReport, DocumentDiagnosticReportResult, DocumentSymbolParams, DocumentSymbolResponse,
    FoldingRange, FoldingRangeParams, FullDocumentDiagnosticReport, Hover, HoverContents, HoverParams, InitializeParams,
    InitializeResult, MarkupContent, MarkupKind, RelatedFullDocumentDiagnosticReport, ServerInfo, Uri,
};
use tower_lsp_server::{Client, LanguageServer};

use super::capabilities::Negotiated;
use super::convert;
use super::diagnostics;
use super::documents::Documents;
use super::formatting;
use super::hover;
use super::navigation;
use super::structure;

/// The language server's state.
#[derive(Debug)]
pub struct Server {
    client: Client,
    documents: Documents,
    /// Set once by `initialize`; the defaults (UTF-16, pushed diagnostics) apply before it.
    negotiated: OnceLock<Negotiated>,
    /// Held while deciding whether to publish and publishing, so that a result overtaken by a
    /// newer version is dropped instead of being sent after the newer one.
    publishing: tokio::sync::Mutex<()>,
    /// Set by `shutdown`, for the exit status (LSP: 0 after a shutdown, 1 otherwise).
    shut_down: Arc<AtomicBool>,
}

impl Server {
    pub fn new(client: Client, shut_down: Arc<AtomicBool>) -> Server {
        Server {
            client,
            documents: Documents::default(),
            negotiated: OnceLock::new(),
            publishing: tokio::sync::Mutex::new(()),
            shut_down,
        }
    }

    fn negotiated(&self) -> Negotiated {
        self.negotiated.get().copied().unwrap_or_default()
    }

    /// Pushes the diagnostics of `version` of a document, unless the client pulls them, the
    /// document was closed, or a newer version has overtaken this one (its own handler will
    /// publish it).
    async fn publish(&self, uri: Uri, version: i32) {
        let negotiated = self.negotiated();
        if negotiated.pull_diagnostics {
            return;
        }
        let _publishing = self.publishing.lock().await;
        let current = self.documents.read(&uri, |document| {
            (document.version() == version).then(|| diagnostics::of_document(document, negotiated.encoding))
        });
        if let Some(Some(found)) = current {
            self.client.publish_diagnostics(uri, found, Some(version)).await;
        }
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let negotiated = *self.negotiated.get_or_init(|| Negotiated::from_client(&params.capabilities));
        Ok(InitializeResult {
            capabilities: negotiated.server_capabilities(),
            server_info: Some(ServerInfo { name: "ctlpgn".to_string(), version: Some(env!("CARGO_PKG_VERSION").to_string()) }),
        })
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.documents.open(document.uri.clone(), &document.text, document.version);
        self.publish(document.uri, document.version).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let (uri, version) = (params.text_document.uri, params.text_document.version);
        if self.documents.change(&uri, version, &params.content_changes, self.negotiated().encoding) {
            self.publish(uri, version).await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        if self.documents.close(&uri) && !self.negotiated().pull_diagnostics {
            let _publishing = self.publishing.lock().await;
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        let encoding = self.negotiated().encoding;
        let items = self.documents.read(&params.text_document.uri, |document| diagnostics::of_document(document, encoding));
        let report = FullDocumentDiagnosticReport { result_id: None, items: items.unwrap_or_default() };
        Ok(DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport { related_documents: None, full_document_diagnostic_report: report }).into())
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let negotiated = self.negotiated();
        let found = self.documents.read(&at.text_document.uri, |document| {
            let offset = convert::offset(document.rope(), at.position, negotiated.encoding);
            let record = document.record_at(offset)?;
            let state = &record.state;
            let found = hover::hover(&state.text, &state.syntax, &state.analysis, offset - record.range.start)?;
            let range = convert::range(document.rope(), record.in_document(found.range), negotiated.encoding);
            let kind = if negotiated.markdown_hover { MarkupKind::Markdown } else { MarkupKind::PlainText };
            Some(Hover { contents: HoverContents::Markup(MarkupContent { kind, value: found.markdown }), range: Some(range) })
        });
        Ok(found.flatten())
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        Ok(self.documents.read(&params.text_document.uri, structure::folding_ranges))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let encoding = self.negotiated().encoding;
        let symbols = self.documents.read(&params.text_document.uri, |document| structure::document_symbols(document, encoding));
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let encoding = self.negotiated().encoding;
        Ok(self.documents.read(&params.text_document.uri, |document| formatting::edits(document, None, encoding)))
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let encoding = self.negotiated().encoding;
        let range = params.range;
        Ok(self.documents.read(&params.text_document.uri, |document| formatting::edits(document, Some(range), encoding)))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        let encoding = self.negotiated().encoding;
        let uri = at.text_document.uri;
        let found = self.documents.read(&uri, |document| navigation::definition(document, at.position, &uri, encoding));
        Ok(found.flatten().map(GotoDefinitionResponse::Scalar))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let encoding = self.negotiated().encoding;
        let uri = at.text_document.uri;
        let include_target = params.context.include_declaration;
        Ok(self.documents.read(&uri, |document| navigation::references(document, at.position, &uri, encoding, include_target)))
    }
}
