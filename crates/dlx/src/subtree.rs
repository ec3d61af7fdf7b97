//! The search tree node by node, for a caller that splits the search into parts: a node is
//! the sequence of choices made from the root (a [`Prefix`]), [`Solver::expand`] lists a node's
//! children (the item the search would branch on there, then each of its alternatives in
//! the search's order), and [`Solver::search_below`] searches the subtree under a node on
//! its own. Both bring the solver's own links to the node from the one they were at (the
//! choices that differ undone and made), so one solver serves every node, a list of nodes in
//! the search's order costs what the search spends reaching them, and the searches below the
//! nodes of a frontier count the nodes and updates a search of the whole tree counts below
//! that frontier.

use super::Control;
use super::search::{Solver, Visitor};

/// A node of the search tree: the choice made at each level from the root, as the search
/// records it (the node of the option chosen; for Algorithm M's null choice, the header of
/// the item given no more options). The root is the empty sequence. A node may stand for a
/// run of siblings: the one its choices name and those the search tries after it, `run` in
/// all, so that a level of more children than a list needs is cut into runs of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prefix {
    path: Vec<u32>,
    run: u32,
}

impl Prefix {
    /// The root: no choice made.
    pub fn root() -> Prefix {
        Prefix {
            path: Vec::new(),
            run: 1,
        }
    }

    /// The level of the node (the root's is 0).
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The siblings the node stands for, itself the first (1: a node alone).
    pub fn run(&self) -> usize {
        self.run as usize
    }

    /// The run of `len` siblings from `choice` (at least one) below `parent`'s choices.
    fn runs_from(parent: &[u32], choice: u32, len: usize) -> Prefix {
        let mut path = Vec::with_capacity(parent.len() + 1);
        path.extend_from_slice(parent);
        path.push(choice);
        Prefix {
            path,
            run: len as u32,
        }
    }
}

/// One decision on the way to a node, as the problem numbers things.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// This option (its index as given to `add_option`) was chosen.
    Option(usize),
    /// Algorithm M's null choice: the primary item (its index as the solver numbers the
    /// primary items, from 1) takes no more options.
    NoMore(usize),
}

/// What a node of the search tree holds below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// Every primary item is covered: the node is a solution and branches no further.
    Solution,
    /// The node's children in the order the search tries them (none: a dead end), and the
    /// updates the search makes at the node itself: covering the item it branches on and
    /// taking each child's option (what a search of the children's subtrees does not count).
    Children { children: Vec<Prefix>, updates: u64 },
    /// The node is a run of siblings: the same subtrees as shorter runs, in order (no node of
    /// the tree expanded, no update made).
    Runs(Vec<Prefix>),
}

/// `choices` (siblings below `parent`, in the search's order) as at most `most` runs, as
/// near equal in length as they divide.
fn runs(parent: &[u32], choices: &[u32], most: usize) -> Vec<Prefix> {
    let c = choices.len();
    let g = c.min(most.max(1));
    (0..g)
        .map(|k| {
            let (start, end) = (k * c / g, (k + 1) * c / g);
            Prefix::runs_from(parent, choices[start], end - start)
        })
        .collect()
}

/// The visitor again, for one more search.
fn reborrow<'a, R>(visitor: &'a mut Option<Visitor<'_, R>>) -> Option<Visitor<'a, R>> {
    match visitor {
        Some(v) => Some(&mut **v),
        None => None,
    }
}

impl Solver {
    /// The decisions that lead to `node`, from the root (for a run, to its first sibling).
    pub fn decisions<'a>(&'a self, node: &'a Prefix) -> impl Iterator<Item = Decision> + 'a {
        node.path.iter().map(|&x| {
            let x = x as usize;
            if x <= self.n_items {
                Decision::NoMore(x)
            } else {
                Decision::Option(self.option_of(x))
            }
        })
    }

    /// The children of `node` in the search's order, as at most `most` runs of siblings
    /// where there are more (a run of siblings: shorter runs). The node must come from the
    /// root by expansion (as children listed here); the links are left at `node` (a run's
    /// last sibling).
    pub fn expand(&mut self, node: &Prefix, most: usize) -> Expansion {
        self.go_to(&node.path);
        let level = node.depth();
        if node.run > 1 {
            let mut members = Vec::with_capacity(node.run());
            members.push(self.choice[level - 1]);
            for _ in 1..node.run {
                self.next_sibling(level - 1);
                members.push(self.choice[level - 1]);
            }
            return Expansion::Runs(runs(&node.path[..level - 1], &members, most));
        }
        let (choices, updates) = if self.links.rlink[0] == 0 {
            return Expansion::Solution;
        } else if self.multiplicities {
            self.expand_m(level)
        } else if self.colours {
            self.expand_xc::<true>()
        } else {
            self.expand_xc::<false>()
        };
        Expansion::Children {
            children: runs(&node.path, &choices, most),
            updates,
        }
    }

    /// The options tried at the node the links are at, and the updates made there.
    fn expand_xc<const C: bool>(&mut self) -> (Vec<u32>, u64) {
        let best = self.choose();
        let mut updates = self.links.cover::<C>(best);
        let mut choices = Vec::with_capacity(self.links.len[best] as usize);
        let mut cur = self.links.nodes[best].down as usize;
        while cur != best {
            choices.push(cur as u32);
            updates += self.links.commit_others::<C>(cur);
            self.links.uncommit_others::<C>(cur);
            cur = self.links.nodes[cur].down as usize;
        }
        self.links.uncover::<C>(best);
        (choices, updates)
    }

    fn expand_m(&mut self, level: usize) -> (Vec<u32>, u64) {
        let Some((i, mut updates)) = self.m_choose(level) else {
            return (Vec::new(), 0);
        };
        let mut choices = Vec::new();
        while let Some(u) = self.m_advance(level, i) {
            updates += u;
            choices.push(self.choice[level]);
            if !self.m_retreat(level).1 {
                break;
            }
        }
        self.m_restore(level, i);
        (choices, updates)
    }

    /// Search the subtree under `node` as [`Solver::search`] searches the whole tree (whose
    /// root is [`Prefix::root`]): its nodes, solutions and updates, `node` itself included
    /// (for a run, the subtrees of its siblings one after another). Solutions hold the node's
    /// options too. The links are left at `node` (a run's last sibling), so that the next
    /// node a caller takes in the search's order is reached by the choices that differ.
    pub fn search_below<R: Control>(&mut self, node: &Prefix, run: &mut R) {
        self.search_run(node, run, None);
    }

    /// As [`Solver::search_below`], every solution going to `on_solution` as with
    /// [`Solver::search_with`].
    pub fn search_below_with<R: Control>(
        &mut self,
        node: &Prefix,
        run: &mut R,
        on_solution: &mut dyn FnMut(&mut R, &[usize]) -> bool,
    ) {
        self.search_run(node, run, Some(on_solution));
    }

    fn search_run<R: Control>(
        &mut self,
        node: &Prefix,
        run: &mut R,
        mut visitor: Option<Visitor<'_, R>>,
    ) {
        if self.search_reporting(&node.path, run, reborrow(&mut visitor)) {
            return;
        }
        for _ in 1..node.run {
            self.next_sibling(node.depth() - 1);
            if self.search_here(run, reborrow(&mut visitor)) {
                return;
            }
        }
    }

    /// Move the choice at `level`, the deepest one entered, to the alternative the search
    /// tries next (there is one). Its updates are the parent's, counted where it is expanded.
    fn next_sibling(&mut self, level: usize) {
        if self.multiplicities {
            let (i, more) = self.m_retreat(level);
            debug_assert!(more, "a run's siblings follow one another");
            self.m_advance(level, i)
                .expect("a run's siblings follow one another");
        } else {
            let x = self.choice[level] as usize;
            let next = self.links.nodes[x].down;
            debug_assert!(next as i32 != self.links.nodes[x].top, "a next sibling");
            if self.colours {
                self.links.uncommit_others::<true>(x);
                self.links.commit_others::<true>(next as usize);
            } else {
                self.links.uncommit_others::<false>(x);
                self.links.commit_others::<false>(next as usize);
            }
            self.choice[level] = next;
        }
    }

    /// Bring the links from the node they are at to `node`: undo the choices below the level
    /// where the two paths part, change that level's choice, and make the rest of `node`'s.
    /// Siblings in the search's order are one change apart, so walking a list of nodes costs
    /// what the search spends on them, not a replay from the root for each (which, on a level
    /// of many options, costs a cover of the level's item for each of them).
    pub(super) fn go_to(&mut self, node: &[u32]) {
        let depth = self.entered;
        let common = (0..depth.min(node.len()))
            .take_while(|&l| self.choice[l] == node[l])
            .count();
        for level in (common + 1..depth).rev() {
            self.leave_level(level);
        }
        match (depth > common, node.len() > common) {
            (true, true) => self.switch_level(common, node[common]),
            (true, false) => self.leave_level(common),
            (false, true) => self.enter_level(common, node[common]),
            (false, false) => {}
        }
        for (level, &x) in node.iter().enumerate().skip(common + 1) {
            self.enter_level(level, x);
        }
        self.entered = node.len();
    }

    /// Make choice `x` at `level`, the levels above it entered, as the search makes it on its
    /// way down.
    fn enter_level(&mut self, level: usize, x: u32) {
        if self.multiplicities {
            let (i, _) = self
                .m_choose(level)
                .expect("a node's ancestors branch (Algorithm M)");
            assert!(
                self.m_seek(level, i, x),
                "a node's choice is one of its level's alternatives"
            );
        } else {
            let best = self.links.nodes[x as usize].top as usize;
            debug_assert_eq!(best, self.choose(), "the item the search branches on");
            if self.colours {
                self.links.cover::<true>(best);
                self.links.commit_others::<true>(x as usize);
            } else {
                self.links.cover::<false>(best);
                self.links.commit_others::<false>(x as usize);
            }
            self.choice[level] = x;
        }
    }

    /// Undo the choice at `level`, the deepest one entered.
    fn leave_level(&mut self, level: usize) {
        if self.multiplicities {
            let (i, _) = self.m_retreat(level);
            self.m_restore(level, i);
        } else {
            let x = self.choice[level] as usize;
            let best = self.links.nodes[x].top as usize;
            if self.colours {
                self.links.uncommit_others::<true>(x);
                self.links.uncover::<true>(best);
            } else {
                self.links.uncommit_others::<false>(x);
                self.links.uncover::<false>(best);
            }
        }
    }

    /// Change the choice at `level`, the deepest one entered, to its sibling `x`. Algorithms
    /// X and C swap the options, the item staying covered. Algorithm M tries the
    /// alternatives from the current one on, as the search does (the options passed over are
    /// tweaked away), and starts the level again only when `x` comes before it.
    fn switch_level(&mut self, level: usize, x: u32) {
        if self.multiplicities {
            let (i, more) = self.m_retreat(level);
            if more {
                if self.m_seek(level, i, x) {
                    return;
                }
            } else {
                self.m_restore(level, i);
            }
            self.enter_level(level, x);
        } else {
            let old = self.choice[level] as usize;
            debug_assert_eq!(
                self.links.nodes[old].top, self.links.nodes[x as usize].top,
                "siblings branch on one item"
            );
            if self.colours {
                self.links.uncommit_others::<true>(old);
                self.links.commit_others::<true>(x as usize);
            } else {
                self.links.uncommit_others::<false>(old);
                self.links.commit_others::<false>(x as usize);
            }
            self.choice[level] = x;
        }
    }

    /// Algorithm M at `level`, item `i` chosen and `choice[level]` the next alternative to
    /// take: take the alternatives in turn, leaving each, until `x` is taken (`true`), or
    /// none is left and the level is restored (`false`).
    fn m_seek(&mut self, level: usize, i: usize, x: u32) -> bool {
        loop {
            if self.m_advance(level, i).is_none() {
                self.m_restore(level, i);
                return false;
            }
            if self.choice[level] == x {
                return true;
            }
            if !self.m_retreat(level).1 {
                self.m_restore(level, i);
                return false;
            }
        }
    }
}
