//! From the file's board and pieces to the exact cover problem: the pieces resolved (named
//! sets, turns, counts), each placed in each of its orientations at each offset where all its
//! cells are cells of the board, and the items and options written in Knuth's order for
//! his generators' data (cells first, row by row, then the pieces).

use std::ops::Range;
use std::sync::Arc;

use super::{BLANK, Model, Piece, sets};
use crate::board::polyform::{self, Turns};
use crate::dlx::Problem;
use crate::spec::{Fill, MAX_COVER_ENTRIES, PieceCount, Spec, SpecError, TilingSpec};

impl Model {
    pub fn compile(spec: &Spec, t: &TilingSpec) -> Result<Model, SpecError> {
        let b = &t.board;
        let space = b.depth > 1;
        // Where each piece came from, for errors about it.
        let mut pieces: Vec<(Piece, Range<usize>, String)> = Vec::new();
        if let Some(sets) = &t.sets {
            for name in sets.get_ref() {
                let found = sets::pieces(name).ok_or_else(|| {
                    spec.err(
                        sets.span(),
                        "pieces.set",
                        format!(
                            "\"{name}\" is no set; accepted: {}",
                            sets::names().join(", ")
                        ),
                    )
                })?;
                for p in found {
                    let turns = t.set_turns.as_ref().map(|t| *t.get_ref());
                    pieces.push((
                        Piece {
                            name: p.name,
                            cells: p.cells,
                            count: PieceCount::Between(1, 1),
                            turns: turns.unwrap_or(default_turns(space)),
                            first: 0,
                            placements: 0,
                        },
                        sets.span(),
                        "pieces.set".into(),
                    ));
                }
            }
        }
        for s in &t.pieces {
            pieces.push((
                Piece {
                    name: s.name.get_ref().clone(),
                    cells: s.cells.clone(),
                    count: s
                        .count
                        .as_ref()
                        .map_or(PieceCount::Between(1, 1), |c| *c.get_ref()),
                    turns: s
                        .turns
                        .as_ref()
                        .map_or(default_turns(space), |t| *t.get_ref()),
                    first: 0,
                    placements: 0,
                },
                s.shape_span.clone(),
                "piece.shape".into(),
            ));
        }
        // Where each piece's name stands: a [[piece]]'s own, a set's pieces at the set.
        let name_at: Vec<(Range<usize>, &str)> = pieces
            .iter()
            .map(|(p, span, key)| {
                match t
                    .pieces
                    .iter()
                    .find(|s| *s.name.get_ref() == p.name && key == "piece.shape")
                {
                    Some(s) => (s.name.span(), "piece.name"),
                    None => (span.clone(), key.as_str()),
                }
            })
            .collect();
        for (i, (p, span, key)) in pieces.iter().enumerate() {
            if let Some((q, _, qkey)) = pieces[..i].iter().find(|(q, ..)| q.name == p.name) {
                let advice = if key == "pieces.set" && qkey == "pieces.set" {
                    "two of the sets share it; draw the pieces of one as [[piece]] tables with \
                     names of their own"
                } else {
                    "each piece needs a name of its own (a set's pieces are named by their \
                     letters); rename the [[piece]], or give copies with count"
                };
                let (at, key) = name_at[i].clone();
                return Err(spec.err(
                    at,
                    key,
                    format!("two pieces are named \"{}\"; {advice}", q.name),
                ));
            }
            if !space && p.cells.iter().any(|c| c[2] != 0) {
                return Err(spec.err(
                    span.clone(),
                    key,
                    format!(
                        "piece \"{}\" is a solid of several layers, and the board is flat; give \
                         the board a depth, or draw the piece in one layer",
                        p.name
                    ),
                ));
            }
            if cell_name_like(&p.name) {
                let (at, key) = name_at[i].clone();
                return Err(spec.err(
                    at,
                    key,
                    format!(
                        "\"{}\" is written like a cell's name (r0c0) in the exact cover; give \
                         the piece another name",
                        p.name
                    ),
                ));
            }
        }
        let cover = b.cells.iter().filter(|&&c| c).count();
        let leave = t.leave.as_ref().map_or(0, |l| *l.get_ref() as usize);
        // The turns of each piece, its orientations, and the entries of the problem, known
        // before anything grows with them.
        let mut orients = Vec::with_capacity(pieces.len());
        let mut entries: u64 = if leave > 0 { 2 * cover as u64 } else { 0 };
        for (p, ..) in &pieces {
            let turns = polyform::turns(space, p.turns);
            let o = polyform::orientations(&p.cells, &turns);
            for shape in &o {
                let e = polyform::extent(shape);
                let fits = (0..3)
                    .map(|i| [b.width, b.height, b.depth][i].saturating_sub(e[i] - 1) as u64)
                    .product::<u64>();
                entries += fits * (shape.len() as u64 + 1);
            }
            orients.push(o);
        }
        if entries > MAX_COVER_ENTRIES as u64 {
            return Err(spec.err_nowhere(
                "piece",
                format!(
                    "the placements of the pieces on this board could take up to {entries} item \
                     occurrences; an exact cover takes at most {MAX_COVER_ENTRIES}"
                ),
            ));
        }
        let index =
            |c: [i32; 3]| (c[2] as usize * b.height + c[1] as usize) * b.width + c[0] as usize;
        let mut piece_of = Vec::new();
        let mut start = vec![0u32];
        let mut cells: Vec<u32> = Vec::new();
        for (k, ((p, ..), o)) in pieces.iter_mut().zip(&orients).enumerate() {
            p.first = piece_of.len();
            if p.count == PieceCount::Between(0, 0) {
                // None of it: no placement, no item.
                continue;
            }
            for shape in o {
                let e = polyform::extent(shape);
                if e[0] > b.width || e[1] > b.height || e[2] > b.depth {
                    continue;
                }
                for z in 0..=(b.depth - e[2]) as i32 {
                    for y in 0..=(b.height - e[1]) as i32 {
                        for x in 0..=(b.width - e[0]) as i32 {
                            let at: Vec<u32> = shape
                                .iter()
                                .map(|c| index([c[0] + x, c[1] + y, c[2] + z]) as u32)
                                .collect();
                            if at.iter().all(|&i| b.cells[i as usize]) {
                                let mut at = at;
                                at.sort_unstable();
                                cells.extend_from_slice(&at);
                                start.push(cells.len() as u32);
                                piece_of.push(k as u32);
                            }
                        }
                    }
                }
            }
            p.placements = piece_of.len() - p.first;
        }
        for (p, span, key) in &pieces {
            let lo = match p.count {
                PieceCount::Between(lo, _) => lo,
                PieceCount::Any => 0,
            };
            if lo > 0 && p.placements == 0 {
                return Err(spec.err(
                    span.clone(),
                    key,
                    format!(
                        "piece \"{}\" fits nowhere on the {} board in any of its turns ({})",
                        p.name,
                        board_words(b.width, b.height, b.depth),
                        p.turns.name()
                    ),
                ));
            }
        }
        // What the pieces can cover against what the board asks.
        let (mut least, mut most) = (0u64, 0u64);
        let mut unbounded = false;
        for (p, ..) in &pieces {
            let area = p.cells.len() as u64;
            match p.count {
                PieceCount::Between(lo, hi) => {
                    least += lo as u64 * area;
                    // A piece that fits nowhere adds nothing (one that must be used and does
                    // not fit was refused above).
                    most += hi.min(p.placements as u32) as u64 * area;
                }
                PieceCount::Any => unbounded |= p.placements > 0,
            }
        }
        let target = (cover - leave) as u64;
        let adds_up = match t.fill {
            Fill::Exact => least <= target && (unbounded || most >= target),
            Fill::Pack => least <= cover as u64,
        };
        if !adds_up {
            let between = if unbounded {
                format!("at least {least}")
            } else if least == most {
                format!("exactly {least}")
            } else {
                format!("between {least} and {most}")
            };
            let needed = match t.fill {
                Fill::Exact if leave > 0 => format!("{target} ({cover} cells, {leave} left empty)"),
                _ => target.to_string(),
            };
            return Err(spec.err_at_one_of(
                &["piece", "pieces.set"],
                format!(
                    "the areas cannot add up: the pieces cover {between} cells, and the board \
                     has {needed} to cover"
                ),
            ));
        }
        let mut problem = Problem::new();
        let cell_item: Vec<usize> = (0..b.cells.len())
            .map(|i| {
                if !b.cells[i] {
                    return usize::MAX;
                }
                let name = cell_name(i, b.width, b.height, b.depth > 1);
                match t.fill {
                    Fill::Exact => problem.add_primary(name),
                    Fill::Pack => problem.add_secondary(name),
                }
            })
            .collect();
        // Secondary items go after the primary ones in Knuth's format: with cells secondary,
        // the pieces come first.
        let piece_item: Vec<Option<usize>> = pieces
            .iter()
            .map(|(p, ..)| {
                let fit = p.placements as u64;
                match p.count {
                    PieceCount::Between(1, 1) => Some(problem.add_primary(p.name.clone())),
                    PieceCount::Between(_, 0) => None,
                    PieceCount::Between(lo, hi) => {
                        // More copies than placements cannot be placed: the range says the
                        // same with the smaller bound.
                        let hi = (hi as u64).min(fit.max(lo as u64)) as u32;
                        (hi > 0).then(|| problem.add_primary_range(p.name.clone(), lo, hi))
                    }
                    // Cells that must be covered say how many copies fit; where they may
                    // stay empty, each option still needs a primary item.
                    PieceCount::Any if t.fill == Fill::Pack && fit > 0 => {
                        let hi = (cover as u64 / p.cells.len() as u64).min(fit).max(1) as u32;
                        Some(problem.add_primary_range(p.name.clone(), 0, hi))
                    }
                    PieceCount::Any => None,
                }
            })
            .collect();
        let blank_item =
            (leave > 0).then(|| problem.add_primary_range(".", leave as u32, leave as u32));
        let mut buf = Vec::new();
        for k in 0..piece_of.len() {
            buf.clear();
            let p = piece_of[k] as usize;
            if let Some(item) = piece_item[p] {
                buf.push((item, 0));
            }
            for &c in &cells[start[k] as usize..start[k + 1] as usize] {
                buf.push((cell_item[c as usize], 0));
            }
            problem
                .add_option(&buf)
                .map_err(|e| spec.err_nowhere("piece", e.to_string()))?;
        }
        if let Some(item) = blank_item {
            for (i, &c) in b.cells.iter().enumerate() {
                if c {
                    problem
                        .add_option(&[(item, 0), (cell_item[i], 0)])
                        .map_err(|e| spec.err_nowhere("rules.leave", e.to_string()))?;
                    cells.push(i as u32);
                    start.push(cells.len() as u32);
                    piece_of.push(BLANK);
                }
            }
        }
        Ok(Model {
            board: b.clone(),
            space,
            pieces: pieces.into_iter().map(|(p, ..)| p).collect(),
            fill: t.fill,
            leave,
            problem: Arc::new(problem),
            branch: spec.solve.branch,
            piece_of,
            start,
            cells,
        })
    }
}

/// Every turn a real piece can take: flipped over on a board, no mirror image in a box.
fn default_turns(space: bool) -> Turns {
    if space { Turns::Rotations } else { Turns::Free }
}

/// The item name of cell `i`: r{row}c{col} from the top-left, with l{layer} before it in a
/// box.
pub fn cell_name(i: usize, width: usize, height: usize, layered: bool) -> String {
    let (x, y, z) = (i % width, i / width % height, i / (width * height));
    if layered {
        format!("l{z}r{y}c{x}")
    } else {
        format!("r{y}c{x}")
    }
}

/// Whether a name reads like a cell's item name.
fn cell_name_like(name: &str) -> bool {
    let rest = name
        .strip_prefix('l')
        .map_or(name, |r| r.trim_start_matches(|c: char| c.is_ascii_digit()));
    let Some(rest) = rest.strip_prefix('r') else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.strip_prefix('c')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

/// "6x10" or "4x4x4".
pub fn board_words(width: usize, height: usize, depth: usize) -> String {
    if depth > 1 {
        format!("{width}x{height}x{depth}")
    } else {
        format!("{width}x{height}")
    }
}
