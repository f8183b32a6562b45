//! What the server and the client agree on at `initialize`: how positions' columns are
//! counted (`PositionEncoding`), whether diagnostics are pulled or pushed, and what the client
//! shows, which says what to derive as documents are read (`Negotiated`).

use lsp_types::PositionEncodingKind;
use serde_json::Value;

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
    /// Reads the client's capabilities as it sent them (`capabilities` of `initialize`): UTF-8
    /// positions when the client offers them (no conversion of columns then), UTF-16
    /// otherwise, as the protocol requires.
    ///
    /// They are read from the JSON, a few fields by name, not into lsp-types' values: those
    /// read `workspace.diagnostics` under another name (`workspace.diagnostic`, which a client
    /// that spells it so still gets), and decoding the whole tree of the client's capabilities
    /// made a tenth of the gzipped WebAssembly module. A field of the wrong type counts as not
    /// declared.
    pub fn from_capabilities(sent: &Value) -> Negotiated {
        let at = |pointer: &str| sent.pointer(pointer).filter(|value| !value.is_null());
        let declared = |pointer: &str| at(pointer).is_some_and(Value::is_object);
        let flag = |pointer: &str| at(pointer).and_then(Value::as_bool).unwrap_or(false);
        let lists = |pointer: &str, wanted: &str| {
            at(pointer)
                .and_then(Value::as_array)
                .is_some_and(|list| list.iter().any(|item| item == wanted))
        };
        let pull_diagnostics = declared("/textDocument/diagnostic");
        // `null` or absent: the client takes any format, Markdown first.
        let markdown_hover = match at("/textDocument/hover/contentFormat") {
            None => true,
            Some(_) => lists("/textDocument/hover/contentFormat", "markdown"),
        };
        let semantic_tokens = {
            let full = at("/textDocument/semanticTokens/requests/full")
                .is_some_and(|full| full.is_object() || full == true);
            let range = at("/textDocument/semanticTokens/requests/range")
                .is_some_and(|range| range.is_object() || range == true);
            declared("/textDocument/semanticTokens") && (full || range)
        };
        let refresh =
            |pointer: &str| declared(pointer).then(|| flag(&format!("{pointer}/refreshSupport")));
        let declared_workspace =
            refresh("/workspace/diagnostics").or_else(|| refresh("/workspace/diagnostic"));
        Negotiated {
            configuration: flag("/workspace/configuration"),
            semantic_tokens,
            folding: declared("/textDocument/foldingRange"),
            symbols: declared("/textDocument/documentSymbol"),
            workspace_pull: pull_diagnostics && declared_workspace.is_some(),
            diagnostic_refresh: declared_workspace.unwrap_or(false),
            watch_files: flag("/workspace/didChangeWatchedFiles/dynamicRegistration"),
            resolve_edits: lists("/textDocument/codeAction/resolveSupport/properties", "edit"),
            snippets: flag("/textDocument/completion/completionItem/snippetSupport"),
            encoding: if lists("/general/positionEncodings", "utf-8") {
                PositionEncoding::Utf8
            } else {
                PositionEncoding::Utf16
            },
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
        Negotiated::from_capabilities(&capabilities)
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

#[cfg(test)]
mod recorded {
    use super::*;
    use ctlpgn_test_support::fixtures::recorded_initialize;

    /// What each editor's recorded `initialize` negotiates, field by field: VS Code pulls the
    /// workspace's diagnostics (`workspace.diagnostics`, which lsp-types would not read) and can
    /// be asked to pull again; Neovim 0.11 pulls a document's; Neovim 0.7 and eglot are pushed
    /// theirs; only eglot takes plain-text hovers and none offers UTF-8 but Neovim 0.11.
    #[test]
    fn each_editors_capabilities_negotiate_what_it_supports() {
        let read = |name: &str| {
            let sent = recorded_initialize(name);
            let n = Negotiated::from_capabilities(&sent["params"]["capabilities"]);
            [
                n.configuration,
                n.semantic_tokens,
                n.folding,
                n.symbols,
                n.workspace_pull,
                n.diagnostic_refresh,
                n.watch_files,
                n.resolve_edits,
                n.snippets,
                n.encoding == PositionEncoding::Utf8,
                n.pull_diagnostics,
                n.markdown_hover,
            ]
        };
        // configuration, semantic tokens, folding, symbols, workspace pull, refresh, watched
        // files, resolved edits, snippets, UTF-8, pulled diagnostics, Markdown hovers.
        let (t, f) = (true, false);
        assert_eq!(read("vscode.json"), [t, t, t, t, t, t, t, t, t, f, t, t]);
        assert_eq!(read("neovim-0.11.json"), [t, t, t, t, f, f, f, t, t, t, t, t]);
        assert_eq!(read("neovim-0.7.json"), [f, f, f, t, f, f, f, t, f, f, f, t]);
        assert_eq!(read("eglot.json"), [t, f, f, t, f, f, t, f, f, f, f, f]);
    }
}
