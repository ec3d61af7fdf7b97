//! `divide`: divide and conquer for the knight (after Parberry 1997, who builds closed
//! tours from structured block tours, and Lin and Wei 2005, who extend it to every m x n
//! with both sides at least 5).
//!
//! Where it applies: goal first, for the knight on every board without holes with both
//! sides at least 3, open or closed, from any start where a tour exists (the existence
//! rules decide first and answer the rest). It builds one tour, with no search beyond a few
//! small block searches whatever the board's size, in time linear in the squares, and keeps
//! only the result: ceil(log2(squares + 1)) bits a square (27 at 10^8 squares, 337 MB). It
//! does not count or list tours, and takes no other leaper and no holes. The tour it builds
//! is checked by the model's check like any other before it is written out.
//!
//! Boards with a side of 3 or 4 are strips of blocks (strip.rs: 3xn closed and open by
//! joins and splices; chain.rs: 4xn open, and 3xn or 4xn open from a given start, by a
//! chain of blocks). Otherwise the board is cut into a grid of blocks whose sides are 6 to
//! 11 (a side of 5 to 11 stays whole), with at most one odd side per direction, so every
//! block but one, the odd x odd block of an odd board, has an even number of squares. That
//! block is the bottom-right one, or for an open tour from a given start the one holding
//! the start (the odd parts of both sides laid where the start is). Each block shape gets
//! one tour, found once by a small Warnsdorff search with forced moves (blocks.rs): a
//! closed tour, or for the odd x odd block an open path, from the start when one is given,
//! holding the corner moves that its own joins take from it. Blocks are joined along a
//! spanning tree, left to right in each block row and then down the first column, each join
//! swapping two moves:
//!
//! ```text
//!   A's corner square a1 = (0, X) always moves to a2 = (2, X-1) (it has only two moves).
//!   B's tour is asked to hold the move b1 = (1, X+2) -- b2 = (3, X+1).
//!   Remove a1-a2 and b1-b2, add a1-b1 and a2-b2: two cycles (or a cycle and a path)
//!   become one.
//! ```
//!
//! and the same transposed for the vertical joins, with B's move (1, 1) -- (0, 3) in block
//! coordinates. Every join uses a different corner of its blocks, so joins never disturb
//! each other, and the whole construction is one pass over the board. A join of a path and
//! a cycle gives a path with the same two ends, so the board's open path starts where the
//! odd block's does.
//!
//! The joins form a tree of blocks (each block hangs from the block on its left, in the
//! first column from the one above), and the tour is an Euler walk of that tree: it goes
//! round the top-left block's cycle, and where it meets a join's square a1 it goes through
//! the child's whole subtree (b1 round to b2) before it comes back to a2. So a block's move
//! numbers follow from where and with which number its parent enters it, and the subtree
//! sizes are sums of block areas: the blocks are numbered in row order, one band of block
//! rows at a time, each square's number written once, in order, into the packed result
//! ([`Packed`]; numbering.rs). No links are stored and nothing is followed square by
//! square. An odd board's open block counts as a cycle closed by a virtual move from its
//! path's last square to its first (no join touches it); the numbers are then turned so
//! that the path's first square is 0 and run away from its last. A given start of a closed
//! tour (or of an open tour on an even board, the closed tour cut before its start) is
//! turned to 0 the same way.
//!
//! The strips (strip.rs, chain.rs) are held as XOR-linked neighbours in the same packed
//! array (each entry the XOR of its two neighbours' indices, all ones for the missing
//! neighbour at an open path's end) and walked into move numbers in place (numbering.rs).

use super::blocks::{BlockTour, Blocks, Join, Key};
use super::model::{Model, no_unique};
use super::numbering::{self, Entry, Kid, Plan, Shape, Turn};
use super::vocab::{BlockLayout, TourBug, TourNote, TourReason, TourRefusal};
use super::{chain, strip};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::Strategy;
use crate::util::Packed;

pub struct Divide;

/// Smallest side built by blocks on both axes (Lin and Wei's theorem covers both sides at
/// least 5); boards with a side of 3 or 4 are built as strips (strip.rs, chain.rs).
const MIN_SIDE: usize = 5;

/// The longest side of a block ([`split`], [`split_at`]).
const MAX_BLOCK: usize = 11;

/// Whether `divide` builds a tour for this model, or why not. Every full board with both
/// sides at least 3 is taken, open or closed, from any start: where no tour exists the
/// existence rules say so before anything is built.
pub fn supports(m: &Model) -> Result<(), TourRefusal> {
    if !m.plain_knight {
        return Err(TourRefusal::DivideKnightNoHoles);
    }
    let (w, h) = (m.board.width, m.board.height);
    if w.min(h) < 3 {
        return Err(TourRefusal::DivideNarrow {
            width: w,
            height: h,
        });
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
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        no_unique(task)?;
        if task.goal != Goal::First {
            return Err(TourRefusal::DivideGoal.into());
        }
        Ok(supports(m)?)
    }
    fn solve(&self, m: &Model, _task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        let (w, h) = (m.board.width, m.board.height);
        // The tour's one array, allocated before anything is built.
        let x = match Packed::try_new(w * h, Packed::width_for(w * h)) {
            Ok(x) => x,
            Err(bytes) => {
                run.out_of_memory();
                let mut a = Answer::default();
                a.notes.push(
                    TourNote::MemoryShort {
                        what: NUMBERS.into(),
                        bytes,
                    }
                    .into(),
                );
                return a;
            }
        };
        if w.min(h) < MIN_SIDE {
            strip_tour(m, w, h, x, run)
        } else {
            grid_tour(m, w, h, x, run)
        }
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        Some(need(m.board.width, m.board.height))
    }
}

/// What the bytes of [`need`] hold.
const NUMBERS: &str = "the tour's move numbers";

/// The memory `divide` takes on a `w` x `h` board: the tour, packed, and one band of block
/// rows of plain numbers on the way to it; the blocks' own tours are a few kilobytes.
pub fn need(w: usize, h: usize) -> Need {
    let squares = w * h;
    let bits = Packed::width_for(squares);
    let band = (MAX_BLOCK * w.max(h) * 4) as u64;
    Need::new(
        Packed::bytes_for(squares, bits) + band,
        format!(
            "{NUMBERS} ({bits} bits a square on {} squares)",
            crate::util::numbers::group(squares as u128)
        ),
    )
}

/// A board with a side of 3 or 4: one strip, or a chain of blocks.
fn strip_tour(m: &Model, w: usize, h: usize, x: Packed, run: &mut Run) -> Answer {
    let chain = w.min(h) == 4 || (!m.closed && m.start.is_some());
    let built = if chain {
        chain::chain(w, h, m.start, x, run)
    } else {
        strip::build(w, h, m.closed, x, run)
    };
    let (mut x, first, prev) = match built {
        Ok(Some(b)) => b,
        Ok(None) => return Answer::default(),
        Err(e) => return Answer::none_because(TourReason::Bug(e)),
    };
    if let Err(e) = numbering::unlink(&mut x, first, prev, m.start) {
        return Answer::none_because(TourReason::Bug(e));
    }
    let layout = if chain {
        BlockLayout::Chain { height: w.min(h) }
    } else {
        BlockLayout::Strip
    };
    built_tour(m, x, layout)
}

/// A board with both sides at least [`MIN_SIDE`]: a grid of blocks.
fn grid_tour(m: &Model, w: usize, h: usize, x: Packed, run: &mut Run) -> Answer {
    let open_block = (w * h) % 2 == 1;
    // An open tour from a given start on an odd board: the odd x odd block (the only
    // one holding an open path) is laid where the start is, and its path starts there.
    // Joining a path to a cycle leaves the path's ends, so the board's path does too.
    let given = m.start.filter(|_| open_block && !m.closed);
    let (cols, rows) = match given {
        Some(s) => (split_at(w, s % w), split_at(h, s / w)),
        None => (split(w), split(h)),
    };
    let part_of = strip::part_of;
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
    // Every block shape's tour first, so a shape with none is known before the board is
    // touched; rows of one kind (see `key_row`) hold the same shapes.
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
                return Answer::none_because(TourReason::Bug(TourBug::NoBlockTour {
                    width: bw,
                    height: bh,
                }));
            }
        }
    }
    let grid = match Grid::new(w, h, &rows, &cols, key_row, |i, j| {
        blocks.found[&key_of(i, j)].as_ref().expect("found above")
    }) {
        Ok(g) => g,
        Err(e) => return Answer::none_because(TourReason::Bug(e)),
    };
    let x = match number(m, &grid, open_block.then_some((oi, oj)), x, run) {
        Ok(Some(x)) => x,
        Ok(None) => return Answer::default(),
        Err(e) => return Answer::none_because(TourReason::Bug(e)),
    };
    built_tour(
        m,
        x,
        BlockLayout::Grid {
            rows: rows.len(),
            cols: cols.len(),
        },
    )
}

/// The move numbers of the grid's tour, packed in square order, starting where the tour
/// must: at the open block `open` (its path's first square) on an odd board, else at the
/// given start or the top-left corner. `Ok(None)` when the run was stopped.
fn number(
    m: &Model,
    grid: &Grid,
    open: Option<(usize, usize)>,
    mut x: Packed,
    run: &mut Run,
) -> Result<Option<Packed>, TourBug> {
    let (w, h) = (grid.w, grid.h);
    let (rows, cols) = (&grid.rows, &grid.cols);
    // The squares that set the final numbering: the open block's path ends, or where
    // the tour is to start (else the top-left corner, which the walk numbers 0).
    let open_ends = open.map(|(oi, oj)| {
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
        walked?;
    }
    let n = (w * h) as u64;
    // The walk numbers the tour as a cycle; the open block's path counts as closed by a
    // virtual move from its last square back to its first, which no join touches. Turn
    // the numbers so that the start (the path's first square, or the given start) is 0,
    // and on an odd board run them away from the path's last square.
    let zero = found[0];
    let down = open_ends.is_some() && (found[0] + 1) % n == found[1];
    let turn = Turn { n, zero, down };
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
    walked?;
    Ok((!stopped).then_some(x))
}

/// The answer: the tour `x` as packed move numbers, and how it was built (`layout`) with
/// why a tour exists.
fn built_tour(m: &Model, x: Packed, layout: BlockLayout) -> Answer {
    let mut a = Answer::count(1);
    a.compact = Some(x);
    a.notes.push(
        TourNote::Divided {
            layout,
            exists_by: m.existence.theorem(),
        }
        .into(),
    );
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
    ) -> Result<Grid<'a>, TourBug> {
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
                        if t.path.len() != t.w * t.h {
                            return Err(TourBug::BlockMissesSquares);
                        }
                        shapes.push(Shape::new(t, w));
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
    ) -> Result<(), TourBug> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed tour from `divide` passes the model's check, and the check catches a
    /// numbering broken in the packed array: two numbers swapped, a square left as the
    /// sentinel, an array too narrow for the board.
    #[test]
    fn packed_tours_are_checked() {
        use crate::engine::{Limits, Run};
        use crate::spec::{KindSpec, Overrides, Spec};
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
            let KindSpec::Tour(rules) = &spec.rules else {
                panic!("a tour puzzle");
            };
            let m = Model::compile(&spec, rules).unwrap();
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
                let start: usize = p[..odd[0]].iter().sum();
                assert!(start <= at && at < start + p[odd[0]], "{n} {at}: {p:?}");
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
