//! The path from the root to the node being searched, as `bnb` keeps it: per depth the
//! squares still uncovered, the squares a piece may still take, the squares covered once,
//! twice and three times, and the candidates excluded as earlier siblings; the pieces placed
//! and the depth that placed each. A child's rows are computed from its parent's, so going
//! back up costs nothing.
//!
//! A [`Subtree`] is a node written down with what its search reads of the path above it,
//! so that another worker, or another run of the same proof, can resume it there.

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::super::model::Model;

/// `Stack::origin` of a piece a corner cell placed (no sibling could replace it).
pub const NO_ORIGIN: u32 = u32::MAX;

pub struct Stack {
    /// Words of one row (a bitset over the board's squares).
    pub w: usize,
    /// Uncovered squares at each depth, `w` words per depth.
    pub uncovered: Vec<u64>,
    /// Squares still allowed at each depth.
    pub allowed: Vec<u64>,
    /// Squares covered by a placed piece, by two or more, and by three or more, at each
    /// depth (minimize; `once` differs from the covered squares where a swap demand has put
    /// a covered square back among the uncovered).
    pub once: Vec<u64>,
    pub twice: Vec<u64>,
    pub thrice: Vec<u64>,
    /// At each depth, the candidates excluded as earlier siblings at this node and its
    /// ancestors (those above a resumed subtree come with it): any of them may replace a
    /// piece placed here or below.
    pub sibx: Vec<u64>,
    pub placed: Vec<usize>,
    /// For each placed piece, the depth of the node that placed it (`NO_ORIGIN`: a corner
    /// cell's).
    pub origin: Vec<u32>,
    /// The depth this search started or resumed at.
    pub base: usize,
}

/// A node recorded for a worker: what `node` reads of it and of its parent.
pub struct Subtree {
    pub depth: usize,
    pub sym: u32,
    pub placed: Vec<usize>,
    /// The parent's uncovered squares, then the node's.
    pub uncovered: Vec<u64>,
    pub allowed: Vec<u64>,
    /// The parent's multipliers, which the node starts from (empty: the root's).
    pub lam: Vec<f64>,
    /// `Stack::sibx` at the depths above the node, and `Stack::origin` of its pieces.
    pub sibx: Vec<u64>,
    pub origin: Vec<u32>,
}

impl Stack {
    /// Room for `depth` levels.
    pub fn new(m: &Model, depth: usize) -> Stack {
        let w = m.words;
        Stack {
            w,
            uncovered: vec![0; depth * w],
            allowed: vec![0; depth * w],
            once: vec![0; depth * w],
            twice: vec![0; depth * w],
            thrice: vec![0; depth * w],
            sibx: vec![0; depth * w],
            placed: Vec::with_capacity(depth),
            origin: Vec::with_capacity(depth),
            base: 0,
        }
    }

    /// The root: every square uncovered and allowed, no piece placed.
    pub fn reset(&mut self, m: &Model) {
        let w = self.w;
        self.uncovered[..w].copy_from_slice(&m.all);
        self.allowed[..w].copy_from_slice(&m.all);
        self.placed.clear();
        self.origin.clear();
        self.base = 0;
        self.recount_twice(m, 0);
    }

    /// The node of a recorded subtree, at its depth.
    pub fn restore(&mut self, m: &Model, t: &Subtree) {
        let w = self.w;
        let d = t.depth;
        self.uncovered[(d - 1) * w..(d + 1) * w].copy_from_slice(&t.uncovered);
        self.allowed[d * w..(d + 1) * w].copy_from_slice(&t.allowed);
        self.placed.clear();
        self.placed.extend_from_slice(&t.placed);
        self.origin.clone_from(&t.origin);
        self.sibx[..d * w].copy_from_slice(&t.sibx);
        self.base = d;
        self.recount_twice(m, d);
    }

    /// The rows of `other`'s node at `depth` (and the excluded siblings above it), with its
    /// first `placed` pieces: where a donation makes that node's children (see
    /// `Search::donate`) without touching `other`'s path below it.
    pub fn copy_node(&mut self, other: &Stack, depth: usize, placed: usize) {
        let w = self.w;
        let row = depth * w..(depth + 1) * w;
        self.uncovered[row.clone()].copy_from_slice(&other.uncovered[row.clone()]);
        self.allowed[row.clone()].copy_from_slice(&other.allowed[row.clone()]);
        self.once[row.clone()].copy_from_slice(&other.once[row.clone()]);
        self.twice[row.clone()].copy_from_slice(&other.twice[row.clone()]);
        self.thrice[row.clone()].copy_from_slice(&other.thrice[row]);
        self.sibx[..(depth + 1) * w].copy_from_slice(&other.sibx[..(depth + 1) * w]);
        self.placed.clear();
        self.placed.extend_from_slice(&other.placed[..placed]);
        self.origin.clear();
        self.origin.extend_from_slice(&other.origin[..placed]);
        self.base = other.base;
    }

    /// The node at `depth` as a subtree, with the parent's multipliers `lam`.
    pub fn record(&self, depth: usize, sym: u32, lam: &[f64]) -> Subtree {
        let w = self.w;
        Subtree {
            depth,
            sym,
            placed: self.placed.clone(),
            uncovered: self.uncovered[(depth - 1) * w..(depth + 1) * w].to_vec(),
            allowed: self.allowed[depth * w..(depth + 1) * w].to_vec(),
            lam: lam.to_vec(),
            sibx: self.sibx[..depth * w].to_vec(),
            origin: self.origin.clone(),
        }
    }

    /// The node at `depth` starts with its parent's excluded siblings (none at the root).
    pub fn inherit_siblings(&mut self, depth: usize) {
        let w = self.w;
        let uo = depth * w;
        let (head, tail) = self.sibx.split_at_mut(uo);
        if depth == 0 {
            tail[..w].fill(0);
        } else {
            tail[..w].copy_from_slice(&head[uo - w..]);
        }
    }

    /// Whether the node at `depth` has every square covered.
    pub fn covered(&self, depth: usize) -> bool {
        let w = self.w;
        self.uncovered[depth * w..(depth + 1) * w]
            .iter()
            .all(|&x| x == 0)
    }

    /// Square `p` is excluded from the rest of the node at `depth` as an earlier sibling.
    pub fn exclude_sibling(&mut self, depth: usize, p: usize) {
        let uo = depth * self.w;
        self.allowed[uo + (p >> 6)] &= !(1u64 << (p & 63));
        self.sibx[uo + (p >> 6)] |= 1u64 << (p & 63);
    }

    /// The piece on `c` that the node at `depth` places for its child.
    pub fn push(&mut self, depth: usize, c: usize) {
        self.placed.push(c);
        self.origin.push(depth as u32);
    }

    pub fn pop(&mut self) {
        self.placed.pop();
        self.origin.pop();
    }

    /// The rows of the child that places a piece on `c`; with `multiplicity` (minimize) the
    /// squares covered once, twice and three times too.
    pub fn make_child(&mut self, m: &Model, depth: usize, c: usize, multiplicity: bool) {
        let w = self.w;
        let (uo, ao) = (depth * w, (depth + 1) * w);
        let (head, tail) = self.uncovered.split_at_mut(ao);
        for i in 0..w {
            tail[i] = head[uo + i] & !m.cover.row(c)[i];
        }
        let (head, tail) = self.allowed.split_at_mut(ao);
        for i in 0..w {
            tail[i] = head[uo + i] & !m.conflict.row(c)[i];
        }
        if multiplicity {
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

    /// `once`, `twice` and `thrice` at `depth` from the placed pieces (the root, or a
    /// resumed subtree).
    pub fn recount_twice(&mut self, m: &Model, depth: usize) {
        let w = self.w;
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
}
