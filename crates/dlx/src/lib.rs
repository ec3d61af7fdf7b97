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
//!
//! # Where things are
//!
//! `problem.rs` states the problem ([`Problem`]) and checks a solution ([`is_solution`]);
//! `links.rs` holds the link arrays and the operations that make them dance; `search.rs` lays
//! a problem out as links ([`Solver`]) and runs Algorithms X and C; `algorithm_m.rs` runs
//! Algorithm M; `subtree.rs` lists the search tree's nodes and searches below one of them,
//! for a caller that splits the search into parts. This file keeps the essay and [`Control`], all the search knows of its caller.

// `links` first: its `at!` and `at_mut!` macros serve the files declared after it.
#[macro_use]
mod links;

mod algorithm_m;
mod budget;
mod dxz;
mod dxz_levels;
mod problem;
mod search;
mod subtree;

pub use budget::Short;
pub use dxz::{Dxz, DxzResult};
pub use dxz_levels::{LevelCount, Levels};
pub use problem::{DlxError, MAX_COLOUR, Problem, is_solution};
pub use search::Solver;
pub use subtree::{Decision, Expansion, Prefix};

/// Which primary item a node of the search branches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Branch {
    /// The one with the fewest options still alive, the leftmost among ties (MRV, as Knuth's
    /// programs choose: see the essay above).
    #[default]
    Fewest,
    /// The first one not yet covered, in the order the items are listed. Sub-problems then
    /// differ only past a frontier, as in a ZDD built in that order, and come back far more
    /// often when the order follows the problem's shape (a board's cells row by row,
    /// Langford's slots left to right): the rule for a memo ([`Dxz`]) on such problems. An
    /// item whose options are all gone makes a dead end only once it comes first. Algorithms
    /// X and C; Algorithm M keeps its own rule.
    First,
}

impl Branch {
    /// Every rule: the parser and the option tables take their names from here.
    pub const ALL: [Branch; 2] = [Branch::Fewest, Branch::First];
    pub const NAMES: [&'static str; 2] = [Branch::ALL[0].name(), Branch::ALL[1].name()];

    pub fn parse(s: &str) -> Option<Branch> {
        Branch::ALL.into_iter().find(|b| b.name() == s)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Branch::Fewest => "fewest",
            Branch::First => "first",
        }
    }
}

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
