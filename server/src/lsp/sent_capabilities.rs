//! The client's capabilities as it sent them in `initialize`, for the protocol layer's
//! negotiation (`Negotiated::from_capabilities`), which reads a few fields by name from the
//! JSON: lsp-types reads the capability the protocol names `workspace.diagnostics` under
//! `workspace.diagnostic`, so the values tower-lsp hands the handler lack it. The transport
//! shows this the messages as sent until the `initialize` request has been read.

use std::sync::OnceLock;

use serde_json::Value;

/// The largest message read for it: an `initialize` request is a few kilobytes.
const LARGEST_READ: usize = 1 << 20;

/// What the client sent at `initialize`: its `capabilities`, once read.
#[derive(Debug, Default)]
pub struct SentCapabilities {
    capabilities: OnceLock<Value>,
}

impl SentCapabilities {
    /// Reads `body` when it is the session's `initialize` request; any other body, and any
    /// body once the request was read, is left alone.
    pub fn read(&self, body: &[u8]) {
        if self.capabilities.get().is_some() || body.len() > LARGEST_READ {
            return;
        }
        let Ok(mut message) = serde_json::from_slice::<Value>(body) else {
            return;
        };
        if message.get("method").and_then(Value::as_str) != Some("initialize") {
            return;
        }
        let capabilities = message.pointer_mut("/params/capabilities").map(Value::take);
        let _ = self.capabilities.set(capabilities.unwrap_or(Value::Null));
    }

    /// The capabilities of the first `initialize` request, as sent; `None` when none was read
    /// (a request larger than [`LARGEST_READ`]).
    pub fn capabilities(&self) -> Option<&Value> {
        self.capabilities.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostics(sent: &SentCapabilities) -> Option<&Value> {
        sent.capabilities().and_then(|sent| sent.pointer("/workspace/diagnostics"))
    }

    #[test]
    fn the_capabilities_are_read_from_the_first_initialize_request_only() {
        let sent = SentCapabilities::default();
        sent.read(br#"{"jsonrpc":"2.0","method":"initialized","params":{"capabilities":{"workspace":{"diagnostics":{}}}}}"#);
        assert_eq!(sent.capabilities(), None);
        sent.read(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"workspace":{"diagnostics":{"refreshSupport":true}}}}}"#);
        assert_eq!(diagnostics(&sent), Some(&serde_json::json!({"refreshSupport": true})));
        let neovim = SentCapabilities::default();
        neovim.read(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"workspace":{"configuration":true}}}}"#);
        neovim.read(br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{"workspace":{"diagnostics":{}}}}}"#);
        assert_eq!(diagnostics(&neovim), None, "the first initialize only");
        assert_eq!(
            neovim.capabilities().and_then(|sent| sent.pointer("/workspace/configuration")),
            Some(&Value::Bool(true))
        );
    }
}
