//! Searching one part of a strategy's tree (`--part I/N`, `--part I/N,J/M`), shared by the
//! kinds whose strategies split through [`engine::split::cut`](crate::engine::split::cut):
//! the part's subtrees searched on the task's threads (one after another on the run itself
//! when solutions go to its sink, which parallel children do not have), the nodes the
//! listing expanded counted, and the partial result filled in.

use crate::engine::split::Cut;
use crate::engine::{Answer, Goal, PartialWork, Refusal, Run, Task};

/// Nodes above the list that this part counts: the listing's expanded nodes less the root.
/// The strategies count a node for each step away from the root (a piece placed, a move
/// made), never the root itself, so the part that counts the list's ancestors leaves the
/// root out and the parts' nodes add up to one run's.
pub(crate) fn nodes_above(task: &Task, above: u64) -> u64 {
    let first = task.part.is_some_and(|(i, _)| i == 1) && task.subpart.is_none_or(|(j, _)| j == 1);
    // The root is among the expanded nodes whenever any is: it is expanded first.
    if first {
        above.saturating_sub(1)
    } else {
        above
    }
}

/// Search the part's subtrees with `whole` (the strategy's own search started from a
/// subtree's state, counting its solutions into the run) and answer with their count.
pub(crate) fn count_part<N: Sync>(
    task: &Task,
    run: &mut Run,
    cut: Cut<N>,
    whole: impl Fn(&N, &mut Run) + Sync,
) -> Answer {
    search_part(task, run, &cut.nodes, whole);
    counted(task, run, cut)
}

/// The answer of a part whose subtrees were searched, their solutions counted into `run`:
/// the nodes above them added, and the partial result filled in.
pub(crate) fn counted<N>(task: &Task, run: &mut Run, cut: Cut<N>) -> Answer {
    run.nodes(nodes_above(task, cut.above));
    Answer {
        count: Some(run.stats.solutions),
        partial: Some(cut.finish(run, PartialWork::Counted)),
        ..Answer::default()
    }
}

/// The part's subtrees searched with `whole`: shared out to the task's threads when no
/// solution needs the sink, else in list order on the run itself.
pub(crate) fn search_part<N: Sync>(
    task: &Task,
    run: &mut Run,
    nodes: &[N],
    whole: impl Fn(&N, &mut Run) + Sync,
) {
    if task.threads > 1 && !run.reports_each() {
        run.share_out(nodes, task.threads, |n, child| whole(n, child));
        return;
    }
    // The gauge's share done is of the part's subtrees on one thread too.
    run.list_items_in_turn(nodes.len());
    for n in nodes {
        whole(n, run);
        if run.is_stopped() {
            return;
        }
        run.item_done();
    }
}

/// What the strategies that split through [`Cut`] refuse: `--estimate` (they cut their tree
/// into parts but do not size it), and `--part` with an objective (their parts count and
/// list; a bar shared by every part is for the strategies built around one).
pub(crate) fn counts_only(task: &Task) -> Result<(), Refusal> {
    counts_or(task, &[])
}

/// As [`counts_only`], but the parts of a strategy that searches `objectives` (goal maximize)
/// split those too.
pub(crate) fn counts_or(task: &Task, objectives: &[Goal]) -> Result<(), Refusal> {
    if task.estimate.is_some() {
        return Err(Refusal::EstimateUnsized);
    }
    if task.part.is_some()
        && matches!(task.goal, Goal::Minimize | Goal::Maximize)
        && !objectives.contains(&task.goal)
    {
        return Err(Refusal::PartOfObjective(task.goal));
    }
    Ok(())
}
