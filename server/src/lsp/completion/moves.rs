//! Completion in the movetext: the pieces of the side to move, each as it starts a half-move
//! (its identifier and origin hex, `JF6`; a pawn by its hex alone, `E7`), with the piece and
//! the hex in words.

use std::cmp::Reverse;

use super::{word_start, Suggestion, SuggestionKind};
use crate::analysis::{standing_at, RecordAnalysis};
use crate::pieces::PieceKind;
use crate::syntax::RecordSyntax;

/// The pieces of the side to move at `offset`; nothing when the position there is not known
/// (a half-move before it could not be replayed).
pub fn complete(text: &str, syntax: &RecordSyntax, analysis: &RecordAnalysis, offset: usize) -> Vec<Suggestion> {
    let standing = standing_at(&syntax.items, offset, analysis);
    let Some(position) = standing.position(analysis).filter(|_| standing.complete) else { return Vec::new() };
    let replace = word_start(text, offset, &[])..offset;
    let ids = &analysis.identifiers;
    let side = position.turn;
    let mut pieces: Vec<_> = position.pieces().filter(|(_, piece)| piece.side == side).collect();
    // The strongest pieces first (`ALL` runs from the pawn up), then by column and line.
    pieces.sort_by_key(|(hex, piece)| (Reverse(PieceKind::ALL.iter().position(|kind| *kind == piece.kind)), hex.column(), hex.line()));
    pieces
        .into_iter()
        .map(|(hex, piece)| {
            let label = match piece.kind {
                PieceKind::Pawn => hex.to_string(),
                kind => format!("{}{hex}", ids.move_identifier(kind)),
            };
            let detail = format!("{} {} on {hex}", side.name(), piece.kind.name());
            Suggestion::plain(label, SuggestionKind::Piece, detail, replace.clone())
        })
        .collect()
}
