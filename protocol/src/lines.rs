//! The custom request `ctlpgn/lines`: every line of play of one record of a document, for a
//! move list that shows the tree (the playground's, the viewer's, any client's) and jumps the
//! board to any half-move, variations included (`ctlpgn/board` at a half-move's range start
//! shows the position after it). Decodes the request and encodes `ide::lines`'s answer, its
//! byte ranges in the negotiated encoding:
//!
//! ```json
//! {"version": 3, "record": 1, "records": 2, "range": {…},
//!  "tags": [{"name": "White", "value": "Pérez"}, …], "result": "*",
//!  "lines": [{"parent": null, "ply": 0, "label": null, "range": null,
//!             "items": [{"kind": "halfMove", "ply": 1, "number": "1", "side": "white",
//!                        "move": "K4-K6", "label": "1. K4-K6", "played": true, "range": {…},
//!                        "annotation": " !?"},
//!                       {"kind": "comment", "text": "…", "range": {…}},
//!                       {"kind": "variation", "line": 1}, …]},
//!            {"parent": 0, "ply": 1, …}]}
//! ```
//!
//! The record is the one holding `position`, else the `record`-th (from 1), else the first.
//! The answer is linear in the record's size and made in one pass (no recursion per level of
//! nesting). The parameters are read by name only: an array is refused (`ByName`).

use lsp_types::{Position, Range, TextDocumentIdentifier};
use serde::Deserialize;

use super::context::{view_at, Context};
use super::encoding::PositionEncoding;
use super::from_proto;
use super::to_proto::RecordPositions;
use ctlpgn_core::document::Document;
use ctlpgn_core::ide;

/// The request's parameters: a document, and which of its records.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LinesParams {
    pub text_document: TextDocumentIdentifier,
    /// A place in the record (it wins over `record`).
    #[serde(default)]
    pub position: Option<Position>,
    /// The record's number, from 1, as the board's answer counts records.
    #[serde(default)]
    pub record: Option<usize>,
}

/// The answer, its ranges in the negotiated encoding.
pub type LinesReply = ide::lines::LinesReply<Range>;

/// A byte offset in the record of `document` that `params` names; `None` when the document
/// holds no record, or not that many.
pub fn record_offset(
    document: &Document,
    params: &LinesParams,
    encoding: PositionEncoding,
) -> Option<usize> {
    match (params.position, params.record) {
        (Some(position), _) => Some(from_proto::offset(document.rope(), position, encoding)),
        (None, number) => {
            let index = number.unwrap_or(1).checked_sub(1)?;
            document.records().get(index).map(|record| record.range.start)
        }
    }
}

/// The lines of play of the record of `document` that `params` names; `None` when the
/// document holds no record, or not that many.
pub fn lines(document: &Document, params: &LinesParams, context: &Context) -> Option<LinesReply> {
    let encoding = context.negotiated.encoding;
    let offset = record_offset(document, params, encoding)?;
    let records = document.records().len();
    view_at(document, offset, |view, index| {
        let positions = RecordPositions::new(document.rope(), view.text, view.start, encoding);
        ide::lines::lines(view, document.version(), index, records, |range| positions.range(range))
    })
}

#[cfg(test)]
mod tests {
    use crate::session::Session;
    use serde_json::{json, Value};

    /// A FAN record (figurines beyond the Basic Multilingual Plane, two UTF-16 units each),
    /// with `×`, `…`, a comment and a variation, then a second record.
    const FAN: &str = "[Variant \"C'escacs\"]\n[White \"Núñez\"]\n[Redefine \"FAN\"]\n\n1. K4-K6, E21-E19 {Àlex 🩐 <b>}\n(1. …, E21-E17\n2. 🩐H2-Z17)\n2. 🩐H2-Z17, ♟E19-E15\n3. 🩐Z17×K18, E15-E13:\n*\n\n[Variant \"C'escacs\"]\n[Black \"Vidal\"]\n\n1. E7-E9\n*\n";

    /// The answer to `ctlpgn/lines` with `params` (beside the document) on `FAN`, opened in a
    /// session that negotiated UTF-16.
    fn lines(params: Value) -> Value {
        let mut session = Session::new();
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
        session.handle(&initialize);
        session.handle(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        let uri = "file:///fan.ctl-pgn";
        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "ctlpgn", "version": 4, "text": FAN}}});
        session.handle(&open);
        let mut params = params;
        params["textDocument"] = json!({"uri": uri});
        let request =
            json!({"jsonrpc": "2.0", "id": 2, "method": "ctlpgn/lines", "params": params});
        let mut answer = session.handle(&request);
        answer.remove(0)["result"].take()
    }

    fn range(start: (u32, u32), end: (u32, u32)) -> Value {
        json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
    }

    #[test]
    fn the_lines_of_the_first_record_with_utf16_ranges() {
        let answer = lines(json!({}));
        assert_eq!(answer["version"], 4);
        assert_eq!((answer["record"].clone(), answer["records"].clone()), (json!(1), json!(2)));
        assert_eq!(answer["tags"][1], json!({"name": "White", "value": "Núñez"}));
        assert_eq!(answer["result"], "*");
        let main = &answer["lines"][0];
        assert_eq!((main["parent"].clone(), main["ply"].clone()), (Value::Null, json!(0)));
        let kinds: Vec<&str> = main["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "halfMove",
                "halfMove",
                "comment",
                "variation",
                "halfMove",
                "halfMove",
                "halfMove",
                "halfMove"
            ]
        );
        assert_eq!(
            main["items"][2],
            json!({"kind": "comment", "text": "Àlex 🩐 <b>", "range": range((4, 18), (4, 31))})
        );
        // `🩐Z17×K18`: the figurine counts two units, `×` one.
        let capture = &main["items"][6];
        assert_eq!(capture["ply"], 5);
        assert_eq!(capture["label"], "3. 🩐Z17×K18");
        assert_eq!(capture["range"], range((8, 3), (8, 12)));
        assert_eq!(main["items"][7]["range"], range((8, 14), (8, 21)));
        // The variation replaces Black's first half-move: it starts after White's, at ply 1.
        let variation = &answer["lines"][1];
        assert_eq!(variation["parent"], 0);
        assert_eq!(variation["ply"], 1);
        assert_eq!(variation["range"], range((5, 0), (6, 12)));
        let first = &variation["items"][0];
        assert_eq!(
            (first["ply"].clone(), first["label"].clone()),
            (json!(2), json!("1. …, E21-E17"))
        );
        assert_eq!(first["range"], range((5, 7), (5, 14)));
        assert_eq!(variation["items"][1]["range"], range((6, 3), (6, 11)));
        assert_eq!(variation["items"][1]["ply"], 3);
    }

    #[test]
    fn a_record_is_chosen_by_number_or_by_a_place_in_it() {
        let second = lines(json!({"record": 2}));
        assert_eq!(second["record"], 2);
        // The record starts at its tags; the blank line before them closes the first.
        assert_eq!(second["range"]["start"], json!({"line": 11, "character": 0}));
        assert_eq!(second["lines"][0]["items"][0]["range"], range((14, 3), (14, 8)));
        assert_eq!(lines(json!({"position": {"line": 14, "character": 0}}))["record"], 2);
        assert_eq!(lines(json!({"record": 3})), Value::Null);
        assert_eq!(lines(json!({"record": 0})), Value::Null);
    }
}
