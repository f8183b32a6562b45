//! The board at a place as the edges send it — the language server's `ctlpgn/board` and the
//! web's `board` — so that its fields are listed once: [`BoardAnswer::reply`] fills them, and
//! each edge serialises the value. Its places are the edge's own (`R`): the answer's byte
//! ranges are converted by the function the edge passes, in the columns its client counts.

use serde::Serialize;

use super::BoardAnswer;
use crate::analysis::LineHalfMove;
use crate::pieces::Side;
use crate::text::TextRange;

/// The answer (docs/language-server.md gives each field's meaning), with the document's
/// `version` the place was read in and the record's number from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardReply<R> {
    pub version: i32,
    pub record: usize,
    pub exact: bool,
    pub svg: Option<String>,
    pub text: Option<String>,
    pub pdtl: Option<String>,
    pub ply: usize,
    pub move_number: Option<u32>,
    /// `white` or `black`.
    pub side: Option<String>,
    #[serde(rename = "move")]
    pub current: Option<String>,
    pub check: Option<String>,
    pub line: Vec<LineReply<R>>,
    /// The ply of `line`'s first half-move (1 when the line has none).
    pub line_start: usize,
    pub line_length: usize,
    pub line_first: Option<LineReply<R>>,
    pub line_last: Option<LineReply<R>>,
    /// Absent where nothing can be played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveReply>>,
}

/// One half-move of the answer's `line`, or its `lineFirst` or `lineLast`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineReply<R> {
    pub ply: usize,
    pub number: String,
    /// `white` or `black`.
    pub side: String,
    #[serde(rename = "move")]
    pub written: String,
    pub label: String,
    pub played: bool,
    pub range: R,
}

impl<R> LineReply<R> {
    /// A half-move of a line of play as the edges send it (the board's `line` and the lines
    /// of `ctlpgn/lines`), its byte range converted by `range`.
    pub fn of(half_move: LineHalfMove, range: impl Fn(TextRange) -> R) -> LineReply<R> {
        LineReply {
            label: half_move.label(),
            ply: half_move.ply,
            number: half_move.number,
            side: side_name(half_move.side),
            written: half_move.written,
            played: half_move.played,
            range: range(half_move.range),
        }
    }
}

/// One half-move of the answer's `moves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReply {
    pub from: String,
    pub to: String,
    pub text: String,
}

impl BoardAnswer {
    /// The answer for record `index` (from 0) of a document at `version`, each byte range of
    /// the document converted by `range`.
    pub fn reply<R>(
        self,
        version: i32,
        index: usize,
        range: impl Fn(TextRange) -> R,
    ) -> BoardReply<R> {
        let entry = |half_move: LineHalfMove| LineReply::of(half_move, &range);
        let line_start = self.line.first().map_or(1, |first| first.ply);
        let line: Vec<LineReply<R>> = self.line.into_iter().map(entry).collect();
        let (line_first, line_last) =
            self.line_ends.map(|(first, last)| (entry(first), entry(last))).unzip();
        BoardReply {
            version,
            record: index + 1,
            exact: self.exact,
            svg: self.svg,
            text: self.text,
            pdtl: self.pdtl,
            ply: self.ply,
            move_number: self.move_number,
            side: self.side.map(side_name),
            current: self.current,
            check: self.check,
            line,
            line_start,
            line_length: self.line_length,
            line_first,
            line_last,
            moves: self.moves.map(|moves| {
                moves
                    .into_iter()
                    .map(|playable| MoveReply {
                        from: playable.from.to_string(),
                        to: playable.to.to_string(),
                        text: playable.text,
                    })
                    .collect()
            }),
        }
    }
}

/// A side as the answer names it.
fn side_name(side: Side) -> String {
    side.name().to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Hex;
    use crate::ide::play::PlayableMove;
    use serde_json::json;

    fn half_move(ply: usize, side: Side, written: &str, start: usize) -> LineHalfMove {
        LineHalfMove {
            ply,
            number: "1".to_string(),
            side,
            written: written.to_string(),
            range: TextRange::new(start, start + written.len()),
            played: true,
        }
    }

    fn answer(moves: Option<Vec<PlayableMove>>) -> BoardAnswer {
        let line =
            vec![half_move(1, Side::White, "K4-K6", 24), half_move(2, Side::Black, "E21-E19", 31)];
        BoardAnswer {
            exact: true,
            svg: Some("<svg/>".to_string()),
            text: Some("28".to_string()),
            pdtl: Some("/28:v/ w".to_string()),
            ply: 2,
            move_number: Some(2),
            side: Some(Side::White),
            current: Some("1. …, E21-E19".to_string()),
            check: None,
            line_ends: Some((line[0].clone(), line[1].clone())),
            line,
            line_length: 2,
            moves,
        }
    }

    /// The answer's JSON: its fields as `ctlpgn/board` names them, each range converted by the
    /// edge's function, `moves` left out where nothing can be played.
    #[test]
    fn a_reply_names_its_fields_as_the_protocol_does_and_converts_its_ranges() {
        let moves = vec![PlayableMove {
            from: Hex::from_letter('G', 7).expect("a hex"),
            to: Hex::from_letter('G', 9).expect("a hex"),
            text: "G7-G9".to_string(),
        }];
        let reply = answer(Some(moves)).reply(3, 0, |range| [range.start, range.end]);
        let entry = |ply: usize, side: &str, written: &str, label: &str, range: [usize; 2]| {
            json!({"ply": ply, "number": "1", "side": side, "move": written, "label": label,
                   "played": true, "range": range})
        };
        let first = entry(1, "white", "K4-K6", "1. K4-K6", [24, 29]);
        let last = entry(2, "black", "E21-E19", "1. …, E21-E19", [31, 38]);
        assert_eq!(
            serde_json::to_value(&reply).expect("JSON"),
            json!({
                "version": 3, "record": 1, "exact": true, "svg": "<svg/>", "text": "28",
                "pdtl": "/28:v/ w", "ply": 2, "moveNumber": 2, "side": "white",
                "move": "1. …, E21-E19", "check": null, "line": [first, last],
                "lineStart": 1, "lineLength": 2, "lineFirst": first, "lineLast": last,
                "moves": [{"from": "G7", "to": "G9", "text": "G7-G9"}],
            })
        );
        let without =
            serde_json::to_value(answer(None).reply(3, 4, |range| range.start)).expect("JSON");
        assert!(without.get("moves").is_none(), "{without}");
        assert_eq!(without["record"], 5);
        assert_eq!(without["line"][1]["range"], 31);
    }
}
