//! `blocks`: enumeration by blocks. The board is cut into 4x4 blocks (smaller ones along the
//! right and bottom edges when a side is not a multiple of 4) and the squares are decided
//! block by block, each square left empty or given a piece. A square must be covered by the
//! time its last possible coverer in that order has been decided, which is checked as soon as
//! that happens. The bound: some squares can only be covered from inside their own block (for
//! knights the board's corners, whose two attackers sit in the corner's block), so every block
//! still to come that holds such a square needs a piece of its own; with the pieces placed so
//! far that must stay below the best placement found so far.
//!
//! Where no square is private to its block (queens, rooks, long riders) the bound is empty and
//! the method is plain enumeration, so it is refused; it is also refused above 144 squares,
//! where enumeration square by square takes hours.

use super::goals::{Mode, Searcher, Tally, drive};
use super::model::Model;
use super::vocab::DominationRefusal;
use crate::engine::{Answer, Run, Standing, Task};
use crate::kinds::Strategy;

pub struct Blocks;

const BLOCK: usize = 4;
const MAX_CELLS: usize = 144;

/// The decision order, the last-chance squares and the block bound.
struct Plan {
    /// Squares in the order they are decided.
    seq: Vec<usize>,
    /// `due[p * w..]`: squares whose last coverer is `seq[p]`.
    due: Vec<u64>,
    /// `private[p * w..]`: uncovered squares of `seq[p]`'s block that only that block covers.
    private: Vec<u64>,
    /// Blocks after `seq[p]`'s block that hold a square only they can cover.
    later: Vec<usize>,
}

fn plan(m: &Model) -> Plan {
    let b = &m.board;
    let w = m.words;
    let block_of = |s: usize| {
        let (r, c) = b.row_col(s);
        (r / BLOCK) * b.width.div_ceil(BLOCK) + c / BLOCK
    };
    let nblocks = b.width.div_ceil(BLOCK) * b.height.div_ceil(BLOCK);
    let mut seq = m.cells.clone();
    seq.sort_by_key(|&s| (block_of(s), s));
    let mut pos = vec![usize::MAX; b.squares()];
    for (p, &s) in seq.iter().enumerate() {
        pos[s] = p;
    }
    let mut due = vec![0u64; seq.len() * w];
    let mut block_private = vec![vec![0u64; w]; nblocks];
    let mut has_private = vec![false; nblocks];
    for &t in &m.cells {
        let coverers: Vec<usize> = (0..b.squares()).filter(|&s| m.coverers.get(t, s)).collect();
        let last = coverers.iter().map(|&s| pos[s]).max().unwrap_or(0);
        due[last * w + (t >> 6)] |= 1 << (t & 63);
        if coverers.iter().all(|&s| block_of(s) == block_of(t)) {
            block_private[block_of(t)][t >> 6] |= 1 << (t & 63);
            has_private[block_of(t)] = true;
        }
    }
    let mut private = vec![0u64; seq.len() * w];
    let mut later = vec![0usize; seq.len()];
    for (p, &s) in seq.iter().enumerate() {
        let blk = block_of(s);
        private[p * w..(p + 1) * w].copy_from_slice(&block_private[blk]);
        later[p] = has_private[blk + 1..].iter().filter(|&&h| h).count();
    }
    Plan {
        seq,
        due,
        private,
        later,
    }
}

impl Strategy<Model> for Blocks {
    fn name(&self) -> &'static str {
        "blocks"
    }
    fn about(&self) -> &'static str {
        "square by square in 4x4 blocks, a piece per block that alone covers a square"
    }
    fn applies(&self, m: &Model, _task: &Task) -> Result<(), crate::engine::Refusal> {
        m.no_army()?;
        if m.cells.len() > MAX_CELLS {
            return Err(DominationRefusal::BlocksTooMany {
                squares: m.cells.len(),
                max: MAX_CELLS,
            }
            .into());
        }
        let p = plan(m);
        if p.private.iter().all(|&x| x == 0) {
            return Err(DominationRefusal::BlocksEmptyBound.into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let plan = plan(m);
        let mut s = Search {
            m,
            w: m.words,
            uncovered: vec![0; (m.cells.len() + 1) * m.words],
            blocked: vec![0; (m.cells.len() + 1) * m.words],
            placed: Vec::with_capacity(m.cells.len()),
            plan,
            mode: Mode::Minimize,
            bar: m.cells.len() + 1,
            best: None,
            tally: Tally::new(m, task),
            first: None,
        };
        drive(m, &mut s, task, run)
    }
}

impl<'m> Searcher<'m> for Search<'m> {
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>> {
        self.mode = Mode::Minimize;
        self.start(run);
        self.best.take()
    }
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m> {
        self.mode = Mode::Count(k);
        self.start(run);
        std::mem::replace(&mut self.tally, Tally::new(self.m, &Task::default()))
    }
    fn first(&mut self, run: &mut Run) -> Option<usize> {
        self.mode = Mode::First;
        self.start(run);
        self.first
    }
}

struct Search<'m> {
    m: &'m Model,
    w: usize,
    /// Uncovered squares before deciding position p, `w` words per position.
    uncovered: Vec<u64>,
    /// Squares a piece may not take (attacked, under `independent`) before position p.
    blocked: Vec<u64>,
    placed: Vec<usize>,
    plan: Plan,
    mode: Mode,
    bar: usize,
    best: Option<Vec<usize>>,
    tally: Tally<'m>,
    first: Option<usize>,
}

impl Search<'_> {
    fn start(&mut self, run: &mut Run) {
        let w = self.w;
        self.uncovered[..w].copy_from_slice(&self.m.all);
        self.blocked[..w].fill(0);
        self.placed.clear();
        self.go(0, run);
    }

    /// Decide position `p`; `true` means stop.
    fn go(&mut self, p: usize, run: &mut Run) -> bool {
        if run.node() {
            return true;
        }
        let w = self.w;
        let k = self.placed.len();
        if p == self.plan.seq.len() {
            // Every square was checked when its last coverer was decided.
            return match self.mode {
                Mode::Minimize => {
                    if k < self.bar {
                        self.bar = k;
                        self.best = Some(self.placed.clone());
                        run.set_standing(Standing {
                            best: Some(k as u64),
                            ..Standing::default()
                        });
                    }
                    false
                }
                Mode::Count(t) => k == t && self.tally.add(run, &self.placed),
                Mode::First => {
                    self.first = Some(k);
                    run.solution(&self.placed);
                    true
                }
            };
        }
        let (o, next) = (p * w, (p + 1) * w);
        let own = (0..w).any(|i| self.uncovered[o + i] & self.plan.private[o + i] != 0);
        let need = self.plan.later[p] + usize::from(own);
        let over = match self.mode {
            Mode::Minimize => k + need >= self.bar,
            Mode::Count(t) => k + need > t,
            Mode::First => false,
        };
        if over {
            return false;
        }
        let s = self.plan.seq[p];
        let due = &self.plan.due[o..next];
        // Leave s empty.
        if (0..w).all(|i| self.uncovered[o + i] & due[i] == 0) {
            let (head, tail) = self.uncovered.split_at_mut(next);
            tail[..w].copy_from_slice(&head[o..next]);
            let (head, tail) = self.blocked.split_at_mut(next);
            tail[..w].copy_from_slice(&head[o..next]);
            if self.go(p + 1, run) {
                return true;
            }
        }
        // Put a piece on s: it must be free, and cover something new (a piece that covers
        // nothing new is never part of a minimum placement).
        let free = self.blocked[o + (s >> 6)] >> (s & 63) & 1 == 0;
        let row = self.m.cover.row(s);
        let gains = (0..w).any(|i| self.uncovered[o + i] & row[i] != 0);
        let bar_ok = match self.mode {
            Mode::Minimize => k + 1 < self.bar,
            Mode::Count(t) => k < t,
            Mode::First => true,
        };
        if free && gains && bar_ok {
            let due = &self.plan.due[o..next];
            if (0..w).all(|i| self.uncovered[o + i] & !row[i] & due[i] == 0) {
                let conflict = self.m.conflict.row(s);
                let (head, tail) = self.uncovered.split_at_mut(next);
                for i in 0..w {
                    tail[i] = head[o + i] & !row[i];
                }
                let (head, tail) = self.blocked.split_at_mut(next);
                for i in 0..w {
                    tail[i] = head[o + i] | conflict[i];
                }
                self.placed.push(s);
                let stop = self.go(p + 1, run);
                self.placed.pop();
                if stop {
                    return true;
                }
            }
        }
        false
    }
}
