//! The diagnostic codes of the handbook (§14): code, kebab-case name, default severity, meaning.
//!
//! This table is the single source of the codes: the checks name a [`Code`], the command line
//! and the language server print its code and name, and the manual's page of codes
//! (docs/diagnostics.md) is generated from it by a test. A few codes have a second severity in
//! the handbook (T002 for Grand C'escacs, T003, T023, P001, P016, P017), written after the
//! first with the case it applies in; the check that raises them chooses it. Severities are
//! written as the words `ctlpgn check` prints (`error`, `warning`, `hint`), never as the
//! handbook's letters (E, W, I), so that one thing has one name wherever a user meets it.

/// How serious a diagnostic is (handbook §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The file is malformed or contradictory; a minimum reader stops trusting the record.
    Error,
    /// The text departs from the conventions but its meaning is recoverable.
    Warning,
    /// Style: the canonical form differs.
    Hint,
}

impl Severity {
    /// The lower-case word used by the command line, the JSON output and the manual.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "hint",
        }
    }
}

macro_rules! codes {
    (@column $severity:ident) => { Severity::$severity.as_str() };
    (@column $severity:ident $column:literal) => { $column };
    ($($code:ident, $name:literal, $severity:ident $($column:literal)?, $meaning:literal;)*) => {
        /// A diagnostic code of the handbook.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $meaning]
                $code,
            )*
        }

        impl Code {
            /// Every code, in the handbook's order.
            pub const ALL: &'static [Code] = &[$(Code::$code),*];

            /// The code as written in the handbook, e.g. `K003`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$code => stringify!($code),)* }
            }

            /// The short kebab-case name shown beside the code, e.g. `origin-wrong-piece`.
            pub fn name(self) -> &'static str {
                match self { $(Code::$code => $name,)* }
            }

            /// The severity the handbook gives the code (the first one where it gives two).
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$code => Severity::$severity,)* }
            }

            /// The handbook's severity column in words: the default severity, or both
            /// severities and when the second applies (`error (warning for Grand C'escacs)`).
            pub fn handbook_severity(self) -> &'static str {
                match self { $(Code::$code => codes!(@column $severity $($column)?),)* }
            }

            /// The handbook's one-line statement of the condition, in Markdown.
            pub fn meaning(self) -> &'static str {
                match self { $(Code::$code => $meaning,)* }
            }
        }
    };
}

codes! {
    S000, "invalid-utf8", Error, "file is not valid UTF-8";
    S001, "unexpected-token", Error, "unexpected token in movetext";
    S002, "malformed-tag-line", Error, "malformed tag line";
    S003, "tag-after-movetext", Error, "tag line after the movetext started (other than a new `[Variant`)";
    S004, "malformed-move", Error, "malformed move token";
    S005, "x-capture-sign", Error, "`x` used as capture sign";
    S006, "nonstandard-dash", Warning, "non-standard dash as separator (U+2013, U+2011, U+2212)";
    S007, "lower-case-in-move", Error, "lower-case letter in a move";
    S008, "nag-in-movetext", Error, "NAG in movetext";
    S009, "malformed-annotation", Error, "malformed rating / game indicator";
    S010, "legacy-check-suffix", Warning, "legacy check suffix `^+`";
    S011, "incomplete-move-line", Error, "incomplete move line (number without move, `,` without Black's move, ellipsis without `,`)";
    S012, "unknown-identifier", Error, "identifier not in the active set (incl. a standard letter invalidated by `Redefine`, wrong-colour figurine)";
    S013, "pawn-letter-written", Error, "pawn letter written";
    S014, "captured-letter-on-move", Error, "captured-piece letter after `-`/`‐`";
    S015, "diagnostics-truncated", Warning, "more than 100 diagnostics in one part of a record (syntax, tag section, movetext, comments, rule checks): the rest are counted, not listed";
    C001, "unknown-column", Error, "unknown column letter";
    C002, "malformed-line", Error, "line > 28, or leading zero";
    C003, "wrong-line-parity", Error, "line parity wrong for the column";
    C004, "off-board", Error, "valid parity but off the board";
    K001, "origin-empty", Error, "origin hex empty";
    K002, "origin-opponent-piece", Error, "origin piece belongs to the opponent";
    K003, "origin-wrong-piece", Error, "origin piece is not of the written type";
    K004, "destination-occupied", Error, "non-capture onto an occupied hex";
    K005, "capture-on-empty", Error, "capture onto an empty hex";
    K006, "capture-own-piece", Error, "capture of an own piece";
    K007, "captured-letter-missing", Error, "captured piece is not a pawn but no letter written";
    K008, "captured-letter-wrong", Error, "captured-piece letter does not match";
    K009, "captured-pawn-named", Error, "letter written for a captured pawn";
    K010, "special-capture-by-non-pawn", Error, "`@`/`@@` by a non-pawn";
    K011, "special-capture-geometry", Error, "`@`/`@@` geometry invalid (not `(±1,±3)` forward en passant nor `(±1,±1)` forward scornful; `@@` on a scornful capture)";
    K012, "en-passant-landing-occupied", Error, "en passant landing hex occupied";
    K013, "en-passant-nothing-to-take", Error, "en passant: no opponent piece on the computed hex";
    K014, "scornful-capture-nothing-to-take", Error, "scornful capture: no opponent piece on the destination";
    K015, "promotion-missing", Error, "pawn reaches its promotion hex without `=X`/`=&`";
    K016, "promotion-not-allowed", Error, "promotion suffix where no promotion happens";
    K017, "promotion-to-forbidden-piece", Error, "promotion to K, E or P (a letter outside the active set is S012)";
    K018, "promotion-piece-not-regainable", Error, "promotion piece not regainable/suitable (still on the board; Bishop of another colour)";
    K019, "forced-promotion-without-pawn", Error, "forced promotion without an own pawn awaiting on that hex";
    K020, "unknown-castling", Error, "unknown castling token";
    K021, "castling-king-not-home", Error, "castling with the King off its home hex";
    K022, "castling-rook-not-home", Error, "castling with a Rook off its home hex";
    K023, "castling-destination-occupied", Error, "castling destination occupied";
    R001, "en-passant-unavailable", Warning, "en passant not available (the previous half-move was not that double/triple step)";
    R002, "scornful-capture-unavailable", Warning, "scornful capture not available";
    R003, "castling-right-lost", Warning, "castling right already lost";
    R004, "castling-path-blocked", Warning, "castling Rook path blocked";
    R005, "awaiting-despite-regainable", Warning, "`=&` although a suitable piece is regainable";
    R006, "forced-promotion-skipped", Warning, "forced promotion pending but another move played";
    R007, "scornful-capture-with-cross", Warning, "scornful capture written with `×`";
    R008, "check-suffix-inconsistent", Warning, "check suffix inconsistent with the position (missing, wrong category)";
    R009, "impossible-move", Warning, "move impossible for the piece (full legality)";
    M001, "move-number-sequence", Error, "move number out of sequence";
    M002, "unknown-start-numbering", Error, "`N?` numbering other than `1?`, or `1?` anywhere but the first main-line move line";
    M003, "start-inconsistent", Error, "start inconsistent: continuation without PDTL, or ellipsis vs PDTL turn mismatch";
    M004, "missing-end-mark", Error, "last main-line half-move lacks `:`/`#`";
    M005, "early-end-mark", Error, "`:` or `#` before the last main-line half-move";
    M006, "missing-result", Error, "result line missing";
    M007, "invalid-result", Error, "invalid result value, or result inside a variation";
    M008, "content-after-result", Error, "moves/variations/second result after the result line";
    M009, "result-not-alone", Warning, "result not on its own line";
    M010, "white-only-line-not-last", Error, "a move line without Black's half-move is not the last of its line of play";
    M011, "unbalanced-parentheses", Error, "unbalanced parentheses";
    M012, "variation-before-first-move", Error, "variation before the first move line";
    M013, "empty-variation", Error, "empty variation";
    M014, "split-move-pair", Error, "move pair split across lines";
    M015, "variation-number-mismatch", Error, "variation's first number does not repeat the parent move number";
    M016, "variation-replaces-nothing", Error, "variation replaces a half-move that does not exist";
    M017, "duplicate-label", Error, "duplicate label for the same move in the same line";
    M018, "result-contradicts-mate", Error, "result (line, or `Result` tag if the line is missing or invalid) inconsistent with the final checkmate";
    M019, "unknown-start-with-pdtl-number", Warning, "`1?` although PDTL gives a move number";
    M020, "malformed-label", Error, "malformed variation label";
    M021, "rating-after-mate", Warning, "rating after a checkmating move";
    M022, "ellipsis-mid-line", Error, "ellipsis not on the first move line of a line of play";
    M023, "moves-after-mate-in-variation", Error, "moves after `#` inside a variation";
    M024, "first-number-differs-from-pdtl", Error, "first move number differs from PDTL's move number";
    M025, "end-mark-in-variation", Warning, "`:` inside a variation";
    M026, "several-pairs-on-line", Hint, "several move pairs on one line";
    M027, "noncanonical-spacing", Hint, "non-canonical spacing around number/comma";
    M028, "stalemate-result-wrong-side", Warning, "stalemate result but the last half-move is not the stalemating side's";
    M029, "indentation-dots-mismatch", Hint, "indentation dots do not match nesting depth";
    T001, "variant-not-first", Error, "first tag is not `Variant` (or no tags)";
    T002, "wrong-variant", Error "error (warning for Grand C'escacs)", "`Variant` value is not `C'escacs`";
    T003, "duplicate-tag", Error "error or warning", "duplicate tag (an error for Variant, Redefine, PDTL)";
    T004, "unknown-tag", Warning, "unknown tag name";
    T005, "deprecated-tag-name", Warning, "deprecated name `TLPD`/`DPTL`";
    T006, "roster-order", Warning, "roster tag missing or out of order";
    T007, "unexpected-second-tag", Warning, "second tag is neither `Event` nor `Id`";
    T008, "id-without-annotator", Warning, "`Id` form without `Annotator`";
    T009, "repeated-tags-not-consecutive", Warning, "`Annotator` (or `Example`) tags not consecutive";
    T010, "missing-alias", Warning, "`WhiteNA`/`BlackNA` replaces the player tag but the Alias is missing";
    T011, "bad-date", Warning, "bad date (`Date`, `EventDate`, `MatchDate`)";
    T012, "bad-round", Warning, "bad `Round`";
    T013, "bad-result-tag", Warning, "bad `Result` tag value";
    T014, "result-tag-mismatch", Error, "`Result` tag differs from the result line (both holding valid values)";
    T015, "bad-time-control", Warning, "bad `TimeControl`";
    T016, "bad-lang", Warning, "bad `Lang`";
    T017, "title-before-lang", Warning, "`Title` before `Lang`";
    T018, "value-not-in-enumeration", Warning, "value not in the enumeration (`Termination`, `Mode`, `WhiteType`, `BlackType`)";
    T019, "tag-wrong-record-kind", Warning, "real-game-only tag in a model item, or model-only tag in a real game";
    T020, "malformed-identifier", Warning, "malformed identifier (`Id`, `Model`, `Revisited`, `Example`)";
    T021, "annotator-id-mismatch", Warning, "`AnnotatorId` missing or different for an `A` key";
    T022, "invalid-redefine", Error, "invalid `Redefine` value";
    T023, "redefine-misplaced", Error "error or warning", "`Redefine` after `PDTL` (an error); not immediately before `PDTL` / not last (a warning)";
    T024, "pdtl-not-last", Warning, "`PDTL` not the last tag";
    T025, "comment-among-tags", Warning, "comment before or between tags";
    P001, "pdtl-field-count", Error "error (warning for 4–5 fields)", "not exactly 6 fields: an error when fewer than 4 or more than 6, a warning when 4 or 5 (defaults 0 and `?`)";
    P002, "pdtl-placement-syntax", Error, "placement syntax (missing outer `/`, segment without `N:`)";
    P003, "pdtl-line-number", Error, "line number > 28 or leading zero";
    P004, "pdtl-line-repeated", Error, "line listed twice";
    P005, "pdtl-line-order", Warning, "lines not in descending order";
    P006, "pdtl-line-length", Error, "segment describes more or fewer hexes than the line has";
    P007, "pdtl-unknown-piece", Error, "unknown piece character";
    P008, "pdtl-noncanonical-run", Warning, "all-empty segment, digit 0, or adjacent digits";
    P009, "pdtl-king-count", Error, "not exactly one King per side";
    P010, "pdtl-too-many-pieces", Error, "too many pieces of a type, or two Bishops of one side on the same hex colour";
    P011, "pdtl-turn", Error, "turn not `w`/`b`";
    P012, "pdtl-castling-syntax", Error, "castling field syntax";
    P013, "pdtl-castling-inconsistent", Error, "castling field inconsistent with the placement";
    P014, "pdtl-special-syntax", Error, "special-capture field syntax";
    P015, "pdtl-special-inconsistent", Error, "special-capture field inconsistent";
    P016, "pdtl-halfmove-clock", Error "error (warning for `-`)", "halfmove clock not a non-negative integer";
    P017, "pdtl-move-number", Error "error (warning for `-`)", "move number not a positive integer or `?`";
    P018, "pdtl-legacy-castling", Warning, "legacy castling form";
    P019, "pdtl-legacy-special", Warning, "legacy special-capture form";
    N001, "comment-not-at-line-start", Error, "`{` not at the start of its line";
    N002, "text-after-comment", Error, "text after `}` on its line";
    N003, "unclosed-comment", Error, "comment never closed";
    N004, "legacy-comment-marker", Warning, "legacy marker (`{#:`, `{#W:`, `{#B:`, `@N:`)";
    N005, "player-comment-misplaced", Warning, "player comment not directly after its move line (e.g. after a variation)";
    N006, "player-comment-without-move", Warning, "`@W:` without a White half-move / `@B:` without a Black half-move on that line";
    N007, "duplicate-player-comment", Warning, "two `@W:` (or `@B:`) comments for one move line";
    N008, "player-comments-out-of-order", Warning, "`@B:` comment before `@W:` comment";
    N009, "unmarked-move-comment", Hint, "unmarked comment directly after a move line";
    N010, "reference-invalid-hex", Warning, "`~` reference to an invalid hex";
    N011, "reference-unknown-identifier", Warning, "`~` reference with an unknown identifier";
    N012, "reference-bad-bishop-selector", Warning, "bad Bishop colour selector";
    N013, "reference-to-later-move", Error, "reference to a later (not yet played) move";
    N014, "reference-outside-history", Error, "reference to a move not in the line's history / not in the variation";
    N015, "reference-unknown-variation", Error, "unknown, unlabelled-only or not yet closed labelled variation";
    N016, "legacy-reference", Warning, "legacy reference syntax";
    N017, "nag-out-of-range", Warning, "NAG number above 255";
    N018, "labelled-reference-inside-variation", Hint, "labelled reference used inside the same variation";
    N019, "malformed-reference", Warning, "malformed move reference (`#` + digit but not matching the grammar)";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = ();

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Code::ALL.iter().copied().find(|code| code.as_str() == text).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The manual's severity column says what `ctlpgn check` prints: the word of the default
    /// severity first, then at most the other word and when it applies; never the handbook's
    /// letters, which named hints `I` where the command line says `hint`.
    #[test]
    fn the_severity_column_speaks_the_words_check_prints() {
        let words = ["error", "warning", "hint"];
        for &code in Code::ALL {
            let column = code.handbook_severity();
            assert!(column.starts_with(code.default_severity().as_str()), "{code}: {column}");
            let letters = column
                .split(|c: char| !c.is_alphanumeric())
                .filter(|word| ["E", "W", "I"].contains(word))
                .collect::<Vec<_>>();
            assert!(letters.is_empty(), "{code}: {column} names a severity by a letter");
            let named = words.iter().filter(|word| column.contains(*word)).count();
            assert!((1..=2).contains(&named), "{code}: {column}");
        }
    }
}
