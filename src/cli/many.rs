//! `solve FILE --input lines`: sudoku puzzles one a line, as the public benchmark sets write
//! them. The rules are a sudoku of the first puzzle's size (boxes as square as it allows),
//! changed by `--set` as a puzzle file would be; each line is answered by one line on
//! standard output (its solution, or its count), a bad line is named on standard error by
//! its number and the others go on, and a summary with puzzles a second ends the run.
//!
//! A thread reads the lines into a bounded queue; the puzzles are solved in batches of the
//! lines ready, up to [`BATCH`], so that a file goes in large batches across the threads and
//! a pipe that brings one line has it answered at once. While no line is ready the run
//! watches the time limit and Ctrl-C.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, sync_channel};

use boardsolve::engine::{Clock, Goal, Refusal, Run, StopReason, TICK, Task};
use boardsolve::kinds::{Model, sudoku};
use boardsolve::render::{self, LinesAfter, ManyTally};
use boardsolve::spec::options::OutputFormat;
use boardsolve::spec::{KindSpec, LineFault, Overrides, SolveOverrides, Spec};

use super::args::{SolveCli, limits, parse_memory};
use super::input::{OpenFault, open_input};
use super::load::{check_range, no_strategy};
use super::{clock, fail};

/// The longest line read as a puzzle: a 35x35 grid is 1,225 characters, and a comment may
/// follow; a longer line is a bad line, read no further than this. A comment line (`#`) or
/// a blank one is skipped whatever its length.
const MAX_LINE: usize = 4096;
/// The most puzzles solved at a time, and the most lines read ahead of them: the memory held
/// is bounded by these, not by the file.
const BATCH: usize = 1 << 14;

/// One line of the file, as read: its number and text, or a text too long to be a puzzle.
struct Line {
    number: usize,
    text: Result<String, usize>,
}

/// The next puzzle line of `reader`, `None` at its end: blank lines and lines beginning with
/// '#' are skipped.
fn read_line<R: BufRead>(reader: &mut R, number: &mut usize) -> std::io::Result<Option<Line>> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        *number += 1;
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // The rest of an overlong line, skipped without holding it: a comment or a blank
            // line as any other, a puzzle line as a bad one.
            let start = buf.iter().position(|b| !b.is_ascii_whitespace());
            let comment = start.is_some_and(|k| buf[k] == b'#');
            let mut blank = start.is_none();
            let mut skipped = buf.len();
            loop {
                let chunk = reader.fill_buf()?;
                if chunk.is_empty() {
                    break;
                }
                let end = chunk.iter().position(|&b| b == b'\n');
                let k = end.unwrap_or(chunk.len());
                blank &= chunk[..k].iter().all(u8::is_ascii_whitespace);
                skipped += k;
                reader.consume(k + usize::from(end.is_some()));
                if end.is_some() {
                    break;
                }
            }
            if comment || blank {
                continue;
            }
            return Ok(Some(Line {
                number: *number,
                text: Err(skipped),
            }));
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end_matches(['\n', '\r']);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        return Ok(Some(Line {
            number: *number,
            text: Ok(trimmed.to_string()),
        }));
    }
}

/// Read `source` line by line into `queue` until its end, a read error (sent as the last
/// item) or the receiver's end (the run stopped).
fn read_all(source: Box<dyn Read + Send>, queue: SyncSender<std::io::Result<Line>>) {
    let mut reader = BufReader::with_capacity(1 << 16, source);
    let mut number = 0;
    loop {
        let item = match read_line(&mut reader, &mut number) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => return,
            Err(e) => Err(e),
        };
        let failed = item.is_err();
        if queue.send(item).is_err() || failed {
            return;
        }
    }
}

/// What waiting for the next line came to.
enum Next {
    Line(Line),
    /// The input ended.
    End,
    Failed(std::io::Error),
    /// A limit struck (the time, Ctrl-C) while no line was ready.
    Stopped(StopReason),
}

/// The next line, waited for as long as it takes, the clock looked at every tick meanwhile.
fn wait(queue: &Receiver<std::io::Result<Line>>, clock: &Clock) -> Next {
    loop {
        match queue.recv_timeout(TICK) {
            Ok(Ok(line)) => return Next::Line(line),
            Ok(Err(e)) => return Next::Failed(e),
            Err(RecvTimeoutError::Disconnected) => return Next::End,
            Err(RecvTimeoutError::Timeout) => {
                if let Some(r) = clock.expired() {
                    return Next::Stopped(r);
                }
            }
        }
    }
}

/// Add to `batch` the lines ready now, up to [`BATCH`]; `Some` when the input ended (or
/// failed) behind them.
fn take_ready(
    queue: &Receiver<std::io::Result<Line>>,
    batch: &mut Vec<Line>,
) -> Option<Result<(), std::io::Error>> {
    while batch.len() < BATCH {
        match queue.try_recv() {
            Ok(Ok(line)) => batch.push(line),
            Ok(Err(e)) => return Some(Err(e)),
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => return Some(Ok(())),
        }
    }
    None
}

/// What follows the last line answered when a limit stopped the run: lines of the batch
/// not begun, else whatever the reader has queued or whether it reached the input's end.
fn lines_after(
    queue: &Receiver<std::io::Result<Line>>,
    left_in_batch: bool,
    ended: Option<&Result<(), std::io::Error>>,
) -> LinesAfter {
    if left_in_batch {
        return LinesAfter::Unanswered;
    }
    match ended {
        Some(Ok(())) => return LinesAfter::End,
        Some(Err(_)) => return LinesAfter::Unknown,
        None => {}
    }
    // A tick's grace lets a reader that is about to reach a file's end say so; an input
    // held open stays unknown.
    match queue.recv_timeout(TICK) {
        Ok(Ok(_)) => LinesAfter::Unanswered,
        Ok(Err(_)) | Err(RecvTimeoutError::Timeout) => LinesAfter::Unknown,
        Err(RecvTimeoutError::Disconnected) => LinesAfter::End,
    }
}

/// The size of the grid a line gives, if it is a puzzle.
fn size_of(line: &Line) -> Option<usize> {
    let text = line.text.as_ref().ok()?;
    boardsolve::spec::read_sudoku_line(text, None)
        .ok()
        .map(|(n, _)| n)
}

/// The rules as a puzzle file would give them, so that `--set` changes them as it would.
fn rules_text(size: usize) -> String {
    format!("kind = \"sudoku\"\n[board]\nsize = {size}\n")
}

pub(crate) fn solve_lines(cli: &SolveCli) -> u8 {
    let c = &cli.common;
    let file = cli.file();
    let name = if file == "-" { "<stdin>" } else { file };
    for (given, flag) in [
        (c.part.is_some(), "--part"),
        (c.estimate.is_some(), "--estimate"),
        (c.optimum.is_some(), "--optimum"),
        (cli.out.record.is_some(), "--record"),
        (
            c.width.is_some() || c.height.is_some(),
            "--width and --height",
        ),
    ] {
        if given {
            return fail(format!(
                "{flag}: not taken with --input lines, which solves each puzzle of the file whole"
            ));
        }
    }
    if let Some(set) = c.set.iter().find(|s| {
        let key = s.split_once('=').map_or(s.as_str(), |(k, _)| k).trim();
        key == "rules.givens" || key == "rules" || key == "board.size"
    }) {
        return fail(format!(
            "--set {set}: with --input lines each line gives a puzzle's givens and size; \
             --set changes the rules they share (board.box, board.regions, board.diagonals)"
        ));
    }
    if !matches!(cli.out.format, OutputFormat::Text | OutputFormat::Json) {
        return fail(
            "--input lines writes a line a puzzle: accepted formats text and json (JSON lines)",
        );
    }
    if let Some(Err(e)) = c.memory.as_deref().map(parse_memory) {
        return fail(e);
    }
    if let Err(e) = check_range("node-limit", c.node_limit) {
        return fail(e);
    }
    let overrides = Overrides {
        set: c.set.clone(),
        size: None,
        width: None,
        height: None,
        solve: SolveOverrides {
            goal: c.goal.clone(),
            strategy: c.strategy.clone(),
            unique: c.unique,
            prefixes: c.prefixes,
            branch: c.branch.clone(),
            limit: c.limit,
            time_limit: c.time_limit,
            threads: c.threads,
        },
    };
    // The solve options, read before any line so that their errors come at once and the time
    // limit holds while the first line is awaited: the size the lines give changes the board
    // alone, so these are read with the board's keys left out.
    let solve_only = Overrides {
        set: c
            .set
            .iter()
            .filter(|s| {
                let key = s.split_once('=').map_or(s.as_str(), |(k, _)| k).trim();
                key == "solve" || key.starts_with("solve.")
            })
            .cloned()
            .collect(),
        ..overrides.clone()
    };
    let solve = match Spec::parse(name, &rules_text(c.size.unwrap_or(9)), &solve_only) {
        Ok(s) => s.solve,
        Err(e) => return fail(e),
    };
    for (given, flag, what) in [
        (
            solve.unique,
            "--unique",
            "each puzzle's grids are counted as they are, not up to symmetry",
        ),
        (
            solve.prefixes,
            "--prefixes",
            "each puzzle is answered by its solution or its count alone",
        ),
    ] {
        if given {
            return fail(format!("{flag}: not taken with --input lines: {what}"));
        }
    }
    let goal = solve.goal.unwrap_or(Goal::First);
    if goal == Goal::Count && solve.limit == Some(0) {
        return fail(
            "--limit 0: with goal count each count stops at N solutions (written N+); \
             accepted: 1 or more (2 tells unique puzzles)",
        );
    }
    if !matches!(goal, Goal::First | Goal::Count) {
        return fail(format!(
            "--goal {}: --input lines answers each puzzle by a line; accepted: first (its \
             solution) or count (its number of solutions; --limit 2 tells unique puzzles)",
            goal.name()
        ));
    }
    let threads = solve
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Fewer where the memory budget holds fewer puzzles' searches at once (below); the
    // summary says how many solved them.
    let solving = std::cell::Cell::new(threads);
    let task = Task {
        goal,
        threads,
        memory: super::memory::budget(c.memory.as_deref().and_then(|m| parse_memory(m).ok())).bytes,
        ..Task::default()
    };
    let mut solution_limits = limits(c.node_limit, goal, solve.time_limit);
    if goal == Goal::Count {
        solution_limits.solutions = solve.limit;
    }
    let clock = clock::clock_since(clock::process_start(), solve.time_limit);
    let parent = Run::new(solution_limits).with_clock(clock.clone());
    let start = std::time::Instant::now();
    let counted = goal == Goal::Count;
    let mut tally = ManyTally::default();
    let summary = |tally: &ManyTally| {
        if !cli.out.quiet {
            errln!(
                "{}",
                render::many_summary(tally, start.elapsed(), solving.get(), counted)
            );
        }
    };
    let source: Box<dyn Read + Send> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        match open_input(file, &|| clock.expired()) {
            Ok(f) => Box::new(f.file),
            Err(OpenFault::Io(e)) => return fail(format!("{file}: cannot read the puzzles: {e}")),
            Err(OpenFault::Stopped(r)) => {
                tally.stopped = Some(r);
                summary(&tally);
                return 3;
            }
        }
    };
    // Bounded: a reader faster than the solving waits for it, holding a batch at most.
    let (sender, queue) = sync_channel(BATCH);
    // Never joined: a run that stops while the reader waits on its input ends without it.
    if let Err(e) = std::thread::Builder::new()
        .name("boardsolve-lines".into())
        .spawn(move || read_all(source, sender))
    {
        return fail(format!("{name}: cannot start reading the puzzles: {e}"));
    }
    // The grid's size: --size, else the first line that has a puzzle's length; the lines
    // before it wait for it.
    let mut batch: Vec<Line> = Vec::new();
    let size = match c.size {
        Some(size) => size,
        None => loop {
            match wait(&queue, &clock) {
                Next::Line(line) => {
                    let size = size_of(&line);
                    batch.push(line);
                    if let Some(size) = size {
                        break size;
                    }
                    if batch.len() >= BATCH {
                        return no_puzzle(name, &batch);
                    }
                }
                Next::End => return no_puzzle(name, &batch),
                Next::Failed(e) => return fail(format!("{name}: cannot read the puzzles: {e}")),
                Next::Stopped(r) => {
                    tally.stopped = Some(r);
                    summary(&tally);
                    return 3;
                }
            }
        },
    };
    let spec = match Spec::parse(name, &rules_text(size), &overrides) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let (base, sudoku_rules) = match (Model::compile(&spec), &spec.rules) {
        (Ok(Model::Sudoku(base)), KindSpec::Sudoku(rules)) => (base, rules),
        (Err(e), _) => return fail(e),
        _ => return fail(format!("{name}: the rules of --input lines are a sudoku's")),
    };
    let one = Model::Sudoku(base.with_givens(vec![0; size * size]));
    let one_task = Task { threads: 1, ..task };
    let strategy = match spec.solve.strategy.clone().filter(|s| s != "auto") {
        Some(s) => match one.applies(&s, &one_task) {
            Ok(()) => s,
            Err(why) => {
                return fail(format!("--strategy {s}: {}", render::refusal_text(&why)));
            }
        },
        None => match one.auto_strategy(&one_task) {
            Some(s) => s.to_string(),
            None => return fail(format!("{name}: {}", no_strategy(&one, &one_task))),
        },
    };
    // Each thread holds one puzzle's search at a time: the budget is shared among them, so
    // the threads are fewer where it holds fewer searches (the puzzle's estimate, from the
    // grid with no givens, bounds every line's).
    let share = task.memory.map(|budget| Task {
        memory: Some(budget / threads as u64),
        ..one_task
    });
    if let (Some(budget), Some(share)) = (task.memory, share)
        && threads > 1
        && let Err(Refusal::DoesNotApply { why, .. }) = one.applies(&strategy, &share)
        && let Refusal::Memory { need, .. } = *why
    {
        let fit = usize::try_from(budget / need.bytes.max(1)).unwrap_or(usize::MAX);
        errln!(
            "note: {threads} threads: one puzzle's search ({strategy}) may take {}, and the \
             memory budget of {} holds {fit} at once: {fit} thread{} solve{} the puzzles \
             (--threads, --memory)",
            render::bytes(need.bytes),
            render::bytes(budget),
            if fit == 1 { "" } else { "s" },
            if fit == 1 { "s" } else { "" },
        );
        solving.set(fit.max(1));
    }
    let task = Task {
        threads: solving.get(),
        ..task
    };
    let solver = sudoku::LineSolver::new(&base, sudoku_rules, &strategy, &task);
    let out: Box<dyn Write> = match &cli.out.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(format!("{path}: {e}")),
        },
        None => Box::new(std::io::stdout()),
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let json = cli.out.format == OutputFormat::Json;
    let mut ended = None;
    loop {
        if batch.is_empty() {
            match wait(&queue, &clock) {
                Next::Line(line) => batch.push(line),
                Next::End => break,
                Next::Failed(e) => {
                    ended = Some(Err(e));
                    break;
                }
                Next::Stopped(r) => {
                    tally.stopped = Some(r);
                    tally.after = lines_after(&queue, false, None);
                    break;
                }
            }
        }
        ended = take_ready(&queue, &mut batch);
        let texts: Vec<String> = batch
            .iter()
            .map(|l| l.text.clone().unwrap_or_default())
            .collect();
        let done = solver.solve(&parent, &texts);
        let left_in_batch = done.answers.len() < batch.len();
        for (l, mut a) in batch.iter().zip(done.answers) {
            if let Err(len) = l.text {
                a = sudoku::LineAnswer::Bad(LineFault::Length {
                    found: len,
                    expected: Some(size * size),
                });
            }
            let written = if json {
                render::line_answer_json(l.number, &a)
            } else {
                render::line_answer_text(&a, counted)
            };
            if let Err(e) = writeln!(out, "{written}") {
                return write_failed(cli, e);
            }
            match &a {
                sudoku::LineAnswer::Bad(f) => {
                    errln!("error: {name}:{}: {}", l.number, render::line_fault_text(f));
                }
                sudoku::LineAnswer::Failed(e) => {
                    errln!("error: {name}:{}: {e}", l.number);
                }
                _ => {}
            }
            tally.add(l.number, &a);
        }
        // Each batch reaches a reader of the output as soon as it is answered.
        if let Err(e) = out.flush() {
            return write_failed(cli, e);
        }
        tally.stopped = tally.stopped.or(done.stopped);
        if tally.stopped.is_some() {
            tally.after = lines_after(&queue, left_in_batch, ended.as_ref());
        }
        if tally.stopped.is_some() || ended.is_some() {
            break;
        }
        batch.clear();
    }
    if let Err(e) = out.flush() {
        return write_failed(cli, e);
    }
    if let Some(Err(e)) = ended
        && tally.stopped.is_none()
    {
        return fail(format!("{name}: cannot read the puzzles: {e}"));
    }
    summary(&tally);
    if tally.bad > 0 || tally.failed > 0 {
        2
    } else if tally.stopped.is_some() {
        3
    } else if tally.no_solution > 0 {
        1
    } else {
        0
    }
}

/// No line of `lines` (all read before a puzzle) gives a grid's size: the first says why.
fn no_puzzle(name: &str, lines: &[Line]) -> u8 {
    let why = lines.first().map_or(String::new(), |l| {
        let fault = match &l.text {
            Ok(text) => boardsolve::spec::read_sudoku_line(text, None).err(),
            Err(found) => Some(LineFault::Length {
                found: *found,
                expected: None,
            }),
        };
        fault.map_or(String::new(), |f| {
            format!(": line {}: {}", l.number, render::line_fault_text(&f))
        })
    });
    fail(format!(
        "{name}: no line is a puzzle{why}; --input lines reads sudoku puzzles one a line (n x n \
         characters: 81 for 9x9, '.' or '0' a blank)"
    ))
}

fn write_failed(cli: &SolveCli, e: std::io::Error) -> u8 {
    match &cli.out.output {
        Some(path) => fail(format!("{path}: {e}")),
        None => fail(e),
    }
}
