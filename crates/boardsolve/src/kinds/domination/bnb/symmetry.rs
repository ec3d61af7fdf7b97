//! Symmetry breaking in `bnb` (minimize only: counting needs every placement).
//!
//! At the top of the tree, by corner cells. Take the orbit O (under the board's symmetries)
//! of squares with the fewest coverers between them, e.g. the four corners for knights.
//! Every covering placement falls in one cell per square o of O: "o holds a piece" (its
//! attackers left open), or "o is empty and exactly these of its attackers hold one" (a
//! non-empty set, since o must be covered). The symmetries map cells to cells, so the
//! combinations of cells (4^4 = 256 for knights) are permuted by them, and only the
//! combinations that are the smallest of their images need a search: the others hold the
//! images of their placements, of the same size. One subtree each, symmetry still broken
//! below it by the combination's own stabilizer. Breaking symmetry branch by branch alone
//! loses most of it after a piece or two; the cells fix the corners' neighbourhood at once.
//!
//! Below, and where no corner cells apply, between siblings: a branch whose candidate is the
//! image of an earlier sibling's candidate under a symmetry that maps the node's placed and
//! excluded squares to themselves is skipped, since the image of any placement below it lies
//! in that earlier branch with the same size. A child keeps the symmetries that also fix its
//! candidate and map the earlier siblings among themselves.

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::super::model::Model;
use super::stack::{NO_ORIGIN, Subtree};

/// The subtrees of the canonical corner combinations with fewer than `bar` pieces; counts
/// in `images_skipped` the combinations left out as the images of others. `None` when the
/// board has no symmetry, or the squares of O share coverers (small boards), or there are
/// too many cells (queens: a corner has 3n - 3 attackers).
pub fn corner_subtrees(m: &Model, bar: usize, images_skipped: &mut u64) -> Option<Vec<Subtree>> {
    let syms = &m.symmetries;
    if syms.len() < 2 {
        return None;
    }
    let w = m.words;
    // The orbit with the fewest coverers in all (ties: the first square).
    let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
    for &t in &m.cells {
        let mut orbit: Vec<usize> = syms.iter().map(|g| g[t] as usize).collect();
        orbit.sort_unstable();
        orbit.dedup();
        if orbit.len() < 2 || orbit[0] != t {
            continue;
        }
        let mut d = vec![0u64; w];
        let mut total = 0;
        for &o in &orbit {
            for i in 0..w {
                d[i] |= m.coverers.row(o)[i];
            }
            total += m.coverers.row_count(o);
        }
        let dl: Vec<usize> = crate::util::ones(&d).collect();
        // Coverers shared between squares of O would tie their cells together.
        if dl.len() == total && best.as_ref().is_none_or(|(_, b)| dl.len() < b.len()) {
            best = Some((orbit, dl));
        }
    }
    let (orbit, dl) = best?;
    // Masks of D in a u32, and at most 2^6 + 1 cells a square of O.
    if dl.len() > 32 || dl.len() / orbit.len() > 7 {
        return None;
    }
    let pos = |s: usize| dl.iter().position(|&x| x == s).expect("D is closed");
    // Each cell as (squares of D holding a piece, squares of D left empty), by position.
    let cells: Vec<Vec<(u32, u32)>> = orbit
        .iter()
        .map(|&o| {
            let me = 1u32 << pos(o);
            let att: Vec<u32> = crate::util::ones(m.coverers.row(o))
                .filter(|&s| s != o)
                .map(|s| 1u32 << pos(s))
                .collect();
            let mut v = vec![(me, 0)];
            for sub in 1u32..1 << att.len() {
                let mut on = 0;
                let mut off = me;
                for (i, &b) in att.iter().enumerate() {
                    if sub >> i & 1 != 0 {
                        on |= b;
                    } else {
                        off |= b;
                    }
                }
                v.push((on, off));
            }
            v
        })
        .collect();
    // Kings: 8 cells a corner, 4,096 combinations; far more would cost more than the
    // symmetry saves.
    if cells.iter().map(|c| c.len()).product::<usize>() > 1 << 16 {
        return None;
    }
    let clash: Vec<u32> = (0..dl.len())
        .map(|i| {
            (0..dl.len())
                .filter(|&j| j != i && m.conflict.get(dl[i], dl[j]))
                .fold(0, |a, j| a | 1 << j)
        })
        .collect();
    let images: Vec<Vec<usize>> = syms
        .iter()
        .skip(1)
        .map(|g| dl.iter().map(|&s| pos(g[s] as usize)).collect())
        .collect();
    let permute = |img: &[usize], x: u32| -> u32 {
        img.iter()
            .enumerate()
            .fold(0, |a, (i, &j)| a | (x >> i & 1) << j)
    };
    let mut out = Vec::new();
    let mut choice = vec![0usize; orbit.len()];
    loop {
        let (on, off) = choice
            .iter()
            .zip(&cells)
            .fold((0u32, 0u32), |(a, b), (&c, cs)| (a | cs[c].0, b | cs[c].1));
        let k = on.count_ones() as usize;
        let fits = k < bar && (0..dl.len()).all(|i| on >> i & 1 == 0 || clash[i] & on == 0);
        if fits {
            let mut stab = 0u32;
            let mut canonical = true;
            for (gi, img) in images.iter().enumerate() {
                let to = (permute(img, on), permute(img, off));
                if to < (on, off) {
                    canonical = false;
                    *images_skipped += 1;
                    break;
                }
                if to == (on, off) {
                    stab |= 1 << (gi + 1);
                }
            }
            if canonical {
                out.push(decided(m, &dl, on, off, stab));
            }
        }
        // The next combination, the last square's cell fastest.
        let mut i = orbit.len();
        loop {
            if i == 0 {
                return Some(out);
            }
            i -= 1;
            choice[i] += 1;
            if choice[i] < cells[i].len() {
                break;
            }
            choice[i] = 0;
        }
    }
}

/// The subtree below the root with the squares `on` of `dl` holding a piece and those of
/// `off` left empty.
fn decided(m: &Model, dl: &[usize], on: u32, off: u32, sym: u32) -> Subtree {
    let w = m.words;
    let mut uncovered = m.all.clone();
    let mut allowed = m.all.clone();
    let mut placed = Vec::new();
    for (i, &s) in dl.iter().enumerate() {
        if off >> i & 1 != 0 {
            allowed[s >> 6] &= !(1u64 << (s & 63));
        }
        if on >> i & 1 != 0 {
            placed.push(s);
            for x in 0..w {
                uncovered[x] &= !m.cover.row(s)[x];
                allowed[x] &= !m.conflict.row(s)[x];
            }
        }
    }
    let mut both = m.all.clone();
    both.extend_from_slice(&uncovered);
    Subtree {
        depth: placed.len(),
        sym,
        sibx: vec![0; placed.len() * w],
        origin: vec![NO_ORIGIN; placed.len()],
        placed,
        uncovered: both,
        allowed,
        lam: Vec::new(),
    }
}

/// Whether the candidate `c` of a node is a branch of its own under the node's symmetries
/// `sym` (a bit mask, the identity left out): `None` when it is the image of an `earlier`
/// sibling; else the symmetries its child keeps.
pub fn sibling(m: &Model, sym: u32, c: usize, earlier: &[usize]) -> Option<u32> {
    let mut child_sym = 0u32;
    if sym != 0 {
        let mut bits = sym;
        while bits != 0 {
            let g = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let perm = &m.symmetries[g];
            let image = perm[c] as usize;
            if earlier.contains(&image) {
                return None;
            }
            if image == c
                && earlier
                    .iter()
                    .all(|&e| earlier.contains(&(perm[e] as usize)))
            {
                child_sym |= 1 << g;
            }
        }
    }
    Some(child_sym)
}

/// The symmetries of `sym` that fix square `c`: those the only child of a node that must
/// place `c` keeps.
pub fn fixing(m: &Model, sym: u32, c: usize) -> u32 {
    let mut child_sym = 0u32;
    let mut bits = sym;
    while bits != 0 {
        let g = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if m.symmetries[g][c] as usize == c {
            child_sym |= 1 << g;
        }
    }
    child_sym
}
