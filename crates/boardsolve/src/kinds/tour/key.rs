//! The frontier state of `count` as a word of 4-bit squares: a `u64` for frontiers of up to
//! 15 squares (shorter side up to 7), [`U128`] for longer ones.
//!
//! The checks and the renumbering of labels in expand.rs work on the whole word with masks;
//! this trait gives them the same operations on either width, so the narrow boards keep
//! their 16-byte slots (state and count) while wider ones take 24.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

pub(super) trait Key:
    Copy
    + Eq
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const BITS: usize;
    const ZERO: Self;
    /// The lowest bit of every nibble.
    const ONES: Self;
    fn from_u8(x: u8) -> Self;
    /// The lowest 64 bits.
    fn low(self) -> u64;
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    fn trailing_zeros(self) -> usize;
    /// `self` less its lowest set bit.
    fn clear_lowest(self) -> Self;
    /// Every nibble times `v`: `v` in each nibble whose lowest bit alone is set (no carries).
    fn times(self, v: u8) -> Self;
    /// Mixes every bit into the top bits and the low bits alike (buckets and table slots).
    fn hash(self) -> u64;
    /// The state as two words, the second zero for a 64-bit state (the scratch files).
    fn words(self) -> [u64; 2];
    fn from_words(w: [u64; 2]) -> Self;
    /// The frontier's 4-bit squares that fit below the ends kept at [`Key::ENDS_SHIFT`].
    const ENDS_SHIFT: usize = Self::BITS - 4;

    /// Nibble `i`.
    #[inline]
    fn nibble(self, i: usize) -> u8 {
        ((self >> (4 * i)).low() & 15) as u8
    }

    #[inline]
    fn with_nibble(self, i: usize, v: u8) -> Self {
        self & !(Self::from_u8(15) << (4 * i)) | Self::from_u8(v) << (4 * i)
    }

    /// The lowest bit of each nibble equal to `v`, among the nibbles whose lowest bit
    /// `within` has.
    #[inline]
    fn equal_nibbles(self, v: u8, within: Self) -> Self {
        let x = self ^ Self::ONES.times(v);
        let low3 = Self::ONES.times(7);
        // A nibble's top bit ends up clear exactly when the nibble of x is zero.
        let nonzero = (x & low3).add_in_nibbles(low3) | x;
        (!nonzero >> 3) & within
    }

    /// The sum nibble by nibble, where no nibble's sum passes 15.
    fn add_in_nibbles(self, other: Self) -> Self;
}

/// Murmur3's finaliser.
#[inline]
fn mix(key: u64) -> u64 {
    let mut k = key ^ key >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ k >> 33
}

impl Key for u64 {
    const BITS: usize = 64;
    const ZERO: u64 = 0;
    const ONES: u64 = 0x1111_1111_1111_1111;
    #[inline]
    fn from_u8(x: u8) -> u64 {
        x as u64
    }
    #[inline]
    fn low(self) -> u64 {
        self
    }
    #[inline]
    fn trailing_zeros(self) -> usize {
        u64::trailing_zeros(self) as usize
    }
    #[inline]
    fn clear_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn times(self, v: u8) -> u64 {
        self.wrapping_mul(v as u64)
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }
    #[inline]
    fn words(self) -> [u64; 2] {
        [self, 0]
    }
    #[inline]
    fn from_words(w: [u64; 2]) -> u64 {
        w[0]
    }
    #[inline]
    fn add_in_nibbles(self, other: u64) -> u64 {
        self.wrapping_add(other)
    }
}

/// A 128-bit state kept as two words, so that a slot with a 64-bit count takes 24 bytes
/// (a `u128` would align it to 32).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct U128 {
    lo: u64,
    hi: u64,
}

impl U128 {
    #[inline]
    fn get(self) -> u128 {
        (self.hi as u128) << 64 | self.lo as u128
    }
    #[inline]
    fn of(x: u128) -> U128 {
        U128 {
            lo: x as u64,
            hi: (x >> 64) as u64,
        }
    }
}

/// A binary operator on [`U128`] through `u128`.
macro_rules! through_u128 {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for U128 {
            type Output = U128;
            #[inline]
            fn $f(self, o: U128) -> U128 {
                U128::of(self.get() $op o.get())
            }
        }
        impl $tra for U128 {
            #[inline]
            fn $fa(&mut self, o: U128) {
                *self = U128::of(self.get() $op o.get());
            }
        }
    };
}
through_u128!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
through_u128!(BitOr, bitor, |, BitOrAssign, bitor_assign);
through_u128!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for U128 {
    type Output = U128;
    #[inline]
    fn not(self) -> U128 {
        U128 {
            lo: !self.lo,
            hi: !self.hi,
        }
    }
}

impl Shl<usize> for U128 {
    type Output = U128;
    #[inline]
    fn shl(self, n: usize) -> U128 {
        U128::of(self.get() << n)
    }
}

impl Shr<usize> for U128 {
    type Output = U128;
    #[inline]
    fn shr(self, n: usize) -> U128 {
        U128::of(self.get() >> n)
    }
}

impl Key for U128 {
    const BITS: usize = 128;
    const ZERO: U128 = U128 { lo: 0, hi: 0 };
    const ONES: U128 = U128 {
        lo: 0x1111_1111_1111_1111,
        hi: 0x1111_1111_1111_1111,
    };
    #[inline]
    fn from_u8(x: u8) -> U128 {
        U128 {
            lo: x as u64,
            hi: 0,
        }
    }
    #[inline]
    fn low(self) -> u64 {
        self.lo
    }
    #[inline]
    fn trailing_zeros(self) -> usize {
        self.get().trailing_zeros() as usize
    }
    #[inline]
    fn clear_lowest(self) -> U128 {
        let x = self.get();
        U128::of(x & x.wrapping_sub(1))
    }
    #[inline]
    fn times(self, v: u8) -> U128 {
        U128::of(self.get().wrapping_mul(v as u128))
    }
    #[inline]
    fn hash(self) -> u64 {
        mix(self.lo ^ mix(self.hi))
    }
    #[inline]
    fn words(self) -> [u64; 2] {
        [self.lo, self.hi]
    }
    #[inline]
    fn from_words(w: [u64; 2]) -> U128 {
        U128 { lo: w[0], hi: w[1] }
    }
    #[inline]
    fn add_in_nibbles(self, other: U128) -> U128 {
        U128::of(self.get().wrapping_add(other.get()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_widths_agree_on_the_low_64_bits() {
        let words = [
            0u64,
            1,
            0x0123_4567_89ab_cdef,
            0xfedc_ba98_7654_3210,
            u64::MAX >> 4,
        ];
        for &w in &words {
            let k = U128 { lo: w, hi: 0 };
            for v in 0..16u8 {
                let within = <u64 as Key>::ONES;
                let wide = k.equal_nibbles(v, U128 { lo: within, hi: 0 });
                assert_eq!(wide.low(), w.equal_nibbles(v, within));
                assert_eq!(wide.hi, 0);
            }
            for i in 0..16 {
                assert_eq!(k.nibble(i), w.nibble(i));
                assert_eq!(k.with_nibble(i, 9).low(), w.with_nibble(i, 9));
            }
            assert_eq!(k.clear_lowest().low(), w.clear_lowest());
        }
    }

    #[test]
    fn the_upper_nibbles_of_a_wide_state_are_kept() {
        let k = U128::ZERO.with_nibble(20, 7).with_nibble(3, 2);
        assert_eq!(k.nibble(20), 7);
        assert_eq!(k.nibble(3), 2);
        assert_eq!(k.trailing_zeros(), 13);
        let sevens = k.equal_nibbles(7, U128::ONES);
        assert_eq!(sevens, U128::from_u8(1) << 80);
        assert_eq!(sevens.times(5).nibble(20), 5);
        assert_eq!(k.clear_lowest().nibble(3), 0);
        assert_eq!((k >> 76).nibble(1), 7);
    }
}
