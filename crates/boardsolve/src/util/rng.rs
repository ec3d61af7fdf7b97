//! One seeded generator for every randomised technique (local search, tree estimates, test
//! instances), so a run is reproducible from its seed.

/// Marsaglia's xorshift64: fast, and deterministic for a given nonzero seed.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    // Not an `Iterator`: the stream never ends, and `below` is the common use.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..k`; the modulo bias is negligible for the small `k` used here.
    #[inline]
    pub fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}
