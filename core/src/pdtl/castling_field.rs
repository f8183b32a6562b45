//! Reading PDTL field 3, castling and King's-leap status (handbook §8.3, §9.4): the syntax
//! (P012), the legacy forms of the reference implementation (P018) and the consistency of
//! the claimed rights with the placement (P013).

use super::Problems;
use crate::diagnostics::Code;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::{CastlingRights, Position};
use crate::text::TextRange;

/// Whether a character is one of the two hyphens the grammar accepts.
pub(super) fn is_hyphen(ch: char) -> bool {
    ch == '-' || ch == '\u{2010}'
}

/// The castling field as read: the rights of both sides and the text of each side's part
/// (empty for a part the legacy form left out), for messages.
#[derive(Debug)]
pub(super) struct CastlingField<'a> {
    pub rights: [CastlingRights; 2],
    pub parts: [&'a str; 2],
}

/// Which side a character of the castling field belongs to: case in letter mode, figurine
/// colour in FAN mode (§9.4 "Splitting").
fn side_of(ch: char, ids: &IdentifierSet) -> Option<Side> {
    if ids.is_fan() {
        PieceKind::from_figurine(ch).map(|(_, side)| side)
    } else if ch.is_ascii_uppercase() {
        Some(Side::White)
    } else if ch.is_ascii_lowercase() {
        Some(Side::Black)
    } else {
        None
    }
}

/// The four forms of a side's part besides the hyphen, in the record's identifiers.
fn forms(ids: &IdentifierSet, side: Side) -> [String; 4] {
    let (rook, king) = ids.castling_chars(side);
    [
        format!("{rook}{king}{rook}"),
        format!("{king}{rook}"),
        format!("{rook}{king}"),
        format!("{king}"),
    ]
}

/// Reads one side's part: a hyphen, or `RKR`, `KR`, `RK`, `K` in that side's characters.
fn read_part(part: &str, ids: &IdentifierSet, side: Side) -> Option<CastlingRights> {
    let mut chars = part.chars();
    if let (Some(first), None) = (chars.next(), chars.next()) {
        if is_hyphen(first) {
            return Some(CastlingRights::NONE);
        }
    }
    let [both, king_rook, queen_rook, king] = forms(ids, side);
    let rights = |queen_rook, king_rook| CastlingRights { king: true, queen_rook, king_rook };
    match part {
        _ if part == both => Some(rights(true, true)),
        _ if part == king_rook => Some(rights(false, true)),
        _ if part == queen_rook => Some(rights(true, false)),
        _ if part == king => Some(rights(false, false)),
        _ => None,
    }
}

/// Reads the castling field at `field`. Returns `None` after a P012.
pub(super) fn read_castling<'a>(
    text: &'a str,
    field: TextRange,
    ids: &IdentifierSet,
    problems: &mut Problems,
) -> Option<CastlingField<'a>> {
    let written = &text[field];
    let mut chars = written.chars();
    if let (Some(first), None) = (chars.next(), chars.next()) {
        if is_hyphen(first) {
            problems.warning(
                Code::P018,
                field,
                format!("legacy castling field {written}: write -- (both Kings have moved; each side has its own part)"),
            );
            return Some(CastlingField { rights: [CastlingRights::NONE; 2], parts: ["", ""] });
        }
    }

    // White's part is a single leading hyphen or the longest run of White's characters.
    let split = match written.chars().next() {
        Some(first) if is_hyphen(first) => first.len_utf8(),
        _ => written
            .char_indices()
            .find(|&(_, ch)| side_of(ch, ids) != Some(Side::White))
            .map_or(written.len(), |(offset, _)| offset),
    };
    let parts = [&written[..split], &written[split..]];

    let mut rights = [CastlingRights::NONE; 2];
    let mut wrong = Vec::new();
    for side in [Side::White, Side::Black] {
        let part = parts[side.index()];
        if part.is_empty() {
            continue;
        }
        match read_part(part, ids, side) {
            Some(read) => rights[side.index()] = read,
            None => {
                let [both, king_rook, queen_rook, king] = forms(ids, side);
                wrong.push(format!(
                    "{}'s part {part} is not {both}, {king_rook}, {queen_rook}, {king} or -",
                    side.name()
                ));
            }
        }
    }
    if !wrong.is_empty() {
        let [white, ..] = forms(ids, Side::White);
        let [black, ..] = forms(ids, Side::Black);
        problems.error(
            Code::P012,
            field,
            format!(
                "castling field {written}: {}; expected White's part then Black's part, e.g. {white}{black}, {white}-, --",
                wrong.join(", ")
            ),
        );
        return None;
    }
    for side in [Side::White, Side::Black] {
        if parts[side.index()].is_empty() {
            let canonical = super::print::castling_text(rights, ids);
            problems.warning(
                Code::P018,
                field,
                format!(
                    "legacy castling field {written}: {}'s part is missing; write {canonical} ({}'s King has moved)",
                    side.name(),
                    side.name()
                ),
            );
        }
    }
    Some(CastlingField { rights, parts })
}

/// The home hexes of a side (§8.1): King, Queen's Rook, King's Rook.
fn home_hexes(side: Side) -> [Hex; 3] {
    let hex = |letter, line: u8| {
        let line = match side {
            Side::White => line,
            Side::Black => 28 - line,
        };
        Hex::from_letter(letter, line).expect("home hexes are on the board")
    };
    [hex('G', 1), hex('C', 3), hex('I', 3)]
}

/// What stands on a hex, for messages: "is empty" or "holds a Black Knight".
fn contents(position: &Position, hex: Hex) -> String {
    match position.get(hex) {
        None => format!("{hex} is empty"),
        Some(piece) => format!("{hex} holds a {} {}", piece.side.name(), piece.kind.name()),
    }
}

/// P013: every claimed right needs its piece on its home hex. One problem per side, with the
/// part the placement allows at most as the suggestion.
pub(super) fn check_castling(
    position: &Position,
    field: &CastlingField<'_>,
    range: TextRange,
    ids: &IdentifierSet,
    problems: &mut Problems,
) {
    for side in [Side::White, Side::Black] {
        let claimed = field.rights[side.index()];
        if !claimed.king {
            continue;
        }
        let part = field.parts[side.index()];
        let [king_home, queen_rook_home, king_rook_home] = home_hexes(side);
        let king = Piece::new(side, PieceKind::King);
        let rook = Piece::new(side, PieceKind::Rook);
        if position.get(king_home) != Some(king) {
            problems.error(
                Code::P013,
                range,
                format!(
                    "castling field {part} claims {}'s King is unmoved but {} (King moved: should be -)",
                    side.name(),
                    contents(position, king_home)
                ),
            );
            continue;
        }
        let queen_rook_ok = position.get(queen_rook_home) == Some(rook);
        let king_rook_ok = position.get(king_rook_home) == Some(rook);
        let mut claims = Vec::new();
        let mut facts = Vec::new();
        if claimed.queen_rook && !queen_rook_ok {
            claims.push("Queen's Rook");
            facts.push(contents(position, queen_rook_home));
        }
        if claimed.king_rook && !king_rook_ok {
            claims.push("King's Rook");
            facts.push(contents(position, king_rook_home));
        }
        if claims.is_empty() {
            continue;
        }
        let moved = if claims.len() == 2 {
            "both Rooks moved".to_string()
        } else {
            format!("{} moved", claims[0])
        };
        let allowed =
            CastlingRights { king: true, queen_rook: queen_rook_ok, king_rook: king_rook_ok };
        let mut suggestion = String::with_capacity(12);
        super::print::write_castling_part(allowed, ids, side, &mut suggestion);
        problems.error(
            Code::P013,
            range,
            format!(
                "castling field {part} claims {}'s {} but {} ({moved}: should be {suggestion})",
                side.name(),
                claims.join(" and "),
                facts.join(" and ")
            ),
        );
    }
}
