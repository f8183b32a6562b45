//! The valid games of the corpus (`testdata/corpus/valid`), embedded at compile time for the
//! unit tests that walk their positions: the core does no IO, not even in its tests, and a
//! missing game fails the test build, naming the file.

/// The games in the order of their numbers.
macro_rules! games {
    ($($number:literal)*) => {
        [$(
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/corpus/valid/g", $number, ".ctl-pgn")),
        )*]
    };
}

/// The 40 valid corpus games, by number (`GAMES[0]` is `g0001`).
pub const GAMES: [&str; 40] = games!(
    "0001" "0002" "0003" "0004" "0005" "0006" "0007" "0008" "0009" "0010"
    "0011" "0012" "0013" "0014" "0015" "0016" "0017" "0018" "0019" "0020"
    "0021" "0022" "0023" "0024" "0025" "0026" "0027" "0028" "0029" "0030"
    "0031" "0032" "0033" "0034" "0035" "0036" "0037" "0038" "0039" "0040"
);
