//! The board: a width x height grid with holes, square indices, attack sets as bitsets and
//! the board's symmetries. Shared by every board kind.
//!
//! Squares are numbered row-major from the top-left square as printed: index = row * width +
//! col. Algebraic names put "a1" at the bottom-left.

pub mod betza;
pub mod polyform;

use crate::util::BitMatrix;

use betza::Piece;

/// Why a square name names no square of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a file and a rank.
    NotAName(String),
    /// The file's letters name a column beyond any index.
    FileTooLarge(String),
    /// The rank's digits name a row beyond any index.
    RankTooLarge(String),
    /// The rank is written with a leading zero ("a01"): one square has one name.
    LeadingZero(String),
    /// A square of a `width` x `height` board would be elsewhere.
    OffBoard {
        name: String,
        width: usize,
        height: usize,
    },
}

impl std::fmt::Display for SquareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SquareError::NotAName(name) => write!(
                f,
                "\"{name}\" is not a square name; accepted: a file letter (a..z, aa, ab, ...) \
                 and a rank from 1, like \"a1\", or [row, col] from the top-left"
            ),
            SquareError::FileTooLarge(letters) => write!(f, "file \"{letters}\" is too large"),
            SquareError::RankTooLarge(digits) => write!(f, "rank \"{digits}\" is too large"),
            SquareError::LeadingZero(name) => write!(
                f,
                "\"{name}\" has a leading zero in its rank; accepted: a file letter (a..z, aa, \
                 ab, ...) and a rank from 1 without leading zeros, like \"a1\", or [row, col] \
                 from the top-left"
            ),
            SquareError::OffBoard {
                name,
                width,
                height,
            } => write!(
                f,
                "square \"{name}\" is off the {width}x{height} board (files a..{}, ranks 1..{height})",
                file_name(width - 1),
            ),
        }
    }
}

impl std::error::Error for SquareError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    /// Bit `sq` is set where a square was taken off the board; empty while there is no hole,
    /// so that a board without holes costs nothing per square (a tour's board may have 10^9).
    holes: Vec<u64>,
}

impl Board {
    pub fn new(width: usize, height: usize) -> Board {
        Board {
            width,
            height,
            holes: Vec::new(),
        }
    }

    /// Take square `sq` off the board. The first hole makes the map of holes, a bit a square:
    /// `Err` with its size in bytes when the system does not give them.
    pub fn try_set_hole(&mut self, sq: usize) -> Result<(), u64> {
        assert!(sq < self.squares(), "hole {sq} off the board");
        if self.holes.is_empty() {
            let words = self.squares().div_ceil(64);
            self.holes
                .try_reserve_exact(words)
                .map_err(|_| words as u64 * 8)?;
            self.holes.resize(words, 0);
        }
        self.holes[sq >> 6] |= 1 << (sq & 63);
        Ok(())
    }

    /// Take square `sq` off a board small enough for its map of holes not to matter.
    pub fn set_hole(&mut self, sq: usize) {
        self.try_set_hole(sq)
            .unwrap_or_else(|bytes| panic!("no memory for a map of holes of {bytes} bytes"));
    }

    /// Whether each square is a hole, in index order (for drawing: small boards).
    pub fn hole_map(&self) -> Vec<bool> {
        (0..self.squares()).map(|s| self.is_hole(s)).collect()
    }

    pub fn squares(&self) -> usize {
        self.width * self.height
    }

    #[inline]
    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    #[inline]
    pub fn row_col(&self, sq: usize) -> (usize, usize) {
        (sq / self.width, sq % self.width)
    }

    #[inline]
    pub fn is_hole(&self, sq: usize) -> bool {
        debug_assert!(sq < self.squares());
        self.holes
            .get(sq >> 6)
            .is_some_and(|w| w >> (sq & 63) & 1 != 0)
    }

    pub fn has_holes(&self) -> bool {
        !self.holes.is_empty()
    }

    /// The holes, in index order, found a word of the map at a time.
    pub fn holes(&self) -> impl Iterator<Item = usize> + '_ {
        crate::util::bits::ones(&self.holes)
    }

    /// Squares that are on the board (not holes), in index order.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.squares()).filter(move |&s| !self.is_hole(s))
    }

    pub fn cell_count(&self) -> usize {
        let holes: usize = self.holes.iter().map(|w| w.count_ones() as usize).sum();
        self.squares() - holes
    }

    /// The square `(dr, dc)` away from `sq`, if it is on the board and not a hole.
    #[inline]
    pub fn step(&self, sq: usize, dr: i32, dc: i32) -> Option<usize> {
        let (r, c) = self.row_col(sq);
        let r2 = r as i64 + dr as i64;
        let c2 = c as i64 + dc as i64;
        if r2 < 0 || c2 < 0 || r2 >= self.height as i64 || c2 >= self.width as i64 {
            return None;
        }
        let s2 = self.index(r2 as usize, c2 as usize);
        (!self.is_hole(s2)).then_some(s2)
    }

    /// Squares `piece` on `sq` attacks: leaps land on any square of the board; rides go
    /// step by step until the edge, a hole, or their range.
    pub fn attacks_from(&self, piece: &Piece, sq: usize, out: &mut Vec<usize>) {
        out.clear();
        for ((dx, dy), lim) in piece.directions() {
            let mut cur = sq;
            let mut steps = 0u32;
            while let Some(next) = self.step(cur, dy, dx) {
                out.push(next);
                steps += 1;
                if lim != 0 && steps >= lim {
                    break;
                }
                cur = next;
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// The attack relation as one bitset row per square (holes attack nothing).
    pub fn attack_matrix(&self, piece: &Piece) -> BitMatrix {
        let n = self.squares();
        let mut m = BitMatrix::new(n, n);
        let mut buf = Vec::new();
        for sq in self.cells() {
            self.attacks_from(piece, sq, &mut buf);
            for &t in &buf {
                m.set(sq, t);
            }
        }
        m
    }

    /// The algebraic name of a square: files a..z, aa, ab, ...; ranks from 1 at the bottom.
    pub fn square_name(&self, sq: usize) -> String {
        let (r, c) = self.row_col(sq);
        format!("{}{}", file_name(c), self.height - r)
    }

    /// Parse an algebraic square name ("a1", "h8", "aa10") into (row, col) on this board.
    pub fn parse_square(&self, name: &str) -> Result<(usize, usize), SquareError> {
        let letters: String = name
            .chars()
            .take_while(|c| c.is_ascii_lowercase())
            .collect();
        let digits = &name[letters.len()..];
        if letters.is_empty() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(SquareError::NotAName(name.to_string()));
        }
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(SquareError::LeadingZero(name.to_string()));
        }
        let mut col: usize = 0;
        for ch in letters.chars() {
            col = col
                .checked_mul(26)
                .and_then(|c| c.checked_add((ch as u8 - b'a') as usize + 1))
                .ok_or_else(|| SquareError::FileTooLarge(letters.clone()))?;
        }
        col -= 1;
        let rank: usize = digits
            .parse()
            .map_err(|_| SquareError::RankTooLarge(digits.to_string()))?;
        if col >= self.width || rank == 0 || rank > self.height {
            return Err(SquareError::OffBoard {
                name: name.to_string(),
                width: self.width,
                height: self.height,
            });
        }
        Ok((self.height - rank, col))
    }

    /// The board's symmetries that map holes to holes, as permutations of square indices;
    /// the identity first. 8 for a square board without holes, 4 for a rectangle, fewer
    /// when holes break them.
    pub fn symmetries(&self) -> Vec<Vec<u32>> {
        let (w, h) = (self.width, self.height);
        let mut out = Vec::new();
        for t in 0..8u8 {
            // t: bit 2 transposes, bit 1 flips rows, bit 0 flips columns.
            let transpose = t & 4 != 0;
            if transpose && w != h {
                continue;
            }
            let perm: Vec<u32> = (0..w * h)
                .map(|sq| {
                    let (mut r, mut c) = (sq / w, sq % w);
                    if transpose {
                        std::mem::swap(&mut r, &mut c);
                    }
                    if t & 2 != 0 {
                        r = h - 1 - r;
                    }
                    if t & 1 != 0 {
                        c = w - 1 - c;
                    }
                    (r * w + c) as u32
                })
                .collect();
            if (0..w * h).all(|sq| self.is_hole(sq) == self.is_hole(perm[sq] as usize)) {
                out.push(perm);
            }
        }
        out
    }
}

/// Files a..z, then aa, ab, ... (bijective base 26).
pub fn file_name(mut col: usize) -> String {
    let mut s = Vec::new();
    col += 1;
    while col > 0 {
        col -= 1;
        s.push(b'a' + (col % 26) as u8);
        col /= 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Whether `squares` (sorted) is the smallest of its images under `symmetries`, comparing
/// sorted images lexicographically: exactly one member of each class passes.
pub fn is_canonical(squares: &[usize], symmetries: &[Vec<u32>], buf: &mut Vec<usize>) -> bool {
    for perm in symmetries.iter().skip(1) {
        buf.clear();
        buf.extend(squares.iter().map(|&s| perm[s] as usize));
        buf.sort_unstable();
        if buf.as_slice() < squares {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        let b = Board::new(30, 12);
        assert_eq!(b.parse_square("a1"), Ok((11, 0)));
        assert_eq!(b.parse_square("z12"), Ok((0, 25)));
        assert_eq!(b.parse_square("aa1"), Ok((11, 26)));
        assert_eq!(file_name(26), "aa");
        assert_eq!(file_name(27), "ab");
        for sq in [0, 29, 45, 359] {
            let (r, c) = b.parse_square(&b.square_name(sq)).unwrap();
            assert_eq!(b.index(r, c), sq);
        }
        assert!(matches!(
            b.parse_square("a13"),
            Err(SquareError::OffBoard {
                width: 30,
                height: 12,
                ..
            })
        ));
        assert!(matches!(
            b.parse_square("a0"),
            Err(SquareError::OffBoard { .. })
        ));
        assert!(matches!(
            b.parse_square("1a"),
            Err(SquareError::NotAName(_))
        ));
        for lax in ["a01", "a00", "b012"] {
            assert_eq!(
                b.parse_square(lax),
                Err(SquareError::LeadingZero(lax.into())),
                "{lax}"
            );
        }
        for lax in ["a+1", " a1", "a1 ", "A1", "a 1"] {
            assert_eq!(b.parse_square(lax), Err(SquareError::NotAName(lax.into())));
        }
    }

    #[test]
    fn symmetries_respect_holes() {
        assert_eq!(Board::new(8, 8).symmetries().len(), 8);
        assert_eq!(Board::new(6, 10).symmetries().len(), 4);
        let mut b = Board::new(5, 5);
        b.set_hole(12); // the centre keeps all 8
        assert_eq!(b.symmetries().len(), 8);
        b.set_hole(0); // a corner keeps the diagonal reflection only
        assert_eq!(b.symmetries().len(), 2);
    }

    #[test]
    fn attacks_stop_at_holes() {
        let mut b = Board::new(4, 4);
        let h = b.index(0, 2);
        b.set_hole(h);
        let rook = Piece::parse("R").unwrap();
        let mut out = Vec::new();
        b.attacks_from(&rook, 0, &mut out);
        assert_eq!(out, vec![1, 4, 8, 12]);
        let knight = Piece::parse("N").unwrap();
        b.attacks_from(&knight, 0, &mut out);
        assert_eq!(out, vec![b.index(1, 2), b.index(2, 1)]);
    }
}
