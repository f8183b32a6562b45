//! The language server: LSP over stdio on tower-lsp-server; decodes requests, calls the core, encodes results.
