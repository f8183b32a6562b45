//! Record text in hovers is data: records full of Markdown and HTML, hovered at every
//! character, give hovers with no live markup from them, whose rendered text shows the
//! records' markup as written (read back with a CommonMark parser, as an editor renders it).

use super::{hover, HoverOptions};
use crate::analysis::{analyse_syntax, AnalysisOptions};
use crate::document::RecordView;
use crate::ide::markdown::plain;
use crate::syntax;
use ctlpgn_test_support::markdown::{live_markup, plain_text, rendered_text};

/// Markup a record might hold, each a string the test finds in the hovers' rendered text.
const MARKUP: &[&str] = &[
    "![t](https://x/t.png)",
    "<img src=x onerror=alert(1)>",
    "[l](javascript:alert(1))",
    "<https://x.org>",
    "**b**",
    "`c`",
    "~~s~~",
    "&lt;",
    "a|b",
];

/// The hover of the PDTL's turn field the F9 probe found an image in.
const TURN: &str = "turn ![t](https://x/t.png) is not w or b";

/// Records full of markup: in tag values and names, player names, comments (beside NAGs, `~`
/// coordinates and pieces, `#` references), a variation, a half-move, and a PDTL whose turn
/// field is an image and whose other fields are HTML.
fn records() -> Vec<String> {
    let all = MARKUP.join(" ");
    vec![
        "[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ ![t](https://x/t.png) -- - 0 1\"]\n\n1. RC3-F6+, KF20-E21:\n*\n".to_string(),
        "[Variant \"C'escacs\"]\n[PDTL \"/1:K<img src=x onerror=alert(1)>/0:k/ w &lt; [l](javascript:alert(1)) 0 1\"]\n*\n".to_string(),
        format!(
            "[Variant \"C'escacs\"]\n[Event \"{all}\"]\n[White \"{all} Pérez\"]\n[Black \"`{all}\"]\n[Dat<img> \"x\"]\n\n\
             1. K4-K6, E21-E19 $1\n{{ {all} ~F6 ~J[d] ~Y3 ~K<img> ~<b>F6 #1@W #14@B #9 }}\n\
             ($[1] 1. …, E21-E17 {{ {all} }})\n($[<b>x</b>] 1. …, E21-E15 ![t](https://x/t.png))\n\
             2. JF6-B18 {{ {all} }}, EE23-D20\n\
             3. NF6-<img>, EG23-F20 ![t](https://x/t.png)\n{{ #1.1 #2 #3@W #3.1 #<img>@W }}\n*\n"
        ),
    ]
}

/// Hovered at every character, with text boards and with images, no hover holds live markup;
/// every markup string of the records shows in some hover's rendered text as written, and the
/// plain text of each reads as a CommonMark parser reads it.
#[test]
fn no_hover_carries_live_markup_from_the_record_and_its_text_shows_as_written() {
    let mut shown: Vec<&str> = Vec::new();
    let mut turn = false;
    for text in records() {
        let tree = syntax::parse(&mut syntax::new_parser(), &text);
        let record = syntax::lower_record(&tree, &text);
        let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
        let view = RecordView { text: &text, start: 0, syntax: &record, analysis: &analysis };
        for offset in (0..text.len()).filter(|&offset| text.is_char_boundary(offset)) {
            for images in [false, true] {
                let Some(found) = hover(view, offset, HoverOptions { images }) else { continue };
                let live = live_markup(&found.markdown);
                assert!(live.is_empty(), "{live:?} at {offset} of\n{text}\n{}", found.markdown);
                let reading = plain_text(&found.markdown);
                assert_eq!(plain(&found.markdown), reading, "at {offset} of\n{text}");
                let rendered = rendered_text(&found.markdown);
                shown.extend(MARKUP.iter().filter(|markup| rendered.contains(*markup)));
                turn |= rendered.contains(TURN);
            }
        }
    }
    assert!(turn, "{TURN}");
    for markup in MARKUP {
        assert!(shown.contains(markup), "{markup} is in no hover");
    }
}
