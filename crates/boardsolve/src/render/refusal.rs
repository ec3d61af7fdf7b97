//! The sentences of a [`Refusal`]: why a strategy does not take a task.

use super::kind_refusal::kind_refusal;
use crate::engine::{Need, Refusal};

/// Why a strategy does not take the task, as `check`, `strategies` and a refused solve say
/// it.
pub fn refusal_text(r: &Refusal) -> String {
    match r {
        Refusal::UnknownStrategy { name, accepted } => format!(
            "unknown strategy \"{name}\"; accepted: auto, {}",
            accepted.join(", ")
        ),
        Refusal::DoesNotApply { strategy, why } => {
            format!(
                "strategy \"{strategy}\" does not apply: {}",
                refusal_text(why)
            )
        }
        Refusal::NoSplit => "--part and --estimate: accepted only by strategies that split \
                             their search into a fixed list of subtrees (`solve strategies` \
                             marks them)"
            .into(),
        Refusal::Optimum => "--optimum: accepted with goal count and --part by strategies \
                             that count at an optimum found first (domination: bnb, bands): \
                             the optimum the parts count at"
            .into(),
        Refusal::Prefixes => "--prefixes: accepted by strategies that sweep the board once, \
                              square by square (tour: count, for closed tours without a start)"
            .into(),
        Refusal::PartOfFirst => "--part: accepted for goals count, all, minimize and \
                                 maximize, whose parts add up (a first solution needs no \
                                 parts: any part may hold one)"
            .into(),
        Refusal::Memory { need, budget } => memory_refusal(need, *budget),
        Refusal::Goal { goal, served_by } => {
            let by = match served_by.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => "no strategy".into(),
            };
            format!("goal {} is served by {by}", goal.name())
        }
        Refusal::EstimateUnsized => "--estimate: sized only by the strategies that estimate \
                                     their tree (domination: bnb, bands); this one splits \
                                     with --part"
            .into(),
        Refusal::PartOfObjective(goal) => format!(
            "--part: accepted with goals count and all; goal {} is searched whole",
            goal.name()
        ),
        Refusal::DlxEstimate => {
            "--estimate is not served by the Dancing Links search (--part is)".into()
        }
        Refusal::DlxPartGoal(goal) => format!(
            "--part: accepted for goals count and all here, not {}",
            goal.name()
        ),
        Refusal::Kind(why) => kind_refusal(why),
    }
}

/// Why a strategy is refused before it allocates: what it would take, and what the budget
/// allows.
fn memory_refusal(need: &Need, budget: u64) -> String {
    let (n, b) = crate::util::numbers::bytes_apart(need.bytes, budget);
    let what = match need.what.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "its work".into(),
    };
    format!("it would take {n} for {what}, more than the memory budget of {b} (--memory)")
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&refusal_text(self))
    }
}

impl std::error::Error for Refusal {}

/// Why no strategy takes a task, from every strategy's status: one reason where all give
/// the same (an option no strategy of the kind takes), else a line per strategy.
pub fn no_strategy_text(all: &[crate::kinds::StrategyStatus]) -> String {
    let reasons: Vec<&Refusal> = all
        .iter()
        .filter_map(|s| s.applies.as_ref().err())
        .collect();
    if let Some(first) = reasons.first()
        && reasons.len() == all.len()
        && reasons.iter().all(|r| r == first)
    {
        return format!(
            "no strategy applies to this puzzle: {}",
            refusal_text(first)
        );
    }
    let why: Vec<String> = all
        .iter()
        .filter_map(|s| {
            let e = s.applies.as_ref().err()?;
            Some(format!("{}: {}", s.name, refusal_text(e)))
        })
        .collect();
    format!(
        "no strategy applies to this puzzle:\n  {}",
        why.join("\n  ")
    )
}
