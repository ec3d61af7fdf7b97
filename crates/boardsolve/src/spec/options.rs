//! The run options, each declared once.
//!
//! One row per option (its flag, its key in the puzzle file, the type of its value, its
//! default, the values it accepts and a line of help), in one table per group. From the rows
//! come the command line's flags (the CLI builds them with clap), the `[solve]` keys that the
//! file and `--set` take, the range checks with their errors, and docs/options.md
//! ([`options_markdown`]). A flag that has a key is the key given on the command line: it is
//! checked alike and wins over the file's. The commands' own flags (`solve FILE --format`,
//! `solve plan --parts`, `solve merge --verify`, `solve compare --budget`) have tables of their own
//! ([`COMMAND_GROUPS`]), without keys: they say how a command runs, not what a puzzle asks.

use std::fmt::Write as _;

use crate::dlx::Branch;
use crate::engine::Goal;

/// The formats a puzzle file is read in (`--input`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// A TOML puzzle file.
    Toml,
    /// Knuth's exact-cover format (DLX1, DLX2, DLX3).
    Knuth,
    /// Sudoku puzzles, one a line (the benchmark sets' format).
    Lines,
}

impl InputFormat {
    pub const ALL: [InputFormat; 3] = [InputFormat::Toml, InputFormat::Knuth, InputFormat::Lines];
    pub const NAMES: [&'static str; 3] = [
        InputFormat::Toml.name(),
        InputFormat::Knuth.name(),
        InputFormat::Lines.name(),
    ];

    pub const fn name(self) -> &'static str {
        match self {
            InputFormat::Toml => "toml",
            InputFormat::Knuth => "knuth",
            InputFormat::Lines => "lines",
        }
    }

    pub fn parse(s: &str) -> Option<InputFormat> {
        InputFormat::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// The formats `solve merge` writes its answer in (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    Text,
    /// One JSON object: a whole run's fields, and the parts' state under "merge".
    Json,
}

impl MergeFormat {
    pub const ALL: [MergeFormat; 2] = [MergeFormat::Text, MergeFormat::Json];
    pub const NAMES: [&'static str; 2] = [MergeFormat::Text.name(), MergeFormat::Json.name()];

    pub const fn name(self) -> &'static str {
        match self {
            MergeFormat::Text => "text",
            MergeFormat::Json => "json",
        }
    }

    pub fn parse(s: &str) -> Option<MergeFormat> {
        MergeFormat::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// The formats a solve writes its answer in (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
    Svg,
    Dot,
    Knuth,
    KnuthInput,
}

impl OutputFormat {
    pub const ALL: [OutputFormat; 6] = [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Svg,
        OutputFormat::Dot,
        OutputFormat::Knuth,
        OutputFormat::KnuthInput,
    ];
    pub const NAMES: [&'static str; 6] = [
        OutputFormat::Text.name(),
        OutputFormat::Json.name(),
        OutputFormat::Svg.name(),
        OutputFormat::Dot.name(),
        OutputFormat::Knuth.name(),
        OutputFormat::KnuthInput.name(),
    ];
    /// Each format's name and line of help, as `--format` lists them.
    pub const DESCRIBED: [(&'static str, &'static str); 6] = {
        let mut out = [("", ""); 6];
        let mut i = 0;
        while i < out.len() {
            out[i] = (OutputFormat::ALL[i].name(), OutputFormat::ALL[i].help());
            i += 1;
        }
        out
    };

    pub const fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Svg => "svg",
            OutputFormat::Dot => "dot",
            OutputFormat::Knuth => "knuth",
            OutputFormat::KnuthInput => "knuth-input",
        }
    }

    /// What the format writes, in a line.
    pub const fn help(self) -> &'static str {
        match self {
            OutputFormat::Text => {
                "The boards (or a line a puzzle) and the answer line, written as the search goes"
            }
            OutputFormat::Json => {
                "One JSON object (or a line a puzzle), written as the search goes; with --part, \
                 the part's record in one line"
            }
            OutputFormat::Svg => "The boards of the solutions found, drawn (not goal count)",
            OutputFormat::Dot => {
                "Graphviz DOT of the move graph (kind tour), the solution's moves in bold"
            }
            OutputFormat::Knuth => {
                "Solutions as Knuth's DLX1 prints them, then his statistics line (kind cover)"
            }
            OutputFormat::KnuthInput => {
                "The puzzle itself in Knuth's exact-cover format, for his programs; nothing is \
                 solved"
            }
        }
    }

    pub fn parse(s: &str) -> Option<OutputFormat> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// What a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Given or not; a flag takes no value.
    Switch,
    /// A whole number, 0 or more.
    Whole,
    /// A number of seconds, decimals allowed.
    Seconds,
    /// One of a few names.
    Choice(&'static [&'static str]),
    /// One of a few names, each with a line of help (name, help) that the help and the docs
    /// list under the option.
    Described(&'static [(&'static str, &'static str)]),
    /// A word or a text.
    Text,
    /// A text, the flag given once for each.
    Repeated,
    /// Texts separated by commas, in one value.
    List,
}

impl Value {
    /// The type as the docs' table names it.
    pub fn type_name(self) -> &'static str {
        match self {
            Value::Switch => "switch",
            Value::Whole => "integer",
            Value::Seconds => "seconds",
            Value::Choice(_) | Value::Described(_) => "name",
            Value::Text => "text",
            Value::Repeated => "text, repeatable",
            Value::List => "text, comma separated",
        }
    }

    /// The names a choice accepts, in the table's order; `None` when the value is no choice.
    pub fn names(self) -> Option<Vec<&'static str>> {
        match self {
            Value::Choice(names) => Some(names.to_vec()),
            Value::Described(pairs) => Some(pairs.iter().map(|&(name, _)| name).collect()),
            _ => None,
        }
    }
}

/// The values an option accepts beyond its type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Every value of the type.
    Any,
    /// `lo` or more.
    AtLeast(u64),
    /// `lo` to `hi`, both included.
    Between(u64, u64),
    /// More than `lo` and less than `hi`.
    Open(f64, f64),
}

impl Range {
    pub fn contains_whole(self, v: i64) -> bool {
        match self {
            Range::Any => true,
            Range::AtLeast(lo) => v >= 0 && v as u64 >= lo,
            Range::Between(lo, hi) => v >= 0 && (lo..=hi).contains(&(v as u64)),
            Range::Open(lo, hi) => (v as f64) > lo && (v as f64) < hi,
        }
    }

    pub fn contains_real(self, v: f64) -> bool {
        match self {
            Range::Any => !v.is_nan(),
            Range::AtLeast(lo) => v >= lo as f64,
            Range::Between(lo, hi) => v >= lo as f64 && v <= hi as f64,
            Range::Open(lo, hi) => v > lo && v < hi,
        }
    }

    /// The range in words, without the unit: "1 to 1024", "more than 0 and less than 1e9".
    pub fn words(self) -> String {
        match self {
            Range::Any => String::new(),
            Range::AtLeast(lo) => format!("{lo} or more"),
            Range::Between(lo, hi) => format!("{lo} to {hi}"),
            Range::Open(lo, hi) => format!("more than {lo} and less than {hi:e}"),
        }
    }
}

/// A default in the table: a number the code takes, or words for one found at run time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    /// None: the option is off, or has no value unless given.
    None,
    Whole(u64),
    /// Found when the run starts ("every core"), or left to the file or the kind.
    Words(&'static str),
    /// The value the flag takes when it is not given, as the command line writes it: the
    /// command line parses it as it parses the flag's own.
    Literal(&'static str),
    /// None: the flag must be given.
    Required,
}

impl Default {
    pub fn words(self) -> String {
        match self {
            Default::None => String::new(),
            Default::Whole(n) => n.to_string(),
            Default::Words(w) | Default::Literal(w) => w.to_string(),
            Default::Required => "required".into(),
        }
    }
}

/// One option as its table row declares it.
#[derive(Clone, Copy, Debug)]
pub struct RunOption {
    /// The command line's flag, without its dashes: `time-limit`.
    pub flag: &'static str,
    /// Its key in the puzzle file, as a `--set` path: `solve.time_limit`. `None`: a flag only.
    pub key: Option<&'static str>,
    pub value: Value,
    /// The value's name in the usage line: `--time-limit SECS`.
    pub value_name: &'static str,
    /// What the value counts, for the error of one out of range: "nodes".
    pub unit: &'static str,
    pub default: Default,
    pub range: Range,
    pub help: &'static str,
    /// Flags (of the same command) this one is given only with.
    pub requires: &'static [&'static str],
    /// Flags (of the same command) this one is not given with.
    pub conflicts: &'static [&'static str],
    /// Another name the flag is taken by, not shown.
    pub alias: Option<&'static str>,
}

impl RunOption {
    /// What the option asks of the others given with it: "with --verify only", "not with
    /// --missing or --format"; empty when nothing.
    pub fn relations(&self) -> String {
        let flags = |names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| format!("--{n}")).collect();
            match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            }
        };
        let mut out = Vec::new();
        if !self.requires.is_empty() {
            out.push(format!("with {} only", flags(self.requires)));
        }
        if !self.conflicts.is_empty() {
            out.push(format!("not with {}", flags(self.conflicts)));
        }
        out.join("; ")
    }

    /// What the option accepts, for its errors: "seconds, more than 0 and less than 1e9",
    /// "1 or more nodes", "1 to 1024".
    pub fn accepted(&self) -> String {
        let range = self.range.words();
        match (self.range, self.unit) {
            (_, "") => range,
            (Range::Open(..), unit) => format!("{unit}, {range}"),
            (_, unit) => format!("{range} {unit}"),
        }
    }

    /// `Err` unless the whole number `v` is in range.
    pub fn check_whole(&self, v: i64) -> Result<(), OutOfRange<'_>> {
        if self.range.contains_whole(v) {
            Ok(())
        } else {
            Err(OutOfRange { option: self })
        }
    }

    /// `Err` unless the number `v` is in range.
    pub fn check_real(&self, v: f64) -> Result<(), OutOfRange<'_>> {
        if self.range.contains_real(v) {
            Ok(())
        } else {
            Err(OutOfRange { option: self })
        }
    }

    /// The key within its table (`time_limit` of `solve.time_limit`).
    pub fn key_name(&self) -> Option<&'static str> {
        self.key.map(|k| k.rsplit('.').next().unwrap_or(k))
    }
}

/// A value outside its option's range; it says "accepted: ..." with what the option takes.
#[derive(Clone, Copy, Debug)]
pub struct OutOfRange<'a> {
    pub option: &'a RunOption,
}

impl std::fmt::Display for OutOfRange<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "accepted: {}", self.option.accepted())
    }
}

impl std::error::Error for OutOfRange<'_> {}

/// One table: the options of a group.
#[derive(Clone, Copy, Debug)]
pub struct OptionGroup {
    pub name: &'static str,
    /// The command whose own flags these are (`plan`; `solve` for a solve, `solve FILE`);
    /// `None`: the options of every command that reads a puzzle.
    pub command: Option<&'static str>,
    /// The heading of the group in `solve --help`.
    pub title: &'static str,
    pub about: &'static str,
    pub options: &'static [RunOption],
}

const fn row(
    flag: &'static str,
    key: Option<&'static str>,
    value: Value,
    value_name: &'static str,
    default: Default,
    range: Range,
    help: &'static str,
) -> RunOption {
    RunOption {
        flag,
        key,
        value,
        value_name,
        unit: "",
        default,
        range,
        help,
        requires: &[],
        conflicts: &[],
        alias: None,
    }
}

const fn with_unit(o: RunOption, unit: &'static str) -> RunOption {
    RunOption { unit, ..o }
}

const fn requiring(o: RunOption, requires: &'static [&'static str]) -> RunOption {
    RunOption { requires, ..o }
}

const fn excluding(o: RunOption, conflicts: &'static [&'static str]) -> RunOption {
    RunOption { conflicts, ..o }
}

const fn also_named(o: RunOption, alias: &'static str) -> RunOption {
    RunOption {
        alias: Some(alias),
        ..o
    }
}

/// The puzzle: which file, in what format, and what the command line changes in it.
pub static PUZZLE: OptionGroup = OptionGroup {
    command: None,
    name: "puzzle",
    title: "Puzzle options",
    about: "The puzzle: its format, and what the command line changes in it",
    options: &[
        row(
            "size",
            Some("board.size"),
            Value::Whole,
            "N",
            Default::Words("the file's"),
            Range::Any,
            "Board size n (n x n), overriding the file",
        ),
        row(
            "width",
            Some("board.width"),
            Value::Whole,
            "N",
            Default::Words("the file's"),
            Range::Any,
            "Board width, overriding the file",
        ),
        row(
            "height",
            Some("board.height"),
            Value::Whole,
            "N",
            Default::Words("the file's"),
            Range::Any,
            "Board height, overriding the file",
        ),
        row(
            "set",
            None,
            Value::Repeated,
            "KEY.PATH=VALUE",
            Default::None,
            Range::Any,
            "Override any key of the file: --set rules.count=6",
        ),
        row(
            "input",
            None,
            Value::Choice(&InputFormat::NAMES),
            "FORMAT",
            Default::Words(
                "knuth for .dlx, .xcc and .mcc files, toml otherwise and for standard input",
            ),
            Range::Any,
            "The file's format: a TOML puzzle file, Knuth's exact-cover format (DLX1, DLX2, \
             DLX3), or sudoku puzzles one a line (n x n characters: 81 for 9x9, 16 for 4x4; '.' or '0' a blank)",
        ),
    ],
};

/// What is asked of the search: the `[solve]` table of the file.
pub static SOLVE: OptionGroup = OptionGroup {
    command: None,
    name: "solve",
    title: "Solve options",
    about: "What the search is asked: the [solve] table of the puzzle file",
    options: &[
        row(
            "goal",
            Some("solve.goal"),
            Value::Choice(&Goal::NAMES),
            "GOAL",
            Default::Words("the kind's"),
            Range::Any,
            "What to find: one solution, all of them, their count, or the least or most pieces",
        ),
        row(
            "strategy",
            Some("solve.strategy"),
            Value::Text,
            "NAME",
            Default::Words("auto"),
            Range::Any,
            "A strategy name, or auto (see `solve strategies FILE`)",
        ),
        row(
            "unique",
            Some("solve.unique"),
            Value::Switch,
            "",
            Default::None,
            Range::Any,
            "Count classes under the board's symmetries instead of all solutions",
        ),
        row(
            "prefixes",
            Some("solve.prefixes"),
            Value::Switch,
            "",
            Default::None,
            Range::Any,
            "Count every prefix of the board as well: its first m squares in the count's sweep \
             order, the rest as holes (tour count)",
        ),
        row(
            "branch",
            Some("solve.branch"),
            Value::Choice(&Branch::NAMES),
            "RULE",
            Default::Words(Branch::Fewest.name()),
            Range::Any,
            "Which primary item an exact-cover search branches on: fewest (the one with the \
             fewest options left, as Knuth's programs) or first (the first uncovered one in the \
             order the items are listed; for dxz's memo on problems listed in their natural \
             order)",
        ),
        row(
            "limit",
            Some("solve.limit"),
            Value::Whole,
            "N",
            Default::Whole(1000),
            Range::AtLeast(0),
            "Goal all: solutions to print, the count staying exact. Goal count: given (not \
             the default), the count stops at N solutions and says at least N (JSON `complete` \
             false, `stopped` \"solution limit\"; exit 0, the answer asked for: `--limit 2` \
             asks whether a puzzle has one solution); 1 or more, and not with --part",
        ),
        with_unit(
            row(
                "time-limit",
                Some("solve.time_limit"),
                Value::Seconds,
                "SECS",
                Default::None,
                // A run of more than 10^9 seconds (31 years) is no limit at all.
                Range::Open(0.0, 1e9),
                "Stop after this many seconds, reading the file included (exit 3 when the \
                 answer is not proven by then)",
            ),
            "seconds",
        ),
        row(
            "threads",
            Some("solve.threads"),
            Value::Whole,
            "N",
            Default::Words("every core"),
            Range::Between(1, 1024),
            "Worker threads for strategies that split their search",
        ),
    ],
};

/// How a run is bounded and cut: flags only.
pub static RUN: OptionGroup = OptionGroup {
    command: None,
    name: "run",
    title: "Run options",
    about: "How one run is bounded, cut into parts or estimated (flags only)",
    options: &[
        with_unit(
            row(
                "node-limit",
                None,
                Value::Whole,
                "N",
                Default::None,
                Range::AtLeast(1),
                "Stop after this many search nodes",
            ),
            "nodes",
        ),
        row(
            "memory",
            None,
            Value::Text,
            "SIZE",
            Default::Words(
                "3/4 of the machine's memory (the least of MemTotal, the cgroup's memory limit \
                 and `ulimit -v`), which is also the most a run is given",
            ),
            Range::Any,
            "Memory a run may take, reading the file included: bytes, or K, M, G, T (powers of \
             1024), from 8M, e.g. 512M or 4G. A file or job that would need more is refused \
             before it starts (exit 2); a search whose memory grows past it stops (exit 3)",
        ),
        row(
            "scratch",
            None,
            Value::Text,
            "DIR",
            Default::Words(
                "the system's temporary folder ($TMPDIR if this user can write in it, else /tmp)",
            ),
            Range::Any,
            "Where a frontier count (tours, strategy count) writes the states that outgrow \
             --memory: a folder it makes inside DIR and removes at the end, whichever way the \
             run ends; DIR must be an existing folder this user can write in (checked \
             before the run, exit 2); a run that \
             would fill the disk stops (exit 3), at the start of a square whose projected \
             states do not fit. `off`: no spill, the \
             count stops at the memory budget",
        ),
        row(
            "part",
            None,
            Value::Text,
            "I/N",
            Default::None,
            Range::Any,
            "Search only part I of N of the tree (strategies that split: `solve strategies`); \
             the N parts, run anywhere, merged by `solve merge`, give the whole answer. \
             I/N,J/M: part J of M of part I's subtrees' descendants",
        ),
        with_unit(
            row(
                "estimate",
                None,
                Value::Whole,
                "PROBES",
                Default::None,
                Range::AtLeast(1),
                "Estimate the size of the search tree by this many random probes (Knuth) \
                 instead of searching it (minimize, domination bnb); with `solve plan`, estimate \
                 each part's tree alike and list the parts largest first",
            ),
            "probes",
        ),
        row(
            "optimum",
            None,
            Value::Whole,
            "K",
            Default::None,
            Range::Any,
            "With goal count and --part (domination): the optimum, found first (by goal \
             minimize, whole or in parts), whose placements the parts count",
        ),
    ],
};

/// A solve's own flags: its answer's format and where it goes.
pub static OUTPUT: OptionGroup = OptionGroup {
    name: "output",
    command: Some("solve"),
    title: "solve FILE output options",
    about: "What `solve FILE` writes, and where (flags of a solve only: no key in the puzzle \
            file, no `--set` path)",
    options: &[
        row(
            "format",
            None,
            Value::Described(&OutputFormat::DESCRIBED),
            "FORMAT",
            Default::Literal(OutputFormat::Text.name()),
            Range::Any,
            "Output format",
        ),
        row(
            "output",
            None,
            Value::Text,
            "OUTPUT",
            Default::None,
            Range::Any,
            "Write the answer to this file instead of standard output",
        ),
        row(
            "quiet",
            None,
            Value::Switch,
            "",
            Default::None,
            Range::Any,
            "No progress and no summary line on standard error",
        ),
        row(
            "record",
            None,
            Value::Text,
            "PATH",
            Default::None,
            Range::Any,
            "With --part: write the part's record (one JSON line, for `solve merge`) to this \
             file when the part ends, finished or stopped (a stopped run keeps a finished \
             record of the same part already there)",
        ),
    ],
};

/// `solve plan`'s own flags.
pub static PLAN: OptionGroup = OptionGroup {
    name: "plan",
    command: Some("plan"),
    title: "solve plan options",
    about: "How `solve plan` cuts a search and writes its commands (flags of `solve plan` \
            only: no key in the puzzle file, no `--set` path)",
    options: &[
        row(
            "parts",
            None,
            Value::Whole,
            "N",
            Default::Required,
            Range::Between(1, crate::engine::merge::MAX_PARTS as u64),
            "Parts to cut the search into; with --part I/N, subparts to cut part I into (at \
             most as many as the search's list has subtrees, or the part's descendants)",
        ),
        row(
            "results",
            None,
            Value::Text,
            "DIR",
            Default::Literal("results"),
            Range::Any,
            "Folder the parts write their records to, and the plan its manifest (plan.json)",
        ),
        row(
            "slurm",
            None,
            Value::Switch,
            "",
            Default::None,
            Range::Any,
            "Print a Slurm job-array script (one part a task) instead of commands",
        ),
    ],
};

/// `solve merge`'s own flags.
pub static MERGE: OptionGroup = OptionGroup {
    name: "merge",
    command: Some("merge"),
    title: "solve merge options",
    about: "What `solve merge` prints of the records, and which parts it runs again (flags of \
            `solve merge` only: no key in the puzzle file, no `--set` path)",
    options: &[
        row(
            "quiet",
            None,
            Value::Switch,
            "",
            Default::None,
            Range::Any,
            "No summary line on standard error",
        ),
        row(
            "format",
            None,
            Value::Choice(&MergeFormat::NAMES),
            "FORMAT",
            Default::Literal(MergeFormat::Text.name()),
            Range::Any,
            "The answer as text, or as one JSON object with the fields of a whole run's and the \
             parts' state under \"merge\"",
        ),
        excluding(
            row(
                "status",
                None,
                Value::Switch,
                "",
                Default::None,
                Range::Any,
                "Parts searched, stopped and missing, the work done and an estimate of what is \
                 left, then the commands still to run",
            ),
            &["missing", "format"],
        ),
        excluding(
            row(
                "missing",
                None,
                Value::Switch,
                "",
                Default::None,
                Range::Any,
                "Only the commands still to run, one a line (for a Slurm plan: the array task \
                 ids, comma separated, for `sbatch --array=`)",
            ),
            &["format"],
        ),
        row(
            "verify",
            None,
            Value::Whole,
            "K",
            Default::None,
            Range::Any,
            "Run K finished parts again, chosen at random, and compare count, nodes and list \
             with their records (exit 2 when one disagrees)",
        ),
        requiring(
            row(
                "seed",
                None,
                Value::Whole,
                "S",
                Default::Words("from the clock, and printed"),
                Range::AtLeast(1),
                "Chooses the parts --verify runs: the same S, the same parts",
            ),
            &["verify"],
        ),
    ],
};

/// `solve compare`'s own flags.
pub static COMPARE: OptionGroup = OptionGroup {
    name: "compare",
    command: Some("compare"),
    title: "solve compare options",
    about: "Which strategies `solve compare` runs, on which sizes, for how long (flags of \
            `solve compare` only: no key in the puzzle file, no `--set` path)",
    options: &[
        row(
            "strategies",
            None,
            Value::List,
            "STRATEGIES",
            Default::Words("every one that applies"),
            Range::Any,
            "Strategies to run, comma separated",
        ),
        also_named(
            row(
                "sizes",
                None,
                Value::Text,
                "A..B",
                Default::None,
                Range::Any,
                "A sweep of board sizes, A..B (inclusive): one row per size, one column per \
                 strategy; `--size A..B` is read as this",
            ),
            "size-range",
        ),
        with_unit(
            row(
                "budget",
                None,
                Value::Seconds,
                "SECS",
                Default::Literal("10"),
                Range::Open(0.0, 1e9),
                "Seconds each strategy may take per puzzle before it shows as `-`",
            ),
            "seconds",
        ),
    ],
};

/// Every group of the options the commands that read a puzzle share, in the order the help
/// and the docs list them.
pub static OPTION_GROUPS: [&OptionGroup; 3] = [&PUZZLE, &SOLVE, &RUN];

/// The groups of the commands' own flags, in the order the docs list them.
pub static COMMAND_GROUPS: [&OptionGroup; 4] = [&OUTPUT, &PLAN, &MERGE, &COMPARE];

impl OptionGroup {
    /// The option of flag `flag` (without dashes) in this group.
    ///
    /// # Panics
    /// When the group does not declare it: the callers name flags of the tables.
    pub fn option(&self, flag: &str) -> &'static RunOption {
        self.options
            .iter()
            .find(|o| o.flag == flag)
            .unwrap_or_else(|| panic!("no option --{flag} in the {} table", self.name))
    }
}

/// The option of flag `flag` (without dashes) that every command reading a puzzle shares.
///
/// # Panics
/// When no table of [`OPTION_GROUPS`] declares it: the callers name flags of the tables.
pub fn run_option(flag: &str) -> &'static RunOption {
    OPTION_GROUPS
        .iter()
        .flat_map(|g| g.options)
        .find(|o| o.flag == flag)
        .unwrap_or_else(|| panic!("no run option --{flag} is declared"))
}

/// The `[solve]` keys, in the table's order, `options` (the strategies' tuning) last.
pub fn solve_keys() -> Vec<&'static str> {
    SOLVE
        .options
        .iter()
        .filter_map(RunOption::key_name)
        .chain(["options"])
        .collect()
}

/// A markdown table cell: no line breaks, and `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// docs/options.md: the tables, generated from the declarations above (a test compares the
/// file with this; `BOARDSOLVE_WRITE_DOCS=1 cargo test -p boardsolve --lib options_doc`
/// writes it again).
pub fn options_markdown() -> String {
    let mut md = String::from(
        "# Run options\n\n\
         Every option of what a run solves and within what limits (the puzzle, the \
         search, the run), generated from the tables that declare them \
         (crates/boardsolve/src/spec/options.rs), then the flags of a solve's output (`solve \
         FILE`) and of the commands `solve plan`, `solve merge` and `solve compare`; what each \
         output format writes is in docs/cli.md, and how parts are run and merged in \
         docs/parts.md. An option with a key takes the same value in the puzzle file, by \
         `--set KEY=VALUE`, and by its flag; the flag wins over the file, and a flag with a \
         `--set` of its key is an error naming both. A command's own flags have no key.\n\n\
         The command line's reference (every command and its flags) is `solve --help` and \
         `solve COMMAND --help`; `solve man` prints it as a man page (roff, on standard \
         output: `solve man > solve.1`), and `solve completions bash|zsh|fish|elvish|powershell` \
         prints a completion script for that shell. The domination strategies' tuning options \
         (`[solve.options]`, `--set solve.options.GROUP.NAME=VALUE`) are listed by `solve \
         strategies`.\n",
    );
    for g in OPTION_GROUPS.iter().chain(&COMMAND_GROUPS) {
        let _ = write!(
            md,
            "\n## {}\n\n{}.\n\n\
             | flag | key | type | default | accepted | help |\n\
             |---|---|---|---|---|---|\n",
            g.title, g.about
        );
        for o in g.options {
            let flag = match o.value {
                Value::Switch => format!("`--{}`", o.flag),
                _ => format!("`--{} {}`", o.flag, o.value_name),
            };
            let key = o.key.map_or(String::new(), |k| format!("`{k}`"));
            let accepted = match o.value.names() {
                Some(names) => names.join(", "),
                None => o.accepted(),
            };
            let relations = o.relations();
            let help = if relations.is_empty() {
                o.help.to_string()
            } else {
                format!("{} ({relations})", o.help)
            };
            let _ = writeln!(
                md,
                "| {flag} | {key} | {} | {} | {} | {} |",
                o.value.type_name(),
                cell(&o.default.words()),
                cell(&accepted),
                cell(&help)
            );
        }
        // A choice whose values have a line of help each lists them under the table.
        for o in g.options {
            if let Value::Described(pairs) = o.value {
                let _ = writeln!(md, "\n`--{} {}`:\n", o.flag, o.value_name);
                for (name, help) in pairs {
                    let _ = writeln!(md, "- `{name}`: {help}");
                }
            }
        }
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_keys_are_declared_once() {
        // A command takes the shared options and its own: no flag twice among them.
        for own in COMMAND_GROUPS {
            let mut flags: Vec<&str> = OPTION_GROUPS
                .iter()
                .chain([&own])
                .flat_map(|g| g.options)
                .flat_map(|o| std::iter::once(o.flag).chain(o.alias))
                .collect();
            let n = flags.len();
            flags.sort_unstable();
            flags.dedup();
            assert_eq!(flags.len(), n, "a flag declared twice ({})", own.name);
            for o in own.options {
                assert!(o.key.is_none(), "--{}: a command's flag has no key", o.flag);
                for other in o.requires.iter().chain(o.conflicts) {
                    assert!(
                        own.options.iter().any(|p| p.flag == *other),
                        "--{}: --{other} is not a flag of {}",
                        o.flag,
                        own.name
                    );
                }
            }
        }
        // A key's flag is its name with dashes: the two spellings of one option.
        for o in OPTION_GROUPS.iter().flat_map(|g| g.options) {
            if let Some(k) = o.key_name() {
                assert_eq!(k.replace('_', "-"), o.flag);
            }
        }
    }

    #[test]
    fn ranges_say_what_they_check() {
        let t = run_option("time-limit");
        assert!(t.check_real(0.5).is_ok() && t.check_real(1e20).is_err());
        assert_eq!(
            t.check_real(0.0).unwrap_err().to_string(),
            "accepted: seconds, more than 0 and less than 1e9"
        );
        let n = run_option("threads");
        assert!(n.check_whole(1).is_ok() && n.check_whole(1024).is_ok());
        assert_eq!(
            n.check_whole(0).unwrap_err().to_string(),
            "accepted: 1 to 1024"
        );
        assert_eq!(run_option("node-limit").accepted(), "1 or more nodes");
        assert!(run_option("limit").check_whole(-1).is_err());
    }

    /// Every variant of an enum, walked by `next`, a match with no wildcard: a new variant
    /// stops the tests from compiling until it is walked too, and then fails them until the
    /// enum's list (`ALL`, `NAMES`) has it.
    fn variants<T: Copy>(first: T, next: impl Fn(T) -> Option<T>) -> Vec<T> {
        std::iter::successors(Some(first), |&v| next(v)).collect()
    }

    /// The names a row of the tables accepts.
    fn accepted_names(o: &RunOption) -> Vec<&'static str> {
        o.value
            .names()
            .unwrap_or_else(|| panic!("--{} takes a {:?}, not a name", o.flag, o.value))
    }

    /// Each variant's name is accepted by its row, once, and parses back to it.
    fn names_cover<T: Copy + PartialEq + std::fmt::Debug>(
        o: &RunOption,
        all: &[T],
        name: impl Fn(T) -> &'static str,
        parse: impl Fn(&str) -> Option<T>,
    ) {
        let (flag, accepted) = (o.flag, accepted_names(o));
        assert_eq!(
            accepted.len(),
            all.len(),
            "--{flag}: {accepted:?} for {all:?}"
        );
        for &v in all {
            assert_eq!(
                accepted.iter().filter(|&&a| a == name(v)).count(),
                1,
                "--{flag}: {v:?} ({}) in {accepted:?}",
                name(v)
            );
            assert_eq!(parse(name(v)), Some(v), "--{flag}: {}", name(v));
        }
    }

    #[test]
    fn every_variant_is_accepted_by_its_row() {
        let goals = variants(Goal::First, |g| match g {
            Goal::First => Some(Goal::All),
            Goal::All => Some(Goal::Count),
            Goal::Count => Some(Goal::Minimize),
            Goal::Minimize => Some(Goal::Maximize),
            Goal::Maximize => None,
        });
        names_cover(run_option("goal"), &goals, Goal::name, Goal::parse);
        let rules = variants(Branch::Fewest, |b| match b {
            Branch::Fewest => Some(Branch::First),
            Branch::First => None,
        });
        names_cover(run_option("branch"), &rules, Branch::name, Branch::parse);
        let formats = variants(InputFormat::Toml, |f| match f {
            InputFormat::Toml => Some(InputFormat::Knuth),
            InputFormat::Knuth => Some(InputFormat::Lines),
            InputFormat::Lines => None,
        });
        names_cover(
            run_option("input"),
            &formats,
            InputFormat::name,
            InputFormat::parse,
        );
        let merged = variants(MergeFormat::Text, |f| match f {
            MergeFormat::Text => Some(MergeFormat::Json),
            MergeFormat::Json => None,
        });
        names_cover(
            MERGE.option("format"),
            &merged,
            MergeFormat::name,
            MergeFormat::parse,
        );
        let written = variants(OutputFormat::Text, |f| match f {
            OutputFormat::Text => Some(OutputFormat::Json),
            OutputFormat::Json => Some(OutputFormat::Svg),
            OutputFormat::Svg => Some(OutputFormat::Dot),
            OutputFormat::Dot => Some(OutputFormat::Knuth),
            OutputFormat::Knuth => Some(OutputFormat::KnuthInput),
            OutputFormat::KnuthInput => None,
        });
        names_cover(
            OUTPUT.option("format"),
            &written,
            OutputFormat::name,
            OutputFormat::parse,
        );
        // Each value's line of help is its format's.
        for &f in &written {
            assert!(
                OutputFormat::DESCRIBED.contains(&(f.name(), f.help())) && !f.help().is_empty(),
                "--format {}: its help",
                f.name()
            );
        }
    }

    /// docs/options.md is the markdown of the tables; with BOARDSOLVE_WRITE_DOCS set the test
    /// writes it instead.
    #[test]
    fn options_doc_is_the_generated_table() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/options.md");
        let md = options_markdown();
        if std::env::var_os("BOARDSOLVE_WRITE_DOCS").is_some() {
            std::fs::write(&path, &md).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == md,
            "docs/options.md differs from the tables in spec/options.rs; write it again with \
             BOARDSOLVE_WRITE_DOCS=1 cargo test -p boardsolve --lib options_doc"
        );
    }
}
