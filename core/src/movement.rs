//! How the pieces move and take (handbook §3.4 and §4.2), for the optional rule checks: the
//! hexes a piece can reach from where it stands, the pieces that attack a hex, and where a
//! side's King stands. A minimum reader needs none of this (§13), and the replay's coherence
//! checks never call it.
//!
//! The rules are written more than once on purpose. [`destinations`] walks out from a piece,
//! which is what judging one half-move and searching the replies to a check need. [`attackers`]
//! walks out from the attacked hex, which is what a check test needs, without looking at every
//! piece on the board. [`attacks`] looks up the one line or jump between a piece and a hex,
//! which is what a replay needs to know whether the piece just moved gives check. Property
//! tests hold them to the same rules on random boards.

use std::sync::LazyLock;

use crate::geometry::{step_table, Hex, ALL_HEXES, HEX_COUNT, NO_HEX};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::{Position, SpecialCapture};

/// `(Δcolumn, Δline)` of the six orthogonal steps.
pub const ORTHOGONAL: [(i16, i16); 6] = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The six diagonal steps; `(±2, 0)` run along a transversal line.
pub const DIAGONAL: [(i16, i16); 6] = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)];

/// The four diagonal steps that leave the transversal line, the Elephant's sideways moves.
const NON_TRANSVERSAL_DIAGONAL: [(i16, i16); 4] = [(1, 3), (1, -3), (-1, 3), (-1, -3)];

/// The twelve knight jumps: an orthogonal step and a diagonal step next to it.
pub const KNIGHT_JUMPS: [(i16, i16); 12] = [
    (3, 1),
    (3, -1),
    (-3, 1),
    (-3, -1),
    (2, 4),
    (2, -4),
    (-2, 4),
    (-2, -4),
    (1, 5),
    (1, -5),
    (-1, 5),
    (-1, -5),
];

/// Where each orthogonal, diagonal step and knight jump lands from every hex (by index).
static ORTHOGONAL_STEPS: [[u8; 6]; HEX_COUNT] = step_table(ORTHOGONAL);
static DIAGONAL_STEPS: [[u8; 6]; HEX_COUNT] = step_table(DIAGONAL);
static KNIGHT_STEPS: [[u8; 12]; HEX_COUNT] = step_table(KNIGHT_JUMPS);

/// For any two hexes on one orthogonal or diagonal line, the direction from the first to the
/// second: [`ORTHOGONAL_LINE`] or [`DIAGONAL_LINE`] plus its index in [`ORTHOGONAL`] or
/// [`DIAGONAL`]; [`NO_LINE`] for two hexes on no line. A ride asked about one hex, and the
/// attack of one piece on a King, look along that line only. Built when first asked for, not
/// at compile time: as a constant, its 28 KB would travel in the WebAssembly module.
static LINES: LazyLock<[[u8; HEX_COUNT]; HEX_COUNT]> = LazyLock::new(line_table);

/// The direction families of [`LINES`], and two hexes on no line.
const ORTHOGONAL_LINE: u8 = 0;
const DIAGONAL_LINE: u8 = 8;
const NO_LINE: u8 = u8::MAX;

const fn line_table() -> [[u8; HEX_COUNT]; HEX_COUNT] {
    let mut lines = [[NO_LINE; HEX_COUNT]; HEX_COUNT];
    let families =
        [(step_table(ORTHOGONAL), ORTHOGONAL_LINE), (step_table(DIAGONAL), DIAGONAL_LINE)];
    let mut family = 0;
    while family < families.len() {
        let (table, first) = &families[family];
        let mut from = 0;
        while from < HEX_COUNT {
            let mut direction = 0;
            while direction < 6 {
                let mut at = table[from][direction];
                while at != NO_HEX {
                    lines[from][at as usize] = *first + direction as u8;
                    at = table[at as usize][direction];
                }
                direction += 1;
            }
            from += 1;
        }
        family += 1;
    }
    lines
}

/// White's hexes a pawn may make a triple step from; Black's are their mirror images.
const TRIPLE_STEP_HEXES: [(char, u8); 8] =
    [('B', 4), ('C', 5), ('D', 6), ('E', 7), ('G', 7), ('H', 6), ('I', 5), ('K', 4)];

/// What a move does on the hex it goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// The hex is empty.
    Quiet,
    /// An opponent's piece stands there and is taken.
    Capture,
}

/// Every hex the `piece` on `from` can go to by its own movement, onto an empty hex or an
/// opponent's piece. Castling, en passant and the scornful-pawn capture are not here (they
/// depend on the game, not on the board), nor the King's leap unless `king_may_leap`; whether
/// the mover's King is left in check is not judged.
pub fn destinations(
    position: &Position,
    from: Hex,
    piece: Piece,
    king_may_leap: bool,
) -> Vec<(Hex, Reach)> {
    let mut found = Vec::with_capacity(64);
    visit_destinations(position, from, piece, king_may_leap, |hex, reach| found.push((hex, reach)));
    found
}

/// Whether the `piece` on `from` can go to `to` with `reach`, as [`destinations`] says, without
/// gathering them: the rule checks ask this of every half-move.
pub fn can_go(
    position: &Position,
    from: Hex,
    piece: Piece,
    king_may_leap: bool,
    (to, reach): (Hex, Reach),
) -> bool {
    use PieceKind::*;
    // What stands on `to` decides how a piece would get there.
    let there = match position.get(to) {
        None => Reach::Quiet,
        Some(other) if other.side != piece.side => Reach::Capture,
        Some(_) => return false,
    };
    if there != reach {
        return false;
    }
    // A piece goes where it attacks, but for a pawn's steps, a Knight's two jumps over an
    // empty hex (neither takes) and the King's leap.
    match (piece.kind, reach) {
        (Pawn, Reach::Quiet) => pawn_steps_to(position, from, piece.side, to),
        (Knight, Reach::Quiet) => {
            attacks(position, from, piece, to) || knight_rides_to(position, from, to)
        }
        (King, _) if king_may_leap && KNIGHT_STEPS[from.index()].contains(&(to.index() as u8)) => {
            true
        }
        _ => attacks(position, from, piece, to),
    }
}

/// Whether a pawn of `side` on `from` steps onto the empty hex `to`: straight forward over
/// empty hexes, once or twice (three times from its triple-step hexes), or obliquely forward
/// once.
fn pawn_steps_to(position: &Position, from: Hex, side: Side, to: Hex) -> bool {
    let forward = side.forward();
    let (column, line) = delta(from, to);
    if column.abs() == 1 {
        return line == forward;
    }
    let longest = if is_triple_step_hex(from, side) { 3 } else { 2 };
    let steps = line / (2 * forward);
    column == 0
        && line == 2 * forward * steps
        && (1..=longest).contains(&steps)
        && (1..=steps).all(|step| {
            from.offset(0, 2 * forward * step).is_some_and(|hex| position.get(hex).is_none())
        })
}

/// Whether a Knight on `from` rides to `to` with two identical jumps over an empty hex.
fn knight_rides_to(position: &Position, from: Hex, to: Hex) -> bool {
    let (column, line) = delta(from, to);
    column % 2 == 0
        && line % 2 == 0
        && KNIGHT_JUMPS.contains(&(column / 2, line / 2))
        && from.offset(column / 2, line / 2).is_some_and(|hex| position.get(hex).is_none())
}

/// Calls `visit` with each of [`destinations`].
fn visit_destinations(
    position: &Position,
    from: Hex,
    piece: Piece,
    king_may_leap: bool,
    visit: impl FnMut(Hex, Reach),
) {
    use PieceKind::*;
    let mut moves = Moves { position, from, side: piece.side, found: visit };
    let forward = piece.side.forward();
    match piece.kind {
        Queen => {
            moves.ride(&ORTHOGONAL_STEPS);
            moves.ride(&DIAGONAL_STEPS);
        }
        Rook => moves.ride(&ORTHOGONAL_STEPS),
        Bishop => moves.ride(&DIAGONAL_STEPS),
        Wyvern => {
            moves.ride(&ORTHOGONAL_STEPS);
            moves.jumps(&KNIGHT_STEPS);
        }
        Pegasus => {
            moves.ride(&DIAGONAL_STEPS);
            moves.jumps(&KNIGHT_STEPS);
        }
        Knight => {
            moves.jumps(&KNIGHT_STEPS);
            // Two identical jumps over an empty hex: a ride that never takes.
            for (column, line) in KNIGHT_JUMPS {
                if moves.is_empty(column, line) {
                    moves.quiet(2 * column, 2 * line);
                }
            }
        }
        King => {
            moves.jumps(&ORTHOGONAL_STEPS);
            moves.jumps(&DIAGONAL_STEPS);
            if king_may_leap {
                moves.jumps(&KNIGHT_STEPS);
            }
        }
        Elephant => {
            moves.steps(&[(0, 2 * forward)]);
            if moves.is_empty(0, 2 * forward) {
                moves.steps(&[(0, 4 * forward)]);
            }
            moves.steps(&NON_TRANSVERSAL_DIAGONAL);
        }
        Pawn => {
            let longest = if is_triple_step_hex(from, piece.side) { 3 } else { 2 };
            for steps in 1..=longest {
                if !moves.is_empty(0, 2 * steps * forward) {
                    break;
                }
                moves.quiet(0, 2 * steps * forward);
            }
            for column in [-1, 1] {
                moves.quiet(column, forward);
                moves.capture(column, 3 * forward);
            }
        }
    }
}

/// Whether a pawn of `side` on `hex` may make a triple step (§4.2).
fn is_triple_step_hex(hex: Hex, side: Side) -> bool {
    let line = match side {
        Side::White => hex.line(),
        Side::Black => 28 - hex.line(),
    };
    TRIPLE_STEP_HEXES.contains(&(hex.column_letter(), line))
}

/// The moves of one piece being walked, each given to `found`.
struct Moves<'a, F: FnMut(Hex, Reach)> {
    position: &'a Position,
    from: Hex,
    side: Side,
    found: F,
}

impl<F: FnMut(Hex, Reach)> Moves<'_, F> {
    /// Whether the hex `(Δcolumn, Δline)` away is on the board and empty.
    fn is_empty(&self, column: i16, line: i16) -> bool {
        self.from.offset(column, line).is_some_and(|hex| self.position.get(hex).is_none())
    }

    /// What a single step or jump onto `hex` does, if the piece may go there.
    fn reach(&self, hex: Hex) -> Option<Reach> {
        match self.position.get(hex) {
            None => Some(Reach::Quiet),
            Some(piece) if piece.side != self.side => Some(Reach::Capture),
            Some(_) => None,
        }
    }

    /// Single steps or jumps of a step table, which move or take.
    fn jumps<const N: usize>(&mut self, table: &[[u8; N]; HEX_COUNT]) {
        for &to in &table[self.from.index()] {
            if to != NO_HEX {
                let hex = ALL_HEXES[usize::from(to)];
                if let Some(reach) = self.reach(hex) {
                    (self.found)(hex, reach);
                }
            }
        }
    }

    /// Single steps or jumps, which move or take.
    fn steps(&mut self, vectors: &[(i16, i16)]) {
        for &(column, line) in vectors {
            if let Some(hex) = self.from.offset(column, line) {
                if let Some(reach) = self.reach(hex) {
                    (self.found)(hex, reach);
                }
            }
        }
    }

    /// A step onto an empty hex only.
    fn quiet(&mut self, column: i16, line: i16) {
        if self.is_empty(column, line) {
            if let Some(hex) = self.from.offset(column, line) {
                (self.found)(hex, Reach::Quiet);
            }
        }
    }

    /// A step that only takes.
    fn capture(&mut self, column: i16, line: i16) {
        if let Some(hex) = self.from.offset(column, line) {
            if self.reach(hex) == Some(Reach::Capture) {
                (self.found)(hex, Reach::Capture);
            }
        }
    }

    /// Rides: each step of a step table repeated over empty hexes, up to and including the
    /// first piece when it is the opponent's.
    fn ride(&mut self, table: &[[u8; 6]; HEX_COUNT]) {
        for (direction, &first) in table[self.from.index()].iter().enumerate() {
            let mut at = first;
            while at != NO_HEX {
                let hex = ALL_HEXES[usize::from(at)];
                match self.reach(hex) {
                    Some(Reach::Quiet) => (self.found)(hex, Reach::Quiet),
                    Some(Reach::Capture) => {
                        (self.found)(hex, Reach::Capture);
                        break;
                    }
                    None => break,
                }
                at = table[usize::from(at)][direction];
            }
        }
    }
}

/// A capture the special-capture field of a position allows (§6.4, §8.4): the own pawn on
/// `from` goes to `to`; for en passant `victim` is the hex of the piece it removes, for a
/// scornful-pawn capture the piece taken stands on `to` and `victim` is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialCaptureMove {
    pub from: Hex,
    pub to: Hex,
    pub victim: Option<Hex>,
}

/// The special captures open to the side to move: each of its pawns diagonally forward of an
/// empty hex the last double or triple step crossed, or obliquely forward of the pawn that
/// just made a scornful move.
pub fn special_captures(position: &Position) -> Vec<SpecialCaptureMove> {
    let side = position.turn;
    let forward = side.forward();
    let pawn = Piece::new(side, PieceKind::Pawn);
    let pawns_at = |target: Hex, line: i16| {
        [-1, 1]
            .into_iter()
            .filter_map(move |column| target.offset(column, line))
            .filter(move |&hex| position.get(hex) == Some(pawn))
    };
    match &position.special {
        SpecialCapture::EnPassant { piece, crossed } => crossed
            .iter()
            .filter(|&&landing| position.get(landing).is_none())
            .flat_map(|&landing| {
                pawns_at(landing, -3 * forward).map(move |from| SpecialCaptureMove {
                    from,
                    to: landing,
                    victim: Some(*piece),
                })
            })
            .collect(),
        SpecialCapture::Scornful { piece, .. } => pawns_at(*piece, -forward)
            .map(|from| SpecialCaptureMove { from, to: *piece, victim: None })
            .collect(),
        SpecialCapture::None => Vec::new(),
    }
}

/// The hexes of `side`'s pieces that attack `target`, that is, could take a piece of the other
/// side standing there. A King's leap is not an attack: the King only leaps as its first move,
/// and never onto a King.
pub fn attackers(position: &Position, target: Hex, side: Side) -> Vec<Hex> {
    let mut found = Vec::new();
    visit_attackers(position, target, side, |hex| {
        found.push(hex);
        false
    });
    found
}

/// Whether any of `side`'s pieces attacks `target`: [`attackers`] without the list, stopping at
/// the first, for the tests that run on every half-move.
pub fn is_attacked(position: &Position, target: Hex, side: Side) -> bool {
    let mut attacked = false;
    visit_attackers(position, target, side, |_| {
        attacked = true;
        true
    });
    attacked
}

/// Whether one of `side`'s pieces attacks `target` through `vacated`: along a line through
/// both, or by an Elephant's double step over it. Those are all the attacks emptying a hex can
/// open (a Knight takes with a single jump), so a half-move that empties its origin and puts
/// its piece down elsewhere checks its own King only through its origin, unless the King was
/// in check already. Any attack found is one on `position`, through `vacated` or not.
pub fn is_attacked_through(position: &Position, target: Hex, vacated: Hex, side: Side) -> bool {
    use PieceKind::*;
    let holds = |at: u8, kinds: u16| {
        at != NO_HEX
            && position
                .at(usize::from(at))
                .is_some_and(|piece| piece.side == side && kinds & kind_bit(piece.kind) != 0)
    };
    let line = LINES[target.index()][vacated.index()];
    if line != NO_LINE {
        let (table, family, riders) = if line & DIAGONAL_LINE != 0 {
            (&DIAGONAL_STEPS, DIAGONAL_LINE, kind_bits(&[Queen, Bishop, Pegasus]))
        } else {
            (&ORTHOGONAL_STEPS, ORTHOGONAL_LINE, kind_bits(&[Queen, Rook, Wyvern]))
        };
        let direction = usize::from(line - family);
        let mut at = table[target.index()][direction];
        while at != NO_HEX && position.at(usize::from(at)).is_none() {
            at = table[usize::from(at)][direction];
        }
        if holds(at, riders) {
            return true;
        }
    }
    // The Elephant's double step runs along an orthogonal line too.
    let [one_step_back, two_steps_back] = ELEPHANT_STEPS_FROM[side.index()][target.index()];
    usize::from(one_step_back) == vacated.index()
        && position.at(vacated.index()).is_none()
        && holds(two_steps_back, kind_bit(Elephant))
}

/// Whether one of `side`'s pieces attacks `target` after one of them went from `from` to `to`
/// (taking what stood there, if anything), when none did before: then only the piece on `to`
/// or an attack opened through `from` can. A replay that knows the opponent's King was not in
/// check before a half-move asks this instead of looking at every line to the King.
pub fn is_attacked_after_move(
    position: &Position,
    target: Hex,
    (from, to): (Hex, Hex),
    side: Side,
) -> bool {
    let moved = position.get(to).filter(|piece| piece.side == side);
    moved.is_some_and(|piece| attacks(position, to, piece, target))
        || is_attacked_through(position, target, from, side)
}

/// Whether the `piece` on `from` attacks `target`, whoever stands there: what [`attackers`]
/// finds, asked of one piece, with the line or jump between the two hexes looked up.
pub fn attacks(position: &Position, from: Hex, piece: Piece, target: Hex) -> bool {
    use PieceKind::*;
    let (from, target) = (from.index(), target.index());
    let lands = |steps: &[u8]| steps.contains(&(target as u8));
    let rides = |family: u8| {
        let line = LINES[from][target];
        if line == NO_LINE || line & DIAGONAL_LINE != family {
            return false;
        }
        let table = if family == DIAGONAL_LINE { &DIAGONAL_STEPS } else { &ORTHOGONAL_STEPS };
        let direction = usize::from(line - family);
        // Every hex between the two is empty.
        let mut at = usize::from(table[from][direction]);
        while at != target {
            if position.at(at).is_some() {
                return false;
            }
            at = usize::from(table[at][direction]);
        }
        true
    };
    match piece.kind {
        Queen => rides(ORTHOGONAL_LINE) || rides(DIAGONAL_LINE),
        Rook => rides(ORTHOGONAL_LINE),
        Bishop => rides(DIAGONAL_LINE),
        Wyvern => rides(ORTHOGONAL_LINE) || lands(&KNIGHT_STEPS[from]),
        Pegasus => rides(DIAGONAL_LINE) || lands(&KNIGHT_STEPS[from]),
        Knight => lands(&KNIGHT_STEPS[from]),
        King => lands(&ORTHOGONAL_STEPS[from]) || lands(&DIAGONAL_STEPS[from]),
        Pawn => PAWN_TAKES_FROM[piece.side.index()][target].contains(&(from as u8)),
        Elephant => {
            // Forward once, or twice over an empty hex; or along a non-transversal diagonal,
            // the last four of `DIAGONAL`.
            let [one, two] = ELEPHANT_STEPS_FROM[piece.side.index()][target].map(usize::from);
            one == from
                || (two == from && position.at(one).is_none())
                || lands(&DIAGONAL_STEPS[from][2..])
        }
    }
}

/// Calls `visit` with each attacker of `target` among `side`'s pieces until it returns `true`.
fn visit_attackers(
    position: &Position,
    target: Hex,
    side: Side,
    mut visit: impl FnMut(Hex) -> bool,
) {
    use PieceKind::*;
    // Whether the hex at `at` holds one of `side`'s pieces of the `kinds`, visited then.
    let mut visits = |at: u8, kinds: u16| {
        at != NO_HEX
            && position
                .at(usize::from(at))
                .is_some_and(|piece| piece.side == side && kinds & kind_bit(piece.kind) != 0)
            && visit(ALL_HEXES[usize::from(at)])
    };
    // Along the twelve lines through the target: the first piece met rides there, or is a
    // King one step away.
    let target_index = target.index();
    for (table, riders) in [
        (&ORTHOGONAL_STEPS, kind_bits(&[Queen, Rook, Wyvern])),
        (&DIAGONAL_STEPS, kind_bits(&[Queen, Bishop, Pegasus])),
    ] {
        for (direction, &first) in table[target_index].iter().enumerate() {
            let mut at = first;
            let mut kinds = riders | kind_bit(King);
            while at != NO_HEX {
                if position.at(usize::from(at)).is_some() {
                    if visits(at, kinds) {
                        return;
                    }
                    break;
                }
                kinds = riders;
                at = table[usize::from(at)][direction];
            }
        }
    }
    // Jumps (Knights take with a single one, Wyverns, Pegasi); a pawn takes diagonally
    // forward; an Elephant steps forward (twice over an empty hex) or along a non-transversal
    // diagonal: seen from the target, backwards.
    let jumpers = kind_bits(&[Knight, Wyvern, Pegasus]);
    for at in KNIGHT_STEPS[target_index] {
        if visits(at, jumpers) {
            return;
        }
    }
    for at in PAWN_TAKES_FROM[side.index()][target_index] {
        if visits(at, kind_bit(Pawn)) {
            return;
        }
    }
    let [one_step_back, two_steps_back] = ELEPHANT_STEPS_FROM[side.index()][target_index];
    let through = one_step_back != NO_HEX && position.at(usize::from(one_step_back)).is_none();
    let two_steps_back = if through { two_steps_back } else { NO_HEX };
    // The non-transversal diagonals are the last four of `DIAGONAL`.
    let sideways = &DIAGONAL_STEPS[target_index][2..];
    for &at in [one_step_back, two_steps_back].iter().chain(sideways) {
        if visits(at, kind_bit(Elephant)) {
            return;
        }
    }
}

/// Where a pawn of each side (by [`Side::index`]) stands to take on a hex, seen from the hex.
static PAWN_TAKES_FROM: [[[u8; 2]; HEX_COUNT]; 2] =
    [step_table([(-1, -3), (1, -3)]), step_table([(-1, 3), (1, 3)])];

/// Where an Elephant of each side stands to step forward onto a hex, once or twice, seen from
/// the hex.
static ELEPHANT_STEPS_FROM: [[[u8; 2]; HEX_COUNT]; 2] =
    [step_table([(0, -2), (0, -4)]), step_table([(0, 2), (0, 4)])];

/// A kind as a bit of a set of kinds.
const fn kind_bit(kind: PieceKind) -> u16 {
    1 << kind as u16
}

/// A set of kinds as bits.
const fn kind_bits(kinds: &[PieceKind]) -> u16 {
    let mut bits = 0;
    let mut index = 0;
    while index < kinds.len() {
        bits |= kind_bit(kinds[index]);
        index += 1;
    }
    bits
}

/// Where `side`'s King stands; `None` on a board without one (a PDTL with P009).
pub fn king_hex(position: &Position, side: Side) -> Option<Hex> {
    position.king(side)
}

/// Whether `side`'s King is in check; `false` when there is no King.
pub fn is_in_check(position: &Position, side: Side) -> bool {
    king_hex(position, side).is_some_and(|king| is_attacked(position, king, side.opponent()))
}

/// Whether the step from `from` to `to` is a single orthogonal or diagonal step or a knight
/// jump: a check from there cannot be shielded (`+^`, §6.7).
pub fn is_adjoining_or_jump(from: Hex, to: Hex) -> bool {
    let delta = delta(from, to);
    ORTHOGONAL.contains(&delta) || DIAGONAL.contains(&delta) || KNIGHT_JUMPS.contains(&delta)
}

/// Whether `delta` is `vector` repeated once or more.
pub fn is_along((column, line): (i16, i16), (step_column, step_line): (i16, i16)) -> bool {
    let times = if step_column != 0 { column / step_column } else { line / step_line };
    times >= 1 && (step_column * times, step_line * times) == (column, line)
}

/// `(Δcolumn, Δline)` from one hex to another.
pub fn delta(from: Hex, to: Hex) -> (i16, i16) {
    (
        i16::from(to.column()) - i16::from(from.column()),
        i16::from(to.line()) - i16::from(from.line()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ALL_HEXES;
    use ctlpgn_test_support::rng::Rng;

    fn hex(name: &str) -> Hex {
        crate::geometry::parse_coordinate(name).expect("a hex")
    }

    fn named(hexes: impl IntoIterator<Item = (Hex, Reach)>) -> Vec<String> {
        let mut names: Vec<String> = hexes
            .into_iter()
            .map(|(hex, reach)| format!("{hex}{}", if reach == Reach::Capture { "x" } else { "" }))
            .collect();
        names.sort();
        names
    }

    /// A board holding only these pieces.
    fn board(pieces: &[(&str, Side, PieceKind)]) -> Position {
        let mut position = Position::empty();
        for &(name, side, kind) in pieces {
            position.set(hex(name), Some(Piece::new(side, kind)));
        }
        position
    }

    #[test]
    fn the_steps_from_f14_are_the_handbook_s() {
        let names = |vectors: &[(i16, i16)]| -> Vec<String> {
            vectors
                .iter()
                .filter_map(|&(c, l)| hex("F14").offset(c, l))
                .map(|h| h.to_string())
                .collect()
        };
        assert_eq!(names(&ORTHOGONAL), ["F16", "F12", "G15", "G13", "E15", "E13"]);
        assert_eq!(names(&DIAGONAL), ["H14", "D14", "G17", "G11", "E17", "E11"]);
        let mut jumps = names(&KNIGHT_JUMPS);
        jumps.sort();
        assert_eq!(
            jumps,
            ["C13", "C15", "D10", "D18", "E19", "E9", "G19", "G9", "H10", "H18", "I13", "I15"]
        );
    }

    #[test]
    fn the_elephants_sideways_steps_are_the_last_four_diagonals() {
        assert_eq!(DIAGONAL[2..], NON_TRANSVERSAL_DIAGONAL);
    }

    #[test]
    fn pawns_step_forward_and_take_diagonally() {
        use PieceKind::*;
        // E7 is a triple-step hex; E11 is not.
        let position = board(&[
            ("E7", Side::White, Pawn),
            ("D10", Side::Black, Knight),
            ("F10", Side::White, Rook),
        ]);
        let moves = destinations(&position, hex("E7"), Piece::new(Side::White, Pawn), false);
        assert_eq!(named(moves), ["D10x", "D8", "E11", "E13", "E9", "F8"]);
        let position = board(&[("E11", Side::White, Pawn), ("E15", Side::Black, Pawn)]);
        assert_eq!(
            named(destinations(&position, hex("E11"), Piece::new(Side::White, Pawn), false)),
            ["D12", "E13", "F12"]
        );
        // Black's forward is down the board.
        let position = board(&[("E21", Side::Black, Pawn)]);
        assert_eq!(
            named(destinations(&position, hex("E21"), Piece::new(Side::Black, Pawn), false)),
            ["D20", "E15", "E17", "E19", "F20"]
        );
    }

    #[test]
    fn knights_ride_two_jumps_without_taking_and_kings_leap_only_when_allowed() {
        use PieceKind::*;
        let position = board(&[
            ("F14", Side::White, Knight),
            ("F24", Side::Black, Rook),
            ("G19", Side::White, Pawn),
        ]);
        let moves = destinations(&position, hex("F14"), Piece::new(Side::White, Knight), false);
        // F14 to E19 to D24 is a ride; G19 is White's own, so the ride to H24 is blocked.
        assert!(moves.contains(&(hex("D24"), Reach::Quiet)));
        assert!(!moves.iter().any(|&(h, _)| h == hex("H24") || h == hex("G19")));
        let king = Piece::new(Side::White, King);
        let position = board(&[("G1", Side::White, King)]);
        assert!(!destinations(&position, hex("G1"), king, false)
            .iter()
            .any(|&(h, _)| h == hex("H6")));
        assert!(destinations(&position, hex("G1"), king, true).contains(&(hex("H6"), Reach::Quiet)));
    }

    #[test]
    fn elephants_step_forward_twice_only_over_an_empty_hex() {
        use PieceKind::*;
        let position = board(&[("E5", Side::White, Elephant), ("E7", Side::Black, Pawn)]);
        assert_eq!(
            named(destinations(&position, hex("E5"), Piece::new(Side::White, Elephant), false)),
            ["D2", "D8", "E7x", "F2", "F8"]
        );
        assert_eq!(attackers(&position, hex("E7"), Side::White), [hex("E5")]);
        let position = board(&[("E5", Side::White, Elephant), ("E9", Side::Black, King)]);
        assert_eq!(attackers(&position, hex("E9"), Side::White), [hex("E5")]);
    }

    #[test]
    fn a_piece_leaving_an_elephant_s_path_opens_its_double_step() {
        use PieceKind::*;
        let mut position = board(&[
            ("F14", Side::Black, King),
            ("F12", Side::Black, Rook),
            ("F10", Side::White, Elephant),
        ]);
        assert!(!is_attacked(&position, hex("F14"), Side::White));
        position.set(hex("F12"), None);
        position.set(hex("E11"), Some(Piece::new(Side::Black, Rook)));
        assert!(is_attacked(&position, hex("F14"), Side::White));
        assert!(is_attacked_through(&position, hex("F14"), hex("F12"), Side::White));
        assert!(!is_attacked_through(&position, hex("F14"), hex("E11"), Side::White));
    }

    /// A board with `count` pieces of the `kinds` put on random hexes for random sides (a piece
    /// may replace one put before).
    fn random_board(random: &mut Rng, count: usize, kinds: &[PieceKind]) -> Position {
        let mut position = Position::empty();
        for _ in 0..count {
            let side = if random.one_in(2) { Side::White } else { Side::Black };
            let kind = *random.pick(kinds);
            position.set(*random.pick(&ALL_HEXES), Some(Piece::new(side, kind)));
        }
        position
    }

    proptest::proptest! {
        /// On random boards, the pieces `attackers` finds from a target are exactly those whose
        /// `destinations` take on it, and `is_attacked` says whether there is one.
        #[test]
        fn attackers_are_the_pieces_whose_moves_take_there(seed in 0u64..u64::MAX, count in 2usize..40) {
            let position = random_board(&mut Rng::new(seed), count, &PieceKind::ALL);
            for (target, victim) in position.pieces() {
                let side = victim.side.opponent();
                let mut found = attackers(&position, target, side);
                found.sort_by_key(|hex| hex.index());
                let expected: Vec<Hex> = position
                    .pieces()
                    .filter(|(from, piece)| piece.side == side && destinations(&position, *from, *piece, false).contains(&(target, Reach::Capture)))
                    .map(|(from, _)| from)
                    .collect();
                proptest::prop_assert_eq!(is_attacked(&position, target, side), !expected.is_empty(), "{} attacked", target);
                proptest::prop_assert_eq!(found, expected, "attackers of {}", target);
            }
        }

        /// On random boards with the mover's King not in check, a move of any other piece
        /// checks that King exactly when an attack opens through the hex it left.
        #[test]
        fn a_move_checks_its_own_king_only_through_its_origin(seed in 0u64..u64::MAX, count in 2usize..40) {
            // Pieces other than Kings, then one King a side.
            let mut random = Rng::new(seed);
            let mut position = random_board(&mut random, count, &PieceKind::ALL[..PieceKind::ALL.len() - 1]);
            for side in [Side::White, Side::Black] {
                position.set(*random.pick(&ALL_HEXES), Some(Piece::new(side, PieceKind::King)));
            }
            for side in [Side::White, Side::Black] {
                let Some(king) = king_hex(&position, side) else { continue };
                if is_attacked(&position, king, side.opponent()) {
                    continue;
                }
                let movers = position.pieces().filter(|(_, piece)| piece.side == side && piece.kind != PieceKind::King);
                for (from, piece) in movers.collect::<Vec<_>>() {
                    for (to, _) in destinations(&position, from, piece, false) {
                        let mut after = position.clone();
                        after.set(from, None);
                        after.set(to, Some(piece));
                        proptest::prop_assert_eq!(
                            is_attacked_through(&after, king, from, side.opponent()),
                            is_attacked(&after, king, side.opponent()),
                            "{} from {} to {}", piece.kind.name(), from, to
                        );
                    }
                }
            }
        }

        /// On random boards, a piece `attacks` a hex exactly when `attackers` of the hex finds
        /// it.
        #[test]
        fn a_piece_attacks_what_attackers_find_it_attacking(seed in 0u64..u64::MAX, count in 2usize..40) {
            let position = random_board(&mut Rng::new(seed), count, &PieceKind::ALL);
            for target in ALL_HEXES {
                for side in [Side::White, Side::Black] {
                    let found = attackers(&position, target, side);
                    for (from, piece) in position.pieces().filter(|(from, piece)| piece.side == side && *from != target) {
                        proptest::prop_assert_eq!(
                            attacks(&position, from, piece, target),
                            found.contains(&from),
                            "{:?} on {} against {}", piece, from, target
                        );
                    }
                }
            }
        }

        /// On random boards with a side's King not in check, a move of any piece of the other
        /// side checks that King exactly when `is_attacked_after_move` says so.
        #[test]
        fn a_move_checks_the_opponent_s_king_only_from_where_it_lands_or_through_where_it_left(seed in 0u64..u64::MAX, count in 2usize..40) {
            let mut random = Rng::new(seed);
            let mut position = random_board(&mut random, count, &PieceKind::ALL);
            for side in [Side::White, Side::Black] {
                position.set(*random.pick(&ALL_HEXES), Some(Piece::new(side, PieceKind::King)));
            }
            for defender in [Side::White, Side::Black] {
                let attacker = defender.opponent();
                let Some(king) = king_hex(&position, defender) else { continue };
                if is_attacked(&position, king, attacker) {
                    continue;
                }
                let movers = position.pieces().filter(|(_, piece)| piece.side == attacker);
                for (from, piece) in movers.collect::<Vec<_>>() {
                    for (to, _) in destinations(&position, from, piece, true) {
                        // A pawn lands as some other piece now and then, as a promotion does.
                        let landed = match piece.kind {
                            PieceKind::Pawn => Piece::new(attacker, PieceKind::ALL[(from.index() + to.index()) % PieceKind::ALL.len()]),
                            _ => piece,
                        };
                        let mut after = position.clone();
                        after.set(from, None);
                        after.set(to, Some(landed));
                        // A move that takes the King, or the first of several, is not asked.
                        if king_hex(&after, defender) != Some(king) {
                            continue;
                        }
                        proptest::prop_assert_eq!(
                            is_attacked_after_move(&after, king, (from, to), attacker),
                            is_attacked(&after, king, attacker),
                            "{} from {} to {}", piece.kind.name(), from, to
                        );
                    }
                }
            }
        }

        /// On random boards, `can_go` answers for every hex and reach what `destinations`
        /// lists, the King's leap allowed or not.
        #[test]
        fn can_go_is_destinations_asked_one_hex(seed in 0u64..u64::MAX, count in 2usize..40) {
            let position = random_board(&mut Rng::new(seed), count, &PieceKind::ALL);
            for (from, piece) in position.pieces() {
                for leap in [false, true] {
                    let listed = destinations(&position, from, piece, leap);
                    for to in ALL_HEXES {
                        for reach in [Reach::Quiet, Reach::Capture] {
                            proptest::prop_assert_eq!(
                                can_go(&position, from, piece, leap, (to, reach)),
                                listed.contains(&(to, reach)),
                                "{:?} on {} to {} {:?}", piece, from, to, reach
                            );
                        }
                    }
                }
            }
        }
    }
}
