//! DXZ: Dancing Links with a memo of sub-problems and a ZDD of the solutions (Nishino,
//! Yasuda, Minato and Nagata, AAAI 2017), for Algorithms X and C.
//!
//! # Why a memo is exact here
//!
//! At a node of Algorithm X the rest of the search depends only on which items are covered:
//! an option is still alive exactly when none of its items is, and the items left to choose
//! are the primary ones not covered. With colours (Algorithm C) a secondary item is either
//! free, covered (an option took it without a colour) or purified to one colour, and an
//! option is alive when each of its secondary items is free or purified to the option's own
//! colour. So the covered items, with the colour of each purified one, are a complete key of
//! the sub-problem: two nodes with the same key have the same sub-tree, and the second one
//! can take the first one's result instead of searching it again. Where sub-problems come
//! back often (tilings, whose frontier is all that matters; Langford pairs) this turns an
//! enumeration of every solution into a count of the distinct sub-problems.
//!
//! Algorithm M does not fit: which options of an item are still allowed at a level depends
//! on those already passed over there (so that each multiset is found once), which the items
//! alone do not say.
//!
//! # The ZDD
//!
//! Each sub-problem becomes one node of a zero-suppressed decision diagram: for the options
//! `o1, o2, ...` tried on the chosen item, a chain whose node `k` has the option `ok`, a *hi*
//! edge to the sub-problem after choosing it and a *lo* edge to the rest of the chain; the
//! terminals are the empty family (no solution) and the family of the empty set. Every path
//! from the root to the second terminal, taking the options of its hi edges, is one solution,
//! and each solution is one path, so a node's count is the sum of its two children's, and
//! enumerating is a walk. Dead ends are remembered too: they are most of what repeats.
//!
//! # Which item
//!
//! The search branches as [`Branch`] says. The fewest options (MRV, as `dlx`) keeps the tree
//! small; the first uncovered item makes sub-problems differ only past a frontier in the
//! item order, so that far more of them come back (Langford pairs with their slots listed
//! left to right: n = 14 has 10.9 million distinct sub-problems this way against 18.2 million
//! with MRV, and the gap widens with n). With the first item, no colours and at most 256
//! items, a count without the solutions goes level by level instead (`dxz_levels.rs`): the
//! same sub-problems, in sequential passes over arrays.
//!
//! # What is counted
//!
//! A *node* is a sub-problem searched (a memo miss); a memo hit is counted apart, and updates
//! as Knuth counts them, so the figures read beside DLX1's.

use super::budget::{Budget, Short};
use super::problem::Problem;
use super::search::Solver;
use super::{Branch, Control};

/// The empty family: no solution below.
const BOTTOM: u32 = 0;
/// The family of the empty set: every primary item covered.
const TOP: u32 = 1;

/// The memo: keys of a fixed number of words side by side in one arena, and an open-addressing
/// table of entry numbers, so that an entry costs no allocation of its own and a lookup that
/// misses leaves the slot where the key goes. Written here rather than taken from `hashbrown`
/// because the crate depends on nothing, and because keys of a length fixed at run time in
/// one arena are not what a general table stores without a box per key.
struct Memo {
    words: usize,
    keys: Vec<u64>,
    values: Vec<u32>,
    /// Entry number + 1, or 0 for an empty slot; a power of two long.
    table: Vec<u32>,
}

/// Where a key is, or where it would go.
enum Slot {
    Found(u32),
    Free(usize),
}

impl Memo {
    /// Slots of the table at first.
    const FIRST_SLOTS: usize = 1 << 10;

    fn new(words: usize) -> Memo {
        Memo {
            words,
            keys: Vec::new(),
            values: Vec::new(),
            table: vec![0; Memo::FIRST_SLOTS],
        }
    }

    fn len(&self) -> usize {
        self.values.len()
    }

    /// FxHash of the key's words: bitsets are already well mixed. Written out here and in
    /// `dxz_levels.rs` rather than shared: the crate depends on nothing (no `rustc-hash`),
    /// and a shared helper measured 10-50% slower in `cargo bench --bench cover langford`.
    fn hash(key: &[u64]) -> u64 {
        let mut h = 0u64;
        for &w in key {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        h ^ (h >> 29)
    }

    fn find(&self, key: &[u64]) -> Slot {
        let mask = self.table.len() - 1;
        let mut i = Memo::hash(key) as usize & mask;
        loop {
            match self.table[i] {
                0 => return Slot::Free(i),
                e => {
                    let k = (e - 1) as usize * self.words;
                    if self.keys[k..k + self.words] == *key {
                        return Slot::Found(self.values[e as usize - 1]);
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Add `key` (not present; `slot` from [`Memo::find`] since) with `value`, the table
    /// doubled once half full; `false`, nothing added, when `budget` gives no room for it.
    fn insert(&mut self, key: &[u64], value: u32, slot: usize, budget: &mut Budget) -> bool {
        if !budget.room(&mut self.keys, self.words) || !budget.room(&mut self.values, 1) {
            return false;
        }
        let grown = if 2 * (self.values.len() + 1) > self.table.len() {
            match budget.fresh(2 * self.table.len(), 0u32) {
                Some(table) => Some(table),
                None => return false,
            }
        } else {
            None
        };
        self.keys.extend_from_slice(key);
        self.values.push(value);
        match grown {
            None => self.table[slot] = self.values.len() as u32,
            Some(table) => {
                let old = std::mem::replace(&mut self.table, table);
                budget.release(&old);
                self.rehash();
            }
        }
        true
    }

    /// Every entry into the (empty) table.
    fn rehash(&mut self) {
        let mask = self.table.len() - 1;
        for e in 0..self.values.len() {
            let key = &self.keys[e * self.words..(e + 1) * self.words];
            let mut i = Memo::hash(key) as usize & mask;
            while self.table[i] != 0 {
                i = (i + 1) & mask;
            }
            self.table[i] = e as u32 + 1;
        }
    }
}

/// The diagram built so far: node `z` has option `opt[z]`, edges `hi[z]` and `lo[z]`, and
/// counts `count[z]` solutions.
struct Zdd {
    opt: Vec<u32>,
    hi: Vec<u32>,
    lo: Vec<u32>,
    count: Vec<u128>,
}

impl Zdd {
    fn new() -> Zdd {
        // The two terminals.
        Zdd {
            opt: vec![u32::MAX; 2],
            hi: vec![BOTTOM; 2],
            lo: vec![BOTTOM; 2],
            count: vec![0, 1],
        }
    }

    /// Room for `more` nodes; `false` when `budget` gives none.
    fn room(&mut self, more: usize, budget: &mut Budget) -> bool {
        budget.room(&mut self.opt, more)
            && budget.room(&mut self.hi, more)
            && budget.room(&mut self.lo, more)
            && budget.room(&mut self.count, more)
    }

    fn node(&mut self, opt: u32, hi: u32, lo: u32) -> u32 {
        let z = self.opt.len() as u32;
        // A count past 2^128 would need more than any exact cover here can have; saturate
        // rather than wrap.
        let c = self.count[hi as usize].saturating_add(self.count[lo as usize]);
        self.opt.push(opt);
        self.hi.push(hi);
        self.lo.push(lo);
        self.count.push(c);
        z
    }
}

/// One level of the search: the item chosen, the option being tried, and where its
/// children's results start in `children`; its key is the level's slice of `frame_keys`.
struct Frame {
    best: usize,
    cur: usize,
    children: usize,
}

/// What a DXZ search ended with.
pub struct DxzResult {
    /// Solutions below the root; `None` when the search was stopped.
    pub count: Option<u128>,
    /// The memo found no room to grow, and why: the search stopped there.
    pub out_of_memory: Option<Short>,
}

/// The memoising search over a [`Solver`]'s links.
pub struct Dxz {
    solver: Solver,
    colours: bool,
    /// Secondary items that some option colours, in order: their colours follow the bitset
    /// in a key.
    coloured: Vec<usize>,
    /// Per item: options holding it among those chosen (a purified item is shared).
    refs: Vec<u32>,
    covered: Vec<u64>,
    colour: Vec<i32>,
    memo: Memo,
    zdd: Zdd,
    /// The bytes the links, the memo and the diagram hold, and may.
    budget: Budget,
    root: u32,
}

impl Dxz {
    /// A search of `problem`, branching as `branch` says, that may hold `budget` bytes: its
    /// links ([`Solver::bytes_for`]), then the memo and the diagram as they grow.
    pub fn new(problem: &Problem, branch: Branch, budget: u64) -> Dxz {
        let mut solver = Solver::new(problem);
        solver.set_branch(branch);
        let n = solver.n_items;
        let colours = solver.colours;
        let mut coloured: Vec<usize> = Vec::new();
        if colours {
            let mut seen = vec![false; n + 1];
            for node in &solver.links.nodes {
                if node.top > 0 && node.color > 0 && !seen[node.top as usize] {
                    seen[node.top as usize] = true;
                }
            }
            coloured = (1..=n).filter(|&i| seen[i]).collect();
        }
        let words = (n + 1).div_ceil(64);
        let key_words = words + coloured.len().div_ceil(2);
        let entries = (0..problem.num_options())
            .map(|k| problem.option(k).len())
            .sum();
        let links = Solver::bytes_for(n, problem.num_options(), entries);
        let memo = Memo::new(key_words);
        let zdd = Zdd::new();
        let budget = Budget::new(budget, links + 4 * memo.table.len() as u64);
        Dxz {
            colours,
            coloured,
            refs: vec![0; n + 1],
            covered: vec![0; words],
            colour: vec![0; n + 1],
            memo,
            zdd,
            budget,
            root: BOTTOM,
            solver,
        }
    }

    /// Whether DXZ's memo is exact for this problem (no multiplicities), and why not.
    pub fn applies(problem: &Problem) -> Result<(), &'static str> {
        if problem.has_multiplicities() {
            return Err(
                "with multiplicities (Algorithm M) the options still allowed at a \
                        level depend on those passed over there, not on the items alone, so \
                        a memo keyed by the items would not be exact",
            );
        }
        Ok(())
    }

    /// Sub-problems in the memo.
    pub fn memo_entries(&self) -> usize {
        self.memo.len()
    }

    /// Count the solutions, building the diagram; `run` counts nodes and may stop it.
    pub fn count<R: Control>(&mut self, run: &mut R) -> DxzResult {
        self.budget.forget_short();
        let root = if self.colours {
            self.build::<true, R>(run)
        } else {
            self.build::<false, R>(run)
        };
        self.root = root.unwrap_or(BOTTOM);
        DxzResult {
            count: root.map(|z| self.zdd.count[z as usize]),
            out_of_memory: root.is_none().then(|| self.budget.short()).flatten(),
        }
    }

    /// Report every solution of the diagram built by [`Dxz::count`] to `run`, as sorted
    /// option numbers; stops when `run.solution` asks, or `run.check` (asked every few
    /// thousand steps of the walk: a diagram may hold billions of solutions, and the walk
    /// visits no node of the search that would ask).
    pub fn enumerate<R: Control>(&self, run: &mut R) {
        let mut steps = 0u32;
        let mut chosen: Vec<usize> = Vec::new();
        let mut sorted: Vec<usize> = Vec::new();
        // Depth-first over (node, options chosen above it): hi before lo, so solutions come
        // out in the order a search finds them.
        let mut stack: Vec<(u32, usize)> = vec![(self.root, 0)];
        while let Some((z, depth)) = stack.pop() {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(4096) && run.check() {
                return;
            }
            chosen.truncate(depth);
            if z == TOP {
                sorted.clone_from(&chosen);
                sorted.sort_unstable();
                if run.solution(&sorted) {
                    return;
                }
                continue;
            }
            if z == BOTTOM {
                continue;
            }
            let zi = z as usize;
            stack.push((self.zdd.lo[zi], depth));
            chosen.push(self.zdd.opt[zi] as usize);
            stack.push((self.zdd.hi[zi], depth + 1));
        }
    }

    /// The key of the current sub-problem into `key`.
    fn key_into(&self, key: &mut Vec<u64>) {
        key.clear();
        key.extend_from_slice(&self.covered);
        for pair in self.coloured.chunks(2) {
            let mut w = 0u64;
            for (k, &i) in pair.iter().enumerate() {
                w |= (self.colour[i] as u32 as u64) << (32 * k);
            }
            key.push(w);
        }
    }

    /// Mark the items of the option of node `cur` as covered (or purified to its colour).
    fn mark(&mut self, cur: usize) {
        let [start, end] = self.solver.links.span[cur];
        for p in start as usize..end as usize {
            let node = self.solver.links.nodes[p];
            let i = node.top as usize;
            self.refs[i] += 1;
            if self.refs[i] == 1 {
                self.covered[i >> 6] |= 1 << (i & 63);
                self.colour[i] = node.color.max(0);
            }
        }
    }

    fn unmark(&mut self, cur: usize) {
        let [start, end] = self.solver.links.span[cur];
        for p in start as usize..end as usize {
            let i = self.solver.links.nodes[p].top as usize;
            self.refs[i] -= 1;
            if self.refs[i] == 0 {
                self.covered[i >> 6] &= !(1 << (i & 63));
                self.colour[i] = 0;
            }
        }
    }

    /// The search, iterative so that a problem of many levels does not exhaust the stack.
    /// Returns the root's diagram node (`None` when stopped: by the run, or by the budget,
    /// which then says why).
    fn build<const C: bool, R: Control>(&mut self, run: &mut R) -> Option<u32> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut frame_keys: Vec<u64> = Vec::new();
        let kw = self.memo.words;
        let mut children: Vec<(u32, u32)> = Vec::new();
        let mut key: Vec<u64> = Vec::with_capacity(kw);
        let (mut updates, mut hits) = (0u64, 0u64);
        if run.check() {
            return None;
        }
        // `result` is the diagram node of the sub-problem just finished; entering a new one
        // either finishes it at once (a leaf, a memo hit) or pushes a frame.
        let mut result;
        'enter: loop {
            if self.solver.links.rlink[0] == 0 {
                result = TOP;
            } else {
                self.key_into(&mut key);
                let found = self.memo.find(&key);
                if let Slot::Found(z) = found {
                    hits += 1;
                    result = z;
                } else if run.node() {
                    break 'enter;
                } else {
                    let best = self.solver.choose();
                    updates += self.solver.links.cover::<C>(best);
                    let cur = self.solver.links.nodes[best].down as usize;
                    if cur == best {
                        // An item without options: a dead end, remembered as one.
                        self.solver.links.uncover::<C>(best);
                        let Slot::Free(slot) = found else {
                            unreachable!("a key found was taken above")
                        };
                        if !self.memo.insert(&key, BOTTOM, slot, &mut self.budget) {
                            break 'enter;
                        }
                        result = BOTTOM;
                    } else {
                        frames.push(Frame {
                            best,
                            cur,
                            children: children.len(),
                        });
                        frame_keys.extend_from_slice(&key);
                        self.mark(cur);
                        updates += self.solver.links.commit_others::<C>(cur);
                        continue 'enter;
                    }
                }
            }
            // Hand `result` to the frame below, try its next option or finish it, and so on
            // down until a frame has an option left to try.
            loop {
                let Some(f) = frames.last_mut() else {
                    run.counter("updates", updates);
                    run.counter("memo hits", hits);
                    return Some(result);
                };
                let (cur, best) = (f.cur, f.best);
                self.solver.links.uncommit_others::<C>(cur);
                self.unmark(cur);
                if result != BOTTOM {
                    let opt = self.solver.option_of(cur) as u32;
                    children.push((opt, result));
                }
                let next = self.solver.links.nodes[cur].down as usize;
                if next != best {
                    if let Some(f) = frames.last_mut() {
                        f.cur = next;
                    }
                    self.mark(next);
                    updates += self.solver.links.commit_others::<C>(next);
                    continue 'enter;
                }
                let f = frames.pop().expect("still there");
                self.solver.links.uncover::<C>(f.best);
                let at = frame_keys.len() - kw;
                // Inserts below may have taken the slot seen on entry: look again.
                let Slot::Free(slot) = self.memo.find(&frame_keys[at..]) else {
                    unreachable!("a sub-problem is searched once")
                };
                if !self.zdd.room(children.len() - f.children, &mut self.budget) {
                    break 'enter;
                }
                let mut z = BOTTOM;
                for &(opt, hi) in children[f.children..].iter().rev() {
                    z = self.zdd.node(opt, hi, z);
                }
                children.truncate(f.children);
                if !self
                    .memo
                    .insert(&frame_keys[at..], z, slot, &mut self.budget)
                {
                    break 'enter;
                }
                frame_keys.truncate(at);
                result = z;
            }
        }
        // Stopped: undo the frames still open (each is trying an option) so the links are as
        // built.
        while let Some(f) = frames.pop() {
            self.solver.links.uncommit_others::<C>(f.cur);
            self.unmark(f.cur);
            self.solver.links.uncover::<C>(f.best);
        }
        run.counter("updates", updates);
        run.counter("memo hits", hits);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run that never stops and only counts.
    struct Quiet;

    impl Control for Quiet {
        fn node(&mut self) -> bool {
            false
        }
        fn check(&mut self) -> bool {
            false
        }
        fn wants_solutions(&self) -> bool {
            false
        }
        fn solution(&mut self, _: &[usize]) -> bool {
            false
        }
        fn count(&mut self, _: u128) {}
        fn counter(&mut self, _: &'static str, _: u64) {}
    }

    /// The domino tilings of a `w` x `h` board.
    fn dominoes(w: usize, h: usize) -> Problem {
        let mut p = Problem::new();
        let cells: Vec<usize> = (0..w * h).map(|s| p.add_primary(format!("c{s}"))).collect();
        for s in 0..w * h {
            if s % w + 1 < w {
                p.add_option(&[(cells[s], 0), (cells[s + 1], 0)]).unwrap();
            }
            if s + w < w * h {
                p.add_option(&[(cells[s], 0), (cells[s + w], 0)]).unwrap();
            }
        }
        p
    }

    /// The bytes the links (as counted) and the memo's and the diagram's buffers hold.
    fn held(d: &Dxz, p: &Problem) -> u64 {
        let entries = (0..p.num_options()).map(|k| p.option(k).len()).sum();
        let bytes = |cap: usize, size: usize| (cap * size) as u64;
        Solver::bytes_for(p.num_items(), p.num_options(), entries)
            + bytes(d.memo.keys.capacity(), 8)
            + bytes(d.memo.values.capacity(), 4)
            + bytes(d.memo.table.capacity(), 4)
            + bytes(d.zdd.opt.capacity(), 4)
            + bytes(d.zdd.hi.capacity(), 4)
            + bytes(d.zdd.lo.capacity(), 4)
            + bytes(d.zdd.count.capacity(), 16)
    }

    /// The memo and the diagram grow by doubling: what they hold, at the end as at every
    /// growth, stays within the budget, and a count that needs more stops, saying why.
    #[test]
    fn the_memo_holds_no_more_than_its_budget() {
        let p = dominoes(8, 8);
        for budget in [40 << 10, 64 << 10, 100 << 10, 150 << 10] {
            let mut d = Dxz::new(&p, Branch::Fewest, budget);
            let r = d.count(&mut Quiet);
            assert_eq!(r.count, None, "budget {budget}");
            assert_eq!(r.out_of_memory, Some(Short::Budget), "budget {budget}");
            assert!(held(&d, &p) <= budget, "{} > {budget}", held(&d, &p));
        }
        let mut d = Dxz::new(&p, Branch::Fewest, 1 << 30);
        let r = d.count(&mut Quiet);
        assert_eq!((r.count, r.out_of_memory), (Some(12_988_816), None));
    }
}
