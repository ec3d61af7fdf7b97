//! The link arrays and the operations that make the links dance: hide and unhide an option,
//! cover and uncover an item, purify and unpurify a coloured one, and commit the rest of a
//! chosen option. These are the inner loops; the search in `search.rs` and `algorithm_m.rs`
//! only decides what to cover next.

// Access without bounds checks in the inner loops. Every index used there is a link read
// from the arrays themselves (or derived from one by the option layout: a spacer ends every
// option), and `Solver::new` builds all links to point inside the arrays, so the checks are
// redundant. Debug builds keep them.
macro_rules! at {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len());
        // SAFETY: see the comment above `at!`: links built by `Solver::new` stay in range.
        unsafe { *$v.get_unchecked(i) }
    }};
}
macro_rules! at_mut {
    ($v:expr, $i:expr) => {{
        let i = $i as usize;
        debug_assert!(i < $v.len());
        // SAFETY: see the comment above `at!`: links built by `Solver::new` stay in range.
        unsafe { $v.get_unchecked_mut(i) }
    }};
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(super) struct Node {
    pub(super) up: u32,
    pub(super) down: u32,
    /// The item of this node (>= 1), or in a spacer minus the number of options before it.
    pub(super) top: i32,
    /// 0 none, > 0 a colour, -1 "agrees with the purified colour of its item".
    pub(super) color: i32,
}

/// The link arrays, all that the search modifies.
#[derive(Debug)]
pub(super) struct Links {
    pub(super) nodes: Vec<Node>,
    pub(super) llink: Vec<u32>,
    pub(super) rlink: Vec<u32>,
    pub(super) len: Vec<u32>,
    pub(super) bound: Vec<u32>,
    /// For each node of an option, the option's first node and the spacer after its last
    /// (never modified; kept here so the inner loops borrow one struct).
    pub(super) span: Vec<[u32; 2]>,
}

/// `clone_from` copies into the arrays in place: restoring a stopped search from its pristine
/// copy then needs no third copy of the links (the derived one allocates a new set first).
impl Clone for Links {
    fn clone(&self) -> Links {
        Links {
            nodes: self.nodes.clone(),
            llink: self.llink.clone(),
            rlink: self.rlink.clone(),
            len: self.len.clone(),
            bound: self.bound.clone(),
            span: self.span.clone(),
        }
    }

    fn clone_from(&mut self, source: &Links) {
        self.nodes.clone_from(&source.nodes);
        self.llink.clone_from(&source.llink);
        self.rlink.clone_from(&source.rlink);
        self.len.clone_from(&source.len);
        self.bound.clone_from(&source.bound);
        self.span.clone_from(&source.span);
    }
}

/// Ask for the cache lines of node `p` and the one after (an option's nodes sit next to it)
/// while the current option is still being hidden or unhidden. The nodes array outgrows L1
/// on real problems, and the next option in an item's list is far away in memory, so its
/// loads would otherwise start only when the loop reaches it.
#[inline(always)]
fn prefetch(nodes: &[Node], p: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let base = nodes.as_ptr().wrapping_add(p) as *const i8;
        // SAFETY: a prefetch is only a hint and never faults, whatever the address.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(base);
            _mm_prefetch::<_MM_HINT_T0>(base.wrapping_add(64));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (nodes, p);
}

impl Links {
    /// Hide the option of node `rr`: unlink its other nodes from their items' lists, going
    /// right from `rr` and round to the option's start as DLX1 does. The option's bounds come
    /// from `span`, so the loops are counted and the next node's address never waits for a
    /// spacer to be read. Nodes whose item was purified to their own colour stay put
    /// (`color < 0`).
    #[inline(always)]
    pub(super) fn hide<const C: bool>(&mut self, rr: usize) -> u64 {
        let [start, end] = at!(self.span, rr);
        self.unlink_range::<C>(rr + 1, end as usize) + self.unlink_range::<C>(start as usize, rr)
    }

    #[inline(always)]
    fn unlink_range<const C: bool>(&mut self, from: usize, to: usize) -> u64 {
        let mut updates = 0;
        for nn in from..to {
            let x = at!(self.nodes, nn);
            if C && x.color < 0 {
                continue;
            }
            at_mut!(self.nodes, x.up).down = x.down;
            at_mut!(self.nodes, x.down).up = x.up;
            *at_mut!(self.len, x.top) -= 1;
            updates += 1;
        }
        updates
    }

    #[inline(always)]
    fn relink_range<const C: bool>(&mut self, from: usize, to: usize) {
        for nn in from..to {
            let x = at!(self.nodes, nn);
            if C && x.color < 0 {
                continue;
            }
            at_mut!(self.nodes, x.up).down = nn as u32;
            at_mut!(self.nodes, x.down).up = nn as u32;
            *at_mut!(self.len, x.top) += 1;
        }
    }

    /// Undo [`Links::hide`]. Going the same way round the option is fine (DLX1 does).
    #[inline(always)]
    pub(super) fn unhide<const C: bool>(&mut self, rr: usize) {
        let [start, end] = at!(self.span, rr);
        self.relink_range::<C>(rr + 1, end as usize);
        self.relink_range::<C>(start as usize, rr);
    }

    /// The mirror image of `hide`, going left, for unpurify.
    #[inline(always)]
    fn unhide_leftwards(&mut self, rr: usize) {
        let mut nn = rr - 1;
        while nn != rr {
            let x = at!(self.nodes, nn);
            if x.color < 0 {
                nn -= 1;
                continue;
            }
            if x.top <= 0 {
                nn = x.down as usize;
                continue;
            }
            at_mut!(self.nodes, x.up).down = nn as u32;
            at_mut!(self.nodes, x.down).up = nn as u32;
            *at_mut!(self.len, x.top) += 1;
            nn -= 1;
        }
    }

    /// The item to branch on (Algorithms X and C): the active primary item with the fewest
    /// options left (MRV), the leftmost among ties; a list of length 0 cannot be beaten.
    #[inline(always)]
    pub(super) fn mrv(&self) -> usize {
        let mut best = 0usize;
        let mut t = u32::MAX;
        let mut k = at!(self.rlink, 0) as usize;
        while k != 0 {
            let l = at!(self.len, k);
            if l < t {
                best = k;
                t = l;
                if l == 0 {
                    break;
                }
            }
            k = at!(self.rlink, k) as usize;
        }
        best
    }

    #[inline(always)]
    pub(super) fn cover<const C: bool>(&mut self, c: usize) -> u64 {
        let l = at!(self.llink, c);
        let r = at!(self.rlink, c);
        *at_mut!(self.rlink, l) = r;
        *at_mut!(self.llink, r) = l;
        let mut updates = 1;
        let mut rr = at!(self.nodes, c).down as usize;
        while rr != c {
            let next = at!(self.nodes, rr).down as usize;
            prefetch(&self.nodes, next);
            updates += self.hide::<C>(rr);
            rr = next;
        }
        updates
    }

    #[inline(always)]
    pub(super) fn uncover<const C: bool>(&mut self, c: usize) {
        let mut rr = at!(self.nodes, c).down as usize;
        while rr != c {
            let next = at!(self.nodes, rr).down as usize;
            prefetch(&self.nodes, next);
            self.unhide::<C>(rr);
            rr = next;
        }
        let l = at!(self.llink, c);
        let r = at!(self.rlink, c);
        *at_mut!(self.rlink, l) = c as u32;
        *at_mut!(self.llink, r) = c as u32;
    }

    /// Node `p` gives its secondary item colour `x`: hide the options that disagree, mark
    /// those that agree.
    pub(super) fn purify(&mut self, p: usize) -> u64 {
        let node = at!(self.nodes, p);
        let (cc, x) = (node.top as usize, node.color);
        let mut updates = 0;
        let mut rr = at!(self.nodes, cc).down as usize;
        while rr != cc {
            if at!(self.nodes, rr).color != x {
                updates += self.hide::<true>(rr);
            } else {
                at_mut!(self.nodes, rr).color = -1;
            }
            rr = at!(self.nodes, rr).down as usize;
        }
        updates
    }

    pub(super) fn unpurify(&mut self, p: usize) {
        let node = at!(self.nodes, p);
        let (cc, x) = (node.top as usize, node.color);
        let mut rr = at!(self.nodes, cc).up as usize;
        while rr != cc {
            if at!(self.nodes, rr).color < 0 {
                at_mut!(self.nodes, rr).color = x;
            } else {
                self.unhide_leftwards(rr);
            }
            rr = at!(self.nodes, rr).up as usize;
        }
    }

    /// Cover (or purify) the items of the option of node `cur` other than its own, going
    /// right and round as DLX1 does.
    #[inline(always)]
    pub(super) fn commit_others<const C: bool>(&mut self, cur: usize) -> u64 {
        let [start, end] = at!(self.span, cur);
        let mut updates = 0;
        for pp in (cur + 1..end as usize).chain(start as usize..cur) {
            let x = at!(self.nodes, pp);
            if !C || x.color == 0 {
                updates += self.cover::<C>(x.top as usize);
            } else if x.color > 0 {
                updates += self.purify(pp);
            }
        }
        updates
    }

    /// Undo [`Links::commit_others`], going left because covering went right.
    #[inline(always)]
    pub(super) fn uncommit_others<const C: bool>(&mut self, cur: usize) {
        let [start, end] = at!(self.span, cur);
        for pp in (start as usize..cur)
            .rev()
            .chain((cur + 1..end as usize).rev())
        {
            let x = at!(self.nodes, pp);
            if !C || x.color == 0 {
                self.uncover::<C>(x.top as usize);
            } else if x.color > 0 {
                self.unpurify(pp);
            }
        }
    }
}
