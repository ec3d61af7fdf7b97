//! The sweep of `count`: squares taken one at a time in row order along the shorter side
//! (the board is transposed when it is taller than wide), the states after each square
//! expanded (expand.rs) under the square's rule (rule.rs) and merged, until the last square,
//! where the states that make whole tours are summed. Apart from the strategy (count.rs),
//! which chooses what to sweep (one sweep, a sweep per pair of ends, the half turn's tours)
//! and turns the sums into an answer.
//!
//! A knight's move from a square reaches back at most 2w + 1 squares, so only the last
//! L = 2w + 1 squares can still gain moves: they are the frontier. Choosing which back moves
//! each new square uses builds the tour's edges; partial tours are grouped by what the rest
//! of the search can see of them:
//!
//! - per frontier square: no move yet (0), two moves or a hole (1), or one move, with the
//!   label of the path fragment it ends (2..15; the two ends of a fragment share a label, a
//!   fragment whose other end has left the frontier as a tour end shows its label once);
//! - for open tours, how many squares have left the frontier as tour ends (0 to 2).
//!
//! That fits one `u64` (4 bits a square, L <= 15), or two (L <= 21; key.rs). A square
//! leaving the frontier must be done: two moves, or for an open tour one move as one of the
//! two ends; on a board with one square more of one colour, an end must be of that colour
//! (the knight alternates colours), which rules out many states; with as many of each, the
//! two ends differ in colour, so the state also keeps the first end's colour. Joining the
//! two ends of one fragment closes a cycle: forbidden for open tours, and for closed ones
//! allowed only at the last square when nothing else is open. Counts run in `u64` (the
//! least memory traffic); before a square whose sums could overflow them, the states move
//! to `u128`, then to wider integers (`Wide`), so the count is exact at any size and never
//! redone. With `--prefixes` a cycle may close at any square: it is a tour of the prefix
//! that ends there, counted for it; the look-ahead over squares to come is off, since they
//! are holes in the shorter prefixes.
//!
//! A square's new states go to hash buckets merged bucket by bucket in cache (states.rs):
//! sequential memory traffic instead of one large hash table probed at random. The checks
//! and the renumbering of labels work on the 64-bit word with masks, not square by square.
//! Memory: the lists of states (the square before's, the new states in their buckets, the
//! merged list) are counted against the budget (`--memory`) as they grow, and allocated
//! fallibly; a square whose states outgrow it stops the count as a memory limit, with what
//! the square would need, projected from the share of its input expanded by then.

use super::expand::{DONE, FRESH, expand};
use super::fixed::{close, twisted_edges};
use super::key::{Key, U128};
use super::model::Model;
use super::order::Order;
use super::rule::Layout;
use super::spill::{Frontier, Scratch, SpillStats, spill_square};
use super::states::{Buckets, Full, Memory, Slot, Ways, Wide, expand_shares, merge_parallel};
use super::vocab::TourNote;
use crate::engine::{Note, Prefix, Run, Standing, SweepStanding};
use crate::util::Natural;

/// Squares with fewer states than this are expanded on one thread whatever `--threads`:
/// below it starting the threads costs more than they save.
const PARALLEL_FROM: usize = 1 << 16;

/// The widest count: 4,096 bits.
pub(super) type Widest = Wide<64>;

/// Outcome of one counting pass.
pub(super) enum Pass {
    Done(Natural, Vec<Prefix>),
    /// A limit of the run struck.
    Stopped,
    /// The states outgrew the memory: where, and what the square would need.
    Outgrew(Note),
}

/// One sweep over the board: its layout, the run's settings, and what it gathers square by
/// square.
struct Sweep<'a> {
    m: &'a Model,
    layout: Layout,
    threads: usize,
    mem: &'a Memory,
    /// Counting prefixes: the cells so far, and the counts of the prefixes with an even
    /// number of them (a closed tour alternates colours).
    cells_so_far: usize,
    table: Vec<Prefix>,
    /// The states after each square swept.
    frontier: Vec<u64>,
    /// Counting the tours the half turn fixes (fixed.rs): the twisted edges that close the
    /// states at the middle of the board.
    half_turn: Option<Vec<(usize, usize)>>,
    /// Where states that outgrow the memory go (spill.rs), if anywhere.
    scratch: Option<Scratch>,
    /// New states a state made at the last square, before merging: what a square that
    /// spills expects.
    ratio: f64,
}

impl Sweep<'_> {
    /// Say for the progress line that the sweep is at `square` of `of` (counted from 1),
    /// with `states` after the square before.
    fn stand(&self, square: usize, of: usize, states: usize, run: &mut Run) {
        // The bytes on disk come from the run's meter, as the gauge reads it.
        run.set_standing(Standing {
            sweep: Some(SweepStanding {
                square,
                of,
                states: states as u64,
                on_disk: 0,
            }),
            ..Standing::default()
        });
    }

    /// The note of square `p`, whose states outgrew the memory.
    /// `filled`: each share's states expanded, and new states made.
    fn outgrew<K, T>(&self, p: usize, input: usize, filled: &[(usize, usize, T)]) -> Note {
        let done = filled.iter().map(|b| b.0).sum();
        let made = filled.iter().map(|b| b.1).sum();
        let at = self.m.board.square_name(self.layout.order.square(p));
        outgrew::<K, T>(self.mem, at, p + 1, self.layout.n, input, done, made)
    }

    /// How a sweep ends whose square `p` stopped while spilling.
    fn spill_stopped<K, T: Ways>(&self, p: usize, input: usize, full: Full) -> Pass {
        match full {
            // `fits` rules out overflow; the widest type's bits bound every count.
            Full::Overflow => unreachable!("a count overflowed its {} bits", T::BITS),
            Full::Stopped => Pass::Stopped,
            full => Pass::Outgrew(self.spill_failed::<K, T>(p, input, full)),
        }
    }

    /// The note of square `p` whose spill failed: the scratch folder's, or the memory's.
    fn spill_failed<K, T>(&self, p: usize, input: usize, full: Full) -> Note {
        match (&self.scratch, full) {
            (Some(sc), Full::Disk) => Note::from(TourNote::ScratchFailed {
                at: self.m.board.square_name(self.layout.order.square(p)),
                index: p + 1,
                why: sc
                    .failure
                    .clone()
                    .unwrap_or_else(|| format!("{} failed", sc.dir_shown())),
            }),
            _ => self.outgrew::<K, T>(p, input, &[]),
        }
    }
}

/// What a sweep reports besides its count: the states after each square, and what it
/// wrote to disk.
#[derive(Debug, Default)]
pub(super) struct Report {
    pub frontier: Vec<u64>,
    pub spill: Option<SpillStats>,
}

/// `count_in` (count.rs) with 128-bit states if `wide` or the window needs them, else 64-bit
/// ones; with `half_turn`, the
/// tours the half turn fixes; states that outgrow the memory spill to `scratch` if given.
#[allow(clippy::too_many_arguments)]
pub(super) fn count_as(
    m: &Model,
    ends: &[usize],
    threads: usize,
    mem: &Memory,
    scratch: Option<&std::path::Path>,
    prefixes: bool,
    wide: bool,
    half_turn: bool,
    report: &mut Report,
    run: &mut Run,
) -> Pass {
    // Prefixes are first parts of the rows, and the half turn's quotient is the first half
    // of the rows, closed across the middle by the order reversed (fixed.rs). An open tour
    // whose ends are not both given keeps a square that may end it in the window until it
    // leaves, and the longer window holds more of those than the lines' order saves (5x8
    // open: 0.85 s against 0.45 s).
    // A closed tour passes every square, so its start is no end: it counts the same cycles.
    let open_start = m.start.filter(|_| !m.closed);
    let mut given: Vec<usize> = open_start.iter().chain(ends).copied().collect();
    given.sort_unstable();
    given.dedup();
    let free_ends = !m.closed && given.len() < 2;
    let order = if prefixes || half_turn || free_ends {
        Order::rows(&m.board)
    } else {
        Order::best(&m.board)
    };
    let (w, n) = (order.w, order.w * order.h);
    let hole: Vec<bool> = (0..n).map(|p| m.board.is_hole(order.square(p))).collect();
    let mut ends: Vec<usize> = given.iter().map(|&s| order.of_square(s)).collect();
    ends.sort_unstable();
    let last = (0..n)
        .rev()
        .find(|&p| !hole[p])
        .expect("a board has a square");
    if m.cells == 1 && !prefixes {
        return Pass::Done(Natural::from(if m.closed { 0 } else { 1 }), Vec::new());
    }
    let l = order.span().max(2 * w + 1);
    let wide = wide || 4 * l > u64::ENDS_SHIFT;
    let mut layout = Layout {
        order,
        n,
        l,
        hole,
        ends,
        last,
        minor: None,
        closed: m.closed,
        prefixes,
    };
    // With one square more of one colour than of the other (an odd board), a knight's path
    // alternates colours and so starts and ends on the larger colour: a square of the
    // smaller colour can never be an end.
    let ones = (0..n)
        .filter(|&p| !layout.hole[p] && layout.colour(p) == 1)
        .count();
    layout.minor = match (m.cells - ones).cmp(&ones) {
        std::cmp::Ordering::Greater => Some(1u8),
        std::cmp::Ordering::Less => Some(0u8),
        std::cmp::Ordering::Equal => None,
    };
    let half_turn = half_turn.then(|| twisted_edges(w, n, l, &layout.hole));
    let mut s = Sweep {
        m,
        layout,
        threads,
        mem,
        cells_so_far: 0,
        table: Vec::new(),
        frontier: Vec::new(),
        half_turn,
        scratch: scratch.map(|p| Scratch::new(p, Some(run.disk_meter()))),
        ratio: 4.0,
    };
    let pass = if wide {
        start::<U128>(&mut s, run)
    } else {
        start::<u64>(&mut s, run)
    };
    report.frontier = std::mem::take(&mut s.frontier);
    report.spill = s.scratch.as_ref().and_then(Scratch::stats);
    pass
}

/// The sweep with states of type `K` (wide enough for the frontier), from its first state:
/// the squares before the board count as done.
fn start<K: Key>(s: &mut Sweep, run: &mut Run) -> Pass {
    let mut init = K::ZERO;
    for i in 0..s.layout.l {
        init = init.with_nibble(i, DONE);
    }
    let mut cur: Vec<Slot<K, u64>> = Vec::new();
    if s.mem.grow(&mut cur, 1).is_err() {
        return Pass::Outgrew(s.outgrew::<K, u64>(0, 0, &[]));
    }
    cur.push(Slot { key: init, ways: 1 });
    sweep(s, 0, Frontier::Memory(cur), run)
}

/// The sweep from square `from` on, the states before it in `cur`: counts in `T` for as long
/// as no sum can overflow it, then in the next wider type.
fn sweep<K: Key, T: Ways>(
    s: &mut Sweep,
    from: usize,
    mut cur: Frontier<K, T>,
    run: &mut Run,
) -> Pass {
    let mut next: Buckets<K, T> = Buckets::new(s.mem);
    let mut parts: Vec<Buckets<K, T>> = Vec::new();
    let clock = run.clock().clone();
    // The half turn's fixed tours are closed at the middle of the board.
    let end = if s.half_turn.is_some() {
        s.layout.n / 2
    } else {
        s.layout.n
    };
    s.stand(from + 1, end, cur.len(), run);
    for p in from..end {
        if T::BITS < Widest::BITS && !fits::<T>(cur.bits(), cur.len()) {
            drop((next, parts));
            let wider = match cur {
                Frontier::Memory(cur) => {
                    let mut wider: Vec<Slot<K, T::Wider>> = Vec::new();
                    if s.mem.grow(&mut wider, cur.len()).is_err() {
                        return Pass::Outgrew(s.outgrew::<K, T::Wider>(p, cur.len(), &[]));
                    }
                    wider.extend(cur.iter().map(|x| Slot {
                        key: x.key,
                        ways: x.ways.widen(),
                    }));
                    s.mem.release(&cur);
                    Frontier::Memory(wider)
                }
                // On disk a count's limbs read as any width.
                Frontier::Disk(d) => Frontier::Disk(d),
            };
            return sweep::<K, T::Wider>(s, p, wider, run);
        }
        let rule = s.layout.rule(p);
        let expand_with =
            |states: &[Slot<K, T>], next: &mut Buckets<K, T>| expand(states, &rule, next, &clock);
        let squared = match square(s, p, cur, &mut next, &mut parts, &clock, &expand_with) {
            Ok(x) => x,
            Err(pass) => {
                if matches!(pass, Pass::Stopped) {
                    run.check();
                }
                return pass;
            }
        };
        let closed;
        (cur, closed) = squared;
        // A prefix ends at a cell: a hole adds none.
        if s.layout.prefixes && !s.layout.hole[p] {
            s.cells_so_far += 1;
            let mut count = Natural::zero();
            closed.add_to(&mut count);
            if s.cells_so_far.is_multiple_of(2) {
                s.table.push(Prefix {
                    squares: p + 1,
                    cells: s.cells_so_far,
                    count,
                });
            }
        }
        s.frontier.push(cur.len() as u64);
        s.stand((p + 2).min(end), end, cur.len(), run);
        if run.nodes(cur.len() as u64 + 1) {
            return Pass::Stopped;
        }
    }
    drop((next, parts));
    let (l, closed_tours) = (s.layout.l, s.layout.closed);
    let mut total = Natural::zero();
    let half_turn = s.half_turn.take();
    let mem = s.mem;
    let read = cur.for_each_block(s.scratch.as_mut(), mem, |block| {
        if let Some(edges) = &half_turn {
            total.add(&close(block, edges, l));
            return;
        }
        // Finish: every frontier square must be done; open tours need their two ends.
        for &Slot { key: state, ways } in block {
            let mut ends = (state >> K::ENDS_SHIFT).low() as u8 & 3;
            let mut ok = true;
            for i in 0..l {
                match state.nibble(i) {
                    DONE => {}
                    FRESH => ok = false,
                    _ => {
                        ok &= !closed_tours;
                        ends += 1;
                    }
                }
            }
            // With no cycles and every square done, two ends in all means one path.
            if ok && (closed_tours || ends == 2) {
                ways.add_to(&mut total);
            }
        }
    });
    if let Err(full) = read {
        return Pass::Outgrew(s.spill_failed::<K, T>(end - 1, 0, full));
    }
    if half_turn.is_some() {
        return Pass::Done(total, Vec::new());
    }
    if s.layout.prefixes {
        let whole = s
            .table
            .last()
            .filter(|t| t.cells == s.m.cells)
            .map_or(Natural::zero(), |t| t.count.clone());
        return Pass::Done(whole, std::mem::take(&mut s.table));
    }
    Pass::Done(total, Vec::new())
}

/// Square `p`: the states after it and the ways of the tours closed at it, from `cur`. In
/// memory while they fit; else, with a scratch folder, through it (spill.rs).
fn square<'m, K: Key, T: Ways, E>(
    s: &mut Sweep<'m>,
    p: usize,
    cur: Frontier<K, T>,
    next: &mut Buckets<'m, K, T>,
    parts: &mut Vec<Buckets<'m, K, T>>,
    clock: &crate::engine::Clock,
    expand_with: &E,
) -> Result<(Frontier<K, T>, T), Pass>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    let input = cur.len();
    let mut v = match cur {
        Frontier::Memory(v) => v,
        disk => {
            next.free();
            return spill(s, p, disk, parts, clock, expand_with);
        }
    };
    let sequential = s.threads == 1 || input < PARALLEL_FROM;
    let expanded = if sequential {
        next.reset(Buckets::<K, T>::buckets_for(2 * input));
        expand_with(&v, next)
    } else {
        expand_shares(&v, parts, s.threads, s.mem, expand_with)
    };
    let filled =
        |next: &Buckets<'m, K, T>, parts: &[Buckets<'m, K, T>]| -> Vec<(usize, usize, T)> {
            if sequential {
                vec![(next.expanded, next.total, next.closed)]
            } else {
                parts
                    .iter()
                    .map(|b| (b.expanded, b.total, b.closed))
                    .collect()
            }
        };
    match expanded {
        Ok(()) => {}
        // `fits` rules out overflow; the widest type's bits bound every count.
        Err(Full::Overflow) => unreachable!("a count overflowed its {} bits", T::BITS),
        Err(Full::Stopped) => return Err(Pass::Stopped),
        Err(Full::Memory) if s.scratch.is_some() => {
            // Again from the start of the square, spilling: the state being expanded made
            // some of its new states.
            next.free();
            return spill(s, p, Frontier::Memory(v), parts, clock, expand_with);
        }
        Err(_) => {
            return Err(Pass::Outgrew(s.outgrew::<K, T>(
                p,
                input,
                &filled(next, parts),
            )));
        }
    }
    let filled = filled(next, parts);
    let made: usize = filled.iter().map(|b| b.1).sum();
    s.ratio = made as f64 / input.max(1) as f64;
    let closed = filled
        .iter()
        .try_fold(T::default(), |a, b| a.add(b.2))
        .expect("`fits` rules out overflow");
    let merged = if sequential {
        next.merge_into(&mut v)
    } else {
        merge_parallel(parts, s.threads, s.mem, &mut v)
    };
    match merged {
        Ok(()) => Ok((Frontier::Memory(v), closed)),
        Err(Full::Overflow) => unreachable!("a count overflowed its {} bits", T::BITS),
        Err(Full::Memory) if s.scratch.is_some() => {
            // The input is gone (the merge reuses its list) but the new states are whole
            // in their buckets: they are this square's first run.
            s.mem.release(&v);
            drop(v);
            if sequential {
                let one = std::mem::replace(next, Buckets::new(s.mem));
                parts.clear();
                parts.push(one);
            }
            spill_buckets(s, p, input, parts, clock).map(|d| (d, closed))
        }
        Err(_) => Err(Pass::Outgrew(s.outgrew::<K, T>(p, input, &filled))),
    }
}

/// Square `p` through the scratch folder.
fn spill<'m, K: Key, T: Ways, E>(
    s: &mut Sweep<'m>,
    p: usize,
    cur: Frontier<K, T>,
    parts: &mut Vec<Buckets<'m, K, T>>,
    clock: &crate::engine::Clock,
    expand_with: &E,
) -> Result<(Frontier<K, T>, T), Pass>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    let input = cur.len();
    let expected = s.ratio * input as f64;
    let scratch = s
        .scratch
        .as_mut()
        .expect("states on disk have their folder");
    let r = spill_square(
        cur,
        parts,
        s.threads,
        expected,
        scratch,
        s.mem,
        clock,
        expand_with,
    );
    match r {
        Ok((next, closed, made)) => {
            s.ratio = (made as f64 / input.max(1) as f64).max(1.0);
            Ok((next, closed))
        }
        Err(full) => Err(s.spill_stopped::<K, T>(p, input, full)),
    }
}

/// Square `p`'s new states, all in `parts`, written out and merged through the scratch
/// folder.
fn spill_buckets<'m, K: Key, T: Ways>(
    s: &mut Sweep<'m>,
    p: usize,
    input: usize,
    parts: &mut Vec<Buckets<'m, K, T>>,
    clock: &crate::engine::Clock,
) -> Result<Frontier<K, T>, Pass> {
    let scratch = s.scratch.as_mut().expect("spilling has its folder");
    super::spill::merge_on_disk(parts, scratch, s.mem, clock)
        .map_err(|full| s.spill_stopped::<K, T>(p, input, full))
}

/// Whether no sum at the next square can overflow `T`: a new state's count is a sum of the
/// counts of states before, each taken at most once per set of back moves (at most 11), so
/// all of them together are below 16 times the states' number times their largest count.
fn fits<T: Ways>(largest: u32, states: usize) -> bool {
    let spread = usize::BITS - states.leading_zeros();
    largest + spread + 4 <= T::BITS
}

/// The note of a square whose states outgrew the memory: `made` new states from `done` of
/// its `input` states. The square would need its input and, projected from the share done,
/// its new states twice (in their buckets, and merged), or at least what was refused.
fn outgrew<K, T>(
    mem: &Memory,
    at: String,
    index: usize,
    squares: usize,
    input: usize,
    done: usize,
    made: usize,
) -> Note {
    let size = std::mem::size_of::<Slot<K, T>>() as u128;
    let projected = (made as u128 * input as u128 / done.max(1) as u128).max(made as u128);
    let needed = (input as u128 + 2 * projected) * size;
    Note::from(TourNote::FrontierOutgrew {
        at,
        index,
        squares,
        input,
        done,
        made,
        needed: (needed.min(u64::MAX as u128) as u64).max(mem.wanted()),
        budget: mem.budget(),
    })
}
