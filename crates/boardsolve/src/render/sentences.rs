//! The kinds' words in sentences: each kind's notes and reasons (carried by the engine as
//! [`Note`] and [`Reason`]) and the one line on what a compiled puzzle holds.

use std::fmt::Write as _;

use super::numbers::{article, counted, noun};
use crate::engine::{Note, Reason, RunNote};
use crate::kinds::domination::{DominationNote, DominationReason};
use crate::kinds::exact_cover::MemoNote;
use crate::kinds::lines::LinesReason;
use crate::kinds::tiling::TilingNote;
use crate::kinds::tour::{BlockLayout, ClassRule, TourBug, TourCounting, TourNote, TourReason};
use crate::kinds::{CountNote, GridRegions, ModelSummary};
use crate::util::numbers::{bytes, bytes_apart, group};

/// A note for the summary line, in the words of the kind (or the engine) that gave it.
pub fn note_text(n: &Note) -> String {
    if let Some(n) = n.get::<RunNote>() {
        run_note(n)
    } else if let Some(n) = n.get::<CountNote>() {
        count_note(n)
    } else if let Some(n) = n.get::<TourNote>() {
        tour_note(n)
    } else if let Some(n) = n.get::<DominationNote>() {
        domination_note(n)
    } else if let Some(n) = n.get::<MemoNote>() {
        cover_note(n)
    } else if let Some(n) = n.get::<TilingNote>() {
        tiling_note(n)
    } else {
        // A kind whose words render does not know yet: what it holds is still worth saying.
        format!("{n:?}")
    }
}

/// Why there is no solution, in words: the theorem or the argument.
pub fn reason_text(r: &Reason) -> String {
    if let Some(r) = r.get::<TourReason>() {
        tour_reason(r)
    } else if let Some(r) = r.get::<LinesReason>() {
        lines_reason(r)
    } else if let Some(r) = r.get::<DominationReason>() {
        domination_reason(r)
    } else {
        format!("{r:?}")
    }
}

fn domination_reason(r: &DominationReason) -> String {
    match *r {
        DominationReason::NoCover {
            independent,
            counts,
            givens,
        } => {
            // Name only the rules the puzzle has: without them a piece on every square
            // covers the board, so they are what rules a cover out.
            let pieces = if independent {
                "non-attacking pieces"
            } else {
                "the pieces"
            };
            let within = match (counts, givens) {
                (true, true) => " within their counts and holding the givens",
                (true, false) => " within their counts",
                (false, true) => " holding the givens",
                (false, false) => "",
            };
            format!("no placement of {pieces}{within} covers the board")
        }
    }
}

fn tiling_note(n: &TilingNote) -> String {
    match n {
        TilingNote::Restricted {
            piece,
            kept,
            placements,
            symmetries,
            symmetric,
        } => {
            let mut s = format!(
                "classes under the board's {symmetries} symmetries: piece {piece} kept to {kept} \
                 of its {placements} placements, one of each orbit, so every class has a member \
                 with {piece} there"
            );
            if *symmetric == 0 {
                s.push_str(
                    "; no symmetry fixes a kept placement, so no two solutions counted are alike",
                );
            } else {
                let _ = write!(
                    s,
                    "; {symmetric} kept {} fixed by a symmetry, and a solution through one is \
                     counted only where it is the least of its images",
                    noun(*symmetric as u128, "placement is", "placements are")
                );
            }
            s
        }
        TilingNote::Canonical { symmetries } => format!(
            "classes under the board's {symmetries} symmetries: no piece stands alone (one copy, \
             mapped to itself by every symmetry) to keep to one orbit, so each solution was \
             compared with its images"
        ),
        TilingNote::NoSymmetry => {
            "the puzzle has no symmetry but the identity: every solution is its own class".into()
        }
    }
}

fn run_note(n: &RunNote) -> String {
    match n {
        RunNote::NodeLimitPassed { limit } => format!(
            "node limit {} passed: the strategy stops only between steps of several nodes",
            group(*limit as u128)
        ),
    }
}

fn count_note(n: &CountNote) -> String {
    match n {
        CountNote::SymmetryFold(k) => format!("{k}-fold symmetry"),
        CountNote::SolutionsInAll(t) => format!("{} in all", counted(*t, "solution", "solutions")),
        CountNote::LargestCounted(v) => format!(
            "largest placements, of {v} {}, counted",
            noun((*v).into(), "piece", "pieces")
        ),
    }
}

fn tour_note(n: &TourNote) -> String {
    match n {
        TourNote::TourCount(TourCounting::ClosedUndirected) => {
            "closed tours counted as undirected cycles".into()
        }
        TourNote::TourCount(TourCounting::DirectedFrom(square)) => {
            format!("directed tours from {square}")
        }
        TourNote::TourCount(TourCounting::DirectedEveryStart) => {
            "directed tours from every start".into()
        }
        TourNote::Divided { layout, exists_by } => {
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
        TourNote::HandedOver { from, to, tried } => {
            format!(
                "{from} gave up after {tried} {} tried; handed over to {to}",
                noun((*tried).into(), "move", "moves")
            )
        }
        TourNote::FrontierOutgrew {
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
        TourNote::EndPairs { sweeps, pairs } => format!(
            "summed over {} of ends ({} counted, the others their mirror images)",
            counted(*pairs as u128, "pair", "pairs"),
            group(*sweeps as u128)
        ),
        TourNote::MemoryShort { what, bytes: b } => {
            format!(
                "{what} would take {}, which the system did not give",
                bytes(*b)
            )
        }
        TourNote::Spilled {
            dir,
            squares,
            runs,
            peak,
            written,
            read,
        } => {
            let in_runs = if *runs > 0 {
                format!(" in {}", counted(*runs as u128, "run", "runs"))
            } else {
                String::new()
            };
            // A path from the command line or the environment: one line, whatever it holds.
            let dir = super::parts::shown(dir);
            // No square of its own: a square's input went to disk before the square was
            // refused.
            let whose = if *squares > 0 {
                format!(" of {}", counted(*squares as u128, "square", "squares"))
            } else {
                String::new()
            };
            format!(
                "the states{whose} outgrew the memory and went through {dir}{in_runs}: {} \
                 written, {} read, at most {} there at once (removed at the end)",
                bytes(*written),
                bytes(*read),
                bytes(*peak)
            )
        }
        TourNote::ScratchFailed { at, index, why } => {
            format!(
                "the states spilled to disk at square {at} ({index}) could not go on: {}",
                super::parts::shown(why)
            )
        }
    }
}

fn domination_note(n: &DominationNote) -> String {
    match n {
        DominationNote::RootBound(b) => format!("root bound {b}"),
        DominationNote::OptimalCounted(v) => format!(
            "optimal placements of {v} {} counted",
            noun((*v).into(), "piece", "pieces")
        ),
        DominationNote::NotProvenMinimal(k) => {
            format!(
                "{k} {}, not proven minimal (goal minimize proves)",
                noun(*k as u128, "piece", "pieces")
            )
        }
    }
}

fn cover_note(n: &MemoNote) -> String {
    match n {
        MemoNote::BudgetReached { what, budget } => {
            format!(
                "{what} reached the memory budget of {} (--memory)",
                bytes(*budget)
            )
        }
        MemoNote::SystemRefused { what } => {
            format!("{what} needed more memory than the system gave, within the budget")
        }
    }
}

fn tour_reason(r: &TourReason) -> String {
    match r {
        TourReason::ClosedSingleSquare => {
            "a closed tour needs a move from the last square back to \
            the first, and a board of one square has none"
                .into()
        }
        TourReason::ClosedNoReturn => {
            "a closed tour needs a move from the last square back to the first".into()
        }
        TourReason::SchwenkOdd { size, squares } => format!(
            "Schwenk's theorem: both sides of {size} are odd; a knight changes colour at every \
             move, so a closed tour needs as many light as dark squares, and {size} has \
             {squares} squares"
        ),
        TourReason::SchwenkNarrow { size } => format!(
            "Schwenk's theorem: no closed knight's tour on a board with a side of 1 or 2 \
             ({size})"
        ),
        TourReason::SchwenkSideFour { size } => format!(
            "Schwenk's theorem: no closed knight's tour on a board with a side of 4 ({size}): \
             the outer rows' squares move only to inner rows, so a closed tour would alternate \
             outer and inner rows and, by colour, visit only one colour in the outer rows"
        ),
        TourReason::SchwenkThreeRows { size } => {
            format!("Schwenk's theorem: 3x4, 3x6 and 3x8 have no closed knight's tour ({size})")
        }
        TourReason::OpenTable { size } => format!(
            "no open knight's tour on {size}: open tours exist exactly on 1x1, 3x4, 3xn for n \
             >= 7, 4xn for n >= 5, and boards with both sides at least 5"
        ),
        TourReason::OpenStartColour {
            size,
            squares,
            start,
        } => format!(
            "{size} has {squares} squares, one more of the corners' colour than of the other; a \
             knight changes colour at every move, so an open tour starts and ends on the \
             corners' colour, and {start} is not"
        ),
        TourReason::OpenCentreOf3x7 { start } => format!(
            "no open knight's tour of 3x7 starts on the centre square {start} (exhaustive search)"
        ),
        TourReason::OpenEndsOf3x4 { size, start } => format!(
            "on {size} open knight's tours start only on the two end lines of the long side; \
             {start} is not on them (exhaustive search)"
        ),
        TourReason::OpenThirdOf3x8 { size, start } => format!(
            "no open knight's tour of {size} starts on {start}, the third square from either \
             end of the middle line (exhaustive search)"
        ),
        TourReason::OpenInnerLineOf4 { start } => format!(
            "on a board with a side of 4 both ends of every open knight's tour lie on the two \
             outer lines (Schwenk's argument: outer squares of one colour move only to inner \
             squares of the other, and an inner end leaves one side short of moves); {start} \
             is on an inner line"
        ),
        TourReason::GraphSplit { piece, parts } => format!(
            "the {piece} move graph falls into {parts} parts, so no tour reaches every square"
        ),
        TourReason::ClosedDeadEnd { square, moves } => format!(
            "square {square} has {moves} {}; a closed tour enters and leaves every square",
            noun(*moves as u128, "move", "moves")
        ),
        TourReason::TooManyEnds { squares, free } => format!(
            "squares {} have one move each, so each must end the tour, and a tour has {free} \
             free {}",
            squares.join(", "),
            noun(*free as u128, "end", "ends")
        ),
        TourReason::Classes {
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
        TourReason::SearchFoundNone => "exhaustive search found none".into(),
        TourReason::CountIsZero => "the exhaustive count is 0".into(),
        TourReason::Bug(bug) => tour_bug(bug),
    }
}

/// Where a tour strategy found itself wrong, for the reason of an answer without a tour.
fn tour_bug(b: &TourBug) -> String {
    match b {
        TourBug::CountIsZero => "the count is 0 (contradicting a theorem: a bug)".into(),
        TourBug::WeightsUneven => "the classes' weights do not add up".into(),
        TourBug::SearchFoundNone => "the search found none (contradicting a theorem: a bug)".into(),
        TourBug::NoStripTour { rows, len } => {
            format!("no tour of the {rows}x{len} strip was found (a bug)")
        }
        TourBug::NoJoiningPattern { rows } => {
            format!("no joining pattern for {rows}-square strips was found (a bug)")
        }
        TourBug::NoChain { rows, searches } => format!(
            "no chain of {rows}-square blocks was found for this start ({searches} block \
             searches) (a bug)"
        ),
        TourBug::TourEndsEarly { at, of } => {
            format!("the built tour ends after {at} of {of} squares (a bug)")
        }
        TourBug::NoBlockTour { width, height } => format!(
            "no block tour of shape {width}x{height} with the joining move was found (a bug)"
        ),
        TourBug::BlockMissesSquares => "a block tour misses squares (a bug)".into(),
        TourBug::JoinNotInTour => "a join's move is not in its block's tour (a bug)".into(),
    }
}

fn lines_reason(r: &LinesReason) -> String {
    match r {
        LinesReason::StonesExceedSquares {
            colours,
            per_colour,
            squares,
        } => format!(
            "{colours} colours x {per_colour} stones = {} stones do not fit on {squares} squares",
            colours * per_colour
        ),
        LinesReason::StonesExceedLines {
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
    }
}

/// "an 8x8 board", "a 10x10 board".
fn a_board(width: usize, height: usize) -> String {
    format!("{} {width}x{height} board", article(width))
}

/// Several pieces with their counts: "2 x Q, 0..3 x N".
fn army_text(mixed: &[(String, usize, usize)]) -> String {
    let each: Vec<String> = mixed
        .iter()
        .map(|(piece, lo, hi)| match (lo, hi) {
            (lo, hi) if lo == hi => format!("{lo} x {piece}"),
            (lo, hi) => format!("{lo}..{hi} x {piece}"),
        })
        .collect();
    each.join(", ")
}

/// ", 1 given", ", 3 given", or nothing.
fn givens_text(givens: usize) -> String {
    if givens == 0 {
        String::new()
    } else {
        format!(", {givens} given")
    }
}

/// The one line on what a puzzle holds: "8 x Q on an 8x8 board".
pub fn summary_text(m: &ModelSummary) -> String {
    match m {
        ModelSummary::Independent {
            count,
            piece,
            width,
            height,
            mixed,
            givens,
        } => {
            let what = match count {
                _ if !mixed.is_empty() => format!("{} on", army_text(mixed)),
                Some(count) => format!("{count} x {piece} on"),
                None => format!("as many {piece} as fit on"),
            };
            format!(
                "{what} {}{}",
                a_board(*width, *height),
                givens_text(*givens)
            )
        }
        ModelSummary::Domination {
            piece,
            width,
            height,
            holes,
            independent,
            mixed,
            givens,
        } => format!(
            "{} on {}{}{}{}",
            if mixed.is_empty() {
                piece.clone()
            } else {
                army_text(mixed)
            },
            a_board(*width, *height),
            if *holes { " with holes" } else { "" },
            if *independent { ", independent" } else { "" },
            givens_text(*givens)
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
            "{} {piece} tour of {cells}{}{} on {}{}",
            if *closed { "closed" } else { "open" },
            if *cells == 1 { " square" } else { " squares" },
            start
                .as_ref()
                .map(|s| format!(" from {s}"))
                .unwrap_or_default(),
            a_board(*width, *height),
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
                "{per_color} x {} on {}, at most {max_per_line} of a colour on each of {lines} \
                 {}",
                colors.join(" + "),
                a_board(*width, *height),
                noun(*lines as u128, "line", "lines")
            );
            if active < lines {
                let _ = write!(s, " ({active} can be overfull)");
            }
            s
        }
        ModelSummary::Sudoku {
            size,
            regions,
            diagonals,
            givens,
            cages,
        } => {
            let mut s = match regions {
                GridRegions::None => format!("a Latin square of order {size}"),
                GridRegions::Boxes { height, width } => {
                    format!("a {size}x{size} sudoku with {height}x{width} boxes")
                }
                GridRegions::Drawn => format!("a {size}x{size} jigsaw sudoku"),
            };
            if *diagonals {
                s.push_str(", both diagonals ruled");
            }
            let _ = write!(s, ", {givens} {}", noun(*givens as u128, "given", "givens"));
            if *cages > 0 {
                let _ = write!(s, ", {cages} {}", noun(*cages as u128, "cage", "cages"));
            }
            s
        }
        ModelSummary::Tiling {
            width,
            height,
            depth,
            cells,
            pieces,
            placements,
            pack,
            leave,
        } => {
            let space = if *depth > 1 {
                format!("{} {width}x{height}x{depth} box", article(*width))
            } else {
                a_board(*width, *height)
            };
            let mut s = format!(
                "{pieces} {} on {space}, {cells} {}, {placements} {}",
                noun(*pieces as u128, "piece", "pieces"),
                noun(*cells as u128, "cell", "cells"),
                noun(*placements as u128, "placement", "placements")
            );
            if *pack {
                s.push_str(", cells may stay empty");
            } else if *leave > 0 {
                let _ = write!(s, ", {leave} left empty");
            }
            s
        }
        ModelSummary::Cover {
            items,
            primary,
            options,
        } => format!(
            "{items} {} ({primary} primary), {options} {}",
            noun(*items as u128, "item", "items"),
            noun(*options as u128, "option", "options")
        ),
    }
}
