//! Block tours: one tour per block shape, found once by a small depth-first search in
//! Warnsdorff's order (fewest onward moves first, random ties) with forced moves, shared by
//! `divide`'s grid of blocks (divide.rs) and the strips (strip.rs, chain.rs).
//!
//! A block's tour must hold the moves its joins take out of it (the forced moves: once the
//! path reaches one of their squares, the partner comes next unless it came just before; a
//! partner already visited elsewhere ends the branch), and may have to start or end on
//! given squares. [`attempt_path`] is one depth-first attempt with a budget of moves: the
//! candidates in Warnsdorff's order, ties broken by noise drawn from a seeded generator, a
//! branch cut as soon as it strands a square. An attempt that runs out of budget gives way
//! to a fresh one with other ties; a block shape is searched once whatever the board's
//! size.

use std::collections::HashMap;

use crate::engine::Run;

/// Which joining move a block's tour must hold in its top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Join {
    None,
    /// Joined to the block on its left: (1, 1) -- (3, 0).
    Left,
    /// Joined to the block above: (1, 1) -- (0, 3).
    Above,
}

/// A block shape of `divide`'s grid: its sides, whether it holds the board's open path, and
/// the moves its tour must hold for the joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub w: usize,
    pub h: usize,
    pub open: bool,
    /// The open path's first square, when the board's start is given.
    pub start: Option<u16>,
    /// The open block has a block on its right: its path must hold (0, X) -- (2, X-1).
    pub right: bool,
    /// The open block is in the first column with a block below: its path must hold
    /// (Y, 0) -- (Y-1, 2).
    pub below: bool,
    pub join: Join,
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

/// The block tours found so far, one per shape (`None`: the search found none).
#[derive(Default)]
pub(super) struct Blocks {
    pub found: HashMap<Key, Option<BlockTour>>,
}

impl Blocks {
    /// The tour of the block shape `key`, searched on first use.
    pub fn get(&mut self, key: Key, run: &mut Run) -> Option<&BlockTour> {
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
    for attempt in 0..BLOCK_ATTEMPTS {
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

/// Attempts per block shape, each with other ties, before the shape is given up (reported
/// as a bug): enough for every shape the layouts use, and a bound on a failure's cost.
const BLOCK_ATTEMPTS: usize = 400;

/// Moves tried per attempt before it gives up and the next one starts with other ties: a
/// Warnsdorff path that goes wrong does so early, and a fresh attempt costs less than
/// backtracking deep into it.
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
