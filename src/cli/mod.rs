//! Argument parsing, the commands, exit codes, and where output goes: answers on standard
//! output, progress and the summary on standard error.

/// `println!` and `print!` for the commands' answers on standard output: a write that fails
/// (a full disk) ends the command with the error and exit status 2, where `println!` would
/// panic. They return from the enclosing function, which returns the exit status.
macro_rules! outln {
    ($($t:tt)*) => {
        if let Err(e) = { use std::io::Write; writeln!(std::io::stdout(), $($t)*) } {
            return $crate::cli::fail(e);
        }
    };
}
/// `eprintln!` for notes, summaries and errors on standard error: a write that fails (a full
/// disk under a batch system's log) is let go, as there is nowhere left to say it, where
/// `eprintln!` would panic; the exit status still says how the command ended.
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}
macro_rules! out {
    ($($t:tt)*) => {
        if let Err(e) = { use std::io::Write; write!(std::io::stdout(), $($t)*) } {
            return $crate::cli::fail(e);
        }
    };
}

mod args;
mod clock;
mod compare;
mod input;
mod knuth;
mod load;
mod man;
mod many;
mod memory;
mod merge;
mod parts;
mod plan;
mod report;
mod run;
pub mod shared;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError};

use clap::{CommandFactory, Parser};

use boardsolve::engine::{Goal, Status};
use boardsolve::render;
use boardsolve::render::Picture;
use boardsolve::spec::Kind;
use boardsolve::spec::options::{InputFormat, OutputFormat};

use args::{CheckCli, Cli, SolveCli, StrategiesCli, Sub, limits, rewrite_size_sweep};
use load::{header, load, resolve_strategy};
use report::{FLUSH_EVERY, Report};
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

/// Solutions shown for goal `all` without `--limit`: the option table's default.
fn default_shown() -> u64 {
    match boardsolve::spec::options::run_option("limit").default {
        boardsolve::spec::options::Default::Whole(n) => n,
        _ => unreachable!("--limit's default is a number"),
    }
}

/// `solve` on `args`, the first the program's name as the system gave it: the commands that
/// `solve plan` and `solve merge` print run it by that name.
pub fn main(args: Vec<OsString>) -> u8 {
    let program = args.first().cloned().into_iter().collect();
    main_as(program, args)
}

/// [`main`], started by another program: `program` the words that run this command line
/// from a shell, which the commands `solve plan` and `solve merge` print (`python3 -m
/// boardsolve`: the interpreter, then its module). The first, a path, is made absolute.
pub fn main_as(program: Vec<OsString>, mut args: Vec<OsString>) -> u8 {
    clock::process_start();
    // clap refuses an argument that is not UTF-8 without saying which; every value the
    // commands read, file names included, is text. The first such argument is named, and the
    // option before it, whose value it likely is.
    if let Some(k) = args.iter().skip(1).position(|a| a.to_str().is_none()) {
        let k = k + 1;
        let after = match args[k - 1].to_str() {
            Some(flag) if k > 1 && flag.starts_with('-') => format!(", after {flag},"),
            _ => String::new(),
        };
        return fail(format!(
            "argument {k}{after} is not UTF-8: \"{}\" (the bytes that are not UTF-8 shown as \
             U+FFFD); accepted: arguments in UTF-8, file names included (rename the file, or \
             give it on standard input as -)",
            args[k].to_string_lossy()
        ));
    }
    // `compare --size A..B` is the documented sweep form; a plain `--size N` stays an override.
    if args.get(1).and_then(|a| a.to_str()) == Some("compare") {
        args = rewrite_size_sweep(args);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { USAGE_ERROR } else { 0 };
        }
    };
    match cli.command {
        None => solve(cli.solve),
        Some(Sub::Compare(c)) => compare::compare(c),
        Some(Sub::Strategies(c)) => strategies(c),
        Some(Sub::Check(c)) => check(c),
        Some(Sub::Plan(c)) => plan::plan(c, &program),
        Some(Sub::Merge(c)) => merge::merge(c, &program),
        Some(Sub::Completions { shell }) => {
            // Written whole first: clap_complete panics on a write that fails.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "solve", &mut script);
            match std::io::Write::write_all(&mut std::io::stdout(), &script) {
                Ok(()) => 0,
                Err(e) => fail(e),
            }
        }
        Some(Sub::Man) => {
            // Written whole first, as the completion script is.
            let mut page = Vec::new();
            match man::write_man(&mut page)
                .and_then(|()| std::io::Write::write_all(&mut std::io::stdout(), &page))
            {
                Ok(()) => 0,
                Err(e) => fail(e),
            }
        }
    }
}

pub(crate) fn fail(msg: impl std::fmt::Display) -> u8 {
    errln!("error: {msg}");
    USAGE_ERROR
}

fn solve(cli: SolveCli) -> u8 {
    // Checked before the input is read and before any file is opened for writing: creating
    // the output truncates it, and the puzzle with it.
    for (flag, path) in [("--output", &cli.out.output), ("--record", &cli.out.record)] {
        if let Some(path) = path
            && same_file(cli.file(), path)
        {
            let input = match cli.file() {
                "-" => "standard input",
                f => f,
            };
            return fail(format!(
                "{flag} {path}: is the puzzle file ({input}), which writing would overwrite; \
                 accepted: a path other than the input's"
            ));
        }
    }
    if cli.common.input == Some(InputFormat::Lines) {
        return many::solve_lines(&cli);
    }
    let (l, strategy) = match load(cli.file(), &cli.common, None)
        .and_then(|l| resolve_strategy(&l).map(|s| (l, s)))
    {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    if let Some(code) = knuth::before_search(&cli, &l) {
        return code;
    }
    // A count keeps no solution to draw: an empty drawing would pass for an answer.
    if cli.out.format == OutputFormat::Svg && l.task.goal == Goal::Count {
        return fail(
            "--format svg draws solutions, and goal count keeps none: use a goal that shows \
             solutions (first, or all, minimize or maximize where the kind takes them: `solve \
             strategies FILE` lists its goals), or --format text or json for the count",
        );
    }
    if cli.out.record.is_some() && l.task.part.is_none() {
        return fail("--record: accepted with --part I/N: the record is a part's");
    }
    if let Some(Err(e)) = cli.out.record.as_deref().map(parts::check_record) {
        return fail(e);
    }
    // The output, opened before the search, would empty the record file a stopped run
    // keeps. Checked once the record's folders exist, so that both paths resolve.
    if let (Some(output), Some(record)) = (&cli.out.output, &cli.out.record)
        && same_target(output, record)
    {
        return fail(format!(
            "--output {output}: is the --record file ({record}); accepted: two different files"
        ));
    }
    let mut limits = limits(cli.common.node_limit, l.task.goal, l.spec.solve.time_limit);
    // Goal count with a limit given stops at it (the answer at least so many); goal all
    // shows up to it and counts on. Without one only the first solutions up to the table's
    // default are shown, and the count stays exact.
    if l.task.goal == Goal::Count {
        limits.solutions = l.spec.solve.limit;
    }
    let keep = l.spec.solve.limit.unwrap_or_else(default_shown);
    let progress = !cli.out.quiet && std::io::stderr().is_terminal();
    let h = header(&l);
    // The answer's destination is opened before the search: solutions go out as they come.
    let out: Box<dyn Write + Send> = match &cli.out.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(format!("{path}: {e}")),
        },
        None => Box::new(std::io::stdout()),
    };
    let failed = |e: std::io::Error| match &cli.out.output {
        Some(path) => fail(format!("{path}: {e}")),
        None => fail(format!("standard output: {e}")),
    };
    let report = Mutex::new(Report::new(
        std::io::BufWriter::with_capacity(1 << 20, out),
        cli.out.format,
        l.task.part.is_some(),
        (keep, l.task.goal == Goal::All),
        l.task.memory,
        &l.clock,
    ));
    if let Err(e) = lock(&report).begin(&h, &strategy) {
        return failed(e);
    }
    let streams = l.task.goal == Goal::All && lock(&report).streams();
    let checked = std::thread::scope(|scope| {
        // Solutions written wait in the buffer at most FLUSH_EVERY, however far apart they
        // come; the flusher ends with the search.
        let (searching, flusher) = mpsc::channel::<()>();
        if streams {
            let report = &report;
            scope.spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = flusher.recv_timeout(FLUSH_EVERY) {
                    lock(report).flush_if_dirty();
                }
            });
        }
        let checked = run_one(&l, &strategy, limits, l.clock.clone(), progress, |s| {
            lock(&report).solution(&l.model, s)
        });
        drop(searching);
        checked
    });
    let checked = match checked {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let mut outcome = checked.outcome;
    let mut more: Vec<Picture> = checked
        .solutions
        .iter()
        .map(|s| l.model.picture(s))
        .collect();
    // A compact solution (a tour of up to 10^9 squares) is drawn from its own array, and
    // written row by row, so no second copy of it is made.
    if let Some(c) = outcome.answer.compact.take() {
        more.extend(l.model.picture_compact(c));
    }
    let record = parts::record_of(&cli, &l, &h, &outcome);
    // A record that cannot be written fails the run, after its answer is shown: the search
    // is not lost with it.
    let mut unrecorded = None;
    if let (Some(path), Some(r)) = (&cli.out.record, &record) {
        match parts::write_record(path, r) {
            Ok(parts::Recorded::Written) => {}
            Ok(parts::Recorded::Kept(old)) if !cli.out.quiet => {
                errln!("{}", render::kept_record_note(path, &old));
            }
            Ok(parts::Recorded::Replaced(old)) if !cli.out.quiet => {
                errln!("{}", render::replaced_record_note(path, &old));
            }
            Ok(parts::Recorded::Kept(_) | parts::Recorded::Replaced(_)) => {}
            Err(e) => unrecorded = Some(e),
        }
    }
    let report = report.into_inner().unwrap_or_else(|p| p.into_inner());
    let unfinished = match report.finish(
        &h,
        &outcome,
        more,
        checked.unchecked,
        &l.model,
        record.as_ref(),
    ) {
        Ok(u) => u,
        Err(e) => return failed(e),
    };
    if !cli.out.quiet {
        let mut line = render::summary_line(&h, &outcome);
        if let Some(u) = &unfinished {
            line = format!("{line} | {}", render::unfinished_text(u));
        }
        errln!("{line}");
    }
    if let Some(e) = unrecorded {
        return fail(e);
    }
    // An answer not shown whole is a run stopped before its end.
    if unfinished.is_some() {
        exit_code(Status::Limit)
    } else {
        exit_code(outcome.status)
    }
}

/// Whether `out` names the regular file that `input` (`-`: standard input) reads: the same
/// canonical path, or on Unix the same device and inode (a hard link, a bind mount). A path
/// that does not exist yet, or an input that is no regular file (a pipe, a terminal), is
/// never the same.
fn same_file(input: &str, out: &str) -> bool {
    let input = match input {
        "-" if cfg!(unix) => "/dev/stdin",
        "-" => return false,
        f => f,
    };
    let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(out)) else {
        return false;
    };
    if !a.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if a.dev() == b.dev() && a.ino() == b.ino() {
            return true;
        }
    }
    matches!(
        (std::fs::canonicalize(input), std::fs::canonicalize(out)),
        (Ok(x), Ok(y)) if x == y
    )
}

/// Whether two paths to be written name one file: one that exists already (a hard link, a
/// bind mount; [`same_file`]), or one not there yet, named twice through the same folder.
fn same_target(a: &str, b: &str) -> bool {
    if same_file(a, b) {
        return true;
    }
    matches!((place(a), place(b)), (Some(x), Some(y)) if x == y)
}

/// Where writing to `p` lands: its folder resolved, and its name, a dangling link followed
/// to where creating the file would put it (a few links deep).
fn place(p: &str) -> Option<std::path::PathBuf> {
    let mut p = std::path::PathBuf::from(p);
    for _ in 0..8 {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        let dir = std::fs::canonicalize(dir).ok()?;
        let here = dir.join(p.file_name()?);
        match std::fs::read_link(&here) {
            Ok(target) => p = dir.join(target),
            Err(_) => return Some(here),
        }
    }
    None
}

/// The lock, also after a panic elsewhere left it poisoned: a report is written to its end.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
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
        return fail(render::refusal_text(&e));
    }
    outln!(
        "{}: ok: {} ({}), goal {}, strategy {strategy}",
        cli.file,
        l.spec.kind().name(),
        render::summary_text(&l.model.describe_as_written(&l.spec)),
        l.task.goal.name()
    );
    0
}

fn strategies(cli: StrategiesCli) -> u8 {
    let Some(file) = &cli.file else {
        outln!(
            "Strategies by kind (`solve strategies FILE` says which apply and why not; \
             [parts]: takes --part I/N):"
        );
        for (kind, names) in boardsolve::kinds::catalogue() {
            outln!("  {kind}:");
            for (name, about, splits) in names {
                let mark = if splits { " [parts]" } else { "" };
                outln!("    {name:<10} {about}{mark}");
            }
        }
        return print_tuning();
    };
    let l = match load(file, &cli.common, None) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let auto = l.model.auto_strategy(&l.task);
    outln!(
        "{}: {} ({}), goal {}",
        file,
        l.spec.kind().name(),
        render::summary_text(&l.model.describe_as_written(&l.spec)),
        l.task.goal.name()
    );
    for s in l.model.strategies(&l.task) {
        let mark = if Some(s.name) == auto { " (auto)" } else { "" };
        match s.applies {
            Ok(()) => outln!(
                "  {:<10} applies{mark}: {}{}",
                s.name,
                s.about,
                if s.splits { " [parts]" } else { "" }
            ),
            Err(why) => outln!(
                "  {:<10} does not apply: {}",
                s.name,
                render::refusal_text(&why)
            ),
        }
    }
    if l.spec.kind() == Kind::Domination {
        return print_tuning();
    }
    0
}

/// The domination strategies' tuning knobs, one a line: the `[solve.options]` key, its
/// default and range, and why it exists.
fn print_tuning() -> u8 {
    outln!(
        "Tuning options of the domination strategies ([solve.options] or --set solve.options.KEY=V):"
    );
    for (key, d) in boardsolve::kinds::domination::option_table() {
        let whole = if d.integer { "whole, " } else { "" };
        outln!(
            "  {key} = {} ({whole}{} to {}): {}",
            d.default,
            d.min,
            d.max,
            d.help
        );
    }
    0
}
