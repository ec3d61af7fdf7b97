//! Text, JSON and SVG writers: the only code that formats solutions. Kinds describe a
//! solution as a [`Picture`]; this module draws pictures and summaries.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::engine::{Outcome, Status};

/// A solution, described for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    /// Pieces on squares (index = row * width + col).
    Placement {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        pieces: Vec<(usize, char)>,
    },
    /// Chosen options of an exact cover, each as its item names (with colours).
    Options(Vec<Vec<String>>),
}

/// What the header of a report says about the puzzle.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub title: Option<String>,
    pub kind: String,
    pub goal: String,
    /// "solutions", or "classes under 8 symmetries" with --unique.
    pub counted: String,
}

pub fn text_picture(p: &Picture) -> String {
    let mut s = String::new();
    match p {
        Picture::Placement {
            width,
            height,
            holes,
            pieces,
        } => {
            // Holes print as '#': they are not squares, and must not read as empty ones.
            let mut grid: Vec<char> = holes.iter().map(|&h| if h { '#' } else { '.' }).collect();
            for &(sq, c) in pieces {
                grid[sq] = c;
            }
            for r in 0..*height {
                let row: Vec<String> = grid[r * width..(r + 1) * width]
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                let _ = writeln!(s, "{}", row.join(" ").trim_end());
            }
        }
        Picture::Options(opts) => {
            for o in opts {
                let _ = writeln!(s, "{}", o.join(" "));
            }
        }
    }
    s
}

/// Thousands separators, as the summary line prints counts.
pub fn group(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub fn duration(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}

/// "solutions" or "classes under 8 symmetries", singular for one.
fn counted_noun(h: &Header, c: u128) -> String {
    if c == 1 {
        h.counted
            .replacen("solutions", "solution", 1)
            .replacen("classes", "class", 1)
    } else {
        h.counted.clone()
    }
}

/// The answer line on standard output ("92 solutions", "optimum 14 (proven)").
pub fn answer_line(h: &Header, o: &Outcome) -> String {
    let mut s = match (o.answer.optimum, o.answer.count) {
        // Goal count of an optimisation kind: how many optimal solutions, and the optimum.
        (Some(v), Some(c)) if o.status != Status::Limit => {
            let what = counted_noun(h, c);
            format!("{} {what} of optimum {v} (proven)", group(c))
        }
        (Some(v), _) => format!(
            "optimum {v} ({})",
            if o.status == Status::Limit {
                "best found, not proven"
            } else {
                "proven"
            }
        ),
        (None, Some(c)) => {
            let what = counted_noun(h, c);
            if o.status == Status::Limit {
                format!("at least {} {what} (stopped: not all found)", group(c))
            } else {
                format!("{} {what}", group(c))
            }
        }
        (None, None) => String::new(),
    };
    if o.status == Status::NoSolution {
        s = "no solution".to_string();
        if let Some(r) = &o.answer.reason {
            let _ = write!(s, ": {r}");
        }
    }
    if let (Status::Limit, Some(r)) = (o.status, o.stopped) {
        let _ = write!(s, " [{}]", r.describe());
    }
    s
}

/// The one summary line on standard error: `92 solutions | bitmask | 1,965 nodes | 0.4 ms`.
pub fn summary_line(h: &Header, o: &Outcome) -> String {
    let mut parts = vec![answer_line(h, o), o.strategy.clone()];
    parts.push(format!("{} nodes", group(o.stats.nodes as u128)));
    for (name, v) in &o.stats.counters {
        parts.push(format!("{} {name}", group(*v as u128)));
    }
    parts.push(duration(o.elapsed.as_secs_f64()));
    for n in &o.answer.notes {
        parts.push(n.clone());
    }
    parts.join(" | ")
}

fn picture_json(p: &Picture) -> Value {
    match p {
        Picture::Placement { width, pieces, .. } => Value::Array(
            pieces
                .iter()
                .map(|&(sq, _)| json!([sq / width, sq % width]))
                .collect(),
        ),
        Picture::Options(opts) => json!(opts),
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
        "reason": o.answer.reason,
        "stopped": o.stopped.map(|r| r.describe()),
        "solutions": solutions.iter().map(picture_json).collect::<Vec<_>>(),
        "stats": stats,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// An SVG document: each solution drawn as a chessboard with its pieces, side by side.
pub fn svg_report(h: &Header, solutions: &[Picture]) -> String {
    const CELL: usize = 40;
    const GAP: usize = 20;
    let mut body = String::new();
    let mut x0 = GAP;
    let mut max_h = 0;
    for p in solutions {
        match p {
            Picture::Placement {
                width,
                height,
                holes,
                pieces,
            } => {
                for r in 0..*height {
                    for c in 0..*width {
                        let sq = r * width + c;
                        let fill = if holes[sq] {
                            "#ffffff"
                        } else if (r + c) % 2 == 0 {
                            "#f0d9b5"
                        } else {
                            "#b58863"
                        };
                        let _ = writeln!(
                            body,
                            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>",
                            x0 + c * CELL,
                            GAP + r * CELL
                        );
                    }
                }
                for &(sq, ch) in pieces {
                    let (r, c) = (sq / width, sq % width);
                    let _ = writeln!(
                        body,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#222\"/><text x=\"{}\" y=\"{}\" \
                         font-family=\"sans-serif\" font-size=\"{}\" text-anchor=\"middle\" \
                         dominant-baseline=\"central\" fill=\"#fff\">{}</text>",
                        x0 + c * CELL + CELL / 2,
                        GAP + r * CELL + CELL / 2,
                        CELL * 2 / 5,
                        x0 + c * CELL + CELL / 2,
                        GAP + r * CELL + CELL / 2,
                        CELL / 2,
                        xml_escape(&ch.to_string())
                    );
                }
                let _ = writeln!(
                    body,
                    "<rect x=\"{x0}\" y=\"{GAP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>",
                    width * CELL,
                    height * CELL
                );
                x0 += width * CELL + GAP;
                max_h = max_h.max(height * CELL);
            }
            Picture::Options(opts) => {
                for (i, o) in opts.iter().enumerate() {
                    let _ = writeln!(
                        body,
                        "<text x=\"{x0}\" y=\"{}\" font-family=\"monospace\" font-size=\"14\">{}</text>",
                        GAP + 16 * (i + 1),
                        xml_escape(&o.join(" "))
                    );
                }
                x0 += 400;
                max_h = max_h.max(16 * (opts.len() + 1));
            }
        }
    }
    let title = xml_escape(h.title.as_deref().unwrap_or(&h.kind));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n<title>{title}</title>\n{body}</svg>\n",
        x0.max(2 * GAP),
        max_h + 2 * GAP
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1965), "1,965");
        assert_eq!(group(14_772_512), "14,772,512");
    }

    #[test]
    fn placement_text() {
        let p = Picture::Placement {
            width: 3,
            height: 2,
            holes: vec![false, false, true, false, false, false],
            pieces: vec![(0, 'N'), (5, 'N')],
        };
        assert_eq!(text_picture(&p), "N . #\n. . N\n");
    }
}
