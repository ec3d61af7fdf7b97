//! The search tree node by node, for a caller that splits the search into parts: a node is
//! the sequence of choices made from the root (a [`Prefix`]), [`Solver::expand`] lists a node's
//! children (the item the search would branch on there, then each of its alternatives in
//! the search's order), and [`Solver::search_below`] searches the subtree under a node on
//! its own. Both replay the node's choices on the solver's own links and undo them after,
//! so one solver serves every node, and the searches below the nodes of a frontier count
//! the nodes and updates a search of the whole tree counts below that frontier.

use super::Control;
use super::search::Solver;

/// A node of the search tree: the choice made at each level from the root, as the search
/// records it (the node of the option chosen; for Algorithm M's null choice, the header of
/// the item given no more options). The root is the empty sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prefix(Vec<u32>);

impl Prefix {
    /// The root: no choice made.
    pub fn root() -> Prefix {
        Prefix(Vec::new())
    }

    /// The level of the node (the root's is 0).
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    fn child(&self, choice: u32) -> Prefix {
        let mut c = Vec::with_capacity(self.0.len() + 1);
        c.extend_from_slice(&self.0);
        c.push(choice);
        Prefix(c)
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
}

impl Solver {
    /// The decisions that lead to `node`, from the root.
    pub fn decisions<'a>(&'a self, node: &'a Prefix) -> impl Iterator<Item = Decision> + 'a {
        node.0.iter().map(|&x| {
            let x = x as usize;
            if x <= self.n_items {
                Decision::NoMore(x)
            } else {
                Decision::Option(self.option_of(x))
            }
        })
    }

    /// The children of `node` in the search's order. The node must come from the root by
    /// expansion (as children listed here); the solver is left as it was.
    pub fn expand(&mut self, node: &Prefix) -> Expansion {
        self.enter(&node.0);
        let level = node.depth();
        let expansion = if self.links.rlink[0] == 0 {
            Expansion::Solution
        } else if self.multiplicities {
            self.expand_m(node, level)
        } else if self.colours {
            self.expand_xc::<true>(node)
        } else {
            self.expand_xc::<false>(node)
        };
        self.leave(&node.0);
        expansion
    }

    fn expand_xc<const C: bool>(&mut self, node: &Prefix) -> Expansion {
        let best = self.choose();
        let mut updates = self.links.cover::<C>(best);
        let mut children = Vec::with_capacity(self.links.len[best] as usize);
        let mut cur = self.links.nodes[best].down as usize;
        while cur != best {
            children.push(node.child(cur as u32));
            updates += self.links.commit_others::<C>(cur);
            self.links.uncommit_others::<C>(cur);
            cur = self.links.nodes[cur].down as usize;
        }
        self.links.uncover::<C>(best);
        Expansion::Children { children, updates }
    }

    fn expand_m(&mut self, node: &Prefix, level: usize) -> Expansion {
        let Some((i, mut updates)) = self.m_choose(level) else {
            return Expansion::Children {
                children: Vec::new(),
                updates: 0,
            };
        };
        let mut children = Vec::new();
        while let Some(u) = self.m_advance(level, i) {
            updates += u;
            children.push(node.child(self.choice[level]));
            if !self.m_retreat(level).1 {
                break;
            }
        }
        self.m_restore(level, i);
        Expansion::Children { children, updates }
    }

    /// Search the subtree under `node` as [`Solver::search`] searches the whole tree (whose
    /// root is [`Prefix::root`]): its nodes, solutions and updates, `node` itself included.
    /// Solutions hold the node's options too.
    pub fn search_below<R: Control>(&mut self, node: &Prefix, run: &mut R) {
        self.search_reporting(&node.0, run, None);
    }

    /// As [`Solver::search_below`], every solution going to `on_solution` as with
    /// [`Solver::search_with`].
    pub fn search_below_with<R: Control>(
        &mut self,
        node: &Prefix,
        run: &mut R,
        on_solution: &mut dyn FnMut(&mut R, &[usize]) -> bool,
    ) {
        self.search_reporting(&node.0, run, Some(on_solution));
    }

    /// Make the choices of `node`, level by level, as the search makes them on its way down.
    pub(super) fn enter(&mut self, node: &[u32]) {
        for (level, &x) in node.iter().enumerate() {
            if self.multiplicities {
                let (i, _) = self
                    .m_choose(level)
                    .expect("a node's ancestors branch (Algorithm M)");
                // The alternatives before `x` are tried and left, as the search does.
                loop {
                    self.m_advance(level, i)
                        .expect("a node's choice is one of its level's alternatives");
                    if self.choice[level] == x {
                        break;
                    }
                    let (_, more) = self.m_retreat(level);
                    debug_assert!(more, "a node's choice is one of its level's alternatives");
                }
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
    }

    /// Undo [`Solver::enter`], the deepest level first.
    pub(super) fn leave(&mut self, node: &[u32]) {
        for level in (0..node.len()).rev() {
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
    }
}
