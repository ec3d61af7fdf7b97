//! The records gathered part by part: each unit (a part run whole, or a subpart) once, the
//! parts made of them, and the answer they prove together.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};

use super::check::{check, is_counting};
use super::{MAX_COUNT_DIGITS, MergeError, MergeFault, Merged, Missing, Source};
use crate::engine::record::{ListRecord, PartRecord};
use crate::util::Natural;

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
        (Some(c), Some(v)) => format!("count {c} of its largest size, {v}"),
        (Some(c), _) => format!("count {c}"),
        (None, Some(v)) => format!("none better than {v}"),
        _ => "nothing".into(),
    }
}

fn build_name(r: &PartRecord) -> String {
    match &r.commit {
        Some(c) => format!("{} ({c})", r.version),
        None => r.version.clone(),
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
    largest: bool,
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
        if largest {
            // The part's largest is its subparts' largest, and its count theirs at that size.
            let top = s.units.values().filter_map(|u| u.none_below).max();
            let mut sum = Natural::zero();
            for u in s.units.values().filter(|u| u.none_below == top) {
                if let Some(c) = &u.count {
                    sum.add(c);
                }
            }
            found.push(Found {
                at: ats[0],
                count: Some(sum),
                none_below: top,
                ats,
            });
            continue;
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

/// The records read so far, by what they stand for.
struct Gather<'r> {
    records: &'r [(Source, PartRecord)],
    parts: usize,
    maximize: bool,
    whole: BTreeMap<usize, Unit>,
    subs: BTreeMap<(usize, usize), Subparts>,
    stopped: Vec<Source>,
    /// The first record with a subtree list: every other list must be the same.
    lists: Option<usize>,
    /// The first record that proves the whole answer at the root.
    outright: Option<usize>,
    /// The first finished part of a count, and whether it counts its largest placements
    /// (it says their size): every other must count alike.
    counts: Option<(usize, bool)>,
    builds: Vec<String>,
    spent_nodes: u128,
    spent_seconds: f64,
}

/// Each part once, whole or by one complete set of subparts.
struct PartResults {
    /// The records each searched part stands on.
    taken: Vec<usize>,
    results: Vec<(Option<Natural>, Option<u64>)>,
    /// Where each part's result stands: its first record.
    results_at: Vec<(usize, Option<u64>)>,
    missing: Vec<Missing>,
    done: usize,
}

impl<'r> Gather<'r> {
    fn new(records: &'r [(Source, PartRecord)], first: &PartRecord) -> Gather<'r> {
        Gather {
            records,
            parts: first.part[1],
            maximize: first.goal == "maximize",
            whole: BTreeMap::new(),
            subs: BTreeMap::new(),
            stopped: Vec::new(),
            lists: None,
            outright: None,
            counts: None,
            builds: Vec::new(),
            spent_nodes: 0,
            spent_seconds: 0.0,
        }
    }

    fn better(&self, a: u64, b: u64) -> u64 {
        if self.maximize { a.max(b) } else { a.min(b) }
    }

    fn disagree(
        &self,
        k: usize,
        other: usize,
        part: String,
        theirs: String,
        ours: String,
    ) -> MergeError {
        MergeError {
            at: self.records[k].0.clone(),
            what: MergeFault::Disagree {
                other: self.records[other].0.clone(),
                part,
                theirs,
                ours,
            },
        }
    }

    /// Record `k`, checked by itself, against the others read so far.
    #[allow(clippy::result_large_err)]
    fn add(&mut self, k: usize, count: Option<Natural>) -> Result<(), MergeError> {
        let (at, r) = &self.records[k];
        let build = build_name(r);
        if !self.builds.contains(&build) {
            self.builds.push(build);
        }
        self.spent_nodes += u128::from(r.nodes.unwrap_or(0));
        self.spent_seconds += r.seconds;
        self.same_list(k)?;
        self.same_root(k)?;
        if !r.finished {
            self.stopped.push(at.clone());
            return Ok(());
        }
        if r.proven {
            return Ok(());
        }
        self.same_count(k)?;
        self.add_unit(k, count)
    }

    /// A count of the largest placements says each part's largest size; a count of one size
    /// says none: records of both are of two searches.
    #[allow(clippy::result_large_err)]
    fn same_count(&mut self, k: usize) -> Result<(), MergeError> {
        let r = &self.records[k].1;
        if !is_counting(&r.goal) {
            return Ok(());
        }
        let largest = r.none_below.is_some();
        match self.counts {
            None => self.counts = Some((k, largest)),
            Some((first, theirs)) if theirs != largest => {
                let what = |l: bool| {
                    if l {
                        "a count of the part's largest placements, with their size".to_string()
                    } else {
                        "a count of placements of one size".to_string()
                    }
                };
                return Err(MergeError {
                    at: self.records[k].0.clone(),
                    what: MergeFault::Differs {
                        field: "none_below",
                        first: self.records[first].0.clone(),
                        theirs: what(theirs),
                        ours: what(largest),
                    },
                });
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// Whether the parts count their largest placements (goal count without a size).
    fn largest(&self) -> bool {
        self.counts.is_some_and(|(_, l)| l)
    }

    /// Parts stopped before they made their list have none to compare.
    #[allow(clippy::result_large_err)]
    fn same_list(&mut self, k: usize) -> Result<(), MergeError> {
        let (at, r) = &self.records[k];
        let Some(ours) = &r.list else { return Ok(()) };
        let Some(l) = self.lists else {
            self.lists = Some(k);
            return Ok(());
        };
        let list = self.records[l]
            .1
            .list
            .as_ref()
            .expect("a record with a list");
        if list != ours {
            return Err(MergeError {
                at: at.clone(),
                what: MergeFault::Differs {
                    field: "list",
                    first: self.records[l].0.clone(),
                    theirs: list_text(list),
                    ours: list_text(ours),
                },
            });
        }
        Ok(())
    }

    /// A run that proves the answer at the root does so in every part: one that cut a list
    /// instead is another search.
    #[allow(clippy::result_large_err)]
    fn same_root(&mut self, k: usize) -> Result<(), MergeError> {
        let r = &self.records[k].1;
        if r.proven {
            match self.outright {
                Some(p) => {
                    let o = &self.records[p].1;
                    if (&o.count, o.best) != (&r.count, r.best) {
                        let text =
                            |r: &PartRecord| format!("count {:?}, best {:?}", r.count, r.best);
                        return Err(self.disagree(k, p, "the root".into(), text(o), text(r)));
                    }
                }
                None => self.outright = Some(k),
            }
        }
        if let (Some(p), Some(l)) = (self.outright, self.lists) {
            let (a, b) = (p.min(l), p.max(l));
            let what = |x: usize| {
                if x == p {
                    "the whole answer proven before any list".to_string()
                } else {
                    "a subtree list cut".to_string()
                }
            };
            return Err(self.disagree(k, a, "the root".into(), what(a), what(b)));
        }
        Ok(())
    }

    /// A finished part or subpart: the first record of it, or one that agrees with it.
    #[allow(clippy::result_large_err)]
    fn add_unit(&mut self, k: usize, count: Option<Natural>) -> Result<(), MergeError> {
        let (at, r) = &self.records[k];
        let (i, parts) = (r.part[0], self.parts);
        let unit = Unit {
            count,
            none_below: r.none_below,
            at: k,
        };
        let (slot, name) = match &r.subpart {
            None => (self.whole.entry(i), format!("part {i}/{parts}")),
            Some(s) => {
                let [j, m] = s.index;
                let list = (s.fingerprint.clone(), s.descendants, s.of_subtrees);
                let entry = self.subs.entry((i, m)).or_insert_with(|| Subparts {
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
                            first: self.records[entry.at].0.clone(),
                            theirs: text(&entry.list),
                            ours: text(&list),
                        },
                    });
                }
                (entry.units.entry(j), format!("part {i}/{parts},{j}/{m}"))
            }
        };
        match slot {
            Entry::Vacant(v) => {
                v.insert(unit);
            }
            Entry::Occupied(o) => {
                let old = o.get();
                if old.count != unit.count || old.none_below != unit.none_below {
                    let (theirs, ours) = (
                        unit_text(&old.count, old.none_below),
                        unit_text(&unit.count, unit.none_below),
                    );
                    let old_at = old.at;
                    return Err(self.disagree(k, old_at, name, theirs, ours));
                }
            }
        }
        Ok(())
    }

    /// The answer proven at the root by record `k`: every part says the same.
    fn proven_at_root(self, k: usize) -> Merged {
        let (at, r) = &self.records[k];
        let count = r
            .count
            .as_deref()
            .and_then(|c| Natural::from_decimal(c, MAX_COUNT_DIGITS));
        let optimum = if count.is_some() { None } else { r.best };
        Merged {
            first: r.clone(),
            parts: self.parts,
            done: self.parts,
            missing: Vec::new(),
            stopped: self.stopped,
            count,
            optimum,
            solution: r.solution.clone().map(|s| (at.clone(), s)),
            nodes: r.nodes.map(u128::from),
            seconds: r.seconds,
            spent_nodes: self.spent_nodes,
            spent_seconds: self.spent_seconds,
            records: self.records.len(),
            builds: self.builds,
            largest: false,
        }
    }

    /// Each part once: whole if it was run whole, else by one complete set of subparts;
    /// where there are several, they must agree. A part with neither is missing: the
    /// subparts begun with the most done, else the whole part.
    #[allow(clippy::result_large_err)]
    fn part_results(&self) -> Result<PartResults, MergeError> {
        let parts = self.parts;
        let mut out = PartResults {
            taken: Vec::new(),
            results: Vec::new(),
            results_at: Vec::new(),
            missing: Vec::new(),
            done: 0,
        };
        for i in 1..=parts {
            let better = |a, b| self.better(a, b);
            if let Some(f) = part_result(
                (i, parts),
                self.whole.get(&i),
                &self.subs,
                self.records,
                better,
                self.largest(),
            )? {
                out.taken.extend(f.ats);
                out.results_at.push((f.at, f.none_below));
                out.results.push((f.count, f.none_below));
                out.done += 1;
                continue;
            }
            match self
                .subs
                .range((i, 0)..=(i, usize::MAX))
                .max_by_key(|(_, s)| s.units.len())
            {
                Some((&(_, m), s)) => {
                    for j in (1..=m).filter(|j| !s.units.contains_key(j)) {
                        out.missing.push(Missing {
                            part: (i, parts),
                            subpart: Some((j, m)),
                        });
                    }
                }
                None => out.missing.push(Missing {
                    part: (i, parts),
                    subpart: None,
                }),
            }
        }
        Ok(out)
    }

    /// The answer the parts prove together, with the checks no single record can fail.
    #[allow(clippy::result_large_err)]
    fn answer(self, first: &PartRecord, p: PartResults) -> Result<Merged, MergeError> {
        let records = self.records;
        let largest = self.largest();
        // The largest placements are the largest size any part holds; the parts below it
        // hold none of them.
        let better = |a: u64, b: u64| if largest { a.max(b) } else { self.better(a, b) };
        let counting = is_counting(&first.goal);
        let top = p.results.iter().filter_map(|(_, v)| *v).max();
        let count = counting.then(|| {
            let mut sum = Natural::zero();
            for (c, v) in &p.results {
                if let (Some(c), true) = (c, !largest || *v == top) {
                    sum.add(c);
                }
            }
            sum
        });
        // The optimum: the best any part proved none better than, or the best any record
        // knows while parts are missing (the list's bar at worst).
        let proved = p.results.iter().filter_map(|(_, v)| *v).reduce(better);
        let known = records.iter().filter_map(|(_, r)| r.best).reduce(better);
        let bar = self
            .lists
            .and_then(|l| records[l].1.list.as_ref().and_then(|l| l.bar));
        let optimum = if counting && largest {
            top
        } else if counting {
            // A count at an optimum given to the parts (`--optimum`): the list's bar.
            bar
        } else if p.missing.is_empty() {
            proved.or(known)
        } else {
            known
        };
        // Every part proved none better than the optimum: a record that claims better is a
        // lie, whichever of the two it is.
        if let (false, true, Some(v)) = (counting && !largest, p.missing.is_empty(), proved)
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
        // A count of the largest placements shows one, as one run does.
        let solution = if counting && !largest {
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
            && p.missing.is_empty()
            && solution.is_none()
            && let Some(v) = optimum
        {
            let at = p
                .results_at
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
        let nodes = p
            .taken
            .iter()
            .map(|&k| records[k].1.nodes.map(u128::from))
            .sum();
        // From +0.0: an empty sum of floats is -0.0.
        let seconds = p
            .taken
            .iter()
            .fold(0.0, |sum, &k| sum + records[k].1.seconds);
        Ok(Merged {
            first: first.clone(),
            parts: self.parts,
            done: p.done,
            missing: p.missing,
            stopped: self.stopped,
            count,
            optimum,
            solution,
            nodes,
            seconds,
            spent_nodes: self.spent_nodes,
            spent_seconds: self.spent_seconds,
            records: records.len(),
            builds: self.builds,
            largest,
        })
    }
}

/// The merge of `records` (see the module's comment).
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
    let mut gather = Gather::new(records, first);
    // The records so far, each by its whole text, to find one read twice: a hash, so that
    // many records of one part (runs again, or forged) cost no more than as many parts.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (k, (at, r)) in records.iter().enumerate() {
        // Records equal as data print the same (their fields in order, floats exactly).
        let text = format!("{r:?}");
        if let Some(&j) = seen.get(&text) {
            return Err(MergeError {
                at: at.clone(),
                what: MergeFault::SameRecord {
                    first: records[j].0.clone(),
                },
            });
        }
        seen.insert(text, k);
        let count = check((first_at, first), (at, r))?;
        gather.add(k, count)?;
    }
    if let Some(k) = gather.outright {
        return Ok(gather.proven_at_root(k));
    }
    let results = gather.part_results()?;
    gather.answer(first, results)
}
