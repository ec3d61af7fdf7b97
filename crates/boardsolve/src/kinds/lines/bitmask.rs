//! `bitmask`: row by row as `rows` does, but with the board in one machine word (u64 up to
//! 64 squares, else u128). Each colour keeps a *forbidden* mask: the union of the lines that
//! already hold `max_per_line` stones of it. A square is open to a colour when it is free and
//! not forbidden, so a row's choices are the bits of one AND. After each colour of each row,
//! a popcount per remaining row and per column says whether that colour can still reach its
//! total and each column its forced share (6x6: 2 of each colour per column); a branch that
//! cannot ends there. Row 0 is filled first; after it, the remaining row with the fewest open
//! squares (most constrained first, as MRV in Dancing Links).
//!
//! Symmetry is broken at the root. Of each class under the board's symmetries only the
//! members whose top row, read as a string of colours, is the smallest among the top rows of
//! their images are searched: the row-0 choice is held to at most its mirror image at once,
//! and the image top rows that are read along the left or right column are compared as those
//! columns fill. A complete placement that passes is reported only when it is the smallest
//! member of its class, and then stands for its whole orbit: counted with the orbit's size
//! (so counts are weighted by orbit size), each distinct image reported for `goal all`, or
//! counted once for `--unique`. On 6x6 this searches 2.8 times fewer nodes than without it.
//!
//! With `--threads` (counting only) the row-0 choices are shared out to workers.

use super::vocab::LinesRefusal;
use super::{Emitter, Model, RowPlan};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Limits, Run, Task};
use crate::kinds::CountNote;
use crate::kinds::{Strategy, parts};

use super::model::apply;

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A board in one machine word: u64 when it fits (the narrower word is cheaper), else u128.
trait Mask:
    Copy
    + Eq
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const ZERO: Self;
    fn bit(i: usize) -> Self;
    fn ones(self) -> usize;
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn ones(self) -> usize {
                self.count_ones() as usize
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}
mask!(u64);
mask!(u128);

pub struct Bitmask;

/// The board must fit one word.
const MAX_BITS: usize = 128;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "rows as masks in one machine word, forbidden squares per colour, symmetry broken at the root"
    }
    fn splits(&self) -> bool {
        true
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        parts::counts_only(task)?;
        if m.board.squares() > MAX_BITS {
            return Err(LinesRefusal::BoardBits {
                width: m.board.width,
                height: m.board.height,
                squares: m.board.squares(),
                bits: MAX_BITS,
            }
            .into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(why) = &m.infeasible {
            return Answer::none_because(why.clone());
        }
        let mut a = match (task.part.is_some(), m.board.squares() <= 64) {
            (true, true) => part::<u64>(m, task, run),
            (true, false) => part::<u128>(m, task, run),
            (false, true) => {
                search::<u64>(m, task, run);
                Answer::default()
            }
            (false, false) => {
                search::<u128>(m, task, run);
                Answer::default()
            }
        };
        if m.symmetries.len() > 1 {
            a.notes
                .push(CountNote::SymmetryFold(m.symmetries.len() as u32).into());
        }
        a
    }
}

/// Sequential, or with `--threads` (counting only) the first row's choices shared out to the
/// workers: each worker's search is held to one first row and runs the rest as usual.
fn search<M: Mask>(m: &Model, task: &Task, run: &mut Run) {
    let parallel = task.threads > 1 && !run.reports_each();
    if !parallel {
        Search::<M, false>::new(m, task).row(0, run);
        return;
    }
    let mut first = Search::<M, false>::new(m, task);
    first.parts.collect = Some(Vec::new());
    first.row(0, run);
    let firsts = first.parts.collect.take().unwrap_or_default();
    run.share_out(&firsts, task.threads, |row0, child| {
        let mut s = Search::<M, false>::new(m, task);
        s.parts.force = Some(row0.clone());
        s.row(0, child);
    });
}

/// `SPLIT`: the search can walk a given path of stones first and, at its end, list the next
/// stones instead of placing them (`--part`); without it those checks are compiled out of
/// the hot loop.
/// The part's subtrees (`--part`), cut by [`split::cut`] from the tree whose nodes are the
/// stones `pick` places (each one node of the run's count), a node being the stones on its
/// path in search order. A node's children are the stones the search places next, through
/// colours and rows that take none; the search walks to a node by placing its stones where
/// it meets them, and goes on from there as usual.
fn part<M: Mask>(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let expand = |node: &Vec<(usize, usize)>, _: &mut Run| {
        let mut s = Search::<M, true>::new(m, task);
        s.parts.walk.clone_from(node);
        s.parts.next = Some(Vec::new());
        // Listing counts no node: the part counts those it expanded (`Cut::above`).
        s.row(0, &mut Run::new(Limits::default()));
        if s.parts.completes {
            // No stone can follow a complete placement: the node is its own subtree.
            return Expand::Leaf;
        }
        let next = s.parts.next.take().unwrap_or_default();
        Expand::Children(
            next.into_iter()
                .map(|stone| {
                    let mut path = node.clone();
                    path.push(stone);
                    path
                })
                .collect(),
        )
    };
    let key = |node: &Vec<(usize, usize)>, f: &mut Fingerprint| {
        f.eat(node.len() as u64);
        for &(sq, c) in node {
            f.eat(sq as u64);
            f.eat(c as u64);
        }
    };
    let Some(cut) = split::cut(task, run, Vec::new(), None, expand, key) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |node, run| {
        // The node's last stone is a node of the search, as `pick` counts it.
        if !node.is_empty() && run.node() {
            return;
        }
        let mut s = Search::<M, true>::new(m, task);
        s.parts.walk.clone_from(node);
        s.row(0, run);
    })
}

/// What the search knows of the board, fixed once it begins: read on every node, never
/// written.
struct Geometry<M> {
    nc: usize,
    w: usize,
    h: usize,
    /// The most stones of one colour a line may hold.
    k: u8,
    plan: RowPlan,
    row_mask: Vec<M>,
    /// Columns that must take stones: (mask, stones of each colour it needs).
    col_need: Vec<(M, usize)>,
    /// Per square, the masks of the lines (besides its row) its stone counts on:
    /// `through[off[s]..off[s+1]]`. A line is full for colour c when its AND with `stones[c]`
    /// has `max_per_line` bits: no counters to keep, nothing to undo but `forb`.
    through: Vec<M>,
    off: Vec<usize>,
}

/// The placement under way: what `place` and `unplace` change on every node.
struct State<M> {
    /// Rows filled so far.
    done: Vec<bool>,
    /// The squares of the rows not yet begun.
    later: M,
    /// The most stones of one colour the rows not yet begun can take.
    cap_left: usize,
    /// The stones of each colour, the squares forbidden to each, and every stone.
    stones: Vec<M>,
    forb: Vec<M>,
    occ: M,
    /// Stones each colour still needs, and each square's colour (0: empty).
    need: Vec<usize>,
    sol: Vec<usize>,
}

/// The symmetry breaking at the root: the image top rows compared as the rows fill.
struct Symmetry {
    /// For each symmetry but the identity, the squares whose stones land on the image's top
    /// row, in order.
    src: Vec<Vec<usize>>,
    /// Per level (rows done), per symmetry: the next position to compare, or `RESOLVED`
    /// when the image's top row is already known to be larger.
    pos: Vec<usize>,
    /// Scratch for the images of a placement reported with its orbit.
    image: Vec<usize>,
    seen: Vec<Vec<usize>>,
}

/// Sharing the search out: to the workers of `--threads` by the first row, and to the
/// parts of `--part` by a path of stones.
struct Parts {
    /// Gather the first rows that pass instead of going deeper (to share them out).
    collect: Option<Vec<Vec<usize>>>,
    /// Hold the first row to exactly this (a worker's share).
    force: Option<Vec<usize>>,
    /// With `SPLIT`: the stones (square, colour) of the node to search from, placed as the
    /// search meets them, uncounted (they are the node's ancestors and itself).
    walk: Vec<(usize, usize)>,
    /// Stones of `walk` on the current path.
    walked: usize,
    /// With `SPLIT`, listing a node's children: the stones the search would place next.
    next: Option<Vec<(usize, usize)>>,
    /// Listing: the node ends in a complete placement without another stone.
    completes: bool,
}

/// The search, its data grouped by concern; the groups are held by value, so the hot loop
/// reads each field at a fixed offset from `self`, as from one flat struct.
struct Search<'m, M: Mask, const SPLIT: bool> {
    m: &'m Model,
    task: Task,
    emit: Emitter<'m>,
    geo: Geometry<M>,
    state: State<M>,
    sym: Symmetry,
    parts: Parts,
}

const RESOLVED: usize = usize::MAX;

impl<'m, M: Mask, const SPLIT: bool> Search<'m, M, SPLIT> {
    fn new(m: &'m Model, task: &Task) -> Self {
        let (w, h, nc) = (m.board.width, m.board.height, m.num_colors());
        let plan = RowPlan::new(m);
        let row_mask: Vec<M> = (0..h)
            .map(|r| {
                (0..w)
                    .filter(|&c| !m.board.is_hole(r * w + c))
                    .fold(M::ZERO, |acc, c| acc | M::bit(r * w + c))
            })
            .collect();
        let later = row_mask.iter().fold(M::ZERO, |a, &r| a | r);
        let cap_left = plan.cap.iter().sum();
        let col_need = (0..w)
            .filter_map(|c| {
                m.line_of_col[c]?;
                let lo = m.col_quota[c].0;
                let mask = (0..h)
                    .filter(|&r| !m.board.is_hole(r * w + c))
                    .fold(M::ZERO, |acc, r| acc | M::bit(r * w + c));
                (lo > 0).then_some((mask, lo))
            })
            .collect();
        let line_mask: Vec<M> = m
            .lines
            .iter()
            .map(|l| {
                l.iter()
                    .filter(|&&s| !m.board.is_hole(s))
                    .fold(M::ZERO, |a, &s| a | M::bit(s))
            })
            .collect();
        let mut through = Vec::new();
        let mut off = vec![0];
        for t in &plan.through {
            through.extend(t.iter().map(|&l| line_mask[l as usize]));
            off.push(through.len());
        }
        let syms = &m.symmetries[1..];
        let src: Vec<Vec<usize>> = syms
            .iter()
            .map(|perm| {
                let mut inv = vec![0usize; w * h];
                for (s, &t) in perm.iter().enumerate() {
                    inv[t as usize] = s;
                }
                inv[..w].to_vec()
            })
            .collect();
        Search {
            m,
            task: *task,
            emit: Emitter::new(m, task),
            geo: Geometry {
                nc,
                w,
                h,
                k: m.limit().min(255) as u8,
                plan,
                row_mask,
                col_need,
                through,
                off,
            },
            state: State {
                done: vec![false; h],
                later,
                cap_left,
                stones: vec![M::ZERO; nc],
                forb: vec![M::ZERO; nc],
                occ: M::ZERO,
                need: vec![m.per_color; nc],
                sol: vec![0; w * h],
            },
            sym: Symmetry {
                pos: vec![0; (h + 1) * src.len()],
                src,
                image: vec![0; w * h],
                seen: Vec::new(),
            },
            parts: Parts {
                collect: None,
                force: None,
                walk: Vec::new(),
                walked: 0,
                next: None,
                completes: false,
            },
        }
    }

    /// Fill one more row (depth d rows are done): row 0 first, whose choice the symmetry
    /// breaking reads, then the row with the fewest open squares (most constrained first).
    /// Returns `true` to stop.
    fn row(&mut self, d: usize, run: &mut Run) -> bool {
        if d == self.geo.h {
            return self.state.need.iter().all(|&n| n == 0) && self.complete(run);
        }
        let r = if d == 0 { 0 } else { self.most_constrained() };
        self.state.done[r] = true;
        self.state.later &= !self.geo.row_mask[r];
        self.state.cap_left -= self.geo.plan.cap[r];
        let stop = self.colour(d, r, 0, run);
        self.state.cap_left += self.geo.plan.cap[r];
        self.state.later |= self.geo.row_mask[r];
        self.state.done[r] = false;
        stop
    }

    /// The undone row with the fewest squares open to its colours.
    fn most_constrained(&self) -> usize {
        let mut best = (usize::MAX, 0);
        for r in 0..self.geo.h {
            if self.state.done[r] {
                continue;
            }
            let free = self.geo.row_mask[r];
            let open: usize = self.state.forb.iter().map(|&f| (free & !f).ones()).sum();
            if open < best.0 {
                best = (open, r);
            }
        }
        best.1
    }

    fn colour(&mut self, d: usize, r: usize, c: usize, run: &mut Run) -> bool {
        // The colour just placed in this row, checked before the next one multiplies it.
        if c > 0 && !self.feasible(c - 1) {
            return false;
        }
        if c == self.geo.nc {
            if !self.symmetry_ok(d) {
                return false;
            }
            if d == 0
                && let Some(rows) = self.parts.collect.as_mut()
            {
                rows.push(self.state.sol[..self.geo.w].to_vec());
                return false;
            }
            return self.row(d + 1, run);
        }
        let need = self.state.need[c];
        let (mut lo, mut hi) = (
            need.saturating_sub(self.state.cap_left),
            self.geo.plan.cap[r].min(need),
        );
        if lo > hi {
            return false;
        }
        let mut open = self.geo.row_mask[r] & !self.state.occ & !self.state.forb[c];
        if d == 0
            && let Some(row0) = &self.parts.force
        {
            let mine = (0..self.geo.w)
                .filter(|&j| row0[j] == c + 1)
                .fold(M::ZERO, |a, j| a | M::bit(j));
            if open & mine != mine {
                return false;
            }
            open = mine;
            (lo, hi) = (mine.ones(), mine.ones());
        }
        if open.ones() < lo {
            return false;
        }
        self.pick(d, r, c, 0, lo, hi, open, run)
    }

    #[allow(clippy::too_many_arguments)]
    fn pick(
        &mut self,
        d: usize,
        r: usize,
        c: usize,
        placed: usize,
        lo: usize,
        hi: usize,
        mut open: M,
        run: &mut Run,
    ) -> bool {
        if SPLIT && self.parts.walked < self.parts.walk.len() {
            return self.pick_walked(d, r, c, placed, lo, hi, open, run);
        }
        if placed >= lo && self.colour(d, r, c + 1, run) {
            return true;
        }
        if placed == hi {
            return false;
        }
        while open != M::ZERO && open.ones() + placed >= lo {
            let s = open.lowest();
            open = open.without_lowest();
            if SPLIT && let Some(next) = self.parts.next.as_mut() {
                next.push((s, c));
                continue;
            }
            if run.node() {
                return true;
            }
            let saved = self.place(c, s);
            let stop = self.pick(d, r, c, placed + 1, lo, hi, open, run);
            self.unplace(c, s, saved);
            if stop {
                return true;
            }
        }
        false
    }

    /// Place a stone of colour `c` on `s`: its lines full for `c` become forbidden to `c`.
    /// Returns the forbidden mask before, for [`Search::unplace`].
    #[inline(always)]
    fn place(&mut self, c: usize, s: usize) -> M {
        let saved = self.state.forb[c];
        let k = self.geo.k as usize;
        let mine = self.state.stones[c] | M::bit(s);
        self.state.stones[c] = mine;
        let mut forb = saved;
        for &line in &self.geo.through[self.geo.off[s]..self.geo.off[s + 1]] {
            if (line & mine).ones() >= k {
                forb |= line;
            }
        }
        self.state.forb[c] = forb;
        self.state.occ |= M::bit(s);
        self.state.sol[s] = c + 1;
        self.state.need[c] -= 1;
        saved
    }

    #[inline(always)]
    fn unplace(&mut self, c: usize, s: usize, saved: M) {
        self.state.need[c] += 1;
        self.state.sol[s] = 0;
        self.state.occ &= !M::bit(s);
        self.state.stones[c] &= !M::bit(s);
        self.state.forb[c] = saved;
    }

    /// `pick` on the walk to a node: the walk's next stone where it lies in this row and
    /// colour (the squares below it left behind, as the loop leaves them), else none here
    /// and on to the next colour. Uncounted: a node's ancestors are counted by the listing.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    fn pick_walked(
        &mut self,
        d: usize,
        r: usize,
        c: usize,
        placed: usize,
        lo: usize,
        hi: usize,
        open: M,
        run: &mut Run,
    ) -> bool {
        let (s, colour) = self.parts.walk[self.parts.walked];
        if colour != c || s / self.geo.w != r {
            return placed >= lo && self.colour(d, r, c + 1, run);
        }
        // The squares the loop passed before reaching `s`, and `s` itself.
        let passed = (0..=s).fold(M::ZERO, |a, q| a | M::bit(q));
        let left = open & !passed;
        if placed == hi
            || open & M::bit(s) == M::ZERO
            || (open & !(passed & !M::bit(s))).ones() + placed < lo
        {
            return false;
        }
        let saved = self.place(c, s);
        self.parts.walked += 1;
        let stop = self.pick(d, r, c, placed + 1, lo, hi, left, run);
        self.parts.walked -= 1;
        self.unplace(c, s, saved);
        stop
    }

    /// Once colour c is placed in the current row: can the rows not yet begun still take
    /// what it needs, and the columns what they must hold?
    fn feasible(&self, c: usize) -> bool {
        let need = self.state.need[c];
        if need == 0 {
            return true;
        }
        let mut room = 0;
        for rr in 0..self.geo.h {
            if !self.state.done[rr] {
                let open = (self.geo.row_mask[rr] & !self.state.forb[c]).ones();
                room += open.min(self.geo.plan.cap[rr]);
            }
        }
        if room < need {
            return false;
        }
        // A column that must take `lo` of each colour needs that many open squares left.
        for &(mask, lo) in &self.geo.col_need {
            let have = (mask & self.state.stones[c]).ones();
            if have < lo {
                let open = (mask & self.state.later & !self.state.forb[c]).ones();
                if have + open < lo {
                    return false;
                }
            }
        }
        true
    }

    /// After depth d: is the top row still at most every image's top row, as far as the
    /// rows done tell?
    fn symmetry_ok(&mut self, d: usize) -> bool {
        let g_count = self.sym.src.len();
        let w = self.geo.w;
        for g in 0..g_count {
            let mut p = if d == 0 {
                0
            } else {
                self.sym.pos[d * g_count + g]
            };
            if p != RESOLVED {
                while p < w && self.state.done[self.sym.src[g][p] / w] {
                    let (a, b) = (self.state.sol[self.sym.src[g][p]], self.state.sol[p]);
                    if a < b {
                        return false;
                    }
                    if a > b {
                        p = RESOLVED;
                        break;
                    }
                    p += 1;
                }
                if p == w {
                    // Equal top rows: still a candidate; nothing more to learn.
                    p = RESOLVED;
                }
            }
            self.sym.pos[(d + 1) * g_count + g] = p;
        }
        true
    }

    /// A complete placement whose top row is the smallest of its images'.
    fn complete(&mut self, run: &mut Run) -> bool {
        if SPLIT && self.parts.next.is_some() {
            self.parts.completes = true;
            return false;
        }
        let reporting = run.reports_each();
        if self.task.unique || reporting {
            if !self.m.is_canonical(&self.state.sol) {
                return false;
            }
            if self.task.unique {
                return self.emit.emit(run, &self.state.sol);
            }
            // The distinct images of a canonical placement: its orbit.
            self.sym.seen.clear();
            self.sym.seen.push(self.state.sol.clone());
            for perm in &self.m.symmetries[1..] {
                apply(perm, &self.state.sol, &mut self.sym.image);
                if !self.sym.seen.contains(&self.sym.image) {
                    self.sym.seen.push(self.sym.image.clone());
                }
            }
            for i in 0..self.sym.seen.len() {
                if run.solution(&self.sym.seen[i]) {
                    return true;
                }
            }
            return false;
        }
        // Counting: the canonical placement stands for its orbit.
        match self.m.orbit_if_canonical(&self.state.sol) {
            Some(orbit) => run.count(orbit as u128),
            None => return false,
        }
        false
    }
}
