//! `ctlpgn`: the edges of the CTL-PGN language server and toolkit, on the pure core
//! (`ctlpgn_core`):
//! * `lsp`: the language server, which decodes, calls the core's `ide` and encodes;
//! * `cli`: the command line, which prints the core's results;
//! * `walk`: the record files under a folder, found as ripgrep finds files, for both.
//!
//! The core does no IO and names no protocol crate; these two do both, and nothing else.

pub mod cli;
pub mod lsp;
mod walk;
