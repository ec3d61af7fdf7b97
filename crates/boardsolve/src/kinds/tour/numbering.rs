//! Move numbers for `divide`: its joined tour turned into each square's move number,
//! written into the packed result.
//!
//! On the grid of blocks the joins form a tree and the tour is its Euler walk: it goes
//! round a block's cycle and, at each join, through the child's whole subtree before it
//! comes back over the join's second move. So a block's numbers follow from where its
//! parent enters it ([`Entry`]) and the sizes of its children's subtrees ([`Kid`]): a
//! [`Plan`] says, for one block, which number each square gets, and writes them in runs of
//! consecutive numbers between the joins. [`Turn`] then turns the walk's numbering so that
//! the tour starts where it must and, for an open path, runs away from its last square. The
//! walk over the blocks is `divide`'s (its grid of blocks); this file numbers each block.
//!
//! The strips are held as XOR-linked neighbours instead, and [`unlink`] walks them into
//! move numbers in place.

use super::blocks::BlockTour;
use super::vocab::TourBug;
use crate::util::Packed;

/// `x` mod `len` for x < 2 len, without a division (several a block, twice a walk).
#[inline]
fn wrap(x: usize, len: usize) -> usize {
    if x >= len { x - len } else { x }
}

/// The final numbering from the walk's: `zero` becomes 0, and with `down` the numbers run
/// the other way round the cycle.
#[derive(Clone, Copy)]
pub(super) struct Turn {
    pub n: u64,
    pub zero: u64,
    pub down: bool,
}

impl Turn {
    /// Numbers k, k + 1, ... at the offsets `at`, in order.
    #[inline]
    fn put(self, out: &mut [u32], at: &[u32], k: u64) {
        if self.zero == 0 && !self.down {
            for (i, &o) in at.iter().enumerate() {
                out[o as usize] = (k + i as u64) as u32;
            }
        } else {
            for (i, &o) in at.iter().enumerate() {
                out[o as usize] = self.apply(k + i as u64);
            }
        }
    }

    /// Numbers k, k + 1, ... at the offsets `at` read from the end.
    #[inline]
    fn put_rev(self, out: &mut [u32], at: &[u32], k: u64) {
        if self.zero == 0 && !self.down {
            for (i, &o) in at.iter().rev().enumerate() {
                out[o as usize] = (k + i as u64) as u32;
            }
        } else {
            for (i, &o) in at.iter().rev().enumerate() {
                out[o as usize] = self.apply(k + i as u64);
            }
        }
    }

    #[inline]
    fn apply(self, k: u64) -> u32 {
        let v = if k >= self.zero {
            k - self.zero
        } else {
            k + self.n - self.zero
        };
        (if self.down && v != 0 { self.n - v } else { v }) as u32
    }
}

/// A block shape's tour as a cycle: the squares in tour order, each one's position, and
/// each one's offset on the board from the block's top-left square (for the board's width).
pub(super) struct Shape<'a> {
    pub tour: &'a BlockTour,
    pos: Vec<u16>,
    at: Vec<u32>,
}

impl<'a> Shape<'a> {
    /// The shape of `t` on a board `width` squares wide; `t` covers its block.
    pub fn new(t: &'a BlockTour, width: usize) -> Shape<'a> {
        let path = &t.path;
        let mut pos = vec![0u16; path.len()];
        for (q, &l) in path.iter().enumerate() {
            pos[l as usize] = q as u16;
        }
        let at = path
            .iter()
            .map(|&l| ((l as usize / t.w) * width + l as usize % t.w) as u32)
            .collect();
        Shape { tour: t, pos, at }
    }
}

/// Where the walk enters a block: at square `at` with move number `base`, going round the
/// block's cycle away from square `away` (the first block: forwards).
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub at: u16,
    pub away: Option<u16>,
    pub base: u64,
}

/// A join to a child block, seen from the parent: its two squares a1, a2 (adjacent in the
/// parent's cycle), their partners b1, b2 in the child, and the squares of the child's
/// subtree (the walk covers them all between a1 and a2).
pub(super) struct Kid {
    pub a: [u16; 2],
    pub b: [u16; 2],
    pub size: u64,
}

/// The walk through one block: from position `p` in direction `fwd`, numbers from `base`
/// up, jumping by each child's subtree after the child's first square is met (at most two
/// children, by the step `t` at which they are left).
pub(super) struct Plan {
    p: usize,
    fwd: bool,
    base: u64,
    cuts: [(usize, u64); 2],
    ncuts: usize,
    /// Where the walk enters each child: the block on the right, the block below.
    pub kids: [Option<Entry>; 2],
}

impl Plan {
    /// The walk through `shape` entered by `e`, with its children `kids` (the block on the
    /// right, the block below).
    pub fn new(shape: &Shape, e: Entry, kids: &[Option<Kid>; 2]) -> Result<Plan, TourBug> {
        let len = shape.pos.len();
        let p = shape.pos[e.at as usize] as usize;
        let next = wrap(p + 1, len);
        let prev = wrap(p + len - 1, len);
        let fwd = match e.away {
            None => true,
            Some(q) if shape.pos[q as usize] as usize == next => false,
            Some(q) if shape.pos[q as usize] as usize == prev => true,
            Some(_) => return Err(TourBug::JoinNotInTour),
        };
        let dist = |l: u16| {
            let q = shape.pos[l as usize] as usize;
            if fwd {
                wrap(q + len - p, len)
            } else {
                wrap(p + len - q, len)
            }
        };
        let mut cuts = [(usize::MAX, 0u64); 2];
        let mut hit = [(0usize, 0usize); 2];
        let mut ncuts = 0;
        for (k, kid) in kids.iter().enumerate() {
            if let Some(kid) = kid {
                let (t0, t1) = (dist(kid.a[0]), dist(kid.a[1]));
                if t0.abs_diff(t1) != 1 {
                    return Err(TourBug::JoinNotInTour);
                }
                let first = if t0 < t1 { 0 } else { 1 };
                cuts[ncuts] = (t0.min(t1), kid.size);
                hit[ncuts] = (k, first);
                ncuts += 1;
            }
        }
        if ncuts == 2 && cuts[1].0 < cuts[0].0 {
            cuts.swap(0, 1);
            hit.swap(0, 1);
        }
        let mut plan = Plan {
            p,
            fwd,
            base: e.base,
            cuts,
            ncuts,
            kids: [None, None],
        };
        let mut before = 0;
        for c in 0..ncuts {
            let (k, first) = hit[c];
            let kid = kids[k].as_ref().expect("counted above");
            plan.kids[k] = Some(Entry {
                at: kid.b[first],
                away: Some(kid.b[1 - first]),
                base: e.base + cuts[c].0 as u64 + 1 + before,
            });
            before += cuts[c].1;
        }
        Ok(plan)
    }

    /// The walk's number of local square `l`.
    pub fn number(&self, shape: &Shape, l: usize) -> u64 {
        let len = shape.pos.len();
        let q = shape.pos[l] as usize;
        let t = if self.fwd {
            wrap(q + len - self.p, len)
        } else {
            wrap(self.p + len - q, len)
        };
        let jumps: u64 = self.cuts[..self.ncuts]
            .iter()
            .filter(|c| c.0 < t)
            .map(|c| c.1)
            .sum();
        self.base + t as u64 + jumps
    }

    /// Write the block's final numbers into `out` at each square's board offset: runs of
    /// consecutive numbers between the joins (at most three, each split at most once where
    /// the cycle's order wraps), each a tight loop.
    pub fn fill(&self, shape: &Shape, out: &mut [u32], turn: Turn) {
        let len = shape.at.len();
        let (mut k, mut t0) = (self.base, 0);
        for c in 0..=self.ncuts {
            let (t1, jump) = if c < self.ncuts {
                (self.cuts[c].0 + 1, self.cuts[c].1)
            } else {
                (len, 0)
            };
            if self.fwd {
                // Positions p + t0 .. p + t1, wrapping past len.
                let (a, b) = (self.p + t0, self.p + t1);
                let mut done = 0;
                if a < len {
                    turn.put(out, &shape.at[a..b.min(len)], k);
                    done = (b.min(len) - a) as u64;
                }
                if b > len {
                    let from = a.max(len) - len;
                    turn.put(out, &shape.at[from..b - len], k + done);
                }
            } else {
                // Positions p - t0 down to p - t1 + 1, wrapping below 0: as slices read
                // backwards.
                let (hi, lo) = (self.p as isize - t0 as isize, self.p as isize - t1 as isize);
                // The part at 0 and above: lo + 1 ..= hi.
                if hi >= 0 {
                    let from = (lo + 1).max(0) as usize;
                    turn.put_rev(out, &shape.at[from..=hi as usize], k);
                }
                if lo < -1 {
                    // The wrapped part: len + lo + 1 ..= len + min(hi, -1).
                    let top = (len as isize + hi.min(-1)) as usize;
                    let done = (hi - hi.min(-1)) as u64;
                    turn.put_rev(
                        out,
                        &shape.at[(len as isize + lo + 1) as usize..=top],
                        k + done,
                    );
                }
            }
            k += (t1 - t0) as u64 + jump;
            t0 = t1;
        }
    }
}

/// Walk a strip's XOR-linked tour in `x` (each entry the XOR of its two neighbours' indices,
/// all ones for the missing neighbour at an open path's end) from `first`, with `prev`
/// before it, turning each entry into its move number as it is read; then turn the numbers
/// so that `start`, if given, is 0. `Err` when the links end before every square (a bug).
pub(super) fn unlink(
    x: &mut Packed,
    first: u32,
    prev: u32,
    start: Option<usize>,
) -> Result<(), TourBug> {
    let n = x.len();
    let mut cur = first;
    // The builders may say NONE (u32::MAX) for "no predecessor"; in the array it is all ones.
    let mut prev = prev & x.ones();
    for k in 0..n as u32 {
        // A broken build (the path ends early: all ones) is reported instead of a panic.
        if cur as usize >= n {
            return Err(TourBug::TourEndsEarly { at: k, of: n });
        }
        let next = x.replace(cur as usize, k) ^ prev;
        prev = cur;
        cur = next;
    }
    if let Some(s) = start {
        // A closed tour may begin anywhere; an open one on an even board is the closed
        // tour cut before its start.
        let k0 = x.get(s);
        let n = n as u32;
        // An open path from its given start needs no turning (k0 = 0): no pass at all.
        if k0 != 0 {
            x.map_in_place(|v| if v >= k0 { v - k0 } else { v + n - k0 });
        }
    }
    Ok(())
}
