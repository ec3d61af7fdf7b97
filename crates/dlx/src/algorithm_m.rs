//! Algorithm M, for primary items with a range `[lo, hi]`: the search loop of DLX3, its choice
//! of item by branch degree, and the tweaks that take a chosen option off the top of its
//! item's list. Kept apart from Algorithms X and C, whose loop is simpler and hotter.

use super::Control;
use super::search::{Solver, Visitor};

impl Solver {
    /// Algorithm M (multiplicities, with colours), after TAOCP 7.2.2.1 and DLX3, from level
    /// `base` (the choices below it already made: 0 for the whole tree) until the search
    /// backs down to it. Returns (updates, stopped).
    pub(super) fn search_m<R: Control>(
        &mut self,
        run: &mut R,
        report: bool,
        visitor: &mut Option<Visitor<'_, R>>,
        base: usize,
    ) -> (u64, bool) {
        let mut updates: u64 = 0;
        let mut level = base;
        // The item branched on at the current level.
        let mut i: usize = 0;
        #[derive(Clone, Copy)]
        enum Step {
            Forward,
            Advance,
            Restore,
            Backdown,
        }
        let mut step = Step::Forward;
        loop {
            match step {
                Step::Forward => {
                    if run.node() {
                        return (updates, true);
                    }
                    if self.links.rlink[0] == 0 {
                        if self.visit(run, report, level, visitor) {
                            return (updates, true);
                        }
                        step = Step::Backdown;
                        continue;
                    }
                    step = match self.m_choose(level) {
                        None => Step::Backdown,
                        Some((best, u)) => {
                            i = best;
                            updates += u;
                            Step::Advance
                        }
                    };
                }
                Step::Advance => {
                    step = match self.m_advance(level, i) {
                        None => Step::Restore,
                        Some(u) => {
                            updates += u;
                            level += 1;
                            Step::Forward
                        }
                    };
                }
                Step::Restore => {
                    self.m_restore(level, i);
                    step = Step::Backdown;
                }
                Step::Backdown => {
                    if level == base {
                        return (updates, false);
                    }
                    level -= 1;
                    let (item, more) = self.m_retreat(level);
                    i = item;
                    step = if more { Step::Advance } else { Step::Restore };
                }
            }
        }
    }

    /// At a node that is no solution, choose the item to branch on at `level` and set up its
    /// first alternative; `None` when the node is a dead end (an item cannot reach its lower
    /// bound). Returns the item and the updates made.
    #[inline(always)]
    pub(super) fn m_choose(&mut self, level: usize) -> Option<(usize, u64)> {
        let (i, score) = self.choose_m();
        if score <= 0 {
            return None;
        }
        let mut updates = 0;
        let x = self.links.nodes[i].down;
        self.choice[level] = x;
        self.links.bound[i] -= 1;
        if self.links.bound[i] == 0 {
            updates += self.links.cover::<true>(i);
        }
        if self.links.bound[i] != 0 || self.slack[i] != 0 {
            self.first_tweak[level] = x;
        }
        Some((i, updates))
    }

    /// Take the alternative `choice[level]` of item `i`: an option, or the null choice (no
    /// more options for `i`). `None` when no alternative is left (restore `i` next); else the
    /// updates made, the search going down a level.
    #[inline(always)]
    pub(super) fn m_advance(&mut self, level: usize, i: usize) -> Option<u64> {
        let n1 = self.n_primary;
        let mut updates = 0;
        let x = self.choice[level] as usize;
        let (b, s) = (self.links.bound[i], self.slack[i]);
        if b == 0 && s == 0 {
            if x == i {
                return None;
            }
        } else if self.links.len[i] as i64 <= b as i64 - s as i64 {
            // Too few options left to reach the lower bound.
            return None;
        } else if x != i {
            updates += self.tweak(x, i, b != 0);
        } else if b != 0 {
            // The null choice: no more options for `i`.
            let (l, r) = (self.links.llink[i], self.links.rlink[i]);
            self.links.rlink[l as usize] = r;
            self.links.llink[r as usize] = l;
        }
        if x != i {
            let mut p = x + 1;
            while p != x {
                let node = self.links.nodes[p];
                let j = node.top;
                if j <= 0 {
                    p = node.up as usize;
                    continue;
                }
                let j = j as usize;
                if j <= n1 {
                    self.links.bound[j] -= 1;
                    if self.links.bound[j] == 0 {
                        updates += self.links.cover::<true>(j);
                    }
                } else if node.color == 0 {
                    updates += self.links.cover::<true>(j);
                } else if node.color > 0 {
                    updates += self.links.purify(p);
                }
                p += 1;
            }
        }
        Some(updates)
    }

    /// Undo every choice made for item `i` at `level` (its tweaks, its cover) once no
    /// alternative is left or the search leaves the level.
    #[inline(always)]
    pub(super) fn m_restore(&mut self, level: usize, i: usize) {
        let (b, s) = (self.links.bound[i], self.slack[i]);
        if b == 0 && s == 0 {
            self.links.uncover::<true>(i);
        } else {
            self.untweak(level, i);
            if b == 0 {
                self.links.uncover::<true>(i);
            }
        }
        self.links.bound[i] += 1;
    }

    /// Undo what taking `choice[level]` did beyond its tweak, on the way back up to `level`.
    /// Returns the item of the level and whether an alternative follows (`false` after the
    /// null choice, the last: restore the item next); `choice[level]` moves to it.
    #[inline(always)]
    pub(super) fn m_retreat(&mut self, level: usize) -> (usize, bool) {
        let n = self.n_items;
        let n1 = self.n_primary;
        let x = self.choice[level] as usize;
        if x <= n {
            // The null choice was made here: reactivate the item, unless covering
            // deactivated it (bound 0), which Restore undoes.
            let i = x;
            if self.links.bound[i] != 0 {
                let (l, r) = (self.links.llink[i], self.links.rlink[i]);
                self.links.rlink[l as usize] = i as u32;
                self.links.llink[r as usize] = i as u32;
            }
            return (i, false);
        }
        let i = self.links.nodes[x].top as usize;
        let mut p = x - 1;
        while p != x {
            let node = self.links.nodes[p];
            let j = node.top;
            if j <= 0 {
                p = node.down as usize;
                continue;
            }
            let j = j as usize;
            if j <= n1 {
                if self.links.bound[j] == 0 {
                    self.links.uncover::<true>(j);
                }
                self.links.bound[j] += 1;
            } else if node.color == 0 {
                self.links.uncover::<true>(j);
            } else if node.color > 0 {
                self.links.unpurify(p);
            }
            p -= 1;
        }
        self.choice[level] = self.links.nodes[x].down;
        (i, true)
    }

    /// Algorithm M's choice: the active item of smallest branch degree
    /// `len + 1 - max(bound - slack, 0)`, preferring smaller `min(slack, bound)`, then the
    /// longer list, then the leftmost.
    pub(super) fn choose_m(&self) -> (usize, i64) {
        let links = &self.links;
        let mut best = 0usize;
        let mut score = i64::MAX;
        let (mut best_s, mut best_l) = (0u32, 0u32);
        let mut k = links.rlink[0] as usize;
        while k != 0 {
            let b = links.bound[k];
            let s = self.slack[k].min(b);
            let l = links.len[k];
            let t = l as i64 + s as i64 - b as i64 + 1;
            if t < score || (t == score && (s < best_s || (s == best_s && l > best_l))) {
                best = k;
                score = t;
                best_s = s;
                best_l = l;
                if t <= 0 {
                    break;
                }
            }
            k = links.rlink[k] as usize;
        }
        (best, score)
    }

    /// Try option `x` at the top of item `i`'s list: hide it (unless covering `i` already did,
    /// when `i`'s bound reached 0) and unlink it from `i`'s list.
    fn tweak(&mut self, x: usize, i: usize, hide: bool) -> u64 {
        let mut updates = 0;
        if hide {
            updates += self.links.hide::<true>(x);
        }
        let d = self.links.nodes[x].down;
        self.links.nodes[i].down = d;
        self.links.nodes[d as usize].up = i as u32;
        self.links.len[i] -= 1;
        updates
    }

    /// Undo every tweak made at `level` on item `i`: relink the tweaked options, which still
    /// point to their successors, from the first one down to the current top of the list.
    fn untweak(&mut self, level: usize, i: usize) {
        let hidden = self.links.bound[i] != 0;
        let a = self.first_tweak[level];
        let z = self.links.nodes[i].down;
        self.links.nodes[i].down = a;
        let (mut x, mut y) = (a, i as u32);
        let mut k = 0;
        while x != z {
            self.links.nodes[x as usize].up = y;
            k += 1;
            if hidden {
                self.links.unhide::<true>(x as usize);
            }
            y = x;
            x = self.links.nodes[x as usize].down;
        }
        self.links.nodes[z as usize].up = y;
        self.links.len[i] += k;
    }
}
