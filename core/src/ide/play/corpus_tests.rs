//! The moves a board offers agree with the replay, on positions of the corpus (its 40 valid
//! games, `crate::test_corpus`): every half-move the rules allow is offered, found by trying every
//! destination of every piece rather than by the pieces' movement; nothing else is; and
//! every half-move offered, once played, gives a record with no error that stands, at the
//! range answered, in the position the half-move leads to.

use proptest::prelude::*;

use super::*;
use crate::analysis::{analyse_syntax, AnalysisOptions};
use crate::castling;
use crate::diagnostics::Severity;
use crate::document::Document;
use crate::geometry::{Hex, ALL_HEXES};
use crate::identifiers::IdentifierSet;
use crate::movement::is_in_check;
use crate::notation::{Move, PieceMove, Promotion, Separator};
use crate::pdtl;
use crate::pieces::PieceKind;
use crate::replay::{apply, legality_warnings, rule_warnings};
use crate::syntax;
use crate::text::apply_edits;

use crate::test_corpus::GAMES;

/// Every half-move the rules allow in `position`, by brute force: each piece of the side to
/// move tried on every hex of the board (a move to an empty hex, a capture of what stands
/// there, a pawn's `@` and `@@`, each promotion suffix on its promotion hex), each forced
/// promotion and each of the 24 castlings, kept when the replay applies it and neither the
/// rule checks nor the legality checks object (castling also not in check, nor into it).
fn allowed(position: &Position) -> Vec<String> {
    let side = position.turn;
    let mut candidates = Vec::new();
    let promotions = |pawn: bool, to: Hex| -> Vec<Option<Promotion>> {
        if pawn && to.is_promotion_hex(side) {
            let mut all = vec![Some(Promotion::Awaiting)];
            all.extend(PieceKind::ALL.iter().map(|&kind| Some(Promotion::To(kind))));
            all
        } else {
            vec![None]
        }
    };
    for (from, piece) in position.pieces().filter(|(_, piece)| piece.side == side) {
        let pawn = piece.kind == PieceKind::Pawn;
        for &to in ALL_HEXES.iter().filter(|&&to| to != from) {
            let standing = position.get(to);
            let mut forms: Vec<(Separator, Option<PieceKind>)> = match standing {
                None => vec![(Separator::Move, None)],
                Some(taken) if taken.side != side => {
                    let letter = Some(taken.kind).filter(|&kind| kind != PieceKind::Pawn);
                    vec![(Separator::Capture, letter), (Separator::At, letter)]
                }
                Some(_) => Vec::new(),
            };
            if pawn && standing.is_none() {
                // En passant: the captured piece's letter when it is not a pawn (§6.3).
                for letter in std::iter::once(None).chain(PieceKind::ALL.iter().copied().map(Some))
                {
                    forms.push((Separator::At, letter));
                    forms.push((Separator::DoubleAt, letter));
                }
            }
            for (separator, captured) in forms {
                for promotion in promotions(pawn, to) {
                    candidates.push(Move::Piece(PieceMove {
                        piece: piece.kind,
                        origin: from,
                        separator,
                        captured,
                        destination: to,
                        promotion,
                    }));
                }
            }
        }
    }
    for hex in position.awaiting_promotion(side) {
        candidates.extend(PieceKind::ALL.iter().map(|&piece| Move::ForcedPromotion { hex, piece }));
    }
    candidates.extend(castling::all().iter().map(|castling| Move::Castling(castling.token())));
    let in_check = is_in_check(position, side);
    let mut allowed: Vec<String> = candidates
        .iter()
        .filter_map(|mv| {
            let applied = apply(position, mv).ok()?;
            let castling = matches!(mv, Move::Castling(_));
            let refused = (castling && (in_check || is_in_check(&applied.position, side)))
                || !rule_warnings(position, mv).is_empty()
                || !legality_warnings(position, mv, &applied.position).is_empty();
            (!refused).then(|| printed(&applied.position))
        })
        .collect();
    allowed.sort();
    allowed.dedup();
    allowed
}

/// A position as its PDTL, which a failing comparison shows readably.
fn printed(position: &Position) -> String {
    pdtl::print(position, &IdentifierSet::standard())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn the_moves_offered_are_the_replay_s_legal_moves_and_each_plays_cleanly(
        game in 0..GAMES.len(),
        pick in 0.0..1.0f64,
    ) {
        let text = GAMES[game];
        let document = Document::new(text, 1);
        let open = document.at(0).expect("a record");
        let view = open.view();
        let played: Vec<_> = view.analysis.played.iter().collect();
        // A place on a half-move of any line of play, or in the tags (the start).
        let index = (pick * (played.len() + 1) as f64) as usize;
        let offset = match index.checked_sub(1) {
            None => 1,
            Some(index) => played[index].range.start,
        };
        let options = FormatOptions::default();
        let moves = playable_moves(view, offset, &options).expect("a position on the corpus");
        let from = analysis::position_at(view.text, view.syntax, view.analysis, offset)
            .expect("an exact position");
        // The same positions, each offered once.
        let mut offered: Vec<String> = moves
            .iter()
            .map(|playable| {
                let legal = legal_moves(from)
                    .into_iter()
                    .find(|legal| legal.text(&view.analysis.identifiers, Spelling::KEYBOARD) == playable.text)
                    .expect("an offered move is a legal move");
                prop_assert_eq!(legal.applied.effect.origin, playable.from);
                prop_assert_eq!(legal.applied.effect.destination, playable.to);
                Ok(printed(&legal.applied.position))
            })
            .collect::<Result<_, TestCaseError>>()?;
        offered.sort();
        let unique = offered.len();
        offered.dedup();
        prop_assert_eq!(unique, offered.len(), "two texts for one half-move");
        prop_assert_eq!(&offered, &allowed(from), "game {} at {}", game + 1, offset);
        for playable in &moves {
            let done = play(view, offset, &playable.text, &options)
                .unwrap_or_else(|refusal| panic!("{}: {refusal}", playable.text));
            let after = apply_edits(text, &done.edits);
            let record = syntax::parse_record(&after);
            let analysis = analyse_syntax(&after, &record, AnalysisOptions::default());
            let errors: Vec<_> = analysis
                .diagnostics
                .iter()
                .chain(&analysis.rule_warnings)
                .filter(|diagnostic| diagnostic.severity == Severity::Error || diagnostic.code.as_str().starts_with('R'))
                .map(|diagnostic| format!("{} {}", diagnostic.code, diagnostic.message))
                .collect();
            prop_assert!(errors.is_empty(), "{} at {}: {:?}", playable.text, offset, errors);
            let at = analysis::position_at(&after, &record, &analysis, done.range.start).expect("a position");
            prop_assert!(offered.contains(&printed(at)), "{} at {}", playable.text, offset);
            prop_assert_eq!(&after[done.range], playable.text.as_str());
        }
    }
}
