//! Findings: what failed, the input saved under `fuzz/findings/` named by its hash, and the
//! checks a run was told to skip.

use std::path::PathBuf;

use ctlpgn_test_support::rng::hash;

/// A broken promise: its kind (a check's name, such as `format-idempotent`) and what happened.
#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: &'static str,
    pub message: String,
}

/// The kinds of checks a run skips (`--skip KIND`, repeatable): a kind skips itself and every
/// kind it prefixes (`format` skips `format-idempotent`).
#[derive(Clone, Debug, Default)]
pub struct Skip {
    pub kinds: Vec<String>,
}

impl Skip {
    pub fn has(&self, kind: &str) -> bool {
        self.kinds.iter().any(|skipped| {
            kind == skipped
                || (kind.starts_with(skipped.as_str()) && kind[skipped.len()..].starts_with('-'))
        })
    }
}

/// The folder findings are written to.
pub fn findings_dir() -> PathBuf {
    crate::seeds::repository_root().join("fuzz").join("findings")
}

/// Saves an input (core: the record text; lsp: the edit stream) as
/// `fuzz/findings/<mode>-<kind>-<hash>.<ext>` with the finding beside it in `.txt`; returns the
/// input's path.
pub fn save(mode: &str, kind: &str, input: &[u8], message: &str) -> PathBuf {
    let dir = findings_dir();
    let _ = std::fs::create_dir_all(&dir);
    let extension = if mode == "lsp" { "jsonl" } else { "ctl-pgn" };
    let name = format!("{mode}-{kind}-{:016x}", hash(input));
    let path = dir.join(format!("{name}.{extension}"));
    let _ = std::fs::write(&path, input);
    let _ = std::fs::write(dir.join(format!("{name}.txt")), format!("{kind}: {message}\n"));
    path
}

/// A finding's signature, to tell distinct findings from repeats: its kind and the first line
/// of its message with the numbers taken out.
pub fn signature(finding: &Finding) -> String {
    let first = finding.message.lines().next().unwrap_or("");
    let mut out = String::new();
    for ch in first.chars().take(120) {
        if ch.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(ch);
        }
    }
    format!("{}: {out}", finding.kind)
}
