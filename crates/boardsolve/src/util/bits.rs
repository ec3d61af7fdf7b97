//! Fixed-size bitsets in machine words.

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    pub fn new(bits: usize) -> Bits {
        Bits {
            words: vec![0; bits.div_ceil(64)],
        }
    }

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.words[i >> 6] &= !(1 << (i & 63));
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.words)
    }
}

/// The indices of the set bits of `bits`, lowest first.
#[inline]
pub fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                k * 64 + b
            })
        })
    })
}

/// `rows` bitsets of `cols` bits each, in one flat array.
#[derive(Clone, Debug)]
pub struct BitMatrix {
    words_per_row: usize,
    data: Vec<u64>,
}

impl BitMatrix {
    pub fn new(rows: usize, cols: usize) -> BitMatrix {
        let words_per_row = cols.div_ceil(64).max(1);
        BitMatrix {
            words_per_row,
            data: vec![0; rows * words_per_row],
        }
    }

    pub fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    #[inline]
    pub fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words_per_row..(r + 1) * self.words_per_row]
    }

    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.data[r * self.words_per_row + (c >> 6)] >> (c & 63) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, r: usize, c: usize) {
        self.data[r * self.words_per_row + (c >> 6)] |= 1 << (c & 63);
    }

    pub fn row_count(&self, r: usize) -> usize {
        self.row(r).iter().map(|w| w.count_ones() as usize).sum()
    }
}
