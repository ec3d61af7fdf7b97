//! The compiled model of a lines puzzle: the board, the colours, and every geometric line
//! through three or more grid points.
//!
//! # Lines and holes
//!
//! A line is a geometric line through grid points, of any rational slope: on 6x6 the slopes
//! 0, infinity, +-1, +-2 and +-1/2 hold three points (58 lines), on larger boards 1/3, 2/3
//! and so on join in. A hole takes no stone but does not cut a line: the three stones of
//! `X # X X` are on one line. (Holes cut a rook's ride because a rook moves; these lines are
//! geometry.) A line whose squares, holes left out, number at most `max_per_line` can never
//! be overfull and constrains nothing; the strategies look only at the others, the *active*
//! lines.
//!
//! # Solutions
//!
//! A solution, as strategies report it, has one entry per square of the board (holes
//! included): 0 for no stone, `c + 1` for a stone of colour `c`.

use super::vocab::LinesReason;
use crate::board::Board;
use crate::engine::{Run, Task};
use crate::kinds::{ModelSummary, Picture, Violation};
use crate::spec::{Kind, LinesSpec, Spec, SpecError};

/// Boards beyond this many squares are refused up front: the lines grow as the fourth power
/// of the side, and no search finishes there anyway.
pub const MAX_SQUARES: usize = Kind::Lines.max_squares();

/// At most this many colours (their letters: X, O, then A, B, ...).
pub const MAX_COLORS: usize = 16;

pub struct Model {
    pub board: Board,
    pub colors: Vec<String>,
    pub per_color: usize,
    /// As given; a line can never hold more than its own squares anyway.
    pub max_per_line: usize,
    /// Every line through three or more grid points, as its grid points in order (holes
    /// included).
    pub lines: Vec<Vec<usize>>,
    /// The lines that can be overfull (more than `max_per_line` squares that are not holes).
    pub active: Vec<usize>,
    /// `line_of_row[r]`: the line that is row r, when rows hold three or more points.
    pub line_of_row: Vec<Option<usize>>,
    pub line_of_col: Vec<Option<usize>>,
    /// `row_quota[r] = (lo, hi)`: stones of each colour row r must and may hold, from the
    /// totals: hi is `max_per_line` (when rows are lines) or the row's squares, lo what the
    /// other rows cannot take.
    pub row_quota: Vec<(usize, usize)>,
    pub col_quota: Vec<(usize, usize)>,
    pub symmetries: Vec<Vec<u32>>,
    /// The inverse of each symmetry: `inverse[g][t]` is the square g sends to t.
    pub inverse: Vec<Vec<u32>>,
    /// Why no placement exists, when the totals alone prove it.
    pub infeasible: Option<LinesReason>,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// Every line through three or more points of a width x height grid, each as its points
/// (row-major square indices) in order along the line.
pub fn grid_lines(width: usize, height: usize) -> Vec<Vec<usize>> {
    let (w, h) = (width as i64, height as i64);
    let mut out = Vec::new();
    // One primitive direction per line family: (dc, dr) with dc > 0, or (0, 1).
    let mut dirs = vec![(0i64, 1i64)];
    for dc in 1..w {
        for dr in -(h - 1)..h {
            if gcd(dc, dr) == 1 {
                dirs.push((dc, dr));
            }
        }
    }
    for (dc, dr) in dirs {
        // Three points span two steps.
        if 2 * dc > w - 1 || 2 * dr.abs() > h - 1 {
            continue;
        }
        for r in 0..h {
            for c in 0..w {
                let (pr, pc) = (r - dr, c - dc);
                if pr >= 0 && pr < h && pc >= 0 && pc < w {
                    continue; // not the first point of its line
                }
                let mut pts = Vec::new();
                let (mut rr, mut cc) = (r, c);
                while rr >= 0 && rr < h && cc >= 0 && cc < w {
                    pts.push((rr * w + cc) as usize);
                    rr += dr;
                    cc += dc;
                }
                if pts.len() >= 3 {
                    out.push(pts);
                }
            }
        }
    }
    out
}

/// Per row (or column) quota `(lo, hi)` for one colour, given each line's capacity.
fn quotas(caps: &[usize], per_color: usize) -> Vec<(usize, usize)> {
    let total: usize = caps.iter().sum();
    caps.iter()
        .map(|&cap| {
            let others = total - cap;
            (per_color.saturating_sub(others), cap.min(per_color))
        })
        .collect()
}

impl Model {
    pub fn compile(spec: &Spec, r: &LinesSpec) -> Result<Model, SpecError> {
        let board = spec.board().clone();
        let colors: Vec<String> = match &r.colors {
            None => vec!["black".into(), "white".into()],
            Some(list) => {
                let mut out: Vec<String> = Vec::new();
                for c in list.get_ref() {
                    let name = c.get_ref().trim();
                    if name.is_empty() {
                        return Err(spec.err(
                            c.span(),
                            "rules.colors",
                            "a colour needs a name; accepted: non-empty names".into(),
                        ));
                    }
                    if out.iter().any(|o| o == name) {
                        return Err(spec.err(
                            c.span(),
                            "rules.colors",
                            format!("colour \"{name}\" is listed twice"),
                        ));
                    }
                    out.push(name.to_string());
                }
                if out.is_empty() || out.len() > MAX_COLORS {
                    return Err(spec.err(
                        list.span(),
                        "rules.colors",
                        format!("{} colours; accepted: 1 to {MAX_COLORS} names", out.len()),
                    ));
                }
                out
            }
        };
        let cells = board.cell_count();
        let per_color = match &r.per_color {
            None => {
                return Err(spec.err_nowhere(
                    "rules.per_color",
                    format!(
                        "missing: how many stones of each colour to place; accepted: 1 to {cells}"
                    ),
                ));
            }
            Some(p) => {
                let v = *p.get_ref();
                if v < 1 || v as usize > cells {
                    return Err(spec.err(
                        p.span(),
                        "rules.per_color",
                        format!(
                            "{v} stones of a colour on a board of {cells} squares; accepted: 1 to {cells}"
                        ),
                    ));
                }
                v as usize
            }
        };
        let max_per_line = match &r.max_per_line {
            None => 2,
            Some(k) => {
                let v = *k.get_ref();
                if !(1..=1000).contains(&v) {
                    return Err(spec.err(
                        k.span(),
                        "rules.max_per_line",
                        format!("{v}: accepted: 1 to 1000 stones of one colour on a line"),
                    ));
                }
                v as usize
            }
        };
        let (w, h) = (board.width, board.height);
        let lines = grid_lines(w, h);
        let holes_on = |l: &Vec<usize>| l.iter().filter(|&&s| !board.is_hole(s)).count();
        let active: Vec<usize> = (0..lines.len())
            .filter(|&i| holes_on(&lines[i]) > max_per_line)
            .collect();
        let mut line_of_row = vec![None; h];
        let mut line_of_col = vec![None; w];
        for (i, l) in lines.iter().enumerate() {
            let (a, b) = (l[0], l[1]);
            if b == a + 1 {
                line_of_row[a / w] = Some(i);
            } else if b == a + w {
                line_of_col[a % w] = Some(i);
            }
        }
        let row_cells: Vec<usize> = (0..h)
            .map(|r| (0..w).filter(|&c| !board.is_hole(r * w + c)).count())
            .collect();
        let col_cells: Vec<usize> = (0..w)
            .map(|c| (0..h).filter(|&r| !board.is_hole(r * w + c)).count())
            .collect();
        let cap = |n: usize, is_line: bool| if is_line { n.min(max_per_line) } else { n };
        let row_caps: Vec<usize> = (0..h).map(|r| cap(row_cells[r], w >= 3)).collect();
        let col_caps: Vec<usize> = (0..w).map(|c| cap(col_cells[c], h >= 3)).collect();
        let k = colors.len();
        let mut infeasible = None;
        if k * per_color > cells {
            infeasible = Some(LinesReason::StonesExceedSquares {
                colours: k,
                per_colour: per_color,
                squares: cells,
            });
        } else if w >= 3 && per_color > row_caps.iter().sum::<usize>() {
            infeasible = Some(LinesReason::StonesExceedLines {
                per_colour: per_color,
                lines: h,
                columns: false,
                max_per_line,
                room: row_caps.iter().sum::<usize>(),
            });
        } else if h >= 3 && per_color > col_caps.iter().sum::<usize>() {
            infeasible = Some(LinesReason::StonesExceedLines {
                per_colour: per_color,
                lines: w,
                columns: true,
                max_per_line,
                room: col_caps.iter().sum::<usize>(),
            });
        }
        let symmetries = board.symmetries();
        let inverse = symmetries
            .iter()
            .map(|perm| {
                let mut inv = vec![0u32; perm.len()];
                for (s, &t) in perm.iter().enumerate() {
                    inv[t as usize] = s as u32;
                }
                inv
            })
            .collect();
        Ok(Model {
            symmetries,
            inverse,
            row_quota: quotas(&row_caps, per_color),
            col_quota: quotas(&col_caps, per_color),
            board,
            colors,
            per_color,
            max_per_line,
            lines,
            active,
            line_of_row,
            line_of_col,
            infeasible,
        })
    }

    pub fn num_colors(&self) -> usize {
        self.colors.len()
    }

    /// `k` as the search uses it: a count a line can never exceed is no limit.
    pub fn limit(&self) -> usize {
        self.max_per_line
            .min(self.board.width.max(self.board.height))
    }

    /// For each square, the active lines through it.
    pub fn lines_through(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.board.squares()];
        for &i in &self.active {
            for &s in &self.lines[i] {
                if !self.board.is_hole(s) {
                    out[s].push(i);
                }
            }
        }
        out
    }

    /// A solution is valid: one entry per square, no stone on a hole, `per_color` stones of
    /// each colour, and no line with more than `max_per_line` of one colour.
    pub fn check(&self, sol: &[usize]) -> Result<(), Violation> {
        let n = self.board.squares();
        let k = self.num_colors();
        if sol.len() != n {
            return Err(Violation::EntryCount {
                entries: sol.len(),
                squares: n,
            });
        }
        let mut counts = vec![0usize; k];
        for (s, &v) in sol.iter().enumerate() {
            if v > k {
                return Err(Violation::ColourBeyond {
                    square: s,
                    colour: v,
                    colours: k,
                });
            }
            if v > 0 {
                if self.board.is_hole(s) {
                    return Err(Violation::StoneOnHole { square: s });
                }
                counts[v - 1] += 1;
            }
        }
        for (c, &n) in counts.iter().enumerate() {
            if n != self.per_color {
                return Err(Violation::StoneCount {
                    colour: self.colors[c].clone(),
                    stones: n,
                    per_colour: self.per_color,
                });
            }
        }
        for l in &self.lines {
            for c in 1..=k {
                let on = l.iter().filter(|&&s| sol[s] == c).count();
                if on > self.max_per_line {
                    return Err(Violation::LineOverfull {
                        stones: on,
                        colour: self.colors[c - 1].clone(),
                        line: l.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn picture(&self, sol: &[usize]) -> Picture {
        Picture::Stones {
            width: self.board.width,
            height: self.board.height,
            holes: self.board.hole_map(),
            stones: sol.to_vec(),
            colors: self.colors.clone(),
        }
    }

    pub fn describe(&self) -> ModelSummary {
        ModelSummary::Lines {
            per_color: self.per_color,
            colors: self.colors.clone(),
            width: self.board.width,
            height: self.board.height,
            max_per_line: self.max_per_line,
            lines: self.lines.len(),
            active: self.active.len(),
        }
    }

    /// Whether `sol` is the lexicographically smallest of its images under the symmetries.
    pub fn is_canonical(&self, sol: &[usize]) -> bool {
        self.orbit_if_canonical(sol).is_some()
    }

    /// When `sol` is the smallest of its images, the number of distinct images (|G| over
    /// the symmetries that fix it); `None` otherwise. Each image is compared square by square
    /// as it is read, so most stop at their first squares.
    pub fn orbit_if_canonical(&self, sol: &[usize]) -> Option<usize> {
        let mut fixed = 1;
        for inv in &self.inverse[1..] {
            // The image holds sol[inv[j]] at square j.
            let first_difference = inv
                .iter()
                .zip(sol)
                .map(|(&from, &here)| sol[from as usize].cmp(&here))
                .find(|o| o.is_ne());
            match first_difference {
                Some(std::cmp::Ordering::Less) => return None,
                Some(_) => {}
                None => fixed += 1,
            }
        }
        Some(self.symmetries.len() / fixed)
    }
}

/// The image of `sol` under the square permutation `perm`.
#[inline]
pub fn apply(perm: &[u32], sol: &[usize], out: &mut [usize]) {
    for (s, &v) in sol.iter().enumerate() {
        out[perm[s] as usize] = v;
    }
}

/// Reports complete placements, filtering to one per symmetry class under `--unique`.
pub struct Emitter<'m> {
    m: &'m Model,
    unique: bool,
}

impl<'m> Emitter<'m> {
    pub fn new(m: &'m Model, task: &Task) -> Emitter<'m> {
        Emitter {
            m,
            unique: task.unique,
        }
    }

    /// Report one placement (colour + 1 per square); `true` means stop.
    #[inline]
    pub fn emit(&mut self, run: &mut Run, sol: &[usize]) -> bool {
        if self.unique && !self.m.is_canonical(sol) {
            return false;
        }
        run.report(sol)
    }
}

/// What the row-by-row strategies share: how many stones of a colour a row may take, and
/// the lines each square's stone counts on besides its own row (a row's count is kept by the
/// row's quota, and no other line meets a row twice).
pub struct RowPlan {
    /// Per row: at most this many stones of one colour.
    pub cap: Vec<usize>,
    /// `cap_after[r]`: the most stones of one colour rows after r can still take.
    pub cap_after: Vec<usize>,
    pub through: Vec<Vec<u32>>,
}

impl RowPlan {
    pub fn new(m: &Model) -> RowPlan {
        let h = m.board.height;
        let cap: Vec<usize> = m.row_quota.iter().map(|q| q.1).collect();
        let mut cap_after = vec![0; h];
        for r in (0..h.saturating_sub(1)).rev() {
            cap_after[r] = cap_after[r + 1] + cap[r + 1];
        }
        let through = m
            .lines_through()
            .into_iter()
            .enumerate()
            .map(|(sq, ls)| {
                let own = m.line_of_row[sq / m.board.width];
                ls.into_iter()
                    .filter(|&l| Some(l) != own)
                    .map(|l| l as u32)
                    .collect()
            })
            .collect();
        RowPlan {
            cap,
            cap_after,
            through,
        }
    }

    /// Stones of one colour row `r` must and may take when `need` are still to place.
    #[inline]
    pub fn range(&self, r: usize, need: usize) -> (usize, usize) {
        (
            need.saturating_sub(self.cap_after[r]),
            self.cap[r].min(need),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_by_six_has_58_lines() {
        assert_eq!(grid_lines(6, 6).len(), 58);
        assert_eq!(grid_lines(3, 3).len(), 8);
        assert_eq!(grid_lines(2, 5).len(), 2);
    }

    #[test]
    fn quotas_follow_the_totals() {
        assert_eq!(quotas(&[2; 6], 12), vec![(2, 2); 6]);
        assert_eq!(quotas(&[2; 6], 11), vec![(1, 2); 6]);
        assert_eq!(quotas(&[2; 6], 3), vec![(0, 2); 6]);
    }
}
