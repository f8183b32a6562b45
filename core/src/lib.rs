//! `ctlpgn-core`: the pure core of the CTL-PGN language server and toolkit, a crate of its own
//! so that the compiler keeps it pure: it depends on no runtime, protocol or command-line crate,
//! and the language server, the command line (the `ctlpgn` crate) and the web build stand on it.
//!
//! The crate is layered so that every capability stands on one pure core:
//! * `geometry`, `pieces`, `identifiers`, `position`, `notation`, `pdtl`, `castling`, `replay`,
//!   `movement`: the chess of C'escacs, with no knowledge of text layout;
//! * `syntax`: the tree-sitter tree of one record turned into values with byte ranges;
//! * `analysis`: one record checked and replayed into diagnostics and positions;
//! * `board`: a position drawn as an SVG document or a monospace picture;
//! * `document`: a document's records kept across edits, with their parses and derived values;
//! * `ide`: the editor's features (hover, completion, navigation, the board at a place,
//!   folding, outline, semantic classification, code actions) as plain values over byte ranges;
//!
//! Invariants: the core never does IO and never names a protocol crate; every range inside is a
//! byte range of the analysed text; a parse never fails (it returns a tree and problems).

pub mod analysis;
pub mod board;
pub mod castling;
pub mod conversion;
pub mod diagnostics;
pub mod document;
pub mod format;
pub mod geometry;
pub mod ide;
pub mod identifiers;
pub mod movement;
pub mod notation;
pub mod parallel;
pub mod pdtl;
pub mod pieces;
pub mod position;
pub mod replay;
pub mod syntax;
pub mod text;

#[cfg(test)]
mod test_corpus;
