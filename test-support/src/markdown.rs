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

/// The plain text `markdown` reads as, by a CommonMark parser (no extension, as a client that
/// shows no Markdown would): the reading `ctlpgn_core::ide::markdown::plain` must give, each
/// event written as it writes it — text and code as they read, a line break as one, a list
/// item after `- `, a thematic break as `---`, a blank line after each block.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let end_block = |out: &mut String| {
        let kept = out.trim_end_matches('\n').len();
        out.truncate(kept);
        if !out.is_empty() {
            out.push_str("\n\n");
        }
    };
    for event in Parser::new(markdown) {
        match event {
            Event::Text(part) | Event::Code(part) | Event::Html(part) | Event::InlineHtml(part) => {
                out.push_str(&part)
            }
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            Event::Rule => {
                end_block(&mut out);
                out.push_str("---");
                end_block(&mut out);
            }
            Event::Start(Tag::Item) => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("- ");
            }
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::CodeBlock
                | TagEnd::List(_)
                | TagEnd::BlockQuote(_),
            ) => end_block(&mut out),
            _ => {}
        }
    }
    out.trim_end_matches('\n').to_string()
}
