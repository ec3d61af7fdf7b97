//! The puzzle file: serde structs for the TOML (puzzle-format.md section 1), validated into a
//! [`Spec`]. Every error names the file, the line and column, the key and what is accepted.
//! Nothing else in the crate reads TOML.

use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::collections::BTreeMap;
use toml::Spanned;

use crate::board::Board;
use crate::board::betza::{self, Piece};
use crate::engine::Goal;

/// An error in a puzzle file or its overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub file: String,
    /// 1-based; 0 when the error has no position (a missing key, a command-line override).
    pub line: usize,
    pub column: usize,
    pub key: String,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SpecError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Independent,
    Domination,
    Tour,
    Lines,
    Cover,
}

impl Kind {
    pub const NAMES: [&'static str; 5] = ["independent", "domination", "tour", "lines", "cover"];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Independent => "independent",
            Kind::Domination => "domination",
            Kind::Tour => "tour",
            Kind::Lines => "lines",
            Kind::Cover => "cover",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "independent" => Kind::Independent,
            "domination" => Kind::Domination,
            "tour" => Kind::Tour,
            "lines" => Kind::Lines,
            "cover" => Kind::Cover,
            _ => return None,
        })
    }

    /// The `[rules]` keys this kind reads (puzzle-format.md section 3).
    pub fn rule_keys(self) -> &'static [&'static str] {
        match self {
            Kind::Independent => &["count"],
            Kind::Domination => &["independent"],
            Kind::Tour => &["closed", "start"],
            Kind::Lines => &["colors", "per_color", "max_per_line"],
            Kind::Cover => &["items", "secondary", "options", "multiplicity"],
        }
    }

    pub fn goals(self) -> &'static [Goal] {
        match self {
            Kind::Independent => &[Goal::First, Goal::All, Goal::Count, Goal::Maximize],
            Kind::Domination => &[Goal::Minimize, Goal::Count, Goal::First],
            Kind::Tour => &[Goal::First, Goal::Count, Goal::All],
            Kind::Lines | Kind::Cover => &[Goal::First, Goal::All, Goal::Count],
        }
    }

    pub fn default_goal(self) -> Goal {
        match self {
            Kind::Independent | Kind::Lines | Kind::Cover => Goal::Count,
            Kind::Domination => Goal::Minimize,
            Kind::Tour => Goal::First,
        }
    }

    /// The most squares a board of this kind may have: the kinds whose models keep a bitset
    /// per square (independent, domination) or a line table (lines) refuse larger boards
    /// from the dimensions alone, before anything is allocated.
    pub const fn max_squares(self) -> usize {
        match self {
            Kind::Independent | Kind::Domination => 4096,
            Kind::Lines => 1024,
            Kind::Tour | Kind::Cover => MAX_SQUARES,
        }
    }

    pub fn uses_board(self) -> bool {
        self != Kind::Cover
    }
}

/// A value read from the file, with where it stands in the (possibly overridden) document,
/// so that whoever checks it later can still point at its line. The kinds receive their rules
/// as these: typed values, never the TOML they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    value: T,
    span: Range<usize>,
}

impl<T> Located<T> {
    pub fn get_ref(&self) -> &T {
        &self.value
    }

    /// Byte offsets of the value in the document ([`Spec::err`] turns them into a line).
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Spanned::<T>::deserialize(d)?;
        Ok(Located {
            span: s.span(),
            value: s.into_inner(),
        })
    }
}

/// A square as written in the file: "a1" or [row, col].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareRef {
    Name(String),
    RowCol(i64, i64),
}

impl<'de> Deserialize<'de> for SquareRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SquareRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a square name like \"a1\" or [row, col]")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SquareRef, E> {
                Ok(SquareRef::Name(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SquareRef, A::Error> {
                let r: i64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let c: i64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<i64>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(SquareRef::RowCol(r, c))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    title: Option<Located<String>>,
    kind: Option<Located<String>>,
    board: Option<RawBoard>,
    piece: Option<RawPiece>,
    rules: Option<Rules>,
    solve: Option<RawSolve>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    size: Option<Located<i64>>,
    width: Option<Located<i64>>,
    height: Option<Located<i64>>,
    holes: Option<Vec<Located<SquareRef>>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    moves: Option<Located<String>>,
    leaps: Option<Located<Vec<[i64; 2]>>>,
    rides: Option<Located<Vec<[i64; 2]>>>,
    symbol: Option<Located<String>>,
}

/// A list of names, each with its place in the file.
pub type Names = Vec<Located<String>>;

/// `[rules]`: the union of every kind's keys; [`Spec::parse`] rejects keys the kind does not
/// read.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub count: Option<Located<i64>>,
    pub independent: Option<Located<bool>>,
    pub closed: Option<Located<bool>>,
    pub start: Option<Located<SquareRef>>,
    pub colors: Option<Located<Vec<Located<String>>>>,
    pub per_color: Option<Located<i64>>,
    pub max_per_line: Option<Located<i64>>,
    pub items: Option<Located<Vec<Located<String>>>>,
    pub secondary: Option<Located<Vec<Located<String>>>>,
    pub options: Option<Located<Vec<Located<Names>>>>,
    /// Primary item name to its range `[lo, hi]`, as written.
    pub multiplicity: Option<Located<BTreeMap<String, Located<Vec<i64>>>>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct RawSolve {
    goal: Option<Located<String>>,
    strategy: Option<Located<String>>,
    unique: Option<Located<bool>>,
    limit: Option<Located<i64>>,
    time_limit: Option<Located<f64>>,
    threads: Option<Located<i64>>,
}

/// Command-line overrides applied on top of the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--set key.path=value`, applied to the document before it is read.
    pub set: Vec<String>,
    pub size: Option<usize>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    /// The `[solve]` keys as flags (`--goal`, `--strategy`, ...): each means exactly what its
    /// key means and is checked alike, so `--goal maximize` and `--set solve.goal=maximize`
    /// are one thing.
    pub solve: SolveOverrides,
}

/// `[solve]` values given as command-line flags; they win over the file's.
#[derive(Clone, Debug, Default)]
pub struct SolveOverrides {
    pub goal: Option<String>,
    pub strategy: Option<String>,
    /// `--unique` can only turn counting up to symmetry on.
    pub unique: bool,
    pub limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
}

/// The largest board side and square count accepted by the file format; kinds set their own,
/// tighter limits up front.
pub const MAX_SIDE: i64 = 100_000;
/// The most squares any board may have (10^9).
pub const MAX_SQUARES: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize) / 10;

#[derive(Clone, Debug)]
pub struct PieceSpec {
    pub piece: Piece,
    pub symbol: char,
}

#[derive(Clone, Debug, Default)]
pub struct SolveSpec {
    pub goal: Option<Goal>,
    pub strategy: Option<String>,
    pub unique: bool,
    pub limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
}

/// A validated puzzle file.
#[derive(Debug)]
pub struct Spec {
    pub file: String,
    source: String,
    pub title: Option<String>,
    pub kind: Kind,
    pub board: Option<Board>,
    pub piece: Option<PieceSpec>,
    pub rules: Rules,
    pub solve: SolveSpec,
}

impl Spec {
    pub fn parse(file: &str, text: &str, overrides: &Overrides) -> Result<Spec, SpecError> {
        let source = apply_set(file, text, &overrides.set)?;
        let raw: RawSpec = toml::from_str(&source).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let key = key_at(&source, span.start);
            located(file, &source, span, &key, e.message().trim().to_string())
        })?;
        let mut spec = Spec {
            file: file.to_string(),
            source,
            title: None,
            kind: Kind::Cover,
            board: None,
            piece: None,
            rules: Rules::default(),
            solve: SolveSpec::default(),
        };
        spec.title = raw.title.map(|t| t.into_inner());
        let kind = raw
            .kind
            .ok_or_else(|| spec.err_nowhere("kind", accepted_kinds("missing required key")))?;
        spec.kind = Kind::parse(kind.get_ref()).ok_or_else(|| {
            spec.err(
                kind.span(),
                "kind",
                accepted_kinds(&format!("unknown kind \"{}\"", kind.get_ref())),
            )
        })?;

        if spec.kind.uses_board() {
            spec.board = Some(spec.parse_board(raw.board, overrides)?);
            spec.piece = spec.parse_piece(raw.piece)?;
        } else {
            if raw.board.is_some() || overrides.size.is_some() || overrides.width.is_some() {
                return Err(spec.err_nowhere(
                    "board",
                    "kind \"cover\" takes no board: its items and options say everything".into(),
                ));
            }
            if raw.piece.is_some() {
                return Err(spec.err_nowhere("piece", "kind \"cover\" takes no piece".into()));
            }
        }
        spec.rules = raw.rules.unwrap_or_default();
        spec.check_rule_keys()?;
        spec.solve = spec.parse_solve(raw.solve, &overrides.solve)?;
        Ok(spec)
    }

    /// An error pointing at a span of the (possibly overridden) document.
    pub fn err(&self, span: Range<usize>, key: &str, message: String) -> SpecError {
        located(&self.file, &self.source, span, key, message)
    }

    /// An error about a key found wrong only after parsing (by a kind's compiler, which sees
    /// values, not spans): it points at the key's value when the document holds it, and at
    /// no line when the key is missing.
    pub fn err_nowhere(&self, key: &str, message: String) -> SpecError {
        match span_of_key(&self.source, key) {
            Some(span) => self.err(span, key, message),
            None => SpecError {
                file: self.file.clone(),
                line: 0,
                column: 0,
                key: key.to_string(),
                message,
            },
        }
    }

    pub fn board(&self) -> &Board {
        self.board
            .as_ref()
            .expect("board kinds always have a board")
    }

    fn parse_board(
        &self,
        raw: Option<RawBoard>,
        overrides: &Overrides,
    ) -> Result<Board, SpecError> {
        let raw = raw.unwrap_or_default();
        let side = |v: &Option<Located<i64>>, key: &str| -> Result<Option<usize>, SpecError> {
            match v {
                None => Ok(None),
                Some(s) => {
                    let n = *s.get_ref();
                    if !(1..=MAX_SIDE).contains(&n) {
                        return Err(self.err(
                            s.span(),
                            key,
                            format!("{n} is not a board side; accepted: 1 to {MAX_SIDE}"),
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
                && !(1..=MAX_SIDE as usize).contains(&n)
            {
                return Err(self.err_nowhere(
                    key,
                    format!("{n} is not a board side; accepted: 1 to {MAX_SIDE}"),
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
        if squares > MAX_SQUARES as u64 {
            return Err(self.err_nowhere(
                "board",
                format!("a {w}x{h} board is too large; at most 10^9 squares"),
            ));
        }
        let max = self.kind.max_squares();
        if squares > max as u64 {
            return Err(self.err_nowhere(
                "board",
                format!(
                    "a {w}x{h} board has {squares} squares; kind \"{}\" handles at most {max}",
                    self.kind.name()
                ),
            ));
        }
        let mut board = Board::new(w, h);
        for hole in raw.holes.unwrap_or_default() {
            let (r, c) = self.square(&board, &hole, "board.holes")?;
            let sq = board.index(r, c);
            board.holes[sq] = true;
        }
        if board.cell_count() == 0 {
            return Err(self.err_nowhere("board.holes", "the holes cover the whole board".into()));
        }
        Ok(board)
    }

    /// Resolve a square written in the file on `board`.
    pub fn square(
        &self,
        board: &Board,
        sq: &Located<SquareRef>,
        key: &str,
    ) -> Result<(usize, usize), SpecError> {
        match sq.get_ref() {
            SquareRef::Name(name) => board
                .parse_square(name)
                .map_err(|m| self.err(sq.span(), key, m)),
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

    fn parse_piece(&self, raw: Option<RawPiece>) -> Result<Option<PieceSpec>, SpecError> {
        if self.kind == Kind::Lines {
            // Stones do not move: a [piece] would be silently meaningless, so it is refused.
            return match raw {
                None => Ok(None),
                Some(p) => {
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
            };
        }
        let Some(raw) = raw else {
            if self.kind == Kind::Tour {
                // The knight is the tour kind's default piece.
                let piece = Piece::parse("N").expect("N is a valid piece");
                return Ok(Some(PieceSpec { piece, symbol: 'N' }));
            }
            return Err(self.err_nowhere(
                "piece",
                format!(
                    "kind \"{}\" needs a [piece] with `moves` in Betza notation; accepted: {}",
                    self.kind.name(),
                    betza::ACCEPTED
                ),
            ));
        };
        let piece = match (&raw.moves, &raw.leaps, &raw.rides) {
            (Some(m), None, None) => Piece::parse(m.get_ref()).map_err(|e| {
                let span = m.span();
                // Point at the offending character inside the string (after the quote).
                let at = span.start + 1 + e.at;
                self.err(at..at + 1, "piece.moves", e.message)
            })?,
            (None, l, r) if l.is_some() || r.is_some() => {
                let vecs = |v: &Option<Located<Vec<[i64; 2]>>>,
                            key: &str|
                 -> Result<Vec<(i32, i32)>, SpecError> {
                    let Some(v) = v else { return Ok(Vec::new()) };
                    v.get_ref()
                        .iter()
                        .map(|&[a, b]| {
                            if a.abs() > 64 || b.abs() > 64 {
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
                    self.err(span, "piece", m)
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
                let mut chars = s.get_ref().chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_whitespace() && c != '.' => c,
                    _ => {
                        return Err(self.err(
                            s.span(),
                            "piece.symbol",
                            "accepted: one printable character other than '.'".into(),
                        ));
                    }
                }
            }
        };
        Ok(Some(PieceSpec { piece, symbol }))
    }

    fn check_rule_keys(&self) -> Result<(), SpecError> {
        let r = &self.rules;
        let present: [(&str, Option<Range<usize>>); 11] = [
            ("count", r.count.as_ref().map(|v| v.span())),
            ("independent", r.independent.as_ref().map(|v| v.span())),
            ("closed", r.closed.as_ref().map(|v| v.span())),
            ("start", r.start.as_ref().map(|v| v.span())),
            ("colors", r.colors.as_ref().map(|v| v.span())),
            ("per_color", r.per_color.as_ref().map(|v| v.span())),
            ("max_per_line", r.max_per_line.as_ref().map(|v| v.span())),
            ("items", r.items.as_ref().map(|v| v.span())),
            ("secondary", r.secondary.as_ref().map(|v| v.span())),
            ("options", r.options.as_ref().map(|v| v.span())),
            ("multiplicity", r.multiplicity.as_ref().map(|v| v.span())),
        ];
        let allowed = self.kind.rule_keys();
        for (key, span) in present {
            if let Some(span) = span
                && !allowed.contains(&key)
            {
                return Err(self.err(
                    span,
                    &format!("rules.{key}"),
                    format!(
                        "kind \"{}\" does not read this key; accepted in [rules]: {}",
                        self.kind.name(),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn parse_solve(
        &self,
        raw: Option<RawSolve>,
        flags: &SolveOverrides,
    ) -> Result<SolveSpec, SpecError> {
        let raw = raw.unwrap_or_default();
        let mut out = SolveSpec::default();
        if let Some(g) = &flags.goal {
            out.goal = Some(self.goal(g, None)?);
        } else if let Some(g) = &raw.goal {
            out.goal = Some(self.goal(g.get_ref(), Some(g.span()))?);
        }
        out.strategy = flags
            .strategy
            .clone()
            .or_else(|| raw.strategy.map(|s| s.into_inner()));
        out.unique = flags.unique || raw.unique.map(|u| u.into_inner()).unwrap_or(false);
        if let Some(l) = &raw.limit {
            let v = *l.get_ref();
            if v < 0 {
                return Err(self.err(l.span(), "solve.limit", "accepted: 0 or more".into()));
            }
            out.limit = Some(v as u64);
        }
        if let Some(t) = &raw.time_limit {
            let v = *t.get_ref();
            if !(v > 0.0 && v < 1e9) {
                return Err(self.err(
                    t.span(),
                    "solve.time_limit",
                    "accepted: seconds, more than 0".into(),
                ));
            }
            out.time_limit = Some(v);
        }
        if let Some(t) = &raw.threads {
            let v = *t.get_ref();
            if !(1..=1024).contains(&v) {
                return Err(self.err(t.span(), "solve.threads", "accepted: 1 to 1024".into()));
            }
            out.threads = Some(v as usize);
        }
        if let Some(v) = flags.limit {
            out.limit = Some(v);
        }
        if let Some(v) = flags.time_limit {
            if !(v > 0.0 && v < 1e9) {
                return Err(self.err_nowhere(
                    "--time-limit",
                    format!("{v}: accepted: seconds, more than 0"),
                ));
            }
            out.time_limit = Some(v);
        }
        if let Some(v) = flags.threads {
            if !(1..=1024).contains(&v) {
                return Err(self.err_nowhere("--threads", format!("{v}: accepted: 1 to 1024")));
            }
            out.threads = Some(v);
        }
        Ok(out)
    }

    /// Check a goal name against what this kind accepts.
    pub fn goal(&self, name: &str, span: Option<Range<usize>>) -> Result<Goal, SpecError> {
        let accepted: Vec<&str> = self.kind.goals().iter().map(|g| g.name()).collect();
        match Goal::parse(name).filter(|g| self.kind.goals().contains(g)) {
            Some(g) => Ok(g),
            None => {
                let msg = format!(
                    "goal \"{name}\" does not apply to kind \"{}\"; accepted: {}",
                    self.kind.name(),
                    accepted.join(", ")
                );
                Err(match span {
                    Some(s) => self.err(s, "solve.goal", msg),
                    None => self.err_nowhere("--goal", msg),
                })
            }
        }
    }
}

fn accepted_kinds(what: &str) -> String {
    format!("{what}; accepted: {}", Kind::NAMES.join(", "))
}

/// Where the value of a dotted key ("piece.moves") lies in the document, if it is there.
fn span_of_key(source: &str, key: &str) -> Option<Range<usize>> {
    let doc = toml_edit::ImDocument::parse(source).ok()?;
    let mut item = doc.as_item();
    for part in key.split('.') {
        item = item.get(part)?;
    }
    item.span()
}

fn located(file: &str, source: &str, span: Range<usize>, key: &str, message: String) -> SpecError {
    let (line, column) = line_col(source, span.start);
    SpecError {
        file: file.to_string(),
        line,
        column,
        key: key.to_string(),
        message,
    }
}

fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The dotted key whose value holds byte `offset`: the nearest `key =` at or before the
/// offset's line, inside the nearest `[table]` header above it. The files are line-oriented,
/// so this names the key the user has to look at.
fn key_at(source: &str, offset: usize) -> String {
    let offset = offset.min(source.len());
    let upto = &source[..offset];
    let line_end = source[offset..]
        .find('\n')
        .map_or(source.len(), |p| offset + p);
    let mut key = None;
    let mut table = String::new();
    for line in source[..line_end].lines().rev() {
        let t = line.trim();
        if t.starts_with('[') {
            table = t
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            break;
        }
        if key.is_none()
            && let Some(eq) = t.find('=')
        {
            let k = t[..eq].trim();
            if !k.is_empty()
                && k.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
            {
                key = Some(k.to_string());
            }
        }
    }
    let _ = upto;
    match (table.is_empty(), key) {
        (_, None) => table,
        (true, Some(k)) => k,
        (false, Some(k)) => format!("{table}.{k}"),
    }
}

/// Apply `--set key.path=value` overrides to the document text. The value is read as TOML
/// (`8`, `true`, `"N"`, `[1, 2]`) and, failing that, as a plain string.
fn apply_set(file: &str, text: &str, sets: &[String]) -> Result<String, SpecError> {
    if sets.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        let span = e.span().unwrap_or(0..0);
        located(
            file,
            text,
            span,
            &key_at(text, 0),
            e.message().trim().to_string(),
        )
    })?;
    for set in sets {
        let err = |m: String| SpecError {
            file: file.to_string(),
            line: 0,
            column: 0,
            key: format!("--set {set}"),
            message: m,
        };
        let (path, value) = set
            .split_once('=')
            .ok_or_else(|| err("accepted: key.path=value, e.g. rules.count=8".into()))?;
        let keys: Vec<&str> = path.trim().split('.').map(str::trim).collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(err("the key path has an empty part".into()));
        }
        let value: toml_edit::Value = value
            .trim()
            .parse()
            .unwrap_or_else(|_| toml_edit::Value::from(value.trim()));
        let mut item = doc.as_item_mut();
        for k in &keys[..keys.len() - 1] {
            let table = item
                .as_table_like_mut()
                .ok_or_else(|| err(format!("`{k}` is inside a value that is not a table")))?;
            if table.get(k).is_none() {
                table.insert(k, toml_edit::Item::Table(toml_edit::Table::new()));
            }
            item = table.get_mut(k).expect("inserted above");
        }
        let table = item
            .as_table_like_mut()
            .ok_or_else(|| err("the key's parent is not a table".into()))?;
        let last = keys[keys.len() - 1];
        table.insert(last, toml_edit::Item::Value(value));
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Spec, SpecError> {
        Spec::parse("t.toml", text, &Overrides::default())
    }

    #[test]
    fn queens_file() {
        let s = parse(
            "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n[rules]\ncount = 8\n",
        )
        .unwrap();
        assert_eq!(s.kind, Kind::Independent);
        assert_eq!(s.board().width, 8);
        assert!(s.piece.as_ref().unwrap().piece.is_queen());
        assert_eq!(s.piece.as_ref().unwrap().symbol, 'Q');
    }

    #[test]
    fn unknown_key_names_line_and_key() {
        let e = parse("kind = \"independent\"\n[board]\nsizee = 8\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (3, "board.sizee"), "{e}");
        assert!(e.message.contains("unknown field"), "{e}");
        assert!(e.message.contains("size"), "{e}");
    }

    #[test]
    fn wrong_type_and_range() {
        let e = parse("kind = \"independent\"\n[board]\nsize = \"8\"\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (3, "board.size"), "{e}");
        let e = parse("kind = \"independent\"\n[board]\nsize = -3\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("accepted: 1 to"), "{e}");
        let e = parse("kind = \"independent\"\n[board]\nsize = 0\n").unwrap_err();
        assert!(e.message.contains("not a board side"), "{e}");
    }

    #[test]
    fn holes_and_betza_errors() {
        let e = parse("kind = \"independent\"\n[board]\nsize = 4\nholes = [\"e5\"]\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (4, "board.holes"), "{e}");
        assert!(e.message.contains("off the 4x4 board"), "{e}");
        let e = parse(
            "kind = \"independent\"\n[board]\nsize = 4\nholes = [[0, 9]]\n[piece]\nmoves = \"K\"",
        )
        .unwrap_err();
        assert!(e.message.contains("[0, 9] is off"), "{e}");
        let e = parse("kind = \"independent\"\n[board]\nsize = 4\n[piece]\nmoves = \"NX\"\n")
            .unwrap_err();
        assert_eq!(
            (e.line, e.column, e.key.as_str()),
            (5, 11, "piece.moves"),
            "{e}"
        );
    }

    #[test]
    fn rules_of_another_kind_are_rejected() {
        let e = parse(
            "kind = \"independent\"\n[board]\nsize = 4\n[piece]\nmoves = \"N\"\n[rules]\nclosed = true\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.key.as_str()), (7, "rules.closed"), "{e}");
        assert!(e.message.contains("accepted in [rules]: count"), "{e}");
    }

    #[test]
    fn overrides() {
        let text = "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n";
        let o = Overrides {
            set: vec!["piece.moves=N".into(), "rules.count=3".into()],
            size: Some(5),
            ..Overrides::default()
        };
        let s = Spec::parse("t.toml", text, &o).unwrap();
        assert_eq!(s.board().width, 5);
        assert_eq!(s.piece.as_ref().unwrap().piece.notation(), "N");
        assert_eq!(s.rules.count.as_ref().map(|c| *c.get_ref()), Some(3));
    }

    #[test]
    fn malformed_toml() {
        let e = parse("kind = \"independent\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = parse("title = \"x\"\n").unwrap_err();
        assert!(e.message.contains("missing required key"), "{e}");
        let e = parse("kind = \"sudoku\"\n").unwrap_err();
        assert!(
            e.message.contains("accepted: independent, domination"),
            "{e}"
        );
    }
}
