//! One folder per kind: compile the spec into that kind's model, and that kind's strategies,
//! each a small named type. Strategies of one kind return the same [`Answer`] so `compare`
//! can put them side by side.

pub mod army;
pub(crate) mod bitset_cover;
pub mod cover;
pub mod dlx_parts;
pub mod domination;
pub mod exact_cover;
pub mod independent;
pub mod lines;
mod parts;
pub mod picture;
pub mod report;
pub mod sudoku;
pub mod tiling;
pub mod tour;
mod violation;

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::Mutex;

use crate::dlx::Problem;
use crate::engine::{Answer, Goal, Need, Outcome, Refusal, Run, StopReason, Task, Vocabulary};
use crate::spec::{Kind, KindSpec, Spec, SpecError};
use crate::util::Packed;

pub use picture::{GridRegions, ModelSummary, NoExactCover, NoGraph, Picture, SquareGraph};
pub use violation::{Line, Violation};
/// A named way to solve a kind's model.
pub trait Strategy<M>: Sync {
    fn name(&self) -> &'static str;
    /// One line for `solve strategies`.
    fn about(&self) -> &'static str;
    /// `Err(why)` when the strategy cannot take this model and task, said before any search
    /// (a piece it cannot represent, a goal it does not serve, a job beyond its reach).
    fn applies(&self, model: &M, task: &Task) -> Result<(), Refusal>;
    fn solve(&self, model: &M, task: &Task, run: &mut Run) -> Answer;
    /// The memory it will allocate for this model and task, estimated from the puzzle's size
    /// before anything is allocated: checked against [`Task::memory`] with `applies`. `None`:
    /// nothing that grows with the puzzle beyond the model (or, like `count`'s frontier,
    /// nothing known before the search, which then checks its memory as it grows).
    fn needs(&self, _model: &M, _task: &Task) -> Option<Need> {
        None
    }
    /// Whether the strategy serves `--part` and `--estimate` (a search split into a fixed
    /// list of subtrees).
    fn splits(&self) -> bool {
        false
    }
    /// Whether its goal count has two phases (the optimum, then the placements of that
    /// size) whose split second phase takes the first's result (`--optimum`).
    fn counts_at_optimum(&self) -> bool {
        false
    }
    /// Whether it counts every prefix of the board in one sweep (`--prefixes`).
    fn counts_prefixes(&self) -> bool {
        false
    }
}

/// Why a strategy cannot take the task, beyond its own `applies`.
fn task_fits<M>(s: &dyn Strategy<M>, m: &M, task: &Task) -> Result<(), Refusal> {
    if task.partial() && !s.splits() {
        // A strategy that knows why its search does not split says so in its own words.
        s.applies(m, task)?;
        return Err(Refusal::NoSplit);
    }
    if task.optimum.is_some()
        && !(s.counts_at_optimum() && task.goal == Goal::Count && task.part.is_some())
    {
        return Err(Refusal::Optimum);
    }
    if task.prefixes && !s.counts_prefixes() {
        return Err(Refusal::Prefixes);
    }
    if task.part.is_some() && task.goal == Goal::First {
        return Err(Refusal::PartOfFirst);
    }
    s.applies(m, task)?;
    if let (Some(budget), Some(need)) = (task.memory, s.needs(m, task))
        && need.bytes > budget
    {
        return Err(Refusal::Memory { need, budget });
    }
    Ok(())
}

/// A note on a count any kind may give, for the summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountNote {
    /// Counted with each solution standing for its orbit under the board's symmetries.
    SymmetryFold(u32),
    /// With `--unique`: the solutions the classes counted stand for, all of them.
    SolutionsInAll(u128),
    /// Goal count without a size to place: the solutions counted are the largest
    /// placements, of this many pieces, found first.
    LargestCounted(u64),
}

impl Vocabulary for CountNote {}

/// Pieces of one symbol on the squares of a board, as the renderers take them (independent,
/// domination).
pub(crate) fn placement(board: &crate::board::Board, symbol: char, squares: &[usize]) -> Picture {
    Picture::Placement {
        width: board.width,
        height: board.height,
        holes: board.hole_map(),
        pieces: squares.iter().map(|&s| (s, symbol)).collect(),
        mixed: false,
    }
}

/// The strategy of that name, if it takes the task; else why not.
fn find<'a, M>(
    all: &'a [&'a dyn Strategy<M>],
    m: &M,
    name: &str,
    task: &Task,
) -> Result<&'a dyn Strategy<M>, Refusal> {
    let s = all
        .iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| Refusal::UnknownStrategy {
            name: name.to_string(),
            accepted: all.iter().map(|s| s.name()).collect(),
        })?;
    task_fits(*s, m, task).map_err(|why| Refusal::DoesNotApply {
        strategy: name.to_string(),
        why: Box::new(why),
    })?;
    Ok(*s)
}

/// A compiled puzzle of any kind.
pub enum Model {
    Independent(independent::Model),
    Cover(cover::Model),
    Domination(domination::Model),
    Tour(tour::Model),
    Lines(lines::Model),
    Tiling(tiling::Model),
    Sudoku(sudoku::Model),
}

/// A run whose every solution passed the model's validator.
#[derive(Debug)]
pub struct Checked {
    pub outcome: Outcome,
    /// The first `keep` solutions found (goals first and all, [`Model::solve_checked`]), or
    /// the best one (minimize, maximize); each checked.
    pub solutions: Vec<Vec<usize>>,
    /// The clock stopped the check of the answer's compact solution: it was dropped
    /// unchecked ([`Answer::compact`] is `None`), and the run is not done.
    pub unchecked: Option<StopReason>,
}

/// Why a solution was not passed by a check that watches the clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The solution breaks a rule: this one.
    Invalid(Violation),
    /// The clock stopped the check before it was done.
    Stopped(StopReason),
}

impl From<Violation> for CheckError {
    fn from(why: Violation) -> Self {
        CheckError::Invalid(why)
    }
}

/// Why a checked solve has no outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// The strategy is unknown or does not apply to the puzzle.
    Refused(Refusal),
    /// A strategy produced a solution that the validator rejects: a bug in the strategy.
    Invalid { strategy: String, why: Violation },
}

/// A puzzle as one exact cover problem, for writing it in Knuth's format: the problem and
/// its colour names (colour code k + 1 is `colours[k]`).
pub struct ExactCoverOf<'a> {
    pub problem: Cow<'a, Problem>,
    pub colours: &'a [String],
}

/// What `solve strategies` prints for one strategy.
pub struct StrategyStatus {
    pub name: &'static str,
    pub about: &'static str,
    /// It serves `--part` for this puzzle and goal: its search splits into a fixed list of
    /// subtrees.
    pub splits: bool,
    pub applies: Result<(), Refusal>,
}

impl Model {
    pub fn compile(spec: &Spec) -> Result<Model, SpecError> {
        if spec.kind() != Kind::Domination
            && let Some((key, value)) = spec.solve.options.first()
        {
            return Err(spec.err(
                value.span(),
                &format!("solve.options.{key}"),
                format!(
                    "kind \"{}\" has no tuning options; the domination strategies have \
                     (`solve strategies` lists them)",
                    spec.kind().name()
                ),
            ));
        }
        // Only the cover kind's model carries the branching rule: its strategies alone
        // branch on an item.
        if !matches!(spec.kind(), Kind::Cover | Kind::Tiling)
            && spec.solve.branch != crate::dlx::Branch::Fewest
        {
            return Err(spec.err_nowhere(
                "solve.branch",
                format!(
                    "--branch {}: accepted by the exact-cover strategies (cover and tiling: \
                     dlx, dxz), whose search branches on an item",
                    spec.solve.branch.name()
                ),
            ));
        }
        match &spec.rules {
            KindSpec::Independent(s) => {
                Ok(Model::Independent(independent::Model::compile(spec, s)?))
            }
            KindSpec::Cover(s) => Ok(Model::Cover(cover::Model::compile(spec, s)?)),
            KindSpec::Domination(s) => Ok(Model::Domination(domination::Model::compile(spec, s)?)),
            KindSpec::Tour(s) => Ok(Model::Tour(tour::Model::compile(spec, s)?)),
            KindSpec::Lines(s) => Ok(Model::Lines(lines::Model::compile(spec, s)?)),
            KindSpec::Tiling(s) => Ok(Model::Tiling(tiling::Model::compile(spec, s)?)),
            KindSpec::Sudoku(s) => Ok(Model::Sudoku(sudoku::Model::compile(spec, s)?)),
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Model::Independent(_) => Kind::Independent,
            Model::Cover(_) => Kind::Cover,
            Model::Domination(_) => Kind::Domination,
            Model::Tour(_) => Kind::Tour,
            Model::Lines(_) => Kind::Lines,
            Model::Tiling(_) => Kind::Tiling,
            Model::Sudoku(_) => Kind::Sudoku,
        }
    }

    pub fn strategies(&self, task: &Task) -> Vec<StrategyStatus> {
        fn list<M>(all: &[&dyn Strategy<M>], m: &M, task: &Task) -> Vec<StrategyStatus> {
            // A strategy that splits some trees may not split this one (a frontier count of
            // closed tours, a goal whose parts do not add up): it is marked only where
            // `--part` is taken for this puzzle and goal.
            let split = Task {
                part: task.part.or(Some((1, 2))),
                ..*task
            };
            all.iter()
                .map(|s| StrategyStatus {
                    name: s.name(),
                    about: s.about(),
                    splits: s.splits() && task_fits(*s, m, &split).is_ok(),
                    applies: task_fits(*s, m, task),
                })
                .collect()
        }
        match self {
            Model::Independent(m) => list(independent::STRATEGIES, m, task),
            Model::Cover(m) => list(cover::STRATEGIES, m, task),
            Model::Domination(m) => list(domination::STRATEGIES, m, task),
            Model::Tour(m) => list(tour::STRATEGIES, m, task),
            Model::Lines(m) => list(lines::STRATEGIES, m, task),
            Model::Tiling(m) => list(tiling::STRATEGIES, m, task),
            Model::Sudoku(m) => list(sudoku::STRATEGIES, m, task),
        }
    }

    /// The strategy `auto` picks: the first that applies, in the kind's order of preference.
    pub fn auto_strategy(&self, task: &Task) -> Option<&'static str> {
        let preferred: &[&str] = match self {
            Model::Independent(_) => independent::PREFERENCE,
            Model::Cover(m) => cover::preference(m, task),
            Model::Domination(_) => domination::PREFERENCE,
            Model::Tour(_) => tour::PREFERENCE,
            Model::Lines(_) => lines::PREFERENCE,
            Model::Tiling(m) => tiling::preference(m, task),
            Model::Sudoku(_) => sudoku::PREFERENCE,
        };
        let all = self.strategies(task);
        preferred
            .iter()
            .copied()
            .find(|name| all.iter().any(|s| s.name == *name && s.applies.is_ok()))
    }

    /// Whether the named strategy takes the task; `Err` names the strategy and why not, as a
    /// solve would refuse it.
    pub fn applies(&self, strategy: &str, task: &Task) -> Result<(), Refusal> {
        match self {
            Model::Independent(m) => find(independent::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Cover(m) => find(cover::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Domination(m) => find(domination::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Tour(m) => find(tour::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Lines(m) => find(lines::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Tiling(m) => find(tiling::STRATEGIES, m, strategy, task).map(|_| ()),
            Model::Sudoku(m) => find(sudoku::STRATEGIES, m, strategy, task).map(|_| ()),
        }
    }

    /// Run one strategy by name. `Err` names the strategy and why it does not apply.
    pub fn solve(&self, strategy: &str, task: &Task, run: &mut Run) -> Result<Answer, Refusal> {
        match self {
            Model::Independent(m) => {
                find(independent::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Cover(m) => {
                find(cover::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Domination(m) => {
                find(domination::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Tour(m) => {
                find(tour::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Lines(m) => {
                find(lines::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Tiling(m) => {
                find(tiling::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
            Model::Sudoku(m) => {
                find(sudoku::STRATEGIES, m, strategy, task).map(|s| s.solve(m, task, run))
            }
        }
    }

    /// Run one strategy by name with every solution it reports checked by the model's
    /// validator (see [`Model::check`]) before it is kept: the tests and the benches solve
    /// through here. The run brings its limits, interrupt and progress; solutions of goals
    /// first and all are kept up to `keep`, the count stays exact.
    pub fn solve_checked(
        &self,
        strategy: &str,
        task: &Task,
        run: Run<'_>,
        keep: u64,
    ) -> Result<Checked, SolveError> {
        let mut kept: Vec<Vec<usize>> = Vec::new();
        let mut checked = self.solve_checked_with(strategy, task, run, |sol: &[usize]| {
            if (kept.len() as u64) < keep {
                kept.push(sol.to_vec());
            }
            ControlFlow::Continue(())
        })?;
        if checked.solutions.is_empty() {
            checked.solutions = kept;
        }
        Ok(checked)
    }

    /// Run one strategy by name and hand each solution it reports (goals first and all) to
    /// `show` as soon as the model's validator passed it, so that none needs to be kept:
    /// the command line writes them as they come. `show` breaking stops the search
    /// ([`StopReason::Sink`]). The best solution of an optimisation, checked, comes back in
    /// [`Checked::solutions`]; a compact solution in the outcome's answer, checked under the
    /// run's clock: when the clock stops that check, the solution is dropped
    /// ([`Checked::unchecked`]).
    pub fn solve_checked_with(
        &self,
        strategy: &str,
        task: &Task,
        run: Run<'_>,
        mut show: impl FnMut(&[usize]) -> ControlFlow<()> + Send,
    ) -> Result<Checked, SolveError> {
        let invalid: Mutex<Option<Violation>> = Mutex::new(None);
        let mut run = run;
        let clock = run.clock().clone();
        if matches!(task.goal, Goal::First | Goal::All) {
            let (show, invalid) = (&mut show, &invalid);
            run = run.with_sink(Box::new(move |sol: &[usize]| {
                if let Err(e) = self.check(sol) {
                    *invalid.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    return ControlFlow::Break(());
                }
                show(sol)
            }));
        }
        let answer = self
            .solve(strategy, task, &mut run)
            .map_err(SolveError::Refused)?;
        let mut outcome = run.finish(strategy, answer);
        // Goal first's one solution is the answer asked for, not a search cut short: a
        // solution limit is a stop only where it ends a count.
        if task.goal == Goal::First && outcome.stopped == Some(StopReason::Solutions) {
            outcome.stopped = None;
        }
        let invalid_solution = |why| SolveError::Invalid {
            strategy: strategy.to_string(),
            why,
        };
        if let Some(e) = invalid.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(invalid_solution(e));
        }
        let mut unchecked = None;
        if let Some(c) = &outcome.answer.compact {
            let mut watch = clock.watch();
            match self.check_compact_until(c, &mut || watch.stop()) {
                Ok(()) => {}
                Err(CheckError::Invalid(why)) => return Err(invalid_solution(why)),
                Err(CheckError::Stopped(reason)) => {
                    // Never shown unchecked.
                    outcome.answer.compact = None;
                    unchecked = Some(reason);
                }
            }
        }
        let mut solutions = Vec::new();
        if let Some(best) = &outcome.answer.best {
            self.check(best).map_err(invalid_solution)?;
            solutions = vec![best.clone()];
        }
        Ok(Checked {
            outcome,
            solutions,
            unchecked,
        })
    }

    /// The drawing of one solution, in the model's encoding.
    pub fn picture(&self, solution: &[usize]) -> Picture {
        match self {
            Model::Independent(m) => m.picture(solution),
            Model::Cover(m) => m.picture(solution),
            Model::Domination(m) => m.picture(solution),
            Model::Tour(m) => m.picture(solution),
            Model::Lines(m) => m.picture(solution),
            Model::Tiling(m) => m.picture(solution),
            Model::Sudoku(m) => m.picture(solution),
        }
    }

    /// The drawing of a solution in the model's compact encoding ([`Answer::compact`]): a
    /// tour's move numbers, or the column of each row's piece of a placement.
    ///
    /// [`Answer::compact`]: crate::engine::Answer::compact
    pub fn picture_compact(&self, solution: Packed) -> Option<Picture> {
        match self {
            Model::Tour(m) => Some(m.picture_numbers(solution)),
            Model::Independent(m) => Some(m.picture_rows(solution)),
            _ => None,
        }
    }

    /// Check a solution in the compact encoding before it is shown.
    pub fn check_compact(&self, solution: &Packed) -> Result<(), Violation> {
        match self {
            Model::Tour(m) => m.check_numbers(solution),
            Model::Independent(m) => {
                m.check_rows_until(solution, &mut || None)
                    .map_err(|e| match e {
                        CheckError::Invalid(why) => why,
                        CheckError::Stopped(_) => unreachable!("nothing stops the check"),
                    })
            }
            _ => Err(Violation::NoCompact(self.kind())),
        }
    }

    /// [`Model::check_compact`], asking `stop` every few thousand squares whether to give
    /// up (the deadline passed, an interrupt): a tour of 10^8 squares takes seconds.
    pub fn check_compact_until(
        &self,
        solution: &Packed,
        stop: &mut dyn FnMut() -> Option<StopReason>,
    ) -> Result<(), CheckError> {
        match self {
            Model::Tour(m) => m.check_numbers_until(solution, stop),
            Model::Independent(m) => m.check_rows_until(solution, stop),
            _ => Err(Violation::NoCompact(self.kind()).into()),
        }
    }

    /// The model's move graph, with a solution's edges (compact encoding) marked, for
    /// `--format dot`; only kinds with a move graph have one.
    pub fn move_graph(&self, solution: Option<&Packed>) -> Result<SquareGraph, NoGraph> {
        match self {
            Model::Tour(m) => m.move_graph(solution),
            _ => Err(NoGraph::Kind(self.kind())),
        }
    }

    /// The puzzle as one exact cover problem, as `solve` would search it with goal `goal`: a
    /// cover puzzle's own, or the one the independent kind's `dlx` strategy builds (N-Queens
    /// in Knuth's item order). The other kinds' Dancing Links models are not one fixed
    /// problem (domination lowers a count item until none is left), so they are refused:
    /// `Err` says why.
    pub fn exact_cover(&self, goal: Goal, unique: bool) -> Result<ExactCoverOf<'_>, Refusal> {
        match self {
            Model::Cover(m) => Ok(ExactCoverOf {
                problem: Cow::Borrowed(&*m.problem),
                colours: m.colours(),
            }),
            Model::Independent(m) => Ok(ExactCoverOf {
                problem: Cow::Owned(independent::exact_cover(m, goal)?),
                colours: &[],
            }),
            Model::Tiling(m) if unique => Ok(ExactCoverOf {
                problem: Cow::Owned(m.exact_cover_up_to_symmetry()?),
                colours: m.colours(),
            }),
            Model::Tiling(m) => Ok(ExactCoverOf {
                problem: Cow::Borrowed(&*m.problem),
                colours: m.colours(),
            }),
            Model::Sudoku(m) => Ok(ExactCoverOf {
                problem: Cow::Owned(m.cover()?.problem),
                colours: &[],
            }),
            Model::Domination(_) | Model::Tour(_) | Model::Lines(_) => {
                Err(NoExactCover(self.kind()).into())
            }
        }
    }

    /// Check a solution against the model's rules before it is shown.
    pub fn check(&self, solution: &[usize]) -> Result<(), Violation> {
        match self {
            Model::Independent(m) => m.check(solution),
            Model::Cover(m) => m.check(solution),
            Model::Domination(m) => m.check(solution),
            Model::Tour(m) => m.check(solution),
            Model::Lines(m) => m.check(solution),
            Model::Tiling(m) => m.check(solution),
            Model::Sudoku(m) => m.check(solution),
        }
    }

    /// What the model compiled from `spec` holds, its piece named as the file wrote it, with
    /// the Betza form the solver reads it as in brackets where they differ ("K (WF)").
    pub fn describe_as_written(&self, spec: &Spec) -> ModelSummary {
        let mut summary = self.describe();
        let written = spec.rules.piece().and_then(|p| p.moves.as_deref());
        if let (
            Some(written),
            ModelSummary::Independent { piece, .. }
            | ModelSummary::Domination { piece, .. }
            | ModelSummary::Tour { piece, .. },
        ) = (written, &mut summary)
            && written != piece
        {
            *piece = format!("{written} ({piece})");
        }
        summary
    }

    /// What the model holds, for `check`, `strategies` and `compare`.
    pub fn describe(&self) -> ModelSummary {
        match self {
            Model::Independent(m) => ModelSummary::Independent {
                count: (!m.largest).then_some(m.count),
                piece: m.piece.notation(),
                width: m.board.width,
                height: m.board.height,
                mixed: m.army.as_ref().map(army::Army::summary).unwrap_or_default(),
                givens: m.army.as_ref().map_or(0, |a| a.givens.len()),
            },
            Model::Cover(m) => ModelSummary::Cover {
                items: m.problem.num_items(),
                primary: m.problem.num_primary(),
                options: m.problem.num_options(),
            },
            Model::Tour(m) => m.describe(),
            Model::Domination(m) => m.describe(),
            Model::Lines(m) => m.describe(),
            Model::Tiling(m) => m.describe(),
            Model::Sudoku(m) => m.describe(),
        }
    }
}

/// Every kind's strategies with a line each, for `solve strategies` without a file.
/// A strategy in the catalogue: its name, its line of description, whether it takes `--part`.
/// Whether [`Model::exact_cover`] writes a puzzle of `kind` as one exact cover problem (for
/// `--format knuth-input`): what the refusals list as the kinds it takes. A test holds the
/// two together.
pub fn writes_exact_cover(kind: Kind) -> bool {
    match kind {
        Kind::Independent | Kind::Cover | Kind::Tiling | Kind::Sudoku => true,
        Kind::Domination | Kind::Tour | Kind::Lines => false,
    }
}

/// The kinds [`Model::exact_cover`] writes, in the order of [`Kind::ALL`].
pub fn exact_cover_kinds() -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|&k| writes_exact_cover(k))
        .collect()
}

pub type Entry = (&'static str, &'static str, bool);

pub fn catalogue() -> Vec<(&'static str, Vec<Entry>)> {
    fn names<M>(all: &[&dyn Strategy<M>]) -> Vec<Entry> {
        all.iter()
            .map(|s| (s.name(), s.about(), s.splits()))
            .collect()
    }
    vec![
        ("independent", names(independent::STRATEGIES)),
        ("domination", names(domination::STRATEGIES)),
        ("cover", names(cover::STRATEGIES)),
        ("tour", names(tour::STRATEGIES)),
        ("lines", names(lines::STRATEGIES)),
        ("tiling", names(tiling::STRATEGIES)),
        ("sudoku", names(sudoku::STRATEGIES)),
    ]
}
