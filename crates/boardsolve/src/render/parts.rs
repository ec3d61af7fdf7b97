//! Merged part records in words: the answer one run would give, what is still to run, and
//! why records do not merge.

use std::time::Duration;

use crate::engine::merge::{MergeError, MergeFault, Merged, Missing, RunWords};
use crate::engine::record::{FINGERPRINT_SCHEME, PartRecord};
use crate::engine::{Answer, Outcome, Stats, Status};
use crate::kinds::CountNote;
use crate::util::Natural;

use super::{Header, Picture, group, group_digits};

/// The header and outcome one run of the whole search would have, from the merged records:
/// proven when every part is searched, else stopped short.
pub fn merged_outcome(m: &Merged) -> (Header, Outcome) {
    let r = &m.first;
    let header = Header {
        title: r.title.clone(),
        kind: r.kind.clone(),
        goal: r.goal.clone(),
        counted: r.counted.clone(),
        board: None,
        depth: None,
    };
    let mut answer = match &m.count {
        Some(c) => Answer::natural(c.clone()),
        None => Answer::default(),
    };
    answer.optimum = m.optimum;
    answer.best = m.solution.as_ref().map(|(_, s)| s.clone());
    if let (true, Some(v)) = (m.largest, m.optimum) {
        answer.notes.push(CountNote::LargestCounted(v).into());
    }
    let status = if !m.complete() {
        Status::Limit
    } else if m.count.as_ref().is_some_and(Natural::is_zero) {
        Status::NoSolution
    } else {
        Status::Solved
    };
    let outcome = Outcome {
        status,
        strategy: r.strategy.clone(),
        proven: status != Status::Limit,
        stopped: None,
        elapsed: Duration::try_from_secs_f64(m.seconds).unwrap_or(Duration::MAX),
        stats: Stats {
            nodes: m.nodes.map_or(0, |n| u64::try_from(n).unwrap_or(u64::MAX)),
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
    let mut s = match &m.count {
        // As one run says it, once every part is searched.
        Some(_) if m.largest && m.complete() => super::answer_line(&h, &o),
        Some(c) if m.largest => {
            let digits = group_digits(&c.to_string());
            match m.optimum {
                Some(v) => format!(
                    "{digits} {} of {v} pieces, the largest in the parts searched",
                    h.counted
                ),
                None => format!("{digits} {}", h.counted),
            }
        }
        Some(c) => {
            let digits = group_digits(&c.to_string());
            let noun = if c.to_u128() == Some(1) {
                h.counted
                    .replacen("solutions", "solution", 1)
                    .replacen("classes", "class", 1)
            } else {
                h.counted.clone()
            };
            let counted = match (m.complete(), c.is_zero(), m.optimum) {
                (true, true, Some(v)) => format!("no solution of {v} pieces"),
                (true, true, None) => "no solution".to_string(),
                (true, false, Some(v)) => format!("{digits} {noun} of {v} pieces"),
                (true, false, None) => format!("{digits} {noun}"),
                (false, _, Some(v)) => format!("at least {digits} {noun} of {v} pieces"),
                (false, _, None) => format!("at least {digits} {noun}"),
            };
            match m.optimum {
                // The parts counted at a value they were given, and proved nothing of it.
                Some(v) => format!(
                    "{counted} [counted at the optimum given to the parts, --optimum {v}, \
                     which they do not prove]"
                ),
                None => counted,
            }
        }
        None => super::answer_line(&h, &o),
    };
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
        Some(n) => format!("{} nodes in the parts", group(n)),
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
    if m.builds.len() > 1 {
        s.push_str(&format!(" | builds {}", m.builds.join(", ")));
    }
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

/// The part a record is of, as `--part` takes it: "3/8" or "3/8,2/4".
pub fn record_part_arg(r: &PartRecord) -> String {
    part_arg(&Missing {
        part: (r.part[0], r.part[1]),
        subpart: r.subpart.as_ref().map(|s| (s.index[0], s.index[1])),
    })
}

/// The note of a run that stopped before its end and left the finished record already at
/// `path` in place.
pub fn kept_record_note(path: &str, finished: &PartRecord) -> String {
    format!(
        "--record {}: kept the finished record of part {} already there (this run stopped \
         before its end, and its record would have put the part back on the list to run)",
        shown(path),
        record_part_arg(finished)
    )
}

/// The note of a run that stopped before its end and replaced a finished record at `path`
/// that was not its part's, or that `solve merge` would refuse beside it.
pub fn replaced_record_note(path: &str, finished: &PartRecord) -> String {
    format!(
        "--record {}: replaced a finished record of part {} (another job's or part's, or one \
         that solve merge refuses beside this run's) by this run's, which stopped before its \
         end",
        shown(path),
        record_part_arg(finished)
    )
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
             of one search only (the same puzzle, strategy, goal, file, arguments and subtree list)"
        ),
        MergeFault::OtherPuzzle {
            first,
            theirs,
            ours,
        } => {
            let command = |w: &RunWords| {
                let words: Vec<String> = std::iter::once(&w.file)
                    .chain(&w.args)
                    .map(|a| shown(a))
                    .collect();
                words.join(" ")
            };
            let (this, that) = (command(ours), command(theirs));
            let differs = if this == that {
                format!(
                    "both ran `{this}`: the puzzle file changed between the runs, or the parts \
                     read two files of one name"
                )
            } else {
                format!("this one ran `{this}`, that one `{that}`")
            };
            format!(
                "this record is of another puzzle than the record at {first} (fingerprint {} \
                 here, {} there): {differs}; records of one search only",
                shown(&ours.puzzle),
                shown(&theirs.puzzle)
            )
        }
        MergeFault::Scheme { found } => format!(
            "a record of fingerprint scheme {}, and this build reads scheme \
             {FINGERPRINT_SCHEME}: its puzzle fingerprint cannot be compared with today's (run \
             the part again, or convert the records as docs/parts.md says)",
            found.unwrap_or(1)
        ),
        MergeFault::Invalid { field, why } => {
            format!("not a record `solve --part` writes: \"{field}\": {why}")
        }
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
        MergeFault::SameRecord { first } => format!(
            "the same record as at {first}, field for field: each record once (a file given \
             twice, or a copy of one); a part run again writes a record of its own"
        ),
        MergeFault::Empty => "no part records to merge".into(),
    };
    if e.what == MergeFault::Empty {
        what
    } else {
        format!("{}: {what}", e.at)
    }
}

/// Text read from outside, as it may go to a terminal: control characters written as escapes,
/// so that none moves the cursor, clears the screen or starts a line of its own.
pub fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A stopped part's record in words: what stopped it, and what to do.
pub fn stopped_text(r: &PartRecord) -> String {
    let part = format!("part {}", record_part_arg(r));
    let (why, advice) = match r.stopped.as_deref() {
        Some("time") => (
            "its time limit",
            "run it with a longer --time-limit, or in subparts (`solve plan FILE OPTIONS --part \
             I/N --parts M`)",
        ),
        Some("nodes") => ("its node limit", "run it with a larger --node-limit"),
        Some("memory") => (
            "its memory budget",
            "run it with a larger --memory, or in subparts",
        ),
        Some("disk") => (
            "its scratch folder (full, or a file in it that failed)",
            "run it with more room in its --scratch folder, or a larger --memory",
        ),
        Some("interrupted") => ("a signal", "run it again"),
        _ => ("a limit", "run it again"),
    };
    format!("{part} stopped by {why} before its end: not counted; {advice}")
}

/// The merge's line when no part has a record yet.
pub fn no_records_line(units: usize) -> String {
    format!(
        "no part records yet: all {} {} of the plan to run",
        group(units as u128),
        if units == 1 { "part" } else { "parts" }
    )
}

/// The parts still to run, a subpart of M counted as 1/M of a part: "3", or "2.25".
fn parts_left(m: &Merged) -> String {
    let left: f64 = m.missing.iter().map(Missing::weight).sum();
    if left.fract() == 0.0 {
        format!("{left}")
    } else {
        format!("{left:.2}")
    }
}

/// `solve merge --status`: what is searched, stopped and missing, the work so far and an
/// estimate of what is left, then the answer so far.
pub fn merged_status(m: &Merged) -> String {
    let whole = m.missing.iter().filter(|x| x.subpart.is_none()).count();
    let subparts = m.missing.len() - whole;
    let nodes = |n: Option<u128>| match n {
        Some(n) => format!("{} nodes", group(n)),
        None => "nodes not recorded".into(),
    };
    let mut s = format!(
        "parts:    {} of {} searched; missing {} {} and {} {}\n",
        group(m.done as u128),
        group(m.parts as u128),
        group(whole as u128),
        if whole == 1 { "part" } else { "parts" },
        group(subparts as u128),
        if subparts == 1 { "subpart" } else { "subparts" },
    );
    s.push_str(&format!(
        "records:  {} read, {} stopped by a limit or a signal (not counted)\n",
        group(m.records as u128),
        group(m.stopped.len() as u128)
    ));
    s.push_str(&format!(
        "work:     {} and {} in the parts searched; {} and {} in every record\n",
        super::duration(m.seconds),
        nodes(m.nodes),
        super::duration(m.spent_seconds),
        nodes(Some(m.spent_nodes)),
    ));
    match m.remaining_seconds() {
        Some(left) => s.push_str(&format!(
            "left:     about {} of one part's runs ({}, times the {} left)\n",
            super::duration(left),
            if m.done == 1 {
                "the time of the one part searched".to_string()
            } else {
                format!(
                    "the mean time of the {} parts searched",
                    group(m.done as u128)
                )
            },
            match parts_left(m).as_str() {
                "1" => "1 part".to_string(),
                n => format!("{n} parts"),
            }
        )),
        None if m.complete() => s.push_str("left:     nothing\n"),
        None => s.push_str("left:     unknown until a part is searched\n"),
    }
    s.push_str(&format!("builds:   {}\n", m.builds.join(", ")));
    s.push_str(&format!("answer:   {}\n", merged_answer_line(m)));
    s
}

/// `solve merge --format json`: the fields of a whole run's JSON report, in its order, the
/// board's dimensions among them where the puzzle is at hand (`board`); then, under
/// "merge", the parts' state and the command of each missing unit.
pub fn merged_json(
    m: &Merged,
    board: Option<(usize, usize)>,
    picture: Option<&Picture>,
    missing: &[(String, String)],
) -> String {
    let (mut h, o) = merged_outcome(m);
    h.board = board;
    let mut buf: Vec<u8> = Vec::new();
    let mut never = || None;
    let shown = picture.is_some() as u64;
    let mut tail = super::json::json_tail(&o, None);
    // What a whole run counts, it also reports as its solutions; an optimisation, the best
    // placement it holds.
    tail["stats"]["solutions"] = match tail.get("count").filter(|c| !c.is_null()) {
        Some(count) => count.clone(),
        None => serde_json::json!(u64::from(m.solution.is_some())),
    };
    let number = |n: u128| {
        if n < 1 << 53 {
            serde_json::json!(n as u64)
        } else {
            serde_json::json!(n.to_string())
        }
    };
    let merge = serde_json::json!({
        "parts": m.parts,
        "searched": m.done,
        "records": m.records,
        "stopped": m.stopped.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "missing": missing.iter().map(|(part, command)| {
            serde_json::json!({"part": part, "command": command})
        }).collect::<Vec<_>>(),
        "seconds": m.seconds,
        "nodes": m.nodes.map(number),
        "spent_seconds": m.spent_seconds,
        "spent_nodes": number(m.spent_nodes),
        "remaining_seconds": m.remaining_seconds(),
        "builds": m.builds,
    });
    let written = super::json::write_json_head(&mut buf, &h, &o.strategy)
        .and_then(|_| match picture {
            Some(p) => super::json::write_json_solution(&mut buf, 0, p, &mut never).map(|_| ()),
            None => Ok(()),
        })
        .and_then(|_| {
            super::json::write_json_tail_value(&mut buf, shown, &tail, Some(("merge", &merge)))
        });
    written.expect("writing to memory does not fail");
    String::from_utf8(buf).expect("the report is UTF-8")
}

/// A part run again beside its record.
pub struct Verdict {
    /// Count (or what it proved), list and share agree; nodes may differ between builds.
    pub agrees: bool,
    pub text: String,
}

pub fn verify_verdict(record: &PartRecord, again: &PartRecord) -> Verdict {
    let unit = |r: &PartRecord| match (&r.count, r.none_below, r.proven) {
        (Some(c), Some(v), _) => format!("count {c} of its largest size, {v}"),
        (Some(c), _, _) => format!("count {c}"),
        (None, Some(v), _) => format!("none better than {v}"),
        (None, None, true) => format!("optimum {:?} proven at the root", r.best),
        _ => "nothing".into(),
    };
    let list = |r: &PartRecord| {
        format!(
            "list {}{}, {} taken",
            r.list.as_ref().map_or("-", |l| l.fingerprint.as_str()),
            r.subpart
                .as_ref()
                .map(|s| format!(", sublist {}", s.fingerprint))
                .unwrap_or_default(),
            r.taken
        )
    };
    let nodes = |r: &PartRecord| {
        r.nodes.map_or("nodes not recorded".into(), |n| {
            format!("{} nodes", group(u128::from(n)))
        })
    };
    let part = format!("part {}", record_part_arg(record));
    let same = |f: &dyn Fn(&PartRecord) -> String| f(record) == f(again);
    let agrees = same(&unit) && same(&list);
    let nodes_agree = record.nodes.is_none() || record.nodes == again.nodes;
    let text = if agrees && nodes_agree {
        format!(
            "{part} run again: {}, {}, {}: as recorded",
            unit(again),
            list(again),
            nodes(again)
        )
    } else if agrees {
        format!(
            "{part} run again: {}, {}: as recorded, but {} where the record has {} (a \
             build that prunes otherwise, or threads that share the work otherwise)",
            unit(again),
            list(again),
            nodes(again),
            nodes(record)
        )
    } else {
        format!(
            "{part} run again: {}, {}, {}; the record says {}, {}, {}: the record is not \
             what this part finds",
            unit(again),
            list(again),
            nodes(again),
            unit(record),
            list(record),
            nodes(record)
        )
    };
    Verdict { agrees, text }
}
