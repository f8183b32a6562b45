//! What the benchmarks share: the 2,000-record file made of the shared corpus games.

/// The valid games of the shared corpus, repeated until there are `records` of them, one blank
/// line between records.
pub fn corpus_file(records: usize) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/valid");
    let mut games: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the shared corpus is needed at {}: {e}", dir.display()))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ctl-pgn"))
        .collect();
    games.sort();
    let texts: Vec<String> = games.iter().map(|path| std::fs::read_to_string(path).expect("readable")).collect();
    let mut file = String::new();
    for i in 0..records {
        file.push_str(&texts[i % texts.len()]);
        file.push('\n');
    }
    file
}
