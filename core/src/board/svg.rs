//! The board as a standalone SVG document: the 169 hexes in their colours, the marks, the
//! pieces as lettered discs and the line numbers and column letters on the edges.
//!
//! Why lettered discs: FAN figurines are missing from most fonts, and a drawing must not
//! depend on fonts the viewer may lack. A disc with a plain ASCII letter in the generic
//! `sans-serif` family reads the same everywhere, and the piece's identity is in attributes,
//! not in the glyph. White pieces are light discs with dark letters and Black pieces dark
//! discs with light letters, each with an edge of the other colour so that it stands out on
//! every hex colour; pawns are smaller discs, so that the pieces stand out among them.
//!
//! Why `<use>`: the hex outline and each kind of piece are drawn once in `<defs>` and every
//! hex or piece is one short element that places it. That keeps the largest board near 24 KB,
//! well inside the 40 KB budget (a base64 copy must stay far below VS Code's 100,000-character
//! hover limit), and gives every hex and piece exactly one element to carry its attributes.

use super::layout::{self, centre, LabelText, Point};
use super::Board;
use crate::geometry::{Hex, ALL_HEXES};
use crate::pieces::{Piece, PieceKind, Side};
use std::fmt::Write;

/// The radius of a piece's disc, and of a pawn's.
const PIECE_RADIUS: &str = "10.5";
const PAWN_RADIUS: &str = "8";

/// The SVG document of `board`.
/// `shown_width` is the width it is drawn at, in pixels; its natural size when `None`.
pub fn document(board: &Board<'_>, shown_width: Option<u32>) -> String {
    let mut out = String::with_capacity(24 * 1024);
    let (x, y, width, height) = layout::view_box();
    let (shown_width, shown_height) = match shown_width {
        Some(shown) => {
            (shown as i32, (i64::from(shown) * i64::from(height) / i64::from(width.max(1))) as i32)
        }
        None => (width, height),
    };
    let turn = board.position.turn;
    push(
        &mut out,
        format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{x} {y} {width} {height}\" \
             width=\"{shown_width}\" height=\"{shown_height}\" class=\"ctlpgn-board\" data-theme=\"{}\" \
             data-bottom=\"{}\" data-turn=\"{}\" role=\"img\" \
             aria-label=\"C'escacs board, {} to move\">\n",
            board.theme.name(),
            if board.flipped { Side::Black } else { Side::White }.letter(),
            turn.letter(),
            turn.name(),
        ),
    );
    style(board, &mut out);
    definitions(board, &mut out);
    hexes(board.flipped, &mut out);
    marks_under_pieces(board, &mut out);
    pieces(board, &mut out);
    marks_over_pieces(board, &mut out);
    labels(board.flipped, &mut out);
    out.push_str("</svg>\n");
    out
}

/// Appends formatted text; writing to a `String` cannot fail.
fn push(out: &mut String, args: std::fmt::Arguments<'_>) {
    let _ = out.write_fmt(args);
}

// The elements repeated for every hex, piece and label are written piece by piece rather than
// through `format_args!`, which took most of the drawing's time.

/// Appends a whole number in decimal.
fn push_number(out: &mut String, number: i32) {
    if number < 0 {
        out.push('-');
    }
    let mut rest = number.unsigned_abs();
    let mut digits = [0u8; 10];
    let mut count = 0;
    loop {
        digits[count] = b'0' + (rest % 10) as u8;
        count += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in digits[..count].iter().rev() {
        out.push(char::from(digit));
    }
}

/// Appends the name of a hex (`F14`).
fn push_hex(out: &mut String, hex: Hex) {
    out.push(hex.column_letter());
    push_number(out, i32::from(hex.line()));
}

/// Appends ` x="…" y="…"` for a point.
fn push_point(out: &mut String, at: Point) {
    out.push_str(" x=\"");
    push_number(out, at.x);
    out.push_str("\" y=\"");
    push_number(out, at.y);
    out.push('"');
}

/// The stylesheet: every colour a custom property with the theme's default. Every rule is
/// scoped to the board, because a page that embeds the SVG inline applies its stylesheet to
/// the whole page: to the root class, or for the pieces to their own `ctlpgn-piece` class,
/// since a selector does not reach from outside a `<use>` into the copy it draws (inherited
/// properties such as the font do).
fn style(board: &Board<'_>, out: &mut String) {
    let palette = board.theme.palette();
    let colour = |name: &str| {
        let default = palette.iter().find(|(n, _)| *n == name).map_or("#808080", |(_, c)| c);
        format!("var(--ctlpgn-{name},{default})")
    };
    push(
        out,
        format_args!(
            "<style>\
             .ctlpgn-board .hex{{stroke:{};stroke-width:.8}}\
             .ctlpgn-board .hex.white{{fill:{}}}\
             .ctlpgn-board .hex.coloured{{fill:{}}}\
             .ctlpgn-board .hex.black{{fill:{}}}\
             .ctlpgn-board{{font-family:sans-serif;text-anchor:middle}}\
             .ctlpgn-piece text{{font-weight:bold}}\
             .ctlpgn-piece.white circle{{fill:{};stroke:{};stroke-width:1.4}}\
             .ctlpgn-piece.white text{{fill:{}}}\
             .ctlpgn-piece.black circle{{fill:{};stroke:{};stroke-width:1.4}}\
             .ctlpgn-piece.black text{{fill:{}}}\
             .ctlpgn-board .label{{fill:{};font-size:10px}}\
             .ctlpgn-board .mark.move{{fill:{};fill-opacity:.7}}\
             .ctlpgn-board .mark.check{{fill:{};fill-opacity:.85}}\
             .ctlpgn-board .mark.special{{fill:none;stroke:{};stroke-width:2;stroke-dasharray:3 2}}\
             </style>\n",
            colour("hex-edge"),
            colour("hex-white"),
            colour("hex-coloured"),
            colour("hex-black"),
            colour("white-piece"),
            colour("white-piece-ink"),
            colour("white-piece-ink"),
            colour("black-piece"),
            colour("black-piece-ink"),
            colour("black-piece-ink"),
            colour("label"),
            colour("move"),
            colour("check"),
            colour("special"),
        ),
    );
}

/// The `id` of the drawing of a piece in `<defs>`: side, standard letter and the letter shown
/// (`ctlpgn-wJA` for a White Bishop written `A`). A page that embeds several boards inline has
/// their ids in one namespace: boards that show a piece differently use different ids.
fn piece_id(piece: Piece, shown: char) -> String {
    format!("ctlpgn-{}{}{shown}", piece.side.letter(), piece.kind.standard_letter())
}

/// The hex outline and one drawing per kind of piece on the board: a disc and its letter.
fn definitions(board: &Board<'_>, out: &mut String) {
    push(out, format_args!("<defs><path id=\"ctlpgn-hex\" d=\"{}\"/>\n", layout::hex_path()));
    for side in [Side::White, Side::Black] {
        for kind in PieceKind::ALL {
            let piece = Piece::new(side, kind);
            if !board.position.pieces().any(|(_, on)| on == piece) {
                continue;
            }
            let (radius, font) = if kind == PieceKind::Pawn {
                (PAWN_RADIUS, "10px")
            } else {
                (PIECE_RADIUS, "13px")
            };
            let side_class = if side == Side::White { "white" } else { "black" };
            push(
                out,
                format_args!(
                    "<g id=\"{}\" class=\"ctlpgn-piece {side_class}\"><circle r=\"{radius}\"/>\
                     <text dy=\".36em\" font-size=\"{font}\">{}</text></g>\n",
                    piece_id(piece, board.identifiers.letter(kind)),
                    board.identifiers.letter(kind),
                ),
            );
        }
    }
    out.push_str("</defs>\n");
}

/// Places the hex outline at the centre of `hex`.
fn use_hex(out: &mut String, at: Point, class: &str, attributes: std::fmt::Arguments<'_>) {
    push(
        out,
        format_args!(
            "<use href=\"#ctlpgn-hex\" x=\"{}\" y=\"{}\" class=\"{class}\" {attributes}/>\n",
            at.x, at.y
        ),
    );
}

/// The 169 hexes, each with its name and colour class.
fn hexes(flipped: bool, out: &mut String) {
    out.push_str("<g class=\"hexes\">\n");
    for hex in ALL_HEXES {
        out.push_str("<use href=\"#ctlpgn-hex\"");
        push_point(out, centre(hex, flipped));
        out.push_str(" class=\"hex ");
        out.push_str(hex.colour().name());
        out.push_str("\" data-hex=\"");
        push_hex(out, hex);
        out.push_str("\"/>\n");
    }
    out.push_str("</g>\n");
}

/// The marks drawn over the hex and under its piece: the half-move's origin and destination
/// and the King in check.
fn marks_under_pieces(board: &Board<'_>, out: &mut String) {
    out.push_str("<g class=\"marks\">\n");
    if let Some((origin, destination)) = board.marks.last_move {
        for (hex, name) in [(origin, "origin"), (destination, "destination")] {
            let at = centre(hex, board.flipped);
            use_hex(out, at, "mark move", format_args!("data-mark=\"{name}\" data-hex=\"{hex}\""));
        }
    }
    if let Some(hex) = board.marks.check {
        let at = centre(hex, board.flipped);
        use_hex(out, at, "mark check", format_args!("data-mark=\"check\" data-hex=\"{hex}\""));
    }
    out.push_str("</g>\n");
}

/// Every piece: one element each, with its hex, standard letter and side.
fn pieces(board: &Board<'_>, out: &mut String) {
    out.push_str("<g class=\"pieces\">\n");
    for (hex, piece) in board.position.pieces() {
        out.push_str("<use href=\"#");
        out.push_str(&piece_id(piece, board.identifiers.letter(piece.kind)));
        out.push('"');
        push_point(out, centre(hex, board.flipped));
        out.push_str(" data-hex=\"");
        push_hex(out, hex);
        out.push_str("\" data-piece=\"");
        out.push(piece.kind.standard_letter());
        out.push_str("\" data-side=\"");
        out.push(piece.side.letter());
        out.push_str("\"/>\n");
    }
    out.push_str("</g>\n");
}

/// The rings drawn over the pieces: where an en passant capture lands, and the scornful pawn
/// that may be taken.
fn marks_over_pieces(board: &Board<'_>, out: &mut String) {
    let special = board
        .marks
        .en_passant
        .iter()
        .map(|&hex| (hex, "en-passant"))
        .chain(board.marks.scornful.map(|hex| (hex, "scornful")));
    let rings: Vec<(Hex, &str)> = special.collect();
    if rings.is_empty() {
        return;
    }
    out.push_str("<g class=\"marks\">\n");
    for (hex, name) in rings {
        let at = centre(hex, board.flipped);
        push(
            out,
            format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"11.5\" class=\"mark special\" \
                 data-mark=\"{name}\" data-hex=\"{hex}\"/>\n",
                at.x, at.y
            ),
        );
    }
    out.push_str("</g>\n");
}

/// The line numbers and column letters.
fn labels(flipped: bool, out: &mut String) {
    out.push_str("<g class=\"label\">\n");
    for label in layout::labels(flipped) {
        out.push_str("<text");
        // A third of the font size down puts the middle of a digit or capital on the point.
        push_point(out, Point { x: label.at.x, y: label.at.y + 4 });
        out.push('>');
        match label.text {
            LabelText::Line(line) => push_number(out, i32::from(line)),
            LabelText::Column(letter) => out.push(letter),
        }
        out.push_str("</text>\n");
    }
    out.push_str("</g>\n");
}
