//! The text a reader sees in a hover's Markdown, for the clients that show no Markdown: a
//! reader of the CommonMark the hovers write, read as a CommonMark parser reads it (the test
//! below holds it to pulldown-cmark's reading on every hover of the test data and of records
//! full of markup). It knows the blocks a hover can hold — paragraphs, bullet and ordered list
//! items, fenced code blocks, headings, thematic breaks — and the inlines — code spans,
//! emphasis, backslash escapes and the board's image — and leaves out what record text can
//! never bring, since `markdown::text` and `markdown::code` escape it: links, raw HTML,
//! entities, block quotes, indented code. A full parser, with its tables of HTML entities and
//! Unicode punctuation, made a sixth of the WebAssembly module.

/// A leaf block of a hover: its lines, as the containers left them.
#[derive(Debug)]
enum Leaf<'a> {
    Paragraph(Vec<&'a str>),
    Heading(Vec<&'a str>),
    Code(Vec<&'a str>),
    Rule,
}

/// What the document holds at its top level: a leaf, or a list of items made of leaves (a
/// hover never nests lists), loose when a blank line separates its items or their blocks.
#[derive(Debug)]
enum Part<'a> {
    Leaf(Leaf<'a>),
    List { items: Vec<Vec<Leaf<'a>>>, loose: bool },
}

/// A fenced code block's opening: its character, length and indentation.
#[derive(Clone, Copy, Debug)]
struct Fence {
    marker: u8,
    length: usize,
    indent: usize,
}

/// The leaves of a container (the document, or a list item) being read: those done, and the
/// paragraph or fenced code block still open.
#[derive(Debug, Default)]
struct Leaves<'a> {
    done: Vec<Leaf<'a>>,
    paragraph: Vec<&'a str>,
    fence: Option<(Fence, Vec<&'a str>)>,
}

impl<'a> Leaves<'a> {
    fn line(&mut self, line: &'a str) {
        if let Some((fence, lines)) = &mut self.fence {
            if closes(*fence, line) {
                let lines = std::mem::take(lines);
                self.done.push(Leaf::Code(lines));
                self.fence = None;
            } else {
                lines.push(without_indent(line, fence.indent));
            }
        } else if is_blank(line) {
            self.end_paragraph();
        } else if !self.paragraph.is_empty() && is_underline(line) {
            let lines = std::mem::take(&mut self.paragraph);
            self.done.push(Leaf::Heading(lines));
        } else if is_rule(line) {
            self.end_paragraph();
            self.done.push(Leaf::Rule);
        } else if let Some(fence) = opening_fence(line) {
            self.end_paragraph();
            self.fence = Some((fence, Vec::new()));
        } else if let Some(content) = atx_heading(line) {
            self.end_paragraph();
            self.done.push(Leaf::Heading(vec![content]));
        } else {
            self.paragraph.push(line);
        }
    }

    fn end_paragraph(&mut self) {
        if !self.paragraph.is_empty() {
            let lines = std::mem::take(&mut self.paragraph);
            self.done.push(Leaf::Paragraph(lines));
        }
    }

    fn is_empty(&self) -> bool {
        self.done.is_empty() && self.paragraph.is_empty() && self.fence.is_none()
    }

    /// The leaves, an unclosed code block running to the container's end.
    fn finish(mut self) -> Vec<Leaf<'a>> {
        self.end_paragraph();
        if let Some((_, lines)) = self.fence {
            self.done.push(Leaf::Code(lines));
        }
        self.done
    }
}

/// A list marker: a bullet's character, or an ordered item's delimiter (`.` or `)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Bullet(u8),
    Ordered(u8),
}

/// A line that starts a list item: its marker, the column its content starts at, and the
/// content.
#[derive(Clone, Copy, Debug)]
struct ItemStart<'a> {
    marker: Marker,
    width: usize,
    content: &'a str,
    /// Whether it may interrupt a paragraph: not empty, and a bullet or an ordered item
    /// numbered 1.
    interrupts: bool,
}

/// The list being read: its items, the column the last item's content starts at, and whether
/// a blank line was read since its last line.
#[derive(Debug)]
struct List<'a> {
    marker: Marker,
    items: Vec<Leaves<'a>>,
    done: Vec<Vec<Leaf<'a>>>,
    width: usize,
    blank: bool,
    loose: bool,
}

impl<'a> List<'a> {
    fn new(start: ItemStart<'a>) -> List<'a> {
        let mut item = Leaves::default();
        item.line(start.content);
        List {
            marker: start.marker,
            items: vec![item],
            done: Vec::new(),
            width: start.width,
            blank: false,
            loose: false,
        }
    }

    /// Whether `line` belongs to the list (and is read into it); otherwise the list ends
    /// before it.
    fn takes(&mut self, line: &'a str) -> bool {
        let Some(item) = self.items.last_mut() else { return false };
        let indent = indent(line);
        if is_blank(line) {
            item.line(line);
            self.blank = true;
            return true;
        }
        if indent >= self.width {
            if self.blank && !item.is_empty() && item.fence.is_none() {
                self.loose = true;
            }
            self.blank = false;
            item.line(without_indent(line, self.width));
            return true;
        }
        if item.fence.is_some() {
            return self.next_item(line);
        }
        if self.next_item(line) {
            return true;
        }
        let Some(item) = self.items.last_mut() else { return false };
        // Any item, of another list, ends this one (an item's paragraph is not the
        // document's, which an ordered item numbered other than 1 cannot interrupt).
        let interrupts = is_rule(line)
            || opening_fence(line).is_some()
            || atx_heading(line).is_some()
            || item_start(line).is_some();
        if !self.blank && !item.paragraph.is_empty() && !interrupts {
            // A lazy continuation line of the item's paragraph.
            item.paragraph.push(line);
            return true;
        }
        false
    }

    /// Starts the next item at `line` if it is one of this list's.
    fn next_item(&mut self, line: &'a str) -> bool {
        let Some(start) = item_start(line).filter(|start| start.marker == self.marker) else {
            return false;
        };
        if is_rule(line) {
            return false;
        }
        if self.blank {
            self.loose = true;
        }
        self.blank = false;
        if let Some(item) = self.items.pop() {
            self.done.push(item.finish());
        }
        let mut item = Leaves::default();
        item.line(start.content);
        self.items.push(item);
        self.width = start.width;
        true
    }

    fn finish(mut self) -> Part<'a> {
        if let Some(item) = self.items.pop() {
            self.done.push(item.finish());
        }
        Part::List { items: self.done, loose: self.loose }
    }
}

/// The document's parts, read line by line.
fn parts(markdown: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut top = Leaves::default();
    let mut list: Option<List<'_>> = None;
    for line in lines(markdown) {
        if let Some(open) = &mut list {
            if open.takes(line) {
                continue;
            }
            if let Some(open) = list.take() {
                parts.push(open.finish());
            }
        }
        let starts_list = top.fence.is_none()
            && (top.paragraph.is_empty() || !is_underline(line))
            && !is_rule(line);
        match item_start(line)
            .filter(|start| starts_list && (top.paragraph.is_empty() || start.interrupts))
        {
            Some(start) => {
                let leaves = std::mem::take(&mut top).finish();
                parts.extend(leaves.into_iter().map(Part::Leaf));
                list = Some(List::new(start));
            }
            None => top.line(line),
        }
    }
    parts.extend(top.finish().into_iter().map(Part::Leaf));
    if let Some(open) = list {
        parts.push(open.finish());
    }
    parts
}

/// The lines of `markdown`, without their line endings (`\n`, `\r\n` or `\r`).
fn lines(markdown: &str) -> impl Iterator<Item = &str> {
    let mut rest = markdown;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let ending = if rest[end..].starts_with("\r\n") { 2 } else { (end < rest.len()) as usize };
        rest = &rest[end + ending..];
        Some(line)
    })
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|byte| byte == b' ' || byte == b'\t')
}

/// The blanks a line starts with.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn without_indent(line: &str, width: usize) -> &str {
    &line[indent(line).min(width)..]
}

/// The line after at most three blanks of indentation, or `None` when it has more.
fn block_start(line: &str) -> Option<&str> {
    (indent(line) <= 3).then(|| line.trim_start_matches(' '))
}

/// A thematic break: three or more of one of `-`, `*`, `_`, blanks between them allowed.
fn is_rule(line: &str) -> bool {
    let Some(rest) = block_start(line) else { return false };
    let Some(marker) = rest.bytes().next().filter(|byte| matches!(byte, b'-' | b'*' | b'_')) else {
        return false;
    };
    let marks = rest.bytes().filter(|&byte| byte == marker).count();
    marks >= 3 && rest.bytes().all(|byte| byte == marker || byte == b' ' || byte == b'\t')
}

/// A setext heading's underline: a run of `=` or of `-`, and blanks after it.
fn is_underline(line: &str) -> bool {
    let Some(rest) = block_start(line) else { return false };
    let rest = rest.trim_end_matches([' ', '\t']);
    !rest.is_empty() && (rest.bytes().all(|b| b == b'=') || rest.bytes().all(|b| b == b'-'))
}

fn opening_fence(line: &str) -> Option<Fence> {
    let rest = block_start(line)?;
    let marker = rest.bytes().next().filter(|byte| matches!(byte, b'`' | b'~'))?;
    let length = rest.len() - rest.trim_start_matches(marker as char).len();
    let info = &rest[length..];
    (length >= 3 && !(marker == b'`' && info.contains('`'))).then_some(Fence {
        marker,
        length,
        indent: indent(line),
    })
}

fn closes(fence: Fence, line: &str) -> bool {
    let Some(rest) = block_start(line) else { return false };
    let run = rest.len() - rest.trim_start_matches(fence.marker as char).len();
    run >= fence.length && is_blank(&rest[run..])
}

/// An ATX heading's content: after one to six `#` and a blank, without a closing run of `#`.
fn atx_heading(line: &str) -> Option<&str> {
    let rest = block_start(line)?;
    let level = rest.len() - rest.trim_start_matches('#').len();
    let after = &rest[level..];
    if !(1..=6).contains(&level) || !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let content = after.trim_matches([' ', '\t']);
    let without_closing = content.trim_end_matches('#');
    Some(if without_closing.is_empty() {
        without_closing
    } else if without_closing.ends_with([' ', '\t']) {
        without_closing.trim_end_matches([' ', '\t'])
    } else {
        content
    })
}

/// A list item's start: a bullet (`-`, `+`, `*`) or a number of up to nine digits and `.` or
/// `)`, then one to four blanks before the content (or nothing).
fn item_start(line: &str) -> Option<ItemStart<'_>> {
    let before = indent(line);
    let rest = block_start(line)?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (marker, length) = match rest.as_bytes().get(digits) {
        Some(&bullet @ (b'-' | b'+' | b'*')) if digits == 0 => (Marker::Bullet(bullet), 1),
        Some(&delimiter @ (b'.' | b')')) if (1..=9).contains(&digits) => {
            (Marker::Ordered(delimiter), digits + 1)
        }
        _ => return None,
    };
    let after = &rest[length..];
    let numbered_one = matches!(marker, Marker::Bullet(_)) || rest[..digits].parse() == Ok(1u32);
    if is_blank(after) {
        let width = before + length + 1;
        return Some(ItemStart { marker, width, content: "", interrupts: false });
    }
    if !after.starts_with(' ') {
        return None;
    }
    let blanks = indent(after);
    let blanks = if blanks > 4 { 1 } else { blanks };
    Some(ItemStart {
        marker,
        width: before + length + blanks,
        content: &after[blanks..],
        interrupts: numbered_one,
    })
}

/// The plain text, built as the reading's events come: blocks ended by a blank line, a list
/// item after `- `, a thematic break as `---`.
#[derive(Debug, Default)]
struct Plain {
    out: String,
}

impl Plain {
    fn end_block(&mut self) {
        let kept = self.out.trim_end_matches('\n').len();
        self.out.truncate(kept);
        if !self.out.is_empty() {
            self.out.push_str("\n\n");
        }
    }

    fn leaf(&mut self, leaf: &Leaf<'_>, tight: bool) {
        match leaf {
            Leaf::Paragraph(lines) => {
                inlines(lines, &mut self.out);
                if !tight {
                    self.end_block();
                }
            }
            Leaf::Heading(lines) => {
                inlines(lines, &mut self.out);
                self.end_block();
            }
            Leaf::Code(lines) => {
                for line in lines {
                    self.out.push_str(line);
                    self.out.push('\n');
                }
                self.end_block();
            }
            Leaf::Rule => {
                self.end_block();
                self.out.push_str("---");
                self.end_block();
            }
        }
    }
}

/// The text a reader sees in `markdown`, for a client that shows no Markdown (Emacs's eglot
/// without `markdown-mode`, a plain LSP client): what the escapes and code spans stand for,
/// without the emphasis marks and fences around it; code blocks (a PDTL, a text board) and the
/// lines of a paragraph as they are, a list item after `- `, a blank line between blocks. An
/// image (a board) is its description.
pub fn plain(markdown: &str) -> String {
    let mut plain = Plain { out: String::with_capacity(markdown.len()) };
    for part in parts(markdown) {
        match part {
            Part::Leaf(leaf) => plain.leaf(&leaf, false),
            Part::List { items, loose } => {
                for item in items {
                    if !plain.out.is_empty() && !plain.out.ends_with('\n') {
                        plain.out.push('\n');
                    }
                    plain.out.push_str("- ");
                    for leaf in &item {
                        plain.leaf(leaf, !loose);
                    }
                }
                plain.end_block();
            }
        }
    }
    plain.out.trim_end_matches('\n').to_string()
}

/// A piece of a paragraph's inline text: text as it reads, or a run of emphasis delimiters
/// (`*`, `_`, `~`, `^`) whose characters that close nothing stay as text.
#[derive(Debug)]
enum Inline {
    Text(String),
    Delimiters { marker: u8, left: usize },
}

/// An emphasis opener waiting for its closer: its piece, how many of its delimiters are left,
/// its run's length and whether it could close too.
#[derive(Clone, Copy, Debug)]
struct Opener {
    piece: usize,
    count: usize,
    run: usize,
    marker: u8,
    both: bool,
}

/// The inline text of a paragraph's or heading's lines, put into `out`.
fn inlines(lines: &[&str], out: &mut String) {
    // The lines as they are (a code span keeps the blanks a line starts with), but for the
    // paragraph's blanks at its ends.
    let joined = lines.join("\n");
    let text = joined.trim_matches([' ', '\t']);
    let pieces = read_inlines(text);
    for piece in pieces {
        match piece {
            Inline::Text(text) => out.push_str(&text),
            Inline::Delimiters { marker, left } => {
                out.extend(std::iter::repeat_n(marker as char, left));
            }
        }
    }
}

/// Backslash escapes, code spans, the board's image and line breaks read, emphasis matched.
fn read_inlines(text: &str) -> Vec<Inline> {
    let mut pieces: Vec<Inline> = Vec::new();
    let mut plain = String::new();
    // Where the text a line break may trim starts: a code span's blanks are kept.
    let mut trimmable = 0;
    let mut openers = Openers::default();
    // The lengths of backtick runs known to have no closing run after the current place.
    let mut unclosed: Vec<usize> = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < text.len() {
        let byte = bytes[at];
        match byte {
            b'\\' => match bytes.get(at + 1) {
                Some(&next) if next.is_ascii_punctuation() => {
                    plain.push(next as char);
                    at += 2;
                }
                Some(b'\n') => {
                    plain.push('\n');
                    at = after_blanks(text, at + 2);
                }
                _ => {
                    plain.push('\\');
                    at += 1;
                }
            },
            b'`' => {
                let run = run_length(&text[at..], b'`');
                let closing = if unclosed.contains(&run) {
                    None
                } else {
                    closing_run(&text[at + run..], run)
                };
                match closing {
                    Some(end) => {
                        plain.push_str(&code_span(&text[at + run..at + run + end]));
                        trimmable = plain.len();
                        at += run + end + run;
                    }
                    None => {
                        unclosed.push(run);
                        plain.push_str(&text[at..at + run]);
                        at += run;
                    }
                }
            }
            b'*' | b'_' | b'~' | b'^' => {
                let run = run_length(&text[at..], byte);
                let before = text[..at].chars().next_back();
                let after = text[at + run..].chars().next();
                let (open, close) = flanking(byte, run, before, after);
                if (open || close) && (byte != b'~' || run <= 2) {
                    if !plain.is_empty() {
                        pieces.push(Inline::Text(std::mem::take(&mut plain)));
                    }
                    trimmable = 0;
                    pieces.push(Inline::Delimiters { marker: byte, left: run });
                    openers.delimiters(&mut pieces, byte, run, open, close);
                } else {
                    plain.push_str(&text[at..at + run]);
                }
                at += run;
            }
            b'!' if bytes.get(at + 1) == Some(&b'[') => match image(&text[at..]) {
                Some((description, length)) => {
                    plain.push_str(description);
                    at += length;
                }
                None => {
                    plain.push('!');
                    at += 1;
                }
            },
            b'\n' => {
                let kept = plain[trimmable..].trim_end_matches([' ', '\t']).len();
                plain.truncate(trimmable + kept);
                plain.push('\n');
                at = after_blanks(text, at + 1);
            }
            _ => {
                let next = text[at..]
                    .find(['\\', '`', '*', '_', '~', '^', '!', '\n'])
                    .map_or(text.len(), |found| at + found.max(1));
                plain.push_str(&text[at..next]);
                at = next;
            }
        }
    }
    if !plain.is_empty() {
        pieces.push(Inline::Text(plain));
    }
    pieces
}

/// The emphasis openers not yet closed, and below which of them a closer of each kind need not
/// look again (CommonMark's "openers bottom", as pulldown-cmark keeps it), so that a paragraph
/// full of delimiters is read in linear time.
#[derive(Debug, Default)]
struct Openers {
    stack: Vec<Opener>,
    bottoms: [usize; 9],
}

impl Openers {
    /// A run of `run` delimiters, just pushed as the last piece: it closes what it can, and
    /// what is left of it opens.
    fn delimiters(
        &mut self,
        pieces: &mut [Inline],
        marker: u8,
        run: usize,
        open: bool,
        close: bool,
    ) {
        let piece = pieces.len() - 1;
        let both = open && close;
        let mut count = run;
        if close {
            while let Some(opener) = self.find(marker, run, both) {
                let matched = count.min(opener.count);
                // `~` and `^` pair as `*` does, but without strikethrough, subscript and
                // superscript (which a plain client is not asked for) they stay text.
                if matches!(marker, b'*' | b'_') {
                    for at in [opener.piece, piece] {
                        if let Inline::Delimiters { left, .. } = &mut pieces[at] {
                            *left -= matched;
                        }
                    }
                }
                if opener.count > matched {
                    self.stack.push(Opener { count: opener.count - matched, ..opener });
                }
                count -= matched;
                if count == 0 {
                    break;
                }
            }
        }
        if count > 0 && open {
            if marker == b'~' {
                self.bottoms[5] = self.bottoms[5].min(self.stack.len());
            }
            self.stack.push(Opener { piece, count, run, marker, both });
        }
    }

    /// The opener a closer of `marker` matches, taken off the stack with every opener above
    /// it (whose delimiters stay text).
    fn find(&mut self, marker: u8, run: usize, both: bool) -> Option<Opener> {
        let bottom = self.stack.len().min(self.bottom(marker, run, both));
        let found = self.stack[bottom..].iter().rposition(|opener| {
            (marker != b'~' || opener.run == run)
                && opener.marker == marker
                && (!both && !opener.both
                    || !(run + opener.run).is_multiple_of(3)
                    || run.is_multiple_of(3))
        });
        match found {
            Some(index) => {
                let index = bottom + index;
                let opener = self.stack[index];
                self.stack.truncate(index);
                for bottom in &mut self.bottoms {
                    *bottom = (*bottom).min(index);
                }
                Some(opener)
            }
            None => {
                let length = self.stack.len();
                match marker {
                    b'_' | b'*' => {
                        let base = if marker == b'_' { 6 } else { 2 };
                        self.bottoms[base + run % 3] = length;
                        if !both {
                            self.bottoms[usize::from(marker == b'*')] = length;
                        }
                    }
                    _ => self.bottoms[5] = length,
                }
                None
            }
        }
    }

    fn bottom(&self, marker: u8, run: usize, both: bool) -> usize {
        match marker {
            b'_' | b'*' => {
                let base = if marker == b'_' { 6 } else { 2 };
                let by_length = self.bottoms[base + run % 3];
                if both {
                    by_length
                } else {
                    by_length.min(self.bottoms[usize::from(marker == b'*')])
                }
            }
            _ => self.bottoms[5],
        }
    }
}

/// Whether a run of delimiters can open and can close emphasis, from the characters around it
/// (CommonMark's flanking rules: `*` and `~~` may be inside a word, `_` and `~` not).
fn flanking(marker: u8, run: usize, before: Option<char>, after: Option<char>) -> (bool, bool) {
    let spacing = |c: Option<char>| c.is_none_or(char::is_whitespace);
    let open = match after {
        None => false,
        Some(next) if next.is_whitespace() => false,
        Some(_) if before.is_none() => true,
        Some(next) => {
            (marker == b'*' && !is_punctuation(next))
                || (marker == b'~' && run > 1)
                || (marker == b'~' && before == Some('~') && !is_punctuation(next))
                || spacing(before)
                || before.is_some_and(is_punctuation)
        }
    };
    let close = match before {
        None => false,
        Some(previous) if previous.is_whitespace() => false,
        Some(_) if after.is_none() => true,
        Some(previous) => {
            ((marker == b'*' || (marker == b'~' && run > 1)) && !is_punctuation(previous))
                || (marker == b'~' && previous == '~')
                || spacing(after)
                || after.is_some_and(is_punctuation)
        }
    };
    (open, close)
}

/// CommonMark's punctuation: ASCII's, and outside ASCII what is neither a letter, a digit nor
/// a blank (close to Unicode's punctuation and symbols; the hovers' own delimiters stand beside
/// blanks and ASCII, where the two agree).
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_punctuation()
    } else {
        !c.is_alphanumeric() && !c.is_whitespace()
    }
}

/// The first place from `at` on that is not a blank.
fn after_blanks(text: &str, at: usize) -> usize {
    at + text[at..].len() - text[at..].trim_start_matches([' ', '\t']).len()
}

fn run_length(text: &str, marker: u8) -> usize {
    text.bytes().take_while(|&byte| byte == marker).count()
}

/// Where the first run of exactly `run` backticks in `text` starts.
fn closing_run(text: &str, run: usize) -> Option<usize> {
    let mut at = 0;
    while let Some(found) = text[at..].find('`') {
        let start = at + found;
        let length = run_length(&text[start..], b'`');
        if length == run {
            return Some(start);
        }
        at = start + length;
    }
    None
}

/// A code span's text: line breaks read as blanks, and one blank stripped from each end when
/// both ends have one and it is not all blanks.
fn code_span(content: &str) -> String {
    let content = content.replace('\n', " ");
    let bytes = content.as_bytes();
    let padded = bytes.len() >= 2 && bytes[0] == b' ' && bytes[bytes.len() - 1] == b' ';
    if padded && !bytes.iter().all(|&byte| byte == b' ') {
        content[1..content.len() - 1].to_string()
    } else {
        content
    }
}

/// The board's image, `![description](destination)`: its description and its length, when
/// the description holds no bracket, backslash, backtick or line break and the destination no
/// blank or parenthesis.
fn image(text: &str) -> Option<(&str, usize)> {
    let after = text.strip_prefix("![")?;
    let close = after.find(']')?;
    let description = &after[..close];
    if description.contains(['[', '\\', '`', '\n']) {
        return None;
    }
    let destination = after[close..].strip_prefix("](")?;
    let end = destination.find(|c: char| c == ')' || c == '(' || c == '<' || c.is_whitespace())?;
    (destination.as_bytes()[end] == b')').then(|| (description, 2 + close + 2 + end + 1))
}

#[cfg(test)]
mod tests {
    use super::plain;
    use crate::document::Document;
    use crate::ide::hover::{hover, HoverOptions};
    use crate::ide::markdown::{code, text};
    use ctlpgn_test_support::fixtures::{files_under, repository_dir};
    use ctlpgn_test_support::markdown::plain_text;
    use proptest::prelude::*;

    /// Markdown that puts each block and inline the reader knows, and its edges, against a
    /// CommonMark parser's reading.
    const SHAPES: &[&str] = &[
        "a\n\n---\n\n**b** c\n",
        "**F6** · x\n\n- before 2. JF6-B18: y\n- after it: z\n\n---\n\n**2. JF6-B18** · w\n",
        "**F6** · x\n\n2. …, E23-E19 was not replayed. In the last known position: y.\n\n",
        "a\n2. b\n1. c\n\n3. d\n4) e\n- f\n+ g\n* h\n-\n- \n",
        "- a\n  b\nlazy\n- c\n\n  d\n- e\n\nafter\n",
        "- a\n\n- b\n",
        "- a\n```text\nx\n```\n- b\n  ```\n  y\n- c\n",
        "para\n===\n\npara\n---\n\n# h1 #\n## h2 ##x\n###\n####### seven\n#no\n",
        "```text\n/28:v/ w - - 0 1\n```\n\n```text\n28  v\n  -  a\n```\n``` `` x\n````\nopen\n",
        "~~~\ntilde\n~~~~\n  ```\n  two\n ```\nafter\n",
        "`a` `` b ` `` ` ` `  ` ```` ``x`` ```` `unclosed `` `x\n",
        "``\nspan\nover lines  \n``",
        "a  \nb\\\nc \\\nd\t\ne\\",
        "\\* \\_ \\` \\\\ \\a \\[x\\] \\<b\\> \\&amp; \\~ \\| \\. \\: \\@ \\\u{e9}",
        "**a** **b**c **c** d** **e **f*g* ***h*** _i_ __j__ a_b_c ~k~ ~~l~~ ^m^ **n*",
        "***a** b* *a **b*** **a*b**c* ____ ** x** y",
        "**·** · **…, E21×F12** · ☖**x**☗ **☖E5**: a\u{a0}**b**\u{a0}c",
        "![C'escacs board, White to move](data:image/svg+xml;base64,PHN2Zz4=) White to move. PDTL:\n\n`/28:v/ w`\n",
        "![a](b c) ![a](b ![x] ! \\[a\\](b) ![a]",
        "   indented\n    four\n\n\tab\n  - two\n",
        "a\r\nb\rc\n\r\n- d\r\n",
        "* * *\n- - -\n___\n\n-- -\n",
        "",
        "\n\n\n",
        "a\u{0}b",
    ];

    /// A hover's sections, split by a thematic break, stay apart in plain text: the break on
    /// a line of its own, a blank line each side (the label after it is not glued to `---`).
    #[test]
    fn a_thematic_break_stands_apart_from_the_blocks_around_it() {
        let markdown = "**F6** · x\n\n---\n\n**2. JF6-B18** · w\n";
        assert_eq!(plain(markdown), "F6 · x\n\n---\n\n2. JF6-B18 · w");
        assert_eq!(plain_text(markdown), plain(markdown));
    }

    #[test]
    fn reads_each_shape_as_commonmark_does() {
        for markdown in SHAPES {
            assert_eq!(plain(markdown), plain_text(markdown), "{markdown:?}");
        }
    }

    /// Every hover of every record of the test data, at each place, reads as a CommonMark
    /// parser reads it: with text boards, and with images but for the corpus's games (an image
    /// hover differs from a text one only in its board, and drawing it is most of the time).
    #[test]
    fn reads_every_hover_of_the_test_data_as_commonmark_does() {
        let root = repository_dir();
        let mut files = files_under(&root.join("testdata"), ".ctl-pgn");
        files.extend(files_under(&root.join("examples"), ".ctl-pgn"));
        files.extend(files_under(&root.join("core/tests/fixtures"), ".ctl-pgn"));
        let mut hovers = 0;
        for path in files {
            // S000's file is not UTF-8: read as the editors open it.
            let bytes = std::fs::read(&path).expect("a test data file");
            let text = String::from_utf8_lossy(&bytes);
            let forms: &[bool] = if path.components().any(|part| part.as_os_str() == "corpus") {
                &[false]
            } else {
                &[false, true]
            };
            let document = Document::new(&text, 1);
            for record in document.records() {
                let open = document.view(record);
                let view = open.view();
                for &images in forms {
                    let mut offset = record.range.start;
                    while offset < record.range.end {
                        let found = text
                            .is_char_boundary(offset)
                            .then(|| hover(view, offset, HoverOptions { images }))
                            .flatten();
                        let Some(found) = found else {
                            offset += 1;
                            continue;
                        };
                        hovers += 1;
                        let markdown = &found.markdown;
                        assert_eq!(
                            plain(markdown),
                            plain_text(markdown),
                            "{} at {offset}:\n{markdown}",
                            path.display()
                        );
                        offset = found.range.end.max(offset + 1);
                    }
                }
            }
        }
        assert!(hovers > 10_000, "hovers read: {hovers}");
    }

    /// Record text as `markdown::text` or `markdown::code` puts it into a hover.
    fn record_text() -> impl Strategy<Value = String> {
        let raw = "[ -~\u{a0}·…×☖\t\n\r]{0,12}";
        prop_oneof![raw.prop_map(|raw| text(&raw)), raw.prop_map(|raw| code(&raw))]
    }

    /// A line of a hover: a paragraph's, a list item's or a wrapped item's line opening with
    /// the hover's own words, then its marks and record text; a code block, a rule or a blank.
    fn line() -> impl Strategy<Value = String> {
        let own = |words: &[&'static str]| prop::sample::select(words.to_vec());
        let inline = prop_oneof![
            own(&["**", " · ", " ", ":", "…", "(x)", "#14@B", "$1", " to move"])
                .prop_map(str::to_string),
            record_text(),
        ];
        // A list item's text opens with a word (hovers nest no list); a paragraph's may open
        // with a move number, which reads as an ordered item.
        let opening = prop_oneof![
            (own(&["- ", "  ", "2. ", "1. "]), own(&["**", "White", "E21-E19", "before"])),
            (
                own(&[""]),
                own(&[
                    "**",
                    "White",
                    "2. …, E21",
                    "![C'escacs board, Black to move](data:image/svg+xml;base64,PHN2Zz4=)"
                ]),
            ),
        ];
        let opened = (opening, prop::collection::vec(inline, 0..8))
            .prop_map(|((prefix, head), tail)| format!("{prefix}{head}{}", tail.concat()));
        let code_block = prop::collection::vec("[ -~·]{0,16}", 0..4)
            .prop_map(|lines| format!("```text\n{}\n```", lines.join("\n").replace('`', "")));
        prop_oneof![
            4 => opened,
            1 => own(&["---", ""]).prop_map(str::to_string),
            1 => code_block,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Markdown made of what hovers are made of reads as a CommonMark parser reads it.
        #[test]
        fn hover_like_markdown_reads_as_commonmark_does(lines in prop::collection::vec(line(), 0..16)) {
            let markdown = lines.join("\n");
            prop_assert_eq!(plain(&markdown), plain_text(&markdown), "{:?}", markdown);
        }
    }
}
