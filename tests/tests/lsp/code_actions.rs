//! Code actions over the protocol: each diagnostic with an obvious fix offers it as a quick
//! fix whose edit, applied by the client, gives the corrected text in either encoding; one
//! "fix all" action applies every unambiguous fix of the document.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};
use crate::{actions_at, apply, listed};

/// A record with one problem of each fixable kind, after non-ASCII text on the same lines.
const BROKEN: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-Q01\"]\n[Annotator \"Pérez, Núria\"]\n[Anotator \"Núria\"]\n[Date \"2024.05.01\"]\n[Result \"1-1\"]\n[TLPD \"/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1\"]\n\n1. E7‐E13, D22-D16 $1\n{#: «Núria» ♘}\n3. E13-E15, F20-F18\n4. E15-E17, F18xE17^+\n*\n";

fn titled<'a>(actions: &'a [Value], title: &str) -> &'a Value {
    actions
        .iter()
        .find(|action| action["title"] == title)
        .unwrap_or_else(|| panic!("no action {title:?} in {actions:#?}"))
}

/// The document's text after one action's edit.
fn after(text: &str, action: &Value, name: &str, utf8: bool) -> String {
    apply(text, &action["edit"]["changes"][uri(name)], utf8)
}

/// A fix offered: the place asked at (a `$0` in its context), the fix's title, and a part of
/// the text before and after the fix.
type Case<'a> = (&'a str, &'a str, &'a str, &'a str);

/// The quick fix of each case, asked at its place in `text` in both encodings: a preferred
/// quick fix of its diagnostic that, applied, turns the case's text before into its text after
/// (the units of a column after non-ASCII text differ; the fixed text must not). The actions
/// found, for more checks.
fn fixes_in_both_encodings(name: &str, text: &str, cases: &[Case<'_>]) -> Vec<Value> {
    let mut found = Vec::new();
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri(name), text);
        for &(place, title, before, fixed) in cases {
            let actions = actions_at(&mut client, name, &Marked::within(text, place));
            let action = titled(&actions, title);
            assert_eq!(action["kind"], "quickfix");
            assert_eq!(action["isPreferred"], true, "{title}");
            assert!(action["diagnostics"][0]["code"].is_string(), "{action}");
            assert_eq!(
                after(text, action, name, utf8),
                text.replacen(before, fixed, 1),
                "{title} at {place} (utf8: {utf8})"
            );
            found.push(action.clone());
        }
    }
    found
}

#[test]
fn each_fixable_diagnostic_offers_its_fix_in_both_encodings() {
    // Each place is marked in its context; `$$01` is the cursor after the NAG's `$`.
    let cases = [
        (
            "[Date \"20$024.05.01",
            "Write 2024-05-01",
            "[Date \"2024.05.01\"]",
            "[Date \"2024-05-01\"]",
        ),
        ("[An$0otator", "Rename to Annotator", "[Anotator ", "[Annotator "),
        ("[T$0LPD", "Rename to PDTL", "[TLPD ", "[PDTL "),
        ("D22-D16 $$01", "Write !", "D22-D16 $1\n", "D22-D16 !\n"),
        ("{$0#: «Núria»", "Write {:", "{#: «Núria»", "{: «Núria»"),
        (
            "3$0. E13-E15",
            "Renumber the moves from 3 as 2",
            "3. E13-E15, F20-F18\n4. E15",
            "2. E13-E15, F20-F18\n3. E15",
        ),
        ("F18x$0E17", "Write ×", "F18xE17", "F18×E17"),
        ("F18xE17^$0+", "Write +^", "E17^+", "E17+^"),
        ("F18xE$017", "Add the end mark :", "E17^+\n", "E17^+:\n"),
    ];
    fixes_in_both_encodings("broken", BROKEN, &cases);
}

#[test]
fn a_result_tag_that_disagrees_with_the_line_offers_both_corrections() {
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-Q02\"]\n[Annotator \"Vidàl\"]\n[Result \"1-1\"]\n\n1. E7-E13, D22-D16:\n*\n";
    let mut client = Client::start(utf16_client());
    client.open(&uri("result"), text);
    let actions = actions_at(&mut client, "result", &Marked::within(text, "$0[Result"));
    let tag = titled(&actions, "Set the Result tag to *");
    assert_eq!(
        after(text, tag, "result", false),
        text.replace("[Result \"1-1\"]", "[Result \"*\"]")
    );
    let line = titled(&actions, "Change the result line to 1-1");
    assert_eq!(after(text, line, "result", false), text.replace(":\n*\n", ":\n1-1\n"));
    assert_eq!(tag["isPreferred"], Value::Null, "two alternatives: neither is preferred");
}

#[test]
fn a_missing_variant_and_a_missing_result_line_are_added() {
    let text = "[Event \"Obert de Moià\"]\n\n1. E7-E13, D22-D16:\n";
    let mut client = Client::start(utf16_client());
    client.open(&uri("missing"), text);
    let actions = actions_at(&mut client, "missing", &Marked::within(text, "$0[Event"));
    let variant = titled(&actions, "Add [Variant \"C'escacs\"]");
    assert_eq!(after(text, variant, "missing", false), format!("[Variant \"C'escacs\"]\n{text}"));
    let actions = actions_at(&mut client, "missing", &Marked::within(text, "D$022-D16:"));
    let result = titled(&actions, "Add the result line *");
    assert_eq!(after(text, result, "missing", false), format!("{text}*\n"));
}

#[test]
fn fix_all_applies_every_unambiguous_fix_and_the_result_checks_clean_of_them() {
    let mut client = Client::start(utf8_client());
    client.open(&uri("all"), BROKEN);
    let start = Marked::within(BROKEN, "$0[Variant");
    let actions = actions_at(&mut client, "all", &start);
    let fix_all = titled(&actions, "Fix all CTL-PGN problems with an obvious fix");
    assert_eq!(fix_all["kind"], "source.fixAll.ctlpgn");
    let fixed = after(BROKEN, fix_all, "all", true);
    let codes: Vec<String> =
        ctlpgn::cli::analyse(&fixed, ctlpgn_core::analysis::Keep::Findings, false)
            .iter()
            .flat_map(|record| {
                record.analysis.diagnostics.iter().map(|d| d.code.as_str().to_string())
            })
            .collect();
    // Only the disagreement between the Result tag and the line is left: it has two fixes.
    assert_eq!(codes, ["T014"], "{fixed}");
    let range = start.lsp_range(client.encoding());
    let only = json!({"textDocument": {"uri": uri("all")}, "range": range, "context": {"diagnostics": [], "only": ["quickfix"]}});
    let quick_fixes = client.request("textDocument/codeAction", only).expect("code actions");
    assert!(quick_fixes
        .as_array()
        .is_none_or(|actions| actions.iter().all(|action| action["kind"] == "quickfix")));
}

/// What the editor asks by itself as the cursor moves (VS Code's lightbulb): the quick fixes
/// under the cursor only, so that no lightbulb stands on lines without a problem; the same
/// place (the misspelt `[Anotator`) asked by the user (trigger kind `Invoked`) also offers the fix-all and the conversions.
#[test]
fn a_request_the_editor_makes_by_itself_gets_the_quick_fixes_alone() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("auto"), BROKEN);
    let misspelt = Marked::within(BROKEN, "$0[Anotator");
    let offered = |client: &mut Client, trigger: u32| -> Vec<Value> {
        let range = misspelt.lsp_range(client.encoding());
        let params = json!({"textDocument": {"uri": uri("auto")}, "range": range, "context": {"diagnostics": [], "triggerKind": trigger}});
        let answer = client.request("textDocument/codeAction", params).expect("code actions");
        answer.as_array().cloned().unwrap_or_default()
    };
    // Invoked by the user.
    insta::assert_snapshot!(listed(&offered(&mut client, 1)), @r"
    quickfix: Rename to Annotator (preferred)
    source.fixAll.ctlpgn: Fix all CTL-PGN problems with an obvious fix
    refactor.extract.ctlpgn: Continue from here in a new record
    ");
    // Asked by the editor as the cursor moves.
    insta::assert_snapshot!(listed(&offered(&mut client, 2)), @"quickfix: Rename to Annotator (preferred)");
}

#[test]
fn unknown_documents_and_clean_places_have_no_quick_fixes() {
    let mut client = Client::start(utf16_client());
    let clean = "[Variant \"C'escacs\"]\n[Id \"Demo-Q03\"]\n[Annotator \"Vidàl\"]\n\n1. E7-E13, D22-D16:\n*\n";
    client.open(&uri("clean"), clean);
    let half_move = Marked::within(clean, "1. $0E7-E13");
    let actions = actions_at(&mut client, "clean", &half_move);
    // No quick fix and no fix-all: the conversions alone.
    insta::assert_snapshot!(listed(&actions), @r"
    source.convert.ctlpgn: Convert this record to FAN figurines
    refactor.extract.ctlpgn: Continue from here in a new record
    ");
    assert!(actions_at(&mut client, "not-open", &half_move).is_empty());
}

#[test]
fn a_wrong_check_suffix_is_fixed_when_the_rule_checks_are_on() {
    // The Rook checks the King on F20 from afar: `+^` should be `+∞`. The line holds a `‐`.
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-Q03\"]\n[Annotator \"Vidàl\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3‐F6+^, KF20-E21:\n*\n";
    for (rules, offered) in [(true, true), (false, false)] {
        let settings = json!({"rules": {"enable": rules}});
        let mut client = Client::start_with(utf16_client(), settings.clone(), settings);
        client.open(&uri("suffix"), text);
        let actions = actions_at(&mut client, "suffix", &Marked::within(text, "1. RC3‐F6+$0^"));
        let fix = actions.iter().find(|action| action["title"] == "Write +∞");
        assert_eq!(fix.is_some(), offered, "rules {rules}: {actions:#?}");
        if let Some(fix) = fix {
            assert_eq!(fix["diagnostics"][0]["code"], "R008");
            assert_eq!(after(text, fix, "suffix", false), text.replace("F6+^", "F6+∞"));
        }
    }
}

/// A client that resolves a code action's edit (as VS Code and Neovim do) gets the fix-all and
/// the conversions without edits, and each resolves to the edit an eager client gets at once;
/// an action offered before an edit of the document resolves to an error, not to an edit of
/// a text that is gone.
#[test]
fn lazy_actions_resolve_to_the_eager_edits_until_the_document_changes() {
    let mut resolving = utf8_client();
    resolving["textDocument"] = json!({"codeAction": {"resolveSupport": {"properties": ["edit"]}}});
    let text = format!(
        "{BROKEN}\n[Variant \"C'escacs\"]\n[Event \"Lazy\"]\n\n1. E7-E13 !?, E21-E15:\n*\n"
    );
    let mut eager = Client::start(utf8_client());
    let mut lazy = Client::start(resolving);
    // In the first record, which does not replay, the fix-all and the new record from the
    // place (its tags set up a position); in the second, the
    // fix-all and the conversions to FAN, to minimal CTL-PGN and from the cursor.
    for (place, titles) in [("$0[Anotator", 2), ("$01. E7-E13 !?", 4)] {
        eager.open(&uri("lazy"), &text);
        lazy.open(&uri("lazy"), &text);
        let place = Marked::within(&text, place);
        let made = actions_at(&mut eager, "lazy", &place);
        let offered = actions_at(&mut lazy, "lazy", &place);
        let costly: Vec<&Value> =
            offered.iter().filter(|action| action["kind"] != "quickfix").collect();
        assert_eq!(costly.len(), titles, "{offered:#?}");
        let eager_titles: Vec<&Value> = made
            .iter()
            .filter(|action| action["kind"] != "quickfix")
            .map(|action| &action["title"])
            .collect();
        let lazy_titles: Vec<&Value> = costly.iter().map(|action| &action["title"]).collect();
        assert_eq!(lazy_titles, eager_titles);
        for action in costly {
            assert!(action.get("edit").is_none(), "{action}");
            let resolved = lazy.request("codeAction/resolve", action.clone()).expect("resolved");
            let expected = titled(&made, action["title"].as_str().unwrap_or_default());
            assert_eq!(resolved["edit"], expected["edit"], "{}", action["title"]);
        }
        lazy.notify("textDocument/didClose", json!({"textDocument": {"uri": uri("lazy")}}));
        eager.notify("textDocument/didClose", json!({"textDocument": {"uri": uri("lazy")}}));
        let quick_fixes: Vec<&Value> =
            offered.iter().filter(|action| action["kind"] == "quickfix").collect();
        assert!(quick_fixes.iter().all(|action| action.get("edit").is_some()));
    }
    // A record already minimal is offered the stripping lazily (finding out costs the
    // conversion), which then changes nothing; made at once, it is not offered.
    let minimal = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15:\n*\n";
    eager.open(&uri("minimal"), minimal);
    lazy.open(&uri("minimal"), minimal);
    let strip = "Strip this record to minimal CTL-PGN";
    let half_move = Marked::within(minimal, "$01. E7");
    let made = actions_at(&mut eager, "minimal", &half_move);
    assert!(made.iter().all(|action| action["title"] != strip));
    let offered = actions_at(&mut lazy, "minimal", &half_move);
    let resolved = lazy.request("codeAction/resolve", titled(&offered, strip).clone());
    assert_eq!(resolved.expect("resolved")["edit"]["changes"][uri("minimal")], json!([]));
    lazy.open(&uri("lazy"), &text);
    let start = Marked::within(&text, "$0[Variant \"C'escacs\"]\n[Id \"Demo-Q01\"]");
    let offered = actions_at(&mut lazy, "lazy", &start);
    let fix_all = titled(&offered, "Fix all CTL-PGN problems with an obvious fix").clone();
    let range = start.lsp_range(lazy.encoding());
    lazy.change(&uri("lazy"), 2, json!([{"range": range, "text": " "}]));
    let refused = lazy.request("codeAction/resolve", fix_all).expect_err("a stale action");
    assert_eq!(refused["code"], -32801, "{refused}");
}

/// A record with non-canonical spacing and indentation dots after `…`, `‐`, `×` and astral
/// FAN figurines on the same lines.
const LAYOUT: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-Q03\"]\n[Annotator \"Núñez, Àlex\"]\n[Redefine \"FAN\"]\n\n1. K4-K6,E21-E19\n(1. …,E21‐E17\n..)\n2. 🩐H2-Z17 ,  ♟E19-E15\n3.🩐Z17×K18, E15-E13:\n*\n";

#[test]
fn the_layout_hints_offer_the_canonical_spacing_and_dots_in_both_encodings() {
    let cases = [
        ("K4-K6,$0E21", "Write one space after the comma", "K4-K6,E21", "K4-K6, E21"),
        ("(1. …,$0E21", "Write one space after the comma", "…,E21", "…, E21"),
        ("$0..)", "Remove the indentation dots", "\n..)\n", "\n)\n"),
        ("Z17$0 ,", "Remove the blanks before the comma", "Z17 ,", "Z17,"),
        ("Z17 , $0 ♟", "Write one space after the comma", ",  ♟", ", ♟"),
        ("3.$0🩐Z17", "Write one space after 3.", "3.🩐", "3. 🩐"),
    ];
    for action in fixes_in_both_encodings("layout", LAYOUT, &cases) {
        assert_eq!(action["diagnostics"][0]["severity"], 4, "a hint: {action}");
    }
}

/// A hint's fix and another fix of the same token (here missing dots and a renumbering of
/// `3.`) are never both in one fix-all: the first is taken, and the next fix-all takes the
/// other.
#[test]
fn fix_all_takes_one_of_a_hint_and_another_fix_of_its_token_at_a_time() {
    let written = "[Variant \"C'escacs\"]\n[Id \"Demo-Q04\"]\n[Annotator \"Núñez\"]\n\n1. E7‐E13, E21‐E15\n(1. F8‐F12, F20‐F16\n3. G7‐G13)\n2. F8‐F12:\n*\n";
    let mut text = written.to_string();
    let mut client = Client::start(utf16_client());
    let mut rounds = 0;
    loop {
        let name = format!("round{rounds}");
        client.open(&uri(&name), &text);
        let actions = actions_at(&mut client, &name, &Marked::within(&text, "$0[Variant"));
        let Some(fix_all) = actions.iter().find(|action| action["kind"] == "source.fixAll.ctlpgn")
        else {
            break;
        };
        text = after(&text, fix_all, &name, false);
        rounds += 1;
        assert!(rounds <= 3, "{text}");
    }
    assert_eq!(rounds, 2);
    assert_eq!(text, written.replace("\n3. G7‐G13)", "\n.2. G7‐G13)"));
}
