//! What a strategy returns and what a run makes of it: the [`Answer`], with its partial
//! results and notes, and the [`Outcome`] with its status.

use std::time::Duration;

use super::{Stats, StopReason};
use crate::util::Natural;

/// What a strategy returns. Solutions themselves went to the sink.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// Number of solutions (or of classes with `unique`); `None`: take the run's count.
    pub count: Option<u128>,
    /// Best objective value found (minimize / maximize).
    pub optimum: Option<u64>,
    /// A best solution (minimize / maximize), in the model's encoding.
    pub best: Option<Vec<usize>>,
    /// Why there is no solution, when known without search (a theorem, a counting argument).
    pub reason: Option<Reason>,
    /// The answer was proven before a limit struck (e.g. an optimum whose bound closed).
    pub proven_despite_limit: bool,
    /// The search covered only part of the tree (`--part`) or estimated it (`--estimate`):
    /// what was done. Such an answer is never proven on its own.
    pub partial: Option<Partial>,
    /// What else the summary should say about how the answer was reached.
    pub notes: Vec<Note>,
    /// A solution too large to pass through the sink as `usize`s, in the model's compact
    /// encoding (a tour's move number per square, packed: 27 bits a square on a board of
    /// 10^8).
    pub compact: Option<crate::util::Packed>,
    /// The count where it outgrew `u128` (then `count` is `None`).
    pub big: Option<Natural>,
    /// Counts of the board's prefixes (the first m squares in the strategy's sweep order,
    /// the rest as holes), where a strategy counts them all in one sweep.
    pub prefixes: Vec<Prefix>,
    /// A sweep's states after each square, in its order (a frontier count), up to where it
    /// stopped: where the board is widest for the method.
    pub frontier: Vec<u64>,
}

/// The count of one prefix of the board: its first `squares` squares in the sweep order,
/// of which `cells` are not holes.
#[derive(Clone, Debug, PartialEq)]
pub struct Prefix {
    pub squares: usize,
    pub cells: usize,
    pub count: Natural,
}

impl Answer {
    pub fn count(count: u128) -> Answer {
        Answer {
            count: Some(count),
            ..Answer::default()
        }
    }

    /// A count of any size: a `u128` where it fits.
    pub fn natural(count: Natural) -> Answer {
        match count.to_u128() {
            Some(c) => Answer::count(c),
            None => Answer {
                big: Some(count),
                ..Answer::default()
            },
        }
    }

    /// The count, whatever its size.
    pub fn exact_count(&self) -> Option<Natural> {
        self.big.clone().or(self.count.map(Natural::from))
    }

    pub fn none_because(reason: Reason) -> Answer {
        Answer {
            count: Some(0),
            reason: Some(reason),
            ..Answer::default()
        }
    }

    pub(super) fn no_solution(&self) -> bool {
        self.optimum.is_none() && self.best.is_none() && self.count == Some(0)
    }
}

/// A search split into a fixed list of subtrees, of which one run did a part (`--part`) or
/// sized the tree (`--estimate`). The N parts of one list, run anywhere, together stand for
/// the whole search.
#[derive(Clone, Debug, PartialEq)]
pub struct Partial {
    /// The tree's list of subtrees, the same for any number of threads.
    pub list: SubtreeList,
    /// `(i, n)`: every n-th subtree from the i-th (1-based); `None`: the whole list.
    pub part: Option<(usize, usize)>,
    /// A part split once more: its subtrees' descendants, every m-th from the j-th.
    pub subpart: Option<Subpart>,
    /// Subtrees (or, in a subpart, descendants) this run took.
    pub taken: usize,
    pub work: PartialWork,
}

/// The list every part of one search cuts alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubtreeList {
    /// Subtrees in the list.
    pub subtrees: usize,
    /// The objective value the subtrees are searched below (the best known at the split);
    /// `None` for a count.
    pub bar: Option<u64>,
    /// A hash of every subtree's decisions: parts agree on the list when this agrees.
    pub fingerprint: u64,
}

/// Part I's subtrees taken a few levels down, so that M subparts share one heavy part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subpart {
    /// `(j, m)`: every m-th descendant from the j-th (1-based).
    pub index: (usize, usize),
    /// Descendants listed below the part's subtrees.
    pub descendants: usize,
    /// The part's own subtrees, whose descendants these are.
    pub of_subtrees: usize,
    /// A hash of the descendants' decisions, as [`SubtreeList::fingerprint`].
    pub fingerprint: u64,
}

/// What a part or estimate did with its subtrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PartialWork {
    /// Every subtree taken was searched: none holds a solution better than `none_below`.
    Searched { none_below: u64 },
    /// Every subtree taken was searched and its solutions counted (the answer's count).
    Counted,
    /// Every subtree taken was searched for the largest solution: none is larger than
    /// `none_above` (goal maximize).
    SearchedAbove { none_above: u64 },
    /// A limit stopped the search before every subtree taken was searched.
    NotAllSearched,
    /// A limit stopped the part before its subtrees' descendants were listed.
    StoppedBeforeDescendants,
    /// The subtrees taken were sized by Knuth's estimator, not searched; `None` when a limit
    /// struck before the first probe ended.
    Estimated(Option<TreeEstimate>),
}

/// Knuth's estimate of a search tree's size and of the work it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeEstimate {
    /// Nodes, the mean over the probes.
    pub nodes: f64,
    pub probes: u64,
    /// Standard error of the mean, relative to it.
    pub relative_error: f64,
    /// Seconds of one thread's work.
    pub work_seconds: f64,
    /// The threads the search would run on (the `--threads` of the estimate).
    pub threads: usize,
}

/// A fact about how an answer was reached, for the summary line.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// Counted with each solution standing for its orbit under the board's symmetries.
    SymmetryFold(u32),
    /// With `--unique`: the solutions the classes counted stand for, all of them.
    SolutionsInAll(u128),
    /// The lower bound at the root of a branch and bound.
    RootBound(u64),
    /// Goal count of an optimisation: the solutions counted are those of this optimum.
    OptimalCounted(u64),
    /// Goal first of an optimisation: the placement found has this size, not proven minimal.
    NotProvenMinimal(usize),
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
    /// `what` reached the memory budget of `budget` bytes: the run stopped there.
    BudgetReached { what: &'static str, budget: u64 },
    /// The search counted more nodes than `--node-limit` allowed: it stops only between
    /// steps of several nodes (a listing of subtrees, a batch of a hot loop, a block).
    NodeLimitPassed { limit: u64 },
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Solved,
    NoSolution,
    Limit,
    /// One part of a split search (`--part`), searched to the end: an answer only together
    /// with the other parts (`solve merge`).
    Part,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no-solution",
            Status::Limit => "limit",
            Status::Part => "part",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    pub strategy: String,
    pub proven: bool,
    pub stopped: Option<StopReason>,
    pub elapsed: Duration,
    pub stats: Stats,
    pub answer: Answer,
}

/// Why a puzzle has no solution: a theorem, a counting argument or a finished search. The
/// squares are named as the board names them; `size` is the board as "WxH".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
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
    /// More stones than squares.
    StonesExceedSquares {
        colours: usize,
        per_colour: usize,
        squares: usize,
    },
    /// A colour's stones do not fit in the rows (or columns) at `max_per_line` each.
    StonesExceedLines {
        per_colour: usize,
        lines: usize,
        columns: bool,
        max_per_line: usize,
        room: usize,
    },
    /// No placement of non-attacking pieces covers the board.
    NoIndependentCover,
    /// A strategy failed where a theorem or its own construction says a solution exists:
    /// a bug, as the strategy describes it.
    Bug(String),
}

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
