//! An exact cover built from lists of names: primary items (each with an optional
//! multiplicity range), secondary items, and options as lists of item names, a secondary
//! item optionally as "name:colour". The puzzle file's `rules.items`/`rules.options` and the
//! Python package's `exact_cover` lists both come here; each caller says where a fault is
//! in its own terms (a line of the file, an index into a list).

use std::collections::HashMap;

use crate::dlx::Problem;

use super::MAX_MULTIPLICITY;

/// What is wrong with one name, range or option; the caller knows where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListFault {
    /// Empty, or with a space or ':'.
    BadName(String),
    /// Declared twice (as items, secondary items, or both).
    Repeated(String),
    /// A multiplicity range outside `0 <= lo <= hi`, `1 <= hi <= MAX_MULTIPLICITY`.
    BadRange(i64, i64),
    /// An option names an item that was not declared.
    Unknown(String),
    /// "name:" with nothing after the colon.
    EmptyColour(String),
    /// A colour with a ':' or a space: "x:r:g" would be item x in colour "r:g", which
    /// Knuth's format (`knuth-input`) cannot write and a second colour was likely meant.
    BadColour(String),
    /// A primary item given a colour.
    ColouredPrimary(String),
    /// The option as a whole is refused by the core (empty, or an item twice).
    Option(String),
}

impl ListFault {
    /// In words, for the error that names where it is.
    pub fn message(&self) -> String {
        match self {
            ListFault::BadName(n) => {
                format!("\"{n}\" is not an item name; accepted: non-empty, no spaces, no ':'")
            }
            ListFault::Repeated(n) => format!("item \"{n}\" is declared twice"),
            ListFault::BadRange(lo, hi) => format!(
                "[{lo}, {hi}]: accepted: [lo, hi] with 0 <= lo <= hi and 1 <= hi <= \
                 {MAX_MULTIPLICITY}"
            ),
            ListFault::Unknown(n) => {
                format!("\"{n}\" is not a declared item (items or secondary)")
            }
            ListFault::EmptyColour(t) => format!("\"{t}\": the colour after ':' is empty"),
            ListFault::BadColour(t) => format!(
                "\"{t}\": an item takes one colour, and a colour holds no ':' and no spaces; \
                 accepted: name:colour"
            ),
            ListFault::ColouredPrimary(t) => {
                format!("\"{t}\": only secondary items take a colour")
            }
            ListFault::Option(e) => e.clone(),
        }
    }
}

/// A problem being built from names.
#[derive(Default)]
pub struct CoverLists {
    problem: Problem,
    index: HashMap<String, usize>,
    colours: Vec<String>,
    buf: Vec<(usize, u32)>,
}

fn name_ok(n: &str) -> bool {
    !n.is_empty() && !n.contains(':') && !n.contains(char::is_whitespace)
}

impl CoverLists {
    pub fn new() -> CoverLists {
        CoverLists::default()
    }

    /// Whether `name` is a declared item.
    pub fn has(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    fn fresh(&self, name: &str) -> Result<(), ListFault> {
        if !name_ok(name) {
            return Err(ListFault::BadName(name.into()));
        }
        if self.index.contains_key(name) {
            return Err(ListFault::Repeated(name.into()));
        }
        Ok(())
    }

    /// A primary item, covered exactly once, or between `lo` and `hi` times.
    pub fn primary(&mut self, name: &str, range: Option<(i64, i64)>) -> Result<(), ListFault> {
        self.fresh(name)?;
        let k = match range {
            None => self.problem.add_primary(name),
            Some((lo, hi)) if 0 <= lo && lo <= hi && (1..=MAX_MULTIPLICITY).contains(&hi) => {
                self.problem.add_primary_range(name, lo as u32, hi as u32)
            }
            Some((lo, hi)) => return Err(ListFault::BadRange(lo, hi)),
        };
        self.index.insert(name.into(), k);
        Ok(())
    }

    /// A secondary item: covered at most once, or by options that agree on its colour.
    pub fn secondary(&mut self, name: &str) -> Result<(), ListFault> {
        self.fresh(name)?;
        let k = self.problem.add_secondary(name);
        self.index.insert(name.into(), k);
        Ok(())
    }

    /// One option from its tokens; a fault names the token (its index) where there is one.
    pub fn option<'t>(
        &mut self,
        tokens: impl IntoIterator<Item = &'t str>,
    ) -> Result<(), (Option<usize>, ListFault)> {
        self.buf.clear();
        for (at, t) in tokens.into_iter().enumerate() {
            let (name, colour) = match t.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (t, None),
            };
            let fault = |f| (Some(at), f);
            let &item = self
                .index
                .get(name)
                .ok_or_else(|| fault(ListFault::Unknown(name.into())))?;
            let code = match colour {
                None => 0,
                Some("") => return Err(fault(ListFault::EmptyColour(t.into()))),
                Some(c) if !name_ok(c) => return Err(fault(ListFault::BadColour(t.into()))),
                Some(_) if item < self.problem.num_primary() => {
                    return Err(fault(ListFault::ColouredPrimary(t.into())));
                }
                Some(c) => match self.colours.iter().position(|x| x == c) {
                    Some(p) => p as u32 + 1,
                    None => {
                        self.colours.push(c.to_string());
                        self.colours.len() as u32
                    }
                },
            };
            self.buf.push((item, code));
        }
        self.problem
            .add_option(&self.buf)
            .map(|_| ())
            .map_err(|e| (None, ListFault::Option(e.to_string())))
    }

    /// The problem and its colour names (colour code k + 1 is `colours[k]`).
    pub fn finish(self) -> (Problem, Vec<String>) {
        (self.problem, self.colours)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> CoverLists {
        let mut l = CoverLists::new();
        l.primary("a", None).unwrap();
        l.secondary("x").unwrap();
        l
    }

    #[test]
    fn a_colour_holds_no_colon_and_no_space() {
        for bad in ["x:r:g", "x:r:", "x:r g"] {
            let (at, f) = lists().option(["a", bad]).unwrap_err();
            assert_eq!(at, Some(1), "{bad}");
            assert_eq!(f, ListFault::BadColour(bad.into()));
            assert!(
                f.message().contains("accepted: name:colour"),
                "{}",
                f.message()
            );
        }
        let mut l = lists();
        l.option(["a", "x:red"]).unwrap();
        assert_eq!(l.finish().1, ["red"]);
    }
}
