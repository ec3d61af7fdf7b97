//! Givens and mixed pieces of the chess kinds independent and domination: the pieces that
//! stand before the search, and several pieces (`[[piece]]` tables) each with its count. A
//! placed piece is a code, `piece * squares + square`, so that a placement of one piece is
//! its squares as before and the symmetries of the board act on codes piece by piece.

use crate::board::Board;
use crate::board::betza::Piece;
use crate::kinds::{Picture, Violation};
use crate::spec::{self, Givens, PieceCount, Spec, SpecError};
use crate::util::BitMatrix;

/// One piece of an army.
#[derive(Clone)]
pub struct Troop {
    pub piece: Piece,
    pub symbol: char,
    /// How many of it a solution holds, givens included: `lo..=hi`.
    pub lo: usize,
    pub hi: usize,
    /// `attacks.get(a, b)`: this piece on `a` attacks `b`.
    pub attacks: BitMatrix,
}

/// The pieces of a puzzle with givens or with several pieces.
#[derive(Clone)]
pub struct Army {
    pub troops: Vec<Troop>,
    /// The board's squares: codes run from 0 to `troops.len() * squares`.
    pub squares: usize,
    /// The given pieces as codes, sorted.
    pub givens: Vec<usize>,
    /// Written as `[[piece]]` tables (else one `[piece]` with givens).
    pub mixed: bool,
    /// The board's symmetries that keep the givens, acting on codes ([`Army::symmetries`]).
    pub code_symmetries: Vec<Vec<u32>>,
}

impl Army {
    /// The army of a puzzle file: `None` for one piece without givens, which the kinds'
    /// models hold as they are. `one` is the count range of a one-piece army. Givens off the
    /// board, on a hole or repeated are refused; so are givens that attack each other where
    /// `independent` (naming both), and `[[piece]]` counts whose least numbers (givens
    /// included) add up to more pieces than the board has squares.
    pub fn compile(
        spec: &Spec,
        army_spec: &spec::Army,
        one: (usize, usize),
        independent: bool,
    ) -> Result<Option<Army>, SpecError> {
        let board = spec.board();
        let cells = board.cell_count();
        let (troops, givens): (Vec<Troop>, Vec<(&Givens, &'static str)>) = match army_spec {
            spec::Army::One { given: None, .. } => return Ok(None),
            spec::Army::One { piece, given } => (
                vec![Troop {
                    piece: piece.piece.clone(),
                    symbol: piece.symbol,
                    lo: one.0,
                    hi: one.1,
                    attacks: board.attack_matrix(&piece.piece),
                }],
                vec![(given, "rules.given")],
            ),
            spec::Army::Mixed(list) => list
                .iter()
                .map(|t| {
                    let (lo, hi) = match *t.count.get_ref() {
                        PieceCount::Between(lo, hi) => (lo as usize, hi as usize),
                        PieceCount::Any => (0, cells),
                    };
                    let troop = Troop {
                        piece: t.piece.piece.clone(),
                        symbol: t.piece.symbol,
                        lo,
                        hi: hi.min(cells),
                        attacks: board.attack_matrix(&t.piece.piece),
                    };
                    (troop, (&t.given, "piece.given"))
                })
                .unzip(),
        };
        let mut army = Army {
            squares: board.squares(),
            troops,
            givens: Vec::new(),
            mixed: matches!(army_spec, spec::Army::Mixed(_)),
            code_symmetries: Vec::new(),
        };
        // Each given with where it stands, for the errors that name two of them.
        let mut placed: Vec<(usize, &spec::Located<spec::SquareRef>, &str)> = Vec::new();
        for (t, (given, key)) in givens.into_iter().enumerate() {
            let Some(list) = given else { continue };
            for sq in list.get_ref() {
                let (r, c) = spec.square(board, sq, key)?;
                let s = board.index(r, c);
                let name = board.square_name(s);
                if board.is_hole(s) {
                    return Err(spec.err(
                        sq.span(),
                        key,
                        format!("given {name} is a hole; accepted: a square on the board"),
                    ));
                }
                if let Some((other, _, _)) = placed.iter().find(|(o, _, _)| o % army.squares == s) {
                    return Err(spec.err(
                        sq.span(),
                        key,
                        format!(
                            "{name} is given twice{}; a square holds one piece",
                            if other / army.squares != t {
                                " (for two pieces)"
                            } else {
                                ""
                            }
                        ),
                    ));
                }
                let code = army.code(t, s);
                if independent
                    && let Some((other, _, _)) =
                        placed.iter().find(|(o, _, _)| army.conflict(*o, code))
                {
                    let o = board.square_name(other % army.squares);
                    return Err(spec.err(
                        sq.span(),
                        key,
                        format!(
                            "given {o} and given {name} attack each other; the pieces of kind \
                             \"{}\" may not",
                            spec.kind().name()
                        ),
                    ));
                }
                placed.push((code, sq, key));
            }
        }
        for (t, troop) in army.troops.iter().enumerate() {
            let given = placed.iter().filter(|p| p.0 / army.squares == t).count();
            if given > troop.hi {
                let key = if army.mixed {
                    "piece.given"
                } else {
                    "rules.given"
                };
                let at = placed
                    .iter()
                    .rfind(|p| p.0 / army.squares == t)
                    .map(|p| p.1.span())
                    .unwrap_or(0..0);
                return Err(spec.err(
                    at,
                    key,
                    format!(
                        "{given} pieces '{}' given where the puzzle places at most {}",
                        troop.symbol, troop.hi
                    ),
                ));
            }
        }
        if let spec::Army::Mixed(list) = army_spec {
            // The least pieces of each kind (its givens where they are more) need a square
            // each: counts asking for more pieces than the board has squares admit no
            // placement, and an exact cover's range must not ask for them.
            let need: Vec<usize> = army
                .troops
                .iter()
                .enumerate()
                .map(|(t, troop)| {
                    let given = placed.iter().filter(|p| p.0 / army.squares == t).count();
                    troop.lo.max(given)
                })
                .collect();
            let total: usize = need.iter().sum();
            if total > cells {
                // The count that takes the sum past the squares.
                let mut sum = 0;
                let at = need
                    .iter()
                    .position(|&k| {
                        sum += k;
                        sum > cells
                    })
                    .map_or(0..0, |t| list[t].count.span());
                return Err(spec.err(
                    at,
                    "piece.count",
                    format!(
                        "the pieces' counts ask for at least {total} pieces in all (each count's \
                         least, or its givens where more), more than the board's {cells} \
                         squares; accepted: counts whose least numbers, givens included, add up \
                         to at most {cells}"
                    ),
                ));
            }
        }
        army.givens = placed.iter().map(|p| p.0).collect();
        army.givens.sort_unstable();
        army.code_symmetries = army.symmetries(&board.symmetries());
        Ok(Some(army))
    }

    /// Each piece's moves and count range, for the model's summary; empty for one piece.
    pub fn summary(&self) -> Vec<(String, usize, usize)> {
        if !self.mixed {
            return Vec::new();
        }
        self.troops
            .iter()
            .map(|t| (t.piece.notation(), t.lo, t.hi))
            .collect()
    }

    pub fn code(&self, troop: usize, square: usize) -> usize {
        troop * self.squares + square
    }

    /// The piece and the square of a code.
    pub fn split(&self, code: usize) -> (usize, usize) {
        (code / self.squares, code % self.squares)
    }

    /// Every code, piece by piece, of the squares `cells`.
    pub fn codes<'a>(&'a self, cells: &'a [usize]) -> impl Iterator<Item = usize> + 'a {
        (0..self.troops.len()).flat_map(move |t| cells.iter().map(move |&s| self.code(t, s)))
    }

    /// Two pieces may not stand together in an independent placement: one square, or one
    /// attacks the other (in either direction: a rider's blocker would itself be attacked).
    pub fn conflict(&self, a: usize, b: usize) -> bool {
        let ((ta, sa), (tb, sb)) = (self.split(a), self.split(b));
        sa == sb || self.troops[ta].attacks.get(sa, sb) || self.troops[tb].attacks.get(sb, sa)
    }

    /// How many givens each piece has.
    pub fn given_counts(&self) -> Vec<usize> {
        let mut n = vec![0; self.troops.len()];
        for &g in &self.givens {
            n[g / self.squares] += 1;
        }
        n
    }

    /// The board's symmetries that keep the givens where they are (as a set, each on a
    /// square of its own piece), acting on codes: a symmetry maps a piece's square and keeps
    /// the piece. The identity comes first, as the board's list has it.
    fn symmetries(&self, board: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let n = self.squares;
        let mut buf = Vec::with_capacity(self.givens.len());
        board
            .iter()
            .filter(|perm| {
                buf.clear();
                buf.extend(
                    self.givens
                        .iter()
                        .map(|&g| g / n * n + perm[g % n] as usize),
                );
                buf.sort_unstable();
                buf == self.givens
            })
            .map(|perm| {
                (0..self.troops.len() * n)
                    .map(|c| (c / n * n) as u32 + perm[c % n])
                    .collect()
            })
            .collect()
    }

    /// The drawing of a placement given as codes.
    pub fn picture(&self, board: &Board, codes: &[usize]) -> Picture {
        Picture::Placement {
            width: board.width,
            height: board.height,
            holes: board.hole_map(),
            pieces: codes
                .iter()
                .map(|&c| {
                    let (t, s) = self.split(c);
                    (s, self.troops[t].symbol)
                })
                .collect(),
            mixed: self.mixed,
        }
    }

    /// The rules every placement of the army keeps, checked from the pieces' moves on the
    /// board (not from the searches' tables): each code a piece on a square of the board,
    /// one piece a square, every given placed, each piece's count within its range (where
    /// `counts`: a one-piece army's count is its kind's to check); and, where `independent`,
    /// no piece attacking another. Covering is the domination kind's to check.
    pub fn check(
        &self,
        board: &Board,
        codes: &[usize],
        counts: bool,
        independent: bool,
    ) -> Result<(), Violation> {
        let n = self.squares;
        if let Some(&c) = codes
            .iter()
            .find(|&&c| c >= self.troops.len() * n || board.is_hole(c % n))
        {
            return Err(Violation::NotOnBoard { square: c % n });
        }
        let mut holder: Vec<Option<usize>> = vec![None; n];
        for &c in codes {
            let (t, s) = (c / n, c % n);
            if holder[s].is_some() {
                return Err(Violation::TwoOnSquare { square: s });
            }
            holder[s] = Some(t);
        }
        if let Some(&g) = self.givens.iter().find(|&&g| holder[g % n] != Some(g / n)) {
            return Err(Violation::GivenMissing { square: g % n });
        }
        for (t, troop) in self.troops.iter().enumerate().filter(|_| counts) {
            let k = codes.iter().filter(|&&c| c / n == t).count();
            if k < troop.lo || k > troop.hi {
                return Err(Violation::PieceUsed {
                    piece: troop.symbol.to_string(),
                    times: k as u64,
                });
            }
        }
        if independent {
            let mut seen = Vec::new();
            for &c in codes {
                let (t, s) = (c / n, c % n);
                board.attacks_from(&self.troops[t].piece, s, &mut seen);
                if let Some(&b) = seen.iter().find(|&&b| holder[b].is_some()) {
                    return Err(Violation::Attack { a: s, b });
                }
            }
        }
        Ok(())
    }
}

/// The squares a placement of codes covers (occupies or attacks), from the pieces' moves on
/// the board: the domination kind's validator.
pub fn covered(army: &Army, board: &Board, codes: &[usize]) -> Vec<bool> {
    let mut covered = vec![false; army.squares];
    let mut seen = Vec::new();
    for &c in codes {
        let (t, s) = army.split(c);
        covered[s] = true;
        board.attacks_from(&army.troops[t].piece, s, &mut seen);
        for &b in &seen {
            covered[b] = true;
        }
    }
    covered
}
