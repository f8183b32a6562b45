//! Completion on small records, with the cursor marked `|` in the text.

use super::{complete, CompletionItem, CompletionKind};
use crate::analysis::analyse_syntax;
use crate::syntax;
use crate::text::TextRange;

/// The completion items at the `|` of `marked`, and the text without the mark.
fn at_cursor(marked: &str) -> (String, Vec<CompletionItem>) {
    let offset = marked.find('|').expect("a cursor mark");
    let text = marked.replacen('|', "", 1);
    let tree = syntax::parse(&mut syntax::new_parser(), &text);
    let record = syntax::lower_record(&tree, &text);
    let analysis = analyse_syntax(&text, &record);
    let suggestions = complete(&text, &record, &analysis, offset);
    (text, suggestions)
}

fn labels(suggestions: &[CompletionItem]) -> Vec<&str> {
    suggestions.iter().map(|s| s.label.as_str()).collect()
}

#[test]
fn tag_names_come_in_roster_order_with_the_next_missing_required_tag_first() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Event \"Open de Moià\"]\n[|]\n");
    assert_eq!(
        labels(&suggestions)[..8],
        ["Site", "Date", "Round", "White", "WhiteNA", "WhiteAlias", "Black", "BlackNA"]
    );
    assert!(suggestions[0].preselect && !suggestions[1].preselect);
    assert!(!labels(&suggestions).contains(&"Event") && !labels(&suggestions).contains(&"Variant"));
    assert!(labels(&suggestions).contains(&"Annotator") && labels(&suggestions).contains(&"PDTL"));
    let site = &suggestions[0];
    assert_eq!(site.snippet, "[Site \"$1\"]$0");
    assert_eq!(&text[site.edit_range], "[]", "the auto-closed bracket is replaced too");
    let result = suggestions.iter().find(|s| s.label == "Result").expect("Result");
    assert_eq!(result.snippet, "[Result \"${1|3-0,2-1,0-3,1-2,1-1,*|}\"]$0");
    assert_eq!(result.plain, "[Result \"\"]");
}

#[test]
fn an_empty_record_starts_with_variant_and_repeatable_tags_stay_offered() {
    let (_, suggestions) = at_cursor("[V|");
    assert_eq!(suggestions[0].label, "Variant");
    assert_eq!(suggestions[0].plain, "[Variant \"C'escacs\"]");
    let (_, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Id \"Cescacs-0001\"]\n[Annotator \"Prat, J.\"]\n[|\n");
    assert_eq!(labels(&suggestions)[..3], ["Annotator", "AnnotatorId", "Date"]);
    assert!(!suggestions[0].preselect, "the minimal registration has its Annotator");
}

#[test]
fn editing_the_name_of_an_existing_tag_replaces_the_name_only() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Ev|nt \"Open\"]\n");
    let event = suggestions.iter().find(|s| s.label == "Event").expect("Event");
    assert_eq!(&text[event.edit_range], "Evnt");
    assert_eq!(event.plain, "Event");
}

#[test]
fn tag_values_are_offered_inside_the_quotes() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Result \"|\"]\n");
    assert_eq!(labels(&suggestions), ["3-0", "2-1", "0-3", "1-2", "1-1", "*"]);
    assert_eq!(suggestions[0].edit_range.start, suggestions[0].edit_range.end);
    assert_eq!(&text[suggestions[0].edit_range.end..suggestions[0].edit_range.end + 1], "\"");
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Mode \"O|TB\"]\n");
    assert_eq!(labels(&suggestions), ["OTB", "ICS", "TC", "EM", "BBS"]);
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Date \"2025|\"]\n");
    assert_eq!(suggestions[0].snippet, "${1:YYYY}-${2:MM}-${3:DD}");
    assert_eq!(&text[suggestions[0].edit_range], "2025");
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Redefine \"|\"]\n");
    assert_eq!(labels(&suggestions)[0], "FAN");
    let (_, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Redefine \"A@J, C@N, T@R\"]\n[PDTL \"|\"]\n");
    assert!(
        suggestions[0].plain.starts_with("/28:v/27:dk/26:gag/25:tcct/"),
        "{}",
        suggestions[0].plain
    );
}

#[test]
fn the_movetext_offers_the_pieces_of_the_side_to_move() {
    let (text, suggestions) = at_cursor("[Variant \"C'escacs\"]\n\n1. K4-K6, |\n");
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
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[White \"Núria\"]\n\n1. K4-K6, E21-E19\n2. J|\n");
    let bishop = suggestions.iter().find(|s| s.label == "JF6").expect("the black-hex Bishop");
    assert_eq!(&text[bishop.edit_range], "J");
    assert_eq!(bishop.detail, "White Bishop on F6");
    assert!(labels(&suggestions).contains(&"K6"), "the pawn that moved is on K6");
    assert!(!labels(&suggestions).contains(&"K4"));
}

#[test]
fn nothing_is_offered_after_a_half_move_that_could_not_be_replayed() {
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n\n1. NF6-B18, |\n");
    assert!(suggestions.is_empty(), "{:?}", labels(&suggestions));
}

#[test]
fn fan_records_offer_figurines() {
    let (_, suggestions) = at_cursor("[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. |\n");
    assert!(labels(&suggestions).contains(&"♔G1"), "{:?}", labels(&suggestions));
    assert!(labels(&suggestions).contains(&"E7"));
}

#[test]
fn comments_offer_markers_then_references_to_earlier_moves() {
    let game =
        "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20\n{ |}\n3. K6-K8\n*\n";
    let (_, suggestions) = at_cursor(game);
    assert_eq!(labels(&suggestions), ["@W:", "@B:"]);
    assert_eq!(suggestions[1].detail, "Black comment on 2. …, EE23-D20");
    let (text, suggestions) = at_cursor(&game.replace("{ |}", "{ @W: like #|}"));
    assert_eq!(labels(&suggestions), ["#2@B", "#2@W", "#1@B", "#1@W"]);
    assert_eq!(&text[suggestions[0].edit_range], "#");
    let (_, suggestions) = at_cursor(&game.replace("{ |}", "{ @W: like |}"));
    assert!(suggestions.is_empty());
}

#[test]
fn references_in_a_variation_follow_its_history() {
    let game = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20\n(2. …, E19-E17\n{ after #|}\n)\n*\n";
    let (_, suggestions) = at_cursor(game);
    assert_eq!(labels(&suggestions), ["#2@B", "#2@W", "#1@B", "#1@W"]);
    assert_eq!(suggestions[0].detail, "2. …, E19-E17");
}

#[test]
fn the_half_moves_of_the_side_to_move_are_written_out_with_the_check_they_give() {
    let (text, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[Black \"Vidàl\"]\n\n1. K4-K6, E21-E19\n2. JF6-|\n");
    let moves: Vec<&CompletionItem> =
        suggestions.iter().filter(|s| s.kind == CompletionKind::Move).collect();
    assert!(
        moves.iter().all(|s| &text[s.edit_range] == "JF6-"),
        "the half-move typed so far is replaced"
    );
    let bishop: Vec<&str> =
        moves.iter().map(|s| s.label.as_str()).filter(|label| label.starts_with("JF6-")).collect();
    assert!(
        !bishop.is_empty() && bishop.iter().all(|label| label.len() <= "JF6-C15+∞".len()),
        "{bishop:?}"
    );
    assert!(labels(&suggestions).contains(&"E7-E13") && !labels(&suggestions).contains(&"E7-E15"));
    // A Rook that checks the King from afar, from a PDTL.
    let (_, suggestions) =
        at_cursor("[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3|\n");
    let check = suggestions
        .iter()
        .find(|s| s.label == "RC3-F6+∞")
        .expect("the check is offered with its suffix");
    assert_eq!(check.detail, "White Rook C3 to F6, check from afar");
    assert!(!labels(&suggestions).contains(&"RC3-E9"), "a Rook does not move like that");
}
