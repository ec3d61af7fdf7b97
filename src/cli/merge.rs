//! `solve merge`: part records read, checked and merged into the answer one run would give;
//! with `--status` what is done and what is left, with `--missing` only what is left, with
//! `--verify K` some parts run again and compared with their records.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::Path;

use clap::Parser;

use boardsolve::engine::merge::{self, MergeError, MergeFault, Merged, Missing, Source};
use boardsolve::engine::record::{
    FINGERPRINT_SCHEME, PLAN_TAG, PartRecord, PlanRecord, RecordContext, hex,
};
use boardsolve::engine::{Goal, Status};
use boardsolve::kinds::Model;
use boardsolve::render;
use boardsolve::util::Rng;

use boardsolve::spec::options::MergeFormat;

use super::args::{Common, MergeCli, common_args, limits, parse_parts};
use super::load::{Loaded, header, load};
use super::parts::{check_command_word, part_command, program_words};
use super::run::{clock, run_one};
use super::{USAGE_ERROR, exit_code, fail};

/// Records larger than this in all are refused before they are read: a job of the most
/// parts `--part` takes writes a few hundred megabytes of records at most.
const MAX_RECORD_FILE: u64 = 1 << 30;

/// A plan of the most parts `--part` takes is a few megabytes.
const MAX_PLAN_FILE: u64 = 64 << 20;

/// The plan's manifest in a results folder (`solve plan` writes it).
const PLAN_FILE: &str = "plan.json";

/// The records' options as the command line takes them, alone.
#[derive(Parser)]
#[command(no_binary_name = true)]
struct RunArgs {
    #[command(flatten)]
    common: Common,
}

/// A plan's manifest read and checked: where it is, and its units in the order of its
/// commands (Slurm array task k runs `units[k - 1]`).
struct Plan {
    path: String,
    /// The folder it was found in, as merge was given it: its units' records go there.
    dir: String,
    record: PlanRecord,
    units: Vec<Missing>,
}

/// What the arguments named: the records, and the plan found beside them.
struct Inputs {
    records: Vec<(Source, PartRecord)>,
    /// The plans of the folders given (the job's, and those of parts split in subparts),
    /// the first folder's first.
    plans: Vec<Plan>,
    /// The folder the records are in: missing parts rerun into it.
    dir: Option<String>,
}

fn read_capped(path: &str, cap: u64) -> Result<String, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{path}: cannot read the records: {e}"))?;
    // A fifo or a device has no size to check before reading, and may never end.
    if !meta.is_file() {
        return Err(format!(
            "{path}: accepted: a regular file of records, a folder of them, or - for standard \
             input"
        ));
    }
    let size = meta.len();
    if size > cap {
        return Err(format!(
            "{path}: {size} bytes: accepted: at most {cap} bytes of records in all"
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: cannot read the records: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("{path}:{line}: not a part record: the file is not UTF-8 text")
    })
}

fn read_plan(path: &str) -> Result<Plan, String> {
    let text = read_capped(path, MAX_PLAN_FILE)?;
    let record: PlanRecord = serde_json::from_str(&text)
        .map_err(|e| format!("{path}: not a plan `solve plan` writes: {e}"))?;
    if record.record != PLAN_TAG {
        return Err(format!(
            "{path}: not a plan `solve plan` writes: \"record\" is {:?}",
            record.record
        ));
    }
    let units = record
        .units
        .iter()
        .map(|u| {
            let (part, subpart) = parse_parts(u).map_err(|e| format!("{path}: \"units\": {e}"))?;
            Ok(Missing { part, subpart })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let distinct: std::collections::HashSet<&Missing> = units.iter().collect();
    if distinct.len() != units.len() {
        return Err(format!("{path}: \"units\": a part listed twice"));
    }
    if units.is_empty() || units.len() > merge::MAX_PARTS {
        return Err(format!(
            "{path}: \"units\": {} of them: accepted: 1 to {}",
            units.len(),
            merge::MAX_PARTS
        ));
    }
    let dir = Path::new(path)
        .parent()
        .map_or(String::new(), |d| d.to_string_lossy().into_owned());
    Ok(Plan {
        path: path.to_string(),
        dir,
        record,
        units,
    })
}

fn gather(args: &[String]) -> Result<Inputs, String> {
    let mut inputs = Inputs {
        records: Vec::new(),
        plans: Vec::new(),
        dir: None,
    };
    let mut files: Vec<String> = Vec::new();
    let mut folders: Vec<String> = Vec::new();
    for a in args {
        if a != "-" && Path::new(a).is_dir() {
            folders.push(a.trim_end_matches('/').to_string());
            let mut found: Vec<String> = std::fs::read_dir(a)
                .map_err(|e| format!("{a}: cannot read the folder: {e}"))?
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file())
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            found.sort();
            files.extend(found);
            inputs
                .dir
                .get_or_insert_with(|| a.trim_end_matches('/').to_string());
        } else {
            if a != "-" && inputs.dir.is_none() {
                let parent = Path::new(a)
                    .parent()
                    .map(|p| p.to_string_lossy().into_owned());
                inputs.dir = parent;
            }
            files.push(a.clone());
        }
    }
    // A file named twice (or by a folder and by its own path) would bring its records twice.
    let mut named: Vec<(std::path::PathBuf, &str)> = Vec::new();
    for file in files.iter().filter(|f| *f != "-") {
        let Ok(real) = std::fs::canonicalize(file) else {
            continue;
        };
        if let Some((_, first)) = named.iter().find(|(p, _)| *p == real) {
            return Err(if first == file {
                format!(
                    "{file}: named twice (by itself, or by its folder, which brings its *.jsonl \
                     files): accepted: each record file once"
                )
            } else {
                format!(
                    "{file}: the same file as {first}: accepted: each record file once (a \
                     folder brings its *.jsonl files)"
                )
            });
        }
        named.push((real, file));
    }
    let mut left = MAX_RECORD_FILE;
    for file in &files {
        let (name, text) = if file == "-" {
            let mut s = String::new();
            std::io::stdin()
                .take(left + 1)
                .read_to_string(&mut s)
                .map_err(|e| format!("<stdin>: {e}"))?;
            if s.len() as u64 > left {
                return Err(format!(
                    "<stdin>: accepted: at most {MAX_RECORD_FILE} bytes of records in all"
                ));
            }
            ("<stdin>", s)
        } else {
            (file.as_str(), read_capped(file, left)?)
        };
        left -= text.len() as u64;
        if text.contains(&format!("\"record\": \"{PLAN_TAG}\"")) {
            return Err(format!(
                "{name}: a plan's manifest, not part records: give merge the folder it is in"
            ));
        }
        let records = merge::parse_lines(name, &text).map_err(|e| render::merge_error_text(&e))?;
        inputs.records.extend(records);
    }
    // Only a folder of records has a plan: records read from standard input have none.
    if folders.is_empty()
        && let Some(d) = inputs
            .dir
            .clone()
            .filter(|_| files.iter().any(|f| f != "-"))
    {
        folders.push(d);
    }
    for d in folders {
        let path = if d.is_empty() {
            PLAN_FILE.to_string()
        } else {
            format!("{d}/{PLAN_FILE}")
        };
        if Path::new(&path).is_file() && !inputs.plans.iter().any(|p| p.path == path) {
            inputs.plans.push(read_plan(&path)?);
        }
    }
    Ok(inputs)
}

/// The threads of a Slurm plan's task, left to the shell where the task runs: a part run
/// again elsewhere takes the default.
const SLURM_THREADS: [&str; 2] = ["--threads", "${SLURM_CPUS_PER_TASK:-1}"];

/// The file and arguments a record (or plan) gives for running parts again, checked: no
/// character a shell or a line-based runner could split on, and run options only (nothing
/// that writes files or prints elsewhere, no part of its own). The options come back parsed,
/// and as the arguments that print them again: a command is written from what was parsed,
/// never from the record's words.
fn check_rerun(file: &str, args: &[String]) -> Result<(Common, Vec<String>), String> {
    check_command_word("the puzzle file", file)?;
    if file == "-" || file.is_empty() {
        return Err(format!(
            "\"file\": {file:?}: a part of a puzzle read from standard input cannot be run \
             again from its record: accepted: the puzzle file's path"
        ));
    }
    for a in args {
        check_command_word("an argument", a)?;
    }
    let mut words: Vec<&str> = Vec::with_capacity(args.len());
    let mut k = 0;
    while k < args.len() {
        if args[k] == SLURM_THREADS[0] && args.get(k + 1).is_some_and(|v| v == SLURM_THREADS[1]) {
            k += 2;
            continue;
        }
        words.push(&args[k]);
        k += 1;
    }
    let parsed = RunArgs::try_parse_from(&words).map_err(|e| {
        let text = e.to_string();
        let first = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        format!(
            "\"args\": {args:?}: not options of a part's run ({first}); accepted: --goal, \
             --strategy, --size, --width, --height, --set, --input, --limit, --time-limit, \
             --node-limit, --threads, --memory, --optimum, --branch, --unique, --prefixes"
        )
    })?;
    if parsed.common.part.is_some() || parsed.common.estimate.is_some() {
        return Err(format!(
            "\"args\": {args:?}: not options of a part's run: the part and --estimate are the \
             command's own"
        ));
    }
    let canonical = common_args(&parsed.common);
    Ok((parsed.common, canonical))
}

/// The arguments that name the puzzle and its search, without those that only limit or
/// place a run (limits, threads, memory), which parts may set each their own: runs that
/// differ in these only are of one puzzle.
fn puzzle_args(c: &Common) -> Vec<String> {
    let mut c = c.clone();
    (c.limit, c.time_limit, c.node_limit, c.threads, c.memory) = (None, None, None, None, None);
    common_args(&c)
}

/// The file and arguments that run missing parts again (the plan's, else those most
/// records carry), and the puzzle loaded from them where it is at hand. Every file and
/// argument list the records carry is checked: words a command may hold, options of a
/// part's run, and, where the file is here, that they give the records' puzzle (parts may
/// name one puzzle in other words: `--size 8` or `--width 8 --height 8`, a path seen from
/// another folder, a time limit or threads of their own).
#[allow(clippy::type_complexity)]
fn command_words(inputs: &Inputs) -> Result<((String, Vec<String>), Option<Loaded>), String> {
    // Each spelling once, with its first record and how many carry it, in the records' order.
    let mut index: HashMap<(&str, &[String]), usize> = HashMap::new();
    let mut seen: Vec<((&str, &[String]), usize, usize)> = Vec::new();
    for (k, (_, r)) in inputs.records.iter().enumerate() {
        let key = (r.file.as_str(), r.args.as_slice());
        match index.get(&key) {
            Some(&i) => seen[i].2 += 1,
            None => {
                index.insert(key, seen.len());
                seen.push((key, k, 1));
            }
        }
    }
    let mut chosen: Option<(String, Vec<String>, Common, usize)> = None;
    // Each spelling of the puzzle is loaded once, whatever limits or threads it runs with.
    let mut loaded: Vec<(&str, Vec<String>)> = Vec::new();
    // The first spelling whose file is here: the puzzle a placement is checked against when
    // the commands' own file is not here.
    let mut any: Option<Loaded> = None;
    for &((file, args), k, n) in &seen {
        let (at, r) = &inputs.records[k];
        let (common, canonical) = check_rerun(file, args).map_err(|e| format!("{at}: {e}"))?;
        args_agree(&common, &r.strategy, Some(&r.goal)).map_err(|e| format!("{at}: {e}"))?;
        let key = (file, puzzle_args(&common));
        if !loaded.contains(&key) {
            let l = at_hand(r, &common).map_err(|e| format!("{at}: {e}"))?;
            if any.is_none() {
                any = l;
            }
            loaded.push(key);
        }
        if chosen.as_ref().is_none_or(|c| n > c.3) {
            chosen = Some((file.to_string(), canonical, common, n));
        }
    }
    let (mut file, mut args, mut common, _) = chosen.expect("records");
    // Where the commands' file and arguments come from, for an error about them.
    let mut source = inputs.records[0].0.to_string();
    if let Some(plan) = inputs.plans.first() {
        (common, args) = check_rerun(&plan.record.file, &plan.record.args)
            .map_err(|e| format!("{}: {e}", plan.path))?;
        let r = &inputs.records[0].1;
        args_agree(&common, &r.strategy, Some(&r.goal))
            .map_err(|e| format!("{}: {e}", plan.path))?;
        file = plan.record.file.clone();
        source = format!("{} (the plan's file and arguments)", plan.path);
    }
    let first = &inputs.records[0].1;
    let probe = PartRecord {
        file: file.clone(),
        ..first.clone()
    };
    let loaded = at_hand(&probe, &common).map_err(|e| format!("{source}: {e}"))?;
    Ok(((file, args), loaded.or(any)))
}

/// The strategy and goal that arguments run are the record's: the fingerprint holds neither
/// (a goal is checked with the puzzle only where the file is here), and the commands for
/// missing parts are written from these arguments.
fn args_agree(common: &Common, strategy: &str, goal: Option<&str>) -> Result<(), String> {
    if let Some(s) = common.strategy.as_deref().filter(|s| *s != "auto")
        && s != strategy
    {
        return Err(format!(
            "\"args\" run --strategy {s}, but the record says {strategy}"
        ));
    }
    if let (Some(g), Some(want)) = (common.goal.as_deref(), goal)
        && g != want
    {
        return Err(format!(
            "\"args\" run --goal {g}, but the record says {want}"
        ));
    }
    Ok(())
}

/// The puzzle the records name, loaded with their arguments, where it is at hand; an error
/// where it is there but is not the puzzle they searched.
fn at_hand(r: &PartRecord, common: &Common) -> Result<Option<Loaded>, String> {
    if r.file == "-" || !Path::new(&r.file).is_file() {
        return Ok(None);
    }
    let l = load(&r.file, common, None)
        .map_err(|e| format!("{} with the records' arguments: {e}", r.file))?;
    let goal = Goal::parse(&r.goal).unwrap_or(l.task.goal);
    let ours = hex(l.spec.fingerprint(goal));
    if ours != r.puzzle {
        return Err(format!(
            "{}: with the records' arguments this file is the puzzle {ours}, but the records \
             searched {}: the file changed since, or the records are not of it",
            r.file, r.puzzle
        ));
    }
    let h = header(&l);
    if h.counted != r.counted {
        return Err(format!(
            "\"counted\": {:?}, but this puzzle counts {:?}",
            r.counted, h.counted
        ));
    }
    // A count at a given optimum counts at the value its options give.
    let bar = r.list.as_ref().and_then(|l| l.bar);
    if let Some(v) = common.optimum
        && bar.is_some_and(|b| b != v)
    {
        return Err(format!(
            "\"list\": counted at {}, but the records' options give --optimum {v}",
            bar.unwrap_or(v)
        ));
    }
    Ok(Some(l))
}

fn plan_matches(path: &str, plan: &Plan, r: &PartRecord) -> Result<(), String> {
    if let Some(u) = plan.units.iter().find(|u| u.part.1 != r.part[1]) {
        return Err(format!(
            "{path}: the plan's part {} is of {} parts, but the records' search is cut into {}",
            render::part_arg(u),
            u.part.1,
            r.part[1]
        ));
    }
    let plan = &plan.record;
    let checks = [
        (
            "scheme",
            plan.scheme.to_string(),
            FINGERPRINT_SCHEME.to_string(),
        ),
        ("puzzle", plan.puzzle.clone(), r.puzzle.clone()),
        ("strategy", plan.strategy.clone(), r.strategy.clone()),
    ];
    for (field, theirs, ours) in checks {
        if theirs != ours {
            return Err(format!(
                "{path}: the plan's {field} is {theirs}, but the records' is {ours}: the plan \
                 of another search"
            ));
        }
    }
    Ok(())
}

/// `solve merge`, the commands of the parts still to run run by `program`'s words
/// ([`program_words`]).
pub(crate) fn merge(cli: MergeCli, program: &[OsString]) -> u8 {
    let inputs = match gather(&cli.records) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let dir = inputs.dir.clone().unwrap_or_else(|| "results".into());
    // Both go into the commands merge prints.
    let program = match check_command_word("the records' folder", &dir)
        .and_then(|_| program_words(program))
    {
        Ok(words) => words,
        Err(e) => return fail(e),
    };
    if inputs.records.is_empty() {
        return nothing_run_yet(&cli, &inputs.plans, &program, &dir);
    }
    let (m, rerun_words, puzzle) = match checked(&inputs) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    let (file, args) = (&rerun_words.0, &rerun_words.1);
    if let Some(k) = cli.flags.verify {
        let code = verify(&inputs.records, k, cli.flags.seed, cli.flags.quiet);
        if code != 0 {
            return code;
        }
    }
    let (_, outcome) = render::merged_outcome(&m);
    let planned = Planned::new(&inputs.plans);
    let missing = planned.expand(&m.missing);
    let commands = |only: bool| planned.lines(&program, (file, args), &missing, &dir, only);
    let picture = m
        .solution
        .as_ref()
        .and_then(|(_, s)| puzzle.as_ref().map(|l| l.model.picture(s)));
    let out = if cli.flags.missing {
        commands(true)
    } else if cli.flags.status {
        let mut s = render::merged_status(&m);
        s.push_str(&commands(false));
        s
    } else if cli.flags.format == MergeFormat::Json {
        let missing: Vec<(String, String)> = missing
            .iter()
            .map(|x| {
                (
                    render::part_arg(x),
                    part_command(&program, file, args, x, planned.dir_of(x, &dir)),
                )
            })
            .collect();
        let board = puzzle
            .as_ref()
            .and_then(|l| l.spec.board.as_ref())
            .map(|b| (b.width, b.height));
        render::merged_json(&m, board, picture.as_ref(), &missing)
    } else {
        let mut out = String::new();
        if let Some(t) = &m.first.title {
            out.push_str(&render::shown(t));
            out.push('\n');
        }
        if let Some(p) = &picture {
            out.push('\n');
            out.push_str(&render::text_picture(p));
            out.push('\n');
        }
        out.push_str(&render::merged_answer_line(&m));
        out.push('\n');
        out.push_str(&commands(false));
        out
    };
    if let Err(code) = write_out(&out) {
        return code;
    }
    if !cli.flags.quiet && !cli.flags.missing {
        errln!("{}", render::merged_summary(&m));
        if !m.stopped.is_empty() {
            let at: HashMap<(&str, usize), &PartRecord> = inputs
                .records
                .iter()
                .map(|(s, r)| ((s.file.as_str(), s.line), r))
                .collect();
            for s in &m.stopped {
                if let Some(r) = at.get(&(s.file.as_str(), s.line)) {
                    errln!("{s}: {}", render::stopped_text(r));
                }
            }
        }
        if puzzle.is_none() {
            // Only a regular file is read as the puzzle: a fifo or a device is passed over.
            let why = match Path::new(&file).exists() {
                true => "not a file",
                false => "not found from here",
            };
            errln!(
                "{file}: {why}: the records are merged without their puzzle (no placement \
                 checked or drawn)"
            );
        }
    }
    exit_code(outcome.status)
}

/// The merge of the records, checked as `solve merge` checks them before it answers: the
/// records together, the file and arguments of every spelling of the puzzle (loaded where
/// it is at hand), the plans, a placement against the puzzle's rules, what the puzzle counts.
/// With the arguments that run missing parts again and the puzzle, where it is here.
#[allow(clippy::type_complexity)]
fn checked(inputs: &Inputs) -> Result<(Merged, (String, Vec<String>), Option<Loaded>), String> {
    let m = merge::merge(&inputs.records).map_err(|e| render::merge_error_text(&e))?;
    let (rerun_words, puzzle) = command_words(inputs)?;
    for plan in &inputs.plans {
        plan_matches(&plan.path, plan, &m.first)?;
    }
    // A placement from a record is shown as proof only once it is of the optimum's size and,
    // where the puzzle is here, the puzzle's own rules pass it.
    if let (Some((at, s)), Some(v)) = (&m.solution, m.optimum) {
        let ruled = puzzle.as_ref().map_or(Ok(()), |l| {
            l.model.check(s).map_err(|v| render::violation_text(&v))
        });
        let valid = ruled.and_then(|_| {
            if s.len() as u64 == v {
                Ok(())
            } else {
                Err(format!("it has {} pieces, not {v}", s.len()))
            }
        });
        if let Err(e) = valid {
            return Err(format!(
                "{at}: \"solution\": not a placement of value {v}: {e}"
            ));
        }
    }
    // Whether a count is of the largest placements is the puzzle's to say (no size to place),
    // where it is here: records that count otherwise are of another search.
    if let Some(l) = &puzzle
        && m.done > 0
    {
        let largest =
            l.task.goal == Goal::Count && matches!(&l.model, Model::Independent(i) if i.largest);
        if largest != m.largest {
            let what = |l: bool| {
                if l {
                    "the largest placements, each part saying their size"
                } else {
                    "the placements of one size"
                }
            };
            return Err(format!(
                "{}: the records count {}, but this puzzle counts {}",
                inputs.records[0].0,
                what(m.largest),
                what(largest)
            ));
        }
    }
    Ok((m, rerun_words, puzzle))
}

/// Whether `solve merge` takes these records together, as [`checked`] says, and, where one
/// of them stopped before it had its list of subtrees, their arguments name the same search
/// (the list would have told them apart).
pub(crate) fn takes_together(records: Vec<(Source, PartRecord)>) -> bool {
    let listless = records.iter().any(|(_, r)| r.list.is_none());
    let search = |r: &PartRecord| {
        check_rerun(&r.file, &r.args)
            .ok()
            .map(|(c, _)| puzzle_args(&c))
    };
    if listless {
        let first = search(&records[0].1);
        if first.is_none() || records.iter().any(|(_, r)| search(r) != first) {
            return false;
        }
    }
    let inputs = Inputs {
        records,
        plans: Vec::new(),
        dir: None,
    };
    checked(&inputs).is_ok()
}

/// No record at all: with a plan, everything is still to run (exit 3); without one, there
/// is nothing to merge.
fn nothing_run_yet(cli: &MergeCli, plans: &[Plan], program: &[String], dir: &str) -> u8 {
    let Some(plan) = plans.first() else {
        let empty = MergeError {
            at: Source {
                file: "-".into(),
                line: 0,
            },
            what: MergeFault::Empty,
        };
        let named = cli.records.join(", ");
        return fail(format!("{named}: {}", render::merge_error_text(&empty)));
    };
    let args = match check_rerun(&plan.record.file, &plan.record.args).and_then(|(c, args)| {
        args_agree(&c, &plan.record.strategy, None)?;
        plan_gives_its_puzzle(&plan.record, &c)?;
        Ok(args)
    }) {
        Ok(args) => args,
        Err(e) => return fail(format!("{}: {e}", plan.path)),
    };
    for p in &plans[1..] {
        let same =
            (&p.record.puzzle, &p.record.strategy) == (&plan.record.puzzle, &plan.record.strategy);
        if !same {
            return fail(format!(
                "{}: the plan of another search than {}'s",
                p.path, plan.path
            ));
        }
    }
    let planned = Planned::new(plans);
    let units = planned.expand(&plan.units);
    let mut out = String::new();
    if !cli.flags.missing {
        out.push_str(&render::no_records_line(units.len()));
        out.push('\n');
    }
    let words = (plan.record.file.as_str(), args.as_slice());
    out.push_str(&planned.lines(program, words, &units, dir, cli.flags.missing));
    match write_out(&out) {
        Ok(()) => exit_code(Status::Limit),
        Err(code) => code,
    }
}

/// Where the plan's file is here, its arguments must give the puzzle the plan is of, so that
/// the commands printed run that search (with records, they are checked against the
/// records' puzzle instead).
fn plan_gives_its_puzzle(plan: &PlanRecord, common: &Common) -> Result<(), String> {
    if !Path::new(&plan.file).is_file() {
        return Ok(());
    }
    let l = load(&plan.file, common, None).map_err(|e| format!("{}: {e}", plan.file))?;
    let ours = hex(l.spec.fingerprint(l.task.goal));
    if ours != plan.puzzle {
        return Err(format!(
            "{}: with the plan's arguments this file is the puzzle {ours}, but the plan is of \
             {}: the file changed since, or the plan is not of it",
            plan.file, plan.puzzle
        ));
    }
    Ok(())
}

fn write_out(out: &str) -> Result<(), u8> {
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    w.write_all(out.as_bytes())
        .and_then(|_| w.flush())
        .map_err(|e| match e.kind() {
            // A reader that left (`| head`) wants no word of it.
            std::io::ErrorKind::BrokenPipe => USAGE_ERROR,
            _ => fail(format!("standard output: {e}")),
        })
}

/// The plans' units: which plan lists each, and as which of its commands (Slurm array task).
struct Planned<'a> {
    plans: &'a [Plan],
    index: HashMap<&'a Missing, (usize, usize)>,
}

impl<'a> Planned<'a> {
    fn new(plans: &'a [Plan]) -> Planned<'a> {
        let mut index = HashMap::new();
        for (p, plan) in plans.iter().enumerate() {
            for (k, u) in plan.units.iter().enumerate() {
                index.entry(u).or_insert((p, k + 1));
            }
        }
        Planned { plans, index }
    }

    /// The units still to run, a whole part replaced by its subparts where a plan splits it.
    fn expand(&self, missing: &[Missing]) -> Vec<Missing> {
        let mut split: HashMap<(usize, usize), Vec<Missing>> = HashMap::new();
        for plan in self.plans {
            for u in plan.units.iter().filter(|u| u.subpart.is_some()) {
                split.entry(u.part).or_default().push(u.clone());
            }
        }
        let mut out = Vec::with_capacity(missing.len());
        for x in missing {
            match split.get(&x.part).filter(|_| x.subpart.is_none()) {
                Some(subs) => out.extend(subs.iter().cloned()),
                None => out.push(x.clone()),
            }
        }
        out
    }

    /// The folder a unit's record goes to: its plan's, else `default`.
    fn dir_of<'d>(&'d self, x: &Missing, default: &'d str) -> &'d str {
        match self.index.get(x) {
            Some(&(p, _)) => &self.plans[p].dir,
            None => default,
        }
    }

    /// The commands of `missing`, one a line; with `only` and one Slurm plan listing them
    /// all, its array task ids instead, comma separated (for `sbatch --array=IDS`).
    fn lines(
        &self,
        program: &[String],
        (file, args): (&str, &[String]),
        missing: &[Missing],
        dir: &str,
        only: bool,
    ) -> String {
        let mut out = String::new();
        let mut plans = missing.iter().map(|x| self.index.get(x).map(|&(p, _)| p));
        let one = plans
            .next()
            .flatten()
            .filter(|&p| self.plans[p].record.slurm && plans.all(|q| q == Some(p)));
        if let (true, Some(_)) = (only, one) {
            let ids: Vec<String> = missing
                .iter()
                .filter_map(|x| self.index.get(x).map(|&(_, k)| k.to_string()))
                .collect();
            out.push_str(&ids.join(","));
            out.push('\n');
            return out;
        }
        for x in missing {
            out.push_str(&part_command(program, file, args, x, self.dir_of(x, dir)));
            out.push('\n');
        }
        out
    }
}

/// Run `k` finished parts again, chosen at random from the records (`--seed` printed), and
/// compare what they find with what their records say: 0 when all agree, 2 otherwise.
fn verify(records: &[(Source, PartRecord)], k: usize, seed: Option<u64>, quiet: bool) -> u8 {
    // One record a unit: records of one unit agree (the merge checked), so K at least the
    // units runs every one.
    let mut units = std::collections::BTreeSet::new();
    let mut pool: Vec<usize> = (0..records.len())
        .filter(|&i| records[i].1.finished)
        .filter(|&i| {
            let r = &records[i].1;
            units.insert((r.part, r.subpart.as_ref().map(|s| s.index)))
        })
        .collect();
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            | 1
    });
    let mut rng = Rng(seed.max(1));
    let k = k.min(pool.len());
    errln!(
        "verify: {k} of {} parts and subparts searched, chosen with --seed {seed}",
        pool.len()
    );
    let mut bad = 0;
    for n in 0..k {
        let pick = n + rng.below(pool.len() - n);
        pool.swap(n, pick);
        let (at, r) = &records[pool[n]];
        // As the record says it ran: its own file and options (checked by the merge).
        let mut c = match check_rerun(&r.file, &r.args) {
            Ok((c, _)) => c,
            Err(e) => return fail(format!("{at}: {e}")),
        };
        c.part = Some(render::record_part_arg(r));
        let again = match rerun(r, &c) {
            Ok(a) => a,
            Err(Rerun::Bad(e)) => return fail(format!("{at}: verify: {e}")),
            // A limit or a signal stopped the check, not the record: nothing is said of it.
            Err(Rerun::Stopped(why)) => {
                errln!("verify: stopped ({why}) while running {at} again: not checked");
                return exit_code(Status::Limit);
            }
        };
        let verdict = render::verify_verdict(r, &again);
        if verdict.agrees {
            if !quiet {
                errln!("{at}: {}", verdict.text);
            }
        } else {
            bad += 1;
            errln!("error: {at}: {}", verdict.text);
        }
    }
    if bad > 0 { USAGE_ERROR } else { 0 }
}

/// Why a part run again gave no record to compare.
enum Rerun {
    /// The record or its puzzle file cannot be run as it says.
    Bad(String),
    /// A limit or a signal stopped the run again.
    Stopped(&'static str),
}

/// One part run again as its record says it ran, and its new record.
fn rerun(r: &PartRecord, c: &Common) -> Result<PartRecord, Rerun> {
    // Only a file is run again: a fifo or a device named by a record would hang or read
    // without end.
    if !Path::new(&r.file).is_file() {
        return Err(Rerun::Bad(format!(
            "{}: not a file here; --verify runs a part again from its puzzle file",
            r.file
        )));
    }
    let l = load(&r.file, c, None).map_err(Rerun::Bad)?;
    let goal = l.task.goal;
    let limits = limits(c.node_limit, goal, l.spec.solve.time_limit);
    let checked = run_one(
        &l,
        &r.strategy,
        limits,
        clock(l.spec.solve.time_limit),
        false,
        |_| ControlFlow::Continue(()),
    )
    .map_err(|e| Rerun::Bad(e.to_string()))?;
    let o = checked.outcome;
    if o.status != Status::Part && o.status != Status::Solved && o.status != Status::NoSolution {
        return Err(Rerun::Stopped(
            o.stopped.map_or("a limit", render::stop_text),
        ));
    }
    Ok(PartRecord::of(
        &o,
        l.task.part.unwrap_or((r.part[0], r.part[1])),
        l.task.subpart,
        RecordContext {
            puzzle: l.spec.fingerprint(goal),
            file: &r.file,
            args: r.args.clone(),
            title: r.title.clone(),
            kind: l.spec.kind().name(),
            goal: goal.name(),
            counted: header(&l).counted,
        },
    ))
}
