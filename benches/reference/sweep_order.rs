//! Closed knight's tours of a W x H board counted by a generic frontier sweep in a chosen
//! order of the squares, to compare orders by the states they hold. Standalone (no crates):
//!
//!     rustc -O --edition 2021 benches/reference/sweep_order.rs -o /tmp/sweep_order
//!     /tmp/sweep_order W H ORDER [--cap STATES] [--squares K] [--mem GB] [--secs S]
//!                                [--plain] [--quiet]
//!     /tmp/sweep_order W H widths
//!     /tmp/sweep_order W H perms [TOP]
//!     /tmp/sweep_order W H search [SEED] [ROUNDS] [FROM-ORDER]
//!
//! ORDER (i runs along the longer side, j across the shorter, of s places):
//!   rows        lines of s squares across the shorter side, one after another along the
//!               longer side, each from j = 0 up (boardsolve's `count`)
//!   rows:P      the same lines, each in the order P of its places (a permutation of 0..s-1,
//!               comma-separated)
//!   rows-oe     the same lines, each with its odd places up, then its even places down
//!   rows-long   lines along the longer side, one after another across the shorter
//!   diag        anti-diagonals i + j = const, each from j = 0 up
//!   bandK       bands of K lines across the shorter side; in a band, its K squares at each
//!               place j, place after place
//!   snakeK      bandK with every other band from j = s-1 down (after whole bands the swept
//!               part is symmetric, so its states match bandK's square by square)
//!   slopeAB     lines A*i + B*j = const (digits A, B), each from j = 0 up
//!   list:a,b,.. the squares y * W + x in the order given (what `search` prints)
//!
//! The frontier after a square is the squares swept so far that still have a knight
//! neighbour to come. A state gives each frontier square, in the order they entered: no move
//! yet (0), two moves (1), or one move and the label of the path fragment it ends, the two
//! ends of a fragment sharing a label, numbered 2, 3, ... in order of first appearance. The
//! new square takes up to two moves back to frontier squares with fewer than two; joining
//! the two ends of one fragment closes a cycle, allowed only at the last square. A square
//! leaving the frontier must have two moves. The look-ahead, the same for every order (off
//! with --plain): a state is dropped as soon as a frontier square has fewer neighbours to
//! come than the moves it lacks, or a square to come has fewer neighbours to come and
//! frontier neighbours with a move left than the two moves it needs. States are merged in
//! an open-addressing hash table of 128-bit keys (4 bits a square, up to 28 frontier
//! squares) with 64-bit counts.
//!
//! Prints the states after each square, then the count, the widest square and the states
//! in all. The sweep stops with --squares after K squares, with --cap at the first square
//! with more than STATES states, with --secs at the first square ending past S seconds of
//! wall time, with --mem before the tables pass GB gigabytes (default 6). `widths` prints
//! the frontier width (most squares in the frontier after any square) of the named orders;
//! `perms` the TOP (default 10) orders `rows:P` by frontier width, then by the sum over
//! squares of 3 to the frontier's size; `search` anneals an order by the same measure,
//! from FROM-ORDER (default rows), and prints it, numbered on the board and as a `list:`.

use std::time::Instant;

const FRESH: u8 = 0;
const DONE: u8 = 1;
/// The label of the new square's fragment before the renumbering: above every 4-bit label.
const NEW: u8 = 16;
const MAX_FRONTIER: usize = 28;

const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

struct Board {
    w: usize,
    h: usize,
    adj: Vec<Vec<usize>>,
}

impl Board {
    fn new(w: usize, h: usize) -> Board {
        let mut adj = vec![Vec::new(); w * h];
        for y in 0..h {
            for x in 0..w {
                for (dx, dy) in KNIGHT {
                    let (x2, y2) = (x as i64 + dx, y as i64 + dy);
                    if x2 >= 0 && y2 >= 0 && (x2 as usize) < w && (y2 as usize) < h {
                        adj[y * w + x].push(y2 as usize * w + x2 as usize);
                    }
                }
            }
        }
        Board { w, h, adj }
    }

    fn n(&self) -> usize {
        self.w * self.h
    }

    /// The square at `i` along the longer side and `j` across the shorter.
    fn at(&self, i: usize, j: usize) -> usize {
        if self.w >= self.h {
            j * self.w + i
        } else {
            i * self.w + j
        }
    }

    fn sides(&self) -> (usize, usize) {
        (self.w.max(self.h), self.w.min(self.h))
    }
}

fn order_named(b: &Board, name: &str) -> Result<Vec<usize>, String> {
    let (long, s) = b.sides();
    let mut o = Vec::with_capacity(b.n());
    if name == "rows" {
        for i in 0..long {
            for j in 0..s {
                o.push(b.at(i, j));
            }
        }
    } else if let Some(list) = name.strip_prefix("rows:") {
        // Every line in the same order of its places across the shorter side.
        let places: Vec<usize> = list
            .split(',')
            .map(|t| t.trim().parse().map_err(|_| format!("place {t} in {name}")))
            .collect::<Result<_, _>>()?;
        let mut sorted = places.clone();
        sorted.sort_unstable();
        if sorted != (0..s).collect::<Vec<_>>() {
            return Err(format!("{name}: the places 0..{} once each", s - 1));
        }
        for i in 0..long {
            for &j in &places {
                o.push(b.at(i, j));
            }
        }
    } else if name == "rows-oe" {
        // Each line's odd places up, then its even places down: a square two lines back
        // leaves once both its neighbours on the new line are swept, and this order frees one
        // of them with each square from the first on.
        for i in 0..long {
            for j in (1..s).step_by(2).chain((0..s).step_by(2).rev()) {
                o.push(b.at(i, j));
            }
        }
    } else if name == "rows-long" {
        for j in 0..s {
            for i in 0..long {
                o.push(b.at(i, j));
            }
        }
    } else if name == "diag" {
        for d in 0..long + s - 1 {
            for j in 0..s {
                if d >= j && d - j < long {
                    o.push(b.at(d - j, j));
                }
            }
        }
    } else if let Some(k) = name.strip_prefix("band").or(name.strip_prefix("snake")) {
        let k: usize = k.parse().map_err(|_| format!("band width in {name}"))?;
        if k == 0 {
            return Err(format!("band width in {name}"));
        }
        for (band, start) in (0..long).step_by(k).enumerate() {
            for j0 in 0..s {
                let j = if name.starts_with("snake") && band % 2 == 1 {
                    s - 1 - j0
                } else {
                    j0
                };
                for i in start..(start + k).min(long) {
                    o.push(b.at(i, j));
                }
            }
        }
    } else if let Some(ab) = name.strip_prefix("slope") {
        let d: Vec<usize> = ab
            .chars()
            .filter_map(|c| c.to_digit(10))
            .map(|x| x as usize)
            .collect();
        if d.len() != 2 || ab.len() != 2 {
            return Err(format!("slope takes two digits: {name}"));
        }
        let mut cells: Vec<(usize, usize, usize)> = Vec::new();
        for i in 0..long {
            for j in 0..s {
                cells.push((d[0] * i + d[1] * j, j, b.at(i, j)));
            }
        }
        cells.sort();
        o = cells.into_iter().map(|c| c.2).collect();
    } else if let Some(list) = name.strip_prefix("list:") {
        for t in list.split(',') {
            o.push(
                t.trim()
                    .parse()
                    .map_err(|_| format!("square {t} in the list"))?,
            );
        }
        let mut seen = vec![false; b.n()];
        for &c in &o {
            if c >= b.n() || seen[c] {
                return Err(format!("square {c} out of the board or twice"));
            }
            seen[c] = true;
        }
        if o.len() != b.n() {
            return Err(format!(
                "the list has {} squares, the board {}",
                o.len(),
                b.n()
            ));
        }
    } else {
        return Err(format!("unknown order {name}"));
    }
    Ok(o)
}

/// The frontier's size after each square of `order`.
fn widths(b: &Board, order: &[usize]) -> Vec<usize> {
    let n = b.n();
    let mut pos = vec![0; n];
    for (t, &c) in order.iter().enumerate() {
        pos[c] = t;
    }
    let mut diff = vec![0i64; n + 1];
    for c in 0..n {
        let last = b.adj[c].iter().map(|&u| pos[u]).max().unwrap_or(0);
        if last > pos[c] {
            diff[pos[c]] += 1;
            diff[last] -= 1;
        }
    }
    let mut w = Vec::with_capacity(n);
    let mut run = 0i64;
    for d in diff.iter().take(n) {
        run += d;
        w.push(run as usize);
    }
    w
}

/// What the sweep does at one square, from the frontier before it (slots 0..f) and the new
/// square (slot f).
struct Step {
    cell: usize,
    f: usize,
    /// Slots of the new square's neighbours swept before it.
    back: Vec<usize>,
    /// For each slot of the frontier after the square, its slot before (or f).
    keep: Vec<usize>,
    /// Slots with fewer than two neighbours to come (with the look-ahead; else those with
    /// none), and how many they have.
    checks: Vec<(usize, u8)>,
    /// With the look-ahead: squares to come short of neighbours after them, as the slots of
    /// their frontier neighbours and the moves those must give.
    futs: Vec<(Vec<usize>, u8)>,
    last: bool,
}

fn plan(b: &Board, order: &[usize], look: bool) -> Vec<Step> {
    let n = b.n();
    let mut pos = vec![0; n];
    for (t, &c) in order.iter().enumerate() {
        pos[c] = t;
    }
    let mut frontier: Vec<usize> = Vec::new();
    let mut steps = Vec::with_capacity(n);
    for (t, &v) in order.iter().enumerate() {
        let mut ext = frontier.clone();
        ext.push(v);
        let back: Vec<usize> = b.adj[v]
            .iter()
            .filter(|&&u| pos[u] < t)
            .map(|&u| {
                ext.iter()
                    .position(|&x| x == u)
                    .expect("a back neighbour is in the frontier")
            })
            .collect();
        let later = |c: usize| b.adj[c].iter().filter(|&&u| pos[u] > t).count();
        let checks: Vec<(usize, u8)> = ext
            .iter()
            .enumerate()
            .map(|(k, &c)| (k, later(c) as u8))
            .filter(|&(_, l)| l == 0 || (look && l < 2))
            .collect();
        // Squares to come with fewer than two neighbours after them: the rest of their moves
        // must come from frontier squares with a move left.
        let mut futs: Vec<(Vec<usize>, u8)> = Vec::new();
        if look {
            for &q in &order[t + 1..] {
                let l = later(q);
                if l < 2 {
                    let slots: Vec<usize> = b.adj[q]
                        .iter()
                        .filter(|&&u| pos[u] <= t)
                        .map(|&u| {
                            ext.iter()
                                .position(|&x| x == u)
                                .expect("a neighbour of a square to come is in the frontier")
                        })
                        .collect();
                    futs.push((slots, 2 - l as u8));
                }
            }
        }
        let keep: Vec<usize> = (0..ext.len()).filter(|&k| later(ext[k]) > 0).collect();
        steps.push(Step {
            cell: v,
            f: frontier.len(),
            back,
            keep: keep.clone(),
            checks,
            futs,
            last: t + 1 == n,
        });
        frontier = keep.iter().map(|&k| ext[k]).collect();
    }
    steps
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    lo: u64,
    hi: u64,
    /// 0 marks an empty slot: every count is at least 1.
    ways: u64,
}

fn hash(lo: u64, hi: u64, salt: u64) -> u64 {
    let mut z = lo ^ salt ^ hi.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn slot_of(h: u64, cap: usize) -> usize {
    ((h as u128 * cap as u128) >> 64) as usize
}

enum Stop {
    Memory(usize),
    Overflow,
}

/// Open addressing, linear probing; insertions wait in a short buffer after their slot is
/// prefetched, since the table is far larger than the caches. Each square hashes with a
/// salt of its own: the states come in the order of the square before's table, and many
/// keep their key, so with the same hash they would fill the new table front to back at
/// once and pile up into one long run.
struct Table {
    slots: Vec<Entry>,
    salt: u64,
    used: usize,
    pending: Vec<(u64, u64, u64, u64)>,
    mem_limit: usize,
    /// Bytes held outside the table (the states of the square before).
    other: usize,
}

const BATCH: usize = 32;

impl Table {
    fn new(cap: usize, mem_limit: usize, other: usize, salt: u64) -> Result<Table, Stop> {
        let cap = cap.max(1024);
        if (cap * 24 + other) > mem_limit {
            return Err(Stop::Memory(cap * 24 + other));
        }
        Ok(Table {
            slots: vec![Entry::default(); cap],
            salt: hash(salt, 0x5EED, 0),
            used: 0,
            pending: Vec::with_capacity(BATCH),
            mem_limit,
            other,
        })
    }

    #[inline]
    fn add(&mut self, lo: u64, hi: u64, ways: u64) -> Result<(), Stop> {
        let h = hash(lo, hi, self.salt);
        let i = slot_of(h, self.slots.len());
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(i) as *const i8);
        }
        self.pending.push((lo, hi, ways, h));
        if self.pending.len() == BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Stop> {
        for k in 0..self.pending.len() {
            let (lo, hi, ways, h) = self.pending[k];
            self.insert(lo, hi, ways, h)?;
        }
        self.pending.clear();
        if self.used * 10 > self.slots.len() * 8 {
            self.grow()?;
        }
        Ok(())
    }

    #[inline]
    fn insert(&mut self, lo: u64, hi: u64, ways: u64, h: u64) -> Result<(), Stop> {
        let cap = self.slots.len();
        let mut i = slot_of(h, cap);
        loop {
            let e = &mut self.slots[i];
            if e.ways == 0 {
                *e = Entry { lo, hi, ways };
                self.used += 1;
                return Ok(());
            }
            if e.lo == lo && e.hi == hi {
                e.ways = e.ways.checked_add(ways).ok_or(Stop::Overflow)?;
                return Ok(());
            }
            i += 1;
            if i == cap {
                i = 0;
            }
        }
    }

    fn grow(&mut self) -> Result<(), Stop> {
        let cap = self.slots.len() * 3 / 2;
        let need = (cap + self.slots.len()) * 24 + self.other;
        if need > self.mem_limit {
            return Err(Stop::Memory(need));
        }
        let old = std::mem::replace(&mut self.slots, vec![Entry::default(); cap]);
        self.used = 0;
        for e in old.iter().filter(|e| e.ways != 0) {
            self.insert(e.lo, e.hi, e.ways, hash(e.lo, e.hi, self.salt))?;
        }
        Ok(())
    }

    /// The states, packed at the front of the table's memory.
    fn into_states(mut self) -> Result<Vec<Entry>, Stop> {
        self.flush()?;
        let mut k = 0;
        for i in 0..self.slots.len() {
            if self.slots[i].ways != 0 {
                self.slots[k] = self.slots[i];
                k += 1;
            }
        }
        self.slots.truncate(k);
        self.slots.shrink_to_fit();
        Ok(self.slots)
    }
}

struct Limits {
    cap: usize,
    secs: f64,
    squares: usize,
    mem: usize,
    quiet: bool,
    look: bool,
}

struct Outcome {
    per_square: Vec<usize>,
    total: u64,
    stopped: Option<String>,
}

fn sweep(b: &Board, order: &[usize], lim: &Limits) -> Outcome {
    let steps = plan(b, order, lim.look);
    let wid = widths(b, order);
    let mut cur: Vec<Entry> = vec![Entry {
        lo: 0,
        hi: 0,
        ways: 1,
    }];
    let mut out = Outcome {
        per_square: Vec::new(),
        total: 0,
        stopped: None,
    };
    let mut growth = 2.0f64;
    let clock = Instant::now();
    for (t, st) in steps.iter().enumerate() {
        let why = if t == lim.squares {
            Some(format!("after {t} squares"))
        } else if st.f + 1 > MAX_FRONTIER {
            Some(format!(
                "square {}: a frontier of {} squares passes {MAX_FRONTIER}",
                t + 1,
                st.f + 1
            ))
        } else {
            // The new table is sized from the last square's growth; it grows if need be.
            let guess = (cur.len() as f64 * growth.clamp(0.5, 4.0) * 1.3) as usize;
            let next =
                Table::new(guess, lim.mem, cur.len() * 24, t as u64).and_then(|mut table| {
                    expand(&cur, st, &mut table, &mut out.total)?;
                    table.into_states()
                });
            match next {
                Ok(next) => {
                    growth = next.len() as f64 / cur.len().max(1) as f64;
                    cur = next;
                    None
                }
                Err(Stop::Memory(m)) => Some(format!(
                    "square {}: would pass the memory limit ({} MB)",
                    t + 1,
                    m >> 20
                )),
                Err(Stop::Overflow) => Some(format!("square {}: a count passed 64 bits", t + 1)),
            }
        };
        if why.is_some() {
            out.stopped = why;
            return out;
        }
        out.per_square.push(cur.len());
        if !lim.quiet {
            println!(
                "square {:>3} (x {}, y {}): frontier {:>2}, states {:>12}  [{:.1} s]",
                t + 1,
                st.cell % b.w,
                st.cell / b.w,
                wid[t],
                cur.len(),
                clock.elapsed().as_secs_f64()
            );
        }
        if t + 1 < steps.len() {
            if clock.elapsed().as_secs_f64() > lim.secs {
                out.stopped = Some(format!("square {}: past {} s", t + 1, lim.secs));
                return out;
            }
            if cur.len() > lim.cap {
                out.stopped = Some(format!(
                    "square {}: {} states pass the cap {}",
                    t + 1,
                    cur.len(),
                    lim.cap
                ));
                return out;
            }
        }
    }
    out
}

fn expand(cur: &[Entry], st: &Step, table: &mut Table, total: &mut u64) -> Result<(), Stop> {
    let f = st.f;
    let nb = st.back.len();
    let mut a = [0u8; MAX_FRONTIER];
    for e in cur {
        for (k, x) in a.iter_mut().enumerate().take(f) {
            let word = if k < 16 {
                e.lo >> (4 * k)
            } else {
                e.hi >> (4 * (k - 16))
            };
            *x = (word & 15) as u8;
        }
        a[f] = FRESH;
        // The sets of at most two back moves, by bits over `back`.
        for set in 0u32..1 << nb {
            if set.count_ones() > 2 {
                continue;
            }
            let mut s = a;
            let mut closes = false;
            let mut ok = true;
            let picked: [usize; 2] = {
                let mut p = [usize::MAX; 2];
                let mut m = 0;
                for (i, &slot) in st.back.iter().enumerate() {
                    if set >> i & 1 == 1 {
                        p[m] = slot;
                        m += 1;
                    }
                }
                p
            };
            match set.count_ones() {
                0 => {}
                1 => {
                    let u = picked[0];
                    match s[u] {
                        DONE => ok = false,
                        FRESH => {
                            s[u] = NEW;
                            s[f] = NEW;
                        }
                        x => {
                            s[u] = DONE;
                            s[f] = x;
                        }
                    }
                }
                _ => {
                    let (u1, u2) = (picked[0], picked[1]);
                    let (x1, x2) = (s[u1], s[u2]);
                    s[f] = DONE;
                    if x1 == DONE || x2 == DONE {
                        ok = false;
                    } else if x1 == FRESH && x2 == FRESH {
                        s[u1] = NEW;
                        s[u2] = NEW;
                    } else if x1 == FRESH {
                        s[u2] = DONE;
                        s[u1] = x2;
                    } else if x2 == FRESH {
                        s[u1] = DONE;
                        s[u2] = x1;
                    } else if x1 == x2 {
                        // A cycle: a tour only at the last square, with nothing else open
                        // (the checks there see every square done).
                        closes = true;
                        ok = st.last;
                        s[u1] = DONE;
                        s[u2] = DONE;
                    } else {
                        s[u1] = DONE;
                        s[u2] = DONE;
                        for x in s.iter_mut().take(f + 1) {
                            if *x == x2 {
                                *x = x1;
                            }
                        }
                    }
                }
            }
            if !ok {
                continue;
            }
            for &(k, later) in &st.checks {
                let lacks = match s[k] {
                    FRESH => 2,
                    DONE => 0,
                    _ => 1,
                };
                if lacks > later {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            for (slots, need) in &st.futs {
                let open = slots.iter().filter(|&&k| s[k] != DONE).count() as u8;
                if open < *need {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            if st.last {
                if closes {
                    *total = total.checked_add(e.ways).ok_or(Stop::Overflow)?;
                }
                continue;
            }
            let mut map = [0u8; NEW as usize + 1];
            let mut next = 2u8;
            let (mut lo, mut hi) = (0u64, 0u64);
            for (k, &src) in st.keep.iter().enumerate() {
                let mut x = s[src];
                if x >= 2 {
                    if map[x as usize] == 0 {
                        map[x as usize] = next;
                        next += 1;
                    }
                    x = map[x as usize];
                }
                if k < 16 {
                    lo |= (x as u64) << (4 * k);
                } else {
                    hi |= (x as u64) << (4 * (k - 16));
                }
            }
            table.add(lo, hi, e.ways)?;
        }
    }
    Ok(())
}

/// Anneals an order for the narrowest frontier, from `start`: the cost is the widest
/// frontier first, then the sum over squares of 3 to the frontier's size (about how the
/// states grow with it).
fn search(b: &Board, seed: u64, rounds: usize, start: Vec<usize>) -> Vec<usize> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rand = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let cost = |o: &[usize]| -> f64 {
        let w = widths(b, o);
        let widest = *w.iter().max().unwrap_or(&0) as f64;
        let sum: f64 = w.iter().map(|&x| 3f64.powi(x as i32 - 20)).sum();
        widest * 1e6 + sum
    };
    let mut best = start;
    let mut best_cost = cost(&best);
    let mut cur = best.clone();
    let mut cur_cost = best_cost;
    let n = b.n();
    let t0 = 2e5f64;
    for r in 0..rounds {
        let temp = t0 * (1.0 - r as f64 / rounds as f64).powi(3) + 1e-3;
        let mut o = cur.clone();
        let i = (rand() % n as u64) as usize;
        let j = (rand() % n as u64) as usize;
        if rand() % 2 == 0 {
            o.swap(i, j);
        } else {
            let c = o.remove(i);
            o.insert(j, c);
        }
        let c = cost(&o);
        let accept = c <= cur_cost || {
            let u = (rand() >> 11) as f64 / (1u64 << 53) as f64;
            u < ((cur_cost - c) / temp).exp()
        };
        if accept {
            cur = o;
            cur_cost = c;
            if c < best_cost {
                best = cur.clone();
                best_cost = c;
            }
        }
    }
    best
}

fn permute(p: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permute(p, k + 1, f);
        p.swap(k, i);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: sweep_order W H ORDER [--cap STATES] [--squares K] [--mem GB] [--secs S] \
                 [--plain] [--quiet] | W H widths | W H perms [TOP] | W H search [SEED] [ROUNDS] [FROM-ORDER]";
    if args.len() < 4 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let num = |s: &str| -> usize {
        s.parse().unwrap_or_else(|_| {
            eprintln!("not a number: {s}\n{usage}");
            std::process::exit(2)
        })
    };
    let (w, h) = (num(&args[1]), num(&args[2]));
    if w == 0 || h == 0 {
        eprintln!("the board needs a square\n{usage}");
        std::process::exit(2);
    }
    let b = Board::new(w, h);
    let (_, s) = b.sides();
    if args[3] == "widths" {
        let mut names: Vec<String> = ["rows", "rows-oe", "rows-long", "diag"]
            .map(String::from)
            .to_vec();
        for k in 2..=4 {
            names.push(format!("band{k}"));
        }
        for ab in ["21", "12", "31", "13", "32", "23"] {
            names.push(format!("slope{ab}"));
        }
        for name in names {
            let o = order_named(&b, &name).expect("a named order");
            let wd = widths(&b, &o);
            let widest = wd.iter().max().unwrap_or(&0);
            let at = wd.iter().position(|x| x == widest).unwrap_or(0);
            println!(
                "{w}x{h} {name:<10} frontier width {widest:>2} (first at square {})",
                at + 1
            );
        }
        return;
    }
    if args[3] == "perms" {
        // Every order of a line's places, the same on every line, by the widest frontier and
        // then the sum over squares of 3 to the frontier's size.
        let mut places: Vec<usize> = (0..s).collect();
        let mut all: Vec<(usize, f64, String)> = Vec::new();
        permute(&mut places, 0, &mut |p| {
            let name = format!(
                "rows:{}",
                p.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let o = order_named(&b, &name).expect("a permutation");
            let wd = widths(&b, &o);
            let sum: f64 = wd.iter().map(|&x| 3f64.powi(x as i32 - 12)).sum();
            all.push((*wd.iter().max().unwrap_or(&0), sum, name));
        });
        all.sort_by(|x, y| (x.0, x.1).partial_cmp(&(y.0, y.1)).expect("finite"));
        for (widest, sum, name) in all.iter().take(args.get(4).map_or(10, |x| num(x))) {
            println!("{name:<24} frontier width {widest:>2}, sum of 3^(width-12) {sum:.0}");
        }
        return;
    }
    if args[3] == "search" {
        let seed = args.get(4).map_or(1, |x| num(x) as u64);
        let rounds = args.get(5).map_or(2_000_000, |x| num(x));
        let start =
            order_named(&b, args.get(6).map_or("rows", |x| x.as_str())).unwrap_or_else(|e| {
                eprintln!("{e}\n{usage}");
                std::process::exit(2)
            });
        let o = search(&b, seed, rounds, start);
        let wd = widths(&b, &o);
        println!("frontier width {}", wd.iter().max().unwrap_or(&0));
        println!("widths {:?}", wd);
        let mut at = vec![0; b.n()];
        for (t, &c) in o.iter().enumerate() {
            at[c] = t + 1;
        }
        for y in 0..h {
            let line: Vec<String> = (0..w).map(|x| format!("{:>3}", at[y * w + x])).collect();
            println!("{}", line.join(""));
        }
        let list: Vec<String> = o.iter().map(|c| c.to_string()).collect();
        println!("list:{}", list.join(","));
        return;
    }
    let order = order_named(&b, &args[3]).unwrap_or_else(|e| {
        eprintln!("{e}\n{usage}");
        std::process::exit(2)
    });
    let (mut cap, mut squares, mut mem_gb, mut quiet, mut look) =
        (usize::MAX, usize::MAX, 6.0f64, false, true);
    let mut secs = f64::INFINITY;
    let mut k = 4;
    while k < args.len() {
        match args[k].as_str() {
            "--quiet" => quiet = true,
            "--plain" => look = false,
            flag @ ("--cap" | "--squares" | "--mem" | "--secs") => {
                let v = args.get(k + 1).unwrap_or_else(|| {
                    eprintln!("{flag} needs a value\n{usage}");
                    std::process::exit(2)
                });
                match flag {
                    "--cap" => cap = num(v),
                    "--squares" => squares = num(v),
                    "--secs" => secs = num(v) as f64,
                    _ => {
                        mem_gb = v.parse().unwrap_or_else(|_| {
                            eprintln!("not a number: {v}\n{usage}");
                            std::process::exit(2)
                        })
                    }
                }
                k += 1;
            }
            other => {
                eprintln!("unknown argument {other}\n{usage}");
                std::process::exit(2);
            }
        }
        k += 1;
    }
    let wd = widths(&b, &order);
    let clock = Instant::now();
    let lim = Limits {
        cap,
        secs,
        squares,
        mem: (mem_gb * 1e9) as usize,
        quiet,
        look,
    };
    let out = sweep(&b, &order, &lim);
    let all: usize = out.per_square.iter().sum();
    let widest = out.per_square.iter().max().copied().unwrap_or(0);
    let at = out
        .per_square
        .iter()
        .position(|&x| x == widest)
        .unwrap_or(0);
    let shown = if args[3].starts_with("list:") {
        "list"
    } else {
        args[3].as_str()
    };
    println!(
        "order {shown} on {w}x{h}: frontier width {}",
        wd.iter().max().unwrap_or(&0)
    );
    match &out.stopped {
        None => println!("closed tours {}", out.total),
        Some(why) => println!("stopped: {why}"),
    }
    println!(
        "widest square {} with {} states; {} states in all over {} squares; {:.1} s",
        at + 1,
        widest,
        all,
        out.per_square.len(),
        clock.elapsed().as_secs_f64()
    );
}
