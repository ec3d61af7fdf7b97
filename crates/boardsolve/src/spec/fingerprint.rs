//! The puzzle's fingerprint: what part records carry so that parts of different puzzles are
//! never merged, the same for the same puzzle whatever the build that computes it.
//!
//! It is the 64-bit FNV-1a hash of the UTF-8 bytes of a canonical text of the puzzle as
//! solved (docs/parts.md, "The puzzle's fingerprint", is its reference): one line a fact,
//! `name value`, in a fixed order, the values normalised (squares as row,col from the
//! top-left, piece moves as sorted vectors, strings as JSON strings, numbers as Rust prints
//! them), with only what changes the search: kind, board, moves, rules, goal, `unique`,
//! `prefixes`, `branch` and tuning options; never the title, the symbol, limits, threads or
//! where a key stands in the file. The first line names the scheme: a scheme number changes
//! whenever the text of any puzzle would.

use std::io::{self, Write};

use crate::engine::Goal;
use crate::engine::record::FINGERPRINT_SCHEME;

use super::raw::{Located, Names, SquareRef};
use super::{Army, CoverSpec, Givens, KindSpec, PieceSpec, Spec};

/// A piece's moves as sorted, distinct leap and ride vectors.
fn write_moves(w: &mut impl Write, p: &PieceSpec) -> io::Result<()> {
    let mut leaps = p.piece.leaps.clone();
    leaps.sort_unstable();
    leaps.dedup();
    write!(w, "leaps")?;
    for (dx, dy) in leaps {
        write!(w, " {dx},{dy}")?;
    }
    writeln!(w)?;
    let mut rides = p.piece.rides.clone();
    rides.sort_unstable();
    rides.dedup();
    write!(w, "rides")?;
    for ((dx, dy), limit) in rides {
        write!(w, " {dx},{dy}:{limit}")?;
    }
    writeln!(w)
}

/// FNV-1a over every byte written.
struct Fnv(u64);

impl Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn json(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn names(v: &[Located<String>]) -> String {
    let words: Vec<String> = v.iter().map(|n| json(n.get_ref())).collect();
    words.join(" ")
}

impl Spec {
    /// The puzzle's fingerprint under the current scheme.
    pub fn fingerprint(&self, goal: Goal) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        self.write_canonical(goal, &mut h)
            .expect("hashing does not fail");
        h.0
    }

    /// The canonical text the fingerprint hashes.
    pub fn canonical_text(&self, goal: Goal) -> String {
        let mut out = Vec::new();
        self.write_canonical(goal, &mut out)
            .expect("writing to memory does not fail");
        String::from_utf8(out).expect("the canonical text is UTF-8")
    }

    /// The canonical text, streamed: a cover of millions of options is hashed without being
    /// spelled out in memory.
    fn write_canonical(&self, goal: Goal, w: &mut impl Write) -> io::Result<()> {
        writeln!(
            w,
            "boardsolve puzzle, fingerprint scheme {FINGERPRINT_SCHEME}"
        )?;
        writeln!(w, "kind {}", self.kind().name())?;
        if let Some(b) = &self.board {
            writeln!(w, "board {}x{}", b.width, b.height)?;
            write!(w, "holes")?;
            for sq in b.holes() {
                let (r, c) = b.row_col(sq);
                write!(w, " {r},{c}")?;
            }
            writeln!(w)?;
        }
        let army = match &self.rules {
            KindSpec::Independent(s) => Some(&s.army),
            KindSpec::Domination(s) => Some(&s.army),
            _ => None,
        };
        match army {
            Some(Army::Mixed(troops)) => {
                for t in troops {
                    writeln!(w, "piece count {:?}", t.count.get_ref())?;
                    write_moves(w, &t.piece)?;
                    self.write_givens(w, &t.given)?;
                }
            }
            Some(Army::One { piece, given }) => {
                write_moves(w, piece)?;
                self.write_givens(w, given)?;
            }
            None => {
                if let Some(p) = self.rules.piece() {
                    write_moves(w, p)?;
                }
            }
        }
        let number = |v: &Option<Located<i64>>| v.as_ref().map(|v| v.get_ref().to_string());
        let flag = |v: &Option<Located<bool>>| v.as_ref().map(|v| v.get_ref().to_string());
        let list = |v: &Option<Located<Names>>| v.as_ref().map(|c| names(c.get_ref()));
        let facts = match &self.rules {
            KindSpec::Independent(s) => vec![("rules.count", number(&s.count))],
            KindSpec::Domination(s) => vec![("rules.independent", flag(&s.independent))],
            KindSpec::Tour(s) => vec![
                ("rules.closed", flag(&s.closed)),
                ("rules.start", s.start.as_ref().map(|s| self.square_text(s))),
            ],
            KindSpec::Lines(s) => vec![
                ("rules.colors", list(&s.colors)),
                ("rules.per_color", number(&s.per_color)),
                ("rules.max_per_line", number(&s.max_per_line)),
            ],
            KindSpec::Cover(CoverSpec::Lists(s)) => {
                vec![
                    ("rules.items", list(&s.items)),
                    ("rules.secondary", list(&s.secondary)),
                ]
            }
            KindSpec::Cover(CoverSpec::Knuth(_)) => vec![],
            KindSpec::Tiling(t) => vec![
                ("rules.leave", number(&t.leave)),
                ("rules.fill", Some(format!("{:?}", t.fill))),
                ("pieces.set", t.sets.as_ref().map(|s| s.get_ref().join(" "))),
                (
                    "pieces.turns",
                    t.set_turns.as_ref().map(|s| s.get_ref().name().to_string()),
                ),
            ],
            KindSpec::Sudoku(s) => vec![
                ("board.size", Some(s.size.to_string())),
                ("board.diagonals", Some(s.diagonals.to_string())),
            ],
        };
        for (name, value) in facts {
            if let Some(v) = value {
                writeln!(w, "{name} {v}")?;
            }
        }
        match &self.rules {
            KindSpec::Cover(CoverSpec::Lists(s)) => {
                for option in s.options.iter().flat_map(|o| o.get_ref()) {
                    writeln!(w, "rules.option {}", names(option.get_ref()))?;
                }
                for (item, range) in s.multiplicity.iter().flat_map(|m| m.get_ref()) {
                    let bounds: Vec<String> =
                        range.get_ref().iter().map(|b| b.to_string()).collect();
                    writeln!(w, "rules.multiplicity {} {}", json(item), bounds.join(" "))?;
                }
            }
            KindSpec::Cover(CoverSpec::Knuth(c)) => writeln!(w, "knuth {:016x}", c.digest())?,
            KindSpec::Tiling(t) => {
                let b = &t.board;
                write!(w, "box {}x{}x{} cells", b.width, b.height, b.depth)?;
                for (i, &c) in b.cells.iter().enumerate() {
                    if c {
                        write!(w, " {i}")?;
                    }
                }
                writeln!(w)?;
                for p in &t.pieces {
                    write!(w, "piece {}", json(p.name.get_ref()))?;
                    for c in &p.cells {
                        write!(w, " {},{},{}", c[0], c[1], c[2])?;
                    }
                    let count = p.count.as_ref().map(|c| format!("{:?}", c.get_ref()));
                    let turns = p.turns.as_ref().map(|t| t.get_ref().name());
                    writeln!(w, " count {count:?} turns {turns:?}")?;
                }
            }
            KindSpec::Sudoku(s) => {
                writeln!(w, "regions {:?}", s.regions)?;
                let givens: Vec<String> = s.givens.iter().map(|g| g.to_string()).collect();
                writeln!(w, "givens {}", givens.join(" "))?;
                for c in &s.cages {
                    writeln!(w, "cage {} {:?}", c.sum, c.cells)?;
                }
            }
            _ => {}
        }
        writeln!(w, "goal {}", goal.name())?;
        writeln!(w, "unique {}", self.solve.unique)?;
        writeln!(w, "prefixes {}", self.solve.prefixes)?;
        writeln!(w, "branch {}", self.solve.branch.name())?;
        let mut options: Vec<(&String, f64)> = self
            .solve
            .options
            .iter()
            .map(|(k, v)| (k, *v.get_ref()))
            .collect();
        options.sort_by(|a, b| a.0.cmp(b.0));
        for (name, value) in options {
            writeln!(w, "option {name} {value}")?;
        }
        Ok(())
    }

    /// A square of the rules as row,col, as written where it is not on the board (the kind
    /// refuses it later).
    /// The givens of a piece, when it has any (a puzzle without them keeps its text).
    fn write_givens(&self, w: &mut impl Write, given: &Givens) -> io::Result<()> {
        if let Some(g) = given {
            let squares: Vec<String> = g.get_ref().iter().map(|s| self.square_text(s)).collect();
            writeln!(w, "given {}", squares.join(" "))?;
        }
        Ok(())
    }

    fn square_text(&self, s: &Located<SquareRef>) -> String {
        let resolved = self.board.as_ref().and_then(|b| self.square(b, s, "").ok());
        match (resolved, s.get_ref()) {
            (Some((r, c)), _) => format!("{r},{c}"),
            (None, SquareRef::Name(n)) => json(n),
            (None, SquareRef::RowCol(r, c)) => format!("[{r},{c}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Overrides;

    fn spec(text: &str, set: &[&str]) -> Spec {
        let o = Overrides {
            set: set.iter().map(|s| s.to_string()).collect(),
            ..Overrides::default()
        };
        Spec::parse("t.toml", text, &o).unwrap()
    }

    const KNIGHTS: &str = "kind = \"domination\"\ntitle = \"k\"\n[board]\nsize = 8\n\
                           holes = [\"a1\"]\n[piece]\nmoves = \"N\"\n[rules]\nindependent = true\n";

    /// The text is the documented one, fact by fact: a change here is a new scheme.
    #[test]
    fn the_canonical_text_is_as_documented() {
        let s = spec(KNIGHTS, &["solve.options.bnb.root_steps=3"]);
        assert_eq!(
            s.canonical_text(Goal::Minimize),
            "boardsolve puzzle, fingerprint scheme 2\nkind domination\nboard 8x8\nholes 7,0\n\
             leaps 2,1\nrides\nrules.independent true\ngoal minimize\nunique false\n\
             prefixes false\nbranch fewest\noption bnb.root_steps 3\n"
        );
        // FNV-1a of the text above, worked out apart from this code.
        assert_eq!(s.fingerprint(Goal::Minimize), 0x9ad1_5e42_c090_f6bb);
    }

    /// What does not change the search does not change the fingerprint; what does, does.
    #[test]
    fn the_fingerprint_follows_the_puzzle_not_its_writing() {
        let base = spec(KNIGHTS, &[]).fingerprint(Goal::Minimize);
        let same = [
            spec(&KNIGHTS.replace("title = \"k\"", "title = \"other\""), &[]),
            spec(
                &KNIGHTS.replace("holes = [\"a1\"]", "holes = [[7, 0]]"),
                &[],
            ),
            spec(&KNIGHTS.replace("moves = \"N\"", "leaps = [[1, 2]]"), &[]),
            spec(&format!("# a comment\n\n{KNIGHTS}"), &[]),
            spec(KNIGHTS, &["piece.symbol=S", "solve.time_limit=5"]),
        ];
        for s in same {
            assert_eq!(s.fingerprint(Goal::Minimize), base, "{}", s.file);
        }
        let other = [
            spec(KNIGHTS, &["board.size=9"]),
            spec(KNIGHTS, &["rules.independent=false"]),
            spec(KNIGHTS, &["piece.moves=NW"]),
            spec(&KNIGHTS.replace("holes = [\"a1\"]", ""), &[]),
            spec(KNIGHTS, &["solve.unique=true"]),
        ];
        for s in other {
            assert_ne!(s.fingerprint(Goal::Minimize), base);
        }
        assert_ne!(spec(KNIGHTS, &[]).fingerprint(Goal::Count), base);
    }
}
