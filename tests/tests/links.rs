//! Every relative link of the repository's Markdown pages (README, ARCHITECTURE, CONTRIBUTING,
//! the manual in `docs/`, the folders' READMEs) leads somewhere: the file or folder it names
//! exists, and its `#anchor` names a heading of the page, as GitHub makes anchors from headings.
//! The pages are read with a CommonMark parser, so that links in code are not taken for links
//! and reference-style links are followed too.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use ctlpgn_test_support::fixtures::repository_dir;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

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
