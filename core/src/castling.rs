//! The 24 castling tokens of the handbook (§6.6) with the hexes of King and Rooks for each side.
//!
//! The table is written once, with White's hexes; Black's hexes are the mirror image through
//! the midline (line `l` becomes `28 − l`, same column), as the handbook's table shows, and a
//! Rook's path mirrors the same way (its line step changes sign). Keeping one half of the table
//! means the two colours can never disagree.

use crate::geometry::Hex;
use crate::notation::CastlingToken;
use crate::pieces::Side;

/// Which Rooks a castling moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingKind {
    /// `KRK-…`: simple castling with the King's Rook.
    KingsRook,
    /// `KRD-…`: simple castling with the Queen's Rook.
    QueensRook,
    /// `KRR-…`: double castling, both Rooks.
    Double,
}

/// One of the two Rooks that can castle, named after its home hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RookRole {
    /// The Rook starting on C3 (White) or C25 (Black).
    QueensRook,
    /// The Rook starting on I3 (White) or I25 (Black).
    KingsRook,
}

impl RookRole {
    /// `Queen's Rook` or `King's Rook`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            RookRole::QueensRook => "Queen's Rook",
            RookRole::KingsRook => "King's Rook",
        }
    }
}

/// A hex written for White as column letter and line; Black's is the mirror `28 − line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WhiteHex(char, u8);

impl WhiteHex {
    /// The hex for `side`. The table's hexes are checked by a test, so they always exist.
    fn for_side(self, side: Side) -> Hex {
        let line = match side {
            Side::White => self.1,
            Side::Black => 28 - self.1,
        };
        Hex::from_letter(self.0, line).expect("the castling table names hexes of the board")
    }
}

/// How one Rook moves in a castling, written for White: its destination and the orthogonal
/// step it rides along (for Black the step's line part changes sign).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RookLeap {
    rook: RookRole,
    destination: WhiteHex,
    step: (i16, i16),
}

/// One castling token with its geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castling {
    /// The standard spelling, e.g. `KRK-HIO`; the key of [`lookup`].
    pub name: &'static str,
    pub kind: CastlingKind,
    king_destination: WhiteHex,
    rooks: &'static [RookLeap],
}

/// One Rook's move in a castling, for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RookMove {
    pub rook: RookRole,
    /// The Rook's home hex, where it must stand (K022).
    pub origin: Hex,
    pub destination: Hex,
    /// The hexes the Rook rides over, strictly between origin and destination, in order; they
    /// must be empty for the optional rule check R004.
    pub path: Vec<Hex>,
}

/// The home hex of a side's King (§8.1): G1 or G27.
pub fn king_home(side: Side) -> Hex {
    WhiteHex('G', 1).for_side(side)
}

/// The home hex of one of a side's Rooks (§8.1): C3/I3 for White, C25/I25 for Black.
pub fn rook_home(side: Side, rook: RookRole) -> Hex {
    match rook {
        RookRole::QueensRook => WhiteHex('C', 3).for_side(side),
        RookRole::KingsRook => WhiteHex('I', 3).for_side(side),
    }
}

/// Whose home Rook hex `hex` is, and which Rook's, if it is one of C3, I3, C25, I25; the
/// castling status update (§8.3) clears that flag when a piece leaves or is taken there.
pub fn rook_home_at(hex: Hex) -> Option<(Side, RookRole)> {
    // Every half-move asks this of the hexes it touches: the home Rook hexes are on lines 3
    // and 25, and any other hex is answered before the four are worked out.
    if !matches!(hex.line(), 3 | 25) {
        return None;
    }
    [Side::White, Side::Black]
        .into_iter()
        .flat_map(|side| [(side, RookRole::QueensRook), (side, RookRole::KingsRook)])
        .find(|&(side, rook)| rook_home(side, rook) == hex)
}

impl Castling {
    /// The token value the notation layer carries for this castling.
    pub fn token(&self) -> CastlingToken {
        CastlingToken(self.name)
    }

    /// Where the King lands for `side`.
    pub fn king_destination(&self, side: Side) -> Hex {
        self.king_destination.for_side(side)
    }

    /// The Rook moves for `side`: one for simple castling, the King's Rook then the Queen's
    /// Rook for double castling (the order of the handbook's table).
    pub fn rook_moves(&self, side: Side) -> Vec<RookMove> {
        self.rooks
            .iter()
            .map(|leap| {
                let origin = rook_home(side, leap.rook);
                let destination = leap.destination.for_side(side);
                let (step_column, step_line) = match side {
                    Side::White => leap.step,
                    Side::Black => (leap.step.0, -leap.step.1),
                };
                let mut path = Vec::new();
                let mut hex = origin;
                // A Rook's ride in the table is at most three steps, so six bounds the walk
                // even if the table were wrong; the tests check each ride ends on its hex.
                for _ in 0..6 {
                    match hex.offset(step_column, step_line) {
                        Some(next) if next != destination => {
                            path.push(next);
                            hex = next;
                        }
                        _ => break,
                    }
                }
                RookMove { rook: leap.rook, origin, destination, path }
            })
            .collect()
    }
}

impl CastlingToken {
    /// The table entry of the token, when it holds one of the 24 standard spellings.
    pub fn castling(self) -> Option<&'static Castling> {
        lookup(self.0)
    }
}

/// The table entry for a standard spelling (`KRK-HIO`, `KRR-FEE`). The caller normalises the
/// Rook letter to `R`, figurines to letters and dashes to `-` first; anything else is not one
/// of the 24 tokens (K020).
pub fn lookup(standard_spelling: &str) -> Option<&'static Castling> {
    CASTLINGS.iter().find(|castling| castling.name == standard_spelling)
}

/// Every castling, in the order of the handbook's table.
pub fn all() -> &'static [Castling] {
    &CASTLINGS
}

/// Orthogonal steps of the Rook rides, written for White (§6.6 "Rook paths").
const ALONG_I: (i16, i16) = (0, 2);
const TO_K: (i16, i16) = (1, 1);
const KINGS_ROOK_OBLIQUE: (i16, i16) = (-1, 1);
const QUEENS_ROOK_OBLIQUE: (i16, i16) = (1, 1);
const QUEENS_ROOK_TO_E1: (i16, i16) = (1, -1);

const fn kings_rook(column: char, line: u8, step: (i16, i16)) -> RookLeap {
    RookLeap { rook: RookRole::KingsRook, destination: WhiteHex(column, line), step }
}

const fn queens_rook(column: char, line: u8, step: (i16, i16)) -> RookLeap {
    RookLeap { rook: RookRole::QueensRook, destination: WhiteHex(column, line), step }
}

const fn simple_k(name: &'static str, king: (char, u8), rook: &'static [RookLeap]) -> Castling {
    Castling {
        name,
        kind: CastlingKind::KingsRook,
        king_destination: WhiteHex(king.0, king.1),
        rooks: rook,
    }
}

const fn simple_d(name: &'static str, king: (char, u8), rook: &'static [RookLeap]) -> Castling {
    Castling {
        name,
        kind: CastlingKind::QueensRook,
        king_destination: WhiteHex(king.0, king.1),
        rooks: rook,
    }
}

const fn double(name: &'static str, king: (char, u8), rooks: &'static [RookLeap]) -> Castling {
    Castling { name, kind: CastlingKind::Double, king_destination: WhiteHex(king.0, king.1), rooks }
}

/// The table of §6.6, White's hexes (King's destination, Rook destinations and ride steps).
static CASTLINGS: [Castling; 24] = [
    simple_k("KRK-II", ('I', 5), &[kings_rook('I', 7, ALONG_I)]),
    simple_k("KRK-IK", ('I', 5), &[kings_rook('K', 4, TO_K)]),
    simple_k("KRK-IH", ('I', 5), &[kings_rook('H', 4, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-HIO", ('H', 6), &[kings_rook('I', 5, ALONG_I)]),
    simple_k("KRK-HIOO", ('H', 6), &[kings_rook('I', 7, ALONG_I)]),
    simple_k("KRK-HH", ('H', 6), &[kings_rook('H', 4, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-HG", ('H', 6), &[kings_rook('G', 5, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-FG", ('F', 6), &[kings_rook('G', 5, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-FE", ('F', 6), &[kings_rook('E', 7, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-EF", ('E', 5), &[kings_rook('F', 6, KINGS_ROOK_OBLIQUE)]),
    simple_k("KRK-EE", ('E', 5), &[kings_rook('E', 7, KINGS_ROOK_OBLIQUE)]),
    simple_d("KRD-DD", ('D', 2), &[queens_rook('D', 4, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-DE", ('D', 2), &[queens_rook('E', 1, QUEENS_ROOK_TO_E1)]),
    simple_d("KRD-HH", ('H', 6), &[queens_rook('H', 8, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-HG", ('H', 6), &[queens_rook('G', 7, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-FG", ('F', 6), &[queens_rook('G', 7, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-FE", ('F', 6), &[queens_rook('E', 5, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-EF", ('E', 5), &[queens_rook('F', 6, QUEENS_ROOK_OBLIQUE)]),
    simple_d("KRD-ED", ('E', 5), &[queens_rook('D', 4, QUEENS_ROOK_OBLIQUE)]),
    double(
        "KRR-HIH",
        ('H', 6),
        &[kings_rook('I', 7, ALONG_I), queens_rook('H', 8, QUEENS_ROOK_OBLIQUE)],
    ),
    double(
        "KRR-HGG",
        ('H', 6),
        &[kings_rook('G', 5, KINGS_ROOK_OBLIQUE), queens_rook('G', 7, QUEENS_ROOK_OBLIQUE)],
    ),
    double(
        "KRR-FGG",
        ('F', 6),
        &[kings_rook('G', 5, KINGS_ROOK_OBLIQUE), queens_rook('G', 7, QUEENS_ROOK_OBLIQUE)],
    ),
    double(
        "KRR-FEE",
        ('F', 6),
        &[kings_rook('E', 7, KINGS_ROOK_OBLIQUE), queens_rook('E', 5, QUEENS_ROOK_OBLIQUE)],
    ),
    double(
        "KRR-EEF",
        ('E', 5),
        &[kings_rook('E', 7, KINGS_ROOK_OBLIQUE), queens_rook('F', 6, QUEENS_ROOK_OBLIQUE)],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Hex {
        crate::geometry::parse_coordinate(text).expect("a test hex")
    }

    /// The handbook's table (§6.6) transcribed as text, both colours: token, White King, White
    /// Rook moves, Black King, Black Rook moves.
    const HANDBOOK: [(&str, &str, &str, &str, &str); 24] = [
        ("KRK-II", "I5", "I3>I7", "I23", "I25>I21"),
        ("KRK-IK", "I5", "I3>K4", "I23", "I25>K24"),
        ("KRK-IH", "I5", "I3>H4", "I23", "I25>H24"),
        ("KRK-HIO", "H6", "I3>I5", "H22", "I25>I23"),
        ("KRK-HIOO", "H6", "I3>I7", "H22", "I25>I21"),
        ("KRK-HH", "H6", "I3>H4", "H22", "I25>H24"),
        ("KRK-HG", "H6", "I3>G5", "H22", "I25>G23"),
        ("KRK-FG", "F6", "I3>G5", "F22", "I25>G23"),
        ("KRK-FE", "F6", "I3>E7", "F22", "I25>E21"),
        ("KRK-EF", "E5", "I3>F6", "E23", "I25>F22"),
        ("KRK-EE", "E5", "I3>E7", "E23", "I25>E21"),
        ("KRD-DD", "D2", "C3>D4", "D26", "C25>D24"),
        ("KRD-DE", "D2", "C3>E1", "D26", "C25>E27"),
        ("KRD-HH", "H6", "C3>H8", "H22", "C25>H20"),
        ("KRD-HG", "H6", "C3>G7", "H22", "C25>G21"),
        ("KRD-FG", "F6", "C3>G7", "F22", "C25>G21"),
        ("KRD-FE", "F6", "C3>E5", "F22", "C25>E23"),
        ("KRD-EF", "E5", "C3>F6", "E23", "C25>F22"),
        ("KRD-ED", "E5", "C3>D4", "E23", "C25>D24"),
        ("KRR-HIH", "H6", "I3>I7 C3>H8", "H22", "I25>I21 C25>H20"),
        ("KRR-HGG", "H6", "I3>G5 C3>G7", "H22", "I25>G23 C25>G21"),
        ("KRR-FGG", "F6", "I3>G5 C3>G7", "F22", "I25>G23 C25>G21"),
        ("KRR-FEE", "F6", "I3>E7 C3>E5", "F22", "I25>E21 C25>E23"),
        ("KRR-EEF", "E5", "I3>E7 C3>F6", "E23", "I25>E21 C25>F22"),
    ];

    fn rook_text(castling: &Castling, side: Side) -> String {
        castling
            .rook_moves(side)
            .iter()
            .map(|m| format!("{}>{}", m.origin, m.destination))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_table_has_the_24_tokens_of_the_handbook_for_both_colours() {
        assert_eq!(all().len(), 24);
        for (entry, (name, white_king, white_rooks, black_king, black_rooks)) in
            all().iter().zip(HANDBOOK)
        {
            assert_eq!(entry.name, name);
            assert_eq!(entry.king_destination(Side::White), hex(white_king), "{name}");
            assert_eq!(entry.king_destination(Side::Black), hex(black_king), "{name}");
            assert_eq!(rook_text(entry, Side::White), white_rooks, "{name}");
            assert_eq!(rook_text(entry, Side::Black), black_rooks, "{name}");
            assert_eq!(lookup(name), Some(entry));
            assert_eq!(entry.token().castling(), Some(entry));
        }
    }

    #[test]
    fn the_token_spells_the_destination_columns() {
        for entry in all() {
            let (prefix, target) = entry.name.split_once('-').expect("a hyphen");
            let expected_kind = match prefix {
                "KRK" => CastlingKind::KingsRook,
                "KRD" => CastlingKind::QueensRook,
                _ => CastlingKind::Double,
            };
            assert_eq!(entry.kind, expected_kind);
            let columns = target.trim_end_matches('O').chars();
            for side in [Side::White, Side::Black] {
                let mut columns = columns.clone();
                assert_eq!(Some(entry.king_destination(side).column_letter()), columns.next());
                for rook in entry.rook_moves(side) {
                    assert_eq!(
                        Some(rook.destination.column_letter()),
                        columns.next(),
                        "{}",
                        entry.name
                    );
                }
                assert_eq!(columns.next(), None);
            }
        }
    }

    #[test]
    fn every_rook_ride_ends_on_its_destination() {
        for entry in all() {
            for side in [Side::White, Side::Black] {
                for rook in entry.rook_moves(side) {
                    // Re-walk the ride: origin, the path, then the destination one step on.
                    let mut hexes = vec![rook.origin];
                    hexes.extend(rook.path.iter().copied());
                    hexes.push(rook.destination);
                    let step = (
                        i16::from(hexes[1].column()) - i16::from(hexes[0].column()),
                        i16::from(hexes[1].line()) - i16::from(hexes[0].line()),
                    );
                    for pair in hexes.windows(2) {
                        assert_eq!(
                            pair[0].offset(step.0, step.1),
                            Some(pair[1]),
                            "{} {side:?}",
                            entry.name
                        );
                    }
                }
            }
        }
        let full = lookup("KRK-FE").unwrap().rook_moves(Side::White);
        let path: Vec<String> = full[0].path.iter().map(Hex::to_string).collect();
        assert_eq!(path, ["H4", "G5", "F6"]);
        let to_e27 = lookup("KRD-DE").unwrap().rook_moves(Side::Black);
        assert_eq!(to_e27[0].path, vec![hex("D26")]);
    }

    #[test]
    fn unknown_spellings_are_not_tokens() {
        for text in ["KRK-HI", "KRD-II", "KTK-II", "KRK-HIOOO", ""] {
            assert_eq!(lookup(text), None, "{text}");
        }
        assert_eq!(CastlingToken("KRK-HI").castling(), None);
    }

    #[test]
    fn home_hexes_are_the_handbook_ones() {
        assert_eq!(king_home(Side::White), hex("G1"));
        assert_eq!(king_home(Side::Black), hex("G27"));
        assert_eq!(rook_home_at(hex("C3")), Some((Side::White, RookRole::QueensRook)));
        assert_eq!(rook_home_at(hex("I3")), Some((Side::White, RookRole::KingsRook)));
        assert_eq!(rook_home_at(hex("C25")), Some((Side::Black, RookRole::QueensRook)));
        assert_eq!(rook_home_at(hex("I25")), Some((Side::Black, RookRole::KingsRook)));
        assert_eq!(rook_home_at(hex("G1")), None);
        // No other hex is a home Rook hex.
        let homes = crate::geometry::ALL_HEXES.iter().filter(|&&hex| rook_home_at(hex).is_some());
        assert_eq!(homes.count(), 4);
    }
}
