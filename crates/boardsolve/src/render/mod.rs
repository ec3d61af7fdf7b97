//! Text, JSON and SVG writers: the only code that formats solutions. Kinds describe a
//! solution as a [`Picture`]; this module draws pictures and summaries.
//!
//! This file holds the picture itself and the lines every format shares: the answer line,
//! the summary line, notes and partial results as text, and number formatting. Each output
//! format has a file of its own: `text.rs`, `json.rs`, `svg.rs`, `dot.rs` and `knuth.rs`.

use std::fmt::Write as _;

use crate::engine::{
    BlockLayout, ClassRule, Note, Outcome, Partial, PartialWork, Reason, Standing, Status,
    StopReason, TourCounting,
};
use crate::util::Packed;

mod dot;
mod json;
mod knuth;
mod parts;
mod progress;
mod refusal;
mod svg;
mod text;

pub use crate::util::numbers::{bytes, group, group_digits};
pub use dot::dot_graph;
pub use json::{write_json_head, write_json_picture, write_json_solution, write_json_tail};
pub use knuth::{
    KNUTH_NAME_MAX, NameOf, Unwritable, altogether_line, knuth_input_check, knuth_input_note,
    unwritable_text, write_knuth_input, write_knuth_report,
};
pub use parts::{
    Verdict, merge_error_text, merged_answer_line, merged_json, merged_outcome, merged_status,
    merged_summary, no_records_line, part_arg, record_part_arg, shown, stopped_text,
    verify_verdict,
};
pub use progress::progress_line;
pub use refusal::refusal_text;
pub use svg::{SVG_MAX_SQUARES, svg_report};
pub use text::{
    TEXT_MAX_COLUMNS, shown_text, text_picture, write_text_head, write_text_picture,
    write_text_solution, write_text_tail,
};

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

/// What the reader must know when the output is not whole: "output stopped at the time
/// limit after 1,234 of 8,000 rows", "... of solution 3".
pub fn unfinished_text(u: &Unfinished) -> String {
    match u {
        Unfinished::Cut { solution, at } => {
            let mut s = format!(
                "output stopped {} after {} of {} {}",
                match at.reason {
                    StopReason::Time => "at the time limit".to_string(),
                    StopReason::Interrupted => "by an interrupt".to_string(),
                    other => format!("by the {}", stop_text(other)),
                },
                group(at.done as u128),
                group(at.of as u128),
                at.unit
            );
            if *solution > 1 {
                let _ = write!(s, " of solution {}", group(*solution as u128));
            }
            s
        }
        Unfinished::Unchecked(r) => format!(
            "the solution found is not shown: {} came before its check was done",
            match r {
                StopReason::Time => "the time limit".to_string(),
                StopReason::Interrupted => "an interrupt".to_string(),
                other => format!("the {}", stop_text(*other)),
            }
        ),
    }
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

/// A solution, described for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    /// Pieces on squares (index = row * width + col).
    Placement {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        pieces: Vec<(usize, char)>,
    },
    /// Pieces of one symbol, at most one a row, on a board without holes: the column of each
    /// row's piece (all ones for a row without one), packed, so that 10^7 queens cost 24
    /// bits a row and the board nothing per square.
    OnePerRow {
        width: usize,
        height: usize,
        symbol: char,
        cols: Packed,
        /// Rows holding a piece.
        pieces: usize,
    },
    /// Chosen options of an exact cover, each as its item names (with colours).
    Options(Vec<Vec<String>>),
    /// A tour: the move number of each square (0-based; all ones on holes), packed, so the
    /// largest boards cost ceil(log2(squares + 1)) bits a square (10^8 squares: 27).
    Tour {
        width: usize,
        height: usize,
        number: Packed,
        closed: bool,
        /// Squares on the board (not holes): a valid tour's widest number.
        cells: usize,
    },
    /// Stones of several colours (kind lines): `stones[sq]` is 0 for none, `c + 1` for a
    /// stone of colour `c`, named `colors[c]`.
    Stones {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        stones: Vec<usize>,
        colors: Vec<String>,
    },
}

/// The letter a stone of colour `c` prints as: X, O, then A, B, ... (the puzzle's own letters).
pub fn stone_letter(c: usize) -> char {
    const LETTERS: &[u8] = b"XOABCDEFGHIJKLMNPQRSTUVWYZ";
    LETTERS.get(c).map_or('?', |&b| b as char)
}

/// What the header of a report says about the puzzle.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub title: Option<String>,
    pub kind: String,
    pub goal: String,
    /// "solutions", or "classes under 8 symmetries" with --unique.
    pub counted: String,
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

/// Two sizes said so that they read apart: with the exact bytes when they round alike.
fn bytes_apart(a: u64, b: u64) -> (String, String) {
    let (x, y) = (bytes(a), bytes(b));
    if x == y && a != b {
        (
            format!("{x} ({} bytes)", group(a as u128)),
            format!("{y} ({} bytes)", group(b as u128)),
        )
    } else {
        (x, y)
    }
}

pub fn duration(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else if secs < 3600.0 {
        format!("{secs:.2} s")
    } else if secs < 48.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.0} days", secs / 86400.0)
    }
}

/// "solutions" or "classes under 8 symmetries", singular for one.
fn counted_noun(h: &Header, c: u128) -> String {
    if c == 1 {
        h.counted
            .replacen("solutions", "solution", 1)
            .replacen("classes", "class", 1)
    } else {
        h.counted.clone()
    }
}

/// The answer line on standard output ("92 solutions", "optimum 14 (proven)").
pub fn answer_line(h: &Header, o: &Outcome) -> String {
    let mut s = match (o.answer.optimum, o.answer.count) {
        // Goal count of an optimisation kind: how many optimal solutions, and the optimum.
        (Some(v), Some(c)) if o.status == Status::Part => {
            let what = counted_noun(h, c);
            format!("{} {what} of {v} pieces in this part", group(c))
        }
        (Some(v), Some(c)) if o.status != Status::Limit => {
            let what = counted_noun(h, c);
            format!("{} {what} of optimum {v} (proven)", group(c))
        }
        (Some(v), _) => format!(
            "optimum {v} ({})",
            if matches!(o.status, Status::Limit | Status::Part) {
                "best found, not proven"
            } else {
                "proven"
            }
        ),
        (None, Some(c)) => {
            let what = counted_noun(h, c);
            if o.status == Status::Part {
                format!("{} {what} in this part", group(c))
            } else if o.status == Status::Limit && c == 0 {
                "stopped before any was counted".to_string()
            } else if o.status == Status::Limit {
                format!("at least {} {what} (stopped: not all found)", group(c))
            } else {
                format!("{} {what}", group(c))
            }
        }
        (None, None) => match &o.answer.big {
            Some(big) => format!("{} {}", group_digits(&big.to_string()), h.counted),
            None => String::new(),
        },
    };
    if o.status == Status::NoSolution {
        s = "no solution".to_string();
        if let Some(r) = &o.answer.reason {
            let _ = write!(s, ": {}", reason_text(r));
        }
    }
    if let Some(p) = &o.answer.partial {
        let _ = write!(s, " [{}]", partial_text(p));
    }
    if let (Status::Limit, Some(r)) = (o.status, o.stopped) {
        let _ = write!(s, " [{}]", stop_text(r));
    }
    s
}

/// A number of nodes in three significant figures: "2.49e8", "25746", "25.7".
fn sci(x: f64) -> String {
    if !x.is_finite() {
        "unbounded".into()
    } else if x >= 1e6 {
        format!("{x:.2e}")
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// What a part or estimate did, for the answer line: "part 3/8: 22 of 171 subtrees below 52
/// (list 13fde5254d0f85c1) searched: none smaller than 52 in them".
pub fn partial_text(p: &Partial) -> String {
    let l = &p.list;
    let below = match l.bar {
        Some(b) => format!(" below {b}"),
        None => String::new(),
    };
    let mut what = match (p.part, &p.subpart) {
        (Some((i, n)), Some(sub)) => {
            let (j, m) = sub.index;
            format!(
                "part {i}/{n},{j}/{m}: {} of the {} descendants of {} of {} subtrees{below} \
                 (list {:016x}, sublist {:016x})",
                p.taken,
                sub.descendants,
                sub.of_subtrees,
                l.subtrees,
                l.fingerprint,
                sub.fingerprint
            )
        }
        (Some((i, n)), None) => format!(
            "part {i}/{n}: {} of {} subtrees{below} (list {:016x})",
            p.taken, l.subtrees, l.fingerprint
        ),
        (None, _) => format!("{} subtrees{below}", l.subtrees),
    };
    match p.work {
        PartialWork::Searched { none_below } => {
            let _ = write!(what, " searched: none smaller than {none_below} in them");
        }
        PartialWork::Counted => what.push_str(" searched: their solutions counted"),
        PartialWork::SearchedAbove { none_above } => {
            let _ = write!(what, " searched: none larger than {none_above} in them");
        }
        PartialWork::NotAllSearched => what.push_str(", not all searched"),
        PartialWork::StoppedBeforeDescendants => what.push_str(", stopped before its children"),
        PartialWork::Estimated(None) => {
            what = format!("estimate, {what}: stopped before the first probe ended");
        }
        PartialWork::Estimated(Some(e)) => {
            what = format!(
                "estimate, {what}: about {} nodes (Knuth, {} probes, standard error {:.0}%), {} \
                 of one thread's work, {} on {} thread{}",
                sci(e.nodes),
                e.probes,
                e.relative_error * 100.0,
                duration(e.work_seconds),
                duration(e.work_seconds / e.threads as f64),
                e.threads,
                if e.threads == 1 { "" } else { "s" },
            );
        }
    }
    what
}

/// A note for the summary line.
pub fn note_text(n: &Note) -> String {
    match n {
        Note::SymmetryFold(k) => format!("{k}-fold symmetry"),
        Note::SolutionsInAll(t) => format!("{} solutions in all", group(*t)),
        Note::RootBound(b) => format!("root bound {b}"),
        Note::NodeLimitPassed { limit } => format!(
            "node limit {} passed: the strategy stops only between steps of several nodes",
            group(*limit as u128)
        ),
        Note::OptimalCounted(v) => format!("optimal placements of {v} pieces counted"),
        Note::NotProvenMinimal(k) => {
            format!("{k} pieces, not proven minimal (goal minimize proves)")
        }
        Note::TourCount(TourCounting::ClosedUndirected) => {
            "closed tours counted as undirected cycles".into()
        }
        Note::TourCount(TourCounting::DirectedFrom(square)) => {
            format!("directed tours from {square}")
        }
        Note::TourCount(TourCounting::DirectedEveryStart) => {
            "directed tours from every start".into()
        }
        Note::Divided { layout, exists_by } => {
            let shape = match layout {
                BlockLayout::Grid { rows, cols } => format!("{rows} x {cols} blocks"),
                BlockLayout::Chain { height } => format!("a chain of blocks {height} high"),
                BlockLayout::Strip => "1 strip".into(),
            };
            match exists_by {
                Some(why) => format!("{shape}; exists by {why}"),
                None => shape,
            }
        }
        Note::HandedOver { from, to, tried } => {
            format!("{from} gave up after {tried} moves tried; handed over to {to}")
        }
        Note::FrontierOutgrew {
            at,
            index,
            squares,
            input,
            done,
            made,
            needed,
            budget,
        } => {
            let share = if done < input {
                format!(
                    " from {:.0}% of the {} states before it",
                    100.0 * *done as f64 / (*input).max(1) as f64,
                    group(*input as u128)
                )
            } else {
                format!(" from the {} states before it", group(*input as u128))
            };
            let over = match budget {
                Some(b) => {
                    let (n, b) = bytes_apart(*needed, *b);
                    format!("about {n}, more than the memory budget of {b} (--memory)")
                }
                None => format!("about {}, more than the system gave", bytes(*needed)),
            };
            format!(
                "the frontier outgrew the memory at square {at} ({index} of {squares}): {} new \
                 states{share}; the square would need {over}",
                group(*made as u128)
            )
        }
        Note::EndPairs { sweeps, pairs } => format!(
            "summed over {} pairs of ends ({} counted, the others their mirror images)",
            group(*pairs as u128),
            group(*sweeps as u128)
        ),
        Note::MemoryShort { what, bytes: b } => {
            format!(
                "{what} would take {}, which the system did not give",
                bytes(*b)
            )
        }
        Note::BudgetReached { what, budget } => {
            format!(
                "{what} reached the memory budget of {} (--memory)",
                bytes(*budget)
            )
        }
    }
}

/// What a compiled puzzle holds, for `check`, `strategies` and `compare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSummary {
    /// `count` pieces of `piece` (Betza), none attacking another.
    Independent {
        count: usize,
        piece: String,
        width: usize,
        height: usize,
    },
    /// The fewest `piece`s covering the board.
    Domination {
        piece: String,
        width: usize,
        height: usize,
        holes: bool,
        independent: bool,
    },
    /// A tour of the board's `cells` squares.
    Tour {
        closed: bool,
        piece: String,
        cells: usize,
        start: Option<String>,
        width: usize,
        height: usize,
        holes: bool,
    },
    /// `per_color` stones of each colour, at most `max_per_line` of one on a line.
    Lines {
        per_color: usize,
        colors: Vec<String>,
        width: usize,
        height: usize,
        max_per_line: usize,
        lines: usize,
        /// Lines that can hold more than their share (the others are full by the totals).
        active: usize,
    },
    /// A generic exact cover.
    Cover {
        items: usize,
        primary: usize,
        options: usize,
    },
}

/// The one line on what a puzzle holds: "8 x Q on a 8x8 board".
pub fn summary_text(m: &ModelSummary) -> String {
    match m {
        ModelSummary::Independent {
            count,
            piece,
            width,
            height,
        } => format!("{count} x {piece} on a {width}x{height} board"),
        ModelSummary::Domination {
            piece,
            width,
            height,
            holes,
            independent,
        } => format!(
            "{piece} on a {width}x{height} board{}{}",
            if *holes { " with holes" } else { "" },
            if *independent { ", independent" } else { "" }
        ),
        ModelSummary::Tour {
            closed,
            piece,
            cells,
            start,
            width,
            height,
            holes,
        } => format!(
            "{} {piece} tour of {cells}{}{} on a {width}x{height} board{}",
            if *closed { "closed" } else { "open" },
            if *cells == 1 { " square" } else { " squares" },
            start
                .as_ref()
                .map(|s| format!(" from {s}"))
                .unwrap_or_default(),
            if *holes { " with holes" } else { "" }
        ),
        ModelSummary::Lines {
            per_color,
            colors,
            width,
            height,
            max_per_line,
            lines,
            active,
        } => {
            let mut s = format!(
                "{per_color} x {} on a {width}x{height} board, at most {max_per_line} of a \
                 colour on each of {lines} lines",
                colors.join(" + ")
            );
            if active < lines {
                let _ = write!(s, " ({active} can be overfull)");
            }
            s
        }
        ModelSummary::Cover {
            items,
            primary,
            options,
        } => format!("{items} items ({primary} primary), {options} options"),
    }
}

/// Why a search stopped, in a word or two.
pub fn stop_text(r: StopReason) -> &'static str {
    match r {
        StopReason::Time => "time limit",
        StopReason::Nodes => "node limit",
        StopReason::Solutions => "solution limit",
        StopReason::Interrupted => "interrupted",
        StopReason::Sink => "stopped by caller",
        StopReason::Memory => "memory bound",
    }
}

/// Why there is no solution, in words: the theorem or the argument.
pub fn reason_text(r: &Reason) -> String {
    match r {
        Reason::ClosedSingleSquare => "a closed tour needs a move from the last square back to \
            the first, and a board of one square has none"
            .into(),
        Reason::ClosedNoReturn => {
            "a closed tour needs a move from the last square back to the first".into()
        }
        Reason::SchwenkOdd { size, squares } => format!(
            "Schwenk's theorem: both sides of {size} are odd; a knight changes colour at every \
             move, so a closed tour needs as many light as dark squares, and {size} has \
             {squares} squares"
        ),
        Reason::SchwenkNarrow { size } => format!(
            "Schwenk's theorem: no closed knight's tour on a board with a side of 1 or 2 \
             ({size})"
        ),
        Reason::SchwenkSideFour { size } => format!(
            "Schwenk's theorem: no closed knight's tour on a board with a side of 4 ({size}): \
             the outer rows' squares move only to inner rows, so a closed tour would alternate \
             outer and inner rows and, by colour, visit only one colour in the outer rows"
        ),
        Reason::SchwenkThreeRows { size } => {
            format!("Schwenk's theorem: 3x4, 3x6 and 3x8 have no closed knight's tour ({size})")
        }
        Reason::OpenTable { size } => format!(
            "no open knight's tour on {size}: open tours exist exactly on 1x1, 3x4, 3xn for n \
             >= 7, 4xn for n >= 5, and boards with both sides at least 5"
        ),
        Reason::OpenStartColour {
            size,
            squares,
            start,
        } => format!(
            "{size} has {squares} squares, one more of the corners' colour than of the other; a \
             knight changes colour at every move, so an open tour starts and ends on the \
             corners' colour, and {start} is not"
        ),
        Reason::OpenCentreOf3x7 { start } => format!(
            "no open knight's tour of 3x7 starts on the centre square {start} (exhaustive search)"
        ),
        Reason::OpenEndsOf3x4 { size, start } => format!(
            "on {size} open knight's tours start only on the two end lines of the long side; \
             {start} is not on them (exhaustive search)"
        ),
        Reason::OpenThirdOf3x8 { size, start } => format!(
            "no open knight's tour of {size} starts on {start}, the third square from either \
             end of the middle line (exhaustive search)"
        ),
        Reason::OpenInnerLineOf4 { start } => format!(
            "on a board with a side of 4 both ends of every open knight's tour lie on the two \
             outer lines (Schwenk's argument: outer squares of one colour move only to inner \
             squares of the other, and an inner end leaves one side short of moves); {start} \
             is on an inner line"
        ),
        Reason::GraphSplit { piece, parts } => format!(
            "the {piece} move graph falls into {parts} parts, so no tour reaches every square"
        ),
        Reason::ClosedDeadEnd { square, moves } => format!(
            "square {square} has {moves} move(s); a closed tour enters and leaves every square"
        ),
        Reason::TooManyEnds { squares, free } => format!(
            "squares {} have one move each, so each must end the tour, and a tour has {free} \
             free end(s)",
            squares.join(", ")
        ),
        Reason::Classes {
            piece,
            sizes: (p, q),
            rule,
        } => {
            let what =
                format!("the {piece} moves alternate between two classes of squares ({p} and {q})");
            match rule {
                ClassRule::ClosedNeedsEqual => format!("{what}; a closed tour needs them equal"),
                ClassRule::DifferByOne => {
                    format!("{what}; a tour needs them to differ by at most 1")
                }
                ClassRule::StartInSmaller(start) => format!(
                    "{what}; a tour then starts and ends in the larger class, and {start} is in \
                     the smaller"
                ),
            }
        }
        Reason::SearchFoundNone => "exhaustive search found none".into(),
        Reason::CountIsZero => "the exhaustive count is 0".into(),
        Reason::StonesExceedSquares {
            colours,
            per_colour,
            squares,
        } => format!(
            "{colours} colours x {per_colour} stones = {} stones do not fit on {squares} squares",
            colours * per_colour
        ),
        Reason::StonesExceedLines {
            per_colour,
            lines,
            columns,
            max_per_line,
            room,
        } => format!(
            "{per_colour} stones of one colour do not fit in {lines} {} of at most \
             {max_per_line} each (room for {room})",
            if *columns { "columns" } else { "rows" }
        ),
        Reason::NoIndependentCover => {
            "no placement of non-attacking pieces covers the board".into()
        }
        Reason::Bug(what) => what.clone(),
    }
}

/// Where a search stands, for the progress line: "best 40, bound 34, subtrees done 37/102",
/// "best 14 (local search)", "bound 12, branch 2/3 1/4", "probes 150/4000 (this worker's)".
pub fn standing_text(s: &Standing) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(b) = s.best {
        parts.push(match s.found_by {
            Some(by) => format!("best {b} ({by})"),
            None => format!("best {b}"),
        });
    }
    if let Some(b) = s.bound {
        parts.push(format!("bound {b}"));
    }
    if let Some((done, of)) = s.subtrees {
        parts.push(format!("subtrees done {done}/{of}"));
    }
    let branches: Vec<String> = s
        .branch
        .iter()
        .take_while(|(_, of)| *of > 0)
        .map(|(k, of)| format!("{k}/{of}"))
        .collect();
    if !branches.is_empty() {
        parts.push(format!("branch {}", branches.join(" ")));
    }
    if let Some((done, of)) = s.probes {
        parts.push(format!("probes {done}/{of} (this worker's)"));
    }
    parts.join(", ")
}

/// The one summary line on standard error: `92 solutions | bitmask | 1,965 nodes | 0.4 ms`.
pub fn summary_line(h: &Header, o: &Outcome) -> String {
    let mut parts = vec![answer_line(h, o), o.strategy.clone()];
    parts.push(format!("{} nodes", group(o.stats.nodes as u128)));
    for (name, v) in &o.stats.counters {
        parts.push(format!("{} {name}", group(*v as u128)));
    }
    parts.push(duration(o.elapsed.as_secs_f64()));
    for n in &o.answer.notes {
        parts.push(note_text(n));
    }
    parts.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn standing_says_what_the_search_said() {
        let line = |s: Standing| standing_text(&s);
        let none = Standing::default();
        assert_eq!(line(none), "");
        assert_eq!(
            line(Standing {
                best: Some(40),
                bound: Some(34),
                subtrees: Some((37, 102)),
                ..none
            }),
            "best 40, bound 34, subtrees done 37/102"
        );
        assert_eq!(
            line(Standing {
                best: Some(14),
                found_by: Some("local search"),
                ..none
            }),
            "best 14 (local search)"
        );
        assert_eq!(
            line(Standing {
                bound: Some(12),
                branch: [(2, 3), (1, 4)],
                ..none
            }),
            "bound 12, branch 2/3 1/4"
        );
        assert_eq!(
            line(Standing {
                branch: [(2, 3), (0, 0)],
                probes: Some((150, 4000)),
                ..none
            }),
            "branch 2/3, probes 150/4000 (this worker's)"
        );
    }

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1965), "1,965");
        assert_eq!(group(14_772_512), "14,772,512");
    }

    #[test]
    fn placement_text() {
        let p = Picture::Placement {
            width: 3,
            height: 2,
            holes: vec![false, false, true, false, false, false],
            pieces: vec![(0, 'N'), (5, 'N')],
        };
        assert_eq!(text_picture(&p), "N . #\n. . N\n");
    }

    #[test]
    fn tour_text_is_right_aligned_from_one() {
        let p = Picture::Tour {
            width: 4,
            height: 3,
            number: Packed::from_slice(&[0, 3, 6, 9, 7, 10, 1, 4, 2, 5, 8, u32::MAX], 4),
            closed: false,
            cells: 11,
        };
        assert_eq!(text_picture(&p), " 1  4  7 10\n 8 11  2  5\n 3  6  9  #\n");
        assert_eq!(
            tour_order(
                4,
                match &p {
                    Picture::Tour { number, .. } => number,
                    _ => unreachable!(),
                }
            )[..3],
            [(0, 0), (1, 2), (2, 0)]
        );
    }

    /// A tour of 100x100 numbered row by row (the writers do not check it).
    fn wide_tour() -> Picture {
        let numbers: Vec<u32> = (0..10_000).collect();
        Picture::Tour {
            width: 100,
            height: 100,
            number: Packed::from_slice(&numbers, 14),
            closed: false,
            cells: 10_000,
        }
    }

    /// A `stop` that says stop the `n`-th time it is asked.
    fn stop_at(n: usize) -> impl FnMut() -> Option<StopReason> {
        let mut asked = 0;
        move || {
            asked += 1;
            (asked == n).then_some(StopReason::Time)
        }
    }

    #[test]
    fn a_picture_written_under_a_clock_stops_between_rows() {
        let p = wide_tour();
        let mut buf = Vec::new();
        let stop = write_text_picture(&mut buf, &p, &mut stop_at(2)).unwrap();
        let stop = stop.expect("stopped");
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            (stop.reason, stop.of, stop.unit),
            (StopReason::Time, 100, "rows")
        );
        assert!(stop.done > 0 && stop.done < 100, "{stop:?}");
        assert_eq!(text.lines().count(), stop.done);
        assert!(text.ends_with('\n'));
        // Whole when nothing says stop, and a small picture never asks.
        let mut buf = Vec::new();
        assert_eq!(
            write_text_picture(&mut buf, &p, &mut || None).unwrap(),
            None
        );
        assert_eq!(buf.iter().filter(|&&b| b == b'\n').count(), 100);
        let small = Picture::Placement {
            width: 8,
            height: 8,
            holes: vec![false; 64],
            pieces: vec![(3, 'Q')],
        };
        let mut never = || -> Option<StopReason> { panic!("asked") };
        write_text_picture(&mut Vec::new(), &small, &mut never).unwrap();
        write_json_picture(&mut Vec::new(), &small, &mut never).unwrap();
    }

    #[test]
    fn a_tour_in_json_stopped_midway_is_closed_valid_json() {
        let p = wide_tour();
        // The first questions come while the visiting order is made: stop once it is
        // written from.
        let mut buf = Vec::new();
        let stop = write_json_picture(&mut buf, &p, &mut stop_at(4))
            .unwrap()
            .expect("stopped");
        assert_eq!((stop.unit, stop.of), ("squares", 10_000));
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        let squares = v.as_array().unwrap();
        assert_eq!(squares.len(), stop.done);
        assert!(stop.done > 0 && stop.done < 10_000, "{stop:?}");
        assert_eq!(squares[1], json!([0, 1]));
        // Stopped while the order is made: an empty array.
        let mut buf = Vec::new();
        let stop = write_json_picture(&mut buf, &p, &mut stop_at(1)).unwrap();
        assert_eq!(stop.map(|s| s.done), Some(0));
        assert_eq!(buf, b"[]");
    }

    /// Queens on the diagonals' knight steps: row r in column 2r mod n; one row left empty.
    fn one_per_row(n: usize) -> Picture {
        let bits = Packed::width_for(n);
        let mut cols = Packed::new(n, bits);
        for r in 0..n {
            cols.set(r, (2 * r % n) as u32);
        }
        cols.set(1, u32::MAX);
        Picture::OnePerRow {
            width: n,
            height: n,
            symbol: 'Q',
            cols,
            pieces: n - 1,
        }
    }

    #[test]
    fn one_piece_a_row_is_drawn_when_narrow_and_listed_when_wide() {
        assert_eq!(text_picture(&one_per_row(3)), "Q . .\n. . .\n. Q .\n");
        let text = text_picture(&one_per_row(100));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 101);
        assert_eq!(
            lines[0],
            "One line per row from the top: the column of its Q, counted from 0 at the left, as \
             [row, col] in puzzle files and JSON; - for a row without one"
        );
        assert_eq!(&lines[1..5], ["0", "-", "4", "6"]);
        assert_eq!(lines[100], "98");
        let mut buf = Vec::new();
        write_json_picture(&mut buf, &one_per_row(100), &mut || None).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 99);
        assert_eq!(v[1], json!([2, 4]));
    }

    #[test]
    fn a_wide_placement_is_listed_by_row() {
        let p = Picture::Placement {
            width: 70,
            height: 3,
            holes: vec![false; 210],
            pieces: vec![(0, 'K'), (69, 'K'), (140, 'K')],
        };
        assert_eq!(
            text_picture(&p),
            "One line per row from the top: the columns of its Ks, counted from 0 at the left, \
             as [row, col] in puzzle files and JSON; - for a row without one\n0 69\n-\n0\n"
        );
    }

    #[test]
    fn a_long_list_stops_with_the_clock_and_stays_well_formed() {
        let p = one_per_row(20_000);
        let mut buf = Vec::new();
        let stop = write_text_picture(&mut buf, &p, &mut stop_at(2))
            .unwrap()
            .expect("stopped");
        assert_eq!((stop.unit, stop.of), ("rows", 20_000));
        assert!(stop.done > 0 && stop.done < 20_000, "{stop:?}");
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.lines().count(), stop.done + 1);
        assert!(text.ends_with('\n'));
        let mut buf = Vec::new();
        let stop = write_json_picture(&mut buf, &p, &mut stop_at(3))
            .unwrap()
            .expect("stopped");
        assert_eq!((stop.unit, stop.of), ("pieces", 19_999));
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v.as_array().unwrap().len(), stop.done);
        assert!(stop.done > 0 && stop.done < 19_999, "{stop:?}");
    }

    #[test]
    fn unfinished_output_says_where_it_stopped() {
        let at = Stop {
            reason: StopReason::Time,
            done: 1234,
            of: 8000,
            unit: "rows",
        };
        assert_eq!(
            unfinished_text(&Unfinished::Cut { solution: 1, at }),
            "output stopped at the time limit after 1,234 of 8,000 rows"
        );
        let at = Stop {
            reason: StopReason::Interrupted,
            ..at
        };
        assert_eq!(
            unfinished_text(&Unfinished::Cut { solution: 3, at }),
            "output stopped by an interrupt after 1,234 of 8,000 rows of solution 3"
        );
        assert_eq!(
            unfinished_text(&Unfinished::Unchecked(StopReason::Time)),
            "the solution found is not shown: the time limit came before its check was done"
        );
    }

    #[test]
    fn stones_text_and_json() {
        let p = Picture::Stones {
            width: 3,
            height: 2,
            holes: vec![false, true, false, false, false, false],
            stones: vec![1, 0, 2, 0, 3, 0],
            colors: vec!["black".into(), "white".into(), "red".into()],
        };
        assert_eq!(text_picture(&p), "X # O\n. A .\n");
        let mut buf = Vec::new();
        write_json_picture(&mut buf, &p, &mut || None).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v, json!([[0, -1, 1], [-1, 2, -1]]));
    }
}
