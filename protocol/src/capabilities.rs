//! The capabilities the server announces at `initialize`, after what it and the client agreed
//! on (`encoding::Negotiated`).

use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DiagnosticOptions, DiagnosticServerCapabilities, ExecuteCommandOptions,
    FoldingRangeProviderCapability, HoverProviderCapability, OneOf, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};

use super::code_actions;
use super::commands;
use super::encoding::Negotiated;
use super::semantic_tokens;

/// The capabilities announced in the `initialize` result.
pub fn server_capabilities(negotiated: &Negotiated) -> ServerCapabilities {
    let sync = TextDocumentSyncOptions {
        open_close: Some(true),
        change: Some(TextDocumentSyncKind::INCREMENTAL),
        ..TextDocumentSyncOptions::default()
    };
    let diagnostics = DiagnosticOptions {
        identifier: Some("ctlpgn".to_string()),
        inter_file_dependencies: false,
        // The record files under the workspace folders, when the user asks for them
        // (`workspace`); a client that pulls them does so whatever the setting, and is
        // answered at once.
        workspace_diagnostics: negotiated.workspace_pull,
        ..DiagnosticOptions::default()
    };
    ServerCapabilities {
        position_encoding: Some(negotiated.encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(sync)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(
                [CodeActionKind::QUICKFIX, code_actions::fix_all_kind()]
                    .into_iter()
                    .chain(code_actions::conversion_kinds())
                    .collect(),
            ),
            resolve_provider: Some(true),
            ..CodeActionOptions::default()
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![commands::POSITION_AT.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        completion_provider: Some(CompletionOptions {
            // `[` starts a tag, `"` a tag value, `#` and `@` references and markers in a
            // comment (`@` a special capture too), a space the next half-move, and a move or
            // capture separator in either spelling (`-` `‐`, `×` `*`) its destination: an
            // editor completing as the user types keeps its menu open after `JF6-`.
            trigger_characters: Some(
                ["[", "\"", "#", "@", " ", "-", "\u{2010}", "×", "*"].map(String::from).to_vec(),
            ),
            ..CompletionOptions::default()
        }),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(semantic_tokens::capability()),
        diagnostic_provider: negotiated
            .pull_diagnostics
            .then_some(DiagnosticServerCapabilities::Options(diagnostics)),
        // Folders added to or removed from the workspace change what `workspace` surveys.
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}
