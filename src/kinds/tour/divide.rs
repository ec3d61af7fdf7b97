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
//! A tour is held as one packed entry a square ([`Packed`], b = ceil(log2(n + 1)) bits for n
//! squares): the XOR of its two neighbours' indices (all ones, which is no square's index,
//! stands for the missing neighbour at the ends of an open path). A join is four XORs, and
//! walking the tour needs the previous square only. The walk overwrites each entry with the
//! move number once it has been read, so the result costs no second array: b bits a square
//! in all (10^8 squares: 27 bits, 337 MB, where one `u32` a square took 400 MB).

use crate::board::Packed;

use std::collections::HashMap;

use super::{Existence, Model, NONE};
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
        super::no_unique(task)?;
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
        let part_of = |parts: &[usize], at: usize| {
            let mut end = 0;
            parts
                .iter()
                .position(|&p| {
                    end += p;
                    at < end
                })
                .expect("the parts cover the side")
        };
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
        for (i, &bh) in rows.iter().enumerate() {
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
        let n = w * h;
        let mut x = Packed::new(n, Packed::width_for(n));
        let mut ends = None;
        let mut y0 = 0;
        for (i, &bh) in rows.iter().enumerate() {
            let mut x0 = 0;
            for (j, &bw) in cols.iter().enumerate() {
                let key = key_of(i, j);
                let t = blocks.get(key, run).expect("found above");
                place(&mut x, w, y0, x0, t);
                if key.open {
                    let g = |l: u16| {
                        let (r, c) = (l as usize / bw, l as usize % bw);
                        ((y0 + r) * w + x0 + c) as u32
                    };
                    ends = Some(g(t.ends.expect("open tours have ends").0));
                }
                if j > 0 {
                    // Join with the block to the left; X is its last column.
                    let xx = x0 - 1;
                    let sq = |r: usize, c: usize| (r * w + c) as u32;
                    swap(
                        &mut x,
                        (sq(y0, xx), sq(y0 + 2, xx - 1)),
                        (sq(y0 + 1, xx + 2), sq(y0 + 3, xx + 1)),
                    );
                }
                x0 += bw;
            }
            if i > 0 {
                // Join down the first column; Y is the last row of the block above.
                let yy = y0 - 1;
                let sq = |r: usize, c: usize| (r * w + c) as u32;
                swap(
                    &mut x,
                    (sq(yy, 0), sq(yy - 1, 2)),
                    (sq(yy + 2, 1), sq(yy + 1, 3)),
                );
            }
            y0 += bh;
            if run.nodes(bh as u64 * cols.len() as u64) {
                return Answer::default();
            }
        }
        let (first, prev) = match ends {
            Some(e) => (e, NONE),
            // The top-left corner takes part in no join: its two moves are in the tour.
            None => (0, (2 * w + 1) as u32),
        };
        finish(
            m,
            x,
            first,
            prev,
            format!("{} x {} blocks", rows.len(), cols.len()),
        )
    }
}

/// Walk the XOR-linked tour from `first` (with `prev` before it), turning each entry into
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

/// Remove moves a1-a2 and b1-b2, add a1-b1 and a2-b2.
fn swap(x: &mut Packed, (a1, a2): (u32, u32), (b1, b2): (u32, u32)) {
    x.xor(a1 as usize, a2 ^ b1);
    x.xor(a2 as usize, a1 ^ b2);
    x.xor(b1 as usize, b2 ^ a1);
    x.xor(b2 as usize, b1 ^ a2);
}

/// Write a block tour into the board's XOR array at (y0, x0).
fn place(x: &mut Packed, w: usize, y0: usize, x0: usize, t: &BlockTour) {
    let bw = t.w;
    let delta = |l: u16, from: usize| -> i64 {
        let (r, c) = ((l as usize / bw) as i64, (l as usize % bw) as i64);
        let (fr, fc) = ((from / bw) as i64, (from % bw) as i64);
        (r - fr) * w as i64 + (c - fc)
    };
    for r in 0..t.h {
        let row = (y0 + r) * w + x0;
        for c in 0..bw {
            let l = r * bw + c;
            let g = (row + c) as i64;
            let [p, q] = t.nb[l];
            let gp = if p == u16::MAX {
                NONE
            } else {
                (g + delta(p, l)) as u32
            };
            let gq = if q == u16::MAX {
                NONE
            } else {
                (g + delta(q, l)) as u32
            };
            // NONE ^ index is stored masked: all ones ^ index, as the walk expects.
            x.set(g as usize, gp ^ gq);
        }
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
