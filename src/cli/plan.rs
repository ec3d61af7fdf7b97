//! `solve plan`: the commands that run a search's parts, one a line for GNU Parallel or
//! xargs, or a Slurm job-array script; with `--estimate`, the parts sized and the largest
//! first.

use boardsolve::engine::merge::Missing;
use boardsolve::engine::{PartialWork, Run};
use boardsolve::render;

use super::args::{PlanCli, common_args, limits, shell_word};
use super::load::{load, resolve_strategy};
use super::parts::{part_command, program_name};
use super::{USAGE_ERROR, fail};

/// Parts a plan cuts at most, as `--part` takes them.
const MAX_PARTS: usize = 100_000;

pub(crate) fn plan(cli: PlanCli) -> u8 {
    if cli.parts == 0 || cli.parts > MAX_PARTS {
        return fail(format!("--parts {}: accepted: 1 to {MAX_PARTS}", cli.parts));
    }
    if cli.common.part.is_some() {
        return fail("--part: a plan cuts the parts itself (--parts N)");
    }
    let mut common = cli.common.clone();
    common.part = Some(format!("1/{}", cli.parts));
    let probes = common.estimate.take();
    let (mut l, strategy) =
        match load(&cli.file, &common, None).and_then(|l| resolve_strategy(&l).map(|s| (l, s))) {
            Ok(x) => x,
            Err(e) => return fail(e),
        };
    // The parts run the strategy chosen here, whatever `auto` would pick on another machine.
    let mut args = common_args(&cli.common);
    if cli.common.strategy.is_none() {
        args.extend(["--strategy".into(), strategy.clone()]);
    }
    let mut order: Vec<usize> = (1..=cli.parts).collect();
    let mut sizes: Vec<Option<f64>> = vec![None; cli.parts + 1];
    if let Some(probes) = probes {
        if probes == 0 {
            return fail("--estimate: accepted: a number of probes, at least 1");
        }
        for (i, size) in sizes.iter_mut().enumerate().skip(1) {
            l.task.part = Some((i, cli.parts));
            l.task.estimate = Some(probes);
            let limits = limits(cli.common.node_limit, l.task.goal, l.spec.solve.time_limit);
            let run = Run::new(limits).with_clock(super::run::clock(l.spec.solve.time_limit));
            match l.model.solve_checked(&strategy, &l.task, run, 0) {
                Ok(c) => {
                    *size = c.outcome.answer.partial.and_then(|p| match p.work {
                        PartialWork::Estimated(Some(e)) => Some(e.work_seconds),
                        _ => None,
                    })
                }
                Err(e) => return fail(e),
            }
        }
        // Largest first: the longest parts start at once, the short ones fill in at the end.
        order.sort_by(|a, b| {
            sizes[*b]
                .unwrap_or(0.0)
                .total_cmp(&sizes[*a].unwrap_or(0.0))
        });
    }
    let program = program_name();
    let missing = |i: usize| Missing {
        part: (i, cli.parts),
        subpart: None,
    };
    let mut out = String::new();
    if cli.slurm {
        let stem = std::path::Path::new(&cli.file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "puzzle".into());
        // A task runs on the cores Slurm gives it: the plan's own --threads, else one.
        let threads = cli.common.threads.unwrap_or(1);
        if cli.common.threads.is_none() {
            args.extend(["--threads".into(), "${SLURM_CPUS_PER_TASK:-1}".into()]);
        }
        out.push_str("#!/bin/bash\n");
        out.push_str(&format!(
            "#SBATCH --job-name={}\n",
            shell_word(&format!("solve-{stem}"))
        ));
        out.push_str(&format!("#SBATCH --array=1-{}\n", cli.parts));
        out.push_str(&format!("#SBATCH --cpus-per-task={threads}\n"));
        out.push_str("#SBATCH --output=slurm-%A_%a.out\n");
        out.push_str(&format!(
            "# {} parts of {}; each task writes its record to {}/. When all have run:\n#   {} merge {}/*.jsonl\n",
            cli.parts,
            cli.file,
            cli.results,
            shell_word(&program),
            shell_word(cli.results.trim_end_matches('/'))
        ));
        out.push_str("set -eu\n");
        let list: Vec<String> = order.iter().map(|i| i.to_string()).collect();
        out.push_str(&format!("parts=({})\n", list.join(" ")));
        out.push_str("i=${parts[$((SLURM_ARRAY_TASK_ID - 1))]}\n");
        // The part's number comes from the array task at run time.
        let mut words: Vec<String> = [program.as_str(), cli.file.as_str()]
            .iter()
            .chain(args.iter().map(String::as_str).collect::<Vec<_>>().iter())
            // The task's cores are read when it runs: that word is left to the shell.
            .map(|w| {
                if w.starts_with("${") {
                    format!("\"{w}\"")
                } else {
                    shell_word(w)
                }
            })
            .collect();
        let dir = cli.results.trim_end_matches('/');
        words.push(format!("--part \"$i/{}\"", cli.parts));
        words.push(format!("--record {}/part-\"$i\".jsonl", shell_word(dir)));
        let cmd = words.join(" ");
        out.push_str(&format!("exec {cmd}\n"));
    } else {
        for &i in &order {
            out.push_str(&part_command(
                &program,
                &cli.file,
                &args,
                &missing(i),
                &cli.results,
            ));
            if let Some(s) = sizes[i] {
                out.push_str(&format!(
                    "  # about {} of one thread's work",
                    render::duration(s)
                ));
            }
            out.push('\n');
        }
    }
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    if w.write_all(out.as_bytes()).and_then(|_| w.flush()).is_err() {
        return USAGE_ERROR;
    }
    0
}
