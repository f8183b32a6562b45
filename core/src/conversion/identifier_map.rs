//! One identifier set mapped onto another, character by character (handbook §4.3, §9.7,
//! §12.3): the piece identifiers of half-moves, castling tokens, PDTL placements and castling
//! fields, and `~` references in comments. Each rewrite is an edit of the identifier's own
//! bytes, so that everything around it stays as written.

use crate::analysis::comments::is_valid_tilde_reference;
use crate::identifiers::{IdentifierRole, IdentifierSet};
use crate::pieces::{PieceKind, Side};
use crate::syntax::{Comment, HalfMoveText, ReferenceKind};
use crate::text::{TextEdit, TextRange};

/// The identifiers a record is written with and those it is rewritten to.
#[derive(Debug)]
pub(super) struct IdentifierMap<'a> {
    pub from: &'a IdentifierSet,
    pub to: &'a IdentifierSet,
}

impl IdentifierMap<'_> {
    /// The identifier written for the piece `ch` denotes in a move: the upper-case letter, or in
    /// FAN the neutral white figurine (§15 item 7). `None` when `ch` is no identifier here.
    fn move_identifier(&self, ch: char, role: IdentifierRole, mover: Side) -> Option<char> {
        let kind = self.from.read_move_identifier(ch, role, mover).ok()?;
        Some(self.to.move_identifier(kind))
    }

    /// The character for the piece a PDTL placement character or `~` reference denotes: the
    /// letter in the case of its colour, or the figurine of its colour.
    pub fn placement_char(&self, ch: char) -> Option<char> {
        self.from.read_placement_char(ch).map(|piece| self.to.placement_char(piece))
    }

    /// A castling token in the target identifiers: the King and the side letters are always
    /// `K` and `D`, and the Rook letter (second, and third for both Rooks) follows the target's
    /// `Redefine`; a figurine spelling (`♔♖♔-II`) becomes the letter form, which FAN keeps
    /// too (§4.3). The dash and the target columns stay as written.
    pub fn castling(&self, written: &str) -> String {
        let from_rook = self.from.rook_identifier();
        let to_rook = self.to.rook_identifier();
        let is_rook = |c: char| {
            c == from_rook
                || c == PieceKind::Rook.figurine(Side::White)
                || c == PieceKind::Rook.figurine(Side::Black)
        };
        let mut out = String::with_capacity(written.len());
        for (index, c) in written.chars().enumerate() {
            out.push(match (index, c) {
                (0, _) => 'K',
                (1, c) if is_rook(c) => to_rook,
                (2, c)
                    if c == PieceKind::King.figurine(Side::White)
                        || c == PieceKind::King.figurine(Side::Black) =>
                {
                    'K'
                }
                (2, c)
                    if c == PieceKind::Queen.figurine(Side::White)
                        || c == PieceKind::Queen.figurine(Side::Black) =>
                {
                    'D'
                }
                (2, c) if is_rook(c) => to_rook,
                _ => c,
            });
        }
        out
    }

    /// Edits for the identifiers of one half-move of `mover`: the moving piece, the captured
    /// piece, the promotion piece and the castling token.
    pub fn half_move_edits(
        &self,
        text: &str,
        half_move: &HalfMoveText,
        mover: Side,
        edits: &mut Vec<TextEdit>,
    ) {
        if let Some(token) = &half_move.piece {
            self.identifier_edit(text, token.range.start, IdentifierRole::Moving, mover, edits);
        }
        if let Some(token) = &half_move.captured {
            self.identifier_edit(text, token.range.start, IdentifierRole::Captured, mover, edits);
        }
        if let Some(token) = &half_move.promotion {
            // `=X`: the identifier follows the `=`; `=&` names no piece.
            self.identifier_edit(
                text,
                token.range.start + 1,
                IdentifierRole::Promotion,
                mover,
                edits,
            );
        }
        if let Some(token) = &half_move.castling {
            push_edit(text, token.range, self.castling(token.text(text)), edits);
        }
    }

    /// An edit of the move identifier starting at `at`, when it changes.
    fn identifier_edit(
        &self,
        text: &str,
        at: usize,
        role: IdentifierRole,
        mover: Side,
        edits: &mut Vec<TextEdit>,
    ) {
        let Some(ch) = text.get(at..).and_then(|rest| rest.chars().next()) else { return };
        if let Some(new) = self.move_identifier(ch, role, mover) {
            push_edit(text, TextRange::new(at, at + ch.len_utf8()), new.to_string(), edits);
        }
    }

    /// Edits for the piece characters of a PDTL value whose text is `value` (the tag's value
    /// content, starting at byte `base` of the record): the placement (field 1) and the
    /// castling field (field 3). The special-capture field names hexes, whose column letters
    /// are no identifiers, and stays as written.
    pub fn pdtl_edits(&self, value: &str, base: usize, edits: &mut Vec<TextEdit>) {
        let mut field = 0;
        let mut in_field = false;
        for (offset, ch) in value.char_indices() {
            if ch == ' ' {
                in_field = false;
                continue;
            }
            if !in_field {
                in_field = true;
                field += 1;
            }
            if field != 1 && field != 3 {
                continue;
            }
            if let Some(new) = self.placement_char(ch) {
                let at = base + offset;
                if new != ch {
                    edits.push(TextEdit {
                        range: TextRange::new(at, at + ch.len_utf8()),
                        new_text: new.to_string(),
                    });
                }
            }
        }
    }

    /// Edits for the `~` piece references of a comment (`~J[d]`, `~NG25`, `~♝`): the
    /// identifier after the `~`, in the case or figurine of its colour. A reference that is
    /// not valid (an unknown identifier N011, a bad hex N010, a bad selector N012) is left
    /// as written: it names no piece, so there is nothing to rewrite.
    pub fn comment_edits(&self, text: &str, comment: &Comment, edits: &mut Vec<TextEdit>) {
        for reference in comment.references.iter().filter(|reference| {
            reference.kind == ReferenceKind::Piece
                && is_valid_tilde_reference(text, reference, self.from)
        }) {
            let at = reference.range.start + '~'.len_utf8();
            let Some(ch) = text.get(at..reference.range.end).and_then(|rest| rest.chars().next())
            else {
                continue;
            };
            if let Some(new) = self.placement_char(ch) {
                push_edit(text, TextRange::new(at, at + ch.len_utf8()), new.to_string(), edits);
            }
        }
    }
}

/// Adds an edit replacing `range` by `new_text`, unless the text is already that.
fn push_edit(text: &str, range: TextRange, new_text: String, edits: &mut Vec<TextEdit>) {
    if text[range] != new_text {
        edits.push(TextEdit { range, new_text });
    }
}
