//! Text, JSON, SVG and DOT writers: the only code that writes sentences or formats
//! solutions. Kinds describe a solution as a [`Picture`] and their notes and reasons as their
//! own types; this module draws the pictures and says the rest.
//!
//! This file holds what the writers share (the header, the clock's pacing of a long
//! picture). The lines every format shares are in `lines.rs`, the kinds' notes and reasons in
//! words in `sentences.rs`, durations in `numbers.rs`; each output format has a file of its
//! own: `text.rs`, `json.rs`, `svg.rs`, `dot.rs` and `knuth.rs`.

use crate::engine::{StopReason, Task};
use crate::kinds::Model;
use crate::spec::Spec;
use crate::util::Packed;

mod dot;
mod json;
mod kind_refusal;
mod knuth;
mod lines;
mod many;
mod numbers;
mod parts;
mod progress;
mod refusal;
mod sentences;
mod svg;
mod text;
mod violation;

#[cfg(test)]
mod tests;

pub use crate::kinds::{ModelSummary, Picture};
pub use crate::util::numbers::{bytes, group, group_digits};
pub use dot::dot_graph;
pub use json::{write_json_head, write_json_picture, write_json_solution, write_json_tail};
pub use knuth::{
    KNUTH_NAME_MAX, NameOf, Unwritable, altogether_line, knuth_format_refused_text,
    knuth_input_check, knuth_input_note, unwritable_text, write_knuth_input, write_knuth_report,
};
pub use lines::{
    answer_line, partial_text, standing_text, stop_text, summary_line, unfinished_text,
};
pub use many::{
    LinesAfter, ManyTally, line_answer_json, line_answer_text, line_fault_text, many_summary,
};
pub use numbers::duration;
pub use parts::{
    Verdict, kept_record_note, merge_error_text, merged_answer_line, merged_json, merged_outcome,
    merged_status, merged_summary, no_records_line, part_arg, record_part_arg,
    replaced_record_note, shown, stopped_text, verify_verdict,
};
pub use progress::{progress_line, progress_line_within};
pub use refusal::{no_strategy_text, refusal_text};
pub use sentences::{note_text, reason_text, summary_text};
pub use svg::{SVG_MAX_SQUARES, svg_report, svg_report_until};
pub use text::{
    TEXT_MAX_COLUMNS, shown_text, text_picture, write_text_head, write_text_picture,
    write_text_solution, write_text_tail,
};
pub use violation::{no_graph_text, violation_text};

/// Where the clock stopped the writing of a picture: after `done` of its `of` `unit`
/// ("rows"; in JSON also "squares" of a tour, "pieces" of a placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub reason: StopReason,
    pub done: usize,
    pub of: usize,
    pub unit: &'static str,
}

/// Why a run's output is not whole, though what there is of it is well formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfinished {
    /// The writing of solution `solution` (from 1) stopped; no later one was written.
    Cut { solution: u64, at: Stop },
    /// The check of the solution found stopped before it was done: it is not shown.
    Unchecked(StopReason),
}

/// Squares a writer writes between two questions to the clock: a picture smaller than this
/// is always written whole.
const ASK_EVERY: usize = 4096;

/// A writer's questions to the clock, asked every [`ASK_EVERY`] squares.
pub(crate) struct Pacer<'s> {
    stop: &'s mut dyn FnMut() -> Option<StopReason>,
    since: usize,
}

impl<'s> Pacer<'s> {
    pub(crate) fn new(stop: &'s mut dyn FnMut() -> Option<StopReason>) -> Pacer<'s> {
        Pacer { stop, since: 0 }
    }

    /// `squares` more are about to be written: whether to stop first.
    #[inline]
    pub(crate) fn step(&mut self, squares: usize) -> Option<StopReason> {
        self.since += squares;
        if self.since < ASK_EVERY {
            return None;
        }
        self.since = 0;
        (self.stop)()
    }
}

/// The letter a stone of colour `c` prints as: X, O, then A, B, ... (the puzzle's own letters).
pub fn stone_letter(c: usize) -> char {
    const LETTERS: &[u8] = b"XOABCDEFGHIJKLMNPQRSTUVWYZ";
    LETTERS.get(c).map_or('?', |&b| b as char)
}

/// What the header of a report says about the puzzle (saved and read back with serde, as
/// [`Picture`] is).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Header {
    pub title: Option<String>,
    pub kind: String,
    pub goal: String,
    /// "solutions", or "classes under 8 symmetries" with --unique.
    pub counted: String,
    /// The board's width and height, for the kinds with a board.
    pub board: Option<(usize, usize)>,
    /// The layers of a box (a tiling's), where there are more than one.
    pub depth: Option<usize>,
}

impl Header {
    /// The header of a solve of `model`, compiled from `spec`, for `task`; `changes` lists
    /// what the command line changed (the file's title may name another size or rule).
    pub fn of(spec: &Spec, model: &Model, task: &Task, changes: &[String]) -> Header {
        let syms = match model {
            Model::Independent(m) => m.symmetry_count(),
            // A tour's symmetries are permutations of its squares, large on a large board:
            // found only when they are asked for.
            Model::Tour(m) if task.unique => m.symmetry_count(),
            Model::Tour(_) | Model::Cover(_) => 1,
            Model::Lines(m) => m.symmetries.len(),
            Model::Domination(m) => m.symmetry_count(),
            Model::Tiling(m) if task.unique => m.symmetry_count(),
            Model::Tiling(_) | Model::Sudoku(_) => 1,
        };
        Header {
            title: spec.title.as_ref().map(|t| {
                if changes.is_empty() {
                    t.clone()
                } else {
                    format!("{t} [changed on the command line: {}]", changes.join(", "))
                }
            }),
            kind: spec.kind().name().into(),
            depth: match model {
                Model::Tiling(m) if m.board.depth > 1 => Some(m.board.depth),
                _ => None,
            },
            board: match model {
                Model::Tiling(m) => Some((m.board.width, m.board.height)),
                Model::Sudoku(m) => Some((m.n(), m.n())),
                _ => spec.board.as_ref().map(|b| (b.width, b.height)),
            },
            goal: task.goal.name().into(),
            counted: if task.unique {
                format!(
                    "classes under {syms} {}",
                    if syms == 1 { "symmetry" } else { "symmetries" }
                )
            } else {
                "solutions".into()
            },
        }
    }
}

/// The squares of a tour in visiting order, from its move numbers.
pub fn tour_order(width: usize, number: &Packed) -> Vec<(usize, usize)> {
    let none = number.ones();
    let cells = number.iter().filter(|&k| k != none).count();
    let mut order = vec![(0, 0); cells];
    for (s, k) in number.iter().enumerate() {
        if k != none {
            order[k as usize] = (s / width, s % width);
        }
    }
    order
}
