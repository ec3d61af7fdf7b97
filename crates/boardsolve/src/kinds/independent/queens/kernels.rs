//! The deep levels of the N-Queens search, compiled per kind of processor: the last levels
//! of a constellation's search as functions that know their depth statically, the same
//! source compiled with `target_feature` for AVX-512 and for AVX2 beside a portable build,
//! and the one chosen at run time ([`Deep`]). Apart from the search above them (search.rs)
//! because they hold the processor-specific code and its one `unsafe` call, and read only
//! the [`Plan`] a search lays out.

use super::super::last_rows::{self, Spacing};
use super::constellations::{Bits, MAX_N};

/// The rows a plain search fills, in order: what the border queens leave free in each, and
/// how far the next searched row lies below.
pub(super) struct Plan {
    pub(super) blocked: [Bits; MAX_N],
    pub(super) shift: [u32; MAX_N],
    pub(super) levels: usize,
    /// The columns the search fills.
    pub(super) columns: Bits,
    /// The last levels, when they are counted at once ([`last_rows`]).
    pub(super) tail: Option<Tail>,
    /// The deep levels as compiled for this processor.
    pub(super) deep: Deep,
}

/// The last `last_rows::ROWS` levels of a plan: how they lie, what the border queens leave
/// free in each, and how far each lies below the first of them.
pub(super) struct Tail {
    pub(super) spacing: &'static Spacing,
    pub(super) blocked: [Bits; last_rows::ROWS],
    pub(super) reach: [u32; last_rows::ROWS],
    /// The same, laid out for [`last_rows::add_wide`].
    pub(super) wide: last_rows::Rows,
}

/// Levels this close to the end are searched by [`deep`], without looking at the limits:
/// of eleven rows the last six are counted at once, so such a subtree is a search of five
/// levels (at most 11!/6! = 55,440 nodes, in practice far fewer): too little for a limit
/// check to matter, and the levels above lose the cost of the recursion.
pub(super) const DEEP_LEVELS: usize = 11;

/// Completions and nodes of levels `level..` (at least four, at most `DEEP_LEVELS`); the
/// hot part of the search, compiled for the processor (see [`Deep`]).
#[inline(always)]
pub(super) fn deep(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    free: Bits,
) -> (u64, u64) {
    (plan.deep.0)(plan, level, ld, rd, cols, free)
}

/// The deep levels, one function per number of levels left so that each knows its depth
/// statically and they fold into one another. `KIND`: what the processor they are compiled
/// for has, one of [`last_rows::PORTABLE`], [`last_rows::BMI2`] and [`last_rows::AVX512`].
#[inline(always)]
fn deep_levels<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    free: Bits,
) -> (u64, u64) {
    debug_assert!((4..=DEEP_LEVELS).contains(&(plan.levels - level)));
    const _: () = assert!(last_rows::ROWS == 6, "deep_7 hands six levels to last_rows");
    match plan.levels - level {
        4 => deep_4::<KIND>(plan, level, ld, rd, cols, free),
        5 => deep_5::<KIND>(plan, level, ld, rd, cols, free),
        6 => deep_6::<KIND>(plan, level, ld, rd, cols, free),
        7 => deep_7::<KIND>(plan, level, ld, rd, cols, free),
        8 => deep_8::<KIND>(plan, level, ld, rd, cols, free),
        9 => deep_9::<KIND>(plan, level, ld, rd, cols, free),
        10 => deep_10::<KIND>(plan, level, ld, rd, cols, free),
        _ => deep_11::<KIND>(plan, level, ld, rd, cols, free),
    }
}

/// The deep levels as compiled for one kind of processor. The same source is compiled three
/// times: the sets of permutations of [`last_rows`] are 720-bit words that AVX-512 ands and
/// counts in two instructions each (and with VBMI2 and BITALG, it also works out the six
/// rows' open columns side by side), AVX2 in three ands and twelve counts, and a processor
/// without either word by word.
#[derive(Clone, Copy)]
pub(super) struct Deep(DeepFn);

type DeepFn = fn(&Plan, usize, Bits, Bits, Bits, Bits) -> (u64, u64);

impl Deep {
    const PORTABLE: Deep = Deep(deep_portable);

    /// The fastest kind this processor runs (checked once).
    pub(super) fn for_this_processor() -> Deep {
        static BEST: std::sync::OnceLock<Deep> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| Deep::available()[0])
    }

    /// Every kind this processor runs, the fastest first.
    pub(super) fn available() -> Vec<Deep> {
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("avx2");
            let avx512 = has!("avx512f") && has!("avx512bw") && has!("avx512vl");
            let bits = has!("avx512vpopcntdq") && has!("avx512vbmi2") && has!("avx512bitalg");
            if avx2 && avx512 && bits {
                out.push(Deep(deep_avx512));
            }
            if avx2 {
                out.push(Deep(deep_avx2));
            }
        }
        out.push(Deep::PORTABLE);
        out
    }
}

fn deep_portable(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    free: Bits,
) -> (u64, u64) {
    deep_levels::<{ last_rows::PORTABLE }>(plan, level, ld, rd, cols, free)
}

/// The deep levels compiled for a processor with `$features`, which include BMI2.
macro_rules! deep_for_features {
    ($name:ident, $kind:expr, $features:literal) => {
        #[cfg(target_arch = "x86_64")]
        fn $name(
            plan: &Plan,
            level: usize,
            ld: Bits,
            rd: Bits,
            cols: Bits,
            free: Bits,
        ) -> (u64, u64) {
            #[target_feature(enable = $features)]
            fn inner(p: &Plan, level: usize, l: Bits, r: Bits, c: Bits, f: Bits) -> (u64, u64) {
                deep_levels::<{ $kind }>(p, level, l, r, c, f)
            }
            // SAFETY: offered by `Deep::available` only where the features are present.
            unsafe { inner(plan, level, ld, rd, cols, free) }
        }
    };
}

deep_for_features!(deep_avx2, last_rows::BMI2, "popcnt,bmi1,bmi2,avx2");
deep_for_features!(
    deep_avx512,
    last_rows::AVX512,
    "popcnt,bmi1,bmi2,avx2,avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx512vbmi2,avx512bitalg"
);

/// Four levels left: each queen of this level hands the last three to [`last_three`].
#[inline(always)]
fn deep_4<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    mut free: Bits,
) -> (u64, u64) {
    let s = plan.shift[level];
    let b = &plan.blocked;
    let tail = [b[level + 1], b[level + 2], b[level + 3]];
    let tail_shift = [plan.shift[level + 1], plan.shift[level + 2]];
    let mut count = 0;
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        count += last_three(
            (ld | bit) << s,
            (rd | bit) >> s,
            cols | bit,
            tail,
            tail_shift,
        );
    }
    (count, nodes)
}

/// Five or more levels left: a child is entered only if its row and the next are not full
/// already (the look-ahead ignores the child's own queen, so it never cuts a solution).
macro_rules! deep_level {
    ($name:ident, $child:ident) => {
        #[inline(always)]
        fn $name<const KIND: u8>(
            plan: &Plan,
            level: usize,
            ld: Bits,
            rd: Bits,
            cols: Bits,
            mut free: Bits,
        ) -> (u64, u64) {
            let s = plan.shift[level];
            let next = plan.blocked[level + 1];
            let after = plan.blocked[level + 2];
            let s1 = plan.shift[level + 1];
            let mut count = 0;
            let mut nodes = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                nodes += 1;
                let nl = (ld | bit) << s;
                let nr = (rd | bit) >> s;
                let nc = cols | bit;
                let nf = !(nl | nr | nc | next);
                let f2 = !((nl << s1) | (nr >> s1) | nc | after);
                if (nf != 0) & (f2 != 0) {
                    let (c, k) = $child::<KIND>(plan, level + 1, nl, nr, nc, nf);
                    count += c;
                    nodes += k;
                }
            }
            (count, nodes)
        }
    };
}

deep_level!(deep_5, deep_4);
deep_level!(deep_6, deep_5);

deep_level!(deep_7_searched, deep_6);

/// Seven levels left: each queen of this level leaves `last_rows::ROWS` levels, counted at
/// once by [`last_rows`] where the plan has their spacing. A child is counted only if its
/// row and the next are not full already, as in [`deep_level`].
#[inline(always)]
fn deep_7<const KIND: u8>(
    plan: &Plan,
    level: usize,
    ld: Bits,
    rd: Bits,
    cols: Bits,
    mut free: Bits,
) -> (u64, u64) {
    let Some(tail) = &plan.tail else {
        return deep_7_searched::<KIND>(plan, level, ld, rd, cols, free);
    };
    let s = plan.shift[level];
    let next = plan.blocked[level + 1];
    let mut lanes = last_rows::Lanes::default();
    let mut nodes = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        nodes += 1;
        let nl = (ld | bit) << s;
        let nr = (rd | bit) >> s;
        let nc = cols | bit;
        let nf = !(nl | nr | nc | next);
        let f2 = !((nl << tail.reach[1]) | (nr >> tail.reach[1]) | nc | tail.blocked[1]);
        if (nf != 0) & (f2 != 0) {
            let f = plan.columns & !nc;
            #[cfg(target_arch = "x86_64")]
            if KIND == last_rows::AVX512 {
                last_rows::add_wide(tail.spacing, f, nl, nr, &tail.wide, &mut lanes);
                continue;
            }
            let open = std::array::from_fn(|j| match j {
                0 => nf & f,
                _ => !((nl << tail.reach[j]) | (nr >> tail.reach[j]) | tail.blocked[j]) & f,
            });
            last_rows::add::<KIND>(tail.spacing, f, open, &mut lanes);
        }
    }
    (lanes.total(), nodes)
}
deep_level!(deep_8, deep_7);
deep_level!(deep_9, deep_8);
deep_level!(deep_10, deep_9);
deep_level!(deep_11, deep_10);

/// Completions of the last two levels, without branches: only two columns are left, so the
/// first has at most two candidates and each decides the other's square. Most leaves of the
/// search are here, where a mispredicted loop exit would cost more than the arithmetic.
#[inline(always)]
pub(super) fn last_two(ld: Bits, rd: Bits, cols: Bits, blocked: [Bits; 2], shift: u32) -> u64 {
    let free = !(ld | rd | cols | blocked[0]);
    let p = free & free.wrapping_neg();
    let q = free ^ p;
    let fits = |bit: Bits| {
        let last = !(((ld | bit) << shift) | ((rd | bit) >> shift) | cols | bit | blocked[1]);
        ((bit != 0) & (last != 0)) as u64
    };
    fits(p) + fits(q)
}

/// Completions of the last three levels: at most three candidates in the first, each handed
/// to [`last_two`]; an absent candidate (bit 0) counts nothing.
#[inline(always)]
pub(super) fn last_three(
    ld: Bits,
    rd: Bits,
    cols: Bits,
    blocked: [Bits; 3],
    shift: [u32; 2],
) -> u64 {
    let free = !(ld | rd | cols | blocked[0]);
    let p0 = free & free.wrapping_neg();
    let rest = free ^ p0;
    let p1 = rest & rest.wrapping_neg();
    let p2 = rest ^ p1;
    let s = shift[0];
    let tail = [blocked[1], blocked[2]];
    let sub = |bit: Bits| {
        let c = last_two((ld | bit) << s, (rd | bit) >> s, cols | bit, tail, shift[1]);
        c * (bit != 0) as u64
    };
    sub(p0) + sub(p1) + sub(p2)
}
