//! The one hash of the crate: FxHash's step (rustc's), over the 64-bit words of a memo key.
//! The crate depends on nothing, so this step is written here once rather than taken from
//! `rustc-hash`; the keys are bitsets of items, already well mixed, and the tables that use
//! it (the memo of [`crate::Dxz`], the per-level tables of [`crate::Levels`]) need speed
//! more than resistance to chosen keys.

/// FxHash of `key`'s words, without a final mix: callers take the bits they need.
#[inline(always)]
pub(crate) fn fx_words(key: &[u64]) -> u64 {
    let mut h = 0u64;
    for &w in key {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h
}
