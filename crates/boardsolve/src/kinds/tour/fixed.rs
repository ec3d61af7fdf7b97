//! `count --unique`: closed knight's tours up to the board's symmetries, by Burnside's lemma
//! (the classes are the tours each symmetry maps to themselves, summed over the group, over
//! its order). The identity fixes every tour: the count itself. For the others:
//!
//! A symmetry g that maps a tour C (a cycle through all N cells) to itself acts on C as an
//! element of C's own dihedral group, of the order g has on the cells.
//! - If g fixes cells, it is a reflection or a rotation about a cell. A reflection of a
//!   cycle fixes none of its vertices or two; a rotation of order 4 acts as a rotation of C,
//!   which fixes none. So with one fixed cell or more than two (a diagonal of a square board),
//!   or a rotation of order 4 about a cell, no tour is fixed.
//! - If g fixes none, and is of order 4 or of order 2 with no cell a knight's move from its
//!   image (a reflection of C would fix two of its edges, each joining a cell and its
//!   image), g acts on C as its rotation by N/k for g's order k. Cells N/k apart on C have
//!   the same colour exactly when N/k is even (a knight's move changes colour), so if g
//!   keeps colours and N/k is odd, or changes them and N/k is even, or k does not divide N,
//!   no tour is fixed: on boards with both sides even this settles every reflection and the
//!   quarter turns where N/4 is even.
//! - The half turn of such a board (rows in the sweep even) keeps colours and fixes the
//!   tours that are lifts of the quotient's cycles: the first half of the board, its cells
//!   joined by its own moves and by the moves across the middle, each leading to the image
//!   of a cell of the first half (a "twisted" edge). A cycle of the quotient lifts to one
//!   tour when it takes an odd number of twisted edges (an even number lifts to two cycles).
//!   The sweep runs to the middle of the board, and each of its states is closed by the
//!   twisted edges, which join squares of its frontier's last two rows (see [`close`]).
//!
//! Other symmetries (two fixed cells; a cell a knight's move from its image; a quarter turn
//! with N/4 odd) are refused up front: `backtrack` counts small boards up to symmetry.

use super::key::Key;
use super::model::{KNIGHT, Model};
use super::states::{Slot, Ways};
use super::vocab::{SymmetryKeeps, TourRefusal};
use crate::util::Natural;

/// What a symmetry other than the identity adds to Burnside's sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fixed {
    /// No tour is fixed (one of the arguments above).
    None,
    /// The half turn, counted by a sweep to the middle (`close`).
    HalfTurn,
}

fn knight_apart(w: usize, a: usize, b: usize) -> bool {
    let (dr, dc) = (
        (a / w) as i64 - (b / w) as i64,
        (a % w) as i64 - (b % w) as i64,
    );
    KNIGHT.contains(&(dr, dc))
}

/// For each of the board's symmetries but the identity, what it adds; or why the sweep
/// cannot count the tours some symmetry fixes.
pub(super) fn classify(m: &Model) -> Result<Vec<Fixed>, TourRefusal> {
    let b = &m.board;
    let w = b.width;
    let cells: Vec<usize> = (0..b.squares()).filter(|&s| !b.is_hole(s)).collect();
    let n = cells.len();
    let colour = |s: usize| (s / w + s % w) % 2;
    let half_turn: Vec<u32> = (0..b.squares()).rev().map(|s| s as u32).collect();
    let rows = b.width.max(b.height);
    let mut out = Vec::new();
    for g in b.symmetries().into_iter().skip(1) {
        let at = |s: usize| g[s] as usize;
        let fixed = cells.iter().filter(|&&s| at(s) == s).count();
        let order = if cells.iter().all(|&s| at(at(s)) == s) {
            2
        } else {
            4
        };
        if fixed > 0 {
            if order == 4 || fixed != 2 {
                out.push(Fixed::None);
                continue;
            }
            return Err(TourRefusal::UniqueSymmetry(SymmetryKeeps::TwoCells));
        }
        // An involution may act on C as a reflection fixing two edges; an element of order
        // 4 acts as a rotation whatever it does to single moves.
        if order == 2 && cells.iter().any(|&s| knight_apart(w, s, at(s))) {
            return Err(TourRefusal::UniqueSymmetry(SymmetryKeeps::KnightApart));
        }
        let keeps_colour = colour(at(cells[0])) == colour(cells[0]);
        if !n.is_multiple_of(order) || keeps_colour != (n / order).is_multiple_of(2) {
            out.push(Fixed::None);
            continue;
        }
        if g == half_turn && rows.is_multiple_of(2) {
            out.push(Fixed::HalfTurn);
            continue;
        }
        return Err(TourRefusal::UniqueSymmetry(if order == 4 {
            SymmetryKeeps::QuarterTurnOdd
        } else {
            SymmetryKeeps::HalfAlong
        }));
    }
    Ok(out)
}

/// The twisted edges of the quotient by the half turn, in a sweep of `n` squares whose
/// frontier holds the last `l` squares of its first half: pairs of frontier positions.
pub(super) fn twisted_edges(w: usize, n: usize, l: usize, hole: &[bool]) -> Vec<(usize, usize)> {
    let (h, half) = (n / w, n / 2);
    // Frontier position i holds square half - l + i (those before the board are done).
    let position = |s: usize| s + l - half;
    let mut edges = Vec::new();
    for u in half.saturating_sub(l)..half {
        if hole[u] {
            continue;
        }
        let (r, c) = ((u / w) as i64, (u % w) as i64);
        for (dr, dc) in KNIGHT {
            let (r2, c2) = (r + dr, c + dc);
            if r2 < 0 || c2 < 0 || r2 as usize >= h || c2 as usize >= w {
                continue;
            }
            let v = r2 as usize * w + c2 as usize;
            if v < half || hole[v] {
                continue;
            }
            // The move to v stands for the edge to v's image, a square of the first half.
            let image = n - 1 - v;
            debug_assert!(image + l >= half, "a twisted edge leaves the frontier");
            let pair = (position(u.min(image)), position(u.max(image)));
            if !edges.contains(&pair) {
                edges.push(pair);
            }
        }
    }
    // `Closing::count` takes them in order of their first position.
    edges.sort_unstable();
    edges
}

const FRESH: u8 = 0;
const DONE: u8 = 1;

/// The tours that the half turn fixes, from the sweep's states at the middle of the board:
/// each state closed in every way by twisted edges (each frontier square given the moves
/// it lacks) into one cycle through an odd number of them.
pub(super) fn close<K: Key, T: Ways>(
    states: &[Slot<K, T>],
    edges: &[(usize, usize)],
    l: usize,
) -> Natural {
    let mut total = Natural::zero();
    let mut c = Closing {
        edges,
        need: vec![0; l],
        label: vec![0; l],
        chosen: Vec::with_capacity(edges.len()),
        parent: vec![0; l],
    };
    for &Slot { key, ways } in states {
        for i in 0..l {
            let x = key.nibble(i);
            c.label[i] = x;
            c.need[i] = match x {
                FRESH => 2,
                DONE => 0,
                _ => 1,
            };
        }
        let closings = c.count(0);
        for _ in 0..closings {
            ways.add_to(&mut total);
        }
    }
    total
}

struct Closing<'a> {
    edges: &'a [(usize, usize)],
    /// Moves each frontier position still lacks, and its nibble in the state.
    need: Vec<u8>,
    label: Vec<u8>,
    chosen: Vec<usize>,
    /// Union-find over the frontier positions, for the cycle test.
    parent: Vec<usize>,
}

impl Closing<'_> {
    /// The closings that choose among the edges from index `from` on.
    fn count(&mut self, from: usize) -> u64 {
        if self.need.iter().all(|&x| x == 0) {
            return self.one_odd_cycle() as u64;
        }
        let mut found = 0;
        // The lowest position that still lacks a move takes it from some edge from here on;
        // edges to it before `from` were passed over.
        let first = self.need.iter().position(|&x| x > 0).expect("a need");
        for e in from..self.edges.len() {
            let (a, b) = self.edges[e];
            if a > first {
                break;
            }
            if a != first && b != first {
                continue;
            }
            if self.need[a] == 0 || self.need[b] == 0 {
                continue;
            }
            self.need[a] -= 1;
            self.need[b] -= 1;
            self.chosen.push(e);
            found += self.count(e + 1);
            self.chosen.pop();
            self.need[a] += 1;
            self.need[b] += 1;
        }
        found
    }

    /// The fragments and the chosen edges make one cycle through an odd number of twisted
    /// edges (every position has its two moves by now).
    fn one_odd_cycle(&mut self) -> bool {
        if self.chosen.len().is_multiple_of(2) {
            return false;
        }
        let l = self.label.len();
        let parent = &mut self.parent;
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i;
        }
        fn root(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        let join = |p: &mut [usize], a: usize, b: usize| {
            let (ra, rb) = (root(p, a), root(p, b));
            p[ra] = rb;
        };
        for i in 0..l {
            if self.label[i] > DONE
                && let Some(j) = (i + 1..l).find(|&j| self.label[j] == self.label[i])
            {
                join(parent, i, j);
            }
        }
        for &e in &self.chosen {
            let (a, b) = self.edges[e];
            join(parent, a, b);
        }
        let mut roots = (0..l)
            .filter(|&i| self.label[i] != DONE)
            .map(|i| root(parent, i));
        let first = roots.next();
        first.is_some() && roots.all(|r| Some(r) == first)
    }
}
