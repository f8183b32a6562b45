//! What the server and the client agree on at `initialize`: the position encoding, whether
//! diagnostics are pulled or pushed, and the capabilities the server announces.

use tower_lsp_server::lsp_types::{
    ClientCapabilities, DiagnosticOptions, DiagnosticServerCapabilities, FoldingRangeProviderCapability,
    HoverProviderCapability, MarkupKind, OneOf, PositionEncodingKind, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
};

use super::convert::PositionEncoding;

/// The choices made from the client's capabilities; fixed for the whole session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Negotiated {
    pub encoding: PositionEncoding,
    /// Whether the client pulls diagnostics with `textDocument/diagnostic`. When it does, the
    /// server does not also push them: a client doing both would show every finding twice
    /// (ruff's server makes the same choice).
    pub pull_diagnostics: bool,
    /// Whether hovers may be Markdown; otherwise the same text is sent as plain text.
    pub markdown_hover: bool,
}

impl Negotiated {
    /// Reads the client's capabilities: UTF-8 positions when the client offers them (no
    /// conversion of columns then), UTF-16 otherwise, as the protocol requires.
    pub fn from_client(client: &ClientCapabilities) -> Negotiated {
        let offers_utf8 = client
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        let text_document = client.text_document.as_ref();
        let pull_diagnostics = text_document.is_some_and(|text| text.diagnostic.is_some());
        let markdown_hover = text_document
            .and_then(|text| text.hover.as_ref())
            .and_then(|hover| hover.content_format.as_ref())
            .is_none_or(|formats| formats.contains(&MarkupKind::Markdown));
        Negotiated {
            encoding: if offers_utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 },
            pull_diagnostics,
            markdown_hover,
        }
    }

    /// The capabilities announced in the `initialize` result.
    pub fn server_capabilities(&self) -> ServerCapabilities {
        let sync = TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            ..TextDocumentSyncOptions::default()
        };
        let diagnostics = DiagnosticOptions {
            identifier: Some("ctlpgn".to_string()),
            inter_file_dependencies: false,
            workspace_diagnostics: false,
            ..DiagnosticOptions::default()
        };
        ServerCapabilities {
            position_encoding: Some(self.encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(sync)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            diagnostic_provider: self.pull_diagnostics.then_some(DiagnosticServerCapabilities::Options(diagnostics)),
            ..ServerCapabilities::default()
        }
    }
}
