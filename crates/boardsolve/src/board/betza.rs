//! Betza notation for pieces: atoms, shorthands, riders, range digits and compounds.
//!
//! Only the symmetric part of the notation is accepted (all 8 directions of an atom), because
//! every kind relies on "a attacks b" being the same relation as "b attacks a" and on the
//! board's symmetries mapping attacks to attacks. Direction modifiers (f, b, l, r, v, s, m, c
//! ...) are rejected with a message that says so.

use std::fmt;

/// A piece as a set of leaps and rides, each given by one representative vector; the 8
/// symmetric images are implied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Leap vectors (dx, dy) with dx >= dy >= 0, dx > 0.
    pub leaps: Vec<(i32, i32)>,
    /// Ride vectors with their step limit (0 = unlimited).
    pub rides: Vec<((i32, i32), u32)>,
}

/// Where a Betza notation stops parsing, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// Character position in the notation (0-based).
    pub at: usize,
    pub fault: BetzaFault,
}

/// What is wrong at a [`BetzaError`]'s position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BetzaFault {
    /// Nothing but whitespace.
    Empty,
    /// A range digit with no piece letter before it.
    DigitFirst(char),
    /// A direction or move modifier (f, b, l, r, ...): pieces move alike in all 8 directions.
    Modifier(char),
    /// A letter that is no atom or shorthand.
    UnknownLetter(char),
    /// A range too large for a step count.
    RangeTooLarge(String),
}

impl fmt::Display for BetzaFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BetzaFault::Empty => write!(f, "empty piece; accepted: {ACCEPTED}"),
            BetzaFault::DigitFirst(c) => write!(f, "digit '{c}' must follow a piece letter"),
            BetzaFault::Modifier(c) => write!(
                f,
                "direction or move modifier '{c}' is not supported (pieces move alike in all \
                 8 directions); accepted: {ACCEPTED}"
            ),
            BetzaFault::UnknownLetter(c) => {
                write!(f, "unknown Betza letter '{c}'; accepted: {ACCEPTED}")
            }
            BetzaFault::RangeTooLarge(s) => write!(f, "range '{s}' is too large"),
        }
    }
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.fault, self.at + 1)
    }
}

impl std::error::Error for BetzaError {}

/// A move vector of [0, 0] among a piece's leaps or rides: it goes nowhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullVector {
    Leap,
    Ride,
}

impl fmt::Display for NullVector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            NullVector::Leap => "leap",
            NullVector::Ride => "ride",
        };
        write!(f, "a {what} of [0, 0] goes nowhere")
    }
}

impl std::error::Error for NullVector {}

pub const ACCEPTED: &str = "atoms W F D N A H C Z G, shorthands K R B Q, a doubled atom for a \
rider (WW, NN), a digit after a rider or atom for its range (W2, R3), e.g. \"Q\", \"N\", \"RN\"";

fn atom(c: char) -> Option<(i32, i32)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// One parsed component: an atom, leaping or riding with a range.
struct Component {
    vector: (i32, i32),
    rider: bool,
    range: u32,
}

impl Piece {
    pub fn parse(text: &str) -> Result<Piece, BetzaError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            return Err(BetzaError {
                at: 0,
                fault: BetzaFault::Empty,
            });
        }
        let mut parts: Vec<Component> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let start = i;
            i += 1;
            // Each letter yields one or more components; a doubled atom or a range digit
            // that follows applies to all of them.
            let mut comps: Vec<Component> = match c {
                'K' => vec![leap((1, 0)), leap((1, 1))],
                'R' => vec![ride((1, 0))],
                'B' => vec![ride((1, 1))],
                'Q' => vec![ride((1, 0)), ride((1, 1))],
                c if atom(c).is_some() => {
                    let v = atom(c).unwrap_or_default();
                    if i < chars.len() && chars[i] == c {
                        i += 1;
                        vec![ride(v)]
                    } else {
                        vec![leap(v)]
                    }
                }
                c if c.is_ascii_digit() => {
                    return Err(BetzaError {
                        at: start,
                        fault: BetzaFault::DigitFirst(c),
                    });
                }
                c if c.is_whitespace() => continue,
                c if "fblrvsmcijnpgoyz".contains(c) => {
                    return Err(BetzaError {
                        at: start,
                        fault: BetzaFault::Modifier(c),
                    });
                }
                c => {
                    return Err(BetzaError {
                        at: start,
                        fault: BetzaFault::UnknownLetter(c),
                    });
                }
            };
            let digits_start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i > digits_start {
                let s: String = chars[digits_start..i].iter().collect();
                let range: u32 = s.parse().map_err(|_| BetzaError {
                    at: digits_start,
                    fault: BetzaFault::RangeTooLarge(s.clone()),
                })?;
                for comp in &mut comps {
                    // A range on a leaper makes it a limited rider (W2); on a rider it limits
                    // the rider (R3); 0 means unlimited, as in Betza's own usage.
                    comp.rider = range != 1;
                    comp.range = range;
                }
            }
            parts.extend(comps);
        }
        let mut piece = Piece {
            leaps: Vec::new(),
            rides: Vec::new(),
        };
        for p in parts {
            let v = canonical(p.vector);
            if p.rider {
                piece.add_ride(v, p.range);
            } else {
                piece.add_leap(v);
            }
        }
        Ok(piece)
    }

    /// A piece from explicit leap and ride vectors (the `leaps` / `rides` keys).
    pub fn from_vectors(leaps: &[(i32, i32)], rides: &[(i32, i32)]) -> Result<Piece, NullVector> {
        let mut piece = Piece {
            leaps: Vec::new(),
            rides: Vec::new(),
        };
        for &v in leaps {
            if v == (0, 0) {
                return Err(NullVector::Leap);
            }
            piece.add_leap(canonical(v));
        }
        for &v in rides {
            if v == (0, 0) {
                return Err(NullVector::Ride);
            }
            piece.add_ride(canonical(v), 0);
        }
        Ok(piece)
    }

    fn add_leap(&mut self, v: (i32, i32)) {
        // A leap already covered by an unlimited (or long enough) ride adds nothing.
        if self.rides.iter().any(|&(r, _)| r == v) || self.leaps.contains(&v) {
            return;
        }
        self.leaps.push(v);
    }

    fn add_ride(&mut self, v: (i32, i32), range: u32) {
        self.leaps.retain(|&l| l != v);
        if let Some(r) = self.rides.iter_mut().find(|r| r.0 == v) {
            if r.1 != 0 && (range == 0 || range > r.1) {
                r.1 = range;
            }
            return;
        }
        self.rides.push((v, range));
    }

    /// All 8 (or 4) images of each vector, with a step limit (0 = unlimited); leaps have
    /// limit 1. Deduplicated.
    pub fn directions(&self) -> Vec<((i32, i32), u32)> {
        let mut out: Vec<((i32, i32), u32)> = Vec::new();
        let all = self
            .leaps
            .iter()
            .map(|&v| (v, 1))
            .chain(self.rides.iter().copied());
        for (v, lim) in all {
            for img in images(v) {
                if !out.iter().any(|o| o.0 == img) {
                    out.push((img, lim));
                }
            }
        }
        out
    }

    /// The piece rides only unlimited wazir and/or ferz lines (rook, bishop, queen): the
    /// shape line-flag strategies need.
    pub fn is_line_piece(&self) -> bool {
        self.leaps.is_empty()
            && !self.rides.is_empty()
            && self
                .rides
                .iter()
                .all(|&(v, lim)| lim == 0 && (v == (1, 0) || v == (1, 1)))
    }

    pub fn rides_unlimited(&self, v: (i32, i32)) -> bool {
        self.rides.iter().any(|&(r, lim)| r == v && lim == 0)
    }

    pub fn is_queen(&self) -> bool {
        self.leaps.is_empty()
            && self.rides.len() == 2
            && self.rides_unlimited((1, 0))
            && self.rides_unlimited((1, 1))
    }

    /// A short canonical name: Betza letters where they exist.
    pub fn notation(&self) -> String {
        let letter =
            |v: (i32, i32)| -> Option<char> { "WFDNAHCZG".chars().find(|&c| atom(c) == Some(v)) };
        let mut s = String::new();
        if self.rides_unlimited((1, 0)) && self.rides_unlimited((1, 1)) {
            s.push('Q');
        } else {
            if self.rides_unlimited((1, 0)) {
                s.push('R');
            }
            if self.rides_unlimited((1, 1)) {
                s.push('B');
            }
        }
        for &(v, lim) in &self.rides {
            if lim == 0 && (v == (1, 0) || v == (1, 1)) {
                continue;
            }
            match letter(v) {
                Some(c) => {
                    s.push(c);
                    if lim == 0 {
                        s.push(c);
                    } else {
                        s.push_str(&lim.to_string());
                    }
                }
                None => s.push_str(&format!("[ride {},{}]", v.0, v.1)),
            }
        }
        for &v in &self.leaps {
            match letter(v) {
                Some(c) => s.push(c),
                None => s.push_str(&format!("[leap {},{}]", v.0, v.1)),
            }
        }
        s
    }

    /// The default printing symbol: the conventional chess letter where there is one.
    pub fn default_symbol(&self) -> char {
        match self.notation().as_str() {
            "Q" => 'Q',
            "R" => 'R',
            "B" => 'B',
            "N" => 'N',
            "WF" | "FW" => 'K',
            n => n
                .chars()
                .next()
                .filter(|c| c.is_ascii_alphabetic())
                .unwrap_or('P'),
        }
    }
}

fn leap(v: (i32, i32)) -> Component {
    Component {
        vector: v,
        rider: false,
        range: 1,
    }
}

fn ride(v: (i32, i32)) -> Component {
    Component {
        vector: v,
        rider: true,
        range: 0,
    }
}

/// The representative (a, b) with a >= b >= 0 of a vector's 8 images.
fn canonical(v: (i32, i32)) -> (i32, i32) {
    let (a, b) = (v.0.abs(), v.1.abs());
    if a >= b { (a, b) } else { (b, a) }
}

fn images(v: (i32, i32)) -> Vec<(i32, i32)> {
    let (a, b) = v;
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let img = (x * sx, y * sy);
            if !out.contains(&img) {
                out.push(img);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(s: &str) -> usize {
        Piece::parse(s).unwrap().directions().len()
    }

    #[test]
    fn atoms_and_shorthands() {
        assert_eq!(dirs("N"), 8);
        assert_eq!(dirs("W"), 4);
        assert_eq!(dirs("K"), 8);
        assert_eq!(dirs("Q"), 8);
        assert_eq!(dirs("RN"), 12);
        assert!(Piece::parse("Q").unwrap().is_queen());
        assert!(Piece::parse("WWFF").unwrap().is_queen());
        assert!(Piece::parse("RB").unwrap().is_queen());
        assert!(Piece::parse("R").unwrap().is_line_piece());
        assert!(!Piece::parse("NN").unwrap().is_line_piece());
        assert_eq!(Piece::parse("WF").unwrap().default_symbol(), 'K');
    }

    #[test]
    fn riders_and_ranges() {
        let p = Piece::parse("NN").unwrap();
        assert_eq!(p.rides, vec![((2, 1), 0)]);
        let p = Piece::parse("W2").unwrap();
        assert_eq!(p.rides, vec![((1, 0), 2)]);
        let p = Piece::parse("R3").unwrap();
        assert_eq!(p.rides, vec![((1, 0), 3)]);
        // A leaper inside a rider's line is absorbed by the rider.
        let p = Piece::parse("WR").unwrap();
        assert!(p.leaps.is_empty());
        assert_eq!(p.notation(), "R");
    }

    #[test]
    fn errors_name_what_is_accepted() {
        let e = Piece::parse("NX").unwrap_err();
        assert_eq!(e.at, 1);
        assert_eq!(e.fault, BetzaFault::UnknownLetter('X'));
        assert!(e.to_string().contains("accepted"), "{e}");
        assert_eq!(
            Piece::parse("fN").unwrap_err().fault,
            BetzaFault::Modifier('f')
        );
        assert_eq!(
            Piece::parse("2N").unwrap_err().fault,
            BetzaFault::DigitFirst('2')
        );
        assert_eq!(Piece::parse("").unwrap_err().fault, BetzaFault::Empty);
        assert!(matches!(
            Piece::parse("W99999999999").unwrap_err().fault,
            BetzaFault::RangeTooLarge(_)
        ));
    }
}
