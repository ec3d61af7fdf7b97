//! DXZ's count level by level: the sub-problems of [`super::Dxz`] (keyed by the covered
//! items), each met once, for Algorithm X problems of at most 256 items when only the count
//! is wanted and the search branches on the first uncovered item ([`super::Branch::First`]).
//!
//! # Why levels
//!
//! A memoised search spends its time on keys, not on links: every sub-problem builds its key
//! and looks it up, most are searched once and never met again, and once the memo outgrows
//! the caches every lookup is a miss. But an option covers at least one primary item, so a
//! sub-problem's children all cover more primary items than it does: grouped by that number,
//! the sub-problems form levels that only feed levels above them. Taken in that order, a level
//! is complete before it is expanded; sorting it brings the copies of a sub-problem together,
//! where their counts (the ways to reach it from the root) add up; and each distinct one is
//! expanded once, adding its count to each child. The count of the whole problem is then the
//! sum over the sub-problems with every primary item covered. These are the sub-problems the
//! depth-first memo searches, item choice for item choice (its entries are the distinct ones
//! here, its hits the copies merged), met in another order: the work is sequential passes
//! over arrays instead of a lookup in a table that outgrows memory, and only the levels not
//! yet expanded are held.
//!
//! When the items fit in a few machine words the covered set *is* the key: an option is alive
//! exactly when its mask misses the key, and a child is one OR away, with nothing to cover or
//! uncover. The first uncovered item is one instruction away too; the item with the fewest
//! options is not: the links keep every item's count of live options as they dance, and
//! bitsets would count them again at every sub-problem (on the pentominoes that took twice
//! the links' time), so that rule stays with the links.

use super::Control;
use super::budget::{Budget, Short};
use super::problem::Problem;

/// The count a sub-problem carries: the ways to reach it from the root. 64 bits while they
/// hold (a state of a one-word key then takes 16 bytes, and the count is bound by how many
/// bytes it moves), 128 bits when a count outgrows them.
trait Tally: Copy + PartialEq {
    const ZERO: Self;
    const ONE: Self;
    /// The sum, or `None` when it does not fit.
    fn plus(self, other: Self) -> Option<Self>;
    fn wide(self) -> u128;
}

impl Tally for u64 {
    const ZERO: u64 = 0;
    const ONE: u64 = 1;
    #[inline(always)]
    fn plus(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self as u128
    }
}

/// A 128-bit count as two words, so that a state stays 8-byte aligned and packed.
#[derive(Clone, Copy, PartialEq)]
struct Wide([u64; 2]);

impl Tally for Wide {
    const ZERO: Wide = Wide([0, 0]);
    const ONE: Wide = Wide([1, 0]);
    #[inline(always)]
    fn plus(self, other: Wide) -> Option<Wide> {
        // Saturate rather than wrap: no exact cover here has 2^128 solutions.
        let s = self.wide().saturating_add(other.wide());
        Some(Wide([s as u64, (s >> 64) as u64]))
    }
    fn wide(self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }
}

/// A sub-problem waiting in its level: the covered items and the ways to reach them.
#[derive(Clone, Copy)]
struct State<const W: usize, T> {
    key: [u64; W],
    count: T,
}

/// A count outgrew its tally.
struct Overflow;

/// A direct-mapped table of the states most recently reached, where copies of a sub-problem
/// that come close together (the children of neighbouring states in a sorted level often
/// coincide) add up before they reach a level: most copies never take a place there, nor a
/// turn in its sort. Small enough to stay in the second-level cache.
struct Cache<const W: usize, T> {
    slots: Vec<State<W, T>>,
    /// Copies added up here.
    merged: u64,
}

impl<const W: usize, T: Tally> Cache<W, T> {
    const SLOTS: usize = 1 << 15;

    fn new() -> Cache<W, T> {
        Cache {
            // A state's count is at least 1: a count of 0 marks an empty slot.
            slots: vec![
                State {
                    key: [0; W],
                    count: T::ZERO
                };
                Self::SLOTS
            ],
            merged: 0,
        }
    }

    /// Add `s`, or its count to its copy here; a state it displaces goes to `spill`, whose
    /// `Ok(false)` (no memory for it) is returned.
    #[inline(always)]
    fn put(
        &mut self,
        s: State<W, T>,
        spill: &mut impl FnMut(State<W, T>) -> bool,
    ) -> Result<bool, Overflow> {
        let mut h = 0u64;
        for &w in &s.key {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        let slot = &mut self.slots[(h >> 40) as usize & (Self::SLOTS - 1)];
        if slot.key == s.key && slot.count != T::ZERO {
            slot.count = slot.count.plus(s.count).ok_or(Overflow)?;
            self.merged += 1;
            return Ok(true);
        }
        let old = std::mem::replace(slot, s);
        Ok(old.count == T::ZERO || spill(old))
    }

    /// Hand every state that `which` selects to `spill`, emptying its slot.
    fn flush(
        &mut self,
        which: impl Fn(&State<W, T>) -> bool,
        spill: &mut impl FnMut(State<W, T>) -> bool,
    ) -> bool {
        for slot in self.slots.iter_mut() {
            if slot.count != T::ZERO && which(slot) {
                let s = std::mem::replace(
                    slot,
                    State {
                        key: [0; W],
                        count: T::ZERO,
                    },
                );
                if !spill(s) {
                    return false;
                }
            }
        }
        true
    }
}

/// The levels not yet expanded, the buffers of those already expanded (kept for the levels to
/// come rather than handed back to the system, which would fault them in and clear them
/// page by page when asked for again), and the bytes all of them hold, checked against the
/// budget before any buffer grows.
struct Store<const W: usize, T> {
    levels: Vec<Vec<State<W, T>>>,
    pool: Vec<Vec<State<W, T>>>,
    budget: Budget,
}

impl<const W: usize, T: Copy> Store<W, T> {
    fn new(levels: usize, budget: Budget) -> Store<W, T> {
        Store {
            levels: (0..levels).map(|_| Vec::new()).collect(),
            pool: Vec::new(),
            budget,
        }
    }

    /// Make room for `more` states in `v`; `false` when the budget or the system gives none.
    fn reserve(&mut self, v: &mut Vec<State<W, T>>, more: usize) -> bool {
        if v.capacity() - v.len() >= more {
            return true;
        }
        if v.capacity() == 0
            && let Some(i) = (0..self.pool.len()).max_by_key(|&i| self.pool[i].capacity())
        {
            *v = self.pool.swap_remove(i);
            if v.capacity() >= more {
                return true;
            }
        }
        self.budget.room(v, more)
    }

    /// Add `s` to level `k`; `false` when its buffer cannot grow within the budget.
    #[inline(always)]
    fn push(&mut self, k: usize, s: State<W, T>) -> bool {
        let mut v = std::mem::take(&mut self.levels[k]);
        let ok = v.len() < v.capacity() || self.reserve(&mut v, 1);
        if ok {
            v.push(s);
        }
        self.levels[k] = v;
        ok
    }

    /// A buffer no longer needed, kept for the levels to come.
    fn recycle(&mut self, mut v: Vec<State<W, T>>) {
        v.clear();
        if v.capacity() > 0 {
            self.pool.push(v);
        }
    }
}

/// Sort `v` by key with `scratch` as the other buffer: least significant digit first, over
/// the bits in which keys differ (most are the same across a level, whose sub-problems share
/// most of their covered items), 11 bits a digit so that the 2,048 counters of a pass stay
/// in the first-level cache, with every digit's counts taken in one pass. Any order that
/// brings equal keys together serves; this one costs a few sequential passes where a
/// comparison sort of tens of millions of states costs many more. `false` when `run` asks
/// to stop (asked between passes: a pass over a large level takes a fraction of a second).
fn radix_sort<const W: usize, T: Copy, R: Control>(
    v: &mut Vec<State<W, T>>,
    scratch: &mut Vec<State<W, T>>,
    run: &mut R,
) -> bool {
    const BITS: u32 = 11;
    const MASK: u64 = (1 << BITS) - 1;
    let (mut or, mut and) = ([0u64; W], [!0u64; W]);
    for s in v.iter() {
        for w in 0..W {
            or[w] |= s.key[w];
            and[w] &= s.key[w];
        }
    }
    // (word, shift) of each digit, lowest first.
    let mut digits: Vec<(usize, u32)> = Vec::new();
    for w in 0..W {
        let mut varies = or[w] ^ and[w];
        while varies != 0 {
            let shift = varies.trailing_zeros();
            digits.push((w, shift));
            varies &= !(MASK << shift);
        }
    }
    if digits.is_empty() {
        return true;
    }
    let mut at = vec![[0usize; 1 << BITS]; digits.len()];
    for s in v.iter() {
        for (d, &(w, shift)) in digits.iter().enumerate() {
            at[d][((s.key[w] >> shift) & MASK) as usize] += 1;
        }
    }
    if scratch.len() < v.len() {
        scratch.resize(v.len(), v[0]);
    }
    for (d, &(w, shift)) in digits.iter().enumerate() {
        let at = &mut at[d];
        let mut sum = 0;
        for a in at.iter_mut() {
            (*a, sum) = (sum, sum + *a);
        }
        for s in v.iter() {
            let b = ((s.key[w] >> shift) & MASK) as usize;
            scratch[at[b]] = *s;
            at[b] += 1;
        }
        scratch.truncate(v.len());
        std::mem::swap(v, scratch);
        if run.check() {
            return false;
        }
    }
    true
}

/// What a count ended with.
pub struct LevelCount {
    /// Solutions; `None` when the count was stopped.
    pub count: Option<u128>,
    /// The levels found no room to grow, and why: the count stopped there.
    pub out_of_memory: Option<Short>,
    /// Distinct sub-problems expanded (the depth-first memo's entries).
    pub entries: u64,
    /// Copies merged into them (its hits).
    pub merged: u64,
}

/// The level-by-level count of an Algorithm X problem over `W`-word bitsets.
pub struct Levels<const W: usize> {
    /// Option `o`'s items as a mask.
    opts: Vec<[u64; W]>,
    /// The options of primary item `i`, in the problem's order: `list[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    list: Vec<u32>,
    /// Primary items, the items the search must cover.
    primary: [u64; W],
    /// Bytes the levels may take.
    budget: u64,
}

impl<const W: usize> Levels<W> {
    /// Items that fit in `W` words.
    pub const ITEMS: usize = 64 * W;

    /// Whether this layout serves `problem`: Algorithm X (no colours, no multiplicities) with
    /// at most [`Self::ITEMS`] items.
    pub fn fits(problem: &Problem) -> bool {
        problem.num_items() <= Self::ITEMS
            && !problem.has_colours()
            && !problem.has_multiplicities()
    }

    /// A count of `problem` (which [`Self::fits`]) whose levels may take `budget` bytes.
    pub fn new(problem: &Problem, budget: u64) -> Levels<W> {
        let n = problem.num_items();
        debug_assert!(Self::fits(problem));
        let mut primary = [0u64; W];
        for i in (0..n).filter(|&i| problem.is_primary(i)) {
            primary[i / 64] |= 1 << (i % 64);
        }
        let mut opts = Vec::with_capacity(problem.num_options());
        let mut per_item: Vec<Vec<u32>> = vec![Vec::new(); n];
        for o in 0..problem.num_options() {
            let mut m = [0u64; W];
            for &(i, _) in problem.option(o) {
                m[i / 64] |= 1 << (i % 64);
                if problem.is_primary(i) {
                    per_item[i].push(o as u32);
                }
            }
            opts.push(m);
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut list = Vec::new();
        for l in &per_item {
            start.push(list.len() as u32);
            list.extend_from_slice(l);
        }
        start.push(list.len() as u32);
        Levels {
            opts,
            start,
            list,
            primary,
            budget,
        }
    }

    #[inline(always)]
    fn alive(&self, o: u32, key: &[u64; W]) -> bool {
        let m = &self.opts[o as usize];
        (0..W).all(|w| m[w] & key[w] == 0)
    }

    /// The options of item `i`.
    fn options(&self, i: usize) -> &[u32] {
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The item to branch on at `key`, which leaves some primary item uncovered: the first.
    #[inline(always)]
    fn choose(&self, key: &[u64; W]) -> usize {
        (0..W)
            .find_map(|w| {
                let open = self.primary[w] & !key[w];
                (open != 0).then(|| 64 * w + open.trailing_zeros() as usize)
            })
            .expect("an uncovered primary item")
    }

    /// The level of `key`: the primary items it covers, which every child of its
    /// sub-problem exceeds (an option holds one at least).
    #[inline(always)]
    fn level(&self, key: &[u64; W]) -> usize {
        (0..W)
            .map(|w| (key[w] & self.primary[w]).count_ones() as usize)
            .sum()
    }

    /// Count the solutions; `run` counts a node per distinct sub-problem expanded and may
    /// stop the count. Counts are taken in 64 bits, and taken again in 128 if one outgrows
    /// them.
    pub fn count<R: Control>(&self, run: &mut R) -> LevelCount {
        match self.count_in::<u64, R>(run) {
            Ok(result) => result,
            Err(Overflow) => match self.count_in::<Wide, R>(run) {
                Ok(result) => result,
                Err(Overflow) => unreachable!("128-bit counts saturate"),
            },
        }
    }

    fn count_in<T: Tally, R: Control>(&self, run: &mut R) -> Result<LevelCount, Overflow> {
        let goal = self.level(&self.primary);
        let cache_bytes = (Cache::<W, T>::SLOTS * std::mem::size_of::<State<W, T>>()) as u64;
        let mut store: Store<W, T> = Store::new(goal + 1, Budget::new(self.budget, cache_bytes));
        let mut cache = Cache::new();
        let mut result = LevelCount {
            count: None,
            out_of_memory: None,
            entries: 0,
            merged: 0,
        };
        if run.check() {
            return Ok(result);
        }
        // The root is a solution when there is nothing to cover.
        let mut solutions = if goal == 0 { T::ONE } else { T::ZERO };
        let root = State {
            key: [0; W],
            count: T::ONE,
        };
        let mut stopped =
            goal > 0 && !cache.put(root, &mut |s| store.push(self.level(&s.key), s))?;
        'levels: for k in 0..goal {
            if stopped {
                break;
            }
            if !cache.flush(|s| self.level(&s.key) == k, &mut |s| {
                store.push(self.level(&s.key), s)
            }) {
                stopped = true;
                break;
            }
            let mut level = std::mem::take(&mut store.levels[k]);
            if level.is_empty() {
                store.recycle(level);
                continue;
            }
            // The sort's second buffer, as long as the level: taken from the pool and given
            // back once sorted, so that the levels filled while this one is expanded can
            // grow into it rather than into fresh memory.
            let mut scratch = Vec::new();
            if !store.reserve(&mut scratch, level.len()) {
                stopped = true;
                break;
            }
            let sorted = radix_sort(&mut level, &mut scratch, run);
            store.recycle(scratch);
            if !sorted {
                stopped = true;
                break;
            }
            let mut i = 0;
            while i < level.len() {
                let key = level[i].key;
                let mut count = level[i].count;
                i += 1;
                while i < level.len() && level[i].key == key {
                    count = count.plus(level[i].count).ok_or(Overflow)?;
                    result.merged += 1;
                    i += 1;
                }
                result.entries += 1;
                if run.node() {
                    stopped = true;
                    break 'levels;
                }
                for &o in self.options(self.choose(&key)) {
                    if !self.alive(o, &key) {
                        continue;
                    }
                    let m = &self.opts[o as usize];
                    let child = State {
                        key: std::array::from_fn(|w| key[w] | m[w]),
                        count,
                    };
                    let to = self.level(&child.key);
                    if to == goal {
                        // A solution's last option: nothing to keep.
                        solutions = solutions.plus(count).ok_or(Overflow)?;
                        continue;
                    }
                    if !cache.put(child, &mut |s| store.push(self.level(&s.key), s))? {
                        stopped = true;
                        break 'levels;
                    }
                }
            }
            store.recycle(level);
        }
        result.merged += cache.merged;
        run.counter("memo hits", result.merged);
        if !stopped {
            result.count = Some(solutions.wide());
        }
        // A growth refused stopped the count where it was refused.
        result.out_of_memory = store.budget.short();
        Ok(result)
    }
}
