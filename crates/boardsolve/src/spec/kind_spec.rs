//! What each kind reads of a puzzle file beyond the shared board, title and `[solve]`: its
//! piece and its `[rules]` keys, each with where it stands in the file. One type a kind, so a
//! kind's compiler sees its own keys alone, and a kind that moves a piece always has one.

use super::knuth::ExactCover;
use super::raw::{
    Located, Multiplicity, Names, RawPiece, RawPieces, RawRules, RawShape, SquareRef,
};
use super::{Document, Kind, PieceCount, PieceSpec, SpecError};

/// A puzzle's kind with what that kind reads of the file.
#[derive(Debug)]
pub enum KindSpec {
    Independent(IndependentSpec),
    Domination(DominationSpec),
    Tour(TourSpec),
    Lines(LinesSpec),
    Cover(CoverSpec),
    Tiling(super::TilingSpec),
    Sudoku(super::SudokuSpec),
}

/// `kind = "independent"`: pieces placed so that none attacks another.
#[derive(Debug)]
pub struct IndependentSpec {
    pub army: Army,
    /// How many pieces to place, givens included (one `[piece]` only); the kind's compiler
    /// says what its absence means.
    pub count: Option<Located<i64>>,
}

/// `kind = "domination"`: pieces that attack or occupy every square.
#[derive(Debug)]
pub struct DominationSpec {
    pub army: Army,
    /// The pieces may not attack each other.
    pub independent: Option<Located<bool>>,
}

/// Squares as written in a `given` list: pieces that stand before the search.
pub type Givens = Option<Located<Vec<Located<SquareRef>>>>;

/// The pieces of kinds independent and domination: one `[piece]` with the `[rules] given`
/// squares it stands on, or several `[[piece]]` tables, each with its count and givens.
#[derive(Debug)]
pub enum Army {
    One { piece: PieceSpec, given: Givens },
    Mixed(Vec<TroopSpec>),
}

/// One `[[piece]]` of a mixed army.
#[derive(Debug)]
pub struct TroopSpec {
    pub piece: PieceSpec,
    /// How many of it stand in a solution, its givens included.
    pub count: Located<PieceCount>,
    pub given: Givens,
}

impl Army {
    /// The one piece of a one-piece army.
    pub fn one(&self) -> Option<&PieceSpec> {
        match self {
            Army::One { piece, .. } => Some(piece),
            Army::Mixed(_) => None,
        }
    }
}

/// `kind = "tour"`: a path of the piece through every square; the piece is the knight unless
/// the file says otherwise.
#[derive(Debug)]
pub struct TourSpec {
    pub piece: PieceSpec,
    pub closed: Option<Located<bool>>,
    pub start: Option<Located<SquareRef>>,
}

/// `kind = "lines"`: stones of several colours, no piece.
#[derive(Debug)]
pub struct LinesSpec {
    pub colors: Option<Located<Names>>,
    pub per_color: Option<Located<i64>>,
    pub max_per_line: Option<Located<i64>>,
}

/// `kind = "cover"`: an exact cover, written as TOML lists or in Knuth's format.
#[derive(Debug)]
pub enum CoverSpec {
    /// The `[rules]` lists of a TOML file, as written: the kind's compiler checks the names.
    Lists(CoverLists),
    /// A file in Knuth's format: the problem, built and checked as it was read.
    Knuth(ExactCover),
}

/// The cover kind's `[rules]` keys.
#[derive(Debug)]
pub struct CoverLists {
    pub items: Option<Located<Names>>,
    pub secondary: Option<Located<Names>>,
    pub options: Option<Located<Vec<Located<Names>>>>,
    pub multiplicity: Option<Located<Multiplicity>>,
}

impl KindSpec {
    pub fn kind(&self) -> Kind {
        match self {
            KindSpec::Independent(_) => Kind::Independent,
            KindSpec::Domination(_) => Kind::Domination,
            KindSpec::Tour(_) => Kind::Tour,
            KindSpec::Lines(_) => Kind::Lines,
            KindSpec::Cover(_) => Kind::Cover,
            KindSpec::Tiling(_) => Kind::Tiling,
            KindSpec::Sudoku(_) => Kind::Sudoku,
        }
    }

    /// The piece of the kinds that move one.
    pub fn piece(&self) -> Option<&PieceSpec> {
        match self {
            KindSpec::Independent(s) => s.army.one(),
            KindSpec::Domination(s) => s.army.one(),
            KindSpec::Tour(s) => Some(&s.piece),
            KindSpec::Lines(_) | KindSpec::Cover(_) | KindSpec::Tiling(_) | KindSpec::Sudoku(_) => {
                None
            }
        }
    }

    /// What kind `kind` reads of the file: its piece (read, or refused where the kind takes
    /// none) and its `[rules]` keys, those of other kinds refused. The piece is read first: a
    /// file wrong in both is told about its piece.
    pub(super) fn read(
        doc: &Document,
        kind: Kind,
        pieces: Option<RawPieces>,
        rules: Option<RawRules>,
    ) -> Result<KindSpec, SpecError> {
        let mut rules = rules.unwrap_or_default();
        let piece = match pieces {
            Some(RawPieces::Many(list)) => {
                // Spec::parse passes a list to the kinds that read one alone.
                let army = doc.read_army(kind, list, &mut rules)?;
                doc.check_rule_keys(kind, &rules)?;
                return Ok(match kind {
                    Kind::Independent => KindSpec::Independent(IndependentSpec {
                        army,
                        count: rules.count,
                    }),
                    _ => KindSpec::Domination(DominationSpec {
                        army,
                        independent: rules.independent,
                    }),
                });
            }
            Some(RawPieces::One(p)) => Some(p),
            None => None,
        };
        Ok(match kind {
            Kind::Independent => {
                let piece = doc.parse_piece(kind, piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Independent(IndependentSpec {
                    army: Army::One {
                        piece,
                        given: rules.given,
                    },
                    count: rules.count,
                })
            }
            Kind::Domination => {
                let piece = doc.parse_piece(kind, piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Domination(DominationSpec {
                    army: Army::One {
                        piece,
                        given: rules.given,
                    },
                    independent: rules.independent,
                })
            }
            Kind::Tour => {
                let piece = doc.parse_piece(kind, piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Tour(TourSpec {
                    piece,
                    closed: rules.closed,
                    start: rules.start,
                })
            }
            Kind::Lines => {
                doc.refuse_stone_piece(piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Lines(LinesSpec {
                    colors: rules.colors,
                    per_color: rules.per_color,
                    max_per_line: rules.max_per_line,
                })
            }
            Kind::Cover => {
                if piece.is_some() {
                    return Err(doc.err_nowhere("piece", "kind \"cover\" takes no piece".into()));
                }
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Cover(CoverSpec::Lists(CoverLists {
                    items: rules.items,
                    secondary: rules.secondary,
                    options: rules.options,
                    multiplicity: rules.multiplicity,
                }))
            }
            Kind::Tiling | Kind::Sudoku => {
                unreachable!("Spec::parse reads a tiling and a sudoku itself")
            }
        })
    }
}

impl Document {
    /// The `[[piece]]` tables of a mixed army: each a piece (as `[piece]` reads one), its
    /// count and its givens. `[rules] count` and `[rules] given` belong to a one-piece army:
    /// with tables the count and the givens are each piece's.
    fn read_army(
        &self,
        kind: Kind,
        list: Vec<RawShape>,
        rules: &mut RawRules,
    ) -> Result<Army, SpecError> {
        for (key, span) in [
            ("rules.count", rules.count.as_ref().map(|v| v.span())),
            ("rules.given", rules.given.as_ref().map(|v| v.span())),
        ] {
            if let Some(span) = span {
                let what = &key["rules.".len()..];
                return Err(self.err(
                    span,
                    key,
                    format!(
                        "with [[piece]] tables each piece has its own {what}: write it in the \
                         piece's table"
                    ),
                ));
            }
        }
        if list.is_empty() {
            return Err(self.err_nowhere("piece", "no [[piece]] table".into()));
        }
        let mut army: Vec<TroopSpec> = Vec::with_capacity(list.len());
        for (k, raw) in list.into_iter().enumerate() {
            let tiling = [
                ("name", raw.name.as_ref().map(|v| v.span())),
                ("shape", raw.shape.as_ref().map(|v| v.span())),
                ("turns", raw.turns.as_ref().map(|v| v.span())),
            ];
            if let Some((key, Some(span))) = tiling.into_iter().find(|(_, s)| s.is_some()) {
                return Err(self.err(
                    span,
                    &format!("piece.{key}"),
                    format!(
                        "kind \"{}\" reads a [[piece]] as a chess piece, with keys moves (or \
                         leaps and rides), symbol, count, given; name, shape and turns are a \
                         tiling's",
                        kind.name()
                    ),
                ));
            }
            // Errors about the table point at its symbol, else its moves.
            let at = [&raw.symbol, &raw.moves]
                .into_iter()
                .flatten()
                .map(|v| v.span())
                .next();
            let Some(count) = raw.count else {
                let msg = format!(
                    "[[piece]] number {} has no count; accepted: a whole number, a range \
                     \"lo..hi\" or \"any\", the piece's givens included",
                    k + 1
                );
                return Err(match at {
                    Some(span) => self.err(span, "piece.count", msg),
                    None => self.err_nowhere("piece", msg),
                });
            };
            let count = self.piece_count(count)?;
            let piece = self.parse_piece(
                kind,
                Some(RawPiece {
                    moves: raw.moves,
                    leaps: raw.leaps,
                    rides: raw.rides,
                    symbol: raw.symbol,
                }),
            )?;
            if let Some(other) = army.iter().find(|t| t.piece.symbol == piece.symbol) {
                let msg = format!(
                    "[[piece]] number {} has the symbol '{}' of another piece ({}); each piece \
                     needs its own symbol (`symbol = \"X\"`), so that a solution says which \
                     stands where",
                    k + 1,
                    piece.symbol,
                    other.piece.moves.as_deref().unwrap_or("given by vectors")
                );
                return Err(match at {
                    Some(span) => self.err(span, "piece.symbol", msg),
                    None => self.err_nowhere("piece", msg),
                });
            }
            army.push(TroopSpec {
                piece,
                count,
                given: raw.given,
            });
        }
        Ok(Army::Mixed(army))
    }
}
