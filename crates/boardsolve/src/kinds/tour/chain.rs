//! Chains for `divide`: open tours of strips 3 or 4 squares high as a chain of blocks, for
//! 4xn open (n >= 5), and 3xn or 4xn open from a given start.
//!
//! The splices of strip.rs cannot work on 4xn: there every open tour covers the outer
//! squares of one colour with the inner ones of the other, crosses once by a move between
//! the two inner lines, and covers the rest, so a block's own open path already makes that
//! one crossing. Instead the tour runs along the strip and back through blocks of 6 (3xn:
//! 12) in a chain. The head block holds the start (block 0 when the start is free). Right
//! of it two moves cross each boundary, a and b: the tour goes right by a and comes back by
//! b, turning in the last block. Left of it three, x, y and z: the tour goes left by x,
//! comes back by y, and (after the right part) goes left by z to end in the first block. A
//! block's path is searched as one Hamiltonian path of the block plus virtual moves, each
//! standing for the tour outside between two of its crossing squares:
//!
//! ```text
//!   right middle block: from a's square to b's on its left, virtual a -- b on its right;
//!   last block:         from a's square to b's on its left;
//!   left middle block:  from x's square on its right to z's on its left, virtual x -- y on
//!                       its left and y -- z (taken in that order) on its right;
//!   first block:        from x's square on its right to anywhere, virtual y -- z;
//!   head:               from the start to z's square on its left (or anywhere), virtual
//!                       x -- y on its left and a -- b on its right.
//! ```
//!
//! The crossing patterns are the first (a, b) and (x, y, z) for which these paths exist (on
//! 4 rows only the patterns the colour classes allow are tried), so each block shape is
//! searched once and the chain is laid in one pass, each square linked by XORs into the
//! same packed array (log2 of the squares in bits a square). With a given start the head is
//! searched for that start (a start in the far half is built mirrored); should it fail for
//! every pattern within a budget, other layouts (a longer last block, a head merged with a
//! neighbour, or a short strip cut in two) move the start within its block.

use std::ops::ControlFlow;

use super::blocks::{ATTEMPT_BUDGET, attempt_path};
use super::graph::NONE;
use super::strip::{Sq, block_moves, part_of, split, strip_shape};
use super::vocab::TourBug;
use crate::engine::Run;
use crate::util::Packed;

/// A move across a block boundary: its square in the left block as (row, back), back
/// counted from that block's last column, and in the right block as (row, col).
type Cross = (Sq, Sq);

/// Every move across a boundary of a strip `rows` high.
fn crossings(rows: usize) -> Vec<Cross> {
    let mut out = Vec::new();
    for r1 in 0..rows {
        for back in 0..2 {
            for r2 in 0..rows {
                for col in 0..2 {
                    let (dr, dc) = (r1.abs_diff(r2), back + 1 + col);
                    if (dr, dc) == (1, 2) || (dr, dc) == (2, 1) {
                        out.push(((r1, back), (r2, col)));
                    }
                }
            }
        }
    }
    out
}

/// Crossing moves that share no square.
fn disjoint(set: &[Cross]) -> bool {
    set.iter()
        .enumerate()
        .all(|(i, a)| set[i + 1..].iter().all(|b| a.0 != b.0 && a.1 != b.1))
}

/// What one block's path must do, in block coordinates (row, col): its ends (`None`: any
/// square) and the virtual moves it must hold, each standing for the part of the tour
/// outside the block between those two squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Need {
    len: usize,
    start: Option<Sq>,
    end: Option<Sq>,
    virt: Vec<(Sq, Sq)>,
    /// The last virtual move must be taken in its order: left of the head, the tour goes
    /// back right by y and comes in again by z, and the blocks on either side of a
    /// boundary must agree on that.
    ordered: bool,
}

/// Attempts per block search and moves per attempt: a block of 24 to 69 squares is found
/// in the first few when it exists, and a pattern that cannot work must fail fast. The
/// head block, searched per start, gets the long search.
const CHAIN_TRIES: (usize, u32) = (8, 3_000);
const HEAD_TRIES: (usize, u32) = (16, ATTEMPT_BUDGET);

/// A Hamiltonian path of the block plus its virtual moves, as local square indices.
fn chain_block(
    rows: usize,
    need: &Need,
    (attempts, budget): (usize, u32),
    run: &mut Run,
) -> Option<Vec<u16>> {
    let len = need.len;
    let n = rows * len;
    let idx = |(r, c): Sq| r * len + c;
    let mut adj = block_moves(rows, len);
    let mut forced: Vec<Vec<u16>> = vec![Vec::new(); n];
    for &(p, q) in &need.virt {
        let (p, q) = (idx(p), idx(q));
        if p == q {
            return None;
        }
        if !adj[p].contains(&(q as u16)) {
            adj[p].push(q as u16);
            adj[q].push(p as u16);
        }
        forced[p].push(q as u16);
        forced[q].push(p as u16);
    }
    if forced.iter().any(|f| f.len() > 2) {
        return None;
    }
    // A path with only its end fixed is searched from that end and turned round.
    let (from, to, turn) = match (need.start, need.end) {
        (Some(s), e) => (Some(idx(s)), e.map(idx), false),
        (None, Some(e)) => (Some(idx(e)), None, true),
        (None, None) => (None, None, false),
    };
    if from.is_some() && from == to {
        return None;
    }
    let starts: Vec<usize> = match from {
        Some(s) => vec![s],
        None => (0..n).collect(),
    };
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15 ^ ((rows as u64) << 40) ^ ((len as u64) << 8);
    for attempt in 0..attempts {
        let s = starts[(attempt * 7) % starts.len()];
        if let Some(mut path) = attempt_path(&adj, &forced, (s, to), false, &mut rng, run, budget) {
            if turn {
                path.reverse();
            }
            let in_order = match (need.ordered, need.virt.last()) {
                (true, Some(&(p, q))) => {
                    let (p, q) = (idx(p) as u16, idx(q) as u16);
                    path.windows(2).any(|w| w == [p, q])
                }
                _ => true,
            };
            if in_order {
                return Some(path);
            }
        }
        if run.is_stopped() {
            return None;
        }
    }
    None
}

/// Block paths found so far, by what they must do.
struct Found {
    rows: usize,
    paths: std::collections::HashMap<Need, Option<Vec<u16>>>,
    searches: usize,
}

impl Found {
    fn get(&mut self, need: &Need, tries: (usize, u32), run: &mut Run) -> Option<Vec<u16>> {
        if let Some(p) = self.paths.get(need) {
            return p.clone();
        }
        self.searches += 1;
        let p = chain_block(self.rows, need, tries, run);

        self.paths.insert(need.clone(), p.clone());
        p
    }
}

/// Block length of a chain (24 or 36 squares): long enough for block paths to exist for
/// some crossing patterns, small enough for each block search to stay short.
fn chain_base(rows: usize) -> usize {
    if rows == 4 { 6 } else { 12 }
}

/// Block searches one layout may spend choosing its crossing patterns before the next
/// layout is tried: a layout that works finds its patterns well within this.
const CHAIN_SEARCHES: usize = 60;

/// Head searches per right pattern: a head that fails with several left patterns needs
/// another right one, not more left ones.
const HEADS_PER_PAIR: usize = 6;

/// The crossing patterns and block paths one layout of the chain takes.
struct Choice {
    p: Option<[Cross; 2]>,
    t: Option<[Cross; 3]>,
    mid: Option<Need>,
    end: Option<Need>,
    lmid: Option<Need>,
    lend: Option<Need>,
    head: Need,
    head_path: Vec<u16>,
    /// The head's block.
    s: usize,
}

/// Whether row `r` of a strip `rows` high is one of its two outer lines.
fn outer(rows: usize, r: usize) -> bool {
    r == 0 || r == rows - 1
}

/// On 4 rows the outer lines' squares move only to the inner lines', and a square's
/// colour class with it: outer of one colour with inner of the other. An open tour is a
/// path through one class, one move between the inner lines, and a path through the other;
/// both ends are outer. So every crossing joins an outer square to an inner one, and has
/// the class of its outer square.
fn class(rows: usize, c: Cross) -> usize {
    if outer(rows, c.1.0) {
        (c.1.0 + c.1.1) % 2
    } else {
        (c.0.0 + 1 + c.0.1) % 2
    }
}

/// The crossing patterns right of the head, two crossings a boundary (the tour goes right
/// by a and comes back by b); `[None]` when no block lies right of the head. On 4 rows the
/// tour goes out in one class and comes back in the other, from outer squares in the right
/// block (the end block's path alternates and ends outer).
fn right_patterns(rows: usize, cross: &[Cross], blocks_right: bool) -> Vec<Option<[Cross; 2]>> {
    if !blocks_right {
        return vec![None];
    }
    let fits = |a: Cross, b: Cross| {
        rows != 4
            || ([a, b]
                .iter()
                .all(|c| outer(rows, c.1.0) && !outer(rows, c.0.0))
                && class(rows, a) != class(rows, b))
    };
    let mut v = Vec::new();
    for (i, &a) in cross.iter().enumerate() {
        for &b in &cross[i + 1..] {
            if disjoint(&[a, b]) && fits(a, b) {
                v.push(Some([a, b]));
            }
        }
    }
    v
}

/// The crossing patterns left of the head, three crossings a boundary (the tour goes left
/// by x, comes back by y, and goes left again by z to end beyond the boundary); `[None]`
/// when no block lies left of the head. On 4 rows the tour goes out and back in one class
/// (x, y) and ends in the other (z, outer in the far block, so inner where it crosses). The
/// first block's loop from x to y alternates outer and inner through as many of each, so
/// one of its ends is outer and one inner. The start, at `head_start` in the head's block,
/// is of x's class: its path covers the left part's loop before the one move between the
/// inner lines, right of the head (seen from the head's left boundary).
fn left_patterns(
    rows: usize,
    cross: &[Cross],
    blocks_left: bool,
    head_start: Option<Sq>,
) -> Vec<Option<[Cross; 3]>> {
    if !blocks_left {
        return vec![None];
    }
    let start_class = head_start.map(|(r, c)| (r + c) % 2);
    let fits = |x: Cross, y: Cross, z: Cross| {
        rows != 4
            || ([x, y, z]
                .iter()
                .all(|c| outer(rows, c.0.0) != outer(rows, c.1.0))
                && class(rows, x) == class(rows, y)
                && class(rows, x) != class(rows, z)
                && outer(rows, x.0.0) != outer(rows, y.0.0)
                && !outer(rows, z.0.0)
                && start_class.is_none_or(|k| k == class(rows, x)))
    };
    let mut v = Vec::new();
    for &x in cross {
        for &y in cross {
            for &z in cross {
                if disjoint(&[x, y, z]) && fits(x, y, z) {
                    v.push(Some([x, y, z]));
                }
            }
        }
    }
    v
}

/// A crossing's square in the block on its left, of length `w`: on that block's right side.
fn right_square(c: Cross, w: usize) -> Sq {
    (c.0.0, w - 1 - c.0.1)
}

/// A crossing's square in the block on its right: on that block's left side.
fn left_square(c: Cross) -> Sq {
    c.1
}

/// One layout's blocks as `choose` sees them: their lengths along the strip, and the head's
/// block with the start in it.
struct Blocks<'a> {
    rows: usize,
    parts: &'a [usize],
    /// The length of the middle blocks.
    base: usize,
    /// The head's block, and the last block.
    s: usize,
    last: usize,
    head_start: Option<Sq>,
}

impl Blocks<'_> {
    /// What the blocks right of the head must do with the pattern (a, b): the middle blocks
    /// (one shape for all of them) and the last block, which turns the tour back.
    fn right_needs(&self, p: Option<[Cross; 2]>) -> (Option<Need>, Option<Need>) {
        let (base, last) = (self.base, self.last);
        let (mut mid, mut end) = (None, None);
        if let Some([a, b]) = p {
            if last - self.s >= 2 {
                mid = Some(Need {
                    len: base,
                    start: Some(left_square(a)),
                    end: Some(left_square(b)),
                    virt: vec![(right_square(a, base), right_square(b, base))],
                    ordered: false,
                });
            }
            end = Some(Need {
                len: self.parts[last],
                start: Some(left_square(a)),
                end: Some(left_square(b)),
                virt: vec![],
                ordered: false,
            });
        }
        (mid, end)
    }

    /// What the blocks left of the head must do with the pattern (x, y, z): the middle
    /// blocks and the first block, where the tour ends.
    fn left_needs(&self, t: Option<[Cross; 3]>) -> (Option<Need>, Option<Need>) {
        let (base, first) = (self.base, self.parts[0]);
        let (mut lmid, mut lend) = (None, None);
        if let Some([x, y, z]) = t {
            if self.s >= 2 {
                lmid = Some(Need {
                    len: base,
                    start: Some(right_square(x, base)),
                    end: Some(left_square(z)),
                    virt: vec![
                        (left_square(x), left_square(y)),
                        (right_square(y, base), right_square(z, base)),
                    ],
                    ordered: true,
                });
            }
            lend = Some(Need {
                len: first,
                start: Some(right_square(x, first)),
                end: None,
                virt: vec![(right_square(y, first), right_square(z, first))],
                ordered: true,
            });
        }
        (lmid, lend)
    }

    /// What the head must do: from the start, the tour left of it as a virtual move
    /// x -- y ending at z's square, the tour right of it as a virtual move a -- b.
    fn head_need(&self, p: Option<[Cross; 2]>, t: Option<[Cross; 3]>) -> Need {
        let ws = self.parts[self.s];
        let mut head = Need {
            len: ws,
            start: self.head_start,
            end: None,
            virt: vec![],
            ordered: false,
        };
        if let Some([x, y, z]) = t {
            head.virt.push((left_square(x), left_square(y)));
            head.end = Some(left_square(z));
        }
        if let Some([a, b]) = p {
            head.virt.push((right_square(a, ws), right_square(b, ws)));
        }
        head
    }

    /// With the right pattern `p` and its blocks' needs `right` found, the left patterns in
    /// turn until the head's path is found: `Break` with the choice, or with `None` once a
    /// limit struck or the searches passed `budget`; `Continue` for the next right pattern.
    /// A head that fails with one right pattern for several left ones may need another
    /// right pattern: it moves on after a few.
    fn choose_left(
        &self,
        p: Option<[Cross; 2]>,
        (mid, end): (Option<Need>, Option<Need>),
        triples: &[Option<[Cross; 3]>],
        found: &mut Found,
        (budget, head_tries): (usize, (usize, u32)),
        run: &mut Run,
    ) -> ControlFlow<Option<Choice>> {
        let mut heads = 0;
        for &t in triples {
            if heads == HEADS_PER_PAIR {
                break;
            }
            let (lmid, lend) = self.left_needs(t);
            let head = self.head_need(p, t);
            let sides = [&lmid, &lend]
                .into_iter()
                .flatten()
                .all(|need| found.get(need, CHAIN_TRIES, run).is_some());
            let head_path = if sides {
                found.searches += 1;
                heads += 1;
                chain_block(self.rows, &head, head_tries, run)
            } else {
                None
            };
            if run.is_stopped() {
                return ControlFlow::Break(None);
            }
            if let Some(head_path) = head_path {
                return ControlFlow::Break(Some(Choice {
                    p,
                    t,
                    mid,
                    end,
                    lmid,
                    lend,
                    head,
                    head_path,
                    s: self.s,
                }));
            }
            if found.searches > budget {
                return ControlFlow::Break(None);
            }
        }
        ControlFlow::Continue(())
    }
}

/// Choose patterns and block paths for the blocks `parts` (lengths along the strip), the
/// start in strip coordinates; `None` when none is found within `budget` searches in all.
/// The right patterns are tried in turn, each whose blocks exist with the left patterns in
/// turn, until a head's path is found.
fn choose(
    rows: usize,
    parts: &[usize],
    start: Option<Sq>,
    found: &mut Found,
    (budget, head_tries): (usize, (usize, u32)),
    run: &mut Run,
) -> Option<Choice> {
    // The head block holds the start (block 0 when the start is free).
    let s = start.map_or(0, |(_, c)| part_of(parts, c));
    let blocks = Blocks {
        rows,
        parts,
        base: chain_base(rows),
        s,
        last: parts.len() - 1,
        head_start: start.map(|(r, c)| (r, c - parts[..s].iter().sum::<usize>())),
    };
    let cross = crossings(rows);
    let pairs = right_patterns(rows, &cross, s < blocks.last);
    let triples = left_patterns(rows, &cross, s > 0, blocks.head_start);
    for &p in &pairs {
        let (mid, end) = blocks.right_needs(p);
        if [&mid, &end]
            .into_iter()
            .flatten()
            .any(|need| found.get(need, CHAIN_TRIES, run).is_none())
        {
            if run.is_stopped() || found.searches > budget {
                return None;
            }
            continue;
        }
        let right = (mid, end);
        if let ControlFlow::Break(chosen) =
            blocks.choose_left(p, right, &triples, found, (budget, head_tries), run)
        {
            return chosen;
        }
    }
    None
}

/// An open tour of a strip 3 or 4 squares high, from `start` (a board square) or from a
/// square it chooses, as a chain of blocks, in `x` (zeroed, a value a square); the same
/// result as `strip::build`.
pub fn chain(
    width: usize,
    height: usize,
    start: Option<usize>,
    mut x: Packed,
    run: &mut Run,
) -> Result<Option<(Packed, u32, u32)>, TourBug> {
    let (horizontal, rows, len) = strip_shape(width, height);
    let start: Option<Sq> = start.map(|s| {
        let (br, bc) = (s / width, s % width);
        if horizontal { (br, bc) } else { (bc, br) }
    });
    // A start in the far half is built mirrored, so it is as near the head's end as can be
    // (a start in block 0 needs no left part at all).
    let mirror = start.is_some_and(|(_, c)| 2 * c >= len);
    let start = start.map(|(r, c)| (r, if mirror { len - 1 - c } else { c }));
    let g = |(r, c): Sq| -> u32 {
        let c = if mirror { len - 1 - c } else { c };
        if horizontal {
            (r * width + c) as u32
        } else {
            (c * width + r) as u32
        }
    };
    let base = chain_base(rows);
    let mut found = Found {
        rows,
        paths: Default::default(),
        searches: 0,
    };
    // With a given start the head may be hard to find for one place of the start in its
    // block: then other layouts move it (the last block 1 to base - 1 longer), or widen the
    // head (merged with the block on its right or left), and a strip short enough for one
    // or two blocks may be cut in two.
    let mut shifted = vec![split(len, base)];
    if start.is_some() {
        for pl in base + 1..2 * base {
            if len >= pl + base {
                let rem = len - pl;
                let k = rem / base - 1;
                let mut parts = vec![rem - k * base];
                parts.extend(std::iter::repeat_n(base, k));
                parts.push(pl);
                shifted.push(parts);
            }
        }
    }
    let mut layouts = Vec::new();
    for parts in shifted {
        if let Some((_, c)) = start {
            let s = part_of(&parts, c);
            let last = parts.len() - 1;
            let merged = |k: usize| {
                let mut m = parts.clone();
                m[k] += m.remove(k + 1);
                m
            };
            let right = (s >= 1 && s + 2 <= last).then(|| merged(s));
            let left = (s >= 2 && s < last).then(|| merged(s - 1));
            layouts.push(parts);
            layouts.extend(right);
            layouts.extend(left);
        } else {
            layouts.push(parts);
        }
    }
    if start.is_some() && len < 3 * base {
        for pl in 5..=len.saturating_sub(5) {
            layouts.push(vec![len - pl, pl]);
        }
    }
    let mut chosen = None;
    // The head is searched per start: first briefly in every layout, then at length.
    'layouts: for head_tries in [CHAIN_TRIES, HEAD_TRIES] {
        for parts in &layouts {
            let budget = found.searches + CHAIN_SEARCHES;
            if let Some(c) = choose(rows, parts, start, &mut found, (budget, head_tries), run) {
                chosen = Some((parts.clone(), c));
                break 'layouts;
            }
            if run.is_stopped() {
                return Ok(None);
            }
        }
    }
    let Some((parts, choice)) = chosen else {
        return Err(TourBug::NoChain {
            rows,
            searches: found.searches,
        });
    };
    let Choice {
        p,
        t,
        mid,
        end,
        lmid,
        lend,
        head,
        head_path,
        s,
    } = choice;
    let last = parts.len() - 1;
    let offset = |k: usize| parts[..k].iter().sum::<usize>();
    // Each block kind's need and path, looked up once: the loop below is the linear part.
    let resolve = |need: Option<Need>, found: &Found| {
        need.map(|n| {
            let path = found.paths[&n].clone().expect("found above");
            (n, path)
        })
    };
    let head = (head, head_path);
    let (lend, lmid) = (resolve(lend, &found), resolve(lmid, &found));
    let (end, mid) = (resolve(end, &found), resolve(mid, &found));
    // x holds the XOR of a square's two tour neighbours, NONE (all ones once masked) for one
    // not yet known.
    let link = |x: &mut Packed, u: u32, v: u32| {
        x.xor(u as usize, NONE ^ v);
        x.xor(v as usize, NONE ^ u);
    };
    let mut first = NONE;
    for (k, &w) in parts.iter().enumerate() {
        let (need, path) = if k == s {
            &head
        } else if k == 0 {
            lend.as_ref().expect("a block left of the head")
        } else if k < s {
            lmid.as_ref().expect("a block inside the left part")
        } else if k == last {
            end.as_ref().expect("a block right of the head")
        } else {
            mid.as_ref().expect("a block inside the right part")
        };
        let c0 = offset(k);
        let at = |l: u16| g((l as usize / w, c0 + l as usize % w));
        // The virtual moves stand for tour outside the block: not linked here.
        let virtual_move = |u: u16, v: u16| {
            need.virt.iter().any(|&((r1, c1), (r2, c2))| {
                let (p, q) = ((r1 * w + c1) as u16, (r2 * w + c2) as u16);
                (p, q) == (u, v) || (p, q) == (v, u)
            })
        };
        for pair in path.windows(2) {
            if !virtual_move(pair[0], pair[1]) {
                link(&mut x, at(pair[0]), at(pair[1]));
            }
        }
        if k == s {
            first = at(path[0]);
        }
        if k > 0 {
            let used: &[Cross] = if k <= s {
                t.as_ref().expect("left part")
            } else {
                p.as_ref().expect("right part")
            };
            for &((r1, back), (r2, col)) in used {
                link(&mut x, g((r1, c0 - 1 - back)), g((r2, c0 + col)));
            }
        }
        if run.nodes(w as u64) {
            return Ok(None);
        }
    }
    Ok(Some((x, first, NONE)))
}
