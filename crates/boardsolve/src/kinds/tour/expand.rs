//! The hot loop of `count`'s sweep: the states one square leads to. For each state and each
//! set of back moves the square may take, the path fragments are joined on the 64-bit (or
//! 128-bit) word with masks, and `emit` drops the state if a square can no longer get its
//! moves, else renumbers its labels and adds it to the square's buckets. Apart from the
//! sweep (sweep.rs) and the rules (rule.rs) so that the per-state work reads as one piece:
//! it allocates nothing and reads the square's `Rule` only.

use super::key::Key;
use super::rule::Rule;
use super::states::{Buckets, Full, Slot, Ways};
use crate::engine::Clock;

/// A frontier square's state: no move yet, or done (two moves, or a hole); the labels of
/// path fragments run from 2 up.
pub(super) const FRESH: u8 = 0;
pub(super) const DONE: u8 = 1;
/// A label free in every state, for the new square's fragment until `emit` renumbers.
const SPARE: u8 = 15;

/// The states that `states` lead to at the square of `rule`, into `next`.
pub(super) fn expand<K: Key, T: Ways>(
    states: &[Slot<K, T>],
    rule: &Rule<K>,
    next: &mut Buckets<K, T>,
    clock: &Clock,
) -> Result<(), Full> {
    // A state makes at most one new state per set of back moves (one at a hole).
    let most = rule.subsets.len().max(1);
    // A wide square takes a minute: the clock is read every few thousand states.
    for (i, &Slot { key: state, ways }) in states.iter().enumerate() {
        next.expanded = i;
        if i % 4096 == 0 && clock.expired().is_some() {
            return Err(Full::Stopped);
        }
        if !next.room(most) {
            return Err(Full::Spill);
        }
        let cells = state & rule.cells;
        let ends = (state >> K::ENDS_SHIFT).low() as u8;
        if rule.hole {
            emit(next, cells, rule, DONE, ends, ways)?;
            continue;
        }
        let mut open_to = 0u32;
        for (j, &pos) in rule.back.iter().enumerate() {
            if cells.nibble(pos) != DONE {
                open_to |= 1 << j;
            }
        }
        'subsets: for &subset in &rule.subsets {
            if subset & !open_to != 0 {
                continue;
            }
            let mut cs = cells;
            // The new square's own state: FRESH, a label, or DONE.
            let mut me = FRESH;
            let mut cycle = false;
            for (j, &pos) in rule.back.iter().enumerate() {
                if subset >> j & 1 == 0 {
                    continue;
                }
                let u = cs.nibble(pos);
                // A fixed end takes one move only.
                if u != FRESH && rule.end_back >> j & 1 != 0 {
                    continue 'subsets;
                }
                if me == FRESH {
                    if u == FRESH {
                        // A label no state uses (at most two fragments show one end,
                        // so at most 11 labels are in use); `emit` renumbers it.
                        cs = cs.with_nibble(pos, SPARE);
                        me = SPARE;
                    } else {
                        cs = cs.with_nibble(pos, DONE);
                        me = u;
                    }
                } else {
                    // Second move: the new square is done; join its fragment with u's.
                    let a = me;
                    me = DONE;
                    if u == FRESH {
                        cs = cs.with_nibble(pos, a);
                    } else if u == a {
                        cs = cs.with_nibble(pos, DONE);
                        cycle = true;
                    } else {
                        cs = cs.with_nibble(pos, DONE);
                        cs ^= cs.equal_nibbles(u, rule.ones).times(u ^ a);
                    }
                }
            }
            if cycle {
                // One cycle through every square: only at the last square, with
                // nothing else open.
                if !rule.closed || cs != rule.all_done || me != DONE {
                    continue;
                }
                if rule.prefixes {
                    // Nothing can extend a closed tour; only this prefix has it.
                    next.closed = next.closed.add(ways).ok_or(Full::Overflow)?;
                    continue;
                }
                if !rule.last {
                    continue;
                }
            }
            emit(next, cs, rule, me, ends, ways)?;
        }
    }
    next.expanded = states.len();
    Ok(())
}

/// The state after the square (`cs` with the square's own state `me`, the window shifted):
/// dropped if a square can no longer get its moves, else its labels made canonical and
/// added to `next`. An error when a count overflowed or the table outgrew its memory.
fn emit<K: Key, T: Ways>(
    next: &mut Buckets<K, T>,
    cs: K,
    rule: &Rule<K>,
    me: u8,
    info: u8,
    ways: T,
) -> Result<(), Full> {
    let (l, closed) = (rule.l, rule.closed);
    // Ends so far, and the colour of the first (on boards with as many squares of each
    // colour the two ends differ in colour).
    let (mut ends, mut first) = (info & 3, info >> 2 & 1);
    let add_end = |ends: &mut u8, first: &mut u8, c: u8| -> bool {
        if rule.balanced {
            if *ends == 0 {
                *first = c;
            } else if *ends == 1 && c == *first {
                return false;
            }
        }
        *ends += 1;
        *ends <= 2
    };
    match cs.nibble(0) {
        DONE => {}
        FRESH => return Ok(()),
        _ => {
            if closed || rule.leaving_no_end || !add_end(&mut ends, &mut first, rule.leaving_colour)
            {
                return Ok(());
            }
        }
    }
    let sh = cs >> 4 | K::from_u8(me) << (4 * (l - 1));
    // Squares that can no longer get the moves they need: none at all, or (for open
    // tours) squares that must end the tour, more than the two ends allow.
    let fresh = sh.equal_nibbles(FRESH, rule.ones);
    let mut done = sh.equal_nibbles(DONE, rule.ones);
    if !(fresh & rule.cap0).is_zero() {
        return Ok(());
    }
    let mut short = (fresh & rule.cap1) | (rule.cap0 & !fresh & !done);
    // A fixed end needs one move, and once it has it, it can give no other.
    if !(fresh & rule.end_at & !rule.end_cap).is_zero() {
        return Ok(());
    }
    done |= rule.end_at & !fresh;
    let (mut forced_ends, mut forced_first) = (ends, first);
    if !short.is_zero() {
        if closed || !rule.free_ends || !(short & rule.no_end).is_zero() {
            return Ok(());
        }
        while !short.is_zero() {
            let c = ((rule.colours >> short.trailing_zeros()).low() & 1) as u8;
            if !add_end(&mut forced_ends, &mut forced_first, c) {
                return Ok(());
            }
            short = short.clear_lowest();
        }
    }
    // A square to come with exactly as many open window neighbours as it needs takes a
    // move from each (unless it may end the tour and so need a move less): a window square
    // can give no more moves than it has left.
    let (mut once, mut twice, mut thrice) = (K::ZERO, K::ZERO, K::ZERO);
    for f in &rule.futs {
        let open = f.mask & !done;
        let rest = open.clear_lowest();
        let short = match (f.gap, open.is_zero()) {
            (_, true) => f.gap,
            (2, _) if rest.is_zero() => 1,
            (1, _) if rest.is_zero() => 0,
            (2, _) if rest.clear_lowest().is_zero() => 0,
            _ => continue,
        };
        if short == 0 {
            if f.may_end && ends < 2 {
                continue;
            }
            thrice |= twice & open;
            twice |= once & open;
            once |= open;
            continue;
        }
        if short > 1 || !f.may_end || !add_end(&mut forced_ends, &mut forced_first, f.colour) {
            return Ok(());
        }
    }
    if !(twice & !fresh).is_zero() || !thrice.is_zero() {
        return Ok(());
    }
    // Canonical labels: numbered 2, 3, ... in order of first appearance.
    let mut labelled = (sh >> 1 | sh >> 2 | sh >> 3) & rule.ones;
    let mut out = sh & !labelled.times(15);
    let mut label = 2u8;
    while !labelled.is_zero() {
        let x = ((sh >> labelled.trailing_zeros()).low() & 15) as u8;
        let same = sh.equal_nibbles(x, labelled);
        out |= same.times(label);
        label += 1;
        labelled &= !same;
    }
    let first = if ends == 1 { first } else { 0 };
    out |= K::from_u8(ends | first << 2) << K::ENDS_SHIFT;
    next.add(out, ways)
}
