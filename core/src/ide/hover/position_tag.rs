//! The hover of the value of a `PDTL` tag (handbook §9): the position it describes written
//! canonically, its fields in words and its board, or the problems that keep it from being
//! read.

use super::history::{self, Shown};
use super::{Context, HoverText};
use crate::diagnostics::Severity;
use crate::ide::markdown;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::pieces::Side;
use crate::position::{CastlingRights, Position, SpecialCapture};
use crate::syntax::Tag;

/// The hover of a tag's value: only the position tag (`PDTL`, or its legacy names) has one.
pub(super) fn hover(record: Context<'_>, tag: &Tag) -> Option<HoverText> {
    if !matches!(tag.name.text(record.view.text), "PDTL" | "TLPD" | "DPTL") {
        return None;
    }
    let range = tag.value.as_ref()?.range;
    let value = tag.value_text(record.view.text)?;
    let ids = &record.view.analysis.identifiers;
    let reading = pdtl::parse(&value, ids);
    let mut markdown = String::from("**PDTL** · the position the record starts from\n\n");
    for problem in &reading.problems {
        let severity = if problem.severity == Severity::Error { "error" } else { "warning" };
        markdown.push_str(&format!(
            "- {} `{}` ({severity}): {}\n",
            problem.code,
            problem.code.name(),
            markdown::text(&problem.message)
        ));
    }
    if !reading.problems.is_empty() {
        markdown.push('\n');
    }
    match &reading.position {
        Some(position) => {
            let fields = fields_in_words(position, ids);
            let shown = Shown { position, marked: &[], check: None, note: &fields };
            history::write_position(record, &mut markdown, shown);
        }
        None => markdown.push_str("The position cannot be read, so the moves are not replayed.\n"),
    }
    Some(HoverText { range, markdown })
}

/// The fields after the placement, one sentence each (§9.3-§9.6).
fn fields_in_words(position: &Position, ids: &IdentifierSet) -> String {
    let castling = [Side::White, Side::Black].map(|side| {
        let mut written = String::new();
        pdtl::write_castling_part(position.castling[side.index()], ids, side, &mut written);
        format!(
            "{} `{written}` {}",
            side.name(),
            castling_in_words(position.castling[side.index()])
        )
    });
    let mut special = String::new();
    pdtl::write_special(&position.special, &mut special);
    let special_words = match &position.special {
        SpecialCapture::None => "nothing to take en passant or as a scornful pawn".to_string(),
        SpecialCapture::EnPassant { piece, crossed } => {
            let crossed: Vec<String> = crossed.iter().map(ToString::to_string).collect();
            format!("the piece on {piece} may be taken en passant on {}", crossed.join(" or "))
        }
        SpecialCapture::Scornful { piece, .. } => {
            format!("the scornful pawn on {piece} may be taken")
        }
    };
    let move_number = position
        .move_number
        .map_or_else(|| "unknown (`?`)".to_string(), |number| number.to_string());
    format!(
        "- turn: {} to move\n- castling: {}; {}\n- special capture: `{special}`, {special_words}\n- halfmove clock: {}\n- move number: {move_number}\n\n",
        position.turn.name(),
        castling[0],
        castling[1],
        position.halfmove_clock
    )
}

/// One side's castling status in words (§8.3).
fn castling_in_words(rights: CastlingRights) -> &'static str {
    match (rights.king, rights.queen_rook, rights.king_rook) {
        (false, _, _) => "(the King has moved)",
        (true, true, true) => "(King and both Rooks unmoved)",
        (true, false, true) => "(King and King's Rook unmoved)",
        (true, true, false) => "(King and Queen's Rook unmoved)",
        (true, false, false) => "(King unmoved, both Rooks moved)",
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::hover_at;

    /// The position after `1. E7-E13` (handbook §9.8).
    const AFTER_TRIPLE_STEP: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";

    #[test]
    fn a_pdtl_value_shows_its_board_and_fields() {
        let text = format!(
            "[Variant \"C'escacs\"]\n[PDTL \"{AFTER_TRIPLE_STEP}\"]\n\n1. …, E21-E15:\n*\n"
        );
        let hover = hover_at(&text, "/28:v").expect("a hover");
        assert_eq!(&text[hover.range], format!("\"{AFTER_TRIPLE_STEP}\""));
        insta::assert_snapshot!("position_tag", hover.markdown);
        // The PDTL whole, as the handbook writes it (§9.8).
        assert!(
            hover.markdown.contains(&format!("PDTL:\n\n```text\n{AFTER_TRIPLE_STEP}\n```\n")),
            "{}",
            hover.markdown
        );
    }

    #[test]
    fn an_unreadable_pdtl_shows_its_problems() {
        let text = "[Variant \"C'escacs\"]\n[PDTL \"/1:K/ w - -\"]\n";
        let hover = hover_at(text, "/1:K").expect("a hover");
        insta::assert_snapshot!("position_tag_unreadable", hover.markdown);
        assert_eq!(hover_at(text, "\"C'escacs"), None);
    }
}
