//! Merging part records into the answer one run would give.
//!
//! Exact by construction: every record must be of one puzzle, strategy, goal, version and
//! subtree list; a part counts as searched only when its record says it finished (a part
//! stopped by a limit or a signal stands for nothing); a part split into subparts counts when
//! all M subparts of one sublist finished; a part run twice must agree with itself. A count is
//! the sum of the parts' counts; an optimum is proven only when every part is searched, and is
//! then the least (the greatest, maximising) of the values the parts proved none better than.

use std::collections::BTreeMap;

use super::record::{ListRecord, PartRecord, RECORD_TAG};

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
    /// A field differs from the first record's.
    Differs {
        field: &'static str,
        first: Source,
        theirs: String,
        ours: String,
    },
    /// A part number out of range.
    PartOutOfRange { part: usize, parts: usize },
    /// The same part (or subpart) run twice, with different results.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub part: (usize, usize),
    pub subpart: Option<(usize, usize)>,
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
    /// The sum of the searched parts' counts (counting).
    pub count: Option<u128>,
    /// The optimum (optimising): proven when nothing is missing.
    pub optimum: Option<u64>,
    pub solution: Option<Vec<usize>>,
    /// The parts' nodes added up, when every record counted its nodes.
    pub nodes: Option<u64>,
    /// The parts' seconds added up (each part counted once).
    pub seconds: f64,
    pub records: usize,
}

impl Merged {
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
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
                        "\"record\" is \"{}\", not \"{RECORD_TAG}\"",
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
    count: Option<u128>,
    none_below: Option<u64>,
    at: usize,
}

fn list_text(l: &ListRecord) -> String {
    let bar = l.bar.map(|b| format!(" below {b}")).unwrap_or_default();
    format!("{} subtrees{bar} (list {})", l.subtrees, l.fingerprint)
}

fn unit_text(u: &Unit) -> String {
    match (u.count, u.none_below) {
        (Some(c), _) => format!("count {c}"),
        (None, Some(v)) => format!("none better than {v}"),
        _ => "nothing".into(),
    }
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
    // Parts whole, and subparts by (part, m): unit results and the record behind each.
    let mut whole: BTreeMap<usize, Unit> = BTreeMap::new();
    let mut subs: BTreeMap<(usize, usize), (String, BTreeMap<usize, Unit>)> = BTreeMap::new();
    let mut stopped = Vec::new();
    let mut lists: Option<(Source, ListRecord)> = None;
    let mut outright: Option<usize> = None;
    for (k, (at, r)) in records.iter().enumerate() {
        let differs = |field: &'static str, theirs: String, ours: String| MergeError {
            at: at.clone(),
            what: MergeFault::Differs {
                field,
                first: first_at.clone(),
                theirs,
                ours,
            },
        };
        let checks: [(&'static str, String, String); 5] = [
            ("version", first.version.clone(), r.version.clone()),
            ("puzzle", first.puzzle.clone(), r.puzzle.clone()),
            ("strategy", first.strategy.clone(), r.strategy.clone()),
            ("goal", first.goal.clone(), r.goal.clone()),
            ("parts", parts.to_string(), r.part[1].to_string()),
        ];
        for (field, theirs, ours) in checks {
            if theirs != ours {
                return Err(differs(field, theirs, ours));
            }
        }
        // Parts stopped before they made their list have none to compare.
        if let (Some((list_at, list)), Some(ours)) = (&lists, &r.list) {
            if list != ours {
                return Err(MergeError {
                    at: at.clone(),
                    what: MergeFault::Differs {
                        field: "list",
                        first: list_at.clone(),
                        theirs: list_text(list),
                        ours: list_text(ours),
                    },
                });
            }
        } else if let Some(ours) = &r.list {
            lists = Some((at.clone(), ours.clone()));
        }
        let i = r.part[0];
        if i == 0 || i > parts {
            return Err(MergeError {
                at: at.clone(),
                what: MergeFault::PartOutOfRange { part: i, parts },
            });
        }
        if !r.finished {
            stopped.push(at.clone());
            continue;
        }
        if r.proven {
            outright.get_or_insert(k);
            continue;
        }
        let count = match &r.count {
            Some(c) => Some(c.parse::<u128>().map_err(|_| MergeError {
                at: at.clone(),
                what: MergeFault::NotARecord(format!("\"count\": \"{c}\" is not a count")),
            })?),
            None => None,
        };
        let unit = Unit {
            count,
            none_below: r.none_below,
            at: k,
        };
        let (slot, name) = match &r.subpart {
            None => (whole.entry(i), format!("part {i}/{parts}")),
            Some(s) => {
                let [j, m] = s.index;
                if j == 0 || j > m {
                    return Err(MergeError {
                        at: at.clone(),
                        what: MergeFault::PartOutOfRange { part: j, parts: m },
                    });
                }
                let entry = subs
                    .entry((i, m))
                    .or_insert_with(|| (s.fingerprint.clone(), BTreeMap::new()));
                if entry.0 != s.fingerprint {
                    return Err(differs("sublist", entry.0.clone(), s.fingerprint.clone()));
                }
                (entry.1.entry(j), format!("part {i}/{parts},{j}/{m}"))
            }
        };
        match slot {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(unit);
            }
            std::collections::btree_map::Entry::Occupied(o) => {
                let old = o.get();
                if old.count != unit.count || old.none_below != unit.none_below {
                    return Err(MergeError {
                        at: at.clone(),
                        what: MergeFault::Disagree {
                            other: records[old.at].0.clone(),
                            part: name,
                            theirs: unit_text(old),
                            ours: unit_text(&unit),
                        },
                    });
                }
            }
        }
    }
    // A run that proved the whole answer at the root: every part's run does, and one is enough.
    if let Some(k) = outright {
        let r = &records[k].1;
        let count = match &r.count {
            Some(c) => c.parse::<u128>().ok(),
            None => None,
        };
        return Ok(Merged {
            first: r.clone(),
            parts,
            done: parts,
            missing: Vec::new(),
            stopped,
            count,
            optimum: if count.is_some() { None } else { r.best },
            solution: r.solution.clone(),
            nodes: r.nodes,
            seconds: r.seconds,
            records: records.len(),
        });
    }
    // Each part once: whole if it was run whole, else by one complete set of subparts.
    let better = |a: u64, b: u64| if maximize { a.max(b) } else { a.min(b) };
    let mut taken: Vec<&Unit> = Vec::new();
    let mut missing = Vec::new();
    let mut done = 0;
    for i in 1..=parts {
        if let Some(u) = whole.get(&i) {
            taken.push(u);
            done += 1;
            continue;
        }
        let complete = subs
            .range((i, 0)..=(i, usize::MAX))
            .find(|((_, m), (_, units))| units.len() == *m);
        if let Some((_, (_, units))) = complete {
            taken.extend(units.values());
            done += 1;
            continue;
        }
        // The subparts begun with the most done, else the whole part.
        match subs
            .range((i, 0)..=(i, usize::MAX))
            .max_by_key(|(_, (_, units))| units.len())
        {
            Some((&(_, m), (_, units))) => {
                for j in (1..=m).filter(|j| !units.contains_key(j)) {
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
    let counting = matches!(first.goal.as_str(), "count" | "all");
    let count = counting.then(|| taken.iter().filter_map(|u| u.count).sum());
    // The optimum: the best any part proved none better than, or the best any record knows
    // while parts are missing (the list's bar at worst).
    let proved = taken.iter().filter_map(|u| u.none_below).reduce(better);
    let known = records.iter().filter_map(|(_, r)| r.best).reduce(better);
    let optimum = if counting {
        // A count at an optimum given to the parts (`--optimum`): the list's bar.
        lists.as_ref().and_then(|(_, l)| l.bar)
    } else if missing.is_empty() {
        proved.or(known)
    } else {
        known
    };
    let solution = optimum.and_then(|v| {
        records
            .iter()
            .find(|(_, r)| r.best == Some(v) && r.solution.is_some())
            .and_then(|(_, r)| r.solution.clone())
    });
    let nodes = taken.iter().map(|u| records[u.at].1.nodes).sum();
    let seconds = taken.iter().map(|u| records[u.at].1.seconds).sum();
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
        records: records.len(),
    })
}
