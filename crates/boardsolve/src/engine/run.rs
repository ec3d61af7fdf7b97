//! The run a strategy searches under: its limits and their checks, the shared budget and
//! stop flags of parallel children, progress reports and the solution sink, and the
//! [`Control`](crate::dlx::Control) the Dancing Links core asks.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::answer::{Answer, Outcome, PartialWork, RunNote, Status};
use super::clock::Clock;
use super::{Limits, Stats, StopReason};

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
    /// Where a sweep over the squares stands.
    pub sweep: Option<SweepStanding>,
}

/// A sweep over a board's squares (a frontier count): the square it is at, of how many, the
/// states after the square before, and the bytes the run's states take on disk, if any (read
/// from the run's [`DiskMeter`] when the gauge is read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepStanding {
    pub square: usize,
    pub of: usize,
    pub states: u64,
    pub on_disk: u64,
}

/// State shared by a run and its parallel children.
#[derive(Debug, Default)]
struct Shared {
    stop: AtomicBool,
    /// Why the first run that stopped the others stopped: what they report too, so that a
    /// count stopped by one worker's memory says so, not that its siblings were interrupted.
    cause: std::sync::OnceLock<StopReason>,
    nodes: AtomicU64,
    /// Solutions counted by the run and its children, published at their checks, as the
    /// nodes are (for the gauge; the answer adds the children's statistics exactly).
    solutions: AtomicU64,
    /// Items of [`Run::share_out`]'s lists: given out, and done.
    items: AtomicU64,
    items_done: AtomicU64,
    /// The items are searched one after another on this run, not side by side.
    items_in_turn: AtomicBool,
    /// What a strategy last said of where it stands, from whichever run said it.
    standing: Mutex<Standing>,
    /// Bytes the run and its children hold on disk now (see [`DiskMeter`]).
    on_disk: AtomicU64,
}

/// Counts the bytes a run's strategy holds on disk (states spilled out of memory), shared by
/// the run and its children, so that the gauge says what is there at the moment it is read,
/// every sweep's files together.
#[derive(Debug)]
pub struct DiskMeter {
    shared: Arc<Shared>,
}

impl DiskMeter {
    pub fn add(&self, bytes: u64) {
        self.shared.on_disk.fetch_add(bytes, Ordering::Relaxed);
    }

    pub fn sub(&self, bytes: u64) {
        self.shared.on_disk.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Where a run stands, read from another thread while the search goes on (a progress
/// display's timer): the whole search's nodes and solutions at every thread count, published
/// by each worker at its checks, a few thousand nodes or one clock tick apart.
#[derive(Clone, Debug)]
pub struct Gauge {
    shared: Arc<Shared>,
    start: Instant,
}

/// One reading of a [`Gauge`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    pub elapsed: Duration,
    pub nodes: u64,
    pub solutions: u64,
    pub standing: Standing,
    /// Items done of those given out to workers (the subtrees of a list), where a strategy
    /// shares its work out through the run; a strategy that keeps its own list says it in
    /// `standing.subtrees` instead.
    pub items: Option<(u64, u64)>,
    /// Those items are searched one at a time, so what the one in hand says of where it
    /// stands is where the run is.
    pub in_turn: bool,
}

impl Reading {
    /// The share of the search done, from the subtrees done of the list, else from the
    /// branches taken at the top two levels of the tree (a measure of position, not of
    /// work: subtrees differ in size, so what it predicts is a guess, said as one).
    pub fn share_done(&self) -> Option<f64> {
        let of_list = |done: u64, of: u64| (of > 0).then(|| done as f64 / of as f64);
        if let Some((done, of)) = self.standing.subtrees {
            return of_list(done as u64, of as u64);
        }
        if let Some((done, of)) = self.items {
            return of_list(done, of);
        }
        let [(k1, of1), (k2, of2)] = self.standing.branch;
        if of1 == 0 {
            return None;
        }
        // `k` counts from 1: the branch being searched.
        let inner = if of2 > 0 {
            k2.saturating_sub(1) as f64 / of2 as f64
        } else {
            0.0
        };
        Some((k1.saturating_sub(1) as f64 + inner) / of1 as f64)
    }

    /// Seconds left at the pace so far, once some share is done.
    pub fn seconds_left(&self) -> Option<f64> {
        let f = self.share_done()?;
        (f > 0.0 && f < 1.0).then(|| self.elapsed.as_secs_f64() * (1.0 - f) / f)
    }
}

impl Gauge {
    pub fn read(&self) -> Reading {
        let items = self.shared.items.load(Ordering::Relaxed);
        Reading {
            elapsed: self.start.elapsed(),
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            solutions: self.shared.solutions.load(Ordering::Relaxed),
            standing: {
                let mut s = *self
                    .shared
                    .standing
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if let Some(w) = &mut s.sweep {
                    w.on_disk = self.shared.on_disk.load(Ordering::Relaxed);
                }
                s
            },
            items: (items > 0).then(|| (self.shared.items_done.load(Ordering::Relaxed), items)),
            in_turn: self.shared.items_in_turn.load(Ordering::Relaxed),
        }
    }
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
    pub stats: Stats,
    /// Solutions of this run already added to `shared.solutions`.
    published_solutions: u128,
    stopped: Option<StopReason>,
    sink: Option<Sink<'a>>,
    standing: Standing,
    /// `standing` changed since the last check published it.
    standing_new: bool,
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
            stats: Stats::default(),
            published_solutions: 0,
            stopped: None,
            sink: None,
            standing: Standing::default(),
            standing_new: false,
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

    /// What a progress display reads, from any thread, while this run and its children
    /// search.
    pub fn gauge(&self) -> Gauge {
        Gauge {
            shared: Arc::clone(&self.shared),
            start: self.start,
        }
    }

    /// The meter of the bytes this run holds on disk, for the gauge.
    pub fn disk_meter(&self) -> DiskMeter {
        DiskMeter {
            shared: Arc::clone(&self.shared),
        }
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
            let cause = self.shared.cause.get().copied();
            self.stopped = Some(cause.unwrap_or(StopReason::Interrupted));
            return true;
        }
        self.publish_standing();
        false
    }

    /// Add the nodes counted since the last check to the count shared with parallel siblings,
    /// which the node limit reads; returns that count.
    fn publish(&mut self) -> u64 {
        let delta = self.stats.nodes - self.published;
        self.published = self.stats.nodes;
        let solutions = self.stats.solutions - self.published_solutions;
        if solutions > 0 {
            self.published_solutions = self.stats.solutions;
            let k = u64::try_from(solutions).unwrap_or(u64::MAX);
            self.shared.solutions.fetch_add(k, Ordering::Relaxed);
        }
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta
    }

    /// The standing a strategy set since the last check, for the gauge: at checks only, so
    /// a strategy may set it at every node it likes.
    fn publish_standing(&mut self) {
        if self.standing_new {
            self.standing_new = false;
            *self
                .shared
                .standing
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = self.standing;
        }
    }

    fn stop(&mut self, reason: StopReason) -> bool {
        self.stopped = Some(reason);
        if reason.is_limit() {
            // Parallel siblings stop too, for the same reason.
            let _ = self.shared.cause.set(reason);
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        true
    }

    /// Stop because the strategy's working memory reached its bound: the answer is then
    /// unproven, as with any other limit.
    pub fn out_of_memory(&mut self) {
        self.stop(StopReason::Memory);
    }

    /// Stop because the scratch folder failed the strategy: the answer is unproven.
    pub fn out_of_disk(&mut self) {
        self.stop(StopReason::Disk);
    }

    /// Stop because the count reached the most the strategy's counters hold: the count so
    /// far is a lower bound, as with any other limit.
    pub fn counter_full(&mut self) {
        self.stop(StopReason::CounterLimit);
    }

    /// `n` more items of a list given out to workers, for the gauge's share done
    /// ([`Run::share_out`] says it; a strategy with workers of its own says it too).
    pub fn list_items(&self, n: usize) {
        self.shared.items.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// `n` items of a list this run searches itself, one after another.
    pub fn list_items_in_turn(&self, n: usize) {
        self.shared.items_in_turn.store(true, Ordering::Relaxed);
        self.list_items(n);
    }

    /// One item of such a list done, by whichever run (a child) searched it.
    pub fn item_done(&self) {
        self.shared.items_done.fetch_add(1, Ordering::Relaxed);
    }

    /// Say where the search stands, for the progress display.
    pub fn set_standing(&mut self, standing: Standing) {
        if standing != self.standing {
            self.standing = standing;
            self.standing_new = true;
        }
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
            stats: Stats::default(),
            published_solutions: 0,
            stopped: None,
            sink: None,
            standing: Standing::default(),
            standing_new: false,
        }
    }

    /// Merge a finished child's statistics and stop reason.
    pub fn absorb(&mut self, child: Run<'_>) {
        self.stats.merge(&child.stats);
        self.published += child.stats.nodes;
        self.published_solutions += child.stats.solutions;
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
        self.list_items(items.len());
        let run_one = |(item, mut child): (&T, Run<'static>)| {
            // An item reached after a limit struck is not begun: a child checks the limits
            // only every `CHECK_EVERY` nodes, and thousands of small items would each run
            // that far past them. Its nodes are published when it ends, for the node limit
            // that the next items check.
            if !child.check() {
                work(item, &mut child);
                child.publish();
                child.publish_standing();
            }
            child.item_done();
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
        let limited = self.stopped.filter(|r| r.is_limit());
        if let Some(limit) = self.limits.nodes
            && self.stats.nodes > limit
        {
            answer.notes.push(RunNote::NodeLimitPassed { limit }.into());
        }
        if answer.count.is_none() && answer.big.is_none() && answer.optimum.is_none() {
            answer.count = Some(self.stats.solutions);
        }
        // A count that reached the solution limit is at least so many, whatever the search
        // added past it: parallel workers each stop at the limit, and a weighted count adds
        // many at once, so the sum is never taken for an exact total.
        if let Some(limit) = self.limits.solutions {
            let limit = u128::from(limit);
            if answer.big.is_some() || answer.count.is_some_and(|c| c >= limit) {
                answer.big = None;
                answer.count = Some(limit);
                if limited.is_none() {
                    self.stopped = Some(StopReason::Solutions);
                }
            }
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
                    | PartialWork::CountedLargest { .. }
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
    fn workers_stopped_by_a_sibling_report_its_reason() {
        // The first item's worker runs out of memory; the second sees the stop at its next
        // check. The run reports the memory, whichever worker is absorbed first.
        let mut run = Run::new(Limits::default());
        let reasons = std::sync::Mutex::new(Vec::new());
        run.share_out(&[0, 1], 2, |&i, child| {
            if i == 1 {
                child.out_of_memory();
            } else {
                let start = Instant::now();
                while !child.check() {
                    assert!(start.elapsed().as_secs() < 60, "the sibling never stopped");
                    std::thread::yield_now();
                }
            }
            reasons.lock().unwrap().push(child.stopped());
        });
        assert_eq!(run.stopped(), Some(StopReason::Memory));
        let reasons = reasons.into_inner().unwrap();
        assert_eq!(reasons, [Some(StopReason::Memory); 2]);
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
