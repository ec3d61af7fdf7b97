//! The lines every format shares: the answer line, the summary line, the progress line,
//! what a part or an estimate did, and why a run or its output stopped.

use std::fmt::Write as _;

use super::numbers::{counted, duration, noun, sci, singular};
use super::sentences::{note_text, reason_text};
use super::{Header, Unfinished, group, group_digits};

use crate::engine::{Outcome, Partial, PartialWork, Standing, Status, StopReason};
use crate::kinds::CountNote;
use crate::kinds::domination::DominationNote;

/// What the reader must know when the output is not whole: "output stopped at the time
/// limit after 1,234 of 8,000 rows", "... of solution 3".
pub fn unfinished_text(u: &Unfinished) -> String {
    match u {
        // Solutions kept for a drawing stop at the memory budget, before the next is begun.
        Unfinished::Cut { solution, at } if at.reason == StopReason::Memory && at.done == 0 => {
            format!(
                "solutions from {} on are not drawn: keeping them for the drawing would pass \
                 the memory budget (--memory)",
                group(*solution as u128)
            )
        }
        Unfinished::Cut { solution, at } => {
            let mut s = format!(
                "output stopped {} after {} of {} {}",
                match at.reason {
                    StopReason::Time => "at the time limit".to_string(),
                    StopReason::Interrupted => "by an interrupt".to_string(),
                    other => format!("by the {}", stop_text(other)),
                },
                group(at.done as u128),
                group(at.of as u128),
                at.unit
            );
            if *solution > 1 {
                let _ = write!(s, " of solution {}", group(*solution as u128));
            }
            s
        }
        Unfinished::Unchecked(r) => format!(
            "the solution found is not shown: {} came before its check was done",
            match r {
                StopReason::Time => "the time limit".to_string(),
                StopReason::Interrupted => "an interrupt".to_string(),
                other => format!("the {}", stop_text(*other)),
            }
        ),
    }
}

/// "solutions" or "classes under 8 symmetries", singular for one.
fn counted_noun(h: &Header, c: u128) -> String {
    if c == 1 {
        h.counted
            .replacen("solutions", "solution", 1)
            .replacen("classes", "class", 1)
    } else {
        h.counted.clone()
    }
}

/// The answer line on standard output ("92 solutions", "optimum 14 (proven)").
pub fn answer_line(h: &Header, o: &Outcome) -> String {
    let mut s = match (o.answer.optimum, o.answer.count) {
        // Goal count of an optimisation kind: how many optimal solutions, and the optimum.
        (Some(v), Some(c)) if o.status == Status::Part => {
            let what = counted_noun(h, c);
            format!(
                "{} {what} of {} in this part",
                group(c),
                counted(v.into(), "piece", "pieces")
            )
        }
        (Some(v), Some(c)) if o.status != Status::Limit && o.count_capped() => {
            let what = counted_noun(h, c);
            format!(
                "at least {} {what} of optimum {v} (proven; the count stopped at --limit {})",
                group(c),
                group(c)
            )
        }
        (Some(v), Some(c)) if o.status != Status::Limit => {
            let what = counted_noun(h, c);
            format!("{} {what} of optimum {v} (proven)", group(c))
        }
        // Stopped while counting at an optimum the first phase proved.
        (Some(v), Some(c)) if counted_at_optimum(o) => {
            if c == 0 {
                format!("optimum {v} (proven); stopped before any of its solutions was counted")
            } else {
                let what = counted_noun(h, c);
                format!(
                    "at least {} {what} of optimum {v} (the optimum proven; stopped: not all \
                     found)",
                    group(c)
                )
            }
        }
        (Some(v), _) => format!(
            "optimum {v} ({})",
            if matches!(o.status, Status::Limit | Status::Part) {
                "best found, not proven"
            } else {
                "proven"
            }
        ),
        (None, Some(c)) => {
            let what = counted_noun(h, c);
            if o.status == Status::Part {
                format!("{} {what} in this part", group(c))
            } else if o.stopped == Some(StopReason::CounterLimit) {
                format!(
                    "at least {} {what} (the count reached 2^128 - 1, the most its counters \
                     hold)",
                    group(c)
                )
            } else if o.status == Status::Limit && c == 0 {
                "stopped before any was counted".to_string()
            } else if o.status == Status::Limit {
                format!("at least {} {what} (stopped: not all found)", group(c))
            } else if o.count_capped() {
                format!(
                    "at least {} {what} (the count stopped at --limit {})",
                    group(c),
                    group(c)
                )
            } else {
                format!("{} {what}", group(c))
            }
        }
        (None, None) => match &o.answer.big {
            Some(big) => format!("{} {}", group_digits(&big.to_string()), h.counted),
            None => String::new(),
        },
    };
    if o.status == Status::NoSolution {
        s = "no solution".to_string();
        if let Some(r) = &o.answer.reason {
            let _ = write!(s, ": {}", reason_text(r));
        }
    }
    if let Some(p) = &o.answer.partial {
        let _ = write!(s, " [{}]", partial_text(p));
    }
    if let (Status::Limit, Some(r)) = (o.status, o.stopped) {
        let _ = write!(s, " [{}]", stop_text(r));
    }
    s
}

/// Whether the answer counts the solutions of an optimum proven first (goal count of an
/// optimisation), as its note says.
fn counted_at_optimum(o: &Outcome) -> bool {
    o.answer.notes.iter().any(|n| {
        matches!(n.get::<CountNote>(), Some(CountNote::LargestCounted(_)))
            || matches!(
                n.get::<DominationNote>(),
                Some(DominationNote::OptimalCounted(_))
            )
    })
}

fn subtrees(n: usize) -> &'static str {
    noun(n as u128, "subtree", "subtrees")
}

/// What a part or estimate did, for the answer line: "part 3/8: 22 of 171 subtrees below 52
/// (list 13fde5254d0f85c1) searched: none smaller than 52 in them".
pub fn partial_text(p: &Partial) -> String {
    let l = &p.list;
    let below = match l.bar {
        Some(b) => format!(" below {b}"),
        None => String::new(),
    };
    let mut what = match (p.part, &p.subpart) {
        (Some((i, n)), Some(sub)) => {
            let (j, m) = sub.index;
            format!(
                "part {i}/{n},{j}/{m}: {} of the {} {} of {} of {} {}{below} (list {:016x}, \
                 sublist {:016x})",
                p.taken,
                sub.descendants,
                noun(sub.descendants as u128, "descendant", "descendants"),
                sub.of_subtrees,
                l.subtrees,
                subtrees(l.subtrees),
                l.fingerprint,
                sub.fingerprint
            )
        }
        (Some((i, n)), None) => format!(
            "part {i}/{n}: {} of {} {}{below} (list {:016x})",
            p.taken,
            l.subtrees,
            subtrees(l.subtrees),
            l.fingerprint
        ),
        (None, _) => format!("{} {}{below}", l.subtrees, subtrees(l.subtrees)),
    };
    match p.work {
        PartialWork::Searched { none_below } => {
            let _ = write!(what, " searched: none smaller than {none_below} in them");
        }
        PartialWork::Counted => what.push_str(" searched: their solutions counted"),
        PartialWork::SearchedAbove { none_above } => {
            let _ = write!(what, " searched: none larger than {none_above} in them");
        }
        PartialWork::CountedLargest { largest } => {
            let _ = write!(
                what,
                " searched: none larger than {largest} in them, and those of {largest} counted"
            );
        }
        PartialWork::NotAllSearched => what.push_str(", not all searched"),
        PartialWork::StoppedBeforeDescendants => what.push_str(", stopped before its children"),
        PartialWork::Estimated(None) => {
            what = format!("estimate, {what}: stopped before the first probe ended");
        }
        PartialWork::Estimated(Some(e)) => {
            what = format!(
                "estimate, {what}: about {} nodes (Knuth, {} {}, standard error {:.0}%), {} \
                 of one thread's work, {} on {} thread{}",
                sci(e.nodes),
                e.probes,
                noun(e.probes.into(), "probe", "probes"),
                e.relative_error * 100.0,
                duration(e.work_seconds),
                duration(e.work_seconds / e.threads as f64),
                e.threads,
                noun(e.threads as u128, "", "s"),
            );
        }
    }
    what
}

/// Why a search stopped, in a word or two.
pub fn stop_text(r: StopReason) -> &'static str {
    match r {
        StopReason::Time => "time limit",
        StopReason::Nodes => "node limit",
        StopReason::Solutions => "solution limit",
        StopReason::Interrupted => "interrupted",
        StopReason::Sink => "stopped by caller",
        StopReason::Memory => "memory bound",
        StopReason::Disk => "scratch folder",
        StopReason::CounterLimit => "counter limit",
    }
}

/// Where a search stands, for the progress line: "best 40, bound 34, subtrees done 37/102",
/// "best 14 (local search)", "bound 12, branch 2/3 1/4", "probes 150/4000 (this worker's)",
/// "square 38 of 64, 161,467,488 states, 9.2 GiB on disk".
pub fn standing_text(s: &Standing) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(b) = s.best {
        parts.push(match s.found_by {
            Some(by) => format!("best {b} ({by})"),
            None => format!("best {b}"),
        });
    }
    if let Some(b) = s.bound {
        parts.push(format!("bound {b}"));
    }
    if let Some((done, of)) = s.subtrees {
        parts.push(format!("subtrees done {done}/{of}"));
    }
    let branches: Vec<String> = s
        .branch
        .iter()
        .take_while(|(_, of)| *of > 0)
        .map(|(k, of)| format!("{k}/{of}"))
        .collect();
    if !branches.is_empty() {
        parts.push(format!("branch {}", branches.join(" ")));
    }
    if let Some((done, of)) = s.probes {
        parts.push(format!("probes {done}/{of} (this worker's)"));
    }
    if let Some(w) = s.sweep {
        let mut at = format!(
            "square {} of {}, {} states",
            w.square,
            w.of,
            group(u128::from(w.states))
        );
        if w.on_disk > 0 {
            at.push_str(&format!(
                ", {} on disk",
                crate::util::numbers::bytes(w.on_disk)
            ));
        }
        parts.push(at);
    }
    parts.join(", ")
}

/// The one summary line on standard error: `92 solutions | bitmask | 1,965 nodes | 0.4 ms`.
pub fn summary_line(h: &Header, o: &Outcome) -> String {
    let mut parts = vec![answer_line(h, o), o.strategy.clone()];
    parts.push(counted(o.stats.nodes.into(), "node", "nodes"));
    for (name, v) in &o.stats.counters {
        parts.push(counted((*v).into(), &singular(name), name));
    }
    parts.push(duration(o.elapsed.as_secs_f64()));
    for n in &o.answer.notes {
        parts.push(note_text(n));
    }
    parts.join(" | ")
}
