//! The last five rows of an N-Queens sub-problem counted at once, without a search.
//!
//! Five rows are left and exactly five columns are free (the set `F`). A completion is a
//! permutation: row `j` of the five takes the `π(j)`-th column of `F`. Of the 120
//! permutations, those the queens above allow are the intersection of five sets, one a row:
//! "row `j` takes a column still free in it", looked up by the row's free columns compressed
//! to five bits. The queens of the five rows must also not attack one another on a diagonal,
//! which depends only on how far apart the columns of `F` lie (and on the rows' distances,
//! fixed per sub-problem): a sixth set, looked up by the gaps between the columns of `F`.
//! The count is the number of permutations in all six: one popcount of a 128-bit mask.
//!
//! This is exact: every completion of the five rows is one permutation (one queen a row, one
//! a column of `F`), and it lies in the six sets exactly when no queen above and no queen of
//! the five attacks it. It replaces a subtree of five levels (hundreds of instructions in
//! the deepest part of the search) by some fifty.

use std::sync::OnceLock;

/// The number of rows (and free columns) counted at once.
pub const ROWS: usize = 5;

const PERMUTATIONS: usize = 120;

type Set = u128;

/// The permutations of the five rows, `perm[p][j]` the index into `F` that row `j` takes.
fn permutations() -> &'static [[u8; ROWS]; PERMUTATIONS] {
    static P: OnceLock<[[u8; ROWS]; PERMUTATIONS]> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = [[0u8; ROWS]; PERMUTATIONS];
        let mut k = 0;
        let mut current = [0u8; ROWS];
        fn fill(
            j: usize,
            used: u8,
            current: &mut [u8; ROWS],
            out: &mut [[u8; ROWS]],
            k: &mut usize,
        ) {
            if j == ROWS {
                out[*k] = *current;
                *k += 1;
                return;
            }
            for i in 0..ROWS as u8 {
                if used & (1 << i) == 0 {
                    current[j] = i;
                    fill(j + 1, used | 1 << i, current, out, k);
                }
            }
        }
        fill(0, 0, &mut current, &mut out, &mut k);
        debug_assert_eq!(k, PERMUTATIONS);
        out
    })
}

/// `by_row()[j][x]`: the permutations whose row `j` takes an index in the five-bit set `x`.
fn by_row() -> &'static [[Set; 1 << ROWS]; ROWS] {
    static T: OnceLock<[[Set; 1 << ROWS]; ROWS]> = OnceLock::new();
    T.get_or_init(|| {
        let perms = permutations();
        let mut t = [[0; 1 << ROWS]; ROWS];
        for (j, row) in t.iter_mut().enumerate() {
            for (x, set) in row.iter_mut().enumerate() {
                for (p, perm) in perms.iter().enumerate() {
                    if x & (1 << perm[j]) != 0 {
                        *set |= 1 << p;
                    }
                }
            }
        }
        t
    })
}

/// The permutations without a diagonal attack among the five rows, for every spacing of the
/// five free columns, given the distances between the five rows (`steps[j]` from row `j` to
/// row `j + 1`: 1, or more where a row of the sub-problem is already filled).
///
/// A gap between neighbouring columns of `F` matters only up to the rows' span: a gap
/// larger than it puts every pair across it further apart than any two rows. So gaps are
/// capped at `span + 1`, and the table has `(span + 1)^4` entries.
pub struct Spacing {
    cap: u32,
    sets: Box<[Set]>,
    by_row: &'static [[Set; 1 << ROWS]; ROWS],
}

impl Spacing {
    fn new(steps: [u32; ROWS - 1]) -> Spacing {
        let mut row = [0u32; ROWS];
        for j in 1..ROWS {
            row[j] = row[j - 1] + steps[j - 1];
        }
        let span = row[ROWS - 1];
        let cap = span + 1;
        // clash[d][i][k]: the permutations that put columns i and k of F in two rows d apart.
        let mut clash = vec![[[0 as Set; ROWS]; ROWS]; span as usize + 1];
        for (p, perm) in permutations().iter().enumerate() {
            for a in 0..ROWS {
                for b in a + 1..ROWS {
                    let d = (row[b] - row[a]) as usize;
                    let (i, k) = (perm[a] as usize, perm[b] as usize);
                    clash[d][i.min(k)][i.max(k)] |= 1 << p;
                }
            }
        }
        let all: Set = (1 << PERMUTATIONS) - 1;
        let entries = (cap as usize).pow(ROWS as u32 - 1);
        let mut sets = vec![all; entries].into_boxed_slice();
        for (index, set) in sets.iter_mut().enumerate() {
            // The columns of F at the capped gaps of this entry.
            let mut column = [0u32; ROWS];
            let mut rest = index;
            for i in 1..ROWS {
                column[i] = column[i - 1] + 1 + (rest % cap as usize) as u32;
                rest /= cap as usize;
            }
            for i in 0..ROWS {
                for k in i + 1..ROWS {
                    let d = (column[k] - column[i]) as usize;
                    if d <= span as usize {
                        *set &= !clash[d][i][k];
                    }
                }
            }
        }
        Spacing {
            cap,
            sets,
            by_row: by_row(),
        }
    }

    /// The table for these row distances, built once per process and shared.
    pub fn for_steps(steps: [u32; ROWS - 1]) -> &'static Spacing {
        // Steps are 1 to 3 (two rows of a sub-problem at most are filled beforehand); any
        // larger step is clamped, which only caps gaps higher than needed: still exact.
        static TABLES: [OnceLock<Spacing>; 81] = [const { OnceLock::new() }; 81];
        let key = steps
            .iter()
            .fold(0, |k, &s| k * 3 + (s.clamp(1, 3) - 1) as usize);
        TABLES[key].get_or_init(|| Spacing::new(steps.map(|s| s.clamp(1, 3))))
    }
}

/// Completions of the last five rows: `free` the five free columns, `open[j]` the columns
/// row `j` may take given the queens above (subsets of `free`).
#[inline(always)]
pub fn count<const NATIVE: bool>(spacing: &Spacing, free: u32, open: [u32; ROWS]) -> u64 {
    debug_assert_eq!(free.count_ones() as usize, ROWS);
    let by_row = spacing.by_row;
    // The positions of F's columns, for the gaps and (without BMI2) the compression.
    let mut x = free;
    let mut at = [0u32; ROWS];
    for a in at.iter_mut() {
        *a = x.trailing_zeros();
        x &= x.wrapping_sub(1);
    }
    let cap = spacing.cap;
    let mut index = 0;
    for i in (1..ROWS).rev() {
        index = index * cap + (at[i] - at[i - 1] - 1).min(cap - 1);
    }
    let mut set = spacing.sets[index as usize];
    for j in 0..ROWS {
        set &= by_row[j][compress::<NATIVE>(open[j], free, &at) as usize];
    }
    u64::from(set.count_ones())
}

/// `x`'s bits at the columns of `free` (at `at`), packed into five bits. `NATIVE` only where
/// the caller is compiled for BMI2 (one instruction); otherwise bit by bit.
#[inline(always)]
fn compress<const NATIVE: bool>(x: u32, free: u32, at: &[u32; ROWS]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if NATIVE {
        // SAFETY: `NATIVE` callers run only where BMI2 was detected.
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

    #[test]
    fn counts_agree_with_brute_force_on_random_rows() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
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
            assert_eq!(count::<false>(spacing, free, open), expected, "{context}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                assert_eq!(count::<true>(spacing, free, open), expected, "{context}");
            }
        }
    }
}
