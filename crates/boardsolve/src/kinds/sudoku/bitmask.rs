//! `bitmask`: each cell's candidates as the bits of a word; a cell left one candidate takes
//! it and strikes it from its peers (naked single), a symbol left one place in a unit goes
//! there (hidden single), until neither applies; then the search branches on the cell with
//! the fewest candidates. The candidates of every level of the search stand in one flat
//! array, a level a copy of the one above: no allocation per node. The word is the narrowest
//! that holds the symbols and a mark: 16 bits up to 15 symbols, 32 up to 31, else 64, so
//! that a 9x9 level is 162 bytes to copy.

use super::{Grid, Model, SudokuRefusal};
use crate::engine::{Answer, Refusal, Run, Task};
use crate::kinds::Strategy;

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "candidates as bitmasks, naked and hidden singles propagated, branching on the cell \
         with the fewest candidates (no cages)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), Refusal> {
        if task.unique {
            return Err(SudokuRefusal::Unique.into());
        }
        if !m.grid.cages.is_empty() {
            return Err(SudokuRefusal::BitmaskCages.into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, _task: &Task, run: &mut Run) -> Answer {
        match m.n() {
            0..=15 => Search::<u16>::new(&m.grid).solve(&m.givens, run),
            16..=31 => Search::<u32>::new(&m.grid).solve(&m.givens, run),
            _ => Search::<u64>::new(&m.grid).solve(&m.givens, run),
        };
        Answer::default()
    }
}

/// A machine word of candidates: bits 0 to n - 1 the symbols, the top bit [`Word::PLACED`].
pub trait Word:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAndAssign
    + std::ops::BitXorAssign
    + std::ops::Not<Output = Self>
{
    const ZERO: Self;
    /// Set on a cell whose symbol is placed and struck from its peers.
    const PLACED: Self;
    fn low(n: usize) -> Self;
    fn bit(s: u32) -> Self;
    fn ones(self) -> u32;
    fn first(self) -> u32;
    /// The lowest bit set alone.
    fn lowest(self) -> Self;
    /// Without its lowest bit.
    fn rest(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const PLACED: Self = 1 << (<$t>::BITS - 1);
            #[inline(always)]
            fn low(n: usize) -> Self {
                ((1 as $t) << n) - 1
            }
            #[inline(always)]
            fn bit(s: u32) -> Self {
                1 << s
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn rest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
word!(u16);
word!(u32);
word!(u64);

/// The search's working memory, for one puzzle.
pub struct Search<'g, W: Word> {
    g: &'g Grid,
    cells: usize,
    /// Every symbol's bit.
    full: W,
    /// The candidates of level `l`: `levels[l * cells..(l + 1) * cells]`.
    levels: Vec<W>,
    /// Cells left one candidate, to place.
    queue: Vec<u32>,
    /// A solution's symbols, for the run.
    out: Vec<usize>,
    /// The units (bit u) where candidates changed since their last look for hidden singles.
    dirty: u128,
}

impl<'g, W: Word> Search<'g, W> {
    pub fn new(g: &'g Grid) -> Search<'g, W> {
        let cells = g.n * g.n;
        Search {
            g,
            cells,
            full: W::low(g.n),
            levels: vec![W::ZERO; cells * 2],
            queue: Vec::with_capacity(cells),
            out: Vec::with_capacity(cells),
            dirty: 0,
        }
    }

    /// Search the grid with these givens (0 blank, k symbol k - 1), reporting each
    /// solution to the run; `true` when the run said stop.
    pub fn solve(&mut self, givens: &[u8], run: &mut Run) -> bool {
        let full = self.full;
        self.queue.clear();
        self.dirty = self.g.all_units();
        let level = &mut self.levels[..self.cells];
        level.fill(full);
        for (c, &g) in givens.iter().enumerate() {
            if g != 0 {
                level[c] = W::bit(g as u32 - 1);
                self.queue.push(c as u32);
            }
        }
        self.search(0, run)
    }

    fn search(&mut self, depth: usize, run: &mut Run) -> bool {
        let cells = self.cells;
        if !self.propagate(depth) {
            return false;
        }
        let level = &self.levels[depth * cells..(depth + 1) * cells];
        let mut best = usize::MAX;
        let mut fewest = u32::MAX;
        for (c, &v) in level.iter().enumerate() {
            if v & W::PLACED == W::ZERO {
                let k = v.ones();
                if k < fewest {
                    fewest = k;
                    best = c;
                    if k == 2 {
                        break;
                    }
                }
            }
        }
        if best == usize::MAX {
            if run.reports_each() {
                self.out.clear();
                self.out
                    .extend(level.iter().map(|&v| (v & !W::PLACED).first() as usize));
                return run.report(&self.out);
            }
            run.count(1);
            return false;
        }
        if self.levels.len() < (depth + 2) * cells {
            self.levels.resize((depth + 2) * cells, W::ZERO);
        }
        let mut left = self.levels[depth * cells + best];
        while left != W::ZERO {
            let bit = left.lowest();
            left = left.rest();
            if run.node() {
                return true;
            }
            let (above, below) = self.levels.split_at_mut((depth + 1) * cells);
            below[..cells].copy_from_slice(&above[depth * cells..]);
            below[best] = bit;
            self.queue.clear();
            self.queue.push(best as u32);
            self.dirty = self.g.unit_mask[best];
            if self.search(depth + 1, run) {
                return true;
            }
        }
        false
    }

    /// Place the queued singles and the hidden singles they make, level `depth`; `false`
    /// when a cell or a unit is left without a candidate. Only the units where a cell's
    /// candidates changed are looked at again for hidden singles.
    fn propagate(&mut self, depth: usize) -> bool {
        let g = self.g;
        let full = self.full;
        let cells = self.cells;
        let level = &mut self.levels[depth * cells..(depth + 1) * cells];
        let queue = &mut self.queue;
        let mut dirty = self.dirty;
        loop {
            while let Some(c) = queue.pop() {
                let c = c as usize;
                let bit = level[c];
                if bit & W::PLACED != W::ZERO {
                    continue;
                }
                level[c] = bit | W::PLACED;
                for &p in g.peers_of(c) {
                    let v = level[p as usize];
                    if v & bit != W::ZERO {
                        if v & W::PLACED != W::ZERO {
                            return false;
                        }
                        let w = v & !bit;
                        if w == W::ZERO {
                            return false;
                        }
                        level[p as usize] = w;
                        dirty |= g.unit_mask[p as usize];
                        if w.rest() == W::ZERO {
                            queue.push(p);
                        }
                    }
                }
            }
            if dirty == 0 {
                self.dirty = 0;
                return true;
            }
            let u = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let unit = g.unit(u);
            let (mut once, mut twice, mut placed) = (W::ZERO, W::ZERO, W::ZERO);
            for &c in unit {
                let v = level[c as usize];
                if v & W::PLACED != W::ZERO {
                    placed |= v;
                }
                let v = v & !W::PLACED;
                twice |= once & v;
                once |= v;
            }
            if once != full {
                return false;
            }
            let mut only = once & !twice & !placed;
            while only != W::ZERO {
                let bit = only.lowest();
                only = only.rest();
                for &c in unit {
                    let v = level[c as usize];
                    if v & bit != W::ZERO {
                        if v != bit {
                            level[c as usize] = bit;
                            dirty |= g.unit_mask[c as usize];
                            queue.push(c);
                        }
                        break;
                    }
                }
            }
        }
    }
}
