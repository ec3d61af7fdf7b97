//! `solve plan`: the commands that run a search's parts (or one part's subparts), one a line
//! for GNU Parallel or xargs, or a Slurm job-array script; with `--estimate`, the parts
//! sized and the largest first. The plan is written beside the records too (`plan.json`),
//! so that `solve merge` knows every unit before any has run.

use std::ffi::OsString;

use boardsolve::engine::merge::Missing;
use boardsolve::engine::record::{FINGERPRINT_SCHEME, PLAN_TAG, PlanRecord, hex};
use boardsolve::engine::{PartialWork, Run, StopReason, Task, TreeEstimate};
use boardsolve::render;

use super::args::{PlanCli, common_args, limits, parse_parts, shell_word};
use super::load::{Loaded, check_range, load, resolve_strategy};
use super::parts::{check_command_word, command_line, part_command, program_words, write_whole};
use super::{USAGE_ERROR, fail};

/// The manifest's name in the results folder.
const PLAN_FILE: &str = "plan.json";

/// The node limit of the first run that finds the list's length; each next run takes this
/// many times more.
const LIST_NODES: u64 = 1 << 16;
const LIST_NODES_GROWTH: u64 = 16;

/// `solve plan`, its commands run by `program`'s words ([`program_words`]).
pub(crate) fn plan(cli: PlanCli, program: &[OsString]) -> u8 {
    match plan_of(&cli, program) {
        Ok(code) => code,
        Err(e) => fail(e),
    }
}

/// What one plan cuts: the search into parts, or one part (`--part I/N`) into subparts.
#[derive(Clone, Copy)]
struct Cutting {
    outer: Option<(usize, usize)>,
}

impl Cutting {
    /// Unit `k` of `count`.
    fn unit(self, k: usize, count: usize) -> Missing {
        match self.outer {
            Some(part) => Missing {
                part,
                subpart: Some((k, count)),
            },
            None => Missing {
                part: (k, count),
                subpart: None,
            },
        }
    }

    fn units_word(self, count: usize) -> &'static str {
        match (self.outer, count) {
            (None, 1) => "part",
            (None, _) => "parts",
            (Some(_), 1) => "subpart",
            (Some(_), _) => "subparts",
        }
    }
}

fn plan_of(cli: &PlanCli, program: &[OsString]) -> Result<u8, String> {
    let made = make_plan(cli, &program_words(program)?)?;
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    if let Err(e) = w
        .write_all(made.commands.as_bytes())
        .and_then(|_| w.flush())
    {
        // A reader that closed the pipe wants nothing more; any other failure is said.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Ok(USAGE_ERROR);
        }
        return Ok(fail(format!("writing the plan's commands: {e}")));
    }
    let mut text = serde_json::to_string_pretty(&made.manifest).expect("a plan serialises");
    text.push('\n');
    write_whole(
        &format!("--results {}", cli.flags.results),
        &made.path,
        text.as_bytes(),
    )?;
    Ok(0)
}

/// A plan made, not yet written.
struct Made {
    /// The commands (one a line), or the Slurm script.
    commands: String,
    manifest: PlanRecord,
    /// Where the manifest goes.
    path: String,
}

/// The plan of `cli`, its commands run by `program` (checked words, [`program_words`]).
fn make_plan(cli: &PlanCli, program: &[String]) -> Result<Made, String> {
    // Every word of the commands: a control character in any of them would break a line
    // apart for a runner that reads a command a line, and the script's lines besides.
    check_command_word("the puzzle file", &cli.file)?;
    if cli.file == "-" {
        return Err(
            "-: a plan's parts each read the puzzle again: accepted: the puzzle file's path".into(),
        );
    }
    check_command_word("--results", &cli.flags.results)?;
    let mut args = common_args(&cli.common);
    for a in &args {
        check_command_word("the argument", a)?;
    }
    let outer = match cli.common.part.as_deref().map(parse_parts).transpose()? {
        None => None,
        Some((part, None)) => Some(part),
        Some((part, Some(_))) => {
            return Err(format!(
                "--part {}: a plan splits one part into subparts: accepted: I/N, e.g. {}/{} \
                 (with --parts M for its M subparts)",
                cli.common.part.as_deref().unwrap_or_default(),
                part.0,
                part.1
            ));
        }
    };
    let cutting = Cutting { outer };
    let mut common = cli.common.clone();
    common.part = Some(render::part_arg(&cutting.unit(1, cli.flags.parts)));
    let probes = common.estimate.take();
    check_range("estimate", probes)?;
    let mut l = load(&cli.file, &common, None)?;
    let strategy = resolve_strategy(&l)?;
    if let Some(note) = whole_run_note(&l, &strategy) {
        errln!("{note}");
    }
    // The parts run the strategy chosen here, whatever `auto` would pick on another machine.
    if cli.common.strategy.is_none() {
        args.extend(["--strategy".into(), strategy.clone()]);
    }
    let count = match list_length(&mut l, &strategy, cutting, cli.flags.parts)? {
        Some(found) if found < cli.flags.parts => {
            let k = found.max(1);
            let (what, into) = match outer {
                None => ("the search".to_string(), "subtree"),
                Some((i, n)) => (format!("part {i}/{n}"), "descendant"),
            };
            let plural = if found == 1 { "" } else { "s" };
            errln!(
                "{what} splits into {found} {into}{plural}; planning {k} {} (of the {} asked, \
                 the others would search nothing)",
                cutting.units_word(k),
                cli.flags.parts
            );
            k
        }
        _ => cli.flags.parts,
    };
    let mut order: Vec<usize> = (1..=count).collect();
    let mut sizes: Vec<Option<TreeEstimate>> = vec![None; count + 1];
    if let Some(probes) = probes {
        for (k, size) in sizes.iter_mut().enumerate().skip(1) {
            let x = cutting.unit(k, count);
            l.task.part = Some(x.part);
            l.task.subpart = x.subpart;
            l.task.estimate = Some(probes);
            let limits = limits(cli.common.node_limit, l.task.goal, l.spec.solve.time_limit);
            let run = Run::new(limits).with_clock(super::clock::clock(l.spec.solve.time_limit));
            let c = l
                .model
                .solve_checked(&strategy, &l.task, run, 0)
                .map_err(|e| e.to_string())?;
            *size = c.outcome.answer.partial.and_then(|p| match p.work {
                PartialWork::Estimated(e) => e,
                _ => None,
            });
        }
        // Largest first: the longest parts start at once, the short ones fill in at the end.
        // By the estimated nodes, which the seeded probes make the same in every plan of the
        // job (times vary from run to run): a plan made again numbers its tasks alike.
        let nodes = |k: usize| sizes[k].map_or(0.0, |e| e.nodes);
        order.sort_by(|&a, &b| nodes(b).total_cmp(&nodes(a)).then(a.cmp(&b)));
    }
    let units: Vec<Missing> = order.iter().map(|&k| cutting.unit(k, count)).collect();
    let out = if cli.flags.slurm {
        slurm_script(cli, &l, program, &args, cutting, &order, count)
    } else {
        let mut out = String::new();
        for (x, &k) in units.iter().zip(&order) {
            out.push_str(&part_command(
                program,
                &cli.file,
                &args,
                x,
                &cli.flags.results,
            ));
            if let Some(e) = sizes[k] {
                out.push_str(&format!(
                    "  # about {} of one thread's work",
                    render::duration(e.work_seconds)
                ));
            }
            out.push('\n');
        }
        out
    };
    let manifest = PlanRecord {
        record: PLAN_TAG.into(),
        scheme: FINGERPRINT_SCHEME,
        puzzle: hex(l.spec.fingerprint(l.task.goal)),
        file: cli.file.clone(),
        args,
        strategy,
        units: units.iter().map(render::part_arg).collect(),
        results: cli.flags.results.clone(),
        slurm: cli.flags.slurm,
    };
    let path = if cli.flags.results.is_empty() {
        PLAN_FILE.to_string()
    } else {
        format!("{}/{PLAN_FILE}", cli.flags.results.trim_end_matches('/'))
    };
    same_job(&path, &manifest)?;
    Ok(Made {
        commands: out,
        manifest,
        path,
    })
}

/// A plan replaces the manifest of its folder only where it is the same job's (the plan made
/// again): another job's records there would be overwritten part by part, and merge could
/// no longer tell the two apart.
fn same_job(path: &str, ours: &PlanRecord) -> Result<(), String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    let theirs: Option<PlanRecord> = serde_json::from_str(&text).ok();
    // The same units, in whatever order the estimates put them.
    let units = |p: &PlanRecord| {
        let mut u = p.units.clone();
        u.sort_unstable();
        u
    };
    let same = theirs.is_some_and(|t| {
        (&t.puzzle, &t.file, &t.strategy) == (&ours.puzzle, &ours.file, &ours.strategy)
            && units(&t) == units(ours)
    });
    if same {
        Ok(())
    } else {
        Err(format!(
            "{path}: the plan of another job is there: accepted: a --results folder of its own \
             for each job (the subparts of a part too), or the same plan made again"
        ))
    }
}

/// What to say when the parts run another strategy than a whole run would (`auto` picks
/// among those that split): which one a whole run takes and why it does not split here,
/// since the two may differ by orders of magnitude (a tour count by frontier dynamic
/// programming against a backtracking search).
fn whole_run_note(l: &Loaded, strategy: &str) -> Option<String> {
    if l.strategy != "auto" {
        return None;
    }
    let whole = Task {
        part: None,
        subpart: None,
        estimate: None,
        optimum: None,
        ..l.task
    };
    let best = l.model.auto_strategy(&whole)?;
    if best == strategy {
        return None;
    }
    let why = l
        .model
        .strategies(&l.task)
        .into_iter()
        .find(|s| s.name == best)
        .and_then(|s| s.applies.err())
        .map(|why| render::refusal_text(&why))?;
    Some(format!(
        "the parts run strategy {strategy}: a whole run uses {best}, which does not split \
         this search: {why}"
    ))
}

/// How many units the plan's cut holds at most: the subtrees of the list the parts share out
/// (the descendants of the part's subtrees, for subparts). Found by running the last unit,
/// which gets the fewest and none past the list's end, under a node limit that stops it soon
/// after the list is made, raised while the limit strikes before. `None` when no run tells
/// (an answer proven before any list, another limit).
fn list_length(
    l: &mut Loaded,
    strategy: &str,
    cutting: Cutting,
    count: usize,
) -> Result<Option<usize>, String> {
    let x = cutting.unit(count, count);
    l.task.part = Some(x.part);
    l.task.subpart = x.subpart;
    l.task.estimate = None;
    let mut nodes = LIST_NODES;
    loop {
        let limits = limits(Some(nodes), l.task.goal, l.spec.solve.time_limit);
        let run = Run::new(limits).with_clock(super::clock::clock(l.spec.solve.time_limit));
        let o = l
            .model
            .solve_checked(strategy, &l.task, run, 0)
            .map_err(|e| e.to_string())?
            .outcome;
        if let Some(p) = o.answer.partial {
            match (cutting.outer, p.subpart) {
                (None, _) => return Ok(Some(p.list.subtrees)),
                (Some((i, n)), Some(s)) if s.of_subtrees == 0 => {
                    return Err(format!(
                        "--part {i}/{n}: the search splits into {} subtrees, so part {i} of \
                         {n} has none to split: accepted: a part of at most as many parts as \
                         subtrees",
                        p.list.subtrees
                    ));
                }
                (Some(_), Some(s)) => return Ok(Some(s.descendants)),
                (Some(_), None) => {}
            }
        }
        if o.stopped != Some(StopReason::Nodes) {
            return Ok(None);
        }
        nodes = nodes.saturating_mul(LIST_NODES_GROWTH);
    }
}

/// `#SBATCH --time` for parts stopped by `limit` seconds: the limit and a margin (a tenth,
/// at least five minutes) for the record to be written after it strikes, in whole minutes,
/// as D-HH:MM:SS.
fn slurm_time(limit: f64) -> String {
    let margin = (limit * 0.1).max(300.0);
    let minutes = ((limit + margin) / 60.0).ceil() as u64;
    format!(
        "{}-{:02}:{:02}:00",
        minutes / (24 * 60),
        minutes / 60 % 24,
        minutes % 60
    )
}

/// A Slurm job name from the puzzle file's name: only letters, digits, `.`, `_` and `-`,
/// which need no quoting in an `#SBATCH` line.
fn job_name(file: &str) -> String {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() {
        "solve-puzzle".into()
    } else {
        format!("solve-{stem}")
    }
}

/// The job-array script: task k runs unit `order[k - 1]`.
fn slurm_script(
    cli: &PlanCli,
    l: &Loaded,
    program: &[String],
    args: &[String],
    cutting: Cutting,
    order: &[usize],
    count: usize,
) -> String {
    // A task runs on the cores Slurm gives it: the plan's own --threads, else one.
    let threads = cli.common.threads.unwrap_or(1);
    let dir = cli.flags.results.trim_end_matches('/');
    let mut out = String::new();
    out.push_str("#!/bin/bash\n");
    out.push_str(&format!("#SBATCH --job-name={}\n", job_name(&cli.file)));
    out.push_str(&format!("#SBATCH --array=1-{count}\n"));
    out.push_str(&format!("#SBATCH --cpus-per-task={threads}\n"));
    if let Some(t) = l.spec.solve.time_limit {
        out.push_str(&format!("#SBATCH --time={}\n", slurm_time(t)));
    }
    // The tasks start where the plan was made, so that the puzzle's and the results' relative
    // paths mean what they meant here, wherever the script is submitted from. `#SBATCH`
    // lines are read by sbatch, not a shell: a folder that needs quoting is left out, and
    // the script is then submitted from it.
    if let Some(here) = std::env::current_dir()
        .ok()
        .map(|d| d.to_string_lossy().into_owned())
        .filter(|d| shell_word(d) == *d)
    {
        out.push_str(&format!("#SBATCH --chdir={here}\n"));
    }
    out.push_str("#SBATCH --output=slurm-%A_%a.out\n");
    let what = match cutting.outer {
        None => format!("{count} {}", cutting.units_word(count)),
        Some((i, n)) => format!("{count} {} of part {i}/{n}", cutting.units_word(count)),
    };
    out.push_str(&format!(
        "# {what} of {}; each task writes its record to {}. When all have run:\n#   {} merge {}\n",
        shell_word(&cli.file),
        shell_word(&cli.flags.results),
        command_line(program),
        shell_word(if dir.is_empty() { "." } else { dir })
    ));
    out.push_str("set -eu\n");
    // The units in task order, and the task's own: parts `i`, or subparts `j` of part I.
    let (array, var) = match cutting.outer {
        None => ("parts", "i"),
        Some(_) => ("subparts", "j"),
    };
    let list: Vec<String> = order.iter().map(|k| k.to_string()).collect();
    out.push_str(&format!("{array}=({})\n", list.join(" ")));
    out.push_str(&format!(
        "{var}=${{{array}[$((SLURM_ARRAY_TASK_ID - 1))]}}\n"
    ));
    let mut words: Vec<String> = program
        .iter()
        .chain([&cli.file])
        .chain(args)
        .map(|w| shell_word(w))
        .collect();
    // The task's cores are read when it runs: that word is left to the shell.
    if cli.common.threads.is_none() {
        words.push("--threads \"${SLURM_CPUS_PER_TASK:-1}\"".into());
    }
    // The unit's number comes from the array task at run time; the rest of the part and its
    // record's name as `--part` and `record_path` write them.
    let prefix = if cli.flags.results.is_empty() {
        String::new()
    } else {
        format!("{}/", shell_word(dir))
    };
    match cutting.outer {
        None => {
            words.push(format!("--part \"$i/{count}\""));
            words.push(format!("--record {prefix}part-\"$i\".jsonl"));
        }
        Some((i, n)) => {
            words.push(format!("--part \"{i}/{n},$j/{count}\""));
            words.push(format!("--record {prefix}part-{i}-\"$j\"of{count}.jsonl"));
        }
    }
    out.push_str(&format!("exec {}\n", words.join(" ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_time_adds_a_margin_in_whole_minutes() {
        // A tenth, at least five minutes, rounded up.
        assert_eq!(slurm_time(60.0), "0-00:06:00");
        assert_eq!(slurm_time(3600.0), "0-01:06:00");
        assert_eq!(slurm_time(3000.5), "0-00:56:00");
        assert_eq!(slurm_time(86_400.0), "1-02:24:00");
    }

    #[test]
    fn plans_run_the_program_words_given_quoted() {
        use crate::cli::args::{Cli, Sub};
        use crate::cli::parts::tests::{fake_program, words_run};
        use clap::Parser;
        let fake = fake_program("plan");
        let results = fake.with_file_name("the results");
        let program: Vec<String> = [fake.to_str().unwrap(), "-m", "boardsolve"]
            .map(String::from)
            .to_vec();
        let file = format!("{}/puzzles/queens8.toml", env!("CARGO_MANIFEST_DIR"));
        let results = results.to_str().unwrap();
        for slurm in [false, true] {
            let mut args = vec!["solve", "plan", &file, "--parts", "2", "--results", results];
            if slurm {
                args.push("--slurm");
            }
            let Some(Sub::Plan(cli)) = Cli::try_parse_from(args).unwrap().command else {
                panic!("a plan");
            };
            let made = make_plan(&cli, &program).unwrap_or_else(|e| panic!("{e}"));
            let (line, shell) = if slurm {
                (made.commands.as_str(), "bash")
            } else {
                (made.commands.lines().next().unwrap(), "sh")
            };
            let mut want = vec![
                "-m",
                "boardsolve",
                &file,
                "--strategy",
                &made.manifest.strategy,
            ];
            if slurm {
                want.extend(["--threads", "1"]);
            }
            let record = format!("{results}/part-1.jsonl");
            want.extend(["--part", "1/2", "--record", &record]);
            assert_eq!(words_run(&fake, line, shell), want, "{line}");
            if slurm {
                let merge = format!("#   {} -m boardsolve merge ", shell_word(&program[0]));
                assert!(made.commands.contains(&merge), "{}", made.commands);
            }
        }
        let _ = std::fs::remove_dir_all(fake.parent().unwrap());
    }

    #[test]
    fn job_names_need_no_quoting() {
        assert_eq!(job_name("puzzles/knights8.toml"), "solve-knights8");
        assert_eq!(job_name("x\ntouch PWNED.toml"), "solve-x_touch_PWNED");
        assert_eq!(job_name("-"), "solve--");
        assert_eq!(job_name("/"), "solve-puzzle");
    }
}
