//! `ctlpgn-fuzz`: a fuzzer for ctlpgn on stable Rust. `core` mutates corpus records and runs
//! them through the analysis, the quick fixes, the formatter, the conversions and the PDTL;
//! `lsp` drives the real language server in-process with random edit streams and requests;
//! `walk` runs the command line's walk of folders and its writes on trees it makes.
//! All are deterministic for a seed (but for the race `walk` makes on purpose); see
//! `fuzz/README.md`.

mod core_checks;
mod core_mode;
mod finding;
mod lsp_client;
mod lsp_mode;
mod mutate;
mod panics;
mod seeds;
mod supervise;
mod walk_mode;

use std::time::Instant;

use finding::Skip;

const USAGE: &str = "usage: ctlpgn-fuzz (core | lsp | walk) [--seconds N] [--iterations N] [--seed S] [--jobs N] [--skip KIND]... [--keep-going] [--timeout SECONDS] [--in-process]
       ctlpgn-fuzz (core | lsp) --replay FILE
       ctlpgn-fuzz (core | lsp) --minimize FILE";

/// The command line.
#[derive(Clone, Debug)]
pub struct Options {
    pub seconds: Option<f64>,
    pub iterations: Option<u64>,
    pub seed: u64,
    /// Worker processes side by side, each on its own seed stream (one per core, say).
    pub jobs: u64,
    pub skip: Skip,
    /// Go on after a finding; only findings with a new signature are saved and printed.
    pub keep_going: bool,
    /// Signatures already reported (passed to a restarted worker).
    pub known: Vec<String>,
    /// How long a request may take before it is a finding, in seconds.
    pub timeout: f64,
    worker: bool,
    in_process: bool,
    replay: Option<String>,
    minimize: Option<String>,
}

/// The budget of a run: until the time or the number of units is spent.
#[derive(Debug)]
pub struct Budget {
    started: Instant,
    seconds: Option<f64>,
    iterations: Option<u64>,
}

impl Budget {
    pub fn new(options: &Options) -> Budget {
        let iterations = if options.seconds.is_none() && options.iterations.is_none() {
            Some(1000)
        } else {
            options.iterations
        };
        Budget { started: Instant::now(), seconds: options.seconds, iterations }
    }

    pub fn more(&self, units: u64) -> bool {
        self.iterations.is_none_or(|n| units < n)
            && self.seconds.is_none_or(|s| self.started.elapsed().as_secs_f64() < s)
    }

    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

fn parse(arguments: &[String]) -> Result<(String, Options), String> {
    let mut iter = arguments.iter();
    let mode = iter.next().ok_or("say core or lsp")?.clone();
    if !["core", "lsp", "walk"].contains(&mode.as_str()) {
        return Err(format!("unknown mode {mode}"));
    }
    let mut options = Options {
        seconds: None,
        iterations: None,
        seed: 1,
        jobs: 1,
        skip: Skip::default(),
        keep_going: false,
        known: Vec::new(),
        timeout: 10.0,
        worker: false,
        in_process: false,
        replay: None,
        minimize: None,
    };
    while let Some(flag) = iter.next() {
        let mut value = || iter.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seconds" => {
                options.seconds = Some(value()?.parse().map_err(|_| "--seconds takes a number")?)
            }
            "--iterations" => {
                options.iterations =
                    Some(value()?.parse().map_err(|_| "--iterations takes a whole number")?)
            }
            "--seed" => {
                options.seed = value()?.parse().map_err(|_| "--seed takes a whole number")?
            }
            "--jobs" => {
                options.jobs = value()?.parse().map_err(|_| "--jobs takes a whole number")?
            }
            "--skip" => options.skip.kinds.push(value()?),
            "--known" => options.known.push(value()?),
            "--timeout" => {
                options.timeout = value()?.parse().map_err(|_| "--timeout takes a number")?
            }
            "--keep-going" => options.keep_going = true,
            "--worker" => options.worker = true,
            "--in-process" => options.in_process = true,
            "--replay" => options.replay = Some(value()?),
            "--minimize" => options.minimize = Some(value()?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok((mode, options))
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (mode, options) = match parse(&arguments) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("ctlpgn-fuzz: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    panics::install_hook();
    let run = std::panic::catch_unwind(|| run(&mode, &options));
    let status = run.unwrap_or_else(|_| {
        eprintln!("ctlpgn-fuzz: the fuzzer itself {}", panics::last());
        3
    });
    std::process::exit(status);
}

fn run(mode: &str, options: &Options) -> i32 {
    if mode == "walk" {
        // Each case runs the binary: a crash is its status, not the fuzzer's, so no workers.
        return walk_mode::run(options);
    }
    if let Some(path) = &options.replay {
        match mode {
            "core" => core_mode::replay(path, options),
            _ => lsp_mode::replay(path, options),
        }
    } else if let Some(path) = &options.minimize {
        match mode {
            "core" => core_mode::minimize(path, options),
            _ => lsp_mode::minimize(path, options),
        }
    } else if options.worker || options.in_process {
        let reporter = supervise::Reporter::new(options.worker);
        match mode {
            "core" => core_mode::run(options, &reporter),
            _ => lsp_mode::run(options, &reporter),
        }
    } else {
        supervise::supervise(mode, options)
    }
}
