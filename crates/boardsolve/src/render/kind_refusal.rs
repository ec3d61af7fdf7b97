//! The sentences of the kinds' own refusals, carried by the engine as a [`KindRefusal`]: why
//! a strategy of one kind does not take a puzzle.

use crate::engine::KindRefusal;
use crate::kinds::NoExactCover;
use crate::kinds::cover::CoverRefusal;
use crate::kinds::domination::DominationRefusal;
use crate::kinds::exact_cover::ExactCoverRefusal;
use crate::kinds::independent::{IndependentRefusal, Pattern};
use crate::kinds::lines::LinesRefusal;
use crate::kinds::sudoku::SudokuRefusal;
use crate::kinds::tiling::TilingRefusal;
use crate::kinds::tour::{SymmetryKeeps, TourRefusal};
use crate::util::numbers::group;

/// A kind's refusal in words.
pub(super) fn kind_refusal(r: &KindRefusal) -> String {
    if let Some(r) = r.get::<IndependentRefusal>() {
        independent(r)
    } else if let Some(r) = r.get::<TourRefusal>() {
        tour(r)
    } else if let Some(r) = r.get::<DominationRefusal>() {
        domination(r)
    } else if let Some(r) = r.get::<CoverRefusal>() {
        cover(r)
    } else if let Some(r) = r.get::<ExactCoverRefusal>() {
        exact_cover(r)
    } else if let Some(r) = r.get::<LinesRefusal>() {
        lines(r)
    } else if let Some(r) = r.get::<TilingRefusal>() {
        match r {
            TilingRefusal::MemoUnique => "its memo counts the whole problem; --unique compares \
                                          solutions with their images, which dlx does"
                .into(),
            TilingRefusal::BitmaskUnique => "--unique keeps a piece to one placement of each \
                                             class of solutions, which dlx does"
                .into(),
            TilingRefusal::KeptSymmetric { piece, symmetric } => format!(
                "--unique: piece {piece} is kept to one placement of each class, but a \
                 symmetry fixes {symmetric} of them, and solutions through those are told apart \
                 only by comparing them with their images, which a program reading the options \
                 cannot do; write the whole problem (without --unique)"
            ),
            TilingRefusal::NoneAlone => "--unique: no piece stands alone (one copy, mapped to \
                                         itself by every symmetry) to keep to one placement of \
                                         each class, so the classes are not one exact cover; \
                                         write the whole problem (without --unique)"
                .into(),
        }
    } else if let Some(r) = r.get::<SudokuRefusal>() {
        match r {
            SudokuRefusal::BitmaskCages => "its candidates know rows, columns and regions, not \
                                            the killer cages' sums; dlx takes cages"
                .into(),
            SudokuRefusal::Unique => "a sudoku's solutions are counted as grids; --unique \
                                      counts classes under symmetry, and is not taken here; \
                                      to ask whether the puzzle has one solution, use \
                                      --goal count --limit 2 (1: unique; at least 2: not)"
                .into(),
            SudokuRefusal::CagesTooMany { limit, .. } => format!(
                "the ways to fill the killer cages make an exact cover of more than {} \
                 entries, beyond what an exact cover takes; split the larger cages",
                group(*limit as u128)
            ),
        }
    } else if let Some(NoExactCover(kind)) = r.get::<NoExactCover>() {
        format!(
            "kind \"{}\" is not written as one exact cover problem; the kinds {} are (kind \
             independent as its dlx strategy builds it)",
            kind.name(),
            super::knuth::exact_cover_kinds_text("and")
        )
    } else {
        // A kind whose words render does not know yet: what it holds is still worth saying.
        format!("{r:?}")
    }
}

fn independent(r: &IndependentRefusal) -> String {
    match r {
        IndependentRefusal::LargestNeedsMaximum => "goal count without rules.count counts the \
                                                    largest placements, whose size a search for \
                                                    the largest finds first: served by backtrack \
                                                    and bitmask; with rules.count this strategy \
                                                    counts placements of that many"
            .into(),
        IndependentRefusal::LargestInParts => "--part with goal count and no rules.count: this \
                                               strategy's parts count placements of one size, \
                                               given as rules.count (the answer of goal \
                                               maximize, run whole or in parts); bitmask's \
                                               parts each find their largest and count it"
            .into(),
        IndependentRefusal::WholeBoard { squares, max } => format!(
            "needs the whole board's attack sets: {} squares, more than {}",
            group(*squares as u128),
            group(*max as u128)
        ),
        IndependentRefusal::MaximizeNeedsBound => {
            "goal maximize needs a bound; use backtrack or bitmask".into()
        }
        IndependentRefusal::TooManyCandidates { candidates, max } => format!(
            "{candidates:.2e} candidates to test, beyond brute force's reach (at most {max:.0e}); \
             use backtrack, bitmask or dlx"
        ),
        IndependentRefusal::NotLinePiece { piece } => format!(
            "needs a line piece (R, B or Q: unlimited wazir or ferz rides only); this piece is \
             {piece}"
        ),
        IndependentRefusal::TooManyPairs { pairs, max } => {
            format!("{pairs} attacking pairs would be items; at most {max}")
        }
        IndependentRefusal::ConstructGoal(goal) => format!(
            "goal {}: construct builds one placement (goal first)",
            goal.name()
        ),
        IndependentRefusal::ConstructUnique => {
            "--unique: construct builds one placement, not the representative of its class".into()
        }
        IndependentRefusal::ConstructHoles => {
            "the board has holes; the formulas fill a whole rectangle".into()
        }
        IndependentRefusal::ConstructPiece { piece } => format!(
            "builds queens (Q), rooks (R), kings (K) and knights (N); this piece is {piece}"
        ),
        IndependentRefusal::ConstructListed { squares, max } => format!(
            "kings and knights are placed as squares, on boards of up to {} squares; this one \
             has {}",
            group(*max as u128),
            group(*squares as u128)
        ),
        IndependentRefusal::ConstructPattern {
            pattern,
            count,
            most,
            width,
            height,
        } => {
            let how = match pattern {
                Pattern::Kings => "one on every other square of every other row",
                Pattern::Knights => "one on every square of one colour",
            };
            format!("{count} pieces: the formula places at most {most} on {width}x{height}, {how}")
        }
        IndependentRefusal::ConstructTooMany {
            count,
            side,
            width,
            height,
        } => format!(
            "{count} pieces: at most {side} fit, one a row and a column of the {width}x{height} \
             board"
        ),
        IndependentRefusal::ConstructSmallQueens { side } => format!(
            "queens on a board whose shorter side is {side}: the formula starts at 4 (2x2 and \
             3x3 hold no full placement); the searches settle these boards"
        ),
        IndependentRefusal::Givens => "it places pieces on an empty board and takes no givens \
                                       (backtrack and dlx do)"
            .into(),
        IndependentRefusal::Mixed => "it places one piece, and the puzzle has several \
                                      ([[piece]] tables; backtrack and dlx take them)"
            .into(),
        IndependentRefusal::ArmyInParts => "--part: givens and several pieces are searched in \
                                            one run"
            .into(),
        IndependentRefusal::NothingToPlace => {
            "the givens leave no piece to place, so there is no exact cover to write".into()
        }
    }
}

fn tour(r: &TourRefusal) -> String {
    match r {
        TourRefusal::Unique => "--unique: tours are counted up to symmetry by `backtrack` (small \
                                boards) and `count` (closed tours)"
            .into(),
        TourRefusal::UniqueGoal => "--unique counts tours (goal count)".into(),
        TourRefusal::UniqueStart => "--unique: a given start is fixed by few of the board's \
                                     symmetries and by no reversal; accepted without a start"
            .into(),
        TourRefusal::UniquePart => "--unique: a part's tours weigh fractions of a class; \
                                    accepted without --part"
            .into(),
        TourRefusal::UniqueClosedWhole => "--unique: closed tours, without a start, --prefixes \
                                           or --part; `backtrack` counts open tours up to \
                                           symmetry (small boards)"
            .into(),
        TourRefusal::UniqueSymmetry(keeps) => {
            let what = match keeps {
                SymmetryKeeps::TwoCells => "fixes two cells",
                SymmetryKeeps::KnightApart => "maps a cell a knight's move away",
                SymmetryKeeps::QuarterTurnOdd => {
                    "turns it a quarter with a quarter of its cells odd"
                }
                SymmetryKeeps::HalfAlong => {
                    "reflects it, with an odd number of cells in each half (a tour may map \
                     onto itself half a turn along)"
                }
            };
            format!(
                "--unique: a symmetry of this board {what}, and the tours it keeps are not \
                 counted by the sweep; accepted on boards whose symmetries' fixed tours it counts \
                 (without holes: both sides even, and a square's side a multiple of 4: 8x8 and \
                 6x8, not 6x6; holes decide which symmetries a board keeps, and so which apply); \
                 `backtrack` counts small boards up to symmetry"
            )
        }
        TourRefusal::DivideKnightNoHoles => {
            "builds knight's tours on boards without holes only".into()
        }
        TourRefusal::DivideNarrow { width, height } => format!(
            "builds boards with both sides at least 3; {width}x{height} has no knight's tour \
             beyond 1x1"
        ),
        TourRefusal::DivideGoal => "builds one tour (goal first)".into(),
        TourRefusal::WarnsdorffGoal => {
            "finds one tour (goal first); counting and listing take backtrack".into()
        }
        TourRefusal::GraphSize { max } => {
            format!("walks the move graph, built for boards up to {max} squares")
        }
        TourRefusal::BacktrackSize { cells, max } => {
            format!("plain backtracking takes boards up to {max} squares; this one has {cells}")
        }
        TourRefusal::CountNoSubtrees => "a frontier dynamic program has no subtrees to split: \
                                         closed tours and prefixes are one sweep of the board, \
                                         every state at a square depending on all those before \
                                         (open tours split, a sweep per pair of ends); \
                                         `backtrack` counts in parts (--part), on small boards"
            .into(),
        TourRefusal::PartBits { bits } => format!(
            "a part's count is kept in 128 bits, and the paths of this board may need up to \
             {bits:.0}; accepted without --part"
        ),
        TourRefusal::CountGoal => "counts only (goal count)".into(),
        TourRefusal::KnightFrontier => "its frontier is shaped for the knight's moves".into(),
        TourRefusal::ShortSide { short, max } => format!(
            "the frontier of a board with shorter side {short} has more path ends than its \
             4-bit labels tell apart; it takes shorter sides up to {max}"
        ),
        TourRefusal::PrefixesOpen => "prefixes are counted for closed tours only".into(),
        TourRefusal::PrefixesStart => "prefixes are counted without a start: the prefixes \
                                       that leave out the start square have no tour from it"
            .into(),
        TourRefusal::CountBits { bits, max } => format!(
            "its counts on this board may need up to {bits:.0} bits, and it counts in at most \
             {max} bits"
        ),
    }
}

fn domination(r: &DominationRefusal) -> String {
    match r {
        DominationRefusal::BlocksTooMany { squares, max } => {
            format!("{squares} squares; deciding them one by one is for at most {max} (use bnb)")
        }
        DominationRefusal::BlocksEmptyBound => "no square can only be covered from inside its \
                                                4x4 block, so the block bound is empty (use bnb)"
            .into(),
        DominationRefusal::PartCountNeedsOptimum => "--part with goal count: counts the \
                                                     placements of the optimum, which the parts \
                                                     take as given: --optimum K (the answer of \
                                                     goal minimize, run whole or in parts)"
            .into(),
        DominationRefusal::PartGoals => {
            "--part: accepted with goals minimize and count; --estimate with minimize".into()
        }
        DominationRefusal::BandPiece => {
            "the band bound needs a piece that moves at most 2 rows and 2 columns".into()
        }
        DominationRefusal::Givens => "its bounds and tables are built for an empty board; \
                                      givens are taken by dlx"
            .into(),
        DominationRefusal::Mixed => "its bounds count the squares one piece covers, and the \
                                     puzzle has several pieces ([[piece]] tables), whose \
                                     choice of piece per square they do not bound; several \
                                     pieces are taken by dlx"
            .into(),
    }
}

fn exact_cover(r: &ExactCoverRefusal) -> String {
    match r {
        ExactCoverRefusal::BitmaskColours => "an option colours a secondary item, and a bitset of \
                                         items holds no colours; dlx shares coloured items"
            .into(),
        ExactCoverRefusal::BitmaskMultiplicities => "a primary item is to be covered other than \
                                                exactly once, and a bitset of covered items \
                                                counts nothing; dlx takes ranges (Algorithm M)"
            .into(),
        ExactCoverRefusal::BitmaskItems { items, max } => format!(
            "the problem has {} items; its bitsets hold at most {max}",
            group(*items as u128)
        ),
        ExactCoverRefusal::BranchFirstMultiplicities => "--branch first: with multiplicities \
                                                    Algorithm M branches on the item of smallest \
                                                    branch degree (DLX3's rule), which is also \
                                                    how it finds dead ends"
            .into(),
        ExactCoverRefusal::MemoWhole => {
            "its memo is shared by the whole tree, so it searches no part \
                                    (--part) and estimates nothing (--estimate); dlx does both"
                .into()
        }
        ExactCoverRefusal::MemoMultiplicities => {
            "with multiplicities (Algorithm M) the options still \
                                             allowed at a level depend on those passed over \
                                             there, not on the items alone, so a memo keyed by \
                                             the items would not be exact"
                .into()
        }
    }
}

fn cover(r: &CoverRefusal) -> String {
    match r {
        CoverRefusal::Unique { break_in_options } => {
            let unique = "a generic cover has no board symmetries to count under (--unique)";
            if *break_in_options {
                format!(
                    "{unique}; break the symmetry in the options instead, as \
                     pentominoes-unique.toml does"
                )
            } else {
                unique.into()
            }
        }
        CoverRefusal::NoObjective => "cover puzzles have no objective".into(),
    }
}

fn lines(r: &LinesRefusal) -> String {
    match r {
        LinesRefusal::BoardBits {
            width,
            height,
            squares,
            bits,
        } => format!(
            "the {width}x{height} board has {squares} squares; the board must fit {bits} bits"
        ),
        LinesRefusal::TooManyEntries { entries, max } => {
            format!("{entries} option entries; at most {max}")
        }
    }
}
