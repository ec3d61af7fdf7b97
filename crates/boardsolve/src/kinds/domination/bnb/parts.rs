//! How a proof of `bnb` runs: the first incumbent, the root, then a list of subtrees below
//! it, searched on one thread or several, cut into parts (`--part I/N`, `--part I/N,J/M`),
//! or estimated (`--estimate`).
//!
//! The list: the corner subtrees (see `symmetry`), split one level further when the search
//! is split (their children balance the load, as a few corner combinations hold most of
//! the work); with no corner cells, the nodes at the first depth that has enough of them.
//! Sound: the list is a set of nodes no one of which lies below another and whose subtrees
//! together hold every placement the search from the root would meet (a subtree's node
//! carries the excluded siblings and symmetries of the path to it), so searching them all
//! is searching the tree. A part takes every N-th subtree of the list, so the N parts take
//! each subtree once; a subpart does the same with the part's subtrees taken a level or
//! more down. The list depends only on the model, the incumbent and the cut (never on the
//! threads or the machine), and its fingerprint, printed with each part, shows that parts
//! run apart searched one list.

use super::super::band::Bands;
use super::super::model::Model;
use super::estimate::{Estimate, Probe, Sums};
use super::pool::{self, DONATE_EVERY, Incumbent, Piece, Trace, TraceLine, Worker};
use super::search::{Aim, Reach, Search, Symmetry};
use super::stack::Subtree;
use super::symmetry;
use crate::engine::split::{Fingerprint, every_nth};
use crate::engine::{Goal, Partial, PartialWork, Run, Standing, Subpart, SubtreeList, Task};
use crate::util::Rng;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Levels at most a part's subtrees are taken down for its subparts (`--part I/N,J/M`):
/// part of the definition of the sublist that every subpart of a part cuts alike.
const SUBPART_LEVELS: usize = 4;

/// Subtrees the list below the root holds at least, where there are no corner cells:
/// with `--part` or `--estimate` a number that does not depend on the threads, so that
/// every part sees the same list; otherwise enough to balance the workers' load.
const LIST_SUBTREES: usize = 256;
const SUBTREES_A_WORKER: usize = 32;
/// The depth the list below the root goes at most: deeper, the tree is too thin to split.
const LIST_DEPTH: usize = 6;

/// The subtree list of `bnb` on model `m`, as every part of a proof computes it: the first
/// incumbent (greedy rounds and the local search), the root bounded, the subtrees below
/// it. `None` when there is no list: a limit stopped the search, or the root's bound
/// proves the incumbent.
pub fn subtree_list(m: &Model, run: &mut Run) -> Option<SubtreeList> {
    let task = Task {
        goal: Goal::Minimize,
        part: Some((1, 1)),
        ..Task::default()
    };
    let mut s = Search::new(m, &task);
    s.first_incumbent(run);
    let subtrees = s.list_subtrees(run)?;
    Some(SubtreeList {
        subtrees: subtrees.len(),
        bar: Some(s.bar as u64),
        fingerprint: fingerprint(&subtrees),
    })
}

impl<'m> Search<'m> {
    /// Minimize: the first incumbent, then the proof.
    pub fn search_minimum(&mut self, run: &mut Run) {
        self.first_incumbent(run);
        self.prove(run);
    }

    /// The first incumbent: a few greedy rounds give the local search a start; the local
    /// search does the rest.
    pub fn first_incumbent(&mut self, run: &mut Run) {
        self.aim = Aim::Minimize(Symmetry::of(self.m));
        if let Some(h) = self.m.heuristic(8, run) {
            self.bar = h.len();
            run.set_standing(Standing {
                best: Some(h.len() as u64),
                found_by: Some("heuristic"),
                ..Standing::default()
            });
            self.best = Some(h);
        }
        if let Some(h) = &self.best {
            let patience = self.m.local_patience();
            if let Some(better) = self.m.local_search(h, patience, run) {
                self.bar = better.len();
                run.set_standing(Standing {
                    best: Some(better.len() as u64),
                    found_by: Some("local search"),
                    ..Standing::default()
                });
                self.best = Some(better);
            }
        }
    }

    /// Minimize from the incumbent (`bar`): the root, then the subtrees, split among the
    /// threads, cut to one part, or estimated, as the task asks.
    pub fn prove(&mut self, run: &mut Run) {
        let Some(subtrees) = self.list_subtrees(run) else {
            return;
        };
        let bar = self.bar;
        let Some((mine, mut partial)) = self.cut_part(subtrees, bar, run) else {
            return;
        };
        if let Some(probes) = self.job.estimate {
            let threads = self.job.threads;
            let estimate = self.estimate_tree(&mine, probes, run);
            partial.work = PartialWork::Estimated(estimate.map(|e| e.for_threads(threads)));
            self.partial = Some(partial);
            return;
        }
        self.pool(mine, run);
        if self.job.part.is_some() {
            if !run.is_stopped() {
                partial.work = PartialWork::Searched {
                    none_below: self.bar.min(bar) as u64,
                };
            }
            self.partial = Some(partial);
        }
    }

    /// The subtrees of the task's part (all of them without `--part`), a subpart's taken a
    /// few levels down, and what the part's record will say of them, below `bar`. `None`
    /// when a limit stopped the part before its descendants were listed (the partial result
    /// then says so).
    fn cut_part(
        &mut self,
        subtrees: Vec<Subtree>,
        bar: usize,
        run: &mut Run,
    ) -> Option<(Vec<Subtree>, Partial)> {
        let total = subtrees.len();
        let list = fingerprint(&subtrees);
        let mine = match self.job.part {
            Some((i, n)) => every_nth(subtrees, i, n),
            None => subtrees,
        };
        let mut partial = Partial {
            list: SubtreeList {
                subtrees: total,
                bar: Some(bar as u64),
                fingerprint: list,
            },
            part: self.job.part,
            subpart: None,
            taken: mine.len(),
            work: PartialWork::NotAllSearched,
        };
        let Some((j, m)) = self.job.subpart.filter(|_| self.job.part.is_some()) else {
            return Some((mine, partial));
        };
        // The part's subtrees a level down, and further while that leaves fewer than 4
        // children a subpart (a heavy subtree's node may have only 2): the list every subpart
        // cuts alike.
        let taken = mine.len();
        let mut children = mine;
        for _ in 0..SUBPART_LEVELS {
            let Some(next) = self.children(&children, run) else {
                partial.work = PartialWork::StoppedBeforeDescendants;
                self.partial = Some(partial);
                return None;
            };
            children = next;
            if children.len() >= 4 * m {
                break;
            }
        }
        partial.subpart = Some(Subpart {
            index: (j, m),
            descendants: children.len(),
            of_subtrees: taken,
            fingerprint: fingerprint(&children),
        });
        let mine = every_nth(children, j, m);
        partial.taken = mine.len();
        Some((mine, partial))
    }

    /// The second phase of goal count in parts: the placements of exactly `k` pieces (the
    /// optimum, given) below the part's subtrees. The list is the count's own (every
    /// placement, no symmetry breaking), cut as minimize cuts its list; one thread a part.
    pub fn search_count_part(&mut self, k: usize, run: &mut Run) {
        self.aim = Aim::Count(k);
        let Some(subtrees) = self.top_subtrees(run) else {
            return;
        };
        let Some((mine, mut partial)) = self.cut_part(subtrees, k, run) else {
            return;
        };
        let mut stopped = false;
        for t in &mine {
            if self.resume(t, run) {
                stopped = true;
                break;
            }
        }
        if !stopped && !run.is_stopped() {
            partial.work = PartialWork::Counted;
        }
        self.partial = Some(partial);
    }

    /// The root's bound and multipliers (every subtree below starts from them), then the
    /// list of subtrees the proof goes on from. `None` when nothing is left to list: a limit
    /// stopped the search, the root has nothing to branch on or its bound proves the
    /// incumbent, or (one thread, no corner cells) the search went on from the root itself.
    pub fn list_subtrees(&mut self, run: &mut Run) -> Option<Vec<Subtree>> {
        self.reach = Reach::RootBound;
        let stopped = self.start(run);
        self.reach = Reach::Whole;
        if stopped || self.bounds.root_lam.is_empty() || self.bounds.root_bound >= self.bar {
            return None;
        }
        let split = self.job.threads > 1 || self.job.part.is_some() || self.job.estimate.is_some();
        match self.corner_subtrees() {
            // A few corner combinations hold most of the work: their children, recorded one
            // level down, balance the workers' load (and the parts').
            Some(subtrees) if split => self.children(&subtrees, run),
            Some(subtrees) => Some(subtrees),
            None if split => self.top_subtrees(run),
            None => {
                self.start(run);
                None
            }
        }
    }

    /// The subtrees of the corner cells (see `symmetry`), where symmetry is broken and they
    /// apply.
    pub fn corner_subtrees(&mut self) -> Option<Vec<Subtree>> {
        if self.symmetry() != Symmetry::Broken {
            return None;
        }
        symmetry::corner_subtrees(self.m, self.bar, &mut self.corner_images)
    }

    /// The children of `subtrees`, recorded one level below each; `None` when a limit
    /// stopped the search.
    fn children(&mut self, subtrees: &[Subtree], run: &mut Run) -> Option<Vec<Subtree>> {
        self.subtrees.clear();
        for t in subtrees {
            self.reach = Reach::RecordAt(t.depth + 1);
            if self.resume(t, run) {
                self.reach = Reach::Whole;
                return None;
            }
        }
        self.reach = Reach::Whole;
        Some(std::mem::take(&mut self.subtrees))
    }

    /// The top of the tree explored down to a depth that leaves enough subtrees (see
    /// `LIST_SUBTREES`); `None` when a limit stopped it.
    pub fn top_subtrees(&mut self, run: &mut Run) -> Option<Vec<Subtree>> {
        let enough = if self.job.part.is_some() || self.job.estimate.is_some() {
            LIST_SUBTREES
        } else {
            SUBTREES_A_WORKER * self.job.threads
        };
        let mut depth = 1;
        loop {
            self.reach = Reach::RecordAt(depth);
            self.subtrees.clear();
            if self.start(run) {
                self.reach = Reach::Whole;
                return None;
            }
            // Deep enough when there are many subtrees, or the tree is too thin.
            if self.subtrees.len() >= enough || depth >= LIST_DEPTH || self.subtrees.is_empty() {
                break;
            }
            depth += 1;
        }
        self.reach = Reach::Whole;
        Some(std::mem::take(&mut self.subtrees))
    }

    /// Knuth's estimate (see `estimate`) of the nodes below `subtrees`: `probes` random
    /// paths, each from a subtree drawn at random; `None` when a limit stopped the first
    /// probe.
    fn estimate_tree(
        &mut self,
        subtrees: &[Subtree],
        probes: u64,
        run: &mut Run,
    ) -> Option<Estimate> {
        if subtrees.is_empty() {
            return Some(Estimate::nothing());
        }
        let threads = self.job.threads;
        // Each worker its own share of the probes and its own random stream.
        let share =
            |i: usize| probes / threads as u64 + u64::from((i as u64) < probes % threads as u64);
        let seed =
            |i: usize| Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        let sums = if threads == 1 {
            self.probes(subtrees, probes, seed(0), run)
        } else {
            let parts = self.on_workers(subtrees.len(), run, |i, s, run| {
                s.probes(subtrees, share(i), seed(i), run)
            });
            parts.into_iter().fold(Sums::default(), Sums::merge)
        };
        Estimate::from_sums(sums)
    }

    /// `count` probes from subtrees drawn with `rng`, added up (those a limit cut short
    /// left out).
    fn probes(&mut self, subtrees: &[Subtree], count: u64, mut rng: Rng, run: &mut Run) -> Sums {
        let report = self.worker.as_ref().is_none_or(|w| w.reporter);
        let mut sums = Sums::default();
        for _ in 0..count {
            let t = &subtrees[rng.below(subtrees.len())];
            self.probe = Some(Probe::new(rng, subtrees.len()));
            let clock = std::time::Instant::now();
            let stopped = self.resume(t, run);
            let mut p = self.probe.take().expect("the probe is kept while it runs");
            p.time += p.weight * (clock.elapsed().as_secs_f64() - p.child);
            if stopped {
                break;
            }
            sums.add(&p);
            rng = p.rng;
            if report && sums.done.is_multiple_of(64) {
                run.set_standing(Standing {
                    probes: Some((sums.done, count)),
                    ..Standing::default()
                });
            }
        }
        sums
    }

    /// Explore `subtrees` on `threads` workers (this thread among them, so the progress line
    /// stays live), which claim them one at a time in order, sharing the incumbent; when
    /// the list runs dry, the idle workers take the subtrees busy ones donate (see
    /// `pool::Donations`). Where the model names a trace file, the pieces' trace (see
    /// `pool::Trace`).
    pub fn pool(&mut self, subtrees: Vec<Subtree>, run: &mut Run) {
        let next = AtomicUsize::new(0);
        let trace = self.m.trace.as_deref();
        let list = subtrees.len();
        let lines = self.on_workers(list, run, |i, s, run| {
            let mut lines = Vec::new();
            let w = s.worker.as_mut().expect("a worker shares the incumbent");
            let shared = w.shared;
            if trace.is_some() {
                w.trace = Some(Trace {
                    piece: 0,
                    start: 0,
                    gave: Vec::new(),
                });
            }
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let donated: Piece;
                let (t, id) = match subtrees.get(k) {
                    Some(t) => (t, k),
                    None => match shared.donations.take() {
                        Some(p) => {
                            donated = p;
                            (&donated.t, donated.id)
                        }
                        None => break,
                    },
                };
                if s.worker.as_ref().is_some_and(|w| w.reporter) {
                    run.set_standing(shared.standing(s.bounds.root_bound));
                }
                let nodes = run.stats.nodes;
                if let Some(tr) = s.worker.as_mut().and_then(|w| w.trace.as_mut()) {
                    tr.piece = id;
                    tr.start = pool::thread_cpu_ns();
                }
                let stopped = s.resume(t, run);
                if let Some(tr) = s.worker.as_mut().and_then(|w| w.trace.as_mut()) {
                    lines.push(TraceLine {
                        piece: tr.piece,
                        worker: i,
                        cpu_ns: pool::thread_cpu_ns().saturating_sub(tr.start),
                        nodes: run.stats.nodes - nodes,
                        gave: std::mem::take(&mut tr.gave),
                    });
                }
                if stopped {
                    // The others stop at their next check; those waiting, now.
                    shared.donations.stop();
                    break;
                }
                shared.done_one();
            }
            lines
        });
        if let Some(path) = trace {
            let mut lines: Vec<TraceLine> = lines.into_iter().flatten().collect();
            lines.sort_by_key(|l| l.piece);
            pool::write_trace(path, list, self.job.threads, &lines);
        }
    }

    /// Run `work` on the task's threads, each on a worker search of this model that shares
    /// the incumbent (see `pool`); the best placement any worker found becomes this
    /// search's. The workers' results, in order.
    fn on_workers<T: Send>(
        &mut self,
        subtrees: usize,
        run: &mut Run,
        work: impl for<'a> Fn(usize, &mut Search<'a>, &mut Run) -> T + Sync,
    ) -> Vec<T> {
        let donate = self.m.tuning.bnb.donate != 0;
        let incumbent = Incumbent::new(self.bar, subtrees, self.job.threads, donate);
        let (m, symmetry, levels) = (self.m, self.symmetry(), self.levels());
        let (root_bound, root_lam) = (self.bounds.root_bound, &self.bounds.root_lam);
        let banded = self.bounds.bands.is_some();
        let donate_every = self.job.donate_every;
        let make = |i: usize| {
            let mut s = Search::worker(m, symmetry, levels, &incumbent);
            if banded {
                s.bounds.bands = Bands::new(m);
            }
            s.bounds.root_lam.clone_from(root_lam);
            s.bounds.root_bound = root_bound;
            if let Some(w) = s.worker.as_mut() {
                // Worker 0 runs on this thread and keeps the progress line.
                w.reporter = i == 0;
                w.donate_mask = donate_every.max(1).next_power_of_two() - 1;
            }
            s
        };
        let out = pool::on_workers(self.job.threads, run, make, |i, s, run| {
            let out = work(i, s, run);
            s.flush(run);
            out
        });
        let donations = &incumbent.donations;
        for (name, v) in [
            ("donations", &donations.donations),
            ("donated subtrees", &donations.donated),
        ] {
            let v = v.load(Ordering::Relaxed);
            if v > 0 {
                run.stats.add_counter(name, v);
            }
        }
        if let Some(b) = incumbent.into_best() {
            self.bar = b.len();
            self.best = Some(b);
        }
        out
    }

    /// A worker for [`Search::on_workers`]: minimize, the incumbent shared.
    fn worker(
        m: &'m Model,
        symmetry: Symmetry,
        levels: usize,
        shared: &'m Incumbent,
    ) -> Search<'m> {
        let mut s = Search::new(m, &Task::default());
        s.aim = Aim::Minimize(symmetry);
        s.tally = None;
        s.bar = shared.bar();
        s.worker = Some(Worker {
            shared,
            reporter: false,
            ticks: 0,
            donate_mask: DONATE_EVERY - 1,
            trace: None,
        });
        s.bounds.reset(levels);
        s
    }
}

/// A fingerprint of the subtree list (FNV-1a over each subtree's placed pieces, symmetries,
/// uncovered and allowed squares): parts of one proof must search one list, and two binaries
/// (or machines) that print the same fingerprint cut the tree the same way, so their parts
/// can be mixed. The multipliers are left out: they only steer the search below.
fn fingerprint(subtrees: &[Subtree]) -> u64 {
    let mut f = Fingerprint::default();
    f.eat(subtrees.len() as u64);
    for t in subtrees {
        f.eat(t.depth as u64);
        f.eat(u64::from(t.sym));
        f.eat(t.placed.len() as u64);
        t.placed.iter().for_each(|&p| f.eat(p as u64));
        t.uncovered.iter().chain(&t.allowed).for_each(|&x| f.eat(x));
    }
    f.value()
}
