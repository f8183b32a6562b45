//! What a half-move did, as data and as an English sentence for hovers and the command line
//! ("White Bishop F6 to C15", "Black pawn F12 takes en passant on G9, removing the pawn on G13").
//!
//! The same value drives the state update of §8.3-§8.5: which piece moved, which hexes were
//! left, where a piece was removed, and which pawn step opens a special capture.

use super::words::a;
use crate::castling::RookMove;
use crate::geometry::Hex;
use crate::notation::Promotion;
use crate::pieces::{Piece, PieceKind, Side};

/// The kind of half-move, as it was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EffectKind {
    /// A move to an empty hex.
    Move,
    /// An ordinary capture on the destination.
    Capture,
    /// A pawn took en passant: it landed on the empty destination and the piece one or two
    /// column steps beyond was removed.
    EnPassant,
    /// A pawn took the scornful pawn (or what it promoted to) on the destination.
    ScornfulCapture,
    /// A pawn awaiting promotion became a piece without moving.
    ForcedPromotion,
    /// One of the 24 castlings, by its standard spelling, with the Rooks' moves.
    Castling { token: &'static str, rooks: Vec<RookMove> },
}

/// A piece taken by the half-move, and the hex it was removed from (for en passant, not the
/// destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    pub piece: Piece,
    pub hex: Hex,
}

/// A pawn step that opens a special capture for the opponent (§8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PawnStep {
    /// Two hexes straight forward, crossing one.
    Double,
    /// Three hexes straight forward, crossing two.
    Triple,
    /// An oblique forward step past the opponent's pawn on `scorned`.
    Scornful { scorned: Hex },
}

/// What a half-move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// The side that moved.
    pub side: Side,
    /// The piece that moved: the King for castling, the pawn for a forced promotion.
    pub piece: PieceKind,
    /// Where it started; for a forced promotion the awaiting pawn's hex.
    pub origin: Hex,
    /// Where it ended; for a forced promotion the same hex as `origin`.
    pub destination: Hex,
    pub kind: EffectKind,
    pub captured: Option<Captured>,
    /// `=X` or `=&` on a pawn move, or the piece of a forced promotion.
    pub promotion: Option<Promotion>,
    /// The pawn step that opened a special capture, if any.
    pub step: Option<PawnStep>,
}

impl MoveEffect {
    /// One English sentence (without final stop) saying what happened.
    pub fn describe(&self) -> String {
        let mover = format!("{} {}", self.side.name(), self.piece.name());
        let mut text = match &self.kind {
            EffectKind::Move => format!("{mover} {} to {}", self.origin, self.destination),
            EffectKind::Capture => match self.captured {
                Some(captured) => {
                    format!(
                        "{mover} {} takes the {} on {}",
                        self.origin,
                        captured.piece.kind.name(),
                        captured.hex
                    )
                }
                None => format!("{mover} {} to {}", self.origin, self.destination),
            },
            EffectKind::EnPassant => {
                let removed = self
                    .captured
                    .map(|c| format!(", removing the {} on {}", c.piece.kind.name(), c.hex))
                    .unwrap_or_default();
                format!("{mover} {} takes en passant on {}{removed}", self.origin, self.destination)
            }
            EffectKind::ScornfulCapture => {
                let taken = self.captured.map_or(PieceKind::Pawn, |c| c.piece.kind);
                let taken = if taken == PieceKind::Pawn {
                    "the scornful pawn".to_string()
                } else {
                    format!("the {} (a scornful pawn that promoted)", taken.name())
                };
                format!("{mover} {} takes {taken} on {}", self.origin, self.destination)
            }
            EffectKind::ForcedPromotion => format!("{mover} awaiting on {} promotes", self.origin),
            EffectKind::Castling { token, rooks } => {
                let mut text = format!(
                    "{} castles {token}: King {} to {}",
                    self.side.name(),
                    self.origin,
                    self.destination
                );
                for rook in rooks {
                    text.push_str(&format!(
                        ", {} {} to {}",
                        rook.rook.name(),
                        rook.origin,
                        rook.destination
                    ));
                }
                text
            }
        };
        match self.step {
            Some(PawnStep::Double) => text.push_str(" (double step)"),
            Some(PawnStep::Triple) => text.push_str(" (triple step)"),
            Some(PawnStep::Scornful { scorned }) => {
                text.push_str(&format!(" (scornful move past the pawn on {scorned})"));
            }
            None => {}
        }
        match self.promotion {
            Some(Promotion::To(kind)) if self.kind == EffectKind::ForcedPromotion => {
                text.push_str(&format!(" to {}", a(kind)));
            }
            Some(Promotion::To(kind)) => text.push_str(&format!(", promoting to {}", a(kind))),
            Some(Promotion::Awaiting) => {
                text.push_str(&format!(
                    ", where it awaits promotion (nothing suitable to regain on {})",
                    self.destination
                ));
            }
            None => {}
        }
        text
    }
}
