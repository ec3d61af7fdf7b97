//! `--unique`: solutions counted once per class under the symmetries of the puzzle.
//!
//! A symmetry is a turn of the board (8 of a square, 4 of a rectangle, 48 of a cube, fewer
//! with holes) that maps the cells onto themselves and every placement onto a placement: of
//! the same piece, or of the piece that is its mirror image where pieces may not be flipped
//! (Soma's two screws). Each acts on the options as a permutation.
//!
//! Where one piece stands alone (one copy, mapped to itself by every symmetry), each class
//! of solutions has a member with that piece on the least placement of its orbit, so the
//! piece is kept to those placements, one an orbit, as Knuth keeps the X pentomino to a
//! quarter of the board. Two solutions through the same kept placement are in one class
//! exactly when a symmetry fixing that placement maps one onto the other, so where a kept
//! placement has such symmetries, a solution through it is counted only where it is the
//! least of its images under them. Without such a piece, every solution is compared with
//! all its images.

use std::collections::HashMap;

use super::{BLANK, Model};
use crate::board::polyform::{self, Turns};
use crate::dlx::Problem;
use crate::spec::PieceCount;

/// The symmetries of a compiled puzzle, as permutations of its options.
pub struct Symmetries {
    /// One permutation of the options for each symmetry but the identity.
    pub perms: Vec<Vec<u32>>,
}

impl Symmetries {
    /// The order of the group, identity included.
    pub fn order(&self) -> usize {
        self.perms.len() + 1
    }
}

/// One piece kept to one placement of each orbit.
pub struct Restriction {
    pub piece: usize,
    /// The kept placements (options of the whole problem), with the symmetries (indices into
    /// [`Symmetries::perms`]) that fix each; most fix none.
    pub kept: Vec<(usize, Vec<usize>)>,
}

impl Restriction {
    /// Kept placements that some symmetry fixes.
    pub fn symmetric(&self) -> usize {
        self.kept.iter().filter(|(_, s)| !s.is_empty()).count()
    }

    /// The problem with the piece kept to its kept placements, and the option of the whole
    /// problem for each of its options.
    pub fn problem(&self, m: &Model) -> (Problem, Vec<u32>) {
        let whole = &m.problem;
        let mut p = Problem::new();
        for i in 0..whole.num_items() {
            let name = whole.item_name(i).to_string();
            if whole.is_primary(i) {
                let (lo, hi) = whole.range(i);
                if (lo, hi) == (1, 1) {
                    p.add_primary(name);
                } else {
                    p.add_primary_range(name, lo, hi);
                }
            } else {
                p.add_secondary(name);
            }
        }
        let piece = &m.pieces[self.piece];
        let mut keep = vec![true; whole.num_options()];
        keep[piece.first..piece.first + piece.placements].fill(false);
        for &(k, _) in &self.kept {
            keep[k] = true;
        }
        let mut full = Vec::new();
        for (k, &kept) in keep.iter().enumerate() {
            if kept {
                p.add_option(whole.option(k))
                    .expect("the options of a problem already built");
                full.push(k as u32);
            }
        }
        (p, full)
    }

    /// The symmetries that fix the kept placement among `solution`'s options.
    pub fn fixing<'a>(&'a self, m: &Model, solution: &[usize]) -> &'a [usize] {
        for &k in solution {
            if m.placement(k).0 as usize == self.piece {
                return self
                    .kept
                    .iter()
                    .find(|x| x.0 == k)
                    .map_or(&[], |x| x.1.as_slice());
            }
        }
        &[]
    }
}

/// The symmetries of the puzzle.
pub fn symmetries(m: &Model) -> Symmetries {
    let b = &m.board;
    let dims = [b.width, b.height, b.depth];
    let mut by_cells: HashMap<&[u32], Vec<usize>> = HashMap::new();
    for k in 0..m.num_options() {
        by_cells.entry(m.placement(k).1).or_default().push(k);
    }
    let mut perms = Vec::new();
    let mut img = Vec::new();
    'turn: for t in polyform::turns(m.space, Turns::Free).into_iter().skip(1) {
        // The turn moves the box onto itself, shifted back into place.
        let mut corner = [0i32; 3];
        for (i, d) in dims.iter().enumerate() {
            corner[i] = *d as i32 - 1;
        }
        let far = t.apply(corner);
        if (0..3).any(|i| far[i].unsigned_abs() as usize + 1 != dims[i]) {
            continue;
        }
        let shift: Vec<i32> = (0..3)
            .map(|i| if far[i] < 0 { -far[i] } else { 0 })
            .collect();
        let cell_map: Vec<u32> = (0..b.cells.len())
            .map(|i| {
                let c = [
                    (i % b.width) as i32,
                    (i / b.width % b.height) as i32,
                    (i / (b.width * b.height)) as i32,
                ];
                let v = t.apply(c);
                let v = [v[0] + shift[0], v[1] + shift[1], v[2] + shift[2]];
                ((v[2] as usize * b.height + v[1] as usize) * b.width + v[0] as usize) as u32
            })
            .collect();
        if (0..b.cells.len()).any(|i| b.cells[i] != b.cells[cell_map[i] as usize]) {
            continue;
        }
        let mut piece_map: Vec<Option<u32>> = vec![None; m.pieces.len()];
        let mut perm = Vec::with_capacity(m.num_options());
        for k in 0..m.num_options() {
            let (p, cells) = m.placement(k);
            img.clear();
            img.extend(cells.iter().map(|&c| cell_map[c as usize]));
            img.sort_unstable();
            let Some(found) = by_cells.get(img.as_slice()) else {
                continue 'turn;
            };
            let same = |q: u32| -> bool {
                q == p
                    || (p != BLANK
                        && q != BLANK
                        && m.pieces[p as usize].count == m.pieces[q as usize].count)
            };
            // The same piece where it can stand there, else its mirror image.
            let image = found
                .iter()
                .copied()
                .find(|&j| m.placement(j).0 == p)
                .or_else(|| match piece_map.get(p as usize).copied().flatten() {
                    Some(q) => found.iter().copied().find(|&j| m.placement(j).0 == q),
                    None => {
                        let mut it = found.iter().copied().filter(|&j| same(m.placement(j).0));
                        let first = it.next();
                        if it.next().is_some() { None } else { first }
                    }
                });
            let Some(j) = image else {
                continue 'turn;
            };
            let q = m.placement(j).0;
            if p != BLANK {
                match piece_map[p as usize] {
                    None => piece_map[p as usize] = Some(q),
                    Some(before) if before != q => continue 'turn,
                    Some(_) => {}
                }
            }
            perm.push(j as u32);
        }
        // A permutation of the options, and of the pieces.
        let mut seen = vec![false; perm.len()];
        for &j in &perm {
            if std::mem::replace(&mut seen[j as usize], true) {
                continue 'turn;
            }
        }
        perms.push(perm);
    }
    Symmetries { perms }
}

/// The piece to keep to one placement an orbit, if one stands alone: one copy, mapped to
/// itself by every symmetry. Of those, the one with the fewest kept placements fixed by a
/// symmetry (whose solutions need comparing with their images), then the fewest kept.
pub fn restriction(m: &Model, sym: &Symmetries) -> Option<Restriction> {
    let mut best: Option<Restriction> = None;
    for (i, p) in m.pieces.iter().enumerate() {
        if p.count != PieceCount::Between(1, 1) || p.placements == 0 {
            continue;
        }
        let own = p.first..p.first + p.placements;
        if sym
            .perms
            .iter()
            .any(|perm| !own.contains(&(perm[p.first] as usize)))
        {
            continue;
        }
        let mut seen = vec![false; p.placements];
        let mut kept = Vec::new();
        for k in own.clone() {
            if seen[k - p.first] {
                continue;
            }
            let mut fixing = Vec::new();
            for (g, perm) in sym.perms.iter().enumerate() {
                let j = perm[k] as usize;
                seen[j - p.first] = true;
                if j == k {
                    fixing.push(g);
                }
            }
            seen[k - p.first] = true;
            kept.push((k, fixing));
        }
        let r = Restriction { piece: i, kept };
        let score = |r: &Restriction| (r.symmetric(), r.kept.len());
        if best.as_ref().is_none_or(|b| score(&r) < score(b)) {
            best = Some(r);
        }
    }
    best
}

/// Whether `solution` (sorted options of the whole problem) is the least of its images under
/// the permutations `which` of `sym`, and how many of those images equal it.
pub fn least_of_images(
    sym: &Symmetries,
    which: impl Iterator<Item = usize>,
    solution: &[usize],
    buf: &mut Vec<usize>,
) -> Option<usize> {
    let mut same = 0;
    for g in which {
        let perm = &sym.perms[g];
        buf.clear();
        buf.extend(solution.iter().map(|&k| perm[k] as usize));
        buf.sort_unstable();
        match buf.as_slice().cmp(solution) {
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Equal => same += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    Some(same)
}
