//! Argument parsing, the commands, exit codes, and where output goes: answers on standard
//! output, progress and the summary on standard error.

mod args;
mod compare;
mod knuth;
mod load;
mod parts;
mod plan;
mod report;
mod run;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};

use clap::Parser;

use boardsolve::engine::record::PartRecord;
use boardsolve::engine::{Outcome, Status};
use boardsolve::render;
use boardsolve::render::{Header, Picture};
use boardsolve::spec::Kind;

use args::{
    CheckCli, CompareCli, Format, MergeCli, PlanCli, SolveCli, StrategiesCli, limits,
    rewrite_size_sweep,
};
use load::{header, load, resolve_strategy};
use report::write_report;
use run::run_one;

/// Exit status of bad input or usage; the others follow the outcome ([`exit_code`]).
pub(crate) const USAGE_ERROR: u8 = 2;

/// The process exit status of an outcome: 0 solved (or a part searched to its end), 1 proven
/// to have no solution, 3 stopped by a limit before the answer was proven.
pub(crate) fn exit_code(status: Status) -> u8 {
    match status {
        Status::Solved | Status::Part => 0,
        Status::NoSolution => 1,
        Status::Limit => 3,
    }
}

/// Solutions shown for goal `all` without `--limit`.
const DEFAULT_SHOWN: u64 = 1000;

pub fn main(mut args: Vec<OsString>) -> u8 {
    run::process_start();
    let sub = args.get(1).and_then(|a| a.to_str()).map(str::to_string);
    let result = match sub.as_deref() {
        Some("compare") => {
            args.remove(1);
            // `--size A..B` is the documented sweep form; a plain `--size N` stays an override.
            let args = rewrite_size_sweep(args);
            CompareCli::try_parse_from(args).map(compare::compare)
        }
        Some("strategies") => {
            args.remove(1);
            StrategiesCli::try_parse_from(args).map(strategies)
        }
        Some("check") => {
            args.remove(1);
            CheckCli::try_parse_from(args).map(check)
        }
        Some("merge") => {
            args.remove(1);
            MergeCli::try_parse_from(args).map(parts::merge)
        }
        Some("plan") => {
            args.remove(1);
            PlanCli::try_parse_from(args).map(plan::plan)
        }
        _ => SolveCli::try_parse_from(args).map(solve),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let _ = e.print();
            if e.use_stderr() { USAGE_ERROR } else { 0 }
        }
    }
}

pub(crate) fn fail(msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    USAGE_ERROR
}

fn solve(cli: SolveCli) -> u8 {
    let (l, strategy) = match load(&cli.file, &cli.common, None)
        .and_then(|l| resolve_strategy(&l).map(|s| (l, s)))
    {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    if let Some(code) = knuth::before_search(&cli, &l) {
        return code;
    }
    if cli.record.is_some() && l.task.part.is_none() {
        return fail("--record: accepted with --part I/N: the record is a part's");
    }
    let limits = limits(cli.common.node_limit, l.task.goal, l.spec.solve.time_limit);
    // Solutions are kept in memory until they are written, so without --limit only the first
    // DEFAULT_SHOWN are kept; the count stays exact.
    let keep = l.spec.solve.limit.unwrap_or(DEFAULT_SHOWN);
    let progress = !cli.quiet && std::io::stderr().is_terminal();
    let (mut outcome, solutions) =
        match run_one(&l, &strategy, limits, l.clock.clone(), keep, progress) {
            Ok(c) => (c.outcome, c.solutions),
            Err(e) => return fail(e),
        };
    let h = header(&l);
    let mut pictures: Vec<Picture> = solutions.iter().map(|s| l.model.picture(s)).collect();
    // A compact solution (a tour of up to 10^9 squares) is drawn from its own array, and
    // text is streamed, so no second copy of it is made.
    if let Some(c) = outcome.answer.compact.take() {
        if cli.format == Format::Dot {
            outcome.answer.compact = Some(c);
        } else {
            pictures.extend(l.model.picture_compact(c));
        }
    }
    let record = parts::record_of(&cli, &l, &h, &outcome);
    if let (Some(path), Some(r)) = (&cli.record, &record)
        && let Err(e) = parts::write_record(path, r)
    {
        return fail(e);
    }
    let written = match &cli.output {
        Some(path) => std::fs::File::create(path)
            .map_err(|e| format!("{path}: {e}"))
            .and_then(|f| {
                let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
                write_answer(
                    &mut w, &cli, &l, &h, &outcome, &solutions, &pictures, &record,
                )
                .and_then(|_| w.flush())
                .map_err(|e| format!("{path}: {e}"))
            }),
        None => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            write_answer(
                &mut w, &cli, &l, &h, &outcome, &solutions, &pictures, &record,
            )
            .and_then(|_| w.flush())
            .map_err(|e| e.to_string())
        }
    };
    if let Err(e) = written {
        return fail(e);
    }
    if !cli.quiet {
        eprintln!("{}", render::summary_line(&h, &outcome));
    }
    exit_code(outcome.status)
}

/// The report, or for a part in JSON its record: one line that `solve merge` reads.
#[allow(clippy::too_many_arguments)]
fn write_answer(
    w: &mut dyn std::io::Write,
    cli: &SolveCli,
    l: &load::Loaded,
    h: &Header,
    outcome: &Outcome,
    solutions: &[Vec<usize>],
    pictures: &[Picture],
    record: &Option<PartRecord>,
) -> std::io::Result<()> {
    match record {
        Some(r) if cli.format == Format::Json => writeln!(w, "{}", r.to_line()),
        _ => write_report(w, cli, l, h, outcome, solutions, pictures),
    }
}

/// Everything a solve checks before it searches: the file, the flags, and that the strategy
/// asked for (or some strategy, for auto) takes the task.
fn check(cli: CheckCli) -> u8 {
    let (l, strategy) = match load(&cli.file, &cli.common, None)
        .and_then(|l| resolve_strategy(&l).map(|s| (l, s)))
    {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    if let Err(e) = l.model.applies(&strategy, &l.task) {
        return fail(e);
    }
    println!(
        "{}: ok: {} ({}), goal {}, strategy {strategy}",
        cli.file,
        l.spec.kind.name(),
        render::summary_text(&l.model.describe()),
        l.task.goal.name()
    );
    0
}

fn strategies(cli: StrategiesCli) -> u8 {
    let Some(file) = &cli.file else {
        println!(
            "Strategies by kind (`solve strategies FILE` says which apply and why not; \
             [parts]: takes --part I/N):"
        );
        for (kind, names) in boardsolve::kinds::catalogue() {
            println!("  {kind}:");
            for (name, about, splits) in names {
                let mark = if splits { " [parts]" } else { "" };
                println!("    {name:<10} {about}{mark}");
            }
        }
        print_tuning();
        return 0;
    };
    let l = match load(file, &cli.common, None) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let auto = l.model.auto_strategy(&l.task);
    println!(
        "{}: {} ({}), goal {}",
        file,
        l.spec.kind.name(),
        render::summary_text(&l.model.describe()),
        l.task.goal.name()
    );
    for s in l.model.strategies(&l.task) {
        let mark = if Some(s.name) == auto { " (auto)" } else { "" };
        match s.applies {
            Ok(()) => println!(
                "  {:<10} applies{mark}: {}{}",
                s.name,
                s.about,
                if s.splits { " [parts]" } else { "" }
            ),
            Err(why) => println!("  {:<10} does not apply: {why}", s.name),
        }
    }
    if l.spec.kind == Kind::Domination {
        print_tuning();
    }
    0
}

/// The domination strategies' tuning knobs, one a line: the `[solve.options]` key, its
/// default and range, and why it exists.
fn print_tuning() {
    println!(
        "Tuning options of the domination strategies ([solve.options] or --set solve.options.KEY=V):"
    );
    for (key, d) in boardsolve::kinds::domination::option_table() {
        let whole = if d.integer { "whole, " } else { "" };
        println!(
            "  {key} = {} ({whole}{} to {}): {}",
            d.default, d.min, d.max, d.help
        );
    }
}
