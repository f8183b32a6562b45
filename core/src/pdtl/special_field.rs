//! Reading PDTL field 4, the special-capture field (handbook §9.5): en passant `G15@13` /
//! `G13@9-11`, the scornful pawn `F14`, the syntax (P014), the implementation's legacy forms
//! (P019) and the consistency with the placement and the turn (P015).

use super::castling_field::is_hyphen;
use super::Problems;
use crate::diagnostics::Code;
use crate::geometry::{parse_coordinate, Hex, LAST_LINE};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::{Position, SpecialCapture};
use crate::text::TextRange;

/// The special-capture field as written, before it is checked against the board: the crossed
/// lines are kept as numbers because a wrong line may name no hex of the column at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum WrittenSpecial {
    None,
    /// The piece's hex and the one or two crossed lines, in the order written.
    EnPassant {
        piece: Hex,
        lines: Vec<u8>,
    },
    Scornful {
        piece: Hex,
    },
}

impl WrittenSpecial {
    /// The field as a position holds it (only after [`special_problem`] found nothing, so
    /// every crossed line names a hex of the piece's column).
    pub(super) fn to_special(&self) -> SpecialCapture {
        match self {
            WrittenSpecial::None => SpecialCapture::None,
            WrittenSpecial::EnPassant { piece, lines } => {
                let mut lines = lines.clone();
                lines.sort_unstable();
                SpecialCapture::EnPassant {
                    piece: *piece,
                    crossed: lines
                        .iter()
                        .filter_map(|&line| Hex::from_letter(piece.column_letter(), line))
                        .collect(),
                }
            }
            WrittenSpecial::Scornful { piece } => {
                SpecialCapture::Scornful { piece: *piece, scorned: None }
            }
        }
    }

    /// The field of a position, for checking a position built elsewhere.
    pub(super) fn from_special(special: &SpecialCapture) -> WrittenSpecial {
        match special {
            SpecialCapture::None => WrittenSpecial::None,
            SpecialCapture::EnPassant { piece, crossed } => WrittenSpecial::EnPassant {
                piece: *piece,
                lines: crossed.iter().map(|hex| hex.line()).collect(),
            },
            SpecialCapture::Scornful { piece, .. } => WrittenSpecial::Scornful { piece: *piece },
        }
    }

    /// The canonical text, for suggestions in messages; unlike printing a position it
    /// keeps lines that name no hex.
    fn canonical(&self) -> String {
        match self {
            WrittenSpecial::None => "-".to_string(),
            WrittenSpecial::EnPassant { piece, lines } => {
                let mut sorted = lines.clone();
                sorted.sort_unstable();
                let lines: Vec<String> = sorted.iter().map(u8::to_string).collect();
                format!("{piece}@{}", lines.join("-"))
            }
            WrittenSpecial::Scornful { piece } => piece.to_string(),
        }
    }
}

/// Reads a hex written in the field. Unlike the lenient reading of moves, a lower-case column
/// letter is refused here: nothing else reports it in a PDTL.
fn read_hex(text: &str) -> Result<Hex, String> {
    if text.starts_with(|ch: char| ch.is_ascii_lowercase()) {
        return Err(format!(
            "{text} has a lower-case column letter: column letters are upper case"
        ));
    }
    parse_coordinate(text).map_err(|error| error.message)
}

/// Reads a crossed line: digits without a leading zero, 0 to 28.
fn read_line(text: &str) -> Option<u8> {
    if text.is_empty()
        || !text.bytes().all(|b| b.is_ascii_digit())
        || (text.len() > 1 && text.starts_with('0'))
    {
        return None;
    }
    text.parse::<u8>().ok().filter(|&line| line <= LAST_LINE)
}

/// Reads the special-capture field at `field`. Returns `None` after a P014.
pub(super) fn read_special(
    text: &str,
    field: TextRange,
    problems: &mut Problems,
) -> Option<WrittenSpecial> {
    let written = &text[field];
    let syntax = |problems: &mut Problems, why: String| {
        problems.error(
            Code::P014,
            field,
            format!("special-capture field {written}: {why}; expected -, HEX@l (G15@13), HEX@l-l (G13@9-11) or HEX (F14)"),
        );
        None
    };
    let mut chars = written.chars();
    let first = chars.next();
    if let (Some(first), None) = (first, chars.clone().next()) {
        if is_hyphen(first) {
            return Some(WrittenSpecial::None);
        }
    }
    if matches!(first, Some('P' | 'p' | '\u{2659}' | '\u{265F}')) && chars.next() == Some('@') {
        return read_legacy_en_passant(written, field, problems)
            .or_else(|| syntax(problems, "the legacy form is P@HEX,l[HEX]".to_string()));
    }
    let Some((before, after)) = written.split_once('@') else {
        return match read_hex(written) {
            Ok(piece) => Some(WrittenSpecial::Scornful { piece }),
            Err(message) => syntax(problems, message),
        };
    };
    if before.is_empty() {
        return syntax(problems, "the hex of the pawn is missing before @".to_string());
    }
    let piece = match read_hex(before) {
        Ok(piece) => piece,
        Err(message) => return syntax(problems, message),
    };
    if after.is_empty() {
        return syntax(problems, "the crossed line is missing after @".to_string());
    }
    if after.starts_with(|ch: char| ch.is_ascii_uppercase()) {
        // The implementation's scornful form: scorned pawn's hex @ scornful pawn's hex.
        let scornful = match read_hex(after) {
            Ok(hex) => hex,
            Err(message) => return syntax(problems, message),
        };
        problems.warning(
            Code::P019,
            field,
            format!("legacy special-capture field {written}: write {scornful} (the hex of the scornful pawn alone)"),
        );
        return Some(WrittenSpecial::Scornful { piece: scornful });
    }
    let (first_line, second_line) = match after.char_indices().find(|&(_, ch)| is_hyphen(ch)) {
        Some((offset, hyphen)) => (&after[..offset], Some(&after[offset + hyphen.len_utf8()..])),
        None => (after, None),
    };
    let mut lines = Vec::with_capacity(2);
    match read_line(first_line) {
        Some(line) => lines.push(line),
        None => {
            return syntax(
                problems,
                format!("{first_line} is not a line number 0-28 without leading zero"),
            )
        }
    }
    if let Some(second) = second_line {
        if second.is_empty() {
            return syntax(
                problems,
                "the second crossed line is missing after the hyphen".to_string(),
            );
        }
        match read_line(second) {
            Some(line) => lines.push(line),
            None => {
                return syntax(
                    problems,
                    format!("{second} is not a line number 0-28 without leading zero"),
                )
            }
        }
    }
    Some(WrittenSpecial::EnPassant { piece, lines })
}

/// Reads the implementation's en passant form `P@G9,11[G13]`: the first crossed hex, the
/// optional second crossed line, then the pawn's hex in brackets.
fn read_legacy_en_passant(
    written: &str,
    field: TextRange,
    problems: &mut Problems,
) -> Option<WrittenSpecial> {
    let (_, rest) = written.split_once('@')?;
    let (crossed, bracket) = rest.split_once('[')?;
    let piece = read_hex(bracket.strip_suffix(']')?).ok()?;
    let (first_hex, second_line) = match crossed.split_once(',') {
        Some((hex, line)) => (hex, Some(read_line(line)?)),
        None => (crossed, None),
    };
    let first = read_hex(first_hex).ok()?;
    if first.column() != piece.column() {
        return None;
    }
    let mut lines = vec![first.line()];
    lines.extend(second_line);
    let special = WrittenSpecial::EnPassant { piece, lines };
    problems.warning(
        Code::P019,
        field,
        format!("legacy special-capture field {written}: write {}", special.canonical()),
    );
    Some(special)
}

/// Why a special-capture field does not fit the position (P015, §9.5), or `None` when it
/// does. The position's turn is the side to move; the field names a piece of the other side.
pub(super) fn special_problem(position: &Position, special: &WrittenSpecial) -> Option<String> {
    let (hex, lines) = match special {
        WrittenSpecial::None => return None,
        WrittenSpecial::EnPassant { piece, lines } => (*piece, Some(lines)),
        WrittenSpecial::Scornful { piece } => (*piece, None),
    };
    let turn = position.turn;
    let owner = turn.opponent();
    match position.get(hex) {
        None => {
            return Some(format!(
                "{hex} is empty: it should hold the {} pawn that has just moved (or the piece it promoted to)",
                owner.name()
            ))
        }
        Some(piece) if piece.side != owner => {
            return Some(format!(
                "{hex} holds a {} {} but {} is to move: the field names a piece of {}, who has just moved",
                piece.side.name(),
                piece.kind.name(),
                turn.name(),
                owner.name()
            ))
        }
        Some(piece) if piece.kind != PieceKind::Pawn && !hex.is_promotion_hex(owner) => {
            return Some(format!(
                "{hex} holds a {} {}: the field names a pawn, or the piece it promoted to on its promotion hex",
                owner.name(),
                piece.kind.name()
            ))
        }
        Some(_) => {}
    }
    let forward = owner.forward();
    match lines {
        Some(lines) => en_passant_problem(position, hex, lines, forward),
        None => scornful_problem(position, hex, owner, forward),
    }
}

/// The en passant form: the lines are exactly those between the piece and its origin, and the
/// crossed hexes and the origin exist and are empty.
fn en_passant_problem(position: &Position, hex: Hex, lines: &[u8], forward: i16) -> Option<String> {
    let steps = lines.len() as i16;
    let step_name = if steps == 1 { "double" } else { "triple" };
    let mut written: Vec<i16> = lines.iter().map(|&line| i16::from(line)).collect();
    written.sort_unstable();
    let mut expected: Vec<i16> =
        (1..=steps).map(|i| i16::from(hex.line()) - 2 * i * forward).collect();
    expected.sort_unstable();
    if written != expected {
        let expected_text: Vec<String> = expected.iter().map(i16::to_string).collect();
        return Some(format!(
            "a pawn now on {hex} that made a {step_name} step crossed line{} {}, not {}",
            if steps == 1 { "" } else { "s" },
            expected_text.join("-"),
            written.iter().map(i16::to_string).collect::<Vec<_>>().join("-")
        ));
    }
    for i in 1..=steps + 1 {
        let role = if i == steps + 1 { "the origin" } else { "the crossed hex" };
        match hex.offset(0, -2 * i * forward) {
            None => {
                return Some(format!(
                    "a pawn now on {hex} cannot have made a {step_name} step: {role} would be off the board"
                ))
            }
            Some(behind) if position.get(behind).is_some() => {
                return Some(format!(
                    "a pawn now on {hex} cannot have made a {step_name} step: {role} {behind} is occupied"
                ))
            }
            Some(_) => {}
        }
    }
    None
}

/// The scornful form (§9.5): beside the piece, one column away, the hex it came from is empty
/// and a pawn of the side to move stands in front of that hex.
fn scornful_problem(position: &Position, hex: Hex, owner: Side, forward: i16) -> Option<String> {
    let scorner = Piece::new(owner.opponent(), PieceKind::Pawn);
    let mut origins = Vec::with_capacity(2);
    let mut facing = Vec::with_capacity(2);
    for delta_column in [-1, 1] {
        let (Some(origin), Some(scorned)) =
            (hex.offset(delta_column, -forward), hex.offset(delta_column, forward))
        else {
            continue;
        };
        if position.get(origin).is_none() && position.get(scorned) == Some(scorner) {
            return None;
        }
        origins.push(origin.to_string());
        facing.push(scorned.to_string());
    }
    if origins.is_empty() {
        return Some(format!("{hex} cannot hold a scornful pawn: no hex beside it can be the origin of a scornful move"));
    }
    Some(format!(
        "{hex} cannot hold a scornful pawn: it needs an empty origin ({}) with a {} pawn in front of it ({})",
        origins.join(" or "),
        owner.opponent().name(),
        facing.join(" or ")
    ))
}
