//! The command line's flags: their definitions (clap), and the few values parsed beyond what
//! clap does (`--part`, a size sweep, limits).

use std::ffi::OsString;
use std::time::Duration;

use clap::{Args, Parser, ValueEnum};

use boardsolve::engine::{Goal, Limits};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
    Svg,
    /// Graphviz DOT of the move graph (kind tour), the solution's moves in bold
    Dot,
    /// Solutions as Knuth's DLX1 prints them, then his statistics line (kind cover)
    Knuth,
    /// The puzzle itself in Knuth's exact-cover format, for his programs; nothing is solved
    KnuthInput,
}

/// The puzzle file's format (`--input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Input {
    /// A TOML puzzle file
    Toml,
    /// Knuth's exact-cover format (DLX1, DLX2, DLX3)
    Knuth,
}

impl Input {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Input::Toml => "toml",
            Input::Knuth => "knuth",
        }
    }
}

/// Options every command that reads a puzzle shares.
#[derive(Args, Debug, Clone)]
pub(crate) struct Common {
    /// first | all | count | minimize | maximize (default: the file's, else the kind's)
    #[arg(long)]
    pub(crate) goal: Option<String>,
    /// A strategy name, or auto (see `solve strategies FILE`)
    #[arg(long)]
    pub(crate) strategy: Option<String>,
    /// Board size n (n x n), overriding the file
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) size: Option<usize>,
    /// Board width, overriding the file
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) width: Option<usize>,
    /// Board height, overriding the file
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) height: Option<usize>,
    /// Override any key of the file: --set rules.count=6 (repeatable)
    #[arg(long = "set", value_name = "KEY.PATH=VALUE")]
    pub(crate) set: Vec<String>,
    /// The file's format: toml or knuth (default: knuth for .dlx, .xcc and .mcc files, and
    /// toml otherwise; standard input is toml unless named)
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) input: Option<Input>,
    /// Solutions to print (goal all; default 1000; the count stays exact)
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) limit: Option<u64>,
    /// Stop after this many seconds (exit 3 when the answer is not proven by then)
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub(crate) time_limit: Option<f64>,
    /// Stop after this many search nodes
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) node_limit: Option<u64>,
    /// Memory a run may take, reading the file included: bytes, or K, M, G, T (powers of
    /// 1024), from 8M, e.g. 512M or 4G. A file or job that would need more is refused before
    /// it starts (exit 2); a search whose memory grows past it stops (exit 3). Default, and
    /// the most it is given: 3/4 of the machine's memory (the least of MemTotal, the cgroup's
    /// memory limit and `ulimit -v`)
    #[arg(long, value_name = "SIZE")]
    pub(crate) memory: Option<String>,
    /// Worker threads for strategies that split their search (default: every core)
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) threads: Option<usize>,
    /// Count classes under the board's symmetries instead of all solutions
    #[arg(long)]
    pub(crate) unique: bool,
    /// Count every prefix of the board as well: its first m squares in the count's sweep
    /// order, the rest as holes (tour count)
    #[arg(long)]
    pub(crate) prefixes: bool,
    /// Which primary item an exact-cover search branches on: fewest (the one with the fewest
    /// options left, as Knuth's programs) or first (the first uncovered one in the order the
    /// items are listed; for dxz's memo on problems listed in their natural order)
    #[arg(long, value_name = "RULE")]
    pub(crate) branch: Option<String>,
    /// Search only part I of N of the tree (strategies that split: `solve strategies`); the N
    /// parts, run anywhere, merged by `solve merge`, give the whole answer. I/N,J/M: part J
    /// of M of part I's subtrees' descendants
    #[arg(long, value_name = "I/N", allow_hyphen_values = true)]
    pub(crate) part: Option<String>,
    /// Estimate the size of the search tree by this many random probes (Knuth) instead of
    /// searching it (minimize, domination bnb); with `solve plan`, size each part so
    #[arg(long, value_name = "PROBES", allow_negative_numbers = true)]
    pub(crate) estimate: Option<u64>,
    /// With goal count and --part (domination): the optimum, found first (by goal minimize,
    /// whole or in parts), whose placements the parts count
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub(crate) optimum: Option<u64>,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    about = "Solve chessboard puzzles and exact cover problems written as TOML files or in \
             Knuth's exact-cover format",
    after_help = "Other commands:\n  solve compare FILE [--strategies a,b] [--size A..B] [--budget SECS]\n  \
                  solve strategies [FILE]\n  solve check FILE\n  solve plan FILE --parts N [--slurm]\n  \
                  solve merge RECORDS...\n\nExit status: 0 solved, 1 no \
                  solution (proven), 2 bad input or usage, 3 stopped by a limit."
)]
pub(crate) struct SolveCli {
    /// The puzzle file, or - for standard input
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
    /// Output format
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: Format,
    /// Write the answer to this file instead of standard output
    #[arg(long)]
    pub(crate) output: Option<String>,
    /// No progress and no summary line on standard error
    #[arg(long)]
    pub(crate) quiet: bool,
    /// With --part: write the part's record (one JSON line, for `solve merge`) to this file
    /// when the part ends, finished or stopped
    #[arg(long, value_name = "PATH")]
    pub(crate) record: Option<String>,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve merge",
    bin_name = "solve merge",
    about = "Merge the records of a search's parts (`--part I/N --record PATH`) into its answer",
    after_help = "Exit status: 0 every part searched (the answer as one run gives it), 1 no \
                  solution, 2 records that do not belong together, 3 parts still to run."
)]
pub(crate) struct MergeCli {
    /// Record files (JSON lines), folders of them (with the plan's plan.json), or - for
    /// standard input
    #[arg(required = true)]
    pub(crate) records: Vec<String>,
    /// No summary line on standard error
    #[arg(long)]
    pub(crate) quiet: bool,
    /// The answer as text, or as one JSON object with the fields of a whole run's and the
    /// parts' state under "merge"
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: MergeFormat,
    /// Parts searched, stopped and missing, the work done and an estimate of what is left,
    /// then the commands still to run
    #[arg(long, conflicts_with_all = ["missing", "format"])]
    pub(crate) status: bool,
    /// Only the commands still to run, one a line (for a Slurm plan: the array task ids,
    /// comma separated, for `sbatch --array=`)
    #[arg(long, conflicts_with = "format")]
    pub(crate) missing: bool,
    /// Run K finished parts again, chosen at random, and compare count, nodes and list with
    /// their records (exit 2 when one disagrees)
    #[arg(long, value_name = "K")]
    pub(crate) verify: Option<usize>,
    /// Chooses the parts --verify runs: the same S, the same parts (default: from the
    /// clock, and printed)
    #[arg(long, value_name = "S", requires = "verify",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) seed: Option<u64>,
}

/// `solve merge --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum MergeFormat {
    Text,
    Json,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve plan",
    bin_name = "solve plan",
    about = "Print one command per part of a search, for GNU Parallel, xargs or a Slurm array"
)]
pub(crate) struct PlanCli {
    /// The puzzle file (a path: each part reads it again)
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
    /// Parts to cut the search into; with --part I/N, subparts to cut part I into (at most
    /// as many as the search's list has subtrees, or the part's descendants)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) parts: usize,
    /// Folder the parts write their records to, and the plan its manifest (plan.json)
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub(crate) results: String,
    /// Print a Slurm job-array script (one part a task) instead of commands
    #[arg(long)]
    pub(crate) slurm: bool,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve compare",
    bin_name = "solve compare",
    about = "Run several strategies on one puzzle, check that they agree, and tabulate them"
)]
pub(crate) struct CompareCli {
    pub(crate) file: String,
    #[command(flatten)]
    pub(crate) common: Common,
    /// Strategies to run, comma separated (default: every one that applies)
    #[arg(long, value_delimiter = ',')]
    pub(crate) strategies: Vec<String>,
    /// A sweep of board sizes, A..B (inclusive): one row per size, one column per strategy
    #[arg(long = "sizes", alias = "size-range", value_name = "A..B")]
    pub(crate) sizes: Option<String>,
    /// Seconds each strategy may take per puzzle before it shows as `-`
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub(crate) budget: f64,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve strategies",
    bin_name = "solve strategies",
    about = "List the strategies, and which apply to FILE and why not"
)]
pub(crate) struct StrategiesCli {
    pub(crate) file: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(Parser, Debug)]
#[command(
    name = "solve check",
    bin_name = "solve check",
    about = "Validate a puzzle file without solving it"
)]
pub(crate) struct CheckCli {
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
    let bad = || format!("--memory {s}: {MEMORY_ACCEPTED}");
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
            "--memory {s}: {MEMORY_ACCEPTED}, from {}M up (the process itself takes a few \
             megabytes); more than the system gives is capped at 3/4 of what it gives",
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
