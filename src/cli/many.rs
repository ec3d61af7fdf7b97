//! `solve FILE --input lines`: sudoku puzzles one a line, as the public benchmark sets write
//! them. The rules are a sudoku of the first puzzle's size (boxes as square as it allows),
//! changed by `--set` as a puzzle file would be; each line is answered by one line on
//! standard output (its solution, or its count), a bad line is named on standard error by
//! its number and the others go on, and a summary with puzzles a second ends the run.

use std::io::{BufRead, BufReader, Read, Write};

use boardsolve::engine::{Goal, Run, Task};
use boardsolve::kinds::{Model, sudoku};
use boardsolve::render::{self, ManyTally};
use boardsolve::spec::options::OutputFormat;
use boardsolve::spec::{KindSpec, LineFault, Overrides, SolveOverrides, Spec};

use super::args::{SolveCli, limits, parse_memory};
use super::{clock, fail};

/// The longest line read as a puzzle: a 35x35 grid is 1,225 characters, and a comment may
/// follow; a longer line is a bad line, read no further than this.
const MAX_LINE: usize = 4096;
/// Puzzles read, solved and written at a time: the memory held is bounded by the batch, not
/// the file.
const BATCH: usize = 1 << 14;

/// One line of the file, as read: its number and text, or a text too long to be a puzzle.
struct Line {
    number: usize,
    text: Result<String, usize>,
}

/// The next puzzle lines of `reader`, at most `BATCH`: blank lines and lines beginning with
/// '#' are skipped.
fn read_batch<R: BufRead>(reader: &mut R, number: &mut usize) -> std::io::Result<Vec<Line>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    while out.len() < BATCH {
        buf.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        *number += 1;
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // The rest of an overlong line, skipped without holding it.
            let mut skipped = buf.len();
            loop {
                let chunk = reader.fill_buf()?;
                if chunk.is_empty() {
                    break;
                }
                match chunk.iter().position(|&b| b == b'\n') {
                    Some(k) => {
                        skipped += k;
                        reader.consume(k + 1);
                        break;
                    }
                    None => {
                        let k = chunk.len();
                        skipped += k;
                        reader.consume(k);
                    }
                }
            }
            out.push(Line {
                number: *number,
                text: Err(skipped),
            });
            continue;
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end_matches(['\n', '\r']);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        out.push(Line {
            number: *number,
            text: Ok(trimmed.to_string()),
        });
    }
    Ok(out)
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
    let source: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(file) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(format!("{file}: cannot read the puzzles: {e}")),
        }
    };
    let mut reader = BufReader::with_capacity(1 << 16, source);
    let mut number = 0;
    let mut batch = match read_batch(&mut reader, &mut number) {
        Ok(b) => b,
        Err(e) => return fail(format!("{name}: cannot read the puzzles: {e}")),
    };
    // The grid's size: --size, else the first line that has a puzzle's length.
    let size = c.size.or_else(|| {
        batch.iter().find_map(|l| {
            let text = l.text.as_ref().ok()?;
            boardsolve::spec::read_sudoku_line(text, None)
                .ok()
                .map(|(n, _)| n)
        })
    });
    let Some(size) = size else {
        return fail(format!(
            "{name}: no line is a puzzle (n x n characters: 81 for 9x9, '.' or '0' a blank); \
             --input lines reads sudoku puzzles one a line"
        ));
    };
    // The rules as a puzzle file would give them, so that --set changes them as it would.
    let rules = format!("kind = \"sudoku\"\n[board]\nsize = {size}\n");
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
    let spec = match Spec::parse(name, &rules, &overrides) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let (Ok(Model::Sudoku(base)), KindSpec::Sudoku(sudoku_rules)) =
        (Model::compile(&spec), &spec.rules)
    else {
        return fail(format!("{name}: the rules of --input lines are a sudoku's"));
    };
    let goal = spec.solve.goal.unwrap_or(Goal::First);
    if !matches!(goal, Goal::First | Goal::Count) {
        return fail(format!(
            "--goal {}: --input lines answers each puzzle by a line; accepted: first (its \
             solution) or count (its number of solutions; --limit 2 tells unique puzzles)",
            goal.name()
        ));
    }
    let threads = spec
        .solve
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let task = Task {
        goal,
        unique: spec.solve.unique,
        prefixes: spec.solve.prefixes,
        threads,
        part: None,
        subpart: None,
        estimate: None,
        optimum: None,
        memory: c.memory.as_deref().and_then(|m| parse_memory(m).ok()),
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
            None => return fail("no strategy of kind sudoku takes these rules"),
        },
    };
    let mut solution_limits = limits(c.node_limit, goal, spec.solve.time_limit);
    if goal == Goal::Count {
        solution_limits.solutions = spec.solve.limit;
    }
    let mut parent = Run::new(solution_limits).with_clock(clock::clock_since(
        clock::process_start(),
        spec.solve.time_limit,
    ));
    let out: Box<dyn Write> = match &cli.out.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(format!("{path}: {e}")),
        },
        None => Box::new(std::io::stdout()),
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut tally = ManyTally::default();
    let start = std::time::Instant::now();
    let json = cli.out.format == OutputFormat::Json;
    let counted = goal == Goal::Count;
    loop {
        if batch.is_empty() {
            break;
        }
        let texts: Vec<String> = batch
            .iter()
            .map(|l| l.text.clone().unwrap_or_default())
            .collect();
        let mut answers =
            sudoku::solve_lines(&base, sudoku_rules, &strategy, &task, &mut parent, &texts);
        for (l, a) in batch.iter().zip(answers.iter_mut()) {
            if let Err(len) = l.text {
                *a = sudoku::LineAnswer::Bad(LineFault::Length {
                    found: len,
                    expected: Some(size * size),
                });
            }
            let written = if json {
                render::line_answer_json(l.number, a)
            } else {
                render::line_answer_text(a, counted)
            };
            if let Err(e) = writeln!(out, "{written}") {
                return write_failed(cli, e);
            }
            match a {
                sudoku::LineAnswer::Bad(f) => {
                    eprintln!("error: {name}:{}: {}", l.number, render::line_fault_text(f));
                }
                sudoku::LineAnswer::Failed(e) => {
                    eprintln!("error: {name}:{}: {e}", l.number);
                }
                _ => {}
            }
            tally.add(a);
        }
        if tally.stopped.is_some() {
            break;
        }
        batch = match read_batch(&mut reader, &mut number) {
            Ok(b) => b,
            Err(e) => return fail(format!("{name}: cannot read the puzzles: {e}")),
        };
    }
    if let Err(e) = out.flush() {
        return write_failed(cli, e);
    }
    if !cli.out.quiet {
        eprintln!(
            "{}",
            render::many_summary(&tally, start.elapsed(), threads, counted)
        );
    }
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

fn write_failed(cli: &SolveCli, e: std::io::Error) -> u8 {
    match &cli.out.output {
        Some(path) => fail(format!("{path}: {e}")),
        None => fail(e),
    }
}
