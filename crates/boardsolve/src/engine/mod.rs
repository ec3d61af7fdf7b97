//! The engine: what every strategy runs under.
//!
//! A strategy receives a [`Run`], which carries the limits (time, nodes, solutions, Ctrl-C),
//! the statistics, an optional progress reporter and the solution sink. The strategy counts
//! its nodes through [`Run::node`] (or [`Run::nodes`] in batches from a hot loop) and stops as
//! soon as either returns `true`; it never reads the clock or prints by itself. The clock and
//! the shared flags are read only when a watchdog's tick moved ([`Clock`]) or every few
//! thousand nodes, so a node costs an increment, a load and two comparisons.
//!
//! A strategy ends with an [`Answer`]; [`Run::finish`] turns it into an [`Outcome`] whose
//! status says whether the answer is proven (solved / no solution) or was cut short by a limit.
//!
//! This file holds what a run is asked (goal, task, limits) and what it counts; the run
//! itself is in `run.rs`, and what a strategy returns and a run makes of it in `answer.rs`.

use std::time::Duration;

mod answer;
mod clock;
pub mod merge;
pub mod record;
mod refusal;
mod run;
pub mod split;

pub use answer::{
    Answer, KindRefusal, Note, Outcome, Partial, PartialWork, Prefix, Reason, RunNote, Status,
    Subpart, SubtreeList, TreeEstimate, Vocabulary,
};
pub use clock::{Clock, TICK, Watch};
pub use refusal::Refusal;
pub use run::{DiskMeter, Gauge, Reading, Run, Sink, Standing, SweepStanding};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// One solution.
    First,
    /// Every solution, each reported to the sink, and their number.
    All,
    /// The number of solutions only.
    Count,
    /// The smallest objective value, proven.
    Minimize,
    /// The largest objective value, proven.
    Maximize,
}

impl Goal {
    /// Every goal, in the order the docs list them: the parser and the option tables take
    /// their names from here.
    pub const ALL: [Goal; 5] = [
        Goal::First,
        Goal::All,
        Goal::Count,
        Goal::Minimize,
        Goal::Maximize,
    ];
    pub const NAMES: [&'static str; 5] = [
        Goal::ALL[0].name(),
        Goal::ALL[1].name(),
        Goal::ALL[2].name(),
        Goal::ALL[3].name(),
        Goal::ALL[4].name(),
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Goal::First => "first",
            Goal::All => "all",
            Goal::Count => "count",
            Goal::Minimize => "minimize",
            Goal::Maximize => "maximize",
        }
    }

    pub fn parse(s: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.name() == s)
    }
}

/// How a search is asked to run, besides its limits.
#[derive(Clone, Copy, Debug)]
pub struct Task {
    pub goal: Goal,
    /// Count classes under the model's symmetries rather than all solutions.
    pub unique: bool,
    /// Count every prefix of the board too (its first m squares in the strategy's sweep
    /// order, the rest as holes), where a strategy sweeps the board once.
    pub prefixes: bool,
    /// Worker threads a strategy may use (1 = sequential).
    pub threads: usize,
    /// Search only part `i` of `n` (1-based) of a tree a strategy splits into a fixed list of
    /// subtrees: the parts of one puzzle, run anywhere, together prove what one run proves.
    pub part: Option<(usize, usize)>,
    /// Within that part, only part `j` of `m` of its subtrees' children (`--part I/N,J/M`):
    /// a part too long for one run split once more.
    pub subpart: Option<(usize, usize)>,
    /// Estimate the search tree by this many random probes instead of searching it.
    pub estimate: Option<u64>,
    /// The first phase's result, given to the parts of a two-phase search: the optimum whose
    /// placements a split count counts (`--optimum`).
    pub optimum: Option<u64>,
    /// Bytes the run may take for what grows with the puzzle (`--memory`): a strategy whose
    /// estimate ([`Need`]) is larger is refused before it allocates, and one whose memory
    /// grows as it searches stops at the budget ([`StopReason::Memory`]). `None`: no budget
    /// (the largest arrays, a tour's and the count's states, are still allocated fallibly).
    pub memory: Option<u64>,
    /// Where a strategy whose states outgrow the memory may write them (`--scratch`): a
    /// folder it creates inside this one and removes at the end. `None`: nowhere; such a
    /// search stops at the budget.
    pub scratch: Option<&'static std::path::Path>,
}

impl Default for Task {
    fn default() -> Self {
        Task {
            goal: Goal::Count,
            unique: false,
            prefixes: false,
            threads: 1,
            part: None,
            subpart: None,
            estimate: None,
            optimum: None,
            memory: None,
            scratch: None,
        }
    }
}

impl Task {
    /// Whether the task asks for a split or estimated search (`--part`, `--estimate`), which
    /// only some strategies serve.
    pub fn partial(&self) -> bool {
        self.part.is_some() || self.estimate.is_some()
    }
}

/// What a strategy will allocate for a task, estimated before it starts from the puzzle's
/// size alone: the memory that grows with the puzzle, against [`Task::memory`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    pub bytes: u64,
    /// What the bytes hold, a phrase each: "the tour's move numbers (30 bits a square)".
    pub what: Vec<String>,
}

impl Need {
    pub fn new(bytes: u64, what: impl Into<String>) -> Need {
        Need {
            bytes,
            what: vec![what.into()],
        }
    }

    /// This need and `other`'s, held at once.
    pub fn and(mut self, other: Need) -> Need {
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.what.extend(other.what);
        self
    }
}

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Stop after this many solutions were reported to the sink.
    pub solutions: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Time,
    Nodes,
    Solutions,
    Interrupted,
    /// The sink returned `ControlFlow::Break`.
    Sink,
    /// The strategy's working memory reached the budget ([`Task::memory`]), or the system
    /// refused an allocation ([`Run::out_of_memory`]).
    Memory,
    /// The scratch folder the strategy writes what outgrows its memory to failed it
    /// ([`Task::scratch`]): no room left, a file that could not be written or read, or one
    /// that read back otherwise than it was written ([`Run::out_of_disk`]).
    Disk,
    /// A count reached the most its counters hold (2^128 - 1, where they saturate): there
    /// are at least that many, and how many more is not known ([`Run::counter_full`]).
    CounterLimit,
}

impl StopReason {
    /// Limits that leave the answer unproven (a solution limit or a caller's stop after the
    /// solutions it wanted is what the user asked for).
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            StopReason::Time
                | StopReason::Nodes
                | StopReason::Interrupted
                | StopReason::Memory
                | StopReason::Disk
                | StopReason::CounterLimit
        )
    }
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    /// Solutions found or counted (weighted counts included).
    pub solutions: u128,
    /// Strategy-specific counters, e.g. `("updates", n)` for Dancing Links.
    pub counters: Vec<(&'static str, u64)>,
}

impl Stats {
    pub fn add_counter(&mut self, name: &'static str, value: u64) {
        if let Some(c) = self.counters.iter_mut().find(|c| c.0 == name) {
            c.1 += value;
        } else {
            self.counters.push((name, value));
        }
    }

    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters.iter().find(|c| c.0 == name).map(|c| c.1)
    }

    pub fn merge(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.solutions += other.solutions;
        for &(name, v) in &other.counters {
            self.add_counter(name, v);
        }
    }
}
