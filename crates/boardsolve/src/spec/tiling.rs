//! What kind "tiling" reads: a board drawn or given by its sides (a box with `depth`), the
//! shapes drawn in `[[piece]]` tables and the named sets of `[pieces]`, and the rules
//! `leave` and `fill`. Pictures are read here, so that a wrong character is pointed at in
//! the file; the shapes of the named sets are the kind's to know.

use std::ops::Range;

use crate::board::Board;
use crate::board::polyform::{self, Cell, DrawingFault, Turns};

use super::board_piece::unprintable;
use super::overrides::Overrides;
use super::raw::{Located, RawBoard, RawCount, RawPieceSet, RawRules, RawShape, SquareRef};
use super::{Document, Kind, SpecError};

/// The most cells a tiling's board may have: each is an item of the exact cover.
pub const MAX_CELLS: usize = 1 << 20;
/// The most squares or cubes one shape may have.
pub const MAX_SHAPE_CELLS: usize = 4096;
/// The longest piece name: names are drawn in every cell a piece covers.
pub const MAX_NAME: usize = 8;

/// `kind = "tiling"`: shapes that cover the cells of a board (or a box) without overlap.
#[derive(Debug)]
pub struct TilingSpec {
    pub board: CellBox,
    /// The named sets of `[pieces] set`, as written; the kind knows their shapes.
    pub sets: Option<Located<Vec<String>>>,
    /// `[pieces] turns`: the turns of the set's pieces.
    pub set_turns: Option<Located<Turns>>,
    /// The `[[piece]]` tables, in the file's order.
    pub pieces: Vec<ShapeSpec>,
    /// `[rules] leave`: how many cells stay uncovered.
    pub leave: Option<Located<i64>>,
    /// `[rules] fill`: whether every cell must be covered.
    pub fill: Fill,
}

/// Whether every cell of the board must be covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Every cell (or every cell but `leave` of them).
    Exact,
    /// Cells may stay empty: the pieces are packed.
    Pack,
}

/// The cells of a board or box: `cells[(z * height + y) * width + x]` is true where a cell
/// is to be covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellBox {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub cells: Vec<bool>,
}

/// One `[[piece]]`.
#[derive(Debug)]
pub struct ShapeSpec {
    pub name: Located<String>,
    /// The squares or cubes of the shape as drawn (layer 0 for a flat one).
    pub cells: Vec<Cell>,
    /// Where the shape's picture stands, for errors about it.
    pub shape_span: Range<usize>,
    pub count: Option<Located<PieceCount>>,
    pub turns: Option<Located<Turns>>,
}

/// How many copies of a piece a solution holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceCount {
    /// Between `lo` and `hi` copies, both included.
    Between(u32, u32),
    /// As many as fit, none included.
    Any,
}

/// The most copies a count may name.
pub const MAX_COPIES: i64 = 1 << 20;

const COUNT_ACCEPTED: &str = "accepted: a whole number from 0, a range \"lo..hi\" with lo <= hi, \
     or \"any\" (as many as fit)";

impl Document {
    /// A `[[piece]]`'s `count`: a whole number, a range `"lo..hi"` or `"any"` (tilings and
    /// the mixed pieces of the chess kinds read it alike).
    pub(super) fn piece_count(
        &self,
        c: Located<RawCount>,
    ) -> Result<Located<PieceCount>, SpecError> {
        let span = c.span();
        let parsed = match c.get_ref() {
            &RawCount::Whole(k) if (0..=MAX_COPIES).contains(&k) => {
                Some(PieceCount::Between(k as u32, k as u32))
            }
            RawCount::Whole(_) => None,
            RawCount::Text(t) if t.trim() == "any" => Some(PieceCount::Any),
            RawCount::Text(t) => t.split_once("..").and_then(|(lo, hi)| {
                let lo: i64 = lo.trim().parse().ok()?;
                let hi: i64 = hi.trim().parse().ok()?;
                (0 <= lo && lo <= hi && hi <= MAX_COPIES)
                    .then_some(PieceCount::Between(lo as u32, hi as u32))
            }),
        };
        parsed
            .map(|p| Located::new(p, span.clone()))
            .ok_or_else(|| {
                let shown = match c.get_ref() {
                    RawCount::Whole(k) => k.to_string(),
                    RawCount::Text(t) => format!("{t:?}"),
                };
                self.err(
                    span,
                    "piece.count",
                    format!("{shown}; {COUNT_ACCEPTED}, at most {MAX_COPIES}"),
                )
            })
    }

    pub(super) fn read_tiling(
        &self,
        board: Option<RawBoard>,
        sets: Option<RawPieceSet>,
        shapes: Vec<RawShape>,
        rules: RawRules,
        overrides: &Overrides,
    ) -> Result<TilingSpec, SpecError> {
        self.check_rule_keys(Kind::Tiling, &rules)?;
        let board = self.read_cell_box(board.unwrap_or_default(), overrides)?;
        let mut pieces = Vec::with_capacity(shapes.len());
        for (k, raw) in shapes.into_iter().enumerate() {
            pieces.push(self.read_shape(k, raw)?);
        }
        let (sets, set_turns) = match sets {
            None => (None, None),
            Some(s) => {
                let turns = s.turns.map(|t| self.turns(t, "pieces.turns")).transpose()?;
                let set = s.set.map(|v| {
                    let span = v.span();
                    Located::new(v.into_inner().0, span)
                });
                if set.is_none() && turns.is_some() {
                    return Err(self.err_nowhere(
                        "pieces.turns",
                        "turns the pieces of a named set; give the set too (set = \
                         \"pentominoes\"), or turns in each [[piece]]"
                            .into(),
                    ));
                }
                (set, turns)
            }
        };
        if pieces.is_empty() && sets.is_none() {
            return Err(self.err_nowhere(
                "piece",
                "kind \"tiling\" needs pieces: [pieces] set = \"pentominoes\" (a named set), \
                 or [[piece]] tables with a name and a shape"
                    .into(),
            ));
        }
        let fill = match &rules.fill {
            None => Fill::Exact,
            Some(f) => match f.get_ref().as_str() {
                "exact" => Fill::Exact,
                "pack" => Fill::Pack,
                other => {
                    return Err(self.err(
                        f.span(),
                        "rules.fill",
                        format!(
                            "\"{other}\"; accepted: exact (every cell covered) or pack (cells \
                             may stay empty)"
                        ),
                    ));
                }
            },
        };
        if let Some(l) = &rules.leave {
            let n = *l.get_ref();
            let cells = board.cells.iter().filter(|&&c| c).count();
            if !(0..=cells as i64).contains(&n) {
                return Err(self.err(
                    l.span(),
                    "rules.leave",
                    format!("{n}; accepted: 0 to {cells}, the board's cells"),
                ));
            }
            if fill == Fill::Pack {
                return Err(self.err(
                    l.span(),
                    "rules.leave",
                    "give either leave (exactly that many cells empty) or fill = \"pack\" (any \
                     number empty), not both"
                        .into(),
                ));
            }
        }
        Ok(TilingSpec {
            board,
            sets,
            set_turns,
            pieces,
            leave: rules.leave,
            fill,
        })
    }

    fn turns(&self, t: Located<String>, key: &str) -> Result<Located<Turns>, SpecError> {
        let span = t.span();
        match Turns::parse(t.get_ref()) {
            Some(turns) => Ok(Located::new(turns, span)),
            None => Err(self.err(
                span,
                key,
                format!(
                    "\"{}\"; accepted: free (every turn and flip a piece can take), rotations \
                     (no mirror images), fixed (as drawn)",
                    t.get_ref()
                ),
            )),
        }
    }

    /// The byte in the document of byte `at` of a string value's text, where the value is
    /// written without escapes (a picture); else the value's start.
    pub(super) fn in_string(&self, value: &Located<String>, at: usize) -> Range<usize> {
        let span = value.span();
        let written = self.source.get(span.clone()).unwrap_or("");
        let mut open = 0;
        for quote in ["\"\"\"", "'''", "\"", "'"] {
            if written.starts_with(quote) {
                open = quote.len();
                if quote.len() == 3 {
                    if written[open..].starts_with("\r\n") {
                        open += 2;
                    } else if written[open..].starts_with('\n') {
                        open += 1;
                    }
                }
                break;
            }
        }
        let text = value.get_ref();
        if written.get(open..open + text.len()) == Some(text.as_str()) {
            let p = span.start + open + at;
            p..p + 1
        } else {
            span
        }
    }

    fn read_cell_box(&self, raw: RawBoard, overrides: &Overrides) -> Result<CellBox, SpecError> {
        let Some(picture) = &raw.picture else {
            let depth = match &raw.depth {
                None => 1,
                Some(d) => {
                    let n = *d.get_ref();
                    if !(1..=1024).contains(&n) {
                        return Err(self.err(
                            d.span(),
                            "board.depth",
                            format!("{n} is not a depth; accepted: 1 to 1024"),
                        ));
                    }
                    n as usize
                }
            };
            if depth > 1 && raw.holes.is_some() {
                return Err(self.err_nowhere(
                    "board.holes",
                    "holes name squares of a flat board; draw a box with holes as a picture \
                     (layers from the top, '#' a hole)"
                        .into(),
                ));
            }
            if let Some(l) = &raw.labels {
                return Err(self.err(
                    l.span(),
                    "board.labels",
                    "labels name the cells of a picture; draw the board (picture = ...)".into(),
                ));
            }
            let flat = RawBoard { depth: None, ..raw };
            let board = self.parse_board(Kind::Tiling, Some(flat), overrides)?;
            let cells = (board.squares() as u64) * depth as u64;
            if cells > MAX_CELLS as u64 {
                return Err(self.err_board(format!(
                    "a {}x{}x{depth} box has {cells} cells; kind \"tiling\" handles at most \
                     {MAX_CELLS}",
                    board.width, board.height
                )));
            }
            let layer = board.hole_map();
            let mut all = Vec::with_capacity(cells as usize);
            for _ in 0..depth {
                all.extend(layer.iter().map(|&hole| !hole));
            }
            return Ok(CellBox {
                width: board.width,
                height: board.height,
                depth,
                cells: all,
            });
        };
        for (v, key) in [
            (&raw.size, "board.size"),
            (&raw.width, "board.width"),
            (&raw.height, "board.height"),
            (&raw.depth, "board.depth"),
        ] {
            if let Some(v) = v {
                return Err(self.err(
                    v.span(),
                    key,
                    "give either a picture of the board or its sides, not both".into(),
                ));
            }
        }
        if let Some(flag) = self.board_flags.first() {
            return Err(self.err_nowhere(
                "board.picture",
                format!("{flag}: the board is drawn in the file; its picture sets its sides"),
            ));
        }
        let d = polyform::read_drawing(picture.get_ref())
            .map_err(|f| self.drawing_fault(picture, "board.picture", f))?;
        let cells = d.width * d.height * d.depth;
        if d.depth > 1024 {
            return Err(self.err(
                picture.span(),
                "board.picture",
                format!("{} layers; accepted: 1 to 1024", d.depth),
            ));
        }
        if cells > MAX_CELLS {
            return Err(self.err(
                picture.span(),
                "board.picture",
                format!(
                    "a {}x{}x{} box has {cells} cells; kind \"tiling\" handles at most \
                     {MAX_CELLS}",
                    d.width, d.height, d.depth
                ),
            ));
        }
        let mut b = CellBox {
            width: d.width,
            height: d.height,
            depth: d.depth,
            cells: vec![false; cells],
        };
        for &([x, y, z], ch, at) in &d.marks {
            match ch {
                '.' => b.cells[(z as usize * d.height + y as usize) * d.width + x as usize] = true,
                '#' => {}
                _ => {
                    return Err(self.err(
                        self.in_string(picture, at),
                        "board.picture",
                        format!(
                            "{ch:?}; accepted: '.' a cell to cover, '#' or a space a hole, a \
                             blank line between the layers of a box"
                        ),
                    ));
                }
            }
        }
        let labels = match &raw.labels {
            None => Vec::new(),
            Some(l) => {
                let words: Vec<&str> = l.get_ref().split_whitespace().collect();
                let cells = b.cells.iter().filter(|&&c| c).count();
                if words.len() != cells {
                    return Err(self.err(
                        l.span(),
                        "board.labels",
                        format!(
                            "{} labels for {cells} cells; accepted: one word a cell ('.' of the \
                             picture), in reading order",
                            words.len()
                        ),
                    ));
                }
                for (k, w) in words.iter().enumerate() {
                    if words[..k].contains(w) {
                        return Err(self.err(
                            l.span(),
                            "board.labels",
                            format!("\"{w}\" labels two cells; accepted: a word a cell, each once"),
                        ));
                    }
                }
                let at: Vec<usize> = (0..b.cells.len()).filter(|&i| b.cells[i]).collect();
                words.into_iter().zip(at).collect::<Vec<(&str, usize)>>()
            }
        };
        if let Some(holes) = &raw.holes {
            let unlabelled = holes.iter().find(|h| match h.get_ref() {
                SquareRef::Name(n) => !labels.iter().any(|l| l.0 == n),
                SquareRef::RowCol(..) => true,
            });
            if d.depth > 1
                && let Some(h) = unlabelled
            {
                return Err(self.err(
                    h.span(),
                    "board.holes",
                    "holes of a box are named by the labels of its cells; squares name the \
                     cells of a flat board (or draw the holes in the picture)"
                        .into(),
                ));
            }
            let board = Board::new(d.width, d.height);
            for h in holes {
                // A label names its cell before a square name does.
                let labelled = match h.get_ref() {
                    SquareRef::Name(n) => labels.iter().find(|l| l.0 == n).map(|l| l.1),
                    SquareRef::RowCol(..) => None,
                };
                let i = match labelled {
                    Some(i) => i,
                    None => {
                        let (r, c) = self.square(&board, h, "board.holes").map_err(|mut e| {
                            if !labels.is_empty() {
                                e.message = format!(
                                    "{}; or a label of the board: {}",
                                    e.message,
                                    labels.iter().map(|l| l.0).collect::<Vec<_>>().join(" ")
                                );
                            }
                            e
                        })?;
                        r * d.width + c
                    }
                };
                b.cells[i] = false;
            }
        }
        if !b.cells.iter().any(|&c| c) {
            return Err(self.err(
                picture.span(),
                "board.picture",
                "the board has no cell to cover ('.')".into(),
            ));
        }
        Ok(b)
    }

    fn drawing_fault(&self, text: &Located<String>, key: &str, f: DrawingFault) -> SpecError {
        match f {
            DrawingFault::Empty => self.err(text.span(), key, "the picture is empty".into()),
            DrawingFault::Control { at, what } => self.err(
                self.in_string(text, at),
                key,
                format!(
                    "U+{:04X} in the picture; accepted: one printable character a cell, spaces, \
                     line breaks (no tabs)",
                    u32::from(what)
                ),
            ),
        }
    }

    fn read_shape(&self, k: usize, raw: RawShape) -> Result<ShapeSpec, SpecError> {
        let chess = [
            ("moves", raw.moves.as_ref().map(|v| v.span())),
            ("leaps", raw.leaps.as_ref().map(|v| v.span())),
            ("rides", raw.rides.as_ref().map(|v| v.span())),
            ("symbol", raw.symbol.as_ref().map(|v| v.span())),
            ("given", raw.given.as_ref().map(|v| v.span())),
        ];
        if let Some((key, Some(span))) = chess.into_iter().find(|(_, s)| s.is_some()) {
            return Err(self.err(
                span,
                &format!("piece.{key}"),
                "a tiling's [[piece]] is a shape, with keys name, shape, count, turns; \
                 moves, leaps, rides, symbol and given are the keys of the pieces of kinds \
                 independent and domination"
                    .into(),
            ));
        }
        let Some(name) = raw.name else {
            let at = raw.shape.as_ref().map(|s| s.span());
            let msg = format!(
                "[[piece]] number {} has no name; accepted: up to {MAX_NAME} printable \
                 characters, no spaces, no ':'",
                k + 1
            );
            return Err(match at {
                Some(span) => self.err(span, "piece.name", msg),
                None => self.err_nowhere("piece", msg),
            });
        };
        let n = name.get_ref();
        let bad = if n.is_empty() {
            Some("the name is empty".to_string())
        } else if n.chars().count() > MAX_NAME {
            Some(format!("{n:?} is {} characters", n.chars().count()))
        } else if let Some(c) = n.chars().find(|&c| c == ':' || c == '.' || c == '#') {
            Some(format!(
                "{c:?} is taken: ':' marks colours, '.' and '#' empty cells"
            ))
        } else {
            n.chars().find_map(|c| {
                unprintable(c).map(|what| format!("U+{:04X} is {what}", u32::from(c)))
            })
        };
        if let Some(why) = bad {
            return Err(self.err(
                name.span(),
                "piece.name",
                format!(
                    "{why}; accepted: up to {MAX_NAME} printable characters, no spaces, not ':', \
                     '.' or '#'"
                ),
            ));
        }
        let Some(shape) = raw.shape else {
            return Err(self.err(
                name.span(),
                "piece.shape",
                format!(
                    "piece \"{n}\" has no shape; draw it: shape = \"\"\"\\n#.\\n##\\n\"\"\" ('#' \
                     or a letter a square, '.' or a space none, a blank line between layers)"
                ),
            ));
        };
        let d = polyform::read_drawing(shape.get_ref())
            .map_err(|f| self.drawing_fault(&shape, "piece.shape", f))?;
        if let Some(&(_, ch, at)) = d
            .marks
            .iter()
            .find(|m| m.1 != '.' && m.1 != '#' && !m.1.is_alphanumeric())
        {
            return Err(self.err(
                self.in_string(&shape, at),
                "piece.shape",
                format!(
                    "{ch:?} (U+{:04X}); accepted: '#' or a letter a square, '.' or a space none, \
                     a blank line between layers",
                    u32::from(ch)
                ),
            ));
        }
        let cells: Vec<Cell> = d.marks.iter().filter(|m| m.1 != '.').map(|m| m.0).collect();
        if cells.is_empty() {
            return Err(self.err(
                shape.span(),
                "piece.shape",
                format!("piece \"{n}\" has no square ('#')"),
            ));
        }
        if cells.len() > MAX_SHAPE_CELLS {
            return Err(self.err(
                shape.span(),
                "piece.shape",
                format!(
                    "piece \"{n}\" has {} cells; at most {MAX_SHAPE_CELLS}",
                    cells.len()
                ),
            ));
        }
        if !polyform::is_connected(&cells) {
            return Err(self.err(
                shape.span(),
                "piece.shape",
                format!(
                    "piece \"{n}\" falls apart: its squares must join side to side (cubes face \
                     to face)"
                ),
            ));
        }
        let count = raw.count.map(|c| self.piece_count(c)).transpose()?;
        let turns = raw
            .turns
            .map(|t| self.turns(t, "piece.turns"))
            .transpose()?;
        Ok(ShapeSpec {
            name,
            cells,
            shape_span: shape.span(),
            count,
            turns,
        })
    }
}
