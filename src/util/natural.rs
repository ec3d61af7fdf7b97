//! Unsigned integers of any size, for counts that outgrow `u128` (tours on long boards).
//! Only what counting needs: sums, doubling, comparison and decimal digits.

use std::cmp::Ordering;
use std::fmt;

/// An unsigned integer as 64-bit limbs, least significant first, without leading zero limbs
/// (zero has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Natural {
    limbs: Vec<u64>,
}

impl Natural {
    pub fn zero() -> Natural {
        Natural::default()
    }

    /// From limbs, least significant first (leading zeros allowed).
    pub fn from_limbs(limbs: &[u64]) -> Natural {
        let mut n = Natural {
            limbs: limbs.to_vec(),
        };
        n.trim();
        n
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Add `limbs` (least significant first) to it.
    pub fn add_limbs(&mut self, limbs: &[u64]) {
        if self.limbs.len() < limbs.len() {
            self.limbs.resize(limbs.len(), 0);
        }
        let mut carry = false;
        for (i, x) in self.limbs.iter_mut().enumerate() {
            let y = limbs.get(i).copied().unwrap_or(0);
            if i >= limbs.len() && !carry {
                break;
            }
            let (s, c1) = x.overflowing_add(y);
            let (s, c2) = s.overflowing_add(carry as u64);
            *x = s;
            carry = c1 || c2;
        }
        if carry {
            self.limbs.push(1);
        }
        self.trim();
    }

    pub fn add(&mut self, other: &Natural) {
        self.add_limbs(&other.limbs);
    }

    /// The value, if it fits a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0] as u128),
            2 => Some(self.limbs[0] as u128 | (self.limbs[1] as u128) << 64),
            _ => None,
        }
    }

    /// Its remainder on division by `d` (non-zero).
    pub fn rem(&self, d: u64) -> u64 {
        self.limbs
            .iter()
            .rev()
            .fold(0u128, |r, &x| (r << 64 | x as u128) % d as u128) as u64
    }

    /// Its remainder on division by `d` (non-zero), the quotient left in place.
    pub fn div_rem_small(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for x in self.limbs.iter_mut().rev() {
            let cur = rem << 64 | *x as u128;
            *x = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        self.trim();
        rem as u64
    }
}

impl From<u128> for Natural {
    fn from(v: u128) -> Natural {
        Natural::from_limbs(&[v as u64, (v >> 64) as u64])
    }
}

impl Ord for Natural {
    fn cmp(&self, other: &Natural) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Natural {
    fn partial_cmp(&self, other: &Natural) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.to_u128() {
            return write!(f, "{v}");
        }
        // Nineteen decimal digits at a time, the largest power of ten in a u64.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.div_rem_small(CHUNK));
        }
        let mut s = chunks.pop().map_or("0".into(), |c| c.to_string());
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:019}"));
        }
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_carry_across_limbs_and_print_in_decimal() {
        let mut n = Natural::from(u128::MAX);
        n.add(&Natural::from(1));
        assert_eq!(n.to_u128(), None);
        assert_eq!(n.to_string(), "340282366920938463463374607431768211456");
        // 2^192 - 1 plus 2^192 - 1, against the digits worked out by hand: 2^193 - 2.
        let mut m = Natural::from_limbs(&[u64::MAX; 3]);
        m.add(&Natural::from_limbs(&[u64::MAX; 3]));
        assert_eq!(
            m.to_string(),
            "12554203470773361527671578846415332832204710888928069025790"
        );
        assert!(m > n);
        assert_eq!(Natural::zero().to_string(), "0");
        assert_eq!(Natural::from(12_345).to_string(), "12345");
    }
}
