//! The Language Server Protocol layer of ctlpgn: what was negotiated with the client, the
//! settings, the open documents and the answers to the requests, as plain functions over
//! `lsp-types` values and the core's `ide` layer. No IO, no runtime, no clock: the transports
//! (the native server's stdio in the `ctlpgn` crate, a worker in the browser) feed it messages
//! and send what it answers.
//!
//! The core works in bytes; `encoding` holds what was negotiated at `initialize`, and
//! `from_proto` and `to_proto` turn positions in the negotiated encoding into bytes and back,
//! and the `ide` layer's values into the protocol's; `documents` keeps the open documents
//! (`ctlpgn_core::document`) by URI and applies the client's changes.

pub mod board;
pub mod by_name;
pub mod capabilities;
pub mod code_actions;
pub mod commands;
pub mod completion;
pub mod context;
pub mod diagnostics;
pub mod documents;
pub mod encoding;
pub mod error;
pub mod formatting;
pub mod from_proto;
pub mod hover;
pub mod lines;
pub mod navigation;
pub mod play;
pub mod semantic_tokens;
pub mod session;
pub mod settings;
pub mod structure;
pub mod to_proto;

pub use lsp_types;
