//! The Lagrangian steps of `lagrange` on a padded grid, for leapers.
//!
//! Where what a piece covers is the same set of offsets from every square (a leaper: knights,
//! kings, camels; holes and edges only cut the set short), a square's reduced cost is a
//! stencil over the multipliers, `rc = 1 - sum over offsets d of lambda[s + d]`, and so is
//! the count of chosen squares covering each square. On a grid padded by the piece's reach,
//! with zero multipliers off the board, both are a few passes of contiguous subtractions and
//! additions over whole rows: no gathers, no branches, and the compiler vectorises them
//! (with AVX2 where the processor has it; the loops are the same, and so are the bits).
//!
//! The steps run in f32, twice the lanes of f64: any multipliers give a valid bound, so only
//! the bound that prunes must be exact. It is taken in f64 at the same multipliers (the f32
//! values widened) wherever the f32 one comes within `CHECK` of pruning, at each new best at
//! the root, and at the end of a node's steps, whose reduced costs fix squares.

use super::model::Model;
use std::ops::{Add, AddAssign, Mul, Sub};

/// The farthest reach (in rows or columns) for which the padding stays cheap.
const MAX_PAD: usize = 3;

/// The numbers of a layer: f32 for the steps (eight lanes to a 256-bit register), f64 for
/// the bound that counts.
pub trait Real:
    Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + AddAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn wide(self) -> f64;
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    fn wide(self) -> f64 {
        f64::from(self)
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn wide(self) -> f64 {
        self
    }
}

/// The grid's arrays in one precision.
struct Layer<F> {
    lam: Vec<F>,
    rc: Vec<F>,
    /// 1 where the square is allowed and its reduced cost negative (the relaxation takes
    /// it); after `gradient`, the subgradient.
    neg: Vec<F>,
    taken: Vec<F>,
    /// 1 on uncovered squares, on allowed squares.
    unc: Vec<F>,
    alw: Vec<F>,
}

impl<F: Real> Layer<F> {
    fn new(size: usize) -> Layer<F> {
        let v = || vec![F::ZERO; size];
        Layer {
            lam: v(),
            rc: v(),
            neg: v(),
            taken: v(),
            unc: v(),
            alw: v(),
        }
    }

    /// L at the layer's multipliers; fills `rc`, `neg` and `taken`. `c` and `u`: the
    /// entries of the coverers' rows and of the uncovered squares' rows.
    #[inline(always)]
    fn eval(&mut self, offs: &[isize], c: (usize, usize), u: (usize, usize)) -> f64 {
        let rc = &mut self.rc[c.0..c.1];
        sum_shifted(rc, &self.lam, c.0, offs, 1);
        for r in rc.iter_mut() {
            *r = F::ONE - *r;
        }
        // L: the multipliers, and the negative reduced costs of allowed squares.
        let alw = &self.alw[c.0..c.1];
        let neg = &mut self.neg[c.0..c.1];
        for ((n, &r), &a) in neg.iter_mut().zip(rc.iter()).zip(alw) {
            *n = if r < F::ZERO { a } else { F::ZERO };
        }
        let chosen = dot(rc, neg);
        let lam = &self.lam[u.0..u.1];
        let total = dot(lam, &self.unc[u.0..u.1]);
        // How many chosen squares cover each uncovered one (the offsets reversed).
        sum_shifted(&mut self.taken[u.0..u.1], &self.neg, u.0, offs, -1);
        total.wide() + chosen.wide()
    }

    /// The subgradient's squared norm; its entries replace `taken`.
    #[inline(always)]
    fn gradient(&mut self, u: (usize, usize)) -> f64 {
        // The subgradient takes the place of the counts it comes from.
        let g = &mut self.taken[u.0..u.1];
        let (unc, lam) = (&self.unc[u.0..u.1], &self.lam[u.0..u.1]);
        for ((g, &u), &l) in g.iter_mut().zip(unc).zip(lam) {
            let x = u * (F::ONE - *g);
            // A square covered more than once pushes its multiplier down, not below 0.
            *g = if x < F::ZERO && l <= F::ZERO {
                F::ZERO
            } else {
                x
            };
        }
        dot(g, g).wide()
    }
}

/// The 8 lanes' sum, in the order `dot` adds them.
#[inline(always)]
fn lanes<F: Real>(acc: [F; 8]) -> F {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// Sum of products in 8 running sums (lanes the compiler can keep in one or two registers;
/// the order of the additions is fixed, whatever the instruction set).
#[inline(always)]
fn dot<F: Real>(a: &[F], b: &[F]) -> F {
    let mut acc = [F::ZERO; 8];
    let mut a8 = a.chunks_exact(8);
    let mut b8 = b.chunks_exact(8);
    for (x, y) in (&mut a8).zip(&mut b8) {
        let (x, y): (&[F; 8], &[F; 8]) = (x.try_into().unwrap(), y.try_into().unwrap());
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    for (&x, &y) in a8.remainder().iter().zip(b8.remainder()) {
        acc[0] += x * y;
    }
    lanes(acc)
}

pub struct Grid {
    /// Padded width; the board's square (r, c) sits at `pad + (r + pad) * pw + c + pad` (the
    /// first `pad` entries keep the stencil of row 0's first padding columns in bounds).
    pw: usize,
    pad: usize,
    width: usize,
    height: usize,
    /// The covered squares' offsets from the covering one, in the padded grid.
    offs: Vec<isize>,
    /// The steps run on `fast`; `exact` evaluates its multipliers (widened) for the bound and
    /// the reduced costs that prune and fix.
    fast: Layer<f32>,
    exact: Layer<f64>,
    /// The padded rows that hold uncovered squares, and those that hold their coverers.
    urows: (usize, usize),
    crows: (usize, usize),
    /// The subgradient's squared norm, where the last `eval` computed it (fused, below).
    norm: Option<f64>,
    avx2: bool,
}

impl Grid {
    /// `None` unless the piece covers the same offsets from every square.
    pub fn new(m: &Model) -> Option<Grid> {
        let b = &m.board;
        let (width, height) = (b.width, b.height);
        let mut offs = std::collections::BTreeSet::new();
        for &s in &m.cells {
            let (r, c) = b.row_col(s);
            for t in crate::util::ones(m.cover.row(s)) {
                let (rt, ct) = b.row_col(t);
                offs.insert((rt as isize - r as isize, ct as isize - c as isize));
            }
        }
        let pad = offs
            .iter()
            .map(|&(dr, dc)| dr.unsigned_abs().max(dc.unsigned_abs()))
            .max()
            .unwrap_or(0);
        if pad > MAX_PAD {
            return None;
        }
        // Every square must cover exactly the offsets that land on a square of the board.
        for &s in &m.cells {
            let (r, c) = b.row_col(s);
            let mut want = 0;
            for &(dr, dc) in &offs {
                let (rt, ct) = (r as isize + dr, c as isize + dc);
                if rt < 0 || ct < 0 || rt >= height as isize || ct >= width as isize {
                    continue;
                }
                let t = b.index(rt as usize, ct as usize);
                if b.is_hole(t) {
                    continue;
                }
                if !m.cover.get(s, t) {
                    return None;
                }
                want += 1;
            }
            if m.cover.row_count(s) != want {
                return None;
            }
        }
        let pw = width + 2 * pad;
        let size = (height + 2 * pad) * pw + 2 * pad;
        let offs = offs.iter().map(|&(dr, dc)| dr * pw as isize + dc).collect();
        Some(Grid {
            pw,
            pad,
            width,
            height,
            offs,
            fast: Layer::new(size),
            exact: Layer::new(size),
            urows: (0, 0),
            crows: (0, 0),
            norm: None,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        })
    }

    /// Loads a node: its uncovered and allowed squares and its multipliers (by square;
    /// rounded to f32 for the steps, and exact from there on).
    pub fn load(&mut self, unc: &[u64], alw: &[u64], lam: &[f64]) {
        self.norm = None;
        let bit = |set: &[u64], s: usize| set[s >> 6] >> (s & 63) & 1;
        let (mut top, mut bottom) = (usize::MAX, 0);
        let width = self.width;
        // Row by row: a square's row is contiguous in the grid (this runs at every node).
        for r in 0..self.height {
            let (s0, p0) = (r * width, self.row_start(r));
            let fu = &mut self.fast.unc[p0..p0 + width];
            let fa = &mut self.fast.alw[p0..p0 + width];
            let eu = &mut self.exact.unc[p0..p0 + width];
            let ea = &mut self.exact.alw[p0..p0 + width];
            let fl = &mut self.fast.lam[p0..p0 + width];
            let mut any = 0;
            for c in 0..width {
                let s = s0 + c;
                let (u, a) = (bit(unc, s), bit(alw, s));
                any |= u;
                fu[c] = u as f32;
                fa[c] = a as f32;
                eu[c] = u as f64;
                ea[c] = a as f64;
                fl[c] = if u != 0 { lam[s] as f32 } else { 0.0 };
            }
            if any != 0 {
                top = top.min(r);
                bottom = r;
            }
        }
        if top == usize::MAX {
            self.urows = (0, 0);
            self.crows = (0, 0);
            return;
        }
        // Coverers of the uncovered rows lie within `pad` rows of them.
        let ctop = top.saturating_sub(self.pad);
        let cbottom = (bottom + self.pad).min(self.height - 1);
        self.urows = (top + self.pad, bottom + self.pad + 1);
        self.crows = (ctop + self.pad, cbottom + self.pad + 1);
    }

    /// Hands back, by square, the multipliers and the reduced costs of the last `exact`
    /// (`rc` for every square the rows of coverers hold; 1 elsewhere: a piece there covers
    /// nothing uncovered).
    pub fn store(&self, lam: &mut [f64], rc: &mut [f64]) {
        let width = self.width;
        for r in 0..self.height {
            let (s0, p0) = (r * width, self.row_start(r));
            let unc = &self.exact.unc[p0..p0 + width];
            let el = &self.exact.lam[p0..p0 + width];
            let lam = &mut lam[s0..s0 + width];
            for c in 0..width {
                if unc[c] != 0.0 {
                    lam[c] = el[c];
                }
            }
            let rc = &mut rc[s0..s0 + width];
            if (self.crows.0..self.crows.1).contains(&(r + self.pad)) {
                rc.copy_from_slice(&self.exact.rc[p0..p0 + width]);
            } else {
                rc.fill(1.0);
            }
        }
    }

    /// Where the board's row `r` starts in the grid (its squares follow it in order).
    fn row_start(&self, r: usize) -> usize {
        self.pad + (r + self.pad) * self.pw + self.pad
    }

    /// The grid's entries of a range of padded rows.
    fn span(&self, rows: (usize, usize)) -> (usize, usize) {
        (self.pad + rows.0 * self.pw, self.pad + rows.1 * self.pw)
    }

    /// L at the step multipliers, in f32: near the exact value (within about 1e-5 on a
    /// 20x20 board), for the steps' schedule only.
    pub fn eval(&mut self) -> f64 {
        self.norm = None;
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            if self.offs.len() == 9 && self.urows != (0, 0) {
                // SAFETY: the processor has AVX2 (`Grid::new` asked it).
                return unsafe { self.eval_fused_avx2() };
            }
            // SAFETY: as above.
            return unsafe { self.eval_avx2(false) };
        }
        self.eval_portable(false)
    }

    /// L exactly (f64) at the step multipliers; `store` hands out these multipliers and
    /// their reduced costs.
    pub fn exact(&mut self) -> f64 {
        // All of it: the stencil reads the rows beside the uncovered ones too.
        for (w, &x) in self.exact.lam.iter_mut().zip(&self.fast.lam) {
            *w = f64::from(x);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: as in `eval`.
            return unsafe { self.eval_avx2(true) };
        }
        self.eval_portable(true)
    }

    /// The subgradient's squared norm at the last `eval`.
    pub fn gradient(&mut self) -> f64 {
        if let Some(norm) = self.norm.take() {
            return norm;
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: as in `eval`.
            return unsafe { self.gradient_avx2() };
        }
        self.gradient_portable()
    }

    // The same loops compiled for AVX2 (eight lanes of f32, four of f64, against SSE2's four
    // and two): the passes above are most of a node's time. The operations and their order
    // are the same, and so are the results, bit for bit, on any machine.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn eval_avx2(&mut self, exact: bool) -> f64 {
        self.eval_portable(exact)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn gradient_avx2(&mut self) -> f64 {
        self.gradient_portable()
    }

    /// `eval` and `gradient` in two passes of AVX2 instructions, for 9 offsets (knights,
    /// kings): the portable loops' operations in the same order, lane by lane (the tails
    /// in lane 0), so the same bits; a pass fewer over each range, and no stores and loads
    /// between the stencil, the choice and the sums.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn eval_fused_avx2(&mut self) -> f64 {
        use std::arch::x86_64::*;
        let (c0, c1) = self.span(self.crows);
        let (u0, u1) = self.span(self.urows);
        let offs: [isize; 9] = self.offs[..].try_into().expect("9 offsets");
        let f = &mut self.fast;
        let size = f.lam.len();
        // Every read below is at a padded position plus or minus an offset, which the
        // padding keeps inside the arrays; checked once here for the whole ranges.
        let reach = offs.iter().map(|d| d.unsigned_abs()).max().unwrap_or(0);
        assert!(c0 >= reach && c1 + reach <= size && u0 >= reach && u1 + reach <= size);
        let (lam, alw, unc) = (f.lam.as_ptr(), f.alw.as_ptr(), f.unc.as_ptr());
        let (rc, neg, taken) = (f.rc.as_mut_ptr(), f.neg.as_mut_ptr(), f.taken.as_mut_ptr());
        let lanes_of = |v: __m256| {
            let mut a = [0f32; 8];
            // SAFETY: `a` holds 8 floats.
            unsafe { _mm256_storeu_ps(a.as_mut_ptr(), v) };
            a
        };
        // SAFETY: the reads and writes stay within the arrays (the assert above), and the
        // processor has AVX2.
        unsafe {
            let (one, zero) = (_mm256_set1_ps(1.0), _mm256_setzero_ps());
            let mut chosen = zero;
            let full = c0 + (c1 - c0) / 8 * 8;
            let mut p = c0;
            while p < full {
                let mut a = zero;
                for &d in &offs {
                    a = _mm256_add_ps(a, _mm256_loadu_ps(lam.offset(p as isize + d)));
                }
                let r = _mm256_sub_ps(one, a);
                let n = _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_LT_OQ>(r, zero),
                    _mm256_loadu_ps(alw.add(p)),
                );
                _mm256_storeu_ps(rc.add(p), r);
                _mm256_storeu_ps(neg.add(p), n);
                chosen = _mm256_add_ps(chosen, _mm256_mul_ps(r, n));
                p += 8;
            }
            let mut ch = lanes_of(chosen);
            for p in full..c1 {
                let mut a = 0.0f32;
                for &d in &offs {
                    a += *lam.offset(p as isize + d);
                }
                let r = 1.0 - a;
                let n = if r < 0.0 { *alw.add(p) } else { 0.0 };
                *rc.add(p) = r;
                *neg.add(p) = n;
                ch[0] += r * n;
            }
            let (mut total, mut norm) = (zero, zero);
            let full = u0 + (u1 - u0) / 8 * 8;
            let mut p = u0;
            while p < full {
                let mut t = zero;
                for &d in &offs {
                    t = _mm256_add_ps(t, _mm256_loadu_ps(neg.offset(p as isize - d)));
                }
                let (un, l) = (_mm256_loadu_ps(unc.add(p)), _mm256_loadu_ps(lam.add(p)));
                total = _mm256_add_ps(total, _mm256_mul_ps(l, un));
                let x = _mm256_mul_ps(un, _mm256_sub_ps(one, t));
                let kill = _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_LT_OQ>(x, zero),
                    _mm256_cmp_ps::<_CMP_LE_OQ>(l, zero),
                );
                let g = _mm256_andnot_ps(kill, x);
                _mm256_storeu_ps(taken.add(p), g);
                norm = _mm256_add_ps(norm, _mm256_mul_ps(g, g));
                p += 8;
            }
            let (mut tot, mut nm) = (lanes_of(total), lanes_of(norm));
            for p in full..u1 {
                let mut t = 0.0f32;
                for &d in &offs {
                    t += *neg.offset(p as isize - d);
                }
                let (un, l) = (*unc.add(p), *lam.add(p));
                tot[0] += l * un;
                let x = un * (1.0 - t);
                let g = if x < 0.0 && l <= 0.0 { 0.0 } else { x };
                *taken.add(p) = g;
                nm[0] += g * g;
            }
            self.norm = Some(lanes(nm).wide());
            lanes(tot).wide() + lanes(ch).wide()
        }
    }

    #[inline(always)]
    fn eval_portable(&mut self, exact: bool) -> f64 {
        if self.urows == (0, 0) {
            return 0.0;
        }
        let (c, u) = (self.span(self.crows), self.span(self.urows));
        if exact {
            self.exact.eval(&self.offs, c, u)
        } else {
            self.fast.eval(&self.offs, c, u)
        }
    }

    #[inline(always)]
    fn gradient_portable(&mut self) -> f64 {
        let u = self.span(self.urows);
        self.fast.gradient(u)
    }

    /// Moves the step multipliers by `t` times the subgradient `gradient` left.
    pub fn step(&mut self, t: f64) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: as in `eval`.
            return unsafe { self.step_avx2(t) };
        }
        self.step_portable(t)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn step_avx2(&mut self, t: f64) {
        self.step_portable(t)
    }

    #[inline(always)]
    fn step_portable(&mut self, t: f64) {
        let (lo, hi) = self.span(self.urows);
        let t = t as f32;
        let g = &self.fast.taken[lo..hi];
        for (l, &x) in self.fast.lam[lo..hi].iter_mut().zip(g) {
            *l = (*l + t * x).max(0.0);
        }
    }
}

/// `dst[i] = sum over offsets d of src[from + i + sign * d]`, in one pass (a pass an offset
/// would load and store `dst` once each). Knights and kings have 9 offsets, and get a loop
/// of fixed length the compiler vectorises.
#[inline(always)]
fn sum_shifted<F: Real>(dst: &mut [F], src: &[F], from: usize, offs: &[isize], sign: isize) {
    let at = |d: isize| (from as isize + sign * d) as usize;
    if let Ok(offs) = <&[isize; 9]>::try_from(offs) {
        let srcs: [&[F]; 9] = std::array::from_fn(|k| &src[at(offs[k])..at(offs[k]) + dst.len()]);
        for (i, x) in dst.iter_mut().enumerate() {
            let mut a = F::ZERO;
            for s in &srcs {
                a += s[i];
            }
            *x = a;
        }
    } else {
        for x in dst.iter_mut() {
            *x = F::ZERO;
        }
        for &d in offs {
            let s = &src[at(d)..at(d) + dst.len()];
            for (x, &y) in dst.iter_mut().zip(s) {
                *x += y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    /// The portable loops and the AVX2 ones give the same bits (where the processor has
    /// AVX2; elsewhere both runs take the portable loops).
    #[test]
    fn portable_and_avx2_loops_agree_bit_for_bit() {
        let m = Model::for_test("N", 13, 11, &[5, 77]);
        let n = m.board.squares();
        let mut rng = Rng(0x0a7e_5eed_1234_5678);
        let (mut fast, mut plain) = (Grid::new(&m).unwrap(), Grid::new(&m).unwrap());
        plain.avx2 = false;
        for trial in 0..30 {
            let mut unc = m.all.clone();
            for _ in 0..trial % 6 * 3 {
                let s = m.cells[rng.below(m.cells.len())];
                for (u, cv) in unc.iter_mut().zip(m.cover.row(s)) {
                    *u &= !cv;
                }
            }
            let mut lam = vec![0.0; n + 1];
            for t in crate::util::ones(&unc) {
                lam[t] = rng.below(1000) as f64 / 3000.0;
            }
            fast.load(&unc, &m.all, &lam);
            plain.load(&unc, &m.all, &lam);
            for _ in 0..5 {
                let (a, b) = (fast.eval(), plain.eval());
                assert_eq!(a.to_bits(), b.to_bits(), "trial {trial}: {a} {b}");
                let (a, b) = (fast.exact(), plain.exact());
                assert_eq!(a.to_bits(), b.to_bits(), "trial {trial}: exact {a} {b}");
                let (a, b) = (fast.gradient(), plain.gradient());
                assert_eq!(a.to_bits(), b.to_bits(), "trial {trial}: norm {a} {b}");
                fast.step(0.3 / a.max(1.0));
                plain.step(0.3 / b.max(1.0));
            }
            let (mut la, mut lb) = (lam.clone(), lam.clone());
            let (mut ra, mut rb) = (vec![0.0; n], vec![0.0; n]);
            fast.store(&mut la, &mut ra);
            plain.store(&mut lb, &mut rb);
            assert!(la.iter().zip(&lb).all(|(x, y)| x.to_bits() == y.to_bits()));
            assert!(ra.iter().zip(&rb).all(|(x, y)| x.to_bits() == y.to_bits()));
        }
    }

    #[test]
    fn riders_keep_the_lists() {
        assert!(Grid::new(&Model::for_test("Q", 8, 8, &[])).is_none());
        assert!(Grid::new(&Model::for_test("R", 6, 5, &[])).is_none());
        // Beyond the padding the grid is cheap for: reach 4.
        assert!(Grid::new(&Model::for_test("W4", 12, 12, &[])).is_none());
        // A short rider that holes block covers other offsets beside a hole.
        assert!(Grid::new(&Model::for_test("W2", 6, 6, &[14])).is_none());
        assert!(Grid::new(&Model::for_test("W2", 6, 6, &[])).is_some());
    }
}
