//! The validator of a tiling: from the board and the pieces as the file gave them, not from
//! the problem the search ran on. Each placement must be its piece turned as allowed and
//! moved onto cells of the board; no two overlap; every cell is covered (but `leave` of them,
//! or any under `fill = "pack"`); each piece is used as often as its count allows.

use super::{BLANK, Model};
use crate::board::polyform::{self, Cell};
use crate::kinds::Violation;
use crate::spec::{Fill, PieceCount};

impl Model {
    pub fn check(&self, options: &[usize]) -> Result<(), Violation> {
        let b = &self.board;
        let mut covered = vec![false; b.cells.len()];
        let mut used = vec![0u64; self.pieces.len()];
        let mut blanks = 0;
        for &k in options {
            if k >= self.num_options() {
                return Err(Violation::NotAPlacement { option: k });
            }
            let (p, cells) = self.placement(k);
            for &c in cells {
                let c = c as usize;
                if c >= b.cells.len() || !b.cells[c] {
                    return Err(Violation::NotACell { cell: c });
                }
                if std::mem::replace(&mut covered[c], true) {
                    return Err(Violation::CoveredTwice { cell: c });
                }
            }
            if p == BLANK {
                if let [_, second, ..] = cells {
                    return Err(Violation::NotACell {
                        cell: *second as usize,
                    });
                }
                blanks += 1;
                continue;
            }
            let piece = &self.pieces[p as usize];
            used[p as usize] += 1;
            let placed: Vec<Cell> = cells
                .iter()
                .map(|&c| {
                    let c = c as usize;
                    [
                        (c % b.width) as i32,
                        (c / b.width % b.height) as i32,
                        (c / (b.width * b.height)) as i32,
                    ]
                })
                .collect();
            if !congruent(&piece.cells, &placed, self.space, piece.turns) {
                return Err(Violation::NotThePiece {
                    piece: piece.name.clone(),
                    cells: cells.iter().map(|&c| c as usize).collect(),
                });
            }
        }
        for (p, &n) in self.pieces.iter().zip(&used) {
            let ok = match p.count {
                PieceCount::Between(lo, hi) => (lo as u64..=hi as u64).contains(&n),
                PieceCount::Any => true,
            };
            if !ok {
                return Err(Violation::PieceUsed {
                    piece: p.name.clone(),
                    times: n,
                });
            }
        }
        let empty = (0..b.cells.len())
            .filter(|&i| b.cells[i] && !covered[i])
            .count();
        if blanks != self.leave {
            return Err(Violation::EmptyCells {
                marked: blanks,
                leave: self.leave,
            });
        }
        if self.fill == Fill::Exact && empty > 0 {
            return Err(Violation::CellsUncovered { cells: empty });
        }
        Ok(())
    }
}

/// Whether `placed` is `shape` under one of the turns allowed, moved.
fn congruent(shape: &[Cell], placed: &[Cell], space: bool, turns: polyform::Turns) -> bool {
    if shape.len() != placed.len() {
        return false;
    }
    let mut target = placed.to_vec();
    polyform::normalize(&mut target);
    polyform::turns(space, turns).iter().any(|t| {
        let mut img: Vec<Cell> = shape.iter().map(|&c| t.apply(c)).collect();
        polyform::normalize(&mut img);
        img == target
    })
}
