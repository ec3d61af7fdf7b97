//! The raw document model: the serde structs that mirror the file's tables, and the
//! [`Located`] values and [`SquareRef`]s inside them. Each value keeps its byte span, so the
//! checks in the other files can point at its line long after the TOML is gone.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
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
pub(super) struct RawSpec {
    pub(super) title: Option<Located<String>>,
    pub(super) kind: Option<Located<String>>,
    pub(super) board: Option<RawBoard>,
    pub(super) piece: Option<RawPiece>,
    pub(super) rules: Option<Rules>,
    pub(super) solve: Option<RawSolve>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBoard {
    pub(super) size: Option<Located<i64>>,
    pub(super) width: Option<Located<i64>>,
    pub(super) height: Option<Located<i64>>,
    pub(super) holes: Option<Vec<Located<SquareRef>>>,
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

/// `[rules]`: the union of every kind's keys; [`Spec::parse`](super::Spec::parse) rejects keys the kind does not
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
    /// Kind cover read from Knuth's format (no TOML): the problem, built and checked as it
    /// was read.
    #[serde(skip)]
    pub exact_cover: Option<super::knuth::ExactCover>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSolve {
    pub(super) goal: Option<Located<String>>,
    pub(super) strategy: Option<Located<String>>,
    pub(super) unique: Option<Located<bool>>,
    pub(super) limit: Option<Located<i64>>,
    pub(super) time_limit: Option<Located<f64>>,
    pub(super) threads: Option<Located<i64>>,
    /// `[solve.options]`: a strategy's tuning knobs by group and name (`bnb.root_steps`).
    pub(super) options: Option<BTreeMap<String, BTreeMap<String, Located<f64>>>>,
}
