//! `count`: exact counting by frontier dynamic programming, for the knight on boards whose
//! shorter side is at most 10 (holes allowed).
//!
//! Where it applies: goal count, the knight (any board shape and holes, from every start or
//! a given one, open or closed) with a shorter side of at most [`MAX_SHORT_SIDE`], so that
//! the frontier's labels fit 4 bits a square. It counts without listing (listing takes
//! `backtrack`). Its limit is memory: the number of frontier states grows quickly with the
//! shorter side, and a board whose states outgrow the budget (`--memory`) at one square
//! stops with a memory limit rather than an answer. `--threads` expands and merges the
//! squares with many states on several threads. Open tours on boards 7 wide or more are a
//! sum of sweeps, one per pair of ends up to symmetry (ends.rs), a sweep a thread: letting
//! any square end the tour multiplies a 7-wide frontier's states past any memory. Closed
//! tours up to symmetry (`--unique`) add the tours each symmetry keeps (fixed.rs).
//!
//! Squares are taken one at a time in row order along the shorter side (the board is
//! transposed when it is taller than wide). A knight's move from a square reaches back at
//! most 2w + 1 squares, so only the last L = 2w + 1 squares can still gain moves: they are
//! the frontier. Choosing which back moves each new square uses builds the tour's edges;
//! partial tours are grouped by what the rest of the search can see of them:
//!
//! - per frontier square: no move yet (0), two moves or a hole (1), or one move, with the
//!   label of the path fragment it ends (2..15; the two ends of a fragment share a label, a
//!   fragment whose other end has left the frontier as a tour end shows its label once);
//! - for open tours, how many squares have left the frontier as tour ends (0 to 2).
//!
//! That fits one `u64` (4 bits a square, L <= 15), or two (L <= 21; key.rs). A square
//! leaving the frontier must be done: two moves, or for an open tour one move as one of the
//! two ends; on a board with one square more of one colour, an end must be of that colour
//! (the knight alternates colours), which rules out many states; with as many of each, the
//! two ends differ in colour, so the state also keeps the first end's colour. Joining the
//! two ends of one fragment closes a cycle: forbidden for open tours, and for closed ones
//! allowed only at the last square when nothing else is open. Counts run in `u64` (the
//! least memory traffic); before a square whose sums could overflow them, the states move
//! to `u128`, then to wider integers (`Wide`), so the count is exact at any size and never
//! redone. With `--prefixes` a cycle may close at any square: it is a tour of the prefix
//! that ends there, counted for it; the look-ahead over squares to come is off, since they
//! are holes in the shorter prefixes.
//!
//! A state is dropped as soon as some square can no longer get its moves: a frontier square
//! with fewer squares to come than moves it lacks, or a square to come whose neighbours
//! among the squares to come and the frontier squares not done are too few (the corners and
//! edges of the last rows depend on frontier squares that fill up early). Short by one
//! move, such a square must be a tour end, within the two ends and their colours. A square
//! to come with exactly as many open neighbours as it needs takes a move from each, and a
//! frontier square cannot give more moves than it has left. The earlier a doomed state is
//! dropped, the fewer states the widest squares hold.
//!
//! A square's new states go to hash buckets merged bucket by bucket in cache (states.rs):
//! sequential memory traffic instead of one large hash table probed at random. The checks
//! and the renumbering of labels work on the 64-bit word with masks, not square by square.
//! Memory: the lists of states (the square before's, the new states in their buckets, the
//! merged list) are counted against the budget (`--memory`) as they grow, and allocated
//! fallibly; a square whose states outgrow it stops the count as a memory limit, with what
//! the square would need, projected from the share of its input expanded by then.
//!
//! Conventions (puzzle-format.md section 3): closed tours are undirected cycles; open tours
//! without a start are directed (twice the paths); with a start, directed from it. A fixed
//! end (the start, or both ends of a pair) has exactly one move.

use std::sync::Mutex;

use super::ends::{EndPair, PAIRS_FROM_SIDE, end_pairs, sweep_index};
use super::exists::Existence;
use super::fixed::{Fixed, classify, close, twisted_edges};
use super::key::{Key, U128};
use super::model::{KNIGHT, Model};
use super::states::{Buckets, Full, Memory, Slot, Ways, Wide, expand_parallel};
use super::vocab::{TourNote, TourReason};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Clock, Goal, Note, Prefix, Run, Task};
use crate::kinds::CountNote;
use crate::kinds::{Strategy, parts};
use crate::util::Natural;

pub struct Count;

/// The longest frontier whose labels fit 4 bits a square (label 15 is kept free for a new
/// fragment; at most half the frontier's 21 squares plus two tour ends carry labels, from
/// 2 up): a frontier of up to 15 squares takes a `u64` state, up to 21 a 128-bit one.
const MAX_SHORT_SIDE: usize = 10;

impl Strategy<Model> for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn about(&self) -> &'static str {
        "exact counts by frontier dynamic programming (knight, shorter side up to 10); \
         every prefix in one sweep (--prefixes); closed tours up to symmetry (--unique)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        if task.partial() && !by_pairs(m, task.prefixes) {
            return Err(
                "a frontier dynamic program has no subtrees to split: it sweeps the \
                        board once, every state at a square depending on all those before \
                        (only open tours on boards 7 wide or more, a sweep per pair of ends, \
                        split); \
                        `backtrack` counts in parts (--part), on small boards"
                    .into(),
            );
        }
        if task.partial() {
            parts::counts_only(task)?;
            // A path's edges are those of one colour's squares (every move joins the two
            // colours), at most two a square: so many choices bound the paths, and a
            // direction and a weight of at most 8 add 4 bits.
            let (a, b) = class_bits(m);
            let bits = a.min(b) + 4.0;
            if bits > 128.0 {
                return Err(format!(
                    "a part's count is kept in 128 bits, and the paths of this board may \
                     need up to {bits:.0}; accepted without --part"
                ));
            }
        }
        if task.goal != Goal::Count {
            return Err("counts only (goal count)".into());
        }
        if task.unique {
            if !m.closed || m.start.is_some() || task.prefixes || task.partial() {
                return Err(
                    "--unique: closed tours, without a start, --prefixes or --part; \
                            `backtrack` counts open tours up to symmetry (small boards)"
                        .into(),
                );
            }
            classify(m)?;
        }
        if m.piece.leaps != [(2, 1)] {
            return Err("its frontier is shaped for the knight's moves".into());
        }
        let short = m.board.width.min(m.board.height);
        if short > MAX_SHORT_SIDE {
            return Err(format!(
                "the frontier of a board with shorter side {short} has more path ends than \
                 its 4-bit labels tell apart; it takes shorter sides up to {MAX_SHORT_SIDE}"
            ));
        }
        if task.prefixes && !m.closed {
            return Err("prefixes are counted for closed tours only".into());
        }
        let bits = count_bits(m);
        if bits > Widest::BITS as f64 {
            return Err(format!(
                "its counts on this board may need up to {bits:.0} bits, and it counts in \
                 at most {} bits",
                Widest::BITS
            ));
        }
        Ok(())
    }
    fn counts_prefixes(&self) -> bool {
        true
    }
    /// Open tours on boards 7 wide or more only (`applies` says so): a sweep per pair of
    /// ends.
    fn splits(&self) -> bool {
        true
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if task.part.is_some() {
            let mut a = part(m, task, run);
            a.notes.extend(m.counting_note(task));
            return a;
        }
        // A board without a tour may still have prefixes with one.
        if !task.prefixes
            && let Some(a) = m.settled()
        {
            return a;
        }
        let pairs = by_pairs(m, task.prefixes).then(|| end_pairs(m));
        let mut frontier = Vec::new();
        let counted = count(
            m,
            pairs.as_deref(),
            task.threads.max(1),
            task.memory,
            task.prefixes,
            &mut frontier,
            run,
        );
        let mut a = match counted {
            Ok((c, _)) if task.unique => up_to_symmetry(m, c, task, run),
            Ok((c, prefixes)) => Answer {
                prefixes,
                frontier,
                ..Answer::natural(c)
            },
            Err(outgrew) => {
                let mut a = Answer {
                    frontier,
                    ..Answer::default()
                };
                a.notes.extend(outgrew);
                return a;
            }
        };
        if a.count == Some(0) {
            a.reason = Some(
                match m.existence {
                    Existence::Exists(_) => {
                        TourReason::Bug("the count is 0 (contradicting a theorem: a bug)".into())
                    }
                    _ => TourReason::CountIsZero,
                }
                .into(),
            );
        }
        a.notes.extend(m.counting_note(task));
        if let Some(pairs) = pairs {
            a.notes.push(Note::from(TourNote::EndPairs {
                sweeps: pairs.len(),
                pairs: pairs.iter().map(|p| p.weight).sum(),
            }));
        }
        a
    }
}

/// Squares with fewer states than this are expanded on one thread whatever `--threads`:
/// below it starting the threads costs more than they save.
const PARALLEL_FROM: usize = 1 << 16;

/// The states that `states` lead to at the square of `rule`, into `next`.
fn expand<K: Key, T: Ways>(
    states: &[Slot<K, T>],
    rule: &Rule<K>,
    next: &mut Buckets<K, T>,
    clock: &Clock,
) -> Result<(), Full> {
    // A wide square takes a minute: the clock is read every few thousand states.
    for (i, &Slot { key: state, ways }) in states.iter().enumerate() {
        next.expanded = i;
        if i % 4096 == 0 && clock.expired().is_some() {
            return Err(Full::Stopped);
        }
        let cells = state & rule.cells;
        let ends = (state >> K::ENDS_SHIFT).low() as u8;
        if rule.hole {
            emit(next, cells, rule, DONE, ends, ways)?;
            continue;
        }
        let mut open_to = 0u32;
        for (j, &pos) in rule.back.iter().enumerate() {
            if cells.nibble(pos) != DONE {
                open_to |= 1 << j;
            }
        }
        'subsets: for &subset in &rule.subsets {
            if subset & !open_to != 0 {
                continue;
            }
            let mut cs = cells;
            // The new square's own state: FRESH, a label, or DONE.
            let mut me = FRESH;
            let mut cycle = false;
            for (j, &pos) in rule.back.iter().enumerate() {
                if subset >> j & 1 == 0 {
                    continue;
                }
                let u = cs.nibble(pos);
                // A fixed end takes one move only.
                if u != FRESH && rule.end_back >> j & 1 != 0 {
                    continue 'subsets;
                }
                if me == FRESH {
                    if u == FRESH {
                        // A label no state uses (at most two fragments show one end,
                        // so at most 11 labels are in use); `emit` renumbers it.
                        cs = cs.with_nibble(pos, SPARE);
                        me = SPARE;
                    } else {
                        cs = cs.with_nibble(pos, DONE);
                        me = u;
                    }
                } else {
                    // Second move: the new square is done; join its fragment with u's.
                    let a = me;
                    me = DONE;
                    if u == FRESH {
                        cs = cs.with_nibble(pos, a);
                    } else if u == a {
                        cs = cs.with_nibble(pos, DONE);
                        cycle = true;
                    } else {
                        cs = cs.with_nibble(pos, DONE);
                        cs ^= cs.equal_nibbles(u, rule.ones).times(u ^ a);
                    }
                }
            }
            if cycle {
                // One cycle through every square: only at the last square, with
                // nothing else open.
                if !rule.closed || cs != rule.all_done || me != DONE {
                    continue;
                }
                if rule.prefixes {
                    // Nothing can extend a closed tour; only this prefix has it.
                    next.closed = next.closed.add(ways).ok_or(Full::Overflow)?;
                    continue;
                }
                if !rule.last {
                    continue;
                }
            }
            emit(next, cs, rule, me, ends, ways)?;
        }
    }
    next.expanded = states.len();
    Ok(())
}

/// The widest count: 4,096 bits.
type Widest = Wide<64>;

/// An upper bound on the bits of any count on the board (a path's edges at a square are at
/// most two of its moves, the direction doubles): the count is refused past [`Widest`]
/// up front rather than overflowing after hours.
fn count_bits(m: &Model) -> f64 {
    let (a, b) = class_bits(m);
    1.0 + a + b
}

/// For each colour, the bits of the product over its squares of the ways to pick at most two
/// of a square's moves.
fn class_bits(m: &Model) -> (f64, f64) {
    let b = &m.board;
    let mut bits = [0.0, 0.0];
    for s in (0..b.width * b.height).filter(|&s| !b.is_hole(s)) {
        let (r, c) = (s / b.width, s % b.width);
        let d = KNIGHT
            .iter()
            .filter(|&&(dr, dc)| {
                let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                r2 >= 0
                    && c2 >= 0
                    && (r2 as usize) < b.height
                    && (c2 as usize) < b.width
                    && !b.is_hole(r2 as usize * b.width + c2 as usize)
            })
            .count() as f64;
        bits[(r + c) % 2] += (1.0 + d + d * (d - 1.0) / 2.0).log2();
    }
    (bits[0], bits[1])
}

/// Outcome of one counting pass.
enum Pass {
    Done(Natural, Vec<Prefix>),
    /// A limit of the run struck.
    Stopped,
    /// The states outgrew the memory: where, and what the square would need.
    Outgrew(Note),
}

/// The count, or why there is none: `Err(Some(note))` when the states outgrew the memory
/// (the run is then stopped as a memory limit), `Err(None)` for the run's other limits.
/// Open tours are summed over `pairs` of ends where given, else counted in one sweep, whose
/// states after each square go to `frontier`.
fn count(
    m: &Model,
    pairs: Option<&[EndPair]>,
    threads: usize,
    memory: Option<u64>,
    prefixes: bool,
    frontier: &mut Vec<u64>,
    run: &mut Run,
) -> Result<(Natural, Vec<Prefix>), Option<Note>> {
    let mem = Memory::new(memory);
    let pass = match pairs {
        Some(pairs) => count_by_pairs(m, pairs, threads, &mem, run),
        None => count_in(m, &[], threads, &mem, prefixes, frontier, run),
    };
    match pass {
        Pass::Done(mut c, prefixes) => {
            // Paths counted once each; without a start they are directed both ways.
            if !m.closed && m.start.is_none() {
                c.add(&c.clone());
            }
            Ok((c, prefixes))
        }
        Pass::Outgrew(note) => {
            run.out_of_memory();
            Err(Some(note))
        }
        Pass::Stopped => Err(None),
    }
}

/// A part of the sum over pairs of ends (`--part`): the list of subtrees is the sweeps of
/// `end_pairs`, costliest first, dealt to the parts in turn; each sweep counts its pair's
/// paths, weighed by its orbit and doubled for direction as the whole count does.
fn part(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let pairs = end_pairs(m);
    let expand = |node: &Option<usize>, _: &mut Run| match node {
        None => Expand::Children((0..pairs.len()).map(Some).collect()),
        Some(_) => Expand::Leaf,
    };
    let key = |node: &Option<usize>, f: &mut Fingerprint| {
        if let Some(i) = *node {
            let p = &pairs[i];
            for x in [p.ends[0], p.ends[1], p.weight as usize] {
                f.eat(x as u64);
            }
        }
    };
    let Some(cut) = split::cut(task, run, None, None, expand, key) else {
        return Answer::default();
    };
    let mem = Memory::new(task.memory);
    let directions = if m.start.is_none() { 2 } else { 1 };
    let outgrew: Mutex<Option<Note>> = Mutex::new(None);
    let mut a = parts::count_part(task, run, cut, |node, run| {
        let pair = &pairs[node.expect("the root is never a part's subtree")];
        match count_in(m, &pair.ends, 1, &mem, false, &mut Vec::new(), run) {
            Pass::Done(c, _) => {
                let c = c
                    .to_u128()
                    .expect("applies() bounds a part's counts by 128 bits");
                run.count(c * pair.weight as u128 * directions);
            }
            Pass::Outgrew(note) => {
                run.out_of_memory();
                *outgrew.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
            }
            Pass::Stopped => {}
        }
    });
    a.notes
        .extend(outgrew.into_inner().unwrap_or_else(|e| e.into_inner()));
    a
}

/// Whether the open tours of `m` are counted pair of ends by pair (ends.rs).
fn by_pairs(m: &Model, prefixes: bool) -> bool {
    let short = m.board.width.min(m.board.height);
    !m.closed && !prefixes && short >= PAIRS_FROM_SIDE && m.cells > 2
}

/// The undirected paths through every cell (from the start, if given), summed over the
/// pairs of ends that `end_pairs` lists, a sweep a thread.
fn count_by_pairs(
    m: &Model,
    pairs: &[EndPair],
    threads: usize,
    mem: &Memory,
    run: &mut Run,
) -> Pass {
    let passes: Vec<Mutex<Option<Pass>>> = pairs.iter().map(|_| Mutex::new(None)).collect();
    let items: Vec<usize> = (0..pairs.len()).collect();
    run.share_out(&items, threads, |&i, child| {
        let pass = count_in(m, &pairs[i].ends, 1, mem, false, &mut Vec::new(), child);
        if matches!(pass, Pass::Outgrew(_)) {
            // The other sweeps stop too: the count cannot be whole.
            child.out_of_memory();
        }
        *passes[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(pass);
    });
    let mut total = Natural::zero();
    let mut stopped = false;
    for (pair, pass) in pairs.iter().zip(passes) {
        match pass.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Pass::Done(c, _)) => {
                for _ in 0..pair.weight {
                    total.add(&c);
                }
            }
            Some(Pass::Outgrew(note)) => return Pass::Outgrew(note),
            Some(Pass::Stopped) | None => stopped = true,
        }
    }
    if stopped {
        run.check();
        return Pass::Stopped;
    }
    Pass::Done(total, Vec::new())
}

const DONE: u8 = 1;
/// A label free in every state, for the new square's fragment until `emit` renumbers.
const SPARE: u8 = 15;

/// A square not yet placed that may run short of moves: its neighbours among the squares
/// still to come cannot give it all it needs, and the rest must come from the window
/// positions `mask`, one move from each square there not done.
struct Future<K> {
    mask: K,
    /// Moves it needs beyond those the squares to come can give (1 or 2).
    gap: u8,
    may_end: bool,
    colour: u8,
}
const FRESH: u8 = 0;

/// What every square's rule is made from: the board in the sweep's order (along the longer
/// side, across the shorter one), its colours and the run's settings.
struct Sweep<'a> {
    m: &'a Model,
    /// The board's square of each square of the sweep.
    actual: Vec<usize>,
    w: usize,
    h: usize,
    n: usize,
    l: usize,
    hole: Vec<bool>,
    /// The squares the tour must end on (its start, or both ends), in the sweep's order.
    ends: Vec<usize>,
    last: usize,
    /// The colour no open tour can end on (an odd board), if any.
    minor: Option<u8>,
    closed: bool,
    prefixes: bool,
    threads: usize,
    mem: &'a Memory,
    /// Counting prefixes: the cells so far, and the counts of the prefixes with an even
    /// number of them (a closed tour alternates colours).
    cells_so_far: usize,
    table: Vec<Prefix>,
    /// The states after each square swept.
    frontier: Vec<u64>,
    /// Counting the tours the half turn fixes (fixed.rs): the twisted edges that close the
    /// states at the middle of the board.
    half_turn: Option<Vec<(usize, usize)>>,
}

impl Sweep<'_> {
    fn colour(&self, p: usize) -> u8 {
        ((p / self.w + p % self.w) % 2) as u8
    }

    /// The rule of square `p`.
    fn rule<K: Key>(&self, p: usize) -> Rule<K> {
        let (w, h, n, l) = (self.w, self.h, self.n, self.l);
        let (hole, last, minor) = (&self.hole, self.last, self.minor);
        let fixed = |q: usize| self.ends.contains(&q);
        let (closed, prefixes) = (self.closed, self.prefixes);
        let cells = !(!K::ZERO << (4 * l));
        let ones = K::ONES & cells;
        let colour = |p: usize| self.colour(p);
        let (r, c) = (p / w, p % w);
        // Back moves as window positions (the window holds squares p-l .. p-1).
        let mut back: Vec<usize> = Vec::with_capacity(4);
        if !hole[p] {
            for (dr, dc) in [(2i64, -1i64), (2, 1), (1, -2), (1, 2)] {
                let (r2, c2) = (r as i64 - dr, c as i64 + dc);
                if r2 >= 0 && c2 >= 0 && (c2 as usize) < w {
                    let q = r2 as usize * w + c2 as usize;
                    if !hole[q] {
                        back.push(l - (p - q));
                    }
                }
            }
        }
        let max_deg = if fixed(p) { 1 } else { 2 };
        // The sets of back moves the new square may take.
        let subsets: Vec<u32> = (0u32..1 << back.len())
            .filter(|s| s.count_ones() <= max_deg)
            .collect();
        // The back moves to a fixed end.
        let end_back = back
            .iter()
            .enumerate()
            .filter(|&(_, &pos)| fixed(p + pos - l))
            .fold(0u32, |m, (j, _)| m | 1 << j);
        // Moves each square of the next window still can gain: from squares after p.
        let mut cap = [0u8; 4 * MAX_SHORT_SIDE];
        for (i, cp) in cap.iter_mut().enumerate().take(l) {
            let Some(q) = (p + 1 + i).checked_sub(l) else {
                continue;
            };
            let (qr, qc) = (q / w, q % w);
            for (dr, dc) in [(1i64, -2i64), (1, 2), (2, -1), (2, 1)] {
                let (r2, c2) = (qr as i64 + dr, qc as i64 + dc);
                if c2 >= 0 && (c2 as usize) < w && (r2 as usize) < h {
                    let q2 = r2 as usize * w + c2 as usize;
                    if q2 > p && !hole[q2] {
                        *cp += 1;
                    }
                }
            }
        }
        let (mut cap0, mut cap1, mut no_end, mut colours) = (K::ZERO, K::ZERO, K::ZERO, K::ZERO);
        let (mut end_at, mut end_cap) = (K::ZERO, K::ZERO);
        for (i, &c) in cap.iter().enumerate().take(l) {
            let bit = K::from_u8(1) << (4 * i);
            if (p + 1 + i).checked_sub(l).is_some_and(fixed) {
                end_at |= bit;
                if c > 0 {
                    end_cap |= bit;
                }
                continue;
            }
            match c {
                0 => cap0 |= bit,
                1 => cap1 |= bit,
                _ => {}
            }
            if let Some(q) = (p + 1 + i).checked_sub(l) {
                if minor == Some(colour(q)) {
                    no_end |= bit;
                }
                colours |= K::from_u8(colour(q)) << (4 * i);
            }
        }
        // With both ends fixed no other square may end the tour.
        let free_ends = !closed && self.ends.len() < 2;
        let leaving_fixed = p.checked_sub(l).is_some_and(fixed);
        let leaving_no_end = !leaving_fixed
            && (!free_ends || p.checked_sub(l).is_some_and(|q| minor == Some(colour(q))));
        let leaving_colour = p.checked_sub(l).map_or(0, colour);
        // Squares after p that may fall short of moves: those with fewer than they need among
        // the squares after p, so that some must come from the window (not yet done ones).
        let mut futs: Vec<Future<K>> = Vec::new();
        for q in p + 1..(p + 1 + 2 * w + 2).min(n) {
            if hole[q] {
                continue;
            }
            let (qr, qc) = (q / w, q % w);
            let mut later = 0u8;
            let mut mask = K::ZERO;
            for (dr, dc) in KNIGHT {
                let (r2, c2) = (qr as i64 + dr, qc as i64 + dc);
                if r2 < 0 || c2 < 0 || c2 as usize >= w || r2 as usize >= h {
                    continue;
                }
                let x = r2 as usize * w + c2 as usize;
                if hole[x] {
                    continue;
                }
                if x > p {
                    later += 1;
                } else if x + l > p {
                    mask |= K::from_u8(1) << (4 * (x + l - p - 1));
                }
            }
            let need = if fixed(q) { 1 } else { 2 };
            // A prefix ending before q has q as a hole, needing no moves: counting prefixes,
            // only what holds for every prefix may drop a state.
            if later < need && !prefixes {
                futs.push(Future {
                    mask,
                    gap: need - later,
                    may_end: free_ends && minor != Some(colour(q)) && !fixed(q),
                    colour: colour(q),
                });
            }
        }
        Rule {
            hole: hole[p],
            last: p == last,
            back,
            subsets,
            end_back,
            futs,
            cells,
            ones,
            all_done: ones,
            cap0,
            cap1,
            end_at,
            end_cap,
            free_ends,
            balanced: minor.is_none(),
            colours,
            leaving_colour,
            no_end,
            leaving_no_end,
            l,
            closed,
            prefixes,
        }
    }

    /// The note of square `p`, whose states outgrew the memory.
    fn outgrew<K, T>(&self, p: usize, input: usize, filled: &[Buckets<K, T>]) -> Note {
        let done = filled.iter().map(|b| b.expanded).sum();
        let made = filled.iter().map(|b| b.total).sum();
        let at = self.m.board.square_name(self.actual[p]);
        outgrew::<K, T>(self.mem, at, p + 1, self.n, input, done, made)
    }
}

/// The count, with counts in the narrowest of `u64`, `u128` and [`Wide`] that cannot
/// overflow: `Stopped` when a limit of the run struck.
fn count_in(
    m: &Model,
    ends: &[usize],
    threads: usize,
    mem: &Memory,
    prefixes: bool,
    frontier: &mut Vec<u64>,
    run: &mut Run,
) -> Pass {
    count_as(
        m,
        ends,
        threads,
        mem,
        prefixes,
        wide(m),
        false,
        frontier,
        run,
    )
}

/// Whether the frontier (2w + 1 squares of 4 bits, w the shorter side) needs 128-bit states.
fn wide(m: &Model) -> bool {
    let l = 2 * m.board.width.min(m.board.height) + 1;
    4 * l > u64::ENDS_SHIFT
}

/// The classes of the closed `tours` under the board's symmetries: Burnside's sum of the
/// tours each symmetry fixes (fixed.rs) over the group's order; no count where a limit of
/// the run struck first.
fn up_to_symmetry(m: &Model, tours: Natural, task: &Task, run: &mut Run) -> Answer {
    let fixed = classify(m).expect("applies() refuses the boards it cannot count");
    let mem = Memory::new(task.memory);
    let mut sum = tours.clone();
    for f in &fixed {
        if *f == Fixed::HalfTurn {
            match count_half_turn(m, task.threads.max(1), &mem, run) {
                Pass::Done(c, _) => sum.add(&c),
                Pass::Outgrew(note) => {
                    run.out_of_memory();
                    let mut a = Answer::default();
                    a.notes.push(note);
                    return a;
                }
                Pass::Stopped => return Answer::default(),
            }
        }
    }
    let order = fixed.len() as u64 + 1;
    let left = sum.div_rem_small(order);
    let mut a = Answer::natural(sum);
    if left != 0 {
        a.reason = Some(TourReason::Bug("the classes' weights do not add up".into()).into());
    }
    if let Some(t) = tours.to_u128() {
        a.notes.push(CountNote::SolutionsInAll(t).into());
    }
    a
}

/// The closed tours that the half turn maps to themselves (fixed.rs).
fn count_half_turn(m: &Model, threads: usize, mem: &Memory, run: &mut Run) -> Pass {
    count_as(
        m,
        &[],
        threads,
        mem,
        false,
        wide(m),
        true,
        &mut Vec::new(),
        run,
    )
}

/// [`count_in`] with 128-bit states if `wide`, else 64-bit ones; with `half_turn`, the
/// tours the half turn fixes.
#[allow(clippy::too_many_arguments)]
fn count_as(
    m: &Model,
    ends: &[usize],
    threads: usize,
    mem: &Memory,
    prefixes: bool,
    wide: bool,
    half_turn: bool,
    frontier: &mut Vec<u64>,
    run: &mut Run,
) -> Pass {
    let b = &m.board;
    let transpose = b.height < b.width;
    let (w, h) = if transpose {
        (b.height, b.width)
    } else {
        (b.width, b.height)
    };
    // Sweep square p = r * w + c is the board's (r, c), or (c, r) when transposed.
    let n = w * h;
    let actual: Vec<usize> = (0..n)
        .map(|p| {
            let (r, c) = (p / w, p % w);
            if transpose {
                b.index(c, r)
            } else {
                b.index(r, c)
            }
        })
        .collect();
    let hole: Vec<bool> = (0..n).map(|p| b.is_hole(actual[p])).collect();
    let mut ends: Vec<usize> = m
        .start
        .iter()
        .chain(ends)
        .map(|&s| sweep_index(m, s))
        .collect();
    ends.sort_unstable();
    ends.dedup();
    let last = (0..n)
        .rev()
        .find(|&p| !hole[p])
        .expect("a board has a square");
    if m.cells == 1 && !prefixes {
        return Pass::Done(Natural::from(if m.closed { 0 } else { 1 }), Vec::new());
    }
    let l = 2 * w + 1;
    let mut s = Sweep {
        m,
        actual,
        w,
        h,
        n,
        l,
        hole,
        ends,
        last,
        minor: None,
        closed: m.closed,
        prefixes,
        threads,
        mem,
        cells_so_far: 0,
        table: Vec::new(),
        frontier: Vec::new(),
        half_turn: None,
    };
    // With one square more of one colour than of the other (an odd board), a knight's path
    // alternates colours and so starts and ends on the larger colour: a square of the
    // smaller colour can never be an end.
    let ones = (0..n).filter(|&p| !s.hole[p] && s.colour(p) == 1).count();
    s.minor = match (m.cells - ones).cmp(&ones) {
        std::cmp::Ordering::Greater => Some(1u8),
        std::cmp::Ordering::Less => Some(0u8),
        std::cmp::Ordering::Equal => None,
    };
    if half_turn {
        s.half_turn = Some(twisted_edges(w, n, l, &s.hole));
    }
    let pass = if wide {
        start::<U128>(&mut s, run)
    } else {
        start::<u64>(&mut s, run)
    };
    *frontier = s.frontier;
    pass
}

/// The sweep with states of type `K` (wide enough for the frontier), from its first state:
/// the squares before the board count as done.
fn start<K: Key>(s: &mut Sweep, run: &mut Run) -> Pass {
    let mut init = K::ZERO;
    for i in 0..s.l {
        init = init.with_nibble(i, DONE);
    }
    let mut cur: Vec<Slot<K, u64>> = Vec::new();
    if s.mem.grow(&mut cur, 1).is_err() {
        return Pass::Outgrew(s.outgrew::<K, u64>(0, 0, &[]));
    }
    cur.push(Slot { key: init, ways: 1 });
    sweep(s, 0, cur, run)
}

/// The sweep from square `from` on, the states before it in `cur`: counts in `T` for as long
/// as no sum can overflow it, then in the next wider type.
fn sweep<K: Key, T: Ways>(
    s: &mut Sweep,
    from: usize,
    mut cur: Vec<Slot<K, T>>,
    run: &mut Run,
) -> Pass {
    let mut next: Buckets<K, T> = Buckets::new(s.mem);
    let mut parts: Vec<Buckets<K, T>> = Vec::new();
    let clock = run.clock().clone();
    // The half turn's fixed tours are closed at the middle of the board.
    let end = if s.half_turn.is_some() { s.n / 2 } else { s.n };
    for p in from..end {
        if T::BITS < Widest::BITS && !fits(&cur) {
            drop((next, parts));
            let mut wider: Vec<Slot<K, T::Wider>> = Vec::new();
            if s.mem.grow(&mut wider, cur.len()).is_err() {
                return Pass::Outgrew(s.outgrew::<K, T::Wider>(p, cur.len(), &[]));
            }
            wider.extend(cur.iter().map(|x| Slot {
                key: x.key,
                ways: x.ways.widen(),
            }));
            s.mem.release(&cur);
            drop(cur);
            return sweep::<K, T::Wider>(s, p, wider, run);
        }
        let rule = s.rule(p);
        let input = cur.len();
        let sequential = s.threads == 1 || input < PARALLEL_FROM;
        let full = if sequential {
            next.reset(Buckets::<K, T>::buckets_for(2 * input));
            expand(&cur, &rule, &mut next, &clock).and_then(|_| next.merge_into(&mut cur))
        } else {
            expand_parallel(&mut cur, &mut parts, s.threads, s.mem, |states, next| {
                expand(states, &rule, next, &clock)
            })
        }
        .err();
        let filled: &[Buckets<K, T>] = if sequential {
            std::slice::from_ref(&next)
        } else {
            &parts
        };
        match full {
            // `fits` rules out overflow; the widest type's bits bound every count.
            Some(Full::Overflow) => unreachable!("a count overflowed its {} bits", T::BITS),
            Some(Full::Memory) => return Pass::Outgrew(s.outgrew(p, input, filled)),
            Some(Full::Stopped) => {
                run.check();
                return Pass::Stopped;
            }
            None => {}
        }
        // A prefix ends at a cell: a hole adds none.
        if s.prefixes && !s.hole[p] {
            s.cells_so_far += 1;
            let mut count = Natural::zero();
            for b in filled {
                b.closed.add_to(&mut count);
            }
            if s.cells_so_far.is_multiple_of(2) {
                s.table.push(Prefix {
                    squares: p + 1,
                    cells: s.cells_so_far,
                    count,
                });
            }
        }
        s.frontier.push(cur.len() as u64);
        if run.nodes(cur.len() as u64 + 1) {
            return Pass::Stopped;
        }
    }
    s.mem.release(&cur);
    if let Some(edges) = &s.half_turn {
        return Pass::Done(close(&cur, edges, s.l), Vec::new());
    }
    if s.prefixes {
        let whole = s
            .table
            .last()
            .filter(|t| t.cells == s.m.cells)
            .map_or(Natural::zero(), |t| t.count.clone());
        return Pass::Done(whole, std::mem::take(&mut s.table));
    }
    // Finish: every frontier square must be done; open tours need their two ends.
    let mut total = Natural::zero();
    for &Slot { key: state, ways } in &cur {
        let mut ends = (state >> K::ENDS_SHIFT).low() as u8 & 3;
        let mut ok = true;
        for i in 0..s.l {
            match state.nibble(i) {
                DONE => {}
                FRESH => ok = false,
                _ => {
                    ok &= !s.closed;
                    ends += 1;
                }
            }
        }
        // With no cycles and every square done, two ends in all means one path.
        if ok && (s.closed || ends == 2) {
            ways.add_to(&mut total);
        }
    }
    Pass::Done(total, Vec::new())
}

/// Whether no sum at the next square can overflow `T`: a new state's count is a sum of the
/// counts of states before, each taken at most once per set of back moves (at most 11), so
/// all of them together are below 16 times the states' number times their largest count.
fn fits<K, T: Ways>(cur: &[Slot<K, T>]) -> bool {
    let largest = cur.iter().map(|x| x.ways.bits()).max().unwrap_or(0);
    let spread = usize::BITS - cur.len().leading_zeros();
    largest + spread + 4 <= T::BITS
}

/// The note of a square whose states outgrew the memory: `made` new states from `done` of
/// its `input` states. The square would need its input and, projected from the share done,
/// its new states twice (in their buckets, and merged), or at least what was refused.
fn outgrew<K, T>(
    mem: &Memory,
    at: String,
    index: usize,
    squares: usize,
    input: usize,
    done: usize,
    made: usize,
) -> Note {
    let size = std::mem::size_of::<Slot<K, T>>() as u128;
    let projected = (made as u128 * input as u128 / done.max(1) as u128).max(made as u128);
    let needed = (input as u128 + 2 * projected) * size;
    Note::from(TourNote::FrontierOutgrew {
        at,
        index,
        squares,
        input,
        done,
        made,
        needed: (needed.min(u64::MAX as u128) as u64).max(mem.wanted()),
        budget: mem.budget(),
    })
}

/// What [`emit`] checks a new state against at one square. Sets of window positions
/// (after the shift) are masks with the lowest bit of each position's nibble.
struct Rule<K> {
    /// The square is a hole; the last square of the board.
    hole: bool,
    last: bool,
    /// Back moves as window positions, the sets of them the square may take, and those
    /// of them (bits by index in `back`) to a fixed end.
    back: Vec<usize>,
    subsets: Vec<u32>,
    end_back: u32,
    /// Squares to come that may run short of moves.
    futs: Vec<Future<K>>,
    /// The nibbles of the window's cells, and the lowest bit of each.
    cells: K,
    ones: K,
    /// Every cell done.
    all_done: K,
    l: usize,
    closed: bool,
    /// Positions other than fixed ends that can gain no more moves, or one more.
    cap0: K,
    cap1: K,
    /// The fixed ends in the new window, and those of them that can still gain their move.
    end_at: K,
    end_cap: K,
    /// An open tour whose ends are not both fixed: other squares may end it.
    free_ends: bool,
    /// Positions whose squares cannot end an open tour (colour).
    no_end: K,
    /// The square leaving the window cannot end an open tour.
    leaving_no_end: bool,
    /// As many squares of each colour: the two ends of an open tour differ in colour.
    balanced: bool,
    /// Colour of each position of the new window (nibble-wise), and of the leaving square.
    colours: K,
    leaving_colour: u8,
    /// Counting every prefix: a cycle through every square so far is a tour of the prefix
    /// that ends at this square, counted in the buckets' `closed`.
    prefixes: bool,
}

/// The state after the square (`cs` with the square's own state `me`, the window shifted):
/// dropped if a square can no longer get its moves, else its labels made canonical and
/// added to `next`. An error when a count overflowed or the table outgrew its memory.
fn emit<K: Key, T: Ways>(
    next: &mut Buckets<K, T>,
    cs: K,
    rule: &Rule<K>,
    me: u8,
    info: u8,
    ways: T,
) -> Result<(), Full> {
    let (l, closed) = (rule.l, rule.closed);
    // Ends so far, and the colour of the first (on boards with as many squares of each
    // colour the two ends differ in colour).
    let (mut ends, mut first) = (info & 3, info >> 2 & 1);
    let add_end = |ends: &mut u8, first: &mut u8, c: u8| -> bool {
        if rule.balanced {
            if *ends == 0 {
                *first = c;
            } else if *ends == 1 && c == *first {
                return false;
            }
        }
        *ends += 1;
        *ends <= 2
    };
    match cs.nibble(0) {
        DONE => {}
        FRESH => return Ok(()),
        _ => {
            if closed || rule.leaving_no_end || !add_end(&mut ends, &mut first, rule.leaving_colour)
            {
                return Ok(());
            }
        }
    }
    let sh = cs >> 4 | K::from_u8(me) << (4 * (l - 1));
    // Squares that can no longer get the moves they need: none at all, or (for open
    // tours) squares that must end the tour, more than the two ends allow.
    let fresh = sh.equal_nibbles(FRESH, rule.ones);
    let mut done = sh.equal_nibbles(DONE, rule.ones);
    if !(fresh & rule.cap0).is_zero() {
        return Ok(());
    }
    let mut short = (fresh & rule.cap1) | (rule.cap0 & !fresh & !done);
    // A fixed end needs one move, and once it has it, it can give no other.
    if !(fresh & rule.end_at & !rule.end_cap).is_zero() {
        return Ok(());
    }
    done |= rule.end_at & !fresh;
    let (mut forced_ends, mut forced_first) = (ends, first);
    if !short.is_zero() {
        if closed || !rule.free_ends || !(short & rule.no_end).is_zero() {
            return Ok(());
        }
        while !short.is_zero() {
            let c = ((rule.colours >> short.trailing_zeros()).low() & 1) as u8;
            if !add_end(&mut forced_ends, &mut forced_first, c) {
                return Ok(());
            }
            short = short.clear_lowest();
        }
    }
    // A square to come with exactly as many open window neighbours as it needs takes a
    // move from each (unless it may end the tour and so need a move less): a window square
    // can give no more moves than it has left.
    let (mut once, mut twice, mut thrice) = (K::ZERO, K::ZERO, K::ZERO);
    for f in &rule.futs {
        let open = f.mask & !done;
        let rest = open.clear_lowest();
        let short = match (f.gap, open.is_zero()) {
            (_, true) => f.gap,
            (2, _) if rest.is_zero() => 1,
            (1, _) if rest.is_zero() => 0,
            (2, _) if rest.clear_lowest().is_zero() => 0,
            _ => continue,
        };
        if short == 0 {
            if f.may_end && ends < 2 {
                continue;
            }
            thrice |= twice & open;
            twice |= once & open;
            once |= open;
            continue;
        }
        if short > 1 || !f.may_end || !add_end(&mut forced_ends, &mut forced_first, f.colour) {
            return Ok(());
        }
    }
    if !(twice & !fresh).is_zero() || !thrice.is_zero() {
        return Ok(());
    }
    // Canonical labels: numbered 2, 3, ... in order of first appearance.
    let mut labelled = (sh >> 1 | sh >> 2 | sh >> 3) & rule.ones;
    let mut out = sh & !labelled.times(15);
    let mut label = 2u8;
    while !labelled.is_zero() {
        let x = ((sh >> labelled.trailing_zeros()).low() & 15) as u8;
        let same = sh.equal_nibbles(x, labelled);
        out |= same.times(label);
        label += 1;
        labelled &= !same;
    }
    let first = if ends == 1 { first } else { 0 };
    out |= K::from_u8(ends | first << 2) << K::ENDS_SHIFT;
    next.add(out, ways)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, StopReason};
    use crate::spec::{Overrides, Spec};

    fn model(text: &str) -> Model {
        let spec = Spec::parse("t.toml", text, &Overrides::default()).unwrap();
        Model::compile(&spec).unwrap()
    }

    fn total(pass: Pass) -> u128 {
        match pass {
            Pass::Done(c, _) => c.to_u128().unwrap(),
            _ => panic!("the count did not finish"),
        }
    }

    #[test]
    fn the_pairs_of_ends_sum_to_the_sweep_with_free_ends() {
        // Boards too small for `by_pairs` to choose the pairs: both ways in process, with
        // holes, a start, and odd and even numbers of cells.
        let boards = [
            "[board]\nsize = 5\n",
            "[board]\nwidth = 6\nheight = 5\n",
            "[board]\nwidth = 4\nheight = 5\n",
            "[board]\nsize = 5\n[rules]\nstart = [0, 2]\n",
            "[board]\nsize = 6\nholes = [[0, 0], [2, 3], [5, 4], [3, 3]]\n",
            "[board]\nwidth = 5\nheight = 6\nholes = [[1, 1]]\n[rules]\nstart = [0, 3]\n",
        ];
        for board in boards {
            let m = model(&format!("kind = \"tour\"\n{board}"));
            let mem = Memory::new(None);
            let mut run = Run::new(Limits::default());
            let sweep = total(count_in(&m, &[], 1, &mem, false, &mut Vec::new(), &mut run));
            let pairs = total(count_by_pairs(&m, &end_pairs(&m), 2, &mem, &mut run));
            assert_eq!(pairs, sweep, "{board}");
            assert!(sweep > 0, "{board}");
        }
    }

    #[test]
    fn wide_states_count_what_narrow_ones_count() {
        // Boards narrow enough for 64-bit states, counted with both: open and closed, holes,
        // a start, odd and even numbers of cells, and every prefix.
        let boards = [
            ("[board]\nsize = 5\n", false, false),
            ("[board]\nwidth = 6\nheight = 5\n", true, true),
            (
                "[board]\nsize = 6\nholes = [[0, 0], [2, 3], [5, 4]]\n",
                true,
                true,
            ),
            ("[board]\nsize = 6\nholes = [[1, 1]]\n", false, false),
            ("[board]\nsize = 6\n", true, false),
            (
                "[board]\nwidth = 5\nheight = 6\n[rules]\nstart = [0, 3]\n",
                false,
                false,
            ),
            ("[board]\nwidth = 12\nheight = 3\n", true, true),
        ];
        for (board, closed, prefixes) in boards {
            let rules = if closed {
                "[rules]\nclosed = true\n"
            } else {
                ""
            };
            let m = model(&format!("kind = \"tour\"\n{board}{rules}"));
            let (mem, mut run) = (Memory::new(None), Run::new(Limits::default()));
            let mut sweep = |wide| {
                let mut frontier = Vec::new();
                match count_as(
                    &m,
                    &[],
                    1,
                    &mem,
                    prefixes,
                    wide,
                    false,
                    &mut frontier,
                    &mut run,
                ) {
                    Pass::Done(c, table) => (c, table, frontier),
                    _ => panic!("the count did not finish: {board}"),
                }
            };
            let (narrow, wide) = (sweep(false), sweep(true));
            assert_eq!(narrow, wide, "{board}");
            let zero = Natural::zero();
            assert!(
                narrow.0 > zero || narrow.1.iter().any(|p| p.count > zero),
                "{board}"
            );
            assert_eq!(narrow.2.len(), m.board.width * m.board.height, "{board}");
        }
    }

    #[test]
    fn the_half_turn_fixes_the_published_number_of_8x8_tours() {
        // 8 x 1,658,420,855,433 classes (Jelliss) less McKay's 13,267,364,410,532 tours: the
        // reflections and the quarter turns fix none of them (fixed.rs), the half turn the
        // rest.
        let m = model("kind = \"tour\"\n[board]\nsize = 8\n[rules]\nclosed = true\n");
        assert_eq!(
            classify(&m)
                .unwrap()
                .iter()
                .filter(|&&f| f == Fixed::HalfTurn)
                .count(),
            1
        );
        let (mem, mut run) = (Memory::new(None), Run::new(Limits::default()));
        let fixed = total(count_half_turn(&m, 2, &mem, &mut run));
        assert_eq!(8 * 1_658_420_855_433 - 13_267_364_410_532u128, 2_432_932);
        assert_eq!(fixed, 2_432_932);
    }

    #[test]
    fn a_square_stops_within_its_expansion_when_the_clock_says_so() {
        let text = "kind = \"tour\"\n[board]\nsize = 6\n[solve]\ngoal = \"count\"\n";
        let spec = Spec::parse("t.toml", text, &Overrides::default()).unwrap();
        let m = Model::compile(&spec).unwrap();
        let clock = Clock::new(Some(std::time::Duration::ZERO), None);
        let mut run = Run::new(Limits::default()).with_clock(clock);
        let a = Count.solve(&m, &Task::default(), &mut run);
        assert_eq!(run.stopped(), Some(StopReason::Time));
        // Stopped in the first square's expansion, before any square's states were counted.
        assert_eq!(run.stats.nodes, 0);
        assert_eq!(a.count, None);
    }
}
