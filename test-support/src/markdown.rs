//! The Markdown the server writes, read back with a CommonMark parser (GitHub's tables and
//! strikethrough on, as VS Code renders them): what in it is live markup the server never
//! writes itself, so could only have come from a record's text, and the text it renders. The
//! hover tests and the fuzzer's hover oracle judge by these.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The one image a hover draws itself: a board, as an SVG in a `data:` URI.
const BOARD_IMAGE: &str = "data:image/svg+xml;base64,";

fn parse(markdown: &str) -> Parser<'_> {
    Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

/// The live markup of `markdown` that the server never writes, each said with the Markdown it
/// comes from: an image other than a board's `data:` SVG, a link (autolinks included), raw
/// HTML (a block or inline), a table or a strikethrough. Empty for Markdown the server may send.
pub fn live_markup(markdown: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (event, range) in parse(markdown).into_offset_iter() {
        let what = match event {
            Event::Start(Tag::Image { dest_url, .. }) if !dest_url.starts_with(BOARD_IMAGE) => {
                "an image"
            }
            Event::Start(Tag::Link { .. }) => "a link",
            Event::Html(_) | Event::InlineHtml(_) => "HTML",
            Event::Start(Tag::Table(_)) => "a table",
            Event::Start(Tag::Strikethrough) => "a strikethrough",
            _ => continue,
        };
        found.push(format!("{what}: {:?}", &markdown[range]));
    }
    found
}

/// The text `markdown` renders, its code spans and code blocks included, a line break within a
/// paragraph read as a blank and every block ended by a line break.
pub fn rendered_text(markdown: &str) -> String {
    let mut text = String::new();
    for event in parse(markdown) {
        match event {
            Event::Text(part) | Event::Code(part) => text.push_str(&part),
            Event::SoftBreak => text.push(' '),
            Event::HardBreak => text.push('\n'),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::BlockQuote(_)
                | TagEnd::CodeBlock,
            ) if !text.is_empty() && !text.ends_with('\n') => text.push('\n'),
            _ => {}
        }
    }
    text
}
