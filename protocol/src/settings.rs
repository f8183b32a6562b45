//! The server's settings, as the client sends them: in `initializationOptions`, in the
//! `ctlpgn` section of `workspace/configuration`, and in `didChangeConfiguration`. All three
//! carry the same object:
//!
//! ```json
//! {"rules": {"enable": false}, "format": {"separators": "keep", "ellipsis": "keep"},
//!  "diagnostics": {"workspace": false}}
//! ```
//!
//! It is read leniently: a missing key keeps the value it had, and a key of the wrong type or
//! an unknown style is ignored, since a typo in a user's settings must not stop the server.

use serde_json::Value;

use ctlpgn_core::format::{EllipsisStyle, FormatOptions, Separators};

/// What the user chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Whether the optional rule checks (R-codes) are reported; off by default, as the
    /// handbook makes them optional (§14.4).
    pub rules: bool,
    /// How the formatter spells separators and ellipses.
    pub format: FormatOptions,
    /// Whether hovers draw boards as SVG images: the client shows them (VS Code's extension
    /// says so with `{"hover": {"images": true}}`); other clients get text boards.
    pub hover_images: bool,
    /// Whether the problems of every record file under the workspace folders are reported,
    /// not only those of the open documents (`workspace`); off by default, as a large
    /// archive costs a walk and a check of every file.
    pub workspace_diagnostics: bool,
}

impl Settings {
    /// These settings with the values `value` gives. `value` is the `ctlpgn` object itself,
    /// or an object holding it under `ctlpgn` (as `didChangeConfiguration` sends from some
    /// clients).
    pub fn updated(self, value: &Value) -> Settings {
        let value = value.get("ctlpgn").unwrap_or(value);
        let mut settings = self;
        if let Some(enable) = value.pointer("/rules/enable").and_then(Value::as_bool) {
            settings.rules = enable;
        }
        if let Some(images) = value.pointer("/hover/images").and_then(Value::as_bool) {
            settings.hover_images = images;
        }
        if let Some(all) = value.pointer("/diagnostics/workspace").and_then(Value::as_bool) {
            settings.workspace_diagnostics = all;
        }
        let style = |key: &str| value.pointer(&format!("/format/{key}")).and_then(Value::as_str);
        if let Some(separators) = style("separators").and_then(Separators::from_name) {
            settings.format.separators = separators;
        }
        if let Some(ellipsis) = style("ellipsis").and_then(EllipsisStyle::from_name) {
            settings.format.ellipsis = ellipsis;
        }
        settings
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn settings_are_read_key_by_key_and_typos_keep_the_previous_value() {
        let settings = Settings::default()
            .updated(&json!({"rules": {"enable": true}, "format": {"separators": "unicode"}}));
        assert!(settings.rules);
        assert_eq!(
            settings.format,
            FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Keep }
        );
        let nested = settings
            .updated(&json!({"ctlpgn": {"format": {"ellipsis": "ascii", "separators": "fancy"}}}));
        assert_eq!(
            nested.format,
            FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Ascii }
        );
        assert!(nested.rules);
        assert!(!nested.workspace_diagnostics);
        let everywhere = nested.updated(&json!({"diagnostics": {"workspace": true}}));
        assert!(everywhere.workspace_diagnostics);
        assert_eq!(everywhere.updated(&json!({"diagnostics": {"workspace": 1}})), everywhere);
        assert_eq!(nested.updated(&json!(null)), nested);
        assert_eq!(nested.updated(&json!({"rules": {"enable": "yes"}})), nested);
    }
}
