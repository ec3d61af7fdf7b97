//! The command line's flags: their definitions (clap), and the few values parsed beyond what
//! clap does (`--part`, a size sweep, limits).

use std::ffi::OsString;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, StringValueParser, TypedValueParser};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, Parser, Subcommand};

use boardsolve::engine::{Goal, Limits};
use boardsolve::spec::options::{
    COMPARE, Default, InputFormat, MERGE, MergeFormat, OPTION_GROUPS, OUTPUT, OptionGroup,
    OutputFormat, PLAN, RunOption, Value,
};

/// Options every command that reads a puzzle shares: the rows of the library's option
/// tables (`boardsolve::spec::options`), whose flags, help, defaults and ranges clap takes
/// from there ([`Common::augment_args`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Common {
    pub(crate) goal: Option<String>,
    pub(crate) strategy: Option<String>,
    pub(crate) size: Option<usize>,
    pub(crate) width: Option<usize>,
    pub(crate) height: Option<usize>,
    pub(crate) set: Vec<String>,
    pub(crate) input: Option<InputFormat>,
    pub(crate) limit: Option<u64>,
    pub(crate) time_limit: Option<f64>,
    pub(crate) node_limit: Option<u64>,
    pub(crate) memory: Option<String>,
    pub(crate) scratch: Option<String>,
    pub(crate) threads: Option<usize>,
    pub(crate) unique: bool,
    pub(crate) prefixes: bool,
    pub(crate) branch: Option<String>,
    pub(crate) part: Option<String>,
    pub(crate) estimate: Option<u64>,
    pub(crate) optimum: Option<u64>,
}

/// The help line of a row: its help, then what it accepts and its default.
fn help_of(o: &RunOption) -> String {
    // clap lists the names of a choice it checks itself.
    let accepted = match o.value.names() {
        Some(_) if o.key.is_none() => String::new(),
        Some(names) => names.join(", "),
        None => o.accepted(),
    };
    let mut notes = Vec::new();
    if !accepted.is_empty() {
        notes.push(format!("accepted: {accepted}"));
    }
    // clap says a required flag is, in the usage line.
    let default = o.default.words();
    if !default.is_empty() && o.default != Default::Required {
        notes.push(format!("default: {default}"));
    }
    if let Some(key) = o.key {
        notes.push(format!("file: {key}"));
    }
    let relations = o.relations();
    if !relations.is_empty() {
        notes.push(relations);
    }
    if notes.is_empty() {
        o.help.to_string()
    } else {
        format!("{} [{}]", o.help, notes.join("; "))
    }
}

/// Why a flag's value is not a number of its kind, as clap says it after "invalid value
/// '-1' for '--threads <N>': ": what the option's table accepts.
fn not_a_number(o: &RunOption) -> String {
    match (o.value, o.accepted()) {
        (Value::Whole, a) if a.is_empty() => "accepted: a whole number".into(),
        (Value::Whole, a) => format!("accepted: a whole number, {a}"),
        (_, a) => format!("accepted: {a}"),
    }
}

/// A name that clap takes as it is, for the spec to check as it checks the file's key, and
/// offers to shell completion (`solve completions`): the names the key accepts.
#[derive(Clone)]
struct Offered(Vec<&'static str>);

impl TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|&n| PossibleValue::new(n))))
    }
}

/// `auto` and every kind's strategy names, each once, as the library's catalogue lists them.
fn strategy_names() -> Vec<&'static str> {
    let mut names = vec!["auto"];
    for (_, strategies) in boardsolve::kinds::catalogue() {
        for (name, _, _) in strategies {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The clap argument of a row of the option tables, under `heading` (`None`: the command's
/// own "Options"). `checked`: the value's range is checked here, where no later check
/// (the spec's, or load's) takes the flag.
fn arg_of(heading: Option<&'static str>, o: &'static RunOption, checked: bool) -> Arg {
    let arg = Arg::new(o.flag)
        .long(o.flag)
        .help(help_of(o))
        .help_heading(heading);
    let arg = if o.value == Value::Switch {
        arg
    } else {
        arg.value_name(o.value_name)
    };
    let arg = match o.default {
        // The help line says the default ([`help_of`]).
        Default::Literal(v) => arg.default_value(v).hide_default_value(true),
        Default::Required => arg.required(true),
        _ => arg,
    };
    let arg = o.requires.iter().fold(arg, |arg, r| arg.requires(*r));
    let arg = arg.conflicts_with_all(o.conflicts);
    let arg = match o.alias {
        Some(a) => arg.alias(a),
        None => arg,
    };
    match o.value {
        Value::Switch => arg.action(ArgAction::SetTrue),
        // Out of range values reach the checks that name the range (the spec's, or load's),
        // or are refused here when none does; one that is not a number at all (`-1`, `abc`)
        // is refused here, naming the range too.
        Value::Whole => arg
            .value_parser(move |s: &str| {
                let v = s.parse::<u64>().map_err(|_| not_a_number(o))?;
                if checked {
                    o.check_whole(i64::try_from(v).unwrap_or(i64::MAX))
                        .map_err(|_| not_a_number(o))?;
                }
                Ok::<_, String>(v)
            })
            .allow_negative_numbers(true),
        Value::Seconds => arg
            .value_parser(move |s: &str| {
                let v = s.parse::<f64>().map_err(|_| not_a_number(o))?;
                if checked {
                    o.check_real(v).map_err(|_| not_a_number(o))?;
                }
                Ok::<_, String>(v)
            })
            .allow_negative_numbers(true),
        // A name that a file's key also takes is checked where the key is, alike for both,
        // and offered to shell completion; a flag's own names are checked by clap.
        Value::Choice(names) if o.key.is_none() => {
            arg.value_parser(PossibleValuesParser::new(names))
        }
        Value::Described(pairs) if o.key.is_none() => arg.value_parser(PossibleValuesParser::new(
            pairs
                .iter()
                .map(|&(name, help)| PossibleValue::new(name).help(help)),
        )),
        Value::Described(pairs) => arg
            .value_parser(Offered(pairs.iter().map(|&(name, _)| name).collect()))
            .hide_possible_values(true),
        Value::Choice(names) => arg
            .value_parser(Offered(names.to_vec()))
            .hide_possible_values(true),
        Value::Text if o.flag == "strategy" => arg
            .value_parser(Offered(strategy_names()))
            .hide_possible_values(true),
        Value::Text => arg.allow_hyphen_values(o.flag == "part"),
        Value::Repeated => arg.action(ArgAction::Append),
        Value::List if o.flag == "strategies" => arg
            .value_delimiter(',')
            .action(ArgAction::Append)
            .value_parser(Offered(strategy_names()))
            .hide_possible_values(true),
        Value::List => arg.value_delimiter(',').action(ArgAction::Append),
    }
}

/// A command's own flags, from its table, among its "Options".
fn command_args(cmd: Command, g: &'static OptionGroup) -> Command {
    cmd.args(g.options.iter().map(|o| arg_of(None, o, true)))
}

impl Args for Common {
    fn augment_args(cmd: Command) -> Command {
        OPTION_GROUPS.iter().fold(cmd, |cmd, g| {
            cmd.args(g.options.iter().map(|o| arg_of(Some(g.title), o, false)))
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for Common {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let text = |flag: &str| m.get_one::<String>(flag).cloned();
        let whole = |flag: &str| m.get_one::<u64>(flag).copied();
        let index = |flag: &str| whole(flag).map(|v| usize::try_from(v).unwrap_or(usize::MAX));
        Ok(Common {
            goal: text("goal"),
            strategy: text("strategy"),
            size: index("size"),
            width: index("width"),
            height: index("height"),
            set: m
                .get_many::<String>("set")
                .map(|v| v.cloned().collect())
                .unwrap_or_default(),
            input: text("input").and_then(|s| InputFormat::parse(&s)),
            limit: whole("limit"),
            time_limit: m.get_one::<f64>("time-limit").copied(),
            node_limit: whole("node-limit"),
            memory: text("memory"),
            scratch: text("scratch"),
            threads: index("threads"),
            unique: m.get_flag("unique"),
            prefixes: m.get_flag("prefixes"),
            branch: text("branch"),
            part: text("part"),
            estimate: whole("estimate"),
            optimum: whole("optimum"),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The command line: a puzzle file and its options (a solve), or one of the commands.
#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    about = "Solve chessboard puzzles and exact cover problems written as TOML files or in \
             Knuth's exact-cover format",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Every run option, with its key in the puzzle file: docs/options.md.\n\n\
                  Exit status: 0 solved, 1 no solution (proven), 2 bad input or usage, 3 \
                  stopped by a limit."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Sub>,
    #[command(flatten)]
    pub(crate) solve: SolveCli,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Sub {
    /// Run several strategies on one puzzle, check that they agree, and tabulate them
    Compare(CompareCli),
    /// List the strategies, and which apply to FILE and why not
    Strategies(StrategiesCli),
    /// Validate a puzzle file without solving it
    Check(CheckCli),
    /// Print one command per part of a search, for GNU Parallel, xargs or a Slurm array
    Plan(PlanCli),
    /// Merge the records of a search's parts (`--part I/N --record PATH`) into its answer
    #[command(
        after_help = "Exit status: 0 every part searched (the answer as one run gives it), 1 no \
                      solution, 2 records that do not belong together, 3 parts still to run."
    )]
    Merge(MergeCli),
    /// Print a completion script for a shell, to be sourced by it
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print this command line's manual page (roff) on standard output: `solve man > solve.1`
    Man,
}

/// A solve: `solve FILE [OPTIONS]`.
#[derive(Args, Debug)]
pub(crate) struct SolveCli {
    /// The puzzle file, or - for standard input
    #[arg(required = true)]
    pub(crate) file: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
    #[command(flatten)]
    pub(crate) out: OutputFlags,
}

/// A solve's own flags: the rows of its table ([`OUTPUT`]).
#[derive(Debug, Clone)]
pub(crate) struct OutputFlags {
    pub(crate) format: OutputFormat,
    pub(crate) output: Option<String>,
    pub(crate) quiet: bool,
    pub(crate) record: Option<String>,
}

impl SolveCli {
    /// The puzzle file, which clap requires of a solve.
    pub(crate) fn file(&self) -> &str {
        self.file.as_deref().expect("clap requires FILE of a solve")
    }
}

#[derive(Args, Debug)]
pub(crate) struct MergeCli {
    /// Record files (JSON lines), folders of them (with the plan's plan.json), or - for
    /// standard input
    #[arg(required = true)]
    pub(crate) records: Vec<String>,
    #[command(flatten)]
    pub(crate) flags: MergeFlags,
}

/// `solve merge`'s own flags: the rows of its table ([`MERGE`]).
#[derive(Debug, Clone)]
pub(crate) struct MergeFlags {
    pub(crate) quiet: bool,
    pub(crate) format: MergeFormat,
    pub(crate) status: bool,
    pub(crate) missing: bool,
    pub(crate) verify: Option<usize>,
    pub(crate) seed: Option<u64>,
}

#[derive(Args, Debug)]
pub(crate) struct PlanCli {
    /// The puzzle file (a path: each part reads it again)
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
    #[command(flatten)]
    pub(crate) flags: PlanFlags,
}

/// `solve plan`'s own flags: the rows of its table ([`PLAN`]).
#[derive(Debug, Clone)]
pub(crate) struct PlanFlags {
    pub(crate) parts: usize,
    pub(crate) results: String,
    pub(crate) slurm: bool,
}

#[derive(Args, Debug)]
pub(crate) struct CompareCli {
    /// The puzzle file, or - for standard input
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
    #[command(flatten)]
    pub(crate) flags: CompareFlags,
}

/// `solve compare`'s own flags: the rows of its table ([`COMPARE`]).
#[derive(Debug, Clone)]
pub(crate) struct CompareFlags {
    pub(crate) strategies: Vec<String>,
    pub(crate) sizes: Option<String>,
    pub(crate) budget: f64,
}

/// A whole number clap parsed, as a `usize` (larger ones, which no count reaches, saturate).
fn index_of(m: &ArgMatches, flag: &str) -> Option<usize> {
    m.get_one::<u64>(flag)
        .map(|&v| usize::try_from(v).unwrap_or(usize::MAX))
}

/// The `Args` of a command's own flags: the arguments of its table, and the struct read
/// from their matches.
macro_rules! command_flags {
    ($t:ty, $group:expr, |$m:ident| $read:expr) => {
        impl Args for $t {
            fn augment_args(cmd: Command) -> Command {
                command_args(cmd, &$group)
            }

            fn augment_args_for_update(cmd: Command) -> Command {
                Self::augment_args(cmd)
            }
        }

        impl FromArgMatches for $t {
            fn from_arg_matches($m: &ArgMatches) -> Result<Self, clap::Error> {
                Ok($read)
            }

            fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(m)?;
                Ok(())
            }
        }
    };
}

command_flags!(OutputFlags, OUTPUT, |m| OutputFlags {
    // clap takes only the table's names, and gives the default.
    format: m
        .get_one::<String>("format")
        .and_then(|f| OutputFormat::parse(f))
        .unwrap_or(OutputFormat::Text),
    output: m.get_one::<String>("output").cloned(),
    quiet: m.get_flag("quiet"),
    record: m.get_one::<String>("record").cloned(),
});

command_flags!(MergeFlags, MERGE, |m| MergeFlags {
    quiet: m.get_flag("quiet"),
    // clap takes only the table's names, and gives the default.
    format: m
        .get_one::<String>("format")
        .and_then(|f| MergeFormat::parse(f))
        .unwrap_or(MergeFormat::Text),
    status: m.get_flag("status"),
    missing: m.get_flag("missing"),
    verify: index_of(m, "verify"),
    seed: m.get_one::<u64>("seed").copied(),
});

// `--parts` is required, and checked in range, by clap; `--results` and `--budget` have
// their defaults from it.
command_flags!(PlanFlags, PLAN, |m| PlanFlags {
    parts: index_of(m, "parts").unwrap_or(0),
    results: m.get_one::<String>("results").cloned().unwrap_or_default(),
    slurm: m.get_flag("slurm"),
});

command_flags!(CompareFlags, COMPARE, |m| CompareFlags {
    strategies: m
        .get_many::<String>("strategies")
        .map(|v| v.cloned().collect())
        .unwrap_or_default(),
    sizes: m.get_one::<String>("sizes").cloned(),
    budget: m.get_one::<f64>("budget").copied().unwrap_or(f64::NAN),
});

#[derive(Args, Debug)]
pub(crate) struct StrategiesCli {
    /// The puzzle file, or - for standard input
    pub(crate) file: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Args, Debug)]
pub(crate) struct CheckCli {
    /// The puzzle file, or - for standard input
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// `compare --size 4..14` is a sweep; clap sees it as `--sizes`.
pub(crate) fn rewrite_size_sweep(args: Vec<OsString>) -> Vec<OsString> {
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

pub(crate) type Part = (usize, usize);

/// `--part I/N` (part I, 1-based, of N) or `--part I/N,J/M` (part J of M of part I's
/// children).
pub(crate) fn parse_parts(s: &str) -> Result<(Part, Option<Part>), String> {
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

pub(crate) fn parse_part(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--part {s}: accepted: I/N with 1 <= I <= N <= 100000, e.g. 3/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if i == 0 || i > n || n > 100_000 {
        return Err(bad());
    }
    Ok((i, n))
}

/// The search limits of a run: time and nodes from the flags or the file (checked by the
/// spec), one solution for goal first.
pub(crate) fn limits(node_limit: Option<u64>, goal: Goal, time: Option<f64>) -> Limits {
    Limits {
        time: time.map(Duration::from_secs_f64),
        nodes: node_limit,
        solutions: (goal == Goal::First).then_some(1),
    }
}

/// What `--memory` accepts, for its errors.
const MEMORY_ACCEPTED: &str =
    "accepted: a size in bytes, or with K, M, G or T (powers of 1024), e.g. 512M or 4G";

/// `--memory SIZE`: bytes, or a number (decimals allowed) with K, M, G or T, powers of 1024,
/// optionally followed by B or iB ("4G", "1.5GiB", "512m", "100000000"); at least
/// [`super::memory::MIN_BUDGET`].
pub(crate) fn parse_memory(s: &str) -> Result<u64, String> {
    memory_size(s).map_err(|why| format!("--memory {s}: {why}"))
}

/// A size as `--memory` takes it ([`parse_memory`]), or what is accepted, naming no flag:
/// the Python package's `memory` argument takes the same.
pub(crate) fn memory_size(s: &str) -> Result<u64, String> {
    let bad = || MEMORY_ACCEPTED.to_string();
    let t = s.trim();
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit
        .strip_suffix("ib")
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let bytes = if number.contains('.') {
        let v: f64 = number.parse().map_err(|_| bad())?;
        let b = (v * (1u64 << shift) as f64).floor();
        if !(b.is_finite() && b < u64::MAX as f64) {
            return Err(bad());
        }
        b as u64
    } else {
        let v: u64 = number.parse().map_err(|_| bad())?;
        v.checked_mul(1 << shift).ok_or_else(bad)?
    };
    let min = super::memory::MIN_BUDGET;
    if bytes < min {
        return Err(format!(
            "{MEMORY_ACCEPTED}, from {}M up (the process itself takes a few megabytes); more \
             than the system gives is capped at 3/4 of what it gives",
            min >> 20
        ));
    }
    Ok(bytes)
}

/// The options a run was given, as arguments again (all but `--part` and `--estimate`): what
/// a part's record carries so that a missing part can be run alike.
pub(crate) fn common_args(c: &Common) -> Vec<String> {
    let mut a = Vec::new();
    let mut push = |flag: &str, v: Option<String>| {
        if let Some(v) = v {
            a.push(flag.to_string());
            a.push(v);
        }
    };
    push("--input", c.input.map(|i| i.name().to_string()));
    push("--goal", c.goal.clone());
    push("--strategy", c.strategy.clone());
    push("--size", c.size.map(|x| x.to_string()));
    push("--width", c.width.map(|x| x.to_string()));
    push("--height", c.height.map(|x| x.to_string()));
    for kv in &c.set {
        push("--set", Some(kv.clone()));
    }
    push("--limit", c.limit.map(|x| x.to_string()));
    push("--time-limit", c.time_limit.map(|x| x.to_string()));
    push("--node-limit", c.node_limit.map(|x| x.to_string()));
    push("--threads", c.threads.map(|x| x.to_string()));
    push("--memory", c.memory.clone());
    push("--scratch", c.scratch.clone());
    push("--optimum", c.optimum.map(|x| x.to_string()));
    push("--branch", c.branch.clone());
    if c.unique {
        a.push("--unique".into());
    }
    if c.prefixes {
        a.push("--prefixes".into());
    }
    a
}

/// A word for a POSIX shell: as it is when it needs no quoting, else in single quotes.
pub(crate) fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=,+-@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
