//! `divide`: divide and conquer for the knight (after Parberry 1997, who builds closed tours
//! from structured block tours, and Lin and Wei 2005, who extend it to every m x n with
//! both sides at least 5).
//!
//! Boards with a side of 3 or 4 are strips of blocks (strip.rs: 3xn closed and open by
//! joins and splices, 4xn open and 3xn open from a given start by a chain of blocks).
//! Otherwise the board is cut into a grid of blocks whose sides are 6 to 11 (a side of 5
//! to 11 stays whole), with at most one odd side per direction, so every block but one, the
//! odd x odd block of an odd board, has an even number of squares. That block is the
//! bottom-right one, or for an open tour from a given start the one holding the start (the
//! odd parts of both sides laid where the start is). Each block shape gets one tour, found
//! once by a small Warnsdorff search with forced moves: a closed tour, or for the odd x odd
//! block an open path, from the start when one is given, holding the corner moves that its
//! own joins take from it. Blocks are joined along a spanning tree, left to right in each
//! block row and then down the first column, each join swapping two moves:
//!
//! ```text
//!   A's corner square a1 = (0, X) always moves to a2 = (2, X-1) (it has only two moves).
//!   B's tour is asked to hold the move b1 = (1, X+2) -- b2 = (3, X+1).
//!   Remove a1-a2 and b1-b2, add a1-b1 and a2-b2: two cycles (or a cycle and a path)
//!   become one.
//! ```
//!
//! and the same transposed for the vertical joins, with B's move (1, 1) -- (0, 3) in block
//! coordinates. Every join uses a different corner of its blocks, so joins never disturb each
//! other, and the whole construction is one pass over the board. A join of a path and a
//! cycle gives a path with the same two ends, so the board's open path starts where the odd
//! block's does.
//!
//! The joins form a tree of blocks (each block hangs from the block on its left, in the
//! first column from the one above), and the tour is an Euler walk of that tree: it goes
//! round the top-left block's cycle, and where it meets a join's square a1 it goes through
//! the child's whole subtree (b1 round to b2) before it comes back to a2. So a block's move
//! numbers follow from where and with which number its parent enters it, and the subtree
//! sizes are sums of block areas: the blocks are numbered in row order, one band of block
//! rows at a time, each square's number written once, in order, into the packed result
//! ([`Packed`], b = ceil(log2(n + 1)) bits a square: 27 at 10^8 squares, 337 MB). No
//! links are stored and nothing is followed square by square. An odd board's open block
//! counts as a cycle closed by a virtual move from its path's last square to its first (no
//! join touches it); the numbers are then turned so that the path's first square is 0 and
//! run away from its last. A given start of a closed tour (or of an open tour on an even
//! board, the closed tour cut before its start) is turned to 0 the same way.
//!
//! The strips (strip.rs) are held as XOR-linked neighbours in the same packed array (each
//! entry the XOR of its two neighbours' indices, all ones for the missing neighbour at an
//! open path's end) and walked into move numbers in place.

use crate::util::Packed;

use std::collections::HashMap;

use super::exists::Existence;
use super::model::{Model, no_unique};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

pub struct Divide;

/// Smallest side built by blocks on both axes (Lin and Wei's theorem covers both sides at
/// least 5); boards with a side of 3 or 4 are built as strips (strip.rs).
const MIN_SIDE: usize = 5;

/// Whether `divide` builds a tour for this model, or why not. Every full board with both
/// sides at least 3 is taken, open or closed, from any start: where no tour exists the
/// existence rules say so before anything is built.
pub fn supports(m: &Model) -> Result<(), String> {
    if !m.plain_knight {
        return Err("builds knight's tours on boards without holes only".into());
    }
    let (w, h) = (m.board.width, m.board.height);
    if w.min(h) < 3 {
        return Err(format!(
            "builds boards with both sides at least 3; {w}x{h} has no knight's tour beyond 1x1"
        ));
    }
    Ok(())
}

impl Strategy<Model> for Divide {
    fn name(&self) -> &'static str {
        "divide"
    }
    fn about(&self) -> &'static str {
        "divide and conquer: block tours joined at their corners, chained along 3xn and 4xn strips; linear time, log2(squares) bits a square"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        no_unique(task)?;
        if task.goal != Goal::First {
            return Err("builds one tour (goal first)".into());
        }
        supports(m)
    }
    fn solve(&self, m: &Model, _task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        let (w, h) = (m.board.width, m.board.height);
        if w.min(h) < MIN_SIDE {
            let chain = w.min(h) == 4 || (!m.closed && m.start.is_some());
            let built = if chain {
                super::strip::chain(w, h, m.start, run)
            } else {
                super::strip::build(w, h, m.closed, run)
            };
            return match built {
                Ok(Some((x, first, prev))) => {
                    let shape = if chain {
                        format!("a chain of blocks {} high", w.min(h))
                    } else {
                        "1 strip".into()
                    };
                    finish(m, x, first, prev, shape)
                }
                Ok(None) => Answer::default(),
                Err(e) => Answer::none_because(format!("{e} (a bug)")),
            };
        }
        let open_block = (w * h) % 2 == 1;
        // An open tour from a given start on an odd board: the odd x odd block (the only
        // one holding an open path) is laid where the start is, and its path starts there.
        // Joining a path to a cycle leaves the path's ends, so the board's path does too.
        let given = m.start.filter(|_| open_block && !m.closed);
        let (cols, rows) = match given {
            Some(s) => (split_at(w, s % w), split_at(h, s / w)),
            None => (split(w), split(h)),
        };
        let part_of = super::strip::part_of;
        let (oi, oj) = match given {
            Some(s) => (part_of(&rows, s / w), part_of(&cols, s % w)),
            None => (rows.len() - 1, cols.len() - 1),
        };
        let local_start = given.map(|s| {
            let (r, c) = (s / w, s % w);
            let r0: usize = rows[..oi].iter().sum();
            let c0: usize = cols[..oj].iter().sum();
            ((r - r0) * cols[oj] + (c - c0)) as u16
        });
        let mut blocks = Blocks::default();
        // Block (i, j) joins the block on its left, or in the first column the one above.
        // The open block also gives the corner moves the joins take from it (a closed
        // tour holds them anyway: a corner has only two moves).
        let key_of = |i: usize, j: usize| {
            let open = open_block && i == oi && j == oj;
            Key {
                w: cols[j],
                h: rows[i],
                open,
                start: if open { local_start } else { None },
                right: open && j + 1 < cols.len(),
                below: open && j == 0 && i + 1 < rows.len(),
                join: if j > 0 {
                    Join::Left
                } else if i > 0 {
                    Join::Above
                } else {
                    Join::None
                },
            }
        };
        // Every block shape's tour first, so a shape with none is known before the board
        // is touched.
        // Rows of one kind (see `key_row`) hold the same shapes.
        let key_row = |i: usize| (rows[i], i == oi, i > 0, i + 1 < rows.len());
        let mut kinds = Vec::new();
        for (i, &bh) in rows.iter().enumerate() {
            if kinds.contains(&key_row(i)) {
                continue;
            }
            kinds.push(key_row(i));
            for (j, &bw) in cols.iter().enumerate() {
                let key = key_of(i, j);
                if blocks.get(key, run).is_none() {
                    if run.is_stopped() {
                        return Answer::default();
                    }
                    return Answer::none_because(format!(
                        "no block tour of shape {bw}x{bh} with the joining move was found (a bug)"
                    ));
                }
            }
        }
        let grid = match Grid::new(w, h, &rows, &cols, key_row, |i, j| {
            blocks.found[&key_of(i, j)].as_ref().expect("found above")
        }) {
            Ok(g) => g,
            Err(e) => return Answer::none_because(e),
        };
        // The squares that set the final numbering: the open block's path ends, or where
        // the tour is to start (else the top-left corner, which the walk numbers 0).
        let open_ends = open_block.then(|| {
            let t = grid.tour(oi, oj);
            let (s, e) = t.ends.expect("open tours have ends");
            (grid.square(oi, oj, s), grid.square(oi, oj, e))
        });
        let targets = match open_ends {
            Some((s, e)) => [s, e],
            None => [m.start.unwrap_or(0); 2],
        };
        // The top-left corner is where the walk starts, with 0: no first walk to find it.
        let mut found = [0u64; 2];
        if targets != [0, 0] {
            let mut left = 2;
            let walked = grid.walk(|i, j, plan, shape| {
                for (&t, f) in targets.iter().zip(found.iter_mut()) {
                    if let Some(l) = grid.local(i, j, t) {
                        *f = plan.number(shape, l);
                        left -= 1;
                    }
                }
                left > 0
            });
            if let Err(e) = walked {
                return Answer::none_because(e);
            }
        }
        let n = (w * h) as u64;
        // The walk numbers the tour as a cycle; the open block's path counts as closed by a
        // virtual move from its last square back to its first, which no join touches. Turn
        // the numbers so that the start (the path's first square, or the given start) is 0,
        // and on an odd board run them away from the path's last square.
        let zero = found[0];
        let down = open_ends.is_some() && (found[0] + 1) % n == found[1];
        let turn = Turn { n, zero, down };
        let mut x = Packed::new(w * h, Packed::width_for(w * h));
        // One band of block rows at a time: the blocks fill it, then it is packed in order.
        let mut band = vec![0u32; rows.iter().max().copied().unwrap_or(0) * w];
        let mut stopped = false;
        let walked = grid.walk(|i, j, plan, shape| {
            plan.fill(shape, &mut band[grid.x0[j]..], turn);
            if j + 1 == cols.len() {
                let bh = rows[i];
                x.put_run(grid.y0[i] * w, &band[..bh * w]);
                if run.nodes(bh as u64 * cols.len() as u64) {
                    stopped = true;
                    return false;
                }
            }
            true
        });
        if let Err(e) = walked {
            return Answer::none_because(e);
        }
        if stopped {
            return Answer::default();
        }
        let mut a = Answer::count(1);
        a.compact = Some(x);
        let shape = format!("{} x {} blocks", rows.len(), cols.len());
        a.notes.push(match m.existence {
            Existence::Exists(why) => format!("{shape}; exists by {why}"),
            _ => shape,
        });
        a
    }
}

/// Walk a strip's XOR-linked tour from `first` (with `prev` before it), turning each entry into
/// its move number as it is read; start it at the given square; the answer.
fn finish(m: &Model, mut x: Packed, first: u32, prev: u32, shape: String) -> Answer {
    let n = x.len();
    let mut cur = first;
    // The builders may say NONE (u32::MAX) for "no predecessor"; in the array it is all ones.
    let mut prev = prev & x.ones();
    for k in 0..n as u32 {
        // A broken build (the path ends early: all ones) is reported instead of a panic.
        if cur as usize >= n {
            return Answer::none_because(format!(
                "the built tour ends after {k} of {n} squares (a bug)"
            ));
        }
        let next = x.replace(cur as usize, k) ^ prev;
        prev = cur;
        cur = next;
    }
    if let Some(s) = m.start {
        // A closed tour may begin anywhere; an open one on an even board is the closed
        // tour cut before its start.
        let k0 = x.get(s);
        let n = n as u32;
        // An open path from its given start needs no turning (k0 = 0): no pass at all.
        if k0 != 0 {
            x.map_in_place(|v| if v >= k0 { v - k0 } else { v + n - k0 });
        }
    }
    let mut a = Answer::count(1);
    a.compact = Some(x);
    a.notes.push(match m.existence {
        Existence::Exists(why) => format!("{shape}; exists by {why}"),
        _ => shape,
    });
    a
}

/// Block sides for one board side: 5 to 11 stay whole; beyond, eights and a remainder of
/// two blocks, the odd one (if any) last.
fn split(n: usize) -> Vec<usize> {
    if n <= 11 {
        return vec![n];
    }
    let mut parts = Vec::new();
    let mut rem = n;
    while rem >= 20 {
        parts.push(8);
        rem -= 8;
    }
    parts.extend_from_slice(match rem {
        12 => &[6, 6],
        13 => &[6, 7],
        14 => &[6, 8],
        15 => &[8, 7],
        16 => &[8, 8],
        17 => &[8, 9],
        18 => &[8, 10],
        _ => &[8, 11],
    });
    parts
}

/// Block sides for one odd board side such that the one odd block covers `at`: the odd
/// part (7, 9 or 11) where `at` falls, even parts of 6 to 10 around it. Sides up to 11
/// stay whole.
fn split_at(n: usize, at: usize) -> Vec<usize> {
    if n <= 11 {
        return vec![n];
    }
    // An even length as parts of 6 to 10 (0: none; 2 and 4 cannot be cut).
    let evens = |mut e: usize| -> Option<Vec<usize>> {
        if e == 2 || e == 4 {
            return None;
        }
        let mut parts = Vec::new();
        while e >= 20 {
            parts.push(8);
            e -= 8;
        }
        parts.extend_from_slice(match e {
            0 => &[],
            6 => &[6],
            8 => &[8],
            10 => &[10],
            12 => &[6, 6],
            14 => &[6, 8],
            16 => &[8, 8],
            _ => &[8, 10],
        });
        Some(parts)
    };
    for odd in [7, 9, 11] {
        for before in (at.saturating_sub(odd - 1)..=at).filter(|p| p % 2 == 0) {
            if before + odd > n {
                continue;
            }
            if let (Some(mut parts), Some(after)) = (evens(before), evens(n - before - odd)) {
                parts.push(odd);
                parts.extend(after);
                return parts;
            }
        }
    }
    unreachable!("every odd side from 13 has a layout for every square (tested)")
}

/// `x` mod `len` for x < 2 len, without a division (several a block, twice a walk).
#[inline]
fn wrap(x: usize, len: usize) -> usize {
    if x >= len { x - len } else { x }
}

/// The final numbering from the walk's: `zero` becomes 0, and with `down` the numbers run
/// the other way round the cycle.
#[derive(Clone, Copy)]
struct Turn {
    n: u64,
    zero: u64,
    down: bool,
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
struct Shape<'a> {
    tour: &'a BlockTour,
    pos: Vec<u16>,
    at: Vec<u32>,
}

/// Where the walk enters a block: at square `at` with move number `base`, going round the
/// block's cycle away from square `away` (the first block: forwards).
#[derive(Clone, Copy)]
struct Entry {
    at: u16,
    away: Option<u16>,
    base: u64,
}

/// A join to a child block, seen from the parent: its two squares a1, a2 (adjacent in the
/// parent's cycle), their partners b1, b2 in the child, and the squares of the child's
/// subtree (the walk covers them all between a1 and a2).
struct Kid {
    a: [u16; 2],
    b: [u16; 2],
    size: u64,
}

/// The walk through one block: from position `p` in direction `fwd`, numbers from `base`
/// up, jumping by each child's subtree after the child's first square is met (at most two
/// children, by the step `t` at which they are left).
struct Plan {
    p: usize,
    fwd: bool,
    base: u64,
    cuts: [(usize, u64); 2],
    ncuts: usize,
    kids: [Option<Entry>; 2],
}

impl Plan {
    fn new(shape: &Shape, e: Entry, kids: &[Option<Kid>; 2]) -> Result<Plan, String> {
        let len = shape.pos.len();
        let p = shape.pos[e.at as usize] as usize;
        let next = wrap(p + 1, len);
        let prev = wrap(p + len - 1, len);
        let fwd = match e.away {
            None => true,
            Some(q) if shape.pos[q as usize] as usize == next => false,
            Some(q) if shape.pos[q as usize] as usize == prev => true,
            Some(_) => return Err("a join's move is not in its block's tour (a bug)".into()),
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
                    return Err("a join's move is not in its block's tour (a bug)".into());
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
    fn number(&self, shape: &Shape, l: usize) -> u64 {
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
    fn fill(&self, shape: &Shape, out: &mut [u32], turn: Turn) {
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

/// The grid of blocks and their tours. The joins form a tree: each block hangs from the
/// block on its left, or in the first column from the one above. The tour goes round the
/// top-left block's cycle and, at each join, through the child's whole subtree before it
/// comes back over the join's second move; so a block's numbers follow from where its
/// parent enters it, and the blocks can be numbered in row order with nothing per block
/// kept, and each square written once.
struct Grid<'a> {
    w: usize,
    h: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    y0: Vec<usize>,
    x0: Vec<usize>,
    shapes: Vec<Shape<'a>>,
    /// Shape indices of each block row's blocks, shared by rows of one kind.
    row_shapes: Vec<Vec<usize>>,
    row_of: Vec<usize>,
}

impl<'a> Grid<'a> {
    fn new<K: PartialEq>(
        w: usize,
        h: usize,
        rows: &[usize],
        cols: &[usize],
        row_kind: impl Fn(usize) -> K,
        tour_of: impl Fn(usize, usize) -> &'a BlockTour,
    ) -> Result<Grid<'a>, String> {
        let prefix = |v: &[usize]| -> Vec<usize> {
            let mut s = vec![0];
            for &x in v {
                s.push(s.last().expect("non-empty") + x);
            }
            s
        };
        let mut shapes: Vec<Shape<'a>> = Vec::new();
        let mut kinds: Vec<K> = Vec::new();
        let mut row_shapes: Vec<Vec<usize>> = Vec::new();
        let mut row_of = Vec::with_capacity(rows.len());
        for i in 0..rows.len() {
            let kind = row_kind(i);
            if let Some(r) = kinds.iter().position(|k| *k == kind) {
                row_of.push(r);
                continue;
            }
            let mut ids = Vec::with_capacity(cols.len());
            for j in 0..cols.len() {
                let t = tour_of(i, j);
                let id = match shapes.iter().position(|s| std::ptr::eq(s.tour, t)) {
                    Some(id) => id,
                    None => {
                        let path = &t.path;
                        if path.len() != t.w * t.h {
                            return Err("a block tour misses squares (a bug)".into());
                        }
                        let mut pos = vec![0u16; path.len()];
                        for (q, &l) in path.iter().enumerate() {
                            pos[l as usize] = q as u16;
                        }
                        let at = path
                            .iter()
                            .map(|&l| ((l as usize / t.w) * w + l as usize % t.w) as u32)
                            .collect();
                        shapes.push(Shape { tour: t, pos, at });
                        shapes.len() - 1
                    }
                };
                ids.push(id);
            }
            kinds.push(kind);
            row_shapes.push(ids);
            row_of.push(row_shapes.len() - 1);
        }
        Ok(Grid {
            w,
            h,
            rows: rows.to_vec(),
            cols: cols.to_vec(),
            y0: prefix(rows),
            x0: prefix(cols),
            shapes,
            row_shapes,
            row_of,
        })
    }

    fn shape(&self, i: usize, j: usize) -> &Shape<'a> {
        &self.shapes[self.row_shapes[self.row_of[i]][j]]
    }

    fn tour(&self, i: usize, j: usize) -> &BlockTour {
        self.shape(i, j).tour
    }

    /// Board square of local square `l` of block (i, j).
    fn square(&self, i: usize, j: usize, l: u16) -> usize {
        let bw = self.cols[j];
        (self.y0[i] + l as usize / bw) * self.w + self.x0[j] + l as usize % bw
    }

    /// Local square of board square `s` if it lies in block (i, j).
    fn local(&self, i: usize, j: usize, s: usize) -> Option<usize> {
        let (r, c) = (s / self.w, s % self.w);
        let (y, x) = (self.y0[i], self.x0[j]);
        (r >= y && r < self.y0[i + 1] && c >= x && c < self.x0[j + 1])
            .then(|| (r - y) * self.cols[j] + c - x)
    }

    /// Every block in row order with its plan; `visit` returns false to stop.
    fn walk(
        &self,
        mut visit: impl FnMut(usize, usize, &Plan, &Shape<'a>) -> bool,
    ) -> Result<(), String> {
        let (nr, nc) = (self.rows.len(), self.cols.len());
        let mut down: Option<Entry> = None;
        for i in 0..nr {
            let mut right: Option<Entry> = None;
            for j in 0..nc {
                let (bw, bh) = (self.cols[j], self.rows[i]);
                let e = if i == 0 && j == 0 {
                    // The top-left square takes part in no join: the walk starts there.
                    Entry {
                        at: 0,
                        away: None,
                        base: 0,
                    }
                } else if j > 0 {
                    right.take().expect("set by the left block")
                } else {
                    down.take().expect("set by the block above")
                };
                let l = |r: usize, c: usize, bw: usize| (r * bw + c) as u16;
                // The block on the right joins (0, X) - (2, X-1) here to its
                // (1, 1) - (3, 0); the block below (first column) joins (Y, 0) - (Y-1, 2)
                // here to its (1, 1) - (0, 3).
                let kids = [
                    (j + 1 < nc).then(|| {
                        let rw = self.cols[j + 1];
                        Kid {
                            a: [l(0, bw - 1, bw), l(2, bw - 2, bw)],
                            b: [l(1, 1, rw), l(3, 0, rw)],
                            size: (bh * (self.w - self.x0[j + 1])) as u64,
                        }
                    }),
                    (j == 0 && i + 1 < nr).then(|| Kid {
                        a: [l(bh - 1, 0, bw), l(bh - 2, 2, bw)],
                        b: [l(1, 1, bw), l(0, 3, bw)],
                        size: ((self.h - self.y0[i + 1]) * self.w) as u64,
                    }),
                ];
                let shape = self.shape(i, j);
                let plan = Plan::new(shape, e, &kids)?;
                right = plan.kids[0];
                if j == 0 {
                    down = plan.kids[1];
                }
                if !visit(i, j, &plan, shape) {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// Which joining move a block's tour must hold in its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Join {
    None,
    /// Joined to the block on its left: (1, 1) -- (3, 0).
    Left,
    /// Joined to the block above: (1, 1) -- (0, 3).
    Above,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    w: usize,
    h: usize,
    open: bool,
    /// The open path's first square, when the board's start is given.
    start: Option<u16>,
    /// The open block has a block on its right: its path must hold (0, X) -- (2, X-1).
    right: bool,
    /// The open block is in the first column with a block below: its path must hold
    /// (Y, 0) -- (Y-1, 2).
    below: bool,
    join: Join,
}

/// A tour of one block: both tour neighbours of each square (`u16::MAX` at an open end).
pub(super) struct BlockTour {
    pub w: usize,
    pub h: usize,
    pub nb: Vec<[u16; 2]>,
    pub ends: Option<(u16, u16)>,
    /// The squares in tour order (an open path from its first square).
    pub path: Vec<u16>,
}

impl BlockTour {
    /// From a path in visiting order; closed unless `open`.
    pub fn from_path(w: usize, h: usize, path: &[u16], open: bool) -> BlockTour {
        let n = path.len();
        let mut nb = vec![[u16::MAX; 2]; n];
        for (i, &s) in path.iter().enumerate() {
            let prev = if i > 0 {
                path[i - 1]
            } else if open {
                u16::MAX
            } else {
                path[n - 1]
            };
            let next = if i + 1 < n {
                path[i + 1]
            } else if open {
                u16::MAX
            } else {
                path[0]
            };
            nb[s as usize] = [prev, next];
        }
        BlockTour {
            w,
            h,
            nb,
            ends: open.then(|| (path[0], path[n - 1])),
            path: path.to_vec(),
        }
    }
}

#[derive(Default)]
struct Blocks {
    found: HashMap<Key, Option<BlockTour>>,
}

impl Blocks {
    fn get(&mut self, key: Key, run: &mut Run) -> Option<&BlockTour> {
        self.found
            .entry(key)
            .or_insert_with(|| block_tour(key, run))
            .as_ref()
    }
}

/// Find a block tour by Warnsdorff's rule with random tie-breaks and a bounded
/// backtracking search per attempt, the joining move forced.
fn block_tour(key: Key, run: &mut Run) -> Option<BlockTour> {
    let (w, h) = (key.w, key.h);
    let n = w * h;
    let idx = |r: usize, c: usize| r * w + c;
    let mut adj: Vec<Vec<u16>> = vec![Vec::new(); n];
    for r in 0..h {
        for c in 0..w {
            for (dr, dc) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                if r2 >= 0 && c2 >= 0 && (r2 as usize) < h && (c2 as usize) < w {
                    adj[idx(r, c)].push(idx(r2 as usize, c2 as usize) as u16);
                }
            }
        }
    }
    let mut forced: Vec<Vec<u16>> = vec![Vec::new(); n];
    let forced_move = match key.join {
        Join::None => None,
        Join::Left => Some((idx(1, 1), idx(3, 0))),
        Join::Above => Some((idx(1, 1), idx(0, 3))),
    };
    let corner_right = key.right.then(|| (idx(0, w - 1), idx(2, w - 2)));
    let corner_below = key.below.then(|| (idx(h - 1, 0), idx(h - 2, 2)));
    for (a, b) in [forced_move, corner_right, corner_below]
        .into_iter()
        .flatten()
    {
        if a >= n || b >= n {
            return None;
        }
        forced[a].push(b as u16);
        forced[b].push(a as u16);
    }
    let starts: Vec<usize> = if let Some(s) = key.start {
        vec![s as usize]
    } else if key.open {
        // The odd block's path ends on the corners' colour.
        (0..n).filter(|&s| (s / w + s % w) % 2 == 0).collect()
    } else {
        vec![0]
    };
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d ^ (w as u64) << 32 ^ (h as u64) << 16;
    for attempt in 0..400 {
        let start = starts[attempt % starts.len()];
        if let Some(path) = attempt_path(
            &adj,
            &forced,
            (start, None),
            !key.open,
            &mut rng,
            run,
            ATTEMPT_BUDGET,
        ) {
            return Some(BlockTour::from_path(w, h, &path, key.open));
        }
        if run.is_stopped() {
            return None;
        }
    }
    None
}

/// Moves tried per attempt before it gives up and the next one starts with other ties.
pub(super) const ATTEMPT_BUDGET: u32 = 20_000;

/// One depth-first attempt with a node budget: Warnsdorff order, random ties, forced moves
/// taken as soon as they can be.
pub(super) fn attempt_path(
    adj: &[Vec<u16>],
    forced: &[Vec<u16>],
    (start, end): (usize, Option<usize>),
    closed: bool,
    rng: &mut u64,
    run: &mut Run,
    budget: u32,
) -> Option<Vec<u16>> {
    let n = adj.len();
    let mut visited = vec![false; n];
    let mut deg: Vec<u8> = adj.iter().map(|a| a.len() as u8).collect();
    let mut noise: Vec<u32> = vec![0; n];
    for v in noise.iter_mut() {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *v = *rng as u32;
    }
    if !closed && forced[start].len() > 1 {
        return None;
    }
    let mut path: Vec<u16> = vec![start as u16];
    let mut stack: Vec<(Vec<u16>, usize)> = Vec::new();
    let visit = |v: usize, visited: &mut Vec<bool>, deg: &mut Vec<u8>| {
        visited[v] = true;
        for &u in &adj[v] {
            deg[u as usize] -= 1;
        }
    };
    let unvisit = |v: usize, visited: &mut Vec<bool>, deg: &mut Vec<u8>| {
        visited[v] = false;
        for &u in &adj[v] {
            deg[u as usize] += 1;
        }
    };
    visit(start, &mut visited, &mut deg);
    let candidates = |cur: usize, path: &[u16], visited: &[bool], deg: &[u8]| -> Vec<u16> {
        // A forced partner not yet visited must come next.
        let prev = if path.len() >= 2 {
            Some(path[path.len() - 2])
        } else {
            None
        };
        let pending: Vec<u16> = forced[cur]
            .iter()
            .copied()
            .filter(|&f| Some(f) != prev && !visited[f as usize])
            .collect();
        if pending.len() > 1 && !(closed && path.len() == 1) {
            return Vec::new();
        }
        // A forced partner already visited (and not the previous square) is lost, unless
        // it is the start of a closed tour, to be met at the end.
        let lost = forced[cur].iter().any(|&f| {
            Some(f) != prev && visited[f as usize] && !(closed && f as usize == path[0] as usize)
        });
        if lost {
            return Vec::new();
        }
        let mut c: Vec<u16> = if pending.is_empty() {
            adj[cur]
                .iter()
                .copied()
                .filter(|&u| !visited[u as usize])
                .collect()
        } else {
            vec![pending[0]]
        };
        c.sort_by_key(|&u| (deg[u as usize], noise[u as usize]));
        c
    };
    stack.push((candidates(start, &path, &visited, &deg), 0));
    let mut budget = budget;
    while let Some((cands, next)) = stack.last_mut() {
        if *next == cands.len() {
            stack.pop();
            if path.len() == 1 {
                return None;
            }
            let v = path.pop().expect("path") as usize;
            unvisit(v, &mut visited, &mut deg);
            continue;
        }
        let v = cands[*next] as usize;
        *next += 1;
        budget -= 1;
        if budget == 0 || run.node() {
            return None;
        }
        let cur = *path.last().expect("path") as usize;
        visit(v, &mut visited, &mut deg);
        path.push(v as u16);
        if path.len() < n && end == Some(v) {
            path.pop();
            unvisit(v, &mut visited, &mut deg);
            continue;
        }
        if path.len() == n {
            let ok_end =
                (!closed || adj[v].contains(&(start as u16))) && end.is_none_or(|e| e == v);
            let ok_forced = forced[v]
                .iter()
                .all(|&f| f as usize == cur || (closed && f as usize == start))
                && (!closed
                    || forced[start]
                        .iter()
                        .all(|&f| f == path[1] || f as usize == v));
            if ok_end && ok_forced {
                return Some(path);
            }
            path.pop();
            unvisit(v, &mut visited, &mut deg);
            continue;
        }
        let dead = adj[cur].iter().any(|&u| {
            let u = u as usize;
            !visited[u] && deg[u] == 0 && !adj[v].contains(&(u as u16))
        }) || (closed && deg[start] == 0);
        let c = if dead {
            Vec::new()
        } else {
            candidates(v, &path, &visited, &deg)
        };
        if c.is_empty() {
            path.pop();
            unvisit(v, &mut visited, &mut deg);
            continue;
        }
        stack.push((c, 0));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed tour from `divide` passes the model's check, and the check catches a
    /// numbering broken in the packed array: two numbers swapped, a square left as the
    /// sentinel, an array too narrow for the board.
    #[test]
    fn packed_tours_are_checked() {
        use crate::engine::{Limits, Run};
        use crate::spec::{Overrides, Spec};
        let boards = [
            "size = 10\n[rules]\nclosed = true",
            "size = 9\n[rules]\nclosed = false\nstart = [4, 4]",
            "width = 30\nheight = 3\n[rules]\nclosed = true",
            "width = 7\nheight = 4\n[rules]\nclosed = false",
            "width = 12\nheight = 14\n[rules]\nclosed = true\nstart = [5, 7]",
            // Several block rows and columns: the odd block last, or laid around the start.
            "width = 29\nheight = 21\n[rules]\nclosed = false",
            "width = 29\nheight = 21\n[rules]\nclosed = false\nstart = [10, 14]",
            "width = 31\nheight = 33\n[rules]\nclosed = false\nstart = [0, 0]",
            "width = 34\nheight = 28\n[rules]\nclosed = false\nstart = [27, 33]",
            "width = 34\nheight = 28\n[rules]\nclosed = true\nstart = [13, 2]",
        ];
        for b in boards {
            let text = format!("kind = \"tour\"\n[board]\n{b}\n");
            let spec = Spec::parse("t.toml", &text, &Overrides::default()).unwrap();
            let m = Model::compile(&spec).unwrap();
            let mut run = Run::new(Limits::default());
            let x = Divide
                .solve(&m, &Task::default(), &mut run)
                .compact
                .expect(b);
            assert_eq!(x.bits(), Packed::width_for(x.len()), "{b}");
            m.check_numbers(&x).expect(b);
            let mut bad = x.clone();
            let (k1, k2) = (bad.get(3), bad.get(17));
            bad.set(3, k2);
            bad.set(17, k1);
            assert!(m.check_numbers(&bad).is_err(), "{b}: swapped");
            let mut bad = x.clone();
            bad.set(5, u32::MAX);
            assert!(m.check_numbers(&bad).is_err(), "{b}: sentinel");
            let narrow = Packed::from_slice(&x.iter().collect::<Vec<_>>(), x.bits() - 1);
            assert!(m.check_numbers(&narrow).is_err(), "{b}: narrow");
        }
    }

    #[test]
    fn odd_splits_put_the_odd_part_on_the_square() {
        for n in (13..300).step_by(2) {
            for at in 0..n {
                let p = split_at(n, at);
                assert_eq!(p.iter().sum::<usize>(), n);
                assert!(p.iter().all(|&s| (6..=11).contains(&s)), "{n}: {p:?}");
                let odd: Vec<usize> = (0..p.len()).filter(|&i| p[i] % 2 == 1).collect();
                assert_eq!(odd.len(), 1, "{n}: {p:?}");
                let before: usize = p[..odd[0]].iter().sum();
                assert!(before <= at && at < before + p[odd[0]], "{n} {at}: {p:?}");
            }
        }
    }

    #[test]
    fn splits_keep_parity_and_range() {
        for n in 5..200 {
            let p = split(n);
            assert_eq!(p.iter().sum::<usize>(), n);
            assert!(p.iter().all(|&s| (5..=11).contains(&s)), "{n}: {p:?}");
            let odd: Vec<usize> = p.iter().copied().filter(|s| s % 2 == 1).collect();
            assert!(odd.len() <= 1, "{n}: {p:?}");
            if let Some(&o) = odd.first() {
                assert_eq!(*p.last().unwrap(), o, "{n}: odd part last");
            }
            if p.len() > 1 {
                assert!(p.iter().all(|&s| s >= 6), "{n}: {p:?}");
            }
        }
    }
}
