//! The JSON report: the outcome, the statistics and the solutions as data, written in three
//! steps so that solutions go out as the search finds them: the head (what is known before
//! the search: title, kind, goal, strategy, what is counted) and the opening of the
//! `solutions` array; each solution, on a line of its own; and the tail (the array closed,
//! then the outcome and the statistics). Pictures are written from their own data, a tour
//! of 10^8 squares without a JSON value per square, and stop when the clock says so, their
//! arrays closed, so that the report stays valid JSON.

use std::io::Write;

use serde_json::{Value, json};

use crate::engine::{Outcome, Partial, PartialWork, StopReason};
use crate::kinds::tour::TourNote;
use crate::util::Packed;

use super::text::{decimal_into, digits};
use super::{Header, Pacer, Picture, Stop, Unfinished, partial_text};

/// The partial result as data: which part of which list, and what was found there. Fingerprints
/// are hex strings (64 bits do not survive JSON numbers).
fn partial_json(p: &Partial) -> Value {
    let (result, none_below, estimate) = match p.work {
        PartialWork::Searched { none_below } => ("searched", Some(none_below), None),
        PartialWork::Counted => ("counted", None, None),
        PartialWork::SearchedAbove { none_above } => ("searched", Some(none_above), None),
        PartialWork::CountedLargest { largest } => ("counted-largest", Some(largest), None),
        PartialWork::NotAllSearched => ("not-all-searched", None, None),
        PartialWork::StoppedBeforeDescendants => ("stopped-before-descendants", None, None),
        PartialWork::Estimated(e) => (
            "estimated",
            None,
            e.map(|e| {
                json!({
                    "nodes": e.nodes,
                    "probes": e.probes,
                    "relative_error": e.relative_error,
                    "work_seconds": e.work_seconds,
                    "threads": e.threads,
                })
            }),
        ),
    };
    json!({
        "part": p.part.map(|(i, n)| json!([i, n])),
        "subpart": p.subpart.map(|s| json!([s.index.0, s.index.1])),
        "subtrees": p.list.subtrees,
        "bar": p.list.bar,
        "list": format!("{:016x}", p.list.fingerprint),
        "descendants": p.subpart.map(|s| s.descendants),
        "sublist": p.subpart.map(|s| format!("{:016x}", s.fingerprint)),
        "taken": p.taken,
        "result": result,
        "none_below": none_below,
        "estimate": estimate,
        "text": partial_text(p),
    })
}

fn pretty(v: &Value) -> std::io::Result<String> {
    serde_json::to_string_pretty(v).map_err(std::io::Error::other)
}

/// The report's opening: `{`, the fields known before the search, and `"solutions": [`.
pub fn write_json_head(w: &mut dyn Write, h: &Header, strategy: &str) -> std::io::Result<()> {
    let mut head = json!({
        "title": h.title,
        "kind": h.kind,
        "goal": h.goal,
        "strategy": strategy,
        "counted": h.counted,
    });
    if let Some((width, height)) = h.board {
        head["board"] = json!({ "width": width, "height": height });
        if let Some(depth) = h.depth {
            head["board"]["depth"] = json!(depth);
        }
    }
    let text = pretty(&head)?;
    let fields = text.strip_suffix("\n}").unwrap_or(&text);
    write!(w, "{fields},\n  \"solutions\": [")
}

/// Solution `index` (from 0) of the `solutions` array, on a line of its own (see
/// [`write_json_picture`]).
pub fn write_json_solution(
    w: &mut dyn Write,
    index: u64,
    p: &Picture,
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> std::io::Result<Option<Stop>> {
    w.write_all(if index == 0 { b"\n    " } else { b",\n    " })?;
    write_json_picture(w, p, stop)
}

/// The report's end, after `shown` solutions: the array closed, the outcome, the statistics,
/// and what was left out: `truncated` (the writing of a solution stopped; its array and the
/// report are closed where it stopped) and `unchecked` (the check of the solution found
/// stopped; it is not shown), each the reason or null.
pub fn write_json_tail(
    w: &mut dyn Write,
    o: &Outcome,
    shown: u64,
    unfinished: Option<&Unfinished>,
) -> std::io::Result<()> {
    write_json_tail_value(w, shown, &json_tail(o, unfinished), None)
}

/// The report's end as [`write_json_tail`] writes it, from its fields (`tail`, an object),
/// with `last` (a key and its value) after them: what a report adds to a run's fields.
pub(super) fn write_json_tail_value(
    w: &mut dyn Write,
    shown: u64,
    tail: &Value,
    last: Option<(&str, &Value)>,
) -> std::io::Result<()> {
    w.write_all(if shown > 0 { b"\n  ]" } else { b"]" })?;
    let text = pretty(tail)?;
    let mut fields = text.strip_prefix('{').unwrap_or(&text).to_string();
    if let Some((key, value)) = last {
        // The field as one of an object's, indented as the others are.
        let one = pretty(&json!({ key: value }))?;
        let field = one
            .strip_prefix("{\n")
            .and_then(|f| f.strip_suffix("\n}"))
            .unwrap_or(&one);
        let open = fields.strip_suffix("\n}").unwrap_or(&fields);
        fields = format!("{open},\n{field}\n}}");
    }
    writeln!(w, ",{fields}")
}

/// The fields after the solutions, as an object: the outcome, the statistics, and what was
/// left out (see [`write_json_tail`]).
pub(super) fn json_tail(o: &Outcome, unfinished: Option<&Unfinished>) -> Value {
    let mut stats = serde_json::Map::new();
    stats.insert("nodes".into(), json!(o.stats.nodes));
    stats.insert(
        "elapsed_ms".into(),
        json!((o.elapsed.as_secs_f64() * 1e6).round() / 1e3),
    );
    // A statistic's name as a key in snake case ("bound prunes" as "bound_prunes"), as
    // the other keys are.
    for (name, v) in &o.stats.counters {
        stats.insert(name.replace(' ', "_"), json!(v));
    }
    // Counts beyond 2^53 do not survive JSON numbers in most readers; write them as strings.
    let exact = |c: u128| {
        if c < (1u128 << 53) {
            json!(c as u64)
        } else {
            json!(c.to_string())
        }
    };
    // The solutions the run found or counted: with --unique, all those the classes stand for.
    stats.insert("solutions".into(), exact(o.stats.solutions));
    let count = match &o.answer.big {
        Some(big) => Some(json!(big.to_string())),
        None => o.answer.count.map(exact),
    };
    let (truncated, unchecked) = match unfinished {
        Some(Unfinished::Cut { at, .. }) => (Some(super::stop_text(at.reason)), None),
        Some(Unfinished::Unchecked(r)) => (None, Some(super::stop_text(*r))),
        None => (None, None),
    };
    let mut report = json!({
        "status": o.status.name(),
        "complete": o.complete(),
        "count": count,
        "optimum": o.answer.optimum,
        "proven": o.proven,
        "reason": o.answer.reason.as_ref().map(super::reason_text),
        "stopped": o.stopped.map(super::stop_text),
        "partial": o.answer.partial.as_ref().map(partial_json),
        "stats": stats,
        "truncated": truncated,
        "unchecked": unchecked,
    });
    if !o.answer.prefixes.is_empty() {
        // Only where asked for: every other report keeps its keys.
        let rows: Vec<_> = o
            .answer
            .prefixes
            .iter()
            .map(|p| {
                let count = match p.count.to_u128() {
                    Some(c) => exact(c),
                    None => json!(p.count.to_string()),
                };
                json!({"squares": p.squares, "cells": p.cells, "count": count})
            })
            .collect();
        report["prefixes"] = json!(rows);
    }
    if !o.answer.frontier.is_empty() {
        report["frontier"] = json!(o.answer.frontier);
    }
    // What a tour count wrote to disk, as the summary says it, for scripts that chart it.
    let spilled = o
        .answer
        .notes
        .iter()
        .find_map(|n| match n.get::<TourNote>() {
            Some(TourNote::Spilled {
                dir,
                squares,
                runs,
                peak,
                written,
                read,
            }) => Some(json!({
                "folder": dir,
                "squares": squares,
                "runs": runs,
                "peak_bytes": peak,
                "written_bytes": written,
                "read_bytes": read,
            })),
            _ => None,
        });
    if let Some(spill) = spilled {
        report["spill"] = spill;
    }
    // Where a tour count outgrew its memory, and what the square would have needed, as the
    // summary's note says it.
    let outgrew = o
        .answer
        .notes
        .iter()
        .find_map(|n| match n.get::<TourNote>() {
            Some(TourNote::FrontierOutgrew {
                at,
                index,
                squares,
                input,
                done,
                made,
                needed,
                budget,
            }) => Some(json!({
                "square": at,
                "index": index,
                "squares": squares,
                "states_before": input,
                "states_expanded": done,
                "new_states": made,
                "needed_bytes": needed,
                "budget_bytes": budget,
            })),
            _ => None,
        });
    if let Some(outgrew) = outgrew {
        report["outgrew"] = outgrew;
    }
    report
}

/// Bytes gathered before they go to the writer.
const CHUNK: usize = 1 << 16;

/// Rows read from a packed array at a time.
const ROWS_AT_ONCE: usize = 4096;

fn push_number(buf: &mut Vec<u8>, v: usize) {
    let v = v as u32;
    let n = digits(v as u64);
    let at = buf.len();
    buf.resize(at + n, 0);
    decimal_into(&mut buf[at..], v);
}

/// `[row, column]` of square `sq`.
fn push_square(buf: &mut Vec<u8>, sq: usize, width: usize) {
    push_row_col(buf, sq / width, sq % width);
}

/// `[row, column]`.
fn push_row_col(buf: &mut Vec<u8>, row: usize, col: usize) {
    buf.push(b'[');
    push_number(buf, row);
    buf.push(b',');
    push_number(buf, col);
    buf.push(b']');
}

/// A picture as JSON data: a placement (one piece a row too) as its pieces' `[row, column]`
/// squares, a tour as its squares in visiting order, stones as rows of colour indices (-1
/// where there is no stone), options as lists of item names. Every few thousand squares `stop` is asked whether to go
/// on; when it says stop, the arrays open are closed and where it stopped comes back.
pub fn write_json_picture(
    w: &mut dyn Write,
    p: &Picture,
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> std::io::Result<Option<Stop>> {
    let mut pace = Pacer::new(stop);
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 64);
    let mut cut = None;
    match p {
        Picture::Placement {
            width,
            pieces,
            mixed,
            ..
        } => {
            buf.push(b'[');
            for (k, &(sq, symbol)) in pieces.iter().enumerate() {
                if let Some(reason) = pace.step(1) {
                    cut = Some(Stop {
                        reason,
                        done: k,
                        of: pieces.len(),
                        unit: "pieces",
                    });
                    break;
                }
                if k > 0 {
                    buf.push(b',');
                }
                if *mixed {
                    // Several pieces: each square with the symbol of the piece on it.
                    buf.extend_from_slice(b"{\"square\":");
                    push_square(&mut buf, sq, *width);
                    buf.extend_from_slice(b",\"piece\":");
                    let name =
                        serde_json::to_string(&symbol.to_string()).expect("a string serialises");
                    buf.extend_from_slice(name.as_bytes());
                    buf.push(b'}');
                } else {
                    push_square(&mut buf, sq, *width);
                }
                if buf.len() >= CHUNK {
                    w.write_all(&buf)?;
                    buf.clear();
                }
            }
            buf.push(b']');
        }
        Picture::OnePerRow {
            height,
            cols,
            pieces,
            ..
        } => {
            let none = cols.ones();
            let mut row = vec![0u32; ROWS_AT_ONCE];
            let mut done = 0;
            buf.push(b'[');
            'rows: for from in (0..*height).step_by(ROWS_AT_ONCE) {
                let n = ROWS_AT_ONCE.min(height - from);
                cols.get_run(from, &mut row[..n]);
                for (k, &c) in row[..n].iter().enumerate() {
                    // Rows without a piece count too: the clock is asked as often.
                    if let Some(reason) = pace.step(1) {
                        cut = Some(Stop {
                            reason,
                            done,
                            of: *pieces,
                            unit: "pieces",
                        });
                        break 'rows;
                    }
                    if c == none {
                        continue;
                    }
                    if done > 0 {
                        buf.push(b',');
                    }
                    push_row_col(&mut buf, from + k, c as usize);
                    done += 1;
                }
                if buf.len() >= CHUNK {
                    w.write_all(&buf)?;
                    buf.clear();
                }
            }
            buf.push(b']');
        }
        Picture::Shapes {
            width,
            height,
            depth,
            pieces,
            ..
        } => {
            // Each placement as its piece's name and its cells: [row, col] on a board,
            // [layer, row, col] in a box. Written by hand, so that the name comes first.
            buf.push(b'[');
            for (k, (name, at)) in pieces.iter().enumerate() {
                if k > 0 {
                    buf.push(b',');
                }
                let cells: Vec<Vec<usize>> = at
                    .iter()
                    .map(|&c| {
                        let (x, y, z) = (c % width, c / width % height, c / (width * height));
                        if *depth > 1 {
                            vec![z, y, x]
                        } else {
                            vec![y, x]
                        }
                    })
                    .collect();
                let name = serde_json::to_string(name).map_err(std::io::Error::other)?;
                let cells = serde_json::to_string(&cells).map_err(std::io::Error::other)?;
                buf.extend_from_slice(format!("{{\"piece\":{name},\"cells\":{cells}}}").as_bytes());
            }
            buf.push(b']');
        }
        Picture::Grid { size, symbols, .. } => {
            // Rows of symbols, as the grid is read: ["534678912", ...].
            let rows: Vec<String> = symbols
                .chunks((*size).max(1))
                .map(|r| r.iter().collect())
                .collect();
            buf.extend_from_slice(
                serde_json::to_string(&rows)
                    .map_err(std::io::Error::other)?
                    .as_bytes(),
            );
        }
        Picture::Options(opts) => {
            buf.extend_from_slice(
                serde_json::to_string(opts)
                    .map_err(std::io::Error::other)?
                    .as_bytes(),
            );
        }
        Picture::Tour {
            width,
            height,
            number,
            cells,
            ..
        } => {
            let of = *cells;
            let order = match visiting_order(*width, *height, number, of, &mut pace) {
                Ok(o) => o,
                Err(reason) => {
                    cut = Some(Stop {
                        reason,
                        done: 0,
                        of,
                        unit: "squares",
                    });
                    Packed::new(0, 1)
                }
            };
            buf.push(b'[');
            for (k, sq) in order.iter().enumerate() {
                if cut.is_some() {
                    break;
                }
                if let Some(reason) = pace.step(1) {
                    cut = Some(Stop {
                        reason,
                        done: k,
                        of,
                        unit: "squares",
                    });
                    break;
                }
                if k > 0 {
                    buf.push(b',');
                }
                push_square(&mut buf, sq as usize, *width);
                if buf.len() >= CHUNK {
                    w.write_all(&buf)?;
                    buf.clear();
                }
            }
            buf.push(b']');
        }
        Picture::Stones {
            width,
            height,
            stones,
            ..
        } => {
            buf.push(b'[');
            for r in 0..*height {
                if let Some(reason) = pace.step(*width) {
                    cut = Some(Stop {
                        reason,
                        done: r,
                        of: *height,
                        unit: "rows",
                    });
                    break;
                }
                if r > 0 {
                    buf.push(b',');
                }
                buf.push(b'[');
                for (c, &v) in stones[r * width..(r + 1) * width].iter().enumerate() {
                    if c > 0 {
                        buf.push(b',');
                    }
                    if v == 0 {
                        buf.extend_from_slice(b"-1");
                    } else {
                        push_number(&mut buf, v - 1);
                    }
                }
                buf.push(b']');
                if buf.len() >= CHUNK {
                    w.write_all(&buf)?;
                    buf.clear();
                }
            }
            buf.push(b']');
        }
    }
    w.write_all(&buf)?;
    Ok(cut)
}

/// A tour's squares in visiting order, from its move numbers, packed like them (10^8
/// squares: 27 bits each); or why `pace` stopped it.
fn visiting_order(
    width: usize,
    height: usize,
    number: &Packed,
    cells: usize,
    pace: &mut Pacer<'_>,
) -> Result<Packed, StopReason> {
    let none = number.ones();
    let mut row = vec![0u32; width];
    let mut order = Packed::new(cells, Packed::width_for(number.len()));
    for r in 0..height {
        if let Some(reason) = pace.step(width) {
            return Err(reason);
        }
        number.get_run(r * width, &mut row);
        for (c, &k) in row.iter().enumerate() {
            // A checked tour numbers its `cells` squares 0..cells.
            if k != none && (k as usize) < cells {
                order.set(k as usize, (r * width + c) as u32);
            }
        }
    }
    Ok(order)
}
