//! Many puzzles a line (`--input lines`): each line's answer as one line of text or JSON, a
//! bad line's fault, and the summary of the whole file.

use std::time::Duration;

use crate::engine::StopReason;
use crate::kinds::sudoku::LineAnswer;
use crate::spec::{LineFault, SUDOKU_SYMBOLS, sudoku_cell_name};
use crate::util::numbers::group;

use super::numbers::duration;

/// A grid's symbols as one line, as the puzzle files write them.
fn grid_line(solution: &[usize]) -> String {
    solution
        .iter()
        .map(|&s| SUDOKU_SYMBOLS.get(s).map_or('?', |&b| b as char))
        .collect()
}

/// Why a line is no puzzle, in words.
pub fn line_fault_text(f: &LineFault) -> String {
    match f {
        LineFault::Length {
            found,
            expected: Some(e),
        } => format!(
            "{} characters; a puzzle of this file has {} (its first puzzle's size, or --size)",
            group(*found as u128),
            group(*e as u128)
        ),
        LineFault::Length {
            found,
            expected: None,
        } => {
            let most = SUDOKU_SYMBOLS.len();
            let n = found.isqrt();
            if n * n == *found && n > most {
                // A grid's length, of a grid larger than any taken.
                format!(
                    "{} characters, a {n}x{n} grid: the largest taken is {most}x{most} ({} \
                     characters; symbols 1 to 9, then A to Z)",
                    group(*found as u128),
                    group((most * most) as u128)
                )
            } else {
                format!(
                    "{} characters; a puzzle line has n x n (81 for 9x9), n from 1 to {most}",
                    group(*found as u128)
                )
            }
        }
        LineFault::Character { at, found, size } => format!(
            "character {} is {found:?}; accepted: the symbols of a {size}x{size} grid \
             ({}), and '.' or '0' for a blank",
            at + 1,
            symbols(*size)
        ),
        LineFault::Clash {
            size,
            cells,
            symbol,
        } => format!(
            "the givens {} and {} are both {} in one row, column or region; no grid completes \
             them",
            sudoku_cell_name(*size, cells.0),
            sudoku_cell_name(*size, cells.1),
            SUDOKU_SYMBOLS[(*symbol as usize).saturating_sub(1)] as char
        ),
    }
}

fn symbols(n: usize) -> String {
    let s = |k: usize| SUDOKU_SYMBOLS[k] as char;
    match n {
        1 => "1".into(),
        2..=9 => format!("1 to {}", s(n - 1)),
        _ => format!("1 to 9, A to {}", s(n - 1)),
    }
}

/// The line of standard output that answers a puzzle line: its first solution (goal first),
/// or its count (goal count); "no solution", "stopped", or "bad line" where there is none.
pub fn line_answer_text(a: &LineAnswer, count: bool) -> String {
    match a {
        LineAnswer::Bad(_) => "bad line".into(),
        LineAnswer::Failed(_) => "failed".into(),
        LineAnswer::Searched {
            stopped: Some(r), ..
        } if r.is_limit() => "stopped".into(),
        LineAnswer::Searched {
            count: c, capped, ..
        } if count => {
            if *capped {
                format!("{c}+")
            } else {
                c.to_string()
            }
        }
        LineAnswer::Searched {
            solution: Some(s), ..
        } => grid_line(s),
        LineAnswer::Searched { .. } => "no solution".into(),
    }
}

/// The same as one JSON object: `{"line": 12, "status": "solved", "solution": "...",
/// "count": 1, ...}`; a bad line with its error. A puzzle stopped in its search has status
/// "stopped", `complete` false, its count so far (at least so many) and `stopped` the limit
/// that stopped it; a count stopped at `--limit` is solved, `complete` false, `stopped`
/// "solution limit".
pub fn line_answer_json(line: usize, a: &LineAnswer) -> String {
    let value = match a {
        LineAnswer::Bad(f) => serde_json::json!({
            "line": line,
            "status": "bad line",
            "error": line_fault_text(f),
        }),
        LineAnswer::Failed(e) => serde_json::json!({
            "line": line,
            "status": "failed",
            "error": e.to_string(),
        }),
        LineAnswer::Searched {
            solution,
            count,
            capped,
            stopped,
            nodes,
        } => serde_json::json!({
            "line": line,
            "status": match (stopped.filter(|r| r.is_limit()), count) {
                (Some(_), _) => "stopped",
                (None, 0) => "no solution",
                (None, _) => "solved",
            },
            "solution": solution.as_deref().map(grid_line),
            "count": *count as u64,
            "complete": !capped && stopped.is_none(),
            "nodes": nodes,
            "stopped": stopped.map(super::lines::stop_text),
        }),
    };
    value.to_string()
}

/// What follows the last line answered, once a limit stopped the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinesAfter {
    /// Lines read and not answered.
    Unanswered,
    /// The input's end, reached with nothing after.
    End,
    /// Not known: the input was not read to its end.
    #[default]
    Unknown,
}

/// What a file of puzzles came to.
#[derive(Clone, Debug, Default)]
pub struct ManyTally {
    pub puzzles: u64,
    pub solved: u64,
    pub unique: u64,
    pub no_solution: u64,
    pub bad: u64,
    pub failed: u64,
    pub nodes: u64,
    /// The number of the last line answered.
    pub last_line: Option<usize>,
    /// What stopped the run before the file's end.
    pub stopped: Option<StopReason>,
    /// What follows the last line answered, where a limit stopped the run.
    pub after: LinesAfter,
}

impl ManyTally {
    /// Count the answer of line `line`.
    pub fn add(&mut self, line: usize, a: &LineAnswer) {
        self.puzzles += 1;
        self.last_line = Some(line);
        match a {
            LineAnswer::Bad(_) => self.bad += 1,
            LineAnswer::Failed(_) => self.failed += 1,
            LineAnswer::Searched {
                count,
                capped,
                stopped,
                nodes,
                ..
            } => {
                self.nodes += nodes;
                match (stopped.filter(|r| r.is_limit()), count) {
                    (Some(r), _) => self.stopped = self.stopped.or(Some(r)),
                    (None, 0) => self.no_solution += 1,
                    (None, c) => {
                        self.solved += 1;
                        if *c == 1 && !capped {
                            self.unique += 1;
                        }
                    }
                }
            }
        }
    }
}

/// The summary line: "49,151 puzzles in 1.02 s (48,190 a second, 2 threads): 49,151 solved",
/// the puzzles being the lines answered.
pub fn many_summary(t: &ManyTally, elapsed: Duration, threads: usize, counted: bool) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mut s = format!(
        "{} {} in {} ({} a second, {threads} {}): {} solved",
        group(t.puzzles as u128),
        if t.puzzles == 1 { "puzzle" } else { "puzzles" },
        duration(elapsed.as_secs_f64()),
        group((t.puzzles as f64 / secs).round() as u128),
        if threads == 1 { "thread" } else { "threads" },
        group(t.solved as u128)
    );
    if counted {
        s.push_str(&format!(" ({} with one solution)", group(t.unique as u128)));
    }
    for (n, one, many) in [
        (t.no_solution, "without a solution", "without a solution"),
        (t.bad, "bad line", "bad lines"),
        (t.failed, "failed", "failed"),
    ] {
        if n > 0 {
            let what = if n == 1 { one } else { many };
            s.push_str(&format!(", {} {what}", group(n as u128)));
        }
    }
    s.push_str(&format!(", {} nodes", group(t.nodes as u128)));
    if let Some(r) = t.stopped {
        let why = super::lines::stop_text(r);
        // Later lines are named only where the reader holds some; at the input's end there
        // are none, and an input not read to its end may or may not have more.
        s.push_str(&match (t.last_line, t.after) {
            (_, LinesAfter::End) => format!("; stopped ({why})"),
            (None, _) => format!("; stopped ({why}): no line answered"),
            (Some(l), LinesAfter::Unanswered) => format!(
                "; stopped ({why}) before the file's end: the lines after line {} not answered",
                group(l as u128)
            ),
            (Some(l), LinesAfter::Unknown) => format!(
                "; stopped ({why}): the lines after line {}, if any, not read",
                group(l as u128)
            ),
        });
    }
    s
}
