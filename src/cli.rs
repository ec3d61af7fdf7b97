//! Argument parsing, the commands, exit codes, and where output goes: answers on standard
//! output, progress and the summary on standard error.

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use clap::{Args, Parser, ValueEnum};

use boardsolve::engine::{Goal, Limits, Outcome, Progress, Run, Stats, Status, Task};
use boardsolve::kinds::Model;
use boardsolve::render::{self, Header, Picture};
use boardsolve::spec::{Overrides, Spec};

const USAGE_ERROR: u8 = 2;

/// Solutions shown for goal `all` without `--limit`.
const DEFAULT_SHOWN: u64 = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Svg,
    /// Graphviz DOT of the move graph (kind tour), the solution's moves in bold
    Dot,
}

/// Options every command that reads a puzzle shares.
#[derive(Args, Debug, Clone)]
struct Common {
    /// first | all | count | minimize | maximize (default: the file's, else the kind's)
    #[arg(long)]
    goal: Option<String>,
    /// A strategy name, or auto (see `solve strategies FILE`)
    #[arg(long)]
    strategy: Option<String>,
    /// Board size n (n x n), overriding the file
    #[arg(long)]
    size: Option<usize>,
    /// Board width, overriding the file
    #[arg(long)]
    width: Option<usize>,
    /// Board height, overriding the file
    #[arg(long)]
    height: Option<usize>,
    /// Override any key of the file: --set rules.count=6 (repeatable)
    #[arg(long = "set", value_name = "KEY.PATH=VALUE")]
    set: Vec<String>,
    /// Solutions to print (goal all; default 1000; the count stays exact)
    #[arg(long)]
    limit: Option<u64>,
    /// Stop after this many seconds (exit 3 when the answer is not proven by then)
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Stop after this many search nodes
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,
    /// Worker threads for strategies that split their search
    #[arg(long)]
    threads: Option<usize>,
    /// Count classes under the board's symmetries instead of all solutions
    #[arg(long)]
    unique: bool,
    /// Search only part I of N of the tree (minimize, domination bnb); the N parts, run
    /// anywhere, together prove the optimum. I/N,J/M: part J of M of part I's children
    #[arg(long, value_name = "I/N")]
    part: Option<String>,
    /// Estimate the size of the search tree by this many random probes (Knuth) instead of
    /// searching it (minimize, domination bnb)
    #[arg(long, value_name = "PROBES")]
    estimate: Option<u64>,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    about = "Solve chessboard puzzles and exact cover problems written as TOML files",
    after_help = "Other commands:\n  solve compare FILE [--strategies a,b] [--size A..B] [--budget SECS]\n  \
                  solve strategies [FILE]\n  solve check FILE\n\nExit status: 0 solved, 1 no \
                  solution (proven), 2 bad input or usage, 3 stopped by a limit."
)]
struct SolveCli {
    /// The puzzle file, or - for standard input
    file: String,
    #[command(flatten)]
    common: Common,
    /// Output format
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the answer to this file instead of standard output
    #[arg(long)]
    output: Option<String>,
    /// No progress and no summary line on standard error
    #[arg(long)]
    quiet: bool,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve compare",
    about = "Run several strategies on one puzzle, check that they agree, and tabulate them"
)]
struct CompareCli {
    file: String,
    #[command(flatten)]
    common: Common,
    /// Strategies to run, comma separated (default: every one that applies)
    #[arg(long, value_delimiter = ',')]
    strategies: Vec<String>,
    /// A sweep of board sizes, A..B (inclusive): one row per size, one column per strategy
    #[arg(long = "sizes", alias = "size-range", value_name = "A..B")]
    sizes: Option<String>,
    /// Seconds each strategy may take per puzzle before it shows as `-`
    #[arg(long, default_value_t = 10.0)]
    budget: f64,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve strategies",
    about = "List the strategies, and which apply to FILE and why not"
)]
struct StrategiesCli {
    file: Option<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve check",
    about = "Validate a puzzle file without solving it"
)]
struct CheckCli {
    file: String,
    #[command(flatten)]
    common: Common,
}

pub fn main(mut args: Vec<OsString>) -> u8 {
    let sub = args.get(1).and_then(|a| a.to_str()).map(str::to_string);
    let result = match sub.as_deref() {
        Some("compare") => {
            args.remove(1);
            // `--size A..B` is the documented sweep form; a plain `--size N` stays an override.
            let args = rewrite_size_sweep(args);
            CompareCli::try_parse_from(args).map(compare)
        }
        Some("strategies") => {
            args.remove(1);
            StrategiesCli::try_parse_from(args).map(strategies)
        }
        Some("check") => {
            args.remove(1);
            CheckCli::try_parse_from(args).map(check)
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

/// `compare --size 4..14` is a sweep; clap sees it as `--sizes`.
fn rewrite_size_sweep(args: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let a = args[i].to_string_lossy().to_string();
        if a == "--size" && i + 1 < args.len() && args[i + 1].to_string_lossy().contains("..") {
            out.push(OsString::from("--sizes"));
            out.push(args[i + 1].clone());
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("--size=")
            && v.contains("..")
        {
            out.push(OsString::from(format!("--sizes={v}")));
            i += 1;
            continue;
        }
        out.push(args[i].clone());
        i += 1;
    }
    out
}

fn fail(msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    USAGE_ERROR
}

fn read_input(file: &str) -> Result<String, String> {
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
struct Loaded {
    spec: Spec,
    model: Model,
    task: Task,
    strategy: String,
    /// What the command line changed (`--size`, `--width`, `--height`, `--set`): the file's
    /// title may name another size or rule, so the header says which.
    changes: Vec<String>,
}

fn load(file: &str, common: &Common, size: Option<usize>) -> Result<Loaded, String> {
    let text = read_input(file)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let overrides = Overrides {
        set: common.set.clone(),
        size: size.or(common.size),
        width: common.width,
        height: common.height,
    };
    let spec = Spec::parse(name, &text, &overrides).map_err(|e| e.to_string())?;
    let goal = match &common.goal {
        Some(g) => spec.goal(g, None).map_err(|e| e.to_string())?,
        None => spec.solve.goal.unwrap_or(spec.kind.default_goal()),
    };
    let threads = common.threads.or(spec.solve.threads).unwrap_or(1);
    if !(1..=1024).contains(&threads) {
        return Err(format!("--threads {threads}: accepted: 1 to 1024"));
    }
    let (part, subpart) = match common.part.as_deref().map(parse_parts).transpose()? {
        Some((p, sub)) => (Some(p), sub),
        None => (None, None),
    };
    if common.estimate == Some(0) {
        return Err("--estimate: accepted: a number of probes, at least 1".into());
    }
    let task = Task {
        goal,
        unique: common.unique || spec.solve.unique,
        threads,
        part,
        subpart,
        estimate: common.estimate,
    };
    let model = Model::compile(&spec).map_err(|e| e.to_string())?;
    let strategy = common
        .strategy
        .clone()
        .or_else(|| spec.solve.strategy.clone())
        .unwrap_or_else(|| "auto".into());
    let changed = overrides.size.is_some()
        || overrides.width.is_some()
        || overrides.height.is_some()
        || overrides
            .set
            .iter()
            .any(|kv| kv.trim_start().starts_with("board."));
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
            .map(|kv| kv.trim())
            .filter(|kv| !kv.starts_with("board."))
            .map(str::to_string),
    );
    Ok(Loaded {
        spec,
        model,
        task,
        strategy,
        changes,
    })
}

type Part = (usize, usize);

/// `--part I/N` (part I, 1-based, of N) or `--part I/N,J/M` (part J of M of part I's
/// children).
fn parse_parts(s: &str) -> Result<(Part, Option<Part>), String> {
    let bad = || {
        format!(
            "--part {s}: accepted: I/N with 1 <= I <= N <= 100000, e.g. 3/8, or I/N,J/M for \
             part J of M of part I's children, e.g. 3/8,2/4"
        )
    };
    // A second comma is left in the subpart, which then does not parse.
    let (first, sub) = match s.split_once(',') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let part = parse_part(first).map_err(|_| bad())?;
    let sub = sub.map(parse_part).transpose().map_err(|_| bad())?;
    Ok((part, sub))
}

fn parse_part(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--part {s}: accepted: I/N with 1 <= I <= N <= 100000, e.g. 3/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if i == 0 || i > n || n > 100_000 {
        return Err(bad());
    }
    Ok((i, n))
}

fn resolve_strategy(l: &Loaded) -> Result<String, String> {
    if l.strategy != "auto" {
        return Ok(l.strategy.clone());
    }
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

fn header(l: &Loaded) -> Header {
    let syms = match &l.model {
        Model::Independent(m) => m.symmetries.len(),
        Model::Cover(_) | Model::Tour(_) => 1,
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

fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = Arc::clone(&flag);
        // Without a handler Ctrl-C kills the process; with it the search stops at its next
        // check and the best so far is still printed (exit 3).
        let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
        flag
    })
    .clone()
}

fn limits(common: &Common, goal: Goal, time: Option<f64>) -> Result<Limits, String> {
    let time = match time {
        Some(t) if !(t > 0.0 && t < 1e9) => {
            return Err(format!("--time-limit {t}: accepted: seconds, more than 0"));
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Limits {
        time,
        nodes: common.node_limit,
        solutions: (goal == Goal::First).then_some(1),
    })
}

struct Spinner(indicatif::ProgressBar);

impl Progress for Spinner {
    fn update(&mut self, stats: &Stats, elapsed: Duration, status: &str) {
        let rate = stats.nodes as f64 / elapsed.as_secs_f64().max(1e-9);
        // Branch and bound spends tens of microseconds a node: M/s would read 0.0.
        let rate = if rate >= 1e6 {
            format!("{:.1} M/s", rate / 1e6)
        } else {
            format!("{:.1} k/s", rate / 1e3)
        };
        // An optimisation reports its best so far in `status`; a count of 0 says nothing.
        let solutions = if stats.solutions == 0 && !status.is_empty() {
            String::new()
        } else {
            format!(" | {} solutions", render::group(stats.solutions))
        };
        self.0.set_message(format!(
            "{} nodes ({rate}){solutions}{}{}",
            render::group(stats.nodes as u128),
            if status.is_empty() { "" } else { " | " },
            status
        ));
        self.0.tick();
    }
    fn finish(&mut self) {
        self.0.finish_and_clear();
    }
}

/// Run one strategy; solutions (first/all) are checked and kept up to `keep`.
fn run_one(
    l: &Loaded,
    strategy: &str,
    limits: Limits,
    keep: u64,
    progress: bool,
) -> Result<(Outcome, Vec<Vec<usize>>), String> {
    let kept: Mutex<Vec<Vec<usize>>> = Mutex::new(Vec::new());
    let invalid: Mutex<Option<String>> = Mutex::new(None);
    let enumerate = matches!(l.task.goal, Goal::First | Goal::All);
    let mut run = Run::new(limits).with_interrupt(interrupt_flag());
    if enumerate {
        let model = &l.model;
        let (kept, invalid) = (&kept, &invalid);
        run = run.with_sink(Box::new(move |sol: &[usize]| {
            if let Err(e) = model.check(sol) {
                *invalid.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                return ControlFlow::Break(());
            }
            let mut k = kept.lock().unwrap_or_else(|p| p.into_inner());
            if (k.len() as u64) < keep {
                k.push(sol.to_vec());
            }
            ControlFlow::Continue(())
        }));
    }
    if progress {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        run = run.with_progress(Box::new(Spinner(bar)));
    }
    let answer = l.model.solve(strategy, &l.task, &mut run)?;
    let outcome = run.finish(strategy, answer);
    if let Some(e) = invalid.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(format!(
            "internal error: strategy {strategy} produced an invalid solution: {e}"
        ));
    }
    let mut solutions = kept.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = &outcome.answer.compact {
        l.model.check_compact(c).map_err(|e| {
            format!("internal error: strategy {strategy} produced an invalid solution: {e}")
        })?;
    }
    if let Some(best) = &outcome.answer.best {
        l.model.check(best).map_err(|e| {
            format!("internal error: strategy {strategy} produced an invalid solution: {e}")
        })?;
        solutions = vec![best.clone()];
    }
    Ok((outcome, solutions))
}

fn solve(cli: SolveCli) -> u8 {
    let l = match load(&cli.file, &cli.common, None) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let strategy = match resolve_strategy(&l) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let time = cli.common.time_limit.or(l.spec.solve.time_limit);
    let limits = match limits(&cli.common, l.task.goal, time) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    // Solutions are kept in memory until they are written, so without --limit only the first
    // DEFAULT_SHOWN are kept; the count stays exact.
    let keep = cli
        .common
        .limit
        .or(l.spec.solve.limit)
        .unwrap_or(DEFAULT_SHOWN);
    let progress = !cli.quiet && std::io::stderr().is_terminal();
    let (mut outcome, solutions) = match run_one(&l, &strategy, limits, keep, progress) {
        Ok(x) => x,
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
    let written = match &cli.output {
        Some(path) => std::fs::File::create(path)
            .map_err(|e| format!("{path}: {e}"))
            .and_then(|f| {
                let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
                write_report(&mut w, &cli, &l, &h, &outcome, &solutions, &pictures)
                    .and_then(|_| w.flush())
                    .map_err(|e| format!("{path}: {e}"))
            }),
        None => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            write_report(&mut w, &cli, &l, &h, &outcome, &solutions, &pictures)
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
    outcome.status.exit_code()
}

fn write_report(
    w: &mut dyn Write,
    cli: &SolveCli,
    l: &Loaded,
    h: &Header,
    outcome: &Outcome,
    solutions: &[Vec<usize>],
    pictures: &[Picture],
) -> std::io::Result<()> {
    match cli.format {
        Format::Text => {
            if let Some(t) = &h.title {
                writeln!(w, "{t}")?;
            }
            for p in pictures {
                writeln!(w)?;
                render::write_text_picture(w, p)?;
            }
            if !pictures.is_empty() {
                writeln!(w)?;
            }
            writeln!(w, "{}", render::answer_line(h, outcome))?;
            if let Some(c) = outcome.answer.count
                && l.task.goal == Goal::All
                && (pictures.len() as u128) < c
            {
                writeln!(
                    w,
                    "(showing the first {} of them; --limit N shows more)",
                    render::group(pictures.len() as u128)
                )?;
            }
            Ok(())
        }
        Format::Json => render::write_json_report(w, h, outcome, pictures),
        Format::Svg => {
            let big = pictures.iter().any(|p| match p {
                Picture::Tour { number, .. } => number.len() > render::SVG_MAX_SQUARES,
                Picture::Placement { holes, .. } | Picture::Stones { holes, .. } => {
                    holes.len() > render::SVG_MAX_SQUARES
                }
                Picture::Options(_) => false,
            });
            if big {
                return Err(std::io::Error::other(format!(
                    "--format svg draws boards up to {} squares; use text or json",
                    render::SVG_MAX_SQUARES
                )));
            }
            w.write_all(render::svg_report(h, pictures).as_bytes())
        }
        Format::Dot => {
            let numbers = match (&outcome.answer.compact, solutions.first()) {
                (Some(c), _) => Some(c.clone()),
                (None, Some(s)) => match l.model.picture(s) {
                    Picture::Tour { number, .. } => Some(number),
                    _ => None,
                },
                _ => None,
            };
            match l.model.dot(numbers.as_ref()) {
                Ok(d) => w.write_all(d.as_bytes()),
                Err(e) => Err(std::io::Error::other(e)),
            }
        }
    }
}

fn check(cli: CheckCli) -> u8 {
    match load(&cli.file, &cli.common, None) {
        Ok(l) => {
            println!(
                "{}: ok: {} ({}), goal {}",
                cli.file,
                l.spec.kind.name(),
                l.model.describe(),
                l.task.goal.name()
            );
            0
        }
        Err(e) => fail(e),
    }
}

fn strategies(cli: StrategiesCli) -> u8 {
    let Some(file) = &cli.file else {
        println!("Strategies by kind (`solve strategies FILE` says which apply and why not):");
        for (kind, names) in boardsolve::kinds::catalogue() {
            println!("  {kind}:");
            for (name, about) in names {
                println!("    {name:<10} {about}");
            }
        }
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
        l.model.describe(),
        l.task.goal.name()
    );
    for s in l.model.strategies(&l.task) {
        let mark = if Some(s.name) == auto { " (auto)" } else { "" };
        match s.applies {
            Ok(()) => println!("  {:<10} applies{mark}: {}", s.name, s.about),
            Err(why) => println!("  {:<10} does not apply: {why}", s.name),
        }
    }
    0
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

fn compare(cli: CompareCli) -> u8 {
    let sizes: Option<(usize, usize)> = match &cli.sizes {
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
    if cli.budget.is_nan() || cli.budget <= 0.0 {
        return fail("--budget: accepted: seconds, more than 0");
    }
    let budget = cli.common.time_limit.unwrap_or(cli.budget);
    let first = match load(&cli.file, &cli.common, sizes.map(|s| s.0)) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let all: Vec<&'static str> = first
        .model
        .strategies(&first.task)
        .iter()
        .map(|s| s.name)
        .collect();
    let names: Vec<String> = if cli.strategies.is_empty() {
        first
            .model
            .strategies(&first.task)
            .into_iter()
            .filter(|s| s.applies.is_ok() || sizes.is_some())
            .map(|s| s.name.to_string())
            .collect()
    } else {
        for n in &cli.strategies {
            if !all.contains(&n.as_str()) {
                return fail(format!(
                    "unknown strategy \"{n}\"; accepted: {}",
                    all.join(", ")
                ));
            }
        }
        cli.strategies.clone()
    };
    let lim = |goal| limits(&cli.common, goal, Some(budget));
    match sizes {
        None => {
            println!(
                "{}: {} ({}), goal {}, budget {budget} s",
                cli.file,
                first.spec.kind.name(),
                first.model.describe(),
                first.task.goal.name()
            );
            println!(
                "{:<10} {:>22} {:>16} {:>12} {:>14}",
                "strategy", "answer", "nodes", "time", "nodes/s"
            );
            let mut finished: Vec<(String, String)> = Vec::new();
            let statuses = first.model.strategies(&first.task);
            for name in &names {
                if let Some(Err(why)) = statuses.iter().find(|s| s.name == name).map(|s| &s.applies)
                {
                    println!("{name:<10} {:>22}  ({why})", "-");
                    continue;
                }
                let limits = match lim(first.task.goal) {
                    Ok(x) => x,
                    Err(e) => return fail(e),
                };
                match run_one(&first, name, limits, 0, false) {
                    Ok((o, _)) => {
                        let secs = o.elapsed.as_secs_f64();
                        let answer = if o.status == Status::Limit {
                            "- (budget)".to_string()
                        } else {
                            verdict(&o)
                        };
                        println!(
                            "{name:<10} {answer:>22} {:>16} {:>12} {:>14}",
                            render::group(o.stats.nodes as u128),
                            render::duration(secs),
                            render::group((o.stats.nodes as f64 / secs.max(1e-9)) as u128)
                        );
                        if o.status != Status::Limit {
                            finished.push((name.clone(), verdict(&o)));
                        }
                    }
                    Err(e) => return fail(e),
                }
            }
            disagreement(&finished).map_or(0, fail)
        }
        Some((a, b)) => {
            print!("{:>4} {:>22}", "size", "answer");
            for n in &names {
                print!(" {n:>12}");
            }
            println!();
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
                    let limits = match lim(l.task.goal) {
                        Ok(x) => x,
                        Err(e) => return fail(e),
                    };
                    match run_one(&l, name, limits, 0, false) {
                        Ok((o, _)) if o.status == Status::Limit => {
                            over[i] = true;
                            cells.push("-".into());
                        }
                        Ok((o, _)) => {
                            cells.push(render::duration(o.elapsed.as_secs_f64()));
                            finished.push((name.clone(), verdict(&o)));
                        }
                        Err(e) => return fail(e),
                    }
                }
                let answer = finished.first().map(|f| f.1.clone()).unwrap_or("-".into());
                print!("{size:>4} {answer:>22}");
                for c in &cells {
                    print!(" {c:>12}");
                }
                println!();
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
