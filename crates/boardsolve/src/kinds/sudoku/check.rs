//! The kind's validator: a grid is checked against the rules as the file states them (every
//! row, column, region and diagonal holds each symbol once, the givens stand, each cage's
//! symbols differ and add up to its sum), computed here from the regions' map, not from the
//! units and peers the strategies search with.

use super::Model;
use crate::kinds::Violation;

impl Model {
    pub fn check(&self, solution: &[usize]) -> Result<(), Violation> {
        let g = &self.grid;
        let n = g.n;
        if solution.len() != n * n {
            return Err(Violation::EntryCount {
                entries: solution.len(),
                squares: n * n,
            });
        }
        if let Some(cell) = solution.iter().position(|&s| s >= n) {
            return Err(Violation::SymbolBeyond {
                cell,
                symbol: solution[cell],
                symbols: n,
            });
        }
        if let Some(cell) =
            (0..n * n).find(|&c| self.givens[c] != 0 && solution[c] + 1 != self.givens[c] as usize)
        {
            return Err(Violation::GivenChanged { cell });
        }
        // Each group of cells, and whether it must hold every symbol (rows, columns,
        // regions, diagonals) or only different ones (cages).
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            groups.push((0..n).map(|j| i * n + j).collect());
            groups.push((0..n).map(|j| j * n + i).collect());
        }
        if let Some(regions) = &g.regions {
            for r in 0..n {
                groups.push((0..n * n).filter(|&c| regions[c] as usize == r).collect());
            }
        }
        if g.diagonals {
            groups.push((0..n).map(|i| i * n + i).collect());
            groups.push((0..n).map(|i| i * n + n - 1 - i).collect());
        }
        groups.extend(g.cages.iter().map(|c| c.cells.clone()));
        for cells in &groups {
            let mut at = vec![usize::MAX; n];
            for &c in cells {
                let s = solution[c];
                if at[s] != usize::MAX {
                    return Err(Violation::SymbolTwice { a: at[s], b: c });
                }
                at[s] = c;
            }
        }
        for (k, cage) in g.cages.iter().enumerate() {
            let sum: usize = cage.cells.iter().map(|&c| solution[c] + 1).sum();
            if sum != cage.sum as usize {
                return Err(Violation::CageSum {
                    cage: k,
                    sum,
                    expected: cage.sum as usize,
                });
            }
        }
        Ok(())
    }
}
