//! From a file name and flags to a compiled puzzle and its task.

use std::io::Read;

use boardsolve::engine::{Clock, Task};
use boardsolve::kinds::Model;
use boardsolve::render::Header;
use boardsolve::spec::{Overrides, SolveOverrides, Spec};

use super::args::{Common, parse_memory, parse_parts};
use super::knuth::reads_knuth;
use super::memory::default_budget;

pub(crate) fn read_input(file: &str) -> Result<String, String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("<stdin>: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read the puzzle: {e}"))
    }
}

/// A puzzle file read, validated and compiled, with the task the options ask for.
pub(crate) struct Loaded {
    pub(crate) spec: Spec,
    pub(crate) model: Model,
    pub(crate) task: Task,
    pub(crate) strategy: String,
    /// What the command line changed (`--size`, `--width`, `--height`, `--set`): the file's
    /// title may name another size or rule, so the header says which.
    pub(crate) changes: Vec<String>,
    /// The strategy was named by `--strategy`, not by the file's `solve.strategy`.
    pub(crate) strategy_flag: bool,
    /// The time limit, from the moment the file was read: building the model, the search
    /// and writing the answer all count.
    pub(crate) clock: Clock,
}

/// Whether the puzzle takes board size `size`, by the file's checks alone (nothing compiled,
/// nothing allocated for the board). Standard input, read once already, is not checked.
pub(crate) fn check_size(file: &str, common: &Common, size: usize) -> Result<(), String> {
    if file == "-" {
        return Ok(());
    }
    let text = read_input(file)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let overrides = Overrides {
        set: common.set.clone(),
        size: Some(size),
        width: common.width,
        height: common.height,
        solve: SolveOverrides::default(),
    };
    parse(file, name, &text, common, &overrides)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The file read in its format: TOML, or Knuth's exact-cover format (`--input knuth`, or a
/// file named *.dlx, *.xcc or *.mcc).
fn parse(
    file: &str,
    name: &str,
    text: &str,
    common: &Common,
    overrides: &Overrides,
) -> Result<Spec, boardsolve::spec::SpecError> {
    if reads_knuth(file, common) {
        Spec::parse_knuth(name, text, overrides)
    } else {
        Spec::parse(name, text, overrides)
    }
}

pub(crate) fn load(file: &str, common: &Common, size: Option<usize>) -> Result<Loaded, String> {
    let text = read_input(file)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let overrides = Overrides {
        set: common.set.clone(),
        size: size.or(common.size),
        width: common.width,
        height: common.height,
        solve: SolveOverrides {
            goal: common.goal.clone(),
            strategy: common.strategy.clone(),
            unique: common.unique,
            prefixes: common.prefixes,
            branch: common.branch.clone(),
            limit: common.limit,
            time_limit: common.time_limit,
            threads: common.threads,
        },
    };
    let spec = parse(file, name, &text, common, &overrides).map_err(|e| e.to_string())?;
    let clock = super::run::clock_since(super::run::process_start(), spec.solve.time_limit);
    let goal = spec.solve.goal.unwrap_or(spec.kind.default_goal());
    // All the cores by default: the strategies that split share their subtrees among them,
    // the others take one; `--threads 1` (or `solve.threads = 1`) keeps a run on one.
    let threads = spec
        .solve
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (part, subpart) = match common.part.as_deref().map(parse_parts).transpose()? {
        Some((p, sub)) => (Some(p), sub),
        None => (None, None),
    };
    if common.node_limit == Some(0) {
        return Err("--node-limit 0: accepted: 1 or more nodes".into());
    }
    if common.estimate == Some(0) {
        return Err("--estimate: accepted: a number of probes, at least 1".into());
    }
    let memory = match common.memory.as_deref() {
        Some(m) => Some(parse_memory(m)?),
        None => default_budget(),
    };
    let task = Task {
        goal,
        unique: spec.solve.unique,
        prefixes: spec.solve.prefixes,
        threads,
        part,
        subpart,
        estimate: common.estimate,
        optimum: common.optimum,
        memory,
        branch: spec.solve.branch,
    };
    let model = Model::compile(&spec).map_err(|e| e.to_string())?;
    let strategy = spec.solve.strategy.clone().unwrap_or_else(|| "auto".into());
    // A set that changes the board's dimensions shows as the new size; any other set (the
    // holes, say) as itself.
    let resizes = |kv: &&String| {
        let key = kv.split_once('=').map_or(kv.as_str(), |(k, _)| k).trim();
        matches!(key, "board.size" | "board.width" | "board.height")
    };
    let changed = overrides.size.is_some()
        || overrides.width.is_some()
        || overrides.height.is_some()
        || overrides.set.iter().any(|kv| resizes(&kv));
    let mut changes: Vec<String> = spec
        .board
        .as_ref()
        .filter(|_| changed)
        .map(|b| format!("board {}x{}", b.width, b.height))
        .into_iter()
        .collect();
    changes.extend(
        overrides
            .set
            .iter()
            .filter(|kv| !resizes(kv))
            .map(|kv| kv.trim().to_string()),
    );
    Ok(Loaded {
        spec,
        model,
        task,
        strategy,
        changes,
        strategy_flag: common.strategy.is_some(),
        clock,
    })
}

/// The strategy that runs, checked against the task before any search: a named one must exist
/// and apply, `auto` must find one. Refusals say where the choice came from: the file's
/// `solve.strategy` (with its line), `--strategy`, or the puzzle as a whole.
pub(crate) fn resolve_strategy(l: &Loaded) -> Result<String, String> {
    if l.strategy != "auto" {
        return match l.model.applies(&l.strategy, &l.task) {
            Ok(()) => Ok(l.strategy.clone()),
            Err(why) if l.strategy_flag => Err(format!("--strategy {}: {why}", l.strategy)),
            Err(why) => Err(l.spec.err_nowhere("solve.strategy", why).to_string()),
        };
    }
    let name = &l.spec.file;
    auto_strategy(l).map_err(|why| format!("{name}: {why}"))
}

fn auto_strategy(l: &Loaded) -> Result<String, String> {
    l.model
        .auto_strategy(&l.task)
        .map(str::to_string)
        .ok_or_else(|| {
            let all = l.model.strategies(&l.task);
            let reasons: Vec<&String> = all
                .iter()
                .filter_map(|s| s.applies.as_ref().err())
                .collect();
            // One reason for all of them (an option no strategy of the kind takes): once.
            if let Some(first) = reasons.first()
                && reasons.len() == all.len()
                && reasons.iter().all(|r| r == first)
            {
                return format!("no strategy applies to this puzzle: {first}");
            }
            let why: Vec<String> = all
                .iter()
                .filter_map(|s| s.applies.as_ref().err().map(|e| format!("{}: {e}", s.name)))
                .collect();
            format!(
                "no strategy applies to this puzzle:\n  {}",
                why.join("\n  ")
            )
        })
}

pub(crate) fn header(l: &Loaded) -> Header {
    let syms = match &l.model {
        Model::Independent(m) => m.symmetry_count(),
        // A tour's symmetries are permutations of its squares, large on a large board: found
        // only when they are asked for.
        Model::Tour(m) if l.task.unique => m.symmetry_count(),
        Model::Tour(_) | Model::Cover(_) => 1,
        Model::Lines(m) => m.symmetries.len(),
        Model::Domination(m) => m.symmetries.len(),
    };
    Header {
        title: l.spec.title.as_ref().map(|t| {
            if l.changes.is_empty() {
                t.clone()
            } else {
                format!(
                    "{t} [changed on the command line: {}]",
                    l.changes.join(", ")
                )
            }
        }),
        kind: l.spec.kind.name().into(),
        goal: l.task.goal.name().into(),
        counted: if l.task.unique {
            format!("classes under {syms} symmetries")
        } else {
            "solutions".into()
        },
    }
}
