//! The tour kind's own words on an answer: its notes (how tours are counted, how a tour was
//! built) and its reasons for no tour (the theorems and counting arguments). The engine
//! carries them; render says them.

use crate::engine::Vocabulary;

/// A fact about how a tour answer was reached, for the summary line.
#[derive(Clone, Debug, PartialEq)]
pub enum TourNote {
    /// How tours are counted.
    TourCount(TourCounting),
    /// A tour built by divide and conquer from blocks laid out so; `exists_by` names the
    /// theorem that said it exists before any search.
    Divided {
        layout: BlockLayout,
        exists_by: Option<&'static str>,
    },
    /// A strategy gave up after this many moves and handed the task to another.
    HandedOver {
        from: &'static str,
        to: &'static str,
        tried: u64,
    },
    /// A frontier count outgrew its memory at square `at` (`index` of `squares`, 1-based):
    /// it made `made` new states from `done` of the `input` states of the square before, and
    /// the whole square, projected from them, would need about `needed` bytes; `budget`: what
    /// it was allowed (`None`: the system refused an allocation).
    FrontierOutgrew {
        at: String,
        index: usize,
        squares: usize,
        input: usize,
        done: usize,
        made: usize,
        needed: u64,
        budget: Option<u64>,
    },
    /// Open tours counted as a sum over their pairs of ends: `sweeps` counts, one for each
    /// orbit of the `pairs` under the board's symmetries.
    EndPairs { sweeps: usize, pairs: u64 },
    /// The system refused `bytes` for `what`: the run stopped there.
    MemoryShort { what: String, bytes: u64 },
}

impl Vocabulary for TourNote {}

/// How divide and conquer laid out its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockLayout {
    /// A grid of `rows` x `cols` blocks.
    Grid { rows: usize, cols: usize },
    /// One row of blocks `height` squares high, chained end to end.
    Chain { height: usize },
    /// One strip of blocks along a thin board.
    Strip,
}

/// The counting convention of a tour count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourCounting {
    /// Closed tours as undirected cycles.
    ClosedUndirected,
    /// Open tours, directed, from the named start square.
    DirectedFrom(String),
    /// Open tours, directed, from every start.
    DirectedEveryStart,
}

/// Why a board has no tour: a theorem, a counting argument or a finished search. The squares
/// are named as the board names them; `size` is the board as "WxH".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourReason {
    /// A closed tour on a board of one square: there is no move back.
    ClosedSingleSquare,
    /// A closed knight's tour on 1x1.
    ClosedNoReturn,
    /// Schwenk: a closed knight's tour needs an even board.
    SchwenkOdd { size: String, squares: usize },
    /// Schwenk: no closed knight's tour with a side of 1 or 2.
    SchwenkNarrow { size: String },
    /// Schwenk: no closed knight's tour with a side of 4.
    SchwenkSideFour { size: String },
    /// Schwenk: 3x4, 3x6 and 3x8.
    SchwenkThreeRows { size: String },
    /// The table of boards with an open knight's tour.
    OpenTable { size: String },
    /// On an odd board an open tour starts on the corners' colour.
    OpenStartColour {
        size: String,
        squares: usize,
        start: String,
    },
    /// The centre of 3x7 starts no open tour (exhaustive search).
    OpenCentreOf3x7 { start: String },
    /// On 3x4 open tours start only on the end lines of the long side.
    OpenEndsOf3x4 { size: String, start: String },
    /// On 3x8 the third squares of the middle line start none.
    OpenThirdOf3x8 { size: String, start: String },
    /// With a side of 4 both ends lie on the outer lines.
    OpenInnerLineOf4 { start: String },
    /// The move graph is not connected.
    GraphSplit { piece: String, parts: usize },
    /// A closed tour needs two moves at every square.
    ClosedDeadEnd { square: String, moves: usize },
    /// More one-move squares than a tour has free ends.
    TooManyEnds { squares: Vec<String>, free: usize },
    /// The moves alternate between two classes of squares of these sizes, and the tour
    /// cannot balance them.
    Classes {
        piece: String,
        sizes: (usize, usize),
        rule: ClassRule,
    },
    /// An exhaustive search found none.
    SearchFoundNone,
    /// An exhaustive count is 0.
    CountIsZero,
    /// A strategy failed where a theorem or its own construction says a solution exists:
    /// a bug, as the strategy describes it.
    Bug(String),
}

impl Vocabulary for TourReason {}

/// Which balance of the two classes of squares a tour cannot meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassRule {
    /// A closed tour needs the classes equal.
    ClosedNeedsEqual,
    /// Any tour needs them to differ by at most 1.
    DifferByOne,
    /// The tour starts in the larger class; this square is in the smaller.
    StartInSmaller(String),
}
