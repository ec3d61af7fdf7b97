//! Merging part records into the answer one run would give.
//!
//! A record is read from outside and may be cut off, edited or forged, so none is trusted
//! for more than it can show. Every record must be of the current fingerprint scheme and of
//! one puzzle, strategy, goal and subtree list (the file and arguments that name the puzzle
//! are the caller's to check against its fingerprint); its fields must fit one
//! another (a finished part of a count says its count; a part takes its share of the list,
//! no more and no less; a part proved at the root cut no list); a part counts as searched
//! only when its record says it finished (a part stopped by a limit or a signal stands for
//! nothing); a part split into subparts counts when all M subparts of one sublist finished;
//! a part run twice, whole or in subparts, must agree with itself. A count is the exact sum
//! of the parts' counts, at any size; an optimum is proven only when every part is searched,
//! and is then the least (the greatest, maximising) of the values the parts proved none
//! better than. What no record can show (that its count is the count of its subtrees) is
//! what `solve merge --verify` checks, by running parts again.

use std::collections::BTreeMap;

use super::record::{FINGERPRINT_SCHEME, ListRecord, PartRecord, RECORD_TAG};
use crate::util::Natural;

/// Parts (and subparts) a search is cut into at most, as `--part` takes them.
pub const MAX_PARTS: usize = 100_000;

/// Decimal digits a record's count may have: far more than any count a search reaches, and
/// few enough that a forged one costs nothing to read.
const MAX_COUNT_DIGITS: usize = 10_000;

/// Where a record came from, for errors: a file (or "-") and a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub file: String,
    pub line: usize,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// Records that cannot be merged: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    pub at: Source,
    pub what: MergeFault,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeFault {
    /// Not a part record (cut off midway, another file, another format).
    NotARecord(String),
    /// A record of another fingerprint scheme (`None`: scheme 1, which had no number).
    Scheme { found: Option<u32> },
    /// A field differs from the first record's.
    Differs {
        field: &'static str,
        first: Source,
        theirs: String,
        ours: String,
    },
    /// A field that does not fit the record's other fields or its kind of search.
    Invalid { field: &'static str, why: String },
    /// A part number out of range.
    PartOutOfRange { part: usize, parts: usize },
    /// The same part (or subpart) run twice, with different results, or a part's subparts
    /// that do not add up to its whole run.
    Disagree {
        other: Source,
        part: String,
        theirs: String,
        ours: String,
    },
    /// No records at all.
    Empty,
}

/// A part (or subpart) still to run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Missing {
    pub part: (usize, usize),
    pub subpart: Option<(usize, usize)>,
}

impl Missing {
    /// The share of the whole search it stands for, in parts: 1, or 1/M for a subpart.
    pub fn weight(&self) -> f64 {
        self.subpart.map_or(1.0, |(_, m)| 1.0 / m as f64)
    }
}

/// The merged answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The first record: what the puzzle, strategy and list are.
    pub first: PartRecord,
    pub parts: usize,
    /// Parts searched (whole, or by all their subparts).
    pub done: usize,
    pub missing: Vec<Missing>,
    /// Records of parts stopped by a limit or a signal: not counted.
    pub stopped: Vec<Source>,
    /// The exact sum of the searched parts' counts (counting).
    pub count: Option<Natural>,
    /// The optimum (optimising): proven when nothing is missing.
    pub optimum: Option<u64>,
    /// A record's placement of value `optimum`, and where it stands.
    pub solution: Option<(Source, Vec<usize>)>,
    /// The searched parts' nodes added up, when every record counted its nodes.
    pub nodes: Option<u128>,
    /// The searched parts' seconds added up (each part counted once).
    pub seconds: f64,
    /// Every record's nodes and seconds, those stopped or run twice included: the work
    /// spent so far.
    pub spent_nodes: u128,
    pub spent_seconds: f64,
    pub records: usize,
    /// The builds that ran the parts, as "version (commit)", each once.
    pub builds: Vec<String>,
}

impl Merged {
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// What is left, in seconds of one part's run: the mean time of the parts searched
    /// times the parts (a subpart 1/M of one) still to run. `None` before any part is done.
    pub fn remaining_seconds(&self) -> Option<f64> {
        if self.done == 0 || self.missing.is_empty() {
            return None;
        }
        let left: f64 = self.missing.iter().map(Missing::weight).sum();
        Some(self.seconds / self.done as f64 * left)
    }
}

/// One record per line; blank lines are skipped.
// An error ends the merge: its size costs nothing worth a box.
#[allow(clippy::result_large_err)]
pub fn parse_lines(file: &str, text: &str) -> Result<Vec<(Source, PartRecord)>, MergeError> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = Source {
            file: file.to_string(),
            line: k + 1,
        };
        match serde_json::from_str::<PartRecord>(line) {
            Ok(r) if r.record == RECORD_TAG => out.push((at, r)),
            Ok(r) => {
                return Err(MergeError {
                    at,
                    what: MergeFault::NotARecord(format!(
                        "\"record\" is {:?}, not \"{RECORD_TAG}\"",
                        r.record
                    )),
                });
            }
            Err(e) => {
                return Err(MergeError {
                    at,
                    what: MergeFault::NotARecord(e.to_string()),
                });
            }
        }
    }
    Ok(out)
}

/// The result a finished unit (a part or a subpart) stands for.
#[derive(Clone, Debug, PartialEq)]
struct Unit {
    count: Option<Natural>,
    none_below: Option<u64>,
    at: usize,
}

/// The subparts of one part by one sublist.
struct Subparts {
    /// The sublist: fingerprint, descendants, and the part's subtrees it was cut from.
    list: (String, usize, usize),
    m: usize,
    at: usize,
    units: BTreeMap<usize, Unit>,
}

fn list_text(l: &ListRecord) -> String {
    let bar = l.bar.map(|b| format!(" below {b}")).unwrap_or_default();
    format!("{} subtrees{bar} (list {})", l.subtrees, l.fingerprint)
}

fn unit_text(count: &Option<Natural>, none_below: Option<u64>) -> String {
    match (count, none_below) {
        (Some(c), _) => format!("count {c}"),
        (None, Some(v)) => format!("none better than {v}"),
        _ => "nothing".into(),
    }
}

/// Whether `taken` is a fair share of `of` things dealt to `ways` takers: every way of
/// dealing gives each taker the floor or the ceiling of their quotient.
fn fair_share(taken: usize, of: usize, ways: usize) -> bool {
    (of / ways..=of.div_ceil(ways)).contains(&taken)
}

fn is_counting(goal: &str) -> bool {
    matches!(goal, "count" | "all")
}

fn build_name(r: &PartRecord) -> String {
    match &r.commit {
        Some(c) => format!("{} ({c})", r.version),
        None => r.version.clone(),
    }
}

/// The checks of one record by itself and against the first.
#[allow(clippy::result_large_err)]
fn check(
    (first_at, first): (&Source, &PartRecord),
    (at, r): (&Source, &PartRecord),
) -> Result<Option<Natural>, MergeError> {
    let fault = |what: MergeFault| MergeError {
        at: at.clone(),
        what,
    };
    let invalid = |field: &'static str, why: String| fault(MergeFault::Invalid { field, why });
    if r.scheme != Some(FINGERPRINT_SCHEME) {
        return Err(fault(MergeFault::Scheme { found: r.scheme }));
    }
    // The file and the arguments may differ from part to part (a path seen from another
    // machine, a time limit or threads of its own): the caller checks them against the
    // puzzle's fingerprint.
    let checks: [(&'static str, String, String); 6] = [
        ("puzzle", first.puzzle.clone(), r.puzzle.clone()),
        ("kind", first.kind.clone(), r.kind.clone()),
        ("strategy", first.strategy.clone(), r.strategy.clone()),
        ("goal", first.goal.clone(), r.goal.clone()),
        ("counted", first.counted.clone(), r.counted.clone()),
        ("parts", first.part[1].to_string(), r.part[1].to_string()),
    ];
    for (field, theirs, ours) in checks {
        if theirs != ours {
            return Err(fault(MergeFault::Differs {
                field,
                first: first_at.clone(),
                theirs,
                ours,
            }));
        }
    }
    let [i, n] = r.part;
    if n == 0 || n > MAX_PARTS || i == 0 || i > n {
        return Err(fault(MergeFault::PartOutOfRange { part: i, parts: n }));
    }
    if let Some(s) = &r.subpart {
        let [j, m] = s.index;
        if m == 0 || m > MAX_PARTS || j == 0 || j > m {
            return Err(fault(MergeFault::PartOutOfRange { part: j, parts: m }));
        }
    }
    let counting = is_counting(&r.goal);
    if !counting && !matches!(r.goal.as_str(), "minimize" | "maximize") {
        return Err(invalid(
            "goal",
            format!(
                "\"{}\": parts run goals count, all, minimize and maximize",
                r.goal
            ),
        ));
    }
    if !(r.seconds.is_finite() && r.seconds >= 0.0) {
        return Err(invalid("seconds", format!("{}: not a time", r.seconds)));
    }
    if r.solution.is_some() && r.best.is_none() {
        return Err(invalid(
            "solution",
            "a placement without its value (\"best\")".into(),
        ));
    }
    if r.proven {
        if !r.finished || r.list.is_some() {
            return Err(invalid(
                "proven",
                "a run proves the whole answer only at the root: finished, before any list".into(),
            ));
        }
        if counting && r.count.is_none() || !counting && r.solution.is_none() {
            return Err(invalid(
                "proven",
                "an answer proven at the root says it: a count, or the optimum's placement".into(),
            ));
        }
    }
    // Words that go out as they are (titles are written with their controls shown).
    for (field, text) in [
        ("counted", &r.counted),
        ("version", &r.version),
        ("strategy", &r.strategy),
        ("kind", &r.kind),
    ]
    .into_iter()
    .chain(r.commit.as_ref().map(|c| ("commit", c)))
    {
        if text.is_empty() || text.len() > 200 || text.chars().any(char::is_control) {
            return Err(invalid(
                field,
                format!("{text:?}: not a word a build writes"),
            ));
        }
    }
    let hex16 = |h: &str| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit());
    let sublist = r.subpart.as_ref().filter(|_| r.finished && !r.proven);
    for (field, h) in [
        ("puzzle", Some(&r.puzzle)),
        ("list", r.list.as_ref().map(|l| &l.fingerprint)),
    ]
    .into_iter()
    .chain(sublist.map(|s| ("sublist", Some(&s.fingerprint))))
    {
        if let Some(h) = h
            && !hex16(h)
        {
            return Err(invalid(field, format!("{h:?}: accepted: 16 hex digits")));
        }
    }
    let count = match &r.count {
        Some(c) if r.finished => {
            Some(Natural::from_decimal(c, MAX_COUNT_DIGITS).ok_or_else(|| {
                invalid(
                    "count",
                    format!("{c:?}: accepted: a whole number in decimal digits"),
                )
            })?)
        }
        _ => None,
    };
    if !r.finished {
        return Ok(None);
    }
    let Some(list) = &r.list else {
        if r.proven {
            return Ok(count);
        }
        return Err(invalid(
            "list",
            "a finished part names the subtree list it searched".into(),
        ));
    };
    match &r.subpart {
        None => {
            if !fair_share(r.taken, list.subtrees, n) {
                return Err(invalid(
                    "taken",
                    format!(
                        "{} subtrees: part {i} of {n} of a list of {} takes {} to {}",
                        r.taken,
                        list.subtrees,
                        list.subtrees / n,
                        list.subtrees.div_ceil(n)
                    ),
                ));
            }
        }
        Some(s) => {
            let m = s.index[1];
            if !fair_share(s.of_subtrees, list.subtrees, n)
                || !fair_share(r.taken, s.descendants, m)
            {
                return Err(invalid(
                    "taken",
                    format!(
                        "{} of {} descendants of {} subtrees: subpart {} of {m} of part {i} of \
                         {n} of a list of {} takes a fair share of a fair share",
                        r.taken, s.descendants, s.of_subtrees, s.index[0], list.subtrees
                    ),
                ));
            }
        }
    }
    let maximize = r.goal == "maximize";
    // Strictly better, in the goal's direction.
    let beats = |a: u64, b: u64| if maximize { a > b } else { a < b };
    if counting {
        if count.is_none() {
            return Err(invalid(
                "count",
                "null: a finished part of a count says its count".into(),
            ));
        }
        if r.none_below.is_some() {
            return Err(invalid(
                "none_below",
                format!("a bound in a part of goal {}", r.goal),
            ));
        }
        Ok(count)
    } else {
        let Some(v) = r.none_below else {
            return Err(invalid(
                "none_below",
                "null: a finished part of an optimisation says what it proved".into(),
            ));
        };
        if r.count.is_some() {
            return Err(invalid(
                "count",
                format!("a count in a part of goal {}", r.goal),
            ));
        }
        // A part searches below the list's bar: it proves nothing beyond it, and nothing
        // beyond a placement it holds.
        if let Some(bar) = list.bar
            && beats(bar, v)
        {
            return Err(invalid(
                "none_below",
                format!("{v}: a part of the list below {bar} proves nothing beyond {bar}"),
            ));
        }
        if let Some(best) = r.best
            && beats(best, v)
        {
            return Err(invalid(
                "none_below",
                format!("{v}, but the record's own best is {best}"),
            ));
        }
        Ok(None)
    }
}

/// What one part stands for, and the records behind it.
struct Found {
    /// The first record of it.
    at: usize,
    count: Option<Natural>,
    none_below: Option<u64>,
    ats: Vec<usize>,
}

/// Part `i` of `parts` from its whole record and its complete sets of subparts, which must
/// agree with one another; `None` when it has neither.
#[allow(clippy::result_large_err)]
fn part_result(
    (i, parts): (usize, usize),
    whole: Option<&Unit>,
    subs: &BTreeMap<(usize, usize), Subparts>,
    records: &[(Source, PartRecord)],
    better: impl Fn(u64, u64) -> u64,
) -> Result<Option<Found>, MergeError> {
    let mut found: Vec<Found> = Vec::new();
    if let Some(u) = whole {
        found.push(Found {
            at: u.at,
            count: u.count.clone(),
            none_below: u.none_below,
            ats: vec![u.at],
        });
    }
    for s in subs.range((i, 0)..=(i, usize::MAX)).map(|(_, s)| s) {
        if s.units.len() != s.m {
            continue;
        }
        let (m, descendants) = (s.m, s.list.1);
        let took: u128 = s
            .units
            .values()
            .map(|u| records[u.at].1.taken as u128)
            .sum();
        let ats: Vec<usize> = s.units.values().map(|u| u.at).collect();
        if took != descendants as u128 {
            return Err(MergeError {
                at: records[ats[0]].0.clone(),
                what: MergeFault::Invalid {
                    field: "taken",
                    why: format!(
                        "the {m} subparts of part {i}/{parts} take {took} descendants of \
                         {descendants}"
                    ),
                },
            });
        }
        let mut count = Some(Natural::zero());
        let mut none_below: Option<u64> = None;
        for u in s.units.values() {
            match (&mut count, &u.count) {
                (Some(sum), Some(c)) => sum.add(c),
                _ => count = None,
            }
            none_below = match (none_below, u.none_below) {
                (Some(a), Some(b)) => Some(better(a, b)),
                (a, b) => a.or(b),
            };
        }
        found.push(Found {
            at: ats[0],
            count,
            none_below,
            ats,
        });
    }
    let mut found = found.into_iter();
    let Some(first) = found.next() else {
        return Ok(None);
    };
    for other in found {
        if (&other.count, other.none_below) != (&first.count, first.none_below) {
            return Err(MergeError {
                at: records[other.at].0.clone(),
                what: MergeFault::Disagree {
                    other: records[first.at].0.clone(),
                    part: format!("part {i}/{parts}"),
                    theirs: unit_text(&first.count, first.none_below),
                    ours: unit_text(&other.count, other.none_below),
                },
            });
        }
    }
    Ok(Some(first))
}

#[allow(clippy::result_large_err)]
pub fn merge(records: &[(Source, PartRecord)]) -> Result<Merged, MergeError> {
    let Some((first_at, first)) = records.first() else {
        return Err(MergeError {
            at: Source {
                file: "-".into(),
                line: 0,
            },
            what: MergeFault::Empty,
        });
    };
    let parts = first.part[1];
    let maximize = first.goal == "maximize";
    let better = |a: u64, b: u64| if maximize { a.max(b) } else { a.min(b) };
    let mut whole: BTreeMap<usize, Unit> = BTreeMap::new();
    let mut subs: BTreeMap<(usize, usize), Subparts> = BTreeMap::new();
    let mut stopped = Vec::new();
    let mut lists: Option<usize> = None;
    let mut outright: Option<usize> = None;
    let mut builds: Vec<String> = Vec::new();
    let (mut spent_nodes, mut spent_seconds) = (0u128, 0.0);
    for (k, (at, r)) in records.iter().enumerate() {
        let count = check((first_at, first), (at, r))?;
        let disagree = |other: usize, part: String, theirs: String, ours: String| MergeError {
            at: at.clone(),
            what: MergeFault::Disagree {
                other: records[other].0.clone(),
                part,
                theirs,
                ours,
            },
        };
        let build = build_name(r);
        if !builds.contains(&build) {
            builds.push(build);
        }
        spent_nodes += u128::from(r.nodes.unwrap_or(0));
        spent_seconds += r.seconds;
        // Parts stopped before they made their list have none to compare.
        if let Some(ours) = &r.list {
            match lists {
                Some(l) => {
                    let list = records[l].1.list.as_ref().expect("a record with a list");
                    if list != ours {
                        return Err(MergeError {
                            at: at.clone(),
                            what: MergeFault::Differs {
                                field: "list",
                                first: records[l].0.clone(),
                                theirs: list_text(list),
                                ours: list_text(ours),
                            },
                        });
                    }
                }
                None => lists = Some(k),
            }
        }
        // A run that proves the answer at the root does so in every part: one that cut a
        // list instead is another search.
        if r.proven {
            match outright {
                Some(p) => {
                    let o = &records[p].1;
                    if (&o.count, o.best) != (&r.count, r.best) {
                        let text =
                            |r: &PartRecord| format!("count {:?}, best {:?}", r.count, r.best);
                        return Err(disagree(p, "the root".into(), text(o), text(r)));
                    }
                }
                None => outright = Some(k),
            }
        }
        if let (Some(p), Some(l)) = (outright, lists) {
            let (a, b) = (p.min(l), p.max(l));
            let what = |x: usize| {
                if x == p {
                    "the whole answer proven before any list".to_string()
                } else {
                    "a subtree list cut".to_string()
                }
            };
            return Err(disagree(a, "the root".into(), what(a), what(b)));
        }
        if !r.finished {
            stopped.push(at.clone());
            continue;
        }
        if r.proven {
            continue;
        }
        let i = r.part[0];
        let unit = Unit {
            count,
            none_below: r.none_below,
            at: k,
        };
        let (slot, name) = match &r.subpart {
            None => (whole.entry(i), format!("part {i}/{parts}")),
            Some(s) => {
                let [j, m] = s.index;
                let list = (s.fingerprint.clone(), s.descendants, s.of_subtrees);
                let entry = subs.entry((i, m)).or_insert_with(|| Subparts {
                    list: list.clone(),
                    m,
                    at: k,
                    units: BTreeMap::new(),
                });
                if entry.list != list {
                    let text = |l: &(String, usize, usize)| {
                        format!("{} descendants of {} subtrees (list {})", l.1, l.2, l.0)
                    };
                    return Err(MergeError {
                        at: at.clone(),
                        what: MergeFault::Differs {
                            field: "sublist",
                            first: records[entry.at].0.clone(),
                            theirs: text(&entry.list),
                            ours: text(&list),
                        },
                    });
                }
                (entry.units.entry(j), format!("part {i}/{parts},{j}/{m}"))
            }
        };
        match slot {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(unit);
            }
            std::collections::btree_map::Entry::Occupied(o) => {
                let old = o.get();
                if old.count != unit.count || old.none_below != unit.none_below {
                    return Err(disagree(
                        old.at,
                        name,
                        unit_text(&old.count, old.none_below),
                        unit_text(&unit.count, unit.none_below),
                    ));
                }
            }
        }
    }
    if let Some(k) = outright {
        let r = &records[k].1;
        let count = r
            .count
            .as_deref()
            .and_then(|c| Natural::from_decimal(c, MAX_COUNT_DIGITS));
        let optimum = if count.is_some() { None } else { r.best };
        return Ok(Merged {
            first: r.clone(),
            parts,
            done: parts,
            missing: Vec::new(),
            stopped,
            count,
            optimum,
            solution: r.solution.clone().map(|s| (records[k].0.clone(), s)),
            nodes: r.nodes.map(u128::from),
            seconds: r.seconds,
            spent_nodes,
            spent_seconds,
            records: records.len(),
            builds,
        });
    }
    // Each part once: whole if it was run whole, else by one complete set of subparts; where
    // there are several, they must agree.
    let mut taken: Vec<usize> = Vec::new();
    let mut results: Vec<(Option<Natural>, Option<u64>)> = Vec::new();
    // Where each part's result stands: the first record of it.
    let mut results_at: Vec<(usize, Option<u64>)> = Vec::new();
    let mut missing = Vec::new();
    let mut done = 0;
    for i in 1..=parts {
        if let Some(f) = part_result((i, parts), whole.get(&i), &subs, records, better)? {
            let Found {
                at,
                count,
                none_below,
                ats,
            } = f;
            taken.extend(ats);
            results_at.push((at, none_below));
            results.push((count, none_below));
            done += 1;
            continue;
        }
        // The subparts begun with the most done, else the whole part.
        match subs
            .range((i, 0)..=(i, usize::MAX))
            .max_by_key(|(_, s)| s.units.len())
        {
            Some((&(_, m), s)) => {
                for j in (1..=m).filter(|j| !s.units.contains_key(j)) {
                    missing.push(Missing {
                        part: (i, parts),
                        subpart: Some((j, m)),
                    });
                }
            }
            None => missing.push(Missing {
                part: (i, parts),
                subpart: None,
            }),
        }
    }
    let counting = is_counting(&first.goal);
    let count = counting.then(|| {
        let mut sum = Natural::zero();
        for c in results.iter().filter_map(|(c, _)| c.as_ref()) {
            sum.add(c);
        }
        sum
    });
    // The optimum: the best any part proved none better than, or the best any record knows
    // while parts are missing (the list's bar at worst).
    let proved = results.iter().filter_map(|(_, v)| *v).reduce(better);
    let known = records.iter().filter_map(|(_, r)| r.best).reduce(better);
    let bar = lists.and_then(|l| records[l].1.list.as_ref().and_then(|l| l.bar));
    let optimum = if counting {
        // A count at an optimum given to the parts (`--optimum`): the list's bar.
        bar
    } else if missing.is_empty() {
        proved.or(known)
    } else {
        known
    };
    // Every part proved none better than the optimum: a record that claims better is a lie,
    // whichever of the two it is.
    if let (false, true, Some(v)) = (counting, missing.is_empty(), proved)
        && let Some((at, r)) = records
            .iter()
            .find(|(_, r)| r.best.is_some_and(|b| b != v && better(b, v) == b))
    {
        return Err(MergeError {
            at: at.clone(),
            what: MergeFault::Invalid {
                field: "best",
                why: format!(
                    "{}, but the parts together prove none better than {v}",
                    r.best.unwrap_or(v)
                ),
            },
        });
    }
    let solution = if counting {
        None
    } else {
        optimum.and_then(|v| {
            records
                .iter()
                .find(|(_, r)| r.best == Some(v) && r.solution.is_some())
                .and_then(|(at, r)| Some((at.clone(), r.solution.clone()?)))
        })
    };
    // An optimum is proven by parts that show none better and a record that shows a
    // placement of it: parts that claim more than any record shows prove nothing.
    if !counting
        && missing.is_empty()
        && solution.is_none()
        && let Some(v) = optimum
    {
        let at = results_at
            .iter()
            .find(|(_, nb)| *nb == Some(v))
            .map_or(0, |(k, _)| *k);
        return Err(MergeError {
            at: records[at].0.clone(),
            what: MergeFault::Invalid {
                field: "none_below",
                why: format!(
                    "the parts prove none better than {v}, but no record holds a placement \
                     of {v}"
                ),
            },
        });
    }
    let nodes = taken
        .iter()
        .map(|&k| records[k].1.nodes.map(u128::from))
        .sum();
    // From +0.0: an empty sum of floats is -0.0.
    let seconds = taken.iter().fold(0.0, |sum, &k| sum + records[k].1.seconds);
    Ok(Merged {
        first: first.clone(),
        parts,
        done,
        missing,
        stopped,
        count,
        optimum,
        solution,
        nodes,
        seconds,
        spent_nodes,
        spent_seconds,
        records: records.len(),
        builds,
    })
}
