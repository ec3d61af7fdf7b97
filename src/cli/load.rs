//! From a file name and flags to a compiled puzzle and its task.

use std::io::Read;
use std::path::Path;
use std::string::FromUtf8Error;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use boardsolve::engine::{Clock, Goal, StopReason, TICK, Task};
use boardsolve::kinds::Model;
use boardsolve::render::{self, Header};
use boardsolve::spec::options::{InputFormat, run_option};
use boardsolve::spec::{Overrides, SolveOverrides, Spec};

use super::args::{Common, parse_memory, parse_parts};
use super::input::{OpenFault, open_input};
use super::memory::{self, Budget};

/// File extensions read in Knuth's format without `--input knuth`: DLX1's `.dlx`, and the
/// `.xcc` (colours) and `.mcc` (multiplicities and colours) of his later programs.
const KNUTH_EXTENSIONS: [&str; 3] = ["dlx", "xcc", "mcc"];

/// Whether `file` is read in Knuth's format.
pub(crate) fn reads_knuth(file: &str, common: &Common) -> bool {
    match common.input {
        Some(input) => input == InputFormat::Knuth,
        None => Path::new(file)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| KNUTH_EXTENSIONS.iter().any(|k| e.eq_ignore_ascii_case(k))),
    }
}

/// Bytes read at a time; the first ones also estimate what reading the whole file takes.
const CHUNK: usize = 1 << 20;

/// What the TOML reader takes: twice the text (the text, and the document as read), and per
/// value (a string or number, counted by its quotes or the commas between values) its node in
/// the parsed document and its place in the puzzle. Measured: `/usr/bin/time -v solve check`
/// on covers of 200,000 to 2,000,000 item names of 3 and 12 characters peaks at twice the
/// text and 352 bytes a name, above the process's own 5 MiB; 384 leaves a margin.
const TOML_TEXT_FACTOR: u64 = 2;
const TOML_VALUE_BYTES: u64 = 384;

/// What reading a TOML file of `file_bytes` bytes takes, estimated from its first bytes,
/// `sample`: the bytes, and what they are for in words.
fn toml_reading_estimate(sample: &[u8], file_bytes: u64) -> (u64, String) {
    let quotes = sample.iter().filter(|&&b| b == b'"' || b == b'\'').count() as u64;
    let commas = sample.iter().filter(|&&b| b == b',').count() as u64;
    let values =
        (quotes / 2).max(commas) as u128 * file_bytes as u128 / sample.len().max(1) as u128;
    let values = values.min(u64::MAX as u128) as u64;
    let bytes = file_bytes
        .saturating_mul(TOML_TEXT_FACTOR)
        .saturating_add(values.saturating_mul(TOML_VALUE_BYTES));
    let what = format!(
        "the text, and about {} values as parsed",
        render::group(values as u128)
    );
    (bytes, what)
}

/// The text of a puzzle file, or of standard input (`-`), read within the memory budget and
/// by the deadline (`--time-limit`), and checked to be UTF-8. What reading a file takes,
/// estimated from its size and its first MiB, is checked against the budget before the rest
/// is read.
fn read_input(
    file: &str,
    knuth: bool,
    budget: &Budget,
    deadline: Option<Instant>,
    time_limit: Option<f64>,
) -> Result<String, String> {
    let name = if file == "-" { "<stdin>" } else { file };
    let (source, size): (Box<dyn Read + Send>, Option<u64>) = if file == "-" {
        (Box::new(std::io::stdin()), None)
    } else {
        let f = match open_input(file, &|| reading_stop(deadline, true)) {
            Ok(f) => f,
            Err(OpenFault::Io(e)) => return Err(format!("{file}: cannot read the puzzle: {e}")),
            Err(OpenFault::Stopped(r)) => return Err(stopped(name, r, time_limit, 0, None)),
        };
        let size = match f.regular {
            true => f.file.metadata().ok().map(|m| m.len()),
            false => None,
        };
        (Box::new(f.file), size)
    };
    // Input that may wait on another program (standard input, a fifo) stops on Ctrl-C too;
    // a regular file reads without the interrupt's handler, which starts a thread.
    let interruptible = size.is_none();
    let text = read_bytes(name, (source, size), knuth, budget, time_limit, &|| {
        reading_stop(deadline, interruptible)
    })?;
    let text = String::from_utf8(text).map_err(|e| not_utf8(name, &e))?;
    check_text(name, &text, knuth, budget)?;
    Ok(text)
}

/// A refusal of reading `name` for the memory budget: `what` it would take, and how to give
/// it room.
fn refuse(name: &str, budget: &Budget, need: u64, what: String, b: u64) -> String {
    format!(
        "{name}: {what}, more than the memory budget of {} (--memory); {}",
        render::bytes(b),
        budget.advice(need)
    )
}

/// The bytes of `source` (named `name` in errors; a regular file of `size` bytes, or a
/// stream), read within the memory budget until `expired` says why to stop (the time limit
/// of `time_limit` seconds, an interrupt): [`read_input`] before the text is checked.
pub(crate) fn read_bytes(
    name: &str,
    (source, size): (Box<dyn Read + Send>, Option<u64>),
    knuth: bool,
    budget: &Budget,
    time_limit: Option<f64>,
    expired: &dyn Fn() -> Option<StopReason>,
) -> Result<Vec<u8>, String> {
    let refuse = |need: u64, what: String, b: u64| refuse(name, budget, need, what, b);
    let no_memory = |held: usize| {
        format!(
            "{name}: the system gave no more memory after {} of the file; accepted: a memory \
             budget (--memory) that the system can give",
            render::bytes(held as u64)
        )
    };
    let mut text: Vec<u8> = Vec::new();
    let mut chunks = Chunks::new(source, size.is_some());
    let mut estimated = false;
    loop {
        let late = |r| Err(stopped(name, r, time_limit, text.len(), size));
        let chunk = match chunks.next(expired) {
            Ok(Ok(chunk)) => chunk,
            Ok(Err(e)) => return Err(format!("{name}: cannot read the puzzle: {e}")),
            Err(r) => return late(r),
        };
        if let Some(r) = expired() {
            return late(r);
        }
        let end = chunk.is_empty();
        text.try_reserve(chunk.len())
            .map_err(|_| no_memory(text.len()))?;
        text.extend_from_slice(&chunk);
        if !estimated && (text.len() >= CHUNK || end) {
            estimated = true;
            if let (Some(size), Some(b)) = (size, budget.bytes) {
                let (need, what) = if knuth {
                    Spec::knuth_reading_estimate(&text, size)
                } else {
                    toml_reading_estimate(&text, size)
                };
                if need > b {
                    let from = if end {
                        ""
                    } else {
                        ", estimated from its first MiB"
                    };
                    return Err(refuse(
                        need,
                        format!(
                            "the file is {}; reading it would take about {} ({what}{from})",
                            render::bytes(size),
                            render::bytes(need)
                        ),
                        b,
                    ));
                }
            }
            // The rest of the file at once: a text grown by doubling would take up to twice it.
            if let Some(size) = size {
                let rest = usize::try_from(size).unwrap_or(usize::MAX);
                text.try_reserve_exact(rest.saturating_sub(text.len()))
                    .map_err(|_| no_memory(text.len()))?;
            }
        }
        if let Some(b) = budget.bytes
            && text.len() as u64 > b
        {
            return Err(refuse(
                text.len() as u64,
                format!(
                    "reading stopped after {} of text (reading takes at least the text)",
                    render::bytes(text.len() as u64)
                ),
                b,
            ));
        }
        if end {
            break;
        }
    }
    Ok(text)
}

/// A text read whole, checked against the budget: a TOML file is read in one step that
/// cannot stop midway, so what it takes is checked on the whole text first (Knuth's format
/// is checked as it is read).
pub(crate) fn check_text(
    name: &str,
    text: &str,
    knuth: bool,
    budget: &Budget,
) -> Result<(), String> {
    if let Some(b) = budget.bytes
        && !knuth
    {
        let (need, what) = toml_reading_estimate(text.as_bytes(), text.len() as u64);
        if need > b {
            return Err(refuse(
                name,
                budget,
                need,
                format!(
                    "reading this text of {} would take about {} ({what})",
                    render::bytes(text.len() as u64),
                    render::bytes(need)
                ),
                b,
            ));
        }
    }
    Ok(())
}

/// The chunks of a file, an empty one at its end: a regular file's read on the spot; any
/// other (standard input, a pipe) by a thread, while the reader waits with the deadline in
/// view, so that input that never ends stops at the time limit too. A regular file takes no
/// thread (and reading starts none, no clock's either): under `ulimit -v` each thread's own
/// heap reserves 64 MiB of address space, which a large file then lacks.
enum Chunks {
    File(Box<dyn Read + Send>),
    Thread(mpsc::Receiver<std::io::Result<Vec<u8>>>),
}

impl Chunks {
    fn new(source: Box<dyn Read + Send>, regular: bool) -> Chunks {
        if regular {
            return Chunks::File(source);
        }
        let (tx, rx) = mpsc::sync_channel(2);
        let mut source = source;
        // Where no thread starts, the sender is dropped with the closure and the receiver
        // says so.
        let _ = std::thread::Builder::new()
            .name("boardsolve-read".into())
            .spawn(move || {
                loop {
                    let read = chunk_of(&mut source);
                    let end = !matches!(&read, Ok(c) if !c.is_empty());
                    if tx.send(read).is_err() || end {
                        return;
                    }
                }
            });
        Chunks::Thread(rx)
    }

    /// The next chunk, or the file's error; `Err` where `expired` stopped the wait for it.
    fn next(
        &mut self,
        expired: &dyn Fn() -> Option<StopReason>,
    ) -> Result<std::io::Result<Vec<u8>>, StopReason> {
        match self {
            Chunks::File(source) => Ok(chunk_of(source)),
            Chunks::Thread(rx) => loop {
                match rx.recv_timeout(TICK) {
                    Ok(read) => return Ok(read),
                    Err(RecvTimeoutError::Disconnected) => {
                        return Ok(Err(std::io::Error::other(
                            "its reading thread could not start",
                        )));
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if let Some(r) = expired() {
                            return Err(r);
                        }
                    }
                }
            },
        }
    }
}

/// Up to [`CHUNK`] bytes of `source`; none at its end.
fn chunk_of(source: &mut Box<dyn Read + Send>) -> std::io::Result<Vec<u8>> {
    let mut chunk = Vec::new();
    chunk
        .try_reserve_exact(CHUNK)
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
    source.take(CHUNK as u64).read_to_end(&mut chunk)?;
    Ok(chunk)
}

/// Why reading must stop now, if it must: the deadline passed, or (where `interruptible`)
/// Ctrl-C, SIGTERM or SIGHUP came. Asking installs the interrupt's handler.
fn reading_stop(deadline: Option<Instant>, interruptible: bool) -> Option<StopReason> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Some(StopReason::Time);
    }
    let flag = interruptible.then(super::clock::interrupt_flag)?;
    flag.load(Ordering::Relaxed)
        .then_some(StopReason::Interrupted)
}

/// The error of a reading that the time limit or an interrupt (`why`) stopped with `read`
/// bytes read of `size`.
pub(crate) fn stopped(
    name: &str,
    why: StopReason,
    time_limit: Option<f64>,
    read: usize,
    size: Option<u64>,
) -> String {
    let share = match size {
        Some(s) if s > 0 => format!(" ({:.0}% of the file)", read as f64 / s as f64 * 100.0),
        _ => String::new(),
    };
    let read = render::bytes(read as u64);
    if why == StopReason::Interrupted {
        return format!(
            "{name}: reading stopped by an interrupt (Ctrl-C, SIGTERM or SIGHUP), {read} \
             read{share}; nothing was solved (exit status 2)"
        );
    }
    let limit = time_limit.map_or(String::new(), |t| format!(" of {t} s"));
    format!(
        "{name}: key `--time-limit`: reading stopped at the time limit{limit}, {read} \
         read{share}; nothing was solved (exit status 2); accepted: a time limit that leaves \
         time to read the file"
    )
}

/// The error of a text that is not UTF-8: the line and column of its first byte that is not.
pub(crate) fn not_utf8(name: &str, e: &FromUtf8Error) -> String {
    let (line, column) = utf8_place(e);
    format!(
        "{name}:{line}:{column}: byte 0x{:02X} is not UTF-8; accepted: a puzzle file in UTF-8 \
         text",
        e.as_bytes()[e.utf8_error().valid_up_to()]
    )
}

/// The line and column (from 1) of the first byte that is not UTF-8.
pub(crate) fn utf8_place(e: &FromUtf8Error) -> (usize, usize) {
    let bytes = e.as_bytes();
    let at = e.utf8_error().valid_up_to();
    let before = &bytes[..at];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    // The bytes before it on its line are valid UTF-8: its column counts their characters.
    let column = std::str::from_utf8(&before[line_start..])
        .map_or(at - line_start, |s| s.chars().count())
        + 1;
    (line, column)
}

/// `--time-limit` where it is a limit at all: checked with the file's keys later, and an
/// invalid one refused there.
fn time_flag(common: &Common) -> Option<f64> {
    common
        .time_limit
        .filter(|t| t.is_finite() && *t > 0.0 && *t < 1e9)
}

/// When reading must end: `--time-limit` from now (the start of a solve, or of a part that
/// `solve merge` runs again). A limit set in a TOML file is known once the file is read.
fn reading_deadline(common: &Common) -> Option<Instant> {
    time_flag(common).and_then(|t| Instant::now().checked_add(Duration::from_secs_f64(t)))
}

/// A puzzle file read, validated and compiled, with the task the options ask for.
pub(crate) struct Loaded {
    pub(crate) spec: Spec,
    pub(crate) model: Model,
    pub(crate) task: Task,
    pub(crate) strategy: String,
    /// What the command line changed (`--size`, `--width`, `--height`, `--set`): the file's
    /// title may name another size or rule, so the header says which.
    pub(crate) changes: Vec<String>,
    /// The strategy was named by `--strategy`, not by the file's `solve.strategy`.
    pub(crate) strategy_flag: bool,
    /// The time limit, from the moment the file was read: building the model, the search
    /// and writing the answer all count.
    pub(crate) clock: Clock,
}

/// Whether the puzzle takes board size `size`, by the file's checks alone (nothing compiled,
/// nothing allocated for the board). Standard input, read once already, is not checked.
pub(crate) fn check_size(file: &str, common: &Common, size: usize) -> Result<(), String> {
    if file == "-" {
        return Ok(());
    }
    let budget = run_budget(common)?;
    let knuth = reads_knuth(file, common);
    let text = read_input(file, knuth, &budget, None, None)?;
    let overrides = Overrides {
        set: common.set.clone(),
        size: Some(size),
        width: common.width,
        height: common.height,
        solve: SolveOverrides::default(),
    };
    parse(file, &text, common, &overrides, &budget, None)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The memory budget of a run: `--memory`, capped at what the system gives.
fn run_budget(common: &Common) -> Result<Budget, String> {
    let asked = common.memory.as_deref().map(parse_memory).transpose()?;
    Ok(memory::budget(asked))
}

/// The file read in its format: TOML, or Knuth's exact-cover format (`--input knuth`, or a
/// file named *.dlx, *.xcc or *.mcc), the latter within the budget and by the deadline.
fn parse(
    file: &str,
    text: &str,
    common: &Common,
    overrides: &Overrides,
    budget: &Budget,
    deadline: Option<Instant>,
) -> Result<Spec, boardsolve::spec::SpecError> {
    let name = if file == "-" { "<stdin>" } else { file };
    if reads_knuth(file, common) {
        let advice = |need: u64| budget.advice(need);
        let within = budget.bytes.map(|b| (b, &advice as &dyn Fn(u64) -> String));
        Spec::parse_knuth_within(name, text, overrides, within, deadline)
    } else {
        Spec::parse(name, text, overrides)
    }
}

/// A flag's value checked against its option table's range: `--node-limit 0: accepted: 1 or
/// more nodes`.
pub(crate) fn check_range(flag: &str, value: Option<u64>) -> Result<(), String> {
    match value {
        Some(v) => run_option(flag)
            .check_whole(i64::try_from(v).unwrap_or(i64::MAX))
            .map_err(|m| format!("--{flag} {v}: {m}")),
        None => Ok(()),
    }
}

pub(crate) fn load(file: &str, common: &Common, size: Option<usize>) -> Result<Loaded, String> {
    if common.input == Some(InputFormat::Lines) {
        return Err(format!(
            "{file}: --input lines (sudoku puzzles one a line) is read by `solve FILE` alone; \
             give one puzzle as a TOML file (kind = \"sudoku\") to the other commands"
        ));
    }
    let budget = run_budget(common)?;
    let deadline = reading_deadline(common);
    let knuth = reads_knuth(file, common);
    let text = read_input(file, knuth, &budget, deadline, time_flag(common))?;
    let overrides = Overrides {
        set: common.set.clone(),
        size: size.or(common.size),
        width: common.width,
        height: common.height,
        solve: SolveOverrides {
            goal: common.goal.clone(),
            strategy: common.strategy.clone(),
            unique: common.unique,
            prefixes: common.prefixes,
            branch: common.branch.clone(),
            limit: common.limit,
            time_limit: common.time_limit,
            threads: common.threads,
        },
    };
    let spec = parse(file, &text, common, &overrides, &budget, deadline).map_err(|e| {
        // A file of sudoku puzzles a line, read as TOML: say how it is read.
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'));
        match first.map(|l| boardsolve::spec::read_sudoku_line(l, None)) {
            Some(Ok(_)) if !knuth => format!(
                "{e}\n(its lines look like sudoku puzzles one a line: `solve {file} --input \
                 lines` reads them)"
            ),
            _ => e.to_string(),
        }
    })?;
    // The spec holds what it needs: the text need not stay beside the model built next.
    drop(text);
    let clock = super::clock::clock_since(super::clock::process_start(), spec.solve.time_limit);
    let goal = spec.solve.goal.unwrap_or(spec.kind().default_goal());
    // All the cores by default: the strategies that split share their subtrees among them,
    // the others take one; `--threads 1` (or `solve.threads = 1`) keeps a run on one.
    let threads = spec
        .solve
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (part, subpart) = match common.part.as_deref().map(parse_parts).transpose()? {
        Some((p, sub)) => (Some(p), sub),
        None => (None, None),
    };
    check_range("node-limit", common.node_limit)?;
    check_range("estimate", common.estimate)?;
    if goal == Goal::Count
        && let Some(n) = spec.solve.limit
    {
        // Goal count stops at an explicit limit, with "at least N" for its answer.
        let why = if n == 0 {
            Some(
                "with goal count the count stops at N solutions and says \"at least N\"; \
                 accepted: 1 or more (2 asks whether a puzzle has one solution)",
            )
        } else if part.is_some() {
            Some(
                "with goal count the count stops at N solutions, and `solve merge` sums the \
                 parts' counts as exact: a part counts whole, without --limit",
            )
        } else {
            None
        };
        if let Some(why) = why {
            return Err(match common.limit {
                Some(_) => format!("--limit {n}: {why}"),
                None => spec.err_nowhere("solve.limit", why.to_string()).to_string(),
            });
        }
    }
    let task = Task {
        goal,
        unique: spec.solve.unique,
        prefixes: spec.solve.prefixes,
        threads,
        part,
        subpart,
        estimate: common.estimate,
        optimum: common.optimum,
        memory: budget.bytes,
        scratch: scratch(common.scratch.as_deref())?,
    };
    let mut model = Model::compile(&spec).map_err(|e| e.to_string())?;
    // The measuring instrument of docs/performance.md: the library reads no environment.
    if let (Model::Domination(m), Some(path)) =
        (&mut model, std::env::var_os("BOARDSOLVE_BNB_TRACE"))
    {
        m.trace = Some(path.into());
    }
    let strategy = spec.solve.strategy.clone().unwrap_or_else(|| "auto".into());
    // A set that changes the board's dimensions shows as the new size; any other set (the
    // holes, say) as itself.
    let resizes = |kv: &&String| {
        let key = kv.split_once('=').map_or(kv.as_str(), |(k, _)| k).trim();
        matches!(key, "board.size" | "board.width" | "board.height")
    };
    let changed = overrides.size.is_some()
        || overrides.width.is_some()
        || overrides.height.is_some()
        || overrides.set.iter().any(|kv| resizes(&kv));
    let sides = match &model {
        Model::Tiling(m) => Some((m.board.width, m.board.height)),
        Model::Sudoku(m) => Some((m.n(), m.n())),
        _ => spec.board.as_ref().map(|b| (b.width, b.height)),
    };
    let mut changes: Vec<String> = sides
        .filter(|_| changed)
        .map(|(w, h)| format!("board {w}x{h}"))
        .into_iter()
        .collect();
    changes.extend(
        overrides
            .set
            .iter()
            .filter(|kv| !resizes(kv))
            .map(|kv| kv.trim().to_string()),
    );
    Ok(Loaded {
        spec,
        model,
        task,
        strategy,
        changes,
        strategy_flag: common.strategy.is_some(),
        clock,
    })
}

/// The strategy that runs, checked against the task before any search: a named one must exist
/// and apply, `auto` must find one. Refusals say where the choice came from: the file's
/// `solve.strategy` (with its line), `--strategy`, or the puzzle as a whole.
pub(crate) fn resolve_strategy(l: &Loaded) -> Result<String, String> {
    if l.strategy != "auto" {
        return match l.model.applies(&l.strategy, &l.task) {
            Ok(()) => Ok(l.strategy.clone()),
            Err(why) if l.strategy_flag => Err(format!(
                "--strategy {}: {}",
                l.strategy,
                render::refusal_text(&why)
            )),
            Err(why) => Err(l
                .spec
                .err_nowhere("solve.strategy", render::refusal_text(&why))
                .to_string()),
        };
    }
    let name = &l.spec.file;
    auto_strategy(l).map_err(|why| format!("{name}: {why}"))
}

fn auto_strategy(l: &Loaded) -> Result<String, String> {
    l.model
        .auto_strategy(&l.task)
        .map(str::to_string)
        .ok_or_else(|| no_strategy(&l.model, &l.task))
}

/// Why no strategy takes `model` and `task`: each strategy's reason, or the one they share.
pub(crate) fn no_strategy(model: &Model, task: &Task) -> String {
    render::no_strategy_text(&model.strategies(task))
}

pub(crate) fn header(l: &Loaded) -> Header {
    Header::of(&l.spec, &l.model, &l.task, &l.changes)
}

/// Whether a folder can be made in `dir`, as the spill makes its own.
fn writable(dir: &std::path::Path) -> std::io::Result<()> {
    let probe = dir.join(format!("boardsolve-probe-{}", std::process::id()));
    match std::fs::create_dir(&probe) {
        Ok(()) => {
            let _ = std::fs::remove_dir(&probe);
            Ok(())
        }
        // Left by an earlier process of the same number: the folder was writable then.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// The folder `--scratch` names (the system's temporary folder by default), checked to be
/// one; `None` for `off`. Kept for the process's life, as the run's settings are.
pub(crate) fn scratch(asked: Option<&str>) -> Result<Option<&'static std::path::Path>, String> {
    let dir = match asked {
        Some("off") => return Ok(None),
        Some(d) => {
            let dir = std::path::PathBuf::from(d);
            if !dir.is_dir() {
                return Err(format!(
                    "--scratch {}: not a folder; accepted: an existing folder (it is not \
                     created), or off",
                    boardsolve::render::shown(&dir.display().to_string())
                ));
            }
            // A folder the spill cannot write in is found now, not at the first spill,
            // hours in.
            if let Err(e) = writable(&dir) {
                return Err(format!(
                    "--scratch {}: cannot create a folder in it ({e}); accepted: a folder this \
                     user can write in, or off",
                    boardsolve::render::shown(&dir.display().to_string())
                ));
            }
            dir
        }
        None => {
            // $TMPDIR when it names a folder this user can write in, else /tmp, as
            // temporary files are found; with neither, no spill, as with `off` (the summary
            // of a count stopped at the budget says so).
            let candidates = [std::env::temp_dir(), std::path::PathBuf::from("/tmp")];
            match candidates
                .into_iter()
                .find(|d| d.is_dir() && writable(d).is_ok())
            {
                Some(d) => d,
                None => return Ok(None),
            }
        }
    };
    // Each folder is leaked once, however many puzzles a run loads (`solve many`).
    static KEPT: std::sync::Mutex<Vec<&'static std::path::Path>> =
        std::sync::Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&p) = kept.iter().find(|p| **p == dir) {
        return Ok(Some(p));
    }
    let p: &'static std::path::Path = Box::leak(dir.into_boxed_path());
    kept.push(p);
    Ok(Some(p))
}
