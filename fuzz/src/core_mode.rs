//! `core` mode: mutated records through the core's checks, a panic caught and reported like
//! any other broken promise; `--replay` runs the checks on one saved input, `--minimize`
//! shrinks a saved input while the same kind of finding stays.

use ctlpgn_test_support::rng::Rng;
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::core_checks::check;
use crate::finding::{save, signature, Finding, Skip};
use crate::mutate::mutate;
use crate::seeds::Seeds;
use crate::supervise::Reporter;
use crate::{panics, Budget, Options};

/// At most this many inputs that found a new set of codes are kept to mutate further.
const POOL: usize = 4000;

/// The checks on one input, a panic included.
pub fn run_checks(text: &str, skip: &Skip) -> Result<u64, Finding> {
    match catch_unwind(AssertUnwindSafe(|| check(text, skip))) {
        Ok(result) => result,
        Err(_) => Err(Finding { kind: "panic", message: panics::last() }),
    }
}

pub fn run(options: &Options, reporter: &Reporter) -> i32 {
    let Some(seeds) = Seeds::load_or_say() else { return 2 };
    let budget = Budget::new(options);
    let mut rng = Rng::new(options.seed);
    let mut pool: Vec<String> = Vec::new();
    let mut reached: HashSet<u64> = HashSet::new();
    let mut known: HashSet<String> = options.known.iter().cloned().collect();
    let (mut inputs, mut findings) = (0u64, 0u64);
    while budget.more(inputs) {
        let input = mutate(&mut rng, &seeds, &pool);
        reporter.begin(input.as_bytes());
        match run_checks(&input, &options.skip) {
            Ok(codes) => {
                if reached.insert(codes) && pool.len() < POOL {
                    pool.push(input);
                }
            }
            Err(finding) => {
                let found = signature(&finding);
                if known.insert(found.clone()) {
                    findings += 1;
                    let path = save("core", finding.kind, input.as_bytes(), &finding.message);
                    eprintln!(
                        "FINDING {}: {}\n  input saved to {}",
                        finding.kind,
                        shorten(&finding.message),
                        path.display()
                    );
                    reporter.found(&found);
                    if !options.keep_going {
                        inputs += 1;
                        break;
                    }
                }
            }
        }
        inputs += 1;
        if inputs % 32 == 0 {
            reporter.progress(inputs, inputs);
        }
    }
    reporter.progress(inputs, inputs);
    reporter.done();
    if !reporter.is_supervised() {
        println!(
            "{inputs} inputs, {findings} findings in {:.1} s ({:.0} inputs/s)",
            budget.elapsed(),
            inputs as f64 / budget.elapsed().max(1e-9)
        );
    }
    i32::from(findings > 0)
}

/// A long message cut for the terminal (the saved `.txt` has all of it).
pub fn shorten(message: &str) -> String {
    if message.len() <= 1500 {
        return message.to_string();
    }
    let mut cut = 1500;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", &message[..cut])
}

fn read(path: &str) -> Result<String, i32> {
    std::fs::read(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()).map_err(|error| {
        eprintln!("ctlpgn-fuzz: {path}: {error}");
        2
    })
}

/// Runs the checks on a saved input and prints what fails.
pub fn replay(path: &str, options: &Options) -> i32 {
    let text = match read(path) {
        Ok(text) => text,
        Err(status) => return status,
    };
    match run_checks(&text, &options.skip) {
        Ok(_) => {
            println!("1 inputs, 0 findings");
            0
        }
        Err(finding) => {
            println!("FINDING {}: {}", finding.kind, finding.message);
            println!("1 inputs, 1 findings");
            1
        }
    }
}

/// Shrinks a saved input while its finding keeps its signature (kind and first line): lines, then characters, removed
/// in chunks of halving size; prints the smallest input and saves it beside the findings.
pub fn minimize(path: &str, options: &Options) -> i32 {
    let text = match read(path) {
        Ok(text) => text,
        Err(status) => return status,
    };
    let Err(original) = run_checks(&text, &options.skip) else {
        println!("the input passes every check: nothing to minimize");
        return 0;
    };
    let same = |candidate: &str| matches!(run_checks(candidate, &options.skip), Err(finding) if signature(&finding) == signature(&original));
    let mut units: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    for by_chars in [false, true] {
        if by_chars {
            units = units.concat().chars().map(String::from).collect();
        }
        let mut chunk = units.len().div_ceil(2).max(1);
        loop {
            let mut at = 0;
            while at < units.len() {
                let end = (at + chunk).min(units.len());
                let candidate: String =
                    units[..at].iter().chain(&units[end..]).map(String::as_str).collect();
                if same(&candidate) {
                    units.drain(at..end);
                } else {
                    at = end;
                }
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    let smallest = units.concat();
    let finding = run_checks(&smallest, &options.skip).err().unwrap_or(original);
    let saved = save("core", finding.kind, smallest.as_bytes(), &finding.message);
    println!(
        "{smallest:?}\n{}: {}\nsaved to {}",
        finding.kind,
        shorten(&finding.message),
        saved.display()
    );
    1
}
