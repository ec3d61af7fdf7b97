//! Part records: what one part of a split search (`--part`) did, as one line of JSON, so that
//! the records of many parts, run on any machines, can be concatenated and merged
//! ([`super::merge`]).

use serde::{Deserialize, Serialize};

use super::{Outcome, PartialWork, StopReason};

/// The tag every record starts with: a line without it is not a part record.
pub const RECORD_TAG: &str = "solve-part";

/// The scheme of the puzzle fingerprints that records carry (`spec`'s canonical text, its
/// first line). Records without a scheme are of scheme 1, whose fingerprints hashed the
/// program's own data structures and so changed from build to build.
pub const FINGERPRINT_SCHEME: u32 = 2;

/// One part's record. Fingerprints are 16 hex digits and counts decimal strings, since JSON
/// numbers do not hold 64 bits exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartRecord {
    pub record: String,
    /// The scheme of the `puzzle` fingerprint ([`FINGERPRINT_SCHEME`]); absent in records of
    /// scheme 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<u32>,
    /// The build that ran the part: its version and the commit it was built from (`None`
    /// where unknown). Parts of one search may come from several builds: the puzzle's and
    /// the list's fingerprints say whether they searched one tree.
    pub version: String,
    #[serde(default)]
    pub commit: Option<String>,
    /// The puzzle's fingerprint, after the command line's changes.
    pub puzzle: String,
    /// The puzzle file as given, and the command-line arguments besides the file and the
    /// part: what reruns a missing part.
    pub file: String,
    pub args: Vec<String>,
    pub title: Option<String>,
    pub kind: String,
    pub strategy: String,
    pub goal: String,
    /// What the count counts ("solutions", "classes under 8 symmetries").
    pub counted: String,
    /// The subtree list the part cut; `None` when the run ended before it was made (a limit,
    /// or an answer proven at the root).
    pub list: Option<ListRecord>,
    /// The run proved the whole answer by itself, before any list (a bound at the root).
    pub proven: bool,
    /// `[i, n]`: part i of n.
    pub part: [usize; 2],
    pub subpart: Option<SubpartRecord>,
    /// Subtrees (or, in a subpart, descendants) the part took.
    pub taken: usize,
    /// Every subtree taken was searched to its end; `false`: a limit or a signal stopped it,
    /// and the record stands for nothing searched.
    pub finished: bool,
    /// The solutions counted in the part (goals count and all).
    pub count: Option<String>,
    /// Optimisation: no solution in the part is better than this.
    pub none_below: Option<u64>,
    /// Optimisation: the best objective value the part knows (its own or the list's bar).
    pub best: Option<u64>,
    /// A solution of value `best`, in the model's encoding.
    pub solution: Option<Vec<usize>>,
    /// Search nodes; `None` in records converted from logs that did not say.
    pub nodes: Option<u64>,
    pub seconds: f64,
    /// What stopped an unfinished part: "time", "nodes", "interrupted", "memory", "disk".
    pub stopped: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListRecord {
    pub subtrees: usize,
    pub bar: Option<u64>,
    pub fingerprint: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubpartRecord {
    /// `[j, m]`: subpart j of m.
    pub index: [usize; 2],
    pub descendants: usize,
    pub of_subtrees: usize,
    pub fingerprint: String,
}

/// What a record says of the puzzle and the run besides the outcome.
pub struct RecordContext<'a> {
    pub puzzle: u64,
    pub file: &'a str,
    pub args: Vec<String>,
    pub title: Option<String>,
    pub kind: &'a str,
    pub goal: &'a str,
    pub counted: String,
}

/// The commit this program was built from, where the build knew it.
pub fn build_commit() -> Option<String> {
    let c = env!("BOARDSOLVE_COMMIT");
    (!c.is_empty()).then(|| c.to_string())
}

pub fn hex(x: u64) -> String {
    format!("{x:016x}")
}

pub fn stop_name(r: StopReason) -> &'static str {
    match r {
        StopReason::Time => "time",
        StopReason::Nodes => "nodes",
        StopReason::Solutions => "solutions",
        StopReason::Interrupted => "interrupted",
        StopReason::Sink => "sink",
        StopReason::Memory => "memory",
        StopReason::Disk => "disk",
        StopReason::CounterLimit => "counter",
    }
}

impl PartRecord {
    /// The record of the outcome of part `part` (subpart `subpart`) of a search.
    pub fn of(
        o: &Outcome,
        part: (usize, usize),
        subpart: Option<(usize, usize)>,
        cx: RecordContext,
    ) -> PartRecord {
        let p = o.answer.partial.as_ref();
        let limited = o.stopped.is_some_and(|r| r.is_limit());
        let (searched, none_below) = match p.map(|p| p.work) {
            Some(PartialWork::Counted) => (true, None),
            Some(PartialWork::Searched { none_below }) => (true, Some(none_below)),
            // "None better than": the record's field is named for minimize, merge reads it
            // by the goal.
            Some(PartialWork::SearchedAbove { none_above }) => (true, Some(none_above)),
            // A count of the largest placements: their size, which merge takes the largest
            // of, beside the count.
            Some(PartialWork::CountedLargest { largest }) => (true, Some(largest)),
            _ => (false, None),
        };
        // Without a list, only an answer proven for the whole search stands for anything.
        let finished = !limited && (searched || p.is_none() && o.proven);
        let counting = matches!(cx.goal, "count" | "all");
        PartRecord {
            record: RECORD_TAG.into(),
            scheme: Some(FINGERPRINT_SCHEME),
            version: env!("CARGO_PKG_VERSION").into(),
            commit: build_commit(),
            puzzle: hex(cx.puzzle),
            file: cx.file.into(),
            args: cx.args,
            title: cx.title,
            kind: cx.kind.into(),
            strategy: o.strategy.clone(),
            goal: cx.goal.into(),
            counted: cx.counted,
            list: p.map(|p| ListRecord {
                subtrees: p.list.subtrees,
                bar: p.list.bar,
                fingerprint: hex(p.list.fingerprint),
            }),
            proven: p.is_none() && o.proven,
            part: [part.0, part.1],
            subpart: match p.and_then(|p| p.subpart) {
                Some(s) => Some(SubpartRecord {
                    index: [s.index.0, s.index.1],
                    descendants: s.descendants,
                    of_subtrees: s.of_subtrees,
                    fingerprint: hex(s.fingerprint),
                }),
                None => subpart.map(|(j, m)| SubpartRecord {
                    index: [j, m],
                    descendants: 0,
                    of_subtrees: 0,
                    fingerprint: String::new(),
                }),
            },
            taken: p.map_or(0, |p| p.taken),
            finished,
            count: if counting && finished {
                o.answer.exact_count().map(|c| c.to_string())
            } else {
                None
            },
            none_below: none_below.filter(|_| finished),
            best: o.answer.optimum,
            solution: o.answer.best.clone(),
            nodes: Some(o.stats.nodes),
            seconds: o.elapsed.as_secs_f64(),
            stopped: o.stopped.map(|r| stop_name(r).to_string()),
        }
    }

    /// The record as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}

/// The tag of a plan's manifest.
pub const PLAN_TAG: &str = "solve-plan";

/// What `solve plan` planned, written beside the records (`DIR/plan.json`), so that `solve
/// merge DIR` knows every unit of the job even before any record exists, and which Slurm
/// array task runs which unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRecord {
    pub record: String,
    /// The fingerprint scheme of `puzzle`.
    pub scheme: u32,
    /// The puzzle's fingerprint, as the parts' records carry it.
    pub puzzle: String,
    pub file: String,
    pub args: Vec<String>,
    pub strategy: String,
    /// The units in the order of the plan's commands (Slurm array task k runs `units[k - 1]`),
    /// each as `--part` takes it: "3/8", or "3/8,2/4" for a plan of a part's subparts.
    pub units: Vec<String>,
    /// Where the records go, as the commands name it.
    pub results: String,
    /// The plan is a Slurm job array.
    pub slurm: bool,
}
