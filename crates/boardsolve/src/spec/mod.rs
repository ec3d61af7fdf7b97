//! The puzzle file: serde structs for the TOML (puzzle-format.md section 1), validated into a
//! [`Spec`]. Every error names the file, the line and column, the key and what is accepted.
//! Nothing else in the crate reads TOML.
//!
//! This file holds what a validated file is ([`Spec`], [`Kind`]), the top of parsing and the
//! checks of `[rules]` keys and `[solve]`. What each kind alone reads, its piece and its
//! `[rules]` keys, is typed per kind in `kind_spec.rs` ([`KindSpec`]). The raw document model
//! is in `raw.rs`, the command-line overrides and the mapping of byte offsets to lines and
//! keys in `overrides.rs`, and the reading of `[board]` and `[piece]` in `board_piece.rs`.

use std::fmt;
use std::ops::Range;

use crate::board::Board;
use crate::board::betza::Piece;
use crate::engine::Goal;

mod board_piece;
mod fingerprint;
mod kind_spec;
mod knuth;
pub mod options;
mod overrides;
mod raw;
mod sudoku;
mod tiling;

pub use kind_spec::{
    Army, CoverLists, CoverSpec, DominationSpec, Givens, IndependentSpec, KindSpec, LinesSpec,
    TourSpec, TroopSpec,
};
pub use knuth::{ExactCover, MAX_ENTRIES as MAX_COVER_ENTRIES};
pub use overrides::{Overrides, SolveOverrides};
pub use raw::{Located, Multiplicity, Names, SquareRef};
pub use sudoku::{
    Cage, LineFault, MAX_SYMBOLS as MAX_SUDOKU_SYMBOLS, Regions, SYMBOLS as SUDOKU_SYMBOLS,
    SudokuSpec, cell_name as sudoku_cell_name, clash_in as sudoku_clash_in,
    read_line as read_sudoku_line,
};
pub use tiling::{
    CellBox, Fill, MAX_CELLS as MAX_TILING_CELLS, MAX_NAME as MAX_PIECE_NAME, PieceCount,
    ShapeSpec, TilingSpec,
};

use options::{RunOption, run_option};
use overrides::{apply_set, key_at, located, parse_message, span_of_key};
use raw::{RawRules, RawSolve, RawSpec, in_file_words};

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

/// The key path a `--set key.path=value` argument sets.
fn set_path(set: &str) -> &str {
    set.split_once('=').map_or(set, |(p, _)| p).trim()
}

/// The error of a value that a `--set` argument gave (the last one that set `key`, or a table
/// above it): it names the argument, since the value stands on no line of the file.
fn set_error(file: &str, sets: &[String], key: &str, message: &str) -> Option<SpecError> {
    let set = sets.iter().rev().find(|set| {
        let path = set_path(set);
        key == path || key.starts_with(&format!("{path}."))
    })?;
    Some(set_argument_error(file, set, key, message))
}

fn set_argument_error(file: &str, set: &str, key: &str, message: &str) -> SpecError {
    SpecError {
        file: format!("{file} (--set {set})"),
        line: 0,
        column: 0,
        key: key.to_string(),
        message: message.to_string(),
    }
}

/// An error at `span` of the document as read, `source` (the file after `--set`), placed
/// where the user can find it: at the `--set` argument that gave the key's value or created
/// its table, else at the same place in the file as written, `original`. A set may move the
/// lines below it (a value over several lines replaced by one, the comments above a replaced
/// key dropped), so a line of `source` is not a line of the file.
fn locate(
    file: &str,
    (original, source): (Option<&str>, &str),
    sets: &[String],
    span: Range<usize>,
    key: &str,
    message: String,
) -> SpecError {
    if let Some(e) = set_error(file, sets, key, &message) {
        return e;
    }
    let Some(original) = original else {
        return located(file, source, span, key, message);
    };
    let written = span_of_key(original, key);
    if written.is_none()
        && let Some(set) = sets
            .iter()
            .rev()
            .find(|set| set_path(set).starts_with(&format!("{key}.")))
    {
        return set_argument_error(file, set, key, &message);
    }
    match (span_of_key(source, key), written) {
        (Some(read), Some(written)) if read.start <= span.start && span.start <= read.end => {
            let at = written.start + (span.start - read.start);
            located(file, original, at..at + span.len(), key, message)
        }
        _ => located(file, source, span, key, message),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Independent,
    Domination,
    Tour,
    Lines,
    Cover,
    Tiling,
    Sudoku,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Independent,
        Kind::Domination,
        Kind::Tour,
        Kind::Lines,
        Kind::Cover,
        Kind::Tiling,
        Kind::Sudoku,
    ];
    pub const NAMES: [&'static str; 7] = [
        Kind::Independent.name(),
        Kind::Domination.name(),
        Kind::Tour.name(),
        Kind::Lines.name(),
        Kind::Cover.name(),
        Kind::Tiling.name(),
        Kind::Sudoku.name(),
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Independent => "independent",
            Kind::Domination => "domination",
            Kind::Tour => "tour",
            Kind::Lines => "lines",
            Kind::Cover => "cover",
            Kind::Tiling => "tiling",
            Kind::Sudoku => "sudoku",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The `[rules]` keys this kind reads (puzzle-format.md section 3).
    pub fn rule_keys(self) -> &'static [&'static str] {
        match self {
            Kind::Independent => &["count", "given"],
            Kind::Domination => &["independent", "given"],
            Kind::Tour => &["closed", "start"],
            Kind::Lines => &["colors", "per_color", "max_per_line"],
            Kind::Cover => &["items", "secondary", "options", "multiplicity"],
            Kind::Tiling => &["leave", "fill"],
            Kind::Sudoku => &["givens", "cages"],
        }
    }

    pub fn goals(self) -> &'static [Goal] {
        match self {
            Kind::Independent => &[Goal::First, Goal::All, Goal::Count, Goal::Maximize],
            Kind::Domination => &[Goal::Minimize, Goal::Count, Goal::First],
            Kind::Tour => &[Goal::First, Goal::Count, Goal::All],
            Kind::Lines | Kind::Cover | Kind::Tiling => &[Goal::First, Goal::All, Goal::Count],
            Kind::Sudoku => &[Goal::First, Goal::All, Goal::Count],
        }
    }

    pub fn default_goal(self) -> Goal {
        match self {
            Kind::Independent | Kind::Lines | Kind::Cover | Kind::Tiling => Goal::Count,
            Kind::Domination => Goal::Minimize,
            Kind::Tour | Kind::Sudoku => Goal::First,
        }
    }

    /// The most squares a board of this kind may have: the kinds whose models keep a bitset
    /// per square (domination) or a line table (lines) refuse larger boards from the
    /// dimensions alone, before anything is allocated. The independent kind takes any board
    /// its sides allow: its search strategies refuse boards beyond their own limit, and
    /// its construction needs nothing per square.
    pub const fn max_squares(self) -> usize {
        match self {
            Kind::Independent => INDEPENDENT_MAX_SIDE * INDEPENDENT_MAX_SIDE,
            Kind::Domination => 4096,
            Kind::Lines => 1024,
            Kind::Tiling => tiling::MAX_CELLS,
            Kind::Sudoku => sudoku::MAX_SYMBOLS * sudoku::MAX_SYMBOLS,
            Kind::Tour | Kind::Cover => MAX_SQUARES,
        }
    }

    /// The longest board side of this kind.
    pub const fn max_side(self) -> usize {
        match self {
            Kind::Independent => INDEPENDENT_MAX_SIDE,
            _ => MAX_SIDE as usize,
        }
    }

    /// Whether the kind plays on a [`Board`] of squares (tiling reads its own board, which
    /// may be a box of cubes).
    pub fn uses_board(self) -> bool {
        !matches!(self, Kind::Cover | Kind::Tiling | Kind::Sudoku)
    }
}

/// What `branch` accepts, for its errors: the rules' names, as the option table lists them.
fn branch_accepted() -> String {
    format!("accepted: {}", crate::dlx::Branch::NAMES.join(", "))
}

/// The largest board side and square count accepted by the file format; kinds set their own,
/// tighter limits up front.
pub const MAX_SIDE: i64 = 100_000;
/// The most squares any board may have (10^9), but for the independent kind's.
pub const MAX_SQUARES: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize) / 10;
/// The independent kind's longest side: 10^7 queens, a few bytes a row, are built and
/// checked in a second.
pub const INDEPENDENT_MAX_SIDE: usize = 10_000_000;

#[derive(Clone, Debug)]
pub struct PieceSpec {
    pub piece: Piece,
    pub symbol: char,
    /// The moves in Betza notation as the file (or `--set`) wrote them ("K"); `None` for a
    /// piece given by its vectors.
    pub moves: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct SolveSpec {
    pub goal: Option<Goal>,
    pub strategy: Option<String>,
    pub unique: bool,
    /// Count every prefix of the board in the strategy's sweep order too.
    pub prefixes: bool,
    /// Which item an exact-cover search branches on (`branch`, `--branch`).
    pub branch: crate::dlx::Branch,
    pub limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub threads: Option<usize>,
    /// Tuning knobs set in `[solve.options]`, as `group.name` with the value and where it
    /// stands; the kind that owns them checks names and ranges.
    pub options: Vec<(String, Located<f64>)>,
}

/// A validated puzzle file: what every kind shares (title, board, `[solve]`) and, in
/// [`KindSpec`], what its kind alone reads.
#[derive(Debug)]
pub struct Spec {
    pub file: String,
    doc: Document,
    pub title: Option<String>,
    /// `None` for the cover kind alone.
    pub board: Option<Board>,
    /// The kind, with its piece and its `[rules]` keys.
    pub rules: KindSpec,
    pub solve: SolveSpec,
}

/// The document as read and what changed it: what an error needs to point at the place in
/// the file, or at the command-line argument, that the user has to look at.
#[derive(Debug)]
struct Document {
    file: String,
    source: String,
    /// The file as written, when `--set` changed it into `source`: errors point into it.
    original: Option<String>,
    /// The `--set key.path=value` arguments: an error in a value one of them set names the
    /// argument, not a line of the file (the value is not in the file).
    sets: Vec<String>,
    /// `--size`, `--width` and `--height` as given: errors about the board's dimensions name
    /// them, as they set the board over the file's.
    board_flags: Vec<String>,
}

impl Spec {
    pub fn parse(file: &str, text: &str, overrides: &Overrides) -> Result<Spec, SpecError> {
        overrides.check_flags_against_sets(file)?;
        let source = apply_set(file, text, &overrides.set)?;
        let original = (!overrides.set.is_empty()).then(|| text.to_string());
        let raw: RawSpec = toml::from_str(&source).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let key = key_at(&source, span.start);
            let message = in_file_words(&parse_message(&source, span.start, e.message()));
            let message = rule_keys_of_the_kind(&source, &key, message);
            let texts = (original.as_deref(), source.as_str());
            locate(file, texts, &overrides.set, span, &key, message)
        })?;
        let board_flags = [
            ("--size", overrides.size),
            ("--width", overrides.width),
            ("--height", overrides.height),
        ]
        .iter()
        .filter_map(|(flag, n)| n.map(|n| format!("{flag} {n}")))
        .collect();
        let doc = Document {
            file: file.to_string(),
            source,
            original,
            board_flags,
            sets: overrides.set.clone(),
        };
        let mut raw = raw;
        let title = raw.title.take().map(|t| t.into_inner());
        let kind = raw
            .kind
            .take()
            .ok_or_else(|| doc.err_nowhere("kind", accepted_kinds("missing required key")))?;
        let kind = Kind::parse(kind.get_ref()).ok_or_else(|| {
            doc.err(
                kind.span(),
                "kind",
                accepted_kinds(&format!("unknown kind \"{}\"", kind.get_ref())),
            )
        })?;

        if kind != Kind::Tiling {
            doc.refuse_tiling_keys(kind, &raw)?;
        }
        if kind != Kind::Sudoku {
            doc.refuse_sudoku_keys(kind, &raw)?;
        }
        if kind == Kind::Sudoku {
            if raw.piece.is_some() {
                return Err(doc.err_nowhere(
                    "piece",
                    "kind \"sudoku\" takes no piece: its cells hold symbols".into(),
                ));
            }
            let rules = raw.rules.unwrap_or_default();
            let sudoku = doc.read_sudoku(raw.board, rules, overrides)?;
            let solve = doc.parse_solve(kind, raw.solve, &overrides.solve)?;
            return Ok(Spec {
                file: file.to_string(),
                doc,
                title,
                board: None,
                rules: KindSpec::Sudoku(sudoku),
                solve,
            });
        }
        if kind == Kind::Tiling {
            let shapes = match raw.piece {
                None => Vec::new(),
                Some(raw::RawPieces::Many(list)) => list,
                Some(raw::RawPieces::One(_)) => {
                    return Err(doc.err_nowhere(
                        "piece",
                        "kind \"tiling\" takes shapes as [[piece]] tables (name, shape, count, \
                         turns), or a named set in [pieces]; [piece] is the chess kinds' one \
                         piece"
                            .into(),
                    ));
                }
            };
            let rules = raw.rules.unwrap_or_default();
            let tiling = doc.read_tiling(raw.board, raw.pieces, shapes, rules, overrides)?;
            let solve = doc.parse_solve(kind, raw.solve, &overrides.solve)?;
            return Ok(Spec {
                file: file.to_string(),
                doc,
                title,
                board: None,
                rules: KindSpec::Tiling(tiling),
                solve,
            });
        }
        if let Some(raw::RawPieces::Many(_)) = raw.piece
            && !matches!(kind, Kind::Independent | Kind::Domination)
        {
            return Err(doc.err_nowhere(
                "piece",
                format!(
                    "kind \"{}\" takes one [piece] table; [[piece]] lists the shapes of kind \
                     \"tiling\" and the mixed pieces of kinds \"independent\" and \"domination\"",
                    kind.name()
                ),
            ));
        }
        let board = if kind.uses_board() {
            Some(doc.parse_board(kind, raw.board, overrides)?)
        } else {
            if raw.board.is_some() || !doc.board_flags.is_empty() {
                return Err(doc.err_board(
                    "kind \"cover\" takes no board: its items and options say everything".into(),
                ));
            }
            None
        };
        let rules = KindSpec::read(&doc, kind, raw.piece, raw.rules)?;
        let solve = doc.parse_solve(kind, raw.solve, &overrides.solve)?;
        Ok(Spec {
            file: file.to_string(),
            doc,
            title,
            board,
            rules,
            solve,
        })
    }

    pub fn kind(&self) -> Kind {
        self.rules.kind()
    }

    /// An error pointing at a span of the (possibly overridden) document, or at the `--set`
    /// argument that set the key.
    pub fn err(&self, span: Range<usize>, key: &str, message: String) -> SpecError {
        self.doc.err(span, key, message)
    }

    /// An error about the board's dimensions: it names what set them, the command line's
    /// `--size`, `--width` and `--height` (which win over the file's), else the last `--set`
    /// of one of them, else the file's [board].
    pub fn err_board(&self, message: String) -> SpecError {
        self.doc.err_board(message)
    }

    /// An error about a key found wrong only after parsing (by a kind's compiler, which sees
    /// values, not spans): it points at the key's value when the document holds it, and at
    /// no line when the key is missing.
    pub fn err_nowhere(&self, key: &str, message: String) -> SpecError {
        self.doc.err_nowhere(key, message)
    }

    /// [`Spec::err_nowhere`] at the first of `keys` that the document holds (a value that
    /// either of two keys may give), or at the first when it holds none.
    pub fn err_at_one_of(&self, keys: &[&str], message: String) -> SpecError {
        self.doc.err_at_one_of(keys, message)
    }

    pub fn board(&self) -> &Board {
        self.board
            .as_ref()
            .expect("board kinds always have a board")
    }

    /// Resolve a square written in the file on `board`.
    pub fn square(
        &self,
        board: &Board,
        sq: &Located<SquareRef>,
        key: &str,
    ) -> Result<(usize, usize), SpecError> {
        self.doc.square(board, sq, key)
    }

    /// Check a goal name against what this kind accepts.
    pub fn goal(&self, name: &str, span: Option<Range<usize>>) -> Result<Goal, SpecError> {
        self.doc.goal(self.kind(), name, span)
    }
}

impl Document {
    fn err(&self, span: Range<usize>, key: &str, message: String) -> SpecError {
        let texts = (self.original.as_deref(), self.source.as_str());
        locate(&self.file, texts, &self.sets, span, key, message)
    }

    fn err_board(&self, message: String) -> SpecError {
        if !self.board_flags.is_empty() {
            return SpecError {
                file: self.file.clone(),
                line: 0,
                column: 0,
                key: self.board_flags.join(" "),
                message,
            };
        }
        let sides = ["board.size", "board.width", "board.height"];
        match self
            .sets
            .iter()
            .rev()
            .find(|set| sides.contains(&set_path(set)))
        {
            Some(set) => set_argument_error(&self.file, set, "board", &message),
            None => self.err_nowhere("board", message),
        }
    }

    fn err_nowhere(&self, key: &str, message: String) -> SpecError {
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

    fn err_at_one_of(&self, keys: &[&str], message: String) -> SpecError {
        let key = keys
            .iter()
            .find(|k| span_of_key(&self.source, k).is_some())
            .unwrap_or(&keys[0]);
        self.err_nowhere(key, message)
    }

    /// The keys only kind "tiling" reads: `[pieces]`, and a board's `depth` and `picture`.
    fn refuse_tiling_keys(&self, kind: Kind, raw: &RawSpec) -> Result<(), SpecError> {
        let msg = |what: &str| {
            format!(
                "kind \"{}\" does not read {what}; it is kind \"tiling\"'s",
                kind.name()
            )
        };
        if raw.pieces.is_some() {
            return Err(self.err_nowhere("pieces", msg("[pieces]")));
        }
        if let Some(b) = &raw.board {
            if let Some(d) = &b.depth {
                return Err(self.err(d.span(), "board.depth", msg("a depth")));
            }
            if let Some(p) = &b.picture {
                return Err(self.err(p.span(), "board.picture", msg("a picture")));
            }
            if let Some(p) = &b.labels {
                return Err(self.err(p.span(), "board.labels", msg("labels")));
            }
        }
        Ok(())
    }

    /// The keys only kind "sudoku" reads: a board's `box`, `regions` and `diagonals`, and
    /// the rules `givens` and `cages` (checked with the other rules).
    fn refuse_sudoku_keys(&self, kind: Kind, raw: &RawSpec) -> Result<(), SpecError> {
        let Some(b) = &raw.board else { return Ok(()) };
        for (span, key) in [
            (b.boxes.as_ref().map(|v| v.span()), "board.box"),
            (b.regions.as_ref().map(|v| v.span()), "board.regions"),
            (b.diagonals.as_ref().map(|v| v.span()), "board.diagonals"),
        ] {
            if let Some(span) = span {
                return Err(self.err(
                    span,
                    key,
                    format!(
                        "kind \"{}\" does not read this key; it is kind \"sudoku\"'s",
                        kind.name()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_rule_keys(&self, kind: Kind, r: &RawRules) -> Result<(), SpecError> {
        let present: [(&str, Option<Range<usize>>); 16] = [
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
            ("leave", r.leave.as_ref().map(|v| v.span())),
            ("fill", r.fill.as_ref().map(|v| v.span())),
            ("givens", r.givens.as_ref().map(|v| v.span())),
            ("cages", r.cages.as_ref().map(|v| v.span())),
            ("given", r.given.as_ref().map(|v| v.span())),
        ];
        let allowed = kind.rule_keys();
        for (key, span) in present {
            if let Some(span) = span
                && !allowed.contains(&key)
            {
                return Err(self.err(
                    span,
                    &format!("rules.{key}"),
                    format!(
                        "kind \"{}\" does not read this key; accepted in [rules]: {}",
                        kind.name(),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn parse_solve(
        &self,
        kind: Kind,
        raw: Option<RawSolve>,
        flags: &SolveOverrides,
    ) -> Result<SolveSpec, SpecError> {
        let raw = raw.unwrap_or_default();
        let mut out = SolveSpec::default();
        for (group, knobs) in raw.options.iter().flatten() {
            for (name, value) in knobs {
                out.options.push((format!("{group}.{name}"), value.clone()));
            }
        }
        if let Some(g) = &flags.goal {
            out.goal = Some(self.goal(kind, g, None)?);
        } else if let Some(g) = &raw.goal {
            out.goal = Some(self.goal(kind, g.get_ref(), Some(g.span()))?);
        }
        out.strategy = flags
            .strategy
            .clone()
            .or_else(|| raw.strategy.map(|s| s.into_inner()));
        out.unique = flags.unique || raw.unique.map(|u| u.into_inner()).unwrap_or(false);
        out.prefixes = flags.prefixes || raw.prefixes.map(|u| u.into_inner()).unwrap_or(false);
        if let Some(b) = &flags.branch {
            out.branch = crate::dlx::Branch::parse(b).ok_or_else(|| {
                self.err_nowhere("--branch", format!("\"{b}\": {}", branch_accepted()))
            })?;
        } else if let Some(b) = &raw.branch {
            out.branch = crate::dlx::Branch::parse(b.get_ref()).ok_or_else(|| {
                self.err(
                    b.span(),
                    "solve.branch",
                    format!("\"{}\": {}", b.get_ref(), branch_accepted()),
                )
            })?;
        }
        // The ranges are the option tables' (options.rs): a key and its flag check alike.
        let (limit, time, threads) = (
            run_option("limit"),
            run_option("time-limit"),
            run_option("threads"),
        );
        let key = |o: &RunOption| o.key.unwrap_or(o.flag);
        if let Some(l) = &raw.limit {
            let v = *l.get_ref();
            limit
                .check_whole(v)
                .map_err(|m| self.err(l.span(), key(limit), m.to_string()))?;
            out.limit = Some(v as u64);
        }
        if let Some(t) = &raw.time_limit {
            let v = *t.get_ref();
            time.check_real(v)
                .map_err(|m| self.err(t.span(), key(time), m.to_string()))?;
            out.time_limit = Some(v);
        }
        if let Some(t) = &raw.threads {
            let v = *t.get_ref();
            threads
                .check_whole(v)
                .map_err(|m| self.err(t.span(), key(threads), m.to_string()))?;
            out.threads = Some(v as usize);
        }
        if let Some(v) = flags.limit {
            out.limit = Some(v);
        }
        if let Some(v) = flags.time_limit {
            time.check_real(v)
                .map_err(|m| self.err_nowhere("--time-limit", format!("{v}: {m}")))?;
            out.time_limit = Some(v);
        }
        if let Some(v) = flags.threads {
            threads
                .check_whole(i64::try_from(v).unwrap_or(i64::MAX))
                .map_err(|m| self.err_nowhere("--threads", format!("{v}: {m}")))?;
            out.threads = Some(v);
        }
        Ok(out)
    }

    fn goal(&self, kind: Kind, name: &str, span: Option<Range<usize>>) -> Result<Goal, SpecError> {
        let accepted: Vec<&str> = kind.goals().iter().map(|g| g.name()).collect();
        match Goal::parse(name).filter(|g| kind.goals().contains(g)) {
            Some(g) => Ok(g),
            None => {
                let msg = format!(
                    "goal \"{name}\" does not apply to kind \"{}\"; accepted: {}",
                    kind.name(),
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

/// serde's error of an unknown `[rules]` key lists the keys of every kind (`RawRules` is
/// their union); the puzzle's kind reads only its own, so those are the ones listed.
fn rule_keys_of_the_kind(source: &str, key: &str, message: String) -> String {
    // A tiling's shapes in a single [piece] table: serde lists the chess piece's keys.
    if key.starts_with("piece.")
        && message.starts_with("unknown field")
        && toml_edit::ImDocument::parse(source)
            .ok()
            .is_some_and(|doc| {
                doc.as_item().get("kind").and_then(|k| k.as_str()) == Some("tiling")
                    && doc.as_item().get("piece").is_some_and(|p| p.is_table())
            })
    {
        return format!(
            "{message}; kind \"tiling\" takes its shapes as [[piece]] tables (double brackets), \
             each with name, shape, count, turns"
        );
    }
    if !key.starts_with("rules.") || !message.starts_with("unknown field") {
        return message;
    }
    // Only a key of [rules] itself: an unknown key in a table within it (a killer cage's)
    // is listed by serde against that table's own keys.
    let unknown = message.split('`').nth(1).unwrap_or("");
    if key != format!("rules.{unknown}") {
        if key == "rules.cages" {
            return format!("{message} (the keys of a killer cage)");
        }
        return message;
    }
    let kind = toml_edit::ImDocument::parse(source)
        .ok()
        .and_then(|doc| doc.as_item().get("kind")?.as_str().and_then(Kind::parse));
    let (Some(kind), Some((head, _))) = (kind, message.split_once(", expected")) else {
        return message;
    };
    let keys: Vec<String> = kind.rule_keys().iter().map(|k| format!("`{k}`")).collect();
    let one_of = if keys.len() > 1 { "one of " } else { "" };
    format!(
        "{head}, expected {one_of}{} (the [rules] keys of kind \"{}\")",
        keys.join(", "),
        kind.name()
    )
}

fn accepted_kinds(what: &str) -> String {
    format!("{what}; accepted: {}", Kind::NAMES.join(", "))
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
        assert_eq!(s.kind(), Kind::Independent);
        assert_eq!(s.board().width, 8);
        let KindSpec::Independent(i) = &s.rules else {
            panic!("an independent puzzle: {:?}", s.rules);
        };
        assert!(i.army.one().unwrap().piece.is_queen());
        assert_eq!(i.army.one().unwrap().symbol, 'Q');
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
    fn an_unknown_rules_key_lists_the_keys_of_the_kind() {
        let text = "kind = \"tour\"\n[board]\nsize = 5\n[piece]\nmoves = \"N\"\n";
        let o = Overrides {
            set: vec!["rules.bogus=1".into()],
            ..Overrides::default()
        };
        let e = Spec::parse("t.toml", text, &o).unwrap_err();
        assert!(
            e.message
                .contains("expected one of `closed`, `start` (the [rules] keys of kind \"tour\")"),
            "{e}"
        );
        assert!(!e.message.contains("count"), "{e}");
    }

    #[test]
    fn an_unknown_key_of_a_killer_cage_lists_the_cage_keys() {
        let e = parse(
            "kind = \"sudoku\"\n[board]\nsize = 4\n[rules]\n\
             cages = [{ sum = 3, cells = [\"a1\", \"a2\"], colour = 3 }]\n",
        )
        .unwrap_err();
        assert_eq!(e.key, "rules.cages", "{e}");
        assert!(
            e.message
                .contains("unknown field `colour`, expected `sum` or `cells`"),
            "{e}"
        );
        assert!(e.message.contains("killer cage"), "{e}");
        assert!(!e.message.contains("givens"), "not the [rules] keys: {e}");
    }

    /// Every `[solve]` key of the option tables is one the file reads.
    #[test]
    fn every_solve_key_of_the_table_is_read() {
        let head = "kind = \"independent\"\n[board]\nsize = 5\n[piece]\nmoves = \"Q\"\n";
        for o in options::SOLVE.options {
            let value = match o.value {
                options::Value::Switch => "true".to_string(),
                options::Value::Whole | options::Value::Seconds => "1".to_string(),
                options::Value::Choice(names) => format!("\"{}\"", names[0]),
                _ => "\"auto\"".to_string(),
            };
            let key = o.key_name().expect("[solve] rows have keys");
            let text = format!("{head}[solve]\n{key} = {value}\n");
            if let Err(e) = parse(&text) {
                assert!(!e.message.contains("unknown field"), "{key}: {e}");
            }
        }
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
        let KindSpec::Independent(i) = &s.rules else {
            panic!("an independent puzzle: {:?}", s.rules);
        };
        assert_eq!(i.army.one().unwrap().piece.notation(), "N");
        assert_eq!(i.count.as_ref().map(|c| *c.get_ref()), Some(3));
    }

    #[test]
    fn malformed_toml() {
        let e = parse("kind = \"independent\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = parse("title = \"x\"\n").unwrap_err();
        assert!(e.message.contains("missing required key"), "{e}");
        let e = parse("kind = \"checkers\"\n").unwrap_err();
        assert!(
            e.message.contains("accepted: independent, domination"),
            "{e}"
        );
    }
}
