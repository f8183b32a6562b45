//! A text hover fitted to the width of its code lines: a client that shows the hover's
//! Markdown as text (Neovim, Emacs) sizes its window to the longest line, and a code line (the
//! board picture, the PDTL) must stay whole, so prose is what gives way. Paragraphs and list
//! items are wrapped at their blanks to the widest code line, and never narrower than the board
//! (Markdown reads a line break inside a paragraph as a blank, so the rendered text is the
//! same). Code lines are never touched: a PDTL stays one line a user copies whole.

use crate::board::text::WIDTH;

/// `markdown` with every line outside code blocks wrapped at its blanks to the width of the
/// widest code line (at least the board picture's); a word wider than that stays whole on
/// its own line.
pub(super) fn wrapped(markdown: &str) -> String {
    let width = widest_code_line(markdown).max(WIDTH);
    let mut out = String::with_capacity(markdown.len() + markdown.len() / 16);
    let mut in_code = false;
    for line in markdown.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        if is_fence(content) {
            in_code = !in_code;
        }
        if in_code || is_fence(content) || content.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        wrap_line(content, width, &mut out);
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The width of the widest line inside the code blocks of `markdown`, in characters.
fn widest_code_line(markdown: &str) -> usize {
    let mut in_code = false;
    let mut widest = 0;
    for line in markdown.lines() {
        if is_fence(line) {
            in_code = !in_code;
        } else if in_code {
            widest = widest.max(line.chars().count());
        }
    }
    widest
}

/// Whether a line opens or closes a code block: three backticks and no backtick after them (a
/// line that a code span of record text, such as ``` ``$[a`b]`` ```, starts after a wrap is
/// prose).
fn is_fence(line: &str) -> bool {
    line.starts_with("```") && !line.trim_start_matches('`').contains('`')
}

/// One long line wrapped to `width`: a list item's next lines are indented under its text.
fn wrap_line(content: &str, width: usize, out: &mut String) {
    let indent = if content.starts_with("- ") { "  " } else { "" };
    let mut column = 0;
    for unit in units(content) {
        let length = unit.chars().count();
        if column > 0 && column + 1 + length > width {
            out.push('\n');
            out.push_str(indent);
            column = indent.len();
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&unit);
        column += length;
    }
}

/// The words of a line, each joined to the word before it when it could not start a line:
/// at the start of a line, `-`, `+`, `*`, `>`, `#`, `1.` or `===` would begin a list, a quote,
/// a heading or a rule instead of going on with the paragraph.
fn units(content: &str) -> Vec<String> {
    let mut units: Vec<String> = Vec::new();
    for word in content.split(' ') {
        match units.last_mut() {
            Some(last) if word.is_empty() || starts_a_block(word) => {
                last.push(' ');
                last.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
    }
    units
}

/// Whether a word at the start of a line would begin a Markdown block of its own.
fn starts_a_block(word: &str) -> bool {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    matches!(word, "-" | "+" | "*" | ">")
        || word.starts_with('>')
        || word.chars().all(|c| c == '#')
        || word.chars().all(|c| matches!(c, '=' | '-' | '*' | '_'))
        || (1..=9).contains(&digits) && matches!(&word[digits..], "." | ")")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::board::text::oriented_picture;
    use crate::document::RecordView;
    use crate::geometry::Hex;
    use crate::ide::hover::{hover, HoverOptions};
    use crate::syntax;

    /// A game in FAN figurines by a player with a long name, to its en passant capture.
    const FAN_GAME: &str = "[Variant \"C'escacs\"]\n[White \"Bartomeu Castellví i de la Serra-Puigdomènech, Maria Antònia\"]\n[Black \"Ot\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. ☖E5-E9, ☖E23-E19\n3. D6-D12, E15×D12\n4. ☖E9×D12, ☖E19-E17\n5. E13-E15, C23-C17\n6. C5-C11, C17-C15\n7. ☖D12-D14, ☖E17×☖D14\n8. C11×☗D14, D22-D16\n9. E15@D18, ♗F24×D18:\n{ @W: the pawn of Bartomeu Castellví i de la Serra-Puigdomènech lands on ~D18 #9@W }\n*\n";

    /// The PDTL a text hover shows: the line of the code block after `PDTL:`.
    fn pdtl_line(markdown: &str) -> Option<&str> {
        let opening = "PDTL:\n\n```text\n";
        let after = &markdown[markdown.find(opening)? + opening.len()..];
        after.split_once("\n```\n").map(|(pdtl, _)| pdtl)
    }

    #[test]
    fn a_text_hover_keeps_its_pdtl_whole_and_no_prose_wider_than_its_code() {
        let tree = syntax::parse(&mut syntax::new_parser(), FAN_GAME);
        let syntax = syntax::lower_record(&tree, FAN_GAME);
        let analysis = analyse_syntax(FAN_GAME, &syntax, AnalysisOptions::default());
        let view = RecordView { text: FAN_GAME, start: 0, syntax: &syntax, analysis: &analysis };
        let mut boards = 0;
        for offset in (0..FAN_GAME.len()).filter(|&offset| FAN_GAME.is_char_boundary(offset)) {
            let Some(found) = hover(view, offset, HoverOptions::default()) else { continue };
            if !found.markdown.contains("```text") {
                continue;
            }
            boards += 1;
            let pdtl = pdtl_line(&found.markdown).expect("a PDTL");
            assert!(!pdtl.contains('\n'));
            let reading = crate::pdtl::parse(pdtl, &analysis.identifiers);
            assert!(reading.position.is_some() && reading.problems.is_empty(), "{pdtl}");
            let widest = widest_code_line(&found.markdown);
            assert!(widest >= pdtl.chars().count() && widest >= WIDTH);
            for line in found.markdown.lines() {
                assert!(
                    line.chars().count() <= widest,
                    "{line:?} at {offset}:\n{}",
                    found.markdown
                );
            }
        }
        assert!(boards > 50, "hovers with a board: {boards}");
    }

    #[test]
    fn a_marked_flipped_picture_in_figurines_is_no_wider_than_its_width() {
        let tree = syntax::parse(&mut syntax::new_parser(), FAN_GAME);
        let syntax = syntax::lower_record(&tree, FAN_GAME);
        let analysis = analyse_syntax(FAN_GAME, &syntax, AnalysisOptions::default());
        let position = analysis.played.last().map(|played| &played.after).expect("a replayed game");
        let ids = &analysis.identifiers;
        // Hexes at both edges of the board's widest lines, and the vertices.
        let marked: Vec<Hex> =
            [('P', 21), ('Z', 21), ('P', 7), ('Z', 7), ('F', 0), ('F', 28), ('D', 18)]
                .into_iter()
                .filter_map(|(column, line)| Hex::from_letter(column, line))
                .collect();
        assert!(marked.len() >= 5);
        for flipped in [false, true] {
            let picture = oriented_picture(position, ids, &marked, flipped);
            assert_eq!(picture.lines().count(), 30);
            assert!(picture.contains('🩐') && picture.contains('['));
            for line in picture.lines() {
                assert!(line.chars().count() <= WIDTH, "{line:?}:\n{picture}");
            }
        }
    }

    #[test]
    fn long_lines_wrap_at_the_widest_code_line_and_stay_paragraphs_and_list_items() {
        let code = "  a code line of forty-four characters, whole";
        let markdown = format!("**9. E15@D18** · White pawn E15 takes en passant on D18, removing the pawn on D16 after 1. K4-K6 - maybe\n\n- before 9. E15@D18: the White pawn of Bartomeu Castellví i de la Serra-Puigdomènech\n```text\n{code}\n```\n");
        let width = code.chars().count();
        let wrapped = wrapped(&markdown);
        for line in wrapped.lines() {
            assert!(line.chars().count() <= width, "{line:?} in\n{wrapped}");
            let text = line.trim_start();
            assert!(!text.starts_with("1.") && !text.starts_with("- m"), "{line:?}");
        }
        assert!(wrapped.lines().any(|line| line.chars().count() > WIDTH), "{wrapped}");
        assert!(wrapped.contains(code));
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            markdown.split_whitespace().collect::<Vec<_>>()
        );
        let item: Vec<_> = wrapped.lines().skip_while(|line| !line.starts_with("- ")).collect();
        assert!(item[1].starts_with("  ") && !item[1].starts_with("   "), "{wrapped}");
        // Without a code line wider than the board, the board's width.
        let narrow = super::wrapped(&markdown.replace(code, "short"));
        assert!(narrow.lines().all(|line| line.chars().count() <= WIDTH), "{narrow}");
    }
}
