//! Fixed-width unsigned values packed end to end in 64-bit words: a per-square array that
//! costs b bits a square instead of 32 (a tour of 10^8 squares needs 27 bits: 337 MB
//! instead of 400 MB).
//!
//! Value i occupies bits i*b .. i*b + b of the word stream, so it may straddle two words.
//! One spare word at the end lets every access read and write two words without a branch.
//! The all-ones value ([`Packed::ones`]) is what callers use as "none" (a hole, a missing
//! neighbour); [`Packed::width_for`] reserves it.

#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(try_from = "Saved<Vec<u64>>")]
pub struct Packed {
    words: Vec<u64>,
    len: usize,
    bits: u32,
    mask: u64,
}

/// A [`Packed`] as it is saved (the Python package pickles its answers' drawings): its
/// words, length and width, read back only where they agree, since every access trusts them.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved<W> {
    words: W,
    len: usize,
    bits: u32,
}

impl serde::Serialize for Packed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Saved {
            words: &self.words[..],
            len: self.len,
            bits: self.bits,
        }
        .serialize(s)
    }
}

impl TryFrom<Saved<Vec<u64>>> for Packed {
    type Error = String;
    fn try_from(v: Saved<Vec<u64>>) -> Result<Packed, String> {
        let words = v
            .len
            .checked_mul(v.bits as usize)
            .map(|total| total.div_ceil(64) + 1);
        if !(1..=Self::MAX_BITS).contains(&v.bits) || words != Some(v.words.len()) {
            return Err(format!(
                "packed values: {} words do not hold {} values of {} bits",
                v.words.len(),
                v.len,
                v.bits
            ));
        }
        Ok(Packed {
            words: v.words,
            len: v.len,
            bits: v.bits,
            mask: (1u64 << v.bits) - 1,
        })
    }
}

impl Packed {
    /// Widest value: one u32.
    pub const MAX_BITS: u32 = 32;

    /// Bits to hold every value 0..n with the all-ones value left over, ceil(log2(n + 1))
    /// and at least 1: indices of n squares, the XOR of two of them, and the sentinel.
    pub fn width_for(n: usize) -> u32 {
        (usize::BITS - n.leading_zeros()).max(1)
    }

    /// `len` zeros of `bits` bits each (1 to 32).
    pub fn new(len: usize, bits: u32) -> Packed {
        assert!(
            (1..=Self::MAX_BITS).contains(&bits),
            "packed width {bits} out of 1..=32"
        );
        let total = len
            .checked_mul(bits as usize)
            .expect("packed size overflows");
        Packed {
            // vec! of zeros is a zeroed allocation: pages are only touched when written.
            words: vec![0; total.div_ceil(64) + 1],
            len,
            bits,
            mask: (1u64 << bits) - 1,
        }
    }

    /// `len` zeros of `bits` bits each, or `Err` with the bytes they take when the system
    /// does not give them (a tour's move numbers on 10^9 squares take 3.5 GiB).
    pub fn try_new(len: usize, bits: u32) -> Result<Packed, u64> {
        assert!(
            (1..=Self::MAX_BITS).contains(&bits),
            "packed width {bits} out of 1..=32"
        );
        let bytes = Self::bytes_for(len, bits);
        let words = len.checked_mul(bits as usize).ok_or(bytes)?.div_ceil(64) + 1;
        let layout = std::alloc::Layout::array::<u64>(words).map_err(|_| bytes)?;
        // A zeroed allocation, as `vec!` of zeros makes (pages are only touched when written),
        // but one that reports failure instead of aborting.
        // SAFETY: the layout has a size of at least one word.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut u64;
        if ptr.is_null() {
            return Err(bytes);
        }
        // SAFETY: `ptr` comes from the global allocator with the layout of `words` u64s, all
        // zero (a valid u64), which the vector owns from here on.
        let words = unsafe { Vec::from_raw_parts(ptr, words, words) };
        Ok(Packed {
            words,
            len,
            bits,
            mask: (1u64 << bits) - 1,
        })
    }

    /// The bytes `len` values of `bits` bits take ([`Packed::bytes`] before allocating).
    pub fn bytes_for(len: usize, bits: u32) -> u64 {
        ((len as u64).saturating_mul(u64::from(bits)).div_ceil(64) + 1).saturating_mul(8)
    }

    /// `len` copies of `v` (masked to the width).
    pub fn filled(len: usize, bits: u32, v: u32) -> Packed {
        let mut p = Packed::new(len, bits);
        if v as u64 & p.mask != 0 {
            for i in 0..len {
                p.set(i, v);
            }
        }
        p
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The all-ones value: the sentinel ("none").
    #[inline]
    pub fn ones(&self) -> u32 {
        self.mask as u32
    }

    /// Bytes held, for reports and tests.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The two words holding value `i` and its bit offset in the first.
    #[inline]
    fn pair(&self, i: usize) -> ([u64; 2], u32, usize) {
        // The one real bounds check: a value past `len` is a caller's bug, not a wrap.
        assert!(i < self.len, "packed index {i} out of {}", self.len);
        let p = i * self.bits as usize;
        let (w, o) = (p >> 6, (p & 63) as u32);
        // SAFETY: i < len, so p <= len * bits - bits and w = p / 64 < ceil(len * bits / 64);
        // `words` has one spare word beyond that, so w + 1 < words.len().
        let ws = unsafe {
            [
                *self.words.get_unchecked(w),
                *self.words.get_unchecked(w + 1),
            ]
        };
        (ws, o, w)
    }

    #[inline]
    fn store(&mut self, w: usize, ws: [u64; 2]) {
        // SAFETY: `w` came from `pair`, which proved w + 1 < words.len().
        unsafe {
            *self.words.get_unchecked_mut(w) = ws[0];
            *self.words.get_unchecked_mut(w + 1) = ws[1];
        }
    }

    /// The value at bit offset `o` of the two words; the high word's share is shifted in two
    /// steps, so o = 0 shifts it out entirely instead of overflowing the shift.
    #[inline]
    fn extract(ws: [u64; 2], o: u32, mask: u64) -> u32 {
        (((ws[0] >> o) | ((ws[1] << 1) << (63 - o))) & mask) as u32
    }

    /// `v` (already masked) written over the field at offset `o`.
    #[inline]
    fn insert(ws: [u64; 2], o: u32, mask: u64, v: u64) -> [u64; 2] {
        [
            (ws[0] & !(mask << o)) | (v << o),
            (ws[1] & !((mask >> 1) >> (63 - o))) | ((v >> 1) >> (63 - o)),
        ]
    }

    /// Value `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        let (ws, o, _) = self.pair(i);
        Self::extract(ws, o, self.mask)
    }

    /// Set value `i` to `v` (masked to the width: `u32::MAX` stores the sentinel).
    #[inline]
    pub fn set(&mut self, i: usize, v: u32) {
        let (ws, o, w) = self.pair(i);
        let ws = Self::insert(ws, o, self.mask, v as u64 & self.mask);
        self.store(w, ws);
    }

    /// Set value `i` to `v` (masked) and return what it held: one address computation for
    /// a walk that reads each entry once and overwrites it.
    #[inline]
    pub fn replace(&mut self, i: usize, v: u32) -> u32 {
        let (ws, o, w) = self.pair(i);
        let old = Self::extract(ws, o, self.mask);
        let ws = Self::insert(ws, o, self.mask, v as u64 & self.mask);
        self.store(w, ws);
        old
    }

    /// XOR value `i` with `v` (masked to the width).
    #[inline]
    pub fn xor(&mut self, i: usize, v: u32) {
        let (ws, o, w) = self.pair(i);
        let v = v as u64 & self.mask;
        self.store(w, [ws[0] ^ (v << o), ws[1] ^ ((v >> 1) >> (63 - o))]);
    }

    /// Replace every value v by f(v) (masked), in order. 64 values of b bits are exactly b
    /// words, so the array goes by such chunks: decoded into a buffer, mapped, and encoded
    /// back a whole word at a time (no read-modify-write of a word per value); the last
    /// len % 64 values one by one.
    pub fn map_in_place(&mut self, mut f: impl FnMut(u32) -> u32) {
        let b = self.bits as usize;
        let mask = self.mask;
        let chunks = self.len / 64;
        let mut buf = [0u32; 64];
        for j in 0..chunks {
            // b words and the next one (the spare word at the end at most).
            let ws = &mut self.words[j * b..(j + 1) * b + 1];
            let mut pos = 0;
            for v in buf.iter_mut() {
                let (w, o) = (pos >> 6, (pos & 63) as u32);
                *v = Self::extract([ws[w], ws[w + 1]], o, mask);
                pos += b;
            }
            for v in buf.iter_mut() {
                *v = f(*v);
            }
            let (mut acc, mut fill, mut w) = (0u64, 0usize, 0);
            for &v in &buf {
                let v = v as u64 & mask;
                acc |= v << fill;
                fill += b;
                if fill >= 64 {
                    ws[w] = acc;
                    w += 1;
                    fill -= 64;
                    // The bits of v that did not fit: 1 to b of them.
                    acc = v >> (b - fill);
                }
            }
            debug_assert!(w == b && fill == 0);
        }
        let mut pos = chunks * 64 * b;
        for _ in chunks * 64..self.len {
            let (w, o) = (pos >> 6, (pos & 63) as u32);
            // SAFETY: pos <= (len - 1) * bits, so w + 1 < words.len() as in `pair`.
            let ws = unsafe {
                [
                    *self.words.get_unchecked(w),
                    *self.words.get_unchecked(w + 1),
                ]
            };
            let v = f(Self::extract(ws, o, self.mask)) as u64 & self.mask;
            self.store(w, Self::insert(ws, o, self.mask, v));
            pos += b;
        }
    }

    /// Write `values` to indices `from..from + values.len()`, encoded a whole word at a time
    /// (a builder that fills the array in order writes each word once, with no
    /// read-modify-write per value); the values around the run are kept.
    pub fn put_run(&mut self, from: usize, values: &[u32]) {
        let to = from + values.len();
        assert!(
            to <= self.len,
            "packed run {from}..{to} out of {}",
            self.len
        );
        if values.is_empty() {
            return;
        }
        let b = self.bits as usize;
        let mask = self.mask;
        let pos = from * b;
        let (mut w, mut fill) = (pos >> 6, pos & 63);
        // The bits below the run in its first word.
        let mut acc = self.words[w] & ((1u64 << fill) - 1);
        for &v in values {
            let v = v as u64 & mask;
            acc |= v << fill;
            fill += b;
            if fill >= 64 {
                self.words[w] = acc;
                w += 1;
                fill -= 64;
                // The bits of v that did not fit: 0 to b of them.
                acc = if fill == 0 { 0 } else { v >> (b - fill) };
            }
        }
        if fill > 0 {
            // The bits above the run in its last word.
            self.words[w] = (self.words[w] & !((1u64 << fill) - 1)) | acc;
        }
    }

    /// Values `from..from + out.len()` into `out`. A value of at most 32 bits starting at
    /// bit offset o < 8 of a byte lies within the 8 bytes from there, so each is one
    /// unaligned load, a shift and a mask, with no dependence between values (the spare
    /// word covers the last load).
    pub fn get_run(&self, from: usize, out: &mut [u32]) {
        let to = from + out.len();
        assert!(
            to <= self.len,
            "packed run {from}..{to} out of {}",
            self.len
        );
        let b = self.bits as usize;
        let bytes = word_bytes(&self.words);
        let mut pos = from * b;
        for v in out.iter_mut() {
            let at = pos >> 3;
            // SAFETY: pos <= (len - 1) * bits, so at + 8 <= (len - 1) * bits / 8 + 8, within
            // the ceil(len * bits / 64) words and the spare one.
            let chunk = unsafe { (bytes.as_ptr().add(at) as *const [u8; 8]).read_unaligned() };
            *v = ((u64::from_le_bytes(chunk) >> (pos & 7)) & self.mask) as u32;
            pos += b;
        }
    }

    /// The values in order.
    pub fn iter(&self) -> Iter<'_> {
        self.range(0, self.len)
    }

    /// Values `from..to` in order, decoded by a running bit position: the streaming
    /// writers and the checker's scan read every square this way.
    pub fn range(&self, from: usize, to: usize) -> Iter<'_> {
        assert!(
            from <= to && to <= self.len,
            "packed range {from}..{to} out of {}",
            self.len
        );
        let bits = self.bits as usize;
        Iter {
            words: &self.words,
            pos: from * bits,
            end: to * bits,
            bits,
            mask: self.mask,
        }
    }

    /// Values from a slice, `bits` wide (each masked to the width).
    pub fn from_slice(values: &[u32], bits: u32) -> Packed {
        let mut p = Packed::new(values.len(), bits);
        for (i, &v) in values.iter().enumerate() {
            p.set(i, v);
        }
        p
    }
}

/// The words as bytes in little-endian order: a plain view on little-endian machines
/// (other targets are refused at compile time rather than read wrongly).
#[inline]
fn word_bytes(words: &[u64]) -> &[u8] {
    #[cfg(not(target_endian = "little"))]
    compile_error!("Packed::get_run reads words as little-endian bytes");
    // SAFETY: u64 has no padding and any byte is a valid u8; the length is the words'.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 8) }
}

/// A running decoder over a [`Packed`] range.
pub struct Iter<'a> {
    words: &'a [u64],
    pos: usize,
    end: usize,
    bits: usize,
    mask: u64,
}

impl Iterator for Iter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.pos >= self.end {
            return None;
        }
        let (w, o) = (self.pos >> 6, (self.pos & 63) as u32);
        // SAFETY: pos < end <= len * bits, so w < ceil(len * bits / 64) and w + 1 is the
        // spare word at most.
        let ws = unsafe {
            [
                *self.words.get_unchecked(w),
                *self.words.get_unchecked(w + 1),
            ]
        };
        self.pos += self.bits;
        Some(Packed::extract(ws, o, self.mask))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.pos) / self.bits;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_reserves_the_sentinel() {
        assert_eq!(Packed::width_for(0), 1);
        assert_eq!(Packed::width_for(1), 1);
        assert_eq!(Packed::width_for(2), 2);
        assert_eq!(Packed::width_for(3), 2);
        assert_eq!(Packed::width_for(4), 3);
        assert_eq!(Packed::width_for(64), 7);
        assert_eq!(Packed::width_for(100_000_000), 27);
        assert_eq!(Packed::width_for(1 << 26), 27);
        assert_eq!(Packed::width_for((1 << 26) - 1), 26);
        for n in 1..5000usize {
            let b = Packed::width_for(n);
            // Indices 0..n and their XORs fit, and all ones is no index.
            assert!((1u64 << b) > n as u64, "n {n}");
            assert!(b == 1 || (1u64 << (b - 1)) <= n as u64, "n {n} not tight");
        }
    }

    /// Every width from 1 to 32 against a plain Vec: set, overwrite, xor, neighbours kept.
    #[test]
    fn every_width_matches_a_plain_array() {
        let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for bits in 1..=32u32 {
            let len = 300;
            let mask = ((1u64 << bits) - 1) as u32;
            let mut p = Packed::new(len, bits);
            let mut v = vec![0u32; len];
            assert!(p.iter().all(|x| x == 0));
            for round in 0..4 * len {
                let i = next() as usize % len;
                let x = next() as u32;
                if round % 5 == 4 {
                    assert_eq!(p.replace(i, x), v[i], "bits {bits} index {i}");
                    v[i] = x & mask;
                } else if round % 3 == 2 {
                    p.xor(i, x);
                    v[i] ^= x & mask;
                } else {
                    p.set(i, x);
                    v[i] = x & mask;
                }
                assert_eq!(p.get(i), v[i], "bits {bits} index {i}");
            }
            assert_eq!(p.iter().collect::<Vec<_>>(), v, "bits {bits}");
            assert_eq!(
                p.range(7, 107).collect::<Vec<_>>(),
                v[7..107],
                "bits {bits}"
            );
            assert_eq!(p.range(len, len).count(), 0);
            let mut out = vec![0u32; 100];
            p.get_run(len - 100, &mut out);
            assert_eq!(out, v[len - 100..], "bits {bits}");
            p.get_run(3, &mut out[..7]);
            assert_eq!(out[..7], v[3..10], "bits {bits}");
            // Runs written over the middle keep the values around them.
            for (from, run) in [(7usize, 1usize), (13, 64), (40, 200), (0, len)] {
                let vals: Vec<u32> = (0..run).map(|_| next() as u32).collect();
                p.put_run(from, &vals);
                for (k, &x) in vals.iter().enumerate() {
                    v[from + k] = x & mask;
                }
                assert_eq!(p.iter().collect::<Vec<_>>(), v, "bits {bits} run {from}");
            }
            p.map_in_place(|x| x.wrapping_mul(3) ^ 5);
            let mapped: Vec<u32> = v.iter().map(|&x| (x.wrapping_mul(3) ^ 5) & mask).collect();
            assert_eq!(p.iter().collect::<Vec<_>>(), mapped, "bits {bits}");
            assert_eq!(p.ones(), mask);
            // No spill beyond `len`: the spare word stays clear.
            assert_eq!(*p.words.last().unwrap(), 0, "bits {bits}");
        }
    }

    #[test]
    fn values_straddling_words() {
        // 27 bits: value 2 spans bits 54..81, value 4 spans 108..135, ...
        let mut p = Packed::new(10, 27);
        let ones = p.ones();
        for i in 0..10 {
            p.set(i, ones);
        }
        p.set(2, 0x555_5555);
        assert_eq!(p.get(1), ones);
        assert_eq!(p.get(2), 0x555_5555);
        assert_eq!(p.get(3), ones);
        p.xor(2, ones);
        assert_eq!(p.get(2), 0x2aa_aaaa);
        // 31 bits: value 2 spans bits 62..93.
        let mut q = Packed::new(5, 31);
        q.set(2, u32::MAX);
        assert_eq!(q.get(2), q.ones());
        assert_eq!(q.get(1), 0);
        assert_eq!(q.get(3), 0);
        // A full-width value whose bits land exactly on a word boundary and just after it.
        let mut r = Packed::new(4, 32);
        r.set(1, 0xdead_beef);
        r.set(2, 0x1234_5678);
        assert_eq!(
            (r.get(0), r.get(1), r.get(2), r.get(3)),
            (0, 0xdead_beef, 0x1234_5678, 0)
        );
    }

    #[test]
    fn sentinel_is_all_ones_and_masked_on_store() {
        for bits in 1..=32u32 {
            let mut p = Packed::new(3, bits);
            p.set(1, u32::MAX);
            assert_eq!(p.get(1), p.ones());
            assert_eq!((p.get(0), p.get(2)), (0, 0));
            // XOR links as divide keeps them: a missing neighbour is the sentinel.
            p.set(0, 0);
            p.xor(0, u32::MAX ^ 1);
            p.xor(0, u32::MAX ^ 1);
            assert_eq!(p.get(0), 0);
        }
        let f = Packed::filled(7, 5, u32::MAX);
        assert!(f.iter().all(|x| x == 31));
        assert_eq!(
            Packed::from_slice(&[3, 1, 2], 2).iter().collect::<Vec<_>>(),
            [3, 1, 2]
        );
    }

    #[test]
    fn size_is_bits_per_value() {
        let p = Packed::new(100_000, 27);
        assert_eq!(p.bytes(), (100_000 * 27usize).div_ceil(64) * 8 + 8);
        assert_eq!(Packed::bytes_for(100_000, 27), p.bytes() as u64);
        let q = Packed::try_new(100_000, 27).unwrap();
        assert_eq!(q, p);
        assert!(Packed::try_new(usize::MAX / 2, 32).is_err());
        assert_eq!(Packed::new(0, 5).len(), 0);
    }

    #[test]
    fn saved_values_read_back_and_inconsistent_ones_are_refused() {
        let mut p = Packed::new(100, 27);
        for i in 0..100 {
            p.set(i, (i as u32) * 1_000_003 % (1 << 27));
        }
        let saved = serde_json::to_string(&p).unwrap();
        let back: Packed = serde_json::from_str(&saved).unwrap();
        assert_eq!(back, p);
        // Too few words for the values, and a width beyond 32 bits: every access would read
        // past the words or mask wrongly.
        let short = saved.replacen("\"len\":100", "\"len\":1000", 1);
        assert!(serde_json::from_str::<Packed>(&short).is_err());
        let wide = saved.replacen("\"bits\":27", "\"bits\":40", 1);
        assert!(serde_json::from_str::<Packed>(&wide).is_err());
    }
}
