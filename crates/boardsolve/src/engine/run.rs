//! The run a strategy searches under: its limits and their checks, the shared budget and
//! stop flags of parallel children, progress reports and the solution sink, and the
//! [`Control`](crate::dlx::Control) the Dancing Links core asks.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::answer::{Answer, Outcome, PartialWork, RunNote, Status};
use super::clock::Clock;
use super::{Limits, Stats, StopReason};

/// Receives where the search stands now and then (a few times a second at most).
pub trait Progress: Send {
    fn update(&mut self, stats: &Stats, elapsed: Duration, standing: &Standing);
    fn finish(&mut self) {}
}

/// Where an optimising search stands, as a strategy last said (all `None`: it said nothing,
/// and the counters speak for themselves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The best objective value so far.
    pub best: Option<u64>,
    /// What found it when not the search itself ("heuristic", "local search").
    pub found_by: Option<&'static str>,
    /// The lower bound at the root.
    pub bound: Option<u64>,
    /// Subtrees done of those listed, when workers share a list.
    pub subtrees: Option<(usize, usize)>,
    /// The branch taken at the top two levels, as (k, of); `of == 0` where there is none.
    pub branch: [(usize, usize); 2],
    /// Probes done of those asked, by this worker, while estimating a tree.
    pub probes: Option<(u64, u64)>,
}

/// State shared by a run and its parallel children.
#[derive(Debug, Default)]
struct Shared {
    stop: AtomicBool,
    nodes: AtomicU64,
}

/// A solution as the kind's model encodes it (squares, option indices, cell colours ...).
pub type Sink<'a> = Box<dyn FnMut(&[usize]) -> ControlFlow<()> + Send + 'a>;

/// Nodes between publishing this run's count to the shared node budget; the clock is
/// looked at when the [`Clock`]'s tick moves, however slow a node is.
const CHECK_EVERY: u64 = 1 << 12;

pub struct Run<'a> {
    limits: Limits,
    start: Instant,
    clock: Clock,
    /// The clock's tick at the last check.
    seen_tick: u64,
    shared: Arc<Shared>,
    /// Nodes of this run already added to `shared.nodes`.
    published: u64,
    next_check: u64,
    last_progress: Instant,
    pub stats: Stats,
    stopped: Option<StopReason>,
    sink: Option<Sink<'a>>,
    progress: Option<Box<dyn Progress + 'a>>,
    standing: Standing,
}

impl<'a> Run<'a> {
    pub fn new(limits: Limits) -> Run<'a> {
        let start = Instant::now();
        // A node limit below the interval is checked where it falls.
        let next_check = limits.nodes.map_or(CHECK_EVERY, |l| l.min(CHECK_EVERY));
        Run {
            clock: Clock::new(limits.time, None),
            seen_tick: 0,
            limits,
            start,
            shared: Arc::new(Shared::default()),
            published: 0,
            next_check,
            last_progress: start,
            stats: Stats::default(),
            stopped: None,
            sink: None,
            progress: None,
            standing: Standing::default(),
        }
    }

    /// Stop by this clock's deadline and interrupt flag (its deadline replaces the one of
    /// [`Limits::time`]): the clock that also times the phases around the search.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.seen_tick = clock.tick();
        self.clock = clock;
        self
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
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
        self.due() && self.check()
    }

    /// Count `k` nodes at once (from a hot loop that keeps its own counter); `true` means stop.
    #[inline]
    pub fn nodes(&mut self, k: u64) -> bool {
        self.stats.nodes += k;
        self.due() && self.check()
    }

    /// Whether a check is due: the clock ticked, or the node count reached the next check.
    #[inline(always)]
    fn due(&self) -> bool {
        self.stats.nodes >= self.next_check || self.clock.tick() != self.seen_tick
    }

    /// Whether to stop, counting no node: for work between nodes that may take long
    /// (computing a bound, a local search step). As cheap as [`Run::node`].
    #[inline]
    pub fn poll(&mut self) -> bool {
        self.due() && self.check()
    }

    /// Nodes a hot loop that counts its own may add before reporting them with
    /// [`Run::nodes`]: up to the next node check, so a node limit stops where it says.
    #[inline]
    pub fn nodes_until_check(&self) -> u64 {
        self.next_check.saturating_sub(self.stats.nodes).max(1)
    }

    /// Whether to stop, checking the clock and the shared flags now.
    #[cold]
    pub fn check(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        self.seen_tick = self.clock.tick();
        let total = self.publish();
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
        if let Some(reason) = self.clock.expired() {
            return self.stop(reason);
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = Some(StopReason::Interrupted);
            return true;
        }
        let now = Instant::now();
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
                p.update(&shown, elapsed, &self.standing);
            }
        }
        false
    }

    /// Add the nodes counted since the last check to the count shared with parallel siblings,
    /// which the node limit reads; returns that count.
    fn publish(&mut self) -> u64 {
        let delta = self.stats.nodes - self.published;
        self.published = self.stats.nodes;
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta
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

    /// Say where the search stands, for the progress display.
    pub fn set_standing(&mut self, standing: Standing) {
        self.standing = standing;
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
            clock: self.clock.clone(),
            seen_tick: self.seen_tick,
            shared: Arc::clone(&self.shared),
            published: 0,
            next_check: CHECK_EVERY.min(self.next_check),
            last_progress: self.last_progress,
            stats: Stats::default(),
            stopped: None,
            sink: None,
            progress: None,
            standing: Standing::default(),
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
            // An item reached after a limit struck is not begun: a child checks the limits
            // only every `CHECK_EVERY` nodes, and thousands of small items would each run
            // that far past them. Its nodes are published when it ends, for the node limit
            // that the next items check.
            if !child.check() {
                work(item, &mut child);
                child.publish();
            }
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
        if let Some(limit) = self.limits.nodes
            && self.stats.nodes > limit
        {
            answer.notes.push(RunNote::NodeLimitPassed { limit }.into());
        }
        if answer.count.is_none() && answer.big.is_none() && answer.optimum.is_none() {
            answer.count = Some(self.stats.solutions);
        }
        // A best solution or a compact one is a solution the search found, though it never
        // passed through the sink: the statistics count it.
        if self.stats.solutions == 0 && (answer.best.is_some() || answer.compact.is_some()) {
            self.stats.solutions = 1;
        }
        let part_done = answer.partial.as_ref().is_some_and(|p| {
            matches!(
                p.work,
                PartialWork::Counted
                    | PartialWork::Searched { .. }
                    | PartialWork::SearchedAbove { .. }
            )
        });
        let status = if part_done && limited.is_none() {
            Status::Part
        } else if answer.partial.is_some() || (limited.is_some() && !answer.proven_despite_limit) {
            Status::Limit
        } else if answer.no_solution() {
            Status::NoSolution
        } else {
            Status::Solved
        };
        Outcome {
            status,
            strategy: strategy.to_string(),
            proven: !matches!(status, Status::Limit | Status::Part),
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

    /// Thousands of items of fewer nodes than a check interval each: none is begun once the
    /// node limit is reached (each used to run, and the limit went unseen).
    #[test]
    fn share_out_begins_no_item_past_a_limit() {
        let mut run = Run::new(Limits {
            nodes: Some(1_000),
            ..Limits::default()
        });
        let items: Vec<usize> = (0..10_000).collect();
        run.share_out(&items, 2, |_, child| {
            for _ in 0..50 {
                if child.node() {
                    return;
                }
            }
        });
        assert_eq!(run.stopped(), Some(StopReason::Nodes));
        assert!(run.stats.nodes < 2_000, "{} nodes", run.stats.nodes);
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
