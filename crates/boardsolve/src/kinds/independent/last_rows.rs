//! The last six rows of an N-Queens sub-problem counted at once, without a search.
//!
//! Six rows are left and exactly six columns are free (the set `F`). A completion is a
//! permutation: row `j` of the six takes the `π(j)`-th column of `F`. Of the 720
//! permutations, those the queens above allow are the intersection of six sets, one a row:
//! "row `j` takes a column still free in it", looked up by the row's free columns compressed
//! to six bits. The queens of the six rows must also not attack one another on a diagonal,
//! which depends only on how far apart the columns of `F` lie (and on the rows' distances,
//! fixed per sub-problem): three more sets, looked up by the gaps between the columns of `F`
//! (see [`Spacing`]). The count is the number of permutations in all nine: ands and a
//! popcount over 720 bits, which AVX-512 does in a few instructions.
//!
//! This is exact: every completion of the six rows is one permutation (one queen a row, one
//! a column of `F`), and it lies in the nine sets exactly when no queen above and no queen of
//! the six attacks it. It replaces a subtree of six levels, the deepest and most numerous
//! nodes of the search with their hard-to-predict branches.

use std::sync::OnceLock;

/// The number of rows (and free columns) counted at once.
pub const ROWS: usize = 6;

/// What the code is compiled for: no particular instructions,
pub const PORTABLE: u8 = 0;
/// BMI2 (`pext` compresses a row's free columns in one instruction),
pub const BMI2: u8 = 1;
/// or AVX-512 with VBMI2 and BITALG besides ([`add_wide`]).
pub const AVX512: u8 = 2;

const PERMUTATIONS: usize = 720;

/// 64-bit words in a set of permutations.
const WORDS: usize = PERMUTATIONS.div_ceil(64);

#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Set([u64; WORDS]);

impl Set {
    const EMPTY: Set = Set([0; WORDS]);

    fn insert(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }

    #[inline(always)]
    fn keep(&mut self, other: &Set) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }

    fn remove_all(&mut self, other: &Set) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
    }
}

fn permutations() -> &'static [[u8; ROWS]] {
    static P: OnceLock<Vec<[u8; ROWS]>> = OnceLock::new();
    P.get_or_init(|| {
        fn fill(j: usize, used: u8, current: &mut [u8; ROWS], out: &mut Vec<[u8; ROWS]>) {
            if j == ROWS {
                out.push(*current);
                return;
            }
            for i in 0..ROWS as u8 {
                if used & (1 << i) == 0 {
                    current[j] = i;
                    fill(j + 1, used | 1 << i, current, out);
                }
            }
        }
        let mut out = Vec::with_capacity(PERMUTATIONS);
        fill(0, 0, &mut [0; ROWS], &mut out);
        out
    })
}

type ByRow = [[Set; 1 << ROWS]; ROWS];

fn by_row() -> &'static ByRow {
    static T: OnceLock<Box<ByRow>> = OnceLock::new();
    T.get_or_init(|| {
        let perms = permutations();
        let mut t = Box::new([[Set::EMPTY; 1 << ROWS]; ROWS]);
        for (j, row) in t.iter_mut().enumerate() {
            for (x, set) in row.iter_mut().enumerate() {
                for (p, perm) in perms.iter().enumerate() {
                    if x & (1 << perm[j]) != 0 {
                        set.insert(p);
                    }
                }
            }
        }
        t
    })
}

/// The permutations without a diagonal attack among the last rows, by the spacing of the
/// free columns, given the distances between the rows (`steps[j]` from row `j` to row
/// `j + 1`: 1, or more where a row of the sub-problem is already filled).
///
/// Columns `i < k` of `F` attack each other when their distance, the sum of the gaps
/// between them, equals the distance of their rows; a gap matters only up to the rows' span,
/// so gaps are capped at `span + 1`. One table over all five gaps would be too large for the
/// cache, so the pairs are split three ways: those among columns 0 to 4 (`left`, by the first
/// four gaps), those among columns 1 to 5 (`right`, by the last four) and the pair of the two
/// outer columns (`outer`, by their distance).
pub struct Spacing {
    cap: u32,
    /// Powers of `cap`, so that a table index is four independent products, not a chain.
    scale: [u32; 4],
    left: Box<[Set]>,
    right: Box<[Set]>,
    outer: Box<[Set]>,
    by_row: &'static ByRow,
}

impl Spacing {
    fn new(steps: [u32; ROWS - 1]) -> Spacing {
        let mut row = [0u32; ROWS];
        for j in 1..ROWS {
            row[j] = row[j - 1] + steps[j - 1];
        }
        let span = row[ROWS - 1] as usize;
        let cap = span + 1;
        // clash[d][i][k]: the permutations that put columns i and k of F in two rows d apart.
        let mut clash = vec![[[Set::EMPTY; ROWS]; ROWS]; span + 1];
        for (p, perm) in permutations().iter().enumerate() {
            for a in 0..ROWS {
                for b in a + 1..ROWS {
                    let d = (row[b] - row[a]) as usize;
                    let (i, k) = (perm[a] as usize, perm[b] as usize);
                    clash[d][i.min(k)][i.max(k)].insert(p);
                }
            }
        }
        let mut all = Set::EMPTY;
        for p in 0..PERMUTATIONS {
            all.insert(p);
        }
        // The sets for four consecutive gaps starting after column `first`: the pairs among
        // columns first..=first + 4.
        let four = |first: usize| -> Box<[Set]> {
            let mut sets = vec![all; cap.pow(4)].into_boxed_slice();
            for (index, set) in sets.iter_mut().enumerate() {
                let mut column = [0usize; 5];
                let mut rest = index;
                for i in 1..5 {
                    column[i] = column[i - 1] + 1 + rest % cap;
                    rest /= cap;
                }
                for i in 0..5 {
                    for k in i + 1..5 {
                        let d = column[k] - column[i];
                        if d <= span {
                            set.remove_all(&clash[d][first + i][first + k]);
                        }
                    }
                }
            }
            sets
        };
        let outer = (0..=cap)
            .map(|d| {
                let mut set = all;
                if d <= span {
                    set.remove_all(&clash[d][0][ROWS - 1]);
                }
                set
            })
            .collect();
        Spacing {
            cap: cap as u32,
            scale: [1, cap, cap * cap, cap * cap * cap].map(|x| x as u32),
            left: four(0),
            right: four(1),
            outer,
            by_row: by_row(),
        }
    }

    /// The permutations that put no two of the six queens on a diagonal, given the free
    /// columns' positions in increasing order.
    #[inline(always)]
    fn diagonals_at(&self, at: &[u32; ROWS]) -> Set {
        let cap = self.cap;
        let [_, c1, c2, c3] = self.scale;
        let gap = |i: usize| (at[i] - at[i - 1] - 1).min(cap - 1);
        let (g1, g2, g3, g4, g5) = (gap(1), gap(2), gap(3), gap(4), gap(5));
        let left = (g1 + c1 * g2) + (c2 * g3 + c3 * g4);
        let right = (g2 + c1 * g3) + (c2 * g4 + c3 * g5);
        let outer = (at[ROWS - 1] - at[0]).min(cap);
        let mut acc = self.left[left as usize];
        acc.keep(&self.right[right as usize]);
        acc.keep(&self.outer[outer as usize]);
        acc
    }

    /// The table for these row distances, built once per process and shared.
    ///
    /// # Panics
    /// When a step is not 1, 2 or 3: a sub-problem has two rows filled beforehand at most
    /// (those of the side queens), so no two rows it searches lie further apart.
    pub fn for_steps(steps: [u32; ROWS - 1]) -> &'static Spacing {
        const KEYS: usize = 3usize.pow(ROWS as u32 - 1);
        static TABLES: [OnceLock<Spacing>; KEYS] = [const { OnceLock::new() }; KEYS];
        assert!(steps.iter().all(|s| (1..=3).contains(s)), "steps {steps:?}");
        let key = steps.iter().fold(0, |k, &s| k * 3 + (s - 1) as usize);
        TABLES[key].get_or_init(|| Spacing::new(steps))
    }
}

/// Completions of the last rows: `free` the free columns, `open[j]` the columns row `j` may
/// take given the queens above (subsets of `free`).
#[cfg(test)]
fn count<const KIND: u8>(spacing: &Spacing, free: u32, open: [u32; ROWS]) -> u64 {
    let mut lanes = Lanes::default();
    add::<KIND>(spacing, free, open, &mut lanes);
    lanes.total()
}

/// Counts kept word by word, so that a caller counting many sub-problems adds vectors and
/// sums them once: the horizontal sum would otherwise lengthen every call's critical path.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub struct Lanes([u64; WORDS]);

impl Lanes {
    /// Adds the members of `set`, word by word.
    #[inline(always)]
    fn add(&mut self, set: &Set) {
        for (l, w) in self.0.iter_mut().zip(set.0) {
            *l += u64::from(w.count_ones());
        }
    }

    #[inline(always)]
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// [`count`], added word by word to `lanes`.
#[inline(always)]
pub fn add<const KIND: u8>(spacing: &Spacing, free: u32, open: [u32; ROWS], lanes: &mut Lanes) {
    debug_assert_eq!(free.count_ones() as usize, ROWS);
    // The positions of F's columns, for the gaps and (without BMI2) the compression.
    let mut x = free;
    let mut at = [0u32; ROWS];
    for a in at.iter_mut() {
        *a = x.trailing_zeros();
        x &= x.wrapping_sub(1);
    }
    let mut acc = spacing.diagonals_at(&at);
    for (row, &o) in spacing.by_row.iter().zip(&open) {
        acc.keep(&row[compress::<KIND>(o, free, &at) as usize]);
    }
    lanes.add(&acc);
}

/// The rows' own blocked columns and distances from the first, laid out in eight 64-bit
/// lanes for [`add_wide`] (the two spare lanes fully blocked).
#[derive(Clone, Copy)]
pub struct Rows {
    reach: [u64; 8],
    blocked: [u64; 8],
}

impl Rows {
    pub fn new(blocked: [u32; ROWS], reach: [u32; ROWS]) -> Rows {
        Rows {
            reach: std::array::from_fn(|j| reach.get(j).map_or(0, |&r| u64::from(r))),
            blocked: std::array::from_fn(|j| blocked.get(j).map_or(!0, |&b| u64::from(b))),
        }
    }
}

/// [`add`] for the rows below queens whose diagonals, at the first row, are `ld` and `rd`:
/// each row's open columns are worked out in a lane of its own, and one `vpshufbitqmb`
/// compresses all six at the positions of `free`'s columns (found by one `vpcompressb`),
/// where [`add`] takes six shifts, masks and `pext`s one after the other.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn add_wide(spacing: &Spacing, free: u32, ld: u32, rd: u32, rows: &Rows, lanes: &mut Lanes) {
    use core::arch::x86_64::*;
    // SAFETY: called only from code compiled for AVX-512 F, BW, VL, VBMI2 and BITALG, which
    // runs only where they were detected; the loads read the eight lanes of `rows`.
    let (picked, positions) = unsafe {
        let reach = _mm512_loadu_si512(rows.reach.as_ptr().cast());
        let blocked = _mm512_loadu_si512(rows.blocked.as_ptr().cast());
        let l = _mm512_sllv_epi64(_mm512_set1_epi64(i64::from(ld)), reach);
        let r = _mm512_srlv_epi64(_mm512_set1_epi64(i64::from(rd)), reach);
        let taken = _mm512_or_si512(_mm512_or_si512(l, r), blocked);
        let open = _mm512_andnot_si512(taken, _mm512_set1_epi64(i64::from(free)));
        let iota = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        // Byte i: the column of F's i-th free column; bytes 6 and 7 are 0, a column never
        // open (the border), so the spare bits of each row's byte stay 0.
        let at = _mm256_maskz_compress_epi8(free, iota);
        let positions = _mm_cvtsi128_si64(_mm256_castsi256_si128(at)) as u64;
        let picked = _mm512_bitshuffle_epi64_mask(open, _mm512_set1_epi64(positions as i64));
        (picked, positions)
    };
    let at: [u32; ROWS] = std::array::from_fn(|i| ((positions >> (8 * i)) & 0xff) as u32);
    let mut acc = spacing.diagonals_at(&at);
    for (j, row) in spacing.by_row.iter().enumerate() {
        acc.keep(&row[((picked >> (8 * j)) & 63) as usize]);
    }
    lanes.add(&acc);
}

/// `x`'s bits at the columns of `free` (at `at`), packed into `ROWS` bits: one instruction
/// where the caller is compiled for BMI2, bit by bit otherwise.
#[inline(always)]
fn compress<const KIND: u8>(x: u32, free: u32, at: &[u32; ROWS]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if KIND >= BMI2 {
        // SAFETY: such callers run only where BMI2 was detected.
        return unsafe { core::arch::x86_64::_pext_u32(x, free) };
    }
    let _ = free;
    let mut out = 0;
    for (i, &a) in at.iter().enumerate() {
        out |= ((x >> a) & 1) << i;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Count by brute force over the 120 permutations, straight from the rules.
    fn brute(steps: [u32; ROWS - 1], free: u32, open: [u32; ROWS]) -> u64 {
        let mut row = [0u32; ROWS];
        for j in 1..ROWS {
            row[j] = row[j - 1] + steps[j - 1];
        }
        let cols: Vec<u32> = (0..32).filter(|c| free & (1 << c) != 0).collect();
        let mut n = 0;
        for perm in permutations() {
            let c = |j: usize| cols[perm[j] as usize];
            let ok = (0..ROWS).all(|j| open[j] & (1 << c(j)) != 0)
                && (0..ROWS).all(|a| (a + 1..ROWS).all(|b| c(a).abs_diff(c(b)) != row[b] - row[a]));
            n += ok as u64;
        }
        n
    }

    /// A small seeded generator, so that the random cases are the same on every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// `add_wide` works out the rows' open columns itself, from the diagonals above: the
    /// same as the scalar code's, and the same count.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_wide_count_agrees_with_the_scalar_one() {
        use std::arch::is_x86_feature_detected as has;
        let wide = has!("avx512f")
            && has!("avx512bw")
            && has!("avx512vl")
            && has!("avx512vbmi2")
            && has!("avx512bitalg");
        if !wide {
            return;
        }
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let steps = [0; ROWS - 1].map(|_| 1 + (next() % 3) as u32);
            let mut reach = [0u32; ROWS];
            for j in 1..ROWS {
                reach[j] = reach[j - 1] + steps[j - 1];
            }
            // Column 0 is a border column, never free.
            let mut free = 0u32;
            while free.count_ones() < ROWS as u32 {
                free |= 1 << (1 + next() % 24);
            }
            let (ld, rd) = ((next() & next()) as u32, (next() & next()) as u32);
            let blocked = [0; ROWS].map(|_| (next() & next() & next()) as u32);
            let open =
                std::array::from_fn(|j| !((ld << reach[j]) | (rd >> reach[j]) | blocked[j]) & free);
            let spacing = Spacing::for_steps(steps);
            let mut lanes = Lanes::default();
            add_wide(
                spacing,
                free,
                ld,
                rd,
                &Rows::new(blocked, reach),
                &mut lanes,
            );
            assert_eq!(
                lanes.total(),
                brute(steps, free, open),
                "steps {steps:?} free {free:#b} ld {ld:#b} rd {rd:#b} blocked {blocked:?}"
            );
        }
    }

    #[test]
    fn counts_agree_with_brute_force_on_random_rows() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let steps = [0; ROWS - 1].map(|_| 1 + (next() % 3) as u32);
            let mut free = 0u32;
            while free.count_ones() < ROWS as u32 {
                free |= 1 << (next() % 20);
            }
            // Dense rows, so that permutations survive and the diagonals decide.
            let open = [0; ROWS].map(|_| free & !((next() & next() & next()) as u32));
            let spacing = Spacing::for_steps(steps);
            let expected = brute(steps, free, open);
            let context = format!("steps {steps:?} free {free:#b} open {open:?}");
            assert_eq!(
                count::<PORTABLE>(spacing, free, open),
                expected,
                "{context}"
            );
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                assert_eq!(count::<BMI2>(spacing, free, open), expected, "{context}");
            }
        }
    }
}
