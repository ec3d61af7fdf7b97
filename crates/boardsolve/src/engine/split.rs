//! Cutting a search into parts (`--part I/N`, `--part I/N,J/M`) the same way on any machine.
//!
//! A strategy that splits describes its tree by a root, a way to expand a node into its
//! children, and a key for each node's decisions; [`cut`] lists the tree's frontier level by
//! level until it holds enough subtrees for the parts asked, and hands back the subtrees this
//! part takes. Sound for any tree: the frontier's nodes lie under no one another and their
//! subtrees hold every leaf of the tree (a node with no children to expand into stays on the
//! list as its own subtree, a node with none at all holds no leaf), so the N parts, each
//! dealt its share of the subtrees, search the tree once between them. The list depends only
//! on the model, the part count and the strategy's expansion, never on the threads or the
//! machine; its fingerprint, in every part's record, shows that parts run apart cut one list.

use super::{Partial, PartialWork, Run, Subpart, SubtreeList, Task};
/// The hash kinds key their subtrees with, where they list them.
pub use crate::util::Fingerprint;

/// Subtrees a list holds at least for each part, so that parts come out near equal in work
/// even where a few subtrees hold most of it.
const LIST_PER_PART: usize = 16;
/// Subtrees a list holds at least with any part count: fine enough that two parts of a
/// search whose subtrees differ by orders of magnitude (pentominoes) come out within a few
/// percent of each other, and that each part's threads balance.
const LIST_MIN: usize = 256;
/// Levels the list goes down at most: below, the tree is too thin to split further.
const LIST_DEPTH: usize = 64;

/// Subtrees a list for `n` parts holds at least (where the tree has as many).
pub fn list_len(n: usize) -> usize {
    (LIST_PER_PART * n).max(LIST_MIN)
}

/// Every n-th item from the i-th (1-based): the share of part `i` of `n`.
pub fn every_nth<T>(items: Vec<T>, i: usize, n: usize) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(k, _)| k % n == i - 1)
        .map(|(_, t)| t)
        .collect()
}

/// The share of part `i` of `n` dealt as cards are dealt back and forth (1, 2, .., n, n, ..,
/// 2, 1, 1, 2, ..): where sizes fall along the list (a search tries its likeliest branches
/// first, so the first siblings are often the heaviest), every part gets heavy and light
/// subtrees alike.
pub fn dealt<T>(items: Vec<T>, i: usize, n: usize) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(k, _)| {
            let (round, seat) = (k / n, k % n);
            let seat = if round % 2 == 0 { seat } else { n - 1 - seat };
            seat == i - 1
        })
        .map(|(_, t)| t)
        .collect()
}

/// What expanding a node gives.
pub enum Expand<N> {
    /// The node's children, in the strategy's order (none: the node holds no solution).
    Children(Vec<N>),
    /// The node does not branch (a solution, or a node the strategy searches whole).
    Leaf,
    /// The node stands for several subtrees (a run of siblings), here as smaller groups of
    /// them: no node of the tree is expanded.
    Apart(Vec<N>),
}

/// The subtrees one part searches, and what its record says of them.
pub struct Cut<N> {
    pub nodes: Vec<N>,
    /// The partial result, its work still [`PartialWork::NotAllSearched`]: the strategy says
    /// what the search found with [`Cut::finish`].
    pub partial: Partial,
    /// Nodes the listing expanded that this part counts as its own: part 1 (subpart 1 of it)
    /// counts the list's ancestors, subpart 1 of each part the nodes between the part's
    /// subtrees and their descendants, so that the parts' nodes add up to one run's.
    pub above: u64,
}

impl<N> Cut<N> {
    /// The partial result once the part's subtrees were searched: `work` (counted, or what
    /// an optimisation proved of them) unless a limit stopped the run first.
    pub fn finish(mut self, run: &Run, work: PartialWork) -> Partial {
        if !run.is_stopped() {
            self.partial.work = work;
        }
        self.partial
    }
}

/// The frontier below `roots` with at least `target` nodes, or as close as the tree allows
/// within `depth` levels; the nodes expanded on the way. `None` when a limit struck.
fn frontier<N>(
    roots: Vec<N>,
    target: usize,
    depth: usize,
    run: &mut Run,
    expand: &mut impl FnMut(&N, &mut Run) -> Expand<N>,
) -> Option<(Vec<N>, u64)> {
    let mut list = roots;
    let mut expanded = 0;
    for _ in 0..depth {
        if list.len() >= target {
            break;
        }
        let mut next = Vec::with_capacity(list.len() * 2);
        let mut grew = false;
        for node in list {
            if run.is_stopped() {
                return None;
            }
            match expand(&node, run) {
                Expand::Children(children) => {
                    expanded += 1;
                    grew = true;
                    next.extend(children);
                }
                Expand::Apart(groups) => {
                    grew = true;
                    next.extend(groups);
                }
                Expand::Leaf => next.push(node),
            }
        }
        list = next;
        if !grew {
            break;
        }
    }
    Some((list, expanded))
}

fn fingerprint_of<N>(nodes: &[N], key: &impl Fn(&N, &mut Fingerprint)) -> u64 {
    let mut f = Fingerprint::default();
    f.eat(nodes.len() as u64);
    for n in nodes {
        key(n, &mut f);
    }
    f.value()
}

/// The subtrees of part `task.part` (and subpart `task.subpart`) of the tree under `root`:
/// the frontier holding at least 16 subtrees a part (at least 256), dealt to the N parts
/// back and forth ([`dealt`]); for a subpart, those subtrees' own frontier with at least 4
/// descendants a subpart (at most 4 levels further), dealt to the M subparts alike. `bar`: the objective value an optimisation searches
/// below, the same in every part. `None` when the task asks for no part or a limit stopped
/// the listing.
pub fn cut<N>(
    task: &Task,
    run: &mut Run,
    root: N,
    bar: Option<u64>,
    mut expand: impl FnMut(&N, &mut Run) -> Expand<N>,
    key: impl Fn(&N, &mut Fingerprint),
) -> Option<Cut<N>> {
    let (i, n) = task.part?;
    let target = list_len(n);
    let (list, top) = frontier(vec![root], target, LIST_DEPTH, run, &mut expand)?;
    let mut partial = Partial {
        list: SubtreeList {
            subtrees: list.len(),
            bar,
            fingerprint: fingerprint_of(&list, &key),
        },
        part: Some((i, n)),
        subpart: None,
        taken: 0,
        work: PartialWork::NotAllSearched,
    };
    let mine = dealt(list, i, n);
    let first = i == 1 && task.subpart.is_none_or(|(j, _)| j == 1);
    let mut above = if first { top } else { 0 };
    let mine = match task.subpart {
        None => mine,
        Some((j, m)) => {
            let of_subtrees = mine.len();
            let Some((below, between)) = frontier(mine, 4 * m, 4, run, &mut expand) else {
                partial.work = PartialWork::StoppedBeforeDescendants;
                return Some(Cut {
                    nodes: Vec::new(),
                    partial,
                    above,
                });
            };
            // `frontier` stops at once on a list already long enough; a part's own subtrees
            // are one level at least above their descendants when the part can be split.
            partial.subpart = Some(Subpart {
                index: (j, m),
                descendants: below.len(),
                of_subtrees,
                fingerprint: fingerprint_of(&below, &key),
            });
            if j == 1 {
                above += between;
            }
            dealt(below, j, m)
        }
    };
    partial.taken = mine.len();
    Some(Cut {
        nodes: mine,
        partial,
        above,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Goal, Limits};

    /// A complete binary tree of depth 12 whose leaves are its solutions: the parts count
    /// 4,096 between them, whatever the part count, nested or not.
    fn count_part(part: (usize, usize), subpart: Option<(usize, usize)>) -> (u64, u64, Partial) {
        let task = Task {
            goal: Goal::Count,
            part: Some(part),
            subpart,
            ..Task::default()
        };
        let mut run = Run::new(Limits::default());
        let expand = |&(d, _): &(u32, u64), _: &mut Run| {
            if d == 12 {
                Expand::Leaf
            } else {
                Expand::Children(vec![(d + 1, 0), (d + 1, 1)])
            }
        };
        let key = |&(d, b): &(u32, u64), f: &mut Fingerprint| {
            f.eat(u64::from(d));
            f.eat(b);
        };
        let cut = cut(&task, &mut run, (0, 0), None, expand, key).unwrap();
        let leaves: u64 = cut.nodes.iter().map(|&(d, _)| 1 << (12 - d)).sum();
        let above = cut.above;
        (leaves, above, cut.finish(&run, PartialWork::Counted))
    }

    #[test]
    fn parts_cover_the_tree_once() {
        for n in [1, 2, 3, 7, 64, 300] {
            let (mut leaves, mut above, mut list) = (0, 0, None);
            for i in 1..=n {
                let (l, a, p) = count_part((i, n), None);
                assert_eq!(p.work, PartialWork::Counted);
                assert!(list.is_none_or(|f| f == p.list.fingerprint));
                list = Some(p.list.fingerprint);
                leaves += l;
                above += a;
            }
            assert_eq!(leaves, 4096, "n = {n}");
            // The list's ancestors: the internal nodes above its level, counted once.
            let levels = (LIST_PER_PART * n)
                .max(LIST_MIN)
                .next_power_of_two()
                .min(4096);
            assert_eq!(above, levels as u64 - 1, "n = {n}");
        }
    }

    #[test]
    fn subparts_cover_a_part_once() {
        let (whole, _, _) = count_part((2, 3), None);
        let mut sum = 0;
        for j in 1..=5 {
            let (l, _, p) = count_part((2, 3), Some((j, 5)));
            let sub = p.subpart.unwrap();
            assert!(sub.descendants >= 20);
            sum += l;
        }
        assert_eq!(sum, whole);
    }

    #[test]
    fn lists_differ_by_part_count_and_agree_within_one() {
        let (_, _, a) = count_part((1, 2), None);
        let (_, _, b) = count_part((2, 2), None);
        let (_, _, c) = count_part((1, 100), None);
        assert_eq!(a.list, b.list);
        assert_ne!(a.list.fingerprint, c.list.fingerprint);
    }
}
