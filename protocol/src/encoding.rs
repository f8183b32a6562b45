//! What the server and the client agree on at `initialize`: how positions' columns are
//! counted (`PositionEncoding`), whether diagnostics are pulled or pushed, and what the client
//! shows, which says what to derive as documents are read (`Negotiated`).

use lsp_types::{ClientCapabilities, MarkupKind, PositionEncodingKind, SemanticTokensFullOptions};

use ctlpgn_core::document::Prepare;
use ctlpgn_core::ide;
use ctlpgn_core::text::columns::Columns;

/// How columns are counted, as negotiated at `initialize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionEncoding {
    /// Columns in bytes, when the client offers `utf-8`.
    Utf8,
    /// Columns in UTF-16 code units: the protocol's default, which every client supports.
    #[default]
    Utf16,
}

impl PositionEncoding {
    /// How the core counts columns in this encoding.
    pub fn columns(self) -> Columns {
        match self {
            PositionEncoding::Utf8 => Columns::Utf8,
            PositionEncoding::Utf16 => Columns::Utf16,
        }
    }

    /// The encoding's protocol name.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

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
    /// Whether completion items may be snippets with placeholders.
    pub snippets: bool,
    /// Whether the client answers `workspace/configuration`.
    pub configuration: bool,
    /// Whether the client resolves a code action's edit (`codeAction/resolve`), so that the
    /// costly actions can be made only when picked.
    pub resolve_edits: bool,
    /// Whether the client asks for a document's semantic tokens, whole or by range: it then
    /// asks as soon as a document is open, and the tokens are classified as the document is
    /// read (see `ide::semantic::prepare`).
    pub semantic_tokens: bool,
    /// Whether the client folds: VS Code asks for a document's folds as it opens it (see
    /// `ide::folding::prepare`).
    pub folding: bool,
    /// Whether the client pulls the diagnostics of the workspace's files
    /// (`workspace/diagnostic`): it declares `workspace.diagnostics`. A client that pulls a
    /// document's diagnostics only (Neovim) is pushed those of the files it has not opened.
    pub workspace_pull: bool,
    /// Whether the client can be asked to pull every diagnostic again
    /// (`workspace/diagnostic/refresh`), after a record file changed on disk or the settings
    /// changed what is reported.
    pub diagnostic_refresh: bool,
    /// Whether the client watches files for the server when asked to
    /// (`workspace/didChangeWatchedFiles` registered dynamically).
    pub watch_files: bool,
    /// Whether the client shows outlines: VS Code asks for one as it opens a document (see
    /// `ide::outline::prepare`).
    pub symbols: bool,
}

impl Negotiated {
    /// Reads the client's capabilities: UTF-8 positions when the client offers them (no
    /// conversion of columns then), UTF-16 otherwise, as the protocol requires.
    /// `workspace_diagnostics` is the client's `workspace.diagnostics` as sent (see
    /// `sent_capabilities`): `None` when not declared, else its `refreshSupport`.
    pub fn from_client(
        client: &ClientCapabilities,
        workspace_diagnostics: Option<bool>,
    ) -> Negotiated {
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
        let snippets = text_document
            .and_then(|text| text.completion.as_ref())
            .and_then(|completion| completion.completion_item.as_ref())
            .and_then(|item| item.snippet_support)
            .unwrap_or(false);
        let configuration = client
            .workspace
            .as_ref()
            .and_then(|workspace| workspace.configuration)
            .unwrap_or(false);
        let resolve_edits = text_document
            .and_then(|text| text.code_action.as_ref())
            .and_then(|code_action| code_action.resolve_support.as_ref())
            .is_some_and(|support| support.properties.iter().any(|property| property == "edit"));
        let semantic_tokens =
            text_document.and_then(|text| text.semantic_tokens.as_ref()).is_some_and(|tokens| {
                let full = !matches!(
                    tokens.requests.full,
                    None | Some(SemanticTokensFullOptions::Bool(false))
                );
                full || tokens.requests.range == Some(true)
            });
        let folding = text_document.is_some_and(|text| text.folding_range.is_some());
        let workspace = client.workspace.as_ref();
        // lsp-types' own reading (`workspace.diagnostic`), for a client that spells it so.
        let misspelt = workspace.and_then(|workspace| workspace.diagnostic.as_ref());
        let declared = workspace_diagnostics
            .or_else(|| misspelt.map(|declared| declared.refresh_support.unwrap_or(false)));
        let workspace_pull = pull_diagnostics && declared.is_some();
        let diagnostic_refresh = declared.unwrap_or(false);
        let watch_files = workspace
            .and_then(|workspace| workspace.did_change_watched_files.as_ref())
            .and_then(|watched| watched.dynamic_registration)
            .unwrap_or(false);
        let symbols = text_document.is_some_and(|text| text.document_symbol.is_some());
        Negotiated {
            configuration,
            semantic_tokens,
            folding,
            symbols,
            workspace_pull,
            diagnostic_refresh,
            watch_files,
            resolve_edits,
            snippets,
            encoding: if offers_utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 },
            pull_diagnostics,
            markdown_hover,
        }
    }

    /// What is derived from each record as a document is read, for what the client will ask
    /// of the whole document as soon as it is open.
    pub fn preparations(&self) -> Vec<Prepare> {
        let asked: [(bool, Prepare); 3] = [
            (self.semantic_tokens, ide::semantic::prepare),
            (self.folding, ide::folding::prepare),
            (self.symbols, ide::outline::prepare),
        ];
        asked.into_iter().filter_map(|(asked, prepare)| asked.then_some(prepare)).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn negotiated(capabilities: serde_json::Value) -> Negotiated {
        Negotiated::from_client(&serde_json::from_value(capabilities).expect("capabilities"), None)
    }

    /// A client that asks for semantic tokens has them classified as documents are read.
    #[test]
    fn semantic_tokens_are_prepared_for_the_clients_that_ask_for_them() {
        let tokens = |requests: serde_json::Value| {
            json!({"textDocument": {"semanticTokens": {
                "requests": requests, "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"]
            }}})
        };
        // VS Code, Neovim, a client asking by range only.
        for asks in [
            json!({"full": {"delta": true}, "range": true}),
            json!({"full": {"delta": true}, "range": false}),
            json!({"full": true}),
            json!({"range": true}),
        ] {
            assert!(negotiated(tokens(asks.clone())).semantic_tokens, "{asks}");
        }
        for asks_not in [json!({}), json!({"full": false, "range": false})] {
            assert!(!negotiated(tokens(asks_not.clone())).semantic_tokens, "{asks_not}");
        }
        assert!(!negotiated(json!({})).semantic_tokens);
    }

    /// What a client folds, outlines and colours is derived as each document is read.
    #[test]
    fn the_preparations_follow_what_the_client_shows() {
        assert!(negotiated(json!({})).preparations().is_empty());
        let folding_and_outline =
            json!({"textDocument": {"foldingRange": {}, "documentSymbol": {}}});
        let negotiated = negotiated(folding_and_outline);
        assert!(negotiated.folding && negotiated.symbols && !negotiated.semantic_tokens);
        assert_eq!(negotiated.preparations().len(), 2);
    }
}
