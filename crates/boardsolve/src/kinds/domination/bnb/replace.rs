//! Replaceability: the pruning rules of `bnb` that drop a node, or exclude a candidate,
//! because every placement below it has a twin as small or smaller that the search meets in
//! an earlier branch (or that is smaller outright), so a minimum placement is never lost.
//!
//! The branches of a node split its placements: the j-th places the j-th candidate and
//! excludes the j-1 before it (the node's "excluded siblings", kept per depth with those of
//! the ancestors). If a placed piece can be swapped for an excluded sibling e of its own
//! node or of one above (e covers everything only that piece covered), then every cover
//! below has a twin with e instead, no larger, in e's branch, which came first. The rules:
//!
//! - dominated siblings (plain minimize): a candidate all of whose uncovered squares an
//!   earlier sibling covers is not a branch of its own;
//! - replaceable pieces (plain minimize): a placed piece whose private squares (covered by
//!   no other piece) an excluded sibling covers drops the node, and a candidate that would
//!   leave a piece so replaceable is excluded where that takes covering only a few squares
//!   (`bnb.forbid_upto`);
//! - replaceable pairs (plain minimize): two placed pieces whose private squares an excluded
//!   sibling e and one more square f cover together;
//! - swap demands (independent minimize): there the twin must also attack no other piece,
//!   so instead of pruning, the rule asks that some piece in conflict with e be placed, which
//!   for leapers is e uncovered again; and where two or more placed pieces give way to one
//!   square together, the twin is smaller outright, so the same demand holds with no branch
//!   order needed.

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::super::model::Model;
use super::stack::{NO_ORIGIN, Stack};
use crate::engine::Run;

/// The rules' scratch (bitsets of one row: no allocation per node) and what they counted.
pub struct Replace {
    lack: Vec<u64>,
    forbid: Vec<u64>,
    mine: Vec<u64>,
    near: Vec<u64>,
    scratch: Vec<u64>,
    /// The placed pieces, as a bitset.
    pub pset: Vec<u64>,
    /// `pair_replaceable`'s scratch: whether each placed piece is the newest or covers a
    /// square it covers; and each square's row and column (no division per pair).
    fresh_pair: Vec<bool>,
    square_rc: Vec<(isize, isize)>,
    /// How far apart (rows or columns) two pieces may stand for `pair_replaceable` to
    /// look at them; 0 turns it off (riders).
    pub pair_span: usize,
    /// `bnb.forbid_upto`.
    forbid_upto: u32,
    /// Times candidates were excluded as would-be replacers.
    excluded: u64,
    /// Branches skipped as dominated by an earlier sibling.
    pub dominated: u64,
}

impl Replace {
    pub fn new(m: &Model, depth: usize) -> Replace {
        let (n, w) = (m.board.squares(), m.words);
        Replace {
            lack: vec![0; w],
            forbid: vec![0; w],
            mine: vec![0; w],
            near: vec![0; w],
            scratch: vec![0; w],
            pset: vec![0; w],
            fresh_pair: Vec::with_capacity(depth),
            square_rc: (0..n)
                .map(|t| {
                    let (r, c) = m.board.row_col(t);
                    (r as isize, c as isize)
                })
                .collect(),
            pair_span: pair_span(m),
            forbid_upto: m.tuning.bnb.forbid_upto,
            excluded: 0,
            dominated: 0,
        }
    }

    /// The counts of the rules that count here, added to the run's statistics and cleared.
    pub fn flush(&mut self, run: &mut Run) {
        for (name, v) in [
            ("dominated siblings", &mut self.dominated),
            ("excluded replacers", &mut self.excluded),
        ] {
            if *v > 0 {
                run.stats.add_counter(name, *v);
                *v = 0;
            }
        }
    }

    /// Dominance (plain minimize): whether an earlier sibling covers every uncovered square
    /// candidate c covers at the node at `depth`. It can then replace c in any placement
    /// below c's branch, and that placement lies in the sibling's branch, so c's adds
    /// nothing.
    pub fn dominated(m: &Model, st: &Stack, depth: usize, c: usize, earlier: &[usize]) -> bool {
        let (w, uo) = (st.w, depth * st.w);
        let row = m.cover.row(c);
        earlier.iter().any(|&e| {
            let other = m.cover.row(e);
            (0..w).all(|i| row[i] & st.uncovered[uo + i] & !other[i] == 0)
        })
    }

    /// Under independence (minimize): a placed piece a whose private squares (those no other
    /// placed piece covers, a's own among them) a candidate e excluded as an earlier sibling
    /// at a's node or above covers. Every placement P below with no piece but a in conflict
    /// with e has a twin as small, P less a plus e, independent and in e's branch, which comes
    /// first; so the search needs only placements with another piece in conflict with e. Where
    /// those are the pieces that would cover e (attacks both ways, as for leapers), that is
    /// e uncovered again: the square goes back into the node's uncovered set, and the bound
    /// and the branching see it. (Where another placed piece is in conflict with e already,
    /// e asks nothing of this rule; `gives_way` looks at those squares.) `true` when the
    /// node can be dropped: a square asked for has no allowed square left in conflict.
    pub fn swap_demands(&mut self, m: &Model, st: &mut Stack, depth: usize, run: &mut Run) -> bool {
        let w = st.w;
        let uo = depth * w;
        self.pset.fill(0);
        for &p in &st.placed {
            self.pset[p >> 6] |= 1u64 << (p & 63);
        }
        for i in 0..st.placed.len() {
            let da = st.origin[i];
            if da == NO_ORIGIN || !self.private_squares(m, st, depth, i) {
                continue;
            }
            let a = st.placed[i];
            covering_all(m, &self.mine, &mut self.near);
            let so = da as usize * w;
            for y in 0..w {
                let mut word = self.near[y] & st.sibx[so + y];
                while word != 0 {
                    let e = y * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let conflict = m.conflict.row(e);
                    let abit = |x: usize| if x == a >> 6 { 1u64 << (a & 63) } else { 0 };
                    if (0..w).any(|x| conflict[x] & self.pset[x] & !abit(x) != 0) {
                        continue;
                    }
                    if Self::demand(m, st, uo, e, run, ["swapped pieces", "swap demands"]) {
                        return true;
                    }
                }
            }
        }
        // Two or more pieces giving way to one square at once: no sibling needed, as the
        // twin is smaller (see `gives_way`). The squares two placed pieces cover, not yet
        // asked for.
        for y in 0..w {
            let mut word = st.twice[uo + y] & !self.pset[y] & !st.uncovered[uo + y];
            while word != 0 {
                let e = y * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if !self.gives_way(m, st, uo, e) {
                    continue;
                }
                if Self::demand(m, st, uo, e, run, ["swapped groups", "group demands"]) {
                    return true;
                }
            }
        }
        false
    }

    /// Asks at the node at `uo` for square e to be covered by a piece in conflict with it (see
    /// `swap_demands`), counting under `names` a node dropped and a square asked for. Only
    /// where those pieces are exactly the ones that would cover e (attacks both ways, as for
    /// leapers) is that the same as e uncovered again; elsewhere the demand is left, as the
    /// bound cannot see it. `true` when the node can be dropped: no allowed square is in
    /// conflict with e.
    fn demand(
        m: &Model,
        st: &mut Stack,
        uo: usize,
        e: usize,
        run: &mut Run,
        names: [&'static str; 2],
    ) -> bool {
        let w = st.w;
        let (conflict, cov) = (m.conflict.row(e), m.coverers.row(e));
        if (0..w).any(|x| (cov[x] ^ conflict[x]) & st.allowed[uo + x] != 0) {
            return false;
        }
        if (0..w).all(|x| conflict[x] & st.allowed[uo + x] == 0) {
            run.stats.add_counter(names[0], 1);
            return true;
        }
        let (y, bit) = (uo + (e >> 6), 1u64 << (e & 63));
        if st.uncovered[y] & bit == 0 {
            run.stats.add_counter(names[1], 1);
            st.uncovered[y] |= bit;
        }
        false
    }

    /// Whether the placed pieces in conflict with square e (two or more, under
    /// independence) can give way to it together: the squares only they cover are all
    /// covered by e. A placement P below with no other piece in conflict with e is then not
    /// minimum: P less them plus e is smaller, and independent. So every minimum placement
    /// below has another piece in conflict with e; no branch order is needed for that, and
    /// the pieces may come from anywhere (corner cells too).
    pub fn gives_way(&mut self, m: &Model, st: &Stack, uo: usize, e: usize) -> bool {
        let w = st.w;
        let (conflict, cover) = (m.conflict.row(e), m.cover.row(e));
        self.lack.fill(0);
        let mut members = 0;
        for x in 0..w {
            // `near`: the pieces in conflict with e.
            self.near[x] = conflict[x] & self.pset[x];
            members += self.near[x].count_ones();
        }
        if members < 2 {
            return false;
        }
        for p in crate::util::ones(&self.near) {
            for (l, &c) in self.lack.iter_mut().zip(m.cover.row(p)) {
                *l |= c;
            }
        }
        // Their squares e does not cover: each must be covered by a piece outside them, so
        // at least twice (a quick test first).
        for x in 0..w {
            self.lack[x] &= m.all[x] & !cover[x];
            if self.lack[x] & !st.twice[uo + x] != 0 {
                return false;
            }
        }
        crate::util::ones(&self.lack).all(|q| {
            let by = m.coverers.row(q);
            (0..w).any(|x| by[x] & self.pset[x] & !self.near[x] != 0)
        })
    }

    /// Whether two placed pieces can give way together to a candidate e excluded as an
    /// earlier sibling at the shallower one's node or above, and one square f: the squares
    /// only they cover are all covered by e or f, where f is a placed piece or a square
    /// still allowed at that node. The cover with e and f for the two is no larger and lies
    /// in e's branch, which comes first (as for `replaceable`). Only pairs within
    /// `pair_span` of each other, of which one is the newest piece or covers a square it
    /// covers, are looked at (the others were at the parent).
    pub fn pair_replaceable(&mut self, m: &Model, st: &Stack, depth: usize) -> bool {
        let w = st.w;
        let uo = depth * w;
        let k = st.placed.len();
        let fresh = depth == st.base;
        let newest = *st.placed.last().expect("a piece placed");
        let span = self.pair_span as isize;
        self.pset.fill(0);
        for &p in &st.placed {
            self.pset[p >> 6] |= 1u64 << (p & 63);
        }
        let touched = |p: usize| {
            p == newest
                || m.cover
                    .row(p)
                    .iter()
                    .zip(m.cover.row(newest))
                    .any(|(a, b)| a & b != 0)
        };
        self.fresh_pair.clear();
        for i in 0..k {
            let t = fresh || touched(st.placed[i]);
            self.fresh_pair.push(t);
        }
        for a in 0..k {
            let da = st.origin[a];
            if da == NO_ORIGIN {
                continue;
            }
            let pa = st.placed[a];
            let ta = self.fresh_pair[a];
            let (ra, ca) = self.square_rc[pa];
            for b in 0..k {
                let db = st.origin[b];
                // The shallower piece's node is `a`'s (distinct pieces of a path have
                // distinct depths).
                if b == a || db == NO_ORIGIN || db < da {
                    continue;
                }
                let pb = st.placed[b];
                let (rb, cb) = self.square_rc[pb];
                if (ra - rb).abs() > span || (ca - cb).abs() > span || !(ta || self.fresh_pair[b]) {
                    continue;
                }
                // The squares only a and b cover: covered once, by one of them, or twice,
                // by both.
                let (ua, ub) = (m.cover.row(pa), m.cover.row(pb));
                for x in 0..w {
                    let covered = m.all[x] & !st.uncovered[uo + x];
                    let one = covered & !st.twice[uo + x];
                    let two = st.twice[uo + x] & !st.thrice[uo + x];
                    self.mine[x] = ((ua[x] ^ ub[x]) & one) | (ua[x] & ub[x] & two);
                }
                covering_any(m, &self.mine, &mut self.near);
                let so = da as usize * w;
                // The allowed squares of a's node, or (above a resumed subtree, whose rows
                // are not kept) of the subtree's root, which holds fewer.
                let fo = (da as usize).max(st.base) * w;
                for y in 0..w {
                    let mut word = self.near[y] & st.sibx[so + y];
                    while word != 0 {
                        let e = y * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let other = m.cover.row(e);
                        for x in 0..w {
                            self.lack[x] = self.mine[x] & !other[x];
                        }
                        covering_all(m, &self.lack, &mut self.scratch);
                        if (0..w)
                            .any(|x| self.scratch[x] & (st.allowed[fo + x] | self.pset[x]) != 0)
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a placed piece is replaceable: its private squares (those no other placed
    /// piece covers) are none, or all covered by a candidate e excluded as an earlier
    /// sibling at the node that placed it or at one above. Every cover P below then has a
    /// cover as small or smaller, P less the piece plus e (e is in no placement below), in
    /// e's branch, which comes first; so a minimum cover below is always matched by one in
    /// an earlier branch, and the node holds none the search needs. (Pieces a corner cell
    /// placed are only checked for having a private square.) Where covering a few
    /// more squares would make a piece replaceable, the candidates that cover those few are
    /// excluded from the node, for the same reason.
    pub fn replaceable(&mut self, m: &Model, st: &mut Stack, depth: usize) -> bool {
        let w = st.w;
        let uo = depth * w;
        for i in 0..st.placed.len() {
            if !self.private_squares(m, st, depth, i) {
                continue;
            }
            let count: u32 = self.mine.iter().map(|x| x.count_ones()).sum();
            if count == 0 {
                return true;
            }
            // `forbid`: the candidates that cover all its private squares (one would leave it
            // none); `near`: those that cover any.
            covering_all(m, &self.mine, &mut self.forbid);
            if count <= self.forbid_upto {
                let mut cut = 0;
                for y in 0..w {
                    cut |= st.allowed[uo + y] & self.forbid[y];
                    st.allowed[uo + y] &= !self.forbid[y];
                }
                self.excluded += u64::from(cut != 0);
            }
            let d = st.origin[i];
            if d == NO_ORIGIN {
                continue;
            }
            let so = d as usize * w;
            if (0..w).any(|y| self.forbid[y] & st.sibx[so + y] != 0) {
                return true;
            }
            covering_any(m, &self.mine, &mut self.near);
            for y in 0..w {
                let mut word = self.near[y] & st.sibx[so + y];
                while word != 0 {
                    let e = y * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    // What e lacks of the private squares: a candidate covering all of it
                    // would make the piece replaceable by e.
                    let other = m.cover.row(e);
                    let mut left = 0u32;
                    for x in 0..w {
                        self.lack[x] = self.mine[x] & !other[x];
                        left += self.lack[x].count_ones();
                    }
                    if left <= self.forbid_upto {
                        covering_all(m, &self.lack, &mut self.scratch);
                        let mut cut = 0;
                        for z in 0..w {
                            cut |= st.allowed[uo + z] & self.scratch[z];
                            st.allowed[uo + z] &= !self.scratch[z];
                        }
                        self.excluded += u64::from(cut != 0);
                    }
                }
            }
        }
        false
    }

    /// The private squares of placed piece `i` at `depth` (those no other placed piece
    /// covers) into `mine`; `false`, leaving `mine` as it was, when they are the parent's:
    /// they only change where this node's piece covered some of them (the newest piece has
    /// its first ones, and a resumed subtree's root has no parent row).
    fn private_squares(&mut self, m: &Model, st: &Stack, depth: usize, i: usize) -> bool {
        let (w, uo) = (st.w, depth * st.w);
        let row = m.cover.row(st.placed[i]);
        if depth != st.base
            && i + 1 != st.placed.len()
            && (0..w).all(|x| row[x] & st.twice[uo + x] & !st.twice[uo - w + x] == 0)
        {
            return false;
        }
        for x in 0..w {
            self.mine[x] = row[x] & m.all[x] & !st.twice[uo + x];
        }
        true
    }
}

/// For `pair_replaceable`: twice the farthest a piece reaches in rows or columns, where
/// that is at most 3 (leapers such as knights, kings, camels); 0 otherwise (riders: pairs
/// anywhere on the board would be too many to look at).
fn pair_span(m: &Model) -> usize {
    let width = m.board.width;
    let mut reach = 0;
    for &s in &m.cells {
        let (r, c) = (s / width, s % width);
        for t in crate::util::ones(m.cover.row(s)) {
            let (tr, tc) = (t / width, t % width);
            reach = reach.max(r.abs_diff(tr)).max(c.abs_diff(tc));
        }
    }
    if reach <= 3 { 2 * reach } else { 0 }
}

/// The squares whose piece covers some square of `set`.
fn covering_any(m: &Model, set: &[u64], out: &mut [u64]) {
    out.fill(0);
    for q in crate::util::ones(set) {
        for (o, c) in out.iter_mut().zip(m.coverers.row(q)) {
            *o |= c;
        }
    }
}

/// The squares whose piece covers every square of `set` (all squares if `set` is empty).
fn covering_all(m: &Model, set: &[u64], out: &mut [u64]) {
    out.fill(u64::MAX);
    for q in crate::util::ones(set) {
        for (o, c) in out.iter_mut().zip(m.coverers.row(q)) {
            *o &= c;
        }
    }
}
