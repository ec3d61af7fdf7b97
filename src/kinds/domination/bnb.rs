//! `bnb`: branch and bound on bitsets.
//!
//! A node holds two bitsets: the squares still uncovered and the squares a piece may still
//! take (not excluded by an earlier branch, not attacked under `independent`). It branches on
//! the uncovered square with the fewest candidate coverers (ties: the smallest Lagrange
//! multiplier): every covering placement holds one of them. The candidates go in order of
//! squares newly covered; the j-th branch places the j-th candidate and excludes the j-1
//! before it, so the branches split the placements below the node into disjoint sets and
//! counting visits each placement once.
//!
//! The lower bound is Lagrangian (see `lagrange`): multipliers on the uncovered squares,
//! seeded at the root by a greedy fractional packing and improved by subgradient steps at
//! every node, inherited by the children. It reaches the linear relaxation's value, and its
//! reduced costs exclude squares no placement within the bound can use, or force one that
//! every such placement needs. Under plain minimize, a candidate is skipped when an earlier
//! sibling covers all the uncovered squares it covers (dominance).
//!
//! The first incumbent comes from the model's greedy heuristic improved by a weighted local
//! search (see `local`), which finds the optimum of knights on every size up to 21x21 where
//! OEIS gives it, both variants: the search then only has to prove it. Symmetry (minimize
//! only; counting needs every placement) is broken at the top by corner cells (see
//! `corner_subtrees`): every placement falls in one combination of cells around the squares
//! of one orbit, e.g. the four corners, and only the combinations that are the smallest of
//! their images are searched, one subtree each. Below, and where no corner
//! cells apply, a branch whose candidate is the image of an earlier sibling's candidate under
//! a symmetry that maps the node's placed and excluded squares to themselves is skipped, since
//! the image of any placement below it lies in an earlier branch with the same size.
//!
//! With `--threads` above 1, minimize splits the corner subtrees one level further (or, with
//! no corner cells, explores the top of the tree down to a depth with at least 32 subtrees a
//! worker), and the workers claim the subtrees one at a time in order, reading the shared
//! incumbent's size at every node.

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::band::{Bands, Plan};
use super::goals::{Mode, Searcher, Tally, drive};
use super::lagrange::{EPS, Lagrange, Steps};
use super::model::Model;
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;
use crate::util::Rng;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Bnb;

/// `Search::origin` of a piece a corner cell placed (no sibling could replace it).
const NO_ORIGIN: u32 = u32::MAX;

/// Fixed-point unit of the fractional bound: a piece carries at most this much weight.
const UNIT: u32 = 1 << 16;

pub struct BnbBands;

impl Strategy<Model> for BnbBands {
    fn name(&self) -> &'static str {
        "bands"
    }
    fn about(&self) -> &'static str {
        "bnb with the band bound: bands of rows covered exactly by dynamic programs; fewer nodes, each dearer"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        Bnb.applies(m, task)?;
        if Bands::new(m).is_none() {
            return Err(
                "the band bound needs a piece that moves at most 2 rows and 2 columns".into(),
            );
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let mut s = Search::new(m, task);
        s.bands = Bands::new(m);
        drive(&mut s, task, run)
    }
    fn splits(&self) -> bool {
        true
    }
}

impl Strategy<Model> for Bnb {
    fn name(&self) -> &'static str {
        "bnb"
    }
    fn about(&self) -> &'static str {
        "branch and bound on bitsets: fewest-coverers branching, Lagrangian bound and fixing, symmetry breaking"
    }
    fn applies(&self, _m: &Model, task: &Task) -> Result<(), String> {
        if task.partial() && task.goal != Goal::Minimize {
            return Err("--part and --estimate: accepted with goal minimize only".into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        drive(&mut Search::new(m, task), task, run)
    }
    fn splits(&self) -> bool {
        true
    }
}

impl<'m> Searcher<'m> for Search<'m> {
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>> {
        self.search_minimum(run);
        self.best.take()
    }
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m> {
        // Counting needs every placement: no symmetry breaking.
        self.mode = Mode::Count(k);
        self.symmetry = false;
        self.start(run);
        self.tally.take().expect("tally set for counting")
    }
    fn first(&mut self, run: &mut Run) -> Option<usize> {
        self.mode = Mode::First;
        self.start(run);
        self.first_size
    }
    fn partial(&self) -> Option<String> {
        self.partial.clone()
    }
    fn notes(&self) -> Vec<String> {
        // 0 until the root is bounded: a run stopped before that has no bound to report.
        if self.root_bound == 0 {
            return Vec::new();
        }
        vec![format!("root bound {}", self.root_bound)]
    }
}

struct Search<'m> {
    m: &'m Model,
    w: usize,
    mode: Mode,
    symmetry: bool,
    /// Uncovered squares at each depth, `w` words per depth.
    uncovered: Vec<u64>,
    /// Squares still allowed at each depth.
    allowed: Vec<u64>,
    /// Squares covered by a placed piece, by two or more, and by three or more, at each
    /// depth (minimize; `once` differs from the covered squares where `swap_demands` has
    /// put a covered square back among the uncovered).
    once: Vec<u64>,
    twice: Vec<u64>,
    thrice: Vec<u64>,
    /// How far apart (rows or columns) two pieces may stand for `pair_replaceable` to
    /// look at them; 0 turns it off (riders).
    pair_span: usize,
    /// For each placed piece, the depth of the node that placed it (`NO_ORIGIN`: a corner
    /// cell's).
    origin: Vec<u32>,
    /// At each depth, the candidates excluded as earlier siblings at this node and its
    /// ancestors (those above a resumed subtree come with it): any of them may replace a
    /// piece placed here or below.
    sibx: Vec<u64>,
    /// The depth this search started or resumed at.
    base: usize,
    /// Scratch bitsets of `w` words for `replaceable` and `pair_replaceable` (no allocation
    /// per node); `pset`: the placed pieces.
    lack: Vec<u64>,
    forbid: Vec<u64>,
    mine: Vec<u64>,
    near: Vec<u64>,
    scratch: Vec<u64>,
    pset: Vec<u64>,
    /// `pair_replaceable`'s scratch: whether each placed piece is the newest or covers a
    /// square it covers; and each square's row and column (a division per pair was a
    /// twentieth of the plain 20x20 proof's time).
    fresh_pair: Vec<bool>,
    square_rc: Vec<(isize, isize)>,
    /// For each square, the words of its `coverers` row that can be non-zero (`counts`
    /// reads only those: 2 or 3 of 7 words for knights on 20x20).
    cover_words: Vec<(u32, u32)>,
    /// The branching candidates at each depth, `stride` per depth.
    cands: Vec<usize>,
    stride: usize,
    placed: Vec<usize>,
    /// Scratch: candidate count per uncovered square, bucket order, loads.
    count: Vec<u32>,
    order: Vec<usize>,
    bucket_start: Vec<usize>,
    load: Vec<u32>,
    touched: Vec<usize>,
    best: Option<Vec<usize>>,
    /// Placements must have fewer than this many pieces to matter (minimize).
    bar: usize,
    root_bound: usize,
    tally: Option<Tally<'m>>,
    first_size: Option<usize>,
    n: usize,
    lag: Lagrange,
    /// The band bound (strategy `bands`; see `band`).
    bands: Option<Bands>,
    /// Lagrange multipliers at each depth, `n + 1` per depth.
    lam: Vec<f64>,
    /// While subtrees are being collected for the workers: the depth at which a node is
    /// recorded instead of explored.
    split: Option<usize>,
    subtrees: Vec<Subtree>,
    threads: usize,
    /// The root's multipliers once computed (empty before).
    root_lam: Vec<f64>,
    /// The branch being explored at depths 0 and 1 and how many there are (progress line).
    top: [(usize, usize); 2],
    /// The incumbent shared with the other workers (parallel minimize).
    shared: Option<&'m Incumbent>,
    /// Bound the root and return: its multipliers and bound are kept.
    root_only: bool,
    /// The worker that keeps the progress line (parallel minimize), and its node count.
    reporter: bool,
    ticks: u32,
    /// `--part i/n` (1-based) and `--estimate probes`, from the task.
    part: Option<(usize, usize)>,
    subpart: Option<(usize, usize)>,
    estimate: Option<u64>,
    /// While probing the tree (`--estimate`): one random path at a time.
    probe: Option<Probe>,
    /// What a split or estimated search did, for the answer line.
    partial: Option<String>,
}

/// What `--estimate` found: the nodes below the subtrees, the standard error of that mean
/// (relative), the probes that ended, and the work they stand for.
struct Estimate {
    nodes: f64,
    error: f64,
    probes: u64,
    /// Seconds of one thread the whole tree would take (each node's own time, estimated).
    work: f64,
}

/// Knuth's estimator: a probe follows one random branch a node, and a node met at depth d
/// stands for the product of the branch counts above it, so the sum along the path is an
/// unbiased estimate of the number of nodes (D. E. Knuth, Estimating the efficiency of
/// backtrack programs, Math. Comp. 29, 1975).
///
/// Node costs differ (a node near the root takes more subgradient steps), so the time is
/// estimated the same way: each node's own time (without its child's) times its weight.
struct Probe {
    rng: Rng,
    weight: f64,
    sum: f64,
    /// The estimate of the time, in seconds of one thread.
    time: f64,
    /// The whole time of the last child call (for its parent to take out of its own).
    child: f64,
}

/// A node recorded for a worker: what `node` reads of it and of its parent.
struct Subtree {
    depth: usize,
    sym: u32,
    placed: Vec<usize>,
    /// The parent's uncovered squares, then the node's.
    uncovered: Vec<u64>,
    allowed: Vec<u64>,
    /// The parent's multipliers, which the node starts from.
    lam: Vec<f64>,
    /// `Search::sibx` at the depths above the node, and `Search::origin` of its pieces.
    sibx: Vec<u64>,
    origin: Vec<u32>,
}

/// The best placement found by any worker; `bar` is its size, read at every node. Also how
/// many of the `total` subtrees are done, for the progress line.
struct Incumbent {
    bar: AtomicUsize,
    best: Mutex<Option<Vec<usize>>>,
    done: AtomicUsize,
    total: usize,
}

impl<'m> Search<'m> {
    fn new(m: &'m Model, task: &Task) -> Search<'m> {
        let n = m.board.squares();
        let w = m.words;
        let depth = m.cells.len() + 2;
        let stride = (0..n)
            .map(|t| m.coverers.row_count(t))
            .max()
            .unwrap_or(1)
            .max(1);
        Search {
            m,
            w,
            mode: Mode::Minimize,
            symmetry: false,
            uncovered: vec![0; depth * w],
            allowed: vec![0; depth * w],
            once: vec![0; depth * w],
            twice: vec![0; depth * w],
            thrice: vec![0; depth * w],
            pair_span: pair_span(m),
            origin: Vec::with_capacity(depth),
            sibx: vec![0; depth * w],
            base: 0,
            lack: vec![0; w],
            forbid: vec![0; w],
            mine: vec![0; w],
            near: vec![0; w],
            scratch: vec![0; w],
            pset: vec![0; w],
            fresh_pair: Vec::with_capacity(depth),
            square_rc: (0..n)
                .map(|t| {
                    let (r, c) = m.board.row_col(t);
                    (r as isize, c as isize)
                })
                .collect(),
            cover_words: (0..n).map(|t| word_range(m.coverers.row(t))).collect(),
            cands: vec![0; depth * stride],
            stride,
            placed: Vec::with_capacity(depth),
            count: vec![0; n],
            order: vec![0; n],
            bucket_start: vec![0; stride + 2],
            load: vec![0; n],
            touched: Vec::with_capacity(n),
            best: None,
            bar: usize::MAX,
            root_bound: 0,
            tally: Some(Tally::new(m, task)),
            first_size: None,
            n,
            lag: Lagrange::new(m),
            bands: None,
            lam: Vec::new(),
            split: None,
            subtrees: Vec::new(),
            threads: task.threads.max(1),
            root_lam: Vec::new(),
            top: [(0, 0); 2],
            shared: None,
            root_only: false,
            reporter: false,
            ticks: 0,
            part: task.part,
            subpart: task.subpart,
            estimate: task.estimate,
            probe: None,
            partial: None,
        }
    }

    fn search_minimum(&mut self, run: &mut Run) {
        self.mode = Mode::Minimize;
        self.symmetry = self.m.symmetries.len() > 1;
        // A few greedy rounds give the local search a start; the local search does the rest.
        if let Some(h) = self.m.heuristic(8, run) {
            self.bar = h.len();
            run.set_status(format!("best {} (heuristic)", h.len()));
            self.best = Some(h);
        }
        if let Some(h) = &self.best {
            let patience = self.m.local_patience();
            if let Some(better) = self.m.local_search(h, patience, run) {
                self.bar = better.len();
                run.set_status(format!("best {} (local search)", better.len()));
                self.best = Some(better);
            }
        }
        self.prove(run);
    }

    /// Minimize from the incumbent (`bar`): the root, then the subtrees, split among the
    /// threads, cut to one part, or estimated, as the task asks.
    fn prove(&mut self, run: &mut Run) {
        // The root's bound and multipliers first: every subtree below starts from them.
        self.root_only = true;
        let stopped = self.start(run);
        self.root_only = false;
        if stopped || self.root_lam.is_empty() || self.root_bound >= self.bar {
            // Stopped, or nothing to branch on, or the root's bound proves the incumbent.
            return;
        }
        let split = self.threads > 1 || self.part.is_some() || self.estimate.is_some();
        let subtrees = match self.corner_subtrees() {
            Some(subtrees) if split => {
                // A few corner combinations hold most of the work: their children, recorded
                // one level down, balance the workers' load (and the parts').
                match self.children(&subtrees, run) {
                    Some(children) => children,
                    None => return,
                }
            }
            Some(subtrees) => subtrees,
            None if split => match self.top_subtrees(run) {
                Some(subtrees) => subtrees,
                None => return,
            },
            None => {
                self.start(run);
                return;
            }
        };
        let total = subtrees.len();
        let list = fingerprint(&subtrees);
        let mine = match self.part {
            Some((i, n)) => every_nth(subtrees, i, n),
            None => subtrees,
        };
        let bar = self.bar;
        let mut what = match self.part {
            Some((i, n)) => format!(
                "part {i}/{n}: {} of {total} subtrees below {bar} (list {list:016x})",
                mine.len()
            ),
            None => format!("{total} subtrees below {bar}"),
        };
        let mine = match (self.part, self.subpart) {
            (Some((i, n)), Some((j, m))) => {
                // The part's subtrees a level down, and further while that leaves fewer than
                // 4 children a subpart (a heavy subtree's node may have only 2): the list
                // every subpart cuts alike.
                let taken = mine.len();
                let mut children = mine;
                for _ in 0..SUBPART_LEVELS {
                    let Some(next) = self.children(&children, run) else {
                        self.partial = Some(format!("{what}, stopped before its children"));
                        return;
                    };
                    children = next;
                    if children.len() >= 4 * m {
                        break;
                    }
                }
                let sublist = fingerprint(&children);
                let count = children.len();
                let mine = every_nth(children, j, m);
                what = format!(
                    "part {i}/{n},{j}/{m}: {} of the {count} descendants of {taken} of {total} \
                     subtrees below {bar} (list {list:016x}, sublist {sublist:016x})",
                    mine.len(),
                );
                mine
            }
            _ => mine,
        };
        if let Some(probes) = self.estimate {
            let note = match self.estimate_tree(&mine, probes, run) {
                None => "stopped before the first probe ended".to_string(),
                Some(e) => format!(
                    "about {} nodes (Knuth, {} probes, standard error {:.0}%), {} of one \
                     thread's work, {} on {} thread{}",
                    sci(e.nodes),
                    e.probes,
                    e.error * 100.0,
                    crate::render::duration(e.work),
                    crate::render::duration(e.work / self.threads as f64),
                    self.threads,
                    if self.threads == 1 { "" } else { "s" },
                ),
            };
            self.partial = Some(format!("estimate, {what}: {note}"));
            return;
        }
        self.pool(mine, run);
        if self.part.is_some() {
            self.partial = Some(if run.is_stopped() {
                format!("{what}, not all searched")
            } else {
                format!(
                    "{what} searched: none smaller than {} in them",
                    self.bar.min(bar)
                )
            });
        }
    }

    /// The children of `subtrees`, recorded one level below each; `None` when a limit
    /// stopped the search.
    fn children(&mut self, subtrees: &[Subtree], run: &mut Run) -> Option<Vec<Subtree>> {
        self.subtrees.clear();
        for t in subtrees {
            self.split = Some(t.depth + 1);
            if self.resume(t, run) {
                self.split = None;
                return None;
            }
        }
        self.split = None;
        Some(std::mem::take(&mut self.subtrees))
    }

    /// Symmetry broken for good at the top of the tree. Take the orbit O (under the board's
    /// symmetries) of squares with the fewest coverers between them, e.g. the four corners
    /// for knights. Every covering placement falls in one cell per square o of O: "o holds a
    /// piece" (its attackers left open), or "o is empty and exactly these of its attackers
    /// hold one" (a non-empty set). The symmetries map cells to cells, so the combinations
    /// of cells (4^4 = 256 for knights) are permuted by them, and only the combinations that
    /// are the smallest of their images need a search: the rest hold images of their
    /// placements, of the same size. One subtree each, symmetry still broken below it by the
    /// combination's own stabilizer. With the old way alone (branch by branch while the node
    /// stays symmetric) most of the tree lost its symmetry after a piece or two: knights
    /// 14x14 independent explored 83,338 nodes, 119,877 with no symmetry broken at all.
    /// `None` when the board has no symmetry, or the squares of O share coverers (small
    /// boards), or too many cells (queens: a corner has 3n - 3 attackers).
    fn corner_subtrees(&self) -> Option<Vec<Subtree>> {
        let m = self.m;
        let syms = &m.symmetries;
        if !self.symmetry || syms.len() < 2 {
            return None;
        }
        let w = self.w;
        // The orbit with the fewest coverers in all (ties: the first square).
        let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
        for &t in &m.cells {
            let mut orbit: Vec<usize> = syms.iter().map(|g| g[t] as usize).collect();
            orbit.sort_unstable();
            orbit.dedup();
            if orbit.len() < 2 || orbit[0] != t {
                continue;
            }
            let mut d = vec![0u64; w];
            let mut total = 0;
            for &o in &orbit {
                for i in 0..w {
                    d[i] |= m.coverers.row(o)[i];
                }
                total += m.coverers.row_count(o);
            }
            let dl: Vec<usize> = crate::util::ones(&d).collect();
            // Coverers shared between squares of O would tie their cells together.
            if dl.len() == total && best.as_ref().is_none_or(|(_, b)| dl.len() < b.len()) {
                best = Some((orbit, dl));
            }
        }
        let (orbit, dl) = best?;
        // Masks of D in a u32, and at most 2^6 + 1 cells a square of O.
        if dl.len() > 32 || dl.len() / orbit.len() > 7 {
            return None;
        }
        let pos = |s: usize| dl.iter().position(|&x| x == s).expect("D is closed");
        // Each cell as (squares of D holding a piece, squares of D left empty), by position.
        let cells: Vec<Vec<(u32, u32)>> = orbit
            .iter()
            .map(|&o| {
                let me = 1u32 << pos(o);
                let att: Vec<u32> = crate::util::ones(m.coverers.row(o))
                    .filter(|&s| s != o)
                    .map(|s| 1u32 << pos(s))
                    .collect();
                let mut v = vec![(me, 0)];
                for sub in 1u32..1 << att.len() {
                    let mut on = 0;
                    let mut off = me;
                    for (i, &b) in att.iter().enumerate() {
                        if sub >> i & 1 != 0 {
                            on |= b;
                        } else {
                            off |= b;
                        }
                    }
                    v.push((on, off));
                }
                v
            })
            .collect();
        // Kings: 8 cells a corner, 4,096 combinations; far more would cost more than the
        // symmetry saves.
        if cells.iter().map(|c| c.len()).product::<usize>() > 1 << 16 {
            return None;
        }
        let clash: Vec<u32> = (0..dl.len())
            .map(|i| {
                (0..dl.len())
                    .filter(|&j| j != i && m.conflict.get(dl[i], dl[j]))
                    .fold(0, |a, j| a | 1 << j)
            })
            .collect();
        let images: Vec<Vec<usize>> = syms
            .iter()
            .skip(1)
            .map(|g| dl.iter().map(|&s| pos(g[s] as usize)).collect())
            .collect();
        let permute = |img: &[usize], x: u32| -> u32 {
            img.iter()
                .enumerate()
                .fold(0, |a, (i, &j)| a | (x >> i & 1) << j)
        };
        let mut out = Vec::new();
        let mut choice = vec![0usize; orbit.len()];
        loop {
            let (on, off) = choice
                .iter()
                .zip(&cells)
                .fold((0u32, 0u32), |(a, b), (&c, cs)| (a | cs[c].0, b | cs[c].1));
            let k = on.count_ones() as usize;
            let fits =
                k < self.bar && (0..dl.len()).all(|i| on >> i & 1 == 0 || clash[i] & on == 0);
            if fits {
                let mut stab = 0u32;
                let mut canonical = true;
                for (gi, img) in images.iter().enumerate() {
                    let to = (permute(img, on), permute(img, off));
                    if to < (on, off) {
                        canonical = false;
                        break;
                    }
                    if to == (on, off) {
                        stab |= 1 << (gi + 1);
                    }
                }
                if canonical {
                    out.push(self.decided(&dl, on, off, stab));
                }
            }
            // The next combination, the last square's cell fastest.
            let mut i = orbit.len();
            loop {
                if i == 0 {
                    return Some(out);
                }
                i -= 1;
                choice[i] += 1;
                if choice[i] < cells[i].len() {
                    break;
                }
                choice[i] = 0;
            }
        }
    }

    /// The subtree below the root with the squares `on` of `dl` holding a piece and those of
    /// `off` left empty.
    fn decided(&self, dl: &[usize], on: u32, off: u32, sym: u32) -> Subtree {
        let m = self.m;
        let w = self.w;
        let mut uncovered = m.all.clone();
        let mut allowed = m.all.clone();
        let mut placed = Vec::new();
        for (i, &s) in dl.iter().enumerate() {
            if off >> i & 1 != 0 {
                allowed[s >> 6] &= !(1u64 << (s & 63));
            }
            if on >> i & 1 != 0 {
                placed.push(s);
                for x in 0..w {
                    uncovered[x] &= !m.cover.row(s)[x];
                    allowed[x] &= !m.conflict.row(s)[x];
                }
            }
        }
        let mut both = m.all.clone();
        both.extend_from_slice(&uncovered);
        Subtree {
            depth: placed.len(),
            sym,
            sibx: vec![0; placed.len() * w],
            origin: vec![NO_ORIGIN; placed.len()],
            placed,
            uncovered: both,
            allowed,
            lam: Vec::new(),
        }
    }

    /// The top of the tree explored down to a depth that leaves enough subtrees to balance
    /// the workers' load (with `--part` or `--estimate`, a number that does not depend on
    /// the threads, so that every part sees the same list); `None` when a limit stopped it.
    fn top_subtrees(&mut self, run: &mut Run) -> Option<Vec<Subtree>> {
        let enough = if self.part.is_some() || self.estimate.is_some() {
            256
        } else {
            32 * self.threads
        };
        let mut depth = 1;
        loop {
            self.split = Some(depth);
            self.subtrees.clear();
            if self.start(run) {
                self.split = None;
                return None;
            }
            // Deep enough when there are many subtrees, or the tree is too thin.
            if self.subtrees.len() >= enough || depth >= 6 || self.subtrees.is_empty() {
                break;
            }
            depth += 1;
        }
        self.split = None;
        Some(std::mem::take(&mut self.subtrees))
    }

    /// Knuth's estimate of the nodes below `subtrees`: `probes` random paths, each from a
    /// subtree drawn at random; `None` when a limit stopped the first probe.
    fn estimate_tree(
        &mut self,
        subtrees: &[Subtree],
        probes: u64,
        run: &mut Run,
    ) -> Option<Estimate> {
        if subtrees.is_empty() {
            return Some(Estimate {
                nodes: 0.0,
                error: 0.0,
                probes: 0,
                work: 0.0,
            });
        }
        let threads = self.threads;
        // Each worker its own share of the probes and its own random stream.
        let share =
            |i: usize| probes / threads as u64 + u64::from((i as u64) < probes % threads as u64);
        let seed =
            |i: usize| Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        let (sum, sq, done, time) = if threads == 1 {
            self.probes(subtrees, probes, seed(0), run)
        } else {
            let parts = self.on_workers(subtrees.len(), run, |i, s, run| {
                s.probes(subtrees, share(i), seed(i), run)
            });
            parts
                .into_iter()
                .fold((0.0, 0.0, 0, 0.0), |t, (a, b, c, d)| {
                    (t.0 + a, t.1 + b, t.2 + c, t.3 + d)
                })
        };
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

    /// `count` probes from subtrees drawn with `rng`: the sum of their estimates, of their
    /// squares, and how many ended before a limit struck.
    fn probes(
        &mut self,
        subtrees: &[Subtree],
        count: u64,
        mut rng: Rng,
        run: &mut Run,
    ) -> (f64, f64, u64, f64) {
        let report = self.shared.is_none() || self.reporter;
        let (mut sum, mut sq, mut done, mut time) = (0.0f64, 0.0f64, 0u64, 0.0f64);
        for _ in 0..count {
            let t = &subtrees[rng.below(subtrees.len())];
            self.probe = Some(Probe {
                rng,
                weight: subtrees.len() as f64,
                sum: 0.0,
                time: 0.0,
                child: 0.0,
            });
            let clock = std::time::Instant::now();
            let stopped = self.resume(t, run);
            let mut p = self.probe.take().expect("the probe is kept while it runs");
            p.time += p.weight * (clock.elapsed().as_secs_f64() - p.child);
            rng = p.rng;
            if stopped {
                break;
            }
            sum += p.sum;
            sq += p.sum * p.sum;
            time += p.time;
            done += 1;
            if report && done.is_multiple_of(64) {
                run.set_status(format!("probes {done}/{count} (this worker's)"));
            }
        }
        (sum, sq, done, time)
    }

    /// Explore `subtrees` on `threads` workers (this thread among them, so the progress line
    /// stays live), which claim them one at a time in order, sharing the incumbent.
    fn pool(&mut self, subtrees: Vec<Subtree>, run: &mut Run) {
        let next = AtomicUsize::new(0);
        self.on_workers(subtrees.len(), run, |_, s, run| {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(t) = subtrees.get(i) else { break };
                if s.reporter {
                    s.pool_status(run);
                }
                if s.resume(t, run) {
                    break;
                }
                let shared = s.shared.expect("a worker shares the incumbent");
                shared.done.fetch_add(1, Ordering::Relaxed);
            }
        });
    }

    /// Run `work` on `threads` workers that share the incumbent (this thread is worker 0 and
    /// keeps the progress line); the children's statistics are absorbed and the best
    /// placement any worker found becomes this search's. The workers' results, in order.
    fn on_workers<T: Send>(
        &mut self,
        subtrees: usize,
        run: &mut Run,
        work: impl for<'a> Fn(usize, &mut Search<'a>, &mut Run) -> T + Sync,
    ) -> Vec<T> {
        let incumbent = Incumbent {
            bar: AtomicUsize::new(self.bar),
            best: Mutex::new(None),
            done: AtomicUsize::new(0),
            total: subtrees,
        };
        let (m, symmetry, levels) = (self.m, self.symmetry, self.levels());
        let (root_bound, root_lam) = (self.root_bound, &self.root_lam);
        let banded = self.bands.is_some();
        let make = |incumbent| {
            let mut s = Search::worker(m, symmetry, levels, incumbent);
            if banded {
                s.bands = Bands::new(m);
            }
            s.root_lam.clone_from(root_lam);
            s.root_bound = root_bound;
            s
        };
        let mut children: Vec<Run<'static>> = (1..self.threads).map(|_| run.child()).collect();
        let out = std::thread::scope(|scope| {
            let handles: Vec<_> = children
                .iter_mut()
                .enumerate()
                .map(|(i, child)| {
                    let (incumbent, work, make) = (&incumbent, &work, &make);
                    scope.spawn(move || work(i + 1, &mut make(incumbent), child))
                })
                .collect();
            let mut s = make(&incumbent);
            s.reporter = true;
            let mut out = vec![work(0, &mut s, run)];
            out.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().expect("no worker panicked")),
            );
            out
        });
        for child in children {
            run.absorb(child);
        }
        if let Some(b) = incumbent.best.into_inner().expect("no worker panicked") {
            self.bar = b.len();
            self.best = Some(b);
        }
        out
    }

    /// A worker for [`Search::on_workers`]: minimize, the incumbent shared.
    fn worker(m: &'m Model, symmetry: bool, levels: usize, shared: &'m Incumbent) -> Search<'m> {
        let mut s = Search::new(m, &Task::default());
        s.mode = Mode::Minimize;
        s.symmetry = symmetry;
        s.tally = None;
        s.bar = shared.bar.load(Ordering::Relaxed);
        s.shared = Some(shared);
        s.lam.resize(levels * (s.n + 1), 0.0);
        s
    }

    /// Explore a recorded subtree; `true` means stop.
    fn resume(&mut self, t: &Subtree, run: &mut Run) -> bool {
        let (w, n1) = (self.w, self.n + 1);
        let d = t.depth;
        if self.mode == Mode::Minimize && d >= self.bar {
            // As many pieces as the bar allows are placed already: nothing below is smaller.
            // (The multipliers are kept only to the bar's depth, which may have dropped
            // below the subtree's since the subtrees were recorded.)
            return false;
        }
        self.uncovered[(d - 1) * w..(d + 1) * w].copy_from_slice(&t.uncovered);
        self.allowed[d * w..(d + 1) * w].copy_from_slice(&t.allowed);
        // Subtrees straight below the root carry no multipliers of their own.
        let lam = if t.lam.is_empty() {
            &self.root_lam
        } else {
            &t.lam
        };
        self.lam[(d - 1) * n1..d * n1].copy_from_slice(lam);
        self.placed.clear();
        self.placed.extend_from_slice(&t.placed);
        self.origin.clone_from(&t.origin);
        self.sibx[..d * w].copy_from_slice(&t.sibx);
        self.base = d;
        self.recount_twice(d);
        self.node(d, t.sym, run)
    }

    /// Depths whose multipliers are kept: no deeper than the pieces allowed (on a 64x64
    /// board a stack for every square would take 134 MB).
    fn levels(&self) -> usize {
        match self.mode {
            Mode::Minimize => self.bar,
            Mode::Count(t) => t + 1,
            Mode::First => 0,
        }
        .min(self.m.cells.len())
            + 2
    }

    /// Search from the root; `true` means a limit stopped it.
    fn start(&mut self, run: &mut Run) -> bool {
        let w = self.w;
        let levels = self.levels();
        self.lam.clear();
        self.lam.resize(levels * (self.n + 1), 0.0);
        self.uncovered[..w].copy_from_slice(&self.m.all);
        self.allowed[..w].copy_from_slice(&self.m.all);
        self.placed.clear();
        self.origin.clear();
        self.base = 0;
        self.recount_twice(0);
        let mask = if self.symmetry {
            self.m.all_symmetries() & !1
        } else {
            0
        };
        self.node(0, mask, run)
    }

    /// Explore the node at `depth`; `true` means stop. `sym`: the symmetries (bit mask, the
    /// identity left out) that map this node's placed and excluded squares to themselves.
    fn node(&mut self, depth: usize, sym: u32, run: &mut Run) -> bool {
        if self.split == Some(depth) {
            let (w, n1) = (self.w, self.n + 1);
            self.subtrees.push(Subtree {
                depth,
                sym,
                placed: self.placed.clone(),
                uncovered: self.uncovered[(depth - 1) * w..(depth + 1) * w].to_vec(),
                allowed: self.allowed[depth * w..(depth + 1) * w].to_vec(),
                lam: self.lam[(depth - 1) * n1..depth * n1].to_vec(),
                sibx: self.sibx[..depth * w].to_vec(),
                origin: self.origin.clone(),
            });
            return false;
        }
        if run.node() {
            return true;
        }
        if let Some(p) = self.probe.as_mut() {
            p.sum += p.weight;
        }
        if let Some(shared) = self.shared {
            self.bar = self.bar.min(shared.bar.load(Ordering::Relaxed));
            if self.reporter && self.probe.is_none() {
                // One subtree can take most of a long run: the line follows the others too.
                self.ticks = self.ticks.wrapping_add(1);
                if self.ticks.is_multiple_of(1 << 14) {
                    self.pool_status(run);
                }
            }
        }
        let w = self.w;
        let m = self.m;
        let (uo, ao) = (depth * w, (depth + 1) * w);
        let k = self.placed.len();
        if self.mode == Mode::Minimize {
            let (head, tail) = self.sibx.split_at_mut(uo);
            if depth == 0 {
                tail[..w].fill(0);
            } else {
                tail[..w].copy_from_slice(&head[uo - w..]);
            }
        }
        // Not while subtrees are collected: the list of subtrees (and its fingerprint, which
        // parts from different binaries are matched by) stays what it was before the rule.
        if self.swappable() && self.split.is_none() && self.replaceable(depth) {
            run.stats.add_counter("replaceable pieces", 1);
            return false;
        }
        if self.swappable()
            && self.split.is_none()
            && self.pair_span > 0
            && !self.placed.is_empty()
            && self.pair_replaceable(depth)
        {
            run.stats.add_counter("replaceable pairs", 1);
            return false;
        }
        if self.mode == Mode::Minimize
            && m.independent
            && self.split.is_none()
            && !self.placed.is_empty()
            && self.swap_demands(depth, run)
        {
            return false;
        }
        if self.uncovered[uo..ao].iter().all(|&x| x == 0) {
            return self.leaf(run);
        }
        // Another piece is needed; is there room for one?
        let room = match self.mode {
            Mode::Minimize => self.bar.saturating_sub(k + 1),
            Mode::Count(t) => (t + 1).saturating_sub(k + 1),
            Mode::First => usize::MAX,
        };
        if room == 0 {
            return false;
        }
        let Some((mut best_sq, uncovered_total)) = self.counts(uo) else {
            return false;
        };
        let mut forced = None;
        if self.mode != Mode::First {
            let n = self.n;
            // Multipliers: n + 1 per depth, the last always 0 (see `Lagrange::eval`).
            let (lo, hi) = (depth * (n + 1), (depth + 1) * (n + 1));
            let iters = if depth == 0 && !self.root_lam.is_empty() {
                // The root again (collecting subtrees deeper, or counting after minimize):
                // its multipliers are kept.
                self.lam[lo..hi].copy_from_slice(&self.root_lam);
                0
            } else if depth == 0 {
                // The root's multipliers start from the greedy packing and get many steps:
                // every node below inherits them.
                let bound = self.packing(uo, uncovered_total);
                self.root_bound = bound;
                if bound > room {
                    return false;
                }
                m.tuning.bnb.root_steps
            } else {
                let (parent, own) = self.lam.split_at_mut(lo);
                own[..n + 1].copy_from_slice(&parent[lo - n - 1..lo]);
                // Squares the new piece covers drop out of the relaxation.
                for kw in 0..w {
                    let mut gone = self.uncovered[uo - w + kw] & !self.uncovered[uo + kw];
                    while gone != 0 {
                        own[kw * 64 + gone.trailing_zeros() as usize] = 0.0;
                        gone &= gone - 1;
                    }
                }
                m.tuning.bnb.node_steps
            };
            let room_f = room as f64;
            let (best, cur) = self.lag.improve(
                &self.uncovered[uo..ao],
                &self.allowed[uo..ao],
                &mut self.lam[lo..hi],
                Steps {
                    enough: room_f + EPS,
                    target: room_f + 1.0,
                    iters,
                    mu: if depth == 0 {
                        m.tuning.bnb.root_mu
                    } else {
                        m.tuning.bnb.node_mu
                    },
                    patience: if depth == 0 {
                        m.tuning.bnb.root_patience
                    } else {
                        m.tuning.bnb.node_patience
                    },
                    pace: depth > 0,
                },
            );
            // The band bound where the relaxation came near: it costs milliseconds a node.
            let mut best = best;
            if best <= room_f + EPS
                && (depth == 0 || best > room_f + EPS - m.tuning.bands.margin)
                && let Some(bands) = self.bands.as_mut()
            {
                let (solves, states) = (bands.solves(), bands.states());
                let v = bands.bound(
                    &self.uncovered[uo..ao],
                    &self.allowed[uo..ao],
                    &self.lam[lo..hi],
                    Plan {
                        enough: room_f + EPS,
                        iters: if depth == 0 {
                            m.tuning.bands.root_steps
                        } else {
                            m.tuning.bands.steps
                        },
                        mu: m.tuning.bands.mu,
                        pace: (depth > 0).then_some(m.tuning.bands.pace),
                    },
                    &mut || run.check(),
                );
                run.stats
                    .add_counter("band solves", bands.solves() - solves);
                run.stats
                    .add_counter("band states", bands.states() - states);
                if run.is_stopped() {
                    return true;
                }
                run.stats.add_counter("band bounds", 1);
                if v > room_f + EPS {
                    run.stats.add_counter("band prunes", 1);
                }
                best = best.max(v);
            }
            if depth == 0 {
                self.root_bound = self.root_bound.max((best - EPS).ceil() as usize);
                if self.root_lam.is_empty() {
                    self.root_lam = self.lam[lo..hi].to_vec();
                }
                self.status(run);
                if self.root_only {
                    return false;
                }
            }
            if best > room_f + EPS {
                return false;
            }
            // Reduced-cost fixing with the final multipliers.
            let mut excluded = false;
            for kw in 0..w {
                let mut word = self.allowed[uo + kw];
                while word != 0 {
                    let c = kw * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let r = self.lag.rc[c];
                    if r > 0.0 && cur + r > room_f + EPS {
                        self.allowed[uo + kw] &= !(1u64 << (c & 63));
                        excluded = true;
                    } else if r < 0.0 && cur - r > room_f + EPS && forced.is_none() {
                        forced = Some(c);
                    }
                }
            }
            if excluded {
                match self.counts(uo) {
                    Some((sq, _)) => best_sq = sq,
                    None => return false,
                }
                if let Some(c) = forced
                    && self.allowed[uo + (c >> 6)] >> (c & 63) & 1 == 0
                {
                    forced = None;
                }
            }
        }
        if self.mode != Mode::First {
            // Among the squares with the fewest candidates, the one with the smallest
            // multiplier: 15% to 30% fewer nodes than the first in index order on knights
            // 14x14 and 15x15 (the largest multiplier instead: 3 times more).
            let lam = &self.lam[depth * (self.n + 1)..];
            let mut fewest = u32::MAX;
            let mut smallest = f64::MAX;
            for kw in 0..w {
                let mut word = self.uncovered[uo + kw];
                while word != 0 {
                    let t = kw * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let c = self.count[t];
                    if c < fewest || (c == fewest && lam[t] < smallest) {
                        fewest = c;
                        smallest = lam[t];
                        best_sq = t;
                    }
                }
            }
        }
        if let Some(c) = forced {
            // Every placement that fits uses c: one child.
            let mut child_sym = 0u32;
            let mut bits = sym;
            while bits != 0 {
                let g = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if m.symmetries[g][c] as usize == c {
                    child_sym |= 1 << g;
                }
            }
            self.make_child(depth, c);
            self.placed.push(c);
            self.origin.push(depth as u32);
            let stop = self.node(depth + 1, child_sym, run);
            self.placed.pop();
            self.origin.pop();
            return stop;
        }
        // The candidates.
        let co = depth * self.stride;
        let mut nc = 0;
        {
            let row = m.coverers.row(best_sq);
            for i in 0..w {
                let mut word = row[i] & self.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    self.cands[co + nc] = s;
                    nc += 1;
                }
            }
        }
        let unc = &self.uncovered[uo..ao];
        let gain = |s: usize| -> u32 {
            m.cover
                .row(s)
                .iter()
                .zip(unc)
                .map(|(a, b)| (a & b).count_ones())
                .sum()
        };
        // Most newly covered squares first. (By reduced cost instead: 3% to 8% fewer nodes
        // at n = 14 and 15, but 3% and 11% more at n = 16, independent and plain.)
        self.cands[co..co + nc].sort_by_key(|&s| std::cmp::Reverse(gain(s)));
        let dominance = self.mode == Mode::Minimize && !m.independent;
        if self.probe.is_some() {
            return self.probe_branch(depth, sym, nc, dominance, run);
        }
        for j in 0..nc {
            let c = self.cands[co + j];
            if j > 0 {
                // Exclude the previous sibling's square from the rest of this node.
                let p = self.cands[co + j - 1];
                self.allowed[uo + (p >> 6)] &= !(1u64 << (p & 63));
                self.sibx[uo + (p >> 6)] |= 1u64 << (p & 63);
            }
            let Some(child_sym) = self.branch(depth, sym, j, dominance) else {
                continue;
            };
            if depth < 2 && self.shared.is_none() && self.mode == Mode::Minimize {
                // Where the search is, for the progress line: branch j of nc at the top two
                // levels.
                self.top[depth] = (j + 1, nc);
                if depth == 0 {
                    self.top[1] = (0, 0);
                }
                self.status(run);
            }
            self.make_child(depth, c);
            self.placed.push(c);
            self.origin.push(depth as u32);
            let stop = self.node(depth + 1, child_sym, run);
            self.placed.pop();
            self.origin.pop();
            if stop {
                return true;
            }
            if let Mode::Minimize = self.mode
                && self.bar <= k + 1
            {
                return false;
            }
        }
        false
    }

    /// Whether the node's j-th candidate is a branch of its own, and if so the symmetries
    /// its child keeps; `None` when an earlier sibling's branch holds its placements (or
    /// their images).
    fn branch(&self, depth: usize, sym: u32, j: usize, dominance: bool) -> Option<u32> {
        let m = self.m;
        let (w, uo, co) = (self.w, depth * self.w, depth * self.stride);
        let c = self.cands[co + j];
        // Dominance (plain minimize): an earlier sibling that covers every uncovered
        // square c covers can replace c in any placement below this branch, and that
        // placement lies in the sibling's branch, so this one adds nothing.
        if dominance {
            let row = m.cover.row(c);
            let dominated = self.cands[co..co + j].iter().any(|&e| {
                let other = m.cover.row(e);
                (0..w).all(|i| row[i] & self.uncovered[uo + i] & !other[i] == 0)
            });
            if dominated {
                return None;
            }
        }
        let mut child_sym = 0u32;
        if sym != 0 {
            let earlier = &self.cands[co..co + j];
            let mut bits = sym;
            while bits != 0 {
                let g = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let perm = &m.symmetries[g];
                let image = perm[c] as usize;
                if earlier.contains(&image) {
                    return None;
                }
                if image == c
                    && earlier
                        .iter()
                        .all(|&e| earlier.contains(&(perm[e] as usize)))
                {
                    child_sym |= 1 << g;
                }
            }
        }
        Some(child_sym)
    }

    /// A probe's step (`--estimate`): one of the node's branches at random, standing for
    /// all of them.
    fn probe_branch(
        &mut self,
        depth: usize,
        sym: u32,
        nc: usize,
        dominance: bool,
        run: &mut Run,
    ) -> bool {
        let (uo, co) = (depth * self.w, depth * self.stride);
        // Counted, then the drawn one found again: no list per node.
        let count = (0..nc)
            .filter(|&j| self.branch(depth, sym, j, dominance).is_some())
            .count();
        if count == 0 {
            return false;
        }
        let p = self.probe.as_mut().expect("probing");
        let pick = p.rng.below(count);
        let weight = p.weight;
        p.weight *= count as f64;
        let (j, child_sym) = (0..nc)
            .filter_map(|j| self.branch(depth, sym, j, dominance).map(|g| (j, g)))
            .nth(pick)
            .expect("the drawn branch is one of those counted");
        // The j-th branch leaves the candidates before it empty, as in the search.
        for &e in &self.cands[co..co + j] {
            self.allowed[uo + (e >> 6)] &= !(1u64 << (e & 63));
            self.sibx[uo + (e >> 6)] |= 1u64 << (e & 63);
        }
        let c = self.cands[co + j];
        self.make_child(depth, c);
        self.placed.push(c);
        self.origin.push(depth as u32);
        if let Some(p) = self.probe.as_mut() {
            p.child = 0.0;
        }
        let clock = std::time::Instant::now();
        let stop = self.node(depth + 1, child_sym, run);
        self.placed.pop();
        self.origin.pop();
        if let Some(p) = self.probe.as_mut() {
            // The child's own time: its call less its own child's.
            let all = clock.elapsed().as_secs_f64();
            p.time += p.weight * (all - p.child);
            p.child = all;
            p.weight = weight;
        }
        stop
    }

    /// The state of the child that places a piece on `c`.
    fn make_child(&mut self, depth: usize, c: usize) {
        let w = self.w;
        let (uo, ao) = (depth * w, (depth + 1) * w);
        let m = self.m;
        let (head, tail) = self.uncovered.split_at_mut(ao);
        for i in 0..w {
            tail[i] = head[uo + i] & !m.cover.row(c)[i];
        }
        let (head, tail) = self.allowed.split_at_mut(ao);
        for i in 0..w {
            tail[i] = head[uo + i] & !m.conflict.row(c)[i];
        }
        if self.mode == Mode::Minimize {
            let (head, tail) = self.thrice.split_at_mut(ao);
            for i in 0..w {
                tail[i] = head[uo + i] | (m.cover.row(c)[i] & self.twice[uo + i]);
            }
            let (head, tail) = self.twice.split_at_mut(ao);
            for i in 0..w {
                tail[i] = head[uo + i] | (m.cover.row(c)[i] & self.once[uo + i]);
            }
            let (head, tail) = self.once.split_at_mut(ao);
            for i in 0..w {
                tail[i] = head[uo + i] | (m.cover.row(c)[i] & m.all[i]);
            }
        }
    }

    /// Whether the search skips placements with a replaceable piece (see `replaceable`):
    /// plain minimize. Under independence a sibling put in a piece's place must also attack
    /// no other piece, so the rule there asks for that instead of pruning (`swap_demands`).
    fn swappable(&self) -> bool {
        self.mode == Mode::Minimize && !self.m.independent
    }

    /// `once`, `twice` and `thrice` at `depth` from the placed pieces (the root, or a
    /// resumed subtree).
    fn recount_twice(&mut self, depth: usize) {
        let w = self.w;
        let m = self.m;
        let once = &mut self.once[depth * w..(depth + 1) * w];
        once.fill(0);
        let t = &mut self.twice[depth * w..(depth + 1) * w];
        let u = &mut self.thrice[depth * w..(depth + 1) * w];
        t.fill(0);
        u.fill(0);
        for &p in &self.placed {
            for i in 0..w {
                let c = m.cover.row(p)[i] & m.all[i];
                u[i] |= t[i] & c;
                t[i] |= once[i] & c;
                once[i] |= c;
            }
        }
    }

    /// Under independence (minimize): a placed piece a whose private squares (those no other
    /// placed piece covers, a's own among them) a candidate e excluded as an earlier sibling
    /// at a's node or above covers. Every placement P below with no piece but a in conflict
    /// with e has a twin as small, P less a plus e, independent and in e's branch, which comes
    /// first; so the search needs only placements with another piece in conflict with e. Where
    /// those are the pieces that would cover e (attacks both ways, as for leapers), that is
    /// e uncovered again: the square goes back into the node's uncovered set, and the bound
    /// and the branching see it. (Where another placed piece is in conflict with e already,
    /// e asks nothing of this rule; `gives_way` looks at those squares.) `true` when the
    /// node can be dropped: a square asked for has no allowed square left in conflict.
    fn swap_demands(&mut self, depth: usize, run: &mut Run) -> bool {
        let w = self.w;
        let m = self.m;
        let uo = depth * w;
        self.pset.fill(0);
        for &p in &self.placed {
            self.pset[p >> 6] |= 1u64 << (p & 63);
        }
        for i in 0..self.placed.len() {
            let da = self.origin[i];
            if da == NO_ORIGIN || !self.private_squares(depth, i) {
                continue;
            }
            let a = self.placed[i];
            covering_all(m, &self.mine, &mut self.near);
            let so = da as usize * w;
            for y in 0..w {
                let mut word = self.near[y] & self.sibx[so + y];
                while word != 0 {
                    let e = y * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let conflict = m.conflict.row(e);
                    let abit = |x: usize| if x == a >> 6 { 1u64 << (a & 63) } else { 0 };
                    if (0..w).any(|x| conflict[x] & self.pset[x] & !abit(x) != 0) {
                        continue;
                    }
                    if self.demand(uo, e, run, ["swapped pieces", "swap demands"]) {
                        return true;
                    }
                }
            }
        }
        // Two or more pieces giving way to one square at once: no sibling needed, as the
        // twin is smaller (see `gives_way`). The squares two placed pieces cover, not yet
        // asked for.
        for y in 0..w {
            let mut word = self.twice[uo + y] & !self.pset[y] & !self.uncovered[uo + y];
            while word != 0 {
                let e = y * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if !self.gives_way(uo, e) {
                    continue;
                }
                if self.demand(uo, e, run, ["swapped groups", "group demands"]) {
                    return true;
                }
            }
        }
        false
    }

    /// Asks at the node at `uo` for square e to be covered by a piece in conflict with it (see
    /// `swap_demands`), counting under `names` a node dropped and a square asked for. Only
    /// where those pieces are exactly the ones that would cover e (attacks both ways, as for
    /// leapers) is that the same as e uncovered again; elsewhere the demand is left, as the
    /// bound cannot see it. `true` when the node can be dropped: no allowed square is in
    /// conflict with e.
    fn demand(&mut self, uo: usize, e: usize, run: &mut Run, names: [&'static str; 2]) -> bool {
        let (w, m) = (self.w, self.m);
        let (conflict, cov) = (m.conflict.row(e), m.coverers.row(e));
        if (0..w).any(|x| (cov[x] ^ conflict[x]) & self.allowed[uo + x] != 0) {
            return false;
        }
        if (0..w).all(|x| conflict[x] & self.allowed[uo + x] == 0) {
            run.stats.add_counter(names[0], 1);
            return true;
        }
        let (y, bit) = (uo + (e >> 6), 1u64 << (e & 63));
        if self.uncovered[y] & bit == 0 {
            run.stats.add_counter(names[1], 1);
            self.uncovered[y] |= bit;
        }
        false
    }

    /// Whether the placed pieces in conflict with square e (two or more, under
    /// independence) can give way to it together: the squares only they cover are all
    /// covered by e. A placement P below with no other piece in conflict with e is then not
    /// minimum: P less them plus e is smaller, and independent. So every minimum placement
    /// below has another piece in conflict with e; no branch order is needed for that, and
    /// the pieces may come from anywhere (corner cells too).
    fn gives_way(&mut self, uo: usize, e: usize) -> bool {
        let (w, m) = (self.w, self.m);
        let (conflict, cover) = (m.conflict.row(e), m.cover.row(e));
        self.lack.fill(0);
        let mut members = 0;
        for x in 0..w {
            // `near`: the pieces in conflict with e.
            self.near[x] = conflict[x] & self.pset[x];
            members += self.near[x].count_ones();
        }
        if members < 2 {
            return false;
        }
        for p in crate::util::ones(&self.near) {
            for (l, &c) in self.lack.iter_mut().zip(m.cover.row(p)) {
                *l |= c;
            }
        }
        // Their squares e does not cover: each must be covered by a piece outside them, so
        // at least twice (a quick test first).
        for x in 0..w {
            self.lack[x] &= m.all[x] & !cover[x];
            if self.lack[x] & !self.twice[uo + x] != 0 {
                return false;
            }
        }
        crate::util::ones(&self.lack).all(|q| {
            let by = m.coverers.row(q);
            (0..w).any(|x| by[x] & self.pset[x] & !self.near[x] != 0)
        })
    }

    /// Whether two placed pieces can give way together to a candidate e excluded as an
    /// earlier sibling at the shallower one's node or above, and one square f: the squares
    /// only they cover are all covered by e or f, where f is a placed piece or a square
    /// still allowed at that node. The cover with e and f for the two is no larger and lies
    /// in e's branch, which comes first (as for `replaceable`). Only pairs within
    /// `pair_span` of each other, of which one is the newest piece or covers a square it
    /// covers, are looked at (the others were at the parent).
    fn pair_replaceable(&mut self, depth: usize) -> bool {
        let w = self.w;
        let m = self.m;
        let uo = depth * w;
        let k = self.placed.len();
        let fresh = depth == self.base;
        let newest = *self.placed.last().expect("a piece placed");
        let span = self.pair_span as isize;
        self.pset.fill(0);
        for &p in &self.placed {
            self.pset[p >> 6] |= 1u64 << (p & 63);
        }
        let touched = |p: usize| {
            p == newest
                || m.cover
                    .row(p)
                    .iter()
                    .zip(m.cover.row(newest))
                    .any(|(a, b)| a & b != 0)
        };
        self.fresh_pair.clear();
        for i in 0..k {
            let t = fresh || touched(self.placed[i]);
            self.fresh_pair.push(t);
        }
        for a in 0..k {
            let da = self.origin[a];
            if da == NO_ORIGIN {
                continue;
            }
            let pa = self.placed[a];
            let ta = self.fresh_pair[a];
            let (ra, ca) = self.square_rc[pa];
            for b in 0..k {
                let db = self.origin[b];
                // The shallower piece's node is `a`'s (distinct pieces of a path have
                // distinct depths).
                if b == a || db == NO_ORIGIN || db < da {
                    continue;
                }
                let pb = self.placed[b];
                let (rb, cb) = self.square_rc[pb];
                if (ra - rb).abs() > span || (ca - cb).abs() > span || !(ta || self.fresh_pair[b]) {
                    continue;
                }
                // The squares only a and b cover: covered once, by one of them, or twice,
                // by both.
                let (ua, ub) = (m.cover.row(pa), m.cover.row(pb));
                for x in 0..w {
                    let covered = m.all[x] & !self.uncovered[uo + x];
                    let one = covered & !self.twice[uo + x];
                    let two = self.twice[uo + x] & !self.thrice[uo + x];
                    self.mine[x] = ((ua[x] ^ ub[x]) & one) | (ua[x] & ub[x] & two);
                }
                covering_any(m, &self.mine, &mut self.near);
                let so = da as usize * w;
                // The allowed squares of a's node, or (above a resumed subtree, whose rows
                // are not kept) of the subtree's root, which holds fewer.
                let fo = (da as usize).max(self.base) * w;
                for y in 0..w {
                    let mut word = self.near[y] & self.sibx[so + y];
                    while word != 0 {
                        let e = y * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let other = m.cover.row(e);
                        for x in 0..w {
                            self.lack[x] = self.mine[x] & !other[x];
                        }
                        covering_all(m, &self.lack, &mut self.scratch);
                        if (0..w)
                            .any(|x| self.scratch[x] & (self.allowed[fo + x] | self.pset[x]) != 0)
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a placed piece is replaceable: its private squares (those no other placed
    /// piece covers) are none, or all covered by a candidate e excluded as an earlier
    /// sibling at the node that placed it or at one above. Every cover P below then has a
    /// cover as small or smaller, P less the piece plus e (e is in no placement below), in
    /// e's branch, which comes first; so a minimum cover below is always matched by one in
    /// an earlier branch, and the node holds none the search needs. (Pieces a corner cell
    /// placed are only checked for having a private square.) Where covering a few
    /// more squares would make a piece replaceable, the candidates that cover those few are
    /// excluded from the node, for the same reason.
    fn replaceable(&mut self, depth: usize) -> bool {
        let w = self.w;
        let m = self.m;
        let uo = depth * w;
        for i in 0..self.placed.len() {
            if !self.private_squares(depth, i) {
                continue;
            }
            let count: u32 = self.mine.iter().map(|x| x.count_ones()).sum();
            if count == 0 {
                return true;
            }
            // `forbid`: the candidates that cover all its private squares (one would leave it
            // none); `near`: those that cover any.
            covering_all(m, &self.mine, &mut self.forbid);
            if count <= m.tuning.bnb.forbid_upto {
                for y in 0..w {
                    self.allowed[uo + y] &= !self.forbid[y];
                }
            }
            let d = self.origin[i];
            if d == NO_ORIGIN {
                continue;
            }
            let so = d as usize * w;
            if (0..w).any(|y| self.forbid[y] & self.sibx[so + y] != 0) {
                return true;
            }
            covering_any(m, &self.mine, &mut self.near);
            for y in 0..w {
                let mut word = self.near[y] & self.sibx[so + y];
                while word != 0 {
                    let e = y * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    // What e lacks of the private squares: a candidate covering all of it
                    // would make the piece replaceable by e.
                    let other = m.cover.row(e);
                    let mut left = 0u32;
                    for x in 0..w {
                        self.lack[x] = self.mine[x] & !other[x];
                        left += self.lack[x].count_ones();
                    }
                    if left <= m.tuning.bnb.forbid_upto {
                        covering_all(m, &self.lack, &mut self.scratch);
                        for z in 0..w {
                            self.allowed[uo + z] &= !self.scratch[z];
                        }
                    }
                }
            }
        }
        false
    }

    /// The private squares of placed piece `i` at `depth` (those no other placed piece
    /// covers) into `mine`; `false`, leaving `mine` as it was, when they are the parent's:
    /// they only change where this node's piece covered some of them (the newest piece has
    /// its first ones, and a resumed subtree's root has no parent row).
    fn private_squares(&mut self, depth: usize, i: usize) -> bool {
        let (w, uo) = (self.w, depth * self.w);
        let row = self.m.cover.row(self.placed[i]);
        if depth != self.base
            && i + 1 != self.placed.len()
            && (0..w).all(|x| row[x] & self.twice[uo + x] & !self.twice[uo - w + x] == 0)
        {
            return false;
        }
        for x in 0..w {
            self.mine[x] = row[x] & self.m.all[x] & !self.twice[uo + x];
        }
        true
    }

    /// Candidate counts of the uncovered squares (into `count`): the square with the fewest
    /// and how many are uncovered; `None` when one has no candidate left.
    fn counts(&mut self, uo: usize) -> Option<(usize, usize)> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has POPCNT.
            return unsafe { self.counts_popcnt(uo) };
        }
        self.counts_portable(uo)
    }

    /// `counts` with the POPCNT instruction (the baseline x86-64 target counts bits with a
    /// dozen instructions a word; this loop is a tenth of a node's time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn counts_popcnt(&mut self, uo: usize) -> Option<(usize, usize)> {
        self.counts_portable(uo)
    }

    #[inline(always)]
    fn counts_portable(&mut self, uo: usize) -> Option<(usize, usize)> {
        let w = self.w;
        let m = self.m;
        let mut best_sq = usize::MAX;
        let mut best_count = u32::MAX;
        let mut total = 0usize;
        for kw in 0..w {
            let mut word = self.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let row = m.coverers.row(t);
                let (lo, hi) = self.cover_words[t];
                let mut c = 0u32;
                for i in lo as usize..hi as usize {
                    c += (row[i] & self.allowed[uo + i]).count_ones();
                }
                if c == 0 {
                    return None;
                }
                self.count[t] = c;
                total += 1;
                if c < best_count {
                    best_count = c;
                    best_sq = t;
                }
            }
        }
        Some((best_sq, total))
    }

    fn leaf(&mut self, run: &mut Run) -> bool {
        let k = self.placed.len();
        match self.mode {
            Mode::Minimize => {
                if k < self.bar {
                    self.bar = k;
                    match self.shared {
                        Some(shared) => {
                            let mut best = shared.best.lock().expect("no worker panicked");
                            if best.as_ref().is_none_or(|b| k < b.len()) {
                                *best = Some(self.placed.clone());
                                shared.bar.fetch_min(k, Ordering::Relaxed);
                            }
                        }
                        None => {
                            self.best = Some(self.placed.clone());
                            self.status(run);
                        }
                    }
                }
                false
            }
            Mode::Count(t) => {
                if k == t {
                    let tally = self.tally.as_mut().expect("tally set for counting");
                    tally.add(run, &self.placed)
                } else {
                    false
                }
            }
            Mode::First => {
                self.first_size = Some(k);
                run.solution(&self.placed);
                true
            }
        }
    }

    /// The progress line of parallel minimize: the best size among the workers, the root
    /// bound, the subtrees done.
    fn pool_status(&self, run: &mut Run) {
        if let Some(shared) = self.shared {
            run.set_status(format!(
                "best {}, bound {}, subtrees done {}/{}",
                shared.bar.load(Ordering::Relaxed),
                self.root_bound,
                shared.done.load(Ordering::Relaxed),
                shared.total
            ));
        }
    }

    fn status(&self, run: &mut Run) {
        let mut s = match &self.best {
            Some(b) => format!("best {}, bound {}", b.len(), self.root_bound),
            None => format!("bound {}", self.root_bound),
        };
        if self.top[0].1 > 0 {
            s += &format!(", branch {}/{}", self.top[0].0, self.top[0].1);
            if self.top[1].1 > 0 {
                s += &format!(" {}/{}", self.top[1].0, self.top[1].1);
            }
        }
        run.set_status(s);
    }

    /// The greedy fractional packing bound at the root (uncovered squares from `uo`, their
    /// candidate counts in `self.count`); its weights seed the root's Lagrange multipliers.
    fn packing(&mut self, uo: usize, uncovered_total: usize) -> usize {
        let w = self.w;
        let m = self.m;
        // Bucket the uncovered squares by candidate count.
        let nb = self.stride + 2;
        self.bucket_start[..nb].fill(0);
        for kw in 0..w {
            let mut word = self.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                self.bucket_start[self.count[t] as usize + 1] += 1;
            }
        }
        for b in 1..nb {
            self.bucket_start[b] += self.bucket_start[b - 1];
        }
        for kw in 0..w {
            let mut word = self.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let b = self.count[t] as usize;
                self.order[self.bucket_start[b]] = t;
                self.bucket_start[b] += 1;
            }
        }
        let mut total = 0u64;
        for idx in 0..uncovered_total {
            let t = self.order[idx];
            let row = m.coverers.row(t);
            let mut most = 0u32;
            for i in 0..w {
                let mut word = row[i] & self.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    most = most.max(self.load[s]);
                }
            }
            let y = UNIT - most;
            if y == 0 {
                continue;
            }
            total += y as u64;
            self.lam[t] = y as f64 / UNIT as f64;
            for i in 0..w {
                let mut word = row[i] & self.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if self.load[s] == 0 {
                        self.touched.push(s);
                    }
                    self.load[s] += y;
                }
            }
        }
        for &s in &self.touched {
            self.load[s] = 0;
        }
        self.touched.clear();
        total.div_ceil(UNIT as u64) as usize
    }
}

/// Levels at most a part's subtrees are taken down for its subparts (`--part I/N,J/M`).
const SUBPART_LEVELS: usize = 4;

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

/// For `pair_replaceable`: twice the farthest a piece reaches in rows or columns, where
/// that is at most 3 (leapers such as knights, kings, camels); 0 otherwise (riders: pairs
/// anywhere on the board would be too many to look at).
fn pair_span(m: &Model) -> usize {
    let width = m.board.width;
    let mut reach = 0;
    for &s in &m.cells {
        let (r, c) = (s / width, s % width);
        for t in crate::util::ones(m.cover.row(s)) {
            let (tr, tc) = (t / width, t % width);
            reach = reach.max(r.abs_diff(tr)).max(c.abs_diff(tc));
        }
    }
    if reach <= 3 { 2 * reach } else { 0 }
}

/// The squares whose piece covers some square of `set`.
fn covering_any(m: &Model, set: &[u64], out: &mut [u64]) {
    out.fill(0);
    for q in crate::util::ones(set) {
        for (o, c) in out.iter_mut().zip(m.coverers.row(q)) {
            *o |= c;
        }
    }
}

/// The squares whose piece covers every square of `set` (all squares if `set` is empty).
fn covering_all(m: &Model, set: &[u64], out: &mut [u64]) {
    out.fill(u64::MAX);
    for q in crate::util::ones(set) {
        for (o, c) in out.iter_mut().zip(m.coverers.row(q)) {
            *o &= c;
        }
    }
}

/// Part `i` (1-based) of `n` of a list: every n-th from the i-th (neighbours in the list
/// tend to be alike in size).
fn every_nth(list: Vec<Subtree>, i: usize, n: usize) -> Vec<Subtree> {
    list.into_iter()
        .enumerate()
        .filter(|(k, _)| k % n == i - 1)
        .map(|(_, t)| t)
        .collect()
}

/// A fingerprint of the subtree list (FNV-1a over each subtree's placed pieces, symmetries,
/// uncovered and allowed squares): parts of one proof must search one list, and two binaries
/// (or machines) that print the same fingerprint cut the tree the same way, so their parts
/// can be mixed. The multipliers are left out: they only steer the search below.
fn fingerprint(subtrees: &[Subtree]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(subtrees.len() as u64);
    for t in subtrees {
        eat(t.depth as u64);
        eat(u64::from(t.sym));
        eat(t.placed.len() as u64);
        t.placed.iter().for_each(|&p| eat(p as u64));
        t.uncovered.iter().chain(&t.allowed).for_each(|&x| eat(x));
    }
    h
}

/// A positive number in three significant figures, in scientific notation from 10^6 on.
fn sci(x: f64) -> String {
    if !x.is_finite() {
        "unbounded".into()
    } else if x >= 1e6 {
        format!("{x:.2e}")
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::betza::Piece;
    use crate::engine::Limits;

    fn knights(n: usize, independent: bool) -> Model {
        let piece = Piece::parse("N").expect("the knight");
        Model::new(Board::new(n, n), piece, 'N', independent)
    }

    fn minimum(m: &Model, symmetry: bool, threads: usize) -> Vec<usize> {
        let task = Task {
            goal: crate::engine::Goal::Minimize,
            unique: false,
            threads,
            ..Task::default()
        };
        let mut s = Search::new(m, &task);
        if !symmetry {
            // As `search_minimum` does, with the symmetries left alone.
            s.mode = Mode::Minimize;
            s.start(&mut Run::new(Limits::default()));
            return s.best.take().expect("a placement");
        }
        s.search_minimum(&mut Run::new(Limits::default()));
        s.best.take().expect("a placement")
    }

    /// The corner cells partition the placements: the canonical combinations' orbits add up
    /// to every combination (none dropped by the size bar here), and each combination's
    /// image under a symmetry is a combination.
    #[test]
    fn corner_combinations_cover_every_orbit() {
        for (piece, n, per_corner) in [("N", 8, 4), ("N", 11, 4), ("K", 7, 8)] {
            let m = Model::new(
                Board::new(n, n),
                Piece::parse(piece).expect("a piece"),
                'X',
                false,
            );
            let mut s = Search::new(&m, &Task::default());
            s.symmetry = true;
            let subtrees = s.corner_subtrees().expect("the corners qualify");
            let orbits: usize = subtrees
                .iter()
                .map(|t| 8 / (t.sym.count_ones() as usize + 1))
                .sum();
            assert_eq!(
                orbits,
                per_corner * per_corner * per_corner * per_corner,
                "{piece} {n}"
            );
            for t in &subtrees {
                assert!(t.placed.len() >= 4 && m.symmetries.len() == 8);
            }
        }
        // Queens: a corner has too many coverers; a 6x10 board keeps 4 symmetries.
        let q = Model::new(Board::new(8, 8), Piece::parse("Q").unwrap(), 'Q', false);
        let mut s = Search::new(&q, &Task::default());
        s.symmetry = true;
        assert!(s.corner_subtrees().is_none());
    }

    /// Breaking symmetry by corner cells keeps the optimum: against the search with no
    /// symmetry broken, on squares, rectangles and a holed board, both variants.
    #[test]
    fn corner_cells_keep_the_optimum() {
        let mut boards = vec![Board::new(7, 7), Board::new(8, 8), Board::new(6, 9)];
        let mut holed = Board::new(9, 9);
        holed.holes[40] = true;
        boards.push(holed);
        for board in boards {
            for piece in ["N", "K", "NW"] {
                for independent in [false, true] {
                    let m = Model::new(
                        board.clone(),
                        Piece::parse(piece).expect("a piece"),
                        'X',
                        independent,
                    );
                    let want = minimum(&m, false, 1);
                    m.check(&want).expect("a valid placement");
                    for threads in [1, 2] {
                        let got = minimum(&m, true, threads);
                        m.check(&got).expect("a valid placement");
                        assert_eq!(
                            got.len(),
                            want.len(),
                            "{piece} {}x{} independent={independent}",
                            board.width,
                            board.height
                        );
                    }
                }
            }
        }
    }

    /// The workers find the optimum themselves when no heuristic gives them a start: the
    /// shared incumbent goes down from nothing and every worker prunes by it.
    #[test]
    fn parallel_search_finds_the_optimum_without_an_incumbent() {
        // OEIS A006075 and A342576, n = 6..9.
        for (independent, table) in [(false, [8, 10, 12, 14]), (true, [8, 13, 14, 14])] {
            for (i, &want) in table.iter().enumerate() {
                let m = knights(6 + i, independent);
                let task = Task {
                    goal: crate::engine::Goal::Minimize,
                    unique: false,
                    threads: 2,
                    ..Task::default()
                };
                let mut s = Search::new(&m, &task);
                s.mode = Mode::Minimize;
                s.symmetry = true;
                let mut run = Run::new(Limits::default());
                let subtrees = s.top_subtrees(&mut run).expect("no limit");
                s.pool(subtrees, &mut run);
                let best = s.best.take().expect("a placement");
                assert_eq!(best.len(), want, "independent={independent} n={}", 6 + i);
                m.check(&best).expect("a valid placement");
            }
        }
    }

    /// The fewest pieces covering the board, by plain exhaustive search (branch on the
    /// first uncovered square, every allowed coverer in turn): the test's own answer.
    fn exhaustive_minimum(m: &Model) -> usize {
        fn go(m: &Model, unc: &[u64], alw: &[u64], k: usize, best: &mut usize) {
            if k >= *best {
                return;
            }
            let Some(t) = crate::util::ones(unc).next() else {
                *best = k;
                return;
            };
            let mut alw = alw.to_vec();
            for c in crate::util::ones(m.coverers.row(t)).collect::<Vec<_>>() {
                if alw[c >> 6] >> (c & 63) & 1 == 0 {
                    continue;
                }
                let unc2: Vec<u64> = unc
                    .iter()
                    .zip(m.cover.row(c))
                    .map(|(u, v)| u & !v)
                    .collect();
                let alw2: Vec<u64> = alw
                    .iter()
                    .zip(m.conflict.row(c))
                    .map(|(a, v)| a & !v)
                    .collect();
                go(m, &unc2, &alw2, k + 1, best);
                alw[c >> 6] &= !(1u64 << (c & 63));
            }
        }
        let mut best = usize::MAX;
        go(m, &m.all, &m.all, 0, &mut best);
        best
    }

    /// The search with all its pruning rules (replaceable pieces and pairs, dominated
    /// siblings, symmetry, reduced costs), from no incumbent, against exhaustive search on random
    /// boards with holes and random leapers, plain and independent, with and without the
    /// symmetries: the same optimum, and a valid placement of that size.
    #[test]
    fn search_from_scratch_matches_exhaustive_search_on_random_boards() {
        let mut rng = crate::util::Rng(0x9e37_79b9_7f4a_7c15);
        let pieces = ["N", "K", "W", "F", "WD", "FA", "NW", "C"];
        for case in 0..160 {
            let (w, h) = (3 + rng.below(5), 3 + rng.below(5));
            let mut board = Board::new(w, h);
            if case % 4 != 0 {
                for sq in 0..w * h {
                    board.holes[sq] = rng.below(7) == 0;
                }
            }
            if board.holes.iter().all(|&x| x) {
                continue;
            }
            let piece = pieces[rng.below(pieces.len())];
            let independent = rng.below(3) == 0;
            let m = Model::new(
                board,
                Piece::parse(piece).expect("a piece"),
                'X',
                independent,
            );
            let want = exhaustive_minimum(&m);
            for (symmetry, threads) in [(false, 1), (true, 1), (true, 2)] {
                // No incumbent at all: the search finds placements and proves the last.
                let best = minimum_from_scratch(&m, usize::MAX, symmetry, threads);
                m.check(&best).expect("a valid placement");
                assert_eq!(
                    best.len(),
                    want,
                    "case {case}: {piece} {w}x{h} independent={independent} symmetry={symmetry} \
                     threads={threads}"
                );
            }
        }
    }

    /// `gives_way` on random partial independent placements of random leapers on random
    /// boards with holes: wherever it says the pieces in conflict with e give way to it,
    /// every independent cover completing the placement with no other piece in conflict
    /// with e (random completions) is beaten by that cover less those pieces plus e, which
    /// is valid and smaller.
    #[test]
    fn pieces_giving_way_leave_a_smaller_cover() {
        let mut rng = crate::util::Rng(0x2545_f491_4f6c_dd1d);
        let pieces = ["N", "K", "W", "F", "WD", "FA", "NW", "C"];
        let mut checked = 0;
        for _ in 0..400 {
            let (w, h) = (4 + rng.below(4), 4 + rng.below(4));
            let mut board = Board::new(w, h);
            for sq in 0..w * h {
                board.holes[sq] = rng.below(8) == 0;
            }
            let piece = Piece::parse(pieces[rng.below(pieces.len())]).expect("a piece");
            let m = Model::new(board, piece, 'X', true);
            let free = |set: &[usize], q: usize| {
                !m.board.is_hole(q) && set.iter().all(|&p| !m.conflict.get(p, q))
            };
            let mut placed = Vec::new();
            for _ in 0..2 + rng.below(6) {
                let q = rng.below(w * h);
                if free(&placed, q) {
                    placed.push(q);
                }
            }
            let mut s = Search::new(&m, &Task::default());
            s.placed = placed.clone();
            s.pset.fill(0);
            for &p in &placed {
                s.pset[p >> 6] |= 1 << (p & 63);
            }
            s.recount_twice(0);
            for e in m.cells.clone() {
                if placed.contains(&e) || !s.gives_way(0, e) {
                    continue;
                }
                let group: Vec<usize> = placed
                    .iter()
                    .copied()
                    .filter(|&p| m.conflict.get(p, e))
                    .collect();
                for _ in 0..20 {
                    // Squares in a random order, each taken when nothing taken conflicts
                    // with it and it is not in conflict with e: a maximal completion.
                    let mut cover = placed.clone();
                    let mut order = m.cells.clone();
                    for i in (1..order.len()).rev() {
                        order.swap(i, rng.below(i + 1));
                    }
                    for q in order {
                        if !m.conflict.get(q, e) && free(&cover, q) {
                            cover.push(q);
                        }
                    }
                    if m.check(&cover).is_err() {
                        continue;
                    }
                    let twin: Vec<usize> = cover
                        .iter()
                        .copied()
                        .filter(|p| !group.contains(p))
                        .chain([e])
                        .collect();
                    m.check(&twin)
                        .expect("the twin covers the board, independent");
                    assert!(twin.len() < cover.len(), "the twin is smaller");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "only {checked} completions checked");
    }

    /// Knights on n x n plain, where the optima are few (OEIS A103315: 2 at 8x8, 9x9 and
    /// 12x12, 4 at 10x10), and independent (A342576), asked for a placement of the optimum's
    /// size: a pruning rule that drops placements it should keep is soon caught here.
    #[test]
    fn search_from_scratch_finds_the_rare_knight_optima() {
        let plain = [(7, 10), (8, 12), (9, 14), (10, 16), (11, 21), (12, 24)];
        let independent = [(7, 13), (8, 14), (9, 14), (10, 16), (11, 22), (12, 24)];
        let cases = plain.map(|(n, v)| (n, false, v)).into_iter();
        for (n, ind, want) in cases.chain(independent.map(|(n, v)| (n, true, v))) {
            let m = knights(n, ind);
            for (symmetry, threads) in [(false, 1), (true, 1), (true, 2)] {
                let best = minimum_from_scratch(&m, want + 1, symmetry, threads);
                m.check(&best).expect("a valid placement");
                assert_eq!(
                    best.len(),
                    want,
                    "n={n} independent={ind} symmetry={symmetry} threads={threads}"
                );
            }
        }
    }

    /// A placement with fewer than `bar` pieces: without symmetries by the plain search from
    /// the root; with them through the corner subtrees as a proof runs them (on two threads
    /// split a level further).
    fn minimum_from_scratch(m: &Model, bar: usize, symmetry: bool, threads: usize) -> Vec<usize> {
        let task = Task {
            threads,
            ..Task::default()
        };
        let mut s = Search::new(m, &task);
        s.mode = Mode::Minimize;
        s.bar = bar;
        let mut run = Run::new(Limits::default());
        if symmetry {
            s.symmetry = m.symmetries.len() > 1;
            s.prove(&mut run);
        } else {
            s.start(&mut run);
        }
        s.best.take().expect("a placement")
    }

    /// A search of knights n x n from no incumbent at all, as `--part` or `--estimate` asks.
    fn from_scratch(m: &Model, part: Option<(usize, usize)>, estimate: Option<u64>) -> Search<'_> {
        let task = Task {
            goal: crate::engine::Goal::Minimize,
            part,
            estimate,
            ..Task::default()
        };
        let mut s = Search::new(m, &task);
        s.mode = Mode::Minimize;
        s.symmetry = true;
        s
    }

    /// A part split once more (`--part I/N,J/M`): the subparts of every part together find
    /// and prove the optimum, all of them on one list and, within a part, one sublist.
    #[test]
    fn subparts_together_find_and_prove_the_optimum() {
        for (n, independent, want) in [(8, false, 12), (9, true, 14), (10, false, 16)] {
            let m = knights(n, independent);
            let mut sizes = Vec::new();
            let mut lists = Vec::new();
            let mut children = 0;
            for p in 1..=2 {
                let mut sublists = Vec::new();
                let (mut taken, mut of) = (0, 0);
                for q in 1..=3 {
                    let mut s = from_scratch(&m, Some((p, 2)), None);
                    s.subpart = Some((q, 3));
                    s.prove(&mut Run::new(Limits::default()));
                    let note = s.partial.take().expect("a subpart says what it did");
                    assert!(note.starts_with(&format!("part {p}/2,{q}/3: ")), "{note}");
                    assert!(note.contains("searched: none smaller than"), "{note}");
                    let words: Vec<&str> = note.split(' ').collect();
                    // "part 1/2,1/3: 5 of the 14 descendants of 3 of 6 subtrees below ..."
                    taken += words[2].parse::<usize>().expect("a count");
                    of = words[5].parse::<usize>().expect("a count");
                    let (list, sublist) = note
                        .split_once("(list ")
                        .and_then(|(_, r)| r.split_once(", sublist "))
                        .expect("both fingerprints");
                    lists.push(list.to_string());
                    sublists.push(sublist[..16].to_string());
                    if let Some(b) = s.best.take() {
                        m.check(&b).expect("a valid placement");
                        sizes.push(b.len());
                    }
                }
                assert!(sublists.iter().all(|l| l == &sublists[0]), "{sublists:?}");
                // The subparts share the children out, each exactly once.
                assert_eq!(taken, of, "n={n} part {p}");
                children += of;
            }
            assert!(lists.iter().all(|l| l == &lists[0]), "{lists:?}");
            assert!(children > 2, "n={n}: {children} children in all");
            assert_eq!(
                sizes.iter().min(),
                Some(&want),
                "n={n} independent={independent}"
            );
        }
    }

    #[test]
    fn parts_together_find_and_prove_the_optimum() {
        // OEIS A006075 and A342576, n = 7..9; no incumbent, so the parts must find it.
        let mut all_lists = Vec::new();
        for (independent, table) in [(false, [10, 12, 14]), (true, [13, 14, 14])] {
            for (i, &want) in table.iter().enumerate() {
                let m = knights(7 + i, independent);
                let mut sizes = Vec::new();
                let mut lists = Vec::new();
                for p in 1..=3 {
                    let mut s = from_scratch(&m, Some((p, 3)), None);
                    s.prove(&mut Run::new(Limits::default()));
                    let note = s.partial.take().expect("a part says what it did");
                    assert!(note.starts_with(&format!("part {p}/3: ")), "{note}");
                    assert!(note.contains("searched: none smaller than"), "{note}");
                    let list = note.split("(list ").nth(1).expect("a fingerprint");
                    lists.push(list[..16].to_string());
                    if let Some(b) = s.best.take() {
                        m.check(&b).expect("a valid placement");
                        sizes.push(b.len());
                    }
                }
                assert_eq!(
                    sizes.iter().min(),
                    Some(&want),
                    "independent={independent} n={}",
                    7 + i
                );
                // All parts search one list; another board's list is another.
                assert!(lists.iter().all(|l| l == &lists[0]), "{lists:?}");
                all_lists.push(lists[0].clone());
            }
        }
        all_lists.sort();
        all_lists.dedup();
        assert_eq!(all_lists.len(), 6, "{all_lists:?}");
    }

    #[test]
    fn knuth_estimate_is_near_the_nodes_the_search_takes() {
        for (n, independent) in [(12, false), (13, true), (14, false)] {
            let m = knights(n, independent);
            let want = minimum(&m, true, 1).len();
            // The tree below the subtrees that proves nothing smaller than the optimum, as
            // the proofs in parts search it (a bar the search could lower would make the
            // searched tree smaller than the probed one); the probes on one worker and
            // shared between two.
            let threads = 1 + n % 2;
            let mut s = from_scratch(&m, None, Some(4000));
            s.bar = want;
            s.threads = threads;
            let mut run = Run::new(Limits::default());
            s.prove(&mut run);
            let note = s.partial.take().expect("an estimate");
            assert!(note.contains(&format!("on {threads} thread")), "{note}");
            let mut exact = from_scratch(&m, Some((1, 1)), None);
            exact.bar = want;
            let mut run2 = Run::new(Limits::default());
            exact.prove(&mut run2);
            let nodes = run2.stats.nodes as f64;
            let est = about(&note);
            assert!(
                est > nodes / 2.0 && est < nodes * 2.0,
                "n={n}: estimated {est}, searched {nodes}: {note}"
            );
            // Each part estimated alone (`--estimate` with `--part`): together the tree.
            let mut sum = 0.0;
            for p in 1..=3 {
                let mut s = from_scratch(&m, Some((p, 3)), Some(4000));
                s.bar = want;
                s.prove(&mut Run::new(Limits::default()));
                let note = s.partial.take().expect("an estimate");
                assert!(
                    note.starts_with(&format!("estimate, part {p}/3: ")),
                    "{note}"
                );
                sum += about(&note);
            }
            assert!(
                sum > nodes / 2.0 && sum < nodes * 2.0,
                "n={n}: the parts' estimates add up to {sum}, searched {nodes}"
            );
        }
    }

    /// The number of nodes an estimate's note gives ("... about 2.49e8 nodes ...").
    fn about(note: &str) -> f64 {
        note.split("about ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("a number in {note}"))
    }
}
