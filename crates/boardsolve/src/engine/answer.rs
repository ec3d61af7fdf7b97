//! What a strategy returns and what a run makes of it: the [`Answer`], with its partial
//! results and notes, and the [`Outcome`] with its status.
//!
//! Notes and reasons are each kind's own vocabulary (a tour's theorem, a count's symmetry
//! fold): the engine carries them as [`Note`] and [`Reason`] without knowing what they say,
//! and render, which knows the kinds, turns them into sentences.

use std::any::Any;
use std::fmt::Debug;
use std::time::Duration;

use super::{Stats, StopReason};
use crate::util::Natural;

/// What a strategy returns. Solutions themselves went to the sink.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// Number of solutions (or of classes with `unique`); `None`: take the run's count.
    pub count: Option<u128>,
    /// Best objective value found (minimize / maximize).
    pub optimum: Option<u64>,
    /// A best solution (minimize / maximize), in the model's encoding.
    pub best: Option<Vec<usize>>,
    /// Why there is no solution, when known without search (a theorem, a counting argument).
    pub reason: Option<Reason>,
    /// The answer was proven before a limit struck (e.g. an optimum whose bound closed).
    pub proven_despite_limit: bool,
    /// The search covered only part of the tree (`--part`) or estimated it (`--estimate`):
    /// what was done. Such an answer is never proven on its own.
    pub partial: Option<Partial>,
    /// What else the summary should say about how the answer was reached.
    pub notes: Vec<Note>,
    /// A solution too large to pass through the sink as `usize`s, in the model's compact
    /// encoding (a tour's move number per square, packed: 27 bits a square on a board of
    /// 10^8).
    pub compact: Option<crate::util::Packed>,
    /// The count where it outgrew `u128` (then `count` is `None`).
    pub big: Option<Natural>,
    /// Counts of the board's prefixes (the first m squares in the strategy's sweep order,
    /// the rest as holes), where a strategy counts them all in one sweep.
    pub prefixes: Vec<Prefix>,
    /// A sweep's states after each square, in its order (a frontier count), up to where it
    /// stopped: where the board is widest for the method.
    pub frontier: Vec<u64>,
}

/// The count of one prefix of the board: its first `squares` squares in the sweep order,
/// of which `cells` are not holes.
#[derive(Clone, Debug, PartialEq)]
pub struct Prefix {
    pub squares: usize,
    pub cells: usize,
    pub count: Natural,
}

impl Answer {
    pub fn count(count: u128) -> Answer {
        Answer {
            count: Some(count),
            ..Answer::default()
        }
    }

    /// A count of any size: a `u128` where it fits.
    pub fn natural(count: Natural) -> Answer {
        match count.to_u128() {
            Some(c) => Answer::count(c),
            None => Answer {
                big: Some(count),
                ..Answer::default()
            },
        }
    }

    /// The count, whatever its size.
    pub fn exact_count(&self) -> Option<Natural> {
        self.big.clone().or(self.count.map(Natural::from))
    }

    pub fn none_because(reason: impl Into<Reason>) -> Answer {
        Answer {
            count: Some(0),
            reason: Some(reason.into()),
            ..Answer::default()
        }
    }

    pub(super) fn no_solution(&self) -> bool {
        self.optimum.is_none() && self.best.is_none() && self.count == Some(0)
    }
}

/// A search split into a fixed list of subtrees, of which one run did a part (`--part`) or
/// sized the tree (`--estimate`). The N parts of one list, run anywhere, together stand for
/// the whole search.
#[derive(Clone, Debug, PartialEq)]
pub struct Partial {
    /// The tree's list of subtrees, the same for any number of threads.
    pub list: SubtreeList,
    /// `(i, n)`: every n-th subtree from the i-th (1-based); `None`: the whole list.
    pub part: Option<(usize, usize)>,
    /// A part split once more: its subtrees' descendants, every m-th from the j-th.
    pub subpart: Option<Subpart>,
    /// Subtrees (or, in a subpart, descendants) this run took.
    pub taken: usize,
    pub work: PartialWork,
}

/// The list every part of one search cuts alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubtreeList {
    /// Subtrees in the list.
    pub subtrees: usize,
    /// The objective value the subtrees are searched below (the best known at the split);
    /// `None` for a count.
    pub bar: Option<u64>,
    /// A hash of every subtree's decisions: parts agree on the list when this agrees.
    pub fingerprint: u64,
}

/// Part I's subtrees taken a few levels down, so that M subparts share one heavy part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subpart {
    /// `(j, m)`: every m-th descendant from the j-th (1-based).
    pub index: (usize, usize),
    /// Descendants listed below the part's subtrees.
    pub descendants: usize,
    /// The part's own subtrees, whose descendants these are.
    pub of_subtrees: usize,
    /// A hash of the descendants' decisions, as [`SubtreeList::fingerprint`].
    pub fingerprint: u64,
}

/// What a part or estimate did with its subtrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PartialWork {
    /// Every subtree taken was searched: none holds a solution better than `none_below`.
    Searched { none_below: u64 },
    /// Every subtree taken was searched and its solutions counted (the answer's count).
    Counted,
    /// Every subtree taken was searched for the largest solution: none is larger than
    /// `none_above` (goal maximize).
    SearchedAbove { none_above: u64 },
    /// Every subtree taken was searched for its largest solution, none larger than
    /// `largest`, and the solutions of that size counted (the answer's count): goal count
    /// of the largest placements, whose size each part finds for itself.
    CountedLargest { largest: u64 },
    /// A limit stopped the search before every subtree taken was searched.
    NotAllSearched,
    /// A limit stopped the part before its subtrees' descendants were listed.
    StoppedBeforeDescendants,
    /// The subtrees taken were sized by Knuth's estimator, not searched; `None` when a limit
    /// struck before the first probe ended.
    Estimated(Option<TreeEstimate>),
}

/// Knuth's estimate of a search tree's size and of the work it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeEstimate {
    /// Nodes, the mean over the probes.
    pub nodes: f64,
    pub probes: u64,
    /// Standard error of the mean, relative to it.
    pub relative_error: f64,
    /// Seconds of one thread's work.
    pub work_seconds: f64,
    /// The threads the search would run on (the `--threads` of the estimate).
    pub threads: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Solved,
    NoSolution,
    Limit,
    /// One part of a split search (`--part`), searched to the end: an answer only together
    /// with the other parts (`solve merge`).
    Part,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no-solution",
            Status::Limit => "limit",
            Status::Part => "part",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    pub strategy: String,
    pub proven: bool,
    pub stopped: Option<StopReason>,
    pub elapsed: Duration,
    pub stats: Stats,
    pub answer: Answer,
}

impl Outcome {
    /// A count stopped at its solution limit: `count` is the limit, and at least so many
    /// solutions exist.
    pub fn count_capped(&self) -> bool {
        self.stopped == Some(StopReason::Solutions)
    }

    /// Whether the answer is whole: proven, and not a count stopped at its limit.
    pub fn complete(&self) -> bool {
        self.proven && !self.count_capped()
    }
}

/// A kind's own word on an answer: a type that says one fact (an enum of a kind's notes, of
/// its reasons, of its refusals), marked by this trait so that it converts into a [`Note`],
/// a [`Reason`] or a [`KindRefusal`].
pub trait Vocabulary: Any + Debug + Clone + PartialEq + Send + Sync {}

/// What the engine needs of a kind's word: to copy it, compare it and hand it back as its own
/// type. Every [`Vocabulary`] type has it.
trait Carried: Debug + Send + Sync {
    fn copy(&self) -> Box<dyn Carried>;
    fn same(&self, other: &dyn Carried) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: Vocabulary> Carried for T {
    fn copy(&self) -> Box<dyn Carried> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Carried) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Notes, reasons and refusals: a kind's word, carried opaquely, read back as the kind's type.
macro_rules! carried {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name(Box<dyn Carried>);

        impl $name {
            /// The kind's own word, if it is of type `T`.
            pub fn get<T: Vocabulary>(&self) -> Option<&T> {
                self.0.as_any().downcast_ref()
            }
        }

        impl<T: Vocabulary> From<T> for $name {
            fn from(word: T) -> $name {
                $name(Box::new(word))
            }
        }

        impl Clone for $name {
            fn clone(&self) -> $name {
                $name(self.0.copy())
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &$name) -> bool {
                self.0.same(&*other.0)
            }
        }
    };
}

carried!(
    /// A fact about how an answer was reached, for the summary line: one of a kind's notes,
    /// or the engine's own [`RunNote`].
    Note
);

carried!(
    /// Why a puzzle has no solution, when known: a theorem, a counting argument or a
    /// finished search, in the words of the kind that found it.
    Reason
);

carried!(
    /// Why a strategy does not take a task, in the words of the kind that refuses it (a
    /// board beyond its reach, a piece it does not build): one of a kind's refusals.
    KindRefusal
);

/// The engine's own notes, on how a run went whatever the kind.
#[derive(Clone, Debug, PartialEq)]
pub enum RunNote {
    /// The search counted more nodes than `--node-limit` allowed: it stops only between
    /// steps of several nodes (a listing of subtrees, a batch of a hot loop, a block).
    NodeLimitPassed { limit: u64 },
}

impl Vocabulary for RunNote {}
