//! The editor features as plain values: hover, completion, navigation and the board at a place
//! of a document, each a function of a `RecordView` and a byte offset of the document that
//! returns byte ranges of the document. The protocol edge (`lsp`) decodes positions, calls
//! these and encodes their answers; nothing here knows the protocol.

pub mod board;
pub mod completion;
pub mod hover;
pub mod navigation;

#[cfg(test)]
mod robustness_tests;
