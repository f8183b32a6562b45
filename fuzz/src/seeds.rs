//! The inputs mutations start from: the records of the repository's corpus, handbook examples
//! and example games, each cut into small pieces (a record's tags and its first move lines) so
//! that a second of fuzzing covers thousands of inputs; and the words and lines they are made
//! of, for the mutations that insert a token of the format.

use std::path::{Path, PathBuf};

use ctlpgn_test_support::rng::Rng;

/// The largest input kept, in bytes: small inputs make many inputs a second.
pub const MAX_INPUT: usize = 4096;

/// The folders seeds are read from, relative to the repository root.
const FOLDERS: [&str; 4] =
    ["testdata/corpus/valid", "testdata/corpus/incoherent", "testdata/examples", "examples"];

/// What the mutations draw from.
#[derive(Debug, Default)]
pub struct Seeds {
    /// Whole inputs to start from.
    pub inputs: Vec<String>,
    /// Lines of the seeds, line ending included.
    pub lines: Vec<String>,
    /// Whitespace-separated words of the seeds.
    pub words: Vec<String>,
}

/// The repository root: the fuzzer's crate lives in `fuzz/`.
pub fn repository_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

impl Seeds {
    /// The seeds, or `None` after saying on standard error why they cannot be read (both
    /// modes then end with status 2).
    pub fn load_or_say() -> Option<Seeds> {
        Seeds::load().map_err(|message| eprintln!("ctlpgn-fuzz: {message}")).ok()
    }

    /// Reads every `.ctl-pgn` file of the seed folders and cuts their records into pieces.
    pub fn load() -> Result<Seeds, String> {
        let root = repository_root();
        let mut seeds = Seeds::default();
        let mut rng = Rng::new(0x5eed);
        for folder in FOLDERS {
            let dir = root.join(folder);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map_err(|error| format!("{}: {error}", dir.display()))?
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.to_string_lossy().ends_with(".ctl-pgn"))
                .collect();
            files.sort();
            for path in files {
                let text = std::fs::read_to_string(&path)
                    .map_err(|error| format!("{}: {error}", path.display()))?;
                seeds.add_file(&text, &mut rng);
            }
        }
        if seeds.inputs.is_empty() {
            return Err("no seed file found".to_string());
        }
        seeds.lines.sort();
        seeds.lines.dedup();
        seeds.words.sort();
        seeds.words.dedup();
        Ok(seeds)
    }

    fn add_file(&mut self, text: &str, rng: &mut Rng) {
        for line in text.split_inclusive('\n') {
            if line.len() < 200 {
                self.lines.push(line.to_string());
            }
        }
        self.words.extend(text.split_whitespace().filter(|w| w.len() < 40).map(str::to_string));
        for range in ctlpgn_core::syntax::split_records(text) {
            let record = &text[range];
            if record.len() <= MAX_INPUT / 2 {
                self.inputs.push(record.to_string());
            }
            // Pieces: the tags and the first move lines, with and without a result line.
            let lines: Vec<&str> = record.split_inclusive('\n').collect();
            for _ in 0..3 {
                let mut piece = String::new();
                let keep = rng.between(1, lines.len().max(1));
                for line in &lines[..keep.min(lines.len())] {
                    if piece.len() + line.len() > MAX_INPUT / 2 {
                        break;
                    }
                    piece.push_str(line);
                }
                if rng.one_in(2) {
                    let end: &&str = rng.pick(&["*\n", ":\n*\n", "\n3-0\n", "\n"]);
                    piece.push_str(end);
                }
                self.inputs.push(piece);
            }
        }
    }
}
