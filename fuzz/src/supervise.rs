//! A supervisor around the worker process. A stack overflow or an abort cannot be caught
//! inside the process, and a hang never returns, so the fuzzing itself runs in a child process
//! that tells its parent, before each case, what the case is; when the child dies or goes
//! quiet, the parent saves that case as a finding (and in `--keep-going` runs starts a new
//! child with the rest of the budget).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::finding::{save, signature, Finding};
use crate::Options;

/// What a worker tells its parent, framed as a tag byte, a little-endian `u32` length and the
/// payload.
const BEGIN: u8 = b'B';
const APPEND: u8 = b'A';
const PROGRESS: u8 = b'P';
const FOUND: u8 = b'F';
const DONE: u8 = b'D';

/// The worker's side: writes frames to standard output, or nothing when there is no parent.
#[derive(Debug)]
pub struct Reporter {
    supervised: bool,
}

impl Reporter {
    pub fn new(supervised: bool) -> Reporter {
        Reporter { supervised }
    }

    pub fn is_supervised(&self) -> bool {
        self.supervised
    }

    fn frame(&self, tag: u8, payload: &[u8]) {
        if !self.supervised {
            return;
        }
        let mut out = std::io::stdout().lock();
        let length = u32::try_from(payload.len()).unwrap_or(u32::MAX).to_le_bytes();
        let _ = out.write_all(&[tag]);
        let _ = out.write_all(&length);
        let _ = out.write_all(payload);
        let _ = out.flush();
    }

    /// A new case starts: `bytes` is all of it so far.
    pub fn begin(&self, bytes: &[u8]) {
        self.frame(BEGIN, bytes);
    }

    /// More of the current case (the next step of an edit stream).
    pub fn append(&self, bytes: &[u8]) {
        self.frame(APPEND, bytes);
    }

    /// Units done so far (inputs or edits) and cases.
    pub fn progress(&self, units: u64, cases: u64) {
        let mut payload = units.to_le_bytes().to_vec();
        payload.extend(cases.to_le_bytes());
        self.frame(PROGRESS, &payload);
    }

    /// A finding the worker saved and printed itself.
    pub fn found(&self, signature: &str) {
        self.frame(FOUND, signature.as_bytes());
    }

    pub fn done(&self) {
        self.frame(DONE, &[]);
    }
}

enum Message {
    Frame(u8, Vec<u8>),
    Closed,
}

fn read_frames(mut input: impl Read, sender: mpsc::Sender<Message>) {
    loop {
        let mut head = [0u8; 5];
        if input.read_exact(&mut head).is_err() {
            break;
        }
        let length = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let mut payload = vec![0; length];
        if input.read_exact(&mut payload).is_err() {
            break;
        }
        if sender.send(Message::Frame(head[0], payload)).is_err() {
            return;
        }
    }
    let _ = sender.send(Message::Closed);
}

/// What a job's workers did.
#[derive(Debug, Default)]
struct Outcome {
    units: u64,
    cases: u64,
    /// Every finding's signature, repeated when found again after a restart.
    findings: Vec<String>,
    distinct: Vec<String>,
    /// The status to exit with when a worker could not even start.
    failed: Option<i32>,
}

/// The seed of job `job` of a `--jobs` run: far apart streams, the first the run's own seed,
/// so that `--jobs 1` is the run without the option.
fn job_seed(seed: u64, job: u64) -> u64 {
    seed.wrapping_add(job.wrapping_mul(0x5851_F42D_4C95_7F2D))
}

/// Runs `--jobs` supervisors side by side, each on its own seed stream with its share of the
/// iterations (and all the time); prints the merged summary and returns the exit status.
pub fn supervise(mode: &str, options: &Options) -> i32 {
    let started = Instant::now();
    let jobs = options.jobs.max(1);
    let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|job| {
                let mut share = options.clone();
                share.seed = job_seed(options.seed, job);
                share.iterations = options.iterations.map(|n| n / jobs + u64::from(job < n % jobs));
                scope.spawn(move || supervise_job(mode, &share))
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a supervisor thread")).collect()
    });
    if let Some(status) = outcomes.iter().find_map(|outcome| outcome.failed) {
        return status;
    }
    let units: u64 = outcomes.iter().map(|outcome| outcome.units).sum();
    let cases: u64 = outcomes.iter().map(|outcome| outcome.cases).sum();
    let findings: usize = outcomes.iter().map(|outcome| outcome.findings.len()).sum();
    let mut distinct: Vec<&String> =
        outcomes.iter().flat_map(|outcome| &outcome.distinct).collect();
    distinct.sort();
    distinct.dedup();
    let unit = if mode == "lsp" { "edits" } else { "inputs" };
    let extra = if mode == "lsp" { format!(" in {cases} streams") } else { String::new() };
    let jobs_said = if jobs > 1 { format!(", {jobs} jobs") } else { String::new() };
    println!(
        "{units} {unit}{extra}, {findings} findings ({} distinct) in {:.1} s, seed {}{jobs_said}",
        distinct.len(),
        started.elapsed().as_secs_f64(),
        options.seed
    );
    for found in &distinct {
        println!("  {found}");
    }
    i32::from(findings > 0)
}

/// Runs workers until the job's budget is spent (or the first finding without
/// `--keep-going`).
fn supervise_job(mode: &str, options: &Options) -> Outcome {
    let started = Instant::now();
    let mut units_total = 0u64;
    let mut cases_total = 0u64;
    let mut findings: Vec<String> = Vec::new();
    let mut distinct: Vec<String> = Vec::new();
    let mut restart = 0u64;
    loop {
        let elapsed = started.elapsed().as_secs_f64();
        let seconds_left = options.seconds.map(|seconds| seconds - elapsed);
        let iterations_left = options.iterations.map(|n| n.saturating_sub(units_total));
        if seconds_left.is_some_and(|s| s <= 0.0) || iterations_left == Some(0) {
            break;
        }
        let seed = options.seed.wrapping_add(restart.wrapping_mul(0x9E37_79B9));
        let mut command = Command::new(std::env::current_exe().expect("the fuzzer's own path"));
        command.arg(mode).arg("--worker").arg("--seed").arg(seed.to_string());
        if let Some(seconds) = seconds_left {
            command.arg("--seconds").arg(format!("{seconds:.3}"));
        }
        if let Some(iterations) = iterations_left {
            command.arg("--iterations").arg(iterations.to_string());
        }
        for kind in &options.skip.kinds {
            command.arg("--skip").arg(kind);
        }
        if options.keep_going {
            command.arg("--keep-going");
        }
        for known in &distinct {
            command.arg("--known").arg(known);
        }
        command.arg("--timeout").arg(options.timeout.to_string());
        let mut child = match command.stdout(Stdio::piped()).stdin(Stdio::null()).spawn() {
            Ok(child) => child,
            Err(error) => {
                eprintln!("ctlpgn-fuzz: cannot start a worker: {error}");
                return Outcome { failed: Some(2), ..Outcome::default() };
            }
        };
        let (sender, receiver) = mpsc::channel();
        let stdout = child.stdout.take().expect("a piped output");
        let reader = std::thread::spawn(move || read_frames(stdout, sender));
        let mut case: Vec<u8> = Vec::new();
        let (mut units, mut cases) = (0u64, 0u64);
        let mut done = false;
        let mut hung = false;
        // A hang is a case that shows no progress for this long; the worker's own timeouts
        // (per request) are shorter, so that it reports them itself.
        let quiet_limit = Duration::from_secs_f64(options.timeout * 3.0 + 10.0);
        loop {
            match receiver.recv_timeout(quiet_limit) {
                Ok(Message::Frame(BEGIN, payload)) => case = payload,
                Ok(Message::Frame(APPEND, payload)) => case.extend(payload),
                Ok(Message::Frame(PROGRESS, payload)) if payload.len() == 16 => {
                    units = u64::from_le_bytes(payload[..8].try_into().expect("8 bytes"));
                    cases = u64::from_le_bytes(payload[8..].try_into().expect("8 bytes"));
                }
                Ok(Message::Frame(FOUND, payload)) => {
                    let found = String::from_utf8_lossy(&payload).into_owned();
                    if !distinct.contains(&found) {
                        distinct.push(found.clone());
                    }
                    findings.push(found);
                }
                Ok(Message::Frame(DONE, _)) => done = true,
                Ok(Message::Frame(..)) => {}
                Ok(Message::Closed) => break,
                Err(_) => {
                    hung = true;
                    let _ = child.kill();
                    break;
                }
            }
        }
        let status = child.wait();
        let _ = reader.join();
        units_total += units;
        cases_total += cases;
        if !done {
            let finding = Finding {
                kind: if hung { "hang" } else { "crash" },
                message: if hung {
                    format!("no progress for {} s", quiet_limit.as_secs())
                } else {
                    format!(
                        "the worker died ({}) on this case: a stack overflow or an abort",
                        status.map_or("unknown".to_string(), |s| s.to_string())
                    )
                },
            };
            let path = save(mode, finding.kind, &case, &finding.message);
            eprintln!(
                "FINDING {}: {}\n  input saved to {}",
                finding.kind,
                finding.message,
                path.display()
            );
            let found = signature(&finding);
            if !distinct.contains(&found) {
                distinct.push(found.clone());
            }
            findings.push(found);
            if !options.keep_going {
                break;
            }
            restart += 1;
            continue;
        }
        break;
    }
    Outcome { units: units_total, cases: cases_total, findings, distinct, failed: None }
}
