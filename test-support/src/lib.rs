//! What the tests of ctlpgn share, so that each piece exists once: the in-process client of the
//! language server ([`lsp`]), the readers of the repository's test data ([`fixtures`]), the
//! diagnostics of a file and the census that judges a quick fix ([`diagnostics`]), and the
//! SVG board read back as data ([`svg`]). Used by `tests/` (`ctlpgn-tests`), `fuzz/` and the
//! unit tests of `server/`.

pub mod diagnostics;
pub mod fixtures;
pub mod lsp;
pub mod svg;
