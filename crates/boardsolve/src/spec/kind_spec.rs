//! What each kind reads of a puzzle file beyond the shared board, title and `[solve]`: its
//! piece and its `[rules]` keys, each with where it stands in the file. One type a kind, so a
//! kind's compiler sees its own keys alone, and a kind that moves a piece always has one.

use super::knuth::ExactCover;
use super::raw::{Located, Multiplicity, Names, RawPiece, RawRules, SquareRef};
use super::{Document, Kind, PieceSpec, SpecError};

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
    pub piece: PieceSpec,
    /// How many pieces to place; the kind's compiler says what its absence means.
    pub count: Option<Located<i64>>,
}

/// `kind = "domination"`: pieces that attack or occupy every square.
#[derive(Debug)]
pub struct DominationSpec {
    pub piece: PieceSpec,
    /// The pieces may not attack each other.
    pub independent: Option<Located<bool>>,
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
            KindSpec::Independent(s) => Some(&s.piece),
            KindSpec::Domination(s) => Some(&s.piece),
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
        piece: Option<RawPiece>,
        rules: Option<RawRules>,
    ) -> Result<KindSpec, SpecError> {
        let rules = rules.unwrap_or_default();
        Ok(match kind {
            Kind::Independent => {
                let piece = doc.parse_piece(kind, piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Independent(IndependentSpec {
                    piece,
                    count: rules.count,
                })
            }
            Kind::Domination => {
                let piece = doc.parse_piece(kind, piece)?;
                doc.check_rule_keys(kind, &rules)?;
                KindSpec::Domination(DominationSpec {
                    piece,
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
