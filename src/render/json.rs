//! The JSON report: the outcome, the statistics and the solutions as data, with tours
//! streamed so that the largest boards need no JSON value per square.

use serde_json::{Value, json};

use crate::engine::{Outcome, Partial, PartialWork};

use super::{Header, Picture, partial_text, tour_order};

/// The partial result as data: which part of which list, and what was found there. Fingerprints
/// are hex strings (64 bits do not survive JSON numbers).
fn partial_json(p: &Partial) -> Value {
    let (result, none_below, estimate) = match p.work {
        PartialWork::Searched { none_below } => ("searched", Some(none_below), None),
        PartialWork::Counted => ("counted", None, None),
        PartialWork::SearchedAbove { none_above } => ("searched", Some(none_above), None),
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

pub(super) fn picture_json(p: &Picture) -> Value {
    match p {
        Picture::Placement { width, pieces, .. } => Value::Array(
            pieces
                .iter()
                .map(|&(sq, _)| json!([sq / width, sq % width]))
                .collect(),
        ),
        Picture::Options(opts) => json!(opts),
        Picture::Tour { width, number, .. } => Value::Array(
            tour_order(*width, number)
                .into_iter()
                .map(|(r, c)| json!([r, c]))
                .collect(),
        ),
        // Rows of colour indices, -1 where there is no stone (holes included).
        Picture::Stones { width, stones, .. } => Value::Array(
            stones
                .chunks(*width)
                .map(|row| json!(row.iter().map(|&v| v as i64 - 1).collect::<Vec<i64>>()))
                .collect(),
        ),
    }
}

pub fn json_report(h: &Header, o: &Outcome, solutions: &[Picture]) -> String {
    let mut stats = serde_json::Map::new();
    stats.insert("nodes".into(), json!(o.stats.nodes));
    stats.insert(
        "elapsed_ms".into(),
        json!((o.elapsed.as_secs_f64() * 1e6).round() / 1e3),
    );
    for (name, v) in &o.stats.counters {
        stats.insert((*name).into(), json!(v));
    }
    // Counts beyond 2^53 do not survive JSON numbers in most readers; write them as strings.
    let count = o.answer.count.map(|c| {
        if c < (1u128 << 53) {
            json!(c as u64)
        } else {
            json!(c.to_string())
        }
    });
    let v = json!({
        "title": h.title,
        "kind": h.kind,
        "goal": h.goal,
        "strategy": o.strategy,
        "status": o.status.name(),
        "count": count,
        "counted": h.counted,
        "optimum": o.answer.optimum,
        "proven": o.proven,
        "reason": o.answer.reason.as_ref().map(super::reason_text),
        "stopped": o.stopped.map(super::stop_text),
        "partial": o.answer.partial.as_ref().map(partial_json),
        "solutions": solutions.iter().map(picture_json).collect::<Vec<_>>(),
        "stats": stats,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// A tour's visiting order as JSON squares `[row,col]`, from its move numbers, `stretch`
/// squares at a time, each a pass over the numbers: memory for one stretch, whatever the
/// board.
fn write_order(
    w: &mut dyn std::io::Write,
    width: usize,
    number: &crate::util::Packed,
    stretch: usize,
) -> std::io::Result<()> {
    let none = number.ones();
    let cells = number.iter().filter(|&k| k != none).count();
    let mut order = vec![0u32; cells.min(stretch)];
    w.write_all(b"[")?;
    for from in (0..cells).step_by(stretch) {
        let to = (from + stretch).min(cells);
        // The sentinel on holes is at least `cells`, so never in the stretch.
        for (sq, k) in number.iter().enumerate() {
            if (from..to).contains(&(k as usize)) {
                order[k as usize - from] = sq as u32;
            }
        }
        for (i, &sq) in order[..to - from].iter().enumerate() {
            let sep = if from + i > 0 { "," } else { "" };
            let sq = sq as usize;
            write!(w, "{sep}[{},{}]", sq / width, sq % width)?;
        }
    }
    w.write_all(b"]")
}

/// Squares of a tour's visiting order [`write_json_report`] holds at a time (64 MiB).
const ORDER_STRETCH: usize = 1 << 24;

/// [`json_report`] written to `w`, with tours streamed: a tour of 10^8 squares costs a
/// stretch of its visiting order at a time rather than a JSON value per square.
pub fn write_json_report(
    w: &mut dyn std::io::Write,
    h: &Header,
    o: &Outcome,
    solutions: &[Picture],
) -> std::io::Result<()> {
    if !solutions.iter().any(|p| matches!(p, Picture::Tour { .. })) {
        return w.write_all(json_report(h, o, solutions).as_bytes());
    }
    let text = json_report(h, o, &[]);
    let key = "\"solutions\": []";
    let at = text.find(key).map_or(text.len(), |a| a + key.len() - 1);
    w.write_all(&text.as_bytes()[..at])?;
    for (i, p) in solutions.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        match p {
            Picture::Tour { width, number, .. } => {
                write_order(w, *width, number, ORDER_STRETCH)?;
            }
            other => w.write_all(picture_json(other).to_string().as_bytes())?,
        }
    }
    w.write_all(&text.as_bytes()[at..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Packed;

    #[test]
    fn a_tour_in_stretches_is_the_tour_at_once() {
        // 3x3 with the centre a hole: move numbers round the ring, the sentinel in the middle.
        let numbers = [0, 5, 2, 3, u32::MAX, 7, 6, 1, 4];
        let width = Packed::width_for(9);
        let mut p = Packed::new(9, width);
        for (sq, &k) in numbers.iter().enumerate() {
            p.set(sq, k);
        }
        let write = |stretch| {
            let mut out = Vec::new();
            write_order(&mut out, 3, &p, stretch).unwrap();
            String::from_utf8(out).unwrap()
        };
        let whole = write(1 << 24);
        assert_eq!(whole, "[[0,0],[2,1],[0,2],[1,0],[2,2],[0,1],[2,0],[1,2]]");
        for stretch in [1, 3, 7, 8] {
            assert_eq!(write(stretch), whole, "stretch {stretch}");
        }
    }
}
