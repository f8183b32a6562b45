//! A record's text put into the Markdown an editor shows (hovers): as text that reads as what
//! was written and never as markup, or as a code span that nothing inside can close. A record
//! is data; written into Markdown raw, `![t](https://…)` in a tag value is an image the editor
//! fetches, and `<img onerror=…>` is HTML.
//!
//! Hovers put record text inside a line, never at its start, so only the characters that open
//! markup inside a line are escaped here; `hover::fit`, which wraps long lines, never starts a
//! line with a word that would begin a block. A line break in record text becomes a blank, so
//! that the hover's own lines (a list item, a heading) stay as they were written.

mod plain;

pub use plain::plain;

/// `raw` as Markdown text that renders as `raw`: a backslash before every character that could
/// open markup inside a line (CommonMark's emphasis, code spans, links, images, raw HTML,
/// entities and autolinks, and GitHub's strikethrough, tables and bare links, which VS Code's
/// hover renders), and line breaks as blanks.
///
/// `!`, `(` and `)` are left as they are: with `[` and `]` escaped they start nothing, and
/// move text and comments use them. `#`, `+`, `-`, `=` and digits start blocks only at the start
/// of a line, where record text is never put.
pub fn text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + raw.len() / 8);
    for (at, ch) in raw.char_indices() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            // A bare link of GitHub's Markdown: `https://`, `www.`, `name@host.domain`.
            ':' if raw[at..].starts_with("://") => out.push_str("\\:"),
            '.' if ends_with_www(&raw[..at]) => out.push_str("\\."),
            '@' if names_a_host(&raw[at + 1..]) => out.push_str("\\@"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// `raw` as a code span that renders as `raw`: delimited by one more backtick than its
/// longest run of backticks, so that nothing inside closes it, with a blank inside each end
/// when it starts or ends with a backtick or a blank (which the span drops again; a span of
/// blanks alone keeps them all). Line breaks
/// become blanks, as they do in any code span, so that no line of it can start a block.
pub fn code(raw: &str) -> String {
    let content = raw.replace(['\n', '\r'], " ");
    if content.is_empty() {
        return "` `".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for ch in content.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let padded = |ch: Option<char>| matches!(ch, Some('`' | ' '));
    let blank = content.bytes().all(|byte| byte == b' ');
    let pad = if !blank && (padded(content.chars().next()) || padded(content.chars().last())) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{content}{pad}{fence}")
}

/// Whether `before` ends with `www`, so that a `.` after it would start a bare link.
fn ends_with_www(before: &str) -> bool {
    before.len() >= 3 && before.as_bytes()[before.len() - 3..].eq_ignore_ascii_case(b"www")
}

/// Whether the text after an `@` reads as a host with a dot (`example.org`), which would make
/// the word before it an e-mail address.
fn names_a_host(after: &str) -> bool {
    let host: &str = after
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .next()
        .unwrap_or("");
    host.trim_end_matches('.').contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use ctlpgn_test_support::markdown::{live_markup, rendered_text};

    /// Text full of markup, and the characters a record writes (FAN figurines, `×`, `…`).
    const MARKUP: &[&str] = &[
        "![t](https://x/t.png)",
        "<img src=x onerror=alert(1)>",
        "[link](javascript:alert(1))",
        "<https://example.org>",
        "https://example.org and www.example.org and me@example.org",
        "**bold** _it_ `code` ~~gone~~ ~one~",
        "a | b\n---|---",
        "&amp; &#60; &lt;",
        "\\[not a link\\] \\",
        "line\nbreak\r\n# heading\n- item\n> quote\n```\nfence",
        "1. K4-K6, E21×F12 … ◇ \u{1FA50} #14@B ~F6 $1 !? (x)",
        "``` `` ` ",
    ];

    #[test]
    fn escaped_record_text_renders_as_itself_and_holds_no_markup() {
        for raw in MARKUP {
            let markdown = format!("- a {} · **b{}b**\n", text(raw), text(raw));
            assert_eq!(live_markup(&markdown), Vec::<String>::new(), "{markdown}");
            let flat = raw.replace(['\n', '\r'], " ");
            assert_eq!(rendered_text(&markdown), format!("a {flat} · b{flat}b\n"), "{markdown}");
        }
        // Move text and references read as written.
        assert_eq!(text("1. K4-K6, E15@D18 #14@B"), "1. K4-K6, E15@D18 #14@B");
        // GitHub's bare links, which a CommonMark parser does not make, are broken up too.
        assert_eq!(text("https://x www.y me@example.org"), "https\\://x www\\.y me\\@example.org");
    }

    #[test]
    fn plain_text_shows_what_the_markdown_reads_without_its_marks() {
        let raw = "![t](https://x/t.png) <b>&amp; `x` **y**";
        let markdown = format!(
            "**2. F8-F12** · White pawn on {} · {}\n\nBlack to move. PDTL:\n\n```text\n/28:v/ b RKRrkr - 0 2\n```\n\n- one\n- two ×\n",
            text(raw),
            code("`a`"),
        );
        assert_eq!(
            plain(&markdown),
            format!(
                "2. F8-F12 · White pawn on {raw} · `a`\n\nBlack to move. PDTL:\n\n/28:v/ b RKRrkr - 0 2\n\n- one\n- two ×"
            )
        );
    }

    #[test]
    fn a_code_span_holds_any_text_and_nothing_inside_closes_it() {
        for raw in MARKUP.iter().copied().chain(["`", "``", " x ", " ", "a`", "`a", ""]) {
            let markdown = format!("**{}** · x\n", code(raw));
            assert_eq!(live_markup(&markdown), Vec::<String>::new(), "{markdown}");
            let flat = raw.replace(['\n', '\r'], " ");
            let flat = if flat.is_empty() { " ".to_string() } else { flat };
            assert_eq!(rendered_text(&markdown), format!("{flat} · x\n"), "{markdown}");
        }
        assert_eq!(code("$[a`b]"), "``$[a`b]``");
        assert_eq!(code("`x"), "`` `x ``");
    }
}
