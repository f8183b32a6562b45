//! The problems of the record files under the workspace folders that are not open (the
//! setting `diagnostics.workspace`): pulled with `workspace/diagnostic` by a client that
//! pulls, pushed to one that does not; the same walk as `ctlpgn check DIR` (ignored and
//! hidden files left out), unchanged files answered `unchanged`, changed files read again,
//! deleted ones and the whole survey switched off cleared.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{pull_client, utf16_client, Client, Launch};

/// A record with three mistakes, one of them after a `×` on its line: the columns of the
/// workspace's reports must be those of the document's.
const MISTAKES: &str = include_str!("../../../examples/mistakes.ctl-pgn");
const CLEAN: &str = include_str!("../../../examples/opening.ctl-pgn");

/// A folder tree made for one test, removed when the test ends.
struct Archive {
    root: PathBuf,
}

impl Archive {
    fn new(name: &str) -> Archive {
        let root =
            std::env::temp_dir().join(format!("ctlpgn-workspace-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let archive = Archive { root };
        archive.write("club/2026/broken.ctl-pgn", MISTAKES);
        archive.write("club/clean.ctl-pgn", CLEAN);
        archive.write("club/notes.txt", MISTAKES);
        archive.write("drafts/ignored.ctl-pgn", MISTAKES);
        archive.write(".hidden/hidden.ctl-pgn", MISTAKES);
        // A .gitignore counts inside a Git repository only; an .ignore anywhere.
        archive.write(".ignore", "drafts/\n");
        archive
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder made");
        std::fs::write(path, text).expect("a file written");
    }

    fn uri(&self, path: &str) -> String {
        format!("file://{}", self.root.join(path).display())
    }

    fn folders(&self) -> Value {
        json!([{"uri": format!("file://{}", self.root.display()), "name": "archive"}])
    }
}

impl Drop for Archive {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn start(capabilities: Value, archive: &Archive, on: bool) -> Client {
    let launch = Launch {
        initialization_options: json!({"diagnostics": {"workspace": on}}),
        workspace_folders: archive.folders(),
        ..Launch::new(capabilities)
    };
    Client::launch(launch).expect("the server starts")
}

/// The capabilities of a client that pulls, can be asked to pull again and watches files.
fn pulling_watcher() -> Value {
    let mut capabilities = pull_client();
    capabilities["workspace"] = json!({
        "diagnostics": {"refreshSupport": true},
        "didChangeWatchedFiles": {"dynamicRegistration": true}
    });
    capabilities
}

/// A workspace pull holding the result ids of `held`'s reports; its reports by URI.
fn pull(client: &mut Client, held: &[(String, String)]) -> Vec<Value> {
    let previous: Vec<Value> =
        held.iter().map(|(uri, id)| json!({"uri": uri, "value": id})).collect();
    let answer = client
        .request("workspace/diagnostic", json!({"previousResultIds": previous}))
        .expect("a workspace report");
    let mut items = answer["items"].as_array().cloned().expect("items");
    items.sort_by_key(|item| item["uri"].as_str().unwrap_or_default().to_string());
    items
}

/// What a client keeps of a pull: each file's result id.
fn ids(items: &[Value]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|item| {
            let uri = item["uri"].as_str().expect("a uri").to_string();
            (uri, item["resultId"].as_str().expect("a result id").to_string())
        })
        .collect()
}

/// The reports, one a line: the file's name, its kind, its codes.
fn summary(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|item| {
            let uri = item["uri"].as_str().unwrap_or_default();
            let name = uri.rsplit('/').next().unwrap_or_default();
            let codes: Vec<&str> = item["items"]
                .as_array()
                .map(|found| found.iter().filter_map(|d| d["code"].as_str()).collect())
                .unwrap_or_default();
            format!("{name} {} {}", item["kind"].as_str().unwrap_or("?"), codes.join(" "))
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The diagnostics of `text` opened as a document, as the same server reports them.
fn as_document(text: &str) -> Value {
    let mut client = Client::start(pull_client());
    let uri = crate::client::uri("opened");
    client.open(&uri, text);
    client.about("textDocument/diagnostic", &uri).expect("a report")["items"].clone()
}

#[test]
fn a_client_that_pulls_sees_the_problems_of_the_files_it_has_not_opened() {
    let archive = Archive::new("pull");
    let mut client = start(pulling_watcher(), &archive, true);
    assert_eq!(
        client.initialized["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    let first = pull(&mut client, &[]);
    assert_eq!(summary(&first), ["broken.ctl-pgn full N013 K003 C003", "clean.ctl-pgn full"]);
    assert_eq!(first[0]["uri"], archive.uri("club/2026/broken.ctl-pgn"));
    assert_eq!(first[0]["items"], as_document(MISTAKES), "the document's ranges and messages");
    assert!(
        client.received_request("client/registerCapability", Duration::from_secs(20)),
        "the server asks to be told of changes to the record files"
    );
    let registration = client
        .requests_received
        .iter()
        .find(|request| request["method"] == "client/registerCapability")
        .expect("the registration");
    assert_eq!(
        registration["params"]["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/*.ctl-pgn"
    );

    // Nothing changed: every file unchanged, with the id the client holds.
    let held = ids(&first);
    let again = pull(&mut client, &held);
    assert_eq!(summary(&again), ["broken.ctl-pgn unchanged", "clean.ctl-pgn unchanged"]);
    assert_eq!(ids(&again), held);

    // A file changed on the disk is read again; the other stays unchanged.
    archive.write("club/clean.ctl-pgn", &CLEAN.replace("1. ", "2. "));
    let changed = json!({"changes": [{"uri": archive.uri("club/clean.ctl-pgn"), "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", changed);
    let after_change = pull(&mut client, &held);
    assert_eq!(
        summary(&after_change),
        ["broken.ctl-pgn unchanged", "clean.ctl-pgn full M003 M001"]
    );
    assert_ne!(ids(&after_change)[1], held[1], "a new report, a new id");
    let held = ids(&after_change);

    // An open document is the editor's: left out, and reported from the disk once closed.
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    client.open(&broken, CLEAN);
    let while_open = pull(&mut client, &held);
    assert_eq!(summary(&while_open), ["clean.ctl-pgn unchanged"]);
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": broken}}));
    let closed = pull(&mut client, &held);
    assert_eq!(summary(&closed), ["broken.ctl-pgn full N013 K003 C003", "clean.ctl-pgn unchanged"]);
    let held = ids(&closed);

    // A deleted file is cleared once.
    std::fs::remove_file(archive.root.join("club/clean.ctl-pgn")).expect("removed");
    let deleted = pull(&mut client, &held);
    assert_eq!(summary(&deleted), ["broken.ctl-pgn unchanged", "clean.ctl-pgn full"]);
    let held = ids(&deleted);
    assert_eq!(summary(&pull(&mut client, &held)), ["broken.ctl-pgn unchanged"]);

    // The rule checks switched on: every file reported again.
    client.requests_received.clear();
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"rules": {"enable": true}}}}),
    );
    assert!(client.received_request("workspace/diagnostic/refresh", Duration::from_secs(20)));
    let with_rules = pull(&mut client, &held);
    assert_eq!(summary(&with_rules), ["broken.ctl-pgn full N013 K003 C003"]);
    assert_ne!(ids(&with_rules), held);
    let held = ids(&with_rules);

    // Switched off: what the client holds is cleared.
    client.requests_received.clear();
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"diagnostics": {"workspace": false}}}}),
    );
    assert!(
        client.received_request("workspace/diagnostic/refresh", Duration::from_secs(20)),
        "the client is asked to pull again"
    );
    assert_eq!(summary(&pull(&mut client, &held)), ["broken.ctl-pgn full"]);
}

#[test]
fn the_survey_is_off_by_default() {
    let archive = Archive::new("off");
    let mut client = start(pull_client(), &archive, false);
    assert_eq!(pull(&mut client, &[]), Vec::<Value>::new());
}

#[test]
fn a_client_that_does_not_pull_is_pushed_the_problems_of_the_files_it_has_not_opened() {
    let archive = Archive::new("push");
    let mut client = start(utf16_client(), &archive, true);
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    let pushed = client.published(&broken);
    assert_eq!(pushed["diagnostics"], as_document(MISTAKES));
    assert_eq!(client.published(&archive.uri("club/clean.ctl-pgn"))["diagnostics"], json!([]));

    // Mended on the disk: pushed again, clean.
    archive.write("club/2026/broken.ctl-pgn", CLEAN);
    let changed = json!({"changes": [{"uri": broken, "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", changed);
    assert_eq!(client.published(&broken)["diagnostics"], json!([]));

    // Broken again, then the survey switched off: its problems are cleared.
    archive.write("club/2026/broken.ctl-pgn", MISTAKES);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": broken, "type": 2}]}),
    );
    assert_ne!(client.published(&broken)["diagnostics"], json!([]));
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"diagnostics": {"workspace": false}}}}),
    );
    assert_eq!(client.published(&broken)["diagnostics"], json!([]));
    let leftover: Vec<Value> = client
        .pushed_so_far()
        .into_iter()
        .filter(|published| {
            published["uri"].as_str().is_some_and(|uri| {
                uri.contains("ignored") || uri.contains("hidden") || uri.ends_with(".txt")
            })
        })
        .collect();
    assert_eq!(leftover, Vec::<Value>::new(), "ignored, hidden and other files are left out");
}

/// Neovim pulls an open document's problems but not the workspace's: it is pushed those of
/// the files it has not opened, and they are cleared when it opens one.
#[test]
fn a_client_that_pulls_open_documents_only_is_pushed_the_files_it_has_not_opened() {
    let archive = Archive::new("neovim");
    let mut client = start(pull_client(), &archive, true);
    let capabilities = &client.initialized["capabilities"];
    assert_eq!(capabilities["diagnosticProvider"]["workspaceDiagnostics"], false);
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    assert_eq!(client.published(&broken)["diagnostics"], as_document(MISTAKES));
    client.open(&broken, MISTAKES);
    assert_eq!(client.published(&broken)["diagnostics"], json!([]), "not shown twice");
    let pulled = client.about("textDocument/diagnostic", &broken).expect("a report");
    assert_eq!(pulled["items"], as_document(MISTAKES));
}

/// A file the survey does not read (larger than it reads) is said once in the log, the others
/// are still reported, and a file that is not UTF-8 has S000.
#[test]
fn a_file_left_out_is_said_once_and_a_file_not_in_utf8_has_s000() {
    let archive = Archive::new("unreadable");
    std::fs::write(archive.root.join("club/latin1.ctl-pgn"), b"[Event \"Caf\xe9\"]\n")
        .expect("written");
    // Sparse: as large as it says, without the disk space.
    let huge = std::fs::File::create(archive.root.join("club/huge.ctl-pgn")).expect("created");
    huge.set_len(65 << 20).expect("lengthened");
    let mut client = start(pulling_watcher(), &archive, true);
    let first = pull(&mut client, &[]);
    assert_eq!(
        summary(&first),
        ["broken.ctl-pgn full N013 K003 C003", "clean.ctl-pgn full", "latin1.ctl-pgn full S000"]
    );
    assert_eq!(said_of_huge(&mut client, 1), 1);
    pull(&mut client, &ids(&first));
    assert_eq!(said_of_huge(&mut client, 2), 0, "said once");
}

/// How many log messages about `huge.ctl-pgn` came before the server logged the settings it
/// applied: a barrier, sent now, that comes after everything the server said before it (the
/// survey's log and a pull's answer may come in either order).
fn said_of_huge(client: &mut Client, barrier: u32) -> usize {
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"barrier": barrier}}}),
    );
    let mut said = 0;
    loop {
        let logged = client.notified("window/logMessage");
        let text = logged["message"].as_str().unwrap_or_default().to_string();
        if text.contains(&format!("\"barrier\":{barrier}")) {
            return said;
        }
        if text.contains("huge.ctl-pgn") && text.contains("bytes") {
            said += 1;
        }
    }
}

/// VS Code keeps the problems it pulled for a document after the document closes, when the
/// server pulls the workspace, and waits for the workspace's report of the file: the next pull
/// answers it, empty with the survey off, from the disk with it on; a file outside the
/// folders is answered empty either way. (Before, a closed file's problems stayed in the
/// Problems panel for good with the survey off.)
#[test]
fn a_client_that_pulls_the_workspace_is_answered_each_document_it_closed() {
    let archive = Archive::new("closed");
    let outside = Archive::new("closed-outside");
    let stray = outside.uri("club/2026/broken.ctl-pgn");
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    for on in [false, true] {
        let mut client = start(pulling_watcher(), &archive, on);
        let held = ids(&pull(&mut client, &[]));
        for uri in [&broken, &stray] {
            client.open(uri, MISTAKES);
            let pulled = client.about("textDocument/diagnostic", uri).expect("a report");
            assert_ne!(pulled["items"], json!([]), "the open document's problems");
            client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
        }
        let after_close = pull(&mut client, &held);
        let expected: &[&str] = if on {
            // The stray file, outside the folders, sorts after the archive's.
            &[
                "broken.ctl-pgn full N013 K003 C003",
                "clean.ctl-pgn unchanged",
                "broken.ctl-pgn full",
            ]
        } else {
            &["broken.ctl-pgn full", "broken.ctl-pgn full"]
        };
        assert_eq!(summary(&after_close), expected, "survey on: {on}");
        let stray_report = after_close.iter().find(|item| item["uri"] == stray.as_str());
        assert_eq!(stray_report.map(|item| item["items"].clone()), Some(json!([])));
        // Answered once: the next pull says nothing more of them.
        let mut held = held.clone();
        held.extend(ids(&after_close));
        let again = summary(&pull(&mut client, &held));
        let expected: &[&str] =
            if on { &["broken.ctl-pgn unchanged", "clean.ctl-pgn unchanged"] } else { &[] };
        assert_eq!(again, expected, "survey on: {on}");
    }
}

/// A document opened while a survey runs, and closed once it has ended, is pushed its problems
/// on the disk: the survey read the open documents at its start and recorded the file it
/// checked although it had been opened meanwhile; the close then found it "unchanged" and
/// its problems were never pushed again.
#[test]
fn a_document_opened_during_a_survey_and_closed_after_it_is_pushed_its_problems_again() {
    let archive = Archive::new("race");
    // A large file keeps the survey busy for a while after it read the open documents.
    archive.write("club/big.ctl-pgn", &CLEAN.repeat((8 << 20) / CLEAN.len()));
    archive.write("club/zz-last.ctl-pgn", MISTAKES);
    let mut capabilities = utf16_client();
    capabilities["workspace"] = json!({"didChangeWatchedFiles": {"dynamicRegistration": true}});
    let mut client = start(capabilities, &archive, true);
    // Asked as the survey starts.
    assert!(client.received_request("client/registerCapability", Duration::from_secs(20)));
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    // Opened while the survey checks the files it walked.
    client.open(&broken, CLEAN);
    assert_eq!(client.published(&broken)["diagnostics"], json!([]), "the editor's text");
    // The survey's last report.
    let last = archive.uri("club/zz-last.ctl-pgn");
    assert_ne!(client.published(&last)["diagnostics"], json!([]));
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": broken}}));
    assert_eq!(client.published(&broken)["diagnostics"], json!([]), "the editor's cleared");
    assert_eq!(
        client.published(&broken)["diagnostics"],
        as_document(MISTAKES),
        "the disk's problems pushed again"
    );
}

/// Files named by the client as changed are read again, not the whole tree: a file changed
/// on the disk that no notification names keeps its report until a walk.
#[test]
fn a_watched_file_notification_reads_the_files_it_names_only() {
    let archive = Archive::new("named");
    let mut client = start(utf16_client(), &archive, true);
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    let clean = archive.uri("club/clean.ctl-pgn");
    assert_ne!(client.published(&broken)["diagnostics"], json!([]));
    assert_eq!(client.published(&clean)["diagnostics"], json!([]));
    // Both changed on the disk (other lengths: other stamps), one named.
    archive.write("club/2026/broken.ctl-pgn", CLEAN);
    archive.write("club/clean.ctl-pgn", &format!("{CLEAN}\n"));
    client
        .notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": clean, "type": 2}]}));
    assert_eq!(client.published(&clean)["diagnostics"], json!([]));
    let pushed = client.pushed_so_far();
    assert!(
        pushed.iter().all(|published| published["uri"] != broken.as_str()),
        "the file not named is not read: {pushed:?}"
    );
    // Named many times over while its surveys run: read again, the last text reported.
    archive.write("club/2026/broken.ctl-pgn", MISTAKES);
    for _ in 0..200 {
        client.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": broken, "type": 2}]}),
        );
    }
    assert_eq!(client.published(&broken)["diagnostics"], as_document(MISTAKES));
    // A new file is not known to the survey: the folders are walked for it.
    archive.write("club/new.ctl-pgn", MISTAKES);
    let new = archive.uri("club/new.ctl-pgn");
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": new, "type": 1}]}));
    assert_eq!(client.published(&new)["diagnostics"], as_document(MISTAKES));
    // Deleted: cleared.
    std::fs::remove_file(archive.root.join("club/new.ctl-pgn")).expect("removed");
    client.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": new, "type": 3}]}));
    assert_eq!(client.published(&new)["diagnostics"], json!([]));
}

/// A surveyed file lists its first thousand problems and one more that counts the others (the
/// file opened lists them all): a generated archive can hold millions.
#[test]
fn a_surveyed_file_lists_a_thousand_problems_and_counts_the_rest() {
    let archive = Archive::new("many");
    let records = MISTAKES.repeat(400);
    archive.write("club/2026/broken.ctl-pgn", &records);
    let mut client = start(utf16_client(), &archive, true);
    let broken = archive.uri("club/2026/broken.ctl-pgn");
    let pushed = client.published(&broken)["diagnostics"].as_array().cloned().expect("a list");
    let all = as_document(&records).as_array().cloned().expect("a list");
    assert_eq!(all.len(), 1200);
    assert_eq!(pushed.len(), 1001);
    assert_eq!(pushed[..1000], all[..1000]);
    let notice = &pushed[1000];
    assert_eq!((&notice["code"], &notice["range"]), (&json!("S015"), &all[1000]["range"]));
    let message = notice["message"].as_str().expect("a message");
    assert!(message.starts_with("200 more problems in this file are not listed"), "{message}");
}
