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

    /// It times `m`, plus `a`.
    fn mul_add_small(&mut self, m: u64, a: u64) {
        let mut carry = a as u128;
        for x in self.limbs.iter_mut() {
            let cur = *x as u128 * m as u128 + carry;
            *x = cur as u64;
            carry = cur >> 64;
        }
        if carry > 0 {
            self.limbs.push(carry as u64);
        }
        self.trim();
    }

    /// A number written in decimal: digits only, without a sign or leading zeros (but "0"),
    /// at most `max_digits` of them. `None` for anything else, so that a count read from
    /// outside is taken only as it is printed.
    pub fn from_decimal(s: &str, max_digits: usize) -> Option<Natural> {
        let canonical = !s.is_empty()
            && s.len() <= max_digits
            && s.bytes().all(|b| b.is_ascii_digit())
            && (s == "0" || !s.starts_with('0'));
        if !canonical {
            return None;
        }
        let mut n = Natural::zero();
        // Nineteen digits at a time, as Display writes them.
        for chunk in s.as_bytes().chunks(19) {
            let v = chunk
                .iter()
                .fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'));
            n.mul_add_small(10u64.pow(chunk.len() as u32), v);
        }
        Some(n)
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

    #[test]
    fn decimal_text_reads_back_exactly_and_nothing_else() {
        let mut big = Natural::from_limbs(&[u64::MAX; 5]);
        big.add(&Natural::from(977));
        for n in [
            Natural::zero(),
            Natural::from(7),
            Natural::from(u128::MAX),
            big,
        ] {
            assert_eq!(Natural::from_decimal(&n.to_string(), 1000), Some(n));
        }
        let c = "10000000000000000000000000000000000000001";
        assert_eq!(Natural::from_decimal(c, 1000).unwrap().to_string(), c);
        for bad in ["", "-1", "+1", "01", "1e3", " 1", "1.0", "0x10", "１"] {
            assert_eq!(Natural::from_decimal(bad, 1000), None, "{bad:?}");
        }
        assert_eq!(Natural::from_decimal("12345", 4), None);
    }
}
