//! Texts too large for tower-lsp's JSON values, which the transport reads itself: the text of
//! a document the client opens.
//!
//! tower-lsp reads every message into a `serde_json::Value`, then into the handler's
//! parameters, after the transport has checked it: a 2 MB document's `didOpen` was read three
//! times, and the two readings in tower-lsp cost about a sixth of opening the file. The
//! transport now reads a `didOpen` once, into its parameters, keeps the text here under a key,
//! and passes tower-lsp the notification without its text, under a `$/` method of our own that
//! no client's message reaches (`transport` drops a client's `$/ctlpgn/` notifications); the
//! handler takes the text back by its key. The notification keeps everything tower-lsp gives
//! it, its place in the order of the messages first.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use tower_lsp_server::jsonrpc::Request;
use tower_lsp_server::lsp_types::DidOpenTextDocumentParams;

use super::raw_answers::Diverted;

/// The notification whose text is kept here.
pub const DID_OPEN: &str = "textDocument/didOpen";
/// The method `DID_OPEN` is passed to tower-lsp under.
pub const DIVERTED_DID_OPEN: &str = "$/ctlpgn/didOpen";

/// The texts of the diverted notifications of one session, from their diversion to their
/// handler.
#[derive(Debug, Default)]
pub struct RawTexts {
    last_key: AtomicU64,
    texts: Mutex<BTreeMap<u64, String>>,
}

impl RawTexts {
    /// The message to pass tower-lsp for a `didOpen` with `params`: the same parameters with
    /// an empty text, and the key the text is kept under.
    pub fn divert(&self, mut params: DidOpenTextDocumentParams) -> Request {
        let text = std::mem::take(&mut params.text_document.text);
        let key = self.last_key.fetch_add(1, Ordering::Relaxed) + 1;
        lock(&self.texts).insert(key, text);
        let params = serde_json::to_value(Diverted { key, params }).unwrap_or_default();
        Request::build(DIVERTED_DID_OPEN).params(params).finish()
    }

    /// The parameters of a diverted `didOpen` with their text put back; `None` when no text is
    /// kept under the key. tower-lsp starts the handlers of notifications in the order they
    /// came (the documents' changes rely on it too), so the texts kept under earlier keys
    /// belong to notifications it dropped (sent before `initialize`), and are dropped as well.
    pub fn take(
        &self,
        diverted: Diverted<DidOpenTextDocumentParams>,
    ) -> Option<DidOpenTextDocumentParams> {
        let mut texts = lock(&self.texts);
        let text = texts.remove(&diverted.key);
        *texts = texts.split_off(&diverted.key);
        let mut params = diverted.params;
        params.text_document.text = text?;
        Some(params)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn opening(uri: &str, text: &str) -> DidOpenTextDocumentParams {
        serde_json::from_value(json!({"textDocument": {
            "uri": uri, "languageId": "ctl-pgn", "version": 3, "text": text
        }}))
        .expect("didOpen parameters")
    }

    /// The parameters tower-lsp hands the handler of a diverted message.
    fn handed(request: Request) -> Diverted<DidOpenTextDocumentParams> {
        assert_eq!(request.method(), DIVERTED_DID_OPEN);
        assert_eq!(request.id(), None, "a notification");
        let (_, _, params) = request.into_parts();
        serde_json::from_value(params.expect("params")).expect("diverted parameters")
    }

    #[test]
    fn a_diverted_text_comes_back_to_its_handler_and_only_the_key_goes_through_tower_lsp() {
        let texts = RawTexts::default();
        let text = "[Variant \"C'escacs\"]\n1. E7\u{2010}E13 \u{d7} \u{1FA50} Núria";
        let diverted = handed(texts.divert(opening("file:///a.ctl-pgn", text)));
        assert_eq!(diverted.params.text_document.text, "");
        assert_eq!(texts.take(diverted), Some(opening("file:///a.ctl-pgn", text)));
        assert!(lock(&texts.texts).is_empty());
    }

    #[test]
    fn texts_whose_notification_tower_lsp_dropped_are_dropped_at_the_next_one() {
        let texts = RawTexts::default();
        let dropped = handed(texts.divert(opening("file:///a.ctl-pgn", "a")));
        let first = handed(texts.divert(opening("file:///b.ctl-pgn", "b")));
        let second = handed(texts.divert(opening("file:///c.ctl-pgn", "c")));
        assert_eq!(texts.take(first).expect("kept").text_document.text, "b");
        assert_eq!(lock(&texts.texts).keys().copied().collect::<Vec<_>>(), [second.key]);
        assert_eq!(texts.take(dropped), None);
        assert_eq!(texts.take(second).expect("kept").text_document.text, "c");
    }
}
