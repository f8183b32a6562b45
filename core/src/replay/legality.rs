//! Optional rule checks that need the movement of the pieces (§4.2, §14.4): a half-move its
//! piece cannot make, or that leaves its own King in check (R009); a pawn awaiting promotion
//! that could promote but does not, while its side is not in check (R006); and a check suffix
//! that does not say what the half-move does to the opponent's King (R008), checkmate found by
//! trying every reply.
//!
//! Castling is judged by R003 and R004 only: whether the King passes or lands on an attacked
//! hex is not checked by the handbook (§8.6). En passant and scornful captures are judged by
//! K011, R001, R002 and R007.

use super::rules::suitable;
use super::words::a;
use crate::diagnostics::Code;
use crate::geometry::Hex;
use crate::movement::{
    attackers, can_go, delta, destinations, is_adjoining_or_jump, is_along, is_attacked,
    is_attacked_after_move, is_attacked_through, is_in_check, king_hex, special_captures, Reach,
    DIAGONAL, KNIGHT_JUMPS, ORTHOGONAL,
};
use crate::notation::{Check, Move, PieceMove, Separator};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::Position;

/// R006 and R009 of a half-move played from `before`, which gave `after`.
pub fn legality_warnings(before: &Position, mv: &Move, after: &Position) -> Vec<(Code, String)> {
    legality_before(before, mv).after(&mut after.clone())
}

/// The part of R006 and R009 judged on the board before a half-move, waiting for the board
/// after it: so that a replay can play the half-move in place, with no copy of the position
/// kept to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalityBefore {
    warnings: Vec<(Code, String)>,
    /// The side that moved, whose King must not be left in check, when that is still to be
    /// judged: a half-move its piece cannot make says so already, and castling is judged by
    /// R003 and R004 only.
    own_king_of: Option<(Side, Exposure)>,
    /// Where the opponent's King stood and where the half-move went from and to, when the
    /// replay knew that King was not in check before it: then only the moved piece and an
    /// attack opened through its origin can check it ([`is_attacked_after_move`]).
    opponent_unchecked: Option<(Hex, (Hex, Hex))>,
}

/// How the mover's King may come to be in check after a half-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exposure {
    /// Any way: the King moved, was in check, or it is not known whether it was.
    Any,
    /// Only through the hex the moving piece left, as the King was not in check and the
    /// half-move only took its piece from there and put it down elsewhere.
    Through(Hex),
}

impl LegalityBefore {
    /// The warnings, with R009 for a King left in check on `after`. A King found not in check
    /// is told to `after`, for the check test of the opponent's next half-move.
    pub fn after(&mut self, after: &mut Position) -> Vec<(Code, String)> {
        if let Some((mover, exposure)) = self.own_king_of {
            let exposed = match (exposure, king_hex(after, mover)) {
                (Exposure::Through(origin), Some(king)) => {
                    is_attacked_through(after, king, origin, mover.opponent())
                }
                _ => true,
            };
            let left_in_check = exposed.then(|| own_king_left_in_check(after, mover)).flatten();
            if left_in_check.is_none() && king_hex(after, mover).is_some() {
                after.know_check(mover, false);
            }
            self.warnings.extend(left_in_check.map(|message| (Code::R009, message)));
        }
        std::mem::take(&mut self.warnings)
    }

    /// [`check_suffix_warning`] in a replay, on the position `after` the half-move: tells it
    /// whether the side now to move is in check, for the rule checks of the next half-move.
    pub fn judge_check_suffix(
        &self,
        after: &mut Position,
        written: Option<Check>,
    ) -> Option<SuffixMismatch> {
        let king = king_hex(after, after.turn);
        let given = match (self.opponent_unchecked, king) {
            (Some((unchecked, moved)), Some(king))
                if unchecked == king
                    && !is_attacked_after_move(after, king, moved, after.turn.opponent()) =>
            {
                None
            }
            _ => check_given(after),
        };
        if king.is_some() {
            after.know_check(after.turn, given.is_some());
        }
        suffix_mismatch(after, written, given)
    }
}

/// R006 and the R009 of a piece that cannot make the half-move, judged on `before`.
pub fn legality_before(before: &Position, mv: &Move) -> LegalityBefore {
    let mover = before.turn;
    // Whether the mover is in check matters only for a King's leap and a waiting pawn, so it
    // is found out only then: this runs on every half-move of every record.
    let in_check = || before.known_check(mover).unwrap_or_else(|| is_in_check(before, mover));
    let mut warnings = Vec::new();
    warnings.extend(skipped_promotion(before, mv, in_check).map(|message| (Code::R006, message)));
    let impossible = match mv {
        Move::Piece(piece_move) => impossible_piece_move(before, piece_move, in_check),
        Move::Castling(_) => {
            return LegalityBefore { warnings, own_king_of: None, opponent_unchecked: None }
        }
        Move::ForcedPromotion { .. } => None,
    };
    // The mover's King was in check before when the replay found so after the previous
    // half-move: then, the attack tests of this one are spared whenever they can be.
    let exposure = match mv {
        Move::Piece(PieceMove {
            origin, separator: Separator::Move | Separator::Capture, ..
        }) if before.known_check(mover) == Some(false)
            && before.get(*origin).is_some_and(|piece| piece.kind != PieceKind::King) =>
        {
            Exposure::Through(*origin)
        }
        _ => Exposure::Any,
    };
    let own_king_of = impossible.is_none().then_some((mover, exposure));
    warnings.extend(impossible.map(|message| (Code::R009, message)));
    // A piece put down elsewhere, taking what stood there if anything: en passant and
    // scornful captures take elsewhere, and a forced promotion changes a piece in place.
    let opponent = mover.opponent();
    let opponent_unchecked = match mv {
        Move::Piece(PieceMove {
            origin,
            destination,
            separator: Separator::Move | Separator::Capture,
            ..
        }) if before.known_check(opponent) == Some(false) => {
            king_hex(before, opponent).map(|king| (king, (*origin, *destination)))
        }
        _ => None,
    };
    LegalityBefore { warnings, own_king_of, opponent_unchecked }
}

/// R006: a pawn of the mover awaits promotion and a suitable piece is regainable, so this
/// half-move had to be its promotion (§8.7); a player in check may answer the check first.
fn skipped_promotion(before: &Position, mv: &Move, in_check: impl Fn() -> bool) -> Option<String> {
    if matches!(mv, Move::ForcedPromotion { .. }) {
        return None;
    }
    let mover = before.turn;
    let (hex, kind) = before
        .awaiting_promotion(mover)
        .find_map(|hex| suitable(before, mover, hex).map(|kind| (hex, kind)))?;
    if in_check() {
        return None;
    }
    Some(format!(
        "the pawn awaiting promotion on {hex} must promote now that {} is regainable: this half-move should be the forced promotion {hex}=…",
        a(kind)
    ))
}

/// R009 for a piece move: the piece cannot go there, by its own movement.
fn impossible_piece_move(
    before: &Position,
    mv: &PieceMove,
    in_check: impl Fn() -> bool,
) -> Option<String> {
    let piece = before.get(mv.origin)?;
    let (delta_column, delta_line) = delta(mv.origin, mv.destination);
    let reach = match mv.separator {
        Separator::Move => Reach::Quiet,
        // A pawn's oblique step onto a piece is a scornful capture, which R002 and R007 judge.
        Separator::Capture
            if piece.kind == PieceKind::Pawn
                && delta_column.abs() == 1
                && delta_line == piece.side.forward() =>
        {
            return None
        }
        Separator::Capture => Reach::Capture,
        Separator::At | Separator::DoubleAt => return None,
    };
    if can_go(before, mv.origin, piece, false, (mv.destination, reach)) {
        return None;
    }
    let cannot = format!("{} cannot go from {} to {}", a(piece.kind), mv.origin, mv.destination);
    if piece.kind == PieceKind::King
        && can_go(before, mv.origin, piece, true, (mv.destination, reach))
    {
        let has_right = before.castling[piece.side.index()].king;
        let in_check = has_right && in_check();
        if has_right && !in_check {
            return None;
        }
        let why = if in_check {
            "it may not leap out of check"
        } else {
            "the King's leap is only the King's first move"
        };
        return Some(format!("{cannot}: {why}"));
    }
    // On a board with nothing else (but what it takes), would the piece get there? Then
    // something stands in the way.
    let mut alone = Position::empty();
    alone.set(mv.origin, Some(piece));
    if reach == Reach::Capture {
        alone.set(mv.destination, before.get(mv.destination));
    }
    if can_go(&alone, mv.origin, piece, true, (mv.destination, reach)) {
        if let Some(blocker) = in_the_way(before, mv.origin, mv.destination) {
            return Some(format!("{cannot}: {blocker} is in the way"));
        }
    }
    Some(format!("{cannot}: {}", movement_rule(piece.kind)))
}

/// How a piece moves, in a few words, for the messages of R009.
fn movement_rule(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Queen => "it rides along orthogonal and diagonal lines",
        PieceKind::Rook => "it rides along orthogonal lines",
        PieceKind::Bishop => "it rides along diagonal lines",
        PieceKind::Wyvern => "it rides along orthogonal lines or makes a knight jump",
        PieceKind::Pegasus => "it rides along diagonal lines or makes a knight jump",
        PieceKind::Knight => "it makes a knight jump, and takes only so; or two identical jumps over an empty hex",
        PieceKind::King => "it steps to one of the twelve hexes around it, or leaps like a knight as its first move",
        PieceKind::Elephant => "it steps once or twice straight forward, or once along a diagonal off its transversal line",
        PieceKind::Pawn => {
            "it steps straight forward once or twice (three times from its triple-step hexes) or obliquely forward once onto an empty hex, and takes diagonally forward"
        }
    }
}

/// The first occupied hex strictly between `from` and `to`, when they lie on one line of
/// repeated steps (a ride, or a Knight's two jumps).
fn in_the_way(position: &Position, from: Hex, to: Hex) -> Option<Hex> {
    let delta = delta(from, to);
    let step = *ORTHOGONAL
        .iter()
        .chain(&DIAGONAL)
        .chain(&KNIGHT_JUMPS)
        .find(|&&step| is_along(delta, step) && delta != step)?;
    (1..)
        .map_while(|k| from.offset(k * step.0, k * step.1).filter(|&hex| hex != to))
        .find(|&hex| position.get(hex).is_some())
}

/// R009 for any half-move: the mover's King is attacked after it.
fn own_king_left_in_check(after: &Position, mover: Side) -> Option<String> {
    let king = king_hex(after, mover)?;
    // The plain test first: nearly every half-move leaves its King safe.
    if !is_attacked(after, king, mover.opponent()) {
        return None;
    }
    let attacker = *attackers(after, king, mover.opponent()).first()?;
    let piece = after.get(attacker)?;
    Some(format!(
        "this half-move leaves {}'s King on {king} in check from the {} on {attacker}",
        mover.name(),
        piece.kind.name()
    ))
}

/// A check suffix that does not fit the position after the half-move (R008).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuffixMismatch {
    /// What is wrong and what is expected.
    pub message: String,
    /// The suffix that fits: `None` when the half-move gives no check.
    pub expected: Option<Check>,
}

/// What a half-move did to the King of the side now to move, as the most precise check suffix
/// (§6.7): `None` when the King is not in check.
pub fn check_given(after: &Position) -> Option<Check> {
    let king = king_hex(after, after.turn)?;
    // The plain test first: most half-moves give no check.
    if !is_attacked(after, king, after.turn.opponent()) {
        return None;
    }
    let checking = attackers(after, king, after.turn.opponent());
    let first = *checking.first()?;
    Some(if !has_reply(after) {
        Check::Mate
    } else if checking.len() > 1 {
        Check::Double
    } else if is_adjoining_or_jump(first, king) {
        Check::Adjoining
    } else {
        Check::FromAfar
    })
}

/// The check a half-move gave, with its words (`Black's King on F20 is in check from afar by
/// the Rook on F6`): `None` when the King of the side now to move is not in check.
pub fn check_in_words(after: &Position) -> Option<(Check, String)> {
    let check = check_given(after)?;
    let king = king_hex(after, after.turn)?;
    Some((check, describe_check(after, king, check)))
}

/// R008: the `written` check suffix of a half-move against what it did; `+` stands for any
/// check but mate.
pub fn check_suffix_warning(after: &Position, written: Option<Check>) -> Option<SuffixMismatch> {
    suffix_mismatch(after, written, check_given(after))
}

/// R008 for the check a half-move `given`.
fn suffix_mismatch(
    after: &Position,
    written: Option<Check>,
    given: Option<Check>,
) -> Option<SuffixMismatch> {
    let fits = written == given
        || (written == Some(Check::Plain) && given.is_some_and(|check| check != Check::Mate));
    if fits {
        return None;
    }
    let defender = after.turn;
    let king = king_hex(after, defender)?;
    let what = match given {
        None => format!("{}'s King on {king} is not in check", defender.name()),
        Some(check) => describe_check(after, king, check),
    };
    let message = match (written, given) {
        (Some(written), None) => format!("{} but {what}: no check suffix", written.as_str()),
        (None, Some(given)) => {
            format!("the check suffix is missing: {what}; write {}", given.as_str())
        }
        (Some(written), Some(given)) => {
            format!("{} but {what}; write {}", written.as_str(), given.as_str())
        }
        (None, None) => return None,
    };
    Some(SuffixMismatch { message, expected: given })
}

/// The check on `king`, in words.
fn describe_check(position: &Position, king: Hex, check: Check) -> String {
    let defender = position.turn;
    let checking: Vec<String> = attackers(position, king, defender.opponent())
        .into_iter()
        .filter_map(|hex| {
            position.get(hex).map(|piece| format!("the {} on {hex}", piece.kind.name()))
        })
        .collect();
    let checkers = checking.join(" and ");
    let owner = defender.name();
    match check {
        Check::Mate => format!("{owner}'s King on {king} is checkmated by {checkers}"),
        Check::Double => format!("{owner}'s King on {king} is in double check from {checkers}"),
        Check::Adjoining => format!(
            "{owner}'s King on {king} is in check from {checkers}, adjoining or a knight jump away"
        ),
        Check::FromAfar | Check::Plain => {
            format!("{owner}'s King on {king} is in check from afar by {checkers}")
        }
    }
}

/// Whether the side to move, in check, has a half-move that leaves its King out of check.
/// Every move of every piece is tried on the board, the King's first (they answer most
/// checks), then en passant and scornful captures; the search stops at the first answer.
/// Castling and the King's leap are not allowed in check, and a forced promotion leaves the
/// board as it was, so none of them can answer a check.
fn has_reply(position: &Position) -> bool {
    let side = position.turn;
    let Some(king) = king_hex(position, side) else { return true };
    let mut board = position.clone();
    // Each piece is taken off before it is put down, and put back the same way, so that the
    // board never holds two Kings of a side and never searches for the one it keeps.
    let mut answers = |from: Hex, to: Hex, taken: Option<Hex>| {
        let (moving, target, victim) =
            (board.get(from), board.get(to), taken.and_then(|hex| board.get(hex)));
        board.set(from, None);
        board.set(to, moving);
        if let Some(taken) = taken {
            board.set(taken, None);
        }
        let king_now = if from == king { to } else { king };
        let safe = !is_attacked(&board, king_now, side.opponent());
        if let Some(taken) = taken {
            board.set(taken, victim);
        }
        board.set(to, target);
        board.set(from, moving);
        safe
    };
    let king_piece = Piece::new(side, PieceKind::King);
    if destinations(position, king, king_piece, false)
        .into_iter()
        .any(|(to, _)| answers(king, to, None))
    {
        return true;
    }
    let others = position.pieces().filter(|&(hex, piece)| piece.side == side && hex != king);
    for (from, piece) in others {
        if destinations(position, from, piece, false)
            .into_iter()
            .any(|(to, _)| answers(from, to, None))
        {
            return true;
        }
    }
    special_captures(position)
        .into_iter()
        .any(|capture| answers(capture.from, capture.to, capture.victim))
}
