//! Text, JSON and SVG writers: the only code that formats solutions. Kinds describe a
//! solution as a [`Picture`]; this module draws pictures and summaries.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::engine::{BlockLayout, Note, Outcome, Partial, PartialWork, Status, TourCounting};
use crate::util::Packed;

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
    /// A tour: the move number of each square (0-based; all ones on holes), packed, so the
    /// largest boards cost ceil(log2(squares + 1)) bits a square (10^8 squares: 27).
    Tour {
        width: usize,
        height: usize,
        number: Packed,
        closed: bool,
        /// Squares on the board (not holes): a valid tour's widest number.
        cells: usize,
    },
    /// Stones of several colours (kind lines): `stones[sq]` is 0 for none, `c + 1` for a
    /// stone of colour `c`, named `colors[c]`.
    Stones {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        stones: Vec<usize>,
        colors: Vec<String>,
    },
}

/// The letter a stone of colour `c` prints as: X, O, then A, B, ... (the puzzle's own letters).
pub fn stone_letter(c: usize) -> char {
    const LETTERS: &[u8] = b"XOABCDEFGHIJKLMNPQRSTUVWYZ";
    LETTERS.get(c).map_or('?', |&b| b as char)
}

/// A fill for a stone: the colour's own name when it is a common SVG colour, else a palette.
fn stone_fill(name: &str, c: usize) -> String {
    const NAMED: &[&str] = &[
        "black", "white", "red", "green", "blue", "yellow", "orange", "purple", "gray", "grey",
        "brown", "pink", "cyan", "magenta",
    ];
    const PALETTE: &[&str] = &[
        "#222222", "#f5f5f5", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    ];
    let lower = name.to_ascii_lowercase();
    if NAMED.contains(&lower.as_str()) {
        lower
    } else {
        PALETTE[c % PALETTE.len()].to_string()
    }
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
        Picture::Tour { .. } => {
            let mut buf = Vec::new();
            let _ = write_text_picture(&mut buf, p);
            s = String::from_utf8_lossy(&buf).into_owned();
        }
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
        Picture::Stones {
            width,
            height,
            holes,
            stones,
            ..
        } => {
            for r in 0..*height {
                let row: Vec<String> = (r * width..(r + 1) * width)
                    .map(|sq| match (holes[sq], stones[sq]) {
                        (true, _) => "#".to_string(),
                        (false, 0) => ".".to_string(),
                        (false, v) => stone_letter(v - 1).to_string(),
                    })
                    .collect();
                let _ = writeln!(s, "{}", row.join(" "));
            }
        }
    }
    s
}

/// Write a picture as text; tours stream row by row, so a board of 10^8 squares needs no
/// second copy in memory.
pub fn write_text_picture(w: &mut dyn std::io::Write, p: &Picture) -> std::io::Result<()> {
    let Picture::Tour {
        width,
        height,
        number,
        cells,
        ..
    } = p
    else {
        return w.write_all(text_picture(p).as_bytes());
    };
    let none = number.ones();
    // The widest number sets the column width: the count of squares on a valid tour. The
    // numbers printed are at most `none` (k + 1 for k below it), so when that is no wider
    // than the count no pass over the numbers is needed to be sure.
    let width_of = |v: u64| v.max(1).to_string().len();
    let digits = if width_of(*cells as u64) == width_of(none as u64) {
        width_of(*cells as u64)
    } else {
        let top = number
            .iter()
            .filter(|&k| k != none)
            .map(|k| k as u64 + 1)
            .max()
            .unwrap_or(0);
        width_of(top.max(*cells as u64))
    };
    // Each row is formatted into one buffer of fixed-width fields: spaces first, then the
    // digits written from the right two at a time (a row of 10^4 numbers, 10^4 times).
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
                                2021222324252627282930313233343536373839\
                                4041424344454647484950515253545556575859\
                                6061626364656667686970717273747576777879\
                                8081828384858687888990919293949596979899";
    let stride = digits + 1;
    let mut line = vec![b' '; stride * width];
    let mut row = vec![0u32; *width];
    for r in 0..*height {
        line.fill(b' ');
        number.get_run(r * width, &mut row);
        for (c, &k) in row.iter().enumerate() {
            let field = &mut line[c * stride..c * stride + digits];
            // Moves print from 1, right-aligned; holes print as '#'.
            if k == none {
                field[digits - 1] = b'#';
                continue;
            }
            // k < none, so k + 1 fits; u32 divisions are the cheaper multiplications.
            let mut v = k + 1;
            let mut i = digits;
            while v >= 100 {
                let d = (v % 100) as usize * 2;
                v /= 100;
                i -= 2;
                field[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
            }
            if v >= 10 {
                let d = v as usize * 2;
                field[i - 2..i].copy_from_slice(&PAIRS[d..d + 2]);
            } else {
                field[i - 1] = b'0' + v as u8;
            }
        }
        if let Some(last) = line.last_mut() {
            *last = b'\n';
        }
        w.write_all(&line)?;
    }
    Ok(())
}

/// The squares of a tour in visiting order, from its move numbers.
pub fn tour_order(width: usize, number: &Packed) -> Vec<(usize, usize)> {
    let none = number.ones();
    let cells = number.iter().filter(|&k| k != none).count();
    let mut order = vec![(0, 0); cells];
    for (s, k) in number.iter().enumerate() {
        if k != none {
            order[k as usize] = (s / width, s % width);
        }
    }
    order
}

/// The move graph (or any graph on board squares) in Graphviz DOT: nodes named by square,
/// placed at their board position (for `neato -n`), edges on `highlight` drawn bold.
pub fn dot_graph(
    name: &str,
    width: usize,
    nodes: &[(usize, String)],
    edges: &[(usize, usize)],
    highlight: &[(usize, usize)],
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "graph \"{}\" {{", name.replace('"', "'"));
    let _ = writeln!(
        s,
        "  node [shape=circle fontsize=10 width=0.4 fixedsize=true];"
    );
    for (sq, label) in nodes {
        let _ = writeln!(
            s,
            "  s{sq} [label=\"{label}\" pos=\"{},{}!\"];",
            (sq % width) * 50,
            -((sq / width) as i64) * 50
        );
    }
    let mut bold: Vec<(usize, usize)> = highlight
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    bold.sort_unstable();
    for &(a, b) in edges {
        let key = (a.min(b), a.max(b));
        if bold.binary_search(&key).is_ok() {
            let _ = writeln!(s, "  s{a} -- s{b} [penwidth=3 color=\"#c03020\"];");
        } else {
            let _ = writeln!(s, "  s{a} -- s{b} [color=\"#999999\"];");
        }
    }
    s.push_str("}\n");
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
    } else if secs < 3600.0 {
        format!("{secs:.2} s")
    } else if secs < 48.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.0} days", secs / 86400.0)
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
            if o.status == Status::Limit && c == 0 {
                "stopped before any was counted".to_string()
            } else if o.status == Status::Limit {
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
    if let Some(p) = &o.answer.partial {
        let _ = write!(s, " [{}]", partial_text(p));
    }
    if let (Status::Limit, Some(r)) = (o.status, o.stopped) {
        let _ = write!(s, " [{}]", r.describe());
    }
    s
}

/// A number of nodes in three significant figures: "2.49e8", "25746", "25.7".
fn sci(x: f64) -> String {
    if !x.is_finite() {
        "unbounded".into()
    } else if x >= 1e6 {
        format!("{x:.2e}")
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// What a part or estimate did, for the answer line: "part 3/8: 22 of 171 subtrees below 52
/// (list 13fde5254d0f85c1) searched: none smaller than 52 in them".
pub fn partial_text(p: &Partial) -> String {
    let l = &p.list;
    let mut what = match (p.part, &p.subpart) {
        (Some((i, n)), Some(sub)) => {
            let (j, m) = sub.index;
            format!(
                "part {i}/{n},{j}/{m}: {} of the {} descendants of {} of {} subtrees below {} \
                 (list {:016x}, sublist {:016x})",
                p.taken,
                sub.descendants,
                sub.of_subtrees,
                l.subtrees,
                l.bar,
                l.fingerprint,
                sub.fingerprint
            )
        }
        (Some((i, n)), None) => format!(
            "part {i}/{n}: {} of {} subtrees below {} (list {:016x})",
            p.taken, l.subtrees, l.bar, l.fingerprint
        ),
        (None, _) => format!("{} subtrees below {}", l.subtrees, l.bar),
    };
    match p.work {
        PartialWork::Searched { none_below } => {
            let _ = write!(what, " searched: none smaller than {none_below} in them");
        }
        PartialWork::NotAllSearched => what.push_str(", not all searched"),
        PartialWork::StoppedBeforeDescendants => what.push_str(", stopped before its children"),
        PartialWork::Estimated(None) => {
            what = format!("estimate, {what}: stopped before the first probe ended");
        }
        PartialWork::Estimated(Some(e)) => {
            what = format!(
                "estimate, {what}: about {} nodes (Knuth, {} probes, standard error {:.0}%), {} \
                 of one thread's work, {} on {} thread{}",
                sci(e.nodes),
                e.probes,
                e.relative_error * 100.0,
                duration(e.work_seconds),
                duration(e.work_seconds / e.threads as f64),
                e.threads,
                if e.threads == 1 { "" } else { "s" },
            );
        }
    }
    what
}

/// The partial result as data: which part of which list, and what was found there. Fingerprints
/// are hex strings (64 bits do not survive JSON numbers).
fn partial_json(p: &Partial) -> Value {
    let (result, none_below, estimate) = match p.work {
        PartialWork::Searched { none_below } => ("searched", Some(none_below), None),
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

/// A note for the summary line.
pub fn note_text(n: &Note) -> String {
    match n {
        Note::SymmetryFold(k) => format!("{k}-fold symmetry"),
        Note::RootBound(b) => format!("root bound {b}"),
        Note::OptimalCounted(v) => format!("optimal placements of {v} pieces counted"),
        Note::NotProvenMinimal(k) => {
            format!("{k} pieces, not proven minimal (goal minimize proves)")
        }
        Note::TourCount(TourCounting::ClosedUndirected) => {
            "closed tours counted as undirected cycles".into()
        }
        Note::TourCount(TourCounting::DirectedFrom(square)) => {
            format!("directed tours from {square}")
        }
        Note::TourCount(TourCounting::DirectedEveryStart) => {
            "directed tours from every start".into()
        }
        Note::Divided { layout, exists_by } => {
            let shape = match layout {
                BlockLayout::Grid { rows, cols } => format!("{rows} x {cols} blocks"),
                BlockLayout::Chain { height } => format!("a chain of blocks {height} high"),
                BlockLayout::Strip => "1 strip".into(),
            };
            match exists_by {
                Some(why) => format!("{shape}; exists by {why}"),
                None => shape,
            }
        }
        Note::HandedOver { from, to, tried } => {
            format!("{from} gave up after {tried} moves tried; handed over to {to}")
        }
        Note::FrontierOutgrew { states, bytes } => format!(
            "the frontier outgrew {} M new states at one square (about {} MB); this board needs \
             more memory than counting may take",
            states >> 20,
            bytes >> 20
        ),
    }
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
        parts.push(note_text(n));
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
        "reason": o.answer.reason,
        "stopped": o.stopped.map(|r| r.describe()),
        "partial": o.answer.partial.as_ref().map(partial_json),
        "solutions": solutions.iter().map(picture_json).collect::<Vec<_>>(),
        "stats": stats,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// [`json_report`] written to `w`, with tours streamed: a tour of 10^8 squares costs its
/// visiting order (packed like the numbers: 27 bits a square) rather than a JSON value per
/// square.
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
                let none = number.ones();
                let cells = number.iter().filter(|&k| k != none).count();
                let mut order = Packed::new(cells, Packed::width_for(number.len()));
                for (sq, k) in number.iter().enumerate() {
                    if k != none {
                        order.set(k as usize, sq as u32);
                    }
                }
                w.write_all(b"[")?;
                for (k, sq) in order.iter().enumerate() {
                    let sep = if k > 0 { "," } else { "" };
                    let sq = sq as usize;
                    write!(w, "{sep}[{},{}]", sq / width, sq % width)?;
                }
                w.write_all(b"]")?;
            }
            other => w.write_all(picture_json(other).to_string().as_bytes())?,
        }
    }
    w.write_all(&text.as_bytes()[at..])
}

/// Boards above this many squares are not drawn as SVG: the picture would be unreadable
/// and its text unbounded.
pub const SVG_MAX_SQUARES: usize = 250_000;

const CELL: usize = 40;
const GAP: usize = 20;

/// The board's squares as SVG rectangles at x0, holes white.
fn squares(
    body: &mut String,
    x0: usize,
    width: usize,
    height: usize,
    hole: impl Fn(usize) -> bool,
) {
    for r in 0..height {
        for c in 0..width {
            let fill = if hole(r * width + c) {
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
}

/// The board's outline, drawn over its squares.
fn frame(body: &mut String, x0: usize, width: usize, height: usize) {
    let _ = writeln!(
        body,
        "<rect x=\"{x0}\" y=\"{GAP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>",
        width * CELL,
        height * CELL
    );
}

/// An SVG document: each solution drawn as a chessboard with its pieces, side by side.
pub fn svg_report(h: &Header, solutions: &[Picture]) -> String {
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
                squares(&mut body, x0, *width, *height, |sq| holes[sq]);
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
                frame(&mut body, x0, *width, *height);
                x0 += width * CELL + GAP;
                max_h = max_h.max(height * CELL);
            }
            Picture::Tour {
                width,
                height,
                number,
                closed,
                ..
            } => {
                squares(&mut body, x0, *width, *height, |sq| {
                    number.get(sq) == number.ones()
                });
                let order = tour_order(*width, number);
                let centre = |(r, c): (usize, usize)| {
                    format!("{},{}", x0 + c * CELL + CELL / 2, GAP + r * CELL + CELL / 2)
                };
                let points: Vec<String> = order.iter().map(|&p| centre(p)).collect();
                let tag = if *closed { "polygon" } else { "polyline" };
                let _ = writeln!(
                    body,
                    "<{tag} points=\"{}\" fill=\"none\" stroke=\"#1a4d8f\" stroke-width=\"3\" \
                     stroke-linejoin=\"round\"/>",
                    points.join(" ")
                );
                if let (Some(&first), Some(&last)) = (order.first(), order.last()) {
                    // The start as a filled dot, the end of an open tour as a ring.
                    let (fx, fy) = (
                        x0 + first.1 * CELL + CELL / 2,
                        GAP + first.0 * CELL + CELL / 2,
                    );
                    let _ = writeln!(
                        body,
                        "<circle cx=\"{fx}\" cy=\"{fy}\" r=\"{}\" fill=\"#1a4d8f\"/>",
                        CELL / 6
                    );
                    if !closed {
                        let (lx, ly) = (
                            x0 + last.1 * CELL + CELL / 2,
                            GAP + last.0 * CELL + CELL / 2,
                        );
                        let _ = writeln!(
                            body,
                            "<circle cx=\"{lx}\" cy=\"{ly}\" r=\"{}\" fill=\"#fff\" stroke=\"#1a4d8f\" stroke-width=\"3\"/>",
                            CELL / 6
                        );
                    }
                }
                frame(&mut body, x0, *width, *height);
                x0 += width * CELL + GAP;
                max_h = max_h.max(height * CELL);
            }
            Picture::Stones {
                width,
                height,
                holes,
                stones,
                colors,
            } => {
                for r in 0..*height {
                    for c in 0..*width {
                        let sq = r * width + c;
                        let fill = if holes[sq] { "#ffffff" } else { "#e8d5a8" };
                        let _ = writeln!(
                            body,
                            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#8a6d3b\"/>",
                            x0 + c * CELL,
                            GAP + r * CELL
                        );
                        if stones[sq] > 0 {
                            let k = stones[sq] - 1;
                            let name = colors.get(k).map_or("", |n| n.as_str());
                            let _ = writeln!(
                                body,
                                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#222\"><title>{}</title></circle>",
                                x0 + c * CELL + CELL / 2,
                                GAP + r * CELL + CELL / 2,
                                CELL * 2 / 5,
                                stone_fill(name, k),
                                xml_escape(name)
                            );
                        }
                    }
                }
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

    #[test]
    fn tour_text_is_right_aligned_from_one() {
        let p = Picture::Tour {
            width: 4,
            height: 3,
            number: Packed::from_slice(&[0, 3, 6, 9, 7, 10, 1, 4, 2, 5, 8, u32::MAX], 4),
            closed: false,
            cells: 11,
        };
        assert_eq!(text_picture(&p), " 1  4  7 10\n 8 11  2  5\n 3  6  9  #\n");
        assert_eq!(
            tour_order(
                4,
                match &p {
                    Picture::Tour { number, .. } => number,
                    _ => unreachable!(),
                }
            )[..3],
            [(0, 0), (1, 2), (2, 0)]
        );
    }

    #[test]
    fn stones_text_and_json() {
        let p = Picture::Stones {
            width: 3,
            height: 2,
            holes: vec![false, true, false, false, false, false],
            stones: vec![1, 0, 2, 0, 3, 0],
            colors: vec!["black".into(), "white".into(), "red".into()],
        };
        assert_eq!(text_picture(&p), "X # O\n. A .\n");
        assert_eq!(picture_json(&p), json!([[0, -1, 1], [-1, 2, -1]]));
    }
}
