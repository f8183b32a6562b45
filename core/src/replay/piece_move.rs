//! Piece moves (everything but castling and forced promotion): the coherence checks K001-K014
//! in the order of §13 item 7, then the promotion checks, then the board change of §8.2.
//!
//! The checks look only at what the notation claims — the piece on the origin, the separator,
//! the captured piece's letter, the `@` geometry — never at whether the piece can really make
//! that move: a minimum reader does not check the rules of play (§13).

use super::effect::{Captured, EffectKind, MoveEffect, PawnStep};
use super::promotion;
use super::words::{a, coloured, owned};
use super::Incoherence;
use crate::diagnostics::Code;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::notation::{PieceMove, Promotion, Separator};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::Position;

/// Checks a piece move against `before` and returns the position with only the board changed,
/// and what happened; the rest of the state is updated by the caller (§8.3-§8.5).
pub(super) fn apply(
    before: &Position,
    mv: &PieceMove,
    ids: &IdentifierSet,
) -> Result<(Position, MoveEffect), Incoherence> {
    let effect = check_and_describe(before, mv, ids)?;
    let mut after = before.clone();
    write_board(&mut after, mv, &effect);
    Ok((after, effect))
}

/// Checks a piece move against `position` and, when it is coherent, plays it there in place,
/// the whole state included: the same result as [`apply`] and [`super::state::advance`]
/// without copying the position (the batch check plays every half-move this way).
pub(super) fn play_in_place(
    position: &mut Position,
    mv: &PieceMove,
    ids: &IdentifierSet,
) -> Result<MoveEffect, Incoherence> {
    // `apply` with the board written into `position` itself: `advance` only reads the clock
    // and the move number, which the board change leaves alone.
    let checked = {
        let before: &Position = position;
        check_and_describe(before, mv, ids)?
    };
    write_board(position, mv, &checked);
    super::state::advance_in_place(position, &checked);
    Ok(checked)
}

/// The checks of [`apply`] and the effect they describe, without the board change.
fn check_and_describe(
    before: &Position,
    mv: &PieceMove,
    ids: &IdentifierSet,
) -> Result<MoveEffect, Incoherence> {
    let mover = before.turn;
    let piece = check_origin(before, mv, ids)?;
    let (kind, captured) = match mv.separator {
        Separator::Move => {
            check_destination_empty(before, mv.destination, mover)?;
            (EffectKind::Move, None)
        }
        Separator::Capture => {
            let captured = capture_on(before, mv.destination, mover)?;
            check_captured_letter(captured, mv.captured, ids)?;
            (EffectKind::Capture, Some(captured))
        }
        Separator::At | Separator::DoubleAt => {
            let (kind, captured) = special_capture(before, mv, piece)?;
            check_captured_letter(captured, mv.captured, ids)?;
            (kind, Some(captured))
        }
    };
    promotion::check_suffix(before, mv, piece, ids)?;
    Ok(MoveEffect {
        side: mover,
        piece: piece.kind,
        origin: mv.origin,
        destination: mv.destination,
        kind,
        captured,
        promotion: mv.promotion,
        step: pawn_step(before, mv, piece),
    })
}

/// The board change of a checked piece move: the captured piece off, the mover from its
/// origin to its destination (promoted when the move says so).
fn write_board(board: &mut Position, mv: &PieceMove, effect: &MoveEffect) {
    if let Some(captured) = effect.captured {
        board.set(captured.hex, None);
    }
    board.set(mv.origin, None);
    let landed = match mv.promotion {
        Some(Promotion::To(kind)) => Piece::new(effect.side, kind),
        _ => Piece::new(effect.side, effect.piece),
    };
    board.set(mv.destination, Some(landed));
}

/// K001-K003: the origin holds a piece of the side to move of the written kind.
fn check_origin(
    before: &Position,
    mv: &PieceMove,
    ids: &IdentifierSet,
) -> Result<Piece, Incoherence> {
    let mover = before.turn;
    let Some(piece) = before.get(mv.origin) else {
        return Err(Incoherence::new(
            Code::K001,
            format!("no piece on the origin hex {}", mv.origin),
        ));
    };
    if piece.side != mover {
        return Err(Incoherence::new(
            Code::K002,
            format!(
                "the {} on {} belongs to {}, but it is {}'s move",
                piece.kind.name(),
                mv.origin,
                piece.side.name(),
                mover.name()
            ),
        ));
    }
    if piece.kind != mv.piece {
        let hint = if mv.piece == PieceKind::Pawn {
            format!(
                " (a {} move starts with {})",
                piece.kind.name(),
                ids.move_identifier(piece.kind)
            )
        } else if piece.kind == PieceKind::Pawn {
            " (a pawn move is written without a letter)".to_string()
        } else {
            String::new()
        };
        return Err(Incoherence::new(
            Code::K003,
            format!("{} holds {}, not {}{hint}", mv.origin, a(piece.kind), a(mv.piece)),
        ));
    }
    Ok(piece)
}

/// K004: a move written with a hyphen goes to an empty hex.
fn check_destination_empty(
    before: &Position,
    destination: Hex,
    mover: Side,
) -> Result<(), Incoherence> {
    match before.get(destination) {
        None => Ok(()),
        Some(occupant) => {
            let hint =
                if occupant.side == mover { "" } else { "; a capture is written with \u{d7}" };
            Err(Incoherence::new(
                Code::K004,
                format!(
                    "non-capture onto {destination}, which is occupied ({} there){hint}",
                    coloured(occupant)
                ),
            ))
        }
    }
}

/// K005-K006: an ordinary capture lands on a piece of the opponent.
fn capture_on(before: &Position, destination: Hex, mover: Side) -> Result<Captured, Incoherence> {
    match before.get(destination) {
        None => {
            Err(Incoherence::new(Code::K005, format!("capture sign but {destination} is empty")))
        }
        Some(piece) if piece.side == mover => Err(Incoherence::new(
            Code::K006,
            format!("capture of {}'s own {} on {destination}", mover.name(), piece.kind.name()),
        )),
        Some(piece) => Ok(Captured { piece, hex: destination }),
    }
}

/// K007-K009: the captured piece is named exactly when it is not a pawn (§6.3), also after
/// `@`/`@@`, where the piece taken is a pawn unless it promoted on its step.
fn check_captured_letter(
    captured: Captured,
    written: Option<PieceKind>,
    ids: &IdentifierSet,
) -> Result<(), Incoherence> {
    let hex = captured.hex;
    let actual = captured.piece.kind;
    let word = if ids.is_fan() { "figurine" } else { "letter" };
    match (actual, written) {
        (PieceKind::Pawn, None) => Ok(()),
        (PieceKind::Pawn, Some(kind)) => Err(Incoherence::new(
            Code::K009,
            format!(
                "the captured piece on {hex} is a pawn, which is never named ({} written)",
                ids.move_identifier(kind)
            ),
        )),
        (actual, None) => Err(Incoherence::new(
            Code::K007,
            format!(
                "the captured piece on {hex} is {}; {word} {} missing",
                a(actual),
                ids.move_identifier(actual)
            ),
        )),
        (actual, Some(kind)) if kind != actual => Err(Incoherence::new(
            Code::K008,
            format!("the captured piece on {hex} is {}, not {}", a(actual), a(kind)),
        )),
        _ => Ok(()),
    }
}

/// K010-K014: `@`/`@@` is a pawn's en passant (diagonal forward step onto an empty hex, the
/// piece taken one or two column steps beyond) or a scornful capture (oblique forward step
/// onto the piece, single `@` only).
fn special_capture(
    before: &Position,
    mv: &PieceMove,
    piece: Piece,
) -> Result<(EffectKind, Captured), Incoherence> {
    let mover = before.turn;
    let sign = if mv.separator == Separator::DoubleAt { "@@" } else { "@" };
    if piece.kind != PieceKind::Pawn {
        return Err(Incoherence::new(
            Code::K010,
            format!(
                "{sign} used by a non-pawn ({} on {}): only pawns take en passant or a scornful pawn",
                a(piece.kind),
                mv.origin
            ),
        ));
    }
    let forward = mover.forward();
    let delta_column = i16::from(mv.destination.column()) - i16::from(mv.origin.column());
    let delta_line = i16::from(mv.destination.line()) - i16::from(mv.origin.line());
    let oblique_column = delta_column.abs() == 1;
    if oblique_column && delta_line == 3 * forward {
        return en_passant(before, mv, sign).map(|captured| (EffectKind::EnPassant, captured));
    }
    if oblique_column && delta_line == forward {
        if mv.separator == Separator::DoubleAt {
            return Err(Incoherence::new(
                Code::K011,
                format!(
                    "@@ is never a scornful capture: the oblique step {} to {} takes with a single @",
                    mv.origin, mv.destination
                ),
            ));
        }
        return scornful_capture(before, mv)
            .map(|captured| (EffectKind::ScornfulCapture, captured));
    }
    let step = if delta_column == 0 {
        "a straight move".to_string()
    } else {
        format!("the step {} to {}", mv.origin, mv.destination)
    };
    Err(Incoherence::new(
        Code::K011,
        format!(
            "{sign} with {step} is neither en passant (a diagonal forward step (\u{b1}1, {:+})) nor a scornful capture (an oblique forward step (\u{b1}1, {:+}))",
            3 * forward,
            forward
        ),
    ))
}

/// K012-K013: the landing hex is empty and an opponent piece stands `k` column steps beyond it
/// in the capturer's forward direction (`k` = 1 for `@`, 2 for `@@`).
fn en_passant(before: &Position, mv: &PieceMove, sign: &str) -> Result<Captured, Incoherence> {
    let mover = before.turn;
    let opponent = mover.opponent();
    if let Some(occupant) = before.get(mv.destination) {
        return Err(Incoherence::new(
            Code::K012,
            format!(
                "en passant landing hex {} is occupied ({} there)",
                mv.destination,
                coloured(occupant)
            ),
        ));
    }
    let beyond = |steps: i16| mv.destination.offset(0, -2 * steps * mover.forward());
    let opponent_on = |hex: Option<Hex>| {
        hex.and_then(|hex| before.get(hex).filter(|p| p.side == opponent).map(|p| (hex, p)))
    };
    let steps = if sign == "@@" { 2 } else { 1 };
    let target = beyond(steps);
    if let Some((hex, piece)) = opponent_on(target) {
        return Ok(Captured { piece, hex });
    }
    let written = if steps == 1 { "single @" } else { "@@" };
    let mut message = match target {
        None => format!(
            "en passant with {written} needs {} piece {} lines beyond {}, which is off the board",
            a_side(opponent),
            2 * steps,
            mv.destination
        ),
        Some(hex) => match before.get(hex) {
            None => format!(
                "en passant with {written} needs {} piece on {hex}, which is empty",
                a_side(opponent)
            ),
            Some(own) => format!(
                "en passant with {written} needs {} piece on {hex}, which holds {}",
                a_side(opponent),
                owned(own)
            ),
        },
    };
    let other_steps = 3 - steps;
    if let Some((hex, piece)) = opponent_on(beyond(other_steps)) {
        let other = if other_steps == 1 { "@" } else { "@@" };
        message.push_str(&format!("; the {} is on {hex} ({other})", piece.kind.name()));
    }
    Err(Incoherence::new(Code::K013, message))
}

/// `a White` or `a Black`, for "needs a White piece on G11".
fn a_side(side: Side) -> String {
    format!("a {}", side.name())
}

/// K014: a scornful capture lands on a piece of the opponent.
fn scornful_capture(before: &Position, mv: &PieceMove) -> Result<Captured, Incoherence> {
    let mover = before.turn;
    let opponent = mover.opponent().name();
    match before.get(mv.destination) {
        Some(piece) if piece.side != mover => Ok(Captured { piece, hex: mv.destination }),
        None => Err(Incoherence::new(
            Code::K014,
            format!(
                "scornful capture but {} is empty (no {opponent} piece to take)",
                mv.destination
            ),
        )),
        Some(own) => Err(Incoherence::new(
            Code::K014,
            format!(
                "scornful capture but {} holds {} (no {opponent} piece to take)",
                mv.destination,
                owned(own)
            ),
        )),
    }
}

/// The pawn step that opens a special capture (§8.4): a double or triple straight step, or a
/// non-capturing oblique forward step while an opponent pawn stands straight in front of the
/// origin. Captures never open one.
fn pawn_step(before: &Position, mv: &PieceMove, piece: Piece) -> Option<PawnStep> {
    if piece.kind != PieceKind::Pawn || mv.separator != Separator::Move {
        return None;
    }
    let forward = piece.side.forward();
    let delta_column = i16::from(mv.destination.column()) - i16::from(mv.origin.column());
    let delta_line = i16::from(mv.destination.line()) - i16::from(mv.origin.line());
    match (delta_column, delta_line / forward) {
        (0, 4) => Some(PawnStep::Double),
        (0, 6) => Some(PawnStep::Triple),
        (-1 | 1, 1) => {
            let in_front = mv.origin.offset(0, 2 * forward)?;
            let faced = before.get(in_front)?;
            (faced == Piece::new(piece.side.opponent(), PieceKind::Pawn))
                .then_some(PawnStep::Scornful { scorned: in_front })
        }
        _ => None,
    }
}
