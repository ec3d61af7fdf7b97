//! The solver: the flat arrays laid out once from a [`Problem`], and Algorithms X and C, the
//! search loop of DLX1 and DLX2 for problems whose primary items are each covered once. The
//! entry points here also pick Algorithm M (`algorithm_m.rs`) when a range asks for it.

use super::links::{Links, Node};
use super::problem::Problem;
use super::{Branch, Control};

/// A caller's handler for each solution; `true` means stop.
pub(super) type Visitor<'a, R> = &'a mut dyn FnMut(&mut R, &[usize]) -> bool;

/// The Dancing Links solver: the flat arrays built once from a [`Problem`].
#[derive(Clone, Debug)]
pub struct Solver {
    pub(super) links: Links,
    /// The state before any search, restored after a search cut short by a limit (a finished
    /// search restores it by itself).
    pristine: Links,
    pub(super) slack: Vec<u32>,
    /// Number of items N; items are 1..=N, the primary ones 1..=n_primary.
    pub(super) n_items: usize,
    pub(super) n_primary: usize,
    pub(super) colours: bool,
    pub(super) multiplicities: bool,
    /// Which item Algorithms X and C branch on.
    pub(super) branch: Branch,
    /// The node chosen at each level (an item header for Algorithm M's null choice).
    pub(super) choice: Vec<u32>,
    /// Algorithm M: the first node tweaked at each level.
    pub(super) first_tweak: Vec<u32>,
    /// Levels whose choices the links hold (`choice[..entered]`): the node a caller that
    /// splits the search last expanded or searched below, where the next one starts from.
    pub(super) entered: usize,
    solution: Vec<usize>,
}

impl Solver {
    /// The bytes [`Solver::new`] allocates for a problem of `items` items, `options` options
    /// and `entries` item occurrences in them: a node (16 bytes) and its option's span (8)
    /// for each item, spacer and occurrence, four links an item, all twice (the pristine
    /// copy); the item numbering and slack; three words a level.
    pub fn bytes_for(items: usize, options: usize, entries: usize) -> u64 {
        let (items, options, entries) = (items as u64, options as u64, entries as u64);
        let nodes = items + 2 + options + entries;
        let levels = options + items + 1;
        2 * (24 * nodes + 16 * (items + 1)) + 8 * items + 16 * levels
    }

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
            branch: Branch::Fewest,
            choice: vec![0; levels],
            first_tweak: vec![0; levels],
            entered: 0,
            solution: Vec::with_capacity(levels),
        }
    }

    /// Branch on the item `branch` picks (Algorithms X and C; Algorithm M keeps DLX3's rule,
    /// and a caller refuses [`Branch::First`] with multiplicities).
    pub fn set_branch(&mut self, branch: Branch) {
        self.branch = branch;
    }

    /// The item Algorithms X and C branch on (some primary item is uncovered).
    #[inline(always)]
    pub(super) fn choose(&self) -> usize {
        match self.branch {
            Branch::Fewest => self.links.mrv(),
            Branch::First => at!(self.links.rlink, 0) as usize,
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
        self.search_reporting(&[], run, None);
    }

    /// As [`Solver::search`], but every solution goes to `on_solution(run, options)` instead
    /// (`true` from it means stop): for callers that translate or filter solutions before
    /// they reach the run, as a board kind maps options back to squares.
    pub fn search_with<R: Control>(
        &mut self,
        run: &mut R,
        on_solution: &mut dyn FnMut(&mut R, &[usize]) -> bool,
    ) {
        self.search_reporting(&[], run, Some(on_solution));
    }

    /// Search the subtree under `node` (the root: the whole tree), reporting as
    /// [`Solver::search_with`] does when `visitor` is given; `true` when stopped. The links
    /// are left at `node` (as built after a search of the whole tree, or one a limit
    /// stopped).
    pub(super) fn search_reporting<R: Control>(
        &mut self,
        node: &[u32],
        run: &mut R,
        visitor: Option<Visitor<'_, R>>,
    ) -> bool {
        // Checking now lets the engine bring its first check forward to a small node limit.
        if run.check() {
            return true;
        }
        self.go_to(node);
        self.search_here(run, visitor)
    }

    /// Search the subtree under the node the links are at; `true` when stopped.
    pub(super) fn search_here<R: Control>(
        &mut self,
        run: &mut R,
        mut visitor: Option<Visitor<'_, R>>,
    ) -> bool {
        let report = visitor.is_some() || run.wants_solutions();
        let base = self.entered;
        let v = &mut visitor;
        let (updates, stopped) = match (self.multiplicities, self.colours) {
            (true, _) => self.search_m(run, report, v, base),
            (false, true) => self.search_xc::<true, R>(run, report, v, base),
            (false, false) => self.search_xc::<false, R>(run, report, v, base),
        };
        if stopped {
            self.links.clone_from(&self.pristine);
            self.entered = 0;
        }
        run.counter("updates", updates);
        stopped
    }

    /// The option of a node: the spacer that ends it knows its number.
    pub(super) fn option_of(&self, mut p: usize) -> usize {
        while self.links.nodes[p].top > 0 {
            p += 1;
        }
        (-self.links.nodes[p].top - 1) as usize
    }

    /// Report the solution made of the options of `choice[..levels]` (headers, Algorithm M's
    /// null choices, skipped); `true` means stop.
    pub(super) fn visit<R: Control>(
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

    /// Algorithms X and C (every primary item has range [1, 1]), as DLX1 and DLX2 do them,
    /// from level `base` (the choices below it already made: 0 for the whole tree) until
    /// the search backs down to it. Returns (updates, stopped).
    fn search_xc<const C: bool, R: Control>(
        &mut self,
        run: &mut R,
        report: bool,
        visitor: &mut Option<Visitor<'_, R>>,
        base: usize,
    ) -> (u64, bool) {
        let mut updates: u64 = 0;
        let mut level = base;
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
                best = self.choose();
                updates += self.links.cover::<C>(best);
                cur = at!(self.links.nodes, best).down as usize;
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
                if level == base {
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
}
