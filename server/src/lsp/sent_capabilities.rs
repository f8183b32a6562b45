//! What a client's `initialize` declares that lsp-types cannot read: the capability the
//! protocol names `workspace.diagnostics` (whether the client pulls the workspace's
//! diagnostics and can be asked to pull them again), which lsp-types 0.97 reads under
//! `workspace.diagnostic`. The transport shows this the messages as sent until the
//! `initialize` request has been read.

use std::sync::OnceLock;

use serde_json::Value;

/// The largest message read for it: an `initialize` request is a few kilobytes.
const LARGEST_READ: usize = 1 << 20;

/// What the client sent at `initialize`, as far as lsp-types leaves it out.
#[derive(Debug, Default)]
pub struct SentCapabilities {
    /// `None` inside: the client does not declare `workspace.diagnostics`; else its
    /// `refreshSupport`.
    workspace_diagnostics: OnceLock<Option<bool>>,
}

impl SentCapabilities {
    /// Reads `body` when it is the session's `initialize` request; any other body, and any
    /// body once the request was read, is left alone.
    pub fn read(&self, body: &[u8]) {
        if self.workspace_diagnostics.get().is_some() || body.len() > LARGEST_READ {
            return;
        }
        let Ok(message) = serde_json::from_slice::<Value>(body) else {
            return;
        };
        if message.get("method").and_then(Value::as_str) != Some("initialize") {
            return;
        }
        let declared = message.pointer("/params/capabilities/workspace/diagnostics");
        let refresh = |declared: &Value| {
            declared.get("refreshSupport").and_then(Value::as_bool).unwrap_or(false)
        };
        let _ = self.workspace_diagnostics.set(declared.filter(|d| d.is_object()).map(refresh));
    }

    /// Whether the client declared `workspace.diagnostics`, and if so whether it can be asked
    /// to pull again.
    pub fn workspace_diagnostics(&self) -> Option<bool> {
        self.workspace_diagnostics.get().copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_diagnostics_capability_is_read_from_the_initialize_request_only() {
        let sent = SentCapabilities::default();
        sent.read(br#"{"jsonrpc":"2.0","method":"initialized","params":{"capabilities":{"workspace":{"diagnostics":{}}}}}"#);
        assert_eq!(sent.workspace_diagnostics(), None);
        sent.read(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"workspace":{"diagnostics":{"refreshSupport":true}}}}}"#);
        assert_eq!(sent.workspace_diagnostics(), Some(true));
        let neovim = SentCapabilities::default();
        neovim.read(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"workspace":{"configuration":true}}}}"#);
        assert_eq!(neovim.workspace_diagnostics(), None);
        neovim.read(br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{"workspace":{"diagnostics":{}}}}}"#);
        assert_eq!(neovim.workspace_diagnostics(), None, "the first initialize only");
        let without_refresh = SentCapabilities::default();
        without_refresh.read(br#"{"params":{"capabilities":{"workspace":{"diagnostics":{}}}},"method":"initialize","id":1,"jsonrpc":"2.0"}"#);
        assert_eq!(without_refresh.workspace_diagnostics(), Some(false));
    }
}
