//! Printing a position as a canonical PDTL (handbook §9.1 "Printing"): six fields, single
//! spaces, U+002D for every hyphen, crossed lines ascending, `?` only for an unknown move number.
//!
//! The PDTL is printed after every ply of a replay and on hovers, so printing writes into one
//! `String` reserved up front and never builds intermediate strings.

use crate::geometry::ALL_HEXES;
use crate::identifiers::IdentifierSet;
use crate::pieces::Side;
use crate::position::{CastlingRights, Position, SpecialCapture};

/// Bytes reserved for a PDTL: the placement of the initial position takes 146 bytes with
/// letters; figurines take three or four bytes each.
fn capacity(ids: &IdentifierSet) -> usize {
    if ids.is_fan() {
        448
    } else {
        192
    }
}

/// The canonical PDTL of a position, with the identifiers of `ids`.
pub fn print(position: &Position, ids: &IdentifierSet) -> String {
    let mut out = String::with_capacity(capacity(ids));
    write_pdtl(position, ids, &mut out);
    out
}

/// Appends the canonical PDTL of a position to `out`.
pub fn write_pdtl(position: &Position, ids: &IdentifierSet, out: &mut String) {
    write_placement(position, ids, out);
    out.push(' ');
    out.push(position.turn.letter());
    out.push(' ');
    write_castling(position, ids, out);
    out.push(' ');
    write_special(&position.special, out);
    out.push(' ');
    push_number(out, position.halfmove_clock);
    out.push(' ');
    match position.move_number {
        Some(number) => push_number(out, number),
        None => out.push('?'),
    }
}

/// Appends field 1 (§9.2): lines 28 to 0, each line with a piece as `l:` then its cells and
/// `/`, a digit for each maximal run of empty hexes; the whole prefixed with `/`.
pub fn write_placement(position: &Position, ids: &IdentifierSet, out: &mut String) {
    out.push('/');
    // `ALL_HEXES` is already in PDTL order, so the lines come one after the other.
    let mut index = 0;
    while index < ALL_HEXES.len() {
        let line = ALL_HEXES[index].line();
        let line_start = out.len();
        push_number(out, u32::from(line));
        out.push(':');
        let mut empty_run = 0u8;
        let mut any_piece = false;
        while index < ALL_HEXES.len() && ALL_HEXES[index].line() == line {
            match position.get(ALL_HEXES[index]) {
                Some(piece) => {
                    if empty_run > 0 {
                        out.push(char::from(b'0' + empty_run));
                        empty_run = 0;
                    }
                    out.push(ids.placement_char(piece));
                    any_piece = true;
                }
                None => empty_run += 1,
            }
            index += 1;
        }
        if any_piece {
            if empty_run > 0 {
                out.push(char::from(b'0' + empty_run));
            }
            out.push('/');
        } else {
            // Lines without pieces are omitted: take back the line number just written.
            out.truncate(line_start);
        }
    }
}

/// Appends field 3 (§8.3, §9.4): White's part then Black's part.
pub fn write_castling(position: &Position, ids: &IdentifierSet, out: &mut String) {
    for side in [Side::White, Side::Black] {
        write_castling_part(position.castling[side.index()], ids, side, out);
    }
}

/// The castling field of both sides' rights, e.g. `RKR-`.
pub fn castling_text(rights: [CastlingRights; 2], ids: &IdentifierSet) -> String {
    let mut out = String::with_capacity(16);
    for side in [Side::White, Side::Black] {
        write_castling_part(rights[side.index()], ids, side, &mut out);
    }
    out
}

/// One side's castling status: `-` when the King has moved, else `R?` `K` `R?`.
pub fn write_castling_part(
    rights: CastlingRights,
    ids: &IdentifierSet,
    side: Side,
    out: &mut String,
) {
    if !rights.king {
        out.push('-');
        return;
    }
    let (rook, king) = ids.castling_chars(side);
    if rights.queen_rook {
        out.push(rook);
    }
    out.push(king);
    if rights.king_rook {
        out.push(rook);
    }
}

/// Appends field 4 (§9.5): `-`, `G15@13`, `G13@9-11` (lines ascending) or the scornful hex.
pub fn write_special(special: &SpecialCapture, out: &mut String) {
    match special {
        SpecialCapture::None => out.push('-'),
        SpecialCapture::EnPassant { piece, crossed } => {
            push_hex(out, *piece);
            out.push('@');
            let mut lines = [0u8; 2];
            let count = crossed.len().min(2);
            for (slot, hex) in lines.iter_mut().zip(crossed.iter()) {
                *slot = hex.line();
            }
            lines[..count].sort_unstable();
            for (i, line) in lines[..count].iter().enumerate() {
                if i > 0 {
                    out.push('-');
                }
                push_number(out, u32::from(*line));
            }
        }
        SpecialCapture::Scornful { piece, .. } => push_hex(out, *piece),
    }
}

fn push_hex(out: &mut String, hex: crate::geometry::Hex) {
    out.push(hex.column_letter());
    push_number(out, u32::from(hex.line()));
}

/// Appends a decimal number without going through the formatting machinery.
fn push_number(out: &mut String, mut number: u32) {
    let mut digits = [0u8; 10];
    let mut count = 0;
    loop {
        digits[count] = b'0' + (number % 10) as u8;
        count += 1;
        number /= 10;
        if number == 0 {
            break;
        }
    }
    for &digit in digits[..count].iter().rev() {
        out.push(char::from(digit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Hex;
    use crate::pieces::{Piece, PieceKind};

    const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

    fn hex(name: &str) -> Hex {
        crate::geometry::parse_coordinate(name).expect("a hex of the board")
    }

    /// Plays a displacement by hand: the piece on `from` goes to `to`, whatever stood there goes.
    fn shift(position: &mut Position, from: &str, to: &str) {
        let piece = position.get(hex(from));
        position.set(hex(from), None);
        position.set(hex(to), piece);
    }

    #[test]
    fn the_initial_position_prints_in_all_four_spellings() {
        let initial = Position::initial();
        assert_eq!(print(&initial, &IdentifierSet::standard()), INITIAL);
        assert_eq!(
            print(&initial, &IdentifierSet::from_redefine("B@J, Q@D, W@V").unwrap()),
            "/28:w/27:qk/26:gbg/25:rnnr/24:pebep/23:ppeepp/22:2pbp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PBP2/5:PPEEPP/4:PEBEP/3:RNNR/2:GBG/1:QK/0:W/ w RKRrkr - 0 1"
        );
        assert_eq!(
            print(&initial, &IdentifierSet::from_redefine("A@J, C@N, T@R").unwrap()),
            "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1"
        );
        assert_eq!(
            print(&initial, &IdentifierSet::fan()),
            "/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞♞♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:3♟♟3/20:3♟3/8:3♙3/7:3♙♙3/6:2♙♗♙2/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 0 1"
        );
    }

    #[test]
    fn the_worked_examples_of_section_9_8_print_exactly() {
        let ids = IdentifierSet::standard();
        let mut position = Position::initial();
        // 1. E7-E13 (triple step)
        shift(&mut position, "E7", "E13");
        position.turn = Side::Black;
        position.special =
            SpecialCapture::EnPassant { piece: hex("E13"), crossed: vec![hex("E9"), hex("E11")] };
        assert_eq!(
            print(&position, &ids),
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1"
        );
        // 1. …, E21-E15: the crossed lines are printed ascending although Black crossed 19 first.
        shift(&mut position, "E21", "E15");
        position.turn = Side::White;
        position.move_number = Some(2);
        position.special =
            SpecialCapture::EnPassant { piece: hex("E15"), crossed: vec![hex("E19"), hex("E17")] };
        assert_eq!(
            print(&position, &ids),
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr E15@17-19 0 2"
        );
        // 2. E13-F14 (scornful move)
        shift(&mut position, "E13", "F14");
        position.turn = Side::Black;
        position.special =
            SpecialCapture::Scornful { piece: hex("F14"), scorned: Some(hex("E15")) };
        assert_eq!(
            print(&position, &ids),
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/14:3P3/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F14 0 2"
        );
        // 2. …, E15@F14 (scornful capture)
        shift(&mut position, "E15", "F14");
        position.turn = Side::White;
        position.move_number = Some(3);
        position.special = SpecialCapture::None;
        assert_eq!(
            print(&position, &ids),
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/14:3p3/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 3"
        );
    }

    #[test]
    fn both_sides_castled_prints_two_hyphens() {
        let ids = IdentifierSet::standard();
        let mut position = Position::initial();
        for (from, to) in [
            ("H6", "H10"),
            ("H22", "H18"),
            ("I5", "I9"),
            ("I23", "I19"),
            ("H4", "H8"),
            ("H24", "H20"),
        ] {
            shift(&mut position, from, to);
        }
        // 4. KRK-HIOO, KRK-HIO
        shift(&mut position, "G1", "H6");
        shift(&mut position, "I3", "I7");
        shift(&mut position, "G27", "H22");
        shift(&mut position, "I25", "I23");
        position.castling = [CastlingRights::NONE; 2];
        position.halfmove_clock = 4;
        position.move_number = Some(5);
        assert_eq!(
            print(&position, &ids),
            "/28:v/27:d1/26:gjg/25:rnn1/24:pej1p/23:ppeerp/22:2pjk2/21:3pp3/20:3pe2/19:5p2/18:4p2/10:4P2/9:5P2/8:3PE2/7:3PPR2/6:2PJK2/5:PPEE1P/4:PEJ1P/3:RNN1/2:GJG/1:D1/0:V/ w -- - 4 5"
        );
    }

    #[test]
    fn castling_parts_and_unknown_move_numbers() {
        let mut position = Position::empty();
        position.set(hex("G1"), Some(Piece::new(Side::White, PieceKind::King)));
        position.set(hex("G27"), Some(Piece::new(Side::Black, PieceKind::King)));
        position.castling = [
            CastlingRights { king: true, queen_rook: false, king_rook: true },
            CastlingRights { king: true, queen_rook: true, king_rook: false },
        ];
        position.move_number = None;
        position.halfmove_clock = 120;
        let printed = print(&position, &IdentifierSet::from_redefine("T@R").unwrap());
        assert_eq!(printed, "/27:1k/1:1K/ w KTtk - 120 ?");
        position.castling[1] = CastlingRights::NONE;
        assert!(print(&position, &IdentifierSet::fan()).ends_with(" w \u{2654}\u{2656}- - 120 ?"));
    }
}
