//! Merged part records in words: the answer one run would give, what is still to run, and
//! why records do not merge.

use std::time::Duration;

use crate::engine::merge::{MergeError, MergeFault, Merged, Missing};
use crate::engine::{Answer, Outcome, Stats, Status};

use super::{Header, group};

/// The header and outcome one run of the whole search would have, from the merged records:
/// proven when every part is searched, else stopped short.
pub fn merged_outcome(m: &Merged) -> (Header, Outcome) {
    let r = &m.first;
    let header = Header {
        title: r.title.clone(),
        kind: r.kind.clone(),
        goal: r.goal.clone(),
        counted: r.counted.clone(),
    };
    let answer = Answer {
        count: m.count,
        optimum: m.optimum,
        best: m.solution.clone(),
        ..Answer::default()
    };
    let status = if !m.complete() {
        Status::Limit
    } else if answer.optimum.is_none() && m.count == Some(0) {
        Status::NoSolution
    } else {
        Status::Solved
    };
    let outcome = Outcome {
        status,
        strategy: r.strategy.clone(),
        proven: status != Status::Limit,
        stopped: None,
        elapsed: Duration::from_secs_f64(m.seconds.max(0.0)),
        stats: Stats {
            nodes: m.nodes.unwrap_or(0),
            ..Stats::default()
        },
        answer,
    };
    (header, outcome)
}

/// The answer line of the merged records, as one run would print it, with the parts still
/// missing said when there are any.
pub fn merged_answer_line(m: &Merged) -> String {
    let (h, o) = merged_outcome(m);
    let mut s = super::answer_line(&h, &o);
    if let (Some(v), Some(_)) = (m.optimum, m.count) {
        s.push_str(&format!(" [the optimum {v} given to the parts: --optimum]"));
    }
    if !m.complete() {
        let units = m.missing.len();
        s.push_str(&format!(
            " [{} of {} parts searched; {} {} to run]",
            group(m.done as u128),
            group(m.parts as u128),
            group(units as u128),
            if m.missing.iter().any(|x| x.subpart.is_some()) {
                "parts or subparts"
            } else if units == 1 {
                "part"
            } else {
                "parts"
            }
        ));
    }
    s
}

/// The merge's summary line for standard error: the records read, the parts' work.
pub fn merged_summary(m: &Merged) -> String {
    let nodes = match m.nodes {
        Some(n) => format!("{} nodes", group(n as u128)),
        None => "nodes not recorded".into(),
    };
    let mut s = format!(
        "{} | {} | merged {} record{} of {} parts | {nodes} | {} of work",
        merged_answer_line(m),
        m.first.strategy,
        group(m.records as u128),
        if m.records == 1 { "" } else { "s" },
        group(m.parts as u128),
        super::duration(m.seconds),
    );
    if !m.stopped.is_empty() {
        s.push_str(&format!(
            " | {} stopped record{} not counted",
            m.stopped.len(),
            if m.stopped.len() == 1 { "" } else { "s" }
        ));
    }
    s
}

/// `--part` as a part or subpart is named on the command line: "3/8" or "3/8,2/4".
pub fn part_arg(x: &Missing) -> String {
    let (i, n) = x.part;
    match x.subpart {
        Some((j, m)) => format!("{i}/{n},{j}/{m}"),
        None => format!("{i}/{n}"),
    }
}

pub fn merge_error_text(e: &MergeError) -> String {
    let what = match &e.what {
        MergeFault::NotARecord(why) => format!("not a part record of `solve --part`: {why}"),
        MergeFault::Differs {
            field,
            first,
            theirs,
            ours,
        } => format!(
            "this record's {field} is {ours}, but the record at {first} has {theirs}: records \
             of one search only (the same puzzle, strategy, goal, version and subtree list)"
        ),
        MergeFault::PartOutOfRange { part, parts } => {
            format!("part {part} of {parts}: accepted: 1 to {parts}")
        }
        MergeFault::Disagree {
            other,
            part,
            theirs,
            ours,
        } => format!(
            "{part} says {ours}, but the same part at {other} says {theirs}: a part run twice \
             must agree"
        ),
        MergeFault::Empty => "no part records to merge".into(),
    };
    if e.what == MergeFault::Empty {
        what
    } else {
        format!("{}: {what}", e.at)
    }
}
