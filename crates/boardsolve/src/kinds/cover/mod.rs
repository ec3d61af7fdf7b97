//! `kind = "cover"`: generic exact cover straight from the file, on the Dancing Links core.
//! Primary items (with optional multiplicity ranges), secondary items, and options as lists
//! of item names, a secondary item optionally as "name:colour". A file in Knuth's format
//! arrives with its problem already built by the reader (spec/knuth.rs).

use std::sync::Arc;

mod bitmask;
mod dxz;
pub mod lists;
pub mod vocab;

pub use lists::{CoverLists, ListFault};
pub use vocab::CoverRefusal;

use super::Strategy;
use crate::dlx::{self, Branch, Problem, Solver};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::{Picture, Violation};
use crate::spec::{CoverSpec, Spec, SpecError};
use bitmask::Bitmask;

pub struct Model {
    /// Shared with the spec when the file was in Knuth's format: a large problem is not copied.
    pub problem: Arc<Problem>,
    /// Colour names; colour code k + 1 is `colours[k]`.
    colours: Vec<String>,
    /// Which primary item the search branches on (`branch`, `--branch`).
    pub branch: Branch,
}

/// Beyond this many option entries (item occurrences) the file is refused up front (the same
/// limit in either format).
pub const MAX_ENTRIES: usize = crate::spec::MAX_COVER_ENTRIES;

/// The largest `hi` of a multiplicity range `[lo, hi]` (2^30 - 1): far more than any item can
/// be covered, since each option covers it at most once.
pub const MAX_MULTIPLICITY: i64 = (1 << 30) - 1;

impl Model {
    pub fn compile(spec: &Spec, rules: &CoverSpec) -> Result<Model, SpecError> {
        let r = match rules {
            CoverSpec::Knuth(c) => {
                return Ok(Model {
                    problem: Arc::clone(&c.problem),
                    colours: c.colours.to_vec(),
                    branch: spec.solve.branch,
                });
            }
            CoverSpec::Lists(r) => r,
        };
        let items = r.items.as_ref().ok_or_else(|| {
            spec.err_nowhere(
                "rules.items",
                "missing: the primary items, a list of names, e.g. items = [\"a\", \"b\"]".into(),
            )
        })?;
        let options = r.options.as_ref().ok_or_else(|| {
            spec.err_nowhere(
                "rules.options",
                "missing: the options, lists of item names, e.g. options = [[\"a\", \"b\"]]".into(),
            )
        })?;
        let mut lists = CoverLists::new();
        let ranges = r.multiplicity.as_ref();
        for it in items.get_ref() {
            let name = it.get_ref();
            let range = ranges.and_then(|t| t.get_ref().get(name));
            let pair = range.map(|v| match v.get_ref()[..] {
                [lo, hi] => (lo, hi),
                // Not a pair: a range no pair can be, refused below with the list as written.
                _ => (1, 0),
            });
            lists.primary(name, pair).map_err(|f| match (&f, range) {
                (ListFault::BadRange(..), Some(v)) => spec.err(
                    v.span(),
                    &format!("rules.multiplicity.{name}"),
                    format!(
                        "{:?}: accepted: [lo, hi] with 0 <= lo <= hi and 1 <= hi <= \
                         {MAX_MULTIPLICITY}",
                        v.get_ref()
                    ),
                ),
                _ => spec.err(it.span(), "rules.items", f.message()),
            })?;
        }
        if let Some(t) = ranges {
            for key in t.get_ref().keys() {
                if !lists.has(key) {
                    return Err(spec.err(
                        t.span(),
                        &format!("rules.multiplicity.{key}"),
                        format!("\"{key}\" is not a primary item; ranges apply to primary items"),
                    ));
                }
            }
        }
        for it in r
            .secondary
            .as_ref()
            .map(|s| s.get_ref().as_slice())
            .unwrap_or(&[])
        {
            lists
                .secondary(it.get_ref())
                .map_err(|f| spec.err(it.span(), "rules.secondary", f.message()))?;
        }
        let total: usize = options.get_ref().iter().map(|o| o.get_ref().len()).sum();
        if total > MAX_ENTRIES {
            return Err(spec.err(
                options.span(),
                "rules.options",
                format!("{total} item occurrences; at most {MAX_ENTRIES}"),
            ));
        }
        for opt in options.get_ref() {
            let tokens = opt.get_ref();
            lists
                .option(tokens.iter().map(|t| t.get_ref().as_str()))
                .map_err(|(at, f)| {
                    let span = at.map_or(opt.span(), |k| tokens[k].span());
                    spec.err(span, "rules.options", f.message())
                })?;
        }
        let (problem, colours) = lists.finish();
        Ok(Model {
            problem: Arc::new(problem),
            colours,
            branch: spec.solve.branch,
        })
    }

    /// A problem built elsewhere (from lists, [`CoverLists`]), with its colour names.
    pub fn from_problem(problem: Problem, colours: Vec<String>, branch: Branch) -> Model {
        Model {
            problem: Arc::new(problem),
            colours,
            branch,
        }
    }

    /// Colour names; colour code k + 1 is `colours()[k]`.
    pub fn colours(&self) -> &[String] {
        &self.colours
    }

    pub fn picture(&self, options: &[usize]) -> Picture {
        Picture::Options(
            options
                .iter()
                .map(|&k| {
                    self.problem
                        .option(k)
                        .iter()
                        .map(|&(item, c)| {
                            let name = self.problem.item_name(item);
                            if c == 0 {
                                name.to_string()
                            } else {
                                format!("{name}:{}", self.colours[c as usize - 1])
                            }
                        })
                        .collect()
                })
                .collect(),
        )
    }

    pub fn check(&self, options: &[usize]) -> Result<(), Violation> {
        if dlx::is_solution(&self.problem, options) {
            Ok(())
        } else {
            Err(Violation::NotExactCover {
                options: options.to_vec(),
            })
        }
    }
}

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[&Dlx, &dxz::Dxz, &Bitmask];

pub use bitmask::preference;

struct Dlx;

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "Knuth's Algorithms X, C and M on the Dancing Links core"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.unique {
            return Err(CoverRefusal::Unique {
                break_in_options: true,
            }
            .into());
        }
        if m.branch == Branch::First && m.problem.has_multiplicities() {
            return Err(
                crate::kinds::exact_cover::ExactCoverRefusal::BranchFirstMultiplicities.into(),
            );
        }
        if matches!(task.goal, Goal::Minimize | Goal::Maximize) {
            return Err(CoverRefusal::NoObjective.into());
        }
        if let Some(why) = super::dlx_parts::refuses(task) {
            return Err(why);
        }
        Ok(())
    }
    fn needs(&self, m: &Model, task: &Task) -> Option<Need> {
        Some(super::dlx_parts::needs(&m.problem, task))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let mut solver = Solver::new(&m.problem);
        solver.set_branch(m.branch);
        super::dlx_parts::search(&mut solver, task, run)
    }
    fn splits(&self) -> bool {
        true
    }
}
