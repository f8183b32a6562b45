//! Applying a half-move to a position (handbook §8) with the coherence checks of §13 (K-codes).
//!
//! [`apply`] answers either the position after the half-move together with a description of
//! what happened ([`Applied`]), or the first check that failed ([`Incoherence`]). The checks run
//! in the order of §13 item 7 and §13.1 — K001, K002, K003, then those of the move's kind — and
//! only the first failure is reported, so that one slip gives one diagnostic. A minimum reader
//! does not check the rules of play; the optional rule checks (R-codes) live in
//! [`rule_warnings`], [`legality_warnings`] and [`check_suffix_warning`], and never stop a
//! replay.
//!
//! The work is split by what it is about: `piece_move` (displacements and captures, K001-K014),
//! `promotion` (K015-K019), `castling_move` (K020-K023), `state` (castling status, special
//! field, clocks: §8.3-§8.5), `effect` (the English account of a half-move), `rules` (R-codes
//! judged on the board before the half-move) and `legality` (R-codes that need the movement of
//! the pieces).

mod castling_move;
mod effect;
mod legal_moves;
mod legality;
#[cfg(test)]
mod legality_tests;
mod piece_move;
mod promotion;
mod rules;
mod state;
mod words;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod test_notation;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trace_tests;

pub use effect::{Captured, EffectKind, MoveEffect, PawnStep};
pub use legal_moves::{legal_moves, LegalMove};
pub use legality::{
    check_given, check_in_words, check_suffix_warning, legality_before, legality_warnings,
    LegalityBefore, SuffixMismatch,
};
pub use rules::rule_warnings;

use crate::diagnostics::Code;
use crate::identifiers::IdentifierSet;
use crate::notation::Move;
use crate::position::Position;

/// Why a half-move cannot be applied: the first failing coherence check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoherence {
    pub code: Code,
    /// What is wrong and what is expected, naming hexes and pieces.
    pub message: String,
}

impl Incoherence {
    fn new(code: Code, message: impl Into<String>) -> Incoherence {
        Incoherence { code, message: message.into() }
    }
}

/// A half-move that was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The position after the half-move.
    pub position: Position,
    /// What the half-move did, for hovers and the command line.
    pub effect: MoveEffect,
}

/// Applies one half-move of the side to move (`position.turn`), with the standard letters in
/// messages.
pub fn apply(position: &Position, mv: &Move) -> Result<Applied, Incoherence> {
    apply_with_identifiers(position, mv, &IdentifierSet::standard())
}

/// Applies one half-move; messages that quote a piece letter (`letter N missing`) use the
/// record's identifier set, so that a record written with `[Redefine]` or FAN is told its own
/// spelling.
pub fn apply_with_identifiers(
    position: &Position,
    mv: &Move,
    ids: &IdentifierSet,
) -> Result<Applied, Incoherence> {
    let (board, effect) = match mv {
        Move::Piece(piece_move) => piece_move::apply(position, piece_move, ids)?,
        Move::ForcedPromotion { hex, piece } => promotion::apply_forced(position, *hex, *piece)?,
        Move::Castling(token) => castling_move::apply(position, *token)?,
    };
    let position = state::advance(position, board, &effect);
    Ok(Applied { position, effect })
}

/// [`apply_with_identifiers`] played into `position` itself, which is left as it was when the
/// half-move is incoherent: a piece move (nearly every half-move) is then played without
/// copying the position, which a replay that keeps no position after each half-move (`check`)
/// does not need.
pub fn play_in_place(
    position: &mut Position,
    mv: &Move,
    ids: &IdentifierSet,
) -> Result<MoveEffect, Incoherence> {
    match mv {
        Move::Piece(piece_move) => piece_move::play_in_place(position, piece_move, ids),
        _ => {
            let applied = apply_with_identifiers(position, mv, ids)?;
            *position = applied.position;
            Ok(applied.effect)
        }
    }
}
