//! Counting N-Queens solutions on an empty board, all of them and up to symmetry.
//!
//! Every solution has exactly one queen in each border line: the top and bottom rows and the
//! left and right columns. Those four queens (a *constellation*) are enumerated first and
//! kept only in a canonical orientation under the 8 symmetries of the square; each canonical
//! constellation is then a small sub-problem, the inner rows filled by a bitmask search.
//! This is the idea of the Q27 project (Preusser) and of NQueensFAF, and it buys two things
//! over the classic mirror-halved counter: less search (8-fold instead of 2-fold symmetry,
//! four queens placed for free), and thousands of independent sub-problems that threads can
//! share without coordination.
//!
//! Why the weights are right:
//! - At most one corner holds a queen (two corners always share a line). A solution with a
//!   corner queen is turned so that the queen sits at (0,0); of its 8 images exactly two do so,
//!   the solution and its transpose, and they swap the row `r` of the right-column queen with
//!   the column `b` of the bottom-row queen, which always differ. Keeping `r < b` counts each
//!   class once: weight 8, one class each.
//! - Without a corner queen, no constellation is fixed by a reflection (each reflection would
//!   make two of its queens attack each other), so its stabiliser `H` is a group of rotations.
//!   The constellation's orbit carries `8 / |H|` times its completions, and by Burnside the
//!   classes among them number `(1/|H|) * sum over h in H of completions fixed by h`. Only the
//!   few constellations with a rotational stabiliser need the fixed completions; they are
//!   counted like the others, and their fixed completions found by a search over half the
//!   board, each queen placed with its image under the half turn.
//!
//! The search over a constellation fills the inner rows with the usual three masks (columns
//! and both diagonals of the queens it placed); the squares the border queens attack come
//! from a per-row table, so the rows of the two side queens are simply left out. It runs from
//! the bottom up, a child is entered only if neither its row nor the next one is already
//! full, and the last six rows are counted at once by sets of permutations ([`last_rows`]),
//! on boards too small for that the last three in closed form without branches. Nodes, as
//! reported to the run, are the queens the search places (the plain search does not count
//! the rows it counts at once). Timings beside other counters: docs/performance.md.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::last_rows::{self, Spacing};
use crate::engine::split::{self, Expand};
use crate::engine::{Answer, Run, Task};
use crate::kinds::parts;

/// The largest board accepted: a row is a `u32` bitmask. 27 is the largest n whose count is
/// known (years of distributed computing), so 32 leaves nothing reachable out.
pub const MAX_N: usize = 32;

type Bits = u32;

/// Nodes counted locally between reports to the run, so the limits still bite within a
/// sub-problem while the hot loop stays free of engine calls.
const REPORT_EVERY: u64 = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct QueensCount {
    pub total: u128,
    pub unique: u128,
}

/// Count all placements of n non-attacking queens on an empty n x n board and the classes
/// under the 8 symmetries of the square (OEIS A000170, A002562). `None` when the run stopped
/// (time/node limit, Ctrl-C) before the count was complete. Uses `threads` workers (0 counts
/// as 1); nodes (queens placed by the search) are reported to the run in batches, and the
/// solutions found are added to the run's count.
///
/// # Panics
/// When `n > MAX_N`.
pub fn count_queens(n: usize, threads: usize, run: &mut Run) -> Option<QueensCount> {
    count_with(n, threads, Deep::for_this_processor(), run)
}

/// [`count_queens`] with the deep levels compiled for `deep`.
fn count_with(n: usize, threads: usize, deep: Deep, run: &mut Run) -> Option<QueensCount> {
    assert!(n <= MAX_N, "count_queens: n = {n} exceeds MAX_N = {MAX_N}");
    if n < 4 {
        // Too small for four distinct border lines; the answers are immediate.
        let c = if n <= 1 { 1 } else { 0 };
        run.count(c);
        return Some(QueensCount {
            total: c,
            unique: c,
        });
    }
    let constellations = constellations(n);
    let threads = threads.max(1);
    let mut sum = Tally::default();
    if threads == 1 {
        for c in &constellations {
            sum.add(solve_constellation(n, c, deep, run)?);
        }
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?;
        let next = AtomicUsize::new(0);
        let mut workers: Vec<(Run<'static>, Option<Tally>)> =
            (0..threads).map(|_| (run.child(), None)).collect();
        pool.scope(|s| {
            for (child, result) in workers.iter_mut() {
                let next = &next;
                let constellations = &constellations;
                s.spawn(move |_| {
                    // Claiming one sub-problem at a time balances the load: they differ in
                    // size by orders of magnitude and there are thousands of them.
                    let mut tally = Tally::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(c) = constellations.get(i) else {
                            break;
                        };
                        match solve_constellation(n, c, deep, child) {
                            Some(t) => tally.add(t),
                            None => return,
                        }
                    }
                    *result = Some(tally);
                });
            }
        });
        let mut complete = true;
        for (child, result) in workers {
            run.absorb(child);
            match result {
                Some(t) => sum.add(t),
                None => complete = false,
            }
        }
        if !complete || run.is_stopped() {
            return None;
        }
    }
    Some(sum.finish())
}

/// The solutions in part `task.part` of the constellations (`--part I/N`, `I/N,J/M`), each
/// constellation's completions weighted by its orbit as in [`count_queens`]. The list is the
/// constellations, in their fixed order: each is a subtree searched whole, so the parts'
/// nodes add up to one count's. Classes are not counted: a part's Burnside sums need not
/// make whole classes.
///
/// # Panics
/// When `n < 4` (no constellations) or `n > MAX_N`.
pub fn count_part(n: usize, task: &Task, run: &mut Run) -> Answer {
    assert!((4..=MAX_N).contains(&n), "count_part: n = {n}");
    // The root (`None`) branches into the constellations, which do not branch further.
    let expand = |c: &Option<Constellation>, _: &mut Run| match c {
        None => Expand::Children(constellations(n).into_iter().map(Some).collect()),
        Some(_) => Expand::Leaf,
    };
    let key = |c: &Option<Constellation>, f: &mut split::Fingerprint| {
        if let Some(c) = c {
            for x in [c.top, c.bottom, c.left, c.right, c.stabiliser] {
                f.eat(u64::from(x));
            }
        }
    };
    let Some(cut) = split::cut(task, run, None, None, expand, key) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |c, run| {
        // A constellation is no node of the search (its four queens come for free); its
        // completions are counted into the run with their weight.
        if let Some(c) = c {
            let _ = solve_constellation(n, c, Deep::for_this_processor(), run);
        }
    })
}

/// Solutions weighted by orbit size, and eight times the number of classes (so that the
/// Burnside quotients 1/2 and 1/4 stay integral until the end).
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    total: u128,
    unique8: u128,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.total += other.total;
        self.unique8 += other.unique8;
    }

    fn finish(self) -> QueensCount {
        debug_assert_eq!(self.unique8 % 8, 0);
        QueensCount {
            total: self.total,
            unique: self.unique8 / 8,
        }
    }
}

/// The four border queens of a sub-problem. With a corner queen, top and left are both 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Constellation {
    /// Column of the queen in row 0.
    top: u8,
    /// Column of the queen in row n-1.
    bottom: u8,
    /// Row of the queen in column 0.
    left: u8,
    /// Row of the queen in column n-1.
    right: u8,
    /// Number of symmetries of the square that map this constellation to itself (1, 2 or 4).
    stabiliser: u8,
}

/// The 8 symmetries of the square on (row, column), `m` = n-1.
fn transform(g: usize, m: usize, (r, c): (usize, usize)) -> (usize, usize) {
    match g {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

fn attacks((r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> bool {
    r1 == r2 || c1 == c2 || r1 + c2 == r2 + c1 || r1 + c1 == r2 + c2
}

/// Canonical constellations in a fixed order (the order only affects load balance).
fn constellations(n: usize) -> Vec<Constellation> {
    let m = n - 1;
    let mut out = Vec::new();
    // A corner queen at (0,0); r < b picks one of the solution and its transpose.
    for right in 1..m {
        for bottom in right + 1..m {
            out.push(Constellation {
                top: 0,
                bottom: bottom as u8,
                left: 0,
                right: right as u8,
                stabiliser: 1,
            });
        }
    }
    for top in 1..m {
        for bottom in 1..m {
            for left in 1..m {
                for right in 1..m {
                    let queens = [(0, top), (m, bottom), (left, 0), (right, m)];
                    let clash = (0..4).any(|i| (i + 1..4).any(|j| attacks(queens[i], queens[j])));
                    if clash {
                        continue;
                    }
                    let key = (top, bottom, left, right);
                    let mut stabiliser = 0;
                    let mut canonical = true;
                    for g in 0..8 {
                        let mut image = (0, 0, 0, 0);
                        for &q in &queens {
                            let (r, c) = transform(g, m, q);
                            if r == 0 {
                                image.0 = c;
                            } else if r == m {
                                image.1 = c;
                            } else if c == 0 {
                                image.2 = r;
                            } else {
                                image.3 = r;
                            }
                        }
                        if image < key {
                            canonical = false;
                            break;
                        }
                        if image == key {
                            stabiliser += 1;
                        }
                    }
                    if canonical {
                        out.push(Constellation {
                            top: top as u8,
                            bottom: bottom as u8,
                            left: left as u8,
                            right: right as u8,
                            stabiliser,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Per row, the squares the search may not use because of the border queens: their lines,
/// the two border columns, and in the two rows of the side queens everything but that queen.
fn blocked_rows(n: usize, c: &Constellation) -> [Bits; MAX_N] {
    let m = n - 1;
    let off_board: Bits = if n == 32 { 0 } else { !0 << n };
    let queens = [
        (0, c.top as usize),
        (m, c.bottom as usize),
        (c.left as usize, 0),
        (c.right as usize, m),
    ];
    let mut blocked = [!0; MAX_N];
    for (row, slot) in blocked.iter_mut().enumerate().take(m).skip(1) {
        let mut b = off_board | 1 | 1 << m;
        for &(qr, qc) in &queens {
            b |= 1 << qc;
            let d = row.abs_diff(qr);
            if qc + d < n {
                b |= 1 << (qc + d);
            }
            if qc >= d {
                b |= 1 << (qc - d);
            }
        }
        if row == c.left as usize {
            b = !1;
        } else if row == c.right as usize {
            b = !(1 << m);
        }
        *slot = b;
    }
    blocked
}

fn solve_constellation(n: usize, c: &Constellation, deep: Deep, run: &mut Run) -> Option<Tally> {
    let weight = 8 / c.stabiliser as u128;
    let count = count_plain(n, c, deep, run)?;
    let fixed = if c.stabiliser == 1 {
        [0; 2]
    } else {
        fixed_by_half_turn(n, c)
    };
    run.count(weight * count as u128);
    let unique8 = if c.stabiliser == 1 {
        8 * count as u128
    } else {
        // Burnside over H: the identity fixes all, rot180 fixes fixed[0], each quarter turn
        // (only when |H| = 4) fixes fixed[1].
        let sum = count as u128
            + fixed[0] as u128
            + if c.stabiliser == 4 {
                2 * fixed[1] as u128
            } else {
                0
            };
        weight * sum
    };
    Some(Tally {
        total: weight * count as u128,
        unique8,
    })
}

/// Completions of a constellation without symmetry.
///
/// The search runs from the bottom up: the canonical form puts the border queen nearest a
/// corner on top, so the bottom queen is the more central one and prunes the first rows
/// searched harder (N=14: 6.1 million nodes instead of 9.9 million). The two rows of the
/// side queens are left out altogether, their attacks being in the table already; the
/// diagonals then shift by the distance between consecutive searched rows.
fn count_plain(n: usize, c: &Constellation, deep: Deep, run: &mut Run) -> Option<u64> {
    let m = n - 1;
    let flipped = Constellation {
        top: c.bottom,
        bottom: c.top,
        left: (m - c.left as usize) as u8,
        right: (m - c.right as usize) as u8,
        stabiliser: c.stabiliser,
    };
    let blocked = blocked_rows(n, &flipped);
    let rows = (1..m).filter(|&r| r != flipped.left as usize && r != flipped.right as usize);
    let mut plan = Plan {
        blocked: [!0; MAX_N],
        shift: [1; MAX_N],
        levels: 0,
        columns: 0,
        tail: None,
        deep,
    };
    let mut previous = None;
    for row in rows {
        if let Some(p) = previous {
            plan.shift[plan.levels - 1] = (row - p) as u32;
        }
        plan.blocked[plan.levels] = blocked[row];
        plan.levels += 1;
        previous = Some(row);
    }
    // The columns the search fills: all but the border queens' and the two border columns.
    let border = 1 | 1 << m | 1 << c.top | 1 << c.bottom;
    plan.columns = ((1u64 << n) - 1) as Bits & !border;
    if plan.levels > last_rows::ROWS {
        let at = plan.levels - last_rows::ROWS;
        let steps = std::array::from_fn(|j| plan.shift[at + j]);
        let mut reach = [0; last_rows::ROWS];
        for j in 1..last_rows::ROWS {
            reach[j] = reach[j - 1] + steps[j - 1];
        }
        let blocked = std::array::from_fn(|j| plan.blocked[at + j]);
        plan.tail = Some(Tail {
            spacing: Spacing::for_steps(steps),
            blocked,
            reach,
            wide: last_rows::Rows::new(blocked, reach),
        });
    }
    let b = &plan.blocked;
    let sh = &plan.shift;
    let count = match plan.levels {
        0 => 1,
        1 => (!b[0] != 0) as u64,
        2 => last_two(0, 0, 0, [b[0], b[1]], sh[0]),
        3 => last_three(0, 0, 0, [b[0], b[1], b[2]], [sh[0], sh[1]]),
        _ => {
            let mut w = Walker {
                plan: &plan,
                nodes: 0,
                reported: 0,
                stopped: false,
                run,
            };
            let free = !b[0];
            let count = if free == 0 {
                0
            } else if plan.levels > DEEP_LEVELS {
                w.walk(0, 0, 0, 0, free)
            } else {
                let (c, nodes) = (plan.deep.0)(&plan, 0, 0, 0, 0, free);
                w.nodes += nodes;
                c
            };
            if w.stopped || w.run.nodes(w.nodes - w.reported) {
                return None;
            }
            count
        }
    };
    Some(count)
}

/// The rows a plain search fills, in order: what the border queens leave free in each, and
/// how far the next searched row lies below.
struct Plan {
    blocked: [Bits; MAX_N],
    shift: [u32; MAX_N],
    levels: usize,
    /// The columns the search fills.
    columns: Bits,
    /// The last levels, when they are counted at once ([`last_rows`]).
    tail: Option<Tail>,
    /// The deep levels as compiled for this processor.
    deep: Deep,
}

/// The last `last_rows::ROWS` levels of a plan: how they lie, what the border queens leave
/// free in each, and how far each lies below the first of them.
struct Tail {
    spacing: &'static Spacing,
    blocked: [Bits; last_rows::ROWS],
    reach: [u32; last_rows::ROWS],
    /// The same, laid out for [`last_rows::add_wide`].
    wide: last_rows::Rows,
}

/// The recursive part of the plain search, so that the masks live in registers.
struct Walker<'p, 'r, 'a> {
    plan: &'p Plan,
    nodes: u64,
    reported: u64,
    stopped: bool,
    run: &'r mut Run<'a>,
}

/// Levels this close to the end are searched by [`deep`], without looking at the limits:
/// of eleven rows the last six are counted at once, so such a subtree is a search of five
/// levels (at most 11!/6! = 55,440 nodes, in practice far fewer): too little for a limit
/// check to matter, and the levels above lose the cost of the recursion.
const DEEP_LEVELS: usize = 11;

impl Walker<'_, '_, '_> {
    /// Completions of levels `level..` (more than `DEEP_LEVELS`) given the masks of the queens
    /// above, already shifted to this level; `free` is the level's free mask, non-zero.
    fn walk(&mut self, level: usize, ld: Bits, rd: Bits, cols: Bits, mut free: Bits) -> u64 {
        let plan = self.plan;
        let s = plan.shift[level];
        let next = plan.blocked[level + 1];
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.nodes += 1;
            let nl = (ld | bit) << s;
            let nr = (rd | bit) >> s;
            let nc = cols | bit;
            let nf = !(nl | nr | nc | next);
            if nf == 0 {
                continue;
            }
            if plan.levels - (level + 1) > DEEP_LEVELS {
                count += self.walk(level + 1, nl, nr, nc, nf);
                if self.stopped {
                    return 0;
                }
            } else {
                let (c, nodes) = deep(plan, level + 1, nl, nr, nc, nf);
                count += c;
                self.nodes += nodes;
            }
        }
        if self.nodes - self.reported >= REPORT_EVERY.min(self.run.nodes_until_check()) {
            self.stopped = self.run.nodes(self.nodes - self.reported);
            self.reported = self.nodes;
        }
        count
    }
}

/// Completions and nodes of levels `level..` (at least four, at most `DEEP_LEVELS`); the
/// hot part of the search, compiled for the processor (see [`Deep`]).
#[inline(always)]
fn deep(plan: &Plan, level: usize, ld: Bits, rd: Bits, cols: Bits, free: Bits) -> (u64, u64) {
    (plan.deep.0)(plan, level, ld, rd, cols, free)
}

/// The deep levels, one function per number of levels left so that each knows its depth
/// statically and they fold into one another. `KIND`: what the processor they are compiled
/// for has, one of [`last_rows::PORTABLE`], [`last_rows::BMI2`] and [`last_rows::AVX512`].
#[inline(always)]
fn deep_levels<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    free: Bits,
) -> (u64, u64) {
    debug_assert!((4..=DEEP_LEVELS).contains(&(plan.levels - level)));
    const _: () = assert!(last_rows::ROWS == 6, "deep_7 hands six levels to last_rows");
    match plan.levels - level {
        4 => deep_4::<KIND>(plan, level, ld, rd, cols, free),
        5 => deep_5::<KIND>(plan, level, ld, rd, cols, free),
        6 => deep_6::<KIND>(plan, level, ld, rd, cols, free),
        7 => deep_7::<KIND>(plan, level, ld, rd, cols, free),
        8 => deep_8::<KIND>(plan, level, ld, rd, cols, free),
        9 => deep_9::<KIND>(plan, level, ld, rd, cols, free),
        10 => deep_10::<KIND>(plan, level, ld, rd, cols, free),
        _ => deep_11::<KIND>(plan, level, ld, rd, cols, free),
    }
}

/// The deep levels as compiled for one kind of processor. The same source is compiled three
/// times: the sets of permutations of [`last_rows`] are 720-bit words that AVX-512 ands and
/// counts in two instructions each (and with VBMI2 and BITALG, it also works out the six
/// rows' open columns side by side), AVX2 in three ands and twelve counts, and a processor
/// without either word by word.
#[derive(Clone, Copy)]
struct Deep(DeepFn);

type DeepFn = fn(&Plan, usize, Bits, Bits, Bits, Bits) -> (u64, u64);

impl Deep {
    const PORTABLE: Deep = Deep(deep_portable);

    /// The fastest kind this processor runs (checked once).
    fn for_this_processor() -> Deep {
        static BEST: std::sync::OnceLock<Deep> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| Deep::available()[0])
    }

    /// Every kind this processor runs, the fastest first.
    fn available() -> Vec<Deep> {
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("avx2");
            let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx512vl");
            let bits = has!("avx512vpopcntdq") && has!("avx512vbmi2") && has!("avx512bitalg");
            if avx2 && avx512 && bits {
                out.push(Deep(deep_avx512));
            }
            if avx2 {
                out.push(Deep(deep_avx2));
            }
        }
        out.push(Deep::PORTABLE);
        out
    }
}

fn deep_portable(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    free: Bits,
) -> (u64, u64) {
    deep_levels::<{ last_rows::PORTABLE }>(plan, level, ld, rd, cols, free)
}

/// The deep levels compiled for a processor with `$features`, which include BMI2.
macro_rules! deep_for_features {
    ($name:ident, $kind:expr, $features:literal) => {
        #[cfg(target_arch = "x86_64")]
        fn $name(
            plan: &Plan,
            level: usize,
            ld: Bits,
            rd: Bits,
            cols: Bits,
            free: Bits,
        ) -> (u64, u64) {
            #[target_feature(enable = $features)]
            fn inner(p: &Plan, level: usize, l: Bits, r: Bits, c: Bits, f: Bits) -> (u64, u64) {
                deep_levels::<{ $kind }>(p, level, l, r, c, f)
            }
            // SAFETY: offered by `Deep::available` only where the features are present.
            unsafe { inner(plan, level, ld, rd, cols, free) }
        }
    };
}

deep_for_features!(deep_avx2, last_rows::BMI2, "popcnt,bmi1,bmi2,avx2");
deep_for_features!(
    deep_avx512,
    last_rows::AVX512,
    "popcnt,bmi1,bmi2,avx2,avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx512bitalg"
);

/// Four levels left: each queen of this level hands the last three to [`last_three`].
#[inline(always)]
fn deep_4<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    mut free: Bits,
) -> (u64, u64) {
    let s = plan.shift[level];
    let b = &plan.blocked;
    let tail = [b[level + 1], b[level + 2], b[level + 3]];
    let tail_shift = [plan.shift[level + 1], plan.shift[level + 2]];
    let mut count = 0;
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        count += last_three(
            (ld | bit) << s,
            (rd | bit) >> s,
            cols | bit,
            tail,
            tail_shift,
        );
    }
    (count, nodes)
}

/// Five or more levels left: a child is entered only if its row and the next are not full
/// already (the look-ahead ignores the child's own queen, so it never cuts a solution).
macro_rules! deep_level {
    ($name:ident, $child:ident) => {
        #[inline(always)]
        fn $name<const KIND: u8>(
            plan: &Plan,
            level: usize,
            ld: Bits,
            rd: Bits,
            cols: Bits,
            mut free: Bits,
        ) -> (u64, u64) {
            let s = plan.shift[level];
            let next = plan.blocked[level + 1];
            let after = plan.blocked[level + 2];
            let s1 = plan.shift[level + 1];
            let mut count = 0;
            let mut nodes = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                nodes += 1;
                let nl = (ld | bit) << s;
                let nr = (rd | bit) >> s;
                let nc = cols | bit;
                let nf = !(nl | nr | nc | next);
                let f2 = !((nl << s1) | (nr >> s1) | nc | after);
                if (nf != 0) & (f2 != 0) {
                    let (c, k) = $child::<KIND>(plan, level + 1, nl, nr, nc, nf);
                    count += c;
                    nodes += k;
                }
            }
            (count, nodes)
        }
    };
}

deep_level!(deep_5, deep_4);
deep_level!(deep_6, deep_5);

deep_level!(deep_7_searched, deep_6);

/// Seven levels left: each queen of this level leaves `last_rows::ROWS` levels, counted at
/// once by [`last_rows`] where the plan has their spacing. A child is counted only if its
/// row and the next are not full already, as in [`deep_level`].
#[inline(always)]
fn deep_7<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    mut free: Bits,
) -> (u64, u64) {
    let Some(tail) = &plan.tail else {
        return deep_7_searched::<KIND>(plan, level, ld, rd, cols, free);
    };
    let s = plan.shift[level];
    let next = plan.blocked[level + 1];
    let mut lanes = last_rows::Lanes::default();
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        let nl = (ld | bit) << s;
        let nr = (rd | bit) >> s;
        let nc = cols | bit;
        let nf = !(nl | nr | nc | next);
        let f2 = !((nl << tail.reach[1]) | (nr >> tail.reach[1]) | nc | tail.blocked[1]);
        if (nf != 0) & (f2 != 0) {
            let f = plan.columns & !nc;
            #[cfg(target_arch = "x86_64")]
            if KIND == last_rows::AVX512 {
                last_rows::add_wide(tail.spacing, f, nl, nr, &tail.wide, &mut lanes);
                continue;
            }
            let open = std::array::from_fn(|j| match j {
                0 => nf & f,
                _ => !((nl << tail.reach[j]) | (nr >> tail.reach[j]) | tail.blocked[j]) & f,
            });
            last_rows::add::<KIND>(tail.spacing, f, open, &mut lanes);
        }
    }
    (lanes.total(), nodes)
}
deep_level!(deep_8, deep_7);
deep_level!(deep_9, deep_8);
deep_level!(deep_10, deep_9);
deep_level!(deep_11, deep_10);

/// Completions of the last two levels, without branches: only two columns are left, so the
/// first has at most two candidates and each decides the other's square. Most leaves of the
/// search are here, where a mispredicted loop exit would cost more than the arithmetic.
#[inline(always)]
fn last_two(ld: Bits, rd: Bits, cols: Bits, blocked: [Bits; 2], shift: u32) -> u64 {
    let free = !(ld | rd | cols | blocked[0]);
    let p = free & free.wrapping_neg();
    let q = free ^ p;
    let fits = |bit: Bits| {
        let last = !(((ld | bit) << shift) | ((rd | bit) >> shift) | cols | bit | blocked[1]);
        ((bit != 0) & (last != 0)) as u64
    };
    fits(p) + fits(q)
}

/// Completions of the last three levels: at most three candidates in the first, each handed
/// to [`last_two`]; an absent candidate (bit 0) counts nothing.
#[inline(always)]
fn last_three(ld: Bits, rd: Bits, cols: Bits, blocked: [Bits; 3], shift: [u32; 2]) -> u64 {
    let free = !(ld | rd | cols | blocked[0]);
    let p0 = free & free.wrapping_neg();
    let rest = free ^ p0;
    let p1 = rest & rest.wrapping_neg();
    let p2 = rest ^ p1;
    let s = shift[0];
    let tail = [blocked[1], blocked[2]];
    let sub = |bit: Bits| {
        let c = last_two((ld | bit) << s, (rd | bit) >> s, cols | bit, tail, shift[1]);
        c * (bit != 0) as u64
    };
    sub(p0) + sub(p1) + sub(p2)
}

/// The completions of a constellation that a half turn maps to themselves, and those a
/// quarter turn does (`[half, quarter]`). A half turn pairs row `r` with row `m - r` and
/// column `k` with `m - k`, so such a completion is fixed by its upper half: the search
/// places each queen with its image and visits some square root of the plain search's nodes.
/// The quarter-turn ones are among them and are picked out at the leaves.
fn fixed_by_half_turn(n: usize, c: &Constellation) -> [u64; 2] {
    let m = n - 1;
    let mut board = HalfTurn {
        m,
        column: [usize::MAX; MAX_N],
        cols: 0,
        diag: 0,
        anti: 0,
        fixed: [0; 2],
    };
    // The border queens are images of one another (the constellation is fixed by a half
    // turn), and on odd boards the middle row's queen is the centre, its own image.
    let mut queens = vec![
        (0, c.top as usize),
        (m, c.bottom as usize),
        (c.left as usize, 0),
        (c.right as usize, m),
    ];
    if n % 2 == 1 {
        queens.push((m / 2, m / 2));
    }
    for (r, k) in queens {
        if !board.free(r, k) {
            return [0; 2];
        }
        board.place(r, k);
    }
    board.fill(1);
    board.fixed
}

/// The board of [`fixed_by_half_turn`]: the column of each row's queen (`usize::MAX` while
/// empty) and the lines taken, diagonals indexed by `r + m - k` and anti-diagonals by `r + k`.
struct HalfTurn {
    m: usize,
    column: [usize; MAX_N],
    cols: u64,
    diag: u64,
    anti: u64,
    fixed: [u64; 2],
}

impl HalfTurn {
    fn free(&self, r: usize, k: usize) -> bool {
        self.column[r] == usize::MAX
            && (self.cols >> k) & 1 == 0
            && (self.diag >> (r + self.m - k)) & 1 == 0
            && (self.anti >> (r + k)) & 1 == 0
    }

    fn place(&mut self, r: usize, k: usize) {
        self.column[r] = k;
        self.cols |= 1 << k;
        self.diag |= 1 << (r + self.m - k);
        self.anti |= 1 << (r + k);
    }

    fn remove(&mut self, r: usize, k: usize) {
        self.column[r] = usize::MAX;
        self.cols &= !(1 << k);
        self.diag &= !(1 << (r + self.m - k));
        self.anti &= !(1 << (r + k));
    }

    /// Fills rows `r..` of the upper half, each with its image in the lower half.
    fn fill(&mut self, r: usize) {
        let m = self.m;
        if 2 * r >= m {
            self.fixed[0] += 1;
            let quarter = (0..=m).all(|row| self.column[self.column[row]] == m - row);
            self.fixed[1] += quarter as u64;
            return;
        }
        if self.column[r] != usize::MAX {
            return self.fill(r + 1);
        }
        for k in 1..m {
            if !self.free(r, k) {
                continue;
            }
            self.place(r, k);
            // The image shares a line with (r, k) only on the centre's lines, which a
            // placed queen would then hold twice.
            if self.free(m - r, m - k) {
                self.place(m - r, m - k);
                self.fill(r + 1);
                self.remove(m - r, m - k);
            }
            self.remove(r, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Limits;

    const TOTAL: [u128; 19] = [
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
        95815104, 666090624,
    ];
    const UNIQUE: [u128; 19] = [
        1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
        83263591,
    ];

    fn count(n: usize, threads: usize) -> QueensCount {
        let mut run = Run::new(Limits::default());
        let c = count_queens(n, threads, &mut run).expect("no limit set");
        assert_eq!(run.stats.solutions, c.total, "run's solutions for n = {n}");
        c
    }

    #[test]
    fn known_answers_one_thread() {
        for n in 1..=15 {
            let c = count(n, 1);
            assert_eq!((c.total, c.unique), (TOTAL[n], UNIQUE[n]), "n = {n}");
        }
    }

    #[test]
    fn every_kind_of_processor_code_counts_the_same() {
        // The portable code comes last, whatever the processor.
        for (kind, deep) in Deep::available().into_iter().enumerate() {
            for n in 8..=14 {
                let mut run = Run::new(Limits::default());
                let c = count_with(n, 1, deep, &mut run).expect("no limit set");
                assert_eq!(
                    (c.total, c.unique),
                    (TOTAL[n], UNIQUE[n]),
                    "n = {n}, kind {kind}"
                );
            }
        }
    }

    #[test]
    fn known_answers_two_threads() {
        for n in 1..=15 {
            let c = count(n, 2);
            assert_eq!((c.total, c.unique), (TOTAL[n], UNIQUE[n]), "n = {n}");
        }
    }

    #[test]
    fn largest_board_stops_at_a_node_limit() {
        for threads in [1, 2] {
            let mut run = Run::new(Limits {
                nodes: Some(200_000),
                ..Limits::default()
            });
            assert_eq!(count_queens(MAX_N, threads, &mut run), None);
            assert!(run.stats.nodes < 2_000_000, "{}", run.stats.nodes);
        }
    }

    #[test]
    fn node_limit_stops_the_count() {
        for threads in [1, 2] {
            let mut run = Run::new(Limits {
                nodes: Some(100_000),
                ..Limits::default()
            });
            assert_eq!(
                count_queens(14, threads, &mut run),
                None,
                "threads = {threads}"
            );
            assert!(run.is_stopped());
            assert!(run.stats.nodes < 1_000_000, "{}", run.stats.nodes);
        }
    }
}
