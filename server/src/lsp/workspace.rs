//! The problems of every record file under the workspace folders, not only of the open
//! documents (the setting `diagnostics.workspace`, off by default). The folders are walked as
//! `ctlpgn check` walks them (`crate::walk`: the same ignore rules); each file is read,
//! checked and let go. What is kept of a file is its stamp (modification time and length) and
//! the id of the report last made of it, never its text nor its problems, so that an archive
//! of any size costs memory in its number of files only, and a survey after nothing changed
//! costs a walk and a `stat` per file.
//!
//! A client that pulls (`workspace/diagnostic`) sends the ids of the reports it holds: a file
//! whose stamp and id are unchanged is answered `unchanged`. A client that does not pull is
//! pushed the reports of the files that changed. The open documents are left out either way:
//! their problems come from the editor's text, not the disk's.
//!
//! Opening and closing a document each forget the file's report, so that once closed it is
//! reported from the disk again, even when a survey that started before the document was
//! opened recorded the file while it was open (it read the open documents at its start). A
//! client that pulls the workspace keeps an open document's pulled problems after it closes
//! and waits for the workspace's report of the file (vscode-languageclient does): the next
//! pull answers each file closed since, with its problems on the disk when the survey is on
//! and the file under a folder, else with an empty report.
//!
//! A surveyed file reports at most [`MOST_REPORTED`] problems, and one more that counts the
//! rest: a generated archive of a hundred megabytes can hold a million, which no person reads
//! in a list, and which would cost the server and the client gigabytes.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use tower_lsp_server::lsp_types::{Diagnostic, Range, Uri};
use tower_lsp_server::UriExt;

use super::panics;
use crate::walk;
use ctlpgn_core::analysis::RuleChecks;
use ctlpgn_core::diagnostics::{Code, Diagnostic as Finding};
use ctlpgn_core::document::Document;
use ctlpgn_core::parallel::map_chunks;
use ctlpgn_core::text::TextRange;
use ctlpgn_protocol::encoding::PositionEncoding;
use ctlpgn_protocol::to_proto;

/// The most record files a survey reports on: a workspace opened on a whole disk must not
/// make the server read it all. The files past it, in path order, are said to be left out.
pub const MOST_FILES: usize = 20_000;

/// The largest file a survey reads; a larger one is said to be left out (it is checked when
/// opened, as any document).
pub const LARGEST_FILE: u64 = 64 << 20;

/// The most problems a surveyed file reports; one more says how many were left out (the file
/// opened shows them all).
pub const MOST_REPORTED: usize = 1_000;

/// The id of the report that cleared a file's problems: the file is gone, or no longer
/// surveyed. A client that holds it is not told again.
const CLEARED: &str = "cleared";

/// The workspace folders and what was reported of the files under them.
#[derive(Debug, Default)]
pub struct Workspace {
    folders: Mutex<Vec<PathBuf>>,
    /// Each file reported on, with the stamp it had when it was read (`None` once the settings
    /// changed what its report says) and the id of that report.
    reported: Mutex<HashMap<PathBuf, Reported>>,
    /// The documents closed since the last pull, for a client that pulls the workspace: each
    /// is answered by the next pull (see the module's comment).
    closed: Mutex<HashSet<PathBuf>>,
    last_id: AtomicU64,
}

/// What tells that a file may have changed since it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    length: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let metadata = std::fs::metadata(path).ok()?;
        Some(Stamp { modified: metadata.modified().ok(), length: metadata.len() })
    }
}

#[derive(Clone, Debug)]
struct Reported {
    stamp: Option<Stamp>,
    id: String,
}

/// What a survey found: the reports of the files that changed (a cleared report for a file
/// gone), the files unchanged with their report's id, and what could not be read.
#[derive(Debug, Default)]
pub struct Survey {
    pub changed: Vec<FileReport>,
    pub unchanged: Vec<(Uri, String)>,
    pub failures: Vec<String>,
    /// How many bytes of files were read and checked: after a large survey the memory it
    /// freed is given back.
    pub read: u64,
}

/// A file's problems, and the id of this report of them.
#[derive(Debug)]
pub struct FileReport {
    pub uri: Uri,
    pub id: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// What the client holds of the files' problems.
#[derive(Clone, Copy, Debug)]
pub enum Held<'a> {
    /// The ids of the reports the client sent with its pull, by file.
    Ids(&'a HashMap<PathBuf, String>),
    /// The reports pushed to it: what the server reported last.
    Pushed,
}

/// How the files are checked: the position encoding of the client, and whether the optional
/// rule checks are reported.
#[derive(Clone, Copy, Debug)]
pub struct Checking {
    pub encoding: PositionEncoding,
    pub rules: bool,
}

impl Workspace {
    /// Sets the folders surveyed; the reports of files outside them are cleared by the next
    /// survey.
    pub fn set_folders(&self, folders: Vec<PathBuf>) {
        *lock(&self.folders) = folders;
    }

    /// Adds and removes folders, as the client's `workspace/didChangeWorkspaceFolders` says.
    pub fn change_folders(&self, added: Vec<PathBuf>, removed: &[PathBuf]) {
        let mut folders = lock(&self.folders);
        folders.retain(|folder| !removed.contains(folder));
        for folder in added {
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }

    /// Forgets a file's report, so that the next survey reads it again whatever its stamp: the
    /// client saw it change. Whether the file had been reported on.
    pub fn forget(&self, path: &Path) -> bool {
        lock(&self.reported).remove(path).is_some()
    }

    /// A document of the file was opened: its problems now come from the editor; its report is
    /// forgotten. Whether the file had been reported on.
    pub fn opened(&self, path: &Path) -> bool {
        lock(&self.closed).remove(path);
        self.forget(path)
    }

    /// The document of the file was closed: its report is forgotten again (a survey running
    /// while it was open may have recorded it), so that the next survey reports it from the
    /// disk; with `pulled`, the client pulls the workspace and the next pull answers the file
    /// whatever the survey finds.
    pub fn closed(&self, path: &Path, pulled: bool) {
        self.forget(path);
        if pulled {
            lock(&self.closed).insert(path.to_path_buf());
        }
    }

    /// The files closed since the last pull, not open again, taken.
    fn take_closed(&self, open: &HashSet<PathBuf>) -> Vec<PathBuf> {
        let closed = std::mem::take(&mut *lock(&self.closed));
        let mut closed: Vec<PathBuf> =
            closed.into_iter().filter(|path| !open.contains(path)).collect();
        closed.sort();
        closed
    }

    /// Makes every report stale, so that the next survey reads every file again: the settings
    /// changed what a report says.
    pub fn invalidate(&self) {
        for reported in lock(&self.reported).values_mut() {
            reported.stamp = None;
        }
    }

    /// The reports that clear what the client holds, when the survey is off: every file it
    /// holds a report of, but the open documents; every report is forgotten.
    pub fn cleared(&self, open: &HashSet<PathBuf>, held: Held<'_>) -> Survey {
        let closed = self.take_closed(open);
        let mut reported = lock(&self.reported);
        let mut paths = held_paths(held, &reported);
        paths.extend(closed);
        paths.sort();
        paths.dedup();
        let changed = paths
            .iter()
            .filter(|path| !open.contains(*path))
            .filter_map(|path| cleared_report(path))
            .collect();
        reported.clear();
        Survey { changed, ..Survey::default() }
    }

    /// Walks the folders and reports on every record file that is not open: `unchanged` for
    /// a file whose stamp and report the client holds are those last made, a new report for
    /// the others (checked on every core), a cleared report for a file the client holds a
    /// report of that is no longer among them.
    pub fn survey(&self, open: &HashSet<PathBuf>, held: Held<'_>, checking: Checking) -> Survey {
        let folders: Vec<PathBuf> =
            lock(&self.folders).iter().filter(|folder| folder.is_dir()).cloned().collect();
        let walked = walk::expand(&folders, false);
        let mut survey = Survey { failures: walked.failures, ..Survey::default() };
        let mut files = walked.files;
        if files.len() > MOST_FILES {
            survey.failures.push(format!(
                "the workspace holds {} record files; the problems of the first {MOST_FILES} \
                 are reported, the others are checked when opened",
                files.len()
            ));
            files.truncate(MOST_FILES);
        }
        let surveyed: HashSet<&PathBuf> = files.iter().collect();
        let closed = self.take_closed(open);
        let mut to_check = Vec::new();
        {
            let mut reported = lock(&self.reported);
            // A closed file the survey does not read (outside the folders, ignored) is cleared.
            for path in closed.iter().filter(|path| !surveyed.contains(path)) {
                survey.changed.extend(cleared_report(path));
            }
            for path in &files {
                if open.contains(path) {
                    reported.remove(path);
                    continue;
                }
                let Some(stamp) = Stamp::of(path) else {
                    // Gone since the walk: cleared below if the client holds a report of it.
                    continue;
                };
                let last = reported.get(path);
                let held_id = match held {
                    Held::Ids(ids) => ids.get(path).map(String::as_str),
                    Held::Pushed => last.map(|last| last.id.as_str()),
                };
                match (last, path_uri(path)) {
                    (Some(last), Some(uri))
                        if last.stamp == Some(stamp) && held_id == Some(last.id.as_str()) =>
                    {
                        survey.unchanged.push((uri, last.id.clone()));
                    }
                    (_, Some(uri)) => to_check.push((path.clone(), uri, stamp)),
                    (_, None) => {}
                }
            }
            for path in held_paths(held, &reported) {
                if !surveyed.contains(&path) && !open.contains(&path) {
                    reported.remove(&path);
                    survey.changed.extend(cleared_report(&path));
                }
            }
        }
        self.check(to_check, held, checking, &mut survey);
        survey
    }

    /// Reads again the files the client said changed, whatever their stamps, and reports on
    /// them; a file gone is cleared. When one of them is not known to the survey (a new file,
    /// or one the walk leaves out), the folders are walked instead, as they must be to know
    /// whether it is one the survey reads.
    pub fn recheck(
        &self,
        files: &[PathBuf],
        open: &HashSet<PathBuf>,
        checking: Checking,
    ) -> Survey {
        let mut survey = Survey::default();
        let mut to_check = Vec::new();
        {
            let mut reported = lock(&self.reported);
            let mut files: Vec<&PathBuf> =
                files.iter().filter(|path| !open.contains(*path)).collect();
            files.sort();
            files.dedup();
            if files.iter().any(|path| !reported.contains_key(*path)) {
                drop(reported);
                for path in files {
                    self.forget(path);
                }
                return self.survey(open, Held::Pushed, checking);
            }
            for path in files {
                match (Stamp::of(path), path_uri(path)) {
                    (Some(stamp), Some(uri)) => to_check.push((path.clone(), uri, stamp)),
                    _ => {
                        reported.remove(path);
                        survey.changed.extend(cleared_report(path));
                    }
                }
            }
        }
        self.check(to_check, Held::Pushed, checking, &mut survey);
        survey
    }

    /// Checks each file on every core, records its stamp and a new report's id, and adds the
    /// reports to `survey`; a file that cannot be read is a failure, and what the client held
    /// of it is cleared.
    fn check(
        &self,
        to_check: Vec<(PathBuf, Uri, Stamp)>,
        held: Held<'_>,
        checking: Checking,
        survey: &mut Survey,
    ) {
        let checked = map_chunks(&to_check, |part: &[(PathBuf, Uri, Stamp)]| {
            part.iter().map(|(path, _, _)| check_file(path, checking)).collect()
        });
        survey.read = to_check.iter().map(|(_, _, stamp)| stamp.length).sum();
        let mut reported = lock(&self.reported);
        for ((path, uri, stamp), found) in to_check.into_iter().zip(checked) {
            match found {
                Ok(diagnostics) => {
                    let id = (self.last_id.fetch_add(1, Ordering::Relaxed) + 1).to_string();
                    reported.insert(path, Reported { stamp: Some(stamp), id: id.clone() });
                    survey.changed.push(FileReport { uri, id, diagnostics });
                }
                Err(failure) => {
                    // What the client holds of the file no longer stands.
                    let held_before = match held {
                        Held::Ids(ids) => ids.contains_key(&path),
                        Held::Pushed => reported.contains_key(&path),
                    };
                    reported.remove(&path);
                    if held_before {
                        survey.changed.extend(cleared_report(&path));
                    }
                    survey.failures.push(failure);
                }
            }
        }
    }
}

/// A file's problems, read from the disk: a file that is not UTF-8 has the one problem S000;
/// at most [`MOST_REPORTED`] and one that counts the rest.
/// A file too large or unreadable, or whose check panicked, is a failure said in a message.
pub fn check_file(path: &Path, checking: Checking) -> Result<Vec<Diagnostic>, String> {
    let name = path.display();
    let length = std::fs::metadata(path).map_err(|error| format!("{name}: {error}"))?.len();
    if length > LARGEST_FILE {
        return Err(format!(
            "{name}: {length} bytes, more than the {LARGEST_FILE} a workspace survey reads; its \
             problems are reported when it is opened"
        ));
    }
    let bytes = std::fs::read(path).map_err(|error| format!("{name}: {error}"))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => return Ok(vec![not_utf8(error.utf8_error().valid_up_to())]),
    };
    let rule_checks = if checking.rules { RuleChecks::Judge } else { RuleChecks::Skip };
    panics::catch(|| {
        let document = Document::read(&text, 0, rule_checks, Default::default());
        let (encoding, rules) = (checking.encoding, checking.rules);
        let (found, all) =
            to_proto::first_diagnostics(&document, encoding, rules, MOST_REPORTED + 1);
        at_most_reported(found, all)
    })
    .map_err(|panic| format!("{name}: checking it panicked: {panic}"))
}

/// The first [`MOST_REPORTED`] problems of a file of `all`, and one more (S015, at the first
/// left out, which `found` holds) that says how many were left out.
fn at_most_reported(mut found: Vec<Diagnostic>, all: usize) -> Vec<Diagnostic> {
    if found.len() <= MOST_REPORTED {
        return found;
    }
    let left_out = all - MOST_REPORTED;
    let range = found[MOST_REPORTED].range;
    found.truncate(MOST_REPORTED);
    found.shrink_to_fit();
    let message = format!(
        "{left_out} more problems in this file are not listed, the first here: a workspace \
         survey lists at most {MOST_REPORTED} of a file; open the file to see them all"
    );
    found
        .push(to_proto::diagnostic(&Finding::new(Code::S015, TextRange::empty(0), message), range));
    found
}

/// S000 for a file whose bytes are not UTF-8, at its start.
fn not_utf8(valid_up_to: usize) -> Diagnostic {
    let mut finding = Finding::not_utf8(valid_up_to);
    finding.message.push_str(": save it as UTF-8");
    to_proto::diagnostic(&finding, Range::default())
}

/// The files the client holds a report of, a cleared one aside.
fn held_paths(held: Held<'_>, reported: &HashMap<PathBuf, Reported>) -> Vec<PathBuf> {
    match held {
        Held::Ids(ids) => ids
            .iter()
            .filter(|(_, id)| id.as_str() != CLEARED)
            .map(|(path, _)| path.clone())
            .collect(),
        Held::Pushed => reported.keys().cloned().collect(),
    }
}

fn cleared_report(path: &Path) -> Option<FileReport> {
    let uri = path_uri(path)?;
    Some(FileReport { uri, id: CLEARED.to_string(), diagnostics: Vec::new() })
}

/// The URI of a file the walk found (an absolute path under a workspace folder).
pub fn path_uri(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
