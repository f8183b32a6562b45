//! Completion on small records, with the cursor marked `$0` in the text. Whole lists are
//! snapshots (`snapshots/`), one item in two lines.

use ctlpgn_test_support::cursor::Marked;

use super::{completion, is_keyword, CompletionItem, CompletionKind};
use crate::analysis::{analyse_syntax, AnalysisOptions};
use crate::document::RecordView;
use crate::syntax;
use crate::text::TextRange;

/// The completion items at the `$0` of `marked`, as the server sends them, and the text without
/// the mark.
fn at_cursor(marked: &str) -> (String, Vec<CompletionItem>) {
    let Marked { text, range } = Marked::cursor(marked);
    let offset = range.start;
    let tree = syntax::parse(&mut syntax::new_parser(), &text);
    let record = syntax::lower_record(&tree, &text);
    let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
    let view = RecordView { text: &text, start: 0, syntax: &record, analysis: &analysis };
    let suggestions = completion(view, offset);
    (text, suggestions)
}

/// The items as a snapshot shows them, two lines an item: the label (preselected or not), the
/// kind and the detail; then the text the edit replaces, the plain text that replaces it, the
/// snippet where it differs, and the text the editor filters on.
fn shown(text: &str, suggestions: &[CompletionItem]) -> String {
    let mut out = String::new();
    for item in suggestions {
        let preselected = if item.preselect { " (preselected)" } else { "" };
        out.push_str(&format!("{}{preselected} · {:?} · {}\n", item.label, item.kind, item.detail));
        out.push_str(&format!("    {:?} → {:?}", &text[item.edit_range], item.plain));
        if item.snippet != item.plain {
            out.push_str(&format!(", snippet {:?}", item.snippet));
        }
        out.push_str(&format!(", filtered on {:?}\n", item.filter));
    }
    out
}

fn labels(suggestions: &[CompletionItem]) -> Vec<&str> {
    suggestions.iter().map(|s| s.label.as_str()).collect()
}

#[test]
fn tag_names_come_in_roster_order_with_the_next_missing_required_tag_first() {
    // The `[` typed stays: the items start after it, where the word starts, and the
    // auto-closed bracket is replaced too. Site first and preselected; no Variant or Event.
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Event \"Open de Moià\"]\n[$0]\n");
    insta::assert_snapshot!("tag_names", shown(&text, &suggestions));
}

#[test]
fn an_empty_record_starts_with_variant_and_repeatable_tags_stay_offered() {
    let (text, suggestions) = at_cursor("[V$0");
    assert_eq!(labels(&suggestions), ["Variant"], "only the names that go on with V");
    assert_eq!(suggestions[0].plain, "Variant \"C'escacs\"]");
    assert_eq!(&text[suggestions[0].edit_range], "V");
    let (_, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Id \"Cescacs-0001\"]\n[Annotator \"Prat, J.\"]\n[$0\n");
    assert_eq!(labels(&suggestions)[..3], ["Annotator", "AnnotatorId", "Date"]);
    assert!(!suggestions[0].preselect, "the minimal registration has its Annotator");
}

#[test]
fn editing_the_name_of_an_existing_tag_replaces_the_name_only() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Ev$0nt \"Open\"]\n");
    let event = suggestions.iter().find(|s| s.label == "Event").expect("Event");
    assert_eq!(&text[event.edit_range], "Evnt");
    assert_eq!(event.plain, "Event");
}

#[test]
fn tag_values_are_offered_inside_the_quotes() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Result \"$0\"]\n");
    assert_eq!(labels(&suggestions), ["3-0", "2-1", "0-3", "1-2", "1-1", "*"]);
    assert_eq!(suggestions[0].edit_range.start, suggestions[0].edit_range.end);
    assert_eq!(&text[suggestions[0].edit_range.end..suggestions[0].edit_range.end + 1], "\"");
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Mode \"O$0TB\"]\n");
    assert_eq!(labels(&suggestions), ["OTB"], "the values that go on with what was typed");
    assert_eq!(&text[suggestions[0].edit_range], "OTB");
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Date \"$0\"]\n");
    assert_eq!(suggestions[0].snippet, "${1:YYYY}-${2:MM}-${3:DD}");
    assert_eq!(&text[suggestions[0].edit_range], "");
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Date \"2025$0\"]\n");
    assert!(suggestions.is_empty(), "no template replaces a date being typed");
    // After a `-`, which ends a word, the text typed before it stays and begins every item.
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Result \"1-$0\"]\n");
    assert_eq!(labels(&suggestions), ["1-2", "1-1"]);
    assert_eq!(&text[suggestions[0].edit_range], "");
    assert_eq!((suggestions[0].plain.as_str(), suggestions[0].filter.as_str()), ("2", "2"));
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Redefine \"$0\"]\n");
    assert_eq!(labels(&suggestions)[0], "FAN");
    // The starting position, in the letters the record redefines.
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Redefine \"A@J, C@N, T@R\"]\n[PDTL \"$0\"]\n");
    insta::assert_snapshot!(shown(&text, &suggestions), @r#"
    initial position · TagValue · PDTL value
        "" → "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1", filtered on "initial position"
    "#);
}

#[test]
fn the_movetext_offers_the_pieces_of_the_side_to_move() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n\n1. K4-K6, $0\n");
    assert_eq!(suggestions.iter().filter(|s| s.kind == CompletionKind::Piece).count(), 27);
    assert_eq!(labels(&suggestions)[..4], ["KG27", "DE27", "VF28", "RC25"]);
    assert!(
        suggestions[27..].iter().all(|s| s.kind == CompletionKind::Move),
        "the pieces, then the half-moves"
    );
    assert!(suggestions.iter().all(|s| s.edit_range == TextRange::empty(text.len() - 1)));
    assert_eq!(suggestions[0].detail, "Black King on G27");
}

#[test]
fn a_piece_being_typed_is_replaced_and_white_moves_after_black() {
    // The `J` typed is replaced; only what begins with it.
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[White \"Núria\"]\n\n1. K4-K6, E21-E19\n2. J$0\n");
    insta::assert_snapshot!("a_bishop_being_typed", shown(&text, &suggestions));
    // The pawn that moved is on K6, none on K4.
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[White \"Núria\"]\n\n1. K4-K6, E21-E19\n2. $0\n");
    insta::assert_snapshot!("white_after_black", shown(&text, &suggestions));
}

#[test]
fn nothing_is_offered_after_a_half_move_that_could_not_be_replayed() {
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n\n1. NF6-B18, $0\n");
    assert!(suggestions.is_empty(), "{:?}", labels(&suggestions));
}

#[test]
fn a_variation_of_black_s_half_move_of_a_line_without_white_s_offers_the_moves_after_it() {
    // From a PDTL giving Black the move: the variation starts where the record does.
    let game = "[Variant \"C'escacs\"]\n[PDTL \"/27:1k/21:3p4/20:3p3/4:4P/1:1K/ b -- - 0 5\"]\n\n5. …, E21-E19\n(5. …, F20-F18\n.6. $0)\n*\n";
    let (_, suggestions) = at_cursor(game);
    let pieces: Vec<&str> = suggestions
        .iter()
        .filter(|s| s.kind == CompletionKind::Piece)
        .map(|s| s.label.as_str())
        .collect();
    assert_eq!(pieces, ["KG1", "K4"]);
    assert!(labels(&suggestions).contains(&"K4-K6"), "{:?}", labels(&suggestions));
}

#[test]
fn fan_records_offer_figurines() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. $0\n");
    insta::assert_snapshot!("figurines", shown(&text, &suggestions));
}

#[test]
fn comments_offer_markers_then_references_to_earlier_moves() {
    let game =
        "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20\n{ $0}\n3. K6-K8\n*\n";
    let (_, suggestions) = at_cursor(game);
    assert_eq!(labels(&suggestions), ["@W:", "@B:"]);
    assert_eq!(suggestions[1].detail, "Black comment on 2. …, EE23-D20");
    let (text, suggestions) = at_cursor(&game.replace("{ $0}", "{ @W: like #$0}"));
    assert_eq!(labels(&suggestions), ["#2@B", "#2@W", "#1@B", "#1@W"]);
    // The `#` ends no word of its own: it stays, and the items go on after it.
    assert_eq!(&text[suggestions[0].edit_range], "");
    assert_eq!((suggestions[0].plain.as_str(), suggestions[0].filter.as_str()), ("2@B", "2@B"));
    let (_, suggestions) = at_cursor(&game.replace("{ $0}", "{ @W: like #2@$0}"));
    assert_eq!(labels(&suggestions), ["#2@B", "#2@W"]);
    assert_eq!(suggestions[1].plain, "W");
    let (_, suggestions) = at_cursor(&game.replace("{ $0}", "{ @W: like $0}"));
    assert!(suggestions.is_empty());
}

#[test]
fn in_a_variation_replacing_black_s_half_move_no_marker_names_it() {
    // Before the variation's first move line its history ends with White's 1. K4-K6: Black's
    // E21-E19 is the half-move it replaces.
    let game = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(\n{ $0}\n1. …, E21-E17)\n*\n";
    let (_, suggestions) = at_cursor(game);
    assert_eq!(labels(&suggestions), ["@W:"]);
    assert_eq!(suggestions[0].detail, "White comment on 1. K4-K6");
}

#[test]
fn references_in_a_variation_follow_its_history() {
    let game = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20\n(2. …, E19-E17\n{ after #$0}\n)\n*\n";
    let (_, suggestions) = at_cursor(game);
    assert_eq!(labels(&suggestions), ["#2@B", "#2@W", "#1@B", "#1@W"]);
    assert_eq!(suggestions[0].detail, "2. …, E19-E17");
}

#[test]
fn the_half_moves_of_the_side_to_move_are_written_out_with_the_check_they_give() {
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Black \"Vidàl\"]\n\n1. K4-K6, E21-E19\n2. JF6-$0\n");
    // `JF6-` stays as typed: every item goes on from after the `-`, and the pieces, which do
    // not begin with `JF6-`, are not offered.
    insta::assert_snapshot!("the_bishop_s_half_moves", shown(&text, &suggestions));
    // A Rook that checks the King from afar, from a PDTL: the check offered with its suffix.
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3$0\n");
    insta::assert_snapshot!("a_rook_that_checks", shown(&text, &suggestions));
}

#[test]
fn a_capture_sign_is_part_of_the_word_and_the_case_typed_does_not_matter_after_it() {
    // `×` is a letter to Vim (it stands among the Latin-1 letters): the word is `F16×e`.
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13×f$0\n";
    let (text, suggestions) = at_cursor(text);
    insta::assert_snapshot!("after_a_capture_sign", shown(&text, &suggestions));
}

#[test]
fn a_figurine_typed_alone_is_replaced_with_the_items_that_begin_with_it() {
    let text = "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. ♗$0\n";
    let (text, suggestions) = at_cursor(text);
    insta::assert_snapshot!("after_a_figurine_typed_alone", shown(&text, &suggestions));
}

/// What Neovim 0.7.2 and 0.11.4 answered to `match('x ' .. c, '\\k*$')` with their default
/// 'iskeyword', character by character (2: a word character; 3: not). The FAN figurines of the
/// BMP are words to 0.11 only; `is_keyword` takes them as words so that an item of a
/// figurine typed alone starts at the figurine.
#[test]
fn keywords_are_the_characters_vim_counts_in_a_word() {
    let words = "aZ0_×÷Àéñç Ω漢🩏🩐🩒🩓";
    let not_words = "-‐…∞◇@#*=&+^\"[]’«»·–—→½★✓€−⁺ {}()$:.,";
    for c in words.chars().filter(|c| *c != ' ') {
        assert!(is_keyword(c), "{c:?} is a word character");
    }
    for c in not_words.chars() {
        assert!(!is_keyword(c), "{c:?} is not a word character");
    }
    for figurine in "♔♕♖♗♘♙♚♛♜♝♞♟☖☗".chars() {
        assert!(is_keyword(figurine), "{figurine:?}");
    }
}
