//! Comment layout and markers (§12.1-§12.2, N001-N009) and the references inside comments resolved to the moves and variations they name (§12.3, N010-N019).
//!
//! [`check_comments`] takes every item of a record. The comments before the first move line,
//! variation or result are start comments, those after the result line final comments; the
//! others belong to the line of play (main line or variation) among whose items they stand.
//! Layout and markers are judged line of play by line of play (`layout`), each reference is
//! read on its own (`references`), and move references are resolved in the history of their
//! comment (`resolve`). Every reference that resolves is returned with its target, for
//! go-to-definition and hovers.

mod layout;
mod references;
mod resolve;

use crate::analysis::line_of_play::PlayTree;
use crate::diagnostics::{Code, Diagnostic, Findings};
use crate::identifiers::IdentifierSet;
use crate::pieces::Side;
use crate::syntax::{RecordSyntax, Reference, ReferenceKind};
use crate::text::TextRange;

/// A move reference of a comment and what it designates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedReference {
    /// The reference, from its `#` to its end.
    pub range: TextRange,
    pub target: ReferenceTarget,
}

/// What a move reference designates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceTarget {
    /// A half-move: `#14@B`, `#7[#5.2]@W`, or `#N` when move line `N` holds one half-move
    /// (`5. …, EF20×F16`, or a line ending on White's half-move).
    HalfMove {
        /// The half-move token, from its first character to the end of its annotations.
        range: TextRange,
        side: Side,
        number: u32,
    },
    /// A full move `#14` whose move line holds both half-moves.
    MoveLine {
        /// From the move number to the end of Black's half-move.
        range: TextRange,
        number: u32,
    },
    /// A whole labelled variation `#12.2`.
    Variation {
        /// From `(` to `)` (or to the end of a variation never closed).
        range: TextRange,
        /// The number of the move line the variation is attached to.
        number: u32,
        label: u32,
    },
}

/// Checks the comments of a record (all its items, tags included) and resolves their move
/// references.
pub fn check_comments(
    text: &str,
    syntax: &RecordSyntax,
    ids: &IdentifierSet,
    diagnostics: &mut Findings,
) -> Vec<ResolvedReference> {
    check_comments_in(text, syntax, &PlayTree::build(text, syntax), ids, diagnostics)
}

/// [`check_comments`] with the record's tree of the lines of play, which the analysis builds
/// once for the movetext walk and the references.
pub(crate) fn check_comments_in(
    text: &str,
    syntax: &RecordSyntax,
    tree: &PlayTree<'_>,
    ids: &IdentifierSet,
    diagnostics: &mut Findings,
) -> Vec<ResolvedReference> {
    layout::check_layout(text, syntax, &syntax.items, diagnostics);
    let mut resolved = Vec::new();
    for site in &tree.sites {
        for reference in &site.comment.references {
            let range = reference.range;
            match references::read(text, reference, ids) {
                references::ReferenceReading::Fine => {}
                references::ReferenceReading::Problem(code, message) => {
                    diagnostics.push(Diagnostic::new(code, range, message))
                }
                references::ReferenceReading::Move(written) => match tree.resolve(site, &written) {
                    Ok(resolution) => {
                        if let Some(message) = resolution.inside {
                            diagnostics.push(Diagnostic::new(Code::N018, range, message));
                        }
                        resolved.push(ResolvedReference { range, target: resolution.target });
                    }
                    Err((code, message)) => diagnostics.push(Diagnostic::new(code, range, message)),
                },
            }
        }
    }
    resolved
}

/// Whether a `~` reference (a hex, a piece, a piece on a hex) reads as valid with the
/// identifiers `ids`: no N010, N011 or N012. Conversions rewrite only these, and refuse to
/// make an invalid one valid. `false` for the other kinds of reference.
pub fn is_valid_tilde_reference(text: &str, reference: &Reference, ids: &IdentifierSet) -> bool {
    matches!(reference.kind, ReferenceKind::Hex | ReferenceKind::Piece)
        && matches!(references::read(text, reference, ids), references::ReferenceReading::Fine)
}
