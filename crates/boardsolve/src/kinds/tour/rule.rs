//! What `count`'s sweep knows of one square before it expands the states there: the board
//! in the sweep's order ([`Layout`]) and, built from it square by square, the [`Rule`] that
//! the expansion (expand.rs) checks each new state against. A rule depends on the board and
//! the square only, never on the states: it is built once a square, apart from the sweep
//! that drives the states (sweep.rs) and from the hot loop that reads it (expand.rs).
//!
//! A state is dropped as soon as some square can no longer get its moves: a frontier square
//! with fewer squares to come than moves it lacks, or a square to come whose neighbours
//! among the squares to come and the frontier squares not done are too few (the corners and
//! edges of the last rows depend on frontier squares that fill up early). Short by one
//! move, such a square must be a tour end, within the two ends and their colours. A square
//! to come with exactly as many open neighbours as it needs takes a move from each, and a
//! frontier square cannot give more moves than it has left. The earlier a doomed state is
//! dropped, the fewer states the widest squares hold.

use super::key::Key;
use super::model::KNIGHT;
use super::order::Order;

/// The longest frontier whose labels fit 4 bits a square (label 15 is kept free for a new
/// fragment; at most half the frontier's 21 squares plus two tour ends carry labels, from
/// 2 up): a frontier of up to 15 squares takes a `u64` state, up to 21 a 128-bit one.
pub(super) const MAX_SHORT_SIDE: usize = 10;

/// The board in the sweep's order (order.rs), its colours and what is counted: what every
/// square's rule is made from.
pub(super) struct Layout {
    pub(super) order: Order,
    pub(super) n: usize,
    /// The window's length: the most squares of the sweep between knight's neighbours.
    pub(super) l: usize,
    pub(super) hole: Vec<bool>,
    /// The squares the tour must end on (its start, or both ends), in the sweep's order.
    pub(super) ends: Vec<usize>,
    pub(super) last: usize,
    /// The colour no open tour can end on (an odd board), if any.
    pub(super) minor: Option<u8>,
    pub(super) closed: bool,
    pub(super) prefixes: bool,
}

impl Layout {
    pub(super) fn colour(&self, p: usize) -> u8 {
        self.order.colour(p)
    }

    /// The rule of square `p`.
    pub(super) fn rule<K: Key>(&self, p: usize) -> Rule<K> {
        let (o, n, l) = (&self.order, self.n, self.l);
        let (hole, last, minor) = (&self.hole, self.last, self.minor);
        let fixed = |q: usize| self.ends.contains(&q);
        let (closed, prefixes) = (self.closed, self.prefixes);
        let cells = !(!K::ZERO << (4 * l));
        let ones = K::ONES & cells;
        let colour = |p: usize| self.colour(p);
        // Back moves as window positions (the window holds squares p-l .. p-1): a knight's
        // move to an earlier line.
        let mut back: Vec<usize> = Vec::with_capacity(4);
        if !hole[p] {
            for (dr, dc) in [(-2i64, -1i64), (-2, 1), (-1, -2), (-1, 2)] {
                if let Some(q) = o.step(o.at(p), (dr, dc))
                    && !hole[q]
                {
                    back.push(l - (p - q));
                }
            }
        }
        let max_deg = if fixed(p) { 1 } else { 2 };
        // The sets of back moves the new square may take.
        let subsets: Vec<u32> = (0u32..1 << back.len())
            .filter(|s| s.count_ones() <= max_deg)
            .collect();
        // The back moves to a fixed end.
        let end_back = back
            .iter()
            .enumerate()
            .filter(|&(_, &pos)| fixed(p + pos - l))
            .fold(0u32, |m, (j, _)| m | 1 << j);
        // Moves each square of the next window still can gain: from squares after p.
        let mut cap = [0u8; 4 * MAX_SHORT_SIDE];
        for (i, cp) in cap.iter_mut().enumerate().take(l) {
            let Some(q) = (p + 1 + i).checked_sub(l) else {
                continue;
            };
            for d in [(1i64, -2i64), (1, 2), (2, -1), (2, 1)] {
                if let Some(q2) = o.step(o.at(q), d)
                    && q2 > p
                    && !hole[q2]
                {
                    *cp += 1;
                }
            }
        }
        let (mut cap0, mut cap1, mut no_end, mut colours) = (K::ZERO, K::ZERO, K::ZERO, K::ZERO);
        let (mut end_at, mut end_cap) = (K::ZERO, K::ZERO);
        for (i, &c) in cap.iter().enumerate().take(l) {
            let bit = K::from_u8(1) << (4 * i);
            if (p + 1 + i).checked_sub(l).is_some_and(fixed) {
                end_at |= bit;
                if c > 0 {
                    end_cap |= bit;
                }
                continue;
            }
            match c {
                0 => cap0 |= bit,
                1 => cap1 |= bit,
                _ => {}
            }
            if let Some(q) = (p + 1 + i).checked_sub(l) {
                if minor == Some(colour(q)) {
                    no_end |= bit;
                }
                colours |= K::from_u8(colour(q)) << (4 * i);
            }
        }
        // With both ends fixed no other square may end the tour.
        let free_ends = !closed && self.ends.len() < 2;
        let leaving_fixed = p.checked_sub(l).is_some_and(fixed);
        let leaving_no_end = !leaving_fixed
            && (!free_ends || p.checked_sub(l).is_some_and(|q| minor == Some(colour(q))));
        let leaving_colour = p.checked_sub(l).map_or(0, colour);
        // Squares after p that may fall short of moves: those with fewer than they need among
        // the squares after p, so that some must come from the window (not yet done ones).
        let mut futs: Vec<Future<K>> = Vec::new();
        for q in p + 1..(p + 2 + l).min(n) {
            if hole[q] {
                continue;
            }
            let mut later = 0u8;
            let mut mask = K::ZERO;
            for d in KNIGHT {
                let Some(x) = o.step(o.at(q), d) else {
                    continue;
                };
                if hole[x] {
                    continue;
                }
                if x > p {
                    later += 1;
                } else if x + l > p {
                    mask |= K::from_u8(1) << (4 * (x + l - p - 1));
                }
            }
            let need = if fixed(q) { 1 } else { 2 };
            // A prefix ending before q has q as a hole, needing no moves: counting prefixes,
            // only what holds for every prefix may drop a state.
            if later < need && !prefixes {
                futs.push(Future {
                    mask,
                    gap: need - later,
                    may_end: free_ends && minor != Some(colour(q)) && !fixed(q),
                    colour: colour(q),
                });
            }
        }
        Rule {
            hole: hole[p],
            last: p == last,
            back,
            subsets,
            end_back,
            futs,
            cells,
            ones,
            all_done: ones,
            cap0,
            cap1,
            end_at,
            end_cap,
            free_ends,
            balanced: minor.is_none(),
            colours,
            leaving_colour,
            no_end,
            leaving_no_end,
            l,
            closed,
            prefixes,
        }
    }
}

/// A square not yet placed that may run short of moves: its neighbours among the squares
/// still to come cannot give it all it needs, and the rest must come from the window
/// positions `mask`, one move from each square there not done.
pub(super) struct Future<K> {
    pub(super) mask: K,
    /// Moves it needs beyond those the squares to come can give (1 or 2).
    pub(super) gap: u8,
    pub(super) may_end: bool,
    pub(super) colour: u8,
}

/// What `emit` (expand.rs) checks a new state against at one square. Sets of window positions
/// (after the shift) are masks with the lowest bit of each position's nibble.
pub(super) struct Rule<K> {
    /// The square is a hole; the last square of the board.
    pub(super) hole: bool,
    pub(super) last: bool,
    /// Back moves as window positions, the sets of them the square may take, and those
    /// of them (bits by index in `back`) to a fixed end.
    pub(super) back: Vec<usize>,
    pub(super) subsets: Vec<u32>,
    pub(super) end_back: u32,
    /// Squares to come that may run short of moves.
    pub(super) futs: Vec<Future<K>>,
    /// The nibbles of the window's cells, and the lowest bit of each.
    pub(super) cells: K,
    pub(super) ones: K,
    /// Every cell done.
    pub(super) all_done: K,
    pub(super) l: usize,
    pub(super) closed: bool,
    /// Positions other than fixed ends that can gain no more moves, or one more.
    pub(super) cap0: K,
    pub(super) cap1: K,
    /// The fixed ends in the new window, and those of them that can still gain their move.
    pub(super) end_at: K,
    pub(super) end_cap: K,
    /// An open tour whose ends are not both fixed: other squares may end it.
    pub(super) free_ends: bool,
    /// Positions whose squares cannot end an open tour (colour).
    pub(super) no_end: K,
    /// The square leaving the window cannot end an open tour.
    pub(super) leaving_no_end: bool,
    /// As many squares of each colour: the two ends of an open tour differ in colour.
    pub(super) balanced: bool,
    /// Colour of each position of the new window (nibble-wise), and of the leaving square.
    pub(super) colours: K,
    pub(super) leaving_colour: u8,
    /// Counting every prefix: a cycle through every square so far is a tour of the prefix
    /// that ends at this square, counted in the buckets' `closed`.
    pub(super) prefixes: bool,
}
