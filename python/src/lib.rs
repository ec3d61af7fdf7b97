//! `boardsolve._boardsolve`: the library behind the Python package. Each call reads a
//! puzzle (or builds an exact cover from lists), solves it with the library's strategies and
//! hands back the answer as the command line writes it in JSON, with its drawing and its
//! text report on request. The Python side (python/boardsolve) turns that into objects and
//! exceptions; it holds no solver code.
//!
//! Every search runs on a thread of its own while the caller's thread waits with the GIL
//! released, looking for signals every [`POLL`]: Ctrl-C stops the search at its next check
//! and raises `KeyboardInterrupt`, and other Python threads run meanwhile. When the
//! interpreter exits, the package's exit hook ([`stop_searches`]) stops every search still
//! running (a daemon thread's) and waits for its caller to leave Rust: a thread the exiting
//! interpreter ends while it is inside Rust would abort the process.
//!
//! A puzzle file is read, and every search sized, within the memory budget `solve` keeps
//! (`--memory`, or 3/4 of what the system gives), through `boardsolve_cli::shared`.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyString, PyTuple};

use boardsolve_cli::shared::{self, Budget, ReadFault};

use boardsolve::dlx::Branch;
use boardsolve::engine::{Clock, Goal, Limits, Outcome, Run, Task};
use boardsolve::kinds::cover::{self, CoverLists, ListFault};
use boardsolve::kinds::{Model, SolveError};
use boardsolve::render::{self, Header, Picture, Unfinished};
use boardsolve::spec::options::{Default as OptionDefault, run_option};
use boardsolve::spec::{Overrides, SolveOverrides, Spec, SpecError};

/// How often a waiting call looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(20);

/// Why a call failed, before it becomes a Python exception (which needs the GIL).
enum Failure {
    /// The puzzle file or an override: `PuzzleError`, with where.
    Puzzle(SpecError),
    /// Bad lists given to the exact cover: `PuzzleError` naming the list and index.
    Lists { key: String, message: String },
    /// No strategy takes the task, or the one named does not: `StrategyError`.
    Strategy(String),
    /// A strategy's solution failed the validator: a bug, `RuntimeError`.
    Invalid(String),
    /// The puzzle file at `path` was not read: `OSError` where it could not be opened,
    /// `PuzzleError` where its text is not UTF-8 or reading it passed the budget.
    Read { path: String, fault: ReadFault },
    /// The text given passes the memory budget: `PuzzleError`.
    Budget { name: String, message: String },
}

fn raise<'py>(
    py: Python<'py>,
    class: &str,
    args: impl IntoPyObject<'py, Target = PyTuple>,
) -> PyErr {
    let made = py
        .import("boardsolve.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

impl Failure {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Puzzle(e) => raise(
                py,
                "PuzzleError",
                (e.to_string(), e.file, e.line, e.column, e.key),
            ),
            Failure::Lists { key, message } => raise(
                py,
                "PuzzleError",
                (format!("{key}: {message}"), "<lists>", 0, 0, key),
            ),
            Failure::Strategy(m) => raise(py, "StrategyError", (m,)),
            Failure::Invalid(m) => PyRuntimeError::new_err(m),
            Failure::Read { path, fault } => match fault {
                // As `open()` raises it: FileNotFoundError, PermissionError, IsADirectoryError.
                ReadFault::Open(e) => match e.raw_os_error() {
                    Some(code) => {
                        let text = e.to_string();
                        let strerror = text
                            .strip_suffix(&format!(" (os error {code})"))
                            .unwrap_or(&text)
                            .to_string();
                        PyOSError::new_err((code, strerror, path))
                    }
                    None => PyOSError::new_err(format!("{path}: {e}")),
                },
                ReadFault::NotUtf8 {
                    message,
                    line,
                    column,
                } => raise(py, "PuzzleError", (message, path, line, column, "")),
                ReadFault::Refused(m) => raise(py, "PuzzleError", (m, path, 0, 0, "")),
            },
            Failure::Budget { name, message } => {
                raise(py, "PuzzleError", (message, name, 0, 0, "memory"))
            }
        }
    }
}

/// Stop flags of the searches started from Python that may still run (an iterator's lives
/// as long as the iterator): the exit hook sets them. Touched only with the GIL held, so that
/// no other thread holds the lock when a thread forks.
static STOPS: Mutex<Vec<Weak<AtomicBool>>> = Mutex::new(Vec::new());
/// Calls inside Rust now with the GIL released: the exit hook waits for them to leave.
static INSIDE: AtomicUsize = AtomicUsize::new(0);
/// The interpreter is exiting: searches stop, and none starts.
static EXITING: AtomicBool = AtomicBool::new(false);

/// `stop` is set when the interpreter exits.
fn watch(stop: &Arc<AtomicBool>) {
    let mut stops = STOPS.lock().unwrap_or_else(|p| p.into_inner());
    stops.retain(|w| w.strong_count() > 0);
    stops.push(Arc::downgrade(stop));
}

fn exiting_error() -> PyErr {
    PyRuntimeError::new_err(
        "the interpreter is exiting: boardsolve stopped this search (a thread's search ends \
         with the interpreter; join the thread before exiting for its answer)",
    )
}

/// A call inside Rust with the GIL released, counted from before it lets the GIL go until it
/// returns to Python (both with the GIL held, as the exit hook runs): the hook waits until
/// none is left.
struct Inside;

impl Inside {
    fn enter(_py: Python<'_>) -> PyResult<Inside> {
        if EXITING.load(Ordering::SeqCst) {
            return Err(exiting_error());
        }
        INSIDE.fetch_add(1, Ordering::SeqCst);
        Ok(Inside)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        // Saturating: a fork's child starts again from none.
        let _ = INSIDE.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}

/// The exit hook (`atexit`): stops every search started from Python, refuses new ones, and
/// waits up to `wait` seconds for the calls inside them to return to Python.
#[pyfunction]
#[pyo3(name = "_stop_searches")]
fn stop_searches(py: Python<'_>, wait: f64) {
    EXITING.store(true, Ordering::SeqCst);
    for w in STOPS.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        if let Some(stop) = w.upgrade() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    let until = Instant::now() + Duration::from_secs_f64(wait.clamp(0.0, 60.0));
    py.allow_threads(|| {
        while INSIDE.load(Ordering::SeqCst) > 0 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
    });
}

/// `os.register_at_fork`'s hook in a child: the parent's calls and searches are not there.
#[pyfunction]
#[pyo3(name = "_forked")]
fn forked(_py: Python<'_>) {
    INSIDE.store(0, Ordering::SeqCst);
    STOPS.lock().unwrap_or_else(|p| p.into_inner()).clear();
}

/// The memory budget of a call that asked for `asked` bytes (`None`: the default), with a
/// warning where the system gives less than was asked, as `solve` notes it.
fn budget_of(py: Python<'_>, asked: Option<u64>) -> PyResult<Budget> {
    if let Some(m) = asked
        && m < shared::MIN_MEMORY
    {
        return Err(PyValueError::new_err(format!(
            "memory {m}: accepted: bytes, from {} up",
            shared::MIN_MEMORY
        )));
    }
    let (budget, note) = Budget::new(asked);
    if let Some(note) = note {
        let note = note.strip_prefix("--").unwrap_or(&note);
        let text = std::ffi::CString::new(note)?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)?;
    }
    Ok(budget)
}

/// A size as `--memory` takes it ("4G", "512M"), in bytes: what the package's `memory`
/// argument takes as a str.
#[pyfunction]
#[pyo3(name = "_memory_size")]
fn memory_size(s: &str) -> PyResult<u64> {
    shared::memory_size(s).map_err(PyValueError::new_err)
}

/// Run `work` on a thread of its own; this thread waits with the GIL released and, on a
/// signal's exception (Ctrl-C's `KeyboardInterrupt`), sets `stop`, waits for the work to
/// end (a search stops at its next look at the clock) and raises the exception. Where the
/// exit hook stopped the work, `RuntimeError`.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let _inside = Inside::enter(py)?;
    watch(stop);
    let done = within_thread(py, stop, work);
    if EXITING.load(Ordering::SeqCst) {
        return Err(exiting_error());
    }
    done
}

/// [`interruptible`]'s wait: `work` on a thread, this one waiting for it without the GIL.
fn within_thread<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("boardsolve".into())
            .spawn_scoped(scope, move || {
                let _ = tx.send(work());
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut rx = rx;
        loop {
            let (got, back) = py.allow_threads(move || (rx.recv_timeout(POLL), rx));
            rx = back;
            match got {
                Ok(v) => return Ok(v),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.allow_threads(move || rx.recv());
                        return Err(e);
                    }
                }
                // The thread panicked; the scope passes the panic on to Python.
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search thread failed"));
                }
            }
        }
    })
}

/// Where the puzzle comes from and what the call changes, as `solve`'s flags do.
#[derive(Clone, Default)]
struct Request {
    /// The puzzle's text, given; or read from the file at `path`, named `name`.
    text: Option<String>,
    path: Option<String>,
    name: String,
    knuth: bool,
    set: Vec<String>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    goal: Option<String>,
    strategy: Option<String>,
    unique: bool,
    threads: Option<usize>,
    time_limit: Option<f64>,
    limit: Option<u64>,
    node_limit: Option<u64>,
}

/// A puzzle read and compiled, with its task.
struct Loaded {
    spec: Spec,
    model: Model,
    task: Task,
    strategy: String,
    changes: Vec<String>,
}

/// The puzzle read (its file within the budget and until `stop`), compiled, with its task.
fn load(r: &Request, budget: &Budget, stop: &AtomicBool) -> Result<Loaded, Failure> {
    let read;
    let text = match (&r.text, &r.path) {
        (Some(text), _) => {
            shared::check_text(&r.name, text, r.knuth, budget).map_err(|message| {
                Failure::Budget {
                    name: r.name.clone(),
                    message,
                }
            })?;
            text
        }
        (None, Some(path)) => {
            read = shared::read_puzzle(path, r.knuth, budget, r.time_limit, Some(stop)).map_err(
                |fault| Failure::Read {
                    path: path.clone(),
                    fault,
                },
            )?;
            &read
        }
        (None, None) => return Err(Failure::Invalid("no puzzle given".into())),
    };
    let overrides = Overrides {
        set: r.set.clone(),
        size: r.size,
        width: r.width,
        height: r.height,
        solve: SolveOverrides {
            goal: r.goal.clone(),
            strategy: r.strategy.clone(),
            unique: r.unique,
            limit: r.limit,
            time_limit: r.time_limit,
            threads: r.threads,
            ..SolveOverrides::default()
        },
    };
    let spec = if r.knuth {
        shared::parse_knuth(&r.name, text, &overrides, budget)
    } else {
        Spec::parse(&r.name, text, &overrides)
    }
    .map_err(Failure::Puzzle)?;
    let model = Model::compile(&spec).map_err(Failure::Puzzle)?;
    let task = Task {
        goal: spec.solve.goal.unwrap_or(spec.kind().default_goal()),
        unique: spec.solve.unique,
        prefixes: spec.solve.prefixes,
        threads: spec.solve.threads.unwrap_or_else(all_cores),
        memory: budget.bytes(),
        ..Task::default()
    };
    let strategy = spec.solve.strategy.clone().unwrap_or_else(|| "auto".into());
    let mut changes: Vec<String> = [("size", r.size), ("width", r.width), ("height", r.height)]
        .iter()
        .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
        .collect();
    changes.extend(r.set.iter().cloned());
    Ok(Loaded {
        spec,
        model,
        task,
        strategy,
        changes,
    })
}

impl Loaded {
    /// What a run takes of it: the model, the task and the report's header.
    fn parts(&self) -> (&Model, &Task, Header) {
        let header = Header::of(&self.spec, &self.model, &self.task, &self.changes);
        (&self.model, &self.task, header)
    }
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The strategy that runs: the one named, if it takes the task, or auto's choice.
fn resolve(model: &Model, task: &Task, strategy: &str) -> Result<String, Failure> {
    if strategy == "auto" {
        return model
            .auto_strategy(task)
            .map(str::to_string)
            .ok_or_else(|| Failure::Strategy(render::no_strategy_text(&model.strategies(task))));
    }
    model
        .applies(strategy, task)
        .map(|()| strategy.to_string())
        .map_err(|why| Failure::Strategy(format!("{strategy}: {}", render::refusal_text(&why))))
}

/// Solutions kept for goal `all` without a limit: the command line's default.
fn default_shown() -> u64 {
    match run_option("limit").default {
        OptionDefault::Whole(n) => n,
        _ => 10,
    }
}

/// One solve's answer: the report in JSON as `solve --format json` writes it, and what is
/// needed to draw it or write it as text. It pickles (`__reduce__`) as [`Saved`].
#[pyclass(frozen, module = "boardsolve._boardsolve")]
struct Solved {
    /// The report in JSON.
    #[pyo3(get)]
    json: String,
    /// The summary line `solve` writes on standard error.
    #[pyo3(get)]
    summary: String,
    /// The run stopped before its answer was proven (a time or node limit, memory).
    #[pyo3(get)]
    limited: bool,
    header: Header,
    pictures: Vec<Picture>,
    tail: Tail,
}

/// The end of the text report, after the solutions: written from the outcome, or as it was
/// written before a pickle.
enum Tail {
    Outcome {
        outcome: Box<Outcome>,
        unfinished: Option<Unfinished>,
    },
    Written(String),
}

/// A [`Solved`] as it pickles: the JSON report, the summary, the pictures that draw it and
/// the text report's end (the outcome itself is the library's, and stays in Rust).
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    json: String,
    summary: String,
    limited: bool,
    header: Header,
    pictures: Vec<Picture>,
    tail: String,
}

impl Solved {
    fn tail_text(&self) -> PyResult<String> {
        let (outcome, unfinished) = match &self.tail {
            Tail::Written(t) => return Ok(t.clone()),
            Tail::Outcome {
                outcome,
                unfinished,
            } => (outcome, unfinished),
        };
        let mut w: Vec<u8> = Vec::new();
        render::write_text_tail(
            &mut w,
            &self.header,
            outcome,
            self.pictures.len() as u64,
            self.header.goal == Goal::All.name(),
            unfinished.as_ref(),
        )
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(String::from_utf8_lossy(&w).into_owned())
    }
}

#[pymethods]
impl Solved {
    /// The solutions drawn in SVG, as `solve --format svg` draws them; `None` where there is
    /// none to draw, or the board is too large to draw.
    #[pyo3(signature = (most=None))]
    fn svg(&self, most: Option<usize>) -> Option<String> {
        // As many as the limit on one drawing's squares takes, all the solutions together:
        // a notebook would otherwise draw every solution kept.
        let mut total = 0usize;
        let fit = self
            .pictures
            .iter()
            .take(most.unwrap_or(usize::MAX))
            .take_while(|p| {
                total = total.saturating_add(p.squares().max(1));
                total <= render::SVG_MAX_SQUARES
            })
            .count();
        (fit > 0).then(|| render::svg_report(&self.header, &self.pictures[..fit]))
    }

    /// The report as `solve` writes it in text: the title, each solution, the answer.
    fn text(&self) -> PyResult<String> {
        let mut w: Vec<u8> = Vec::new();
        let io = |e: std::io::Error| PyRuntimeError::new_err(e.to_string());
        render::write_text_head(&mut w, &self.header).map_err(io)?;
        for p in &self.pictures {
            render::write_text_solution(&mut w, p, &mut || None).map_err(io)?;
        }
        let mut text = String::from_utf8_lossy(&w).into_owned();
        text.push_str(&self.tail_text()?);
        Ok(text)
    }

    /// Pickled as its [`Saved`] form in JSON, read back by `_restore`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let saved = Saved {
            json: self.json.clone(),
            summary: self.summary.clone(),
            limited: self.limited,
            header: self.header.clone(),
            pictures: self.pictures.clone(),
            tail: self.tail_text()?,
        };
        let state =
            serde_json::to_string(&saved).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let restore = py.import("boardsolve._boardsolve")?.getattr("_restore")?;
        Ok((restore, (state,)))
    }
}

/// A [`Solved`] from its pickled form.
#[pyfunction]
#[pyo3(name = "_restore")]
fn restore(state: &str) -> PyResult<Solved> {
    let s: Saved = serde_json::from_str(state)
        .map_err(|e| PyValueError::new_err(format!("not a pickled boardsolve result: {e}")))?;
    Ok(Solved {
        json: s.json,
        summary: s.summary,
        limited: s.limited,
        header: s.header,
        pictures: s.pictures,
        tail: Tail::Written(s.tail),
    })
}

/// Run `strategy` on the loaded puzzle under `clock`, keeping the first `keep` solutions
/// (all checked by the model's validator), and write the answer.
fn run(
    (model, task, header): (&Model, &Task, Header),
    strategy: &str,
    limits: Limits,
    clock: Clock,
    keep: u64,
) -> Result<Solved, Failure> {
    let mut pictures: Vec<Picture> = Vec::new();
    let run = Run::new(limits).with_clock(clock);
    let checked = model
        .solve_checked_with(strategy, task, run, |s: &[usize]| {
            if (pictures.len() as u64) < keep {
                pictures.push(model.picture(s));
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| match e {
            SolveError::Refused(why) => Failure::Strategy(render::refusal_text(&why)),
            SolveError::Invalid { strategy, why } => Failure::Invalid(format!(
                "strategy {strategy} gave a solution the validator rejects (a bug): {}",
                render::violation_text(&why)
            )),
        })?;
    let mut outcome = checked.outcome;
    pictures.extend(checked.solutions.iter().map(|s| model.picture(s)));
    if let Some(c) = outcome.answer.compact.take() {
        pictures.extend(model.picture_compact(c));
    }
    let unfinished = checked.unchecked.map(Unfinished::Unchecked);
    let mut json: Vec<u8> = Vec::new();
    let written = (|| -> std::io::Result<()> {
        render::write_json_head(&mut json, &header, strategy)?;
        for (i, p) in pictures.iter().enumerate() {
            render::write_json_solution(&mut json, i as u64, p, &mut || None)?;
        }
        render::write_json_tail(
            &mut json,
            &outcome,
            pictures.len() as u64,
            unfinished.as_ref(),
        )
    })();
    written.map_err(|e| Failure::Invalid(e.to_string()))?;
    let limited = outcome.status == boardsolve::engine::Status::Limit || unfinished.is_some();
    Ok(Solved {
        json: String::from_utf8_lossy(&json).into_owned(),
        summary: render::summary_line(&header, &outcome),
        limited,
        header,
        pictures,
        tail: Tail::Outcome {
            outcome: Box::new(outcome),
            unfinished,
        },
    })
}

/// A clock with the time limit, stopped also by `stop` (set on Ctrl-C).
fn clock_for(time_limit: Option<f64>, stop: &Arc<AtomicBool>) -> Clock {
    Clock::new(
        time_limit.map(Duration::from_secs_f64),
        Some(Arc::clone(stop)),
    )
}

/// Solve a puzzle given as text or read from the file at `path` (TOML, or Knuth's format
/// with `knuth`), as `solve FILE` does with the same flags; `memory` is `--memory` in bytes.
#[pyfunction]
#[pyo3(signature = (text, path, name, knuth=false, set=Vec::new(), size=None, width=None,
    height=None, goal=None, strategy=None, unique=false, threads=None, time_limit=None,
    limit=None, node_limit=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    name: String,
    knuth: bool,
    set: Vec<String>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    goal: Option<String>,
    strategy: Option<String>,
    unique: bool,
    threads: Option<usize>,
    time_limit: Option<f64>,
    limit: Option<u64>,
    node_limit: Option<u64>,
    memory: Option<u64>,
) -> PyResult<Solved> {
    let budget = budget_of(py, memory)?;
    let r = Request {
        text,
        path,
        name,
        knuth,
        set,
        size,
        width,
        height,
        goal,
        strategy,
        unique,
        threads,
        time_limit,
        limit,
        node_limit,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let done = interruptible(py, &stop, || {
        let l = load(&r, &budget, &stop)?;
        let strategy = resolve(&l.model, &l.task, &l.strategy).map_err(|f| match f {
            // Named in the file, not by the call: the error points at its line. Where no
            // one named a strategy, none applies: a StrategyError.
            Failure::Strategy(m) if r.strategy.is_none() && l.strategy != "auto" => {
                Failure::Puzzle(l.spec.err_nowhere("solve.strategy", m))
            }
            f => f,
        })?;
        // Goal count stops at a limit given (the answer at least so many), as `solve` does.
        let solutions = match l.task.goal {
            Goal::First => Some(1),
            Goal::Count => l.spec.solve.limit,
            _ => None,
        };
        if l.task.goal == Goal::Count && solutions == Some(0) {
            return Err(Failure::Puzzle(
                l.spec.err_nowhere(
                    "solve.limit",
                    "with goal count the count stops at `limit` solutions and says \"at least \
                 limit\"; accepted: 1 or more (2 asks whether a puzzle has one solution)"
                        .to_string(),
                ),
            ));
        }
        let limits = Limits {
            time: None,
            nodes: r.node_limit,
            solutions,
        };
        let keep = l.spec.solve.limit.unwrap_or_else(default_shown);
        let clock = clock_for(l.spec.solve.time_limit, &stop);
        run(l.parts(), &strategy, limits, clock, keep)
    })?;
    done.map_err(|f| f.into_py(py))
}

/// Every strategy of the puzzle's kind: whether it takes the puzzle's task and why not.
#[pyfunction]
#[pyo3(signature = (text, path, name, knuth=false, set=Vec::new(), size=None, width=None,
    height=None, goal=None, unique=false, memory=None))]
#[allow(clippy::too_many_arguments)]
fn strategies<'py>(
    py: Python<'py>,
    text: Option<String>,
    path: Option<String>,
    name: String,
    knuth: bool,
    set: Vec<String>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    goal: Option<String>,
    unique: bool,
    memory: Option<u64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let budget = budget_of(py, memory)?;
    let r = Request {
        text,
        path,
        name,
        knuth,
        set,
        size,
        width,
        height,
        goal,
        unique,
        ..Request::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let listed = interruptible(py, &stop, || {
        let l = load(&r, &budget, &stop)?;
        let auto = l.model.auto_strategy(&l.task);
        Ok(l.model
            .strategies(&l.task)
            .into_iter()
            .map(|s| {
                let reason = s.applies.as_ref().err().map(render::refusal_text);
                (s.name, s.about, reason, s.splits, Some(s.name) == auto)
            })
            .collect::<Vec<_>>())
    })?
    .map_err(|f: Failure| f.into_py(py))?;
    listed
        .into_iter()
        .map(|(name, about, reason, parts, auto)| {
            let row = PyDict::new(py);
            row.set_item("name", name)?;
            row.set_item("about", about)?;
            row.set_item("applies", reason.is_none())?;
            row.set_item("reason", reason)?;
            row.set_item("parts", parts)?;
            row.set_item("auto", auto)?;
            Ok(row)
        })
        .collect()
}

/// Every strategy of every kind, as `solve strategies` without a file lists them.
#[pyfunction]
#[pyo3(name = "catalogue")]
fn catalogue(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let mut rows = Vec::new();
    for (kind, names) in boardsolve::kinds::catalogue() {
        for (name, about, parts) in names {
            let row = PyDict::new(py);
            row.set_item("kind", kind)?;
            row.set_item("name", name)?;
            row.set_item("about", about)?;
            row.set_item("parts", parts)?;
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Each strategy that takes the puzzle (or those named), run in turn within `budget`
/// seconds each; their answers side by side.
#[pyfunction]
#[pyo3(signature = (text, path, name, knuth=false, set=Vec::new(), size=None, width=None,
    height=None, goal=None, unique=false, threads=None, names=None, budget=10.0, memory=None))]
#[allow(clippy::too_many_arguments)]
fn compare(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    name: String,
    knuth: bool,
    set: Vec<String>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    goal: Option<String>,
    unique: bool,
    threads: Option<usize>,
    names: Option<Vec<String>>,
    budget: f64,
    memory: Option<u64>,
) -> PyResult<Vec<(String, Solved)>> {
    if names.as_ref().is_some_and(Vec::is_empty) {
        return Err(PyValueError::new_err(
            "strategies: an empty list; accepted: strategy names, or None for every strategy \
             that takes the puzzle",
        ));
    }
    if !(budget.is_finite() && budget > 0.0 && budget < 1e9) {
        return Err(raise(
            py,
            "PuzzleError",
            (
                format!("budget {budget}: accepted: seconds, more than 0 and less than 1e9"),
                "<arguments>",
                0,
                0,
                "budget",
            ),
        ));
    }
    let mem = budget_of(py, memory)?;
    let r = Request {
        text,
        path,
        name,
        knuth,
        set,
        size,
        width,
        height,
        goal,
        unique,
        threads,
        ..Request::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let done = interruptible(py, &stop, || -> Result<Vec<(String, Solved)>, Failure> {
        let l = load(&r, &mem, &stop)?;
        let chosen: Vec<String> = match &names {
            Some(n) => n.clone(),
            None => l
                .model
                .strategies(&l.task)
                .into_iter()
                .filter(|s| s.applies.is_ok())
                .map(|s| s.name.to_string())
                .collect(),
        };
        let mut rows = Vec::new();
        for s in chosen {
            let strategy = resolve(&l.model, &l.task, &s)?;
            let limits = Limits {
                time: None,
                nodes: None,
                solutions: (l.task.goal == Goal::First).then_some(1),
            };
            let solved = run(
                l.parts(),
                &strategy,
                limits,
                clock_for(Some(budget), &stop),
                0,
            )?;
            rows.push((strategy, solved));
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok(rows)
    })?;
    done.map_err(|f| f.into_py(py))
}

/// Names read between two looks for Ctrl-C while lists are read.
const READ_CHECK: usize = 1 << 16;

/// A token of an option or an item name: a string, or an integer written in decimal (a bool
/// is refused: `True` is no item's name).
fn token(v: &Bound<'_, PyAny>, key: &dyn Fn() -> String) -> PyResult<String> {
    if let Ok(s) = v.downcast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if let Ok(i) = v.downcast::<PyInt>()
        && !v.is_instance_of::<PyBool>()
    {
        // A subclass of int (an IntEnum) by its value.
        let plain = if v.is_exact_instance_of::<PyInt>() {
            i.clone().into_any()
        } else {
            v.py().get_type::<PyInt>().call1((v,))?
        };
        return Ok(plain.str()?.to_cow()?.into_owned());
    }
    Err(PyTypeError::new_err(format!(
        "{}: {} ({}) is not an item name; accepted: a str (or an int)",
        key(),
        v.repr()?,
        v.get_type().name()?
    )))
}

/// The elements of a list argument `what` (of item names, or of options): a str, bytes or
/// anything not iterable is refused (a str or bytes would be read as its characters).
fn elements<'py>(
    v: &Bound<'py, PyAny>,
    key: &dyn Fn() -> String,
    what: &str,
) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
    let refuse = || -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "{}: {} ({}); accepted: a list (or any iterable) of {what}",
            key(),
            short_repr(v)?,
            v.get_type().name()?
        )))
    };
    if v.is_instance_of::<PyString>()
        || v.is_instance_of::<PyBytes>()
        || v.is_instance_of::<PyByteArray>()
    {
        return Err(refuse()?);
    }
    match v.try_iter() {
        Ok(it) => Ok(it),
        Err(e) if e.is_instance_of::<PyTypeError>(v.py()) => Err(refuse()?),
        Err(e) => Err(e),
    }
}

/// `repr(v)`, cut short: an error quotes what was given, not all of it.
fn short_repr(v: &Bound<'_, PyAny>) -> PyResult<String> {
    let r = v.repr()?.to_cow()?.into_owned();
    Ok(match r.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &r[..at]),
        None => r,
    })
}

/// An int (not a bool) as an i64, beyond its range saturated (a range so wide is refused as
/// a bad range, as in a file).
fn whole(v: &Bound<'_, PyAny>) -> Option<i64> {
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return None;
    }
    Some(v.extract::<i64>().unwrap_or_else(|_| {
        if v.lt(0i64).unwrap_or(false) {
            i64::MIN
        } else {
            i64::MAX
        }
    }))
}

/// A multiplicity: `n` (exactly n times) or `(lo, hi)` (a tuple or a list of two ints).
fn range(v: &Bound<'_, PyAny>, key: &str) -> PyResult<(i64, i64)> {
    if let Some(n) = whole(v) {
        return Ok((n, n));
    }
    if let Ok(pair) = v.downcast::<pyo3::types::PySequence>()
        && !v.is_instance_of::<PyString>()
        && pair.len()? == 2
        && let (Some(lo), Some(hi)) = (whole(&pair.get_item(0)?), whole(&pair.get_item(1)?))
    {
        return Ok((lo, hi));
    }
    Err(PyTypeError::new_err(format!(
        "{key}: {}: accepted: an int n (exactly n times) or a pair (lo, hi) of ints",
        short_repr(v)?
    )))
}

/// An exact cover from Python lists, compiled as the cover kind compiles its file's lists.
fn cover_model(
    items: &Bound<'_, PyAny>,
    options: &Bound<'_, PyAny>,
    secondary: &Bound<'_, PyAny>,
    multiplicity: Option<&Bound<'_, PyDict>>,
) -> PyResult<Result<Model, Failure>> {
    let mut lists = CoverLists::new();
    let fault = |key: String, f: ListFault| Failure::Lists {
        key,
        message: f.message(),
    };
    let mut ranges: std::collections::HashMap<String, (i64, i64)> = Default::default();
    if let Some(m) = multiplicity {
        for (k, v) in m.iter() {
            let name = token(&k, &|| "multiplicity".into())?;
            let r = range(&v, &format!("multiplicity[{name:?}]"))?;
            ranges.insert(name, r);
        }
    }
    let py = items.py();
    let too_many = |what: &str| Failure::Lists {
        key: what.into(),
        message: format!(
            "more than {} in all; accepted: at most that many",
            render::group(cover::MAX_ENTRIES as u128)
        ),
    };
    for (i, it) in elements(items, &|| "items".into(), "item names")?.enumerate() {
        if i >= cover::MAX_ENTRIES {
            return Ok(Err(too_many("items")));
        }
        if i.is_multiple_of(READ_CHECK) {
            py.check_signals()?;
        }
        let name = token(&it?, &|| format!("items[{i}]"))?;
        let r = ranges.get(&name).copied();
        if let Err(f) = lists.primary(&name, r) {
            let key = match f {
                ListFault::BadRange(..) => format!("multiplicity[{name:?}]"),
                _ => format!("items[{i}]"),
            };
            return Ok(Err(fault(key, f)));
        }
    }
    if let Some(name) = ranges.keys().find(|n| !lists.has(n)) {
        return Ok(Err(Failure::Lists {
            key: format!("multiplicity[{name:?}]"),
            message: "not a primary item; ranges apply to primary items".into(),
        }));
    }
    for (i, it) in elements(secondary, &|| "secondary".into(), "item names")?.enumerate() {
        if i >= cover::MAX_ENTRIES {
            return Ok(Err(too_many("secondary")));
        }
        if i.is_multiple_of(READ_CHECK) {
            py.check_signals()?;
        }
        let name = token(&it?, &|| format!("secondary[{i}]"))?;
        if let Err(f) = lists.secondary(&name) {
            return Ok(Err(fault(format!("secondary[{i}]"), f)));
        }
    }
    let mut entries = 0usize;
    let mut tokens: Vec<String> = Vec::new();
    for (i, opt) in elements(
        options,
        &|| "options".into(),
        "options, each a list of item names",
    )?
    .enumerate()
    {
        tokens.clear();
        for (j, t) in elements(&opt?, &|| format!("options[{i}]"), "item names")?.enumerate() {
            entries += 1;
            if entries > cover::MAX_ENTRIES {
                return Ok(Err(too_many("options (item occurrences)")));
            }
            if entries.is_multiple_of(READ_CHECK) {
                py.check_signals()?;
            }
            tokens.push(token(&t?, &|| format!("options[{i}][{j}]"))?);
        }
        if let Err((at, f)) = lists.option(tokens.iter().map(String::as_str)) {
            let key = match at {
                Some(j) => format!("options[{i}][{j}]"),
                None => format!("options[{i}]"),
            };
            return Ok(Err(fault(key, f)));
        }
    }
    let (problem, colours) = lists.finish();
    Ok(Ok(Model::Cover(cover::Model::from_problem(
        problem,
        colours,
        Branch::default(),
    ))))
}

/// The task of an exact cover from lists, within the memory budget.
fn cover_task(goal: Goal, threads: usize, budget: &Budget) -> Task {
    Task {
        goal,
        threads,
        memory: budget.bytes(),
        ..Task::default()
    }
}

/// What the search thread of an [`ExactCover`] iterator sends.
enum Found {
    Solution(Vec<usize>),
    /// The search ended: searched to its end, or stopped.
    End(Result<(), Failure>),
}

/// The solutions of an exact cover, found lazily: a search thread runs ahead by a few
/// solutions and waits for them to be taken. Dropping the iterator stops the search.
#[pyclass(module = "boardsolve._boardsolve")]
struct ExactCover {
    state: Mutex<Iteration>,
    stop: Arc<AtomicBool>,
    /// The process that made it: a fork's child has no search thread to take from.
    pid: u32,
}

/// Where an iteration stands. The lock is never held while waiting for the search, so that
/// `close()` from another thread returns at once.
enum Iteration {
    /// Solutions to take from here.
    Ready(Receiver<Found>),
    /// A thread is waiting for the next solution.
    Taking,
    /// Ctrl-C stopped the search: what remains would be a part of the solutions.
    Interrupted,
    /// Searched to its end, or closed.
    Ended,
}

impl Drop for ExactCover {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Solutions the search may find ahead of the caller.
const AHEAD: usize = 64;

impl ExactCover {
    fn lock(&self) -> std::sync::MutexGuard<'_, Iteration> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ctrl-C: the search stops, and the iteration cannot go on as if complete.
    fn interrupted(&self, e: PyErr) -> PyErr {
        self.stop.store(true, Ordering::Relaxed);
        let mut state = self.lock();
        if !matches!(*state, Iteration::Ended) {
            *state = Iteration::Interrupted;
        }
        e
    }
}

#[pymethods]
impl ExactCover {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        if self.pid != std::process::id() {
            return Err(PyRuntimeError::new_err(format!(
                "this exact_cover iterator was made in process {} and its search runs there; \
                 a forked process (this one, {}) has no copy of the search; accepted: an \
                 exact_cover made in this process",
                self.pid,
                std::process::id()
            )));
        }
        // A loop that takes solutions as fast as they come never waits below: a signal is
        // looked for at each one too (`list(exact_cover(...))` runs no bytecode between).
        if let Err(e) = py.check_signals() {
            return Err(self.interrupted(e));
        }
        let _inside = Inside::enter(py)?;
        // Taken in a statement of its own: the guard must be gone before the arms lock again.
        let taken = std::mem::replace(&mut *self.lock(), Iteration::Taking);
        let mut rx = match taken {
            Iteration::Ready(rx) => rx,
            Iteration::Taking => {
                return Err(PyRuntimeError::new_err(
                    "this exact_cover iterator is being read by another thread; accepted: \
                     one thread at a time",
                ));
            }
            Iteration::Interrupted => {
                *self.lock() = Iteration::Interrupted;
                return Err(PyRuntimeError::new_err(
                    "Ctrl-C stopped this search: the solutions after it were not found; \
                     start a new exact_cover for all of them",
                ));
            }
            Iteration::Ended => {
                *self.lock() = Iteration::Ended;
                return Ok(None);
            }
        };
        loop {
            let (got, back) = py.allow_threads(move || (rx.recv_timeout(POLL), rx));
            rx = back;
            if EXITING.load(Ordering::SeqCst) {
                *self.lock() = Iteration::Interrupted;
                return Err(exiting_error());
            }
            let next = match got {
                Ok(Found::Solution(s)) => Ok(Some(s)),
                Ok(Found::End(Ok(()))) | Err(RecvTimeoutError::Disconnected) => Ok(None),
                Ok(Found::End(Err(f))) => Err(f.into_py(py)),
                Err(RecvTimeoutError::Timeout) => match py.check_signals() {
                    Ok(()) => continue,
                    Err(e) => return Err(self.interrupted(e)),
                },
            };
            let mut state = self.lock();
            // close() from another thread while this one waited: the iteration ends.
            if matches!(*state, Iteration::Taking) && matches!(next, Ok(Some(_))) {
                *state = Iteration::Ready(rx);
            } else if matches!(*state, Iteration::Taking) {
                *state = Iteration::Ended;
            }
            return next;
        }
    }

    /// Stop the search now; the iteration ends.
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        *self.lock() = Iteration::Ended;
    }
}

/// The solutions of an exact cover given as lists, lazily, as lists of option indices; a
/// search too large for the memory budget (`memory` bytes, or the default) is refused here,
/// before it starts.
#[pyfunction]
#[pyo3(signature = (items, options, secondary=None, multiplicity=None, memory=None))]
fn exact_cover(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    options: &Bound<'_, PyAny>,
    secondary: Option<&Bound<'_, PyAny>>,
    multiplicity: Option<&Bound<'_, PyDict>>,
    memory: Option<u64>,
) -> PyResult<ExactCover> {
    let budget = budget_of(py, memory)?;
    if EXITING.load(Ordering::SeqCst) {
        return Err(exiting_error());
    }
    let empty = PyTuple::empty(py);
    let model = cover_model(items, options, secondary.unwrap_or(&empty), multiplicity)?
        .map_err(|f| f.into_py(py))?;
    let task = cover_task(Goal::All, 1, &budget);
    model
        .applies("dlx", &task)
        .map_err(|why| Failure::Strategy(render::refusal_text(&why)).into_py(py))?;
    let stop = Arc::new(AtomicBool::new(false));
    watch(&stop);
    let (tx, rx) = mpsc::sync_channel::<Found>(AHEAD);
    let clock = clock_for(None, &stop);
    std::thread::Builder::new()
        .name("boardsolve-cover".into())
        .spawn(move || {
            let run = Run::new(Limits::default()).with_clock(clock);
            let sender = tx.clone();
            let ended = model
                .solve_checked_with("dlx", &task, run, move |s: &[usize]| {
                    match sender.send(Found::Solution(s.to_vec())) {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(_) => ControlFlow::Break(()),
                    }
                })
                .map(|_| ())
                .map_err(|e| match e {
                    SolveError::Refused(why) => Failure::Strategy(render::refusal_text(&why)),
                    SolveError::Invalid { why, .. } => Failure::Invalid(format!(
                        "a solution the validator rejects (a bug): {}",
                        render::violation_text(&why)
                    )),
                });
            let _ = tx.send(Found::End(ended));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    Ok(ExactCover {
        state: Mutex::new(Iteration::Ready(rx)),
        stop,
        pid: std::process::id(),
    })
}

/// The number of solutions of an exact cover given as lists.
#[pyfunction]
#[pyo3(signature = (items, options, secondary=None, multiplicity=None, threads=None,
    time_limit=None, strategy=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn count_exact_cover(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    options: &Bound<'_, PyAny>,
    secondary: Option<&Bound<'_, PyAny>>,
    multiplicity: Option<&Bound<'_, PyDict>>,
    threads: Option<usize>,
    time_limit: Option<f64>,
    strategy: Option<String>,
    memory: Option<u64>,
) -> PyResult<Solved> {
    let budget = budget_of(py, memory)?;
    let empty = PyTuple::empty(py);
    let model = cover_model(items, options, secondary.unwrap_or(&empty), multiplicity)?
        .map_err(|f| f.into_py(py))?;
    if let Some(t) = time_limit
        && !(t.is_finite() && t > 0.0 && t < 1e9)
    {
        return Err(raise(
            py,
            "PuzzleError",
            (
                format!("time_limit {t}: accepted: seconds, more than 0 and less than 1e9"),
                "<arguments>",
                0,
                0,
                "time_limit",
            ),
        ));
    }
    if let Some(t) = threads
        && let Err(m) = run_option("threads").check_whole(i64::try_from(t).unwrap_or(i64::MAX))
    {
        return Err(raise(
            py,
            "PuzzleError",
            (format!("threads {t}: {m}"), "<arguments>", 0, 0, "threads"),
        ));
    }
    let task = cover_task(Goal::Count, threads.unwrap_or_else(all_cores), &budget);
    let header = Header {
        kind: "cover".into(),
        goal: Goal::Count.name().into(),
        counted: "solutions".into(),
        ..Header::default()
    };
    let strategy = strategy.unwrap_or_else(|| "auto".into());
    let stop = Arc::new(AtomicBool::new(false));
    let done = interruptible(py, &stop, || {
        let strategy = resolve(&model, &task, &strategy)?;
        let clock = clock_for(time_limit, &stop);
        run(
            (&model, &task, header),
            &strategy,
            Limits::default(),
            clock,
            0,
        )
    })?;
    done.map_err(|f| f.into_py(py))
}

/// `solve` itself on these arguments, as bytes (the first is the program's name): what
/// `python -m boardsolve` runs, once a process (it takes Ctrl-C for itself). `program`: the
/// words that run it from a shell, which the commands of `plan` and `merge` name (`python -m
/// boardsolve` gives its interpreter, `-m`, `boardsolve`); by default the first argument.
/// Returns the exit status.
#[pyfunction]
#[pyo3(signature = (args, program=None))]
fn main(py: Python<'_>, args: Vec<Vec<u8>>, program: Option<Vec<Vec<u8>>>) -> u8 {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let args: Vec<OsString> = args.into_iter().map(OsString::from_vec).collect();
    let program = match program {
        Some(words) => words.into_iter().map(OsString::from_vec).collect(),
        None => args.first().cloned().into_iter().collect(),
    };
    py.allow_threads(move || boardsolve_cli::main_as(program, args))
}

#[pymodule]
fn _boardsolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(exact_cover, m)?)?;
    m.add_function(wrap_pyfunction!(count_exact_cover, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(restore, m)?)?;
    m.add_function(wrap_pyfunction!(memory_size, m)?)?;
    m.add_function(wrap_pyfunction!(stop_searches, m)?)?;
    m.add_function(wrap_pyfunction!(forked, m)?)?;
    m.add("MIN_MEMORY", shared::MIN_MEMORY)?;
    m.add_class::<Solved>()?;
    m.add_class::<ExactCover>()?;
    m.add("MAX_ENTRIES", cover::MAX_ENTRIES)?;
    Ok(())
}
