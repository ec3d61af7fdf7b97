//! The states of `count`: each square's new states appended to hash buckets and merged
//! bucket by bucket, on one thread or several, with the path counts in `u64` or `u128`.
//!
//! A state and its count sit side by side (16 bytes with a `u64` count). The new states of
//! a square go to buckets by the top bits of their hash, a sequential write; each bucket is
//! then merged through a table small enough to stay in cache into a dense list, the next
//! square's input. So the memory traffic is sequential, where one large hash table would be
//! probed at random. One square may make at most [`MAX_NEW`] new states before merging,
//! else the count stops as a memory limit.

/// A state and its count, side by side.
#[derive(Clone, Copy)]
pub(super) struct Slot<T> {
    pub key: u64,
    pub ways: T,
}

/// Why adding a state failed.
pub(super) enum Full {
    Overflow,
    Memory,
}

/// Most new states (before merging) one square may make: 12 M of 16 bytes; with the
/// merged list and the square before's, a count stays under about 600 MB.
pub(super) const MAX_NEW: usize = 12 << 20;

/// The new states of one square: appended to buckets by the top bits of their hash (a
/// sequential write), then merged bucket by bucket through a small table that stays in
/// cache, instead of one large table probed at random.
pub(super) struct Buckets<T> {
    buckets: Vec<Vec<Slot<T>>>,
    total: usize,
    /// Its share of [`MAX_NEW`] (threads fill one each).
    pub max_total: usize,
    index: Vec<u32>,
}

impl<T: Ways> Buckets<T> {
    /// States a bucket should hold about, so that its merge table stays in the L2 cache.
    const BUCKET: usize = 1 << 13;

    pub fn new() -> Self {
        Buckets {
            buckets: vec![Vec::new()],
            total: 0,
            max_total: MAX_NEW,
            index: Vec::new(),
        }
    }

    fn hash(key: u64) -> u64 {
        // Murmur3's finaliser: both the top bits (bucket) and the low bits (slot) mix.
        let mut k = key ^ key >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ k >> 33
    }

    /// How many buckets about `expect` new states call for.
    pub fn buckets_for(expect: usize) -> usize {
        (expect / Self::BUCKET)
            .next_power_of_two()
            .clamp(1, 1 << 12)
    }

    /// Empty the buckets, and make them `n`.
    pub fn reset(&mut self, n: usize) {
        self.buckets.resize_with(n, Vec::new);
        self.buckets.truncate(n);
        for b in &mut self.buckets {
            b.clear();
        }
        self.total = 0;
    }

    #[inline]
    pub fn add(&mut self, key: u64, ways: T) -> Result<(), Full> {
        let h = Self::hash(key);
        let b = ((h as u128 * self.buckets.len() as u128) >> 64) as usize;
        self.buckets[b].push(Slot { key, ways });
        self.total += 1;
        if self.total > self.max_total {
            return Err(Full::Memory);
        }
        Ok(())
    }

    /// Merge equal states, into `dense` (emptied first).
    pub fn merge_into(&mut self, dense: &mut Vec<Slot<T>>) -> Result<(), Full> {
        dense.clear();
        for b in &self.buckets {
            merge(&[b], &mut self.index, dense)?;
        }
        Ok(())
    }
}

/// Merge equal states of one bucket (given in parts, one per thread) onto the end of `out`,
/// through a table of positions in `out` small enough to stay in cache.
fn merge<T: Ways>(
    parts: &[&Vec<Slot<T>>],
    index: &mut Vec<u32>,
    out: &mut Vec<Slot<T>>,
) -> Result<(), Full> {
    let len: usize = parts.iter().map(|b| b.len()).sum();
    let size = (2 * len).next_power_of_two().max(8);
    let mask = size - 1;
    index.clear();
    index.resize(size, u32::MAX);
    let base = out.len();
    for s in parts.iter().flat_map(|b| b.iter()) {
        let mut i = Buckets::<T>::hash(s.key) as usize & mask;
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

/// `expand` (the states that a share of `cur` lead to, into buckets) and the merge on
/// `threads` threads: each expands a share of the states into its own buckets, then each
/// merges every `threads`-th bucket of all of them; the merged states replace `cur`.
pub(super) fn expand_parallel<T: Ways, E>(
    cur: &mut Vec<Slot<T>>,
    parts: &mut Vec<Buckets<T>>,
    threads: usize,
    expand: E,
) -> Result<(), Full>
where
    E: Fn(&[Slot<T>], &mut Buckets<T>) -> Result<(), Full> + Sync,
{
    let expand = &expand;
    parts.resize_with(threads, Buckets::new);
    let n = Buckets::<T>::buckets_for(2 * cur.len());
    for b in parts.iter_mut() {
        b.reset(n);
        b.max_total = MAX_NEW / threads;
    }
    let chunk = cur.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let jobs: Vec<_> = cur
            .chunks(chunk)
            .zip(parts.iter_mut())
            .map(|(states, next)| scope.spawn(move || expand(states, next)))
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("a counting thread panicked"))
            .collect::<Result<Vec<()>, Full>>()
    })?;
    let parts = &*parts;
    let merged = std::thread::scope(|scope| {
        let jobs: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let (mut out, mut index) = (Vec::new(), Vec::new());
                    for b in (t..n).step_by(threads) {
                        let lists: Vec<&Vec<Slot<T>>> =
                            parts.iter().map(|p| &p.buckets[b]).collect();
                        merge(&lists, &mut index, &mut out)?;
                    }
                    Ok(out)
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("a counting thread panicked"))
            .collect::<Result<Vec<Vec<Slot<T>>>, Full>>()
    })?;
    cur.clear();
    for m in merged {
        cur.extend_from_slice(&m);
    }
    Ok(())
}

/// Path counts: `u64`, or `u128` when a `u64` count overflowed.
pub(super) trait Ways: Copy + Default + Into<u128> + Send + Sync {
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
