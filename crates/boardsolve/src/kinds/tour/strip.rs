//! Thin boards for `divide`: a side of 3 or 4, laid as a strip of blocks along the long
//! side. This file holds what every strip shares and the joined strips of [`build`]; open
//! tours on 4xn, and open tours from a given start, are chains of blocks (chain.rs).
//!
//! `build`: 3xn closed (even n >= 10) and 3xn open from a start it chooses (n >= 7, and
//! 3x4). The board is a strip of blocks along its long side: a first block of 12 to 23
//! squares (10 to 19 for closed tours) and then blocks of 12 (10). Closed blocks are joined
//! as on wide boards, by a two-move swap across the boundary. An open block B is spliced
//! into the path so far: remove a move a1-a2 of the block on its left, add a1-(B's first
//! square) and (B's last square)-a2. The joining pattern (which move, which ends) is found
//! by enumerating the few candidates near a boundary and keeping the first for which the
//! block tours exist; every join then uses it, so only three block tours are searched
//! whatever the length.
//!
//! Either way the tour is built as XOR-linked neighbours in the packed array that then
//! holds the move numbers (each entry the XOR of its two neighbours' indices, all ones for
//! the missing neighbour at an open path's end); `divide` walks it into move numbers in
//! place.

use super::blocks::{ATTEMPT_BUDGET, BlockTour, attempt_path};
use super::graph::NONE;
use super::vocab::TourBug;
use crate::engine::Run;
use crate::util::Packed;

/// Squares in strip coordinates: (row across the strip, column along it).
pub(super) type Sq = (usize, usize);

#[derive(Clone, Copy, Debug)]
struct Pattern {
    /// The move taken out of the left block, columns counted back from its right edge
    /// (1 = last column).
    a: (Sq, Sq),
    /// Closed: the move taken out of the right block; open: its first and last squares.
    b: (Sq, Sq),
}

fn knight(p: Sq, q: Sq) -> bool {
    let dr = p.0.abs_diff(q.0);
    let dc = p.1.abs_diff(q.1);
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

/// Candidate joins near a boundary in a strip `rows` high.
fn patterns(rows: usize) -> Vec<Pattern> {
    // A's squares as (row, back) with back 1..=3 columns from its right edge; B's as
    // (row, col) with col 0..=2. Across the boundary the column distance is back + col.
    let sq: Vec<Sq> = (0..rows)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .collect();
    let across = |a: Sq, b: Sq| {
        let dr = a.0.abs_diff(b.0);
        let dc = a.1 + 1 + b.1;
        (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
    };
    let mut out = Vec::new();
    for &a1 in &sq {
        for &a2 in &sq {
            if !(knight(a1, a2) && a1 < a2) {
                continue;
            }
            for &b1 in &sq {
                for &b2 in &sq {
                    if b1 != b2 && across(a1, b1) && across(a2, b2) {
                        out.push(Pattern {
                            a: (a1, a2),
                            b: (b1, b2),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The knight's moves inside a `rows` x `len` block, by local square index.
pub(super) fn block_moves(rows: usize, len: usize) -> Vec<Vec<u16>> {
    let n = rows * len;
    (0..n)
        .map(|a| {
            (0..n)
                .filter(|&b| knight((a / len, a % len), (b / len, b % len)))
                .map(|b| b as u16)
                .collect()
        })
        .collect()
}

/// Attempts per block, each from another start with other ties, before the joining pattern
/// is given up: several patterns are tried, so one without block tours must fail fast.
const STRIP_ATTEMPTS: usize = 300;

/// Find a tour of a `rows` x `len` block (rows across, len along): closed, or an open path;
/// `left`: the pattern joining it to the block on its left, `right`: to the one on its right.
fn block(
    rows: usize,
    len: usize,
    closed: bool,
    left: Option<Pattern>,
    right: Option<Pattern>,
    run: &mut Run,
) -> Option<BlockTour> {
    let n = rows * len;
    let idx = |(r, c): Sq| r * len + c;
    let adj = block_moves(rows, len);
    let mut forced: Vec<Vec<u16>> = vec![Vec::new(); n];
    let force = |p: usize, q: usize, forced: &mut Vec<Vec<u16>>| {
        forced[p].push(q as u16);
        forced[q].push(p as u16);
    };
    if let Some(p) = right {
        let from_right = |(r, back): Sq| idx((r, len - 1 - back));
        force(from_right(p.a.0), from_right(p.a.1), &mut forced);
    }
    let (mut start, mut end) = (None, None);
    if let Some(p) = left {
        if closed {
            force(idx(p.b.0), idx(p.b.1), &mut forced);
        } else {
            start = Some(idx(p.b.0));
            end = Some(idx(p.b.1));
        }
    }
    if forced.iter().any(|f| f.len() > 2) {
        return None;
    }
    let starts: Vec<usize> = match start {
        Some(s) => vec![s],
        None if closed => vec![0],
        None => (0..n).collect(),
    };
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d ^ ((rows as u64) << 40) ^ ((len as u64) << 8);
    for attempt in 0..STRIP_ATTEMPTS {
        let s = starts[(attempt * 7) % starts.len()];
        if let Some(path) = attempt_path(
            &adj,
            &forced,
            (s, end),
            closed,
            &mut rng,
            run,
            ATTEMPT_BUDGET,
        ) {
            return Some(BlockTour::from_path(len, rows, &path, !closed));
        }
        if run.is_stopped() {
            return None;
        }
    }
    None
}

/// Block lengths along a strip: one first block of `base` to 2 * base - 1, then `base`s.
pub(super) fn split(len: usize, base: usize) -> Vec<usize> {
    if len < 2 * base {
        return vec![len];
    }
    let k = len / base - 1;
    let mut parts = vec![len - k * base];
    parts.extend(std::iter::repeat_n(base, k));
    parts
}

/// A strip is laid along its longer side: whether that is horizontal, its rows, its length.
pub(super) fn strip_shape(width: usize, height: usize) -> (bool, usize, usize) {
    if height <= width {
        (true, height, width)
    } else {
        (false, width, height)
    }
}

/// The part of `parts` (lengths laid end to end) that position `at` falls in.
pub(super) fn part_of(parts: &[usize], at: usize) -> usize {
    let mut end = 0;
    parts
        .iter()
        .position(|&p| {
            end += p;
            at < end
        })
        .expect("the parts cover the side")
}

/// The strip's tour as XOR-linked neighbours over board squares, in `x` (zeroed, a value a
/// square), and the square to walk from with its predecessor. `Err` when no joining pattern
/// works (a bug); `Ok(None)` when the run was stopped.
pub fn build(
    width: usize,
    height: usize,
    closed: bool,
    mut x: Packed,
    run: &mut Run,
) -> Result<Option<(Packed, u32, u32)>, TourBug> {
    let (horizontal, rows, len) = strip_shape(width, height);
    let g = |(r, c): Sq| -> u32 {
        if horizontal {
            (r * width + c) as u32
        } else {
            (c * width + r) as u32
        }
    };
    // With these block lengths every strip length finds its block tours (3-row closed
    // blocks of 14 would not: 3x26 fails).
    let base = if closed { 10 } else { 12 };
    let parts = split(len, base);
    let mut tours: Vec<BlockTour> = Vec::new();
    let mut chosen = None;
    if parts.len() == 1 {
        match block(rows, len, closed, None, None, run) {
            Some(t) => tours.push(t),
            None if run.is_stopped() => return Ok(None),
            None => return Err(TourBug::NoStripTour { rows, len }),
        }
    } else {
        for p in patterns(rows) {
            let first = block(rows, parts[0], closed, None, Some(p), run);
            let middle = if parts.len() > 2 {
                block(rows, base, closed, Some(p), Some(p), run)
            } else {
                None
            };
            let last = block(rows, base, closed, Some(p), None, run);
            if run.is_stopped() {
                return Ok(None);
            }
            if let (Some(f), Some(l)) = (first, last)
                && (parts.len() == 2 || middle.is_some())
            {
                tours = vec![f];
                tours.extend(middle);
                tours.push(l);
                chosen = Some(p);
                break;
            }
        }
        if chosen.is_none() {
            return Err(TourBug::NoJoiningPattern { rows });
        }
    }
    let mut c0 = 0;
    for (i, &plen) in parts.iter().enumerate() {
        let t = if i == 0 {
            &tours[0]
        } else if i + 1 == parts.len() {
            &tours[tours.len() - 1]
        } else {
            &tours[1]
        };
        for r in 0..rows {
            for c in 0..plen {
                let [p, q] = t.nb[r * plen + c];
                let to = |l: u16| {
                    if l == u16::MAX {
                        NONE
                    } else {
                        let l = l as usize;
                        g((l / plen, c0 + l % plen))
                    }
                };
                x.set(g((r, c0 + c)) as usize, to(p) ^ to(q));
            }
        }
        if let (Some(p), true) = (chosen, i > 0) {
            let a = |(r, back): Sq| g((r, c0 - 1 - back));
            let b = |(r, c): Sq| g((r, c0 + c));
            let (a1, a2, b1, b2) = (a(p.a.0), a(p.a.1), b(p.b.0), b(p.b.1));
            if closed {
                // Remove a1-a2 and b1-b2, add a1-b1 and a2-b2.
                x.xor(a1 as usize, a2 ^ b1);
                x.xor(a2 as usize, a1 ^ b2);
                x.xor(b1 as usize, b2 ^ a1);
                x.xor(b2 as usize, b1 ^ a2);
            } else {
                // Remove a1-a2; b1 and b2 are the block's ends: add a1-b1 and b2-a2.
                x.xor(a1 as usize, a2 ^ b1);
                x.xor(a2 as usize, a1 ^ b2);
                x.xor(b1 as usize, NONE ^ a1);
                x.xor(b2 as usize, NONE ^ a2);
            }
        }
        c0 += plen;
        if run.nodes(plen as u64) {
            return Ok(None);
        }
    }
    let (first, prev) = match tours[0].ends {
        Some((e, _)) => {
            let e = e as usize;
            (g((e / parts[0], e % parts[0])), NONE)
        }
        // The first corner takes part in no join; (2, 1) is one of its two moves.
        None => (g((0, 0)), g((2, 1))),
    };
    Ok(Some((x, first, prev)))
}
