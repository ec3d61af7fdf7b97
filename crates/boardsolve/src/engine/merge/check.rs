//! The checks of one record by itself and against the first record: what a record can show
//! of itself without the others (its scheme, its words, its share of the list, its count or
//! bound).

use super::{MAX_COUNT_DIGITS, MAX_PARTS, MergeError, MergeFault, RunWords, Source};
use crate::engine::record::{FINGERPRINT_SCHEME, PartRecord};
use crate::util::Natural;

/// The longest time a part's record may say it ran, in seconds: about 300 years.
const MAX_SECONDS: f64 = 1e10;

/// The longest word of a record's file and arguments (Linux's longest path), and the most
/// arguments.
const MAX_WORD_BYTES: usize = 4096;
const MAX_ARGS: usize = 256;

/// Whether `taken` is a fair share of `of` things dealt to `ways` takers: every way of
/// dealing gives each taker the floor or the ceiling of their quotient.
fn fair_share(taken: usize, of: usize, ways: usize) -> bool {
    (of / ways..=of.div_ceil(ways)).contains(&taken)
}

pub(super) fn is_counting(goal: &str) -> bool {
    matches!(goal, "count" | "all")
}

/// A finished part's count of its largest placements (goal count without a size to place):
/// its largest size `v`, one placement of it, and the count at `v`, which must fit one
/// another. A part with no placement at all (it took no subtree) has size 0 and count 0.
fn largest_counted(
    r: &PartRecord,
    bar: Option<u64>,
    v: u64,
    count: &Natural,
) -> Result<(), (&'static str, String)> {
    if let Some(bar) = bar {
        return Err((
            "none_below",
            format!(
                "{v}: a count of the largest placements, in a list cut below {bar}: a count at \
                 a given optimum says no largest of its own"
            ),
        ));
    }
    let placed = r.solution.as_ref().map_or(0, Vec::len) as u64;
    if r.best.unwrap_or(0) != v || placed != v {
        let best = r.best.map_or("null".to_string(), |b| b.to_string());
        return Err((
            "best",
            format!(
                "{best} with a placement of {placed} pieces, but the part's largest is {v}: a \
                 part that counts its largest placements holds one of them"
            ),
        ));
    }
    if count.is_zero() != (v == 0) {
        return Err((
            "count",
            format!(
                "{count} placements of the part's largest size, {v}: a part counts at least the \
                 one it holds, and none only when it holds none"
            ),
        ));
    }
    Ok(())
}

/// The checks of one record by itself and against the first.
#[allow(clippy::result_large_err)]
pub(super) fn check(
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
    if first.puzzle != r.puzzle {
        // The hashes alone say nothing a user can act on: the commands that ran the two
        // parts say what differs (a size, a rule), or that the file changed between them.
        let words = |r: &PartRecord| RunWords {
            file: r.file.clone(),
            args: r.args.clone(),
            puzzle: r.puzzle.clone(),
        };
        return Err(fault(MergeFault::OtherPuzzle {
            first: first_at.clone(),
            theirs: words(first),
            ours: words(r),
        }));
    }
    let checks: [(&'static str, String, String); 5] = [
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
    if !(r.seconds.is_finite() && (0.0..=MAX_SECONDS).contains(&r.seconds)) {
        return Err(invalid(
            "seconds",
            format!(
                "{:e}: accepted: 0 to {MAX_SECONDS:e} (a part's time)",
                r.seconds
            ),
        ));
    }
    // A path and arguments go into commands: as long as a path may be, and no more words
    // than a part's options take.
    if let Some(w) = std::iter::once(&r.file)
        .chain(&r.args)
        .find(|w| w.len() > MAX_WORD_BYTES)
    {
        return Err(invalid(
            if *w == r.file { "file" } else { "args" },
            format!(
                "a word of {} bytes: accepted: up to {MAX_WORD_BYTES}",
                w.len()
            ),
        ));
    }
    if r.args.len() > MAX_ARGS {
        return Err(invalid(
            "args",
            format!("{} words: accepted: up to {MAX_ARGS}", r.args.len()),
        ));
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
    if let Some(why) = r.stopped.as_ref().filter(|_| r.finished) {
        return Err(invalid(
            "stopped",
            format!("{why:?}: a part that finished was not stopped; accepted: null"),
        ));
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
        if let (Some(v), Some(c)) = (r.none_below, &count) {
            largest_counted(r, list.bar, v, c).map_err(|(field, why)| invalid(field, why))?;
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
