//! Known answers for the Dancing Links core: Knuth's N-Queens figures, the pentominoes,
//! a sudoku, and the cover puzzle files shipped in puzzles/.

use boardsolve::dlx::{Problem, Solver, is_solution};
use boardsolve::engine::{Limits, Run, Stats};
use std::ops::ControlFlow;

mod instances {
    use boardsolve::dlx::Problem;
    include!("../common/cover_instances.rs");
}

fn count(p: &Problem) -> Stats {
    let mut run = Run::new(Limits::default());
    Solver::new(p).search(&mut run);
    run.stats
}

fn solutions(p: &Problem) -> Vec<Vec<usize>> {
    let mut sols = Vec::new();
    {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            sols.push(s.to_vec());
            ControlFlow::Continue(())
        }));
        Solver::new(p).search(&mut run);
    }
    for s in &sols {
        assert!(is_solution(p, s), "invalid solution {s:?}");
    }
    sols
}

#[test]
fn queens_nodes_and_updates_match_dlx1() {
    // Knuth's DLX1 on his queens generator's data (rows and columns from the centre out).
    for (n, solutions, nodes, updates) in [
        (8, 92, 1_049, 16_680),
        (10, 724, 11_578, 198_264),
        (12, 14_200, 211_716, 3_594_752),
    ] {
        let stats = count(&instances::queens(n));
        assert_eq!(stats.solutions, solutions, "N = {n}");
        assert_eq!(stats.nodes, nodes, "N = {n}");
        assert_eq!(stats.counter("updates"), Some(updates), "N = {n}");
    }
}

#[test]
fn queens_solutions_are_valid_placements() {
    let p = instances::queens(8);
    let sols = solutions(&p);
    assert_eq!(sols.len(), 92);
    for s in &sols {
        // Option k is the square (k / 8, k % 8): one per row and column, no shared diagonal.
        let sq: Vec<(i32, i32)> = s
            .iter()
            .map(|&k| ((k / 8) as i32, (k % 8) as i32))
            .collect();
        for (a, &(r1, c1)) in sq.iter().enumerate() {
            for &(r2, c2) in &sq[a + 1..] {
                assert!(r1 != r2 && c1 != c2 && (r1 - r2).abs() != (c1 - c2).abs());
            }
        }
    }
}

#[test]
fn pentominoes_6x10_x_in_one_quadrant() {
    let p = instances::pentominoes(6, 10, true);
    let sols = solutions(&p);
    assert_eq!(sols.len(), 2339);
}

/// A published sudoku (the example of Wikipedia's "Sudoku" article) and its solution.
const SUDOKU: &str =
    "53..7.... 6..195... .98....6. 8...6...3 4..8.3..1 7...2...6 .6....28. ...419..5 ....8..79";
const SUDOKU_SOLUTION: &str =
    "534678912 672195348 198342567 859761423 426853791 713924856 961537284 287419635 345286179";

#[test]
fn sudoku_has_its_published_solution() {
    let p = instances::sudoku(SUDOKU);
    let sols = solutions(&p);
    assert_eq!(sols.len(), 1);
    let mut grid = vec!['.'; 81];
    for &k in &sols[0] {
        // Each option is (cell p{r}{c}, r{r}{d}, ...): read the cell and the digit by name.
        let opt = p.option(k);
        let cell = p.item_name(opt[0].0);
        let row_digit = p.item_name(opt[1].0);
        let (r, c) = (cell.as_bytes()[1] - b'0', cell.as_bytes()[2] - b'0');
        grid[(r * 9 + c) as usize] = row_digit.chars().nth(2).unwrap();
    }
    let want: String = SUDOKU_SOLUTION.split_whitespace().collect();
    assert_eq!(grid.into_iter().collect::<String>(), want);
}
