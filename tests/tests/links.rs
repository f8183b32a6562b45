//! Every relative link of the repository's Markdown pages (README, ARCHITECTURE, CONTRIBUTING,
//! the manual in `docs/`, the folders' READMEs) leads somewhere: the file or folder it names
//! exists, and its `#anchor` names a heading of the page, as GitHub makes anchors from headings.
//! A link to a file of the repository on GitHub names a file that exists. The pages are read
//! with a CommonMark parser, so that links in code are not taken for links and reference-style
//! links are followed too.
//!
//! The manual is also a book (docs/book.toml): the book is built with mdBook into a folder of
//! the test's own, and every relative link and anchor of its HTML must resolve inside it, since
//! a link that works on GitHub (`../CONTRIBUTING.md`) may lead out of the book.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use ctlpgn_test_support::fixtures::{files_under, read_text, repository_dir};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The repository on GitHub, as Cargo.toml's `repository` names it: the manual links there
/// for the files the book does not hold.
const REPOSITORY: &str = "https://github.com/ctlpgn/ctlpgn";

/// The branch the links to the repository's files name.
const BRANCH: &str = "main";

/// What the links need to know of a page: where it links to and the anchors of its headings.
#[derive(Debug, Default)]
struct Page {
    /// Each link's destination, with the 1-based line it is written on.
    links: Vec<(String, usize)>,
    anchors: HashSet<String>,
}

/// GitHub's anchor for a heading's text: lower case, every character but letters, digits,
/// `-`, `_` and spaces dropped, and each space made a `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings, in order: a heading whose anchor is taken gets the first
/// free one of `-1`, `-2`… after it, as GitHub numbers them.
fn anchors(headings: &[String]) -> HashSet<String> {
    let mut taken = HashSet::new();
    let mut repeats: HashMap<String, usize> = HashMap::new();
    for heading in headings {
        let base = slug(heading);
        let mut anchor = base.clone();
        while taken.contains(&anchor) {
            let count = repeats.entry(base.clone()).or_insert(0);
            *count += 1;
            anchor = format!("{base}-{count}");
        }
        taken.insert(anchor);
    }
    taken
}

/// The links and heading anchors of a page's Markdown text.
fn read_page(text: &str) -> Page {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut page = Page::default();
    let mut headings = Vec::new();
    let mut heading: Option<String> = None;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                page.links.push((dest_url.to_string(), line_of(range.start)));
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => headings.extend(heading.take()),
            Event::Text(words) | Event::Code(words) => {
                if let Some(heading) = &mut heading {
                    heading.push_str(&words);
                }
            }
            _ => {}
        }
    }
    page.anchors = anchors(&headings);
    page
}

/// The Markdown files under `dir`, outside build output, installed packages and hidden folders.
fn markdown_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                markdown_files(&path, files);
            }
        } else if name.ends_with(".md") {
            files.push(path);
        }
    }
}

/// Why a relative link does not resolve, if it does not.
fn broken(
    root: &Path,
    page_path: &Path,
    destination: &str,
    pages: &HashMap<PathBuf, Page>,
) -> Option<String> {
    let repository_file =
        [format!("{REPOSITORY}/blob/{BRANCH}/"), format!("{REPOSITORY}/tree/{BRANCH}/")]
            .into_iter()
            .find_map(|prefix| destination.strip_prefix(&prefix).map(str::to_string));
    if let Some(file) = repository_file {
        let file = file.split('#').next().unwrap_or_default();
        return (!root.join(file).exists()).then(|| format!("the repository has no {file}"));
    }
    if destination.contains("://") || destination.starts_with("mailto:") {
        return None;
    }
    if destination.starts_with('/') {
        return Some("a link from the root of the site: write it relative to the page".into());
    }
    let (file, anchor) = match destination.split_once('#') {
        Some((file, anchor)) => (file, Some(anchor)),
        None => (destination, None),
    };
    let target = if file.is_empty() {
        page_path.to_path_buf()
    } else {
        let target = page_path.parent().expect("a page is in a folder").join(file);
        match target.canonicalize() {
            Ok(target) if target.starts_with(root) => target,
            Ok(_) => return Some("it leads out of the repository".into()),
            Err(_) => return Some("no such file or folder".into()),
        }
    };
    let anchor = anchor?;
    let Some(target_page) = pages.get(&target) else {
        return Some(format!("#{anchor} in a file that is not a Markdown page"));
    };
    (!target_page.anchors.contains(anchor)).then(|| format!("no heading has the anchor #{anchor}"))
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = repository_dir().canonicalize().expect("the repository's folder");
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    for page in
        ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "docs/README.md", "docs/SUMMARY.md"]
    {
        assert!(files.contains(&root.join(page)), "{page} is among the pages read");
    }
    let pages: HashMap<PathBuf, Page> = files
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.clone(), read_page(&text))
        })
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, page) in &pages {
        for (destination, line) in &page.links {
            checked += 1;
            if let Some(why) = broken(&root, path, destination, &pages) {
                let shown = path.strip_prefix(&root).unwrap_or(path).display();
                problems.push(format!("{shown}:{line}: ({destination}) {why}"));
            }
        }
    }
    problems.sort();
    assert!(problems.is_empty(), "links that lead nowhere:\n{}", problems.join("\n"));
    assert!(checked >= 30, "only {checked} links were found in {} pages", pages.len());
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = read_page(
        "# The ctlpgn manual\n\n## S000 `invalid-utf8`\n\n### What's new? (C'escacs — 2 × 3)\n\n\
         ## Notes\n\n## Notes\n\n## Notes-1\n\n## Notes\n\nSee [here](#notes-1) and \
         `[not a link](x.md)`, [ref].\n\n[ref]: other.md#top\n",
    );
    let mut anchors: Vec<&str> = page.anchors.iter().map(String::as_str).collect();
    anchors.sort_unstable();
    assert_eq!(
        anchors,
        [
            "notes",
            "notes-1",
            "notes-1-1",
            "notes-2",
            "s000-invalid-utf8",
            "the-ctlpgn-manual",
            "whats-new-cescacs--2--3"
        ]
    );
    assert_eq!(page.links, [("#notes-1".to_string(), 15), ("other.md#top".to_string(), 15)]);
}

#[test]
fn the_repository_the_links_name_is_cargo_s() {
    let manifest = read_text(&repository_dir().join("Cargo.toml"));
    assert!(manifest.contains(&format!("\nrepository = \"{REPOSITORY}\"\n")), "{manifest}");
}

/// Whether this run is CI's (`CI=true`, as GitHub Actions sets it and `.ci/run` for its tests),
/// where the book must be built.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true")
}

/// What `href="…"` and `src="…"` hold in an HTML page, and the `id="…"`s it defines.
#[derive(Debug, Default)]
struct HtmlPage {
    links: Vec<String>,
    ids: HashSet<String>,
    /// The folder its relative links start from: its own, or the book's root when the page
    /// sets `<base href="/">` (mdBook's 404 page).
    from_root: bool,
}

/// The tags of HTML that mdBook wrote, each from its `<` to its `>` (a `>` inside a quoted
/// value does not end it). Text outside the tags writes `<` as `&lt;`, so an attribute written
/// in a code sample of the manual (`<script src="/ctlpgn/ctlpgn-viewer.js">`) is text, not a
/// link, as a browser reads it.
fn tags(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let tag = &rest[start..];
        let mut quoted = false;
        let end = tag
            .char_indices()
            .find(|&(_, c)| {
                quoted ^= c == '"';
                c == '>' && !quoted
            })
            .map_or(tag.len(), |(at, _)| at + 1);
        found.push(&tag[..end]);
        rest = &tag[end..];
    }
    found
}

/// The values of an attribute in the tags of HTML that mdBook wrote (double quotes, entities
/// escaped).
fn attribute_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let opening = format!(" {name}=\"");
    let skip = opening.len();
    tags(html)
        .into_iter()
        .flat_map(|tag| tag.match_indices(opening.as_str()).map(move |(at, _)| &tag[at + skip..]))
        .filter_map(|value| value.find('"').map(|end| &value[..end]))
        .collect()
}

fn read_html(html: &str) -> HtmlPage {
    let unescaped = |value: &str| value.replace("&amp;", "&");
    HtmlPage {
        links: attribute_values(html, "href")
            .into_iter()
            .chain(attribute_values(html, "src"))
            .map(unescaped)
            .collect(),
        ids: attribute_values(html, "id").into_iter().map(unescaped).collect(),
        from_root: html.contains("<base href=\"/\">"),
    }
}

/// `%XX` escapes decoded, as a browser reads a link's path and fragment.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escape = (bytes[at] == b'%')
            .then(|| text.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escape {
            Some(byte) => {
                decoded.push(byte);
                at += 3;
            }
            None => {
                decoded.push(bytes[at]);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// `path` with its `.` and `..` folded, without asking the file system.
fn folded(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Why a link of a page of the built book does not resolve inside the book, if it does not.
fn broken_in_book(
    book: &Path,
    page_path: &Path,
    page: &HtmlPage,
    link: &str,
    pages: &HashMap<PathBuf, HtmlPage>,
) -> Option<String> {
    let external = ["mailto:", "data:", "javascript:"];
    if link.is_empty() || link.contains("://") || external.iter().any(|s| link.starts_with(s)) {
        return None;
    }
    let (path, fragment) = match link.split_once('#') {
        Some((path, fragment)) => (path, Some(percent_decoded(fragment))),
        None => (link, None),
    };
    let path = percent_decoded(path.split('?').next().unwrap_or_default());
    let folder = if page.from_root { book } else { page_path.parent().expect("a page's folder") };
    let target = if path.is_empty() {
        page_path.to_path_buf()
    } else if let Some(from_root) = path.strip_prefix('/') {
        folded(&book.join(from_root))
    } else {
        folded(&folder.join(&path))
    };
    let target = if target.is_dir() { target.join("index.html") } else { target };
    if !target.starts_with(book) {
        return Some("it leads out of the book".into());
    }
    if !target.is_file() {
        return Some("the book has no such file".into());
    }
    let fragment = fragment.filter(|fragment| !fragment.is_empty())?;
    let target_page = pages.get(&target)?;
    (!target_page.ids.contains(&fragment))
        .then(|| format!("no element of {} has the id {fragment}", target.display()))
}

#[test]
fn every_relative_link_of_the_built_book_resolves() {
    let root = repository_dir().canonicalize().expect("the repository's folder");
    let book = std::env::temp_dir().join(format!("ctlpgn-book-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&book);
    let built = Command::new("mdbook")
        .arg("build")
        .arg(root.join("docs"))
        .arg("--dest-dir")
        .arg(&book)
        .output();
    let install = "cargo install --locked mdbook@0.5.4 --no-default-features --features search";
    let built = match built {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound && !in_ci() => {
            eprintln!("skipped: mdbook is not installed, so the book's links were not checked ({install}); CI builds it");
            return;
        }
        Err(error) => panic!("mdbook could not be run ({error}): {install}"),
        Ok(built) => built,
    };
    assert!(
        built.status.success(),
        "mdbook build docs failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let pages: HashMap<PathBuf, HtmlPage> = files_under(&book, ".html")
        .into_iter()
        .map(|path| {
            let page = read_html(&read_text(&path));
            (path, page)
        })
        .collect();
    assert!(pages.contains_key(&book.join("index.html")), "the book has an index page");
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, page) in &pages {
        for link in &page.links {
            checked += 1;
            if let Some(why) = broken_in_book(&book, path, page, link, &pages) {
                let shown = path.strip_prefix(&book).unwrap_or(path).display();
                problems.push(format!("{shown}: ({link}) {why}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&book);
    problems.sort();
    assert!(
        problems.is_empty(),
        "links of the built book that lead nowhere:\n{}",
        problems.join("\n")
    );
    assert!(checked >= 500, "only {checked} links were found in {} pages", pages.len());
}

#[test]
fn the_book_s_links_are_read_as_a_browser_reads_them() {
    let page = read_html(
        "<html><head><base href=\"/\"></head><a href=\"x.html#a&amp;b\" id=\"top\">\
         <img src=\"i%20j.png\"><code>href=&quot;no.html&quot;</code>\
         <pre><code>&lt;script src=\"no.js\"&gt;&lt;/script&gt; id=\"no\"</code></pre>",
    );
    assert_eq!(page.links, ["/", "x.html#a&b", "i%20j.png"]);
    assert_eq!(page.ids, HashSet::from(["top".to_string()]));
    assert!(page.from_root);
    assert_eq!(percent_decoded("i%20j%C3%A9%2"), "i jé%2");
    assert_eq!(folded(Path::new("/b/docs/../x/./y.html")), Path::new("/b/x/y.html"));
}
