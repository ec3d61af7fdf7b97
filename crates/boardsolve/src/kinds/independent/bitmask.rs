//! `bitmask`: the squares still available as a bitset in machine words, one copy per level of
//! a preallocated stack, so placing a piece is a few AND-NOTs and no allocation. For N-Queens
//! proper it uses the classic shifted-diagonal form (columns and both diagonals as three words
//! shifted one bit per row), and for counting the border-constellation counter with full
//! 8-fold symmetry in `queens`.

use super::{Aim, Model, Whole};
use crate::engine::split::{self, Cut, Expand, Fingerprint};
use crate::engine::{Answer, Goal, PartialWork, Run, Task};
use crate::kinds::CountNote;
use crate::kinds::report::Placements;
use crate::kinds::{Strategy, parts};

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "available squares as bitsets in machine words; queens by shifted diagonals and symmetry"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        m.no_army()?;
        m.whole_board()?;
        super::largest_fits(m, task, true, true)?;
        parts::counts_or(task, &[Goal::Maximize])
    }
    fn splits(&self) -> bool {
        true
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if m.largest && task.goal == Goal::Count && task.part.is_none() {
            return super::count_largest(m, task, run, |m, task, run| self.solve(m, task, run));
        }
        let n = m.board.width;
        if m.is_full_queens() && task.goal == Goal::Count && n <= super::queens::MAX_N {
            // A part's classes need not be whole eighths of its constellations' Burnside
            // sums, so `--unique` parts count classes one by one in the row search.
            if task.part.is_none() {
                return queens_count(m, task, run);
            }
            if !task.unique && n >= 4 {
                let mut a = super::queens::count_part(n, task, run);
                a.notes.push(CountNote::SymmetryFold(8).into());
                return a;
            }
        }
        if m.is_full_queens() && n <= 64 && task.goal != Goal::Maximize {
            return queens_rows(m, task, run);
        }
        let maximize = task.goal == Goal::Maximize;
        let whole = m.whole();
        let w = whole.attacks.words_per_row();
        let mut init = vec![0u64; w];
        for &s in &whole.cells {
            init[s >> 6] |= 1 << (s & 63);
        }
        let mut cell_of = vec![0u32; m.board.squares()];
        for (i, &s) in whole.cells.iter().enumerate() {
            cell_of[s] = i as u32;
        }
        if task.part.is_some() {
            return part(m, task, run, &cell_of, &init);
        }
        let parallel = task.threads > 1 && !run.wants_solutions() && !maximize;
        if !parallel {
            let mut s = Search::new(m, task, &cell_of, &init);
            s.go(0, run);
            return s.aim.answer();
        }
        // Share the first piece's squares out to the workers; each subtree is independent.
        let firsts: Vec<usize> = whole
            .cells
            .iter()
            .enumerate()
            .filter(|&(i, _)| whole.cap_from[i] >= m.count)
            .map(|(_, &s)| s)
            .collect();
        run.share_out(&firsts, task.threads, |&first, child| {
            let mut level1 = init.clone();
            let row = whole.attacks.row(first);
            for (j, word) in level1.iter_mut().enumerate() {
                // Squares up to `first` were tried as the first piece elsewhere.
                let below = if first >> 6 > j {
                    !0
                } else if first >> 6 == j {
                    (2u64 << (first & 63)).wrapping_sub(1)
                } else {
                    0
                };
                *word &= !row[j] & !below;
            }
            let mut s = Search::new(m, task, &cell_of, &level1);
            s.placed.push(first);
            if !child.node() {
                s.go(1, child);
            }
        });
        Answer::default()
    }
}

/// A node of the general search: the pieces placed and the squares still available to the
/// next one (those past the squares its siblings before it took, and attacked by none).
struct Node {
    placed: Vec<usize>,
    avail: Vec<u64>,
}

/// The part's subtrees of the general search, each searched by `go` from its node.
fn part(m: &Model, task: &Task, run: &mut Run, cell_of: &[u32], init: &[u64]) -> Answer {
    // Maximize lists every placement: no bar prunes the list, which all parts cut alike. So
    // does a count of the largest placements, whose size each part finds in its subtrees.
    let maximize = task.goal == Goal::Maximize || m.largest;
    let target = if maximize { 0 } else { m.count };
    let whole = m.whole();
    let expand = |n: &Node, _: &mut Run| {
        let k = n.placed.len();
        if k == target && !maximize {
            return Expand::Leaf;
        }
        // As `go` branches: the lowest available square first, with its capacity cut.
        let mut cur = n.avail.clone();
        let mut children = Vec::new();
        while let Some(j) = cur.iter().position(|&x| x != 0) {
            let s = j * 64 + cur[j].trailing_zeros() as usize;
            let avail: usize = cur[j..].iter().map(|x| x.count_ones() as usize).sum();
            if k + avail.min(whole.cap_from[cell_of[s] as usize]) < target {
                break;
            }
            cur[j] &= cur[j] - 1;
            let row = whole.attacks.row(s);
            let mut placed = n.placed.clone();
            placed.push(s);
            children.push(Node {
                placed,
                avail: cur.iter().zip(row).map(|(&c, &r)| c & !r).collect(),
            });
        }
        if maximize && children.is_empty() {
            // A placement that takes no more pieces: a candidate for the largest.
            return Expand::Leaf;
        }
        Expand::Children(children)
    };
    let root = Node {
        placed: Vec::new(),
        avail: init.to_vec(),
    };
    let Some(cut) = split::cut(task, run, root, None, expand, |n, f| key(&n.placed, f)) else {
        return Answer::default();
    };
    if task.goal == Goal::Maximize {
        return largest_in_part(m, task, run, cell_of, cut);
    }
    if maximize {
        return largest_counted_in_part(m, task, run, cell_of, cut);
    }
    parts::count_part(task, run, cut, |n, run| {
        // The node's own piece is a node of the search, as `go` counts it before entering.
        if !n.placed.is_empty() && run.node() {
            return;
        }
        let mut s = Search::new(m, task, cell_of, &n.avail);
        s.placed.extend_from_slice(&n.placed);
        s.go(0, run);
    })
}

/// Goal maximize in a part: its subtrees searched one after another, each above the largest
/// placement the part has found so far; the part proves none larger than its best.
fn largest_in_part(
    m: &Model,
    task: &Task,
    run: &mut Run,
    cell_of: &[u32],
    cut: Cut<Node>,
) -> Answer {
    let mut best = largest_of(m, task, run, cell_of, &cut.nodes);
    run.nodes(parts::nodes_above(task, cut.above));
    let v = best.len() as u64;
    best.sort_unstable();
    Answer {
        optimum: Some(v),
        best: (!best.is_empty()).then_some(best),
        partial: Some(cut.finish(run, PartialWork::SearchedAbove { none_above: v })),
        ..Answer::default()
    }
}

/// Goal count without a count, in a part: the largest placement in its subtrees (as goal
/// maximize finds it), then the placements of that size in them counted. Every placement
/// lies in one subtree of one part, so the largest of the parts' sizes is the whole
/// search's, and the counts of the parts that reach it add up to its count (merge).
fn largest_counted_in_part(
    m: &Model,
    task: &Task,
    run: &mut Run,
    cell_of: &[u32],
    cut: Cut<Node>,
) -> Answer {
    let maximize = Task {
        goal: Goal::Maximize,
        ..*task
    };
    let mut best = largest_of(m, &maximize, run, cell_of, &cut.nodes);
    let k = best.len();
    if k > 0 && !run.is_stopped() {
        let at_k = m.at_count(k);
        parts::search_part(task, run, &cut.nodes, |n, run| {
            // As `count_part`: the node's own piece is a node of the search.
            if !n.placed.is_empty() && run.node() {
                return;
            }
            let mut s = Search::new(&at_k, task, cell_of, &n.avail);
            s.placed.extend_from_slice(&n.placed);
            s.go(0, run);
        });
    }
    run.nodes(parts::nodes_above(task, cut.above));
    best.sort_unstable();
    let largest = k as u64;
    Answer {
        count: Some(run.stats.solutions),
        optimum: Some(largest),
        best: (!best.is_empty()).then_some(best),
        notes: vec![CountNote::LargestCounted(largest).into()],
        partial: Some(cut.finish(run, PartialWork::CountedLargest { largest })),
        ..Answer::default()
    }
}

/// The largest placement in `nodes`' subtrees, each searched above the largest found before
/// it (goal maximize); the largest found so far when a limit stops the run.
fn largest_of(
    m: &Model,
    task: &Task,
    run: &mut Run,
    cell_of: &[u32],
    nodes: &[Node],
) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::new();
    for n in nodes {
        if !n.placed.is_empty() && run.node() {
            break;
        }
        let mut s = Search::new(m, task, cell_of, &n.avail);
        s.placed.extend_from_slice(&n.placed);
        s.aim.at_least(best.len() + 1);
        let stopped = s.go(0, run);
        if s.aim.best().len() > best.len() {
            best = s.aim.best().to_vec();
        }
        if stopped {
            break;
        }
    }
    best
}

/// A node's decisions, for the list's fingerprint: the squares of the pieces placed.
fn key(placed: &[usize], f: &mut Fingerprint) {
    f.eat(placed.len() as u64);
    for &s in placed {
        f.eat(s as u64);
    }
}

struct Search<'m> {
    whole: &'m Whole,
    w: usize,
    cell_of: &'m [u32],
    /// Level d's available squares at `stack[d * w..(d + 1) * w]`.
    stack: Vec<u64>,
    placed: Vec<usize>,
    aim: Aim<'m>,
}

impl<'m> Search<'m> {
    fn new(m: &'m Model, task: &Task, cell_of: &'m [u32], init: &[u64]) -> Search<'m> {
        let w = init.len();
        let whole = m.whole();
        let maximize = task.goal == Goal::Maximize;
        let levels = if maximize {
            whole.cells.len() + 2
        } else {
            m.count + 2
        };
        let mut stack = vec![0u64; levels * w];
        // Parallel workers start at level 1 with one piece placed; level 0 then goes unused.
        stack[..w].copy_from_slice(init);
        stack[w..2 * w].copy_from_slice(init);
        Search {
            whole,
            w,
            cell_of,
            stack,
            placed: Vec::with_capacity(levels),
            aim: Aim::new(m, task),
        }
    }

    fn go(&mut self, depth: usize, run: &mut Run) -> bool {
        if let Some(stop) = self.aim.visit(&self.placed, run) {
            return stop;
        }
        let k = self.placed.len();
        let w = self.w;
        let base = depth * w;
        loop {
            let cur = &self.stack[base..base + w];
            let Some(j) = cur.iter().position(|&x| x != 0) else {
                break;
            };
            let s = j * 64 + cur[j].trailing_zeros() as usize;
            let avail: usize = cur[j..].iter().map(|x| x.count_ones() as usize).sum();
            let cap = self.whole.cap_from[self.cell_of[s] as usize];
            if k + avail.min(cap) < self.aim.target {
                break;
            }
            self.stack[base + j] &= self.stack[base + j] - 1;
            if run.node() {
                return true;
            }
            let row = self.whole.attacks.row(s);
            let (cur, next) = self.stack[base..base + 2 * w].split_at_mut(w);
            for ((n, &c), &r) in next.iter_mut().zip(cur.iter()).zip(row) {
                *n = c & !r;
            }
            self.placed.push(s);
            let stop = self.go(depth + 1, run);
            self.placed.pop();
            if stop {
                return true;
            }
        }
        false
    }
}

/// N-Queens in the shifted-diagonal form: one word each for the columns and the two
/// diagonals taken by the rows above, shifted by one bit per row.
struct Rows<'m> {
    n: usize,
    full: u64,
    placed: Vec<usize>,
    emit: Placements<'m>,
}

impl Rows<'_> {
    fn go(&mut self, cols: u64, ld: u64, rd: u64, run: &mut Run) -> bool {
        let row = self.placed.len();
        if row == self.n {
            return self.emit.emit(run, &self.placed);
        }
        let mut avail = !(cols | ld | rd) & self.full;
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            if run.node() {
                return true;
            }
            self.placed
                .push(row * self.n + bit.trailing_zeros() as usize);
            let stop = self.go(cols | bit, (ld | bit) << 1, (rd | bit) >> 1, run);
            self.placed.pop();
            if stop {
                return true;
            }
        }
        false
    }
}

/// A node of the row search: the queens placed and the three masks below them.
struct RowsNode {
    placed: Vec<usize>,
    cols: u64,
    ld: u64,
    rd: u64,
}

fn queens_rows(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let n = m.board.width;
    let full = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let whole = m.whole();
    let rows = || Rows {
        n,
        full,
        placed: Vec::with_capacity(n),
        emit: Placements::new(&whole.symmetries, whole.cells.len(), task),
    };
    if task.part.is_none() {
        rows().go(0, 0, 0, run);
        return Answer::default();
    }
    let expand = |q: &RowsNode, _: &mut Run| {
        let row = q.placed.len();
        if row == n {
            return Expand::Leaf;
        }
        // As `go` branches: the lowest free column first.
        let mut avail = !(q.cols | q.ld | q.rd) & full;
        let mut children = Vec::new();
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            let mut placed = q.placed.clone();
            placed.push(row * n + bit.trailing_zeros() as usize);
            children.push(RowsNode {
                placed,
                cols: q.cols | bit,
                ld: (q.ld | bit) << 1,
                rd: (q.rd | bit) >> 1,
            });
        }
        Expand::Children(children)
    };
    let root = RowsNode {
        placed: Vec::new(),
        cols: 0,
        ld: 0,
        rd: 0,
    };
    let Some(cut) = split::cut(task, run, root, None, expand, |q, f| key(&q.placed, f)) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |q, run| {
        // The node's own queen is a node of the search, as `go` counts it before entering.
        if !q.placed.is_empty() && run.node() {
            return;
        }
        let mut r = rows();
        r.placed.extend_from_slice(&q.placed);
        r.go(q.cols, q.ld, q.rd, run);
    })
}

/// N-Queens counted by border constellations under the 8 symmetries (see `queens`).
fn queens_count(m: &Model, task: &Task, run: &mut Run) -> Answer {
    match super::queens::count_queens(m.board.width, task.threads, run) {
        Some(c) => {
            let mut a = Answer::count(if task.unique { c.unique } else { c.total });
            a.notes.push(CountNote::SymmetryFold(8).into());
            if task.unique {
                a.notes.push(CountNote::SolutionsInAll(c.total).into());
            }
            a
        }
        // Stopped by a limit: the partial count of complete sub-problems is a lower bound.
        None => Answer::default(),
    }
}
