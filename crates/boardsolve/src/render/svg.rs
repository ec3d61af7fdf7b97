//! The SVG report: each solution drawn as a board, side by side, with pieces, stones or the
//! tour's path on it.

use std::fmt::Write as _;

use super::{Header, Picture, tour_order};
use crate::engine::StopReason;

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

/// A board at x0 with its holes and pieces (square, symbol), framed.
fn draw_pieces(
    body: &mut String,
    x0: usize,
    (width, height): (usize, usize),
    hole: impl Fn(usize) -> bool,
    pieces: &[(usize, char)],
) {
    squares(body, x0, width, height, hole);
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
    frame(body, x0, width, height);
}

/// What a sudoku's drawing shows: [`Picture::Grid`]'s fields.
struct GridView<'a> {
    n: usize,
    symbols: &'a [char],
    given: &'a [bool],
    regions: Option<&'a [u8]>,
    diagonals: bool,
    cages: &'a [(u32, Vec<usize>)],
}

/// A sudoku's grid at x0: thin lines between cells, thick ones between regions, an
/// X-sudoku's two long diagonals light under the digits, the givens bold and the solved
/// cells blue, each killer cage outlined dashed inside its cells with its sum in the top-left
/// corner of its top-left cell.
fn draw_grid(body: &mut String, x0: usize, g: GridView) {
    let GridView {
        n,
        symbols,
        given,
        regions,
        diagonals,
        cages,
    } = g;
    let region = |c: usize| regions.map_or(0, |g| g[c]);
    let _ = writeln!(
        body,
        "<rect x=\"{x0}\" y=\"{GAP}\" width=\"{}\" height=\"{}\" fill=\"#fff\"/>",
        n * CELL,
        n * CELL
    );
    if diagonals {
        let side = n * CELL;
        for (x1, x2) in [(x0, x0 + side), (x0 + side, x0)] {
            let _ = writeln!(
                body,
                "<line class=\"diagonal\" x1=\"{x1}\" y1=\"{GAP}\" x2=\"{x2}\" y2=\"{}\" \
                 stroke=\"#9db4d3\" stroke-width=\"2\"/>",
                GAP + side
            );
        }
    }
    // A cage's sum sits in the top-left corner of its top-left cell (the first in reading
    // order); the digit there is set lower, clear of it.
    let sum_cell = |c: usize| {
        cages
            .iter()
            .any(|(_, cells)| cells.iter().min() == Some(&c))
    };
    for (c, &ch) in symbols.iter().enumerate() {
        let low = if sum_cell(c) { CELL / 8 } else { 0 };
        let (x, y) = (
            x0 + (c % n) * CELL + CELL / 2,
            GAP + (c / n) * CELL + CELL / 2 + low,
        );
        let (weight, fill) = if given[c] {
            ("bold", "#000")
        } else {
            ("normal", "#1a4d8f")
        };
        let _ = writeln!(
            body,
            "<text x=\"{x}\" y=\"{y}\" font-family=\"sans-serif\" font-size=\"{}\" \
             font-weight=\"{weight}\" text-anchor=\"middle\" dominant-baseline=\"central\" \
             fill=\"{fill}\">{}</text>",
            CELL / 2,
            xml_escape(&ch.to_string())
        );
    }
    // Each inner edge once: right of a cell and below it, thick between regions.
    for c in 0..n * n {
        let (r, col) = (c / n, c % n);
        let (x, y) = (x0 + col * CELL, GAP + r * CELL);
        let mut edge = |x1: usize, y1: usize, x2: usize, y2: usize, thick: bool| {
            let width = if thick { 3 } else { 1 };
            let _ = writeln!(
                body,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#333\" \
                 stroke-width=\"{width}\"/>"
            );
        };
        if col + 1 < n {
            edge(x + CELL, y, x + CELL, y + CELL, region(c) != region(c + 1));
        }
        if r + 1 < n {
            edge(x, y + CELL, x + CELL, y + CELL, region(c) != region(c + n));
        }
    }
    let _ = writeln!(
        body,
        "<rect x=\"{x0}\" y=\"{GAP}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"#333\" stroke-width=\"3\"/>",
        n * CELL,
        n * CELL
    );
    const IN: usize = 4;
    for (sum, cells) in cages {
        let inside = |c: usize| cells.contains(&c);
        for &c in cells {
            let (r, col) = (c / n, c % n);
            let (x, y) = (x0 + col * CELL, GAP + r * CELL);
            // A side of the cell not shared with the cage's next cell is the cage's edge.
            let sides = [
                (
                    r > 0 && inside(c - n),
                    (x + IN, y + IN, x + CELL - IN, y + IN),
                ),
                (
                    r + 1 < n && inside(c + n),
                    (x + IN, y + CELL - IN, x + CELL - IN, y + CELL - IN),
                ),
                (
                    col > 0 && inside(c - 1),
                    (x + IN, y + IN, x + IN, y + CELL - IN),
                ),
                (
                    col + 1 < n && inside(c + 1),
                    (x + CELL - IN, y + IN, x + CELL - IN, y + CELL - IN),
                ),
            ];
            for (shared, (x1, y1, x2, y2)) in sides {
                if !shared {
                    let _ = writeln!(
                        body,
                        "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" \
                         stroke=\"#888\" stroke-dasharray=\"3,3\"/>"
                    );
                }
            }
        }
        if let Some(&first) = cells.iter().min() {
            let _ = writeln!(
                body,
                "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"{}\" \
                 fill=\"#555\">{sum}</text>",
                x0 + (first % n) * CELL + IN + 1,
                GAP + (first / n) * CELL + IN + CELL / 5,
                CELL / 5
            );
        }
    }
}

/// Fills for shapes: a piece's colour is by its name, so that copies of a piece share it and
/// the outlines tell them apart.
const SHAPE_FILLS: &[&str] = &[
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
    "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#a9a9a9",
];

/// Shapes on a board (a box: its layers from the top, left to right), each cell filled with
/// its piece's colour, each placement outlined, its name on its first cell; returns the
/// width drawn.
fn draw_shapes(
    body: &mut String,
    x0: usize,
    (width, height, depth): (usize, usize, usize),
    cells: &[bool],
    pieces: &[(String, Vec<usize>)],
) -> usize {
    let mut names: Vec<&str> = pieces.iter().map(|p| p.0.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    // The placement on each cell.
    let mut on = vec![usize::MAX; cells.len()];
    for (k, (_, at)) in pieces.iter().enumerate() {
        for &c in at {
            on[c] = k;
        }
    }
    let mut x = x0;
    for z in 0..depth {
        let layer = z * width * height;
        for r in 0..height {
            for c in 0..width {
                let i = layer + r * width + c;
                let fill = match (cells[i], on[i]) {
                    (false, _) => "#ffffff",
                    (true, usize::MAX) => "#eeeeee",
                    (true, k) => {
                        let n = names.binary_search(&pieces[k].0.as_str()).unwrap_or(0);
                        SHAPE_FILLS[n % SHAPE_FILLS.len()]
                    }
                };
                let _ = writeln!(
                    body,
                    "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>",
                    x + c * CELL,
                    GAP + r * CELL
                );
            }
        }
        // An edge between cells of different placements (or a cell and none) is a line.
        let at = |r: isize, c: isize| -> Option<usize> {
            (r >= 0 && c >= 0 && (r as usize) < height && (c as usize) < width)
                .then(|| layer + r as usize * width + c as usize)
                .filter(|&i| cells[i])
                .map(|i| on[i])
        };
        let mut edge = |(x1, y1): (usize, usize), (x2, y2): (usize, usize)| {
            let _ = writeln!(
                body,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#222\" \
                 stroke-width=\"3\"/>"
            );
        };
        for r in 0..=height as isize {
            for c in 0..=width as isize {
                let here = at(r, c);
                let (px, py) = (x + c as usize * CELL, GAP + r as usize * CELL);
                if c < width as isize && here != at(r - 1, c) {
                    edge((px, py), (px + CELL, py));
                }
                if r < height as isize && here != at(r, c - 1) {
                    edge((px, py), (px, py + CELL));
                }
            }
        }
        for (name, at) in pieces {
            if let Some(&first) = at.iter().filter(|&&i| i / (width * height) == z).min() {
                let (r, c) = ((first - layer) / width, (first - layer) % width);
                let _ = writeln!(
                    body,
                    "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"{}\" \
                     text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#000\">{}</text>",
                    x + c * CELL + CELL / 2,
                    GAP + r * CELL + CELL / 2,
                    CELL * 2 / 5,
                    xml_escape(name)
                );
            }
        }
        x += width * CELL + GAP;
    }
    x - x0
}

/// An SVG document: each solution drawn as a chessboard with its pieces, side by side.
pub fn svg_report(h: &Header, solutions: &[Picture]) -> String {
    svg_report_until(h, solutions, &mut || None).0
}

/// [`svg_report`], asking `stop` before each solution after the first: once it gives a
/// reason the document closes with the solutions drawn so far, whose number comes back with
/// the reason.
pub fn svg_report_until(
    h: &Header,
    solutions: &[Picture],
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> (String, usize, Option<StopReason>) {
    let mut body = String::new();
    let mut x0 = GAP;
    let mut max_h = 0;
    let mut drawn = solutions.len();
    let mut stopped = None;
    for (k, p) in solutions.iter().enumerate() {
        if k > 0
            && let Some(r) = stop()
        {
            (drawn, stopped) = (k, Some(r));
            break;
        }
        match p {
            Picture::OnePerRow {
                width,
                height,
                symbol,
                cols,
                ..
            } => {
                let none = cols.ones();
                let pieces: Vec<(usize, char)> = cols
                    .iter()
                    .enumerate()
                    .filter(|&(_, c)| c != none)
                    .map(|(r, c)| (r * width + c as usize, *symbol))
                    .collect();
                draw_pieces(&mut body, x0, (*width, *height), |_| false, &pieces);
                x0 += width * CELL + GAP;
                max_h = max_h.max(height * CELL);
            }
            Picture::Grid {
                size,
                symbols,
                given,
                regions,
                diagonals,
                cages,
            } => {
                let view = GridView {
                    n: *size,
                    symbols,
                    given,
                    regions: regions.as_deref(),
                    diagonals: *diagonals,
                    cages,
                };
                draw_grid(&mut body, x0, view);
                x0 += size * CELL + GAP;
                max_h = max_h.max(size * CELL);
            }
            Picture::Shapes {
                width,
                height,
                depth,
                cells,
                pieces,
            } => {
                x0 += draw_shapes(&mut body, x0, (*width, *height, *depth), cells, pieces);
                max_h = max_h.max(height * CELL);
            }
            Picture::Placement {
                width,
                height,
                holes,
                pieces,
                ..
            } => {
                draw_pieces(&mut body, x0, (*width, *height), |sq| holes[sq], pieces);
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
    if solutions.is_empty() {
        // No solution to draw (none exists, or a limit struck first): the drawing says so
        // rather than being blank.
        let _ = writeln!(
            body,
            "<text x=\"{GAP}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"16\" \
             fill=\"#000\">no solution found</text>",
            GAP + 16
        );
        x0 += 200;
        max_h = 24;
    }
    let title = xml_escape(h.title.as_deref().unwrap_or(&h.kind));
    let (width, height) = (x0.max(2 * GAP), max_h + 2 * GAP);
    // The viewBox lets a page or a notebook scale the drawing to its column; width and
    // height keep its own size where nothing scales it.
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">\n<title>{title}</title>\n{body}</svg>\n"
    );
    (svg, drawn, stopped)
}

/// Text as XML character data or an attribute value: the five markup characters escaped,
/// and every character that XML 1.0 does not allow in a document (controls other than tab
/// and line breaks, U+FFFE, U+FFFF) replaced by U+FFFD, so that whatever a title or a name
/// holds the document parses.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_in_svg_is_escaped_and_xml_forbidden_characters_replaced() {
        assert_eq!(
            xml_escape("a&b<c>d\"e'f"),
            "a&amp;b&lt;c&gt;d&quot;e&apos;f"
        );
        assert_eq!(
            xml_escape("x\u{0}y\u{1b}z\u{FFFE}"),
            "x\u{FFFD}y\u{FFFD}z\u{FFFD}"
        );
        assert_eq!(xml_escape("tab\tline\n"), "tab\tline\n");
        assert_eq!(xml_escape("Ω \u{10000}"), "Ω \u{10000}");
    }

    /// An X-sudoku's rule is in its picture: both long diagonals, corner to corner, drawn
    /// before the digits so that they lie under them; a grid without the rule has none.
    #[test]
    fn an_x_sudoku_draws_both_long_diagonals_under_the_digits() {
        let n = 4;
        let draw = |diagonals: bool| {
            let mut body = String::new();
            let view = GridView {
                n,
                symbols: &['1'; 16],
                given: &[false; 16],
                regions: None,
                diagonals,
                cages: &[],
            };
            draw_grid(&mut body, 7, view);
            body
        };
        let body = draw(true);
        let (x0, far) = (7, 7 + n * CELL);
        let (top, bottom) = (GAP, GAP + n * CELL);
        for (x1, x2) in [(x0, far), (far, x0)] {
            let line = format!("x1=\"{x1}\" y1=\"{top}\" x2=\"{x2}\" y2=\"{bottom}\"");
            let at = body.find(&line).unwrap_or_else(|| panic!("{line}: {body}"));
            assert!(body[..at].ends_with("<line class=\"diagonal\" "), "{body}");
            assert!(at < body.find("<text").unwrap(), "under the digits: {body}");
        }
        assert_eq!(body.matches("class=\"diagonal\"").count(), 2, "{body}");
        assert!(!draw(false).contains("diagonal"));
    }
}
