//! The engine: what every strategy runs under.
//!
//! A strategy receives a [`Run`], which carries the limits (time, nodes, solutions, Ctrl-C),
//! the statistics, an optional progress reporter and the solution sink. The strategy counts
//! its nodes through [`Run::node`] (or [`Run::nodes`] in batches from a hot loop) and stops as
//! soon as either returns `true`; it never reads the clock or prints by itself. Checking the
//! clock and the shared flags is done only every few thousand nodes, so a node costs an
//! increment and a comparison.
//!
//! A strategy ends with an [`Answer`]; [`Run::finish`] turns it into an [`Outcome`] whose
//! status says whether the answer is proven (solved / no solution) or was cut short by a limit.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

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
    pub const NAMES: [&'static str; 5] = ["first", "all", "count", "minimize", "maximize"];

    pub fn name(self) -> &'static str {
        match self {
            Goal::First => "first",
            Goal::All => "all",
            Goal::Count => "count",
            Goal::Minimize => "minimize",
            Goal::Maximize => "maximize",
        }
    }

    pub fn parse(s: &str) -> Option<Goal> {
        Some(match s {
            "first" => Goal::First,
            "all" => Goal::All,
            "count" => Goal::Count,
            "minimize" => Goal::Minimize,
            "maximize" => Goal::Maximize,
            _ => return None,
        })
    }
}

/// How a search is asked to run, besides its limits.
#[derive(Clone, Copy, Debug)]
pub struct Task {
    pub goal: Goal,
    /// Count classes under the model's symmetries rather than all solutions.
    pub unique: bool,
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
}

impl Default for Task {
    fn default() -> Self {
        Task {
            goal: Goal::Count,
            unique: false,
            threads: 1,
            part: None,
            subpart: None,
            estimate: None,
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
    /// The strategy's working memory reached its bound ([`Run::out_of_memory`]).
    Memory,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Time => "time limit",
            StopReason::Nodes => "node limit",
            StopReason::Solutions => "solution limit",
            StopReason::Interrupted => "interrupted",
            StopReason::Sink => "stopped by caller",
            StopReason::Memory => "memory bound",
        }
    }

    /// Limits that leave the answer unproven (a solution limit or a caller's stop after the
    /// solutions it wanted is what the user asked for).
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            StopReason::Time | StopReason::Nodes | StopReason::Interrupted | StopReason::Memory
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

/// Receives a progress line now and then (a few times a second at most).
pub trait Progress: Send {
    fn update(&mut self, stats: &Stats, elapsed: Duration, status: &str);
    fn finish(&mut self) {}
}

/// State shared by a run and its parallel children.
#[derive(Debug, Default)]
struct Shared {
    stop: AtomicBool,
    interrupted: Option<Arc<AtomicBool>>,
    nodes: AtomicU64,
}

/// A solution as the kind's model encodes it (squares, option indices, cell colours ...).
pub type Sink<'a> = Box<dyn FnMut(&[usize]) -> ControlFlow<()> + Send + 'a>;

const CHECK_EVERY: u64 = 1 << 12;

pub struct Run<'a> {
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    shared: Arc<Shared>,
    /// Nodes of this run already added to `shared.nodes`.
    published: u64,
    next_check: u64,
    last_progress: Instant,
    pub stats: Stats,
    stopped: Option<StopReason>,
    sink: Option<Sink<'a>>,
    progress: Option<Box<dyn Progress + 'a>>,
    status: String,
}

impl<'a> Run<'a> {
    pub fn new(limits: Limits) -> Run<'a> {
        let start = Instant::now();
        Run {
            deadline: limits.time.map(|t| start + t),
            limits,
            start,
            shared: Arc::new(Shared::default()),
            published: 0,
            next_check: CHECK_EVERY,
            last_progress: start,
            stats: Stats::default(),
            stopped: None,
            sink: None,
            progress: None,
            status: String::new(),
        }
    }

    /// Stop when `flag` becomes true (Ctrl-C).
    pub fn with_interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        Arc::get_mut(&mut self.shared)
            .expect("interrupt is set before the run is shared")
            .interrupted = Some(flag);
        self
    }

    pub fn with_sink(mut self, sink: Sink<'a>) -> Self {
        self.sink = Some(sink);
        self
    }

    pub fn with_progress(mut self, progress: Box<dyn Progress + 'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether solutions should be reported one by one (a sink is attached).
    pub fn wants_solutions(&self) -> bool {
        self.sink.is_some()
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn stopped(&self) -> Option<StopReason> {
        self.stopped
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Count one node; `true` means stop now.
    #[inline(always)]
    pub fn node(&mut self) -> bool {
        self.stats.nodes += 1;
        self.stats.nodes >= self.next_check && self.check()
    }

    /// Count `k` nodes at once (from a hot loop that keeps its own counter); `true` means stop.
    #[inline]
    pub fn nodes(&mut self, k: u64) -> bool {
        self.stats.nodes += k;
        self.stats.nodes >= self.next_check && self.check()
    }

    /// Whether to stop, checking the clock and the shared flags now.
    #[cold]
    pub fn check(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let delta = self.stats.nodes - self.published;
        self.published = self.stats.nodes;
        let total = self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        self.next_check = self.stats.nodes + CHECK_EVERY;
        if let Some(limit) = self.limits.nodes {
            if total >= limit {
                return self.stop(StopReason::Nodes);
            }
            // Do not overshoot a small node limit by a whole check interval.
            self.next_check = self.next_check.min(self.stats.nodes + (limit - total));
        }
        // The shared deadline before the siblings' stop flag: a run that sees a sibling stop
        // for the time limit reports the time limit too, not an interruption.
        let now = Instant::now();
        if let Some(d) = self.deadline
            && now >= d
        {
            return self.stop(StopReason::Time);
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = Some(StopReason::Interrupted);
            return true;
        }
        if let Some(flag) = &self.shared.interrupted
            && flag.load(Ordering::Relaxed)
        {
            return self.stop(StopReason::Interrupted);
        }
        if self.progress.is_some()
            && now.duration_since(self.last_progress) >= Duration::from_millis(200)
        {
            self.last_progress = now;
            let elapsed = now.duration_since(self.start);
            if let Some(p) = self.progress.as_mut() {
                // The nodes of every parallel child too (they publish to the shared count):
                // the line shows the whole search, not this thread's share.
                let shown = Stats {
                    nodes: total.max(self.stats.nodes),
                    ..self.stats.clone()
                };
                p.update(&shown, elapsed, &self.status);
            }
        }
        false
    }

    fn stop(&mut self, reason: StopReason) -> bool {
        self.stopped = Some(reason);
        if reason.is_limit() {
            // Parallel siblings stop too.
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        true
    }

    /// Stop because the strategy's working memory reached its bound: the answer is then
    /// unproven, as with any other limit.
    pub fn out_of_memory(&mut self) {
        self.stop(StopReason::Memory);
    }

    /// Set the line a progress display shows next to the counters ("best 14, bound 12").
    pub fn set_status(&mut self, status: impl Into<String>) {
        self.status = status.into();
    }

    /// Report one solution; `true` means stop now.
    pub fn solution(&mut self, solution: &[usize]) -> bool {
        self.stats.solutions += 1;
        if let Some(sink) = self.sink.as_mut()
            && sink(solution).is_break()
        {
            return self.stop(StopReason::Sink);
        }
        if let Some(limit) = self.limits.solutions
            && self.stats.solutions >= limit as u128
        {
            return self.stop(StopReason::Solutions);
        }
        false
    }

    /// One complete solution: reported when solutions are wanted one by one (a sink, or a
    /// solution limit that counts them as they come), else only counted. `true` means stop.
    #[inline]
    pub fn report(&mut self, solution: &[usize]) -> bool {
        if self.reports_each() {
            self.solution(solution)
        } else {
            self.count(1);
            false
        }
    }

    /// Whether each solution goes through [`Run::solution`] rather than a count.
    pub fn reports_each(&self) -> bool {
        self.sink.is_some() || self.limits.solutions.is_some()
    }

    /// Add solutions that were counted without being reported (weighted or batched counts).
    #[inline]
    pub fn count(&mut self, k: u128) {
        self.stats.solutions += k;
    }

    /// A child run for a parallel worker: same deadline, node budget and stop flags, fresh
    /// statistics, no sink. Merge it back with [`Run::absorb`].
    pub fn child(&self) -> Run<'static> {
        Run {
            limits: self.limits.clone(),
            start: self.start,
            deadline: self.deadline,
            shared: Arc::clone(&self.shared),
            published: 0,
            next_check: CHECK_EVERY.min(self.next_check),
            last_progress: self.last_progress,
            stats: Stats::default(),
            stopped: None,
            sink: None,
            progress: None,
            status: String::new(),
        }
    }

    /// Merge a finished child's statistics and stop reason.
    pub fn absorb(&mut self, child: Run<'_>) {
        self.stats.merge(&child.stats);
        self.published += child.stats.nodes;
        if self.stopped.is_none() {
            self.stopped = child.stopped.filter(|r| r.is_limit());
        }
    }

    /// Run `work` once per item on `threads` workers, each item with a child run that shares
    /// this run's limits and budget; their statistics and stop reasons come back here. Without
    /// a thread pool (the system refused one) the items run here one after another.
    pub fn share_out<T: Sync>(
        &mut self,
        items: &[T],
        threads: usize,
        work: impl Fn(&T, &mut Run<'static>) + Sync,
    ) {
        use rayon::prelude::*;
        let children: Vec<Run<'static>> = items.iter().map(|_| self.child()).collect();
        let run_one = |(item, mut child): (&T, Run<'static>)| {
            work(item, &mut child);
            child
        };
        let done: Vec<Run<'static>> =
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(|| {
                    items
                        .par_iter()
                        .zip(children.into_par_iter())
                        .map(run_one)
                        .collect()
                }),
                Err(_) => items.iter().zip(children).map(run_one).collect(),
            };
        for child in done {
            self.absorb(child);
        }
    }

    /// Turn a strategy's answer into the outcome: proven unless a limit stopped the search
    /// before the strategy could prove its answer.
    pub fn finish(mut self, strategy: &str, mut answer: Answer) -> Outcome {
        if let Some(p) = self.progress.as_mut() {
            p.finish();
        }
        let limited = self.stopped.filter(|r| r.is_limit());
        if answer.count.is_none() && answer.optimum.is_none() {
            answer.count = Some(self.stats.solutions);
        }
        let status =
            if answer.partial.is_some() || (limited.is_some() && !answer.proven_despite_limit) {
                Status::Limit
            } else if answer.no_solution() {
                Status::NoSolution
            } else {
                Status::Solved
            };
        Outcome {
            status,
            strategy: strategy.to_string(),
            proven: status != Status::Limit,
            stopped: self.stopped,
            elapsed: self.start.elapsed(),
            stats: self.stats,
            answer,
        }
    }
}

/// The Dancing Links core asks a run when to stop and hands it solutions.
impl crate::dlx::Control for Run<'_> {
    #[inline(always)]
    fn node(&mut self) -> bool {
        Run::node(self)
    }
    fn check(&mut self) -> bool {
        Run::check(self)
    }
    fn wants_solutions(&self) -> bool {
        self.reports_each()
    }
    fn solution(&mut self, options: &[usize]) -> bool {
        Run::solution(self, options)
    }
    #[inline]
    fn count(&mut self, k: u128) {
        Run::count(self, k)
    }
    fn counter(&mut self, name: &'static str, value: u64) {
        self.stats.add_counter(name, value)
    }
}

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
    pub reason: Option<String>,
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
}

impl Answer {
    pub fn count(count: u128) -> Answer {
        Answer {
            count: Some(count),
            ..Answer::default()
        }
    }

    pub fn none_because(reason: impl Into<String>) -> Answer {
        Answer {
            count: Some(0),
            reason: Some(reason.into()),
            ..Answer::default()
        }
    }

    fn no_solution(&self) -> bool {
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
    /// The objective value the subtrees are searched below (the best known at the split).
    pub bar: u64,
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
    /// A frontier count outgrew its memory bound: this many new states at one square.
    FrontierOutgrew { states: usize, bytes: usize },
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
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no-solution",
            Status::Limit => "limit",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_stops_exactly() {
        let mut run = Run::new(Limits {
            nodes: Some(10_000),
            ..Limits::default()
        });
        let mut n = 0u64;
        while !run.node() {
            n += 1;
        }
        assert_eq!(n + 1, 10_000);
        let out = run.finish("t", Answer::default());
        assert_eq!(out.status, Status::Limit);
    }

    #[test]
    fn sink_break_is_not_a_limit() {
        let mut seen = Vec::new();
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            seen.push(s.to_vec());
            ControlFlow::Break(())
        }));
        assert!(run.solution(&[1, 2]));
        let out = run.finish("t", Answer::default());
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.answer.count, Some(1));
        assert_eq!(seen, vec![vec![1, 2]]);
    }

    #[test]
    fn children_share_the_node_budget() {
        let mut run = Run::new(Limits {
            nodes: Some(50_000),
            ..Limits::default()
        });
        let mut a = run.child();
        let mut b = run.child();
        let mut steps = 0;
        loop {
            steps += 1;
            if a.node() || b.node() {
                break;
            }
        }
        assert!(steps <= 50_000, "{steps}");
        run.absorb(a);
        run.absorb(b);
        assert_eq!(run.stopped(), Some(StopReason::Nodes));
    }
}
