//! Playing on the board: the legal half-moves at a place, written as the record writes them,
//! and a half-move played there turned into an edit of the record (the design's "Playing
//! writes text"). The board holds no game of its own: the position is the one the replay
//! gives at the place (`analysis::position_at`), the moves are the replay's legal moves
//! (`replay::legal_moves`), written by the one writer completion uses
//! (`LegalMove::text`), and the edit is placed from the tree of lines of play (`placement`).
//!
//! Every edit is checked before it is handed out: the record it makes is analysed again, and
//! it must have no more errors than before and stand, at the half-move written, in the
//! position played. What fails the check is refused, and the document is left as it was.

mod placement;
mod spelling;

#[cfg(test)]
mod corpus_tests;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::analysis::line_of_play::PlayTree;
use crate::analysis::{self, analyse_syntax, AnalysisOptions, Keep, NoPosition, RuleChecks};
use crate::diagnostics::Severity;
use crate::document::RecordView;
use crate::format::{dominant_line_ending, FormatOptions};
use crate::geometry::Hex;
use crate::notation::Spelling;
use crate::pieces::Side;
use crate::position::Position;
use crate::replay::{legal_moves, LegalMove};
use crate::syntax;
use crate::text::{TextEdit, TextRange};

use placement::{Place, Placement};
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
    /// The text is none of the half-moves the side to move may play there.
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

/// What playing at a place reads, computed once.
struct Setting<'a> {
    inside: usize,
    position: &'a Position,
    spelling: RecordSpelling,
}

impl<'a> Setting<'a> {
    fn new(
        view: RecordView<'a>,
        offset: usize,
        options: &FormatOptions,
    ) -> Result<Setting<'a>, NoPosition> {
        let inside = offset.saturating_sub(view.start).min(view.text.len());
        let position = analysis::position_at(view.text, view.syntax, view.analysis, inside)?;
        let spelling = RecordSpelling::of_record(view.text, view.syntax, options);
        Ok(Setting { inside, position, spelling })
    }
}

/// The half-moves the side to move may play at byte `offset` of the document (an offset
/// outside the record stands at its nearest end), written as they would be played; an error
/// when the place has no exact position (`analysis::position_at`). Empty when the game is
/// over there.
pub fn playable_moves(
    view: RecordView<'_>,
    offset: usize,
    options: &FormatOptions,
) -> Result<Vec<PlayableMove>, NoPosition> {
    let setting = Setting::new(view, offset, options)?;
    let ids = &view.analysis.identifiers;
    Ok(legal_moves(setting.position)
        .into_iter()
        .map(|legal| PlayableMove {
            from: legal.applied.effect.origin,
            to: legal.applied.effect.destination,
            text: legal.text(ids, setting.spelling.separators),
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
    let setting = Setting::new(view, offset, options).map_err(Refusal::NoPosition)?;
    let ids = &view.analysis.identifiers;
    let spellings =
        [setting.spelling.separators, Spelling::KEYBOARD, Spelling::UNICODE, Spelling::ASCII];
    let legal = legal_moves(setting.position)
        .into_iter()
        .find(|legal| spellings.iter().any(|&spelling| legal.text(ids, spelling) == text))
        .ok_or_else(|| Refusal::NotLegal { text: text.to_string(), side: setting.position.turn })?;
    let written = legal.text(ids, setting.spelling.separators);
    let tree = PlayTree::build(view.text, view.syntax);
    let followers = tree.followers(setting.inside);
    let place = Place {
        text: view.text,
        syntax: view.syntax,
        analysis: view.analysis,
        tree: &tree,
        followers: &followers,
        position: setting.position,
        ellipsis: setting.spelling.ellipsis,
        eol: dominant_line_ending(view.text),
    };
    match place.place(&legal, &written).map_err(Refusal::Unplaceable)? {
        Placement::Written(range) => Ok(Played {
            edits: Vec::new(),
            record: view.text.to_string(),
            range: view.in_document(range),
        }),
        Placement::Edits { edits, played } => {
            let edits: Vec<TextEdit> = edits
                .into_iter()
                .map(|edit| TextEdit::replace(edit.range, edit.new_text))
                .collect();
            let record = crate::text::apply_edits(view.text, &edits);
            verify(view, &record, played, &legal).map_err(Refusal::Unplaceable)?;
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

/// Checks the record an edit makes: no more errors than before, and at `played`, the
/// position `legal` leads to.
fn verify(
    view: RecordView<'_>,
    record: &str,
    played: TextRange,
    legal: &LegalMove,
) -> Result<(), String> {
    let syntax = syntax::parse_record(record);
    let options = AnalysisOptions::new(Keep::Everything, RuleChecks::Skip);
    let analysis = analyse_syntax(record, &syntax, options);
    let errors = |diagnostics: &[crate::diagnostics::Diagnostic]| {
        diagnostics.iter().filter(|diagnostic| diagnostic.severity == Severity::Error).count()
    };
    if errors(&analysis.diagnostics) > errors(&view.analysis.diagnostics) {
        let first = analysis
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.severity == Severity::Error)
            .map_or(String::new(), |diagnostic| {
                format!(" ({}: {})", diagnostic.code, diagnostic.message)
            });
        return Err(format!("the record would have an error{first}"));
    }
    match analysis::position_at(record, &syntax, &analysis, played.start) {
        Ok(position) if *position == legal.applied.position => Ok(()),
        _ => Err("the record would not replay to the position played".into()),
    }
}
