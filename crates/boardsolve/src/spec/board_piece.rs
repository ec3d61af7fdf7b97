//! The `[board]` and `[piece]` tables read into a [`Board`] and a [`PieceSpec`]: sides and
//! holes checked against the format's and the kind's limits, squares resolved on the board,
//! pieces from Betza notation or from leap and ride vectors.

use crate::board::Board;
use crate::board::betza::{self, Piece};

use super::overrides::Overrides;
use super::raw::{Located, RawBoard, RawPiece, SquareRef};
use super::{Document, Kind, MAX_SQUARES, PieceSpec, SpecError};

const SYMBOL_ACCEPTED: &str = "accepted: one printable character, not a space, not '.', not a \
     control character and not an invisible formatting one (bidirectional marks, zero-width \
     spaces)";

/// What makes `c` no symbol for a board drawn as text or SVG: a control character (which
/// XML forbids and a terminal acts on), a space, or an invisible formatting character that
/// reorders or hides the text around it (bidirectional controls, zero-width characters).
pub(super) fn unprintable(c: char) -> Option<&'static str> {
    match c {
        _ if c.is_control() => Some("a control character"),
        _ if c.is_whitespace() => Some("a space"),
        '\u{200E}'
        | '\u{200F}'
        | '\u{061C}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => Some("a bidirectional formatting character"),
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' => {
            Some("an invisible formatting character")
        }
        '\u{FFF9}'..='\u{FFFB}' | '\u{FFFE}' | '\u{FFFF}' => Some("not a character for text"),
        _ => None,
    }
}

impl Document {
    pub(super) fn parse_board(
        &self,
        kind: Kind,
        raw: Option<RawBoard>,
        overrides: &Overrides,
    ) -> Result<Board, SpecError> {
        let raw = raw.unwrap_or_default();
        let max_side = kind.max_side();
        let side = |v: &Option<Located<i64>>, key: &str| -> Result<Option<usize>, SpecError> {
            match v {
                None => Ok(None),
                Some(s) => {
                    let n = *s.get_ref();
                    if !(1..=max_side as i64).contains(&n) {
                        return Err(self.err(
                            s.span(),
                            key,
                            format!("{n} is not a board side; accepted: 1 to {max_side}"),
                        ));
                    }
                    Ok(Some(n as usize))
                }
            }
        };
        let size = side(&raw.size, "board.size")?;
        let width = side(&raw.width, "board.width")?;
        let height = side(&raw.height, "board.height")?;
        if size.is_some() && (width.is_some() || height.is_some()) {
            let s = raw.size.as_ref().map(|s| s.span()).unwrap_or(0..0);
            return Err(self.err(
                s,
                "board.size",
                "give either size (n x n) or width and height, not both".into(),
            ));
        }
        for (v, key) in [
            (overrides.size, "--size"),
            (overrides.width, "--width"),
            (overrides.height, "--height"),
        ] {
            if let Some(n) = v
                && !(1..=max_side).contains(&n)
            {
                return Err(self.err_nowhere(
                    key,
                    format!("{n} is not a board side; accepted: 1 to {max_side}"),
                ));
            }
        }
        let (mut w, mut h) = match (size, width, height) {
            (Some(n), _, _) => (Some(n), Some(n)),
            (None, w, h) => (w, h),
        };
        if let Some(n) = overrides.size {
            (w, h) = (Some(n), Some(n));
        }
        if let Some(n) = overrides.width {
            w = Some(n);
        }
        if let Some(n) = overrides.height {
            h = Some(n);
        }
        let (w, h) = match (w, h) {
            (Some(w), Some(h)) => (w, h),
            _ => {
                return Err(self.err_nowhere(
                    "board",
                    "the board needs `size = n` or both `width` and `height` (or --size)".into(),
                ));
            }
        };
        let squares = w as u64 * h as u64;
        let max = kind.max_squares();
        if squares > MAX_SQUARES as u64 && max == MAX_SQUARES {
            return Err(self.err_board(format!(
                "a {w}x{h} board is too large; at most 10^9 squares"
            )));
        }
        if squares > max as u64 {
            return Err(self.err_board(format!(
                "a {w}x{h} board has {squares} squares; kind \"{}\" handles at most {max}",
                kind.name()
            )));
        }
        let mut board = Board::new(w, h);
        let holes = raw.holes.unwrap_or_default();
        if !holes.is_empty() && squares > MAX_SQUARES as u64 {
            // A map of holes takes a bit a square: 10^14 squares would be terabytes.
            return Err(self.err_nowhere(
                "board.holes",
                format!(
                    "a {w}x{h} board has {squares} squares; holes are accepted on boards of \
                     at most 10^9"
                ),
            ));
        }
        for hole in &holes {
            let (r, c) = self.square(&board, hole, "board.holes")?;
            let sq = board.index(r, c);
            board.try_set_hole(sq).map_err(|bytes| {
                self.err_nowhere(
                    "board.holes",
                    format!(
                        "the map of holes of a {w}x{h} board takes {} MiB, which the system \
                         did not give",
                        bytes.div_ceil(1 << 20)
                    ),
                )
            })?;
        }
        // Without holes no pass over the board (10^9 squares take a second).
        if !holes.is_empty() && board.cell_count() == 0 {
            return Err(self.err_nowhere("board.holes", "the holes cover the whole board".into()));
        }
        Ok(board)
    }

    pub(super) fn square(
        &self,
        board: &Board,
        sq: &Located<SquareRef>,
        key: &str,
    ) -> Result<(usize, usize), SpecError> {
        match sq.get_ref() {
            SquareRef::Name(name) => board
                .parse_square(name)
                .map_err(|m| self.err(sq.span(), key, m.to_string())),
            &SquareRef::RowCol(r, c) => {
                if r < 0 || c < 0 || r as usize >= board.height || c as usize >= board.width {
                    Err(self.err(
                        sq.span(),
                        key,
                        format!(
                            "[{r}, {c}] is off the {}x{} board; accepted: [row, col] with row \
                             0..{} and col 0..{} from the top-left",
                            board.width,
                            board.height,
                            board.height - 1,
                            board.width - 1
                        ),
                    ))
                } else {
                    Ok((r as usize, c as usize))
                }
            }
        }
    }

    /// Kind "lines" takes no [piece]: stones do not move, and a piece would be silently
    /// meaningless.
    pub(super) fn refuse_stone_piece(&self, raw: Option<RawPiece>) -> Result<(), SpecError> {
        let Some(p) = raw else { return Ok(()) };
        let span = [&p.moves, &p.symbol]
            .into_iter()
            .flatten()
            .map(|v| v.span())
            .chain(p.leaps.iter().chain(&p.rides).map(|v| v.span()))
            .next();
        let msg = "kind \"lines\" places stones, not pieces, and takes no [piece]; \
                   its rules are colors, per_color and max_per_line"
            .to_string();
        Err(match span {
            Some(span) => self.err(span, "piece", msg),
            None => self.err_nowhere("piece", msg),
        })
    }

    /// The piece of a kind that moves one.
    pub(super) fn parse_piece(
        &self,
        kind: Kind,
        raw: Option<RawPiece>,
    ) -> Result<PieceSpec, SpecError> {
        let Some(raw) = raw else {
            if kind == Kind::Tour {
                // The knight is the tour kind's default piece.
                let piece = Piece::parse("N").expect("N is a valid piece");
                return Ok(PieceSpec {
                    piece,
                    symbol: 'N',
                    moves: Some("N".into()),
                });
            }
            return Err(self.err_nowhere(
                "piece",
                format!(
                    "kind \"{}\" needs a [piece] with `moves` in Betza notation; accepted: {}",
                    kind.name(),
                    betza::ACCEPTED
                ),
            ));
        };
        let piece = match (&raw.moves, &raw.leaps, &raw.rides) {
            (Some(m), None, None) => Piece::parse(m.get_ref()).map_err(|e| {
                let span = m.span();
                // Point at the offending character inside the string (after the quote).
                let at = span.start + 1 + e.at;
                self.err(at..at + 1, "piece.moves", e.fault.to_string())
            })?,
            (None, l, r) if l.is_some() || r.is_some() => {
                let vecs = |v: &Option<Located<Vec<[i64; 2]>>>,
                            key: &str|
                 -> Result<Vec<(i32, i32)>, SpecError> {
                    let Some(v) = v else { return Ok(Vec::new()) };
                    v.get_ref()
                        .iter()
                        .map(|&[a, b]| {
                            // A range, not `abs`: i64::MIN has no absolute value (it
                            // wraps to itself, which would pass).
                            let inside = |x: i64| (-64..=64).contains(&x);
                            if !inside(a) || !inside(b) {
                                Err(self.err(
                                    v.span(),
                                    key,
                                    format!("[{a}, {b}]: vectors are limited to -64..64"),
                                ))
                            } else {
                                Ok((a as i32, b as i32))
                            }
                        })
                        .collect()
                };
                let leaps = vecs(l, "piece.leaps")?;
                let rides = vecs(r, "piece.rides")?;
                Piece::from_vectors(&leaps, &rides).map_err(|m| {
                    let span = l.as_ref().or(r.as_ref()).map(|s| s.span()).unwrap_or(0..0);
                    self.err(span, "piece", m.to_string())
                })?
            }
            (None, _, _) => {
                return Err(self.err_nowhere(
                    "piece.moves",
                    format!("missing; accepted: {}", betza::ACCEPTED),
                ));
            }
            (Some(m), _, _) => {
                return Err(self.err(
                    m.span(),
                    "piece.moves",
                    "give either `moves` or `leaps`/`rides`, not both".into(),
                ));
            }
        };
        if piece.directions().is_empty() {
            return Err(self.err_nowhere("piece", "the piece has no moves".into()));
        }
        let symbol = match &raw.symbol {
            None => piece.default_symbol(),
            Some(s) => {
                let text = s.get_ref();
                let mut chars = text.chars();
                let symbol = match (chars.next(), chars.next()) {
                    (None, _) => Err("the symbol is empty".to_string()),
                    (Some(_), Some(_)) => {
                        Err(format!("{text:?} is {} characters", text.chars().count()))
                    }
                    (Some('.'), None) => Err("'.' marks an empty square".into()),
                    (Some(c), None) => match unprintable(c) {
                        None => Ok(c),
                        Some(what) => Err(format!("U+{:04X} is {what}", u32::from(c))),
                    },
                };
                symbol.map_err(|why| {
                    self.err(
                        s.span(),
                        "piece.symbol",
                        format!("{why}; {SYMBOL_ACCEPTED}"),
                    )
                })?
            }
        };
        let moves = raw.moves.as_ref().map(|m| m.get_ref().trim().to_string());
        Ok(PieceSpec {
            piece,
            symbol,
            moves,
        })
    }
}
