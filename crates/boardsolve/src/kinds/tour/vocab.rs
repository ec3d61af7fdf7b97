//! The tour kind's own words on an answer: its notes (how tours are counted, how a tour was
//! built), its reasons for no tour (the theorems and counting arguments) and its strategies'
//! refusals. The engine carries them; render says them.

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
    /// A frontier count's states outgrew the memory at `squares` squares and went through
    /// the scratch folder `dir` (removed at the end) in `runs` runs: at most `peak` bytes
    /// there at once, `written` and `read` in all.
    Spilled {
        dir: String,
        squares: usize,
        runs: usize,
        peak: u64,
        written: u64,
        read: u64,
    },
    /// The scratch folder failed at square `at` (`index`, 1-based): `why`. The run stopped
    /// there.
    ScratchFailed {
        at: String,
        index: usize,
        why: String,
    },
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
    /// a bug, as the strategy found it.
    Bug(TourBug),
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

/// Where a strategy found itself wrong: a theorem or its own construction says a tour exists
/// (or a count adds up), and it did not find one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TourBug {
    /// An exhaustive count is 0 where a theorem says a tour exists.
    CountIsZero,
    /// The classes' weights of a count up to symmetry do not add up to its tours.
    WeightsUneven,
    /// A search found none where a theorem says a tour exists.
    SearchFoundNone,
    /// No tour of a `rows` x `len` strip was found.
    NoStripTour { rows: usize, len: usize },
    /// No joining pattern for strips `rows` squares high was found.
    NoJoiningPattern { rows: usize },
    /// No chain of blocks `rows` squares high was found for the start, in `searches` block
    /// searches.
    NoChain { rows: usize, searches: usize },
    /// The built tour's links end after `at` of its `of` squares.
    TourEndsEarly { at: u32, of: usize },
    /// No block tour of shape `width` x `height` with the joining move was found.
    NoBlockTour { width: usize, height: usize },
    /// A block tour misses squares of its block.
    BlockMissesSquares,
    /// A join's move is not in its block's tour.
    JoinNotInTour,
}

/// Why a strategy of the tour kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum TourRefusal {
    /// `--unique`: only `backtrack` and `count` count tours up to symmetry.
    Unique,
    /// `--unique` with a goal other than count.
    UniqueGoal,
    /// `--unique` with a given start, which few symmetries fix.
    UniqueStart,
    /// `--unique` with `--part`: a part's tours weigh fractions of a class.
    UniquePart,
    /// `count --unique` takes closed tours, without a start, `--prefixes` or `--part`.
    UniqueClosedWhole,
    /// `count --unique` on a board with a symmetry whose fixed tours the sweep cannot count.
    UniqueSymmetry(SymmetryKeeps),
    /// `divide` builds knight's tours on boards without holes.
    DivideKnightNoHoles,
    /// `divide` builds boards with both sides at least 3.
    DivideNarrow { width: usize, height: usize },
    /// `divide` builds one tour.
    DivideGoal,
    /// `warnsdorff` finds one tour.
    WarnsdorffGoal,
    /// The move graph is built for boards up to `max` squares.
    GraphSize { max: usize },
    /// Plain backtracking takes boards up to `max` squares; this one has `cells`.
    BacktrackSize { cells: usize, max: usize },
    /// `count` sweeps the board once for closed tours and prefixes: no subtrees for `--part`
    /// or `--estimate` (open tours split, a sweep per pair of ends).
    CountNoSubtrees,
    /// A part's count is kept in 128 bits, and the paths of this board may need `bits`.
    PartBits { bits: f64 },
    /// `count` counts (goal count).
    CountGoal,
    /// `count`'s frontier is shaped for the knight.
    KnightFrontier,
    /// A board with shorter side `short`: beyond the `max` the labels tell apart.
    ShortSide { short: usize, max: usize },
    /// `--prefixes` with open tours.
    PrefixesOpen,
    /// `--prefixes` with a start: the prefixes without it have no tour from it.
    PrefixesStart,
    /// The counts may need `bits` bits, more than the `max` it counts in.
    CountBits { bits: f64, max: u32 },
}

impl Vocabulary for TourRefusal {}

/// What a symmetry of the board does that keeps the sweep from counting its fixed tours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryKeeps {
    /// It fixes two cells.
    TwoCells,
    /// It maps a cell to one a knight's move away.
    KnightApart,
    /// It turns the board a quarter, with a quarter of its cells odd.
    QuarterTurnOdd,
    /// It is of order 2 and fixes no cell, and colours allow it to keep a tour as half a
    /// turn along the tour, but it is no half turn the sweep to the middle counts (a
    /// reflection, with half the cells odd).
    HalfAlong,
}
