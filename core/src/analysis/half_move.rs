//! Reading a written half-move into a [`Move`] with the syntax (S) and coordinate (C) checks of
//! §6 and §14.1-14.2. Recoverable spellings (`x`, look-alike dashes, `^+`, a written `P`) are
//! reported and read as corrected (§13.1); the others make the half-move unreadable.

use crate::castling;
use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::geometry::{parse_coordinate, Hex};
use crate::identifiers::{IdentifierRole, IdentifierSet};
use crate::notation::{CastlingToken, Check, Move, PieceMove, Promotion, Separator};
use crate::pieces::{PieceKind, Side};
use crate::syntax::chars::{is_line_end, is_space_or_tab, is_white_space};
use crate::syntax::{Gap, HalfMoveText, Token};
use crate::text::TextRange;

/// What reading a half-move gave.
#[derive(Debug)]
pub struct ReadHalfMove {
    /// The move, or the coherence error (K020, an unknown castling token) that only a replay of
    /// this line reports.
    pub reading: Option<Result<Move, (Code, String)>>,
    /// Whether the half-move ends its line of play (`:` or `#`).
    pub end_mark: bool,
    pub mate: bool,
    /// The check suffix as written (`^+` read as `+^`).
    pub check: Option<Check>,
    /// S and C findings, reported whether or not the line is replayed.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads one half-move of `mover`.
pub fn read_half_move(
    text: &str,
    half_move: &HalfMoveText,
    ids: &IdentifierSet,
    mover: Side,
) -> ReadHalfMove {
    let mut diagnostics = Vec::new();
    let check = half_move.check.as_ref().map(|token| read_check(text, token, &mut diagnostics));
    read_annotations(text, half_move, &mut diagnostics);
    let mate = check == Some(Check::Mate);
    let end_mark =
        mate || half_move.indicator.as_ref().is_some_and(|token| token.text(text).ends_with(':'));
    let apart = half_move.apart.then(|| half_move.written_apart(text)).flatten();
    let reading = match apart {
        Some(gap) if !half_move.has_error => {
            diagnostics.push(written_apart(text, half_move, &gap));
            None
        }
        _ => read_move(text, half_move, ids, mover, &mut diagnostics),
    };
    // A malformed half-move claims no mate: the result line is not judged against it (M018).
    let mate = mate && reading.is_some();
    ReadHalfMove { reading, end_mark, mate, check, diagnostics }
}

/// S004 for a half-move whose parts stand apart (§6.1: a move token holds no blanks, and its
/// annotations follow on its line), from its first character to the part after the gap.
fn written_apart(text: &str, half_move: &HalfMoveText, gap: &Gap) -> Diagnostic {
    let between = &text[gap.range];
    let what = if between.contains(is_line_end) {
        "a line end".to_string()
    } else if let Some(other) = between.chars().find(|&c| !is_space_or_tab(c)) {
        format!("the invisible character U+{:04X}", u32::from(other))
    } else {
        "a blank".to_string()
    };
    let after = &text[gap.range.end..half_move.range.end];
    let next_part = after.split(is_white_space).next().unwrap_or("");
    let range = TextRange::new(half_move.range.start, gap.range.end + next_part.len());
    let message = if gap.before_annotations {
        let written = &text[half_move.range.start..gap.range.start];
        let space = if next_part == ":" { "" } else { " " };
        format!("{what} between the half-move {written} and its annotation ({next_part}): the annotation follows on the half-move's line, as in {written}{space}{next_part}")
    } else {
        let joined: String = text[half_move.range.start..range.end]
            .chars()
            .filter(|&c| !is_white_space(c))
            .collect();
        format!("{what} inside the move: a move token is written without blanks, as {joined}")
    };
    Diagnostic::new(Code::S004, range, message)
}

fn read_check(text: &str, token: &Token, diagnostics: &mut Vec<Diagnostic>) -> Check {
    match token.text(text) {
        "+\u{221E}" => Check::FromAfar,
        "+^" => Check::Adjoining,
        "^+" => {
            diagnostics.push(
                Diagnostic::new(
                    Code::S010,
                    token.range,
                    "legacy check suffix ^+: write +^ (adjoining or knight-jump check)",
                )
                .with_fix(Fix::replace("Write +^", token.range, "+^")),
            );
            Check::Adjoining
        }
        "++" => Check::Double,
        "#" => Check::Mate,
        _ => Check::Plain,
    }
}

const RATINGS: [&str; 7] = ["?", "??", "?!", "!", "!!", "!?", "\u{25C7}"];
const INDICATORS: [&str; 3] = [":", "(=)", "(=):"];

fn read_annotations(text: &str, half_move: &HalfMoveText, diagnostics: &mut Vec<Diagnostic>) {
    if let Some(nag) = &half_move.nag {
        let nag_text = nag.text(text);
        let advice = match nag_symbol(nag_text) {
            Some(symbol) => format!("write {symbol}"),
            None => "NAGs belong in comments".to_string(),
        };
        let mut diagnostic = Diagnostic::new(
            Code::S008,
            nag.range,
            format!("NAG {nag_text} in movetext: ratings are written as symbols; {advice}"),
        );
        // The symbol takes the NAG's place when the half-move has no rating yet, one space
        // after the move as the handbook writes a rating (§6.8) and `fmt` lays it out; a NAG
        // without a symbol has no obvious replacement.
        if let (Some(symbol), None) = (nag_symbol(nag_text), &half_move.rating) {
            let space_before = nag.range.start - text[..nag.range.start].trim_end().len();
            diagnostic = diagnostic.with_fix(Fix::replace(
                format!("Write {symbol}"),
                TextRange::new(nag.range.start - space_before, nag.range.end),
                format!(" {symbol}"),
            ));
        }
        diagnostics.push(diagnostic);
    }
    if let Some(rating) = &half_move.rating {
        let rating_text = rating.text(text);
        if !RATINGS.contains(&rating_text) {
            diagnostics.push(Diagnostic::new(
                Code::S009,
                rating.range,
                format!("{rating_text} is not a rating: expected one of ? ?? ?! ! !! !? \u{25C7}"),
            ));
        }
    }
    if let Some(indicator) = &half_move.indicator {
        let indicator_text = indicator.text(text);
        if !INDICATORS.contains(&indicator_text) {
            diagnostics.push(Diagnostic::new(
                Code::S009,
                indicator.range,
                format!("{indicator_text} is not a game indicator: expected (=), : or (=):"),
            ));
        }
    }
}

/// The rating symbol of the NAGs $1-$7 (§6.8).
pub fn nag_symbol(nag: &str) -> Option<&'static str> {
    match nag {
        "$1" => Some("!"),
        "$2" => Some("?"),
        "$3" => Some("!!"),
        "$4" => Some("??"),
        "$5" => Some("!?"),
        "$6" => Some("?!"),
        "$7" => Some("\u{25C7}"),
        _ => None,
    }
}

/// The first character of a token.
fn first_char(text: &str, token: &Token) -> char {
    token.text(text).chars().next().unwrap_or(' ')
}

/// Whether a token holds an ASCII lower-case letter: read byte by byte, as no byte of a
/// character beyond ASCII is one, and this is asked of every part of every half-move.
fn has_lower_case(text: &str, token: &Option<Token>) -> bool {
    token.as_ref().is_some_and(|t| text.as_bytes()[t.range].iter().any(u8::is_ascii_lowercase))
}

fn read_move(
    text: &str,
    half_move: &HalfMoveText,
    ids: &IdentifierSet,
    mover: Side,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Result<Move, (Code, String)>> {
    let start = half_move.range.start;
    // The move as written, for the messages only.
    let whole = || &text[half_move.range.start..half_move.move_end()];
    if half_move.has_error {
        let written = &text[half_move.range];
        let shown: String =
            written.chars().map(|c| if is_white_space(c) { ' ' } else { c }).collect();
        let blanks = if shown.contains(' ') { "; a move token holds no blanks" } else { "" };
        diagnostics.push(Diagnostic::new(
            Code::S004,
            half_move.range,
            format!("{shown} is not a CTL-AN move: expected [piece]origin-separator-[captured]destination{blanks}"),
        ));
        return None;
    }
    let lower = [
        &half_move.piece,
        &half_move.origin,
        &half_move.captured,
        &half_move.destination,
        &half_move.castling,
        &half_move.promotion,
    ]
    .into_iter()
    .any(|token| has_lower_case(text, token));
    if lower {
        diagnostics.push(Diagnostic::new(
            Code::S007,
            TextRange::new(start, half_move.move_end()),
            format!(
                "lower-case letters in the move {}: pieces and columns are written in upper case",
                whole()
            ),
        ));
        return None;
    }
    if let Some(castling) = &half_move.castling {
        return read_castling(text, castling, ids, diagnostics);
    }
    let destination = half_move.destination.as_ref()?;
    let Some(origin) = &half_move.origin else {
        // The forced promotion of an awaiting pawn: `T22=R`.
        let hex = half_move.destination_hex.or_else(|| read_hex(text, destination, diagnostics))?;
        let promotion = half_move.promotion.as_ref()?;
        return match read_promotion(text, promotion, ids, mover, diagnostics)? {
            Promotion::To(piece) => Some(Ok(Move::ForcedPromotion { hex, piece })),
            Promotion::Awaiting => {
                diagnostics.push(Diagnostic::new(
                    Code::S004,
                    half_move.range,
                    format!("{}: a forced promotion names the piece, as in T22=R", whole()),
                ));
                None
            }
        };
    };

    let mut readable = true;
    let piece = match &half_move.piece {
        None => PieceKind::Pawn,
        Some(token) => {
            let letter = first_char(text, token);
            if letter == 'P'
                || letter == PieceKind::Pawn.figurine(Side::White)
                || letter == PieceKind::Pawn.figurine(Side::Black)
            {
                let rest = &text[token.range.end..half_move.move_end()];
                diagnostics.push(Diagnostic::new(
                    Code::S013,
                    token.range,
                    format!("pawn letter {letter} written: pawn moves name no piece; move read as {rest}"),
                ));
                PieceKind::Pawn
            } else {
                match ids.read_move_identifier(letter, IdentifierRole::Moving, mover) {
                    Ok(kind) => kind,
                    Err(message) => {
                        diagnostics.push(Diagnostic::new(Code::S012, token.range, message));
                        readable = false;
                        PieceKind::Pawn
                    }
                }
            }
        }
    };
    // Read with the syntax where valid; judged here where not.
    let origin_hex = half_move.origin_hex.or_else(|| read_hex(text, origin, diagnostics));
    let destination_hex =
        half_move.destination_hex.or_else(|| read_hex(text, destination, diagnostics));
    let separator = match &half_move.separator {
        None => {
            diagnostics.push(Diagnostic::new(
                Code::S004,
                TextRange::new(start, half_move.move_end()),
                format!("{} has no separator: write - for a move or \u{D7} for a capture between the hexes", whole()),
            ));
            return None;
        }
        Some(token) => read_separator(text, token, diagnostics),
    };
    let captured = match &half_move.captured {
        None => None,
        Some(token) if separator == Separator::Move => {
            diagnostics.push(Diagnostic::new(
                Code::S014,
                token.range,
                format!("captured-piece letter {} after a move separator: a move to an empty hex names no captured piece", token.text(text)),
            ));
            return None;
        }
        Some(token) => {
            let letter = first_char(text, token);
            if letter == 'P'
                || PieceKind::from_figurine(letter).is_some_and(|(kind, _)| kind == PieceKind::Pawn)
            {
                Some(PieceKind::Pawn)
            } else {
                match ids.read_move_identifier(letter, IdentifierRole::Captured, mover) {
                    Ok(kind) => Some(kind),
                    Err(message) => {
                        diagnostics.push(Diagnostic::new(Code::S012, token.range, message));
                        readable = false;
                        None
                    }
                }
            }
        }
    };
    let promotion = match &half_move.promotion {
        None => None,
        Some(token) => Some(read_promotion(text, token, ids, mover, diagnostics)?),
    };
    if !readable {
        return None;
    }
    Some(Ok(Move::Piece(PieceMove {
        piece,
        origin: origin_hex?,
        separator,
        captured,
        destination: destination_hex?,
        promotion,
    })))
}

fn read_hex(text: &str, token: &Token, diagnostics: &mut Vec<Diagnostic>) -> Option<Hex> {
    match parse_coordinate(token.text(text)) {
        Ok(hex) => Some(hex),
        Err(error) => {
            diagnostics.push(Diagnostic::new(error.code, token.range, error.message));
            None
        }
    }
}

fn read_separator(text: &str, token: &Token, diagnostics: &mut Vec<Diagnostic>) -> Separator {
    // The plain hyphen first, as bytes: nearly every half-move is written with it.
    if text.as_bytes()[token.range] == *b"-" {
        return Separator::Move;
    }
    match token.text(text) {
        "-" | "\u{2010}" => Separator::Move,
        "\u{D7}" | "*" => Separator::Capture,
        "@" => Separator::At,
        "@@" => Separator::DoubleAt,
        "x" => {
            diagnostics.push(
                Diagnostic::new(Code::S005, token.range, "letter x used as capture sign: write \u{D7} (or *); the move is read as a capture")
                    .with_fix(Fix::replace("Write \u{D7}", token.range, "\u{D7}")),
            );
            Separator::Capture
        }
        dash => {
            let name = match dash {
                "\u{2013}" => "en dash U+2013",
                "\u{2011}" => "non-breaking hyphen U+2011",
                _ => "minus sign U+2212",
            };
            diagnostics.push(Diagnostic::new(
                Code::S006,
                token.range,
                format!("{name} used as separator: write - or \u{2010}; read as a hyphen"),
            ));
            Separator::Move
        }
    }
}

fn read_promotion(
    text: &str,
    token: &Token,
    ids: &IdentifierSet,
    mover: Side,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Promotion> {
    let letter = token.text(text).chars().nth(1).unwrap_or('&');
    if letter == '&' {
        return Some(Promotion::Awaiting);
    }
    if let Some(kind) = PieceKind::from_standard_letter(letter)
        .filter(|kind| matches!(kind, PieceKind::King | PieceKind::Elephant | PieceKind::Pawn))
    {
        // K, E and P are letters of every identifier set; promoting to them is K017.
        return Some(Promotion::To(kind));
    }
    match ids.read_move_identifier(letter, IdentifierRole::Promotion, mover) {
        Ok(kind) => Some(Promotion::To(kind)),
        Err(message) => {
            diagnostics.push(Diagnostic::new(
                Code::S012,
                TextRange::new(token.range.start + 1, token.range.end),
                message,
            ));
            None
        }
    }
}

/// Reads a castling token: the rook letter follows `Redefine`, the King letter and the side
/// letters `K`/`D` are fixed, figurine spellings are accepted (§4.3, §15 item 21).
fn read_castling(
    text: &str,
    token: &Token,
    ids: &IdentifierSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Result<Move, (Code, String)>> {
    let written = token.text(text);
    let rook = ids.rook_identifier();
    let mut chars = written.chars();
    let _king = chars.next();
    let rook_written = chars.next().unwrap_or(' ');
    let side_written = chars.next().unwrap_or(' ');
    let dash = chars.next().unwrap_or('-');
    let target: String = chars.collect();
    let is_rook = |c: char| c == rook || c == '\u{2656}' || c == '\u{265C}';
    if !is_rook(rook_written) {
        let offset = written.char_indices().nth(1).map_or(0, |(i, _)| i);
        let start = token.range.start + offset;
        diagnostics.push(Diagnostic::new(
            Code::S012,
            TextRange::new(start, start + rook_written.len_utf8()),
            format!("{rook_written} is not the Rook's identifier in this record: castling is written K{rook}K-…, K{rook}D-… or K{rook}{rook}-…"),
        ));
        return None;
    }
    let side = match side_written {
        'K' | '\u{2654}' | '\u{265A}' => 'K',
        'D' | '\u{2655}' | '\u{265B}' => 'D',
        c if is_rook(c) => 'R',
        _ => '?',
    };
    if dash != '-' && dash != '\u{2010}' {
        let offset = written.char_indices().nth(3).map_or(0, |(i, _)| i);
        let start = token.range.start + offset;
        diagnostics.push(Diagnostic::new(
            Code::S006,
            TextRange::new(start, start + dash.len_utf8()),
            "non-standard dash in a castling token: write - or \u{2010}; read as a hyphen",
        ));
    }
    let standard = format!("KR{side}-{target}");
    Some(match castling::lookup(&standard) {
        Some(entry) => Ok(Move::Castling(CastlingToken(entry.name))),
        None => Err((
            Code::K020,
            format!("{written} is not a castling token: the 24 tokens are listed in the handbook, §6.6{}", castling_hint(&standard)),
        )),
    })
}

/// A hint for the common slip `KRK-HI`, which needs `O` or `OO`.
fn castling_hint(standard: &str) -> &'static str {
    if standard == "KRK-HI" {
        " (KRK-HIO or KRK-HIOO)"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::read_half_move;
    use crate::geometry::ALL_HEXES;
    use crate::identifiers::IdentifierSet;
    use crate::notation::{CastlingToken, Move, PieceMove, Promotion, Separator};
    use crate::pieces::{PieceKind, Side};
    use crate::syntax::{self, Item};

    const CASTLINGS: [&str; 24] = [
        "KRK-II", "KRK-IK", "KRK-IH", "KRK-HIO", "KRK-HIOO", "KRK-HH", "KRK-HG", "KRK-FG",
        "KRK-FE", "KRK-EF", "KRK-EE", "KRD-DD", "KRD-DE", "KRD-HH", "KRD-HG", "KRD-FG", "KRD-FE",
        "KRD-EF", "KRD-ED", "KRR-HIH", "KRR-HGG", "KRR-FGG", "KRR-FEE", "KRR-EEF",
    ];

    fn identifier_set(which: usize) -> IdentifierSet {
        match which {
            0 => IdentifierSet::standard(),
            1 => IdentifierSet::fan(),
            _ => IdentifierSet::from_redefine("A@J, C@N, T@R, Q@D").expect("a valid Redefine"),
        }
    }

    fn kind() -> impl Strategy<Value = PieceKind> {
        prop::sample::select(PieceKind::ALL.to_vec())
    }

    fn promotable() -> impl Strategy<Value = PieceKind> {
        prop::sample::select(vec![
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Pegasus,
            PieceKind::Rook,
            PieceKind::Wyvern,
            PieceKind::Queen,
        ])
    }

    fn hex() -> impl Strategy<Value = crate::geometry::Hex> {
        prop::sample::select(ALL_HEXES.to_vec())
    }

    fn any_move() -> impl Strategy<Value = Move> {
        let separator = prop::sample::select(vec![
            Separator::Move,
            Separator::Capture,
            Separator::At,
            Separator::DoubleAt,
        ]);
        let promotion = prop::option::of(prop_oneof![
            promotable().prop_map(Promotion::To),
            Just(Promotion::Awaiting)
        ]);
        let piece_move = (kind(), hex(), separator, prop::option::of(kind()), hex(), promotion)
            .prop_map(|(piece, origin, separator, captured, destination, promotion)| {
                Move::Piece(PieceMove {
                    piece,
                    origin,
                    separator,
                    captured: if separator == Separator::Move { None } else { captured },
                    destination,
                    promotion,
                })
            });
        prop_oneof![
            4 => piece_move,
            1 => (hex(), promotable()).prop_map(|(hex, piece)| Move::ForcedPromotion { hex, piece }),
            1 => prop::sample::select(CASTLINGS.to_vec()).prop_map(|name| Move::Castling(CastlingToken(name))),
        ]
    }

    /// The first White half-move of a record, as tree-sitter reads it.
    pub(super) fn first_white_half_move(record: &str) -> crate::syntax::HalfMoveText {
        syntax::parse_record(record)
            .items
            .iter()
            .find_map(
                |item| if let Item::MoveLine(line) = item { line.white().cloned() } else { None },
            )
            .expect("a White half-move")
    }

    /// Reads the White half-move of `1. <written>:` with the real grammar.
    fn read_back(
        written: &str,
        ids: &IdentifierSet,
    ) -> (Option<Move>, Vec<crate::diagnostics::Diagnostic>) {
        let record = format!("[Variant \"C'escacs\"]\n1. {written}:\n*\n");
        let read = read_half_move(&record, &first_white_half_move(&record), ids, Side::White);
        (read.reading.and_then(Result::ok), read.diagnostics)
    }

    proptest! {
        #[test]
        fn written_half_moves_read_back_the_same(mv in any_move(), which in 0..3usize) {
            let ids = identifier_set(which);
            let written = mv.write(&ids);
            let (read, diagnostics) = read_back(&written, &ids);
            prop_assert!(diagnostics.is_empty(), "{written}: {diagnostics:?}");
            prop_assert_eq!(read, Some(mv), "{}", written);
        }
    }

    #[test]
    fn recoverable_spellings_are_reported_and_read_as_corrected() {
        let ids = IdentifierSet::standard();
        let (read, diagnostics) = read_back("E13xF16", &ids);
        assert_eq!(diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["S005"]);
        assert!(matches!(read, Some(Move::Piece(PieceMove { separator: Separator::Capture, .. }))));
        let (read, diagnostics) = read_back("PG7-G13", &ids);
        assert_eq!(diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["S013"]);
        assert!(matches!(read, Some(Move::Piece(PieceMove { piece: PieceKind::Pawn, .. }))));
        let (_, diagnostics) = read_back("JF4\u{2013}D10", &ids);
        assert_eq!(diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["S006"]);
    }

    #[test]
    fn unreadable_half_moves_say_why() {
        let ids = IdentifierSet::standard();
        for (written, code) in [
            ("E7E13", "S004"),
            ("e7-e13", "S007"),
            ("NE3-NF8", "S014"),
            ("QE1-E7", "S012"),
            ("JJ4-E7", "C001"),
            ("E8-E10", "C003"),
            ("VF0-F30", "C002"),
        ] {
            let (read, diagnostics) = read_back(written, &ids);
            assert_eq!(read, None, "{written}");
            assert_eq!(
                diagnostics.first().map(|d| d.code.as_str()),
                Some(code),
                "{written}: {diagnostics:?}"
            );
        }
    }
}

#[cfg(test)]
mod written_apart_tests {
    use super::*;

    /// The diagnostics of the first White half-move of `record`, as (code, text of the range,
    /// message), and whether it was read.
    fn first_white(record: &str) -> (bool, Vec<(String, String, String)>) {
        let half_move = super::tests::first_white_half_move(record);
        let read = read_half_move(record, &half_move, &IdentifierSet::standard(), Side::White);
        let found = read
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str().to_string(), record[d.range].to_string(), d.message.clone()))
            .collect();
        (read.reading.is_some(), found)
    }

    #[test]
    fn a_move_with_a_blank_inside_is_a_malformed_move() {
        for (line, range, expected) in [
            ("1. H6 -H12, E21-E15", "H6 -H12", "a blank inside the move: a move token is written without blanks, as H6-H12"),
            ("1. H6-\nH12, E21-E15", "H6-\nH12", "a line end inside the move: a move token is written without blanks, as H6-H12"),
            ("1. H6\u{FEFF}-H12, E21-E15", "H6\u{FEFF}-H12", "the invisible character U+FEFF inside the move: a move token is written without blanks, as H6-H12"),
            ("1. E7-E13 +^, E21-E15", "E7-E13 +^", "a blank inside the move: a move token is written without blanks, as E7-E13+^"),
            ("1. H6-H12\n#", "H6-H12\n#", "a line end inside the move: a move token is written without blanks, as H6-H12#"),
            ("1. H6-H12\n:", "H6-H12\n:", "a line end between the half-move H6-H12 and its annotation (:): the annotation follows on the half-move's line, as in H6-H12:"),
            ("1. H6-H12 2, E21-E15", "H6-H12 2", "H6-H12 2 is not a CTL-AN move: expected [piece]origin-separator-[captured]destination; a move token holds no blanks"),
        ] {
            let record = format!("[Variant \"C'escacs\"]\n{line}\n*\n");
            let (read, found) = first_white(&record);
            assert!(!read, "{line:?}");
            assert_eq!(
                found,
                vec![("S004".to_string(), range.to_string(), expected.to_string())],
                "{line:?}"
            );
        }
        // Blanks before the annotations are the handbook's own layout.
        for line in ["1. H6-H12 ?!, E21-E15", "1. H6-H12  !(=), E21-E15", "1. H6-H12+^ :"] {
            let record = format!("[Variant \"C'escacs\"]\n{line}\n*\n");
            assert_eq!(first_white(&record), (true, Vec::new()), "{line:?}");
        }
    }
}
