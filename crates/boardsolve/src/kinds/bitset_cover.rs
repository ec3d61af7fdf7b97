//! The bitset search of plain exact covers, which kinds cover and tiling run as `bitmask`: at
//! most 512 items, each option a bitset of its items (`W` words of 64 bits), the covered
//! items one such bitset. The search branches on the
//! first uncovered primary item in a static order chosen from the problem, and tries only
//! the options whose first item in that order is that item: every earlier item is covered,
//! so any other option containing it clashes anyway. A node is a few word operations per
//! candidate option, with nothing to undo, so it is far cheaper than a Dancing Links node,
//! though the fixed order searches more of them.
//!
//! The order (see [`order`]) follows the problem's shape: it starts at the item with the
//! fewest other primary items beside it in options (a corner of a board), and goes on with
//! the item the largest share of whose options touch the items already ordered (the next
//! square along the edge of the region covered so far). A small class of items of which
//! every option holds exactly one (the pieces of a tiling) comes last: once every other
//! item is covered, so are they.

use crate::dlx::{Branch, Problem};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::exact_cover::ExactCoverRefusal;

#[path = "bitset_cover_estimate.rs"]
mod estimate;
#[path = "bitset_cover_fits.rs"]
mod fits;

/// The most items (primary and secondary) the bitsets hold: eight words.
pub const MAX_ITEMS: usize = 512;

/// Why the bitsets cannot hold `p`, if they cannot (any kind whose model is a cover asks).
pub fn refuses(p: &Problem) -> Option<ExactCoverRefusal> {
    if p.has_colours() {
        Some(ExactCoverRefusal::BitmaskColours)
    } else if p.has_multiplicities() {
        Some(ExactCoverRefusal::BitmaskMultiplicities)
    } else if p.num_items() > MAX_ITEMS {
        Some(ExactCoverRefusal::BitmaskItems {
            items: p.num_items(),
            max: MAX_ITEMS,
        })
    } else {
        None
    }
}

/// The memory the search of `p` takes.
pub fn need(p: &Problem) -> Need {
    let words = p.num_items().div_ceil(64).max(1) as u64;
    // A bitset and an option number for each option, twice while the order is chosen.
    let bytes = 2 * p.num_options() as u64 * (8 * words + 8) + 64 * p.num_items() as u64;
    Need::new(
        bytes,
        format!(
            "a bitset of {} words for each of {} options",
            words,
            crate::util::numbers::group(p.num_options() as u128)
        ),
    )
}

/// Search `p` (which [`refuses`] takes) for the run's goal: each solution reported as the
/// problem's option numbers, or their count.
pub fn solve(p: &Problem, branch: Branch, threads: usize, run: &mut Run) -> Answer {
    match p.num_items().div_ceil(64) {
        0 | 1 => search::<1>(p, branch, threads, run),
        2 => search::<2>(p, branch, threads, run),
        3 | 4 => search::<4>(p, branch, threads, run),
        _ => search::<8>(p, branch, threads, run),
    }
    Answer::default()
}

/// Whether `auto` runs `bitmask` rather than `dlx` on `p`: the bitsets hold it, the goal is
/// every solution or their count (a first solution is found sooner by `dlx`'s fewest-options
/// branching than either tree's size says), the branching rule is the default, and the
/// estimated time of its tree is the smaller, on a search long enough for the choice to
/// matter. The kind has checked the rest of the task (`--unique`, an objective).
fn suits(p: &Problem, branch: Branch, task: &Task) -> bool {
    if !matches!(task.goal, Goal::Count | Goal::All)
        || branch != Branch::Fewest
        || refuses(p).is_some()
    {
        return false;
    }
    let e = match p.num_items().div_ceil(64) {
        0 | 1 => estimate_with::<1>(p),
        2 => estimate_with::<2>(p),
        3 | 4 => estimate_with::<4>(p),
        _ => estimate_with::<8>(p),
    };
    e.dlx_ns >= WORTH_A_CHOICE_NS && e.bitmask_ns < e.dlx_ns
}

/// The strategies `auto` tries on a kind whose model is one exact cover, in order: `bitmask`
/// where the kind's strategy takes the task (`takes`) and [`suits`] says so, else `dlx`.
pub fn preference(
    takes: bool,
    p: &Problem,
    branch: Branch,
    task: &Task,
) -> &'static [&'static str] {
    if takes && suits(p, branch, task) {
        &["bitmask", "dlx"]
    } else {
        &["dlx"]
    }
}

/// Below this estimate for `dlx` the choice saves nothing a user would notice, and `dlx`,
/// the reference (its updates counted, its solutions in Knuth's order), runs.
const WORTH_A_CHOICE_NS: f64 = 10e6;

fn estimate_with<const W: usize>(p: &Problem) -> estimate::Estimate {
    let order = order(p, Branch::Fewest);
    let bits = Bits::<W>::new(p, &order);
    if order.is_empty() {
        return estimate::Estimate {
            bitmask_ns: 0.0,
            dlx_ns: 0.0,
        };
    }
    estimate::estimate(&bits, p.num_items())
}

/// The primary items in the order the search branches on them. With `Branch::First`, the
/// order they were declared in.
pub fn order(p: &Problem, branch: Branch) -> Vec<usize> {
    let n = p.num_items();
    let primary: Vec<usize> = (0..n).filter(|&i| p.is_primary(i)).collect();
    if branch == Branch::First {
        return primary;
    }
    let options: Vec<&[(usize, u32)]> = (0..p.num_options()).map(|k| p.option(k)).collect();
    // The options of each item, and the primary items beside each (a bitset of n bits).
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let words = n.div_ceil(64).max(1);
    let mut beside = vec![0u64; n * words];
    for (k, o) in options.iter().enumerate() {
        for &(i, _) in o.iter() {
            occurs[i].push(k);
            for &(j, _) in o.iter() {
                if j != i && p.is_primary(j) {
                    beside[i * words + j / 64] |= 1 << (j % 64);
                }
            }
        }
    }
    let neighbours = |i: usize| -> u32 {
        beside[i * words..][..words]
            .iter()
            .map(|w| w.count_ones())
            .sum()
    };
    // A class: primary items no two of which share an option, taken greedily from the most
    // connected, that every option meets exactly once.
    let mut by_reach = primary.clone();
    by_reach.sort_by_key(|&i| (std::cmp::Reverse(neighbours(i)), i));
    let mut class = vec![false; n];
    let mut class_bits = vec![0u64; words];
    for &i in &by_reach {
        let row = &beside[i * words..][..words];
        if row.iter().zip(&class_bits).all(|(a, b)| a & b == 0) {
            class[i] = true;
            class_bits[i / 64] |= 1 << (i % 64);
        }
    }
    let size = primary.iter().filter(|&&i| class[i]).count();
    let meets_once = options
        .iter()
        .all(|o| o.iter().filter(|&&(i, _)| class[i]).count() == 1);
    // A class small beside the rest goes last: covering the rest decides it. One as large as
    // the rest (the rows of N-Queens, each option one square of a row) goes first, in the
    // order declared: each choice in it rules out options of the next.
    let first = meets_once && 2 * size > primary.len() - size;
    if !meets_once {
        class.iter_mut().for_each(|c| *c = false);
    }
    // Options of each item that touch no ordered item yet.
    let mut free: Vec<usize> = occurs.iter().map(Vec::len).collect();
    let touched = vec![std::cell::Cell::new(false); options.len()];
    let mut placed = vec![false; n];
    let mut out = Vec::with_capacity(primary.len());
    // Order item `i` next: its options are touched, and no longer free for their items.
    let place = |i: usize, out: &mut Vec<usize>, placed: &mut [bool], free: &mut [usize]| {
        placed[i] = true;
        out.push(i);
        for &k in &occurs[i] {
            if !touched[k].replace(true) {
                for &(j, _) in options[k] {
                    free[j] -= 1;
                }
            }
        }
    };
    if first {
        for &i in primary.iter().filter(|&&i| class[i]) {
            place(i, &mut out, &mut placed, &mut free);
        }
    } else {
        for &i in primary.iter().filter(|&&i| class[i]) {
            placed[i] = true;
        }
    }
    // Every primary item is ordered, the class last ones after the loop.
    let last = meets_once && !first;
    let rest = if last {
        primary.len() - size
    } else {
        primary.len()
    };
    while out.len() < rest {
        let candidates = primary.iter().copied().filter(|&i| !placed[i]);
        let next = if out.is_empty() {
            candidates.min_by_key(|&i| (neighbours(i), free[i], i))
        } else {
            // The largest share of options touched: touched[i] / all[i], compared as
            // cross products; then the fewest free options.
            candidates.max_by(|&a, &b| {
                let (ta, tb) = (occurs[a].len() - free[a], occurs[b].len() - free[b]);
                (ta * occurs[b].len())
                    .cmp(&(tb * occurs[a].len()))
                    .then(free[b].cmp(&free[a]))
                    .then(b.cmp(&a))
            })
        };
        let Some(next) = next else { break };
        place(next, &mut out, &mut placed, &mut free);
    }
    if !last {
        return out;
    }
    let mut tail: Vec<usize> = primary.iter().copied().filter(|&i| class[i]).collect();
    tail.sort_by_key(|&i| (occurs[i].len(), i));
    out.extend(tail);
    out
}

/// The options as bitsets, grouped by their first primary item in the order.
struct Bits<const W: usize> {
    /// The options of group `g` are `bits[first[g]..first[g + 1]]`.
    first: Vec<u32>,
    bits: Vec<[u64; W]>,
    /// The problem's number of each option in `bits`.
    ids: Vec<u32>,
    /// The primary items' bits (positions 0..primary in the order).
    primary: [u64; W],
}

impl<const W: usize> Bits<W> {
    /// The position of the first uncovered primary item; `covered` leaves one.
    #[inline]
    fn first_open(&self, covered: &[u64; W]) -> usize {
        let open = covered
            .iter()
            .zip(&self.primary)
            .enumerate()
            .find_map(|(w, (c, p))| {
                let open = !c & p;
                (open != 0).then(|| w * 64 + open.trailing_zeros() as usize)
            });
        open.expect("a state searched below leaves a primary item uncovered")
    }

    /// The options whose first primary item (in the order) is at `item`.
    #[inline]
    fn group(&self, item: usize) -> &[[u64; W]] {
        &self.bits[self.first[item] as usize..self.first[item + 1] as usize]
    }

    fn new(p: &Problem, order: &[usize]) -> Bits<W> {
        let n = p.num_items();
        // An item left out of the order would be searched as secondary: a wrong count.
        assert_eq!(order.len(), (0..n).filter(|&i| p.is_primary(i)).count());
        let mut pos = vec![0usize; n];
        for (k, &i) in order.iter().enumerate() {
            pos[i] = k;
        }
        let mut next = order.len();
        for (i, slot) in pos.iter_mut().enumerate() {
            if !p.is_primary(i) {
                *slot = next;
                next += 1;
            }
        }
        let mut groups: Vec<Vec<(u32, [u64; W])>> = vec![Vec::new(); order.len()];
        for k in 0..p.num_options() {
            let mut b = [0u64; W];
            let mut lead = usize::MAX;
            for &(i, _) in p.option(k) {
                b[pos[i] / 64] |= 1 << (pos[i] % 64);
                if p.is_primary(i) {
                    lead = lead.min(pos[i]);
                }
            }
            // Every option holds a primary item (the problem refuses one without).
            groups[lead].push((k as u32, b));
        }
        let mut first = Vec::with_capacity(order.len() + 1);
        let mut bits = Vec::with_capacity(p.num_options());
        let mut ids = Vec::with_capacity(p.num_options());
        first.push(0);
        for g in groups {
            for (k, b) in g {
                ids.push(k);
                bits.push(b);
            }
            first.push(bits.len() as u32);
        }
        let mut primary = [0u64; W];
        for q in 0..order.len() {
            primary[q / 64] |= 1 << (q % 64);
        }
        Bits {
            first,
            bits,
            ids,
            primary,
        }
    }
}

/// The search's state: nodes counted here and handed to the run in batches.
struct Walk<'a, 'r, const W: usize> {
    bits: &'a Bits<W>,
    run: &'a mut Run<'r>,
    /// Nodes not yet handed to the run, and how many more before the next hand-over.
    nodes: u64,
    until_check: u64,
    solutions: u128,
    /// The options chosen on the current path (problem numbers), for a reported solution.
    path: Vec<usize>,
}

/// The search below a node, as a method named `$name` that finds a chunk's fitting options
/// with `$fits`, compiled for the processor features `$features` where given: the same
/// code, with wider vector instructions where the processor has them.
macro_rules! below_with {
    ($name:ident, $fits:path $(, $features:literal)?) => {
        impl<const W: usize> Walk<'_, '_, W> {
            /// Search below `covered`, which leaves a primary item uncovered; `true` means
            /// stop. With `EACH` false, solutions are only counted: an option that completes
            /// the cover is counted where it is found, without a call for its node.
            $(#[target_feature(enable = $features)])?
            fn $name<const EACH: bool>(&mut self, covered: &[u64; W]) -> bool {
                self.nodes += 1;
                if self.nodes >= self.until_check {
                    self.run.count(std::mem::take(&mut self.solutions));
                    if self.run.nodes(std::mem::take(&mut self.nodes)) {
                        return true;
                    }
                    self.until_check = self.run.nodes_until_check();
                }
                let bits = self.bits;
                let item = bits.first_open(covered);
                let (a, b) = (bits.first[item] as usize, bits.first[item + 1] as usize);
                // The group's options that fit, 64 at a time, then those in order.
                let mut base = a;
                while base < b {
                    let chunk = &bits.bits[base..b.min(base + 64)];
                    let mut fit = $fits(chunk, covered);
                    while fit != 0 {
                        let k = base + fit.trailing_zeros() as usize;
                        fit &= fit - 1;
                        let o = &bits.bits[k];
                        let mut next = [0u64; W];
                        let mut open = 0;
                        for w in 0..W {
                            next[w] = o[w] | covered[w];
                            open |= !next[w] & bits.primary[w];
                        }
                        if EACH {
                            self.path.push(bits.ids[k] as usize);
                            let stop = if open == 0 {
                                self.nodes += 1;
                                self.run.solution(&self.path)
                            } else {
                                self.$name::<EACH>(&next)
                            };
                            self.path.pop();
                            if stop {
                                return true;
                            }
                        } else if open == 0 {
                            self.nodes += 1;
                            self.solutions += 1;
                        } else if self.$name::<EACH>(&next) {
                            return true;
                        }
                    }
                    base += chunk.len();
                }
                false
            }
        }
    };
}

below_with!(below, fits::portable);
#[cfg(target_arch = "x86_64")]
below_with!(below_avx2, fits::avx2, "popcnt,bmi1,avx2");

fn search<const W: usize>(p: &Problem, branch: Branch, threads: usize, run: &mut Run) {
    let order = order(p, branch);
    let bits = Bits::<W>::new(p, &order);
    let each = run.reports_each();
    if order.is_empty() {
        // Nothing to cover: the empty choice is the one solution.
        run.nodes(1);
        if each {
            run.solution(&[]);
        } else {
            run.count(1);
        }
    } else if each {
        walk::<W, true>(&bits, &[0; W], run);
    } else if threads > 1 {
        let (states, solutions, nodes) = frontier(&bits, SUBTREES_PER_THREAD * threads);
        run.count(solutions);
        if !run.nodes(nodes) {
            run.share_out(&states, threads, |from, child| {
                walk::<W, false>(&bits, from, child);
            });
        }
    } else {
        walk::<W, false>(&bits, &[0; W], run);
    }
}

/// Whether option `o` holds an item of `covered`.
fn clashes<const W: usize>(o: &[u64; W], covered: &[u64; W]) -> bool {
    (0..W).any(|w| o[w] & covered[w] != 0)
}

/// Whether `covered` holds every primary item.
fn done<const W: usize>(covered: &[u64; W], primary: &[u64; W]) -> bool {
    (0..W).all(|w| !covered[w] & primary[w] == 0)
}

/// Subtrees for each thread when a count is shared out: enough that threads finishing early
/// find more, as the subtrees' sizes vary by orders of magnitude.
const SUBTREES_PER_THREAD: usize = 64;

/// Search below `from` (a primary item uncovered), counting or reporting each solution.
fn walk<const W: usize, const EACH: bool>(bits: &Bits<W>, from: &[u64; W], run: &mut Run) {
    let until_check = run.nodes_until_check();
    let mut walk = Walk {
        bits,
        run,
        nodes: 0,
        until_check,
        solutions: 0,
        path: Vec::with_capacity(64 * W + 1),
    };
    #[cfg(target_arch = "x86_64")]
    if fits::has_avx2() {
        // SAFETY: the processor has the features `below_avx2` is compiled for.
        unsafe { walk.below_avx2::<EACH>(from) };
    } else {
        walk.below::<EACH>(from);
    }
    #[cfg(not(target_arch = "x86_64"))]
    walk.below::<EACH>(from);
    let (nodes, solutions) = (walk.nodes, walk.solutions);
    run.count(solutions);
    run.nodes(nodes);
}

/// The states (covered items) at the first depth of the tree with at least `want` of them,
/// or every open state of the tree if it has fewer; with the solutions found above them and
/// the nodes expanded on the way.
fn frontier<const W: usize>(bits: &Bits<W>, want: usize) -> (Vec<[u64; W]>, u128, u64) {
    let mut level = vec![[0u64; W]];
    let (mut solutions, mut nodes) = (0u128, 0u64);
    while !level.is_empty() && level.len() < want {
        let mut next = Vec::new();
        for covered in &level {
            nodes += 1;
            let item = bits.first_open(covered);
            for o in bits.group(item) {
                if clashes(o, covered) {
                    continue;
                }
                let mut state = *covered;
                (0..W).for_each(|w| state[w] |= o[w]);
                if done(&state, &bits.primary) {
                    nodes += 1;
                    solutions += 1;
                } else {
                    next.push(state);
                }
            }
        }
        level = next;
    }
    (level, solutions, nodes)
}
