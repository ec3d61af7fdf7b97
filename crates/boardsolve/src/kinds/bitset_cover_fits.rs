//! Which options of a chunk (64 at most) hold no covered item: bit `j` of the answer is
//! set where option `j` fits. The test runs without a branch per option: whether an option
//! clashes is as good as random, and a mispredicted branch costs more than the test.

/// Any processor.
#[inline(always)]
pub fn portable<const W: usize>(chunk: &[[u64; W]], covered: &[u64; W]) -> u64 {
    let mut fit = 0u64;
    for (j, o) in chunk.iter().enumerate() {
        let mut clash = 0;
        for w in 0..W {
            clash |= o[w] & covered[w];
        }
        fit |= u64::from(clash == 0) << j;
    }
    fit
}

/// Whether [`avx2`] can run here.
#[cfg(target_arch = "x86_64")]
pub fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("popcnt")
}

/// Four options of one or two words at a time: their clashes compared with zero in one
/// instruction and gathered into bits by one more. Wider options go through [`portable`],
/// which the compiler vectorizes for AVX2 here too.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn avx2<const W: usize>(chunk: &[[u64; W]], covered: &[u64; W]) -> u64 {
    use core::arch::x86_64::*;
    let n = chunk.len();
    let zero = _mm256_setzero_si256();
    let mut fit = 0u64;
    let mut j = 0;
    if W == 1 {
        let c = _mm256_set1_epi64x(covered[0] as i64);
        while j + 4 <= n {
            // SAFETY: options j..j + 4 are in the chunk, one word each.
            let o = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(j).cast()) };
            let free = _mm256_cmpeq_epi64(_mm256_and_si256(o, c), zero);
            fit |= (_mm256_movemask_pd(_mm256_castsi256_pd(free)) as u64) << j;
            j += 4;
        }
    } else if W == 2 {
        let (c0, c1) = (covered[0] as i64, covered[1 % W] as i64);
        let c = _mm256_setr_epi64x(c0, c1, c0, c1);
        while j + 4 <= n {
            // SAFETY: options j..j + 4 are in the chunk, two words each: two vectors.
            let (a, b) = unsafe {
                let at: *const __m256i = chunk.as_ptr().add(j).cast();
                (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1)))
            };
            let (a, b) = (_mm256_and_si256(a, c), _mm256_and_si256(b, c));
            // Lanes: options 0, 2, 1, 3, each its two words' clashes or-ed together.
            let clash = _mm256_or_si256(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
            let free = _mm256_cmpeq_epi64(clash, zero);
            let m = _mm256_movemask_pd(_mm256_castsi256_pd(free)) as u64;
            fit |= ((m & 0b1001) | ((m & 0b10) << 1) | ((m & 0b100) >> 1)) << j;
            j += 4;
        }
    }
    fit | (portable::<W>(&chunk[j..], covered) << j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    /// Sparse random words, so that options fit as often as they clash.
    fn sparse(rng: &mut Rng) -> u64 {
        (0..3).fold(0, |x, _| x | 1 << rng.below(64))
    }

    fn agree<const W: usize>(rng: &mut Rng) {
        for n in 0..=64 {
            let chunk: Vec<[u64; W]> = (0..n)
                .map(|_| std::array::from_fn(|_| sparse(rng)))
                .collect();
            let covered: [u64; W] = std::array::from_fn(|_| sparse(rng) | sparse(rng));
            let want: u64 = (0..n)
                .filter(|&j| (0..W).all(|w| chunk[j][w] & covered[w] == 0))
                .map(|j| 1 << j)
                .sum();
            assert_eq!(portable(&chunk, &covered), want);
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the processor has AVX2.
                assert_eq!(
                    unsafe { avx2(&chunk, &covered) },
                    want,
                    "{n} options of {W} words"
                );
            }
        }
    }

    #[test]
    fn every_kernel_finds_the_options_that_fit() {
        let mut rng = Rng(7);
        for _ in 0..20 {
            agree::<1>(&mut rng);
            agree::<2>(&mut rng);
            agree::<4>(&mut rng);
            agree::<8>(&mut rng);
        }
    }
}
