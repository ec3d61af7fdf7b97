//! Dancing Links: exact cover with primary and secondary items, colours and multiplicities.
//!
//! # The problem
//!
//! We are given *items* and *options*; an option is a set of items. Some items are *primary*:
//! a solution is a set of options that contains every primary item exactly once (or, with a
//! *multiplicity* `[lo, hi]`, between `lo` and `hi` times). The other items are *secondary*:
//! they may be contained at most once. A secondary item may also be given a *colour* inside an
//! option; options that give the same secondary item the same colour are compatible and may
//! all be chosen together, while an uncoloured occurrence wants the item for itself. That is
//! the vocabulary of Knuth's TAOCP section 7.2.2.1, and this module follows his programs DLX1
//! (Algorithm X), DLX2 (Algorithm C, colours) and DLX3 (Algorithm M, multiplicities).
//!
//! # Links are indices
//!
//! A pointer would take 64 bits and waste cache space, so every link is a 32-bit index into a
//! flat array, allocated once when the [`Solver`] is built and never again. There are two
//! arrays of records:
//!
//! * The *item* arrays `llink`/`rlink` hold a doubly linked circular list of the primary items
//!   that still need to be covered; index 0 is the root of that list. Secondary items link to
//!   themselves, so "removing" one from the list is a harmless no-op, as in DLX1. Next to them
//!   `len` counts the options still alive in each item's list, and for Algorithm M `bound`
//!   (how many more options may still contain the item) and `slack` (`hi - lo`).
//! * The *node* array holds one node per (option, item) incidence. Node `i` for `1 <= i <= N`
//!   is the header of item `i`'s vertical list. The nodes of each option are stored
//!   consecutively, with a *spacer* node between consecutive options, so an option needs no
//!   horizontal links at all: its next node is the next array slot, and a spacer (recognised by
//!   `top <= 0`, holding minus the option's number) sends us back to the option's first node
//!   through its `up` field or to the previous option's last node through its `down` field. A
//!   node has `up` and `down` (the item's vertical list), `top` (its item) and `color`. The
//!   four 32-bit fields fill 16 bytes, so one cache access fetches everything the inner loop
//!   needs about a node, which is why they sit together rather than in four parallel arrays.
//! * A read-only `span` array gives every option node its option's first node and the spacer
//!   after its last. Walking "right from `x` and round" is then two counted loops,
//!   `x+1..end` and `start..x`, in exactly Knuth's order, but the address of the next node no
//!   longer waits for a spacer to be loaded and tested, as it does when following the
//!   spacers as DLX1 does.
//!
//! # Hide, cover, and the dance
//!
//! To *hide* an option is to unlink each of its nodes from its item's vertical list, except
//! the node through which we reached it; each such unlink is one *update*, the unit Knuth
//! counts. To *cover* an item is to remove it from the list of items to cover and to hide
//! every option still in its list. The unlinked nodes keep their own `up` and `down` fields,
//! so undoing is relinking in reverse order: `x.up.down = x; x.down.up = x`. Depth-first
//! search undoes exactly what it did, last in first out, so no undo log is needed: the links
//! "dance" back into place. That is the whole trick; no node is ever allocated or freed
//! during the search.
//!
//! The search is Knuth's, iterative with a preallocated `choice` stack (one entry per level)
//! instead of recursion: at each node of the search tree choose a primary item, cover it, try
//! each option in its list in turn (covering the option's other items), descend, and undo.
//!
//! # MRV
//!
//! The item chosen at each node is the one with the fewest remaining options (the "minimum
//! remaining values" heuristic), the leftmost one among ties, scanning the active list from
//! the root. Ties are broken exactly as DLX1 breaks them, so node and update counts agree with
//! Knuth's published figures: a *node* is every entry to a new level (including dead ends,
//! the leaves where every primary item is covered), and an *update* is
//! one cover of an item plus one per node hidden.
//!
//! # Colours (Algorithm C)
//!
//! Choosing an option that gives secondary item `j` colour `x` *purifies* `j`: every option in
//! `j`'s list with another colour (or none) is hidden, and those that agree are marked with
//! colour `-1` so that choosing one later does nothing more for `j`, and so that hiding skips
//! them (they stay in `j`'s list, which nobody walks until `j` is unpurified). *Unpurify*
//! restores both, walking the list upwards and each option leftwards, the mirror image.
//!
//! # Multiplicities (Algorithm M)
//!
//! With a range `[lo, hi]` on a primary item, branching on item `i` no longer means "choose
//! one option of `i`'s list" but "choose the *next* option of `i`'s list, or none more".
//! `bound(i)` counts how many more options may still contain `i` and `slack(i) = hi - lo`.
//! Trying option `x` *tweaks* it: it is hidden and unlinked from the top of `i`'s list, so the
//! next alternative at this level is the option below it, and the options chosen for `i` come
//! out in list order, each multiset exactly once. The last alternative, the *null* choice,
//! deactivates `i` once every remaining option has been tweaked away. When `bound(i)` reaches
//! zero the item is covered instead, as in Algorithm X. *Untweak* relinks all options tweaked
//! at a level in one sweep from the first one (`first_tweak`), since each still remembers its
//! successor. The item chosen is the one of smallest *branch degree*
//! `len + 1 - max(bound - slack, 0)`; ties go to the smaller `min(slack, bound)`, then to the
//! longer list (DLX3's rules), then to the leftmost. A degree `<= 0` means the item cannot
//! reach its lower bound and the node is a dead end.
//!
//! When every primary item has the range `[1, 1]` the search runs the plain X/C loop, and when
//! no option has a colour, a version of it compiled without the colour tests, so the common
//! case pays nothing for the generality.

use thiserror::Error;

#[cfg(test)]
mod tests;

/// What the search asks of whoever runs it: when to stop, and where solutions and counts go.
/// The core knows nothing else of its caller (limits, threads, progress live above it).
pub trait Control {
    /// Count one node; `true` means stop now.
    fn node(&mut self) -> bool;
    /// Whether to stop, checked at once (before the first node, so a small limit is exact).
    fn check(&mut self) -> bool;
    /// Whether each solution's options are wanted; otherwise solutions are only counted.
    fn wants_solutions(&self) -> bool;
    /// One solution, as sorted option indices; `true` means stop now.
    fn solution(&mut self, options: &[usize]) -> bool;
    /// Add `k` solutions that were counted without being reported.
    fn count(&mut self, k: u128);
    /// A named statistic of the search ("updates", as Knuth's programs count them).
    fn counter(&mut self, name: &'static str, value: u64);
}

/// Why an item or option was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DlxError {
    #[error("an option must contain at least one item")]
    EmptyOption,
    #[error("item index {item} is out of range: the problem has {count} items")]
    ItemOutOfRange { item: usize, count: usize },
    #[error("item `{name}` appears twice in one option")]
    RepeatedItem { name: String },
    #[error("primary item `{name}` cannot carry a colour (only secondary items can)")]
    ColouredPrimary { name: String },
    #[error("an option needs a primary item, or the search could never choose it")]
    NoPrimary,
    #[error("colour {colour} is too large: colours go up to {max}")]
    ColourTooLarge { colour: u32, max: u32 },
    #[error("range [{lo}, {hi}] of item `{name}` is invalid: need lo <= hi and hi >= 1")]
    BadRange { name: String, lo: u32, hi: u32 },
}

/// The largest colour an option may give a secondary item (colours are stored as `i32`,
/// with negative values reserved for the search's own marks).
pub const MAX_COLOUR: u32 = i32::MAX as u32;

/// An exact cover problem, built incrementally and validated as it grows. Items are numbered
/// in the order they are added, whatever their kind; options in the order they are added.
#[derive(Clone, Debug)]
pub struct Problem {
    names: Vec<String>,
    primary: Vec<bool>,
    range: Vec<(u32, u32)>,
    num_primary: usize,
    /// Option `k` is `opt_items[opt_start[k]..opt_start[k + 1]]`.
    opt_start: Vec<usize>,
    opt_items: Vec<(usize, u32)>,
}

impl Default for Problem {
    fn default() -> Self {
        Problem::new()
    }
}

impl Problem {
    pub fn new() -> Problem {
        Problem {
            names: Vec::new(),
            primary: Vec::new(),
            range: Vec::new(),
            num_primary: 0,
            opt_start: vec![0],
            opt_items: Vec::new(),
        }
    }

    /// A primary item, to be covered exactly once.
    pub fn add_primary(&mut self, name: impl Into<String>) -> usize {
        self.push_item(name.into(), true, (1, 1))
    }

    /// A primary item to be covered between `lo` and `hi` times.
    ///
    /// # Panics
    /// If `lo > hi` or `hi == 0`; [`Problem::try_add_primary_range`] returns an error instead.
    pub fn add_primary_range(&mut self, name: impl Into<String>, lo: u32, hi: u32) -> usize {
        match self.try_add_primary_range(name, lo, hi) {
            Ok(i) => i,
            Err(e) => panic!("{e}"),
        }
    }

    pub fn try_add_primary_range(
        &mut self,
        name: impl Into<String>,
        lo: u32,
        hi: u32,
    ) -> Result<usize, DlxError> {
        let name = name.into();
        if lo > hi || hi == 0 {
            return Err(DlxError::BadRange { name, lo, hi });
        }
        Ok(self.push_item(name, true, (lo, hi)))
    }

    /// A secondary item, covered at most once (or shared by options agreeing on its colour).
    pub fn add_secondary(&mut self, name: impl Into<String>) -> usize {
        self.push_item(name.into(), false, (0, 1))
    }

    fn push_item(&mut self, name: String, primary: bool, range: (u32, u32)) -> usize {
        self.names.push(name);
        self.primary.push(primary);
        self.range.push(range);
        if primary {
            self.num_primary += 1;
        }
        self.names.len() - 1
    }

    /// items: (item index, colour) with colour 0 = no colour; an error if an item repeats,
    /// a primary item carries a colour, an index is out of range, the option is empty or has
    /// no primary item.
    pub fn add_option(&mut self, items: &[(usize, u32)]) -> Result<usize, DlxError> {
        if items.is_empty() {
            return Err(DlxError::EmptyOption);
        }
        let count = self.names.len();
        let mut has_primary = false;
        for (k, &(item, colour)) in items.iter().enumerate() {
            if item >= count {
                return Err(DlxError::ItemOutOfRange { item, count });
            }
            // Options are short, so a quadratic scan beats a hash set here.
            if items[..k].iter().any(|&(other, _)| other == item) {
                return Err(DlxError::RepeatedItem {
                    name: self.names[item].clone(),
                });
            }
            if self.primary[item] {
                if colour != 0 {
                    return Err(DlxError::ColouredPrimary {
                        name: self.names[item].clone(),
                    });
                }
                has_primary = true;
            } else if colour > MAX_COLOUR {
                return Err(DlxError::ColourTooLarge {
                    colour,
                    max: MAX_COLOUR,
                });
            }
        }
        if !has_primary {
            return Err(DlxError::NoPrimary);
        }
        self.opt_items.extend_from_slice(items);
        self.opt_start.push(self.opt_items.len());
        Ok(self.opt_start.len() - 2)
    }

    pub fn item_name(&self, item: usize) -> &str {
        &self.names[item]
    }

    /// The index of the item with this name (a linear scan: for building, not searching).
    pub fn item_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn is_primary(&self, item: usize) -> bool {
        self.primary[item]
    }

    /// `[lo, hi]` of a primary item; `[0, 1]` for a secondary item.
    pub fn range(&self, item: usize) -> (u32, u32) {
        self.range[item]
    }

    pub fn num_items(&self) -> usize {
        self.names.len()
    }

    pub fn num_primary(&self) -> usize {
        self.num_primary
    }

    pub fn num_options(&self) -> usize {
        self.opt_start.len() - 1
    }

    pub fn option(&self, k: usize) -> &[(usize, u32)] {
        &self.opt_items[self.opt_start[k]..self.opt_start[k + 1]]
    }

    /// Whether some option colours a secondary item (Algorithm C is needed).
    pub fn has_colours(&self) -> bool {
        self.opt_items.iter().any(|&(_, c)| c != 0)
    }

    /// Whether some primary item has a range other than `[1, 1]` (Algorithm M is needed).
    pub fn has_multiplicities(&self) -> bool {
        (0..self.num_items()).any(|i| self.primary[i] && self.range[i] != (1, 1))
    }
}

/// Independent checker (used by tests and callers that distrust the solver): is this set of
/// options a valid solution? Options must be distinct; every primary item must be covered
/// within its range; a secondary item may be contained by at most one option, or by several
/// that all give it the same non-zero colour.
pub fn is_solution(problem: &Problem, options: &[usize]) -> bool {
    let n = problem.num_items();
    let mut seen_option = vec![false; problem.num_options()];
    let mut count = vec![0u64; n];
    // Colour of a secondary item's first occurrence; any later occurrence must repeat it.
    let mut colour = vec![0u32; n];
    for &k in options {
        if k >= problem.num_options() || seen_option[k] {
            return false;
        }
        seen_option[k] = true;
        for &(item, c) in problem.option(k) {
            count[item] += 1;
            if !problem.is_primary(item) {
                if count[item] == 1 {
                    colour[item] = c;
                } else if c == 0 || colour[item] != c {
                    return false;
                }
            }
        }
    }
    (0..n).all(|i| {
        if problem.is_primary(i) {
            let (lo, hi) = problem.range(i);
            (lo as u64..=hi as u64).contains(&count[i])
        } else {
            true
        }
    })
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
struct Node {
    up: u32,
    down: u32,
    /// The item of this node (>= 1), or in a spacer minus the number of options before it.
    top: i32,
    /// 0 none, > 0 a colour, -1 "agrees with the purified colour of its item".
    color: i32,
}

/// The link arrays, all that the search modifies.
#[derive(Clone, Debug)]
struct Links {
    nodes: Vec<Node>,
    llink: Vec<u32>,
    rlink: Vec<u32>,
    len: Vec<u32>,
    bound: Vec<u32>,
    /// For each node of an option, the option's first node and the spacer after its last
    /// (never modified; kept here so the inner loops borrow one struct).
    span: Vec<[u32; 2]>,
}

/// A caller's handler for each solution; `true` means stop.
type Visitor<'a, R> = &'a mut dyn FnMut(&mut R, &[usize]) -> bool;

/// The Dancing Links solver: the flat arrays built once from a [`Problem`].
#[derive(Clone, Debug)]
pub struct Solver {
    links: Links,
    /// The state before any search, restored after a search cut short by a limit (a finished
    /// search restores it by itself).
    pristine: Links,
    slack: Vec<u32>,
    /// Number of items N; items are 1..=N, the primary ones 1..=n_primary.
    n_items: usize,
    n_primary: usize,
    colours: bool,
    multiplicities: bool,
    /// The node chosen at each level (an item header for Algorithm M's null choice).
    choice: Vec<u32>,
    /// Algorithm M: the first node tweaked at each level.
    first_tweak: Vec<u32>,
    solution: Vec<usize>,
}

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

/// Ask for the cache lines of node `p` and the one after (an option's nodes sit next to it)
/// while the current option is still being hidden or unhidden. The nodes array outgrows L1
/// on real problems, and the next option in an item's list is far away in memory, so its
/// loads would otherwise start only when the loop reaches it: about 7% on the pentominoes.
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
    fn hide<const C: bool>(&mut self, rr: usize) -> u64 {
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
    fn unhide<const C: bool>(&mut self, rr: usize) {
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

    #[inline(always)]
    fn cover<const C: bool>(&mut self, c: usize) -> u64 {
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
    fn uncover<const C: bool>(&mut self, c: usize) {
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
    fn purify(&mut self, p: usize) -> u64 {
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

    fn unpurify(&mut self, p: usize) {
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
    fn commit_others<const C: bool>(&mut self, cur: usize) -> u64 {
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
    fn uncommit_others<const C: bool>(&mut self, cur: usize) {
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

impl Solver {
    pub fn new(problem: &Problem) -> Solver {
        let n = problem.num_items();
        let n1 = problem.num_primary();
        // Internal numbering: root 0, primary items 1..=n1 and secondary ones n1+1..=n, each
        // kind in the order it was declared.
        let mut internal = vec![0u32; n];
        let (mut next_primary, mut next_secondary) = (1u32, n1 as u32 + 1);
        let mut slack = vec![0u32; n + 1];
        let mut bound = vec![0u32; n + 1];
        for (i, slot) in internal.iter_mut().enumerate() {
            if problem.is_primary(i) {
                *slot = next_primary;
                let (lo, hi) = problem.range(i);
                bound[next_primary as usize] = hi;
                slack[next_primary as usize] = hi - lo;
                next_primary += 1;
            } else {
                *slot = next_secondary;
                next_secondary += 1;
            }
        }
        let mut llink = vec![0u32; n + 1];
        let mut rlink = vec![0u32; n + 1];
        for i in 0..=n1 {
            rlink[i] = if i == n1 { 0 } else { i as u32 + 1 };
            llink[i] = if i == 0 { n1 as u32 } else { i as u32 - 1 };
        }
        for i in n1 + 1..=n {
            llink[i] = i as u32;
            rlink[i] = i as u32;
        }
        let total = n + 2 + problem.num_options() + problem.opt_items.len();
        assert!(total < i32::MAX as usize, "too many nodes for 32-bit links");
        let mut nodes = Vec::with_capacity(total);
        for i in 0..=n {
            nodes.push(Node {
                up: i as u32,
                down: i as u32,
                top: 0,
                color: 0,
            });
        }
        let mut len = vec![0u32; n + 1];
        let mut span: Vec<[u32; 2]> = Vec::with_capacity(total);
        // The first spacer.
        nodes.push(Node::default());
        let mut spacer = nodes.len() - 1;
        for k in 0..problem.num_options() {
            let first = nodes.len();
            for &(item, colour) in problem.option(k) {
                let c = internal[item] as usize;
                let p = nodes.len() as u32;
                let bottom = nodes[c].up;
                nodes[bottom as usize].down = p;
                nodes[c].up = p;
                nodes.push(Node {
                    up: bottom,
                    down: c as u32,
                    top: c as i32,
                    color: colour as i32,
                });
                len[c] += 1;
            }
            nodes[spacer].down = nodes.len() as u32 - 1;
            nodes.push(Node {
                up: first as u32,
                down: 0,
                top: -(k as i32 + 1),
                color: 0,
            });
            spacer = nodes.len() - 1;
            span.resize(first, [0, 0]);
            span.resize(spacer, [first as u32, spacer as u32]);
        }
        span.resize(nodes.len(), [0, 0]);
        let links = Links {
            nodes,
            llink,
            rlink,
            len,
            bound,
            span,
        };
        let sum_hi: usize = (0..n)
            .filter(|&i| problem.is_primary(i))
            .map(|i| problem.range(i).1 as usize)
            .sum();
        // X/C: a level per chosen option, each covering a primary item. M: at most one
        // option per unit of capacity plus one null choice per primary item.
        let levels = problem.num_options().min(sum_hi) + n1 + 1;
        Solver {
            pristine: links.clone(),
            links,
            slack,
            n_items: n,
            n_primary: n1,
            colours: problem.has_colours(),
            multiplicities: problem.has_multiplicities(),
            choice: vec![0; levels],
            first_tweak: vec![0; levels],
            solution: Vec::with_capacity(levels),
        }
    }

    /// The algorithm the problem needs: "X", "C" (colours) or "M" (multiplicities).
    pub fn algorithm(&self) -> &'static str {
        if self.multiplicities {
            "M"
        } else if self.colours {
            "C"
        } else {
            "X"
        }
    }

    /// Explore; each solution (option indices as given to add_option, sorted ascending) goes
    /// to `run.solution(&opts)` when `run.wants_solutions()`, else `run.count(1)`. Stops as soon as `run.node()` or `run.solution()` returns true. Adds the
    /// counter ("updates", n) to `run.stats` at the end. The solver is left as built, so it can
    /// search again.
    pub fn search<R: Control>(&mut self, run: &mut R) {
        self.search_reporting(run, None);
    }

    /// As [`Solver::search`], but every solution goes to `on_solution(run, options)` instead
    /// (`true` from it means stop): for callers that translate or filter solutions before
    /// they reach the run, as a board kind maps options back to squares.
    pub fn search_with<R: Control>(
        &mut self,
        run: &mut R,
        on_solution: &mut dyn FnMut(&mut R, &[usize]) -> bool,
    ) {
        self.search_reporting(run, Some(on_solution));
    }

    fn search_reporting<R: Control>(&mut self, run: &mut R, mut visitor: Option<Visitor<'_, R>>) {
        let report = visitor.is_some() || run.wants_solutions();
        // Checking now lets the engine bring its first check forward to a small node limit.
        if run.check() {
            return;
        }
        let v = &mut visitor;
        let (updates, stopped) = match (self.multiplicities, self.colours) {
            (true, _) => self.search_m(run, report, v),
            (false, true) => self.search_xc::<true, R>(run, report, v),
            (false, false) => self.search_xc::<false, R>(run, report, v),
        };
        if stopped {
            self.links.clone_from(&self.pristine);
        }
        run.counter("updates", updates);
    }

    /// The option of a node: the spacer that ends it knows its number.
    fn option_of(&self, mut p: usize) -> usize {
        while self.links.nodes[p].top > 0 {
            p += 1;
        }
        (-self.links.nodes[p].top - 1) as usize
    }

    /// Report the solution made of the options of `choice[..levels]` (headers, Algorithm M's
    /// null choices, skipped); `true` means stop.
    fn visit<R: Control>(
        &mut self,
        run: &mut R,
        report: bool,
        levels: usize,
        visitor: &mut Option<Visitor<'_, R>>,
    ) -> bool {
        if !report {
            run.count(1);
            return false;
        }
        self.solution.clear();
        for l in 0..levels {
            let x = self.choice[l] as usize;
            if x > self.n_items {
                let k = self.option_of(x);
                self.solution.push(k);
            }
        }
        self.solution.sort_unstable();
        match visitor {
            Some(v) => v(run, &self.solution),
            None => run.solution(&self.solution),
        }
    }

    /// Algorithms X and C (every primary item has range [1, 1]), as DLX1 and DLX2 do them.
    /// Returns (updates, stopped).
    fn search_xc<const C: bool, R: Control>(
        &mut self,
        run: &mut R,
        report: bool,
        visitor: &mut Option<Visitor<'_, R>>,
    ) -> (u64, bool) {
        let mut updates: u64 = 0;
        let mut level = 0usize;
        'forward: loop {
            if run.node() {
                return (updates, true);
            }
            let mut best;
            let mut cur;
            if at!(self.links.rlink, 0) == 0 {
                // A leaf: every primary item is covered. Knuth counts it as a node too.
                if self.visit(run, report, level, visitor) {
                    return (updates, true);
                }
            } else {
                // MRV, leftmost among ties; a list of length 0 cannot be beaten.
                let links = &mut self.links;
                best = 0usize;
                let mut t = u32::MAX;
                let mut k = at!(links.rlink, 0) as usize;
                while k != 0 {
                    let l = at!(links.len, k);
                    if l < t {
                        best = k;
                        t = l;
                        if l == 0 {
                            break;
                        }
                    }
                    k = at!(links.rlink, k) as usize;
                }
                updates += links.cover::<C>(best);
                cur = at!(links.nodes, best).down as usize;
                // Advance: try `cur`, the next option of `best`.
                if cur != best {
                    *at_mut!(self.choice, level) = cur as u32;
                    updates += self.links.commit_others::<C>(cur);
                    level += 1;
                    continue 'forward;
                }
                self.links.uncover::<C>(best);
            }
            // Back down: undo the option of the level below and try its successor, until a
            // level has one left.
            loop {
                if level == 0 {
                    return (updates, false);
                }
                level -= 1;
                cur = at!(self.choice, level) as usize;
                best = at!(self.links.nodes, cur).top as usize;
                self.links.uncommit_others::<C>(cur);
                cur = at!(self.links.nodes, cur).down as usize;
                if cur != best {
                    *at_mut!(self.choice, level) = cur as u32;
                    updates += self.links.commit_others::<C>(cur);
                    level += 1;
                    continue 'forward;
                }
                self.links.uncover::<C>(best);
            }
        }
    }

    /// Algorithm M (multiplicities, with colours), after TAOCP 7.2.2.1 and DLX3.
    /// Returns (updates, stopped).
    fn search_m<R: Control>(
        &mut self,
        run: &mut R,
        report: bool,
        visitor: &mut Option<Visitor<'_, R>>,
    ) -> (u64, bool) {
        let mut updates: u64 = 0;
        let n = self.n_items;
        let n1 = self.n_primary;
        let mut level = 0usize;
        // The item branched on at the current level.
        let mut i: usize;
        #[derive(Clone, Copy)]
        enum Step {
            Forward,
            Advance,
            Restore,
            Backdown,
        }
        let mut step = Step::Forward;
        i = 0;
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
                    let (best, score) = self.choose_m();
                    if score <= 0 {
                        step = Step::Backdown;
                        continue;
                    }
                    i = best;
                    let x = self.links.nodes[i].down;
                    self.choice[level] = x;
                    self.links.bound[i] -= 1;
                    if self.links.bound[i] == 0 {
                        updates += self.links.cover::<true>(i);
                    }
                    if self.links.bound[i] != 0 || self.slack[i] != 0 {
                        self.first_tweak[level] = x;
                    }
                    step = Step::Advance;
                }
                Step::Advance => {
                    let x = self.choice[level] as usize;
                    let (b, s) = (self.links.bound[i], self.slack[i]);
                    if b == 0 && s == 0 {
                        if x == i {
                            step = Step::Restore;
                            continue;
                        }
                    } else if self.links.len[i] as i64 <= b as i64 - s as i64 {
                        // Too few options left to reach the lower bound.
                        step = Step::Restore;
                        continue;
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
                    level += 1;
                    step = Step::Forward;
                }
                Step::Restore => {
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
                    step = Step::Backdown;
                }
                Step::Backdown => {
                    if level == 0 {
                        return (updates, false);
                    }
                    level -= 1;
                    let x = self.choice[level] as usize;
                    if x <= n {
                        // The null choice was made here: reactivate the item, unless
                        // covering deactivated it (bound 0), which Restore undoes.
                        i = x;
                        if self.links.bound[i] != 0 {
                            let (l, r) = (self.links.llink[i], self.links.rlink[i]);
                            self.links.rlink[l as usize] = i as u32;
                            self.links.llink[r as usize] = i as u32;
                        }
                        step = Step::Restore;
                        continue;
                    }
                    i = self.links.nodes[x].top as usize;
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
                    step = Step::Advance;
                }
            }
        }
    }

    /// Algorithm M's choice: the active item of smallest branch degree
    /// `len + 1 - max(bound - slack, 0)`, preferring smaller `min(slack, bound)`, then the
    /// longer list, then the leftmost.
    fn choose_m(&self) -> (usize, i64) {
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
