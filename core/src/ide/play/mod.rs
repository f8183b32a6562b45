//! Playing on the board: the legal half-moves at a place, written as the record writes them,
//! and a half-move played there turned into an edit of the record (the design's "Playing
//! writes text"). The board holds no game of its own: the position is the one the replay
//! gives at the place (`analysis::position_at`), the moves are the replay's legal moves
//! (`replay::legal_moves`), written by the one writer completion uses
//! (`LegalMove::text`), and the edit is placed from the tree of lines of play (`placement`).
//!
//! Every edit is checked before it is handed out (`proof`): the record it makes must have no
//! error it did not have, by code and place, and stand, at the half-move written, in the
//! position played. What fails the check is refused, and the document is left as it was; the
//! board lists only what passes, by the same check.

mod placement;
mod proof;
mod spelling;

#[cfg(test)]
mod corpus_tests;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::analysis::line_of_play::{Followers, PlayTree};
use crate::analysis::{self, NoPosition};
use crate::document::RecordView;
use crate::format::{dominant_line_ending, FormatOptions};
use crate::geometry::Hex;
use crate::notation::Spelling;
use crate::pieces::Side;
use crate::position::Position;
use crate::replay::{legal_moves, LegalMove};
use crate::text::{quoted, TextEdit, TextRange};

use placement::{Place, Placement, Written};
use proof::Proofs;
pub use spelling::RecordSpelling;

/// A half-move the side to move may play at a place, as a board offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayableMove {
    /// The moving piece's hex (the King's for castling, the pawn's for a forced promotion).
    pub from: Hex,
    /// Where it goes (the King's destination for castling; `from` for a forced promotion).
    pub to: Hex,
    /// The half-move exactly as it is written when played: the record's identifiers and
    /// separators, the check suffix it earns.
    pub text: String,
}

/// A half-move played: what to change and where the half-move then stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The edits of the document, byte ranges of it, in text order and disjoint; none when
    /// the half-move is written there already.
    pub edits: Vec<TextEdit>,
    /// The text of the record once the edits are made.
    pub record: String,
    /// Where the half-move (its move and check suffix) stands in the document once the edits
    /// are made.
    pub range: TextRange,
}

/// Why a half-move is not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The place has no exact position to play from.
    NoPosition(NoPosition),
    /// The text is none of the half-moves the side to move may play there; `text` is what
    /// was asked, cut after 40 characters.
    NotLegal { text: String, side: Side },
    /// The half-move cannot be written there without breaking the record.
    Unplaceable(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoPosition(why) => write!(f, "nothing can be played here: {why}"),
            Refusal::NotLegal { text, side } => {
                write!(f, "`{text}` is not a half-move {} may play here", side.name())
            }
            Refusal::Unplaceable(why) => write!(f, "the half-move cannot be written here: {why}"),
        }
    }
}

/// Playing at one place: what it reads, computed once for every half-move asked about.
struct Player<'a> {
    view: RecordView<'a>,
    position: &'a Position,
    spelling: RecordSpelling,
    /// The record's line ending.
    eol: &'static str,
    tree: PlayTree<'a>,
    followers: Followers<'a>,
    written: Written<'a>,
    proofs: Proofs<'a>,
}

impl<'a> Player<'a> {
    fn new(
        view: RecordView<'a>,
        offset: usize,
        options: &FormatOptions,
    ) -> Result<Player<'a>, NoPosition> {
        let inside = offset.saturating_sub(view.start).min(view.text.len());
        let position = analysis::position_at(view.text, view.syntax, view.analysis, inside)?;
        let spelling = RecordSpelling::of_record(view.text, view.syntax, options);
        let eol = dominant_line_ending(view.text);
        let tree = PlayTree::build(view.text, view.syntax);
        let followers = tree.followers(inside);
        let written = Written::after(&followers, view.analysis);
        let proofs = Proofs::new(view);
        Ok(Player { view, position, spelling, eol, tree, followers, written, proofs })
    }

    /// `legal` as the record writes it.
    fn written(&self, legal: &LegalMove) -> String {
        legal.text(&self.view.analysis.identifiers, self.spelling.separators)
    }

    /// Where `legal`, written `written`, goes, when it may be written there: the one rule of
    /// the board's list and of playing.
    fn write(&mut self, legal: &LegalMove, written: &str) -> Result<Placement, String> {
        let place = Place {
            text: self.view.text,
            syntax: self.view.syntax,
            tree: &self.tree,
            followers: &self.followers,
            written: &self.written,
            position: self.position,
            ellipsis: self.spelling.ellipsis,
            eol: self.eol,
        };
        let placement = place.place(legal, written)?;
        self.proofs.check(&placement, legal)?;
        Ok(placement)
    }
}

/// The half-moves the side to move may play at byte `offset` of the document (an offset
/// outside the record stands at its nearest end), written as they would be played: those
/// [`play`] writes there. An error when the place has no exact position
/// (`analysis::position_at`). Empty when the game is over there, or when no half-move can be
/// written there without adding an error to the record.
pub fn playable_moves(
    view: RecordView<'_>,
    offset: usize,
    options: &FormatOptions,
) -> Result<Vec<PlayableMove>, NoPosition> {
    let mut player = Player::new(view, offset, options)?;
    Ok(legal_moves(player.position)
        .into_iter()
        .filter_map(|legal| {
            let text = player.written(&legal);
            player.write(&legal, &text).ok()?;
            Some(PlayableMove {
                from: legal.applied.effect.origin,
                to: legal.applied.effect.destination,
                text,
            })
        })
        .collect())
}

/// Plays the half-move written `text` (one of [`playable_moves`]' texts; any spelling of its
/// separators is taken) from the position at byte `offset` of the document.
pub fn play(
    view: RecordView<'_>,
    offset: usize,
    text: &str,
    options: &FormatOptions,
) -> Result<Played, Refusal> {
    let mut player = Player::new(view, offset, options).map_err(Refusal::NoPosition)?;
    let ids = &view.analysis.identifiers;
    let spellings =
        [player.spelling.separators, Spelling::KEYBOARD, Spelling::UNICODE, Spelling::ASCII];
    let legal = legal_moves(player.position)
        .into_iter()
        .find(|legal| spellings.iter().any(|&spelling| legal.text(ids, spelling) == text))
        .ok_or_else(|| Refusal::NotLegal { text: quoted(text), side: player.position.turn })?;
    let written = player.written(&legal);
    match player.write(&legal, &written).map_err(Refusal::Unplaceable)? {
        Placement::Written(range) => Ok(Played {
            edits: Vec::new(),
            record: view.text.to_string(),
            range: view.in_document(range),
        }),
        Placement::Edits { edits, played, .. } => {
            let edits: Vec<TextEdit> = edits
                .into_iter()
                .map(|edit| TextEdit::replace(edit.range, edit.new_text))
                .collect();
            let record = crate::text::apply_edits(view.text, &edits);
            Ok(Played {
                edits: edits
                    .into_iter()
                    .map(|edit| TextEdit::replace(view.in_document(edit.range), edit.new_text))
                    .collect(),
                record,
                range: view.in_document(played),
            })
        }
    }
}
