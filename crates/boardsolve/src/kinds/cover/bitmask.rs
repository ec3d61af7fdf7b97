//! `bitmask`: plain exact covers of at most 512 items, each option a bitset of its items
//! (`W` words of 64 bits), the covered items one such bitset. The search branches on the
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

use super::Model;
use super::vocab::CoverRefusal;
use crate::dlx::{Branch, Problem};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::Strategy;

/// The most items (primary and secondary) the bitsets hold: eight words.
pub const MAX_ITEMS: usize = 512;

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "options as bitsets of at most 512 items (no colours, no multiplicities), branching on \
         the first uncovered item of an order taken from the problem"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.unique {
            return Err(CoverRefusal::Unique {
                break_in_options: true,
            }
            .into());
        }
        if matches!(task.goal, Goal::Minimize | Goal::Maximize) {
            return Err(CoverRefusal::NoObjective.into());
        }
        let p = &m.problem;
        if p.has_colours() {
            return Err(CoverRefusal::BitmaskColours.into());
        }
        if p.has_multiplicities() {
            return Err(CoverRefusal::BitmaskMultiplicities.into());
        }
        if p.num_items() > MAX_ITEMS {
            return Err(CoverRefusal::BitmaskItems {
                items: p.num_items(),
                max: MAX_ITEMS,
            }
            .into());
        }
        Ok(())
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        let p = &m.problem;
        let words = p.num_items().div_ceil(64).max(1) as u64;
        // A bitset and an option number for each option, twice while the order is chosen.
        let bytes = 2 * p.num_options() as u64 * (8 * words + 8) + 64 * p.num_items() as u64;
        Some(Need::new(
            bytes,
            format!(
                "a bitset of {} words for each of {} options",
                words,
                crate::util::numbers::group(p.num_options() as u128)
            ),
        ))
    }
    fn solve(&self, m: &Model, _task: &Task, run: &mut Run) -> Answer {
        let p = &m.problem;
        match p.num_items().div_ceil(64) {
            0 | 1 => search::<1>(p, m.branch, run),
            2 => search::<2>(p, m.branch, run),
            3 | 4 => search::<4>(p, m.branch, run),
            _ => search::<8>(p, m.branch, run),
        }
        Answer::default()
    }
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
    // Only a class small beside the rest goes last: covering the rest must decide it.
    if !meets_once || 2 * size > primary.len() - size {
        class.iter_mut().for_each(|c| *c = false);
    }
    // Options of each item that touch no ordered item yet.
    let mut free: Vec<usize> = occurs.iter().map(Vec::len).collect();
    let mut touched = vec![false; options.len()];
    let mut placed = class.clone();
    let mut out = Vec::with_capacity(primary.len());
    let rest = primary.iter().filter(|&&i| !class[i]).count();
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
        placed[next] = true;
        out.push(next);
        for &k in &occurs[next] {
            if !touched[k] {
                touched[k] = true;
                for &(j, _) in options[k] {
                    free[j] -= 1;
                }
            }
        }
    }
    let mut last: Vec<usize> = primary.iter().copied().filter(|&i| class[i]).collect();
    last.sort_by_key(|&i| (occurs[i].len(), i));
    out.extend(last);
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
    fn new(p: &Problem, order: &[usize]) -> Bits<W> {
        let n = p.num_items();
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
    each: bool,
    solutions: u128,
    /// The options chosen on the current path (problem numbers), for a reported solution.
    path: Vec<usize>,
}

impl<const W: usize> Walk<'_, '_, W> {
    /// Search below `covered`; `true` means stop.
    fn below(&mut self, covered: &[u64; W]) -> bool {
        self.nodes += 1;
        if self.nodes >= self.until_check {
            self.run.count(std::mem::take(&mut self.solutions));
            if self.run.nodes(std::mem::take(&mut self.nodes)) {
                return true;
            }
            self.until_check = self.run.nodes_until_check();
        }
        let mut item = usize::MAX;
        for w in 0..W {
            let open = !covered[w] & self.bits.primary[w];
            if open != 0 {
                item = w * 64 + open.trailing_zeros() as usize;
                break;
            }
        }
        if item == usize::MAX {
            if self.each {
                if self.run.solution(&self.path) {
                    return true;
                }
            } else {
                self.solutions += 1;
            }
            return false;
        }
        let bits = self.bits;
        let (a, b) = (bits.first[item] as usize, bits.first[item + 1] as usize);
        for k in a..b {
            let o = &bits.bits[k];
            let mut clash = 0;
            for w in 0..W {
                clash |= o[w] & covered[w];
            }
            if clash != 0 {
                continue;
            }
            let mut next = *covered;
            for w in 0..W {
                next[w] |= o[w];
            }
            self.path.push(bits.ids[k] as usize);
            let stop = self.below(&next);
            self.path.pop();
            if stop {
                return true;
            }
        }
        false
    }
}

fn search<const W: usize>(p: &Problem, branch: Branch, run: &mut Run) {
    let order = order(p, branch);
    let bits = Bits::<W>::new(p, &order);
    let until_check = run.nodes_until_check();
    let each = run.reports_each();
    let mut walk = Walk {
        bits: &bits,
        run,
        nodes: 0,
        until_check,
        each,
        solutions: 0,
        path: Vec::with_capacity(order.len() + 1),
    };
    walk.below(&[0; W]);
    let (nodes, solutions) = (walk.nodes, walk.solutions);
    run.count(solutions);
    run.nodes(nodes);
}
