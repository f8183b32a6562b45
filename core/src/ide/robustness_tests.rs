//! Whatever the text and wherever the cursor, the features that read one record answer
//! without panicking, and their ranges lie on character boundaries of the record: broken
//! input is the normal input of an editor.

use proptest::prelude::*;

use super::completion::completion;
use super::hover::{hover, HoverOptions};
use crate::analysis::{self, analyse_syntax, AnalysisOptions};
use crate::conversion;
use crate::document::RecordView;
use crate::syntax;

/// Fragments records are made of, broken ones included, with non-ASCII characters.
const FRAGMENTS: [&str; 24] = [
    "[Variant \"C'escacs\"]\n",
    "[Núria \"x",
    "[Result \"",
    "[PDTL \"/28:v/ w",
    "[Redefine \"FAN\"]\n",
    "\n",
    "\r\n",
    "1. ",
    "2. …, ",
    "JF6-B18",
    "E7‐E13",
    "F18×E17^+",
    "♘G3-F6",
    "🩐",
    "{ @W: ~J[d] #1@B ",
    "}",
    "($[1] 3. …, ",
    ")",
    "#3.1",
    ":",
    "*",
    "$24",
    " ",
    "[",
];

fn record_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..FRAGMENTS.len(), 0..40)
        .prop_map(|indices| indices.into_iter().map(|i| FRAGMENTS[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_place_of_any_record_answers_hover_completion_positions_and_boards(text in record_text()) {
        let tree = syntax::parse(&mut syntax::new_parser(), &text);
        let record = syntax::lower_record(&tree, &text);
        let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
        let view = RecordView { text: &text, start: 0, syntax: &record, analysis: &analysis };
        for offset in (0..=text.len()).filter(|&offset| text.is_char_boundary(offset)) {
            // Hovers with image boards and text boards in turn.
            if let Some(found) = hover(view, offset, HoverOptions { images: offset % 2 == 1 }) {
                prop_assert!(found.range.start <= found.range.end && found.range.end <= text.len());
                prop_assert!(text.is_char_boundary(found.range.start) && text.is_char_boundary(found.range.end));
            }
            for item in completion(view, offset) {
                let replace = item.edit_range;
                prop_assert!(replace.touches(offset), "{:?} around {}", replace, offset);
                prop_assert!(text.is_char_boundary(replace.start) && text.is_char_boundary(replace.end));
                prop_assert!(!text[replace].contains(['\n', '\r']), "a completion edit stays on its line");
            }
            let _ = analysis::pdtl_at(&text, &record, &analysis, offset);
            let at = crate::analysis::board_at(&text, &record, &analysis, offset);
            prop_assert!(at.ply <= at.line.len());
            for half_move in &at.line {
                prop_assert!(text.is_char_boundary(half_move.range.start) && text.is_char_boundary(half_move.range.end));
            }
            let _ = conversion::continuation_at(&text, &record, &analysis, offset);
            // Playing the first half-move offered (at every fourth place, as each play analyses
            // the record it makes): it is played, as the board offers only what playing
            // writes; its edits on character boundaries, its range inside the record it makes.
            let options = crate::format::FormatOptions::default();
            let offered = match offset % 4 {
                0 => super::play::playable_moves(view, offset, &options).unwrap_or_default(),
                _ => Vec::new(),
            };
            if let Some(first) = offered.first() {
                let played = super::play::play(view, offset, &first.text, &options);
                prop_assert!(played.is_ok(), "{} offered at {offset}, then {played:?}", first.text);
                if let Ok(played) = played {
                    for edit in &played.edits {
                        prop_assert!(text.is_char_boundary(edit.range.start) && text.is_char_boundary(edit.range.end));
                    }
                    prop_assert!(played.range.end <= played.record.len());
                    prop_assert!(played.record.is_char_boundary(played.range.start) && played.record.is_char_boundary(played.range.end));
                }
            }
        }
        for diagnostic in &analysis.diagnostics {
            for fix in &diagnostic.fixes {
                for edit in &fix.edits {
                    prop_assert!(edit.range.end <= text.len() && text.is_char_boundary(edit.range.start) && text.is_char_boundary(edit.range.end));
                }
            }
        }
    }
}
