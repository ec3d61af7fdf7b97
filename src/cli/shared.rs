//! What the Python package shares with `solve`: the memory budget (`--memory` and its
//! default) and the reading of a puzzle file within it, so that a call from Python refuses
//! what `solve` refuses, with the same limit and the same words.

use std::string::FromUtf8Error;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use boardsolve::engine::StopReason;
use boardsolve::spec::{Overrides, Spec, SpecError};

use super::input::{OpenFault, open_input};
use super::{args, load, memory};

/// The least budget `--memory` (and the Python package's `memory`) takes, in bytes.
pub const MIN_MEMORY: u64 = memory::MIN_BUDGET;

/// A size as `--memory` takes it ("4G", "512M", "100000000"), or what is accepted.
pub fn memory_size(s: &str) -> Result<u64, String> {
    args::memory_size(s)
}

/// A run's memory budget: what was asked, capped at 3/4 of what the system gives the
/// process, or without a request that share.
pub struct Budget(memory::Budget);

impl Budget {
    /// The budget of a run that asked for `asked` bytes (`None`: the default), with the note
    /// `solve` writes where the system gives less than was asked.
    pub fn new(asked: Option<u64>) -> (Budget, Option<String>) {
        let (b, note) = memory::budget_noted(asked);
        (Budget(b), note)
    }

    /// The budget in bytes; `None` where no limit could be found (not Linux).
    pub fn bytes(&self) -> Option<u64> {
        self.0.bytes
    }

    /// How to give a job of `need` bytes room, as a refusal of `solve` ends.
    pub fn advice(&self, need: u64) -> String {
        self.0.advice(need)
    }
}

/// Why a puzzle file was not read.
#[derive(Debug)]
pub enum ReadFault {
    /// It could not be opened (or is a directory).
    Open(std::io::Error),
    /// Its text is not UTF-8: the message, and the line and column of the first byte that is
    /// not.
    NotUtf8 {
        message: String,
        line: usize,
        column: usize,
    },
    /// Reading it failed, passed the budget, the deadline, or was stopped: the message.
    Refused(String),
}

/// The text of the puzzle file at `path`, read as `solve FILE` reads it: within the budget
/// (what reading takes, estimated from the file's size and its first MiB, is checked before
/// the rest is read; a stream that does not end stops at the budget), by `time_limit`
/// seconds (a limit out of range is none: the caller refuses it), and until `stop` is set.
pub fn read_puzzle(
    path: &str,
    knuth: bool,
    budget: &Budget,
    time_limit: Option<f64>,
    stop: Option<&AtomicBool>,
) -> Result<String, ReadFault> {
    let time_limit = time_limit.filter(|t| t.is_finite() && *t > 0.0 && *t < 1e9);
    let deadline = time_limit.and_then(|t| Instant::now().checked_add(Duration::from_secs_f64(t)));
    let expired = || {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(StopReason::Interrupted)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Time)
        } else {
            None
        }
    };
    // A fifo is waited on, not opened blocking, so that the deadline and `stop` hold there too.
    let f = match open_input(path, &expired) {
        Ok(f) => f,
        Err(OpenFault::Io(e)) => return Err(ReadFault::Open(e)),
        Err(OpenFault::Stopped(r)) => {
            return Err(ReadFault::Refused(load::stopped(
                path, r, time_limit, 0, None,
            )));
        }
    };
    let meta = f.file.metadata().map_err(ReadFault::Open)?;
    if meta.is_dir() {
        return Err(ReadFault::Open(std::io::Error::from_raw_os_error(
            libc::EISDIR,
        )));
    }
    let size = f.regular.then_some(meta.len());
    let bytes = load::read_bytes(
        path,
        (Box::new(f.file), size),
        knuth,
        &budget.0,
        time_limit,
        &expired,
    )
    .map_err(ReadFault::Refused)?;
    let text = String::from_utf8(bytes).map_err(|e: FromUtf8Error| {
        let (line, column) = load::utf8_place(&e);
        ReadFault::NotUtf8 {
            message: load::not_utf8(path, &e),
            line,
            column,
        }
    })?;
    load::check_text(path, &text, knuth, &budget.0).map_err(ReadFault::Refused)?;
    Ok(text)
}

/// Knuth's format read within the budget, as `solve` reads a `.dlx`, `.xcc` or `.mcc` file.
pub fn parse_knuth(
    name: &str,
    text: &str,
    overrides: &Overrides,
    budget: &Budget,
) -> Result<Spec, SpecError> {
    let advice = |need: u64| budget.advice(need);
    let within = budget
        .bytes()
        .map(|b| (b, &advice as &dyn Fn(u64) -> String));
    Spec::parse_knuth_within(name, text, overrides, within, None)
}

/// A puzzle's text given whole (not read from a file) checked against the budget, as `solve`
/// checks a file's before reading it as TOML; Knuth's format is checked as it is read.
pub fn check_text(name: &str, text: &str, knuth: bool, budget: &Budget) -> Result<(), String> {
    load::check_text(name, text, knuth, &budget.0)
}
