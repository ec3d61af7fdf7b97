//! `count`: exact counting by frontier dynamic programming, for the knight on boards whose
//! shorter side is at most 10 (holes allowed).
//!
//! Where it applies: goal count, the knight (any board shape and holes, from every start or
//! a given one, open or closed) with a shorter side of at most [`MAX_SHORT_SIDE`], so that
//! the frontier's labels fit 4 bits a square. It counts without listing (listing takes
//! `backtrack`). Its limit is memory: the number of frontier states grows quickly with the
//! shorter side, and a board whose states outgrow the budget (`--memory`) at one square
//! stops with a memory limit rather than an answer. `--threads` expands and merges the
//! squares with many states on several threads. Open tours on boards 7 wide or more are a
//! sum of sweeps, one per pair of ends up to symmetry (ends.rs), a sweep a thread: letting
//! any square end the tour multiplies a 7-wide frontier's states past any memory. Those
//! sweeps are also what `--part` deals out, on any board: a part of an open count is a set
//! of pairs' sweeps, while a closed count (one sweep) does not split. Closed tours up to
//! symmetry (`--unique`) add the tours each symmetry keeps (fixed.rs).
//!
//! The sweep itself (sweep.rs) takes the squares one at a time, keeping the states of the
//! frontier, the last 2w + 1 squares, w the shorter side; rule.rs says what a square allows
//! and expand.rs expands the states there. This file is what the engine calls: whether the
//! strategy applies, which sweeps make the count, and the answer they give.
//!
//! Conventions (puzzle-format.md section 3): closed tours are undirected cycles; open tours
//! without a start are directed (twice the paths); with a start, directed from it. A fixed
//! end (an open tour's start, or both ends of a pair) has exactly one move; a closed tour's
//! start is a square like the others, every cycle passing it.

use std::sync::Mutex;

use super::ends::{EndPair, PAIRS_FROM_SIDE, end_pairs};
use super::exists::Existence;
use super::fixed::{Fixed, classify};
use super::model::{KNIGHT, Model};
use super::rule::MAX_SHORT_SIDE;
use super::spill::SpillStats;
use super::states::{Memory, Ways};
use super::sweep::{Pass, Report, Widest, count_as};
use super::vocab::{TourBug, TourNote, TourReason, TourRefusal};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Goal, Note, Prefix, Run, Task};
use crate::kinds::CountNote;
use crate::kinds::{Strategy, parts};
use crate::util::Natural;

pub struct Count;

impl Strategy<Model> for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn about(&self) -> &'static str {
        "exact counts by frontier dynamic programming (knight, shorter side up to 10); \
         every prefix in one sweep (--prefixes); closed tours up to symmetry (--unique); \
         open tours in parts (--part), a sweep per pair of ends"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.partial() && !splits_by_pairs(m, task.prefixes) {
            return Err(TourRefusal::CountNoSubtrees.into());
        }
        if task.partial() {
            parts::counts_only(task)?;
            // A part counts some of the board's open paths, each at most both ways.
            let (a, b) = path_bits(m);
            let bits = a.min(b) + 1.0;
            if bits > 128.0 {
                return Err(TourRefusal::PartBits { bits }.into());
            }
        }
        if task.goal != Goal::Count {
            return Err(TourRefusal::CountGoal.into());
        }
        if task.unique {
            if !m.closed || m.start.is_some() || task.prefixes || task.partial() {
                return Err(TourRefusal::UniqueClosedWhole.into());
            }
            classify(m)?;
        }
        if m.piece.leaps != [(2, 1)] {
            return Err(TourRefusal::KnightFrontier.into());
        }
        let short = m.board.width.min(m.board.height);
        if short > MAX_SHORT_SIDE {
            return Err(TourRefusal::ShortSide {
                short,
                max: MAX_SHORT_SIDE,
            }
            .into());
        }
        if task.prefixes && !m.closed {
            return Err(TourRefusal::PrefixesOpen.into());
        }
        if task.prefixes && m.start.is_some() {
            return Err(TourRefusal::PrefixesStart.into());
        }
        let bits = count_bits(m);
        if bits > Widest::BITS as f64 {
            return Err(TourRefusal::CountBits {
                bits,
                max: Widest::BITS,
            }
            .into());
        }
        Ok(())
    }
    fn counts_prefixes(&self) -> bool {
        true
    }
    /// Open tours only (`applies` says so): a sweep per pair of ends.
    fn splits(&self) -> bool {
        true
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        // A board without a tour may still have prefixes with one.
        if !task.prefixes
            && let Some(a) = m.settled()
        {
            return a;
        }
        if task.part.is_some() {
            let mut a = part(m, task, run);
            a.notes.extend(m.counting_note(task));
            return a;
        }
        let pairs = by_pairs(m, task.prefixes).then(|| end_pairs(m));
        let mut report = Report::default();
        let counted = count(m, pairs.as_deref(), task, &mut report, run);
        let (frontier, spilled) = (report.frontier, report.spill.map(spilled_note));
        let mut a = match counted {
            Ok((c, _)) if task.unique => up_to_symmetry(m, c, task, run),
            Ok((c, prefixes)) => Answer {
                prefixes,
                frontier,
                ..Answer::natural(c)
            },
            Err(outgrew) => {
                let mut a = Answer {
                    frontier,
                    ..Answer::default()
                };
                a.notes.extend(outgrew);
                a.notes.extend(spilled);
                return a;
            }
        };
        a.notes.extend(spilled);
        if a.count == Some(0) {
            a.reason = Some(
                match m.existence {
                    Existence::Exists(_) => TourReason::Bug(TourBug::CountIsZero),
                    _ => TourReason::CountIsZero,
                }
                .into(),
            );
        }
        a.notes.extend(m.counting_note(task));
        if let Some(pairs) = pairs {
            a.notes.push(Note::from(TourNote::EndPairs {
                sweeps: pairs.len(),
                pairs: pairs.iter().map(|p| p.weight).sum(),
            }));
        }
        a
    }
}

/// An upper bound on the bits of any count on the board (a path's edges at a square are at
/// most two of its moves, the direction doubles): the count is refused past [`Widest`]
/// up front rather than overflowing after hours.
fn count_bits(m: &Model) -> f64 {
    let (a, b) = class_bits(m);
    1.0 + a + b
}

/// For each colour, the bits of the product over its squares of the ways to pick at most two
/// of a square's moves.
fn class_bits(m: &Model) -> (f64, f64) {
    let mut bits = [0.0, 0.0];
    for (colour, d) in degrees(m) {
        bits[colour] += (1.0 + d + d * (d - 1.0) / 2.0).log2();
    }
    (bits[0], bits[1])
}

/// For each colour, the bits of a bound on the undirected open paths through every cell.
/// Every move joins the two colours, so a path's edges are those it takes at the squares of
/// one colour, and they tell the path: two moves at each square of that colour, one at an
/// end, of which there are at most two. The bound is the sum, over the ways to pick at most
/// two of its squares as ends, of the product of the ways to pick one move at an end and two
/// elsewhere (the elementary symmetric sums of the ends' ratios, built square by square).
/// A single cell is its own path.
fn path_bits(m: &Model) -> (f64, f64) {
    // Ways with no end, one end and two ends among the squares so far, per colour.
    let mut ways = [[1.0f64, 0.0, 0.0]; 2];
    for (colour, d) in degrees(m) {
        let [e0, e1, e2] = ways[colour];
        let (two, one) = (d * (d - 1.0) / 2.0, d);
        ways[colour] = [e0 * two, e1 * two + e0 * one, e2 * two + e1 * one];
    }
    let bits = |w: [f64; 3]| (w[0] + w[1] + w[2]).max(1.0).log2();
    (bits(ways[0]), bits(ways[1]))
}

/// Each cell's colour and the number of its moves that land on cells.
fn degrees(m: &Model) -> Vec<(usize, f64)> {
    let b = &m.board;
    let mut out = Vec::with_capacity(m.cells);
    for s in (0..b.width * b.height).filter(|&s| !b.is_hole(s)) {
        let (r, c) = (s / b.width, s % b.width);
        let d = KNIGHT
            .iter()
            .filter(|&&(dr, dc)| {
                let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                r2 >= 0
                    && c2 >= 0
                    && (r2 as usize) < b.height
                    && (c2 as usize) < b.width
                    && !b.is_hole(r2 as usize * b.width + c2 as usize)
            })
            .count() as f64;
        out.push(((r + c) % 2, d));
    }
    out
}

/// The count, or why there is none: `Err(Some(note))` when the states outgrew the memory
/// (the run is then stopped as a memory limit, or as a disk one where the scratch folder
/// failed), `Err(None)` for the run's other limits.
/// Open tours are summed over `pairs` of ends where given, else counted in one sweep, whose
/// states after each square go to `frontier`.
fn count(
    m: &Model,
    pairs: Option<&[EndPair]>,
    task: &Task,
    report: &mut Report,
    run: &mut Run,
) -> Result<(Natural, Vec<Prefix>), Option<Note>> {
    let mem = Memory::new(task.memory);
    let threads = task.threads.max(1);
    let pass = match pairs {
        Some(pairs) => count_by_pairs(m, pairs, threads, &mem, task.scratch, report, run),
        None => count_in(
            m,
            &[],
            threads,
            &mem,
            task.scratch,
            task.prefixes,
            report,
            run,
        ),
    };
    match pass {
        Pass::Done(mut c, prefixes) => {
            // Paths counted once each; without a start they are directed both ways.
            if m.directions() == 2 {
                c.add(&c.clone());
            }
            Ok((c, prefixes))
        }
        Pass::Outgrew(note) => {
            stop_for(&note, run);
            Err(Some(note))
        }
        Pass::Stopped => Err(None),
    }
}

/// A part of the sum over pairs of ends (`--part`), on any board: the list of subtrees is
/// the sweeps of `end_pairs`, costliest first, dealt to the parts back and forth; each sweep
/// counts its pair's paths, weighed by its orbit and doubled for direction as the whole
/// count does, so that the parts' counts add up to the whole count. A pair's sweep is a
/// leaf: subparts deal a part's sweeps again. The list's fingerprint takes each sweep's
/// ends and weight, so parts of one count agree on it and parts of two lists do not merge.
/// Below [`PAIRS_FROM_SIDE`] a whole run sweeps once with free ends instead, so the parts'
/// states (their nodes) add up to more than its own.
fn part(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let pairs = end_pairs(m);
    let expand = |node: &Option<usize>, _: &mut Run| match node {
        None => Expand::Children((0..pairs.len()).map(Some).collect()),
        Some(_) => Expand::Leaf,
    };
    let key = |node: &Option<usize>, f: &mut Fingerprint| {
        if let Some(i) = *node {
            let p = &pairs[i];
            for x in [p.ends[0], p.ends[1], p.weight as usize] {
                f.eat(x as u64);
            }
        }
    };
    let Some(cut) = split::cut(task, run, None, None, expand, key) else {
        return Answer::default();
    };
    let mem = Memory::new(task.memory);
    let directions = u128::from(m.directions());
    let spills: Mutex<Vec<SpillStats>> = Mutex::new(Vec::new());
    // A pair's sweep, its count added to the run; what outgrew the budget comes back with
    // whether it would have outgrown the budget alone too.
    let sweep = |i: usize, threads: usize, run: &mut Run| {
        let (pair, share) = (&pairs[i], mem.share());
        let mut own = Report::default();
        let pass = count_in(
            m,
            &pair.ends,
            threads,
            &share,
            task.scratch,
            false,
            &mut own,
            run,
        );
        if let Some(sp) = own.spill {
            spills.lock().unwrap_or_else(|e| e.into_inner()).push(sp);
        }
        match pass {
            Pass::Done(c, _) => {
                let c = c
                    .to_u128()
                    .expect("applies() bounds a part's counts by 128 bits");
                run.count(c * pair.weight as u128 * directions);
                None
            }
            Pass::Outgrew(note) => Some((note, hopeless(&share, task.scratch))),
            Pass::Stopped => None,
        }
    };
    let outgrew: Mutex<Option<Note>> = Mutex::new(None);
    let again: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    // The sweeps share the threads out; a part of fewer sweeps than threads (on 8x8, every
    // part is one sweep) gives each sweep its share of them.
    let threads = (task.threads / cut.nodes.len().max(1)).max(1);
    parts::search_part(task, run, &cut.nodes, |node, run| {
        let i = node.expect("the root is never a part's subtree");
        match sweep(i, threads, run) {
            // Beside the others' lists, or on threads that each keep buckets: it runs again
            // alone, as a whole count's pairs do (count_by_pairs). On one thread it ran
            // alone already.
            Some((_, false)) if task.threads > 1 => {
                again.lock().unwrap_or_else(|e| e.into_inner()).push(i)
            }
            Some((note, _)) => {
                stop_for(&note, run);
                *outgrew.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
            }
            None => {}
        }
    });
    let mut again = again.into_inner().unwrap_or_else(|e| e.into_inner());
    again.sort_unstable();
    for i in again {
        if run.check() {
            break;
        }
        if let Some((note, _)) = sweep(i, 1, run) {
            stop_for(&note, run);
            *outgrew.lock().unwrap_or_else(|e| e.into_inner()) = Some(note);
        }
    }
    let mut a = parts::counted(task, run, cut);
    a.notes
        .extend(outgrew.into_inner().unwrap_or_else(|e| e.into_inner()));
    let spills = spills.into_inner().unwrap_or_else(|e| e.into_inner());
    a.notes.extend(SpillStats::sum(spills).map(spilled_note));
    a
}

/// Whether a sweep that outgrew the budget it shared with others would outgrow it alone
/// too. Only in memory do its own lists tell: a sweep that spills keeps in memory what the
/// room left to it allows, and with the whole budget it plans its squares otherwise.
fn hopeless(share: &Memory, scratch: Option<&std::path::Path>) -> bool {
    scratch.is_none() && share.outgrew_alone()
}

/// Stop `run` for what stopped a sweep: its scratch folder, or the memory.
fn stop_for(note: &Note, run: &mut Run) {
    if matches!(note.get::<TourNote>(), Some(TourNote::ScratchFailed { .. })) {
        run.out_of_disk();
    } else {
        run.out_of_memory();
    }
}

/// Whether the tours of `m` are a sum over pairs of ends, which `--part` deals out: open
/// tours, without prefixes.
fn splits_by_pairs(m: &Model, prefixes: bool) -> bool {
    !m.closed && !prefixes
}

/// Whether a whole run counts the open tours of `m` pair of ends by pair (ends.rs).
fn by_pairs(m: &Model, prefixes: bool) -> bool {
    let short = m.board.width.min(m.board.height);
    splits_by_pairs(m, prefixes) && short >= PAIRS_FROM_SIDE && m.cells > 2
}

/// The undirected paths through every cell (from the start, if given), summed over the
/// pairs of ends that `end_pairs` lists, a sweep a thread.
fn count_by_pairs(
    m: &Model,
    pairs: &[EndPair],
    threads: usize,
    mem: &Memory,
    scratch: Option<&'static std::path::Path>,
    report: &mut Report,
    run: &mut Run,
) -> Pass {
    let passes: Vec<Mutex<Option<Pass>>> = pairs.iter().map(|_| Mutex::new(None)).collect();
    let spills: Mutex<Vec<SpillStats>> = Mutex::new(Vec::new());
    let items: Vec<usize> = (0..pairs.len()).collect();
    let keep_spill = |own: Report| {
        if let Some(sp) = own.spill {
            spills.lock().unwrap_or_else(|e| e.into_inner()).push(sp);
        }
    };
    run.share_out(&items, threads, |&i, child| {
        let mut own = Report::default();
        let share = mem.share();
        let pass = count_in(
            m,
            &pairs[i].ends,
            1,
            &share,
            scratch,
            false,
            &mut own,
            child,
        );
        keep_spill(own);
        if matches!(pass, Pass::Outgrew(_)) && hopeless(&share, scratch) {
            // It would outgrow the budget alone too: the count cannot be whole, and the
            // other sweeps stop now.
            child.out_of_memory();
        }
        *passes[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(pass);
    });
    // A sweep that outgrew the budget it shared with the others runs again alone, with the
    // whole budget; only if it outgrows that too is the count cut short. Still on one
    // thread: a sweep's threads each keep buckets, which may not fit where one thread's do.
    for (i, pass) in passes.iter().enumerate() {
        let mut pass = pass.lock().unwrap_or_else(|e| e.into_inner());
        if !matches!(*pass, Some(Pass::Outgrew(_))) || run.check() {
            continue;
        }
        let mut own = Report::default();
        let again = count_in(
            m,
            &pairs[i].ends,
            1,
            &mem.share(),
            scratch,
            false,
            &mut own,
            run,
        );
        keep_spill(own);
        let outgrew = matches!(again, Pass::Outgrew(_));
        *pass = Some(again);
        if outgrew {
            break;
        }
    }
    report.spill = SpillStats::sum(spills.into_inner().unwrap_or_else(|e| e.into_inner()));
    let mut total = Natural::zero();
    let mut stopped = false;
    for (pair, pass) in pairs.iter().zip(passes) {
        match pass.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Pass::Done(c, _)) => {
                for _ in 0..pair.weight {
                    total.add(&c);
                }
            }
            Some(Pass::Outgrew(note)) => return Pass::Outgrew(note),
            Some(Pass::Stopped) | None => stopped = true,
        }
    }
    if stopped {
        run.check();
        return Pass::Stopped;
    }
    Pass::Done(total, Vec::new())
}

/// The count, with counts in the narrowest of `u64`, `u128` and `Wide` that cannot
/// overflow: `Stopped` when a limit of the run struck.
#[allow(clippy::too_many_arguments)]
fn count_in(
    m: &Model,
    ends: &[usize],
    threads: usize,
    mem: &Memory,
    scratch: Option<&std::path::Path>,
    prefixes: bool,
    report: &mut Report,
    run: &mut Run,
) -> Pass {
    count_as(
        m, ends, threads, mem, scratch, prefixes, false, false, report, run,
    )
}

/// The note of what a count wrote to disk.
fn spilled_note(s: SpillStats) -> Note {
    Note::from(TourNote::Spilled {
        dir: s.dir,
        squares: s.squares,
        runs: s.runs,
        peak: s.peak,
        written: s.written,
        read: s.read,
    })
}

/// The classes of the closed `tours` under the board's symmetries: Burnside's sum of the
/// tours each symmetry fixes (fixed.rs) over the group's order; no count where a limit of
/// the run struck first.
fn up_to_symmetry(m: &Model, tours: Natural, task: &Task, run: &mut Run) -> Answer {
    let fixed = classify(m).expect("applies() refuses the boards it cannot count");
    let mem = Memory::new(task.memory);
    let mut sum = tours.clone();
    for f in &fixed {
        if *f == Fixed::HalfTurn {
            match count_half_turn(m, task.threads.max(1), &mem, task.scratch, run) {
                Pass::Done(c, _) => sum.add(&c),
                Pass::Outgrew(note) => {
                    stop_for(&note, run);
                    let mut a = Answer::default();
                    a.notes.push(note);
                    return a;
                }
                Pass::Stopped => return Answer::default(),
            }
        }
    }
    let order = fixed.len() as u64 + 1;
    let left = sum.div_rem_small(order);
    let mut a = Answer::natural(sum);
    if left != 0 {
        a.reason = Some(TourReason::Bug(TourBug::WeightsUneven).into());
    }
    if let Some(t) = tours.to_u128() {
        a.notes.push(CountNote::SolutionsInAll(t).into());
    }
    a
}

/// The closed tours that the half turn maps to themselves (fixed.rs).
fn count_half_turn(
    m: &Model,
    threads: usize,
    mem: &Memory,
    scratch: Option<&std::path::Path>,
    run: &mut Run,
) -> Pass {
    count_as(
        m,
        &[],
        threads,
        mem,
        scratch,
        false,
        false,
        true,
        &mut Report::default(),
        run,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Clock, Limits, StopReason};
    use crate::spec::{KindSpec, Overrides, Spec};

    fn model(text: &str) -> Model {
        let spec = Spec::parse("t.toml", text, &Overrides::default()).unwrap();
        let KindSpec::Tour(rules) = &spec.rules else {
            panic!("a tour puzzle");
        };
        Model::compile(&spec, rules).unwrap()
    }

    fn total(pass: Pass) -> u128 {
        match pass {
            Pass::Done(c, _) => c.to_u128().unwrap(),
            _ => panic!("the count did not finish"),
        }
    }

    #[test]
    fn the_pairs_of_ends_sum_to_the_sweep_with_free_ends() {
        // Boards too small for `by_pairs` to choose the pairs, as their parts (`--part`)
        // count them: both ways in process, with holes, a start, odd and even numbers of
        // cells, and the boards of one, two and three cells.
        let boards = [
            "[board]\nsize = 1\n",
            "[board]\nsize = 1\n[rules]\nstart = [0, 0]\n",
            "[board]\nwidth = 3\nheight = 2\nholes = [[0, 1], [0, 2], [1, 0], [1, 1]]\n",
            "[board]\nsize = 3\nholes = [[0, 1], [0, 2], [1, 0], [1, 1], [2, 0], [2, 2]]\n",
            "[board]\nsize = 5\n",
            "[board]\nwidth = 6\nheight = 5\n",
            "[board]\nwidth = 4\nheight = 5\n",
            "[board]\nsize = 5\n[rules]\nstart = [0, 2]\n",
            "[board]\nsize = 6\nholes = [[0, 0], [2, 3], [5, 4], [3, 3]]\n",
            "[board]\nwidth = 5\nheight = 6\nholes = [[1, 1]]\n[rules]\nstart = [0, 3]\n",
        ];
        for board in boards {
            let m = model(&format!("kind = \"tour\"\n{board}"));
            let mem = Memory::new(None);
            let mut run = Run::new(Limits::default());
            let sweep = total(count_in(
                &m,
                &[],
                1,
                &mem,
                None,
                false,
                &mut Report::default(),
                &mut run,
            ));
            let pairs = total(count_by_pairs(
                &m,
                &end_pairs(&m),
                2,
                &mem,
                None,
                &mut Report::default(),
                &mut run,
            ));
            assert_eq!(pairs, sweep, "{board}");
            assert!(sweep > 0, "{board}");
        }
    }

    #[test]
    fn the_paths_bound_holds_and_lets_8x8_parts_count_in_128_bits() {
        // Undirected open paths: 5x5 (1,728 directed), 6x6 (6,637,920), 5x8 (36,122,108) and
        // 8x8 (19,591,828,170,979,904, Löbbing and Wegener's count as corrected by McKay).
        let boards = [
            ("size = 5", 864u128),
            ("size = 6", 3_318_960),
            ("width = 8\nheight = 5", 18_061_054),
            ("size = 8", 9_795_914_085_489_952),
            ("size = 1", 1),
        ];
        for (board, paths) in boards {
            let m = model(&format!("kind = \"tour\"\n[board]\n{board}\n"));
            let (a, b) = path_bits(&m);
            let (c, d) = class_bits(&m);
            for (bound, loose) in [(a, c), (b, d)] {
                assert!((paths as f64).log2() <= bound, "{board}: {bound}");
                assert!(bound <= loose, "{board}");
            }
        }
        let m = model("kind = \"tour\"\n[board]\nsize = 8\n[solve]\ngoal = \"count\"\n");
        let part = Task {
            goal: Goal::Count,
            part: Some((1, 2)),
            ..Task::default()
        };
        assert!(Count.applies(&m, &part).is_ok());
        // 10x10: past 128 bits, refused in parts.
        let m = model("kind = \"tour\"\n[board]\nsize = 10\n[solve]\ngoal = \"count\"\n");
        let why = Count.applies(&m, &part).unwrap_err();
        let crate::engine::Refusal::Kind(why) = why else {
            panic!("{why:?}");
        };
        assert!(
            matches!(why.get(), Some(TourRefusal::PartBits { .. })),
            "{why:?}"
        );
    }

    #[test]
    fn wide_states_count_what_narrow_ones_count() {
        // Boards narrow enough for 64-bit states, counted with both: open and closed, holes,
        // a start, odd and even numbers of cells, and every prefix.
        let boards = [
            ("[board]\nsize = 5\n", false, false),
            ("[board]\nwidth = 6\nheight = 5\n", true, true),
            (
                "[board]\nsize = 6\nholes = [[0, 0], [2, 3], [5, 4]]\n",
                true,
                true,
            ),
            ("[board]\nsize = 6\nholes = [[1, 1]]\n", false, false),
            ("[board]\nsize = 6\n", true, false),
            (
                "[board]\nwidth = 5\nheight = 6\n[rules]\nstart = [0, 3]\n",
                false,
                false,
            ),
            ("[board]\nwidth = 12\nheight = 3\n", true, true),
        ];
        for (board, closed, prefixes) in boards {
            let rules = if closed {
                "[rules]\nclosed = true\n"
            } else {
                ""
            };
            let m = model(&format!("kind = \"tour\"\n{board}{rules}"));
            let (mem, mut run) = (Memory::new(None), Run::new(Limits::default()));
            let mut sweep = |wide| {
                let mut report = Report::default();
                match count_as(
                    &m,
                    &[],
                    1,
                    &mem,
                    None,
                    prefixes,
                    wide,
                    false,
                    &mut report,
                    &mut run,
                ) {
                    Pass::Done(c, table) => (c, table, report.frontier),
                    _ => panic!("the count did not finish: {board}"),
                }
            };
            let (narrow, wide) = (sweep(false), sweep(true));
            assert_eq!(narrow, wide, "{board}");
            let zero = Natural::zero();
            assert!(
                narrow.0 > zero || narrow.1.iter().any(|p| p.count > zero),
                "{board}"
            );
            assert_eq!(narrow.2.len(), m.board.width * m.board.height, "{board}");
        }
    }

    /// A scratch folder of its own for one test, empty, removed with its contents at the end.
    struct TestDir(std::path::PathBuf);
    impl TestDir {
        fn new(name: &str) -> TestDir {
            let d = std::env::temp_dir().join(format!(
                "boardsolve-spill-test-{name}-{}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            TestDir(d)
        }
        fn path(&self) -> &'static std::path::Path {
            Box::leak(self.0.clone().into_boxed_path())
        }
        fn is_empty(&self) -> bool {
            std::fs::read_dir(&self.0).unwrap().next().is_none()
        }
    }
    impl Drop for TestDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn spilled_sweeps_count_what_sweeps_in_memory_count() {
        // Budgets so small that the widest squares go through the scratch folder in many
        // runs: open and closed, holes, a start, pairs of ends, every prefix, one thread and
        // two, 64-bit and 128-bit states.
        let boards = [
            ("[board]\nwidth = 8\nheight = 6\n", true, false, &[][..]),
            ("[board]\nwidth = 8\nheight = 5\n", false, false, &[][..]),
            ("[board]\nsize = 6\n", false, false, &[][..]),
            ("[board]\nwidth = 8\nheight = 5\n", true, true, &[][..]),
            (
                "[board]\nwidth = 7\nheight = 6\nholes = [[0, 0], [2, 3], [5, 4]]\n",
                true,
                false,
                &[][..],
            ),
            (
                "[board]\nwidth = 5\nheight = 7\nholes = [[1, 1]]\n[rules]\nstart = [0, 3]\n",
                false,
                false,
                &[][..],
            ),
            ("[board]\nsize = 6\n", false, false, &[0usize, 13][..]),
        ];
        let dir = TestDir::new("counts");
        let mut most_runs = 0;
        for (board, closed, prefixes, ends) in boards {
            let rules = if closed {
                "[rules]\nclosed = true\n"
            } else {
                ""
            };
            let m = model(&format!("kind = \"tour\"\n{board}{rules}"));
            for wide in [false, true] {
                let sweep = |budget: Option<u64>, threads: usize, scratch| {
                    let (mem, mut run) = (Memory::new(budget), Run::new(Limits::default()));
                    let mut report = Report::default();
                    let pass = count_as(
                        &m,
                        ends,
                        threads,
                        &mem,
                        scratch,
                        prefixes,
                        wide,
                        false,
                        &mut report,
                        &mut run,
                    );
                    match pass {
                        Pass::Done(c, table) => (c, table, report),
                        Pass::Outgrew(note) => panic!("{board}: {note:?}"),
                        Pass::Stopped => panic!("the count stopped: {board}"),
                    }
                };
                let whole = sweep(None, 1, None);
                assert!(whole.2.spill.is_none());
                for threads in [1, 2] {
                    let spilled = sweep(Some(600 << 10), threads, Some(dir.path()));
                    assert_eq!((&spilled.0, &spilled.1), (&whole.0, &whole.1), "{board}");
                    assert_eq!(spilled.2.frontier, whole.2.frontier, "{board}");
                    let stats = spilled.2.spill.expect("the states went to disk");
                    assert!(stats.squares > 0, "{board}: {stats:?}");
                    most_runs = most_runs.max(stats.runs);
                    // Every byte written is read back, some more than once (small budgets
                    // merge a bucket in passes).
                    assert!(stats.read >= stats.written, "{board}");
                    assert!(dir.is_empty(), "{board}: the scratch files are left");
                }
            }
        }
        // Some square wrote runs and merged them from disk.
        assert!(most_runs > 1, "{most_runs}");
    }

    #[test]
    fn a_pair_that_outgrew_the_shared_budget_counts_again_alone() {
        let m = model("kind = \"tour\"\n[board]\nwidth = 7\nheight = 5\n");
        let pairs = super::super::ends::end_pairs(&m);
        let by_pairs = |budget: Option<u64>, threads: usize| {
            let (mem, mut run) = (Memory::new(budget), Run::new(Limits::default()));
            let pass = count_by_pairs(
                &m,
                &pairs,
                threads,
                &mem,
                None,
                &mut Report::default(),
                &mut run,
            );
            assert_eq!(mem.held(), 0, "the sweeps' lists are all given back");
            match pass {
                Pass::Done(c, _) => Some(c),
                Pass::Outgrew(_) => None,
                Pass::Stopped => panic!("the count stopped"),
            }
        };
        let whole = by_pairs(None, 1).unwrap();
        // The least budget in which every pair, counted one after another, fits: two at
        // once may not, and those run again alone.
        let (mut lo, mut hi) = (1u64 << 10, 1u64 << 30);
        while hi - lo > 1 << 10 {
            let mid = (lo + hi) / 2;
            if by_pairs(Some(mid), 1).is_some() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        assert_eq!(by_pairs(Some(hi), 1).as_ref(), Some(&whole));
        for _ in 0..3 {
            assert_eq!(by_pairs(Some(hi), 2).as_ref(), Some(&whole));
        }
        // Below it, the count stops at the budget, with or without company.
        assert!(by_pairs(Some(lo), 2).is_none());
    }

    #[test]
    fn a_part_whose_sweep_outgrew_the_shared_budget_counts_it_again_alone() {
        let m = model("kind = \"tour\"\n[board]\nwidth = 7\nheight = 5\n");
        let part = |i: usize, budget: Option<u64>, threads: usize| {
            let task = Task {
                goal: Goal::Count,
                part: Some((i, 2)),
                memory: budget,
                threads,
                ..Task::default()
            };
            let mut run = Run::new(Limits::default());
            let a = part(&m, &task, &mut run);
            (a.count, run.stopped())
        };
        let whole: Vec<u128> = (1..=2).map(|i| part(i, None, 1).0.unwrap()).collect();
        // The parts add up to the sweep with free ends.
        let mut run = Run::new(Limits::default());
        let (free, _) =
            count(&m, None, &Task::default(), &mut Report::default(), &mut run).unwrap();
        assert_eq!(Some(whole.iter().sum::<u128>()), free.to_u128());
        // The least budget in which each part's sweeps, one after another, fit: two at once
        // may not, and those run again alone.
        let fits = |budget: u64| (1..=2).all(|i| part(i, Some(budget), 1).1.is_none());
        let (mut lo, mut hi) = (1u64 << 10, 1u64 << 30);
        while hi - lo > 1 << 10 {
            let mid = (lo + hi) / 2;
            if fits(mid) { hi = mid } else { lo = mid }
        }
        for _ in 0..3 {
            for i in 1..=2 {
                assert_eq!(part(i, Some(hi), 2), (Some(whole[i - 1]), None), "part {i}");
            }
        }
        // Below it, a part stops at the budget, and says so, with or without company.
        let stops: Vec<_> = (1..=2).map(|i| part(i, Some(lo), 2).1).collect();
        assert!(stops.contains(&Some(StopReason::Memory)), "{stops:?}");
        assert!(
            stops
                .iter()
                .all(|s| matches!(s, None | Some(StopReason::Memory))),
            "{stops:?}"
        );
    }

    #[test]
    fn a_part_whose_spilling_sweeps_share_a_small_budget_counts_them_all() {
        // Sweeps that spill keep in memory what the others leave them: one that outgrew the
        // shared budget runs again alone, whatever its lists wanted beside the others.
        let m = model("kind = \"tour\"\n[board]\nwidth = 7\nheight = 5\n");
        let dir = TestDir::new("part");
        let part = |i: usize, budget: Option<u64>, threads: usize| {
            let task = Task {
                goal: Goal::Count,
                part: Some((i, 2)),
                memory: budget,
                threads,
                scratch: budget.map(|_| dir.path()),
                ..Task::default()
            };
            let mut run = Run::new(Limits::default());
            let a = part(&m, &task, &mut run);
            (a.count, run.stopped())
        };
        let whole: Vec<_> = (1..=2).map(|i| part(i, None, 1)).collect();
        for budget in [160u64 << 10, 192 << 10, 256 << 10, 384 << 10] {
            for _ in 0..3 {
                for i in 1..=2 {
                    assert_eq!(
                        part(i, Some(budget), 2),
                        whole[i - 1],
                        "part {i} at {budget}"
                    );
                }
            }
        }
        assert!(dir.is_empty());
    }

    #[test]
    fn a_sweep_stands_at_its_square_for_the_progress_line() {
        let m = model("kind = \"tour\"\n[board]\nsize = 6\n[rules]\nclosed = true\n");
        let (mem, mut run) = (Memory::new(None), Run::new(Limits::default()));
        let gauge = run.gauge();
        let mut report = Report::default();
        let pass = count_in(&m, &[], 1, &mem, None, false, &mut report, &mut run);
        assert_eq!(total(pass), 9_862);
        // What the gauge shows is what the sweep said at its last check (the last squares
        // hold too few states to reach another).
        let at = gauge
            .read()
            .standing
            .sweep
            .expect("the sweep said where it is");
        assert_eq!((at.of, at.on_disk), (36, 0));
        assert!((2..=36).contains(&at.square), "{at:?}");
        assert_eq!(at.states, report.frontier[at.square - 2]);
    }

    #[test]
    fn a_stopped_or_failed_spill_leaves_no_scratch_files() {
        let m = model("kind = \"tour\"\n[board]\nwidth = 8\nheight = 6\n[rules]\nclosed = true\n");
        let dir = TestDir::new("stopped");
        // Stopped by the node limit (states in all) with states on disk.
        for nodes in [1_000_000, 3_000_000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (mem, mut run) = (Memory::new(Some(600 << 10)), Run::new(limits));
            let mut report = Report::default();
            let pass = count_as(
                &m,
                &[],
                2,
                &mem,
                Some(dir.path()),
                false,
                false,
                false,
                &mut report,
                &mut run,
            );
            if let Pass::Outgrew(n) = &pass {
                panic!("{n:?}");
            }
            assert!(matches!(pass, Pass::Stopped));
            assert!(report.spill.is_some_and(|s| s.written > 0));
            assert!(dir.is_empty());
        }
        // Stopped by the clock within a square.
        let clock = Clock::new(Some(std::time::Duration::from_millis(150)), None);
        let (mem, mut run) = (
            Memory::new(Some(600 << 10)),
            Run::new(Limits::default()).with_clock(clock),
        );
        let big =
            model("kind = \"tour\"\n[board]\nwidth = 8\nheight = 7\n[rules]\nclosed = true\n");
        let pass = count_as(
            &big,
            &[],
            1,
            &mem,
            Some(dir.path()),
            false,
            false,
            false,
            &mut Report::default(),
            &mut run,
        );
        assert!(matches!(pass, Pass::Stopped));
        assert!(dir.is_empty());
        // A scratch folder that cannot be made: the count stops, saying why.
        let gone: &'static std::path::Path = Box::leak(dir.0.join("no/such").into_boxed_path());
        let (mem, mut run) = (Memory::new(Some(600 << 10)), Run::new(Limits::default()));
        let pass = count_as(
            &m,
            &[],
            1,
            &mem,
            Some(gone),
            false,
            false,
            false,
            &mut Report::default(),
            &mut run,
        );
        let Pass::Outgrew(note) = pass else {
            panic!("the count went on without its folder");
        };
        assert!(matches!(
            note.get::<TourNote>(),
            Some(TourNote::ScratchFailed { why, .. }) if why.contains("no/such")
        ));
        // The count stops the run for its disk, not its memory.
        let task = Task {
            memory: Some(600 << 10),
            scratch: Some(gone),
            threads: 1,
            ..Task::default()
        };
        let mut run = Run::new(Limits::default());
        let r = count(&m, None, &task, &mut Report::default(), &mut run);
        assert!(matches!(r, Err(Some(_))));
        assert_eq!(run.stopped(), Some(StopReason::Disk));
        let task = Task {
            scratch: None,
            ..task
        };
        let mut run = Run::new(Limits::default());
        let r = count(&m, None, &task, &mut Report::default(), &mut run);
        assert!(matches!(r, Err(Some(_))));
        assert_eq!(run.stopped(), Some(StopReason::Memory));
        assert!(dir.is_empty());
    }

    #[test]
    fn the_half_turn_fixes_the_published_number_of_8x8_tours() {
        // 8 x 1,658,420,855,433 classes (Jelliss) less McKay's 13,267,364,410,532 tours: the
        // reflections and the quarter turns fix none of them (fixed.rs), the half turn the
        // rest.
        let m = model("kind = \"tour\"\n[board]\nsize = 8\n[rules]\nclosed = true\n");
        assert_eq!(
            classify(&m)
                .unwrap()
                .iter()
                .filter(|&&f| f == Fixed::HalfTurn)
                .count(),
            1
        );
        let (mem, mut run) = (Memory::new(None), Run::new(Limits::default()));
        let fixed = total(count_half_turn(&m, 2, &mem, None, &mut run));
        assert_eq!(8 * 1_658_420_855_433 - 13_267_364_410_532u128, 2_432_932);
        assert_eq!(fixed, 2_432_932);
    }

    #[test]
    fn a_square_stops_within_its_expansion_when_the_clock_says_so() {
        let text = "kind = \"tour\"\n[board]\nsize = 6\n[solve]\ngoal = \"count\"\n";
        let spec = Spec::parse("t.toml", text, &Overrides::default()).unwrap();
        let KindSpec::Tour(rules) = &spec.rules else {
            panic!("a tour puzzle");
        };
        let m = Model::compile(&spec, rules).unwrap();
        let clock = Clock::new(Some(std::time::Duration::ZERO), None);
        let mut run = Run::new(Limits::default()).with_clock(clock);
        let a = Count.solve(&m, &Task::default(), &mut run);
        assert_eq!(run.stopped(), Some(StopReason::Time));
        // Stopped in the first square's expansion, before any square's states were counted.
        assert_eq!(run.stats.nodes, 0);
        assert_eq!(a.count, None);
    }
}
