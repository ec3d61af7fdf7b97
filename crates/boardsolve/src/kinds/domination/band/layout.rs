//! The fixed layout of the band bound, built once per model: the rows cut into bands, each
//! band's candidates column by column (a candidate as one band sees it is a slot), the
//! slots of each square, and the square under each position of a band's window. Nothing
//! here changes from one node to the next; what a node sets is in `split`.
//!
//! A band of height h and a piece that reaches R columns either side: while column j is
//! decided the window holds columns j-R..j+R of the band, `(2R + 1) h` bits, which must fit
//! a u32 (R <= 2 and h <= 6).

use super::super::model::Model;

/// How far a piece may reach, in rows and in columns, for the bands to apply.
const MAX_REACH: usize = 2;

/// A candidate as one band sees it.
#[derive(Clone, Copy)]
pub struct Step {
    pub sq: u32,
    /// The band squares it covers, as bits of the window at its column.
    pub mask: u32,
}

pub struct Band {
    pub top: usize,
    pub height: usize,
    /// The steps of column j: `col_start[j]..col_start[j + 1]` (indices into `steps`, which
    /// are also the steps' slots in the split).
    pub col_start: Vec<usize>,
}

pub struct Layout {
    pub width: usize,
    pub reach: usize,
    pub bands: Vec<Band>,
    pub steps: Vec<Step>,
    /// The slots (steps) of each square, by square: `occ[occ_start[s]..occ_start[s + 1]]`.
    pub occ_start: Vec<usize>,
    pub occ: Vec<u32>,
    /// The square under each window position, by band and column: `n` off the board.
    pub win_sq: Vec<u32>,
    pub win_bits: usize,
}

impl Layout {
    /// Bands of at most `rows` rows. `None` where a piece reaches more than two rows or
    /// columns (riders, camels): the window would not fit a word.
    pub fn new(m: &Model, rows: usize) -> Option<Layout> {
        let b = &m.board;
        let (width, height) = (b.width, b.height);
        let n = b.squares();
        let (mut reach, mut reach_rows) = (0, 0);
        for &s in &m.cells {
            let (r, c) = b.row_col(s);
            for t in crate::util::ones(m.cover.row(s)) {
                let (rt, ct) = b.row_col(t);
                reach = reach.max(c.abs_diff(ct));
                reach_rows = reach_rows.max(r.abs_diff(rt));
            }
        }
        if reach > MAX_REACH || reach_rows > MAX_REACH {
            return None;
        }
        // As few bands as `rows` allow, as even as can be (with 5: 20 is 4 x 5; 18 is 5, 5, 4, 4).
        let count = height.div_ceil(rows).max(1);
        let heights: Vec<usize> = (0..count)
            .map(|i| height / count + usize::from(i < height % count))
            .collect();
        let hmax = *heights.iter().max().expect("one band at least");
        let win_bits = (2 * reach + 1) * hmax;
        if win_bits > 32 {
            return None;
        }
        let mut bands = Vec::new();
        let mut steps = Vec::new();
        let mut win_sq = Vec::new();
        let mut top = 0usize;
        for &h in &heights {
            let mut col_start = vec![steps.len()];
            for j in 0..width {
                let rows = top.saturating_sub(reach_rows)..(top + h + reach_rows).min(height);
                for r in rows {
                    let s = b.index(r, j);
                    if b.is_hole(s) {
                        continue;
                    }
                    let mut mask = 0u32;
                    for t in crate::util::ones(m.cover.row(s)) {
                        let (rt, ct) = b.row_col(t);
                        if rt >= top && rt < top + h {
                            mask |= 1 << ((ct + reach - j) * h + rt - top);
                        }
                    }
                    if mask != 0 {
                        steps.push(Step { sq: s as u32, mask });
                    }
                }
                // Those that cover squares of column j - R first: after them a state that
                // still leaves one uncovered is dead, and the others skip it.
                let low = (1u32 << h) - 1;
                steps[col_start[j]..].sort_by_key(|st| st.mask & low == 0);
                col_start.push(steps.len());
                for pos in 0..win_bits {
                    let (dc, r) = (pos / h, top + pos % h);
                    let sq = match (j + dc).checked_sub(reach) {
                        Some(c) if pos < (2 * reach + 1) * h && c < width => b.index(r, c),
                        _ => n,
                    };
                    win_sq.push(sq as u32);
                }
            }
            bands.push(Band {
                top,
                height: h,
                col_start,
            });
            top += h;
        }
        let mut per_sq = vec![Vec::new(); n];
        for (k, st) in steps.iter().enumerate() {
            per_sq[st.sq as usize].push(k as u32);
        }
        let mut occ_start = vec![0];
        let mut occ = Vec::new();
        for v in &per_sq {
            occ.extend_from_slice(v);
            occ_start.push(occ.len());
        }
        Some(Layout {
            width,
            reach,
            bands,
            steps,
            occ_start,
            occ,
            win_sq,
            win_bits,
        })
    }

    /// How many squares the slots are listed for (the board's).
    pub fn squares(&self) -> usize {
        self.occ_start.len() - 1
    }

    /// The slots of square `s`, as a range of `occ`.
    pub fn slots(&self, s: usize) -> std::ops::Range<usize> {
        self.occ_start[s]..self.occ_start[s + 1]
    }

    /// The squares under band `bi`'s window at column `j`, by position.
    pub fn window(&self, bi: usize, j: usize) -> &[u32] {
        &self.win_sq[(bi * self.width + j) * self.win_bits..][..self.win_bits]
    }
}
