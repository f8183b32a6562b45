//! The canonical layout of the movetext, hinted (handbook §7.2, §11.4): one space after a move
//! number and after the comma, none before the comma (M027), and indentation dots equal to the
//! nesting depth of their line (M029). Both are information hints about layout alone: the
//! replay and every other check read past them, and `fmt` writes this layout.

use crate::diagnostics::{Code, Diagnostic, Findings, Fix};
use crate::format::MAX_LAYOUT_DEPTH;
use crate::syntax::chars::{is_blank, is_line_end, BYTE_ORDER_MARK};
use crate::syntax::{Item, MoveLine, RecordSyntax, Step};
use crate::text::{TextEdit, TextRange};

/// Checks the spacing of every move line and the dots of every line of the movetext `items`
/// (the main line's, its variations' with them).
pub(super) fn check_layout(
    text: &str,
    syntax: &RecordSyntax,
    items: &[Item],
    findings: &mut Findings,
) {
    // The depth of the items that come next: a variation's items are one deeper than its `(`.
    let mut depth = 0;
    for step in syntax.walk(items) {
        match step {
            Step::Item(item, item_depth) => {
                depth = item_depth;
                match item {
                    Item::MoveLine(line) => {
                        check_spacing(text, line, findings);
                        check_dots(text, line.number.range, Line::Content(depth), findings);
                    }
                    Item::Comment(comment) => {
                        check_dots(text, comment.open.range, Line::Content(depth), findings);
                    }
                    Item::Variation(variation) => {
                        depth += 1;
                        check_dots(text, variation.open.range, Line::Opens(depth), findings);
                    }
                    // A result carries no indentation (the grammar reads none before it), and
                    // one inside a variation is M007; a stray `)` is M011.
                    Item::Result(_) | Item::StrayClose(_) | Item::Error(_) | Item::Tag(_) => {}
                }
            }
            Step::Leave(variation) => {
                if let Some(close) = &variation.close {
                    check_dots(text, close.range, Line::Closes(depth), findings);
                }
                depth = depth.saturating_sub(1);
            }
        }
    }
}

/// The blanks a move line is written with: between its number and what follows, around its
/// comma.
fn check_spacing(text: &str, line: &MoveLine, findings: &mut Findings) {
    let number = line.number.range;
    // A number the parser had to insert is empty: S001 or S011 says what is wrong there.
    if number.is_empty() {
        return;
    }
    let first = line.white().map(|white| white.range).or(line.ellipsis.map(|e| e.range));
    let gap = |before: TextRange, end: usize, gap: Gap<'_>, findings: &mut Findings| {
        check_gap(text, number.start, (before, end), gap, findings);
    };
    if let Some(first) = first {
        gap(number, first.start, Gap::AfterNumber(line.number.text(text)), findings);
    }
    let Some(comma) = line.comma.map(|comma| comma.range) else { return };
    if let Some(first) = first {
        gap(first, comma.start, Gap::BeforeComma, findings);
    }
    if let Some(black) = line.black() {
        gap(comma, black.range.start, Gap::AfterComma, findings);
    }
}

/// A place in a move line where the spacing is fixed (§7.2).
#[derive(Clone, Copy)]
enum Gap<'t> {
    /// After the move number (`12.`, `1?`): one space.
    AfterNumber(&'t str),
    /// Between White's half-move (or the ellipsis) and the comma: nothing.
    BeforeComma,
    /// Between the comma and Black's half-move: one space.
    AfterComma,
}

impl Gap<'_> {
    /// The canonical text of the gap.
    fn canonical(self) -> &'static str {
        match self {
            Gap::AfterNumber(_) | Gap::AfterComma => " ",
            Gap::BeforeComma => "",
        }
    }
}

/// M027 when the blanks from the token `before` to `end` are not the gap's canonical ones.
/// Text other than blanks there (a line end: a pair split across lines, M014; what the parser
/// could not place) is no matter of spacing, and left to the checks that judge it. The
/// diagnostic spans the move line from its number (at `number_start`, where the handbook's
/// §14 anchors M027) to the end of the gap; its fix rewrites the gap alone.
fn check_gap(
    text: &str,
    number_start: usize,
    (before, end): (TextRange, usize),
    gap: Gap<'_>,
    findings: &mut Findings,
) {
    // A tree recovered from errors may place the tokens out of order.
    let Some(written) = text.get(before.end..end) else { return };
    let range = TextRange::new(before.end, end);
    if number_start > range.start {
        return;
    }
    let canonical = gap.canonical();
    if written == canonical || !written.chars().all(is_blank) {
        return;
    }
    let found = blanks_in_words(written);
    let (message, title) = match gap {
        Gap::AfterNumber(number) => (
            format!("one space after the move number {number}, found {found}"),
            format!("Write one space after {number}"),
        ),
        Gap::BeforeComma => (
            format!("no space before the comma, found {found}"),
            "Remove the blanks before the comma".to_string(),
        ),
        Gap::AfterComma => (
            format!("one space after the comma, found {found}"),
            "Write one space after the comma".to_string(),
        ),
    };
    let mut diagnostic = Diagnostic::new(Code::M027, TextRange::new(number_start, end), message);
    if !findings.is_full() {
        let edit = fix_edit(text, range, canonical, before);
        diagnostic = diagnostic.with_fix(Fix { title, edits: vec![edit] });
    }
    findings.push(diagnostic);
}

/// Blanks said in words: `none`, `2 spaces`, `a tab`, `a space and a tab`.
fn blanks_in_words(blanks: &str) -> String {
    if blanks.is_empty() {
        return "none".to_string();
    }
    let count = |blank: char| blanks.chars().filter(|&c| c == blank).count();
    let kinds =
        [(count(' '), "space"), (count('\t'), "tab"), (count(BYTE_ORDER_MARK), "byte-order mark")];
    let words: Vec<String> = kinds
        .into_iter()
        .filter(|&(count, _)| count > 0)
        .map(|(count, kind)| match count {
            1 => format!("a {kind}"),
            _ => format!("{count} {kind}s"),
        })
        .collect();
    words.join(" and ")
}

/// A line of the movetext, by what it holds, with the dots it carries (§11.4).
#[derive(Clone, Copy)]
enum Line {
    /// A move line or a comment of a line of play of this depth (0: the main line): as many
    /// dots as the depth.
    Content(usize),
    /// The line whose `(` opens a variation of this depth: one dot fewer.
    Opens(usize),
    /// A line that starts with the `)` of a variation of this depth: one dot fewer.
    Closes(usize),
}

impl Line {
    fn expected_dots(self) -> usize {
        match self {
            Line::Content(depth) => depth,
            Line::Opens(depth) | Line::Closes(depth) => depth.saturating_sub(1),
        }
    }

    fn described(self) -> String {
        match self {
            Line::Content(depth) => format!("a line at depth {depth}"),
            Line::Opens(depth) => format!("the line opening a variation of depth {depth}"),
            Line::Closes(depth) => format!("the line closing a variation of depth {depth}"),
        }
    }
}

/// M029 when the line whose content starts with the token `first` carries other than its dots.
/// Content that does not start its line (a move line after `(`, a `)` after a half-move) has no
/// indentation of its own, and a token the parser had to insert (empty) is no content.
fn check_dots(text: &str, first: TextRange, line: Line, findings: &mut Findings) {
    let start = first.start;
    if first.is_empty() {
        return;
    }
    let Some(indentation) = indentation_before(text, start) else { return };
    let written = &text[indentation];
    let dots = written.bytes().filter(|&b| b == b'.').count();
    let expected = line.expected_dots();
    if dots == expected {
        return;
    }
    // The dots, from the first to the last (the grammar's indentation token), or the place
    // before the content where they go.
    let range = match (written.find('.'), written.rfind('.')) {
        (Some(first), Some(last)) => {
            TextRange::new(indentation.start + first, indentation.start + last + 1)
        }
        _ => TextRange::empty(start),
    };
    let message = format!(
        "{} for {}, expected {}",
        dots_in_words(dots),
        line.described(),
        match expected {
            0 => "none".to_string(),
            n => n.to_string(),
        }
    );
    let mut diagnostic = Diagnostic::new(Code::M029, range, message);
    // No fix deeper than `fmt` lays out: a line nested a million deep would be fixed with a
    // million dots, and a hundred such fixes would hold a hundred times the record.
    if !findings.is_full() && expected <= MAX_LAYOUT_DEPTH {
        let title = match expected {
            0 => "Remove the indentation dots".to_string(),
            n => format!("Indent with {}", dots_in_words(n)),
        };
        let edit = fix_edit(text, range, &".".repeat(expected), first);
        diagnostic = diagnostic.with_fix(Fix { title, edits: vec![edit] });
    }
    findings.push(diagnostic);
}

/// The edit that writes `new_text` at `range`. An insertion (an empty `range`) is written as a
/// rewrite of the token `beside` it (`12.` as `12. `, `(` as `.(`), so that it overlaps, rather
/// than touches, another fix of that token (a renumbering, a piece letter): a fix-all then takes
/// one of the two, and never an insertion and a replacement that start at one place, which a
/// client applies only with the insertion first.
fn fix_edit(text: &str, range: TextRange, new_text: &str, beside: TextRange) -> TextEdit {
    if !range.is_empty() {
        TextEdit::replace(range, new_text)
    } else if beside.end == range.start {
        TextEdit::replace(beside, format!("{}{new_text}", &text[beside]))
    } else {
        TextEdit::replace(beside, format!("{new_text}{}", &text[beside]))
    }
}

/// `no dots`, `1 dot`, `2 dots`.
fn dots_in_words(count: usize) -> String {
    match count {
        0 => "no dots".to_string(),
        1 => "1 dot".to_string(),
        n => format!("{n} dots"),
    }
}

/// The indentation before `start` (blanks and dots back to the start of the line), or `None`
/// when other text stands before it on its line. Only the indentation is read, never the line
/// before it: a line of thousands of move pairs is not read again for each.
fn indentation_before(text: &str, start: usize) -> Option<TextRange> {
    let before = text.get(..start)?;
    let mut line_start = 0;
    for (offset, c) in before.char_indices().rev() {
        if is_line_end(c) {
            line_start = offset + 1;
            break;
        }
        if !(c == '.' || is_blank(c)) {
            return None;
        }
    }
    Some(TextRange::new(line_start, start))
}

#[cfg(test)]
mod tests {
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::diagnostics::{Census, Code, Diagnostic};
    use crate::format::{format_text, FormatOptions, MAX_LAYOUT_DEPTH};
    use crate::syntax;
    use crate::text::TextRange;

    /// A tag section with accented names; the lines of the cases hold `×`, `‐` and `…` before
    /// the ranges, which are byte offsets, not characters.
    const HEAD: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Núñez, Àlex\"]\n\n";

    /// The diagnostics of a record, the same through the hand-written reader (when it reads
    /// the record) and through tree-sitter.
    fn analysed(text: &str) -> Vec<Diagnostic> {
        let tree = syntax::parse_record(text);
        let by_tree = analyse_syntax(text, &tree, AnalysisOptions::default()).diagnostics;
        if let Some(read) = syntax::read_record(text) {
            let by_reader = analyse_syntax(text, &read, AnalysisOptions::default()).diagnostics;
            assert_eq!(by_reader, by_tree, "the two readings of\n{text}");
        }
        by_tree
    }

    /// The line of `text` around `range`, the range marked `⟦…⟧`.
    fn marked_line(text: &str, range: TextRange) -> String {
        let start = text[..range.start].rfind('\n').map_or(0, |end| end + 1);
        let end = text[range.end..].find('\n').map_or(text.len(), |end| range.end + end);
        format!(
            "{}⟦{}⟧{}",
            &text[start..range.start],
            &text[range.start..range.end],
            &text[range.end..end]
        )
    }

    /// The layout hints of the record `HEAD` + `movetext`, one line each: the line with the
    /// hint's range marked, the message, the fix and the line once fixed. Each fix, applied,
    /// clears its hint and changes no other finding.
    fn hints(movetext: &str) -> String {
        let text = format!("{HEAD}{movetext}");
        let all = analysed(&text);
        let before = Census::of(&all);
        let mut shown = String::new();
        for hint in all.iter().filter(|d| matches!(d.code, Code::M027 | Code::M029)) {
            let [fix] = hint.fixes.as_slice() else { panic!("one fix: {hint:?}") };
            // An insertion is written as a rewrite of the token beside it (see `fix_edit`).
            assert!(fix.edits.iter().all(|edit| !edit.range.is_empty()), "{fix:?}");
            let fixed = fix.applied_to(&text);
            let mut expected = before.clone();
            match expected.codes.get_mut(&hint.code) {
                Some(1) => drop(expected.codes.remove(&hint.code)),
                Some(count) => *count -= 1,
                None => unreachable!("the hint is counted"),
            }
            assert_eq!(Census::of(&analysed(&fixed)), expected, "{} fixed:\n{fixed}", hint.code);
            let line = text[..hint.range.start].matches('\n').count();
            let fixed_line = fixed.lines().nth(line).unwrap_or_default();
            shown.push_str(&format!(
                "{} | {} {} | {}: {}\n",
                marked_line(&text, hint.range),
                hint.code,
                hint.message,
                fix.title,
                fixed_line
            ));
        }
        shown
    }

    #[test]
    fn the_spacing_after_a_number_and_around_a_comma_is_one_space_after_and_none_before() {
        insta::assert_snapshot!(hints("1.E7‐E13, E21‐E15\n2.  F8‐F12,E21×F20\n3.\tG7-G13 ,  G21-G15\n(3. …,G21‐G17)\n(3.…, F20-F16)\n4. EF12×NF14,EF16×EF14:\n*\n"), @"
        ⟦1.⟧E7‐E13, E21‐E15 | M027 one space after the move number 1., found none | Write one space after 1.: 1. E7‐E13, E21‐E15
        ⟦2.  ⟧F8‐F12,E21×F20 | M027 one space after the move number 2., found 2 spaces | Write one space after 2.: 2. F8‐F12,E21×F20
        ⟦2.  F8‐F12,⟧E21×F20 | M027 one space after the comma, found none | Write one space after the comma: 2.  F8‐F12, E21×F20
        ⟦3.	⟧G7-G13 ,  G21-G15 | M027 one space after the move number 3., found a tab | Write one space after 3.: 3. G7-G13 ,  G21-G15
        ⟦3.	G7-G13 ⟧,  G21-G15 | M027 no space before the comma, found a space | Remove the blanks before the comma: 3.	G7-G13,  G21-G15
        ⟦3.	G7-G13 ,  ⟧G21-G15 | M027 one space after the comma, found 2 spaces | Write one space after the comma: 3.	G7-G13 , G21-G15
        (⟦3. …,⟧G21‐G17) | M027 one space after the comma, found none | Write one space after the comma: (3. …, G21‐G17)
        (⟦3.⟧…, F20-F16) | M027 one space after the move number 3., found none | Write one space after 3.: (3. …, F20-F16)
        ⟦4. EF12×NF14,⟧EF16×EF14: | M027 one space after the comma, found none | Write one space after the comma: 4. EF12×NF14, EF16×EF14:
        ");
    }

    #[test]
    fn indentation_dots_count_the_depth_of_their_line() {
        let movetext = "\
1. E7‐E13, E21‐E15
.{ Àlex: × … ‐ }
(1. F8‐F12, F20‐F16
.2. G7‐G13, G21‐G15
(2. H6‐H12, G21‐G17
...3. K4‐K6)
{ Núñez }
..)
.(1. …, F20‐F16)
..2. F8‐F12:
*
";
        insta::assert_snapshot!(hints(movetext), @"
        ⟦.⟧{ Àlex: × … ‐ } | M029 1 dot for a line at depth 0, expected none | Remove the indentation dots: { Àlex: × … ‐ }
        ⟦⟧(2. H6‐H12, G21‐G17 | M029 no dots for the line opening a variation of depth 2, expected 1 | Indent with 1 dot: .(2. H6‐H12, G21‐G17
        ⟦...⟧3. K4‐K6) | M029 3 dots for a line at depth 2, expected 2 | Indent with 2 dots: ..3. K4‐K6)
        ⟦⟧{ Núñez } | M029 no dots for a line at depth 1, expected 1 | Indent with 1 dot: .{ Núñez }
        ⟦..⟧) | M029 2 dots for the line closing a variation of depth 1, expected none | Remove the indentation dots: )
        ⟦.⟧(1. …, F20‐F16) | M029 1 dot for the line opening a variation of depth 1, expected none | Remove the indentation dots: (1. …, F20‐F16)
        ⟦..⟧2. F8‐F12: | M029 2 dots for a line at depth 0, expected none | Remove the indentation dots: 2. F8‐F12:
        ");
    }

    #[test]
    fn no_dots_are_offered_deeper_than_fmt_lays_out() {
        let fixes = |depth: usize| {
            let text = format!(
                "{HEAD}1. E7-E13, E21-E15\n{}\n2. G7-G13{}\n2. F8-F12:\n*\n",
                "(1. F8-F12, F20-F16 ".repeat(depth),
                ")".repeat(depth)
            );
            let dots: Vec<Diagnostic> =
                analysed(&text).into_iter().filter(|d| d.code == Code::M029).collect();
            let [hint] = dots.as_slice() else { panic!("one M029: {dots:?}") };
            assert_eq!(
                hint.message,
                format!("no dots for a line at depth {depth}, expected {depth}")
            );
            hint.fixes.len()
        };
        assert_eq!(fixes(MAX_LAYOUT_DEPTH), 1);
        assert_eq!(fixes(MAX_LAYOUT_DEPTH + 1), 0);
    }

    #[test]
    fn a_formatted_record_has_no_layout_hints() {
        let text = format!(
            "{HEAD}1.E7‐E13 ,E21‐E15\n  (1.F8‐F12,F20‐F16\n..2.  G7‐G13)\n\t.(1.…,F20‐F16)\n2. F8‐F12:\n*\n"
        );
        let codes = |text: &str| -> Vec<Code> {
            let layout = |d: &&Diagnostic| matches!(d.code, Code::M027 | Code::M029);
            analysed(text).iter().filter(layout).map(|d| d.code).collect()
        };
        assert_eq!(codes(&text).len(), 10, "{:?}", codes(&text));
        let formatted = format_text(&text, &FormatOptions::default());
        assert_eq!(codes(&formatted), [], "{formatted}");
    }
}
