//! What the tests of ctlpgn share, so that each piece exists once. The fixture harness: cursor
//! markers in fixture text ([`cursor`]), diagnostics rendered under the lines they point at
//! ([`annotations`]), expected files with a bless mode ([`expect`]), and the readers of the
//! repository's test data ([`fixtures`]). A client's model of the server's positions
//! ([`positions`]); the diagnostics of a file
//! and the census that judges a quick fix ([`diagnostics`]); the SVG board read back as data
//! ([`svg`]); hover Markdown read back for live markup ([`markdown`]); the seeded generator
//! ([`rng`]). Used by `tests/` (`ctlpgn-tests`), `fuzz/`, and
//! the tests and benchmarks of `server/`.
//!
//! The arrows point one way: the crates that test depend on this one, which depends on the
//! core alone; the in-process client of the language server, which needs the server and
//! tokio, is a crate of its own (`ctlpgn-test-client`), so that the core's tests build without
//! them. The fuzzer is such a crate, so its generator and its model of positions live
//! here for the tests and benchmarks to share rather than the other way round.

pub mod annotations;
pub mod cursor;
pub mod diagnostics;
pub mod expect;
pub mod fixtures;
pub mod markdown;
pub mod positions;
pub mod rng;
pub mod svg;
