//! The states of `count`: each square's new states appended to hash buckets and merged
//! bucket by bucket, on one thread or several, with the path counts in `u64` or `u128`.
//!
//! A state and its count sit side by side (16 bytes with a 64-bit state and count, 24 with
//! a 128-bit state). The new states of a square go to buckets by the top bits of their
//! hash, a sequential write; each bucket is then merged through a table small enough to
//! stay in cache into a dense list, the next square's input. So the memory traffic is
//! sequential, where one large hash table would be probed at random. Every list of states
//! grows through [`Memory::grow`], which counts the bytes of all of them against the run's
//! budget and allocates fallibly: past the budget, or where the system gives no more, the
//! count stops as a memory limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::key::Key;
use crate::util::Natural;

/// A state and its count, side by side.
#[derive(Clone, Copy)]
pub(super) struct Slot<K, T> {
    pub key: K,
    pub ways: T,
}

/// Why adding a state failed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Full {
    Overflow,
    Memory,
    /// The run's clock said stop (a time limit, an interrupt) in the middle of a square.
    Stopped,
    /// A bucket of fixed size (while spilling, spill.rs) may not hold the next state's new
    /// states: the states before it are expanded, it and those after it are not.
    Spill,
    /// Reading or writing the scratch folder failed, or it has no room left (spill.rs).
    Disk,
}

/// The bytes the lists of states of one count hold, shared by its threads, against the
/// budget (`--memory`).
pub(super) struct Memory {
    limit: Option<u64>,
    /// The bytes held under the budget, by this count and the others that share it.
    held: Arc<AtomicU64>,
    /// The bytes held through this one, given back when it is dropped: a sweep stopped by
    /// the budget may leave lists uncounted back, and its siblings go on under the budget.
    own: AtomicU64,
    /// The bytes held and asked for when growth was refused.
    wanted: AtomicU64,
    /// The same through this one alone: more than the budget, and the count it serves
    /// cannot fit even with the budget to itself.
    own_wanted: AtomicU64,
    /// The system refused an allocation the budget allowed.
    refused: Arc<AtomicBool>,
}

impl Drop for Memory {
    fn drop(&mut self) {
        self.held
            .fetch_sub(self.own.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

impl Memory {
    pub fn new(limit: Option<u64>) -> Memory {
        if limit.is_some() {
            hold_to_the_budget();
        }
        Memory {
            limit,
            held: Arc::new(AtomicU64::new(0)),
            own: AtomicU64::new(0),
            wanted: AtomicU64::new(0),
            own_wanted: AtomicU64::new(0),
            refused: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A share of this budget for one of the sweeps that run side by side under it.
    pub fn share(&self) -> Memory {
        Memory {
            limit: self.limit,
            held: Arc::clone(&self.held),
            own: AtomicU64::new(0),
            wanted: AtomicU64::new(0),
            own_wanted: AtomicU64::new(0),
            refused: Arc::clone(&self.refused),
        }
    }

    fn hold(&self, bytes: u64) -> u64 {
        self.own.fetch_add(bytes, Ordering::Relaxed);
        self.held.fetch_add(bytes, Ordering::Relaxed) + bytes
    }

    fn unhold(&self, bytes: u64) {
        self.own.fetch_sub(bytes, Ordering::Relaxed);
        self.held.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Room in `v` for `additional` more, at least doubling it when it grows: counted and
    /// checked against the budget first, then allocated fallibly.
    pub fn grow<X>(&self, v: &mut Vec<X>, additional: usize) -> Result<(), Full> {
        let (len, cap) = (v.len(), v.capacity());
        if cap - len >= additional {
            return Ok(());
        }
        let size = std::mem::size_of::<X>() as u64;
        let want = (len + additional).max(2 * cap).max(16);
        let extra = (want - cap) as u64 * size;
        let held = self.hold(extra);
        let over = self.limit.is_some_and(|l| held > l);
        if over || v.try_reserve_exact(want - len).is_err() {
            self.unhold(extra);
            self.wanted.fetch_max(held, Ordering::Relaxed);
            let own = self.own.load(Ordering::Relaxed) + extra;
            self.own_wanted.fetch_max(own, Ordering::Relaxed);
            if !over {
                self.refused.store(true, Ordering::Relaxed);
            }
            return Err(Full::Memory);
        }
        // The allocator may give more than asked: count what is held.
        let more = (v.capacity() - want) as u64 * size;
        self.hold(more);
        Ok(())
    }

    /// `v` is about to be dropped: its bytes are free again.
    pub fn release<X>(&self, v: &Vec<X>) {
        let bytes = (v.capacity() * std::mem::size_of::<X>()) as u64;
        self.unhold(bytes);
    }

    /// The budget, unless the system refused first (then `None`).
    pub fn budget(&self) -> Option<u64> {
        self.limit.filter(|_| !self.refused.load(Ordering::Relaxed))
    }

    /// The budget as set, whether or not the system refused an allocation.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The bytes the lists of states hold now.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    /// What the refused growth would have held in all.
    pub fn wanted(&self) -> u64 {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Whether growth through this one alone was refused past the whole budget: the
    /// budget to itself would not have held it either.
    pub fn outgrew_alone(&self) -> bool {
        let own = self.own_wanted.load(Ordering::Relaxed);
        self.limit.is_some_and(|l| own > l)
    }
}

/// Blocks of at least this many bytes come straight from the system and go back to it when
/// freed (see [`hold_to_the_budget`]).
const FROM_THE_SYSTEM: i32 = 1 << 20;

/// Make the process's resident memory follow what the budget counts. The budget counts the
/// lists of states, not what the allocator keeps of them once freed: glibc serves blocks
/// below a threshold that rises to 32 MiB from each thread's arena and keeps them there
/// when freed, to serve that thread again, so lists freed by one thread and grown by
/// another (buckets, merge tables, runs) held a spilling count a third above its budget (a
/// part of 8x8 open tours was killed at 24 GB under 18 GiB). With the threshold fixed at 1
/// MiB, every large list is mapped on its own and unmapped when freed. Process-wide, once,
/// and only for a count under a budget; it changes where memory comes from, not what any
/// code sees.
fn hold_to_the_budget() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only sets a threshold of the allocator; no pointer is involved.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, FROM_THE_SYSTEM);
        });
    }
}

/// Hand the memory freed by the lists back to the system: blocks below the threshold of
/// [`hold_to_the_budget`] that a thread's arena keeps. Called between the phases of a
/// square that spills, where lists were just freed; it walks the arenas' free blocks,
/// which is short beside writing or reading a run.
pub(super) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the arenas; no pointer is involved.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The new states of one square: appended to buckets by the top bits of their hash (a
/// sequential write), then merged bucket by bucket through a small table that stays in
/// cache, instead of one large table probed at random.
pub(super) struct Buckets<'m, K, T> {
    buckets: Vec<Vec<Slot<K, T>>>,
    /// New states added.
    pub total: usize,
    /// States of the square before expanded into these buckets (all of them, unless memory
    /// ran short).
    pub expanded: usize,
    /// The ways of the tours that closed at this square (counting prefixes).
    pub closed: T,
    index: Vec<u32>,
    mem: &'m Memory,
    /// The most states a bucket takes (fixed while spilling, else unbounded), and the most
    /// any bucket holds now.
    cap: usize,
    fullest: usize,
}

impl<'m, K: Key, T: Ways> Buckets<'m, K, T> {
    /// States a bucket should hold about, so that its merge table stays in the L2 cache.
    pub const BUCKET: usize = 1 << 13;

    pub fn new(mem: &'m Memory) -> Self {
        Buckets {
            buckets: vec![Vec::new()],
            total: 0,
            expanded: 0,
            closed: T::default(),
            index: Vec::new(),
            mem,
            cap: usize::MAX,
            fullest: 0,
        }
    }

    /// How many buckets about `expect` new states call for.
    pub fn buckets_for(expect: usize) -> usize {
        (expect / Self::BUCKET)
            .next_power_of_two()
            .clamp(1, 1 << 12)
    }

    /// Empty the buckets, and make them `n`.
    pub fn reset(&mut self, n: usize) {
        for b in self.buckets.iter().skip(n) {
            self.mem.release(b);
        }
        self.buckets.resize_with(n, Vec::new);
        self.buckets.truncate(n);
        for b in &mut self.buckets {
            b.clear();
        }
        self.total = 0;
        self.expanded = 0;
        self.closed = T::default();
        self.fullest = 0;
        self.cap = usize::MAX;
    }

    /// Empty `n` buckets of room for `cap` states each, allocated now: while spilling, the
    /// expansion stops before a state whose new states a bucket might not hold ([`Full::Spill`]),
    /// so that the buckets never grow.
    pub fn fix(&mut self, n: usize, cap: usize) -> Result<(), Full> {
        self.reset(n);
        for b in &mut self.buckets {
            self.mem.grow(b, cap)?;
        }
        self.cap = cap;
        Ok(())
    }

    /// Whether every bucket has room for `more` states.
    #[inline]
    pub fn room(&self, more: usize) -> bool {
        self.fullest + more <= self.cap
    }

    /// Empty the buckets after their states were written out; the tours closed so far stay.
    pub fn flushed(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.fullest = 0;
    }

    /// Give back the memory of the buckets (after a square that spilled).
    pub fn free(&mut self) {
        for b in &self.buckets {
            self.mem.release(b);
        }
        self.buckets = vec![Vec::new()];
        self.mem.release(&self.index);
        self.index = Vec::new();
        self.cap = usize::MAX;
        self.fullest = 0;
        self.total = 0;
    }

    /// How many buckets there are, and bucket `b`.
    pub fn n_buckets(&self) -> usize {
        self.buckets.len()
    }
    pub fn bucket(&self, b: usize) -> &Vec<Slot<K, T>> {
        &self.buckets[b]
    }

    #[inline]
    pub fn add(&mut self, key: K, ways: T) -> Result<(), Full> {
        let h = key.hash();
        let b = ((h as u128 * self.buckets.len() as u128) >> 64) as usize;
        let bucket = &mut self.buckets[b];
        if bucket.len() == bucket.capacity() {
            self.mem.grow(bucket, 1)?;
        }
        bucket.push(Slot { key, ways });
        self.fullest = self.fullest.max(bucket.len());
        self.total += 1;
        Ok(())
    }

    /// Merge equal states, into `dense` (emptied first).
    pub fn merge_into(&mut self, dense: &mut Vec<Slot<K, T>>) -> Result<(), Full> {
        dense.clear();
        for b in &self.buckets {
            merge(&[b], &mut self.index, dense, self.mem)?;
        }
        Ok(())
    }
}

impl<K, T> Drop for Buckets<'_, K, T> {
    fn drop(&mut self) {
        for b in &self.buckets {
            self.mem.release(b);
        }
        self.mem.release(&self.index);
    }
}

/// Merge equal states of one bucket (given in parts, one per thread) onto the end of `out`,
/// through a table of positions in `out` small enough to stay in cache.
pub(super) fn merge<K: Key, T: Ways>(
    parts: &[&Vec<Slot<K, T>>],
    index: &mut Vec<u32>,
    out: &mut Vec<Slot<K, T>>,
    mem: &Memory,
) -> Result<(), Full> {
    let len: usize = parts.iter().map(|b| b.len()).sum();
    let size = (2 * len).next_power_of_two().max(8);
    let mask = size - 1;
    index.clear();
    mem.grow(index, size)?;
    index.resize(size, u32::MAX);
    // At most `len` states come out: room for them now, so the pushes below never allocate.
    mem.grow(out, len)?;
    let base = out.len();
    for s in parts.iter().flat_map(|b| b.iter()) {
        let mut i = s.key.hash() as usize & mask;
        loop {
            let j = index[i];
            if j == u32::MAX {
                index[i] = (out.len() - base) as u32;
                out.push(*s);
                break;
            }
            let d = &mut out[base + j as usize];
            if d.key == s.key {
                d.ways = d.ways.add(s.ways).ok_or(Full::Overflow)?;
                break;
            }
            i = (i + 1) & mask;
        }
    }
    Ok(())
}

/// `expand` (the states that a share of `cur` lead to, into buckets) in `threads` shares,
/// each into its own buckets; [`merge_parallel`] merges them.
pub(super) fn expand_shares<'m, K: Key, T: Ways, E>(
    cur: &[Slot<K, T>],
    parts: &mut Vec<Buckets<'m, K, T>>,
    threads: usize,
    mem: &'m Memory,
    expand: E,
) -> Result<(), Full>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    let expand = &expand;
    parts.resize_with(threads, || Buckets::new(mem));
    let n = Buckets::<K, T>::buckets_for(2 * cur.len());
    for b in parts.iter_mut() {
        b.reset(n);
    }
    let chunk = cur.len().div_ceil(threads);
    // Rayon's tasks, in the pool the caller runs in (the global one outside any): one a
    // share, so no more than `threads` run at once; results in share order, so the first
    // share's error is the one reported.
    let expanded: Vec<Result<(), Full>> = cur
        .par_chunks(chunk)
        .zip(parts.par_iter_mut())
        .map(|(states, next)| expand(states, next))
        .collect();
    expanded.into_iter().collect::<Result<Vec<()>, Full>>()?;
    Ok(())
}

/// The buckets of `parts` merged into `out` (emptied first), `threads` shares each merging
/// every `threads`-th bucket of all of them.
pub(super) fn merge_parallel<K: Key, T: Ways>(
    parts: &[Buckets<K, T>],
    threads: usize,
    mem: &Memory,
    out: &mut Vec<Slot<K, T>>,
) -> Result<(), Full> {
    let n = parts[0].n_buckets();
    let merged: Vec<Result<Vec<Slot<K, T>>, Full>> = (0..threads)
        .into_par_iter()
        .map(|t| {
            let (mut out, mut index) = (Vec::new(), Vec::new());
            let mut merged = Ok(());
            for b in (t..n).step_by(threads) {
                let lists: Vec<&Vec<Slot<K, T>>> = parts.iter().map(|p| &p.buckets[b]).collect();
                merged = merge(&lists, &mut index, &mut out, mem);
                if merged.is_err() {
                    break;
                }
            }
            mem.release(&index);
            if merged.is_err() {
                mem.release(&out);
            }
            merged.map(|_| out)
        })
        .collect();
    // Every share's list is counted until it is dropped, whichever failed.
    let failed = merged.iter().find_map(|m| m.as_ref().err().copied());
    let merged: Vec<Vec<Slot<K, T>>> = merged.into_iter().flatten().collect();
    let total: usize = merged.iter().map(Vec::len).sum();
    out.clear();
    let copied = match failed {
        Some(e) => Err(e),
        None => mem.grow(out, total),
    };
    for m in &merged {
        if copied.is_ok() {
            out.extend_from_slice(m);
        }
        mem.release(m);
    }
    copied
}

/// Path counts: `u64`, or a wider integer once a narrower one could overflow.
pub(super) trait Ways: Copy + Default + Send + Sync {
    /// Bits it holds.
    const BITS: u32;
    /// The next wider type (the widest is its own).
    type Wider: Ways;
    fn add(self, other: Self) -> Option<Self>;
    fn widen(self) -> Self::Wider;
    /// The bits its value takes (0 for zero).
    fn bits(self) -> u32;
    /// Add it to a total of any size.
    fn add_to(self, total: &mut Natural);
    /// Its limbs of 64 bits, least first, into `out`: how many, leaving out zero limbs at
    /// the top (the scratch files).
    fn limbs(self, out: &mut [u64; 64]) -> usize;
    /// The count of these limbs, or `None` if it does not fit.
    fn from_limbs(limbs: &[u64]) -> Option<Self>;
}

/// The number of limbs of `l` less its zero limbs at the top.
fn used(l: &[u64]) -> usize {
    l.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1)
}

impl Ways for u64 {
    const BITS: u32 = 64;
    type Wider = u128;
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn widen(self) -> u128 {
        self as u128
    }
    fn bits(self) -> u32 {
        u64::BITS - self.leading_zeros()
    }
    fn add_to(self, total: &mut Natural) {
        total.add_limbs(&[self]);
    }
    fn limbs(self, out: &mut [u64; 64]) -> usize {
        out[0] = self;
        used(&out[..1])
    }
    fn from_limbs(limbs: &[u64]) -> Option<u64> {
        match limbs {
            [] => Some(0),
            [x] => Some(*x),
            _ => None,
        }
    }
}

impl Ways for u128 {
    const BITS: u32 = 128;
    type Wider = Wide<3>;
    fn add(self, other: Self) -> Option<Self> {
        self.checked_add(other)
    }
    fn widen(self) -> Wide<3> {
        Wide([self as u64, (self >> 64) as u64, 0])
    }
    fn bits(self) -> u32 {
        u128::BITS - self.leading_zeros()
    }
    fn add_to(self, total: &mut Natural) {
        total.add_limbs(&[self as u64, (self >> 64) as u64]);
    }
    fn limbs(self, out: &mut [u64; 64]) -> usize {
        out[0] = self as u64;
        out[1] = (self >> 64) as u64;
        used(&out[..2])
    }
    fn from_limbs(limbs: &[u64]) -> Option<u128> {
        match limbs {
            [] => Some(0),
            [x] => Some(*x as u128),
            [x, y] => Some((*y as u128) << 64 | *x as u128),
            _ => None,
        }
    }
}

/// A count of `64 K` bits, for the counts of long boards (hundreds of bits on 7 x 43).
#[derive(Clone, Copy)]
pub(super) struct Wide<const K: usize>([u64; K]);

impl<const K: usize> Default for Wide<K> {
    fn default() -> Self {
        Wide([0; K])
    }
}

impl<const K: usize> Wide<K> {
    #[inline]
    fn checked_add(self, other: Self) -> Option<Self> {
        let mut out = [0u64; K];
        let mut carry = false;
        for (o, (a, b)) in out.iter_mut().zip(self.0.iter().zip(other.0.iter())) {
            let (s, c1) = a.overflowing_add(*b);
            let (s, c2) = s.overflowing_add(carry as u64);
            *o = s;
            carry = c1 | c2;
        }
        (!carry).then_some(Wide(out))
    }

    fn bits(self) -> u32 {
        match self.0.iter().rposition(|&x| x != 0) {
            Some(i) => 64 * i as u32 + u64::BITS - self.0[i].leading_zeros(),
            None => 0,
        }
    }

    /// The same value in `J >= K` limbs.
    fn to<const J: usize>(self) -> Wide<J> {
        let mut w = [0u64; J];
        w[..K].copy_from_slice(&self.0);
        Wide(w)
    }
}

/// `Ways` for `Wide<K>`, whose next wider type is `Wide<J>`.
macro_rules! wide_ways {
    ($k:literal => $j:literal) => {
        impl Ways for Wide<$k> {
            const BITS: u32 = 64 * $k;
            type Wider = Wide<$j>;
            #[inline]
            fn add(self, other: Self) -> Option<Self> {
                self.checked_add(other)
            }
            fn widen(self) -> Wide<$j> {
                self.to::<$j>()
            }
            fn bits(self) -> u32 {
                Wide::bits(self)
            }
            fn add_to(self, total: &mut Natural) {
                total.add_limbs(&self.0);
            }
            fn limbs(self, out: &mut [u64; 64]) -> usize {
                out[..$k].copy_from_slice(&self.0);
                used(&out[..$k])
            }
            fn from_limbs(limbs: &[u64]) -> Option<Self> {
                let mut w = [0u64; $k];
                w.get_mut(..limbs.len())?.copy_from_slice(limbs);
                Some(Wide(w))
            }
        }
    };
}
// Steps of a limb or two where states are many (a count of a few hundred bits takes
// 7 x 43's widest squares' tens of millions of states), then doubling.
wide_ways!(3 => 4);
wide_ways!(4 => 5);
wide_ways!(5 => 6);
wide_ways!(6 => 8);
wide_ways!(8 => 12);
wide_ways!(12 => 16);
wide_ways!(16 => 32);
wide_ways!(32 => 64);
wide_ways!(64 => 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_past_the_budget_is_refused_before_allocating() {
        let mem = Memory::new(Some(1024));
        let mut v: Vec<u64> = Vec::new();
        let held = |mem: &Memory| mem.held.load(Ordering::Relaxed);
        // Each growth at least doubles: 16, 32, 64, 128 words of 8 bytes fit in 1 KiB.
        while mem.grow(&mut v, 1).is_ok() {
            assert_eq!(held(&mem), v.capacity() as u64 * 8);
            v.resize(v.capacity(), 0);
        }
        assert_eq!(v.capacity(), 128);
        assert_eq!(held(&mem), 1024);
        assert_eq!(mem.wanted(), 2048);
        assert_eq!(mem.budget(), Some(1024));
        mem.release(&v);
        assert_eq!(held(&mem), 0);
    }
}
