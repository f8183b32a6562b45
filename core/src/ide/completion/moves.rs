//! Completion in the movetext: the pieces of the side to move, each as it starts a half-move
//! (its identifier and origin hex, `JF6`; a pawn by its hex alone, `E7`), then every legal
//! half-move of that side written out (`JF6-C15`, `E13×NF16`, `A21-A23=D+∞`, `KRK-HIO`) with
//! the check it gives, so that typing `JF6-` leaves that Bishop's moves to choose from.

use std::cmp::Reverse;

use super::{word_start, CompletionItem, CompletionKind};
use crate::analysis::{standing_at, RecordAnalysis};
use crate::notation::{Check, Move, Spelling};
use crate::pieces::PieceKind;
use crate::replay::legal_moves;
use crate::syntax::RecordSyntax;
use crate::text::TextRange;

/// The characters of a half-move besides letters, digits and figurines: what an item
/// replaces runs back over them to the start of the half-move being typed.
const MOVE_CHARACTERS: [char; 11] =
    ['-', '\u{2010}', '\u{D7}', '*', '@', '=', '&', '+', '^', '#', '\u{221E}'];

/// The pieces and the legal half-moves of the side to move at `offset`; nothing when the
/// position there is not known (a half-move before it could not be replayed).
pub fn complete(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    offset: usize,
) -> Vec<CompletionItem> {
    let standing = standing_at(text, syntax, offset, analysis);
    let Some(position) = standing.position(analysis).filter(|_| standing.complete) else {
        return Vec::new();
    };
    let replace = TextRange::new(word_start(text, offset, &MOVE_CHARACTERS), offset);
    let ids = &analysis.identifiers;
    let side = position.turn;
    // The strongest pieces first (`ALL` runs from the pawn up), then by column and line.
    let strength =
        |kind: PieceKind| Reverse(PieceKind::ALL.iter().position(|&other| other == kind));
    let mut pieces: Vec<_> = position.pieces().filter(|(_, piece)| piece.side == side).collect();
    pieces.sort_by_key(|(hex, piece)| (strength(piece.kind), hex.column(), hex.line()));
    let mut suggestions: Vec<CompletionItem> = pieces
        .into_iter()
        .map(|(hex, piece)| {
            let label = match piece.kind {
                PieceKind::Pawn => hex.to_string(),
                kind => format!("{}{hex}", ids.move_identifier(kind)),
            };
            let detail = format!("{} {} on {hex}", side.name(), piece.kind.name());
            CompletionItem::plain(label, CompletionKind::Piece, detail, replace)
        })
        .collect();
    let mut moves = legal_moves(position);
    moves.sort_by_cached_key(|legal| {
        let mover = match legal.mv {
            Move::Piece(piece_move) => piece_move.piece,
            Move::ForcedPromotion { .. } => PieceKind::Pawn,
            Move::Castling(_) => PieceKind::King,
        };
        (
            strength(mover),
            legal.applied.effect.origin.column(),
            legal.applied.effect.origin.line(),
            legal.mv.write(ids),
        )
    });
    suggestions.extend(moves.into_iter().map(|legal| {
        let label = legal.text(ids, Spelling::KEYBOARD);
        let detail = match legal.check {
            Some(check) => {
                format!("{}, {}", legal.applied.effect.describe(), check_in_words(check))
            }
            None => legal.applied.effect.describe(),
        };
        CompletionItem::plain(label, CompletionKind::Move, detail, replace)
    }));
    suggestions
}

fn check_in_words(check: Check) -> &'static str {
    match check {
        Check::Plain | Check::Adjoining => "check",
        Check::FromAfar => "check from afar",
        Check::Double => "double check",
        Check::Mate => "checkmate",
    }
}
