//! The raw document model: the serde structs that mirror the file's tables, and the
//! [`Located`] values and [`SquareRef`]s inside them. Each value keeps its byte span, so the
//! checks in the other files can point at its line long after the TOML is gone.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::OnceLock;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

/// A value read from the file, with where it stands in the (possibly overridden) document,
/// so that whoever checks it later can still point at its line. The kinds receive their rules
/// as these: typed values, never the TOML they came from.
#[derive(Clone, PartialEq, Eq)]
pub struct Located<T> {
    value: T,
    span: Range<usize>,
}

/// The value alone: where it stood is no part of what the puzzle is (the puzzle's fingerprint
/// is taken from these forms, and must not change when a comment moves a line).
impl<T: fmt::Debug> fmt::Debug for Located<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T> Located<T> {
    pub fn get_ref(&self) -> &T {
        &self.value
    }

    /// Byte offsets of the value in the document ([`Spec::err`](super::Spec::err) turns them into a line).
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    pub fn into_inner(self) -> T {
        self.value
    }

    /// A value found at `span`: read from the file, then checked into another type.
    pub(crate) fn new(value: T, span: Range<usize>) -> Located<T> {
        Located { value, span }
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

/// serde's message of a value of the wrong type in the file's words (TOML's): an array, not
/// a sequence; a table, not a map; an integer, not i64; a number, not f64; and a long float
/// shown short (`1e300`, not its 301 digits). Other messages are left as they are.
pub(super) fn in_file_words(message: &str) -> String {
    let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    else {
        return message.to_string();
    };
    let found = match found {
        "sequence" => "array".to_string(),
        "map" => "table".to_string(),
        _ => match found
            .strip_prefix("floating point `")
            .and_then(|f| f.strip_suffix('`'))
            .and_then(|f| Some((f, f.parse::<f64>().ok()?)))
        {
            Some((text, x)) if text.len() > 16 => format!("floating point `{x:e}`"),
            _ => found.to_string(),
        },
    };
    let expected = match expected {
        "i64" => "an integer",
        "f64" => "a number",
        "a sequence" => "an array",
        "a map" => "a table",
        other => other,
    };
    format!("invalid type: {found}, expected {expected}")
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
pub(super) struct RawSpec {
    pub(super) title: Option<Located<String>>,
    pub(super) kind: Option<Located<String>>,
    #[serde(default, deserialize_with = "board_table")]
    pub(super) board: Option<RawBoard>,
    #[serde(default, deserialize_with = "piece_table")]
    pub(super) piece: Option<RawPieces>,
    #[serde(default, deserialize_with = "pieces_table")]
    pub(super) pieces: Option<RawPieceSet>,
    #[serde(default, deserialize_with = "rules_table")]
    pub(super) rules: Option<RawRules>,
    #[serde(default, deserialize_with = "solve_table")]
    pub(super) solve: Option<RawSolve>,
}

/// A table of the file read into its struct from a TOML table only: serde would also read a
/// struct from an array, by position (`board = [8, 8, 8, []]`), and would name the struct's
/// Rust type when given anything else. `expecting` says in the file's words what is accepted.
fn table<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    expecting: &'static str,
) -> Result<Option<T>, D::Error> {
    struct V<T>(&'static str, PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.0)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(V(expecting, PhantomData)).map(Some)
}

fn board_table<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawBoard>, D::Error> {
    table(
        d,
        "a table [board] with keys size, width, height, holes (and depth, picture, labels for \
         kind tiling; box, regions, diagonals for kind sudoku)",
    )
}

/// `[piece]` (one table: the chess kinds' piece) or `[[piece]]` (a list of tables: the
/// tiling kind's shapes).
#[derive(Debug)]
pub(super) enum RawPieces {
    One(RawPiece),
    Many(Vec<RawShape>),
}

fn piece_table<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawPieces>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = RawPieces;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(
                "a table [piece] with keys moves, leaps, rides, symbol, or tables [[piece]] \
                 with keys name, shape, count, turns (a tiling's shapes) or moves, symbol, \
                 count, given (independent and domination)",
            )
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawPieces, A::Error> {
            RawPiece::deserialize(de::value::MapAccessDeserializer::new(map)).map(RawPieces::One)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawPieces, A::Error> {
            Vec::<RawShape>::deserialize(de::value::SeqAccessDeserializer::new(seq))
                .map(RawPieces::Many)
        }
    }
    d.deserialize_any(V).map(Some)
}

fn pieces_table<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawPieceSet>, D::Error> {
    table(d, "a table [pieces] with keys set, turns")
}

fn rules_table<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawRules>, D::Error> {
    table(
        d,
        "a table [rules] with the keys of the puzzle's kind, among count, independent, closed, \
         start, colors, per_color, max_per_line, items, secondary, options, multiplicity, leave, fill, \
         given, givens, cages",
    )
}

fn solve_table<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RawSolve>, D::Error> {
    static EXPECTING: OnceLock<String> = OnceLock::new();
    let expecting = EXPECTING.get_or_init(|| {
        format!(
            "a table [solve] with keys {}",
            super::options::solve_keys().join(", ")
        )
    });
    table(d, expecting)
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBoard {
    pub(super) size: Option<Located<i64>>,
    pub(super) width: Option<Located<i64>>,
    pub(super) height: Option<Located<i64>>,
    pub(super) holes: Option<Vec<Located<SquareRef>>>,
    pub(super) depth: Option<Located<i64>>,
    pub(super) picture: Option<Located<String>>,
    pub(super) labels: Option<Located<String>>,
    /// Kind sudoku: the boxes' height and width, or "none".
    #[serde(rename = "box")]
    pub(super) boxes: Option<Located<RawBox>>,
    pub(super) regions: Option<Located<String>>,
    pub(super) diagonals: Option<Located<bool>>,
}

/// A sudoku's `box` as written: `[height, width]`, or a word ("none").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawBox {
    Sides(Vec<i64>),
    Word(String),
}

impl<'de> Deserialize<'de> for RawBox {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawBox;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("[height, width] or \"none\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawBox, E> {
                Ok(RawBox::Word(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawBox, A::Error> {
                let mut out = Vec::new();
                while let Some(n) = seq.next_element::<i64>()? {
                    out.push(n);
                }
                Ok(RawBox::Sides(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// One killer cage as written: its sum and its cells.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawCage {
    pub sum: Located<i64>,
    pub cells: Located<Vec<Located<SquareRef>>>,
}

/// One `[[piece]]`: of a tiling, a shape drawn as a picture, its name, how many, which turns;
/// of the chess kinds independent and domination, a piece of a mixed army, its moves and
/// symbol, how many and the squares it stands on before the search. The kind refuses the
/// other's keys.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawShape {
    pub(super) name: Option<Located<String>>,
    pub(super) shape: Option<Located<String>>,
    pub(super) count: Option<Located<RawCount>>,
    pub(super) turns: Option<Located<String>>,
    pub(super) moves: Option<Located<String>>,
    pub(super) leaps: Option<Located<Vec<[i64; 2]>>>,
    pub(super) rides: Option<Located<Vec<[i64; 2]>>>,
    pub(super) symbol: Option<Located<String>>,
    pub(super) given: Option<Located<Vec<Located<SquareRef>>>>,
}

/// `[pieces]`: named sets of shapes, and the turns their pieces take.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPieceSet {
    pub(super) set: Option<Located<OneOrMany>>,
    pub(super) turns: Option<Located<String>>,
}

/// A string, or a list of strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneOrMany(pub Vec<String>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a set's name or a list of names")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany(vec![s.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OneOrMany, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    out.push(s);
                }
                Ok(OneOrMany(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A piece's `count` as written: a whole number, or a text (`"0..2"`, `"any"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawCount {
    Whole(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for RawCount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawCount;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number, a range \"lo..hi\" or \"any\"")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<RawCount, E> {
                Ok(RawCount::Whole(n))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawCount, E> {
                Ok(RawCount::Text(s.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPiece {
    pub(super) moves: Option<Located<String>>,
    pub(super) leaps: Option<Located<Vec<[i64; 2]>>>,
    pub(super) rides: Option<Located<Vec<[i64; 2]>>>,
    pub(super) symbol: Option<Located<String>>,
}

/// A list of names, each with its place in the file.
pub type Names = Vec<Located<String>>;

/// `[rules]` as read: the union of every kind's keys, so that a key of another kind gets its
/// own message ([`Spec::parse`](super::Spec::parse) rejects it) rather than serde's. Nothing
/// outside this module sees it: the kinds receive their own keys alone, as a
/// [`KindSpec`](super::KindSpec).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRules {
    pub(super) count: Option<Located<i64>>,
    pub(super) independent: Option<Located<bool>>,
    pub(super) closed: Option<Located<bool>>,
    pub(super) start: Option<Located<SquareRef>>,
    pub(super) colors: Option<Located<Names>>,
    pub(super) per_color: Option<Located<i64>>,
    pub(super) max_per_line: Option<Located<i64>>,
    pub(super) items: Option<Located<Names>>,
    pub(super) secondary: Option<Located<Names>>,
    pub(super) options: Option<Located<Vec<Located<Names>>>>,
    pub(super) multiplicity: Option<Located<Multiplicity>>,
    pub(super) leave: Option<Located<i64>>,
    pub(super) fill: Option<Located<String>>,
    pub(super) givens: Option<Located<String>>,
    pub(super) cages: Option<Located<Vec<Located<RawCage>>>>,
    pub(super) given: Option<Located<Vec<Located<SquareRef>>>>,
}

/// Primary item name to its range `[lo, hi]`, as written.
pub type Multiplicity = BTreeMap<String, Located<Vec<i64>>>;

/// `[solve]`: the keys of the SOLVE table of options.rs (a test checks that each is read).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSolve {
    pub(super) goal: Option<Located<String>>,
    pub(super) strategy: Option<Located<String>>,
    pub(super) unique: Option<Located<bool>>,
    pub(super) prefixes: Option<Located<bool>>,
    pub(super) branch: Option<Located<String>>,
    pub(super) limit: Option<Located<i64>>,
    pub(super) time_limit: Option<Located<f64>>,
    pub(super) threads: Option<Located<i64>>,
    /// `[solve.options]`: a strategy's tuning knobs by group and name (`bnb.root_steps`).
    pub(super) options: Option<BTreeMap<String, BTreeMap<String, Located<f64>>>>,
}
