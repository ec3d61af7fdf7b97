//! Solutions as text, one picture after another: placements and stones as grids of letters,
//! options as lines of item names, tours as right-aligned move numbers; every picture is
//! written row by row, so a board of 10^8 squares needs no second copy in memory, and the
//! writing of a large one stops when the clock says so.
//!
//! A report is written in three steps, so that solutions can go out as the search finds
//! them: the head (the title), each solution, and the tail (the answer line and what the
//! reader must know about what was shown).

use std::io::Write;

use crate::engine::{Outcome, StopReason};
use crate::util::Packed;

use super::{Header, Pacer, Picture, Stop, Unfinished, answer_line, group, stone_letter};

/// A picture as text, whole.
pub fn text_picture(p: &Picture) -> String {
    let mut buf = Vec::new();
    let _ = write_text_picture(&mut buf, p, &mut || None);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The first line of a text report: the title, if the puzzle has one, its control
/// characters written as escapes (the file is the user's, or anyone's: none of it moves the
/// cursor or recolours a terminal).
pub fn write_text_head(w: &mut dyn Write, h: &Header) -> std::io::Result<()> {
    match &h.title {
        Some(t) => writeln!(w, "{}", super::shown(t)),
        None => Ok(()),
    }
}

/// One solution of a text report: a blank line, then the picture (see
/// [`write_text_picture`]).
pub fn write_text_solution(
    w: &mut dyn Write,
    p: &Picture,
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> std::io::Result<Option<Stop>> {
    writeln!(w)?;
    write_text_picture(w, p, stop)
}

/// The end of a text report: the answer line after the `shown` solutions, then, for goal
/// `all` (`all`) with fewer shown than counted, how to see more; and, when the output is not
/// whole, why.
pub fn write_text_tail(
    w: &mut dyn Write,
    h: &Header,
    o: &Outcome,
    shown: u64,
    all: bool,
    unfinished: Option<&Unfinished>,
) -> std::io::Result<()> {
    if shown > 0 {
        writeln!(w)?;
    }
    if !o.answer.prefixes.is_empty() {
        write_prefixes(w, h, o)?;
    }
    writeln!(w, "{}", answer_line(h, o))?;
    match unfinished {
        Some(u) => writeln!(w, "({})", super::unfinished_text(u)),
        None => match o.answer.count {
            Some(c) if all && (shown as u128) < c => writeln!(w, "{}", shown_text(shown)),
            _ => Ok(()),
        },
    }
}

/// The counts of the board's prefixes, one a line: the squares swept, the cells among them
/// (where holes make them fewer), and the count.
fn write_prefixes(w: &mut dyn Write, h: &Header, o: &Outcome) -> std::io::Result<()> {
    let holes = o.answer.prefixes.iter().any(|p| p.cells != p.squares);
    writeln!(
        w,
        "The board's first squares, the rest as holes, and their {}:",
        h.counted
    )?;
    for p in &o.answer.prefixes {
        let count = super::group_digits(&p.count.to_string());
        if holes {
            writeln!(w, "{:>8} squares ({} cells)  {count}", p.squares, p.cells)?;
        } else {
            writeln!(w, "{:>8} squares  {count}", p.squares)?;
        }
    }
    writeln!(w)
}

/// The line under the answer when goal `all` shows fewer solutions than it counted.
pub fn shown_text(shown: u64) -> String {
    if shown == 0 {
        return "(none of them shown: --limit 0; --limit N shows the first N)".into();
    }
    format!(
        "(showing the first {} of them; --limit N shows more)",
        group(shown as u128)
    )
}

/// Write a picture as text, row by row. Every few thousand squares `stop` is asked whether
/// to go on; when it says stop, the rows written so far stay and where it stopped comes
/// back (a picture of up to a few thousand squares is always written whole).
pub fn write_text_picture(
    w: &mut dyn Write,
    p: &Picture,
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> std::io::Result<Option<Stop>> {
    let mut pace = Pacer::new(stop);
    let rows = |done: usize, of: usize, reason| Stop {
        reason,
        done,
        of,
        unit: "rows",
    };
    match p {
        Picture::Tour { .. } => write_tour(w, p, &mut pace),
        Picture::OnePerRow {
            width,
            height,
            symbol,
            cols,
            pieces,
        } => {
            let rows_of = |width| RowsOf {
                width,
                height: *height,
                symbol: *symbol,
                cols,
            };
            if *width > TEXT_MAX_COLUMNS {
                write_column_list(w, &rows_of(*width), *pieces, &mut pace)
            } else {
                write_one_per_row_grid(w, &rows_of(*width), &mut pace)
            }
        }
        Picture::Placement {
            width,
            height,
            holes,
            pieces,
            ..
        } => {
            // The pieces in square order (a later piece on a square wins, as drawn before).
            let mut sorted = std::borrow::Cow::Borrowed(pieces);
            if !pieces.is_sorted_by_key(|p| p.0) {
                sorted.to_mut().sort_by_key(|p| p.0);
            }
            if *width > TEXT_MAX_COLUMNS {
                return write_placement_list(w, *width, *height, &sorted, &mut pace);
            }
            let mut next = sorted.iter().peekable();
            let mut line = String::with_capacity(2 * width + 1);
            for r in 0..*height {
                if let Some(reason) = pace.step(*width) {
                    return Ok(Some(rows(r, *height, reason)));
                }
                line.clear();
                let start = r * width;
                for (sq, &hole) in holes[start..start + width].iter().enumerate() {
                    // Holes print as '#': they are not squares, and must not read as empty
                    // ones.
                    let mut c = if hole { '#' } else { '.' };
                    while let Some(&(_, piece)) = next.next_if(|p| p.0 == start + sq) {
                        c = piece;
                    }
                    if sq > 0 {
                        line.push(' ');
                    }
                    line.push(c);
                }
                line.truncate(line.trim_end().len());
                line.push('\n');
                w.write_all(line.as_bytes())?;
            }
            Ok(None)
        }
        Picture::Shapes {
            width,
            height,
            depth,
            cells,
            pieces,
        } => {
            // Each cell shows its piece's name, and the copy's number where the piece has
            // several (copies numbered in the order of their first cells); the layers of a
            // box stand side by side, the top one at the left.
            let mut order: Vec<usize> = (0..pieces.len()).collect();
            order.sort_by_key(|&k| pieces[k].1.iter().min().copied());
            let mut copies: std::collections::HashMap<&str, (usize, usize)> =
                std::collections::HashMap::new();
            for p in pieces {
                copies.entry(&p.0).or_default().0 += 1;
            }
            let mut labels: Vec<String> = pieces.iter().map(|p| p.0.clone()).collect();
            for &k in &order {
                let name = pieces[k].0.as_str();
                let (all, seen) = copies.get_mut(name).expect("counted above");
                if *all > 1 {
                    *seen += 1;
                    labels[k] = format!("{name}{seen}");
                }
            }
            let wide = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
            let mut shown: Vec<&str> = cells.iter().map(|&c| if c { "." } else { "#" }).collect();
            for (label, (_, at)) in labels.iter().zip(pieces) {
                for &c in at {
                    shown[c] = label;
                }
            }
            let mut line = String::new();
            for r in 0..*height {
                if let Some(reason) = pace.step(*width * *depth) {
                    return Ok(Some(rows(r, *height, reason)));
                }
                line.clear();
                for z in 0..*depth {
                    if z > 0 {
                        line.push_str("   ");
                    }
                    for x in 0..*width {
                        if x > 0 {
                            line.push(' ');
                        }
                        let name = shown[(z * height + r) * width + x];
                        line.push_str(name);
                        for _ in name.chars().count()..wide {
                            line.push(' ');
                        }
                    }
                }
                line.truncate(line.trim_end().len());
                line.push('\n');
                w.write_all(line.as_bytes())?;
            }
            Ok(None)
        }
        Picture::Grid {
            size,
            symbols,
            regions,
            ..
        } => {
            for line in grid_lines(*size, symbols, regions.as_deref()) {
                writeln!(w, "{line}")?;
            }
            Ok(None)
        }
        Picture::Options(opts) => {
            for (k, o) in opts.iter().enumerate() {
                if let Some(reason) = pace.step(o.len()) {
                    return Ok(Some(rows(k, opts.len(), reason)));
                }
                writeln!(w, "{}", o.join(" "))?;
            }
            Ok(None)
        }
        Picture::Stones {
            width,
            height,
            holes,
            stones,
            ..
        } => {
            let mut line = String::with_capacity(2 * width + 1);
            for r in 0..*height {
                if let Some(reason) = pace.step(*width) {
                    return Ok(Some(rows(r, *height, reason)));
                }
                line.clear();
                for sq in r * width..(r + 1) * width {
                    if sq > r * width {
                        line.push(' ');
                    }
                    line.push(match (holes[sq], stones[sq]) {
                        (true, _) => '#',
                        (false, 0) => '.',
                        (false, v) => stone_letter(v - 1),
                    });
                }
                line.push('\n');
                w.write_all(line.as_bytes())?;
            }
            Ok(None)
        }
    }
}

/// A sudoku's grid as lines of text: the symbols a space apart, regions ruled with '|' and
/// '-' where neighbours lie in different regions ("5 3 4 | 6 7 8 | 9 1 2" for boxes). A
/// column boundary is ruled as wide as its widest row needs, so that the columns line up.
pub fn grid_lines(n: usize, symbols: &[char], regions: Option<&[u8]>) -> Vec<String> {
    let region = |r: usize, c: usize| regions.map_or(0, |g| g[r * n + c]);
    // Whether the boundary right of column c is ruled in some row.
    let wide: Vec<bool> = (0..n.saturating_sub(1))
        .map(|c| (0..n).any(|r| region(r, c) != region(r, c + 1)))
        .collect();
    let mut lines = Vec::with_capacity(2 * n);
    for r in 0..n {
        let mut line = String::with_capacity(4 * n);
        for c in 0..n {
            line.push(symbols[r * n + c]);
            if c + 1 < n {
                line.push_str(match (wide[c], region(r, c) != region(r, c + 1)) {
                    (false, _) => " ",
                    (true, true) => " | ",
                    (true, false) => "   ",
                });
            }
        }
        lines.push(line);
        if r + 1 == n || (0..n).all(|c| region(r, c) == region(r + 1, c)) {
            continue;
        }
        // The rule below row r: '-' under a cell whose lower neighbour is in another region,
        // '+' where it meets a vertical rule.
        let under = |c: usize| region(r, c) != region(r + 1, c);
        let mut rule = String::with_capacity(4 * n);
        for c in 0..n {
            rule.push(if under(c) { '-' } else { ' ' });
            if c + 1 < n {
                let vertical =
                    region(r, c) != region(r, c + 1) || region(r + 1, c) != region(r + 1, c + 1);
                let (left, right) = (under(c), under(c + 1));
                let dash = |b: bool| if b { '-' } else { ' ' };
                if !wide.get(c).copied().unwrap_or(false) {
                    rule.push(dash(left && right));
                } else {
                    rule.push(dash(left));
                    rule.push(match (vertical, left || right) {
                        (true, true) => '+',
                        (true, false) => '|',
                        (false, _) => dash(left && right),
                    });
                    rule.push(dash(right));
                }
            }
        }
        lines.push(rule.trim_end().to_string());
    }
    lines
}

/// Placements on boards wider than this are written as lists, a line per row with the
/// columns of its pieces, not drawn: a row of 64 squares is already 127 characters.
pub const TEXT_MAX_COLUMNS: usize = 64;

/// Bytes gathered before they go to the writer.
const CHUNK: usize = 1 << 16;

/// Rows read from a packed array at a time.
const ROWS_AT_ONCE: usize = 4096;

/// A [`Picture::OnePerRow`]'s fields.
struct RowsOf<'p> {
    width: usize,
    height: usize,
    symbol: char,
    cols: &'p Packed,
}

/// The line above a placement written as a list: what the numbers are.
fn list_head(symbol: char, one_per_row: bool, empty_rows: bool) -> String {
    let mut s = if one_per_row {
        format!("One line per row from the top: the column of its {symbol}")
    } else {
        format!("One line per row from the top: the columns of its {symbol}s")
    };
    s.push_str(", counted from 0 at the left, as [row, col] in puzzle files and JSON");
    if empty_rows {
        s.push_str("; - for a row without one");
    }
    s.push('\n');
    s
}

/// One piece a row, as a list: the head, then each row's column, `-` for none, a chunk of
/// rows at a time from the packed array.
fn write_column_list(
    w: &mut dyn Write,
    p: &RowsOf<'_>,
    pieces: usize,
    pace: &mut Pacer<'_>,
) -> std::io::Result<Option<Stop>> {
    let none = p.cols.ones();
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 64);
    buf.extend_from_slice(list_head(p.symbol, true, pieces < p.height).as_bytes());
    let mut row = vec![0u32; ROWS_AT_ONCE];
    let mut field = [0u8; 10];
    for from in (0..p.height).step_by(ROWS_AT_ONCE) {
        let n = ROWS_AT_ONCE.min(p.height - from);
        p.cols.get_run(from, &mut row[..n]);
        for (k, &c) in row[..n].iter().enumerate() {
            if let Some(reason) = pace.step(1) {
                w.write_all(&buf)?;
                return Ok(Some(Stop {
                    reason,
                    done: from + k,
                    of: p.height,
                    unit: "rows",
                }));
            }
            if c == none {
                buf.push(b'-');
            } else {
                let d = digits(c as u64);
                decimal_into(&mut field[..d], c);
                buf.extend_from_slice(&field[..d]);
            }
            buf.push(b'\n');
        }
        if buf.len() >= CHUNK {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)?;
    Ok(None)
}

/// One piece a row on a board narrow enough to draw, drawn as a grid.
fn write_one_per_row_grid(
    w: &mut dyn Write,
    p: &RowsOf<'_>,
    pace: &mut Pacer<'_>,
) -> std::io::Result<Option<Stop>> {
    let none = p.cols.ones();
    let mut line = String::with_capacity(2 * p.width + 1);
    for (r, c) in p.cols.iter().enumerate() {
        if let Some(reason) = pace.step(p.width) {
            return Ok(Some(Stop {
                reason,
                done: r,
                of: p.height,
                unit: "rows",
            }));
        }
        line.clear();
        for sq in 0..p.width {
            if sq > 0 {
                line.push(' ');
            }
            line.push(if c != none && c as usize == sq {
                p.symbol
            } else {
                '.'
            });
        }
        line.push('\n');
        w.write_all(line.as_bytes())?;
    }
    Ok(None)
}

/// A placement on a board too wide to draw, as a list: the head, then the columns of each
/// row's pieces (`sorted` by square), `-` for none.
fn write_placement_list(
    w: &mut dyn Write,
    width: usize,
    height: usize,
    sorted: &[(usize, char)],
    pace: &mut Pacer<'_>,
) -> std::io::Result<Option<Stop>> {
    let symbol = sorted.first().map_or('?', |p| p.1);
    let mut rows_with = sorted.iter().map(|p| p.0 / width).collect::<Vec<_>>();
    rows_with.dedup();
    let one_per_row = rows_with.len() == sorted.len();
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK + 64);
    buf.extend_from_slice(list_head(symbol, one_per_row, rows_with.len() < height).as_bytes());
    let mut next = sorted.iter().peekable();
    for r in 0..height {
        if let Some(reason) = pace.step(1) {
            w.write_all(&buf)?;
            return Ok(Some(Stop {
                reason,
                done: r,
                of: height,
                unit: "rows",
            }));
        }
        let mut any = false;
        while let Some(&(sq, _)) = next.next_if(|p| p.0 / width == r) {
            if any {
                buf.push(b' ');
            }
            write!(buf, "{}", sq % width)?;
            any = true;
        }
        if !any {
            buf.push(b'-');
        }
        buf.push(b'\n');
        if buf.len() >= CHUNK {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)?;
    Ok(None)
}

/// Two decimal digits at a time, for the writers of many numbers.
pub(super) const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
                                       2021222324252627282930313233343536373839\
                                       4041424344454647484950515253545556575859\
                                       6061626364656667686970717273747576777879\
                                       8081828384858687888990919293949596979899";

/// `v` in decimal, right-aligned in `field` (which is wide enough); the rest is left as is.
/// (In u32: its divisions by 100 are the cheaper multiplications.)
#[inline]
pub(super) fn decimal_into(field: &mut [u8], v: u32) {
    let mut v = v;
    let mut i = field.len();
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

/// The number of decimal digits of `v` (1 for 0).
#[inline]
pub(super) fn digits(v: u64) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// A tour as rows of right-aligned move numbers from 1, holes as '#'.
fn write_tour(
    w: &mut dyn Write,
    p: &Picture,
    pace: &mut Pacer<'_>,
) -> std::io::Result<Option<Stop>> {
    let Picture::Tour {
        width,
        height,
        number,
        cells,
        ..
    } = p
    else {
        return Ok(None);
    };
    let none = number.ones();
    // The widest number sets the column width: the count of squares on a valid tour. The
    // numbers printed are at most `none` (k + 1 for k below it), so when that is no wider
    // than the count no pass over the numbers is needed to be sure.
    let width_of = |v: u64| digits(v.max(1));
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
    let stride = digits + 1;
    let mut line = vec![b' '; stride * width];
    let mut row = vec![0u32; *width];
    for r in 0..*height {
        if let Some(reason) = pace.step(*width) {
            return Ok(Some(Stop {
                reason,
                done: r,
                of: *height,
                unit: "rows",
            }));
        }
        line.fill(b' ');
        number.get_run(r * width, &mut row);
        for (c, &k) in row.iter().enumerate() {
            let field = &mut line[c * stride..c * stride + digits];
            // Moves print from 1, right-aligned; holes print as '#'.
            if k == none {
                field[digits - 1] = b'#';
            } else {
                // k < none, so k + 1 fits.
                decimal_into(field, k + 1);
            }
        }
        if let Some(last) = line.last_mut() {
            *last = b'\n';
        }
        w.write_all(&line)?;
    }
    Ok(None)
}
