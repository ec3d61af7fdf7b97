//! The search of `bnb`: one node, and the outline every node follows.
//!
//! A node holds two bitsets: the squares still uncovered and the squares a piece may still
//! take (not excluded by an earlier branch, not attacked under `independent`). It branches on
//! an uncovered square with the fewest candidate coverers: every covering placement holds
//! one of them. The candidates go in order of squares newly covered; the j-th branch places
//! the j-th candidate and excludes the j-1 before it, so the branches split the placements
//! below the node into disjoint sets, and counting visits each placement once.
//!
//! [`Search::node`] reads as the outline: record (while collecting subtrees), visit (the
//! node counts, the limits are checked), prune (replaceability, see `replace`), leaf, room,
//! bound (see `bound`), fix (reduced costs), choose (the square to branch on), branch (each
//! candidate that is a branch of its own: not dominated, not a symmetric image, see
//! `symmetry`). Each step's soundness is argued where its code is.

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::super::goals::Tally;
use super::super::model::Model;
use super::bound::{Bounded, Bounds};
use super::estimate::Probe;
use super::pool::{DONATE_EVERY, Worker, thread_cpu_ns};
use super::replace::Replace;
use super::stack::{Stack, Subtree};
use super::symmetry;
use crate::engine::{Partial, Run, Standing, Task};

/// What the task asks of a proof: worker threads, `--part i/n` (1-based) and its subpart
/// `j/m`, `--estimate probes`.
pub struct Job {
    pub threads: usize,
    pub part: Option<(usize, usize)>,
    pub subpart: Option<(usize, usize)>,
    pub estimate: Option<u64>,
    /// Nodes between a worker's looks at the hungry count (a power of 2; see `donate`).
    pub donate_every: u32,
}

/// The candidates of each depth, and the counts that choose the square to branch on.
pub struct Branching {
    /// The branching candidates at each depth, `stride` per depth.
    pub cands: Vec<usize>,
    /// Most candidates of a square.
    pub stride: usize,
    /// Candidate count per uncovered square (scratch of `counts`).
    pub count: Vec<u32>,
    /// For each square, the words of its `coverers` row that can be non-zero (`counts`
    /// reads only those: 2 or 3 of 7 words for knights on 20x20).
    pub cover_words: Vec<(u32, u32)>,
    /// At each depth whose node is branching (see `branch_all`): the branch being searched
    /// and the end of the branches this search will take ((0, 0) at a node that is not
    /// branching), and the node's symmetries; what a donation reads (see `donate`).
    pub open: Vec<(u32, u32)>,
    pub sym: Vec<u32>,
}

/// Why a candidate is not a branch of its own.
pub enum Skip {
    /// An earlier sibling covers all it covers (see `Replace::dominated`).
    Dominated,
    /// It is the image of an earlier sibling (see `symmetry::sibling`).
    Symmetric,
}

/// What the search is after: the goal's mode, with what only minimize can ask.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// Placements with fewer pieces than `bar`.
    Minimize(Symmetry),
    /// Every placement of exactly this many pieces (all of them: no symmetry broken).
    Count(usize),
    /// Stop at the first covering placement.
    First,
}

/// Whether a minimize breaks the board's symmetry (see `symmetry`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    Ignored,
    Broken,
}

impl Symmetry {
    /// Broken where the board has symmetries to break.
    pub fn of(m: &Model) -> Symmetry {
        if m.symmetries.len() > 1 {
            Symmetry::Broken
        } else {
            Symmetry::Ignored
        }
    }
}

/// How far a search goes from the node it starts at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every node below.
    Whole,
    /// Bound the root and return: its multipliers and bound are kept.
    RootBound,
    /// Subtrees are being collected: a node at this depth is recorded instead of explored.
    RecordAt(usize),
}

pub struct Search<'m> {
    pub m: &'m Model,
    pub aim: Aim,
    pub reach: Reach,
    pub stack: Stack,
    pub branching: Branching,
    pub bounds: Bounds,
    pub replace: Replace,
    pub best: Option<Vec<usize>>,
    /// Placements must have fewer than this many pieces to matter (minimize).
    pub bar: usize,
    pub tally: Option<Tally<'m>>,
    pub first_size: Option<usize>,
    pub job: Job,
    /// The nodes recorded while subtrees are collected (see `Reach::RecordAt`).
    pub subtrees: Vec<Subtree>,
    /// The branch being explored at depths 0 and 1 and how many there are (progress line).
    pub top: [(usize, usize); 2],
    /// Its part in a pool of workers (parallel minimize): the shared incumbent.
    pub worker: Option<Worker<'m>>,
    /// While probing the tree (`--estimate`): one random path at a time.
    pub probe: Option<Probe>,
    /// Scratch rows where a donation makes the nodes it hands over (see `donate`).
    pub donor: Option<Stack>,
    /// What a split or estimated search did, for the answer line.
    pub partial: Option<Partial>,
    /// Branches skipped as symmetric images, nodes with a forced square, and corner
    /// combinations left out as images of others (statistics).
    pub symmetric: u64,
    pub forced: u64,
    pub corner_images: u64,
}

impl<'m> Search<'m> {
    pub fn new(m: &'m Model, task: &Task) -> Search<'m> {
        let n = m.board.squares();
        let depth = m.cells.len() + 2;
        let stride = (0..n)
            .map(|t| m.coverers.row_count(t))
            .max()
            .unwrap_or(1)
            .max(1);
        Search {
            m,
            aim: Aim::Minimize(Symmetry::Ignored),
            reach: Reach::Whole,
            stack: Stack::new(m, depth),
            branching: Branching {
                cands: vec![0; depth * stride],
                stride,
                count: vec![0; n],
                cover_words: (0..n).map(|t| word_range(m.coverers.row(t))).collect(),
                open: vec![(0, 0); depth],
                sym: vec![0; depth],
            },
            bounds: Bounds::new(m, stride),
            replace: Replace::new(m, depth),
            best: None,
            bar: usize::MAX,
            tally: Some(Tally::new(m, task)),
            first_size: None,
            job: Job {
                threads: task.threads.max(1),
                part: task.part,
                subpart: task.subpart,
                estimate: task.estimate,
                donate_every: DONATE_EVERY,
            },
            subtrees: Vec::new(),
            top: [(0, 0); 2],
            worker: None,
            probe: None,
            donor: None,
            partial: None,
            symmetric: 0,
            forced: 0,
            corner_images: 0,
        }
    }

    /// Depths whose multipliers are kept: no deeper than the pieces allowed (on a 64x64
    /// board a stack for every square would take 134 MB).
    pub fn levels(&self) -> usize {
        match self.aim {
            Aim::Minimize(_) => self.bar,
            Aim::Count(t) => t + 1,
            Aim::First => 0,
        }
        .min(self.m.cells.len())
            + 2
    }

    /// Whether the search minimizes (its pruning rules hold only there).
    #[inline]
    pub fn minimizing(&self) -> bool {
        matches!(self.aim, Aim::Minimize(_))
    }

    /// The symmetry the search breaks: only a minimize breaks any.
    pub fn symmetry(&self) -> Symmetry {
        match self.aim {
            Aim::Minimize(s) => s,
            Aim::Count(_) | Aim::First => Symmetry::Ignored,
        }
    }

    /// Search from the root; `true` means a limit stopped it.
    pub fn start(&mut self, run: &mut Run) -> bool {
        let levels = self.levels();
        self.bounds.reset(levels);
        self.stack.reset(self.m);
        let mask = if self.symmetry() == Symmetry::Broken {
            self.m.all_symmetries() & !1
        } else {
            0
        };
        self.node(0, mask, run)
    }

    /// Explore a recorded subtree; `true` means stop.
    pub fn resume(&mut self, t: &Subtree, run: &mut Run) -> bool {
        let d = t.depth;
        if self.minimizing() && d >= self.bar {
            // As many pieces as the bar allows are placed already: nothing below is smaller.
            // (The multipliers are kept only to the bar's depth, which may have dropped
            // below the subtree's since the subtrees were recorded.)
            return false;
        }
        self.bounds.restore(d, &t.lam);
        self.stack.restore(self.m, t);
        self.node(d, t.sym, run)
    }

    /// Explore the node at `depth`; `true` means stop. `sym`: the symmetries (bit mask, the
    /// identity left out) that map this node's placed and excluded squares to themselves.
    pub fn node(&mut self, depth: usize, sym: u32, run: &mut Run) -> bool {
        if self.reach == Reach::RecordAt(depth) {
            // Collecting subtrees: the node is written down, not explored.
            let t = self.stack.record(depth, sym, self.bounds.lam_at(depth - 1));
            self.subtrees.push(t);
            return false;
        }
        self.branching.open[depth] = (0, 0);
        if self.visit(depth, run) {
            return true;
        }
        if self.minimizing() {
            self.stack.inherit_siblings(depth);
        }
        // Prune: every placement below has a twin in an earlier branch, or a smaller one.
        if self.replaceable(depth, run) {
            return false;
        }
        if self.stack.covered(depth) {
            return self.leaf(run);
        }
        // Another piece is needed; is there room for one?
        let room = self.room();
        if room == 0 {
            return false;
        }
        let Some((mut square, uncovered)) = self.counts(depth) else {
            return false;
        };
        let mut forced = None;
        if self.aim != Aim::First {
            // Bound.
            let (best, cur) = match self.bounds.bound(
                self.m,
                &self.stack,
                &self.branching.count,
                depth,
                room,
                uncovered,
                run,
            ) {
                Bounded::Stop => return true,
                Bounded::Pruned => return false,
                Bounded::Open { best, cur } => (best, cur),
            };
            if depth == 0 {
                self.status(run);
                if self.reach == Reach::RootBound {
                    return false;
                }
            }
            if self.bounds.prunes(best, room) {
                return false;
            }
            // Fix.
            match self.fix(depth, room, cur) {
                Some(f) => forced = f,
                None => return false,
            }
            // Choose.
            square = self.choose(depth);
        }
        // Branch.
        if let Some(c) = forced {
            self.forced += 1;
            return self.only_child(depth, sym, c, run);
        }
        self.branch_all(depth, sym, square, run)
    }

    /// The node counts against the limits (`true`: stop); a probe, the shared incumbent and
    /// the progress line take note of it.
    fn visit(&mut self, depth: usize, run: &mut Run) -> bool {
        if run.node() {
            return true;
        }
        if let Some(p) = self.probe.as_mut() {
            p.visit();
        }
        if let Some(w) = self.worker.as_mut() {
            self.bar = self.bar.min(w.shared.bar());
            w.ticks = w.ticks.wrapping_add(1);
            if w.ticks & w.donate_mask == 0 && w.shared.donations.hungry() {
                // A worker waits with nothing to do: give it some of this one's work.
                self.donate(depth);
                let w = self.worker.as_mut().expect("a worker");
                if w.reporter {
                    run.set_standing(w.shared.standing(self.bounds.root_bound));
                }
                return false;
            }
            if w.reporter && self.probe.is_none() && w.ticks.is_multiple_of(1 << 14) {
                // One subtree can take most of a long run: the line follows the others too.
                run.set_standing(w.shared.standing(self.bounds.root_bound));
            }
        }
        false
    }

    /// Hand the untried branches of the shallowest node above `depth` that has some to the
    /// idle workers, each as the subtree this search would have made of it, and leave them
    /// out here (see `pool`). The branch being searched at that node and those before it
    /// stay, so the branches still ahead are each searched once: here or by whoever claims
    /// them. Each donated node is made exactly as `branch_all` makes it (the earlier
    /// siblings excluded, dominated and symmetric ones skipped), on scratch rows: the rows
    /// of this search's path stay as they are.
    fn donate(&mut self, depth: usize) {
        let base = self.stack.base;
        let Some(d) = (base..depth).find(|&d| {
            let (j, end) = self.branching.open[d];
            j + 1 < end
        }) else {
            return;
        };
        let m = self.m;
        let (j, end) = self.branching.open[d];
        let (j, end) = (j as usize, end as usize);
        let sym = self.branching.sym[d];
        let co = d * self.branching.stride;
        let dominance = self.minimizing() && !m.independent;
        // The node at depth `d` had placed the pieces but those of the levels below it.
        let placed = self.stack.placed.len() - (depth - d);
        let mut st = self
            .donor
            .take()
            .unwrap_or_else(|| Stack::new(m, self.branching.open.len()));
        st.copy_node(&self.stack, d, placed);
        let mut given = Vec::new();
        for jj in j + 1..end {
            let c = self.branching.cands[co + jj];
            st.exclude_sibling(d, self.branching.cands[co + jj - 1]);
            let earlier = &self.branching.cands[co..co + jj];
            if dominance && Replace::dominated(m, &st, d, c, earlier) {
                self.replace.dominated += 1;
                continue;
            }
            let Some(child_sym) = symmetry::sibling(m, sym, c, earlier) else {
                self.symmetric += 1;
                continue;
            };
            st.make_child(m, d, c, true);
            st.push(d, c);
            given.push(st.record(d + 1, child_sym, self.bounds.lam_at(d)));
            st.pop();
        }
        self.donor = Some(st);
        // This search stops after the branch it is in.
        self.branching.open[d].1 = (j + 1) as u32;
        if given.is_empty() {
            return;
        }
        let w = self.worker.as_mut().expect("a worker donates");
        let (first, n) = w.shared.donations.give(given, w.shared);
        if let Some(tr) = w.trace.as_mut() {
            let at = thread_cpu_ns().saturating_sub(tr.start);
            tr.gave.push((first, n, at));
        }
    }

    /// The replaceability rules (minimize; see `replace`): `true` drops the node. Not while
    /// subtrees are collected: the list of subtrees (and its fingerprint, by which parts
    /// from different binaries are matched) does not depend on them.
    fn replaceable(&mut self, depth: usize, run: &mut Run) -> bool {
        if !self.minimizing() || matches!(self.reach, Reach::RecordAt(_)) {
            return false;
        }
        let m = self.m;
        if m.independent {
            // A sibling put in a piece's place must also attack no other piece: the rule
            // asks for that instead of pruning.
            return !self.stack.placed.is_empty()
                && self.replace.swap_demands(m, &mut self.stack, depth, run);
        }
        if self.replace.replaceable(m, &mut self.stack, depth) {
            run.stats.add_counter("replaceable pieces", 1);
            return true;
        }
        if self.replace.pair_span > 0
            && !self.stack.placed.is_empty()
            && self.replace.pair_replaceable(m, &self.stack, depth)
        {
            run.stats.add_counter("replaceable pairs", 1);
            return true;
        }
        false
    }

    /// Pieces that may still be placed below this node without losing what it is after.
    fn room(&self) -> usize {
        let k = self.stack.placed.len();
        match self.aim {
            Aim::Minimize(_) => self.bar.saturating_sub(k + 1),
            Aim::Count(t) => (t + 1).saturating_sub(k + 1),
            Aim::First => usize::MAX,
        }
    }

    /// Reduced-cost fixing at `depth` (see `Bounds::fix`): the square every placement
    /// within the room needs, if one was found; `None` when an exclusion leaves an
    /// uncovered square without a candidate (the node holds no placement).
    fn fix(&mut self, depth: usize, room: usize, cur: f64) -> Option<Option<usize>> {
        let (excluded, mut forced) = self.bounds.fix(&mut self.stack, depth, room, cur);
        if excluded {
            // The counts again: choosing reads them.
            self.counts(depth)?;
            let uo = depth * self.stack.w;
            if let Some(c) = forced
                && self.stack.allowed[uo + (c >> 6)] >> (c & 63) & 1 == 0
            {
                forced = None;
            }
        }
        Some(forced)
    }

    /// The square to branch on: among those with the fewest candidates, the one with the
    /// smallest multiplier (this tie-break takes fewer nodes on knights than the first in
    /// index order, or the largest multiplier).
    fn choose(&self, depth: usize) -> usize {
        let (w, uo) = (self.stack.w, depth * self.stack.w);
        let lam = self.bounds.lam_at(depth);
        let mut fewest = u32::MAX;
        let mut smallest = f64::MAX;
        let mut best_sq = usize::MAX;
        for kw in 0..w {
            let mut word = self.stack.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let c = self.branching.count[t];
                if c < fewest || (c == fewest && lam[t] < smallest) {
                    fewest = c;
                    smallest = lam[t];
                    best_sq = t;
                }
            }
        }
        best_sq
    }

    /// Every placement that fits uses `c`: one child.
    fn only_child(&mut self, depth: usize, sym: u32, c: usize, run: &mut Run) -> bool {
        let child_sym = symmetry::fixing(self.m, sym, c);
        self.stack.make_child(self.m, depth, c, self.minimizing());
        self.stack.push(depth, c);
        let stop = self.node(depth + 1, child_sym, run);
        self.stack.pop();
        stop
    }

    /// The candidates that cover `square`, each a branch of its own unless an earlier
    /// sibling's branch holds its placements (or their images).
    fn branch_all(&mut self, depth: usize, sym: u32, square: usize, run: &mut Run) -> bool {
        let m = self.m;
        let (w, uo) = (self.stack.w, depth * self.stack.w);
        let co = depth * self.branching.stride;
        let mut nc = 0;
        {
            let row = m.coverers.row(square);
            for i in 0..w {
                let mut word = row[i] & self.stack.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    self.branching.cands[co + nc] = s;
                    nc += 1;
                }
            }
        }
        let unc = &self.stack.uncovered[uo..uo + w];
        let gain = |s: usize| -> u32 {
            m.cover
                .row(s)
                .iter()
                .zip(unc)
                .map(|(a, b)| (a & b).count_ones())
                .sum()
        };
        // Most newly covered squares first (by reduced cost instead takes fewer nodes on
        // some boards and more on others).
        self.branching.cands[co..co + nc].sort_by_key(|&s| std::cmp::Reverse(gain(s)));
        let dominance = self.minimizing() && !m.independent;
        if self.probe.is_some() {
            return self.probe_branch(depth, sym, nc, dominance, run);
        }
        let k = self.stack.placed.len();
        self.branching.sym[depth] = sym;
        self.branching.open[depth] = (0, nc as u32);
        // The end is read again after each branch: a donation (see `donate`) may bring it
        // closer.
        for j in 0..nc {
            if j >= self.branching.open[depth].1 as usize {
                break;
            }
            let c = self.branching.cands[co + j];
            if j > 0 {
                // Exclude the previous sibling's square from the rest of this node.
                let p = self.branching.cands[co + j - 1];
                self.stack.exclude_sibling(depth, p);
            }
            let child_sym = match self.branch(depth, sym, j, dominance) {
                Ok(g) => g,
                Err(Skip::Dominated) => {
                    self.replace.dominated += 1;
                    continue;
                }
                Err(Skip::Symmetric) => {
                    self.symmetric += 1;
                    continue;
                }
            };
            if depth < 2 && self.worker.is_none() && self.minimizing() {
                // Where the search is, for the progress line: branch j of nc at the top two
                // levels.
                self.top[depth] = (j + 1, nc);
                if depth == 0 {
                    self.top[1] = (0, 0);
                }
                self.status(run);
            }
            self.branching.open[depth].0 = j as u32;
            self.stack.make_child(m, depth, c, self.minimizing());
            self.stack.push(depth, c);
            let stop = self.node(depth + 1, child_sym, run);
            self.stack.pop();
            if stop {
                return true;
            }
            if self.minimizing() && self.bar <= k + 1 {
                return false;
            }
        }
        false
    }

    /// Whether the node's j-th candidate is a branch of its own, and if so the symmetries
    /// its child keeps; why not, when an earlier sibling's branch holds its placements (or
    /// their images).
    fn branch(&self, depth: usize, sym: u32, j: usize, dominance: bool) -> Result<u32, Skip> {
        let co = depth * self.branching.stride;
        let c = self.branching.cands[co + j];
        let earlier = &self.branching.cands[co..co + j];
        if dominance && Replace::dominated(self.m, &self.stack, depth, c, earlier) {
            return Err(Skip::Dominated);
        }
        symmetry::sibling(self.m, sym, c, earlier).ok_or(Skip::Symmetric)
    }

    /// A probe's step (`--estimate`, see `estimate`): one of the node's branches at random,
    /// standing for all of them.
    fn probe_branch(
        &mut self,
        depth: usize,
        sym: u32,
        nc: usize,
        dominance: bool,
        run: &mut Run,
    ) -> bool {
        let co = depth * self.branching.stride;
        // Counted, then the drawn one found again: no list per node.
        let count = (0..nc)
            .filter(|&j| self.branch(depth, sym, j, dominance).is_ok())
            .count();
        if count == 0 {
            return false;
        }
        let (pick, weight) = self.probe.as_mut().expect("probing").descend(count);
        let (j, child_sym) = (0..nc)
            .filter_map(|j| self.branch(depth, sym, j, dominance).ok().map(|g| (j, g)))
            .nth(pick)
            .expect("the drawn branch is one of those counted");
        // The j-th branch leaves the candidates before it empty, as in the search.
        for i in 0..j {
            let e = self.branching.cands[co + i];
            self.stack.exclude_sibling(depth, e);
        }
        let c = self.branching.cands[co + j];
        self.stack.make_child(self.m, depth, c, self.minimizing());
        self.stack.push(depth, c);
        if let Some(p) = self.probe.as_mut() {
            p.child = 0.0;
        }
        let clock = std::time::Instant::now();
        let stop = self.node(depth + 1, child_sym, run);
        self.stack.pop();
        if let Some(p) = self.probe.as_mut() {
            p.ascend(clock.elapsed().as_secs_f64(), weight);
        }
        stop
    }

    /// Candidate counts of the uncovered squares at `depth` (into `branching.count`): the
    /// square with the fewest and how many are uncovered; `None` when one has no candidate
    /// left.
    fn counts(&mut self, depth: usize) -> Option<(usize, usize)> {
        let uo = depth * self.stack.w;
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has POPCNT.
            return unsafe { self.counts_popcnt(uo) };
        }
        self.counts_portable(uo)
    }

    /// `counts` with the POPCNT instruction (the baseline x86-64 target counts bits with a
    /// dozen instructions a word, in a loop that is a good part of a node's time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn counts_popcnt(&mut self, uo: usize) -> Option<(usize, usize)> {
        self.counts_portable(uo)
    }

    #[inline(always)]
    fn counts_portable(&mut self, uo: usize) -> Option<(usize, usize)> {
        let w = self.stack.w;
        let m = self.m;
        let mut best_sq = usize::MAX;
        let mut best_count = u32::MAX;
        let mut total = 0usize;
        for kw in 0..w {
            let mut word = self.stack.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let row = m.coverers.row(t);
                let (lo, hi) = self.branching.cover_words[t];
                let mut c = 0u32;
                for i in lo as usize..hi as usize {
                    c += (row[i] & self.stack.allowed[uo + i]).count_ones();
                }
                if c == 0 {
                    return None;
                }
                self.branching.count[t] = c;
                total += 1;
                if c < best_count {
                    best_count = c;
                    best_sq = t;
                }
            }
        }
        Some((best_sq, total))
    }

    /// Every square covered: a placement, for the goal to take.
    fn leaf(&mut self, run: &mut Run) -> bool {
        let k = self.stack.placed.len();
        match self.aim {
            Aim::Minimize(_) => {
                if k < self.bar {
                    self.bar = k;
                    match &self.worker {
                        Some(w) => w.shared.offer(&self.stack.placed),
                        None => {
                            self.best = Some(self.stack.placed.clone());
                            self.status(run);
                        }
                    }
                }
                false
            }
            Aim::Count(t) => {
                if k == t {
                    let tally = self.tally.as_mut().expect("tally set for counting");
                    tally.add(run, &self.stack.placed)
                } else {
                    false
                }
            }
            Aim::First => {
                self.first_size = Some(k);
                run.solution(&self.stack.placed);
                true
            }
        }
    }

    /// Where a search on one thread stands: the best size, the root bound, the branches at
    /// the top.
    pub fn status(&self, run: &mut Run) {
        run.set_standing(Standing {
            best: self.best.as_ref().map(|b| b.len() as u64),
            bound: Some(self.bounds.root_bound as u64),
            branch: self.top,
            ..Standing::default()
        });
    }

    /// The counts of the pruning rules, added to the run's statistics and cleared (at the
    /// end of a search: no work per node).
    pub fn flush(&mut self, run: &mut Run) {
        self.bounds.flush(run);
        self.replace.flush(run);
        for (name, v) in [
            ("forced squares", &mut self.forced),
            ("symmetric siblings", &mut self.symmetric),
            ("corner images", &mut self.corner_images),
        ] {
            if *v > 0 {
                run.stats.add_counter(name, *v);
                *v = 0;
            }
        }
    }
}

/// The words of a bitset row from its first non-zero one to its last (an empty range for an
/// empty row).
fn word_range(row: &[u64]) -> (u32, u32) {
    match row.iter().position(|&x| x != 0) {
        Some(lo) => {
            let hi = row.iter().rposition(|&x| x != 0).expect("a non-zero word") + 1;
            (lo as u32, hi as u32)
        }
        None => (0, 0),
    }
}
