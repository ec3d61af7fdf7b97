//! `kind = "cover"`: generic exact cover straight from the file, on the Dancing Links core.
//! Primary items (with optional multiplicity ranges), secondary items, and options as lists
//! of item names, a secondary item optionally as "name:colour". A file in Knuth's format
//! arrives with its problem already built by the reader (spec/knuth.rs).

use std::collections::HashMap;
use std::sync::Arc;

mod dxz;
pub mod vocab;

pub use vocab::CoverRefusal;

use super::Strategy;
use crate::dlx::{self, Branch, Problem, Solver};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::{Picture, Violation};
use crate::spec::{CoverSpec, Spec, SpecError};

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
        let mut problem = Problem::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut primary = Vec::new();
        let ranges = r.multiplicity.as_ref();
        let name_ok =
            |n: &str| !n.is_empty() && !n.contains(':') && !n.contains(char::is_whitespace);
        for it in items.get_ref() {
            let name = it.get_ref();
            if !name_ok(name) {
                return Err(spec.err(
                    it.span(),
                    "rules.items",
                    format!(
                        "\"{name}\" is not an item name; accepted: non-empty, no spaces, no ':'"
                    ),
                ));
            }
            if index.contains_key(name) {
                return Err(spec.err(
                    it.span(),
                    "rules.items",
                    format!("item \"{name}\" is declared twice"),
                ));
            }
            let k = match ranges.and_then(|t| t.get_ref().get(name)) {
                None => problem.add_primary(name.clone()),
                Some(v) => match v.get_ref()[..] {
                    [lo, hi] if 0 <= lo && lo <= hi && (1..=MAX_MULTIPLICITY).contains(&hi) => {
                        problem.add_primary_range(name.clone(), lo as u32, hi as u32)
                    }
                    _ => {
                        return Err(spec.err(
                            v.span(),
                            &format!("rules.multiplicity.{name}"),
                            format!(
                                "{:?}: accepted: [lo, hi] with 0 <= lo <= hi and 1 <= hi <= \
                                 {MAX_MULTIPLICITY}",
                                v.get_ref()
                            ),
                        ));
                    }
                },
            };
            index.insert(name.clone(), k);
            primary.push(k);
        }
        if let Some(t) = ranges {
            for key in t.get_ref().keys() {
                if !index.contains_key(key) {
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
            let name = it.get_ref();
            if !name_ok(name) || index.contains_key(name) {
                return Err(spec.err(
                    it.span(),
                    "rules.secondary",
                    format!("\"{name}\" is a repeated or malformed item name"),
                ));
            }
            let k = problem.add_secondary(name.clone());
            index.insert(name.clone(), k);
        }
        let total: usize = options.get_ref().iter().map(|o| o.get_ref().len()).sum();
        if total > MAX_ENTRIES {
            return Err(spec.err(
                options.span(),
                "rules.options",
                format!("{total} item occurrences; at most {MAX_ENTRIES}"),
            ));
        }
        let mut colours: Vec<String> = Vec::new();
        let mut buf = Vec::new();
        for opt in options.get_ref() {
            buf.clear();
            for tok in opt.get_ref() {
                let t = tok.get_ref();
                let (name, colour) = match t.split_once(':') {
                    Some((n, c)) => (n, Some(c)),
                    None => (t.as_str(), None),
                };
                let &item = index.get(name).ok_or_else(|| {
                    spec.err(
                        tok.span(),
                        "rules.options",
                        format!("\"{name}\" is not a declared item (items or secondary)"),
                    )
                })?;
                let code = match colour {
                    None => 0,
                    Some("") => {
                        return Err(spec.err(
                            tok.span(),
                            "rules.options",
                            format!("\"{t}\": the colour after ':' is empty"),
                        ));
                    }
                    Some(_) if item < problem.num_primary() => {
                        return Err(spec.err(
                            tok.span(),
                            "rules.options",
                            format!("\"{t}\": only secondary items take a colour"),
                        ));
                    }
                    Some(c) => match colours.iter().position(|x| x == c) {
                        Some(p) => p as u32 + 1,
                        None => {
                            colours.push(c.to_string());
                            colours.len() as u32
                        }
                    },
                };
                buf.push((item, code));
            }
            problem
                .add_option(&buf)
                .map_err(|e| spec.err(opt.span(), "rules.options", e.to_string()))?;
        }
        Ok(Model {
            problem: Arc::new(problem),
            colours,
            branch: spec.solve.branch,
        })
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

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[&Dlx, &dxz::Dxz];

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
