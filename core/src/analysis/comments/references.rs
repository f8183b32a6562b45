//! Reading one reference of a comment (§12.3): `~` hexes and pieces (N010-N012), NAGs (N017),
//! player references (`@N`, N016), and move references parsed into what they designate, with
//! the legacy (N016) and malformed (N019) forms. Resolving a move reference needs the comment's
//! place in the movetext and is done by `resolve`.

use crate::diagnostics::Code;
use crate::geometry::parse_coordinate;
use crate::identifiers::IdentifierSet;
use crate::pieces::{PieceKind, Side};
use crate::syntax::{Reference, ReferenceKind};

/// A well-formed move reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum MoveReference {
    /// `#N`, `#N@W`, `#N[#A.x…#B.y]@B`: a move, in the history or in a labelled variation.
    Move {
        number: u32,
        /// The variation path as written, innermost first (`#A.x` before `#B.y`).
        path: Vec<(u32, u32)>,
        side: Option<Side>,
    },
    /// `#N.L`: the whole variation labelled `$[L]` attached to move `N`.
    Variation { number: u32, label: u32 },
}

/// What reading a reference gave.
#[derive(Debug)]
pub(super) enum ReferenceReading {
    /// Nothing to report and nothing to resolve (a valid `~` reference, NAG or `@W`/`@B`).
    Fine,
    Problem(Code, String),
    /// A move reference to resolve.
    Move(MoveReference),
}

/// Reads one reference of a comment.
pub(super) fn read(text: &str, reference: &Reference, ids: &IdentifierSet) -> ReferenceReading {
    let written = &text[reference.range];
    match reference.kind {
        ReferenceKind::Player => {
            if written == "@N" {
                ReferenceReading::Problem(
                    Code::N016,
                    "legacy player reference @N: Black is written @B".to_string(),
                )
            } else {
                ReferenceReading::Fine
            }
        }
        ReferenceKind::Nag => read_nag(written),
        ReferenceKind::Hex => {
            let hex = written.strip_prefix('~').unwrap_or(written);
            match hex_problem(hex) {
                Some(problem) => {
                    ReferenceReading::Problem(Code::N010, format!("~{hex}: {problem}"))
                }
                None => ReferenceReading::Fine,
            }
        }
        ReferenceKind::Piece => read_piece(written.strip_prefix('~').unwrap_or(written), ids),
        ReferenceKind::Move => read_move(written),
    }
}

/// N017: a NAG is `$0` to `$255`.
fn read_nag(written: &str) -> ReferenceReading {
    let digits = written.strip_prefix('$').unwrap_or(written);
    let value: u64 = digits.parse().unwrap_or(u64::MAX);
    if value > 255 {
        return ReferenceReading::Problem(
            Code::N017,
            format!("NAG {written} is above 255: NAGs run from $0 to $255"),
        );
    }
    ReferenceReading::Fine
}

/// Why written coordinate text is not a hex, if it is not (§12.3: a column letter, upper case,
/// immediately followed by the line), as a sentence starting with the text.
fn hex_problem(hex: &str) -> Option<String> {
    if hex.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(format!(
            "{hex} is not a hex: column letters are upper case (P T A B C D E F G H I K L X Z)"
        ));
    }
    parse_coordinate(hex).err().map(|error| error.message)
}

/// `~` + piece identifier, optionally followed by a hex or (for a Bishop) a colour selector.
fn read_piece(body: &str, ids: &IdentifierSet) -> ReferenceReading {
    let mut chars = body.chars();
    let Some(identifier) = chars.next() else {
        return ReferenceReading::Fine;
    };
    let after = chars.as_str();
    let Some(piece) = ids.read_placement_char(identifier) else {
        let message = if ids.is_fan() && identifier.is_ascii_alphabetic() {
            format!(
                "~{identifier}: {identifier} is a letter, but with [Redefine \"FAN\"] pieces are referenced with figurines ({}, Black {})",
                PieceKind::ALL.map(|kind| kind.figurine(Side::White)).iter().collect::<String>(),
                PieceKind::ALL.map(|kind| kind.figurine(Side::Black)).iter().collect::<String>()
            )
        } else {
            format!("~{identifier}: {}", ids.placement_char_problem(identifier))
        };
        return ReferenceReading::Problem(Code::N011, message);
    };
    if let Some(selector) = after.strip_prefix('[') {
        let selector = selector.strip_suffix(']').unwrap_or(selector);
        if piece.kind != PieceKind::Bishop {
            return ReferenceReading::Problem(
                Code::N012,
                format!("~{body}: a colour selector [d], [l] or [c] only follows a Bishop, and {identifier} is a {}", piece.kind.name()),
            );
        }
        if !matches!(selector, "d" | "l" | "c") {
            return ReferenceReading::Problem(
                Code::N012,
                format!("~{body}: bishop selector must be [d] (dark), [l] (light) or [c] (coloured), not [{selector}]"),
            );
        }
        return ReferenceReading::Fine;
    }
    if !after.is_empty() {
        if let Some(problem) = hex_problem(after) {
            return ReferenceReading::Problem(Code::N010, format!("~{body}: {problem}"));
        }
    }
    ReferenceReading::Fine
}

/// The forms a move reference may take, for messages.
const MOVE_FORMS: &str = "#N, #N@W, #N@B, #N.L or #N[#n.l]@W";

/// Reads a move reference (`#` and what the scanner took after it).
pub(super) fn read_move(written: &str) -> ReferenceReading {
    let body = written.strip_prefix('#').unwrap_or(written);
    if let Some(after_dots) = body.strip_prefix('.') {
        // `#.16`, `#..16@N`, `#.16$[1]`: the older page's forms; `#.` without a number is text.
        if after_dots.trim_start_matches('.').starts_with(|c: char| c.is_ascii_digit()) {
            return ReferenceReading::Problem(
                Code::N016,
                format!(
                    "legacy reference {written}: write {MOVE_FORMS} (e.g. #16, #16@B, #14[#12.2])"
                ),
            );
        }
        return ReferenceReading::Fine;
    }
    let malformed = || {
        ReferenceReading::Problem(
            Code::N019,
            format!("malformed move reference {written}: write {MOVE_FORMS}"),
        )
    };
    let Some((number, rest)) = take_number(body) else {
        return malformed();
    };
    if let Some(label_text) = rest.strip_prefix('.') {
        return match take_number(label_text) {
            Some((label, "")) => ReferenceReading::Move(MoveReference::Variation { number, label }),
            // `#12.` at the end of a sentence: the dot right after the number starts a
            // variation reference `#12.L` (§12.3), so the reference is not complete.
            _ if label_text.is_empty() => ReferenceReading::Problem(
                Code::N019,
                format!("malformed move reference {written}: a dot right after the move number starts a variation reference #{number}.L; to end a sentence after move {number}, write #{number} followed by other words, or #{number}@W / #{number}@B"),
            ),
            _ => malformed(),
        };
    }
    let mut rest = rest;
    let mut path = Vec::new();
    let mut legacy = false;
    if let Some(inside) = rest.strip_prefix('[') {
        let Some(close) = inside.find(']') else {
            return malformed();
        };
        let elements = &inside[..close];
        rest = &inside[close + 1..];
        if !elements.is_empty() && elements.bytes().all(|b| b.is_ascii_digit()) {
            // `#14[2]`: the older page's label without its move.
            legacy = true;
        } else {
            let mut remaining = elements;
            while !remaining.is_empty() {
                let Some(element) = remaining.strip_prefix('#') else {
                    return malformed();
                };
                let Some((move_number, after_number)) = take_number(element) else {
                    return malformed();
                };
                let Some((label, after_label)) =
                    after_number.strip_prefix('.').and_then(take_number)
                else {
                    return malformed();
                };
                path.push((move_number, label));
                remaining = after_label;
            }
            if path.is_empty() {
                return malformed();
            }
        }
    }
    let side = match rest {
        "" => None,
        "@W" => Some(Side::White),
        "@B" => Some(Side::Black),
        "@N" => {
            legacy = true;
            None
        }
        _ => return malformed(),
    };
    if legacy {
        return ReferenceReading::Problem(
            Code::N016,
            format!("legacy reference {written}: write {MOVE_FORMS} (@B for Black, [#N.L] for a variation)"),
        );
    }
    ReferenceReading::Move(MoveReference::Move { number, path, side })
}

/// A number (`nonzero_digit, { digit }`) at the start of `text`, and the rest.
fn take_number(text: &str) -> Option<(u32, &str)> {
    let end = text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    let digits = &text[..end];
    if digits.is_empty() || digits.starts_with('0') {
        return None;
    }
    Some((digits.parse().ok()?, &text[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(written: &str) -> Option<Code> {
        match read_move(written) {
            ReferenceReading::Problem(code, _) => Some(code),
            _ => None,
        }
    }

    #[test]
    fn move_references_follow_the_grammar() {
        assert!(matches!(
            read_move("#16[#14.1#12.2]@B"),
            ReferenceReading::Move(MoveReference::Move { number: 16, ref path, side: Some(Side::Black) }) if path == &[(14, 1), (12, 2)]
        ));
        assert!(matches!(
            read_move("#12.2"),
            ReferenceReading::Move(MoveReference::Variation { number: 12, label: 2 })
        ));
        assert!(matches!(
            read_move("#3"),
            ReferenceReading::Move(MoveReference::Move { number: 3, side: None, .. })
        ));
        for legacy in ["#.16", "#.16@N", "#14[2]", "#.16$[1]", "#14@N", "#..7"] {
            assert_eq!(code(legacy), Some(Code::N016), "{legacy}");
        }
        for malformed in
            ["#12.", "#12.2@W", "#12[#3", "#12[#3]", "#12[]", "#0", "#05", "#12@", "#12]", "#1$"]
        {
            assert_eq!(code(malformed), Some(Code::N019), "{malformed}");
        }
        assert!(matches!(read_move("#."), ReferenceReading::Fine));
    }

    #[test]
    fn a_dot_right_after_the_move_number_says_how_to_end_a_sentence() {
        match read_move("#12.") {
            ReferenceReading::Problem(Code::N019, message) => assert!(
                message.contains("starts a variation reference #12.L")
                    && message.contains("#12@W / #12@B"),
                "{message}"
            ),
            other => panic!("expected N019, got {other:?}"),
        }
    }
}
