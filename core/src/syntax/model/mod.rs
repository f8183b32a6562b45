//! The syntax model: a record as plain values with byte ranges into its text (tags, move
//! lines, comments, variations, results). Both readings fill it: the hand-written reader
//! (`super::reader`) and the lowering of tree-sitter's tree (`super::lower`); the analysis,
//! the formatter and the editor features read only these values.

mod comment;
mod item;
mod move_line;
mod record;
mod tag;
mod token;
mod written_apart;

pub use comment::{Comment, Reference, ReferenceKind};
pub use item::{movetext_start, Item, Variation};
pub use move_line::{HalfMoveText, MoveLine, SpareHalfMoves};
pub use record::{RecordSyntax, Step, Walk};
pub use tag::Tag;
pub use token::Token;
pub use written_apart::Gap;
