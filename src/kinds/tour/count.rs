//! `count`: exact counting by frontier dynamic programming, for the knight on boards whose
//! shorter side is at most 7 (holes allowed).
//!
//! Squares are taken one at a time in row order along the shorter side (the board is
//! transposed when it is taller than wide). A knight's move from a square reaches back at
//! most 2w + 1 squares, so only the last L = 2w + 1 squares can still gain moves: they are
//! the frontier. Choosing which back moves each new square uses builds the tour's edges;
//! partial tours are grouped by what the rest of the search can see of them:
//!
//! - per frontier square: no move yet (0), two moves or a hole (1), or one move, with the
//!   label of the path fragment it ends (2..15; the two ends of a fragment share a label,
//!   a fragment whose other end has left the frontier as a tour end shows its label once);
//! - for open tours, how many squares have left the frontier as tour ends (0 to 2).
//!
//! That fits one `u64` (4 bits a square, L <= 15). A square leaving the frontier must be
//! done: two moves, or for an open tour one move as one of the two ends; on a board with
//! one square more of one colour, an end must be of that colour (the knight alternates
//! colours), which more than halves the states of 5x5; with as many of each, the two ends
//! differ in colour, so the state also keeps the first end's colour (6x6 open: 28.8 M
//! states in all to 19.0 M). Joining the two
//! ends of one fragment closes a cycle: forbidden for open tours, and for closed ones allowed
//! only at the last square when nothing else is open. Counts run in `u64` (half the memory
//! traffic of `u128`); should one overflow, the count is redone in `u128`, so it stays exact.
//!
//! Conventions (puzzle-format.md section 3): closed tours are undirected cycles; open tours
//! without a start are directed (twice the paths); with a start, directed from it (the
//! start then has exactly one move, as an end).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Existence, Model};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

pub struct Count;

/// The longest frontier that fits a `u64` state with 4 bits a square.
const MAX_SHORT_SIDE: usize = 7;

/// States kept at one square at most (two tables, about 60 bytes a state with slack): a
/// frontier that grows beyond stops the count as a limit rather than eating memory.
const MAX_STATES: usize = 8_000_000;

impl Strategy<Model> for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn about(&self) -> &'static str {
        "exact counts by frontier dynamic programming (knight, shorter side up to 7)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        if task.goal != Goal::Count {
            return Err("counts only (goal count)".into());
        }
        super::no_unique(task)?;
        if m.piece.leaps != [(2, 1)] {
            return Err("its frontier is shaped for the knight's moves".into());
        }
        let short = m.board.width.min(m.board.height);
        if short > MAX_SHORT_SIDE {
            return Err(format!(
                "the frontier of a board with shorter side {short} does not fit its 64-bit \
                 states; it takes shorter sides up to {MAX_SHORT_SIDE}"
            ));
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        let mut a = match count(m, run) {
            Some(c) => Answer::count(c),
            None => return Answer::default(),
        };
        if a.count == Some(0) {
            a.reason = Some(match m.existence {
                Existence::Exists(_) => "the count is 0 (contradicting a theorem: a bug)".into(),
                _ => "the exhaustive count is 0".into(),
            });
        }
        a.notes.extend(m.counting_note(task));
        a
    }
}

/// Multiplicative hashing: states are already well-mixed bit patterns.
#[derive(Default)]
struct MulHash(u64);

impl Hasher for MulHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        let x = v.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

type States<T> = HashMap<u64, T, BuildHasherDefault<MulHash>>;

/// Path counts: `u64`, or `u128` when a `u64` count overflowed.
trait Ways: Copy + Default + Into<u128> {
    fn add(self, other: Self) -> Option<Self>;
    fn one() -> Self;
}

impl Ways for u64 {
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn one() -> Self {
        1
    }
}

impl Ways for u128 {
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn one() -> Self {
        1
    }
}

/// Outcome of one counting pass.
enum Pass {
    Done(u128),
    Stopped,
    Overflow,
}

fn count(m: &Model, run: &mut Run) -> Option<u128> {
    match count_in::<u64>(m, run) {
        Pass::Done(c) => Some(c),
        Pass::Stopped => None,
        Pass::Overflow => match count_in::<u128>(m, run) {
            Pass::Done(c) => Some(c),
            _ => None,
        },
    }
}

const DONE: u8 = 1;

const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// A square not yet placed that may run short of moves: it has `later` neighbours among the
/// squares still to come and the window positions `mask`, of which those not done can still
/// give it one move each.
struct Future {
    mask: u32,
    later: u8,
    need: u8,
    may_end: bool,
    colour: u8,
}
const FRESH: u8 = 0;

/// `None` when a limit of the run struck.
fn count_in<T: Ways>(m: &Model, run: &mut Run) -> Pass {
    let b = &m.board;
    let transpose = b.height < b.width;
    let (w, h) = if transpose {
        (b.height, b.width)
    } else {
        (b.width, b.height)
    };
    // Logical square p = r * w + c is the board's (r, c), or (c, r) when transposed.
    let actual = |p: usize| {
        let (r, c) = (p / w, p % w);
        if transpose {
            b.index(c, r)
        } else {
            b.index(r, c)
        }
    };
    let n = w * h;
    let hole: Vec<bool> = (0..n).map(|p| b.is_hole(actual(p))).collect();
    let start = m
        .start
        .map(|s| (0..n).find(|&p| actual(p) == s).expect("start on board"));
    let last = (0..n)
        .rev()
        .find(|&p| !hole[p])
        .expect("a board has a square");
    if m.cells == 1 {
        return Pass::Done(if m.closed { 0 } else { 1 });
    }
    let l = 2 * w + 1;
    // With one square more of one colour than of the other (an odd board), a knight's path
    // alternates colours and so starts and ends on the larger colour: a square of the
    // smaller colour can never be an end. `minor` is that colour, if any.
    let colour = |p: usize| ((p / w + p % w) % 2) as u8;
    let ones = (0..n).filter(|&p| !hole[p] && colour(p) == 1).count();
    let zeros = m.cells - ones;
    let minor = match zeros.cmp(&ones) {
        std::cmp::Ordering::Greater => Some(1u8),
        std::cmp::Ordering::Less => Some(0u8),
        std::cmp::Ordering::Equal => None,
    };
    let closed = m.closed;
    let ends_shift = 60;
    let mut cur: States<T> = States::default();
    // Squares before the board count as done.
    let mut init = 0u64;
    for i in 0..l {
        init |= (DONE as u64) << (4 * i);
    }
    cur.insert(init, T::one());
    let mut next: States<T> = States::default();
    let mut overflow = false;
    let mut cells = [0u8; 16];
    for p in 0..n {
        next.clear();
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
        let max_deg = if Some(p) == start { 1 } else { 2 };
        // Moves each square of the next window still can gain: from squares after p.
        let mut cap = [0u8; 16];
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
        let start_at = start.and_then(|st| (st + l).checked_sub(p + 1));
        let mut tight = [0u8; 16];
        let mut tight_len = 0;
        for (i, &c) in cap.iter().enumerate().take(l) {
            if c < 2 || start_at == Some(i) {
                tight[tight_len] = i as u8;
                tight_len += 1;
            }
        }
        // Window positions (after the shift) and the leaving square that may not end a path.
        let mut no_end = 0u32;
        for i in 0..l {
            if let Some(q) = (p + 1 + i).checked_sub(l)
                && minor == Some(colour(q))
            {
                no_end |= 1 << i;
            }
        }
        let leaving_no_end = p.checked_sub(l).is_some_and(|q| minor == Some(colour(q)));
        let mut colours = 0u32;
        for i in 0..l {
            if let Some(q) = (p + 1 + i).checked_sub(l) {
                colours |= (colour(q) as u32) << i;
            }
        }
        let leaving_colour = p.checked_sub(l).map_or(0, colour);
        // Squares after p that may fall short of moves: those with fewer than they need among
        // the squares after p, so that some must come from the window (not yet done ones).
        let mut futs: Vec<Future> = Vec::new();
        for q in p + 1..(p + 1 + 2 * w + 2).min(n) {
            if hole[q] {
                continue;
            }
            let (qr, qc) = (q / w, q % w);
            let mut later = 0u8;
            let mut mask = 0u32;
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
                    mask |= 1 << (x + l - p - 1);
                }
            }
            let need = if Some(q) == start { 1 } else { 2 };
            if later < need {
                futs.push(Future {
                    mask,
                    later,
                    need,
                    may_end: !closed && minor != Some(colour(q)) && Some(q) != start,
                    colour: colour(q),
                });
            }
        }
        let rule = Rule {
            futs,
            balanced: minor.is_none(),
            colours,
            leaving_colour,
            no_end,
            leaving_no_end,
            l,
            closed,
            cap,
            start_at,
            tight,
            tight_len,
        };
        let is_last = p == last;
        for (&state, &ways) in cur.iter() {
            for (i, cell) in cells.iter_mut().enumerate().take(l) {
                *cell = (state >> (4 * i) & 15) as u8;
            }
            let ends = (state >> ends_shift) as u8;
            if hole[p] {
                overflow |= !emit(&mut next, &cells, &rule, DONE, ends, ways);
                continue;
            }
            let k = back.len();
            let mut open_to = 0u32;
            for (j, &pos) in back.iter().enumerate() {
                if cells[pos] != DONE {
                    open_to |= 1 << j;
                }
            }
            for subset in 0u32..(1 << k) {
                let deg = subset.count_ones();
                if deg > max_deg || subset & !open_to != 0 {
                    continue;
                }
                let mut cs = cells;
                // The new square's own state: FRESH, a label, or DONE.
                let mut me = FRESH;
                let mut ok = true;
                let mut cycle = false;
                for (j, &pos) in back.iter().enumerate() {
                    if subset >> j & 1 == 0 {
                        continue;
                    }
                    let u = cs[pos];
                    if u == DONE {
                        ok = false;
                        break;
                    }
                    // The start takes one move only: it ends the tour.
                    if u != FRESH && start.is_some() && (p + pos).checked_sub(l) == start {
                        ok = false;
                        break;
                    }
                    if me == FRESH {
                        if u == FRESH {
                            let lab = fresh_label(&cs, l);
                            cs[pos] = lab;
                            me = lab;
                        } else {
                            cs[pos] = DONE;
                            me = u;
                        }
                    } else {
                        // Second move: the new square is done; join its fragment with u's.
                        let a = me;
                        me = DONE;
                        if u == FRESH {
                            cs[pos] = a;
                        } else if u == a {
                            cs[pos] = DONE;
                            cycle = true;
                        } else {
                            cs[pos] = DONE;
                            for x in cs.iter_mut().take(l) {
                                if *x == u {
                                    *x = a;
                                }
                            }
                        }
                    }
                }
                if !ok {
                    continue;
                }
                if cycle {
                    // One cycle through every square: only at the last square, with
                    // nothing else open.
                    if !closed || !is_last || cs[..l].iter().any(|&x| x != DONE) || me != DONE {
                        continue;
                    }
                }
                overflow |= !emit(&mut next, &cs, &rule, me, ends, ways);
            }
        }
        std::mem::swap(&mut cur, &mut next);
        if overflow {
            return Pass::Overflow;
        }
        if run.nodes(cur.len() as u64 + 1) {
            return Pass::Stopped;
        }
        if cur.len() > MAX_STATES {
            run.out_of_memory();
            return Pass::Stopped;
        }
    }
    // Finish: every frontier square must be done; open tours need their two ends.
    let mut total: u128 = 0;
    for (&state, &ways) in cur.iter() {
        let mut ends = (state >> ends_shift) as u8 & 3;
        let mut ok = true;
        for i in 0..l {
            let x = (state >> (4 * i) & 15) as u8;
            match x {
                DONE => {}
                FRESH => ok = false,
                lab => {
                    if closed {
                        ok = false;
                    }
                    let _ = lab;
                    ends += 1;
                }
            }
        }
        // With no cycles and every square done, two ends in all means one path.
        if !ok {
            continue;
        }
        if closed || ends == 2 {
            total += ways.into();
        }
    }
    // Paths counted once each; without a start they are directed both ways.
    Pass::Done(if closed || start.is_some() {
        total
    } else {
        2 * total
    })
}

fn fresh_label(cs: &[u8; 16], l: usize) -> u8 {
    let mut used = 0u32;
    for &x in &cs[..l] {
        used |= 1 << x;
    }
    (2..16).find(|&v| used >> v & 1 == 0).unwrap_or(15) as u8
}

/// Shift the new square in, let the oldest leave (it must be done, or an open tour's end),
/// normalise labels, and add the ways to the next states.
/// What [`emit`] checks a new state against at one square.
struct Rule {
    /// Squares to come that may run short of moves.
    futs: Vec<Future>,
    l: usize,
    closed: bool,
    /// Moves each square of the new window can still gain.
    cap: [u8; 16],
    /// The start's position in the new window, if it is there.
    start_at: Option<usize>,
    /// Window positions that may fall short of moves (cap below 2, or the start).
    tight: [u8; 16],
    tight_len: usize,
    /// Positions of the new window whose squares cannot end an open tour (colour).
    no_end: u32,
    /// The square leaving the window cannot end an open tour.
    leaving_no_end: bool,
    /// As many squares of each colour: the two ends of an open tour differ in colour.
    balanced: bool,
    /// Colour of each position of the new window, and of the leaving square.
    colours: u32,
    leaving_colour: u8,
}

/// A square to come short of moves by more than one, or short by one and unable to be an end.
fn need_more(f: &Future, avail: u8) -> bool {
    f.need - avail > 1 || !f.may_end
}

/// `false` when a count overflowed.
fn emit<T: Ways>(
    next: &mut States<T>,
    cs: &[u8; 16],
    rule: &Rule,
    me: u8,
    info: u8,
    ways: T,
) -> bool {
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
    let leaving = cs[0];
    match leaving {
        DONE => {}
        FRESH => return true,
        _ => {
            if closed || rule.leaving_no_end || !add_end(&mut ends, &mut first, rule.leaving_colour)
            {
                return true;
            }
        }
    }
    // Squares that can no longer get the moves they need: none at all, or (for open
    // tours) squares that must end the tour, more than the two ends allow.
    let (mut forced_ends, mut forced_first) = (ends, first);
    for &i in &rule.tight[..rule.tight_len] {
        let i = i as usize;
        let x = if i + 1 < l { cs[i + 1] } else { me };
        let need = match x {
            DONE => 0,
            FRESH if rule.start_at == Some(i) => 1,
            FRESH => 2,
            _ if rule.start_at == Some(i) => 0,
            _ => 1,
        };
        let cap = rule.cap[i];
        if cap >= need {
            continue;
        }
        if closed || need - cap > 1 || rule.no_end >> i & 1 != 0 {
            return true;
        }
        let c = (rule.colours >> i & 1) as u8;
        if !add_end(&mut forced_ends, &mut forced_first, c) {
            return true;
        }
    }
    let mut out = 0u64;
    let mut map = [0u8; 16];
    let mut nextlab = 2u8;
    let mut done = 0u32;
    for i in 0..l {
        let x = if i + 1 < l { cs[i + 1] } else { me };
        let y = if x >= 2 {
            if map[x as usize] == 0 {
                map[x as usize] = nextlab;
                nextlab += 1;
            }
            map[x as usize]
        } else {
            x
        };
        out |= (y as u64) << (4 * i);
        // The start with its one move can give no other.
        if y == DONE || (y != FRESH && rule.start_at == Some(i)) {
            done |= 1 << i;
        }
    }
    for f in &rule.futs {
        let avail = f.later + (f.mask & !done).count_ones() as u8;
        if avail >= f.need {
            continue;
        }
        if need_more(f, avail) || !add_end(&mut forced_ends, &mut forced_first, f.colour) {
            return true;
        }
    }
    let first = if ends == 1 { first } else { 0 };
    out |= ((ends | first << 2) as u64) << 60;
    let slot = next.entry(out).or_default();
    match slot.add(ways) {
        Some(v) => {
            *slot = v;
            true
        }
        None => false,
    }
}
