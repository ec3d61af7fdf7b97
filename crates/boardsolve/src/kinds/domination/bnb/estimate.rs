//! Knuth's estimate of a search tree (`--estimate`): how many nodes, and how long.
//!
//! A probe follows one random branch a node, and a node met at depth d stands for the
//! product of the branch counts above it, so the sum along the path is an unbiased
//! estimate of the number of nodes: each node of the tree is met with probability the
//! inverse of that product (D. E. Knuth, Estimating the efficiency of backtrack programs,
//! Math. Comp. 29, 1975). The probes' mean is the estimate, and their spread its standard
//! error.
//!
//! Node costs differ (a node near the root takes more subgradient steps), so the time is
//! estimated the same way: each node's own time (without its child's) times its weight.

use crate::engine::TreeEstimate;
use crate::util::Rng;

/// One probe on its way down.
pub struct Probe {
    pub rng: Rng,
    /// The product of the branch counts above the current node.
    pub weight: f64,
    /// The estimate of the nodes so far.
    pub sum: f64,
    /// The estimate of the time, in seconds of one thread.
    pub time: f64,
    /// The whole time of the last child call (for its parent to take out of its own).
    pub child: f64,
}

impl Probe {
    /// A probe into one of `subtrees` subtrees drawn at random.
    pub fn new(rng: Rng, subtrees: usize) -> Probe {
        Probe {
            rng,
            weight: subtrees as f64,
            sum: 0.0,
            time: 0.0,
            child: 0.0,
        }
    }

    /// A node met: it stands for `weight` nodes.
    #[inline]
    pub fn visit(&mut self) {
        self.sum += self.weight;
    }

    /// One of `count` branches drawn; the weight below it is `count` times this one. Returns
    /// the branch and the weight to restore on the way back.
    pub fn descend(&mut self, count: usize) -> (usize, f64) {
        let pick = self.rng.below(count);
        let weight = self.weight;
        self.weight *= count as f64;
        (pick, weight)
    }

    /// Back from a child whose call took `all` seconds: the child's own time (its call less
    /// its own child's) counts at the child's weight; then the parent's weight again.
    pub fn ascend(&mut self, all: f64, weight: f64) {
        self.time += self.weight * (all - self.child);
        self.child = all;
        self.weight = weight;
    }
}

/// The probes of one worker, added up: the estimates, their squares, how many ended before
/// a limit struck, and the time estimates.
#[derive(Clone, Copy, Default)]
pub struct Sums {
    pub sum: f64,
    pub sq: f64,
    pub done: u64,
    pub time: f64,
}

impl Sums {
    /// A probe that ended.
    pub fn add(&mut self, p: &Probe) {
        self.sum += p.sum;
        self.sq += p.sum * p.sum;
        self.time += p.time;
        self.done += 1;
    }

    pub fn merge(self, o: Sums) -> Sums {
        Sums {
            sum: self.sum + o.sum,
            sq: self.sq + o.sq,
            done: self.done + o.done,
            time: self.time + o.time,
        }
    }
}

/// What `--estimate` found: the nodes below the subtrees, the standard error of that mean
/// (relative), the probes that ended, and the work they stand for.
pub struct Estimate {
    pub nodes: f64,
    pub error: f64,
    pub probes: u64,
    /// Seconds of one thread the whole tree would take (each node's own time, estimated).
    pub work: f64,
}

impl Estimate {
    /// The estimate of no subtrees at all.
    pub fn nothing() -> Estimate {
        Estimate {
            nodes: 0.0,
            error: 0.0,
            probes: 0,
            work: 0.0,
        }
    }

    /// The mean of the probes and its standard error; `None` when none ended.
    pub fn from_sums(s: Sums) -> Option<Estimate> {
        let Sums {
            sum,
            sq,
            done,
            time,
        } = s;
        if done == 0 {
            return None;
        }
        let mean = sum / done as f64;
        let var = (sq / done as f64 - mean * mean).max(0.0);
        let error = if done > 1 && mean > 0.0 {
            (var / (done - 1) as f64).sqrt() / mean
        } else {
            f64::INFINITY
        };
        Some(Estimate {
            nodes: mean,
            error,
            probes: done,
            work: time / done as f64,
        })
    }

    /// The estimate as the engine reports it, for a search on `threads` threads.
    pub fn for_threads(&self, threads: usize) -> TreeEstimate {
        TreeEstimate {
            nodes: self.nodes,
            probes: self.probes,
            relative_error: self.error,
            work_seconds: self.work,
            threads,
        }
    }
}
