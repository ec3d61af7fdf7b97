//! Why a strategy does not take a task, said before any search: the [`Refusal`]. The engine
//! holds the refusals every kind shares (an option the strategy does not serve, a goal it
//! leaves to others, a memory budget too small), and carries each kind's own as a
//! [`KindRefusal`]; render says them.

use super::{Goal, KindRefusal, Need, Vocabulary};

/// Why a strategy cannot take a model and task.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// No strategy of the kind has that name; `accepted`: the kind's strategies.
    UnknownStrategy {
        name: String,
        accepted: Vec<&'static str>,
    },
    /// The named strategy exists and refuses the task, for `why`.
    DoesNotApply { strategy: String, why: Box<Refusal> },
    /// `--part` or `--estimate` for a strategy whose search does not split into subtrees.
    NoSplit,
    /// `--optimum` for a strategy, goal or run that does not count at a given optimum.
    Optimum,
    /// `--prefixes` for a strategy that does not sweep the board square by square.
    Prefixes,
    /// `--part` with goal first, whose parts do not add up.
    PartOfFirst,
    /// The strategy's estimate of its memory passes the budget (`--memory`).
    Memory { need: Need, budget: u64 },
    /// The goal is served by other strategies of the kind.
    Goal {
        goal: Goal,
        served_by: &'static [&'static str],
    },
    /// `--estimate` for a strategy that splits with `--part` but does not size its tree.
    EstimateUnsized,
    /// `--part` with an objective the strategy searches whole.
    PartOfObjective(Goal),
    /// `--estimate` for the Dancing Links search.
    DlxEstimate,
    /// `--part` with a goal other than count and all for the Dancing Links search.
    DlxPartGoal(Goal),
    /// A refusal in the words of the kind that makes it.
    Kind(KindRefusal),
}

/// A kind's refusal (a type of its vocabulary) is a [`Refusal::Kind`].
impl<T: Vocabulary> From<T> for Refusal {
    fn from(why: T) -> Refusal {
        Refusal::Kind(KindRefusal::from(why))
    }
}
