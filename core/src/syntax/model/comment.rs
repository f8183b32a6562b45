//! A comment `{ … }` and the references inside it (§12.3).

use crate::text::TextRange;

use super::Token;

/// The kinds of reference inside comments (§12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// `@W`, `@B`
    Player,
    /// `#14`, `#14@B`, `#12.2`, `#14[#12.2]@W`
    Move,
    /// `~F14`
    Hex,
    /// `~K`, `~J[d]`, `~NG25`
    Piece,
    /// `$24`
    Nag,
}

/// A reference inside a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub kind: ReferenceKind,
    pub range: TextRange,
}

/// A comment `{ … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub range: TextRange,
    pub indentation: Option<Token>,
    pub open: Token,
    pub marker: Option<Token>,
    pub references: Vec<Reference>,
    /// Whether the comment ends with its `}` (false: N003, it ran to the end of the record).
    pub closed: bool,
}
