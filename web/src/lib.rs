//! `ctlpgn-web`: the core in the browser. A [`Session`] holds open documents and answers
//! JSON requests about them (open, change, diagnostics, hover, completion, the board at a
//! place, the lines of play of a record, play, format), with places as a browser counts them:
//! 0-based lines and columns in UTF-16 code units. It only decodes, calls the core's `ide`
//! layer and encodes, as the language server does; `exports` hands it to JavaScript in the
//! wasm32 build.
//!
//! A request is `{"method": "...", "params": {...}}`; the answer is `{"result": ...}` or
//! `{"error": {"message": "..."}}`. docs/web.md lists the methods.

mod encode;
#[cfg(target_arch = "wasm32")]
mod exports;
mod requests;
mod session;

pub use session::Session;
