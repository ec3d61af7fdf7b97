//! Handing complete solutions to the run, shared by the kinds: under `--unique` only the
//! representative of each class under the board's symmetries goes on, and a run reports it
//! one by one or only counts it ([`Run::report`]).

use crate::engine::{Run, Task};

/// Placements of pieces (sets of squares), reported sorted, one per class under `--unique`.
pub struct Placements<'m> {
    unique: bool,
    symmetries: &'m [Vec<u32>],
    sorted: Vec<usize>,
    buf: Vec<usize>,
}

impl<'m> Placements<'m> {
    /// For a board whose symmetries permute its `squares` squares.
    pub fn new(symmetries: &'m [Vec<u32>], squares: usize, task: &Task) -> Placements<'m> {
        Placements {
            unique: task.unique,
            symmetries,
            sorted: Vec::with_capacity(squares),
            buf: Vec::with_capacity(squares),
        }
    }

    /// The placement sorted; `None` under `--unique` when another of its class stands for it.
    pub fn canonical(&mut self, squares: &[usize]) -> Option<&[usize]> {
        self.sorted.clear();
        self.sorted.extend_from_slice(squares);
        self.sorted.sort_unstable();
        if self.unique && !crate::board::is_canonical(&self.sorted, self.symmetries, &mut self.buf)
        {
            return None;
        }
        Some(&self.sorted)
    }

    /// Report one placement; `true` means stop.
    pub fn emit(&mut self, run: &mut Run, squares: &[usize]) -> bool {
        match self.canonical(squares) {
            Some(sorted) => run.report(sorted),
            None => false,
        }
    }
}
