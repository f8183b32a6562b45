//! The VS Code extension's Marketplace page (editors/vscode/README.md) is the first thing a
//! VS Code user reads: it names every command the extension contributes, as the command
//! palette shows it (`CTL-PGN: Show board`), and every setting.

use ctlpgn_test_support::fixtures::{read_text, repository_dir};
use serde_json::Value;

#[test]
fn the_marketplace_page_names_every_command_and_setting() {
    let folder = repository_dir().join("editors/vscode");
    let manifest: Value =
        serde_json::from_str(&read_text(&folder.join("package.json"))).expect("package.json");
    let page = read_text(&folder.join("README.md"));
    let contributed = &manifest["contributes"];
    let commands = contributed["commands"].as_array().expect("the commands");
    assert!(commands.len() >= 3, "{commands:?}");
    for command in commands {
        let shown = format!(
            "**{}: {}**",
            command["category"].as_str().unwrap_or_default(),
            command["title"].as_str().unwrap_or_default()
        );
        assert!(page.contains(&shown), "editors/vscode/README.md does not name {shown}");
    }
    let settings = contributed["configuration"]["properties"].as_object().expect("the settings");
    for setting in settings.keys() {
        assert!(
            page.contains(&format!("`{setting}`")),
            "editors/vscode/README.md leaves out {setting}"
        );
    }
}
