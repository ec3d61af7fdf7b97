//! `solve compare`: several strategies on one puzzle (or a sweep of sizes), side by side, and
//! a check that they agree.

use std::io::Write;

use boardsolve::engine::{Outcome, Status};
use boardsolve::render;

use super::args::{CompareCli, limits};
use super::fail;
use super::load::load;
use super::run::{clock, run_one};

/// Solutions are only counted here.
fn ignore(_: &[usize]) -> std::ops::ControlFlow<()> {
    std::ops::ControlFlow::Continue(())
}

/// The answer strategies must agree on.
fn verdict(o: &Outcome) -> String {
    match (o.status, o.answer.optimum, o.answer.count) {
        (Status::NoSolution, _, _) => "no solution".into(),
        (_, Some(v), Some(c)) => format!("optimum {v}, {}", render::group(c)),
        (_, Some(v), _) => format!("optimum {v}"),
        (_, None, Some(c)) => render::group(c),
        _ => "?".into(),
    }
}

pub(crate) fn compare(cli: CompareCli) -> u8 {
    let sizes: Option<(usize, usize)> = match &cli.flags.sizes {
        None => None,
        Some(r) => match r.split_once("..").map(|(a, b)| (a.parse(), b.parse())) {
            Some((Ok(a), Ok(b))) if a >= 1 && a <= b => Some((a, b)),
            _ => {
                return fail(format!(
                    "--size {r}: accepted: A..B with 1 <= A <= B, e.g. 4..14"
                ));
            }
        },
    };
    let budget = cli.common.time_limit.unwrap_or(cli.flags.budget);
    let first = match load(&cli.file, &cli.common, sizes.map(|s| s.0)) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    // The largest size of a sweep is checked before the first is solved: a range the kind
    // refuses at its end is refused at once, not after every size below.
    if let Some((a, b)) = sizes
        && b > a
        && let Err(e) = crate::cli::load::check_size(&cli.file, &cli.common, b)
    {
        return fail(format!("--size {a}..{b}: {e}"));
    }
    let all: Vec<&'static str> = first
        .model
        .strategies(&first.task)
        .iter()
        .map(|s| s.name)
        .collect();
    let names: Vec<String> = if cli.flags.strategies.is_empty() {
        first
            .model
            .strategies(&first.task)
            .into_iter()
            .filter(|s| s.applies.is_ok() || sizes.is_some())
            .map(|s| s.name.to_string())
            .collect()
    } else {
        for n in &cli.flags.strategies {
            if !all.contains(&n.as_str()) {
                return fail(format!(
                    "unknown strategy \"{n}\"; accepted: {}",
                    all.join(", ")
                ));
            }
        }
        cli.flags.strategies.clone()
    };
    let lim = |goal| limits(cli.common.node_limit, goal, Some(budget));
    match sizes {
        None => {
            outln!(
                "{}: {} ({}), goal {}, budget {budget} s",
                cli.file,
                first.spec.kind().name(),
                render::summary_text(&first.model.describe_as_written(&first.spec)),
                first.task.goal.name()
            );
            outln!(
                "{:<10} {:>22} {:>16} {:>12} {:>14}",
                "strategy",
                "answer",
                "nodes",
                "time",
                "nodes/s"
            );
            let mut finished: Vec<(String, String)> = Vec::new();
            let statuses = first.model.strategies(&first.task);
            for name in &names {
                if let Some(Err(why)) = statuses.iter().find(|s| s.name == name).map(|s| &s.applies)
                {
                    outln!("{name:<10} {:>22}  ({})", "-", render::refusal_text(why));
                    continue;
                }
                let limits = lim(first.task.goal);
                match run_one(&first, name, limits, clock(Some(budget)), false, ignore) {
                    Ok(c) => {
                        // A tour whose check the budget stopped did not finish either.
                        let over = c.outcome.status == Status::Limit || c.unchecked.is_some();
                        let o = c.outcome;
                        let secs = o.elapsed.as_secs_f64();
                        let answer = if over {
                            "- (budget)".to_string()
                        } else {
                            verdict(&o)
                        };
                        outln!(
                            "{name:<10} {answer:>22} {:>16} {:>12} {:>14}",
                            render::group(o.stats.nodes as u128),
                            render::duration(secs),
                            render::group((o.stats.nodes as f64 / secs.max(1e-9)) as u128)
                        );
                        if !over {
                            finished.push((name.clone(), verdict(&o)));
                        }
                    }
                    Err(e) => return fail(e),
                }
            }
            disagreement(&finished).map_or(0, fail)
        }
        Some((a, b)) => {
            out!("{:>4} {:>22}", "size", "answer");
            for n in &names {
                out!(" {n:>12}");
            }
            outln!();
            let mut over: Vec<bool> = vec![false; names.len()];
            for size in a..=b {
                let l = match load(&cli.file, &cli.common, Some(size)) {
                    Ok(l) => l,
                    Err(e) => return fail(e),
                };
                let statuses = l.model.strategies(&l.task);
                let mut cells = Vec::new();
                let mut finished: Vec<(String, String)> = Vec::new();
                for (i, name) in names.iter().enumerate() {
                    let applies = statuses
                        .iter()
                        .find(|s| s.name == name)
                        .map(|s| s.applies.is_ok())
                        .unwrap_or(false);
                    if over[i] || !applies {
                        cells.push("-".to_string());
                        continue;
                    }
                    let limits = lim(l.task.goal);
                    match run_one(&l, name, limits, clock(Some(budget)), false, ignore) {
                        Ok(c) if c.outcome.status == Status::Limit || c.unchecked.is_some() => {
                            over[i] = true;
                            cells.push("-".into());
                        }
                        Ok(c) => {
                            let o = c.outcome;
                            cells.push(render::duration(o.elapsed.as_secs_f64()));
                            finished.push((name.clone(), verdict(&o)));
                        }
                        Err(e) => return fail(e),
                    }
                }
                let answer = finished.first().map(|f| f.1.clone()).unwrap_or("-".into());
                out!("{size:>4} {answer:>22}");
                for c in &cells {
                    out!(" {c:>12}");
                }
                outln!();
                let _ = std::io::stdout().flush();
                if let Some(e) = disagreement(&finished) {
                    return fail(format!("size {size}: {e}"));
                }
            }
            0
        }
    }
}

fn disagreement(finished: &[(String, String)]) -> Option<String> {
    let (n0, v0) = finished.first()?;
    finished
        .iter()
        .find(|(_, v)| v != v0)
        .map(|(n, v)| format!("strategies disagree: {n0} says {v0}, {n} says {v}"))
}
