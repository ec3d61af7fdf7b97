//! What kind "sudoku" reads: the grid's size, its regions (boxes, none for a Latin square, or
//! drawn as a jigsaw), the diagonals rule, the givens drawn as rows, and killer cages. The
//! givens are read here, so that a wrong character, or two givens that break a rule together,
//! are pointed at in the file; a puzzle line of the benchmark sets is read here too.

use crate::board::{Board, SquareError, file_name};

use super::overrides::Overrides;
use super::raw::{Located, RawBoard, RawBox, RawCage, RawRules, SquareRef};
use super::{Document, Kind, SpecError};

/// The symbols of a grid of `n`, in order: 1 to 9, then A to Z.
pub const SYMBOLS: &[u8; 35] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// The largest grid: one symbol a character.
pub const MAX_SYMBOLS: usize = SYMBOLS.len();

/// The regions that hold every symbol besides the rows and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regions {
    /// None: a Latin square.
    None,
    /// Boxes of `height` rows and `width` columns tiling the grid.
    Boxes { height: usize, width: usize },
    /// A region (0 to n - 1) for each cell, as drawn (jigsaw).
    Drawn(Vec<u8>),
}

/// `kind = "sudoku"`: a grid of n x n cells, each holding one of n symbols, every row, column
/// and region holding each symbol once.
#[derive(Clone, Debug)]
pub struct SudokuSpec {
    pub size: usize,
    pub regions: Regions,
    /// Both long diagonals hold every symbol too (X-sudoku).
    pub diagonals: bool,
    /// The symbol given in each cell (index row * size + col, rows from the top): 0 for a
    /// blank, k for the k-th symbol.
    pub givens: Vec<u8>,
    pub cages: Vec<Cage>,
}

/// A killer cage: its cells hold distinct symbols whose values (1 to n) add up to `sum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    pub sum: u32,
    pub cells: Vec<usize>,
}

impl Regions {
    /// The region of each cell of a grid of `n`, or `None` for a Latin square.
    pub fn of_cells(&self, n: usize) -> Option<Vec<u8>> {
        match self {
            Regions::None => None,
            Regions::Boxes { height, width } => Some(
                (0..n * n)
                    .map(|c| ((c / n / height) * (n / width) + (c % n) / width) as u8)
                    .collect(),
            ),
            Regions::Drawn(r) => Some(r.clone()),
        }
    }

    /// The boxes as square as `n` allows (3x3 for 9, 2x3 for 6, 3x4 for 12); none where `n`
    /// has no factor above 1 but itself (a Latin square).
    pub fn default_for(n: usize) -> Regions {
        let mut h = n.isqrt();
        while h >= 2 {
            if n.is_multiple_of(h) {
                return Regions::Boxes {
                    height: h,
                    width: n / h,
                };
            }
            h -= 1;
        }
        Regions::None
    }
}

impl SudokuSpec {
    /// The units (rows, columns, regions, diagonals) of the grid, each a list of its cells:
    /// every unit holds each symbol exactly once.
    pub fn units(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut units: Vec<Vec<usize>> = Vec::with_capacity(3 * n + 2);
        units.extend((0..n).map(|r| (0..n).map(|c| r * n + c).collect()));
        units.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        if let Some(of) = self.regions.of_cells(n) {
            let mut regions = vec![Vec::with_capacity(n); n];
            for (cell, &r) in of.iter().enumerate() {
                regions[r as usize].push(cell);
            }
            units.extend(regions);
        }
        if self.diagonals {
            units.push((0..n).map(|i| i * n + i).collect());
            units.push((0..n).map(|i| i * n + (n - 1 - i)).collect());
        }
        units
    }

    /// Two givens that break a rule together (the same symbol twice in a unit): the cells,
    /// in reading order.
    pub fn clashing_givens(&self, givens: &[u8]) -> Option<(usize, usize)> {
        clash_in(&self.units(), givens)
    }

    /// A sudoku of the same rules with other givens: a puzzle line of many.
    pub fn with_givens(&self, givens: Vec<u8>) -> SudokuSpec {
        SudokuSpec {
            givens,
            ..self.clone()
        }
    }
}

/// Two givens that hold one symbol in one of `units` (as [`SudokuSpec::units`] gives them):
/// the pair whose later cell comes first in reading order. For many puzzles of one grid, the
/// units are made once.
pub fn clash_in(units: &[Vec<usize>], givens: &[u8]) -> Option<(usize, usize)> {
    let mut worst: Option<(usize, usize)> = None;
    let mut seen = [usize::MAX; MAX_SYMBOLS + 1];
    for unit in units {
        for &cell in unit {
            let g = givens[cell] as usize;
            if g == 0 {
                continue;
            }
            if seen[g] != usize::MAX {
                let pair = (seen[g].min(cell), seen[g].max(cell));
                if worst.is_none_or(|w| (pair.1, pair.0) < (w.1, w.0)) {
                    worst = Some(pair);
                }
            } else {
                seen[g] = cell;
            }
        }
        for &cell in unit {
            seen[givens[cell] as usize] = usize::MAX;
        }
    }
    worst
}

/// A cell's name in the sudoku notation: r1c1 is the top-left cell, rows from the top.
pub fn cell_name(n: usize, cell: usize) -> String {
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

/// Why a line of a puzzle file is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineFault {
    /// Its length is not the square of a size from 1 to 35, or not the size asked for.
    Length {
        found: usize,
        expected: Option<usize>,
    },
    /// A character that is no symbol of the grid and no blank.
    Character { at: usize, found: char, size: usize },
    /// Two givens break a rule together: they hold `symbol` (from 1).
    Clash {
        size: usize,
        cells: (usize, usize),
        symbol: u8,
    },
}

/// One puzzle of a file with a puzzle a line (the benchmark sets' format): n x n characters,
/// '.' or '0' a blank, anything after the puzzle's characters separated by a space or a
/// tab ignored (a comment, a rating). Its size and givens; where `size` is given, the line
/// must be of that size.
pub fn read_line(line: &str, size: Option<usize>) -> Result<(usize, Vec<u8>), LineFault> {
    let text = line
        .trim_start_matches('\u{feff}')
        .split([' ', '\t', ';', ','])
        .next()
        .unwrap_or("")
        .trim_end_matches('\r');
    let len = text.chars().count();
    let n = len.isqrt();
    if n * n != len || n == 0 || n > MAX_SYMBOLS || size.is_some_and(|s| s != n) {
        return Err(LineFault::Length {
            found: len,
            expected: size.map(|s| s * s),
        });
    }
    let mut givens = Vec::with_capacity(len);
    for (at, ch) in text.chars().enumerate() {
        givens.push(symbol_of(ch, n).ok_or(LineFault::Character {
            at,
            found: ch,
            size: n,
        })?);
    }
    Ok((n, givens))
}

/// The given a character stands for in a grid of `n`: 0 for a blank.
fn symbol_of(ch: char, n: usize) -> Option<u8> {
    if ch == '.' || ch == '0' {
        return Some(0);
    }
    let up = ch.to_ascii_uppercase() as u32;
    SYMBOLS[..n]
        .iter()
        .position(|&s| s as u32 == up)
        .map(|k| k as u8 + 1)
}

impl Document {
    pub(super) fn read_sudoku(
        &self,
        board: Option<RawBoard>,
        rules: RawRules,
        overrides: &Overrides,
    ) -> Result<SudokuSpec, SpecError> {
        self.check_rule_keys(Kind::Sudoku, &rules)?;
        let board = board.unwrap_or_default();
        for (v, key) in [
            (board.width.as_ref().map(|v| v.span()), "board.width"),
            (board.height.as_ref().map(|v| v.span()), "board.height"),
            (board.depth.as_ref().map(|v| v.span()), "board.depth"),
            (board.picture.as_ref().map(|v| v.span()), "board.picture"),
            (board.labels.as_ref().map(|v| v.span()), "board.labels"),
            (
                board
                    .holes
                    .as_ref()
                    .and_then(|h| h.first())
                    .map(|v| v.span()),
                "board.holes",
            ),
        ] {
            if let Some(span) = v {
                return Err(self.err(
                    span,
                    key,
                    "kind \"sudoku\" reads size, box, regions and diagonals in [board]".into(),
                ));
            }
        }
        if overrides.width.is_some() || overrides.height.is_some() {
            return Err(self.err_nowhere(
                "board.size",
                "--width and --height: a sudoku's grid is square; give --size".into(),
            ));
        }
        let givens_rows = rules
            .givens
            .as_ref()
            .map(|g| self.grid_rows(g, "rules.givens"))
            .transpose()?;
        let regions_rows = board
            .regions
            .as_ref()
            .map(|g| self.grid_rows(g, "board.regions"))
            .transpose()?;
        let size = match (overrides.size, &board.size) {
            (Some(n), _) => Some((n as i64, None)),
            (None, Some(s)) => Some((*s.get_ref(), Some(s.span()))),
            (None, None) => None,
        };
        let size_from = match size {
            Some((n, Some(_))) => format!("size = {n}"),
            Some((n, None)) => format!("--size {n}"),
            None => String::new(),
        };
        let (size, size_from) = match size {
            Some((n, span)) => {
                if !(1..=MAX_SYMBOLS as i64).contains(&n) {
                    let msg = format!(
                        "{n} is not a sudoku's size; accepted: 1 to {MAX_SYMBOLS} (symbols 1 to \
                         9, then A to Z)"
                    );
                    return Err(match span {
                        Some(span) => self.err(span, "board.size", msg),
                        None => self.err_board(msg),
                    });
                }
                (n as usize, size_from)
            }
            None => match (
                &givens_rows,
                &regions_rows,
                board.boxes.as_ref().map(|b| b.get_ref()),
            ) {
                (_, _, Some(RawBox::Sides(s)))
                    if s.len() == 2
                        && s[0]
                            .checked_mul(s[1])
                            .is_some_and(|p| (1..=MAX_SYMBOLS as i64).contains(&p)) =>
                {
                    (
                        (s[0] * s[1]) as usize,
                        format!("box = [{}, {}], no size given", s[0], s[1]),
                    )
                }
                (Some(rows), _, _) | (None, Some(rows), _) => {
                    let n = rows.grid_size();
                    let drawn = if rows.one_line {
                        format!("one line of {} characters", n * n)
                    } else {
                        format!("{n} rows drawn")
                    };
                    (n, format!("from the {drawn}, no size given"))
                }
                // A box gives the size only where its product is one; else it is the box
                // that is wrong, not a size that is missing.
                (None, None, Some(RawBox::Sides(s))) => {
                    let b = board.boxes.as_ref().expect("a box");
                    let why = match s[..] {
                        [h, w] if h >= 1 && w >= 1 => format!(
                            "box = [{h}, {w}] makes a {n}x{n} grid, and a sudoku takes at most \
                             {MAX_SYMBOLS} symbols (1 to 9, then A to Z)",
                            n = i128::from(h) * i128::from(w)
                        ),
                        _ => format!("{s:?} is not a box's [height, width]"),
                    };
                    return Err(self.err(
                        b.span(),
                        "board.box",
                        format!(
                            "{why}; accepted: [height, width], each 1 or more, their product the \
                             grid's size, 1 to {MAX_SYMBOLS} (e.g. [3, 3] for 9x9, [5, 7] for \
                             35x35)"
                        ),
                    ));
                }
                (None, None, _) => {
                    return Err(self.err_nowhere(
                        "board.size",
                        "a sudoku needs its size: board.size = 9, a box, or givens drawn as rows"
                            .into(),
                    ));
                }
            },
        };
        let regions = self.read_regions(&board, regions_rows.as_ref(), size, &size_from)?;
        let mut spec = SudokuSpec {
            size,
            regions,
            diagonals: board.diagonals.as_ref().is_some_and(|d| *d.get_ref()),
            givens: vec![0; size * size],
            cages: Vec::new(),
        };
        if let (Some(rows), Some(text)) = (&givens_rows, &rules.givens) {
            let cells = rows.cells(self, text, "rules.givens", size, &size_from)?;
            for (cell, &(ch, at)) in cells.iter().enumerate() {
                spec.givens[cell] = symbol_of(ch, size).ok_or_else(|| {
                    self.err(
                        self.in_string(text, at),
                        "rules.givens",
                        format!(
                            "{ch:?} is no symbol of a {size}x{size} sudoku; accepted: {}, and \
                             '.' or '0' for a blank",
                            symbols_accepted(size)
                        ),
                    )
                })?;
            }
            if let Some((a, b)) = spec.clashing_givens(&spec.givens) {
                let g = SYMBOLS[spec.givens[b] as usize - 1] as char;
                return Err(self.err(
                    self.in_string(text, cells[b].1),
                    "rules.givens",
                    format!(
                        "the givens {} and {} are both {g} in one row, column{}; no grid \
                         completes them",
                        cell_name(size, a),
                        cell_name(size, b),
                        match (&spec.regions, spec.diagonals) {
                            (Regions::None, false) => "",
                            (Regions::None, true) => " or diagonal",
                            (_, false) => " or region",
                            (_, true) => ", region or diagonal",
                        }
                    ),
                ));
            }
        }
        if let Some(cages) = &rules.cages {
            spec.cages = self.read_cages(cages.get_ref(), size)?;
        }
        Ok(spec)
    }

    fn read_regions(
        &self,
        board: &RawBoard,
        drawn: Option<&GridRows>,
        n: usize,
        size_from: &str,
    ) -> Result<Regions, SpecError> {
        if let (Some(b), Some(_)) = (&board.boxes, drawn) {
            return Err(self.err(
                b.span(),
                "board.box",
                "give either boxes or regions: regions draw a jigsaw's own".into(),
            ));
        }
        if let (Some(rows), Some(text)) = (drawn, &board.regions) {
            let cells = rows.cells(self, text, "board.regions", n, size_from)?;
            let mut labels: Vec<char> = Vec::new();
            let mut of = Vec::with_capacity(n * n);
            let mut sizes = Vec::new();
            for &(ch, at) in &cells {
                let k = match labels.iter().position(|&l| l == ch) {
                    Some(k) => k,
                    None => {
                        if labels.len() == n {
                            return Err(self.err(
                                self.in_string(text, at),
                                "board.regions",
                                format!(
                                    "{ch:?} names a region beyond the {n} a {n}x{n} grid holds"
                                ),
                            ));
                        }
                        labels.push(ch);
                        sizes.push(0usize);
                        labels.len() - 1
                    }
                };
                sizes[k] += 1;
                of.push(k as u8);
            }
            if let Some(k) = sizes.iter().position(|&s| s != n) {
                return Err(self.err(
                    text.span(),
                    "board.regions",
                    format!(
                        "region {:?} has {} cells; each of the {n} regions needs {n}",
                        labels[k], sizes[k]
                    ),
                ));
            }
            if labels.len() < n {
                return Err(self.err(
                    text.span(),
                    "board.regions",
                    format!(
                        "{} regions are drawn; a {n}x{n} grid needs {n}",
                        labels.len()
                    ),
                ));
            }
            return Ok(Regions::Drawn(of));
        }
        let Some(b) = &board.boxes else {
            return Ok(Regions::default_for(n));
        };
        match b.get_ref() {
            RawBox::Word(w) if w == "none" => Ok(Regions::None),
            RawBox::Sides(s)
                if s.len() == 2
                    && s[0] >= 1
                    && s[1] >= 1
                    && s[0].checked_mul(s[1]) == Some(n as i64) =>
            {
                Ok(Regions::Boxes {
                    height: s[0] as usize,
                    width: s[1] as usize,
                })
            }
            _ => Err(self.err(
                b.span(),
                "board.box",
                format!(
                    "accepted: [height, width] of a box, their product the size {n} (as [{}]), \
                     or \"none\" for a Latin square",
                    match Regions::default_for(n) {
                        Regions::Boxes { height, width } => format!("{height}, {width}"),
                        _ => format!("1, {n}"),
                    }
                ),
            )),
        }
    }

    fn read_cages(&self, raw: &[Located<RawCage>], n: usize) -> Result<Vec<Cage>, SpecError> {
        let board = Board::new(n, n);
        let mut owner: Vec<Option<usize>> = vec![None; n * n];
        let mut cages = Vec::with_capacity(raw.len());
        for (k, c) in raw.iter().enumerate() {
            let c = c.get_ref();
            let cells_raw = c.cells.get_ref();
            if cells_raw.is_empty() || cells_raw.len() > n {
                return Err(self.err(
                    c.cells.span(),
                    "rules.cages",
                    format!(
                        "a cage of {} cells; accepted: 1 to {n}, as its symbols differ",
                        cells_raw.len()
                    ),
                ));
            }
            let mut cells = Vec::with_capacity(cells_raw.len());
            for sq in cells_raw {
                let cell = self.sudoku_cell(&board, sq)?;
                if let Some(other) = owner[cell] {
                    return Err(self.err(
                        sq.span(),
                        "rules.cages",
                        if other == k {
                            format!("{} is named twice in one cage", cell_name(n, cell))
                        } else {
                            format!(
                                "{} is in cage {} and cage {}; a cell is in one cage at most",
                                cell_name(n, cell),
                                other + 1,
                                k + 1
                            )
                        },
                    ));
                }
                owner[cell] = Some(k);
                cells.push(cell);
            }
            let len = cells.len() as i64;
            let (lo, hi) = (len * (len + 1) / 2, len * (2 * n as i64 - len + 1) / 2);
            let sum = *c.sum.get_ref();
            if !(lo..=hi).contains(&sum) {
                return Err(self.err(
                    c.sum.span(),
                    "rules.cages",
                    if len == 1 {
                        format!("1 symbol of 1 to {n} is {lo} to {hi}, not {sum}")
                    } else {
                        format!(
                            "{len} distinct symbols of 1 to {n} add up to {lo} to {hi}, not {sum}"
                        )
                    },
                ));
            }
            cages.push(Cage {
                sum: sum as u32,
                cells,
            });
        }
        Ok(cages)
    }

    /// A cell of a sudoku: "r1c1" (rows from the top, as sudoku solvers write them; "R1C1"
    /// too), "a1" (a chessboard's name, rank 1 at the bottom) or [row, col] from 0 at the
    /// top-left. A name is written as it is shown, without spaces or leading zeros, so that
    /// one cell has one name.
    fn sudoku_cell(&self, board: &Board, sq: &Located<SquareRef>) -> Result<usize, SpecError> {
        let n = board.width;
        let SquareRef::Name(name) = sq.get_ref() else {
            let (r, c) = self.square(board, sq, "rules.cages")?;
            return Ok(r * n + c);
        };
        let refuse = |why: &str| {
            self.err(
                sq.span(),
                "rules.cages",
                format!("{name:?} {why}; accepted: {}", cell_forms(n)),
            )
        };
        if let Some((r, c)) = row_col_digits(name) {
            if [r, c].iter().any(|d| d.len() > 1 && d.starts_with('0')) {
                return Err(refuse("has a leading zero"));
            }
            return match (r.parse::<usize>(), c.parse::<usize>()) {
                (Ok(r), Ok(c)) if (1..=n).contains(&r) && (1..=n).contains(&c) => {
                    Ok((r - 1) * n + c - 1)
                }
                _ => Err(refuse(&format!("is off the {n}x{n} grid"))),
            };
        }
        match board.parse_square(name) {
            Ok((r, c)) => Ok(r * n + c),
            Err(SquareError::LeadingZero(_)) => Err(refuse("has a leading zero")),
            Err(SquareError::NotAName(_)) if name.trim() != name => {
                Err(refuse("has spaces around it"))
            }
            Err(SquareError::NotAName(_)) => Err(refuse("is not a cell name")),
            Err(
                SquareError::OffBoard { .. }
                | SquareError::FileTooLarge(_)
                | SquareError::RankTooLarge(_),
            ) => Err(refuse(&format!("is off the {n}x{n} grid"))),
        }
    }

    /// A grid drawn as rows in a string: its rows of characters, blanks and rulings dropped.
    fn grid_rows(&self, text: &Located<String>, key: &str) -> Result<GridRows, SpecError> {
        let mut rows: Vec<Vec<(char, usize)>> = Vec::new();
        let mut at = 0;
        for line in text.get_ref().split_inclusive('\n') {
            let mut row = Vec::new();
            for (i, ch) in line.char_indices() {
                if !matches!(ch, ' ' | '\t' | '|' | '\n' | '\r') {
                    row.push((ch, at + i));
                }
            }
            at += line.len();
            // A ruling between bands of boxes ("------+-------") is no row.
            if !row.is_empty() && !row.iter().all(|&(ch, _)| matches!(ch, '-' | '+' | '=')) {
                rows.push(row);
            }
            // Read no further than a grid can be: a huge string is refused, not held.
            if rows.len() > MAX_SYMBOLS || rows.iter().any(|r| r.len() > MAX_SYMBOLS * MAX_SYMBOLS)
            {
                return Err(self.err(
                    text.span(),
                    key,
                    format!(
                        "more than {MAX_SYMBOLS} rows of {MAX_SYMBOLS} cells (or one line of {}); \
                         a sudoku has at most {MAX_SYMBOLS} symbols (1 to 9, then A to Z)",
                        MAX_SYMBOLS * MAX_SYMBOLS
                    ),
                ));
            }
        }
        if rows.is_empty() {
            return Err(self.err(text.span(), key, "draws no cell".into()));
        }
        let mut one_line = false;
        // One line of n x n characters: the benchmark sets' form.
        if rows.len() == 1 {
            let len = rows[0].len();
            let n = len.isqrt();
            if n > 1 && n * n == len {
                let line = rows.pop().unwrap_or_default();
                rows = line.chunks(n).map(|c| c.to_vec()).collect();
                one_line = true;
            } else if len > 1 {
                return Err(self.err(
                    text.span(),
                    key,
                    format!(
                        "one line of {len} cells; a grid on one line has n x n cells (the \
                         squares 4, 9, 16, 25, 36, 49, 64, 81, ...: {} or {} near this one), \
                         or write it as n rows",
                        n * n,
                        (n + 1) * (n + 1)
                    ),
                ));
            }
        }
        if rows.len() > MAX_SYMBOLS {
            return Err(self.err(
                text.span(),
                key,
                format!(
                    "{} rows; a sudoku has at most {MAX_SYMBOLS} (symbols 1 to 9, then A to Z)",
                    rows.len()
                ),
            ));
        }
        Ok(GridRows { rows, one_line })
    }
}

/// A grid's rows as drawn: each character with its byte in the string.
pub(super) struct GridRows {
    rows: Vec<Vec<(char, usize)>>,
    /// Written as one line of n x n characters, cut into its rows.
    one_line: bool,
}

impl GridRows {
    fn grid_size(&self) -> usize {
        self.rows.len()
    }

    /// The cells in reading order, checked to be `n` rows of `n`; `from` says where the size
    /// came from ("size = 4", "--size 4", "box = [2, 3]", "the 2 rows drawn").
    fn cells(
        &self,
        doc: &Document,
        text: &Located<String>,
        key: &str,
        n: usize,
        from: &str,
    ) -> Result<Vec<(char, usize)>, SpecError> {
        let drawn = self.rows.len();
        if drawn != n {
            let msg = if self.one_line {
                format!(
                    "one line of {} characters; the grid is {n}x{n} ({from}): {} cells, on one \
                     line or as {n} rows of {n}",
                    drawn * drawn,
                    n * n
                )
            } else {
                format!(
                    "{drawn} rows are drawn; the grid is {n}x{n} ({from}): {n} rows of {n}, or \
                     one line of {} characters",
                    n * n
                )
            };
            return Err(doc.err(text.span(), key, msg));
        }
        if let Some((r, row)) = self.rows.iter().enumerate().find(|(_, row)| row.len() != n) {
            let at = row.first().map_or(0, |&(_, at)| at);
            return Err(doc.err(
                doc.in_string(text, at),
                key,
                format!(
                    "row {} has {} cells; the grid is {n}x{n} ({from}), so a row has {n} \
                     (spaces and '|' are ignored)",
                    r + 1,
                    row.len()
                ),
            ));
        }
        Ok(self.rows.concat())
    }
}

/// The row's and the column's digits of a name in the r1c1 form ("r", digits, "c",
/// digits, either letter in either case); `None` for any other name.
fn row_col_digits(name: &str) -> Option<(&str, &str)> {
    let (r, c) = name.strip_prefix(['r', 'R'])?.split_once(['c', 'C'])?;
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    (digits(r) && digits(c)).then_some((r, c))
}

/// The names a cell of an n x n sudoku is written by, for errors.
fn cell_forms(n: usize) -> String {
    format!(
        "r1c1 to r{n}c{n} (row and column from 1 at the top-left), a1 to {}{n} (a \
         chessboard's name, rank 1 at the bottom) or [row, col] from 0 at the top-left, \
         names without spaces or leading zeros",
        file_name(n - 1)
    )
}

fn symbols_accepted(n: usize) -> String {
    let s = |k: usize| SYMBOLS[k] as char;
    match n {
        1 => "1".into(),
        2..=9 => format!("1 to {}", s(n - 1)),
        _ => format!("1 to 9, A to {}", s(n - 1)),
    }
}
