//! The active identifier set of a record (handbook §4.3): standard letters, alternative letters through `[Redefine]`, and FAN figurines.
//!
//! One value answers every question the rest of the crate asks about piece identifiers: which
//! piece a letter or figurine written in a move denotes (with the S012 message when it denotes
//! none), which piece a PDTL placement character or a `~` reference denotes, and which
//! character to print for a piece in a move, in a PDTL and in a castling token.
//!
//! **Decision (FAN and letters).** With `[Redefine "FAN"]` the active set *is* the figurines:
//! a letter used as a piece identifier in a move, or as a placement character in a PDTL, is
//! not in the active set (S012 / P007). Only castling keeps the letter form (`KRK-II`), which
//! is why [`IdentifierSet::rook_identifier`] answers `R` in FAN mode. Conversely, without FAN a
//! figurine is not in the active set.

use crate::pieces::{Piece, PieceKind, Side};

/// The redefinitions the handbook allows (§4.3), as (alternative letter, piece kind).
const ALLOWED_PAIRS: [(char, PieceKind); 9] = [
    ('A', PieceKind::Bishop),
    ('B', PieceKind::Bishop),
    ('F', PieceKind::Bishop),
    ('L', PieceKind::Bishop),
    ('C', PieceKind::Knight),
    ('S', PieceKind::Knight),
    ('T', PieceKind::Rook),
    ('W', PieceKind::Wyvern),
    ('Q', PieceKind::Queen),
];

/// The allowed pairs as the handbook lists them, for messages.
const ALLOWED_TEXT: &str = "A@J B@J F@J L@J C@N S@N T@R W@V Q@D";

/// What an identifier written in a move stands for: the three places a move names a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdentifierRole {
    /// The piece that moves (the first identifier of a piece move).
    Moving,
    /// The captured piece (the identifier after `×`, `*`, `@` or `@@`): the opponent's piece.
    Captured,
    /// The piece a pawn becomes (`=X`, or `h=X` for a forced promotion): the mover's piece.
    Promotion,
}

/// The identifiers a record uses for its pieces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdentifierSet {
    /// The upper-case letter of each kind, indexed by [`kind_index`]; unused in FAN mode.
    letters: [char; 9],
    /// Whether `[Redefine "FAN"]` is active.
    fan: bool,
}

/// Position of a kind in [`PieceKind::ALL`], for per-kind arrays.
fn kind_index(kind: PieceKind) -> usize {
    kind as usize
}

impl Default for IdentifierSet {
    fn default() -> IdentifierSet {
        IdentifierSet::standard()
    }
}

impl IdentifierSet {
    /// The standard letters `P E J N G R V D K`, used when there is no `[Redefine]`.
    pub fn standard() -> IdentifierSet {
        IdentifierSet { letters: PieceKind::ALL.map(PieceKind::standard_letter), fan: false }
    }

    /// The FAN figurines (`[Redefine "FAN"]`).
    pub fn fan() -> IdentifierSet {
        IdentifierSet { fan: true, ..IdentifierSet::standard() }
    }

    /// Reads the value of a `[Redefine "…"]` tag (§4.3): `FAN`, or allowed pairs `X@Y`
    /// separated by a comma and optional spaces, each standard letter redefined at most once.
    /// The error's text is the T022 message.
    pub fn from_redefine(value: &str) -> Result<IdentifierSet, RedefineError> {
        if value == "FAN" {
            return Ok(IdentifierSet::fan());
        }
        if value.eq_ignore_ascii_case("FAN") {
            return Err(RedefineError::FanCase(value.to_string()));
        }
        if value.trim().is_empty() {
            return Err(RedefineError::Empty);
        }
        let mut set = IdentifierSet::standard();
        // For each kind, the pair that redefined it, to name both pairs of a repetition.
        let mut redefined: [Option<char>; 9] = [None; 9];
        for (i, item) in value.split(',').enumerate() {
            // The grammar allows spaces only after a comma.
            let item = if i == 0 { item } else { item.trim_start_matches(' ') };
            let mut chars = item.chars();
            let (Some(alternative), Some('@'), Some(standard), None) =
                (chars.next(), chars.next(), chars.next(), chars.next())
            else {
                return Err(if item.is_empty() {
                    RedefineError::EmptyItem(value.to_string())
                } else {
                    RedefineError::NotAPair(item.to_string())
                });
            };
            let Some(kind) = PieceKind::from_standard_letter(standard) else {
                return Err(RedefineError::NotStandard { item: item.to_string(), standard });
            };
            if alternative == 'H' {
                return Err(RedefineError::NeverH(item.to_string()));
            }
            if !ALLOWED_PAIRS.contains(&(alternative, kind)) {
                return Err(RedefineError::NotAllowed { item: item.to_string(), kind, standard });
            }
            if let Some(earlier) = redefined[kind_index(kind)] {
                return Err(RedefineError::Twice { standard, earlier, item: item.to_string() });
            }
            redefined[kind_index(kind)] = Some(alternative);
            set.letters[kind_index(kind)] = alternative;
        }
        Ok(set)
    }

    /// Whether the set is the FAN figurines.
    pub fn is_fan(&self) -> bool {
        self.fan
    }

    /// The upper-case letter of a kind in this set (its standard letter in FAN mode, where
    /// letters survive only in castling tokens).
    pub fn letter(&self, kind: PieceKind) -> char {
        if self.fan {
            kind.standard_letter()
        } else {
            self.letters[kind_index(kind)]
        }
    }

    /// The active identifiers of the nine kinds, separated by spaces, for messages
    /// (`P E A N G R V D K`, or the white figurines).
    pub fn describe(&self) -> String {
        let mut out = String::with_capacity(40);
        for (i, kind) in PieceKind::ALL.into_iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push(self.move_identifier(kind));
        }
        out
    }

    /// The kind an active upper-case letter denotes (letter mode only).
    fn kind_of_letter(&self, letter: char) -> Option<PieceKind> {
        if self.fan {
            return None;
        }
        PieceKind::ALL.into_iter().find(|&kind| self.letters[kind_index(kind)] == letter)
    }

    /// Reads an identifier written in a move (§4.3, §6.1): an upper-case letter of the active
    /// set, or in FAN mode a figurine. A white figurine is the neutral form and always
    /// accepted; a black figurine only where the piece is Black: as moving piece or promotion
    /// piece in Black's half-move, as captured piece in White's half-move. The error is the
    /// S012 message (lower case, for which a caller reports S007 first, is refused as well).
    pub fn read_move_identifier(
        &self,
        ch: char,
        role: IdentifierRole,
        mover: Side,
    ) -> Result<PieceKind, String> {
        if let Some((kind, colour)) = PieceKind::from_figurine(ch) {
            if !self.fan {
                return Err(format!(
                    "{ch} is a FAN figurine but the record does not declare [Redefine \"FAN\"]: the {} is written {}",
                    kind.name(),
                    self.letters[kind_index(kind)]
                ));
            }
            let owner = match role {
                IdentifierRole::Moving | IdentifierRole::Promotion => mover,
                IdentifierRole::Captured => mover.opponent(),
            };
            if colour == Side::Black && owner == Side::White {
                let what = match role {
                    IdentifierRole::Moving => "the moving piece",
                    IdentifierRole::Captured => "the captured piece",
                    IdentifierRole::Promotion => "the promotion piece",
                };
                return Err(format!(
                    "{ch} is a Black figurine but {what} in {}'s half-move is White's: write the neutral {}",
                    mover.name(),
                    kind.figurine(Side::White)
                ));
            }
            return Ok(kind);
        }
        if self.fan {
            if let Some(kind) =
                PieceKind::from_standard_letter(ch.to_ascii_uppercase()).or_else(|| {
                    ALLOWED_PAIRS
                        .iter()
                        .find(|(letter, _)| *letter == ch.to_ascii_uppercase())
                        .map(|(_, kind)| *kind)
                })
            {
                return Err(format!(
                    "{ch} is a letter but [Redefine \"FAN\"] makes the figurines the identifiers: the {} is written {}",
                    kind.name(),
                    kind.figurine(Side::White)
                ));
            }
            return Err(format!(
                "{ch} is not a piece identifier: with [Redefine \"FAN\"] pieces are written with the figurines {}",
                self.describe()
            ));
        }
        if let Some(kind) = self.kind_of_letter(ch) {
            return Ok(kind);
        }
        Err(self.unknown_letter_message(ch))
    }

    /// The S012 / P007 explanation for a letter that is not an active identifier.
    fn unknown_letter_message(&self, ch: char) -> String {
        let upper = ch.to_ascii_uppercase();
        if ch.is_ascii_lowercase() && self.kind_of_letter(upper).is_some() {
            return format!("{ch} is lower case: identifiers in moves are upper case ({upper})");
        }
        if let Some(kind) = PieceKind::from_standard_letter(upper) {
            // A standard letter is only missing from the set when Redefine replaced it.
            let alternative = self.letters[kind_index(kind)];
            return format!(
                "{upper} is invalidated by [Redefine \"{alternative}@{upper}\"]: the {} is written {alternative}",
                kind.name()
            );
        }
        if let Some(&(_, kind)) = ALLOWED_PAIRS.iter().find(|(letter, _)| *letter == upper) {
            let active = self.letters[kind_index(kind)];
            let standard = kind.standard_letter();
            return if active == standard {
                format!(
                    "{upper} is not an identifier: without [Redefine \"{upper}@{standard}\"] the {} is written {standard}",
                    kind.name()
                )
            } else {
                format!(
                    "{upper} is not an identifier: [Redefine \"{active}@{standard}\"] makes the {} {active}",
                    kind.name()
                )
            };
        }
        if upper == 'H' {
            return "H is not a piece identifier: the Elephant (Halberdier) is written E"
                .to_string();
        }
        format!("{ch} is not a piece identifier: the identifiers are {}", self.describe())
    }

    /// Reads a PDTL placement character or the piece of a `~` reference: a letter of the
    /// active set, upper case for White and lower case for Black, or in FAN mode a figurine,
    /// whose colour is the piece's.
    pub fn read_placement_char(&self, ch: char) -> Option<Piece> {
        if self.fan {
            return PieceKind::from_figurine(ch).map(|(kind, side)| Piece::new(side, kind));
        }
        if ch.is_ascii_uppercase() {
            self.kind_of_letter(ch).map(|kind| Piece::new(Side::White, kind))
        } else if ch.is_ascii_lowercase() {
            self.kind_of_letter(ch.to_ascii_uppercase()).map(|kind| Piece::new(Side::Black, kind))
        } else {
            None
        }
    }

    /// Why a PDTL placement character is not a piece, for P007 (and N011).
    pub fn placement_char_problem(&self, ch: char) -> String {
        if self.fan {
            if ch.is_ascii_alphabetic() {
                return format!(
                    "{ch} is a letter but [Redefine \"FAN\"] makes the PDTL use figurines (White {}, Black {})",
                    PieceKind::ALL.map(|kind| kind.figurine(Side::White)).iter().collect::<String>(),
                    PieceKind::ALL.map(|kind| kind.figurine(Side::Black)).iter().collect::<String>()
                );
            }
            return format!("{ch} is not a piece figurine: with [Redefine \"FAN\"] pieces are written with figurines");
        }
        if let Some((kind, _)) = PieceKind::from_figurine(ch) {
            return format!(
                "{ch} is a FAN figurine but the record does not declare [Redefine \"FAN\"]: the {} is written {} / {}",
                kind.name(),
                self.letters[kind_index(kind)],
                self.letters[kind_index(kind)].to_ascii_lowercase()
            );
        }
        if ch.is_ascii_alphabetic() {
            let message = self.unknown_letter_message(ch.to_ascii_uppercase());
            return if ch.is_ascii_lowercase() {
                format!("{ch} (lower case for Black): {message}")
            } else {
                message
            };
        }
        let letters: String = self.letters.iter().collect();
        format!(
            "{ch} is not a piece character: a PDTL line holds digits for empty hexes and the letters {letters} (upper case White, lower case Black)"
        )
    }

    /// The character printed for a piece in a PDTL placement (and in `~` references).
    pub fn placement_char(&self, piece: Piece) -> char {
        if self.fan {
            return piece.kind.figurine(piece.side);
        }
        let letter = self.letters[kind_index(piece.kind)];
        match piece.side {
            Side::White => letter,
            Side::Black => letter.to_ascii_lowercase(),
        }
    }

    /// The character printed for a piece in a move: its upper-case letter, or in FAN mode
    /// the neutral white figurine (§15 item 7).
    pub fn move_identifier(&self, kind: PieceKind) -> char {
        if self.fan {
            kind.figurine(Side::White)
        } else {
            self.letters[kind_index(kind)]
        }
    }

    /// The Rook letter of castling tokens (§6.6): `R`, or `T` after `T@R`; FAN keeps `R`
    /// because castling is written with letters there.
    pub fn rook_identifier(&self) -> char {
        self.letter(PieceKind::Rook)
    }

    /// The characters of one side's castling status (§8.3): Rook and King, upper case for
    /// White and lower case for Black, or the figurines of the side in FAN mode.
    pub fn castling_chars(&self, side: Side) -> (char, char) {
        (
            self.placement_char(Piece::new(side, PieceKind::Rook)),
            self.placement_char(Piece::new(side, PieceKind::King)),
        )
    }
}

/// Why a `Redefine` value is refused (T022); the text says what is expected instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedefineError {
    /// `fan` or `Fan`: the value as written.
    FanCase(String),
    /// Nothing but spaces.
    Empty,
    /// Two commas in a row, or one at an end: the value as written.
    EmptyItem(String),
    /// An item that is no `X@Y` pair.
    NotAPair(String),
    /// A pair whose second letter is no standard piece letter.
    NotStandard { item: String, standard: char },
    /// A pair that makes H an identifier.
    NeverH(String),
    /// A pair the handbook does not allow for that piece.
    NotAllowed { item: String, kind: PieceKind, standard: char },
    /// A standard letter redefined by a second pair.
    Twice { standard: char, earlier: char, item: String },
}

impl std::fmt::Display for RedefineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RedefineError::FanCase(value) => {
                write!(f, "Redefine value {value} must be written FAN in upper case")
            }
            RedefineError::Empty => write!(
                f,
                "empty Redefine value: write FAN or pairs such as \"A@J, C@N, T@R\" (allowed: {ALLOWED_TEXT})"
            ),
            RedefineError::EmptyItem(value) => write!(
                f,
                "Redefine value {value:?} has an empty item: separate pairs X@Y with a comma and optional spaces"
            ),
            RedefineError::NotAPair(item) => write!(
                f,
                "{item:?} is not a redefinition: write pairs X@Y separated by \", \" (allowed: {ALLOWED_TEXT}), or FAN"
            ),
            RedefineError::NotStandard { item, standard } => write!(
                f,
                "{item}: {standard} is not a standard piece letter (P E J N G R V D K); allowed pairs: {ALLOWED_TEXT}"
            ),
            RedefineError::NeverH(item) => write!(
                f,
                "{item}: H is never an identifier (the Elephant, or Halberdier, is always written E); allowed pairs: {ALLOWED_TEXT}"
            ),
            RedefineError::NotAllowed { item, kind, standard } => {
                let own: Vec<String> = ALLOWED_PAIRS
                    .iter()
                    .filter(|(_, allowed)| allowed == kind)
                    .map(|(letter, _)| format!("{letter}@{standard}"))
                    .collect();
                if own.is_empty() {
                    write!(
                        f,
                        "{item}: the {} letter {standard} cannot be redefined; allowed pairs: {ALLOWED_TEXT}",
                        kind.name()
                    )
                } else {
                    write!(
                        f,
                        "{item} is not an allowed pair: the {} may be redefined as {}",
                        kind.name(),
                        own.join(" or ")
                    )
                }
            }
            RedefineError::Twice { standard, earlier, item } => write!(
                f,
                "{standard} is redefined twice ({earlier}@{standard} and {item}): each standard letter may be redefined at most once"
            ),
        }
    }
}

impl std::error::Error for RedefineError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redefine_values_of_the_handbook_are_accepted() {
        for value in [
            "A@J, C@N, T@R",
            "B@J, Q@D, W@V",
            "L@J, S@N, T@R, W@V",
            "F@J, C@N, T@R, W@V",
            "Q@D",
            "A@J,C@N",
        ] {
            assert!(IdentifierSet::from_redefine(value).is_ok(), "{value}");
        }
        let set = IdentifierSet::from_redefine("A@J, C@N, T@R").unwrap();
        assert_eq!(set.describe(), "P E A C G T V D K");
        assert!(IdentifierSet::from_redefine("FAN").unwrap().is_fan());
    }

    #[test]
    fn invalid_redefine_values_say_what_is_wrong() {
        let error = |value| IdentifierSet::from_redefine(value).unwrap_err().to_string();
        assert!(error("H@E").contains("H is never an identifier"));
        assert!(error("A@J, B@J").contains("J is redefined twice (A@J and B@J)"));
        assert!(error("T@R, T@R").contains("redefined twice"));
        assert!(error("Q@N").contains("the Knight may be redefined as C@N or S@N"));
        assert!(error("X@K").contains("cannot be redefined"));
        assert!(error("A@Y").contains("Y is not a standard piece letter"));
        assert!(error("fan").contains("upper case"));
        assert!(error("").contains("empty"));
        assert!(error("A@J ,C@N").contains("not a redefinition"));
        assert!(error(" A@J").contains("not a redefinition"));
        assert!(error("A@J,").contains("empty item"));
        assert!(error("AJ").contains("not a redefinition"));
    }

    #[test]
    fn move_identifiers_follow_the_active_letters() {
        let standard = IdentifierSet::standard();
        let read = |set: &IdentifierSet, ch| {
            set.read_move_identifier(ch, IdentifierRole::Moving, Side::White)
        };
        assert_eq!(read(&standard, 'J'), Ok(PieceKind::Bishop));
        assert_eq!(read(&standard, 'D'), Ok(PieceKind::Queen));
        assert_eq!(
            read(&standard, 'Q').unwrap_err(),
            "Q is not an identifier: without [Redefine \"Q@D\"] the Queen is written D"
        );
        assert!(read(&standard, 'H').unwrap_err().contains("written E"));
        assert!(read(&standard, 'Y').unwrap_err().contains("P E J N G R V D K"));
        assert!(read(&standard, 'j').unwrap_err().contains("lower case"));
        assert!(read(&standard, '\u{2658}').unwrap_err().contains("FAN"));

        let redefined = IdentifierSet::from_redefine("A@J, Q@D").unwrap();
        assert_eq!(read(&redefined, 'A'), Ok(PieceKind::Bishop));
        assert_eq!(read(&redefined, 'Q'), Ok(PieceKind::Queen));
        assert_eq!(
            read(&redefined, 'J').unwrap_err(),
            "J is invalidated by [Redefine \"A@J\"]: the Bishop is written A"
        );
        assert_eq!(
            read(&redefined, 'D').unwrap_err(),
            "D is invalidated by [Redefine \"Q@D\"]: the Queen is written Q"
        );
        assert!(read(&redefined, 'B').unwrap_err().contains("makes the Bishop A"));
        assert_eq!(redefined.move_identifier(PieceKind::Bishop), 'A');
        assert_eq!(redefined.rook_identifier(), 'R');
        assert_eq!(IdentifierSet::from_redefine("T@R").unwrap().rook_identifier(), 'T');
    }

    #[test]
    fn fan_figurines_may_be_neutral_or_of_the_true_colour() {
        let fan = IdentifierSet::fan();
        let white_knight = PieceKind::Knight.figurine(Side::White);
        let black_knight = PieceKind::Knight.figurine(Side::Black);
        for role in [IdentifierRole::Moving, IdentifierRole::Captured, IdentifierRole::Promotion] {
            for mover in [Side::White, Side::Black] {
                assert_eq!(
                    fan.read_move_identifier(white_knight, role, mover),
                    Ok(PieceKind::Knight)
                );
            }
        }
        let black = |role, mover| fan.read_move_identifier(black_knight, role, mover);
        assert_eq!(black(IdentifierRole::Moving, Side::Black), Ok(PieceKind::Knight));
        assert!(black(IdentifierRole::Moving, Side::White)
            .unwrap_err()
            .contains("write the neutral \u{2658}"));
        assert_eq!(black(IdentifierRole::Captured, Side::White), Ok(PieceKind::Knight));
        assert!(black(IdentifierRole::Captured, Side::Black).is_err());
        assert_eq!(black(IdentifierRole::Promotion, Side::Black), Ok(PieceKind::Knight));
        assert!(black(IdentifierRole::Promotion, Side::White).is_err());
        assert!(fan
            .read_move_identifier('N', IdentifierRole::Moving, Side::White)
            .unwrap_err()
            .contains("\u{2658}"));
        assert_eq!(fan.move_identifier(PieceKind::Pegasus), '\u{1FA50}');
        assert_eq!(fan.rook_identifier(), 'R');
    }

    #[test]
    fn placement_characters_carry_the_colour() {
        let standard = IdentifierSet::standard();
        assert_eq!(
            standard.read_placement_char('J'),
            Some(Piece::new(Side::White, PieceKind::Bishop))
        );
        assert_eq!(
            standard.read_placement_char('k'),
            Some(Piece::new(Side::Black, PieceKind::King))
        );
        assert_eq!(standard.read_placement_char('Q'), None);
        assert_eq!(standard.read_placement_char('3'), None);
        assert_eq!(standard.read_placement_char('\u{265A}'), None);
        let redefined = IdentifierSet::from_redefine("B@J, Q@D, W@V").unwrap();
        assert_eq!(
            redefined.read_placement_char('w'),
            Some(Piece::new(Side::Black, PieceKind::Wyvern))
        );
        assert_eq!(redefined.read_placement_char('j'), None);
        assert_eq!(redefined.placement_char(Piece::new(Side::Black, PieceKind::Queen)), 'q');
        let fan = IdentifierSet::fan();
        assert_eq!(
            fan.read_placement_char('\u{265A}'),
            Some(Piece::new(Side::Black, PieceKind::King))
        );
        assert_eq!(fan.read_placement_char('K'), None);
        assert_eq!(fan.placement_char(Piece::new(Side::White, PieceKind::Wyvern)), '\u{1FA4F}');
        assert!(standard.placement_char_problem('Q').contains("Q@D"));
        assert!(redefined.placement_char_problem('j').contains("invalidated"));
        for kind in PieceKind::ALL {
            for side in [Side::White, Side::Black] {
                for set in [&standard, &redefined, &fan] {
                    let piece = Piece::new(side, kind);
                    assert_eq!(set.read_placement_char(set.placement_char(piece)), Some(piece));
                }
            }
        }
    }
}
