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
        // Each group of cells must hold its symbols once: rows, columns, regions, diagonals
        // (which then hold every symbol) and cages. Marks as bits, nothing allocated per row.
        let twice = |cells: &mut dyn Iterator<Item = usize>| -> Result<(), Violation> {
            let mut seen = 0u64;
            let mut at = [usize::MAX; 64];
            for c in cells {
                let s = solution[c];
                if seen & (1 << s) != 0 {
                    return Err(Violation::SymbolTwice { a: at[s], b: c });
                }
                seen |= 1 << s;
                at[s] = c;
            }
            Ok(())
        };
        for i in 0..n {
            twice(&mut (0..n).map(|j| i * n + j))?;
            twice(&mut (0..n).map(|j| j * n + i))?;
        }
        if let Some(regions) = &g.regions {
            for r in 0..n {
                twice(&mut (0..n * n).filter(|&c| regions[c] as usize == r))?;
            }
        }
        if g.diagonals {
            twice(&mut (0..n).map(|i| i * n + i))?;
            twice(&mut (0..n).map(|i| i * n + n - 1 - i))?;
        }
        for cage in &g.cages {
            twice(&mut cage.cells.iter().copied())?;
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
